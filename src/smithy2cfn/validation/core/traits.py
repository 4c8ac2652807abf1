"""Trait checks: where traits may be applied, conflicts, and trait values.

Spec: model.rst §"Defining traits" (``selector``, ``conflicts``, ``structurallyExclusive``),
§"Trait node values" (a trait value must match its trait shape), constraint-traits.rst
(``length``, ``range``, ``pattern``, ``uniqueItems``, ``idRef``, ``enum``) and
type-refinement-traits.rst (``default``, ``required``).
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity
from smithy2cfn.languages.patterns import pattern_limit
from smithy2cfn.languages.selector import (
    MAX_SELECTOR_NESTING,
    Selector,
    SelectorEngine,
    SelectorError,
    SelectorTooDeep,
    parse_selector,
)
from smithy2cfn.model.nodes import shorten
from smithy2cfn.model.relationships import NeighborIndex, RelationshipType
from smithy2cfn.model.shapes import Model, ShapeId
from smithy2cfn.model.traits import (
    DEFAULT,
    DEPRECATED,
    ENUM,
    ID_REF,
    MIXIN,
    PATTERN,
    REQUIRED,
    TRAIT,
    UNSTABLE,
)
from smithy2cfn.regexes import lazy
from smithy2cfn.validation.support.events import diag, error, event, idiomatic, ticked, warning
from smithy2cfn.validation.support.node_values import NULL_EXPECTED, NodeChecker
from smithy2cfn.validation.support.shapes import (
    RECOMMENDED_ENUM_NAME,
    shapes_having,
    shapes_with_members_having,
    user_nodes_having,
    user_nodes_having_any,
    user_nodes_having_list,
    user_nodes_with_traits,
    user_shapes,
    user_shapes_having,
    user_trait_ids,
)


def _trait_definition(model: Model, trait_id: str) -> dict | None:
    """The ``smithy.api#trait`` value of a trait's definition, or ``None``."""
    shape = model.shapes.get(trait_id)
    if shape is None:
        return None
    value = shape.traits.get(TRAIT)
    return value if isinstance(value, dict) else None


def _nothing_to_check(model: Model, trait_id: str) -> bool:
    """Whether :func:`check_trait_targets` has nothing to say where ``trait_id`` is applied:
    not a ``@mixin`` trait definition, and no definition or a selector of ``*``."""
    trait_shape = model.shapes.get(trait_id)
    if trait_shape is not None and MIXIN in trait_shape.traits and TRAIT in trait_shape.traits:
        return False
    definition = _trait_definition(model, trait_id)
    if definition is None:
        return True
    text = definition.get("selector", "*")
    return not isinstance(text, str) or text.strip() in ("*", "")


def _is_mixin_node(model: Model, node_id: str) -> bool:
    shape = model.shapes.get(ShapeId.root(node_id))
    return shape is not None and MIXIN in shape.traits


# --------------------------------------------------------------------------- selectors


@validator(Code("S3001", Severity.ERROR, "TraitTarget", "trait applied outside its selector"),
           Code("S3008", Severity.NOTE, "TraitTarget", "a selector cannot be evaluated; its check is skipped"),
           rule="reference TraitTargetValidator (smithy-model); Smithy 2.0 model.rst, Defining traits "
                "(selector); selectors.rst")
