"""The ``smithy2cfn`` command line: commands over :mod:`smithy2cfn.api`, nothing more.

Each command parses its arguments, calls one library function, prints the diagnostics (and
the summary line) on stderr and exits with the result's ``exit_code``: 0 success, 1 the
model or output has errors, 2 bad usage or configuration (see
:func:`smithy2cfn.api.is_configuration_error`).

Every command's parameters are declared once, in :data:`COMMANDS`. click reads them
(:data:`main`, made on first use: help, ``--version``, shell completion, usage errors); a
command line that click would take as it is written (:func:`parse_plain`: known options,
values that click's types keep as given) is parsed from the same declarations without
importing click, whose import cost a small build about a sixth of its instructions (issue
15, "Cold start"). Anything else (``--help``, a misspelt option, a missing value, a value
click would reject or rewrite, a completion request) goes to click. ``tests/cli`` shows
that both parse every command and option the same way.
"""

from __future__ import annotations

import codecs
import errno
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from smithy2cfn import api, huge_pages
from smithy2cfn.diagnostics import Diagnostic, Severity, Span, format_diagnostics
from smithy2cfn.report import DiagnosticFilter, split_ids

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    _Result = TypeVar("_Result")


class Param:
    """One parameter of a command, as click declares it (:func:`_click_param` makes the click
    object; :func:`parse_plain` reads the same fields).

    Attributes:
        dest: the command function's parameter.
        names: the option's names (``("-o", "--output")``); ``()`` for the positional
            arguments (``MODELS``: ``nargs=-1``).
        kind: ``"flag"`` (``is_flag``), ``"value"``, ``"values"`` (``multiple=True``) or
            ``"arguments"``.
        choices: ``click.Choice`` of these (``case_sensitive``), or ``None``.
        path: ``click.Path(path_type=Path)``: ``"any"``, ``"file"`` (``dir_okay=False``),
            ``"dir"`` (``file_okay=False``), or ``None`` (text).
        default, show_default, help, metavar, required: as click's.
        unless: for required arguments, the options that make them optional (click then
            takes them as optional, and the command function reports them missing).
    """

    __slots__ = ("dest", "names", "kind", "choices", "case_sensitive", "path", "default", "show_default", "help",
                 "metavar", "required", "unless")

    def __init__(self, dest: str, names: tuple[str, ...] = (), kind: str = "value",
                 choices: tuple[str, ...] | None = None, case_sensitive: bool = True, path: str | None = None,
                 default: Any = None, show_default: bool = False, help: str | None = None,
                 metavar: str | None = None, required: bool = False, unless: tuple[str, ...] = ()) -> None:
        self.dest, self.names, self.kind, self.choices, self.case_sensitive = dest, names, kind, choices, case_sensitive
        self.path, self.default, self.show_default, self.help = path, default, show_default, help
        self.metavar, self.required, self.unless = metavar, required, unless


_FORMAT = Param("fmt", ("--format",), choices=("text", "json", "sarif"), default="text", show_default=True,
                help="How diagnostics are printed: text or json (one object a line) on stderr, or one "
                     "SARIF 2.1.0 document on stdout (for code scanning; paths relative to the "
                     "repository).")
_VERBOSE = Param("verbose", ("-v", "--verbose"), "flag",
                 help="Print notes too, and every warning (by default notes are left out and a warning "
                      "repeated more than 3 times is summed up).")
_SEVERITY = Param("severity", ("--severity",), choices=tuple(s.label for s in Severity), case_sensitive=False,
                  help="The lowest severity printed (default: warning; note with -v; error with -q). "
                       "Errors are always printed.")
_HIDE = Param("hide", ("--hide", "--hide-validators"), "values", metavar="ID[,ID...]",
              help="Leave out the diagnostics with this code (S3006) or event ID (UnstableTrait; an ID "
                   "covers the IDs under it: Model covers Model.UnresolvedTrait). Repeatable. Errors are "
                   "always printed.")
_SHOW = Param("show", ("--show", "--show-validators"), "values", metavar="ID[,ID...]",
              help="Print only the diagnostics with this code or event ID (and errors). Repeatable. "
                   "Brings back what a command leaves out by default (build: --show S3006).")
