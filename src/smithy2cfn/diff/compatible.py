"""Compatible changes, as notes: what a new version adds (``minor``: a template can use it)
or changes where no template can see it (``patch``). Together with the breaking rules they
make each type's semantic-version verdict (:mod:`smithy2cfn.diff`)."""

from __future__ import annotations

from smithy2cfn.checks import diff_rule
from smithy2cfn.diagnostics import Code, Severity
from smithy2cfn.diff.context import TypeDiff
from smithy2cfn.diff.delta import ADDED, CHANGED, REMOVED, RESOURCE_KEYS, equal, items_added
from smithy2cfn.model.traits import TAGGABLE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

NOTE = Severity.NOTE
SEMVER = "semantic versioning of extensions (CloudFormation CLI guide, \"Publishing extensions\"): {}"


@diff_rule(Code("S7301", NOTE, "CfnDiff.Compatible.PropertyAdded", "a new optional property"),
           rule=SEMVER.format("an addition: minor"), level="minor")
def property_added(ctx: TypeDiff) -> None:
    """A property (or a nested one) the old schema did not have, not required (a required
    one is RQ001)."""
    required: dict[tuple[str, ...], set[str]] = {}
    for change in ctx.delta.of("required", ADDED):
        required.setdefault(change.parts, set()).update(str(n) for n in change.new or ())
    for change in ctx.delta.of("property", ADDED):
        if change.parts[-1] in required.get(change.parts[:-2], set()):
            continue
        ctx.report("S7301", f"new property {change.path}", ctx.at_change(change), None, change.path)


@diff_rule(Code("S7302", NOTE, "CfnDiff.Compatible.EnumValuesAdded", "enum values added"),
           rule=SEMVER.format("an addition: minor"), level="minor")
def enum_values_added(ctx: TypeDiff) -> None:
    """Values added to an existing ``enum``."""
    for change in ctx.delta.of("enum", ADDED):
        if change.old is not None:
            ctx.report("S7302", f"{change.path} takes the new values {change.new}", ctx.at_change(change), None,
                       change.path)


@diff_rule(Code("S7303", NOTE, "CfnDiff.Compatible.DescriptionChanged", "a description changed"),
           rule=SEMVER.format("documentation: patch"), level="patch")
def description_changed(ctx: TypeDiff) -> None:
    """``description`` of the schema or of a node added, removed or changed."""
    for change in ctx.delta.of("description"):
        if change.kind == ADDED and ctx.is_new_property(change.path):
            continue
        what = "the schema's description" if not change.parts else f"the description of {change.path}"
        ctx.report("S7303", f"{what} changed", ctx.at_change(change), None, change.path + "/description")


@diff_rule(Code("S7304", NOTE, "CfnDiff.Compatible.TypeAdded", "a new resource type"),
           rule=SEMVER.format("an addition: minor"), level="minor", unpaired=True)
def type_added(ctx: TypeDiff) -> None:
    """The new side has the type, the old side has not."""
    if ctx.new_schema and not ctx.old_schema:
        ctx.report("S7304", "a new resource type", ctx.at_resource("new"), None, "")


#: Relaxations of a node's keywords: keyword → (kind, the direction that relaxes it).
_RELAXED = {"minLength": "down", "minItems": "down", "minimum": "down", "maxLength": "up", "maxItems": "up",
            "maximum": "up"}


@diff_rule(Code("S7305", NOTE, "CfnDiff.Compatible.Relaxed",
                "a compatible change a template can see: a constraint relaxed, a property no longer "
                "createOnly, writeOnly or required, a handler, identifier or tagging added"),
           rule=SEMVER.format("what a template can newly do: minor"), level="minor")