def check_trait_targets(model: Model) -> Iterable[Diagnostic]:
    """Every trait is applied only to shapes its definition's ``selector`` matches.

    Spec: model.rst §"Defining traits" (``selector``: "a valid selector that defines where
    the trait can be applied"; default ``*``) and selectors.rst. The selector is evaluated
    over the whole model and the shape must be among the shapes it yields (the reference's
    ``TraitTarget``). Mixin shapes and their members are not checked (their traits are
    checked where the mixin is used). A selector this implementation cannot parse skips the
    trait's check with a NOTE (``S3008``); one nested beyond :data:`MAX_SELECTOR_NESTING` is
    an error at the trait definition (``S3009``, :func:`check_selectors`), so the model
    never passes unchecked. A trait definition that is a ``@mixin`` cannot be applied at all
    (the reference's ``TraitTargetValidator.validateMixinsUsedAsTraits``).
    """
    engine = model.knowledge(SelectorEngine)
    mixins = _mixin_ids(model)
    # Trait by trait (most traits, `@documentation` first, have nothing to check: not a
    # mixin, and no selector other than `*`), the nodes where something is reported; each
    # selector is evaluated once for all the nodes it is asked about
    # (SelectorEngine.matching), in proportion to them, rather than once per node. Then the
    # events, node by node in model order as before, for those nodes only.
    selectors: dict[str, tuple[str, Selector | None, SelectorError | None] | None] = {}
    asked: dict[int, tuple[Selector, list[str]]] = {}  # by identity: the selector, the nodes asked about
    reported: set[str] = set()
    for tid in user_trait_ids(model):
        if _nothing_to_check(model, tid):
            continue
        pairs = user_nodes_having_list(model, tid)
        if _is_mixin_trait(model, tid):
            reported.update(node for node, _ in pairs)
        found = selectors[tid] = _parsed_selector(model, tid)
        if found is None:
            continue
        nodes = [node for node, _ in pairs if node not in mixins] if mixins else [node for node, _ in pairs]
        if found[1] is None:
            if found[2] is not None and nodes:
                reported.add(nodes[0])  # the NOTE, at the first node that applies it
            continue
        entry = asked.get(id(found[1]))
        if entry is None:
            entry = asked[id(found[1])] = (found[1], [])
        entry[1].extend(nodes)
    matched: dict[int, set[str]] = {}
    for key, (sel, nodes) in asked.items():
        matched[key] = good = engine.matching(sel, nodes)
        if len(good) < len(nodes):
            reported.update(node for node in nodes if node not in good)
    if not reported:
        return
    noted: set[str] = set()
    for node, traits in user_nodes_with_traits(model):
        if node not in reported:
            continue
        for tid in traits:
            if _is_mixin_trait(model, tid):
                yield error(model, "S3001", node, f"Trait `{idiomatic(tid)}` is a mixin and cannot be applied to "
                                                  f"`{node}`.")
        if node in mixins:
            continue
        for tid in traits:
            found = selectors.get(tid)
            if found is None:
                continue
            text, sel, problem = found
            if sel is None:
                if problem is not None and tid not in noted:
                    noted.add(tid)
                    yield diag(model, "S3008", Severity.NOTE, node,
                               f"the selector of trait `{tid}` cannot be evaluated ({shorten(str(problem), 300)}); "
                               "where it may be applied is not checked")
                continue
            if node not in matched[id(sel)]:
                yield event(model, "S3001", node,
                            f"Trait `{idiomatic(tid)}` cannot be applied to `{node}`. This trait may only be "
                            f"applied to shapes that match the following selector: {' '.join(text.split())}",
                            trait=tid)


def _is_mixin_trait(model: Model, tid: str) -> bool:
    """Whether trait ``tid``'s definition is a ``@mixin`` (it cannot be applied at all)."""
    trait_shape = model.shapes.get(tid)
    return trait_shape is not None and MIXIN in trait_shape.traits and TRAIT in trait_shape.traits


def _mixin_ids(model: Model) -> frozenset[str]:
    """The IDs of the model's ``@mixin`` shapes and of their members: the nodes
    :func:`_is_mixin_node` is true of, for checks that ask it of every node."""
    ids: set[str] = set()
    for shape in shapes_having(model, MIXIN):
        ids.add(shape.id)
        ids.update(member.id for member in shape.members.values())
    return frozenset(ids)


def _parsed_selector(model: Model, tid: str) -> tuple[str, Selector | None, SelectorError | None] | None:
    """The selector of trait ``tid``'s definition for :func:`check_trait_targets`: ``None``
    when there is nothing to check (no definition, or a selector of ``*``); else its text,
    the parsed selector, and ``None`` or, when it cannot be parsed, ``None`` and the error
    (``None`` too when it nests too deeply: an error at the trait definition, reported by
    :func:`check_selectors`)."""
    definition = _trait_definition(model, tid)
    if definition is None:
        return None
    text = definition.get("selector", "*")
    if not isinstance(text, str) or text.strip() in ("*", ""):
        return None
    try:
        return text, parse_selector(text), None
    except SelectorTooDeep:
        return text, None, None
    except SelectorError as e:
        return text, None, e


@validator(Code("S3009", Severity.ERROR, "TraitValue",
                "a selector (`@trait`, `@idRef`) nests functions more than 50 levels deep (see Limits)"),
           rule="this implementation's limit on selector nesting (README, Limits); Smithy 2.0 selectors.rst")
