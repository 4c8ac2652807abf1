"""The ordered chain of CloudFormation mappers (reference ``CfnMapper`` and ``CoreExtension``).

Each mapper is a small class with three hooks, all optional:

* ``before(context, schema)`` — runs before the properties and definitions are added;
* ``after(context, schema)`` — runs once the :class:`ResourceSchema` is complete;
* ``update_node(context, node) -> node`` — edits the written JSON dict.

Mappers run sorted by ``order`` (stable: ties keep the order given), like the
reference. Add your own through an extension (:mod:`smithy2cfn.emit.extensions`), or pass
a list to :func:`smithy2cfn.emit.convert`.
"""

from __future__ import annotations

import re
from typing import Any

import jsonpointer

from smithy2cfn.emit.schema import Context, ResourceSchema
from smithy2cfn.model.traits import (
    AWS_SERVICE,
    DEPRECATED,
    EXTERNAL_DOCUMENTATION,
    IAM_ACTION,
    NO_REPLACE,
    REQUIRED,
    REQUIRED_ACTIONS,
    TAGGABLE,
)


class CfnMapper:
    """Base class of a mapper; subclasses override the hooks they need."""

    #: Position in the chain; lower runs first (reference ``CfnMapper.getOrder``).
    order: int = 0

    def before(self, context: Context, schema: ResourceSchema) -> None:
        """Edit the schema before properties and definitions are added."""

    def after(self, context: Context, schema: ResourceSchema) -> None:
        """Edit the complete schema."""

    def update_node(self, context: Context, node: dict[str, Any]) -> dict[str, Any]:
        """Edit (or replace) the written JSON dict; return it."""
        return node


def permissions_for_operation(context: Context, operation_id: str) -> set[str]:
    """IAM actions to call an operation: ``<arnNamespace or service name>:<operation name>``
    (lower-cased prefix, service ``rename`` applied) plus its ``aws.iam#iamAction``
    ``requiredActions`` (else ``aws.iam#requiredActions``). Reference
    ``HandlerPermissionMapper.getPermissionsEntriesForOperation``."""
    service = context.service
    trait = service.traits.get(AWS_SERVICE)
    arn = trait.get("arnNamespace") if isinstance(trait, dict) else None
    prefix = arn if isinstance(arn, str) and arn else service.name
    name = service.rename.get(operation_id, operation_id.split("#", 1)[-1])
    perms = {f"{prefix.lower()}:{name}"}
    op = context.model.get(operation_id)
    if op is not None:
        iam = op.traits.get(IAM_ACTION)
        actions = iam.get("requiredActions") if isinstance(iam, dict) else None
        if not actions:
            actions = op.traits.get(REQUIRED_ACTIONS)
        if isinstance(actions, list):
            perms |= {a for a in actions if isinstance(a, str)}
    return perms


class DeprecatedMapper(CfnMapper):
    """``deprecatedProperties`` from ``@deprecated`` members (or targets). Reference
    ``DeprecatedMapper``; off with ``disableDeprecatedPropertyGeneration``."""

    def before(self, context: Context, schema: ResourceSchema) -> None:
        if context.config.disable_deprecated_property_generation:
            return
        for name, member in context.members.items():
            target = context.model.get(member.target)
            if DEPRECATED in member.traits or (target is not None and DEPRECATED in target.traits):
                schema.deprecated_properties.add(context.property_pointer(name))


class DocumentationMapper(CfnMapper):
    """``sourceUrl``/``documentationUrl`` from the resource's ``@externalDocumentation``,
    by the ``sourceDocs``/``externalDocs`` names (case-insensitive, in priority order).
    Reference ``DocumentationMapper``."""

    def before(self, context: Context, schema: ResourceSchema) -> None:
        docs = context.resource.traits.get(EXTERNAL_DOCUMENTATION)
        if not isinstance(docs, dict):
            return
        lower = {k.lower(): v for k, v in docs.items()}

        def pick(names: list[str]) -> str | None:
            for n in names:
                if n.lower() in lower:
                    return lower[n.lower()]
            return None

        schema.source_url = pick(context.config.source_docs)
        schema.documentation_url = pick(context.config.external_docs)


class HandlerPermissionMapper(CfnMapper):
    """``handlers`` with ``permissions`` from the lifecycle operations: ``put`` counts for
    ``create`` and, without ``@noReplace``, ``update``. Reference
    ``HandlerPermissionMapper``; off with ``disableHandlerPermissionGeneration``."""

    def before(self, context: Context, schema: ResourceSchema) -> None:
        if context.config.disable_handler_permission_generation:
            return
        r = context.resource

        def perms(op: str | None) -> set[str]:
            return permissions_for_operation(context, op) if op else set()

        create, update, put = perms(r.create), perms(r.update), perms(r.put)
        create |= put
        if NO_REPLACE not in r.traits:
            update |= put
        if create:
            schema.handlers["create"] = sorted(create)
        if update:
            schema.handlers["update"] = sorted(update)
        for name in ("read", "delete", "list"):
            op = getattr(r, name)
            if op:
                schema.handlers[name] = sorted(perms(op))


