"""smithy2cfn.garbage_collection: frozen blocks, one after another, do not pile up dead cycles
(the leak the coverage-guided harness found), and their full collections are amortized (a
collection before every validation made a large-heap process, this test runner, ~20x slower),
deterministically: by the growth of the objects tracked, not by time."""

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
    monkeypatch.setattr(garbage_collection, "_tracked", 0)


def test_blocks_collect_the_thawed_cycles_once_the_heap_grows(
        fresh_state: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # any growth at all is enough: every block from the third on collects
    monkeypatch.setattr(garbage_collection, "THAWED_GROWTH", 10**12)
    gc.disable()  # only frozen()'s own collections count
    try:
        refs = _blocks(20)
    finally:
        gc.enable()
    alive = [i for i, r in enumerate(refs) if r() is not None]
    assert alive == [19]  # the last block's cycle: no block came after it yet


def test_blocks_do_not_collect_while_the_heap_has_not_grown_enough(
        fresh_state: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # a growth of a thousand times the heap would be needed
    monkeypatch.setattr(garbage_collection, "THAWED_GROWTH", 0.001)
    gc.disable()
    try:
        refs = _blocks(5)
    finally:
        gc.enable()
    assert all(r() is not None for r in refs)
    gc.collect()
    assert all(r() is None for r in refs)


def _made_in(block) -> list:
    """Objects the collector tracks, made inside ``block`` and alive after it."""
    with block:
        return [[] for _ in range(5_000)]


def _generation(obj: object) -> int:
    return next(g for g in range(3) if any(o is obj for o in gc.get_objects(generation=g)))


def test_a_promoting_pause_puts_its_survivors_in_the_oldest_generation() -> None:
    """Without ``promote`` the first allocation after the block collects the young
    generation (a walk over all the block made) and moves them one generation up; with it
    they are in the oldest one at once, unwalked."""
    if gc.get_freeze_count():
        pytest.skip("the process froze objects of its own")
    gc.collect()  # (the counts at 0: the next young collection does not reach the middle one)
    plain = _made_in(garbage_collection.paused())
    assert _generation(plain[-1]) < 2
    promoted = _made_in(garbage_collection.paused(promote=True))
    assert _generation(promoted[-1]) == 2 and not gc.get_freeze_count()


def test_a_promoting_pause_leaves_the_process_freeze_alone() -> None:
    if gc.get_freeze_count():
        pytest.skip("the process froze objects of its own")
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        _made_in(garbage_collection.paused(promote=True))
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_a_frozen_block_collects_nothing_and_puts_its_survivors_in_the_oldest_generation(
        fresh_state: None) -> None:
    """Validation's block: no automatic collection inside, however much it allocates (each
    would walk the validators' long-lived indexes), and what it made and kept is in the
    oldest generation after it, unwalked, with the collector enabled again."""
    if not gc.isenabled():
        pytest.skip("the collector is disabled in this process")
    collections: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(count)
    try:
        with garbage_collection.frozen():
            assert not gc.isenabled()
            kept = [[] for _ in range(50_000)]  # 70 young collections' worth at CPython's default
        assert collections == []
    finally:
        gc.callbacks.remove(count)
    assert gc.isenabled() and not gc.get_freeze_count()
    assert _generation(kept[-1]) == 2


def test_a_frozen_block_leaves_a_disabled_collector_disabled(fresh_state: None) -> None:
    gc.disable()
    try:
        with garbage_collection.frozen():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("enabled", [True, False])
def test_importing_the_package_pauses_the_collector_and_leaves_it_as_it_was(enabled: bool) -> None:
    """``import smithy2cfn`` runs no collection while the package's modules are imported
    (they live as long as the process: collecting them is work for nothing; a dozen
    collections before), wherever the interpreter stands (bytecode cached or compiled), and
    gives the collector back as it found it, enabled or not, nothing left frozen."""
    import subprocess
    import sys

    code = ("import gc, sys\n"
            "during = []\n"
            "def watch(phase, info):\n"  # a collection while the package's own imports run
            "    package = sys.modules.get('smithy2cfn')\n"
            "    if phase == 'start' and 'smithy2cfn.api' in sys.modules and not hasattr(package, '__version__'):\n"
            "        during.append(info['generation'])\n"
            "gc.callbacks.append(watch)\n"
            f"{'gc.enable()' if enabled else 'gc.disable()'}\n"
            "import smithy2cfn, smithy2cfn.cli\n"
            "print(gc.isenabled(), len(during), gc.get_freeze_count())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == [str(enabled), "0", "0"]
