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


#: A :func:`frozen` block has ended since the last full collection (see :func:`frozen`).
_thawed = False


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
    objects for a small model, without end. So the second and later blocks of a process
    first collect everything (one full collection per validation; a one-shot ``smithy2cfn``
    run never pays it), and memory holds at most one dead model."""
    global _thawed
    threshold = gc.get_threshold()
    freeze = not gc.get_freeze_count()
    if freeze:
        if _thawed:
            gc.collect()
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


__all__ = ["YOUNG_THRESHOLD", "frozen", "paused"]
