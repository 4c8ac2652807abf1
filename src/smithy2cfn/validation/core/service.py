"""Service closure checks: unique names, renames, single bindings, auth, the Unit type.

Spec: service-types.rst §"Service" (shape names in a service closure are case-insensitively
unique unless ``rename`` disambiguates them; ``rename`` rules), §"Resource" and
§"Operation" (bound once per closure), model.rst §"Shape ID" (IDs case-insensitively
unique), §"Unit type", authentication-traits.rst §"auth trait". Reference validators:
``ServiceValidator``, ``ShapeIdConflictValidator``, ``SingleResourceBindingValidator``,
``SingleOperationBindingValidator``, ``AuthTraitValidator``,
``ServiceAuthDefinitionsValidator``, ``UnitTypeValidator``,
``ServiceBoundResourceOperationValidator``.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.model.knowledge import TopDownIndex
from smithy2cfn.model.knowledge_http import is_identifier
from smithy2cfn.model.knowledge_ops import OperationIndex, ServiceIndex, id_sort_key, sorted_ids
from smithy2cfn.model.relationships import (
    NeighborIndex,
    RelationshipType,
    Walker,
    all_node_ids,
    operations_of,
)
from smithy2cfn.model.shapes import SIMPLE_TYPES, Member, Model, Shape, ShapeId
from smithy2cfn.model.traits import AUTH, DOCUMENTATION, REQUIRED, UNIT
from smithy2cfn.records import replace
from smithy2cfn.validation.support.events import event, shape_text, ticked
from smithy2cfn.validation.support.shapes import shapes_of_type

_COLLECTIONS = frozenset({"list", "set"})


def _services(model: Model) -> list[Shape]:
    return shapes_of_type(model, "service")


# ----------------------------------------------------------------------------- names


class _ConflictDetector:
    """How bad a name conflict between two shapes of a closure is (the reference's
    ``ServiceValidator.ConflictDetector``): ERROR unless both are simple shapes, lists or
    members of one type with equal traits (and, for lists and members, targets that do not
    conflict worse); then NOTE for simple shapes, WARNING for the others."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self._cache: dict[tuple[str, str], Severity | None] = {}

    def _node(self, node_id: str) -> Shape | Member | None:
        return self.model.member(node_id) if "$" in node_id else self.model.shapes.get(node_id)

    def _traits(self, node: Shape | Member) -> dict:
        """The traits compared: a built-in shape's documentation is left out (the reference's
        prelude shapes carry none; ours are documented)."""
        node_id = node.id
        if self.model.is_prelude(node_id) and DOCUMENTATION in node.traits:
            return {k: v for k, v in node.traits.items() if k != DOCUMENTATION}
        return node.traits

    @staticmethod
    def _type(node: Shape | Member) -> str:
        return "member" if isinstance(node, Member) else node.type

    def detect(self, a_id: str | None, b_id: str | None) -> Severity | None:
        """The severity of a conflict between ``a_id`` and ``b_id`` (``None``: a shape is missing)."""
        if a_id is None or b_id is None:
            return None
        a, b = self._node(a_id), self._node(b_id)
        if a is None or b is None:
            return None
        key = (a_id, b_id) if id_sort_key(a_id) < id_sort_key(b_id) else (b_id, a_id)
        if key not in self._cache:
            self._cache[key] = None  # a recursive pair (list of itself) ends here
            self._cache[key] = self._conflict(a, b)
        return self._cache[key]

    def _conflict(self, a: Shape | Member, b: Shape | Member) -> Severity:
        ta, tb = self._type(a), self._type(b)
        if any(t not in SIMPLE_TYPES and t not in _COLLECTIONS and t != "member" for t in (ta, tb)) \
                or ta != tb or self._traits(a) != self._traits(b):
            return Severity.ERROR
        member = None
        if isinstance(a, Member) and isinstance(b, Member):
            member = self.detect(a.target, b.target)
        elif ta in _COLLECTIONS:
            ma, mb = a.members.get("member"), b.members.get("member")
            member = self.detect(ma.id if ma else None, mb.id if mb else None)
        if member is not None and member >= Severity.WARNING:
            return member
        return Severity.NOTE if ta in SIMPLE_TYPES else Severity.WARNING


