"""Tests of the validators of HTTP bindings, services, operations, streams, pagination
(validate/http.py, service.py, operations.py, streaming.py, paginated.py) and of their
knowledge (model/knowledge_http.py, model/knowledge_ops.py).

Each rule has a model that triggers it and one that does not; the reference's own cases
(``test_conformance_validation.py``) cover the rest.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Severity
from smithy2cfn.load import load_texts
from smithy2cfn.model.knowledge_http import PatternError, parse_host_prefix, parse_uri_pattern
from smithy2cfn.model.knowledge_ops import OperationIndex, ServiceIndex, id_sort_key, sorted_ids
from smithy2cfn.validation import validate_model


def check(text: str) -> list[Diagnostic]:
    diags = Diagnostics()
    model = load_texts([("test.smithy", text)], diags)
    assert not diags.has_errors, [d.format_text() for d in diags if d.is_error]
    return validate_model(model)


def check_all(text: str) -> list[Diagnostic]:
    """As :func:`check`, for a model whose loading may report errors (trait values)."""
    model = load_texts([("test.smithy", text)], Diagnostics())
    return validate_model(model)


def idl(body: str) -> str:
    return '$version: "2.0"\n\nnamespace smithy.example\n\n' + body


def events(diags: list[Diagnostic], minimum: Severity = Severity.WARNING) -> set[tuple[str, str, str]]:
    """``(event ID, shape ID, severity)`` of the diagnostics at ``minimum`` or above, without
    the prelude's unstable-trait warnings."""
    return {(d.event_id or "", d.shape_id or "", d.severity.name) for d in diags
            if d.severity >= minimum and d.code != "S3006"}


SERVICE = "service Svc {{ version: \"1\", operations: [{ops}] }}\n"


# --------------------------------------------------------------------------- HTTP

HTTP_CASES = [
    # (name, body, expected events)
    ("label without member",
     '@http(method: "GET", uri: "/a/{id}")\n@readonly\noperation Op { input := {} }\n',
     {("HttpLabelTrait", "smithy.example#Op", "ERROR")}),
    ("label bound",
     '@http(method: "GET", uri: "/a/{id}")\n@readonly\noperation Op { input := { @required @httpLabel id: String } }\n',
     set()),
    ("greedy label not last",
     '@http(method: "GET", uri: "/a/{a+}/{b}")\n@readonly\noperation Op { input := { @required @httpLabel a: String '
     '@required @httpLabel b: String } }\n',
     {("HttpUriGreedyLabel.GreedyLabelIsNotLastLabel", "smithy.example#Op", "DANGER")}),
    ("uri does not parse",
     '@http(method: "GET", uri: "/a//b")\n@readonly\noperation Op {}\n',
     {("Model", "smithy.example#Op", "ERROR")}),
    ("two members bind a header",
     '@http(method: "POST", uri: "/a")\noperation Op { input := { @httpHeader("x-a") a: String '
     '@httpHeader("X-A") b: String } }\n',
     {("HttpHeaderTrait", "smithy.example#OpInput", "ERROR")}),
    ("restricted header",
     '@http(method: "POST", uri: "/a")\noperation Op { input := { @httpHeader("Host") a: String } }\n',
     {("HttpHeaderTrait", "smithy.example#OpInput$a", "DANGER")}),
    ("payload on GET",
     '@http(method: "GET", uri: "/a")\n@readonly\noperation Op { input := { a: String } }\n',
     {("HttpMethodSemantics.UnexpectedPayload", "smithy.example#Op", "DANGER")}),
    ("PUT without @idempotent",
     '@http(method: "PUT", uri: "/a")\noperation Op { input := {} }\n',
     {("HttpMethodSemantics.MissingIdempotentTrait", "smithy.example#Op", "WARNING")}),
    ("unbound member next to a payload",
     '@http(method: "POST", uri: "/a")\noperation Op { input := { @httpPayload a: String, b: String } }\n',
     {("HttpPayload", "smithy.example#OpInput", "ERROR")}),
    ("query parameter bound twice",
     '@http(method: "POST", uri: "/a?x=1")\noperation Op { input := { @httpQuery("x") a: String } }\n',
     {("HttpQueryTrait", "smithy.example#OpInput", "ERROR")}),
    ("header starts with the prefix",
     '@http(method: "POST", uri: "/a")\noperation Op { input := { @httpPrefixHeaders("x-") a: M '
     '@httpHeader("X-b") b: String } }\nmap M { key: String, value: String }\n',
     {("HttpPrefixHeadersTrait", "smithy.example#OpInput$b", "ERROR")}),
    ("success code outside 2xx",
     '@http(method: "POST", uri: "/a", code: 302)\noperation Op {}\n',
     {("HttpResponseCodeSemantics", "smithy.example#Op", "DANGER")}),
    ("client error with a 5xx code",
     '@error("client")\n@httpError(503)\nstructure Oops {}\n',
     {("HttpResponseCodeSemantics", "smithy.example#Oops", "DANGER")}),
    ("label binding in an output",
     '@http(method: "POST", uri: "/a")\noperation Op { output := { @required @httpLabel a: String } }\n',
     {("HttpBindingTraitIgnored.Input", "smithy.example#OpOutput$a", "WARNING")}),
    ("host prefix without trailing period",
     '@endpoint(hostPrefix: "{a}-data")\noperation Op { input := { @required @hostLabel a: String } }\n',
     {("HostLabelTrait", "smithy.example#Op", "DANGER")}),
    ("host label without member",
     '@endpoint(hostPrefix: "{a}.")\noperation Op { input := {} }\n',
     {("HostLabelTrait", "smithy.example#Op", "ERROR")}),
]


