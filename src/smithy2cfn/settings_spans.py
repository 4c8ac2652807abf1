"""Where each ``cloudformation`` setting is written in a ``--config`` file.

:func:`locate_settings` maps a setting name (``organizationName``...) to the
``file:line:column`` of its key, so that a setting's problem can point at the key (the
JSON module gives values, not positions). It finds the same object
:func:`smithy2cfn.buildconfig.read_config_file` takes the settings from: the whole file
for a flat settings file; ``plugins.cloudformation``, else the one projection's
``plugins.cloudformation``, for a ``smithy-build.json``. For a key written twice the last
one counts, as in :func:`json.loads`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from smithy2cfn.diagnostics import Span

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def _keys(text: str, pos: int) -> dict[str, tuple[int, int, int]]:
    """Keys of the JSON object at ``text[pos]``: key → (key start, key end, value start);
    ``{}`` when no object starts there."""
    out: dict[str, tuple[int, int, int]] = {}
    if text[pos:pos + 1] != "{":
        return out
    pos = _WS.match(text, pos + 1).end()
    if text[pos:pos + 1] == "}":
        return out
    while True:
        if text[pos:pos + 1] != '"':
            raise ValueError("expected a key")
        key, end = json.decoder.scanstring(text, pos + 1)
        colon = _WS.match(text, end).end()
        if text[colon:colon + 1] != ":":
            raise ValueError("expected ':'")
        value = _WS.match(text, colon + 1).end()
        out[key] = (pos, end, value)
        _, after = _DECODER.raw_decode(text, value)
        pos = _WS.match(text, after).end()
        if text[pos:pos + 1] == ",":
            pos = _WS.match(text, pos + 1).end()
        elif text[pos:pos + 1] == "}":
            return out
        else:
            raise ValueError("expected ',' or '}'")


def _span(path: str, text: str, start: int, end: int) -> Span:
    line = text.count("\n", 0, start) + 1
    col = start - (text.rfind("\n", 0, start) + 1) + 1
    return Span(path, line, col, line, col + (end - start))


def locate_settings(path: str | Path, smithy_build: bool) -> dict[str, Span]:
    """Setting name → span of its key in the config file at ``path``.

    Args:
        path: the ``--config`` file (already read successfully by ``read_config_file``).
        smithy_build: ``True`` for a ``smithy-build.json`` (``ConfigFile.is_smithy_build``),
            ``False`` for a flat settings object.

    Returns:
        The spans found; ``{}`` when the file cannot be read or walked again (the caller
        then points at the whole file). Never raises on bad input.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
        start = _WS.match(text).end()
        top = _keys(text, start)
        settings_at: int | None = start
        if smithy_build:
            settings_at = None
            plugins = _keys(text, top["plugins"][2]) if "plugins" in top else {}
            if "cloudformation" in plugins:
                settings_at = plugins["cloudformation"][2]
            elif "projections" in top:
                found = []
                for _, _, at in _keys(text, top["projections"][2]).values():
                    project = _keys(text, at)
                    proj_plugins = _keys(text, project["plugins"][2]) if "plugins" in project else {}
                    if "cloudformation" in proj_plugins:
                        found.append(proj_plugins["cloudformation"][2])
                settings_at = found[0] if len(found) == 1 else None
        if settings_at is None:
            return {}
        return {key: _span(str(path), text, k0, k1) for key, (k0, k1, _) in _keys(text, settings_at).items()}
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, KeyError):
        return {}


__all__ = ["locate_settings"]
