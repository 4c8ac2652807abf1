// smithy2cfn's definitions of the `smithy.test` traits: smoke tests (smoke-tests.rst) and the
// HTTP and event stream protocol compliance tests (http-protocol-compliance-tests.rst,
// event-stream-protocol-compliance-tests.rst).
//
// Shape IDs, members, selectors and trait properties follow the specification and the
// reference's smithy-smoke-test-traits and smithy-protocol-test-traits packages, which share
// this namespace; docs are one line each with a pointer to the spec section.
$version: "2"

namespace smithy.test

// ===================================================================== smoke tests

/// Test cases to run against a live service (smoke-tests.rst#smokeTests-trait).
@trait(selector: "operation")
list smokeTests {
    member: SmokeTestCase
}

/// One smoke test case (smoke-tests.rst#SmokeTestCase-struct).
@private
structure SmokeTestCase {
    /// Test case ID, unique within the service.
    @required
    @pattern("^[A-Za-z_][A-Za-z0-9_]+$")
    id: String

    /// Operation input.
    params: Document

    /// Vendor-specific parameters.
    vendorParams: Document

    /// Shape that `vendorParams` must conform to.
    @idRef(failWhenMissing: true)
    vendorParamsShape: String

    /// Expected outcome.
    @required
    expect: Expectation

    /// Tags for grouping test cases.
    tags: TagList
}

/// Expected outcome of a smoke test: success or failure (smoke-tests.rst#Expectation-union).
@private
union Expectation {
    /// The call succeeds.
    success: Unit

    /// The call fails.
    failure: FailureExpectation
}

/// An expected failure, optionally with a specific error (smoke-tests.rst#FailureExpectation-struct).
@private
structure FailureExpectation {
    /// The error shape; any error when unset.
    @idRef(failWhenMissing: true, selector: "[trait|error]")
    errorId: String
}

/// A list of tags.
@private
list TagList {
    member: Tag
}

/// A smoke test tag (smoke-tests.rst#SmokeTestCase-struct).
@private
@pattern("^[A-Za-z][A-Za-z0-9_\\-]+$")
string Tag

// ===================================================================== HTTP protocol tests

/// How a protocol serializes an operation's input into an HTTP request (http-protocol-compliance-tests.rst#httpRequestTests-trait).
@trait(selector: "operation")
@length(min: 1)
list httpRequestTests {
    member: HttpRequestTestCase
}

/// One HTTP request test case (http-protocol-compliance-tests.rst#httpRequestTests-trait).
@private
structure HttpRequestTestCase with [HttpRequestMixin] {
    /// Test case ID, an identifier unique among the request tests.
    @required
    @pattern("^[A-Za-z_][A-Za-z0-9_]+$")
    id: String

    /// Shape ID of the protocol under test.
    @required
    @idRef(selector: "[trait|protocolDefinition]", failWhenMissing: true)
    protocol: String

    /// Shape ID of the auth scheme assumed.
    @idRef(selector: "[trait|authDefinition]", failWhenMissing: true)
    authScheme: String

    /// Operation input the request is made from.
    params: Document

    /// Vendor-specific parameters.
    vendorParams: Document

    /// Shape that `vendorParams` must conform to.
    @idRef(failWhenMissing: true)
    vendorParamsShape: String

    /// What the test asserts.
    documentation: String

    /// Tags of the test.
    tags: NonEmptyStringList

    /// Only client or only server implementations run the test.
    appliesTo: AppliesTo
}

/// A map of strings to strings.
@private
map StringMap {
    key: String
    value: String
}

/// A list of strings.
@private
list StringList {
    member: String
}

/// How a protocol serializes an operation's output or an error into an HTTP response (http-protocol-compliance-tests.rst#httpResponseTests-trait).
@trait(selector: ":test(operation, structure[trait|error])")
@length(min: 1)
list httpResponseTests {
    member: HttpResponseTestCase
}

/// One HTTP response test case (http-protocol-compliance-tests.rst#httpResponseTests-trait).
@private
structure HttpResponseTestCase with [HttpResponseMixin] {
    /// Test case ID, an identifier unique among the response tests.
    @required
    @pattern("^[A-Za-z_][A-Za-z0-9_]+$")
    id: String

    /// Shape ID of the protocol under test.
    @required
    @idRef(selector: "[trait|protocolDefinition]", failWhenMissing: true)
    protocol: String

    /// Shape ID of the auth scheme assumed.
    @idRef(selector: "[trait|authDefinition]", failWhenMissing: true)
    authScheme: String

    /// Output or error values the response deserializes to.
    params: Document

    /// Vendor-specific parameters.
    vendorParams: Document

    /// Shape that `vendorParams` must conform to.
    @idRef(failWhenMissing: true)
    vendorParamsShape: String

    /// What the test asserts.
    documentation: String

    /// Tags of the test.
    tags: NonEmptyStringList

    /// Only client or only server implementations run the test.
    appliesTo: AppliesTo
}

