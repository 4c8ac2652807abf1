"""An IDL file parsed in parts (``smithy2cfn.parse.idl``: ``split_idl``, ``parse_idl_part``,
``join_idl_parts``; the loader shares the parts with a helper process) gives exactly the
:class:`IdlFile` that ``parse_idl`` makes of the whole file, or is refused (``None``) and
parsed whole: never a different file. Checked on every IDL file of the repository and the
conformance suites cut as finely as they can be, on files changed at random (hypothesis), and
on the cuts that would change the meaning if they were taken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, SHARED
from smithy2cfn.diagnostics import Span
from smithy2cfn.parse.idl import UnquotedId, join_idl_parts, parse_idl, parse_idl_part, split_idl
from smithy2cfn.records import Record


def _dump(value):
    """A value of the parse as plain data: every field of a record (hidden ones too), the
    span of an unquoted shape ID."""
    if isinstance(value, UnquotedId):
        return ("UnquotedId", str(value), _dump(value.span))
    if isinstance(value, Span):
        return ("Span", value.path, value.line, value.column, value.end_line, value.end_column)
    if isinstance(value, Record):
        return (type(value).__name__, *(_dump(getattr(value, name)) for name in type(value)._fields))
    if isinstance(value, dict):
        return ("dict", [(_dump(k), _dump(v)) for k, v in value.items()])
    if isinstance(value, list | tuple):
        return (type(value).__name__, [_dump(v) for v in value])
    return (type(value).__name__, value)


def _in_parts(text: str, size: int):
    """The file read in parts as the loader reads it: ``(number of parts, joined file)``,
    ``(1, None)`` when ``split_idl`` does not cut it."""
    parts = split_idl(text, size)
    if parts is None:
        return 1, None
    return len(parts), join_idl_parts([parse_idl_part(text, "m.smithy", *part) for part in parts])


def _same_or_refused(text: str, size: int) -> bool:
    """Asserts that the parts join into the whole file's parse, or are refused; whether they joined."""
    count, joined = _in_parts(text, size)
    if joined is None:
        return False
    assert count > 1
    assert _dump(joined) == _dump(parse_idl(text, "m.smithy"))
    return True


def _idl_files() -> list[Path]:
    roots = [REPO / "examples", REPO / "tests", SHARED / "conformance"]
    return sorted(p for root in roots if root.is_dir() for p in root.rglob("*.smithy"))


def test_every_idl_file_cut_everywhere_it_can_be_gives_the_same_parse():
    files = _idl_files()
    if len(files) < 100:
        pytest.skip("needs ../shared/conformance (the IDL suites)")
    joined = 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        joined += _same_or_refused(text, 1)  # (a cut at every place there is one)
    print(f"IDL files joined from parts: {joined}/{len(files)}")
    assert joined > 100


def test_a_real_model_in_parts_is_the_same(aws_all_models):
    found = [p for p in aws_all_models if p.name.startswith("s3-")]
    assert found, "s3 is one of the published models"
    import sys

    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from ast_to_idl import to_idl
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    text = to_idl(json.loads(found[0].read_text(encoding="utf-8")))
    for size in (4096, 160 * 1024):
        count, _ = _in_parts(text, size)
        assert count > 5
        assert _same_or_refused(text, size)


HEAD = '$version: "2"\nmetadata m = {a: [1, 2]}\nnamespace example.parts\n\nuse other#Thing\n\n'


