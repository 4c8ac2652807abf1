"""Knowledge about HTTP bindings: URI patterns, endpoint host prefixes, member bindings.

Spec: http-traits.rst §"http trait" (URI patterns: literal segments, ``{label}`` and greedy
``{label+}`` segments, query string literals), §"HTTP message bindings" (which member goes
where: header, prefix headers, query, query params, label, payload, response code, or the
document body), endpoint-traits.rst §"endpoint trait" (``hostPrefix`` patterns). Reference
classes: ``UriPattern`` and ``SmithyPattern`` (``software.amazon.smithy.model.pattern``),
``EndpointTrait`` (its host prefix parser) and ``HttpBindingIndex``.

Patterns are parsed by :func:`parse_uri_pattern` and :func:`parse_host_prefix`, which raise
:class:`PatternError` with the reference's message; the :class:`HttpBindingIndex` keeps the
parsed pattern of every ``@http`` operation (``None`` when it does not parse: the trait is
then reported once, by the HTTP validators, and skipped by the others).
"""

from __future__ import annotations

import re

from smithy2cfn.model.knowledge_ops import OperationIndex
from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import (
    ENDPOINT,
    ERROR,
    HTTP,
    HTTP_ERROR,
    HTTP_HEADER,
    HTTP_LABEL,
    HTTP_PAYLOAD,
    HTTP_PREFIX_HEADERS,
    HTTP_QUERY,
    HTTP_QUERY_PARAMS,
    HTTP_RESPONSE_CODE,
)
from smithy2cfn.records import Record
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_IDENTIFIER = lazy(r"(?:[A-Za-z]|_+[A-Za-z0-9])[A-Za-z0-9_]*")


def is_identifier(text: str) -> bool:
    """True when ``text`` is a Smithy identifier (idl.rst §"Shape ID" ``identifier``; the
    reference's ``ShapeId.isValidIdentifier``)."""
    return _IDENTIFIER.fullmatch(text) is not None


class PatternError(ValueError):
    """A URI pattern or host prefix that does not parse (the reference's
    ``InvalidPatternException``/``InvalidUriPatternException``); ``str()`` is its message."""


class Segment(Record, frozen=True):
    """One segment of a pattern: a literal, a ``{label}`` or a greedy ``{label+}``.

    Attributes:
        content: the literal text, or the label name (without braces and ``+``).
        kind: ``"literal"``, ``"label"`` or ``"greedy"``.
    """

    content: str
    kind: str

    def __init__(self, content: str, kind: str) -> None:
        self.__dict__.update(content=content, kind=kind)

    @property
    def is_label(self) -> bool:
        """True for labels, greedy or not."""
        return self.kind != "literal"

    @property
    def is_greedy(self) -> bool:
        """True for ``{label+}``."""
        return self.kind == "greedy"

    @property
    def is_non_greedy(self) -> bool:
        """True for ``{label}``."""
        return self.kind == "label"

    def __str__(self) -> str:
        if self.kind == "greedy":
            return "{" + self.content + "+}"
        if self.kind == "label":
            return "{" + self.content + "}"
        return self.content

    @staticmethod
    def parse(text: str, offset: int) -> Segment:
        """A segment from its text (``foo``, ``{foo}``, ``{foo+}``) at character ``offset``.

        Raises:
            PatternError: an empty literal, a literal with ``{``/``}``, an empty label, or a
                label that is not an identifier.
        """
        if len(text) >= 2 and text[0] == "{" and text[-1] == "}":
            greedy = text[-2] == "+"
            content = text[1:-2] if greedy else text[1:-1]
            kind = "greedy" if greedy else "label"
        else:
            content, kind = text, "literal"
        where = f" at index {offset}"
        if kind == "literal":
            if not content:
                raise PatternError("Segments must not be empty" + where)
            if "{" in content or "}" in content:
                raise PatternError(f"Literal segments must not contain `{{` or `}}` characters. Found segment "
                                   f"`{content}`{where}")
        elif not content:
            raise PatternError(f"Empty label declaration in pattern{where}.")
        elif not is_identifier(content):
            raise PatternError(f"Invalid label name in pattern: '{content}'{where}. Labels must contain value "
                               "identifiers.")
        return Segment(content, kind)


