"""The Smithy IDL front end: text → :class:`IdlFile` (Smithy 2.0 "Smithy IDL").

:func:`parse_idl` tokenizes and parses one file with the LALR grammar
(``grammar/smithy.lark``, see :mod:`smithy2cfn.parse.syntax`), then walks the parse tree into
plain records (:mod:`smithy2cfn.records`) that keep every name *as written* (relative shape
IDs are resolved later, by :func:`smithy2cfn.parse.lower.lower_idl`, once the IDs of all
loaded files are known).
It also makes the checks that the ABNF expresses through whitespace (``BR``/``SP``) and the
section order (control, metadata, namespace, use, shapes).

Diagnostic codes (all ERROR unless noted):

* ``S1001`` syntax error (grammar, tokens, escapes, numbers, line breaks);
* ``S1010`` statement out of order (control not first, metadata after namespace, use after
  shapes, shapes before the namespace);
* ``S1011`` duplicate statement or member (second namespace, duplicate control statement,
  duplicate member name, operation property given twice);
* ``S1012`` bad ``$version`` (not a string, unsupported version);
* ``S1013`` IDL 2.0 syntax in an IDL 1.0 file (mixins, ``:=``, ``for``, ``$member``,
  ``= default``, ``enum``/``intEnum``), or ``set`` in IDL 2.0;
* ``S1014`` invalid use statement (member ID, relative ID);
* ``S1015`` (WARNING) unknown control statement;
* ``S1018`` (WARNING) documentation comment attached to nothing (the reference's
  ``Model.BadDocumentationComment``; see ``_Walker.doc_event``);
* ``S1016`` node value nested too deeply (``MAX_NODE_DEPTH``, the JSON readers' limit too);
* ``S1103`` a number literal out of range (``smithy2cfn.model.jsonread.read_number``).
"""

from __future__ import annotations

import bisect
import itertools
import operator
import re

from smithy2cfn import garbage_collection
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, SourceLimiter, Span, declare_codes
from smithy2cfn.model.document import ANNOTATION
from smithy2cfn.model.jsonread import MAX_NODE_DEPTH as _MAX_NODE_DEPTH
from smithy2cfn.model.jsonread import read_number
from smithy2cfn.parse import strings
from smithy2cfn.parse.syntax import (
    FAST_VALUE_DEPTH,
    KEYWORD_VALUES,
    DocComment,
    Node,
    ParseResult,
    Tokens,
    after,
    line_breaks,
    parse_tokens,
)
from smithy2cfn.parse.syntax import SIMPLE_IDENTIFIER as _IDENTIFIER
from smithy2cfn.records import Record
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S1001", Severity.ERROR, "Model",
         "IDL syntax error (grammar, tokens, escapes, numbers, required line breaks)"),
    Code("S1010", Severity.ERROR, "Model",
         "statement out of order (`$version` not first, `use` after shapes...)"),
    Code("S1011", Severity.ERROR, "Model", "duplicate statement, member, trait or object key"),
    Code("S1012", Severity.ERROR, "Model", "bad `$version` or operation input/output suffix"),
    Code("S1014", Severity.ERROR, "Model", "invalid `use` statement, or a shape named like a `use`d one"),
    Code("S1015", Severity.WARNING, "Model", "unknown control statement"),
    Code("S1018", Severity.WARNING, "Model.BadDocumentationComment",
         "documentation comment (`///`) attached to nothing (after traits, at the end of a line or file, "
         "before `}`...)"),
)

#: How deep node values may nest (shared with the JSON readers).
MAX_NODE_DEPTH = _MAX_NODE_DEPTH
#: The deepest place where ``_Walker.node_value`` takes a value the parser read (nested at
#: most :data:`~smithy2cfn.parse.syntax.FAST_VALUE_DEPTH` levels: none of them can be too deep).
_FAST_VALUE_DEPTH = MAX_NODE_DEPTH - FAST_VALUE_DEPTH - 1
_NO_VALUE = object()

#: What happens to documentation comments at a place the walk records (see
#: ``_Walker.doc_event``): they document a shape or member, warn, are dropped silently, or end
#: an enum's members (a syntax error, as in the reference).
_DOC_ATTACH, _DOC_WARN, _DOC_DROP, _DOC_ENUM_END, _DOC_WARN_HERE = range(5)
#: The reference's message (LoaderUtils.emitBadDocComment), then the comments' text.
_BAD_DOC_MESSAGE = ("Found documentation comments ('///') attached to nothing. Documentation comments must "
                    "appear on their own lines, directly before shapes and members, and before any traits. "
                    "The invalid comments were: ")
_BAD_DOC_HINT = ("put '///' comments on their own lines directly before the shape or member they document, "
                 "above its traits, or make them plain comments ('//')")


_START = operator.attrgetter("start")
_TEXT = operator.attrgetter("text")
_NAMESPACE = lazy(r"(?:_+[A-Za-z0-9]|[A-Za-z])[A-Za-z0-9_]*(?:\.(?:_+[A-Za-z0-9]|[A-Za-z])[A-Za-z0-9_]*)*\Z")
_SHAPE_ID = lazy(
    r"(?:[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*#)?[A-Za-z_][A-Za-z0-9_]*(?:\$[A-Za-z_][A-Za-z0-9_]*)?\Z")
_VERSION = lazy(r"([0-9]+)(?:\.([0-9]+))?\Z")


class UnquotedId(str):
    """An unquoted string node value: a syntactic shape ID (Smithy 2.0 IDL §"Syntactic
    shape IDs"), resolved to an absolute shape ID during lowering. ``span`` is where it
    was written (``None`` when unknown)."""

    span: Span | None = None

    @classmethod
    def at(cls, value: str, span: Span) -> UnquotedId:
        """An unquoted ID written at ``span``."""
        out = cls(value)
        out.span = span
        return out


class TraitApplication(Record, hidden=("plain",)):
    """``@name`` / ``@name(value)``. ``name`` is as written; ``value`` is ``ANNOTATION`` for an
    annotation trait (no value or empty parentheses) else a node value (JSON-like, with
    :class:`UnquotedId` strings). ``plain``: the value holds no :class:`UnquotedId` (it is
    plain JSON already; the lowering takes it as it is instead of copying it)."""

    __slots__ = ("name", "value", "span", "plain")
    name: str
    value: Any
    span: Span
    plain: bool

    def __init__(self, name: str, value: Any, span: Span, plain: bool = False) -> None:
        self.name = name
        self.value = value
        self.span = span
        self.plain = plain