/// A list of non-empty strings.
@private
list NonEmptyStringList {
    member: NonEmptyString
}

/// A string of at least one character.
@private
@length(min: 1)
string NonEmptyString

/// The implementations a protocol test applies to (http-protocol-compliance-tests.rst#httpRequestTests-trait).
@private
enum AppliesTo {
    /// Client implementations only.
    @enumValue("client")
    CLIENT

    /// Server implementations only.
    @enumValue("server")
    SERVER
}

/// How a server rejects a malformed HTTP request (http-protocol-compliance-tests.rst#httpMalformedRequestTests-trait).
@trait(selector: "operation")
@length(min: 1)
@unstable
list httpMalformedRequestTests {
    member: HttpMalformedRequestTestCase
}

/// One malformed request test case (http-protocol-compliance-tests.rst#httpMalformedRequestTests-trait).
@private
structure HttpMalformedRequestTestCase {
    /// Test case ID, an identifier unique among the malformed request tests.
    @required
    @pattern("^[A-Za-z_][A-Za-z0-9_]+$")
    id: String

    /// Shape ID of the protocol under test.
    @required
    @idRef(selector: "[trait|protocolDefinition]", failWhenMissing: true)
    protocol: String

    /// The malformed request.
    @required
    request: HttpMalformedRequestDefinition

    /// The expected response.
    @required
    response: HttpMalformedResponseDefinition

    /// What the test asserts.
    documentation: String

    /// Tags of the test.
    tags: NonEmptyStringList

    /// Parameter name to values, for parameterized tests.
    testParameters: HttpMalformedRequestTestParametersDefinition
}

/// A malformed HTTP request (http-protocol-compliance-tests.rst#HttpMalformedRequestDefinition-struct).
@private
structure HttpMalformedRequestDefinition {
    /// HTTP method.
    @required
    @length(min: 1)
    method: String

    /// Request target without the query string, e.g. "/foo/bar".
    @required
    @length(min: 1)
    uri: String

    /// Host given to the client, without path or scheme.
    host: String

    /// Query string parameters as sent on the wire ("k=v", "k=", "k").
    queryParams: StringList

    /// Request headers.
    headers: StringMap

    /// Request body.
    body: String

    /// Media type of `body`.
    bodyMediaType: String
}

/// The expected response to a malformed request (http-protocol-compliance-tests.rst#HttpMalformedResponseDefinition-struct).
@private
structure HttpMalformedResponseDefinition {
    /// Expected headers; others are ignored.
    headers: StringMap

    /// HTTP status code.
    @required
    @range(min: 100, max: 599)
    code: Integer

    /// Expected body.
    body: HttpMalformedResponseBodyDefinition
}

/// The expected body of a malformed request's response (http-protocol-compliance-tests.rst#HttpMalformedResponseBodyDefinition-struct).
@private
structure HttpMalformedResponseBodyDefinition {
    /// Assertion made on the body.
    @required
    assertion: HttpMalformedResponseBodyAssertion

    /// Media type of the body.
    @required
    mediaType: String
}

/// An exact body or a regex on its `message` field (http-protocol-compliance-tests.rst#HttpMalformedResponseBodyAssertion-union).
@private
union HttpMalformedResponseBodyAssertion {
    /// The exact serialized body.
    contents: String

    /// Regex the body's `message` field must match.
    messageRegex: String
}

/// Test parameter name to its values (http-protocol-compliance-tests.rst#httpMalformedRequestTests-trait).
@private
map HttpMalformedRequestTestParametersDefinition {
    key: String
    value: StringList
}

// ===================================================================== event stream protocol tests

/// How a protocol serializes and deserializes an operation's event stream (event-stream-protocol-compliance-tests.rst#eventStreamTests-trait).
@trait(selector: "operation :test(-[input, output]-> structure > member > union[trait|streaming])")
@length(min: 1)
list eventStreamTests {
    member: EventStreamTestCase
}

/// One event stream test case (event-stream-protocol-compliance-tests.rst#EventStreamTestCase-struct).
@private
structure EventStreamTestCase {
    /// Test case ID, an identifier unique among the test cases.
    @required
    @pattern("^[A-Za-z_][A-Za-z0-9_]+$")
    id: String

    /// Shape ID of the protocol under test.
    @required
    @idRef(selector: "[trait|protocolDefinition]", failWhenMissing: true)
    protocol: String

    /// Operation input the initial request is made from.
    initialRequestParams: Document

    /// The protocol-specific initial request.
    initialRequest: Document

    /// Shape that `initialRequest` must conform to (`InitialHttpRequest` for HTTP protocols).
    @idRef(selector: "structure", failWhenMissing: true)
    initialRequestShape: String

    /// Operation output the initial response is made from.
    initialResponseParams: Document

    /// The protocol-specific initial response.
    initialResponse: Document

    /// Shape that `initialResponse` must conform to (`InitialHttpResponse` for HTTP protocols).
    @idRef(selector: "structure", failWhenMissing: true)
    initialResponseShape: String

    /// Events sent over the stream: input, output and error messages.
    events: Events

    /// Expected result; success when unset.
    expectation: TestExpectation

    /// Vendor-specific parameters.
    vendorParams: Document

    /// Shape that `vendorParams` must conform to.
    @idRef(selector: "structure", failWhenMissing: true)
    vendorParamsShape: String

    /// What the test asserts.
    documentation: String

    /// Only client or only server implementations run the test.
    appliesTo: AppliesTo

    /// Tags of the test.
    tags: NonEmptyStringList
}

