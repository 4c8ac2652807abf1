// smithy2cfn's definitions of the `aws.auth` traits (AWS authentication traits).
//
// Shape IDs, members, selectors and trait properties follow the specification;
// docs are one line each.
$version: "2"

namespace aws.auth

/// AWS Signature Version 4 request signing.
@trait(
    selector: "service"
    breakingChanges: [
        {
            change: "remove"
            message: "Removing an auth scheme can break the authentication of existing clients."
        }
    ]
)
@authDefinition(traits: ["aws.auth#unsignedPayload"])
@externalDocumentation(Reference: "https://docs.aws.amazon.com/general/latest/gr/signature-version-4.html")
structure sigv4 {
    /// Signing name used in the credential scope; should match the ARN namespace.
    @required
    @length(min: 1)
    @externalDocumentation(Reference: "https://docs.aws.amazon.com/general/latest/gr/sigv4-create-string-to-sign.html")
    name: String
}

/// AWS Signature Version 4a: asymmetric, multi-region SigV4.
@trait(
    selector: "service[trait|aws.auth#sigv4]"
    breakingChanges: [
        {
            change: "remove"
            message: "Removing an auth scheme can break the authentication of existing clients."
        }
    ]
)
@authDefinition(traits: ["aws.auth#unsignedPayload"])
@externalDocumentation(
    Reference: "https://docs.aws.amazon.com/general/latest/gr/signature-version-4.html"
    Examples: "https://github.com/aws-samples/sigv4a-signing-examples"
)
structure sigv4a {
    /// Signing name used in the credential scope; should match the sigv4 name.
    @required
    @length(min: 1)
    @externalDocumentation(Reference: "https://docs.aws.amazon.com/general/latest/gr/sigv4-create-string-to-sign.html")
    name: String
}

/// The request payload is not part of the signature.
@trait(selector: "operation")
structure unsignedPayload {}

/// Amazon Cognito User Pools authentication (internal).
@trait(selector: "service")
@authDefinition
@internal
@tags(["internal"])
structure cognitoUserPools {
    /// User pool ARNs (`arn:aws:cognito-idp:{region}:{account}:userpool/{id}`).
    @required
    providerArns: StringList
}

/// OAuth scopes an operation needs under a Cognito User Pools authorizer (internal).
@trait(selector: "service[trait|aws.auth#cognitoUserPools] ~> operation")
@internal
@tags(["internal"])
@length(min: 1)
list cognitoUserPoolsScopes {
    member: String
}

/// A list of strings.
@private
list StringList {
    member: String
}
