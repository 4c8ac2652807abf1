"""smithy2cfn.garbage_collection: frozen blocks, one after another, do not pile up dead cycles
(the leak the coverage-guided harness found), and their full collections are amortized (a
collection before every validation made a large-heap process, this test runner, ~20x slower)."""

from __future__ import annotations

import gc
import weakref

import pytest

from smithy2cfn import garbage_collection


class _Cycle:
    """A self-referencing object: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def _blocks(n: int) -> list[weakref.ref]:
    """``n`` frozen blocks, each over a cycle made before it and dropped after it (a model
    loaded, validated, then dropped); the weak references of the cycles."""
    refs = []
    for _ in range(n):
        cycle = _Cycle()
        refs.append(weakref.ref(cycle))
        with garbage_collection.frozen():
            pass
        del cycle
    return refs


@pytest.fixture
def fresh_state(monkeypatch: pytest.MonkeyPatch) -> None:
    if gc.get_freeze_count():
        pytest.skip("the process froze objects of its own: frozen() leaves its freeze alone")
    monkeypatch.setattr(garbage_collection, "_thawed", False)
    monkeypatch.setattr(garbage_collection, "_last_collection", (0.0, 0.0))


def test_each_block_collects_the_thawed_cycles_when_collections_are_cheap(
        fresh_state: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(garbage_collection, "THAWED_COLLECTION_RATIO", 0)
    gc.disable()  # only frozen()'s own collections count
    try:
        refs = _blocks(20)
    finally:
        gc.enable()
    alive = [r for r in refs if r() is not None]
    assert len(alive) == 1  # the last block's cycle: no block came after it yet


def test_collections_wait_while_the_last_one_was_expensive(
        fresh_state: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # the last collection "took" an hour and just ended: no block collects now
    monkeypatch.setattr(garbage_collection, "_last_collection", (3600.0, garbage_collection.time.perf_counter()))
    monkeypatch.setattr(garbage_collection, "_thawed", True)
    gc.disable()
    try:
        refs = _blocks(5)
    finally:
        gc.enable()
    assert all(r() is not None for r in refs)
    gc.collect()
    assert all(r() is None for r in refs)
