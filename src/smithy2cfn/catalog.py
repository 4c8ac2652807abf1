"""The catalog: every diagnostic code and every check, as the source declares them, shipped
as plain JSON so that a run need not import every module to know them.

Codes and checks are declared where they are used (:func:`smithy2cfn.diagnostics.declare_codes`,
the decorators of :mod:`smithy2cfn.checks`). ``python -m smithy2cfn.precompute`` imports every
module of the package, collects those declarations and writes them to
``smithy2cfn/data/precomputed/catalog.json`` (and the README's tables of codes);
``tests/api/test_catalog.py`` fails while either is stale. At run time the file:

* routes the validators: which module holds each one and which trait packages it needs, so
  that a build imports only the validators of the packages its model loads
  (:func:`smithy2cfn.validation.validators_for`);
* answers for a code whose declaring module is not imported (the SARIF rule of a code, a
  ``--show`` filter): a module's own declarations, once it is imported, take precedence
  (:data:`smithy2cfn.diagnostics.CODES`).

The file is data, never code: JSON read with :func:`json.loads`. A missing or unreadable
file reads as an empty catalog (:func:`read`), and the callers then fall back on importing
what they need (slower, never wrong).
"""

from __future__ import annotations

import json
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The catalog's file name under ``smithy2cfn/data/precomputed``.
CATALOG_FILE = "catalog.json"
#: The format version written in the file; a file of another format reads as empty.
FORMAT = 1

_PATH = Path(__file__).resolve().parent / "data" / "precomputed" / CATALOG_FILE
_cache: dict[str, Any] | None = None
#: Each section of the catalog, parsed alone (:func:`section`).
_sections: dict[str, Any] = {}
#: The file's text, read once (``None``: not read yet; ``""``: unreadable).
_text: str | None = None
#: The sections as :func:`render` lays them out: the lines that open each (after the
#: format and generator lines), and the lines that close the last.
_OPENERS = {"codes": '\n  "codes": {\n', "checks": '\n  },\n  "checks": [\n'}
_CLOSER = "\n  ]\n}\n"
_EMPTY = {"codes": dict, "checks": list}


def path() -> Path:
    """Where the shipped catalog is (a path in the installed package)."""
    return _PATH


def _file_text() -> str:
    global _text
    if _text is None:
        try:
            _text = _PATH.read_text(encoding="utf-8")
        except (OSError, ValueError):
            _text = ""
    return _text


def read() -> dict[str, Any]:
    """The shipped catalog, read once per process: ``{"codes": {code: entry}, "checks": [entry...]}``.

    A code entry is ``{"severity", "also", "eventId", "meaning", "usage", "owner"}``
    (severities as lower-case labels: ``"error"``); a check entry is ``{"kind", "name",
    "module", "function", "packages", "codes", "rule"}`` (see :class:`smithy2cfn.checks.Check`).
    An absent, unreadable or other-format file gives ``{"codes": {}, "checks": []}``.
    Never raises.
    """
    global _cache
    if _cache is None:
        try:
            data = json.loads(_file_text())
        except ValueError:
            data = None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            data = {"codes": {}, "checks": []}
        _cache = data
    return _cache


def section(name: str) -> Any:
    """One section of the shipped catalog, ``"codes"`` (code → entry) or ``"checks"`` (a list
    of entries), as :func:`read` gives it, read once per process. In the layout
    :func:`render` writes (each section's lines between fixed lines; JSON strings hold no
    line break), the section's text alone is parsed: a build routes its validators with
    the checks and never reads the codes, over half the file. Any other file is read whole
    (:func:`read`); an absent or unreadable one gives an empty section.

    Raises:
        KeyError: ``name`` is no section (never for a file's content).
    """
    found = _sections.get(name)
    if found is None:
        empty = _EMPTY[name]()
        text = _file_text()
        start, end = -1, -1
        if text.startswith(f'{{\n  "format": {FORMAT},\n'):
            start = text.find(_OPENERS[name])
            end = text.find(_OPENERS["checks"] if name == "codes" else _CLOSER, start + 1)
        try:
            if start < 0 or end < 0 or not text.endswith(_CLOSER):
                raise ValueError
            opener, closer = ("{", "}") if name == "codes" else ("[", "]")
            found = json.loads(opener + text[start + len(_OPENERS[name]):end] + closer)
        except ValueError:
            found = read().get(name, empty)
        if type(found) is not type(empty):
            found = empty
        _sections[name] = found
    return found


def render(codes: dict[str, dict[str, Any]], checks: list[dict[str, Any]]) -> str:
    """The catalog file's text for ``codes`` and ``checks`` (see :func:`read`): strict JSON,
    keys sorted, one entry a line, so that a change to one declaration is one changed line."""
    lines = ["{", f'  "format": {FORMAT},',
             '  "generator": "python -m smithy2cfn.precompute (from the declarations in the source; do not edit)",',
             '  "codes": {']
    items = sorted(codes.items())
    for i, (code, entry) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        lines.append(f"    {json.dumps(code)}: {json.dumps(entry, sort_keys=True, ensure_ascii=False)}{comma}")
    lines += ["  },", '  "checks": [']
    for i, entry in enumerate(checks):
        comma = "," if i < len(checks) - 1 else ""
        lines.append(f"    {json.dumps(entry, sort_keys=True, ensure_ascii=False)}{comma}")
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


__all__ = ["CATALOG_FILE", "FORMAT", "path", "read", "render", "section"]
