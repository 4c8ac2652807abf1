"""Facts about the model's shapes that validators share.

* The model's shapes by type and by trait, the user's shapes (not the prelude's or the
  trait packages'), their ``(node ID, traits)`` pairs: each list made once per model
  (:meth:`~smithy2cfn.model.shapes.Model.knowledge`) rather than once per validator
  (issue 10), and handed out as a new list or an iterator;
* an operation's event stream (reference ``EventStreamIndex``); an operation's input and
  output are :class:`~smithy2cfn.model.knowledge_ops.OperationIndex`'s;
* small readers of shapes and trait values: :func:`type_of`, :func:`is_string`,
  :func:`service_trait`, :func:`arn_namespace`, :func:`member_of`;
  :data:`RECOMMENDED_ENUM_NAME`. (JSON values: :mod:`smithy2cfn.model.nodes`.)
"""

from __future__ import annotations

import operator
from collections.abc import Iterable

from smithy2cfn.model.knowledge import MemberTraitIndex
from smithy2cfn.model.shapes import Member, Model, Shape, ShapeId, ShapeLists
from smithy2cfn.model.traits import AWS_SERVICE, STREAMING
from smithy2cfn.regexes import lazy

#: The reference's recommended enum name, UPPER_SNAKE_CASE (enum members, ``@enum`` names:
#: ``EnumShapeValidator``, ``EnumTraitValidator``).
RECOMMENDED_ENUM_NAME = lazy(r"[A-Z]+[A-Z_0-9]*")

#: A shape's sort key, its ID (an attrgetter: no call of Python code per shape).
_BY_ID = operator.attrgetter("id")


class _UserShapes:
    """Knowledge: the model's non-prelude shapes sorted by ID, sorted once per model rather
    than once per validator (issue 10), and their ``(node ID, traits)`` pairs, listed once:
    a dozen validators walk them, and walking the shapes again each time (formatting every
    member's ID anew, reaching into each shape and member object) cost more per node the
    larger the model, as the objects spread past the processor's caches."""

    def __init__(self, model: Model) -> None:
        prelude = model.prelude_ids
        self.shapes = sorted([s for s in model.shapes.values() if s.id not in prelude], key=_BY_ID)
        self._nodes: list[tuple[str, dict]] | None = None
        self._with_traits: list[tuple[str, dict]] | None = None
        self._by_trait: dict[str, list[tuple[str, dict]]] | None = None

    def _list(self) -> None:
        """:attr:`nodes`, :attr:`with_traits` and the pairs by trait, made in one walk over
        :attr:`shapes` (each member object is reached once: three walks, one per list, cost
        twice as much on a model past the processor's caches)."""
        # (comprehensions, not a loop making a list per shape: in Python 3.11 each comprehension
        # is a call, and so is each of a loop's appends)
        nodes = [(node.id, node.traits) for s in self.shapes for node in ((s, *s.members.values()) if s.members else (s,))]
        with_traits = [pair for pair in nodes if pair[1]]
        by_trait: dict[str, list[tuple[str, dict]]] = {}
        for pair in with_traits:
            for tid in pair[1]:
                found = by_trait.get(tid)
                if found is None:
                    by_trait[tid] = [pair]
                else:
                    found.append(pair)
        self._nodes, self._with_traits, self._by_trait = nodes, with_traits, by_trait

    @property
    def nodes(self) -> list[tuple[str, dict]]:
        """``(node ID, traits)`` of every shape and member of :attr:`shapes`, in order."""
        if self._nodes is None:
            self._list()
        assert self._nodes is not None
        return self._nodes

    @property
    def with_traits(self) -> list[tuple[str, dict]]:
        """The pairs of :attr:`nodes` whose traits are not empty, in order."""
        if self._with_traits is None:
            self._list()
        assert self._with_traits is not None
        return self._with_traits

    def having(self, trait_id: str) -> list[tuple[str, dict]]:
        """The pairs of :attr:`nodes` carrying ``trait_id``, in order."""
        if self._by_trait is None:
            self._list()
        assert self._by_trait is not None
        return self._by_trait.get(trait_id, [])

    def trait_ids(self) -> list[str]:
        """Every trait ID applied in :attr:`nodes`, each once, in order of first use."""
        self.having("")
        assert self._by_trait is not None
        return list(self._by_trait)


def shapes_of_type(model: Model, shape_type: str) -> list[Shape]:
    """Every shape of ``shape_type`` (JSON AST type name), prelude included, in model order
    (``[s for s in model.shapes.values() if s.type == shape_type]``; a new list)."""
    return list(model.knowledge(ShapeLists).by_type.get(shape_type, ()))


def shapes_having(model: Model, trait_id: str) -> list[Shape]:
    """Every top-level shape carrying ``trait_id``, prelude included, in model order (a new
    list)."""
    return list(model.knowledge(ShapeLists).by_trait.get(trait_id, ()))


#: (the members by trait: :class:`smithy2cfn.model.knowledge.MemberTraitIndex`, which the
#: selector engine shares)
_MemberTraitIndex = MemberTraitIndex


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
    lists = model.knowledge(ShapeLists)
    prelude = model.prelude_ids
    return list(lists.sorted_list(("user type", shape_type),
                                  lambda: [s for s in lists.by_type.get(shape_type, ()) if s.id not in prelude]))


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


def user_nodes_having_list(model: Model, trait_id: str) -> list[tuple[str, dict]]:
    """:func:`user_nodes_having` as a list (the index's own: not to be changed)."""
    return model.knowledge(_UserShapes).having(trait_id)


def user_nodes_having_any(model: Model, trait_ids: Iterable[str]) -> list[tuple[str, dict]]:
    """The pairs of :func:`user_nodes` that carry any of ``trait_ids``, in the same order (a
    new list): for validators that look at a few traits, found from the index of the
    model's traits rather than by a walk over every node's traits."""
    index = model.knowledge(_UserShapes)
    present = [tid for tid in dict.fromkeys(trait_ids) if index.having(tid)]
    if not present:
        return []
    if len(present) == 1:
        return list(index.having(present[0]))
    ids = {node for tid in present for node, _ in index.having(tid)}
    return [pair for pair in index.with_traits if pair[0] in ids]


def user_trait_ids(model: Model) -> list[str]:
    """Every trait ID that :func:`user_nodes` apply, each once, in order of first use (a new
    list)."""
    return model.knowledge(_UserShapes).trait_ids()


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


def member_of(shape_id: str, name: str) -> str:
    """``ns#Shape$name``."""
    return f"{ShapeId.root(shape_id)}${name}"


__all__ = [
    "RECOMMENDED_ENUM_NAME", "arn_namespace", "event_stream", "is_string", "member_of",
    "members_having", "service_trait", "shapes_having", "shapes_of_type", "shapes_with_members_having",
    "trait_applied", "type_of", "user_nodes", "user_nodes_having", "user_nodes_having_any", "user_nodes_having_list", "user_nodes_with_traits",
    "user_shapes", "user_trait_ids",
    "user_shapes_having", "user_shapes_of_type", "user_shapes_with_members_having",
]
