// smithy2cfn's prelude: the shapes and traits of the `smithy.api` namespace.
//
// Written for smithy2cfn from the Smithy 2.0 specification (model.rst "Prelude"
// and the trait chapters cited on each shape). Shape IDs, shape types, members,
// selectors and trait properties follow the specification exactly because user
// models depend on them; docs are one line each, with a pointer to the spec
// section as `file.rst#label`.
//
// Shape-ID values inside trait values are written as quoted absolute IDs; that
// is what unquoted (syntactic) shape IDs resolve to (idl.rst#syntactic-shape-ids).
$version: "2"

namespace smithy.api

// ===================================================================== simple shapes

/// A UTF-8 string (simple-types.rst#string).
string String

/// Uninterpreted binary data (simple-types.rst#blob).
blob Blob

/// An arbitrarily large signed integer (simple-types.rst#bigInteger).
bigInteger BigInteger

/// An arbitrary-precision signed decimal (simple-types.rst#bigDecimal).
bigDecimal BigDecimal

/// An instant in time (simple-types.rst#timestamp).
timestamp Timestamp

/// An untyped JSON-like value (simple-types.rst#document).
document Document

/// A nullable boolean (simple-types.rst#boolean).
boolean Boolean

/// A nullable 8-bit signed integer (simple-types.rst#byte).
byte Byte

/// A nullable 16-bit signed integer (simple-types.rst#short).
short Short

/// A nullable 32-bit signed integer (simple-types.rst#integer).
integer Integer

/// A nullable 64-bit signed integer (simple-types.rst#long).
long Long

/// A nullable IEEE 754 single-precision float (simple-types.rst#float).
float Float

/// A nullable IEEE 754 double-precision float (simple-types.rst#double).
double Double

/// A boolean that defaults to false (type-refinement-traits.rst#default-trait).
@default(false)
boolean PrimitiveBoolean

/// A byte that defaults to 0 (type-refinement-traits.rst#default-trait).
@default(0)
byte PrimitiveByte

/// A short that defaults to 0 (type-refinement-traits.rst#default-trait).
@default(0)
short PrimitiveShort

/// An integer that defaults to 0 (type-refinement-traits.rst#default-trait).
@default(0)
integer PrimitiveInteger

/// A long that defaults to 0 (type-refinement-traits.rst#default-trait).
@default(0)
long PrimitiveLong

/// A float that defaults to 0 (type-refinement-traits.rst#default-trait).
@default(0)
float PrimitiveFloat

/// A double that defaults to 0 (type-refinement-traits.rst#default-trait).
@default(0)
double PrimitiveDouble

/// The unit type: no meaningful value; the only shape allowed to carry @unitType (model.rst#unit-type).
@unitType
structure Unit {}

// ===================================================================== defining traits (model.rst)

/// Turns a shape into a trait definition (model.rst#trait-trait).
@trait(
    selector: ":is(simpleType, list, map, structure, union)"
    breakingChanges: [
        {change: "presence"}
        {path: "/structurallyExclusive", change: "any"}
        {
            path: "/conflicts"
            change: "update"
            severity: "NOTE"
            message: "New conflicts can make models that used to validate fail."
        }
    ]
)
structure trait {
    /// Where the trait may be applied.
    selector: String

    /// Whether only one member (or one member targeting such a shape) may carry the trait.
    structurallyExclusive: StructurallyExclusive

    /// Traits that may not be applied together with this one.
    conflicts: NonEmptyStringList

    /// Backward-compatibility rules of the trait.
    breakingChanges: TraitDiffRules
}

/// The scope of `trait.structurallyExclusive` (model.rst#trait-trait).
@private
enum StructurallyExclusive {
    MEMBER = "member"
    TARGET = "target"
}

/// The list of breaking-change rules of a trait (model.rst#trait-breaking-change-rules).
@private
@length(min: 1)
list TraitDiffRules {
    member: TraitDiffRule
}

/// One breaking-change rule of a trait (model.rst#trait-breaking-change-rules).
@private
structure TraitDiffRule {
    /// JSON pointer into the trait value.
    path: String

    /// The kind of change that is not allowed.
    @required
    change: TraitChangeType

    /// Severity of the change.
    severity: Severity = "ERROR"

    /// Why the change may break users.
    message: String
}

