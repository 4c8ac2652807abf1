"""Which shapes a model's roots reach, and which they do not (reference smithy-model's
``neighbor`` package: ``Walker`` with ``NeighborProvider.withIdRefRelationships``,
``IdRefShapeRelationships``, ``UnreferencedShapes``).

Shared by the ``UnreferencedShape`` linter (:mod:`smithy2cfn.validation.core.configured`) and
the ``removeUnusedShapes`` transform (:mod:`smithy2cfn.transform`), and by the transforms
that keep a service's closure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from smithy2cfn.model.relationships import NeighborIndex
from smithy2cfn.model.shapes import Member, Model, Shape, ShapeId
from smithy2cfn.model.traits import ID_REF, METADATA, TRAIT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: How deep a trait value is followed looking for ``@idRef`` strings (trait values are
#: bounded by the readers; this bounds the walk on a recursive trait shape).
MAX_IDREF_DEPTH = 64


def _idref_values(model: Model, target: str, traits: Mapping[str, Any], value: Any, out: list[str],
                  depth: int) -> None:
    """The strings of ``value`` that a trait's shape marks ``@idRef`` (reference
    ``IdRefShapeRelationships``), following the trait shape's members."""
    if depth > MAX_IDREF_DEPTH:
        return
    shape = model.shapes.get(target)
    if shape is None:
        return
    if isinstance(value, str):
        if ID_REF in traits or ID_REF in shape.traits:
            out.append(value)
        return
    if isinstance(value, list) and shape.type in ("list", "set") and "member" in shape.members:
        m = shape.members["member"]
        for item in value:
            _idref_values(model, m.target, m.traits, item, out, depth + 1)
    elif isinstance(value, dict):
        if shape.type == "map":
            key, val = shape.members.get("key"), shape.members.get("value")
            for k, v in value.items():
                if key is not None:
                    _idref_values(model, key.target, key.traits, k, out, depth + 1)
                if val is not None:
                    _idref_values(model, val.target, val.traits, v, out, depth + 1)
        elif shape.type in ("structure", "union"):
            for k, v in value.items():
                m = shape.members.get(k)
                if m is not None:
                    _idref_values(model, m.target, m.traits, v, out, depth + 1)


def traits_with_idrefs(model: Model) -> set[str]:
    """The trait definitions whose value can hold an ``@idRef`` string: an ``@idRef`` shape
    or member lies in their directed closure (the only traits :func:`idref_targets` reads)."""
    index = model.knowledge(NeighborIndex)
    out: set[str] = set()
    for trait in (s for s in model.shapes.values() if TRAIT in s.traits):
        seen: set[str] = set()
        stack = [trait.id]
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            obj = model.member(node) if "$" in node else model.shapes.get(node)
            if obj is not None and ID_REF in obj.traits:
                out.add(trait.id)
                break
            stack.extend(r.neighbor for r in index.neighbors(node)
                         if r.is_valid and r.type.directed and r.neighbor not in seen)
    return out


def idref_targets(model: Model, node: Shape | Member, only: set[str] | None = None) -> list[str]:
    """The shapes that ``node``'s trait values name through ``@idRef`` (and that exist);
    ``only``: the traits to read (:func:`traits_with_idrefs`), default all."""
    out: list[str] = []
    for tid, value in node.traits.items():
        if only is not None and tid not in only:
            continue
        trait_shape = model.shapes.get(tid)
        if trait_shape is not None:
            _idref_values(model, tid, trait_shape.traits, value, out, 0)
    return [ShapeId.root(t) if "$" in t else t for t in out
            if isinstance(t, str) and (t in model.shapes or model.member(t) is not None)]


def connected(model: Model, roots: Iterable[str], *, idrefs: bool = False) -> set[str]:
    """Every shape and member reachable from ``roots`` over the valid relationships (the
    reference's ``Walker``; with ``idrefs``, also over ``@idRef`` trait values, its
    ``NeighborProvider.withIdRefRelationships``)."""
    index = model.knowledge(NeighborIndex)
    readable = traits_with_idrefs(model) if idrefs else set()
    seen: set[str] = set()
    stack = [r for r in roots if r in model.shapes]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        stack.extend(r.neighbor for r in index.neighbors(node) if r.is_valid and r.neighbor not in seen)
        if readable:
            obj = model.member(node) if "$" in node else model.shapes.get(node)
            if obj is not None and not readable.isdisjoint(obj.traits):
                stack.extend(t for t in idref_targets(model, obj, readable) if t not in seen)
    return seen


def unreferenced_shapes(model: Model, roots: Iterable[str]) -> set[str]:
    """The top-level shapes (prelude and built-in ones included: callers leave them out as
    they need) that no valid relationship or ``@idRef`` trait value connects to ``roots``, to
    a trait definition or to a ``@metadata`` shape (reference ``UnreferencedShapes``)."""
    starts = [*roots, *(s.id for s in model.shapes.values() if TRAIT in s.traits or METADATA in s.traits)]
    reached = connected(model, starts, idrefs=True)
    return {sid for sid in model.shapes if sid not in reached}


__all__ = ["MAX_IDREF_DEPTH", "connected", "idref_targets", "traits_with_idrefs", "unreferenced_shapes"]
