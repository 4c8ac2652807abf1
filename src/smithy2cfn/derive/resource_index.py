"""Resource properties and their mutability, with the reason for each (aws-cloudformation.rst
"Resource properties", "Property mutability"; reference ``CfnResourceIndex``, ``CfnResource``,
``CfnResourceProperty``).

For every ``@cfnResource`` resource the index reads the resource's identifiers, then the
``read`` output, the ``put`` input, the ``create`` input, the ``update`` input and the
``additionalSchemas`` structures, in that order, merging members by name into properties
and accumulating a :class:`Mutability` per property — exactly as the reference does. Each
contribution is kept as a :class:`MutabilitySource` (which operation, member or trait, and
where), so that every later stage can say *why* a property is createOnly, readOnly or
writeOnly.

The index is knowledge of the model (``model.knowledge(CfnResourceIndex)``): the cfn
validators, the conversion plan and the lint rules read the same derivation.
"""

from __future__ import annotations

import enum

from smithy2cfn.diagnostics import Span
from smithy2cfn.model.knowledge import BottomUpIndex, IdentifierBindingIndex, PropertyBindingIndex
from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import (
    CFN_ADDITIONAL_IDENTIFIER,
    CFN_EXCLUDE_PROPERTY,
    CFN_MUTABILITY,
    CFN_RESOURCE,
)
from smithy2cfn.records import Record


class Mutability(enum.Flag):
    """What a property can do: be set on CREATE, be READ back, be set on WRITE (update).

    Reference ``CfnResourceIndex.Mutability`` (a set there, a ``Flag`` here).
    """

    NONE = 0
    CREATE = enum.auto()
    READ = enum.auto()
    WRITE = enum.auto()

    def words(self) -> str:
        """``"create, read"``...: the flags in plain words (``"none"`` when empty)."""
        names = [f.name.lower() for f in (Mutability.CREATE, Mutability.READ, Mutability.WRITE) if f in self]
        return ", ".join(names) or "none"


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


class SourceKind(enum.Enum):
    """Where a property's mutability comes from (the steps of the reference's derivation)."""

    IDENTIFIER = "identifier"                    # a resource identifier: read-only
    PUT_IDENTIFIER = "identifier with put"       # an identifier of a resource with put: create + read
    PARENT_IDENTIFIER = "parent identifier"      # an identifier inherited from a parent: create + read
    READ_OUTPUT = "read output"                  # a member of the read output: read
    PUT_INPUT = "put input"                      # a member of the put input: create + write
    CREATE_INPUT = "create input"                # a member of the create input: create
    UPDATE_INPUT = "update input"                # a member of the update input: write
    ADDITIONAL_SCHEMA = "additional schema"      # a member of a cfnResource additionalSchemas structure
    CFN_MUTABILITY = "cfnMutability"             # the trait on the member or its target: fixes it
    ADDITIONAL_IDENTIFIER = "cfnAdditionalIdentifier"  # an additional identifier: read-only
    TAG_OPERATIONS = "tag operations"            # registry-ready: tags change through tag/untag


