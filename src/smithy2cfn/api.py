"""The library surface: load, validate, convert, build.

The command line (:mod:`smithy2cfn.cli`) is a thin layer over these functions::

    import smithy2cfn

    result = smithy2cfn.build(["model/"], out_dir="build/cfn",
                              settings={"service": "example.weather#Weather"})
    for d in result.diagnostics:
        print(d.format_text())
    result.schemas["example-weather-forecast.json"]   # the schema, as a dict

Every function collects problems as :class:`~smithy2cfn.diagnostics.Diagnostic` objects and
never raises on bad input.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Span
from smithy2cfn.load import load_model
from smithy2cfn.model import Model


@dataclass
class BuildResult:
    """What :func:`build` did.

    Attributes:
        schemas: output file name → resource schema (``dict``), empty when the build failed.
        written: the output files now in place (files that already held the same bytes are
            left untouched); empty in check mode or when the build failed.
        stale: in check mode, output files that are missing or differ from what the build makes.
        diagnostics: every problem found, sorted by location.
    """

    schemas: dict[str, dict] = field(default_factory=dict)
    written: list[Path] = field(default_factory=list)
    stale: list[Path] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no ERROR diagnostic was reported (and, in check mode, nothing is stale)."""
        return not any(d.is_error for d in self.diagnostics) and not self.stale


def load(paths: Iterable[str | os.PathLike], diags: Diagnostics | None = None) -> tuple[Model, Diagnostics]:
    """Load model files/directories (IDL 1.0/2.0, JSON AST) with the prelude into a Model.

    Returns ``(model, diagnostics)``; the model may be partial when there are errors.
    """
    diags = diags if diags is not None else Diagnostics()
    if isinstance(paths, (str, os.PathLike)):  # one path, not the characters of its name
        paths = [paths]
    model = load_model([str(p) for p in paths], diags)
    return model, diags


def validate(model: Model, diags: Diagnostics) -> None:
    """Run the semantic model checks of :mod:`smithy2cfn.validate`, adding to ``diags``."""
    try:
        from smithy2cfn.validate import run_validators
    except ImportError:  # pragma: no cover - the validate stage is optional during bring-up
        return
    run_validators(model, diags)


def convert(model: Model, settings: Mapping[str, Any] | None, diags: Diagnostics,
            settings_source: str | None = None, *,
            setting_spans: Mapping[str, Span] | None = None) -> dict[str, dict]:
    """Convert every ``cfnResource`` of the configured service into a resource schema.

    Args:
        model: a loaded model without errors.
        settings: the ``cloudformation`` plugin settings (``service``, ``organizationName``...).
        diags: receives conversion problems and the meta-schema check of every schema.
        settings_source: where the settings came from (a file path, or e.g.
            ``"<command line>"``; default ``"<settings>"``); configuration diagnostics
            point there.
        setting_spans: setting name → where it was given: the key in a config file, or
            ``Span("<command line --org>")`` for a flag. A setting of the wrong type, and a
            ``typeName`` part or value that a setting makes invalid (``S5020``/``S5021``),
            are located there.

    Returns:
        Output file name → schema; ``{}`` when configuration or conversion failed. File
        names come from each schema's final ``typeName``, which must match the
        CloudFormation meta-schema pattern (see :mod:`smithy2cfn.derive.typename`).
    """
    from smithy2cfn.config import CfnConfig
    from smithy2cfn.emit import convert as emit_convert

    source = Span(settings_source if settings_source is not None else "<settings>")
    config = CfnConfig.from_dict({} if settings is None else settings, diags, spans=setting_spans, source=source)
    if diags.has_errors:
        return {}
    return emit_convert(model, config, diags, setting_spans=setting_spans)


