"""Relationship targets: every reference points at the right kind of shape (``Target``).

Spec: model.rst §"Member shapes" (a member cannot target a service, resource, operation
or member; trait definitions and mixins are not targets), aggregate-types.rst §"Map" (map
keys target strings), service-types.rst (service ``operations``/``resources``/``errors``,
resource identifiers, lifecycle operations, operation ``input``/``output``/``errors``) and
mixins.rst. The reference's ``TargetValidator`` (a "correctness" validator: its errors hide
every other validator's events). A reference to a shape that is not defined is the loader's
``S2001`` (``Target`` too), and a mixin without ``@mixin`` the loader's ``S3102``.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity
from smithy2cfn.model.relationships import MEMBERS_ONLY_TYPES, NeighborIndex, RelationshipType
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.model.traits import DEPRECATED, ERROR, MIXIN, TRAIT
from smithy2cfn.validation.support.events import error, shape_text, warning
from smithy2cfn.validation.support.shapes import user_shapes

_INVALID_MEMBER_TARGETS = frozenset({"service", "resource", "operation"})
_LIFECYCLE = {
    RelationshipType.CREATE: "create", RelationshipType.READ: "read", RelationshipType.UPDATE: "update",
    RelationshipType.DELETE: "delete", RelationshipType.LIST: "list",
}
_DEPRECATION = {
    RelationshipType.MEMBER_TARGET: "Member targets a deprecated shape",
    RelationshipType.RESOURCE: "Binds a deprecated resource",
    RelationshipType.OPERATION: "Binds a deprecated operation",
    RelationshipType.IDENTIFIER: "Resource identifier targets a deprecated shape",
    RelationshipType.PROPERTY: "Resource property targets a deprecated shape",
    RelationshipType.INPUT: "Operation input targets a deprecated shape",
    RelationshipType.OUTPUT: "Operation output targets a deprecated shape",
    RelationshipType.ERROR: "Operation error targets a deprecated shape",
    RelationshipType.MIXIN: "Applies a deprecated mixin",
}


def _bad_type(model: Model, node: str, node_type: str, rel: RelationshipType, valid: str,
              target: Shape) -> Diagnostic:
    return error(model, "S3018", node,
                 f"{node_type} shape `{rel.name.lower()}` relationships must target a {valid} shape, but found "
                 f"{shape_text(model, target.id)}")


@validator(Code("S3018", Severity.ERROR, "Target",
                "a relationship targets the wrong kind of shape (a trait definition, a mixin, a string "
                "identifier...)"),
           Code("S3105", Severity.WARNING, "DeprecatedShape",
                "a relationship targets a `@deprecated` shape (event `DeprecatedShape.<target>`)"),
           rule="reference TargetValidator (smithy-model); Smithy 2.0 model.rst, Member shapes; "
                "aggregate-types.rst, Map; service-types.rst; mixins.rst")
def check_targets(model: Model) -> Iterable[Diagnostic]:
    """Every relationship of every shape and member targets a shape of the right kind.

    Spec: model.rst §"Member shapes", aggregate-types.rst §"Map", service-types.rst, mixins.rst
    (the reference's ``TargetValidator``): a directed relationship other than a mixin must not
    target a trait definition or a mixin; members and resource properties must not target a
    service, resource or operation; map keys target ``string`` (or ``enum``) shapes;
    ``resource``/``operation`` bindings target resources/operations; ``input``/``output``
    target structures without ``@error``; ``errors`` target ``@error`` structures;
    identifiers target ``string`` or ``enum`` shapes; the ``create``, ``read``, ``update``,
    ``delete`` and ``list`` lifecycle bindings target operations. A relationship to a
    ``@deprecated`` shape is a ``DeprecatedShape.<target>`` WARNING.
    """
    index = model.knowledge(NeighborIndex)
    # A member's only checked relationship is to its target (none for an enum's members),
    # and what it yields depends on the target alone: targets known to yield nothing are
    # remembered, and their members are passed without looking up their relationships.
    quiet: dict[str, bool] = {}
    for shape in user_shapes(model):
        # (a shape whose only relationships are to its own members: nothing to check at it)
        nodes = [] if shape.type in MEMBERS_ONLY_TYPES and not shape.mixins else [(shape.id, shape.type)]
        enum = shape.type in ("enum", "intEnum")
        for m in shape.members.values():
            if m.container == shape.id:
                if enum:
                    continue
                verdict = quiet.get(m.target)
                if verdict is None:
                    verdict = quiet[m.target] = _quiet_member_target(model, m.target)
                if verdict:
                    continue
            nodes.append((m.id, "member"))
        for node, node_type in nodes:
            for rel in index.neighbors(node):
                kind = rel.type
                if kind is RelationshipType.MEMBER_CONTAINER or not rel.is_valid:
                    continue
                if "$" in rel.neighbor:
                    member = model.member(rel.neighbor) if kind is RelationshipType.MAP_KEY else None
                    if member is not None:
                        key = model.shapes.get(member.target)
                        if key is not None and key.type not in ("string", "enum"):
                            yield error(model, "S3018", node, f"Map key member targets {shape_text(model, key.id)}, but "
                                                              "is expected to target a string")
                    continue
                target = model.shapes.get(rel.neighbor)
                if target is None:
                    continue
                if kind is not RelationshipType.MIXIN and kind.directed:
                    if TRAIT in target.traits:
                        yield error(model, "S3018", node,
                                    f"Found a {kind.name} reference to trait definition `{target.id}`. Trait "
                                    "definitions cannot be targeted by members or referenced by shapes in any other "
                                    "context other than applying them as traits.")
                        continue
                    if MIXIN in target.traits:
                        yield error(model, "S3018", node,
                                    f"Illegal {kind.name} reference to mixin `{target.id}`; shapes marked with the "
                                    "mixin trait can only be referenced to apply them as a mixin.")
                        continue
                yield from _deprecated(model, node, target, kind)
                yield from _check(model, node, node_type, kind, target)


def _quiet_member_target(model: Model, target_id: str) -> bool:
    """Whether :func:`check_targets` finds nothing in a member's relationship to
    ``target_id``: no such shape, a member ID, or a shape that members may target (no trait
    definition, mixin, ``@deprecated``, service, resource or operation)."""
    if "$" in target_id:
        return True
    target = model.shapes.get(target_id)
    if target is None:
        return True
    return not (TRAIT in target.traits or MIXIN in target.traits or DEPRECATED in target.traits
                or target.type in _INVALID_MEMBER_TARGETS)


def _deprecated(model: Model, node: str, target: Shape, kind: RelationshipType) -> Iterable[Diagnostic]:
    label = _DEPRECATION.get(kind)
    value = target.traits.get(DEPRECATED)
    if label is None or DEPRECATED not in target.traits:
        return
    text = f"{label}, {target.id}"
    if isinstance(value, dict):
        if isinstance(value.get("message"), str):
            text += f". {value['message']}"
        if isinstance(value.get("since"), str):
            text += f" (since {value['since']})"
    yield warning(model, "S3105", node, text, f"DeprecatedShape.{target.id}")


def _check(model: Model, node: str, node_type: str, kind: RelationshipType, target: Shape) -> Iterable[Diagnostic]:
    if kind in (RelationshipType.PROPERTY, RelationshipType.MEMBER_TARGET):
        if target.type in _INVALID_MEMBER_TARGETS:
            yield error(model, "S3018", node,
                        f"Members cannot target {target.type} shapes, but found {shape_text(model, target.id)}")
    elif kind is RelationshipType.RESOURCE:
        if target.type != "resource":
            yield _bad_type(model, node, node_type, kind, "resource", target)
    elif kind is RelationshipType.OPERATION:
        if target.type != "operation":
            yield _bad_type(model, node, node_type, kind, "operation", target)
    elif kind in (RelationshipType.INPUT, RelationshipType.OUTPUT):
        if target.type != "structure":
            yield _bad_type(model, node, node_type, kind, "structure", target)
        elif ERROR in target.traits:
            yield error(model, "S3018", node,
                        f"Operation {kind.name.lower()} targets an invalid structure `{target.id}` that is marked "
                        "with the `error` trait.")
    elif kind is RelationshipType.ERROR:
        if target.type != "structure":
            yield _bad_type(model, node, node_type, kind, "structure", target)
        elif ERROR not in target.traits:
            yield error(model, "S3018", node,
                        f"`{target.id}` cannot be bound as an error because it is not marked with the `error` trait.")
    elif kind is RelationshipType.IDENTIFIER:
        if target.type not in ("string", "enum"):
            yield _bad_type(model, node, node_type, kind, "string", target)
    elif kind in _LIFECYCLE:
        if target.type != "operation":
            yield error(model, "S3018", node,
                        f"Resource {_LIFECYCLE[kind]} lifecycle operation must target an operation, but found "
                        f"{shape_text(model, target.id)}")


__all__ = ["check_targets"]
