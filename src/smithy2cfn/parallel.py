"""Independent pieces of work shared with one forked helper process, on a machine with a
second CPU (issue 15, "Cold start": the whole process's wall time on large models).

Only the ``smithy2cfn`` program asks for it (:func:`allow`, called by
:func:`smithy2cfn.cli.run`): a library caller's process is never forked behind its back (its
threads, its open files and its signal handlers are its own business). Even then
:func:`available` says no on a platform without ``os.fork`` or other than Linux (macOS's
system libraries are not safe to use after a fork), with fewer than two CPUs this process
may run on or none to spare (as many tasks ready to run as CPUs at two looks a millisecond
apart: the helper would only wait for a CPU), when another Python thread is running (a lock
it holds would stay locked in the child), when a helper of :func:`start_helper` is running
(one helper at a time; a helper never forks), or when the environment variable
``SMITHY2CFN_JOBS`` is ``1``.

:func:`run_shared` forks once (or uses a helper that :func:`start_helper` forked earlier,
which made its own pieces of the same work meanwhile). Both processes take the indexes of
the pieces from one pipe, the queue, so whichever is free takes the next one (an expensive
piece does not hold the other back); the helper sends each result back through a second
pipe, pickled, as soon as it is made (this process reads them between its own pieces), and
leaves with ``os._exit`` (no ``atexit`` handler, no flush of standard streams it shares with
its parent). The results come back in the order of the pieces whichever process made them,
so the output does not depend on the timing. Whatever the helper did not send back (it was
killed, a result could not be pickled, it made other pieces) is computed again in this
process: the results are always complete. Nothing but our own process's data is ever
unpickled. A helper of :func:`start_helper` may also :func:`tell` this process a value it
computes anyway while it makes its pieces (the trait packages of the model both load), which
this process reads without waiting (:meth:`Helper.told`) instead of computing it again.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

# pickle and struct are imported by the functions that use them: a small build,
# which never shares its work, does not pay for their import (issue 15, "Cold start").

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn, TypeVar

    T = TypeVar("T")
    R = TypeVar("R")

#: Set by :func:`allow`: the process is the ``smithy2cfn`` program.
_allowed = False
#: The environment variable that turns forking off (``SMITHY2CFN_JOBS=1``).
JOBS_VARIABLE = "SMITHY2CFN_JOBS"
#: The bytes of one index in the queue (little-endian, unsigned).
_INDEX_SIZE = 4
#: The most pieces shared: their indexes are written to the queue before the fork, and must
#: fit in a pipe's buffer (64 KiB on Linux) with room to spare.
MAX_PIECES = 8192


def allow(flag: bool = True) -> None:
    """Let :func:`run_shared` fork in this process (the command line's entry point calls it)."""
    global _allowed
    _allowed = flag


def available() -> bool:
    """Whether :func:`run_shared` would use a helper process now (see the module's docstring)."""
    if not _allowed or _running is not None or not hasattr(os, "fork") or not sys.platform.startswith("linux"):
        return False
    if os.environ.get(JOBS_VARIABLE, "").strip() == "1":
        return False
    # (a process that never imported threading has started no thread it would count: the
    # import, some 0.5 ms before the fork, is left to a process that has)
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() != 1:
        return False
    return _spare_cpu()


#: Where Linux tells the load: its fourth field is "tasks ready to run/all tasks".
_LOADAVG = "/proc/loadavg"


#: Seconds :func:`_spare_cpu` waits before it looks a second time.
_SECOND_LOOK = 0.001


def _spare_cpu() -> bool:
    """Two CPUs or more for this process, and one of them free now: fewer tasks ready to
    run (this one included) than CPUs, as Linux counts them in ``/proc/loadavg`` at this
    moment, at the first look or at a second one :data:`_SECOND_LOOK` later (the average
    of the last minute, where that file cannot be read: it lags behind a machine that has
    just become busy or idle). A task that runs for a moment (a kernel thread) is not a
    busy CPU: one in four of SageMaker's builds, on an idle machine, saw a second task
    ready at the first look and none later."""
    try:
        cpus = len(os.sched_getaffinity(0))
        if cpus < 2:
            return False
        try:
            if _ready_tasks() < cpus:
                return True
            import time

            time.sleep(_SECOND_LOOK)
            return _ready_tasks() < cpus
        except (OSError, ValueError, IndexError):
            return os.getloadavg()[0] < cpus
    except OSError:
        return False


def _ready_tasks() -> int:
    """The tasks ready to run now, as ``/proc/loadavg`` counts them (its fourth field,
    "ready/all"). Raises ``OSError``, ``ValueError`` or ``IndexError`` where it cannot be read."""
    with open(_LOADAVG, "rb") as f:
        return int(f.read().split()[3].partition(b"/")[0])


def run_shared(pieces: Sequence[T], work: Callable[[T], R], meanwhile: Callable[[], object] | None = None,
               *, helper: Helper | None = None, keys: Sequence[str] | None = None) -> list[R]:
    """``[work(p) for p in pieces]``, shared with a forked helper process when
    :func:`available` (else computed here, in order).

    Args:
        pieces: the pieces of work (more than :data:`MAX_PIECES` are all computed here).
        work: a function of one piece that does not change what the other pieces read
            (each process sees the data as it was at the fork) and returns a picklable value.
        meanwhile: work of this process's own that it does first, while the helper starts
            on the pieces (when there is a helper: else it is not called), such as imports
            a later stage needs. What it raises is ignored: the later stage does it again.

        helper: a helper of :func:`start_helper` not used yet: it takes pieces instead
            of a helper forked now (whatever :func:`available` says).
        keys: with ``helper``, the keys of ``pieces`` (see :func:`start_helper`): the
            helper's results are kept only when it made pieces of the same keys.

    Returns:
        The results, in the order of ``pieces``. An exception raised by ``work`` in this
        process propagates; one raised in the helper makes that piece computed again here
        (where it raises again, or not).
    """
    if helper is not None and helper.waiting():
        return helper.share(pieces, work, keys, meanwhile)
    forked = _fork(lambda queue_r, back_w: _serve(queue_r, back_w, lambda i: work(pieces[i])), len(pieces)) \
        if 2 <= len(pieces) <= MAX_PIECES and available() else None
    if forked is None:
        return [work(p) for p in pieces]
    pid, queue_r, _, back_r = forked
    return _share(pieces, work, meanwhile, pid, queue_r, back_r, None)


def _fork(serve: Callable[[int, int], None], count: int | None = None) -> tuple[int, int, int, int] | None:
    """Make the queue and the pipe back, fork, and in the helper call ``serve(queue_r,
    back_w)`` then leave with ``os._exit``. With ``count``, the indexes ``0..count-1`` are
    in the queue (closed) before the fork: a read of 4 bytes from a pipe takes 4 bytes at
    once, so the two processes never share or split an index. Returns ``(pid, queue_r,
    queue_w, back_r)`` here (``queue_w`` closed when ``count`` was given), or ``None`` when
    the pipes or the fork could not be made (every descriptor closed: the work is then done
    in this process)."""
    try:
        queue_r, queue_w = os.pipe()
    except OSError:  # (no descriptor left: EMFILE, ENFILE)
        return None
    try:
        back_r, back_w = os.pipe()
    except OSError:
        os.close(queue_r)
        os.close(queue_w)
        return None
    _widen(back_w)
    if count is not None:
        _put_indexes(queue_w, count)
    try:
        pid = os.fork()
    except OSError:
        for fd in (queue_r, back_r, back_w) if count is not None else (queue_r, queue_w, back_r, back_w):
            os.close(fd)
        return None
    if pid == 0:  # the helper
        try:
            os.close(back_r)
            if count is None:
                os.close(queue_w)
            serve(queue_r, back_w)
        finally:
            os._exit(0)
    os.close(back_w)
    return pid, queue_r, queue_w, back_r


def _put_indexes(queue_w: int, count: int) -> None:
    """Write the indexes ``0..count-1`` to the queue and close it (they fit in a pipe's
    buffer: :data:`MAX_PIECES`)."""
    try:
        os.write(queue_w, b"".join(i.to_bytes(_INDEX_SIZE, "little") for i in range(count)))
    finally:
        os.close(queue_w)


def _send(back_w: int, i: int, result: object) -> None:
    """Send message ``i`` (``result``, pickled) on the pipe back; nothing when it cannot be
    pickled (the parent then computes that piece itself, or goes without the value told)."""
    import pickle

    try:
        data = pickle.dumps((i, result), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - the parent computes what is not sent
        return
    view = memoryview(len(data).to_bytes(_LENGTH_SIZE, "little") + data)
    while view:
        view = view[os.write(back_w, view):]


def _serve(queue_r: int, back_w: int, compute: Callable[[int], object], header: object = None) -> NoReturn:
    """The helper's side: send ``header`` first when given (message index ``-1``), then
    take indexes from the queue until it is empty and send each ``compute(index)`` back;
    then close the pipe back (the other side has read everything at its end) and leave the
    process at once (``os._exit``), from inside the frames that hold what the pieces read:
    returning first would free the helper's model object by object (an early helper's
    SageMaker model: 18 ms, that the other side waited for)."""
    if header is not None:
        _send(back_w, _HEADER, header)
    while len(raw := os.read(queue_r, _INDEX_SIZE)) == _INDEX_SIZE:
        i = int.from_bytes(raw, "little")
        _send(back_w, i, compute(i))  # (each result sent when made: its pickling overlaps the work left)
    os.close(back_w)
    os._exit(0)


def _share(pieces: Sequence[T], work: Callable[[T], R], meanwhile: Callable[[], object] | None, pid: int,
           queue_r: int, back_r: int, keys: list[str] | None, received: _Received | None = None) -> list[R]:
    """This process's side of :func:`run_shared` once the helper ``pid`` serves the queue:
    take pieces until the queue is empty, read the helper's results (kept only when its
    header is ``keys``, with ``keys`` given: a helper of :func:`start_helper` made its own
    pieces), compute what did not come back, and reap the helper. A helper of
    :func:`start_helper` that has not sent its header when the queue is empty is still
    making its pieces and has taken none: it is killed rather than waited for (it may be
    slow, on a machine whose second CPU has become busy). ``received``: the reader of
    ``back_r`` that a helper of :func:`start_helper` has read from already (:meth:`Helper.told`)."""
    results: dict[int, R] = {}
    if received is None:
        received = _Received(back_r, {})
    sent: dict[int, Any] = received.results
    try:
        if meanwhile is not None:
            try:
                meanwhile()
            except Exception:  # noqa: BLE001 - advisory work: the stage that needs it does it again
                pass
        while len(raw := os.read(queue_r, _INDEX_SIZE)) == _INDEX_SIZE:
            i = int.from_bytes(raw, "little")
            results[i] = work(pieces[i])
            received.take(wait=False)  # (what the helper has sent so far, read between pieces)
    finally:
        os.close(queue_r)
        if keys is not None:
            received.take(wait=False)
            if _HEADER not in sent:
                _kill(pid)
        received.take(wait=True)
        os.close(back_r)
        os.waitpid(pid, 0)
    sent.pop(_TOLD, None)
    if keys is None or sent.pop(_HEADER, None) == keys:
        results.update(sent)
    return [results[i] if i in results else work(p) for i, p in enumerate(pieces)]


#: The helper of :func:`start_helper` now running in this process, if any.
_running: Helper | None = None


class Helper:
    """A helper process forked by :func:`start_helper` before the work it shares is known:
    it makes its own pieces of that work (from the same input, in its own memory: no page
    it reads is shared with this process, so neither pays to copy pages the other
    touches), then serves :func:`run_shared`'s queue. Give it to :func:`run_shared` once
    (``helper=``), or :meth:`close` it: a helper not used is killed. Either way it is
    reaped; :func:`available` says no while it runs."""

    def __init__(self, pid: int, queue_r: int, queue_w: int, back_r: int) -> None:
        self.pid = pid
        self._fds: tuple[int, int, int] | None = (queue_r, queue_w, back_r)
        #: what the helper has sent so far (a value it told, :meth:`told`), read when asked
        self._received = _Received(back_r, {})

    def told(self) -> object:
        """The value the helper sent with :func:`tell` while it prepared its pieces, if it has
        arrived (``None`` when not yet, or never: the helper failed or is slow; the caller then
        computes it). Reads what has arrived, without waiting. Raises nothing."""
        if self._fds is None:
            return None
        self._received.take(wait=False)
        return self._received.results.get(_TOLD)

    def waiting(self) -> bool:
        """Whether the helper was neither used nor closed yet."""
        return self._fds is not None

    def share(self, pieces: Sequence[T], work: Callable[[T], R], keys: Sequence[str] | None,
              meanwhile: Callable[[], object] | None) -> list[R]:
        """:func:`run_shared` with this helper, which has not been used (see there); its
        results are kept only when it made the same pieces (its header, the keys of its
        pieces, is ``keys``)."""
        if len(pieces) > MAX_PIECES:
            self.close()
            return [work(p) for p in pieces]
        queue_r, queue_w, back_r = self._release()
        _put_indexes(queue_w, len(pieces))
        return _share(pieces, work, meanwhile, self.pid, queue_r, back_r, list(keys or ()), self._received)

    def close(self) -> None:
        """Kill the helper when it was not used (it may still be making its pieces) and
        reap it; nothing when it was used (:func:`run_shared` reaped it)."""
        if self._fds is None:
            return
        _kill(self.pid)
        for fd in self._release():
            os.close(fd)
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass

    def _release(self) -> tuple[int, int, int]:
        """This helper's descriptors, taken from it once: it is no longer waiting, and
        :func:`available` may say yes again."""
        global _running
        fds = self._fds
        assert fds is not None, "a helper is used or closed once"
        self._fds = None
        if _running is self:
            _running = None
        return fds


#: SIGKILL (signal 9 on Linux, the only platform a helper runs on).
_SIGKILL = 9


def _kill(pid: int) -> None:
    """Kill our helper ``pid`` (not reaped yet: the ID is still its own)."""
    try:
        os.kill(pid, _SIGKILL)
    except OSError:
        pass


def start_helper(prepare: Callable[[], tuple[Sequence[str], Callable[[int], object]] | None]) -> Helper | None:
    """Fork a helper now, when :func:`available`, for work whose pieces are not known yet.

    Args:
        prepare: called in the helper only: returns the keys of the pieces (strings naming
            each, in order: the header :func:`run_shared` compares with its own ``keys``)
            and a function computing piece ``i`` (a picklable value), or ``None`` when it
            has nothing to share (then the helper takes no piece). It must not write to
            standard output or error; what it raises ends the helper, whose pieces are
            then computed by this process.

    Returns:
        The :class:`Helper`, or ``None`` (nothing forked: not :func:`available`, or the
        pipes or the fork could not be made). In the helper, nothing returns: it leaves
        with ``os._exit``. Raises nothing.
    """
    global _running

    def serve(queue_r: int, back_w: int) -> None:
        global _back
        allow(False)  # (a helper never forks one of its own)
        _back = back_w  # (for tell, while prepare runs)
        try:
            made = prepare()
        finally:
            _back = None
        if made is not None:
            keys, compute = made
            _serve(queue_r, back_w, compute, list(keys))

    forked = _fork(serve) if available() else None
    if forked is None:
        return None
    _running = Helper(*forked)
    return _running


#: The bytes of a result's length in the helper's messages (little-endian, unsigned).
_LENGTH_SIZE = 8
#: The message index of a helper's header (the keys of its pieces), and of the value it told
#: (:func:`tell`); pieces are numbered from 0.
_HEADER, _TOLD = -1, -2
#: In a helper of :func:`start_helper` while its ``prepare`` runs: the pipe back (:func:`tell`).
_back: int | None = None


def tell(value: object) -> None:
    """Send ``value`` (picklable) to the parent now, when called by the ``prepare`` of a helper
    of :func:`start_helper`: the parent reads it with :meth:`Helper.told` without waiting
    for the helper's pieces, to use what the helper computes anyway instead of computing it
    again (the trait packages a model loads: :func:`smithy2cfn.validation.start_helper`).
    Told twice, the parent reads the last value it has received; called anywhere but in a
    helper's ``prepare``, it does nothing. Raises nothing."""
    if _back is not None:
        _send(_back, _TOLD, value)


#: The capacity asked for the helper's pipe (Linux's ``F_SETPIPE_SZ``; an unprivileged
#: process may ask up to ``/proc/sys/fs/pipe-max-size``, 1 MiB by default): the helper
#: blocks only when this much is sent and not read yet.
_PIPE_BYTES = 1 << 20


def _widen(fd: int) -> None:
    """Ask for a pipe of :data:`_PIPE_BYTES` (nothing changes where it cannot be had)."""
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), _PIPE_BYTES)
    except (OSError, ImportError):
        pass


