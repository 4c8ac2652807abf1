// smithy2cfn's definitions of the `smithy.openapi` traits (converting-to-openapi.rst: how the OpenAPI
// converter renders traits).
//
// Shape IDs, members, selectors and trait properties follow the specification and the
// reference's smithy-openapi-traits package; docs are one line each with a pointer to the spec
// section.
$version: "2"

namespace smithy.openapi

/// The trait it marks becomes an OpenAPI specification extension (converting-to-openapi.rst, "specificationExtension trait").
@trait(
    selector: "[trait|trait]"
    breakingChanges: [
        {
            change: "presence"
        }
        {
            path: "/as"
            change: "any"
        }
    ]
)
structure specificationExtension {
    /// Extension name, `x-...`; by default the trait's shape ID with hyphens, prefixed with `x-`.
    as: SpecificationExtensionKey
}

/// An OpenAPI specification extension name (converting-to-openapi.rst, "specificationExtension trait").
@private
@pattern("^x-.+$")
string SpecificationExtensionKey
