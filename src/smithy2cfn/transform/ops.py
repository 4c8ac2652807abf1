"""Model operations the transforms are made of: the reference's ``ModelTransformer``
(smithy-model ``software.amazon.smithy.model.transform``) in this model's terms.

Every function here that changes a model works on a :class:`Draft`: a transform first takes
:func:`copy_model` of its input, a new model object that shares the input's shapes until it
changes one (:meth:`Draft.own` copies a shape before its first change), so that the input is
never changed and the knowledge indexes cached on it stay true, and a transform that changes
little copies little. Spans (where a shape, member or trait came from) are kept for whatever
survives, so that validating the projected model reports located events.

Our model differs from the reference's in one way that matters here: members are
*flattened* (a shape holds the members and traits its mixins give it, see
:mod:`smithy2cfn.model.shapes`), so the reference's re-computation of mixin members after a
change (``ReplaceShapes.updateMixins``) is done here by editing the inheriting shapes directly.

"Prelude" means the ``smithy.api`` namespace (reference ``Prelude.isPreludeShape``); the
trait packages smithy2cfn has built in (``aws.api``...) are ordinary shapes to a transform,
as they are to the reference, which loads them from jars.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from smithy2cfn.model.relationships import NeighborIndex, RelationshipType
from smithy2cfn.model.shapes import LIFECYCLE_OPERATIONS, Member, Model, Shape, ShapeId
from smithy2cfn.model.traits import (
    AUTH_DEFINITION,
    MIXIN,
    PRIVATE,
    PROTOCOL_DEFINITION,
    REFERENCES,
    TAGS,
    TRAIT,
)
from smithy2cfn.model.unreferenced import connected, idref_targets, traits_with_idrefs
from smithy2cfn.model.unreferenced import unreferenced_shapes as unreferenced
from smithy2cfn.prelude import PRELUDE_NAMESPACE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def is_prelude(shape_id: str) -> bool:
    """True for a shape or member of the ``smithy.api`` namespace (reference
    ``Prelude.isPreludeShape``)."""
    return ShapeId.namespace(shape_id) == PRELUDE_NAMESPACE


def tags_of(node: Shape | Member) -> list[str]:
    """The ``@tags`` values of a shape or member (reference ``Shape.getTags``); ``[]``
    when it has none or the value is not a list."""
    value = node.traits.get(TAGS)
    return [t for t in value if isinstance(t, str)] if isinstance(value, list) else []


def copy_member(member: Member, container: str | None = None) -> Member:
    """A copy of ``member`` whose dicts can be edited (trait values are shared: replace
    them, never change them in place); ``container`` moves it to another shape ID."""
    return Member(member.name, member.target, member.container if container is None else container,
                  dict(member.traits), dict(member.introduced_traits), member.from_mixin, member.span,
                  dict(member.trait_spans))


def copy_shape(shape: Shape, shape_id: str | None = None) -> Shape:
    """A copy of ``shape`` (and of its members) whose containers can be edited;
    ``shape_id`` gives it another ID (its members follow)."""
    sid = shape.id if shape_id is None else shape_id
    return Shape(
        id=sid, type=shape.type, traits=dict(shape.traits), introduced_traits=dict(shape.introduced_traits),
        members={n: copy_member(m, sid) for n, m in shape.members.items()}, mixins=list(shape.mixins),
        span=shape.span, trait_spans=dict(shape.trait_spans), input=shape.input, output=shape.output,
        errors=list(shape.errors), identifiers=dict(shape.identifiers), properties=dict(shape.properties),
        create=shape.create, put=shape.put, read=shape.read, update=shape.update, delete=shape.delete,
        list=shape.list, operations=list(shape.operations),
        collection_operations=list(shape.collection_operations), resources=list(shape.resources),
        version=shape.version, rename=dict(shape.rename))


class Draft(Model):
    """A model being transformed: its own dicts of shapes and metadata, holding the input's
    shape objects until :meth:`own` copies one to change it (copy on write).

    Only this module's functions and the transforms change a draft; the runner turns it into
    a plain :class:`~smithy2cfn.model.shapes.Model` (:meth:`finish`) when the transform returns.
    """

    def __init__(self, model: Model) -> None:
        super().__init__(shapes=dict(model.shapes), metadata=dict(model.metadata),
                         prelude_ids=set(model.prelude_ids), packages=model.packages,
                         versions=dict(model.versions), metadata_spans=dict(model.metadata_spans))
        self.owned: set[str] = set()

    def own(self, shape_id: str) -> Shape:
        """The shape ``shape_id`` (which must be in the draft), copied first if it is still
        the input's, so that it can be changed."""
        if shape_id not in self.owned:
            self.shapes[shape_id] = copy_shape(self.shapes[shape_id])
            self.owned.add(shape_id)
        return self.shapes[shape_id]

    def own_node(self, node: Shape | Member) -> Shape | Member:
        """:meth:`own` for a shape or a member (the member of the owned copy)."""
        if isinstance(node, Member):
            return self.own(node.container).members[node.name]
        return self.own(node.id)

    def changed(self) -> None:
        """Forget the knowledge indexes built so far (the shapes changed)."""
        self._knowledge.clear()

    def finish(self) -> Model:
        """The plain model the draft is now (it must not be changed afterwards)."""
        return Model(shapes=self.shapes, metadata=self.metadata, prelude_ids=self.prelude_ids,
                     packages=self.packages, versions=self.versions, metadata_spans=self.metadata_spans)


