"""What a diff rule is given: one resource type on both sides (schemas, plans, models), the
:class:`~smithy2cfn.diff.delta.Delta` between its schemas, and the helpers that say where in
the model a change comes from and why.

A side (:class:`Side`) is one version of a build: the schemas by ``typeName`` and, when it
was built from a model, the model and the :class:`~smithy2cfn.derive.plan.ConversionPlan`
(the derivation that gave each property its mutability and the reasons for it). A finding is
located at the Smithy element whose change caused it: in the new model for what is there
now, in the old model (``REV:path:line`` when the old side was read from git) for what is
gone; at the schema file when a side is a folder of schemas.
"""

from __future__ import annotations

from collections.abc import Callable

from smithy2cfn.checks import Check
from smithy2cfn.derive.plan import SYNTHETIC_SUFFIX, ConversionPlan, PropertyPlan, ResourcePlan
from smithy2cfn.derive.resource_index import MutabilitySource, SourceKind
from smithy2cfn.diagnostics import CODES, Diagnostic, Span
from smithy2cfn.diff.delta import REMOVED, Change, Delta
from smithy2cfn.lint.locate import Locator, Site, definition_names
from smithy2cfn.model.jsonread import JsonText
from smithy2cfn.model.shapes import Model, ShapeId
from smithy2cfn.model.traits import TAGGABLE
from smithy2cfn.records import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: ``ns#Name$member`` → ``Name`` (for messages).
_name = ShapeId.name

#: Change keywords that name a whole node (located at its member, not at a trait).
_NODE_KEYWORDS = frozenset({"property", "patternProperties", "items", "schema", "allOf", "anyOf", "oneOf"})


class Side(Record):
    """One version of a build.

    Attributes:
        label: ``"old"`` or ``"new"``.
        name: what it is, for people: ``"origin/main"``, ``"model/vault.smithy"``,
            ``"schemas/old"``.
        schemas: ``typeName`` → schema.
        files: ``typeName`` → the schema's file (a file name of the build, or the file read
            from a folder of schemas).
        model / plan: the model and conversion plan the schemas were made from (``None``
            for a folder of schemas).
        span_path: maps a source path of this side's model to the path diagnostics show
            (the old side read from git: a temporary file → ``REV:path``); identity by default.
        texts: ``typeName`` → the schema file as read, with the positions of its keys (a
            folder of schemas: findings are located in the file).
    """

    label: str
    name: str
    schemas: dict[str, dict[str, Any]]
    files: dict[str, str]
    model: Model | None
    plan: ConversionPlan | None
    span_path: Callable[[str], str]
    texts: dict[str, JsonText]

    def __init__(self, label: str, name: str, schemas: dict[str, dict[str, Any]], files: dict[str, str],
                 model: Model | None = None, plan: ConversionPlan | None = None,
                 span_path: Callable[[str], str] | None = None, texts: dict[str, JsonText] | None = None) -> None:
        self.label, self.name, self.schemas, self.files = label, name, schemas, files
        self.texts = {} if texts is None else texts
        self.model, self.plan = model, plan
        self.span_path = span_path if span_path is not None else (lambda path: path)
        self._definitions: dict[str, str] | None = None

    def resource(self, type_name: str) -> ResourcePlan | None:
        """The plan of the resource whose schema has ``type_name`` (by its file, then by the
        planned ``typeName``), or ``None``."""
        if self.plan is None:
            return None
        file = self.files.get(type_name)
        return next((r for r in self.plan.resources if r.file_name == file), None) or \
            next((r for r in self.plan.resources if r.type_name == type_name), None)

    def locator(self, rplan: ResourcePlan | None) -> Locator | None:
        """A :class:`Locator` for one resource of this side's plan (``None`` without one)."""
        if rplan is None or self.model is None or self.plan is None or rplan.resource_id not in self.model.shapes:
            return None
        if self._definitions is None:
            self._definitions = definition_names(self.model, self.plan)
        return Locator(self.model, self.plan, rplan, self._definitions)

    def span(self, span: Span | None) -> Span | None:
        """``span`` with its path as diagnostics show it (:attr:`span_path`)."""
        if span is None:
            return None
        shown = self.span_path(span.path)
        return span if shown == span.path else Span(shown, span.line, span.column, span.end_line, span.end_column)