/// The initial HTTP request of an event stream test (event-stream-protocol-compliance-tests.rst#EventStreamTestCase-struct).
structure InitialHttpRequest with [HttpRequestMixin] {}

/// The initial HTTP response of an event stream test (event-stream-protocol-compliance-tests.rst#EventStreamTestCase-struct).
structure InitialHttpResponse with [HttpResponseMixin] {}

/// A list of events.
@private
list Events {
    member: Event
}

/// One event sent over the stream (event-stream-protocol-compliance-tests.rst#Event-struct).
@private
structure Event {
    /// Request or response event.
    @required
    type: EventType

    /// Values of a modeled event; an unmodeled event when unset.
    params: Document

    /// Expected headers; others are ignored unless forbidden.
    headers: EventHeaders

    /// Header names that must not appear.
    forbidHeaders: StringList

    /// Header names that must appear, whatever their value.
    requireHeaders: StringList

    /// Expected body; no assertion when unset.
    body: Blob

    /// Media type of `body`.
    bodyMediaType: String

    /// The whole encoded event, for deserialization tests.
    bytes: Blob

    /// Vendor-specific parameters.
    vendorParams: Document = {}

    /// Shape that `vendorParams` must conform to.
    @idRef(selector: "structure", failWhenMissing: true)
    vendorParamsShape: String
}

/// Directions of an event (event-stream-protocol-compliance-tests.rst#Event-struct).
@private
enum EventType {
    /// A request message.
    REQUEST = "request"

    /// A response message.
    RESPONSE = "response"
}

/// Header name to typed value, serialized without the union wrapper (event-stream-protocol-compliance-tests.rst#Event-struct).
@private
map EventHeaders {
    key: String
    value: EventHeaderValue
}

/// A typed event header value (event-stream-protocol-compliance-tests.rst#EventHeaderValue-union).
@private
union EventHeaderValue {
    /// A boolean header.
    boolean: Boolean

    /// A byte header, written in the model as base64.
    byte: Byte

    /// A short header.
    short: Short

    /// An integer header.
    integer: Integer

    /// A long header.
    long: Long

    /// A blob header.
    blob: Blob

    /// A string header.
    string: String

    /// A timestamp header.
    timestamp: Timestamp
}

/// Expected outcome of an event stream test: success or failure (event-stream-protocol-compliance-tests.rst#TestExpectation-union).
@private
union TestExpectation {
    /// The test passes.
    success: Unit

    /// The test raises an error.
    failure: TestFailureExpectation
}

/// An expected error, optionally of one type (event-stream-protocol-compliance-tests.rst#TestFailureExpectation-struct).
@private
structure TestFailureExpectation {
    /// The error shape; any error when unset.
    @idRef(failWhenMissing: true, selector: "[trait|error]")
    errorId: String
}

// ===================================================================== HTTP message mixins

/// Members shared by expected HTTP requests and responses (http-protocol-compliance-tests.rst#httpRequestTests-trait).
@private
@mixin
structure HttpMessageMixin {
    /// Expected headers; others are ignored unless forbidden.
    headers: StringMap

    /// Header names that must not appear.
    forbidHeaders: StringList

    /// Header names that must appear, whatever their value.
    requireHeaders: StringList

    /// Expected body; no assertion when unset.
    body: String

    /// Media type of `body`.
    bodyMediaType: String
}

/// Members of an expected HTTP request (http-protocol-compliance-tests.rst#httpRequestTests-trait).
@private
@mixin
structure HttpRequestMixin with [HttpMessageMixin] {
    /// HTTP method.
    @required
    @length(min: 1)
    method: String

    /// Request target without the query string, e.g. "/foo/bar".
    @required
    @length(min: 1)
    uri: String

    /// Host given to the client, without path or scheme.
    host: String

    /// Host the client sends to (may differ from `host`, e.g. through a host prefix).
    resolvedHost: String

    /// Expected query string parameters as sent on the wire; others are allowed.
    queryParams: StringList

    /// Query string parameter names that must not appear.
    forbidQueryParams: StringList

    /// Query string parameter names that must appear, whatever their value.
    requireQueryParams: StringList
}

/// Members of an expected HTTP response (http-protocol-compliance-tests.rst#httpResponseTests-trait).
@private
@mixin
structure HttpResponseMixin with [HttpMessageMixin] {
    /// HTTP status code.
    @required
    @range(min: 100, max: 599)
    code: Integer
}