def copy_model(model: Model) -> Draft:
    """A :class:`Draft` of ``model``: the copy a transform edits (``model`` never changes)."""
    return Draft(model)


def nodes(model: Model) -> Iterable[Shape | Member]:
    """Every shape and member of the model, each shape followed by its members (the
    reference's ``Model.shapes()``, which holds members too)."""
    for shape in list(model.shapes.values()):
        yield shape
        yield from list(shape.members.values())


# --------------------------------------------------------------------------- removal

#: Containers whose members a filter may remove (reference ``FilterShapes.canFilterShape``;
#: a list's or map's members are part of its type).
_FILTERABLE_CONTAINERS = frozenset({"structure", "union", "enum", "intEnum"})


def _drop_traits(node: Shape | Member, trait_ids: set[str]) -> None:
    for tid in trait_ids & node.traits.keys():
        node.traits.pop(tid, None)
    for tid in trait_ids & node.introduced_traits.keys():
        node.introduced_traits.pop(tid, None)
    if trait_ids & node.trait_spans.keys():
        node.trait_spans = {t: s for t, s in node.trait_spans.items() if t not in trait_ids}


def remove_trait_applications(model: Draft, trait_ids: set[str]) -> None:
    """Remove every application of the traits ``trait_ids`` from every shape and member
    (reference ``plugins.RemoveTraits``)."""
    if not trait_ids:
        return
    for node in nodes(model):
        if trait_ids & node.traits.keys() or trait_ids & node.introduced_traits.keys():
            _drop_traits(model.own_node(node), trait_ids)


def _remove_mixin(model: Draft, shape: Shape, mixin: Shape) -> None:
    """``shape`` (owned) no longer uses ``mixin``: the members and traits it gave are gone, unless
    the shape redefines them (reference ``AbstractShapeBuilder.removeMixin`` then
    ``NamedMemberUtils.computeMixinMembers``)."""
    shape.mixins = [m for m in shape.mixins if m != mixin.id]
    others = [model.shapes[m] for m in shape.mixins if m in model.shapes]
    still_given = {n for o in others for n in o.members}
    for name in list(shape.members):
        member = shape.members[name]
        if name in mixin.members and member.from_mixin is not None and name not in still_given:
            if member.introduced_traits:  # defined again locally: it stays, with its own traits
                member.from_mixin = None
                member.traits = dict(member.introduced_traits)
                member.trait_spans = {t: s for t, s in member.trait_spans.items() if t in member.traits}
            else:
                del shape.members[name]
    given = {t for o in others for t in o.traits if t != MIXIN}
    for tid in list(shape.traits):
        if tid in mixin.traits and tid not in shape.introduced_traits and tid not in given:
            del shape.traits[tid]
            if tid in shape.trait_spans:
                shape.trait_spans = {t: s for t, s in shape.trait_spans.items() if t != tid}