class Finding(Record, frozen=True):
    """One change to one resource type, as reported.

    Attributes:
        diagnostic: the change as a diagnostic (code, severity, message, located in the
            model, hint, event ID ``CfnDiff...``).
        type_name: the resource type.
        level: ``"major"``, ``"minor"`` or ``"patch"`` (the rule's, :func:`smithy2cfn.checks.diff_rule`).
        rule_id: guard-rail's check ID when the rule is one of guard-rail's (``"PR002"``), else ``None``.
        pointer: the schema node concerned (a JSON pointer: ``/properties/KmsKeyId``).
        side: where the finding is located: ``"new"``, or ``"old"`` for something removed.
    """

    diagnostic: Diagnostic
    type_name: str
    level: str
    rule_id: str | None
    pointer: str
    side: str

    def __init__(self, diagnostic: Diagnostic, type_name: str, level: str, rule_id: str | None, pointer: str,
                 side: str) -> None:
        self.__dict__.update(diagnostic=diagnostic, type_name=type_name, level=level, rule_id=rule_id,
                             pointer=pointer, side=side)


def rule_id_of(code: str) -> str | None:
    """guard-rail's check ID of a diff code (``S7102`` → ``PR002``: the last part of its event
    ID ``CfnDiff.GuardRail.PR002``), ``None`` for the rules guard-rail lacks."""
    entry = CODES.get(code)
    event = entry.event_id if entry is not None else None
    if event and event.startswith("CfnDiff.GuardRail."):
        return event.rsplit(".", 1)[1]
    return None


