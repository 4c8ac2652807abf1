"""The quick reading of a JSON AST file (``json_ast._QuickWalk``, issue 15's cold start) gives
exactly what the careful one (``jsonread.parse_json`` walking every upper level) gives: the
document, every span, the diagnostics (codes, messages, spans, order), the apply statements,
on the repository's JSON AST files and on documents changed at random (hypothesis)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, json_paths
from smithy2cfn.model import json_ast
from smithy2cfn.records import as_tuple

SHARED = REPO.parent / "shared"


def _json_ast_files() -> list[Path]:
    found = []
    for root in (REPO / "tests", REPO / "examples", SHARED / "conformance"):
        for f in sorted(root.rglob("*.json")) if root.is_dir() else []:
            try:
                head = f.read_text(encoding="utf-8")[:2000]
            except (OSError, UnicodeDecodeError):
                continue
            if '"smithy"' in head and f.stat().st_size < 2_000_000:
                found.append(f)
    return found


FILES = _json_ast_files()


def _read(text: str, careful: bool, monkeypatch) -> tuple:
    with monkeypatch.context() as m:
        if careful:
            def refuse(self):
                raise json_ast._Careful
            m.setattr(json_ast._QuickWalk, "document", refuse)
        doc = json_ast.read_json_ast(text, "model.json")
        return (doc.version, doc.ast, [as_tuple(a) for a in doc.applies], *_spans(doc),
                doc.metadata_spans, [d.to_json() for d in doc.diagnostics],
                [(i, body, span) for i, body, span in doc.duplicate_shapes])


def _spans(doc) -> tuple[dict, dict]:
    """Every span a loader can ask ``doc`` for: those it keeps, and those of the members it
    makes when asked (``SourceDocument.span_of``, ``trait_spans_of``), each shape's and each
    member's of a ``members`` object, as a dict."""
    nodes = list(doc.spans)
    for shape_id, body in doc.ast["shapes"].items():
        members = body.get("members") if isinstance(body, dict) else None
        nodes += [f"{shape_id}${name}" for name in members] if isinstance(members, dict) else []
    nodes = list(dict.fromkeys(nodes))
    traits = {node: doc.trait_spans_of(node) for node in dict.fromkeys([*doc.trait_spans, *nodes])}
    return ({node: doc.span_of(node) for node in nodes},
            {node: dict(spans) for node, spans in traits.items() if spans is not None})


def test_there_are_files_to_compare():
    assert len(FILES) >= 10, FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_a_file_reads_the_same_quickly(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    assert _read(text, False, monkeypatch) == _read(text, True, monkeypatch)


def test_the_quick_walk_is_taken_on_a_well_formed_file(monkeypatch):
    text = json.dumps({"smithy": "2.0", "shapes": {"a#S": {"type": "structure", "members": {
        "m": {"target": "smithy.api#String", "traits": {"smithy.api#required": {}}}}}}}, indent=2)
    jt, problem = json_ast.parse_json_ast_text(text, "m.json")
    assert problem is None and jt.spans, "the quick walk was not taken"
    jt, problem = json_ast.parse_json_ast_text(text.replace('"m"', '"m", "m"'), "m.json")
    assert problem is not None  # not JSON: left to parse_json, which says where


_BAD = [1, None, "x", "bad id", [], {}, {"target": 3}, {"target": "a#B", "q": 1}, [{"target": "nope"}],
        {"a#B": 1}, "a#B$c", True, 1e400, "\ud800x", {"smithy.api#documentation": "é\\\"\n"}]
_KEYS = ["zz", "traits", "target", "members", "mixins", "smithy.api#foo", "bad key", "a#B$m", "type", "m\"q",
         "ü"]
_BASE = {"smithy": "2.0", "metadata": {"k": [1, {"a": "b"}], "suppressions": []}, "shapes": {
    "a#S": {"type": "structure", "mixins": [{"target": "a#M"}], "members": {
        "x": {"target": "smithy.api#String", "traits": {"smithy.api#required": {}, "smithy.api#documentation": "d"}},
        "y": {"traits": {"smithy.api#length": {"min": 1}}, "target": "a#L"}},
        "traits": {"smithy.api#documentation": "S"}},
    "a#M": {"type": "structure", "traits": {"smithy.api#mixin": {}}, "members": {}},
    "a#L": {"type": "list", "member": {"target": "smithy.api#Integer"}},
    "a#Map": {"type": "map", "key": {"target": "smithy.api#String"}, "value": {"target": "a#L", "traits": {}}},
    "a#Svc": {"type": "service", "version": "1", "operations": [{"target": "a#Op"}]},
    "a#Op": {"type": "operation", "input": {"target": "a#S"}},
    "a#Ext": {"type": "apply", "traits": {"smithy.api#deprecated": {}}}}}


@st.composite
def _documents(draw) -> str:
    doc = json.loads(json.dumps(_BASE))
    paths = [p for p in json_paths(doc) if p]
    for _ in range(draw(st.integers(0, 4))):
        path = draw(st.sampled_from(paths))
        parent = doc
        try:
            for k in path[:-1]:
                parent = parent[k]
            op = draw(st.integers(0, 2))
            if isinstance(parent, dict) and op == 0:
                parent[draw(st.sampled_from(_KEYS))] = draw(st.sampled_from(_BAD))
            elif isinstance(parent, dict) and op == 1:
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = draw(st.sampled_from(_BAD))
        except (KeyError, IndexError, TypeError):
            continue
    text = json.dumps(doc, indent=draw(st.sampled_from([None, 1, 2, "\t"])), ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):  # and a change to the text itself
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(["", ",", "}", "{", '"', "\\", " ", "\n", "NaN", '"k": 1,',
                                                 '"a#S": {},', "1e99999"])) + text[at + draw(st.integers(0, 3)):]
    return text


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(_documents())
def test_a_changed_document_reads_the_same_quickly(monkeypatch, text):
    assert _read(text, False, monkeypatch) == _read(text, True, monkeypatch)


