"""Tokenizer and LALR driver for the Smithy IDL (Smithy 2.0 "Smithy IDL" §"Smithy IDL ABNF").

The grammar (``grammar/smithy.lark``) is compiled once per process into a Lark LALR(1)
parser (its tables precomputed, see :mod:`smithy2cfn.parse.tables`). Tokens are produced
here rather than by Lark's lexers because Smithy's keywords
(``structure``, ``list``, ``input``, ``true``...) are also valid identifiers, and LALR state
merging makes Lark's contextual lexer pick the keyword in places where only an identifier
fits (``list: ListCities`` inside a resource body). Our lexer asks the exact LALR stack
whether the keyword can be shifted and falls back to ``IDENTIFIER`` otherwise.

Driving the parser token by token (Lark's interactive parser) also gives error recovery:
after a syntax error the statements already completed are kept, tokens are skipped up to
the next line that starts a top-level statement, and parsing restarts there.
"""

from __future__ import annotations

import functools
import re
import sys
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput
from lark.lexer import PatternStr
from lark.parsers.lalr_analysis import ParseTable, Shift

from smithy2cfn.parse.tables import build_parser, load_parser

#: Terminals of the grammar that the tokenizer produces from regexes, in match order.
_REGEX_TERMINALS = (
    "DOCUMENTATION_COMMENT",
    "LINE_COMMENT",
    "WS",
    "COMMA",
    "TEXT_BLOCK",
    "QUOTED_TEXT",
    "NUMBER",
    "IDENTIFIER",
)
_IGNORED = {"DOCUMENTATION_COMMENT", "LINE_COMMENT", "WS", "COMMA"}

#: Words that start a top-level statement (used to resynchronise after an error).
STATEMENT_KEYWORDS = frozenset({
    "metadata", "namespace", "use", "apply", "blob", "boolean", "document", "string", "byte",
    "short", "integer", "long", "float", "double", "bigInteger", "bigDecimal", "timestamp",
    "enum", "intEnum", "list", "map", "union", "structure", "set", "service", "resource",
    "operation",
})

MAX_SYNTAX_ERRORS = 50


@functools.cache
def grammar_text() -> str:
    """The grammar, from the installed package data or the source tree (editable install)."""
    try:
        res = resources.files("smithy2cfn") / "grammar" / "smithy.lark"
        if res.is_file():
            return res.read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError, TypeError):
        pass
    return (Path(__file__).parents[3] / "grammar" / "smithy.lark").read_text(encoding="utf-8")


@dataclass(frozen=True)
class _Parser:
    lark: Lark
    token_re: re.Pattern
    keywords: dict[str, str]      # keyword text -> terminal name
    punctuation: dict[str, str]   # punctuation text -> terminal name
    states: dict
    end_state: int


#: How the tokenizer matches the grammar's string terminals: the same text as their regexes
#: in the grammar, written as "unrolled loops" (a run of plain characters, then one escape or
#: inner quote, and so on) so that the regex engine loops once per escape, not once per
#: character (see :func:`_tokenizer_regex`; ``tests/test_scaling.py`` checks they agree).
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
    """Build (once per process) the Lark LALR parser and the tokenizer regex.

    The LALR tables come from the JSON shipped with the package when it was computed from
    this grammar and these sources (:mod:`smithy2cfn.parse.tables`), else from the grammar.
    Nothing is cached at run time (Lark's ``cache=True`` unpickles a file from the shared
    temp folder).
    """
    text = grammar_text()
    lark = load_parser(text) or build_parser(text)
    by_name = {t.name: t for t in lark.terminals}
    keywords: dict[str, str] = {}
    punctuation: dict[str, str] = {}
    for t in lark.terminals:
        if isinstance(t.pattern, PatternStr):
            if re.fullmatch(r"[A-Za-z]+", t.pattern.value):
                keywords[t.pattern.value] = t.name
            elif t.name != "COMMA":
                punctuation[t.pattern.value] = t.name
    parts = [f"(?P<{name}>{_tokenizer_regex(name, by_name[name].pattern.to_regexp())})"
             for name in _REGEX_TERMINALS]
    punct = sorted(punctuation, key=len, reverse=True)
    parts.append("(?P<PUNCT>" + "|".join(re.escape(p) for p in punct) + ")")
    # A string that never closes, so that the error says so (instead of "unexpected '\"'").
    parts.append(r'(?P<UNCLOSED>"[\s\S]*)')
    parts.append(r"(?P<ERROR>[\s\S])")
    token_re = re.compile("|".join(parts))
    table = _lalr_table(lark)
    return _Parser(lark, token_re, keywords, punctuation, table.states, table.end_states["start"])


