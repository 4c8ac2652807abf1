"""Validators of the rules engine (``smithy.rules``) and of ``aws.endpoints``
(:mod:`smithy2cfn.validation.rules.ruleset`, :mod:`smithy2cfn.validation.rules.aws_endpoints`):
variations of the rules beyond the per-check fixtures of tests/validation/fixtures/rules. The
language they read rule sets with is tested in tests/languages/test_rules_engine.py.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostic
from smithy2cfn.validation.rules.aws_endpoints import is_valid_url

SERVICE = "smithy.example#S"


def run(tmp_path: Path, body: str) -> list[Diagnostic]:
    path = tmp_path / "model.smithy"
    path.write_text('$version: "2.0"\nnamespace smithy.example\n' + body, encoding="utf-8")
    return api.validate(api.load([path])).diagnostics


def errors(diags: list[Diagnostic]) -> list[tuple[str, str | None]]:
    """``(event ID, shape)`` of the ERROR/DANGER diagnostics, sorted."""
    return sorted((d.event_id or "", d.shape_id) for d in diags if d.is_error)


def events(diags: list[Diagnostic]) -> set[str]:
    return {d.event_id or "" for d in diags if d.is_error}


def param(kind: str = "string", **more: Any) -> dict:
    return {"type": kind, "documentation": "d", **more}


def rule_set(params: dict | None = None, rules: list | None = None, version: str = "1.0") -> dict:
    return {"version": version, "parameters": params if params is not None else {},
            "rules": rules if rules is not None else [
                {"type": "endpoint", "conditions": [], "endpoint": {"url": "https://example.com"}}]}


def service(ruleset: dict, tests: list | None = None, client: dict | None = None, operations: str = "",
            extra: str = "") -> str:
    """A service ``S`` with the rule set, its endpoint tests and client context parameters."""
    traits = [f"@smithy.rules#endpointRuleSet({json.dumps(ruleset)})"]
    if tests is not None:
        traits.append(f'@smithy.rules#endpointTests({json.dumps({"version": "1.0", "testCases": tests})})')
    if client:
        traits.append(f"@smithy.rules#clientContextParams({json.dumps(client)})")
    ops = f"operations: [{operations}]" if operations else ""
    return "\n".join(traits) + f"\nservice S {{ {ops} }}\n" + extra


def endpoint_test(params: dict, url: str | None = "https://example.com", error: str | None = None, **more) -> dict:
    expect = {"error": error} if error is not None else {"endpoint": {"url": url}}
    return {"documentation": "t", "params": params, "expect": expect, **more}


# --------------------------------------------------------------------------- trait creation


@pytest.mark.parametrize("ruleset", [
    rule_set({"P": param("integer", required=True)}),                          # no such parameter type
    rule_set({"P": param(default="x")}),                                       # a default, not required
    rule_set({"P": param(extra=True)}),                                        # an unknown property
    rule_set(rules=[{"type": "loop", "conditions": []}]),                      # an unknown rule type
    rule_set(rules=[{"type": "error", "conditions": [], "error": "a {b"}]),   # an unclosed template
    {"version": "1", "parameters": {}, "rules": []},                           # a version without minor
    {"version": "1.0", "rules": []},                                           # no parameters
])
def test_rule_sets_that_cannot_be_read(tmp_path, ruleset):
    assert ("Model", SERVICE) in errors(run(tmp_path, service(ruleset)))


def test_a_readable_rule_set_is_accepted(tmp_path):
    ruleset = rule_set({"Endpoint": param(builtIn="SDK::Endpoint")}, [
        {"type": "endpoint", "conditions": [{"fn": "isSet", "argv": [{"ref": "Endpoint"}]}],
         "endpoint": {"url": {"ref": "Endpoint"}, "headers": {"x": ["a"]}, "properties": {"p": [1, True]}}},
        {"type": "error", "conditions": [], "error": "no endpoint"}])
    tests = [{"params": {"Endpoint": "https://x.example.com"}, "expect": {"endpoint": {
        "url": "https://x.example.com", "headers": {"x": ["a"]}, "properties": {"p": [1, True]}}}},
             endpoint_test({}, error="no endpoint")]
    found = run(tmp_path, service(ruleset, tests))
    assert errors(found) == []


BDD = ('@smithy.rules#endpointBdd(version: "{version}", parameters: {{}}, conditions: [], '
       'results: [{{type: "error", error: "e"}}], root: {root}, nodeCount: {count}, nodes: "{nodes}")\n'
       "service S {{}}\n")
TERMINAL = base64.b64encode(bytes.fromhex("ffffffff00000001ffffffff")).decode()


@pytest.mark.parametrize("version, root, count, nodes, event", [
    ("1.1", 1, 1, TERMINAL, None),
    ("1.1", 100000001, 1, TERMINAL, None),             # the first result
    ("1.0", 1, 1, TERMINAL, "Model"),                  # BDDs need 1.1
    ("1.1", 1, 1, "ABCD=", "Model"),                   # padding after a whole unit
    ("1.1", 1, 2, TERMINAL, "Model"),                  # 12 bytes for 2 nodes
    ("1.1", -5, 1, TERMINAL, "Model"),                 # a complemented root
    ("1.1", 100000005, 1, TERMINAL, "BddTrait"),       # no fifth result
])
def test_bdds(tmp_path, version, root, count, nodes, event):
    found = events(run(tmp_path, BDD.format(version=version, root=root, count=count, nodes=nodes)))
    if event is None:
        assert found == set()
    else:
        assert event in found and found <= {event, "TraitValue"}  # (@range of `root`)


def test_bdd_nodes_refer_to_conditions_that_exist(tmp_path):
    # node 1 tests condition 3 of none
    nodes = base64.b64encode(bytes.fromhex("ffffffff00000001ffffffff" "00000003" "00000001" "ffffffff")).decode()
    assert events(run(tmp_path, BDD.format(version="1.1", root=2, count=2, nodes=nodes))) == {"BddTrait"}


# --------------------------------------------------------------------------- operation parameters

OP = """
operation Op {{
    input := {{
        @smithy.rules#contextParam(name: "Bucket")
        bucket: {target}
    }}
}}
"""


def test_static_context_params_take_strings_booleans_and_string_lists(tmp_path):
    body = '@smithy.rules#staticContextParams(P: {value: %s})\noperation Op {}\n'
    for good in ('"x"', "true", '["a", "b"]'):
        assert errors(run(tmp_path, body % good)) == [], good
    for bad in ("1", "{a: 1}", '["a", 1]'):
        assert errors(run(tmp_path, body % bad)) == [("StaticContextParamsTrait", "smithy.example#Op")], bad


@pytest.mark.parametrize("path, problem", [
    ("bucket", None), ("items[*].name", None), ("keys(map)", None),
    ("length(items)", "unsupported"), ("items[0]", "unsupported"), ("bucket.name", "invalid"), ("..", "parse"),
])
def test_operation_context_params(tmp_path, path, problem):
    body = f"""
