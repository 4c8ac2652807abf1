"""Where in the model a piece of an emitted schema comes from.

A lint rule judges the schema CloudFormation will read, but reports at the Smithy source:
the member, operation, trait or shape that made that piece of the schema. :class:`Locator`
maps a JSON pointer of one resource's schema back to the model through the conversion plan:
``/properties/P`` is the plan's property (its member), ``/definitions/D`` the shape that
definition is made from, ``.../items`` the list's member, ``.../properties/Q`` the structure
member written as ``Q``, ``.../pattern`` the ``@pattern`` trait, ``.../description`` the
``@documentation`` trait, ``/handlers/H`` the handler's lifecycle operation, ``/tagging`` the
``@aws.api#taggable`` trait. What cannot be followed falls back to the nearest owner found,
and at worst to the resource.
"""

from __future__ import annotations

from smithy2cfn.derive.plan import ConversionPlan, PropertyPlan, ResourcePlan, property_name
from smithy2cfn.diagnostics import Diagnostics, Span
from smithy2cfn.emit.jsonschema import SchemaConverter
from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import DOCUMENTATION, ENUM, LENGTH, PATTERN, RANGE, TAGGABLE, UNIQUE_ITEMS
from smithy2cfn.records import Record

#: schema keyword → the trait it is written from (for locating at the trait).
KEYWORD_TRAITS = {
    "pattern": PATTERN, "description": DOCUMENTATION, "minLength": LENGTH, "maxLength": LENGTH,
    "minItems": LENGTH, "maxItems": LENGTH, "minProperties": LENGTH, "maxProperties": LENGTH,
    "minimum": RANGE, "maximum": RANGE, "uniqueItems": UNIQUE_ITEMS, "enum": ENUM,
}


class Site(Record, frozen=True):
    """A place in the model: its span and the shape (or member) ID there, for suppressions."""

    span: Span | None
    shape_id: str

    def __init__(self, span: Span | None, shape_id: str) -> None:
        self.__dict__.update(span=span, shape_id=shape_id)