@pytest.mark.parametrize("name, body, expected", HTTP_CASES, ids=[c[0] for c in HTTP_CASES])
def test_http_rules(name, body, expected):
    assert events(check(idl(body))) == expected


def test_uri_conflicts_in_a_service():
    ops = ('@http(method: "GET", uri: "/a/{{x}}")\n@readonly{a}\noperation A {{ input := {{ @required @httpLabel x: String }} }}\n'
           '@http(method: "GET", uri: "/a/{{y}}")\n@readonly{b}\noperation B {{ input := {{ @required @httpLabel y: String }} }}\n'
           '@http(method: "GET", uri: "/a/b")\n@readonly\noperation C {{}}\n')
    found = events(check(idl(SERVICE.format(ops="A, B, C") + ops.format(a="", b=""))))
    assert {e for e in found if e[0] == "HttpUriConflict"} == {
        ("HttpUriConflict", "smithy.example#A", "ERROR"), ("HttpUriConflict", "smithy.example#B", "ERROR")}
    # a literal segment does not conflict with a label (C); an @endpoint on only one of A and
    # B keeps them apart (the reference's endpointConflicts)
    found = events(check(idl(SERVICE.format(ops="A, B, C") + ops.format(a='\n@endpoint(hostPrefix: "a.")', b=""))))
    assert not any(e[0] == "HttpUriConflict" for e in found)


def test_http_bindings_missing():
    ops = '@http(method: "POST", uri: "/a")\noperation A {}\noperation B {}\n'
    found = events(check(idl(SERVICE.format(ops="A, B") + ops)))
    assert ("HttpBindingsMissing", "smithy.example#B", "WARNING") in found
    found = events(check(idl(SERVICE.format(ops="B") + "operation B {}\n")))
    assert not any(e[0] == "HttpBindingsMissing" for e in found)


@given(st.text(alphabet="/{}+?=&#abc_1", max_size=24))
@settings(max_examples=300, deadline=None)
def test_uri_pattern_parser_raises_only_pattern_errors(text):
    try:
        pattern = parse_uri_pattern(text)
    except PatternError:
        return
    assert text.startswith("/") and not text.endswith("?") and "#" not in text
    path = text.partition("?")[0]
    assert "/".join(["", *(str(s) for s in pattern.segments)]) == path.rstrip("/") or path == "/"
    assert pattern.conflicts_with(pattern)


@given(st.text(alphabet="{}+.-ab_", max_size=20))
@settings(max_examples=300, deadline=None)
def test_host_prefix_parser_raises_only_pattern_errors(text):
    try:
        pattern = parse_host_prefix(text)
    except PatternError:
        return
    assert "".join(str(s) for s in pattern.segments) == text
    assert not any(s.is_greedy for s in pattern.segments)


def test_uri_patterns():
    p = parse_uri_pattern("/a/{b}/{c+}?x=1&y")
    assert [str(s) for s in p.segments] == ["a", "{b}", "{c+}"] and p.query_literals == {"x": "1", "y": ""}
    assert p.label("B") is not None and p.greedy_label.content == "c"
    for bad in ("a", "/a?", "/a#b", "/a//b", "/{a}/{A}", "/a?{b}", "/a?x&x", "/{a b}"):
        with pytest.raises(PatternError):
            parse_uri_pattern(bad)
    assert parse_uri_pattern("/a/{x}").conflicts_with(parse_uri_pattern("/a/{y}"))
    assert not parse_uri_pattern("/a/{x}").conflicts_with(parse_uri_pattern("/a/{y}?q"))


