// smithy2cfn's definitions of the `aws.apigateway` traits (amazon-apigateway.rst: Amazon API
// Gateway integrations, authorizers and REST API settings, all internal).
//
// Shape IDs, members, selectors and trait properties follow the specification and the
// reference's smithy-aws-apigateway-traits package; docs are one line each with a pointer to
// the spec section.
$version: "2"

namespace aws.apigateway

use aws.api#arnReference

// ===================================================================== traits

/// Where API Gateway reads the API key that throttles keyed methods (amazon-apigateway.rst#aws.apigateway#apiKeySource-trait).
@externalDocumentation(
    "Developer Guide": "https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-swagger-extensions-api-key-source.html"
)
@internal
@tags(["internal"])
@trait(selector: "service")
string apiKeySource

/// The operation needs an API key for usage plan enforcement (amazon-apigateway.rst#aws.apigateway#apiKeyRequired-trait).
@internal
@tags(["internal"])
@trait(selector: "operation")
structure apiKeyRequired {}

/// Name of the authorizer (of `authorizers`) that protects a service, resource or operation (amazon-apigateway.rst#aws.apigateway#authorizer-trait).
@internal
@tags(["internal"])
@trait(selector: ":test(service, resource, operation)")
string authorizer

/// Authorizer name to API Gateway authorizer definition (amazon-apigateway.rst#aws.apigateway#authorizers-trait).
@internal
@tags(["internal"])
@trait(selector: "service")
map authorizers {
    key: String
    value: AuthorizerDefinition
}

/// The backend integration of a service, resource or operation (amazon-apigateway.rst#aws.apigateway#integration-trait).
@internal
@tags(["internal"])
@trait(
    selector: ":test(service, resource, operation)"
    conflicts: ["aws.apigateway#mockIntegration"]
)
structure integration {
    /// Integration type.
    @required
    type: IntegrationType

    /// Backend endpoint: an ARN for `aws` integrations, an http(s) URL for HTTP ones.
    @required
    uri: Arn

    /// IAM role ARN API Gateway assumes; resource-based permissions when unset.
    credentials: IamRoleArn

    /// HTTP method of the integration request (`POST` for Lambda).
    @required
    httpMethod: String

    /// How a payload of an unmapped content type passes through.
    passThroughBehavior: PassThroughBehavior

    /// Request payload content handling.
    contentHandling: ContentHandling

    /// Integration timeout, 50 to 29,000 ms.
    timeoutInMillis: Integer

    /// ID of the VpcLink of a private integration.
    connectionId: String

    /// Network connection to the backend: INTERNET or VPC_LINK.
    connectionType: ConnectionType = "INTERNET"

    /// Tag group of related cached parameters.
    cacheNamespace: String

    /// Payload format sent to the integration (HTTP APIs: 1.0 or 2.0).
    payloadFormatVersion: String

    /// Request parameters whose values are cached.
    cacheKeyParameters: StringList

    /// Method request parameter to integration request parameter mappings.
    requestParameters: RequestParameters

    /// Media type to request mapping template.
    requestTemplates: Templates

    /// Method responses and their parameter or payload mappings.
    responses: IntegrationResponses

    /// TLS configuration of the integration.
    tlsConfig: TlsConfig

    /// How the response payload is transferred: BUFFERED or STREAM.
    responseTransferMode: String

    /// ARN of the ALB or NLB listener of a VPC Link V2 private integration.
    @suppress(["RepeatedShapeName"])
    integrationTarget: String
}

/// A mock integration: API Gateway answers without a backend (amazon-apigateway.rst#aws.apigateway#mockIntegration-trait).
@internal
@tags(["internal"])
@trait(
    selector: ":test(service, resource, operation)"
    conflicts: ["aws.apigateway#integration"]
)
structure mockIntegration {
    /// How a payload of an unmapped content type passes through.
    passThroughBehavior: PassThroughBehavior

    /// Method request parameter to integration request parameter mappings.
    requestParameters: RequestParameters

    /// Media type to request mapping template.
    requestTemplates: Templates

    /// Method responses and their parameter or payload mappings.
    responses: IntegrationResponses
}