class IdentifierMapper(CfnMapper):
    """``primaryIdentifier`` from the resource identifiers and ``additionalIdentifiers``
    from ``@cfnAdditionalIdentifier`` members. Reference ``IdentifierMapper``.

    A resource without identifiers gets error ``S4003`` (CloudFormation requires a
    primary identifier; the reference writes none)."""

    def before(self, context: Context, schema: ResourceSchema) -> None:
        cfn = context.cfn_resource
        if not cfn.primary_identifiers:
            context.diags.error(
                "S4003", f"resource {context.resource.id} has no identifiers, so its CloudFormation "
                         f"schema has no primaryIdentifier", span=context.resource.span,
                shape_id=context.resource.id, hint="add an 'identifiers' property to the resource")
        schema.primary_identifier |= {context.property_pointer(n) for n in cfn.primary_identifiers}
        for ids in cfn.additional_identifiers:
            missing = [n for n in ids if n not in context.members]
            if missing:
                context.diags.error(
                    "S4004", f"additional identifier '{missing[0]}' of {context.resource.id} is not a "
                             f"property of the resource (is it excluded?)", span=context.resource.span,
                    shape_id=context.resource.id)
                continue
            schema.additional_identifiers.append([context.property_pointer(n) for n in ids])


class MutabilityMapper(CfnMapper):
    """``createOnlyProperties``, ``readOnlyProperties``, ``writeOnlyProperties`` from the
    derived mutabilities. Reference ``MutabilityMapper``."""

    def before(self, context: Context, schema: ResourceSchema) -> None:
        cfn = context.cfn_resource
        schema.create_only_properties |= {context.property_pointer(n) for n in cfn.create_only()}
        schema.read_only_properties |= {context.property_pointer(n) for n in cfn.read_only()}
        schema.write_only_properties |= {context.property_pointer(n) for n in cfn.write_only()}


class RequiredMapper(CfnMapper):
    """``required`` from ``@required`` members whose property can be set (CREATE or
    WRITE). Reference ``RequiredMapper``; off with ``disableRequiredPropertyGeneration``."""

    def before(self, context: Context, schema: ResourceSchema) -> None:
        if context.config.disable_required_property_generation:
            return
        from smithy2cfn.derive.resource_index import Mutability

        for name, member in context.members.items():
            if REQUIRED not in member.traits:
                continue
            prop = context.cfn_resource.properties.get(name)
            if prop is not None and prop.mutability & (Mutability.CREATE | Mutability.WRITE):
                schema.required.add(context.property_name(name))


class TaggingMapper(CfnMapper):
    """``tagging`` for ``@taggable`` resources: tag property, tag-on-create, system tags
    and the permissions of the tag/untag/list-tags operations. Reference ``TaggingMapper``."""

    def after(self, context: Context, schema: ResourceSchema) -> None:
        trait = context.resource.traits.get(TAGGABLE)
        if trait is None:
            return
        trait = trait if isinstance(trait, dict) else {}
        perms: set[str] = set()
        for key in ("tagApi", "listTagsApi", "untagApi"):
            op = context.tags.tag_operations(context.resource.id).get(key)
            if op:
                perms |= permissions_for_operation(context, op)
        tagging: dict[str, Any] = {
            "taggable": True,
            "tagOnCreate": context.tags.is_tag_on_create(context.resource),
            "tagProperty": "/properties/" + tag_member_name(context),
            "cloudFormationSystemTags": not trait.get("disableSystemTags", False),
            "tagUpdatable": True,
        }
        if perms:
            tagging["permissions"] = sorted(perms)
        schema.tagging = tagging


def tag_member_name(context: Context) -> str:
    """The tags property name: the ``@taggable`` ``property`` (capitalized unless
    ``disableCapitalizedProperties``), else ``Tags``."""
    trait = context.resource.traits.get(TAGGABLE)
    prop = trait.get("property") if isinstance(trait, dict) else None
    if not prop or not isinstance(prop, str):
        return "Tags"
    return prop if context.config.disable_capitalized_properties else prop[:1].upper() + prop[1:]