/// Kinds of trait changes (model.rst#trait-breaking-change-rules).
@private
enum TraitChangeType {
    UPDATE = "update"
    ADD = "add"
    REMOVE = "remove"
    PRESENCE = "presence"
    ANY = "any"
}

/// Validation event severities (model-validation.rst#severity-definition).
@private
enum Severity {
    NOTE
    WARNING
    DANGER
    ERROR
}

/// A list of trait shape IDs (protocol-traits.rst#protocolDefinition-trait).
@private
list TraitShapeIdList {
    member: TraitShapeId
}

/// A shape ID that must target a trait (protocol-traits.rst#protocolDefinition-trait).
@private
@idRef(failWhenMissing: true, selector: "[trait|trait]")
string TraitShapeId

/// A string of at least one character.
@private
@length(min: 1)
string NonEmptyString

/// A list of non-empty strings.
@private
list NonEmptyStringList {
    member: NonEmptyString
}

/// A map of non-empty strings to non-empty strings.
@private
map NonEmptyStringMap {
    key: NonEmptyString
    value: NonEmptyString
}

// ===================================================================== type refinement traits

/// A default value for a member or root shape (type-refinement-traits.rst#default-trait).
@trait(selector: ":is(simpleType, list, map, structure > member :test(> :is(simpleType, list, map)))")
document default

/// Records that @default was added to a member later (type-refinement-traits.rst#addedDefault-trait).
@trait(
    selector: "structure > member [trait|default]"
    breakingChanges: [{change: "remove"}]
)
structure addedDefault {}

/// A structure member that must be set (type-refinement-traits.rst#required-trait).
@trait(selector: "structure > member")
structure required {}

/// Non-authoritative generators treat the member as nullable (type-refinement-traits.rst#clientOptional-trait).
@trait(selector: "structure > member")
structure clientOptional {}

/// The value of an enum or intEnum member (type-refinement-traits.rst#enumValue-trait).
@trait(selector: ":is(enum, intEnum) > member")
@tags(["diff.error.const"])
document enumValue

/// The structure is an error, caused by the client or the server (type-refinement-traits.rst#error-trait).
@trait(
    selector: "structure"
    conflicts: ["smithy.api#trait"]
    breakingChanges: [{change: "any"}]
)
enum error {
    CLIENT = "client"
    SERVER = "server"
}

/// The structure is the input of a single operation (type-refinement-traits.rst#input-trait).
@trait(
    selector: "structure"
    conflicts: ["smithy.api#output", "smithy.api#error"]
    breakingChanges: [{change: "presence"}]
)
structure input {}

/// The structure is the output of a single operation (type-refinement-traits.rst#output-trait).
@trait(
    selector: "structure"
    conflicts: ["smithy.api#input", "smithy.api#error"]
    breakingChanges: [{change: "presence"}]
)
structure output {}

/// A list or map that may contain nulls (type-refinement-traits.rst#sparse-trait).
@trait(
    selector: ":is(list, map)"
    breakingChanges: [{change: "presence"}]
)
structure sparse {}

/// Marks a shape as a mixin (type-refinement-traits.rst#mixin-trait, mixins.rst).
@trait(selector: ":not(member)")
structure mixin {
    /// Traits of the mixin that are not copied to shapes that use it.
    localTraits: LocalMixinTraitList
}

/// The list behind `mixin.localTraits` (mixins.rst).
@private
list LocalMixinTraitList {
    member: LocalMixinTrait
}

/// A shape ID that must target a trait (mixins.rst).
@private
@idRef(
    selector: "[trait|trait]"
    failWhenMissing: true
    errorMessage: """
        Strings provided to the localTraits property of a mixin trait
        must target a valid trait."""
)
string LocalMixinTrait

/// Only smithy.api#Unit may carry this trait (model.rst#unit-type).
@trait(selector: "[id=smithy.api#Unit]")
structure unitType {}

/// Smithy 1.0 only: the shape or member is nullable; not allowed in 2.0 models (idl.rst, 1.0 upgrade).
@trait(
    selector: """
        :test(boolean, byte, short, integer, long, float, double,
        member > :test(boolean, byte, short, integer, long, float, double))"""
)
structure box {}

