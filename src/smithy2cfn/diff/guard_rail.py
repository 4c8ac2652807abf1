"""resource-schema-guard-rail's stateful rules (``--stateful``, previous schema then current
one), one diff rule per check ID, each reported at the model change that caused it.

Read from guard-rail's rule files (``rpdk/guard_rail/rule_library/stateful/``):
``schema-stateful-cfn-enforced-checks.guard`` (PR, PID, RQ, TP, ENM, ML, MI, TAG: errors,
since CloudFormation enforces them when a new version is registered; PAT, which that file
marks ``WARNING``: warnings) and ``schema-stateful-non-cfn-enforced-checks.guard`` (TFDF:
warnings). Each rule reads the :class:`~smithy2cfn.diff.delta.Delta` the way guard-rail reads
its meta-diff: "Only NEWLY ADDED properties can ..." accepts a property the new schema adds
(nested ones included), and nothing else.

Where guard-rail's rule says more than its message (it reads a removed ``enum`` as values
removed, a removed ``maxLength`` as a break; it compares ``primaryIdentifier`` position by
position), the rule here reports what guard-rail reports, so that every guard-rail finding
has a finding here under the same check ID, and says it in the message.
"""

from __future__ import annotations

from smithy2cfn.checks import diff_rule
from smithy2cfn.diagnostics import Code, Severity
from smithy2cfn.diff.context import TypeDiff
from smithy2cfn.diff.delta import ADDED, CHANGED, REMOVED, Change, items_added
from smithy2cfn.model.traits import CFN_NAME, TAGGABLE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ERROR, WARNING = Severity.ERROR, Severity.WARNING
ENFORCED = "guard-rail {} (schema-stateful-cfn-enforced-checks.guard)"
NOT_ENFORCED = "guard-rail {} (schema-stateful-non-cfn-enforced-checks.guard)"


def _code(code: str, rule_id: str, meaning: str, severity: Severity = ERROR) -> Code:
    return Code(code, severity, f"CfnDiff.GuardRail.{rule_id}", meaning)