#: The options every checking command shares: how diagnostics are printed and which.
_PRINTING = (_FORMAT, _VERBOSE, _SEVERITY, _HIDE, _SHOW)

_ALLOW_UNKNOWN_TRAITS = Param("allow_unknown_traits", ("--allow-unknown-traits",), "flag",
                              help="An applied trait that no loaded file defines is a warning (kept as "
                                   "is) instead of an error (S2010), as smithy's --allow-unknown-traits.")
_PROJECTION = Param("projection", ("--projection",), metavar="NAME",
                    help="Only this projection of the smithy-build.json (default: every projection with a "
                         "cloudformation plugin; for ast: source).")
_QUIET = Param("quiet", ("-q", "--quiet"), "flag", help="Print errors only, no warnings.")
_SERVICE = Param("service", ("--service",), help="Shape ID of the service to convert (setting 'service').")
_ORG = Param("organization", ("--org",), help="Setting 'organizationName' (typeName's first part).")
_SERVICE_NAME = Param("service_name", ("--service-name",), help="Setting 'serviceName' (typeName's second part).")


def _filter(quiet: bool, verbose: bool, severity: str | None, hide: tuple[str, ...], show: tuple[str, ...],
            hide_cfn_unstable: bool = False) -> DiagnosticFilter:
    if severity is not None:
        level = Severity[severity.upper()]
    else:
        level = Severity.ERROR if quiet else Severity.NOTE if verbose else Severity.WARNING
    return DiagnosticFilter(level, split_ids(hide), split_ids(show), hide_cfn_unstable)


#: What the commands made (their results: models, indexes, schemas), kept until the process
#: exits: :func:`run` ends it with ``os._exit``, which frees nothing, so freeing them one by
#: one when a command returns would be work for nothing (SageMaker's model and its indexes:
#: 45 million instructions, 2.5% of its build, since a model and its indexes no longer refer
#: to each other and die by reference counting: ``model.shapes._view``).
_KEPT: list[Any] = []
#: Set by :func:`run`: the process is the program, and ends with ``os._exit`` (a caller of
#: :data:`main`, such as click's test runner, keeps nothing: its process goes on).
_KEEPING = False


def _kept(result: _Result) -> _Result:
    """``result``, kept alive until the process exits (:data:`_KEPT`) when it is the program."""
    if _KEEPING:
        _KEPT.append(result)
    return result


def _echo(text: str, err: bool = False) -> None:
    """``click.echo(text, nl=False, err=err)``: written as it is, unless click would change it
    (an ANSI escape, which click strips when the stream is not a terminal; a stream whose
    encoding is ASCII, which click replaces; no stream), when click writes it."""
    stream = sys.stderr if err else sys.stdout
    encoding = getattr(stream, "encoding", None)
    if stream is None or "\x1b" in text or not encoding or codecs.lookup(encoding).name == "ascii":
        import click

        click.echo(text, nl=False, err=err)
        return
    stream.write(text)
    stream.flush()


def _report(items: list[Diagnostic], fmt: str, quiet: bool = False, verbose: bool = False,
            selection: DiagnosticFilter | None = None, exit_code: int = 0) -> None:
    """Print the diagnostics ``selection`` keeps (default: by ``quiet``/``verbose``)."""
    if selection is None:
        selection = _filter(quiet, verbose, None, (), ())
    items = selection.select(items)
    if fmt == "sarif":
        from smithy2cfn.report import render_sarif, sarif_document

        _echo(render_sarif(sarif_document(items, successful=exit_code != 2)))
    elif items:
        # (the source lines: the model files read again by the package's one bounded read)
        _echo(format_diagnostics(items, fmt, api.read_regular_file, fold_after=None if verbose else 3), err=True)


