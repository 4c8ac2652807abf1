// smithy2cfn's definitions of the `aws.protocols` traits (AWS protocol specs;
// httpChecksum in aws-core.rst).
//
// Shape IDs, members, selectors and trait properties follow the specification;
// docs are one line each. Trait IDs in protocolDefinition lists are written as
// absolute IDs, which is what the relative names resolve to.
$version: "2"

namespace aws.protocols

// ===================================================================== JSON protocols

/// HTTP versions configuration shared by the HTTP-based protocols (mixin).
@private
@mixin(localTraits: ["smithy.api#private"])
structure HttpConfiguration {
    /// Supported HTTP versions, in priority order.
    http: StringList

    /// HTTP versions needed for event streams; defaults to `http`, and must be a subset of it.
    eventStreamHttp: StringList
}

/// A list of strings.
@private
list StringList {
    member: String
}

/// AWS JSON 1.0: RPC over HTTP POST with JSON bodies; no HTTP binding traits.
@trait(selector: "service")
@protocolDefinition(
    traits: ["smithy.api#timestampFormat", "smithy.api#cors", "smithy.api#endpoint", "smithy.api#hostLabel"]
)
structure awsJson1_0 with [HttpConfiguration] {}

/// AWS JSON 1.1: RPC over HTTP POST with JSON bodies; no HTTP binding traits.
@trait(selector: "service")
@protocolDefinition(
    traits: ["smithy.api#timestampFormat", "smithy.api#cors", "smithy.api#endpoint", "smithy.api#hostLabel"]
)
structure awsJson1_1 with [HttpConfiguration] {}

/// REST with JSON payloads, driven by the HTTP binding traits.
@trait(selector: "service")
@protocolDefinition(
    traits: [
        "smithy.api#timestampFormat"
        "smithy.api#cors"
        "smithy.api#endpoint"
        "smithy.api#hostLabel"
        "smithy.api#http"
        "smithy.api#httpError"
        "smithy.api#httpHeader"
        "smithy.api#httpLabel"
        "smithy.api#httpPayload"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpQuery"
        "smithy.api#httpQueryParams"
        "smithy.api#httpResponseCode"
        "aws.protocols#httpChecksum"
        "smithy.api#httpChecksumRequired"
        "smithy.api#jsonName"
    ]
)
structure restJson1 with [HttpConfiguration] {}

// ===================================================================== XML and query protocols

/// REST with XML payloads, driven by the HTTP binding traits.
@deprecated
@trait(selector: "service")
@protocolDefinition(
    traits: [
        "smithy.api#timestampFormat"
        "smithy.api#cors"
        "smithy.api#endpoint"
        "smithy.api#hostLabel"
        "smithy.api#http"
        "smithy.api#httpError"
        "smithy.api#httpHeader"
        "smithy.api#httpLabel"
        "smithy.api#httpPayload"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpQuery"
        "smithy.api#httpQueryParams"
        "smithy.api#httpResponseCode"
        "aws.protocols#httpChecksum"
        "smithy.api#httpChecksumRequired"
        "smithy.api#xmlAttribute"
        "smithy.api#xmlFlattened"
        "smithy.api#xmlName"
        "smithy.api#xmlNamespace"
    ]
)
@traitValidators(
    UnsupportedProtocolDocument: {
        selector: "~> member :test(> document)"
        message: "Document types are not supported with restXml"
    }
)
structure restXml with [HttpConfiguration] {
    /// Error properties are not wrapped in an `Error` element.
    @deprecated
    noErrorWrapping: Boolean
}

