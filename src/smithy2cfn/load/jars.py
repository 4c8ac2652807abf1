"""Model jars: the models a ``.jar`` lists in its ``META-INF/smithy/manifest``, read as the
reference reads one, within limits.

The reference (smithy-model ``ModelLoader.loadJar`` and ``ModelDiscovery``) reads a jar given
as a model path, found in a model folder, or resolved from a Maven coordinate the same way:

* its ``META-INF/smithy/manifest`` is UTF-8 text, one model path per line, relative to
  ``META-INF/smithy/`` (a line ends at ``\\n``, ``\\r`` or ``\\r\\n``); empty lines and lines
  starting with ``#`` are ignored, a path listed twice is read once;
* a line must stay inside the jar: no empty, ``.`` or ``..`` segment, no leading or trailing
  ``/``, none of the characters ``\\t \\ ? % * : | " ' > < #`` or a space (else ``S1022``:
  the reference fails the whole manifest; we report each such line and read the others);
* a jar without a manifest holds no models (the reference ignores it: ``S1021``, a warning
  for a jar given as a model path, a note for one found in a model folder);
* a listed file that the jar does not hold, that is not a model (``.smithy``, or ``.json``
  holding a JSON AST: the reference's "Invalid file referenced by Smithy JAR manifest"), or
  that is a jar itself is an error (``S1023``).

Names: a model read from a jar is named ``<jar path>!/META-INF/smithy/<manifest line>``
(``lib/shared.jar!/META-INF/smithy/shared.smithy``; the reference's URL is
``jar:file:/abs/lib/shared.jar!/META-INF/smithy/shared.smithy``), so that its diagnostics
say where they are; the manifest's own problems are located at
``<jar path>!/META-INF/smithy/manifest:<line>``.

Limits (a jar comes from a pull request or a repository like any model; README "Limits"):
at most :data:`MAX_JAR_ENTRIES` entries and a central directory of at most
:data:`MAX_JAR_DIRECTORY_BYTES`, checked from the archive's end record before the directory
is parsed (``S1024``); each model (and the manifest) at most
:data:`~smithy2cfn.load.files.MAX_FILE_BYTES` uncompressed (``S1025``), compressed at most
:data:`MAX_COMPRESSION_RATIO` to 1 once larger than :data:`RATIO_FLOOR` (``S1026``: a zip
bomb), enforced on the declared sizes and again while inflating; the manifest at most
:data:`MAX_MANIFEST_BYTES`, listing at most :data:`MAX_JAR_ENTRIES` files; two entries of one name
among those read (``S1027``); and the load's :class:`~smithy2cfn.load.files.ReadBudget`
(``S1007``, reported by the loader). A damaged, encrypted or unsupported archive is
``S1020``. Reading uses the standard library's :mod:`zipfile`, imported when a jar is read.
"""

from __future__ import annotations

import os
import stat
import struct
from collections import Counter

from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.load.files import (
    MAX_FILE_BYTES,
    ReadBudget,
    decode_utf8,
    is_json_ast,
    kind_of,
    os_error_problem,
)
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S1020", Severity.ERROR, None,
         "a jar cannot be read: not a zip archive, or damaged (a CRC or size mismatch), encrypted, or compressed "
         "in a way that cannot be read"),
    Code("S1021", Severity.WARNING, None,
         "a jar given as a model path holds no `META-INF/smithy/manifest`, so no model is read from it (a note "
         "for a jar found in a model folder, which the reference ignores the same way)", also=(Severity.NOTE,)),
    Code("S1022", Severity.ERROR, None,
         "a jar manifest line is not a path inside `META-INF/smithy/` (`..`, `.` or empty segments, a leading or "
         "trailing `/`, a space, `\\`, `:`...): the line is not read"),
    Code("S1023", Severity.ERROR, None,
         "a jar manifest lists a file the jar does not hold, or one that is not a model (`.smithy`, a JSON AST "
         "`.json`), or a jar"),
    Code("S1024", Severity.ERROR, None, "a jar holds more entries than a build reads (see Limits)"),
    Code("S1025", Severity.ERROR, None,
         "a model in a jar is larger than 256 MiB uncompressed, or its manifest larger than 16 MiB"),
    Code("S1026", Severity.ERROR, None,
         "a model in a jar is compressed more than 100 to 1 (a zip bomb; see Limits)"),
    Code("S1027", Severity.ERROR, None, "a jar holds two entries of one name among the manifest and its models"),
)

#: Where a jar's models are listed, and the folder the listed paths are relative to.
ROOT = "META-INF/smithy/"
MANIFEST = ROOT + "manifest"