class Pattern(Record, frozen=True):
    """A parsed pattern (reference ``SmithyPattern``; :class:`UriPattern` adds query literals).

    Attributes:
        text: the pattern as written.
        segments: its segments, in order.
    """

    text: str
    segments: tuple[Segment, ...]

    def __init__(self, text: str, segments: tuple[Segment, ...]) -> None:
        self.__dict__.update(text=text, segments=segments)

    def __str__(self) -> str:
        return self.text

    @property
    def labels(self) -> list[Segment]:
        """The label segments, in order."""
        return [s for s in self.segments if s.is_label]

    def label(self, name: str) -> Segment | None:
        """The label named ``name``, compared case-insensitively (reference ``getLabel``)."""
        key = name.lower()
        return next((s for s in self.segments if s.is_label and s.content.lower() == key), None)

    @property
    def greedy_label(self) -> Segment | None:
        """The first greedy label, if any."""
        return next((s for s in self.segments if s.is_greedy), None)

    def conflicting_label_segments(self, other: Pattern) -> list[tuple[Segment, Segment]]:
        """Pairs of segments at the same position where one pattern has a label and the other
        a literal, or one a greedy label and the other not, up to the first pair of distinct
        literals (reference ``getConflictingLabelSegmentsMap``; a pair whose first segment
        equals an earlier one replaces it, as the reference's map does)."""
        found: dict[str, tuple[Segment, Segment]] = {}
        for mine, theirs in zip(self.segments, other.segments, strict=False):
            if mine.is_label != theirs.is_label or mine.is_greedy != theirs.is_greedy:
                found[str(mine)] = (mine, theirs)
            elif not mine.is_label and mine.content != theirs.content:
                break
        return list(found.values())

    def _check_duplicate_labels(self) -> None:
        seen: set[str] = set()
        for s in self.segments:
            if s.is_label:
                key = s.content.lower()
                if key in seen:
                    raise PatternError(f"Label `{s.content}` is defined more than once in pattern: {self.text}")
                seen.add(key)


class UriPattern(Pattern):
    """A parsed ``@http`` URI (reference ``UriPattern``).

    Attributes:
        query_literals: the literal query string parameters, name → value (``""`` without ``=``).
    """

    query_literals: dict[str, str]

    def __init__(self, text: str, segments: tuple[Segment, ...],
                 query_literals: dict[str, str] | None = None) -> None:
        self.__dict__.update(text=text, segments=segments,
                             query_literals={} if query_literals is None else query_literals)

    def conflict_key(self) -> tuple[tuple[tuple[str, str], ...], frozenset[tuple[str, str]]]:
        """What two patterns that match the same requests have in common, and no two others
        (:meth:`conflicts_with`): each segment's kind and, for a literal, its text (a label's
        name does not count), and the query literals. Operations are grouped by it rather
        than compared two by two."""
        return (tuple((s.kind, s.content if s.kind == "literal" else "") for s in self.segments),
                frozenset(self.query_literals.items()))

    def conflicts_with(self, other: UriPattern) -> bool:
        """True when both patterns match the same requests: as many segments, labels where the
        other has labels (greedy where greedy), equal literals, and equal query literals."""
        return self.conflict_key() == other.conflict_key()


def _java_split(text: str, sep: str) -> list[str]:
    """``String.split`` of Java with a literal separator: trailing empty strings dropped
    (``"a/"`` → ``["a"]``, ``"/"`` → ``[]``), the text itself when the separator is absent."""
    if sep not in text:
        return [text]
    parts = text.split(sep)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def parse_uri_pattern(uri: str) -> UriPattern:
    """Parse an ``@http`` ``uri`` (http-traits.rst §"uri"; reference ``UriPattern.parse``).

    Raises:
        PatternError: with the reference's message (must start with ``/``, no fragment, no
            trailing ``?``, no label in the query string, no repeated query literal, and the
            segment rules of :meth:`Segment.parse`, labels defined once).
    """
    if uri.endswith("?"):
        raise PatternError(f"URI patterns must not end with '?'. Found {uri}")
    if not uri.startswith("/"):
        raise PatternError(f"URI pattern must start with '/'. Found {uri}")
    if "#" in uri:
        raise PatternError(f"URI pattern must not contain a fragment. Found {uri}")
    path, sep, query = uri.partition("?")
    segments: list[Segment] = []
    offset = 1
    for text in _java_split(path, "/")[1:]:
        segments.append(Segment.parse(text, offset))
        offset += len(text) + 1
    literals: dict[str, str] = {}
    if sep:
        if "{" in query or "}" in query:
            raise PatternError(f"URI labels must not appear in the query string. Found {uri}")
        for pair in _java_split(query, "&"):
            key, has_value, value = pair.partition("=")
            if key in literals:
                raise PatternError(f"Literal query parameters must not be repeated: {uri}")
            literals[key] = value if has_value else ""
    pattern = UriPattern(uri, tuple(segments), literals)
    pattern._check_duplicate_labels()
    return pattern


