"""The relationships between shapes: the one place that lists what a shape points at.

Smithy 2.0 "Selectors" §"Relationships" names the edges of the shape graph; the reference
computes them in ``NeighborVisitor`` (``software.amazon.smithy.model.neighbor``). Every
consumer here reads :func:`relationships` (or the per-model :class:`NeighborIndex` built
from it): the selector engine, the validators, the derivation, the JSON AST writer.

Nodes are shape IDs: top-level shapes (``ns#Name``) and members (``ns#Name$member``).
A relationship is ``(shape, type, neighbor)``; ``neighbor`` may name a shape that is not in
the model (the reference's "invalid" relationship), which :attr:`Relationship.is_valid`
tells and :class:`Walker` skips.
"""

from __future__ import annotations

from collections import defaultdict, namedtuple
from collections.abc import Callable, Iterable, Iterator, Sequence

from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.model.traits import UNIT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, NamedTuple


class RelationshipType:
    """The kinds of edges (reference ``RelationshipType``).

    Each type is made from ``(selector label, directed)``: :attr:`label` names the
    relationship in ``-[label]->`` selectors (``None``: only ``>`` follows it), and
    :attr:`directed` is ``False`` for edges that point "up" (member → container), which
    ``>`` does not follow.

    Behaves as an enum (``RelationshipType.INPUT``; each kind has a ``name`` and a ``value``,
    its place in :data:`RELATIONSHIP_TYPES`; equal only to itself; copies and pickles are itself) without
    :class:`enum.Enum`, whose class took 3 ms to make at every start (issue 15, "Cold start").
    The kinds are made once, below the class.
    """

    __slots__ = ("name", "value", "label", "directed")

    RESOURCE: ClassVar[RelationshipType]
    OPERATION: ClassVar[RelationshipType]
    COLLECTION_OPERATION: ClassVar[RelationshipType]
    PUT: ClassVar[RelationshipType]
    CREATE: ClassVar[RelationshipType]
    READ: ClassVar[RelationshipType]
    UPDATE: ClassVar[RelationshipType]
    DELETE: ClassVar[RelationshipType]
    LIST: ClassVar[RelationshipType]
    IDENTIFIER: ClassVar[RelationshipType]
    PROPERTY: ClassVar[RelationshipType]
    MEMBER_CONTAINER: ClassVar[RelationshipType]
    MEMBER_TARGET: ClassVar[RelationshipType]
    INPUT: ClassVar[RelationshipType]
    OUTPUT: ClassVar[RelationshipType]
    ERROR: ClassVar[RelationshipType]
    ENUM_MEMBER: ClassVar[RelationshipType]
    INT_ENUM_MEMBER: ClassVar[RelationshipType]
    LIST_MEMBER: ClassVar[RelationshipType]
    SET_MEMBER: ClassVar[RelationshipType]
    MAP_KEY: ClassVar[RelationshipType]
    MAP_VALUE: ClassVar[RelationshipType]
    STRUCTURE_MEMBER: ClassVar[RelationshipType]
    UNION_MEMBER: ClassVar[RelationshipType]
    MIXIN: ClassVar[RelationshipType]

    def __init__(self, name: str, value: int, label: str | None, directed: bool) -> None:
        self.name = name
        self.value = value
        #: The selector name of the relationship (``"input"``, ``"member"``...), or ``None``.
        self.label = label
        #: ``False`` for the member → container edge, which ``>`` does not follow.
        self.directed = directed

    def __repr__(self) -> str:
        return f"<RelationshipType.{self.name}: {self.value}>"

    def __copy__(self) -> RelationshipType:
        return self

    def __deepcopy__(self, memo: dict) -> RelationshipType:
        return self

    def __reduce__(self) -> str:
        return f"RelationshipType.{self.name}"

    @property
    def is_member_binding(self) -> bool:
        """True for the edges from an aggregate (or enum) shape to its members."""
        return self in _MEMBER_BINDINGS

    @property
    def is_operation_binding(self) -> bool:
        """True for the edges that bind an operation to a service or resource (reference
        ``RelationshipType.isOperationBinding``): ``operation``, ``collectionOperation``
        and the lifecycle operations."""
        return self in _OPERATION_BINDINGS

    @property
    def is_instance_operation_binding(self) -> bool:
        """True for ``operation``, ``put``, ``read``, ``update`` and ``delete`` (reference
        ``RelationshipType.isInstanceOperationBinding``; the selector's deprecated
        ``instanceOperation`` relationship)."""
        return self in _INSTANCE_OPERATION_BINDINGS

    @property
    def is_collection_operation_binding(self) -> bool:
        """True for ``collectionOperation``, ``create`` and ``list`` (reference
        ``RelationshipType.isCollectionOperationBinding``)."""
        return self in _COLLECTION_OPERATION_BINDINGS


