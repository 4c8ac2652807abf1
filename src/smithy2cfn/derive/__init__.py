"""Derivation of CloudFormation resources from a Smithy model: the resource index (properties,
their mutability and why), tagging knowledge, and the frozen conversion plan."""

from smithy2cfn.derive.plan import (
    ConversionPlan,
    HandlerPlan,
    PropertyPlan,
    ResourcePlan,
    TaggingPlan,
    derive_plan,
)
from smithy2cfn.derive.resource_index import (
    CfnResource,
    CfnResourceIndex,
    CfnResourceProperty,
    Mutability,
    MutabilitySource,
    SourceKind,
)
from smithy2cfn.derive.tagging import TagIndex

__all__ = [
    "CfnResource", "CfnResourceIndex", "CfnResourceProperty", "ConversionPlan", "HandlerPlan", "Mutability",
    "MutabilitySource", "PropertyPlan", "ResourcePlan", "SourceKind", "TagIndex", "TaggingPlan", "derive_plan",
]
