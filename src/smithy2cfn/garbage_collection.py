"""CPython's cyclic garbage collector, kept off the stages that allocate much and make few
cycles (issue 10: cost that grows with the model, not faster).

Loading, validating and converting allocate millions of small objects next to a model that
lives through the whole build, and make almost no reference cycles; each automatic
collection walks every object still alive, whose number grows with the model. Reference
counting still frees everything. Two ways, each restoring the collector's state afterwards:

* :func:`paused`: no automatic collection at all (loading: about 40% of the time of loading a
  1.4 MB IDL model; converting);
* :func:`frozen`: the objects alive now (the loaded model) leave the collector's reach, and no
  automatic collection runs until the block ends (validating, where the validators' own
  long-lived indexes are many: on the 10 largest AWS models, 1.8 s of 4.4 s CPU went to
  collections); what the block made and is still alive then goes straight to the oldest
  generation, unwalked.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused(promote: bool = False) -> Iterator[None]:
    """No automatic collection inside the block (a context manager, or a decorator:
    ``@paused()``); the collector is enabled again after it only if it was before.

    With ``promote``, the objects alive at the end of the block go straight to the oldest
    generation (``gc.freeze()`` then ``gc.unfreeze()``: two list moves, no walk), where a
    :func:`frozen` block would put them anyway (loading, then validating), instead of the
    young one: there, the first allocation after the block would collect the young
    generation, a walk over every object the block made (s3 as IDL: ~25 ms). Not done
    when the process froze objects (it would thaw them); cycles made in the block are
    left to the next full collection (:func:`frozen` counts these objects for it).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if promote and not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()


#: A :func:`frozen` block after the first of a process collects everything when the objects
#: the collector tracks have grown by more than 1/THAWED_GROWTH since they were last counted
#: after such a collection (CPython's own rule for its oldest generation: a quarter).
THAWED_GROWTH = 4

#: A :func:`frozen` block has ended in this process (see :func:`frozen`).
_thawed = False
#: The objects the collector tracked at the last baseline (0: none taken yet).
_tracked = 0


@contextlib.contextmanager
def frozen() -> Iterator[None]:
    """Inside the block, every object alive when it starts is out of the collector's reach
    (``gc.freeze()``, until ``gc.unfreeze()`` after it; such objects still die by reference
    counting) and no automatic collection runs; the objects made in the block and alive at
    its end go to the oldest generation with the frozen ones, unwalked (``gc.freeze()`` again
    just before ``gc.unfreeze()``). The collector is enabled again after it only if it was
    before. Nothing is frozen or moved when the process already froze objects of its own
    (its freeze is left as it is; the block only pauses collections). ``gc.freeze`` is
    process-wide: threads working at the same time only lose speed.

    Why no collection at all: the indexes validators build (a relationship tuple per
    edge...) are long-lived, and each young collection walks what was made since the last
    one (5.6 MB flat model: 1.24 s with CPython's default of one every 700 allocations,
    0.75 s with one every 10,000, 0.63 s with none); validators make almost no cycles (peak
    memory of the 12 largest AWS models and the scaling models unchanged without them).
    And the young survivors moved to the oldest generation are not walked by the first
    collection after the block (SageMaker: a 30 ms collection while the diagnostics were
    sorted, 0.06 s of collections in all before, 4 ms after).

    ``gc.unfreeze`` puts the objects in the oldest generation without counting them, so
    CPython's rule for collecting that generation no longer sees them: in a process that
    validates model after model (a server, a fuzzer) whatever cycles the earlier models left
    (a model and its indexes no longer make one: an index holds its model weakly,
    ``model.shapes._view``) would pile up without end. So a later block counts the objects
    it freezes (a walk of the frozen list; a one-shot ``smithy2cfn`` run never pays it) and,
    when they have grown by more than 1/:data:`THAWED_GROWTH` since the count after the last
    such collection, first collects everything. As with CPython's own rule, the cost of these
    full collections is a fixed fraction of the work that made the objects (collecting before
    every validation made each one cost up to a second in a process with a large heap, a test
    runner), and the dead objects held are at most that fraction of the live ones.
    Deterministic: the rule counts objects, not time."""
    global _thawed, _tracked
    enabled = gc.isenabled()
    freeze = not gc.get_freeze_count()
    if freeze:
        gc.freeze()
        if _thawed:
            tracked = gc.get_freeze_count()
            if not _tracked:
                _tracked = tracked
            elif tracked * THAWED_GROWTH > _tracked * (THAWED_GROWTH + 1):
                gc.unfreeze()
                gc.collect()
                gc.freeze()
                _tracked = gc.get_freeze_count()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()  # (what the block made joins the frozen objects: both go to the oldest generation)
            gc.unfreeze()
            _thawed = True
        if enabled:
            gc.enable()


__all__ = ["THAWED_GROWTH", "frozen", "paused"]
