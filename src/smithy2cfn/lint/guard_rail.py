"""resource-schema-guard-rail's stateless rules (``S6101``–``S6124``), one rule per code.

Read from guard-rail's rule files (``rpdk/guard_rail/rule_library/**``: ``core``,
``mutable``, ``tags``, ``combiners``) and ``docs/BASIC_LINTING.md``: PID (primary
identifier), PR (property pointers), PER (handlers and permissions), TAG (tagging), ARN,
COM (combiners and types), GN (general). Each rule text lists the guard-rail check IDs it
mirrors (``tests/lint`` matches guard-rail's findings to ours by those IDs); guard-rail's
wildcard permissions (PER002...) are ``S6011``, with ``cfn validate``'s.
"""

from __future__ import annotations

from smithy2cfn.checks import lint_rule
from smithy2cfn.diagnostics import Code, Severity
from smithy2cfn.lint.context import ResourceContext
from smithy2cfn.lint.locate import Site
from smithy2cfn.model.traits import DOCUMENTATION, TAGGABLE
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: guard-rail: property names that hold ARNs.
ARN_NAME = lazy(r"(Arn|arn|ARN)")
#: The bindings that give each handler, for the hint of a missing one.
LIFECYCLE = {"create": "create (or put)", "read": "read", "delete": "delete", "list": "list",
             "update": "update (or put without @noReplace)"}
#: The pointer lists whose pointers must name properties (PR005–PR008).
POINTER_LISTS = ("primaryIdentifier", "readOnlyProperties", "createOnlyProperties", "writeOnlyProperties",
                 "deprecatedProperties", "conditionalCreateOnlyProperties")


# -- identifiers and pointers (PID, PR) -----------------------------------------------


@lint_rule(Code("S6101", Severity.WARNING, "CfnLint.GuardRail.PrimaryIdentifier",
                "`primaryIdentifier` missing or empty"),
           rule="guard-rail PID001, PID002")
def primary_identifier(ctx: ResourceContext) -> None:
    """``primaryIdentifier`` is missing, not an array or empty."""
    primary = ctx.schema.get("primaryIdentifier")
    if not isinstance(primary, list) or not primary:
        ctx.report("S6101", "primaryIdentifier is missing or empty", ctx.loc.resource_site(),
                   "give the resource identifiers")


@lint_rule(Code("S6102", Severity.WARNING, "CfnLint.GuardRail.PrimaryIdentifierWriteOnly",
                "a primaryIdentifier property is writeOnly"),
           rule="guard-rail PID004; handler contract: primaryIdentifier is never writeOnly")
def primary_identifier_write_only(ctx: ResourceContext) -> None:
    """A primaryIdentifier property that is writeOnly."""
    write_only = set(ctx.pointer_list("writeOnlyProperties"))
    for pointer in ctx.pointer_list("primaryIdentifier"):
        if pointer in write_only:
            ctx.report("S6102", f"primaryIdentifier {pointer} is writeOnly", ctx.loc.pointer_site(pointer),
                       "an identifier is read back: remove @aws.cloudformation#cfnMutability(\"write\")")


@lint_rule(Code("S6103", Severity.WARNING, "CfnLint.GuardRail.Pointer",
                "a pointer (`readOnlyProperties`...) names no property of the schema"),
           rule="guard-rail PR005, PR006, PR007, PR008; handler contract: every pointer resolves to a property")
def pointers(ctx: ResourceContext) -> None:
    """A pointer of :data:`POINTER_LISTS` or ``additionalIdentifiers`` that names no property
    (:meth:`ResourceContext.resolves`)."""
    for key in POINTER_LISTS:
        for path in ctx.pointer_list(key):
            if not ctx.resolves(path):
                ctx.report("S6103", f"{key} names {path}, which is not a property of the schema",
                           ctx.loc.resource_site(), "fix the jsonAdd, or the identifier/property it names")
    for ids in ctx.arr("additionalIdentifiers"):
        for path in ids if isinstance(ids, list) else []:
            if isinstance(path, str) and not ctx.resolves(path):
                ctx.report("S6103", f"additionalIdentifiers names {path}, which is not a property of the schema",
                           ctx.loc.resource_site(), "fix the @aws.cloudformation#cfnAdditionalIdentifier member")


