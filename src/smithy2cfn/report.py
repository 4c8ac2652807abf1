"""What the command line shows of a run's diagnostics, and how: the filter (severity
threshold, codes hidden or shown, the warnings a CloudFormation build leaves out by
default) and the SARIF 2.1.0 document for code scanning.

The library (:mod:`smithy2cfn.api`) always returns every diagnostic; this module makes the
command line's view of them. It sits at the api level (issue 7 layout) and imports nothing
beyond the standard library and :mod:`smithy2cfn.diagnostics`.

Sources followed: the Smithy CLI's ``validate`` options (``--severity``,
``--show-validators``, ``--hide-validators``: reference class
``software.amazon.smithy.cli.commands.ValidatorOptions``; an ID matches an event ID and
every event ID under it, ``Model`` matches ``Model.UnresolvedTrait``), and the OASIS SARIF
2.1.0 specification (errata 01) for :func:`sarif_document`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from smithy2cfn.diagnostics import CODES, Diagnostic, Severity, funnel
from smithy2cfn.records import Record
from smithy2cfn.version import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The trait namespace whose UnstableTrait warnings (``S3006``) ``build`` leaves out by
#: default: a CloudFormation compiler does not warn that the CloudFormation traits are
#: unstable (issue 10; Smithy issue #1805 asks the same of the reference).
CFN_TRAIT_PREFIX = "aws.cloudformation#"

#: SARIF's ``$schema`` and ``version``.
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SARIF_VERSION = "2.1.0"
#: Where results' relative paths are based (``originalUriBaseIds``), as GitHub code
#: scanning names the repository root.
SRCROOT = "%SRCROOT%"


def is_cfn_unstable_trait(diagnostic: Diagnostic) -> bool:
    """True for an UnstableTrait warning (``S3006``) about a trait of the
    ``aws.cloudformation`` namespace (the message ends with the trait's shape ID)."""
    return diagnostic.code == "S3006" and diagnostic.message.rsplit(" ", 1)[-1].startswith(CFN_TRAIT_PREFIX)


def matches(diagnostic: Diagnostic, ident: str) -> bool:
    """True when ``ident`` names the diagnostic: its code (``S3006``, case-insensitive), or
    its reference event ID or an ancestor of it (``UnstableTrait``; ``Model`` for
    ``Model.UnresolvedTrait``), as the Smithy CLI's ``--hide-validators`` matches."""
    if ident.upper() == diagnostic.code.upper():
        return True
    event = diagnostic.event_id or ""
    return bool(event) and (event == ident or event.startswith(ident + "."))


class DiagnosticFilter(Record, frozen=True):
    """Which diagnostics the command line shows.

    Errors (ERROR and DANGER: the diagnostics that fail a run) are always shown; the other
    diagnostics are shown when all of these hold:

    * their severity is at least ``severity``;
    * no ID of ``hide`` matches them (:func:`matches`);
    * ``show`` is empty or one of its IDs matches them;
    * unless ``hide_cfn_unstable`` is false or an ID of ``show`` matches them, they are not
      an UnstableTrait warning about an ``aws.cloudformation`` trait
      (:func:`is_cfn_unstable_trait`).

    Attributes:
        severity: the lowest severity shown (``WARNING`` by default: notes are left out).
        hide: codes or event IDs to leave out.
        show: codes or event IDs to show only (empty: every one).
        hide_cfn_unstable: leave out UnstableTrait warnings about CloudFormation traits
            (``build`` does by default, ``validate`` does not).
    """

    severity: Severity
    hide: tuple[str, ...]
    show: tuple[str, ...]
    hide_cfn_unstable: bool

    def __init__(self, severity: Severity = Severity.WARNING, hide: tuple[str, ...] = (),
                 show: tuple[str, ...] = (), hide_cfn_unstable: bool = False) -> None:
        self.__dict__.update(severity=severity, hide=hide, show=show, hide_cfn_unstable=hide_cfn_unstable)

    def keeps(self, diagnostic: Diagnostic) -> bool:
        """True when the command line shows ``diagnostic``."""
        if diagnostic.is_error:
            return True
        if diagnostic.severity < self.severity:
            return False
        if any(matches(diagnostic, ident) for ident in self.hide):
            return False
        shown = any(matches(diagnostic, ident) for ident in self.show)
        if self.show and not shown:
            return False
        return not (self.hide_cfn_unstable and not shown and is_cfn_unstable_trait(diagnostic))

    def select(self, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
        """The diagnostics shown, in their order."""
        return [d for d in diagnostics if self.keeps(d)]


def split_ids(values: Iterable[str]) -> tuple[str, ...]:
    """Option values as IDs: each value may hold several, separated by commas or spaces
    (``--hide S3006,S2010`` and ``--hide S3006 --hide S2010`` say the same)."""
    return tuple(part for value in values for part in value.replace(",", " ").split())


# --------------------------------------------------------------------------- SARIF


def find_root(start: str | os.PathLike[str] | None = None) -> Path:
    """The folder SARIF paths are relative to: the nearest folder at or above ``start``
    (default: the current folder) holding a ``.git`` entry (the repository's root, as
    code scanning expects), else ``start`` itself. Never raises."""
    here = Path(start if start is not None else os.getcwd()).absolute()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return here


def _level(severity: Severity) -> str:
    """SARIF ``level`` of a severity (DANGER fails a run, so it is an error)."""
    if severity >= Severity.DANGER:
        return "error"
    return "warning" if severity == Severity.WARNING else "note"


def _artifact(path: str, root: Path) -> dict[str, Any] | None:
    """SARIF ``artifactLocation`` of a diagnostic's file: relative to ``root`` (with
    ``uriBaseId`` :data:`SRCROOT`) when inside it, else an absolute ``file:`` URI; ``None``
    for a place that is no file (``<command line --org>``)."""
    from urllib.parse import quote

    if not path or path.startswith("<"):
        return None
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(root)
    except ValueError:
        return {"uri": absolute.as_uri()}
    return {"uri": quote(relative.as_posix()), "uriBaseId": SRCROOT}


def _result(d: Diagnostic, rule_index: int, root: Path) -> dict[str, Any]:
    text = d.message if not d.hint else f"{d.message}\nhelp: {d.hint}"
    result: dict[str, Any] = {"ruleId": d.code, "ruleIndex": rule_index, "level": _level(d.severity),
                              "message": {"text": text}}
    location: dict[str, Any] = {}
    artifact = _artifact(d.span.path, root) if d.span is not None else None
    if d.span is not None and artifact is not None:
        physical: dict[str, Any] = {"artifactLocation": artifact}
        if d.span.line > 0:
            region: dict[str, Any] = {"startLine": d.span.line}
            if d.span.column > 0:
                region["startColumn"] = d.span.column
            if d.span.column > 0 and d.span.end_column > 0 and \
                    (d.span.end_line, d.span.end_column) > (d.span.line, d.span.column):
                region["endLine"] = d.span.end_line
                region["endColumn"] = d.span.end_column  # exclusive in both
            physical["region"] = region
        location["physicalLocation"] = physical
    elif d.span is not None:
        text += f" ({d.span.path})"
        result["message"]["text"] = text
    if d.shape_id:
        location["logicalLocations"] = [{"fullyQualifiedName": d.shape_id, "kind": "type"}]
    if location:
        result["locations"] = [location]
    return result


def _rule(code: str) -> dict[str, Any]:
    entry = CODES.get(code)
    rule: dict[str, Any] = {"id": code}
    if entry is not None:
        if entry.event_id:
            rule["name"] = entry.event_id
        rule["shortDescription"] = {"text": entry.meaning}
        rule["defaultConfiguration"] = {"level": _level(entry.severity)}
    return rule


def sarif_document(diagnostics: Sequence[Diagnostic], *, root: str | os.PathLike[str] | None = None,
                   successful: bool = True) -> dict[str, Any]:
    """A SARIF 2.1.0 log of ``diagnostics`` (one run of the tool ``smithy2cfn``).

    * Rule IDs are the diagnostic codes (``S3006``), stable across versions; each rule
      named after the reference's event ID (``UnstableTrait``) where there is one, with
      the code's meaning (:data:`~smithy2cfn.diagnostics.CODES`) as its description. Only
      the rules of the results are listed, sorted by ID.
    * Paths are relative to ``root`` (default :func:`find_root`), under the base ID
      :data:`SRCROOT`; files outside it get absolute ``file:`` URIs; places that are no
      file (``<command line --org>``) are named in the message.
    * A result's ``level`` is ``error`` (ERROR, DANGER), ``warning`` or ``note``; its
      shape ID is a logical location.
    * Deterministic: no time stamps, results sorted as the diagnostics are; at most
      :data:`~smithy2cfn.diagnostics.MAX_PER_CODE` of one code and severity
      (:func:`~smithy2cfn.diagnostics.funnel`).

    A run with no diagnostics is a valid log with an empty ``results`` list.

    Args:
        diagnostics: the diagnostics to report (already filtered).
        root: the repository root (see above).
        successful: ``invocations[0].executionSuccessful`` (false for a configuration
            error: the tool could not do its work).

    Returns:
        The log as a JSON-ready dict (render it with :func:`render_sarif`).
    """
    base = find_root(root) if root is None else Path(root).absolute()
    items = funnel(diagnostics)
    codes = sorted({d.code for d in items})
    index = {code: i for i, code in enumerate(codes)}
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "smithy2cfn", "version": __version__, "semanticVersion": __version__,
                            "rules": [_rule(code) for code in codes]}},
        "originalUriBaseIds": {SRCROOT: {"uri": base.as_uri().rstrip("/") + "/"}},
        "invocations": [{"executionSuccessful": successful}],
        "columnKind": "unicodeCodePoints",
        "results": [_result(d, index[d.code], base) for d in items],
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def render_sarif(document: dict[str, Any]) -> str:
    """A SARIF log as strict JSON text (2-space indent, keys in a fixed order, trailing
    newline)."""
    import json

    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
