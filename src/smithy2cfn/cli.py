"""The ``smithy2cfn`` command line: click commands over :mod:`smithy2cfn.api`, nothing more.

Exit codes: 0 success, 1 the model or output has errors, 2 bad usage or configuration
(including a typeName that a setting, flag, ``jsonAdd`` or ``schemaDocumentExtensions``
makes invalid: ``S5020``, ``S5021``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from smithy2cfn import api
from smithy2cfn.buildconfig import read_config_file
from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Severity, Span, format_diagnostics

#: Configuration errors (bad settings): exit 2, as bad usage.
_CONFIG_CODES = frozenset(f"S500{i}" for i in range(10))

_FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                       show_default=True, help="How diagnostics are printed on stderr.")
_VERBOSE = click.option("-v", "--verbose", is_flag=True,
                        help="Print every warning (by default a warning repeated more than 3 times is summed up).")


def _report(items: list[Diagnostic] | Diagnostics, fmt: str, quiet: bool = False, verbose: bool = False) -> None:
    items = list(items)
    if quiet:
        items = [d for d in items if d.is_error]
    if items:
        click.echo(format_diagnostics(items, fmt, fold_after=None if verbose else 3), nl=False, err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="smithy2cfn")
def main() -> None:
    """Compile Smithy models to CloudFormation resource provider schemas."""


@main.command()
@click.argument("models", nargs=-1, type=click.Path(path_type=Path))
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Folder for the schemas (default: build/cloudformation).")
@click.option("--config", "config_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Settings JSON, or a smithy-build.json (its sources and plugins.cloudformation).")
@click.option("--service", help="Shape ID of the service to convert (setting 'service').")
@click.option("--org", "organization", help="Setting 'organizationName' (typeName's first part).")
@click.option("--service-name", help="Setting 'serviceName' (typeName's second part).")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if the output folder is out of date.")
@click.option("-q", "--quiet", is_flag=True, help="Print errors only, no warnings.")
@_FORMAT
@_VERBOSE
def build(models, out_dir, config_file, service, organization, service_name, check, quiet, fmt, verbose):
    """Build one schema per cfnResource resource of MODELS (files or folders).

    With no MODELS and no --config, a smithy-build.json in the current folder is used.
    """
    diags = Diagnostics()
    settings: dict = {}
    sources: list[str] = []
    if config_file is None and not models and Path("smithy-build.json").is_file():
        config_file = Path("smithy-build.json")
    if config_file is not None:
        cfg = read_config_file(config_file, diags)
        if diags.has_errors:
            _report(diags, fmt)
            sys.exit(2)
        settings = dict(cfg.settings)
        sources = cfg.sources
    if not models and not sources:
        raise click.UsageError("give at least one model file or folder (or a smithy-build.json)")
    source = str(config_file) if config_file is not None else None
    spans = dict(cfg.spans) if config_file is not None else {}
    for key, flag, value in (("service", "--service", service), ("organizationName", "--org", organization),
                             ("serviceName", "--service-name", service_name)):
        if value is not None:
            settings[key] = value
            spans[key] = Span(f"<command line {flag}>")
            if key == "service":
                source = f"<command line {flag}>"
    if out_dir is None:
        out_dir = Path("build") / "cloudformation"
    result = api.build([*sources, *map(str, models)], out_dir, settings, check=check,
                       settings_source=source or "<command line>", setting_spans=spans)
    _report(list(diags) + result.diagnostics, fmt, quiet, verbose)
    if not result.ok:
        from smithy2cfn.emit.typename import CONFIG_CODES  # (emit is loaded by now)

        # bad settings, and a typeName that a setting or flag makes invalid, are configuration errors
        sys.exit(2 if any(d.is_error and d.code in (_CONFIG_CODES | CONFIG_CODES)
                          for d in result.diagnostics) else 1)
    if not quiet:
        verb = "up to date" if check else "wrote"
        names = sorted(result.schemas)
        click.echo(f"{verb} {len(names)} schema(s) in {out_dir}", err=True)


@main.command()
@click.argument("models", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-q", "--quiet", is_flag=True, help="Print errors only, no warnings.")
@_FORMAT
@_VERBOSE
def validate(models, quiet, fmt, verbose):
    """Load and check MODELS; exit 1 when they have errors."""
    model, diags = api.load(models)
    if not diags.has_errors:
        api.validate(model, diags)
    _report(diags.sorted(), fmt, quiet, verbose)
    sys.exit(1 if diags.has_errors else 0)


@main.command()
@click.argument("models", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", "out_file", type=click.Path(path_type=Path),
              help="File to write (default: standard output).")
@_FORMAT
def ast(models, out_file, fmt):
    """Write the loaded model as Smithy JSON AST (prelude left out)."""
    from smithy2cfn.model.json_ast import model_to_json_ast, render_json_ast

    model, diags = api.load(models)
    _report([d for d in diags.sorted() if d.is_error], fmt)
    if diags.has_errors:
        sys.exit(1)
    try:
        text = render_json_ast(model_to_json_ast(model))
    except ValueError as e:  # a NaN or infinity: the readers never make one
        _report([Diagnostic("S5011", Severity.ERROR, f"the model cannot be written as JSON: {e}")], fmt)
        sys.exit(1)
    if out_file is None:
        click.echo(text, nl=False)
        return
    problem = None
    if os.path.isdir(out_file):
        problem = "it is a folder"
    else:
        try:
            api.write_atomically(out_file, text)
        except OSError as e:
            problem = e.strerror or str(e)
    if problem is not None:
        _report([Diagnostic("S5011", Severity.ERROR, f"cannot write {out_file}: {problem}", Span(str(out_file)),
                            hint="give -o a file path in a folder you can write")], fmt)
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
