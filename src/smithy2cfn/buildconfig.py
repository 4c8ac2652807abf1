"""Reading ``--config`` files: a flat settings object or a ``smithy-build.json``.

A ``smithy-build.json`` (Smithy "smithy-build" guide) is recognised by its ``version`` and
``sources``/``imports``/``plugins``/``projections`` keys. Its ``sources`` and ``imports``
(paths relative to the file) are models to load, and ``plugins.cloudformation`` holds the
converter settings (or the one projection that has a ``cloudformation`` plugin). Any other
JSON object is taken as the settings themselves.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smithy2cfn.diagnostics import Diagnostics, Span

_BUILD_KEYS = {"version", "sources", "imports", "plugins", "projections", "outputDirectory", "maven"}


@dataclass
class ConfigFile:
    """What a config file says: model paths to load and ``cloudformation`` settings."""

    sources: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    is_smithy_build: bool = False


def read_config_file(path: str | Path, diags: Diagnostics) -> ConfigFile:
    """Read a settings file or ``smithy-build.json``.

    Errors (``S5000`` unreadable/invalid JSON, ``S5001`` wrong shape) land in ``diags``;
    the CLI treats them as usage errors (exit 2).
    """
    p = Path(path)
    span = Span(str(p))
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        diags.error("S5000", f"cannot read config file: {e.strerror or e}", span)
        return ConfigFile()
    except ValueError as e:
        diags.error("S5000", f"config file is not valid JSON: {e}", span)
        return ConfigFile()
    if not isinstance(data, dict):
        diags.error("S5001", "config file must hold a JSON object", span)
        return ConfigFile()
    if not (set(data) & {"sources", "imports", "plugins", "projections"}) or \
            ("version" not in data and "plugins" not in data and "projections" not in data):
        return ConfigFile(settings=data)
    out = ConfigFile(is_smithy_build=True)
    base = p.parent
    for key in ("sources", "imports"):
        values = data.get(key, [])
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            diags.error("S5001", f"'{key}' must be a list of paths", span)
            continue
        out.sources += [str(base / v) for v in values]
    for key in sorted(set(data) - _BUILD_KEYS):
        diags.warning("S5002", f"unknown smithy-build.json key '{key}' is ignored", span)
    if data.get("maven"):
        diags.warning("S5003", "'maven' dependencies are not fetched; add their models to "
                      "'sources' or 'imports' instead", span)
    plugins = data.get("plugins") or {}
    settings = plugins.get("cloudformation") if isinstance(plugins, dict) else None
    if settings is None:
        found = [(name, proj["plugins"]["cloudformation"]) for name, proj in
                 sorted((data.get("projections") or {}).items())
                 if isinstance(proj, dict) and isinstance(proj.get("plugins"), dict)
                 and "cloudformation" in proj["plugins"]]
        if len(found) == 1:
            name, settings = found[0]
            for sub in ("imports",):
                extra = data["projections"][name].get(sub) or []
                out.sources += [str(base / v) for v in extra if isinstance(v, str)]
            if data["projections"][name].get("transforms"):
                diags.warning("S5004", f"projection '{name}': transforms are not applied", span)
        elif len(found) > 1:
            diags.error("S5001", "several projections have a 'cloudformation' plugin; "
                        "give its settings with a flat --config file", span)
    if settings is None:
        settings = {}
    if not isinstance(settings, dict):
        diags.error("S5001", "'plugins.cloudformation' must be an object", span)
        settings = {}
    out.settings = settings
    return out