class MutabilitySource(Record, frozen=True):
    """One contribution to a property's mutability.

    Attributes:
        kind: the derivation step (:class:`SourceKind`).
        mutability: what it gives: flags added, or the whole value when ``fixes``.
        fixes: ``True`` when it sets the mutability once and for all (identifiers,
            ``cfnMutability``, ``cfnAdditionalIdentifier``): later members add nothing.
        shape_id: the member (or the resource, for identifiers) that contributes.
        operation: the lifecycle operation whose input/output holds the member, if any.
        trait: the trait that decides it (``aws.cloudformation#cfnMutability``...), if any.
        parent: for an inherited identifier, the parent resource.
        span: where the member, identifier or trait is written.
    """

    kind: SourceKind
    mutability: Mutability
    shape_id: str
    fixes: bool
    operation: str | None
    trait: str | None
    parent: str | None
    span: Span | None

    def __init__(self, kind: SourceKind, mutability: Mutability, shape_id: str, fixes: bool = False,
                 operation: str | None = None, trait: str | None = None, parent: str | None = None,
                 span: Span | None = None) -> None:
        self.__dict__.update(kind=kind, mutability=mutability, shape_id=shape_id, fixes=fixes,
                             operation=operation, trait=trait, parent=parent, span=span)

    def describe(self) -> str:
        """A plain sentence: what this source is and what it gives."""
        gives = f"makes it {self.mutability.words()}" if self.fixes else f"adds {self.mutability.words()}"
        where = f" at {self.span}" if self.span and self.span.line else ""
        kind = self.kind
        if kind is SourceKind.IDENTIFIER:
            what = f"it is an identifier of {self.shape_id}"
        elif kind is SourceKind.PUT_IDENTIFIER:
            what = f"it is an identifier of {self.shape_id}, which has a put lifecycle operation"
        elif kind is SourceKind.PARENT_IDENTIFIER:
            what = f"it is an identifier that {self.shape_id} inherits from its parent {self.parent}"
        elif kind is SourceKind.CFN_MUTABILITY:
            what = f"{self.shape_id} has @{self.trait}"
        elif kind is SourceKind.ADDITIONAL_IDENTIFIER:
            what = f"{self.shape_id} is marked @{self.trait}"
        elif kind is SourceKind.TAG_OPERATIONS:
            what = (f"it is the tag property of {self.shape_id}, whose tags CloudFormation changes "
                    f"through {self.operation} (registry-ready mode)")
        elif kind is SourceKind.ADDITIONAL_SCHEMA:
            what = f"{self.shape_id} is in a cfnResource additionalSchemas structure"
        else:
            what = f"{self.shape_id} is in the {kind.value} of {self.operation}"
        return f"{what}{where}, which {gives}"


class CfnResourceProperty(Record):
    """One derived property: the shapes it comes from, its mutability, whether that is fixed,
    and every source of it in derivation order.

    ``shape_ids`` are absolute member IDs (or, for identifiers, the identifier's target);
    the property's schema is taken from the smallest (reference ``getShapeId``).
    """

    __slots__ = ("shape_ids", "mutability", "explicit", "sources")
    shape_ids: set[str]
    mutability: Mutability
    explicit: bool
    sources: list[MutabilitySource]

    def __init__(self, shape_ids: set[str] | None = None, mutability: Mutability = Mutability.NONE,
                 explicit: bool = False, sources: list[MutabilitySource] | None = None) -> None:
        self.shape_ids = set() if shape_ids is None else shape_ids
        self.mutability = mutability
        self.explicit = explicit
        self.sources = [] if sources is None else sources

    @property
    def shape_id(self) -> str:
        """The shape ID that represents the property (the first in sorted order)."""
        return min(self.shape_ids)


class CfnResource(Record):
    """The derived CloudFormation view of a resource (reference ``CfnResource``).

    Attributes:
        resource_id: the resource shape ID.
        properties: property name (member name) → property, exclusions applied.
        excluded: member IDs excluded by ``cfnExcludeProperty`` or not being properties.
        primary_identifiers: the resource's identifier names (or the deprecated
            ``cfnResource`` ``primaryIdentifier``).
        additional_identifiers: lists of property names, one per ``cfnAdditionalIdentifier``
            (and the resource identifiers when ``primaryIdentifier`` replaces them).
    """

    __slots__ = ("resource_id", "properties", "excluded", "primary_identifiers", "additional_identifiers")
    resource_id: str
    properties: dict[str, CfnResourceProperty]
    excluded: set[str]
    primary_identifiers: list[str]
    additional_identifiers: list[list[str]]

    def __init__(self, resource_id: str, properties: dict[str, CfnResourceProperty] | None = None,
                 excluded: set[str] | None = None, primary_identifiers: list[str] | None = None,
                 additional_identifiers: list[list[str]] | None = None) -> None:
        self.resource_id = resource_id
        self.properties = {} if properties is None else properties
        self.excluded = set() if excluded is None else excluded
        self.primary_identifiers = [] if primary_identifiers is None else primary_identifiers
        self.additional_identifiers = [] if additional_identifiers is None else additional_identifiers

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


def explicit_mutability(model: Model, member: Member) -> tuple[Mutability, str, Span | None] | None:
    """The ``cfnMutability`` of a member, else of its target: ``(mutability, shape that has
    the trait, where the trait is)``, or ``None``."""
    value, owner, span = member.traits.get(CFN_MUTABILITY), member.id, member.trait_spans.get(CFN_MUTABILITY)
    if value is None:
        target = model.get(member.target)
        if target is not None:
            value, owner, span = target.traits.get(CFN_MUTABILITY), target.id, target.trait_spans.get(CFN_MUTABILITY)
    found = EXPLICIT_MUTABILITY.get(value) if isinstance(value, str) else None
    return (found, owner, span) if found is not None else None