def _read_every_member_checked(text: str, monkeypatch) -> tuple:
    """:func:`_read` with the reader's shortcut for members written as they should be
    (``_Reader.as_written``) turned off: every member takes the checked path
    (``_Reader.member``)."""
    with monkeypatch.context() as m:
        m.setattr(json_ast._Reader, "as_written", lambda *args: False)
        return _read(text, False, monkeypatch)


#: Members of every kind, each name used again in a later shape (where the reader may take
#: its shortcut): plain, with traits, with empty traits, with an unknown property, a bad or
#: unknown target, traits that are not an object or name a bad trait ID, not an object.
_MEMBER_BODIES = [
    {"target": "smithy.api#String"},
    {"target": "smithy.api#String", "traits": {"smithy.api#required": {}, "smithy.api#documentation": "d"}},
    {"traits": {"smithy.api#documentation": "first"}, "target": "a#L"},
    {"target": "smithy.api#String", "traits": {}},
    {"target": "smithy.api#String", "q": 1},
    {"target": "smithy.api#String", "traits": {"smithy.api#documentation": "d"}, "q": 1},
    {"target": "bad id"}, {"target": 3}, {"target": ["a#L"]}, {"target": {"a": 1}}, {"traits": {}},
    {"target": "smithy.api#String", "traits": []},
    {"target": "smithy.api#String", "traits": {"bad id": 1}},
    {"target": "smithy.api#String", "traits": {"a#Unknown": 1, "smithy.api#documentation": "d"}},
    "x", None, [],
]


@settings(max_examples=200, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c", "bad name"]),
                          st.sampled_from(range(len(_MEMBER_BODIES)))), min_size=1, max_size=12),
       st.sampled_from([None, 2]))