def build(models: tuple[Path, ...], out_dir: Path | None, config_file: tuple[Path, ...], projection: str | None,
          service: str | None, organization: str | None, service_name: str | None, compatibility: str | None,
          strict: bool, check: bool, cfn_project: Path | None, custom_resource: tuple[str, ...], quiet: bool,
          allow_unknown_traits: bool, fmt: str, verbose: bool, severity: str | None, hide: tuple[str, ...],
          show: tuple[str, ...]) -> None:
    """Build one schema per cfnResource resource of MODELS (files or folders).

    With no MODELS and no --config, a smithy-build.json in the current folder is used. From a
    smithy-build.json, every projection with a cloudformation plugin is built, into
    <outputDirectory, default build/smithy>/<projection>/cloudformation/ (see -o).
    Extensions installed in the environment (entry point group smithy2cfn.extensions) run.
    UnstableTrait warnings (S3006) about aws.cloudformation traits are left out (--show S3006
    prints them).
    """
    flags = {"service": ("--service", service), "organizationName": ("--org", organization),
             "serviceName": ("--service-name", service_name), "compatibility": ("--compatibility", compatibility),
             "strict": ("--strict", True if strict else None)}
    if custom_resource:
        flags["customResources"] = ("--custom-resource", _custom_resources(custom_resource))
    given = {key: (flag, value) for key, (flag, value) in flags.items() if value is not None}
    result = _kept(api.build_from_config(
        config_file or None, models, out_dir=api.SMITHY_LAYOUT if out_dir is None else out_dir, check=check,
        overrides={key: value for key, (_, value) in given.items()},
        override_spans={key: Span(f"<command line {flag}>") for key, (flag, _) in given.items()},
        allow_unknown_traits=allow_unknown_traits, projection=projection, cfn_project=cfn_project))
    _report(result.diagnostics, fmt, quiet, verbose, _filter(quiet, verbose, severity, hide, show, True),
            result.exit_code)
    if result.exit_code:
        sys.exit(result.exit_code)
    if not quiet and cfn_project is not None:
        done = f"the projects under {cfn_project} are up to date" if check else \
            f"wrote {len(result.written)} file(s) into the projects under {cfn_project}"
        _echo(done + "\n", err=True)
    elif not quiet:
        verb = "up to date" if check else "wrote"
        built = len({p.name for p in result.projections})
        where = f" ({built} projections)" if built > 1 else ""
        _echo(f"{verb} {len(result.schemas)} schema(s) in {result.out_dir}{where}\n", err=True)


def _custom_resources(values: tuple[str, ...]) -> dict[str, str]:
    """``--custom-resource SHAPE_ID=Custom::Name`` (repeatable) as the ``customResources``
    setting; a value without ``=`` maps to ``""`` (the setting's check reports it, S5001)."""
    out: dict[str, str] = {}
    for value in values:
        shape_id, _, name = value.partition("=")
        out[shape_id.strip()] = name.strip()
    return out


def plugin(config_file: Path | None, service: str | None, organization: str | None, service_name: str | None,
           compatibility: str | None, quiet: bool, fmt: str, verbose: bool, severity: str | None,
           hide: tuple[str, ...], show: tuple[str, ...]) -> None:
    """Build the JSON AST model on standard input into SMITHY_PLUGIN_DIR.

    This is smithy2cfn as Smithy's run plugin: in smithy-build.json,
    "run::cloudformation": {"command": ["smithy2cfn", "plugin", "--org", "Acme"]}.
    """
    from smithy2cfn.plugin import run_plugin

    flags = {"service": ("--service", service), "organizationName": ("--org", organization),
             "serviceName": ("--service-name", service_name), "compatibility": ("--compatibility", compatibility)}
    given = {key: (flag, value) for key, (flag, value) in flags.items() if value is not None}
    result = _kept(run_plugin(sys.stdin.buffer, os.environ, config=config_file,
                              overrides={key: value for key, (_, value) in given.items()},
                              override_spans={key: Span(f"<command line {flag}>") for key, (flag, _) in given.items()}))
    _report(result.diagnostics, fmt, quiet, verbose, _filter(quiet, verbose, severity, hide, show, True),
            result.exit_code)
    if result.exit_code:
        sys.exit(result.exit_code)
    if not quiet:
        _echo(f"wrote {len(result.schemas)} schema(s) in {result.out_dir}\n", err=True)


