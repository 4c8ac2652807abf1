"""Small facts the trait-package validators share (waiters, protocol tests, mqtt...).

* :func:`input_shape` / :func:`output_shape` — an operation's input or output structure,
  ``smithy.api#Unit`` when it has none (reference ``OperationIndex.expectInputShape``);
* :func:`event_stream` — the member of an input/output structure that targets a
  ``@streaming`` union (reference ``EventStreamIndex``/``EventStreamInfo``);
* :func:`at_trait` — a diagnostic moved to where a trait was applied (the reference's
  events carry the trait's source location).
"""

from __future__ import annotations

import dataclasses

from smithy2cfn.diagnostics import Diagnostic
from smithy2cfn.model.shapes import Member, Model
from smithy2cfn.model.traits import STREAMING, UNIT


def input_shape(model: Model, operation: str) -> str:
    """The ID of the operation's input structure (``smithy.api#Unit`` when it has none)."""
    shape = model.shapes.get(operation)
    return (shape.input if shape is not None and shape.input else None) or UNIT


def output_shape(model: Model, operation: str) -> str:
    """The ID of the operation's output structure (``smithy.api#Unit`` when it has none)."""
    shape = model.shapes.get(operation)
    return (shape.output if shape is not None and shape.output else None) or UNIT


def event_stream(model: Model, structure: str | None) -> Member | None:
    """The first member of ``structure`` that targets a ``@streaming`` union (the event
    stream of an operation's input or output), or ``None``."""
    shape = model.shapes.get(structure) if structure else None
    if shape is None:
        return None
    for member in shape.members.values():
        target = model.shapes.get(member.target)
        if target is not None and target.type == "union" and STREAMING in target.traits:
            return member
    return None


def at_trait(model: Model, d: Diagnostic, trait_id: str) -> Diagnostic:
    """``d`` located where ``trait_id`` was applied to ``d.shape_id``, when that is known."""
    if not d.shape_id:
        return d
    node = model.member(d.shape_id) if "$" in d.shape_id else model.shapes.get(d.shape_id)
    span = node.trait_spans.get(trait_id) if node is not None else None
    return dataclasses.replace(d, span=span) if span is not None else d


__all__ = ["at_trait", "event_stream", "input_shape", "output_shape"]
