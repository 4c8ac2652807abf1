"""The lowered prelude, computed at development time and shipped as plain JSON.

Every model loads our prelude and trait packages (:func:`smithy2cfn.prelude.prelude_files`);
parsing and lowering them is most of a small build's start-up. They are lowered once, by
``python -m smithy2cfn.precompute``, into ``smithy2cfn/data/precomputed/prelude-documents.json``
(:func:`encode_documents`, one document per line: :func:`render_documents`), and read back
at run time (:func:`decode_documents`), only the documents of the packages a model loads
(:func:`documents_of`), when the file's key matches :func:`key`: the package version, the
grammar, every prelude file, and the source of every module whose change could change the
lowered documents (:data:`FRONT_END_MODULES`; ``tests/load/test_prelude_cache.py`` checks
that list against the modules' imports). Otherwise they are lowered from source. Nothing is pickled,
and nothing is written at run time.

The JSON form of a :class:`~smithy2cfn.model.document.SourceDocument` round-trips exactly
(types included: ``bool`` stays ``bool``, ``1.0`` stays a float):

* values (the AST, apply traits) are JSON, except :data:`~smithy2cfn.model.document.ANNOTATION`,
  written ``{"\\u0000": "annotation"}``; a real object with a key starting with NUL is
  written ``{"\\u0000": "escaped", "\\u0001" + key: value...}`` (so no real object is ever
  taken for a marker);
* a :class:`~smithy2cfn.diagnostics.Span` is ``[line, column, end_line, end_column]`` in
  its document's file, else ``[path, line, column, end_line, end_column]``;
* ``trait_spans`` (shape → trait → span) is a list of ``[shape, trait, span]``;
* ``duplicate_shapes`` is a list of ``[shape ID, shape entry, span]``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable

from smithy2cfn.diagnostics import Diagnostic, Severity, Span
from smithy2cfn.model.document import ANNOTATION, ApplyStatement, SourceDocument
from smithy2cfn.parse.tables import (
    FORMAT,
    data_file,
    data_head,
    grammar_text,
    is_current,
    package_version,
    source_digest,
)
from smithy2cfn.records import fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The file name of the lowered prelude under ``smithy2cfn/data/precomputed``.
DOCUMENTS_FILE = "prelude-documents.json"
#: Sources (relative to the package) that parse and lower the prelude, or define what the
#: result is made of; a change to any of them changes :func:`key`.
FRONT_END_MODULES: tuple[str, ...] = (
    "parse/idl.py", "parse/lower.py", "parse/strings.py", "parse/syntax.py", "parse/tables.py",
    "model/document.py", "model/jsonread.py", "load/prelude_data.py", "model/nodes.py", "model/traits.py",
    "diagnostics.py", "catalog.py", "version.py", "stamps.py", "garbage_collection.py", "records.py", "regexes.py",
    "prelude/__init__.py",
)
_MARK = "\0"
_ESCAPE = "\1"
_DOCUMENT_FIELDS = {"path", "version", "ast", "applies", "spans", "trait_spans", "metadata_spans", "diagnostics",
                    "duplicate_shapes", "locate"}
_APPLY_FIELDS = {"target", "traits", "span", "trait_spans", "namespace"}


def prelude_sources() -> list[tuple[str, str]]:
    """The prelude files as ``(path, text)``, with the ``<prelude>/`` paths diagnostics use."""
    from smithy2cfn.prelude import prelude_files

    return [(f"<prelude>/{name}", text) for name, text in prelude_files()]


def key(sources: list[tuple[str, str]] | None = None) -> str:
    """The key of the lowered prelude in this installation (:func:`smithy2cfn.stamps.content_key`).

    Raises:
        OSError: a source file cannot be read (callers then lower from source).
    """
    parts = [FORMAT, "prelude-documents", package_version(), grammar_text()]
    for path, text in sources if sources is not None else prelude_sources():
        parts += [path, text]
    return source_digest(*parts, modules=FRONT_END_MODULES)


def lower_prelude(sources: list[tuple[str, str]] | None = None) -> tuple[SourceDocument, ...]:
    """Parse and lower the prelude from source, as :func:`smithy2cfn.load.loader.read_sources`
    does for IDL files: every file is parsed first, then lowered knowing the IDs of every
    prelude shape. (Problems stay in the documents; the prelude has none.)"""
    from smithy2cfn.parse.idl import parse_idl
    from smithy2cfn.parse.lower import lower_idl

    parsed = [parse_idl(text, path) for path, text in (sources if sources is not None else prelude_sources())]
    known: set[str] = set()
    for idl in parsed:
        known |= idl.defined_shape_ids()
    return tuple(lower_idl(idl, known) for idl in parsed)


# ----------------------------------------------------------------------------- encoding

def _value(v: Any) -> Any:
    if v is ANNOTATION:
        return {_MARK: "annotation"}
    if isinstance(v, dict):
        return _object(v)
    if type(v) is list:
        return [_value(x) for x in v]
    if v is None or type(v) in (str, int, float, bool):
        return v
    raise TypeError(f"a {type(v).__name__} cannot be written to the prelude data exactly")


def _object(d: dict) -> dict:
    if not all(type(k) is str for k in d):
        raise TypeError(f"object keys must be strings: {list(d)[:5]!r}")
    if any(k.startswith(_MARK) for k in d):
        return {_MARK: "escaped", **{_ESCAPE + k: _value(v) for k, v in d.items()}}
    return {k: _value(v) for k, v in d.items()}


def _hook(d: dict) -> Any:
    mark = d.get(_MARK)
    if mark is None:
        return d
    if mark == "annotation" and len(d) == 1:
        return ANNOTATION
    if mark == "escaped":
        return {k[1:]: v for k, v in d.items() if k != _MARK}
    raise ValueError(f"unknown marker {mark!r} in the prelude data")


def _span(s: Span | None, path: str) -> list | None:
    if s is None:
        return None
    pos = [s.line, s.column, s.end_line, s.end_column]
    return pos if s.path == path else [s.path, *pos]


def _unspan(v: list | None, path: str) -> Span | None:
    if v is None:
        return None
    return Span(path, *v) if len(v) == 4 else Span(*v)


def encode_documents(docs: tuple[SourceDocument, ...] | list[SourceDocument]) -> list[dict]:
    """The JSON form of lowered documents (see the module docstring).

    Raises:
        TypeError: a value that JSON cannot hold exactly, or a field of
            :class:`SourceDocument` / :class:`ApplyStatement` this form does not know (the
            generator then fails loudly instead of dropping it).
    """
    for cls, known in ((SourceDocument, _DOCUMENT_FIELDS), (ApplyStatement, _APPLY_FIELDS)):
        if set(fields(cls)) != known:
            raise TypeError(f"{cls.__name__} fields changed ({sorted(set(fields(cls)) ^ known)}): "
                            "teach smithy2cfn/load/prelude_data.py to write and read them")
    out = []
    for d in docs:
        p = d.path
        if d.locate is not None:  # (lowered IDL has none: a JSON AST document's locator reads its text)
            raise TypeError(f"{p}: a document with a locator (a JSON AST file's) cannot be stored")
        out.append({
            "path": p,
            "version": d.version,
            "ast": _value(d.ast),
            "applies": [{"target": a.target, "traits": _value(a.traits), "span": _span(a.span, p),
                         "trait_spans": _object({t: _span(s, p) for t, s in a.trait_spans.items()}),
                         "namespace": a.namespace}
                        for a in d.applies],
            "spans": _object({k: _span(s, p) for k, s in d.spans.items()}),
            "trait_spans": [[owner, trait, _span(s, p)] for owner, spans in d.trait_spans.items()
                            for trait, s in spans.items()],
            "metadata_spans": _object({k: _span(s, p) for k, s in d.metadata_spans.items()}),
            "diagnostics": [{"code": x.code, "severity": x.severity.name, "message": x.message,
                             "span": _span(x.span, p), "shape_id": x.shape_id, "hint": x.hint,
                             "event_id": x.event_id} for x in d.diagnostics],
            "duplicate_shapes": [[sid, _value(body), _span(sp, p)] for sid, body, sp in d.duplicate_shapes],
        })
    return out


def decode_documents(data: list[dict]) -> tuple[SourceDocument, ...]:
    """Documents from :func:`encode_documents` output (after JSON decoding with the marker
    hook, as :func:`load_documents` does)."""
    docs = []
    for d in data:
        p = d["path"]
        trait_spans: dict[str, dict[str, Span]] = {}
        for owner, trait, s in d["trait_spans"]:
            trait_spans.setdefault(owner, {})[trait] = _unspan(s, p)
        docs.append(SourceDocument(
            path=p,
            version=d["version"],
            ast=d["ast"],
            applies=[ApplyStatement(a["target"], a["traits"], _unspan(a["span"], p),
                                    {t: _unspan(s, p) for t, s in a["trait_spans"].items()}, a.get("namespace"))
                     for a in d["applies"]],
            spans={k: _unspan(s, p) for k, s in d["spans"].items()},
            trait_spans=trait_spans,
            metadata_spans={k: _unspan(s, p) for k, s in d["metadata_spans"].items()},
            diagnostics=[Diagnostic(x["code"], Severity[x["severity"]], x["message"], _unspan(x["span"], p),
                                    x["shape_id"], x["hint"], x["event_id"]) for x in d["diagnostics"]],
            duplicate_shapes=[(sid, body, _unspan(sp, p)) for sid, body, sp in d.get("duplicate_shapes", [])],
        ))
    return tuple(docs)


def render_documents(docs: tuple[SourceDocument, ...], key_: str) -> str:
    """The text of the shipped prelude data file for ``docs`` computed under ``key_``: as
    :func:`~smithy2cfn.parse.tables.render_data` writes it (strict JSON), with the documents'
    paths in the header (``"paths"``) and each document on a line of its own, so that a
    build parses and decodes only the documents of the packages it loads
    (:func:`documents_of`)."""
    encoded = encode_documents(docs)
    head = data_head("smithy2cfn prelude and trait packages, parsed and lowered", key_,
                     paths=[d["path"] for d in encoded])
    lines = [json.dumps(d, ensure_ascii=False, allow_nan=False, separators=(",", ":")) for d in encoded]
    return head + _DATA_LINE + "\n" + ",\n".join(lines) + "\n]\n}\n"


#: The line after the header of the shipped file, before one line per document.
_DATA_LINE = '"data": ['


@functools.cache
def _shipped_lines() -> dict[str, str] | None:
    """Path → the JSON text of its document, from the shipped file when its format and key
    match this installation (the layout :func:`render_documents` writes), else ``None``.
    Read once per process."""
    try:
        expected = key()
        lines = data_file(DOCUMENTS_FILE).read_text(encoding="utf-8").split("\n")
        start = lines.index(_DATA_LINE) + 1
        head = json.loads("{" + "".join(lines[1:start - 1]).rstrip(",") + "}")
    except (OSError, ValueError):  # (a file of another layout has no such line)
        return None
    paths = head.get("paths") if isinstance(head, dict) else None
    if not is_current(head, expected) or not isinstance(paths, list) or lines[start + len(paths):] != ["]", "}", ""]:
        return None
    texts = [line[:-1] if line.endswith(",") else line for line in lines[start:start + len(paths)]]
    return dict(zip(paths, texts, strict=True))


@functools.cache
def _shipped_document(path: str) -> SourceDocument | None:
    """The shipped document of ``path``, decoded once per process (``None`` if it cannot be)."""
    lines = _shipped_lines()
    if lines is None or path not in lines:
        return None
    try:
        (doc,) = decode_documents([json.loads(lines[path], object_hook=_hook)])
    except (KeyError, TypeError, ValueError):
        return None  # a file of the right key is never like this; lower rather than fail
    return doc


def documents_of(wanted: Callable[[str], bool]) -> list[SourceDocument]:
    """The prelude documents whose path ``wanted`` accepts, in the prelude's order: only
    those are parsed and decoded from the shipped data (a small model loads two of the 17,
    a quarter of the data), else lowered from source as :func:`prelude_documents` does."""
    lines = _shipped_lines()
    if lines is not None:
        docs = [_shipped_document(path) for path in lines if wanted(path)]
        if all(doc is not None for doc in docs):
            return [doc for doc in docs if doc is not None]
    return [doc for doc in _lowered() if wanted(doc.path)]


@functools.cache
def _lowered() -> tuple[SourceDocument, ...]:
    return lower_prelude()


def load_documents() -> tuple[SourceDocument, ...] | None:
    """The shipped lowered prelude, every document, when its key matches this installation
    (and its layout is :func:`render_documents`'s), else ``None``."""
    lines = _shipped_lines()
    if lines is None:
        return None
    docs = [_shipped_document(path) for path in lines]
    return None if None in docs else tuple(doc for doc in docs if doc is not None)


def prelude_documents() -> tuple[SourceDocument, ...]:
    """Our prelude and trait packages as lowered documents: the shipped data when it is
    current (:func:`load_documents`), else lowered from source (:func:`lower_prelude`, once
    per process)."""
    return tuple(documents_of(lambda path: True))


__all__ = ["DOCUMENTS_FILE", "FRONT_END_MODULES", "decode_documents", "documents_of", "encode_documents", "key",
           "load_documents", "lower_prelude", "prelude_documents", "prelude_sources", "render_documents"]
