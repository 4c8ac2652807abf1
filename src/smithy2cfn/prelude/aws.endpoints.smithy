// smithy2cfn's definitions of the `aws.endpoints` traits (aws-endpoints-region.rst: how a
// client resolves the endpoints of an AWS service).
//
// Shape IDs, members, selectors and trait properties follow the specification and the
// reference's smithy-aws-endpoints package; docs are one line each with a pointer to the spec
// section.
$version: "2"

namespace aws.endpoints

// ===================================================================== meta-trait

/// Marks a trait as an endpoints modifier (aws-endpoints-region.rst#aws.endpoints#endpointsModifier-trait).
@trait(
    selector: "structure[trait|trait]"
    breakingChanges: [
        {
            change: "presence"
        }
    ]
)
structure endpointsModifier {}

// ===================================================================== regional endpoints

/// Endpoints follow the standard AWS regional patterns (aws-endpoints-region.rst#aws.endpoints#standardRegionalEndpoints-trait).
@trait(
    selector: "service"
    conflicts: [standardPartitionalEndpoints]
    breakingChanges: [
        {
            change: "remove"
        }
    ]
)
@endpointsModifier
structure standardRegionalEndpoints {
    /// Partition name to the endpoint patterns that replace the standard ones in that partition.
    partitionSpecialCases: PartitionSpecialCaseMap

    /// Region name to the endpoint patterns that replace the standard ones in that region.
    regionSpecialCases: RegionSpecialCaseMap
}

/// Partition name to special cases (aws-endpoints-region.rst#aws.endpoints#standardRegionalEndpoints-trait).
@private
map PartitionSpecialCaseMap {
    key: String
    value: PartitionSpecialCaseList
}

/// A list of partition special cases.
@private
list PartitionSpecialCaseList {
    member: PartitionSpecialCase
}

/// The endpoint pattern of every regional endpoint in a partition (aws-endpoints-region.rst, "PartitionSpecialCase").
@private
structure PartitionSpecialCase {
    /// Endpoint pattern.
    @required
    endpoint: String

    /// Applies to the dual-stack variant.
    dualStack: Boolean

    /// Applies to the FIPS variant.
    fips: Boolean
}

/// Region name to special cases (aws-endpoints-region.rst#aws.endpoints#standardRegionalEndpoints-trait).
@private
map RegionSpecialCaseMap {
    key: String
    value: RegionSpecialCaseList
}

/// A list of region special cases.
@private
list RegionSpecialCaseList {
    member: RegionSpecialCase
}

/// The endpoint pattern of one region (aws-endpoints-region.rst, "RegionSpecialCase").
@private
structure RegionSpecialCase {
    /// Endpoint pattern.
    @required
    endpoint: String

    /// Applies to the dual-stack variant.
    dualStack: Boolean

    /// Applies to the FIPS variant.
    fips: Boolean

    /// Signing region used in this region instead of the region itself.
    signingRegion: String
}

// ===================================================================== partitional endpoints

/// The service is not regionalized: one endpoint per partition (aws-endpoints-region.rst#aws.endpoints#standardPartitionalEndpoints-trait).
@trait(
    selector: "service"
    conflicts: [standardRegionalEndpoints]
    breakingChanges: [
        {
            change: "any"
        }
    ]
)
@endpointsModifier
structure standardPartitionalEndpoints {
    /// Pattern of the partition endpoint.
    @required
    endpointPatternType: PartitionEndpointPattern

    /// Partition name to the endpoints that depart from the pattern or the default global region.
    partitionEndpointSpecialCases: PartitionEndpointSpecialCaseMap
}

/// Patterns of a partition endpoint (aws-endpoints-region.rst#aws.endpoints#standardPartitionalEndpoints-trait).
@private
enum PartitionEndpointPattern {
    /// `{service}.{dnsSuffix}`; superseded by AWS_RECOMMENDED.
    @deprecated(since: "2025-04-01", message: "Not recommended to use. Use AWS_RECOMMENDED instead")
    SERVICE_DNSSUFFIX = "service_dnsSuffix"

    /// `{service}.{region}.{dnsSuffix}`; superseded by AWS_RECOMMENDED.
    @deprecated(since: "2025-04-01", message: "Not recommended to use. Use AWS_RECOMMENDED instead")
    SERVICE_REGION_DNSSUFFIX = "service_region_dnsSuffix"

    /// The pattern AWS recommends.
    AWS_RECOMMENDED = "aws_recommended"
}

/// Partition name to special cases (aws-endpoints-region.rst#aws.endpoints#standardPartitionalEndpoints-trait).
@private
map PartitionEndpointSpecialCaseMap {
    key: String
    value: PartitionEndpointSpecialCaseList
}

/// A list of partition endpoint special cases.
@private
list PartitionEndpointSpecialCaseList {
    member: PartitionEndpointSpecialCase
}

/// The endpoint of one partition (aws-endpoints-region.rst, "PartitionEndpointSpecialCase").
@private
structure PartitionEndpointSpecialCase {
    /// Endpoint pattern.
    endpoint: String

    /// Region that replaces the partition's default global region.
    region: String

    /// Applies to the dual-stack variant.
    dualStack: Boolean

    /// Applies to the FIPS variant.
    fips: Boolean
}

// ===================================================================== other modifiers

/// The service has dual-stack endpoints only (aws-endpoints-region.rst#aws.endpoints#dualStackOnlyEndpoints-trait).
@trait(
    selector: "service"
    breakingChanges: [
        {
            change: "any"
        }
    ]
)
@endpointsModifier
structure dualStackOnlyEndpoints {}

/// The service's endpoint rules are written by hand (aws-endpoints-region.rst#aws.endpoints#rulesBasedEndpoints-trait).
@trait(
    selector: "service"
    breakingChanges: [
        {
            change: "any"
        }
    ]
)
@endpointsModifier
@unstable
structure rulesBasedEndpoints {}
