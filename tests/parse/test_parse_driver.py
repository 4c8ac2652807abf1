"""Tests of our LALR(1) driver (``smithy2cfn.parse.syntax``) and the per-code diagnostic
bound of the IDL front end (``smithy2cfn.diagnostics.SourceLimiter``).

The driver trusts ``safe_reductions`` (``smithy2cfn.parse.tables``) to skip simulating a
reduction before it commits to it; these tests check that the shortcut never changes a
tree, a problem or a position, on the conformance files and on random token streams. The
tree itself is compared with the one Lark's own parser and tree builder make from the same
tokens (the grammar stays the source of truth).
"""

from __future__ import annotations

import re
from pathlib import Path

import lark
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smithy2cfn.diagnostics import MAX_PER_CODE, Elided, funnel
from smithy2cfn.parse import syntax
from smithy2cfn.parse.idl import parse_idl
from smithy2cfn.parse.lower import lower_idl
from smithy2cfn.parse.tables import grammar_text, safe_reductions
from smithy2cfn.records import as_tuple, replace

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
IDL = SHARED / "conformance" / "idl"


def _shape(node):
    """A parse tree as plain tuples (token numbers stay numbers)."""
    if isinstance(node, int):
        return node
    return (node.data, node.start, node.end, tuple(_shape(c) for c in node.children))


def _parse(text: str, parser) -> tuple:
    result = syntax.parse_tokens(text) if parser is None else _with_parser(text, parser)
    return ([_shape(s) for s in result.statements], [as_tuple(p) for p in result.problems])


def _with_parser(text: str, parser):
    original = syntax.get_parser
    syntax.get_parser = lambda: parser
    try:
        return syntax.parse_tokens(text)
    finally:
        syntax.get_parser = original


def _cautious():
    """The parser with no reduction trusted (every one is simulated first) and nothing read
    by the fast paths (``syntax._fast_node_value``, ``_fast_trait``, ``_fast_members``):
    every token goes through the automaton."""
    p = syntax.get_parser()
    return replace(p, safe=[frozenset()] * len(p.states), value_goto={}, shift_memo={}, trait_goto={}, members_goto={})


def test_safe_reductions_are_a_subset_of_the_reductions():
    p = syntax.get_parser()
    assert any(p.safe), "no reduction is known safe: the shortcut does nothing"
    for state, terms in enumerate(p.safe):
        for term in terms:
            assert p.states[state][term] < 0


def test_an_unsafe_reduction_is_found():
    """A reduction that leads to a state without the lookahead, after one goto, is unsafe;
    the same automaton with that state accepting it makes it safe."""
    # state 0 --x--> 1 (reduce A -> x on "b"), goto(0, A) = 2; state 2 shifts "c" only.
    states = [{"X": 1, "a": 2}, {"B": -1, "C": -1}, {"C": 3}, {}]
    rules = [["a", 1, None, False]]
    assert safe_reductions(states, rules) == [[], ["C"], [], []]
    states[2]["B"] = 3
    assert safe_reductions(states, rules) == [[], ["B", "C"], [], []]


@pytest.mark.skipif(not IDL.is_dir(), reason="../shared (conformance suites) is not present")
def test_the_shortcut_changes_nothing_on_the_conformance_files():
    """The shortcuts (safe reductions; values, traits and members read without the
    automaton) change no tree, problem or position on any IDL file of the suites and the
    reference's trait definitions."""
    cautious = _cautious()
    files = sorted(SHARED.rglob("*.smithy"))
    assert len(files) > 600
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert _parse(text, None) == _parse(text, cautious), path


_WORDS = ["$version", ":", '"2"', "namespace", "a.b", "use", "a.b#C", "metadata", "=", "string", "structure",
          "list", "map", "union", "enum", "intEnum", "service", "resource", "operation", "input", "output",
          "errors", ":=", "apply", "with", "for", "@", "(", ")", "[", "]", "{", "}", "$", "member", "key",
          "value", "true", "false", "null", "1", "-2.5e3", '"s"', '"""\nx\n"""', "A", "B", "foo", "\n", "\n",
          ",", "/// d\n", "// c\n"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_WORDS), max_size=40), st.sampled_from([" ", "\n"]))
def test_the_shortcut_changes_nothing_on_random_token_streams(words, sep):
    text = sep.join(words)
    assert _parse(text, None) == _parse(text, _CAUTIOUS)


_CAUTIOUS = _cautious()

