"""Breaking changes that resource-schema-guard-rail has no stateful rule for (issue 17):
a ``primaryIdentifier`` reordered, an additional identifier removed, a handler removed,
permissions a handler needs added (operators' execution roles must grant them),
``insertionOrder``, ``uniqueItems`` and ``additionalProperties`` made stricter, an ``enum``
put on an existing property, ``tagUpdatable`` turned off, a resource type removed.

Each follows what CloudFormation does with a deployed stack when the type's new version
reaches it (the CloudFormation CLI guide, "Modeling resource types": ``primaryIdentifier``,
``additionalIdentifiers``, ``handlers``, ``insertionOrder``; "Publishing extensions":
minor versions of an activated extension update by themselves).
"""

from __future__ import annotations

from smithy2cfn.checks import diff_rule
from smithy2cfn.diagnostics import Code, Severity
from smithy2cfn.diff.context import TypeDiff
from smithy2cfn.diff.delta import ADDED, CHANGED, REMOVED, items_added
from smithy2cfn.model.traits import TAGGABLE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ERROR, WARNING = Severity.ERROR, Severity.WARNING
GUIDE = "CloudFormation CLI guide, resource type schema: {}"


def _handlers(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    value = schema.get("handlers")
    return {k: v for k, v in value.items() if isinstance(v, dict)} if isinstance(value, dict) else {}


def _permissions(value: Any) -> list[str]:
    perms = value.get("permissions") if isinstance(value, dict) else None
    return [p for p in perms if isinstance(p, str)] if isinstance(perms, list) else []


@diff_rule(Code("S7201", ERROR, "CfnDiff.PrimaryIdentifierOrder",
                "primaryIdentifier has the same members in another order (the physical ID changes)"),
           rule=GUIDE.format("primaryIdentifier (its order makes the resource's physical ID)"))
def primary_identifier_order(ctx: TypeDiff) -> None:
    """The same ``primaryIdentifier`` pointers, in another order."""
    old, new = ctx.strings("old", "primaryIdentifier"), ctx.strings("new", "primaryIdentifier")
    if old != new and sorted(old) == sorted(new):
        ctx.report("S7201", f"primaryIdentifier's order changed from {old} to {new}", ctx.at_resource("new"),
                   "the identifiers' order makes the physical ID of every deployed resource: keep the order of the "
                   "resource's identifiers (and of its parents')", "/primaryIdentifier")


@diff_rule(Code("S7202", ERROR, "CfnDiff.AdditionalIdentifierRemoved", "an additional identifier was removed"),
           rule=GUIDE.format("additionalIdentifiers (resource import and references use them)"))
def additional_identifier_removed(ctx: TypeDiff) -> None:
    """An entry of the old ``additionalIdentifiers`` is not in the new one."""
    def entries(side: str) -> list[Any]:
        value = (ctx.new_schema if side == "new" else ctx.old_schema).get("additionalIdentifiers")
        return value if isinstance(value, list) else []
    for entry in items_added(entries("new"), entries("old")):
        first = entry[0] if isinstance(entry, list) and entry and isinstance(entry[0], str) else ""
        ctx.report("S7202", f"additionalIdentifiers no longer has {entry}", ctx.at_pointer("old", first),
                   "imports and references by that identifier stop working: keep @cfnAdditionalIdentifier",
                   "/additionalIdentifiers")


@diff_rule(Code("S7203", ERROR, "CfnDiff.HandlerRemoved",
                "a handler was removed (no update handler: every property is createOnly)"),
           rule=GUIDE.format("handlers (a type without an update handler replaces the resource on every change)"))
def handler_removed(ctx: TypeDiff) -> None:
    """A handler of the old schema is not in the new one."""
    new = _handlers(ctx.new_schema)
    for name in sorted(set(_handlers(ctx.old_schema)) - set(new)):
        what = {"update": ": every change now replaces the resource", "list": ": stacks and the console can no "
                "longer list resources", "read": ": drift detection and Fn::GetAtt stop working",
                "delete": ": stacks can no longer delete the resource", "create": ""}.get(name, "")
        ctx.report("S7203", f"the {name} handler was removed{what}", ctx.at_handler("old", name),
                   f"keep the resource's {name} lifecycle operation", f"/handlers/{name}")


@diff_rule(Code("S7204", ERROR, "CfnDiff.PermissionsAdded",
                "a handler needs permissions it did not (operators' execution roles must grant them)"),
           rule=GUIDE.format("handlers.permissions (the execution role an operator gives the extension)"))
def permissions_added(ctx: TypeDiff) -> None:
    """Permissions in a handler (or ``tagging.permissions``) that the old handler lacked; a new
    handler's permissions are new too, but the handler is an addition (S7305)."""
    old = _handlers(ctx.old_schema)
    for name, handler in sorted(_handlers(ctx.new_schema).items()):
        if name not in old:
            continue
        for permission in items_added(_permissions(old[name]), _permissions(handler)):
            ctx.report("S7204", f"the {name} handler now needs {permission}", ctx.at_handler("new", name),
                       "an activated extension's execution role lacks it, so the handler fails where the role is "
                       "not updated first: say so in the release notes, or release a major version",
                       f"/handlers/{name}/permissions")
    old_tagging, new_tagging = ctx.old_schema.get("tagging"), ctx.new_schema.get("tagging")
    if isinstance(old_tagging, dict) and isinstance(new_tagging, dict):
        for permission in items_added(_permissions(old_tagging), _permissions(new_tagging)):
            ctx.report("S7204", f"tagging now needs {permission}", ctx.at_resource("new", TAGGABLE),
                       "an activated extension's execution role lacks it", "/tagging/permissions")


@diff_rule(Code("S7205", WARNING, "CfnDiff.InsertionOrderChanged",
                "insertionOrder changed (how CloudFormation compares the array's values changes)"),
           rule=GUIDE.format("insertionOrder (an array's order counts in updates and drift, default true)"))
def insertion_order_changed(ctx: TypeDiff) -> None:
    """``insertionOrder`` of an array changed (absent is true)."""
    for change in (*ctx.delta.of("insertionOrder", ADDED), *ctx.delta.of("insertionOrder", REMOVED),
                   *ctx.delta.of("insertionOrder", CHANGED)):
        before, after = change.old is not False, change.new is not False
        if before != after:
            ctx.report("S7205", f"{change.path} insertionOrder changed from {str(before).lower()} to "
                       f"{str(after).lower()}", ctx.at_change(change),
                       "deployed stacks see a difference (or lose one) on their next update and in drift detection",
                       change.path)


@diff_rule(Code("S7206", ERROR, "CfnDiff.UniqueItemsAdded", "an array's items must now be unique"),
           rule=GUIDE.format("uniqueItems"))
def unique_items_added(ctx: TypeDiff) -> None:
    """``uniqueItems`` became true on an existing array."""
    for change in (*ctx.delta.of("uniqueItems", ADDED), *ctx.delta.of("uniqueItems", CHANGED)):
        if change.new is True and change.old is not True and not ctx.is_new_property(change.path):
            ctx.report("S7206", f"{change.path} must now have unique items", ctx.at_change(change),
                       "stacks whose arrays repeat a value fail to update: add @uniqueItems only to new members",
                       change.path)


@diff_rule(Code("S7207", ERROR, "CfnDiff.AdditionalPropertiesClosed",
                "an object no longer accepts properties it did not declare"),
           rule=GUIDE.format("additionalProperties"))
def additional_properties_closed(ctx: TypeDiff) -> None:
    """``additionalProperties`` became false where it was absent or true."""
    for change in (*ctx.delta.of("additionalProperties", ADDED), *ctx.delta.of("additionalProperties", CHANGED)):
        if change.new is False and change.old is not False and not ctx.is_new_property(change.path):
            ctx.report("S7207", f"{_where(change.path)} no longer accepts undeclared properties",
                       ctx.at_change(change), "templates that set other keys fail", change.path)


def _where(path: str) -> str:
    return "the schema" if path in ("", "/") else path


@diff_rule(Code("S7208", ERROR, "CfnDiff.TypeRemoved", "a resource type is no longer built"),
           rule="issue 17: types are paired by typeName; a type gone fails every stack that uses it", unpaired=True)
def type_removed(ctx: TypeDiff) -> None:
    """The old side has the type, the new side has not."""
    if ctx.old_schema and not ctx.new_schema:
        ctx.report("S7208", "the resource type is no longer built", ctx.at_resource("old"),
                   "keep the @cfnResource resource bound to the service (and its name), or deprecate the type in "
                   "the registry", "")


@diff_rule(Code("S7209", ERROR, "CfnDiff.EnumAdded", "an existing property now only takes the values of an enum"),
           rule=GUIDE.format("enum"))
def enum_added(ctx: TypeDiff) -> None:
    """``enum`` put on an existing node that had none."""
    for change in ctx.delta.of("enum", ADDED):
        if change.old is None and not ctx.is_new_property(change.path):
            ctx.report("S7209", f"{_where(change.path)} now only takes the values {change.new}",
                       ctx.at_change(change), "stacks that hold another value fail to update", change.path)


@diff_rule(Code("S7210", ERROR, "CfnDiff.TagsNoLongerUpdatable", "tagging.tagUpdatable turned false"),
           rule=GUIDE.format("tagging.tagUpdatable"))
def tags_no_longer_updatable(ctx: TypeDiff) -> None:
    """``tagging.tagUpdatable`` went from true (or absent: true) to false."""
    old, new = ctx.old_schema.get("tagging"), ctx.new_schema.get("tagging")
    if isinstance(old, dict) and isinstance(new, dict) and old.get("taggable", True) is not False \
            and old.get("tagUpdatable", True) is not False and new.get("tagUpdatable", True) is False:
        ctx.report("S7210", "tags can no longer be updated (tagging.tagUpdatable is now false)",
                   ctx.at_resource("new", TAGGABLE),
                   "a stack that changes its tags now replaces the resource: keep the update handler and the tag "
                   "and untag operations", "/tagging/tagUpdatable")


__all__: list[str] = []