class MemberDef(Record):
    """A shape member (``name: Target``, ``$name``) or an enum member (``NAME = value``).

    ``target`` is as written (``None`` when elided or for enum members); ``has_value`` tells
    whether ``= value`` was given (``value`` then holds it). ``span`` starts at the name (or
    the ``$`` of an elided member), after the traits; ``docs_span`` is where its
    documentation comment starts.
    """

    __slots__ = ("name", "target", "span", "traits", "docs", "docs_span", "elided", "has_value", "value",
                 "value_span")
    name: str
    target: str | None
    span: Span
    traits: list[TraitApplication]
    docs: str | None
    docs_span: Span | None
    elided: bool
    has_value: bool
    value: Any
    value_span: Span | None

    def __init__(self, name: str, target: str | None, span: Span,
                 traits: list[TraitApplication] | None = None, docs: str | None = None,
                 docs_span: Span | None = None, elided: bool = False, has_value: bool = False,
                 value: Any = None, value_span: Span | None = None) -> None:
        self.name = name
        self.target = target
        self.span = span
        self.traits = [] if traits is None else traits
        self.docs = docs
        self.docs_span = docs_span
        self.elided = elided
        self.has_value = has_value
        self.value = value
        self.value_span = value_span


class ShapeDef(Record):
    """One shape statement (or an inline ``:=`` input/output structure).

    Attributes:
        type: the shape type keyword (``structure``, ``string``, ``set``...).
        name: the shape name (a relative identifier).
        members: members in source order (``None`` for shapes without a member block).
        body: the node object of a ``service``/``resource`` (JSON-like, unresolved).
        input/output: for operations, the target as written or an inline :class:`ShapeDef`.
        errors: for operations, the error targets as written.
        inline: ``"input"``/``"output"`` for shapes written with ``:=``.
        docs_span: where the documentation comment starts.
    """

    __slots__ = ("type", "name", "span", "traits", "docs", "docs_span", "mixins", "for_resource", "members",
                 "body", "input", "output", "errors", "inline")
    type: str
    name: str
    span: Span
    traits: list[TraitApplication]
    docs: str | None
    docs_span: Span | None
    mixins: list[str]
    for_resource: str | None
    members: list[MemberDef] | None
    body: dict[str, Any] | None
    input: str | ShapeDef | None
    output: str | ShapeDef | None
    errors: list[str] | None
    inline: str | None

    def __init__(self, type: str, name: str, span: Span, traits: list[TraitApplication] | None = None,
                 docs: str | None = None, docs_span: Span | None = None, mixins: list[str] | None = None,
                 for_resource: str | None = None, members: list[MemberDef] | None = None,
                 body: dict[str, Any] | None = None, input: str | ShapeDef | None = None,
                 output: str | ShapeDef | None = None, errors: list[str] | None = None,
                 inline: str | None = None) -> None:
        self.type = type
        self.name = name
        self.span = span
        self.traits = [] if traits is None else traits
        self.docs = docs
        self.docs_span = docs_span
        self.mixins = [] if mixins is None else mixins
        self.for_resource = for_resource
        self.members = members
        self.body = body
        self.input = input
        self.output = output
        self.errors = errors
        self.inline = inline


class ApplyDef(Record):
    """``apply Target @trait`` or ``apply Target { @a @b }`` (target as written)."""

    __slots__ = ("target", "traits", "span")
    target: str
    traits: list[TraitApplication]
    span: Span

    def __init__(self, target: str, traits: list[TraitApplication], span: Span) -> None:
        self.target = target
        self.traits = traits
        self.span = span


class UseDef(Record):
    """``use ns#Name``."""

    __slots__ = ("shape_id", "span")
    shape_id: str
    span: Span

    def __init__(self, shape_id: str, span: Span) -> None:
        self.shape_id = shape_id
        self.span = span

    @property
    def name(self) -> str:
        """The imported name (the part after ``#``)."""
        return self.shape_id.partition("#")[2]


class IdlFile(Record):
    """One parsed IDL file (Smithy 2.0 IDL: control, metadata and shape sections).

    ``version`` is ``"1.0"`` when ``$version`` is absent, else ``"1.0"`` or ``"2.0"``;
    ``shapes`` holds top-level shape statements in source order (inline ``:=`` shapes hang
    off their operation, see :meth:`all_shapes`).
    """

    __slots__ = ("path", "version", "namespace", "control", "uses", "metadata", "metadata_spans", "shapes",
                 "applies", "diagnostics", "input_suffix", "output_suffix")
    path: str
    version: str
    namespace: str | None
    control: dict[str, Any]
    uses: list[UseDef]
    metadata: dict[str, Any]
    metadata_spans: dict[str, Span]
    shapes: list[ShapeDef]
    applies: list[ApplyDef]
    diagnostics: list[Diagnostic]
    input_suffix: str
    output_suffix: str

    def __init__(self, path: str, version: str = "1.0", namespace: str | None = None,
                 control: dict[str, Any] | None = None, uses: list[UseDef] | None = None,
                 metadata: dict[str, Any] | None = None, metadata_spans: dict[str, Span] | None = None,
                 shapes: list[ShapeDef] | None = None, applies: list[ApplyDef] | None = None,
                 diagnostics: list[Diagnostic] | None = None, input_suffix: str = "Input",
                 output_suffix: str = "Output") -> None:
        self.path = path
        self.version = version
        self.namespace = namespace
        self.control = {} if control is None else control
        self.uses = [] if uses is None else uses
        self.metadata = {} if metadata is None else metadata
        self.metadata_spans = {} if metadata_spans is None else metadata_spans
        self.shapes = [] if shapes is None else shapes
        self.applies = [] if applies is None else applies
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.input_suffix = input_suffix
        self.output_suffix = output_suffix

    def inline_shape_name(self, operation: ShapeDef, which: str) -> str:
        """Generated name of an operation's inline input/output (§"Inline input / output")."""
        return operation.name + (self.input_suffix if which == "input" else self.output_suffix)

    def all_shapes(self) -> list[ShapeDef]:
        """Top-level shapes plus the inline input/output shapes (named), in source order."""
        out: list[ShapeDef] = []
        for s in self.shapes:
            out.append(s)
            if s.type == "operation":  # only operations have inline shapes
                for inline in (s.input, s.output):
                    if isinstance(inline, ShapeDef):
                        out.append(inline)
        return out

    def defined_shape_ids(self) -> set[str]:
        """Absolute IDs of the shapes this file defines (inline ``:=`` shapes included).

        Empty when the file has no namespace.
        """
        if not self.namespace:
            return set()
        return {f"{self.namespace}#{s.name}" for s in self.all_shapes() if s.name}


