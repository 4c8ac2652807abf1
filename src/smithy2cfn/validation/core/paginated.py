"""Pagination checks (behavior-traits.rst §"paginated trait").

Reference: ``PaginatedTraitValidator``. Each property of an operation's ``@paginated``
trait (merged with its services' ``@paginated``, where the operation's own values win) must
name a member of the right shape: ``inputToken`` and ``pageSize`` an input member (no
paths), ``outputToken`` and ``items`` an output member or a dot-separated path of members.
Event IDs: ``PaginatedTrait``, and ``PaginatedTrait.ShouldNotBeRequired.<property>``,
``PaginatedTrait.WrongShapeType.<property>``, ``PaginatedTrait.DeeplyNested.<property>``.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity
from smithy2cfn.model.knowledge import TopDownIndex
from smithy2cfn.model.knowledge_ops import OperationIndex
from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import PAGINATED, REQUIRED
from smithy2cfn.records import Record
from smithy2cfn.validation.support.events import event, ticked
from smithy2cfn.validation.support.shapes import shapes_having, shapes_of_type

_PROPERTIES = ("inputToken", "outputToken", "pageSize", "items")


class _Rule(Record, frozen=True):
    """How one ``@paginated`` property is checked."""

    name: str
    #: "must" (ERROR when required), "should" (DANGER; WARNING for pageSize) or "may"
    optionality: str
    #: an error when absent (only once merged with a service's trait)
    required_to_be_present: bool
    valid: tuple[str, ...]
    danger: tuple[str, ...]
    #: output members, found by path
    output: bool

    def __init__(self, name: str, optionality: str, required_to_be_present: bool, valid: tuple[str, ...],
                 danger: tuple[str, ...], output: bool) -> None:
        self.__dict__.update(name=name, optionality=optionality,
                             required_to_be_present=required_to_be_present, valid=valid, danger=danger,
                             output=output)


_RULES = (
    _Rule("inputToken", "must", True, ("map", "string"), ("map",), False),
    _Rule("pageSize", "should", False, ("byte", "integer", "long", "short"), ("byte", "long", "short"), False),
    _Rule("outputToken", "should", True, ("map", "string"), ("map",), True),
    _Rule("items", "may", False, ("list", "map"), (), True),
)


def _java_split_dots(path: str) -> list[str]:
    """``path.split("\\\\.")`` as Java does it: trailing empty parts dropped."""
    if "." not in path:
        return [path]
    parts = path.split(".")
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def resolve_path(model: Model, structure: Shape, path: str) -> list[Member]:
    """The members a dot-separated ``path`` walks through, starting at ``structure``; ``[]``
    when a name is not found (reference ``PaginatedTrait.resolveFullPath``)."""
    found: list[Member] = []
    container: Shape | None = structure
    for name in _java_split_dots(path):
        member = container.members.get(name) if container is not None and container.type == "structure" else None
        if member is None:
            return []
        found.append(member)
        container = model.shapes.get(member.target)
    return found


def merged_paginated(operation_value: dict, service_value: object) -> dict:
    """An operation's ``@paginated`` value completed by its service's (reference
    ``PaginatedTrait.merge``): each property the operation does not set comes from the service."""
    merged = dict(operation_value)
    if isinstance(service_value, dict):
        for key in _PROPERTIES:
            if merged.get(key) is None and service_value.get(key) is not None:
                merged[key] = service_value[key]
    return merged


def _check_property(model: Model, operation: Shape, value: dict, rule: _Rule, service: Shape | None,
                    input_shape: Shape, output_shape: Shape) -> list[Diagnostic]:
    prefix = f"When bound within the `{service.id}` service, " if service is not None else ""
    path = value.get(rule.name)
    if not isinstance(path, str):
        if service is not None and rule.required_to_be_present:
            return [event(model, "S3380", operation.id, f"{prefix}paginated trait `{rule.name}` is not configured",
                          trait=PAGINATED, hint=f"set `{rule.name}` on the operation's or the service's @paginated")]
        return []
    if not rule.output and "." in path:
        return [event(model, "S3380", operation.id, f"{prefix}paginated trait `{rule.name}` does not allow path values",
                      trait=PAGINATED)]
    if rule.output:
        members = resolve_path(model, output_shape, path)
        member = members[-1] if members else None
    else:
        member = input_shape.members.get(path)
    if member is None:
        return [event(model, "S3380", operation.id,
                      f"{prefix}paginated trait `{rule.name}` targets a member `{path}` that does not exist",
                      trait=PAGINATED)]
    out: list[Diagnostic] = []
    if REQUIRED in member.traits:
        if rule.optionality == "must":
            out.append(event(model, "S3380", operation.id,
                             f"{prefix}paginated trait `{rule.name}` member `{member.name}` must not be required",
                             trait=PAGINATED, hint="remove @required from the member"))
        elif rule.optionality == "should":
            out.append(event(model, "S3380", operation.id,
                             f"{prefix}paginated trait `{rule.name}` member `{member.name}` should not be required",
                             trait=PAGINATED,
                             severity=Severity.WARNING if rule.name == "pageSize" else Severity.DANGER,
                             event_id=f"PaginatedTrait.ShouldNotBeRequired.{rule.name}"))
    target = model.shapes.get(member.target)
    if target is not None:
        if target.type not in rule.valid:
            out.append(event(model, "S3380", operation.id,
                             f"{prefix}paginated trait `{rule.name}` member `{member.name}` targets a {target.type} "
                             f"shape, but must target one of the following: [{ticked(rule.valid)}]", trait=PAGINATED))
        if target.type in rule.danger:
            preferred = [t for t in rule.valid if t not in rule.danger]
            out.append(event(model, "S3380", operation.id,
                             f"{prefix}paginated trait `{rule.name}` member `{member.name}` targets a {target.type} "
                             f"shape, but this is not recommended. One of [{ticked(preferred)}] SHOULD be targeted.",
                             trait=PAGINATED, severity=Severity.DANGER,
                             event_id=f"PaginatedTrait.WrongShapeType.{rule.name}"))
    if rule.output and path.count(".") >= 2:
        out.append(event(model, "S3380", operation.id,
                         f"{prefix}paginated trait `{rule.name}` contains a path with more than two parts, which "
                         "can make your API cumbersome to use", trait=PAGINATED, severity=Severity.WARNING,
                         event_id=f"PaginatedTrait.DeeplyNested.{rule.name}"))
    return out


@validator(Code("S3380", Severity.ERROR, "PaginatedTrait",
               "an `@paginated` member is missing, required, of the wrong type, or a path where none is allowed",
               also=(Severity.DANGER, Severity.WARNING)),
           rule="reference PaginatedTraitValidator (smithy-model); Smithy 2.0 behavior-traits.rst, paginated trait")
def check_paginated(model: Model) -> Iterable[Diagnostic]:
    """``@paginated`` operations name existing members of the right shapes.

    Spec: behavior-traits.rst §"paginated trait" (``inputToken``/``outputToken`` target
    strings and must not be required in the input, ``pageSize`` targets an integer,
    ``items`` a list or map; the service's trait fills in what the operation leaves out).
    Reference: ``PaginatedTraitValidator``: the operation's own trait is checked first, and
    only when that finds nothing, once per service that contains the operation, merged.
    """
    ops = model.knowledge(OperationIndex)
    top_down = model.knowledge(TopDownIndex)
    services = shapes_of_type(model, "service")
    for operation in shapes_having(model, PAGINATED):
        if operation.type != "operation":
            continue
        value = operation.traits[PAGINATED]
        input_shape, output_shape = ops.input_shape(operation.id), ops.output_shape(operation.id)
        if not isinstance(value, dict) or input_shape is None or output_shape is None:
            continue
        found: list[Diagnostic] = []
        for rule in _RULES:
            found += _check_property(model, operation, value, rule, None, input_shape, output_shape)
        if not found:
            for service in services:
                if operation.id not in top_down.contained_operations(service.id):
                    continue
                merged = merged_paginated(value, service.traits.get(PAGINATED))
                for rule in _RULES:
                    found += _check_property(model, operation, merged, rule, service, input_shape, output_shape)
        yield from found


__all__ = ["check_paginated", "merged_paginated", "resolve_path"]
