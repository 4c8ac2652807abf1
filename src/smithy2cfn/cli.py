"""The ``smithy2cfn`` command line: click commands over :mod:`smithy2cfn.api`, nothing more.

Each command parses its arguments, calls one library function, prints the diagnostics (and
the summary line) on stderr and exits with the result's ``exit_code``: 0 success, 1 the
model or output has errors, 2 bad usage or configuration (see
:func:`smithy2cfn.api.is_configuration_error`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostic, Severity, Span, format_diagnostics
from smithy2cfn.report import DiagnosticFilter, split_ids

_FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text",
                       show_default=True,
                       help="How diagnostics are printed: text or json (one object a line) on stderr, or one "
                            "SARIF 2.1.0 document on stdout (for code scanning; paths relative to the "
                            "repository).")
_VERBOSE = click.option("-v", "--verbose", is_flag=True,
                        help="Print notes too, and every warning (by default notes are left out and a warning "
                             "repeated more than 3 times is summed up).")
_SEVERITY = click.option("--severity", type=click.Choice([s.label for s in Severity], case_sensitive=False),
                         help="The lowest severity printed (default: warning; note with -v; error with -q). "
                              "Errors are always printed.")
_HIDE = click.option("--hide", "--hide-validators", "hide", multiple=True, metavar="ID[,ID...]",
                     help="Leave out the diagnostics with this code (S3006) or event ID (UnstableTrait; an ID "
                          "covers the IDs under it: Model covers Model.UnresolvedTrait). Repeatable. Errors are "
                          "always printed.")
_SHOW = click.option("--show", "--show-validators", "show", multiple=True, metavar="ID[,ID...]",
                     help="Print only the diagnostics with this code or event ID (and errors). Repeatable. "
                          "Brings back what a command leaves out by default (build: --show S3006).")

_ALLOW_UNKNOWN_TRAITS = click.option("--allow-unknown-traits", is_flag=True,
                                     help="An applied trait that no loaded file defines is a warning (kept as "
                                          "is) instead of an error (S2010), as smithy's --allow-unknown-traits.")


def _options(function):
    """The options every checking command shares: how diagnostics are printed and which."""
    for option in (_SHOW, _HIDE, _SEVERITY, _VERBOSE, _FORMAT):
        function = option(function)
    return function


def _filter(quiet: bool, verbose: bool, severity: str | None, hide: tuple[str, ...], show: tuple[str, ...],
            hide_cfn_unstable: bool = False) -> DiagnosticFilter:
    if severity is not None:
        level = Severity[severity.upper()]
    else:
        level = Severity.ERROR if quiet else Severity.NOTE if verbose else Severity.WARNING
    return DiagnosticFilter(level, split_ids(hide), split_ids(show), hide_cfn_unstable)


def _report(items: list[Diagnostic], fmt: str, quiet: bool = False, verbose: bool = False,
            selection: DiagnosticFilter | None = None, exit_code: int = 0) -> None:
    """Print the diagnostics ``selection`` keeps (default: by ``quiet``/``verbose``)."""
    if selection is None:
        selection = _filter(quiet, verbose, None, (), ())
    items = selection.select(items)
    if fmt == "sarif":
        from smithy2cfn.report import render_sarif, sarif_document

        click.echo(render_sarif(sarif_document(items, successful=exit_code != 2)), nl=False)
    elif items:
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
@_ALLOW_UNKNOWN_TRAITS
@_options
def build(models, out_dir, config_file, service, organization, service_name, compatibility, strict, check, quiet,
          allow_unknown_traits, fmt, verbose, severity, hide, show):
    """Build one schema per cfnResource resource of MODELS (files or folders).

    With no MODELS and no --config, a smithy-build.json in the current folder is used.
    Extensions installed in the environment (entry point group smithy2cfn.extensions) run.
    UnstableTrait warnings (S3006) about aws.cloudformation traits are left out (--show S3006
    prints them).
    """
    flags = {"service": ("--service", service), "organizationName": ("--org", organization),
             "serviceName": ("--service-name", service_name), "compatibility": ("--compatibility", compatibility),
             "strict": ("--strict", True if strict else None)}
    given = {key: (flag, value) for key, (flag, value) in flags.items() if value is not None}
    result = api.build_from_config(
        config_file, models, out_dir=api.DEFAULT_OUT_DIR if out_dir is None else out_dir, check=check,
        overrides={key: value for key, (_, value) in given.items()},
        override_spans={key: Span(f"<command line {flag}>") for key, (flag, _) in given.items()},
        allow_unknown_traits=allow_unknown_traits)
    _report(result.diagnostics, fmt, quiet, verbose, _filter(quiet, verbose, severity, hide, show, True),
            result.exit_code)
    if result.exit_code:
        sys.exit(result.exit_code)
    if not quiet:
        verb = "up to date" if check else "wrote"
        click.echo(f"{verb} {len(result.schemas)} schema(s) in {result.out_dir}", err=True)


@main.command()
@click.option("--config", "config_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Settings JSON, or a smithy-build.json (its plugins.cloudformation; its sources are not "
                   "loaded); relative to SMITHY_ROOT_DIR.")
@click.option("--service", help="Shape ID of the service to convert (setting 'service').")
@click.option("--org", "organization", help="Setting 'organizationName' (typeName's first part).")
@click.option("--service-name", help="Setting 'serviceName' (typeName's second part).")
@click.option("--compatibility", type=click.Choice(["default", "reference"]),
              help="Setting 'compatibility' (see build).")
@click.option("-q", "--quiet", is_flag=True, help="Print errors only, no warnings.")
@_options
def plugin(config_file, service, organization, service_name, compatibility, quiet, fmt, verbose, severity, hide,
           show):
    """Build the JSON AST model on standard input into SMITHY_PLUGIN_DIR.

    This is smithy2cfn as Smithy's run plugin: in smithy-build.json,
    "run::cloudformation": {"command": ["smithy2cfn", "plugin", "--org", "Acme"]}.
    """
    from smithy2cfn.plugin import run_plugin

    flags = {"service": ("--service", service), "organizationName": ("--org", organization),
             "serviceName": ("--service-name", service_name), "compatibility": ("--compatibility", compatibility)}
    given = {key: (flag, value) for key, (flag, value) in flags.items() if value is not None}
    result = run_plugin(sys.stdin.buffer, os.environ, config=config_file,
                        overrides={key: value for key, (_, value) in given.items()},
                        override_spans={key: Span(f"<command line {flag}>") for key, (flag, _) in given.items()})
    _report(result.diagnostics, fmt, quiet, verbose, _filter(quiet, verbose, severity, hide, show, True),
            result.exit_code)
    if result.exit_code:
        sys.exit(result.exit_code)
    if not quiet:
        click.echo(f"wrote {len(result.schemas)} schema(s) in {result.out_dir}", err=True)


@main.command()
@click.argument("models", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-q", "--quiet", is_flag=True, help="Print errors only, no warnings.")
@_ALLOW_UNKNOWN_TRAITS
@_options
def validate(models, quiet, allow_unknown_traits, fmt, verbose, severity, hide, show):
    """Load and check MODELS; exit 1 when they have errors."""
    result = api.validate_files(models, allow_unknown_traits=allow_unknown_traits)
    _report(result.diagnostics, fmt, quiet, verbose, _filter(quiet, verbose, severity, hide, show),
            result.exit_code)
    sys.exit(result.exit_code)


@main.command()
@click.argument("models", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", "out_file", type=click.Path(path_type=Path),
              help="File to write (default: standard output).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="How diagnostics are printed on stderr.")
@_ALLOW_UNKNOWN_TRAITS
def ast(models, out_file, fmt, allow_unknown_traits):
    """Write the loaded model as Smithy JSON AST (prelude left out)."""
    result = api.write_json_ast(models, out_file, allow_unknown_traits=allow_unknown_traits)
    _report(result.diagnostics, fmt, quiet=True)
    if result.exit_code:
        sys.exit(result.exit_code)
    if out_file is None:
        click.echo(result.text, nl=False)


def run() -> None:
    """The ``smithy2cfn`` program (the console script and ``python -m smithy2cfn``):
    :func:`main`, then an exit that skips the interpreter's teardown.

    Freeing every module and object one by one at exit took some 20 ms of a 150 ms small
    build (issue 10: the cold start is what users feel), and nothing needs it: the command
    has closed (and synced) every file it wrote before it returns. ``atexit`` handlers still
    run and standard output and error are flushed; a flush that fails (a pipe closed by the
    reader) makes a successful exit status 120, as Python's own exit does. An exception
    other than ``SystemExit`` (a bug) leaves through Python's usual path, traceback and all,
    and so does every exit under a profiler or tracer (``python -m cProfile``, coverage),
    which writes its results after the program ends. Tests call :func:`main` through
    click's runner instead, which never exits the process.
    """
    try:
        main(prog_name="smithy2cfn")
        code: object = 0
    except SystemExit as e:
        if sys.getprofile() is not None or sys.gettrace() is not None:
            raise
        code = e.code
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:
        print(code, file=sys.stderr)
        status = 1
    import atexit

    atexit._run_exitfuncs()  # what the interpreter's exit would run (coverage's data file...)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            status = status or 120
    os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    run()
