"""Large models stay correct, and the work they cause grows linearly (issue 6, cost part).

For each stress shape of ``benchmarks/bench_scaling.py`` (which measures the time and
memory), a model of moderate size is built and its RESULT is checked: members inherited
through a long mixin chain, identifiers inherited down a deep chain of child resources,
one schema per sibling resource, a 1 MB string kept intact. Where it pins a fix, the work
is counted (calls of a traversal, bytes allocated by the tokenizer), never timed.
"""

from __future__ import annotations

import collections
import gc
import json
import re
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import smithy2cfn
from smithy2cfn import api
from smithy2cfn.derive import CfnResourceIndex
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.load.loader import load_texts
from smithy2cfn.model import json_ast
from smithy2cfn.model.knowledge import BottomUpIndex
from smithy2cfn.model.relationships import NeighborIndex
from smithy2cfn.parse import strings, syntax
from smithy2cfn.parse.syntax import get_parser, tokenize
from smithy2cfn.validation import validate_model

HEADER = ('$version: "2"\n\nmetadata suppressions = [{ id: "UnstableTrait", namespace: "bench" }]\n\n'
          "namespace bench\n\nuse aws.cloudformation#cfnResource\n\n")
#: Reference mode: these tests are about size, and the registry-ready 60 KiB budget would cut
#: the long strings they check.
SETTINGS = {"service": "bench#Svc", "organizationName": "Bench", "compatibility": "reference"}


def _write(tmp_path, text: str):
    path = tmp_path / "model.smithy"
    path.write_text(text, encoding="utf-8")
    return path


def _build(tmp_path, text: str) -> smithy2cfn.BuildResult:
    result = smithy2cfn.build([_write(tmp_path, text)], None, SETTINGS)
    assert result.ok, [d.format_text() for d in result.diagnostics if d.is_error][:3]
    return result


# --------------------------------------------------------------------------- mixin chain

def mixin_chain(levels: int) -> str:
    """``M1 with [M0]``... each level documents the inherited member ``name`` and adds
    nothing else; the last mixin is the create input of a resource."""
    out = [HEADER, 'service Svc { version: "1", resources: [Thing] }\n',
           "@cfnResource\nresource Thing {\n    identifiers: { thingId: String }\n"
           "    create: CreateThing\n    read: GetThing\n}\n",
           "operation CreateThing { input: CreateThingInput, output: CreateThingOutput }\n",
           f"@input\nstructure CreateThingInput with [M{levels - 1}] {{}}\n",
           "@output\nstructure CreateThingOutput { @required thingId: String }\n",
           "@readonly\noperation GetThing {\n    input := { @required thingId: String }\n"
           "    output := { name: String, size: Integer }\n}\n",
           "@mixin\nstructure M0 {\n    name: String\n    @range(min: 1)\n    size: Integer\n}\n"]
    for i in range(1, levels):
        out.append(f'@mixin\nstructure M{i} with [M{i - 1}] {{\n    @documentation("level {i}")\n    $name\n}}\n')
    return "".join(out)


