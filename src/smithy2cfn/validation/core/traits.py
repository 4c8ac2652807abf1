"""Trait checks: where traits may be applied, conflicts, and trait values.

Spec: model.rst §"Defining traits" (``selector``, ``conflicts``, ``structurallyExclusive``),
§"Trait node values" (a trait value must match its trait shape), constraint-traits.rst
(``length``, ``range``, ``pattern``, ``uniqueItems``, ``idRef``, ``enum``) and
type-refinement-traits.rst (``default``, ``required``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity
from smithy2cfn.languages.patterns import PatternMatcher, compile_pattern
from smithy2cfn.languages.selector import (
    MAX_SELECTOR_NESTING,
    SelectorEngine,
    SelectorError,
    SelectorTooDeep,
    parse_selector,
)
from smithy2cfn.model.nodes import canonical, describe, is_number, node_type, number_problem, shorten
from smithy2cfn.model.shapes import Model, Shape, ShapeId
from smithy2cfn.model.traits import (
    CLIENT_OPTIONAL,
    DEFAULT,
    DEPRECATED,
    ENUM,
    ENUM_VALUE,
    ID_REF,
    INPUT,
    LENGTH,
    MIXIN,
    PATTERN,
    RANGE,
    REQUIRED,
    TRAIT,
    UNIQUE_ITEMS,
    UNSTABLE,
)
from smithy2cfn.validation.common import (
    diag,
    error,
    idiomatic,
    user_nodes_having,
    user_nodes_with_traits,
    user_shapes,
    user_shapes_having,
    warning,
)
from smithy2cfn.validation.located import event, ticked

_INT_BOUNDS = {
    "byte": (-(2**7), 2**7 - 1),
    "short": (-(2**15), 2**15 - 1),
    "integer": (-(2**31), 2**31 - 1),
    "intEnum": (-(2**31), 2**31 - 1),
    "long": (-(2**63), 2**63 - 1),
}
_FLOATS = {"float", "double", "bigDecimal"}
#: The node type NodeValidationVisitor expects for each shape type (a null trait value
#: is reported as "Expected <type> value ...; found null value"; a document takes it).
_NULL_EXPECTED = {
    "string": "string", "enum": "string", "blob": "string", "boolean": "boolean",
    **dict.fromkeys((*_INT_BOUNDS, *_FLOATS, "bigInteger"), "number"),
    "list": "array", "set": "array", "map": "object", "structure": "object", "union": "object",
}


def _trait_definition(model: Model, trait_id: str) -> dict | None:
    """The ``smithy.api#trait`` value of a trait's definition, or ``None``."""
    shape = model.shapes.get(trait_id)
    if shape is None:
        return None
    value = shape.traits.get(TRAIT)
    return value if isinstance(value, dict) else None


def _absolute(ref: str, namespace: str) -> str:
    return ref if "#" in ref else f"{namespace}#{ref}"


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
    noted: set[str] = set()
    # Traits with nothing to check anywhere (not a mixin, and no selector other than `*`:
    # most traits, `@documentation` first) are found once; nodes carrying only those are passed.
    trivial: dict[str, bool] = {}
    for node, traits in user_nodes_with_traits(model):
        for tid in traits:
            known = trivial.get(tid)
            if known is None:
                known = trivial[tid] = _nothing_to_check(model, tid)
            if not known:
                break
        else:
            continue
        for tid in traits:
            trait_shape = model.shapes.get(tid)
            if trait_shape is not None and MIXIN in trait_shape.traits and TRAIT in trait_shape.traits:
                yield error(model, "S3001", node, f"Trait `{idiomatic(tid)}` is a mixin and cannot be applied to "
                                                  f"`{node}`.")
        if _is_mixin_node(model, node):
            continue
        for tid in traits:
            definition = _trait_definition(model, tid)
            if definition is None:
                continue
            text = definition.get("selector", "*")
            if not isinstance(text, str) or text.strip() in ("*", ""):
                continue
            try:
                sel = parse_selector(text)
            except SelectorTooDeep:
                continue  # an error at the trait definition (check_selectors)
            except SelectorError as e:
                if tid not in noted:
                    noted.add(tid)
                    yield diag(model, "S3008", Severity.NOTE, node,
                               f"the selector of trait `{tid}` cannot be evaluated ({shorten(str(e), 300)}); "
                               "where it may be applied is not checked")
                continue
            if not engine.matches(sel, node):
                yield event(model, "S3001", node,
                            f"Trait `{idiomatic(tid)}` cannot be applied to `{node}`. This trait may only be "
                            f"applied to shapes that match the following selector: {' '.join(text.split())}",
                            trait=tid)


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
    for node, traits in user_nodes_with_traits(model):
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
        compiled, kind, reason = compile_pattern(pattern)
        if kind == "limit":
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
    for node, traits in user_nodes_with_traits(model):
        # TraitConflictValidator: one event per shape, each conflict one way ("`a` conflicts
        # with `b`", and "`b` conflicts with `a`" when b's definition lists a too), sorted
        lines: list[str] = []
        for tid in traits:
            definition = _trait_definition(model, tid)
            if not definition or not isinstance(definition.get("conflicts"), list):
                continue
            for other in definition["conflicts"]:
                if isinstance(other, str) and _absolute(other, ShapeId.namespace(tid)) in traits:
                    lines.append(f"`{idiomatic(tid)}` conflicts with `{idiomatic(_absolute(other, ShapeId.namespace(tid)))}`")
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
    for shape in user_shapes(model):
        if not shape.members or MIXIN in shape.traits:
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
    for node, traits in user_nodes_with_traits(model):
        for tid in traits:
            definition = model.shapes.get(tid)
            if definition is not None and UNSTABLE in definition.traits \
                    and TRAIT in definition.traits:
                yield event(model, "S3006", node, f"This shape applies a trait that is unstable: {tid}", trait=tid,
                            event_id=f"UnstableTrait.{tid}")