// ===================================================================== constraint traits

/// The string must hold a shape ID (constraint-traits.rst#idref-trait).
@trait(selector: ":test(string, member > string)")
structure idRef {
    /// Selector the resolved shape must match.
    selector: String = "*"

    /// Whether the shape must exist in the model.
    failWhenMissing: Boolean

    /// Custom message on failure.
    errorMessage: String
}

/// Minimum and maximum length or size (constraint-traits.rst#length-trait).
@trait(selector: ":test(list, map, string, blob, member > :is(list, map, string, blob))")
structure length {
    /// Inclusive minimum.
    min: Long

    /// Inclusive maximum.
    max: Long
}

/// A regular expression the string must match (constraint-traits.rst#pattern-trait).
@trait(
    selector: ":test(string, member > string)"
    breakingChanges: [
        {
            change: "add"
            severity: "WARNING"
            message: "Add @pattern only when every existing value already matches it."
        }
        {
            change: "update"
            severity: "NOTE"
            message: "A changed @pattern should accept more values, not fewer."
        }
    ]
)
string pattern

/// The shape may only be referenced from its own namespace (constraint-traits.rst#private-trait).
@trait
structure private {}

/// Inclusive numeric bounds (constraint-traits.rst#range-trait).
@trait(selector: ":test(number, member > number)")
structure range {
    /// Inclusive minimum.
    min: BigDecimal

    /// Inclusive maximum.
    max: BigDecimal
}

/// The list items must be unique (constraint-traits.rst#uniqueItems-trait).
@trait(
    selector: "list :not(> member ~> :is(float, double, document))"
    conflicts: ["smithy.api#sparse"]
    breakingChanges: [{change: "presence", severity: "WARNING"}]
)
structure uniqueItems {}

/// Smithy 1.0 string enums, replaced by enum shapes in 2.0 (constraint-traits.rst#enum-trait).
@trait(
    selector: "string :not(enum)"
    breakingChanges: [{change: "presence"}]
)
@length(min: 1)
// The message is surfaced in DeprecatedTrait warnings, so it is kept as the spec states it.
@deprecated(message: "The enum trait is replaced by the enum shape in Smithy 2.0", since: "2.0")
list enum {
    member: EnumDefinition
}

/// One value of the enum trait (constraint-traits.rst#enum-trait).
@private
structure EnumDefinition {
    /// The value sent over the wire.
    @required
    value: NonEmptyString

    /// The name used in generated code.
    name: EnumConstantBodyName

    /// Documentation of the value.
    documentation: String

    /// Tags of the value.
    tags: NonEmptyStringList

    /// Whether the value is deprecated.
    deprecated: Boolean
}

/// The name of an enum trait value (constraint-traits.rst#enum-trait).
@private
@pattern("^[a-zA-Z_]+[a-zA-Z_0-9]*$")
string EnumConstantBodyName

// ===================================================================== documentation traits

/// The shape or member is deprecated (documentation-traits.rst#deprecated-trait).
@trait
structure deprecated {
    /// Why it is deprecated.
    message: String

    /// When it was deprecated (date or version).
    since: String
}

/// CommonMark documentation (documentation-traits.rst#documentation-trait).
@trait
string documentation

/// Example inputs and outputs of an operation (documentation-traits.rst#examples-trait).
@trait(selector: "operation")
list examples {
    member: Example
}

/// One operation example (documentation-traits.rst#examples-trait).
@private
structure Example {
    @required
    title: String

    documentation: String

    input: Document

    output: Document

    error: ExampleError

    allowConstraintErrors: Boolean
}

/// The error an example produces (documentation-traits.rst#examples-trait).
@private
structure ExampleError {
    @idRef(selector: "structure[trait|error]")
    shapeId: String

    content: Document
}

/// Named links to further documentation (documentation-traits.rst#externalDocumentation-trait).
@trait
@length(min: 1)
map externalDocumentation {
    key: NonEmptyString
    value: NonEmptyString
}

/// For internal use only, not to be exposed (documentation-traits.rst#internal-trait).
@trait(
    breakingChanges: [
        {
            change: "remove"
            severity: "WARNING"
            message: "Without @internal the shape becomes visible to customers."
        }
    ]
)
structure internal {}