#: The relationship types, in order: ``(name, selector label, directed)``.
_KINDS: tuple[tuple[str, str | None, bool], ...] = (
    ("RESOURCE", "resource", True),
    ("OPERATION", "operation", True),
    ("COLLECTION_OPERATION", "collectionOperation", True),
    ("PUT", "put", True),
    ("CREATE", "create", True),
    ("READ", "read", True),
    ("UPDATE", "update", True),
    ("DELETE", "delete", True),
    ("LIST", "list", True),
    ("IDENTIFIER", "identifier", True),
    ("PROPERTY", "property", True),
    ("MEMBER_CONTAINER", None, False),
    ("MEMBER_TARGET", None, True),
    ("INPUT", "input", True),
    ("OUTPUT", "output", True),
    ("ERROR", "error", True),
    ("ENUM_MEMBER", "member", True),
    ("INT_ENUM_MEMBER", "member", True),
    ("LIST_MEMBER", "member", True),
    ("SET_MEMBER", "member", True),
    ("MAP_KEY", "member", True),
    ("MAP_VALUE", "member", True),
    ("STRUCTURE_MEMBER", "member", True),
    ("UNION_MEMBER", "member", True),
    ("MIXIN", "mixin", True),
)
for _value, (_name, _label, _directed) in enumerate(_KINDS):
    setattr(RelationshipType, _name, RelationshipType(_name, _value, _label, _directed))
#: Every relationship type, in order (what iterating an enum class gives).
RELATIONSHIP_TYPES: tuple[RelationshipType, ...] = tuple(getattr(RelationshipType, name) for name, _, _ in _KINDS)

_MEMBER_BINDINGS = frozenset({
    RelationshipType.ENUM_MEMBER, RelationshipType.INT_ENUM_MEMBER, RelationshipType.LIST_MEMBER,
    RelationshipType.SET_MEMBER, RelationshipType.MAP_KEY, RelationshipType.MAP_VALUE,
    RelationshipType.STRUCTURE_MEMBER, RelationshipType.UNION_MEMBER,
})
_OPERATION_BINDINGS = frozenset({
    RelationshipType.OPERATION, RelationshipType.COLLECTION_OPERATION, RelationshipType.PUT,
    RelationshipType.CREATE, RelationshipType.READ, RelationshipType.UPDATE, RelationshipType.DELETE,
    RelationshipType.LIST,
})
_INSTANCE_OPERATION_BINDINGS = frozenset({
    RelationshipType.OPERATION, RelationshipType.PUT, RelationshipType.READ, RelationshipType.UPDATE,
    RelationshipType.DELETE,
})
_COLLECTION_OPERATION_BINDINGS = frozenset({
    RelationshipType.COLLECTION_OPERATION, RelationshipType.CREATE, RelationshipType.LIST,
})
#: Lifecycle property name → relationship type.
LIFECYCLE_RELATIONSHIPS = {
    "put": RelationshipType.PUT, "create": RelationshipType.CREATE, "read": RelationshipType.READ,
    "update": RelationshipType.UPDATE, "delete": RelationshipType.DELETE, "list": RelationshipType.LIST,
}
_MEMBER_TYPE = {
    "enum": RelationshipType.ENUM_MEMBER, "intEnum": RelationshipType.INT_ENUM_MEMBER,
    "list": RelationshipType.LIST_MEMBER, "set": RelationshipType.SET_MEMBER,
    "structure": RelationshipType.STRUCTURE_MEMBER, "union": RelationshipType.UNION_MEMBER,
}
#: The types whose shapes, without mixins, have no relationships but those to their own
#: members (of :data:`_MEMBER_TYPE`'s kind, each valid).
MEMBERS_ONLY_TYPES = frozenset(_MEMBER_TYPE)
#: The other types whose shapes have relationships of their own (besides mixins).
_BINDING_TYPES = frozenset({"operation", "map", "service", "resource"})


if TYPE_CHECKING:
    class _RelationshipFields(NamedTuple):
        shape: str
        type: RelationshipType
        neighbor: str
        is_valid: bool = True
else:  # (typing.NamedTuple compiles each annotation of this module, strings: 2.5 ms at import)
    _RelationshipFields = namedtuple("_RelationshipFields", "shape type neighbor is_valid", defaults=(True,))


