"""Tests of the built-in trait packages beyond the core prelude (src/smithy2cfn/prelude).

* each package's traits, applied where their selectors allow on a small model, load and
  validate with no ERROR/DANGER diagnostic and no unknown-trait warning, and the models
  together apply every trait the package defines;
* the same traits applied where their selectors, conflicts or value shapes forbid are
  rejected, so the definitions (not a lax validator) are what the first tests exercise.

The published AWS service models are tested in ``tests/emit/test_aws_all.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from smithy2cfn.api import load, validate
from smithy2cfn.diagnostics import Diagnostic
from smithy2cfn.model import Model

UNKNOWN_TRAIT = "S2010"
TRAIT_TARGET = "S3001"
TRAIT_CONFLICT = "S3002"
TRAIT_VALUE = "S3003"
INVALID_MEMBER = "S3004"


def run(tmp_path: Path, body: str) -> tuple[Model, list[Diagnostic]]:
    """Load and validate one IDL 2.0 model (namespace ``smithy.example``) through the library API."""
    path = tmp_path / "model.smithy"
    path.write_text('$version: "2"\n\nnamespace smithy.example\n\n' + body, encoding="utf-8")
    result = validate(load([path]))
    return result.model, result.diagnostics


def errors(diags: list[Diagnostic]) -> list[str]:
    return [d.format_text() for d in diags if d.is_error]


def error_codes(diags: list[Diagnostic]) -> set[tuple[str, str]]:
    """``(code, shape ID)`` of every ERROR/DANGER diagnostic."""
    return {(d.code, d.shape_id or "") for d in diags if d.is_error}


def applied_traits(model: Model) -> set[str]:
    """Trait IDs applied to the user's shapes and members (prelude shapes left out)."""
    out: set[str] = set()
    for shape in model.shapes.values():
        if model.is_prelude(shape.id):
            continue
        out |= set(shape.traits)
        for member in shape.members.values():
            out |= set(member.traits)
    return out


def defined_traits(model: Model, namespace: str) -> set[str]:
    """IDs of the trait definitions of one built-in namespace."""
    return {sid for sid, shape in model.shapes.items()
            if model.is_prelude(sid) and sid.split("#")[0] == namespace and "smithy.api#trait" in shape.traits}


def assert_clean(model: Model, diags: list[Diagnostic], namespace: str) -> None:
    """No ERROR/DANGER, no unknown trait, no stray trait-value member, and every trait of
    ``namespace`` applied somewhere in the model."""
    assert not errors(diags), "\n".join(errors(diags))
    noisy = [d.format_text() for d in diags if d.code in (UNKNOWN_TRAIT, INVALID_MEMBER)]
    assert not noisy, "\n".join(noisy)
    defined = defined_traits(model, namespace)
    assert defined, f"no trait of {namespace} is built in"
    assert defined <= applied_traits(model), f"traits of {namespace} not exercised: {sorted(defined - applied_traits(model))}"


# --------------------------------------------------------------------------- aws.endpoints

ENDPOINTS = """
use aws.endpoints#dualStackOnlyEndpoints
use aws.endpoints#endpointsModifier
use aws.endpoints#rulesBasedEndpoints
use aws.endpoints#standardPartitionalEndpoints
use aws.endpoints#standardRegionalEndpoints

@standardRegionalEndpoints(
    partitionSpecialCases: {
        "aws-us-gov": [{endpoint: "https://{service}.{region}.{dnsSuffix}", fips: true, dualStack: false}]
    }
    regionSpecialCases: {
        "us-east-1": [{endpoint: "https://example.us-east-1.amazonaws.com", dualStack: true, signingRegion: "us-east-1"}]
    }
)
@dualStackOnlyEndpoints
@rulesBasedEndpoints
@exampleModifier(suffix: "-x")
service Regional {
    version: "2020-01-01"
}

@standardPartitionalEndpoints(
    endpointPatternType: "aws_recommended"
    partitionEndpointSpecialCases: {
        aws: [{endpoint: "https://global.example.com", region: "us-west-2", dualStack: true, fips: false}]
    }
)
service Global {
    version: "2020-01-01"
}

@endpointsModifier
@trait(selector: "service")
structure exampleModifier {
    suffix: String
}
"""


def test_aws_endpoints_traits_apply(tmp_path: Path) -> None:
    model, diags = run(tmp_path, ENDPOINTS)
    assert_clean(model, diags, "aws.endpoints")


