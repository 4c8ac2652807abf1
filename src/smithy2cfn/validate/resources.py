"""Service-type checks: resource identifiers, lifecycle operations, bindings, references.

Spec: service-types.rst §"Resource Identifiers", §"Binding identifiers to operations"
(identifier binding validation, instance and collection operations, implicit and explicit
bindings), §"Resource lifecycle operations" (put/create/read/update/delete/list rules),
§"Resource Properties" (property binding validation), and the relationship tables of
§"Service", §"Operation" and §"Resource" (what each property must target).
"""

from __future__ import annotations

import graphlib
from collections.abc import Iterable

from smithy2cfn.diagnostics import Diagnostic
from smithy2cfn.model.knowledge import IdentifierBindingIndex
from smithy2cfn.model.relationships import LIFECYCLE_RELATIONSHIPS, NeighborIndex, RelationshipType
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.model.traits import (
    ERROR,
    IDEMPOTENT,
    MIXIN,
    NOT_PROPERTY,
    PROPERTY,
    READONLY,
    RESOURCE_IDENTIFIER,
)
from smithy2cfn.validate.common import error, user_shapes

_STRINGS = ("string", "enum")


def _resources(model: Model) -> list[Shape]:
    return [s for s in user_shapes(model) if s.type == "resource" and MIXIN not in s.traits]


def parents(model: Model, resource_id: str) -> list[str]:
    """The resources that bind ``resource_id`` as a child (their ``resources`` property), in
    model order: the valid ``resource`` relationships pointing at it from resources."""
    return [rel.shape for rel in model.knowledge(NeighborIndex).reverse(resource_id)
            if rel.type is RelationshipType.RESOURCE and rel.shape in model.shapes
            and model.shapes[rel.shape].type == "resource"]


_PROPERTY = {RelationshipType.OPERATION: "operations", RelationshipType.COLLECTION_OPERATION: "collectionOperations"}


def _bound_operations(model: Model, resource: Shape, collection: bool) -> list[tuple[str, str]]:
    """``(kind, operation ID)`` of the instance (``put``, ``read``, ``update``, ``delete``,
    ``operations``) or collection (``list``, ``create``, ``collectionOperations``) operations
    of a resource, in relationship order; ``kind`` is the resource property that binds it."""
    out = []
    for rel in model.knowledge(NeighborIndex).neighbors(resource.id):
        kind = rel.type
        if kind.is_collection_operation_binding if collection else kind.is_instance_operation_binding:
            out.append((_PROPERTY.get(kind, kind.label or ""), rel.neighbor))
    return out



def check_lifecycle_traits(model: Model) -> Iterable[Diagnostic]:
    """Lifecycle operations carry the traits their lifecycle requires.

    Spec: service-types.rst §"Put lifecycle" (not ``@readonly``, ``@idempotent``),
    §"Create lifecycle" (not ``@readonly``), §"Read lifecycle" (``@readonly``),
    §"Update lifecycle" (not ``@readonly``), §"Delete lifecycle" (not ``@readonly``,
    ``@idempotent``), §"List lifecycle" (``@readonly``).
    """
    rules = {
        "put": (False, True), "create": (False, None), "read": (True, None),
        "update": (False, None), "delete": (False, True), "list": (True, None),
    }
    for resource in _resources(model):
        for kind, op_id in resource.lifecycle().items():
            op = model.shapes.get(op_id)
            if op is None or op.type != "operation":
                continue
            readonly, idempotent = rules[kind]
            where = f"The `{kind}` lifecycle operation of resource `{resource.id}`"
            if readonly and READONLY not in op.traits:
                yield error(model, "S3010", op.id, f"{where} must be marked with the @readonly trait")
            if not readonly and READONLY in op.traits:
                yield error(model, "S3010", op.id, f"{where} must not be marked with the @readonly trait")
            if idempotent and IDEMPOTENT not in op.traits:
                yield error(model, "S3010", op.id, f"{where} must be marked with the @idempotent trait")