_SEGMENTS = st.sampled_from(["a", "b", "{x}", "{y}", "{z+}"])
_QUERIES = st.lists(st.sampled_from(["q", "q=1", "q=2", "r"]), max_size=2, unique_by=lambda q: q.split("=")[0])


def _uri(segments: list[str], queries: list[str]) -> str:
    # (at most one greedy label, last: what parse_uri_pattern accepts and real URIs hold)
    plain = [s for s in segments if s != "{z+}"]
    return "/" + "/".join(plain + (["{z+}"] if "{z+}" in segments else [])) + ("?" + "&".join(queries) if queries else "")


@given(st.lists(_SEGMENTS, max_size=4), _QUERIES, st.lists(_SEGMENTS, max_size=4), _QUERIES)
@settings(max_examples=300, deadline=None)
def test_uri_conflicts_follow_the_segment_rule(left, left_query, right, right_query):
    """HttpUriConflictValidator's rule, segment by segment: as many segments, greedy labels
    where greedy, other labels where labels (whatever their names), equal literals, and equal
    query literals; the key the check groups operations by says the same."""
    try:
        a, b = parse_uri_pattern(_uri(left, left_query)), parse_uri_pattern(_uri(right, right_query))
    except PatternError:  # (a label defined twice)
        return
    rule = len(a.segments) == len(b.segments) and all(
        (m.is_greedy and t.is_greedy) or (m.is_non_greedy and t.is_non_greedy)
        or (not m.is_label and not t.is_label and m.content == t.content)
        for m, t in zip(a.segments, b.segments, strict=True)) and a.query_literals == b.query_literals
    assert a.conflicts_with(b) is rule
    assert (a.conflict_key() == b.conflict_key()) is rule


# --------------------------------------------------------------------------- services

def test_service_name_conflicts_and_renames():
    body = ('service Svc {{ version: "1", operations: [Op]{rename} }}\n'
            "operation Op {{ input := {{ a: Thing, b: other.ns#Thing }} }}\nstructure Thing {{}}\n")
    other = '$version: "2.0"\nnamespace other.ns\nstructure Thing {}\n'
    diags = Diagnostics()
    model = load_texts([("a.smithy", idl(body.format(rename=""))), ("b.smithy", other)], diags)
    found = events(validate_model(model))
    assert {("Service", "smithy.example#Thing", "ERROR"), ("Service", "other.ns#Thing", "ERROR")} <= found
    diags = Diagnostics()
    model = load_texts([("a.smithy", idl(body.format(rename=', rename: { "other.ns#Thing": "OtherThing" }'))),
                        ("b.smithy", other)], diags)
    assert not any(e[0] == "Service" for e in events(validate_model(model)))
    # a rename of an operation, and one to the same name
    found = events(check(idl('service Svc { version: "1", operations: [Op], rename: { "smithy.example#Op": "X", '
                             '"smithy.example#T": "T" } }\noperation Op { input := { t: T } }\nstructure T {}\n')))
    assert ("Service", "smithy.example#Svc", "ERROR") in found


def test_shape_id_conflicts():
    found = events(check(idl("structure A { foo: String, Foo: String }\n")))
    assert found == {("ShapeIdConflict", "smithy.example#A$foo", "ERROR"),
                     ("ShapeIdConflict", "smithy.example#A$Foo", "ERROR")}


def test_single_bindings():
    found = events(check(idl('service Svc { version: "1", operations: [Op], resources: [R] }\n'
                             "resource R { operations: [Op] }\noperation Op {}\n")))
    assert ("SingleOperationBinding", "smithy.example#Op", "ERROR") in found
    found = events(check(idl('service Svc { version: "1", resources: [R, C] }\n'
                             "resource R { resources: [C] }\nresource C {}\n")))
    assert ("SingleResourceBinding", "smithy.example#C", "ERROR") in found
    assert not any(e[0].startswith("Single") for e in events(check(idl(
        'service Svc { version: "1", resources: [R] }\nresource R { resources: [C] }\nresource C {}\n'))))


