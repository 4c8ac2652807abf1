"""Emission of CloudFormation resource schemas from a conversion plan: shape → JSON Schema,
the mapper chain, the schema document and the meta-schema check."""

from smithy2cfn.derive.plan import file_name
from smithy2cfn.emit.converter import emit_schemas
from smithy2cfn.emit.extensions import Extension
from smithy2cfn.emit.mappers import CfnMapper
from smithy2cfn.emit.schema import Context, ResourceSchema

__all__ = ["CfnMapper", "Context", "Extension", "ResourceSchema", "emit_schemas", "file_name"]
