"""Making the validators' diagnostics, and the reference's ways of writing a message.

A diagnostic is about a shape or member (:func:`diag`, :func:`error`, :func:`warning`),
located at the node, or at the trait at fault (:func:`event` with ``trait=``, as the
reference's ``AbstractValidator.error(shape, trait, message)`` gives an event the source
location of the trait). The code's severity and the reference's event ID are the code's
(:data:`smithy2cfn.diagnostics.CODES`) unless given; the event ID is also kept in the hint
(``Smithy event: TraitTarget``) so results can be compared with the reference's events.

The reference's message helpers: ``ValidationUtils.tickedList`` / ``orderedTickedList``
(:func:`ticked`, :func:`ticked_in_order`), ``splitCamelCaseWord`` (:func:`split_camel_case`),
Java's ``List.toString()`` (:func:`java_list`), ``HashSet`` iteration order
(:func:`java_hash_set_order`), ``Shape.toString()`` (:func:`shape_text`),
``Trait.getIdiomaticTraitName`` (:func:`idiomatic`). Each message that lists shapes or
values lists at most :data:`~smithy2cfn.diagnostics.MAX_LISTED` of them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping

from smithy2cfn.diagnostics import CODES, Code, Diagnostic, Severity, Span, declare_codes, listed
from smithy2cfn.model.relationships import RelationshipType
from smithy2cfn.model.shapes import Model
from smithy2cfn.prelude import idiomatic
from smithy2cfn.records import replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes that validators of several modules report (README "Diagnostics"
#: lists them all).
SHARED_CODES = declare_codes(
    Code("S3374", Severity.ERROR, "Model",
         "a trait of these validators cannot be created (\"Error creating trait\"): an `@http` URI or "
         "`@endpoint` host prefix that does not parse; a member of `@http`, `@endpoint`, `@httpApiKeyAuth`, "
         "`@requestCompression`, `@paginated`, `@idempotent`, `@references`, `@examples` missing or of the "
         "wrong type; a shape ID in `@auth`, `@idempotent`, `@references`, `@examples` that is none; "
         "`@error` neither client nor server; an empty `@httpHeader`/`@httpQuery`; a selector of `@trait`, "
         "`@idRef` or `@traitValidators` that does not parse"),
)


# --------------------------------------------------------------------------- diagnostics


def span_of(model: Model, node_id: str) -> Span | None:
    """The span of a shape or member (``None`` when unknown); a member without one falls
    back on its shape's."""
    if "$" in node_id:
        m = model.member(node_id)
        if m is not None and m.span is not None:
            return m.span
        node_id = node_id.split("$", 1)[0]
    shape = model.shapes.get(node_id)
    return shape.span if shape else None


def trait_span(model: Model, node_id: str, trait_id: str) -> Span | None:
    """Where ``trait_id`` was applied to a shape or member, when known (the loader keeps a
    span per trait: ``Shape.trait_spans``/``Member.trait_spans``)."""
    node = model.member(node_id) if "$" in node_id else model.shapes.get(node_id)
    return node.trait_spans.get(trait_id) if node is not None else None


def diag(model: Model, code: str, severity: Severity | None, node_id: str, message: str,
         event: str | None = None, hint: str | None = None) -> Diagnostic:
    """A diagnostic about ``node_id`` (a shape or member ID; ``""`` for the model), located
    at the node. ``severity`` and ``event`` (the reference's event ID) are the code's
    (:data:`~smithy2cfn.diagnostics.CODES`) when ``None``.

    Raises:
        KeyError: ``code`` is declared nowhere.
    """
    entry = CODES[code]
    event = event or entry.event_id
    tail = f"Smithy event: {event}" if event else None
    text = f"{hint} ({tail})" if hint and tail else hint or tail
    return Diagnostic(code, severity if severity is not None else entry.severity, message,
                      span_of(model, node_id), node_id, text, event_id=event)


def error(model: Model, code: str, node_id: str, message: str, event: str | None = None,
          hint: str | None = None) -> Diagnostic:
    """An ERROR diagnostic (see :func:`diag`)."""
    return diag(model, code, Severity.ERROR, node_id, message, event, hint)


def warning(model: Model, code: str, node_id: str, message: str, event: str | None = None,
            hint: str | None = None) -> Diagnostic:
    """A WARNING diagnostic (see :func:`diag`)."""
    return diag(model, code, Severity.WARNING, node_id, message, event, hint)


def at_trait(model: Model, d: Diagnostic, trait_id: str) -> Diagnostic:
    """``d`` located where ``trait_id`` was applied to ``d.shape_id``, when that is known
    (else ``d`` as it is)."""
    span = trait_span(model, d.shape_id, trait_id) if d.shape_id else None
    return replace(d, span=span) if span is not None else d


def event(model: Model, code: str, node_id: str, message: str, *, trait: str | None = None,
          severity: Severity | None = None, event_id: str | None = None, hint: str | None = None) -> Diagnostic:
    """A diagnostic about ``node_id`` (see :func:`diag`), located at ``trait`` where the node
    applies it (the reference's ``error(shape, trait, message)``), else at the node.
    ``severity`` and ``event_id`` default to the code's."""
    d = diag(model, code, severity, node_id, message, event_id, hint)
    return at_trait(model, d, trait) if trait else d


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


# --------------------------------------------------------------------------- message text


def ticked(items: Iterable[Any]) -> str:
    """The reference's ``ValidationUtils.tickedList``: the items sorted by their text, each in
    backticks, ``, ``-joined (``""`` for none); at most
    :data:`~smithy2cfn.diagnostics.MAX_LISTED` of them, then ``... and N more``
    (:func:`~smithy2cfn.diagnostics.listed`)."""
    return listed(items, form="`{}`", sort=True)


def ticked_in_order(items: Iterable[Any]) -> str:
    """The reference's ``ValidationUtils.orderedTickedList``: as :func:`ticked`, in the given
    order."""
    return listed(items, form="`{}`")


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


def shape_text(model: Model, shape_id: str) -> str:
    """The reference's ``Shape.toString()`` of a shape or member of ``model``: ``(type:
    `ns#Name`)``, ``(member: `ns#Name$m`)``; ``(shape: `id`)`` for an ID of no shape."""
    if "$" in shape_id:
        return f"(member: `{shape_id}`)"
    shape = model.shapes.get(shape_id)
    return f"({shape.type if shape is not None else 'shape'}: `{shape_id}`)"


def relationships_text(found: Mapping[RelationshipType, Iterable[str]]) -> str:
    """The reference's text of a map from relationship types to the shapes found by them
    (``{input: [`a#B`], member target: [...]}``, types in their order, shapes sorted; what
    ``HttpBindingTraitIgnoredValidator`` and ``IdempotencyTokenIgnoredValidator`` print)."""
    parts = [f"{kind.name.lower().replace('_', ' ')}: [{listed(set(ids), sort=True)}]"
             for kind, ids in sorted(found.items(), key=lambda kv: kv[0].value)]
    return "{" + ", ".join(parts) + "}"


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


__all__ = [
    "SHARED_CODES", "at_trait", "diag", "distinct", "error", "event", "idiomatic", "java_hash_set_order", "java_list",
    "relationships_text", "shape_text", "span_of", "split_camel_case", "ticked", "ticked_in_order", "trait_span",
    "warning",
]
