"""Smithy shapes → JSON Schema (draft-07) for CloudFormation resource schemas.

Follows the reference's ``smithy-jsonschema`` (``JsonSchemaConverter``,
``JsonSchemaShapeVisitor``, ``DefaultRefStrategy``, ``DeconflictingStrategy``,
``TimestampMapper``, ``DisableMapper``) with the settings the reference's ``CfnConfig``
locks: definitions under ``#/definitions``, alphanumeric-only ``$ref`` names, maps as
``patternProperties``, unions as ``oneOf``. Structures, unions, maps, enums and intEnums become ``definitions``
reached by ``$ref``; simple shapes and lists are inlined.

JSON Schema keywords the CloudFormation meta-schema does not allow in property schemas
(``contentMediaType`` from ``@mediaType``, ``propertyNames``, ...) are dropped with a
warning ``S4101`` naming the shape; the reference writes them and produces an invalid
schema.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from smithy2cfn.derive.plan import SYNTHETIC_SUFFIX, capitalize
from smithy2cfn.diagnostics import Code, Diagnostics, Severity, declare_codes
from smithy2cfn.emit.text import plain_text
from smithy2cfn.model.nodes import describe, pointer, scan
from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import (
    DEFAULT,
    DEPRECATED,
    DOCUMENTATION,
    ENUM,
    ENUM_VALUE,
    LENGTH,
    MEDIA_TYPE,
    MIXIN,
    PATTERN,
    PRIVATE,
    RANGE,
    REQUIRED,
    TIMESTAMP_FORMAT,
    TITLE,
    TRAIT,
    UNIQUE_ITEMS,
    UNIT,
)
from smithy2cfn.prelude import PRELUDE_NAMESPACE
from smithy2cfn.regexes import lazy
from smithy2cfn.settings import Settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S4101", Severity.WARNING, None,
         "a JSON Schema keyword the CloudFormation meta-schema forbids is left out (e.g. `contentMediaType`)"),
    Code("S4102", Severity.ERROR, None, "two shapes want the same definition name"),
    Code("S4103", Severity.ERROR, None, "a `@range` bound is not a finite number"),
    Code("S4104", Severity.ERROR, None, "a `@length` bound is not a finite whole number (`1e400`, `1.5`)"),
    Code("S4105", Severity.ERROR, None,
         "a `@default` or enum value cannot be written as strict JSON (`NaN`, `Infinity`, beyond a double, "
         "too deep)"),
    Code("S4106", Severity.ERROR, None, "lists nested inside each other more than 64 deep (see Limits)"),
)

DEFINITIONS_POINTER = "#/definitions/"
SIMPLE = frozenset({
    "blob", "boolean", "string", "byte", "short", "integer", "long", "float", "double",
    "bigInteger", "bigDecimal", "timestamp", "document", "enum", "intEnum",
})
INTEGER_TYPES = frozenset({"byte", "short", "integer", "long"})
NUMBER_TYPES = frozenset({"float", "double", "bigInteger", "bigDecimal"})

#: Key order of a written schema (reference ``Schema.toNode``).
KEY_ORDER = (
    "type", "$ref", "const", "default", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "items", "maxItems", "minItems", "uniqueItems", "maxLength", "minLength",
    "pattern", "additionalProperties", "propertyNames", "maxProperties", "minProperties", "not",
    "$comment", "examples", "title", "description", "format", "contentEncoding", "contentMediaType",
    "properties", "patternProperties", "required", "enum", "allOf", "anyOf", "oneOf", "readOnly",
    "writeOnly",
)
_KEY_RANK = {k: i for i, k in enumerate(KEY_ORDER)}

#: Keywords the CloudFormation meta-schema allows in a property schema
#: (``base.definition.schema.v1.json#/definitions/properties``).
CFN_ALLOWED_KEYWORDS = frozenset({
    "$comment", "$ref", "additionalProperties", "allOf", "anyOf", "arrayType", "const", "contains",
    "default", "dependencies", "description", "enum", "examples", "exclusiveMaximum",
    "exclusiveMinimum", "format", "insertionOrder", "items", "maxItems", "maxLength",
    "maxProperties", "maximum", "minItems", "minLength", "minProperties", "minimum", "multipleOf",
    "oneOf", "pattern", "patternProperties", "properties", "relationshipRef", "required", "title",
    "type", "uniqueItems",
})
_WHY = {"contentMediaType": " (from @mediaType)", "propertyNames": " (map keys)"}

_NON_ALNUM = lazy(r"[^A-Za-z0-9]")

#: Deepest nesting of inlined lists (a list of lists of ...) in one schema. Lists are
#: written in place, so each level nests the schema one level deeper, and the writer and
#: the meta-schema check descend it recursively. Deeper nesting is error ``S4106``.
MAX_LIST_NESTING = 64

#: A mapper applied to every schema built: ``(converter, shape_or_member, schema) -> schema``.
SchemaMapper = Callable[["SchemaConverter", "Shape | Member", dict], dict]


def ordered(schema: dict) -> dict:
    """Return ``schema`` with its keys in the reference's write order (unknown keys last)."""
    return dict(sorted(schema.items(), key=lambda kv: _KEY_RANK.get(kv[0], len(KEY_ORDER))))