def _reference_tokens(text: str) -> tuple:
    """What the grammar's own terminal regexes make of ``text``, tried one by one at each
    place in the tokenizer's order (identifiers, punctuation longest first, the other
    terminals; then an unclosed string, an unknown character): types, values, starts, doc
    comments, unclosed strings."""
    p = syntax.get_parser()
    marks = sorted(p.punctuation, key=len, reverse=True)
    terminals = ([("IDENTIFIER", p.terminal_regexes["IDENTIFIER"])] + [(p.punctuation[m], re.escape(m)) for m in marks]
                 + [(name, p.terminal_regexes[name]) for name in syntax._REGEX_TERMINALS[1:]])
    compiled = [(name, re.compile(regex)) for name, regex in terminals]
    tokens, docs, unclosed = [], [], []
    pos = 0
    while True:
        while pos < len(text) and text[pos] in syntax._IGNORED_CHARS:
            pos += 1
        if pos == len(text):
            return tokens, docs, unclosed
        match = next(((name, m) for name, pattern in compiled if (m := pattern.match(text, pos))), None)
        if match is None:
            if text[pos] == '"':
                tokens.append(("ERROR", '"', pos))
                unclosed.append(pos)
                return tokens, docs, unclosed
            tokens.append(("ERROR", text[pos], pos))
            pos += 1
            continue
        name, m = match
        if name == "DOCUMENTATION_COMMENT":
            docs.append((m[0][3:].removesuffix("\r"), pos, m.end(), len(tokens)))
        elif name != "LINE_COMMENT":
            tokens.append((name, m[0], pos))
        pos = m.end()


def test_the_first_characters_of_the_terminals_are_the_grammars():
    """``syntax._FIRST_CHARACTERS`` (how the tokenizer types a token) lists, for each regex
    terminal, exactly the printable ASCII characters its grammar regex can start with (the
    identifier and number regexes are ASCII only)."""
    regexes = syntax.get_parser().terminal_regexes
    for name in syntax._REGEX_TERMINALS:
        pattern = re.compile(regexes[name])
        starts = {chr(c) for c in range(32, 127)
                  if any(pattern.match(chr(c) + rest) for rest in ("", "1", "a", "//", '""', '"""""'))}
        assert starts == set(syntax._FIRST_CHARACTERS[name]), name


_TOKEN_PIECES = ["a", "b.c#D$e", "a.", "a.1", "x#", "{", "}", "(", ")", "[", "]", ":", ":=", "=", "@", "$", "1", "-",
                 "-2.5e+3", "01", "1.", '"s"', '""', '"""', '"""\nx"""', '"a\\"b"', '"\\"', "/", "//", "/// d\r",
                 "// c", "// c /// d", "//// e", "\n", " ", "\t", ",", "\r", "\ufeff", "\u00e9", "#", "%", ".", '"open']


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_TOKEN_PIECES), max_size=25))
def test_the_tokenizer_gives_what_the_grammar_regexes_give(pieces):
    """The tokenizer's single regex and first-character typing split and type every text as
    the grammar's terminal regexes do, one at a time (unknown characters, a lone ``-`` or
    ``/``, an unclosed string and the comments included; a doc comment knows the token after it)."""
    text = "".join(pieces)
    tokens, docs, problems = syntax.tokenize(text)
    expected, expected_docs, unclosed = _reference_tokens(text)
    assert list(zip(tokens.types, tokens.values, tokens.starts, strict=True)) == expected
    assert [(d.text, d.start, d.end, d.token) for d in docs] == expected_docs
    assert len(problems) == len(unclosed)


