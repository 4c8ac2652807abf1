"""The model-level validators of the reference (smithy-model, part A): for each rule one
model that triggers it (the reference's event ID, on the reference's shape, at its severity)
and one that does not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Severity
from smithy2cfn.load.loader import load_texts
from smithy2cfn.validation import validate_model
from smithy2cfn.validation.core.constraints import media_type_problem, uri_problem
from smithy2cfn.validation.core.recursion import MAX_PATHS

HEAD_OF_TESTS = '$version: "2.0"\n\nnamespace smithy.example\n\n'


def run(body: str, *more: tuple[str, str], version: str = "2.0", metadata: str = "") -> list[Diagnostic]:
    """Load and validate one IDL model (``metadata`` statements, then ``body`` in namespace
    ``smithy.example``; plus ``more`` files); every diagnostic, loading's too."""
    diags = Diagnostics()
    head = f'$version: "{version}"\n\n{metadata}namespace smithy.example\n\n'
    model = load_texts([("m.smithy", head + body), *more], diags)
    prior = list(diags)
    return prior + validate_model(model, prior=prior)


def events(out: list[Diagnostic], severity: Severity | None = None) -> list[tuple[str, str | None, str]]:
    """``(code, shape ID, event ID)`` of the diagnostics (of ``severity``), sorted."""
    return sorted((d.code, d.shape_id, d.event_id or "") for d in out if severity is None or d.severity == severity)


def mine(out: list[Diagnostic], code: str) -> list[tuple[str | None, str, Severity]]:
    return sorted((d.shape_id, d.event_id or "", d.severity) for d in out if d.code == code)


# ------------------------------------------------------------------------- constraints


def test_length_bounds():
    out = run("@length(min: -1)\nstring A\n\n@length(min: 3, max: 2)\nstring B\n\n@length(min: 1, max: 2)\nstring C\n")
    assert mine(out, "S3110") == [("smithy.example#A", "LengthTrait", Severity.ERROR),
                                  ("smithy.example#B", "LengthTrait", Severity.ERROR)]


def test_range_decimal_bounds_and_order():
    out = run("@range(min: 0.5)\ninteger A\n\n@range(min: 0.5, max: 1.5)\nfloat B\n\n"
              "structure S {\n    @range(max: 1.5)\n    i: Integer\n    @range(min: 2.5)\n    d: Double\n}\n\n"
              "@range(min: 2, max: 1)\nlong C\n")
    assert mine(out, "S3111") == [("smithy.example#A", "RangeTrait", Severity.ERROR),
                                  ("smithy.example#C", "RangeTrait", Severity.ERROR),
                                  ("smithy.example#S$i", "RangeTrait", Severity.ERROR)]


def test_cors_origin_and_origins_are_exclusive():
    out = run('@cors(origin: "*", origins: {a: "https://a.example"})\nservice A { version: "1" }\n\n'
              '@cors(origin: "https://b.example")\nservice B { version: "1" }\n')
    assert mine(out, "S3112") == [("smithy.example#A", "CorsTrait", Severity.ERROR)]


def test_json_name_conflicts():
    out = run('structure A {\n    @jsonName("b")\n    a: String\n    b: String\n}\n\n'
              'structure B {\n    @jsonName("x")\n    a: String\n    b: String\n}\n')
    assert mine(out, "S3113") == [("smithy.example#A", "JsonName", Severity.ERROR)]
    assert "resolve to 'b': a, b" in next(d.message for d in out if d.code == "S3113")


def test_xml_namespace_uri():
    out = run('@xmlNamespace(uri: "::foo")\nstructure A {}\n\n@xmlNamespace(uri: "http://example.com/ns")\n'
              "structure B {}\n")
    assert mine(out, "S3114") == [("smithy.example#A", "XmlNamespaceTrait", Severity.ERROR)]


def test_uri_problems():
    for good in ("http://example.com", "urn:example:a", "", "relative/path", "https://[::1]:80/x", "a#frag"):
        assert uri_problem(good) is None, good
    for bad in ("::foo", "http:", "a b", "http://x/%zz", "a#b#c", "1a:b", "x[1]"):
        assert uri_problem(bad) is not None, bad


def test_unions():
    out = run("union Empty {}\n\nunion Fine { a: String }\n\nunion WithDefault { a: PrimitiveInteger }\n")
    assert mine(out, "S3115") == [("smithy.example#Empty", "Union", Severity.ERROR)]
    assert mine(out, "S3116") == [("smithy.example#WithDefault$a", "Union", Severity.NOTE)]


