"""smithy2cfn: Smithy IDL models in, CloudFormation resource provider schemas out.

The library API (see :mod:`smithy2cfn.api`): :func:`load`, :func:`validate`,
:func:`convert`, :func:`build`, :func:`build_from_config`, :func:`validate_files`,
:func:`write_json_ast`, :func:`diff`, :func:`explain`, each returning a :class:`Result` (``diagnostics``, ``exit_code``
and its product); diagnostics in :mod:`smithy2cfn.diagnostics`; the typed settings in
:mod:`smithy2cfn.settings`; extensions (:class:`Extension`) in
:mod:`smithy2cfn.emit.extensions`.

The validate stage is the subpackage :mod:`smithy2cfn.validation` (Smithy 2.0 "Model
validation"), so that the function :func:`validate` and the stage never share a name.
"""

from __future__ import annotations

from smithy2cfn.garbage_collection import paused as _paused

with _paused(promote=True):  # (the package's modules live as long as the process: see garbage_collection)
    from smithy2cfn.api import (
        AstResult,
        BuildResult,
        ConvertResult,
        DiffResult,
        ExplainResult,
        LoadResult,
        Result,
        ValidationResult,
        build,
        build_from_config,
        convert,
        diff,
        explain,
        load,
        render_schema,
        validate,
        validate_files,
        write_json_ast,
    )
    from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Severity, Span
    from smithy2cfn.model import Model
    from smithy2cfn.version import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "AstResult", "BuildResult", "ConvertResult", "Diagnostic", "Diagnostics", "DiffResult", "ExplainResult",
    "Extension", "LoadResult",
    "Model", "Result", "Settings", "Severity", "Span", "ValidationResult", "build", "build_from_config", "convert",
    "diff", "explain", "load", "render_schema", "validate",
    "validate_files", "write_json_ast", "__version__",
]


def __getattr__(name: str) -> Any:
    """Names imported on first use: ``Extension`` (it would import the emit stage) and
    ``Settings`` (:mod:`smithy2cfn.settings`, made by the functions that need it)."""
    if name == "Extension":
        from smithy2cfn.emit.extensions import Extension

        return Extension
    if name == "Settings":
        from smithy2cfn.settings import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