/// The member should be set (documentation-traits.rst#recommended-trait).
@trait(
    selector: "structure > member"
    conflicts: ["smithy.api#required"]
)
structure recommended {
    /// Why it is recommended.
    reason: String
}

/// The data is sensitive (documentation-traits.rst#sensitive-trait).
@trait(selector: ":not(:test(service, operation, resource, member))")
structure sensitive {}

/// The version or date the shape was added (documentation-traits.rst#since-trait).
@trait
string since

/// Free-form tags for filtering shapes (documentation-traits.rst#tags-trait).
@trait
list tags {
    member: String
}

/// A human-readable title (documentation-traits.rst#title-trait).
@trait
string title

/// The shape may change in the future (documentation-traits.rst#unstable-trait).
@trait
structure unstable {}

// ===================================================================== behavior traits

/// The input member that lets the server discard replayed requests (behavior-traits.rst#idempotencyToken-trait).
@trait(
    selector: "structure > :test(member > string)"
    structurallyExclusive: "member"
    breakingChanges: [{change: "remove"}]
)
@notProperty
structure idempotencyToken {}

/// Repeating the request has the same effect as sending it once (behavior-traits.rst#idempotent-trait).
@trait(
    selector: "operation"
    conflicts: ["smithy.api#readonly"]
    breakingChanges: [{change: "remove"}]
)
structure idempotent {
    /// Errors returned when the resource already exists.
    exists: IdempotentErrors

    /// Errors returned when the resource does not exist.
    notFound: IdempotentErrors
}

/// Error shape IDs of the idempotent trait (behavior-traits.rst#idempotent-trait).
@private
list IdempotentErrors {
    @idRef(selector: "[trait|error]")
    member: String
}

/// The service may hold the request open (behavior-traits.rst#longPoll-trait).
@trait(selector: "operation")
@unstable
structure longPoll {
    /// How long a client should wait, in milliseconds.
    @required
    @range(min: 1)
    timeoutMillis: Integer
}

/// The operation is read-only (behavior-traits.rst#readonly-trait).
@trait(
    selector: "operation"
    conflicts: ["smithy.api#idempotent"]
    breakingChanges: [{change: "remove"}]
)
structure readonly {}

/// The error may be retried (behavior-traits.rst#retryable-trait).
@trait(
    selector: "structure[trait|error]"
    breakingChanges: [{change: "remove"}]
)
structure retryable {
    /// The retry is due to throttling.
    throttling: Boolean
}

/// Results come in pages (behavior-traits.rst#paginated-trait).
@trait(
    selector: ":is(service, operation)"
    breakingChanges: [
        {change: "remove"}
        {path: "/inputToken", change: "update"}
        {path: "/outputToken", change: "update"}
        {path: "/items", change: "remove"}
        {path: "/items", change: "add", severity: "NOTE"}
        {path: "/items", change: "update", severity: "NOTE"}
        {path: "/pageSize", change: "update"}
        {path: "/pageSize", change: "remove"}
    ]
)
structure paginated {
    /// Input member holding the continuation token.
    inputToken: NonEmptyString

    /// Output member holding the continuation token.
    outputToken: NonEmptyString

    /// Output member holding the paginated items.
    items: NonEmptyString

    /// Input member limiting the page size.
    pageSize: NonEmptyString
}

/// Request compression supported by the operation (behavior-traits.rst#requestCompression-trait).
@trait(
    selector: "operation"
    breakingChanges: [
        {
            change: "remove"
            severity: "DANGER"
            message: "Clients will stop compressing requests; the service must keep accepting the old encodings."
        }
        {
            change: "remove"
            path: "/encodings"
            message: "The requestCompression trait requires `encodings`."
        }
        {
            change: "add"
            severity: "NOTE"
            path: "/encodings/member"
            message: "The service must support every encoding once it is listed."
        }
        {
            change: "remove"
            severity: "DANGER"
            path: "/encodings/member"
            message: "Clients will stop using the removed encodings; the service must keep accepting them."
        }
        {
            change: "update"
            severity: "DANGER"
            path: "/encodings/member"
            message: "Clients will stop using the replaced encodings; the service must keep accepting them."
        }
    ]
)
structure requestCompression {
    /// Supported encodings, in priority order.
    @required
    encodings: RequestCompressionEncodingsList
}