def test_auth_traits():
    found = events(check(idl('@httpBasicAuth\n@auth([httpDigestAuth])\nservice Svc { version: "1" }\n')))
    assert ("AuthTrait", "smithy.example#Svc", "DANGER") in found
    found = events(check(idl('@httpBasicAuth\n@httpDigestAuth\nservice Svc { version: "1" }\n')))
    assert ("ServiceAuthDefinitions", "smithy.example#Svc", "WARNING") in found
    assert events(check(idl('@httpBasicAuth\n@auth([httpBasicAuth])\nservice Svc { version: "1" }\n'))) == set()


def test_auth_entries_are_shape_ids():
    """AuthTrait.Provider reads each entry as an absolute shape ID: one that is not fails the
    trait's creation (Model), whether or not a service binds the operation."""
    diags = Diagnostics()
    ast = ('{"smithy": "2.0", "shapes": {"ns.foo#Op": {"type": "operation", '
           '"traits": {"smithy.api#auth": [%s]}}}}')
    model = load_texts([("m.json", ast % '"not a shape ID"')], diags)
    found = [d for d in validate_model(model) if d.event_id == "Model"]
    assert [(d.shape_id, d.message) for d in found] == [
        ("ns.foo#Op", "Error creating trait `auth`: Invalid shape ID: not a shape ID")]
    model = load_texts([("m.json", ast % '"smithy.api#httpBasicAuth"')], Diagnostics())
    assert not any(d.event_id == "Model" for d in validate_model(model))


def test_unit_type():
    found = events(check(idl("structure S { a: Unit }\nunion U { a: Unit }\n")))
    assert found == {("UnitType", "smithy.example#S$a", "ERROR")}


# --------------------------------------------------------------------------- operations

def test_input_and_output_structures():
    found = events(check(idl("operation A { input: In }\noperation B { input: In }\n@input\nstructure In {}\n"
                             "structure S { i: In }\n")))
    assert {("OperationInputOutputMisuse", "smithy.example#In", "ERROR"),
            ("OperationInputOutputMisuse", "smithy.example#S$i", "ERROR")} <= found
    assert events(check(idl("operation A { input := {} }\n"))) == set()


def test_operation_name_ambiguity():
    found = events(check(idl("operation Get { input := {} }\nstructure GetRequest {}\n")))
    assert found == {("OperationNameAmbiguity", "smithy.example#GetRequest", "WARNING")}


def test_idempotent_trait_errors():
    found = events(check(idl('@idempotent(exists: [Conflict])\noperation Put {}\n@error("client")\n'
                             "structure Conflict {}\n")))
    assert found == {("IdempotentTrait", "smithy.example#Put", "ERROR")}
    assert events(check(idl('@idempotent(exists: [Conflict])\noperation Put { errors: [Conflict] }\n'
                            '@error("client")\nstructure Conflict {}\n'))) == set()


def test_request_compression():
    assert ("RequestCompressionTrait", "smithy.example#Op", "ERROR") in events(check(idl(
        '@requestCompression(encodings: ["zip"])\noperation Op { input := { a: String } }\n')))
    assert events(check(idl('@requestCompression(encodings: ["gzip"])\noperation Op { input := { a: String } }\n'))) \
        == set()


def test_request_compression_without_encodings_cannot_be_created():
    found = [d for d in check_all(idl('@requestCompression\noperation Op { input := { a: String } }\n'))
             if d.event_id == "Model"]
    assert [(d.shape_id, d.severity.name) for d in found] == [("smithy.example#Op", "ERROR")]
    assert "Missing expected member `encodings`" in found[0].message


@pytest.mark.parametrize("body, reason", [
    ('@error("fatal")\nstructure E {}\n', "error trait must be set to client or server, found `fatal`"),
    ('@http(method: "GET")\noperation Op {}\n', "Missing expected member `uri`."),
    ('@http(method: 1, uri: "/")\noperation Op {}\n', "Expected `method` member to be a string, but found number."),
    ("@httpError(\"404\")\n@error(\"client\")\nstructure E {}\n", "Expected number, but found string."),
    ('structure S { @httpHeader("") a: String }\n', "httpHeader field name binding must not be empty"),
    ('structure S { @httpQuery("") a: String }\n', "httpQuery parameter name binding must not be empty"),
    ('@httpApiKeyAuth(name: "k", in: "cookie")\nservice Svc { version: "1" }\n', "Invalid location type: cookie"),
    ("@endpoint({})\noperation Op {}\n", "Missing expected member `hostPrefix`."),
    ('@httpApiKeyAuth(name: "k")\nservice Svc { version: "1" }\n', "in was not set on the builder"),
    ('@paginated(items: 1)\noperation Op {}\n', "Expected `items` to be a string; found number"),
    ('@idempotent(exists: ["nope"])\noperation Op {}\n', "Invalid shape ID: nope"),
    ('@references([{ resource: "a#R", ids: { a: 1 } }])\nstructure S {}\n', "Expected string, but found number."),
    ('@examples([{ title: "t", error: { shapeId: "a#E", content: "x" } }])\noperation Op {}\n',
     "Expected `content` to be an object; found string"),
])
def test_trait_values_the_reference_cannot_create(body, reason):
    found = [d for d in check_all(idl(body)) if d.event_id == "Model"]
    assert [d.message.partition(": ")[2] for d in found] == [reason]
    assert found[0].severity is Severity.ERROR and found[0].message.startswith("Error creating trait `")