def test_private_access_across_namespaces():
    other = ("o.smithy", '$version: "2.0"\nnamespace other.ns\n\n@private\nstring Secret\n\n'
                         "@private\n@trait\nstructure hidden {}\n\nstructure Local { s: Secret }\n")
    out = run("structure Uses {\n    s: other.ns#Secret\n}\n\n@other.ns#hidden\nstring T\n", other)
    assert mine(out, "S3117") == [("smithy.example#T", "PrivateAccess", Severity.WARNING),
                                  ("smithy.example#Uses$s", "PrivateAccess", Severity.ERROR)]
    assert "invalid member_target relationship" in next(d.message for d in out if d.severity is Severity.ERROR)


def test_pattern_anchors():
    out = run('@pattern("^a+$")\nstring A\n\n@pattern("a+$")\nstring B\n\n@pattern("a")\nstring C\n')
    assert mine(out, "S3132") == [("smithy.example#B", "PatternTrait", Severity.WARNING),
                                  ("smithy.example#C", "PatternTrait", Severity.WARNING)]
    assert "without a leading '^' and trailing '$'" in next(d.message for d in out if d.shape_id.endswith("C"))


def test_media_type():
    out = run('@mediaType("application/json; charset=utf-8")\nstring A\n\n@mediaType("not a type")\nstring B\n')
    assert mine(out, "S3127") == [("smithy.example#B", "MediaType", Severity.ERROR)]
    assert media_type_problem('text/plain; a="q\\"x"') is None
    assert media_type_problem("text/") is not None and media_type_problem("text/plain;") is not None


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_uri_and_media_type_checks_never_raise(text):
    for problem in (uri_problem(text), media_type_problem(text)):
        assert problem is None or isinstance(problem, str)


def test_xml_flattened_private_mixin_member_set_and_update_defaults():
    out = run('list Names {\n    @xmlName("item")\n    member: String\n}\n\n'
              "structure S {\n    @xmlFlattened\n    names: Names\n    @xmlFlattened\n    item: Names\n}\n\n"
              "@mixin\nstructure M {\n    @private\n    secret: String\n}\n\n"
              "operation UpdateThing {\n    input := {\n        size: Integer = 1\n    }\n}\n\n"
              "operation GetThing {\n    input := {\n        size: Integer = 1\n    }\n}\n")
    assert events(out, Severity.WARNING) == [
        ("S3128", "smithy.example#S$names", "XmlFlattenedTrait"),
        ("S3129", "smithy.example#M$secret", "PrivateMixinMember"),
        ("S3131", "smithy.example#UpdateThing", "DefaultValueInUpdate"),
    ]
    out = run("set Tags {\n    member: String\n}\n", version="1.0")
    assert mine(out, "S3130") == [("smithy.example#Tags", "ModelDeprecation", Severity.WARNING)]


# ---------------------------------------------------------------------------- metadata


def test_metadata_trait_keys():
    out = run('@metadata(key: "suppressions")\nstructure A {}\n\n@metadata(key: "k")\nstructure B {}\n\n'
              '@metadata(key: "k")\nstructure C {}\n\n@metadata(key: "fine")\nstructure D {}\n')
    assert mine(out, "S3118") == [(f"smithy.example#{n}", "MetadataTrait", Severity.ERROR) for n in "ABC"]


def test_typed_metadata_values():
    body = ('@metadata(key: "audit")\nstructure Audit {\n    @required\n    level: String\n}\n')
    out = run(body, metadata="metadata audit = {other: 1}\n\n")
    assert [(d.shape_id, d.event_id) for d in out if d.code == "S3119" and d.is_error] == [
        (None, "TypedMetadata.audit")]
    assert not [d for d in run(body, metadata='metadata audit = {level: "x"}\n\n') if d.code == "S3119"]


def test_shape_closures():
    closures = ('metadata shapeClosures = [\n'
                '    {id: "smithy.example#A", includeNamespaces: ["smithy.example"]}\n'
                '    {id: "smithy.example#A", includeNamespaces: ["smithy.example"]}\n'
                '    {id: "c#Empty", includeNamespaces: ["no.such.ns"]}\n'
                '    {id: "c#Conflicts", includeNamespaces: ["smithy.example"]}\n'
                ']\n\n')
    out = run("structure A {}\n\nstructure a {}\n", metadata=closures)
    found = sorted((d.event_id, d.severity) for d in out if d.code in ("S3120", "S3121", "S3122"))
    assert found == [
        ("ShapeClosure", Severity.ERROR),  # A is declared twice
        ("ShapeClosure", Severity.ERROR),  # A is a shape ID of the model
        ("ShapeClosure.EmptyNamespace.c#Empty", Severity.DANGER),
        ("ShapeClosure.NameConflicts.c#Conflicts", Severity.WARNING),
        ("ShapeClosure.NameConflicts.smithy.example#A", Severity.WARNING),
    ]
    ok = 'metadata shapeClosures = [{id: "c#Ok", includeBySelector: "[id|namespace = smithy.example]", rename: {"smithy.example#A": "B"}}]\n\n'
    assert not [d for d in run("structure A {}\n", metadata=ok) if d.code in ("S3119", "S3120", "S3121", "S3122")]


