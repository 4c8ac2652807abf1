// smithy2cfn's definitions of the `aws.cloudformation` traits (aws-cloudformation.rst).
//
// Shape IDs, members, selectors and trait properties follow the specification;
// docs are one line each with a pointer to the spec section. Every trait here
// is @unstable, which the reference reports as an UnstableTrait warning.
$version: "2"

namespace aws.cloudformation

/// The resource is a CloudFormation resource (aws-cloudformation.rst#aws.cloudformation#cfnResource-trait).
@unstable
@trait(
    selector: "resource"
    breakingChanges: [{change: "presence"}]
)
structure cfnResource {
    /// Custom resource name.
    name: String

    /// Structures whose members also become resource properties.
    additionalSchemas: StructureIdList

    /// A string property used as the primary identifier instead of the resource identifiers.
    @deprecated(message: "Prefer the resource's identifiers when generating resource schemas.")
    primaryIdentifier: String
}

/// Shape IDs of structures (aws-cloudformation.rst#aws.cloudformation#cfnResource-trait).
@private
list StructureIdList {
    @idRef(failWhenMissing: true, selector: "structure")
    member: String
}

/// The member is left out of the CloudFormation resource (aws-cloudformation.rst#aws.cloudformation#cfnExcludeProperty-trait).
@unstable
@trait(
    selector: "structure > member"
    conflicts: [
        "aws.cloudformation#cfnAdditionalIdentifier"
        "aws.cloudformation#cfnMutability"
        "aws.cloudformation#cfnDefaultValue"
    ]
    breakingChanges: [{change: "add"}]
)
structure cfnExcludeProperty {}

/// Explicit CloudFormation mutability of the property (aws-cloudformation.rst#aws.cloudformation#cfnMutability-trait).
@unstable
@trait(
    selector: "structure > member"
    conflicts: ["aws.cloudformation#cfnExcludeProperty"]
)
enum cfnMutability {
    /// Settable by the user and returned by read and list.
    FULL = "full"

    /// Settable on create only; returned by read and list.
    CREATE_AND_READ = "create-and-read"

    /// Settable on create only; never returned (not with cfnAdditionalIdentifier).
    CREATE = "create"

    /// Returned by read and list; never settable.
    READ = "read"

    /// Settable; never returned (not with cfnAdditionalIdentifier).
    WRITE = "write"
}

/// Custom CloudFormation property name (aws-cloudformation.rst#aws.cloudformation#cfnName-trait).
@unstable
@trait(
    selector: "structure > member"
    breakingChanges: [{change: "any"}]
)
string cfnName

/// The property is an additional identifier of the resource (aws-cloudformation.rst#aws.cloudformation#cfnAdditionalIdentifier-trait).
@unstable
@trait(
    selector: "structure > :test(member > string)"
    conflicts: ["aws.cloudformation#cfnExcludeProperty"]
    breakingChanges: [{change: "remove"}]
)
structure cfnAdditionalIdentifier {}

/// The property has a default value (aws-cloudformation.rst#aws.cloudformation#cfnDefaultValue-trait).
@unstable
@trait(
    selector: "resource > operation -[input, output]-> structure > member"
    conflicts: ["aws.cloudformation#cfnExcludeProperty"]
)
structure cfnDefaultValue {}
