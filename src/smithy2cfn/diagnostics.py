"""Diagnostics: every problem found in a model or a build.

A :class:`Diagnostic` carries a stable code, a :class:`Severity`, a plain message, an
optional shape ID and a :class:`Span` (file, 1-based line and column). Stages never raise
on bad input: they append diagnostics to a list and go on, so one run reports all the
problems it can find (the reference's ``ValidationEvent`` model, Smithy 2.0
"Model validation").

Every code is registered in :data:`CODES` with its usual severity, the reference's event ID
(filled in for every diagnostic that does not give one) and its meaning; README
"Diagnostics" lists the same table. Code groups:

* ``S1xxx`` parse (IDL syntax, JSON AST syntax, I/O)
* ``S2xxx`` load (shape resolution, mixins, apply, traits, prelude)
* ``S3xxx`` validate (semantic model checks)
* ``S4xxx`` derive / emit (CloudFormation conversion, meta-schema check)
* ``S5xxx`` configuration and output
"""

from __future__ import annotations

import enum
import json
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any


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


@dataclass(frozen=True, order=True, init=False)
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

    def __init__(self, path: str, line: int = 0, column: int = 0, end_line: int = 0, end_column: int = 0) -> None:
        # The frozen dataclass's own __init__ sets each field through object.__setattr__:
        # 2.5 times slower, and the IDL front end makes a span per shape, member and trait.
        d = self.__dict__
        d["path"], d["line"], d["column"], d["end_line"], d["end_column"] = path, line, column, end_line, end_column

    def __str__(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}:{self.column}"
        return self.path


@dataclass(frozen=True)
class Code:
    """A diagnostic code and what it means, declared by the module that reports it
    (:func:`declare_codes`, or a check's decorator in :mod:`smithy2cfn.checks`).

    Attributes:
        code: the stable code, ``S`` and four digits (``"S3001"``); the first digit is the
            stage (1 parse, 2 load, 3 validate, 4 derive and emit, 5 configuration and
            output, 6 lint, 7 command line).
        severity: the code's usual severity.
        event_id: the reference's validation event ID (Smithy 2.0 "Model validation"; the
            reference's ``Validator.MODEL_ERROR`` is ``"Model"``), or ``None`` where the
            reference has no event (files and folders, the conversion, configuration and
            output). A diagnostic that gives none takes this one.
        meaning: one line for README's table and SARIF's rule description.
        also: the other severities some of its uses have (``S1003`` is a warning for a
            skipped folder entry).
        usage: an ERROR of this code is a usage or configuration problem, not one of the
            model or the output: the command line exits 2 (README "Command line").
        owner: the module that declares it (filled in by :func:`declare_codes`).
    """

    code: str
    severity: Severity
    event_id: str | None
    meaning: str
    also: tuple[Severity, ...] = ()
    usage: bool = False
    owner: str = ""

    @property
    def severities(self) -> tuple[Severity, ...]:
        """Every severity the code is reported with, the usual one first."""
        return (self.severity, *self.also)

    def to_json(self) -> dict[str, Any]:
        """The code's catalog entry (:mod:`smithy2cfn.catalog`)."""
        return {"severity": self.severity.label, "also": [s.label for s in self.also], "eventId": self.event_id,
                "meaning": self.meaning, "usage": self.usage, "owner": self.owner}

    @classmethod
    def from_json(cls, code: str, entry: dict[str, Any]) -> Code:
        """A code from its catalog entry (see :meth:`to_json`).

        Raises:
            KeyError, ValueError, AttributeError: a malformed entry.
        """
        return cls(code, Severity[entry["severity"].upper()], entry.get("eventId"), entry["meaning"],
                   tuple(Severity[s.upper()] for s in entry.get("also", ())), bool(entry.get("usage")),
                   entry.get("owner", ""))


class CodeTable(Mapping[str, Code]):
    """Every diagnostic code: code → :class:`Code` (the type of :data:`CODES`).

    A code declared by a module that is imported (:func:`declare_codes`) answers from its
    declaration; any other from the shipped catalog (:func:`smithy2cfn.catalog.read`), read
    on the first such look-up. Iterating lists every code of the catalog and every code
    declared so far, sorted. A look-up never imports a module.
    """

    def __init__(self) -> None:
        self._declared: dict[str, Code] = {}
        self._catalog: dict[str, Code] | None = None

    def declare(self, entry: Code) -> Code:
        """Record ``entry``; returns it.

        Raises:
            ValueError: another module already declared the code (a code has one owner), or
                the code is not ``S`` and four digits.
        """
        if len(entry.code) != 5 or entry.code[0] != "S" or not entry.code[1:].isdigit():
            raise ValueError(f"a diagnostic code is S and four digits, not {entry.code!r}")
        old = self._declared.get(entry.code)
        if old is not None and old.owner != entry.owner:
            raise ValueError(f"{entry.code} is declared by {old.owner} and by {entry.owner}: a code has one owner")
        self._declared[entry.code] = entry
        return entry

    def declared(self) -> dict[str, Code]:
        """The codes declared by the modules imported so far (code → entry)."""
        return dict(self._declared)

    def _shipped(self) -> dict[str, Code]:
        if self._catalog is None:
            from smithy2cfn import catalog

            found: dict[str, Code] = {}
            for code, entry in catalog.read().get("codes", {}).items():
                try:
                    found[code] = Code.from_json(code, entry)
                except (KeyError, ValueError, TypeError, AttributeError):
                    continue
            self._catalog = found
        return self._catalog

    def __getitem__(self, code: str) -> Code:
        hit = self._declared.get(code)
        return hit if hit is not None else self._shipped()[code]

    def __contains__(self, code: object) -> bool:
        return code in self._declared or code in self._shipped()

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(set(self._declared) | set(self._shipped())))

    def __len__(self) -> int:
        return len(set(self._declared) | set(self._shipped()))


