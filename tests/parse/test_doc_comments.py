"""Documentation comments (``///``): what they document, and the ``S1018`` warning.

The reference (``IdlInternalTokenizer``, ``IdlModelLoader``, ``IdlTraitParser``) reads a
``///`` anywhere on a line, buffers its text, and empties the buffer into the
``@documentation`` of the next shape or member, or with its ``Model.BadDocumentationComment``
warning (at a statement's line break, at the ``{`` of a structure's members, after a
member's traits, before ``}``, at the end of the file), or silently (before ``apply`` and
``:=``). Each case below gives one model, the documentation it must give, and the
warnings (line, column, comments) it must report.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smithy2cfn import api
from smithy2cfn.diagnostics import CODES, Severity
from smithy2cfn.parse.idl import IdlFile, parse_idl
from smithy2cfn.parse.lower import lower_idl

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
REFERENCE_CASE = SHARED / "conformance" / "validation" / "smithy-model" / "loader" / \
    "detects-invalid-documentation-comments"
PREFIX = ("Found documentation comments ('///') attached to nothing. Documentation comments must appear on "
          "their own lines, directly before shapes and members, and before any traits. The invalid comments "
          "were: ")
HEAD = '$version: "2"\nnamespace ns\n'


def _docs(f: IdlFile) -> dict[str, str]:
    """``name`` / ``name$member`` -> documentation, for what has some."""
    out = {}
    for s in f.all_shapes():
        if s.docs is not None:
            out[s.name] = s.docs
        for m in s.members or []:
            if m.docs is not None:
                out[f"{s.name}${m.name}"] = m.docs
    return out


def _warnings(f: IdlFile) -> list[tuple[int, int, str]]:
    out = []
    for d in f.diagnostics:
        if d.code == "S1018":
            assert d.severity is Severity.WARNING and d.event_id == "Model.BadDocumentationComment"
            assert d.hint and d.message.startswith(PREFIX)
            out.append((d.span.line, d.span.column, d.message[len(PREFIX):]))
    return out


CASES = {
    # name: (model, documentation, warnings (line, column, comments))
    "before a shape and its traits": (
        HEAD + "/// A\n/// more\n@deprecated\nstring A\n", {"A": "A\nmore"}, []),
    "one leading space is removed, no more": (
        HEAD + "///  two\n///none\nstring A\n", {"A": " two\nnone"}, []),
    "no doc comment, no documentation": (HEAD + "// plain\nstring A\n", {}, []),
    "trailing a member: documents the next member": (
        HEAD + "structure S {\n    a: String /// doc\n    b: String\n}\n", {"S$b": "doc"}, []),
    "trailing a member in an enum: documents the next member": (
        HEAD + "enum E {\n    A /// doc\n    B\n}\n", {"E$B": "doc"}, []),
    "trailing a shape: warns at the comment": (
        HEAD + "string A /// doc\nstring B\n", {}, [(3, 10, "doc")]),
    "after a shape's traits: warns at the line break": (
        HEAD + '@since("1")\n/// doc\nstring A\n', {}, [(5, 9, "doc")]),
    "after a structure's traits: warns at '{'": (
        HEAD + "@sensitive\n/// doc\nstructure S\n/// inside\n{}\n", {}, [(7, 1, "doc\ninside")]),
    "after a member's traits: warns at the member name": (
        HEAD + "structure S {\n    /// a\n    @required\n    /// b\n    m: String\n}\n",
        {"S$m": "a"}, [(7, 5, "b")]),
    "trailing a default value: warns at the comment, after the comma": (
        HEAD + 'structure S {\n    a: String = "x", /// doc\n    b: String\n}\n', {}, [(4, 22, "doc")]),
    "before '}' in a structure: warns where it starts": (
        HEAD + "structure S {\n    a: String\n    /// dangling\n}\n", {}, [(5, 5, "dangling")]),
    "at the end of the file after a shape": (
        HEAD + "string A\n/// end", {}, [(4, 8, "end")]),
    "at the end of the file without shapes: dropped": (HEAD + "/// end\n", {}, []),
    "before the namespace: warns at its line break": (
        '$version: "2"\n/// doc\nnamespace ns\nstring A\n', {}, [(3, 13, "doc")]),
    "before $version: warns at its line break": (
        '/// doc\n$version: "2"\nnamespace ns\n', {}, [(2, 14, "doc")]),
    "after $version on its line": ('$version: "2" /// doc\nnamespace ns\n', {}, [(1, 15, "doc")]),
    "in a metadata value: warns at its line break": (
        '$version: "2"\nmetadata m = [\n    /// doc\n    1\n]\nnamespace ns\n', {}, [(5, 2, "doc")]),
    "before use: warns at its line break": (
        HEAD + "/// doc\nuse smithy.api#String\nstring A\n", {}, [(4, 22, "doc")]),
    "in a trait value: warns at the shape's line break": (
        HEAD + '@tags([\n    /// doc\n    "a"\n])\nstring A\n', {}, [(7, 9, "doc")]),
    "before apply: dropped without a warning (as the reference does)": (
        HEAD + "string A\n/// doc\napply A @deprecated\n", {}, []),
    "in an apply block: warns at its line break": (
        HEAD + "string A\napply A {\n    /// doc\n    @deprecated\n}\n", {}, [(7, 2, "doc")]),
    "before ':=': dropped; after it: documents the inline structure": (
        HEAD + "operation Op {\n    input /// dropped\n    := /// in\n    {}\n    output := {}\n}\n",
        {"OpInput": "in"}, []),
    "after inline traits: warns at '{'": (
        HEAD + 'operation Op {\n    input := @since("1")\n    /// doc\n    {}\n}\n', {}, [(6, 5, "doc")]),
    "in a service body: warns at its line break": (
        HEAD + 'service S {\n    version: "1" /// doc\n}\n', {}, [(5, 2, "doc")]),
    "in an operation's errors: warns at its line break": (
        HEAD + "operation Op {\n    errors: [\n        /// doc\n    ]\n}\n", {}, [(7, 2, "doc")]),
    "enum: the shape's trailing comments go to the first documented member": (
        HEAD + "@deprecated\n/// x\nenum E {\n    /// a\n    A\n}\n", {"E$A": "x\na"}, []),
    "enum: ... or warn at an undocumented first member": (
        HEAD + "@deprecated\n/// x\nenum E {\n    A\n}\n", {}, [(6, 5, "x")]),
    "CRLF line ends": ('$version: "2"\r\nnamespace ns\r\n/// doc\r\nstring A\r\n', {"A": "doc"}, []),
}


@pytest.mark.parametrize("name", list(CASES))
def test_doc_comment_case(name: str) -> None:
    model, docs, warnings = CASES[name]
    f = parse_idl(model, "m.smithy")
    assert [d for d in f.diagnostics if d.severity is Severity.ERROR] == []
    assert _docs(f) == docs
    assert _warnings(f) == warnings


def test_dangling_comment_in_enum_is_a_syntax_error() -> None:
    # IdlModelLoader.parseEnumShape has no dangling-comment case: it expects a member name.
    f = parse_idl(HEAD + "enum E {\n    A\n    /// dangling\n}\n", "m.smithy")
    errors = [d for d in f.diagnostics if d.severity is Severity.ERROR]
    assert [(d.code, d.span.line, d.span.column) for d in errors] == [("S1001", 6, 1)]
    ok = parse_idl(HEAD + "enum E {\n    A\n    // plain\n}\n", "m.smithy")
    assert not ok.diagnostics


def test_documentation_trait_and_comment_conflict() -> None:
    f = parse_idl(HEAD + '/// a\n@documentation("b")\nstring A\n/// c\n@documentation("c")\nstring B\n', "m.smithy")
    doc = lower_idl(f, frozenset({"smithy.api#documentation"}))
    conflicts = [d for d in doc.diagnostics if d.code == "S1011"]
    assert [(d.shape_id, d.span.line) for d in conflicts] == [("ns#A", 4)]
    assert doc.ast["shapes"]["ns#B"]["traits"]["smithy.api#documentation"] == "c"


def test_the_warning_through_the_api(tmp_path: Path) -> None:
    path = tmp_path / "m.smithy"
    path.write_text(HEAD + "string A /// doc\n", encoding="utf-8")
    diags = api.load([path]).diagnostics
    found = [d for d in diags if d.code == "S1018"]
    assert len(found) == 1 and str(found[0].span) == f"{path}:3:10"
    assert not any(d.severity is Severity.ERROR for d in diags)
    assert CODES["S1018"].event_id == "Model.BadDocumentationComment"
    path.write_text(HEAD + "/// doc\nstring A\n", encoding="utf-8")
    loaded = api.load([path])
    assert not [d for d in loaded.diagnostics if d.code == "S1018"]
    assert loaded.model.shapes["ns#A"].traits["smithy.api#documentation"] == "doc"


@pytest.mark.skipif(not REFERENCE_CASE.with_suffix(".errors").exists(), reason="../shared is not present")
def test_reference_errorfile() -> None:
    """The reference's own case: the same warnings, in order, each message starting with the
    expected one (its test runner compares message prefixes)."""
    expected = [line.split("] -: ", 1)[1].rsplit(" | ", 1)[0].replace("\\n", "\n")
                for line in REFERENCE_CASE.with_suffix(".errors").read_text(encoding="utf-8").splitlines()
                if "Model.BadDocumentationComment" in line]
    path = REFERENCE_CASE.with_suffix(".smithy")
    f = parse_idl(path.read_text(encoding="utf-8"), str(path))
    got = [PREFIX + text for _, _, text in _warnings(f)]
    assert len(got) == len(expected) == 9
    for g, e in zip(got, expected, strict=True):
        assert g.startswith(e)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans()), min_size=1, max_size=6))
def test_members_documentation_property(members: list[tuple[bool, bool, bool]]) -> None:
    """Members each with an optional leading comment, an optional trait and an optional
    comment after the trait: the comments before the trait document the member, one after
    the trait warns at the member name."""
    lines = ["structure S {"]
    expected_docs, expected_warn = {}, []
    for i, (lead, trait, after_trait) in enumerate(members):
        if lead:
            lines.append(f"    /// lead {i}")
        if trait:
            lines.append("    @required")
        if after_trait:
            lines.append(f"    /// after {i}")
        lines.append(f"    m{i}: String")
        # Without a trait between them, both comments are one run before the member.
        leading = [f"lead {i}"] * lead + [f"after {i}"] * (after_trait and not trait)
        if leading:
            expected_docs[f"S$m{i}"] = "\n".join(leading)
        if after_trait and trait:
            expected_warn.append((2 + len(lines), 5, f"after {i}"))
    lines.append("}")
    f = parse_idl(HEAD + "\n".join(lines) + "\n", "m.smithy")
    assert not [d for d in f.diagnostics if d.severity is Severity.ERROR]
    assert _docs(f) == expected_docs
    assert _warnings(f) == expected_warn