_POSITION_PIECES = ["a", "b.c#D$e", "{", ":=", "1.5", '"s"', '"x\ny"', '"""\n  x\r\n  """', "/// d\r\n", "// c\n",
                    " ", "\t", "\n", "\r\n", ",", "\ufeff", "\u00e9", "-", "%", '"open\nto the end']


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_POSITION_PIECES), max_size=30))
def test_token_positions_are_the_ones_counted_from_the_text(pieces):
    """``Tokens`` works positions out when asked: each is the one counted from the start of
    the text (lines by ``\\n``, columns in characters), strings over several lines,
    comments, ``\\r``, unknown characters and an unclosed string included."""
    text = "".join(pieces)
    tokens, _, _ = syntax.tokenize(text)

    def counted(offset: int) -> tuple[int, int]:
        return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)

    prev_end_line = 0
    for k in range(len(tokens)):
        start, value = tokens.starts[k], tokens.values[k]
        line, column = counted(start)
        if "\n" in value:
            end = (line + value.count("\n"), len(value) - value.rfind("\n"))
        else:
            end = (line, column + len(value))
        assert (tokens.line(k), tokens.column(k), tokens.end_line(k), tokens.end_column(k)) == (line, column, *end)
        assert tokens.position(start) == (line, column)
        assert tokens.first_on_line(k) == (line != prev_end_line)
        prev_end_line = end[0]
        for first in (0, k // 2, k):
            assert tokens.lines_and_columns(first, k) == (tokens.line(first), tokens.column(first), *end)

_VALUE_WORDS = ["{", "}", "[", "]", ":", ":=", "a", "true", "null", "structure", '"k"', '"""\nx\n"""', "1", "-2.5",
                "@", "=", "\n", ",", "a.b#C$d", "#", "/// d\n"]
_SCALARS = st.sampled_from(["a", "true", "false", "null", "input", '"s"', '"""\n  x\n  """', "1", "-2.5e3",
                            "a.b#C$d"])
_KEYS = st.sampled_from(["k", '"k"', "true", "structure", "a.b"])
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (st.lists(inner, max_size=4).map(lambda vs: "[" + ", ".join(vs) + "]")
                   | st.lists(st.tuples(_KEYS, inner), max_size=4).map(
                       lambda kvs: "{" + ", ".join(f"{k}: {v}" for k, v in kvs) + "}")),
    max_leaves=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_VALUES, st.lists(st.sampled_from(_VALUE_WORDS), max_size=3), st.integers(0, 400),
       st.sampled_from(["metadata m = ", "@t(", "@t(k: ", "structure S { @t(", "structure S { a: A = "]))
def test_the_node_value_fast_path_changes_nothing(value, junk, at, head):
    """Arrays and objects read by ``syntax._fast_node_value`` give the trees and problems of
    the automaton, valid or not (``junk`` words inserted at ``at``: a value with a syntax
    error is left to the automaton)."""
    at = min(at, len(value))
    value = value[:at] + " ".join(["", *junk, ""]) + value[at:]
    text = '$version: "2"\nnamespace a\n' + head + value + "\nstring S\n"
    assert _parse(text, None) == _parse(text, _CAUTIOUS)


def _walked(text: str, parser) -> str:
    """What the IDL front end makes of ``text`` (records and diagnostics) with ``parser``."""
    original = syntax.get_parser
    syntax.get_parser = lambda: parser
    try:
        return repr(parse_idl(text, "m.smithy"))
    finally:
        syntax.get_parser = original


_MORE_WORDS = [*_WORDS, '"x"', "[1, 2]", "{a: 1}", "{a: b}", "= 1", "@t(a: [1])", "a: B"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_MORE_WORDS), max_size=30), st.sampled_from([" ", "\n"]),
       st.sampled_from(["@t(", "structure S {\n", "enum E {\n", ""]))
def test_the_shortcuts_change_nothing_the_walker_makes(words, sep, head):
    """The records and diagnostics of a file are the same with the shortcuts and without,
    valid or not (the values a shortcut read before it gave up and left the rest to the
    automaton are the ones the walker would make of the automaton's tree)."""
    text = '$version: "2"\nnamespace a\n' + head + sep.join(words) + "\n"
    assert _walked(text, syntax.get_parser()) == _walked(text, _CAUTIOUS)


@pytest.mark.parametrize("depth", [syntax.FAST_VALUE_DEPTH + 10, 300])
def test_a_value_read_whole_inside_one_the_automaton_read_is_walked(depth):
    """Past :data:`syntax.FAST_VALUE_DEPTH` the automaton reads the outer levels of a value
    and the fast path the inner ones: the walker reads the inner node like any other (its
    value, and the S1016 of a value nested more than 256 levels)."""
    inner = '[1, {a: "b"}, []]'
    value = "[" * depth + inner + "]" * depth
    for text in (f'$version: "2"\nnamespace a\n@t({value})\nstring S\n',
                 f'$version: "2"\nmetadata m = {{k: {value}}}\n'):
        assert _walked(text, syntax.get_parser()) == _walked(text, _CAUTIOUS)
    walked = parse_idl(f'$version: "2"\nmetadata m = {value}\n', "m.smithy")
    if depth < 256:
        nested = walked.metadata["m"]
        for _ in range(depth):
            (nested,) = nested
        assert nested == [1, {"a": "b"}, []]
    else:
        assert [d.code for d in walked.diagnostics] == ["S1016"]