/// Compression encodings; case-insensitive, so not an enum (behavior-traits.rst#requestCompression-trait).
@private
list RequestCompressionEncodingsList {
    member: String
}

// ===================================================================== resource traits

/// Lifecycle-operation member whose target's members are the resource properties (resource-traits.rst#nested-properties-trait).
@trait(
    selector: "operation -[input, output]-> structure > member :test(> structure)"
    structurallyExclusive: "member"
    breakingChanges: [{change: "any"}]
)
@notProperty
structure nestedProperties {}

/// The member is not a resource property (resource-traits.rst#notproperty-trait).
@trait(
    selector: ":is(operation -[input, output]-> structure > member, [trait|trait])"
    breakingChanges: [{change: "add"}]
)
@notProperty
structure notProperty {}

/// The put lifecycle operation may only create, never replace (resource-traits.rst#noReplace-trait).
@trait(selector: "resource:test(-[put]->)")
structure noReplace {}

/// Maps the member to a resource property (resource-traits.rst#property-trait).
@trait(
    selector: "structure > member"
    conflicts: ["smithy.api#resourceIdentifier"]
    breakingChanges: [{change: "remove"}, {change: "update"}]
)
structure property {
    /// The property name.
    name: String
}

/// Resources referenced by a structure or string (resource-traits.rst#references-trait).
@trait(selector: ":is(structure, string)")
list references {
    member: Reference
}

/// One resource reference (resource-traits.rst#references-trait).
@private
structure Reference {
    /// Shape ID of the referenced resource.
    @required
    resource: NonEmptyString

    /// Resource identifier name to member name.
    ids: NonEmptyStringMap

    /// Service the reference is bound to.
    service: NonEmptyString

    /// Link relation (RFC 5988).
    rel: NonEmptyString
}

/// The member provides the named resource identifier (resource-traits.rst#resourceIdentifier-trait).
@trait(
    selector: "structure > :test(member[trait|required] > string)"
    breakingChanges: [{change: "remove"}]
)
@length(min: 1)
@notProperty
string resourceIdentifier

// ===================================================================== authentication traits

/// Marks a trait as an auth scheme (authentication-traits.rst#authDefinition-trait).
@trait(
    selector: "structure[trait|trait]"
    breakingChanges: [{change: "presence"}]
)
structure authDefinition {
    /// Traits an implementation of the scheme must understand.
    traits: TraitShapeIdList
}

/// HTTP Basic auth, RFC 2617 (authentication-traits.rst#httpBasicAuth-trait).
@trait(
    selector: "service"
    breakingChanges: [{change: "remove"}]
)
@authDefinition
@externalDocumentation("RFC 2617": "https://tools.ietf.org/html/rfc2617.html")
structure httpBasicAuth {}

/// HTTP Digest auth, RFC 2617 (authentication-traits.rst#httpDigestAuth-trait).
@trait(
    selector: "service"
    breakingChanges: [{change: "remove"}]
)
@authDefinition
@externalDocumentation("RFC 2617": "https://tools.ietf.org/html/rfc2617.html")
structure httpDigestAuth {}

/// HTTP Bearer auth, RFC 6750 (authentication-traits.rst#httpBearerAuth-trait).
@trait(
    selector: "service"
    breakingChanges: [{change: "remove"}]
)
@authDefinition
@externalDocumentation("RFC 6750": "https://tools.ietf.org/html/rfc6750.html")
structure httpBearerAuth {}

/// An API key sent in a header or query parameter (authentication-traits.rst#httpApiKeyAuth-trait).
@trait(
    selector: "service"
    breakingChanges: [{change: "remove"}]
)
@authDefinition
structure httpApiKeyAuth {
    /// Header or query parameter name.
    @required
    name: NonEmptyString

    /// Where the key goes: "header" or "query".
    @required
    in: HttpApiKeyLocations

    /// Authorization scheme, only with `in: "header"`.
    scheme: NonEmptyString
}

/// Locations of an API key (authentication-traits.rst#httpApiKeyAuth-trait).
@private
enum HttpApiKeyLocations {
    HEADER = "header"
    QUERY = "query"
}

