"""Helpers shared by the validators: diagnostic construction, spans, user shapes.

Diagnostic codes of the validate stage are ``S3xxx``; each has its severity and the
reference's event ID in :data:`smithy2cfn.diagnostics.CODES` (README §"Diagnostics"). The
event ID is also kept in the hint (``Smithy event: TraitTarget``) so results can be compared
with the reference's validation events.
"""

from __future__ import annotations

from smithy2cfn.diagnostics import CODES, Code, Diagnostic, Severity, Span, declare_codes
from smithy2cfn.model.shapes import PRELUDE_NAMESPACE, Member, Model, Shape, ShapeId, ShapeLists


def idiomatic(trait_id: str) -> str:
    """The reference's ``Trait.getIdiomaticTraitName``: a prelude trait by its name
    (``httpHeader``), any other by its full ID, as the reference's messages name them."""
    return ShapeId.name(trait_id) if ShapeId.namespace(trait_id) == PRELUDE_NAMESPACE else trait_id

#: The diagnostic codes several validators' modules report (README "Diagnostics" lists them all).
SHARED_CODES = declare_codes(
    Code("S3374", Severity.ERROR, "Model",
         "a trait of these validators cannot be created (\"Error creating trait\"): an `@http` URI or "
         "`@endpoint` host prefix that does not parse; a member of `@http`, `@endpoint`, `@httpApiKeyAuth`, "
         "`@requestCompression`, `@paginated`, `@idempotent`, `@references`, `@examples` missing or of the "
         "wrong type; a shape ID in `@auth`, `@idempotent`, `@references`, `@examples` that is none; "
         "`@error` neither client nor server; an empty `@httpHeader`/`@httpQuery`"),
)


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
        self._with_traits: list[tuple[str, dict]] | None = None
        self._by_trait: dict[str, list[tuple[str, dict]]] | None = None
        self.by_type: dict[str, list[Shape]] | None = None

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

    @property
    def with_traits(self) -> list[tuple[str, dict]]:
        """The pairs of :attr:`nodes` whose traits are not empty, in order."""
        if self._with_traits is None:
            self._with_traits = [pair for pair in self.nodes if pair[1]]
        return self._with_traits

    def having(self, trait_id: str) -> list[tuple[str, dict]]:
        """The pairs of :attr:`nodes` carrying ``trait_id``, in order."""
        if self._by_trait is None:
            by_trait: dict[str, list[tuple[str, dict]]] = {}
            for pair in self.with_traits:
                for tid in pair[1]:
                    by_trait.setdefault(tid, []).append(pair)
            self._by_trait = by_trait
        return self._by_trait.get(trait_id, [])


def shapes_of_type(model: Model, shape_type: str) -> list[Shape]:
    """Every shape of ``shape_type`` (JSON AST type name), prelude included, in model order
    (``[s for s in model.shapes.values() if s.type == shape_type]``; a new list)."""
    return list(model.knowledge(ShapeLists).by_type.get(shape_type, ()))


def shapes_having(model: Model, trait_id: str) -> list[Shape]:
    """Every top-level shape carrying ``trait_id``, prelude included, in model order (a new
    list)."""
    return list(model.knowledge(ShapeLists).by_trait.get(trait_id, ()))


class _MemberTraitIndex:
    """Knowledge: the members of the model by trait, ``(shape, member)`` in model order,
    listed in one walk over every member (see :class:`~smithy2cfn.model.shapes.ShapeLists`)."""

    def __init__(self, model: Model) -> None:
        by_trait: dict[str, list[tuple[Shape, Member]]] = {}
        for shape in model.shapes.values():
            for member in shape.members.values():
                for trait_id in member.traits:
                    by_trait.setdefault(trait_id, []).append((shape, member))
        self.by_trait = by_trait


def members_having(model: Model, trait_id: str) -> list[Member]:
    """Every member carrying ``trait_id``, prelude included, in model order (``[m for s in
    model.shapes.values() for m in s.members.values() if trait_id in m.traits]``; a new
    list)."""
    return [m for _, m in model.knowledge(_MemberTraitIndex).by_trait.get(trait_id, ())]


def shapes_with_members_having(model: Model, trait_id: str) -> list[Shape]:
    """Every shape with a member carrying ``trait_id``, each once, in model order."""
    out: list[Shape] = []
    for shape, _ in model.knowledge(_MemberTraitIndex).by_trait.get(trait_id, ()):
        if not out or out[-1] is not shape:  # a shape's members are listed together
            out.append(shape)
    return out


def trait_applied(model: Model, trait_id: str) -> bool:
    """Whether any shape or member of the model (prelude included) carries ``trait_id``."""
    return bool(model.knowledge(ShapeLists).by_trait.get(trait_id)
                or model.knowledge(_MemberTraitIndex).by_trait.get(trait_id))


def user_shapes(model: Model):
    """Shapes that are not from the built-in prelude or trait packages, sorted by ID (a new
    list each call)."""
    return list(model.knowledge(_UserShapes).shapes)


def user_shapes_of_type(model: Model, shape_type: str) -> list[Shape]:
    """The shapes of :func:`user_shapes` of ``shape_type``, in the same order (a new list)."""
    index = model.knowledge(_UserShapes)
    if index.by_type is None:
        by_type: dict[str, list[Shape]] = {}
        for shape in index.shapes:
            by_type.setdefault(shape.type, []).append(shape)
        index.by_type = by_type
    return list(index.by_type.get(shape_type, ()))


def user_shapes_having(model: Model, trait_id: str) -> list[Shape]:
    """The shapes of :func:`user_shapes` carrying ``trait_id``, in the same order."""
    return sorted((s for s in shapes_having(model, trait_id) if s.id not in model.prelude_ids), key=lambda s: s.id)


def user_shapes_with_members_having(model: Model, trait_id: str) -> list[Shape]:
    """The shapes of :func:`user_shapes` with a member carrying ``trait_id``, in the same
    order."""
    return sorted((s for s in shapes_with_members_having(model, trait_id) if s.id not in model.prelude_ids),
                  key=lambda s: s.id)


def user_nodes(model: Model):
    """``(node ID, traits)`` for every non-prelude shape and member, in shape-ID order (an
    iterator over a list made once per model; the traits dicts are the model's own, not to
    be changed)."""
    return iter(model.knowledge(_UserShapes).nodes)


def user_nodes_with_traits(model: Model):
    """The pairs of :func:`user_nodes` whose traits are not empty, in the same order (for
    validators that look at nothing but the traits)."""
    return iter(model.knowledge(_UserShapes).with_traits)


def user_nodes_having(model: Model, trait_id: str):
    """The pairs of :func:`user_nodes` that carry ``trait_id``, in the same order."""
    return iter(model.knowledge(_UserShapes).having(trait_id))