/// Request validation: "full", "params-only" or "body-only" (amazon-apigateway.rst#aws.apigateway#requestValidator-trait).
@internal
@tags(["internal"])
@trait(selector: ":test(service, operation)")
string requestValidator

/// Response type to customized API Gateway-generated response (amazon-apigateway.rst#aws.apigateway#gatewayResponses-trait).
@internal
@tags(["internal"])
@trait(selector: "service")
map gatewayResponses {
    key: String
    value: GatewayResponse
}

/// Endpoint types, VPC endpoints and default endpoint of a REST API (amazon-apigateway.rst#aws.apigateway#endpointConfiguration-trait).
@internal
@tags(["internal"])
@trait(selector: "service")
structure endpointConfiguration {
    /// Endpoint types of the API.
    @required
    types: EndpointTypes

    /// VPC endpoint IDs of a PRIVATE API.
    vpcEndpointIds: VpcEndpointIds

    /// The default execute-api endpoint is disabled.
    disableExecuteApiEndpoint: Boolean

    /// IP address types that may invoke the API.
    ipAddressType: IpAddressType
}

/// Smallest payload, in bytes, that a REST API compresses: 0 to 10485760 (amazon-apigateway.rst#aws.apigateway#minimumCompressionSize-trait).
@internal
@tags(["internal"])
@trait(selector: "service")
@range(min: 0, max: 10485760)
integer minimumCompressionSize

/// The JSON resource policy document of a REST API (amazon-apigateway.rst#aws.apigateway#resourcePolicy-trait).
@internal
@tags(["internal"])
@trait(selector: "service")
document resourcePolicy

/// TLS security policy and endpoint access mode of a REST API (amazon-apigateway.rst#aws.apigateway#apiTlsPolicy-trait).
@internal
@tags(["internal"])
@trait(selector: "service")
structure apiTlsPolicy {
    /// TLS version and cipher suite.
    @required
    securityPolicy: String

    /// Endpoint access mode.
    endpointAccessMode: EndpointAccessMode
}

// ===================================================================== value shapes

/// An authorizer: auth scheme plus API Gateway settings (amazon-apigateway.rst#aws.apigateway#authorizers-trait).
@private
structure AuthorizerDefinition {
    /// Shape ID of the auth scheme trait the client uses.
    @idRef(
        selector: "[trait|authDefinition]"
        failWhenMissing: true
        errorMessage: "The scheme of an authorizer definition must reference an auth trait"
    )
    @required
    scheme: String

    /// Authorizer type: "token" or "request".
    type: String

    /// Auth type written to OpenAPI exports.
    customAuthType: String

    /// URI of the authorizer Lambda function.
    uri: String

    /// Credentials used to invoke the authorizer.
    credentials: String

    /// Comma-separated mapping expressions of the identity source (request authorizers).
    identitySource: String

    /// Regular expression the incoming token must match.
    identityValidationExpression: String

    /// Seconds the resulting IAM policy is cached.
    resultTtlInSeconds: Integer

    /// Payload format exchanged with the authorizer (HTTP APIs).
    authorizerPayloadFormatVersion: PayloadFormatVersion

    /// The authorizer returns a boolean instead of a policy (HTTP APIs, format 2.0).
    enableSimpleResponses: Boolean
}

/// A method response and its mappings (amazon-apigateway.rst#apigateway-response-structure).
@private
structure IntegrationResponse {
    /// HTTP status code of the method response, e.g. "200".
    statusCode: String

    /// Response payload content handling.
    contentHandling: ContentHandling

    /// Media type to response mapping template.
    responseTemplates: Templates

    /// Method response header to integration response value mappings.
    responseParameters: ResponseParameters
}

/// TLS configuration of an integration (amazon-apigateway.rst#aws.apigateway#integration-trait).
@private
structure TlsConfig {
    /// Skip the check that the backend certificate comes from a supported authority (HTTP integrations).
    insecureSkipVerification: Boolean
}

/// A list of strings.
@private
list StringList {
    member: String
}

/// Response identifier to integration response (amazon-apigateway.rst#apigateway-responses).
@private
map IntegrationResponses {
    key: String
    value: IntegrationResponse
}