class TypeDiff:
    """One resource type on both sides, as the diff rules see it.

    Args:
        type_name: the ``typeName`` both schemas have (one side's schema is ``None`` when
            the type was added or removed).
        old, new: the two sides.
        delta: the schemas' :class:`Delta` (empty when a side has no schema).

    Attributes:
        old_schema / new_schema: the schemas (``{}`` when absent).
        old_plan / new_plan: the resource plans (``None`` without a model).
        found: the findings reported so far.
    """

    def __init__(self, type_name: str, old: Side, new: Side, delta: Delta) -> None:
        self.type_name, self.old, self.new, self.delta = type_name, old, new, delta
        self.old_schema: dict[str, Any] = old.schemas.get(type_name) or {}
        self.new_schema: dict[str, Any] = new.schemas.get(type_name) or {}
        self.old_plan = old.resource(type_name)
        self.new_plan = new.resource(type_name)
        self._locators = {"old": old.locator(self.old_plan), "new": new.locator(self.new_plan)}
        self.found: list[Finding] = []
        self.check: Check | None = None
        self.undeclared: list[tuple[Check | None, str, str]] = []

    @property
    def paired(self) -> bool:
        """Both sides have the type."""
        return bool(self.old_schema) and bool(self.new_schema)

    def strings(self, side: str, key: str) -> list[str]:
        """The strings of a top-level list of the schema on ``side`` (``createOnlyProperties``...;
        anything else in it left out)."""
        value = (self.new_schema if side == "new" else self.old_schema).get(key)
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []

    def is_new_property(self, pointer: str) -> bool:
        """``pointer`` names a property the new side adds (guard-rail's "NEWLY ADDED": its
        ``properties.added``, nested ones included)."""
        return pointer in self.delta.added_paths

    # -- reporting --------------------------------------------------------------------

    def report(self, code: str, message: str, where: tuple[str, Site | None], hint: str | None = None,
               pointer: str = "") -> None:
        """Report a finding of ``code`` (the running rule's own) with ``message`` (the type
        name is put in front), located at ``where`` (from :meth:`at_new`, :meth:`at_old`...)."""
        check = self.check
        if check is not None and code not in check.codes:
            self.undeclared.append((check, code, message))
            return
        side_label, site = where
        side = self.new if side_label == "new" else self.old
        span = side.span(site.span) if site is not None else None
        if span is None:
            span = Span(side.files.get(self.type_name, side.name))
        entry = CODES.get(code)
        severity = entry.severity if entry is not None else None
        level = getattr(check.run, "level", "major") if check is not None and check.run is not None else "major"
        shape_id = site.shape_id if site is not None and site.shape_id else None
        if shape_id is not None and SYNTHETIC_SUFFIX in shape_id:  # the plan's re-parented member: its resource
            shape_id = shape_id.partition(SYNTHETIC_SUFFIX)[0]
        diagnostic = Diagnostic(code, severity, f"{self.type_name}: {message}", span,  # type: ignore[arg-type]
                                shape_id=shape_id, hint=hint)
        self.found.append(Finding(diagnostic, self.type_name, level, rule_id_of(code), pointer, side_label))

    # -- where ------------------------------------------------------------------------

    def at(self, side: str, parts: tuple[str, ...] | list[str]) -> tuple[str, Site | None]:
        """The model place of the schema node ``parts`` (pointer segments, resolved schema)
        on ``side``; without a model, the key in the schema file (or its nearest ancestor
        there: a node reached through ``$ref`` is located at the property that refers)."""
        locator = self._locators[side]
        if locator is not None:
            return side, locator.site(list(parts))
        return side, self._in_file(side, parts)

    def _in_file(self, side: str, parts: tuple[str, ...] | list[str]) -> Site | None:
        text = (self.new if side == "new" else self.old).texts.get(self.type_name)
        return Site(text.span(tuple(parts)), "") if text is not None else None

    def at_new(self, parts: tuple[str, ...] | list[str]) -> tuple[str, Site | None]:
        """:meth:`at` on the new side."""
        return self.at("new", parts)

    def at_old(self, parts: tuple[str, ...] | list[str]) -> tuple[str, Site | None]:
        """:meth:`at` on the old side (for what the new side no longer has)."""
        return self.at("old", parts)

    def at_change(self, change: Change) -> tuple[str, Site | None]:
        """Where a :class:`~smithy2cfn.diff.delta.Change` comes from: the trait that writes
        its keyword (``@length`` for ``maxLength``...), or the member, in the new model; in
        the old model for a keyword removed."""
        parts = change.parts if change.keyword in _NODE_KEYWORDS else change.parts + (change.keyword,)
        return self.at_old(parts) if change.kind == REMOVED else self.at_new(parts)

    def at_pointer(self, side: str, pointer: str) -> tuple[str, Site | None]:
        """The model place of a property path as the pointer lists write it
        (``/properties/A``, ``/properties/A/*/B``) on ``side``."""
        locator = self._locators[side]
        if locator is not None:
            return side, locator.pointer_site(pointer)
        return side, self._in_file(side, [p for p in pointer.split("/")[1:3] if p])

    def at_handler(self, side: str, handler: str) -> tuple[str, Site | None]:
        """The lifecycle operation of ``handler`` on ``side``."""
        locator = self._locators[side]
        if locator is not None:
            return side, locator.operation_site(handler)
        return side, self._in_file(side, ("handlers", handler))

    def at_resource(self, side: str = "new", trait: str | None = None) -> tuple[str, Site | None]:
        """The resource shape (or one of its traits) on ``side``."""
        locator = self._locators[side]
        if locator is None:
            return side, self._in_file(side, ("tagging",) if trait == TAGGABLE else ())
        return side, (locator.trait_site(trait) if trait else locator.resource_site())

    def shown(self, side: str, span: Span | None) -> str:
        """``span`` as text, its path as that side shows it (``origin/main:model/a.smithy:8:5``)."""
        shown = (self.new if side == "new" else self.old).span(span)
        return str(shown) if shown is not None else "?"

    # -- the plans --------------------------------------------------------------------

    def property(self, side: str, pointer: str) -> PropertyPlan | None:
        """The planned top-level property a pointer (``/properties/Name``...) names on
        ``side``, or ``None``."""
        rplan = self.new_plan if side == "new" else self.old_plan
        parts = pointer.split("/")
        if rplan is None or len(parts) < 3 or parts[1] != "properties":
            return None
        return next((p for p in rplan.properties if p.schema_name == parts[2]), None)

    def mutability_cause(self, pointer: str) -> tuple[str, tuple[str, Site | None]]:
        """Why a property's mutability changed, in model terms, and where to report it.

        Compares the property's mutability sources on both sides (the derivation's own
        reasons, :attr:`PropertyPlan.sources`): a source the new side gained (a
        ``@cfnMutability`` trait, a member in another operation) is located in the new
        model; one the old side had and the new lost (``UpdateVault``'s input no longer
        has the member) is located in the old model. Without plans: ``("", the node)``.
        """
        old, new = self.property("old", pointer), self.property("new", pointer)
        if old is None or new is None:
            return "", (self.at_pointer("new", pointer) if new is not None or old is None
                        else self.at_pointer("old", pointer))
        lost = [s for s in old.sources if not any(_same_source(s, n) for n in new.sources)]
        gained = [s for s in new.sources if not any(_same_source(s, o) for o in old.sources)]
        parts: list[str] = [_gained(s, self.shown("new", s.span)) for s in gained if s.kind is not SourceKind.IDENTIFIER]
        parts += [_lost(s, self.shown("old", s.span), new.name) for s in lost]
        if not parts and old.mutability != new.mutability:
            parts.append(f"its mutability went from {old.mutability.words()} to {new.mutability.words()}")
        if gained and gained[0].span is not None:
            where: tuple[str, Site | None] = ("new", Site(gained[0].span, gained[0].shape_id))
        elif lost and lost[0].span is not None:
            where = ("old", Site(lost[0].span, lost[0].shape_id))
        else:
            where = self.at_pointer("new", pointer)
        return "; ".join(parts), where


