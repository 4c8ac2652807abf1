"""Knowledge indexes: facts about a model computed once and shared by every stage.

Each index is built by ``model.knowledge(IndexClass)`` and cached on the model (the
reference's ``KnowledgeIndex`` / ``Model.getKnowledge``), so the validators, the derivation
and the emitter read one copy of each fact:

* :class:`TopDownIndex` — the resources and operations a service or resource contains;
* :class:`BottomUpIndex` — the parents of a resource or operation within a service;
* :class:`IdentifierBindingIndex` — which members bind which resource identifiers;
* :class:`PropertyBindingIndex` — which members map to resource properties;
* :class:`MemberTraitIndex` — the members that carry each trait;
* :class:`MemberIds` — the IDs of every member.

Spec: service-types.rst §"Service", §"Resource", §"Binding identifiers to operations",
§"Resource properties". All indexes tolerate broken models (missing shapes are skipped).
"""

from __future__ import annotations

from smithy2cfn.model.relationships import (
    NeighborIndex,
    Relationship,
    RelationshipType,
    Walker,
    operations_of,
)
from smithy2cfn.model.shapes import Member, Model, Shape, ShapeLists
from smithy2cfn.model.traits import (
    IDEMPOTENCY_TOKEN,
    NESTED_PROPERTIES,
    NOT_PROPERTY,
    PROPERTY,
    REQUIRED,
    RESOURCE_IDENTIFIER,
    TRAIT,
)


class MemberTraitIndex:
    """The members of the model by trait: trait ID → ``(shape, member)`` in model order,
    listed in one walk over every member (see :class:`~smithy2cfn.model.shapes.ShapeLists`,
    its counterpart for top-level shapes). Shared by the validators and the selector engine."""

    def __init__(self, model: Model) -> None:
        by_trait: dict[str, list[tuple[Shape, Member]]] = {}
        for shape in model.shapes.values():
            for member in shape.members.values():
                for trait_id in member.traits:
                    by_trait.setdefault(trait_id, []).append((shape, member))
        #: trait ID → ``(shape, member)`` for each member carrying it, in model order
        self.by_trait = by_trait


class MemberIds:
    """The IDs of every member of the model (:attr:`ids`, a frozenset), made in one walk:
    what the selector type ``member`` matches."""

    def __init__(self, model: Model) -> None:
        self.ids = frozenset([member.id for shape in model.shapes.values() for member in shape.members.values()])


def _binding(rel: Relationship) -> bool:
    return rel.type is RelationshipType.RESOURCE or rel.type.is_operation_binding