# -- handlers (PER) ---------------------------------------------------------------------


def _handler(ctx: ResourceContext, name: str, code: str) -> None:
    """Report ``code`` when the handler ``name`` is missing (at the resource, or at its
    operation when the model has it and the schema left it out) or has no permissions."""
    handlers = ctx.obj("handlers")
    site = ctx.loc.operation_site(name)
    if name in handlers:
        _permissions(ctx, name, handlers[name], code, site)
    elif name in {h.name for h in ctx.rplan.handlers}:
        ctx.report(code, f"the schema has no {name} handler (the model has one; the handlers were left out of the "
                         "schema)", site,
                   "do not set disableHandlerPermissionGeneration (or remove the jsonAdd that drops handlers)")
    else:
        ctx.report(code, f"the resource has no {name} handler", ctx.loc.resource_site(),
                   f"bind a {LIFECYCLE[name]} lifecycle operation to {ctx.resource.id}")


def _permissions(ctx: ResourceContext, name: str, handler: Any, code: str, site: Site) -> None:
    """Report ``code`` when a handler's permissions are not a non-empty list."""
    permissions = handler.get("permissions") if isinstance(handler, dict) else None
    if not isinstance(permissions, list) or not permissions:
        ctx.report(code, f"the {name} handler has no permissions", site,
                   "do not disable handler permission generation; give the operation "
                   "@aws.iam#iamAction requiredActions")


@lint_rule(Code("S6104", Severity.WARNING, "CfnLint.GuardRail.CreateHandler",
                "no create handler, or one without permissions"),
           rule="guard-rail PER001, PER002; handler contract: create, read and delete are present")
def create_handler(ctx: ResourceContext) -> None:
    """No create handler, or one without permissions."""
    _handler(ctx, "create", "S6104")


@lint_rule(Code("S6105", Severity.WARNING, "CfnLint.GuardRail.ReadHandler",
                "no read handler, or one without permissions"),
           rule="guard-rail PER003, PER004; handler contract: create, read and delete are present")
def read_handler(ctx: ResourceContext) -> None:
    """No read handler, or one without permissions."""
    _handler(ctx, "read", "S6105")


@lint_rule(Code("S6106", Severity.NOTE, "CfnLint.GuardRail.UpdateHandler",
                "no update handler (every change replaces the resource)"),
           rule="guard-rail PER005")
def update_handler(ctx: ResourceContext) -> None:
    """No update handler: a note, since a resource may well be replaced on every change."""
    if "update" not in ctx.obj("handlers"):
        ctx.report("S6106", "the resource has no update handler, so every change replaces it",
                   ctx.loc.resource_site(), f"bind an update lifecycle operation to {ctx.resource.id} "
                                            "if its properties can change in place")


@lint_rule(Code("S6107", Severity.WARNING, "CfnLint.GuardRail.UpdatePermissions",
                "an update handler without permissions"),
           rule="guard-rail PER006")
def update_permissions(ctx: ResourceContext) -> None:
    """An update handler without permissions."""
    handlers = ctx.obj("handlers")
    if "update" in handlers:
        _permissions(ctx, "update", handlers["update"], "S6107", ctx.loc.operation_site("update"))


@lint_rule(Code("S6108", Severity.WARNING, "CfnLint.GuardRail.DeleteHandler",
                "no delete handler, or one without permissions"),
           rule="guard-rail PER008, PER009; handler contract: create, read and delete are present")
def delete_handler(ctx: ResourceContext) -> None:
    """No delete handler, or one without permissions."""
    _handler(ctx, "delete", "S6108")


@lint_rule(Code("S6109", Severity.WARNING, "CfnLint.GuardRail.ListHandler",
                "no list handler, or one without permissions"),
           rule="guard-rail PER010, PER011")
def list_handler(ctx: ResourceContext) -> None:
    """No list handler, or one without permissions."""
    _handler(ctx, "list", "S6109")


# -- tagging (TAG) -------------------------------------------------------------------------


@lint_rule(Code("S6124", Severity.WARNING, "CfnLint.GuardRail.LegacyTaggable",
                "a top-level `taggable`, or a `tagging` that is no object or has no `taggable`"),
           rule="guard-rail TAG001, TAG003, TAG005, TAG006")