#: The most entries a jar may hold: jars of Smithy models hold tens (``smithy-aws-traits``,
#: with its Java classes, about 700); a zip without ZIP64 holds at most 65,535.
MAX_JAR_ENTRIES = 100_000
#: The largest central directory read (32 MiB: 100,000 entries of names up to 290
#: characters). The standard library parses the whole directory when it opens an archive, so
#: this is checked first, from the end record.
MAX_JAR_DIRECTORY_BYTES = 32 << 20
#: The largest manifest read (16 MiB: 100,000 lines of 160 characters; real ones list a
#: few files).
MAX_MANIFEST_BYTES = 16 << 20
#: The most a model in a jar may be compressed (uncompressed size / compressed size). Real
#: models compress 8 to 12 to 1 (the 402 AWS models with deflate at level 9); deflate can
#: reach about 1,030 to 1, which a zip bomb uses.
MAX_COMPRESSION_RATIO = 100
#: Entries of at most this many bytes uncompressed are not held to the ratio (a small file
#: of repeated text compresses well, and cannot be a bomb).
RATIO_FLOOR = 1 << 20

#: What ``ModelDiscovery.isValidateResourceLine`` refuses in a manifest line's segment.
_PROHIBITED = lazy(r"[\t\\?%*:|\"'><# ]")
_LINE_BREAK = lazy(r"\r\n|\r|\n")
_CHUNK = 1 << 20

_END = b"PK\x05\x06"
_END64_LOCATOR = b"PK\x06\x07"
_END64 = b"PK\x06\x06"


class _JarError(Exception):
    """A problem that stops reading a jar: a code and a message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def member_name(jar: str, entry: str) -> str:
    """The name diagnostics use for ``entry`` of ``jar``: ``"lib/a.jar!/META-INF/smithy/a.smithy"``."""
    return f"{jar}!/{entry}"


def manifest_line_problem(line: str) -> str | None:
    """Why a manifest line is not a model path inside the jar (``ModelDiscovery``), or ``None``."""
    if line.endswith("/"):
        return "it ends with '/'"
    for segment in line.split("/"):
        if segment in ("", ".", ".."):
            what = "an empty segment (a leading '/' or '//')" if not segment else f"a '{segment}' segment"
            return f"it has {what}: a listed path must stay inside META-INF/smithy/"
        bad = _PROHIBITED.search(segment)
        if bad:
            return f"it holds {bad.group()!r}, which a manifest path may not hold"
    return None


def _directory_size(fh: IO[bytes], size: int) -> tuple[int, int]:
    """The entry count and central directory size an archive's end record declares (ZIP64's
    when it has one; APPNOTE 4.3.14-4.3.16). Raises :class:`_JarError` when there is none."""
    tail_size = min(size, 22 + 0xFFFF)
    fh.seek(size - tail_size)
    tail = fh.read(tail_size)
    at = tail.rfind(_END)
    if at < 0 or len(tail) - at < 22:
        raise _JarError("S1020", "not a zip archive (no end of central directory record)")
    _, _, _, _, entries, cd_size, cd_offset, _ = struct.unpack("<4s4H2LH", tail[at:at + 22])
    if entries == 0xFFFF or cd_size == 0xFFFFFFFF or cd_offset == 0xFFFFFFFF:
        where = size - tail_size + at - 20
        if where >= 0:
            fh.seek(where)
            locator = fh.read(20)
            if len(locator) == 20 and locator[:4] == _END64_LOCATOR:
                _, _, offset, _ = struct.unpack("<4sLQL", locator)
                if 0 <= offset <= size - 56:
                    fh.seek(offset)
                    record = fh.read(56)
                    if len(record) == 56 and record[:4] == _END64:
                        fields = struct.unpack("<4sQ2H2L4Q", record)
                        entries, cd_size = fields[7], fields[8]
    return entries, cd_size


def _open(path: str) -> tuple[IO[bytes], int]:
    """The jar opened for reading (a regular file only, never blocking) and its size."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as e:
        problem = os_error_problem(e)
        raise _JarError(problem.code, problem.message) from None
    try:
        st = os.fstat(fd)
    except OSError as e:
        os.close(fd)
        raise _JarError("S1000", os_error_problem(e).message) from None
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise _JarError("S1003", f"not a regular file: it is {kind_of(st.st_mode)}")
    return os.fdopen(fd, "rb"), st.st_size