/// The operation may be called without authentication (authentication-traits.rst#optionalAuth-trait).
@trait(
    selector: "operation"
    breakingChanges: [{change: "remove"}]
)
structure optionalAuth {}

/// Auth schemes of a service or operation, in priority order (authentication-traits.rst#auth-trait).
@trait(selector: ":is(service, operation)")
@uniqueItems
list auth {
    member: AuthTraitReference
}

/// A shape ID of an auth scheme trait (authentication-traits.rst#auth-trait).
@private
@idRef(selector: "[trait|authDefinition]")
string AuthTraitReference

// ===================================================================== protocol traits

/// Marks a trait as a protocol (protocol-traits.rst#protocolDefinition-trait).
@trait(
    selector: "structure[trait|trait]"
    breakingChanges: [{change: "presence"}]
)
structure protocolDefinition {
    /// Traits an implementation of the protocol must understand.
    traits: TraitShapeIdList

    /// Inline documents are not supported.
    @deprecated(message: "Use the `@traitValidators` trait instead")
    noInlineDocumentSupport: Boolean
}

/// Serialized JSON property name (protocol-traits.rst#jsonName-trait).
@trait(
    selector: ":is(structure, union) > member"
    breakingChanges: [{change: "any"}]
)
string jsonName

/// RFC 6838 media type of a blob or string (protocol-traits.rst#mediaType-trait).
@trait(
    selector: ":is(blob, string)"
    breakingChanges: [{change: "remove"}]
)
string mediaType

/// Serialization format of a timestamp (protocol-traits.rst#timestampFormat-trait).
@trait(
    selector: ":test(timestamp, member > timestamp)"
    breakingChanges: [{change: "any"}]
)
enum timestampFormat {
    /// RFC 3339 date-time, UTC.
    DATE_TIME = "date-time"

    /// Seconds since the Unix epoch.
    EPOCH_SECONDS = "epoch-seconds"

    /// RFC 9110 IMF-fixdate.
    HTTP_DATE = "http-date"
}

/// Serialize as an XML attribute (protocol-traits.rst#xmlAttribute-trait).
@trait(
    selector: "structure > :test(member > :test(boolean, number, string, timestamp))"
    conflicts: ["smithy.api#xmlNamespace"]
    breakingChanges: [{change: "any"}]
)
structure xmlAttribute {}

/// Unwrap list or map entries into the parent element (protocol-traits.rst#xmlFlattened-trait).
@trait(
    selector: ":is(structure, union) > :test(member > :test(list, map))"
    breakingChanges: [{change: "any"}]
)
structure xmlFlattened {}

/// Serialized XML element or attribute name (protocol-traits.rst#xmlName-trait).
@trait(
    selector: ":is(structure, union, member)"
    breakingChanges: [{change: "any"}]
)
@pattern("^[a-zA-Z_][a-zA-Z_0-9-]*(:[a-zA-Z_][a-zA-Z_0-9-]*)?$")
string xmlName

/// An xmlns declaration (protocol-traits.rst#xmlNamespace-trait).
@trait(
    selector: ":is(service, member, simpleType, list, map, structure, union)"
    conflicts: ["smithy.api#xmlAttribute"]
    breakingChanges: [{change: "any"}]
)
structure xmlNamespace {
    /// Namespace URI.
    @required
    uri: NonEmptyString

    /// Namespace prefix.
    @pattern("^[a-zA-Z_][a-zA-Z_0-9-]*$")
    prefix: NonEmptyString
}

// ===================================================================== HTTP binding traits

/// HTTP method, URI pattern and success code of an operation (http-bindings.rst#http-trait).
@trait(
    selector: "operation"
    breakingChanges: [
        {change: "remove"}
        {path: "/method", change: "update"}
        {path: "/uri", change: "update"}
        {path: "/code", change: "update"}
        {
            path: "/code"
            change: "presence"
            severity: "DANGER"
            message: "Only compatible when the code is the default, 200."
        }
    ]
)
structure http {
    /// HTTP method.
    @required
    method: NonEmptyString

    /// URI pattern with labels.
    @required
    uri: NonEmptyString

    /// Success status code.
    @range(min: 100, max: 999)
    code: Integer = 200
}

/// HTTP status code of an error (http-bindings.rst#httpError-trait).
@trait(
    selector: "structure[trait|error]"
    breakingChanges: [{change: "any"}]
)
integer httpError

