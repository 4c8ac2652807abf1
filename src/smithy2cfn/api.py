"""The library's front door: everything the command line does, as functions.

The command line (:mod:`smithy2cfn.cli`) only parses its arguments, calls these functions,
prints the diagnostics and exits with ``result.exit_code``::

    import smithy2cfn

    result = smithy2cfn.build(["model/"], out_dir="build/cfn",
                              settings={"service": "example.weather#Weather"})
    for d in result.diagnostics:
        print(d.format_text())
    result.schemas["example-weather-forecast.json"]   # the schema, as a dict

* :func:`build` — load, validate, convert and write; :func:`build_from_config` does the
  same from ``smithy-build.json`` files (or a flat settings file) with overrides, as
  ``smithy2cfn build`` does: every projection with a ``cloudformation`` plugin, from one
  load of the sources, each written where Smithy puts it (:class:`ProjectionResult`).
* :func:`load`, :func:`validate`, :func:`convert` (its stages), :func:`validate_files`
  (``smithy2cfn validate``), :func:`json_ast`, :func:`write_json_ast` (``smithy2cfn ast``).
* Every function returns a :class:`Result` (``diagnostics``, ``ok``, ``exit_code``) holding
  its product (:class:`LoadResult`, :class:`ValidationResult`, :class:`ConvertResult`,
  :class:`BuildResult`, :class:`AstResult`), never one that failed its checks.

What the front door hands on lives elsewhere: the settings, typed and made once here
(:func:`read_settings`; :class:`smithy2cfn.settings.Settings`); reading ``smithy-build.json``
(:mod:`smithy2cfn.smithy_build`); finding extensions (:mod:`smithy2cfn.emit.discovery`:
:func:`build` and :func:`convert` run those installed unless given a list); writing files
(:mod:`smithy2cfn.writer`, whose public names are importable from here too).

Every function collects problems as :class:`~smithy2cfn.diagnostics.Diagnostic` objects and
never raises on bad input.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from smithy2cfn import garbage_collection
from smithy2cfn.diagnostics import (
    CODES,
    Code,
    Diagnostic,
    Diagnostics,
    Severity,
    Span,
    declare_codes,
    funnel,
    listed,
)
from smithy2cfn.load import load_model
from smithy2cfn.model import Model
from smithy2cfn.model.shapes import ShapeId
from smithy2cfn.model.traits import CFN_RESOURCE
from smithy2cfn.records import Record, replace
from smithy2cfn.writer import (  # the writer's public names, re-exported (README "Library")
    TEMP_FILE_RE,
    output_path,
    read_regular_file,
    render_schema,
    sweep_temp_files,
    write_artifacts,
    write_atomically,
    write_file,
    write_tree,
)

# The diagnostic codes this module reports (README "Diagnostics" lists them all).
declare_codes(
    Code("S5005", Severity.ERROR, None,
         "nothing to build: no model file or folder given and no smithy-build.json", usage=True),
    Code("S5043", Severity.ERROR, None,
         "a smithy-build.json `outputDirectory` leaves the current folder (give the folder with `-o`)",
         usage=True),
    Code("S6000", Severity.ERROR, None,
         "`--strict` (the `strict` setting): the build has warnings, so it fails and nothing is written"),
    Code("S7004", Severity.ERROR, None,
         "`diff --old-schemas/--new-schemas`: not a folder, a file that is not strict JSON, or two schemas of one "
         "typeName", usage=True),
    Code("S7005", Severity.WARNING, None,
         "`diff`: a `.json` entry of a folder of schemas is left out (no `typeName`, or not a regular file)"),
    Code("S7006", Severity.ERROR, None,
         "`diff`: the inputs are missing or mixed (give --old and --new, --base, or --old-schemas and --new-schemas)",
         usage=True),
    Code("S7007", Severity.WARNING, None,
         "`diff`: a pair of schemas is too large or too deep to compare completely (200,000 subschemas, 150 levels)"),
    Code("S7011", Severity.ERROR, None, "`explain`: no resource type or property matches --resource/--property",
         usage=True),
    Code("S7010", Severity.ERROR, None,
         "`diff`, `explain`: a build makes several projections (choose one with --projection)",
         usage=True),
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from smithy2cfn.derive.explain import ResourceExplanation
    from smithy2cfn.derive.plan import ConversionPlan
    from smithy2cfn.diff import TypeReport
    from smithy2cfn.diff.context import Side
    from smithy2cfn.emit.extensions import Extension, ExtensionMappers
    from smithy2cfn.model.jsonread import JsonText
    from smithy2cfn.settings import Settings
    from smithy2cfn.smithy_build import BuildConfig

#: Where :func:`build_from_config` writes when no output folder is given (relative to the
#: current folder), as ``smithy2cfn build`` without ``-o``.
DEFAULT_OUT_DIR = Path("build", "cloudformation")
#: The config file :func:`build_from_config` looks for when given neither a config nor models.
SMITHY_BUILD_JSON = "smithy-build.json"


def share_with_helper_process(allowed: bool = True) -> None:
    """Let this process share the work of large models (their validators, several large
    files' parsing) with one forked helper process, or not (``allowed=False``): see
    :mod:`smithy2cfn.parallel` for when it then does (Linux, a CPU to spare, no other thread
    running, ``SMITHY2CFN_JOBS`` not ``1``). The ``smithy2cfn`` program allows it; a library
    caller's process is never forked unless it calls this. Results are the same either way.
    """
    from smithy2cfn import parallel

    parallel.allow(allowed)


def is_configuration_error(diagnostic: Diagnostic) -> bool:
    """True for an error that is a usage or configuration problem (exit code 2) rather than
    a problem of the model or the output (exit code 1): an ERROR (or DANGER) whose code is
    registered with ``usage`` (:class:`smithy2cfn.diagnostics.Code`): a bad config file or
    setting (``S5000``–``S5005``), a typeName that a setting, flag, ``jsonAdd`` or
    ``schemaDocumentExtensions`` makes invalid (``S5020``, ``S5021``), a broken extension
    (``S5030``), ``smithy2cfn plugin`` outside Smithy's run plugin (``S7000``)."""
    if not diagnostic.is_error:
        return False
    entry = CODES.get(diagnostic.code)
    return entry is not None and entry.usage


class Result(Record):
    """What a library call did: its diagnostics, the exit code the command line gives them,
    and (in each subclass) its product, which is never one that failed its checks.

    Attributes:
        diagnostics: every problem found, sorted by location (duplicates removed).
    """

    diagnostics: list[Diagnostic]

    def __init__(self, diagnostics: list[Diagnostic] | None = None) -> None:
        self.diagnostics = [] if diagnostics is None else diagnostics

    @property
    def ok(self) -> bool:
        """True when no ERROR (or DANGER) diagnostic was reported."""
        return not any(d.is_error for d in self.diagnostics)

    @property
    def exit_code(self) -> int:
        """``0`` success; ``2`` a usage or configuration error
        (:func:`is_configuration_error`); ``1`` any other failure (the model, or the output:
        a file that cannot be written, or is out of date in check mode)."""
        if self.ok:
            return 0
        return 2 if any(is_configuration_error(d) for d in self.diagnostics) else 1


class LoadResult(Result, hidden=("collector",)):
    """What :func:`load` read.

    Attributes:
        model: the loaded model (partial when loading found errors: a model is needed to
            report validation events about what did load).
        diagnostics: the loading problems, sorted by location.

    For code written against earlier versions, where ``load`` returned a pair, a result
    unpacks as ``model, diags = smithy2cfn.load(paths)``: ``diags`` is the
    :class:`~smithy2cfn.diagnostics.Diagnostics` collector (the one passed in, if any),
    to which ``validate(model, diags)`` adds.
    """

    model: Model
    collector: Diagnostics

    def __init__(self, diagnostics: list[Diagnostic] | None = None, model: Model | None = None,
                 collector: Diagnostics | None = None) -> None:
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.model = Model() if model is None else model
        self.collector = Diagnostics() if collector is None else collector

    def __iter__(self) -> Iterator[Any]:
        """``(model, collector)``, the earlier return value of :func:`load`."""
        return iter((self.model, self.collector))

    def __getitem__(self, index: int) -> Any:
        """``(model, collector)[index]``, the earlier return value of :func:`load`."""
        return (self.model, self.collector)[index]


class ValidationResult(Result):
    """What :func:`validate` or :func:`validate_files` found.

    Attributes:
        model: the model validated (partial when loading found errors).
        diagnostics: load and validation problems, sorted by location.
    """

    model: Model

    def __init__(self, diagnostics: list[Diagnostic] | None = None, model: Model | None = None) -> None:
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.model = Model() if model is None else model


if TYPE_CHECKING:
    _Schemas = Mapping[str, dict[str, Any]]
else:  # (the same, without typing at run time)
    _Schemas = Mapping


class ConvertResult(Result, _Schemas, eq=False):
    """What :func:`convert` made.

    Attributes:
        schemas: output file name → resource schema (``dict``), sorted by file name;
            empty when any ERROR was reported (a bad setting, an extension, a resource
            that cannot be converted or whose schema fails the meta-schema or the lint
            rules' errors): a result never holds a schema that failed its checks.
        diagnostics: the conversion's problems (with the ones of the ``diags`` collector
            passed in, if any), sorted by location.

    For code written against earlier versions, where ``convert`` returned the schemas, a
    result is also the read-only mapping of its :attr:`schemas` (``result[name]``,
    ``for name in result``, ``result == {}``).
    """

    schemas: dict[str, dict[str, Any]]

    def __init__(self, diagnostics: list[Diagnostic] | None = None,
                 schemas: dict[str, dict[str, Any]] | None = None) -> None:
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.schemas = {} if schemas is None else schemas

    def __getitem__(self, name: str) -> dict[str, Any]:
        return self.schemas[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.schemas)

    def __len__(self) -> int:
        return len(self.schemas)

    def __eq__(self, other: object) -> bool:
        """Equal to another result with the same diagnostics and schemas, and (the earlier
        return value) to a mapping holding the same schemas."""
        if isinstance(other, ConvertResult):
            return (self.diagnostics, self.schemas) == (other.diagnostics, other.schemas)
        if isinstance(other, Mapping):
            return self.schemas == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dict it stands for


class BuildResult(Result):
    """What :func:`build` (or :func:`build_from_config`) did.

    Attributes:
        schemas: output file → resource schema (``dict``), empty when the build failed;
            keyed by file name, or, when several projections (or plugins) were built, by
            path relative to ``out_dir`` (``"<projection>/<artifact>/<file>"``).
        written: the output files now in place (files that already held the same bytes are
            left untouched); empty in check mode or when the build failed.
        stale: in check mode, output files that are missing or differ from what the build makes.
        diagnostics: every problem found, sorted by location.
        out_dir: the output folder (``None``: nothing was to be written): the schemas'
            folder, or the folder holding each ``<projection>/<artifact>/`` when several
            were built.
        check: the build compared with ``out_dir`` instead of writing.
        projections: what each projection's ``cloudformation`` plugin made
            (:class:`ProjectionResult`), in projection name order; :func:`build` makes one,
            ``source``.
    """

    schemas: dict[str, dict[str, Any]]
    written: list[Path]
    stale: list[Path]
    out_dir: Path | None
    check: bool
    projections: list[ProjectionResult]

    def __init__(self, diagnostics: list[Diagnostic] | None = None,
                 schemas: dict[str, dict[str, Any]] | None = None, written: list[Path] | None = None,
                 stale: list[Path] | None = None, out_dir: Path | None = None, check: bool = False,
                 projections: list[ProjectionResult] | None = None) -> None:
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.schemas = {} if schemas is None else schemas
        self.written = [] if written is None else written
        self.stale = [] if stale is None else stale
        self.out_dir = out_dir
        self.check = check
        self.projections = [] if projections is None else projections

    @property
    def ok(self) -> bool:
        """True when no ERROR diagnostic was reported (and, in check mode, nothing is stale)."""
        return super().ok and not self.stale

    def projection(self, name: str, artifact: str = "cloudformation") -> ProjectionResult | None:
        """The result of projection ``name``'s plugin ``artifact``, or ``None`` when not built."""
        return next((p for p in self.projections if (p.name, p.artifact) == (name, artifact)), None)


class AstResult(Result):
    """What :func:`write_json_ast` did.

    Attributes:
        text: the model as Smithy JSON AST (:func:`json_ast`); ``None`` when it failed.
        written: the file written (``None`` when none was asked for, or on failure).
        diagnostics: load errors and ``S5011`` (cannot write), sorted by location.
    """

    text: str | None
    written: Path | None

    def __init__(self, diagnostics: list[Diagnostic] | None = None, text: str | None = None,
                 written: Path | None = None) -> None:
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.text = text
        self.written = written


def _paths(paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str]) -> list[str]:
    if isinstance(paths, (str, os.PathLike)):  # one path, not the characters of its name
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths]