def validate(models: tuple[Path, ...], quiet: bool, allow_unknown_traits: bool, fmt: str, verbose: bool,
             severity: str | None, hide: tuple[str, ...], show: tuple[str, ...]) -> None:
    """Load and check MODELS; exit 1 when they have errors."""
    result = _kept(api.validate_files(models, allow_unknown_traits=allow_unknown_traits))
    _report(result.diagnostics, fmt, quiet, verbose, _filter(quiet, verbose, severity, hide, show),
            result.exit_code)
    sys.exit(result.exit_code)


def ast(models: tuple[Path, ...], out_file: Path | None, config_file: tuple[Path, ...], projection: str | None,
        fmt: str, allow_unknown_traits: bool) -> None:
    """Write the loaded model as Smithy JSON AST (prelude left out).

    With --projection (or --config), the model of that projection of the smithy-build.json
    (default: the one in the current folder; projection default: source): its sources and
    imports with MODELS, its transforms applied.
    """
    if not models and not config_file and projection is None:
        import click

        raise click.UsageError("Missing argument 'MODELS...'.")
    result = _kept(api.write_json_ast(models, out_file, allow_unknown_traits=allow_unknown_traits,
                                      config=config_file or None, projection=projection))
    _report(result.diagnostics, fmt, quiet=True)
    if result.exit_code:
        sys.exit(result.exit_code)
    if out_file is None:
        _echo(result.text or "")


def diff(models: tuple[Path, ...], old: tuple[Path, ...], new: tuple[Path, ...], base: str | None,
         old_schemas: Path | None, new_schemas: Path | None, config_file: tuple[Path, ...], projection: str | None,
         service: str | None, organization: str | None, service_name: str | None, fail_on: str, quiet: bool,
         allow_unknown_traits: bool, fmt: str, verbose: bool, severity: str | None, hide: tuple[str, ...],
         show: tuple[str, ...]) -> None:
    """What a model change does to the resource types, before it ships.

    Compare two versions of a build, type by type (paired by typeName), and report every
    change to every resource type at the Smithy element that caused it: breaking changes
    (resource-schema-guard-rail's stateful rules under their IDs, and what guard-rail
    misses) and compatible ones, with a semantic-version verdict (major, minor, patch) per
    type and overall. Three forms:

    \b
      smithy2cfn diff --base origin/main [PATH...]    the current models against REV's (git)
      smithy2cfn diff --old PATH... --new PATH...     two versions (files, folders, smithy-build.json)
      smithy2cfn diff --old-schemas DIR --new-schemas DIR   two folders of schemas

    Exit 0 when nothing reaches --fail-on, 1 when something does (or a side fails to build),
    2 for usage and configuration errors.
    """
    if models and (old or new):
        import click

        raise click.UsageError("PATH arguments go with --base; with --old/--new, give each side's paths after it.")
    flags = {"service": ("--service", service), "organizationName": ("--org", organization),
             "serviceName": ("--service-name", service_name)}
    given = {key: (flag, value) for key, (flag, value) in flags.items() if value is not None}
    result = _kept(api.diff(old, new or models, base=base, config=config_file or None, old_schemas=old_schemas,
                            new_schemas=new_schemas, overrides={key: value for key, (_, value) in given.items()},
                            override_spans={key: Span(f"<command line {flag}>") for key, (flag, _) in given.items()},
                            projection=projection, fail_on=fail_on, allow_unknown_traits=allow_unknown_traits))
    selection = _filter(quiet, verbose, severity, hide, show, True)
    findings = {id(f.diagnostic) for t in result.types for f in t.findings}
    problems = [d for d in result.diagnostics if id(d) not in findings]
    if fmt == "json":
        import json

        _report(problems, "text", quiet, verbose, selection, result.exit_code)
        _echo(json.dumps(result.to_json(selection.keeps), indent=2, ensure_ascii=False) + "\n")
    elif fmt == "sarif":
        _report(result.diagnostics, "sarif", quiet, verbose, selection, result.exit_code)
    else:
        _report(problems, "text", quiet, verbose, selection, result.exit_code)
        _echo(_diff_text(result, selection, verbose))
    sys.exit(result.exit_code)