#: Every diagnostic code (:class:`CodeTable`); README "Diagnostics" lists them (generated by
#: ``python -m smithy2cfn.precompute``).
CODES = CodeTable()


def declare_codes(*entries: Code, owner: str | None = None) -> dict[str, Code]:
    """Declare the codes a module reports, at its top: ``CODES = declare_codes(Code("S1001",
    Severity.ERROR, "Model", "IDL syntax error"), ...)``. ``owner`` is the declaring module
    (default: the caller's ``__name__``). Returns code → entry.

    Raises:
        ValueError: a code is already declared by another module (see :meth:`CodeTable.declare`).
    """
    if owner is None:
        owner = sys._getframe(1).f_globals.get("__name__", "")
    return {e.code: CODES.declare(replace(e, owner=owner)) for e in entries}


def event_id_of(code: str) -> str | None:
    """The reference's event ID for ``code`` (:data:`CODES`), or ``None`` (no such event, or
    a code that is not ours: an extension's)."""
    entry = CODES.get(code)
    return entry.event_id if entry is not None else None


#: The most characters of a source line that a text diagnostic shows.
SOURCE_WINDOW = 120


@dataclass(frozen=True)
class Diagnostic:
    """One problem: ``code`` (e.g. ``"S2001"``), severity, message, span, shape ID, hint.

    ``event_id`` is the reference's validation event ID where the problem has one
    (``"TraitTarget"``...); suppressions (Smithy 2.0 "Model validation" §"Suppressions")
    match it. Left out, it is the code's (:data:`CODES`); a caller gives one only where a
    code covers several reference events (``S3105``: ``DeprecatedShape.<target>``).
    """

    code: str
    severity: Severity
    message: str
    span: Span | None = None
    shape_id: str | None = None
    hint: str | None = None
    event_id: str | None = None

    def __post_init__(self) -> None:
        if self.event_id is None:
            object.__setattr__(self, "event_id", event_id_of(self.code))

    @property
    def is_error(self) -> bool:
        """True when this diagnostic fails the build: ERROR, or DANGER (which, as in the
        reference, fails validation unless a suppression hides it)."""
        return self.severity >= Severity.DANGER

    def sort_key(self) -> tuple[str, int, int, str, str, str, str, int, str, int, int]:
        """Key sorting by file, line, column, then code, shape and message, then every other
        field: a total order, so that the order never depends on how a set was hashed
        (two configured validators can report the same message at the same place under
        different event IDs)."""
        s = self.span
        return (
            s.path if s else "",
            s.line if s else 0,
            s.column if s else 0,
            self.code,
            self.shape_id or "",
            self.message,
            self.event_id or "",
            int(self.severity),
            self.hint or "",
            (s.end_line or 0) if s else 0,
            (s.end_column or 0) if s else 0,
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

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: code, severity, message, file, line, column, shapeId, hint."""
        d: dict[str, Any] = {"code": self.code, "severity": self.severity.label, "message": self.message}
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
        severity: Severity | None,
        message: str,
        span: Span | None = None,
        shape_id: str | None = None,
        hint: str | None = None,
        event_id: str | None = None,
    ) -> Diagnostic:
        """Record one diagnostic and return it. ``severity`` ``None`` is the code's usual one
        and ``event_id`` ``None`` the code's reference event ID (:data:`CODES`)."""
        if severity is None:
            severity = CODES[code].severity
        d = Diagnostic(code, severity, message, span, shape_id, hint, event_id)
        self.items.append(d)
        return d

    def error(self, code: str, message: str, span: Span | None = None, shape_id: str | None = None,
              hint: str | None = None, event_id: str | None = None) -> Diagnostic:
        """Record an ERROR diagnostic."""
        return self.add(code, Severity.ERROR, message, span, shape_id, hint, event_id)

    def warning(self, code: str, message: str, span: Span | None = None, shape_id: str | None = None,
                hint: str | None = None, event_id: str | None = None) -> Diagnostic:
        """Record a WARNING diagnostic."""
        return self.add(code, Severity.WARNING, message, span, shape_id, hint, event_id)

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

    def __iter__(self) -> Iterator[Diagnostic]:
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
    seen: dict[tuple[str, Severity, str], int] = {}
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
