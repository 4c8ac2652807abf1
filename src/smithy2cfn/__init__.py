"""smithy2cfn: Smithy IDL models in, CloudFormation resource provider schemas out.

The library API (see :mod:`smithy2cfn.api`): :func:`load`, :func:`validate`,
:func:`convert`, :func:`build`, :func:`build_from_config`, :func:`write_json_ast`;
diagnostics in :mod:`smithy2cfn.diagnostics`; extensions (:class:`Extension`) in
:mod:`smithy2cfn.emit.extensions`.

The validate stage is the subpackage :mod:`smithy2cfn.validation` (Smithy 2.0 "Model
validation"), so that the function :func:`validate` and the stage never share a name.
"""

from typing import Any

from smithy2cfn.api import (
    AstResult,
    BuildResult,
    Result,
    ValidationResult,
    build,
    build_from_config,
    convert,
    load,
    render_schema,
    validate,
    validate_files,
    write_json_ast,
)
from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Severity, Span
from smithy2cfn.model import Model
from smithy2cfn.version import __version__

__all__ = [
    "AstResult", "BuildResult", "Diagnostic", "Diagnostics", "Extension", "Model", "Result", "Severity", "Span",
    "ValidationResult", "build", "build_from_config", "convert", "load", "render_schema", "validate",
    "validate_files", "write_json_ast", "__version__",
]


def __getattr__(name: str) -> Any:
    """Names imported on first use (they would import the emit stage): ``Extension``."""
    if name == "Extension":
        from smithy2cfn.emit.extensions import Extension

        return Extension
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
