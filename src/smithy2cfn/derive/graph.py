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


def _reachable(graph: nx.DiGraph, roots: list[str], kind: str) -> set[str]:
    """Nodes reachable from ``roots`` along edges of one ``kind`` (roots excluded unless a
    cycle reaches them)."""
    view = nx.subgraph_view(graph, filter_edge=lambda u, v: graph.edges[u, v].get("kind") == kind)
    seen: set[str] = set()
    for root in roots:
        if root in graph:
            seen |= nx.descendants(view, root)
            if any(view.has_edge(pred, root) for pred in seen):
                seen.add(root)
    return seen


def contained_resources(graph: nx.DiGraph, service_id: str) -> list[str]:
    """Resources bound to a service directly or through other resources, sorted by ID.

    Reference ``TopDownIndex.getContainedResources``.
    """
    return sorted(_reachable(graph, [service_id], "resource"))


def parent_resources(graph: nx.DiGraph, model: Model, resource_id: str) -> list[str]:
    """The resources that bind ``resource_id`` in the hierarchy of some service, sorted.

    Reference ``BottomUpIndex.getResourceBinding`` over every service (used for the
    identifiers a child resource inherits).
    """
    parents: set[str] = set()
    for service in model.of_type("service"):
        if resource_id not in contained_resources(graph, service.id):
            continue
        for pred, _, data in graph.in_edges(resource_id, data=True):
            if data.get("kind") == "resource" and graph.nodes[pred].get("type") == "resource":
                parents.add(pred)
    return sorted(parents)


def closure(graph: nx.DiGraph, roots: list[str]) -> set[str]:
    """Every shape reachable from ``roots`` along any edge, roots included."""
    seen: set[str] = set()
    for root in roots:
        if root in graph and root not in seen:
            seen.add(root)
            seen |= nx.descendants(graph, root)
    return seen


def member_closure(graph: nx.DiGraph, roots: list[str]) -> set[str]:
    """Shapes reachable from ``roots`` through member targets only (reference ``Walker``
    from a structure), roots excluded unless a cycle reaches them."""
    return _reachable(graph, roots, "member")
