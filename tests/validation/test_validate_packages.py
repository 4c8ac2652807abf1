"""Validators of the trait packages: traitValidators, waiters (with the JMESPath type check),
protocols, protocol tests, mqtt, apigateway, contracts.

Each rule gets one model that triggers it and one that does not. The JMESPath language the
waiters are checked with is tested in tests/languages/test_jmespath_lint.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostic


def run(tmp_path: Path, body: str, header: str = 'namespace smithy.example\n') -> list[Diagnostic]:
    """Load and validate one IDL model; every diagnostic."""
    path = tmp_path / "model.smithy"
    path.write_text('$version: "2.0"\n' + header + body, encoding="utf-8")
    model, diags = api.load([path])  # the collector: every event, repeats included (a result lists each once)
    api.validate(model, diags)
    return list(diags)


def events(diags: list[Diagnostic], severity: str | None = None) -> list[tuple[str, str | None]]:
    """``(event ID, shape ID)`` of the diagnostics (of one severity), sorted."""
    return sorted((d.event_id or "", d.shape_id) for d in diags
                  if severity is None or d.severity.name == severity)


def errors(diags: list[Diagnostic]) -> list[tuple[str, str | None]]:
    return sorted((d.event_id or "", d.shape_id) for d in diags if d.is_error)


# --------------------------------------------------------------------------- traitValidators

TRAIT_VALIDATORS = """
@trait
@traitValidators(
    "myTrait.NoDocuments": {selector: "~> member :test(> document)", message: "no documents"}
    "myTrait.Warn": {selector: "~> member :test(> blob)", severity: "WARNING"}
)
structure myTrait {}

@myTrait
service S { operations: [Op] }

operation Op { input := { %s } }
"""


def test_trait_validators_report_shapes_the_selector_finds(tmp_path):
    diags = run(tmp_path, TRAIT_VALIDATORS % "doc: Document\n b: Blob")
    assert errors(diags) == [("myTrait.NoDocuments", "smithy.example#OpInput$doc")]
    found = [d for d in diags if d.event_id == "myTrait.NoDocuments"][0]
    assert found.message == ("Found an incompatible shape when validating the constraints of the "
                             "`smithy.example#myTrait` trait attached to `smithy.example#S`: no documents")
    assert ("myTrait.Warn", "smithy.example#OpInput$b") in events(diags, "WARNING")


def test_trait_validators_accept_shapes_the_selector_does_not_find(tmp_path):
    assert errors(run(tmp_path, TRAIT_VALIDATORS % "s: String")) == []


def test_trait_validators_run_from_the_applied_shape_only(tmp_path):
    # the same document member, not reachable from where the trait is applied
    body = TRAIT_VALIDATORS % "s: String" + "\nstructure Other { doc: Document }\n"
    assert errors(run(tmp_path, body)) == []


@pytest.mark.parametrize("key, valid", [("foo.bar", True), ("_foo", True), ("Foo", True), (".", False),
                                        ("foo.", False), ("_", False), ("1", False), ("a.1", False),
                                        ("!.a", False)])
def test_trait_validator_keys_are_event_ids(tmp_path, key, valid):
    body = f'@trait\n@traitValidators("{key}": {{selector: "~> string"}})\nstructure t {{}}\n'
    assert errors(run(tmp_path, body)) == ([] if valid else [("TraitValidators", "smithy.example#t")])


def test_rpcv2_cbor_documents_are_a_danger(tmp_path):
    body = """
