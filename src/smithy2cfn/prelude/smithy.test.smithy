// smithy2cfn's definition of the `smithy.test#smokeTests` trait (Smithy smoke tests).
//
// Not part of /work/shared/reference/prelude; written so that models that
// carry smoke tests load. The protocol-test traits of the same namespace
// (httpRequestTests, httpResponseTests, ...) are not defined here.
$version: "2"

namespace smithy.test

/// Test cases to run against a live service ("smokeTests trait").
@trait(selector: "operation")
list smokeTests {
    member: SmokeTestCase
}

/// One smoke test case ("smokeTests trait").
@private
structure SmokeTestCase {
    /// Test case ID, unique within the service.
    @required
    @pattern("^[A-Za-z_][A-Za-z0-9_]+$")
    id: String

    /// Operation input.
    params: Document

    /// Vendor-specific parameters.
    vendorParams: Document

    /// Shape that `vendorParams` must conform to.
    @idRef(failWhenMissing: true)
    vendorParamsShape: String

    /// Expected outcome.
    @required
    expect: Expectation

    /// Tags for grouping test cases.
    tags: TagList
}

/// Expected outcome: success or failure.
@private
union Expectation {
    /// The call succeeds.
    success: Unit

    /// The call fails.
    failure: FailureExpectation
}

/// An expected failure, optionally with a specific error.
@private
structure FailureExpectation {
    /// The error shape; any error when unset.
    @idRef(failWhenMissing: true, selector: "[trait|error]")
    errorId: String
}

/// A list of tags.
@private
list TagList {
    member: Tag
}

/// A smoke test tag.
@private
@pattern("^[A-Za-z][A-Za-z0-9_\\-]+$")
string Tag
