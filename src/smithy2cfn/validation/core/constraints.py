"""Model-level rules on single traits and shapes: ``length``, ``range``, ``cors``,
``jsonName``, ``xmlNamespace``, unions, and access to ``@private`` shapes.

Spec: constraint-traits.rst (§"length trait", §"range trait"), http-traits.rst §"cors trait",
protocol-traits.rst §"jsonName trait", xml-traits.rst §"xmlNamespace trait",
aggregate-types.rst §"Union", model.rst §"private trait" (access-traits.rst). Each check
mirrors one of the reference's validators (named in its docstring) with that validator's
event ID, shape and severity.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, declare_codes, listed
from smithy2cfn.model.nodes import describe, is_number
from smithy2cfn.model.relationships import NeighborIndex, RelationshipType
from smithy2cfn.model.shapes import Model, ShapeId
from smithy2cfn.model.traits import (
    BOX,
    CORS,
    DEFAULT,
    ENUM,
    JSON_NAME,
    LENGTH,
    MEDIA_TYPE,
    MIXIN,
    PRIVATE,
    RANGE,
    XML_FLATTENED,
    XML_NAME,
    XML_NAMESPACE,
)
from smithy2cfn.regexes import lazy
from smithy2cfn.validation.support.events import diag, error, event, shape_text, warning
from smithy2cfn.validation.support.shapes import (
    shapes_having,
    shapes_of_type,
    user_nodes_having,
    user_shapes_having,
    user_shapes_of_type,
    user_shapes_with_members_having,
)

TYPE_CHECKING = False

#: The codes several validators of this module share (README "Diagnostics" lists every code);
#: the others are declared by the validator that reports them.
CODES = declare_codes(
    Code("S3130", Severity.WARNING, "ModelDeprecation",
         "a deprecated feature: a `set` shape, the `@enum` trait in IDL 2.0"),
)

if TYPE_CHECKING:
    from decimal import Decimal

_DECIMAL_TYPES = frozenset({"float", "double", "bigDecimal"})


def _decimal(value: object) -> Decimal | None:
    """``value`` (a JSON number) as an exact decimal, or ``None`` when it is not a finite
    number (or has too many digits to print)."""
    if not is_number(value):
        return None
    from decimal import Decimal, InvalidOperation  # only for @range and @length values

    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


#: A float bound of less than this magnitude is compared, and truncated, as it is: no integer
#: lies between such a float and the shortest decimal that reads back as it (what
#: :func:`_decimal` makes of it), and two such floats order as those decimals do, so the
#: results are :func:`_decimal`'s without importing :mod:`decimal` (SageMaker, glue and iot
#: have fractional ``@range`` bounds; every integer below it is a float).
_EXACT_FLOAT_BELOW = 2.0 ** 53


def _bound(value: object) -> int | float | Decimal | None:
    """A ``@range`` or ``@length`` bound to compare: an ``int`` or a float below
    :data:`_EXACT_FLOAT_BELOW` in magnitude as it is (the usual bounds), any other value
    as :func:`_decimal` gives it."""
    if type(value) is int:
        return value
    if type(value) is float and -_EXACT_FLOAT_BELOW < value < _EXACT_FLOAT_BELOW:
        return value
    return _decimal(value)


def _is_integral(number: int | float | Decimal) -> bool:
    """Whether a bound :func:`_bound` gives has no fractional part."""
    if isinstance(number, int):
        return True
    return number.is_integer() if isinstance(number, float) else number == number.to_integral_value()


def _java_long(value: object) -> int | None:
    """An integer bound (the reference reads ``length`` bounds as ``Long``)."""
    number = _bound(value)
    return None if number is None else int(number)


@validator(Code("S3110", Severity.ERROR, "LengthTrait",
                "`@length` with a negative `min` or `max`, or `min` greater than `max`"),
           rule="reference LengthTraitValidator (smithy-model); Smithy 2.0 constraint-traits.rst, length "
                "trait")
def check_length_traits(model: Model) -> Iterable[Diagnostic]:
    """``@length``: ``min`` and ``max`` are not negative and ``min`` is at most ``max``.

    Spec: constraint-traits.rst §"length trait"; the reference's ``LengthTraitValidator``
    (``LengthTrait`` errors on the shape or member).
    """
    for node, traits in user_nodes_having(model, LENGTH):
        value = traits.get(LENGTH)
        if not isinstance(value, dict):
            continue
        lo, hi = _java_long(value.get("min")), _java_long(value.get("max"))
        if lo is not None and lo < 0:
            yield error(model, "S3110", node, "A length trait is applied with a negative `min` value.")
        if hi is not None and hi < 0:
            yield error(model, "S3110", node, "A length trait is applied with a negative `max` value.")
        if lo is not None and hi is not None and lo > hi:
            yield error(model, "S3110", node, "A length trait is applied with a `min` value greater than its `max` "
                                              "value.")


@validator(Code("S3111", Severity.ERROR, "RangeTrait",
                "`@range` with a decimal bound on a shape without decimals, or `min` greater than `max`"),
           rule="reference RangeTraitValidator (smithy-model); Smithy 2.0 constraint-traits.rst, range trait")
def check_range_traits(model: Model) -> Iterable[Diagnostic]:
    """``@range``: a decimal bound only on ``float``, ``double`` or ``bigDecimal`` shapes (or
    members targeting them); ``min`` at most ``max``.

    Spec: constraint-traits.rst §"range trait"; the reference's ``RangeTraitValidator``
    (``RangeTrait`` errors).
    """
    for node, traits in user_nodes_having(model, RANGE):
        value = traits.get(RANGE)
        if not isinstance(value, dict):
            continue
        bounds = {name: _bound(value.get(name)) for name in ("min", "max")}
        for name, number in bounds.items():
            if number is None or _is_integral(number):
                continue
            if "$" in node:
                member = model.member(node)
                target = model.shapes.get(member.target) if member is not None else None
                if target is not None and target.type not in _DECIMAL_TYPES:
                    yield error(model, "S3111", node,
                                f"Member `{node}` is marked with the `range` trait, but its `{name}` property is a "
                                f"decimal ({describe(value.get(name))}) when its target (`{target.id}`) does not "
                                "support decimals.")
            else:
                shape = model.shapes[node]
                if shape.type not in _DECIMAL_TYPES:
                    yield error(model, "S3111", node,
                                f"Shape `{node}` is marked with the `range` trait, but its `{name}` property is a "
                                f"decimal ({describe(value.get(name))}) when its shape (`{shape.type}`) does not "
                                "support decimals.")
        lo, hi = bounds["min"], bounds["max"]
        if lo is not None and hi is not None and lo > hi:  # (ints, floats and Decimals compare exactly)
            yield error(model, "S3111", node, "A range trait is applied with a `min` value greater than its `max` "
                                              "value.")


@validator(Code("S3112", Severity.ERROR, "CorsTrait", "`@cors` with both `origin` and `origins`"),
           rule="reference CorsTraitValidator (smithy-model); Smithy 2.0 http-bindings.rst, cors trait")
def check_cors_traits(model: Model) -> Iterable[Diagnostic]:
    """``@cors``: ``origin`` (even when set to its default) and a non-empty ``origins`` are
    mutually exclusive.

    Spec: http-traits.rst §"cors trait"; the reference's ``CorsTraitValidator`` (``CorsTrait``).
    """
    for shape in user_shapes_having(model, CORS):
        value = shape.traits.get(CORS)
        if shape.type != "service" or not isinstance(value, dict):
            continue
        if "origin" in value and isinstance(value.get("origins"), dict) and value["origins"]:
            yield error(model, "S3112", shape.id,
                        "The `origin` and `origins` members of the `cors` trait are mutually exclusive.")


@validator(Code("S3113", Severity.ERROR, "JsonName",
                "members of one shape whose JSON names (`@jsonName` or member name) conflict"),
           rule="reference JsonNameValidator (smithy-model); Smithy 2.0 protocol-traits.rst, jsonName trait")
def check_json_names(model: Model) -> Iterable[Diagnostic]:
    """Members of one structure or union resolve to distinct JSON names (``@jsonName`` or
    the member name), checked for the shapes that use ``@jsonName``.

    Spec: protocol-traits.rst §"jsonName trait"; the reference's ``JsonNameValidator``
    (``JsonName`` errors on the container, one per conflicting name, names in order).
    """
    for shape in user_shapes_with_members_having(model, JSON_NAME):
        if not any(JSON_NAME in m.traits for m in shape.members.values()):
            continue
        names: dict[str, list[str]] = {}
        for member in shape.members.values():
            json_name = member.traits.get(JSON_NAME)
            key = json_name if isinstance(json_name, str) else member.name
            names.setdefault(key, []).append(member.name)
        for key in sorted(names):
            if len(names[key]) > 1:
                yield error(model, "S3113", shape.id,
                            f"This shape contains members with conflicting JSON names that resolve to '{key}': "
                            f"{listed(names[key], sort=True)}")


#: Characters ``java.net.URI`` never accepts unescaped (RFC 2396 §2.4.3 "excluded"),
#: besides controls and spaces.
_URI_EXCLUDED = frozenset('"<>\\^`{|}')
_SCHEME = lazy(r"[A-Za-z][A-Za-z0-9+.-]*")


def uri_problem(text: str) -> str | None:
    """Why ``java.net.URI`` (RFC 2396, as the reference's ``XmlNamespaceTraitValidator`` checks)
    rejects ``text``, or ``None``: a scheme that is empty or malformed, nothing after the
    scheme, excluded characters, a ``%`` not followed by two hex digits, a second ``#``, or
    brackets outside an IPv6 host."""
    head = re.split(r"[/?#]", text, maxsplit=1)[0]
    if ":" in head:
        scheme, rest = text.split(":", 1)
        if not _SCHEME.fullmatch(scheme):
            return "Expected scheme name"
        if not rest:
            return "Expected scheme-specific part"
    for i, ch in enumerate(text):
        if ord(ch) < 0x20 or ch in " \x7f" or ch in _URI_EXCLUDED:
            return f"Illegal character at index {i}"
        if ch == "%" and not re.fullmatch(r"[0-9A-Fa-f]{2}", text[i + 1:i + 3]):
            return f"Malformed escape pair at index {i}"
    if text.count("#") > 1:
        return "Illegal character in fragment"
    if ("[" in text or "]" in text) and not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://\[[0-9A-Fa-f:.]+\](?:[:/?#]|$)",
                                                      text):
        return "Illegal character"
    return None


@validator(Code("S3114", Severity.ERROR, "XmlNamespaceTrait", "`@xmlNamespace` with an invalid `uri`"),
           rule="reference XmlNamespaceTraitValidator (smithy-model); Smithy 2.0 protocol-traits.rst, "
                "xmlNamespace trait")
def check_xml_namespaces(model: Model) -> Iterable[Diagnostic]:
    """``@xmlNamespace``: the ``uri`` is a valid URI.

    Spec: xml-traits.rst §"xmlNamespace trait" ("uri: The namespace URI"); the reference's
    ``XmlNamespaceTraitValidator`` (``XmlNamespaceTrait``; ``java.net.URI`` syntax, see
    :func:`uri_problem`).
    """
    for node, traits in user_nodes_having(model, XML_NAMESPACE):
        value = traits.get(XML_NAMESPACE)
        if not isinstance(value, dict) or not isinstance(value.get("uri"), str):
            continue
        if uri_problem(value["uri"]) is not None:
            what = shape_text(model, node)
            yield error(model, "S3114", node, f"An `xmlNamespace` trait is applied to the {what} shape with an "
                                              f"invalid uri: {value['uri']}")


#: RFC 9110 ``tchar``, in the order the reference's ``MediaType.Parser`` lists them in its
#: message.
_TCHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_TCHAR = frozenset(_TCHARS)
_WS = " \t\r\n"


class _MediaTypeSyntax(Exception):
    """A media type the parser rejects (the message)."""


def media_type_problem(text: str) -> str | None:
    """Why ``text`` is not a media type (RFC 9110 §8.3.1: ``type "/" subtype *( OWS ";" OWS
    token "=" ( token / quoted-string ) )``), as the reference's ``MediaType.from`` reports it
    (``SimpleParser``: "Syntax error at line 1, column 5: Expected: '/', but found '[EOF]'"),
    or ``None``."""
    pos = 0

    def syntax(message: str) -> _MediaTypeSyntax:
        line = text.count("\n", 0, pos) + 1
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        return _MediaTypeSyntax(f"Syntax error at line {line}, column {column}: {message}")

    def found() -> str:
        return text[pos] if pos < len(text) else "[EOF]"

    def token() -> None:
        nonlocal pos
        start = pos
        while pos < len(text) and text[pos] in _TCHAR:
            pos += 1
        if start == pos:
            expected = " ".join(f"'{c}'" for c in _TCHARS)
            raise syntax(f"Found '{found()}', but expected one of the following tokens: {expected}")

    def expect(ch: str) -> None:
        nonlocal pos
        if pos < len(text) and text[pos] == ch:
            pos += 1
            return
        raise syntax(f"Expected: '{ch}', but found '{found()}'")

    def ws() -> None:
        nonlocal pos
        while pos < len(text) and text[pos] in _WS:
            pos += 1

    def quoted() -> None:
        nonlocal pos
        expect('"')
        while pos < len(text) and text[pos] != '"':
            pos += 1
            if text[pos - 1] == "\\":
                if pos >= len(text):
                    raise syntax("Expected character after escape")
                pos += 1
        expect('"')

    try:
        token()
        expect("/")
        token()
        ws()
        while pos < len(text):
            expect(";")
            ws()
            token()
            expect("=")
            if pos < len(text) and text[pos] == '"':
                quoted()
            else:
                token()
            ws()
    except _MediaTypeSyntax as e:
        return str(e)
    return None


@validator(Code("S3127", Severity.ERROR, "MediaType", "a `@mediaType` value that is not a media type"),
           rule="reference MediaTypeValidator (smithy-model); Smithy 2.0 protocol-traits.rst, mediaType "
                "trait")
def check_media_types(model: Model) -> Iterable[Diagnostic]:
    """``@mediaType``: the value is a media type.

    Spec: protocol-traits.rst §"mediaType trait" (RFC 6838 media types); the reference's
    ``MediaTypeValidator`` (``MediaType`` errors, see :func:`media_type_problem`).
    """
    for node, traits in user_nodes_having(model, MEDIA_TYPE):
        value = traits.get(MEDIA_TYPE)
        if isinstance(value, str):
            problem = media_type_problem(value)
            if problem is not None:
                yield error(model, "S3127", node, f"Invalid mediaType value, \"{value}\": {problem}")


@validator(Code("S3128", Severity.WARNING, "XmlFlattenedTrait",
                "`@xmlFlattened` member whose target list member's `@xmlName` has no effect"),
           rule="reference XmlFlattenedTraitValidator (smithy-model); Smithy 2.0 protocol-traits.rst, "
                "xmlFlattened trait")
def check_xml_flattened(model: Model) -> Iterable[Diagnostic]:
    """A ``@xmlFlattened`` member without ``@xmlName`` whose target list's member has an
    ``@xmlName`` other than the member's name: that name has no effect (a warning).

    Spec: xml-traits.rst §"xmlFlattened trait"; the reference's ``XmlFlattenedTraitValidator``
    (``XmlFlattenedTrait`` warnings).
    """
    for shape in user_shapes_with_members_having(model, XML_FLATTENED):
        for member in shape.members.values():
            if XML_FLATTENED not in member.traits or XML_NAME in member.traits:
                continue
            target = model.shapes.get(member.target)
            inner = target.members.get("member") if target is not None and target.type == "list" else None
            name = inner.traits.get(XML_NAME) if inner is not None else None
            if isinstance(name, str) and name != member.name:
                yield warning(model, "S3128", member.id,
                              f"Member is `@xmlFlattened`, so `@xmlName` of target's member (`{inner.id}`) has no "
                              f"effect. The flattened list elements will have the name of this member - "
                              f"`{member.name}`. If this is unintended, you can add `@xmlName(\"{name}\")` to this "
                              "member.")


@validator(Code("S3129", Severity.WARNING, "PrivateMixinMember",
                "`@private` on a mixin member (it is still inherited)"),
           rule="reference PrivateMixinMemberValidator (smithy-model); Smithy 2.0 mixins.rst; "
                "constraint-traits.rst, private trait")
def check_private_mixin_members(model: Model) -> Iterable[Diagnostic]:
    """``@private`` on a member of a mixin does not stop it being inherited (a warning).

    Spec: mixins.rst; the reference's ``PrivateMixinMemberValidator`` (``PrivateMixinMember``).
    """
    for shape in user_shapes_having(model, MIXIN):
        if MIXIN not in shape.traits:
            continue
        for member in shape.members.values():
            if PRIVATE in member.traits:
                yield event(model, "S3129", member.id,
                            "The `@private` trait does not prevent a mixin member from being inherited by shapes "
                            "in other namespaces, nor does it prevent new traits from being added to the inherited "
                            "member. Apply `@private` to the mixin shape or target shape instead if "
                            "cross-namespace access should be restricted.", trait=PRIVATE)


@validator("S3130",
           rule="reference SetValidator (smithy-model); Smithy 2.0 aggregate-types.rst, Set (deprecated)")
def check_set_shapes(model: Model) -> Iterable[Diagnostic]:
    """``set`` shapes are deprecated (a warning).

    Spec: aggregate-types.rst §"Set" (removed in IDL 2.0); the reference's ``SetValidator``
    (``ModelDeprecation`` warnings).
    """
    for shape in user_shapes_of_type(model, "set"):
        if shape.type == "set":
            yield warning(model, "S3130", shape.id,
                          "Set shapes are deprecated and have been removed in Smithy IDL v2. Use a list shape with "
                          "the @uniqueItems trait instead.")


@validator("S3130",
           rule="reference Version.validateVersionedTrait (smithy-model, at load); Smithy 2.0 "
                "constraint-traits.rst, enum trait (deprecated)")
def check_enum_trait_deprecation(model: Model) -> Iterable[Diagnostic]:
    """The ``@enum`` trait, applied in an IDL 2.0 file, is deprecated (a warning located at
    the trait): 2.0 models define ``enum`` shapes.

    Spec: constraint-traits.rst §"enum trait" ("This trait is deprecated"). The reference's
    loader reports it (``Version.validateVersionedTrait``: ``ModelDeprecation``, "The enum
    trait is deprecated. Smithy 2.0 models should use the enum shape.") for each shape or
    member that applies the trait itself (or by ``apply``) in a file of version 2.0, not for
    one that inherits it from a mixin.
    """
    for node, _traits in user_nodes_having(model, ENUM):
        owner = model.member(node) if "$" in node else model.shapes.get(node)
        if owner is None or ENUM not in owner.introduced_traits:
            continue
        span = owner.trait_spans.get(ENUM) or owner.span
        if span is not None and model.versions.get(span.path) == "2.0":
            yield event(model, "S3130", node,
                        "The enum trait is deprecated. Smithy 2.0 models should use the enum shape.", trait=ENUM,
                        hint="define an `enum` shape instead")


@validator(Code("S3131", Severity.WARNING, "DefaultValueInUpdate",
                "an update-style operation whose input has top-level `@default` members"),
           rule="reference DefaultValueInUpdateValidator (smithy-model); Smithy 2.0 "
                "type-refinement-traits.rst, default trait (Updating default values)")
def check_defaults_in_updates(model: Model) -> Iterable[Diagnostic]:
    """An update-style operation (a resource's ``update``, or named ``update...`` /
    ``patch...``) whose input has top-level members with ``@default``: a warning.

    Spec: type-refinement-traits.rst §"default trait" ("Updates and default values"); the
    reference's ``DefaultValueInUpdateValidator`` (``DefaultValueInUpdate`` warnings).
    """
    updates = {s.update for s in shapes_of_type(model, "resource") if s.update}
    for shape in user_shapes_of_type(model, "operation"):
        if shape.type != "operation":
            continue
        name = shape.name.lower()
        if shape.id not in updates and not name.startswith(("update", "patch")):
            continue
        structure = model.shapes.get(shape.input) if shape.input else None
        if structure is None:
            continue
        names = sorted(m.name for m in structure.members.values() if DEFAULT in m.traits)
        if names:
            yield warning(model, "S3131", shape.id,
                          "This update style operation has top-level input members marked with the @default trait. "
                          "It will be impossible to tell if the member was omitted or explicitly provided. Affected "
                          f"members: [{listed(names)}]")


@validator(Code("S3115", Severity.ERROR, "Union", "a union without members"),
           Code("S3116", Severity.NOTE, "Union",
                "a union member targeting a shape with a `@default` (note), `@box` on a union member (warning)",
                also=(Severity.WARNING,)),
           rule="reference UnionValidator (smithy-model); Smithy 2.0 aggregate-types.rst, Union")
def check_unions(model: Model) -> Iterable[Diagnostic]:
    """Unions have members; a union member targeting a shape with a ``@default`` is noted,
    and ``@box`` on a union member is a warning.

    Spec: aggregate-types.rst §"Union" ("Tagged unions MUST have one or more members"); the
    reference's ``UnionValidator`` (``Union`` events: an ERROR, a NOTE, a WARNING).
    """
    for shape in user_shapes_of_type(model, "union"):
        if shape.type != "union":
            continue
        if not shape.members:
            yield error(model, "S3115", shape.id, "Tagged unions must have one or more members")
            continue
        for member in shape.members.values():
            target = model.shapes.get(member.target)
            if target is not None and DEFAULT in target.traits:
                yield diag(model, "S3116", Severity.NOTE, member.id,
                           f"This union member targets `{target.id}`, a shape with a default value of "
                           f"`{describe(target.traits[DEFAULT])}`. Note that default values are only applicable to "
                           "structures and ignored in tagged unions. It is a best practice for union members to "
                           "target shapes with no default value (for example, instead of targeting "
                           "PrimitiveInteger, target Integer).")
            if BOX in member.traits:
                yield event(model, "S3116", member.id,
                            "Invalid box trait found on a union member. The box trait on union members has no "
                            "effect because union members are implicitly nullable.", trait=BOX,
                            severity=Severity.WARNING)


@validator(Code("S3117", Severity.ERROR, "PrivateAccess",
                "a reference to a `@private` shape of another namespace (a warning for a private trait applied)",
                also=(Severity.WARNING,)),
           rule="reference PrivateAccessValidator (smithy-model); Smithy 2.0 constraint-traits.rst, private "
                "trait")
def check_private_access(model: Model) -> Iterable[Diagnostic]:
    """A shape does not reference a ``@private`` shape of another namespace (an ERROR), nor
    apply a ``@private`` trait of another namespace (a WARNING, as the reference for now).

    Spec: type-refinement-traits.rst §"private trait" ("can only be referenced by shapes
    within the same namespace"); the reference's ``PrivateAccessValidator``
    (``PrivateAccess``; the message names the relationship, e.g. ``member_target``).
    """
    private = {s.id for s in shapes_having(model, PRIVATE)}
    if not private:
        return
    index = model.knowledge(NeighborIndex)
    # Only the nodes that reference a private shape or apply a private trait can be at
    # fault: found from the private shapes (their reverse relationships, the nodes applying
    # them) rather than by looking at every node, then taken in the order of user_shapes.
    suspects: set[str] = set()
    for pid in private:
        suspects.update(rel.shape for rel in index.reverse(pid) if rel.type is not RelationshipType.MEMBER_CONTAINER)
        suspects.update(node for node, _ in user_nodes_having(model, pid))
    by_shape: dict[str, set[str]] = {}
    for node in suspects:
        by_shape.setdefault(ShapeId.root(node), set()).add(node)
    shapes = [model.shapes[sid] for sid in by_shape if sid in model.shapes and sid not in model.prelude_ids]
    for shape in sorted(shapes, key=lambda s: s.id):
        namespace = shape.namespace
        nodes = by_shape[shape.id]
        for node, traits in [(shape.id, shape.traits)] + [(m.id, m.traits) for m in shape.members.values()]:
            if node not in nodes:
                continue
            for rel in index.neighbors(node):
                if rel.type is RelationshipType.MEMBER_CONTAINER or not rel.is_valid:
                    continue
                if rel.neighbor in private and ShapeId.namespace(rel.neighbor) != namespace:
                    yield error(model, "S3117", node,
                                f"This shape has an invalid {rel.type.name.lower()} relationship that targets a "
                                f"private shape, `{rel.neighbor}`, in another namespace.")
            for tid in traits:
                if tid in private and ShapeId.namespace(tid) != namespace:
                    yield warning(model, "S3117", node,
                                  f"This shape has an invalid trait relationship that targets a private shape, "
                                  f"`{tid}`, in another namespace.")


__all__ = [
    "check_cors_traits", "check_defaults_in_updates", "check_json_names", "check_length_traits",
    "check_media_types", "check_private_access", "check_private_mixin_members", "check_range_traits",
    "check_set_shapes", "check_unions", "check_xml_flattened", "check_xml_namespaces", "media_type_problem",
    "uri_problem",
]
