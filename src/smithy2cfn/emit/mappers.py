"""The ordered chain of CloudFormation mappers (reference ``CfnMapper`` and ``CoreExtension``).

Each mapper is a small class with three hooks, all optional:

* ``before(context, schema)`` — runs before the properties and definitions are added;
* ``after(context, schema)`` — runs once the :class:`ResourceSchema` is complete;
* ``update_node(context, node) -> node`` — edits the written JSON dict.

Mappers run sorted by ``order`` (stable: ties keep registration order), like the
reference. The core mappers write what the conversion plan (:mod:`smithy2cfn.derive.plan`)
decided; extensions add their own mappers (:func:`smithy2cfn.emit.emit_schemas` ``mappers``,
:func:`smithy2cfn.api.convert` ``extensions``).
"""

from __future__ import annotations

from smithy2cfn.diagnostics import Code, Severity, declare_codes
from smithy2cfn.emit.schema import Context, ResourceSchema
from smithy2cfn.model.nodes import copy_node, truncate
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S4005", Severity.ERROR, None, "a `jsonAdd` pointer cannot be applied"),
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


class DeprecatedMapper(CfnMapper):
    """``deprecatedProperties``: the planned deprecated properties (``@deprecated`` members or
    targets). Reference ``DeprecatedMapper``; off with ``disableDeprecatedPropertyGeneration``."""

    def before(self, context: Context, schema: ResourceSchema) -> None:
        if not context.config.disable_deprecated_property_generation:
            schema.deprecated_properties |= {p.pointer for p in context.plan.properties if p.deprecated}


class DocumentationMapper(CfnMapper):
    """``sourceUrl``/``documentationUrl``: the planned documentation links. Reference
    ``DocumentationMapper``."""

    def before(self, context: Context, schema: ResourceSchema) -> None:
        schema.source_url = context.plan.source_url
        schema.documentation_url = context.plan.documentation_url


class HandlerPermissionMapper(CfnMapper):
    """``handlers`` with the planned ``permissions``. Reference ``HandlerPermissionMapper``;
    off with ``disableHandlerPermissionGeneration``."""

    def before(self, context: Context, schema: ResourceSchema) -> None:
        if not context.config.disable_handler_permission_generation:
            for handler in context.plan.handlers:
                schema.handlers[handler.name] = list(handler.permissions)
                if handler.schema_properties:
                    names = [context.property_name(n) for n in handler.schema_properties]
                    # the CloudFormation convention: a handler's parameters refer to the
                    # resource's own properties
                    schema.handler_schemas[handler.name] = {
                        "properties": {n: {"$ref": f"resource-schema.json#/properties/{n}"} for n in names},
                        "required": sorted(names)}


class IdentifierMapper(CfnMapper):
    """``primaryIdentifier`` and ``additionalIdentifiers``: the planned identifiers.
    Reference ``IdentifierMapper``."""

    def before(self, context: Context, schema: ResourceSchema) -> None:
        plan = context.plan
        schema.primary_identifier |= {context.property_pointer(n) for n in plan.primary_identifier}
        for ids in plan.additional_identifiers:
            schema.additional_identifiers.append([context.property_pointer(n) for n in ids])


class MutabilityMapper(CfnMapper):
    """``createOnlyProperties``, ``readOnlyProperties``, ``writeOnlyProperties``: the planned
    mutabilities. Reference ``MutabilityMapper``."""

    def before(self, context: Context, schema: ResourceSchema) -> None:
        for prop in context.plan.properties:
            if prop.create_only:
                schema.create_only_properties.add(prop.pointer)
            if prop.read_only:
                schema.read_only_properties.add(prop.pointer)
            if prop.write_only:
                schema.write_only_properties.add(prop.pointer)


class RequiredMapper(CfnMapper):
    """``required``: the planned required properties (``@required`` and settable).
    Reference ``RequiredMapper``; off with ``disableRequiredPropertyGeneration``."""

    def before(self, context: Context, schema: ResourceSchema) -> None:
        if not context.config.disable_required_property_generation:
            schema.required |= {p.schema_name for p in context.plan.properties if p.required}


class TaggingMapper(CfnMapper):
    """``tagging``: the planned tagging of a ``@taggable`` resource. Reference ``TaggingMapper``."""

    def after(self, context: Context, schema: ResourceSchema) -> None:
        tagging = context.plan.tagging
        if tagging is None:
            return
        fields = {"taggable": tagging.taggable, "tagOnCreate": tagging.tag_on_create,
                  "tagProperty": tagging.tag_property, "cloudFormationSystemTags": tagging.cloudformation_system_tags,
                  "tagUpdatable": tagging.tag_updatable}
        node: dict[str, Any] = {k: v for k, v in fields.items() if v is not None}
        if tagging.permissions:
            node["permissions"] = list(tagging.permissions)
        schema.tagging = node


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
        node.update(copy_node(context.config.schema_document_extensions))
        return node


class JsonAddMapper(CfnMapper):
    """Applies ``jsonAdd`` for the resource: JSON Patch "add" at each pointer, creating
    missing intermediate objects. Reference ``JsonAddMapper``; a bad pointer is error
    ``S4005`` (the values are strict JSON: the settings reader checks them, ``S5001``)."""

    order = 124

    def update_node(self, context: Context, node: dict[str, Any]) -> dict[str, Any]:
        for where, value in context.config.json_add.get(context.resource.id, {}).items():
            problem = json_add(node, where, copy_node(value))
            if problem:
                context.diags.error("S4005", f"jsonAdd for {context.resource.id} at '{where}': {problem}",
                                    span=context.config.where("jsonAdd"), shape_id=context.resource.id)
        return node


def json_add(doc: dict[str, Any], pointer: str, value: Any) -> str | None:
    """Add ``value`` at RFC 6901 ``pointer`` in ``doc`` (in place), creating missing
    intermediate objects like the reference's ``NodePointer.addWithIntermediateValues``.

    Pointers are parsed by the ``jsonpointer`` library. Returns a problem description, or
    ``None`` on success.
    """
    import jsonpointer  # only with jsonAdd settings

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
                return f"'{truncate(part)}' is not an index of the array"
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
            return f"'{truncate(last)}' is not an index of the array"
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


_INDEX = lazy(r"(?:0|[1-9][0-9]*)\Z")

#: The core mappers, in registration order (reference ``CoreExtension``).
CORE_MAPPERS: list[type[CfnMapper]] = [
    AdditionalPropertiesMapper, DeprecatedMapper, DocumentationMapper, HandlerPermissionMapper,
    IdentifierMapper, JsonAddMapper, MutabilityMapper, RequiredMapper, TaggingMapper,
    SchemaDocumentExtensionsMapper,
]


def default_mappers(extra: list[CfnMapper] | None = None) -> list[CfnMapper]:
    """The core mappers and ``extra`` (the extensions' mappers), sorted by ``order`` (stable)."""
    mappers = [cls() for cls in CORE_MAPPERS] + list(extra or [])
    return sorted(mappers, key=lambda m: m.order)