def explain(models: tuple[Path, ...], config_file: tuple[Path, ...], projection: str | None, service: str | None,
            organization: str | None, service_name: str | None, resource: str | None, prop: str | None, fmt: str,
            allow_unknown_traits: bool) -> None:
    """Why each property is createOnly, readOnly, writeOnly, required or deprecated.

    For each resource type of the build of MODELS (files, folders or a smithy-build.json;
    default: the current folder's smithy-build.json): each property's pointer, what it is,
    and every reason in model terms at its file:line (the lifecycle operations whose input or
    output hold the member, the traits that fix it, the operation a property is missing
    from); each handler's operations and permissions; the tagging. --format json prints one
    document on stdout.
    """
    flags = {"service": ("--service", service), "organizationName": ("--org", organization),
             "serviceName": ("--service-name", service_name)}
    given = {key: (flag, value) for key, (flag, value) in flags.items() if value is not None}
    result = _kept(api.explain(models, config=config_file or None, overrides={k: v for k, (_, v) in given.items()},
                               override_spans={k: Span(f"<command line {f}>") for k, (f, _) in given.items()},
                               projection=projection, resource=resource, prop=prop,
                               allow_unknown_traits=allow_unknown_traits))
    _report(result.diagnostics, "json" if fmt == "json" else "text", quiet=True)
    if fmt == "json":
        import json

        _echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        _echo(result.text())
    sys.exit(result.exit_code)


def _diff_text(result: api.DiffResult, selection: DiagnosticFilter, verbose: bool) -> str:
    """The text report of :func:`diff`: the sides, then each type's verdict and findings."""
    if result.old is None or result.new is None:
        return ""
    lines = [f"old: {result.old.name}", f"new: {result.new.name}"]
    for t in result.types:
        status = "" if t.status == "changed" else f" ({t.status})"
        counts = {level: sum(1 for f in t.findings if f.level == level) for level in ("major", "minor", "patch")}
        summary = ", ".join(f"{n} {level}" for level, n in counts.items() if n) or "no change"
        lines.append(f"{t.type_name}{status}: {t.verdict} ({summary}"
                     + (f"; {t.suppressed} suppressed" if t.suppressed else "") + ")")
        shown = [f for f in t.findings if selection.keeps(f.diagnostic)]
        for f in shown:
            d = f.diagnostic
            rule = f" [{f.rule_id}]" if f.rule_id else ""
            lines.append(f"  {d.span}: {d.severity.label} {d.code}{rule} {d.message}")
            if d.hint and (verbose or d.severity >= Severity.WARNING):
                lines.append(f"      hint: {d.hint}")
        hidden = len(t.findings) - len(shown)
        if hidden:
            lines.append(f"  ({hidden} more not shown: -v shows notes)")
    floor = api.FAIL_ON.get(result.fail_on)
    lines.append(f"verdict: {result.verdict}" + (f" (--fail-on {result.fail_on})" if floor else ""))
    return "\n".join(lines) + "\n"