@pytest.mark.parametrize(("body", "expected"), [
    # the two endpoint patterns conflict
    ("@aws.endpoints#standardRegionalEndpoints\n"
     "@aws.endpoints#standardPartitionalEndpoints(endpointPatternType: \"aws_recommended\")\n"
     "service S { version: \"1\" }\n", (TRAIT_CONFLICT, "smithy.example#S")),
    # the meta-trait marks trait definitions only
    ("@aws.endpoints#endpointsModifier\nstructure NotATrait {}\n", (TRAIT_TARGET, "smithy.example#NotATrait")),
    # service traits only
    ("@aws.endpoints#dualStackOnlyEndpoints\nstructure S {}\n", (TRAIT_TARGET, "smithy.example#S")),
    # an endpoint pattern type that is not one of the enum's values
    ("@aws.endpoints#standardPartitionalEndpoints(endpointPatternType: \"service_global\")\n"
     "service S { version: \"1\" }\n", (TRAIT_VALUE, "smithy.example#S")),
    # a special case needs its endpoint
    ("@aws.endpoints#standardRegionalEndpoints(regionSpecialCases: {\"us-east-1\": [{fips: true}]})\n"
     "service S { version: \"1\" }\n", (TRAIT_VALUE, "smithy.example#S")),
])
def test_aws_endpoints_misuse_is_rejected(tmp_path: Path, body: str, expected: tuple[str, str]) -> None:
    _, diags = run(tmp_path, body)
    assert error_codes(diags) == {expected}, errors(diags)


# --------------------------------------------------------------------------- aws.apigateway

APIGATEWAY = """
use aws.apigateway#apiKeyRequired
use aws.apigateway#apiKeySource
use aws.apigateway#apiTlsPolicy
use aws.apigateway#authorizer
use aws.apigateway#authorizers
use aws.apigateway#endpointConfiguration
use aws.apigateway#gatewayResponses
use aws.apigateway#integration
use aws.apigateway#minimumCompressionSize
use aws.apigateway#mockIntegration
use aws.apigateway#requestValidator
use aws.apigateway#resourcePolicy
use aws.auth#sigv4

@sigv4(name: "example")
@apiKeySource("HEADER")
@authorizer("lambda")
@authorizers(
    lambda: {
        scheme: sigv4
        type: "request"
        customAuthType: "custom"
        uri: "arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/f/invocations"
        credentials: "arn:aws:iam::123456789012:role/authorizer"
        identitySource: "method.request.header.Authorization"
        identityValidationExpression: "^Bearer .+$"
        resultTtlInSeconds: 300
        authorizerPayloadFormatVersion: "2.0"
        enableSimpleResponses: true
    }
)
@integration(
    type: "aws_proxy"
    uri: "arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/{serviceName}/invocations"
    credentials: "arn:aws:iam::123456789012:role/{operationName}"
    httpMethod: "POST"
    passThroughBehavior: "when_no_match"
    contentHandling: "CONVERT_TO_TEXT"
    timeoutInMillis: 29000
    connectionId: "link-1"
    connectionType: "VPC_LINK"
    cacheNamespace: "cache"
    payloadFormatVersion: "1.0"
    cacheKeyParameters: ["method.request.path.id"]
    requestParameters: {"integration.request.header.x-static": "'static'"}
    requestTemplates: {"application/json": "{}"}
    responses: {
        default: {
            statusCode: "200"
            contentHandling: "CONVERT_TO_BINARY"
            responseTemplates: {"application/json": "{}"}
            responseParameters: {"method.response.header.x-static": "'static'"}
        }
    }
    tlsConfig: {insecureSkipVerification: false}
    responseTransferMode: "STREAM"
    integrationTarget: "arn:aws:elasticloadbalancing:us-east-1:123456789012:listener/app/x/1/2"
)
@requestValidator("full")
@gatewayResponses(
    DEFAULT_4XX: {
        statusCode: "400"
        responseParameters: {"gatewayresponse.header.x-reason": "'bad'"}
        responseTemplates: {"application/json": "{\\"message\\": \\"bad\\"}"}
    }
)
@endpointConfiguration(types: ["PRIVATE"], vpcEndpointIds: ["vpce-0123"], disableExecuteApiEndpoint: true, ipAddressType: "dualstack")
@minimumCompressionSize(1024)
@resourcePolicy({Version: "2012-10-17", Statement: []})
@apiTlsPolicy(securityPolicy: "TLS_1_2", endpointAccessMode: "STRICT")
service Api {
    version: "2020-01-01"
    operations: [Ping]
    resources: [Thing]
}

@apiKeyRequired
@authorizer("lambda")
@requestValidator("params-only")
@mockIntegration(
    passThroughBehavior: "never"
    requestParameters: {"integration.request.header.x": "'y'"}
    requestTemplates: {"application/json": "{\\"statusCode\\": 200}"}
    responses: {default: {statusCode: "200"}}
)
@readonly
operation Ping {}

@integration(type: "http", uri: "https://backend.example.com/things", httpMethod: "GET")
@authorizer("lambda")
resource Thing {}
"""