# --------------------------------------------------------------------------- the walk


class _Walker:
    """Turns statement trees (:class:`~smithy2cfn.parse.syntax.Node`) into :class:`IdlFile`
    content; collects diagnostics. Tokens are numbers into ``tokens``: a child is a token
    when its class is ``int``, else a node (of a subclass too: an array or object the
    parser read whole is a ``syntax._ReadValue``)."""

    def __init__(self, text: str, path: str, tokens: Tokens, docs: list[DocComment]) -> None:
        self.text = text
        self.path = path
        self.file = IdlFile(path)
        self.report = SourceLimiter(self.file.diagnostics)
        self.tokens = tokens
        self.values = tokens.values
        self.types = tokens.types
        self.docs = docs
        # the tokens that documentation comments come right before
        self.doc_runs: set[int] = {d.token for d in docs}
        # What happens to the documentation comments, as (offset, order, kind, payload): each
        # comment goes to the first event at or after its start (see resolve_doc_comments).
        self.doc_events: list[tuple[int, int, int, Any]] = []
        self.unquoted_ids = 0  # the UnquotedId values made so far (see TraitApplication.plain)
        # first token -> value of the arrays and objects the parser read (ParseResult.fast_values)
        self.fast_values: dict[int, Any] = {}

    # ---- helpers
    def span_of(self, item: Node | int) -> Span:
        t = self.tokens
        if item.__class__ is int:
            return Span(self.path, *t.lines_and_columns(item, item))
        if item.start < 0:
            return Span(self.path)
        return Span(self.path, *t.lines_and_columns(item.start, item.end))

    def member_span(self, member: Node) -> Span:
        """Where a member is: from its name (``$`` of an elided one) to its end, after its
        traits (which keep their own spans), as the reference's ``IdlModelLoader.parseMember``
        locates it."""
        start = member.children[1].start
        if start < 0:
            return self.span_of(member)
        return Span(self.path, *self.tokens.lines_and_columns(start, member.end))

    def error(self, code: str, message: str, span: Span | None, severity: Severity = Severity.ERROR) -> None:
        self.report.add(code, severity, message, span)

    def syntax(self, message: str, at: Node | int | Span) -> None:
        span = at if isinstance(at, Span) else self.span_of(at)
        self.error("S1001", message, span)

    # ---- documentation comments (the reference's IdlInternalTokenizer doc-line buffer)
    #
    # The reference buffers every "///" line as its tokenizer reads it; the parser empties the
    # buffer at a few places: into the @documentation of the next shape or member (ATTACH),
    # with the BAD_DOCUMENTATION_COMMENT warning (WARN: at a statement's line break,
    # ``expectAndSkipBr``; at the "{" of a structure's members; after a member's traits), or
    # silently (DROP: before ``apply`` and ":="). The walk records those places in source
    # order, and resolve_doc_comments hands each comment to the first one at or after it.

    def doc_event(self, pos: int, kind: int, payload: Any = None) -> None:
        """Record that the reference empties its documentation buffer at offset ``pos`` (the
        comments that start at or before it): ``kind`` is ``_DOC_ATTACH`` (``payload`` the
        :class:`ShapeDef`/:class:`MemberDef`), ``_DOC_WARN`` (``payload`` the warning's span or
        token number, ``None``: where the first comment is), ``_DOC_WARN_HERE`` (a warning at
        ``pos``), ``_DOC_DROP`` or ``_DOC_ENUM_END`` (``payload`` the span of an enum's "}")."""
        if self.docs:
            events = self.doc_events
            events.append((pos, len(events), kind, payload))

    def doc_token_event(self, k: int, kind: int, payload: Any = None) -> None:
        """:meth:`doc_event` at token ``k`` (``payload`` ``None`` for a warning: at the token)."""
        if self.docs and 0 <= k < len(self.tokens):
            if kind == _DOC_WARN and payload is None:
                payload = k  # (the span is made only if the warning is)
            self.doc_event(self.tokens.starts[k], kind, payload)

    def doc_br_event(self, k: int, comma: bool = False) -> None:
        """The warning at the line break after token ``k`` (the reference's ``expectAndSkipBr``:
        after spaces and tabs, and after one comma too when ``comma``): the comments up to
        there, one on this line included, documented nothing."""
        if not self.docs or k < 0:
            return
        text = self.text
        pos = self.tokens.end_pos(k)
        size = len(text)
        for allow_comma in (comma, False):
            while pos < size and text[pos] in " \t":
                pos += 1
            if allow_comma and pos < size and text[pos] == ",":
                pos += 1
            else:
                break
        self.doc_event(pos, _DOC_WARN_HERE)

    def docs_run_before(self, k: int) -> bool:
        """Whether documentation comments come between token ``k - 1`` and token ``k``."""
        return k in self.doc_runs

    def doc_position(self, offset: int) -> tuple[int, int]:
        """1-based line and column of the character at ``offset`` (:meth:`Tokens.position`)."""
        return self.tokens.position(offset)

    def resolve_doc_comments(self, eof_warns: bool) -> None:
        """Hand each documentation comment to the first event at or after it (see
        :meth:`doc_event`); comments after the last one warn at the end of the file when
        ``eof_warns`` (the reference's ``parseShapeDefinition``: after a shape or apply
        statement), else are dropped (after the namespace, use or metadata statements)."""
        docs = self.docs
        if not docs:
            return
        events = sorted(self.doc_events)
        if eof_warns:
            line = self.text.count("\n") + 1
            col = len(self.text) - self.text.rfind("\n")
            events.append((len(self.text) + 1, len(events), _DOC_WARN, Span(self.path, line, col, line, col)))
        i, n = 0, len(docs)
        starts = list(map(_START, docs))
        for pos, _, kind, payload in events:
            if i >= n:
                break
            lo = i
            i = bisect.bisect_right(starts, pos, lo)  # (the comments that start at or before pos)
            if i == lo:
                continue
            # (one space after "///" is left out of each line)
            text = "\n".join(map(_TEXT, docs[lo:i])).replace("\n ", "\n")
            if text.startswith(" "):
                text = text[1:]
            if kind == _DOC_ATTACH:
                payload.docs = text
                line, col = self.doc_position(docs[lo].start)  # (the reference's documentation location)
                payload.docs_span = Span(self.path, line, col, line, col + 3)
            elif kind == _DOC_WARN or kind == _DOC_WARN_HERE:
                if kind == _DOC_WARN_HERE:
                    line, col = self.doc_position(pos)
                    span = Span(self.path, line, col, line, col + 1)
                elif payload.__class__ is int:
                    span = self.span_of(payload)
                elif payload is None:
                    line, col = self.doc_position(docs[lo].start)
                    span = Span(self.path, line, col, line, col + 3)
                else:
                    span = payload
                self.report.add("S1018", Severity.WARNING, _BAD_DOC_MESSAGE + text, span, None, _BAD_DOC_HINT,
                                "Model.BadDocumentationComment")
            elif kind == _DOC_ENUM_END:
                self.syntax("expected an enum member name after documentation comments, found '}' "
                            "(documentation comments must come before an enum member)", payload)

    @staticmethod
    def tokens_of(tree: Node) -> list[int]:
        return [c for c in tree.children if c.__class__ is int]

    @staticmethod
    def trees_of(tree: Node, data: str | None = None) -> list[Node]:
        return [c for c in tree.children if c.__class__ is not int and (data is None or c.data == data)]

    def last_token(self, tree: Node) -> int | None:
        """The last token kept in the tree."""
        stack: list[Any] = [tree]
        while stack:
            node = stack.pop()
            if node.__class__ is int:
                return node
            stack.extend(node.children)
        return None

    def same_line(self, a: Node | int | None, b: Node | int | None, what: str, at_break: bool = True) -> None:
        """ABNF ``SP``: ``b`` must start on the line where ``a`` ends.

        Reported at the line break after ``a`` (``at_break``), else at ``b`` (as the reference
        does for ``with``/``for``, which it reads as the start of another statement).
        """
        if a is None or b is None:
            return
        t = self.tokens
        a_last = a if a.__class__ is int else a.end
        b_first = b if b.__class__ is int else b.start
        if a_last < 0 or b_first < 0:
            return
        b_line = t.line(b_first)
        if b_line == t.line(a_last) or b_line == t.end_line(a_last):
            return  # (b starts after a: on a's first line only when a is on one line)
        last = a if a.__class__ is int else self.last_token(a)
        shown = f"'{self.values[last]}'" if last is not None else "the previous token"
        where: Node | int | Span = b
        if last is not None and at_break:
            # Where the reference reports it: the line break (or comment) after `last`.
            line, col = after(t, last)
            where = Span(self.path, line, col, line, col + 1)
        what_found = "a comment" if isinstance(where, Span) and self.text.startswith(
            "//", t.end_pos(last) + (where.column - t.end_column(last))) else "a line break"
        self.syntax(f"expected {what} on the same line as {shown}, found {what_found}", where)

    def needs_space(self, a: Node | int | None, b: Node | int | None) -> None:
        """ABNF ``SP``/``WS`` between two tokens: they must not touch."""
        if a is None or b is None:
            return
        a_last = a if a.__class__ is int else a.end
        b_first = b if b.__class__ is int else b.start
        if a_last >= 0 and b_first >= 0 and self.tokens.end_pos(a_last) == self.tokens.starts[b_first]:
            shown = f"'{self.values[a]}'" if a.__class__ is int else "it"
            self.syntax(f"expected whitespace after {shown}", b)

    # ---- identifiers and shape IDs
    def identifier(self, tree: Node, what: str = "identifier") -> str:
        tok = tree.children[0]
        value = self.values[tok]
        if not _IDENTIFIER.match(value):
            self.syntax(f"invalid {what} '{value}': expected a simple identifier", tok)
        return value

    def shape_id(self, tree: Node) -> str:
        tok = tree.children[0]
        value = self.values[tok]
        if not _SHAPE_ID.match(value):
            self.syntax(f"invalid shape ID '{value}'", tok)
        return value

    # ---- node values
    def node_value(self, tree: Node | int, depth: int = 0) -> Any:
        if depth > MAX_NODE_DEPTH:
            self.error("S1016", f"node value nested more than {MAX_NODE_DEPTH} levels deep", self.span_of(tree))
            return None
        if tree.__class__ is int:  # defensive: grammar wraps all values in trees
            return self.values[tree]
        data = tree.data
        if data == "node_string_value":
            child = tree.children[0]
            if child.__class__ is not int:  # shape_id
                self.unquoted_ids += 1
                return UnquotedId.at(self.shape_id(child), self.span_of(child.children[0]))
            return self.string_token(child)
        if (data == "node_object" or data == "node_array") and self.fast_values and depth <= _FAST_VALUE_DEPTH:
            # (taken once: the walk may read a value twice, e.g. $version, and keeps nothing shared)
            value = self.fast_values.pop(tree.start, _NO_VALUE)
            if value is not _NO_VALUE:
                return value
        if data == "node_object":
            out: dict[str, Any] = {}
            values, types, node_value = self.values, self.types, self.node_value
            for kvp in tree.children:
                if kvp.__class__ is int or kvp.data != "node_object_kvp":
                    continue
                children = kvp.children
                key_tree = children[0]
                tok = key_tree.children[0]
                key = values[tok]
                if types[tok] != "IDENTIFIER" or not _IDENTIFIER.match(key):
                    key = self.object_key(key_tree)  # (a quoted key, or the error of a bad one)
                if key in out:
                    self.error("S1011", f"duplicate object key '{key}'", self.span_of(key_tree))
                out[key] = node_value(children[-1], depth + 1)
            return out
        if data == "node_array":
            node_value = self.node_value
            return [node_value(c, depth + 1) for c in tree.children if c.__class__ is not int]
        if data == "number":
            return self.number(tree.children[0])
        if data == "node_keyword":
            return KEYWORD_VALUES[self.values[tree.children[0]]]
        return None

    def object_key(self, tree: Node) -> str:
        tok = tree.children[0]
        value = self.values[tok]
        if self.types[tok] == "IDENTIFIER":
            if not _IDENTIFIER.match(value):
                self.syntax(f"invalid object key '{value}': quote keys that are not simple identifiers", tok)
            return value
        return self.string_token(tok)

    def string_token(self, tok: int) -> str:
        if self.types[tok] == "TEXT_BLOCK":
            value, problem = strings.decode_text_block(self.values[tok])
        else:
            value, problem = strings.decode_quoted_text(self.values[tok])
        if problem:
            self.syntax(problem, tok)
        return value

    def number(self, tok: int) -> int | float:
        """A number literal (the same rules as the JSON AST reader: exact integers of at most
        ``MAX_INTEGER_DIGITS`` digits, floats, ``BigNumber`` beyond a float's range)."""
        value, problem = read_number(self.values[tok])
        if problem:
            self.error("S1103", problem, self.span_of(tok))
        return value

    # ---- traits
    def traits(self, tree: Node | None) -> list[TraitApplication]:
        if tree is None or not tree.children:
            return []
        return [self.trait(t) for t in self.trees_of(tree, "trait")]

    def trait(self, tree: Node) -> TraitApplication:
        name = self.shape_id(tree.children[0])
        unquoted_before = self.unquoted_ids
        value: Any = ANNOTATION
        bodies = self.trees_of(tree, "trait_body")
        if bodies:
            inner = self.trees_of(bodies[0])
            if inner:
                node = inner[0]
                if node.data == "trait_structure":
                    value = {}
                    for kvp in self.trees_of(node, "node_object_kvp"):
                        key = self.object_key(kvp.children[0])
                        if key in value:
                            self.error("S1011", f"duplicate object key '{key}'", self.span_of(kvp))
                        value[key] = self.node_value(kvp.children[-1], 1)
                else:
                    value = self.node_value(node.children[0], 0)
        return TraitApplication(name, value, self.span_of(tree), self.unquoted_ids == unquoted_before)

    # ---- statements
    def walk(self, statements: list[Node]) -> IdlFile:
        f = self.file
        phase = 0  # 0 control, 1 metadata, 2 namespace seen, 3 use, 4 shapes
        version_seen = False
        invalid_namespace = False
        # (each statement starts on a new line: the parser checks it)
        for st in statements:
            data = st.data
            if data == "shape_statement":
                if f.namespace is None and phase < 4:
                    self.error("S1010", "shapes can only be defined after a namespace statement", self.span_of(st))
                phase = 4
                shape = self.shape_statement(st)
                if shape is not None:
                    f.shapes.append(shape)
            elif data == "control_statement":
                if phase > 0:
                    self.error("S1010", "control statements must come before any other statement", self.span_of(st))
                self.control(st, version_seen)
                if self.control_key(st) == "version":
                    version_seen = True
            elif data == "metadata_statement":
                if phase > 1:
                    self.error("S1010", "metadata statements must come before the namespace statement",
                               self.span_of(st))
                phase = max(phase, 1)
                self.metadata(st)
            elif data == "namespace_statement":
                if f.namespace is not None:
                    self.error("S1011", "a file can only have one namespace statement", self.span_of(st))
                else:
                    toks = self.tokens_of(st)
                    ns_tree = self.trees_of(st, "namespace")[0]
                    ns = self.values[ns_tree.children[0]]
                    self.same_line(toks[0] if toks else None, ns_tree.children[0], "a namespace")
                    if not _NAMESPACE.match(ns):
                        self.syntax(f"invalid namespace '{ns}'", ns_tree)
                        invalid_namespace = True
                    f.namespace = ns
                phase = max(phase, 2)
            elif data == "use_statement":
                if f.namespace is None:
                    self.error("S1010", "use statements must come after the namespace statement", self.span_of(st))
                elif phase > 3:
                    self.error("S1010", "use statements must come before any shape or apply statement",
                               self.span_of(st))
                phase = max(phase, 3)
                self.use(st)
            elif data == "apply_statement":
                if f.namespace is None and phase < 4:
                    self.error("S1010", "apply statements can only appear after a namespace statement",
                               self.span_of(st))
                phase = 4
                # Documentation comments before "apply" are dropped: the reference makes its
                # warning there but never emits it (IdlModelLoader.parseApplyStatement).
                self.doc_token_event(st.start, _DOC_DROP)
                self.apply(st)
            if self.docs:
                self.doc_br_event(st.end)  # every statement ends with a line break (BR)
        self.resolve_doc_comments(f.namespace is not None and bool(f.shapes or f.applies))
        if invalid_namespace:
            # The reference stops at the namespace; its shapes would get IDs that are no shape
            # IDs (`a.b$c#S` reads as a member), so they are not defined (the syntax errors of
            # the file are reported all the same).
            f.shapes.clear()
            f.applies.clear()
        return f

    def control_key(self, st: Node) -> str:
        key_tree = self.trees_of(st, "node_object_key")[0]
        tok = key_tree.children[0]
        value = self.values[tok]
        return value if self.types[tok] == "IDENTIFIER" else strings.decode_quoted_text(value)[0]

    def control(self, st: Node, version_seen: bool) -> None:
        dollar, key_tree, colon, value_tree = st.children[0], st.children[1], st.children[2], st.children[3]
        self.same_line(dollar, key_tree, "a control statement name")
        self.same_line(key_tree, colon, "':'")
        self.same_line(colon, value_tree, "a value")
        key = self.object_key(key_tree)
        value = self.node_value(value_tree)
        span = self.span_of(st)
        f = self.file
        if key in f.control:
            self.error("S1011", f"duplicate control statement '${key}'", span)
            return
        f.control[key] = value
        if key == "version":
            if not isinstance(value, str) or isinstance(value, UnquotedId):
                self.error("S1012", f"the $version control statement must have a string value, found {value!r}",
                           span)
                return
            m = _VERSION.match(value)
            if not m or m.group(1) not in ("1", "2"):
                self.error("S1012", f"unsupported Smithy IDL version '{value}' (supported: 1.0, 2.0)", span)
                return
            f.version = f"{m.group(1)}.0"
        elif key in ("operationInputSuffix", "operationOutputSuffix"):
            if not isinstance(value, str) or isinstance(value, UnquotedId) or not re.fullmatch(r"[A-Za-z0-9_]+", value):
                self.error("S1012", f"${key} must be a string of identifier characters", span)
                return
            if key == "operationInputSuffix":
                f.input_suffix = value
            else:
                f.output_suffix = value
        else:
            self.error("S1015", f"unknown control statement '${key}' is ignored", span, Severity.WARNING)

    def metadata(self, st: Node) -> None:
        kw, key_tree, eq, value_tree = st.children[0], st.children[1], st.children[2], st.children[3]
        self.same_line(kw, key_tree, "a metadata key")
        self.needs_space(kw, key_tree)
        self.same_line(key_tree, eq, "'='")
        self.same_line(eq, value_tree, "a value")
        key = self.object_key(key_tree)
        span = self.span_of(st)
        if key in self.file.metadata:
            self.error("S1011", f"duplicate metadata key '{key}' in this file", span)
        self.file.metadata[key] = self.node_value(value_tree)
        self.file.metadata_spans[key] = span

    def use(self, st: Node) -> None:
        toks = self.tokens_of(st)
        id_tree = self.trees_of(st, "shape_id")[0]
        self.same_line(toks[0] if toks else None, id_tree.children[0], "a shape ID")
        value = self.shape_id(id_tree)
        span = self.span_of(st)
        if "#" not in value:
            self.error("S1014", f"use statements need an absolute shape ID, found '{value}'", span)
            return
        if "$" in value:
            self.error("S1014", f"use statements cannot import members, found '{value}'", span)
            return
        name = value.partition("#")[2]
        for u in self.file.uses:
            if u.name == name and u.shape_id != value:
                self.error("S1014", f"cannot use '{value}' because it conflicts with '{u.shape_id}'", span)
                return
        self.file.uses.append(UseDef(value, span))

    def apply(self, st: Node) -> None:
        inner = st.children[0]
        toks = self.tokens_of(inner)
        id_tree = self.trees_of(inner, "shape_id")[0]
        self.same_line(toks[0] if toks else None, id_tree.children[0], "a shape ID")
        self.needs_space(toks[0] if toks else None, id_tree)
        self.needs_space(id_tree, inner.children[2] if len(inner.children) > 2 else None)
        target = self.shape_id(id_tree)
        if inner.data == "apply_statement_singular":
            traits = [self.trait(t) for t in self.trees_of(inner, "trait")]
        else:
            traits = self.traits(self.trees_of(inner, "trait_statements")[0])
        self.file.applies.append(ApplyDef(target, traits, self.span_of(st)))

    def require_v2(self, feature: str, at: Node | int) -> None:
        if self.file.version == "1.0":
            self.error("S1013", f"{feature} can only be used with Smithy IDL version 2 or later "
                                f"(this file uses version 1.0)", self.span_of(at))

    def shape_statement(self, st: Node) -> ShapeDef | None:
        traits_tree, shape = st.children[0], st.children[-1]
        traits = self.traits(traits_tree)
        data = shape.data
        if data == "operation_shape":
            kw = shape.children[0]
            type_name = "operation"
        else:
            kw = shape.children[0].children[0]
            type_name = self.values[kw]
        name_tree = shape.children[1]
        name_tok = name_tree.children[0]
        self.same_line(kw, name_tok, "a shape name")
        name = self.identifier(name_tree, "shape name")
        # A name that is no identifier (`G$tFoo`, `a.b`) is a syntax error, reported; the
        # reference stops there. The statement is still read for its own errors, but it
        # defines no shape: its ID would be no shape ID (`ns#G$tFoo` reads as a member).
        defined = _IDENTIFIER.match(name) is not None
        out = ShapeDef(type_name, name, self.span_of(shape), traits)
        # The comments before the statement (its traits included) document the shape.
        self.doc_token_event(st.start, _DOC_ATTACH, out)
        if type_name == "set" and self.file.version != "1.0":
            self.error("S1013", "set shapes cannot be used in Smithy IDL version 2.0; use a list with "
                                "@uniqueItems", self.span_of(shape))
        if type_name in ("enum", "intEnum"):
            self.require_v2(f"{type_name} shapes", kw)
        prev_tok: int = name_tok
        for child in shape.children[2:]:
            if child.__class__ is int:
                continue
            if child.data == "for_resource":
                self.require_v2("'for' resource references", child)
                self.same_line(prev_tok, child.children[0], "'for'", at_break=False)
                self.same_line(child.children[0], child.children[1], "a resource shape ID")
                out.for_resource = self.shape_id(child.children[1])
                last = self.last_token(child)
                prev_tok = prev_tok if last is None else last
            elif child.data == "mixins":
                self.require_v2("mixins", child)
                self.same_line(prev_tok, child.children[0], "'with'", at_break=False)
                out.mixins = [self.shape_id(t) for t in self.trees_of(child, "shape_id")]
                if not out.mixins:
                    self.syntax("expected at least one shape ID in 'with [...]'", child)
                last = self.last_token(child)
                prev_tok = prev_tok if last is None else last
            elif child.data == "shape_members":
                out.members = self.shape_members(child, type_name)
            elif child.data == "enum_shape_members":
                out.members = self.enum_members(child)
            elif child.data == "node_object":
                value = self.node_value(child)
                out.body = value if isinstance(value, dict) else {}
                if type_name == "resource" and "properties" in out.body:
                    self.require_v2("resource properties", child)
            elif child.data == "operation_body":
                self.operation_body(child, out)
        return out if defined else None

    def shape_members(self, tree: Node, type_name: str | None) -> list[MemberDef]:
        def build(m: Node, traits: list[TraitApplication]) -> MemberDef:
            body = m.children[1]
            name = self.identifier(body.children[0], "member name")
            if body.data == "explicit_shape_member":
                return MemberDef(name, self.shape_id(body.children[2]), self.member_span(m), traits)
            self.require_v2("elided members ('$name')", body)
            return MemberDef(name, None, self.member_span(m), traits, elided=True)

        # Comments before "{" (after the shape's traits, in its mixins...) document nothing
        # (IdlModelLoader.parseMembers).
        self.doc_token_event(tree.start, _DOC_WARN)
        return self.member_list(tree, "shape_member", build, "a default value", "member name",
                                v2_value="default values ('= value')")

    def enum_members(self, tree: Node) -> list[MemberDef]:
        def build(m: Node, traits: list[TraitApplication]) -> MemberDef:
            name = self.identifier(m.children[1], "enum member name")
            return MemberDef(name, None, self.member_span(m), traits)

        return self.member_list(tree, "enum_shape_member", build, "an enum value", "enum member name")

    def member_list(self, tree: Node, rule: str, build, value_words: str, name_words: str,
                    v2_value: str | None = None) -> list[MemberDef]:
        """The members of a shape body (IDL 2.0 §"Shape members"): ``build(tree, traits)``
        makes each :class:`MemberDef`; this applies ``= value`` (which must end its line),
        and keeps duplicate names (reported by the lowering, on the shape).

        Documentation comments (IdlModelLoader.parseMember, parseEnumShape): those right
        before a member (after the previous member, even on its line) document it; those
        after its traits warn at its name; one on the line of a ``= value`` warns there;
        those before the closing "}" warn where they start (a syntax error in an enum)."""
        t = self.tokens
        members: list[MemberDef] = []
        prev_value_end: int | None = None
        docs = bool(self.docs)
        is_enum = rule == "enum_shape_member"
        for m in self.trees_of(tree, rule):
            line, column = t.position(t.starts[m.start])
            if prev_value_end is not None and line <= t.end_line(prev_value_end):
                where = Span(self.path, line, column, line, column + 1)
                self.syntax(f"expected a line break after {value_words}", where)
            prev_value_end = None
            member = build(m, self.traits(m.children[0]))
            if docs:
                if m.start in self.doc_runs:
                    self.doc_token_event(m.start, _DOC_ATTACH, member)
                if is_enum or m.children[0].children:
                    # (without traits, a structure member's name is where it starts: the
                    # buffer holds only the comments right before it, which it takes)
                    self.doc_token_event(m.children[1].start, _DOC_WARN)
            assign = self.trees_of(m, "value_assignment")
            if assign:
                if v2_value:
                    self.require_v2(v2_value, assign[0])
                self.value_assignment(assign[0], member)
                prev_value_end = self.last_token(assign[0])
                if docs and prev_value_end is not None:
                    self.doc_br_event(prev_value_end, comma=True)
            members.append(member)  # a duplicate name is reported where the shape ID is known (lower)
        if docs and tree.end in self.doc_runs:
            if is_enum:
                self.doc_token_event(tree.end, _DOC_ENUM_END, self.span_of(tree.end))
            else:
                self.doc_event(t.starts[tree.end], _DOC_WARN, None)  # (at the first comment)
        return members

    def value_assignment(self, tree: Node, member: MemberDef) -> None:
        eq, value_tree = tree.children[0], tree.children[1]
        self.same_line(eq, value_tree, "a value")
        member.has_value = True
        member.value = self.node_value(value_tree)
        member.value_span = self.span_of(value_tree)  # the value, where the reference's trait node is

    def operation_body(self, tree: Node, op: ShapeDef) -> None:
        for prop in self.trees_of(tree):
            kw = prop.children[0]
            which = self.values[kw]
            if which == "errors":
                if op.errors is not None:
                    self.error("S1011", f"duplicate operation property 'errors' in '{op.name}'", self.span_of(prop))
                op.errors = [self.shape_id(t) for t in self.trees_of(prop, "shape_id")]
                continue
            if getattr(op, which) is not None:
                self.error("S1011", f"duplicate operation property '{which}' in '{op.name}'", self.span_of(prop))
            inline = self.trees_of(prop, "inline_aggregate_shape")
            if inline:
                self.require_v2("inline input/output (':=')", prop)
                setattr(op, which, self.inline_shape(inline[0], op, which))
            else:
                setattr(op, which, self.shape_id(self.trees_of(prop, "shape_id")[0]))

    def inline_shape(self, tree: Node, op: ShapeDef, which: str) -> ShapeDef:
        t = self.tokens
        walrus = tree.children[0]
        name = self.file.inline_shape_name(op, which)
        # Documentation comments (IdlModelLoader.parseInlineableOperationMember): those before
        # ':=' are dropped, those right after it document the structure, those after its
        # traits warn at the next token.
        shape = ShapeDef("structure", name, self.span_of(tree), self.traits(tree.children[1]), inline=which)
        if self.docs:
            self.doc_token_event(walrus, _DOC_DROP)
            self.doc_token_event(walrus + 1, _DOC_ATTACH, shape)
            after_traits = next((c.start for c in tree.children[2:] if c.__class__ is not int and c.start >= 0), -1)
            self.doc_token_event(after_traits, _DOC_WARN)
        shape.span = Span(self.path, *t.position(t.starts[walrus]), shape.span.end_line, shape.span.end_column)
        for child in self.trees_of(tree):
            if child.data == "for_resource":
                shape.for_resource = self.shape_id(child.children[1])
            elif child.data == "mixins":
                shape.mixins = [self.shape_id(t) for t in self.trees_of(child, "shape_id")]
                if not shape.mixins:
                    self.syntax("expected at least one shape ID in 'with [...]'", child)
            elif child.data == "shape_members":
                shape.members = self.shape_members(child, "structure")
        return shape


