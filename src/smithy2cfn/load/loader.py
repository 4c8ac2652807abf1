"""The loader: files → :class:`SourceDocument` s → one :class:`Model`.

Follows the reference model assembler (Smithy 2.0 "Model", "Mixins", "IDL" §"Relative shape
ID resolution", "JSON AST", and "IDL 1.0 → 2.0 upgrade" as the reference does it):

1. discover files (a directory means every ``.smithy`` and ``.json`` model and every jar
   under it, symbolic links followed, loops and unreadable folders reported, the walk
   bounded; a jar means the models its ``META-INF/smithy/manifest`` lists:
   :mod:`smithy2cfn.load.jars`);
2. read each file, bounded (:mod:`smithy2cfn.load.files`: regular files of at most 256 MiB):
   IDL through :mod:`smithy2cfn.parse`, JSON AST through :mod:`smithy2cfn.model.json_ast`
   (strict JSON, structure checked); IDL files are lowered once the IDs of every shape in
   every file are known, so that forward references across files resolve; large IDL files
   are parsed in parts, and several files at a time, by this process and a forked helper
   (:mod:`smithy2cfn.parallel`, the program only: :func:`_read_all`), while this process reads
   the JSON AST files;
3. merge the documents with the prelude and the trait packages they name
   (:func:`select_packages`): duplicate shapes, metadata;
4. build shapes in mixin order (:mod:`graphlib`; the model keeps definition order): mixin
   members and traits first, then local ones, then ``apply``; elided members; enum values;
5. upgrade IDL 1.0 documents (box semantics → ``@default``);
6. coerce annotation trait values and report unknown traits (errors, or warnings when
   allowed) and unresolved shape references (errors, with a "did you mean" hint).

Every problem is a diagnostic; nothing here raises on bad input: the assembler checks the
type of every raw value it reads (IDL-lowered documents may hold anything a node value can).
"""

from __future__ import annotations

import functools
import graphlib
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType

from smithy2cfn import garbage_collection, parallel
from smithy2cfn.diagnostics import (
    Code,
    DeferredSpans,
    Diagnostic,
    Diagnostics,
    Severity,
    Span,
    declare_codes,
    listed,
)
from smithy2cfn.load.files import (
    MAX_FILE_BYTES,
    ReadBudget,
    decode_utf8,
    is_json_ast,
    kind_of,
    os_error_problem,
    read_bytes,
)
from smithy2cfn.model.document import ANNOTATION, ApplyStatement, SourceDocument, members_where
from smithy2cfn.model.json_ast import read_json_ast
from smithy2cfn.model.jsonread import is_escaped
from smithy2cfn.model.nodes import as_array, as_object, node_type, string_items
from smithy2cfn.model.shapes import (
    AGGREGATE_TYPES,
    ALL_TYPES,
    LIFECYCLE_OPERATIONS,
    Member,
    Model,
    Shape,
    ShapeId,
)
from smithy2cfn.model.traits import (
    AUTH,
    AUTH_DEFINITION,
    BOX,
    DEFAULT,
    ENUM_VALUE,
    EXTERNAL_DOCUMENTATION,
    MIXIN,
    PRIVATE,
    PROTOCOL_DEFINITION,
    REFERENCES,
    REQUIRED,
    STREAMING,
    TRAIT,
    UNIT,
)
from smithy2cfn.prelude import PRELUDE_NAMESPACE, idiomatic, package_namespace, prelude_files
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S1006", Severity.ERROR, None, "a folder under a model folder cannot be listed"),
    Code("S2001", Severity.ERROR, "Target",
         "a shape reference does not resolve (with a \"did you mean\" hint)"),
    Code("S2002", Severity.ERROR, "Model", "a shape is defined twice (or redefines a built-in shape)"),
    Code("S2003", Severity.ERROR, "Model", "`apply` targets a shape or member that does not exist, or a prelude shape"),
    Code("S2004", Severity.ERROR, "Model", "unknown shape type"),
    Code("S2005", Severity.ERROR, "Model", "conflicting metadata values"),
    Code("S2006", Severity.ERROR, "Model", "malformed shape entry (member without target, bad reference)"),
    Code("S2010", Severity.ERROR, "Model.UnresolvedTrait",
         "unknown trait (no definition loaded), reported once; a warning and kept as is with "
         "--allow-unknown-traits"),
    Code("S2011", Severity.ERROR, "Model", "a shape applied as a trait is not a trait definition"),
    Code("S2012", Severity.ERROR, "Model", "a built-in trait needs a value"),
    Code("S2013", Severity.ERROR, "Model", "two different values for one trait"),
    Code("S2020", Severity.ERROR, "Model", "mixin cycle (reported on every shape on it)"),
    Code("S2021", Severity.ERROR, "Model", "mixin without `@mixin`, or of another shape type"),
    Code("S2022", Severity.ERROR, "Model", "member conflicts with an inherited mixin member"),
    Code("S2023", Severity.ERROR, "Model", "`for` names a shape that is not a resource"),
    Code("S2024", Severity.ERROR, "Model",
         "elided member matches no resource identifier/property or mixin member"),
    Code("S2026", Severity.ERROR, "Model", "`@box` in an IDL 2.0 model"),
    Code("S2029", Severity.ERROR, "Model",
         "mixins would copy more members and traits into shapes than the model may hold (see Limits); the "
         "shapes after the one reported are not built"),
    Code("S2027", Severity.DANGER, "PrivateAccess",
         "a structure is `for` a `@private` resource of another namespace"),
    Code("S3032", Severity.ERROR, "Model", "enum / intEnum without members"),
    Code("S3041", Severity.ERROR, "Model", "list / map without its required members"),
    Code("S3101", Severity.NOTE, "Model.IgnoredDuplicateDefinition",
         "a shape defined again the same way (its traits merge): the definition is ignored"),
    Code("S3102", Severity.ERROR, "Target", "a mixin that has no `@mixin` trait"),
    Code("S3103", Severity.ERROR, "Model",
         "a mixin that is not defined, or cannot be built (the shape cannot be built either)"),
    Code("S3104", Severity.ERROR, "Model", "`@default` in an IDL 1.0 model"),
    Code("S3106", Severity.ERROR, "Model",
         "a built-in trait's value cannot be read: the wrong JSON type for the trait's shape, a member its "
         "reference class expects missing, an invalid shape ID, an `externalDocumentation` value that is not"
         " a URL"),
)

#: Mixins copy members and traits into the shapes that use them (every shape holds the members
#: of all its mixins, as in the reference), so a small file can expand to much more: a
#: 2,000-level chain of mixins adding one member each makes 2 million members from 105 KB.
#: Loading stops (error ``S2029``) before the copies pass this many, or
#: :data:`MIXIN_COPIES_PER_ELEMENT` per shape, member and trait the model declares when that
#: is more (README "Limits"). The most of any real model measured: 554 copies, 1.5 per
#: element declared (the reference's AWS protocol tests; AWS models ship flattened).
MAX_MIXIN_COPIES = 50_000
#: See :data:`MAX_MIXIN_COPIES`.
MIXIN_COPIES_PER_ELEMENT = 25

_NUMERIC_BOOL = {"byte": 0, "short": 0, "integer": 0, "long": 0, "float": 0, "double": 0, "boolean": False}


# --------------------------------------------------------------------------- discovery

_MODEL_SUFFIXES = (".smithy", ".json", ".jar")


def discover(paths: Iterable[str], diags: Diagnostics, _texts: dict[str, str] | None = None, *,
             spans: Mapping[str, Span] | None = None) -> list[Path]:
    """Expand files, folders and jars into the model files to load, in a stable order.

    Args:
        paths: files, folders or ``.jar`` files as given by the user (command line,
            ``sources``, ``imports``, jars resolved from Maven coordinates).
        diags: receives errors for paths that cannot be used: ``S1000`` does not exist,
            ``S1003`` not a regular file or folder (a FIFO, a device...), ``S1005`` cannot be
            resolved (name too long, symbolic link loop), ``S1006`` a folder under a given
            one cannot be listed, ``S1007`` a path holds more than a build reads (the caps
            of :class:`~smithy2cfn.load.files.ReadBudget`; nothing of that path is loaded,
            nor of the paths after it when the whole load's cap is passed); ``S1003``
            warnings for model-named entries of a folder that are not regular files (FIFOs,
            broken symbolic links), which are skipped; a jar's problems
            (:mod:`smithy2cfn.load.jars`).
        _texts: receives the text of the files already read here (JSON files checked for a
            ``smithy`` key, every model read from a jar), by name; a caller that reads the
            returned files passes it, and takes a file's text from it when there.
        spans: where each path is written (a ``smithy-build.json`` entry), to locate that
            path's diagnostics there; default the path itself.

    Returns:
        Files: each given file as is; for a jar, its models (named
        ``<jar>!/META-INF/smithy/<file>``, their text in ``_texts``); for a folder, every
        ``*.smithy`` file, every ``*.json`` file that is a Smithy JSON AST model (an object
        with a ``smithy`` key; other JSON, such as schemas a previous build wrote, is ignored
        as the reference's assembler ignores it) and the models of every ``*.jar`` under it,
        in sorted order. As the reference's ``Files.walk(FOLLOW_LINKS)``, hidden files and
        folders are walked too and symbolic links followed (a link back to a folder being
        walked is an ``S1005`` error, as there); other files are ignored.

    Source: smithy-model ``ModelAssembler.addImport(Path)`` and ``ModelLoader.load``.
    """
    out: list[Path] = []
    seen: set[str] = set()
    texts = _texts if _texts is not None else {}
    budget = ReadBudget()
    for raw in paths:
        where = (spans or {}).get(raw) or Span(str(raw))
        p = Path(raw)
        try:
            st = os.stat(p)
        except (OSError, ValueError) as e:
            problem = os_error_problem(e)
            if problem.code == "S1000" and problem.message == "no such file or directory":
                diags.error("S1000", f"no such file or directory: {raw}", where)
            else:
                diags.error(problem.code, f"cannot use {raw}: {problem.message}", where)
            continue
        budget.start()
        found: list[tuple[Path, str]] = []
        if stat.S_ISDIR(st.st_mode):
            for f, size in _walk(p, st, diags, budget):
                found.extend(_models_of(f, size, diags, texts, budget, given=False))
                if budget.exhausted:
                    break
        elif stat.S_ISREG(st.st_mode):
            found = _models_of(p, st.st_size, diags, texts, budget, given=True, span=where)
        else:
            diags.error("S1003", f"{raw} is not a model file or folder: it is {kind_of(st.st_mode)}",
                        where, hint="give .smithy or .json files, jars, or folders holding them")
            continue
        if budget.exhausted:
            hint = ("give the folders that hold the models (such as model/), not a parent of the project"
                    if stat.S_ISDIR(st.st_mode) else "split the models into smaller jars, or give them as files")
            later = "; the model paths after it are not read either" if budget.spent else ""
            diags.error("S1007", f"{raw} is not read: {budget.exhausted}{later} (see README \"Limits\")", where,
                        hint=hint)
            if budget.spent:
                break
            continue
        for f, key in found:
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out


