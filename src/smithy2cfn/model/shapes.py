"""The loaded Smithy model (Smithy 2.0 "Shapes" and "JSON AST" chapters).

Every shape ID here is absolute (``namespace#Name``, members ``namespace#Name$member``).
Trait values are JSON values (``dict``/``list``/``str``/``int``/``float``/``bool``/``None``)
keyed by absolute trait shape ID, exactly as the JSON AST writes them.

Members are *flattened*: ``Shape.members`` holds every member the shape has, including
those that come from mixins, with their effective traits (mixin traits, then local traits,
then ``apply``). What was introduced locally is kept apart in ``introduced_traits`` and
``Member.from_mixin`` so the JSON AST writer can reproduce the reference's serializer.
"""

from __future__ import annotations

from _weakref import ref as _weak_ref  # (weakref.ref itself: the weakref module costs 2.5 M instructions)
from collections.abc import Callable, Iterable, Mapping

from smithy2cfn.diagnostics import Span
from smithy2cfn.model.document import member_trait_spans
from smithy2cfn.records import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

#: JSON AST type names of the simple shapes (Smithy 2.0 §"Simple types").
SIMPLE_TYPES = frozenset({
    "blob", "boolean", "string", "byte", "short", "integer", "long", "float", "double",
    "bigInteger", "bigDecimal", "timestamp", "document", "enum", "intEnum",
})
#: Aggregate types (members), Smithy 2.0 §"Aggregate types" (``set`` is 1.0's list).
AGGREGATE_TYPES = frozenset({"list", "set", "map", "structure", "union"})
#: Service types, Smithy 2.0 §"Service types".
SERVICE_TYPES = frozenset({"service", "operation", "resource"})
ALL_TYPES = SIMPLE_TYPES | AGGREGATE_TYPES | SERVICE_TYPES

#: Resource lifecycle operation property names (Smithy 2.0 §"Resource lifecycle operations").
LIFECYCLE_OPERATIONS = ("create", "put", "read", "update", "delete", "list")


class ShapeId:
    """Helpers for absolute shape ID strings (Smithy 2.0 §"Shape ID").

    Shape IDs are kept as plain ``str`` throughout the model; these functions split and
    build them. ``"ns.a#Name$member"`` → namespace ``ns.a``, name ``Name``, member ``member``.
    """

    @staticmethod
    def namespace(shape_id: str) -> str:
        """The namespace part (before ``#``); ``""`` for a relative ID."""
        return shape_id.split("#", 1)[0] if "#" in shape_id else ""

    @staticmethod
    def name(shape_id: str) -> str:
        """The shape name (between ``#`` and ``$``)."""
        rest = shape_id.split("#", 1)[-1]
        return rest.split("$", 1)[0]

    @staticmethod
    def member(shape_id: str) -> str | None:
        """The member name after ``$``, or ``None``."""
        return shape_id.split("$", 1)[1] if "$" in shape_id else None

    @staticmethod
    def root(shape_id: str) -> str:
        """The ID without its member part."""
        return shape_id.split("$", 1)[0]

    @staticmethod
    def absolute(ref: str, namespace: str) -> str:
        """``ref`` as an absolute ID: a relative one (no ``#``) is taken to be in
        ``namespace`` (a shape ID in a trait value, a selector's trait name in
        ``smithy.api``); no lookup, no resolution through ``use`` or the prelude."""
        return ref if "#" in ref else f"{namespace}#{ref}"


