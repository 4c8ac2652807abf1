"""The Smithy JSON AST (Smithy 2.0 "JSON AST"): reading files into :class:`SourceDocument`,
and writing a :class:`~smithy2cfn.model.Model` back out.

Reading (:func:`read_json_ast`).

The text is read as strict JSON (:mod:`smithy2cfn.model.jsonread`: no NaN/Infinity, finite
numbers, node values nested at most 256 deep), then every shape entry is checked against
the JSON AST's structure, as the reference's ``JsonAstLoader`` does: which properties each
shape type has and the type of each (shape references ``{"target": "ns#Name"}``, lists of
them, member objects, ``traits`` maps keyed by absolute shape IDs, ``rename``,
``identifiers``/``properties``, ``version``). A value of the wrong type is a located error
naming the property, and is dropped, so that the assembler only ever sees well-typed
documents; an unknown property is a warning (the reference's is too) and is dropped.
``"type": "apply"`` entries become :class:`ApplyStatement` objects.

Every shape, member, trait and metadata key gets the span of its key in the file (those of
members and traits deferred: found when first read, :meth:`~smithy2cfn.diagnostics.Span.deferred`).

Codes: ``S1100`` invalid JSON (syntax, ``NaN``/``Infinity``), ``S1016`` nested too deeply,
``S1103`` a number out of range, ``S1101`` wrong document structure (not an object, no
``smithy`` version, ``metadata``/``shapes`` or a shape entry not an object), ``S1102``
unsupported version, ``S1104`` a property of the wrong type or missing, ``S1105`` an invalid
shape ID or member name, ``S1106`` (warning) an unknown property, ``S1013`` a 2.0 feature
in a 1.0 file.

Writing (:func:`model_to_json_ast`, :func:`render_json_ast`), the way the reference
serializer does. Prelude and trait-package shapes are left out; shapes that use
mixins list them as ``mixins`` references and hold only what they introduce (traits,
members, and the errors/operations/resources/version/rename of operations, resources and
services); traits that a shape introduces on a member inherited from a mixin are written as
``"type": "apply"`` entries keyed by the member ID. As the reference serializer does:
operations always have ``input``/``output`` (``smithy.api#Unit`` when absent), lists of
shape references are sorted, IDL 1.0 ``set`` shapes become ``list`` + ``@uniqueItems``,
and the synthetic ``@box`` is left out. Keys are sorted, so the output is byte-stable.
"""

from __future__ import annotations

import json
import os
import re
from itertools import islice

from smithy2cfn.diagnostics import (
    Code,
    DeferredSpans,
    Diagnostic,
    Severity,
    SourceLimiter,
    Span,
    declare_codes,
)
from smithy2cfn.model.document import ApplyStatement, SourceDocument
from smithy2cfn.model.jsonread import (
    _SCAN,
    _SCANSTRING,
    MAX_NODE_DEPTH,
    SHORTEST_TOO_DEEP,
    BigNumber,
    JsonProblem,
    JsonText,
    _has_lone_surrogate,
    _max_depth,
    _Stop,
    _Walker,
    parse_json,
)
from smithy2cfn.model.knowledge_ops import sorted_ids
from smithy2cfn.model.nodes import node_kind
from smithy2cfn.model.relationships import LIFECYCLE_RELATIONSHIPS, NeighborIndex, RelationshipType
from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import BOX, UNIQUE_ITEMS, UNIT
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S1013", Severity.ERROR, "Model",
         "IDL 2.0 feature in a 1.0 file (mixins, `:=`, `for`, `$member`, defaults, enums, resource "
         "properties), or `set` in 2.0"),
    Code("S1101", Severity.ERROR, "Model",
         "JSON AST document has the wrong structure (not an object, no `smithy` version, "
         "`metadata`/`shapes`/a shape entry not an object)"),
    Code("S1102", Severity.ERROR, "Model", "unsupported Smithy version"),
    Code("S1104", Severity.ERROR, "Model",
         "a JSON AST property has the wrong type or is missing (`mixins`, `members`, `traits`, `target`, "
         "`rename`...)"),
    Code("S1105", Severity.ERROR, "Model",
         "a JSON AST shape ID or member name is invalid (trait names, targets, `rename` keys)"),
    Code("S1106", Severity.WARNING, "Model", "unknown JSON AST property (ignored, as the reference does)"),
)