def _lalr_table(lark: Lark) -> ParseTable:
    """The LALR parse table of a Lark parser (Lark has no public accessor for it).

    :func:`_can_shift` reads it to ask, token by token, whether the parser can shift a
    terminal. Lark's public ``InteractiveParser.accepts()`` answers the same question for
    every terminal at once by copying the parser state per candidate terminal: on a 1 MB
    model, parsing took 32 s with it against 3.0 s with the table (Lark 1.3.1). Only this
    function reaches into Lark's private attributes.
    """
    return lark.parser.parser.parser.parse_table


@dataclass
class DocComment:
    """One ``///`` line: its text without ``///`` and the offsets it covers."""

    text: str
    start: int
    end: int


@dataclass
class SyntaxProblem:
    """A syntax error found while tokenizing/parsing (message and 1-based position)."""

    message: str
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass
class ParseResult:
    """What :func:`parse_tokens` returns: top-level statement trees and the token stream."""

    statements: list[Tree]
    tokens: list[Token]
    doc_comments: list[DocComment]
    problems: list[SyntaxProblem] = field(default_factory=list)


def tokenize(text: str) -> tuple[list[Token], list[DocComment], list[SyntaxProblem]]:
    """Split ``text`` into significant tokens (typed for the grammar), doc comments, problems.

    Identifier-like words are typed ``IDENTIFIER`` here; :func:`parse_tokens` retypes them as
    keywords where the parser can take a keyword. Unknown characters become ``ERROR``
    tokens (reported by the parser as syntax errors).
    """
    p = get_parser()
    tokens: list[Token] = []
    docs: list[DocComment] = []
    problems: list[SyntaxProblem] = []
    line, col, pos, n = 1, 1, 0, len(text)
    token_re = p.token_re
    while pos < n:
        m = token_re.match(text, pos)
        if m is None:  # cannot happen: ERROR matches any character
            break
        kind = m.lastgroup
        value = m.group()
        end = m.end()
        nl = value.count("\n")
        if nl:
            end_line = line + nl
            end_col = len(value) - value.rfind("\n")
        else:
            end_line, end_col = line, col + len(value)
        if kind == "DOCUMENTATION_COMMENT":
            # Only "///" that starts a line (after whitespace) is a documentation comment.
            if not text[text.rfind("\n", 0, pos) + 1:pos].strip(" \t,\ufeff"):
                docs.append(DocComment(value[3:].rstrip("\r"), pos, end))
        elif kind in _IGNORED:
            pass
        elif kind == "UNCLOSED":
            # Reported where the reference reports it: at the end of the file.
            problems.append(SyntaxProblem(f"unclosed string starting at line {line}, column {col}: expected "
                                          "a closing '\"' before the end of the file",
                                          end_line, end_col, end_line, end_col))
            tokens.append(Token("ERROR", value[:1], pos, line, col, line, col + 1, pos + 1))
        else:
            ttype = p.punctuation[value] if kind == "PUNCT" else kind
            tokens.append(Token(ttype, value, pos, line, col, end_line, end_col, end))
        line, col, pos = end_line, end_col, end
    return tokens, docs, problems


def _can_shift(states: dict, stack: list[int], term: str, end_state: int | None = None) -> bool:
    """True when the LALR automaton in ``stack`` can shift ``term`` (after any reductions).

    For ``$END`` pass ``end_state``: the input is accepted when the reductions reach it.
    """
    stack = list(stack)
    for _ in range(10_000):
        acts = states[stack[-1]]
        if term not in acts:
            return False
        action, arg = acts[term]
        if action is Shift:
            return True
        size = len(arg.expansion)
        if size:
            del stack[-size:]
        goto = states[stack[-1]].get(arg.origin.name)
        if goto is None:
            return False
        stack.append(goto[1])
        if end_state is not None and goto[1] == end_state:
            return True
    return False