def timestamp_mapper(conv: SchemaConverter, shape: Shape | Member, schema: dict) -> dict:
    """Reference ``TimestampMapper``: ``date-time`` → string + format, ``epoch-seconds`` →
    number, ``http-date`` → string; applies to timestamps and shapes with ``@timestampFormat``."""
    is_ts = isinstance(shape, Shape) and shape.type == "timestamp"
    fmt = shape.traits.get(TIMESTAMP_FORMAT)
    if not is_ts and fmt is None:
        return schema
    fmt = fmt if isinstance(fmt, str) else conv.config.default_timestamp_format
    if fmt == "date-time":
        schema["type"] = "string"
        schema["format"] = fmt
    elif fmt.startswith("epoch-"):
        schema.pop("format", None)
        schema["type"] = "number"
    else:
        schema["type"] = "string"
    return schema


def disable_mapper(conv: SchemaConverter, shape: Shape | Member, schema: dict) -> dict:
    """Reference ``DisableMapper``: remove every keyword named in ``disableFeatures``."""
    for feature in conv.config.disable_features:
        schema.pop(feature, None)
    return schema


def cfn_keyword_mapper(conv: SchemaConverter, shape: Shape | Member, schema: dict) -> dict:
    """Drop keywords the CloudFormation meta-schema forbids in property schemas, warning
    ``S4101`` once per shape and keyword (the reference keeps them)."""
    for key in [k for k in schema if k not in CFN_ALLOWED_KEYWORDS]:
        del schema[key]
        sid = shape.id
        if (sid, key) not in conv.warned:
            conv.warned.add((sid, key))
            conv.diags.warning(
                "S4101",
                f"JSON Schema keyword '{key}'{_WHY.get(key, '')} of {sid} is not allowed by the "
                f"CloudFormation resource schema meta-schema; it is left out",
                span=shape.span, shape_id=sid)
    return schema


#: The mappers every converter runs, in order (disable first as in the reference, where
#: ``DisableMapper`` runs before ``TimestampMapper``; the CloudFormation keyword check last).
DEFAULT_SCHEMA_MAPPERS: tuple[SchemaMapper, ...] = (timestamp_mapper, disable_mapper, cfn_keyword_mapper)