def _models_of(f: Path, size: int, diags: Diagnostics, texts: dict[str, str], budget: ReadBudget, *,
               given: bool, span: Span | None = None) -> list[tuple[Path, str]]:
    """The models of one file, each with the key it is told from others by (its real path;
    for a jar's models, the jar's real path and the entry). A file given by the user is a
    model whatever its name, except a ``.jar``; a ``.json`` file found in a folder is one when
    it is a JSON AST. Counts the bytes in ``budget``."""
    if f.suffix == ".jar":
        from smithy2cfn.load.jars import read_jar

        jar = str(f)
        real = os.path.realpath(f)
        found = []
        for name, text in read_jar(jar, diags, budget, span=span, given=given):
            texts[name] = text
            found.append((Path(name), real + name[len(jar):]))
        return found
    if budget.spend(size if size <= MAX_FILE_BYTES else 0):  # a larger file is refused unread (S1004)
        return []
    if given or f.suffix == ".smithy" or _is_json_ast(f, texts):
        return [(f, os.path.realpath(f))]
    return []


def _walk(root: Path, root_stat: os.stat_result, diags: Diagnostics, budget: ReadBudget) -> list[tuple[Path, int]]:
    """The ``.smithy``/``.json``/``.jar`` regular files under ``root`` and their sizes,
    sorted, following symbolic links; every name listed counts in ``budget`` (an empty list
    once it is spent); problems are reported, never raised. An entry is looked at (``stat``)
    only when it is a folder, a link or model-named: the file type ``scandir`` gives is
    enough to pass over the other files (most of a project's files)."""
    found: list[tuple[Path, int]] = []
    visited = {(root_stat.st_dev, root_stat.st_ino)}
    # Folders as text (``DirEntry.path``): a Path per entry would cost more than the listing.
    stack: list[tuple[str, tuple[tuple[int, int], ...]]] = [(str(root), ((root_stat.st_dev, root_stat.st_ino),))]
    while stack:
        folder, ancestors = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=_entry_name)
        except OSError as e:
            diags.error("S1006", f"cannot list folder {folder}: {os_error_problem(e).message}", Span(folder),
                        hint="model files under it are not loaded; fix its permissions or leave it out")
            continue
        if budget.visit(len(entries)):
            return []
        for entry in entries:
            name = entry.name
            dot = name.rfind(".")
            model = 0 < dot < len(name) - 1 and name[dot:] in _MODEL_SUFFIXES  # Path.suffix
            try:
                if entry.is_symlink():
                    st = os.stat(entry.path)
                elif model or entry.is_dir(follow_symlinks=False):
                    st = entry.stat(follow_symlinks=False)
                else:
                    continue
            except OSError as e:
                p = entry.path
                problem = os_error_problem(e)
                if problem.code == "S1005":
                    diags.error("S1005", f"cannot follow {p}: {problem.message}", Span(p))
                elif model:
                    broken = " (a broken symbolic link)" if os.path.islink(p) else ""
                    diags.warning("S1003", f"skipped {p}{broken}: {problem.message}", Span(p))
                continue
            if stat.S_ISDIR(st.st_mode):
                p = entry.path
                key = (st.st_dev, st.st_ino)
                if key in ancestors:
                    diags.error("S1005", f"symbolic link loop: {p} leads back to a folder that contains it",
                                Span(p), hint="remove the link, or give the folders separately")
                elif key not in visited:
                    visited.add(key)
                    stack.append((p, (*ancestors, key)))
            elif model:
                p = entry.path
                if stat.S_ISREG(st.st_mode):
                    found.append((Path(p), st.st_size))
                else:
                    diags.warning("S1003", f"skipped {p}: not a regular file (it is {kind_of(st.st_mode)})",
                                  Span(p))
    return sorted(found)


def _entry_name(entry: os.DirEntry) -> str:
    return entry.name


def _is_json_ast(path: Path, texts: dict[str, str]) -> bool:
    """True when ``path`` holds a JSON AST (:func:`~smithy2cfn.load.files.is_json_ast`), or
    cannot be read or checked (so that reading it later reports the problem). Keeps the text
    in ``texts``."""
    data, problem = read_bytes(path)
    if data is None:
        return True
    text, _ = decode_utf8(data)
    if text is None:
        return True
    if is_json_ast(text):
        texts[str(path)] = text
        return True
    return False


def _read_text(path: Path, diags: Diagnostics, texts: dict[str, str] | None = None) -> str | None:
    """The UTF-8 text of a model file (bounded, regular files only), or ``None`` with a
    diagnostic (``S1000``, ``S1002``-``S1005``)."""
    if texts and str(path) in texts:
        return texts.pop(str(path))
    data, problem = read_bytes(path)
    if data is None:
        diags.error(problem.code, f"cannot read {path}: {problem.message}", Span(str(path)))
        return None
    text, where = decode_utf8(data)
    if text is None:
        diags.error("S1002", "the file is not valid UTF-8", Span(str(path), *where))
    return text


# --------------------------------------------------------------------------- prelude

@functools.cache
def _prelude_documents() -> tuple[SourceDocument, ...]:
    """Our prelude and trait packages, lowered once per process: from the JSON shipped with
    the package when it is current, else from source (:mod:`smithy2cfn.load.prelude_data`).
    Nothing is cached outside the package."""
    from smithy2cfn.load.prelude_data import prelude_documents

    return prelude_documents()


@functools.cache
def _package_closures() -> dict[str, frozenset[str]]:
    """Trait package namespace → the packages it needs: itself, ``smithy.api``, and every
    package whose shapes its own refer to (``aws.protocols`` applies
    ``smithy.protocols#traitValidators``...), transitively: a package refers to another's
    shape by writing its absolute shape ID, ``ns#Name``. Computed once per process from the
    packages' source text (:func:`smithy2cfn.prelude.prelude_files`)."""
    sources = {package_namespace(name): text for name, text in prelude_files()}
    names = list(sources)
    direct = {ns: {other for other in names if other != ns and other + "#" in text} for ns, text in sources.items()}
    closures: dict[str, frozenset[str]] = {}
    for ns in names:
        seen, todo = {ns, PRELUDE_NAMESPACE}, [ns]
        while todo:
            for other in direct[todo.pop()]:
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        closures[ns] = frozenset(seen)
    return closures


#: Text that may spell a namespace without writing it: an escape that JSON or an IDL string
#: turns into a character a namespace can hold (``aws\u002eapi``: a dot, a letter, or another
#: character of ``U+0040``–``U+007F``; an escape of any other character, ``\u2019`` or
#: ``\u0020``, spells none), or an escaped line break inside an IDL string; an escape only
#: when its backslash is not itself escaped (:func:`_spells_namespace`).
_SPELLING_ESCAPE = lazy(r"\\(?:u00(?:2[eE]|[4-7][0-9a-fA-F])|\r|\n)")
#: Validators whose result depends on every shape of the model, built-in ones included:
#: ``EmitNoneSelector`` emits when its selector matches nothing at all.
_WHOLE_MODEL_VALIDATORS = ("EmitNoneSelector",)


def _spells_namespace(text: str) -> bool:
    """Whether ``text`` holds an escape of :data:`_SPELLING_ESCAPE` whose backslash is not
    itself escaped (an even run of backslashes before it, none included: ``\\\\u0041`` in
    JSON is a backslash and ``u0041``, which spells nothing), in JSON and IDL strings alike.
    Linear (:func:`~smithy2cfn.model.jsonread.is_escaped` at each escape). (Counting the
    escaped ones too made glue's and securityhub's patterns, ``[\\\\u0020-\\\\u007E]``,
    load every package and run every package's validators.)"""
    return any(not is_escaped(text, m.start()) for m in _SPELLING_ESCAPE.finditer(text))


def select_packages(texts: Iterable[str]) -> frozenset[str]:
    """The trait packages a model made of ``texts`` (its files' text) needs: ``smithy.api``
    always, and each other package whose namespace the text names, with the packages those
    need (:func:`_package_closures`).

    A shape of a trait package can only be referred to by its absolute shape ID (relative
    IDs fall back to ``smithy.api`` alone: Smithy 2.0 IDL §"Relative shape ID resolution"),
    so a model that never writes ``aws.api`` applies no ``aws.api`` trait and targets no
    ``aws.api`` shape, and loading that package (and running its validators) would change
    nothing but the time taken: the reference loads every package on its class path; we
    load the ones a model can see. Text with an escape that could spell a namespace
    (``aws\\u002eapi`` in a JSON string), or that configures a validator whose result
    depends on every shape (:data:`_WHOLE_MODEL_VALIDATORS`), loads every package. The
    test is on raw text, so a namespace named only in a comment or documentation loads its
    package too (harmlessly).

    Returns:
        Package namespaces, e.g. ``frozenset({"smithy.api", "aws.cloudformation"})``.
    """
    closures = _package_closures()
    texts = list(texts)
    if any(_spells_namespace(text) or any(marker in text for marker in _WHOLE_MODEL_VALIDATORS)
           for text in texts):
        return frozenset(closures)
    wanted: set[str] = {PRELUDE_NAMESPACE}
    for ns in _named(texts, [ns for ns in closures if ns != PRELUDE_NAMESPACE]):
        wanted |= closures[ns]
    return frozenset(wanted)


#: Texts shorter than this (characters, all together) are searched for each namespace in turn
#: by :func:`_named` (16 scans of 64 KB take about as long as compiling its two expressions).
_SCANNED_BELOW = 1 << 16


def _named(texts: list[str], namespaces: list[str]) -> set[str]:
    """The ``namespaces`` that occur in one of ``texts``, as ``ns in text`` finds them: for
    each head (``aws.``, ``smithy.``), a regular expression scans each text once for the head
    followed by one of the rests not found yet (:func:`_head_pattern`), rather than a scan per
    namespace, most of which read the whole text to find nothing (SageMaker's 3.3 MB: 8 ms
    against 19). A head cannot overlap itself (it ends at its only dot), so no occurrence is
    missed. Texts of less than :data:`_SCANNED_BELOW` characters in all are searched
    namespace by namespace (compiling the expressions would cost more)."""
    small = sum(map(len, texts)) < _SCANNED_BELOW
    plain: list[str] = []  # (also a namespace without a rest after its dot: no package is named so)
    heads: dict[str, list[str]] = {}
    for ns in namespaces:
        head, _, rest = ns.partition(".")
        if small or not rest:
            plain.append(ns)
        else:
            heads.setdefault(head + ".", []).append(rest)
    found = {ns for ns in plain if any(ns in text for text in texts)}
    for head, rests in heads.items():
        left = set(rests)
        for text in texts:
            at = 0
            pattern = None  # (of the rests left when it was made; made again only when one found is caught again)
            # (two searches per rest found at most: a text naming one namespace a million times costs one scan)
            while left:
                if pattern is None:
                    pattern = _head_pattern(head, tuple(sorted(left)))
                m = pattern.search(text, at)
                if m is None:
                    break
                # the rests the caught one begins with occur there too: "aws.apigateway" holds "aws.api"
                caught = {rest for rest in left if m.group(1).startswith(rest)}
                if caught:
                    left -= caught
                else:
                    pattern = None
                at = m.end()
        found.update(head + rest for rest in rests if rest not in left)
    return found