class Relationship(_RelationshipFields):
    """One edge: ``shape`` —``type``→ ``neighbor`` (absolute shape or member IDs).

    ``is_valid`` (default ``True``) is ``False`` when ``neighbor`` is not in the model (a
    broken reference the loader has reported); walks skip such edges. (A named tuple: a
    model has an edge or two per shape and member, and a tuple is several times cheaper to
    make than a frozen dataclass.)
    """

    __slots__ = ()


def _exists(model: Model, shape_id: str) -> bool:
    if "$" in shape_id:
        return model.member(shape_id) is not None
    return shape_id in model.shapes


def relationships(model: Model, shape_id: str) -> list[Relationship]:
    """Every relationship of a shape or member, in the reference's order.

    Args:
        model: the model.
        shape_id: an absolute shape ID or member ID.

    Returns:
        The edges of ``NeighborVisitor``: mixins first; services → operations, resources,
        errors; resources → identifiers, properties, resources, lifecycle operations
        (list, create, put, read, update, delete), operations, collection operations;
        operations → input, output (left out when ``smithy.api#Unit``), errors; aggregates
        and enums → their members; a member → its container and (unless it is an enum
        member) its target. Empty for an unknown ID.
    """
    if "$" in shape_id:
        member = model.member(shape_id)
        if member is None:
            return []
        out = [Relationship(shape_id, RelationshipType.MEMBER_CONTAINER, member.container)]
        container = model.shapes.get(member.container)
        if container is None or container.type not in ("enum", "intEnum"):
            out.append(Relationship(shape_id, RelationshipType.MEMBER_TARGET, member.target,
                                    _exists(model, member.target)))
        return out
    shape = model.shapes.get(shape_id)
    if shape is None:
        return []
    return _shape_relationships(model, shape)


def _shape_relationships(model: Model, shape: Shape) -> list[Relationship]:
    sid = shape.id
    new = tuple.__new__  # (a named tuple's own __new__ is a Python function: 3 times slower)
    kind = shape.type
    if not shape.mixins:  # (most shapes: their members, or nothing, without the closure below)
        rel = _MEMBER_TYPE.get(kind)
        if rel is not None:
            return [new(Relationship, (sid, rel, member.id, True)) for member in shape.members.values()]
        if kind not in _BINDING_TYPES:
            return []
    out: list[Relationship] = []
    shapes = model.shapes

    def push(kind: RelationshipType, target: str) -> None:
        exists = (model.member(target) is not None) if "$" in target else target in shapes
        out.append(new(Relationship, (sid, kind, target, exists)))

    for mixin in shape.mixins:
        push(RelationshipType.MIXIN, mixin)
    if kind in _MEMBER_TYPE:
        rel = _MEMBER_TYPE[kind]
        out.extend([new(Relationship, (sid, rel, member.id, True)) for member in shape.members.values()])
    elif kind == "operation":
        if shape.input and shape.input != UNIT:
            push(RelationshipType.INPUT, shape.input)
        if shape.output and shape.output != UNIT:
            push(RelationshipType.OUTPUT, shape.output)
        for e in shape.errors:
            push(RelationshipType.ERROR, e)
    elif kind == "map":
        for name, rel in (("key", RelationshipType.MAP_KEY), ("value", RelationshipType.MAP_VALUE)):
            if name in shape.members:
                out.append(new(Relationship, (sid, rel, shape.members[name].id, True)))
    elif kind == "service":
        for o in shape.operations:
            push(RelationshipType.OPERATION, o)
        for r in shape.resources:
            push(RelationshipType.RESOURCE, r)
        for e in shape.errors:
            push(RelationshipType.ERROR, e)
    elif kind == "resource":
        for target in shape.identifiers.values():
            push(RelationshipType.IDENTIFIER, target)
        for target in shape.properties.values():
            push(RelationshipType.PROPERTY, target)
        for r in shape.resources:
            push(RelationshipType.RESOURCE, r)
        for name in ("list", "create", "put", "read", "update", "delete"):
            op = getattr(shape, name)
            if op:
                push(LIFECYCLE_RELATIONSHIPS[name], op)
        for o in shape.operations:
            push(RelationshipType.OPERATION, o)
        for o in shape.collection_operations:
            push(RelationshipType.COLLECTION_OPERATION, o)
    return out


