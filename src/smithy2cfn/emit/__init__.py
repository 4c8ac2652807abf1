"""Emission of CloudFormation resource schemas: shape → JSON Schema, the mapper chain, the
schema document and the meta-schema check."""

from smithy2cfn.emit.converter import convert, file_name
from smithy2cfn.emit.mappers import CfnMapper, register_mapper
from smithy2cfn.emit.schema import Context, ResourceSchema

__all__ = ["CfnMapper", "Context", "ResourceSchema", "convert", "file_name", "register_mapper"]
