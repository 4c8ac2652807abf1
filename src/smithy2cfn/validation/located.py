"""Diagnostics located at a trait, as the reference's ``error(shape, trait, message)`` is.

The reference gives an event the source location of the trait at fault when its validator
passes the trait; :func:`event` does the same with the spans the loader keeps per trait
(``Shape.trait_spans``/``Member.trait_spans``), falling back to the shape's span.
"""

from __future__ import annotations

import dataclasses

from smithy2cfn.diagnostics import Diagnostic, Severity, Span, listed
from smithy2cfn.model.shapes import Model
from smithy2cfn.validation.common import diag


def trait_span(model: Model, node_id: str, trait_id: str) -> Span | None:
    """Where ``trait_id`` was applied to a shape or member, when known."""
    if "$" in node_id:
        node = model.member(node_id)
    else:
        node = model.shapes.get(node_id)
    return node.trait_spans.get(trait_id) if node is not None else None


def event(model: Model, code: str, node_id: str, message: str, *, trait: str | None = None,
          severity: Severity | None = None, event_id: str | None = None, hint: str | None = None) -> Diagnostic:
    """A diagnostic about ``node_id`` (see :func:`smithy2cfn.validation.common.diag`), located at
    ``trait`` when given and known. ``severity`` and ``event_id`` default to the code's."""
    d = diag(model, code, severity, node_id, message, event_id, hint)
    span = trait_span(model, node_id, trait) if trait else None
    return dataclasses.replace(d, span=span) if span is not None else d


def ticked(items) -> str:
    """The reference's ``ValidationUtils.tickedList``: the items sorted by their text, each in
    backticks, ``, ``-joined (``""`` for none); at most
    :data:`~smithy2cfn.diagnostics.MAX_LISTED` of them, then ``... and N more``
    (:func:`~smithy2cfn.diagnostics.listed`)."""
    return listed(items, form="`{}`", sort=True)


def ticked_in_order(items) -> str:
    """The reference's ``ValidationUtils.orderedTickedList``: as :func:`ticked`, in the given
    order."""
    return listed(items, form="`{}`")


__all__ = ["event", "ticked", "ticked_in_order", "trait_span"]