def operations_of(shape: Shape) -> list[str]:
    """Every operation bound to a service or resource, lifecycle ones included, each once,
    in relationship order (reference ``ResourceShape.getAllOperations``)."""
    if shape.type == "resource":
        candidates = [getattr(shape, n) for n in ("list", "create", "put", "read", "update", "delete")]
        candidates += shape.operations + shape.collection_operations
    else:
        candidates = list(shape.operations)
    return list(dict.fromkeys(op for op in candidates if op))  # each once, in order: linear


def has_cycle(children: dict[str, list[str]]) -> bool:
    """Whether the directed graph ``children`` (node → the nodes it points to; a node that is
    no key points nowhere) has a cycle, a node pointing to itself included: what
    ``graphlib.TopologicalSorter(children).prepare()`` raising ``CycleError`` tells
    (:func:`reaches_cycle` from every node; graphlib's node objects were most of the
    recursion checks' cost on a large model)."""
    return reaches_cycle(children, lambda node: children.get(node, ()))


def reaches_cycle(roots: Iterable[str], follow: Callable[[str], Sequence[str]]) -> bool:
    """Whether a cycle (a node pointing to itself included) can be reached from ``roots``
    over the edges ``follow`` gives (node → the nodes it points to, asked once per node
    reached): one depth-first walk with an explicit stack, no graph built."""
    state: dict[str, bool] = {}  # node -> finished (False: on the walk's path)
    for root in roots:
        if root in state:
            continue
        state[root] = False
        stack = [(root, iter(follow(root)))]
        while stack:
            node, todo = stack[-1]
            for kid in todo:
                done = state.get(kid)
                if done is None:
                    grandkids = follow(kid)
                    if grandkids:
                        state[kid] = False
                        stack.append((kid, iter(grandkids)))
                        break
                    state[kid] = True
                elif not done:
                    return True
            else:
                state[node] = True
                stack.pop()
    return False


def strongly_connected(children: dict[str, list[str]]) -> dict[str, frozenset[str]]:
    """The nodes of a directed graph (``children``: node → the nodes it points to) that lie
    on a cycle → their strongly connected component (of several nodes, or one pointing to
    itself). Callers use it once graphlib has found a cycle: networkx (the one graph
    algorithm graphlib lacks) is imported only here, its import costing ~0.15 s."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(children)
    g.add_edges_from((node, kid) for node, kids in children.items() for kid in kids)
    found: dict[str, frozenset[str]] = {}
    for component in nx.strongly_connected_components(g):
        if len(component) > 1 or any(g.has_edge(n, n) for n in component):
            scc = frozenset(component)
            found.update(dict.fromkeys(component, scc))
    return found


class NeighborIndex:
    """Forward and reverse relationships of every shape and member of a model, computed once
    (reference ``NeighborProviderIndex``). Get it with ``model.knowledge(NeighborIndex)``.

    The forward relationships of every shape and member are listed in one walk over the
    model on first use (validation asks for nearly all of them): reaching each member from
    its shape rather than looking it up again by ID for each question, and that walk's list
    serves the reverse relationships too.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self._forward: dict[str, list[Relationship]] | None = None
        #: the relationships of every shape and member, in :func:`all_node_ids` order
        self._in_order: list[list[Relationship]] = []
        self._reverse: dict[str, list[Relationship]] | None = None
        self._walks: dict[str, list[str]] = {}

    def _build(self) -> dict[str, list[Relationship]]:
        model = self.model
        shapes = model.shapes
        forward: dict[str, list[Relationship]] = {}
        in_order = self._in_order
        new = tuple.__new__
        container, to_target = RelationshipType.MEMBER_CONTAINER, RelationshipType.MEMBER_TARGET
        for sid, shape in shapes.items():
            rels = _shape_relationships(model, shape) if shape.id == sid else relationships(model, sid)
            forward[sid] = rels
            in_order.append(rels)
            if not shape.members:
                continue
            enum = shape.type in ("enum", "intEnum")
            for name, member in shape.members.items():
                mid = member.id
                if member.container != sid or member.name != name:
                    rels = relationships(model, mid)  # an inconsistent model: answer as for any ID
                elif enum:
                    rels = [new(Relationship, (mid, container, sid, True))]
                else:
                    target = member.target
                    rels = [new(Relationship, (mid, container, sid, True)),
                            new(Relationship, (mid, to_target, target,
                                               target in shapes if "$" not in target
                                               else model.member(target) is not None))]
                forward[mid] = rels
                in_order.append(rels)
        self._forward = forward
        return forward

    def neighbors(self, shape_id: str) -> list[Relationship]:
        """The relationships of ``shape_id`` (see :func:`relationships`), cached."""
        forward = self._forward if self._forward is not None else self._build()
        rels = forward.get(shape_id)
        if rels is None:
            rels = relationships(self.model, shape_id)
            forward[shape_id] = rels
        return rels

    def reverse(self, shape_id: str) -> list[Relationship]:
        """The valid relationships that point at ``shape_id`` (reference
        ``NeighborProvider.reverse``), in model order."""
        if self._reverse is None:
            if self._forward is None:
                self._build()
            rev: defaultdict[str, list[Relationship]] = defaultdict(list)
            for rels in self._in_order:
                for rel in rels:
                    if rel[3]:  # (is_valid: by index, as below, a quarter faster than by name)
                        rev[rel[2]].append(rel)  # (neighbor)
            self._reverse = rev
        return self._reverse.get(shape_id, [])

    def walk(self, start: str) -> list[str]:
        """Every ID reachable from ``start`` over valid relationships, ``start`` first, in
        :meth:`Walker.walk` order (without a predicate): a service's closure, which several
        checks ask for, walked once per start (the list is shared: callers copy it)."""
        found = self._walks.get(start)
        if found is None:
            neighbors = self.neighbors
            forward = self._forward if self._forward is not None else self._build()
            seen = {start}
            found = [start]
            # The neighbor IDs rather than the relationships on the stack, last first, and
            # only those not seen yet (one seen when pushed would be passed when popped).
            stack = [r.neighbor for r in reversed(neighbors(start)) if r.is_valid]
            push, pop, mark, keep = stack.append, stack.pop, seen.add, found.append
            while stack:
                node = pop()
                if node in seen:
                    continue
                mark(node)
                keep(node)
                rels = forward.get(node)
                for rel in reversed(rels if rels is not None else neighbors(node)):
                    if rel[3] and rel[2] not in seen:  # (is_valid, neighbor)
                        push(rel[2])
            self._walks[start] = found
        return found


