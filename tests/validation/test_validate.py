"""Tests of the validate stage (:mod:`smithy2cfn.validation`).

* unit tests per check, on small IDL models (``load_texts``) and on fixtures under
  ``tests/validation/models/``;
* the reference's ``aws.cloudformation`` validation events (``../shared/conformance/cfn-traits``),
  reported as reproduced/total;
* no false ERRORs on valid models: real AWS models, the converter's cases, the IDL valid suite;
* the semantic cases of the IDL invalid suite that belong to validation.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SHARED, record_result, shared_or_skip
from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Severity
from smithy2cfn.load import load_model, load_texts
from smithy2cfn.validation import VALIDATORS, run_validators, validate_model

HERE = Path(__file__).resolve().parent / "models"


def check(text: str, *, allow_load_errors: bool = False) -> list[Diagnostic]:
    """Load one IDL text (namespace ``smithy.example``) and return the validate diagnostics."""
    diags = Diagnostics()
    model = load_texts([("test.smithy", text)], diags)
    if not allow_load_errors:
        assert not diags.has_errors, [d.format_text() for d in diags if d.is_error]
    return validate_model(model)


def idl(body: str) -> str:
    return '$version: "2.0"\n\nnamespace smithy.example\n\n' + body


def codes(diags: list[Diagnostic], severity: Severity | None = Severity.ERROR) -> list[tuple[str, str]]:
    """``(code, shape ID)`` pairs of the diagnostics of ``severity`` (all when ``None``), sorted."""
    return sorted((d.code, d.shape_id or "") for d in diags if severity is None or d.severity == severity)


# --------------------------------------------------------------------------- the registry


def test_every_validator_is_documented_and_cites_the_spec():
    for v in VALIDATORS:
        assert v.__doc__ and ".rst" in v.__doc__, v.__name__


def test_run_validators_adds_to_diagnostics_and_never_raises():
    diags = Diagnostics()
    model = load_texts([("t.smithy", idl("@readonly\nstring Foo\n"))], diags)
    run_validators(model, diags)
    assert ("S3001", "smithy.example#Foo") in codes(list(diags))


def test_a_failing_validator_becomes_an_error():
    # A validator that crashed did not check the model: it must not pass (issue 6).
    def check_boom(model):
        """Fails on purpose (model.rst)."""
        raise RuntimeError("boom")

    diags = Diagnostics()
    model = load_texts([("t.smithy", idl("string Foo\n"))], diags)
    out = validate_model(model, [check_boom])
    assert [(d.code, d.severity) for d in out] == [("S3099", Severity.ERROR)]
    assert "check_boom" in out[0].message and "report" in out[0].hint
    assert validate_model(model, []) == []  # control: nothing fails, nothing reported


def test_diagnostics_are_located():
    out = check(idl("structure S {\n    @readonly\n    a: String\n}\n"))
    (d,) = [d for d in out if d.code == "S3001"]
    assert d.shape_id == "smithy.example#S$a"
    assert d.span is not None and d.span.path == "test.smithy" and d.span.line >= 5
    assert "TraitTarget" in (d.hint or "")


# --------------------------------------------------------------------------- trait checks


def test_trait_outside_its_selector():
    out = check(idl("@readonly\nstring Foo\n\nstructure S {\n    @httpLabel\n    a: String\n}\n"))
    assert codes(out) == [("S3001", "smithy.example#Foo"), ("S3001", "smithy.example#S$a")]


def test_trait_in_its_selector_is_fine():
    out = check(idl("@readonly\noperation Op {}\n\nstructure S {\n    @required\n    @httpLabel\n    a: String\n}\n"))
    assert codes(out) == []


def test_trait_conflicts():
    out = check(idl("@readonly\n@idempotent\noperation Op {}\n"))
    assert codes(out) == [("S3002", "smithy.example#Op")]


def test_trait_value_type_and_required_members():
    out = check(idl('@length(min: "x")\nstring A\n\n@range(min: 1, max: 0.5)\ninteger B\n\n'
                    "@trait\nstructure custom {\n    @required\n    uri: String\n}\n\n"
                    '@custom(other: "GET")\noperation Op {}\n'))
    # B's range is a valid trait value, but a decimal bound on an integer and min > max are
    # RangeTrait errors (RangeTraitValidator)
    assert codes(out) == [("S3003", "smithy.example#A"), ("S3003", "smithy.example#Op"),
                          ("S3111", "smithy.example#B"), ("S3111", "smithy.example#B")]
    msg = next(d.message for d in out if d.shape_id == "smithy.example#Op" and d.is_error)
    assert "Missing required structure member `uri`" in msg
    # a built-in trait whose reference class expects the member cannot even be created: a
    # load error (Model), as the reference's "Error creating trait"
    diags = Diagnostics()
    load_texts([("t.smithy", idl('@http(method: "GET")\noperation Op {}\n'))], diags)
    assert [(d.code, d.event_id, d.message) for d in diags if d.is_error] == [
        ("S3106", "Model", "Error creating trait `http`: Missing expected member `uri`.")]


def test_trait_value_enum_and_unknown_member():
    # an @error value that is neither client nor server cannot be created: a Model error, which
    # (as in the reference) stops the validators that would report the rest
    out = check(idl('@error("nope")\nstructure E {}\n\n@paginated(inputToken: "a", bogus: 1)\n'
                    "@readonly\noperation Op {}\n"))
    assert [(d.code, d.event_id) for d in out] == [("S3374", "Model")]
    out = check(idl('@error("client")\nstructure E {}\n\n@paginated(inputToken: "a", bogus: 1)\n'
                    "@readonly\noperation Op {}\n"))
    assert ("S3004", "smithy.example#Op") in codes(out, Severity.WARNING)


def test_user_defined_trait_with_id_ref_selector():
    out = check(idl("@trait\nstructure pointsAt {\n    @idRef(failWhenMissing: true, selector: \"structure\")\n"
                    "    target: String\n}\n\n@pointsAt(target: Bar)\nstring Foo\n\nlist Bar { member: String }\n"
                    "\n@pointsAt(target: Baz)\nstring Ok\n\nstructure Baz {}\n"))
    assert codes(out) == [("S3003", "smithy.example#Foo")]
    assert "does not match selector `structure`" in out[0].message


def test_structurally_exclusive():
    out = check(idl("@input\nstructure In {\n    @httpPayload\n    a: Blob\n    @httpPayload\n    b: Blob\n}\n"
                    "\n@http(method: \"POST\", uri: \"/\")\noperation Op { input: In }\n"))
    assert ("S3005", "smithy.example#In") in codes(out)


def test_unstable_traits_warn():
    out = check(idl("use aws.cloudformation#cfnResource\n\n@cfnResource\nresource R {}\n")
                .replace("use aws.cloudformation#cfnResource\n\n", "")
                .replace("namespace smithy.example\n", "namespace smithy.example\n\nuse aws.cloudformation#cfnResource\n"))
    assert codes(out, Severity.WARNING) == [("S3006", "smithy.example#R")]


def test_default_value_type():
    out = check(idl('structure S {\n    a: Integer = "x"\n    b: Integer = 1\n    c: String = "s"\n}\n'))
    assert codes(out) == [("S3007", "smithy.example#S$a")]


# --------------------------------------------------------------------------- shapes


def _load_fixture(name: str):
    diags = Diagnostics()
    model = load_model([str(HERE / name)], diags)
    assert not diags.has_errors, [d.format_text() for d in diags if d.is_error]
    return model


def test_enum_rules_on_json_ast():
    diags = Diagnostics()
    model = load_model([str(HERE / "enum-values.json")], diags)
    # An enum without members is a load error, as in the reference ("Model")
    assert codes(list(diags)) == [
        ("S3032", "smithy.example#EmptyEnum"),
        ("S3032", "smithy.example#EmptyIntEnum"),
    ]
    del model.shapes["smithy.example#EmptyEnum"], model.shapes["smithy.example#EmptyIntEnum"]
    assert codes(validate_model(model)) == [
        ("S3030", "smithy.example#BadEnum$EMPTY"),
        ("S3030", "smithy.example#BadEnum$TEN"),
        ("S3031", "smithy.example#BadEnum$ALSO_A"),
        ("S3031", "smithy.example#BadIntEnum$ALSO_ONE"),
        ("S3033", "smithy.example#BadIntEnum$ABC"),
        ("S3033", "smithy.example#BadIntEnum$FLOAT"),
        ("S3033", "smithy.example#BadIntEnum$LONG"),
    ]


def test_collections_and_mixins():
    out = check(idl("@mixin\noperation OpMixin {\n    input := {}\n}\n\n"
                    "@mixin\nresource ResMixin {\n    identifiers: { id: String }\n}\n\n"
                    "@mixin\nstructure A1 { a: String }\n\n@mixin\nstructure A2 { a: Integer }\n\n"
                    "structure Both with [A1, A2] {}\n"))
    assert codes(out) == [
        ("S3040", "smithy.example#OpMixin"),
        ("S3040", "smithy.example#ResMixin"),
        ("S3043", "smithy.example#Both"),  # on the shape, as the reference's flattenMixins
    ]
    # lists and maps without their members cannot be built: load errors, as in the reference
    diags = Diagnostics()
    load_texts([("t.smithy", idl("list L {}\nmap M { key: String }\n"))], diags)
    assert codes(list(diags)) == [("S3041", "smithy.example#L"), ("S3041", "smithy.example#M")]


# --------------------------------------------------------------------------- resources


def test_lifecycle_rules():
    out = validate_model(_load_fixture("lifecycle.smithy"))
    # the lifecycle events are the resource's (reference ResourceLifecycleValidator)
    lifecycle = [d.message for d in out if d.code == "S3010"]
    for kind, op, rule in [("read", "GetForecast", "must be marked with the readonly"),
                           ("list", "ListForecasts", "must be marked with the readonly"),
                           ("put", "PutForecast", "must not be marked with the readonly"),
                           ("put", "PutForecast", "must be marked as idempotent"),
                           ("update", "UpdateForecast", "must not be marked with the readonly"),
                           ("delete", "DeleteForecast", "must be marked as idempotent")]:
        assert any(f"`{kind}` lifecycle" in m and f"smithy.example#{op}`" in m and rule in m for m in lifecycle)
    assert codes(out) == sorted([
        *[("S3010", "smithy.example#Forecast")] * 6,
        ("S3011", "smithy.example#GetForecast"),      # identifier not bound (not @required)
        ("S3012", "smithy.example#BatchGet"),         # collection operation binds every identifier
        ("S3012", "smithy.example#ListForecasts"),
        ("S3013", "smithy.example#History"),          # child lacks the parent's identifier
    ])


def test_valid_resource_hierarchy():
    out = check(idl("""