def legacy_taggable(ctx: ResourceContext) -> None:
    """The deprecated top-level ``taggable``; a ``tagging`` that is not an object, or has no
    ``taggable`` (the other tagging rules then have nothing to read)."""
    site = ctx.loc.trait_site(TAGGABLE)
    tagging = ctx.schema.get("tagging")
    if "taggable" in ctx.schema:
        ctx.report("S6124", "the schema has the deprecated top-level `taggable`", site,
                   "remove `taggable` (jsonAdd / schemaDocumentExtensions): `tagging` replaces it")
    if tagging is None:
        return
    if not isinstance(tagging, dict):
        ctx.report("S6124", "`tagging` is not an object", site, "remove the jsonAdd that sets `tagging`")
    elif "taggable" not in tagging:
        ctx.report("S6124", "`tagging` has no `taggable`", site, "remove the jsonAdd that changes `tagging`")


def _not_taggable(ctx: ResourceContext) -> bool:
    tagging = ctx.tagging()
    return tagging is not None and tagging["taggable"] is not True


def _taggable(ctx: ResourceContext) -> dict[str, Any] | None:
    """``tagging`` when it says the resource is taggable."""
    tagging = ctx.tagging()
    return tagging if tagging is not None and tagging["taggable"] is True else None


@lint_rule(Code("S6110", Severity.WARNING, "CfnLint.GuardRail.NotTaggable",
                "the resource is not taggable (no `@aws.api#taggable`)"),
           rule="guard-rail TAG015")
def not_taggable(ctx: ResourceContext) -> None:
    """``tagging.taggable`` is not true."""
    if _not_taggable(ctx):
        ctx.report("S6110", "the resource is not taggable (`tagging.taggable` is false)", ctx.loc.resource_site(),
                   "add @aws.api#taggable to the resource, with TagResource, UntagResource and "
                   "ListTagsForResource operations on the service (@aws.api#tagEnabled)")


@lint_rule(Code("S6111", Severity.WARNING, "CfnLint.GuardRail.TagPropertyNotTaggable",
                "a property named like tags on a resource that is not taggable"),
           rule="guard-rail TAG016")
def tag_property_not_taggable(ctx: ResourceContext) -> None:
    """A resource that is not taggable has a property path whose name holds ``Tag``
    (:meth:`ResourceContext.tag_path`)."""
    tag_path = ctx.tag_path() if _not_taggable(ctx) else None
    if tag_path is not None:
        ctx.report("S6111", f"the resource is not taggable but has the tag-like property {tag_path}",
                   ctx.loc.pointer_site(tag_path),
                   "add @aws.api#taggable to the resource, or rename the member (@aws.cloudformation#cfnName) "
                   "if it does not hold the resource's tags")


@lint_rule(Code("S6112", Severity.WARNING, "CfnLint.GuardRail.TaggingFields",
                "`tagging` lacks `tagOnCreate`, `tagUpdatable`, `cloudFormationSystemTags`, `tagProperty` or "
                "`permissions`"),
           rule="guard-rail TAG007, TAG008, TAG009, TAG010, TAG012")
def tagging_fields(ctx: ResourceContext) -> None:
    """A taggable resource's ``tagging`` lacks one of its fields."""
    tagging = _taggable(ctx)
    missing = [k for k in ("tagOnCreate", "tagUpdatable", "cloudFormationSystemTags", "tagProperty", "permissions")
               if k not in tagging] if tagging is not None else []
    if missing:
        ctx.report("S6112", f"`tagging` lacks {', '.join(missing)}", ctx.loc.trait_site(TAGGABLE),
                   "do not remove tagging fields with jsonAdd; @aws.api#taggable gives them")


@lint_rule(Code("S6113", Severity.WARNING, "CfnLint.GuardRail.TagsProperty",
                "a taggable resource without a `Tags` property"),
           rule="guard-rail TAG004, TAG011")
def tags_property(ctx: ResourceContext) -> None:
    """A taggable resource without a top-level ``Tags`` property."""
    if _taggable(ctx) is not None and "Tags" not in ctx.obj("properties"):
        ctx.report("S6113", "the resource is taggable but has no `Tags` property", ctx.loc.trait_site(TAGGABLE),
                   "name the tags property Tags (@aws.api#taggable(property: \"tags\") or "
                   "@aws.cloudformation#cfnName(\"Tags\"))")


