"""Reading a ``smithy-build.json`` (or a flat settings file): what the file says, untyped.

A ``smithy-build.json`` (Smithy "smithy-build" guide; the reference's
``SmithyBuildConfig``/``ProjectionConfig``) is recognised by its ``version`` and
``sources``/``imports``/``plugins``/``projections`` keys. Its ``sources`` and ``imports``
(paths relative to the file) are models to load, and ``plugins.cloudformation`` holds the
converter settings (or the one projection that has a ``cloudformation`` plugin). Any other
JSON object is taken as the settings themselves.

The file is read like a model (:mod:`smithy2cfn.load.files`: regular files only, at most
256 MiB) and parsed as strict JSON (:mod:`smithy2cfn.model.jsonread`). Every key of a
``smithy-build.json`` is checked for its type, each problem located at its key. The
``cloudformation`` settings are returned as written, with where each key is: typing and
checking them is :meth:`smithy2cfn.settings.Settings.from_mapping`'s job (once, at the
boundary, together with the command line's overrides).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.load.files import decode_utf8, read_bytes
from smithy2cfn.model.jsonread import JsonText, parse_json
from smithy2cfn.model.nodes import node_kind
from smithy2cfn.records import Record

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S5000", Severity.ERROR, None,
         "config file unreadable, not a regular file, too large, or not strict JSON", usage=True),
    Code("S5003", Severity.WARNING, None,
         "smithy-build.json `maven` dependencies are not fetched", usage=True),
    Code("S5004", Severity.WARNING, None,
         "smithy-build.json projection transforms are not applied", usage=True),
)

_BUILD_KEYS = {"version", "sources", "imports", "plugins", "projections", "outputDirectory", "maven",
               "ignoreMissingPlugins"}
_PROJECTION_KEYS = {"abstract", "imports", "transforms", "plugins"}


class ConfigFile(Record):
    """What a config file says: model paths to load and ``cloudformation`` settings.

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
    return isinstance(value, dict) and isinstance(value.get("name"), str)


# What a key holds: (container type or None, entry check or plain check, description).
_Spec = tuple[type | None, Callable[[Any], bool], str]

#: smithy-build.json key → spec (reference ``SmithyBuildConfig``).
_TOP_CHECKS: dict[str, _Spec] = {
    "version": (None, _string, "a string"),
    "outputDirectory": (None, _string, "a string"),
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
    "transforms": (list, _transform, "a list of {\"name\": ..., \"args\": ...} objects"),
    "plugins": (dict, lambda v: isinstance(v, dict), "an object of plugin names to plugin setting objects"),
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


def read_config_file(path: str | Path, diags: Diagnostics) -> ConfigFile:
    """Read a settings file or ``smithy-build.json``.

    Errors (``S5000`` unreadable, not a regular file, too large, not UTF-8 or not strict
    JSON; ``S5001`` a ``smithy-build.json`` key of the wrong type) land in ``diags``,
    located at the key at fault; they are usage errors (exit 2). Warnings (``S5002``
    unknown key, ``S5003`` maven, ``S5004`` transforms) too. The settings themselves are
    not checked here (:meth:`smithy2cfn.settings.Settings.from_mapping`). Never raises on
    bad input.
    """
    p = Path(path)
    span = Span(str(p))
    data_bytes, unreadable = read_bytes(p)
    if data_bytes is None:
        diags.error("S5000", f"cannot read config file: {unreadable.message if unreadable else 'unreadable'}", span)
        return ConfigFile()
    text, where = decode_utf8(data_bytes)
    if text is None:
        diags.error("S5000", "config file is not valid UTF-8", Span(str(p), *(where or ())))
        return ConfigFile()
    jt, problem = parse_json(text, str(p))
    if problem is not None:
        diags.error("S5000", f"config file is not valid JSON: {problem.message}", jt.span_at(problem.offset))
        return ConfigFile()
    data = jt.value
    if not isinstance(data, dict):
        diags.error("S5001", f"config file must hold a JSON object, found {node_kind(data)}", jt.span(()))
        return ConfigFile()
    if not (set(data) & {"sources", "imports", "plugins", "projections"}) or \
            ("version" not in data and "plugins" not in data and "projections" not in data):
        return ConfigFile(settings=data, spans={key: jt.span((key,)) for key in data})
    out = ConfigFile()
    base = p.parent
    data = _check(data, _TOP_CHECKS, jt, (), "", diags)
    for key in ("sources", "imports"):
        out.sources += [str(base / v) for v in data.get(key, [])]
    for key in sorted(set(data) - _BUILD_KEYS):
        diags.warning("S5002", f"unknown smithy-build.json key '{key}' is ignored", jt.span((key,)))
    if data.get("maven"):
        diags.warning("S5003", "'maven' dependencies are not fetched; add their models to "
                      "'sources' or 'imports' instead", jt.span(("maven",)))
    settings_path: tuple[str, ...] = ("plugins", "cloudformation")
    plugins = data.get("plugins") or {}
    settings = plugins.get("cloudformation")
    if settings is None:
        projections = data.get("projections") or {}
        found = []
        for name, projection in sorted(projections.items()):
            projection = _check(projection, _PROJECTION_CHECKS, jt, ("projections", name),
                                f"projection '{name}': ", diags)
            for key in sorted(set(projection) - _PROJECTION_KEYS):
                diags.warning("S5002", f"projection '{name}': unknown key '{key}' is ignored",
                              jt.span(("projections", name, key)))
            if "cloudformation" in (projection.get("plugins") or {}):
                found.append((name, projection))
        if len(found) == 1:
            name, projection = found[0]
            settings = projection["plugins"]["cloudformation"]
            settings_path = ("projections", name, "plugins", "cloudformation")
            out.sources += [str(base / v) for v in projection.get("imports", [])]
            if projection.get("transforms"):
                diags.warning("S5004", f"projection '{name}': transforms are not applied",
                              jt.span(("projections", name, "transforms")))
        elif len(found) > 1:
            diags.error("S5001", "several projections have a 'cloudformation' plugin; "
                        "give its settings with a flat --config file", jt.span(("projections",)))
    out.settings = settings or {}
    out.spans = {key: jt.span((*settings_path, key)) for key in out.settings}
    return out

