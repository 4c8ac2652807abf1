"""Suppressions: the ``@suppress`` trait and ``suppressions`` metadata.

Smithy 2.0 "Model validation" §"Suppressions": a suppression hides validation events whose
event ID matches it hierarchically (``Foo`` matches ``Foo`` and ``Foo.Bar``, not
``FooBar``). ``@suppress([...])`` applies to events on the shape (and, for a member, on its
container); ``metadata suppressions = [{id, namespace}]`` to events on shapes of that
namespace, or of any namespace with ``"*"``. ERROR events cannot be suppressed.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.diagnostics import Diagnostic, Severity
from smithy2cfn.model.shapes import Model, ShapeId
from smithy2cfn.model.traits import SUPPRESS


def id_matches(event_id: str, suppression_id: str) -> bool:
    """True when ``suppression_id`` equals ``event_id`` or is a dot-segment prefix of it."""
    return event_id == suppression_id or event_id.startswith(suppression_id + ".")


def _trait_ids(model: Model, shape_id: str) -> list[str]:
    out: list[str] = []
    shape = model.get(ShapeId.root(shape_id))
    if shape is None:
        return out
    member = ShapeId.member(shape_id)
    if member and member in shape.members:
        value = shape.members[member].traits.get(SUPPRESS)
        if isinstance(value, list):
            out += [v for v in value if isinstance(v, str)]
    value = shape.traits.get(SUPPRESS)
    if isinstance(value, list):
        out += [v for v in value if isinstance(v, str)]
    return out


def _metadata(model: Model) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    entries = model.metadata.get("suppressions")
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("id"), str) and isinstance(entry.get("namespace"), str):
            out.append((entry["id"], entry["namespace"]))
    return out


def apply_suppressions(model: Model, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Drop the non-ERROR diagnostics that a suppression of ``model`` matches."""
    metadata = _metadata(model)
    out: list[Diagnostic] = []
    for d in diagnostics:
        if d.event_id and d.severity < Severity.ERROR:
            ids = _trait_ids(model, d.shape_id) if d.shape_id else []
            if any(id_matches(d.event_id, s) for s in ids):
                continue
            namespace = ShapeId.namespace(d.shape_id) if d.shape_id else ""
            if any(id_matches(d.event_id, s) and ns in ("*", namespace) for s, ns in metadata):
                continue
        out.append(d)
    return out
