// smithy2cfn's definitions of the `smithy.contracts` traits (contract-traits.rst: conditions
// that valid values must satisfy).
//
// Shape IDs, members, selectors and trait properties follow the specification and the
// reference's smithy-contract-traits package; docs are one line each with a pointer to the spec
// section.
$version: "2"

namespace smithy.contracts

/// Named JMESPath conditions that each value of the shape must satisfy (contract-traits.rst#conditions-trait).
@trait(selector: ":not(:test(service, operation, resource))")
map conditions {
    /// Condition name.
    key: ConditionName

    /// Condition definition.
    value: Condition
}

/// A condition name: an upper-case letter, then letters and digits (contract-traits.rst#conditions-trait).
@pattern("^[A-Z]+[A-Za-z0-9]*$")
string ConditionName

/// One condition (contract-traits.rst#conditions-trait).
structure Condition {
    /// JMESPath expression that must evaluate to `true`.
    @required
    expression: String

    /// What the condition means, in CommonMark.
    @required
    documentation: String
}
