"""The cycle checks of :mod:`smithy2cfn.model.relationships` against :mod:`graphlib` (the
standard library's topological sorter, which raises ``CycleError`` on a cycle), on random
directed graphs: :func:`has_cycle` over a whole graph, :func:`reaches_cycle` over what its
roots reach."""

from __future__ import annotations

import graphlib

from hypothesis import given, settings
from hypothesis import strategies as st

from smithy2cfn.model.relationships import has_cycle, reaches_cycle

NODES = st.sampled_from([f"n{i}" for i in range(8)])
GRAPHS = st.dictionaries(NODES, st.lists(NODES, max_size=4), max_size=8)


def _graphlib_cycle(children: dict[str, list[str]]) -> bool:
    try:
        graphlib.TopologicalSorter(children).prepare()
    except graphlib.CycleError:
        return True
    return False


def _reached(children: dict[str, list[str]], roots: list[str]) -> dict[str, list[str]]:
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(children.get(node, ()))
    return {node: children.get(node, []) for node in seen}


@settings(max_examples=400, deadline=None)
@given(GRAPHS)
def test_has_cycle_is_graphlibs_verdict(children):
    assert has_cycle(children) == _graphlib_cycle(children)


@settings(max_examples=400, deadline=None)
@given(GRAPHS, st.lists(NODES, max_size=3))
def test_reaches_cycle_sees_only_what_its_roots_reach(children, roots):
    asked: list[str] = []

    def follow(node: str) -> list[str]:
        asked.append(node)
        return children.get(node, [])

    assert reaches_cycle(roots, follow) == _graphlib_cycle(_reached(children, roots))
    assert len(asked) == len(set(asked))  # each node's edges asked for once


def test_a_self_loop_and_a_long_chain():
    assert has_cycle({"a": ["a"]})
    chain = {f"n{i}": [f"n{i + 1}"] for i in range(100_000)}  # (no recursion: an explicit stack)
    assert not reaches_cycle(["n0"], lambda node: chain.get(node, []))
    chain["n99999"] = ["n0"]
    assert reaches_cycle(["n0"], lambda node: chain.get(node, []))
