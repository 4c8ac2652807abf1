"""The ``smithy2cfn`` program's heap on transparent huge pages (Linux with the GNU C
library), so that building a large model does not spend a tenth of its time in page faults
(issue 15: the cold start).

A build allocates most of its memory once and keeps it to the end (SageMaker's JSON AST:
47 MB resident, 11,400 page faults of 4 KiB each, 30 ms of kernel time in a 280 ms build).
The first touch of each 4 KiB page traps into the kernel, which zeroes it; a 2 MiB huge
page costs one trap for 512 of them, and fewer entries in the processor's address
translation cache. Linux hands huge pages to a program only where it asks for them
(``/sys/kernel/mm/transparent_hugepage/enabled`` is ``madvise`` on most distributions):
``madvise(MADV_HUGEPAGE)`` over a range of its address space. Python's allocators give no
say in where their memory comes from, so :func:`use_huge_pages` arranges three things,
through :mod:`ctypes` and the C library the interpreter already runs on (no library is
loaded):

* the C library's ``malloc`` (Python's objects larger than 512 bytes, the texts read, list
  and dict tables) grows its heap by a large step at once (``mallopt``: ``M_TOP_PAD``
  :data:`RESERVE`; blocks up to 32 MiB from the heap, not ``mmap``; the heap is never
  trimmed), grown now, and that range advised as huge pages. Address space only: a page
  is backed by memory when first touched, as before, 2 MiB at a time;
* Python's small-object allocator takes its arenas (1 MiB each, where every object of 512
  bytes or less lives) from that heap (``PyObject_SetArenaAllocator``, with
  ``aligned_alloc``) instead of an ``mmap`` of its own each;
* an arena is never given back: an arena is returned only when every object in it has
  died, which a build's arenas do not (0 of 29 in SageMaker's build; the process ends soon
  after), and the C library has no function taking the allocator's context and a pointer
  that frees it. The ``free`` of the allocator is ``getpagesize``, which ignores its
  arguments; the arenas made before the call are kept the same way.

Measured (README "Performance", medians of 15 runs alternating with
``SMITHY2CFN_HUGE_PAGES=0``): a sequential SageMaker build 273 → 256 ms (11,400 page faults
→ 2,650), with the helper process 257 → 245; the small model 61 ms either way (importing
:mod:`ctypes` costs 2 ms of it). Peak memory grows by at most a huge page or two.

Only the program does this (:func:`smithy2cfn.cli.run`), never a library call: the
allocator of a process belongs to its program. Nothing is done (and the process keeps the
C library's defaults) off Linux, with another C library, when the kernel gives no huge
pages (``never``) or holds too few free ones to give without first compacting memory
(:func:`wanted`), when the process's data or address-space size is limited (a larger
heap step could meet the limit sooner), under an interpreter other than CPython or one
without the global interpreter lock (whose allocator is not Python's own), or when the
environment variable :data:`VARIABLE` is ``0``. A failing call leaves the defaults
where it failed (each step is checked before the next); nothing here raises.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

#: The environment variable that turns this off (``SMITHY2CFN_HUGE_PAGES=0``).
VARIABLE = "SMITHY2CFN_HUGE_PAGES"

#: Bytes the C library's heap grows by at once (address space, backed when touched).
RESERVE = 256 << 20

#: Free huge-page-sized blocks the kernel must hold for :func:`wanted` (128 MiB of 2 MiB ones).
MIN_FREE_HUGE_PAGES = 64

#: The alignment of the arenas given to Python's small-object allocator: its pool size (16
#: KiB in 64-bit CPython 3.11 and later, 4 KiB before), so that no pool of an arena is lost
#: to alignment (its own ``mmap`` arenas lose one pool in 16 of them: SageMaker 475 KB).
ARENA_ALIGNMENT = 16 << 10

# mallopt(3) parameters and madvise(2) advice, as <malloc.h> and <sys/mman.h> define them.
_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3
_MMAP_THRESHOLD_MAX = 32 << 20  # (the largest M_MMAP_THRESHOLD glibc takes on 64-bit machines)
_MADV_HUGEPAGE = 14

_THP_SETTING = "/sys/kernel/mm/transparent_hugepage/enabled"
_THP_SIZE = "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
_THP_SIZE_SETTING = "/sys/kernel/mm/transparent_hugepage/hugepages-{}kB/enabled"
_BUDDY_INFO = "/proc/buddyinfo"

#: Whether :func:`use_huge_pages` has run in this process (it acts once).
_done = False
#: The arena allocator given to Python (kept alive: Python holds only its address).
_allocator: object = None


def wanted(environ: Mapping[str, str] = os.environ) -> int:
    """The size of a huge page in bytes when this process should put its heap on huge pages
    (see the module docstring for each condition), else 0; ``environ`` is read for
    :data:`VARIABLE`. Never raises.

    The kernel must also hold at least :data:`MIN_FREE_HUGE_PAGES` free blocks of that size
    now (``/proc/buddyinfo``): a fault in an advised range on a machine whose free memory is
    in pieces would wait for the kernel to compact it (``defrag``), slower than the small
    pages it saves."""
    if environ.get(VARIABLE, "").strip() == "0":
        return 0
    if not sys.platform.startswith("linux") or sys.implementation.name != "cpython":
        return 0
    if not getattr(sys, "_is_gil_enabled", lambda: True)():
        return 0
    try:
        if not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"):
            return 0
        with open(_THP_SIZE, "rb") as f:  # (read as bytes: no text decoder to import before the fork)
            size = int(f.read(40))
        try:  # (the setting of this size of page, Linux 6.8 and later: "inherit" is the one above)
            with open(_THP_SIZE_SETTING.format(size >> 10), "rb") as f:
                setting = f.read(200)
        except FileNotFoundError:
            setting = b"[inherit]"
        if b"[inherit]" in setting:
            with open(_THP_SETTING, "rb") as f:
                setting = f.read(200)
        if b"[always]" not in setting and b"[madvise]" not in setting:
            return 0
        page = os.sysconf("SC_PAGE_SIZE")
        if size <= page or size & (size - 1) or size > RESERVE // 8:
            return 0
        order = size.bit_length() - page.bit_length()
        free = 0
        with open(_BUDDY_INFO, "rb") as f:
            for line in f.read(8192).splitlines():
                counts = line.split()[4:]  # ("Node 0, zone Normal" then the free blocks of order 0, 1...)
                free += sum(int(n) << (o - order) for o, n in enumerate(counts) if o >= order)
        if free < MIN_FREE_HUGE_PAGES:
            return 0
        import resource

        for limit in (resource.RLIMIT_AS, resource.RLIMIT_DATA):
            if resource.getrlimit(limit)[0] != resource.RLIM_INFINITY:
                return 0
    except (OSError, ValueError):
        return 0
    return size


def use_huge_pages(environ: Mapping[str, str] = os.environ) -> bool:
    """Put the rest of this process's heap on transparent huge pages, when :func:`wanted`
    says so; once per process (later calls return the first call's answer).

    Returns:
        Whether Python's arenas now come from the advised heap (``False``: nothing changed,
        or only the C library's settings, when a later step failed).

    Never raises. Only for a process that is a program (:func:`smithy2cfn.cli.run`): a
    library must not change its caller's allocator."""
    global _done, _allocator
    if _done:
        return _allocator is not None
    _done = True
    huge_page = wanted(environ)
    if not huge_page:
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        libc.sbrk.restype = ctypes.c_void_p
        libc.sbrk.argtypes = [ctypes.c_ssize_t]
        libc.malloc.restype = ctypes.c_void_p
        libc.malloc.argtypes = [ctypes.c_size_t]
        libc.free.argtypes = [ctypes.c_void_p]
        libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        for option, value in ((_M_MMAP_THRESHOLD, _MMAP_THRESHOLD_MAX), (_M_TRIM_THRESHOLD, 2 * RESERVE),
                              (_M_TOP_PAD, RESERVE)):
            if libc.mallopt(option, value) != 1:
                return False
        start = libc.sbrk(0)
        block = libc.malloc(1 << 20)  # (more than the heap's free top holds: the heap grows by RESERVE now)
        if not block:
            return False
        libc.free(block)
        end = libc.sbrk(0)
        if not start or not end or end - start < RESERVE:
            return False  # (the heap did not grow in place: the C library fell back to mmap)
        low = (start + huge_page - 1) & ~(huge_page - 1)
        high = end & ~(huge_page - 1)
        if libc.madvise(low, high - low, _MADV_HUGEPAGE) != 0:
            return False

        class _ArenaAllocator(ctypes.Structure):  # PyObjectArenaAllocator, <cpython/objimpl.h>
            _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]

        allocator = _ArenaAllocator(ARENA_ALIGNMENT, ctypes.cast(libc.aligned_alloc, ctypes.c_void_p).value,
                                    ctypes.cast(libc.getpagesize, ctypes.c_void_p).value)
        ctypes.pythonapi.PyObject_SetArenaAllocator.restype = None
        ctypes.pythonapi.PyObject_SetArenaAllocator(ctypes.byref(allocator))
        _allocator = allocator
        return True
    except (OSError, AttributeError, ValueError, TypeError):
        return False


__all__ = ["ARENA_ALIGNMENT", "MIN_FREE_HUGE_PAGES", "RESERVE", "VARIABLE", "use_huge_pages", "wanted"]