class Locator:
    """Maps JSON pointers of one resource's schema to :class:`Site` objects.

    Args:
        model: the model the plan was derived from.
        plan: the conversion plan.
        rplan: the resource's plan.
        definition_names: definition name → shape ID (see :func:`definition_names`).
    """

    def __init__(self, model: Model, plan: ConversionPlan, rplan: ResourcePlan,
                 definition_names: dict[str, str]) -> None:
        self.model, self.plan, self.rplan = model, plan, rplan
        self.config = plan.config
        self.resource: Shape = model.shapes[rplan.resource_id]
        self.definitions = definition_names
        self._by_schema_name = {p.schema_name: p for p in rplan.properties}

    # -- simple places ---------------------------------------------------------------

    def resource_site(self) -> Site:
        """The resource shape."""
        return Site(self.resource.span, self.resource.id)

    def trait_site(self, trait: str) -> Site:
        """A trait of the resource (the resource when it does not have it)."""
        return Site(self.resource.trait_spans.get(trait, self.resource.span), self.resource.id)

    def property(self, schema_name: str) -> PropertyPlan | None:
        """The planned property written as ``schema_name``."""
        return self._by_schema_name.get(schema_name)

    def property_site(self, schema_name: str) -> Site:
        """The member a top-level property comes from (its first source when the property
        is an identifier without a member: where the identifier is declared)."""
        prop = self.property(schema_name)
        if prop is None:
            return self.resource_site()
        if prop.member.span is not None:
            return Site(prop.member.span, self._member_id(prop))
        for source in prop.sources:
            if source.span is not None:
                return Site(source.span, self.resource.id)
        return self.resource_site()

    def _member_id(self, prop: PropertyPlan) -> str:
        first = prop.shape_ids[0] if prop.shape_ids else ""
        return first if "$" in first else self.resource.id

    def operation_site(self, handler: str) -> Site:
        """The lifecycle operation of a handler (``create`` is ``create`` or ``put``); the
        resource when it has none."""
        op = getattr(self.resource, handler, None) or (self.resource.put if handler in ("create", "update") else None)
        shape = self.model.get(op) if op else None
        if shape is None:
            return self.resource_site()
        return Site(shape.span, self.resource.id)

    def pointer_site(self, pointer: str) -> Site:
        """The model place a property path names (``/properties/A/B``, ``*`` for array
        items, as ``readOnlyProperties`` and guard-rail write them): the top-level
        property's member, or the nested member."""
        parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
        if len(parts) < 2 or parts[0] != "properties":
            return self.site(parts)
        schema_parts = parts[:2]
        for segment in parts[2:]:
            schema_parts += ["items"] if segment == "*" else ["properties", segment]
        return self.site(schema_parts)

    # -- any pointer -----------------------------------------------------------------

    def site(self, parts: list[str]) -> Site:
        """The model place that made the schema value at ``parts`` (pointer segments)."""
        if not parts:
            return self.resource_site()
        head = parts[0]
        if head == "description":
            return self.trait_site(DOCUMENTATION)
        if head in ("tagging", "taggable"):
            return self.trait_site(TAGGABLE)
        if head == "handlers" and len(parts) > 1:
            return self.operation_site(parts[1])
        if head == "properties" and len(parts) > 1:
            prop = self.property(parts[1])
            if prop is None:
                return self.resource_site()
            base = self.property_site(parts[1])
            found = self._in(prop.member, parts[2:])
            return found if found is not None else base
        if head == "definitions" and len(parts) > 1:
            shape = self.model.get(self.definitions.get(parts[1], ""))
            if shape is None:
                return self.resource_site()
            found = self._in(shape, parts[2:])
            return found if found is not None else Site(shape.span, shape.id)
        return self.resource_site()

    def _trait_site(self, owner: Member | Shape, trait: str) -> Site | None:
        """Where ``trait`` is applied: on the member, else on its target."""
        if trait in owner.traits and owner.trait_spans.get(trait) is not None:
            return Site(owner.trait_spans[trait], owner.id)
        target = self.model.get(owner.target) if isinstance(owner, Member) else None
        if target is not None and trait in target.traits:
            return Site(target.trait_spans.get(trait, target.span), target.id)
        return None

    def _in(self, owner: Member | Shape, parts: list[str]) -> Site | None:
        """Follow ``parts`` inside the schema of ``owner`` (a member or a shape)."""
        here = Site(owner.span, owner.id) if owner.span is not None else None
        if not parts:
            return here
        key = parts[0]
        shape = self.model.get(owner.target) if isinstance(owner, Member) else owner
        if key in KEYWORD_TRAITS:
            return self._trait_site(owner, KEYWORD_TRAITS[key]) or here
        if key == "items" and shape is not None and shape.type in ("list", "set") and "member" in shape.members:
            return self._in(shape.members["member"], parts[1:]) or here
        if key == "properties" and len(parts) > 1 and shape is not None:
            for member in shape.members.values():
                if property_name(member, self.config) == parts[1]:
                    return self._in(member, parts[2:]) or here
        if key in ("patternProperties", "additionalProperties") and shape is not None and shape.type == "map":
            value = shape.members.get("value")
            rest = parts[2:] if key == "patternProperties" else parts[1:]
            return (self._in(value, rest) if value is not None else None) or here
        if key in ("oneOf", "anyOf", "allOf") and len(parts) > 1 and shape is not None and parts[1].isdigit():
            members = list(shape.members.values())
            index = int(parts[1])
            if index < len(members):
                return self._in(members[index], parts[2:]) or here
        return here


def definition_names(model: Model, plan: ConversionPlan) -> dict[str, str]:
    """Definition name → shape ID for every shape the plan's resources reach (the names
    the emitter gives, :meth:`SchemaConverter.definition_name`)."""
    service = model.shapes.get(plan.service_id)
    config = plan.config
    converter = SchemaConverter(model, config, lambda m: property_name(m, config), Diagnostics(),
                                set(plan.service_shapes), service)
    out: dict[str, str] = {}
    for rplan in plan.resources:
        for sid in sorted(rplan.shapes):
            out.setdefault(converter.definition_name(sid), sid)
    return out


__all__ = ["KEYWORD_TRAITS", "Locator", "Site", "definition_names"]