def parse_idl(text: str, path: str) -> IdlFile:
    """Parse one Smithy IDL file; never raises on bad input.

    Args:
        text: the file's text (already decoded; a leading BOM is ignored).
        path: the file's path, used in spans and diagnostics.

    Returns:
        An :class:`IdlFile` whose ``diagnostics`` hold syntax errors (``S1001``, with
        recovery at the next statement line so several are reported) and the other
        parse-level problems listed in this module's docstring.

    Follows Smithy 2.0 "Smithy IDL" (§"Smithy IDL ABNF" and the sections it refers to); IDL
    1.0 files (no ``$version`` or ``$version: "1"``) are accepted as well.
    """
    text = _without_bom(text)
    with garbage_collection.paused():  # parsing makes no cycles (smithy2cfn.garbage_collection)
        # The tokens and trees die when _parse_idl returns, before the collector is back on
        # (else its first collection walks all of them).
        file = _parse_idl(text, path)
    assert file is not None  # (only a part can be refused)
    return file


def _without_bom(text: str) -> str:
    """``text`` with a leading byte order mark made a space (ignored, and every offset kept)."""
    return " " + text[1:] if text.startswith("\ufeff") else text


def _parse_idl(text: str, path: str, own_from: int = 0, breaks: list[int] | None = None) -> IdlFile | None:
    """:func:`parse_idl` of a text without BOM; with ``own_from``, of one part
    (:func:`parse_idl_part`): ``None`` when a statement or a documentation comment lies
    on the wrong side of it. ``breaks``: the offsets of the text's line breaks, as
    :func:`~smithy2cfn.parse.syntax.parse_tokens` takes them."""
    try:
        result = parse_tokens(text, breaks)
        if own_from and not _own_statements(result, own_from):
            return None
        walker = _Walker(text, path, result.tokens, result.doc_comments)
        walker.fast_values = result.fast_values
        # The version decides which syntax is allowed: read it before walking the statements.
        for st in result.statements:
            if st.data == "control_statement":
                try:
                    if walker.control_key(st) == "version":
                        value = walker.node_value(st.children[3])
                        m = _VERSION.match(value) if isinstance(value, str) else None
                        if m and m.group(1) in ("1", "2"):
                            walker.file.version = f"{m.group(1)}.0"
                        break
                except (IndexError, AttributeError):
                    break
        walker.file.diagnostics.clear()
        walker.report = SourceLimiter(walker.file.diagnostics)
        file = walker.walk(result.statements)
        for pr in result.problems:
            walker.report.add("S1001", Severity.ERROR, pr.message,
                              Span(path, pr.line, pr.column, pr.end_line, pr.end_column))
        walker.report.finish()
        file.diagnostics.sort(key=Diagnostic.sort_key)
        return file
    except RecursionError:
        file = IdlFile(path)
        file.diagnostics.append(Diagnostic("S1016", Severity.ERROR, "the file is nested too deeply to parse",
                                           Span(path, 1, 1)))
        return file