class Member(Record):
    """A member of an aggregate shape (or an enum value, which targets ``smithy.api#Unit``).

    Attributes:
        name: member name (``member`` for lists, ``key``/``value`` for maps).
        target: absolute shape ID of the target.
        container: absolute shape ID of the shape that holds the member.
        id: ``container$name`` (made once; not a field).
        traits: effective traits, absolute trait ID → JSON value.
        introduced_traits: traits applied on this member in its own shape (or by ``apply``),
            as opposed to inherited from the mixin member it came from.
        from_mixin: for a member inherited from a mixin, the mixin's shape ID.
        span: where the member is defined.
        trait_spans: trait ID → where that effective trait was applied (the member, an
            ``apply`` statement, or the mixin member it came from), when known; read-only
            (replaced, never changed in place: a member whose traits are all its own may
            share its document's :class:`~smithy2cfn.diagnostics.DeferredSpans`).

    A member made with ``deferred`` (``(where, traits)``: the ``where`` of
    :meth:`Span.deferred` for the keys of its ``members`` object, and its ``traits`` object
    in the file, or ``None``), one a JSON AST document keeps no span of
    (:meth:`~smithy2cfn.model.document.SourceDocument.span_of`), makes its ``span`` and
    ``trait_spans`` when first read, as the document would (making them all for SageMaker's
    7,300 members was 48 million instructions of its build; its diagnostics read a few
    hundred). Copied, compared and pickled as any member (the fields are read).
    """

    __slots__ = ("name", "target", "container", "traits", "introduced_traits", "from_mixin", "_span",
                 "_trait_spans", "id", "_deferred")
    name: str
    target: str
    container: str
    traits: dict[str, Any]
    introduced_traits: dict[str, Any]
    from_mixin: str | None
    span: Span | None
    trait_spans: Mapping[str, Span]

    def __init__(self, name: str, target: str, container: str, traits: dict[str, Any] | None = None,
                 introduced_traits: dict[str, Any] | None = None, from_mixin: str | None = None,
                 span: Span | None = None, trait_spans: Mapping[str, Span] | None = None,
                 deferred: tuple[tuple[str, Callable[[tuple[Any, ...]], Span], tuple[Any, ...]],
                                 Mapping[str, Any] | None] | None = None) -> None:
        self.name = name
        self.target = target
        self.container = container
        self.traits = {} if traits is None else traits
        self.introduced_traits = {} if introduced_traits is None else introduced_traits
        self.from_mixin = from_mixin
        self._span = span
        # (a deferred member's trait spans, when not given, are made when first read)
        self._trait_spans = trait_spans if trait_spans is not None or deferred is not None else {}
        self._deferred = deferred
        #: The member's absolute shape ID, ``ns#Container$name``: made once (read very
        #: often by the validators; a member's name and container are never changed, a
        #: member is copied to move it: transform.ops.copy_member). Not a field.
        self.id = f"{container}${name}"

    # (Properties, not __getattr__: a class with __getattr__ loses the interpreter's fast
    # slot reads for every attribute, 38 million instructions more on quicksight's validators.)
    @property
    def span(self) -> Span | None:
        """Where the member is defined (a deferred member's: made now, the first time)."""
        span = self._span
        if span is None and self._deferred is not None:
            span = self._span = Span.deferred(self._deferred[0], self.name)
        return span

    @span.setter
    def span(self, value: Span | None) -> None:
        self._span = value

    @property
    def trait_spans(self) -> Mapping[str, Span]:
        """Where each of the member's traits was applied (a deferred member's whose traits are
        all its own: made now, the first time)."""
        spans = self._trait_spans
        if spans is None and self._deferred is not None:
            where, traits = self._deferred
            spans = self._trait_spans = member_trait_spans(where, self.name, traits) if traits else {}
        return spans  # type: ignore[return-value]

    @trait_spans.setter
    def trait_spans(self, value: Mapping[str, Span]) -> None:
        self._trait_spans = value

    def __reduce__(self) -> tuple[type[Member], tuple[Any, ...]]:
        # By its fields (a deferred span or trait spans made first: what makes them, the
        # file's text, stays in this process).
        return Member, (self.name, self.target, self.container, self.traits, self.introduced_traits,
                        self.from_mixin, self.span, self.trait_spans)