def test_aws_apigateway_traits_apply(tmp_path: Path) -> None:
    model, diags = run(tmp_path, APIGATEWAY)
    assert_clean(model, diags, "aws.apigateway")


@pytest.mark.parametrize(("body", "expected"), [
    # an integration and a mock integration on one shape
    ("@aws.apigateway#integration(type: \"http\", uri: \"https://x\", httpMethod: \"GET\")\n"
     "@aws.apigateway#mockIntegration\noperation Op {}\n", (TRAIT_CONFLICT, "smithy.example#Op")),
    # an operation trait on a service
    ("@aws.apigateway#apiKeyRequired\nservice S { version: \"1\" }\n", (TRAIT_TARGET, "smithy.example#S")),
    # a request validator on a resource (service or operation only)
    ("@aws.apigateway#requestValidator(\"full\")\nresource R {}\n", (TRAIT_TARGET, "smithy.example#R")),
    # compression threshold over 10 MiB
    ("@aws.apigateway#minimumCompressionSize(10485761)\nservice S { version: \"1\" }\n",
     (TRAIT_VALUE, "smithy.example#S")),
    # an integration needs its type, uri and httpMethod
    ("@aws.apigateway#integration(type: \"http\", uri: \"https://x\")\noperation Op {}\n",
     (TRAIT_VALUE, "smithy.example#Op")),
    # an integration type that is not one of the enum's values
    ("@aws.apigateway#integration(type: \"lambda\", uri: \"https://x\", httpMethod: \"GET\")\noperation Op {}\n",
     (TRAIT_VALUE, "smithy.example#Op")),
    # an authorizer scheme must name an auth scheme trait
    # (and AuthorizersTraitValidator: it is not an auth scheme of the service, S3750)
    ("@aws.apigateway#authorizers(a: {scheme: \"smithy.example#NotAuth\"})\nservice S { version: \"1\" }\n"
     "structure NotAuth {}\n", {(TRAIT_VALUE, "smithy.example#S"), ("S3750", "smithy.example#S")}),
])
def test_aws_apigateway_misuse_is_rejected(tmp_path: Path, body: str,
                                           expected: tuple[str, str] | set[tuple[str, str]]) -> None:
    _, diags = run(tmp_path, body)
    assert error_codes(diags) == (expected if isinstance(expected, set) else {expected}), errors(diags)


# --------------------------------------------------------------------------- smithy.mqtt

MQTT = """
use smithy.mqtt#mqttJson
use smithy.mqtt#publish
use smithy.mqtt#subscribe
use smithy.mqtt#topicLabel

@mqttJson
service Broker {
    version: "2020-01-01"
    operations: [PublishMessage, SubscribeToMessages]
}

@publish("things/{thing}/messages")
operation PublishMessage {
    input := {
        @required
        @topicLabel
        thing: String

        text: String
    }
}

@subscribe("things/{thing}/stream")
operation SubscribeToMessages {
    input := {
        @required
        @topicLabel
        thing: String
    }
    output := {
        messages: MessageStream
    }
}

@streaming
union MessageStream {
    message: Message
}

structure Message {
    text: String
}
"""


def test_smithy_mqtt_traits_apply(tmp_path: Path) -> None:
    model, diags = run(tmp_path, MQTT)
    assert_clean(model, diags, "smithy.mqtt")


