"""Identifier and property bindings of resource operations (Smithy 2.0 "Resource identifiers",
"Resource properties").

Python counterparts of the reference's ``IdentifierBindingIndex`` and
``PropertyBindingIndex``: which input/output members bind a resource identifier, which
members need not map to a property (``@notProperty`` and the traits marked with it), and
the structure holding an operation's properties (``@nestedProperties``).
"""

from __future__ import annotations

from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import (
    NESTED_PROPERTIES,
    NOT_PROPERTY,
    PROPERTY,
    REQUIRED,
    RESOURCE_IDENTIFIER,
    TRAIT,
)

#: Prelude traits marked ``@notProperty`` (used when the model lacks trait definitions).
BUILTIN_NOT_PROPERTY_TRAITS = frozenset({
    "smithy.api#idempotencyToken", "smithy.api#resourceIdentifier",
    "smithy.api#notProperty", "smithy.api#nestedProperties",
})


def struct_members(model: Model, shape_id: str | None) -> list[Member]:
    """Members of a structure (empty for ``None``, ``smithy.api#Unit`` or a missing shape)."""
    shape = model.get(shape_id) if shape_id else None
    return list(shape.members.values()) if shape else []


def all_operations(resource: Shape) -> list[str]:
    """Every operation bound to a resource: lifecycle, ``operations``, ``collectionOperations``."""
    ops = list(resource.lifecycle().values()) + list(resource.operations) + list(resource.collection_operations)
    out: list[str] = []
    for op in ops:
        if op not in out:
            out.append(op)
    return out


def compute_bindings(resource: Shape, members: list[Member]) -> dict[str, str]:
    """Identifier name → member name bound in a structure (reference ``IdentifierBindingIndex``).

    A member binds an identifier explicitly with ``@resourceIdentifier``, or implicitly
    when it is ``@required``, has the identifier's name and targets the identifier's shape.
    """
    bindings: dict[str, str] = {}
    for m in members:
        explicit = m.traits.get(RESOURCE_IDENTIFIER)
        if isinstance(explicit, str):
            bindings[explicit] = m.name
        elif (m.name in resource.identifiers and REQUIRED in m.traits
              and m.target == resource.identifiers[m.name]):
            bindings[m.name] = m.name
    return bindings


class BindingIndex:
    """Operation identifier bindings and member property requirements for a whole model.

    Reference ``IdentifierBindingIndex`` + ``PropertyBindingIndex``. Build once per model.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self._input: dict[tuple[str, str], dict[str, str]] = {}
        self._output: dict[tuple[str, str], dict[str, str]] = {}
        self._not_required: dict[str, bool] = {}
        self._property_names: dict[str, str] = {}
        self.not_property_traits = self._not_property_traits()
        for resource in model.of_type("resource"):
            for op_id in all_operations(resource):
                op = model.get(op_id)
                if op is None or op.type != "operation":
                    continue
                self._input[(resource.id, op_id)] = compute_bindings(resource, struct_members(model, op.input))
                self._output[(resource.id, op_id)] = compute_bindings(resource, struct_members(model, op.output))
        for resource in model.of_type("resource"):
            prop_names = set(resource.properties)
            for op_id in all_operations(resource):
                op = model.get(op_id)
                if op is None or op.type != "operation":
                    continue
                for direction in ("input", "output"):
                    top = getattr(op, direction)
                    props_shape = self.properties_shape(op, direction)
                    bound = set((self._input if direction == "input" else self._output)
                                [(resource.id, op_id)].values())
                    for m in struct_members(model, props_shape):
                        self._not_required[m.id] = m.name in bound or self._has_not_property_trait(m)
                        if self.requires_property(m) or m.name in prop_names:
                            name = m.traits.get(PROPERTY, {}).get("name") if isinstance(
                                m.traits.get(PROPERTY), dict) else None
                            self._property_names[m.id] = name or m.name
                    if props_shape != top:
                        for m in struct_members(model, top):
                            self._not_required[m.id] = True

    def _not_property_traits(self) -> set[str]:
        found = {s.id for s in self.model.shapes.values() if TRAIT in s.traits and NOT_PROPERTY in s.traits}
        return found | set(BUILTIN_NOT_PROPERTY_TRAITS)

    def _has_not_property_trait(self, member: Member) -> bool:
        return any(t in member.traits for t in self.not_property_traits)

    def input_bindings(self, resource_id: str, operation_id: str) -> dict[str, str]:
        """Identifier name → input member name for an operation bound to a resource."""
        return self._input.get((resource_id, operation_id), {})

    def output_bindings(self, resource_id: str, operation_id: str) -> dict[str, str]:
        """Identifier name → output member name for an operation bound to a resource."""
        return self._output.get((resource_id, operation_id), {})

    def requires_property(self, member: Member) -> bool:
        """False for members that need not map to a property (identifier bindings,
        ``@notProperty``-marked traits, members around ``@nestedProperties``)."""
        return not self._not_required.get(member.id, False)

    def property_name(self, member_id: str) -> str | None:
        """The resource property a member maps to, if any."""
        return self._property_names.get(member_id)

    def properties_shape(self, operation: Shape, direction: str) -> str | None:
        """The structure holding an operation's top-level properties (``input``/``output``):
        the target of a ``@nestedProperties`` member that is a structure, else the
        input/output itself."""
        top = getattr(operation, direction)
        for m in struct_members(self.model, top):
            if NESTED_PROPERTIES in m.traits:
                target = self.model.get(m.target)
                if target is not None and target.type == "structure":
                    return target.id
        return top