class Shape(Record):
    """A top-level shape. Fields not used by a shape's ``type`` stay empty/``None``.

    ``type`` is the JSON AST type name (``structure``, ``string``, ``operation``...).
    Operation: ``input``, ``output``, ``errors``. Resource: ``identifiers``, ``properties``
    (name → target shape ID), lifecycle operations ``create``/``put``/``read``/``update``/
    ``delete``/``list``, ``operations``, ``collection_operations``, ``resources``.
    Service: ``version``, ``operations``, ``resources``, ``errors``, ``rename``.
    """

    __slots__ = ("id", "type", "traits", "introduced_traits", "members", "mixins", "span", "trait_spans", "input",
                 "output", "errors", "identifiers", "properties", "create", "put", "read", "update", "delete", "list",
                 "operations", "collection_operations", "resources", "version", "rename")
    id: str
    type: str
    traits: dict[str, Any]
    introduced_traits: dict[str, Any]
    members: dict[str, Member]
    mixins: list[str]
    span: Span | None
    #: trait ID → where that effective trait was applied, when known (read-only: replaced, never
    #: changed in place; :class:`~smithy2cfn.diagnostics.DeferredSpans` for traits all the shape's own)
    trait_spans: Mapping[str, Span]
    # operation
    input: str | None
    output: str | None
    errors: list[str]
    # resource
    identifiers: dict[str, str]
    properties: dict[str, str]
    create: str | None
    put: str | None
    read: str | None
    update: str | None
    delete: str | None
    list: str | None
    operations: list[str]
    collection_operations: list[str]
    resources: list[str]
    # service
    version: str | None
    rename: dict[str, str]

    def __init__(self, id: str, type: str, traits: dict[str, Any] | None = None,
                 introduced_traits: dict[str, Any] | None = None, members: dict[str, Member] | None = None,
                 mixins: list[str] | None = None, span: Span | None = None,
                 trait_spans: Mapping[str, Span] | None = None, input: str | None = None, output: str | None = None,
                 errors: list[str] | None = None, identifiers: dict[str, str] | None = None,
                 properties: dict[str, str] | None = None, create: str | None = None, put: str | None = None,
                 read: str | None = None, update: str | None = None, delete: str | None = None,
                 list: str | None = None, operations: list[str] | None = None,
                 collection_operations: list[str] | None = None, resources: list[str] | None = None,
                 version: str | None = None, rename: dict[str, str] | None = None) -> None:
        self.id = id
        self.type = type
        self.traits = {} if traits is None else traits
        self.introduced_traits = {} if introduced_traits is None else introduced_traits
        self.members = {} if members is None else members
        self.mixins = [] if mixins is None else mixins
        self.span = span
        self.trait_spans = {} if trait_spans is None else trait_spans
        self.input = input
        self.output = output
        self.errors = [] if errors is None else errors
        self.identifiers = {} if identifiers is None else identifiers
        self.properties = {} if properties is None else properties
        self.create = create
        self.put = put
        self.read = read
        self.update = update
        self.delete = delete
        self.list = list
        self.operations = [] if operations is None else operations
        self.collection_operations = [] if collection_operations is None else collection_operations
        self.resources = [] if resources is None else resources
        self.version = version
        self.rename = {} if rename is None else rename

    @property
    def name(self) -> str:
        """The shape name without namespace."""
        return ShapeId.name(self.id)

    @property
    def namespace(self) -> str:
        """The shape's namespace."""
        return ShapeId.namespace(self.id)

    def lifecycle(self) -> dict[str, str]:
        """Resource lifecycle operations that are set: name → operation shape ID."""
        return {k: getattr(self, k) for k in LIFECYCLE_OPERATIONS if getattr(self, k)}


if TYPE_CHECKING:
    _Index = TypeVar("_Index")


class Model(Record, hidden=("_knowledge",)):
    """A loaded model: every shape (the prelude's included), metadata, and where shapes came from.

    Attributes:
        shapes: absolute shape ID → :class:`Shape`, in a deterministic order (prelude first,
            then in load order).
        metadata: merged model metadata (Smithy 2.0 §"Metadata").
        prelude_ids: IDs of shapes that come from our built-in prelude and trait packages;
            the JSON AST writer leaves them out.
        packages: namespaces of the built-in packages loaded (``smithy.api`` and the trait
            packages the model names: :func:`smithy2cfn.load.loader.select_packages`);
            a package's validators run only when it is loaded. ``None`` (a model not made
            by the loader): not recorded, every validator runs.
        versions: source path → IDL/JSON AST version string (``"1.0"``/``"2.0"``).
        metadata_spans: metadata key → where it is set (the first place, when merged).
    """

    shapes: dict[str, Shape]
    metadata: dict[str, Any]
    prelude_ids: set[str]
    packages: frozenset[str] | None
    versions: dict[str, str]
    metadata_spans: dict[str, Span]
    _knowledge: dict[type, Any] | _Borrowed  # (a view's: its model's, :func:`_view`)

    def __init__(self, shapes: dict[str, Shape] | None = None, metadata: dict[str, Any] | None = None,
                 prelude_ids: set[str] | None = None, packages: frozenset[str] | None = None,
                 versions: dict[str, str] | None = None, metadata_spans: dict[str, Span] | None = None,
                 _knowledge: dict[type, Any] | _Borrowed | None = None) -> None:
        self.shapes = {} if shapes is None else shapes
        self.metadata = {} if metadata is None else metadata
        self.prelude_ids = set() if prelude_ids is None else prelude_ids
        self.packages = packages
        self.versions = {} if versions is None else versions
        self.metadata_spans = {} if metadata_spans is None else metadata_spans
        self._knowledge = {} if _knowledge is None else _knowledge

    def knowledge(self, index_type: type[_Index]) -> _Index:
        """The knowledge index ``index_type(self)``, built on first use and kept with the model
        (reference ``Model.getKnowledge``). Indexes assume the model no longer changes, as
        every stage after loading does.
        """
        found = self._knowledge.get(index_type)
        if found is None:
            found = index_type(_view(self))
            self._knowledge[index_type] = found
        return found

    def get(self, shape_id: str) -> Shape | None:
        """The shape with this absolute ID, or ``None``."""
        return self.shapes.get(shape_id)

    def member(self, member_id: str) -> Member | None:
        """The member with this absolute ID (``ns#Shape$member``), or ``None``."""
        root, _, name = member_id.partition("$")
        shape = self.shapes.get(root)
        return shape.members.get(name) if shape and name else None

    def of_type(self, *types: str) -> list[Shape]:
        """All shapes of the given JSON AST types, sorted by shape ID (a new list; from the
        per-model :class:`ShapeLists`, so the model must no longer change)."""
        lists = self.knowledge(ShapeLists)
        return list(lists.sorted_list(("type", *types),
                                      lambda: [s for t in dict.fromkeys(types) for s in lists.by_type.get(t, ())]))

    def shapes_with_trait(self, trait_id: str) -> list[Shape]:
        """All top-level shapes carrying ``trait_id``, sorted by shape ID (a new list; from
        :class:`ShapeLists`)."""
        lists = self.knowledge(ShapeLists)
        return list(lists.sorted_list(("trait", trait_id), lambda: lists.by_trait.get(trait_id, [])))

    def is_prelude(self, shape_id: str) -> bool:
        """True for shapes of our built-in prelude or trait packages."""
        return ShapeId.root(shape_id) in self.prelude_ids