def check_identifier_bindings(model: Model) -> Iterable[Diagnostic]:
    """Operations bound to a resource form valid instance or collection operations.

    Spec: service-types.rst §"Identifier binding validation": instance operations
    (``put``/``read``/``update``/``delete`` and ``operations``) bind every identifier of the
    resource in their input; collection operations (``create``/``list`` and
    ``collectionOperations``) omit at least one identifier but bind every identifier of the
    parent resources. Also, an explicit ``@resourceIdentifier`` binding must name an
    identifier of the resource it is used with.
    """
    bindings = model.knowledge(IdentifierBindingIndex)
    for resource in _resources(model):
        ids = resource.identifiers
        parent_ids: set[str] = set()
        for p in parents(model, resource.id):
            parent = model.shapes.get(p)
            if parent is not None:
                parent_ids |= set(parent.identifiers) & set(ids)
        for kind, op_id in _bound_operations(model, resource, False):
            op = model.shapes.get(op_id)
            if op is None or op.type != "operation" or not ids:
                continue
            bound = bindings.input_bindings(resource.id, op.id)
            missing = sorted(set(ids) - set(bound))
            if missing:
                what = f"`{kind}` lifecycle operation" if kind != "operations" else "instance operation"
                yield error(model, "S3011", op.id,
                            f"This operation is bound as the {what} of resource `{resource.id}`, but its "
                            f"input does not bind these identifiers of the resource: {', '.join(missing)}. "
                            f"Expected bindings: [{', '.join(sorted(ids))}]; found: "
                            f"[{', '.join(sorted(bound))}]",
                            hint="add @required input members named like the identifiers (and targeting "
                                 "the same shapes), or use @resourceIdentifier")
        for kind, op_id in _bound_operations(model, resource, True):
            op = model.shapes.get(op_id)
            if op is None or op.type != "operation" or not ids:
                continue
            bound = bindings.input_bindings(resource.id, op.id)
            if set(ids) <= set(bound):
                what = f"`{kind}` lifecycle operation" if kind != "collectionOperations" else \
                    "collection operation"
                yield error(model, "S3012", op.id,
                            f"This operation is bound as the {what} of resource `{resource.id}`, but it "
                            f"binds every identifier of the resource ({', '.join(sorted(ids))}); a "
                            "collection operation must omit at least one")
            missing = sorted(parent_ids - set(bound))
            if missing:
                yield error(model, "S3011", op.id,
                            f"This operation is bound as a collection operation of resource "
                            f"`{resource.id}`, but it does not bind these identifiers of its parent "
                            f"resource: {', '.join(missing)}")
        # explicit bindings must name identifiers
        for _kind, op_id in _bound_operations(model, resource, False) + _bound_operations(model, resource, True):
            op = model.shapes.get(op_id)
            structure = model.shapes.get(op.input) if op is not None and op.input else None
            if structure is None:
                continue
            for member in structure.members.values():
                name = member.traits.get(RESOURCE_IDENTIFIER)
                if isinstance(name, str) and name not in ids:
                    yield error(model, "S3015", member.id,
                                f"The @resourceIdentifier trait names `{name}`, which is not an identifier "
                                f"of resource `{resource.id}` (identifiers: {', '.join(sorted(ids)) or 'none'})")


def check_resource_identifiers(model: Model) -> Iterable[Diagnostic]:
    """Identifiers target strings; child resources repeat their parents' identifiers.

    Spec: service-types.rst §"Resource Identifiers": identifiers "MUST target string shapes";
    "all of the identifiers of the parent resource MUST be repeated verbatim in the child
    resource" (same name, same target).
    """
    for resource in _resources(model):
        for name, target in sorted(resource.identifiers.items()):
            shape = model.shapes.get(target)
            if shape is not None and shape.type not in _STRINGS:
                yield error(model, "S3014", resource.id,
                            f"Resource identifier `{name}` targets `{target}`, a {shape.type} shape; "
                            "identifiers must target string shapes")
        for parent_id in parents(model, resource.id):
            parent = model.shapes.get(parent_id)
            if parent is None:
                continue
            for name, target in sorted(parent.identifiers.items()):
                mine = resource.identifiers.get(name)
                if mine is None:
                    yield error(model, "S3013", resource.id,
                                f"Resource `{resource.id}` is bound as a child of `{parent_id}` but does not "
                                f"define its parent's identifier `{name}`")
                elif mine != target:
                    yield error(model, "S3013", resource.id,
                                f"Resource `{resource.id}` is bound as a child of `{parent_id}`, but its "
                                f"identifier `{name}` targets `{mine}` instead of the parent's `{target}`")


def check_resource_containment(model: Model) -> Iterable[Diagnostic]:
    """Resources form no containment cycle.

    Spec: service-types.rst §"Resource" (``resources``: "The resources MUST NOT have a
    cyclical containment hierarchy"). :mod:`graphlib` finds whether there is a cycle; only
    then is networkx imported (~0.15 s) to report every resource on one (a resource that
    merely contains one is not): the strongly connected components of the ``resources``
    graph with more than one resource, or one that binds itself. Linear in the bindings.
    """
    index = model.knowledge(NeighborIndex)
    children = {s.id: [rel.neighbor for rel in index.neighbors(s.id) if rel.type is RelationshipType.RESOURCE
                       and rel.is_valid and model.shapes[rel.neighbor].type == "resource"]
                for s in model.shapes.values() if s.type == "resource"}
    try:
        graphlib.TopologicalSorter(children).prepare()
        return
    except graphlib.CycleError:
        pass
    import networkx as nx  # only once a cycle exists: its import costs ~0.15 s

    g = nx.DiGraph()
    g.add_edges_from((rid, child) for rid, kids in children.items() for child in kids)
    on_cycle: set[str] = set()
    for component in nx.strongly_connected_components(g):
        if len(component) > 1 or any(g.has_edge(r, r) for r in component):
            on_cycle |= component
    for start in sorted(on_cycle):
        if start not in model.prelude_ids:
            yield error(model, "S3016", start,
                        f"Resource `{start}` is contained in itself through its child resources")