def test_mixin_chain_of_300_inherits_members_and_traits(tmp_path):
    levels = 300
    loaded = api.load([_write(tmp_path, mixin_chain(levels))])
    assert loaded.ok
    model = loaded.model
    leaf = model.shapes["bench#CreateThingInput"]
    assert list(leaf.members) == ["name", "size"]
    # the member traits come from the nearest mixin, all the way down the chain
    assert leaf.members["name"].traits["smithy.api#documentation"] == f"level {levels - 1}"
    assert leaf.members["size"].traits["smithy.api#range"] == {"min": 1}
    assert leaf.members["size"].from_mixin == "bench#M0"
    for i in (1, levels // 2, levels - 1):
        assert model.shapes[f"bench#M{i}"].members["name"].traits["smithy.api#documentation"] == f"level {i}"
    assert api.validate(loaded).ok
    converted = api.convert(model, SETTINGS)
    assert converted.ok, [d.format_text() for d in converted.diagnostics if d.is_error][:3]
    schema = converted.schemas["bench-svc-thing.json"]
    assert schema["properties"]["Name"] == {"type": "string", "description": f"level {levels - 1}"}
    assert schema["properties"]["Size"]["minimum"] == 1


# --------------------------------------------------------------------------- child chain

def child_chain(levels: int) -> str:
    """``R0 { resources: [R1] }``... ``R<k>`` has identifiers ``id0``..``id<k>``."""
    out = [HEADER, 'service Svc { version: "1", resources: [R0] }\nstring Id\n']
    for k in range(levels):
        ids = ", ".join(f"id{j}: Id" for j in range(k + 1))
        child = f"    resources: [R{k + 1}]\n" if k + 1 < levels else ""
        parent_ids = "".join(f"@required $id{j} " for j in range(k))
        out.append(f"@cfnResource\nresource R{k} {{\n    identifiers: {{ {ids} }}\n"
                   f"    properties: {{ name{k}: String }}\n    create: Create{k}\n    read: Get{k}\n{child}}}\n"
                   f"operation Create{k} {{\n    input := for R{k} {{ {parent_ids}$name{k} }}\n    output := {{}}\n}}\n"
                   f"@readonly\noperation Get{k} {{\n    input := for R{k} {{ {parent_ids}@required $id{k} }}\n"
                   f"    output := for R{k} {{ $name{k} }}\n}}\n")
    return "".join(out)


def test_child_chain_of_60_inherits_identifiers(tmp_path):
    levels = 60
    result = _build(tmp_path, child_chain(levels))
    assert len(result.schemas) == levels
    for k in (0, 1, levels // 2, levels - 1):
        schema = result.schemas[f"bench-svc-r{k}.json"]
        assert sorted(schema["primaryIdentifier"]) == sorted(f"/properties/Id{j}" for j in range(k + 1))
        # identifiers inherited from the parents are create-only; the resource's own is read-only
        assert schema["readOnlyProperties"] == [f"/properties/Id{k}"]
        assert schema["createOnlyProperties"] == sorted(
            [f"/properties/Id{j}" for j in range(k)] + [f"/properties/Name{k}"])
        assert set(schema["properties"]) == {f"Id{j}" for j in range(k + 1)} | {f"Name{k}"}


def test_the_hierarchy_is_walked_once_for_all_resources(monkeypatch):
    """Deriving every resource of a deep hierarchy reads each resource's relationships a
    bounded number of times, not once per descendant (which made a 500-level chain
    quadratic); parents come from the one BottomUpIndex walk."""
    model = load_texts([("m.smithy", child_chain(40))], Diagnostics())
    calls: collections.Counter[str] = collections.Counter()
    real = NeighborIndex.neighbors

    def counting(self, shape_id):
        calls[shape_id] += 1
        return real(self, shape_id)

    monkeypatch.setattr(NeighborIndex, "neighbors", counting)
    index = model.knowledge(CfnResourceIndex)
    assert all(index.get(f"bench#R{k}") is not None for k in range(40))
    assert max(calls[f"bench#R{k}"] for k in range(40)) <= 3
    bottom = model.knowledge(BottomUpIndex)
    assert bottom.resource_binding("bench#Svc", "bench#R7") == "bench#R6"
    assert bottom.resource_binding("bench#Svc", "bench#R0") is None


# --------------------------------------------------------------------------- siblings

def siblings(count: int) -> str:
    names = ", ".join(f"R{k}" for k in range(count))
    out = [HEADER, f'service Svc {{ version: "1", resources: [{names}] }}\n']
    for k in range(count):
        out.append(f"@cfnResource\nresource R{k} {{\n    identifiers: {{ id{k}: String }}\n"
                   f"    properties: {{ name{k}: String }}\n    create: Create{k}\n    read: Get{k}\n}}\n"
                   f"operation Create{k} {{ input := {{ name{k}: String }}, output := {{ @required id{k}: String }} }}\n"
                   f"@readonly\noperation Get{k} {{\n    input := {{ @required id{k}: String }}\n"
                   f"    output := {{ @required id{k}: String, name{k}: String }}\n}}\n")
    return "".join(out)


def test_100_sibling_resources_give_100_schemas(tmp_path):
    result = _build(tmp_path, siblings(100))
    assert sorted(result.schemas) == sorted(f"bench-svc-r{k}.json" for k in range(100))
    for k in (0, 57, 99):
        schema = result.schemas[f"bench-svc-r{k}.json"]
        assert schema["primaryIdentifier"] == [f"/properties/Id{k}"]
        assert set(schema["properties"]) == {f"Id{k}", f"Name{k}"}


def test_containment_cycles_report_the_resources_on_the_cycle_only():
    text = ('$version: "2"\nnamespace bench\n'
            "resource Outer { resources: [A] }\n"
            "resource A { resources: [B] }\nresource B { resources: [A] }\n"
            "resource Self { resources: [Self] }\nresource Fine { resources: [Leaf] }\nresource Leaf {}\n")
    model = load_texts([("m.smithy", text)], Diagnostics())
    found = sorted(d.shape_id for d in validate_model(model) if d.code == "S3016")
    # the reference reports the first resource its walk from each resource meets twice: A
    # from Outer and from A, B from B, Self from Self (not Outer, Fine or Leaf)
    assert found == ["bench#A", "bench#A", "bench#B", "bench#Self"]


# --------------------------------------------------------------------------- long strings

LINE = 'Lorem ipsum dolor sit amet, \\"quoted\\" and caf\u00e9 \u2014 consectetur adipiscing elit.'
DECODED_LINE = LINE.replace('\\"', '"')


def test_a_1mb_text_block_is_kept_intact(tmp_path):
    lines = 1_000_000 // len(LINE)
    body = "".join(f"    {LINE}\n" for _ in range(lines))
    text = (HEADER + 'service Svc { version: "1", resources: [Thing] }\n'
            + f'@documentation("""\n{body}    """)\n'
            + "@cfnResource\nresource Thing {\n    identifiers: { thingId: String }\n    read: GetThing\n}\n"
            + "@readonly\noperation GetThing {\n    input := { @required thingId: String }\n"
            + "    output := { @required thingId: String, name: String }\n}\n")
    result = _build(tmp_path, text)
    assert result.schemas["bench-svc-thing.json"]["description"] == "\n".join([DECODED_LINE] * lines) + "\n"


def test_a_1mb_quoted_string_with_escapes_is_kept_intact(tmp_path):
    chunk = 'caf\\u00e9 \\"q\\" \\\\ tab\\t \u2014 x\\n'
    count = 1_000_000 // len(chunk)
    text = (HEADER + 'service Svc { version: "1", resources: [Thing] }\n'
            + f'@cfnResource\n@documentation("{chunk * count}")\n'
            + "resource Thing {\n    identifiers: { thingId: String }\n    read: GetThing\n}\n"
            + "@readonly\noperation GetThing {\n    input := { @required thingId: String }\n"
            + "    output := { @required thingId: String, name: String }\n}\n")
    result = _build(tmp_path, text)
    assert result.schemas["bench-svc-thing.json"]["description"] == 'caf\u00e9 "q" \\ tab\t \u2014 x\n' * count


def test_tokenizing_a_long_string_does_not_allocate_per_character():
    """Python's regex engine kept ~120 bytes of backtracking state per character of a string
    literal (1.25 GB for 4 MB); now a string costs about its own size (the token's copy)."""
    body = ("x" * 60 + '\\"' + "y" * 17 + "\n") * 12_500  # 1 MB, an escape on every line
    for literal in (f'"""\n{body}"""', f'"{body}"'):
        text = f"namespace a\n@documentation({literal})\nstring S\n"
        get_parser()
        tracemalloc.start()
        try:
            tokens, _, problems = tokenize(text)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert not problems and any(len(value) == len(literal) for value in tokens.values)
        assert peak < 8 * len(literal), peak


def _string_patterns() -> dict[str, tuple[re.Pattern, list[re.Pattern]]]:
    """For each string terminal: the grammar's regex, and the tokenizer's (unrolled, and
    possessive where Python has it) with the unrolled one alone (Python 3.10)."""
    grammar = get_parser().terminal_regexes
    return {name: (re.compile(grammar[name]), [re.compile(syntax._tokenizer_regex(name, grammar[name])),
                                               re.compile(unrolled)])
            for name, unrolled in syntax._STRING_REGEXES.items()}


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='"\\a\n ', max_size=40))
def test_string_terminals_match_what_the_grammar_says(tail):
    for name, (grammar, patterns) in _string_patterns().items():
        for text in ('"""' + tail, '"' + tail, tail):
            expected = grammar.match(text)
            for pattern in patterns:
                got = pattern.match(text)
                assert (got and got.end()) == (expected and expected.end()), (name, pattern.pattern, text)