class _Received:
    """The helper's messages (a result's length, then its pickle ``(index, result)``) read
    from ``fd`` into ``results``: those complete so far (``take(wait=False)``), or all of
    them up to the end of the pipe (``take(wait=True)``). A message cut short (the helper
    died) or that does not unpickle is left out: its piece is computed here."""

    def __init__(self, fd: int, results: dict[int, Any]) -> None:
        self.fd = fd
        self.results = results
        self.buffer = bytearray()
        self.open = True
        os.set_blocking(fd, False)

    def take(self, wait: bool) -> None:
        if not self.open:
            return
        if wait:
            os.set_blocking(self.fd, True)
        while True:
            try:
                chunk = os.read(self.fd, _PIPE_BYTES)
            except BlockingIOError:
                break
            if not chunk:
                self.open = False
                break
            self.buffer += chunk
        self._unpack()

    def _unpack(self) -> None:
        import pickle

        buffer, at = self.buffer, 0
        while len(buffer) - at >= _LENGTH_SIZE:
            size = int.from_bytes(buffer[at:at + _LENGTH_SIZE], "little")
            if len(buffer) - at - _LENGTH_SIZE < size:
                break
            data = bytes(buffer[at + _LENGTH_SIZE:at + _LENGTH_SIZE + size])
            at += _LENGTH_SIZE + size
            try:
                i, result = pickle.loads(data)  # (our helper's bytes, from its own pipe)
            except Exception:  # noqa: BLE001 - a result that does not come back is computed here
                continue
            self.results[i] = result
        del buffer[:at]


__all__ = ["JOBS_VARIABLE", "MAX_PIECES", "Helper", "allow", "available", "run_shared", "start_helper", "tell"]