@pytest.mark.parametrize(("body", "expected"), [
    # publish and subscribe on one operation
    # (and subscribe's own @traitValidators: its output has no event stream)
    ("@smithy.mqtt#publish(\"a\")\n@smithy.mqtt#subscribe(\"a\")\noperation Op {\n    output := {}\n}\n",
     {(TRAIT_CONFLICT, "smithy.example#Op"), ("S3701", "smithy.example#Op")}),
    # a publish operation has no output members
    ("@smithy.mqtt#publish(\"a\")\noperation Op {\n    output := { x: String }\n}\n", (TRAIT_TARGET, "smithy.example#Op")),
    # a topic with a wildcard
    # (the trait's @pattern, and Topic.parse: the trait cannot be created, S3730)
    ("@smithy.mqtt#publish(\"a/#\")\noperation Op {}\n",
     ("S3730", "smithy.example#Op")),  # a Model error: the TraitValue check does not run
    # a topic label must be required
    ("structure In {\n    @smithy.mqtt#topicLabel\n    x: String\n}\n", (TRAIT_TARGET, "smithy.example#In$x")),
    # and target a scalar
    ("structure In {\n    @required\n    @smithy.mqtt#topicLabel\n    x: In2\n}\nstructure In2 {}\n",
     (TRAIT_TARGET, "smithy.example#In$x")),
])
def test_smithy_mqtt_misuse_is_rejected(tmp_path: Path, body: str,
                                        expected: tuple[str, str] | set[tuple[str, str]]) -> None:
    _, diags = run(tmp_path, body)
    assert error_codes(diags) == (expected if isinstance(expected, set) else {expected}), errors(diags)


# --------------------------------------------------------------------------- smithy.contracts

CONTRACTS = """
use smithy.contracts#conditions

@conditions(
    StartBeforeEnd: {
        expression: "start < end"
        documentation: "The range starts before it ends."
    }
)
structure Range {
    start: Integer
    end: Integer
}

@conditions(NotEmpty: {expression: "length(@) > `0`", documentation: "Not empty."})
string Name
"""


def test_smithy_contracts_traits_apply(tmp_path: Path) -> None:
    model, diags = run(tmp_path, CONTRACTS)
    assert_clean(model, diags, "smithy.contracts")


@pytest.mark.parametrize(("body", "expected"), [
    # not on services, operations or resources
    # (and ConditionsTraitValidator: `a` is no boolean, S3722)
    ("@smithy.contracts#conditions(A: {expression: \"a\", documentation: \"d\"})\noperation Op {}\n",
     {(TRAIT_TARGET, "smithy.example#Op"), ("S3722", "smithy.example#Op")}),
    # a condition needs its documentation (and Condition.fromNode: the trait cannot be created, S3720)
    ("@smithy.contracts#conditions(A: {expression: \"a\"})\nstring S\n",
     {("S3720", "smithy.example#S")}),  # a Model error: the TraitValue check does not run
])
def test_smithy_contracts_misuse_is_rejected(tmp_path: Path, body: str, expected: set[tuple[str, str]]) -> None:
    _, diags = run(tmp_path, body)
    assert error_codes(diags) == expected, errors(diags)


# --------------------------------------------------------------------------- smithy.openapi

OPENAPI = """
use smithy.openapi#specificationExtension

@specificationExtension(as: "x-example-tag")
@trait
structure exampleTag {}

@specificationExtension
@trait
string exampleNote
"""


def test_smithy_openapi_traits_apply(tmp_path: Path) -> None:
    model, diags = run(tmp_path, OPENAPI)
    assert_clean(model, diags, "smithy.openapi")


@pytest.mark.parametrize(("body", "expected"), [
    # trait definitions only
    ("@smithy.openapi#specificationExtension\nstructure NotATrait {}\n", (TRAIT_TARGET, "smithy.example#NotATrait")),
    # extension names start with x-
    ("@smithy.openapi#specificationExtension(as: \"example\")\n@trait\nstructure t {}\n",
     (TRAIT_VALUE, "smithy.example#t")),
])
def test_smithy_openapi_misuse_is_rejected(tmp_path: Path, body: str, expected: tuple[str, str]) -> None:
    _, diags = run(tmp_path, body)
    assert error_codes(diags) == {expected}, errors(diags)


# --------------------------------------------------------------------------- smithy.test + aws.test