#: The reference's recommended enum name (``EnumShapeValidator``, ``EnumTraitValidator``).
RECOMMENDED_ENUM_NAME = re.compile(r"[A-Z]+[A-Z_0-9]*")


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
    for node, traits in user_nodes_with_traits(model):
        for tid in traits:
            definition = model.shapes.get(tid)
            if definition is None or tid == ENUM or TRAIT not in definition.traits \
                    or DEPRECATED not in definition.traits:
                continue
            value = definition.traits[DEPRECATED]
            text = tid
            if isinstance(value, dict) and isinstance(value.get("message"), str):
                text += f", {value['message']}"
            yield event(model, "S3107", node, f"This shape applies a trait that is deprecated: {text}", trait=tid)


_NAMESPACE = re.compile(r"(?:_+[A-Za-z0-9]|[A-Za-z])\w*(?:\.(?:_+[A-Za-z0-9]|[A-Za-z])\w*)*")


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


#: One unit of work of :class:`_NodeChecker`: ``(value, shape ID, member traits, path)``.
_Work = tuple[Any, str, dict[str, Any], str]


class _NodeChecker:
    """Checks a JSON value against a shape (model.rst §"Trait node values").

    Problems are collected as ``(severity, path, message)`` in :attr:`problems`. The value
    is walked with an explicit stack, so its depth is not limited by Python's recursion
    limit (a trait value can be as deep as its reader allows).
    """

    def __init__(self, model: Model, owner_namespace: str, constraints: bool = True,
                 zero_range_warning: bool = False, relative_ids: bool = True) -> None:
        self.model = model
        #: ``@idRef`` values may be relative shape IDs (resolved in ``owner_namespace``), as in
        #: trait values of the IDL; metadata values take absolute IDs only.
        self.relative_ids = relative_ids
        self.constraints = constraints
        #: The reference's ``RANGE_TRAIT_ZERO_VALUE_WARNING``: a ``0`` outside a ``@range`` is
        #: a WARNING (``@default`` values, metadata), so that 1.0 models convert losslessly.
        self.zero_range_warning = zero_range_warning
        self.engine = model.knowledge(SelectorEngine)
        self.namespace = owner_namespace
        self.problems: list[tuple[Severity, str, str]] = []
        #: Index in :attr:`problems` → event ID suffix (``Member.InvalidRange`` or
        #: ``Target.InvalidRange``: a ``@range`` violation on the member or its target).
        self.suffixes: dict[int, str] = {}

    def add(self, path: str, message: str, severity: Severity = Severity.ERROR) -> None:
        self.problems.append((severity, path, message))

    def constraint(self, path: str, message: str) -> None:
        """A constraint-trait violation (``length``, ``range``...); dropped in types-only mode."""
        if self.constraints:
            self.add(path, message)

    def check(self, value: Any, shape_id: str, constraints: dict[str, Any], path: str) -> None:
        """Check ``value`` against shape ``shape_id``; ``constraints`` are the member's traits.

        Nested values are checked in document order; problems go to :attr:`problems`.
        """
        stack: list[_Work] = [(value, shape_id, constraints, path)]
        while stack:
            stack.extend(reversed(self._check_one(*stack.pop())))

    def _check_one(self, value: Any, shape_id: str, constraints: dict[str, Any], path: str) -> list[_Work]:
        """Check one value; return the nested values still to check."""
        shape = self.model.shapes.get(shape_id)
        if shape is None or value is None:
            return []
        traits = {**shape.traits, **constraints}
        # Constraint traits of the member and of its target both apply (the reference
        # validates the value against the member, then against its target).
        layers = [("Target", shape.traits)] + ([("Member", constraints)] if constraints else [])
        kind = shape.type
        if kind == "document":
            return []
        if kind in ("structure", "union"):
            return self._structure(value, shape, path)
        if kind in ("list", "set"):
            return self._list(value, shape, traits, layers, path)
        if kind == "map":
            return self._map(value, shape, layers, path)
        if kind in ("string", "enum"):
            self._string(value, shape, traits, layers, path)
        elif kind == "blob":
            if not isinstance(value, str):
                self._type_error(value, "string", shape, path)
        elif kind == "boolean":
            if not isinstance(value, bool):
                self._type_error(value, "boolean", shape, path)
        elif kind == "timestamp":
            if not isinstance(value, str) and not is_number(value):
                self._type_error(value, "string or number", shape, path)
            elif number_problem(value) is not None:
                self.add(path, f"Invalid timestamp value for `{shape.id}`: {number_problem(value)}")
        elif kind in _INT_BOUNDS or kind in _FLOATS or kind == "bigInteger":
            self._number(value, shape, layers, path)
        return []

    def _type_error(self, value: Any, expected: str, shape: Shape, path: str) -> None:
        # NodeValidationVisitor.invalidShape: a string, number or boolean found is shown
        if isinstance(value, bool):
            shown = f", `{'true' if value else 'false'}`"
        elif isinstance(value, str):
            shown = f", `{value}`"
        elif is_number(value):
            shown = f", `{describe(value)}`"
        else:
            shown = ""
        self.add(path, f"Expected {expected} value for {shape.type} shape, `{shape.id}`; "
                       f"found {node_type(value)} value{shown}")

    def _structure(self, value: Any, shape: Shape, path: str) -> list[_Work]:
        if not isinstance(value, dict):
            self._type_error(value, "object", shape, path)
            return []
        todo: list[_Work] = []
        for key, v in value.items():
            member = shape.members.get(key)
            if member is None:
                self.add(path, f"Invalid {shape.type} member `{key}` found for `{shape.id}`", Severity.WARNING)
                continue
            if (v is None and REQUIRED in member.traits and shape.type != "union"
                    and CLIENT_OPTIONAL not in member.traits and INPUT not in shape.traits):
                # a required member given as null, where the reference's NullableIndex (client
                # mode: not @clientOptional, not in an @input structure) says it cannot be
                # (NodeValidationVisitor.checkNullMember)
                self.add(f"{path}.{key}", f"Required structure member `{key}` for `{shape.id}` cannot be null")
                continue
            todo.append((v, member.target, member.traits, f"{path}.{key}"))
        if shape.type == "union":
            if len(value) != 1:
                self.add(path, f"union values must contain exactly one member; `{shape.id}` got {len(value)}")
            return todo
        for name, member in shape.members.items():
            if REQUIRED in member.traits and name not in value and DEFAULT not in member.traits:
                self.add(path, f"Missing required structure member `{name}` for `{shape.id}`")
        return todo

    def _list(self, value: Any, shape: Shape, traits: dict, layers: list[tuple[str, dict]],
              path: str) -> list[_Work]:
        if not isinstance(value, list):
            self._type_error(value, "array", shape, path)
            return []
        for _source, layer in layers:
            self._length(len(value), layer, shape, path, "items")
        if UNIQUE_ITEMS in traits or shape.type == "set":
            seen: set[str] = set()
            for item in value:
                key = canonical(item)
                if key in seen:
                    self.constraint(path, f"Value provided for `{shape.id}` must have unique items, but "
                                   f"found duplicate: {describe(item)}")
                    break
                seen.add(key)
        member = shape.members.get("member")
        if member is None:
            return []
        return [(item, member.target, member.traits, f"{path}.{i}") for i, item in enumerate(value)]

    def _map(self, value: Any, shape: Shape, layers: list[tuple[str, dict]], path: str) -> list[_Work]:
        if not isinstance(value, dict):
            self._type_error(value, "object", shape, path)
            return []
        for _source, layer in layers:
            self._length(len(value), layer, shape, path, "entries")
        key, val = shape.members.get("key"), shape.members.get("value")
        todo: list[_Work] = []
        for k, v in value.items():
            if key is not None:
                todo.append((k, key.target, key.traits, f"{path}.{k}"))
            if val is not None:
                todo.append((v, val.target, val.traits, f"{path}.{k}"))
        return todo

    def _length(self, size: int, traits: dict, shape: Shape, path: str, unit: str) -> None:
        length = traits.get(LENGTH)
        if not isinstance(length, dict):
            return
        lo, hi = length.get("min"), length.get("max")
        if is_number(lo) and size < lo:
            self.constraint(path, f"Value provided for `{shape.id}` must have at least {describe(lo)} {unit}, "
                                  f"but the provided value only has {size} {unit}")
        if is_number(hi) and size > hi:
            self.constraint(path, f"Value provided for `{shape.id}` must have no more than {describe(hi)} "
                                  f"{unit}, but the provided value has {size} {unit}")

    def _string(self, value: Any, shape: Shape, traits: dict, layers: list[tuple[str, dict]], path: str) -> None:
        if not isinstance(value, str):
            self._type_error(value, "string", shape, path)
            return
        if shape.type == "enum":
            allowed = sorted(v for v in (m.traits.get(ENUM_VALUE, m.name) for m in shape.members.values())
                             if isinstance(v, str))
            if allowed and value not in allowed:
                self.add(path, f"String value provided for `{shape.id}` must be one of the following "
                               f"values: {', '.join(f'`{a}`' for a in allowed)}")
        enum_trait = traits.get(ENUM)
        if isinstance(enum_trait, list):
            allowed = sorted(e["value"] for e in enum_trait if isinstance(e, dict) and isinstance(e.get("value"), str))
            if allowed and value not in allowed:
                self.add(path, f"String value provided for `{shape.id}` must be one of the following "
                               f"values: {', '.join(f'`{a}`' for a in allowed)}")
        for _source, layer in layers:
            self._length(len(value), layer, shape, path, "characters")
        for pattern in dict.fromkeys(layer.get(PATTERN) for _source, layer in layers):
            if not isinstance(pattern, str):
                continue
            # A pattern Python cannot compile is reported where it is applied
            # (check_pattern_traits, or S4202 for Java-only syntax); not checked here.
            compiled, _kind, _reason = compile_pattern(pattern)
            if compiled is not None and self.constraints:
                found = self.model.knowledge(PatternMatcher).search(pattern, value)
                if found is False:
                    self.constraint(path, f"String value provided for `{shape.id}` must match regular "
                                          f"expression: {pattern}")
                elif found is None:
                    self.add(path, f"String value provided for `{shape.id}` was not checked against its "
                                   f"regular expression {pattern}: matching takes too long (a pattern with "
                                   "nested repetitions, such as `(a+)+`, can take exponential time)",
                             Severity.WARNING)
        id_ref = traits.get(ID_REF)
        if isinstance(id_ref, dict) and self.constraints:
            self._id_ref(value, id_ref, path)

    def _id_ref(self, value: str, id_ref: dict, path: str) -> None:
        """``@idRef`` (constraint-traits.rst §"idRef trait")."""
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*(#[A-Za-z_][A-Za-z0-9_]*(\$[A-Za-z_][A-Za-z0-9_]*)?)?",
                            value) or ("#" not in value and not self.relative_ids):
            self.add(path, f"Invalid shape ID: {shorten(value, 200)}")
            return
        target = value
        if "#" not in value:
            for ns in (self.namespace, "smithy.api"):
                if f"{ns}#{value}" in self.model.shapes:
                    target = f"{ns}#{value}"
                    break
        exists = (self.model.member(target) is not None) if "$" in target else target in self.model.shapes
        if not exists:
            if id_ref.get("failWhenMissing") is True:
                self.add(path, str(id_ref.get("errorMessage") or f"Shape ID `{value}` was not found in the model"))
            return
        selector = id_ref.get("selector")
        if isinstance(selector, str) and selector.strip() not in ("", "*"):
            try:
                sel = parse_selector(selector)
            except SelectorError:
                return  # reported where the idRef trait is applied (check_selectors)
            if not self.engine.matches(sel, target):
                self.add(path, str(id_ref.get("errorMessage")
                                   or f"Shape ID `{target}` does not match selector `{selector}`"))

    def _number(self, value: Any, shape: Shape, layers: list[tuple[str, dict]], path: str) -> None:
        if not is_number(value):
            if shape.type in ("bigInteger", "bigDecimal") and isinstance(value, str):
                return
            self._type_error(value, "number", shape, path)
            return
        if isinstance(value, float) and math.isnan(value):
            self.add(path, f"{shape.type} value for `{shape.id}` must be a number: NaN is not a JSON number")
            return
        if shape.type in _INT_BOUNDS or shape.type == "bigInteger":
            if isinstance(value, float) and not math.isfinite(value):
                # a literal beyond the range of a double (1e400) is read as Infinity
                self.add(path, f"{shape.type} value for `{shape.id}` must be an integer, but found "
                               f"{describe(value)} (a number beyond the range of a double)")
                return
            if isinstance(value, float) and not value.is_integer():
                self.add(path, f"{shape.type} shapes must not have floating point values, but found "
                               f"`{describe(value)}` provided for `{shape.id}`")
                return
            bounds = _INT_BOUNDS.get(shape.type)
            if bounds and not bounds[0] <= value <= bounds[1]:
                self.add(path, f"{shape.type} value must be between {bounds[0]} and {bounds[1]}, but "
                               f"found {describe(value)} for `{shape.id}`")
                return
        # float, double and bigDecimal take any number: Smithy keeps a literal beyond the
        # range of a double (2e308) as a BigDecimal. Where such a value would be written to
        # a schema, the emitter reports it (S4103-S4105).
        if shape.type == "intEnum":
            allowed = [m.traits.get(ENUM_VALUE) for m in shape.members.values()]
            if allowed and value not in allowed:
                ints = sorted(a for a in allowed if isinstance(a, int) and not isinstance(a, bool))
                self.add(path, f"Integer value provided for `{shape.id}` must be one of the following "
                               f"values: {', '.join(f'`{describe(a)}`' for a in ints)}")
        for source, layer in layers:
            rng = layer.get(RANGE)
            if isinstance(rng, dict):
                lo, hi = rng.get("min"), rng.get("max")
                if is_number(lo) and value < lo:
                    self._range(path, source, value, f"Value provided for `{shape.id}` must be greater than or "
                                                     f"equal to {describe(lo)}, but found {describe(value)}")
                if is_number(hi) and value > hi:
                    self._range(path, source, value, f"Value provided for `{shape.id}` must be less than or "
                                                     f"equal to {describe(hi)}, but found {describe(value)}")

    def _range(self, path: str, source: str, value: Any, message: str) -> None:
        """A ``@range`` violation (``source``: ``Member`` or ``Target``, where the trait is)."""
        if not self.constraints:
            return
        self.suffixes[len(self.problems)] = f"{source}.InvalidRange"
        self.add(path, message, Severity.WARNING if self.zero_range_warning and value == 0 else Severity.ERROR)


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
    for node, traits in user_nodes_with_traits(model):
        for tid, value in traits.items():
            if _trait_definition(model, tid) is None:
                continue
            if value is None:
                # null (an annotation of a trait that is no structure, map or list, or an
                # explicit null): NodeValidationVisitor.invalidShape, nulls not allowed here
                expected = _NULL_EXPECTED.get(model.shapes[tid].type)
                if expected is not None:
                    yield event(model, "S3003", node, f"Error validating trait `{idiomatic(tid)}`: Expected "
                                f"{expected} value for {model.shapes[tid].type} shape, `{tid}`; found null value",
                                trait=tid, severity=Severity.ERROR, event_id="TraitValue")
                continue
            checker = _NodeChecker(model, ShapeId.namespace(node))
            checker.check(value, tid, {}, "")
            for severity, path, message in checker.problems:
                text = f"Error validating trait `{idiomatic(tid)}`{shorten(path)}: {message}"
                code = "S3003" if severity >= Severity.ERROR else "S3004"
                # (located at the trait, where the reference's node value starts)
                yield event(model, code, node, text, trait=tid, severity=severity, event_id="TraitValue")


__all__ = [
    "RECOMMENDED_ENUM_NAME",
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
