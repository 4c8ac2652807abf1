"""Derivation of CloudFormation resources from a Smithy model: the service graph, operation
bindings, and the resource index (properties and their mutability)."""

from smithy2cfn.derive.bindings import BindingIndex
from smithy2cfn.derive.graph import build_graph, contained_resources, parent_resources
from smithy2cfn.derive.resource_index import (
    CfnResource,
    CfnResourceIndex,
    CfnResourceProperty,
    Mutability,
    derive_cfn_resource,
)
from smithy2cfn.derive.tagging import TagIndex

__all__ = [
    "BindingIndex", "CfnResource", "CfnResourceIndex", "CfnResourceProperty", "Mutability", "TagIndex",
    "build_graph", "contained_resources", "derive_cfn_resource", "parent_resources",
]