def _conflict_message(service: Shape, subject: str, other: str, severity: Severity) -> str:
    renamed = service.rename.get(subject)
    text = f'Renamed shape name "{renamed}"' if renamed is not None else f"Shape name `{subject}`"
    text += f" conflicts with `{other}` "
    if service.rename.get(other) is not None:
        text += f'(renamed to "{service.rename[other]}") '
    must = "must" if severity >= Severity.DANGER else "should"
    return (text + f"in the `{service.id}` service closure. Shapes in the closure of a service {must} have "
            "case-insensitively unique names regardless of their namespaces. Use the `rename` property of the "
            "service to disambiguate shape names.")


@validator(Code("S3300", Severity.ERROR, "Service",
               "two shapes of a service closure have case-insensitively equal names (a warning or note when they "
               "are equivalent lists or simple shapes)", also=(Severity.WARNING, Severity.NOTE)),
           Code("S3301", Severity.ERROR, "Service",
                "a service `rename` is not a valid identifier, changes nothing, names a shape outside the service, "
                "or renames a member, resource or operation"),
           rule="reference ServiceValidator (smithy-model); Smithy 2.0 service-types.rst, Service closure and "
                "Service rename")
def check_service_closures(model: Model) -> Iterable[Diagnostic]:
    """Shape names are case-insensitively unique in a service closure; renames are valid.

    Spec: service-types.rst §"Service closure" and §"rename" (a rename must be a valid
    identifier that changes the name, of a shape in the closure that is not a member,
    resource or operation). Reference: ``ServiceValidator`` (event ``Service``: ERROR, or a
    WARNING/NOTE for conflicting lists or simple shapes that are equivalent).
    """
    walker = Walker(model)
    detector = _ConflictDetector(model)
    for service in _services(model):
        closure = walker.walk_all([service.id])
        rename = service.rename
        # Each shape's name as the service sees it (its rename, else its name), lower-cased:
        # when no two are equal (the usual case) there is no conflict to look for, and no group
        # is made.
        shape_ids = [sid for sid in closure if "$" not in sid]
        lowered = [rename.get(sid, ShapeId.name(sid)).lower() for sid in shape_ids]
        names: dict[str, list[str]] = {}
        if len(set(lowered)) < len(lowered):
            for sid, low in zip(shape_ids, lowered, strict=True):
                names.setdefault(low, []).append(sid)
        for ids in names.values():
            if len(ids) < 2:
                continue
            ids = sorted_ids(ids)
            for subject in ids:
                for other in ids:
                    if other == subject:
                        continue
                    severity = detector.detect(subject, other)
                    if severity is not None:
                        yield event(model, "S3300", subject, _conflict_message(service, subject, other, severity),
                                    severity=severity,
                                    hint=f"add a `rename` entry for one of them to the service `{service.id}`")
        for source, target in service.rename.items():
            if not isinstance(target, str):
                continue
            if not is_identifier(target):
                yield event(model, "S3301", service.id,
                            f'Service attempts to rename `{source}` to an invalid identifier, "{target}"')
            elif target == ShapeId.name(source):
                yield event(model, "S3301", service.id,
                            f"Service rename for `{source}` does not actually change the name from `{target}`")
            if source not in closure:
                yield event(model, "S3301", service.id, f"Service attempts to rename a shape not in the service: {source}")
            else:
                kind = "member" if "$" in source else model.shapes[source].type
                if kind in ("member", "resource", "operation"):
                    yield event(model, "S3301", service.id,
                                f'Service attempts to rename a {kind} shape from `{source}` to "{target}"; {kind}s '
                                "cannot be renamed")


@validator(Code("S3302", Severity.ERROR, "ShapeIdConflict", "two shape or member IDs differ only in case"),
           rule="reference ShapeIdConflictValidator (smithy-model); Smithy 2.0 model.rst, Shape ID conflicts")