_ESCAPED = st.sampled_from(['"a\\nb"', '"\\q"', '"\\u00e9"', '"\\uD800"', '"x\r\ny"', "99999999999999999999999",
                            "1e999", "__", "_a", '"d"'])
_WALKED = st.recursive(
    _SCALARS | _ESCAPED,
    lambda inner: (st.lists(inner, max_size=4).map(lambda vs: "[" + ", ".join(vs) + "]")
                   | st.lists(st.tuples(_KEYS | _ESCAPED, inner), max_size=4).map(
                       lambda kvs: "{" + ", ".join(f"{k}: {v}" for k, v in kvs) + "}")),
    max_leaves=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_WALKED, st.sampled_from(["metadata m = ", "@t(", "@t(k: ", "structure S { @t(", "structure S { a: A = "]))
def test_values_read_by_the_parser_are_the_walkers(value, head):
    """The Python values ``syntax._fast_node_value`` makes (``ParseResult.fast_values``) are
    the ones the walker makes of the tree, with the same diagnostics (duplicate keys, bad
    escapes, numbers, keys and shape IDs: those values are left to the walker)."""
    text = '$version: "2"\nnamespace a\n' + head + value + (")" if "@t(" in head else "")
    text += "\n}\n" if head.startswith("structure") else "\nstring S\n"
    fast = syntax._fast_node_value
    syntax._fast_node_value = lambda types, values, i: (*fast(types, values, i)[:2], syntax._UNREAD)
    try:
        walked = parse_idl(text, "m.smithy")
    finally:
        syntax._fast_node_value = fast
    assert repr(parse_idl(text, "m.smithy")) == repr(walked)


def test_values_without_problems_are_read_by_the_parser():
    """A value whose reading can report nothing is made by the parser; one with a shape ID,
    a bad escape or a key twice is left to the walker."""
    read = syntax.parse_tokens('metadata m = {a: [1, "b\\n", true, null], "c": {}}\n').fast_values
    assert read == {3: {"a": [1, "b\n", True, None], "c": {}}}
    for left in ("[a.b#C]", '["\\q"]', "{a: 1, a: 2}", "{__: 1}", '["""\n x\n """]'):
        assert syntax.parse_tokens(f"metadata m = {left}\n").fast_values == {}, left


def _read_whole(node) -> list:
    """The :class:`syntax._ReadValue` nodes of a tree, without asking them for children."""
    if isinstance(node, syntax._ReadValue):
        return [node]
    if isinstance(node, int):
        return []
    return [found for child in node.children for found in _read_whole(child)]


def test_a_value_read_whole_makes_its_tree_only_when_asked():
    """A value the parser reads whole (no shape ID, text block, bad escape or key twice)
    gets a node without children; the walker takes its value and never asks for them, and
    when asked they are the automaton's."""
    text = 'metadata m = {a: [1, {b: "c"}], d: true, e: [], "f g": {}}\n'
    result = syntax.parse_tokens(text)
    (node,) = _read_whole(result.statements[0])
    assert (node.data, node.start, node.end, node._children) == ("node_object", 3, 25, None)
    assert parse_idl(text, "m.smithy").metadata == {"m": {"a": [1, {"b": "c"}], "d": True, "e": [], "f g": {}}}
    assert [_shape(result.statements[0])] == _parse(text, _CAUTIOUS)[0]  # (asks for them)
    assert node._children is not None
    for walked in ("[a.b#C]", '["""\n x\n """]', "{a: 1, a: 2}", '["\\q"]', "{__: 1}"):
        assert _read_whole(syntax.parse_tokens(f"metadata m = {walked}\n").statements[0]) == [], walked


def test_the_node_value_fast_path_is_taken_and_stays_linear(monkeypatch):
    """Values are read by the fast path (the test above would pass without it); one that
    fails it deep inside is not read again level by level (each token is tried once)."""
    calls: list[int] = []
    fast = syntax._fast_node_value

    def counting(types, values, i):
        calls.append(i)
        return fast(types, values, i)

    monkeypatch.setattr(syntax, "_fast_node_value", counting)
    ok = syntax.parse_tokens('metadata m = {a: [1, {b: "c"}], d: true}\n')
    assert not ok.problems and calls == [3]
    calls.clear()
    depth = 500
    bad = syntax.parse_tokens("metadata m = " + "[" * depth + ":" + "]" * depth + "\n")
    assert bad.problems and len(calls) < 20
    assert _parse("metadata m = " + "{a: " * 100 + "1" + "}" * 100 + "\n", None) == \
        _parse("metadata m = " + "{a: " * 100 + "1" + "}" * 100 + "\n", _CAUTIOUS)


