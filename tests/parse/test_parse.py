"""Tests of the IDL front end (``smithy2cfn.parse``): grammar, parse, lowering, recovery.

The conformance cases come from ``../shared/conformance`` (skipped when absent): each
``idl/valid/X.smithy`` is parsed and lowered, then compared with ``X.json`` for what is
comparable before the loader runs (no mixin flattening, no ``apply`` merging, no IDL 1.0
upgrade, annotation traits compared loosely).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import read_golden
from smithy2cfn.diagnostics import Severity
from smithy2cfn.model.document import ANNOTATION
from smithy2cfn.model.jsonread import BigNumber
from smithy2cfn.parse.idl import parse_idl
from smithy2cfn.parse.lower import lower_idl

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CONFORMANCE = SHARED / "conformance"
VALID = CONFORMANCE / "idl" / "valid"
FIXTURES = Path(__file__).parent / "fixtures"

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared (conformance suites) is not present")

# Names of the smithy.api prelude shapes the conformance models refer to (test helper only).
PRELUDE_NAMES = """
String Blob BigInteger BigDecimal Timestamp Document Boolean Byte Short Integer Long Float Double
PrimitiveBoolean PrimitiveByte PrimitiveShort PrimitiveInteger PrimitiveLong PrimitiveFloat
PrimitiveDouble Unit trait deprecated box documentation externalDocumentation auth
protocolDefinition authDefinition httpBasicAuth httpDigestAuth httpBearerAuth httpApiKeyAuth
default addedDefault clientOptional optionalAuth examples error retryable readonly idempotent
idempotencyToken internal jsonName xmlAttribute xmlFlattened xmlName xmlNamespace noReplace
mediaType references resourceIdentifier private sensitive since streaming requiresLength
tags title enum enumValue length range pattern required property notProperty nestedProperties
recommended sparse uniqueItems unstable paginated http httpLabel httpQuery httpQueryParams
httpHeader httpPrefixHeaders httpPayload httpError httpResponseCode cors eventPayload
eventHeader idRef timestampFormat endpoint hostLabel suppress httpChecksumRequired input output
unitType mixin requestCompression
""".split()
PRELUDE_IDS = frozenset(f"smithy.api#{n}" for n in PRELUDE_NAMES)


def _valid_cases() -> list[Path]:
    if not VALID.is_dir():
        return []
    return sorted(p for p in VALID.rglob("*.smithy")
                  if not p.name.endswith(".flattened.smithy") and p.with_suffix(".json").is_file())


def _shared_ids() -> set[str]:
    path = VALID / "__shared.json"
    if not path.is_file():
        return set()
    return set(json.loads(path.read_text()).get("shapes", {}))


# --------------------------------------------------------------------------- comparison

_ANNOTATION_VALUES = ({}, [], True)


def _same_value(ours, theirs) -> bool:
    if isinstance(ours, BigNumber):  # kept exactly; the reference's JSON writes such numbers as Infinity
        ours = float(ours.literal)
    if isinstance(ours, float) or isinstance(theirs, float):
        if isinstance(ours, (int, float)) and isinstance(theirs, (int, float)):
            return ours == theirs or (math.isinf(ours) and math.isinf(theirs))
    return ours == theirs


def _compare_traits(where: str, ours: dict, theirs: dict, problems: list[str]) -> None:
    for trait_id, value in ours.items():
        if trait_id not in theirs:
            problems.append(f"{where}: unexpected trait {trait_id}")
        elif value is ANNOTATION:
            if theirs[trait_id] not in _ANNOTATION_VALUES:
                problems.append(f"{where}: annotation {trait_id} vs {theirs[trait_id]!r}")
        elif not _same_value(value, theirs[trait_id]):
            problems.append(f"{where}: trait {trait_id} {value!r} != {theirs[trait_id]!r}")


def _compare(doc, expected: dict) -> list[str]:
    """Differences between a lowered document and the reference JSON AST (comparable parts)."""
    problems: list[str] = []
    ours_shapes = doc.ast["shapes"]
    exp_shapes = {k: v for k, v in expected.get("shapes", {}).items() if v.get("type") != "apply"}
    applied = {a.target for a in doc.applies}
    for shape_id, exp in exp_shapes.items():
        if shape_id not in ours_shapes:
            problems.append(f"missing shape {shape_id}")
            continue
        ours = ours_shapes[shape_id]
        if ours["type"] != exp["type"] and not (ours["type"] == "set" and exp["type"] in ("list", "set")):
            problems.append(f"{shape_id}: type {ours['type']} != {exp['type']}")
        if ours["type"] == "operation":  # Unit input/output and empty errors are implied
            unit = {"input": {"target": "smithy.api#Unit"}, "output": {"target": "smithy.api#Unit"}}
            ours, exp = {**unit, **ours}, {**unit, **exp}
            if not ours.get("errors"):
                ours.pop("errors", None)
            if not exp.get("errors"):
                exp.pop("errors", None)
        for key in ("input", "output", "errors", "operations", "resources", "identifiers", "properties",
                    "create", "put", "read", "update", "delete", "list", "collectionOperations", "rename",
                    "version", "mixins"):
            if key in ours or key in exp:
                if ours.get(key) != exp.get(key):
                    problems.append(f"{shape_id}: {key} {ours.get(key)!r} != {exp.get(key)!r}")
        ours_members = dict(ours.get("members", {}))
        for name in ("member", "key", "value"):
            if name in ours:
                ours_members[name] = ours[name]
        exp_members = dict(exp.get("members", {}))
        for name in ("member", "key", "value"):
            if name in exp:
                exp_members[name] = exp[name]
        for name, m in ours_members.items():
            member_id = f"{shape_id}${name}"
            if m.get("elided"):
                continue
            if name not in exp_members:
                problems.append(f"unexpected member {member_id}")
                continue
            em = exp_members[name]
            if m.get("target") != em.get("target"):
                problems.append(f"{member_id}: target {m.get('target')} != {em.get('target')}")
            if member_id not in applied:
                _compare_traits(member_id, m.get("traits", {}), em.get("traits", {}), problems)
        if not ours.get("mixins"):
            for name in exp_members:
                if name not in ours_members:
                    problems.append(f"missing member {shape_id}${name}")
        if shape_id not in applied:
            _compare_traits(shape_id, ours.get("traits", {}), exp.get("traits", {}), problems)
    for shape_id in ours_shapes:
        if shape_id not in exp_shapes:
            problems.append(f"unexpected shape {shape_id}")
    if "metadata" in expected:
        for key, value in doc.ast["metadata"].items():
            if key not in expected["metadata"] or not _same_value(value, expected["metadata"][key]):
                problems.append(f"metadata {key}: {value!r}")
    return problems


# --------------------------------------------------------------------------- conformance

@needs_shared
@pytest.mark.parametrize("path", _valid_cases(), ids=lambda p: str(p.relative_to(VALID)))
def test_valid_idl_matches_json_ast(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    idl = parse_idl(text, str(path))
    errors = [d for d in idl.diagnostics if d.severity >= Severity.ERROR]
    assert not errors, [d.format_text() for d in errors]
    known = set(PRELUDE_IDS) | _shared_ids() | idl.defined_shape_ids()
    doc = lower_idl(idl, known)
    assert not doc.diagnostics, [d.format_text() for d in doc.diagnostics]
    expected = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"),
                          parse_constant=lambda c: float(c.replace("Infinity", "inf")))
    problems = _compare(doc, expected)
    assert not problems, "\n".join(problems)


def _all_model_files() -> list[Path]:
    if not SHARED.is_dir():
        return []
    roots = [CONFORMANCE / "cfn", CONFORMANCE / "cfn-traits", SHARED / "reference" / "prelude"]
    return sorted(p for r in roots if r.is_dir() for p in r.rglob("*.smithy"))


@needs_shared
@pytest.mark.parametrize("path", _all_model_files(), ids=lambda p: str(p.relative_to(SHARED)))
def test_real_world_models_parse_without_errors(path: Path) -> None:
    idl = parse_idl(path.read_text(encoding="utf-8"), str(path))
    errors = [d.format_text() for d in idl.diagnostics if d.severity >= Severity.ERROR]
    assert not errors
    # a model of several files (weather.smithy uses tagging.smithy): the shapes of its
    # neighbours are known, as when the folder is loaded
    known = set(PRELUDE_IDS)
    for other in sorted(path.parent.glob("*.smithy")):
        known |= parse_idl(other.read_text(encoding="utf-8"), str(other)).defined_shape_ids()
    doc = lower_idl(idl, known)
    assert not doc.diagnostics, [d.format_text() for d in doc.diagnostics]


def _invalid_syntax_cases() -> list[Path]:
    root = CONFORMANCE / "idl" / "invalid"
    if not root.is_dir():
        return []
    out = []
    for p in sorted(root.rglob("*.smithy")):
        first = p.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0]
        if "Syntax error" in first:
            out.append(p)
    return out


@needs_shared
@pytest.mark.parametrize("path", _invalid_syntax_cases(),
                         ids=lambda p: str(p.relative_to(CONFORMANCE / "idl" / "invalid")))
def test_invalid_syntax_is_reported(path: Path) -> None:
    """Files whose reference event is a syntax error give an error from parse or lowering."""
    text = path.read_text(encoding="utf-8")
    idl = parse_idl(text, str(path))
    doc = lower_idl(idl, set(PRELUDE_IDS) | idl.defined_shape_ids())
    errors = [d for d in [*idl.diagnostics, *doc.diagnostics] if d.severity >= Severity.ERROR]
    assert errors, "no error reported"


_RECOVERY = {
    # file: (error lines, shape names kept, metadata keys kept)
    # line 9: "=" then a line break, reported at the line break as the reference does
    "in-metadata.smithy": ([3, 5, 7, 9], [], ["valid1", "valid2", "valid3", "valid4"]),
    "to-docs.smithy": ([6], ["MyInteger"], []),
    "to-dollar.smithy": ([2], ["MyInteger"], []),
    "to-identifier.smithy": ([6], ["MyString"], []),
    "to-trait.smithy": ([9], ["MyString", "MyInteger2"], []),
}


@needs_shared
@pytest.mark.parametrize("name", sorted(_RECOVERY))
def test_error_recovery_conformance(name: str) -> None:
    path = CONFORMANCE / "idl" / "error-recovery" / name
    idl = parse_idl(path.read_text(encoding="utf-8"), str(path))
    lines, shapes, metadata = _RECOVERY[name]
    assert [d.span.line for d in idl.diagnostics if d.code == "S1001"] == lines
    assert [s.name for s in idl.shapes] == shapes
    assert list(idl.metadata) == metadata


# --------------------------------------------------------------------------- golden fixtures


def _golden_json(doc) -> dict:
    """The lowered document as plain JSON (annotation traits written as ``"@annotation"``)."""
    return json.loads(json.dumps(_golden_parts(doc), default=lambda o: "@annotation"))


def _golden_parts(doc) -> dict:
    return {
        "ast": doc.ast,
        "applies": [{"target": a.target, "traits": a.traits} for a in doc.applies],
        "spans": {k: [v.line, v.column] for k, v in sorted(doc.spans.items())},
        "diagnostics": [d.format_text() for d in doc.diagnostics],
    }


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.smithy")), ids=lambda p: p.stem)
def test_golden_lowering(path: Path, update_goldens: bool) -> None:
    """``tests/parse/fixtures/X.smithy`` lowers to ``X.json`` (``--update-goldens`` rewrites it)."""
    idl = parse_idl(path.read_text(encoding="utf-8"), path.name)
    assert not idl.diagnostics, [d.format_text() for d in idl.diagnostics]
    doc = lower_idl(idl, set(PRELUDE_IDS) | idl.defined_shape_ids())
    actual = _golden_json(doc)
    golden = read_golden(path.with_suffix(".json"), json.dumps(actual, indent=2, sort_keys=True) + "\n",
                         update_goldens)
    assert actual == json.loads(golden)


# --------------------------------------------------------------------------- focused tests


def _lower(text: str, known: set[str] | None = None):
    idl = parse_idl(text, "test.smithy")
    return idl, lower_idl(idl, (known or set()) | PRELUDE_IDS | idl.defined_shape_ids())


def test_syntax_error_is_located_and_recovery_finds_a_second_error() -> None:
    text = (
        '$version: "2"\n'
        "namespace smithy.example\n"
        "\n"
        "structure {\n"          # line 4: missing shape name
        "    foo: String\n"
        "}\n"
        "\n"
        "string Fine\n"
        "\n"
        "@length(min: 1,\n"      # line 10: unclosed trait
        "string Broken\n"
        "\n"
        "integer AlsoFine\n"
    )
    idl = parse_idl(text, "test.smithy")
    errors = [d for d in idl.diagnostics if d.code == "S1001"]
    assert len(errors) == 2, [d.format_text() for d in idl.diagnostics]
    first, second = errors
    assert (first.span.path, first.span.line, first.span.column) == ("test.smithy", 4, 11)
    assert first.message == "expected a shape name after 'structure', found '{'"
    assert second.span.line == 11
    names = [s.name for s in idl.shapes]
    assert names == ["Fine", "AlsoFine"]


def test_keywords_are_identifiers_where_a_name_fits() -> None:
    text = (
        '$version: "2"\n'
        "namespace smithy.example\n"
        "resource City {\n"
        "    read: GetCity\n"
        "    list: ListCities\n"
        "}\n"
        "structure structure {\n"
        "    list: list\n"
        "    input: true\n"
        "    @required\n"
        "    namespace: String\n"
        "}\n"
        "list list { member: String }\n"
        "@trait structure true {}\n"
        '@tags(["a"]) string apply\n'
    )
    idl, doc = _lower(text)
    assert not idl.diagnostics, [d.format_text() for d in idl.diagnostics]
    shapes = doc.ast["shapes"]
    assert shapes["smithy.example#City"]["list"] == {"target": "smithy.example#ListCities"}
    members = shapes["smithy.example#structure"]["members"]
    assert members["list"]["target"] == "smithy.example#list"
    assert members["input"]["target"] == "smithy.example#true"
    assert "smithy.example#apply" in shapes


def test_lowering_sugar() -> None:
    text = (
        '$version: "2"\n'
        '$operationInputSuffix: "Request"\n'
        "namespace smithy.example\n"
        "use other.ns#Widget\n"
        "/// Docs\n"
        "///  indented\n"
        "@mixin\n"
        "structure Base { id: String }\n"
        "operation Op {\n"
        "    input := @sensitive with [Base] { a: Widget = \"x\" }\n"
        "    output := {}\n"
        "    errors: [Oops]\n"
        "}\n"
        "enum E { A = \"a\"\n B }\n"
        "intEnum I { ONE = 1 }\n"
        "structure S for R with [Base] { $id\n @documentation(Widget) b: Base }\n"
        "@references([{resource: R}])\n"
        "@deprecated()\n"
        "string Str\n"
        "apply Str @tags([\"t\"])\n"
        "resource R { identifiers: { id: String } }\n"
    )
    idl, doc = _lower(text, {"other.ns#Widget"})
    assert not idl.diagnostics and not doc.diagnostics
    shapes = doc.ast["shapes"]
    assert shapes["smithy.example#Base"]["traits"] == {"smithy.api#documentation": "Docs\n indented",
                                                       "smithy.api#mixin": ANNOTATION}
    op = shapes["smithy.example#Op"]
    assert op["input"] == {"target": "smithy.example#OpRequest"}
    assert op["output"] == {"target": "smithy.example#OpOutput"}
    assert op["errors"] == [{"target": "smithy.example#Oops"}]
    req = shapes["smithy.example#OpRequest"]
    assert req["traits"] == {"smithy.api#sensitive": ANNOTATION, "smithy.api#input": {}}
    assert req["mixins"] == [{"target": "smithy.example#Base"}]
    assert req["members"]["a"] == {"target": "other.ns#Widget", "traits": {"smithy.api#default": "x"}}
    e = shapes["smithy.example#E"]["members"]
    assert e["A"] == {"target": "smithy.api#Unit", "traits": {"smithy.api#enumValue": "a"}}
    assert e["B"] == {"target": "smithy.api#Unit"}
    assert shapes["smithy.example#I"]["members"]["ONE"]["traits"] == {"smithy.api#enumValue": 1}
    s = shapes["smithy.example#S"]
    assert s["for"] == "smithy.example#R"
    assert s["members"]["id"] == {"elided": True}
    assert s["members"]["b"]["traits"] == {"smithy.api#documentation": "other.ns#Widget"}
    assert shapes["smithy.example#Str"]["traits"] == {
        "smithy.api#references": [{"resource": "smithy.example#R"}], "smithy.api#deprecated": ANNOTATION}
    assert [(a.target, a.traits) for a in doc.applies] == [("smithy.example#Str", {"smithy.api#tags": ["t"]})]
    assert idl.defined_shape_ids() == {f"smithy.example#{n}" for n in
                                       ("Base", "Op", "OpRequest", "OpOutput", "E", "I", "S", "Str", "R")}
    assert doc.spans["smithy.example#S$b"].line == 18
    assert doc.trait_spans["smithy.example#Str"]["smithy.api#deprecated"].line == 20


def test_parse_level_problems_have_their_own_codes() -> None:
    text = (
        '$version: "2"\n'
        "namespace a.b\n"
        "string X\n"
        "use a.b#Y\n"
        "namespace c.d\n"
        '$foo: "bar"\n'
        "set S { member: String }\n"
    )
    idl = parse_idl(text, "t.smithy")
    codes = sorted(d.code for d in idl.diagnostics)
    assert codes == ["S1010", "S1010", "S1011", "S1013", "S1015"], [d.format_text() for d in idl.diagnostics]


def test_idl_1_0_is_the_default_and_rejects_2_0_syntax() -> None:
    idl = parse_idl("namespace a\nstructure A with [B] {}\n", "t.smithy")
    assert idl.version == "1.0"
    assert [d.code for d in idl.diagnostics] == ["S1013"]


def test_numbers_strings_and_text_blocks() -> None:
    text = (
        "metadata a = [0, -1, 1.5, 1e3, -2.5E-2, 123456789012345678901234567890]\n"
        'metadata b = "tab\\t\\u00e9 \\ud83d\\ude00 line\\\ncontinued"\n'
        'metadata c = """\n    Hello\n      World\n    """\n'
        "metadata d = String\n"
        "metadata e = Nope\n"
    )
    idl, doc = _lower(text)
    assert not idl.diagnostics
    md = doc.ast["metadata"]
    assert md["a"] == [0, -1, 1.5, 1000.0, -0.025, 123456789012345678901234567890]
    assert md["b"] == "tab\t\u00e9 \U0001F600 linecontinued"
    assert md["c"] == "Hello\n  World\n"
    assert md["d"] == "smithy.api#String"
    assert md["e"] == "Nope"


def test_deep_nesting_and_huge_numbers_do_not_raise() -> None:
    deep = "metadata x = " + "[" * 5000 + "]" * 5000 + "\n"
    idl = parse_idl(deep, "t.smithy")
    assert any(d.code == "S1016" for d in idl.diagnostics)
    idl = parse_idl("metadata x = " + "9" * 10000 + "\n", "t.smithy")
    assert [(d.code, d.span.line, d.span.column) for d in idl.diagnostics] == [("S1103", 1, 14)]


@pytest.mark.parametrize("text", [
    "", "\x00\x01\x02", "namespace", "@", "structure Foo {", '"unclosed', '"""\nunclosed',
    "namespace a\nstring A with [", "$version: 3\n", "apply", "\ufeffnamespace a\n", "}}}}",
])
def test_garbage_never_raises(text: str) -> None:
    idl = parse_idl(text, "t.smithy")
    lower_idl(idl, set(PRELUDE_IDS))


