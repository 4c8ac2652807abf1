"""Helpers shared by the validators: diagnostic construction, spans, user shapes.

Diagnostic codes of the validate stage are ``S3xxx``; each has its severity and the
reference's event ID in :data:`smithy2cfn.diagnostics.CODES` (README §"Diagnostics"). The
event ID is also kept in the hint (``Smithy event: TraitTarget``) so results can be compared
with the reference's validation events.
"""

from __future__ import annotations

from smithy2cfn.diagnostics import CODES, Diagnostic, Severity, Span
from smithy2cfn.model.shapes import Model


def span_of(model: Model, node_id: str) -> Span | None:
    """The span of a shape or member (``None`` when unknown)."""
    if "$" in node_id:
        m = model.member(node_id)
        if m is not None and m.span is not None:
            return m.span
        node_id = node_id.split("$", 1)[0]
    shape = model.shapes.get(node_id)
    return shape.span if shape else None


def diag(model: Model, code: str, severity: Severity | None, node_id: str, message: str,
         event: str | None = None, hint: str | None = None) -> Diagnostic:
    """A located diagnostic about ``node_id``. ``severity`` and ``event`` (the reference's
    event ID) are the code's (:data:`~smithy2cfn.diagnostics.CODES`) when ``None``."""
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


class _UserShapes:
    """Knowledge: the model's non-prelude shapes sorted by ID, sorted once per model rather
    than once per validator (issue 10), and their ``(node ID, traits)`` pairs, listed once:
    a dozen validators walk them, and walking the shapes again each time (formatting every
    member's ID anew, reaching into each shape and member object) cost more per node the
    larger the model, as the objects spread past the processor's caches."""

    def __init__(self, model: Model) -> None:
        self.shapes = sorted((s for s in model.shapes.values() if s.id not in model.prelude_ids),
                             key=lambda s: s.id)
        self._nodes: list[tuple[str, dict]] | None = None

    @property
    def nodes(self) -> list[tuple[str, dict]]:
        """``(node ID, traits)`` of every shape and member of :attr:`shapes`, in order."""
        if self._nodes is None:
            nodes: list[tuple[str, dict]] = []
            for s in self.shapes:
                nodes.append((s.id, s.traits))
                nodes.extend((m.id, m.traits) for m in s.members.values())
            self._nodes = nodes
        return self._nodes


def user_shapes(model: Model):
    """Shapes that are not from the built-in prelude or trait packages, sorted by ID (a new
    list each call)."""
    return list(model.knowledge(_UserShapes).shapes)


def user_nodes(model: Model):
    """``(node ID, traits)`` for every non-prelude shape and member, in shape-ID order (an
    iterator over a list made once per model; the traits dicts are the model's own, not to
    be changed)."""
    return iter(model.knowledge(_UserShapes).nodes)