use smithy.protocols#rpcv2Cbor
@rpcv2Cbor
service S { operations: [Op] }
operation Op { input := { %s } }
"""
    assert errors(run(tmp_path, body % "doc: Document")) == [("rpcv2Cbor.NoDocuments", "smithy.example#OpInput$doc")]
    assert errors(run(tmp_path, body % "s: String")) == []


# --------------------------------------------------------------------------- waiters

WAITER = """
use smithy.waiters#waitable
@waitable(
    W: {
        acceptors: [
            %s
        ]
    }
)
operation Op {
    input := { id: String }
    output := { status: String, items: ItemList, names: NameList, ready: Boolean, count: Integer }
    errors: [NotFound]
}
list ItemList { member: Item }
list NameList { member: String }
structure Item { name: String }
@error("client")
structure NotFound {}
"""


def waiter(tmp_path, *acceptors: str) -> list[Diagnostic]:
    return run(tmp_path, WAITER % "\n".join(acceptors))


def ok(path: str, comparator: str = "booleanEquals", expected: str = "true", kind: str = "output") -> str:
    return (f'{{state: "success", matcher: {{{kind}: {{path: "{path}", comparator: "{comparator}", '
            f'expected: "{expected}"}}}}}}')


@pytest.mark.parametrize("acceptor", [
    ok("ready"), ok("status", "stringEquals", "DONE"), ok("items[].name", "allStringEquals", "a"),
    ok("length(items) > `0`"), ok("input.id == output.status", kind="inputOutput"),
    ok("contains(items[].name, 'x')"), ok("ready && count > `1`"),
    '{state: "success", matcher: {errorType: "NotFound"}}',
    '{state: "success", matcher: {errorType: "smithy.example#NotFound"}}',
    '{state: "success", matcher: {success: true}}',
])
def test_waiters_accept_well_typed_acceptors(tmp_path, acceptor):
    diags = waiter(tmp_path, acceptor)
    assert [d for d in diags if d.event_id and d.event_id.startswith(("Waitable", "UniqueWaiter"))] == []


@pytest.mark.parametrize("acceptor, event, severity", [
    (ok("missing"), "WaitableTraitJmespathProblem.JmespathEventDanger.W.0", "DANGER"),
    (ok("status"), "WaitableTraitJmespathProblem.ReturnTypeMismatch.W.0", "DANGER"),
    (ok("ready", "stringEquals", "x"), "WaitableTraitJmespathProblem.ReturnTypeMismatch.W.0", "DANGER"),
    (ok("status", "anyStringEquals", "x"), "WaitableTraitJmespathProblem.ReturnTypeMismatch.W.0", "DANGER"),
    (ok("`10`.foo"), "WaitableTraitJmespathProblem.JmespathEventDanger.W.0", "DANGER"),
    (ok("ready", expected="yes"), "WaitableTrait", "ERROR"),
    (ok("||"), "WaitableTrait", "ERROR"),
    (ok("`foo` == 'foo'"), "WaitableTrait", "ERROR"),  # elided-quote literal: not JSON
    (ok("length(`10`) > `1`"), "WaitableTrait", "ERROR"),
    (ok("nope(ready)"), "WaitableTrait", "ERROR"),
    (ok("output.missing == 'x'", kind="inputOutput"), "WaitableTraitJmespathProblem.JmespathEventDanger.W.0",
     "DANGER"),
    (ok("`true` < `false`"), "WaitableTraitJmespathProblem.JmespathEventWarning.W.0", "WARNING"),
    ('{state: "success", matcher: {errorType: "Nope"}}', "WaitableTraitInvalidErrorType.W.0", "WARNING"),
])
def test_waiters_report_badly_typed_acceptors(tmp_path, acceptor, event, severity):
    diags = waiter(tmp_path, acceptor)
    assert (event, "smithy.example#Op") in events(diags, severity)


def test_waiters_need_a_success_acceptor(tmp_path):
    failure = ok("ready").replace('"success"', '"failure"')
    assert ("WaitableTrait", "smithy.example#Op") in errors(waiter(tmp_path, failure))
    assert errors(waiter(tmp_path, failure, ok("ready"))) == []


def test_waiter_messages(tmp_path):
    def failure(message: str) -> str:
        return ok("ready").replace('"success"', '"failure"')[:-1] + f', message: "{message}"}}'
    assert errors(waiter(tmp_path, ok("ready"), failure("status"))) == []
    assert errors(waiter(tmp_path, ok("ready"), failure("names"))) == []
    for bad in ("ready", "items", "@@", "count"):
        assert ("WaitableTrait", "smithy.example#Op") in errors(waiter(tmp_path, ok("ready"), failure(bad))), bad
    on_success = ok("ready")[:-1] + ', message: "status"}'
    assert ("WaitableTrait", "smithy.example#Op") in errors(waiter(tmp_path, on_success))


def test_waiter_delays(tmp_path):
    body = WAITER.replace("W: {", "W: { minDelay: 10, maxDelay: 5,") % ok("ready")
    assert ("WaitableTrait", "smithy.example#Op") in errors(run(tmp_path, body))
    body = WAITER.replace("W: {", "W: { minDelay: 5, maxDelay: 10,") % ok("ready")
    assert errors(run(tmp_path, body)) == []


def test_waiter_names_are_unique_in_a_service(tmp_path):
    body = """
