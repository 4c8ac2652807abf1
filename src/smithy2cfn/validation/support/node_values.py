"""Checking a JSON node value against a shape: the reference's ``NodeValidationVisitor``.

Trait values (model.rst §"Trait node values"), ``@default`` values, metadata, ``@examples``
input and output, protocol and smoke test parameters, and endpoint test inputs are all
checked by one :class:`NodeChecker`: the value's type against the shape's type, the
constraint traits of the member and of its target (constraint-traits.rst: ``length``,
``range``, ``pattern``, ``uniqueItems``, ``idRef``, ``enum``), required and unknown
structure members (type-refinement-traits.rst).
"""

from __future__ import annotations

import math
import re

from smithy2cfn.diagnostics import Severity
from smithy2cfn.languages.patterns import PatternMatcher, compile_pattern
from smithy2cfn.languages.selector import SelectorEngine, SelectorError, parse_selector
from smithy2cfn.model.nodes import canonical, describe, is_number, node_type, number_problem, shorten
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.model.traits import (
    CLIENT_OPTIONAL,
    DEFAULT,
    ENUM,
    ENUM_VALUE,
    ID_REF,
    INPUT,
    LENGTH,
    PATTERN,
    RANGE,
    REQUIRED,
    UNIQUE_ITEMS,
)
from smithy2cfn.prelude import PRELUDE_NAMESPACE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_INT_BOUNDS = {
    "byte": (-(2**7), 2**7 - 1),
    "short": (-(2**15), 2**15 - 1),
    "integer": (-(2**31), 2**31 - 1),
    "intEnum": (-(2**31), 2**31 - 1),
    "long": (-(2**63), 2**63 - 1),
}
_FLOATS = {"float", "double", "bigDecimal"}
#: The traits :meth:`NodeChecker._string` applies to a string value.
_STRING_CONSTRAINTS = frozenset({ENUM, LENGTH, PATTERN, ID_REF})
#: The node type NodeValidationVisitor expects for each shape type (a null trait value
#: is reported as "Expected <type> value ...; found null value"; a document takes it).
NULL_EXPECTED = {
    "string": "string", "enum": "string", "blob": "string", "boolean": "boolean",
    **dict.fromkeys((*_INT_BOUNDS, *_FLOATS, "bigInteger"), "number"),
    "list": "array", "set": "array", "map": "object", "structure": "object", "union": "object",
}


#: One unit of work of :class:`NodeChecker`: ``(value, shape ID, member traits, path)``.
if TYPE_CHECKING:
    _Work = tuple[Any, str, dict[str, Any], str]


class EnumValues:
    """The string values of each ``enum`` shape (its members' ``@enumValue``, else their
    names), sorted, as a model index (``model.knowledge(EnumValues).of(shape)``): a node
    value checker asks for them for each value it checks."""

    def __init__(self, model: Model) -> None:
        self._values: dict[str, list[str]] = {}

    def of(self, shape: Shape) -> list[str]:
        """The sorted string values of enum ``shape``."""
        found = self._values.get(shape.id)
        if found is None:
            found = self._values[shape.id] = sorted(
                v for v in (m.traits.get(ENUM_VALUE, m.name) for m in shape.members.values()) if isinstance(v, str))
        return found


class NodeChecker:
    """Checks a JSON value against a shape (model.rst §"Trait node values"; the reference's
    ``NodeValidationVisitor``).

    ``NodeChecker(model, owner_namespace)``, then :meth:`check` once or more; problems are
    collected as ``(severity, path, message)`` in :attr:`problems` (``path``: ``.member.0``
    from the value's root), with the event ID suffix of ``@range`` problems in
    :attr:`suffixes`. Options: ``constraints=False`` checks the types only (the constraint
    traits are not applied); ``zero_range_warning`` makes a ``0`` outside a ``@range`` a
    WARNING; ``relative_ids=False`` takes absolute ``@idRef`` values only. The value is
    walked with an explicit stack, so its depth is not limited by Python's recursion limit
    (a trait value can be as deep as its reader allows). Never raises on a bad value.
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

    @staticmethod
    def passes_plainly(model: Model, value: Any, shape_id: str) -> bool:
        """True when :meth:`check` of ``value`` against ``shape_id`` (no member constraints)
        is sure to find nothing, known without a checker: a string for a ``string`` shape
        with none of the traits :meth:`_string` applies (``@enum``, ``@length``,
        ``@pattern``, ``@idRef``). Most trait values are such (``@documentation``), and
        :func:`~smithy2cfn.validation.core.traits.check_trait_values` skips them."""
        if value.__class__ is not str:
            return False
        shape = model.shapes.get(shape_id)
        return shape is not None and shape.type == "string" and _STRING_CONSTRAINTS.isdisjoint(shape.traits)

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
        kind = shape.type
        if kind == "document":
            return []
        if kind in ("structure", "union"):
            return self._structure(value, shape, path)
        traits = {**shape.traits, **constraints} if constraints else shape.traits
        # Constraint traits of the member and of its target both apply (the reference
        # validates the value against the member, then against its target).
        layers = [("Target", shape.traits)] + ([("Member", constraints)] if constraints else [])
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
        if shape.type != "enum" and _STRING_CONSTRAINTS.isdisjoint(traits):
            return  # (nothing below applies)
        if shape.type == "enum":
            allowed = self.model.knowledge(EnumValues).of(shape)
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
        # each pattern once; a @pattern that is not a string (any JSON value in a hostile model)
        # is reported by the trait's own check, not here
        for pattern in dict.fromkeys(p for _source, layer in layers if isinstance(p := layer.get(PATTERN), str)):
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
            for ns in (self.namespace, PRELUDE_NAMESPACE):
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


__all__ = ["NULL_EXPECTED", "EnumValues", "NodeChecker"]