resource Forecast {
    identifiers: { forecastId: ForecastId }
    create: CreateForecast
    read: GetForecast
    list: ListForecasts
    resources: [History]
}
string ForecastId
string HistoryId

operation CreateForecast { input := { a: String } }
@readonly
operation GetForecast { input := { @required forecastId: ForecastId } }
@readonly
operation ListForecasts { input := {} }

resource History {
    identifiers: { forecastId: ForecastId, historyId: HistoryId }
    read: GetHistory
    list: ListHistory
}
@readonly
operation GetHistory {
    input := {
        @required
        @resourceIdentifier("forecastId")
        fid: ForecastId
        @required
        historyId: HistoryId
    }
}
@readonly
operation ListHistory { input := { @required forecastId: ForecastId } }
"""))
    assert codes(out) == []


def test_identifier_and_reference_targets():
    # Target errors (a correctness validator's, in the reference) hide every other event.
    out = check(idl("""
operation Op { errors: [NotAnError] }
structure NotAnError {}
resource R { identifiers: { n: String } }
structure S { r: R }
"""))
    assert codes(out) == [("S3018", "smithy.example#Op"), ("S3018", "smithy.example#S$r")]
    # an identifier that does not target a string is the TargetValidator's error, as in the
    # reference (its IDENTIFIER relationship), and hides the binding events
    out = check(idl("""