# ---------------------------------------------------------------------------- defaults


def test_default_rules():
    out = run("@default(null)\ninteger N\n\n"
              "structure S {\n    l: StringList = [\"a\"]\n    m: StringMap = {a: \"b\"}\n"
              "    p: PrimitiveInteger\n    q: PrimitiveInteger = 1\n    fine: PrimitiveInteger = 0\n"
              "    nulled: PrimitiveInteger = null\n    @range(min: 1)\n    zero: Integer = 0\n}\n\n"
              "list StringList { member: String }\n\nmap StringMap { key: String, value: String }\n")
    assert [s for s, _e, _v in mine(out, "S3007")] == [
        "smithy.example#N", "smithy.example#S$l", "smithy.example#S$m", "smithy.example#S$p", "smithy.example#S$q"]
    assert mine(out, "S3123") == [("smithy.example#S$zero", "DefaultTrait.Member.InvalidRange", Severity.WARNING)]


def test_default_constraints_apply():
    out = run('structure S {\n    s: Short5 = "ab"\n}\n\n@length(min: 5)\nstring Short5\n')
    assert [(d.shape_id, d.event_id) for d in out if d.is_error] == [("smithy.example#S$s", "DefaultTrait")]


# --------------------------------------------------------------------------- recursion


def test_shape_recursion():
    out = run("list L { member: L }\n\nlist Ok { member: Box }\n\nstructure Box { ok: Ok }\n\n"
              "structure R1 {\n    @required\n    r: R2\n}\n\nstructure R2 {\n    @required\n    r: R1\n}\n\n"
              "union U { u: U }\n\nunion V { v: V, s: String }\n")
    assert mine(out, "S3124") == [("smithy.example#L", "ShapeRecursion", Severity.ERROR),
                                  ("smithy.example#R1", "ShapeRecursion", Severity.ERROR),
                                  ("smithy.example#R2", "ShapeRecursion", Severity.ERROR),
                                  ("smithy.example#U", "ShapeRecursion", Severity.ERROR)]
    message = next(d.message for d in out if d.shape_id == "smithy.example#L")
    assert message.startswith("Found invalid shape recursion: smithy.example#L$member > smithy.example#L.")


def test_dense_required_recursion_is_bounded():
    # every structure requires every other: about n! simple cycles, cut at SEARCH_BUDGET steps
    n = 10
    members = "".join(f"    @required\n    m{j}: S{j}\n" for j in range(n))
    out = run("".join(f"structure S{i} {{\n{members}}}\n\n" for i in range(n)))
    found = [d.shape_id for d in out if d.code == "S3124"]
    assert set(found) == {f"smithy.example#S{i}" for i in range(n)} and len(found) == n * MAX_PATHS


# ------------------------------------------------------------------- trait definitions


def test_trait_breaking_changes_paths():
    out = run('@trait(breakingChanges: [{path: "/a/nope", change: "any"}])\nstructure t1 {\n    a: Inner\n}\n\n'
              "structure Inner { b: String }\n\n"
              '@trait(breakingChanges: [{path: "/a/b", change: "any"}, {path: "", change: "presence"}])\n'
              "structure t2 {\n    a: Inner\n}\n")
    assert mine(out, "S3125") == [("smithy.example#t1", "TraitBreakingChanges", Severity.ERROR)]
    assert "at segment 'nope'" in next(d.message for d in out if d.code == "S3125")


def test_trait_validators():
    out = run('@trait\n@traitValidators("bad key!": {selector: "*"})\nstructure bad {}\n\n'
              '@trait\n@traitValidators("Acme.NoDocs": {selector: "~> member :test(> document)", '
              'message: "no documents", severity: "DANGER"})\nstructure proto {}\n\n'
              "@proto\nstructure Uses {\n    d: Document\n    s: String\n}\n")
    assert mine(out, "S3700") == [("smithy.example#bad", "TraitValidators", Severity.ERROR)]
    assert mine(out, "S3701") == [("smithy.example#Uses$d", "Acme.NoDocs", Severity.DANGER)]
    # a severity that is not one (the trait value's own error): the event stays an ERROR
    diags = Diagnostics()
    model = load_texts([("m.smithy", HEAD_OF_TESTS + '@trait\n@traitValidators("A.B": {selector: "*"})\n'
                         "structure mark {}\n\n@mark\nstring S\n")], diags)
    model.shapes["smithy.example#mark"].traits["smithy.api#traitValidators"]["A.B"]["severity"] = "__class__"
    assert [(d.shape_id, d.severity) for d in validate_model(model) if d.code == "S3701"] == [
        ("smithy.example#S", Severity.ERROR)]