use smithy.waiters#waitable
service S { operations: [A, B] }
@waitable(Done: {acceptors: [{state: "success", matcher: {success: true}}]})
operation A {}
@waitable(%s: {acceptors: [{state: "success", matcher: {success: true}}]})
operation B {}
"""
    assert errors(run(tmp_path, body % "DONE")) == [("UniqueWaiterNames", "smithy.example#A"),
                                                    ("UniqueWaiterNames", "smithy.example#B")]
    assert errors(run(tmp_path, body % "Other")) == []


# --------------------------------------------------------------------------- protocols


@pytest.mark.parametrize("trait, event", [("rpcv2Cbor", "Rpcv2CborTrait"), ("rpcv2Json", "Rpcv2JsonTrait")])
def test_rpcv2_event_stream_http_is_a_subset_of_http(tmp_path, trait, event):
    body = f'@smithy.protocols#{trait}(http: ["h2"], eventStreamHttp: %s)\nservice S {{}}\n'
    assert errors(run(tmp_path, body % '["h2", "http/1.1"]')) == [(event, "smithy.example#S")]
    assert errors(run(tmp_path, body % '["h2"]')) == []


# --------------------------------------------------------------------------- apigateway

APIGW = """
use aws.apigateway#authorizers
@aws.auth#sigv4(name: "x")
@authorizers(a: {scheme: %s, type: "request", uri: "arn:x"%s})
service S {}
"""


def test_authorizer_schemes_are_auth_schemes_of_the_service(tmp_path):
    assert errors(run(tmp_path, APIGW % ('"aws.auth#sigv4"', ""))) == []
    assert errors(run(tmp_path, APIGW % ('"smithy.api#httpBearerAuth"', ""))) == [("AuthorizersTrait",
                                                                                   "smithy.example#S")]


def test_simple_responses_need_payload_format_2(tmp_path):
    two = ', enableSimpleResponses: true, authorizerPayloadFormatVersion: "2.0"'
    assert errors(run(tmp_path, APIGW % ('"aws.auth#sigv4"', two))) == []
    one = two.replace('"2.0"', '"1.0"')
    assert errors(run(tmp_path, APIGW % ('"aws.auth#sigv4"', one))) == [("AuthorizersTrait", "smithy.example#S")]


def test_private_endpoints_are_dual_stack(tmp_path):
    body = '@aws.apigateway#endpointConfiguration(types: ["PRIVATE"], ipAddressType: "%s")\nservice S {}\n'
    assert errors(run(tmp_path, body % "ipv4")) == [("EndpointConfiguration", "smithy.example#S")]
    assert errors(run(tmp_path, body % "dualstack")) == []


def test_gateway_responses_with_cors_is_a_danger(tmp_path):
    body = '@aws.apigateway#gatewayResponses(DEFAULT_4XX: {statusCode: "400"})\n%s\nservice S {}\n'
    assert errors(run(tmp_path, body % "@cors")) == [("GatewayResponsesCors", "smithy.example#S")]
    assert errors(run(tmp_path, body % "")) == []


# --------------------------------------------------------------------------- mqtt

MQTT = """
use smithy.mqtt#publish
use smithy.mqtt#topicLabel
@publish(%s)
operation Op { input := { @required @topicLabel id: String } }
"""


def test_mqtt_topic_labels_match_input_members(tmp_path):
    assert errors(run(tmp_path, MQTT % '"things/{id}"')) == []
    assert errors(run(tmp_path, MQTT % '"things/{id}/{other}"')) == [("MqttTopicLabel", "smithy.example#Op")]
    assert errors(run(tmp_path, MQTT % '"things"')) == [("MqttTopicLabel", "smithy.example#OpInput$id")]


@pytest.mark.parametrize("topic", ['"a/{id}x"', '"a/{id}/{id}"', '"a/{i-d}"', '""'])
def test_mqtt_topics_that_cannot_be_created(tmp_path, topic):
    assert ("Model", "smithy.example#Op") in errors(run(tmp_path, MQTT % topic))


def test_mqtt_topics_conflict_with_other_payloads(tmp_path):
    body = """
