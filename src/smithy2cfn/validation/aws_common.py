"""Helpers shared by the validators of the AWS trait packages, smoke tests and linters.

The reference's ``OperationIndex`` (an operation's input and output structures, ``Unit``
when absent), ``AbstractValidator`` event construction (event IDs made of the validator
name and sub-parts, located at the shape or at the trait that is at fault) and
``ValidationUtils`` (``tickedList``, ``splitCamelCaseWord``), written once for
:mod:`~smithy2cfn.validation.aws.traits`, :mod:`~smithy2cfn.validation.aws.iam`,
:mod:`~smithy2cfn.validation.smoke_tests` and :mod:`~smithy2cfn.validation.smithy_linters`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from smithy2cfn.diagnostics import Diagnostic, Severity, listed
from smithy2cfn.model.shapes import Member, Model, Shape, ShapeId
from smithy2cfn.model.traits import AWS_ARN, AWS_SERVICE
from smithy2cfn.validation.common import diag


def event(model: Model, code: str, node_id: str, message: str, *, severity: Severity | None = None,
          event_id: str | None = None, trait: str | None = None, hint: str | None = None) -> Diagnostic:
    """A diagnostic about ``node_id`` (a shape or member ID) with ``code``'s severity and
    event ID unless given; located at ``trait`` where the node applies it (the reference's
    ``error(shape, trait, message)``), else at the node."""
    d = diag(model, code, severity, node_id, message, event_id, hint)
    if trait is not None:
        obj = model.member(node_id) if "$" in node_id else model.shapes.get(node_id)
        span = obj.trait_spans.get(trait) if obj is not None else None
        if span is not None:
            d = dataclasses.replace(d, span=span)
    return d


def distinct(check: Callable[[Model], Iterable[Diagnostic]]) -> Callable[[Model], Iterator[Diagnostic]]:
    """Wraps a validator so that it reports each identical event once (the reference's
    events are a set: a resource bound to two services, or an operation shared by two, gives
    one event however often it is found)."""
    @functools.wraps(check)
    def wrapper(model: Model) -> Iterator[Diagnostic]:
        seen: set[Diagnostic] = set()
        for d in check(model):
            if d not in seen:
                seen.add(d)
                yield d
    return wrapper


def tick(values: Iterable[Any]) -> str:
    """The reference's ``ValidationUtils.tickedList``: sorted, each in backticks, ``, ``-joined
    (at most :data:`~smithy2cfn.diagnostics.MAX_LISTED`, :func:`~smithy2cfn.diagnostics.listed`)."""
    return listed(values, form="`{}`", sort=True)


def ordered_tick(values: Iterable[Any]) -> str:
    """``ValidationUtils.orderedTickedList``: in the given order (``""`` for none; at most
    :data:`~smithy2cfn.diagnostics.MAX_LISTED`)."""
    return listed(values, form="`{}`")


def java_list(values: Iterable[Any]) -> str:
    """A Java ``List.toString()``: ``[a, b]`` (at most :data:`~smithy2cfn.diagnostics.MAX_LISTED`)."""
    return "[" + listed(values) + "]"


def java_hash_set_order(strings: Iterable[str]) -> list[str]:
    """The iteration order of a Java ``HashSet<String>`` (or ``HashMap`` keys) holding
    ``strings``, for messages where the reference prints or searches one: by bucket of
    the spread ``String.hashCode`` in a table grown from 16 buckets at load factor 0.75,
    then insertion order (a resize keeps the relative order within a bucket)."""
    items = list(dict.fromkeys(strings))
    capacity = 16
    while len(items) > capacity * 3 // 4:
        capacity *= 2

    def bucket(s: str) -> int:
        h = 0
        data = s.encode("utf-16-be")
        for i in range(0, len(data), 2):
            h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
        return (h ^ (h >> 16)) & (capacity - 1)

    return sorted(items, key=bucket)


def shape_text(shape: Shape) -> str:
    """A Java ``Shape.toString()``: ``(type: `ns#Name`)``."""
    return f"({shape.type}: `{shape.id}`)"


def split_camel_case(word: str) -> list[str]:
    """The reference's ``ValidationUtils.splitCamelCaseWord``: splits before an upper-case
    ASCII letter not preceded by one (and not at the start), and before an upper-case letter
    followed by a lower-case one (not at the start). ``"BamID2HTTP"`` → ``Bam``, ``ID2``,
    ``HTTP``. Never empty: ``""`` gives ``[""]``."""
    cuts = [i for i in range(1, len(word))
            if "A" <= word[i] <= "Z" and (
                not "A" <= word[i - 1] <= "Z"
                or (i + 1 < len(word) and "a" <= word[i + 1] <= "z"))]
    parts: list[str] = []
    start = 0
    for cut in cuts:
        parts.append(word[start:cut])
        start = cut
    parts.append(word[start:])
    while len(parts) > 1 and parts[-1] == "":
        parts.pop()
    return parts


def input_shape(model: Model, operation: Shape) -> Shape | None:
    """The operation's input structure (``None`` for ``Unit`` or a missing shape)."""
    shape = model.shapes.get(operation.input) if operation.input else None
    return shape if shape is not None and shape.type == "structure" else None