class AdditionalPropertiesMapper(CfnMapper):
    """``"additionalProperties": false`` on every object in ``definitions`` (and on each
    ``oneOf`` variant of a union). Reference ``AdditionalPropertiesMapper``."""

    order = 124

    def update_node(self, context: Context, node: dict[str, Any]) -> dict[str, Any]:
        defs = node.get("definitions")
        if isinstance(defs, dict):
            node["definitions"] = {k: _close_object(v) for k, v in defs.items()}
        return node


def _close_object(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    if "type" not in schema and isinstance(schema.get("oneOf"), list):
        return {**schema, "oneOf": [_close_object(v) for v in schema["oneOf"]]}
    if schema.get("type") == "object":
        return {**schema, "additionalProperties": False}
    return schema


class SchemaDocumentExtensionsMapper(CfnMapper):
    """Merges ``schemaDocumentExtensions`` into the top level of every schema (documented
    setting the reference ignores); the meta-schema check judges the result (the values
    are strict JSON: the settings reader checks them, ``S5001``)."""

    order = 123

    def update_node(self, context: Context, node: dict[str, Any]) -> dict[str, Any]:
        node.update(context.config.schema_document_extensions)
        return node


class JsonAddMapper(CfnMapper):
    """Applies ``jsonAdd`` for the resource: JSON Patch "add" at each pointer, creating
    missing intermediate objects. Reference ``JsonAddMapper``; a bad pointer is error
    ``S4005`` (the values are strict JSON: the settings reader checks them, ``S5001``)."""

    order = 124

    def update_node(self, context: Context, node: dict[str, Any]) -> dict[str, Any]:
        for where, value in context.config.json_add.get(context.resource.id, {}).items():
            problem = json_add(node, where, value)
            if problem:
                context.diags.error("S4005", f"jsonAdd for {context.resource.id} at '{where}': {problem}",
                                    span=context.config.source, shape_id=context.resource.id)
        return node


def json_add(doc: dict[str, Any], pointer: str, value: Any) -> str | None:
    """Add ``value`` at RFC 6901 ``pointer`` in ``doc`` (in place), creating missing
    intermediate objects like the reference's ``NodePointer.addWithIntermediateValues``.

    Pointers are parsed by the ``jsonpointer`` library. Returns a problem description, or
    ``None`` on success.
    """
    try:
        parts = jsonpointer.JsonPointer(pointer).parts
    except jsonpointer.JsonPointerException as e:
        return str(e)
    if not parts:
        return "cannot replace the whole document"
    cur: Any = doc
    for part in parts[:-1]:
        if isinstance(cur, dict):
            if not isinstance(cur.get(part), (dict, list)):
                cur[part] = {}
            cur = cur[part]
        elif isinstance(cur, list):
            index = _array_index(part, len(cur))
            if index == len(cur):
                cur.append({})
                cur = cur[-1]
            elif index is not None and index < len(cur):
                cur = cur[index]
            else:
                return f"'{_short(part)}' is not an index of the array"
        else:
            return f"'{part}' goes through a value that is neither an object nor an array"
    last = parts[-1]
    if isinstance(cur, dict):
        cur[last] = value
    elif isinstance(cur, list):
        index = _array_index(last, len(cur))
        if index is not None and index <= len(cur):
            cur.insert(index, value)
        else:
            return f"'{_short(last)}' is not an index of the array"
    else:
        return f"'{last}' goes through a value that is neither an object nor an array"
    return None


def _array_index(part: str, length: int) -> int | None:
    """The array index a pointer token names in an array of ``length`` elements: ``-`` is
    ``length``; otherwise RFC 6901 ``0`` or ASCII digits without a leading zero. An index
    longer than any in range is ``length + 1`` (never converted: it may have thousands of
    digits). ``None`` when the token is not an index."""
    if part == "-":
        return length
    if not _INDEX.match(part):
        return None
    if len(part) > len(str(length)):
        return length + 1
    return int(part)


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


_INDEX = re.compile(r"(?:0|[1-9][0-9]*)\Z")

#: The core mappers, in registration order (reference ``CoreExtension``).
CORE_MAPPERS: list[type[CfnMapper]] = [
    AdditionalPropertiesMapper, DeprecatedMapper, DocumentationMapper, HandlerPermissionMapper,
    IdentifierMapper, JsonAddMapper, MutabilityMapper, RequiredMapper, TaggingMapper,
    SchemaDocumentExtensionsMapper,
]


def default_mappers(extra: list[CfnMapper] | None = None) -> list[CfnMapper]:
    """The core mappers and ``extra``, sorted by ``order`` (stable)."""
    mappers = [cls() for cls in CORE_MAPPERS] + list(extra or [])
    return sorted(mappers, key=lambda m: m.order)