use smithy.mqtt#publish
@publish("a/b")
operation A { input := { x: String } }
@publish(%s)
operation B { input := { y: String } }
"""
    assert errors(run(tmp_path, body % '"a/b"')) == [("MqttTopicConflict", "smithy.example#A"),
                                                     ("MqttTopicConflict", "smithy.example#B")]
    assert errors(run(tmp_path, body % '"a/c"')) == []


# --------------------------------------------------------------------------- contracts

CONDITIONS = """
use smithy.contracts#conditions
@conditions(Ordered: {expression: "start < end", documentation: "ordered"})
structure Range { start: Integer, end: Integer }
@trait
structure window { range: Range }
@window(range: {start: %s, end: 5})
string S
"""


def test_trait_values_meet_the_conditions_of_their_shapes(tmp_path):
    assert errors(run(tmp_path, CONDITIONS % "1")) == []
    assert errors(run(tmp_path, CONDITIONS % "9")) == [("TraitValue.Ordered", "smithy.example#S")]


@pytest.mark.parametrize("expression, event", [
    ("start ||", "Model"),                      # does not parse: the trait is not created
    ("start", "ConditionsTrait"),               # no boolean
    ("length(start) > `1`", "ConditionsTrait"),  # a function given a wrong type
])
def test_condition_expressions_are_checked(tmp_path, expression, event):
    body = CONDITIONS.replace("start < end", expression) % "1"
    assert (event, "smithy.example#Range") in errors(run(tmp_path, body))


# --------------------------------------------------------------------------- protocol tests

REQUEST_TESTS = """
use smithy.test#httpRequestTests
@httpRequestTests([
    {id: "TestA", protocol: "aws.protocols#restJson1", method: "POST", uri: "/", params: %s, body: %s,
     bodyMediaType: "application/json"}
    {id: %s, protocol: "aws.protocols#restJson1", method: "POST", uri: "/"}
])
operation Op { input := { name: String } }
"""


def test_request_test_ids_are_unique(tmp_path):
    assert errors(run(tmp_path, REQUEST_TESTS % ("{}", '"{}"', '"TestB"'))) == []
    # one event per test case holding the ID, as the reference
    assert errors(run(tmp_path, REQUEST_TESTS % ("{}", '"{}"', '"TestA"'))) == [("UniqueProtocolTestCaseId",
                                                                                "smithy.example#Op")] * 2


def test_request_test_params_and_bodies_are_checked(tmp_path):
    assert errors(run(tmp_path, REQUEST_TESTS % ("{name: 1}", '"{}"', '"TestB"'))) == [("HttpRequestTestsInput",
                                                                                   "smithy.example#Op")]
    found = run(tmp_path, REQUEST_TESTS % ("{}", '"{"', '"TestB"'))
    assert errors(found) == [("HttpRequestTestsInput", "smithy.example#Op")]
    assert [d.severity.name for d in found if d.event_id == "HttpRequestTestsInput"] == ["DANGER"]


def test_malformed_request_test_parameters_have_one_length(tmp_path):
    body = """
use smithy.test#httpMalformedRequestTests
@httpMalformedRequestTests([{
    id: "Malformed", protocol: "aws.protocols#restJson1", request: {method: "POST", uri: "/"},
    response: {code: 400}, testParameters: {a: ["1", "2"], b: %s}
}])
operation Op {}
"""
    assert errors(run(tmp_path, body % '["1", "2"]')) == []
    assert errors(run(tmp_path, body % '["1"]')) == [("HttpMalformedRequestTests", "smithy.example#Op")]