def _members(model: Model, shape_id: str | None) -> list[Member]:
    shape = model.get(shape_id) if shape_id else None
    return list(shape.members.values()) if shape is not None else []


class _Builder:
    """The reference's ``CfnResourceIndex`` steps for one resource."""

    def __init__(self, model: Model, resource: Shape) -> None:
        self.model = model
        self.resource = resource
        self.ids = model.knowledge(IdentifierBindingIndex)
        self.props_index = model.knowledge(PropertyBindingIndex)
        self.props: dict[str, CfnResourceProperty] = {}
        self.excluded: set[str] = set()
        self.additional: list[list[str]] = []

    def excluded_members(self, shape_id: str | None) -> set[str]:
        """Reference ``ExcludedPropertiesVisitor``: excluded members, descending into the
        structure targets of kept members (cycles cut). An explicit stack: structures may
        nest thousands deep."""
        out: set[str] = set()
        seen: set[str] = set()
        stack = [shape_id]
        while stack:
            sid = stack.pop()
            shape = self.model.get(sid) if sid else None
            if shape is None or shape.type != "structure" or shape.id in seen:
                continue
            seen.add(shape.id)
            for m in shape.members.values():
                if CFN_EXCLUDE_PROPERTY in m.traits or not self.props_index.requires_property(m):
                    out.add(m.id)
                else:
                    stack.append(m.target)
        return out

    def add_additional_identifiers(self, shape_id: str | None) -> None:
        for m in _members(self.model, shape_id):
            if CFN_ADDITIONAL_IDENTIFIER in m.traits:
                source = MutabilitySource(SourceKind.ADDITIONAL_IDENTIFIER, Mutability.READ, m.id, fixes=False,
                                          trait=CFN_ADDITIONAL_IDENTIFIER,
                                          span=m.trait_spans.get(CFN_ADDITIONAL_IDENTIFIER, m.span))
                self.props[m.name] = CfnResourceProperty({m.id}, Mutability.READ, False, [source])
                self.additional.append([m.name])

    def update(self, container: str | None, operation_id: str | None, kind: SourceKind,
               default: Mutability, add: Mutability) -> None:
        self.excluded |= self.excluded_members(container)
        bound = set(self.ids.input_bindings(self.resource.id, operation_id).values()) if operation_id else set()
        for m in _members(self.model, container):
            if m.name in bound:
                continue
            explicit = explicit_mutability(self.model, m)
            existing = self.props.get(m.name)
            member_source = MutabilitySource(kind, default if existing is None else add, m.id,
                                             operation=operation_id, span=m.span)
            if explicit is not None:
                value, owner, span = explicit
                trait_source = MutabilitySource(SourceKind.CFN_MUTABILITY, value, owner, fixes=True,
                                                operation=operation_id, trait=CFN_MUTABILITY, span=span)
            if existing is None:
                if explicit is not None:
                    self.props[m.name] = CfnResourceProperty({m.id}, explicit[0], True, [trait_source])
                else:
                    self.props[m.name] = CfnResourceProperty({m.id}, default, False, [member_source])
            elif not existing.explicit:
                existing.shape_ids.add(m.id)
                if explicit is not None:
                    existing.mutability, existing.explicit = explicit[0], True
                    existing.sources.append(trait_source)
                else:
                    existing.mutability |= add
                    existing.sources.append(member_source)


class _ServiceIds:
    """The model's service shape IDs, sorted (knowledge: listed once, not once per resource,
    which made deriving every resource quadratic in the model, issue 10)."""

    def __init__(self, model: Model) -> None:
        self.ids = [s.id for s in model.of_type("service")]


def _parents(model: Model, resource_id: str) -> list[Shape]:
    """The resources that bind ``resource_id`` within some service (reference
    ``BottomUpIndex.getResourceBinding`` over every service), sorted by ID."""
    bottom = model.knowledge(BottomUpIndex)
    found = {bottom.resource_binding(service, resource_id) for service in model.knowledge(_ServiceIds).ids}
    return [model.shapes[p] for p in sorted(p for p in found if p is not None and p in model.shapes)]