_ID = lazy(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*#[A-Za-z_][A-Za-z0-9_]*(\$[A-Za-z_][A-Za-z0-9_]*)?\Z")
_IDENTIFIER = lazy(r"(?:_+[A-Za-z0-9]|[A-Za-z])[A-Za-z0-9_]*\Z")

# What a property holds.
_REF = "a shape reference object {\"target\": \"namespace#Name\"}"
_REFS = "a list of shape reference objects"
_REF_MAP = "an object of names to shape reference objects"
_MEMBER = "a member object {\"target\": ..., \"traits\": {...}}"
_MEMBERS = "an object of member names to member objects"
_TRAITS = "an object of trait shape IDs to trait values"
_STRING = "a string"
_RENAME = "an object of shape IDs to names"

_COMMON = {"type": None, "traits": _TRAITS, "mixins": _REFS}
_NAMED_MEMBERS = {**_COMMON, "members": _MEMBERS}
#: Shape type → property → what it holds (Smithy 2.0 "JSON AST"; reference ``JsonAstLoader``).
_PROPERTIES: dict[str, dict[str, str | None]] = {
    **{t: _COMMON for t in ("blob", "boolean", "document", "string", "byte", "short", "integer", "long",
                            "float", "double", "bigInteger", "bigDecimal", "timestamp")},
    "list": {**_COMMON, "member": _MEMBER},
    "set": {**_COMMON, "member": _MEMBER},
    "map": {**_COMMON, "key": _MEMBER, "value": _MEMBER},
    "structure": _NAMED_MEMBERS,
    "union": _NAMED_MEMBERS,
    "enum": _NAMED_MEMBERS,
    "intEnum": _NAMED_MEMBERS,
    "operation": {**_COMMON, "input": _REF, "output": _REF, "errors": _REFS},
    "resource": {**_COMMON, "identifiers": _REF_MAP, "properties": _REF_MAP,
                 **{op: _REF for op in ("create", "put", "read", "update", "delete", "list")},
                 "operations": _REFS, "collectionOperations": _REFS, "resources": _REFS},
    "service": {**_COMMON, "version": _STRING, "operations": _REFS, "resources": _REFS, "errors": _REFS,
                "rename": _RENAME},
    "apply": {"type": None, "traits": _TRAITS},
}
_TOP_LEVEL = ("smithy", "metadata", "shapes")
_MEMBER_PROPERTIES = ("target", "traits")
_STRUCTURED = {"members", "identifiers", "properties", "mixins", "operations", "resources", "errors",
               "collectionOperations"}


def _descend(path: tuple) -> bool:
    """The levels of a JSON AST walked with positions: the document, ``metadata`` keys, shape
    entries and their properties, members, references, and the keys of ``traits`` maps
    (trait and metadata values are node values, parsed whole)."""
    n = len(path)
    if n <= 1:
        return True
    if path[0] != "shapes":
        return False
    if n <= 3:
        return True
    key = path[2]
    if n == 4:
        return key in _STRUCTURED or (key in ("member", "key", "value") and path[3] == "traits")
    return n == 5 and key == "members" and path[4] == "traits"


def _remembered(value: str, valid: set[str], pattern: Any) -> bool:
    """Whether ``pattern`` (a compiled or :func:`~smithy2cfn.regexes.lazy` expression) matches
    ``value``, found in ``valid`` or added to it when it does (a reader's memo of the
    strings it has checked)."""
    if value in valid:
        return True
    if pattern.match(value):
        valid.add(value)
        return True
    return False


class _Reader:
    """Checks one parsed JSON AST document and fills a :class:`SourceDocument`."""

    def __init__(self, jt: JsonText, doc: SourceDocument) -> None:
        self.jt = jt
        self.doc = doc
        #: the spans inside shape entries, found when read (:meth:`Span.deferred`)
        self.locate = jt.span
        #: a file of 200,000 unknown properties makes 1,001 diagnostics of them (README "Limits")
        self.report = SourceLimiter(doc.diagnostics)
        #: strings already found to be absolute shape IDs (targets and trait names repeat)
        self.valid_ids: set[str] = set()
        #: strings already found to be member names
        self.valid_names: set[str] = set()

    def where(self, at: tuple) -> tuple[str, Any, tuple]:
        """The ``where`` of :meth:`Span.deferred` for the keys of the object at path ``at``."""
        return self.jt.path, self.locate, at

    def add(self, code: str, severity: Severity, message: str, path: tuple, shape_id: str | None,
            hint: str | None) -> None:
        report = self.report
        key = (code, severity)
        count = report.counts.get(key, 0)
        if count > report.limit:  # one the limiter only counts: its span is not looked for
            report.counts[key] = count + 1
            return
        report.add(code, severity, message, self.jt.span(path), shape_id, hint)

    def error(self, code: str, message: str, path: tuple, shape_id: str | None = None,
              hint: str | None = None) -> None:
        self.add(code, Severity.ERROR, message, path, shape_id, hint)

    def unknown(self, key: str, allowed: Any, path: tuple, shape_id: str | None) -> None:
        self.add("S1106", Severity.WARNING, f"unknown property '{key}' is ignored", (*path, key), shape_id,
                 "expected one of " + ", ".join(f"'{k}'" for k in allowed))

    # ---- values
    def known_id(self, value: str) -> bool:
        """Whether the string ``value`` is an absolute shape ID (``namespace#Name``, maybe with
        ``$member``), remembered in :attr:`valid_ids` when it is (targets and trait names repeat)."""
        return _remembered(value, self.valid_ids, _ID)

    def known_name(self, name: str) -> bool:
        """Whether ``name`` is a member name (an identifier), remembered in :attr:`valid_names`
        when it is."""
        return _remembered(name, self.valid_names, _IDENTIFIER)

    def shape_id(self, value: Any, what: str, path: tuple, owner: str | None) -> str | None:
        if not isinstance(value, str):
            self.error("S1104", f"{what} must be an absolute shape ID string, found {node_kind(value)}", path, owner)
            return None
        if not self.known_id(value):
            self.error("S1105", f"{what} '{value}' is not an absolute shape ID (namespace#Name)", path, owner)
            return None
        return value

    def ref(self, value: Any, what: str, path: tuple, owner: str) -> dict[str, str] | None:
        if not isinstance(value, dict):
            self.error("S1104", f"{what} of '{owner}' must be {_REF}, found {node_kind(value)}", path, owner)
            return None
        for key in value:
            if key != "target":
                self.unknown(key, ("target",), path, owner)
        if "target" not in value:
            self.error("S1104", f"{what} of '{owner}' has no 'target'", path, owner)
            return None
        target = self.shape_id(value["target"], f"the target of {what} of '{owner}'", (*path, "target"), owner)
        return {"target": target} if target else None

    def refs(self, value: Any, what: str, path: tuple, owner: str) -> list[dict[str, str]] | None:
        if not isinstance(value, list):
            self.error("S1104", f"'{path[-1]}' of '{owner}' must be {_REFS}, found {node_kind(value)}", path, owner)
            return None
        out = []
        for i, item in enumerate(value):
            r = self.ref(item, f"{what} #{i + 1}", (*path, i), owner)
            if r is not None:
                out.append(r)
        return out

    def ref_map(self, value: Any, path: tuple, owner: str) -> dict[str, dict[str, str]] | None:
        key = path[-1]
        if not isinstance(value, dict):
            self.error("S1104", f"'{key}' of '{owner}' must be {_REF_MAP}, found {node_kind(value)}", path, owner)
            return None
        out = {}
        for name, item in value.items():
            r = self.ref(item, f"{key[:-1]} '{name}'", (*path, name), owner)
            if r is not None:
                out[name] = r
        return out

    def traits(self, value: Any, path: tuple, owner: str) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.error("S1104", f"'traits' of '{owner}' must be {_TRAITS}, found {node_kind(value)}", path, owner)
            return None
        valid = self.valid_ids
        if valid.issuperset(value):  # the usual case: every trait name seen before
            return value
        out = {}
        for tid, trait_value in value.items():
            if tid not in valid and self.shape_id(tid, "trait name", (*path, tid), owner) is None:
                continue
            out[tid] = trait_value
        return out

    def member(self, value: Any, at: tuple, name: str, member_id: str) -> dict[str, Any] | None:
        """The member ``name`` of the object at path ``at`` (``members``, or a shape entry
        for ``member``, ``key`` and ``value``), checked, its spans recorded. A member written
        as it should be is the parsed object itself."""
        if not isinstance(value, dict):
            self.error("S1104", f"member '{member_id}' must be {_MEMBER}, found {node_kind(value)}", (*at, name),
                       member_id)
            return None
        size = len(value)
        if size > 2 or (size == 2 and "traits" not in value):
            for key in value:
                if key not in _MEMBER_PROPERTIES:
                    self.unknown(key, _MEMBER_PROPERTIES, (*at, name), member_id)
        if "target" not in value:
            self.error("S1104", f"member '{member_id}' has no 'target'", (*at, name), member_id)
            return None
        target = value["target"]
        if type(target) is not str or target not in self.valid_ids:
            target = self.shape_id(target, f"the target of member '{member_id}'", (*at, name, "target"), member_id)
            if target is None:
                return None
        self.doc.spans[member_id] = Span.deferred(self.where(at), name)
        if size == 1:
            return value  # (only a target: nothing to leave out)
        raw = value.get("traits")
        if raw is None:
            return {"target": target}
        traits_at = (*at, name, "traits")
        traits = self.traits(raw, traits_at, member_id)
        if not traits:
            return {"target": target}
        self.trait_spans(member_id, traits_at, traits)
        return value if size == 2 and traits is raw else {"target": target, "traits": traits}

    def as_written(self, name: str, body: Any) -> bool:
        """Whether the member ``name`` of a ``members`` object is written as it should be (a
        valid name, a valid target, and traits keyed by valid IDs, if any): what
        :meth:`member` checks of such a member, which :meth:`members` keeps as it is, without
        its calls (SageMaker's 7,500 members: 25 million instructions), and without recording
        its spans: :meth:`SourceDocument.span_of` and :meth:`SourceDocument.trait_spans_of`,
        and the members the loader builds, make them when first read (a few diagnostics read
        a few hundred of SageMaker's; making them all was 48 million instructions of its
        build). Any other member is for :meth:`member`."""
        if type(body) is not dict or type(target := body.get("target")) is not str:
            return False
        valid = self.valid_ids
        if not (name in self.valid_names or self.known_name(name)) or not (target in valid or self.known_id(target)):
            return False
        size = len(body)
        if size == 1:
            return True
        raw = body.get("traits")
        return size == 2 and type(raw) is dict and bool(raw) and valid.issuperset(raw)

    def members(self, value: Any, path: tuple, shape_id: str) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.error("S1104", f"'members' of '{shape_id}' must be {_MEMBERS}, found {node_kind(value)}", path,
                       shape_id)
            return None
        out: dict[str, Any] | None = None  # made at the first member that is not kept as it is
        for i, (name, body) in enumerate(value.items()):
            if out is None and self.as_written(name, body):
                continue
            member = None
            if not self.known_name(name):
                self.error("S1105", f"invalid member name '{name}' in '{shape_id}': expected an identifier",
                           (*path, name), shape_id)
            else:
                member = self.member(body, path, name, f"{shape_id}${name}")
                if member is body and out is None:
                    continue
            if out is None:
                out = dict(islice(value.items(), i))
            if member is not None:
                out[name] = member
        return value if out is None else out

    def rename(self, value: Any, path: tuple, shape_id: str) -> dict[str, str] | None:
        if not isinstance(value, dict):
            self.error("S1104", f"'rename' of '{shape_id}' must be {_RENAME}, found {node_kind(value)}", path, shape_id)
            return None
        out = {}
        for key, name in value.items():
            if self.shape_id(key, "a 'rename' key", (*path, key), shape_id) is None:
                continue
            if not isinstance(name, str):
                self.error("S1104", f"'rename' of '{shape_id}' must map '{key}' to a name string, found "
                           f"{node_kind(name)}", (*path, key), shape_id)
                continue
            out[key] = name
        return out

    def trait_spans(self, owner: str, at: tuple, traits: dict[str, Any]) -> None:
        """The spans of ``owner``'s traits, written in the ``traits`` object at ``at``: one
        :class:`~smithy2cfn.diagnostics.DeferredSpans` over its keys (``traits``, the
        document's own dict, which nothing changes)."""
        self.doc.trait_spans[owner] = DeferredSpans(self.where(at), traits)

    # ---- shapes
    def shape(self, shape_id: str, body: Any) -> None:
        doc = self.doc
        path = ("shapes", shape_id)
        if not self.known_id(shape_id):  # (most are known: targets of shapes read before)
            self.error("S1101", f"invalid shape ID '{shape_id}' (expected namespace#Name)", path)
            return
        if not isinstance(body, dict):
            self.error("S1101", f"shape '{shape_id}' must be an object with a 'type', found {node_kind(body)}", path,
                       shape_id)
            return
        kind = body.get("type")
        if not isinstance(kind, str):
            self.error("S1101", f"shape '{shape_id}' needs a string 'type'", path, shape_id)
            return
        span = self.jt.span(path)
        allowed = _PROPERTIES.get(kind)
        if allowed is None:
            doc.ast["shapes"][shape_id] = {"type": kind}  # the assembler reports the unknown type
            doc.spans[shape_id] = span
            return
        if "$" in shape_id and kind != "apply":
            self.error("S1105", f"a {kind} shape cannot have a member ID ('{shape_id}')", path, shape_id)
            return
        clean: dict[str, Any] = {"type": kind}
        for key, value in body.items():
            what = allowed.get(key, "")
            if what == "":
                self.unknown(key, allowed, path, shape_id)
                continue
            if what is None:  # ("type", read above)
                continue
            sub = (*path, key)
            if what == _TRAITS:
                out: Any = self.traits(value, sub, shape_id)
                if out is not None:
                    self.trait_spans(shape_id, sub, out)
            elif what == _REFS:
                out = self.refs(value, "mixin" if key == "mixins" else key.rstrip("s"), sub, shape_id)
            elif what == _REF:
                out = self.ref(value, f"'{key}'", sub, shape_id)
            elif what == _REF_MAP:
                out = self.ref_map(value, sub, shape_id)
            elif what == _MEMBER:
                out = self.member(value, path, key, f"{shape_id}${key}")
            elif what == _MEMBERS:
                out = self.members(value, sub, shape_id)
            elif what == _RENAME:
                out = self.rename(value, sub, shape_id)
            else:  # _STRING
                out = value if isinstance(value, str) else None
                if out is None:
                    self.error("S1104", f"'{key}' of '{shape_id}' must be a string, found {node_kind(value)}", sub,
                               shape_id)
            if out is not None:
                clean[key] = out
        if kind == "apply":
            where = self.where((*path, "traits"))
            doc.applies.append(ApplyStatement(shape_id, dict(clean.get("traits") or {}), span, {
                tid: Span.deferred(where, tid) for tid in clean.get("traits") or {}}))
            return
        if doc.version == "1.0":
            for key, feature in (("properties", "resource properties"), ("mixins", "mixins")):
                if key in body and (key != "properties" or kind == "resource"):
                    self.error("S1013", f"{feature} can only be used with Smithy version 2 or later "
                               f"(shape '{shape_id}' is in a version 1.0 file)", (*path, key), shape_id)
        doc.ast["shapes"][shape_id] = clean
        doc.spans[shape_id] = span


def parse_json_ast_text(text: str, path: str) -> tuple[JsonText, JsonProblem | None]:
    """The JSON of a JSON AST file, parsed as :func:`read_json_ast` parses it (strict
    RFC 8259, node values at most 256 levels deep, positions of the upper levels); see
    :func:`~smithy2cfn.model.jsonread.parse_json`. Never raises on bad input.

    A well-formed file is read by :class:`_QuickWalk`, which records the positions of the
    document's, metadata and shape keys, and those inside a shape entry only when one of
    them is asked for (a span there is read); any other file (not JSON, beyond a
    limit, a key defined twice, an unpaired surrogate) by
    :func:`~smithy2cfn.model.jsonread.parse_json`, which finds the first problem. Either
    way the value and every span are the same.
    """
    quick = _QuickWalk(text, path)
    try:
        value = quick.document()
    except _Careful:
        return parse_json(text, path, _descend, whole_is_node=False)
    return JsonText(path, text, value, quick.positions, quick.complete, quick.spans), None


class _Careful(Exception):
    """:class:`_QuickWalk` stops: the text needs :func:`~smithy2cfn.model.jsonread.parse_json`."""


#: The start of an object's first member (group 1: its key, without escapes) or its end (group 2).
_FIRST = lazy(r'\{[ \t\n\r]*(?:"([^"\\\x00-\x1f]*)"[ \t\n\r]*:[ \t\n\r]*|(\}))')
#: After a member's value: the next member's start (group 1: its key) or the object's end (group 2).
_NEXT = lazy(r'[ \t\n\r]*(?:,[ \t\n\r]*"([^"\\\x00-\x1f]*)"[ \t\n\r]*:[ \t\n\r]*|(\}))')
#: Before a key with escapes: ``{`` or ``,`` (group 1) and spaces.
_BEFORE_KEY = lazy(r"[ \t\n\r]*([{,])[ \t\n\r]*")
_COLON = lazy(r"[ \t\n\r]*:[ \t\n\r]*")
_SPACE = lazy(r"[ \t\n\r]*")

#: What :class:`_QuickWalk` walks: the document, ``shapes``, and an object of keys to values
#: parsed whole (``metadata``).
_IN_DOCUMENT, _IN_SHAPES, _IN_VALUES = range(3)


class _QuickWalk:
    """Reads a well-formed JSON AST text: the document, ``metadata`` and ``shapes`` are
    walked here, recording the positions of their keys under the paths
    :func:`~smithy2cfn.model.jsonread.parse_json` gives them; each shape entry, and every
    other value, is parsed whole by the C scanner of :mod:`json` (strict hooks, the values
    parse_json makes). The positions inside a shape entry (its properties, members and
    traits) are recorded when a span there is first asked for (:meth:`complete`, which
    walks that entry as parse_json does): a reader asks for them through deferred spans
    (:meth:`~smithy2cfn.diagnostics.Span.deferred`), and only a diagnostic, a comparison or
    a pickle reads one. Raises :class:`_Careful` at anything else: a syntax error, a number
    beyond the limits, a key defined twice in a walked object, an unpaired surrogate
    escape, a value parsed whole that nests more than :data:`MAX_NODE_DEPTH` levels (a
    shape entry's node values are two or four levels down in it, so this refuses every
    entry parse_json would find too deep, and a few it would not).
    """

    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path
        self.positions: dict[tuple, int] = {}
        #: the spans of the document's, metadata and shape keys, made in text order (:meth:`span_at`)
        self.spans: dict[tuple, Span] = {}
        #: offset, its line (0-based), that line's first offset (:meth:`span_at`)
        self.line = [0, 0, 0]
        #: path of a shape entry → offset of its value, for :meth:`complete`
        self.entries: dict[tuple, int] = {}
        #: path of a shape entry → the length of the paths whose positions its walks recorded
        self.done: dict[tuple, int] = {}
        #: (start, end) offsets of the arrays and objects parsed whole, long enough to nest too deeply
        self.nodes: list[tuple[int, int]] = []

    def document(self) -> Any:
        text = self.text
        if _has_lone_surrogate(text):
            raise _Careful
        idx = _SPACE.match(text).end()
        if not text.startswith("{", idx):
            raise _Careful
        out, idx = self.walk(idx, _IN_DOCUMENT, ())
        if _SPACE.match(text, idx).end() != len(text):
            raise _Careful
        for start, end in self.nodes:  # (brackets counted first: a value of fewer cannot nest too deeply)
            if text.count("{", start, end) + text.count("[", start, end) > MAX_NODE_DEPTH and \
                    _max_depth(text[start:end]) > MAX_NODE_DEPTH:
                raise _Careful
        return out

    def span_at(self, offset: int) -> Span:
        """The span of ``offset``, counting lines from the last one asked (asked in text order)."""
        at = self.line
        last, line, start = at
        n = self.text.count("\n", last, offset)
        if n:
            line += n
            start = self.text.rfind("\n", last, offset) + 1
        at[0], at[1], at[2] = offset, line, start
        return Span(self.path, line + 1, offset - start + 1)

    def odd_key(self, idx: int, before: str) -> tuple[str, int, int]:
        """A key with escapes after ``before`` (``{`` or ``,``) at ``idx``: the key, its
        offset and its value's."""
        text = self.text
        m = _BEFORE_KEY.match(text, idx)
        if m is None or m.group(1) != before or not text.startswith('"', m.end()):
            raise _Careful
        start = m.end()
        try:
            key, end = _SCANSTRING(text, start + 1, True)
        except ValueError:
            raise _Careful from None
        m = _COLON.match(text, end)
        if m is None:
            raise _Careful
        return key, start, m.end()

    def walk(self, idx: int, level: int, path: tuple) -> tuple[dict[str, Any], int]:
        """The object at ``idx`` (a ``{``) and the offset after it; ``path`` as parse_json's."""
        text = self.text
        positions = self.positions
        spans = self.spans
        scan = _SCAN
        out: dict[str, Any] = {}
        m = _FIRST.match(text, idx)
        if m is None:
            key, start, idx = self.odd_key(idx, "{")
        elif m.group(2):
            return out, m.end()
        else:
            key, start, idx = m.group(1), m.start(1) - 1, m.end()
        while True:
            if key in out:
                raise _Careful
            value = None
            sub = (*path, key)
            positions[sub] = start
            if level == _IN_SHAPES:
                spans[sub] = self.span_at(start)
                self.entries[sub] = idx
            elif level == _IN_VALUES:
                spans[sub] = self.span_at(start)
            elif key == "shapes" and text.startswith("{", idx):
                value, idx = self.walk(idx, _IN_SHAPES, sub)
            elif key == "metadata" and text.startswith("{", idx):
                value, idx = self.walk(idx, _IN_VALUES, sub)
            if value is None:
                try:
                    value, end = scan(text, idx)
                except (StopIteration, ValueError, RecursionError):  # (JSONDecodeError, a number out of range)
                    raise _Careful from None
                if end - idx > SHORTEST_TOO_DEEP and text[idx] in "[{":
                    self.nodes.append((idx, end))
                idx = end
            out[key] = value
            m = _NEXT.match(text, idx)
            if m is None:
                key, start, idx = self.odd_key(idx, ",")
            elif m.group(2):
                return out, m.end()
            else:
                key, start, idx = m.group(1), m.start(1) - 1, m.end()

    def complete(self, path: tuple) -> Span | None:
        """The span of ``path`` inside a shape entry (that of its nearest ancestor whose
        position parse_json records, as :meth:`JsonText.span` gives it), lines counted
        from the entry's key, whose span is known (spans are asked in any order: no table
        of the file's lines is made); ``None`` for a path elsewhere. The positions of an
        entry's keys down to the depth of ``path`` are recorded the first time a path that
        deep is asked for (a member's span walks the entry's members, not their bodies, which
        the C scanner parses whole: an enum's members are what most warnings point at)."""
        entry = path[:2]
        if len(path) < 3 or entry not in self.entries:
            return None
        positions = self.positions
        depth = len(path)
        if self.done.get(entry, 0) < depth:
            self.done[entry] = depth
            try:
                _Walker(self.text, positions, lambda at: len(at) < depth and _descend(at)).value(
                    self.entries[entry], entry)
            except _Stop:  # (not on a text this walk read)
                pass
        while len(path) > 2:
            offset = positions.get(path)
            if offset is not None:
                text = self.text
                anchor = positions[entry]
                known = self.spans[entry]
                start = text.rfind("\n", anchor, offset) + 1 or anchor - known.column + 1
                return Span(self.path, known.line + text.count("\n", anchor, offset), offset - start + 1)
            path = path[:-1]
        return None


def read_json_ast(text: str, path: str) -> SourceDocument:
    """Parse a JSON AST file into a :class:`SourceDocument`; never raises on bad input.

    Args:
        text: the file's text.
        path: its path, for diagnostics.

    Returns:
        The document, holding only well-typed shape entries (see the module docstring);
        problems are in ``document.diagnostics``. The spans of members and traits are
        deferred (:meth:`~smithy2cfn.diagnostics.Span.deferred`): found when first read.

    Follows Smithy 2.0 "JSON AST" (top-level ``smithy``, ``metadata``, ``shapes``) and the
    reference's ``JsonAstLoader``.
    """
    doc = _empty_document(path)
    jt, problem = parse_json_ast_text(text, path)
    if problem is not None:
        message = f"invalid JSON: {problem.message}" if problem.code == "S1100" else problem.message
        doc.diagnostics.append(Diagnostic(problem.code, Severity.ERROR, message, jt.span_at(problem.offset)))
        return doc
    return _read_json_ast_document(jt, doc)


def _empty_document(path: str) -> SourceDocument:
    """The document :func:`read_json_ast` fills: version 2.0, no metadata, no shapes."""
    return SourceDocument(path=path, version="2.0", ast={"smithy": "2.0", "metadata": {}, "shapes": {}})


def _read_json_ast_document(jt: JsonText, doc: SourceDocument) -> SourceDocument:
    """:func:`read_json_ast` from the parsed JSON ``jt`` on: checks and fills ``doc``."""
    reader = _Reader(jt, doc)
    doc.locate = reader.locate  # (the spans of members written as they should be: SourceDocument.span_of)
    data = jt.value
    if not isinstance(data, dict):
        reader.error("S1101", f"a JSON AST model must be a JSON object, found {node_kind(data)}", ())
        return doc
    version = data.get("smithy")
    if not isinstance(version, str):
        reader.error("S1101", "a JSON AST model needs a string 'smithy' version"
                     + (f", found {node_kind(version)}" if "smithy" in data else ""), ("smithy",))
        return doc
    if version in ("1", "1.0"):
        doc.version = "1.0"
    elif version in ("2", "2.0"):
        doc.version = "2.0"
    else:
        reader.error("S1102", f"unsupported Smithy version '{version}'", ("smithy",),
                     hint="use \"2.0\" (or \"1.0\")")
        return doc
    doc.ast["smithy"] = doc.version
    for key in data:
        if key not in _TOP_LEVEL:
            reader.unknown(key, _TOP_LEVEL, (), None)
    metadata = data.get("metadata", {})
    if not isinstance(metadata, dict):
        reader.error("S1101", f"'metadata' must be an object, found {node_kind(metadata)}", ("metadata",))
    else:
        doc.ast["metadata"] = metadata
        doc.metadata_spans = {key: jt.span(("metadata", key)) for key in metadata}
    shapes = data.get("shapes", {})
    if not isinstance(shapes, dict):
        reader.error("S1101", f"'shapes' must be an object, found {node_kind(shapes)}", ("shapes",))
        return doc
    for shape_id, body in shapes.items():
        reader.shape(shape_id, body)
    reader.report.finish()  # (the returns above come before the shapes: a few diagnostics at most)
    jt.value = None  # (the deferred spans keep jt: its text and positions are what they read)
    return doc


# --- Writing ---------------------------------------------------------------------------------

def _ref(shape_id: str) -> dict[str, str]:
    return {"target": shape_id}


#: Traits the reference treats as synthetic and never writes in a 2.0 JSON AST.
_SYNTHETIC = frozenset({BOX})


def _traits(traits: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in traits.items() if k not in _SYNTHETIC}


def _member(member: Member) -> dict[str, Any]:
    out: dict[str, Any] = {"target": member.target}
    traits = _traits(member.introduced_traits)
    if traits:
        out["traits"] = traits
    return out


def _id_list(ids: list[str]) -> list[dict[str, str]]:
    """A list of references, sorted by shape ID as the reference serializer writes them
    (``ModelSerializer.createOptionalIdList``: :func:`~smithy2cfn.model.knowledge_ops.sorted_ids`)."""
    return [_ref(i) for i in sorted_ids(ids)]


def _bound(model: Model, shape_id: str, kind: RelationshipType) -> list[str]:
    """The neighbors of ``shape_id`` through relationships of type ``kind``, in order."""
    return [rel.neighbor for rel in model.knowledge(NeighborIndex).neighbors(shape_id) if rel.type is kind]


def _introduced(model: Model, shape: Shape, kind: RelationshipType) -> list[str]:
    """The neighbors of ``kind`` that ``shape`` binds itself (none of its mixins binds them)."""
    inherited = {n for mixin in shape.mixins if mixin in model.shapes for n in _bound(model, mixin, kind)}
    return [n for n in _bound(model, shape.id, kind) if n not in inherited]


def shape_to_json_ast(shape: Shape, model: Model) -> dict[str, dict[str, Any]]:
    """The JSON AST entries for one shape of ``model``: its own entry plus any ``apply`` entries.

    What a mixin contributes to a service, resource or operation (its bindings: the
    shape's :func:`~smithy2cfn.model.relationships.relationships` that a mixin has too) is
    left out, as the reference serializer does.

    Returns a dict of absolute ID → JSON AST body (``{"type": ..., ...}``).
    """
    body: dict[str, Any] = {"type": shape.type}
    extra: dict[str, dict[str, Any]] = {}
    if shape.mixins:
        body["mixins"] = [_ref(m) for m in shape.mixins]
    traits = _traits(shape.introduced_traits if shape.mixins else shape.traits)
    if shape.type == "set":
        # Sets are not part of IDL 2.0: the reference writes them as lists with @uniqueItems.
        body["type"] = "list"
        traits.setdefault(UNIQUE_ITEMS, {})
    if traits:
        body["traits"] = traits
    mixin_shapes = [model.shapes[m] for m in shape.mixins if m in model.shapes]

    local = {n: m for n, m in shape.members.items() if m.from_mixin is None}
    if shape.type in ("list", "set"):
        if "member" in local:
            body["member"] = _member(local["member"])
    elif shape.type == "map":
        for name in ("key", "value"):
            if name in local:
                body[name] = _member(local[name])
    elif shape.type in ("structure", "union", "enum", "intEnum"):
        body["members"] = {n: _member(m) for n, m in local.items()}
    for member in shape.members.values():
        if member.from_mixin is not None and _traits(member.introduced_traits):
            extra[member.id] = {"type": "apply", "traits": _traits(member.introduced_traits)}
    if shape.type == "operation":
        body["input"] = _ref(shape.input or UNIT)
        body["output"] = _ref(shape.output or UNIT)
        errors = _introduced(model, shape, RelationshipType.ERROR)
        if errors:
            body["errors"] = _id_list(errors)
    elif shape.type == "resource":
        if shape.identifiers:
            body["identifiers"] = {k: _ref(v) for k, v in shape.identifiers.items()}
        if shape.properties:
            body["properties"] = {k: _ref(v) for k, v in shape.properties.items()}
        for name, kind in LIFECYCLE_RELATIONSHIPS.items():
            for op in _bound(model, shape.id, kind):
                body[name] = _ref(op)
        operations = _introduced(model, shape, RelationshipType.OPERATION)
        if operations:
            body["operations"] = _id_list(operations)
        collection = _bound(model, shape.id, RelationshipType.COLLECTION_OPERATION)
        if collection:
            body["collectionOperations"] = _id_list(collection)
        resources = _introduced(model, shape, RelationshipType.RESOURCE)
        if resources:
            body["resources"] = _id_list(resources)
    elif shape.type == "service":
        versions = {m.version for m in mixin_shapes}
        if shape.version and shape.version.strip() and shape.version not in versions:
            body["version"] = shape.version
        for attr, kind in (("operations", RelationshipType.OPERATION), ("resources", RelationshipType.RESOURCE),
                           ("errors", RelationshipType.ERROR)):
            values = _introduced(model, shape, kind)
            if values:
                body[attr] = _id_list(values)
        inherited_rename: dict[str, str] = {}
        for m in mixin_shapes:
            inherited_rename.update(m.rename)
        rename = {k: v for k, v in shape.rename.items() if inherited_rename.get(k) != v}
        if rename:
            body["rename"] = rename
    return {shape.id: body, **extra}


def model_to_json_ast(model: Model, *, include_prelude: bool = False) -> dict[str, Any]:
    """The whole model as a JSON AST document (``{"smithy": "2.0", "metadata"?, "shapes"}``)."""
    shapes: dict[str, Any] = {}
    for shape_id in sorted(model.shapes):
        if not include_prelude and model.is_prelude(shape_id):
            continue
        shapes.update(shape_to_json_ast(model.shapes[shape_id], model))
    doc: dict[str, Any] = {"smithy": "2.0"}
    if model.metadata:
        doc["metadata"] = model.metadata
    doc["shapes"] = shapes
    return doc


def render_json_ast(document: dict[str, Any], *, sort_keys: bool = True) -> str:
    """Byte-stable text of a JSON AST document: sorted keys (a shape's ``members`` in the
    model's order; every key in its order when ``sort_keys`` is false), 4-space indent,
    final newline.

    Strict JSON (RFC 8259). A :class:`~smithy2cfn.model.jsonread.BigNumber` (a number too
    large for a 64-bit float) is written as it was written in the model, as the reference
    keeps such numbers.

    Raises:
        ValueError: the document holds a NaN or an infinite float (the readers never make one).
    """
    bigs: list[str] = []
    marker = f"bignumber-{os.urandom(16).hex()}-"  # no text of the model can hold it

    def swap(value: Any, ordered: bool = False) -> Any:  # at most MAX_NODE_DEPTH deep: bounded recursion
        if isinstance(value, BigNumber):
            bigs.append(value.literal)
            return f"{marker}{len(bigs) - 1}"
        if isinstance(value, dict):
            # keys sorted, except a shape's members: their order is the model's (an enum's
            # values, a structure's fields), as the reference's JSON AST keeps it
            items = value.items() if ordered or not sort_keys else sorted(value.items())
            return {k: swap(v, k == "members") for k, v in items}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    text = json.dumps(swap(document), indent=4, ensure_ascii=False, allow_nan=False) + "\n"
    if bigs:
        text = re.sub(f'"{marker}([0-9]+)"', lambda m: bigs[int(m.group(1))], text)
    return text