def load(paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str],
         diags: Diagnostics | None = None, *, allow_unknown_traits: bool = False) -> LoadResult:
    """Load model files/directories (IDL 1.0/2.0, JSON AST) with the prelude into a Model
    (:func:`smithy2cfn.load.load_model`).

    Args:
        paths: model files or folders (one path, or several).
        diags: a collector the loading problems are added to as well (the earlier form:
            ``load(paths, diags)``); default a new one.
        allow_unknown_traits: an applied trait that no loaded shape defines is a warning,
            the trait kept as is, instead of error ``S2010`` (the Smithy CLI's
            ``--allow-unknown-traits``).

    Returns:
        A :class:`LoadResult`: ``model`` (partial when there are errors) and
        ``diagnostics`` (with what ``diags`` held before). Never raises on bad input.

    In a process that shares its work (:func:`share_with_helper_process`), while a helper
    process reads a large model this one imports what validation and conversion need.
    """
    collected = diags if diags is not None else Diagnostics()
    model = load_model(_paths(paths), collected, allow_unknown_traits=allow_unknown_traits,
                       meanwhile=_prepare_stages)
    return LoadResult(diagnostics=collected.sorted(), model=model, collector=collected)


def _prepare_stages(packages: frozenset[str]) -> None:
    """Import what validation (the validators of ``packages``, the trait packages the model
    loads), derive, emit and lint will need: the ``meanwhile`` of
    :func:`~smithy2cfn.load.load_model` for a build or a validation, done while a helper
    process reads a large model (:mod:`smithy2cfn.parallel`; issue 15, "Cold start")."""
    from smithy2cfn.validation import import_validators

    import_validators(packages)
    _prepare_conversion(packages)


def _prepare_conversion(packages: frozenset[str] | None) -> None:
    """Import derive, and emit and lint when the model loads the ``aws.cloudformation``
    package (without it, no resource has ``@cfnResource`` and no schema is emitted;
    ``packages`` ``None``: every package, as :attr:`Model.packages` says): the
    ``meanwhile`` of a build's validation, done while a helper process starts on the
    validators (when they were not imported already)."""
    import smithy2cfn.derive.plan  # noqa: F401

    if packages is None or ShapeId.namespace(CFN_RESOURCE) in packages:
        import smithy2cfn.emit.converter
        import smithy2cfn.lint  # noqa: F401


def validate(model: Model | LoadResult, diags: Diagnostics | None = None) -> ValidationResult:
    """Run the semantic model checks of :mod:`smithy2cfn.validation` (Smithy 2.0 "Model
    validation"; :func:`smithy2cfn.validation.run_validators`, which keeps the cyclic
    garbage collector off the loaded model while the validators run).

    Args:
        model: a :class:`LoadResult` (its loading events count: when they hold an error of
            the loader itself, nothing is validated, as in the reference), or a model.
        diags: the earlier form, ``validate(model, diags)``: the collector holding the
            loading events, to which the validation events are added.

    Returns:
        A :class:`ValidationResult`: the model, and the loading and validation events,
        sorted. Never raises on a loaded model.
    """
    from smithy2cfn.validation import run_validators

    if isinstance(model, LoadResult):
        # the loading events as reported, before the funnel's cap (suppressions apply first)
        events = model.collector.items or model.diagnostics
        collected = diags if diags is not None else Diagnostics(list(events))
        model = model.model
    else:
        collected = diags if diags is not None else Diagnostics()
    run_validators(model, collected)
    return ValidationResult(diagnostics=collected.sorted(), model=model)


def validate_files(paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str], *,
                   allow_unknown_traits: bool = False) -> ValidationResult:
    """Load ``paths`` and validate the model (what ``smithy2cfn validate`` does):
    ``validate(load(paths))``. As in the reference, a model whose loading failed is not
    validated, but loading events that are validators' events in the reference
    (``Target``...) do not stop validation (:func:`smithy2cfn.validation.run_validators`).

    ``allow_unknown_traits``: see :func:`load`.

    Returns:
        A :class:`ValidationResult`; ``exit_code`` 1 when there are errors. Never raises
        on bad input.
    """
    from smithy2cfn.load import read_model_files

    collected = Diagnostics()
    model = _load_and_validate(read_model_files(_paths(paths), collected), collected,
                               allow_unknown_traits=allow_unknown_traits)
    return ValidationResult(diagnostics=collected.sorted(), model=model)


