"""smithy2cfn: Smithy IDL models in, CloudFormation resource provider schemas out.

The library API (see :mod:`smithy2cfn.api`): :func:`load`, :func:`validate`,
:func:`convert`, :func:`build`, :func:`build_from_config`, :func:`write_json_ast`;
diagnostics in :mod:`smithy2cfn.diagnostics`; extensions (:class:`Extension`) in
:mod:`smithy2cfn.emit.extensions`.

``smithy2cfn.validate`` is both the function :func:`smithy2cfn.api.validate` and the name
of the validate stage's subpackage. Importing a subpackage binds it as an attribute of its
parent package, which would replace the function by the module (``smithy2cfn.validate(m, d)``
then fails with "'module' object is not callable"). So this package keeps the name
callable: when the subpackage is imported, it becomes a module that can also be called as
the function (:class:`_CallableStage`). The subpackage is still imported lazily, by the
first call.
"""

import sys
import types
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
    "AstResult", "BuildResult", "Diagnostic", "Diagnostics", "Extension", "Result", "Severity", "Span",
    "ValidationResult", "build", "build_from_config", "convert", "load", "render_schema", "validate",
    "validate_files", "write_json_ast", "__version__",
]


class _CallableStage(types.ModuleType):
    """The ``smithy2cfn.validate`` subpackage, callable as :func:`smithy2cfn.api.validate`."""

    def __call__(self, model: Model, diags: Diagnostics) -> None:
        from smithy2cfn.api import validate as run

        run(model, diags)


class _Package(types.ModuleType):
    """This package's module type: binding the ``validate`` subpackage keeps the name
    callable (see the module docstring)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "validate" and isinstance(value, types.ModuleType) and not callable(value):
            value.__class__ = _CallableStage
        super().__setattr__(name, value)


def __getattr__(name: str) -> Any:
    """Names imported on first use (they would import the emit stage): ``Extension``."""
    if name == "Extension":
        from smithy2cfn.emit.extensions import Extension

        return Extension
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


sys.modules[__name__].__class__ = _Package
_stage = sys.modules.get(__name__ + ".validate")
if _stage is not None:  # imported before this package finished (a reload): make it callable now
    setattr(sys.modules[__name__], "validate", _stage)  # noqa: B010 - goes through _Package.__setattr__
del _stage
