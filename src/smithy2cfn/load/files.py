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
  link loop, a NUL character.
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
)

#: The largest file read (models and config files): 256 MiB. The largest real model we know
#: (AWS EC2) is about 10 MB.
MAX_FILE_BYTES = 256 * 1024 * 1024

_CHUNK = 1 << 20


class FileProblem(Record, frozen=True):
    """Why a path cannot be read: a code (``S1000``, ``S1003``-``S1005``) and a message."""

    code: str
    message: str

    def __init__(self, code: str, message: str) -> None:
        self.__dict__.update(code=code, message=message)


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
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                return None, _too_large(f"more than {limit}", limit)
        return b"".join(chunks), None
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


__all__ = ["MAX_FILE_BYTES", "FileProblem", "decode_utf8", "kind_of", "os_error_problem", "read_bytes"]
