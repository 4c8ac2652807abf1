"""Resource checks: identifiers, lifecycle operations, identifier and property bindings,
containment, and references to resources.

Spec: service-types.rst §"Resource Identifiers", §"Binding identifiers to operations"
(identifier binding validation, instance and collection operations, implicit and explicit
bindings), §"Resource lifecycle operations" (put/create/read/update/delete/list rules),
§"Resource Properties" (property binding validation), resource-traits.rst §"references
trait". Reference validators (smithy-model): ``ResourceIdentifierValidator``,
``ResourceCycleValidator``, ``ResourceLifecycleValidator``,
``ResourceIdentifierBindingValidator``, ``ResourceOperationInputOutputValidator``,
``MemberShouldReferenceResourceValidator`` and ``ReferencesTraitValidator``; each
validator declares its codes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.model.knowledge import IdentifierBindingIndex, PropertyBindingIndex
from smithy2cfn.model.knowledge_ops import OperationIndex, id_sort_key
from smithy2cfn.model.relationships import NeighborIndex, has_cycle, operations_of, strongly_connected
from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import (
    IDEMPOTENT,
    NOT_PROPERTY,
    PROPERTY,
    READONLY,
    REFERENCES,
    RESOURCE_IDENTIFIER,
)
from smithy2cfn.validation.support.events import error, event, ticked
from smithy2cfn.validation.support.shapes import members_having, shapes_having, shapes_of_type

_STRINGS = ("string", "enum")


def _resources(model: Model) -> list[Shape]:
    return shapes_of_type(model, "resource")


def _type_of(model: Model, node_id: str) -> str | None:
    if "$" in node_id:
        return "member" if model.member(node_id) is not None else None
    shape = model.shapes.get(node_id)
    return shape.type if shape is not None else None


@validator(Code("S3013", Severity.ERROR, "ResourceIdentifier",
               "a child resource lacks its parent's identifiers, or gives them other targets"),
           Code("S3403", Severity.ERROR, "ResourceIdentifier", "a resource identifier is also a resource property"),
           rule="reference ResourceIdentifierValidator (smithy-model); Smithy 2.0 service-types.rst, "
                "Resource identifiers and Resource properties")
def check_resource_identifiers(model: Model) -> Iterable[Diagnostic]:
    """No identifier is also a property; child resources repeat their parents' identifiers.

    Spec: service-types.rst §"Resource Identifiers" ("all of the identifiers of the parent
    resource MUST be repeated verbatim in the child resource"), §"Resource properties"
    (identifiers are not properties, case-insensitively). Reference:
    ``ResourceIdentifierValidator``.
    """
    for resource in _resources(model):
        if resource.properties:
            lowered = {p.lower() for p in resource.properties}
            for name in resource.identifiers:
                if name.lower() in lowered:
                    yield error(model, "S3403", resource.id,
                                f"Resource identifier `{name}` cannot also be a resource property",
                                hint="remove it from `properties`")
        for child_id in resource.resources:
            child = model.shapes.get(child_id)
            if child is None or child.type != "resource":
                continue
            missing = sorted(n for n in resource.identifiers if n not in child.identifiers)
            if missing:
                yield error(model, "S3013", child.id,
                            f"This resource is bound as a child of `{resource.id}`, but it is invalid because its "
                            "`identifiers` property is missing the following identifiers that are defined in "
                            f"`{resource.id}`: [{listed(missing)}]",
                            hint="repeat the parent's identifiers in the child resource")
            mismatched = sorted(f"expected the `{n}` member to target `{t}`, but found a target of "
                                f"`{child.identifiers[n]}`" for n, t in resource.identifiers.items()
                                if n in child.identifiers and child.identifiers[n] != t)
            if mismatched:
                yield error(model, "S3013", child.id,
                            f"The `identifiers` property of this resource is incompatible with its binding to "
                            f"`{resource.id}`: {listed(mismatched, sep='; ')}")


# ----------------------------------------------------------------------------- lifecycle

#: lifecycle → (must be @readonly, must be @idempotent)
_LIFECYCLE_RULES = (("put", False, True), ("create", False, False), ("read", True, False),
                    ("update", False, False), ("delete", False, True), ("list", True, False))


@validator(Code("S3010", Severity.ERROR, "ResourceLifecycle",
               "lifecycle operation with the wrong `@readonly`/`@idempotent`"),
           rule="reference ResourceLifecycleValidator (smithy-model); Smithy 2.0 service-types.rst, "
                "Resource lifecycle operations")
def check_lifecycle_traits(model: Model) -> Iterable[Diagnostic]:
    """Lifecycle operations carry the traits their lifecycle requires.

    Spec: service-types.rst §"Put lifecycle" (not ``@readonly``, ``@idempotent``),
    §"Create lifecycle" (not ``@readonly``), §"Read lifecycle" (``@readonly``),
    §"Update lifecycle" (not ``@readonly``), §"Delete lifecycle" (not ``@readonly``,
    ``@idempotent``), §"List lifecycle" (``@readonly``). Reference:
    ``ResourceLifecycleValidator`` (the events are the resource's).
    """
    for resource in _resources(model):
        for kind, readonly, idempotent in _LIFECYCLE_RULES:
            op_id = getattr(resource, kind)
            op = model.shapes.get(op_id) if op_id else None
            if op is None or op.type != "operation":
                continue
            prefix = (f"The `{kind}` lifecycle operation of this resource targets an invalid operation, "
                      f"`{op.id}`. The targeted operation")
            if readonly != (READONLY in op.traits):
                yield error(model, "S3010", resource.id,
                            f"{prefix} {'must' if readonly else 'must not'} be marked with the readonly trait.",
                            hint=f"{'add' if readonly else 'remove'} @readonly on `{op.id}`")
            if idempotent and IDEMPOTENT not in op.traits:
                yield error(model, "S3010", resource.id, f"{prefix} must be marked as idempotent.",
                            hint=f"add @idempotent to `{op.id}`")


# ----------------------------------------------------------------------------- identifier bindings


def _explicit_binding_conflicts(model: Model) -> Iterable[Diagnostic]:
    containers = dict.fromkeys(m.container for m in members_having(model, RESOURCE_IDENTIFIER))
    for container_id in containers:
        structure = model.shapes.get(container_id)
        if structure is None:
            continue
        potential: dict[str, list[str]] = {}
        explicit: dict[str, list[str]] = {}
        for m in structure.members.values():
            value = m.traits.get(RESOURCE_IDENTIFIER)
            name = value if isinstance(value, str) else m.name
            potential.setdefault(name, []).append(m.name)
            if isinstance(value, str):
                explicit.setdefault(value, []).append(m.name)
        for name, members in potential.items():
            if len(members) > 1 and name in members:
                others = listed((m for m in members if m != name), sort=True, sep="', '")
                yield event(model, "S3400", structure.id,
                            f"Implicit resource identifier for '{name}' is overridden by `resourceIdentifier` trait on "
                            f"members: '{others}'")
        for name, members in explicit.items():
            if len(members) > 1:
                names = listed(members, sort=True, sep="', '")
                yield error(model, "S3401", structure.id,
                            f"Conflicting resource identifier member bindings found for identifier '{name}' between "
                            f"members: '{names}'", hint="bind each identifier with one member only")


def _all_identifiers_bound(model: Model, resource: Shape, op_id: str, bindings: dict[str, str]) -> bool:
    """Every identifier is bound, by a member that targets the identifier's shape (the
    reference's ``hasAllIdentifiersBound``: an explicit binding of a member that targets
    another shape does not count)."""
    structure = model.knowledge(OperationIndex).input_shape(op_id)
    for name, target in resource.identifiers.items():
        member_name = bindings.get(name)
        if member_name is None:
            return False
        member = structure.members.get(member_name) if structure is not None else None
        if member is None or member.target != target:
            return False
    return True


@validator(Code("S3011", Severity.ERROR, "ResourceIdentifierBinding",
               "an instance operation does not bind every identifier with a member of the identifier's target, "
               "or a child resource's operation misses a parent identifier"),
           Code("S3012", Severity.ERROR, "ResourceIdentifierBinding", "collection operation binds every identifier"),
           Code("S3400", Severity.WARNING, "ResourceIdentifierBinding",
                "an implicit identifier binding is overridden by `@resourceIdentifier`"),
           Code("S3401", Severity.ERROR, "ResourceIdentifierBinding",
                "two members bind one identifier with `@resourceIdentifier`"),
           rule="reference ResourceIdentifierBindingValidator (smithy-model); Smithy 2.0 service-types.rst, "
                "Binding identifiers to operations")
def check_identifier_bindings(model: Model) -> Iterable[Diagnostic]:
    """Operations bound to a resource form valid instance or collection operations.

    Spec: service-types.rst §"Identifier binding validation": instance operations
    (``put``/``read``/``update``/``delete`` and ``operations``) bind every identifier of the
    resource in their input, with members that target the identifiers' shapes; collection
    operations (``create``/``list`` and ``collectionOperations``) do not; every operation
    of a child resource binds the identifiers of its parent. Two members cannot bind one
    identifier with ``@resourceIdentifier``, and a WARNING tells where an explicit binding
    overrides an implicit one. (An explicit binding naming no identifier of the resource is
    not an error, as in the reference.) Reference: ``ResourceIdentifierBindingValidator``.
    """
    yield from _explicit_binding_conflicts(model)
    bindings = model.knowledge(IdentifierBindingIndex)
    for resource in _resources(model):
        for child_id in resource.resources:
            child = model.shapes.get(child_id)
            if child is None or child.type != "resource":
                continue
            for op_id in operations_of(child):
                if bindings.binding_type(child.id, op_id) == "none":
                    continue
                bound = bindings.input_bindings(child.id, op_id)
                missing = [n for n in resource.identifiers if n not in bound]
                if missing:
                    yield error(model, "S3011", op_id,
                                f"This operation is bound to the `{child.id}` resource, which is a child of the "
                                f"`{resource.id}` resource, and it is missing the following resource identifier "
                                f"bindings of `{resource.id}`: [{ticked(missing)}]",
                                hint="add @required input members named like the parent's identifiers")
        for op_id in operations_of(resource):
            kind = bindings.binding_type(resource.id, op_id)
            if kind == "none":
                continue
            bound = bindings.input_bindings(resource.id, op_id)
            complete = _all_identifiers_bound(model, resource, op_id, bound)
            if kind == "collection" and complete:
                yield error(model, "S3012", op_id,
                            f"This operation is bound as a collection operation on the `{resource.id}` resource, but "
                            "it improperly binds all of the identifiers of the resource to members of the operation "
                            "input.", hint="bind it as an instance operation, or leave an identifier out of its input")
            elif kind == "instance" and not complete:
                expected = listed((f"required member named `{n}` that targets `{t}`"
                                   for n, t in resource.identifiers.items()), sort=True)
                found = listed((f"required member named `{n}` that targets `{m}`" for n, m in bound.items()), sort=True)
                yield error(model, "S3011", op_id,
                            f"This operation does not form a valid instance operation when bound to resource "
                            f"`{resource.id}`. All of the identifiers of the resource were not implicitly or "
                            f"explicitly bound to the input of the operation. Expected the following identifier "
                            f"bindings: [{expected}]. Found the following identifier bindings: [{found}]",
                            hint="add @required input members named like the identifiers (and targeting the same "
                                 "shapes), or use @resourceIdentifier")


#: How many resources a ResourceCycle message lists before it elides the rest.
_CHAIN_SHOWN = 20


def _chain_text(chain: list[str], repeated: str) -> str:
    shown = chain if len(chain) <= _CHAIN_SHOWN else [*chain[:_CHAIN_SHOWN - 1], f"... ({len(chain) - _CHAIN_SHOWN} more)",
                                                       chain[-1]]
    return " -> ".join([*shown, repeated])


def _first_revisit(children: dict[str, list[str]], start: str) -> tuple[str, list[str]] | None:
    """The reference's ``ResourceCycleValidator.detectCycles`` from ``start``: a depth-first
    walk whose visited set is never unwound, stopping at the first resource met twice
    (``(resource, resources visited before it)``), or ``None``."""
    visited: dict[str, None] = {start: None}
    work = [iter(children[start])]
    while work:
        for kid in work[-1]:
            if kid in visited:
                return kid, list(visited)
            visited[kid] = None
            work.append(iter(children[kid]))
            break
        else:
            work.pop()
    return None


@validator(Code("S3016", Severity.ERROR, "ResourceCycle",
               "resource containment cycle (or two children of a resource sharing a descendant, as the reference "
               "finds)"),
           rule="reference ResourceCycleValidator (smithy-model); Smithy 2.0 service-types.rst, Resource "
                "(resources: no cyclical containment hierarchy)")
def check_resource_containment(model: Model) -> Iterable[Diagnostic]:
    """Resources form no containment cycle.

    Spec: service-types.rst §"Resource" (``resources``: "The resources MUST NOT have a
    cyclical containment hierarchy"). Reference: ``ResourceCycleValidator``, which walks the
    ``resources`` of each resource depth first without unwinding its visited set: the first
    resource met twice is reported (on a cycle, and also where two children of one
    resource share a descendant). Only resources that reach a cycle or a resource bound by
    several parents are walked, and a chain of single children (the usual long cycle) is
    answered from its cycle in linear time.
    """
    children = {s.id: [c for c in dict.fromkeys(s.resources)
                       if c in model.shapes and model.shapes[c].type == "resource"]
                for s in shapes_of_type(model, "resource")}
    parents_of: dict[str, list[str]] = {}
    for rid, kids in children.items():
        for kid in kids:
            parents_of.setdefault(kid, []).append(rid)
    on_cycle = strongly_connected(children) if has_cycle(children) else {}
    shared = {kid for kid, ps in parents_of.items() if len(ps) > 1}
    if not on_cycle and not shared:
        return
    # only resources that reach a cycle or a shared resource can meet one twice
    candidates: set[str] = set()
    todo = [*on_cycle, *shared]
    while todo:
        node = todo.pop()
        if node in candidates:
            continue
        candidates.add(node)
        todo.extend(parents_of.get(node, ()))
    # a resource on a cycle of single children only: the walk goes round and meets it again
    simple = {m for scc in set(on_cycle.values()) if all(len(children[r]) == 1 for r in scc) for m in scc}
    for start in children:
        if start not in candidates:
            continue
        found: tuple[str, list[str]] | None
        if start in simple:
            chain, node = [start], children[start][0]
            while node != start and len(chain) < _CHAIN_SHOWN:
                chain.append(node)
                node = children[node][0]
            rest = len(on_cycle[start]) - len(chain)
            found = (start, chain if rest == 0 else [*chain, f"... ({rest} more)"])
        else:
            found = _first_revisit(children, start)
        if found is None:
            continue
        resource, visited = found
        yield error(model, "S3016", resource, f"Circular resource hierarchy found: {_chain_text(visited, resource)}",
                    hint="a resource cannot contain itself, and a resource's children cannot share a descendant")


# ----------------------------------------------------------------------------- properties

#: Lifecycle operations whose properties count as "used" (reference
#: ``ResourceOperationInputOutputValidator``; ``list`` and collection operations do not).
_PROPERTY_LIFECYCLES = ("put", "create", "read", "update", "delete")


def _check_properties_shape(model: Model, resource: Shape, operation: Shape, direction: str, name: str,
                            identifier_members: set[str]) -> Iterable[Diagnostic]:
    index = model.knowledge(PropertyBindingIndex)
    shape_id = index.properties_shape(operation, direction)
    shape = model.shapes.get(shape_id) if shape_id else None
    if shape is None:
        return
    by_property: dict[str, list[Member]] = {}
    for member in shape.members.values():
        prop = index.property_name(member.id)
        if prop is None:
            continue
        by_property.setdefault(prop, []).append(member)
        if prop in resource.properties:
            expected = resource.properties[prop]
            if expected != member.target:
                yield error(model, "S3017", member.id,
                            f"This member must target `{expected}`. This member is used as part of the `{name}` "
                            f"operation of the `{resource.id}` resource and conflicts with its `{prop}` resource "
                            "property.", hint=f"target `{expected}`")
        elif member.name not in identifier_members:
            yield error(model, "S3017", member.id,
                        f"Member `{member.name}` does not target a property or identifier for resource "
                        f"`{resource.id}`. If it is an identifier, apply the `{RESOURCE_IDENTIFIER}` trait. If it is a "
                        f"property, apply the `{PROPERTY}` trait. If it is neither, apply the `{NOT_PROPERTY}` trait.")
    for prop, members in sorted(by_property.items()):
        if len(members) > 1:
            names = listed(m.name for m in sorted(members, key=lambda m: id_sort_key(m.id)))
            yield error(model, "S3017", shape.id,
                        f"This shape contains members with conflicting resource property names that resolve to "
                        f"'{prop}': {names}", hint="bind each property with one member only")


@validator(Code("S3017", Severity.ERROR, "ResourceOperationInputOutput",
               "an input/output member maps to no property or identifier, to a property of another target, or "
               "twice; a property no operation uses"),
           rule="reference ResourceOperationInputOutputValidator (smithy-model); Smithy 2.0 service-types.rst, "
                "Resource property binding validation")
def check_property_bindings(model: Model) -> Iterable[Diagnostic]:
    """The input and output members of a resource's lifecycle and instance operations map to
    its properties (or identifiers), with the properties' targets, each property once; every
    property is used by one of them.

    Spec: service-types.rst §"Resource property binding validation". Only resources that
    declare ``properties`` are checked. Reference: ``ResourceOperationInputOutputValidator``
    (which, for input members too, accepts the names the output binds to identifiers).
    """
    index = model.knowledge(PropertyBindingIndex)
    ids = model.knowledge(IdentifierBindingIndex)
    for resource in _resources(model):
        if not resource.properties:
            continue
        used: set[str] = set()
        named = [(kind, getattr(resource, kind)) for kind in _PROPERTY_LIFECYCLES if getattr(resource, kind)]
        named += [(op_id.rpartition("#")[2], op_id) for op_id in resource.operations]
        for name, op_id in named:
            operation = model.shapes.get(op_id)
            if operation is None or operation.type != "operation":
                continue
            for direction in ("input", "output"):
                shape_id = index.properties_shape(operation, direction)
                shape = model.shapes.get(shape_id) if shape_id else None
                for member in (shape.members.values() if shape is not None else ()):
                    prop = index.property_name(member.id)
                    if prop is not None:
                        used.add(prop)
            identifier_members = set(ids.output_bindings(resource.id, op_id).values())
            for direction in ("input", "output"):
                yield from _check_properties_shape(model, resource, operation, direction, name, identifier_members)
        for prop in sorted(set(resource.properties) - used):
            yield error(model, "S3017", resource.id,
                        f"Resource property `{prop}` is not used in the input or output of create or an instance "
                        "operation.", hint="bind it in the input or output of a lifecycle or instance operation")


# ----------------------------------------------------------------------------- references


@validator(Code("S3402", Severity.WARNING, "MemberShouldReferenceResource",
               "a member named and typed like a resource identifier without `@references`"),
           rule="reference MemberShouldReferenceResourceValidator (smithy-model); Smithy 2.0 resource-traits.rst, "
                "references trait")
def check_member_should_reference_resource(model: Model) -> Iterable[Diagnostic]:
    """Warn about members that look like a resource identifier but do not reference it.

    Spec: resource-traits.rst §"references trait". Reference:
    ``MemberShouldReferenceResourceValidator`` (WARNING): a member named like an identifier
    of a resource and targeting the identifier's shape, not bound to that resource (or one
    of its children), and not in a ``@references`` trait of the member or its structure.
    """
    by_identifier: dict[str, dict[str, set[str]]] = {}
    for resource in _resources(model):
        for name, target in resource.identifiers.items():
            by_identifier.setdefault(name, {}).setdefault(target, set()).add(resource.id)
    if not by_identifier:
        return
    reach = _BindingReach(model)
    for shape in model.shapes.values():
        for member in shape.members.values():
            candidates = by_identifier.get(member.name, {})
            target = model.shapes.get(member.target)
            if not candidates or target is None or target.type not in _STRINGS:
                continue
            resources = candidates.get(member.target)
            if not resources:
                continue
            bound = reach.bound(member.id)
            potential = {r for r in resources if not bound & reach.bit[r]}
            potential -= _referenced_resources(member.traits) | _referenced_resources(shape.traits)
            if potential:
                yield event(model, "S3402", member.id,
                            "This member appears to reference the following resources without being included in a "
                            f"`@references` trait: [{ticked(potential)}]",
                            hint="add a @references trait to the member or its structure")


def _reference_text(reference: dict) -> str:
    """The reference's ``Reference.toString()``: ``Reference`` and its compact JSON, ``ids``
    sorted by name (``resource``, ``ids``, ``service``, ``rel``, those that are set)."""
    node: dict = {"resource": reference.get("resource")}
    ids = reference.get("ids")
    if isinstance(ids, dict) and ids:
        node["ids"] = dict(sorted(ids.items()))
    for key in ("service", "rel"):
        if isinstance(reference.get(key), str):
            node[key] = reference[key]
    return "Reference" + json.dumps(node, ensure_ascii=False, separators=(",", ":"), default=str)


def _references_of(value: object) -> list[dict]:
    """The well-formed entries of a ``@references`` value (the trait-value check reports the
    others): objects with a string ``resource`` and, when present, ``ids`` of strings."""
    if not isinstance(value, list):
        return []
    out = []
    for ref in value:
        if not isinstance(ref, dict) or not isinstance(ref.get("resource"), str):
            continue
        ids = ref.get("ids", {})
        if not isinstance(ids, dict) or not all(isinstance(v, str) for v in ids.values()):
            continue
        out.append(ref)
    return out


def _structure_reference(model: Model, shape: Shape, ref: dict, resource: Shape) -> Iterable[Diagnostic]:
    ids: dict[str, str] = ref.get("ids") or {}
    identifiers = resource.identifiers
    resolved = dict(ids) if ids else {name: name for name in identifiers}
    implicit = resolved != ids
    text = _reference_text(ref)
    if not implicit:
        if len(resolved) != len(identifiers):
            prefix = "Too many identifiers" if len(identifiers) < len(ids) else "Not enough identifiers"
            yield event(model, "S3405", shape.id,
                        f"{prefix} were provided in the `ids` properties of {text}. Expected {len(identifiers)} "
                        f"identifiers(s), but found {len(ids)}. This resource requires bindings for the following "
                        f"identifiers: [{ticked(identifiers)}].", trait=REFERENCES,
                        hint="give `ids` one entry per identifier of the resource")
        extra = set(resolved) - set(identifiers)
        if extra:
            yield event(model, "S3405", shape.id,
                        f"`references` trait {text} contains extraneous resource identifier bindings, "
                        f"[{ticked(extra)}], that are not actually identifier names of the resource, "
                        f"`{ref['resource']}`. This resource has the following identifier names: "
                        f"[{ticked(identifiers)}]", trait=REFERENCES,
                        hint="the keys of `ids` are the resource's identifier names")
    reasons = []
    for name in dict.fromkeys(resolved.values()):
        member = shape.members.get(name)
        if member is None:
            reasons.append(f"implicit binding of `{name}` is not part of the structure (set \"rel\" to "
                           "\"collection\" to create a collection binding)" if implicit
                           else f"`{name}` refers to a member that is not part of the structure")
        elif _type_of(model, member.target) not in _STRINGS:
            reasons.append(f"`{name}` refers to a member that does not target a string shape")
    if reasons:
        yield event(model, "S3405", shape.id,
                    f"`references` trait {text} is invalid for the following reasons: {listed(reasons, sort=True, sep='; ')}",
                    trait=REFERENCES, hint="each value of `ids` names a member of the structure targeting a string")


@validator(Code("S3405", Severity.ERROR, "ReferencesTrait",
               "a `@references` entry that targets no resource, has `ids` on a string shape or of the wrong count "
               "or names, or names members that are missing or not strings"),
           rule="reference ReferencesTraitValidator (smithy-model); Smithy 2.0 resource-traits.rst, references "
                "trait")
def check_references(model: Model) -> Iterable[Diagnostic]:
    """``@references`` entries point at resources, through members that exist.

    Spec: resource-traits.rst §"references trait" (the resource, ``ids`` mapping each
    identifier name to a member of the structure that targets a string, implicit ids, and
    string shapes referencing a resource of exactly one identifier without ``ids``).
    Reference: ``ReferencesTraitValidator`` (ERROR ``ReferencesTrait``, on the shape, located
    at the trait): ``ids`` on a string shape; a reference to a shape that is no resource; on a
    string shape, a resource without exactly one identifier; on a structure, explicit
    ``ids`` whose count differs from the identifiers' or with keys that are no identifier,
    and ``ids`` values (or, implicitly, identifier names) that are no member of the structure
    or a member that does not target a string or enum. A reference to a missing shape is the
    trait value's problem (``@idRef``), not this one's.
    """
    for shape in shapes_having(model, REFERENCES):
        is_string = shape.type in _STRINGS
        for ref in _references_of(shape.traits[REFERENCES]):
            text = _reference_text(ref)
            if is_string and ref.get("ids"):
                yield event(model, "S3405", shape.id, f"References applied to string shapes cannot contain 'ids': {text}",
                            trait=REFERENCES, hint="remove `ids`: a string shape is the single identifier's value")
            target = model.shapes.get(ref["resource"])
            if target is None:
                continue
            if target.type != "resource":
                yield event(model, "S3405", shape.id,
                            f"`references` trait reference targets a {target.type} shape not a resource: {text}",
                            trait=REFERENCES, hint="reference a resource shape")
            elif shape.type == "structure":
                yield from _structure_reference(model, shape, ref, target)
            elif is_string and len(target.identifiers) != 1:
                yield event(model, "S3405", shape.id,
                            f"This string shape contains an invalid reference to {target.id}: {text}. References on a "
                            "string shape can only refer to resource shapes with exactly one entry in its identifiers "
                            "property, but this shape has the following identifiers: "
                            f"[{ticked(target.identifiers)}]", trait=REFERENCES,
                            hint="reference the resource from a structure, whose members give each identifier")


def _referenced_resources(traits: dict) -> set[str]:
    value = traits.get(REFERENCES)
    if not isinstance(value, list):
        return set()
    return {r["resource"] for r in value if isinstance(r, dict) and isinstance(r.get("resource"), str)}


class _BindingReach:
    """For a member, the resources that bind it and their children, as one bit mask per node.

    A resource binds a node when the node is reachable from it through valid directed
    relationships (the reference's ``MemberShouldReferenceResourceValidator`` walks the
    reverse relationships up from the member); the validator ignores those resources and
    their direct children. Walking up again from every member cost the size of what lies
    above it: in a chain of nested resources each member of each level walked up through
    every parent (time cubic in the depth, while the model grows with its square). Here
    each node's mask is computed once (resources ``i`` ↔ bit ``1 << i``): the union, over
    what lies above the node, of each resource's bit and its children's bits, strongly
    connected components (a recursive structure, a resource bound by its own operation)
    sharing one mask (Tarjan's algorithm, iterative).
    """

    def __init__(self, model: Model) -> None:
        self.index = model.knowledge(NeighborIndex)
        resources = _resources(model)
        #: resource ID → its bit
        self.bit: dict[str, int] = {r.id: 1 << i for i, r in enumerate(resources)}
        #: resource ID → its bit and its children's bits
        self._own: dict[str, int] = {}
        for r in resources:
            mask = self.bit[r.id]
            for child in r.resources:
                mask |= self.bit.get(child, 0)
            self._own[r.id] = mask
        #: node ID → the bits of the resources above it (itself included) and their children
        self._mask: dict[str, int] = {}

    def _up(self, node: str) -> list[str]:
        return [rel.shape for rel in self.index.reverse(node) if rel.type.directed]

    def bound(self, member_id: str) -> int:
        """The bits of the resources from which ``member_id`` is reachable through directed
        relationships, and of their children (``member_id`` itself is no resource)."""
        mask = 0
        for node in self._up(member_id):
            mask |= self._closure(node)
        return mask

    def _closure(self, start: str) -> int:
        done = self._mask
        if start in done:
            return done[start]
        order: dict[str, int] = {start: 0}
        low: dict[str, int] = {start: 0}
        stack: list[str] = [start]
        on_stack: set[str] = {start}
        work = [(start, iter(self._up(start)))]
        while work:
            node, kids = work[-1]
            for kid in kids:
                if kid in done:
                    continue
                if kid not in order:
                    order[kid] = low[kid] = len(order)
                    stack.append(kid)
                    on_stack.add(kid)
                    work.append((kid, iter(self._up(kid))))
                    break
                if kid in on_stack and order[kid] < low[node]:
                    low[node] = order[kid]
            else:
                work.pop()
                if work and low[node] < low[work[-1][0]]:
                    low[work[-1][0]] = low[node]
                if low[node] == order[node]:
                    component: list[str] = []
                    while True:
                        x = stack.pop()
                        on_stack.discard(x)
                        component.append(x)
                        if x == node:
                            break
                    members = set(component)
                    mask = 0
                    for x in component:
                        mask |= self._own.get(x, 0)
                        for kid in self._up(x):
                            if kid not in members:
                                mask |= done[kid]
                    for x in component:
                        done[x] = mask
        return done[start]


__all__ = [
    "check_identifier_bindings",
    "check_lifecycle_traits",
    "check_member_should_reference_resource",
    "check_property_bindings",
    "check_references",
    "check_resource_containment",
    "check_resource_identifiers",
]