def remove_shapes(model: Draft, ids: Iterable[str]) -> None:
    """Remove shapes and members, and everything that pointed at them (reference
    ``ModelTransformer.removeShapes`` with its plugins, in their order): members of removed
    shapes; service, resource and operation bindings to removed operations and resources
    (``CleanBindings``); an operation's input, output and errors (``CleanOperationStructures``);
    ``@references`` to removed resources (``CleanResourceReferences``); service renames
    (``CleanServiceRenames``); members of structures and unions that target a removed shape,
    in further rounds (``CleanStructureAndUnionMembers``); removed traits in
    ``@authDefinition``/``@protocolDefinition`` (``CleanTraitDefinitions``); removed mixins
    (``RemoveMixins``); applications of removed trait definitions (``RemoveTraits``).

    A member ID removes that member from its structure, union, enum or intEnum. Unknown
    IDs are ignored.
    """
    pending = set(ids)
    while pending:
        removed: dict[str, Shape | Member] = {}
        for rid in sorted(pending):
            if "$" in rid:
                container = model.shapes.get(ShapeId.root(rid))
                name = ShapeId.member(rid) or ""
                if container is not None and name in container.members:
                    removed[rid] = container.members[name]
                    if container.type in _FILTERABLE_CONTAINERS:
                        del model.own(container.id).members[name]
                continue
            shape = model.shapes.pop(rid, None)
            if shape is None:
                continue
            model.prelude_ids.discard(rid)
            removed[rid] = shape
            for member in shape.members.values():
                removed[member.id] = member
        pending = _after_removal(model, removed)
    model.changed()


def _after_removal(model: Draft, removed: dict[str, Shape | Member]) -> set[str]:
    """The plugins of :func:`remove_shapes` for one round; returns the members to remove next."""
    top = {sid: s for sid, s in removed.items() if isinstance(s, Shape)}
    ops = {sid for sid, s in top.items() if s.type == "operation"}
    resources = {sid for sid, s in top.items() if s.type == "resource"}
    mixins = [s for s in top.values() if MIXIN in s.traits]
    traits = {sid for sid, s in top.items() if TRAIT in s.traits}
    gone = set(removed)
    for sid, shape in list(model.shapes.items()):
        kind = shape.type
        if kind in ("service", "resource") and (ops or resources):  # CleanBindings
            bound = set(shape.operations) | set(shape.resources) | set(shape.collection_operations) \
                | {getattr(shape, n) for n in LIFECYCLE_OPERATIONS}
            if bound & (ops | resources):
                shape = model.own(sid)
                shape.operations = [o for o in shape.operations if o not in ops]
                shape.resources = [r for r in shape.resources if r not in resources]
                if kind == "resource":
                    shape.collection_operations = [o for o in shape.collection_operations if o not in ops]
                    for name in LIFECYCLE_OPERATIONS:
                        if getattr(shape, name) in ops:
                            setattr(shape, name, None)
        if kind == "operation" and (shape.input in gone or shape.output in gone or gone.intersection(shape.errors)):
            shape = model.own(sid)  # CleanOperationStructures
            if shape.input in gone:
                shape.input = None
            if shape.output in gone:
                shape.output = None
            shape.errors = [e for e in shape.errors if e not in gone]
        if kind == "service" and (gone.intersection(shape.errors) or gone & shape.rename.keys()):
            shape = model.own(sid)
            shape.errors = [e for e in shape.errors if e not in gone]  # a service's errors too
            shape.rename = {k: v for k, v in shape.rename.items() if k not in gone}  # CleanServiceRenames
        if kind == "structure":
            refs = shape.traits.get(REFERENCES)  # CleanResourceReferences
            if isinstance(refs, list) and any(isinstance(r, dict) and r.get("resource") in gone for r in refs):
                _set_trait(model.own(sid), REFERENCES,
                           [r for r in refs if not (isinstance(r, dict) and r.get("resource") in gone)])
            for def_trait in (AUTH_DEFINITION, PROTOCOL_DEFINITION):  # CleanTraitDefinitions
                value = shape.traits.get(def_trait)
                if isinstance(value, dict) and isinstance(value.get("traits"), list) \
                        and gone & {t for t in value["traits"] if isinstance(t, str)}:
                    _set_trait(model.own(sid), def_trait,
                               {**value, "traits": [t for t in value["traits"] if t not in gone]})
        if mixins and kind in ("structure", "union") and shape.mixins:  # RemoveMixins
            for mixin in mixins:
                if mixin.id in model.shapes[sid].mixins:
                    _remove_mixin(model, model.own(sid), mixin)
    remove_trait_applications(model, traits)  # RemoveTraits
    # CleanStructureAndUnionMembers: members that target a removed shape go next round
    return {m.id for s in model.shapes.values() if s.type in ("structure", "union")
            for m in s.members.values() if m.target in gone}