def _decode_per_character(body: str) -> tuple[str, str | None]:
    """The escape decoding as first written: one character at a time (the reference)."""
    out, problem, i, n = [], None, 0, len(body)
    while i < n:
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1] if i + 1 < n else ""
        if nxt and nxt in strings._SIMPLE_ESCAPES:
            out.append(strings._SIMPLE_ESCAPES[nxt])
            i += 2
        elif nxt == "\n":
            i += 2
        elif nxt == "u":
            digits = body[i + 2:i + 6]
            bad = next((c for c in digits if c not in strings._HEX), None)
            if len(digits) < 4:
                problem = problem or "invalid unclosed unicode escape in string"
                out.append(body[i:i + 2])
                i += 2
            elif bad is not None:
                problem = problem or f"invalid unicode escape character '{bad}' in string"
                out.append(body[i:i + 2])
                i += 2
            else:
                out.append(chr(int(digits, 16)))
                i += 6
        else:
            problem = problem or f"invalid escape '\\{nxt if nxt else 'end of string'}' in string"
            out.append(ch)
            i += 1
    return strings._fix_surrogates("".join(out)), problem


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "\u2014", "\\", "\\n", '\\"', "\\u00e9", "\\ud83d", "\\ude00", "\\uzz",
                                 "\\u12", "\\q", "\n", "\\\n", "b"]), max_size=20).map("".join))