def check_shape_id_conflicts(model: Model) -> Iterable[Diagnostic]:
    """No two shape or member IDs of the model differ only in case.

    Spec: model.rst §"Shape ID" ("Shape IDs ... MUST be case-insensitively unique").
    Reference: ``ShapeIdConflictValidator``.
    """
    # Node IDs are unique: the model has no conflict when their lower-cased forms are too
    # (the usual case, found without a loop in Python over the nodes: the members' IDs
    # listed by one comprehension, lower-cased by map).
    shapes = model.shapes
    member_ids = [member.id for shape in shapes.values() for member in shape.members.values()]
    lowered = set(map(str.lower, shapes))
    lowered.update(map(str.lower, member_ids))
    if len(lowered) == len(shapes) + len(member_ids):
        return
    ids = list(all_node_ids(model))
    # Lower-cased ID → the first ID seen; a list only where a second one comes (not one list
    # per node of the model).
    first: dict[str, str] = {}
    clashes: dict[str, list[str]] = {}

    def add(node_id: str) -> None:
        low = node_id.lower()
        seen = first.get(low)
        if seen is None:
            first[low] = node_id
        else:
            clashes.setdefault(low, [seen]).append(node_id)

    for node_id in ids:
        add(node_id)
    for low in (first if clashes else ()):
        ids = clashes.get(low)
        if ids is None:
            continue
        ordered = sorted_ids(ids)
        for sid in ids:
            others = listed((o for o in ordered if o != sid), form="`{}`", total=len(ordered) - 1)
            yield event(model, "S3302", sid, f"Shape ID `{sid}` conflicts with other shape IDs in the model: [{others}]",
                        hint="rename one of them")


# ----------------------------------------------------------------------------- bindings


@validator(Code("S3303", Severity.ERROR, "SingleResourceBinding",
               "a resource is bound twice in a service closure"),
           Code("S3304", Severity.ERROR, "SingleOperationBinding",
                "an operation is bound twice in a service closure"),
           rule="reference SingleResourceBindingValidator and SingleOperationBindingValidator (smithy-model); "
                "Smithy 2.0 service-types.rst, Resource and Operation (bound once in a service closure)")
def check_single_bindings(model: Model) -> Iterable[Diagnostic]:
    """A resource, and an operation, is bound once in a service closure.

    Spec: service-types.rst §"Resource" and §"Operation" (a resource or operation can be
    bound only once in a service closure). Reference: ``SingleResourceBindingValidator``
    and ``SingleOperationBindingValidator``.
    """
    top_down = model.knowledge(TopDownIndex)
    for service in _services(model):
        resources = [model.shapes[r] for r in top_down.contained_resources(service.id)]
        # who binds what, built once per service (linear in the closure, not pairwise)
        resource_parents: dict[str, set[str]] = {}
        operation_parents: dict[str, set[str]] = {}
        for other in resources:
            for child in other.resources:
                resource_parents.setdefault(child, set()).add(other.id)
            for op_id in operations_of(other):
                operation_parents.setdefault(op_id, set()).add(other.id)
        for resource in resources:
            containers = {service.id} if resource.id in service.resources else set()
            containers |= resource_parents.get(resource.id, set())
            if len(containers) > 1:
                yield event(model, "S3303", resource.id,
                            "A resource can appear only once in an entire service closure. This resource is illegally "
                            f"bound into the `{service.id}` service closure from multiple shapes: [{ticked(containers)}]",
                            hint="bind the resource from one parent only")
        for op_id in top_down.contained_operations(service.id):
            containers = {service.id} if op_id in service.operations else set()
            containers |= operation_parents.get(op_id, set())
            if len(containers) > 1:
                parents = listed((shape_text(model, c) for c in containers), sort=True)
                yield event(model, "S3304", op_id,
                            "An operation can appear only once in an entire service closure. This operation is "
                            f"illegally bound into the `{service.id}` service closure from multiple shapes: {parents}",
                            hint="bind the operation from one service or resource only")


def _at_shape(shape: Shape, d: Diagnostic) -> Diagnostic:
    """``d`` located at where ``shape`` is defined (when known)."""
    return replace(d, span=shape.span) if shape.span is not None else d


def _implicit_binding(member: Member, resource: Shape) -> bool:
    return (member.name in resource.identifiers and REQUIRED in member.traits
            and member.target == resource.identifiers[member.name])


@validator(Code("S3309", Severity.WARNING, "ServiceBoundResourceOperation",
               "a service operation has members that bind identifiers of one of its resources"),
           rule="reference ServiceBoundResourceOperationValidator (smithy-model); Smithy 2.0 service-types.rst, "
                "Binding operations to resources")