def check_selectors(model: Model) -> Iterable[Diagnostic]:
    """Selectors in trait definitions (``@trait(selector: ...)``) and ``@idRef(selector: ...)``
    nest functions at most :data:`~smithy2cfn.languages.selector.MAX_SELECTOR_NESTING` deep.

    Spec: selectors.rst (the grammar has no depth limit; this implementation parses and
    evaluates nested functions recursively, so deeper ones are an error ``S3009`` at the
    shape whose trait holds the selector rather than a crash or a skipped check).
    """
    for node, traits in user_nodes_having_any(model, (TRAIT, ID_REF)):
        for tid in (TRAIT, ID_REF):
            value = traits.get(tid)
            text = value.get("selector") if isinstance(value, dict) else None
            if not isinstance(text, str):
                continue
            try:
                parse_selector(text)
            except SelectorTooDeep as e:
                yield error(model, "S3009", node,
                            f"the selector of @{tid.split('#')[-1]} on `{node}` is too deeply nested: {e}",
                            hint=f"nest selector functions at most {MAX_SELECTOR_NESTING} levels deep")
            except SelectorError:
                continue  # unsupported syntax: a NOTE where the selector is used (S3008)


@validator(Code("S3020", Severity.ERROR, "Model",
                "a `@pattern` cannot be compiled: groups nested more than 100 deep, or a repetition count too large"
                " (`a{4294967296}`)"),
           Code("S3132", Severity.WARNING, "PatternTrait", "a `@pattern` without a leading `^` or a trailing `$`"),
           rule="reference PatternTraitValidator (smithy-model); Smithy 2.0 constraint-traits.rst, pattern "
                "trait")
def check_pattern_traits(model: Model) -> Iterable[Diagnostic]:
    """Every ``@pattern`` can be compiled within this implementation's limits.

    Spec: constraint-traits.rst §"pattern trait" (the value is an ECMA-262 regular
    expression; the reference compiles it and rejects the model when it cannot). A pattern
    whose groups nest more than :data:`~smithy2cfn.languages.patterns.MAX_PATTERN_NESTING`
    deep, or with a repetition count too large for a regular expression engine
    (``a{4294967296}``), is an error ``S3020`` at the shape or member that has the trait (a
    ``Model`` error, as the reference's ``PatternTrait`` provider reports a pattern it cannot
    compile).
    Syntax Python's ``re`` does not know (``\\p{L}``...) is not reported here: it may be a
    valid ECMA-262 or Java pattern (the schema check warns ``S4202``). A pattern without a
    leading ``^`` or a trailing ``$`` is a ``PatternTrait`` warning (the reference's
    ``PatternTraitValidator``: patterns are not anchored implicitly).
    """
    for node, traits in user_nodes_having(model, PATTERN):
        pattern = traits.get(PATTERN)
        if not isinstance(pattern, str):
            continue
        missing = [what for what, ok in (("leading '^'", pattern.startswith("^")),
                                         ("trailing '$'", pattern.endswith("$"))) if not ok]
        if missing:
            yield warning(model, "S3132", node,
                          f"A pattern trait is applied without a {' and '.join(missing)}, meaning only part of the "
                          "string must match the regular expression. Explicitly anchoring regular expressions is "
                          "preferable because it is more restrictive by default and does not require modelers to "
                          "understand that Smithy patterns are not automatically anchored.")
        if _is_mixin_node(model, node):
            continue
        reason = pattern_limit(pattern)
        if reason is not None:
            # (the reference's PatternTrait provider: a loading error, "Error creating trait")
            yield error(model, "S3020", node, "Error creating trait `pattern`: Invalid pattern trait regular "
                        f"expression: `{shorten(pattern, 200)}`. {reason}", hint="simplify the regular expression")


@validator(Code("S3002", Severity.ERROR, "TraitConflict", "conflicting traits"),
           rule="reference TraitConflictValidator (smithy-model); Smithy 2.0 model.rst, Defining traits "
                "(conflicts)")