#: The commands: name → (function, its parameters in the order click lists them).
COMMANDS: dict[str, tuple[Callable[..., None], tuple[Param, ...]]] = {
    "build": (build, (
        Param("models", kind="arguments", path="any"),
        Param("out_dir", ("-o", "--output"), path="dir",
              help="Folder for the schemas (default: build/cloudformation; from a smithy-build.json "
                   "<outputDirectory, default build/smithy>/<projection>/cloudformation). With several "
                   "projections built: FOLDER/<projection>/cloudformation, as smithy build --output."),
        Param("config_file", ("-c", "--config"), "values", path="file",
              help="Settings JSON, or a smithy-build.json (its sources, projections and cloudformation plugins). "
                   "Repeatable: smithy-build.json files are merged in order, as smithy build -c does."),
        _PROJECTION, _SERVICE, _ORG, _SERVICE_NAME,
        Param("compatibility", ("--compatibility",), choices=("default", "reference"),
              help="Setting 'compatibility': 'default' writes registry-ready schemas, 'reference' what the "
                   "Java plugin writes."),
        Param("strict", ("--strict",), "flag",
              help="Fail the build on warnings (setting 'strict'): exit 1, nothing written."),
        Param("check", ("--check",), "flag", help="Write nothing; exit 1 if the output folder is out of date."),
        Param("cfn_project", ("--cfn-project",), path="dir", metavar="DIR",
              help="Write each type's schema, docs/, inputs/ and resource-role.yaml into the resource-type project "
                   "under DIR whose .rpdk-config names it (cfn init's layout), instead of the output folder."),
        Param("custom_resource", ("--custom-resource",), "values", metavar="SHAPE_ID=Custom::Name",
              help="Also serve this resource as a Lambda-backed custom resource of this type (setting "
                   "customResources): its schemas and a provider in the output folder. Repeatable."),
        _QUIET, _ALLOW_UNKNOWN_TRAITS, *_PRINTING)),
    "plugin": (plugin, (
        Param("config_file", ("--config",), path="file",
              help="Settings JSON, or a smithy-build.json (its plugins.cloudformation; its sources are not "
                   "loaded); relative to SMITHY_ROOT_DIR."),
        _SERVICE, _ORG, _SERVICE_NAME,
        Param("compatibility", ("--compatibility",), choices=("default", "reference"),
              help="Setting 'compatibility' (see build)."),
        _QUIET, *_PRINTING)),
    "validate": (validate, (
        Param("models", kind="arguments", path="any", required=True),
        _QUIET, _ALLOW_UNKNOWN_TRAITS, *_PRINTING)),
    "diff": (diff, (
        Param("models", kind="arguments", path="any"),
        Param("old", ("--old",), "values", path="any", metavar="PATH...",
              help="The old version: model files, folders or a smithy-build.json (every argument after --old up "
                   "to the next option)."),
        Param("new", ("--new",), "values", path="any", metavar="PATH...",
              help="The new version, as --old."),
        Param("base", ("--base",), metavar="REV",
              help="Compare the current models (PATH..., default: the current folder's smithy-build.json) with "
                   "the same paths at this git revision (origin/main, a tag), read without touching the working "
                   "tree."),
        Param("old_schemas", ("--old-schemas",), path="dir", metavar="DIR",
              help="A folder of schemas already built (the registry's): the old side."),
        Param("new_schemas", ("--new-schemas",), path="dir", metavar="DIR", help="The new side's folder of schemas."),
        Param("config_file", ("-c", "--config"), "values", path="file",
              help="Settings JSON or smithy-build.json used for both sides (repeatable, merged in order)."),
        _PROJECTION, _SERVICE, _ORG, _SERVICE_NAME,
        Param("fail_on", ("--fail-on",), choices=("breaking", "minor", "never"), default="breaking",
              show_default=True,
              help="Exit 1 when a type's verdict is major (breaking), minor or major (minor), or never."),
        _QUIET, _ALLOW_UNKNOWN_TRAITS, *_PRINTING)),
    "explain": (explain, (
        Param("models", kind="arguments", path="any"),
        Param("config_file", ("-c", "--config"), "values", path="file",
              help="Settings JSON or smithy-build.json (repeatable, merged in order)."),
        _PROJECTION, _SERVICE, _ORG, _SERVICE_NAME,
        Param("resource", ("--resource",), metavar="NAME",
              help="Only this resource type: its typeName, shape ID or shape name."),
        Param("prop", ("--property",), metavar="NAME",
              help="Only this property: its member name, schema name or pointer."),
        Param("fmt", ("--format",), choices=("text", "json"), default="text", show_default=True,
              help="text, or one JSON document on stdout."),
        _ALLOW_UNKNOWN_TRAITS)),
    "ast": (ast, (
        Param("models", kind="arguments", path="any", required=True, unless=("config_file", "projection")),
        Param("out_file", ("-o", "--output"), path="any", help="File to write (default: standard output)."),
        Param("config_file", ("-c", "--config"), "values", path="file",
              help="A smithy-build.json (repeatable, merged in order): write the model of a projection."),
        _PROJECTION,
        Param("fmt", ("--format",), choices=("text", "json"), default="text", show_default=True,
              help="How diagnostics are printed on stderr."),
        _ALLOW_UNKNOWN_TRAITS)),
}