def _load_and_validate(sources: list[tuple[str, str]], diags: Diagnostics, *, allow_unknown_traits: bool = False,
                       suppressed: list[Diagnostic] | None = None) -> Model:
    """Load the model of ``sources`` (``(path, text)``: :func:`smithy2cfn.load.read_model_files`
    or in-memory sources, as :func:`smithy2cfn.load.load_texts` takes them) and validate it,
    adding to ``diags``: ``load`` then ``validate``, what every build and ``smithy2cfn
    validate`` do (``suppressed`` as :func:`smithy2cfn.validation.run_validators` takes it).
    In a process that shares its work (:func:`share_with_helper_process`), a large model is
    loaded by a helper process too, which then takes validators
    (:func:`smithy2cfn.validation.start_helper`). Returns the model, partial when loading
    failed. Never raises on bad input."""
    from smithy2cfn.load import load_texts
    from smithy2cfn.validation import run_validators, start_helper

    helper = start_helper(sources, allow_unknown_traits=allow_unknown_traits)
    try:
        model = load_texts(sources, diags, allow_unknown_traits=allow_unknown_traits, meanwhile=_prepare_stages,
                           packages=helper.told if helper is not None else None)
        run_validators(model, diags, suppressed=suppressed, meanwhile=lambda: _prepare_conversion(model.packages),
                       helper=helper)
    finally:
        if helper is not None:
            helper.close()  # (nothing when the validators took it)
    return model


# ---------------------------------------------------------------- convert


def convert(model: Model, settings: Settings | Mapping[str, Any] | None = None,
            diags: Diagnostics | None = None, settings_source: str | None = None, *,
            setting_spans: Mapping[str, Span] | None = None,
            extensions: Sequence[Extension | type] | None = None) -> ConvertResult:
    """Convert every ``cfnResource`` of the configured service into a resource schema: plan
    (:func:`smithy2cfn.derive.derive_plan`), emit (:func:`smithy2cfn.emit.emit_schemas`)
    and, in the default compatibility mode, lint (:func:`smithy2cfn.lint.lint_schemas`).

    Args:
        model: a loaded model without errors (see :func:`validate`).
        settings: the ``cloudformation`` plugin settings: a :class:`~smithy2cfn.settings.Settings`,
            or a mapping of setting names to values (``service``, ``organizationName``...)
            checked here (:meth:`Settings.from_mapping <smithy2cfn.settings.Settings.from_mapping>`);
            ``None``: the defaults.
        diags: the earlier form, ``convert(model, settings, diags)``: a collector (holding
            the loading and validation events) to which the conversion's are added; when it
            already holds an error, nothing is converted.
        settings_source: for a mapping, where it came from (a file path, or e.g.
            ``"<command line>"``; default ``"<settings>"``); configuration diagnostics
            point there.
        setting_spans: for a mapping, setting name → where it was given: the key in a
            config file, or ``Span("<command line --org>")`` for a flag. A setting of the
            wrong type, and a ``typeName`` part or value that a setting makes invalid
            (``S5020``/``S5021``), are located there.
        extensions: extensions whose mappers join the chain (see
            :func:`smithy2cfn.emit.discovery.resolve_extensions`); ``None`` runs every
            installed one, ``[]`` none.

    Returns:
        A :class:`ConvertResult`: the conversion problems — settings (``S5001``), an
        extension (``S5030``), the conversion (``S4xxx``, ``S5020``–``S5023``), the
        meta-schema check of every schema and the lint findings (``S6001``–``S6206``,
        located in the model; suppressions apply) — and the schemas, output file name →
        schema, only when none of them is an error. File names come from each schema's
        final ``typeName``, which must match the CloudFormation meta-schema pattern (see
        :mod:`smithy2cfn.derive.typename`). Never raises on bad input.
    """
    from smithy2cfn.emit.discovery import resolve_extensions

    collected = diags if diags is not None else Diagnostics()
    failed_before = collected.has_errors
    found = Diagnostics()
    mappers = resolve_extensions(extensions, found)
    config = _settings(settings, settings_source, setting_spans, found)
    schemas: dict[str, dict[str, Any]] = {}
    if not found.has_errors and not failed_before:
        schemas, _ = _convert(model, config, mappers, found)
    collected.extend(found)
    return ConvertResult(diagnostics=collected.sorted(), schemas={} if found.has_errors else schemas)


def _settings(settings: Settings | Mapping[str, Any] | None, settings_source: str | None,
              setting_spans: Mapping[str, Span] | None, diags: Diagnostics) -> Settings:
    """The typed settings of a library call: ``settings`` itself when typed already, else
    the mapping checked (problems into ``diags``, located by ``setting_spans`` or at
    ``settings_source``)."""
    from smithy2cfn.settings import Settings

    if isinstance(settings, Settings):
        return settings
    source = Span(settings_source if settings_source is not None else "<settings>")
    return Settings.from_mapping({} if settings is None else settings, diags, spans=setting_spans, source=source)


def _convert(model: Model, settings: Settings, mappers: ExtensionMappers,
             diags: Diagnostics, *, lint: bool = True) -> tuple[dict[str, dict[str, Any]], ConversionPlan | None]:
    """Plan, emit and (in the default mode, unless ``lint`` is false) lint; see
    :func:`convert`. Returns the schemas and the plan (``None`` when none was made)."""
    from smithy2cfn.derive.plan import derive_plan

    with garbage_collection.paused():
        plan = derive_plan(model, settings, diags)
        if plan is None:
            return {}, None
        if not plan.resources:  # (emit_schemas writes nothing then: the emit stage is not imported)
            return {}, plan
        from smithy2cfn.emit import emit_schemas

        schemas = emit_schemas(model, plan, diags, list(mappers.cfn), tuple(mappers.json_schema))
        if lint and settings.registry_ready and schemas:
            from smithy2cfn.lint import lint_schemas

            diags.extend(lint_schemas(model, plan, schemas))
        return schemas, plan


def build(
    paths: Iterable[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str] | None,
    settings: Settings | Mapping[str, Any] | None = None,
    *,
    check: bool = False,
    settings_source: str | None = None,
    setting_spans: Mapping[str, Span] | None = None,
    extensions: Sequence[Extension | type] | None = None,
    strict: bool | None = None,
    sources: Iterable[tuple[str, str]] = (),
    allow_unknown_traits: bool = False,
) -> BuildResult:
    """Load, validate, convert and (unless the build fails) write the resource schemas.

    Args:
        paths: model files or directories.
        out_dir: folder for the schema files; ``None`` converts without writing.
        settings: ``cloudformation`` plugin settings (see README "Settings"): a
            :class:`~smithy2cfn.settings.Settings`, or a mapping checked here (see
            :func:`convert`). When they have errors (``S5001``), nothing is loaded.
        check: compare with the files in ``out_dir`` instead of writing; differing or
            missing files are listed in ``BuildResult.stale``.
        settings_source: where a ``settings`` mapping came from, for diagnostics (see
            :func:`convert`).
        setting_spans: setting name → where it was given (see :func:`convert`).
        extensions: extensions whose mappers join the chain; ``None`` (the default) runs
            every extension installed in the environment, ``[]`` none (see
            :func:`smithy2cfn.emit.discovery.resolve_extensions`). They are loaded first, so
            that a broken one
            (``S5030``) is reported together with the model's problems.
        strict: fail the build on warnings (error ``S6000``, exit code 1, nothing written);
            ``None`` (the default) takes the ``strict`` setting (default ``False``).
        sources: in-memory models ``(name, text)`` loaded instead of ``paths`` when given
            (a name ending in ``.json`` is a JSON AST, anything else IDL; the name is where
            diagnostics point), e.g. ``[("<stdin>.json", text)]`` (``smithy2cfn plugin``).
        allow_unknown_traits: see :func:`load`.

    Returns:
        A :class:`BuildResult` (``exit_code`` 0, 1 or 2). Nothing is written when any ERROR
        diagnostic is reported; every file written or read is a plain name inside
        ``out_dir`` (``S5024`` otherwise); each file is replaced atomically
        (:func:`write_atomically`), and the temporary files a killed earlier build left in
        ``out_dir`` are deleted first.
    """
    diags = Diagnostics()
    result = BuildResult(out_dir=None if out_dir is None else Path(out_dir), check=check)
    config = _settings(settings, settings_source, setting_spans, diags)
    if strict is not None:
        config = replace(config, strict=strict)
    configured = not diags.has_errors
    from smithy2cfn.emit.discovery import resolve_extensions

    mappers = resolve_extensions(extensions, diags)
    if out_dir is not None and not check:
        sweep_temp_files(Path(out_dir))
    if not configured:
        result.diagnostics = diags.sorted()
        return result
    from smithy2cfn.load import read_model_files

    sources = list(sources)
    model = _load_and_validate(sources or read_model_files(_paths(paths), diags), diags,
                               allow_unknown_traits=allow_unknown_traits)
    if not diags.has_errors:
        schemas, _ = _convert(model, config, mappers, diags)
        if not diags.has_errors:
            _strict_check(diags, config)
        if not diags.has_errors:
            result.schemas = schemas
    if result.schemas and out_dir is not None:
        rendered = {name: render_schema(schema) for name, schema in result.schemas.items()}
        output = write_artifacts(out_dir, rendered, check=check,
                                 hint="a schema file is named after its typeName; check custom mappers")
        result.written, result.stale = output.written, output.stale
        diags.extend(output.diagnostics)
    result.projections = [ProjectionResult("source", out_dir=result.out_dir, schemas=result.schemas,
                                           written=result.written, stale=result.stale, model=model)]
    result.diagnostics = diags.sorted()
    return result