/// Integration request parameter to mapping expression (amazon-apigateway.rst#apigateway-requestParameters).
@private
map RequestParameters {
    key: String
    value: String
}

/// Method response parameter to mapping expression (amazon-apigateway.rst#apigateway-response-parameters-structure).
@private
map ResponseParameters {
    key: String
    value: String
}

/// Media type to Velocity mapping template (amazon-apigateway.rst#apigateway-requestTemplates).
@private
map Templates {
    key: String
    value: String
}

/// ARN of an AWS integration target; may hold `{serviceName}` and `{operationName}` (amazon-apigateway.rst#aws.apigateway#integration-trait).
@arnReference
@private
string Arn

/// Network connections to an integration backend (amazon-apigateway.rst#aws.apigateway#integration-trait).
@private
enum ConnectionType {
    /// The public internet.
    INTERNET

    /// A private VPC link to a network load balancer.
    VPC_LINK
}

/// Payload conversions of an integration (amazon-apigateway.rst#apigateway-content-handling).
@private
enum ContentHandling {
    /// Binary to base64 text; text passes through.
    CONVERT_TO_TEXT

    /// Base64 text to binary; binary passes through.
    CONVERT_TO_BINARY
}

/// ARN of the IAM role assumed to invoke an integration; may hold `{serviceName}` and `{operationName}` (amazon-apigateway.rst#aws.apigateway#integration-trait).
@arnReference(type: "AWS::IAM::Role")
@private
string IamRoleArn

/// Integration types (amazon-apigateway.rst#aws.apigateway#integration-trait).
@private
enum IntegrationType {
    /// A Lambda function or another AWS service.
    AWS = "aws"

    /// A Lambda proxy integration.
    AWS_PROXY = "aws_proxy"

    /// An HTTP backend.
    HTTP = "http"

    /// An HTTP proxy integration.
    HTTP_PROXY = "http_proxy"
}

/// Pass-through of unmapped payloads (amazon-apigateway.rst#aws.apigateway#integration-trait).
@private
enum PassThroughBehavior {
    /// Pass through only when no template is defined; otherwise 415.
    WHEN_NO_TEMPLATES = "when_no_templates"

    /// Pass through when no template matches the content type.
    WHEN_NO_MATCH = "when_no_match"

    /// Always reject unmapped payloads with 415.
    NEVER = "never"
}

/// Payload format versions of an authorizer (amazon-apigateway.rst#aws.apigateway#authorizers-trait).
@private
enum PayloadFormatVersion {
    /// Format 1.0.
    V1_0 = "1.0"

    /// Format 2.0.
    V2_0 = "2.0"
}

/// A customized gateway response (amazon-apigateway.rst#aws.apigateway#gatewayResponses-trait).
@private
structure GatewayResponse {
    /// HTTP status code.
    statusCode: String

    /// Response parameters.
    responseParameters: GatewayResponseParameterMap

    /// Response templates.
    responseTemplates: GatewayResponseTemplateMap
}

/// Gateway response parameter name to value.
@private
map GatewayResponseParameterMap {
    key: String
    value: String
}

/// Media type to gateway response template.
@private
map GatewayResponseTemplateMap {
    key: String
    value: String
}

/// REST API endpoint types (amazon-apigateway.rst#aws.apigateway#endpointConfiguration-trait).
@private
enum EndpointType {
    /// Edge-optimized.
    EDGE

    /// Regional.
    REGIONAL

    /// Private.
    PRIVATE
}

/// A list of endpoint types.
@private
list EndpointTypes {
    member: EndpointType
}

/// A list of VPC endpoint IDs.
@private
list VpcEndpointIds {
    member: String
}

/// Endpoint access modes of a REST API (amazon-apigateway.rst#aws.apigateway#apiTlsPolicy-trait).
@private
enum EndpointAccessMode {
    /// Basic access.
    BASIC

    /// Strict access, with further governance checks.
    STRICT
}

/// IP address types that may invoke a REST API (amazon-apigateway.rst#aws.apigateway#endpointConfiguration-trait).
@private
enum IpAddressType {
    /// IPv4 only.
    IPV4 = "ipv4"

    /// IPv4 and IPv6 (required for PRIVATE endpoints).
    DUAL_STACK = "dualstack"
}
