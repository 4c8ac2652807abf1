"""Emission of CloudFormation resource schemas from a conversion plan: shape → JSON Schema,
the mapper chain, the schema document and the meta-schema check.

The names below are imported from their modules on first use (PEP 562), so that importing
a module of this package (:mod:`smithy2cfn.emit.discovery`, which every build imports to
find the installed extensions) does not import the whole stage: a model without
``@cfnResource`` resources never emits a schema (issue 15, "Cold start").
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    from smithy2cfn.derive.plan import file_name
    from smithy2cfn.emit.converter import emit_schemas
    from smithy2cfn.emit.extensions import Extension
    from smithy2cfn.emit.mappers import CfnMapper
    from smithy2cfn.emit.schema import Context, ResourceSchema

__all__ = ["CfnMapper", "Context", "Extension", "ResourceSchema", "emit_schemas", "file_name"]

#: Each public name → the module that defines it.
_HOMES = {"CfnMapper": "smithy2cfn.emit.mappers", "Context": "smithy2cfn.emit.schema",
          "Extension": "smithy2cfn.emit.extensions", "ResourceSchema": "smithy2cfn.emit.schema",
          "emit_schemas": "smithy2cfn.emit.converter", "file_name": "smithy2cfn.derive.plan"}


def __getattr__(name: str) -> Any:
    """A public name of the stage, imported from its module (see :data:`_HOMES`)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