def _expected(states: dict, stack: list[int]) -> list[str]:
    """The terminals the parser in ``stack`` can really shift next (sorted)."""
    return sorted(t for t in states[stack[-1]] if t.isupper() and _can_shift(states, stack, t))


_STATEMENT_RULES = {
    "control_statement", "metadata_statement", "namespace_statement", "use_statement",
    "shape_statement", "apply_statement",
}


def _salvage(value_stack: list) -> list[Tree]:
    """Completed top-level statements on an LALR value stack (after a syntax error)."""
    out: list[Tree] = []
    for item in value_stack:
        if isinstance(item, Tree):
            if item.data in _STATEMENT_RULES:
                out.append(item)
            elif str(item.data).startswith("__start"):
                out.extend(c for c in item.children if isinstance(c, Tree) and c.data in _STATEMENT_RULES)
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


def _describe_expected(names: list[str], prev: Token | None, p: _Parser) -> str:
    by_name = {v: k for k, v in {**p.keywords, **p.punctuation}.items()}
    if names == ["IDENTIFIER"] and prev is not None:
        if prev.value in _SHAPE_TYPE_WORDS and prev.type != "IDENTIFIER":
            return "a shape name"
        if prev.value in ("@", "apply", "use", "with", "for", "[", ":"):
            return "a shape ID"
        if prev.value == "namespace":
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


def _describe_token(tok: Token) -> str:
    if tok.type == "$END":
        return "the end of the file"
    value = tok.value
    if len(value) > 30:
        value = value[:27] + "..."
    return repr(value) if "'" in value else f"'{value}'"


def _after(text: str, tok: Token) -> tuple[int, int]:
    """Line and column of the first character after ``tok`` that is not a space or tab
    (where the reference reports a line break or comment that the ABNF forbids)."""
    pos = tok.end_pos
    line, col = tok.end_line, tok.end_column
    while pos < len(text) and text[pos] in " \t":
        pos += 1
        col += 1
    return line, col


def _pending_traits(value_stack: list) -> Token | None:
    """The ``@`` token of traits parsed after the last complete statement, if any."""
    for item in value_stack:
        if isinstance(item, Tree):
            if item.data in _STATEMENT_RULES or str(item.data).startswith("__start") or item.data == "start":
                continue
            is_traits = item.data in ("trait", "trait_statements") or str(item.data).startswith("__trait_statements")
            if is_traits and not item.meta.empty:
                # "@" is filtered out of the tree; the tree's position is the "@"'s.
                m = item.meta
                return Token("AT", "@", m.start_pos, m.line, m.column, m.line, m.column + 1, m.start_pos + 1)
            if is_traits:
                continue  # an empty trait list
            return None
        if isinstance(item, Token):
            return item if item.value == "@" else None
    return None