def _tag_property(ctx: ResourceContext) -> str | None:
    """A taggable resource's ``tagging.tagProperty``, when it is a string."""
    tagging = _taggable(ctx)
    value = tagging.get("tagProperty") if tagging is not None else None
    return value if isinstance(value, str) else None


@lint_rule(Code("S6114", Severity.WARNING, "CfnLint.GuardRail.TagPropertyPointer",
                "`tagProperty` names no property of the schema"),
           rule="guard-rail TAG013")
def tag_property_pointer(ctx: ResourceContext) -> None:
    """``tagProperty`` names no property (:meth:`ResourceContext.resolves`)."""
    tag_property = _tag_property(ctx)
    if tag_property is not None and not ctx.resolves(tag_property):
        ctx.report("S6114", f"tagProperty {tag_property} is not a property of the schema",
                   ctx.loc.trait_site(TAGGABLE), "set @aws.api#taggable property to a member of the resource")


@lint_rule(Code("S6115", Severity.WARNING, "CfnLint.GuardRail.TagPropertyWriteOnly",
                "the tag property is writeOnly"),
           rule="guard-rail TAG014")
def tag_property_write_only(ctx: ResourceContext) -> None:
    """The tag property is writeOnly (reported where its mutability is decided)."""
    tag_property = _tag_property(ctx)
    if tag_property is not None and tag_property in ctx.pointer_list("writeOnlyProperties"):
        ctx.report("S6115", f"tagProperty {tag_property} is writeOnly",
                   ctx.mutability_site(ctx.loc.pointer_site(tag_property), tag_property),
                   "return the tags from the read operation, or give the service TagResource, "
                   "UntagResource and ListTagsForResource operations")


@lint_rule(Code("S6116", Severity.WARNING, "CfnLint.GuardRail.TagPropertyCreateOnly",
                "the tag property is createOnly"),
           rule="guard-rail TAG017, TAG018")
def tag_property_create_only(ctx: ResourceContext) -> None:
    """The tag property is createOnly (reported where its mutability is decided)."""
    tag_property = _tag_property(ctx)
    if tag_property is not None and tag_property in ctx.pointer_list("createOnlyProperties"):
        updatable = ctx.obj("tagging").get("tagUpdatable") is True
        ctx.report("S6116", f"tagProperty {tag_property} is createOnly"
                            + (" while tagUpdatable is true" if updatable else ""),
                   ctx.mutability_site(ctx.loc.pointer_site(tag_property), tag_property),
                   "put the tags member in the update input, or give the service TagResource and "
                   "UntagResource operations")


@lint_rule(Code("S6117", Severity.WARNING, "CfnLint.GuardRail.TagPropertyWildcard",
                "`tagProperty` holds a wildcard"),
           rule="guard-rail TAG019")
def tag_property_wildcard(ctx: ResourceContext) -> None:
    """``tagProperty`` holds ``*``."""
    tag_property = _tag_property(ctx)
    if tag_property is not None and "*" in tag_property:
        ctx.report("S6117", f"tagProperty {tag_property} holds a wildcard", ctx.loc.trait_site(TAGGABLE),
                   "name the tags property itself in @aws.api#taggable")


# -- properties (ARN, COM) ---------------------------------------------------------------


def _properties(ctx: ResourceContext):
    """``(name, details, site)`` of each top-level property whose schema is an object, by name."""
    for name, details in sorted(ctx.obj("properties").items()):
        if isinstance(details, dict):
            yield name, details, ctx.loc.property_site(name)


@lint_rule(Code("S6118", Severity.WARNING, "CfnLint.GuardRail.ArnProperty",
                "an ARN property that is not a string with a pattern"),
           rule="guard-rail ARN001, ARN002")
def arn_property(ctx: ResourceContext) -> None:
    """A top-level property named like an ARN (:data:`ARN_NAME`) that is not a string with a
    pattern (its ``$ref`` resolved)."""
    for name, details, site in _properties(ctx):
        resolved = ctx.resolve(details)
        if ARN_NAME.search(name) and (resolved.get("type") != "string" or "pattern" not in resolved):
            what = "is not a string" if resolved.get("type") != "string" else "has no pattern"
            ctx.report("S6118", f"ARN property `{name}` {what}", site,
                       "target a string shape with an ARN @pattern (e.g. ^arn:aws[a-z-]*:...)")