class TopDownIndex:
    """Resources and operations contained in a service or resource, directly or through
    child resources (reference ``TopDownIndex``). Computed per container on first request.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self._contained: dict[str, tuple[list[str], list[str]]] = {}

    def _compute(self, container: str) -> tuple[list[str], list[str]]:
        found = self._contained.get(container)
        if found is None:
            resources: list[str] = []
            operations: list[str] = []
            for sid in Walker(self.model).iterate(container, _binding):
                shape = self.model.shapes.get(sid)
                if sid == container or shape is None:
                    continue
                if shape.type == "resource":
                    resources.append(sid)
                elif shape.type == "operation":
                    operations.append(sid)
            found = (sorted(resources), sorted(operations))
            self._contained[container] = found
        return found

    def contained_resources(self, container: str) -> list[str]:
        """IDs of the resources in the closure of a service or resource, sorted."""
        return self._compute(container)[0]

    def contained_operations(self, container: str) -> list[str]:
        """IDs of the operations in the closure of a service or resource, sorted."""
        return self._compute(container)[1]


class BottomUpIndex:
    """The parents of each resource and operation within each service (reference
    ``BottomUpIndex``): the direct parent first, the service last.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        index = model.knowledge(NeighborIndex)
        self._parents: dict[str, dict[str, tuple[str, ...]]] = {}
        for service in sorted(s.id for s in model.shapes.values() if s.type == "service"):
            paths: dict[str, tuple[str, ...]] = {}
            # Depth-first in relationship order, as the reference recurses, but without
            # recursion and walking each resource's bindings once (a resource bound twice
            # keeps its first path; containment cycles end).
            walked: set[str] = {service}
            stack = [(service, (service,), iter(index.neighbors(service)))]
            while stack:
                _current, path, rels = stack[-1]
                for rel in rels:
                    if not rel.is_valid or not _binding(rel):
                        continue
                    neighbor = self.model.shapes.get(rel.neighbor)
                    if neighbor is None or neighbor.type not in ("resource", "operation"):
                        continue
                    paths.setdefault(neighbor.id, path)
                    if neighbor.type == "resource" and neighbor.id not in walked:
                        walked.add(neighbor.id)
                        stack.append((neighbor.id, (neighbor.id, *path), iter(index.neighbors(neighbor.id))))
                        break
                else:
                    stack.pop()
            self._parents[service] = paths

    def all_parents(self, service: str, shape_id: str) -> tuple[str, ...]:
        """The parent resources of a resource or operation, then the service; ``()`` when
        it is not in the service."""
        return self._parents.get(service, {}).get(shape_id, ())

    def resource_binding(self, service: str, shape_id: str) -> str | None:
        """The resource that binds ``shape_id`` within ``service``, or ``None`` when the
        service binds it directly (or not at all)."""
        parents = self.all_parents(service, shape_id)
        if parents and parents[0] != service:
            return parents[0]
        return None


