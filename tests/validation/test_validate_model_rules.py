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


#: Numbers as a JSON model gives them: ints, floats of every magnitude (below and above 2**53).
_BOUNDS = st.one_of(st.integers(min_value=-(2 ** 70), max_value=2 ** 70),
                    st.floats(allow_nan=False, allow_infinity=False),
                    st.floats(min_value=-4.0, max_value=4.0).map(lambda f: round(f, 1)))


@settings(max_examples=400, deadline=None)
@given(_BOUNDS, _BOUNDS)
def test_range_bounds_read_as_their_decimals(a, b):
    """A bound read without :mod:`decimal` (an int, or a float below 2**53 in magnitude, as
    it is) is integral, orders and truncates exactly as its :func:`_decimal` reading does.
    Fails when floats of any magnitude skip Decimal (2**60 orders against an int as its
    shortest decimal, 1152921504606847000, does not)."""
    from smithy2cfn.validation.core.constraints import _bound, _decimal, _is_integral, _java_long

    for x in (a, b):
        exact = _decimal(x)
        assert exact is not None
        assert _is_integral(_bound(x)) == (exact == exact.to_integral_value())
        assert _java_long(x) == int(exact)
    assert (_bound(a) > _bound(b)) == (_decimal(a) > _decimal(b))
    assert (_bound(a) == _bound(b)) == (_decimal(a) == _decimal(b))


def test_range_bounds_beyond_exact_floats():
    """The case that needs the decimal reading: an int just above a large float's value
    that is below its shortest decimal."""
    from smithy2cfn.validation.core.constraints import _bound

    big = float(2 ** 60)
    assert big < 2 ** 60 + 14 and not (_bound(2 ** 60 + 14) > _bound(big))