def parse_host_prefix(host_prefix: str) -> Pattern:
    """Parse an ``@endpoint`` ``hostPrefix`` (endpoint-traits.rst §"hostPrefix"; the
    reference's ``EndpointTrait`` tokenizer): literal runs and ``{label}`` segments.

    Raises:
        PatternError: adjacent labels, an unclosed label, a stray ``}``, a greedy label, or
            a bad segment (see :meth:`Segment.parse`).
    """
    tokens = [t for t in re.split(r"([{}])", host_prefix) if t]
    segments: list[Segment] = []
    position = 0
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token == "{":
            if segments and segments[-1].is_label:
                raise PatternError(f"Host labels must not be adjacent in a pattern. Found {host_prefix}")
            for _ in range(2):
                if i < len(tokens):
                    token += tokens[i]
                    i += 1
                else:
                    raise PatternError(f"Unclosed label found in pattern at: .{position}")
        elif token == "}":
            raise PatternError(f"Literal segments must not contain `}}`. Found at: {position}")
        segments.append(Segment.parse(token, position))
        position += len(token)
    pattern = Pattern(host_prefix, tuple(segments))
    pattern._check_duplicate_labels()
    if any(s.is_greedy for s in segments):
        raise PatternError(f"Pattern must not contain a greedy label. Found {host_prefix}")
    return pattern


#: Binding locations (reference ``HttpBinding.Location``).
HEADER, PREFIX_HEADERS, QUERY, QUERY_PARAMS, LABEL, PAYLOAD, RESPONSE_CODE, DOCUMENT, UNBOUND = (
    "header", "prefixHeaders", "query", "queryParams", "label", "payload", "responseCode", "document",
    "unbound")


class HttpBinding(Record, frozen=True):
    """Where one member of an input, output or error goes in the HTTP message.

    Attributes:
        member: the member.
        location: one of the location constants (``HEADER``, ``PAYLOAD``, ``DOCUMENT``...).
        name: the header name, prefix, query parameter name, or the member name.
    """

    member: Member
    location: str
    name: str

    def __init__(self, member: Member, location: str, name: str) -> None:
        self.__dict__.update(member=member, location=location, name=name)

    @property
    def member_name(self) -> str:
        """The member's name."""
        return self.member.name


def _trait_string(member: Member, trait_id: str) -> str:
    value = member.traits.get(trait_id)
    return value if isinstance(value, str) else ""


def structure_bindings(structure: Shape, request: bool) -> list[HttpBinding]:
    """The bindings of a structure's members, in member order (reference
    ``HttpBindingIndex.createStructureBindings``): members with no binding trait go to the
    document, or are ``UNBOUND`` when another member is the ``@httpPayload``."""
    bindings: list[HttpBinding] = []
    unbound: list[Member] = []
    payload = False
    for m in structure.members.values():
        t = m.traits
        if HTTP_HEADER in t:
            bindings.append(HttpBinding(m, HEADER, _trait_string(m, HTTP_HEADER)))
        elif HTTP_PREFIX_HEADERS in t:
            bindings.append(HttpBinding(m, PREFIX_HEADERS, _trait_string(m, HTTP_PREFIX_HEADERS)))
        elif request and HTTP_QUERY in t:
            bindings.append(HttpBinding(m, QUERY, _trait_string(m, HTTP_QUERY)))
        elif request and HTTP_QUERY_PARAMS in t:
            bindings.append(HttpBinding(m, QUERY_PARAMS, m.name))
        elif HTTP_PAYLOAD in t:
            payload = True
            bindings.append(HttpBinding(m, PAYLOAD, m.name))
        elif request and HTTP_LABEL in t:
            bindings.append(HttpBinding(m, LABEL, m.name))
        elif not request and HTTP_RESPONSE_CODE in t:
            bindings.append(HttpBinding(m, RESPONSE_CODE, m.name))
        else:
            unbound.append(m)
    where = UNBOUND if payload else DOCUMENT
    bindings.extend(HttpBinding(m, where, m.name) for m in unbound)
    return bindings