def _strict_check(diags: Diagnostics, settings: Settings) -> None:
    """``--strict`` (the ``strict`` setting): error ``S6000``, located where ``strict`` was
    set, when the build has warnings."""
    if not settings.strict:
        return
    warnings = [d for d in diags.items if d.severity is Severity.WARNING]
    if not warnings:
        return
    codes = sorted({d.code for d in warnings})
    diags.error("S6000", f"strict: the build has {len(warnings)} warning(s) ({', '.join(codes[:8])}"
                         f"{', ...' if len(codes) > 8 else ''}), so it fails and nothing is written",
                settings.where("strict"),
                hint="fix the warnings (each names the trait to change), suppress the ones you accept "
                     "(@suppress or metadata suppressions), or build without --strict")


class _Default:
    """The type of :data:`SMITHY_LAYOUT`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "SMITHY_LAYOUT"


#: :func:`build_from_config`'s default output: where Smithy puts it for a ``smithy-build.json``
#: (``<outputDirectory, default build/smithy>/<projection>/<artifact>/``), else
#: :data:`DEFAULT_OUT_DIR`.
SMITHY_LAYOUT = _Default()


class ProjectionResult(Record):
    """What one projection's ``cloudformation`` plugin made (in :attr:`BuildResult.projections`).

    Attributes:
        name: the projection (``"source"`` for a build without a ``smithy-build.json``).
        artifact: the plugin's artifact name (``"cloudformation"``, or ``ARTIFACT`` of
            ``cloudformation::ARTIFACT``): its folder under the projection's.
        out_dir: where its files go (``None``: nothing was to be written).
        schemas: output file name → schema; empty when the build failed.
        written: its files now in place; stale: in check mode, its files out of date.
        model: the projected model it was converted from (``None`` when it could not be made).
        plan: the conversion plan its schemas were emitted from (``None`` when none was made).
    """

    name: str
    artifact: str
    out_dir: Path | None
    schemas: dict[str, dict[str, Any]]
    written: list[Path]
    stale: list[Path]
    model: Model | None
    plan: ConversionPlan | None

    def __init__(self, name: str, artifact: str = "cloudformation", out_dir: Path | None = None,
                 schemas: dict[str, dict[str, Any]] | None = None, written: list[Path] | None = None,
                 stale: list[Path] | None = None, model: Model | None = None,
                 plan: ConversionPlan | None = None) -> None:
        self.name, self.artifact, self.out_dir, self.model, self.plan = name, artifact, out_dir, model, plan
        self.schemas = {} if schemas is None else schemas
        self.written = [] if written is None else written
        self.stale = [] if stale is None else stale


def _config_paths(config: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None) -> list[str]:
    if config is None:
        return []
    return _paths(config)


def _projected_model(config: BuildConfig, name: str, base: Model, sources: list[str], diags: Diagnostics, *,
                     allow_unknown_traits: bool, base_suppressed: list[Diagnostic] | None = None,
                     validate: bool = True) -> Model:
    """The model of projection ``name`` (``SmithyBuildImpl.applyProjection``): ``base`` (loaded
    from ``sources`` and validated), with the projection's own ``imports`` (``sources`` and
    them loaded again) and its transforms applied (:func:`smithy2cfn.transform.apply_transforms`),
    validated again when either changed it. ``base_suppressed``: the events validating ``base``
    suppressed (``filterSuppressions``' ``removeUnused`` reads them; ``None``: found when
    needed). Problems go to ``diags``; ``base`` is not changed."""
    from smithy2cfn.validation import run_validators, suppressed_events

    projection = config.projections[name]
    model = base
    suppressed: list[Diagnostic] | None = base_suppressed if validate else None
    if projection.imports:
        model = load_model([*sources, *projection.imports], diags, allow_unknown_traits=allow_unknown_traits,
                           spans=config.path_spans, meanwhile=_prepare_stages)
        suppressed = None
        if validate and not diags.has_errors:
            suppressed = []
            run_validators(model, diags, suppressed=suppressed)
    if projection.transforms and not diags.has_errors:
        from smithy2cfn.transform import apply_transforms

        loaded = model
        transformed = apply_transforms(model, projection.transforms, diags,
                                       projections=config.transforms_by_projection(), projection=name,
                                       suppressed=suppressed if suppressed is not None
                                       else (lambda: suppressed_events(loaded)))
        # the same model back (the transforms changed nothing): its events are known
        if validate and not diags.has_errors and transformed is not model:
            run_validators(transformed, diags)
        model = transformed
    return model


def _out_dirs(config: BuildConfig, jobs: list[tuple[str, str]], out_dir: Any) -> tuple[Path | None, list[Path | None]]:
    """``(the result's out_dir, each job's folder)``: see :func:`build_from_config`'s ``out_dir``."""
    if out_dir is None:
        return None, [None] * len(jobs)
    if not config.smithy_build:
        folder = DEFAULT_OUT_DIR if isinstance(out_dir, _Default) else Path(out_dir)
        return folder, [folder] * len(jobs)
    if not isinstance(out_dir, _Default) and len(jobs) == 1:
        return Path(out_dir), [Path(out_dir)]
    from smithy2cfn.smithy_build import DEFAULT_OUTPUT_DIRECTORY

    root = Path(out_dir) if not isinstance(out_dir, _Default) else \
        Path(config.output_directory) if config.output_directory is not None else DEFAULT_OUTPUT_DIRECTORY
    folders: list[Path | None] = [root / name / artifact for name, artifact in jobs]
    return (folders[0] if len(jobs) == 1 else root), folders


def _inside_current_folder(path: str) -> bool:
    """Whether ``path`` (relative to the current folder, or absolute) is the current folder or
    below it, ``..`` and symbolic links resolved as far as they exist."""
    here = os.path.realpath(".")
    there = os.path.realpath(path)
    return os.path.commonpath([here, there]) == here