def test_fractional_bounds_do_not_import_decimal():
    """A model whose ``@range`` and ``@length`` bounds are ints and short floats is validated
    without importing :mod:`decimal` (12 million instructions: SageMaker, glue, iot)."""
    import subprocess
    import sys

    code = ("import sys\nfrom smithy2cfn.diagnostics import Diagnostics\n"
            "from smithy2cfn.load.loader import load_texts\nfrom smithy2cfn.validation import validate_model\n"
            f"text = {HEAD_OF_TESTS!r} + '@range(min: 0.5, max: 1.5)\\nfloat B\\n@range(min: 1)\\ninteger C\\n'"
            " + '@length(min: 1.0)\\nstring D\\n'\n"
            "d = Diagnostics()\nm = load_texts([('m.smithy', text)], d)\nout = validate_model(m, prior=list(d))\n"
            "assert not [x for x in out if x.code in ('S3110', 'S3111')], out\n"
            "print('decimal' in sys.modules, '_decimal' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]


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
    # the reference coerces an omitted value only for structure, map, list and set traits:
    # a custom trait's null is a TraitValue error of validation, a built-in one's cannot be
    # created (Model: loading fails, so nothing is validated)
    out = run("@trait\nboolean flag\n\n@flag\nstring A\n\n@trait\nstructure mark {}\n\n@mark\n@sensitive\nstring C\n")
    assert sorted((d.shape_id, d.event_id) for d in out if d.is_error) == [("smithy.example#A", "TraitValue")]
    out = run("@trait\nboolean flag\n\n@flag\nstring A\n\n@documentation\nstring B\n")
    assert sorted((d.shape_id, d.event_id) for d in out if d.is_error) == [("smithy.example#B", "Model")]


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


# ------------------------------------------------- the last gaps to the reference's suites


def _discovery_model(operation_target: str) -> str:
    return ("use aws.api#clientEndpointDiscovery\n\n"
            "@clientEndpointDiscovery(operation: DescribeEndpoints)\n"
            'service Svc { version: "1", operations: [DescribeEndpoints] }\n\n'
            "operation DescribeEndpoints {\n"
            f"    input := {{ Operation: {operation_target} }}\n"
            "    output := { @required Endpoints: Endpoints }\n}\n\n"
            "list Endpoints { member: Endpoint }\n\n"
            "structure Endpoint {\n    @required Address: String\n    @required CachePeriodInMinutes: Long\n}\n")


def test_an_error_about_a_prelude_shape_is_kept():
    # ModelValidator.filterPrelude: an ERROR on a prelude shape is reported (the Operation
    # member of an endpoint-discovery input targets smithy.api#Blob)
    out = [d for d in run(_discovery_model("Blob")) if d.is_error and d.event_id == "ClientEndpointDiscovery"]
    assert [(d.shape_id, d.severity, d.message) for d in out] == [
        ("smithy.api#Blob", Severity.ERROR, "The Operation member of an endpoint discovery operation must be a string")]
    # control: a string
    out = run(_discovery_model("String"))
    assert [d for d in out if d.is_error and d.event_id == "ClientEndpointDiscovery"] == []


def test_other_events_about_prelude_shapes_are_dropped():
    # a WARNING a configured validator finds on every string shape: the prelude's are left out
    metadata = 'metadata validators = [{name: "EmitEachSelector", id: "Strings", severity: "WARNING", ' \
               'configuration: {selector: "string"}}]\n\n'
    out = run("string Mine\n", metadata=metadata)
    assert [d.shape_id for d in out if d.event_id == "Strings"] == ["smithy.example#Mine"]


def test_apply_to_a_prelude_shape_is_an_error():
    # LoaderTraitMap.add: the prelude is immutable outside smithy.api (a loading error, Model)
    out = run("apply smithy.api#String @deprecated\n")
    assert mine(out, "S2003") == [("smithy.api#String", "Model", Severity.ERROR)]
    (d,) = [d for d in out if d.code == "S2003"]
    assert d.message == "Cannot apply `smithy.api#deprecated` to an immutable prelude shape defined in `smithy.api`."
    assert d.span.line == 5  # the trait in the apply statement
    # control: applied to a shape of the model's own namespace
    out = run("string Mine\n\napply Mine @deprecated\n")
    assert [d for d in out if d.is_error] == []


def test_apply_to_a_prelude_shape_in_a_json_ast_is_accepted_as_the_reference_does():
    # the JSON AST loader gives an apply the target's own namespace, so the reference lets it through
    diags = Diagnostics()
    load_texts([("m.json", '{"smithy": "2.0", "shapes": {"smithy.api#String": {"type": "apply", '
                           '"traits": {"smithy.api#deprecated": {}}}}}')], diags)
    assert [d.code for d in diags if d.is_error] == []


CHECKSUM_MODEL = """use aws.protocols#httpChecksum

@httpChecksum(requestAlgorithmMember: "algorithm")
@http(method: "POST", uri: "/{name}")
@suppress(["UnstableTrait"])
operation Put {
    input := {
        @httpQuery("algorithm")
        algorithm: ChecksumAlgorithm
        @required @httpLabel name: String
        %s
    }
}

enum ChecksumAlgorithm {
    CRC32C
}

map Headers {
    key: String
    value: String
}
"""


def test_http_checksum_header_conflicts():
    # HttpChecksumTraitValidator: named by the structure that holds the binding
    # (member.getId().getName()), located at the operation
    out = run(CHECKSUM_MODEL % '@httpPrefixHeaders("x-amz-checksum-")\n        headers: Headers\n'
                               '        @httpHeader("x-amz-checksum-CRC32")\n        crc: String')
    assert mine(out, "S3506") == [
        ("smithy.example#Put", "HttpChecksumTrait.HttpHeader.PutInput.x-amz-checksum-crc32", Severity.WARNING),
        ("smithy.example#Put", "HttpChecksumTrait.HttpPrefixHeaders.PutInput.x-amz-checksum-", Severity.DANGER)]
    assert sorted(d.message for d in out if d.code == "S3506") == [
        "The `httpHeader` binding of `x-amz-checksum-crc32` on `PutInput` starts with the prefix "
        "`x-amz-checksum-` used by the `httpChecksum` trait.",
        "The `httpPrefixHeaders` binding of `PutInput` uses the prefix `x-amz-checksum-` that conflicts with "
        "the prefix `x-amz-checksum-` used by the `httpChecksum` trait."]
    # control: headers of other names
    out = run(CHECKSUM_MODEL % '@httpPrefixHeaders("x-foo-")\n        headers: Headers\n'
                               '        @httpHeader("x-checksum")\n        crc: String')
    assert mine(out, "S3506") == []


def test_null_values_of_custom_traits():
    # NodeValidationVisitor: an annotation (or an explicit null) of a trait that is no
    # structure, map or list is null, which its shape does not take (TraitValue, at the trait)
    out = run("@trait\nstring foo\n\n@trait\nboolean baz\n\n@trait\ninteger qux\n\n@trait\nunion bam { entry: String }\n\n"
              "@trait\nstructure struct {}\n\n@foo\n@baz\n@qux\n@bam\n@struct(true)\nstring A\n\n@struct(null)\nstring B\n")
    got = sorted((d.shape_id, d.event_id, d.span.line, d.message) for d in out if d.is_error)
    assert got == [
        ("smithy.example#A", "TraitValue", 20, "Error validating trait `smithy.example#foo`: Expected string value for "
                                               "string shape, `smithy.example#foo`; found null value"),
        ("smithy.example#A", "TraitValue", 21, "Error validating trait `smithy.example#baz`: Expected boolean value "
                                               "for boolean shape, `smithy.example#baz`; found null value"),
        ("smithy.example#A", "TraitValue", 22, "Error validating trait `smithy.example#qux`: Expected number value for "
                                               "integer shape, `smithy.example#qux`; found null value"),
        ("smithy.example#A", "TraitValue", 23, "Error validating trait `smithy.example#bam`: Expected object value for "
                                               "union shape, `smithy.example#bam`; found null value"),
        ("smithy.example#A", "TraitValue", 24, "Error validating trait `smithy.example#struct`: Expected object value "
                                               "for structure shape, `smithy.example#struct`; found boolean value, "
                                               "`true`"),
        ("smithy.example#B", "TraitValue", 27, "Error validating trait `smithy.example#struct`: Expected object value "
                                               "for structure shape, `smithy.example#struct`; found null value")]
    # control: annotations of structure and list traits are empty values; a document takes null
    out = run("@trait\nstructure struct {}\n\n@trait\nlist names { member: String }\n\n@trait\ndocument doc\n\n"
              "@struct\n@names\n@doc(null)\nstring A\n")
    assert [d for d in out if d.is_error] == []


def test_bare_shape_ids_of_service_and_resource_bodies_are_syntactic_shape_ids():
    # IdlModelLoader parses a service or resource body as a node value: an unquoted ID that
    # names no shape is also the DANGER SyntacticShapeIdTarget (shape "-"), besides Target
    out = run('service Svc {\n    version: "1"\n    resources: [Queue]\n}\n\nresource Thing {\n    read: DescribeThing\n}\n')
    syntactic = sorted((d.shape_id, d.event_id, d.severity, d.span.line, d.message) for d in out if d.code == "S2025")
    assert syntactic == [
        (None, "SyntacticShapeIdTarget", Severity.DANGER, 7, "Syntactic shape ID `Queue` does not resolve to a valid "
         "shape ID: `smithy.example#Queue`. Did you mean to quote this string? Are you missing a model file?"),
        (None, "SyntacticShapeIdTarget", Severity.DANGER, 11, "Syntactic shape ID `DescribeThing` does not resolve to "
         "a valid shape ID: `smithy.example#DescribeThing`. Did you mean to quote this string? Are you missing a "
         "model file?")]
    assert mine(out, "S2001") == [("smithy.example#Svc", "Target", Severity.ERROR),
                                  ("smithy.example#Thing", "Target", Severity.ERROR)]
    # control: quoted, the ID is no syntactic shape ID (Target only); defined, nothing
    out = run('service Svc {\n    version: "1"\n    resources: ["Queue"]\n}\n')
    assert events(out) == [("S2001", "smithy.example#Svc", "Target")]
    out = run('service Svc {\n    version: "1"\n    resources: [Queue]\n}\n\nresource Queue {}\n')
    assert [d for d in out if d.is_error] == []


def test_an_event_on_a_member_is_at_its_name_and_a_trait_event_at_its_trait():
    # IdlModelLoader.parseMember locates a member after its traits (its doc comment and
    # traits come first)
    out = run("structure S {\n"         # line 5
              "    /// docs\n"
              "    @required\n"
              "    @sensitive\n"
              "    a: Missing\n"         # line 9
              "}\n")
    assert [(d.code, d.shape_id, d.span.line, d.span.column) for d in out] == [("S2001", "smithy.example#S$a", 9, 5)]
    # validators that pass the trait (TraitTarget, UnstableTrait, DeprecatedTrait, the @default
    # value...) locate at the trait; the others at the member
    out = run("@trait(selector: \"string\")\n@unstable\nstructure odd {}\n\n"
              "structure T {\n"        # line 9
              "    @private\n"
              "    @odd\n"              # line 11
              "    @range(min: 2)\n"
              "    c: Integer = 1\n"    # line 13
              "    @required @httpHeader(\"x\") @httpLabel\n"
              "    d: String\n"         # line 15
              "}\n")
    where = {(d.code, d.shape_id): (d.span.line, d.span.column) for d in out}
    assert where[("S3001", "smithy.example#T$c")] == (11, 5)         # TraitTarget: at @odd
    assert where[("S3006", "smithy.example#T$c")] == (11, 5)         # UnstableTrait: at @odd
    assert where[("S3007", "smithy.example#T$c")] == (13, 18)        # DefaultTrait: at the value `1`
    assert where[("S3002", "smithy.example#T$d")] == (15, 5)         # TraitConflict: at the member
    # control: a member without traits starts at its name either way
    out = run("structure S {\n    a: Missing\n}\n")
    assert [(d.code, d.span.line, d.span.column) for d in out] == [("S2001", 6, 5)]