PROTOCOL_TESTS = """
use aws.auth#sigv4
use aws.protocols#restJson1
use smithy.test#eventStreamTests
use smithy.test#httpMalformedRequestTests
use smithy.test#httpRequestTests
use smithy.test#httpResponseTests
use smithy.test#smokeTests

@sigv4(name: "example")
@restJson1
service Greeter {
    version: "2020-01-01"
    operations: [SayHello, Chat]
}

@http(method: "POST", uri: "/hello")
@httpRequestTests([
    {
        id: "SayHelloRequest"
        protocol: restJson1
        authScheme: sigv4
        method: "POST"
        uri: "/hello"
        host: "example.com"
        resolvedHost: "example.com"
        queryParams: ["lang=en"]
        forbidQueryParams: ["debug"]
        requireQueryParams: ["lang"]
        headers: {"Content-Type": "application/json"}
        forbidHeaders: ["X-Debug"]
        requireHeaders: ["Content-Length"]
        body: "{\\"name\\":\\"Ann\\"}"
        bodyMediaType: "application/json"
        params: {name: "Ann"}
        vendorParams: {region: "us-east-1"}
        vendorParamsShape: "aws.test#AwsVendorParams"
        documentation: "Serializes the name."
        tags: ["basic"]
        appliesTo: "client"
    }
])
@httpResponseTests([
    {
        id: "SayHelloResponse"
        protocol: restJson1
        code: 200
        headers: {"Content-Type": "application/json"}
        body: "{\\"greeting\\":\\"Hi\\"}"
        bodyMediaType: "application/json"
        params: {greeting: "Hi"}
        appliesTo: "server"
    }
])
@httpMalformedRequestTests([
    {
        id: "SayHelloMalformed"
        protocol: restJson1
        request: {
            method: "POST"
            uri: "/hello"
            host: "example.com"
            queryParams: ["lang=$value:L"]
            headers: {"Content-Type": "application/json"}
            body: "{"
            bodyMediaType: "application/json"
        }
        response: {
            code: 400
            headers: {"X-Amzn-Errortype": "SerializationException"}
            body: {assertion: {messageRegex: ".*"}, mediaType: "application/json"}
        }
        documentation: "A truncated body is rejected."
        tags: ["malformed"]
        testParameters: {value: ["en", "fr"]}
    }
])
@smokeTests([
    {
        id: "SayHelloS3Params"
        params: {name: "Ann"}
        vendorParams: {region: "us-west-2", useAccelerate: true, sigv4aRegionSet: ["us-west-2"]}
        vendorParamsShape: "aws.test#S3VendorParams"
        expect: {success: {}}
    }
    {
        id: "SayHelloFails"
        vendorParamsShape: "aws.test#AwsVendorParams"
        vendorParams: {useFips: true, useDualstack: false, useAccountIdRouting: false, uri: "https://x"}
        expect: {failure: {errorId: Oops}}
    }
])
operation SayHello {
    input := {
        name: String
    }
    output := {
        greeting: String
    }
    errors: [Oops]
}

@error("client")
@httpError(400)
@httpResponseTests([
    {
        id: "OopsResponse"
        protocol: restJson1
        code: 400
        body: "{}"
        bodyMediaType: "application/json"
        params: {message: "no"}
    }
])
structure Oops {
    message: String
}

@http(method: "POST", uri: "/chat")
@eventStreamTests([
    {
        id: "ChatStream"
        protocol: restJson1
        initialRequestParams: {}
        initialRequest: {method: "POST", uri: "/chat"}
        initialRequestShape: "smithy.test#InitialHttpRequest"
        initialResponseParams: {}
        initialResponse: {code: 200}
        initialResponseShape: "smithy.test#InitialHttpResponse"
        events: [
            {
                type: "request"
                params: {line: {text: "hi"}}
                headers: {
                    ":event-type": {string: "line"}
                    "x-flag": {boolean: true}
                    "x-byte": {byte: 1}
                    "x-short": {short: 2}
                    "x-int": {integer: 3}
                    "x-long": {long: 4}
                    "x-blob": {blob: "Zm9v"}
                    "x-time": {timestamp: 0}
                }
                forbidHeaders: ["x-no"]
                requireHeaders: [":date"]
                body: "{}"
                bodyMediaType: "application/json"
                bytes: "AAAA"
                vendorParams: {}
                vendorParamsShape: "aws.test#AwsVendorParams"
            }
        ]
        expectation: {failure: {errorId: Oops}}
        vendorParams: {region: "eu-west-1"}
        vendorParamsShape: "aws.test#AwsVendorParams"
        documentation: "One line over the stream."
        appliesTo: "client"
        tags: ["stream"]
    }
])
operation Chat {
    input := {
        @httpPayload
        lines: Lines
    }
    errors: [Oops]
}

@streaming
union Lines {
    line: Line
}

structure Line {
    text: String
}
"""


