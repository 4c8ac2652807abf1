// smithy2cfn's definitions of the `smithy.protocols` traits (Smithy RPC v2).
//
// Not part of /work/shared/reference/prelude; aws.protocols#awsQueryCompatible
// names these traits in its selector. Trait IDs, selectors, trait validators and
// value shapes follow the reference's smithy-protocol-traits package.
$version: "2"

namespace smithy.protocols

/// Smithy RPC v2 with CBOR payloads ("rpcv2Cbor trait").
@trait(selector: "service")
@protocolDefinition(
    traits: [
        "smithy.api#cors"
        "smithy.api#endpoint"
        "smithy.api#hostLabel"
        "smithy.api#httpError"
        "smithy.api#requestCompression"
    ]
)
@traitValidators(
    "rpcv2Cbor.NoDocuments": {
        selector: "service ~> member :test(> document)"
        message: "This protocol does not support document types in most possible scenarios."
        severity: "DANGER"
    }
)
structure rpcv2Cbor {
    /// Supported HTTP versions, in priority order.
    http: StringList

    /// HTTP versions needed for event streams.
    eventStreamHttp: StringList
}

/// Smithy RPC v2 with JSON payloads ("rpcv2Json trait").
@trait(selector: "service")
@protocolDefinition(
    traits: [
        "smithy.api#cors"
        "smithy.api#endpoint"
        "smithy.api#hostLabel"
        "smithy.api#httpError"
        "smithy.api#requestCompression"
    ]
)
structure rpcv2Json {
    /// Supported HTTP versions, in priority order.
    http: StringList

    /// HTTP versions needed for event streams.
    eventStreamHttp: StringList
}

/// A list of strings.
@private
list StringList {
    member: String
}