def test_escape_decoding_is_unchanged(body):
    assert strings.decode_escapes(body) == _decode_per_character(body)


@pytest.mark.parametrize("body", ["\\ud83d\\ude00", "\\ud83d", "x\\ude00y"])
def test_surrogate_escapes(body):
    assert strings.decode_escapes(body) == _decode_per_character(body)


def test_a_1mb_json_ast_documentation_is_kept_intact(tmp_path):
    doc = 'caf\u00e9 \u2014 "quoted" \\ back\n' * (1_000_000 // 28)
    model = {"smithy": "2.0", "shapes": {
        "bench#Svc": {"type": "service", "version": "1", "resources": [{"target": "bench#Thing"}]},
        "bench#Thing": {"type": "resource", "identifiers": {"thingId": {"target": "smithy.api#String"}},
                        "read": {"target": "bench#GetThing"},
                        "traits": {"aws.cloudformation#cfnResource": {}, "smithy.api#documentation": doc}},
        "bench#GetThing": {"type": "operation", "input": {"target": "bench#GetIn"},
                           "output": {"target": "bench#GetIn"}, "traits": {"smithy.api#readonly": {}}},
        "bench#GetIn": {"type": "structure", "members": {"thingId": {
            "target": "smithy.api#String", "traits": {"smithy.api#required": {}}}}},
    }}
    path = tmp_path / "model.json"
    path.write_text(json.dumps(model, indent=2, ensure_ascii=False), encoding="utf-8")
    result = smithy2cfn.build([path], None, SETTINGS)
    assert result.ok, [d.format_text() for d in result.diagnostics if d.is_error][:3]
    assert result.schemas["bench-svc-thing.json"]["description"] == doc


def test_json_ast_shape_positions_come_from_keys_only():
    """Shapes are located at their keys (line and column), also after a string value made
    of escaped quotes and key-like text, which is not taken for a key."""
    text = ('{\n  "smithy": "2.0",\n  "shapes": {\n    "a#B": {"type": "string", "traits": '
            '{"smithy.api#documentation": "x\\"a#C\\": \\"a#B\\":"}},\n'
            '    "a#C": {"type": "string"}}}')
    doc = json_ast.read_json_ast(text, "m.json")
    assert not doc.diagnostics
    assert {k: (v.line, v.column) for k, v in doc.spans.items()} == {"a#B": (4, 5), "a#C": (5, 5)}
    assert {(owner, k): (v.line, v.column) for owner, spans in doc.trait_spans.items() for k, v in spans.items()} \
        == {("a#B", "smithy.api#documentation"): (4, 42)}


def test_loading_pauses_the_garbage_collector():
    """No cyclic garbage collection runs while a model loads (each one walked every parse
    tree object alive), only the young generation's once it is re-enabled; the collector's
    state is restored afterwards."""
    sources, diags = [("m.smithy", siblings(60))], Diagnostics()
    assert gc.isenabled()
    gc.collect()  # so that the few allocations below cannot trigger a collection themselves
    before = [s["collections"] for s in gc.get_stats()]
    model = load_texts(sources, diags)
    after = [s["collections"] for s in gc.get_stats()]
    assert after[0] - before[0] <= 1 and after[1:] == before[1:], (before, after)
    assert len([s for s in model.shapes.values() if s.type == "resource"]) == 60
    assert gc.isenabled()
    gc.disable()
    try:
        load_texts([("m.smithy", siblings(2))], Diagnostics())
        assert not gc.isenabled()
    finally:
        gc.enable()