def build_from_config(
    config: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None,
    models: Iterable[str | os.PathLike[str]] = (),
    *,
    project_dir: str | os.PathLike[str] = ".",
    out_dir: str | os.PathLike[str] | _Default | None = SMITHY_LAYOUT,
    overrides: Mapping[str, Any] | None = None,
    override_spans: Mapping[str, Span] | None = None,
    check: bool = False,
    extensions: Sequence[Extension | type] | None = None,
    allow_unknown_traits: bool = False,
    projection: str | None = None,
    environ: Mapping[str, str] | None = None,
    lint: bool = True,
    cfn_project: str | os.PathLike[str] | None = None,
) -> BuildResult:
    """Build as ``smithy2cfn build`` does: from config files, models, and overrides; every
    projection of a ``smithy-build.json`` that has a ``cloudformation`` plugin, as
    ``smithy build`` runs them (reference ``SmithyBuildImpl``).

    Args:
        config: a ``smithy-build.json``, several merged in order (``--config a --config b``,
            as ``smithy build -c a -c b``), or one flat JSON object of settings
            (:func:`smithy2cfn.smithy_build.read_build_config`). ``None``: with no
            ``models``, ``<project_dir>/smithy-build.json`` when that file exists, else no
            settings.
        models: model files or folders, loaded with the config's sources.
        project_dir: where ``smithy-build.json`` is looked for (default: the current folder).
        out_dir: the output. :data:`SMITHY_LAYOUT` (the default): from a ``smithy-build.json``,
            ``<outputDirectory, default build/smithy>/<projection>/<artifact>/`` (relative
            to the current folder, as Smithy resolves it), else :data:`DEFAULT_OUT_DIR`
            (``build/cloudformation``). A folder: the schemas of the one projection built
            go in it, as before; when several are built, it replaces ``outputDirectory``
            (``FOLDER/<projection>/<artifact>/``, as ``smithy build --output FOLDER``).
            ``None`` writes nothing.
        overrides: settings that win over the config's in every projection, e.g.
            ``{"service": ..., "organizationName": ..., "serviceName": ...}`` (the CLI's
            ``--service``, ``--org``, ``--service-name``).
        override_spans: setting name → where each override was given, for diagnostics
            (the CLI passes ``Span("<command line --org>")``...); default
            ``Span("<override NAME>")``.
        check: compare with the output folders instead of writing (see :func:`build`).
        extensions: see :func:`build`.
        allow_unknown_traits: see :func:`load`.
        projection: build only this projection (``--projection``); ``S5042`` when it is
            unknown or abstract.
        environ: what ``${NAME}`` in a ``smithy-build.json`` reads (default ``os.environ``).
        lint: ``False`` skips the lint stage (``smithy2cfn diff`` compares schemas and does
            not judge them again).
        cfn_project: a folder holding resource-type projects (``cfn init``'s layout): the
            files of each type (its schema, ``docs/``, ``inputs/``, ``resource-role.yaml``)
            go into the project whose ``.rpdk-config`` names it, instead of ``out_dir``
            (:mod:`smithy2cfn.project.cfn_project`; ``S5050``–``S5052``).

    Returns:
        A :class:`BuildResult`: ``projections`` holds each projection built;
        ``schemas``/``written``/``stale`` hold all of them, ``schemas`` keyed by path
        relative to ``out_dir`` (the file name when one projection is built). The sources
        (with the jars of ``maven.dependencies``) are loaded and validated once; each
        projection adds its own imports and transforms, and its model is validated again.
        Nothing is written when any projection fails. When the config cannot be used
        (``S5000``, ``S5001``, ``S5040``–``S5042``), there is nothing to build (``S5005``),
        or ``overrides`` holds a bad value (``S5001``), nothing is loaded and ``exit_code``
        is 2. Never raises on bad input.
    """
    from smithy2cfn.settings import Settings
    from smithy2cfn.smithy_build import PluginConfig, read_build_config, select_projections

    diags = Diagnostics()
    model_paths = _paths(models)
    config_paths = _config_paths(config)
    if not config_paths and not model_paths:
        default = Path(project_dir) / SMITHY_BUILD_JSON
        if default.is_file():
            config_paths = [os.fspath(default)]
    file = read_build_config(config_paths, diags, environ=environ, projection=projection)
    names = select_projections(file, projection, Span("<command line --projection>"), diags) \
        if file.projections else []
    jobs: list[tuple[str, str]] = []
    settings: list[Settings] = []
    for name in names:
        plugins = file.plugins_of(name) if file.smithy_build else []
        for plugin in plugins or [PluginConfig("cloudformation", "cloudformation", file.settings, file.spans,
                                               file.source)]:
            typed = Settings.from_mapping(plugin.settings, diags, spans=plugin.spans, source=plugin.source)
            settings.append(typed.override({} if overrides is None else overrides, diags, spans=override_spans))
            jobs.append((name, plugin.artifact))
    result_dir, folders = _out_dirs(file, jobs, out_dir)
    if isinstance(out_dir, _Default) and file.output_directory is not None \
            and not _inside_current_folder(file.output_directory):
        diags.error("S5043", f"outputDirectory '{file.output_directory}' is outside the current folder",
                    file.output_directory_span,
                    hint="a smithy-build.json (from a pull request too) writes only below the folder the "
                         "build runs in; to write elsewhere, give the folder on the command line with -o")
    result = BuildResult(out_dir=result_dir, check=check)
    sources = list(file.sources)
    if file.dependencies and not diags.has_errors:
        from smithy2cfn.load.maven import resolve_dependencies

        sources += [os.fspath(p) for p in resolve_dependencies(file.dependencies, file.repositories, diags)]
    sources += model_paths
    if not diags.has_errors and not sources:
        where = os.fspath(project_dir) if not config_paths else config_paths[-1]
        diags.error("S5005", "nothing to build: no model files or folders, and no smithy-build.json "
                             "'sources' or 'imports'", Span(where),
                    hint="give model paths, a smithy-build.json with 'sources' (--config FILE), or run "
                         "in a folder holding a smithy-build.json")
    from smithy2cfn.emit.discovery import resolve_extensions

    configured = not diags.has_errors
    mappers = resolve_extensions(extensions, diags) if configured else None
    if not configured or mappers is None:
        result.diagnostics = diags.sorted()
        return result
    if not check:
        for swept in {f for f in folders if f is not None}:
            sweep_temp_files(swept)
    from smithy2cfn.load import read_model_files

    base_suppressed: list[Diagnostic] = []
    base = _load_and_validate(read_model_files(sources, diags, spans=file.path_spans), diags,
                              allow_unknown_traits=allow_unknown_traits, suppressed=base_suppressed)
    several = len(set(names)) > 1
    before = set(diags.items)
    outputs: list[ProjectionResult] = []
    found: list[tuple[Diagnostic, str]] = []
    models_of: dict[str, Model | None] = {}
    for (name, artifact), typed, folder in zip(jobs, settings, folders, strict=True):
        own = Diagnostics()
        if name not in models_of:
            projected: Model | None = None
            if not diags.has_errors:
                projected = _projected_model(file, name, base, sources, own,
                                             allow_unknown_traits=allow_unknown_traits,
                                             base_suppressed=base_suppressed)
                found += [(d, name) for d in own.items]
            models_of[name] = None if own.has_errors else projected
            own = Diagnostics()
        model = models_of[name]
        out = ProjectionResult(name, artifact, folder, model=model)
        outputs.append(out)
        if model is None or diags.has_errors:
            continue
        schemas, out.plan = _convert(model, typed, mappers, own, lint=lint)
        if not own.has_errors and typed.strict:
            everything = Diagnostics([*diags.items, *(d for d, n in found if n == name), *own.items])
            _strict_check(everything, typed)
            own.extend([d for d in everything.items if d.code == "S6000"])
        found += [(d, name) for d in own.items]
        if not own.has_errors:
            out.schemas = schemas
    diags.extend([d if not several or d in before or f"projection '{name}'" in d.message
                  else replace(d, message=f"{d.message} [projection {name}]") for d, name in found])
    result.projections = outputs
    if diags.has_errors:
        for out in outputs:
            out.schemas = {}
        result.diagnostics = funnel(diags.items)
        return result
    # (folder, relative path → text, the paths written only when absent, the paths to remove)
    plans: list[tuple[Path, dict[str, str], frozenset[str], list[str]]] = []
    if cfn_project is not None:
        plans = [(folder, files, frozenset(), remove)
                 for folder, files, remove in _cfn_project_files(cfn_project, outputs, diags)]
    else:
        for out, typed in zip(outputs, settings, strict=True):
            if out.schemas and out.out_dir is not None:
                files = {n: render_schema(s) for n, s in out.schemas.items()}
                for name, extra in _artifact_files(out, typed.artifacts, diags).items():
                    files.update({f"{Path(name).stem}/{rel}": text for rel, text in extra.items()})
                kept: frozenset[str] = frozenset()
                if typed.custom_resources and out.model is not None and out.plan is not None:
                    from smithy2cfn.custom import custom_resource_files

                    custom, kept = custom_resource_files(out.model, out.plan, out.schemas, typed, diags)
                    files.update(custom)
                plans.append((out.out_dir, files, kept, []))
    if diags.has_errors:
        for out in outputs:
            out.schemas = {}
        result.diagnostics = funnel(diags.items)
        return result
    for folder, files, kept, remove in plans:
        written = write_tree(folder, files, check=check, only_if_absent=kept, remove=remove,
                             hint="a schema file is named after its typeName; check custom mappers")
        diags.extend(written.diagnostics)
        owner = next((o for o in outputs if o.out_dir == folder), None)
        if owner is not None:
            owner.written, owner.stale = owner.written + written.written, owner.stale + written.stale
        else:
            result.written += written.written
            result.stale += written.stale
    prefix = len(jobs) > 1
    for out in outputs:
        for n, s in out.schemas.items():
            result.schemas[f"{out.name}/{out.artifact}/{n}" if prefix else n] = s
        result.written += out.written
        result.stale += out.stale
    result.diagnostics = funnel(diags.items)
    return result


def _artifact_files(out: ProjectionResult, kinds: Iterable[str], diags: Diagnostics) -> dict[str, dict[str, str]]:
    """The project files besides the schema (``docs``, ``inputs``, ``role``: see
    :data:`smithy2cfn.settings.ARTIFACTS`) of each schema of ``out``: schema file name →
    relative path → text. Problems (an ``@examples`` entry that does not fit...) go to ``diags``."""
    wanted = set(kinds)
    files: dict[str, dict[str, str]] = {name: {} for name in out.schemas}
    if not wanted or out.model is None or out.plan is None:
        return files
    if "docs" in wanted:
        from smithy2cfn.docs import render_docs

        for name, extra in render_docs(out.model, out.plan, out.schemas).items():
            files.setdefault(name, {}).update(extra)
    if "inputs" in wanted:
        from smithy2cfn.contract import contract_inputs

        for name, extra in contract_inputs(out.model, out.plan, out.schemas, diags).items():
            files.setdefault(name, {}).update(extra)
    if "role" in wanted:
        from smithy2cfn.project.role import ROLE_FILE, resource_role

        for name, schema in out.schemas.items():
            role = resource_role(schema)
            if role is not None:
                files.setdefault(name, {})[ROLE_FILE] = role
    return files


def _cfn_project_files(root: str | os.PathLike[str], outputs: list[ProjectionResult],
                       diags: Diagnostics) -> list[tuple[Path, dict[str, str], list[str]]]:
    """``build --cfn-project DIR``: for each schema whose ``typeName`` a project under ``root``
    has (:func:`smithy2cfn.project.cfn_project.find_projects`), that project's folder and its
    files: the schema, ``docs/``, ``inputs/``, ``resource-role.yaml`` and the manifest, and
    the files to remove (:func:`~smithy2cfn.project.cfn_project.project_files`)."""
    from smithy2cfn.project.cfn_project import find_projects, project_files
    from smithy2cfn.settings import ARTIFACTS

    projects = find_projects(root, diags)
    if diags.has_errors:
        return []
    plans: list[tuple[Path, dict[str, str], list[str]]] = []
    for out in outputs:
        extras = _artifact_files(out, ARTIFACTS, diags)
        for name, schema in sorted(out.schemas.items()):
            type_name = schema.get("typeName")
            folder = projects.get(type_name) if isinstance(type_name, str) else None
            if folder is None:
                diags.warning("S5051", f"no project under {root} has typeName {type_name}: its files are not written",
                              Span(os.fspath(root)), hint="make one with cfn init, or give the folder above it")
                continue
            files = {name: render_schema(schema), **extras.get(name, {})}
            plans.append((folder, *project_files(folder, str(type_name), files, diags)))
    return plans