#: What each relationship of a service, resource or operation must target: relationship
#: type → (allowed shape types, how the message names the relationship).
_TARGETS: dict[RelationshipType, tuple[tuple[str, ...], str]] = {
    RelationshipType.INPUT: (("structure",), "input"),
    RelationshipType.OUTPUT: (("structure",), "output"),
    RelationshipType.ERROR: (("structure",), "error"),
    RelationshipType.OPERATION: (("operation",), "operation binding"),
    RelationshipType.RESOURCE: (("resource",), "resource binding"),
    RelationshipType.COLLECTION_OPERATION: (("operation",), "collection operation binding"),
    **{kind: (("operation",), f"`{name}` operation") for name, kind in LIFECYCLE_RELATIONSHIPS.items()},
}


def check_relationship_targets(model: Model) -> Iterable[Diagnostic]:
    """Service, resource and operation properties reference the right kinds of shapes.

    Spec: service-types.rst §"Service" (``operations`` → operations, ``resources`` →
    resources, ``errors`` → ``@error`` structures), §"Operation" (``input``/``output`` →
    structures, ``errors`` → ``@error`` structures), §"Resource" (lifecycle and
    ``operations`` → operations, ``resources`` → resources); model.rst §"Member" (a member
    cannot target a service, resource, operation or member; map keys target strings). The
    relationships are the shape's :func:`~smithy2cfn.model.relationships.relationships`
    (a broken reference is the loader's ``S2001``).
    """
    index = model.knowledge(NeighborIndex)
    for shape in user_shapes(model):
        for rel in index.neighbors(shape.id):
            rule = _TARGETS.get(rel.type)
            target = model.shapes.get(rel.neighbor) if rule is not None else None
            if target is None:
                continue
            allowed, what = rule
            if target.type not in allowed:
                yield error(model, "S3018", shape.id,
                            f"The {what} of `{shape.id}` targets `{target.id}`, a {target.type} shape; it must "
                            f"target {' or '.join(allowed)} shapes")
            elif rel.type is RelationshipType.ERROR and ERROR not in target.traits:
                yield error(model, "S3018", shape.id,
                            f"`{shape.id}` lists `{target.id}` as an error, but it is not marked with the @error trait")
        for member in shape.members.values():
            for rel in index.neighbors(member.id):
                target = model.shapes.get(rel.neighbor) if rel.type is RelationshipType.MEMBER_TARGET else None
                if target is None:
                    continue
                if target.type in ("service", "resource", "operation"):
                    yield error(model, "S3018", member.id,
                                f"Member `{member.id}` targets `{target.id}`, a {target.type} shape; members "
                                "cannot target service, resource or operation shapes")
                elif shape.type == "map" and member.name == "key" and target.type not in _STRINGS:
                    yield error(model, "S3018", member.id,
                                f"Map key `{member.id}` targets `{target.id}`, a {target.type} shape; map "
                                "keys must target string shapes")


def _not_property(model: Model, traits: dict) -> bool:
    """True for members marked ``@notProperty`` or with a trait that is itself ``@notProperty``."""
    if NOT_PROPERTY in traits:
        return True
    for tid in traits:
        definition = model.shapes.get(tid)
        if definition is not None and NOT_PROPERTY in definition.traits:
            return True
    return False


def check_property_bindings(model: Model) -> Iterable[Diagnostic]:
    """``@property`` names a declared resource property; bound members match its target.

    Spec: service-types.rst §"Resource property binding validation": "Members marked with a
    property trait using a name that does not map to a declared resource property are
    invalid" and "Members that provide a value for a resource property but use a different
    target shape are invalid". Only resources that declare ``properties`` are checked, on the
    top-level input and output members of their lifecycle and instance operations.
    """
    for resource in _resources(model):
        if not resource.properties:
            continue
        ops = [o for _, o in _bound_operations(model, resource, False) + _bound_operations(model, resource, True)]
        seen: set[str] = set()
        for op_id in ops:
            op = model.shapes.get(op_id)
            if op is None or op.type != "operation":
                continue
            for io in (op.input, op.output):
                structure = model.shapes.get(io) if io else None
                if structure is None or structure.id in seen:
                    continue
                seen.add(structure.id)
                for member in structure.members.values():
                    if _not_property(model, member.traits):
                        continue
                    prop = member.traits.get(PROPERTY)
                    name = member.name
                    if isinstance(prop, dict) and isinstance(prop.get("name"), str):
                        name = prop["name"]
                        if name not in resource.properties:
                            yield error(model, "S3017", member.id,
                                        f"The @property trait of `{member.id}` names `{name}`, which is not a "
                                        f"property of resource `{resource.id}`")
                            continue
                    if name in resource.properties and resource.properties[name] != member.target \
                            and name not in resource.identifiers:
                        yield error(model, "S3017", member.id,
                                    f"Member `{member.id}` is bound to property `{name}` of resource "
                                    f"`{resource.id}`, but targets `{member.target}` instead of "
                                    f"`{resource.properties[name]}`")


__all__ = [
    "check_identifier_bindings",
    "check_lifecycle_traits",
    "check_property_bindings",
    "check_relationship_targets",
    "check_resource_containment",
    "check_resource_identifiers",
    "parents",
]