def _read_entry(zf: Any, info: Any, name: str, most: int | None = None) -> bytes:
    """The bytes of one entry, within ``most`` (default :data:`MAX_FILE_BYTES`) and the
    compression ratio, checked on the declared sizes and again on what inflating gives.
    Raises :class:`_JarError`."""
    most = MAX_FILE_BYTES if most is None else most
    _check_sizes(info.file_size, info.compress_size, name, most)
    limit = min(info.file_size, most)
    chunks: list[bytes] = []
    total = 0
    with zf.open(info) as fh:
        while True:
            chunk = fh.read(min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # more than declared: the reader trims to the declared size, but be sure
                _check_sizes(total, info.compress_size, name, most)
                raise _JarError("S1020", f"{name} inflates to more than the {info.file_size:,} bytes its entry declares")
    return b"".join(chunks)


def _check_sizes(size: int, compressed: int, name: str, most: int) -> None:
    if size > most:
        limit = f"{most >> 20} MiB" if most >= 1 << 20 and not most % (1 << 20) else f"{most:,} bytes"
        raise _JarError("S1025", f"{name} is {size:,} bytes uncompressed, more than the limit of {limit}")
    if size > RATIO_FLOOR and size > MAX_COMPRESSION_RATIO * max(compressed, 1):
        raise _JarError("S1026", f"{name} is compressed {size // max(compressed, 1):,} to 1 ({compressed:,} bytes "
                                 f"inflating to {size:,}), more than the limit of {MAX_COMPRESSION_RATIO} to 1: "
                                 "a zip bomb?")


def holds_manifest(path: str | os.PathLike) -> bool:
    """Whether the jar at ``path`` has a ``META-INF/smithy/manifest`` entry (a jar of models),
    looked up within the same limits as :func:`read_jar`. A jar that cannot be read, or is
    beyond the limits, counts as having one, so that reading it reports why."""
    import zipfile

    try:
        fh, size = _open(os.fspath(path))
    except _JarError:
        return True
    with fh:
        try:
            entries, cd_size = _directory_size(fh, size)
            if entries > MAX_JAR_ENTRIES or cd_size > MAX_JAR_DIRECTORY_BYTES:
                return True
            fh.seek(0)
            with zipfile.ZipFile(fh) as zf:
                zf.getinfo(MANIFEST)
                return True
        except KeyError:
            return False
        except Exception:  # noqa: BLE001 - see read_jar
            return True


def read_jar(path: str, diags: Diagnostics, budget: ReadBudget | None = None, *, span: Span | None = None,
             given: bool = True) -> list[tuple[str, str]]:
    """The models a jar's manifest lists, as ``(name, text)`` in the manifest's order.

    Args:
        path: the jar's path, as given or found (names of its models start with it).
        diags: where every problem goes (codes in the module documentation); nothing is
            raised for a bad jar.
        budget: the load's :class:`~smithy2cfn.load.files.ReadBudget`; the jar's entries and
            the uncompressed bytes of its models are counted in it, and reading stops when it
            is spent (the caller reports ``S1007``).
        span: where the jar is named (a ``smithy-build.json`` entry); default the jar itself.
        given: the jar was given as a model path or resolved from a Maven coordinate (a jar
            without a manifest is then a warning, else a note).

    Returns:
        ``(name, text)`` per model read, named by :func:`member_name`; JSON AST models end in
        ``.json``, IDL models in ``.smithy``, as the loader expects.

    Source: smithy-model ``ModelLoader.loadJar``, ``ModelDiscovery.findModels`` and
    ``parseManifest``.
    """
    import zipfile

    where = span or Span(path)
    budget = budget if budget is not None else ReadBudget()
    try:
        fh, size = _open(path)
    except _JarError as e:
        diags.error(e.code, f"cannot read jar {path}: {e.message}", where)
        return []
    with fh:
        try:
            entries, cd_size = _directory_size(fh, size)
            if entries > MAX_JAR_ENTRIES or cd_size > MAX_JAR_DIRECTORY_BYTES:
                raise _JarError("S1024", f"it declares {entries:,} entries in a directory of {cd_size:,} bytes, more "
                                         f"than the limit of {MAX_JAR_ENTRIES:,} entries or "
                                         f"{MAX_JAR_DIRECTORY_BYTES >> 20} MiB")
            fh.seek(0)
            zf = zipfile.ZipFile(fh)
        except _JarError as e:
            hint = ("a jar of models holds them and their manifest; give the model files themselves instead"
                    if e.code == "S1024" else "give a jar built with its models and a META-INF/smithy/manifest")
            diags.error(e.code, f"cannot read jar {path}: {e.message}", where, hint=hint)
            return []
        except Exception as e:  # noqa: BLE001 - zipfile raises a dozen types for a damaged archive
            diags.error("S1020", f"cannot read jar {path}: {_describe(e)}", where,
                        hint="give a jar built with its models and a META-INF/smithy/manifest")
            return []
        with zf:
            infos = zf.infolist()
            if len(infos) > MAX_JAR_ENTRIES:
                diags.error("S1024", f"cannot read jar {path}: it holds {len(infos):,} entries, more than the limit "
                                     f"of {MAX_JAR_ENTRIES:,}", where)
                return []
            if budget.visit(len(infos)):
                return []
            return _read_models(zf, path, infos, diags, budget, where, given)


def _describe(e: BaseException) -> str:
    text = str(e).strip()
    return text if text else type(e).__name__


def _read_models(zf: Any, path: str, infos: list, diags: Diagnostics, budget: ReadBudget, where: Span,
                 given: bool) -> list[tuple[str, str]]:
    counts = Counter(info.filename for info in infos)
    by_name = {info.filename: info for info in infos}
    manifest_name = member_name(path, MANIFEST)
    if MANIFEST not in by_name:
        diags.add("S1021", Severity.WARNING if given else Severity.NOTE,
                  f"jar {path} holds no {MANIFEST}: no model is read from it", where,
                  hint="a jar of Smithy models lists them in META-INF/smithy/manifest (the Smithy Gradle plugin "
                       "writes it); give the model files themselves otherwise")
        return []
    if counts[MANIFEST] > 1:
        diags.error("S1027", f"jar {path} holds {counts[MANIFEST]} entries named {MANIFEST}: which one is read "
                             "depends on the reader", where, hint="rebuild the jar")
        return []
    try:
        data = _read_entry(zf, by_name[MANIFEST], manifest_name, MAX_MANIFEST_BYTES)
    except _JarError as e:
        diags.error(e.code, f"cannot read {manifest_name}: {e.message}", where)
        return []
    except Exception as e:  # noqa: BLE001 - see read_jar
        diags.error("S1020", f"cannot read {manifest_name}: {_describe(e)}", where)
        return []
    text, bad = decode_utf8(data)
    if text is None:
        diags.error("S1002", "the file is not valid UTF-8", Span(manifest_name, *bad))
        return []
    models: list[tuple[str, str]] = []
    seen: set[str] = set()
    for number, line in enumerate(_LINE_BREAK.split(text), 1):
        if not line or line.startswith("#") or line in seen:
            continue
        seen.add(line)
        if len(seen) > MAX_JAR_ENTRIES:
            diags.error("S1024", f"the manifest lists more than {MAX_JAR_ENTRIES:,} files, more than a jar may hold: "
                                 "the rest are not read", Span(manifest_name, number, 1))
            break
        at = Span(manifest_name, number, 1, number, len(line) + 1)
        problem = manifest_line_problem(line)
        if problem:
            diags.error("S1022", f"manifest line {line!r} is not a model path inside the jar: {problem}", at,
                        hint="list paths relative to META-INF/smithy/, such as example.smithy or nested/example.json")
            continue
        entry = ROOT + line
        name = member_name(path, entry)
        model = _read_model(zf, by_name.get(entry), counts[entry], name, line, at, diags, budget)
        if budget.exhausted:
            return []
        if model is not None:
            models.append((name, model))
    return models


def _read_model(zf: Any, info: Any, count: int, name: str, line: str, at: Span, diags: Diagnostics,
                budget: ReadBudget) -> str | None:
    """The text of one listed model, or ``None`` with a diagnostic (located at its manifest line)."""
    if info is None or info.is_dir():
        diags.error("S1023", f"the manifest lists {line}, which the jar does not hold ({name})", at,
                    hint="rebuild the jar, or remove the line")
        return None
    if count > 1:
        diags.error("S1027", f"the jar holds {count} entries named {ROOT + line}: which one is read depends on the "
                             "reader", at, hint="rebuild the jar")
        return None
    if not line.endswith((".smithy", ".json")):
        what = "another jar (a jar inside a jar is not read)" if line.endswith(".jar") else "not a model file"
        diags.error("S1023", f"the manifest lists {line}, which is {what}", at,
                    hint="list only .smithy and JSON AST .json files")
        return None
    if budget.spend(info.file_size):
        return None
    try:
        data = _read_entry(zf, info, name)
    except _JarError as e:
        diags.error(e.code, f"cannot read {name}: {e.message}", at)
        return None
    except Exception as e:  # noqa: BLE001 - see read_jar
        diags.error("S1020", f"cannot read {name}: {_describe(e)}", at)
        return None
    text, bad = decode_utf8(data)
    if text is None:
        diags.error("S1002", "the file is not valid UTF-8", Span(name, *bad))
        return None
    if line.endswith(".json") and not is_json_ast(text):
        diags.error("S1023", f"the manifest lists {line}, which is not a Smithy JSON AST model (no \"smithy\" "
                             "version at its top)", at, hint="list only .smithy and JSON AST .json files")
        return None
    return text


__all__ = ["MANIFEST", "MAX_COMPRESSION_RATIO", "MAX_JAR_DIRECTORY_BYTES", "MAX_JAR_ENTRIES", "MAX_MANIFEST_BYTES",
           "RATIO_FLOOR",
           "holds_manifest", "manifest_line_problem", "member_name", "read_jar"]