def parse_tokens(text: str) -> ParseResult:
    """Tokenize and parse ``text``; never raises on bad input.

    Returns the trees of every top-level statement that parsed (``control_statement``,
    ``metadata_statement``, ``namespace_statement``, ``use_statement``, ``shape_statement``,
    ``apply_statement``), in source order, and the syntax problems found. After a syntax
    error the parser skips to the next line whose first token starts a top-level statement
    at (or left of) the column of the file's first statement.
    """
    p = get_parser()
    tokens, docs, problems = tokenize(text)
    result = ParseResult([], tokens, docs, problems)
    states = p.states
    keywords = p.keywords
    top_col = tokens[0].column if tokens else 1
    first_on_line = set()
    last_line = 0
    for i, t in enumerate(tokens):
        if t.line != last_line:
            first_on_line.add(i)
            last_line = t.end_line
        else:
            last_line = t.end_line

    def is_resync(i: int) -> bool:
        t = tokens[i]
        return (i in first_on_line and t.column <= top_col
                and (t.value in STATEMENT_KEYWORDS or t.value in ("@", "$")))

    eq_type = p.punctuation.get("=", "EQUAL")
    i, n = 0, len(tokens)
    unclosed_reported = {(t.line, t.column) for t in tokens if t.type == "ERROR" and t.value == '"'}
    eof_line = text.count("\n") + 1
    eof_col = len(text) - text.rfind("\n")
    namespace_kw = keywords.get("namespace")
    seen_namespace = False
    while True:
        ip = p.lark.parse_interactive()
        ps = ip.parser_state
        prev: Token | None = None
        error_at: int | None = None
        try:
            while i < n:
                tok = tokens[i]
                if tok.type == "IDENTIFIER" and tok.value in keywords:
                    kw = keywords[tok.value]
                    if _can_shift(states, ps.state_stack, kw):
                        tok = Token(kw, tok.value, tok.start_pos, tok.line, tok.column,
                                    tok.end_line, tok.end_column, tok.end_pos)
                if tok.type == "ERROR" or not _can_shift(states, ps.state_stack, tok.type):
                    error_at = i
                    break
                if prev is not None and prev.type == eq_type and tok.line != prev.end_line:
                    # ABNF: [SP] "=" [SP] NodeValue -- the value starts on the line of "=".
                    error_at = i
                    break
                ps.feed_token(tok)
                if tok.type == namespace_kw:
                    seen_namespace = True
                prev = tok
                i += 1
            if error_at is None:
                end = Token("$END", "", len(text), eof_line, eof_col)
                if not _can_shift(states, ps.state_stack, "$END", p.end_state):
                    error_at = n
                else:
                    tree = ps.feed_token(end, True)
                    result.statements.extend(_salvage([tree]) if tree.data != "start" else
                                             [c for c in tree.children if isinstance(c, Tree)])
                    break
        except (UnexpectedInput, KeyError, IndexError, RecursionError) as e:  # defensive
            result.problems.append(SyntaxProblem(f"cannot parse this file: {type(e).__name__}", 1, 1, 1, 1))
            break
        # ---- syntax error at tokens[error_at] (or at EOF when error_at == n)
        result.statements.extend(_salvage(ps.value_stack))
        if error_at < n:
            bad = tokens[error_at]
        else:
            bad = Token("$END", "", len(text), eof_line, eof_col, eof_line, eof_col)
        pending_traits = None if seen_namespace else _pending_traits(ps.value_stack)
        if pending_traits is not None and bad.type != "ERROR":
            # Traits before the namespace: the reference expects a namespace at the '@'.
            at = pending_traits
            result.problems.append(SyntaxProblem(
                f"expected a namespace statement before traits and shapes, found '@' "
                f"(the trait is followed by {_describe_token(bad)})",
                at.line, at.column, at.end_line or at.line, at.end_column or at.column))
        elif bad.type == "ERROR":
            if (bad.line, bad.column) not in unclosed_reported:
                result.problems.append(SyntaxProblem(f"unexpected character {_describe_token(bad)}",
                                                     bad.line, bad.column, bad.line, bad.column + 1))
        elif prev is not None and prev.type == eq_type and bad.line != prev.end_line:
            line, col = _after(text, prev)
            result.problems.append(SyntaxProblem("expected a value on the same line as '=', found a line break",
                                                 line, col, line, col + 1))
        else:
            expected = _expected(states, ps.state_stack)
            if bad.type == "$END" and not expected:
                expected = ["$END"]
            where = f" after '{prev.value}'" if prev is not None and len(prev.value) <= 30 else ""
            msg = f"expected {_describe_expected(expected, prev, p)}{where}, found {_describe_token(bad)}"
            if prev is not None and bad.line != prev.end_line and (
                    (prev.type != "IDENTIFIER" and prev.value in _SAME_LINE_KEYWORDS)
                    or (prev.value == ":" and error_at >= 3 and tokens[error_at - 3].value == "$")):
                # The ABNF wants the next token on this line: report at the line break.
                line, col = _after(text, prev)
                result.problems.append(SyntaxProblem(msg, line, col, line, col + 1))
            else:
                result.problems.append(SyntaxProblem(msg, bad.line, bad.column, bad.end_line or bad.line,
                                                     bad.end_column or bad.column))
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