# --------------------------------------------------------------------------- parsing in parts
#
# A large file is parsed in parts, shared with a helper process (smithy2cfn.load.loader,
# smithy2cfn.parallel): each part is the file's preamble (control, metadata, namespace and use
# statements), line breaks in place of the parts before it (so that every line and column is
# the file's), and its own shape and apply statements. The file's IdlFile is the first part's
# with the shapes and applies of the others after its own (join_idl_parts), and only when
# that is certain to be what parse_idl makes of the whole file: every part parsed without a
# problem, and read the same preamble. Otherwise the loader parses the whole file.
#
# Why a clean parse of every part proves it: a part is cut where a line holding only "}" and
# blank lines end, before a line that starts a statement, its traits or its documentation
# (_PART_START). When the text before a cut parses without a problem from a place where a
# statement starts, the cut is not inside a string (the part would end in an unclosed one) nor
# inside braces, brackets or parentheses (they would not be closed), nor inside a statement
# (none ends with "}" and goes on with what can start a line there), so the next part starts
# where a statement starts too; the first part starts at the file's start. Documentation
# comments go to the statement after them, and none is left in the preamble (split_idl
# refuses a file with one there, _own_statements a part).

#: Where a part may start: after a line holding only ``}`` (the end of a shape's body) and any
#: blank lines, at a line that starts with ``@``, ``///`` or a word (a statement keyword).
_PART_START = lazy(r"^\}[ \t\r]*\n(?:[ \t\r]*\n)*(?=[@A-Za-z]|///)", re.MULTILINE)
#: The namespace statement, at the start of a line.
_NAMESPACE_LINE = lazy(r"^namespace[ \t]", re.MULTILINE)
#: After the namespace statement, the first line that is not a use statement: a shape, apply,
#: trait or documentation line (comments and blank lines are part of the preamble).
_AFTER_PREAMBLE = lazy(r"^(?:@|///|(?!use[ \t])[A-Za-z])", re.MULTILINE)
#: The statements of a preamble.
_PREAMBLE_STATEMENTS = frozenset({"control_statement", "metadata_statement", "namespace_statement",
                                  "use_statement"})