@lint_rule(Code("S6119", Severity.WARNING, "CfnLint.GuardRail.PropertyType",
                "a property without a type, or with several"),
           rule="guard-rail COM001, COM002")
def property_type(ctx: ResourceContext) -> None:
    """A top-level property without a type (its ``$ref`` resolved, as guard-rail reads it),
    or with several."""
    for name, details, site in _properties(ctx):
        resolved = ctx.resolve(details)
        if "type" not in resolved:
            if any(k in resolved for k in ("oneOf", "anyOf", "allOf")):
                ctx.report("S6119", f"property `{name}` is a union (oneOf) without a type", site,
                           "CloudFormation wants a typed property: target a structure of optional members "
                           "instead of the union, or suppress CfnLint.GuardRail.PropertyType")
            else:
                ctx.report("S6119", f"property `{name}` has no type", site,
                           "give the member a target with a JSON type (a document has none)")
        if isinstance(details.get("type"), list):
            ctx.report("S6119", f"property `{name}` has several types", site, "target one shape type")


@lint_rule(Code("S6120", Severity.WARNING, "CfnLint.GuardRail.ArrayItems",
                "an array property without `items`, or with items given by `anyOf`/`allOf`/`oneOf`"),
           rule="guard-rail COM003, COM004, COM005, COM006")
def array_items(ctx: ResourceContext) -> None:
    """A top-level array property without ``items``, or whose items (resolved, as guard-rail
    reads them) are given by a combiner."""
    for name, details, site in _properties(ctx):
        if details.get("type") != "array":
            continue
        items = ctx.resolve(details.get("items"))
        if not isinstance(items, dict):
            ctx.report("S6120", f"array property `{name}` has no items", site, "target a list shape")
            continue
        for combiner in ("anyOf", "allOf", "oneOf"):
            if combiner in items:
                ctx.report("S6120", f"array property `{name}` gives its items with {combiner}",
                           ctx.loc.site(["properties", name, "items"]),
                           "make the list member target a structure instead of a union")


# -- general (GN) --------------------------------------------------------------------------


@lint_rule(Code("S6121", Severity.WARNING, "CfnLint.GuardRail.Description",
                "the description does not start with `Resource Type definition for`"),
           rule="guard-rail GN001")
def description(ctx: ResourceContext) -> None:
    """The description does not start with ``Resource Type definition for``."""
    text = ctx.schema.get("description")
    if not (isinstance(text, str) and text.startswith("Resource Type definition for")):
        ctx.report("S6121", "the description does not start with `Resource Type definition for`",
                   ctx.loc.trait_site(DOCUMENTATION),
                   f"start the resource's @documentation with \"Resource Type definition for "
                   f"{ctx.schema.get('typeName', '...')}\"")


@lint_rule(Code("S6122", Severity.WARNING, "CfnLint.GuardRail.SourceUrl", "`sourceUrl` is not https"),
           rule="guard-rail GN002")
def source_url(ctx: ResourceContext) -> None:
    """``sourceUrl`` does not use https."""
    url = ctx.schema.get("sourceUrl")
    if isinstance(url, str) and not url.startswith("https:"):
        ctx.report("S6122", f"sourceUrl {url} does not use https", ctx.loc.resource_site(),
                   "use an https:// link in @externalDocumentation")


@lint_rule(Code("S6123", Severity.WARNING, "CfnLint.GuardRail.ReplacementStrategy",
                "`replacementStrategy` is `create_then_delete`"),
           rule="guard-rail GN003")
def replacement_strategy(ctx: ResourceContext) -> None:
    """``replacementStrategy`` is ``create_then_delete``."""
    if ctx.schema.get("replacementStrategy") == "create_then_delete":
        ctx.report("S6123", "replacementStrategy is create_then_delete", ctx.loc.resource_site(),
                   "remove replacementStrategy from jsonAdd / schemaDocumentExtensions")


__all__ = ["ARN_NAME"]