#: Options that take every argument after them up to the next option (``diff --old A B``),
#: by command.
VARIADIC = {"diff": ("--old", "--new")}


def expand_variadic(argv: Sequence[str]) -> list[str]:
    """``argv`` (without the program name) with the arguments that follow a variadic option
    (:data:`VARIADIC`) given to it one by one: ``diff --old a b --new c`` →
    ``diff --old a --old b --new c``; after ``--``, nothing changes."""
    args = list(argv)
    options = VARIADIC.get(args[0]) if args else None
    if not options:
        return args
    out, current = args[:1], None
    for i, token in enumerate(args[1:], 1):
        if token == "--":
            return out + args[i:]
        if token in options:
            current = token
            out.append(token)
        elif token.startswith("-") and token != "-":
            current = None
            out.append(token)
        elif current is not None and out[-1] != current:
            out += [current, token]
        else:
            out.append(token)
    return out


#: What :func:`parse_plain` leaves to click.
_DECLINED = object()


def _plain_value(param: Param, text: str) -> Any:
    """``text`` as click's type for ``param`` gives it back, or :data:`_DECLINED` where click
    would reject or rewrite it (a choice not written exactly; a path that exists but is of
    the wrong kind or unreadable: ``click.Path.convert``'s checks)."""
    if param.choices is not None:
        return text if text in param.choices else _DECLINED
    if param.path is None:
        return text
    try:
        st = os.stat(text)
    except OSError:
        return Path(text)  # click.Path(exists=False): a path that does not exist is taken as given
    import stat

    if (param.path == "dir" and stat.S_ISREG(st.st_mode)) or (param.path == "file" and stat.S_ISDIR(st.st_mode)) \
            or not os.access(text, os.R_OK):
        return _DECLINED
    return Path(text)


def parse_plain(argv: Sequence[str], environ: Mapping[str, str]) -> tuple[Callable[..., None], dict[str, Any]] | None:
    """``(command function, its keyword arguments)`` for a command line that click would
    parse into exactly these (``argv`` without the program name), or ``None`` to leave it to
    click: no command, an option before it, ``-h``/``--help``/``--version``, an unknown or
    combined option (``-qv``), a flag given a value, an option without its value, a value
    click would reject or rewrite (:func:`_plain_value`), no MODELS where they are required,
    a shell completion request (``_SMITHY2CFN_COMPLETE``), Windows (click expands wildcards
    there).

    What it takes, it takes as click's parser does: options anywhere among the arguments,
    ``--name=value``, an option's value taken from the next argument whatever it is,
    ``--`` ending the options, ``-`` as an argument, the last of a repeated option (all of
    a ``"values"`` one, in order), the defaults of options not given.
    """
    if not argv or "_SMITHY2CFN_COMPLETE" in environ or os.name == "nt":
        return None
    entry = COMMANDS.get(argv[0])
    if entry is None:
        return None
    function, params = entry
    by_name = {name: p for p in params for name in p.names}
    values: dict[str, Any] = {p.dest: False if p.kind == "flag" else () if p.kind in ("values", "arguments")
                              else p.default for p in params}
    arguments: list[str] = []
    rest = list(argv[1:])
    options_ended = False
    while rest:
        token = rest.pop(0)
        if options_ended or token == "-" or not token.startswith("-"):
            arguments.append(token)
            continue
        if token == "--":
            options_ended = True
            continue
        name, equals, attached = token.partition("=") if token.startswith("--") else (token, "", "")
        param = by_name.get(name)
        if param is None:
            return None
        if param.kind == "flag":
            if equals:
                return None
            values[param.dest] = True
            continue
        if not equals:
            if not rest:
                return None
            attached = rest.pop(0)
        value = _plain_value(param, attached)
        if value is _DECLINED:
            return None
        values[param.dest] = values[param.dest] + (value,) if param.kind == "values" else value
    positional = next((p for p in params if p.kind == "arguments"), None)
    if positional is None:
        return None if arguments else (function, values)
    if positional.required and not arguments and not any(values[d] for d in positional.unless):
        return None
    converted = tuple(_plain_value(positional, a) for a in arguments)
    if any(v is _DECLINED for v in converted):
        return None
    values[positional.dest] = converted
    return function, values