def _view(model: Model) -> Model:
    """What a knowledge index holds of ``model`` (:meth:`Model.knowledge`): a model of the same
    fields (the same objects, as they are when the index is built), whose knowledge is
    ``model``'s, reached through a weak reference (:class:`_Borrowed`).

    Why: a model keeps its indexes, and an index that kept its model would make a cycle,
    which only a full collection of the cyclic garbage collector frees: in a process that
    builds model after model (a library caller, a server), each build paid such a collection
    of everything alive (SageMaker: 0.2–0.35 s a build, growing; a small model every few
    builds). With the view, a model no one holds is freed with its indexes at once; an
    index someone still holds keeps what it reads (through the view), and builds the other
    indexes it asks for on the view itself once the model is gone. The view is a plain
    :class:`Model`: only its knowledge differs.
    """
    if type(model._knowledge) is _Borrowed:
        return model  # (a view already)
    return Model(model.shapes, model.metadata, model.prelude_ids, model.packages, model.versions,
                 model.metadata_spans, _Borrowed(model))


class _Borrowed:
    """The knowledge of a view (:func:`_view`): its model's, while the model lives; then
    the view's own."""

    __slots__ = ("_model", "_own")

    def __init__(self, model: Model) -> None:
        self._model = _weak_ref(model)
        self._own: dict[type, Any] | None = None

    def _target(self) -> dict[type, Any]:
        model = self._model()
        if model is not None:
            return model._knowledge
        if self._own is None:
            self._own = {}
        return self._own

    def get(self, index_type: type) -> Any:
        return self._target().get(index_type)

    def __setitem__(self, index_type: type, index: Any) -> None:
        self._target()[index_type] = index


class ShapeLists:
    """Knowledge: the model's top-level shapes by type and by trait, in model order, listed
    in one walk over the model (:meth:`Model.knowledge`), and the sorted lists asked for,
    sorted once.

    Validators and the derivation ask for the few shapes of a type or with a trait dozens of
    times a build; a walk over every shape each time grew faster than the model once it
    outgrew the processor's caches (2 MB flat model: one walk 3 ms, 22 times its cost on a
    model 7 times smaller)."""

    def __init__(self, model: Model) -> None:
        by_type: dict[str, list[Shape]] = {}
        by_trait: dict[str, list[Shape]] = {}
        for shape in model.shapes.values():  # (a list made only for a new type or trait)
            found = by_type.get(shape.type)
            if found is None:
                by_type[shape.type] = [shape]
            else:
                found.append(shape)
            for trait_id in shape.traits:
                found = by_trait.get(trait_id)
                if found is None:
                    by_trait[trait_id] = [shape]
                else:
                    found.append(shape)
        self.by_type = by_type
        self.by_trait = by_trait
        self._sorted: dict[tuple[str, ...], list[Shape]] = {}

    def sorted_list(self, key: tuple[str, ...], shapes: Callable[[], Iterable[Shape]]) -> list[Shape]:
        """``shapes()`` sorted by shape ID, computed once per ``key`` (the list is shared:
        callers copy it)."""
        found = self._sorted.get(key)
        if found is None:
            found = self._sorted[key] = sorted(shapes(), key=lambda s: s.id)
        return found
