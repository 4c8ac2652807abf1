"""CPython's cyclic garbage collector, kept off the stages that allocate much and make few
cycles (issue 10: cost that grows with the model, not faster).

Loading, validating and converting allocate millions of small objects next to a model that
lives through the whole build, and make almost no reference cycles; each automatic
collection walks every object still alive, whose number grows with the model. Reference
counting still frees everything. Two ways, each restoring the collector's state afterwards:

* :func:`paused`: no automatic collection at all (loading: about 40% of the time of loading a
  1.4 MB IDL model; converting);
* :func:`frozen`: the objects alive now (the loaded model) leave the collector's reach and the
  young generation is collected less often (validating, where the validators' own long-lived
  indexes are many: on the 10 largest AWS models, 1.8 s of 4.4 s CPU went to collections).
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Iterator

#: Allocations between two young-generation collections inside :func:`frozen` (CPython's
#: default is 700): the indexes validators build (a relationship tuple per edge...) are
#: long-lived, and collecting them every 700 allocations doubled the cost of building them
#: (5.6 MB flat model: 1.24 s with the default, 0.75 s with 10 000, 0.63 s with none).
YOUNG_THRESHOLD = 10_000


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """No automatic collection inside the block (a context manager, or a decorator:
    ``@paused()``); the collector is enabled again after it only if it was before."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


#: A :func:`frozen` block collects the objects thawed by earlier blocks only when at least
#: this many times the last such collection's duration has passed since it ended: at most
#: about 1/(1 + RATIO) of a process's time goes to these collections (see :func:`frozen`).
THAWED_COLLECTION_RATIO = 10

#: A :func:`frozen` block has ended since the last full collection (see :func:`frozen`).
_thawed = False
#: How long the last full collection of :func:`frozen` took, and when it ended
#: (``time.perf_counter`` seconds).
_last_collection = (0.0, 0.0)


@contextlib.contextmanager
def frozen() -> Iterator[None]:
    """Inside the block, every object alive when it starts is out of the collector's reach
    (``gc.freeze()``, until ``gc.unfreeze()`` after it; such objects still die by reference
    counting), and the young generation is collected every :data:`YOUNG_THRESHOLD`
    allocations; the thresholds are restored after it. Nothing is frozen when the process
    already froze objects of its own (its freeze is left as it is). ``gc.freeze`` is
    process-wide: threads working at the same time only lose speed.

    ``gc.unfreeze`` puts the objects in the oldest generation without counting them, which
    CPython then collects only when survivors of younger collections add a quarter to it:
    in a process that validates model after model (a server, a fuzzer) the cycles of every
    earlier model (a model and its indexes refer to each other) would pile up, 1,500
    objects for a small model, without end. So a later block of a process first collects
    everything (a one-shot ``smithy2cfn`` run never pays it), amortized: only when
    :data:`THAWED_COLLECTION_RATIO` times the last such collection's duration has passed
    since it ended. A full collection walks every object of the process: in a process with
    a large heap (a test runner, a server with caches) collecting before every validation
    made each one cost a second; amortized, that process spends at most about a tenth of its
    time on them, and a small process (a fuzzer) still collects before nearly every block.
    Memory holds the dead models of at most that window."""
    global _thawed, _last_collection
    threshold = gc.get_threshold()
    freeze = not gc.get_freeze_count()
    if freeze:
        if _thawed:
            took, ended = _last_collection
            now = time.perf_counter()
            if now - ended >= THAWED_COLLECTION_RATIO * took:
                gc.collect()
                _last_collection = (time.perf_counter() - now, time.perf_counter())
                _thawed = False
        gc.freeze()
    gc.set_threshold(max(threshold[0], YOUNG_THRESHOLD), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        if freeze:
            gc.unfreeze()
            _thawed = True


__all__ = ["THAWED_COLLECTION_RATIO", "YOUNG_THRESHOLD", "frozen", "paused"]