def _click_param(param: Param) -> Any:
    """The click parameter ``param`` declares."""
    import click

    kind: Any = None
    if param.choices is not None:
        kind = click.Choice(list(param.choices), case_sensitive=param.case_sensitive)
    elif param.path is not None:
        kind = click.Path(file_okay=param.path != "dir", dir_okay=param.path != "file", path_type=Path)
    if param.kind == "arguments":
        return click.Argument([param.dest], nargs=-1, required=param.required and not param.unless, type=kind)
    # Only what the declaration sets: click tells an argument left out from one given its
    # default value (an explicit is_flag=False makes a value optional; default=None on a flag
    # makes its value None).
    given = {"is_flag": param.kind == "flag", "multiple": param.kind == "values", "default": param.default,
             "show_default": param.show_default, "help": param.help, "metavar": param.metavar}
    return click.Option([*param.names, param.dest], type=kind, **{k: v for k, v in given.items() if v})


def _main() -> None:
    """Compile Smithy models to CloudFormation resource provider schemas."""


def _click_group() -> Any:
    """The click group of :data:`COMMANDS` (``smithy2cfn``), with ``--version`` and ``-h``."""
    import click

    class Group(click.Group):
        def main(self, args: Sequence[str] | None = None, *rest: Any, **kwargs: Any) -> Any:
            return super().main(expand_variadic(sys.argv[1:] if args is None else args), *rest, **kwargs)

    group = Group("main", callback=_main, help=_main.__doc__, context_settings={"help_option_names": ["-h", "--help"]})
    group = click.version_option(package_name="smithy2cfn")(group)
    for name, (function, params) in COMMANDS.items():
        group.add_command(click.Command(name, callback=function, params=[_click_param(p) for p in params],
                                        help=function.__doc__))
    return group


def __getattr__(name: str) -> Any:
    """``main``: the click group (:func:`_click_group`), made on first use (importing click)."""
    if name == "main":
        group = globals()["main"] = _click_group()
        return group
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _run_plain(function: Callable[..., None], params: dict[str, Any]) -> bool:
    """Run a command parsed by :func:`parse_plain` as click's standalone mode runs it
    (``click.Command.main``): an interrupt prints a blank line and ``Aborted!`` and exits 1;
    a closed pipe exits 1 (returns ``True``: :func:`run` then exits 1)."""
    try:
        function(**params)
    except (EOFError, KeyboardInterrupt):
        _echo("\nAborted!\n", err=True)
        sys.exit(1)
    except OSError as e:
        if e.errno != errno.EPIPE:
            raise
        return True
    return False


def run() -> None:
    """The ``smithy2cfn`` program (the console script and ``python -m smithy2cfn``): the
    command :func:`parse_plain` parses, or click's :data:`main`, then an exit that skips the
    interpreter's teardown.

    Freeing every module and object one by one at exit took some 20 ms of a 150 ms small
    build (issue 10: the cold start is what users feel), and nothing needs it: the command
    has closed (and synced) every file it wrote before it returns. ``atexit`` handlers still
    run and standard output and error are flushed; a flush that fails (a pipe closed by the
    reader) makes a successful exit status 120, as Python's own exit does. An exception
    other than ``SystemExit`` (a bug) leaves through Python's usual path, traceback and all,
    and so does every exit under a profiler or tracer (``python -m cProfile``, coverage),
    which writes its results after the program ends. Tests call :data:`main` through
    click's runner instead, which never exits the process.
    """
    global _KEEPING
    huge_pages.use_huge_pages()  # the program's heap on huge pages (fewer page faults: see huge_pages)
    api.share_with_helper_process()  # the program may share a large model's work with a helper process
    _KEEPING = True  # (what a command made is never freed: the exit below frees nothing)
    try:
        argv = expand_variadic(sys.argv[1:])
        plain = parse_plain(argv, os.environ)
        if plain is None:
            __getattr__("main")(argv, prog_name="smithy2cfn")  # click's standalone mode exits
            raise SystemExit(0)
        raise SystemExit(1 if _run_plain(*plain) else 0)
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
