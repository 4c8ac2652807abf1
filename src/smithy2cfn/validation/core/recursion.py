"""Shape recursion: recursive lists and maps, structures recursive through required members,
and unions that cannot be instantiated.

Spec: aggregate-types.rst §"Recursive shape definitions" ("a list, set or map shape that
references itself MUST do so through a structure or union"; structures may not be mutually
recursive through required members) and §"Union"; the reference's
``ShapeRecursionValidator`` (``ShapeRecursion`` errors), whose ``PathFinder`` lists every
path from a shape back to itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.model.relationships import NeighborIndex, reaches_cycle, strongly_connected
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import REQUIRED
from smithy2cfn.validation.support.events import error
from smithy2cfn.validation.support.shapes import shapes_with_members_having, user_shapes_of_type

#: Work allowed per searched shape (relationships followed). The reference enumerates
#: every simple cycle, which is exponential on a dense graph; past this budget the paths
#: found so far are reported (real models find theirs in a few steps).
SEARCH_BUDGET = 20_000
#: Paths reported per shape at most (the reference reports every one: thousands on a dense
#: graph, where the first few say all there is to fix).
MAX_PATHS = 10


def _on_cycles(model: Model, starts: Iterable[str], follow: Callable[[str], list[str]]) -> dict[str, frozenset[str]]:
    """The nodes on a cycle of the edges ``follow`` gives (node → the neighbors it follows,
    of the node's valid directed relationships) reachable from ``starts`` → their strongly
    connected component. Linear in the graph: one walk that looks for a cycle
    (:func:`~smithy2cfn.model.relationships.reaches_cycle`: most models have none, and then
    no graph is built); when there is one, a walk that lists the graph and networkx's
    components (a chain of 3,000 lists is then not searched 3,000 times)."""
    starts = list(starts)
    if not reaches_cycle(starts, follow):
        return {}
    children: dict[str, list[str]] = {}
    todo = list(starts)
    while todo:
        node = todo.pop()
        if node in children:
            continue
        kids = follow(node)
        children[node] = kids
        todo.extend(k for k in kids if k not in children)
    return strongly_connected({node: kids for node, kids in children.items() if kids})  # (a node without edges is on no cycle)


def _cycles(start: str, follow: Callable[[str], list[str]], within: frozenset[str]) -> list[list[str]]:
    """Every simple path of the edges ``follow`` gives (see :func:`_on_cycles`) from
    ``start`` back to ``start`` (each as the nodes after ``start``, ``start`` last), within
    the budget and at most :data:`MAX_PATHS` of them. ``within`` is ``start``'s strongly
    connected component: a path back to ``start`` never leaves it."""

    def edges(node: str) -> list[str]:
        return [n for n in follow(node) if n in within]

    found: list[list[str]] = []
    path: list[str] = []
    on_path = {start}
    stack: list[tuple[str, list[str]]] = [(start, edges(start))]
    budget = SEARCH_BUDGET
    while stack and budget > 0 and len(found) < MAX_PATHS:
        _node, todo = stack[-1]
        if not todo:
            stack.pop()
            if path:
                on_path.discard(path.pop())
            continue
        nxt = todo.pop(0)
        budget -= 1
        if nxt == start:
            found.append([*path, start])
            continue
        if nxt in on_path:
            continue
        on_path.add(nxt)
        path.append(nxt)
        stack.append((nxt, edges(nxt)))
    return found


@validator(Code("S3124", Severity.ERROR, "ShapeRecursion",
                "a list, set or map recursive without a structure or union between, a structure recursive through "
                "required members, a union that cannot be instantiated"),
           rule="reference ShapeRecursionValidator (smithy-model); Smithy 2.0 aggregate-types.rst, Recursive"
                " shape definitions")
def check_shape_recursion(model: Model) -> Iterable[Diagnostic]:
    """A list, set or map reaches itself only through a structure or union; a structure does
    not reach itself through required members only; a union can be instantiated.

    Spec: aggregate-types.rst §"Recursive shape definitions"; the reference's
    ``ShapeRecursionValidator`` (one ``ShapeRecursion`` error per path found, the path
    printed from the shape's first neighbor back to the shape).
    """

    index = model.knowledge(NeighborIndex)
    shapes = model.shapes

    def directed(node: str) -> list[str]:
        return [r.neighbor for r in index.neighbors(node) if r.is_valid and r.type.directed]

    def not_through_aggregates(node: str) -> list[str]:
        # every edge but those from a structure or union
        source = shapes.get(node)
        return [] if source is not None and source.type in ("structure", "union") else directed(node)

    def through_required(node: str) -> list[str]:
        # a member's edges, and a structure's edges to its required members
        if "$" in node:
            return directed(node)
        source = shapes.get(node)
        if source is None or source.type != "structure":
            return []
        # (its member edges, in member order, after any mixin edges, which are never followed)
        return [m.id for m in source.members.values() if REQUIRED in m.traits]

    def recursion(candidates: list[str], starts: list[str], follow: Callable[[str], list[str]],
                  why: str) -> Iterator[Diagnostic]:
        """One error per path for each of ``candidates`` (in order) on a cycle of ``follow``
        edges found from ``starts``."""
        on_cycles = _on_cycles(model, starts, follow)
        for shape_id in candidates:
            if shape_id in on_cycles:
                for path in _cycles(shape_id, follow, on_cycles[shape_id]):
                    yield error(model, "S3124", shape_id, f"Found invalid shape recursion: {listed(path, sep=' > ')}. {why}")

    collections = sorted(s.id for kind in ("list", "set", "map") for s in user_shapes_of_type(model, kind))
    yield from recursion(collections, collections, not_through_aggregates,
                         "A recursive list, set, or map shape is only valid if an intermediate reference is "
                         "through a union or structure.")
    # A structure is on a cycle through required members only if it has one: walk from those.
    with_required = [s.id for s in shapes_with_members_having(model, REQUIRED)
                     if s.type == "structure" and s.id not in model.prelude_ids]
    yield from recursion([s.id for s in user_shapes_of_type(model, "structure")], with_required, through_required,
                         "A structure cannot be mutually recursive through all required members.")
    for shape in user_shapes_of_type(model, "union"):
        if shape.members and not _terminates(model, shape.id, set()):
            yield error(model, "S3124", shape.id, "It is impossible to create instances of this recursive union")


def _terminates(model: Model, shape_id: str, visited: set[str]) -> bool:
    """The reference's ``UnionTerminatesVisitor``: can a value of ``shape_id`` be built
    without recursing forever (``visited``: the members already entered)? Iterative: an
    explicit stack of pending member lists stands in for the visitor's recursion."""
    # Each frame: (kind, members still to try); kind "any" (union, or a structure's
    # required members: one terminating member suffices).
    result = _enter(model, shape_id)
    if result is not None:
        return result
    frames: list[list[str]] = [_members_to_try(model, shape_id)]
    while frames:
        todo = frames[-1]
        if not todo:
            frames.pop()
            if not frames:
                return False
            continue  # this member's target did not terminate: try the next one of the parent
        member_id = todo.pop(0)
        if member_id in visited:
            continue
        visited.add(member_id)
        member = model.member(member_id)
        target = member.target if member is not None else None
        outcome = _enter(model, target) if target is not None else True
        if outcome is True:
            return True  # a member terminated, and so every frame up to the union
        if outcome is None:
            frames.append(_members_to_try(model, target))
    return False


def _enter(model: Model, shape_id: str) -> bool | None:
    """``True`` when ``shape_id`` terminates by itself, ``False`` when it cannot, ``None``
    when its members decide (a union, or a structure whose members are all required)."""
    shape = model.shapes.get(shape_id)
    if shape is None or shape.type not in ("structure", "union"):
        return True
    if shape.type == "structure":
        if not shape.members or any(REQUIRED not in m.traits for m in shape.members.values()):
            return True
        return None
    return None if shape.members else False


def _members_to_try(model: Model, shape_id: str) -> list[str]:
    shape = model.shapes[shape_id]
    return [m.id for m in shape.members.values()]


__all__ = ["MAX_PATHS", "SEARCH_BUDGET", "check_shape_recursion"]