class SchemaConverter:
    """Converts shapes of one model to JSON Schema with ``$ref``s into ``#/definitions``.

    Args:
        model: the model.
        config: the plugin settings (``useIntegerType``, ``defaultTimestampFormat``,
            ``disableFeatures``).
        property_name: member → JSON property name (the CloudFormation naming strategy).
        diags: receives warnings (``S4101`` dropped keyword) and errors (``S4102``
            conflicting definition names, ``S4103`` a ``@range`` bound that is not a finite
            number, ``S4104`` a ``@length`` bound that is not a finite whole number,
            ``S4105`` a ``@default`` or enum value that is not strict JSON, ``S4106`` lists
            nested more than :data:`MAX_LIST_NESTING` deep, ``S4109`` a schema mapper that
            raised), each located at the shape or member the value comes from.
        ref_shapes: the shapes whose definition names are reserved, in the reference's
            ``DeconflictingStrategy`` (the service closure).
        service: the service shape, whose ``rename`` gives contextual definition names.
        mappers: schema mappers run on every built schema.
    """

    def __init__(self, model: Model, config: Settings, property_name: Callable[[Member], str],
                 diags: Diagnostics, ref_shapes: set[str], service: Shape | None = None,
                 mappers: tuple[SchemaMapper, ...] = DEFAULT_SCHEMA_MAPPERS) -> None:
        self.model = model
        self.config = config
        self.property_name = property_name
        self.diags = diags
        self.service = service
        self.mappers = mappers
        self.warned: set[tuple[str, str]] = set()
        self._cache: dict[str, dict] = {}
        self._list_depths: dict[str, int] = {}
        self._names = self._deconflict(ref_shapes)
        self.unit_targeted_by_union = any(
            m.target == UNIT
            for sid in ref_shapes if (u := model.get(sid)) is not None and u.type == "union"
            for m in u.members.values())

    # -- references -------------------------------------------------------------------

    def _plain_name(self, shape_id: str) -> str:
        name = shape_id.split("#", 1)[-1]
        if self.service is not None and shape_id in self.service.rename:
            name = self.service.rename[shape_id]
        return _NON_ALNUM.sub("", name)

    def _is_ignored(self, shape: Shape) -> bool:
        if shape.type in ("service", "resource", "operation") or MIXIN in shape.traits:
            return True
        if shape.type in SIMPLE and shape.type != "enum" and ENUM not in shape.traits:
            return True
        if shape.namespace == PRELUDE_NAMESPACE and PRIVATE in shape.traits:
            return True
        # Shapes of trait packages never reach a resource schema: they must not take a
        # name from a user's shape (the reference fails on such a conflict).
        return self.model.is_prelude(shape.id) and shape.namespace != PRELUDE_NAMESPACE

    def _deconflict(self, ref_shapes: set[str]) -> dict[str, str]:
        names: dict[str, str] = {}
        taken: dict[str, str] = {}
        for sid in sorted(ref_shapes):
            shape = self.model.get(sid)
            if shape is None or self._is_ignored(shape):
                continue
            name = self._plain_name(sid)
            if name not in taken:
                names[sid] = name
                taken[name] = sid
                continue
            other = self.model.get(taken[name])
            if other is not None and TRAIT in other.traits:
                continue
            new = name + "".join(capitalize(p) for p in shape.namespace.split("."))
            if shape.type not in ("list", "set", "map") or new in taken:
                self.diags.error(
                    "S4102", f"{sid} and {taken[name]} both convert to the JSON Schema definition "
                             f"name '{name}'", span=shape.span, shape_id=sid,
                    hint="rename one of the shapes, or use the service's 'rename' property")
                new = new if new not in taken else name + "_" + str(len(taken))
            names[sid] = new
            taken[new] = sid
        return names

    def definition_name(self, shape_id: str) -> str:
        """The ``definitions`` key of a shape (deconflicted, alphanumeric only)."""
        return self._names.get(shape_id) or self._plain_name(shape_id)

    def pointer(self, shape_id: str) -> str:
        """The ``$ref`` value for a shape: ``#/definitions/Name``."""
        return DEFINITIONS_POINTER + self.definition_name(shape_id)

    def is_inlined(self, shape_id: str) -> bool:
        """True for shapes written in place: lists/sets and simple shapes that are not
        enums or intEnums (reference ``DefaultRefStrategy.isInlined``)."""
        shape = self.model.get(shape_id)
        if shape is None:
            return True
        if shape.type in ("list", "set"):
            return True
        if ENUM in shape.traits or shape.type in ("enum", "intEnum"):
            return False
        return shape.type in SIMPLE

    # -- schemas ----------------------------------------------------------------------

    def _finish(self, shape: Shape | Member, schema: dict) -> dict:
        for mapper in self.mappers:
            try:
                result = mapper(self, shape, schema)
            except Exception as e:  # noqa: BLE001 - a mapper bug must not become a traceback
                result = e
            if not isinstance(result, dict):
                name = getattr(mapper, "__name__", type(mapper).__name__)
                what = f"raised {type(result).__name__}: {str(result)[:200]}" if isinstance(result, Exception) \
                    else f"returned {describe(result)}, not a schema object"
                if (shape.id, "mapper." + name) not in self.warned:
                    self.warned.add((shape.id, "mapper." + name))
                    self.diags.error("S4109", f"internal error: schema mapper {name} {what} while converting "
                                              f"{shape.id}", span=shape.span, shape_id=shape.id,
                                     hint="please report this as a bug of the mapper (smithy2cfn's own, or "
                                          "an extension's), with the model")
                continue
            schema = result
        return ordered(schema)

    def _where(self, shape: Shape | Member) -> tuple[str, str]:
        """``(text naming the shape or property, shape ID to report at)``."""
        sid = shape.id
        if isinstance(shape, Member) and shape.container.endswith(SYNTHETIC_SUFFIX):
            resource = shape.container[:-len(SYNTHETIC_SUFFIX)]
            return f"property '{shape.name}' of {resource}", resource
        return sid, sid

    def _json_value(self, shape: Shape | Member, what: str, value: Any) -> bool:
        """True when ``value`` (from a trait) can be written as strict JSON; else an error
        ``S4105`` at ``shape`` (once per shape and ``what``) and ``False``."""
        problems = scan(value)
        if not problems:
            return True
        if (shape.id, what) not in self.warned:
            self.warned.add((shape.id, what))
            where, sid = self._where(shape)
            path, problem = problems[0]
            at = f" at {pointer(path)}" if path else ""
            self.diags.error("S4105", f"{what} of {where} cannot be written to a JSON schema{at}: {problem}",
                             span=shape.span, shape_id=sid,
                             hint="JSON numbers must be finite and within the range of a double")
        return False

    def ref(self, member: Member) -> dict:
        """The schema a member contributes to its container (reference ``createRef``): the
        member's own schema when its target is inlined, else a ``$ref`` (wrapped with its
        ``default`` in an ``allOf``)."""
        if self.is_inlined(member.target):
            return self.member_schema(member)
        ref = {"$ref": self.pointer(member.target)}
        if DEFAULT in member.traits and self._json_value(member, "@default", member.traits[DEFAULT]):
            return {"allOf": [ref, {"default": member.traits[DEFAULT]}]}
        return ref

    def member_schema(self, member: Member) -> dict:
        """The target's schema updated with the member's traits (reference ``memberShape``)."""
        target = self.model.get(member.target)
        base = dict(self.shape_schema(target)) if target is not None else {}
        self._update(member, base)
        return self._finish(member, base)

    def shape_schema(self, shape: Shape) -> dict:
        """The schema of a top-level shape (cached).

        Inlined lists recurse into their member's schema; a chain of lists nested more than
        :data:`MAX_LIST_NESTING` deep is error ``S4106`` (at its outermost list reached)
        and its schema is left without ``items``.
        """
        if shape.id in self._cache:
            return self._cache[shape.id]
        self._cache[shape.id] = {}  # cut recursion through inlined lists
        if shape.type in ("list", "set") and self.list_depth(shape.id) > MAX_LIST_NESTING:
            self._too_deep(shape)
            schema = {"type": "array"}
        else:
            schema = self._convert(shape)
        self._cache[shape.id] = schema
        return schema

    def _list_chain(self, shape_id: str) -> list[str]:
        """The lists nested from ``shape_id``: it, its member's target if a list, and so on
        (a cycle ends the chain)."""
        chain: list[str] = []
        seen: set[str] = set()
        sid: str | None = shape_id
        while sid is not None and sid not in seen:
            shape = self.model.get(sid)
            if shape is None or shape.type not in ("list", "set"):
                break
            chain.append(sid)
            seen.add(sid)
            member = shape.members.get("member")
            sid = member.target if member is not None else None
        return chain

    def list_depth(self, shape_id: str) -> int:
        """How many lists are nested starting at ``shape_id`` (``0`` for a non-list; computed
        iteratively and cached)."""
        if shape_id not in self._list_depths:
            chain = self._list_chain(shape_id)
            for i, sid in enumerate(chain):
                self._list_depths.setdefault(sid, len(chain) - i)
            self._list_depths.setdefault(shape_id, 0)
        return self._list_depths[shape_id]

    def _too_deep(self, shape: Shape) -> None:
        if (shape.id, "nesting") in self.warned:
            return
        chain = self._list_chain(shape.id)
        for sid in chain:
            self.warned.add((sid, "nesting"))
        self.diags.error(
            "S4106", f"list {shape.id} nests {len(chain)} lists inside each other; a schema can hold at most "
                     f"{MAX_LIST_NESTING} (each inlined list nests the schema one level deeper)",
            span=shape.span, shape_id=shape.id,
            hint="put a structure between the lists (structures are referenced, not nested)")

    def _convert(self, shape: Shape) -> dict:
        t = shape.type
        schema: dict[str, Any] = {}
        if t in ("blob", "string", "timestamp", "enum"):
            schema["type"] = "string"
        elif t == "boolean":
            schema["type"] = "boolean"
        elif t in INTEGER_TYPES or t == "intEnum":
            schema["type"] = "integer" if self.config.integer_type else "number"
        elif t in NUMBER_TYPES:
            schema["type"] = "number"
        elif t in ("list", "set"):
            schema["type"] = "array"
        elif t in ("map", "structure"):
            schema["type"] = "object"
        self._update(shape, schema)
        if t in ("list", "set"):
            member = shape.members.get("member")
            if member is not None:
                schema["items"] = self.ref(member)
            # A (1.0 or deprecated 2.0) set always has @uniqueItems in the reference: its
            # SetShape builder adds the trait (smithy-model ``SetShape.prepareBuilder``).
            if UNIQUE_ITEMS in shape.traits or t == "set":
                schema["uniqueItems"] = True
            if self.config.registry_ready:
                # cfn validate asks every array to say whether its order matters: a set's
                # does not, a list's does
                schema["insertionOrder"] = not schema.get("uniqueItems", False)
        elif t == "map":
            key, value = shape.members.get("key"), shape.members.get("value")
            pattern = self._member_trait(key, PATTERN) if key is not None else None
            if value is not None:
                schema["patternProperties"] = {pattern if isinstance(pattern, str) else ".+": self.ref(value)}
        elif t == "structure":
            props: dict[str, Any] = {}
            required: list[str] = []
            for m in shape.members.values():
                name = self.property_name(m)
                if REQUIRED in m.traits:
                    required.append(name)
                props[name] = self.ref(m)
            if props:
                schema["properties"] = props
            if required:
                schema["required"] = sorted(required)
        elif t == "union":
            variants = []
            for m in shape.members.values():
                name = self.property_name(m)
                variants.append({"type": "object", "title": name, "properties": {name: self.ref(m)},
                                 "required": [name]})
            schema["oneOf"] = variants
        return self._finish(shape, schema)

    def _range_bound(self, shape: Shape | Member, key: str, value: Any) -> int | float | None:
        """A ``@range`` bound as a JSON number, or ``None`` after an error ``S4103``.

        The reference's ``RangeTrait.Provider`` reads each bound with ``expectNumberNode``, so
        a string (``"0.5"``) or other non-number fails the model there; a number too large
        for a double (``1e400``) would make this writer emit ``Infinity``, which is not JSON.
        Reported once per shape and bound, at the shape (or member) that carries the trait.
        """
        if isinstance(value, bool) or not isinstance(value, (int, float)) or scan(value):
            self._bound_error(shape, RANGE, "S4103", "@range", key, value, "a finite number")
            return None
        return value

    def _length_bound(self, shape: Shape | Member, key: str, value: Any) -> int | None:
        """A ``@length`` bound as a JSON integer, or ``None`` after an error ``S4104``.

        The reference reads ``min``/``max`` as ``long`` values (``LengthTrait.Provider``);
        a bound that is not a finite whole number (``1e400``, ``1.5``, ``true``, ``"3"``)
        cannot be a JSON Schema ``minLength``/``maxItems``... Reported once per shape and
        bound, at the shape (or member) that carries the trait.
        """
        ok = isinstance(value, int) and not isinstance(value, bool) or \
            isinstance(value, float) and math.isfinite(value) and value.is_integer()
        if not ok or scan(value):
            self._bound_error(shape, LENGTH, "S4104", "@length", key, value, "a finite whole number")
            return None
        return int(value)

    def _bound_error(self, shape: Shape | Member, trait: str, code: str, name: str, key: str, value: Any,
                     expected: str) -> None:
        # A member inheriting the trait from its target: the target reports it.
        own = not isinstance(shape, Member) or trait in shape.traits
        if own and (shape.id, f"{name}.{key}") not in self.warned:
            self.warned.add((shape.id, f"{name}.{key}"))
            where, sid = self._where(shape)
            problem = scan(value)
            found = problem[0][1] if problem else f"found {describe(value)}"
            self.diags.error(code, f"{name} {key} of {where} must be {expected}; {found}",
                             span=shape.span, shape_id=sid,
                             hint=f"write the bound as a number literal, e.g. {name}({key}: 1)")

    def _member_trait(self, member: Member, trait: str) -> Any:
        if trait in member.traits:
            return member.traits[trait]
        target = self.model.get(member.target)
        return target.traits.get(trait) if target is not None else None

    def _update(self, shape: Shape | Member, schema: dict) -> None:
        """Shared trait handling (reference ``JsonSchemaShapeVisitor.updateBuilder``)."""
        is_member = isinstance(shape, Member)

        def trait(tid: str) -> Any:
            return self._member_trait(shape, tid) if is_member else shape.traits.get(tid)

        doc = trait(DOCUMENTATION)
        if doc is not None and (not is_member or DOCUMENTATION not in shape.traits):
            # Our prelude documents its shapes; the reference's does not, so a prelude
            # shape never lends a description.
            source = self.model.get(shape.target) if is_member else shape
            if source is not None and source.namespace == PRELUDE_NAMESPACE:
                doc = None
        deprecated = trait(DEPRECATED)
        if deprecated is not None:
            # Reference DeprecatedTrait.getDeprecatedDescription: ": message", or a period.
            note = f"This {'operation' if not is_member and shape.type == 'operation' else 'shape'} is deprecated"
            if isinstance(deprecated, dict) and isinstance(deprecated.get("since"), str):
                note += " since " + deprecated["since"]
            if isinstance(deprecated, dict) and isinstance(deprecated.get("message"), str):
                note += ": " + deprecated["message"]
            else:
                note += "."
            doc = doc + "\n" + note if isinstance(doc, str) else note
        if isinstance(doc, str):
            schema["description"] = plain_text(doc) if self.config.registry_ready else doc
        if isinstance(shape.traits.get(TITLE), str):
            schema["title"] = shape.traits[TITLE]
        if isinstance(shape.traits.get(MEDIA_TYPE), str):
            schema["contentMediaType"] = shape.traits[MEDIA_TYPE]
        pattern = trait(PATTERN)
        if isinstance(pattern, str):
            schema["pattern"] = pattern
        rng = trait(RANGE)
        if isinstance(rng, dict):
            for key, keyword in (("min", "minimum"), ("max", "maximum")):
                if key in rng:
                    value = self._range_bound(shape, key, rng[key])
                    if value is not None:
                        schema[keyword] = value
        length = trait(LENGTH)
        if isinstance(length, dict):
            target = self.model.get(shape.target) if is_member else shape
            kind = target.type if target is not None else ""
            lo, hi = {"list": ("minItems", "maxItems"), "set": ("minItems", "maxItems"),
                      "map": ("minProperties", "maxProperties")}.get(kind, ("minLength", "maxLength"))
            for key, keyword in (("min", lo), ("max", hi)):
                if key in length:
                    bound = self._length_bound(shape, key, length[key])
                    if bound is not None:
                        schema[keyword] = bound
        if UNIQUE_ITEMS in shape.traits:
            schema["uniqueItems"] = True
        if not is_member:
            values = None
            if shape.type == "enum":
                values = [m.traits.get(ENUM_VALUE, m.name) for m in shape.members.values()]
            elif isinstance(shape.traits.get(ENUM), list):
                values = [e.get("value") for e in shape.traits[ENUM] if isinstance(e, dict)]
            elif shape.type == "intEnum":
                values = [m.traits.get(ENUM_VALUE) for m in shape.members.values()]
            if values is not None and self._json_value(shape, "an enum value", values):
                schema["enum"] = values
        if DEFAULT in shape.traits and self._json_value(shape, "@default", shape.traits[DEFAULT]):
            schema["default"] = shape.traits[DEFAULT]

    def definitions(self, root_closure: set[str]) -> dict[str, dict]:
        """Definitions for every shape in ``root_closure`` that gets one, sorted by name.

        Left out: members, service/resource/operation shapes, mixins, trait definitions,
        prelude shapes (``smithy.api#Unit`` is kept when a union targets it), and inlined
        shapes (reference ``JsonSchemaConverter.convert``).
        """
        out: dict[str, dict] = {}
        for sid in sorted(root_closure):
            shape = self.model.get(sid)
            if shape is None or shape.type in ("service", "resource", "operation"):
                continue
            if MIXIN in shape.traits or TRAIT in shape.traits:
                continue
            if shape.namespace == PRELUDE_NAMESPACE and not (sid == UNIT and self.unit_targeted_by_union):
                continue
            if self.is_inlined(sid):
                continue
            out[self.definition_name(sid)] = self.shape_schema(shape)
        return dict(sorted(out.items()))
