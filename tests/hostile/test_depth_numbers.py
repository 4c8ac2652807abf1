"""Hostile depth and numbers after a model is loaded (issue 6): validate, derive, emit.

Every model here is generated in the test (IDL text or JSON AST), under one
``@cfnResource`` resource. For each class of input: one that used to raise (or write
``NaN``/``Infinity``, or skip a check) and now gives a located ERROR with nothing written,
and a control just inside the limit that converts cleanly.

Limits (README "Limits"): lists nested at most ``MAX_LIST_NESTING`` (64) deep, selector
functions ``MAX_SELECTOR_NESTING`` (50), regex groups ``MAX_PATTERN_NESTING`` (100),
setting values ``MAX_NODE_DEPTH`` (256), a written document ``MAX_DOCUMENT_DEPTH`` (400).
Shape graphs (structures, maps, unions, resources) and trait values are walked
iteratively and have no depth limit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostics, Severity
from smithy2cfn.emit.jsonschema import MAX_LIST_NESTING
from smithy2cfn.emit.mappers import CfnMapper
from smithy2cfn.emit.metaschema import _is_regex, check_schema
from smithy2cfn.languages.selector import MAX_SELECTOR_NESTING, SelectorTooDeep, parse_selector
from smithy2cfn.load import load_texts
from smithy2cfn.model.nodes import canonical, describe, scan
from smithy2cfn.validation import validate_model

#: Reference mode: deep models make schemas far over the registry-ready 60 KiB budget.
ORG = {"organizationName": "Ex", "compatibility": "reference"}
HEAD_LINES = 15  # lines of HEAD: shapes appended after it start on line 16
SHAPE_LINE = HEAD_LINES + 2  # where a shape after one trait line is (its span)

HEAD = """$version: "2"
namespace ex
use aws.cloudformation#cfnResource
service Svc {{ version: "1", resources: [Thing] }}
@cfnResource
resource Thing {{
    identifiers: {{ id: String }}
    properties: {{ p: {ptype} }}
    read: GetThing
}}
@readonly
operation GetThing {{
    input := {{ @required id: String }}
    output := {{ @required id: String, p: {ptype}{pdefault} }}
}}
"""


def idl(ptype: str, shapes: str = "", pdefault: str = "") -> str:
    """A one-resource service whose property ``p`` targets ``ptype``; ``shapes`` follow."""
    text = HEAD.format(ptype=ptype, pdefault=pdefault) + shapes
    assert text.count("\n") == HEAD_LINES + shapes.count("\n")
    return text


def run(sources: list[tuple[str, str]], settings_: dict | None = None, *, validate: bool = True):
    """Load, (validate), convert and render like :func:`api.build`; returns
    ``(rendered texts, sorted diagnostics)``. Rendering happens only without errors."""
    diags = Diagnostics()
    model = load_texts(sources, diags)
    schemas: dict = {}
    if validate and not diags.has_errors:
        api.validate(model, diags)
    if not diags.has_errors:
        converted = api.convert(model, ORG if settings_ is None else settings_)
        diags.extend(converted.diagnostics)
        schemas = converted.schemas
    texts = {k: api.render_schema(v) for k, v in schemas.items()}  # none when there are errors
    return texts, diags.sorted()


def _reject_constant(name: str):
    raise ValueError(f"not strict JSON: {name}")


def strict(text: str):
    """Parse ``text`` as RFC 8259 JSON (``NaN``/``Infinity`` rejected)."""
    return json.loads(text, parse_constant=_reject_constant)


def errors(diags) -> list:
    return [d for d in diags if d.is_error]


def codes(diags) -> set[str]:
    return {d.code for d in errors(diags)}


def located(d) -> bool:
    return d.span is not None and bool(d.span.path)


def only_schema(texts: dict) -> dict:
    (text,) = texts.values()
    return strict(text)


def deep_list(n: int, leaf=1):
    v = leaf
    for _ in range(n):
        v = [v]
    return v


def chain(kind: str, n: int, leaf: str = "String", prefix: str = "S") -> str:
    """IDL for ``S0 → S1 → ... → S(n-1) → leaf`` through ``kind`` shapes (or a mix)."""
    kinds = ["structure", "list", "map", "union"]
    out = []
    for i in range(n):
        nxt = f"{prefix}{i + 1}" if i < n - 1 else leaf
        k = kinds[i % 4] if kind == "mixed" else kind
        body = {"structure": f"a: {nxt}", "union": f"a: {nxt}", "list": f"member: {nxt}",
                "map": f"key: String, value: {nxt}"}[k]
        out.append(f"{k} {prefix}{i} {{ {body} }}")
    return "\n".join(out) + "\n"


def json_ast_chain(n: int) -> str:
    """The same service as :func:`idl`, as a JSON AST, with ``n`` nested structures."""
    string = {"target": "smithy.api#String"}
    req = {"target": "smithy.api#String", "traits": {"smithy.api#required": {}}}
    shapes = {
        "ex#Svc": {"type": "service", "version": "1", "resources": [{"target": "ex#Thing"}]},
        "ex#Thing": {"type": "resource", "identifiers": {"id": string}, "properties": {"p": {"target": "ex#S0"}},
                     "read": {"target": "ex#GetThing"}, "traits": {"aws.cloudformation#cfnResource": {}}},
        "ex#GetThing": {"type": "operation", "input": {"target": "ex#GetThingInput"},
                        "output": {"target": "ex#GetThingOutput"}, "traits": {"smithy.api#readonly": {}}},
        "ex#GetThingInput": {"type": "structure", "members": {"id": req}, "traits": {"smithy.api#input": {}}},
        "ex#GetThingOutput": {"type": "structure", "members": {"id": req, "p": {"target": "ex#S0"}},
                              "traits": {"smithy.api#output": {}}},
    }
    for i in range(n):
        nxt = f"ex#S{i + 1}" if i < n - 1 else "smithy.api#String"
        shapes[f"ex#S{i}"] = {"type": "structure", "members": {"a": {"target": nxt}}}
    return json.dumps({"smithy": "2.0", "shapes": shapes})


# ------------------------------------------------------------------------------ numbers


def test_length_bound_beyond_a_double_is_a_located_error():
    # used to raise OverflowError (int(inf)) in the emitter
    text = idl("S", "@length(min: 1e400)\nstring S\n")
    texts, diags = run([("m.smithy", text)])
    (d,) = [d for d in diags if d.code == "S3003"]  # the validator: length.min is a long
    # 1e400 is read as an exact number (BigNumber), judged against length.min's type; the
    # event is at the trait (the line before the shape), where the reference's value starts
    assert d.span.line == SHAPE_LINE - 1 and "401 digits" in d.message and texts == {}
    # the library path without validation: the emitter reports it at the shape
    texts, diags = run([("m.smithy", text)], validate=False)
    (d,) = [d for d in diags if d.code == "S4104"]
    assert d.is_error and d.span.line == SHAPE_LINE and d.shape_id == "ex#S" and texts == {}


@pytest.mark.parametrize("bound", ["1.5", '"3"', "true"])
def test_length_bound_that_is_not_a_whole_number_is_s4104(bound):
    texts, diags = run([("m.smithy", idl("S", f"@length(max: {bound})\nstring S\n"))], validate=False)
    assert "S4104" in codes(diags) and texts == {}


def test_length_bound_control():
    texts, diags = run([("m.smithy", idl("S", "@length(min: 1, max: 1e3)\nstring S\n"))])
    assert errors(diags) == []
    assert only_schema(texts)["properties"]["P"] == {"type": "string", "maxLength": 1000, "minLength": 1}


def test_default_beyond_a_double_is_not_written_as_infinity(tmp_path: Path):
    # used to write "default": Infinity with exit 0
    # (a member targeting a shape with a default repeats it: DefaultTraitValidator)
    (tmp_path / "m.smithy").write_text(idl("S", "@default(1e400)\ndouble S\n", pdefault=" = 1e400"),
                                       encoding="utf-8")
    result = api.build([tmp_path / "m.smithy"], tmp_path / "out", ORG)
    (d,) = [d for d in result.diagnostics if d.code == "S4105" and d.span.line == SHAPE_LINE]  # (and the member)
    assert d.is_error and "beyond the range of a double" in d.message
    assert result.written == [] and not (tmp_path / "out").exists()


def test_member_default_beyond_a_double_is_located_at_the_member():
    texts, diags = run([("m.smithy", idl("S", "double S\n", pdefault=" = 1e400"))])
    (d,) = [d for d in diags if d.code == "S4105"]
    assert d.span.line == 14 and "property 'p' of ex#Thing" in d.message and texts == {}


def test_default_control():
    texts, diags = run([("m.smithy", idl("S", "@default(1.5)\ndouble S\n", pdefault=" = 1.5"))])
    assert errors(diags) == []
    assert only_schema(texts)["properties"]["P"] == {"type": "number", "default": 1.5}


@pytest.mark.parametrize("value, words", [
    (float("nan"), "NaN"),
    (float("inf"), "Infinity"),
    (10**5000, "5001 digits"),
    ({1, 2}, "set"),
    ({(1, 2): 3}, "key"),
    ({"a": [1, float("-inf")]}, "/a/1"),
    (deep_list(5000), "nested more than 256"),
], ids=["nan", "inf", "huge-int", "set", "tuple-key", "nested-inf", "5000-deep"])
def test_json_add_value_that_is_not_strict_json_is_a_settings_error(tmp_path: Path, value, words):
    # used to write NaN/Infinity (or raise) through the library API
    (tmp_path / "m.smithy").write_text(idl("String"), encoding="utf-8")
    settings_ = {**ORG, "jsonAdd": {"ex#Thing": {"/properties/P/default": value}}}
    result = api.build([tmp_path / "m.smithy"], tmp_path / "out", settings_, settings_source="build.json")
    (d,) = [d for d in result.diagnostics if d.code == "S5001"]  # the settings reader's check
    assert d.is_error and d.span.path == "build.json" and words in d.message
    assert result.written == []


def test_json_add_and_extensions_control():
    settings_ = {**ORG, "jsonAdd": {"ex#Thing": {"/properties/P/default": [1.5, {"a": None}]}},
                 "schemaDocumentExtensions": {"sourceUrl": "https://example.com"}}
    texts, diags = run([("m.smithy", idl("String"))], settings_)
    assert errors(diags) == []
    schema = only_schema(texts)
    assert schema["properties"]["P"]["default"] == [1.5, {"a": None}]
    assert schema["sourceUrl"] == "https://example.com"


def test_schema_document_extension_nan_is_a_settings_error():
    settings_ = {**ORG, "schemaDocumentExtensions": {"x": float("nan")}}
    texts, diags = run([("m.smithy", idl("String"))], settings_)
    (d,) = [d for d in diags if d.code == "S5001"]
    assert d.span.path == "<settings>" and texts == {}


def test_render_schema_is_strict():
    with pytest.raises(ValueError):
        api.render_schema({"a": float("nan")})
    assert api.render_schema({"a": 1.5}) == '{\n  "a": 1.5\n}\n'


def test_check_schema_reports_values_that_are_not_json():
    found = check_schema({"typeName": "A::B::C", "x": [float("inf")], "y": {1: 2}}, "f.json")
    assert [d.code for d in found] == ["S4108", "S4108"]
    assert "/x/0" in found[0].message and "key" in found[1].message


def test_validator_numbers():
    # NaN (possible through the library API) and huge integers (str() of an int over 4,300
    # digits raises ValueError) give messages, not exceptions.
    diags = Diagnostics()
    model = load_texts([("m.smithy", idl("String", "@trait\nlong big\n@trait\ndouble dbl\n"
                                                   "@big(1)\n@dbl(1)\nstring T\n"))], diags)
    assert errors(diags) == []
    model.shapes["ex#T"].traits["ex#big"] = 10**5000
    model.shapes["ex#T"].traits["ex#dbl"] = float("nan")
    out = validate_model(model)
    msgs = sorted(d.message for d in out if d.code == "S3003")
    assert len(msgs) == 2 and "about 5001 digits" in msgs[0] and "NaN" in msgs[1]
    # control: a literal beyond the range of a double is a valid bigDecimal (Smithy keeps
    # it as a BigDecimal), and a bool where a number is expected is a type error
    _, diags = run([("m.smithy", idl("String", "@trait\nbigDecimal bd\n@trait\nlong lg\n"
                                                "@bd(2e308)\n@lg(true)\nstring T\n"))])
    assert [d.message for d in errors(diags)] == [
        "Error validating trait `ex#lg`: Expected number value for long shape, `ex#lg`; found boolean value, `true`"]


def test_describe_and_canonical():
    assert describe(10**5000) == "an integer of about 5001 digits"
    assert describe(float("-inf")) == "-Infinity" and describe(2**62) == str(2**62)
    assert canonical(deep_list(5000)) == canonical(deep_list(5000)) != canonical(deep_list(4999))
    assert canonical({"b": 1, "a": 1.0}) == canonical({"a": 1, "b": 1}) != canonical({"a": True, "b": 1})
    assert canonical(10**5000) != canonical(10**5000 + 1)
    assert scan({"a": [1, "x", None, True]}) == []


# -------------------------------------------------------------------------- shape depth


@pytest.mark.parametrize("kind", ["structure", "map", "union", "mixed"])
def test_a_1000_deep_shape_chain_converts(kind):
    # used to raise RecursionError (derive excluded_members, emit shape_schema/ref)
    n = 1000 if kind != "mixed" else 1000 // 4 * 4
    leaf = "String" if kind != "mixed" else "Integer"
    texts, diags = run([("m.smithy", idl("S0", chain(kind, n, leaf)))])
    assert errors(diags) == []
    schema = only_schema(texts)
    assert len(schema["definitions"]) >= (n if kind != "mixed" else n // 2)


def test_a_1000_deep_structure_chain_as_json_ast_converts():
    texts, diags = run([("m.json", json_ast_chain(1000))])
    assert errors(diags) == []
    assert len(only_schema(texts)["definitions"]) == 1000


def test_lists_nested_beyond_the_limit_are_a_located_error():
    texts, diags = run([("m.smithy", idl("S0", chain("list", 1000)))])
    (d,) = [d for d in diags if d.code == "S4106"]
    assert d.is_error and d.shape_id == "ex#S0" and d.span.line == HEAD_LINES + 1 and texts == {}


def test_lists_nested_to_the_limit_convert():
    texts, diags = run([("m.smithy", idl("S0", chain("list", MAX_LIST_NESTING)))])
    assert errors(diags) == []
    node, levels = only_schema(texts)["properties"]["P"], 0
    while "items" in node:
        node, levels = node["items"], levels + 1
    assert levels == MAX_LIST_NESTING and node == {"type": "string"}


@pytest.mark.parametrize("shapes", [
    "structure S0 { a: L0, b: S1 }\nlist L0 { member: S0 }\nstructure S1 { a: S0 }\n",
    "union S0 { a: S0, b: String, c: M }\nmap M { key: String, value: S0 }\n",
    # a list or map recursive without a structure or union between is rejected (ShapeRecursion)
    "list S0 { member: W }\nstructure W { s: S0 }\n",
    "map S0 { key: String, value: W }\nunion W { s: S0, t: String }\n",
])
def test_cycles_convert(shapes):
    texts, diags = run([("m.smithy", idl("S0", shapes))])
    assert not any(d.code == "S3099" for d in diags)
    assert texts and strict(next(iter(texts.values())))


def test_a_1000_deep_resource_hierarchy_and_topdown_selector():
    # :topdown walks the resource hierarchy (it used to recurse once per resource)
    n = 1000
    res = [f"resource R{i} {{ identifiers: {{ id: String }} {f'resources: [R{i + 1}]' if i < n - 1 else ''} }}"
           for i in range(n)]
    text = ('$version: "2"\nnamespace ex\nservice Svc { version: "1", resources: [R0] }\n'
            '@trait(selector: ":topdown(service)")\nstructure onTree {}\n@onTree\nresource Leaf {}\n'
            + "\n".join(res) + "\n")
    _, diags = run([("m.smithy", text)], {**ORG, "service": "ex#Svc"})
    assert not any(d.code == "S3099" for d in diags)
    assert [d.shape_id for d in diags if d.code == "S3001"] == ["ex#Leaf"]  # not bound: not in the tree


# ------------------------------------------------------------------------- value depth


def _model_with_trait_shapes():
    diags = Diagnostics()
    text = idl("S", "@trait\nstructure myTrait { a: Node, c: LL }\nstructure Node { a: Node, c: LL }\n"
                    "list LL { member: LL }\n"
                    "@trait\n@uniqueItems\nlist uniq { member: LL }\n"
                    "@myTrait\n@uniq([])\n@default([])\nlist S { member: String }\n", pdefault=" = []")
    model = load_texts([("m.smithy", text)], diags)
    assert errors(diags) == []
    return model


def test_5000_deep_trait_values_are_checked_without_recursion():
    # used to stop silently after 64 levels; Python's == and repr recursed on the values
    model = _model_with_trait_shapes()
    deep = {}
    node = deep
    for _ in range(5000):
        node["a"] = {}
        node = node["a"]
    node["c"] = deep_list(3)  # a type error at the very bottom: LL holds lists, not numbers
    traits = model.shapes["ex#S"].traits
    traits["ex#myTrait"] = deep
    traits["ex#uniq"] = [deep_list(5000, []), deep_list(5000, [])]
    traits["smithy.api#default"] = deep_list(5000, "x")
    model.metadata["deep"] = deep_list(5000)
    out = validate_model(model)
    assert not any(d.code == "S3099" for d in out)
    bottom = [d for d in out if d.code == "S3003" and "myTrait" in d.message]
    assert bottom and all(len(d.message) < 400 and "…" in d.message for d in bottom)
    assert any("unique items" in d.message for d in out)
    converted = api.convert(model, ORG)  # the library path: no validation first
    (d,) = [d for d in converted.diagnostics if d.code == "S4105"]
    assert "nested more than 256" in d.message and d.span.line


def test_deep_trait_values_control():
    model = _model_with_trait_shapes()
    model.shapes["ex#S"].traits["ex#uniq"] = [deep_list(200, []), deep_list(199, [])]
    # LL, a list of itself, is the reference's ShapeRecursion error: not what is checked here
    assert [d for d in validate_model(model) if d.is_error and d.event_id != "ShapeRecursion"] == []


# ------------------------------------------------------------------------------ regexes


@pytest.mark.parametrize("pattern, words", [
    ("(" * 1000 + "a" + ")" * 1000, "nested 1000 levels deep"),
    ("a{4294967296}", "repetition"),
])
def test_pattern_beyond_the_limits_is_a_located_error(pattern, words):
    # used to raise RecursionError / OverflowError in the meta-schema format check
    texts, diags = run([("m.smithy", idl("S", f'@pattern("{pattern}")\nstring S\n'))])
    (d,) = [d for d in diags if d.code == "S3020"]
    assert d.is_error and d.span.line == SHAPE_LINE and words in d.message and texts == {}
    assert _is_regex(pattern) is False  # the format check itself never raises


def test_pattern_in_a_trait_shape_beyond_the_limits():
    # the trait value check compiles the trait shape's pattern (used to be an S3099 warning)
    text = idl("String", '@trait\n@pattern("a{4294967296}")\nstring myTrait\n@myTrait("x")\nstring Foo\n')
    _, diags = run([("m.smithy", text)])
    assert codes(diags) == {"S3020"}


def test_pattern_control():
    texts, diags = run([("m.smithy", idl("S", '@pattern("' + "(" * 50 + "a" + ")" * 50 + '")\nstring S\n'))])
    assert errors(diags) == [] and texts
    texts, diags = run([("m.smithy", idl("S", '@pattern("\\\\p{L}+")\nstring S\n'))])  # Java/ECMA only
    assert errors(diags) == [] and texts


# ---------------------------------------------------------------------------- selectors


def _selector_model(selector: str, on: str = "structure Foo {}") -> str:
    return idl("String", f'@trait(selector: "{selector}")\nstring myTrait\n@myTrait("x")\n{on}\n')


def test_a_selector_nested_beyond_the_limit_is_an_error_not_a_skip():
    # used to be RecursionError → an S3099 warning, and the trait's targets went unchecked
    sel = ":not(" * 500 + "string" + ")" * 500
    _, diags = run([("m.smithy", _selector_model(sel))])
    (d,) = [d for d in diags if d.code == "S3009"]
    assert d.is_error and d.shape_id == "ex#myTrait" and d.span.line == SHAPE_LINE
    assert not any(x.code == "S3099" for x in diags)
    with pytest.raises(SelectorTooDeep):
        parse_selector(":test(" * (MAX_SELECTOR_NESTING + 1) + "*" + ")" * (MAX_SELECTOR_NESTING + 1))


def test_selector_control():
    sel = ":not(" * 4 + "string" + ")" * 4  # = :not(string) twice over: strings only
    _, diags = run([("m.smithy", _selector_model(sel))])
    assert [(d.code, d.shape_id) for d in errors(diags)] == [("S3001", "ex#Foo")]
    sel = ":test(" * MAX_SELECTOR_NESTING + "structure" + ")" * MAX_SELECTOR_NESTING
    _, diags = run([("m.smithy", _selector_model(sel))])
    assert errors(diags) == []


def test_an_id_ref_selector_nested_beyond_the_limit_is_an_error():
    sel = ":not(" * 60 + "string" + ")" * 60
    text = idl("String", f'@trait\n@idRef(selector: "{sel}")\nstring myRef\n@myRef("ex#Foo")\nstructure Foo {{}}\n')
    _, diags = run([("m.smithy", text)])
    (d,) = [d for d in diags if d.code == "S3009"]
    assert d.shape_id == "ex#myRef"


# ---------------------------------------------------------------------- crashed mappers


class _Boom(CfnMapper):
    def __init__(self, hook: str) -> None:
        self.hook = hook

    def before(self, context, schema):
        if self.hook == "before":
            raise KeyError("boom")

    def update_node(self, context, node):
        if self.hook == "update_node":
            return None
        return node


@pytest.mark.parametrize("hook, words", [("before", "raised KeyError"), ("update_node", "returned a NoneType")])
def test_a_failing_mapper_is_an_error_naming_it(hook, words):
    diags = Diagnostics()
    model = load_texts([("m.smithy", idl("String"))], diags)
    from smithy2cfn.derive import derive_plan
    from smithy2cfn.emit import emit_schemas
    from smithy2cfn.settings import Settings

    def convert(model, settings, diags, mappers):  # the converter alone: plan and emit
        return emit_schemas(model, derive_plan(model, settings, diags), diags, mappers)

    convert(model, Settings(organization_name="Ex"), diags, mappers=[_Boom(hook)])
    (d,) = [d for d in diags if d.code == "S4109"]
    assert d.is_error and f"_Boom.{hook}" in d.message and words in d.message and d.span.line == 6
    diags = Diagnostics()
    out = convert(model, Settings(organization_name="Ex"), diags, mappers=[_Boom("none")])  # control
    assert errors(diags) == [] and out


def test_a_failing_schema_mapper_is_an_error_naming_it():
    from smithy2cfn.emit.jsonschema import DEFAULT_SCHEMA_MAPPERS, SchemaConverter

    def broken(conv, shape, schema):
        raise ValueError("bad")

    diags = Diagnostics()
    model = load_texts([("m.smithy", idl("S", "string S\n"))], diags)
    from smithy2cfn.settings import Settings

    conv = SchemaConverter(model, Settings(), lambda m: m.name, diags, {"ex#S"},
                           mappers=DEFAULT_SCHEMA_MAPPERS + (broken,))
    assert conv.shape_schema(model.shapes["ex#S"]) == {"type": "string"}
    (d,) = [d for d in diags if d.code == "S4109"]
    assert "broken" in d.message and d.span.line == HEAD_LINES + 1


def test_schema_nested_too_deeply_for_the_meta_schema_check_is_s4108():
    # 200 nested "items" (only jsonAdd or a custom mapper can build this): jsonschema needs
    # ~1,200 frames to report what is wrong in it. (The compiled meta-schema, which needs
    # fewer frames a level, accepts the valid one; only a rejected schema reaches jsonschema.)
    def nested(inner):
        node = inner
        for _ in range(200):
            node = {"type": "array", "items": node}
        return {"typeName": "Ab::Cd::Ef", "description": "d", "properties": {"Id": {"type": "string"}, "P": node},
                "primaryIdentifier": ["/properties/Id"], "additionalProperties": False}

    assert check_schema(nested({"type": "string"}), "f.json") == []
    (d,) = check_schema(nested({"type": "no such type"}), "f.json")
    assert d.code == "S4108" and d.severity == Severity.ERROR and "too deeply" in d.message
    schema = nested({"type": "string"})
    schema["properties"]["P"] = {"type": "no such type"}  # control: the checker still works afterwards
    assert [d.code for d in check_schema(schema, "f.json")] == ["S4201"]


# ----------------------------------------------------------------------- random graphs

SIMPLE = ["String", "Integer", "Timestamp", "Boolean", "Document"]


@st.composite
def shape_graphs(draw) -> tuple[str, int, str]:
    """Random shapes S0..Sn (structures, lists, maps, unions) whose members target other
    generated shapes (cycles included) or simple shapes, plus an optional long chain
    ``C0 → ...`` reached from ``Hook``/``HookList``; returns ``(IDL, chain depth, kind)``."""
    n = draw(st.integers(1, 25))
    kinds = draw(st.lists(st.sampled_from(["structure", "list", "map", "union"]), min_size=n, max_size=n))
    target = st.one_of(st.integers(0, n - 1).map(lambda i: f"S{i}"), st.sampled_from(SIMPLE))
    lines = []
    for i, kind in enumerate(kinds):
        if kind in ("structure", "union"):
            members = draw(st.lists(target, min_size=1, max_size=4))
            body = ", ".join(f"m{j}: {t}" for j, t in enumerate(members))
        elif kind == "list":
            body = f"member: {draw(target)}"
        else:
            body = f"key: String, value: {draw(target)}"
        lines.append(f"{kind} S{i} {{ {body} }}")
    depth = draw(st.sampled_from([0, 0, 10, 70, 300]))
    kind = ""
    if depth:
        kind = draw(st.sampled_from(["structure", "list", "map", "union", "mixed"]))
        lines.append(chain(kind, depth, leaf=draw(target), prefix="C").rstrip("\n"))
        lines.append(f"structure Hook {{ deep: C0, back: S{n - 1} }}")
        lines.append("list HookList { member: Hook }")
    return "\n".join(lines) + "\n", depth, kind


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape_graphs(), st.sampled_from(["S0", "Hook", "HookList"]))
def test_random_deep_graphs_build_or_give_located_errors(graph, root):
    shapes, depth, kind = graph
    if root != "S0" and not depth:
        root = "S0"
    texts, diags = run([("m.smithy", idl(root, shapes))])
    for d in errors(diags):
        assert located(d), d.format_text()
        assert d.code != "S3099", d.format_text()
    for text in texts.values():
        strict(text)
    recursive = any(d.event_id == "ShapeRecursion" for d in diags)  # a list of itself: rejected first
    if kind == "list" and depth > MAX_LIST_NESTING and root != "S0" and not recursive:  # the chain is reached
        assert "S4106" in codes(diags)


# ------------------------------------------------------- trait values of the wrong type

VAULT = Path(__file__).resolve().parents[2] / "examples" / "vault" / "model" / "vault.smithy"
ODD_VALUES = [None, True, 5, 1.5, float("inf"), 10**400, "", "x", [], [5], {}, {"a": 1}, {"name": 5},
              {"property": 3}, {"additionalSchemas": 5}, {"additionalSchemas": [1]}, {"apiConfig": 5},
              {"arnNamespace": 5}, {"cloudFormationName": 5}, {"requiredActions": [5]}, [{"value": 1}]]
ODD_TRAITS = ["aws.cloudformation#cfnResource", "aws.api#taggable", "aws.api#service", "aws.iam#iamAction",
              "aws.iam#requiredActions", "aws.cloudformation#cfnName", "aws.cloudformation#cfnMutability",
              "smithy.api#default", "smithy.api#length", "smithy.api#range", "smithy.api#pattern",
              "smithy.api#enum", "smithy.api#deprecated", "smithy.api#timestampFormat",
              "smithy.api#externalDocumentation", "smithy.api#documentation"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(ODD_TRAITS), st.sampled_from(ODD_VALUES)),
                min_size=1, max_size=4))
@example([(2101, "smithy.api#pattern", [])])  # a list as @pattern, under an @examples value (found at stop 22)
def test_odd_trait_values_never_raise(edits):
    # The validator rejects these; the library's convert() is also safe without it (it used
    # to raise on @taggable(property: 3), additionalSchemas: 5, arnNamespace: 5).
    diags = Diagnostics()
    model = load_texts([("vault.smithy", VAULT.read_text(encoding="utf-8"))], diags)
    nodes = [n for s in model.shapes.values() if s.id not in model.prelude_ids for n in (s, *s.members.values())]
    for i, trait, value in edits:
        nodes[i % len(nodes)].traits[trait] = value
    out = validate_model(model)
    assert not any(d.code == "S3099" for d in out), [d.message for d in out if d.code == "S3099"]
    converted = api.convert(model, {**ORG, "service": "acme.vault#VaultService"})
    assert not any(d.code == "S4109" for d in converted.diagnostics)
    for schema in converted.schemas.values():  # none when there are errors
        strict(api.render_schema(schema))


def test_an_int_enum_value_of_900_digits_is_described():
    # integers up to 1,000 digits are read (more is S1103); messages describe them by size
    doc = json.loads(json_ast_chain(1))
    doc["shapes"]["ex#E"] = {"type": "intEnum", "members": {
        "A": {"target": "smithy.api#Unit", "traits": {"smithy.api#enumValue": 10**899}}}}
    _, diags = run([("m.json", json.dumps(doc))])
    (d,) = [d for d in diags if d.code == "S3033"]
    assert "about 900 digits" in d.message and len(d.message) < 200


@pytest.mark.parametrize("shape, trait, value", [
    ("acme.vault#Vault", "aws.api#taggable", {"property": 3}),
    ("acme.vault#Vault", "aws.api#taggable", 1.5),
    ("acme.vault#Vault", "aws.cloudformation#cfnResource", {"additionalSchemas": 5}),
    ("acme.vault#VaultService", "aws.api#service", {"arnNamespace": 5}),
])
def test_convert_without_validation_survives_odd_trait_values(shape, trait, value):
    diags = Diagnostics()
    model = load_texts([("vault.smithy", VAULT.read_text(encoding="utf-8"))], diags)
    model.shapes[shape].traits[trait] = value
    assert any(d.code == "S3003" for d in validate_model(model))  # what a build reports
    converted = api.convert(model, {**ORG, "service": "acme.vault#VaultService"})  # used to raise
    assert not any(d.code == "S4109" for d in converted.diagnostics)


def test_a_2000_resource_containment_cycle_is_found():
    # check_resource_containment walked from every resource (quadratic); now strongly
    # connected components, in linear time
    n = 2000
    res = "\n".join(f"resource R{i} {{ resources: [R{(i + 1) % n}] }}" for i in range(n))
    diags = Diagnostics()
    model = load_texts([("m.smithy", f'$version: "2"\nnamespace ex\n{res}\nresource Self {{ resources: [Self] }}\n'
                                     "resource Free { resources: [R0] }\n")], diags)
    found = {d.shape_id for d in validate_model(model) if d.code == "S3016"}
    assert found == {f"ex#R{i}" for i in range(n)} | {"ex#Self"}  # not ex#Free: it only reaches the cycle


# ------------------------------------------------------------------------------ pattern matching time


def _validate_only(text: str) -> list:
    diags = Diagnostics()
    model = load_texts([("m.smithy", text)], diags)
    return api.validate(model, diags).diagnostics


def _pattern_model(pattern: str, values: list[str]) -> str:
    uses = "\n".join(f'@myTrait("{v}")\nstring S{i}\n' for i, v in enumerate(values))
    return f'$version: "2"\nnamespace ex\n@trait\n@pattern("{pattern}")\nstring myTrait\n{uses}'


def test_a_backtracking_pattern_does_not_hang_validation():
    # ^(a|aa)+$ takes exponential time on "aaa...ab" in a backtracking engine (the reference's
    # Java one included): each value gets a bounded time, the model a bounded budget, and a
    # value that could not be checked is a located warning, not a hang
    values = ["a" * 60 + "b"] * 30
    diags = _validate_only(_pattern_model("^(a|aa)+$", values))
    unchecked = [d for d in diags if "not checked" in d.message]
    assert unchecked and all(d.severity == Severity.WARNING and d.span.line >= 6 for d in unchecked)


def test_pattern_matching_control():
    diags = _validate_only(_pattern_model("^(a+)+$", ["aaa", "aaaa!"]))
    (d,) = [d for d in diags if d.code == "S3003"]
    assert "must match regular expression" in d.message and d.shape_id == "ex#S1"


def test_a_json_add_pointer_of_1000_segments_is_a_settings_error():
    # used to build a 1,000-deep schema that api.convert returned and render_schema could not write
    settings_ = {**ORG, "jsonAdd": {"ex#Thing": {"/properties/P" + "/x" * 1000: "#"}}}
    texts, diags = run([("m.smithy", idl("String"))], settings_)
    (d,) = [d for d in diags if d.code == "S5001"]
    assert "at most 64 segments" in d.message and texts == {}
    settings_ = {**ORG, "jsonAdd": {"ex#Thing": {"/x-extension" + "/x" * 10: "#"}}}
    texts, diags = run([("m.smithy", idl("String"))], settings_)
    assert not [d for d in diags if d.code == "S5001"]
