"""smithy2cfn: Smithy IDL models in, CloudFormation resource provider schemas out.

The library API (see :mod:`smithy2cfn.api`): :func:`load`, :func:`validate`,
:func:`convert`, :func:`build`; diagnostics in :mod:`smithy2cfn.diagnostics`.
"""

from smithy2cfn.api import BuildResult, build, convert, load, render_schema, validate
from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Severity, Span
from smithy2cfn.version import __version__

__all__ = [
    "BuildResult", "Diagnostic", "Diagnostics", "Severity", "Span",
    "build", "convert", "load", "render_schema", "validate", "__version__",
]