def split_idl(text: str, size: int) -> list[tuple[int, int, int, int]] | None:
    """Where the IDL file ``text`` may be parsed in parts of about ``size`` characters: the
    arguments of :func:`parse_idl_part` for each part, in order, ``(preamble, start, end,
    lines)`` (the offset where the preamble ends, where the part starts and ends: the first
    part starts at 0 and holds the preamble, the last ends at ``len(text)``; and the line
    breaks from the preamble's end to the part's start, counted here in one pass rather than
    by each part from the preamble). ``None`` when it is not cut (no namespace statement, a
    documentation comment in the preamble, or no place to cut it: see the comment above).
    """
    text = _without_bom(text)
    namespace = _NAMESPACE_LINE.search(text)
    rest = _AFTER_PREAMBLE.search(text, namespace.end()) if namespace is not None else None
    if rest is None or "///" in text[:rest.start()]:
        return None
    preamble = rest.start()
    bounds = [0]
    target = preamble + size
    while target < len(text) - size // 2:  # (the last part not much smaller than the others)
        m = _PART_START.search(text, target)  # (each search from after the last cut: linear)
        if m is None:
            break
        bounds.append(m.end())
        target = m.end() + size
    if len(bounds) < 2:
        return None
    bounds.append(len(text))
    out = []
    lines, counted = 0, preamble
    for start, end in itertools.pairwise(bounds):
        if start:
            lines += text.count("\n", counted, start)
            counted = start
        out.append((preamble, start, end, lines))
    return out