def test_the_trait_fast_path_is_taken_and_leaves_errors_to_the_automaton(monkeypatch):
    """Trait applications are read by ``syntax._fast_trait`` (the tests above would pass
    without it); a trait without ``(`` before a token the automaton cannot take is left
    to it, whose error lists ``(`` among the tokens expected there."""
    calls: list[int] = []
    fast = syntax._fast_trait

    def counting(types, values, i, keywords, fast_values):
        calls.append(i)
        return fast(types, values, i, keywords, fast_values)

    monkeypatch.setattr(syntax, "_fast_trait", counting)
    ok = syntax.parse_tokens('namespace a\n@a @b(1) @c(d: [1], e: f) @g("h")\nstring S\n')
    assert not ok.problems and calls == [2, 4, 9, 21]
    assert [tree.data for tree in _read_whole(ok.statements[1])] == ["node_array"]
    text = "namespace a\napply S {\n    @deprecated\n"
    assert _parse(text, None) == _parse(text, _CAUTIOUS)
    assert "'('" in syntax.parse_tokens(text).problems[0].message


def test_the_members_fast_path_is_taken_and_leaves_the_rest_to_the_automaton(monkeypatch):
    """The members of structures and enums are read by ``syntax._fast_members`` (the
    tests above would pass without it); a value that does not start on the line of its
    ``=``, and a member name that is a keyword, are left to the automaton."""
    calls: list[int] = []
    fast = syntax._fast_members

    def counting(types, values, i, *rest):
        calls.append(i)
        return fast(types, values, i, *rest)

    monkeypatch.setattr(syntax, "_fast_members", counting)
    text = ('$version: "2"\nnamespace a\nstructure S {\n    @required\n    a: String = "x"\n    $b\n'
            '    c: L = [1]\n}\nenum E {\n    A\n    @t B = "b"\n}\n')
    ok = syntax.parse_tokens(text)
    assert not ok.problems and calls == [8, 28]
    assert [tree.data for tree in _read_whole(ok.statements[2])] == ["node_array"]
    assert _parse(text, None) == _parse(text, _CAUTIOUS)
    for left in ('structure S {\n    a: String =\n "x"\n}\n', "structure S {\n    list: String\n}\n",
                 "structure S {\n    a: String\n"):
        text = '$version: "2"\nnamespace a\n' + left
        calls.clear()
        assert _parse(text, None) == _parse(text, _CAUTIOUS), left  # (problems included)
        assert calls == [8], left


def _dups(n: int) -> str:
    """A structure whose member ``a`` is written ``n`` times: ``n - 1`` S1011 of the lowering
    (a shape defined again is the loader's: it merges equal definitions)."""
    return '$version: "2"\nnamespace a\nstructure A {\n' + "    a: String\n" * n + "}\n"


def test_duplicate_shapes_are_bounded_per_file():
    """Lowering makes the first 1,001 and counts the others; the funnel says how many."""
    n = MAX_PER_CODE + 50
    doc = lower_idl(parse_idl(_dups(n), "m.smithy"), set())
    codes = [d.code for d in doc.diagnostics]
    assert codes.count("S1011") == MAX_PER_CODE + 1
    last = [d for d in doc.diagnostics if d.code == "S1011"][-1]
    assert isinstance(last, Elided) and last.more == 48
    assert last.span.line == 4 + MAX_PER_CODE + 1
    reported = funnel(doc.diagnostics)
    assert len(reported) == MAX_PER_CODE + 1
    assert "(and 48 more S1011 error diagnostics not reported" in reported[-1].message
    assert not any(isinstance(d, Elided) for d in reported)


