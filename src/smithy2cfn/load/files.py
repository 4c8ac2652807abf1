"""Bounded, non-blocking reads of the files we are given (models, config files).

Only regular files are read: a FIFO, a device (``/dev/zero``), a socket or a folder given as
a file is refused before it is opened (a FIFO would block, ``/dev/zero`` never ends), and
checked again with ``fstat`` on the opened file. A file larger than :data:`MAX_FILE_BYTES`
is refused from its size, and the limit is enforced while reading (a file that grows).
``OSError`` s are turned into plain messages with a stable code:

* ``S1000`` does not exist, or cannot be read (permission denied, I/O error);
* ``S1003`` not a regular file (FIFO, device, socket, folder);
* ``S1004`` larger than :data:`MAX_FILE_BYTES`;
* ``S1005`` the path cannot be resolved: a name too long for the file system, a symbolic
  link loop, a NUL character;
* ``S1002`` (reported by the readers of text, :func:`decode_utf8`) the file is not UTF-8.

A load's folder walks and jars share one :class:`ReadBudget`: at most
:data:`MAX_WALK_ENTRIES` entries visited and :data:`MAX_WALK_BYTES` bytes of models found
under one model path (a folder or a jar), and :data:`MAX_LOAD_ENTRIES` /
:data:`MAX_LOAD_BYTES` for all the paths of the load together; past a cap the loader stops
with ``S1007`` naming the path (a ``sources`` entry of ``/`` or ``../../..`` would otherwise
walk the whole file system). README "Limits" documents the numbers.
"""

from __future__ import annotations

import errno
import os
import stat

from smithy2cfn.diagnostics import Code, Severity, declare_codes
from smithy2cfn.records import Record

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S1000", Severity.ERROR, None, "a model path does not exist or cannot be read"),
    Code("S1003", Severity.ERROR, None,
         "a model path is not a regular file or folder (a FIFO, a device, a socket); warning for such an "
         "entry (or a broken symbolic link) in a model folder, which is skipped", also=(Severity.WARNING,)),
    Code("S1004", Severity.ERROR, None, "a model file is larger than 256 MiB"),
    Code("S1005", Severity.ERROR, None, "a path cannot be resolved: name too long, symbolic link loop"),
    Code("S1002", Severity.ERROR, None, "the file is not valid UTF-8"),
    Code("S1007", Severity.ERROR, None,
         "a model path (a folder walked, a jar) holds more files, folders or bytes of models than a build "
         "reads (see Limits): nothing more is read from it"),
)

#: The largest file read (models and config files): 256 MiB. The largest real model we know
#: (AWS EC2) is about 10 MB.
MAX_FILE_BYTES = 256 * 1024 * 1024

#: Entries (files, folders, links: every name listed) one folder walk may visit. A model
#: folder holds tens to a few thousand (the 402 AWS service models are 402 files); a walk of
#: ``/`` or of a home folder passes this in a few seconds (2.8 s on a shared 2-core machine)
#: and stops (``S1007``).
MAX_WALK_ENTRIES = 200_000
#: Bytes of model files (``.smithy``, JSON AST, the models a jar lists, uncompressed) one
#: model path (a folder, a jar) may bring: 1 GiB. All 402 AWS service models are 132 MB.
MAX_WALK_BYTES = 1 << 30
#: Entries all the walks of one load may visit together.
MAX_LOAD_ENTRIES = 500_000
#: Bytes of model files all the model paths of one load may bring together: 2 GiB.
MAX_LOAD_BYTES = 2 << 30

_CHUNK = 1 << 20


class FileProblem(Record, frozen=True):
    """Why a path cannot be read: a code (``S1000``, ``S1003``-``S1005``) and a message."""

    code: str
    message: str

    def __init__(self, code: str, message: str) -> None:
        self.__dict__.update(code=code, message=message)


class ReadBudget:
    """What one load may still visit and read: entries and bytes for the model path being
    read (:meth:`start`), and for the whole load. The caps are read from this module's
    constants when the budget is made (tests lower them).

    :meth:`visit` and :meth:`spend` return ``None`` while within the caps, else the
    message of the first cap passed, and every later call returns it too until the next
    :meth:`start` for a path's own cap; for the whole load's (:attr:`spent`), for good.
    """

    __slots__ = ("entries", "bytes", "path_entries", "path_bytes", "max_walk_entries", "max_walk_bytes",
                 "max_load_entries", "max_load_bytes", "exhausted", "spent")

    def __init__(self) -> None:
        self.entries = self.bytes = self.path_entries = self.path_bytes = 0
        self.max_walk_entries, self.max_walk_bytes = MAX_WALK_ENTRIES, MAX_WALK_BYTES
        self.max_load_entries, self.max_load_bytes = MAX_LOAD_ENTRIES, MAX_LOAD_BYTES
        self.exhausted: str | None = None
        #: The whole load's cap is passed: nothing more is read.
        self.spent = False

    def start(self) -> None:
        """Begin a new model path: its own counts start at zero (the load's go on)."""
        self.path_entries = self.path_bytes = 0
        if not self.spent:
            self.exhausted = None

    def visit(self, count: int = 1) -> str | None:
        """Count ``count`` entries visited (names listed in a folder, entries of a jar)."""
        self.entries += count
        self.path_entries += count
        if self.exhausted is None:
            if self.path_entries > self.max_walk_entries:
                self.exhausted = f"it holds more than {self.max_walk_entries:,} files and folders"
            elif self.entries > self.max_load_entries:
                self.spent = True
                self.exhausted = (f"the model paths of this build hold more than {self.max_load_entries:,} "
                                  "files and folders together")
        return self.exhausted

    def spend(self, size: int) -> str | None:
        """Count ``size`` bytes of models found (a file's size, a jar entry's uncompressed size)."""
        self.bytes += size
        self.path_bytes += size
        if self.exhausted is None:
            if self.path_bytes > self.max_walk_bytes:
                self.exhausted = f"it holds more than {_size(self.max_walk_bytes)} of models"
            elif self.bytes > self.max_load_bytes:
                self.spent = True
                self.exhausted = f"the model paths of this build hold more than {_size(self.max_load_bytes)} of models"
        return self.exhausted