def read_settings(config: str | os.PathLike[str] | None, overrides: Mapping[str, Any] | None = None,
                  override_spans: Mapping[str, Span] | None = None,
                  diags: Diagnostics | None = None, *, projection: str | None = None) -> tuple[Settings, list[str]]:
    """The settings of a build, made once: a config file's ``cloudformation`` settings with
    the command line's (or a caller's) overrides winning over them, each checked and
    located (as ``smithy2cfn build`` and ``smithy2cfn plugin`` make them).

    Args:
        config: a ``smithy-build.json`` or a flat settings file
            (:func:`smithy2cfn.smithy_build.read_config_file`), or ``None`` (no file: the
            settings come from ``<command line>``).
        overrides: setting name → value (``--service``, ``--org``...).
        override_spans: setting name → where each override was given
            (``Span("<command line --org>")``); default ``Span("<override NAME>")``.
        diags: receives the file's problems (``S5000``–``S5003``, ``S5040``, ``S5041``) and the settings'
            (``S5001``, ``S5002``, see :meth:`Settings.from_mapping
            <smithy2cfn.settings.Settings.from_mapping>`); ``S5001`` at ``<overrides>`` when
            ``overrides`` is no mapping of setting names.
        projection: for a ``smithy-build.json``, the projection whose ``cloudformation``
            plugin gives the settings (default: the one that has one; ``source`` for a
            top-level plugin), e.g. the run plugin's ``SMITHY_PROJECTION_NAME``.

    Returns:
        ``(settings, sources)``: the typed settings, and the model paths the config file
        names (``sources``/``imports``, made relative to the current folder). Never
        raises on bad input.
    """
    from smithy2cfn.settings import Settings

    diags = diags if diags is not None else Diagnostics()
    if config is None:
        settings, sources = Settings(source=Span("<command line>")), []
    else:
        from smithy2cfn.smithy_build import read_config_file

        file = read_config_file(Path(config), diags, projection=projection)
        settings = Settings.from_mapping(file.settings, diags, spans=file.spans, source=Span(os.fspath(config)))
        sources = list(file.sources)
    return settings.override({} if overrides is None else overrides, diags, spans=override_spans), sources


# ---------------------------------------------------------------- JSON AST


def json_ast(model: Model, diags: Diagnostics) -> str | None:
    """The model as Smithy JSON AST text (prelude left out, keys sorted, 2-space indent,
    trailing newline; :func:`smithy2cfn.model.json_ast.model_to_json_ast`).

    Returns ``None`` after error ``S5011`` when the model cannot be written as strict JSON
    (a NaN or infinity, which the readers never make). Never raises on a loaded model.
    """
    from smithy2cfn.model.json_ast import model_to_json_ast, render_json_ast

    try:
        return render_json_ast(model_to_json_ast(model))
    except ValueError as e:
        diags.error("S5011", f"the model cannot be written as JSON: {e}")
        return None


def write_json_ast(models: Model | Iterable[str | os.PathLike[str]] | str | os.PathLike[str],
                   out_file: str | os.PathLike[str] | None = None, *,
                   allow_unknown_traits: bool = False,
                   config: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None,
                   projection: str | None = None, project_dir: str | os.PathLike[str] = ".",
                   environ: Mapping[str, str] | None = None) -> AstResult:
    """Load ``models`` (or take a loaded :class:`Model`) and give it as Smithy JSON AST
    (what ``smithy2cfn ast`` does).

    Args:
        models: model files or folders, or a loaded model.
        out_file: the file to write (atomically, :func:`write_atomically`); ``None``
            writes nothing: the text is in ``AstResult.text``.
        allow_unknown_traits: see :func:`load`.
        config, projection: with either, the model of a projection of ``smithy-build.json``
            files (``config``, merged in order; default ``<project_dir>/smithy-build.json``):
            their sources and imports (and the maven jars) loaded with ``models``, the
            projection's imports added and its transforms applied
            (``smithy2cfn ast --projection NAME``; default ``source``). An unknown or
            abstract projection is ``S5042``.
        project_dir, environ: see :func:`build_from_config`.

    Returns:
        An :class:`AstResult`: ``text`` is ``None`` when loading (or a transform) found
        errors, or the model is not strict JSON (``S5011``); ``written`` is ``out_file``
        once written; ``S5011`` (located at ``out_file``) when it is a folder or cannot be
        written. Never raises on bad input.
    """
    diags = Diagnostics()
    if config is not None or projection is not None:
        model = _projection_model(models, config, projection, project_dir, environ, diags, allow_unknown_traits)
    else:
        model = models if isinstance(models, Model) else load_model(_paths(models), diags,
                                                                     allow_unknown_traits=allow_unknown_traits)
    result = AstResult()
    text = None if diags.has_errors or model is None else json_ast(model, diags)
    if text is not None and out_file is not None:
        written = write_file(out_file, text, hint="give -o a file path in a folder you can write")
        diags.extend(written.diagnostics)
        result.written = written.written[0] if written.written else None
    result.text = text
    result.diagnostics = diags.sorted()
    return result


def _projection_model(models: Any, config: Any, projection: str | None, project_dir: Any,
                      environ: Mapping[str, str] | None, diags: Diagnostics, allow_unknown_traits: bool) -> Model | None:
    """The model of one projection of a smithy-build.json (see :func:`write_json_ast`);
    ``models`` a loaded model: that model in place of the files' sources (a projection's own
    imports are then loaded alone)."""
    from smithy2cfn.smithy_build import SOURCE_PROJECTION, read_build_config

    paths = _config_paths(config)
    if not paths:
        paths = [os.fspath(Path(project_dir) / SMITHY_BUILD_JSON)]
    name = SOURCE_PROJECTION if projection is None else projection
    file = read_build_config(paths, diags, environ=environ, projection=name)
    found = file.projections.get(name)
    if found is None or found.abstract:
        if not diags.has_errors:
            buildable = [n for n, p in file.projections.items() if not p.abstract]
            diags.error("S5042", f"no projection named '{name}'" if found is None else
                        f"projection '{name}' is abstract: it is only applied by other projections",
                        Span("<command line --projection>"), hint=f"the projections: {', '.join(buildable)}")
        return None
    sources = list(file.sources)
    if file.dependencies and not diags.has_errors and not isinstance(models, Model):
        from smithy2cfn.load.maven import resolve_dependencies

        sources += [os.fspath(p) for p in resolve_dependencies(file.dependencies, file.repositories, diags)]
    if diags.has_errors:
        return None
    if isinstance(models, Model):
        base, sources = models, []
    else:
        sources += _paths(models)
        base = load_model(sources, diags, allow_unknown_traits=allow_unknown_traits, spans=file.path_spans)
    if diags.has_errors:
        return None
    model = _projected_model(file, name, base, sources, diags, allow_unknown_traits=allow_unknown_traits,
                             validate=False)
    return None if diags.has_errors else model


# ---------------------------------------------------------------- diff


#: ``--fail-on`` levels: the lowest verdict that makes :class:`DiffResult` exit 1.
FAIL_ON = {"breaking": "major", "minor": "minor", "never": None}


