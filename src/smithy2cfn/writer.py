"""Writing output: the one place where smithy2cfn writes files.

Every artifact a build makes (today the resource schemas; documentation, contract-test
inputs and diff reports next) is a named text written into an output folder by
:func:`write_artifacts`, or compared with it in check mode (``--check``). The rules hold for
all of them:

* contained: an artifact's name is a plain file name inside the folder
  (:func:`output_path`); in check mode no file is read through a link that leaves it
  (``S5024``);
* atomic: each file is replaced whole (:func:`write_atomically`: ``O_TMPFILE`` then a link
  on Linux, a temporary file and ``os.replace`` elsewhere), a file already holding the same
  bytes is left untouched, and the folder is synced; the temporary files a killed build
  left are swept by the next one (:func:`sweep_temp_files`);
* nothing half-written: when one name is refused, nothing is written;
* check mode reads each file with a bounded read of a regular file
  (:func:`read_regular_file`: no FIFO, device or 4 GiB file is read) and reports each one
  missing or different (``S5010``).

:func:`render_schema` is the strict JSON text of a schema; :func:`write_file` writes one
file anywhere (``smithy2cfn ast -o FILE``).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Collection, Mapping
from json.encoder import encode_basestring
from pathlib import Path

from smithy2cfn.diagnostics import Code, Diagnostic, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.load.files import MAX_FILE_BYTES, read_bytes
from smithy2cfn.records import Record
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S5010", Severity.ERROR, None, "`--check`: an output file is missing or out of date"),
    Code("S5011", Severity.ERROR, None, "an output file cannot be written"),
    Code("S5024", Severity.ERROR, None,
         "an output file name is not a plain name inside the output folder, or `--check` would read through "
         "a link leaving it"),
)


class WriteResult(Record):
    """What :func:`write_artifacts` (or :func:`write_file`) did.

    Attributes:
        written: the files now in place, in name order (a file that already held the same
            bytes counts: it is in place); empty in check mode or on failure.
        stale: in check mode, the files missing or different from their artifact.
        diagnostics: ``S5024`` (a name that is not a plain name inside the folder, a link
            leaving it), ``S5010`` (stale, in check mode), ``S5011`` (cannot write).
    """

    __slots__ = ("written", "stale", "diagnostics")
    written: list[Path]
    stale: list[Path]
    diagnostics: list[Diagnostic]

    def __init__(self, written: list[Path] | None = None, stale: list[Path] | None = None,
                 diagnostics: list[Diagnostic] | None = None) -> None:
        self.written = [] if written is None else written
        self.stale = [] if stale is None else stale
        self.diagnostics = [] if diagnostics is None else diagnostics

    @property
    def ok(self) -> bool:
        """True when no ERROR was reported and nothing is stale."""
        return not self.stale and not any(d.is_error for d in self.diagnostics)


def render_schema(schema: Mapping[str, Any]) -> str:
    """The bytes-stable text of a schema file: 2-space JSON, key order kept, trailing newline.

    The text is strict JSON (RFC 8259). :func:`smithy2cfn.api.convert` reports every schema
    that could not be written (``S4105``, ``S4108``) as an error, so a schema it returns without
    errors always renders.

    Raises:
        ValueError: ``schema`` holds ``NaN`` or an infinity (``allow_nan=False``), or an
            integer of more than 4,300 digits.
        TypeError: ``schema`` holds a value of no JSON type (a ``set``...).
        RecursionError: ``schema`` nests some 900 levels deep.
    """
    out: list[str] = []
    try:
        _render(schema, "", out)
    except (_Unusual, RecursionError, ValueError):
        # json.dumps itself: it renders what _render leaves to it, and raises what it raises
        return json.dumps(schema, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    out.append("\n")
    return "".join(out)


class _Unusual(Exception):
    """A value :func:`_render` leaves to ``json.dumps`` (see there)."""


#: The deepest a value :func:`_render` writes itself (in characters of indentation).
_RENDER_DEPTH = 2 * 100
_INFINITY = float("inf")


def _render(value: Any, indent: str, out: list[str]) -> None:
    """Append what ``json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)``
    writes for ``value`` (nested at ``indent``) to ``out``: the same text, without the
    generators of json's pure-Python encoder (the one it uses with ``indent``; bedrock-agent's
    schemas: about 3 times faster). Raises :class:`_Unusual` for what it leaves to
    ``json.dumps``: a value of no JSON type, a key that is not a string, ``NaN`` or an
    infinity, a value nested more than 100 levels deep (so that errors are json's own)."""
    if isinstance(value, str):
        out.append(encode_basestring(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        if value != value or value == _INFINITY or value == -_INFINITY:
            raise _Unusual
        out.append(float.__repr__(value))
    elif isinstance(value, (list, tuple)) and len(indent) < _RENDER_DEPTH:
        if not value:
            out.append("[]")
            return
        inner = indent + "  "
        separator = "[\n" + inner
        for item in value:
            out.append(separator)
            _render(item, inner, out)
            separator = ",\n" + inner
        out.append("\n" + indent + "]")
    elif isinstance(value, dict) and len(indent) < _RENDER_DEPTH:
        if not value:
            out.append("{}")
            return
        inner = indent + "  "
        separator = "{\n" + inner
        for key, item in value.items():
            if not isinstance(key, str):
                raise _Unusual
            out.append(separator)
            out.append(encode_basestring(key))
            out.append(": ")
            _render(item, inner, out)
            separator = ",\n" + inner
        out.append("\n" + indent + "}")
    else:
        raise _Unusual


#: Our temporary files in an output folder: ``.<output file>.<8 random characters>.tmp``
#: (what a ``kill -9`` between link and rename can leave; swept by the next build).
TEMP_FILE_RE = lazy(r"\.[A-Za-z0-9_-][A-Za-z0-9._-]*\.[A-Za-z0-9_]{8}\.tmp")
_WRITE_MODE = 0o644


def _umask() -> int:
    """The process umask, without changing it where ``/proc`` tells it (Linux ≥ 4.7)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _temp_name(name: str) -> str:
    import secrets  # here: only a rewrite of an existing file needs it (secrets imports hashlib, hmac, random)

    return f".{name}.{secrets.token_hex(4)}.tmp"


def _write_anonymous(folder_fd: int, name: str, data: bytes) -> bool:
    """Linux: write ``data`` to an anonymous file (``O_TMPFILE``) in the folder, then give
    it its name. A ``kill -9`` before the link leaves nothing; when ``name`` exists the
    file is linked under a temporary name and renamed over it (a window of two system
    calls, swept by the next build). Returns ``False`` when the system cannot do this
    (no ``O_TMPFILE`` support, no ``/proc``), before any name was made."""
    tmpfile = getattr(os, "O_TMPFILE", None)
    if tmpfile is None:
        return False
    try:
        fd = os.open(".", tmpfile | os.O_WRONLY | os.O_CLOEXEC, _WRITE_MODE, dir_fd=folder_fd)
    except OSError:  # EOPNOTSUPP, EISDIR (old kernels), EINVAL...: use a named temporary file
        return False
    try:
        _write_all(fd, data)
        os.fsync(fd)
        proc = f"/proc/self/fd/{fd}"
        try:
            # linkat(AT_SYMLINK_FOLLOW): the name appears whole
            os.link(proc, name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd, follow_symlinks=True)
            return True
        except FileExistsError:
            pass
        except OSError:
            if os.path.exists(proc):
                raise
            return False  # no /proc: use a named temporary file
        while True:
            tmp = _temp_name(name)
            try:
                os.link(proc, tmp, src_dir_fd=folder_fd, dst_dir_fd=folder_fd, follow_symlinks=True)
                break
            except FileExistsError:
                continue
        try:
            os.replace(tmp, name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=folder_fd)
            raise
        return True
    finally:
        os.close(fd)


def _write_named_temp(folder: Path, name: str, data: bytes) -> None:
    """Elsewhere: a named temporary file (``mkstemp``, mode 0o600), made 0o644 minus the
    umask, written, synced and renamed over ``name``."""
    import tempfile  # here: only systems without O_TMPFILE need it

    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), _WRITE_MODE & ~_umask())
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, folder / name)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def read_regular_file(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES, dir_fd: int | None = None,
                      follow_symlinks: bool = True) -> bytes | None:
    """The bytes of the regular file at ``path`` when it holds at most ``limit`` bytes (by
    default the limit of a model file, README "Limits": the CLI's source lines under
    diagnostics read the model files with it);
    ``None`` when it is missing, not a regular file (a FIFO, a device, a folder: never
    read), a symbolic link (with ``follow_symlinks=False``), larger, or unreadable
    (:func:`smithy2cfn.load.files.read_bytes`, without saying why)."""
    return read_bytes(path, limit, dir_fd=dir_fd, follow_symlinks=follow_symlinks)[0]


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` so that readers, and a process killed at any
    moment, see either the old file or the whole new one.

    A regular file that already holds exactly ``text`` is left as it is. Otherwise, on
    Linux, the data goes to an anonymous file (``O_TMPFILE``) that is synced and then
    linked in; elsewhere through a temporary file (``TEMP_FILE_RE`` naming) and
    ``os.replace``. The file mode is 0o644 minus the umask, like a plain write. A symbolic
    link, FIFO or other non-regular file at ``path`` is replaced, never written through.

    Raises:
        OSError: when the folder cannot be written.
    """
    path = Path(path)
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    if os.open in os.supports_dir_fd and hasattr(os, "O_DIRECTORY"):
        folder_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
        try:
            if read_regular_file(path.name, len(data), folder_fd, follow_symlinks=False) == data:
                return
            if _write_anonymous(folder_fd, path.name, data):
                return
        finally:
            os.close(folder_fd)
    _write_named_temp(folder, path.name, data)


def sweep_temp_files(folder: Path) -> list[Path]:
    """Delete the temporary files of ours (``TEMP_FILE_RE``) that a killed build left in
    ``folder``; nothing else is touched (no folders, no other names). Returns what was
    deleted; a folder that does not exist or cannot be read is left alone."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if TEMP_FILE_RE.fullmatch(entry.name) and not entry.is_dir(follow_symlinks=False):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


def output_path(out_dir: Path, name: str) -> Path | None:
    """``out_dir / name`` when ``name`` is a plain file name that stays inside ``out_dir``;
    ``None`` otherwise (empty, ``.``/``..``, a leading ``.`` — our temporary files' names —,
    a separator ``/`` or ``\\``, NUL, an absolute path, more than 255 bytes, or a parent
    that does not resolve to ``out_dir``). Defence in depth: schema file names are made
    from checked type names (:func:`smithy2cfn.emit.file_name`)."""
    if (not isinstance(name, str) or not name or name.startswith(".") or "\0" in name
            or "/" in name or "\\" in name or os.sep in name or (os.altsep and os.altsep in name)
            or os.path.isabs(name) or len(os.fsencode(name)) > 255):
        return None
    path = out_dir / name
    try:
        if path.parent.resolve() != out_dir.resolve():
            return None
    except (OSError, RuntimeError, ValueError):
        return None
    return path


def _sync_folder(folder: Path) -> None:
    """``fsync`` a folder so that the names just linked in survive a crash (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


#: What an ``S5024`` says to do about a name, by default.
NAME_HINT = "an output file is named after what it holds; check custom mappers"


def write_artifacts(out_dir: str | os.PathLike[str], artifacts: Mapping[str, str], *, check: bool = False,
                    hint: str = NAME_HINT) -> WriteResult:
    """Write named text artifacts into a folder, or (``check``) compare them with it.

    Args:
        out_dir: the output folder (made when missing).
        artifacts: file name → text (UTF-8), written in name order. Each name must be a
            plain file name inside ``out_dir`` (:func:`output_path`).
        check: compare instead of writing: nothing is written; a file missing or holding
            other bytes is ``stale`` (error ``S5010``).
        hint: what an ``S5024`` tells to change (how the names are made).

    Returns:
        A :class:`WriteResult`. A name that is not a plain name inside ``out_dir`` is error
        ``S5024`` (located at the folder) and then nothing is written or read; in check
        mode a file that is a link leaving the folder is ``S5024`` and not read; a write
        that fails is ``S5011`` (what was written before it stays, each file whole).
        Never raises.
    """
    out = Path(out_dir)
    result = WriteResult()
    diags = Diagnostics()
    texts = dict(sorted(artifacts.items()))
    maybe_targets = {name: output_path(out, name) for name in texts}
    targets = {name: target for name, target in maybe_targets.items() if target is not None}
    for name, target in maybe_targets.items():
        if target is None:
            diags.error("S5024", f"refusing to {'read' if check else 'write'} {name!r}: an output file "
                                 f"must be a plain file name inside {out}", Span(str(out)), hint=hint)
    if diags.has_errors:
        result.diagnostics = diags.sorted()
        return result
    if check:
        for name, text in texts.items():
            p = targets[name]
            try:
                leaves = p.resolve().parent != out.resolve()
            except (OSError, RuntimeError):
                leaves = False  # a link loop: unreadable, so stale
            if leaves:
                diags.error("S5024", f"refusing to read {p}: it is a link that leaves {out}", Span(str(p)),
                            hint="replace the link by the file the build writes")
                continue
            data = text.encode("utf-8")
            if read_regular_file(p, len(data)) != data:
                result.stale.append(p)
                diags.error("S5010", f"{p} is out of date; run the build to regenerate it", Span(str(p)))
        result.diagnostics = diags.sorted()
        return result
    try:
        for name, text in texts.items():
            write_atomically(targets[name], text)
            result.written.append(targets[name])
        _sync_folder(out)
    except OSError as e:
        diags.error("S5011", f"cannot write output: {e}", Span(str(out)))
    result.diagnostics = diags.sorted()
    return result


def write_tree(out_dir: str | os.PathLike[str], artifacts: Mapping[str, str], *, check: bool = False,
               hint: str = NAME_HINT, only_if_absent: Collection[str] = (),
               remove: Collection[str] = ()) -> WriteResult:
    """:func:`write_artifacts` for files in sub-folders of ``out_dir`` too: ``artifacts`` maps
    ``/``-separated relative paths (``"docs/README.md"``) to texts; each folder's files are
    written (or compared) by :func:`write_artifacts`, the folders made as needed. The paths
    in ``only_if_absent`` (a file a person fills in, made once: a custom resource's handlers)
    are written only when nothing is there, never replaced, and never compared. The paths in
    ``remove`` (files an earlier build wrote that this one no longer makes) are removed when
    they are regular files, after the writing; in check mode each one there is ``stale``.

    Every path is checked first: a part that is not a plain name (:func:`output_path`'s
    rules), or a sub-folder that is a link or leaves ``out_dir``, is error ``S5024`` and then
    nothing is written or read. Never raises.
    """
    out = Path(out_dir)
    result = WriteResult()
    diags = Diagnostics()
    folders: dict[tuple[str, ...], dict[str, str]] = {}
    for path, text in sorted(artifacts.items()):
        parts = tuple(path.split("/"))
        folder = out
        bad = False
        for part in parts[:-1]:
            if output_path(folder, part) is None or (folder / part).is_symlink():
                bad = True
                break
            folder = folder / part
        if bad or output_path(folder, parts[-1]) is None:
            diags.error("S5024", f"refusing to {'read' if check else 'write'} {path!r}: an output file must be "
                                 f"a plain path inside {out}", Span(str(out)), hint=hint)
            continue
        if path in only_if_absent and (check or os.path.lexists(folder / parts[-1])):
            continue
        folders.setdefault(parts[:-1], {})[parts[-1]] = text
    if diags.has_errors:
        result.diagnostics = diags.sorted()
        return result
    for sub, files in sorted(folders.items()):
        done = write_artifacts(out.joinpath(*sub), files, check=check, hint=hint)
        result.written += done.written
        result.stale += done.stale
        result.diagnostics += done.diagnostics
        if any(d.is_error and d.code != "S5010" for d in done.diagnostics):
            break
    else:
        result.diagnostics += _remove(out, remove, check, result)
    result.diagnostics = sorted(result.diagnostics, key=Diagnostic.sort_key)
    return result


def _remove(out: Path, paths: Collection[str], check: bool, result: WriteResult) -> list[Diagnostic]:
    """Remove (or, in ``check`` mode, report as stale) the regular files at the relative
    ``paths`` under ``out``; a path that is not a plain path inside ``out`` is left alone."""
    diags = Diagnostics()
    for path in sorted(paths):
        parts = path.split("/")
        target, folder = None, out
        for part in parts[:-1]:
            if output_path(folder, part) is None or (folder / part).is_symlink():
                break
            folder = folder / part
        else:
            target = output_path(folder, parts[-1])
        if target is None or not target.is_file() or target.is_symlink():
            continue
        if check:
            result.stale.append(target)
            diags.error("S5010", f"{target} is no longer made; run the build to remove it", Span(str(target)))
            continue
        try:
            target.unlink()
        except OSError as e:
            diags.error("S5011", f"cannot remove {target}: {e.strerror or e}", Span(str(target)))
    return diags.sorted()


def write_file(path: str | os.PathLike[str], text: str, *, hint: str | None = None) -> WriteResult:
    """Write one file at ``path`` (any folder: the caller chose it), atomically
    (:func:`write_atomically`).

    Returns:
        A :class:`WriteResult` whose ``written`` is ``[path]``, or error ``S5011`` located at
        ``path`` when it is a folder or cannot be written (with ``hint``). Never raises.
    """
    result = WriteResult()
    problem = None
    if os.path.isdir(path):
        problem = "it is a folder"
    else:
        try:
            write_atomically(Path(path), text)
        except OSError as e:
            problem = e.strerror or str(e)
    if problem is None:
        result.written.append(Path(path))
    else:
        diags = Diagnostics()
        diags.error("S5011", f"cannot write {os.fspath(path)}: {problem}", Span(os.fspath(path)), hint=hint)
        result.diagnostics = diags.sorted()
    return result


__all__ = ["NAME_HINT", "TEMP_FILE_RE", "WriteResult", "output_path", "read_regular_file", "render_schema",
           "sweep_temp_files", "write_artifacts", "write_atomically", "write_file", "write_tree"]