class IdentifierBindingIndex:
    """Identifier name → member name, for each operation bound to each resource, for its
    input and its output (reference ``IdentifierBindingIndex``).

    A member binds an identifier explicitly with ``@resourceIdentifier("name")`` — which
    wins — or implicitly when it is ``@required``, is named like the identifier and targets
    the identifier's shape (service-types.rst §"Binding identifiers to operations").
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self._input: dict[tuple[str, str], dict[str, str]] = {}
        self._output: dict[tuple[str, str], dict[str, str]] = {}
        self._collection: set[tuple[str, str]] = set()
        index = model.knowledge(NeighborIndex)
        for resource in model.shapes.values():
            if resource.type != "resource":
                continue
            collection = {rel.neighbor for rel in index.neighbors(resource.id)
                          if rel.type.is_collection_operation_binding}
            for op_id in operations_of(resource):
                op = model.shapes.get(op_id)
                if op is None or op.type != "operation":
                    continue
                key = (resource.id, op_id)
                self._input[key] = self.compute(resource, _members(model, op.input))
                self._output[key] = self.compute(resource, _members(model, op.output))
                if op_id in collection:
                    self._collection.add(key)

    @staticmethod
    def compute(resource: Shape, members: list[Member]) -> dict[str, str]:
        """The bindings a structure's members make for ``resource``: explicit bindings
        (``put``) override implicit ones (``putIfAbsent``), in member order."""
        bindings: dict[str, str] = {}
        for m in members:
            explicit = m.traits.get(RESOURCE_IDENTIFIER)
            if RESOURCE_IDENTIFIER in m.traits:
                if isinstance(explicit, str):
                    bindings[explicit] = m.name
            elif (m.name in resource.identifiers and REQUIRED in m.traits
                  and m.target == resource.identifiers[m.name]):
                bindings.setdefault(m.name, m.name)
        return bindings

    def input_bindings(self, resource_id: str, operation_id: str) -> dict[str, str]:
        """Identifier name → input member name (empty when the operation is not bound)."""
        return self._input.get((resource_id, operation_id), {})

    def output_bindings(self, resource_id: str, operation_id: str) -> dict[str, str]:
        """Identifier name → output member name (empty when the operation is not bound)."""
        return self._output.get((resource_id, operation_id), {})

    def binding_type(self, resource_id: str, operation_id: str) -> str:
        """``"collection"`` (create, list, collectionOperations), ``"instance"`` (any other
        operation bound to the resource) or ``"none"``."""
        key = (resource_id, operation_id)
        if key in self._collection:
            return "collection"
        return "instance" if key in self._input else "none"


#: Prelude traits marked ``@notProperty``; kept for models loaded without the prelude.
BUILTIN_NOT_PROPERTY_TRAITS = frozenset({
    IDEMPOTENCY_TOKEN, RESOURCE_IDENTIFIER,
    NOT_PROPERTY, NESTED_PROPERTIES,
})


class PropertyBindingIndex:
    """Which input/output members map to resource properties (reference
    ``PropertyBindingIndex``).

    For every operation bound to a resource, the members of its properties structure (the
    input/output, or the target of a ``@nestedProperties`` member) map to a property unless
    they bind an identifier or carry a trait marked ``@notProperty``; when properties are
    nested, the top-level members are not properties.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        ids = model.knowledge(IdentifierBindingIndex)
        self.not_property_traits = frozenset(
            {s.id for s in model.shapes_with_trait(NOT_PROPERTY) if TRAIT in s.traits} | BUILTIN_NOT_PROPERTY_TRAITS)
        self._not_required: dict[str, bool] = {}
        self._names: dict[str, str] = {}
        # (the resources in model order, as a later one's answer for a member replaces an earlier one's)
        for resource in model.knowledge(ShapeLists).by_type.get("resource", ()):
            prop_names = set(resource.properties)
            for op_id in operations_of(resource):
                op = model.shapes.get(op_id)
                if op is None or op.type != "operation":
                    continue
                for direction, bound in (("input", ids.input_bindings(resource.id, op_id)),
                                         ("output", ids.output_bindings(resource.id, op_id))):
                    top = getattr(op, direction)
                    props_shape = self.properties_shape(op, direction)
                    bound_members = set(bound.values())
                    for m in _members(model, props_shape):
                        self._not_required[m.id] = m.name in bound_members or self.has_not_property_trait(m)
                        if self.requires_property(m) or m.name in prop_names:
                            self._names[m.id] = _property_trait_name(m) or m.name
                    if props_shape != top:
                        for m in _members(model, top):
                            self._not_required[m.id] = True

    def has_not_property_trait(self, member: Member) -> bool:
        """True when the member carries a trait whose definition is marked ``@notProperty``."""
        return any(t in member.traits for t in self.not_property_traits)

    def requires_property(self, member: Member) -> bool:
        """False for members that need not map to a property (identifier bindings,
        ``@notProperty``-marked traits, top-level members around ``@nestedProperties``)."""
        return not self._not_required.get(member.id, False)

    def property_name(self, member_id: str) -> str | None:
        """The resource property a member maps to (``@property(name)`` or its name), if any."""
        return self._names.get(member_id)

    def properties_shape(self, operation: Shape, direction: str) -> str | None:
        """The structure holding an operation's top-level properties (``direction`` is
        ``"input"`` or ``"output"``): the target of its ``@nestedProperties`` member when
        that is a structure, else the input/output itself."""
        top = getattr(operation, direction)
        for m in _members(self.model, top):
            if NESTED_PROPERTIES in m.traits:
                target = self.model.shapes.get(m.target)
                if target is not None and target.type == "structure":
                    return target.id
        return top


def _members(model: Model, shape_id: str | None) -> list[Member]:
    shape = model.shapes.get(shape_id) if shape_id else None
    return list(shape.members.values()) if shape is not None else []


def _property_trait_name(member: Member) -> str | None:
    value = member.traits.get(PROPERTY)
    name = value.get("name") if isinstance(value, dict) else None
    return name if isinstance(name, str) else None


__all__ = [
    "BUILTIN_NOT_PROPERTY_TRAITS", "BottomUpIndex", "IdentifierBindingIndex", "MemberIds", "MemberTraitIndex",
    "PropertyBindingIndex", "TopDownIndex",
]