def test_a_member_written_as_it_should_be_reads_as_the_checked_path_reads_it(monkeypatch, members, indent):
    shapes: dict = {"a#L": {"type": "list", "member": {"target": "smithy.api#Integer"}}}
    for n, (name, body) in enumerate(members):
        shapes.setdefault(f"a#S{n % 3}", {"type": "structure", "members": {}})["members"][name] = \
            _MEMBER_BODIES[body]
    text = json.dumps({"smithy": "2.0", "shapes": shapes}, indent=indent)
    assert _read(text, False, monkeypatch) == _read_every_member_checked(text, monkeypatch)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_a_file_reads_the_same_with_every_member_checked(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    assert _read(text, False, monkeypatch) == _read_every_member_checked(text, monkeypatch)


@pytest.mark.parametrize("text", [
    '{"smithy": "2.0", "shapes": {"a#S": {"type": "string"}, "a#S": {"type": "integer"}}}',
    '{"smithy": "2.0", "shapes": {"a#S": {"type": "structure", "members": {"m": {"target": "a#S"}, '
    '"m": {"target": "a#T"}}}}}',
    '{"smithy": "2.0", "shapes": {"a#S": {"type": "string", "traits": {"smithy.api#documentation": "a", '
    '"smithy.api#documentation": "b"}}}}',
    '{"smithy": "2.0", "smithy": "1.0", "shapes": {}}',
    '{"smithy": "2.0", "shapes": {"a#S": {"type": "string", "type": "integer"}}}',
    '{"smithy": "2.0", "metadata": {"k": 1, "k": 2}, "shapes": {}}',
    '{"smithy": "2.0", "shapes": {"a#\\u0053": {"type": "string"}, "a#S": {"type": "integer"}}}',
], ids=["shape", "member", "trait", "top", "property", "metadata", "escaped"])
def test_a_key_defined_twice_reads_the_same(text, monkeypatch):
    assert _read(text, False, monkeypatch) == _read(text, True, monkeypatch)


def test_spans_inside_shapes_are_found_when_read_and_then_act_as_any_span(monkeypatch):
    """A member's or trait's span is deferred (``Span.deferred``): the file's positions inside
    a shape entry are walked only when one is read; it then equals, hashes, orders, prints
    and pickles as the span the careful reading gives."""
    import copy
    import pickle

    from smithy2cfn.diagnostics import Span

    text = json.dumps(_BASE, indent=2)
    careful = _read(text, True, monkeypatch)[4]
    doc = json_ast.read_json_ast(text, "model.json")
    owner, key = "a#S$y", "smithy.api#length"
    span = doc.trait_spans_of(owner)[key]
    with pytest.raises(AttributeError):  # (the slot is empty: not found yet)
        Span.line.__get__(span, type(span))
    expected = careful[owner][key]
    assert (expected.line, expected.column) == (text[:text.index('"smithy.api#length"')].count("\n") + 1, 13)
    for read in (lambda s: s, lambda s: pickle.loads(pickle.dumps(s)), copy.deepcopy, str, hash, repr):
        fresh = json_ast.read_json_ast(text, "model.json").trait_spans_of(owner)[key]
        assert read(fresh) == read(expected)
    assert span == expected and not span < expected and sorted([expected, span]) == [span, span]
    other = doc.span_of("a#S$x")
    assert other < span and other != span


def test_a_traits_object_keeps_one_deferred_map_which_an_owner_of_its_own_traits_shares(monkeypatch):
    """A JSON AST document keeps the spans of each traits object as one ``DeferredSpans``
    (a span made when read, then kept; pickled as a dict of found spans); a shape or member
    whose traits are all its own shares it, one with traits applied or inherited gets a
    dict, and a transform that drops a trait from it gets a dict without that trait."""
    import pickle

    from smithy2cfn.diagnostics import DeferredSpans, Diagnostics
    from smithy2cfn.load import load_texts
    from smithy2cfn.transform.ops import copy_model, remove_trait_applications

    doc = dict(_BASE, shapes=dict(_BASE["shapes"]))
    doc["shapes"]["a#T"] = {"type": "structure", "traits": {"smithy.api#documentation": "T"}, "members": {
        "z": {"target": "smithy.api#String", "traits": {"smithy.api#documentation": "z", "smithy.api#required": {}}},
        "w": {"target": "smithy.api#String"}}}
    doc["shapes"]["a#T$z"] = {"type": "apply", "traits": {"smithy.api#deprecated": {}}}
    text = json.dumps(doc, indent=2)
    careful = _read(text, True, monkeypatch)[4]
    spans = json_ast.read_json_ast(text, "model.json").trait_spans_of("a#S$x")
    assert isinstance(spans, DeferredSpans) and list(spans) == ["smithy.api#required", "smithy.api#documentation"]
    assert len(spans) == 2 and "smithy.api#required" in spans and "smithy.api#length" not in spans
    assert spans.get("smithy.api#length") is None and spans.get("smithy.api#length", 7) == 7
    with pytest.raises(KeyError):
        spans["smithy.api#length"]
    assert spans["smithy.api#documentation"] is spans.get("smithy.api#documentation")  # (made once)
    assert spans == careful["a#S$x"] and dict(spans) == dict(careful["a#S$x"])
    copied = pickle.loads(pickle.dumps(spans))
    assert type(copied) is dict and copied == dict(careful["a#S$x"])

    diags = Diagnostics()
    model = load_texts([("model.json", text)], diags)
    t = model.shapes["a#T"]
    assert isinstance(t.trait_spans, DeferredSpans) and t.trait_spans == careful["a#T"]
    assert isinstance(t.members["w"].trait_spans, dict) and not t.members["w"].trait_spans
    z = t.members["z"]  # (a trait applied: a dict, the applied trait's span from its statement)
    assert type(z.trait_spans) is dict and set(z.trait_spans) == set(z.traits) == {
        "smithy.api#documentation", "smithy.api#required", "smithy.api#deprecated"}
    s = model.shapes["a#S"]  # (a mixin: the members' spans made for them)
    assert type(s.trait_spans) is dict and s.members["x"].trait_spans == careful["a#S$x"]
    draft = copy_model(model)
    remove_trait_applications(draft, {"smithy.api#documentation"})
    changed = draft.finish().shapes["a#T"]
    assert changed.trait_spans == {} and isinstance(model.shapes["a#T"].trait_spans, DeferredSpans)
    assert len(model.shapes["a#T"].trait_spans) == 1  # (the model's own shape untouched)


def _member_spans(model) -> dict:
    """Every member's span and trait spans (as dicts), by member ID."""
    return {m.id: (m.span, dict(m.trait_spans)) for s in model.shapes.values() for m in s.members.values()}


#: Large JSON AST models (AWS models of the conformance suites), or a skip when ``../shared`` is absent.
_LARGE = [pytest.param(p, id=str(p.relative_to(p.parents[2]))) for p in FILES if p.stat().st_size > 20_000][:6] or [
    pytest.param(None, marks=pytest.mark.skip(reason="../shared is absent: no large JSON AST model to read"))]


@pytest.mark.parametrize("path", _LARGE)
def test_members_made_from_a_json_ast_file_get_the_spans_of_the_checked_path_when_read(path, monkeypatch):
    """A member written as it should be in a ``members`` object has no span kept by its
    document: the loader gives it what makes its span and trait spans (``Member``'s
    ``deferred``), made when first read; they are those the checked path (every member
    through ``_Reader.member``, its spans kept) builds the member with. Fails when a member's
    deferred span points at another key, when its trait spans lose a trait, or when the
    spans are made before they are read."""
    import pickle

    from smithy2cfn.diagnostics import Diagnostics
    from smithy2cfn.load import load_texts

    text = path.read_text(encoding="utf-8")
    model = load_texts([("model.json", text)], Diagnostics())
    waiting = [m for s in model.shapes.values() for m in s.members.values() if m._deferred is not None]
    assert waiting, "no member was deferred"
    assert all(m._span is None for m in waiting)
    with monkeypatch.context() as m:
        m.setattr(json_ast._Reader, "as_written", lambda *args: False)
        checked = load_texts([("model.json", text)], Diagnostics())
    assert not [m for s in checked.shapes.values() for m in s.members.values() if m._deferred is not None]
    assert _member_spans(model) == _member_spans(checked)
    member = waiting[0]
    copied = pickle.loads(pickle.dumps(member))
    assert copied == member and copied._deferred is None and copied.span == member.span


def test_a_member_written_as_it_should_be_has_its_spans_made_when_read(monkeypatch):
    """The spans a JSON AST document does not keep (``SourceDocument.span_of``,
    ``trait_spans_of``: a member of a ``members`` object whose target and trait IDs the
    reader has seen before) and those of the member built from it are the checked path's, at
    the member's key and at each trait's key; a list's member and a member the reader had to
    check keep theirs."""
    from smithy2cfn.diagnostics import Diagnostics
    from smithy2cfn.load import load_texts

    doc_json = {"smithy": "2.0", "shapes": {
        "a#A": {"type": "structure", "members": {"p": {"target": "a#L", "traits": {"smithy.api#documentation": "p"}}}},
        "a#L": {"type": "list", "member": {"target": "smithy.api#Integer"}},
        "a#B": {"type": "structure", "members": {
            "q": {"target": "a#L", "traits": {"smithy.api#documentation": "q"}}, "r": {"target": "a#L"}}}}}
    text = json.dumps(doc_json, indent=2)
    doc = json_ast.read_json_ast(text, "model.json")
    assert "a#A$p" in doc.spans and "a#L$member" in doc.spans  # (checked: the trait ID not seen before)
    assert "a#B$q" not in doc.spans and "a#B$q" not in doc.trait_spans and "a#B$r" not in doc.spans
    assert doc.span_of("a#B$nope") is None and doc.trait_spans_of("a#B$nope") is None
    assert doc.trait_spans_of("a#B$r") is None
    span = doc.span_of("a#B$q")
    assert (span.line, span.column) == (text[:text.index('"q"')].count("\n") + 1, 9)
    careful = _read(text, True, monkeypatch)
    assert dict(doc.trait_spans_of("a#B$q")) == careful[4]["a#B$q"] and span == careful[3]["a#B$q"]
    model = load_texts([("model.json", text)], Diagnostics())
    member = model.shapes["a#B"].members["q"]
    assert member._deferred is not None and member._span is None
    assert member.span == careful[3]["a#B$q"] and dict(member.trait_spans) == careful[4]["a#B$q"]
    assert model.shapes["a#A"].members["p"]._deferred is None