@functools.lru_cache(maxsize=64)
def _head_pattern(head: str, rests: tuple[str, ...]) -> re.Pattern[str]:
    """``head`` followed by one of ``rests`` (the rest caught, not consumed); the longest
    first, so that the one caught at an occurrence begins with every other rest there."""
    return re.compile(re.escape(head) + "(?=(" + "|".join(sorted(map(re.escape, rests), key=len, reverse=True)) + "))")


@functools.cache
def _package_traits() -> dict[str, list[str]]:
    """Trait name → the IDs of the built-in traits (every package's, loaded or not) with
    that name, for the hint of an unknown trait (``cfnResource`` →
    ``["aws.cloudformation#cfnResource"]``)."""
    found: dict[str, list[str]] = {}
    for doc in _prelude_documents():
        for shape_id, body in as_object(doc.ast.get("shapes")).items():
            if isinstance(body, dict) and TRAIT in as_object(body.get("traits")):
                found.setdefault(ShapeId.name(shape_id), []).append(shape_id)
    return found


def _prelude_of(packages: frozenset[str]) -> list[SourceDocument]:
    """The prelude documents of ``packages`` (trait package namespaces: :func:`select_packages`),
    the others not even read (:func:`smithy2cfn.load.prelude_data.documents_of`)."""
    from smithy2cfn.load.prelude_data import documents_of

    return documents_of(lambda path: package_namespace(path) in packages)


# --------------------------------------------------------------------------- reading

def read_sources(sources: Iterable[tuple[str, str]], diags: Diagnostics,
                 extra_known: set[str] = frozenset()) -> list[SourceDocument]:
    """Turn ``(path, text)`` sources into :class:`SourceDocument` s, in order.

    A path ending in ``.json`` is a JSON AST file, anything else IDL. Every IDL file is
    parsed first and lowered only once the IDs of every shape in every source (and
    ``extra_known``, the prelude's) are known, so forward references across files resolve
    (Smithy 2.0 IDL §"Relative shape ID resolution"). Problems land in ``diags``.
    """
    return _lower_all(_read_all(list(sources)), diags, extra_known)


def _lower_all(read: list[Any], diags: Diagnostics, extra_known: set[str]) -> list[SourceDocument]:
    """:func:`read_sources` after the reading: the reading's diagnostics, then each IDL file
    lowered (``read``: what :func:`_read_all` gives)."""
    for item in read:
        diags.extend(item.diagnostics)
    if all(isinstance(item, SourceDocument) for item in read):
        return read  # (JSON AST files alone: nothing to lower, the IDL front end not imported)
    from smithy2cfn.parse.lower import lower_idl

    known: set[str] = set(extra_known)
    for item in read:
        if isinstance(item, SourceDocument):
            known |= set(item.ast.get("shapes", {}))
        else:
            known |= item.defined_shape_ids()
    docs: list[SourceDocument] = []
    for item in read:
        if not isinstance(item, SourceDocument):
            item = lower_idl(item, known)
            diags.extend(item.diagnostics)
        docs.append(item)
    return docs


#: IDL files of at least this many characters in all are parsed partly by a helper process
#: when :mod:`smithy2cfn.parallel` may fork: sending a parsed file back costs about a fifth
#: of parsing it, so two large files take about 0.6 of the time. JSON AST files are read by
#: this process meanwhile: reading one costs about three times :func:`json.loads`, less than
#: sending it back would (its spans inside shapes are found when read:
#: :meth:`~smithy2cfn.diagnostics.Span.deferred`).
SHARED_FROM_CHARACTERS = 256 * 1024
#: The size of the parts a large IDL file is parsed in, when its parts are shared with a
#: helper process (:func:`smithy2cfn.parse.idl.split_idl`; a file of less than two parts is
#: one piece): several parts each, so that neither process waits long for the other.
PART_CHARACTERS = 160 * 1024
#: The most parts a file is parsed in (larger parts for a file of more than 10 MB): each
#: part holds a line break for each line before it (so that its positions are the file's),
#: so that cost grows with the square of the file's size when the parts are all of one size.
MAX_PARTS = 64


def shares_idl_parsing(sources: list[tuple[str, str]]) -> bool:
    """Whether the IDL files of ``sources`` (``(path, text)``; every path not ending in
    ``.json``) hold :data:`SHARED_FROM_CHARACTERS` or more in all: enough that their parsing
    is shared with a helper process when :mod:`smithy2cfn.parallel` may fork."""
    return sum(len(text) for path, text in sources if not path.endswith(".json")) >= SHARED_FROM_CHARACTERS


