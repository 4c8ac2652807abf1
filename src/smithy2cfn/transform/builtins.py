"""smithy-build's built-in transforms, one function each (reference smithy-build
``software.amazon.smithy.build.transforms``, one class each, named in each ``reference=``).

Each function takes the model (never changed), its checked arguments (names, types and
defaults of the reference's ``Config`` class, declared with ``@transform``) and a
:class:`~smithy2cfn.transform.registry.Context`, and returns a new model; where the reference
throws ``SmithyBuildException`` it raises
:class:`~smithy2cfn.transform.registry.TransformError`. The model operations are in
:mod:`smithy2cfn.transform.ops`.
"""

from __future__ import annotations

from smithy2cfn.model.relationships import Walker
from smithy2cfn.model.shapes import Member, Model, Shape, ShapeId
from smithy2cfn.model.traits import (
    CLIENT_OPTIONAL,
    DEPRECATED,
    IDEMPOTENCY_TOKEN,
    REQUIRED,
    SUPPRESS,
    TAGS,
    TRAIT,
)
from smithy2cfn.prelude import PRELUDE_NAMESPACE
from smithy2cfn.regexes import lazy
from smithy2cfn.transform import ops
from smithy2cfn.transform.registry import (
    BOOLEAN,
    SELECTOR,
    SHAPE_ID,
    SHAPE_IDS,
    SHAPE_TYPES,
    STRING,
    STRING_MAP,
    STRINGS,
    TRAIT_IDS,
    TRAIT_REFS,
    Arg,
    Context,
    TransformError,
    is_shape_id,
    transform,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# --------------------------------------------------------------------------- apply


@transform("apply", reference="Apply", compat="projections",
           args=(Arg("projections", STRINGS, default=()),))
def apply(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Runs the transforms of other projections, in order (reference ``Apply``); the runner
    (:func:`smithy2cfn.transform.run.run_transforms`) does the work, as the reference's
    ``SmithyBuildImpl.applyQueuedProjections``: the transform itself leaves the model as is."""
    return model


# --------------------------------------------------------------------------- metadata


@transform("excludeMetadata", reference="ExcludeMetadata", compat="keys", args=(Arg("keys", STRINGS, default=()),))
def exclude_metadata(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes the metadata entries whose key is in ``keys`` (reference ``ExcludeMetadata``)."""
    keys = set(args["keys"])
    return _with_metadata(model, {k: v for k, v in model.metadata.items() if k not in keys})


@transform("includeMetadata", reference="IncludeMetadata", compat="keys", args=(Arg("keys", STRINGS, default=()),))
def include_metadata(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Keeps only the metadata entries whose key is in ``keys`` (reference ``IncludeMetadata``)."""
    keys = set(args["keys"])
    return _with_metadata(model, {k: v for k, v in model.metadata.items() if k in keys})


def _with_metadata(model: Model, metadata: dict[str, Any]) -> Model:
    out = ops.copy_model(model)
    out.metadata = metadata
    out.metadata_spans = {k: v for k, v in model.metadata_spans.items() if k in metadata}
    return out


# --------------------------------------------------------------------------- filtering shapes


def _filtered(model: Model, keep: Any) -> Model:
    out = ops.copy_model(model)
    ops.filter_shapes(out, keep)
    return out


def _removed(model: Model, ids: Any) -> Model:
    out = ops.copy_model(model)
    ops.remove_shapes(out, list(ids))
    return out


@transform("excludeShapesByTag", reference="ExcludeShapesByTag", compat="tags",
           args=(Arg("tags", STRINGS, default=()),))
def exclude_shapes_by_tag(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes the shapes and members tagged with any of ``tags``; prelude shapes stay
    (reference ``ExcludeShapesByTag``)."""
    tags = set(args["tags"])
    return _filtered(model, lambda node: not tags.intersection(ops.tags_of(node)))


@transform("includeShapesByTag", reference="IncludeShapesByTag", compat="tags",
           args=(Arg("tags", STRINGS, default=()),))
def include_shapes_by_tag(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Keeps only the shapes and members tagged with any of ``tags``, and the prelude
    (reference ``IncludeShapesByTag``)."""
    tags = set(args["tags"])
    return _filtered(model, lambda node: bool(tags.intersection(ops.tags_of(node))))


def _select(model: Model, selector: Any) -> frozenset[str]:
    from smithy2cfn.languages.selector import SelectorEngine

    return SelectorEngine(model).select(selector)


@transform("excludeShapesBySelector", reference="ExcludeShapesBySelector",
           args=(Arg("selector", SELECTOR, required=True),))
def exclude_shapes_by_selector(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes the shapes and members the selector matches; prelude shapes stay (reference
    ``ExcludeShapesBySelector``)."""
    selected = _select(model, args["selector"])
    return _filtered(model, lambda node: node.id not in selected)


@transform("includeShapesBySelector", reference="IncludeShapesBySelector",
           args=(Arg("selector", SELECTOR, required=True),))
def include_shapes_by_selector(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Keeps only the shapes and members the selector matches, and the prelude (reference
    ``IncludeShapesBySelector``)."""
    selected = _select(model, args["selector"])
    return _filtered(model, lambda node: node.id in selected)


@transform("excludeShapesByTrait", reference="ExcludeShapesByTrait", args=(Arg("traits", TRAIT_IDS, default=()),))
def exclude_shapes_by_trait(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes the shapes and members that have any of ``traits`` (relative IDs are in
    ``smithy.api``); as the reference, through ``removeShapesIf``, so prelude shapes stay
    (reference ``ExcludeShapesByTrait``)."""
    ids = {ShapeId.absolute(t, PRELUDE_NAMESPACE) for t in args["traits"]}
    return _filtered(model, lambda node: not ids.intersection(node.traits))


@transform("includeNamespaces", reference="IncludeNamespaces", compat="namespaces",
           args=(Arg("namespaces", STRINGS, default=()),))
def include_namespaces(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Keeps only the shapes of ``namespaces``, and the prelude (reference
    ``IncludeNamespaces``)."""
    namespaces = set(args["namespaces"])
    return _filtered(model, lambda node: ShapeId.namespace(node.id) in namespaces)


@transform("includeServices", reference="IncludeServices", compat="services",
           args=(Arg("services", SHAPE_IDS, default=()),))
def include_services(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes every service not in ``services`` (other shapes stay: chain
    ``removeUnusedShapes`` to drop what only those services used) (reference
    ``IncludeServices``)."""
    services = set(args["services"])
    return _filtered(model, lambda node: not (isinstance(node, Shape) and node.type == "service")
                     or node.id in services)


@transform("removeDeprecatedShapes", reference="RemoveDeprecatedShapes",
           args=(Arg("relativeDate", STRING), Arg("relativeVersion", STRING)))
def remove_deprecated_shapes(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes shapes and members whose ``@deprecated(since: ...)`` is before
    ``relativeDate`` (a calendar date, hyphens optional) or before ``relativeVersion`` (a
    semantic version) (reference ``RemoveDeprecatedShapes``, ``FilterDeprecatedRelativeDate``,
    ``FilterDeprecatedRelativeVersion``: a ``since`` of another form stays; versions compare
    component by component as text, as the reference does)."""
    date, version = args["relativeDate"], args["relativeVersion"]
    if date is not None and not _ISO_DATE.fullmatch(date):
        raise TransformError(f"relativeDate '{date}' is not an ISO 8601 calendar date (YYYY-MM-DD)",
                             "write the date as YYYY-MM-DD", arg="relativeDate")
    if version is not None and not _SEMVER.fullmatch(version):
        raise TransformError(f"relativeVersion '{version}' is not a semantic version",
                             "write the version as MAJOR.MINOR.PATCH", arg="relativeVersion")
    out = ops.copy_model(model)
    for limit, test in ((date, _before_date), (version, _before_version)):
        if limit is None:
            continue
        doomed = []
        for node in ops.nodes(out):
            value = node.traits.get(DEPRECATED)
            since = value.get("since") if isinstance(value, dict) else None
            if isinstance(since, str) and test(limit, since):
                doomed.append(node.id)
        ops.remove_shapes(out, doomed)
    return out


_ISO_DATE = lazy(r"([0-9]{4})-?(1[0-2]|0[1-9])-?(3[01]|0[1-9]|[12][0-9])")
_SEMVER = lazy(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)"
               r"(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?")


def _before_date(limit: str, since: str) -> bool:
    return bool(_ISO_DATE.fullmatch(since)) and limit.replace("-", "") > since.replace("-", "")


def _before_version(limit: str, since: str) -> bool:
    if not _SEMVER.fullmatch(since):
        return False
    a, b = limit.split("."), since.split(".")
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "0"
        y = b[i] if i < len(b) else "0"
        if x != y:
            return x > y  # text order, as the reference's compareSemVer
    return False


# --------------------------------------------------------------------------- traits


def _trait_refs(values: Any) -> tuple[set[str], set[str]]:
    """Trait IDs (relative ones in ``smithy.api``) and namespaces (``ns#``) (reference
    ``TraitRemovalUtils.parseTraits``)."""
    names: set[str] = set()
    namespaces: set[str] = set()
    for value in values:
        if value.endswith("#"):
            namespaces.add(value[:-1])
        else:
            names.add(ShapeId.absolute(value, PRELUDE_NAMESPACE))
    return names, namespaces


def _matches(trait: Shape, names: set[str], namespaces: set[str]) -> bool:
    return trait.id in names or trait.namespace in namespaces


@transform("excludeTraits", reference="ExcludeTraits", compat="traits", args=(Arg("traits", TRAIT_REFS, default=()),))
def exclude_traits(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes the named traits (IDs, relative ones in ``smithy.api``, or every trait of a
    namespace written ``ns#``): their definitions and every application (reference
    ``ExcludeTraits``; prelude trait definitions too, as the reference's ``removeShapes``)."""
    names, namespaces = _trait_refs(args["traits"])
    return _removed(model, [t.id for t in ops.trait_definitions(model) if _matches(t, names, namespaces)])


@transform("includeTraits", reference="IncludeTraits", compat="traits", args=(Arg("traits", TRAIT_REFS, default=()),))
def include_traits(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes every trait not named (``@trait`` itself always stays) (reference
    ``IncludeTraits``)."""
    names, namespaces = _trait_refs(args["traits"])
    names.add(TRAIT)
    return _removed(model, [t.id for t in ops.trait_definitions(model) if not _matches(t, names, namespaces)])


@transform("excludeTraitsByTag", reference="ExcludeTraitsByTag", compat="tags", args=(Arg("tags", STRINGS, default=()),))
def exclude_traits_by_tag(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes the traits whose definition is tagged with any of ``tags``, outside the
    prelude (reference ``ExcludeTraitsByTag``)."""
    tags = set(args["tags"])
    return _filtered(model, lambda node: not (isinstance(node, Shape) and TRAIT in node.traits
                                              and tags.intersection(ops.tags_of(node))))


@transform("includeTraitsByTag", reference="IncludeTraitsByTag", compat="tags", args=(Arg("tags", STRINGS, default=()),))
def include_traits_by_tag(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes the traits whose definition is not tagged with any of ``tags``, outside the
    prelude (reference ``IncludeTraitsByTag``)."""
    tags = set(args["tags"])
    return _filtered(model, lambda node: not (isinstance(node, Shape) and TRAIT in node.traits
                                              and not tags.intersection(ops.tags_of(node))))


def _retag(model: Model, tags: set[str], exclude: bool) -> Model:
    """Reference ``TagUtils.includeExcludeShapeTags``: a shape or member's ``@tags`` keep
    (``exclude``: lose) the values in ``tags``; a shape whose tags do not change is left alone."""
    out = ops.copy_model(model)
    for node in ops.nodes(out):
        current = ops.tags_of(node)
        kept = [t for t in dict.fromkeys(current) if (t not in tags) == exclude]
        if len(kept) != len(set(current)):
            node = out.own_node(node)
            node.traits[TAGS] = kept
            node.introduced_traits[TAGS] = kept
    return out


@transform("excludeTags", reference="ExcludeTags", compat="tags", args=(Arg("tags", STRINGS, default=()),))
def exclude_tags(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes the given values from every ``@tags`` trait (reference ``ExcludeTags``)."""
    return _retag(model, set(args["tags"]), exclude=True)


@transform("includeTags", reference="IncludeTags", compat="tags", args=(Arg("tags", STRINGS, default=()),))
def include_tags(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes every value not given from every ``@tags`` trait (reference ``IncludeTags``)."""
    return _retag(model, set(args["tags"]), exclude=False)


@transform("makeIdempotencyTokensClientOptional", reference="MakeIdempotencyTokensClientOptional")
def make_idempotency_tokens_client_optional(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Adds ``@clientOptional`` to every ``@required`` ``@idempotencyToken`` member that lacks
    it (reference ``MakeIdempotencyTokensClientOptional``,
    ``ModelTransformer.makeIdempotencyTokensClientOptional``)."""
    out = ops.copy_model(model)
    for node in ops.nodes(out):
        if isinstance(node, Member) and REQUIRED in node.traits and IDEMPOTENCY_TOKEN in node.traits \
                and CLIENT_OPTIONAL not in node.traits:
            node = out.own_node(node)
            node.traits[CLIENT_OPTIONAL] = {}
            node.introduced_traits[CLIENT_OPTIONAL] = {}
    return out


# --------------------------------------------------------------------------- unused shapes and trait definitions


def _keep_unless_tagged(tags: tuple[str, ...]) -> Any:
    wanted = set(tags)
    return lambda shape: not wanted.intersection(ops.tags_of(shape))


@transform("removeUnusedShapes", reference="RemoveUnusedShapes", compat="exportTagged",
           args=(Arg("exportTagged", STRINGS, default=()),))
def remove_unused_shapes(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes the shapes not connected to a service, a trait definition or a ``@metadata``
    shape, and the trait definitions no shape of a service uses, until nothing more goes;
    shapes tagged with any of ``exportTagged`` stay (reference ``RemoveUnusedShapes``,
    ``UnreferencedShapes``, ``UnreferencedTraitDefinitions``)."""
    keep = _keep_unless_tagged(args["exportTagged"])
    out = ops.copy_model(model)
    while True:
        count = sum(1 + len(s.members) for s in out.shapes.values())
        doomed = ops.unreferenced_shapes(out, keep)
        if doomed:
            ops.remove_shapes(out, doomed)
        doomed = ops.unreferenced_trait_definitions(out, keep)
        if doomed:
            ops.remove_shapes(out, doomed)
        if sum(1 + len(s.members) for s in out.shapes.values()) == count:
            return out


@transform("removeTraitDefinitions", reference="RemoveTraitDefinitions",
           args=(Arg("exportTagged", STRINGS, default=()),))
def remove_trait_definitions(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Removes the trait definitions (but not their applications) and the shapes only they
    use; definitions tagged with any of ``exportTagged`` stay (reference
    ``RemoveTraitDefinitions``, ``ModelTransformer.getModelWithoutTraitShapes``,
    ``ScrubTraitDefinitions``, ``MarkAndSweep``). The metadata goes too, suppressions
    included: ``getModelWithoutTraitShapes`` builds the new model from the remaining shapes
    alone (``Model.builder()`` with no metadata), so the projected model is validated
    without the suppressions."""
    keep = _keep_unless_tagged(args["exportTagged"])
    marked = {s.id for s in model.shapes.values()
              if (TRAIT in s.traits and keep(s)) or (ops.is_prelude(s.id) and not ops.is_public_prelude(s))}
    swept = ops.mark_and_sweep(model, marked, lambda s: not (ops.is_public_prelude(s) and TRAIT not in s.traits))
    out = ops.copy_model(model)
    for sid in swept:  # the shapes go; the traits they define stay applied
        out.shapes.pop(sid, None)
        out.prelude_ids.discard(sid)
    out.metadata.clear()
    out.metadata_spans.clear()
    return out


# --------------------------------------------------------------------------- renaming


@transform("renameShapes", reference="RenameShapes", args=(Arg("renamed", STRING_MAP, required=True),))
def rename_shapes(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Renames shapes (``renamed``: absolute shape ID → new absolute shape ID) and updates
    every reference to them (reference ``RenameShapes``, ``ModelTransformer.renameShapes``).

    Raises:
        TransformError: ``renamed`` is empty, an ID is not absolute, a shape to rename does
            not exist or is in the prelude, or a new ID is already taken.
    """
    renamed: dict[str, str] = args["renamed"]
    if not renamed:
        raise TransformError("'renamed' must be set and non-empty", "map absolute shape IDs to new ones",
                             arg="renamed")
    for old, new in renamed.items():
        for text in (old, new):
            if not is_shape_id(text) or "$" in text:
                raise TransformError(f"'{text}' must be a valid, absolute shape ID", "write namespace#Name",
                                     arg="renamed")
        if old not in model.shapes:
            raise TransformError(f"'{old}' to be renamed does not exist in model", arg="renamed")
        if ops.is_prelude(old):
            raise TransformError(f"'{old}' is a prelude shape, which cannot be renamed", arg="renamed")
    return _rename(model, renamed)


def _rename(model: Model, mapping: dict[str, str]) -> Model:
    mapping = {k: v for k, v in mapping.items() if k != v}
    taken = [new for old, new in mapping.items() if new in model.shapes and new not in mapping]
    if taken:
        raise TransformError(f"cannot rename to '{taken[0]}': a shape with that ID already exists")
    targets = list(mapping.values())
    clash = next((t for t in targets if targets.count(t) > 1), None)
    if clash is not None:
        raise TransformError(f"several shapes would be renamed to '{clash}'")
    return ops.rename_shapes(model, mapping)


@transform("flattenNamespaces", reference="FlattenNamespaces",
           args=(Arg("namespace", STRING, required=True), Arg("service", SHAPE_ID, required=True),
                 Arg("includeTagged", STRINGS, default=())))
def flatten_namespaces(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Moves every shape in the closure of ``service`` (and the shapes tagged with any of
    ``includeTagged``, unless that would clash) into ``namespace``, applying the service's
    ``rename`` and then clearing it (reference ``FlattenNamespaces``).

    Raises:
        TransformError: ``service`` is not a service of the model.
    """
    namespace, service_id = args["namespace"], args["service"]
    service = model.shapes.get(service_id)
    if service is None:
        raise TransformError(f"Configured service, {service_id}, not found in model when performing "
                             "flattenNamespaces transform", arg="service")
    if service.type != "service":
        raise TransformError(f"{service_id} is a {service.type}, not a service", arg="service")
    mapping: dict[str, str] = {}
    for sid in Walker(model).walk(service_id):
        if "$" in sid or ops.is_prelude(sid):
            continue
        name = service.rename.get(sid, ShapeId.name(sid))
        mapping[sid] = f"{namespace}#{name}"
    tags = set(args["includeTagged"])
    if tags:
        values = set(mapping.values())
        for sid, shape in model.shapes.items():
            if ops.is_prelude(sid) or sid in mapping or not tags.intersection(ops.tags_of(shape)):
                continue
            new = f"{namespace}#{shape.name}"
            if new not in values:
                mapping[sid] = new
                values.add(new)
    out = _rename(model, mapping)
    new_service = out.shapes[mapping.get(service_id, service_id)]
    new_service.rename = {}
    return out


# --------------------------------------------------------------------------- shape closures


def _closures(model: Model) -> dict[str, dict[str, Any]]:
    """The ``shapeClosures`` metadata's closures by ID (reference ``ShapeClosure.fromModel``;
    malformed entries, which validation reports, are skipped)."""
    entries = model.metadata.get("shapeClosures")
    out: dict[str, dict[str, Any]] = {}
    for entry in entries if isinstance(entries, list) else ():
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            out[entry["id"]] = entry
    return out


def _closure_shapes(model: Model, closure: dict[str, Any]) -> set[str]:
    """The shapes and members of a closure: its roots (the shapes of ``includeNamespaces``,
    those ``includeBySelector`` selects) and everything their directed relationships reach
    (reference ``ShapeClosureIndex.computeClosure``)."""
    namespaces = closure.get("includeNamespaces")
    namespaces = {n for n in namespaces if isinstance(n, str)} if isinstance(namespaces, list) else set()
    roots = {n.id for n in ops.nodes(model) if ShapeId.namespace(n.id) in namespaces}
    text = closure.get("includeBySelector")
    if isinstance(text, str):
        from smithy2cfn.languages.selector import SelectorError, parse_selector

        try:
            roots |= _select(model, parse_selector(text))
        except SelectorError:
            pass  # validation reports it (reference ShapeClosureValidator)
    return Walker(model).walk_all(sorted(roots), lambda rel: rel.type.directed)


@transform("includeClosures", reference="IncludeClosures", compat="closures",
           args=(Arg("closures", STRINGS, default=()),))
def include_closures(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Keeps only the shapes (and members) of the named ``shapeClosures``, and the prelude;
    the closures' renames are not applied (reference ``IncludeClosures``,
    ``ModelTransformer.includeClosures``).

    Raises:
        TransformError: ``closures`` is empty, or names a closure the model does not define.
    """
    if not args["closures"]:
        raise TransformError("'closures' property must be set and non-empty on the includeClosures transformer",
                             arg="closures")
    defined = _closures(model)
    kept: set[str] = set()
    for name in args["closures"]:
        if name not in defined:
            raise TransformError(f"No shape closure named `{name}` is defined in the model",
                                 f"closures the model defines: {', '.join(sorted(defined)) or 'none'}",
                                 arg="closures")
        kept |= _closure_shapes(model, defined[name])
    return _filtered(model, lambda node: node.id in kept)


@transform("flattenClosureNamespaces", reference="FlattenClosureNamespaces",
           args=(Arg("namespace", STRING, required=True), Arg("closure", STRING, required=True)))
def flatten_closure_namespaces(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Moves the shapes of the ``closure`` (outside the prelude) into ``namespace``, with the
    closure's ``rename`` giving new names; every reference follows, the metadata's too
    (reference ``FlattenClosureNamespaces``).

    Raises:
        TransformError: the model defines no such closure.
    """
    defined = _closures(model)
    closure = defined.get(args["closure"])
    if closure is None:
        raise TransformError(f"No `shapeClosures` closure named `{args['closure']}` is defined in the model",
                             f"closures the model defines: {', '.join(sorted(defined)) or 'none'}", arg="closure")
    renames = closure.get("rename") if isinstance(closure.get("rename"), dict) else {}
    mapping: dict[str, str] = {}
    for sid in _closure_shapes(model, closure):
        if "$" in sid or ops.is_prelude(sid):
            continue
        name = renames.get(sid)
        target = f"{args['namespace']}#{name if isinstance(name, str) else ShapeId.name(sid)}"
        if target != sid:
            mapping[sid] = target
    return _rename(model, mapping) if mapping else model


# --------------------------------------------------------------------------- mixins, suppressions


@transform("flattenAndRemoveMixins", reference="FlattenAndRemoveMixins")
def flatten_and_remove_mixins(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Copies every mixin's members and traits into the shapes that use it, then removes the
    mixins (reference ``FlattenAndRemoveMixins``)."""
    out = ops.copy_model(model)
    ops.flatten_and_remove_mixins(out)
    return out


@transform("filterSuppressions", reference="FilterSuppressions",
           args=(Arg("removeUnused", BOOLEAN, default=False), Arg("removeReasons", BOOLEAN, default=False),
                 Arg("eventIdAllowList", STRINGS, default=()), Arg("eventIdDenyList", STRINGS, default=()),
                 Arg("namespaceAllowList", STRINGS, default=()), Arg("namespaceDenyList", STRINGS, default=())))
def filter_suppressions(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Filters the ``@suppress`` traits and the ``suppressions`` metadata: by event ID
    (allow or deny list), metadata suppressions by namespace (allow or deny list), without
    their ``reason`` (``removeReasons``), and without those that suppressed nothing when the
    projection's model was validated (``removeUnused``) (reference ``FilterSuppressions``).

    Raises:
        TransformError: both an allow and a deny list of one kind are given.
    """
    if args["eventIdAllowList"] and args["eventIdDenyList"]:
        raise TransformError("cannot set both eventIdAllowList values and eventIdDenyList values at the same time")
    if args["namespaceAllowList"] and args["namespaceDenyList"]:
        raise TransformError("cannot set both namespaceAllowList values and namespaceDenyList values at the "
                             "same time")
    allow_ids, deny_ids = set(args["eventIdAllowList"]), set(args["eventIdDenyList"])
    allow_ns, deny_ns = set(args["namespaceAllowList"]), set(args["namespaceDenyList"])
    suppressed = context.suppressed_events() if args["removeUnused"] else None
    if args["removeUnused"] and suppressed is None:
        raise TransformError("removeUnused needs the events that validating the model suppressed, which this "
                             "caller did not give", "run the projection through smithy2cfn's build, which "
                             "validates the model first", arg="removeUnused")
    removed_validators = _removed_validators(context.original, model) if args["removeUnused"] else set()
    if suppressed is not None:
        suppressed = [(e, s) for e, s in suppressed if e not in removed_validators]
    out = ops.copy_model(model)
    for node in ops.nodes(out):
        values = node.traits.get(SUPPRESS)
        if not isinstance(values, list):
            continue
        allowed = [v for v in values if isinstance(v, str) and _allowed(v, allow_ids, deny_ids)]
        if suppressed is not None:
            allowed = [v for v in allowed if any(s == node.id and _event_matches(e, v) for e, s in suppressed)]
        if not allowed:
            ops._drop_traits(out.own_node(node), {SUPPRESS})
        elif allowed != values:
            node = out.own_node(node)
            node.traits[SUPPRESS] = allowed
            node.introduced_traits[SUPPRESS] = allowed
    entries = out.metadata.get("suppressions")
    if isinstance(entries, list):
        kept = []
        for entry in entries:
            if not isinstance(entry, dict):
                kept.append(entry)
                continue
            event_id, namespace = entry.get("id", ""), entry.get("namespace", "")
            if args["removeReasons"]:
                entry = {k: v for k, v in entry.items() if k != "reason"}
            if not (_allowed(event_id, allow_ids, deny_ids) and _allowed(namespace, allow_ns, deny_ns)):
                continue
            if suppressed is not None and not any(
                    _event_matches(e, event_id) and _in_namespace(s, namespace) for e, s in suppressed):
                continue
            kept.append(entry)
        if kept != entries:
            if kept:
                out.metadata["suppressions"] = kept
            else:
                del out.metadata["suppressions"]
                out.metadata_spans.pop("suppressions", None)
    return out


def _allowed(value: Any, allow: set[str], deny: set[str]) -> bool:
    return (not allow or value in allow) and (not deny or value not in deny)


def _event_matches(event_id: str, suppression_id: Any) -> bool:
    """Reference ``ValidationEvent.containsId``: the ID or one of its ``.``-separated
    ancestors (``A.B`` is matched by ``A``)."""
    return isinstance(suppression_id, str) and (event_id == suppression_id
                                                or event_id.startswith(suppression_id + "."))


def _in_namespace(shape_id: str | None, namespace: Any) -> bool:
    if namespace == "*":
        return True
    return shape_id is not None and ShapeId.namespace(shape_id) == namespace


def _removed_validators(original: Model, model: Model) -> set[str]:
    def names(m: Model) -> set[str]:
        out = set()
        validators = m.metadata.get("validators")
        for v in validators if isinstance(validators, list) else ():
            if isinstance(v, dict):
                name = v.get("id", v.get("name"))
                if isinstance(name, str):
                    out.add(name)
        return out
    return names(original) - names(model)


# --------------------------------------------------------------------------- shape types


@transform("changeTypes", reference="ChangeTypes",
           args=(Arg("shapeTypes", SHAPE_TYPES, required=True), Arg("synthesizeEnumNames", BOOLEAN, default=False)))
def change_types(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Changes the type of shapes (``shapeTypes``: shape ID → type) (reference
    ``ChangeTypes``, ``ModelTransformer.changeShapeType``, ``ChangeShapeType``).

    Raises:
        TransformError: ``shapeTypes`` is empty, names a shape that does not exist, or asks
            for a change the reference cannot make.
    """
    from smithy2cfn.transform import types

    if not args["shapeTypes"]:
        raise TransformError("changeTypes: shapeTypes must not be empty", arg="shapeTypes")
    return types.change_shape_types(model, args["shapeTypes"], args["synthesizeEnumNames"])


@transform("changeStringEnumsToEnumShapes", reference="ChangeStringEnumsToEnumShapes",
           args=(Arg("synthesizeNames", BOOLEAN, default=False),))
def change_string_enums_to_enum_shapes(model: Model, args: dict[str, Any], context: Context) -> Model:
    """Turns every string shape with an ``@enum`` trait into an enum shape, when every enum
    value has a name (or ``synthesizeNames`` can make one) (reference
    ``ChangeStringEnumsToEnumShapes``, ``ChangeShapeType.upgradeEnums``)."""
    from smithy2cfn.transform import types

    return types.upgrade_enums(model, args["synthesizeNames"])


__all__: list[str] = []  # the transforms are reached through registry.TRANSFORMS
