// smithy2cfn's definitions of the `aws.test` shapes: the vendor parameters of AWS smoke tests.
//
// Smoke test cases (smoke-tests.rst, "smokeTests trait") name one of these shapes in
// `vendorParamsShape`; their `vendorParams` must then conform to it. Shape IDs, members,
// defaults and traits follow the reference's AWS smoke-test model (smithy-aws-smoke-test-model);
// docs are one line each.
$version: "2"

namespace aws.test

/// Vendor parameters every AWS service's smoke tests share (smithy-aws-smoke-test-model).
@mixin
@suppress(["UnreferencedShape"])
structure BaseAwsVendorParams {
    /// Region to sign the request for and to resolve the default endpoint with.
    region: String = "us-west-2"

    /// Regions a SigV4a request is signed for.
    sigv4aRegionSet: NonEmptyStringList

    /// Static endpoint the request is sent to.
    uri: String

    /// Resolve a FIPS endpoint.
    useFips: Boolean = false

    /// Resolve a dual-stack endpoint.
    useDualstack: Boolean = false

    /// Route by account ID where the service supports it.
    useAccountIdRouting: Boolean = true
}

/// A list of at least one string (smithy-aws-smoke-test-model).
@private
@length(min: 1)
@suppress(["UnreferencedShape"])
list NonEmptyStringList {
    member: String
}

/// Default vendor parameters of AWS service smoke tests (smithy-aws-smoke-test-model).
@suppress(["UnreferencedShape"])
structure AwsVendorParams with [BaseAwsVendorParams] {}

/// Vendor parameters of Amazon S3 smoke tests (smithy-aws-smoke-test-model).
@suppress(["UnreferencedShape"])
structure S3VendorParams with [BaseAwsVendorParams] {
    /// Resolve an S3 Transfer Acceleration endpoint.
    useAccelerate: Boolean = false

    /// Use the global endpoint for us-east-1.
    useGlobalEndpoint: Boolean = false

    /// Use path-style bucket addressing.
    forcePathStyle: Boolean = false

    /// Let the region of a bucket ARN override the configured region.
    useArnRegion: Boolean = true

    /// Use S3 Multi-Region Access Points.
    useMultiRegionAccessPoints: Boolean = true
}
