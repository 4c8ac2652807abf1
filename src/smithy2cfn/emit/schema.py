"""The CloudFormation resource schema document and the conversion context.

:class:`ResourceSchema` mirrors the reference's ``ResourceSchema`` model (sets kept sorted,
handlers by name) and writes itself in the reference's key order (``toNode``);
:class:`Context` is what each mapper sees (reference ``Context``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from smithy2cfn.derive.plan import ConversionPlan, PropertyPlan, ResourcePlan
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.emit.jsonschema import SchemaConverter
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.settings import Settings


@dataclass
class ResourceSchema:
    """A CloudFormation resource provider schema under construction.

    Set-valued fields (``required``, ``read_only_properties``...) are Python sets and are
    written sorted; ``handlers`` maps a handler name to its sorted permission list;
    ``tagging`` is the ``tagging`` object or ``None``; ``extra`` holds further top-level
    keys (written after ``tagging``).
    """

    type_name: str
    description: str
    source_url: str | None = None
    documentation_url: str | None = None
    definitions: dict[str, dict] = field(default_factory=dict)
    properties: dict[str, dict] = field(default_factory=dict)
    required: set[str] = field(default_factory=set)
    read_only_properties: set[str] = field(default_factory=set)
    write_only_properties: set[str] = field(default_factory=set)
    create_only_properties: set[str] = field(default_factory=set)
    deprecated_properties: set[str] = field(default_factory=set)
    primary_identifier: set[str] = field(default_factory=set)
    additional_identifiers: list[list[str]] = field(default_factory=list)
    handlers: dict[str, list[str]] = field(default_factory=dict)
    #: handler name → its ``handlerSchema`` (a list handler's request parameters)
    handler_schemas: dict[str, dict[str, Any]] = field(default_factory=dict)
    tagging: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

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


@dataclass
class Context:
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

    model: Model
    service: Shape
    resource: Shape
    plan: ResourcePlan
    conversion: ConversionPlan
    config: Settings
    converter: SchemaConverter
    diags: Diagnostics

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