class DiffResult(Result):
    """What :func:`diff` found.

    Attributes:
        diagnostics: the problems of building either side (located there, the old side's
            as ``REV:path`` for ``base``), usage and configuration errors, then every
            finding (see ``types``), sorted.
        old / new: the two sides (``None`` when one could not be built).
        types: one :class:`smithy2cfn.diff.TypeReport` per resource type of either side,
            by ``typeName``.
        verdict: the highest of the types' verdicts (``"patch"`` when there are none).
        fail_on: ``"breaking"`` (the default), ``"minor"`` or ``"never"``.
    """

    old: Side | None
    new: Side | None
    types: list[TypeReport]
    fail_on: str

    def __init__(self, diagnostics: list[Diagnostic] | None = None, old: Side | None = None, new: Side | None = None,
                 types: list[TypeReport] | None = None, fail_on: str = "breaking") -> None:
        super().__init__(diagnostics)
        self.old, self.new, self.fail_on = old, new, fail_on
        self.types = [] if types is None else types

    @property
    def verdict(self) -> str:
        """The highest verdict of :attr:`types`."""
        from smithy2cfn.diff import verdict

        return verdict(t.verdict for t in self.types)

    @property
    def exit_code(self) -> int:
        """2 for usage and configuration errors, 1 when a side failed to build or the
        verdict reaches ``fail_on`` (``breaking``: major; ``minor``: minor or major), else 0."""
        findings = {id(f.diagnostic) for t in self.types for f in t.findings}
        problems = [d for d in self.diagnostics if id(d) not in findings]
        if any(is_configuration_error(d) for d in problems):
            return 2
        if any(d.is_error for d in problems) or self.old is None or self.new is None:
            return 1
        from smithy2cfn.diff import VERDICTS

        floor = FAIL_ON.get(self.fail_on)
        return 1 if floor is not None and VERDICTS.index(self.verdict) >= VERDICTS.index(floor) else 0

    def to_json(self, keep: Callable[[Diagnostic], bool] | None = None) -> dict[str, Any]:
        """The report as one JSON document (``smithy2cfn diff --format json``): ``{"verdict",
        "old", "new", "failOn", "types": [{"typeName", "status", "verdict", "suppressed",
        "findings": [{"code", "ruleId", "severity", "level", "message", "file", "line",
        "column", "endLine", "endColumn", "side", "pointer", "eventId", "shapeId", "hint"}]}],
        "problems": [...]}``; ``keep`` selects the findings and problems shown (the verdicts
        count every finding left after suppressions)."""
        def entry(d: Diagnostic) -> dict[str, Any]:
            s = d.span
            return {"code": d.code, "severity": d.severity.label, "message": d.message,
                    "file": s.path if s else None, "line": s.line if s and s.line else None,
                    "column": s.column if s and s.line else None,
                    "endLine": s.end_line if s and s.end_line else None,
                    "endColumn": s.end_column if s and s.end_line else None,
                    "eventId": d.event_id, "shapeId": d.shape_id, "hint": d.hint}
        show = keep or (lambda d: True)
        findings = {id(f.diagnostic) for t in self.types for f in t.findings}
        return {
            "verdict": self.verdict,
            "old": self.old.name if self.old is not None else None,
            "new": self.new.name if self.new is not None else None,
            "failOn": self.fail_on,
            "types": [{"typeName": t.type_name, "status": t.status, "verdict": t.verdict, "suppressed": t.suppressed,
                       "findings": [{**entry(f.diagnostic), "ruleId": f.rule_id, "level": f.level, "side": f.side,
                                     "pointer": f.pointer} for f in t.findings if show(f.diagnostic)]}
                      for t in self.types],
            "problems": [entry(d) for d in self.diagnostics if id(d) not in findings and show(d)],
        }


def _split_build_files(paths: list[str]) -> tuple[list[str], list[str]]:
    """``(smithy-build.json files, model paths)`` of one side's paths."""
    configs = [p for p in paths if os.path.basename(p) == SMITHY_BUILD_JSON and os.path.isfile(p)]
    return configs, [p for p in paths if p not in configs]


def _one_projection(what: str, paths: list[str], config: list[str], diags: Diagnostics, *,
                    project_dir: str | os.PathLike[str] = ".", overrides: Mapping[str, Any] | None = None,
                    override_spans: Mapping[str, Span] | None = None, projection: str | None = None,
                    extensions: Sequence[Extension | type] | None = None, allow_unknown_traits: bool = False,
                    span_path: Callable[[str], str] | None = None) -> ProjectionResult | None:
    """One build in memory (:func:`build_from_config` without output and without lint) of
    ``paths`` (files, folders; a ``smithy-build.json`` among them is a config) with the
    ``config`` files: its one projection with a plan (``None`` when nothing is converted),
    as :func:`diff` and :func:`explain` read it; ``None`` after errors too. The build's
    warnings and errors go to ``diags`` (their spans as ``span_path`` shows them), its notes
    (about the schemas written) do not; several projections are error ``S7010`` (``what``
    names the build in it)."""
    configs, models = _split_build_files(paths)
    built = build_from_config([*configs, *config] or None, models, project_dir=project_dir, out_dir=None,
                              overrides=overrides, override_spans=override_spans, extensions=extensions,
                              allow_unknown_traits=allow_unknown_traits, projection=projection, lint=False)
    shown = span_path or (lambda path: path)
    diags.extend([replace(d, span=replace(d.span, path=shown(d.span.path)))
                  if d.span is not None and shown(d.span.path) != d.span.path else d
                  for d in built.diagnostics if d.severity > Severity.NOTE])
    if built.exit_code:
        return None
    outputs = [p for p in built.projections if p.plan is not None]
    if len(outputs) > 1:
        diags.error("S7010", f"{what} builds {len(outputs)} projections ({listed(p.name for p in outputs)}): "
                             "give one", Span("<command line>"), hint="choose one with --projection NAME")
        return None
    return outputs[0] if outputs else ProjectionResult("source")


def _side(label: str, name: str, paths: list[str], config: list[str], diags: Diagnostics, *,
          span_path: Callable[[str], str] | None = None, **common: Any) -> Side | None:
    """One side of a diff (:func:`_one_projection`): its schemas by ``typeName``, model and
    plan; ``None`` after errors."""
    from smithy2cfn.diff.context import Side

    out = _one_projection(f"the {label} side", paths, config, diags, span_path=span_path, **common)
    if out is None:
        return None
    schemas: dict[str, dict[str, Any]] = {}
    files: dict[str, str] = {}
    for file_name, schema in out.schemas.items():
        type_name = schema.get("typeName")
        if isinstance(type_name, str):
            schemas[type_name], files[type_name] = schema, file_name
    return Side(label, name, schemas, files, out.model, out.plan, span_path)


def _build_sources(paths: list[str], configs: list[str]) -> list[str]:
    """The sources and imports (of every projection) that the ``smithy-build.json`` files among
    ``paths`` and the ``configs`` name, as paths (``diff --base`` copies the folder holding them
    all); ``[]`` when they cannot be read (the build says why)."""
    from smithy2cfn.smithy_build import read_build_config

    found = [*_split_build_files(paths)[0], *configs]
    if not found:
        return []
    file = read_build_config(found, Diagnostics())
    return [*file.sources, *(i for p in file.projections.values() for i in p.imports)]


def _schema_side(label: str, folder: str, diags: Diagnostics) -> Side | None:
    """One side read from a folder of schema files (``*.json``, not recursive), by
    ``typeName``; ``None`` after errors (``S7004``: no folder, a file that is not a JSON
    object, two files of one ``typeName``)."""
    from smithy2cfn.diff.context import Side

    where = Span(folder)
    if not os.path.isdir(folder):
        diags.error("S7004", f"--{label}-schemas {folder} is not a folder", where,
                    hint="give the folder holding the schemas (build -o's folder, or the schemas the registry "
                         "published)")
        return None
    schemas: dict[str, dict[str, Any]] = {}
    files: dict[str, str] = {}
    texts: dict[str, JsonText] = {}
    failed = False
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not name.endswith(".json"):
            continue
        if not os.path.isfile(path) or os.path.islink(path):
            diags.warning("S7005", f"{path} is not a regular file: it is left out", Span(path))
            continue
        from smithy2cfn.load.files import MAX_FILE_BYTES, decode_utf8, read_bytes
        from smithy2cfn.model.jsonread import parse_json

        data, problem = read_bytes(path, MAX_FILE_BYTES)
        if data is None:
            diags.error(problem.code if problem is not None else "S7004",
                        f"cannot read {path}: {problem.message if problem is not None else 'unreadable'}", Span(path))
            failed = True
            continue
        text, _ = decode_utf8(data)
        parsed, bad = parse_json(text, path) if text is not None else (None, None)
        if parsed is None or bad is not None:
            why = "not UTF-8" if parsed is None else bad.message  # type: ignore[union-attr]
            where = parsed.span_at(bad.offset) if parsed is not None and bad is not None else Span(path)
            diags.error("S7004", f"{path} is not a strict JSON file: {why}", where,
                        hint="give the resource schema files only")
            failed = True
            continue
        schema = parsed.value
        type_name = schema.get("typeName") if isinstance(schema, dict) else None
        if not isinstance(type_name, str):
            diags.warning("S7005", f"{path} has no typeName: it is not a resource schema, and is left out", Span(path))
            continue
        if type_name in schemas:
            diags.error("S7004", f"{path} and {files[type_name]} both have typeName {type_name}", Span(path),
                        hint="keep one schema per type in the folder")
            failed = True
            continue
        schemas[type_name], files[type_name], texts[type_name] = schema, path, parsed
    return None if failed else Side(label, folder, schemas, files, texts=texts)


