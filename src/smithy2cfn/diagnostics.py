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
from collections.abc import Iterator
from dataclasses import dataclass, field
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


@dataclass(frozen=True)
class Code:
    """What a diagnostic code means (one entry of :data:`CODES`).

    ``severity`` is the code's usual severity; ``other_severities`` lists the others some of
    its uses have (``S1003`` is a warning for a skipped folder entry). ``event_id`` is the
    reference's validation event ID (Smithy 2.0 "Model validation"; the reference's
    ``Validator.MODEL_ERROR`` is ``"Model"``), or ``None`` where the reference has no event
    (files and folders, the conversion, configuration and output).
    """

    severity: Severity
    event_id: str | None
    meaning: str
    other_severities: tuple[Severity, ...] = ()

    @property
    def severities(self) -> tuple[Severity, ...]:
        """Every severity the code is reported with, the usual one first."""
        return (self.severity, *self.other_severities)


_E, _W, _D, _N = Severity.ERROR, Severity.WARNING, Severity.DANGER, Severity.NOTE
#: Every diagnostic code: code → :class:`Code`. README.md §"Diagnostics" lists the same codes
#: with the same severities and event IDs (``tests/test_readme.py`` checks it).
CODES: dict[str, Code] = {
    # parse (IDL, JSON AST, files)
    "S1000": Code(_E, None, "a model path does not exist or cannot be read"),
    "S1001": Code(_E, "Model", "IDL syntax error (grammar, tokens, escapes, numbers, required line breaks)"),
    "S1002": Code(_E, None, "the file is not valid UTF-8"),
    "S1003": Code(_E, None, "a model path is not a regular file or folder (a FIFO, a device, a socket); warning "
                  "for such an entry (or a broken symbolic link) in a model folder, which is skipped", (_W,)),
    "S1004": Code(_E, None, "a model file is larger than 256 MiB"),
    "S1005": Code(_E, None, "a path cannot be resolved: name too long, symbolic link loop"),
    "S1006": Code(_E, None, "a folder under a model folder cannot be listed"),
    "S1010": Code(_E, "Model", "statement out of order (`$version` not first, `use` after shapes...)"),
    "S1011": Code(_E, "Model", "duplicate statement, member, trait or object key"),
    "S1012": Code(_E, "Model", "bad `$version` or operation input/output suffix"),
    "S1013": Code(_E, "Model", "IDL 2.0 feature in a 1.0 file (mixins, `:=`, `for`, `$member`, defaults, enums, "
                  "resource properties), or `set` in 2.0"),
    "S1014": Code(_E, "Model", "invalid `use` statement, or a shape named like a `use`d one"),
    "S1015": Code(_W, "Model", "unknown control statement"),
    "S1016": Code(_E, "Model", "node value nested more than 256 levels deep (IDL and JSON AST; see Limits)"),
    "S1017": Code(_E, "Model", "wrong members for a list/map/enum, badly typed service/resource properties"),
    "S1100": Code(_E, "Model", "JSON AST file is not valid JSON (RFC 8259: `NaN` and `Infinity` are not JSON)"),
    "S1101": Code(_E, "Model", "JSON AST document has the wrong structure (not an object, no `smithy` version, "
                  "`metadata`/`shapes`/a shape entry not an object)"),
    "S1102": Code(_E, "Model", "unsupported Smithy version"),
    "S1103": Code(_E, "Model", "a number literal out of range (IDL or JSON; see Limits)"),
    "S1104": Code(_E, "Model", "a JSON AST property has the wrong type or is missing (`mixins`, `members`, "
                  "`traits`, `target`, `rename`...)"),
    "S1105": Code(_E, "Model", "a JSON AST shape ID or member name is invalid (trait names, targets, `rename` keys)"),
    "S1106": Code(_W, "Model", "unknown JSON AST property (ignored, as the reference does)"),
    # load
    "S2001": Code(_E, "Target", "a shape reference does not resolve (with a \"did you mean\" hint)"),
    "S2002": Code(_E, "Model", "a shape is defined twice (or redefines a built-in shape)"),
    "S2003": Code(_E, "Model", "`apply` targets a shape or member that does not exist"),
    "S2004": Code(_E, "Model", "unknown shape type"),
    "S2005": Code(_E, "Model", "conflicting metadata values"),
    "S2006": Code(_E, "Model", "malformed shape entry (member without target, bad reference)"),
    "S2010": Code(_W, "Model.UnresolvedTrait", "unknown trait (no definition loaded); kept as is, reported once"),
    "S2011": Code(_E, "Model", "a shape applied as a trait is not a trait definition"),
    "S2012": Code(_E, "Model", "a trait needs a value"),
    "S2013": Code(_E, "Model", "two different values for one trait"),
    "S2020": Code(_E, "Model", "mixin cycle (reported on every shape on it)"),
    "S2021": Code(_E, "Model", "mixin without `@mixin`, or of another shape type"),
    "S2022": Code(_E, "Model", "member conflicts with an inherited mixin member"),
    "S2023": Code(_E, "Model", "`for` names a shape that is not a resource"),
    "S2024": Code(_E, "Model", "elided member matches no resource identifier/property or mixin member"),
    "S2025": Code(_E, "SyntacticShapeIdTarget", "an unquoted node value names no shape"),
    "S2026": Code(_E, "Model", "`@box` in an IDL 2.0 model"),
    "S2027": Code(_D, "PrivateAccess", "a structure is `for` a `@private` resource of another namespace"),
    # validate
    "S3001": Code(_E, "TraitTarget", "trait applied outside its selector"),
    "S3002": Code(_E, "TraitConflict", "conflicting traits"),
    "S3003": Code(_E, "TraitValue", "trait value does not match the trait's shape"),
    "S3004": Code(_W, "TraitValue", "trait value has a member the trait's shape lacks"),
    "S3005": Code(_E, "StructurallyExclusiveTrait", "structurally exclusive trait used twice"),
    "S3006": Code(_W, "UnstableTrait", "unstable trait"),
    "S3007": Code(_E, "DefaultTrait", "`@default` value of the wrong type"),
    "S3008": Code(_N, "TraitTarget", "a selector cannot be evaluated; its check is skipped"),
    "S3009": Code(_E, "TraitValue", "a selector (`@trait`, `@idRef`) nests functions more than 50 levels deep "
                  "(see Limits)"),
    "S3010": Code(_E, "ResourceLifecycle", "lifecycle operation with the wrong `@readonly`/`@idempotent`"),
    "S3011": Code(_E, "ResourceIdentifierBinding", "instance operation does not bind every identifier"),
    "S3012": Code(_E, "ResourceIdentifierBinding", "collection operation binds every identifier"),
    "S3013": Code(_E, "ResourceIdentifier", "child resource lacks its parent's identifiers"),
    "S3014": Code(_E, "ResourceIdentifier", "resource identifier does not target a string"),
    "S3015": Code(_E, "ResourceIdentifierBinding", "`@resourceIdentifier` names no identifier"),
    "S3016": Code(_E, "ResourceCycle", "resource containment cycle"),
    "S3017": Code(_E, "ResourceOperationInputOutput", "property binding problem"),
    "S3018": Code(_E, "Target", "a relationship targets the wrong kind of shape"),
    "S3020": Code(_E, "TraitValue", "a `@pattern` cannot be compiled: groups nested more than 100 deep, or a "
                  "repetition count too large (`a{4294967296}`)"),
    "S3030": Code(_E, "EnumShape", "enum value that is not a non-empty string"),
    "S3031": Code(_E, "EnumShape", "duplicate enum / intEnum values (IntEnumShape for an intEnum)"),
    "S3032": Code(_E, "Model", "enum / intEnum without members"),
    "S3033": Code(_E, "IntEnumShape", "intEnum value that is not a 32-bit integer"),
    "S3040": Code(_E, "Model", "operation / resource mixin with input, output, identifiers..."),
    "S3041": Code(_E, "Model", "list / map without its required members"),
    "S3043": Code(_E, "Model", "two mixins give a member different targets"),
    "S3050": Code(_E, "CfnResourceProperty", "a CloudFormation property targets different shapes (a warning "
                  "when they are all of one type)", (_W,)),
    "S3051": Code(_E, "CfnResourceProperty", "primary identifier is not a string property"),
    "S3052": Code(_E, "CfnMutabilityTrait", "write/create-only member marked additional identifier"),
    "S3099": Code(_E, None, "internal error in one validator: the model is not accepted unchecked (please report)"),
    # derive / emit
    "S4001": Code(_E, None, "the `service` setting names no service (with a \"did you mean\" hint)"),
    "S4002": Code(_E, None, "no `service` setting and not exactly one service in the model"),
    "S4003": Code(_E, None, "a resource has no identifiers, so no `primaryIdentifier`"),
    "S4004": Code(_E, None, "an additional identifier is not a property of the resource"),
    "S4005": Code(_E, None, "a `jsonAdd` pointer cannot be applied"),
    "S4006": Code(_E, None, "`organizationName` missing and the service has no `@aws.api#service`"),
    "S4007": Code(_E, None, "a `@taggable` property is not a property of the resource"),
    "S4008": Code(_E, None, "a `@taggable` resource has no tag operation to read its tags with"),
    "S4009": Code(_E, None, "a resource has no properties"),
    "S4010": Code(_E, None, "two resources give the same typeName"),
    "S4011": Code(_W, None, "a `@cfnResource` resource is not bound to the converted service, so it gets no schema"),
    "S4012": Code(_W, None, "the converted service has no `@cfnResource` resource, so nothing is written"),
    "S4101": Code(_W, None, "a JSON Schema keyword the CloudFormation meta-schema forbids is left out "
                  "(e.g. `contentMediaType`)"),
    "S4102": Code(_E, None, "two shapes want the same definition name"),
    "S4103": Code(_E, None, "a `@range` bound is not a finite number"),
    "S4104": Code(_E, None, "a `@length` bound is not a finite whole number (`1e400`, `1.5`)"),
    "S4105": Code(_E, None, "a `@default` or enum value cannot be written as strict JSON (`NaN`, `Infinity`, "
                  "beyond a double, too deep)"),
    "S4106": Code(_E, None, "lists nested inside each other more than 64 deep (see Limits)"),
    "S4108": Code(_E, None, "a finished schema is not strict JSON, or too deeply nested to write or check "
                  "(names the pointer)"),
    "S4109": Code(_E, None, "internal error: a mapper raised or returned no schema (names the mapper; please report)"),
    "S4301": Code(_N, None, "registry-ready: a resource without `@aws.api#taggable` gets `tagging: {taggable: false}`"),
    "S4302": Code(_W, None, "a tags-like property on a resource without `@aws.api#taggable` (its schema says it "
                  "cannot be tagged)"),
    "S4303": Code(_N, None, "registry-ready: `tagUpdatable` is false (no update handler, or no tag and untag "
                  "operations)"),
    "S4304": Code(_N, None, "registry-ready: the tag property is neither createOnly nor writeOnly (tags change "
                  "through the tag operations)"),
    "S4305": Code(_N, None, "registry-ready: a handler gets the permissions of the tag operations it calls"),
    "S4306": Code(_N, None, "registry-ready: HTML descriptions are written as plain text"),
    "S4307": Code(_N, None, "registry-ready: descriptions shortened to their first sentence so the schema fits in "
                  "60 KiB"),
    "S4308": Code(_E, None, "a schema is over 60 KiB even with its descriptions shortened"),
    "S4309": Code(_N, None, "registry-ready: arrays get an explicit `insertionOrder`"),
    "S4310": Code(_N, None, "registry-ready: a list handler gets a `handlerSchema` for the parent identifiers its "
                  "input needs"),
    "S4201": Code(_E, None, "a schema fails the CloudFormation meta-schema (names the property)"),
    "S4202": Code(_W, None, "a `format` (e.g. a Java-only regex) that the CloudFormation CLI does not check"),
    # configuration and output
    "S5000": Code(_E, None, "config file unreadable, not a regular file, too large, or not strict JSON (exit 2)"),
    "S5001": Code(_E, None, "a setting or smithy-build.json key has the wrong type or value (exit 2)"),
    "S5002": Code(_W, None, "unknown setting or smithy-build.json key"),
    "S5003": Code(_W, None, "smithy-build.json `maven` dependencies are not fetched"),
    "S5004": Code(_W, None, "smithy-build.json projection transforms are not applied"),
    "S5005": Code(_E, None, "nothing to build: no model file or folder given and no smithy-build.json (exit 2)"),
    "S5010": Code(_E, None, "`--check`: an output file is missing or out of date"),
    "S5011": Code(_E, None, "an output file cannot be written"),
    "S5020": Code(_E, None, "`organizationName` / `serviceName` (config key, `--org`, `--service-name`, library "
                  "`settings`) cannot be part of a typeName (2–64 ASCII letters or digits each); nothing is "
                  "written (exit 2)"),
    "S5021": Code(_E, None, "`jsonAdd` or `schemaDocumentExtensions` sets a `typeName` that is not "
                  "`Org::Service::Resource` (exit 2)"),
    "S5022": Code(_E, None, "the model makes a bad typeName part: `@cfnResource(name:)`, "
                  "`@aws.api#service(cloudFormationName:)` too long, or a shape name (located at the trait or shape)"),
    "S5023": Code(_E, None, "a custom mapper sets a bad `typeName`"),
    "S5024": Code(_E, None, "an output file name is not a plain name inside the output folder, or `--check` would "
                  "read through a link leaving it"),
    "S5030": Code(_E, None, "an extension cannot be used: its entry point does not import, it cannot be made, "
                  "or a hook raises or returns no list of mappers (exit 2)", (_W,)),
    # the command line in CI (issue 10)
    "S7000": Code(_E, None, "`smithy2cfn plugin` run without `SMITHY_PLUGIN_DIR` (not by Smithy's run plugin; "
                  "exit 2)"),
}


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
    code covers several reference events (``S3031``: ``EnumShape`` or ``IntEnumShape``).
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

    def sort_key(self) -> tuple[str, int, int, str, str, str]:
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