class HttpBindingIndex:
    """The HTTP bindings of every ``@http`` operation's input and output and of every error
    structure (reference ``HttpBindingIndex``), and the parsed ``@http`` trait of each
    operation.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        ops = model.knowledge(OperationIndex)
        self._request: dict[str, list[HttpBinding]] = {}
        self._response: dict[str, list[HttpBinding]] = {}
        self._uris: dict[str, UriPattern | None] = {}
        self._uri_errors: dict[str, str] = {}
        for shape in model.shapes.values():
            if shape.type == "operation" and HTTP in shape.traits:
                self._parse_uri(shape)
                found = ops.input_shape(shape.id)
                self._request[shape.id] = structure_bindings(found, True) if found is not None else []
                found = ops.output_shape(shape.id)
                self._response[shape.id] = structure_bindings(found, False) if found is not None else []
            elif shape.type == "structure" and ERROR in shape.traits:
                self._response[shape.id] = structure_bindings(shape, False)

    def _parse_uri(self, operation: Shape) -> None:
        value = operation.traits.get(HTTP)
        uri = value.get("uri") if isinstance(value, dict) else None
        if not isinstance(uri, str):
            self._uris[operation.id] = None
            return
        try:
            self._uris[operation.id] = parse_uri_pattern(uri)
        except PatternError as e:
            self._uris[operation.id] = None
            self._uri_errors[operation.id] = str(e)

    def uri(self, operation_id: str) -> UriPattern | None:
        """The parsed ``@http`` URI of an operation (``None``: no trait, or it does not parse)."""
        return self._uris.get(operation_id)

    def uri_error(self, operation_id: str) -> str | None:
        """Why an operation's ``@http`` URI does not parse, or ``None``."""
        return self._uri_errors.get(operation_id)

    def method(self, operation_id: str) -> str | None:
        """The ``@http`` method of an operation, as written (``None`` when absent)."""
        shape = self.model.shapes.get(operation_id)
        value = shape.traits.get(HTTP) if shape is not None else None
        method = value.get("method") if isinstance(value, dict) else None
        return method if isinstance(method, str) else None

    def code(self, shape_id: str) -> int | None:
        """The HTTP status code of an operation (``@http`` ``code``, default 200) or an error
        (``@httpError``, else 400 for client and 500 for server errors)."""
        shape = self.model.shapes.get(shape_id)
        if shape is None:
            return None
        if shape.type == "operation":
            value = shape.traits.get(HTTP)
            code: Any = value.get("code", 200) if isinstance(value, dict) else None
        elif HTTP_ERROR in shape.traits:
            code = shape.traits[HTTP_ERROR]
        elif ERROR in shape.traits:
            code = 400 if shape.traits[ERROR] == "client" else 500
        else:
            return None
        if isinstance(code, float) and code.is_integer():
            code = int(code)
        return code if isinstance(code, int) and not isinstance(code, bool) else None

    def request_bindings(self, operation_id: str, location: str | None = None) -> list[HttpBinding]:
        """The request bindings of an ``@http`` operation (only ``location``'s when given)."""
        found = self._request.get(operation_id, [])
        return [b for b in found if b.location == location] if location else list(found)

    def response_bindings(self, shape_id: str, location: str | None = None) -> list[HttpBinding]:
        """The response bindings of an ``@http`` operation or an error structure."""
        found = self._response.get(shape_id, [])
        return [b for b in found if b.location == location] if location else list(found)

    def has_response_body(self, shape_id: str) -> bool:
        """True when some response member goes to the document or is the payload."""
        return any(b.location in (DOCUMENT, PAYLOAD) for b in self._response.get(shape_id, []))


def endpoint_host_prefix(operation: Shape) -> str | None:
    """The ``hostPrefix`` of an operation's ``@endpoint`` trait, if it has a string one."""
    value = operation.traits.get(ENDPOINT)
    prefix = value.get("hostPrefix") if isinstance(value, dict) else None
    return prefix if isinstance(prefix, str) else None


__all__ = [
    "DOCUMENT", "HEADER", "LABEL", "PAYLOAD", "PREFIX_HEADERS", "QUERY", "QUERY_PARAMS", "RESPONSE_CODE",
    "UNBOUND", "HttpBinding", "HttpBindingIndex", "Pattern", "PatternError", "Segment", "UriPattern",
    "endpoint_host_prefix", "is_identifier", "parse_host_prefix", "parse_uri_pattern", "structure_bindings",
]
