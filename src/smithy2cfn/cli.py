"""The ``smithy2cfn`` command line: click commands over :mod:`smithy2cfn.api`, nothing more.

Each command parses its arguments, calls one library function, prints the diagnostics (and
the summary line) on stderr and exits with the result's ``exit_code``: 0 success, 1 the
model or output has errors, 2 bad usage or configuration (see
:func:`smithy2cfn.api.is_configuration_error`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostic, Severity, Span, format_diagnostics

_FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                       show_default=True, help="How diagnostics are printed on stderr.")
_VERBOSE = click.option("-v", "--verbose", is_flag=True,
                        help="Print notes too, and every warning (by default notes are left out and a warning "
                             "repeated more than 3 times is summed up).")


def _report(items: list[Diagnostic], fmt: str, quiet: bool = False, verbose: bool = False) -> None:
    if quiet:
        items = [d for d in items if d.is_error]
    elif not verbose:
        items = [d for d in items if d.severity > Severity.NOTE]
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
@click.option("--compatibility", type=click.Choice(["default", "reference"]),
              help="Setting 'compatibility': 'default' writes registry-ready schemas, 'reference' what the "
                   "Java plugin writes.")
@click.option("--strict", is_flag=True,
              help="Fail the build on warnings (setting 'strict'): exit 1, nothing written.")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if the output folder is out of date.")
@click.option("-q", "--quiet", is_flag=True, help="Print errors only, no warnings.")
@_FORMAT
@_VERBOSE
def build(models, out_dir, config_file, service, organization, service_name, compatibility, strict, check, quiet,
          fmt, verbose):
    """Build one schema per cfnResource resource of MODELS (files or folders).

    With no MODELS and no --config, a smithy-build.json in the current folder is used.
    Extensions installed in the environment (entry point group smithy2cfn.extensions) run.
    """
    flags = {"service": ("--service", service), "organizationName": ("--org", organization),
             "serviceName": ("--service-name", service_name), "compatibility": ("--compatibility", compatibility),
             "strict": ("--strict", True if strict else None)}
    given = {key: (flag, value) for key, (flag, value) in flags.items() if value is not None}
    result = api.build_from_config(
        config_file, models, out_dir=api.DEFAULT_OUT_DIR if out_dir is None else out_dir, check=check,
        overrides={key: value for key, (_, value) in given.items()},
        override_spans={key: Span(f"<command line {flag}>") for key, (flag, _) in given.items()})
    _report(result.diagnostics, fmt, quiet, verbose)
    if result.exit_code:
        sys.exit(result.exit_code)
    if not quiet:
        verb = "up to date" if check else "wrote"
        click.echo(f"{verb} {len(result.schemas)} schema(s) in {result.out_dir}", err=True)


@main.command()
@click.argument("models", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-q", "--quiet", is_flag=True, help="Print errors only, no warnings.")
@_FORMAT
@_VERBOSE
def validate(models, quiet, fmt, verbose):
    """Load and check MODELS; exit 1 when they have errors."""
    result = api.validate_files(models)
    _report(result.diagnostics, fmt, quiet, verbose)
    sys.exit(result.exit_code)


@main.command()
@click.argument("models", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", "out_file", type=click.Path(path_type=Path),
              help="File to write (default: standard output).")
@_FORMAT
def ast(models, out_file, fmt):
    """Write the loaded model as Smithy JSON AST (prelude left out)."""
    result = api.write_json_ast(models, out_file)
    _report(result.diagnostics, fmt, quiet=True)
    if result.exit_code:
        sys.exit(result.exit_code)
    if out_file is None:
        click.echo(result.text, nl=False)


if __name__ == "__main__":  # pragma: no cover
    main()