def test_smithy_test_and_aws_test_apply(tmp_path: Path) -> None:
    model, diags = run(tmp_path, PROTOCOL_TESTS)
    assert_clean(model, diags, "smithy.test")
    for name in ("AwsVendorParams", "S3VendorParams", "BaseAwsVendorParams"):
        assert f"aws.test#{name}" in model.prelude_ids, name
    s3 = model.shapes["aws.test#S3VendorParams"]
    assert {"region", "useFips", "useAccelerate", "useArnRegion"} <= set(s3.members)  # own and mixed-in members


@pytest.mark.parametrize(("body", "expected"), [
    # vendor parameter shapes must exist
    ("@smithy.test#smokeTests([{id: \"Case1\", vendorParamsShape: \"aws.test#NoSuchParams\", expect: {success: {}}}])\n"
     "operation Op {}\n", (TRAIT_VALUE, "smithy.example#Op")),
    # the protocol of a request test must be a protocol definition
    ("@smithy.test#httpRequestTests([{id: \"Case1\", protocol: \"smithy.example#Op\", method: \"GET\", uri: \"/\"}])\n"
     "operation Op {}\n", (TRAIT_VALUE, "smithy.example#Op")),
    # at least one test case
    ("@smithy.test#httpRequestTests([])\noperation Op {}\n", (TRAIT_VALUE, "smithy.example#Op")),
    # a request test needs its method and uri (and the trait cannot be created, S3768)
    ("@smithy.test#httpRequestTests([{id: \"Case1\", protocol: \"aws.protocols#restJson1\"}])\noperation Op {}\n",
     ("S3768", "smithy.example#Op")),  # a Model error: the TraitValue check does not run
    # response tests go on operations and error structures only
    ("@smithy.test#httpResponseTests([{id: \"Case1\", protocol: \"aws.protocols#restJson1\", code: 200}])\n"
     "structure NotAnError {}\n", (TRAIT_TARGET, "smithy.example#NotAnError")),
    # a status code out of range
    ("@smithy.test#httpResponseTests([{id: \"Case1\", protocol: \"aws.protocols#restJson1\", code: 99}])\n"
     "operation Op {}\n", (TRAIT_VALUE, "smithy.example#Op")),
    # event stream tests need an event stream in the input or output
    # (and EventStreamTestsTraitValidator: no event and no initial message, S3765)
    ("@smithy.test#eventStreamTests([{id: \"Case1\", protocol: \"aws.protocols#restJson1\"}])\noperation Op {}\n",
     {(TRAIT_TARGET, "smithy.example#Op"), ("S3765", "smithy.example#Op")}),
    # an event type that is not one of the enum's values
    ("@smithy.test#eventStreamTests([{id: \"Case1\", protocol: \"aws.protocols#restJson1\", events: [{type: \"ping\"}]}])\n"
     "operation Op {\n    input := { s: S }\n}\n@streaming\nunion S { m: M }\nstructure M {}\n",
     (TRAIT_VALUE, "smithy.example#Op")),
])
def test_smithy_test_misuse_is_rejected(tmp_path: Path, body: str,
                                        expected: tuple[str, str] | set[tuple[str, str]]) -> None:
    _, diags = run(tmp_path, body)
    assert error_codes(diags) == (expected if isinstance(expected, set) else {expected}), errors(diags)


# --------------------------------------------------------------------------- corrected definitions


def test_waiter_acceptor_message_and_bdd_version_are_members(tmp_path: Path) -> None:
    """``Acceptor.message`` (waiters.rst) and ``endpointBdd.version`` (rules engine) are defined,
    so using them is not an "Invalid structure member" warning; the missing bdd version is an error."""
    body = """
@smithy.waiters#waitable(
    Done: {
        acceptors: [
            {state: "success", matcher: {success: true}}
            {state: "failure", matcher: {errorType: "Oops"}, message: "message"}
        ]
    }
)
operation Get {
    output := { message: String }
}

@smithy.rules#endpointBdd(version: "1.1", parameters: {}, conditions: [], results: [], root: 1, nodeCount: 1,
                      nodes: "/////wAAAAH/////")
service S { version: "1" }
"""
    _, diags = run(tmp_path, body)
    assert not errors(diags), "\n".join(errors(diags))
    assert not [d.format_text() for d in diags if d.code == INVALID_MEMBER]
    _, diags = run(tmp_path, body.replace('version: "1.1", ', ""))
    assert ("S3770", "smithy.example#S") in error_codes(diags)  # Model: the trait is not created
