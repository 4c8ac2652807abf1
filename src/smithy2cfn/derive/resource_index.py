"""Resource properties and their mutability (aws-cloudformation.rst "Resource properties",
"Property mutability"; reference ``CfnResourceIndex``, ``CfnResource``, ``CfnResourceProperty``).

For every ``@cfnResource`` resource the index walks the service graph: identifiers first,
then the ``read`` output, ``put`` input, ``create`` input, ``update`` input and the
``additionalSchemas`` structures, in that order, merging members by name into properties
and accumulating a :class:`Mutability` flag set per property.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import networkx as nx

from smithy2cfn.derive.bindings import BindingIndex, struct_members
from smithy2cfn.derive.graph import build_graph, parent_resources
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import (
    CFN_ADDITIONAL_IDENTIFIER,
    CFN_EXCLUDE_PROPERTY,
    CFN_MUTABILITY,
    CFN_RESOURCE,
)


class Mutability(enum.Flag):
    """What a property can do: be set on CREATE, be READ back, be set on WRITE (update).

    Reference ``CfnResourceIndex.Mutability`` (a set there, a ``Flag`` here).
    """

    NONE = 0
    CREATE = enum.auto()
    READ = enum.auto()
    WRITE = enum.auto()


FULL = Mutability.CREATE | Mutability.READ | Mutability.WRITE
#: ``cfnMutability`` trait value → mutability (aws-cloudformation.rst "cfnMutability trait").
EXPLICIT_MUTABILITY = {
    "full": FULL,
    "create-and-read": Mutability.CREATE | Mutability.READ,
    "create": Mutability.CREATE,
    "read": Mutability.READ,
    "write": Mutability.WRITE,
}


def is_create_only(m: Mutability) -> bool:
    """``createOnlyProperties``: CREATE without WRITE."""
    return bool(m & Mutability.CREATE) and not m & Mutability.WRITE


def is_read_only(m: Mutability) -> bool:
    """``readOnlyProperties``: READ alone."""
    return m == Mutability.READ


def is_write_only(m: Mutability) -> bool:
    """``writeOnlyProperties``: CREATE alone, or WRITE without READ."""
    return m == Mutability.CREATE or (bool(m & Mutability.WRITE) and not m & Mutability.READ)


@dataclass
class CfnResourceProperty:
    """One derived property: the shapes it comes from, its mutability, whether a trait (or
    being an identifier) fixed that mutability.

    ``shape_ids`` are absolute member IDs (or, for identifiers, the identifier's target);
    the property's schema is taken from the smallest (reference ``getShapeId``).
    """

    shape_ids: set[str] = field(default_factory=set)
    mutability: Mutability = Mutability.NONE
    explicit: bool = False

    @property
    def shape_id(self) -> str:
        """The shape ID that represents the property (the first in sorted order)."""
        return min(self.shape_ids)


@dataclass
class CfnResource:
    """The derived CloudFormation view of a resource (reference ``CfnResource``).

    Attributes:
        resource_id: the resource shape ID.
        properties: property name (member name) → property, exclusions applied.
        excluded: member IDs excluded by ``cfnExcludeProperty`` or not being properties.
        primary_identifiers: the resource's identifier names.
        additional_identifiers: lists of property names, one per ``cfnAdditionalIdentifier``.
    """

    resource_id: str
    properties: dict[str, CfnResourceProperty] = field(default_factory=dict)
    excluded: set[str] = field(default_factory=set)
    primary_identifiers: list[str] = field(default_factory=list)
    additional_identifiers: list[list[str]] = field(default_factory=list)

    def _names(self, pred) -> list[str]:
        return sorted(n for n, p in self.properties.items() if pred(p.mutability))

    def create_only(self) -> list[str]:
        """Names of create-only properties, sorted."""
        return self._names(is_create_only)

    def read_only(self) -> list[str]:
        """Names of read-only properties, sorted."""
        return self._names(is_read_only)

    def write_only(self) -> list[str]:
        """Names of write-only properties, sorted."""
        return self._names(is_write_only)


def explicit_mutability(model: Model, member: Member) -> Mutability | None:
    """The ``cfnMutability`` of a member (or of its target), or ``None``."""
    value = member.traits.get(CFN_MUTABILITY)
    if value is None:
        target = model.get(member.target)
        value = target.traits.get(CFN_MUTABILITY) if target else None
    return EXPLICIT_MUTABILITY.get(value) if isinstance(value, str) else None


class _Builder:
    def __init__(self, model: Model, bindings: BindingIndex, resource: Shape) -> None:
        self.model = model
        self.bindings = bindings
        self.resource = resource
        self.props: dict[str, CfnResourceProperty] = {}
        self.excluded: set[str] = set()
        self.additional: list[list[str]] = []

    def excluded_members(self, shape_id: str | None, seen: set[str]) -> set[str]:
        """Reference ``ExcludedPropertiesVisitor``: excluded members, descending into the
        structure targets of kept members (cycles cut; ``seen`` collects the structures
        visited). Walked with an explicit stack: structures may nest thousands deep."""
        out: set[str] = set()
        stack = [shape_id]
        while stack:
            sid = stack.pop()
            shape = self.model.get(sid) if sid else None
            if shape is None or shape.type != "structure" or shape.id in seen:
                continue
            seen.add(shape.id)
            for m in shape.members.values():
                if CFN_EXCLUDE_PROPERTY in m.traits or not self.bindings.requires_property(m):
                    out.add(m.id)
                else:
                    stack.append(m.target)
        return out

    def add_additional_identifiers(self, shape_id: str | None) -> None:
        for m in struct_members(self.model, shape_id):
            if CFN_ADDITIONAL_IDENTIFIER in m.traits:
                self.props[m.name] = CfnResourceProperty({m.id}, Mutability.READ, False)
                self.additional.append([m.name])

    def update(self, container: str | None, operation_id: str | None, default: Mutability,
               add: Mutability) -> None:
        self.excluded |= self.excluded_members(container, set())
        bound = set(self.bindings.input_bindings(self.resource.id, operation_id).values()) if operation_id else set()
        for m in struct_members(self.model, container):
            if m.name in bound:
                continue
            explicit = explicit_mutability(self.model, m)
            existing = self.props.get(m.name)
            if existing is None:
                self.props[m.name] = CfnResourceProperty(
                    {m.id}, explicit if explicit is not None else default, explicit is not None)
            elif not existing.explicit:
                existing.shape_ids.add(m.id)
                if explicit is not None:
                    existing.mutability, existing.explicit = explicit, True
                else:
                    existing.mutability |= add


def derive_cfn_resource(model: Model, resource: Shape, bindings: BindingIndex,
                        graph: nx.DiGraph) -> CfnResource:
    """Derive one resource's properties and mutabilities.

    Args:
        model: the model.
        resource: a resource shape (normally with ``aws.cloudformation#cfnResource``).
        bindings: the model's :class:`BindingIndex`.
        graph: the model's binding graph (:func:`smithy2cfn.derive.graph.build_graph`).

    Returns:
        The :class:`CfnResource`. Follows reference ``CfnResourceIndex``: identifiers are
        READ (CREATE|READ when the resource has ``put`` or the identifier is inherited from
        a parent resource) and fixed; read output adds READ, put input CREATE|WRITE, create
        input CREATE, update input WRITE; ``additionalSchemas`` members add nothing unless
        they carry ``cfnMutability``; a ``cfnMutability`` trait overrides and fixes. The
        deprecated ``cfnResource`` ``primaryIdentifier`` becomes the primary identifier and
        the resource identifiers an additional one.
    """
    b = _Builder(model, bindings, resource)
    parents = [model.get(p) for p in parent_resources(graph, model, resource.id)]
    inherited = {name for p in parents if p for name in p.identifiers}
    default_id = Mutability.CREATE | Mutability.READ if resource.put else Mutability.READ
    for name, target in resource.identifiers.items():
        mut = Mutability.CREATE | Mutability.READ if name in inherited else default_id
        b.props[name] = CfnResourceProperty({target}, mut, True)

    def op(op_id: str | None) -> Shape | None:
        shape = model.get(op_id) if op_id else None
        return shape if shape is not None and shape.type == "operation" else None

    trait = resource.traits.get(CFN_RESOURCE)
    trait = trait if isinstance(trait, dict) else {}
    primary = list(resource.identifiers)
    alternate = trait.get("primaryIdentifier")
    if isinstance(alternate, str) and alternate:
        # The deprecated cfnResource primaryIdentifier replaces the primary identifier;
        # the resource's own identifiers become an additional identifier.
        primary = [alternate]
        if resource.identifiers:
            b.additional.append(list(resource.identifiers))

    read = op(resource.read)
    if read is not None:
        b.add_additional_identifiers(read.input)
        b.update(bindings.properties_shape(read, "output"), read.id, Mutability.READ, Mutability.READ)
    put = op(resource.put)
    if put is not None:
        both = Mutability.CREATE | Mutability.WRITE
        b.update(bindings.properties_shape(put, "input"), put.id, both, both)
    create = op(resource.create)
    if create is not None:
        b.update(bindings.properties_shape(create, "input"), create.id, Mutability.CREATE, Mutability.CREATE)
    update = op(resource.update)
    if update is not None:
        b.update(bindings.properties_shape(update, "input"), update.id, Mutability.WRITE, Mutability.WRITE)
    schemas = trait.get("additionalSchemas")
    for schema_id in schemas if isinstance(schemas, list) else []:
        shape = model.get(schema_id) if isinstance(schema_id, str) else None
        if shape is not None and shape.type == "structure":
            b.add_additional_identifiers(shape.id)
            b.update(shape.id, None, Mutability.NONE, Mutability.NONE)

    available: dict[str, CfnResourceProperty] = {}
    for name, prop in b.props.items():
        ids = prop.shape_ids - b.excluded
        if ids:
            available[name] = CfnResourceProperty(ids, prop.mutability, prop.explicit)
    return CfnResource(resource.id, available, b.excluded, primary, b.additional)


class CfnResourceIndex:
    """Every ``@cfnResource`` resource of a model, derived (reference ``CfnResourceIndex``).

    Build with ``CfnResourceIndex(model)``; look up with :meth:`get`.
    """

    def __init__(self, model: Model, diags: Diagnostics | None = None) -> None:
        self.model = model
        self.graph = build_graph(model)
        self.bindings = BindingIndex(model)
        self._resources: dict[str, CfnResource] = {}
        for shape in model.shapes_with_trait(CFN_RESOURCE):
            if shape.type == "resource":
                self._resources[shape.id] = derive_cfn_resource(model, shape, self.bindings, self.graph)

    def get(self, resource_id: str) -> CfnResource | None:
        """The derived resource, or ``None`` when it is not a ``@cfnResource`` resource."""
        return self._resources.get(resource_id)