def check_service_bound_resource_operations(model: Model) -> Iterable[Diagnostic]:
    """Warn about service operations whose members bind identifiers of one of its resources.

    Spec: service-types.rst §"Binding operations to resources" (an operation that acts on a
    resource is bound to it, not to the service). Reference: ``ServiceBoundResourceOperationValidator`` (WARNING
    ``ServiceBoundResourceOperation.<service>.<operation name>``).
    """
    ops = model.knowledge(OperationIndex)
    top_down = model.knowledge(TopDownIndex)
    for service in _services(model):
        resources = [model.shapes[r] for r in top_down.contained_resources(service.id)]
        for op_id in dict.fromkeys(service.operations):
            op = model.shapes.get(op_id)
            if op is None or op.type != "operation":
                continue
            members = [*ops.input_members(op_id).values(), *ops.output_members(op_id).values()]
            better = [r.id for r in resources if any(_implicit_binding(m, r) for m in members)]
            if better:
                # about the operation, located at the service that binds it (as the reference's
                # warning(operation, service, ...))
                yield _at_shape(service, event(
                    model, "S3309", op_id,
                    f"The `{op_id}` operation is bound to the `{service.id}` service but has members that match "
                    f"identifiers of the following resource shapes: [{ticked(better)}]. It may be more accurately "
                    "bound to one of them than directly to the service.",
                    event_id=f"ServiceBoundResourceOperation.{service.id}.{ShapeId.name(op_id)}"))


# ----------------------------------------------------------------------------- auth


@validator(Code("S3305", Severity.DANGER, "AuthTrait", "`@auth` names an auth scheme the service does not have"),
           Code("S3306", Severity.WARNING, "ServiceAuthDefinitions",
                "a service with several auth schemes has no `@auth` order"),
           rule="reference AuthTraitValidator and ServiceAuthDefinitionsValidator (smithy-model); Smithy 2.0 "
                "authentication-traits.rst, auth trait")
def check_auth_traits(model: Model) -> Iterable[Diagnostic]:
    """``@auth`` on a service or its operations names only auth schemes the service has;
    a service with several schemes orders them with ``@auth``.

    Spec: authentication-traits.rst §"auth trait". Reference: ``AuthTraitValidator`` (DANGER
    ``AuthTrait``) and ``ServiceAuthDefinitionsValidator`` (WARNING).
    """
    services = model.knowledge(ServiceIndex)
    top_down = model.knowledge(TopDownIndex)
    for service in _services(model):
        schemes = set(services.auth_schemes(service.id))
        for subject_id in [service.id, *top_down.contained_operations(service.id)]:
            subject = model.shapes[subject_id]
            value = subject.traits.get(AUTH)
            if not isinstance(value, list):
                continue
            unknown = sorted_ids(v for v in value if isinstance(v, str) and v not in schemes)
            if unknown:
                yield event(model, "S3305", subject_id,
                            "auth trait applies authentication that is not configured on the service shape, "
                            f"`{service.id}`: [{listed(unknown)}]", trait=AUTH,
                            hint="apply the auth scheme trait to the service, or remove it from @auth")
        if AUTH not in service.traits and len(schemes) > 1:
            yield event(model, "S3306", service.id,
                        "This service uses multiple authentication schemes but does not have the `@auth` trait "
                        "applied. The `@auth` trait defines a priority ordering of auth schemes for a client to use. "
                        "Without it, the ordering of auth schemes is alphabetical based on the absolute shape ID of "
                        "the auth schemes.")


# ----------------------------------------------------------------------------- unit


@validator(Code("S3308", Severity.ERROR, "UnitType",
               "`smithy.api#Unit` referenced where only operation input/output and union or enum members may"),
           rule="reference UnitTypeValidator (smithy-model); Smithy 2.0 model.rst, Unit type")
def check_unit_type(model: Model) -> Iterable[Diagnostic]:
    """``smithy.api#Unit`` is only an operation input or output, or a union or enum member's
    target.

    Spec: model.rst §"Unit type". Reference: ``UnitTypeValidator``.
    """
    if UNIT not in model.shapes:
        return
    for rel in model.knowledge(NeighborIndex).reverse(UNIT):
        if rel.type in (RelationshipType.INPUT, RelationshipType.OUTPUT):
            continue
        if rel.type is RelationshipType.MEMBER_TARGET:
            member = model.member(rel.shape)
            container = model.shapes.get(member.container) if member is not None else None
            if container is not None and container.type not in ("union", "enum", "intEnum"):
                yield event(model, "S3308", rel.shape,
                            "Only members of a union, enum, or intEnum can reference smithy.api#Unit",
                            hint="target an empty structure instead")
        else:
            yield event(model, "S3308", rel.shape,
                        f"This shape has an invalid {rel.type.name} reference to smithy.api#Unit")


__all__ = [
    "check_auth_traits", "check_service_bound_resource_operations", "check_service_closures",
    "check_shape_id_conflicts", "check_single_bindings", "check_unit_type",
]
