// smithy2cfn's definitions of the `aws.customizations` traits.
$version: "2"

namespace aws.customizations

/// S3 only: the restXml response body is not wrapped in an operation-level element (aws-core.rst, S3 customizations).
@trait(selector: "operation")
structure s3UnwrappedXmlOutput {}