def parse_idl_part(text: str, path: str, preamble: int, start: int, end: int,
                   lines: int | None = None) -> IdlFile | None:
    """Parse the part of the IDL file ``text`` from ``start`` to ``end`` (offsets from
    :func:`split_idl`, whose ``preamble`` is the end of the preamble, and ``lines`` the line
    breaks from there to ``start``, counted here when not given) as :func:`parse_idl`
    would, with the preamble before it. ``None`` when a statement or a documentation
    comment lies across the part's start. Never raises on bad input.

    The part's text is the preamble, a line break for each line before ``start``, then its
    own text, so that every position is the file's; the offsets of its line breaks are made
    from those of the preamble and of its own text (a late part of s3 as IDL has 19,000
    line breaks before it: listing them from the part's text took 1.7 ms of its 9)."""
    text = _without_bom(text)
    breaks: list[int] | None = None
    if start == 0:
        part, own_from = text[:end], 0
    else:
        if lines is None:
            lines = text.count("\n", preamble, start)
        head, own_from = text[:preamble], preamble + lines
        part = head + "\n" * lines + text[start:end]
        breaks = line_breaks(head)
        breaks += range(preamble, own_from)
        breaks += line_breaks(text[start:end], own_from)
    with garbage_collection.paused():  # (as parse_idl)
        return _parse_idl(part, path, own_from, breaks)