def _set_trait(node: Shape | Member, trait_id: str, value: Any) -> None:
    """Give ``node`` trait ``trait_id`` with ``value``, as a trait of its own."""
    node.traits[trait_id] = value
    node.introduced_traits[trait_id] = value


def filter_shapes(model: Draft, keep: Callable[[Shape | Member], bool]) -> None:
    """Remove the shapes, and the members of structures, unions and enums, for which
    ``keep`` is false; prelude shapes always stay (reference ``ModelTransformer.filterShapes``,
    ``FilterShapes``)."""
    doomed = [n.id for n in nodes(model)
              if not is_prelude(n.id) and (isinstance(n, Shape) or _member_filterable(model, n))
              and not keep(n)]
    remove_shapes(model, doomed)


def _member_filterable(model: Model, member: Member) -> bool:
    container = model.shapes.get(member.container)
    return container is not None and container.type in _FILTERABLE_CONTAINERS


def trait_definitions(model: Model) -> list[Shape]:
    """The shapes that define traits (``@trait``), in model order."""
    return [s for s in model.shapes.values() if TRAIT in s.traits]


# --------------------------------------------------------------------------- reachability

def unreferenced_shapes(model: Model, keep: Callable[[Shape], bool]) -> set[str]:
    """Top-level shapes not connected to a service, a trait definition or a ``@metadata``
    shape, outside the prelude, for which ``keep`` is true (reference ``UnreferencedShapes``
    with its default root selector ``service``:
    :func:`smithy2cfn.model.unreferenced.unreferenced_shapes`)."""
    services = [s.id for s in model.shapes.values() if s.type == "service"]
    return {sid for sid in unreferenced(model, services) if not is_prelude(sid) and keep(model.shapes[sid])}


def unreferenced_trait_definitions(model: Model, keep: Callable[[Shape], bool]) -> set[str]:
    """The trait definitions outside the prelude that no shape connected to a service uses,
    directly or as a trait of a used trait's definition (reference
    ``UnreferencedTraitDefinitions``). As in the reference, a used definition leaves the
    unused set only when ``keep`` (the predicate "may be removed") is true of it, so a used
    definition for which it is false is returned too: the reference's behaviour, kept."""
    unused = {s.id for s in trait_definitions(model) if not is_prelude(s.id)}
    services = [s.id for s in model.shapes.values() if s.type == "service"]
    used: set[str] = set()
    for node_name in connected(model, services):
        obj = model.member(node_name) if "$" in node_name else model.shapes.get(node_name)
        if obj is not None:
            used.update(obj.traits)
    done: set[str] = set()
    stack = list(used)
    while stack:
        tid = stack.pop()
        if tid in done:
            continue
        done.add(tid)
        shape = model.shapes.get(tid)
        if shape is None:
            continue
        if keep(shape):
            unused.discard(tid)
        stack.extend(t for t in shape.traits if t != TRAIT and t not in done)
    return unused


def mark_and_sweep(model: Model, marked: set[str], may_sweep: Callable[[Shape], bool]) -> set[str]:
    """``marked`` and every top-level shape referenced only by marked shapes, repeatedly
    (reference ``MarkAndSweep``; ``may_sweep`` is its sweep filter). Member IDs of marked
    shapes count as marked."""
    index = model.knowledge(NeighborIndex)
    out = {sid for sid in marked if sid in model.shapes and may_sweep(model.shapes[sid])}
    dead = set(out) | {m.id for sid in out for m in model.shapes[sid].members.values()}
    changed = True
    while changed:
        changed = False
        for sid, shape in model.shapes.items():
            if sid in out:
                continue
            referrers = {r.shape for r in index.reverse(sid)
                         if r.type.directed and not r.type.is_member_binding
                         and not (r.type is RelationshipType.MEMBER_TARGET and ShapeId.root(r.shape) == sid)}
            if referrers and referrers <= dead and may_sweep(shape):
                out.add(sid)
                dead.add(sid)
                dead.update(m.id for m in shape.members.values())
                changed = True
    return out


