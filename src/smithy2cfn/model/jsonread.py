"""Strict, bounded JSON reading with source positions (RFC 8259), for every JSON file we read.

Python's :mod:`json` accepts more than RFC 8259 (``NaN``, ``Infinity``, ``-Infinity``),
turns numbers that overflow a double into ``inf``, and ends in ``RecursionError`` on deep
nesting. :func:`parse_json` refuses the first and the last with a located problem, keeps
such numbers exactly, and records where the keys of the upper levels of the document are,
so that diagnostics can point at the key at fault:

* the upper levels (``descend(path)`` true) are walked here, recording the offset of every
  object key and array element under its path (a tuple of keys and indexes);
* every other value is parsed by the C scanner of :mod:`json` with strict number hooks.

Limits (README "Limits"):

* :data:`MAX_NODE_DEPTH`: a node value (trait value, metadata value, a whole config file)
  may hold values nested at most 256 arrays/objects deep — the limit of the IDL front end
  too (``S1016``);
* ``NaN`` and ``Infinity`` are refused (``S1100``); a number may have at most
  :data:`MAX_INTEGER_DIGITS` digits before its decimal point and an exponent of at most
  :data:`MAX_EXPONENT_DIGITS` digits (``S1103``, :func:`read_number`); one too large for a
  64-bit float is kept exactly as a :class:`BigNumber`, never as ``inf``;
* strings keep their text; an unpaired UTF-16 surrogate escape (``"\\ud800"``) becomes
  U+FFFD, as in the IDL front end (it cannot be written as UTF-8).
"""

from __future__ import annotations

import bisect
import json
import json.decoder
import json.scanner
import math
import re
from collections.abc import Callable
from itertools import accumulate

from smithy2cfn.diagnostics import Code, Severity, Span, declare_codes
from smithy2cfn.model.nodes import MAX_NODE_DEPTH, truncate
from smithy2cfn.records import Record
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S1016", Severity.ERROR, "Model",
         "node value nested more than 256 levels deep (IDL and JSON AST; see Limits)"),
    Code("S1100", Severity.ERROR, "Model",
         "JSON AST file is not valid JSON (RFC 8259: `NaN` and `Infinity` are not JSON)"),
    Code("S1103", Severity.ERROR, "Model", "a number literal out of range (IDL or JSON; see Limits)"),
)

#: The most digits an integer literal may have (Python converts at most 4300 by default),
#: and the most digits any number may have before its decimal point.
MAX_INTEGER_DIGITS = 1000
#: The most digits the exponent of a number literal may have, leading zeros aside.
MAX_EXPONENT_DIGITS = 9

Path = tuple  # of str (object keys) and int (array indexes)