def test_mixin_trait_definitions():
    out = run("@mixin\n@trait\nstructure base {}\n\nstructure derived with [base] {}\n\n@derived\nstring Ok\n\n"
              "@base\nstring Bad\n")
    assert [(d.code, d.shape_id) for d in out if d.is_error] == [("S3001", "smithy.example#Bad")]


def test_trait_creation_errors_at_load():
    out = run('@auth(["not a shape ID"])\n@httpBasicAuth\nservice S { version: "1" }\n\n'
              '@externalDocumentation(Home: "invalid!")\nstring E\n\n@deprecated("no")\nstring D\n')
    assert mine(out, "S3106") == [(s, "Model", Severity.ERROR)
                                  for s in ("smithy.example#D", "smithy.example#E", "smithy.example#S")]
    ok = run("@auth([httpBasicAuth])\n@httpBasicAuth\nservice S { version: \"1\" }\n")
    assert [d for d in ok if d.is_error] == []


# ------------------------------------------------------------ enums, deprecation, targets


def test_enum_member_names_and_enum_trait():
    out = run("enum E {\n    GOOD\n    bad\n}\n\n"
              '@enum([{value: "a", name: "A"}, {value: "a"}])\nstring T\n\n@enum([{value: "x"}])\nstring N\n')
    assert mine(out, "S3034") == [("smithy.example#E$bad", "EnumShape", Severity.WARNING)]
    assert ("smithy.example#T", "EnumTrait", Severity.ERROR) in mine(out, "S3108")
    assert mine(out, "S3109") == [("smithy.example#N", "EnumNamesPresent", Severity.WARNING)]
    # the @enum trait is deprecated in IDL 2.0 (a loader warning), not in 1.0
    assert mine(out, "S3130") == [(f"smithy.example#{n}", "ModelDeprecation", Severity.WARNING) for n in "NT"]
    assert mine(run('@enum([{value: "x", name: "X"}])\nstring N\n', version="1.0"), "S3130") == []


def test_deprecated_traits_and_shapes():
    out = run('@deprecated(message: "old", since: "2")\nstring Old\n\nstructure S {\n    o: Old\n}\n\n'
              '@trait\n@deprecated\nstructure oldTrait {}\n\n@oldTrait\nstring T\n')
    assert mine(out, "S3105") == [("smithy.example#S$o", "DeprecatedShape.smithy.example#Old", Severity.WARNING)]
    assert next(d.message for d in out if d.code == "S3105").endswith(". old (since 2)")
    assert mine(out, "S3107") == [("smithy.example#T", "DeprecatedTrait", Severity.WARNING)]


def test_annotation_traits_need_a_value_unless_object_or_list():
    # the reference coerces an omitted value only for structure, map, list and set traits
    out = run("@trait\nboolean flag\n\n@flag\nstring A\n\n@documentation\nstring B\n\n@trait\nstructure mark {}\n\n"
              "@mark\n@sensitive\nstring C\n")
    assert sorted((d.shape_id, d.event_id) for d in out if d.is_error) == [
        ("smithy.example#A", "TraitValue"), ("smithy.example#B", "Model")]


ODD_VALUES = [None, True, 5, 1.5, float("inf"), float("nan"), 10**5000, "", "x", [], [5], {}, {"a": 1},
              {"min": float("nan"), "max": 1}, {"min": 10**5000}, {"origin": 1, "origins": {"a": 1}}, {"uri": 5},
              {"key": 5}, {"x": {"selector": 5, "severity": "name"}}, {"x": {"selector": "*", "severity": "__class__"}},
              {"breakingChanges": [{"path": 5}, {"path": "/~"}, 5]}, [{"value": 1}], {"traits": [5, "bad id"]}]
ODD_TRAITS = ["length", "range", "cors", "jsonName", "xmlNamespace", "metadata", "traitValidators", "trait",
              "mediaType", "default", "enum", "xmlFlattened", "private", "deprecated", "pattern"]
ODD_MODEL = ('$version: "2.0"\nnamespace ex\n@trait\nstructure t { a: String }\n'
             'structure S { @required m: L, n: String }\nlist L { member: S }\nservice Svc { version: "1" }\n'
             "@t\nstring X\n")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(ODD_TRAITS), st.sampled_from(ODD_VALUES)), min_size=1, max_size=3))
def test_odd_values_of_the_checked_traits_and_metadata_never_raise(edits):
    # values the readers would not produce, set on the loaded model: every rule still runs
    diags = Diagnostics()
    model = load_texts([("m.smithy", ODD_MODEL)], diags)
    for name, value in edits:
        for node in (model.shapes["ex#S"], model.member("ex#S$m"), model.shapes["ex#Svc"], model.shapes["ex#t"]):
            node.traits[f"smithy.api#{name}"] = value
        model.metadata["shapeClosures"] = value
    assert not [d for d in validate_model(model) if d.code == "S3099"]
