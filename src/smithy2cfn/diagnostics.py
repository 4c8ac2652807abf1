"""Diagnostics: every problem found in a model or a build.

A :class:`Diagnostic` carries a stable code, a :class:`Severity`, a plain message, an
optional shape ID and a :class:`Span` (file, 1-based line and column). Stages never raise
on bad input: they append diagnostics to a list and go on, so one run reports all the
problems it can find (the reference's ``ValidationEvent`` model, Smithy 2.0
"Model validation").

Code groups (see README "Diagnostics"):

* ``S1xxx`` parse (IDL syntax, JSON AST syntax, I/O)
* ``S2xxx`` load (shape resolution, mixins, apply, traits, prelude)
* ``S3xxx`` validate (semantic model checks)
* ``S4xxx`` derive / emit (CloudFormation conversion, meta-schema check)
* ``S5xxx`` configuration and output
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from pathlib import Path


class Severity(enum.IntEnum):
    """How bad a diagnostic is; ``ERROR`` and above fail a build.

    Ordered like the reference's ``Severity``: NOTE < WARNING < DANGER < ERROR.
    """

    NOTE = 0
    WARNING = 1
    DANGER = 2
    ERROR = 3

    @property
    def label(self) -> str:
        """Lower-case name used in the text format (``error``, ``warning``...)."""
        return self.name.lower()


@dataclass(frozen=True, order=True)
class Span:
    """A place in a source file: path and 1-based line/column (end inclusive-exclusive).

    ``line``/``column`` 0 mean "somewhere in this file" (e.g. a JSON AST file without
    positions for a node).
    """

    path: str
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}:{self.column}"
        return self.path


#: The most characters of a source line that a text diagnostic shows.
SOURCE_WINDOW = 120


@dataclass(frozen=True)
class Diagnostic:
    """One problem: ``code`` (e.g. ``"S2001"``), severity, message, span, shape ID, hint.

    ``event_id`` is the reference's validation event ID where the problem has one
    (``"TraitTarget"``...); suppressions (Smithy 2.0 "Model validation" §"Suppressions")
    match it.
    """

    code: str
    severity: Severity
    message: str
    span: Span | None = None
    shape_id: str | None = None
    hint: str | None = None
    event_id: str | None = None

    @property
    def is_error(self) -> bool:
        """True when this diagnostic fails the build: ERROR, or DANGER (which, as in the
        reference, fails validation unless a suppression hides it)."""
        return self.severity >= Severity.DANGER

    def sort_key(self) -> tuple:
        """Key sorting by file, line, column, then code and message (deterministic)."""
        s = self.span
        return (
            s.path if s else "",
            s.line if s else 0,
            s.column if s else 0,
            self.code,
            self.shape_id or "",
            self.message,
        )

    def format_text(self, source_line: str | None = None) -> str:
        """Render as ``file:line:col: severity[CODE] message`` (+ source line and caret).

        ``source_line`` is the text of the offending line, without its newline; when given,
        it is printed under the message with a caret under ``span.column``: at most
        :data:`SOURCE_WINDOW` characters of it, around the column (``…`` marks what is cut),
        so that a 200 KB line does not print 200 KB per diagnostic.
        """
        where = f"{self.span}: " if self.span else ""
        shape = f" (shape {self.shape_id})" if self.shape_id and self.shape_id not in self.message else ""
        out = f"{where}{self.severity.label}[{self.code}] {self.message}{shape}"
        if source_line is not None and self.span and self.span.line:
            gutter = f"{self.span.line:>5} | "
            start = max(self.span.column - 1, 0)
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                width = self.span.end_column - self.span.column
            text = source_line
            if len(text) > SOURCE_WINDOW:
                first = max(0, min(start - SOURCE_WINDOW // 4, len(text) - SOURCE_WINDOW))
                shown = text[first:first + SOURCE_WINDOW]
                text = ("…" if first else "") + shown + ("…" if first + SOURCE_WINDOW < len(source_line) else "")
                start = start - first + (1 if first else 0)
                width = min(width, SOURCE_WINDOW)
            text = text.expandtabs(1)
            width = max(1, min(width, len(text) - start))
            out += f"\n{gutter}{text}\n{' ' * (len(gutter) - 2)}| {' ' * start}{'^' * width}"
        if self.hint:
            out += f"\n      = help: {self.hint}"
        return out

    def to_json(self) -> dict:
        """A JSON-ready dict: code, severity, message, file, line, column, shapeId, hint."""
        d: dict = {"code": self.code, "severity": self.severity.label, "message": self.message}
        if self.span:
            d.update(file=self.span.path, line=self.span.line, column=self.span.column)
        if self.shape_id:
            d["shapeId"] = self.shape_id
        if self.hint:
            d["hint"] = self.hint
        if self.event_id:
            d["eventId"] = self.event_id
        return d


@dataclass
class Diagnostics:
    """An append-only, sortable collection of :class:`Diagnostic` objects."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(
        self,
        code: str,
        severity: Severity,
        message: str,
        span: Span | None = None,
        shape_id: str | None = None,
        hint: str | None = None,
    ) -> Diagnostic:
        """Record one diagnostic and return it."""
        d = Diagnostic(code, severity, message, span, shape_id, hint)
        self.items.append(d)
        return d

    def error(self, code: str, message: str, span: Span | None = None, shape_id: str | None = None,
              hint: str | None = None) -> Diagnostic:
        """Record an ERROR diagnostic."""
        return self.add(code, Severity.ERROR, message, span, shape_id, hint)

    def warning(self, code: str, message: str, span: Span | None = None, shape_id: str | None = None,
                hint: str | None = None) -> Diagnostic:
        """Record a WARNING diagnostic."""
        return self.add(code, Severity.WARNING, message, span, shape_id, hint)

    def extend(self, other: Diagnostics | list[Diagnostic]) -> None:
        """Append every diagnostic of ``other``."""
        self.items.extend(other.items if isinstance(other, Diagnostics) else other)

    @property
    def has_errors(self) -> bool:
        """True when any diagnostic fails the build (ERROR or DANGER)."""
        return any(d.is_error for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        """Deduplicated diagnostics sorted by file, line, column."""
        return sorted(set(self.items), key=Diagnostic.sort_key)

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def _source_line(span: Span | None, cache: dict[str, list[str] | None]) -> str | None:
    if span is None or not span.line:
        return None
    if span.path not in cache:
        try:
            cache[span.path] = Path(span.path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            cache[span.path] = None
    lines = cache[span.path]
    if lines is None or span.line > len(lines):
        return None
    return lines[span.line - 1]


def format_diagnostics(diagnostics: Diagnostics | list[Diagnostic], fmt: str = "text",
                       show_source: bool = True, fold_after: int | None = None) -> str:
    """Render diagnostics sorted by location, one per line (``fmt`` is ``text`` or ``json``).

    ``fold_after`` (text only): non-error diagnostics whose code and message repeat more than
    this many times are shown that many times, then summed up in one line.
    """
    items = diagnostics.sorted() if isinstance(diagnostics, Diagnostics) else sorted(
        set(diagnostics), key=Diagnostic.sort_key)
    if fmt == "json":
        return "".join(json.dumps(d.to_json(), sort_keys=True) + "\n" for d in items)
    cache: dict[str, list[str] | None] = {}
    seen: dict[tuple, int] = {}
    out: list[str] = []
    for d in items:
        key = (d.code, d.severity, d.message)
        seen[key] = seen.get(key, 0) + 1
        if fold_after is not None and not d.is_error and seen[key] > fold_after:
            continue
        out.append(d.format_text(_source_line(d.span, cache) if show_source else None) + "\n")
    for (code, severity, message), count in seen.items():
        if fold_after is not None and severity < Severity.ERROR and count > fold_after:
            out.append(f"{severity.label}[{code}] {message}: {count - fold_after} more like the above "
                       "(--verbose shows them all)\n")
    return "".join(out)