def test_a_statement_on_the_line_of_the_previous_one_is_a_syntax_error():
    """The reference stops at its "Expected a line break"; the parser reports it at the
    statement's first token and resumes on the next line."""
    idl = parse_idl('$version: "2"\nnamespace a\nstring A string B @deprecated string C\nstring D\n'
                    "string E\n@deprecated string F\n", "m.smithy")
    s1001 = [(d.span.line, d.span.column, d.message) for d in idl.diagnostics if d.code == "S1001"]
    assert s1001 == [(3, 10, "expected a line break before a new statement, found 'string'")]
    assert [s.name for s in idl.shapes] == ["A", "D", "E", "F"]
    idl = parse_idl('$version: "2"\nnamespace a\nstring A @deprecated string B\n', "m.smithy")
    assert [(d.span.line, d.span.column, d.message) for d in idl.diagnostics] == [
        (3, 10, "expected a line break before a new statement, found '@'")]


def test_a_huge_line_of_statements_stops_at_the_first():
    """tools/fuzz.py's huge-line: 100,000 statements on one line give one error, and the
    parser does not walk the rest of the line."""
    idl = parse_idl('$version: "2"\nnamespace a\n' + "string A " * 100_000 + "\n", "m.smithy")
    assert [(d.code, d.span.line, d.span.column) for d in idl.diagnostics] == [("S1001", 3, 10)]
    assert [s.name for s in idl.shapes] == ["A"]


def test_below_the_bound_every_diagnostic_is_reported_as_is():
    doc = lower_idl(parse_idl(_dups(5), "m.smithy"), set())
    messages = [d.message for d in doc.diagnostics if d.code == "S1011"]
    assert len(messages) == 4 and not any("more" in m for m in messages)


def _lark_tree(text: str, lark_parser):
    """Lark's own tree for ``text``, fed our tokens through its interactive parser (a word
    is a keyword where Lark can shift the keyword, else an identifier: the rule our driver
    follows), with Lark's tree builder and ``propagate_positions``."""
    from lark import Token

    tokens, _, problems = syntax.tokenize(text)
    assert not problems
    keywords = syntax.get_parser().keywords
    ip = lark_parser.parse_interactive()

    def token(kind: str, k: int) -> Token:
        return Token(kind, tokens.values[k], tokens.starts[k], tokens.line(k), tokens.column(k),
                     tokens.end_line(k), tokens.end_column(k), tokens.end_pos(k))

    for k in range(len(tokens)):
        value, ttype = tokens.values[k], tokens.types[k]
        if ttype == "IDENTIFIER" and value in keywords:
            trial = ip.copy()
            try:
                trial.feed_token(token(keywords[value], k))
                ttype = keywords[value]
            except lark.exceptions.UnexpectedInput:
                pass
        ip.feed_token(token(ttype, k))
    return ip.feed_eof(), tokens


def _compare(ours, theirs, tokens, where):
    """Our node (or token number) against Lark's tree (or token): same rule, same children,
    same first and last positions."""
    from lark import Token

    if isinstance(theirs, Token):
        assert isinstance(ours, int) and tokens.starts[ours] == theirs.start_pos, where
        return
    assert not isinstance(ours, int) and ours.data == theirs.data, (where, ours, theirs.data)
    assert len(ours.children) == len(theirs.children), (where, ours.data)
    if ours.start >= 0:
        assert not theirs.meta.empty
        assert (tokens.starts[ours.start], tokens.end_pos(ours.end)) == (theirs.meta.start_pos, theirs.meta.end_pos), \
            (where, ours.data)
    for a, b in zip(ours.children, theirs.children, strict=True):
        _compare(a, b, tokens, where)


@pytest.mark.skipif(not IDL.is_dir(), reason="../shared (conformance suites) is not present")
def test_the_tree_is_the_one_lark_builds():
    """The driver builds what Lark's parse-tree builder would (rule names, children kept,
    spliced and inlined, positions), on every valid conformance file and the prelude."""
    from smithy2cfn.load.prelude_data import prelude_sources
    from smithy2cfn.parse.tables import build_parser

    lark_parser = build_parser(grammar_text())
    sources = [(str(p), p.read_text(encoding="utf-8")) for p in sorted((IDL / "valid").rglob("*.smithy"))]
    sources += prelude_sources()
    assert len(sources) > 80
    for path, text in sources:
        result = syntax.parse_tokens(text)
        assert not result.problems, path
        theirs, tokens = _lark_tree(text, lark_parser)
        statements = [c for c in theirs.children if isinstance(c, lark.Tree)]
        assert len(statements) == len(result.statements), path
        for ours, lark_statement in zip(result.statements, statements, strict=True):
            _compare(ours, lark_statement, tokens, path)