@pytest.mark.parametrize(("text", "outcome"), [
    # a cut inside a text block: the part before it ends in an unclosed string
    (HEAD + 'structure A {\n}\n\n@documentation("""\n}\n\nstructure Fake {}\n""")\nstructure B {}\n', "refused"),
    # a cut inside a node value: the braces before it do not close
    (HEAD + "structure A {\n    a: Doc = {\n}\n@required\n    b: String\n}\n\nstructure B {}\n", "refused"),
    # traits before the first shape, indented, would go to the first shape of each part
    (HEAD + "  @deprecated\nstructure A {\n}\n\nstructure B {\n}\n\nstructure C {}\n", "refused"),
    # a documentation comment in the preamble (split_idl does not cut)
    ('$version: "2"\nnamespace example.parts\n  /// lost\nstructure A {\n}\n\nstructure B {}\n', "uncut"),
    # a use statement after shapes (an error the parts must not hide)
    (HEAD + "structure A {\n}\n\nuse other#Late\nstructure B {}\n", "refused"),
    # a documentation comment after a blank line still documents the next shape
    (HEAD + "structure A {\n}\n/// documented\n\nstructure B {\n}\n\nstructure C {}\n", "joined"),
    # the same shape twice, one in each part (reported by the lowering, after the join)
    (HEAD + "structure A {\n}\n\nstructure A {\n}\n\nstructure B {}\n", "joined"),
    # a namespace statement inside a text block in the metadata: the preamble found ends
    # before the real one, which the other parts then lack
    ('$version: "2"\nmetadata m = """\nnamespace fake\n"""\nnamespace example.parts\n\nstructure A {\n}\n\n'
     "structure B {}\n", "refused"),
    ('$version: "2"\nmetadata m = """\nnamespace fake\nstructure A {\n}\n\nstructure C {\n}\n"""\n'
     "namespace example.parts\n\nstructure B {}\n", "refused"),
], ids=["text-block", "node-value", "indented-trait", "preamble-doc", "late-use", "doc-after-blank", "twice",
        "namespace-in-text", "shapes-in-text"])
def test_cuts_that_would_change_the_meaning_are_refused(text, outcome):
    count, joined = _in_parts(text, 1)
    assert (count > 1, joined is not None) == {"refused": (True, False), "joined": (True, True),
                                               "uncut": (False, False)}[outcome]
    _same_or_refused(text, 1)


def test_a_clean_file_is_joined_and_a_broken_one_is_refused():
    clean = HEAD + "".join(f"/// Shape {i}\n@since(\"{i}\")\nstructure S{i} {{\n    a: String\n}}\n\n"
                           for i in range(20))
    assert _in_parts(clean, 1)[0] == 20  # one part per shape (the first with the preamble)
    assert _same_or_refused(clean, 1)
    broken = clean.replace("structure S7 {", "structure S7 {{")
    assert _in_parts(broken, 1)[1] is None
    parsed = parse_idl(broken, "m.smithy")
    assert parsed.diagnostics, "the loader parses a refused file whole, with its errors"


_PIECES = [
    "structure S {\n    a: String\n}\n", "}\n", "\n", "@required\n", "  @since(\"1\")\n", "/// doc\n",
    "// comment\n", '@documentation("""\n}\nstructure X {}\n""")\n', 'string T\n', "apply S @sensitive\n",
    "operation O {\n    input := {\n        a: String\n    }\n}\n", "use a.b#C\n", "{\n", "list L {\n member: S\n}\n",
    '"\n', "enum E {\n    A\n    B\n}\n", "structure S {}\n", "x: y\n", "metadata k = 1\n",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), max_size=30), st.integers(min_value=1, max_value=200))
def test_parts_of_random_files_join_into_the_whole_parse_or_are_refused(pieces, size):
    _same_or_refused(HEAD + "".join(pieces), size)


@given(text=st.text(alphabet="ab\n\r ", max_size=80), first=st.integers(0, 1000))
@settings(max_examples=300, deadline=None)
def test_line_breaks_are_the_offsets_of_each_newline(text, first):
    from smithy2cfn.parse.syntax import line_breaks

    assert line_breaks(text, first) == [first + i for i, ch in enumerate(text) if ch == "\n"]


def test_a_part_reads_the_same_with_its_line_count_given_or_counted():
    # (split_idl counts each part's lines before it in one pass; parse_idl_part counts them
    # itself when called without: both readings, and the line breaks it lists, are the file's)
    text = (REPO / "examples" / "vault" / "model" / "vault.smithy").read_text(encoding="utf-8")
    parts = split_idl(text, 200)
    assert parts is not None and len(parts) > 2
    for preamble, start, end, lines in parts:
        assert lines == (text.count("\n", preamble, start) if start else 0)
        counted = parse_idl_part(text, "m.smithy", preamble, start, end)
        assert counted is not None
        assert _dump(parse_idl_part(text, "m.smithy", preamble, start, end, lines)) == _dump(counted)