def test_trait_values_the_reference_creates():
    body = ('@error("client")\n@httpError(404)\nstructure E {}\n'
            '@httpApiKeyAuth(name: "k", in: "header", scheme: "Bearer")\n@auth([httpApiKeyAuth])\n'
            'service Svc { version: "1", operations: [Op] }\n'
            '@http(method: "POST", uri: "/a", code: 200)\n@endpoint(hostPrefix: "a.")\n'
            '@requestCompression(encodings: ["gzip"])\n@idempotent(exists: [E])\n'
            '@paginated(inputToken: "q", outputToken: "n")\n'
            '@examples([{ title: "t", input: { a: "x" }, error: { shapeId: E } }])\n'
            'operation Op { input := { @httpHeader("x-a") a: String, @httpQuery("q") q: String }, '
            'output := { n: String }, errors: [E] }\n'
            'resource R { identifiers: { id: String } }\n@references([{ resource: R, ids: { id: "a" }, rel: "r" }])\n'
            'structure Ref { @required a: String }\n')
    assert not [d for d in check_all(idl(body)) if d.event_id == "Model"]


def test_examples():
    body = ('@examples([{{ title: "t", input: {{ {value} }} }}])\n'
            "operation Op {{ input := {{ @required @length(max: 2) a: String }} }}\n")
    assert ("ExamplesTrait", "smithy.example#Op", "ERROR") in events(check(idl(body.format(value=""))))
    assert ("ExamplesTrait", "smithy.example#Op", "ERROR") in events(check(idl(body.format(value='a: "abc"'))))
    assert events(check(idl(body.format(value='a: "ab"')))) == set()
    # an error example for an error the operation lacks
    found = events(check(idl('@examples([{ title: "t", error: { shapeId: Oops, content: {} } }])\n'
                             'operation Op {}\n@error("client")\nstructure Oops {}\n')))
    assert ("ExamplesTrait", "smithy.example#Op", "ERROR") in found


# --------------------------------------------------------------------------- streams

def test_streams():
    found = events(check(idl("operation Op { input := { @required body: Stream } }\n@streaming\nblob Stream\n"
                             "structure Holder { s: OpInput }\n")))
    assert ("StreamingTrait", "smithy.example#Holder$s", "ERROR") in found
    found = events(check(idl("structure S { body: Stream }\n@streaming\nblob Stream\n")))
    assert ("StreamingTrait", "smithy.example#S$body", "ERROR") in found  # neither @required nor @default
    found = events(check(idl("@streaming\nunion Events { a: String }\n")))
    assert ("StreamingTrait", "smithy.example#Events", "ERROR") in found
    assert events(check(idl("operation Op { input := { @required body: Stream } }\n@streaming\nblob Stream\n"))) \
        == set()


def test_event_payload():
    found = events(check(idl("structure E { @eventPayload a: Blob, b: String }\n")))
    assert ("EventPayloadTrait", "smithy.example#E", "ERROR") in found
    assert events(check(idl("structure E { @eventPayload a: Blob, @eventHeader b: String }\n"))) == set()


# --------------------------------------------------------------------------- pagination

PAGINATED = ('@paginated(inputToken: "token", outputToken: "next", pageSize: "size", items: "items")\n@readonly\n'
             "operation List {{ input := {{ token: String, {size} }} output := {{ next: String, items: L }} }}\n"
             "list L {{ member: String }}\n")