def all_node_ids(model: Model) -> Iterator[str]:
    """Every shape ID and member ID of the model, each shape followed by its members."""
    for sid, shape in model.shapes.items():
        yield sid
        for member in shape.members.values():
            yield member.id


class Walker:
    """Walks the shape graph from a starting shape (reference ``Walker``): depth first, each
    shape once, following only the valid relationships that ``predicate`` accepts.

    Args:
        model: the model; its :class:`NeighborIndex` supplies the edges.
    """

    def __init__(self, model: Model) -> None:
        self.index = model.knowledge(NeighborIndex)

    def iterate(self, start: str, predicate: Callable[[Relationship], bool] | None = None,
                seen: set[str] | None = None) -> Iterator[str]:
        """The IDs reachable from ``start`` (``start`` first), without recursion.

        ``seen`` (updated in place) holds IDs not to visit again, for walks that share work.
        """
        if predicate is None and seen is None:
            yield from self.index.walk(start)
            return
        seen = set() if seen is None else seen
        if start in seen:
            return
        seen.add(start)
        yield start
        stack: list[Relationship] = []

        def push(node: str) -> None:
            rels = [r for r in self.index.neighbors(node) if r.is_valid and (predicate is None or predicate(r))]
            stack.extend(reversed(rels))

        push(start)
        while stack:
            rel = stack.pop()
            if rel.neighbor in seen:
                continue
            seen.add(rel.neighbor)
            yield rel.neighbor
            push(rel.neighbor)

    def walk(self, start: str, predicate: Callable[[Relationship], bool] | None = None) -> list[str]:
        """:meth:`iterate` as a list (``start`` included, in walk order)."""
        if predicate is None:
            return list(self.index.walk(start))
        return list(self.iterate(start, predicate))

    def walk_all(self, starts: Iterable[str], predicate: Callable[[Relationship], bool] | None = None) -> set[str]:
        """Everything reachable from any of ``starts`` (the starts included)."""
        if predicate is None and isinstance(starts, list) and len(starts) == 1:
            return set(self.index.walk(starts[0]))
        seen: set[str] = set()
        for start in starts:
            for _ in self.iterate(start, predicate, seen):
                pass
        return seen


__all__ = [
    "LIFECYCLE_RELATIONSHIPS", "MEMBERS_ONLY_TYPES", "RELATIONSHIP_TYPES", "NeighborIndex", "Relationship",
    "RelationshipType", "Walker", "all_node_ids", "has_cycle", "operations_of", "reaches_cycle", "relationships",
    "strongly_connected",
]