def output_shape(model: Model, operation: Shape) -> Shape | None:
    """The operation's output structure (``None`` for ``Unit`` or a missing shape)."""
    shape = model.shapes.get(operation.output) if operation.output else None
    return shape if shape is not None and shape.type == "structure" else None


def input_members(model: Model, operation: Shape) -> dict[str, Member]:
    """The members of the operation's input (reference ``OperationIndex.getInputMembers``)."""
    shape = input_shape(model, operation)
    return dict(shape.members) if shape is not None else {}


def output_members(model: Model, operation: Shape) -> dict[str, Member]:
    """The members of the operation's output (``OperationIndex.getOutputMembers``)."""
    shape = output_shape(model, operation)
    return dict(shape.members) if shape is not None else {}


def type_of(model: Model, shape_id: str | None) -> str | None:
    """The type of the shape ``shape_id`` (``None`` when absent)."""
    shape = model.shapes.get(shape_id) if shape_id else None
    return shape.type if shape is not None else None


def is_string(model: Model, shape_id: str | None) -> bool:
    """The reference's ``Shape.isStringShape`` (string or enum)."""
    return type_of(model, shape_id) in ("string", "enum")


def service_trait(shape: Shape) -> dict | None:
    """The ``aws.api#service`` trait value of a service, or ``None``."""
    value = shape.traits.get(AWS_SERVICE)
    return value if shape.type == "service" and isinstance(value, dict) else None


def arn_namespace(shape: Shape) -> str:
    """The service's ARN namespace: ``aws.api#service(arnNamespace)``, by default the
    shape name in lower case (reference ``ServiceTrait.Builder.build``)."""
    trait = service_trait(shape) or {}
    value = trait.get("arnNamespace")
    return value if isinstance(value, str) else shape.name.lower()


def string_values(value: Any) -> list[str]:
    """The strings of a JSON list (others dropped; ``[]`` for a non-list)."""
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def obj(value: Any) -> dict:
    """``value`` when it is a JSON object, else ``{}``."""
    return value if isinstance(value, dict) else {}


def absolute(ref: str, namespace: str) -> str:
    """A shape ID from a trait value: relative names resolve in ``namespace``."""
    return ref if "#" in ref else f"{namespace}#{ref}"


def member_of(shape_id: str, name: str) -> str:
    """``ns#Shape$name``."""
    return f"{ShapeId.root(shape_id)}${name}"


__all__ = [
    "AWS_ARN", "AWS_SERVICE", "absolute", "arn_namespace", "distinct", "event", "input_members", "input_shape",
    "is_string", "java_hash_set_order", "java_list", "member_of", "obj", "ordered_tick", "output_members", "output_shape",
    "service_trait", "shape_text", "split_camel_case", "string_values", "tick", "type_of",
]