def test_paginated():
    assert events(check(idl(PAGINATED.format(size="size: Integer")))) == set()
    assert ("PaginatedTrait", "smithy.example#List", "ERROR") in events(check(idl(PAGINATED.format(size="size: String"))))
    found = events(check(idl(PAGINATED.format(size="size: Long"))))
    assert ("PaginatedTrait.WrongShapeType.pageSize", "smithy.example#List", "DANGER") in found
    found = events(check(idl(PAGINATED.format(size="@required size: Integer"))))
    assert ("PaginatedTrait.ShouldNotBeRequired.pageSize", "smithy.example#List", "WARNING") in found
    found = events(check(idl(PAGINATED.format(size="other: Integer"))))
    assert ("PaginatedTrait", "smithy.example#List", "ERROR") in found  # no member named `size`


def test_paginated_merged_with_the_service():
    body = ('@paginated(inputToken: "token")\nservice Svc { version: "1", operations: [List] }\n'
            '@paginated(items: "items")\n@readonly\n'
            "operation List { input := { token: String } output := { items: L } }\nlist L { member: String }\n")
    found = events(check(idl(body)))
    assert ("PaginatedTrait", "smithy.example#List", "ERROR") in found  # outputToken not configured
    assert any("When bound within the `smithy.example#Svc` service" in d.message for d in check(idl(body)))


# --------------------------------------------------------------------------- knowledge

def test_operation_and_service_indexes():
    diags = Diagnostics()
    model = load_texts([("t.smithy", idl('@httpBasicAuth\n@aws.protocols#restJson1\nservice Svc { version: "1" }\n'
                                         "operation Op { input := { a: String } }\noperation NoInput {}\n"))], diags)
    ops = model.knowledge(OperationIndex)
    assert ops.input("smithy.example#Op").id == "smithy.example#OpInput"
    assert ops.input_shape("smithy.example#NoInput").id == "smithy.api#Unit" and ops.input("smithy.example#NoInput") is None
    services = model.knowledge(ServiceIndex)
    assert services.auth_schemes("smithy.example#Svc") == ["smithy.api#httpBasicAuth"]
    assert services.protocols("smithy.example#Svc") == ["aws.protocols#restJson1"]


def test_shape_id_order_is_the_references():
    assert sorted_ids(["ns#foo", "ns#Foo", "ns#fOO", "ns#Bar"]) == ["ns#Bar", "ns#Foo", "ns#fOO", "ns#foo"]
    assert id_sort_key("a#B") < id_sort_key("a#c")


# --------------------------------------------------------------------------- references

REFERENCED = 'resource R {{ identifiers: {{ a: String, b: String }} }}\nresource One {{ identifiers: {{ id: String }} }}\n{body}'


@pytest.mark.parametrize("body, reasons", [
    # implicit ids: the identifier names are members of the structure, targeting strings
    ('@references([{ resource: R }])\nstructure S { @required a: String, @required b: String }\n', []),
    ('@references([{ resource: R }])\nstructure S { a: String }\n', ["implicit binding of `b` is not part"]),
    # explicit ids: one per identifier, keys are identifier names, values string members
    ('@references([{ resource: R, ids: { a: "x", b: "y" } }])\nstructure S { x: String, y: String }\n', []),
    ('@references([{ resource: R, ids: { a: "x" } }])\nstructure S { x: String }\n', ["Not enough identifiers"]),
    ('@references([{ resource: R, ids: { a: "x", c: "y" } }])\nstructure S { x: String, y: String }\n',
     ["extraneous resource identifier bindings, [`c`]"]),
    ('@references([{ resource: R, ids: { a: "x", b: "y" } }])\nstructure S { x: String, y: Integer }\n',
     ["`y` refers to a member that does not target a string shape"]),
    ('@references([{ resource: R, ids: { a: "x", b: "z" } }])\nstructure S { x: String }\n',
     ["`z` refers to a member that is not part of the structure"]),
    # string shapes: no ids, and a resource of exactly one identifier
    ('@references([{ resource: One }])\nstring S\n', []),
    ('@references([{ resource: R }])\nstring S\n', ["can only refer to resource shapes with exactly one entry"]),
    ('@references([{ resource: One, ids: { id: "x" } }])\nstring S\n', ["cannot contain 'ids'"]),
    ('@references([{ resource: String }])\nstructure S {}\n', ["targets a string shape not a resource"]),
])
def test_references_trait(body, reasons):
    found = [d for d in check(idl(REFERENCED.format(body=body))) if d.event_id == "ReferencesTrait"]
    assert [(d.shape_id, d.severity.name) for d in found] == [("smithy.example#S", "ERROR")] * len(reasons)
    for d, reason in zip(found, reasons, strict=True):
        assert reason in d.message
    if found:
        assert found[0].span is not None and found[0].span.line == 7  # at the trait, not the shape