def relaxed(ctx: TypeDiff) -> None:
    """Changes that let templates do more than before."""
    for keyword, up in _RELAXED.items():
        for change in ctx.delta.of(keyword, CHANGED):
            if isinstance(change.old, (int, float)) and isinstance(change.new, (int, float)) and \
                    (change.new > change.old if up == "up" else change.new < change.old):
                ctx.report("S7305", f"{change.path} {keyword} relaxed from {change.old} to {change.new}",
                           ctx.at_change(change), None, change.path)
    for change in ctx.delta.of("required", REMOVED):
        for name in change.old or ():
            parts = change.parts + ("properties", str(name))
            if not any(c.parts == parts for c in ctx.delta.of("property", REMOVED)):
                ctx.report("S7305", f"{change.path.rstrip('/')}/{name} is no longer required", ctx.at_new(parts), None,
                           change.path)
    for key, what in (("createOnlyProperties", "createOnly"), ("writeOnlyProperties", "writeOnly")):
        for pointer in items_added(ctx.strings("new", key), ctx.strings("old", key)):
            if ctx.property("new", pointer) is not None or pointer in (ctx.new_schema.get("properties") or {}):
                cause, where = ctx.mutability_cause(pointer)
                ctx.report("S7305", f"{pointer} is no longer {what}" + (f": {cause}" if cause else ""), where, None,
                           pointer)
    old_handlers = _keys(ctx.old_schema.get("handlers"))
    for name in sorted(_keys(ctx.new_schema.get("handlers")) - old_handlers):
        ctx.report("S7305", f"a new {name} handler", ctx.at_handler("new", name), None, f"/handlers/{name}")
    old_ids = ctx.old_schema.get("additionalIdentifiers")
    new_ids = ctx.new_schema.get("additionalIdentifiers")
    for entry in items_added(old_ids if isinstance(old_ids, list) else [], new_ids if isinstance(new_ids, list) else []):
        first = entry[0] if isinstance(entry, list) and entry and isinstance(entry[0], str) else ""
        ctx.report("S7305", f"a new additional identifier {entry}", ctx.at_pointer("new", first), None,
                   "/additionalIdentifiers")
    if not isinstance(ctx.old_schema.get("tagging"), dict) and isinstance(ctx.new_schema.get("tagging"), dict):
        ctx.report("S7305", "tagging added", ctx.at_resource("new", TAGGABLE), None, "/tagging")
    for keyword, loose in (("uniqueItems", lambda v: v is not True), ("additionalProperties", lambda v: v is not False)):
        for change in (*ctx.delta.of(keyword, CHANGED), *ctx.delta.of(keyword, REMOVED)):
            if loose(change.new) and not loose(change.old):
                ctx.report("S7305", f"{change.path} {keyword} relaxed", ctx.at_change(change), None, change.path)


def _keys(value: Any) -> set[str]:
    return set(value) if isinstance(value, dict) else set()


#: Node keywords the other rules compare (what is left is :func:`other_change`'s).
_RULED = frozenset({"type", "enum", "minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum",
                    "pattern", "default", "required", "description", "insertionOrder", "uniqueItems",
                    "additionalProperties", "property", "patternProperties"})
#: Top-level keys the other rules compare.
_RULED_TOP = frozenset({"primaryIdentifier", "additionalIdentifiers", "readOnlyProperties", "writeOnlyProperties",
                        "createOnlyProperties", "handlers", "tagging", "definitions", "properties", "required",
                        "description", "additionalProperties"})


@diff_rule(Code("S7306", NOTE, "CfnDiff.Compatible.Other", "a change no template can see"),
           rule=SEMVER.format("nothing a template can see: patch"), level="patch")
def other_change(ctx: TypeDiff) -> None:
    """Every other change: node keywords no rule compares (``format``, ``arrayType``,
    ``relationshipRef``...), top-level keys (``sourceUrl``, ``deprecatedProperties``...),
    permissions a handler no longer needs, handler timeouts and schemas."""
    for change in ctx.delta.changes:
        if change.keyword not in _RULED:
            ctx.report("S7306", f"{change.path} {change.keyword} {change.kind}", ctx.at_change(change), None,
                       change.path)
    old, new = ctx.old_schema, ctx.new_schema
    for key in sorted(((set(old) | set(new)) & RESOURCE_KEYS) - _RULED_TOP):  # (the delta has the others)
        if not equal(old.get(key), new.get(key)):
            ctx.report("S7306", f"{key} changed", ctx.at_resource("new"), None, f"/{key}")
    old_handlers, new_handlers = old.get("handlers"), new.get("handlers")
    if isinstance(old_handlers, dict) and isinstance(new_handlers, dict):
        for name in sorted(set(old_handlers) & set(new_handlers)):
            a, b = old_handlers[name], new_handlers[name]
            if not isinstance(a, dict) or not isinstance(b, dict):
                continue
            for key in sorted((set(a) | set(b)) - {"permissions"}):
                if not equal(a.get(key), b.get(key)):
                    ctx.report("S7306", f"the {name} handler's {key} changed", ctx.at_handler("new", name), None,
                               f"/handlers/{name}/{key}")
            gone = items_added(b.get("permissions") or [], a.get("permissions") or []) \
                if isinstance(a.get("permissions"), list) and isinstance(b.get("permissions"), list) else []
            if gone:
                ctx.report("S7306", f"the {name} handler no longer needs {gone}", ctx.at_handler("new", name), None,
                           f"/handlers/{name}/permissions")


__all__: list[str] = []