/// Binds a member to an HTTP header (http-bindings.rst#httpHeader-trait).
@trait(
    selector: """
        structure > :test(member > :test(boolean, number, string, timestamp,
        list > member > :test(boolean, number, string, timestamp)))"""
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpQuery"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
        "smithy.api#httpQueryParams"
    ]
    breakingChanges: [{change: "any"}]
)
@length(min: 1)
string httpHeader

/// Binds a map member to headers sharing a prefix (http-bindings.rst#httpPrefixHeaders-trait).
@trait(
    selector: """
        structure > member
        :test(> map :not([trait|sparse]) > member[id|member=value] > string)"""
    structurallyExclusive: "member"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpQuery"
        "smithy.api#httpHeader"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
        "smithy.api#httpQueryParams"
    ]
    breakingChanges: [{change: "any"}]
)
string httpPrefixHeaders

/// Binds an input member to a URI label (http-bindings.rst#httpLabel-trait).
@trait(
    selector: "structure > member[trait|required] :test(> :test(string, number, boolean, timestamp))"
    conflicts: [
        "smithy.api#httpHeader"
        "smithy.api#httpQuery"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
        "smithy.api#httpQueryParams"
    ]
    breakingChanges: [{change: "presence"}]
)
structure httpLabel {}

/// Binds a member to the HTTP body (http-bindings.rst#httpPayload-trait).
@trait(
    selector: "structure > member"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpQuery"
        "smithy.api#httpHeader"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpResponseCode"
        "smithy.api#httpQueryParams"
    ]
    structurallyExclusive: "member"
    breakingChanges: [{change: "presence"}]
)
structure httpPayload {}

/// Binds an input member to a query string parameter (http-bindings.rst#httpQuery-trait).
@trait(
    selector: """
        structure > member
        :test(> :test(string, number, boolean, timestamp),
        > list > member > :test(string, number, boolean, timestamp))"""
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpHeader"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
        "smithy.api#httpQueryParams"
    ]
    breakingChanges: [{change: "any"}]
)
@length(min: 1)
string httpQuery

/// Binds a map member to the whole query string (http-bindings.rst#httpQueryParams-trait).
@trait(
    selector: """
        structure > member
        :test(> map > member[id|member=value] > :test(string, list > member > string))"""
    structurallyExclusive: "member"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpQuery"
        "smithy.api#httpHeader"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
        "smithy.api#httpPrefixHeaders"
    ]
    breakingChanges: [{change: "any"}]
)
structure httpQueryParams {}

/// Binds an output member to the HTTP status code (http-bindings.rst#httpResponseCode-trait).
@trait(
    selector: "structure :not([trait|input]) > member :test(> integer)"
    structurallyExclusive: "member"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpQuery"
        "smithy.api#httpHeader"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpPayload"
        "smithy.api#httpQueryParams"
    ]
    breakingChanges: [{change: "any"}]
)
structure httpResponseCode {}

/// Cross-origin resource sharing of a service (http-bindings.rst#cors-trait).
@trait(
    selector: "service"
    breakingChanges: [{change: "remove"}]
)
structure cors {
    /// Allowed origin; exclusive with `origins`.
    origin: NonEmptyString = "*"

    /// Named allowed origins; exclusive with `origin`.
    origins: NonEmptyStringMap

    /// Seconds a preflight response may be cached; -1 disables caching.
    maxAge: Integer = 600

    /// Extra Access-Control-Allow-Headers.
    additionalAllowedHeaders: NonEmptyStringList

    /// Extra Access-Control-Expose-Headers.
    additionalExposedHeaders: NonEmptyStringList
}

/// The request needs a checksum (Content-MD5 by default) (http-bindings.rst#httpChecksumRequired-trait).
@unstable
@trait(selector: "operation")
structure httpChecksumRequired {}

// ===================================================================== endpoint traits

/// A host prefix for the operation's endpoint (endpoint-traits.rst#endpoint-trait).
@trait(
    selector: "operation"
    breakingChanges: [{change: "any"}]
)
structure endpoint {
    /// Host prefix pattern with labels.
    @required
    hostPrefix: NonEmptyString
}

