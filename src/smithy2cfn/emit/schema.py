"""The CloudFormation resource schema document and the conversion context.

:class:`ResourceSchema` mirrors the reference's ``ResourceSchema`` model (sets kept sorted,
handlers by name) and writes itself in the reference's key order (``toNode``);
:class:`Context` is what each mapper sees (reference ``Context``).
"""

from __future__ import annotations

from smithy2cfn.derive.plan import ConversionPlan, PropertyPlan, ResourcePlan
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.emit.jsonschema import SchemaConverter
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.records import Record
from smithy2cfn.settings import Settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class ResourceSchema(Record):
    """A CloudFormation resource provider schema under construction.

    Set-valued fields (``required``, ``read_only_properties``...) are Python sets and are
    written sorted; ``handlers`` maps a handler name to its sorted permission list;
    ``tagging`` is the ``tagging`` object or ``None``; ``extra`` holds further top-level
    keys (written after ``tagging``).
    """

    __slots__ = ("type_name", "description", "source_url", "documentation_url", "definitions", "properties",
                 "required", "read_only_properties", "write_only_properties", "create_only_properties",
                 "deprecated_properties", "primary_identifier", "additional_identifiers", "handlers",
                 "handler_schemas", "tagging", "extra")
    type_name: str
    description: str
    source_url: str | None
    documentation_url: str | None
    definitions: dict[str, dict]
    properties: dict[str, dict]
    required: set[str]
    read_only_properties: set[str]
    write_only_properties: set[str]
    create_only_properties: set[str]
    deprecated_properties: set[str]
    primary_identifier: set[str]
    additional_identifiers: list[list[str]]
    handlers: dict[str, list[str]]
    #: handler name → its ``handlerSchema`` (a list handler's request parameters)
    handler_schemas: dict[str, dict[str, Any]]
    tagging: dict[str, Any] | None
    extra: dict[str, Any]

    def __init__(self, type_name: str, description: str, source_url: str | None = None,
                 documentation_url: str | None = None, definitions: dict[str, dict] | None = None,
                 properties: dict[str, dict] | None = None, required: set[str] | None = None,
                 read_only_properties: set[str] | None = None, write_only_properties: set[str] | None = None,
                 create_only_properties: set[str] | None = None,
                 deprecated_properties: set[str] | None = None, primary_identifier: set[str] | None = None,
                 additional_identifiers: list[list[str]] | None = None,
                 handlers: dict[str, list[str]] | None = None,
                 handler_schemas: dict[str, dict[str, Any]] | None = None,
                 tagging: dict[str, Any] | None = None, extra: dict[str, Any] | None = None) -> None:
        self.type_name = type_name
        self.description = description
        self.source_url = source_url
        self.documentation_url = documentation_url
        self.definitions = {} if definitions is None else definitions
        self.properties = {} if properties is None else properties
        self.required = set() if required is None else required
        self.read_only_properties = set() if read_only_properties is None else read_only_properties
        self.write_only_properties = set() if write_only_properties is None else write_only_properties
        self.create_only_properties = set() if create_only_properties is None else create_only_properties
        self.deprecated_properties = set() if deprecated_properties is None else deprecated_properties
        self.primary_identifier = set() if primary_identifier is None else primary_identifier
        self.additional_identifiers = [] if additional_identifiers is None else additional_identifiers
        self.handlers = {} if handlers is None else handlers
        self.handler_schemas = {} if handler_schemas is None else handler_schemas
        self.tagging = tagging
        self.extra = {} if extra is None else extra

    def to_node(self) -> dict[str, Any]:
        """The schema as a JSON-ready dict in the reference's key order (``toNode``)."""
        node: dict[str, Any] = {"typeName": self.type_name, "description": self.description}
        if self.source_url:
            node["sourceUrl"] = self.source_url
        if self.documentation_url:
            node["documentationUrl"] = self.documentation_url
        if self.definitions:
            node["definitions"] = dict(sorted(self.definitions.items()))
        node["properties"] = dict(sorted(self.properties.items()))
        for key, values in (("required", self.required),
                            ("readOnlyProperties", self.read_only_properties),
                            ("writeOnlyProperties", self.write_only_properties),
                            ("createOnlyProperties", self.create_only_properties),
                            ("deprecatedProperties", self.deprecated_properties),
                            ("primaryIdentifier", self.primary_identifier)):
            if values:
                node[key] = sorted(values)
        if self.additional_identifiers:
            node["additionalIdentifiers"] = [list(ids) for ids in self.additional_identifiers]
        if self.handlers:
            node["handlers"] = {
                name: ({"handlerSchema": self.handler_schemas[name]} if name in self.handler_schemas else {})
                | {"permissions": sorted(self.handlers[name])}
                for name in sorted(self.handlers)}
        if self.tagging is not None:
            node["tagging"] = dict(sorted(self.tagging.items()))
        node.update(self.extra)
        return node


class Context(Record):
    """What a mapper sees while one resource is converted (reference ``Context``).

    Attributes:
        model: the model.
        service: the converted service shape.
        resource: the resource shape.
        plan: the resource's plan: properties with their mutability, identifiers, handlers,
            tagging (:class:`~smithy2cfn.derive.plan.ResourcePlan`).
        conversion: the plan of the whole conversion.
        config: the plugin settings.
        converter: the JSON Schema converter (naming, ``$ref``s, definitions).
        diags: where mappers report problems.
    """

    __slots__ = ("model", "service", "resource", "plan", "conversion", "config", "converter", "diags")
    model: Model
    service: Shape
    resource: Shape
    plan: ResourcePlan
    conversion: ConversionPlan
    config: Settings
    converter: SchemaConverter
    diags: Diagnostics

    def __init__(self, model: Model, service: Shape, resource: Shape, plan: ResourcePlan,
                 conversion: ConversionPlan, config: Settings, converter: SchemaConverter,
                 diags: Diagnostics) -> None:
        self.model = model
        self.service = service
        self.resource = resource
        self.plan = plan
        self.conversion = conversion
        self.config = config
        self.converter = converter
        self.diags = diags

    def property(self, name: str) -> PropertyPlan | None:
        """The plan of a property, by its name in the model (member name)."""
        return self.plan.property(name)

    def property_name(self, name: str) -> str:
        """The JSON property name of a resource property (cfnName / capitalization applied)."""
        prop = self.plan.property(name)
        return prop.schema_name if prop is not None else name

    def property_pointer(self, name: str) -> str:
        """``/properties/<Name>`` for a resource property (reference ``getPropertyPointer``)."""
        return "/properties/" + self.property_name(name)
