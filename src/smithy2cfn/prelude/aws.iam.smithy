// smithy2cfn's definitions of the `aws.iam` traits (aws-iam.rst).
//
// Shape IDs, members, selectors and trait properties follow the specification;
// docs are one line each with a pointer to the spec section. Deprecation
// messages are kept as the spec states them: they surface in DeprecatedTrait
// warnings.
$version: "2"

namespace aws.iam

// ===================================================================== actions

/// IAM properties of an operation seen as an action (aws-iam.rst#aws.iam#iamAction-trait).
@trait(selector: "operation")
structure iamAction {
    /// IAM action name; defaults to the operation name.
    name: String

    /// What granting the action allows ("Grants permission to ...").
    documentation: String

    /// Relative URL of more IAM documentation on the action.
    relativeDocumentation: String

    /// Other actions the caller must also be allowed.
    requiredActions: RequiredActionsList

    /// Resources the action is authorized against.
    resources: ActionResources

    /// Resources the action creates.
    createsResources: ResourceNameList
}

/// Resources of an action, always or optionally authorized (aws-iam.rst#aws.iam#iamAction-trait).
@private
structure ActionResources {
    /// Always authorized against.
    required: ActionResourceMap

    /// Authorized against depending on optional behavior.
    optional: ActionResourceMap
}

/// Resource name to authorization details (aws-iam.rst#aws.iam#iamAction-trait).
@private
map ActionResourceMap {
    key: ResourceName
    value: ActionResource
}

/// Authorization details of one resource of an action (aws-iam.rst#aws.iam#iamAction-trait).
@private
structure ActionResource {
    /// Condition keys used when authorizing against the resource.
    conditionKeys: ConditionKeysList
}

/// A set of condition key names (aws-iam.rst#aws.iam#iamAction-trait).
@private
@uniqueItems
list ConditionKeysList {
    member: String
}

/// A set of IAM action identifiers (aws-iam.rst#aws.iam#iamAction-trait).
@private
@uniqueItems
list RequiredActionsList {
    member: IamIdentifier
}

/// A set of IAM resource names (aws-iam.rst#aws.iam#iamAction-trait).
@private
@uniqueItems
list ResourceNameList {
    member: ResourceName
}

/// An IAM resource name (aws-iam.rst#aws.iam#iamResource-trait).
@private
string ResourceName

/// An IAM action identifier, `service:Action` (aws-iam.rst#aws.iam#requiredActions-trait).
@private
@pattern("^([A-Za-z0-9][A-Za-z0-9-\\.]{0,62}:[^:]+)$")
string IamIdentifier

/// Custom IAM action name; deprecated for `iamAction.name` (aws-iam.rst#aws.iam#actionName-trait).
@trait(selector: "operation")
@deprecated(since: "2023-11-10", message: "Use the `name` member of the `aws.iam#iamAction` trait instead.")
string actionName

/// What granting the action allows; deprecated for `iamAction.documentation` (aws-iam.rst#aws.iam#actionPermissionDescription-trait).
@trait(selector: "operation")
@deprecated(since: "2023-11-10", message: "Use the `documentation` member of the `aws.iam#iamAction` trait instead.")
string actionPermissionDescription

/// Other actions the caller must be allowed; deprecated for `iamAction.requiredActions` (aws-iam.rst#aws.iam#requiredActions-trait).
@trait(selector: "operation")
@deprecated(since: "2023-11-10", message: "Use the `requiredActions` member of the `aws.iam#iamAction` trait instead.")
list requiredActions {
    member: IamIdentifier
}

/// Principal types allowed to use a service or operation (aws-iam.rst#aws.iam#supportedPrincipalTypes-trait).
@trait(selector: ":test(service, operation)")
list supportedPrincipalTypes {
    member: PrincipalType
}

/// IAM principal types (aws-iam.rst#aws.iam#supportedPrincipalTypes-trait).
@private
enum PrincipalType {
    /// An AWS account.
    ROOT = "Root"

    /// An IAM user.
    IAM_USER = "IAMUser"

    /// An IAM role.
    IAM_ROLE = "IAMRole"

    /// A federated user session.
    FEDERATED_USER = "FederatedUser"
}

// ===================================================================== resources

/// IAM properties of a resource (aws-iam.rst#aws.iam#iamResource-trait).
@trait(selector: "resource")
structure iamResource {
    /// IAM resource name.
    name: String

    /// Relative URL of more IAM documentation on the resource.
    relativeDocumentation: String

    /// Do not inherit the condition keys of parent resources.
    disableConditionKeyInheritance: Boolean
}

// ===================================================================== condition keys

/// Condition keys defined by the service beyond the inferred and global ones (aws-iam.rst#aws.iam#defineConditionKeys-trait).
@trait(selector: "service")
map defineConditionKeys {
    key: ConditionKeyName
    value: ConditionKeyDefinition
}

/// One condition key definition (aws-iam.rst#aws.iam#defineConditionKeys-trait).
@private
structure ConditionKeyDefinition {
    /// IAM type of the key's value.
    @required
    type: ConditionKeyType

    /// Documentation of the key.
    documentation: String

    /// URL of more documentation.
    externalDocumentation: String

    /// Relative URL of more IAM documentation.
    relativeDocumentation: String

    /// Whether a service-resolved key is required.
    required: Boolean
}

/// A condition key name, optionally `service:`-prefixed (aws-iam.rst#aws.iam#defineConditionKeys-trait).
@private
@pattern("^(([A-Za-z0-9][A-Za-z0-9-\\.]{0,62}:)?[^:\\s]+)$")
string ConditionKeyName

/// IAM policy types of condition key values (aws-iam.rst#aws.iam#defineConditionKeys-trait).
@private
enum ConditionKeyType {
    ARN
    ARRAY_OF_ARN = "ArrayOfARN"
    BINARY = "Binary"
    ARRAY_OF_BINARY = "ArrayOfBinary"
    STRING = "String"
    ARRAY_OF_STRING = "ArrayOfString"
    NUMERIC = "Numeric"
    ARRAY_OF_NUMERIC = "ArrayOfNumeric"
    DATE = "Date"
    ARRAY_OF_DATE = "ArrayOfDate"
    BOOL = "Bool"
    ARRAY_OF_BOOL = "ArrayOfBool"
    IP_ADDRESS = "IPAddress"
    ARRAY_OF_IP_ADDRESS = "ArrayOfIPAddress"
}

/// Condition keys of a resource or operation (aws-iam.rst#aws.iam#conditionKeys-trait).
@trait(selector: ":test(resource, operation)")
list conditionKeys {
    member: ConditionKeyName
}

/// Condition keys the service resolves itself (aws-iam.rst#aws.iam#serviceResolvedConditionKeys-trait).
@trait(selector: "service")
list serviceResolvedConditionKeys {
    member: ConditionKeyName
}

/// The member's value is the value of the named condition key (aws-iam.rst#aws.iam#conditionKeyValue-trait).
@trait(selector: "member")
@pattern("^(([A-Za-z0-9][A-Za-z0-9-\\.]{0,62}:)?[^:\\s]+)$")
string conditionKeyValue

/// Turns off condition key inference (aws-iam.rst#aws.iam#disableConditionKeyInference-trait).
@trait(selector: ":test(service, resource)")
structure disableConditionKeyInference {}