resource R {
    identifiers: { n: Integer }
    operations: [Op]
}
operation Op {
    input := { @required @resourceIdentifier("nope") n: Integer }
}
"""))
    assert codes(out) == [("S3018", "smithy.example#R")]
    assert [d.event_id for d in out] == ["Target"]
    out = check(idl("""
resource R {
    identifiers: { n: String }
    operations: [Op]
}
operation Op {
    input := { @required @resourceIdentifier("nope") n: String }
}
"""))
    # the explicit binding names no identifier (no error of its own, as the reference's
    # ResourceIdentifierBindingValidator), so `n` is not bound and Op is no instance operation
    assert codes(out) == [("S3011", "smithy.example#Op")]


def test_explicit_binding_to_a_non_identifier_is_accepted():
    """simspaceweaver and cleanrooms name non-identifiers in @resourceIdentifier; the
    reference accepts them (the binding is just not one of this resource's)."""
    out = check(idl("""
resource R {
    identifiers: { id: String }
    read: GetR
}
@readonly
operation GetR {
    input := {
        @required
        id: String
        @required
        @resourceIdentifier("other")
        otherId: String
    }
}
"""))
    assert codes(out) == []


def test_explicit_binding_must_target_the_identifier_shape():
    """The reference's ``hasAllIdentifiersBound``: an explicit binding of a member that targets
    another shape does not bind the identifier of an instance operation."""
    base = """
resource R {{
    identifiers: {{ id: RId }}
    read: GetR
}}
string RId
string OtherId
@readonly
operation GetR {{
    input := {{
        @required
        @resourceIdentifier("id")
        theId: {target}
    }}
}}
"""
    assert codes(check(idl(base.format(target="RId")))) == []
    assert codes(check(idl(base.format(target="OtherId")))) == [("S3011", "smithy.example#GetR")]


def test_an_explicit_identifier_binding_binds_without_required():
    """The reference's IdentifierBindingIndex binds ``@resourceIdentifier`` members whether or
    not they are ``@required``; the missing ``@required`` is the trait's selector's error
    (TraitTarget), not a missing binding (ResourceIdentifierBinding)."""
    out = check(idl('resource R { identifiers: { id: String } read: GetR }\n@readonly\n'
                    'operation GetR { input := { @resourceIdentifier("id") other: String } }\n'))
    assert codes(out) == [("S3001", "smithy.example#GetRInput$other")]
    out = check(idl("resource R { identifiers: { id: String } read: GetR }\n@readonly\n"
                    "operation GetR { input := { other: String } }\n"))
    assert codes(out) == [("S3011", "smithy.example#GetR")]


def test_property_bindings():
    out = check(idl("""
resource R {
    identifiers: { id: String }
    properties: { size: Integer }
    read: GetR
}
@readonly
operation GetR {
    input := { @required id: String }
    output := {
        size: String
        @property(name: "nope")
        other: String
    }
}
"""))
    assert codes(out) == [("S3017", "smithy.example#GetROutput$other"), ("S3017", "smithy.example#GetROutput$size")]


def test_resource_cycle():
    out = check(idl("resource A { resources: [B] }\nresource B { resources: [A] }\n"
                    "resource C { resources: [A] }\nresource D { resources: [D] }\n"))
    # Every resource on a cycle (C only contains one: the walk from C meets A twice).
    assert [s for c, s in codes(out) if c == "S3016"] == [
        "smithy.example#A", "smithy.example#A", "smithy.example#B", "smithy.example#D"]
    messages = sorted(d.message for d in out if d.code == "S3016")
    assert "Circular resource hierarchy found: smithy.example#C -> smithy.example#A -> smithy.example#B -> " \
           "smithy.example#A" in messages


def test_resources_sharing_a_descendant_are_reported_as_the_reference_does():
    """The reference's ResourceCycleValidator never unwinds its visited set: a resource two
    children of one resource both contain is met twice."""
    out = check(idl("resource R { resources: [X, Y] }\nresource X { resources: [Z] }\n"
                    "resource Y { resources: [Z] }\nresource Z {}\n"))
    assert [(c, s) for c, s in codes(out) if c == "S3016"] == [("S3016", "smithy.example#Z")]
    assert check(idl("resource R { resources: [X, Y] }\nresource X {}\nresource Y {}\n")) == []


def test_graph_checks_import_networkx_only_for_a_cycle():
    """graphlib finds that there is no mixin or containment cycle; networkx (~0.15 s to
    import) is imported only to list the shapes on one."""
    code = ("import sys\nfrom smithy2cfn.diagnostics import Diagnostics\nfrom smithy2cfn.load import load_texts\n"
            "from smithy2cfn.validation import validate_model\n"
            "text = '$version: \"2\"\\nnamespace a\\n@mixin\\nstructure M {}\\nstructure S with [M] {}\\n"
            "resource P { resources: [C] }\\nresource C {}\\n' + sys.argv[1]\n"
            "diags = Diagnostics()\nvalidate_model(load_texts([('a.smithy', text)], diags))\n"
            "print('networkx' in sys.modules)\n")
    for extra, imported in (("", "False"), ("resource X { resources: [X] }", "True")):
        out = subprocess.run([sys.executable, "-c", code, extra], capture_output=True, text=True, check=True)
        assert out.stdout.strip() == imported, out.stderr


# --------------------------------------------------------------------------- aws.cloudformation


def test_cfn_mutability_and_additional_identifier():
    out = check(idl("structure S {\n    @aws.cloudformation#cfnAdditionalIdentifier\n"
                    '    @aws.cloudformation#cfnMutability("create")\n    a: String\n}\n'))
    assert codes(out) == [("S3052", "smithy.example#S$a")]


def test_cfn_property_targeting_two_shapes_of_one_type_is_an_error():
    """As in the reference (CfnResourcePropertyValidator reads the CfnResourceIndex): two
    string shapes are two targets."""
    out = check(idl("""
@aws.cloudformation#cfnResource
resource R {
    identifiers: { id: String }
    create: CreateR
    read: GetR
}
string NameA
string NameB
operation CreateR { input := { name: NameA } }
@readonly
operation GetR { input := { @required id: String }, output := { name: NameB } }
"""))
    assert codes(out) == [("S3050", "smithy.example#R")]


def _parse_errorfile(path: Path) -> list[tuple[str, str, str, str]]:
    """``(severity, shape ID, message, event ID)`` for each line of a reference ``.errors`` file."""
    events = []
    for line in path.read_text().splitlines():
        m = re.match(r"\[(\w+)\] ([^:]+(?::[^ :][^:]*)?): (.*) \| ([\w.#]+)\s*$", line)
        if m:
            events.append((m.group(1), m.group(2), m.group(3), m.group(4).split(".", 1)[0]))
    return events


def _errorfiles() -> list[Path]:
    folder = SHARED / "conformance" / "cfn-traits" / "errorfiles"
    return sorted(folder.glob("*.errors")) if folder.exists() else []


@pytest.mark.parametrize("errors_file", _errorfiles() or [None], ids=lambda p: p.stem if p else "absent")
def test_cfn_traits_errorfiles(errors_file):
    if errors_file is None:
        shared_or_skip("conformance", "cfn-traits", "errorfiles")
    diags = Diagnostics()
    model = load_model([str(errors_file.with_suffix(".smithy"))], diags)
    assert not diags.has_errors
    out = validate_model(model)
    expected = _parse_errorfile(errors_file)
    assert expected
    missing = []
    for severity, shape, message, event in expected:
        hit = [d for d in out if d.shape_id == shape and d.severity.name == severity
               and f"Smithy event: {event}" in (d.hint or "")]
        record_result("cfn-traits events", f"{errors_file.stem}: {shape} {event}", bool(hit))
        if not hit:
            missing.append((severity, shape, event, message))
    extra_errors = [d for d in out if d.is_error and not any(
        d.shape_id == s and sev == "ERROR" for sev, s, _, _ in expected)]
    print(f"{errors_file.stem}: {len(expected) - len(missing)}/{len(expected)} events reproduced")
    assert not missing
    assert not extra_errors, [d.message for d in extra_errors]


# --------------------------------------------------------------------------- no false errors


def _valid_model_groups() -> list[tuple[str, list[str]]]:
    conf = SHARED / "conformance"
    if not conf.exists():
        return []
    groups = [(f"aws/{f.stem}", [str(f)]) for f in sorted((conf / "aws" / "models").glob("*.json"))]
    cases = json.loads((conf / "cfn" / "cases.json").read_text())["cases"]
    groups += [(f"cfn/{c['name']}", [str(conf / "cfn" / m) for m in c["models"]]) for c in cases]
    shared = conf / "idl" / "valid" / "__shared.json"
    groups += [(f"idl/{f.relative_to(conf / 'idl' / 'valid')}", [str(f), str(shared)])
               for f in sorted((conf / "idl" / "valid").rglob("*.smithy"))]
    return groups


@pytest.mark.parametrize("name,paths", _valid_model_groups() or [("absent", [])],
                         ids=[g[0] for g in _valid_model_groups()] or ["absent"])
def test_no_false_errors_on_valid_models(name, paths):
    if not paths:
        shared_or_skip("conformance")
    diags = Diagnostics()
    model = load_model(paths, diags)
    assert not diags.has_errors, [d.format_text(None) for d in diags if d.is_error]
    errors = [d.format_text(None) for d in validate_model(model) if d.is_error]
    record_result("validate: no false errors", name, not errors)
    assert not errors


#: IDL invalid cases whose problem is semantic: the expected event must come from load or validate.
SEMANTIC_INVALID = [
    "enums/enum-with-bad-values.smithy",
    "enums/enum-without-member.smithy",
    "enums/int-enum-without-member.smithy",
    "enums/intEnum-with-bad-value.smithy",
    "enums/intEnum-with-float.smithy",
    "enums/intEnum-with-long.smithy",
    "lists/list-empty-members.smithy",
    "lists/set-empty-members.smithy",
    "maps/map-empty-members.smithy",
    "mixins/member-mixin-conflict-1.smithy",
    "mixins/member-mixin-conflict-2.smithy",
    "mixins/operation-mixin-with-io.smithy",
    "mixins/resource-mixin-with-properties.smithy",
]


@pytest.mark.parametrize("case", SEMANTIC_INVALID)
def test_semantic_invalid_idl_cases_are_rejected(case):
    path = shared_or_skip("conformance", "idl", "invalid", *case.split("/"))
    diags = Diagnostics()
    model = load_model([str(path)], diags)
    errors = [d for d in diags if d.is_error] + [d for d in validate_model(model) if d.is_error]
    record_result("idl invalid (semantic)", case, bool(errors))
    assert errors


def test_validators_never_fail_on_partial_models():
    """Models that fail to load (the IDL invalid suite) still validate without an S3099."""
    folder = shared_or_skip("conformance", "idl", "invalid")
    for path in sorted(folder.rglob("*.smithy")):
        model = load_model([str(path)], Diagnostics())
        internal = [d.message for d in validate_model(model) if d.code == "S3099"]
        assert not internal, (path.name, internal)


def test_a_required_member_given_null_in_a_trait_value():
    """The reference's NodeValidationVisitor.checkNullMember: a required member set to null is
    a TraitValue error unless NullableIndex (client mode) calls it nullable (@clientOptional,
    or a member of an @input structure)."""
    base = ("@trait\nstructure t {{\n    @required\n    {opt}v: String\n}}\n\n@t(v: null)\nstring S\n")
    out = check(idl(base.format(opt="")))
    assert codes(out) == [("S3003", "smithy.example#S")]
    assert "Required structure member `v` for `smithy.example#t` cannot be null" in out[0].message
    assert codes(check(idl(base.format(opt="@clientOptional\n    ")))) == []
