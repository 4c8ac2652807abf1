"""The service graph: service → resources → operations → structures, as a networkx DiGraph.

One directed graph holds the bindings the CloudFormation derivation walks (Smithy 2.0
"Service types"): ``service``/``resource`` → bound resources (edge kind ``resource``),
``service``/``resource`` → bound operations (kind ``operation``, with the lifecycle name
when there is one), ``operation`` → input/output structures (kinds ``input``/``output``),
and aggregate shapes → the targets of their members (kind ``member``). It replaces the
reference's ``TopDownIndex``, ``BottomUpIndex`` and ``Walker``.
"""

from __future__ import annotations

import networkx as nx

from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import UNIT


def build_graph(model: Model) -> nx.DiGraph:
    """Build the binding graph of every service, resource, operation and aggregate shape.

    Args:
        model: the loaded model.

    Returns:
        A ``networkx.DiGraph`` whose nodes are shape IDs (attribute ``type``) and whose
        edges carry ``kind`` (``resource``, ``operation``, ``input``, ``output``,
        ``member``) and, for lifecycle bindings, ``lifecycle``. Edges to shapes missing
        from the model are left out.
    """
    g = nx.DiGraph()
    shapes = model.shapes
    for sid, shape in shapes.items():
        g.add_node(sid, type=shape.type)
    for sid, shape in shapes.items():
        if shape.type in ("service", "resource"):
            for rid in shape.resources:
                if rid in shapes:
                    g.add_edge(sid, rid, kind="resource")
            ops: list[tuple[str, str | None]] = [(o, None) for o in shape.operations]
            if shape.type == "resource":
                ops += [(o, None) for o in shape.collection_operations]
                ops += [(o, name) for name, o in shape.lifecycle().items()]
            for oid, lifecycle in ops:
                if oid in shapes:
                    g.add_edge(sid, oid, kind="operation", lifecycle=lifecycle)
        elif shape.type == "operation":
            for kind in ("input", "output"):
                target = getattr(shape, kind) or UNIT
                if target in shapes:
                    g.add_edge(sid, target, kind=kind)
        elif shape.members:
            for member in shape.members.values():
                if member.target in shapes and member.target != sid:
                    g.add_edge(sid, member.target, kind="member")
                elif member.target == sid:
                    g.add_edge(sid, sid, kind="member")
    return g


def _kind_graph(graph: nx.DiGraph, kind: str) -> nx.DiGraph:
    """The edges of one ``kind`` as a graph of their own, built once per graph and kept in
    ``graph.graph`` (the binding graph is not changed after :func:`build_graph`).

    A filtered ``subgraph_view`` would be rebuilt and re-filtered on every call, and
    networkx takes ``len()`` of the graph per traversal, which on a view walks every node:
    calling it once per resource made a build quadratic in the number of resources.
    """
    cache = graph.graph.setdefault("_smithy2cfn_by_kind", {})
    sub = cache.get(kind)
    if sub is None:
        sub = nx.DiGraph()
        sub.add_edges_from((u, v) for u, v, k in graph.edges(data="kind") if k == kind)
        cache[kind] = sub
    return sub


def _reachable(graph: nx.DiGraph, roots: list[str], kind: str) -> set[str]:
    """Nodes reachable from ``roots`` along one or more edges of one ``kind`` (so a root
    is included only when a cycle, or another root, reaches it). One breadth-first search
    from all roots at once: linear in the edges walked."""
    sub = _kind_graph(graph, kind)
    starts = list(dict.fromkeys(s for r in roots if r in sub for s in sub.successors(r)))
    return {n for layer in nx.bfs_layers(sub, starts) for n in layer} if starts else set()


def contained_resources(graph: nx.DiGraph, service_id: str) -> list[str]:
    """Resources bound to a service directly or through other resources, sorted by ID.

    Reference ``TopDownIndex.getContainedResources``.
    """
    return sorted(_reachable(graph, [service_id], "resource"))


def _resources_in_services(graph: nx.DiGraph) -> set[str]:
    """Every resource contained in some service (computed once per graph)."""
    cache = graph.graph.setdefault("_smithy2cfn_by_kind", {})
    found = cache.get("<in a service>")
    if found is None:
        services = [n for n, t in graph.nodes(data="type") if t == "service"]
        found = _reachable(graph, services, "resource")
        cache["<in a service>"] = found
    return found


def parent_resources(graph: nx.DiGraph, model: Model, resource_id: str) -> list[str]:
    """The resources that bind ``resource_id`` in the hierarchy of some service, sorted.

    Reference ``BottomUpIndex.getResourceBinding`` over every service (used for the
    identifiers a child resource inherits). ``model`` is kept for the signature; the
    graph holds the shape types. The resources contained in services are found once per
    graph, so calling this for every resource stays linear.
    """
    if resource_id not in _resources_in_services(graph):
        return []
    return sorted(pred for pred, _, kind in graph.in_edges(resource_id, data="kind")
                  if kind == "resource" and graph.nodes[pred].get("type") == "resource")


def closure(graph: nx.DiGraph, roots: list[str]) -> set[str]:
    """Every shape reachable from ``roots`` along any edge, roots included (one
    breadth-first search from all roots)."""
    starts = [r for r in dict.fromkeys(roots) if r in graph]
    return {n for layer in nx.bfs_layers(graph, starts) for n in layer} if starts else set()


def member_closure(graph: nx.DiGraph, roots: list[str]) -> set[str]:
    """Shapes reachable from ``roots`` through member targets only (reference ``Walker``
    from a structure), roots excluded unless a cycle reaches them."""
    return _reachable(graph, roots, "member")