def _read_all(sources: list[tuple[str, str]], meanwhile: Callable[[], object] | None = None) -> list[Any]:
    """:func:`_read_source` of each source, in order: the IDL files shared with a helper
    process when there is enough to parse and :mod:`smithy2cfn.parallel` may fork, a large
    one in parts (when its parts cannot be joined, this process parses it whole), while this
    process does ``meanwhile`` (see :func:`smithy2cfn.parallel.run_shared`; not called when
    nothing is shared), then reads the JSON AST files."""
    if not shares_idl_parsing(sources) or not parallel.available():
        return [_read_source(source) for source in sources]
    idl = [n for n, (path, _) in enumerate(sources) if not path.endswith(".json")]
    from smithy2cfn.parse.idl import join_idl_parts, split_idl
    from smithy2cfn.parse.syntax import get_parser

    get_parser()  # (the parser tables, read once before the fork instead of in each process)
    pieces: list[tuple[int, tuple[str, str], tuple[int, ...] | None]] = []
    for n in idl:
        path, text = sources[n]
        parts = split_idl(text, max(PART_CHARACTERS, len(text) // MAX_PARTS + 1)) \
            if len(text) >= 2 * PART_CHARACTERS else None
        pieces += [(n, (path, text), part) for part in parts] if parts else [(n, (path, text), None)]
    out: dict[int, Any] = {}

    def read_json() -> None:
        for n, source in enumerate(sources):
            if n not in out and source[0].endswith(".json"):
                out[n] = _read_source(source)

    def first() -> None:
        if meanwhile is not None:
            meanwhile()
        read_json()
    read = parallel.run_shared(pieces, _read_piece, first)
    read_json()  # (those first did not read: it is not called when nothing was shared, and may raise)
    for n in idl:
        done = [item for (m, _, _), item in zip(pieces, read, strict=True) if m == n]
        if len(done) == 1:
            out[n] = done[0]
        else:
            joined = join_idl_parts(done)
            out[n] = joined if joined is not None else _read_source(sources[n])
    return [out[n] for n in range(len(sources))]


def _read_piece(piece: tuple[int, tuple[str, str], tuple[int, ...] | None]) -> Any:
    """One piece of :func:`_read_all`: an IDL source parsed whole, or a part of one."""
    from smithy2cfn.parse.idl import parse_idl_part

    _, (path, text), part = piece
    return _read_source((path, text)) if part is None else parse_idl_part(text, path, *part)


def _read_source(source: tuple[str, str]) -> Any:
    """One source parsed: a JSON AST :class:`SourceDocument`, or an IDL file not lowered yet."""
    path, text = source
    if path.endswith(".json"):
        return read_json_ast(text, path)
    from smithy2cfn.parse.idl import parse_idl  # (not for a model of JSON AST files alone)

    return parse_idl(text, path)


def read_documents(files: list[Path], diags: Diagnostics, extra_known: set[str] = frozenset(),
                   _texts: dict[str, str] | None = None) -> list[SourceDocument]:
    """Read files (UTF-8, bounded: see :mod:`smithy2cfn.load.files`) and turn them into
    documents with :func:`read_sources`."""
    texts = ((str(f), text) for f in files if (text := _read_text(f, diags, _texts)) is not None)
    return read_sources(texts, diags, extra_known)


def _prelude_ids(prelude_docs: list[SourceDocument]) -> set[str]:
    known: set[str] = set()
    for d in prelude_docs:
        known |= set(d.ast["shapes"])
    return known


@garbage_collection.paused(promote=True)  # see smithy2cfn.garbage_collection
def load_model(paths: Iterable[str], diags: Diagnostics, *, prelude: bool = True,
               allow_unknown_traits: bool = False, spans: Mapping[str, Span] | None = None,
               meanwhile: Callable[[frozenset[str]], object] | None = None) -> Model:
    """Load model files and directories into one :class:`Model`.

    Args:
        paths: ``.smithy`` / ``.json`` files, jars or directories (:func:`discover`).
        diags: receives every problem found (never raises on bad input).
        prelude: include our ``smithy.api`` prelude and the trait packages the model
            names (:func:`select_packages`).
        allow_unknown_traits: an applied trait that no loaded shape defines is a warning
            (kept as is) instead of an error (``S2010``; the reference's
            ``ModelAssembler.ALLOW_UNKNOWN_TRAITS``, the Smithy CLI's
            ``--allow-unknown-traits``).
        spans: where each path is written, to locate its diagnostics there (:func:`discover`).
        meanwhile: work for later stages (imports...), given the trait packages the model
            loads (:func:`select_packages`), done while a helper process reads the files
            (:mod:`smithy2cfn.parallel`; not done when nothing is shared).

    Returns:
        The model (possibly partial when ``diags.has_errors``).
    """
    return _load_sources(read_model_files(paths, diags, spans=spans), diags, prelude, allow_unknown_traits,
                         meanwhile)


def read_model_files(paths: Iterable[str], diags: Diagnostics, *, spans: Mapping[str, Span] | None = None
                     ) -> list[tuple[str, str]]:
    """The model files of ``paths`` (:func:`discover`) and their text, ``(path, text)`` in
    the order :func:`load_model` loads them; what :func:`load_texts` takes. A file that
    cannot be read is left out after its diagnostic (bounded UTF-8 reads:
    :mod:`smithy2cfn.load.files`). Never raises on bad input."""
    texts: dict[str, str] = {}
    return [(str(f), text) for f in discover(paths, diags, texts, spans=spans)
            if (text := _read_text(f, diags, texts)) is not None]


@garbage_collection.paused(promote=True)  # see smithy2cfn.garbage_collection
def load_texts(sources: Iterable[tuple[str, str]], diags: Diagnostics, *, prelude: bool = True,
               allow_unknown_traits: bool = False, meanwhile: Callable[[frozenset[str]], object] | None = None,
               packages: Callable[[], object] | None = None) -> Model:
    """Load in-memory sources ``(path, text)``; the path's suffix picks IDL or JSON AST
    (the keywords as for :func:`load_model`). ``packages``: where the trait packages of
    ``sources`` (:func:`select_packages`) may be known already, asked once when they are
    needed, after the sources are read; what it gives is used only when it is a frozenset
    of strings (``None``: not known, they are selected here). A helper process that loads
    the same sources tells them (:func:`smithy2cfn.validation.start_helper`): selecting them
    reads SageMaker's 3.3 MB several times, 7 to 10 ms of each process's loading."""
    return _load_sources(list(sources), diags, prelude, allow_unknown_traits, meanwhile, packages)


def _load_sources(sources: list[tuple[str, str]], diags: Diagnostics, prelude: bool, allow_unknown_traits: bool,
                  meanwhile: Callable[[frozenset[str]], object] | None,
                  given: Callable[[], object] | None = None) -> Model:
    """:func:`load_model` of sources read already. While a helper process reads the
    sources (:func:`_read_all`), this process reads the prelude documents and does
    ``meanwhile`` with the trait packages the model loads (``given``: see
    :func:`load_texts`'s ``packages``)."""
    @functools.cache  # (asked when first needed, so that a helper has had time to tell them)
    def packages() -> frozenset[str]:
        if not prelude:
            return frozenset()
        known = given() if given is not None else None
        if type(known) is frozenset and all(type(ns) is str for ns in known):
            return known
        return select_packages(text for _, text in sources)

    def prepare() -> None:
        if prelude:
            _prelude_of(packages())
        if meanwhile is not None:
            meanwhile(packages())
    read = _read_all(sources, prepare)
    prelude_docs = _prelude_of(packages()) if prelude else []
    docs = _lower_all(read, diags, _prelude_ids(prelude_docs))
    return assemble(prelude_docs, docs, diags, allow_unknown_traits=allow_unknown_traits)


# --------------------------------------------------------------------------- assembly

#: How many shape names the "did you mean" hints of one load compare a missing name with, in
#: all (``_Assembler.suggest``; a comparison takes a few microseconds): thousands of references
#: to undefined shapes in a model of thousands of shapes took minutes (the work grew as their
#: product); now at most a fifth of a second, whatever the model.
SUGGESTION_BUDGET = 100_000

_NO_SPAN: Any = object()  # (a key missing from a document's spans)
_NO_SPANS: Mapping[str, Span] = MappingProxyType({})  # (an owner without trait spans in its document)


def _owner_trait_spans(doc: SourceDocument, owner: str) -> Mapping[str, Span]:
    """Where each trait written on ``owner`` is in ``doc``
    (:meth:`SourceDocument.trait_spans_of`), else an empty mapping."""
    spans = doc.trait_spans_of(owner)
    return _NO_SPANS if spans is None else spans


#: The types whose members are written as properties of their entry (``member``, ``key``,
#: ``value``), not in a ``members`` object.
_LISTS_AND_MAPS = frozenset({"list", "set", "map"})


class _Assembler:
    """One assembly run; holds the raw shape bodies and builds :class:`Shape` objects."""

    def __init__(self, diags: Diagnostics, allow_unknown_traits: bool = False) -> None:
        self.diags = diags
        self.allow_unknown_traits = allow_unknown_traits
        self.raw: dict[str, dict] = {}
        self.raw_doc: dict[str, SourceDocument] = {}
        self.prelude_ids: set[str] = set()
        self.applies: list[tuple[ApplyStatement, SourceDocument]] = []
        self.metadata: dict[str, Any] = {}
        self.metadata_span: dict[str, Span] = {}
        self.model = Model()
        #: for suggest: (shape name → ID, lower-case name → ID), the hint of each name
        #: looked for, and the names compared so far
        self._names: tuple[dict[str, str], dict[str, str]] | None = None
        self._suggested: dict[str, str | None] = {}
        self._suggestions_spent = 0
        self._trait_shapes: dict[str, bool] = {}  # see is_trait_shape

    # ---- helpers
    def span_of(self, shape_id: str) -> Span | None:
        root = shape_id.split("$", 1)[0] if "$" in shape_id else shape_id  # (ShapeId.root, split once)
        doc = self.raw_doc.get(root)
        if doc is None:
            return None
        return doc.span_of(shape_id) or doc.spans.get(root) or Span(doc.path)

    def trait_span(self, owner: str, trait: str) -> Span | None:
        doc = self.raw_doc.get(ShapeId.root(owner))
        span = _owner_trait_spans(doc, owner).get(trait) if doc is not None else None
        return span if span is not None else self.span_of(owner)

    def suggest(self, missing: str) -> str | None:
        """The "did you mean" hint for a reference to ``missing``, a shape that is not
        defined: the defined shape whose name is closest (:func:`difflib.get_close_matches`,
        ratio 0.75 or more), within :data:`SUGGESTION_BUDGET`; once that is spent, only a
        name that differs in case alone. Each name is looked for once."""
        name = ShapeId.name(missing)
        if name in self._suggested:
            return self._suggested[name]
        if self._names is None:  # (the shapes are all merged before anything is built)
            names = {ShapeId.name(i): i for i in self.raw if "$" not in i}
            folded: dict[str, str] = {}
            for n, shape_id in names.items():
                folded.setdefault(n.lower(), shape_id)
            self._names = (names, folded)
        names, folded = self._names
        found = None
        if self._suggestions_spent + len(names) <= SUGGESTION_BUDGET:
            self._suggestions_spent += len(names)
            import difflib  # only for a "did you mean" hint

            close = difflib.get_close_matches(name, list(names), n=1, cutoff=0.75)
            found = names[close[0]] if close else None
        elif name.lower() in folded:
            found = folded[name.lower()]
        hint = self._suggested[name] = f"did you mean '{found}'?" if found else None
        return hint

    # ---- step 3: merge
    def add_document(self, doc: SourceDocument, is_prelude: bool) -> None:
        self.model.versions[doc.path] = doc.version
        for key, value in as_object(doc.ast.get("metadata")).items():
            span = doc.metadata_spans.get(key) or Span(doc.path)
            if key in self.metadata:
                old = self.metadata[key]
                if isinstance(old, list) and isinstance(value, list):
                    self.metadata[key] = old + value
                elif old != value:
                    self.diags.error("S2005", f"metadata conflict for key '{key}': it is set to a different "
                                     f"value at {self.metadata_span[key]}", span)
            else:
                self.metadata[key] = value
                self.metadata_span[key] = span
        spans = doc.spans
        for shape_id, body in as_object(doc.ast.get("shapes")).items():
            span = spans.get(shape_id, _NO_SPAN)
            self._add_shape(shape_id, body, doc, is_prelude, Span(doc.path) if span is _NO_SPAN else span)
        for shape_id, body, span in doc.duplicate_shapes:
            self._add_shape(shape_id, body, doc, is_prelude, span or Span(doc.path))
        for apply in doc.applies:
            if apply.namespace not in (None, PRELUDE_NAMESPACE) \
                    and ShapeId.namespace(apply.target) == PRELUDE_NAMESPACE:
                # LoaderTraitMap.add: the prelude is immutable outside its own namespace.
                for tid in apply.traits:
                    self.diags.error("S2003", f"Cannot apply `{tid}` to an immutable prelude shape defined in "
                                     f"`{PRELUDE_NAMESPACE}`.", apply.trait_spans.get(tid) or apply.span
                                     or Span(doc.path), apply.target,
                                     "apply the trait to a shape of your own namespace that targets it")
                continue
            self.applies.append((apply, doc))

    def _add_shape(self, shape_id: str, body: Any, doc: SourceDocument, is_prelude: bool, span: Span) -> None:
        """Register one shape definition; a shape defined again merges when the definitions
        are equal apart from their traits (the reference's ``LoaderShapeMap``: the traits of
        every definition apply to the shape, so equal definitions build equal shapes; an
        ignored equal one is a ``Model.IgnoredDuplicateDefinition`` NOTE), else ``S2002``."""
        if not isinstance(body, dict) or not isinstance(body.get("type"), str):
            self.diags.error("S2004", f"shape '{shape_id}' must be an object with a string 'type'", span, shape_id)
            return
        if shape_id in self.raw:
            if not is_prelude and shape_id not in self.prelude_ids:
                if self.raw[shape_id] == body or _without_traits(self.raw[shape_id]) == _without_traits(body):
                    first = self.span_of(shape_id)
                    if self.raw[shape_id] != body:
                        self.raw[shape_id] = self._merge_duplicate(shape_id, self.raw[shape_id], body, doc)
                    if first != span:
                        self.diags.add("S3101", Severity.NOTE, "Ignoring duplicate but equivalent shape definition: "
                                       f"{shape_id} defined at {span} and {first}", span, shape_id)
                    return
            elif (not is_prelude and shape_id.startswith(PRELUDE_NAMESPACE + "#") and not body.get("traits")
                  and _without_traits(self.raw[shape_id]) == _without_traits(body)):
                # A prelude shape defined again as the prelude does, without traits (the
                # reference's LoaderShapeMap merges equal definitions): the prelude's stays.
                return
            elif (not is_prelude and not shape_id.startswith(PRELUDE_NAMESPACE + "#")
                  and _without_traits(self.raw[shape_id]) == _without_traits(body)):
                # A trait-package shape (aws.cloudformation#StructureIdList...) that a model
                # embeds, defined the same way: the reference loads those packages as
                # models, so equal definitions merge. The model's definition is kept and
                # the shape is the model's from now on (`ast` writes it back as it was).
                self.raw[shape_id] = body
                self.raw_doc[shape_id] = doc
                self.prelude_ids.discard(shape_id)
                return
            first = self.span_of(shape_id)
            self.diags.error(
                "S2002",
                f"Conflicting shape definition for `{shape_id}`"
                + (f" (first defined at {first})" if first else "")
                + (" — it is a built-in shape" if shape_id in self.prelude_ids else ""),
                span, shape_id)
            return
        if body.get("type") not in ALL_TYPES:
            self.diags.error("S2004", f"unknown shape type '{body.get('type')}'", span, shape_id)
            return
        self.raw[shape_id] = body
        self.raw_doc[shape_id] = doc
        if is_prelude:
            self.prelude_ids.add(shape_id)

    def _merge_duplicate(self, shape_id: str, first: dict, again: dict, doc: SourceDocument) -> dict:
        """``first`` with the shape and member traits of ``again`` (an equal definition
        apart from traits) merged in: equal values are kept once, lists concatenate, other
        different values are an ``S2013`` error located in ``doc``."""
        merged = dict(first)

        def merge(owner: str, base: Any, extra: Any) -> dict:
            out = dict(base) if isinstance(base, dict) else {}
            for tid, value in (extra if isinstance(extra, dict) else {}).items():
                if tid not in out or _same_trait_value(out[tid], value):
                    if tid not in out or out[tid] is ANNOTATION:
                        out[tid] = value
                elif isinstance(out[tid], list) and isinstance(value, list):
                    out[tid] = out[tid] + value
                else:
                    span = _owner_trait_spans(doc, owner).get(tid) or doc.span_of(owner) or Span(doc.path)
                    self.diags.error("S2013", f"conflicting values for trait '{tid}' on '{owner}' "
                                     "(the shape is defined again with another value)", span, owner)
            return out

        if "traits" in first or "traits" in again:
            merged["traits"] = merge(shape_id, first.get("traits"), again.get("traits"))
        if isinstance(first.get("members"), dict):
            members = dict(first["members"])
            for name, member in as_object(again.get("members")).items():
                if isinstance(member, dict) and isinstance(members.get(name), dict) and (
                        "traits" in member or "traits" in members[name]):
                    members[name] = {**members[name], "traits": merge(
                        f"{shape_id}${name}", members[name].get("traits"), member.get("traits"))}
            merged["members"] = members
        for name in ("member", "key", "value"):
            if isinstance(first.get(name), dict) and isinstance(again.get(name), dict) and (
                    "traits" in first[name] or "traits" in again[name]):
                merged[name] = {**first[name], "traits": merge(
                    f"{shape_id}${name}", first[name].get("traits"), again[name].get("traits"))}
        return merged

    # ---- trait handling
    def is_trait_shape(self, shape_id: str) -> bool:
        """``shape_id`` has ``@trait``, itself or through its mixins (the trait is inherited:
        mixins.rst, "a structure that uses a mixin marked @trait is a trait"). Known once
        per shape: it is asked while building (:meth:`build`), when the raw shapes no longer change."""
        known = self._trait_shapes.get(shape_id)
        if known is None:
            known = self._trait_shapes[shape_id] = self._has_trait_trait(shape_id)
        return known

    def _has_trait_trait(self, shape_id: str) -> bool:
        """:meth:`is_trait_shape`, worked out."""
        todo, seen = [shape_id], set()
        while todo:
            current = todo.pop()
            raw = self.raw.get(current)
            if current in seen or not isinstance(raw, dict):
                continue
            seen.add(current)
            if TRAIT in as_object(raw.get("traits")):
                return True
            mixins = raw.get("mixins")
            if isinstance(mixins, list):
                todo += [m["target"] for m in mixins if isinstance(m, dict) and isinstance(m.get("target"), str)]
        return False

    def _unknown_trait(self, trait_id: str, owner: str, span: Span | None) -> None:
        """``S2010`` for a trait no loaded shape defines: an error, as the reference's
        loader reports it (``LoaderTraitMap``: "Unable to resolve trait"), or with
        ``allow_unknown_traits`` a warning and the trait kept as is. Reported once per
        trait, where first applied; the hint names a built-in trait of the same name (the
        usual cause: a missing ``use`` statement) or a close name."""
        namesakes = _package_traits().get(ShapeId.name(trait_id), [])
        if namesakes and trait_id not in namesakes:
            hint = " or ".join(f"`{t}`" for t in namesakes) + (
                f"? add `use {namesakes[0]}` to the file, or write the absolute shape ID")
            hint = "did you mean " + hint
        else:
            hint = (self.suggest(trait_id) or "define it (a shape with @trait) in a file the build loads") + (
                "; or build with --allow-unknown-traits to keep unknown traits as they are")
        if self.allow_unknown_traits:
            self.diags.warning("S2010", f"unknown trait '{trait_id}' (no definition is loaded); it is kept as is "
                               "(reported once, where first applied)", span, owner, hint)
        else:
            self.diags.error("S2010", f"Unable to resolve trait `{trait_id}`. If this is a custom trait, then it "
                             "must be defined before it can be used in a model (reported once, where first "
                             "applied).", span, owner, hint)

    def coerce(self, trait_id: str, value: Any, owner: str, span: Span | None) -> Any:
        """Annotation value ``ANNOTATION`` → ``{}``/``[]`` from the trait's shape type (an error for other types)."""
        known = self._good_traits.get(trait_id)
        if known is not None and value is not None and value is not ANNOTATION:
            # (the common case, a trait shape seen before and a value: what the rest comes to)
            if known and value.__class__ is not known[1]:
                problem = _creation_problem(trait_id, known[0], value)
                if problem is not None:
                    self.diags.error("S3106", f"Error creating trait `{ShapeId.name(trait_id)}`: {problem}", span,
                                     owner)
            return value
        trait_shape = self.raw.get(trait_id)
        if trait_shape is None:
            if trait_id not in self._warned:
                self._warned.add(trait_id)
                self._unknown_trait(trait_id, owner, span)
        elif not self.is_trait_shape(trait_id):
            if trait_id not in self._not_traits:
                self._not_traits.add(trait_id)
                self.diags.error("S2011", f"Shape `{trait_id}` cannot be applied as a trait. If this is a custom "
                                 "trait, please add `@trait` to this shape.", self.span_of(trait_id), trait_id,
                                 f"it is applied as a trait to `{owner}` at {span}")
        else:  # a trait shape: its type, when it is a built-in trait (checked by _creation_problem)
            kind = trait_shape.get("type")
            self._good_traits[trait_id] = _creation_check(trait_id, kind) if (
                trait_id in self.prelude_ids and trait_id.startswith(_PRELUDE_PREFIX)) else ()
        if value is None and trait_shape is not None:
            # A null trait value means "no value" for list traits (JSON AST models of Smithy
            # 1.0: LoaderVisitorTest's null-coerce-traits.json), and for the structure and
            # map traits built in. A custom structure, union, string... trait given null is
            # an ERROR of the validators (TraitValue: "found null value").
            kind = trait_shape.get("type")
            if kind in ("structure", "map") and trait_id in self.prelude_ids:
                return {}
            if kind in ("list", "set"):
                return []
        if value is ANNOTATION:
            kind = trait_shape.get("type") if trait_shape else "structure"
            if kind in ("list", "set"):
                value = []
            elif kind in ("structure", "map", "document") or trait_shape is None:
                value = {}
            else:
                # The reference keeps null here (IdlModelLoader.coerceTraitValue): a built-in
                # trait cannot be created from it (Model); a custom one's value is invalid,
                # which the validators report (TraitValue: "found null value").
                if trait_id in self.prelude_ids:
                    self.diags.error("S2012", f"trait '{trait_id}' needs a value", span, owner)
                return None
        if trait_shape is not None and trait_id in self.prelude_ids and trait_id.startswith(_PRELUDE_PREFIX):
            problem = _creation_problem(trait_id, trait_shape.get("type"), value)
            if problem is not None:
                self.diags.error("S3106", f"Error creating trait `{ShapeId.name(trait_id)}`: {problem}", span, owner)
        return value

    def merge_traits(self, owner: str, base: dict[str, Any], extra: dict[str, Any],
                     source: str) -> dict[str, Any]:
        """Merge ``extra`` into a copy of ``base``: equal values are kept once, arrays
        concatenate (entries already there are not repeated), other values conflict (``S2013``,
        the reference's ``LoaderTraitMap.mergeTraits``)."""
        out = dict(base)
        for tid, value in extra.items():
            if tid in out and out[tid] != value:
                if isinstance(out[tid], list) and isinstance(value, list):
                    out[tid] = out[tid] + [v for v in value if v not in out[tid]]
                    continue
                self.diags.error("S2013", f"Conflicting `{tid}` trait found on shape `{owner}` ({source} "
                                 "gives it another value)", self.trait_span(owner, tid), owner)
                continue
            out[tid] = value
        return out

    # ---- step 4: build
    def mixin_order(self) -> list[str]:
        """Shape IDs with every mixin before the shapes that use it (:mod:`graphlib`), ties in
        definition order (prelude first).

        A mixin cycle is an ``S2020`` error on every shape on it, naming the others (the
        reference's ``LoaderShapeMap.sort``: "cycles detected between this shape and [...]";
        at most :data:`~smithy2cfn.diagnostics.MAX_LISTED` of them);
        networkx, imported only then, lists them. The edges inside a cycle are then left out,
        so that every shape is still built (without the mixins that could not come first).
        """
        mixins: dict[str, list[str]] = {}
        edges = False
        for sid, body in self.raw.items():
            if "mixins" not in body:
                mixins[sid] = []
                continue
            mixins[sid] = targets = [m for m in self._raw_mixins(body) if m in self.raw]  # others reported later
            edges = edges or bool(targets)
        if not edges:
            return list(mixins)  # what the topological order is without edges: definition order
        try:
            return self._topological(mixins)
        except graphlib.CycleError:
            pass
        import networkx as nx  # only for a cycle: its import costs ~0.15 s

        graph = nx.DiGraph()
        graph.add_nodes_from(mixins)
        graph.add_edges_from((sid, m) for sid, targets in mixins.items() for m in targets)
        position = {sid: i for i, sid in enumerate(self.raw)}
        component_of: dict[str, int] = {}
        for number, component in enumerate(nx.strongly_connected_components(graph)):
            if len(component) == 1 and not any(graph.has_edge(s, s) for s in component):
                continue
            members = sorted(component, key=position.__getitem__)
            for sid in members:
                component_of[sid] = number
                others = listed((o for o in members if o != sid), form="'{}'", total=len(members) - 1) or "itself"
                self.diags.error("S2020", f"mixin cycle: '{sid}' cannot be resolved; it uses, through its "
                                 f"mixins, {others}, which use it", self.span_of(sid), sid,
                                 "remove one of the mixins on the cycle")
        acyclic = {sid: [m for m in targets if sid not in component_of or component_of.get(m) != component_of[sid]]
                   for sid, targets in mixins.items()}
        return self._topological(acyclic)

    def mixin_budget(self) -> int:
        """How many members and traits mixins may copy into the model's shapes:
        :data:`MIXIN_COPIES_PER_ELEMENT` per shape, member and trait the model's own files
        declare (the prelude left out), at least :data:`MAX_MIXIN_COPIES`."""
        declared = 0
        for sid, body in self.raw.items():
            if sid in self.prelude_ids:
                continue
            declared += 1 + len(as_object(body.get("traits")))
            members = body.get("members")
            values = list(members.values()) if isinstance(members, dict) else [
                body[k] for k in ("member", "key", "value") if k in body]
            declared += sum(1 + len(as_object(m.get("traits"))) for m in values if isinstance(m, dict))
        return max(MAX_MIXIN_COPIES, MIXIN_COPIES_PER_ELEMENT * declared)

    @staticmethod
    def _raw_mixins(body: dict) -> list[str]:
        """The shape IDs a raw shape body names as mixins (malformed entries left out)."""
        targets = (m.get("target") if isinstance(m, dict) else m for m in as_array(body.get("mixins")))
        return [m for m in targets if isinstance(m, str)]

    @staticmethod
    def _topological(mixins: dict[str, list[str]]) -> list[str]:
        """A topological order of ``mixins`` (shape → the mixins it uses; deterministic: the
        same dictionary gives the same order). Raises :class:`graphlib.CycleError`.

        The order of :meth:`graphlib.TopologicalSorter.static_order` for ``mixins`` as its
        graph (node → predecessors), worked out here without a node object per shape: the
        shapes with no mixins left in the order they were first seen (a shape, then its
        mixins), then, level by level, the shapes whose last mixin was just placed."""
        waiting: dict[str, int] = {}  # shape → mixins not yet placed, in order first seen
        users: dict[str, list[str]] = {}  # mixin → the shapes that use it
        for sid, targets in mixins.items():
            if sid not in waiting:
                waiting[sid] = 0
            if targets:
                for m in targets:
                    if m not in waiting:
                        waiting[m] = 0
                    users.setdefault(m, []).append(sid)
                waiting[sid] += len(targets)
        ready = [sid for sid, n in waiting.items() if n == 0]
        order: list[str] = []
        while ready:
            order += ready
            placed, ready = ready, []
            for sid in placed:
                for user in users.get(sid, ()):
                    waiting[user] -= 1
                    if waiting[user] == 0:
                        ready.append(user)
        if len(order) < len(waiting):
            raise graphlib.CycleError("mixin cycle")
        return order

    def build(self) -> Model:
        self._warned: set[str] = set()
        self._not_traits: set[str] = set()
        #: trait shape ID → what coerce checks of its values: :func:`_creation_check` for a
        #: built-in trait, ``()`` (nothing) for another
        self._good_traits: dict[str, tuple] = {}
        #: shapes the reference's loader would not build (missing members, missing mixins)
        self.failed: set[str] = set()
        applied: dict[str, list[tuple[ApplyStatement, SourceDocument]]] = {}
        for apply, doc in self.applies:
            applied.setdefault(apply.target, []).append((apply, doc))
        self.applied = applied
        budget = -1  # self.mixin_budget(), worked out when a shape uses mixins
        copies = 0
        sizes: dict[str, int] = {}
        for shape_id in self.mixin_order():
            body = self.raw[shape_id]
            if body.get("mixins") and shape_id not in self.prelude_ids:
                if budget < 0:
                    budget = self.mixin_budget()
                copies += sum(_elements(self.model.shapes[m], sizes) for m in self._raw_mixins(body)
                              if m in self.model.shapes)
                if copies > budget:
                    self.diags.error(
                        "S2029", f"mixins copy too many members and traits: with '{shape_id}', shapes would "
                        f"hold {copies:,} copied from their mixins, more than this model allows ({budget:,}: "
                        f"{MIXIN_COPIES_PER_ELEMENT} per shape, member and trait it declares, at least "
                        f"{MAX_MIXIN_COPIES:,}); the shapes after it are not built",
                        self.span_of(shape_id), shape_id,
                        "use fewer levels of mixins, or declare members where they are used")
                    self.applied = {t: a for t, a in applied.items()  # none on the shapes not built
                                    if ShapeId.root(t) in self.model.shapes or ShapeId.root(t) not in self.raw}
                    break
            shape = self.build_shape(shape_id, body)
            if shape is not None:
                self.model.shapes[shape_id] = shape
        # Built mixins first; kept in definition order (prelude first), whatever the mixins.
        built = self.model.shapes
        self.model.shapes = {sid: built[sid] for sid in self.raw if sid in built}
        for target, items in self.applied.items():
            root = ShapeId.root(target)
            if root not in self.model.shapes or (
                    "$" in target and ShapeId.member(target) not in self.model.shapes[root].members):
                for apply, doc in items:
                    for tid in apply.traits:
                        self.diags.error("S2003", f"Trait `{idiomatic(tid)}` applied to unknown shape `{target}`",
                                         apply.trait_spans.get(tid) or apply.span or Span(doc.path), None,
                                         self.suggest(target))
        self.model.metadata = self.metadata
        self.model.metadata_spans = dict(self.metadata_span)
        self.model.prelude_ids = set(self.prelude_ids)
        return self.model

    def _apply_traits(self, target: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if target not in self.applied:
            return out
        for apply, doc in self.applied[target]:
            for tid, value in apply.traits.items():
                span = apply.trait_spans.get(tid) or apply.span or Span(doc.path)
                self._check_versioned_trait(doc, target, tid, span)
                value = self.coerce(tid, value, target, span)
                out = self.merge_traits(target, out, {tid: value}, "apply")
        return out

    def _trait_spans(self, owner: str, traits: dict[str, Any], introduced: dict[str, Any],
                     owner_doc: SourceDocument | None, inherited: Mapping[str, Span]) -> Mapping[str, Span]:
        """Where each of ``owner``'s effective traits was applied: an ``apply`` statement,
        else the shape or member itself (its introduced traits), else the mixin it came
        from (``inherited``). ``owner_doc``: the document that defines ``owner``'s shape.
        When every trait is the owner's own and its document keeps their spans as a
        :class:`~smithy2cfn.diagnostics.DeferredSpans`, that mapping itself (read-only)."""
        applied = self.applied.get(owner)
        own_only = not inherited and not applied  # (every trait its own)
        if own_only and not introduced:
            return {}
        where = _owner_trait_spans(owner_doc, owner) if owner_doc is not None else _NO_SPANS
        if own_only and type(where) is DeferredSpans and len(where) == len(introduced):
            return where  # (written where the document's spans find each)
        spans = {tid: span for tid, span in inherited.items() if tid in traits} if inherited else {}
        if introduced:
            own: Any = ...  # span_of(owner), worked out at most once
            for tid in introduced:  # (trait_span, the owner's spans looked up once)
                span = where.get(tid)
                if span is None:
                    if own is ...:
                        own = self.span_of(owner)
                    span = own
                if span is not None:
                    spans[tid] = span
        for apply, doc in applied or ():
            for tid in apply.traits:
                spans[tid] = apply.trait_spans.get(tid) or apply.span or Span(doc.path)
        return spans

    def _local_traits(self, owner: str, raw_traits: Any, doc: SourceDocument | None,
                      spans: dict[str, Span] | None = None) -> dict[str, Any]:
        """``owner``'s own traits (``raw_traits``), coerced; ``doc``: the document that
        defines ``owner``'s shape. ``spans``, when given, receives where each was written (as
        :meth:`_trait_spans` gives an owner's introduced traits)."""
        out: dict[str, Any] = {}
        if not isinstance(raw_traits, dict) or not raw_traits:
            return out
        where: Any = None  # (the owner's spans, looked up at the first trait that reads one)
        own: Any = ...  # span_of(owner), worked out at most once
        good = self._good_traits
        for tid, value in raw_traits.items():
            if spans is None and tid != BOX and tid != DEFAULT:
                # (the common case, no span to read: coerce's own first test, when it has nothing to
                # report and gives the value back; written out here, as a call per trait costs more)
                known = good.get(tid)
                if known is not None and value is not None and value is not ANNOTATION and (
                        not known or value.__class__ is known[1]):
                    out[tid] = value
                    continue
            if where is None:
                where = _owner_trait_spans(doc, owner) if doc is not None else _NO_SPANS
            span = where.get(tid)  # (trait_span, the owner's spans looked up once)
            if span is None:
                if own is ...:
                    own = self.span_of(owner)
                span = own
            if doc is not None and (tid == BOX or tid == DEFAULT):
                self._check_versioned_trait(doc, owner, tid, span)
            out[tid] = self.coerce(tid, value, owner, span)
            if spans is not None and span is not None:
                spans[tid] = span
        return out

    def _check_versioned_trait(self, doc: SourceDocument, owner: str, trait_id: str, span: Span | None) -> None:
        """Traits a model version does not allow: ``@box`` in IDL 2.0, ``@default`` in 1.0 (the
        reference's ``Version.validateVersionedTrait``; its warning for the deprecated ``@enum``
        in 2.0 is the validator :func:`smithy2cfn.validation.core.constraints.check_enum_trait_deprecation`)."""
        if ShapeId.root(owner) in self.prelude_ids:
            return
        if trait_id == BOX and doc.version == "2.0":
            self.diags.error("S2026", "@box is not supported in Smithy IDL 2.0; use @default (or no "
                             "@default for a nullable member) instead", span, owner)
        elif trait_id == DEFAULT and doc.version == "1.0":
            self.diags.error("S3104", "The @default trait can only be used in Smithy 2.0 or later", span, owner,
                             'start the file with `$version: "2"`, or use @box for a nullable member')

    def _ref(self, owner: str, value: Any, what: str) -> str | None:
        target = value.get("target") if isinstance(value, dict) else value
        if not isinstance(target, str):
            self.diags.error("S2006", f"{what} of '{owner}' must reference a shape", self.span_of(owner), owner)
            return None
        if target not in self.raw:
            self.diags.error("S2001", f"{what} of '{owner}' targets '{target}', which is not defined",
                             self.span_of(owner), owner, self.suggest(target))
        return target

    def _mixin_refs(self, owner: str, values: Any) -> list[str]:
        """The mixins of ``owner``. A mixin that is not defined, or that could not be built
        (:attr:`failed`), makes ``owner`` fail too: "Cannot apply mixin to X: M not found"
        (the reference's ``ApplyMixin``, a ``Model`` error; it does not build the shape)."""
        out = []
        for v in self._ref_list(owner, values, "mixin"):
            target = v.get("target") if isinstance(v, dict) else v
            if not isinstance(target, str):
                self.diags.error("S2006", f"mixin of '{owner}' must reference a shape", self.span_of(owner), owner)
                continue
            if target not in self.raw or target in self.failed:
                self.failed.add(owner)
                self.diags.error("S3103", f"Cannot apply mixin to {owner}: {target} not found", self.span_of(owner),
                                 owner, self.suggest(target) if target not in self.raw else
                                 f"`{target}` could not be built: see its own error")
            out.append(target)
        return out

    def _ref_list(self, owner: str, values: Any, what: str) -> list:
        """``values`` when it is a list (``[]`` when absent); else ``S2006`` and ``[]``."""
        if values is None:
            return []
        if not isinstance(values, list):
            self.diags.error("S2006", f"the {what}s of '{owner}' must be a list of shape references",
                             self.span_of(owner), owner)
            return []
        return values

    def _refs(self, owner: str, values: Any, what: str) -> list[str]:
        out = []
        for v in self._ref_list(owner, values, what):
            r = self._ref(owner, v, what)
            if r:
                out.append(r)
        return out

    def build_shape(self, shape_id: str, body: dict) -> Shape | None:
        doc = self.raw_doc[shape_id]
        kind = body["type"]
        shape = Shape(id=shape_id, type=kind, span=self.span_of(shape_id))
        mixins = self._mixin_refs(shape_id, body.get("mixins"))
        shape.mixins = mixins
        mixin_shapes = [self.model.shapes[m] for m in mixins if m in self.model.shapes] if mixins else []
        for m in mixin_shapes:
            if MIXIN not in m.traits:
                # Not a load error in the reference: its TargetValidator reports it.
                self.diags.error("S3102", f"Attempted to use {m.id} as a mixin, but it is not marked with the "
                                 "mixin trait", shape.span, shape_id, f"add @mixin to `{m.id}`")
            elif m.type != kind:
                self.diags.error("S2021", f"{kind} '{shape_id}' cannot use {m.type} mixin '{m.id}'",
                                 shape.span, shape_id)

        # traits: mixins first, then local, then apply
        inherited: dict[str, Any] = {}
        for m in mixin_shapes:
            local_only = {t for t in as_array(as_object(m.traits.get(MIXIN)).get("localTraits"))
                          if isinstance(t, str)}
            for tid, value in m.traits.items():
                if tid == MIXIN or tid in local_only:
                    continue
                inherited[tid] = value
        local = self._local_traits(shape_id, body.get("traits"), doc)
        if shape_id in self.applied:
            local = self.merge_traits(shape_id, local, self._apply_traits(shape_id), "apply")
        shape.introduced_traits = local
        # (without mixins, the traits are the introduced traits: one dict, as for a member alone)
        shape.traits = {**inherited, **local} if inherited else local if not mixin_shapes else dict(local)
        shape.trait_spans = self._trait_spans(
            shape_id, shape.traits, local, doc,
            {t: sp for m in mixin_shapes for t, sp in m.trait_spans.items()} if mixin_shapes else {})

        if isinstance(body.get("for"), str):
            self._check_private_for(shape, body["for"])

        # members
        if kind in AGGREGATE_TYPES or kind in ("enum", "intEnum"):
            self._build_members(shape, body, mixin_shapes, doc)

        # service types
        if kind == "operation":
            shape.input = self._io(shape_id, body.get("input"), "input")
            shape.output = self._io(shape_id, body.get("output"), "output")
            errs: list[str] = []
            for m in mixin_shapes:
                errs += [e for e in m.errors if e not in errs]
            errs += [e for e in self._refs(shape_id, body.get("errors"), "error") if e not in errs]
            shape.errors = errs
            for m in mixin_shapes:
                shape.input = shape.input or m.input
                shape.output = shape.output or m.output
        elif kind == "resource":
            for m in mixin_shapes:
                shape.identifiers.update(m.identifiers)
                shape.properties.update(m.properties)
                for op in LIFECYCLE_OPERATIONS:
                    setattr(shape, op, getattr(shape, op) or getattr(m, op))
                shape.operations += [o for o in m.operations if o not in shape.operations]
                shape.collection_operations += [o for o in m.collection_operations
                                                if o not in shape.collection_operations]
                shape.resources += [r for r in m.resources if r not in shape.resources]
            for field_name in ("identifiers", "properties"):
                values = body.get(field_name) or {}
                if not isinstance(values, dict):
                    self.diags.error("S2006", f"'{field_name}' of '{shape_id}' must be an object",
                                     shape.span, shape_id)
                    continue
                for name, ref in values.items():
                    r = self._ref(shape_id, ref, f"{field_name[:-1] if field_name[-1] == 's' else field_name} '{name}'")
                    if r:
                        getattr(shape, field_name)[name] = r
            for op in LIFECYCLE_OPERATIONS:
                if body.get(op) is not None:
                    setattr(shape, op, self._ref(shape_id, body[op], f"'{op}' operation"))
            shape.operations += [o for o in self._refs(shape_id, body.get("operations"), "operation")
                                 if o not in shape.operations]
            shape.collection_operations += [
                o for o in self._refs(shape_id, body.get("collectionOperations"), "collection operation")
                if o not in shape.collection_operations]
            shape.resources += [r for r in self._refs(shape_id, body.get("resources"), "resource")
                                if r not in shape.resources]
        elif kind == "service":
            for m in mixin_shapes:
                shape.version = shape.version or m.version
                shape.operations += [o for o in m.operations if o not in shape.operations]
                shape.resources += [r for r in m.resources if r not in shape.resources]
                shape.errors += [e for e in m.errors if e not in shape.errors]
                shape.rename.update(m.rename)
            version = body.get("version")
            if isinstance(version, str):
                shape.version = version
            elif version is not None:
                self.diags.error("S2006", f"the version of service '{shape_id}' must be a string",
                                 shape.span, shape_id)
            shape.operations += [o for o in self._refs(shape_id, body.get("operations"), "operation")
                                 if o not in shape.operations]
            shape.resources += [r for r in self._refs(shape_id, body.get("resources"), "resource")
                                if r not in shape.resources]
            shape.errors += [e for e in self._refs(shape_id, body.get("errors"), "error")
                             if e not in shape.errors]
            rename = body.get("rename") or {}
            if isinstance(rename, dict):
                shape.rename.update({k: v for k, v in rename.items() if isinstance(v, str)})
        return shape

    def _check_private_for(self, shape: Shape, resource_id: str) -> None:
        """A structure ``for`` a ``@private`` resource of another namespace: the reference's
        ``PrivateAccess`` event (DANGER)."""
        res = self.raw.get(resource_id)
        if res is None or ShapeId.namespace(resource_id) == ShapeId.namespace(shape.id):
            return
        traits = set(as_object(res.get("traits")))
        for apply, _ in self.applied.get(resource_id, []):
            traits |= set(apply.traits)
        if PRIVATE in traits:
            self.diags.items.append(Diagnostic(
                "S2027", Severity.DANGER,
                f"'{shape.id}' is for '{resource_id}', a @private resource of another namespace "
                f"('{ShapeId.namespace(resource_id)}')", shape.span, shape.id))

    def _io(self, owner: str, value: Any, what: str) -> str | None:
        if value is None:
            return None
        r = self._ref(owner, value, what)
        return None if r == UNIT else r

    def _build_members(self, shape: Shape, body: dict, mixin_shapes: list[Shape], doc: SourceDocument) -> None:
        shape_id = shape.id
        spans = doc.spans  # (a member's span: its own, else its shape's, as span_of gives)
        members: dict[str, Member] = {}
        # local members
        local: list[tuple[str, Any]] = []
        if shape.type in ("list", "set"):
            if "member" in body:
                local.append(("member", body["member"]))
        elif shape.type == "map":
            for name in ("key", "value"):
                if name in body:
                    local.append((name, body[name]))
        else:
            raw_members = body.get("members") or {}
            if isinstance(raw_members, dict):
                local.extend(raw_members.items())
        # A JSON AST document keeps no span of a member of a `members` object written as it
        # should be (SourceDocument.span_of): they are made here, where the members are built.
        lazy = members_where(doc, shape_id) if doc.locate is not None and shape.type not in _LISTS_AND_MAPS \
            else None
        # inherited members, in mixin order
        again: dict[str, dict[str, Any]] = {}
        for m in mixin_shapes:
            for name, mm in m.members.items():
                if name in members:
                    # Inherited again from a later mixin: the reference (NamedMemberUtils.
                    # computeMixinMembers) makes that mixin member's traits the member's own
                    # (introduced) traits — unless the member is defined locally or has
                    # traits applied, which are then its only introduced traits (ApplyMixin).
                    # (Two mixins giving the member different targets: the validator's S3043.)
                    members[name].traits.update(mm.traits)
                    again.setdefault(name, {}).update(mm.traits)
                    continue
                members[name] = Member(name=name, target=mm.target, container=shape_id,
                                       traits=dict(mm.traits), introduced_traits={},
                                       from_mixin=mm.from_mixin or m.id,
                                       span=doc.span_of(f"{shape_id}${name}") or shape.span)
        for_resource = body.get("for")
        every_alone = not mixin_shapes  # (then the walks below over members have nothing to do)
        for name, raw in local:
            member_id = f"{shape_id}${name}"
            if not isinstance(raw, dict):
                self.diags.error("S2006", f"member '{member_id}' must be an object", shape.span, member_id)
                continue
            target = raw.get("target")
            if target is None and raw.get("elided"):
                target = self._elided_target(shape, name, for_resource, members)
                if target is None:
                    continue
            if not isinstance(target, str):
                self.diags.error("S2006", f"member '{member_id}' needs a target", self.span_of(member_id),
                                 member_id)
                continue
            if target not in self.raw:
                self.diags.error("S2001", f"member '{member_id}' targets '{target}', which is not defined",
                                 self.span_of(member_id), member_id, self.suggest(target))
            # (a member of a shape without mixins and with no trait applied to it: its traits
            # are its own, and so are their spans, found here once)
            alone = not mixin_shapes and member_id not in self.applied
            every_alone = every_alone and alone
            raw_traits = raw.get("traits")
            trait_spans: Mapping[str, Span] | None
            # (a member the document keeps no span of, SourceDocument.span_of: its span, and its
            # trait spans when its traits are all its own, made when first read: Member's deferred)
            deferred = lazy is not None and member_id not in spans
            where = doc.trait_spans.get(member_id) if alone and raw_traits and not deferred else None
            if type(where) is DeferredSpans or (deferred and alone):
                # (its traits all its own: the document's map, over this very traits object, whose
                # every key _local_traits keeps; what _trait_spans gives, without the call per member)
                traits = self._local_traits(member_id, raw_traits, doc)
                trait_spans = where
            else:
                found: dict[str, Span] | None = {} if alone else None
                traits = self._local_traits(member_id, raw_traits, doc, found)
                trait_spans = found
            if name in members:
                inherited = members[name]
                if inherited.target != target:
                    self.diags.error("S2022", f"member '{member_id}' conflicts with an inherited mixin member: "
                                     f"'{inherited.from_mixin}${name}'", self.span_of(member_id), member_id)
                inherited.introduced_traits = self.merge_traits(member_id, inherited.introduced_traits,
                                                                traits, "member")
                inherited.traits = {**inherited.traits, **traits}
                continue
            # (a member alone has no traits but its own: its traits are its introduced traits,
            # one dict, changed only as both: by the enum value and @default given below; the
            # fields in order, name, target, container, traits, introduced traits, mixin, span,
            # trait spans: a call by keywords took twice as long, 3 ms of SageMaker's build)
            members[name] = Member(name, target, shape_id, traits, traits if alone else dict(traits), None,
                                   None if deferred else spans.get(member_id) or shape.span, trait_spans,
                                   (lazy, raw_traits if alone else None) if deferred else None)
        if every_alone:
            self._finish_members(shape, members)
            return
        local_names = {name for name, _ in local}
        for name, member in members.items():
            applied = self._apply_traits(member.id)
            if applied:
                member.introduced_traits = self.merge_traits(member.id, member.introduced_traits, applied,
                                                             "apply")
                member.traits = {**member.traits, **member.introduced_traits}
            elif name in again and name not in local_names:
                member.introduced_traits = dict(again[name])
        for name, member in members.items():
            inherited_spans: dict[str, Span] = {}
            for m in mixin_shapes:
                if name in m.members:
                    inherited_spans.update(m.members[name].trait_spans)
            member.trait_spans = self._trait_spans(member.id, member.traits, member.introduced_traits, doc,
                                                   inherited_spans)
        self._finish_members(shape, members)

    def _finish_members(self, shape: Shape, members: dict[str, Member]) -> None:
        """The checks of a shape's members once they are all known (a list, set or map
        without its members; an enum without values), each enum value's ``enumValue``, and
        the members set on the shape."""
        shape_id = shape.id
        if shape.type in ("list", "set", "map"):
            missing = [n for n in (("key", "value") if shape.type == "map" else ("member",)) if n not in members]
            if missing:
                self.failed.add(shape_id)
                self.diags.error("S3041", f"Missing required member{'s' if len(missing) > 1 else ''} of shape "
                                 f"`{shape_id}`: {', '.join(missing)}", shape.span, shape_id)
        elif shape.type in ("enum", "intEnum") and not members:
            self.failed.add(shape_id)
            self.diags.error("S3032", f"{shape.type} shapes must have at least one member", shape.span, shape_id)
        if shape.type == "enum":
            for name, member in members.items():
                if ENUM_VALUE not in member.traits:
                    member.traits[ENUM_VALUE] = name
                    if member.from_mixin is None:
                        member.introduced_traits[ENUM_VALUE] = name
        shape.members = members

    def _elided_target(self, shape: Shape, name: str, for_resource: Any, members: dict[str, Member]) -> str | None:
        member_id = f"{shape.id}${name}"
        if shape.id in self.failed and name not in members:
            return None  # a mixin could not be applied (S3103): the member may have come from it
        if isinstance(for_resource, str):
            res = self.raw.get(for_resource)
            if res is None:
                self.diags.error("S2001", f"'{shape.id}' is for '{for_resource}', which is not defined",
                                 shape.span, shape.id, self.suggest(for_resource))
            elif res.get("type") != "resource":
                self.diags.error("S2023", f"'{shape.id}' is for '{for_resource}', which is not a resource",
                                 shape.span, shape.id)
            else:
                for field_name in ("identifiers", "properties"):
                    ref = as_object(res.get(field_name)).get(name)
                    if ref is not None:
                        return ref.get("target") if isinstance(ref, dict) else ref
        if name in members:
            return members[name].target
        self.diags.error("S2024", f"elided member '{member_id}' matches no identifier or property of the "
                         "resource and no mixin member", self.span_of(member_id), member_id)
        return None


_NODE_KINDS = {
    "structure": "object", "map": "object", "union": "object", "list": "array", "set": "array",
    "string": "string", "enum": "string", "blob": "string", "boolean": "boolean", "timestamp": None,
    "document": None, "byte": "number", "short": "number", "integer": "number", "long": "number",
    "float": "number", "double": "number", "bigInteger": "number", "bigDecimal": "number", "intEnum": "number",
}
#: The Python class of a JSON value of these node types (a value of that class is of that type).
_NODE_CLASSES: dict[str, type] = {"object": dict, "array": list, "string": str}
#: The URL schemes Java's ``java.net.URL`` knows (the reference checks ``externalDocumentation``
#: values with it).
_URL_SCHEMES = frozenset({"http", "https", "ftp", "file", "jar", "mailto", "netdoc"})


_IDENTIFIER = r"(?:_+[A-Za-z0-9]|[A-Za-z])\w*"
_ABSOLUTE_SHAPE_ID = lazy(rf"{_IDENTIFIER}(?:\.{_IDENTIFIER})*#{_IDENTIFIER}(?:\${_IDENTIFIER})?")


def _shape_id_values(trait_id: str, value: Any) -> list[str]:
    """The strings of a built-in trait's value that its reference class reads with
    ``ShapeId.from`` (absolute shape IDs): ``auth`` entries, the ``traits`` of
    ``authDefinition`` and ``protocolDefinition``, ``references`` resources, and
    ``mixin`` ``localTraits``."""
    if trait_id == AUTH:
        return string_items(value)
    if trait_id in (AUTH_DEFINITION, PROTOCOL_DEFINITION) and isinstance(value, dict):
        return string_items(value.get("traits"))
    if trait_id == MIXIN and isinstance(value, dict):
        return string_items(value.get("localTraits"))
    if trait_id == REFERENCES and isinstance(value, list):
        return [v["resource"] for v in value if isinstance(v, dict) and isinstance(v.get("resource"), str)]
    return []


#: Members the reference's built-in trait classes read with ``expect...Member`` (their
#: ``fromNode`` fails without them), by ``smithy.api`` trait name: ``(where, members)``
#: with ``where`` ``""`` for the value itself, ``"[]"`` for each entry of a list value,
#: ``"{}"`` for each value of a map value, or a member holding a list of entries.
_EXPECTED_MEMBERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "http": ("", ("uri", "method")),
    "endpoint": ("", ("hostPrefix",)),
    "httpApiKeyAuth": ("", ("name",)),
    "metadata": ("", ("key",)),
    "xmlNamespace": ("", ("uri",)),
    "requestCompression": ("", ("encodings",)),
    "references": ("[]", ("resource",)),
    "enum": ("[]", ("value",)),
    "trait": ("breakingChanges", ("change",)),
    "traitValidators": ("{}", ("selector",)),
}


def _missing_expected_member(name: str, value: Any) -> str | None:
    """The first member a built-in trait's value lacks that its reference class expects
    (:data:`_EXPECTED_MEMBERS`), or ``None``."""
    where, members = _EXPECTED_MEMBERS.get(name, ("", ()))
    if not members:
        return None
    if where == "":
        objects = [value]
    elif where == "[]":
        objects = value if isinstance(value, list) else []
    elif where == "{}":
        objects = list(value.values()) if isinstance(value, dict) else []
    else:
        entries = value.get(where) if isinstance(value, dict) else None
        objects = entries if isinstance(entries, list) else []
    for obj in objects:
        if isinstance(obj, dict):
            for member in members:
                if member not in obj:
                    return member
    return None


_PRELUDE_PREFIX = PRELUDE_NAMESPACE + "#"
#: The built-in traits :func:`_creation_problem` looks into beyond the type of their value:
#: :data:`_EXPECTED_MEMBERS`, :func:`_shape_id_values`, ``externalDocumentation``.
_CHECKED_BUILT_IN_TRAITS = frozenset(
    {_PRELUDE_PREFIX + name for name in _EXPECTED_MEMBERS}
    | {AUTH, AUTH_DEFINITION, PROTOCOL_DEFINITION, MIXIN, REFERENCES, EXTERNAL_DOCUMENTATION})


def _creation_check(trait_id: str, kind: Any) -> tuple:
    """What ``coerce`` checks of the values of the built-in trait ``trait_id`` (of shape
    type ``kind``) with :func:`_creation_problem`: ``()`` when it finds nothing in any value
    (it checks nothing but the value's JSON type, and the type allows every value: a
    ``document``, as ``enumValue``, of which SageMaker has 2,200), else ``(kind, the class of
    the values it always accepts)`` (a ``documentation`` string: ``coerce`` skips the call for
    them), the class ``None`` when it looks into every value."""
    if trait_id in _CHECKED_BUILT_IN_TRAITS:
        return kind, None
    expected = _NODE_KINDS.get(kind) if isinstance(kind, str) else None
    return (kind, _NODE_CLASSES.get(expected)) if expected is not None else ()


def _creation_problem(trait_id: str, kind: Any, value: Any) -> str | None:
    """Why the reference's built-in trait class cannot be made from ``value`` (a ``Model``
    error at load there, "Error creating trait"): a value of the wrong JSON type for the
    trait's shape, a member its class expects missing (:data:`_EXPECTED_MEMBERS`), a shape ID
    that is not one, or an ``externalDocumentation`` entry that is not a URL."""
    expected = _NODE_KINDS.get(kind) if isinstance(kind, str) else None
    if expected is not None and value is not None and _NODE_CLASSES.get(expected) is not value.__class__:
        found = node_type(value)
        if found != expected:
            return f"Expected {expected}, but found {found}."
    if trait_id not in _CHECKED_BUILT_IN_TRAITS and trait_id.startswith(_PRELUDE_PREFIX):
        return None  # a built-in trait whose class reads nothing more (the checks below: none apply)
    if ShapeId.name(trait_id) in _EXPECTED_MEMBERS:
        missing = _missing_expected_member(ShapeId.name(trait_id), value)
        if missing is not None:
            return f"Missing expected member `{missing}`."
    for shape_id in _shape_id_values(trait_id, value):
        if not _ABSOLUTE_SHAPE_ID.fullmatch(shape_id):
            return f"Invalid shape ID: {shape_id}"
    if trait_id == EXTERNAL_DOCUMENTATION and isinstance(value, dict):
        for name, url in value.items():
            if not isinstance(url, str):
                return f"Expected string, but found {node_type(url)}."
            scheme, colon, rest = url.partition(":")
            if not colon or scheme.lower() not in _URL_SCHEMES or (scheme.lower() in ("http", "https") and not rest):
                return (f"Each externalDocumentation value must be a valid URL. Found \"{url}\" for name "
                        f"\"{name}\"")
    return None


def _without_traits(body: dict) -> dict:
    """A raw shape body without its own and its members' traits (to compare definitions)."""
    out = {k: v for k, v in body.items() if k != "traits"}
    if isinstance(out.get("members"), dict):
        out["members"] = {n: {k: v for k, v in m.items() if k != "traits"} if isinstance(m, dict) else m
                          for n, m in out["members"].items()}
    for name in ("member", "key", "value"):
        if isinstance(out.get(name), dict):
            out[name] = {k: v for k, v in out[name].items() if k != "traits"}
    return out


def _same_trait_value(a: Any, b: Any) -> bool:
    """Equal raw trait values; an annotation (``@foo``) equals ``{}``, ``[]`` and ``true``."""
    if a is ANNOTATION or b is ANNOTATION:
        other = b if a is ANNOTATION else a
        return other is ANNOTATION or other is True or (isinstance(other, (dict, list)) and not other)
    return a == b


def _upgrade_v1(model: Model, v1_shapes: set[str]) -> None:
    """Apply the reference's IDL 1.0 → 2.0 box semantics to shapes from 1.0 documents.

    * number/boolean shapes defined in 1.0 without ``@box`` get ``@default(0/false)``;
    * a structure member whose target is a number/boolean shape that is not boxed (a 1.0
      shape without ``@box``; a 2.0 or prelude shape whose ``@default`` is the zero value),
      or a streaming blob (member not ``@required``), gets ``@default`` with the zero value
      of the target's type, unless the member is ``@box``ed or has a ``@default``;
    * otherwise a ``@box``ed member gets ``@default(null)``.

    ``@box`` stays on boxed shapes (the reference keeps it as a synthetic trait, which its
    serializer and ours leave out) and is dropped from members that get a ``@default``.
    """
    for sid in v1_shapes:
        shape = model.shapes.get(sid)
        if shape is None:
            continue
        if shape.type in _NUMERIC_BOOL and BOX not in shape.traits \
                and DEFAULT not in shape.traits:
            shape.traits[DEFAULT] = _NUMERIC_BOOL[shape.type]
            shape.introduced_traits[DEFAULT] = _NUMERIC_BOOL[shape.type]

    def boxed(target: Shape) -> bool:
        if BOX in target.traits:
            return True
        if target.id in v1_shapes:
            return False
        default = target.traits.get(DEFAULT)
        if target.type == "boolean":
            return default is not False
        return isinstance(default, bool) or not isinstance(default, (int, float)) or default != 0

    for sid in v1_shapes:
        shape = model.shapes.get(sid)
        if shape is None or shape.type != "structure":
            continue
        for member in shape.members.values():
            if member.from_mixin or DEFAULT in member.traits:
                continue
            target = model.shapes.get(member.target)
            if target is None:
                continue
            member_boxed = BOX in member.traits
            value: Any = ...
            if not member_boxed:
                if target.type in _NUMERIC_BOOL and not boxed(target):
                    value = _NUMERIC_BOOL[target.type]
                elif (target.type == "blob" and STREAMING in target.traits
                      and REQUIRED not in member.traits
                      and BOX not in target.traits):
                    value = ""
            else:
                value = None
            if value is ...:
                continue
            member.traits.pop(BOX, None)
            member.introduced_traits.pop(BOX, None)
            member.traits[DEFAULT] = value
            member.introduced_traits[DEFAULT] = value


def _elements(shape: Shape, sizes: dict[str, int]) -> int:
    """What using ``shape`` as a mixin copies: its traits, members and their traits
    (counted once per shape, in ``sizes``)."""
    n = sizes.get(shape.id)
    if n is None:
        n = sizes[shape.id] = len(shape.traits) + sum(1 + len(m.traits) for m in shape.members.values())
    return n


def assemble(prelude_docs: list[SourceDocument], docs: list[SourceDocument], diags: Diagnostics, *,
             allow_unknown_traits: bool = False) -> Model:
    """Merge documents (prelude first) into one :class:`Model`; see the module docstring
    (``allow_unknown_traits``: see :func:`load_model`)."""
    asm = _Assembler(diags, allow_unknown_traits)
    for d in prelude_docs:
        asm.add_document(d, is_prelude=True)
    added: list[SourceDocument] = []
    for d in docs:
        # The same file (same path, same contents) given twice is loaded once (the
        # reference dedupes shapes and metadata from the same source location).
        if any(o.path == d.path and o.ast == d.ast and o.applies == d.applies for o in added):
            continue
        added.append(d)
        asm.add_document(d, is_prelude=False)
    model = asm.build()
    model.packages = frozenset(package_namespace(d.path) for d in prelude_docs)
    v1 = {sid for sid, doc in asm.raw_doc.items() if doc.version == "1.0" and sid not in asm.prelude_ids}
    if v1:
        _upgrade_v1(model, v1)
    return model


__all__ = ["assemble", "discover", "load_model", "load_texts", "read_documents", "select_packages"]