def check_trait_conflicts(model: Model) -> Iterable[Diagnostic]:
    """No shape applies two traits where one's definition lists the other in ``conflicts``.

    Spec: model.rst §"Defining traits" (``conflicts``: "the shape IDs of traits that this
    trait conflicts with").
    """
    # (only the nodes that apply a trait whose definition lists conflicts)
    listing = [tid for tid in user_trait_ids(model)
               if isinstance((_trait_definition(model, tid) or {}).get("conflicts"), list)]
    for node, traits in user_nodes_having_any(model, listing):
        # TraitConflictValidator: one event per shape, each conflict one way ("`a` conflicts
        # with `b`", and "`b` conflicts with `a`" when b's definition lists a too), sorted
        lines: list[str] = []
        for tid in traits:
            definition = _trait_definition(model, tid)
            if not definition or not isinstance(definition.get("conflicts"), list):
                continue
            for other in definition["conflicts"]:
                if isinstance(other, str) and ShapeId.absolute(other, ShapeId.namespace(tid)) in traits:
                    lines.append(f"`{idiomatic(tid)}` conflicts with `{idiomatic(ShapeId.absolute(other, ShapeId.namespace(tid)))}`")
        if lines:
            kind = "member" if "$" in node else model.shapes[node].type
            yield error(model, "S3002", node, f"Found conflicting traits on {kind} shape: {', '.join(sorted(lines))}")


@validator(Code("S3005", Severity.ERROR, "ExclusiveStructureMemberTrait", "structurally exclusive trait used twice"),
           rule="reference ExclusiveStructureMemberTraitValidator (smithy-model); Smithy 2.0 model.rst, "
                "Defining traits (structurallyExclusive)")
def check_structurally_exclusive(model: Model) -> Iterable[Diagnostic]:
    """Traits marked ``structurallyExclusive`` appear at most once per aggregate shape.

    Spec: model.rst §"Defining traits" (``structurallyExclusive``: ``member`` — only one
    member of a shape can have the trait; ``target`` — only one member of a shape can target
    a shape that has the trait).
    """
    # Only the shapes with a member that applies a `member` exclusive trait, or that targets
    # a shape applying a `target` one, can break the rule: found from the trait definitions
    # and the model's indexes rather than by a walk over every member's traits.
    exclusive: dict[str, list[str]] = {"member": [], "target": []}
    for definition_shape in shapes_having(model, TRAIT):
        kind = (_trait_definition(model, definition_shape.id) or {}).get("structurallyExclusive")
        if kind in exclusive:
            exclusive[kind].append(definition_shape.id)
    candidates: set[str] = set()
    for tid in exclusive["member"]:
        candidates.update(shape.id for shape in shapes_with_members_having(model, tid))
    if exclusive["target"]:
        index = model.knowledge(NeighborIndex)
        for tid in exclusive["target"]:
            for target in shapes_having(model, tid):
                candidates.update(ShapeId.root(rel.shape) for rel in index.reverse(target.id)
                                  if rel.type is RelationshipType.MEMBER_TARGET)
    if not candidates:
        return
    for shape in user_shapes(model):
        if shape.id not in candidates or not shape.members or MIXIN in shape.traits:
            continue
        by_trait: dict[str, list[str]] = {}
        for member in shape.members.values():
            for tid in member.traits:
                definition = _trait_definition(model, tid)
                if definition and definition.get("structurallyExclusive") == "member":
                    by_trait.setdefault(tid, []).append(member.name)
            target = model.shapes.get(member.target)
            if target is not None:
                for tid in target.traits:
                    definition = _trait_definition(model, tid)
                    if definition and definition.get("structurallyExclusive") == "target":
                        by_trait.setdefault(tid, []).append(member.name)
        for tid, names in sorted(by_trait.items()):
            if len(names) > 1:
                # (ExclusiveStructureMemberTraitValidator's two messages)
                if (_trait_definition(model, tid) or {}).get("structurallyExclusive") == "member":
                    text = f"The `{idiomatic(tid)}` trait can be applied to only a single member of a shape"
                else:
                    text = (f"Only a single member of a structure can target a shape marked with the "
                            f"`{idiomatic(tid)}` trait")
                yield error(model, "S3005", shape.id, f"{text}, but it was found on the following members: "
                                                      f"{ticked(names)}")


@validator(Code("S3006", Severity.WARNING, "UnstableTrait", "unstable trait"),
           rule="reference UnstableTraitValidator (smithy-model); Smithy 2.0 documentation-traits.rst, "
                "unstable trait")
