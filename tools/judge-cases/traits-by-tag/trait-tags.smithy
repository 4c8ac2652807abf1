$version: "2"
namespace acme.extra

apply aws.cloudformation#cfnMutability @tags(["drop"])
apply aws.cloudformation#cfnResource @tags(["keep"])
apply aws.api#taggable @tags(["keep"])
apply aws.api#tagEnabled @tags(["keep"])
apply aws.api#arn @tags(["keep"])
apply aws.api#service @tags(["keep"])
apply smithy.rules#endpointBdd @tags(["keep"])
apply smithy.contracts#conditions @tags(["keep"])