def is_public_prelude(shape: Shape) -> bool:
    """A prelude shape that is not ``@private`` (reference ``Prelude.isPublicPreludeShape``)."""
    return is_prelude(shape.id) and PRIVATE not in shape.traits


# --------------------------------------------------------------------------- renaming

def _rename_value(value: Any, mapping: Mapping[str, str]) -> Any:
    """``value`` with every string (and object key) equal to a renamed ID replaced
    (reference ``RenameShapes.RenameShapeVisitor``)."""
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, list):
        return [_rename_value(v, mapping) for v in value]
    if isinstance(value, dict):
        return {mapping.get(k, k): _rename_value(v, mapping) for k, v in value.items()}
    return value


def rename_shapes(model: Model, mapping: Mapping[str, str]) -> Model:
    """A new model with shapes renamed (``old ID → new ID``) and every reference updated:
    member targets, mixins, bindings, inputs, outputs, errors, identifiers, properties,
    service renames, trait IDs, and every trait value or metadata string equal to a renamed
    ID (reference ``ModelTransformer.renameShapes``, which rewrites the JSON AST's strings).
    Members follow their shape. Spans are kept."""
    mapping = {k: v for k, v in mapping.items() if k != v}
    if not mapping:
        return model

    def ref(x: str | None) -> str | None:
        return mapping.get(x, x) if x is not None else None

    def refs(xs: list[str]) -> list[str]:
        return [mapping.get(x, x) for x in xs]

    def traits(d: dict[str, Any]) -> dict[str, Any]:
        return {mapping.get(k, k): _rename_value(v, mapping) for k, v in d.items()}

    shapes: dict[str, Shape] = {}
    for sid, shape in model.shapes.items():
        new = copy_shape(shape, mapping.get(sid, sid))
        new.traits, new.introduced_traits = traits(new.traits), traits(new.introduced_traits)
        new.trait_spans = {mapping.get(k, k): v for k, v in new.trait_spans.items()}
        for member in new.members.values():
            member.target = mapping.get(member.target, member.target)
            member.traits, member.introduced_traits = traits(member.traits), traits(member.introduced_traits)
            member.trait_spans = {mapping.get(k, k): v for k, v in member.trait_spans.items()}
            member.from_mixin = ref(member.from_mixin)
        new.mixins = refs(new.mixins)
        new.input, new.output = ref(new.input), ref(new.output)
        new.errors = refs(new.errors)
        new.identifiers = {k: mapping.get(v, v) for k, v in new.identifiers.items()}
        new.properties = {k: mapping.get(v, v) for k, v in new.properties.items()}
        for name in LIFECYCLE_OPERATIONS:
            setattr(new, name, ref(getattr(new, name)))
        new.operations = refs(new.operations)
        new.collection_operations = refs(new.collection_operations)
        new.resources = refs(new.resources)
        new.rename = {mapping.get(k, k): v for k, v in new.rename.items()}
        shapes[new.id] = new
    prelude_ids = {sid for sid in model.prelude_ids if sid not in mapping}
    return Model(shapes=shapes, metadata=_rename_value(model.metadata, mapping), prelude_ids=prelude_ids,
                 packages=model.packages, versions=dict(model.versions), metadata_spans=dict(model.metadata_spans))


# --------------------------------------------------------------------------- mixins

def flatten_and_remove_mixins(model: Draft) -> None:
    """Copy every mixin's members and traits into the shapes that use them, then remove the
    mixins (reference ``ModelTransformer.flattenAndRemoveMixins``). Members are already
    flattened in this model: what was inherited becomes the shape's own."""
    for sid in [sid for sid, s in model.shapes.items() if s.mixins]:
        shape = model.own(sid)
        shape.mixins = []
        shape.introduced_traits = dict(shape.traits)
        for member in shape.members.values():
            member.from_mixin = None
            member.introduced_traits = dict(member.traits)
    remove_shapes(model, [s.id for s in model.shapes.values() if MIXIN in s.traits])


__all__ = [
    "connected", "Draft", "copy_member", "copy_model", "copy_shape", "filter_shapes", "flatten_and_remove_mixins",
    "idref_targets", "is_prelude", "traits_with_idrefs", "is_public_prelude", "mark_and_sweep", "nodes",
    "remove_shapes", "remove_trait_applications", "rename_shapes", "tags_of", "trait_definitions",
    "unreferenced_shapes", "unreferenced_trait_definitions",
]