def _same_source(a: MutabilitySource, b: MutabilitySource) -> bool:
    """The same reason on both sides: the same step, operation and trait, for a member of
    the same name."""
    return (a.kind, a.operation, a.trait, a.mutability, a.shape_id.rpartition("$")[2]) == \
        (b.kind, b.operation, b.trait, b.mutability, b.shape_id.rpartition("$")[2])



def _gained(source: MutabilitySource, where: str) -> str:
    """A reason the new side has and the old had not, in words."""
    if source.kind is SourceKind.CFN_MUTABILITY:
        return f"{source.shape_id} now has @{source.trait} ({where})"
    if source.kind is SourceKind.ADDITIONAL_IDENTIFIER:
        return f"{source.shape_id} is now @{source.trait} ({where})"
    if source.operation:
        return f"{_name(source.operation)}'s {source.kind.value.split()[-1]} now has it ({where})"
    return f"{source.describe()}"


def _lost(source: MutabilitySource, where: str, name: str) -> str:
    """A reason the old side had and the new has not, in words."""
    if source.kind in (SourceKind.CFN_MUTABILITY, SourceKind.ADDITIONAL_IDENTIFIER):
        return f"{source.shape_id} no longer has @{source.trait} (was at {where})"
    if source.operation:
        return f"{_name(source.operation)}'s {source.kind.value.split()[-1]} no longer has {name} (was at {where})"
    return f"no longer: {source.describe()}"


__all__ = ["Finding", "Side", "TypeDiff", "rule_id_of"]