def check_unstable_traits(model: Model) -> Iterable[Diagnostic]:
    """Warn where a trait marked ``@unstable`` is applied.

    Spec: documentation-traits.rst §"unstable trait" ("the shape ... may change in the
    future"); the reference's ``UnstableTraitValidator`` (``UnstableTrait.<trait>`` warnings,
    located at the applied trait).
    """
    unstable = {tid for tid in user_trait_ids(model)
                if (definition := model.shapes.get(tid)) is not None and UNSTABLE in definition.traits
                and TRAIT in definition.traits}
    for node, traits in user_nodes_having_any(model, unstable):
        for tid in traits:
            if tid in unstable:
                yield event(model, "S3006", node, f"This shape applies a trait that is unstable: {tid}", trait=tid,
                            event_id=f"UnstableTrait.{tid}")


@validator(Code("S3108", Severity.ERROR, "EnumTrait",
                "`@enum` trait values: a duplicate `value` or `name`, or a value without `name` where others have "
                "one"),
           Code("S3109", Severity.WARNING, "EnumTrait",
                "`@enum` trait names missing (`EnumNamesPresent`) or not upper case (`EnumTrait.<name>`)"),
           rule="reference EnumTraitValidator (smithy-model); Smithy 2.0 constraint-traits.rst, enum trait")
def check_enum_traits(model: Model) -> Iterable[Diagnostic]:
    """The values of an ``@enum`` trait: unique ``value`` s, unique ``name`` s, names on every
    value or on none (a warning when on none), ``UPPER_SNAKE_CASE`` names (warnings).

    Spec: constraint-traits.rst §"enum trait"; the reference's ``EnumTraitValidator``
    (``EnumTrait`` events; ``EnumNamesPresent`` for an enum without names, and
    ``EnumTrait.<name>`` for a name that is not upper case).
    """
    for node, traits in user_nodes_having(model, ENUM):
        values = traits.get(ENUM)
        if not isinstance(values, list):
            continue
        entries = [v for v in values if isinstance(v, dict)]
        seen_values: set[str] = set()
        for entry in entries:
            value = entry.get("value")
            if isinstance(value, str):
                if value in seen_values:
                    yield error(model, "S3108", node,
                                f"Duplicate enum trait values found with the same `value` property of '{value}'")
                seen_values.add(value)
        names: set[str] = set()
        for entry in entries:
            name = entry.get("name")
            if not isinstance(name, str):
                continue
            if name in names:
                yield error(model, "S3108", node,
                            f"Duplicate enum trait values found with the same `name` property of '{name}'")
            names.add(name)
            if not RECOMMENDED_ENUM_NAME.fullmatch(name):
                yield warning(model, "S3109", node,
                              f"The name `{name}` does not match the recommended enum name format of beginning with "
                              "an uppercase letter, followed by any number of uppercase letters, numbers, or "
                              "underscores.", f"EnumTrait.{name}")
        if names:
            for entry in entries:
                if not isinstance(entry.get("name"), str):
                    yield error(model, "S3108", node,
                                f"`{entry.get('value')}` enum value body is missing the `name` property; if any enum "
                                "trait value contains a `name` property, then all values must contain the `name` "
                                "property.")
        elif entries:
            yield warning(model, "S3109", node, "Enums should define the `name` property to allow rich types to be "
                                                "generated in code generators.", "EnumNamesPresent")


@validator(Code("S3107", Severity.WARNING, "DeprecatedTrait", "a `@deprecated` trait is applied"),
           rule="reference DeprecatedTraitValidator (smithy-model); Smithy 2.0 documentation-traits.rst, "
                "deprecated trait")
def check_deprecated_traits(model: Model) -> Iterable[Diagnostic]:
    """Warn where a trait marked ``@deprecated`` is applied (``@enum``'s deprecation is
    reported by the enum checks).

    Spec: documentation-traits.rst §"deprecated trait"; the reference's
    ``DeprecatedTraitValidator`` (``DeprecatedTrait`` warnings: "This shape applies a trait
    that is deprecated: T, message").
    """
    deprecated = {tid: definition.traits[DEPRECATED] for tid in user_trait_ids(model)
                  if (definition := model.shapes.get(tid)) is not None and tid != ENUM
                  and TRAIT in definition.traits and DEPRECATED in definition.traits}
    for node, traits in user_nodes_having_any(model, deprecated):
        for tid in traits:
            if tid not in deprecated:
                continue
            value = deprecated[tid]
            text = tid
            if isinstance(value, dict) and isinstance(value.get("message"), str):
                text += f", {value['message']}"
            yield event(model, "S3107", node, f"This shape applies a trait that is deprecated: {text}", trait=tid)