/// Binds an input member to a label of the host prefix (endpoint-traits.rst#hostLabel-trait).
@trait(
    selector: "structure > :test(member[trait|required] > string)"
    breakingChanges: [{change: "any"}]
)
structure hostLabel {}

// ===================================================================== streaming traits

/// A streaming blob, or a union used as an event stream (streaming.rst#streaming-trait).
@trait(
    selector: ":is(blob, union)"
    structurallyExclusive: "target"
    breakingChanges: [{change: "any"}]
)
structure streaming {}

/// The streaming blob has a known, finite size (streaming.rst#requiresLength-trait).
@trait(
    selector: "blob[trait|streaming]"
    breakingChanges: [{change: "presence"}]
)
structure requiresLength {}

/// Binds an event member to an event header (streaming.rst#eventheader-trait).
@trait(
    selector: """
        structure >
        :test(member > :test(boolean, byte, short, integer, long, blob, string, timestamp))"""
    conflicts: ["smithy.api#eventPayload"]
    breakingChanges: [{change: "any"}]
)
structure eventHeader {}

/// Binds an event member to the event payload (streaming.rst#eventpayload-trait).
@trait(
    selector: "structure > :test(member > :test(blob, string, structure, union))"
    conflicts: ["smithy.api#eventHeader"]
    structurallyExclusive: "member"
    breakingChanges: [{change: "any"}]
)
structure eventPayload {}

// ===================================================================== model validation

/// Suppresses validation events by ID (model-validation.rst#suppress-trait).
@trait
list suppress {
    @length(min: 1)
    member: String
}

/// Validators run on shapes the trait is applied to (model-validation.rst#traitValidators-trait).
@trait(selector: "[trait|trait]")
map traitValidators {
    /// Event ID.
    @length(min: 1)
    key: String

    /// The validator.
    value: TraitValidator
}

/// One trait validator (model-validation.rst#traitValidators-validator).
@private
structure TraitValidator {
    /// Matched shapes are incompatible with the trait.
    @required
    selector: String

    /// Event message.
    message: String

    /// Event severity.
    severity: Severity = "ERROR"
}

/// The shape gives the type of a metadata key (model-validation.rst#metadata-trait).
@trait(selector: "dataType :not([trait|input]) :not([trait|output])")
structure metadata {
    /// The metadata key.
    @required
    @length(min: 1)
    key: String
}

// ===================================================================== shape closures

/// The `shapeClosures` metadata key (shape-closures.rst#shapeClosures-metadata).
@private
@metadata(key: "shapeClosures")
list ShapeClosures {
    member: ShapeClosure
}

/// A named closure of shapes (shape-closures.rst#shapeClosures-metadata).
@private
structure ShapeClosure {
    /// Unique closure ID, in shape ID form.
    @required
    id: ClosureId

    /// Namespaces whose shapes are included.
    includeNamespaces: Namespaces = []

    /// Selector of included shapes.
    @length(min: 1)
    includeBySelector: String

    /// Shape ID to new shape name, to resolve name conflicts.
    rename: Renames = {}

    /// CommonMark documentation.
    documentation: CommonMark
}

/// A closure ID; @idRef only checks its syntax (shape-closures.rst#shapeClosures-metadata).
@private
@idRef(failWhenMissing: false)
string ClosureId

/// A set of namespaces (shape-closures.rst#shapeClosures-metadata).
@private
@uniqueItems
list Namespaces {
    member: String
}

/// Shape renames within a closure (shape-closures.rst#shapeClosures-metadata).
@private
map Renames {
    /// The renamed shape.
    @idRef(
        failWhenMissing: true
        selector: ":not(:is(member, service, resource, operation))"
        errorMessage: """
            Renames must target shapes that are in the model and must not target \
            services, resources, operations, or members."""
    )
    key: String

    /// The new name.
    value: Identifier
}

/// CommonMark text (shape-closures.rst).
@private
@externalDocumentation("CommonMark Specification": "https://commonmark.org/")
@mediaType("text/markdown; charset=UTF-8; variant=CommonMark")
string CommonMark

/// A shape name, per the `Identifier` production (model.rst#shape-id-abnf).
@private
@pattern("^(_+[a-zA-Z0-9]|[a-zA-Z])\\w*$")
string Identifier