def _own_statements(result: ParseResult, own_from: int) -> bool:
    """Whether every statement of a part's ``result`` before ``own_from`` (the offset where
    its own text starts) is a preamble statement ending before it, every other one (there
    is one at least: documentation comments at the end of a file warn only when it has
    shapes) is a shape or apply statement, and no documentation comment comes before it."""
    starts = result.tokens.starts
    own = 0
    for st in result.statements:
        if st.start < 0:
            continue
        if starts[st.start] < own_from:
            if st.data not in _PREAMBLE_STATEMENTS or result.tokens.end_pos(st.end) > own_from:
                return False
        elif st.data in _PREAMBLE_STATEMENTS:
            return False
        else:
            own += 1
    return own > 0 and not any(doc.start < own_from for doc in result.doc_comments)


def join_idl_parts(parts: list[IdlFile | None]) -> IdlFile | None:
    """The :class:`IdlFile` of a whole file from those of its parts (:func:`parse_idl_part`,
    in order): the first one's, with the shapes and applies of the others after its own.
    ``None`` when a part was refused or has a diagnostic, or when the parts read different
    preambles: the whole file must then be parsed (see the comment above)."""
    if not parts or any(part is None or part.diagnostics for part in parts):
        return None
    first = parts[0]
    assert first is not None
    preamble = _preamble_of(first)
    for part in parts[1:]:
        assert part is not None
        if _preamble_of(part) != preamble:
            return None
        first.shapes += part.shapes
        first.applies += part.applies
    return first


def _preamble_of(file: IdlFile) -> tuple:
    """What an :class:`IdlFile` read from the preamble (spans of its use statements included)."""
    return (file.version, file.namespace, file.control, [(u.shape_id, u.span) for u in file.uses],
            file.metadata, file.metadata_spans, file.input_suffix, file.output_suffix)
