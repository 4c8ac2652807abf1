"""A JSON AST file read in parts (``smithy2cfn.model.json_ast``: ``split_json_ast``,
``read_json_ast_part``, ``join_json_ast_parts``; the loader shares the parts with a helper
process) gives exactly the :class:`SourceDocument` that ``read_json_ast`` makes of the whole
file, or is refused (``None``) and read whole: never a different document. Checked on every
JSON AST file of the repository, the conformance suites and the 402 AWS models, on documents
changed at random (hypothesis), and on the cuts that would change the meaning if they were
taken."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_json_ast_quick import FILES, _documents

from conftest import read_in_parts
from smithy2cfn.model.json_ast import join_json_ast_parts, read_json_ast, read_json_ast_part, split_json_ast
from smithy2cfn.records import as_tuple


def _ordered(value):
    """``value`` with the order of every object's keys kept (equality of dicts ignores it)."""
    if isinstance(value, dict):
        return [(k, _ordered(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


def _document(doc) -> tuple:
    return (doc.path, doc.version, _ordered(doc.ast), [as_tuple(a) for a in doc.applies], _ordered(doc.spans),
            _ordered(doc.trait_spans), _ordered(doc.metadata_spans), [d.to_json() for d in doc.diagnostics],
            doc.duplicate_shapes)


def _in_parts(text: str, size: int):
    """``(number of parts, joined document)``: ``(1, None)`` when ``split_json_ast`` does not cut it."""
    return read_in_parts(text, size, split_json_ast, read_json_ast_part, join_json_ast_parts, "m.json")


def _same_or_refused(text: str, size: int) -> bool:
    """Asserts that the parts join into the whole file's reading, or are refused; whether they joined."""
    count, joined = _in_parts(text, size)
    if joined is None:
        return False
    assert count > 1
    assert _document(joined) == _document(read_json_ast(text, "m.json"))
    return True


def test_every_json_ast_file_cut_everywhere_it_can_be_reads_the_same():
    joined = sum(_same_or_refused(path.read_text(encoding="utf-8"), 1) for path in FILES)
    print(f"JSON AST files joined from parts: {joined}/{len(FILES)}")
    assert joined >= 5


def test_every_aws_model_in_parts_reads_the_same(aws_all_models):
    joined = 0
    for path in aws_all_models:
        text = path.read_text(encoding="utf-8")
        if len(text) >= 256 * 1024:
            joined += _same_or_refused(text, 128 * 1024)
    print(f"AWS models of 256 KB or more joined from parts: {joined}")
    assert joined >= 100


def _pretty(shapes: dict, **more) -> str:
    return json.dumps({"smithy": "2.0", "metadata": {"m": [1]}, "shapes": shapes, **more}, indent=4)


_SHAPES = {f"a#S{i}": {"type": "structure", "members": {"m": {"target": "smithy.api#String", "traits": {
    "smithy.api#documentation": f"member {i}"}}}, "traits": {"smithy.api#documentation": f"shape {i}"}}
    for i in range(12)}


def test_a_clean_file_is_joined_and_a_broken_one_is_refused():
    clean = _pretty(_SHAPES)
    assert _in_parts(clean, 1)[0] == 12  # one part per shape (the first with the document's start)
    assert _same_or_refused(clean, 1)
    for broken in (clean.replace('"shape 7"', '"shape 7",'), clean.replace('"member 9"', '"\\ud800"'),
                   clean.replace('"type": "structure",', '"type": "structure", "what": 1,', 1)):
        assert _in_parts(broken, 1)[1] is None
        assert _in_parts(broken, 1)[0] > 1


@pytest.mark.parametrize(("text", "outcome"), [
    (_pretty(_SHAPES, more={"k": 1}), "refused"),  # shapes not the document's last member
    (_pretty({**_SHAPES, "a#T": {"type": "structure", "traits": {"x#y": {
        "a": 1,
        "a#S3": {"type": "structure"}}}}}).replace('\n                    "a#S3"', '\n        "a#S3"'),
     "refused"),  # a key inside a trait value, at the indentation of shapes
    (_pretty(_SHAPES).replace('"a#S5"', '"a#S2"'), "refused"),  # a shape in two parts
    (_pretty(_SHAPES).replace('"member 11"', "[" * 300 + "]" * 300), "refused"),  # too deep, in the last part
    (json.dumps({"smithy": "2.0", "shapes": _SHAPES}), "uncut"),  # on one line: nothing to cut at
    (_pretty(_SHAPES).replace('"smithy": "2.0"', '"smithy": "1.0"'), "joined"),
    ('{"shapes": ' + _pretty(_SHAPES).partition('"shapes": ')[2].rstrip("}\n") + ', "smithy": "2.0"}', "uncut"),
], ids=["not-last", "nested-key-at-shape-indent", "twice", "deep", "one-line", "version-1", "version-after"])
def test_cuts_that_would_change_the_meaning_are_refused(text, outcome):
    count, joined = _in_parts(text, 1)
    assert (count > 1, joined is not None) == {"refused": (True, False), "joined": (True, True),
                                               "uncut": (False, False)}[outcome]
    _same_or_refused(text, 1)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_documents(), st.integers(min_value=1, max_value=300))
def test_parts_of_changed_documents_join_into_the_whole_reading_or_are_refused(text, size):
    _same_or_refused(text, size)