/// AWS query: form-encoded POST requests, XML responses; no HTTP binding traits.
@deprecated
@trait(selector: "service [trait|xmlNamespace]")
@protocolDefinition(
    traits: [
        "smithy.api#timestampFormat"
        "smithy.api#cors"
        "smithy.api#endpoint"
        "smithy.api#hostLabel"
        "aws.protocols#awsQueryError"
        "smithy.api#xmlAttribute"
        "smithy.api#xmlFlattened"
        "smithy.api#xmlName"
        "smithy.api#xmlNamespace"
    ]
)
@traitValidators(
    UnsupportedProtocolDocument: {
        selector: "~> member :test(> document)"
        message: "Document types are not supported with awsQuery"
    }
)
structure awsQuery {}

/// The `Code` value and HTTP status of an awsQuery error.
@trait(
    selector: "structure [trait|error]"
    breakingChanges: [{change: "any"}]
)
structure awsQueryError {
    /// Distinguishing `Code` value.
    @required
    code: String

    /// HTTP response code.
    @required
    httpResponseCode: Integer
}

/// Keeps awsQuery error compatibility after moving to awsJson1_0 or RPC v2.
@trait(
    selector: """
        service :test([trait|aws.protocols#awsJson1_0],
                      [trait|smithy.protocols#rpcv2Cbor],
                      [trait|smithy.protocols#rpcv2Json])"""
)
structure awsQueryCompatible {}

/// EC2 query: EC2-style form-encoded POST requests, XML responses; no HTTP binding traits.
@deprecated
@trait(selector: "service [trait|xmlNamespace]")
@protocolDefinition(
    traits: [
        "smithy.api#timestampFormat"
        "smithy.api#cors"
        "smithy.api#endpoint"
        "smithy.api#hostLabel"
        "aws.protocols#ec2QueryName"
        "smithy.api#xmlAttribute"
        "smithy.api#xmlFlattened"
        "smithy.api#xmlName"
        "smithy.api#xmlNamespace"
    ]
)
@traitValidators(
    UnsupportedProtocolDocument: {
        selector: "~> member :test(> document)"
        message: "Document types are not supported with ec2Query"
    }
)
structure ec2Query {}

/// Serialized name of a member in EC2 query input.
@trait(selector: "structure > member")
@pattern("^[a-zA-Z_][a-zA-Z_0-9-]*$")
string ec2QueryName

// ===================================================================== checksums

/// Request and response checksum behavior of an operation (aws-core.rst#aws.protocols#httpChecksum-trait).
@unstable
@trait(
    selector: "operation"
    breakingChanges: [
        {
            change: "remove"
            severity: "DANGER"
            message: "Clients stop doing checksums; the service must keep supporting old clients."
        }
        {
            change: "remove"
            path: "/requestAlgorithmMember"
            severity: "DANGER"
            message: "Clients can no longer choose a request checksum algorithm; the service must keep supporting old clients."
        }
        {
            change: "remove"
            path: "/requestValidationModeMember"
            severity: "DANGER"
            message: "Clients stop validating response checksums; the service must keep supporting old clients."
        }
        {
            change: "remove"
            path: "/responseAlgorithms/member"
            severity: "DANGER"
            message: "Clients stop validating the removed algorithms; the service must keep supporting old clients."
        }
    ]
)
structure httpChecksum {
    /// Input member selecting the request checksum algorithm.
    requestAlgorithmMember: String

    /// The request must carry a checksum.
    requestChecksumRequired: Boolean

    /// Input member opting in to response checksum validation.
    requestValidationModeMember: String

    /// Algorithms to look for when validating responses.
    responseAlgorithms: ChecksumAlgorithmSet
}

/// A non-empty set of checksum algorithms (aws-core.rst#aws.protocols#httpChecksum-trait).
@private
@length(min: 1)
@uniqueItems
list ChecksumAlgorithmSet {
    member: ChecksumAlgorithm
}

/// Checksum algorithms (aws-core.rst#aws.protocols#httpChecksum-trait).
@private
enum ChecksumAlgorithm {
    CRC32
    CRC32C
    CRC64NVME
    MD5
    SHA1
    SHA256
    SHA512
    XXHASH64
    XXHASH3
    XXHASH128
}