# --------------------------------------------------------------------------- fuzzing


def _seed_texts() -> list[str]:
    texts = [p.read_text(encoding="utf-8") for p in _valid_cases()[:40]]
    texts.extend(p.read_text(encoding="utf-8") for p in sorted(FIXTURES.glob("*.smithy")))
    return texts or ['$version: "2"\nnamespace a\nstructure A { b: String = "x" }\n']


_SEEDS = _seed_texts()


@st.composite
def _mutated(draw) -> str:
    text = draw(st.sampled_from(_SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        op = draw(st.sampled_from(["delete", "insert", "duplicate", "truncate"]))
        if op == "delete":
            j = draw(st.integers(i, min(len(text), i + 8)))
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(st.text(alphabet='{}[]()@$:=,"\\/#.\n -_aZ09\x00é', max_size=4)) + text[i:]
        elif op == "duplicate":
            j = draw(st.integers(i, min(len(text), i + 40)))
            text = text[:j] + text[i:j] + text[j:]
        else:
            text = text[:i]
    return text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutated())
def test_mutations_never_raise(text: str) -> None:
    idl = parse_idl(text, "fuzz.smithy")
    for d in idl.diagnostics:
        assert d.span is not None and d.span.line >= 1
    lower_idl(idl, set(PRELUDE_IDS) | idl.defined_shape_ids())


def test_a_trait_value_without_unquoted_ids_is_lowered_as_it_is():
    """``TraitApplication.plain``: a value with no unquoted shape ID is taken by the lowering
    as it is (not copied); one with an unquoted ID is copied with the ID resolved."""
    from smithy2cfn.parse.idl import parse_idl
    from smithy2cfn.parse.lower import lower_idl

    text = ('$version: "2"\nnamespace ex\n@tags(["a", "b"]) @ref({target: Thing, n: [1, true]})\n'
            'structure Thing {}\n')
    idl = parse_idl(text, "m.smithy")
    plain, unquoted = idl.shapes[0].traits
    assert (plain.plain, unquoted.plain) == (True, False)
    traits = lower_idl(idl, idl.defined_shape_ids() | {"smithy.api#tags"}).ast["shapes"]["ex#Thing"]["traits"]
    assert traits["smithy.api#tags"] is plain.value == ["a", "b"]
    assert traits["ex#ref"] == {"target": "ex#Thing", "n": [1, True]}
    assert traits["ex#ref"] is not unquoted.value