_NAMESPACE = lazy(r"(?:_+[A-Za-z0-9]|[A-Za-z])\w*(?:\.(?:_+[A-Za-z0-9]|[A-Za-z])\w*)*")


def _pointer_parts(path: str) -> list[str] | None:
    """The segments of a JSON pointer (RFC 6901: ``~1`` is ``/``, ``~0`` is ``~``), or ``None``
    when ``path`` is not one."""
    if not path.startswith("/"):
        return None
    return [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]


@validator(Code("S3125", Severity.ERROR, "TraitBreakingChanges",
                "a trait definition's `breakingChanges` path names a missing member"),
           rule="reference TraitBreakingChangesValidator (smithy-model); Smithy 2.0 model.rst, Trait "
                "breaking change rules")
def check_trait_breaking_changes(model: Model) -> Iterable[Diagnostic]:
    """The ``path`` of each ``breakingChanges`` rule of a trait definition names members that
    exist, segment by segment from the trait's shape.

    Spec: model.rst §"Trait definition" (``breakingChanges``: "path: a JSON pointer to the
    member of the trait value"); the reference's ``TraitBreakingChangesValidator``
    (``TraitBreakingChanges`` errors on the trait definition).
    """
    for shape in user_shapes_having(model, TRAIT):
        definition = _trait_definition(model, shape.id)
        rules = definition.get("breakingChanges") if definition is not None else None
        if not isinstance(rules, list):
            continue
        for i, rule in enumerate(rules):
            path = rule.get("path") if isinstance(rule, dict) else None
            parts = _pointer_parts(path) if isinstance(path, str) and path else None
            if parts is None:
                continue
            current = shape
            for part in parts:
                member = current.members.get(part)
                following = model.shapes.get(member.target) if member is not None else None
                if following is None:
                    yield error(model, "S3125", shape.id,
                                f"Invalid trait breakingChanges element {i}, '{path}', at segment '{part}': Evaluated "
                                f"shape `{current.id}`, a {'list' if current.type == 'set' else current.type}, has no "
                                f"member named `{part}`")
                    break
                current = following


# --------------------------------------------------------------------------- trait values


#: The classes of the JSON scalars a trait value holds (:func:`check_trait_values`).
_SCALARS = frozenset({str, int, float, bool})

#: What :func:`check_trait_values` knows of a trait from its definition (:func:`_value_kind`).
_NOTHING_TO_CHECK, _EMPTY_OBJECT_PASSES, _PLAIN_STRING, _CHECKED = 0, 1, 2, 3


def _value_kind(model: Model, tid: str) -> int:
    """What :func:`check_trait_values` needs to do for the values of trait ``tid``:
    ``_NOTHING_TO_CHECK`` when it has no definition, or its shape is a ``document`` (any
    value, ``null`` too, passes: ``NodeValidationVisitor`` accepts every value for a
    document); ``_EMPTY_OBJECT_PASSES`` for a structure none of whose members is
    ``@required`` without a ``@default`` (``{}``, an annotation trait's value, passes: no
    member is missing); ``_PLAIN_STRING`` for a ``string`` without the constraint traits a
    string value is checked against (a string value passes:
    :meth:`~smithy2cfn.validation.support.node_values.NodeChecker.passes_plainly`);
    ``_CHECKED`` otherwise."""
    if _trait_definition(model, tid) is None:
        return _NOTHING_TO_CHECK
    shape = model.shapes[tid]
    if shape.type == "document":
        return _NOTHING_TO_CHECK
    if NodeChecker.passes_plainly(model, "", tid):
        return _PLAIN_STRING
    if shape.type == "structure" and not any(REQUIRED in m.traits and DEFAULT not in m.traits
                                             for m in shape.members.values()):
        return _EMPTY_OBJECT_PASSES
    return _CHECKED


@validator(Code("S3003", Severity.ERROR, "TraitValue", "trait value does not match the trait's shape"),
           Code("S3004", Severity.WARNING, "TraitValue", "trait value has a member the trait's shape lacks"),
           rule="reference TraitValueValidator and NodeValidationVisitor (smithy-model); Smithy 2.0 "
                "model.rst, Trait node values")
