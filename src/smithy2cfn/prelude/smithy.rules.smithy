// smithy2cfn's definitions of the `smithy.rules` traits (Smithy rules engine:
// endpoint rule sets, endpoint tests and context parameters).
//
// Not part of /work/shared/reference/prelude; written so that AWS service
// models that carry these traits load. The trait IDs, selectors and value
// shapes follow the public Smithy rules-engine package. The rule set itself is
// a document: its (large) schema is checked by the rules engine, not here.
$version: "2"

namespace smithy.rules

// ===================================================================== rule sets

/// An endpoint rule set resolving the client's endpoint (rules engine "endpointRuleSet trait").
@unstable
@trait(selector: "service")
document endpointRuleSet

/// An endpoint rule set compiled to a binary decision diagram (rules engine "endpointBdd trait").
@unstable
@trait(selector: "service")
structure endpointBdd {
    /// Rules engine version, 1.1 or later.
    @required
    version: String

    /// Parameter name to parameter definition.
    @required
    parameters: Parameters

    /// The distinct conditions, in order.
    @required
    conditions: Conditions

    /// The results referenced by nodes; the first is the terminal.
    @required
    results: Results

    /// The root node reference.
    @required
    @range(min: -1)
    root: Integer

    /// Number of nodes, the terminal included.
    @required
    @range(min: 0)
    nodeCount: Integer

    /// Base64 of the zig-zag varint-encoded `[variable, high, low]` node triples.
    @required
    nodes: String
}

/// Rule-set parameters by name (rules engine "endpointBdd trait").
@private
map Parameters {
    key: String
    value: Parameter
}

/// One rule-set parameter (rules engine "endpointBdd trait").
@private
structure Parameter {
    /// Parameter type.
    @required
    type: ParameterType

    /// The parameter is deprecated.
    deprecated: Boolean

    /// Documentation.
    documentation: String

    /// Default value; the parameter must then be required.
    default: Document

    /// Name of the built-in value that feeds the parameter.
    builtIn: String

    /// The parameter must be provided.
    required: Boolean
}

/// Rule-set parameter types (rules engine "endpointBdd trait").
enum ParameterType {
    STRING = "string"
    BOOLEAN = "boolean"
    STRING_ARRAY = "stringArray"
}

/// A list of conditions (rules engine "endpointBdd trait").
@private
list Conditions {
    member: Condition
}

/// A function call, optionally assigned to a variable (rules engine "endpointBdd trait").
@private
structure Condition {
    /// Function name.
    @required
    fn: String

    /// Arguments.
    @required
    argv: DocumentList

    /// Variable receiving the result.
    assign: String
}

/// A list of documents.
@private
list DocumentList {
    member: Document
}

/// A list of results (rules engine "endpointBdd trait").
@private
list Results {
    member: Result
}

/// An endpoint or error result (rules engine "endpointBdd trait").
@private
structure Result {
    /// Result kind.
    @required
    type: ResultType

    /// Description.
    documentation: String

    /// The error, when `type` is "error".
    error: Document

    /// The endpoint, when `type` is "endpoint".
    endpoint: EndpointObject

    /// Conditions (decision-tree rules only).
    conditions: Conditions
}

/// Result kinds (rules engine "endpointBdd trait").
@private
enum ResultType {
    ENDPOINT = "endpoint"
    ERROR = "error"
}

/// A resolved endpoint (rules engine "endpointBdd trait").
@private
structure EndpointObject {
    /// Endpoint URL, possibly a template.
    @required
    url: Document

    /// Endpoint properties.
    properties: EndpointProperties

    /// Transport headers.
    headers: EndpointObjectHeaders
}

/// Endpoint properties by name.
@private
map EndpointProperties {
    key: String
    value: Document
}

/// Endpoint header values by header name.
@private
map EndpointObjectHeaders {
    key: String
    value: DocumentList
}

// ===================================================================== tests

/// Test cases of the endpoint rule set (rules engine "endpointTests trait").
@unstable
@trait(selector: "service :is([trait|smithy.rules#endpointRuleSet], [trait|smithy.rules#endpointBdd])")
structure endpointTests {
    /// Schema version of the tests.
    @required
    version: String

    /// The test cases.
    testCases: EndpointTestList
}

/// A list of endpoint test cases.
@unstable
@private
list EndpointTestList {
    member: EndpointTest
}

/// One endpoint test case (rules engine "endpointTests trait").
@unstable
@private
structure EndpointTest {
    /// What the case tests.
    documentation: String

    /// Rule-set parameter values.
    params: Document

    /// Operation calls that exercise the case.
    operationInputs: OperationInputs

    /// Expected endpoint or error.
    @required
    expect: EndpointTestExpectation
}

/// A list of operation inputs.
@unstable
@private
list OperationInputs {
    member: OperationInput
}

/// An operation call used by an endpoint test (rules engine "endpointTests trait").
@unstable
@private
structure OperationInput {
    /// Operation name.
    @required
    operationName: String

    /// Operation input values.
    operationParams: Document

    /// Built-in values.
    builtInParams: Document

    /// Client configuration values.
    clientParams: Document
}

/// Expected outcome of an endpoint test: an error or an endpoint.
@unstable
@private
union EndpointTestExpectation {
    /// Expected error message.
    error: String

    /// Expected endpoint.
    endpoint: EndpointExpectation
}

/// An expected endpoint (rules engine "endpointTests trait").
@unstable
@private
structure EndpointExpectation {
    /// Expected URL.
    url: String

    /// Expected transport headers.
    headers: EndpointHeaders

    /// Expected endpoint properties.
    properties: Properties
}

/// Header name to header values.
@unstable
@private
map EndpointHeaders {
    key: String
    value: EndpointHeaderValue
}

/// Header values.
@unstable
@private
list EndpointHeaderValue {
    member: String
}

/// Property name to value.
@unstable
@private
map Properties {
    key: String
    value: Document
}

// ===================================================================== context parameters

/// Binds an input member to a rule-set parameter (rules engine "contextParam trait").
@unstable
@trait(selector: "operation -[input]-> structure > member")
structure contextParam {
    /// Rule-set parameter name.
    @required
    name: String
}

/// Static rule-set parameter values of an operation (rules engine "staticContextParams trait").
@unstable
@trait(selector: "operation")
map staticContextParams {
    key: String
    value: StaticContextParamDefinition
}

/// Rule-set parameters bound to JMESPath selections of the input (rules engine "operationContextParams trait").
@unstable
@trait(selector: "operation")
map operationContextParams {
    key: String
    value: OperationContextParamDefinition
}

/// Rule-set parameters exposed as client configuration (rules engine "clientContextParams trait").
@unstable
@trait(selector: "service")
map clientContextParams {
    key: String
    value: ClientContextParamDefinition
}

/// A static parameter value.
@unstable
@private
structure StaticContextParamDefinition {
    /// The value.
    @required
    value: Document
}

/// A JMESPath selection of the operation input.
@unstable
@private
structure OperationContextParamDefinition {
    /// JMESPath expression.
    @required
    path: String
}

/// A client configuration parameter.
@unstable
@private
structure ClientContextParamDefinition {
    /// Shape type of the generated client setting.
    @required
    type: ShapeType

    /// Documentation of the setting.
    documentation: String
}

/// Shape types of client context parameters.
@unstable
@private
enum ShapeType {
    STRING = "string"
    BOOLEAN = "boolean"
}