def derive_cfn_resource(model: Model, resource: Shape) -> CfnResource:
    """Derive one resource's properties, mutabilities and their sources.

    Args:
        model: the model.
        resource: a resource shape (normally with ``aws.cloudformation#cfnResource``).

    Returns:
        The :class:`CfnResource`. Follows reference ``CfnResourceIndex``: identifiers are
        READ (CREATE|READ when the resource has ``put`` or the identifier is inherited from
        a parent resource) and fixed; the read output adds READ, the put input CREATE|WRITE,
        the create input CREATE, the update input WRITE; ``additionalSchemas`` members add
        nothing unless they carry ``cfnMutability``; a ``cfnMutability`` trait overrides and
        fixes. The deprecated ``cfnResource`` ``primaryIdentifier`` becomes the primary
        identifier and the resource identifiers an additional one.
    """
    b = _Builder(model, resource)
    inherited: dict[str, str] = {}
    for parent in _parents(model, resource.id):
        for name in parent.identifiers:
            inherited.setdefault(name, parent.id)
    for name, target in resource.identifiers.items():
        if name in inherited:
            source = MutabilitySource(SourceKind.PARENT_IDENTIFIER, Mutability.CREATE | Mutability.READ,
                                      resource.id, fixes=True, parent=inherited[name], span=resource.span)
        elif resource.put:
            source = MutabilitySource(SourceKind.PUT_IDENTIFIER, Mutability.CREATE | Mutability.READ,
                                      resource.id, fixes=True, operation=resource.put, span=resource.span)
        else:
            source = MutabilitySource(SourceKind.IDENTIFIER, Mutability.READ, resource.id, fixes=True,
                                      span=resource.span)
        b.props[name] = CfnResourceProperty({target}, source.mutability, True, [source])

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

    props = b.props_index
    read = op(resource.read)
    if read is not None:
        b.add_additional_identifiers(read.input)
        b.update(props.properties_shape(read, "output"), read.id, SourceKind.READ_OUTPUT,
                 Mutability.READ, Mutability.READ)
    put = op(resource.put)
    if put is not None:
        both = Mutability.CREATE | Mutability.WRITE
        b.update(props.properties_shape(put, "input"), put.id, SourceKind.PUT_INPUT, both, both)
    create = op(resource.create)
    if create is not None:
        b.update(props.properties_shape(create, "input"), create.id, SourceKind.CREATE_INPUT,
                 Mutability.CREATE, Mutability.CREATE)
    update = op(resource.update)
    if update is not None:
        b.update(props.properties_shape(update, "input"), update.id, SourceKind.UPDATE_INPUT,
                 Mutability.WRITE, Mutability.WRITE)
    schemas = trait.get("additionalSchemas")
    for schema_id in schemas if isinstance(schemas, list) else []:
        shape = model.get(schema_id) if isinstance(schema_id, str) else None
        if shape is not None and shape.type == "structure":
            b.add_additional_identifiers(shape.id)
            b.update(shape.id, None, SourceKind.ADDITIONAL_SCHEMA, Mutability.NONE, Mutability.NONE)

    available: dict[str, CfnResourceProperty] = {}
    for name, prop in b.props.items():
        ids = prop.shape_ids - b.excluded
        if ids:
            available[name] = CfnResourceProperty(ids, prop.mutability, prop.explicit, prop.sources)
    return CfnResource(resource.id, available, b.excluded, primary, b.additional)


class CfnResourceIndex:
    """Every ``@cfnResource`` resource of a model, derived (reference ``CfnResourceIndex``).

    Get it with ``model.knowledge(CfnResourceIndex)``; look up with :meth:`get`.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self._resources: dict[str, CfnResource] = {}
        for shape in model.shapes_with_trait(CFN_RESOURCE):
            if shape.type == "resource":
                self._resources[shape.id] = derive_cfn_resource(model, shape)

    def get(self, resource_id: str) -> CfnResource | None:
        """The derived resource, or ``None`` when it is not a ``@cfnResource`` resource."""
        return self._resources.get(resource_id)


__all__ = [
    "EXPLICIT_MUTABILITY", "FULL", "CfnResource", "CfnResourceIndex", "CfnResourceProperty", "Mutability",
    "MutabilitySource", "SourceKind", "derive_cfn_resource", "explicit_mutability", "is_create_only",
    "is_read_only", "is_write_only",
]