@smithy.rules#operationContextParams(P: {{path: "{path}"}})
operation Op {{ input := {{ bucket: String, items: Items, map: M }} }}
list Items {{ member: Item }}
structure Item {{ name: String }}
map M {{ key: String, value: String }}
"""
    found = [d for d in run(tmp_path, body) if d.event_id == "OperationContextParamsTrait"]
    assert bool(found) == (problem is not None)
    if problem:
        assert problem in found[0].message


def test_rule_set_parameters_match_the_model(tmp_path):
    rs = rule_set({"Bucket": param(), "Region": param(builtIn="AWS::Region")})
    ok = service(rs, operations="Op", extra=OP.format(target="String"))
    assert errors(run(tmp_path, ok)) == []
    # a parameter of the rule set the model does not bind, and one the model binds but the rule set lacks
    unmatched = service(rule_set({"Other": param()}), operations="Op", extra=OP.format(target="String"))
    assert errors(run(tmp_path, unmatched)) == [("RuleSetParameter.RuleSet.UnmatchedName", SERVICE)] * 2
    mismatch = service(rule_set({"Bucket": param("boolean")}), operations="Op", extra=OP.format(target="String"))
    assert errors(run(tmp_path, mismatch)) == [("RuleSetParameter.RuleSet.TypeMismatch", SERVICE)]


def test_context_params_target_strings_or_booleans(tmp_path):
    body = service(rule_set({"Bucket": param()}), operations="Op", extra=OP.format(target="Integer"))
    assert ("RuleSetParameter.ContextParam.UnsupportedType", "smithy.example#OpInput$bucket") in errors(
        run(tmp_path, body))


def test_one_parameter_one_type_across_the_model(tmp_path):
    body = service(rule_set({"Bucket": param()}), client={"Bucket": {"type": "boolean"}}, operations="Op",
                   extra=OP.format(target="String"))
    assert ("RuleSetParameter.ContextParam.InconsistentType", "smithy.example#OpInput$bucket") in errors(
        run(tmp_path, body))


def test_required_parameters_are_bound_by_every_operation(tmp_path):
    rs = rule_set({"Bucket": param(required=True)})
    found = errors(run(tmp_path, service(rs, operations="Op, Other",
                                         extra=OP.format(target="String") + "operation Other {}\n")))
    assert ("RuleSetParameter.Operation.RequiredMissing", "smithy.example#Other") in found
    assert ("RuleSetParameter.Operation.RequiredMissing", "smithy.example#Op") not in found


def test_parameters_against_test_cases(tmp_path):
    rs = rule_set({"Region": param(builtIn="AWS::Region", required=True)})
    assert errors(run(tmp_path, service(rs, [endpoint_test({"Region": "us-east-1"})]))) == []
    assert errors(run(tmp_path, service(rs, [endpoint_test({"Region": "x"}), endpoint_test({})]))) == [
        ("RuleSetParameter.TestCase.RequiredMissing", SERVICE)]
    assert ("RuleSetParameter.TestCase.TypeMismatch", SERVICE) in errors(
        run(tmp_path, service(rs, [endpoint_test({"Region": True})])))
    assert ("RuleSetParameter.TestCase.Undefined", SERVICE) in errors(
        run(tmp_path, service(rs, [endpoint_test({"Region": "x", "Nope": "y"})])))
    assert ("RuleSetParameter.TestCase.Unused", SERVICE) in errors(
        run(tmp_path, service(rule_set({"Region": param(builtIn="AWS::Region")}), [endpoint_test({})])))


# --------------------------------------------------------------------------- rules


def with_auth(*schemes: dict) -> dict:
    return rule_set(rules=[{"type": "endpoint", "conditions": [], "endpoint": {
        "url": "https://example.com", "properties": {"authSchemes": list(schemes)}}}])


@pytest.mark.parametrize("schemes, severity", [
    ([{"name": "sigv4", "signingName": "s", "signingRegion": "r"}], None),
    ([{"name": "sigv4a", "signingName": "s", "signingRegionSet": ["*"]}], None),
    ([{"name": "beta-x", "signingName": "s"}], None),
    ([{"name": "sigv4", "signingName": 1}], "ERROR"),           # a property of the wrong type
    ([{"name": "sigv4", "extra": "x"}], "ERROR"),                # an unknown property
    ([{"name": "sigv4a", "signingRegionSet": []}], "ERROR"),     # an empty region set
    ([{"name": "beta-x"}], "ERROR"),                             # beta schemes need a signing name
    ([{"signingName": "s"}], "ERROR"),                           # no name
    ([{"name": "sigv4"}, {"name": "sigv4"}], "ERROR"),           # twice
    ([{"name": "sigv4-x", "signingName": "s"}], "DANGER"),       # sub-schemes may change
    ([{"name": "custom"}], "WARNING"),                           # no validator for it
])
def test_auth_schemes(tmp_path, schemes, severity):
    found = {d.severity.name for d in run(tmp_path, service(with_auth(*schemes))) if d.event_id == "RuleSetAuthSchemes"}
    assert found == ({severity} if severity else set())


def test_built_ins_are_registered(tmp_path):
    assert errors(run(tmp_path, service(rule_set({"X": param(builtIn="SDK::Nope")})))) == [
        ("RuleSetBuiltIn.RuleSet", SERVICE)]
    assert errors(run(tmp_path, service(rule_set({"X": param(builtIn="AWS::Auth::AccountId")})))) == [
        ("RuleSetAwsBuiltIn.AWS::Auth::AccountId", SERVICE)]
    assert errors(run(tmp_path, service(rule_set({"X": param(builtIn="SDK::Endpoint")})))) == []


@pytest.mark.parametrize("url, bad", [("https://a.com", False), ("{Endpoint}", False), ("http://{x}", False),
                                      ("ftp://a.com", True), ("a{x}", True)])
def test_endpoint_urls_start_with_http(tmp_path, url, bad):
    rs = rule_set(rules=[{"type": "endpoint", "conditions": [], "endpoint": {"url": url}}])
    assert (("RuleSetUri", SERVICE) in errors(run(tmp_path, service(rs)))) == bad


def test_parameters_without_documentation_are_a_warning(tmp_path):
    found = run(tmp_path, service(rule_set({"X": {"type": "string", "builtIn": "SDK::Endpoint"}})))
    assert [d.severity.name for d in found if d.event_id == "RuleSetParamMissingDocs"] == ["WARNING"]


@pytest.mark.parametrize("fn, argv", [("coalesce", [{"ref": "A"}, "b"]), ("split", ["a-b", "-", 0]),
                                      ("ite", [True, "a", "b"]), ("getAttr", [{"ref": "A"}, "x[-1]"])])
def test_newer_functions_need_version_1_1(tmp_path, fn, argv):
    rules = [{"type": "endpoint", "conditions": [{"fn": fn, "argv": argv, "assign": "v"}],
              "endpoint": {"url": "https://a.com"}}]
    params = {"A": param(builtIn="SDK::Endpoint")}
    assert ("RulesEngineVersion", SERVICE) in errors(run(tmp_path, service(rule_set(params, rules, "1.0"))))
    assert ("RulesEngineVersion", SERVICE) not in errors(run(tmp_path, service(rule_set(params, rules, "1.1"))))


# --------------------------------------------------------------------------- endpoint tests

ENDPOINT_PARAM = {"Endpoint": param(builtIn="SDK::Endpoint")}
GET = "operation Get { input := { @required id: String } }\n"


def inputs(params: dict | None = None, built_ins: dict | None = None, name: str = "Get") -> dict:
    entry: dict = {"operationName": name, "operationParams": params if params is not None else {"id": "x"}}
    if built_ins is not None:
        entry["builtInParams"] = built_ins
    return entry


@pytest.mark.parametrize("case, event", [
    (endpoint_test({}, operationInputs=[inputs()]), None),
    (endpoint_test({}, operationInputs=[inputs(name="Nope")]), "ERROR"),                 # no such operation
    (endpoint_test({}, operationInputs=[inputs({})]), "ERROR"),                          # a required member
    (endpoint_test({}, operationInputs=[inputs({"id": "x", "z": 1})]), "DANGER"),        # an unknown member
    (endpoint_test({"Endpoint": "https://a"}, operationInputs=[inputs()]), "ERROR"),     # built-in not given
    (endpoint_test({"Endpoint": "https://a"}, operationInputs=[inputs(built_ins={"SDK::Endpoint": "https://b"})]),
     "ERROR"),                                                                            # inconsistent
])
def test_endpoint_test_operation_inputs(tmp_path, case, event):
    body = service(rule_set(ENDPOINT_PARAM), [case], operations="Get", extra=GET)
    found = {d.severity.name for d in run(tmp_path, body) if d.event_id.startswith("EndpointTestsTrait")}
    assert found == ({event} if event else set())


EVAL_RULES = [
    {"type": "error", "conditions": [{"fn": "isSet", "argv": [{"ref": "Flag"}]},
                                     {"fn": "booleanEquals", "argv": [{"ref": "Flag"}, True]}],
     "error": "flag set"},
    {"type": "endpoint", "conditions": [{"fn": "isSet", "argv": [{"ref": "Name"}]},
                                        {"fn": "split", "argv": [{"ref": "Name"}, "-", 0], "assign": "parts"},
                                        {"fn": "getAttr", "argv": [{"ref": "parts"}, "[-1]"], "assign": "last"}],
     "endpoint": {"url": "https://{last}.example.com", "headers": {"h": ["{Name}"]}}},
    {"type": "error", "conditions": [], "error": "no name"},
]
EVAL_PARAMS = {"Flag": param("boolean"), "Name": param()}


@pytest.mark.parametrize("case, failing", [
    (endpoint_test({"Flag": True}, error="flag set"), False),
    (endpoint_test({"Name": "a-b"}, "https://b.example.com") | {"expect": {"endpoint": {
        "url": "https://b.example.com", "headers": {"h": ["a-b"]}}}}, False),
    (endpoint_test({}, error="no name"), False),
    (endpoint_test({"Flag": True}, error="other"), True),                  # another error
    (endpoint_test({"Name": "a-b"}, "https://a.example.com"), True),      # another endpoint
    (endpoint_test({"Flag": "true"}, error="flag set"), True),            # a string for a boolean
    (endpoint_test({}, "https://example.com"), True),                     # an error, not an endpoint
    (endpoint_test({"Name": "a-b"}, error="no name"), True),              # an endpoint, not an error
])
def test_test_cases_are_evaluated(tmp_path, case, failing):
    body = service(rule_set(EVAL_PARAMS, EVAL_RULES, "1.1"), [case], client={
        "Flag": {"type": "boolean", "documentation": "d"}, "Name": {"type": "string", "documentation": "d"}})
    assert (("RuleSetTestCase", SERVICE) in errors(run(tmp_path, body))) == failing


def test_evaluation_stops_at_functions_it_does_not_model(tmp_path):
    rules = [{"type": "endpoint", "conditions": [{"fn": "aws.partition", "argv": [{"ref": "Region"}], "assign": "p"},
                                                 {"fn": "booleanEquals", "argv": [{"fn": "getAttr", "argv": [
                                                     {"ref": "p"}, "supportsFIPS"]}, True]}],
              "endpoint": {"url": "https://{p#dnsSuffix}"}}]
    rs = rule_set({"Region": param(builtIn="AWS::Region", required=True)}, rules, "1.1")
    assert errors(run(tmp_path, service(rs, [endpoint_test({"Region": "us-east-1"}, "https://whatever")]))) == []
    # but the argument types are still checked
    assert ("RuleSetTestCase", SERVICE) in errors(run(tmp_path, service(rs, [endpoint_test({"Region": True})])))


# --------------------------------------------------------------------------- aws.endpoints


@pytest.mark.parametrize("endpoint, found", [
    ("https://{service}.{region}.{dnsSuffix}", set()),
    ("https://{service}.{bad}.{dnsSuffix}", {"AwsSpecialCaseEndpoint.UnsupportedEndpointPattern"}),
    ("{service}.{region}.{dnsSuffix}", {"AwsSpecialCaseEndpoint.InvalidEndpointPatternScheme",
                                        "AwsSpecialCaseEndpoint.InvalidEndpointPatternUrl"}),
    ("https://{region}. bad {dnsSuffix}", {"AwsSpecialCaseEndpoint.InvalidEndpointPatternUrl"}),
])
def test_special_case_endpoints(tmp_path, endpoint, found):
    body = f'@aws.endpoints#standardRegionalEndpoints(regionSpecialCases: {{"us-east-1": [{{endpoint: "{endpoint}"}}]}})\n'
    assert events(run(tmp_path, body + "service S {}\n")) == found


def test_urls():
    assert is_valid_url("https://a.b/c?d=e#f") and is_valid_url("http://{region}.x")
    assert not is_valid_url("a.b") and not is_valid_url("https://a b") and not is_valid_url("gopher://a")