def diff(old: Iterable[str | os.PathLike[str]] = (), new: Iterable[str | os.PathLike[str]] = (), *,
         base: str | None = None, config: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None,
         old_schemas: str | os.PathLike[str] | None = None, new_schemas: str | os.PathLike[str] | None = None,
         overrides: Mapping[str, Any] | None = None, override_spans: Mapping[str, Span] | None = None,
         projection: str | None = None, fail_on: str = "breaking",
         extensions: Sequence[Extension | type] | None = None, allow_unknown_traits: bool = False) -> DiffResult:
    """What a model change does to its resource types (``smithy2cfn diff``; issue 17).

    Give one of three pairs of inputs:

    * ``old`` and ``new``: each side's models (files, folders, a ``smithy-build.json``), built
      in memory with the same ``config`` and ``overrides``;
    * ``base``: a git revision (``origin/main``, a tag): ``new`` (default: the current
      folder's ``smithy-build.json``) against the same paths at that revision of the current
      folder's repository, read from git without touching the working tree
      (:mod:`smithy2cfn.diff.git`); the old side's diagnostics point at ``REV:path``;
    * ``old_schemas`` and ``new_schemas``: two folders of schemas already built (a type whose
      old model is not at hand: the schema the registry published).

    Types are paired by ``typeName`` and compared by the diff rules
    (:func:`smithy2cfn.diff.compare_sides`), each finding located at the model element that
    caused it. ``fail_on`` (``"breaking"``, ``"minor"``, ``"never"``) decides
    :attr:`DiffResult.exit_code`.

    Returns:
        A :class:`DiffResult`. Usage errors (``S7006`` inputs missing or mixed, ``S7001``–
        ``S7003`` git, ``S7004`` schema folders) give exit code 2 and no comparison. Never
        raises on bad input.
    """
    from smithy2cfn.diff import compare_sides

    diags = Diagnostics()
    result = DiffResult(fail_on=fail_on)
    old_paths, new_paths = _paths(old), _paths(new)
    configs = _config_paths(config)
    schemas_given = old_schemas is not None or new_schemas is not None
    where = Span("<command line>")
    if fail_on not in FAIL_ON:
        diags.error("S7006", f"--fail-on {fail_on!r} is not one of {listed(FAIL_ON)}", where)
    elif schemas_given and (old_paths or new_paths or base is not None or configs):
        diags.error("S7006", "--old-schemas/--new-schemas compare schemas only: give no models, --base or --config "
                             "with them", where)
    elif schemas_given and (old_schemas is None or new_schemas is None):
        diags.error("S7006", "give both --old-schemas and --new-schemas", where)
    elif base is not None and old_paths:
        diags.error("S7006", "--base compares the current models with the same paths at REV: give no --old", where,
                    hint="use --old PATH... --new PATH... to compare two folders")
    elif base is None and not schemas_given and (not old_paths or not new_paths):
        diags.error("S7006", "nothing to compare: give --old and --new, --base REV, or --old-schemas and "
                             "--new-schemas", where,
                    hint="smithy2cfn diff --base origin/main   (the current models against main's)")
    if diags.has_errors:
        result.diagnostics = diags.sorted()
        return result
    common: dict[str, Any] = {"overrides": overrides, "override_spans": override_spans, "projection": projection,
                              "extensions": extensions, "allow_unknown_traits": allow_unknown_traits}
    if schemas_given:
        result.old = _schema_side("old", os.fspath(old_schemas), diags)  # type: ignore[arg-type]
        result.new = _schema_side("new", os.fspath(new_schemas), diags)  # type: ignore[arg-type]
    elif base is not None:
        import tempfile

        from smithy2cfn.diff.git import checkout

        default = [SMITHY_BUILD_JSON] if not new_paths and not configs and os.path.isfile(SMITHY_BUILD_JSON) else []
        current = new_paths or default
        with tempfile.TemporaryDirectory(prefix="smithy2cfn-diff-") as scratch:
            copy = checkout(base, [*current, *configs, *_build_sources(current, configs)], Path(scratch), diags)
            if copy is not None:
                result.new = _side("new", f"the working tree ({listed(current) or 'the current folder'})", current,
                                   configs, diags, **common)
                result.old = _side("old", f"{base} ({copy.commit[:12]})",
                                   [os.fspath(copy.at_revision(p)) for p in current], configs, diags,
                                   project_dir=copy.at_revision(os.curdir), span_path=copy.shown, **common)
    else:
        result.old = _side("old", listed(old_paths), old_paths, configs, diags, **common)
        result.new = _side("new", listed(new_paths), new_paths, configs, diags, **common)
    if result.old is not None and result.new is not None:
        result.types = compare_sides(result.old, result.new)
        for t in result.types:
            diags.extend([f.diagnostic for f in t.findings])
            if t.truncated:
                diags.warning("S7007", f"{t.type_name}: the schemas are too large or too deep to compare completely; "
                                       "changes past the limit are not reported",
                              Span(result.new.files.get(t.type_name) or result.new.name),
                              hint="see README \"Limits\" (diff)")
    result.diagnostics = diags.sorted()
    return result


# ---------------------------------------------------------------- explain


class ExplainResult(Result):
    """What :func:`explain` found.

    Attributes:
        diagnostics: the build's warnings and errors (``S7011`` when the filters match nothing).
        types: one :class:`smithy2cfn.derive.explain.ResourceExplanation` per resource type
            kept by the filters.
    """

    types: list[ResourceExplanation]

    def __init__(self, diagnostics: list[Diagnostic] | None = None,
                 types: list[ResourceExplanation] | None = None) -> None:
        super().__init__(diagnostics)
        self.types = [] if types is None else types

    def to_json(self) -> dict[str, Any]:
        """The ``explain --format json`` document (:func:`smithy2cfn.derive.explain.to_json`)."""
        from smithy2cfn.derive.explain import to_json

        return to_json(self.types)

    def text(self) -> str:
        """The text ``explain`` prints (:func:`smithy2cfn.derive.explain.render_text`)."""
        from smithy2cfn.derive.explain import render_text

        return render_text(self.types)


def explain(paths: Iterable[str | os.PathLike[str]] = (), *,
            config: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None,
            overrides: Mapping[str, Any] | None = None, override_spans: Mapping[str, Span] | None = None,
            projection: str | None = None, resource: str | None = None, prop: str | None = None,
            extensions: Sequence[Extension | type] | None = None,
            allow_unknown_traits: bool = False) -> ExplainResult:
    """Why each property of each resource type is createOnly, readOnly, writeOnly, required or
    deprecated, with every reason in model terms at its ``file:line``; the handlers, their
    operations and permissions; the tagging (``smithy2cfn explain``; issue 18;
    :mod:`smithy2cfn.derive.explain`, reading the conversion plan the build derives).

    Args:
        paths: model files or folders, or a ``smithy-build.json`` (default: the current
            folder's).
        config, overrides, override_spans, projection, extensions, allow_unknown_traits:
            as :func:`build_from_config`.
        resource: keep one resource type: its ``typeName``, shape ID or shape name.
        prop: keep one property: its member name, schema name or pointer.

    Returns:
        An :class:`ExplainResult`; exit code 1 when the build fails, 2 for usage and
        configuration errors (``S7011``: the filters match nothing). Never raises on bad
        input.
    """
    from smithy2cfn.derive.explain import explain_plan

    diags = Diagnostics()
    out = _one_projection("the build", _paths(paths), _config_paths(config), diags, overrides=overrides,
                          override_spans=override_spans, projection=projection, extensions=extensions,
                          allow_unknown_traits=allow_unknown_traits)
    result = ExplainResult()
    if out is not None and out.plan is not None and out.model is not None:
        types = explain_plan(out.model, out.plan)
        if resource is not None:
            types = [t for t in types if resource in (t.type_name, t.resource_id, t.resource_id.rpartition("#")[2])]
        if prop is not None:
            types = [replace(t, properties=tuple(p for p in t.properties if prop in (p.name, p.pointer,
                                                                                      p.pointer.rpartition("/")[2])))
                     for t in types]
            types = [t for t in types if t.properties]
        if not types and (resource is not None or prop is not None):
            what = " and ".join(f"{k} {v!r}" for k, v in (("resource", resource), ("property", prop)) if v)
            diags.error("S7011", f"no resource type of the build has {what}", Span("<command line>"),
                        hint="run explain without --resource/--property to see them all")
        result.types = types
    result.diagnostics = diags.sorted()
    return result


__all__ = [
    "DEFAULT_OUT_DIR", "SMITHY_BUILD_JSON", "SMITHY_LAYOUT", "TEMP_FILE_RE", "AstResult", "BuildResult",
    "ConvertResult", "DiffResult", "ExplainResult", "LoadResult", "ProjectionResult", "Result", "ValidationResult",
    "build", "build_from_config", "convert", "diff", "explain", "is_configuration_error", "json_ast", "load", "output_path",
    "read_regular_file", "read_settings", "render_schema", "share_with_helper_process", "sweep_temp_files",
    "validate", "validate_files",
    "write_atomically", "write_json_ast",
]

#: Names kept here for callers of earlier versions, imported on first use (they would import
#: the emit stage): extension discovery lives in :mod:`smithy2cfn.emit.discovery`.
_MOVED = {"InstalledExtension": "smithy2cfn.emit.discovery", "installed_extensions": "smithy2cfn.emit.discovery",
          "resolve_extensions": "smithy2cfn.emit.discovery"}


def __getattr__(name: str) -> Any:
    """The names of :data:`_MOVED`, from their modules."""
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
