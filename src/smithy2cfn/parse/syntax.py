"""Tokenizer and LALR driver for the Smithy IDL (Smithy 2.0 "Smithy IDL" §"Smithy IDL ABNF").

The grammar (``grammar/smithy.lark``) is turned into LALR(1) tables by Lark at development
time; they ship as JSON (:mod:`smithy2cfn.parse.tables`) and this module runs the automaton
itself. It builds the same tree Lark would (same rule names and children, positions as
Lark's ``propagate_positions``), but out of :class:`Node` objects whose tokens are indices
into one :class:`Tokens` table, without Lark's ``Tree``/``Token``/``Meta`` objects and
callbacks: a flat 5.6 MB file parsed in 46 s with Lark's interactive parser, most of it in
the tree builder and in the garbage collector walking its objects.

Tokens are produced here rather than by Lark's lexers because Smithy's keywords
(``structure``, ``list``, ``input``, ``true``...) are also valid identifiers, and LALR
state merging makes a contextual lexer pick the keyword in places where only an identifier
fits (``list: ListCities`` inside a resource body). The driver asks the exact LALR stack
whether the keyword can be shifted (after the reductions it would cause) and falls back to
``IDENTIFIER`` otherwise.

Driving the parser token by token also gives error recovery: after a syntax error the
statements already completed are kept, tokens are skipped up to the next line that starts
a top-level statement, and parsing restarts there. A statement that starts on the line
where the previous one ends is such an error (the ABNF's ``BR`` after each statement; the
reference's "Expected a line break"), found when the previous statement is reduced.

Most tokens of a large file are not driven one by one: in the states where the automaton
would start one, an array or object (:func:`_fast_node_value`), a trait application
(:func:`_fast_trait`) or the members of a shape (:func:`_fast_members`) are read by a
recursive descent that builds exactly the nodes the reductions build, and the driver goes on
from the goto of what it read; whatever such a reader does not accept (a syntax error among
others) it leaves to the automaton (``tests/parse/test_parse_driver.py`` compares the two).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
import re
import sys

from smithy2cfn.model.jsonread import read_number
from smithy2cfn.parse.strings import decode_quoted_text
from smithy2cfn.parse.tables import grammar_text, parser_tables
from smithy2cfn.records import Record
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

#: Terminals of the grammar that the tokenizer produces from regexes, in match order (no
#: two of them can start with the same character, except the two comments and the two
#: strings, which are in the grammar's order of priority). Identifiers, the most frequent,
#: come first, then comments and strings (each passes every punctuation alternative when
#: it comes after them: s3 as IDL has 15,000 comments), then the punctuation marks, then
#: numbers (the last one: :func:`get_parser`). :func:`tokenize` tells them apart by their
#: first character (:data:`_FIRST_CHARACTERS`), the strings and comments by their first three.
_REGEX_TERMINALS = (
    "IDENTIFIER",
    "DOCUMENTATION_COMMENT",
    "LINE_COMMENT",
    "TEXT_BLOCK",
    "QUOTED_TEXT",
    "NUMBER",
)
#: The characters each regex terminal can start with (``tests/parse/test_parse_driver.py``
#: checks them against the grammar).
_FIRST_CHARACTERS = {
    "IDENTIFIER": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_",
    "NUMBER": "-0123456789",
    "TEXT_BLOCK": '"',
    "QUOTED_TEXT": '"',
    "DOCUMENTATION_COMMENT": "/",
    "LINE_COMMENT": "/",
}
#: Characters the grammar ignores between tokens: ``WS`` (its regex is checked against this
#: set in :func:`get_parser`) and ``COMMA``.
_IGNORED_CHARS = " \t\r\n\ufeff,"

#: Words that start a top-level statement (used to resynchronise after an error).
STATEMENT_KEYWORDS = frozenset({
    "metadata", "namespace", "use", "apply", "blob", "boolean", "document", "string", "byte",
    "short", "integer", "long", "float", "double", "bigInteger", "bigDecimal", "timestamp",
    "enum", "intEnum", "list", "map", "union", "structure", "set", "service", "resource",
    "operation",
})

#: The parser stops after this many syntax errors in a file (the reference stops at the first).
MAX_SYNTAX_ERRORS = 50


class _Parser(Record, frozen=True):
    token_re: re.Pattern
    first_kind: dict[str, str]         # first character -> the only terminal it can start
    terminal_regexes: dict[str, str]   # regex terminal name -> its regex in the grammar
    keywords: dict[str, str]           # keyword text -> terminal name
    punctuation: dict[str, str]        # punctuation text -> terminal name
    states: list[dict[str, int]]       # see smithy2cfn.parse.tables
    rules: list[tuple[str, int, tuple[tuple[int, bool], ...] | None, bool]]
    kinds: list[int]                   # per rule: how _reduce builds its node (_GENERIC...)
    start_state: int
    end_state: int
    safe: list[frozenset[str]]         # per state: terminals whose reduction cannot fail
    value_goto: dict[int, int]         # see _value_gotos
    shift_memo: dict                   # see _can_shift
    trait_goto: dict[int, int]         # see _trait_gotos
    members_goto: dict[int, str]       # see _members_gotos

    def __init__(self, token_re: re.Pattern, first_kind: dict[str, str], terminal_regexes: dict[str, str],
                 keywords: dict[str, str],
                 punctuation: dict[str, str], states: list[dict[str, int]],
                 rules: list[tuple[str, int, tuple[tuple[int, bool], ...] | None, bool]], kinds: list[int],
                 start_state: int, end_state: int, safe: list[frozenset[str]],
                 value_goto: dict[int, int] | None = None, shift_memo: dict | None = None,
                 trait_goto: dict[int, int] | None = None, members_goto: dict[int, str] | None = None) -> None:
        self.__dict__.update(token_re=token_re, first_kind=first_kind, terminal_regexes=terminal_regexes,
                             keywords=keywords,
                             punctuation=punctuation, states=states, rules=rules, kinds=kinds,
                             start_state=start_state, end_state=end_state, safe=safe,
                             value_goto={} if value_goto is None else value_goto,
                             shift_memo={} if shift_memo is None else shift_memo,
                             trait_goto={} if trait_goto is None else trait_goto,
                             members_goto={} if members_goto is None else members_goto)


#: How the tokenizer matches the grammar's string terminals: the same text as their regexes
#: in the grammar, written as "unrolled loops" (a run of plain characters, then one escape or
#: inner quote, and so on) so that the regex engine loops once per escape, not once per
#: character (see :func:`_tokenizer_regex`; ``tests/hostile/test_scaling.py`` checks they agree).
_STRING_REGEXES = {
    "TEXT_BLOCK": r'"""[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*"""',
    "QUOTED_TEXT": r'"[^"\\]*(?:\\[\s\S][^"\\]*)*"',
}


def _tokenizer_regex(name: str, regex: str) -> str:
    """The regex the tokenizer uses for the grammar terminal ``name`` (``regex`` in the grammar).

    For the string terminals, the grammar's ``"(?:[^"\\\\]|\\\\.)*"`` makes Python's regex
    engine keep backtracking state for every character: about 120 bytes per character, 1.25 GB
    for a 4 MB text block. The unrolled form of :data:`_STRING_REGEXES` needs it only per
    escape, and none at all with possessive loops (``*+``, Python 3.11+), which match the same
    text because each loop is followed by a character it cannot match.
    """
    if name not in _STRING_REGEXES:
        return regex
    unrolled = _STRING_REGEXES[name]
    return unrolled.replace("*", "*+") if sys.version_info >= (3, 11) else unrolled


@functools.cache
def get_parser() -> _Parser:
    """Load (once per process) the LALR tables and build the tokenizer regex.

    The tables come from the JSON shipped with the package when it was computed from this
    grammar and these sources, else Lark computes them from the grammar
    (:func:`smithy2cfn.parse.tables.parser_tables`). Nothing is cached at run time.
    """
    data = parser_tables(grammar_text())
    keywords: dict[str, str] = {}
    punctuation: dict[str, str] = {}
    regexes: dict[str, str] = {}
    for name, (kind, pattern) in data["terminals"].items():
        if kind == "re":
            regexes[name] = pattern
        elif re.fullmatch(r"[A-Za-z]+", pattern):
            keywords[pattern] = name
        elif name != "COMMA":
            punctuation[pattern] = name
    if regexes.get("WS") != "[" + _IGNORED_CHARS[:-1] + "]+" or punctuation.get(",", "COMMA") != "COMMA":
        raise ValueError("the grammar's WS or COMMA changed: update _IGNORED_CHARS in smithy2cfn.parse.syntax")
    # Each match is the ignored characters before a token, then the token (group 1: a
    # terminal, an unknown character, or "" at the end). The alternatives have no groups of
    # their own: Python's regex engine skips an alternative on its first character only
    # when it does not start with a group (s3 as IDL: 335M -> 190M instructions).
    parts = [_uncaptured(_tokenizer_regex(name, regexes[name])) for name in _REGEX_TERMINALS[:-1]]
    parts += [re.escape(mark) for mark in sorted(punctuation, key=len, reverse=True)]  # longest first
    parts += [_uncaptured(_tokenizer_regex(name, regexes[name])) for name in _REGEX_TERMINALS[-1:]]
    # A string that never closes (group 2 is its quote), so that the error says so (instead
    # of "unexpected '\"'"); then one unknown character; then the end.
    parts += [r'(")[\s\S]*', r"[\s\S]", r"\Z"]
    token_re = re.compile(f"[{_IGNORED_CHARS}]*(" + "|".join(parts) + ")")
    if token_re.groups != 2:
        raise ValueError("a terminal regex kept a capturing group: update smithy2cfn.parse.syntax._uncaptured")
    first_kind = _first_kinds(punctuation)
    rules = [(origin, size, None if keep is None else tuple((i, bool(s)) for i, s in keep), bool(expand1))
             for origin, size, keep, expand1 in data["rules"]]
    return _Parser(token_re, first_kind, regexes, keywords, punctuation, data["states"], rules,
                   [_rule_kind(rule) for rule in rules], data["start_state"], data["end_state"],
                   [frozenset(terms) for terms in data["safe_reductions"]],
                   **_fast_gotos(data["states"], keywords, punctuation))


def _fast_gotos(states: list[dict[str, int]], keywords: dict[str, str], punctuation: dict[str, str]
                ) -> dict[str, Any]:
    """:class:`_Parser`'s ``value_goto``, ``trait_goto`` and ``members_goto``, by name: none
    when the grammar's punctuation is not :data:`_FAST_PUNCTUATION` (every token then goes
    through the automaton)."""
    if any(punctuation.get(text) != name for text, name in _FAST_PUNCTUATION.items()):
        return {}
    return {"value_goto": _value_gotos(states, keywords), "trait_goto": _trait_gotos(states),
            "members_goto": _members_gotos(states)}


def _uncaptured(regex: str) -> str:
    """``regex`` with its groups made non-capturing (``(`` -> ``(?:``; :func:`get_parser`
    checks that the tokenizer regex has no other groups than its own)."""
    return re.sub(r"(?<!\\)\((?!\?)", "(?:", regex)


def _first_kinds(punctuation: dict[str, str]) -> dict[str, str]:
    """First character -> the terminal a token starting with it is, for the characters that
    start one terminal only (see :func:`tokenize` for the others: ``"``, ``/``, ``-`` and the
    first character of a longer punctuation mark). From :data:`_FIRST_CHARACTERS`, which
    ``tests/parse/test_parse_driver.py`` checks against the grammar's regexes."""
    kinds: dict[str, set[str]] = {}
    for name in _REGEX_TERMINALS:
        for c in _FIRST_CHARACTERS[name]:
            kinds.setdefault(c, set()).add(name)
    for mark, name in punctuation.items():
        kinds.setdefault(mark[0], set()).add(name if len(mark) == 1 else "")
    return {c: names.pop() for c, names in kinds.items()
            if len(names) == 1 and c not in '-"/' and "" not in names}


#: The punctuation the readers that skip the automaton know by these terminal names
#: (:func:`get_parser` turns them all off for a grammar whose punctuation differs).
_FAST_PUNCTUATION = {"{": "LBRACE", "}": "RBRACE", "[": "LSQB", "]": "RSQB", ":": "COLON", "@": "AT",
                     "(": "LPAR", ")": "RPAR", "$": "DOLLAR", "=": "EQUAL"}


def _value_gotos(states: list[dict[str, int]], keywords: dict[str, str]) -> dict[int, int]:
    """The states where :func:`_fast_node_value` may read a whole array or object: state →
    its goto on ``node_value``.

    Those are the states where a node value may start and ``{``/``[`` are shifted; the
    only keywords they take are ``true``, ``false`` and ``null`` (so that an identifier in
    a value is a shape ID, as the fast path reads it). Empty when the grammar's keywords
    are not the ones the fast path knows.
    """
    value_keywords = {keywords.get(word) for word in _VALUE_KEYWORDS}
    if None in value_keywords:
        return {}
    other_keywords = set(keywords.values()) - value_keywords
    return {k: row["node_value"] for k, row in enumerate(states)
            if "node_value" in row and row.get("LBRACE", -1) >= 0 and row.get("LSQB", -1) >= 0
            and other_keywords.isdisjoint(row)}


def _trait_gotos(states: list[dict[str, int]]) -> dict[int, int]:
    """The states where :func:`_fast_trait` may read a whole trait application: state →
    its goto on ``trait`` (the states where ``@``, which starts nothing but a trait, is
    shifted)."""
    return {k: row["trait"] for k, row in enumerate(states) if "trait" in row and row.get("AT", -1) >= 0}


def _members_gotos(states: list[dict[str, int]]) -> dict[int, str]:
    """The states where :func:`_fast_members` may read the members of a shape: state → the
    rule they make (``shape_members`` or ``enum_shape_members``: the states with a goto on
    it where ``{`` is shifted)."""
    return {k: rule for k, row in enumerate(states) for rule in ("shape_members", "enum_shape_members")
            if rule in row and row.get("LBRACE", -1) >= 0}


#: How a reduction builds its node (the fast paths of :func:`parse_tokens`; each one does
#: what :func:`_reduce` does for such a rule).
_GENERIC, _PASS, _WRAP, _APPEND, _EMPTY, _PLAIN, _STATEMENT = range(7)


def _rule_kind(rule: tuple) -> int:
    """The kind of node building rule ``(origin, size, keep, expand1)`` needs: ``_PASS`` a
    ``?rule`` of one symbol (the child stays as it is), ``_WRAP`` one symbol kept as the
    only child, ``_APPEND`` the left-recursive step ``__x: __x item`` of a ``*``/``+``
    helper (the item joins the helper's children), ``_EMPTY`` an empty rule, ``_PLAIN``
    several symbols all kept as children, ``_STATEMENT`` a top-level statement (the driver
    checks that the next one starts on a new line)."""
    origin, size, keep, expand1 = rule
    if origin in _STATEMENT_RULES:
        return _STATEMENT
    if size == 0:
        return _EMPTY
    if size == 1 and keep is None:
        return _PASS if expand1 else _WRAP
    if size == 2 and keep == ((0, True), (1, False)) and not expand1:
        return _APPEND
    if keep is None and not expand1:
        return _PLAIN
    return _GENERIC


class Tokens:
    """The significant tokens of one file, as parallel lists indexed by token number.

    ``types[k]`` is the terminal name as tokenized (keywords are ``IDENTIFIER`` here; the
    parser decides), ``values[k]`` the text, ``starts[k]`` the offset of its first
    character. ``text`` is the file's text. Positions (1-based line and column, lines
    counted by ``\\n``, columns in characters) are worked out when asked for, from the
    offsets of the file's line breaks (:meth:`line`, :meth:`column`): a large model has
    tens of thousands of tokens and only a few of them ever appear in a span or a message.
    """

    __slots__ = ("text", "types", "values", "starts", "_breaks")

    def __init__(self, text: str) -> None:
        self.text = text
        self.types: list[str] = []
        self.values: list[str] = []
        self.starts: list[int] = []
        self._breaks: list[int] | None = None  # offsets of the "\n" of text, when first needed

    def __len__(self) -> int:
        return len(self.values)

    def _line_breaks(self) -> list[int]:
        """The offsets of the file's ``\\n`` characters, in order (computed once, unless
        given: :func:`parse_tokens`'s ``breaks``)."""
        breaks = self._breaks
        if breaks is None:
            breaks = self._breaks = line_breaks(self.text)
        return breaks

    def position(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of the character at ``offset`` (a ``\\n`` is on the
        line it ends)."""
        breaks = self._breaks if self._breaks is not None else self._line_breaks()
        before = bisect.bisect_left(breaks, offset)  # the line breaks before offset
        return before + 1, offset - (breaks[before - 1] if before else -1)

    def line(self, k: int) -> int:
        """The 1-based line of token ``k``'s first character."""
        return self.position(self.starts[k])[0]

    def column(self, k: int) -> int:
        """The 1-based column of token ``k``'s first character."""
        return self.position(self.starts[k])[1]

    def first_on_line(self, k: int) -> bool:
        """True when no other token ends on the line where token ``k`` starts."""
        return k == 0 or self.line(k) != self.end_line(k - 1)

    def lines_and_columns(self, first: int, last: int) -> tuple[int, int, int, int]:
        """``(line, column, end line, end column)`` of tokens ``first`` to ``last``: where
        ``first`` starts and just after where ``last`` ends (a :class:`Span`'s fields)."""
        breaks = self._breaks if self._breaks is not None else self._line_breaks()
        start = self.starts[first]
        before = bisect.bisect_left(breaks, start)
        line, column = before + 1, start - (breaks[before - 1] if before else -1)
        value = self.values[last]
        nl = value.rfind("\n")
        if nl >= 0:
            return line, column, self.line(last) + value.count("\n"), len(value) - nl
        if last != first:
            start = self.starts[last]
            before = bisect.bisect_left(breaks, start, before)
            return line, column, before + 1, start - (breaks[before - 1] if before else -1) + len(value)
        return line, column, line, column + len(value)

    def end_pos(self, k: int) -> int:
        """Offset just after token ``k``."""
        return self.starts[k] + len(self.values[k])

    def end_line(self, k: int) -> int:
        """The line of token ``k``'s last character."""
        return self.line(k) + self.values[k].count("\n")

    def end_column(self, k: int) -> int:
        """The column just after token ``k`` (on :meth:`end_line`)."""
        return self.lines_and_columns(k, k)[3]


class Node:
    """A node of the parse tree: ``data`` is the grammar rule's name, ``children`` holds
    child nodes and token numbers (ints, see :class:`Tokens`) as Lark would keep them, and
    ``start``/``end`` are the numbers of the first and last tokens it covers (tokens the
    tree leaves out, such as ``@`` or braces, included), ``-1`` for an empty node."""

    __slots__ = ("data", "children", "start", "end")

    def __init__(self, data: str, children: list, start: int, end: int) -> None:
        self.data = data
        self.children = children
        self.start = start
        self.end = end

    def __repr__(self) -> str:
        return f"Node({self.data!r}, {self.children!r}, {self.start}, {self.end})"


class DocComment(Record):
    """One ``///`` comment (anywhere on a line, as the reference's ``DefaultTokenizer`` reads
    it): its text after ``///`` up to the end of the line (a ``\\r`` before the ``\\n`` left
    out), the offsets ``[start, end)`` it covers, and ``token``, the number of the
    significant token after it (the number of tokens when none comes after it)."""

    __slots__ = ("text", "start", "end", "token")
    text: str
    start: int
    end: int
    token: int

    def __init__(self, text: str, start: int, end: int, token: int) -> None:
        self.text = text
        self.start = start
        self.end = end
        self.token = token


class SyntaxProblem(Record):
    """A syntax error found while tokenizing/parsing (message and 1-based position)."""

    __slots__ = ("message", "line", "column", "end_line", "end_column")
    message: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __init__(self, message: str, line: int, column: int, end_line: int, end_column: int) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column


class ParseResult(Record):
    """What :func:`parse_tokens` returns: top-level statement trees and the token table.

    ``fast_values`` maps the first token of an array or object read by
    :func:`_fast_node_value` to its Python value, when reading its tree can report nothing
    (see there); the trees are complete all the same."""

    __slots__ = ("statements", "tokens", "doc_comments", "problems", "fast_values")
    statements: list[Node]
    tokens: Tokens
    doc_comments: list[DocComment]
    problems: list[SyntaxProblem]
    fast_values: dict[int, Any]

    def __init__(self, statements: list[Node], tokens: Tokens, doc_comments: list[DocComment],
                 problems: list[SyntaxProblem] | None = None, fast_values: dict[int, Any] | None = None) -> None:
        self.statements = statements
        self.tokens = tokens
        self.doc_comments = doc_comments
        self.problems = [] if problems is None else problems
        self.fast_values = {} if fast_values is None else fast_values


def line_breaks(text: str, first: int = 0) -> list[int]:
    """The offsets of the ``\\n`` characters of ``text``, in order, plus ``first`` (where
    ``text`` starts in a larger text)."""
    # the i-th "\n" ends the i-th line: the lengths of the lines up to it, plus i
    lines = text.split("\n")
    return list(map(operator.add, itertools.accumulate(map(len, lines[:-1])), itertools.count(first)))


def tokenize(text: str) -> tuple[Tokens, list[DocComment], list[SyntaxProblem]]:
    """Split ``text`` into significant tokens (typed for the grammar), doc comments, problems.

    Identifier-like words are typed ``IDENTIFIER`` here; :func:`parse_tokens` retypes them as
    keywords where the parser can take a keyword. Unknown characters become ``ERROR``
    tokens (reported by the parser as syntax errors). The loop does as little as it can per
    token (a large model has tens of thousands): the first character gives the type
    (``_Parser.first_kind``), the few characters that start several terminals are looked at
    further, and positions are left to :class:`Tokens`.
    """
    p = get_parser()
    toks = Tokens(text)
    types_append, values_append, starts_append = toks.types.append, toks.values.append, toks.starts.append
    first_kind, punctuation = p.first_kind, p.punctuation
    docs: list[DocComment] = []
    problems: list[SyntaxProblem] = []
    for m in p.token_re.finditer(text):
        value = m[1]
        kind = first_kind.get(value[:1])
        if kind is None:
            first = value[:1]
            if first == "/":
                if value.startswith("///"):
                    # Any "///" is a documentation comment, as in the reference (DefaultTokenizer),
                    # not only one that starts a line: smithy2cfn.parse.idl decides what it documents.
                    docs.append(DocComment(value[3:-1] if value[-1] == "\r" else value[3:], m.start(1), m.end(),
                                           len(toks.values)))
                    continue
                if value.startswith("//"):
                    continue  # LINE_COMMENT
                kind = "ERROR"
            elif first == '"':
                if m.start(2) >= 0:  # unclosed, reported where the reference reports it: at the end
                    problems.append(_unclosed(text, m.start(1), value))
                    kind, value = "ERROR", '"'
                else:
                    kind = "TEXT_BLOCK" if value.startswith('"""') else "QUOTED_TEXT"
            elif first == "-":
                kind = "NUMBER" if len(value) > 1 else "ERROR"
            elif not value:
                break  # the end
            else:  # a longer punctuation mark or its first character, else an unknown character
                kind = punctuation.get(value, "ERROR")
        types_append(kind)
        values_append(value)
        starts_append(m.start(1))
    return toks, docs, problems


def _unclosed(text: str, start: int, value: str) -> SyntaxProblem:
    """The problem of the string ``value`` that starts at offset ``start`` and never closes
    (it runs to the end of the file, where it is reported)."""
    line = text.count("\n", 0, start) + 1
    column = start - text.rfind("\n", 0, start)
    nl = value.count("\n")
    end_line = line + nl
    end_col = (column + len(value)) if not nl else len(value) - value.rfind("\n")
    return SyntaxProblem(f"unclosed string starting at line {line}, column {column}: "
                         "expected a closing '\"' before the end of the file", end_line, end_col, end_line, end_col)


#: How many states from the top of the stack :func:`_can_shift` keys its memo by.
_MEMO_DEPTH = 8
#: The most answers it keeps (the memo is emptied when full: hostile input cannot grow it).
_MEMO_SIZE = 100_000


def _can_shift(p: _Parser, stack: list[int], term: str, accept_at_end: bool = False) -> bool:
    """True when the LALR automaton in ``stack`` can shift ``term`` (after any reductions);
    ``stack`` is not changed.

    For ``$END`` pass ``accept_at_end``: the input is accepted when the reductions reach
    the end state. The answer depends only on the states the reductions read; when those
    are among the top :data:`_MEMO_DEPTH` it is remembered for that top of the stack (a
    file repeats the same few situations: this saves most of the simulation).
    """
    key = (term, accept_at_end, *stack[-_MEMO_DEPTH:])
    memo = p.shift_memo
    known = memo.get(key)
    if known is not None:
        return known
    states, rules, end_state = p.states, p.rules, p.end_state
    top = lowest = len(stack)  # the stack is stack[:top] + pushed
    pushed: list[int] = []
    state = stack[-1]
    result = False
    for _ in range(10_000):
        act = states[state].get(term)
        if act is None:
            break
        if act >= 0:
            result = True
            break
        origin, size = rules[-act - 1][:2]
        if size <= len(pushed):
            del pushed[len(pushed) - size:]
        else:
            top -= size - len(pushed)
            lowest = min(lowest, top)
            pushed.clear()
        below = pushed[-1] if pushed else stack[top - 1]
        state = states[below].get(origin, -1)
        if state < 0:
            break
        pushed.append(state)
        if accept_at_end and state == end_state:
            result = True
            break
    if lowest - 1 >= len(stack) - _MEMO_DEPTH:
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        memo[key] = result
    return result


def _expected(p: _Parser, stack: list[int]) -> list[str]:
    """The terminals the parser in ``stack`` can really shift next (sorted)."""
    return sorted(t for t in p.states[stack[-1]] if t.isupper() and _can_shift(p, stack, t))


_STATEMENT_RULES = {
    "control_statement", "metadata_statement", "namespace_statement", "use_statement",
    "shape_statement", "apply_statement",
}


def _salvage(value_stack: list) -> list[Node]:
    """Completed top-level statements on an LALR value stack (after a syntax error)."""
    out: list[Node] = []
    for item in value_stack:
        if isinstance(item, Node):
            if item.data in _STATEMENT_RULES:
                out.append(item)
            elif item.data.startswith("__start"):
                out.extend(c for c in item.children if isinstance(c, Node) and c.data in _STATEMENT_RULES)
    return out


_DESCRIPTIONS = {
    "IDENTIFIER": "an identifier",
    "QUOTED_TEXT": "a string",
    "TEXT_BLOCK": "a text block",
    "NUMBER": "a number",
    "$END": "the end of the file",
}

_SHAPE_TYPE_WORDS = STATEMENT_KEYWORDS - {"metadata", "namespace", "use", "apply"}
#: Keywords that the ABNF requires to be followed by something on the same line (``SP``).
_SAME_LINE_KEYWORDS = STATEMENT_KEYWORDS | {"="}


def _describe_expected(names: list[str], prev: str | None, prev_type: str | None, p: _Parser) -> str:
    """``names`` (terminals) in words; ``prev`` is the text of the token before (typed
    ``prev_type`` by the parser)."""
    by_name = {v: k for k, v in {**p.keywords, **p.punctuation}.items()}
    if names == ["IDENTIFIER"] and prev is not None:
        if prev in _SHAPE_TYPE_WORDS and prev_type != "IDENTIFIER":
            return "a shape name"
        if prev in ("@", "apply", "use", "with", "for", "[", ":"):
            return "a shape ID"
        if prev == "namespace":
            return "a namespace"
    words = []
    node_value = {"QUOTED_TEXT", "TEXT_BLOCK", "NUMBER", "IDENTIFIER", "LBRACE", "LSQB"}
    node_value |= {p.keywords[k] for k in ("true", "false", "null") if k in p.keywords}
    if node_value <= set(names):
        words.append("a value")
        names = [n for n in names if n not in node_value]
    shape_types = [n for n in names if by_name.get(n) in _SHAPE_TYPE_WORDS]
    if len(shape_types) > 3:
        words.append("a shape type")
        names = [n for n in names if n not in shape_types]
    for n in names:
        if n in _DESCRIPTIONS:
            words.append(_DESCRIPTIONS[n])
        elif n in by_name:
            words.append(f"'{by_name[n]}'")
        else:
            words.append(n)
    if len(words) == 1:
        return words[0]
    return "one of " + ", ".join(words[:-1]) + " or " + words[-1]


def describe_token(value: str | None) -> str:
    """A token's text for a message (``None``: the end of the file), cut to 30 characters."""
    if value is None:
        return "the end of the file"
    if len(value) > 30:
        value = value[:27] + "..."
    return repr(value) if "'" in value else f"'{value}'"


def after(tokens: Tokens, k: int) -> tuple[int, int]:
    """Line and column of the first character after token ``k`` that is not a space or tab
    (where the reference reports a line break or comment that the ABNF forbids)."""
    text = tokens.text
    pos = tokens.end_pos(k)
    line, col = tokens.end_line(k), tokens.end_column(k)
    while pos < len(text) and text[pos] in " \t":
        pos += 1
        col += 1
    return line, col


def _pending_traits(value_stack: list, tokens: Tokens) -> int | None:
    """The ``@`` token of traits parsed after the last complete statement, if any."""
    for item in value_stack:
        if isinstance(item, Node):
            data = item.data
            if data in _STATEMENT_RULES or data.startswith("__start") or data == "start":
                continue
            is_traits = data in ("trait", "trait_statements") or data.startswith("__trait_statements")
            if is_traits and item.start >= 0:
                return item.start  # "@" is left out of the tree but not of its position
            if is_traits:
                continue  # an empty trait list
            return None
        return item if tokens.values[item] == "@" else None
    return None


#: A simple identifier (the ABNF's ``Identifier``: an object key written unquoted, a member
#: or shape name), matched whole.
SIMPLE_IDENTIFIER = lazy(r"(?:_+[A-Za-z0-9]|[A-Za-z])[A-Za-z0-9_]*\Z")
#: The keywords of node values (``node_keyword``).
_VALUE_KEYWORDS = ("true", "false", "null")
#: How deep :func:`_fast_node_value` reads nested arrays and objects (deeper ones are left
#: to the LALR driver, which needs no recursion).
FAST_VALUE_DEPTH = 64
#: The values of the node keywords (the walker's too: :mod:`smithy2cfn.parse.idl`).
KEYWORD_VALUES = {"true": True, "false": False, "null": None}
#: What :func:`_fast_node_value` gives for a value it leaves to the walker.
_UNREAD = object()


class _NotFast(Exception):
    """Raised inside a reader that skips the automaton (:func:`_node_value_tree`,
    :func:`_fast_trait`, :func:`_fast_members`): what starts there is not what it reads (a
    syntax error, a token it does not know, too deep); the LALR driver reads it instead.
    Its argument is the number of the token where it stopped."""


def _fast_node_value(types: list[str], values: list[str], i: int) -> tuple[Node, int, Any]:
    """Read the array or object starting at token ``i`` (a ``{`` or ``[``) without the
    LALR automaton: ``(node, index of the token after it, value)``, as
    :func:`_node_value_tree` does.

    A value whose reading can report nothing (most of them: endpoint rule sets and their
    tests) is read first by :func:`_plain_node_value`, which makes its Python value only;
    its node is a :class:`_ReadValue`, whose children :func:`_node_value_tree` makes if
    someone asks for them (the walker takes the value and never does). Any other value
    (or a syntax error, or nesting too deep) is read by :func:`_node_value_tree` from the
    start. s3 as IDL: its rule set and tests, 40,000 tokens, read in 4.8 ms instead of 20.

    Raises:
        _NotFast: as :func:`_node_value_tree`.
    """
    try:
        value, after_value = _plain_node_value(types, values, i)
    except _Unreadable:
        node, after_value = _node_value_tree(types, values, i)
        return node, after_value, _UNREAD
    return _ReadValue(types[i], i, after_value - 1, types, values), after_value, value


class _Unreadable(Exception):
    """Raised inside :func:`_plain_node_value`: the value is not one it reads."""


def _plain_node_value(types: list[str], values: list[str], i: int) -> tuple[Any, int]:
    """The Python value of the array or object starting at token ``i`` (a ``{`` or
    ``[``) and the index of the token after it, for a value whose reading can report
    nothing (the value the walker makes of :func:`_node_value_tree`'s node); nothing else
    is made.

    Raises:
        _Unreadable: on anything else (a text block, a shape ID, a bad escape or number,
            a key that is not a simple identifier, a key twice, a syntax error, nesting
            deeper than :data:`FAST_VALUE_DEPTH`): :func:`_node_value_tree` reads it then.
    """
    n = len(types)
    simple: dict[str, bool] = {}   # identifier key -> whether it is a simple identifier
    decoded: dict[str, str] = {}   # string token -> its value (the same words recur)
    is_simple = SIMPLE_IDENTIFIER.match

    def quoted(token: str) -> str:
        text = decoded.get(token)
        if text is None:
            text, problem = decode_quoted_text(token)
            if problem:
                raise _Unreadable
            decoded[token] = text
        return text

    def value(i: int, depth: int) -> tuple[Any, int]:
        t = types[i]
        if t == "QUOTED_TEXT":
            return quoted(values[i]), i + 1
        if t == "IDENTIFIER":
            word = KEYWORD_VALUES.get(values[i], _UNREAD)  # (else a shape ID: the walker's)
            if word is _UNREAD:
                raise _Unreadable
            return word, i + 1
        if t == "NUMBER":
            number, problem = read_number(values[i])
            if problem:
                raise _Unreadable
            return number, i + 1
        if depth >= FAST_VALUE_DEPTH:
            raise _Unreadable
        j = i + 1
        if t == "LBRACE":
            out: dict[str, Any] = {}
            while j < n:
                key = types[j]
                if key == "RBRACE":
                    return out, j + 1
                name = values[j]
                if key == "IDENTIFIER":
                    ok = simple.get(name)
                    if ok is None:
                        ok = simple[name] = is_simple(name) is not None
                    if not ok:
                        raise _Unreadable
                elif key == "QUOTED_TEXT":
                    name = quoted(name)
                else:
                    raise _Unreadable
                if j + 2 >= n or types[j + 1] != "COLON" or name in out:
                    raise _Unreadable
                out[name], j = value(j + 2, depth + 1)
        elif t == "LSQB":
            items: list[Any] = []
            while j < n:
                if types[j] == "RSQB":
                    return items, j + 1
                item, j = value(j, depth + 1)
                items.append(item)
        raise _Unreadable  # (a text block, not a value, or the end of the file inside it)

    return value(i, 0)


class _ReadValue(Node):
    """The node of an array or object that :func:`_plain_node_value` read (``data``
    ``node_array`` or ``node_object``; ``start`` its ``[`` or ``{``, ``end`` its ``]`` or
    ``}``): its children are :func:`_node_value_tree`'s, made when first asked for."""

    __slots__ = ("_types", "_values", "_children")

    def __init__(self, opener: str, start: int, end: int, types: list[str], values: list[str]) -> None:
        self.data = "node_object" if opener == "LBRACE" else "node_array"
        self.start = start
        self.end = end
        self._types = types
        self._values = values
        self._children: list | None = None

    @property
    def children(self) -> list:  # type: ignore[override]  # (nothing assigns a value's children)
        if self._children is None:
            self._children = _node_value_tree(self._types, self._values, self.start)[0].children
        return self._children


def _node_value_tree(types: list[str], values: list[str], i: int) -> tuple[Node, int]:
    """Read the value starting at token ``i`` without the LALR automaton: ``(node, index
    of the token after it)``.

    Node values are most of the tokens of a large model (endpoint rule sets and their
    tests, examples), and their grammar (``node_value`` and below) is simple: this
    recursive descent builds exactly the nodes the driver's reductions build for them
    (same rule names, children and token positions, :class:`Node`) without the per-token
    table look-ups, reductions and keyword checks (s3: the driver 0.30 s -> 0.17 s).
    It accepts only what the grammar accepts there and raises :class:`_NotFast` on
    anything else (a missing ``:``, a ``:=``, an ``ERROR`` token, the end of the file,
    nesting beyond :data:`FAST_VALUE_DEPTH`), so that every syntax error, with its message and
    recovery, is the driver's. ``tests/parse`` compares the two on every model it reads.
    (The value of a node whose reading can report nothing is :func:`_plain_node_value`'s;
    the walker reads any other from the node: text blocks, shape IDs, problems.)

    Raises:
        _NotFast: see above.
    """
    n = len(types)

    def value(i: int, depth: int) -> tuple[Node, int]:
        t = types[i]
        if t != "LBRACE" and t != "LSQB":
            return _scalar_node(types, values, i), i + 1
        if depth >= FAST_VALUE_DEPTH:
            raise _NotFast(i)
        kids: list = []
        j = i + 1
        if t == "LBRACE":
            while j < n:
                key = types[j]
                if key == "RBRACE":
                    return Node("node_object", kids, i, j), j + 1
                if key != "IDENTIFIER" and key != "QUOTED_TEXT":
                    raise _NotFast(j)
                if j + 2 >= n or types[j + 1] != "COLON":
                    raise _NotFast(j + 1)
                item, after_item = value(j + 2, depth + 1)
                kids.append(Node("node_object_kvp", [Node("node_object_key", [j], j, j), item], j, item.end))
                j = after_item
        else:
            while j < n:
                if types[j] == "RSQB":
                    return Node("node_array", kids, i, j), j + 1
                item, j = value(j, depth + 1)
                kids.append(item)
        raise _NotFast(n - 1)  # (the end of the file inside the value)

    return value(i, 0)


def _scalar_node(types: list[str], values: list[str], i: int) -> Node:
    """The node of the value at token ``i`` that is not an array or object, as the driver
    builds it (``node_keyword``, ``node_string_value`` of a string, text block or shape ID,
    ``number``).

    Raises:
        _NotFast: token ``i`` starts no such value.
    """
    t = types[i]
    if t == "IDENTIFIER":
        if values[i] in _VALUE_KEYWORDS:
            return Node("node_keyword", [i], i, i)
        return Node("node_string_value", [Node("shape_id", [i], i, i)], i, i)
    if t == "QUOTED_TEXT" or t == "TEXT_BLOCK":
        return Node("node_string_value", [i], i, i)
    if t == "NUMBER":
        return Node("number", [i], i, i)
    raise _NotFast(i)


def _value_node(types: list[str], values: list[str], i: int, fast_values: dict[int, Any]) -> tuple[Node, int]:
    """The node of the value starting at token ``i`` and the index of the token after it:
    an array or object read by :func:`_fast_node_value` (its value, when read, added to
    ``fast_values`` under ``i``, where the walker takes it), any other by
    :func:`_scalar_node`.

    Raises:
        _NotFast: no value the fast paths read starts there (at the end, the last token).
    """
    if i >= len(types):
        raise _NotFast(len(types) - 1)
    if types[i] == "LBRACE" or types[i] == "LSQB":
        node, after_value, read = _fast_node_value(types, values, i)
        if read is not _UNREAD:
            fast_values[i] = read
        return node, after_value
    return _scalar_node(types, values, i), i + 1


def _fast_trait(types: list[str], values: list[str], i: int, keywords: dict[str, str],
                fast_values: dict[int, Any]) -> tuple[Node, int]:
    """Read the trait application starting at token ``i`` (an ``@``) without the LALR
    automaton: ``(node, index of the token after it)``, the ``trait`` node the driver's
    reductions build (``@`` shape_id, then the ``trait_body`` of a ``(...)``: nothing, a
    ``trait_structure`` of ``node_object_kvp``, or a ``trait_node``), its arrays and
    objects read by :func:`_value_node` (their values added to ``fast_values``). Half of the
    tokens the automaton read in s3 as IDL were in traits (``@http(method: "PUT", uri:
    "/{Bucket}")``, ``@documentation("...")``), at 2 µs a token.

    A key that is a keyword (``keywords``: after ``(``, ``true`` may start a value) and
    anything the grammar does not accept there are left to the automaton, as
    :class:`_NotFast` says (``tests/parse`` compares the two on every model it reads).

    Raises:
        _NotFast: its argument the token where it stopped.
    """
    n = len(types)
    if i + 1 >= n or types[i + 1] != "IDENTIFIER":
        raise _NotFast(i + 1 if i + 1 < n else i)
    name = Node("shape_id", [i + 1], i + 1, i + 1)
    k = i + 2
    if k >= n or types[k] != "LPAR":
        return Node("trait", [name], i, i + 1), k
    opened = k

    def is_key(j: int) -> bool:
        t = types[j]
        return (t == "QUOTED_TEXT" or (t == "IDENTIFIER" and values[j] not in keywords)) \
            and j + 1 < n and types[j + 1] == "COLON"

    k += 1
    if k >= n:
        raise _NotFast(n - 1)
    if types[k] == "RPAR":
        body = Node("trait_body", [], opened, k)
    elif is_key(k):
        pairs = []
        while k < n and types[k] != "RPAR":
            if not is_key(k):
                raise _NotFast(k)
            item, after_item = _value_node(types, values, k + 2, fast_values)
            pairs.append(Node("node_object_kvp", [Node("node_object_key", [k], k, k), item], k, item.end))
            k = after_item
        if k >= n:
            raise _NotFast(n - 1)
        body = Node("trait_body", [Node("trait_structure", pairs, pairs[0].start, pairs[-1].end)], opened, k)
    else:
        item, k = _value_node(types, values, k, fast_values)
        if k >= n or types[k] != "RPAR":
            raise _NotFast(min(k, n - 1))
        body = Node("trait_body", [Node("trait_node", [item], item.start, item.end)], opened, k)
    return Node("trait", [name, body], i, k), k + 1


def _fast_members(types: list[str], values: list[str], i: int, rule: str, keywords: dict[str, str],
                  fast_values: dict[int, Any], line_of: Callable[[int], int]) -> Node:
    """Read the members of a shape, ``{`` (token ``i``) to ``}``, without the LALR
    automaton: the ``shape_members`` or ``enum_shape_members`` node (``rule``) the driver's
    reductions build, its traits read by :func:`_fast_trait` and the values of ``= value``
    by :func:`_value_node` (their values added to ``fast_values``). A member is traits,
    then ``name: Target``, ``$name`` (an enum's: ``name``), then ``= value`` on the line of
    the ``=`` (``line_of``: a token's line). Members are most of what the automaton read in
    s3 as IDL after the traits, at 3 µs a token with their reductions.

    A name or target that is a keyword, and anything the grammar does not accept there,
    are left to the automaton, as :class:`_NotFast` says (``tests/parse`` compares the two
    on every model it reads).

    Raises:
        _NotFast: its argument the token where it stopped.
    """
    n = len(types)
    enum = rule == "enum_shape_members"
    item_rule = "enum_shape_member" if enum else "shape_member"
    members: list[Node] = []
    k = i + 1
    while k < n and types[k] != "RBRACE":
        first = k
        traits: list[Node] = []
        while k < n and types[k] == "AT":
            trait, k = _fast_trait(types, values, k, keywords, fast_values)
            traits.append(trait)
        if k >= n:
            raise _NotFast(n - 1)
        t = types[k]
        if t == "IDENTIFIER" and values[k] not in keywords and (
                enum or (k + 2 < n and types[k + 1] == "COLON" and types[k + 2] == "IDENTIFIER"
                         and values[k + 2] not in keywords)):
            name = Node("identifier", [k], k, k)
            if enum:
                member = name
                k += 1
            else:
                member = Node("explicit_shape_member", [name, k + 1, Node("shape_id", [k + 2], k + 2, k + 2)], k, k + 2)
                k += 3
        elif t == "DOLLAR" and not enum and k + 1 < n and types[k + 1] == "IDENTIFIER" and values[k + 1] not in keywords:
            member = Node("elided_shape_member", [Node("identifier", [k + 1], k + 1, k + 1)], k, k + 1)
            k += 2
        else:
            raise _NotFast(k)
        kids = [Node("trait_statements", traits, traits[0].start, traits[-1].end) if traits
                else Node("trait_statements", [], -1, -1), member]
        if k < n and types[k] == "EQUAL":
            equal = k
            if k + 1 >= n or line_of(k + 1) != line_of(k):
                raise _NotFast(k + 1 if k + 1 < n else k)  # (the value starts on the line of "=")
            value, k = _value_node(types, values, k + 1, fast_values)
            kids.append(Node("value_assignment", [equal, value], equal, value.end))
        members.append(Node(item_rule, kids, first, kids[-1].end))
    if k >= n:
        raise _NotFast(n - 1)
    return Node(rule, members, i, k)


#: The tokens where a reader that skips the automaton may start (see :func:`_read_fast`).
_FAST_STARTS = frozenset({"AT", "LBRACE", "LSQB"})


def _read_fast(p: _Parser, stack: list[int], types: list[str], values: list[str], i: int,
               fast_values: dict[int, Any], line_of: Callable[[int], int]) -> tuple[Node, int] | None:
    """What a reader that skips the automaton makes of what starts at token ``i``, where
    the automaton in ``stack`` (after its reductions for that token) would start it: a
    trait application (:func:`_fast_trait`), the members of a shape (:func:`_fast_members`)
    or an array or object (:func:`_value_node`). Returns ``(node, index of the token after
    it)``, with the goto of the node pushed on ``stack`` (as the reductions that make it
    would push it), or ``None`` when none starts there.

    Raises:
        _NotFast: from the reader (``stack`` unchanged), or at ``i`` for a trait without
            ``(`` before a token the automaton cannot take: its error, which lists ``(``
            among the tokens expected, is the automaton's.
    """
    state = stack[-1]
    if types[i] == "AT":
        goto = p.trait_goto.get(state)
        if goto is None:
            return None
        node, after = _fast_trait(types, values, i, p.keywords, fast_values)
        stack.append(goto)
        if len(node.children) == 1 and not _takes_next(p, stack, types, values, after):
            stack.pop()
            raise _NotFast(i)
        return node, after
    rule = p.members_goto.get(state) if types[i] == "LBRACE" else None
    if rule is not None:
        node = _fast_members(types, values, i, rule, p.keywords, fast_values, line_of)
        stack.append(p.states[state][rule])
        return node, node.end + 1
    goto = p.value_goto.get(state)
    if goto is None:
        return None
    node, after = _value_node(types, values, i, fast_values)
    stack.append(goto)
    return node, after


def _takes_next(p: _Parser, stack: list[int], types: list[str], values: list[str], k: int) -> bool:
    """Whether the automaton in ``stack`` can shift token ``k`` (typed as the driver types
    it: a keyword where one can be shifted, else an identifier); not at the end."""
    if k >= len(types):
        return False
    term = types[k]
    if term == "IDENTIFIER":
        keyword = p.keywords.get(values[k])
        if keyword is not None and _can_shift(p, stack, keyword):
            return True
    return _can_shift(p, stack, term)


class _SameLine(Exception):
    """Raised inside :func:`parse_tokens`: a statement starts on the line where the
    previous one ends."""


def _reduce(p: _Parser, stack: list[int], values: list, rule: int) -> None:
    """Apply LALR reduction ``rule``: pop its symbols, push the node Lark's tree builder
    would make (see :mod:`smithy2cfn.parse.tables`) and the goto state."""
    origin, size, keep, expand1 = p.rules[rule]
    if size:
        raw = values[-size:]
        del values[-size:]
        del stack[-size:]
    else:
        raw = []
    start = end = -1
    for c in raw:
        if c.__class__ is int:
            start = c
            break
        if c.start >= 0:
            start = c.start
            break
    if start >= 0:
        for c in reversed(raw):
            if c.__class__ is int:
                end = c
                break
            if c.end >= 0:
                end = c.end
                break
    if keep is None:
        kids = raw
    else:
        kids = []
        for i, splice in keep:
            if splice:
                if kids:
                    kids += raw[i].children
                else:
                    kids = raw[i].children  # left recursion: extend the helper's list in place
            else:
                kids.append(raw[i])
    if expand1 and len(kids) == 1:
        value = kids[0]
        if value.__class__ is not int and value.start < 0:
            value.start, value.end = start, end
    else:
        value = Node(origin, kids, start, end)
    stack.append(p.states[stack[-1]][origin])
    values.append(value)


def parse_tokens(text: str, breaks: list[int] | None = None) -> ParseResult:
    """Tokenize and parse ``text``; never raises on bad input. ``breaks``, when given, are
    the offsets of the line breaks of ``text`` (:func:`line_breaks` of it, made faster by
    the caller: :func:`smithy2cfn.parse.idl.parse_idl_part`).

    Returns the trees of every top-level statement that parsed (``control_statement``,
    ``metadata_statement``, ``namespace_statement``, ``use_statement``, ``shape_statement``,
    ``apply_statement``), in source order, and the syntax problems found. After a syntax
    error the parser skips to the next line whose first token starts a top-level statement
    at (or left of) the column of the file's first statement.
    """
    p = get_parser()
    tokens, docs, problems = tokenize(text)
    if breaks is not None:
        tokens._breaks = breaks
    result = ParseResult([], tokens, docs, problems)
    states, keywords, kinds, safe = p.states, p.keywords, p.kinds, p.safe
    origins = [rule[0] for rule in p.rules]
    sizes = [rule[1] for rule in p.rules]
    types, values_, line_of = tokens.types, tokens.values, tokens.line
    n = len(tokens)
    top_col = tokens.column(0) if n else 1

    def is_resync(i: int) -> bool:
        v = values_[i]
        return ((v in STATEMENT_KEYWORDS or v == "@" or v == "$")
                and tokens.first_on_line(i) and tokens.column(i) <= top_col)

    eq_type = p.punctuation.get("=", "EQUAL")
    i = 0
    # (an ERROR token '"' is an unclosed string, which tokenize reported)
    unclosed_reported = {(line_of(k), tokens.column(k)) for k in range(n)
                         if types[k] == "ERROR" and values_[k] == '"'} if problems else set()
    eof_line = text.count("\n") + 1
    eof_col = len(text) - text.rfind("\n")
    namespace_kw = keywords.get("namespace")
    seen_namespace = False
    fast_from = 0  # the first token where a reader that skips the automaton may be tried
    while True:
        stack = [p.start_state]
        values: list = []
        prev: int | None = None         # the last token shifted, and the type it was given
        prev_type: str | None = None
        error_at: int | None = None
        same_line = False               # the error: a statement starts on the previous one's line
        try:
            while i < n:
                ttype = types[i]
                row = states[stack[-1]]
                act = None
                if ttype == "IDENTIFIER":
                    kw = keywords.get(values_[i])
                    if kw is not None:
                        act = row.get(kw)
                        if act is not None and (act >= 0 or kw in safe[stack[-1]] or _can_shift(p, stack, kw)):
                            ttype = kw
                        else:
                            act = None
                if act is None:
                    act = row.get(ttype)
                    if act is None or (act < 0 and ttype not in safe[stack[-1]]
                                       and not _can_shift(p, stack, ttype)):
                        error_at = i  # (an ERROR token is in no row)
                        break
                if prev_type == eq_type and line_of(i) != line_of(prev):  # ("=" is on one line)
                    # ABNF: [SP] "=" [SP] NodeValue -- the value starts on the line of "=".
                    error_at = i
                    break
                while act < 0:  # reduce (the fast paths do what _reduce does)
                    r = -act - 1
                    kind = kinds[r]
                    if kind == _PASS:
                        stack[-1] = states[stack[-2]][origins[r]]
                    elif kind == _WRAP:
                        c = values[-1]
                        values[-1] = (Node(origins[r], [c], c, c) if c.__class__ is int
                                      else Node(origins[r], [c], c.start, c.end))
                        stack[-1] = states[stack[-2]][origins[r]]
                    elif kind == _APPEND:
                        item = values.pop()
                        stack.pop()
                        helper = values[-1]
                        helper.children.append(item)
                        if item.__class__ is int:
                            helper.end = item
                            if helper.start < 0:
                                helper.start = item
                        elif item.start >= 0:
                            helper.end = item.end
                            if helper.start < 0:
                                helper.start = item.start
                        stack[-1] = states[stack[-2]][origins[r]]
                    elif kind == _EMPTY:
                        values.append(Node(origins[r], [], -1, -1))
                        stack.append(states[stack[-1]][origins[r]])
                    elif kind == _PLAIN:
                        size = sizes[r]
                        raw = values[-size:]
                        c, d = raw[0], raw[-1]
                        start = c if c.__class__ is int else c.start
                        end = d if d.__class__ is int else d.end
                        if start < 0:  # an empty first child (no traits before a shape)
                            for c in raw:
                                start = c if c.__class__ is int else c.start
                                if start >= 0:
                                    break
                            if start < 0:
                                end = -1
                        if end < 0 <= start:
                            for d in reversed(raw):
                                end = d if d.__class__ is int else d.end
                                if end >= 0:
                                    break
                        del values[-size:]
                        del stack[-size:]
                        values.append(Node(origins[r], raw, start, end))
                        stack.append(states[stack[-1]][origins[r]])
                    elif kind == _STATEMENT:
                        _reduce(p, stack, values, r)
                        # Reduced on the first token of the next statement (the driver reduces
                        # only for a token it can shift): the ABNF wants a line break between.
                        end = values[-1].end
                        if end >= 0 and line_of(i) <= tokens.end_line(end):
                            raise _SameLine
                    else:
                        _reduce(p, stack, values, r)
                    act = states[stack[-1]][ttype]
                if ttype in _FAST_STARTS and i >= fast_from:
                    try:
                        read = _read_fast(p, stack, types, values_, i, result.fast_values, line_of)
                    except _NotFast as stop:
                        # The automaton reads it; the tokens up to where the reader stopped
                        # are not tried again (each token is tried at most once).
                        fast_from = stop.args[0] + 1
                    else:
                        if read is not None:
                            node, i = read
                            values.append(node)
                            prev = i - 1
                            prev_type = types[prev]
                            continue
                stack.append(act)
                values.append(i)
                if ttype == namespace_kw:
                    seen_namespace = True
                prev, prev_type = i, ttype
                i += 1
            if error_at is None:
                if not _can_shift(p, stack, "$END", True):
                    error_at = n
                else:
                    while True:
                        _reduce(p, stack, values, -states[stack[-1]]["$END"] - 1)
                        if stack[-1] == p.end_state:
                            break
                    tree = values[-1]
                    result.statements.extend(_salvage([tree]) if tree.data != "start" else
                                             [c for c in tree.children if isinstance(c, Node)])
                    break
        except _SameLine:
            error_at, same_line = i, True
        except (KeyError, IndexError) as e:  # defensive: the tables and the driver agree
            result.problems.append(SyntaxProblem(f"cannot parse this file: {type(e).__name__}", 1, 1, 1, 1))
            break
        # ---- syntax error at tokens[error_at] (or at EOF when error_at == n)
        result.statements.extend(_salvage(values))
        if error_at < n:
            bad_type, bad_value = types[error_at], values_[error_at]
            bad_line, bad_col = line_of(error_at), tokens.column(error_at)
            bad_end_line, bad_end_col = tokens.end_line(error_at), tokens.end_column(error_at)
        else:
            bad_type, bad_value = "$END", None
            bad_line = bad_end_line = eof_line
            bad_col = bad_end_col = eof_col
        prev_end_line = tokens.end_line(prev) if prev is not None else 0
        pending_traits = None if seen_namespace else _pending_traits(values, tokens)
        prev_value = values_[prev] if prev is not None else None
        if same_line:
            # The reference's "Expected a line break" (it stops there; we skip to the next line).
            result.problems.append(SyntaxProblem(
                f"expected a line break before a new statement, found {describe_token(bad_value)}",
                bad_line, bad_col, bad_line, bad_col + 1))
        elif pending_traits is not None and bad_type != "ERROR":
            # Traits before the namespace: the reference expects a namespace at the '@'.
            at_line, at_col = line_of(pending_traits), tokens.column(pending_traits)
            result.problems.append(SyntaxProblem(
                f"expected a namespace statement before traits and shapes, found '@' "
                f"(the trait is followed by {describe_token(bad_value)})",
                at_line, at_col, at_line, at_col + 1))
        elif bad_type == "ERROR":
            if (bad_line, bad_col) not in unclosed_reported:
                result.problems.append(SyntaxProblem(f"unexpected character {describe_token(bad_value)}",
                                                     bad_line, bad_col, bad_line, bad_col + 1))
        elif prev is not None and prev_type == eq_type and bad_line != prev_end_line:
            line, col = after(tokens, prev)
            result.problems.append(SyntaxProblem("expected a value on the same line as '=', found a line break",
                                                 line, col, line, col + 1))
        else:
            expected = _expected(p, stack)
            if bad_type == "$END" and not expected:
                expected = ["$END"]
            where = f" after '{prev_value}'" if prev_value is not None and len(prev_value) <= 30 else ""
            msg = (f"expected {_describe_expected(expected, prev_value, prev_type, p)}{where}, "
                   f"found {describe_token(bad_value)}")
            if prev is not None and bad_line != prev_end_line and (
                    (prev_type != "IDENTIFIER" and prev_value in _SAME_LINE_KEYWORDS)
                    or (prev_value == ":" and error_at >= 3 and values_[error_at - 3] == "$")):
                # The ABNF wants the next token on this line: report at the line break.
                line, col = after(tokens, prev)
                result.problems.append(SyntaxProblem(msg, line, col, line, col + 1))
            else:
                result.problems.append(SyntaxProblem(msg, bad_line, bad_col, bad_end_line, bad_end_col))
        if len(result.problems) >= MAX_SYNTAX_ERRORS or error_at >= n:
            break
        # Resume at the error token itself when it starts a statement line (the previous
        # statement was merely incomplete), else at the next such line.
        j = error_at if (is_resync(error_at) and prev is not None) else error_at + 1
        while j < n and not is_resync(j):
            j += 1
        if j >= n:
            break
        i = j
    return result