_WS = lazy(r"[ \t\n\r]*")
_KEY = lazy(r'"([^"\\\x00-\x1f]*)"[ \t\n\r]*:')
_SEPARATOR = lazy(r"[ \t\n\r]*([,\]}])[ \t\n\r]*")
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_NUMBER = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
#: Tokens for the (error-path) scans: a string, a bracket, a number, a literal.
_TOKEN = lazy(rf"({_STRING})|([\[{{])|([\]}}])|({_NUMBER})|(-?Infinity|NaN|true|false|null)")
_STRINGS = lazy(_STRING)
_NOT_BRACKETS = lazy(r"[^\[\]{}]+")
_ANY_SURROGATE_ESCAPE = lazy(r"\\u[dD]([89a-fA-F])[0-9a-fA-F]{2}")
_LOW_ESCAPE = lazy(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = lazy("[\ud800-\udfff]")
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


class BigNumber(int):
    """A number literal too large for a 64-bit float (``1e400``), kept exactly as an integer.

    Python's ``float`` would make it ``inf``, which JSON cannot hold. Smithy keeps such
    values exactly (the reference reads them as ``BigDecimal``, e.g. for ``bigDecimal``
    trait values), so this is the exact integer value; ``literal`` is the text as written,
    which the JSON AST writer writes back. Validators see an ``int`` and judge its range.
    """

    literal: str

    def __new__(cls, value: int, literal: str) -> BigNumber:
        out = super().__new__(cls, value)
        out.literal = literal
        return out

    def __reduce__(self) -> tuple:
        return (BigNumber, (int(self), self.literal))

    def __repr__(self) -> str:  # messages show the number as written (JSON writers use int's)
        return self.literal

    __str__ = __repr__

    def __deepcopy__(self, memo: dict) -> BigNumber:
        return self

    def __copy__(self) -> BigNumber:
        return self


def read_number(literal: str) -> tuple[int | float, str | None]:
    """The value of a JSON or IDL number literal, and a problem when it cannot be represented.

    The one number reader of every input (IDL, JSON AST, settings files, smithy-build.json,
    the plugin's standard input). The literal is judged on its text before any ``int``,
    ``float`` or ``Decimal`` is built (README "Limits"):

    * an exponent may have at most :data:`MAX_EXPONENT_DIGITS` digits, leading zeros aside
      (``Decimal`` itself fails on 19; the reference's ``BigDecimal`` refuses exponents past
      about 2.1e9 with "Too many nonzero exponent digits");
    * the value may have at most :data:`MAX_INTEGER_DIGITS` digits before its decimal point
      (an integer literal at most that many digits, written as it is).

    Integers are exact; other literals are floats, or a :class:`BigNumber` when a float
    would overflow (an integral value). Returns ``(0, problem)`` on a problem; never raises.
    """
    parts = _NUMBER_PARTS.fullmatch(literal)
    if parts is None:
        return 0, f"invalid number {truncate(literal)}"
    whole, fraction, sign, exponent = parts.groups()
    if fraction is None and exponent is None:
        digits = len(whole)
        if digits > MAX_INTEGER_DIGITS:
            return 0, f"the integer has {digits} digits; at most {MAX_INTEGER_DIGITS} are allowed"
        try:
            return int(literal), None
        except ValueError:  # the interpreter's int-string limit was lowered below ours
            return 0, f"the integer has {digits} digits, more than this Python converts"
    exponent = exponent or ""
    if len(exponent) > MAX_EXPONENT_DIGITS:
        return 0, (f"the exponent of {truncate(literal)} has {len(exponent)} digits; at most "
                   f"{MAX_EXPONENT_DIGITS} are allowed")
    if _magnitude(whole, fraction or "", int((sign or "") + (exponent or "0"))) >= MAX_INTEGER_DIGITS:
        return 0, (f"the number {truncate(literal)} is too large (more than {MAX_INTEGER_DIGITS} digits; a 64-bit "
                   "float overflows at about 1.8e308)")
    value = float(literal)
    if not math.isinf(value):
        return value, None
    import decimal  # only for a number a float cannot hold

    exact = decimal.Decimal(literal)  # safe: a short exponent and fewer than 1000 integer digits
    if exact != exact.to_integral_value():
        return 0, f"the number {truncate(literal)} overflows a 64-bit float and is not an integer"
    return BigNumber(int(exact), literal), None


#: sign, integer digits, fraction digits, exponent sign, exponent digits without leading zeros
_NUMBER_PARTS = lazy(r"[-+]?(?=\.?[0-9])([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?)(?=[0-9])0*([0-9]*))?")


def _magnitude(whole: str, fraction: str, exponent: int) -> int:
    """The decimal exponent of the leading digit of ``whole.fraction × 10**exponent`` (what
    ``Decimal.adjusted()`` gives: 2 for 123.4, -2 for 0.01), -1 for zero."""
    significant = whole.lstrip("0")
    if significant:
        return len(significant) - 1 + exponent
    rest = fraction.lstrip("0")
    return -(len(fraction) - len(rest)) - 1 + exponent if rest else -1


class _BadNumber(ValueError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


_CONSTANT_PROBLEM = ("'{}' is not a JSON value (RFC 8259 has no NaN or Infinity); write a finite number or "
                     "a string")


def _number_problem(token: str) -> str | None:
    """Why a JSON number or constant token cannot be read, or ``None`` when it can."""
    if token in ("NaN", "Infinity", "-Infinity"):
        return _CONSTANT_PROBLEM.format(token)
    return read_number(token)[1]


def _parse_number(token: str) -> int | float:
    value, problem = read_number(token)
    if problem:
        raise _BadNumber(problem)
    return value


def _parse_int(token: str) -> int | float:
    """An integer literal of the JSON scanner (digits, maybe a minus sign): a short one
    (a 64-bit integer's length, far below every limit) is read as it is, any other as
    :func:`read_number` reads it."""
    return int(token) if len(token) < 21 else _parse_number(token)


def _parse_constant(token: str) -> Any:
    raise _BadNumber(_CONSTANT_PROBLEM.format(token))


_DECODER = json.JSONDecoder(parse_float=_parse_number, parse_int=_parse_int, parse_constant=_parse_constant,
                            strict=True)
_SCAN = json.scanner.make_scanner(_DECODER)
_SCANSTRING = json.decoder.scanstring


class JsonProblem(Record):
    """Why a JSON text cannot be read: ``code`` (``S1100`` syntax, ``S1103`` number out of
    range, ``S1016`` nested too deeply), a message and the character offset."""

    __slots__ = ("code", "message", "offset")
    code: str
    message: str
    offset: int

    def __init__(self, code: str, message: str, offset: int) -> None:
        self.code = code
        self.message = message
        self.offset = offset

    @property
    def is_syntax_error(self) -> bool:
        """Whether the text is not JSON (RFC 8259), rather than JSON beyond one of our limits
        (a number out of range, nesting too deep) that other JSON readers may accept."""
        return self.code == "S1100"


class _Stop(Exception):
    def __init__(self, problem: JsonProblem) -> None:
        super().__init__(problem.message)
        self.problem = problem


class JsonText(Record, hidden=("complete", "spans", "_lines")):
    """A parsed JSON text: ``value``, and ``positions`` (path → character offset of the key,
    for object members, or of the value, for array elements) for the walked levels.

    ``complete``, when given, is called with a path whose span :meth:`span` does not hold
    already, before looking further: a reader that records only the positions it needs
    often (:func:`smithy2cfn.model.json_ast.parse_json_ast_text`) fills in the rest of that
    part of the text there, and may return the span itself, so that :meth:`span` answers as
    if every walked level had been recorded. ``spans`` holds spans already made for some
    paths of ``positions`` (the same as :meth:`span` makes).
    """

    __slots__ = ("path", "text", "value", "positions", "complete", "spans", "_lines", "_cursor")
    path: str
    text: str
    value: Any
    positions: dict[Path, int]
    complete: Callable[[Path], Span | None] | None
    spans: dict[Path, Span]
    _lines: list[int] | None

    def __init__(self, path: str, text: str, value: Any = None, positions: dict[Path, int] | None = None,
                 complete: Callable[[Path], Span | None] | None = None, spans: dict[Path, Span] | None = None,
                 _lines: list[int] | None = None) -> None:
        self.path = path
        self.text = text
        self.value = value
        self.positions = {} if positions is None else positions
        self.complete = complete
        self.spans = {} if spans is None else spans
        self._lines = _lines
        #: offset, its line (0-based), that line's start offset, characters counted so far
        self._cursor = [0, 0, 0, 0]

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset.

        Offsets asked in text order (as the readers ask them) are counted from the last
        one asked; after counting twice the text's length, a table of line starts is
        built and searched instead (linear however the offsets come)."""
        if self._lines is None:
            cursor = self._cursor
            text = self.text
            last, line, start, counted = cursor
            if offset >= last:
                counted += offset - last
                n = text.count("\n", last, offset)
                if n:
                    line += n
                    start = text.rfind("\n", last, offset) + 1
            else:
                line -= text.count("\n", offset, last)
                if offset < start:
                    start = text.rfind("\n", 0, offset) + 1
                counted += last - min(offset, start)
            if counted <= 2 * len(text) + 4096:
                cursor[:] = offset, line, start, counted
                return line + 1, offset - start + 1
            self._lines = [m.end() for m in re.finditer("\n", text)]
        line = bisect.bisect_right(self._lines, offset)
        start = self._lines[line - 1] if line else 0
        return line + 1, offset - start + 1

    def span_at(self, offset: int) -> Span:
        """The span of one character offset."""
        line, col = self.line_col(offset)
        return Span(self.path, line, col)

    def span(self, path: Path) -> Span:
        """The span of ``path``, or of its nearest walked ancestor (the file when none)."""
        known = self.spans.get(path)
        if known is not None:
            return known
        positions = self.positions
        if self.complete is not None:
            found = self.complete(path)
            if found is not None:
                return found
        while path:
            offset = positions.get(path)
            if offset is not None:
                return self.span_at(offset)
            path = path[:-1]
        return Span(self.path, 1, 1) if self.text else Span(self.path)


def _descend_everywhere(path: Path) -> bool:
    return len(path) < 6


def parse_json(text: str, path: str, descend: Callable[[Path], bool] = _descend_everywhere, *,
               whole_is_node: bool = True) -> tuple[JsonText, JsonProblem | None]:
    """Parse ``text`` as strict JSON (RFC 8259), recording key positions.

    Args:
        text: the JSON text.
        path: the file, for spans.
        descend: which arrays and objects (by path) are walked here, recording the
            positions of their keys or elements (keep it to a few levels: the walk is in
            Python); the other values are parsed whole. Default: the first 6 levels.
        whole_is_node: the whole text is one node value (a config file), nested at most
            :data:`MAX_NODE_DEPTH` levels deep; otherwise (a JSON AST) every value that is
            not walked is a node value with that limit.

    Returns:
        ``(json_text, problem)``: on a problem (the first one, in text order) the value is
        ``None``. Never raises on bad input.
    """
    out = JsonText(path, text)
    walker = _Walker(text, out.positions, descend)
    try:
        value, end = walker.value(0, ())
        end = _WS.match(text, end).end()
        if end != len(text):
            raise _Stop(JsonProblem("S1100", "extra data after the JSON value", end))
        deep = [(start, stop) for start, stop in walker.nodes if stop - start > SHORTEST_TOO_DEEP]
        if deep and whole_is_node:
            deep = [(0, len(text))]
        for start, stop in deep:
            if _max_depth(text[start:stop]) > MAX_NODE_DEPTH:
                offset = _too_deep(text, start)
                if offset is not None:
                    raise _Stop(JsonProblem("S1016", _DEPTH_MESSAGE, offset))
        if _has_lone_surrogate(text):
            value = _fix_surrogates(value)
    except _Stop as e:
        return out, e.problem
    out.value = value
    return out, None


#: A value shorter than this many characters cannot nest more than :data:`MAX_NODE_DEPTH`
#: levels deep (each level takes two brackets): only longer ones are measured.
SHORTEST_TOO_DEEP = 2 * MAX_NODE_DEPTH

_DEPTH_MESSAGE = (f"value nested more than {MAX_NODE_DEPTH} levels deep (the limit for trait, "
                  "metadata and setting values)")


class _Walker:
    def __init__(self, text: str, positions: dict[Path, int], descend: Callable[[Path], bool]) -> None:
        self.text = text
        self.positions = positions
        self.descend = descend
        #: (start, end) offsets of the arrays and objects parsed whole (node values)
        self.nodes: list[tuple[int, int]] = []

    def syntax(self, message: str, offset: int) -> _Stop:
        return _Stop(JsonProblem("S1100", message, offset))

    def value(self, idx: int, path: Path) -> tuple[Any, int]:
        text = self.text
        idx = _WS.match(text, idx).end()
        ch = text[idx:idx + 1]
        if ch == "{" and self.descend(path):
            return self.object(idx, path)
        if ch == "[" and self.descend(path):
            return self.array(idx, path)
        try:
            value, end = _SCAN(text, idx)
            if ch in ("[", "{"):
                self.nodes.append((idx, end))
            return value, end
        except StopIteration:
            if ch == "\ufeff":
                raise self.syntax("unexpected byte order mark (save the file as UTF-8 without BOM)", idx) from None
            raise self.syntax("expected a value", idx) from None
        except json.JSONDecodeError as e:
            raise self.syntax(_lower_first(e.msg), e.pos) from None
        except _BadNumber as e:
            raise _Stop(JsonProblem(_code_of(e.message), e.message, _bad_number_offset(text, idx))) from None
        except RecursionError:
            offset = _too_deep(text, idx)
            raise _Stop(JsonProblem("S1016", _DEPTH_MESSAGE, offset if offset is not None else idx)) from None

    def object(self, idx: int, path: Path) -> tuple[dict, int]:
        text = self.text
        out: dict[str, Any] = {}
        idx = _WS.match(text, idx + 1).end()
        if text.startswith("}", idx):
            return out, idx + 1
        while True:
            m = _KEY.match(text, idx)
            if m is not None:  # the common case: a key without escapes
                key, start, idx = m.group(1), idx, m.end()
            else:
                if not text.startswith('"', idx):
                    raise self.syntax("expected a property name in double quotes", idx)
                start = idx
                try:
                    key, idx = _SCANSTRING(text, idx + 1, True)
                except json.JSONDecodeError as e:
                    raise self.syntax(_lower_first(e.msg), e.pos) from None
                idx = _WS.match(text, idx).end()
                if not text.startswith(":", idx):
                    raise self.syntax("expected ':' after a property name", idx)
                idx += 1
            sub = (*path, key)
            self.positions[sub] = start
            out[key], idx = self.value(idx, sub)
            m = _SEPARATOR.match(text, idx)
            if m is None or m.group(1) == "]":
                raise self.syntax("expected ',' or '}' after an object member", _WS.match(text, idx).end())
            idx = m.end()
            if m.group(1) == "}":
                return out, idx

    def array(self, idx: int, path: Path) -> tuple[list, int]:
        text = self.text
        out: list[Any] = []
        idx = _WS.match(text, idx + 1).end()
        if text.startswith("]", idx):
            return out, idx + 1
        while True:
            sub = (*path, len(out))
            self.positions[sub] = idx
            value, idx = self.value(idx, sub)
            out.append(value)
            m = _SEPARATOR.match(text, idx)
            if m is None or m.group(1) == "}":
                raise self.syntax("expected ',' or ']' after an array element", _WS.match(text, idx).end())
            idx = m.end()
            if m.group(1) == "]":
                return out, idx


def _lower_first(message: str) -> str:
    return message[:1].lower() + message[1:]


def _code_of(message: str) -> str:
    return "S1100" if "RFC 8259" in message else "S1103"


def _bad_number_offset(text: str, start: int) -> int:
    """Offset of the first number or constant from ``start`` that cannot be read."""
    for m in _TOKEN.finditer(text, start):
        token = m.group(4) or m.group(5)
        if token and token not in ("true", "false", "null") and _number_problem(token):
            return m.start()
    return start


def _max_depth(text: str) -> int:
    """The deepest array/object nesting of a JSON text (brackets inside strings ignored)."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text)).encode("ascii")
    if not brackets:
        return 0
    return max(accumulate(map(_STEP.__getitem__, brackets)))


def _too_deep(text: str, start: int) -> int | None:
    """Where the value at ``start`` first holds a value nested more than
    :data:`MAX_NODE_DEPTH` levels deep (as the IDL front end counts), or ``None``."""
    depth = 0
    for m in _TOKEN.finditer(text, start):
        if m.group(3):
            depth -= 1
            if depth <= 0:
                return None
            continue
        if depth > MAX_NODE_DEPTH:
            return m.start()
        if m.group(2):
            depth += 1
        elif depth == 0:
            return None
    return None


def is_escaped(text: str, at: int) -> bool:
    """Whether the backslash at offset ``at`` of a JSON (or IDL) string's text is itself
    escaped: an odd run of backslashes right before it (``\\\\u0041`` is a backslash and
    ``u0041``, no escape). Looks back over that run only, so that a scan calling it at each
    escape it finds stays linear."""
    run = at
    while run > 0 and text[run - 1] == "\\":
        run -= 1
    return (at - run) % 2 == 1


def _has_lone_surrogate(text: str) -> bool:
    """True when a JSON text has a ``\\uXXXX`` escape of an unpaired UTF-16 surrogate
    (linear: :func:`is_escaped` at each escape)."""
    paired_low = -1
    for m in _ANY_SURROGATE_ESCAPE.finditer(text):
        start = m.start()
        if is_escaped(text, start):  # an escaped backslash followed by "u...": plain text
            continue
        if m.group(1) in "89abAB":
            if not _LOW_ESCAPE.match(text, m.end()):
                return True
            paired_low = m.end()
        elif start != paired_low:
            return True
    return False


def _fix_surrogates(value: Any) -> Any:
    """``value`` with unpaired UTF-16 surrogates in strings (and keys) replaced by U+FFFD."""
    def fix(s: str) -> str:
        if not _LONE_SURROGATE.search(s):
            return s
        return s.encode("utf-16", "surrogatepass").decode("utf-16", "replace")

    def walk(v: Any) -> Any:  # recursion is bounded: node values are at most MAX_NODE_DEPTH deep
        if isinstance(v, str):
            return fix(v)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {fix(k): walk(x) for k, x in v.items()}
        return v

    return walk(value)


__all__ = ["MAX_EXPONENT_DIGITS", "MAX_INTEGER_DIGITS", "MAX_NODE_DEPTH", "BigNumber", "JsonProblem", "JsonText", "parse_json",
           "read_number"]
