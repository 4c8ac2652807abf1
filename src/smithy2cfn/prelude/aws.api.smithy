// smithy2cfn's definitions of the `aws.api` traits (aws-core.rst).
//
// Shape IDs, members, selectors and trait properties follow the specification;
// docs are one line each with a pointer to the spec section.
$version: "2"

namespace aws.api

// ===================================================================== service

/// Identifies an AWS service: SDK ID, ARN namespace, CloudFormation name... (aws-core.rst#aws.api#service-trait).
@trait(selector: "service")
structure service {
    /// SDK service ID, e.g. "API Gateway".
    @required
    sdkId: String

    /// ARN service namespace; defaults to the lowercased service shape name.
    arnNamespace: ArnNamespace

    /// CloudFormation service name (`AWS::<Name>::...`); defaults to the service shape name.
    cloudFormationName: CloudFormationName

    /// CloudTrail eventSource; defaults to `<arnNamespace>.amazonaws.com`.
    cloudTrailEventSource: String

    /// Documentation link ID; defaults to `<sdkId lowercase>-<version>`.
    docId: String

    /// Regional endpoint prefix; not unique, never use it as an identifier.
    endpointPrefix: String

    /// CloudWatch namespace of most of the service's metrics.
    cloudWatchNamespace: CloudWatchMetricNamespace
}

/// An ARN service namespace (aws-core.rst#aws.api#service-trait).
@private
@pattern("^[a-z0-9.\\-]{1,63}$")
string ArnNamespace

/// A CloudFormation service name (aws-core.rst#aws.api#service-trait).
@private
@pattern("^[A-Z][A-Za-z0-9]+$")
string CloudFormationName

/// A CloudWatch metric namespace (aws-core.rst#aws.api#service-trait).
@private
@length(min: 1, max: 255)
@pattern("^[^:].*$")
string CloudWatchMetricNamespace

// ===================================================================== ARNs

/// ARN template of a resource (aws-core.rst#aws.api#arn-trait).
@trait(selector: "resource")
@externalDocumentation(Reference: "https://docs.aws.amazon.com/general/latest/gr/aws-arns-and-namespaces.html")
structure arn {
    /// The template, with `{identifier}` labels; relative templates hold only the resource part.
    @required
    template: String

    /// The template is a complete ARN.
    absolute: Boolean

    /// The ARN has no region.
    noRegion: Boolean

    /// The ARN has no account ID.
    noAccount: Boolean

    /// Delimiter of the resource segment; only with `absolute`.
    resourceDelimiter: ResourceDelimiter

    /// The ARN may be reused by different instances of the resource.
    reusable: Boolean
}

/// Delimiters of an ARN resource segment (aws-core.rst#aws.api#arn-trait).
@private
enum ResourceDelimiter {
    FORWARD_SLASH = "/"
    COLON = ":"
}

/// The string holds an ARN (aws-core.rst#aws.api#arnReference-trait).
@trait(selector: "string")
structure arnReference {
    /// CloudFormation resource type of the ARN.
    type: String

    /// Absolute shape ID of the Smithy resource of the ARN; need not be in the model.
    resource: String

    /// Absolute shape ID of the Smithy service of the ARN; need not be in the model.
    service: String
}

// ===================================================================== data classification

/// Classification of the data held by a shape (aws-core.rst#aws.api#data-trait).
@trait(selector: ":test(simpleType, list, structure, union, member)")
enum data {
    /// Customer content.
    CUSTOMER_CONTENT = "content"

    /// Customer account information.
    CUSTOMER_ACCOUNT_INFORMATION = "account"

    /// Service attributes (usage data).
    SERVICE_ATTRIBUTES = "usage"

    /// Resource tags.
    TAG_DATA = "tagging"

    /// Security roles, rules, policies and permissions.
    PERMISSIONS_DATA = "permissions"
}

/// Operates on the control plane (aws-core.rst#aws.api#controlPlane-trait).
@trait(
    selector: ":test(service, resource, operation)"
    conflicts: ["aws.api#dataPlane"]
)
structure controlPlane {}

/// Operates on the data plane (aws-core.rst#aws.api#dataPlane-trait).
@trait(
    selector: ":test(service, resource, operation)"
    conflicts: ["aws.api#controlPlane"]
)
structure dataPlane {}

// ===================================================================== endpoint discovery

/// Endpoint discovery configuration of a service (aws-core.rst#client-endpoint-discovery-trait).
@trait(selector: "service")
structure clientEndpointDiscovery {
    /// The operation that discovers endpoints.
    @required
    @idRef(failWhenMissing: true, selector: "operation")
    operation: String

    /// The error meaning the endpoint in use is no longer valid.
    @recommended
    @idRef(failWhenMissing: true, selector: "structure[trait|error]")
    error: String
}

/// The operation uses endpoint discovery (aws-core.rst#client-discovered-endpoint-trait).
@trait(selector: "operation")
structure clientDiscoveredEndpoint {
    /// Whether a discovered endpoint is needed, or the regional one will do meanwhile.
    @required
    required: Boolean
}

/// An input member used to discover endpoints (aws-core.rst#client-endpoint-discovery-id-trait).
@trait(
    selector: """
        operation[trait|aws.api#clientDiscoveredEndpoint] -[input]->
        structure > :test(member[trait|required] > string)"""
)
structure clientEndpointDiscoveryId {}

// ===================================================================== tagging

/// The service has taggable resources and tagging APIs (aws-core.rst#tagEnabled-trait).
@trait(selector: "service")
@unstable
structure tagEnabled {
    /// The service lacks the standard service-wide tag operations.
    disableDefaultOperations: Boolean

    /// Non-default names of the service-wide tag operations.
    apiConfig: TaggableServiceApiConfig
}

/// Service-wide tagging operations; unset means the default name (aws-core.rst#tagEnabled-trait).
structure TaggableServiceApiConfig {
    /// Replaces TagResource.
    tagApi: ServiceTagOperationReference

    /// Replaces UntagResource.
    untagApi: ServiceTagOperationReference

    /// Replaces ListTagsForResource.
    listTagsApi: ServiceTagOperationReference
}

/// An operation bound to the service (aws-core.rst#tagEnabled-trait).
@idRef(failWhenMissing: true, selector: "service > operation")
string ServiceTagOperationReference

/// The resource supports tags (aws-core.rst#taggable-trait).
@trait(selector: "resource")
@unstable
structure taggable {
    /// Name of the resource property holding the tags.
    property: String

    /// Resource-specific tagging operations.
    apiConfig: TaggableApiConfig

    /// The resource cannot carry AWS system tags.
    disableSystemTags: Boolean
}

/// Resource-specific tagging operations (aws-core.rst#taggable-trait).
structure TaggableApiConfig {
    /// Adds or updates tags.
    @required
    tagApi: TagOperationReference

    /// Removes tags.
    @required
    untagApi: TagOperationReference

    /// Lists tags.
    @required
    listTagsApi: TagOperationReference
}

/// An operation bound to the resource (aws-core.rst#taggable-trait).
@idRef(failWhenMissing: true, selector: "resource > operation")
string TagOperationReference

// ===================================================================== streaming

/// The streaming blob uses aws-chunked content encoding (aws-core.rst#aws.api#awsChunked-trait).
@trait(
    selector: "blob[trait|streaming]"
    breakingChanges: [{change: "remove"}]
)
structure awsChunked {}