def render_schema(schema: Mapping[str, Any]) -> str:
    """The bytes-stable text of a schema file: 2-space JSON, key order kept, trailing newline.

    The text is strict JSON (RFC 8259). :func:`convert` reports every schema that could not
    be written (``S4105``, ``S4108``) as an error, so a schema it returns without
    errors always renders.

    Raises:
        ValueError: ``schema`` holds ``NaN`` or an infinity (``allow_nan=False``), or an
            integer of more than 4,300 digits.
        TypeError: ``schema`` holds a value of no JSON type (a ``set``...).
        RecursionError: ``schema`` nests some 900 levels deep.
    """
    return json.dumps(schema, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


#: Our temporary files in an output folder: ``.<schema file>.<8 random characters>.tmp``
#: (what a ``kill -9`` between link and rename can leave; swept by the next build).
TEMP_FILE_RE = re.compile(r"\.[a-z0-9-]+\.json\.[A-Za-z0-9_]{8}\.tmp")
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
        link = dict(src_dir_fd=folder_fd, dst_dir_fd=folder_fd, follow_symlinks=True)
        try:
            os.link(proc, name, **link)  # linkat(AT_SYMLINK_FOLLOW): the name appears whole
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
                os.link(proc, tmp, **link)
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


def read_regular_file(path: str | os.PathLike, limit: int, dir_fd: int | None = None,
                      follow_symlinks: bool = True) -> bytes | None:
    """The bytes of the regular file at ``path`` when it holds at most ``limit`` bytes;
    ``None`` when it is missing, not a regular file (a FIFO, a device, a folder: opened
    without blocking, never read), a symbolic link (with ``follow_symlinks=False``), larger,
    or unreadable."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks) if size <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


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


def build(
    paths: Iterable[str | os.PathLike],
    out_dir: str | os.PathLike | None,
    settings: Mapping[str, Any] | None = None,
    *,
    check: bool = False,
    settings_source: str | None = None,
    setting_spans: Mapping[str, Span] | None = None,
) -> BuildResult:
    """Load, validate, convert and (unless the build fails) write the resource schemas.

    Args:
        paths: model files or directories.
        out_dir: folder for the schema files; ``None`` converts without writing.
        settings: ``cloudformation`` plugin settings (see README "Settings").
        check: compare with the files in ``out_dir`` instead of writing; differing or
            missing files are listed in ``BuildResult.stale``.
        settings_source: where ``settings`` came from, for diagnostics (see :func:`convert`).
        setting_spans: setting name → where it was given (see :func:`convert`).

    Returns:
        A :class:`BuildResult`. Nothing is written when any ERROR diagnostic is reported;
        every file written or read is a plain name inside ``out_dir`` (``S5024``
        otherwise); each file is replaced atomically (:func:`write_atomically`), and the
        temporary files a killed earlier build left in ``out_dir`` are deleted first.
    """
    diags = Diagnostics()
    if out_dir is not None and not check:
        sweep_temp_files(Path(out_dir))
    model, _ = load(paths, diags)
    result = BuildResult()
    if not diags.has_errors:
        validate(model, diags)
    if not diags.has_errors:
        schemas = convert(model, settings, diags, settings_source, setting_spans=setting_spans)
        if not diags.has_errors:
            result.schemas = schemas
    if result.schemas and out_dir is not None:
        out = Path(out_dir)
        rendered = {name: render_schema(s) for name, s in sorted(result.schemas.items())}
        targets = {name: output_path(out, name) for name in rendered}
        for name, target in targets.items():
            if target is None:
                diags.error("S5024", f"refusing to {'read' if check else 'write'} {name!r}: an output file "
                                     f"must be a plain file name inside {out}", Span(str(out)),
                            hint="a schema file is named after its typeName; check custom mappers")
        if diags.has_errors:
            result.diagnostics = diags.sorted()
            return result
        if check:
            for name, text in rendered.items():
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
        else:
            try:
                for name, text in rendered.items():
                    write_atomically(targets[name], text)
                    result.written.append(targets[name])
                _sync_folder(out)
            except OSError as e:
                diags.error("S5011", f"cannot write output: {e}", Span(str(out)))
    result.diagnostics = diags.sorted()
    return result


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