def _show(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def _node(change: Change) -> str:
    """The node a change is on, for a message: its property path, or ``the schema``."""
    return change.path if change.parts else "the schema"


# -- properties (PR) -----------------------------------------------------------------------


@diff_rule(_code("S7101", "PR001", "a property was removed (a template that sets it fails)"),
           rule=ENFORCED.format("PR001: Resource properties MUST NOT be removed"))
def property_removed(ctx: TypeDiff) -> None:
    """A property (or a nested one) of the old schema is not in the new one; a pattern of a
    map's keys removed counts too, as guard-rail reads it. A top-level property whose
    member is still there under another name is a ``cfnName`` (or ``@property``) rename."""
    renamed = _renames(ctx)
    for change in ctx.delta.of("property", REMOVED):
        pointer = change.path
        if pointer in renamed:
            name, where, why = renamed[pointer]
            ctx.report("S7101", f"property {pointer} removed: {why}", where,
                       "a rename removes the old property from every template: keep the old name (cfnName), or "
                       "release it as a new major version", pointer)
            continue
        ctx.report("S7101", f"property {pointer} removed", ctx.at_change(change),
                   "templates that set it fail: keep the member (deprecate it with @deprecated instead), or release "
                   "the change as a new major version", pointer)
    for change in ctx.delta.of("patternProperties", REMOVED):
        ctx.report("S7101", f"map key pattern {change.path} removed", ctx.at_change(change),
                   "keys that matched it are no longer accepted", change.path)


def _renames(ctx: TypeDiff) -> dict[str, tuple[str, tuple[str, Any], str]]:
    """Removed top-level pointer → (new name, where, why) for properties whose member is
    still there, now written under another name."""
    if ctx.old_plan is None or ctx.new_plan is None:
        return {}
    new_by_name = {p.name: p for p in ctx.new_plan.properties}
    out: dict[str, tuple[str, tuple[str, Any], str]] = {}
    for old in ctx.old_plan.properties:
        new = new_by_name.get(old.name)
        if new is None or new.schema_name == old.schema_name:
            continue
        old_cfn, new_cfn = old.member.traits.get(CFN_NAME), new.member.traits.get(CFN_NAME)
        if old_cfn != new_cfn:
            what = "cfnName" if isinstance(new_cfn, str) or isinstance(old_cfn, str) else "its name"
            why = f"`{what}` changed from `{old.schema_name}` to `{new.schema_name}`"
            span = new.member.trait_spans.get(CFN_NAME) or new.member.span
            where: tuple[str, Any] = ("new", None)
            if span is not None:
                from smithy2cfn.lint.locate import Site

                where = ("new", Site(span, new.member.id))
        else:
            why = f"it is now written `{new.schema_name}` (was `{old.schema_name}`)"
            where = ctx.at_pointer("new", new.pointer)
        out[old.pointer] = (new.schema_name, where, why)
    return out


def _mutability(ctx: TypeDiff, code: str, key: str, what: str) -> None:
    """An existing property newly in the pointer list ``key``."""
    for pointer in items_added(ctx.strings("old", key), ctx.strings("new", key)):
        if ctx.is_new_property(pointer):
            continue
        cause, where = ctx.mutability_cause(pointer)
        ctx.report(code, f"{pointer} became {what}" + (f": {cause}" if cause else ""), where,
                   _MUTABILITY_HINTS[key], pointer)


_MUTABILITY_HINTS = {
    "createOnlyProperties": "stacks that change it are now replaced, not updated: keep the member in the update "
                            "input (or drop the @cfnMutability that removes update), or release a major version",
    "writeOnlyProperties": "it is no longer returned by read, so drift detection and Fn::GetAtt lose it: keep the "
                           "member in the read output",
    "readOnlyProperties": "templates that set it now fail: keep the member in the create or update input",
}


@diff_rule(_code("S7102", "PR002", "an existing property became createOnly (updates to it now replace the resource)"),
           rule=ENFORCED.format("PR002: Only NEWLY ADDED properties can be marked as createOnlyProperties"))
def became_create_only(ctx: TypeDiff) -> None:
    """A property the old schema had is now in ``createOnlyProperties``."""
    _mutability(ctx, "S7102", "createOnlyProperties", "createOnly")


@diff_rule(_code("S7103", "PR003", "an existing property became writeOnly"),
           rule=ENFORCED.format("PR003: Only NEWLY ADDED properties can be marked as writeOnlyProperties"))
def became_write_only(ctx: TypeDiff) -> None:
    """A property the old schema had is now in ``writeOnlyProperties``."""
    _mutability(ctx, "S7103", "writeOnlyProperties", "writeOnly")


@diff_rule(_code("S7104", "PR004", "an existing property became readOnly (templates that set it fail)"),
           rule=ENFORCED.format("PR004: Only NEWLY ADDED properties can be marked as readOnlyProperties"))
def became_read_only(ctx: TypeDiff) -> None:
    """A property the old schema had is now in ``readOnlyProperties``."""
    _mutability(ctx, "S7104", "readOnlyProperties", "readOnly")


@diff_rule(_code("S7105", "PR005", "a property left readOnlyProperties"),
           rule=ENFORCED.format("PR005: Resource properties MUST NOT be removed from readOnlyProperties"))
def left_read_only(ctx: TypeDiff) -> None:
    """A pointer of the old ``readOnlyProperties`` is not in the new one (the property became
    settable, or was removed)."""
    for pointer in items_added(ctx.strings("new", "readOnlyProperties"), ctx.strings("old", "readOnlyProperties")):
        if ctx.property("new", pointer) is None and pointer not in ctx.new_schema.get("properties", {}):
            ctx.report("S7105", f"{pointer} left readOnlyProperties: the property was removed",
                       ctx.at_pointer("old", pointer), "see the removal of the property", pointer)
            continue
        cause, where = ctx.mutability_cause(pointer)
        ctx.report("S7105", f"{pointer} is no longer readOnly" + (f": {cause}" if cause else ""), where,
                   "CloudFormation refuses to take a property out of readOnlyProperties in a new version: keep it "
                   "read-only (@cfnMutability(\"read\")), or add a new property", pointer)


# -- primaryIdentifier (PID) -------------------------------------------------------------


def _positions(ctx: TypeDiff) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """``primaryIdentifier`` compared position by position, as guard-rail's DeepDiff does
    (order counts there): (position, pointer) added and removed."""
    old, new = ctx.strings("old", "primaryIdentifier"), ctx.strings("new", "primaryIdentifier")
    added = [(i, p) for i, p in enumerate(new) if i >= len(old) or old[i] != p]
    removed = [(i, p) for i, p in enumerate(old) if i >= len(new) or new[i] != p]
    return added, removed


@diff_rule(_code("S7106", "PID001", "primaryIdentifier gained a member (or one moved)"),
           rule=ENFORCED.format("PID001: primaryIdentifier cannot add more members"))
def primary_identifier_added(ctx: TypeDiff) -> None:
    """A pointer is at a position of ``primaryIdentifier`` where the old schema had another
    one, or none (guard-rail compares the list in order: a reorder is an addition too)."""
    old = ctx.strings("old", "primaryIdentifier")
    for i, pointer in _positions(ctx)[0]:
        moved = " (moved: the order changed)" if pointer in old else ""
        ctx.report("S7106", f"primaryIdentifier has {pointer} at position {i + 1}{moved}",
                   ctx.at_pointer("new", pointer),
                   "a resource's physical ID cannot change: keep the resource's identifiers (and their order), or "
                   "make a new resource type", "/primaryIdentifier")


@diff_rule(_code("S7107", "PID002", "primaryIdentifier lost a member (or one moved)"),
           rule=ENFORCED.format("PID002: primaryIdentifier cannot remove members"))
def primary_identifier_removed(ctx: TypeDiff) -> None:
    """A pointer of the old ``primaryIdentifier`` is not at its position any more."""
    new = ctx.strings("new", "primaryIdentifier")
    for i, pointer in _positions(ctx)[1]:
        moved = " (moved: the order changed)" if pointer in new else ""
        side = "new" if pointer in new else "old"
        ctx.report("S7107", f"primaryIdentifier no longer has {pointer} at position {i + 1}{moved}",
                   ctx.at_pointer(side, pointer),
                   "a resource's physical ID cannot change: keep the resource's identifiers (and their order), or "
                   "make a new resource type", "/primaryIdentifier")


# -- required (RQ) -----------------------------------------------------------------------


@diff_rule(_code("S7108", "RQ001", "a property became required (templates without it fail)"),
           rule=ENFORCED.format("RQ001: cannot add more REQUIRED properties"))
def became_required(ctx: TypeDiff) -> None:
    """A name added to a ``required`` list (the schema's, or a nested object's), a new
    property's included."""
    for change in ctx.delta.of("required", ADDED):
        for name in change.new or ():
            parts = change.parts + ("properties", str(name))
            new = change.path.rstrip("/") + "/" + str(name) if change.parts else f"/properties/{name}"
            what = "a new required property" if ctx.is_new_property(new) else "now required"
            ctx.report("S7108", f"{new} is {what}", ctx.at_new(parts),
                       "templates written for the old version do not set it: drop @required (give the service a "
                       "default), or release a major version", new)


# -- types (TP) --------------------------------------------------------------------------


@diff_rule(_code("S7109", "TP001", "an existing property got a type"),
           rule=ENFORCED.format("TP001: Only NEWLY ADDED properties can have new type added"))
def type_added(ctx: TypeDiff) -> None:
    """``type`` added to a node the old schema had (without one)."""
    for change in ctx.delta.of("type", ADDED):
        if not ctx.is_new_property(change.path):
            ctx.report("S7109", f"{_node(change)} now has type {_show(change.new)}", ctx.at_change(change),
                       "values of other types that templates set are now rejected", change.path)


@diff_rule(_code("S7110", "TP002", "a property's type was removed"),
           rule=ENFORCED.format("TP002: cannot remove TYPE from a property"))
def type_removed(ctx: TypeDiff) -> None:
    """``type`` removed from a node."""
    for change in ctx.delta.of("type", REMOVED):
        ctx.report("S7110", f"{_node(change)} no longer has a type (was {_show(change.old)})",
                   ctx.at_change(change), "keep the member's target type", change.path)


@diff_rule(_code("S7111", "TP003", "a property's type changed"),
           rule=ENFORCED.format("TP003: cannot change TYPE of a property"))
def type_changed(ctx: TypeDiff) -> None:
    """``type`` of a node changed (a member's target changed kind: string to integer,
    structure to list...)."""
    for change in ctx.delta.of("type", CHANGED):
        ctx.report("S7111", f"{_node(change)} changed type from {_show(change.old)} to {_show(change.new)}",
                   ctx.at_change(change),
                   "values templates hold no longer validate: keep the target's type, or add a new member", change.path)


# -- enum (ENM) --------------------------------------------------------------------------


@diff_rule(_code("S7112", "ENM001", "enum values were removed"),
           rule=ENFORCED.format("ENM001: CANNOT remove values from enum"))
def enum_values_removed(ctx: TypeDiff) -> None:
    """Values gone from an ``enum``; a whole ``enum`` removed counts too, as guard-rail reads it."""
    for change in ctx.delta.of("enum", REMOVED):
        if change.new is None:
            what = f"no longer has an enum (guard-rail counts this as its values removed: {_show(change.old)})"
        else:
            what = f"lost enum values {_show(change.old)}"
        ctx.report("S7112", f"{_node(change)} {what}", ctx.at_change(change),
                   "stacks that hold a removed value fail to update: keep the enum values (mark them @deprecated "
                   "in the documentation instead)", change.path)


# -- length, items and range constraints (ML, MI) ----------------------------------------


def _constraint(ctx: TypeDiff, code: str, keyword: str, kind: str, tighter: str | None = None) -> None:
    """``keyword`` removed, added to an existing node, or changed in the ``tighter``
    direction (``"up"``: a minimum raised; ``"down"``: a maximum lowered)."""
    trait = "@range" if keyword in ("minimum", "maximum") else "@length"
    for change in ctx.delta.of(keyword, kind):
        if kind == REMOVED:
            message = f"{_node(change)} no longer has {keyword} (was {_show(change.old)})"
            hint = f"CloudFormation refuses a new version without the old {keyword}: keep {trait}'s bound"
        elif kind == ADDED:
            if ctx.is_new_property(change.path):
                continue
            message = f"{_node(change)} now has {keyword} {_show(change.new)}"
            hint = f"values stacks hold may not meet it: add {trait} only to new members"
        else:
            if not isinstance(change.old, (int, float)) or not isinstance(change.new, (int, float)):
                continue
            if (tighter == "up" and change.new <= change.old) or (tighter == "down" and change.new >= change.old):
                continue
            message = f"{_node(change)} {keyword} went from {_show(change.old)} to {_show(change.new)}"
            hint = f"values stacks hold may fall outside it: only loosen {trait}"
        ctx.report(code, message, ctx.at_change(change), hint, change.path)


@diff_rule(_code("S7113", "ML001", "minLength removed"), rule=ENFORCED.format("ML001"))
def min_length_removed(ctx: TypeDiff) -> None:
    """``minLength`` removed from a node."""
    _constraint(ctx, "S7113", "minLength", REMOVED)


@diff_rule(_code("S7114", "ML002", "minLength added to an existing property"), rule=ENFORCED.format("ML002"))
def min_length_added(ctx: TypeDiff) -> None:
    """``minLength`` added to an existing node."""
    _constraint(ctx, "S7114", "minLength", ADDED)


@diff_rule(_code("S7115", "ML003", "minLength raised"), rule=ENFORCED.format("ML003"))
def min_length_raised(ctx: TypeDiff) -> None:
    """``minLength`` raised."""
    _constraint(ctx, "S7115", "minLength", CHANGED, "up")


@diff_rule(_code("S7116", "ML004", "maxLength removed"), rule=ENFORCED.format("ML004"))
def max_length_removed(ctx: TypeDiff) -> None:
    """``maxLength`` removed from a node."""
    _constraint(ctx, "S7116", "maxLength", REMOVED)


@diff_rule(_code("S7117", "ML005", "maxLength added to an existing property"), rule=ENFORCED.format("ML005"))
def max_length_added(ctx: TypeDiff) -> None:
    """``maxLength`` added to an existing node."""
    _constraint(ctx, "S7117", "maxLength", ADDED)


@diff_rule(_code("S7118", "ML006", "maxLength lowered"), rule=ENFORCED.format("ML006"))
def max_length_lowered(ctx: TypeDiff) -> None:
    """``maxLength`` lowered."""
    _constraint(ctx, "S7118", "maxLength", CHANGED, "down")


@diff_rule(_code("S7119", "MI001", "minItems removed"), rule=ENFORCED.format("MI001"))
def min_items_removed(ctx: TypeDiff) -> None:
    """``minItems`` removed from a node."""
    _constraint(ctx, "S7119", "minItems", REMOVED)


@diff_rule(_code("S7120", "MI002", "minItems added to an existing property"), rule=ENFORCED.format("MI002"))
def min_items_added(ctx: TypeDiff) -> None:
    """``minItems`` added to an existing node."""
    _constraint(ctx, "S7120", "minItems", ADDED)


@diff_rule(_code("S7121", "MI003", "minItems raised"), rule=ENFORCED.format("MI003"))
def min_items_raised(ctx: TypeDiff) -> None:
    """``minItems`` raised."""
    _constraint(ctx, "S7121", "minItems", CHANGED, "up")


@diff_rule(_code("S7122", "MI004", "maxItems removed"), rule=ENFORCED.format("MI004"))
def max_items_removed(ctx: TypeDiff) -> None:
    """``maxItems`` removed from a node."""
    _constraint(ctx, "S7122", "maxItems", REMOVED)


@diff_rule(_code("S7123", "MI005", "maxItems added to an existing property"), rule=ENFORCED.format("MI005"))
def max_items_added(ctx: TypeDiff) -> None:
    """``maxItems`` added to an existing node."""
    _constraint(ctx, "S7123", "maxItems", ADDED)


@diff_rule(_code("S7124", "MI006", "maxItems lowered"), rule=ENFORCED.format("MI006"))
def max_items_lowered(ctx: TypeDiff) -> None:
    """``maxItems`` lowered."""
    _constraint(ctx, "S7124", "maxItems", CHANGED, "down")


@diff_rule(_code("S7125", "MI007", "minimum removed"), rule=ENFORCED.format("MI007"))
def minimum_removed(ctx: TypeDiff) -> None:
    """``minimum`` removed from a node."""
    _constraint(ctx, "S7125", "minimum", REMOVED)


@diff_rule(_code("S7126", "MI008", "minimum added to an existing property"), rule=ENFORCED.format("MI008"))
def minimum_added(ctx: TypeDiff) -> None:
    """``minimum`` added to an existing node."""
    _constraint(ctx, "S7126", "minimum", ADDED)


@diff_rule(_code("S7127", "MI009", "minimum raised"), rule=ENFORCED.format("MI009"))
def minimum_raised(ctx: TypeDiff) -> None:
    """``minimum`` raised."""
    _constraint(ctx, "S7127", "minimum", CHANGED, "up")


@diff_rule(_code("S7128", "MI010", "maximum removed"), rule=ENFORCED.format("MI010"))
def maximum_removed(ctx: TypeDiff) -> None:
    """``maximum`` removed from a node."""
    _constraint(ctx, "S7128", "maximum", REMOVED)


@diff_rule(_code("S7129", "MI011", "maximum added to an existing property"), rule=ENFORCED.format("MI011"))
def maximum_added(ctx: TypeDiff) -> None:
    """``maximum`` added to an existing node."""
    _constraint(ctx, "S7129", "maximum", ADDED)


@diff_rule(_code("S7130", "MI012", "maximum lowered"), rule=ENFORCED.format("MI012"))
def maximum_lowered(ctx: TypeDiff) -> None:
    """``maximum`` lowered."""
    _constraint(ctx, "S7130", "maximum", CHANGED, "down")


# -- tagging (TAG) -----------------------------------------------------------------------


def _tagging(ctx: TypeDiff, side: str) -> dict[str, Any] | None:
    value = (ctx.new_schema if side == "new" else ctx.old_schema).get("tagging")
    return value if isinstance(value, dict) else None


@diff_rule(_code("S7131", "TAG100", "tagging (or one of its fields) was removed"),
           rule=ENFORCED.format("TAG100: tagging properties MUST NOT be removed from schema"))
def tagging_removed(ctx: TypeDiff) -> None:
    """The ``tagging`` object, or one of its fields, is gone."""
    old, new = _tagging(ctx, "old"), _tagging(ctx, "new")
    if old is None:
        return
    if new is None:
        ctx.report("S7131", "tagging was removed", ctx.at_resource("old", TAGGABLE),
                   "keep @aws.api#taggable on the resource", "/tagging")
        return
    for key in sorted(set(old) - set(new)):
        ctx.report("S7131", f"tagging.{key} was removed (was {_show(old[key])})", ctx.at_resource("new", TAGGABLE),
                   "keep the tagging field (@aws.api#taggable and the tag operations that give it)", f"/tagging/{key}")


_TAG_FIELDS = {"taggable": ("S7132", "TAG101"), "tagOnCreate": ("S7133", "TAG102"),
               "cloudFormationSystemTags": ("S7134", "TAG103"), "tagProperty": ("S7135", "TAG104")}


def _tag_field(ctx: TypeDiff, key: str) -> None:
    """A ``tagging`` field whose value changed: one of the three flags turned false (guard-rail's
    rule reads "old is true, and new is not false"; only the second clause carries its check
    ID, so a flag turned on is not reported), or ``tagProperty`` changed at all."""
    old, new = _tagging(ctx, "old"), _tagging(ctx, "new")
    if old is None or new is None or key not in old or key not in new:
        return
    from smithy2cfn.diff.delta import equal

    if equal(old[key], new[key]) or (key != "tagProperty" and new[key] is not False):
        return
    ctx.report(_TAG_FIELDS[key][0], f"tagging.{key} changed from {_show(old[key])} to {_show(new[key])}",
               ctx.at_resource("new", TAGGABLE),
               "CloudFormation refuses this change of tagging in a new version of the type", f"/tagging/{key}")


@diff_rule(_code("S7132", "TAG101", "tagging.taggable changed"),
           rule=ENFORCED.format("TAG101: tagging.taggable MUST NOT change from true to false"))
def taggable_changed(ctx: TypeDiff) -> None:
    """``tagging.taggable`` changed."""
    _tag_field(ctx, "taggable")


@diff_rule(_code("S7133", "TAG102", "tagging.tagOnCreate changed"),
           rule=ENFORCED.format("TAG102: tagging.tagOnCreate MUST NOT change from true to false"))
def tag_on_create_changed(ctx: TypeDiff) -> None:
    """``tagging.tagOnCreate`` changed."""
    _tag_field(ctx, "tagOnCreate")


@diff_rule(_code("S7134", "TAG103", "tagging.cloudFormationSystemTags changed"),
           rule=ENFORCED.format("TAG103: tagging.cloudFormationSystemTags MUST NOT change from true to false"))
def system_tags_changed(ctx: TypeDiff) -> None:
    """``tagging.cloudFormationSystemTags`` changed."""
    _tag_field(ctx, "cloudFormationSystemTags")


@diff_rule(_code("S7135", "TAG104", "tagging.tagProperty changed"),
           rule=ENFORCED.format("TAG104: tagging.tagProperty MUST NOT change"))
def tag_property_changed(ctx: TypeDiff) -> None:
    """``tagging.tagProperty`` changed."""
    _tag_field(ctx, "tagProperty")


# -- patterns (PAT) and defaults (TFDF) --------------------------------------------------


def _keyword(ctx: TypeDiff, code: str, keyword: str, kind: str, what: str, hint: str) -> None:
    for change in ctx.delta.of(keyword, kind):
        if kind == ADDED and ctx.is_new_property(change.path):
            continue
        detail = {ADDED: f"now has {keyword} {_show(change.new)}", REMOVED: f"no longer has {keyword} "
                  f"(was {_show(change.old)})", CHANGED: f"{keyword} changed from {_show(change.old)} to "
                  f"{_show(change.new)}"}[kind]
        ctx.report(code, f"{_node(change)} {detail}{what}", ctx.at_change(change), hint, change.path)


@diff_rule(_code("S7136", "PAT001", "a pattern added to an existing property", WARNING),
           rule=ENFORCED.format("PAT001 (a warning there): Only NEWLY ADDED properties can have new pattern added"))
def pattern_added(ctx: TypeDiff) -> None:
    """``pattern`` added to an existing node."""
    _keyword(ctx, "S7136", "pattern", ADDED, "", "values stacks hold may not match it: add @pattern only to new members")


@diff_rule(_code("S7137", "PAT002", "a pattern removed", WARNING),
           rule=ENFORCED.format("PAT002 (a warning there): cannot remove PATTERN from a property"))
def pattern_removed(ctx: TypeDiff) -> None:
    """``pattern`` removed from a node."""
    _keyword(ctx, "S7137", "pattern", REMOVED, "", "keep the @pattern")


@diff_rule(_code("S7138", "PAT003", "a pattern changed", WARNING),
           rule=ENFORCED.format("PAT003 (a warning there): cannot change PATTERN of a property"))
def pattern_changed(ctx: TypeDiff) -> None:
    """``pattern`` of a node changed."""
    _keyword(ctx, "S7138", "pattern", CHANGED, "", "values stacks hold may no longer match: only widen a @pattern, "
             "and check that every old value still matches")


@diff_rule(_code("S7139", "TFDF001", "a default value removed", WARNING),
           rule=NOT_ENFORCED.format("TFDF001: cannot remove default values from properties"))
def default_removed(ctx: TypeDiff) -> None:
    """``default`` removed from a node."""
    _keyword(ctx, "S7139", "default", REMOVED, "", "stacks that relied on the default now get none: keep it")


@diff_rule(_code("S7140", "TFDF002", "a default value changed", WARNING),
           rule=NOT_ENFORCED.format("TFDF002: cannot change default values"))
def default_changed(ctx: TypeDiff) -> None:
    """``default`` of a node changed."""
    _keyword(ctx, "S7140", "default", CHANGED, "", "stacks that relied on the old default change on their next "
             "update: keep it")


__all__: list[str] = []
