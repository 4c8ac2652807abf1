"""Independent pieces of work shared with one forked helper process, on a machine with a
second CPU (issue 15, "Cold start": the whole process's wall time on large models).

Only the ``smithy2cfn`` program asks for it (:func:`allow`, called by
:func:`smithy2cfn.cli.run`): a library caller's process is never forked behind its back (its
threads, its open files and its signal handlers are its own business). Even then
:func:`available` says no on a platform without ``os.fork`` or other than Linux (macOS's
system libraries are not safe to use after a fork), with fewer than two CPUs this process
may run on or none to spare (as many tasks ready to run as CPUs: the helper would only wait
for a CPU), when another Python thread is running (a lock it holds would stay locked in the
child), or when the environment variable ``SMITHY2CFN_JOBS`` is ``1``.

:func:`run_shared` forks once. Both processes take the indexes of the pieces from one pipe,
the queue, so whichever is free takes the next one (an expensive piece does not hold the
other back); the helper sends each result back through a second pipe, pickled, as soon as it
is made (this process reads them between its own pieces), and leaves with ``os._exit`` (no
``atexit`` handler, no flush of standard streams it shares with its parent). The results
come back in the order of the pieces whichever process made them, so the output does not
depend on the timing. Whatever the helper did not send back (it was killed, a result could
not be pickled) is computed again in this process: the results are always complete. Nothing
but our own process's data is ever unpickled.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

# pickle, struct and threading are imported by the functions that use them: a small build,
# which never shares its work, does not pay for their import (issue 15, "Cold start").

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

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
    if not _allowed or not hasattr(os, "fork") or not sys.platform.startswith("linux"):
        return False
    if os.environ.get(JOBS_VARIABLE, "").strip() == "1":
        return False
    import threading

    if threading.active_count() != 1:
        return False
    return _spare_cpu()


#: Where Linux tells the load: its fourth field is "tasks ready to run/all tasks".
_LOADAVG = "/proc/loadavg"


def _spare_cpu() -> bool:
    """Two CPUs or more for this process, and one of them free now: fewer tasks ready to
    run (this one included) than CPUs, as Linux counts them in ``/proc/loadavg`` at this
    moment (the average of the last minute, where that file cannot be read: it lags
    behind a machine that has just become busy or idle)."""
    try:
        cpus = len(os.sched_getaffinity(0))
        if cpus < 2:
            return False
        try:
            with open(_LOADAVG, encoding="ascii") as f:
                return int(f.read().split()[3].partition("/")[0]) < cpus
        except (OSError, ValueError, IndexError):
            return os.getloadavg()[0] < cpus
    except OSError:
        return False


def run_shared(pieces: Sequence[T], work: Callable[[T], R], meanwhile: Callable[[], object] | None = None
               ) -> list[R]:
    """``[work(p) for p in pieces]``, shared with a forked helper process when
    :func:`available` (else computed here, in order).

    Args:
        pieces: the pieces of work (more than :data:`MAX_PIECES` are all computed here).
        work: a function of one piece that does not change what the other pieces read
            (each process sees the data as it was at the fork) and returns a picklable value.
        meanwhile: work of this process's own that it does first, while the helper starts
            on the pieces (when there is a helper: else it is not called), such as imports
            a later stage needs. What it raises is ignored: the later stage does it again.

    Returns:
        The results, in the order of ``pieces``. An exception raised by ``work`` in this
        process propagates; one raised in the helper makes that piece computed again here
        (where it raises again, or not).
    """
    if not 2 <= len(pieces) <= MAX_PIECES or not available():
        return [work(p) for p in pieces]
    import pickle
    queue_r, queue_w = os.pipe()
    back_r, back_w = os.pipe()
    _widen(back_w)
    # Every index is in the queue before the fork: a read of 4 bytes from a pipe takes 4
    # bytes at once, so the two processes never share or split an index.
    os.write(queue_w, b"".join(i.to_bytes(_INDEX_SIZE, "little") for i in range(len(pieces))))
    os.close(queue_w)
    try:
        pid = os.fork()
    except OSError:
        os.close(queue_r), os.close(back_r), os.close(back_w)
        return [work(p) for p in pieces]
    if pid == 0:  # the helper
        try:
            os.close(back_r)
            while len(raw := os.read(queue_r, _INDEX_SIZE)) == _INDEX_SIZE:
                i = int.from_bytes(raw, "little")
                result = work(pieces[i])
                try:
                    data = pickle.dumps((i, result), protocol=pickle.HIGHEST_PROTOCOL)
                except Exception:  # noqa: BLE001 - the parent computes what is not sent
                    continue
                # Each result is sent when made, so that its pickling overlaps the work left
                view = memoryview(len(data).to_bytes(_LENGTH_SIZE, "little") + data)
                while view:
                    view = view[os.write(back_w, view):]
        finally:
            os._exit(0)
    os.close(back_w)
    results: dict[int, R] = {}
    received = _Received(back_r, results)
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
        received.take(wait=True)
        os.close(back_r)
        os.waitpid(pid, 0)
    return [results[i] if i in results else work(p) for i, p in enumerate(pieces)]


#: The bytes of a result's length in the helper's messages (little-endian, unsigned).
_LENGTH_SIZE = 8
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

    def __init__(self, fd: int, results: dict) -> None:
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


__all__ = ["JOBS_VARIABLE", "MAX_PIECES", "allow", "available", "run_shared"]
