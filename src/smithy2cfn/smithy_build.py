"""Reading ``smithy-build.json`` files (or a flat settings file) as Smithy reads them.

A ``smithy-build.json`` (Smithy "smithy-build.json" guide; the reference's
``SmithyBuildConfig``, ``ProjectionConfig``, ``TransformConfig``, ``MavenConfig`` and
``SmithyBuildImpl.prepareConfig``) is recognised by its keys (``version``, ``sources``,
``imports``, ``plugins``, ``projections``...). Any other JSON object is taken as the
``cloudformation`` settings themselves (a flat settings file).

What :func:`read_build_config` does, in the reference's order:

* each file is read like a model (:mod:`smithy2cfn.load.files`: regular files only, at most
  256 MiB), its ``//`` line comments left out (the reference's ``parseJsonWithComments``), and
  parsed as strict JSON (:mod:`smithy2cfn.model.jsonread`);
* ``${NAME}`` in any string, keys included, is replaced by the environment variable
  ``NAME`` (``SMITHY_ROOT_DIR``: the current folder), ``\\${NAME}`` is kept as ``${NAME}``
  (``SmithyBuildUtils.VariableExpander``, its regular expressions as they are); an unset
  variable is error ``S5041`` located at the string;
* every key is checked for its type (``S5001``, located at the key or the entry at fault);
  ``sources``, ``imports`` and a projection's ``imports`` are made relative to the folder of
  the file that names them; a transform's ``args`` given as a list becomes ``{"__args": [...]}``;
* several files are merged in order as ``smithy build -c a.json -c b.json`` does
  (``SmithyBuildConfig.Builder.merge``): ``sources`` and ``imports`` are appended, a
  projection or a plugin of a later file replaces the one of the same name, a later
  ``outputDirectory`` wins, ``maven`` dependencies and repositories are joined;
* the implicit ``source`` projection (no transforms) is added when no file defines one, and
  the projections are checked as ``prepareConfig`` checks them (``S5040``): names matching
  ``^[A-Za-z0-9]+[A-Za-z0-9\\-_.]*$`` (plugin IDs ``name`` or ``name::artifact``), no
  transforms on ``source``, no ``imports`` or ``plugins`` on an abstract projection, every
  transform name known (abstract projections included), and in each projection to be built
  (all, or the one of ``--projection``) the transforms' arguments and every ``apply``
  naming a projection that exists, without cycles.

The ``cloudformation`` settings are returned as written, with where each key is: typing them
is :meth:`smithy2cfn.settings.Settings.from_mapping`'s job (once, at the boundary, with the
command line's overrides). Building the projections is :func:`smithy2cfn.api.build_from_config`'s.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.load.files import decode_utf8, read_bytes
from smithy2cfn.model.jsonread import JsonText, parse_json
from smithy2cfn.model.nodes import node_kind
from smithy2cfn.records import Record
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from smithy2cfn.transform import TransformConfig

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S5000", Severity.ERROR, None,
         "config file unreadable, not a regular file, too large, or not strict JSON", usage=True),
    Code("S5003", Severity.WARNING, None,
         "a smithy-build.json key smithy2cfn does not use (a `maven` key other than `dependencies` and "
         "`repositories`, a repository's credentials or proxy: nothing is downloaded) is ignored", usage=True),
    Code("S5040", Severity.ERROR, None,
         "a smithy-build.json projection, plugin or transform cannot be built: a bad name, transforms on the "
         "`source` projection, an abstract projection with `imports` or `plugins`, several flat settings files "
         "(a transform's own problems are `S5201`-`S5206`)", usage=True),
    Code("S5041", Severity.ERROR, None,
         "`${NAME}` in a smithy-build.json names an environment variable that is not set", usage=True),
    Code("S5042", Severity.ERROR, None,
         "`--projection` names no projection that can be built (unknown, or abstract)", usage=True),
)

#: The keys of a ``smithy-build.json`` (``$schema`` names its JSON Schema, as the guide shows).
BUILD_KEYS = frozenset({"version", "sources", "imports", "plugins", "projections", "outputDirectory", "maven",
                        "ignoreMissingPlugins", "$schema"})
_PROJECTION_KEYS = {"abstract", "imports", "transforms", "plugins"}
_MAVEN_KEYS = {"dependencies", "repositories"}
#: The plugin smithy2cfn is: ``plugins.cloudformation`` (or ``cloudformation::ARTIFACT``).
PLUGIN_NAME = "cloudformation"
#: The projection every build has (``SmithyBuildImpl.prepareConfig``).
SOURCE_PROJECTION = "source"
#: Where a ``smithy-build.json`` build writes when it names no ``outputDirectory``
#: (``SmithyBuild.getDefaultOutputDirectory``: relative to the current folder).
DEFAULT_OUTPUT_DIRECTORY = Path("build", "smithy")

#: Projection and transform names (``SmithyBuildImpl.PATTERN``); plugin IDs (``PLUGIN_PATTERN``).
_NAME_PART = r"[A-Za-z0-9]+[A-Za-z0-9\-_.]*"
NAME_RE = lazy(_NAME_PART)
PLUGIN_ID_RE = lazy(rf"{_NAME_PART}(::{_NAME_PART})?")
#: ``SmithyBuildUtils.VariableExpander``'s patterns, as the reference writes them.
_INLINE_RE = lazy(r"(?:^|[^\\])\$\{([^}]+)}")
_ESCAPED_RE = lazy(r"\\\$")


class PluginConfig(Record):
    """One ``cloudformation`` plugin entry (``plugins.cloudformation`` or
    ``plugins."cloudformation::ARTIFACT"``), at the top level or in a projection.

    Attributes:
        plugin_id: the key as written (``"cloudformation"``, ``"cloudformation::ref"``).
        artifact: the artifact name: the folder under ``<outputDirectory>/<projection>/``.
        settings: the plugin's settings object as written (not checked yet).
        spans: setting name → where its key is (for diagnostics).
        source: the file it is in (where a missing setting's problem points).
    """

    __slots__ = ("plugin_id", "artifact", "settings", "spans", "source")
    plugin_id: str
    artifact: str
    settings: dict[str, Any]
    spans: dict[str, Span]
    source: Span

    def __init__(self, plugin_id: str, artifact: str, settings: dict[str, Any], spans: dict[str, Span],
                 source: Span) -> None:
        self.plugin_id, self.artifact, self.settings, self.spans, self.source = \
            plugin_id, artifact, settings, spans, source


class ProjectionConfig(Record):
    """One projection (reference ``ProjectionConfig``).

    Attributes:
        name: its name.
        abstract: only ``apply``'d by others, never built.
        imports: its own model paths, relative to the current folder.
        transforms: its transforms, in order.
        plugins: plugin ID → its ``cloudformation`` plugin (the other plugins are not ours).
        plugin_ids: every plugin ID it names (checked, not run).
        span: where it is defined (``None``: the implicit ``source`` projection).
    """

    __slots__ = ("name", "abstract", "imports", "transforms", "plugins", "plugin_ids", "span")
    name: str
    abstract: bool
    imports: list[str]
    transforms: list[TransformConfig]
    plugins: dict[str, PluginConfig]
    plugin_ids: list[str]
    span: Span | None

    def __init__(self, name: str, abstract: bool = False, imports: list[str] | None = None,
                 transforms: list[TransformConfig] | None = None, plugins: dict[str, PluginConfig] | None = None,
                 plugin_ids: list[str] | None = None, span: Span | None = None) -> None:
        self.name, self.abstract, self.span = name, abstract, span
        self.imports = [] if imports is None else imports
        self.transforms = [] if transforms is None else transforms
        self.plugins = {} if plugins is None else plugins
        self.plugin_ids = [] if plugin_ids is None else plugin_ids


class BuildConfig(Record):
    """What the config files say, merged (reference ``SmithyBuildConfig``).

    Attributes:
        files: the files read, in order.
        smithy_build: ``True`` for ``smithy-build.json`` files, ``False`` for one flat
            settings file (then only ``settings``/``spans`` matter), or no file.
        sources: ``sources`` then ``imports`` of every file (the base model's paths),
            relative to the current folder.
        path_spans: each path of ``sources`` and of the projections' ``imports`` → where
            it is written (the first place), so that the loader locates a path's problems
            there.
        output_directory: the last ``outputDirectory`` given (relative to the current
            folder, as the reference resolves it), or ``None``; output_directory_span:
            where it is written.
        projections: name → projection, ``source`` included, in name order.
        plugins: the top-level ``cloudformation`` plugins (every projection's, unless it
            has one of the same ID).
        plugin_ids: every top-level plugin ID, and where it is.
        dependencies: ``maven.dependencies``: each coordinate and where it is written.
        repositories: ``maven.repositories``: each URL and where it is written.
        settings, spans: a flat settings file's settings and where each key is.
        source: the file a flat file's settings come from (``<command line>`` without one).
    """

    __slots__ = ("files", "smithy_build", "sources", "path_spans", "output_directory", "output_directory_span",
                 "projections", "plugins",
                 "plugin_ids", "dependencies", "repositories", "settings", "spans", "source")
    files: list[str]
    smithy_build: bool
    sources: list[str]
    path_spans: dict[str, Span]
    output_directory: str | None
    output_directory_span: Span | None
    projections: dict[str, ProjectionConfig]
    plugins: dict[str, PluginConfig]
    plugin_ids: dict[str, Span]
    dependencies: list[tuple[str, Span | None]]
    repositories: list[tuple[str, Span | None]]
    settings: dict[str, Any]
    spans: dict[str, Span]
    source: Span

    def __init__(self) -> None:
        self.files, self.smithy_build, self.sources, self.output_directory = [], False, [], None
        self.output_directory_span: Span | None = None
        self.projections, self.plugins, self.dependencies, self.repositories = {}, {}, [], []
        self.plugin_ids, self.path_spans = {}, {}
        self.settings, self.spans, self.source = {}, {}, Span("<command line>")

    def plugins_of(self, projection: str) -> list[PluginConfig]:
        """The ``cloudformation`` plugins that run in ``projection``: the top-level ones and
        its own, its own winning for one ID (``SmithyBuildImpl.getCombinedPlugins``), in ID
        order."""
        combined = dict(self.plugins)
        combined.update(self.projections[projection].plugins)
        return [combined[k] for k in sorted(combined)]

    def buildable(self) -> list[str]:
        """The projections a build builds: not abstract, with a ``cloudformation`` plugin;
        when no projection has one, ``source`` (built with the settings the caller gives)."""
        names = [n for n, p in self.projections.items() if not p.abstract and self.plugins_of(n)]
        return names or [SOURCE_PROJECTION]

    def transforms_by_projection(self) -> dict[str, list[TransformConfig]]:
        """Projection name → its transforms (for the ``apply`` transform)."""
        return {name: list(p.transforms) for name, p in self.projections.items()}


class ConfigFile(Record):
    """What one config file says for one build: model paths and ``cloudformation`` settings
    (the earlier form, kept for callers of :func:`read_config_file`).

    Attributes:
        sources: model files and folders to load: ``sources`` and ``imports`` (and the
            chosen projection's ``imports``), each joined to the file's folder.
        settings: the ``cloudformation`` plugin object as written (not checked yet).
        spans: setting name → where its key is in the file (for diagnostics).
    """

    __slots__ = ("sources", "settings", "spans")
    sources: list[str]
    settings: dict[str, Any]
    spans: dict[str, Span]

    def __init__(self, sources: list[str] | None = None, settings: dict[str, Any] | None = None,
                 spans: dict[str, Span] | None = None) -> None:
        self.sources = [] if sources is None else sources
        self.settings = {} if settings is None else settings
        self.spans = {} if spans is None else spans


# ---------------------------------------------------------------- checks


def _entries(value: Any, check: Callable[[Any], bool]) -> tuple[Any, ...] | None:
    """The key or index of the first entry of a list or object that fails ``check``."""
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        if not check(item):
            return (key,)
    return None


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _transform(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("name"), str) and \
        isinstance(value.get("args", {}), (dict, list))


# What a key holds: (container type or None, entry check or plain check, description).
if TYPE_CHECKING:
    _Spec = tuple[type | None, Callable[[Any], bool], str]

#: smithy-build.json key → spec (reference ``SmithyBuildConfig``).
_TOP_CHECKS: dict[str, _Spec] = {
    "version": (None, _string, "a string"),
    "outputDirectory": (None, lambda v: isinstance(v, str) and v != "", "a folder path string"),
    "sources": (list, _string, "a list of path strings"),
    "imports": (list, _string, "a list of path strings"),
    "projections": (dict, lambda v: isinstance(v, dict), "an object of projection names to projection objects"),
    "plugins": (dict, lambda v: isinstance(v, dict), "an object of plugin names to plugin setting objects"),
    "ignoreMissingPlugins": (None, lambda v: isinstance(v, bool), "a boolean"),
    "maven": (None, lambda v: isinstance(v, dict), "an object"),
}
#: projection key → spec (reference ``ProjectionConfig``).
_PROJECTION_CHECKS: dict[str, _Spec] = {
    "abstract": (None, lambda v: isinstance(v, bool), "a boolean"),
    "imports": (list, _string, "a list of path strings"),
    "transforms": (list, _transform,
                   "a list of {\"name\": ..., \"args\": {...}} objects (args an object or a list)"),
    "plugins": (dict, lambda v: isinstance(v, dict), "an object of plugin names to plugin setting objects"),
}
#: maven key → spec (reference ``MavenConfig``, ``MavenRepository``).
_MAVEN_CHECKS: dict[str, _Spec] = {
    "dependencies": (list, _string, "a list of group:artifact:version strings"),
    "repositories": (list, lambda v: isinstance(v, dict) and isinstance(v.get("url"), str),
                     "a list of {\"url\": ...} objects"),
}


def _check(data: dict[str, Any], checks: dict[str, _Spec], jt: JsonText, path: tuple[Any, ...], where: str,
           diags: Diagnostics) -> dict[str, Any]:
    """``data`` without the keys whose value has the wrong type; each is an ``S5001`` error
    located at the key, or at the entry at fault in a list or object."""
    out = {}
    for key, value in data.items():
        spec = checks.get(key)
        if spec is not None:
            container, check, expected = spec
            at: tuple[Any, ...] | None = None
            if container is None:
                bad = not check(value)
            else:
                bad = not isinstance(value, container)
                if not bad:
                    at = _entries(value, check)
                    bad = at is not None
            if bad:
                found = node_kind(value) if at is None else f"{node_kind(value[at[0]])} at {at[0]!r}"
                diags.error("S5001", f"{where}'{key}' must be {expected}, found {found}",
                            jt.span((*path, key, *(at or ()))))
                continue
        out[key] = value
    return out


# ---------------------------------------------------------------- reading one file


def strip_comments(text: str) -> str:
    """``text`` with each ``//`` comment outside a string (to the end of its line) replaced
    by spaces, so that offsets, and so every located diagnostic, stay as written (the
    reference reads smithy-build.json with ``Node.parseJsonWithComments``)."""
    if "//" not in text:
        return text
    out: list[str] = []
    i, n, start = 0, len(text), 0
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
        elif c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(text[start:i])
            out.append(" " * (end - i))
            start = i = end
        else:
            i += 1
    out.append(text[start:])
    return "".join(out)


def _read_json(p: Path, diags: Diagnostics) -> tuple[Any, JsonText | None]:
    """The JSON value of a config file and its positions, or ``(None, None)`` after ``S5000``."""
    span = Span(str(p))
    data_bytes, unreadable = read_bytes(p)
    if data_bytes is None:
        diags.error("S5000", f"cannot read config file: {unreadable.message if unreadable else 'unreadable'}", span)
        return None, None
    text, where = decode_utf8(data_bytes)
    if text is None:
        diags.error("S5000", "config file is not valid UTF-8", Span(str(p), *(where or ())))
        return None, None
    jt, problem = parse_json(strip_comments(text), str(p))
    if problem is not None:
        diags.error("S5000", f"config file is not valid JSON: {problem.message}", jt.span_at(problem.offset))
        return None, None
    return jt.value, jt


def is_smithy_build(data: Mapping[str, Any]) -> bool:
    """Whether a config file's object is a ``smithy-build.json`` (else flat settings): it
    names models or plugins with a ``version``, ``plugins`` or ``projections``, or holds a
    ``version`` and nothing but smithy-build.json keys."""
    keys = set(data)
    if keys & {"sources", "imports", "plugins", "projections"} and keys & {"version", "plugins", "projections"}:
        return True
    return "version" in keys and keys <= BUILD_KEYS


def expand_variables(value: Any, jt: JsonText, diags: Diagnostics, environ: Mapping[str, str],
                     path: tuple[Any, ...] = ()) -> Any:
    """``value`` with ``${NAME}`` replaced in every string, keys included, as the reference's
    ``VariableExpander`` does (``SMITHY_ROOT_DIR`` is the current folder); an unset variable
    is error ``S5041`` located at the string (which is kept as written). A renamed key keeps
    its position in ``jt``."""
    if isinstance(value, str):
        return _expand_string(value, jt.span(path), diags, environ)
    if isinstance(value, list):
        return [expand_variables(v, jt, diags, environ, (*path, i)) for i, v in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        for key, v in value.items():
            new_key = _expand_string(key, jt.span((*path, key)), diags, environ) if "${" in key else key
            if new_key != key and path + (key,) in jt.positions:
                jt.positions[path + (new_key,)] = jt.positions[path + (key,)]
            out[new_key] = expand_variables(v, jt, diags, environ, (*path, key))
        return out
    return value


def _expand_string(text: str, span: Span, diags: Diagnostics, environ: Mapping[str, str]) -> str:
    if "$" not in text:
        return text

    def replace(match: Any) -> str:
        name: str = match.group(1)
        value: str | None = os.getcwd() if name == "SMITHY_ROOT_DIR" else environ.get(name)
        if value is None:
            diags.error("S5041", f"environment variable '{name}' is not set (named by ${{{name}}})", span,
                        hint=f"set {name} in the environment, or write \\${{{name}}} for the text itself")
            value = "${" + name + "}"
        whole: str = match.group(0)
        return value if whole.startswith("${") else whole[0] + value

    return str(_ESCAPED_RE.sub("$", _INLINE_RE.sub(replace, text)))


def _plugins(plugins: dict[str, Any], jt: JsonText, path: tuple[Any, ...], where: str, base: Span,
             diags: Diagnostics) -> tuple[dict[str, PluginConfig], list[str]]:
    """The ``cloudformation`` plugins of a ``plugins`` object, and every valid plugin ID."""
    ours: dict[str, PluginConfig] = {}
    ids: list[str] = []
    for plugin_id, settings in plugins.items():
        if not PLUGIN_ID_RE.fullmatch(plugin_id):
            diags.error("S5040", f"{where}invalid plugin ID '{plugin_id}'", jt.span((*path, plugin_id)),
                        hint="a plugin ID is NAME or NAME::ARTIFACT, each matching ^[A-Za-z0-9]+[A-Za-z0-9\\-_.]*$")
            continue
        ids.append(plugin_id)
        name, _, artifact = plugin_id.partition("::")
        if name != PLUGIN_NAME:
            continue
        if not isinstance(settings, dict):
            diags.error("S5001", f"{where}plugin '{plugin_id}' must be an object of settings, "
                        f"found {node_kind(settings)}", jt.span((*path, plugin_id)))
            continue
        ours[plugin_id] = PluginConfig(plugin_id, artifact or name, settings,
                                       {key: jt.span((*path, plugin_id, key)) for key in settings}, base)
    return ours, ids


def _transforms(name: str, items: list[dict[str, Any]], jt: JsonText, path: tuple[Any, ...],
                diags: Diagnostics) -> list[TransformConfig]:
    from smithy2cfn.transform import TransformConfig

    out = []
    for i, item in enumerate(items):
        at = (*path, i)
        if not NAME_RE.fullmatch(item["name"]):
            diags.error("S5040", f"projection '{name}': invalid transform name '{item['name']}'",
                        jt.span((*at, "name")),
                        hint="a transform name matches ^[A-Za-z0-9]+[A-Za-z0-9\\-_.]*$")
            continue
        args = item.get("args", {})
        arg_spans = {}
        if isinstance(args, list):  # TransformConfig.Builder.args: the earlier list form
            args = {"__args": args}
            arg_spans["__args"] = jt.span((*at, "args"))
        else:
            arg_spans = {key: jt.span((*at, "args", key)) for key in args}
        out.append(TransformConfig(item["name"], args, jt.span(at), arg_spans))
    return out


def _read_build_file(p: Path, data: dict[str, Any], jt: JsonText, diags: Diagnostics, into: BuildConfig) -> None:
    """Merge one ``smithy-build.json``'s object into ``into`` (``Builder.loadNode`` then
    ``merge``)."""
    base = p.parent
    source = Span(str(p))
    data = _check(data, _TOP_CHECKS, jt, (), "", diags)
    for key in ("sources", "imports"):
        for i, v in enumerate(data.get(key, [])):
            into.sources.append(str(base / v))
            into.path_spans.setdefault(str(base / v), jt.span((key, i)))
    for key in sorted(set(data) - BUILD_KEYS):
        diags.warning("S5002", f"unknown smithy-build.json key '{key}' is ignored", jt.span((key,)))
    if "outputDirectory" in data:
        into.output_directory = data["outputDirectory"]
        into.output_directory_span = jt.span(("outputDirectory",))
    maven = _check(data.get("maven") or {}, _MAVEN_CHECKS, jt, ("maven",), "maven: ", diags)
    for key in sorted(set(maven) - _MAVEN_KEYS):
        diags.warning("S5003", f"maven: key '{key}' is not used", jt.span(("maven", key)))
    seen = {d for d, _ in into.dependencies}
    for i, coordinate in enumerate(maven.get("dependencies", [])):
        if coordinate not in seen:
            seen.add(coordinate)
            into.dependencies.append((coordinate, jt.span(("maven", "dependencies", i))))
    urls = {u for u, _ in into.repositories}
    for i, repository in enumerate(maven.get("repositories", [])):
        for key in sorted(set(repository) - {"url", "id"}):
            # the URL is not repeated: it may hold credentials (user:password@host)
            diags.warning("S5003", f"maven repository {i + 1}: '{key}' is not used "
                                   "(smithy2cfn reads local repositories only, without credentials or proxy)",
                          jt.span(("maven", "repositories", i, key)))
        if repository["url"] not in urls:
            urls.add(repository["url"])
            into.repositories.append((repository["url"], jt.span(("maven", "repositories", i))))
    plugins, ids = _plugins(data.get("plugins") or {}, jt, ("plugins",), "", source, diags)
    into.plugins.update(plugins)
    into.plugin_ids.update({i: jt.span(("plugins", i)) for i in ids})
    for name, projection in (data.get("projections") or {}).items():
        at = ("projections", name)
        where = f"projection '{name}': "
        if not NAME_RE.fullmatch(name):
            diags.error("S5040", f"invalid projection name '{name}'", jt.span(at),
                        hint="a projection name matches ^[A-Za-z0-9]+[A-Za-z0-9\\-_.]*$")
            continue
        projection = _check(projection, _PROJECTION_CHECKS, jt, at, where, diags)
        for key in sorted(set(projection) - _PROJECTION_KEYS):
            diags.warning("S5002", f"{where}unknown key '{key}' is ignored", jt.span((*at, key)))
        ours, ids = _plugins(projection.get("plugins") or {}, jt, (*at, "plugins"), where, source, diags)
        for i, v in enumerate(projection.get("imports", [])):
            into.path_spans.setdefault(str(base / v), jt.span((*at, "imports", i)))
        config = ProjectionConfig(name, bool(projection.get("abstract", False)),
                                  [str(base / v) for v in projection.get("imports", [])],
                                  _transforms(name, projection.get("transforms", []), jt, (*at, "transforms"),
                                              diags), ours, ids, jt.span(at))
        if config.abstract and (config.imports or config.plugin_ids):
            diags.error("S5040", f"abstract projection '{name}' must not define imports or plugins",
                        jt.span((*at, "imports" if config.imports else "plugins")),
                        hint="an abstract projection only holds transforms that other projections apply")
        if name == SOURCE_PROJECTION and config.transforms:
            diags.error("S5040", "the source projection cannot contain any transforms",
                        jt.span((*at, "transforms")), hint="define the transforms in a projection of another name")
        into.projections[name] = config


def _check_artifacts(config: BuildConfig, diags: Diagnostics) -> None:
    """No two plugins of a projection (its own and the top-level ones) write to one artifact
    folder (``SmithyBuildImpl.resolvePlugins``): ``cloudformation`` and ``run::cloudformation``
    in one projection are ``S5040`` when one of them is ours."""
    for name, projection in config.projections.items():
        if projection.abstract:
            continue
        ids = {i: config.plugin_ids[i] for i in config.plugin_ids}
        ids.update({i: projection.span or config.source for i in projection.plugin_ids})
        by_artifact: dict[str, list[str]] = {}
        for plugin_id in sorted(ids):
            plugin, _, artifact = plugin_id.partition("::")
            by_artifact.setdefault(artifact or plugin, []).append(plugin_id)
        for artifact, named in by_artifact.items():
            if len(named) > 1 and any(n.partition("::")[0] == PLUGIN_NAME for n in named):
                diags.error("S5040", f"projection '{name}': plugins {', '.join(named)} use the same artifact "
                                     f"name '{artifact}'", ids[named[-1]],
                            hint="give one of them another artifact name: PLUGIN::ARTIFACT")


def _check_transforms(config: BuildConfig, diags: Diagnostics, only: str | None = None) -> None:
    """The transforms checked before any model is loaded, as the reference checks them.

    Every transform name of every projection, abstract ones included (``SmithyBuildImpl``
    resolves them all when it is created: ``S5201``). The arguments and ``apply`` targets
    (:func:`smithy2cfn.transform.check_transforms`: ``S5202``-``S5205``) of the projections
    that are built: every projection that is not abstract (Smithy builds them all, plugins or
    not), or only ``only`` (``--projection``; an unknown name is left to
    :func:`select_projections`), each with the projections its ``apply`` reaches; Smithy does
    not look at the others' arguments. A problem of a projection that several apply is
    reported once. A file without transforms has nothing to check (and the transforms are not
    imported: most builds have none).
    """
    by_projection = config.transforms_by_projection()
    if not any(by_projection.values()):
        return
    from smithy2cfn.transform import check_transform_names, check_transforms

    found = Diagnostics()
    for name, projection in config.projections.items():
        if projection.abstract or (only is not None and name != only):
            check_transform_names(projection.transforms, found, projection=name)
        else:
            check_transforms(projection.transforms, found, projections=by_projection, projection=name)
    diags.extend(list(dict.fromkeys(found.items)))


def read_build_config(paths: Sequence[str | os.PathLike[str]], diags: Diagnostics, *,
                      environ: Mapping[str, str] | None = None, projection: str | None = None) -> BuildConfig:
    """Read and merge config files: one flat settings file, or ``smithy-build.json`` files.

    Args:
        paths: the files, in the order they are merged (``--config a --config b``); none:
            an empty configuration (the implicit ``source`` projection).
        diags: receives ``S5000`` (unreadable, not strict JSON), ``S5001`` (a key of the
            wrong type), ``S5002`` (an unknown key), ``S5003`` (a maven key not used),
            ``S5040`` (a projection, plugin or transform that cannot be built), ``S5041``
            (an unset ``${NAME}``), each located; all usage errors (exit 2).
        environ: the environment ``${NAME}`` reads (default ``os.environ``).
        projection: the one projection to be built (``--projection``): the arguments and
            ``apply`` of the others are not checked, as Smithy does not check them; their
            transform names are (``S5201``). ``None``: every projection is checked.

    Returns:
        A :class:`BuildConfig` (what could be read of it when there are errors). Never
        raises on bad input.
    """
    environ = os.environ if environ is None else environ
    out = BuildConfig()
    files: list[tuple[Path, dict[str, Any], JsonText]] = []
    for path in paths:
        p = Path(path)
        out.files.append(str(p))
        value, jt = _read_json(p, diags)
        if jt is None:
            continue
        if not isinstance(value, dict):
            diags.error("S5001", f"config file must hold a JSON object, found {node_kind(value)}", jt.span(()))
            continue
        if "${" in jt.text and is_smithy_build(value):
            unset = Diagnostics()
            value = expand_variables(value, jt, unset, environ)
            diags.extend(unset)
            if unset.has_errors:
                continue  # its values are not what the file means: nothing more is said of it
        files.append((p, value, jt))
    flat = [(p, jt) for p, value, jt in files if not is_smithy_build(value)]
    if flat and len(paths) > 1:
        for _, jt in flat:
            diags.error("S5040", "a flat settings file cannot be merged with other config files", jt.span(()),
                        hint="give several smithy-build.json files, or one settings file")
        return out
    out.projections[SOURCE_PROJECTION] = ProjectionConfig(SOURCE_PROJECTION)
    if flat:
        (p, value, jt), = files
        out.settings, out.spans, out.source = value, {key: jt.span((key,)) for key in value}, Span(str(p))
        return out
    out.smithy_build = bool(files)
    if files:
        out.source = Span(str(files[-1][0]))
    for p, value, jt in files:
        _read_build_file(p, value, jt, diags, out)
    out.projections = dict(sorted(out.projections.items()))
    _check_transforms(out, diags, projection)
    _check_artifacts(out, diags)
    return out


def select_projections(config: BuildConfig, name: str | None, span: Span, diags: Diagnostics) -> list[str]:
    """The projections a build builds: :meth:`BuildConfig.buildable`, or only ``name``
    (``--projection``): error ``S5042`` at ``span`` when no projection of that name can be
    built (unknown or abstract), listing the ones that can."""
    buildable = config.buildable()
    if name is None:
        return buildable
    projection = config.projections.get(name)
    if projection is not None and not projection.abstract:
        if name in buildable or not any(config.plugins_of(n) for n in buildable):
            return [name]
        problem = f"projection '{name}' has no cloudformation plugin"
    elif projection is not None:
        problem = f"projection '{name}' is abstract: it is only applied by other projections"
    else:
        problem = f"no projection named '{name}'"
    diags.error("S5042", problem, span, hint=f"the projections to build: {', '.join(buildable)}")
    return []


def read_config_file(path: str | Path, diags: Diagnostics, *, projection: str | None = None) -> ConfigFile:
    """Read one settings file or ``smithy-build.json`` as one build's paths and settings.

    The settings are the ``cloudformation`` plugin of ``projection`` when given, else of the
    one projection that has one (``S5001`` when several do: give ``projection``); the paths
    are the file's ``sources`` and ``imports`` and that projection's ``imports``. Problems
    are those of :func:`read_build_config`. Never raises on bad input.
    """
    config = read_build_config([path], diags)
    if not config.smithy_build:
        return ConfigFile(settings=config.settings, spans=config.spans)
    out = ConfigFile(sources=list(config.sources))
    names = [projection] if projection in config.projections else \
        [n for n in config.projections if config.plugins_of(n) and not config.projections[n].abstract]
    if len(names) > 1 and config.plugins:  # the top-level plugin: the source projection's
        names = [SOURCE_PROJECTION]
    if len(names) > 1:
        diags.error("S5001", "several projections have a 'cloudformation' plugin; "
                    "name the one to use (--projection) or give its settings with a flat --config file",
                    Span(str(path)))
        return out
    if names:
        plugins = config.plugins_of(names[0])
        out.sources += config.projections[names[0]].imports
        if plugins:
            out.settings, out.spans = plugins[0].settings, plugins[0].spans
    return out


__all__ = ["BUILD_KEYS", "DEFAULT_OUTPUT_DIRECTORY", "PLUGIN_NAME", "SOURCE_PROJECTION", "BuildConfig", "ConfigFile",
           "PluginConfig", "ProjectionConfig", "expand_variables", "is_smithy_build", "read_build_config",
           "read_config_file", "select_projections", "strip_comments"]
