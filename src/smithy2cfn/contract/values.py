"""Values that satisfy (or break) a resource schema, made deterministically, and the check
of a value against the schema.

:class:`SchemaValues` walks one resource schema (its ``$ref``\\ s to ``#/definitions/...``,
``allOf``, ``oneOf``/``anyOf``, ``enum``, ``const``) and makes, for a subschema, a value
that satisfies its keywords: ``pattern`` (a string matching the regular expression, made
with the ``rstr`` package's ``Xeger`` from a :class:`random.Random` seeded with the
property's path, so the same schema always gives the same value), ``minLength`` /
``maxLength``, ``minimum`` / ``maximum`` (exclusive ones too) and ``multipleOf``,
``minItems`` / ``maxItems`` / ``uniqueItems``, ``required`` and ``minProperties`` of
nested objects, ``patternProperties`` (one entry), ``format: date-time``. A ``variant``
number gives another value for the same subschema (the update set changes what it can).

:func:`schema_validator` is JSON Schema draft-07 validation (the ``jsonschema`` package)
with ``pattern`` and ``patternProperties`` matched by the ``regex`` package with a timeout
(:func:`pattern_search`), as the model's ``@pattern`` values were matched when it was
validated: it reads the classes Python's ``re`` does not know (``\\p{L}``, and Java's
``\\p{Print}`` that some AWS models use, as CloudFormation's Java validator does), and a
backtracking pattern cannot hang the run. A pattern it cannot compile matches everything
(it was reported when the model was validated).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import random
import re
import string
import warnings
from collections.abc import Iterator

from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: How deep :meth:`SchemaValues.value` follows nested objects and arrays.
MAX_DEPTH = 24
#: How many ``$ref`` hops one subschema may take before it counts as unresolvable.
MAX_REF_HOPS = 64
#: Characters a generated string may hold where a pattern allows "any" character: printable
#: ASCII without ``{``, ``}`` (cfn-cli reads ``{{name}}`` in an input file as a stack export
#: to look up), quotes, backslash and whitespace other than the space.
SAFE_CHARS = string.ascii_letters + string.digits + "-_.:/@+=,!#%&*()[];<>?|~^$ "
#: What ``.``, a negated class and ``[^x]`` draw from first: letters and digits make values
#: a reader recognises (``arn:aws:iam::123:role/Ab3``), :data:`SAFE_CHARS` when they are excluded.
PLAIN_CHARS = string.ascii_letters + string.digits
#: Upper bound of repetitions ``*``, ``+`` and ``{n,}`` make, tried in this order until the
#: value also fits ``minLength`` / ``maxLength`` (``None``: the pattern's own bound).
REPEAT_LIMITS = (4, 1, 0, 12, 40, 120, None)
#: Seeds tried per repetition limit.
SEEDS_PER_LIMIT = 3
#: Seconds a pattern may take to match one value (``regex`` package) before it counts as matched.
MATCH_TIMEOUT = 0.25
#: A string that satisfies an unconstrained string schema, before padding or cutting.
PLAIN_STRING = "example"


class NoValue(Exception):
    """No value satisfying the subschema could be made; ``rule`` names the keyword."""

    def __init__(self, rule: str, pointer: str) -> None:
        super().__init__(f"{rule} at {pointer}")
        self.rule = rule
        self.pointer = pointer


# --------------------------------------------------------------------------- patterns


@functools.lru_cache(maxsize=4096)
def _compiled(pattern: str) -> Any:
    """The pattern compiled by the ``regex`` package (as :mod:`smithy2cfn.languages.patterns`
    matches ``@pattern`` values: it reads the Java classes some models use, ``\\p{Print}``,
    and its matches can time out), ``None`` when it does not compile."""
    import regex

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return regex.compile(pattern)
    except (regex.error, OverflowError, RecursionError, ValueError):
        return None


def pattern_search(pattern: str, text: str) -> bool:
    """True when ``text`` holds a match of ``pattern`` (JSON Schema's ``pattern`` is a
    search, not a full match); a pattern that does not compile, or whose match takes more
    than :data:`MATCH_TIMEOUT` seconds (``^(a+)+$`` on a long value), matches."""
    compiled = _compiled(pattern)
    if compiled is None:
        return True
    try:
        return compiled.search(text, timeout=MATCH_TIMEOUT) is not None
    except TimeoutError:
        return True


def _xeger_class() -> type:
    """``rstr.Xeger`` made deterministic and tidy: negated classes and ``.`` draw from
    :data:`SAFE_CHARS` in a fixed order (rstr builds them from sets, whose order changes
    with the process's hash seed), and repetitions stop at a settable bound."""
    import rstr  # a well-kept generator of strings matching a regular expression

    class Xeger(rstr.Xeger):  # type: ignore[misc,name-defined]
        repeat_limit: int | None = None

        def __init__(self, rng: random.Random) -> None:
            super().__init__(rng, nonword="".join(sorted(set(SAFE_CHARS) - set(string.ascii_letters + string.digits
                                                                               + "_"))),
                             printable=SAFE_CHARS)
            self._classes: dict[str, list[str]] = {}
            self._cases: dict[str, Any] = dict(self._cases)
            self._cases["any"] = lambda _x: self._random.choice(PLAIN_CHARS)
            self._cases["not_literal"] = lambda x: self._random.choice(PLAIN_CHARS.replace(chr(x), ""))

        def _handle_in(self, value: Any) -> Any:
            key = repr(value)  # a class's characters, listed once (a class of 55,000 is common)
            candidates = self._classes.get(key)
            if candidates is None:
                candidates = list(itertools.chain(*(self._handle_state(i) for i in value)))
                if candidates and candidates[0] is False:
                    excluded = set(candidates[1:])
                    candidates = [c for c in PLAIN_CHARS if c not in excluded] or [c for c in SAFE_CHARS
                                                                                   if c not in excluded]
                else:  # letters and digits of the class when it has some ([\u0020-\uD7FF] is mostly CJK)
                    candidates = [c for c in candidates if c in PLAIN_CHARS] or candidates
                self._classes[key] = candidates
            if not candidates:
                raise ValueError("empty character class")
            return self._random.choice(candidates)

        def _handle_repeat(self, start_range: int, end_range: int, value: Any) -> str:
            end = min(end_range, 4096)
            if self.repeat_limit is not None:
                end = max(start_range, min(end, start_range + self.repeat_limit))
            if start_range > 4096:
                raise ValueError("repetition too long")
            times = self._random.randint(start_range, end)
            return "".join("".join(self._handle_state(i) for i in value) for _ in range(times))

    return Xeger


_ECMA_ONLY = lazy(r"\\p\{[^}]*\}|\\P\{[^}]*\}|\\u\{[0-9A-Fa-f]+\}|\(\?<(?![=!])")


def _python_pattern(pattern: str) -> str:
    """An ECMA-262 pattern rewritten so Python's parser reads it: ``\\p{...}`` as ``\\w``
    (the value is checked with :func:`pattern_search` afterwards), ``\\u{hhhh}`` as the
    character, ``(?<name>`` as ``(?P<name>``."""
    def swap(m: re.Match[str]) -> str:
        text = m.group(0)
        if text.startswith("\\u{"):
            return re.escape(chr(int(text[3:-1], 16)))
        if text.startswith("(?<"):
            return "(?P<"
        return "\\w" if text.startswith("\\p") else "\\W"

    return str(_ECMA_ONLY.sub(swap, pattern))


def pattern_string(pattern: str, min_length: int, max_length: int | None, seed: str) -> str | None:
    """A string that matches ``pattern`` (:func:`pattern_search`) and has ``min_length`` to
    ``max_length`` characters, the same for the same arguments; ``None`` when none was found
    (a pattern ``rstr`` cannot read, such as one with a lookbehind, or bounds it misses)."""
    python = _python_pattern(pattern)
    xeger_class = _xeger_class()
    for limit in REPEAT_LIMITS:
        for attempt in range(SEEDS_PER_LIMIT):
            xeger = xeger_class(random.Random(f"{seed}|{limit}|{attempt}"))
            xeger.repeat_limit = limit
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # re's FutureWarning on "[[" and the like
                    text = str(xeger.xeger(python))
            except Exception:  # noqa: BLE001 - rstr raises what sre_parse and its tables raise
                break
            if min_length <= len(text) <= (max_length if max_length is not None else len(text)) \
                    and "{{" not in text and pattern_search(pattern, text):
                return text
    for text in _plain_candidates(min_length, max_length):
        if pattern_search(pattern, text):
            return text
    return None


def _plain_candidates(min_length: int, max_length: int | None) -> Iterator[str]:
    """Simple strings to try against a pattern rstr could not serve."""
    for base in (PLAIN_STRING, "a", "A", "1", "a1", "Example1", "example-1", "arn:aws:service:us-east-1:123456789012:x/y",
                 "https://example.com", "us-east-1", "123456789012"):
        yield fit_length(base, min_length, max_length)


def fit_length(text: str, min_length: int, max_length: int | None) -> str:
    """``text`` cut to ``max_length`` or padded with ``a`` to ``min_length``."""
    if max_length is not None:
        text = text[:max_length]
    return text + "a" * max(0, min_length - len(text))


# --------------------------------------------------------------------------- validation


def _search_keywords() -> dict[str, Any]:
    """``pattern``, ``patternProperties`` and ``additionalProperties`` matched with
    :func:`pattern_search`."""
    from jsonschema.exceptions import ValidationError

    def pattern(validator: Any, patrn: str, instance: Any, schema: Any) -> Iterator[Any]:
        if validator.is_type(instance, "string") and not pattern_search(patrn, instance):
            yield ValidationError(f"{instance!r} does not match {patrn!r}")

    def pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        for patrn, subschema in patterns.items():
            for k, v in instance.items():
                if pattern_search(patrn, k):
                    yield from validator.descend(v, subschema, path=k, schema_path=patrn)

    def additional_properties(validator: Any, ap: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        props = schema.get("properties", {})
        patterns = list(schema.get("patternProperties", {}))
        extras = [k for k in instance if k not in props and not any(pattern_search(p, k) for p in patterns)]
        if validator.is_type(ap, "object"):
            for extra in extras:
                yield from validator.descend(instance[extra], ap, path=extra)
        elif not ap and extras:
            yield ValidationError(f"Additional properties are not allowed ({', '.join(map(repr, extras))} "
                                  f"{'was' if len(extras) == 1 else 'were'} unexpected)")

    return {"pattern": pattern, "patternProperties": pattern_properties, "additionalProperties": additional_properties}


@functools.lru_cache(maxsize=1)
def _validator_class() -> Any:
    from jsonschema import Draft7Validator, validators

    return validators.extend(Draft7Validator, _search_keywords())


def schema_validator(schema: dict[str, Any]) -> Any:
    """A draft-07 validator of ``schema`` (a resource schema or a subschema holding the
    ``definitions`` its ``$ref``\\ s name) matching patterns with :func:`pattern_search`."""
    return _validator_class()(schema)


def first_error(validator: Any, instance: Any) -> Any:
    """The first validation error of ``instance`` in a stable order (by path, then
    keyword), or ``None``."""
    errors = sorted(validator.iter_errors(instance),
                    key=lambda e: ([str(p) for p in e.absolute_path], e.validator or "", e.message))
    return errors[0] if errors else None


# --------------------------------------------------------------------------- values


def count(node: Any, key: str) -> int | None:
    """``node[key]`` when it is a non-negative integer (``minLength``, ``maxItems``...), else ``None``."""
    value = node.get(key) if isinstance(node, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def mapping(node: Any, key: str) -> dict[str, Any]:
    """``node[key]`` when it is an object (``properties``, ``definitions``...), else ``{}``."""
    value = node.get(key) if isinstance(node, dict) else None
    return value if isinstance(value, dict) else {}


def _merge(node: dict[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    """``node`` with the keywords of ``part`` (an ``allOf`` part or a ``oneOf`` branch):
    properties and required lists are joined, other keywords of ``part`` win."""
    out = dict(node)
    for key, value in part.items():
        if key == "properties" and isinstance(out.get("properties"), dict) and isinstance(value, dict):
            out["properties"] = {**out["properties"], **value}
        elif key == "required" and isinstance(out.get("required"), list) and isinstance(value, list):
            out["required"] = list(dict.fromkeys(out["required"] + value))
        else:
            out[key] = value
    return out


class SchemaValues:
    """Makes values for the subschemas of one resource schema (see the module's
    documentation). ``seed`` (the type name) and the pointer of each subschema seed the
    generator, so values do not depend on what else was made."""

    def __init__(self, schema: dict[str, Any], seed: str) -> None:
        self.schema = schema
        self.seed = seed
        self.definitions = mapping(schema, "definitions")

    def resolve(self, node: Any, pointer: str) -> dict[str, Any]:
        """``node`` with its ``$ref`` chain followed and its ``allOf`` parts merged in.

        Raises:
            NoValue: a ``$ref`` that names no definition, or a chain longer than
                :data:`MAX_REF_HOPS`.
        """
        for _ in range(MAX_REF_HOPS):
            if not isinstance(node, dict):
                return {}
            ref = node.get("$ref")
            if not isinstance(ref, str):
                break
            name = ref.removeprefix("#/definitions/")
            target = self.definitions.get(name) if ref.startswith("#/definitions/") else None
            if not isinstance(target, dict):
                raise NoValue("$ref", pointer)
            node = {**{k: v for k, v in node.items() if k != "$ref"}, **target}
        else:
            raise NoValue("$ref", pointer)
        parts = node.get("allOf")
        if isinstance(parts, list):
            merged = {k: v for k, v in node.items() if k != "allOf"}
            for part in parts:
                merged = _merge(merged, self.resolve(part, pointer))
            node = merged
        return dict(node)

    def fits(self, node: dict[str, Any], value: Any) -> bool:
        """``value`` satisfies the subschema ``node``."""
        return first_error(schema_validator({**node, "definitions": self.definitions}), value) is None

    def value(self, node: Any, pointer: str, variant: int = 0, depth: int = 0) -> Any:
        """A value satisfying ``node`` (found at ``pointer``, which seeds it).

        Raises:
            NoValue: none could be made (the keyword is named), or the schema nests deeper
                than :data:`MAX_DEPTH` along a path that must be followed.
        """
        if depth > MAX_DEPTH:
            raise NoValue("depth", pointer)
        node = self.resolve(node, pointer)
        if "const" in node:
            return node["const"]
        if isinstance(node.get("enum"), list) and node["enum"]:
            return node["enum"][variant % len(node["enum"])]
        branches = node.get("oneOf") if isinstance(node.get("oneOf"), list) else node.get("anyOf")
        if isinstance(branches, list) and branches:
            return self._branch(node, branches, pointer, variant, depth)
        kind = self.kind(node)
        if kind == "string":
            return self._string(node, pointer, variant)
        if kind in ("integer", "number"):
            return self._number(node, kind, pointer, variant)
        if kind == "boolean":
            return variant % 2 == 0
        if kind == "array":
            return self._array(node, pointer, variant, depth)
        if kind == "object":
            return self._object(node, pointer, variant, depth, node.get("required") or [])
        if kind == "null":
            return None
        return PLAIN_STRING if variant == 0 else f"{PLAIN_STRING}{variant}"

    @staticmethod
    def kind(node: dict[str, Any]) -> str | None:
        """The JSON type a (resolved) subschema's values have: its ``type`` (the first that is
        not ``null``), else what its keywords imply; ``None`` when nothing says."""
        t = node.get("type")
        if isinstance(t, list):
            t = next((x for x in t if x != "null"), t[0] if t else None)
        if isinstance(t, str):
            return t
        if "properties" in node or "patternProperties" in node or "required" in node:
            return "object"
        if "items" in node:
            return "array"
        if any(k in node for k in ("pattern", "minLength", "maxLength", "format")):
            return "string"
        if any(k in node for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")):
            return "number"
        return None

    def _branch(self, node: dict[str, Any], branches: list[Any], pointer: str, variant: int, depth: int) -> Any:
        base = {k: v for k, v in node.items() if k not in ("oneOf", "anyOf")}
        for index in range(len(branches)):  # the first branch that works, whatever the variant
            try:
                candidate = _merge(base, self.resolve(branches[index], pointer))
                value = self.value(candidate, f"{pointer}/{index}", variant, depth + 1)
            except NoValue:
                continue
            if self.fits(node, value):
                return value
        raise NoValue("oneOf" if "oneOf" in node else "anyOf", pointer)

    def _string(self, node: dict[str, Any], pointer: str, variant: int) -> str:
        lo = count(node, "minLength") or 0
        hi = count(node, "maxLength")
        if hi is not None and hi < lo:
            raise NoValue("maxLength", pointer)
        if node.get("format") == "date-time":
            return ("2024-01-01T00:00:00Z", "2024-06-30T12:30:00Z")[variant % 2]
        pattern = node.get("pattern")
        if isinstance(pattern, str):
            text = pattern_string(pattern, lo, hi, f"{self.seed}|{pointer}|{variant}")
            if text is None:
                raise NoValue("pattern", pointer)
            return text
        return fit_length(PLAIN_STRING if variant == 0 else f"{PLAIN_STRING}{variant}", lo, hi)

    @staticmethod
    def _number(node: dict[str, Any], kind: str, pointer: str, variant: int) -> int | float:
        def num(key: str) -> float | None:
            v = node.get(key)
            return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None

        lo, hi, xlo, xhi, step = (num("minimum"), num("maximum"), num("exclusiveMinimum"), num("exclusiveMaximum"),
                                  num("multipleOf"))
        low = max([b for b in (lo,) if b is not None] + [b + (1 if kind == "integer" else 1e-6)
                                                         for b in (xlo,) if b is not None], default=None)
        high = min([b for b in (hi,) if b is not None] + [b - (1 if kind == "integer" else 1e-6)
                                                          for b in (xhi,) if b is not None], default=None)
        value: float = 1 + variant
        if low is not None and value < low:
            value = low + variant
        if high is not None and value > high:
            value = high
        if low is not None and value < low:
            raise NoValue("maximum", pointer)
        if kind == "integer" or float(value).is_integer():
            value = math.ceil(value) if low is not None and value == low else round(value)
        if step:
            value = math.ceil(value / step) * step
            if float(value).is_integer():
                value = int(value)
        if (low is not None and value < low) or (high is not None and value > high):
            raise NoValue("multipleOf", pointer)
        return value

    def _array(self, node: dict[str, Any], pointer: str, variant: int, depth: int) -> list[Any]:
        lo = count(node, "minItems") or 0
        hi = count(node, "maxItems")
        size = max(lo, 1) if hi is None else min(max(lo, 1), hi)
        items = node.get("items", {})
        if isinstance(items, list):  # tuple form
            return [self.value(s, f"{pointer}/{i}", variant, depth + 1) for i, s in enumerate(items)]
        out: list[Any] = []
        seen: set[str] = set()
        for i in range(size * 4 + 4):
            if len(out) == size:
                break
            item = self.value(items, f"{pointer}/items", variant + i, depth + 1)
            key = json.dumps(item, sort_keys=True)
            if node.get("uniqueItems") and key in seen:
                continue
            seen.add(key)
            out.append(item)
        if len(out) < lo:
            raise NoValue("uniqueItems", pointer)
        return out

    def _object(self, node: dict[str, Any], pointer: str, variant: int, depth: int,
                required: list[Any]) -> dict[str, Any]:
        props = mapping(node, "properties")
        names = [n for n in required if isinstance(n, str)]
        want = count(node, "minProperties") or 0
        if not names and props:
            names = [sorted(props)[0]]
        for extra in sorted(props):
            if len(names) >= want:
                break
            if extra not in names:
                names.append(extra)
        out: dict[str, Any] = {}
        for name in names:
            sub = props.get(name, {})
            out[name] = self.value(sub, f"{pointer}/{name}", variant, depth + 1)
        patterns = mapping(node, "patternProperties")
        if patterns and (not out or len(out) < want):
            key_pattern, sub = sorted(patterns.items())[0]
            for i in range(max(1, want - len(out))):
                key = pattern_string(key_pattern, 1, 128, f"{self.seed}|{pointer}|key|{variant + i}")
                if key is None:
                    raise NoValue("patternProperties", pointer)
                out[key] = self.value(sub, f"{pointer}/{key_pattern}", variant + i, depth + 1)
        return out


__all__ = ["NoValue", "SchemaValues", "count", "first_error", "fit_length", "mapping", "pattern_search", "pattern_string",
           "schema_validator"]