def check_trait_values(model: Model) -> Iterable[Diagnostic]:
    """Every trait value matches the shape of its trait definition.

    Spec: model.rst §"Trait node values" and §"Defining traits" (the value of a trait must be
    compatible with the shape that defines it), with the constraint traits of
    constraint-traits.rst applied to the value (``length``, ``range``, ``pattern``,
    ``uniqueItems``, ``idRef`` with its ``selector`` and ``failWhenMissing``, ``enum``)
    and ``@required`` members of structure traits (type-refinement-traits.rst). Unknown
    members of structure values are warnings. Messages follow the reference's
    ``TraitValue`` events: ``Error validating trait `T`.path: problem``.
    """
    # Trait by trait (the values a trait's definition lets pass are passed without a
    # checker, most of them), the problems found, by node and trait; then the events, node by
    # node in model order as before, for the nodes that have one.
    found: dict[tuple[str, str], list[tuple[Severity, str, str]] | None] = {}
    memo: dict[tuple, list[tuple[Severity, str, str]]] = {}
    for tid in user_trait_ids(model):
        kind = _value_kind(model, tid)
        if kind == _NOTHING_TO_CHECK:
            continue
        pairs = user_nodes_having_list(model, tid)
        # (the values the kind lets pass, NodeChecker.passes_plainly, left out by one comprehension
        # rather than a turn of the loop each: most of them, SageMaker's 11,000 documentation
        # strings and empty objects of structure traits without required members)
        if kind == _PLAIN_STRING:
            pairs = [pair for pair in pairs if pair[1][tid].__class__ is not str]
        elif kind == _EMPTY_OBJECT_PASSES:
            pairs = [pair for pair in pairs if (v := pair[1][tid]).__class__ is not dict or v]
        for node, traits in pairs:
            value = traits[tid]
            if value is None:
                # null (an annotation of a trait that is no structure, map or list, or an
                # explicit null): NodeValidationVisitor.invalidShape, nulls not allowed here
                if NULL_EXPECTED.get(model.shapes[tid].type) is not None:
                    found[node, tid] = None
                continue
            namespace = ShapeId.namespace(node)
            # What a checker finds depends on the value, the trait and the namespace only: a
            # scalar, or an object of scalars (`@length(min: 1)`, `@httpHeader("x-amz-id")`),
            # seen before gets the problems found then (the key tells 1 from 1.0 and true).
            key = None
            if value.__class__ in _SCALARS:
                key = (tid, namespace, value.__class__, value)
            elif value.__class__ is dict and all(v.__class__ in _SCALARS for v in value.values()):
                key = (tid, namespace, dict, tuple((k, v.__class__, v) for k, v in value.items()))
            problems = memo.get(key) if key is not None else None
            if problems is None:
                checker = NodeChecker(model, namespace)
                checker.check(value, tid, {}, "")
                problems = checker.problems
                if key is not None:
                    memo[key] = problems
            if problems:
                found[node, tid] = problems
    if not found:
        return
    nodes = {node for node, _ in found}
    for node, traits in user_nodes_with_traits(model):
        if node not in nodes:
            continue
        for tid in traits:
            if (node, tid) not in found:
                continue
            problems = found[node, tid]
            if problems is None:
                kind_name = model.shapes[tid].type
                yield event(model, "S3003", node, f"Error validating trait `{idiomatic(tid)}`: Expected "
                            f"{NULL_EXPECTED[kind_name]} value for {kind_name} shape, `{tid}`; found null value",
                            trait=tid, severity=Severity.ERROR, event_id="TraitValue")
                continue
            for severity, path, message in problems:
                text = f"Error validating trait `{idiomatic(tid)}`{shorten(path)}: {message}"
                code = "S3003" if severity >= Severity.ERROR else "S3004"
                # (located at the trait, where the reference's node value starts)
                yield event(model, code, node, text, trait=tid, severity=severity, event_id="TraitValue")


__all__ = [
    "check_deprecated_traits",
    "check_enum_traits",
    "check_pattern_traits",
    "check_selectors",
    "check_structurally_exclusive",
    "check_trait_conflicts",
    "check_trait_breaking_changes",
    "check_trait_targets",
    "check_trait_values",
    "check_unstable_traits",
]