def _size(n: int) -> str:
    """``n`` bytes for a message: ``1 GiB``, ``256 MiB``, ``1,000 bytes``."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift:,} {unit}"
    return f"{n:,} bytes"


def is_json_ast(text: str) -> bool:
    """True when ``text`` is a JSON object with a ``smithy`` key (a JSON AST model, as the
    reference's ``ModelLoader.loadParsedNode`` recognizes one), or too deeply nested to tell
    (reading it then reports the nesting); other JSON, or text that is not JSON, is not."""
    import json

    try:
        value = json.loads(text, parse_int=lambda s: 0, parse_float=lambda s: 0.0, parse_constant=lambda s: 0)
    except ValueError:
        return False
    except RecursionError:
        return True
    return isinstance(value, dict) and "smithy" in value


def os_error_problem(e: OSError | ValueError) -> FileProblem:
    """The :class:`FileProblem` of an error from ``os.stat``/``open``/``read``/``scandir``."""
    if isinstance(e, ValueError):  # "embedded null byte"
        return FileProblem("S1005", "the path holds a NUL character")
    code = e.errno
    if code == errno.ENAMETOOLONG:
        return FileProblem("S1005", "the path name is too long for the file system")
    if code == errno.ELOOP:
        return FileProblem("S1005", "too many levels of symbolic links (a symbolic link loop)")
    if code in (errno.ENOENT, errno.ENOTDIR):
        return FileProblem("S1000", "no such file or directory")
    if code in (errno.EACCES, errno.EPERM):
        return FileProblem("S1000", "permission denied")
    return FileProblem("S1000", e.strerror or str(e))


def kind_of(mode: int) -> str:
    """What a file of this ``st_mode`` is, for messages ("a FIFO (named pipe)"...)."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _too_large(size: int | str, limit: int) -> FileProblem:
    return FileProblem("S1004", f"the file is {size} bytes, more than the limit of {limit // (1024 * 1024)} MiB")


def read_bytes(path: str | os.PathLike, limit: int = MAX_FILE_BYTES, *, dir_fd: int | None = None,
               follow_symlinks: bool = True) -> tuple[bytes | None, FileProblem | None]:
    """The bytes of a regular file of at most ``limit`` bytes: the one bounded read of the
    package (models, config files, and the writer's comparison with what a file holds).

    ``dir_fd``: ``path`` is relative to that open folder; ``follow_symlinks=False``: a
    symbolic link is refused (``S1003``) and never followed, even if it is swapped in after
    the check. Returns ``(data, None)``, or ``(None, problem)``; never raises ``OSError``,
    never blocks on a FIFO, never reads more than ``limit + 1`` bytes.
    """
    try:
        st = os.stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)
    except (OSError, ValueError) as e:
        return None, os_error_problem(e)
    if not stat.S_ISREG(st.st_mode):
        return None, FileProblem("S1003", f"not a regular file: it is {kind_of(st.st_mode)}")
    if st.st_size > limit:
        return None, _too_large(st.st_size, limit)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except (OSError, ValueError) as e:
        return None, os_error_problem(e)
    try:
        st = os.fstat(fd)  # the path may have been replaced since the stat above
        if not stat.S_ISREG(st.st_mode):
            return None, FileProblem("S1003", f"not a regular file: it is {kind_of(st.st_mode)}")
        # One read of the size fstat gives and a byte more (a file that has not changed
        # since is read whole, its bytes never copied: a 3 MB model was read in 1 MB
        # chunks, then joined, touching twice the memory), then chunks until the end for
        # a file that grew meanwhile or a short read.
        chunks = [os.read(fd, min(st.st_size + 1, limit + 1))]
        total = len(chunks[0])
        while total <= limit and chunks[-1]:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            return None, _too_large(f"more than {limit}", limit)
        # (the loop ends at an empty read: two chunks are the file and that end, not copied)
        return chunks[0] if len(chunks) <= 2 else b"".join(chunks), None
    except OSError as e:
        return None, os_error_problem(e)
    finally:
        os.close(fd)


def decode_utf8(data: bytes) -> tuple[str | None, tuple[int, int] | None]:
    """``data`` as UTF-8 text, or ``(None, (line, column))`` of the first invalid byte."""
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        prefix = data[: e.start]
        line = prefix.count(b"\n") + 1
        col = e.start - (prefix.rfind(b"\n") + 1) + 1
        return None, (line, col)


__all__ = ["MAX_FILE_BYTES", "MAX_LOAD_BYTES", "MAX_LOAD_ENTRIES", "MAX_WALK_BYTES", "MAX_WALK_ENTRIES",
           "FileProblem", "ReadBudget", "decode_utf8", "is_json_ast", "kind_of", "os_error_problem", "read_bytes"]
