"""Shape-level rules: enums, intEnums, list and map members, mixins, default values.

Spec: simple-types.rst §"enum" and §"intEnum" (at least one member, unique values, string
respectively 32-bit integer values), aggregate-types.rst §"List" and §"Map" (the required
``member``, ``key`` and ``value`` members), mixins.rst (operation mixins may not define
input or output; resource mixins may not define identifiers or properties),
type-refinement-traits.rst §"default trait" (a default value matches its target shape).
"""

from __future__ import annotations

import binascii
import json
from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, declare_codes
from smithy2cfn.model.nodes import canonical, describe
from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import DEFAULT, ENUM_VALUE, MIXIN
from smithy2cfn.records import replace
from smithy2cfn.validation.support.events import error, event, warning
from smithy2cfn.validation.support.node_values import NodeChecker
from smithy2cfn.validation.support.shapes import (
    RECOMMENDED_ENUM_NAME,
    shapes_having,
    user_shapes,
    user_shapes_having,
    user_shapes_of_type,
)

#: The codes several validators of this module share (README "Diagnostics" lists every code);
#: the others are declared by the validator that reports them.
CODES = declare_codes(
    Code("S3031", Severity.ERROR, "EnumShape", "duplicate enum / intEnum values"),
    Code("S3034", Severity.WARNING, "EnumShape", "an enum member name that is not UPPER_SNAKE_CASE"),
)

_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


def _fmt(value: object) -> str:
    """A value for a message: never raises (deep values, 5,000-digit integers)."""
    return describe(value, width=200)


def _json(value: object) -> str:
    """``value`` as compact JSON, as the reference's ``Node.printJson`` (never raises)."""
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return _fmt(value)


def _enum_value_error(model: Model, code: str, member: Member, message: str) -> Diagnostic:
    """An ``EnumShape`` error located at the member's ``enumValue`` when known."""
    d = error(model, code, member.id, message)
    span = member.trait_spans.get(ENUM_VALUE)
    return replace(d, span=span) if span is not None else d


def _enum_name_warning(model: Model, member: Member) -> Iterable[Diagnostic]:
    if not RECOMMENDED_ENUM_NAME.fullmatch(member.name):
        yield warning(model, "S3034", member.id,
                      f"The name `{member.name}` does not match the recommended enum name format of beginning with "
                      "an uppercase letter, followed by any number of uppercase letters, numbers, or underscores.")


@validator(Code("S3030", Severity.ERROR, "EnumShape", "enum value that is not a non-empty string"),
           "S3031",
           "S3034",
           rule="reference EnumShapeValidator (smithy-model); Smithy 2.0 simple-types.rst, enum")
def check_enum_shapes(model: Model) -> Iterable[Diagnostic]:
    """``enum`` shapes: values are non-empty, unique strings; member names are upper case.

    Spec: simple-types.rst §"enum" ("Enums do not support aliasing; all values MUST be
    unique"; the ``enumValue`` of an enum member is a string), the reference's
    ``EnumShapeValidator`` (``EnumShape`` events; a member name that is not
    ``UPPER_SNAKE_CASE`` is a warning). An enum without members is a load error (``S3032``).
    """
    for shape in user_shapes_of_type(model, "enum"):
        if shape.type != "enum":
            continue
        seen: set[str] = set()
        for member in shape.members.values():
            value = member.traits.get(ENUM_VALUE, member.name)
            if not isinstance(value, str):
                yield _enum_value_error(model, "S3030", member,
                                        f"enum members can only be assigned string values, but found: {_json(value)}")
            else:
                if value in seen:
                    yield error(model, "S3031", member.id, f"Multiple enum members found with duplicate value `{value}`")
                seen.add(value)
                if value == "":
                    yield error(model, "S3030", member.id, "enum values may not be empty.")
            yield from _enum_name_warning(model, member)


@validator("S3031",
           Code("S3033", Severity.ERROR, "EnumShape", "intEnum value missing, or not a 32-bit integer"),
           "S3034",
           rule="reference EnumShapeValidator (smithy-model); Smithy 2.0 simple-types.rst, intEnum")
def check_int_enum_shapes(model: Model) -> Iterable[Diagnostic]:
    """``intEnum`` shapes: every member has a unique 32-bit integer value; member names are
    upper case.

    Spec: simple-types.rst §"intEnum" ("The members of intEnum MUST be marked with the
    enumValue trait set to a unique integer value"; values are ``integer`` shapes), the
    reference's ``EnumShapeValidator`` (``EnumShape`` events).
    """
    for shape in user_shapes_of_type(model, "intEnum"):
        if shape.type != "intEnum":
            continue
        seen: set[int] = set()
        for member in shape.members.values():
            if ENUM_VALUE not in member.traits:
                yield error(model, "S3033", member.id, "intEnum members must be assigned an integer value")
                continue
            value = member.traits[ENUM_VALUE]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                yield _enum_value_error(model, "S3033", member,
                                        f"intEnum members require integer values, but found: {_json(value)}")
                continue
            if isinstance(value, float):
                yield _enum_value_error(model, "S3033", member,
                                        f"intEnum members do not support floating point values: {_fmt(value)}")
                continue
            if not _INT_MIN <= value <= _INT_MAX:
                yield _enum_value_error(model, "S3033", member, f"intEnum members must fit within an integer, but found: "
                                                       f"{_fmt(value)}")
                continue
            if value in seen:
                yield error(model, "S3031", member.id, f"Multiple intEnum members found with duplicate value `{value}`")
            seen.add(value)
            yield from _enum_name_warning(model, member)


@validator(Code("S3040", Severity.ERROR, "Model", "operation / resource mixin with input, output, identifiers..."),
           rule="reference OperationShape and ResourceShape builders (smithy-model, at load); Smithy 2.0 "
                "mixins.rst, Operation mixins and Resource mixins")
def check_mixin_shapes(model: Model) -> Iterable[Diagnostic]:
    """Operation mixins have no input/output; resource mixins no identifiers, properties,
    lifecycle operations, operations or resources.

    Spec: mixins.rst §"Operation mixins" and §"Resource mixins" (what the loader does not
    already report: cycles, type mismatches and member conflicts are load errors); the
    reference's ``OperationShape`` and ``ResourceShape`` builders (``Model`` errors).
    """
    for shape in user_shapes_having(model, MIXIN):
        if MIXIN not in shape.traits:
            continue
        if shape.type == "operation" and (shape.input or shape.output):
            yield error(model, "S3040", shape.id,
                        "Operation shapes with the mixin trait MUST target `smithy.api#Unit` for their input "
                        f"and output. Operation mixin shape `{shape.id}` defines one or both of these "
                        "properties.")
        if shape.type == "resource" and (shape.identifiers or shape.properties or shape.lifecycle()
                                         or shape.operations or shape.resources):
            yield error(model, "S3040", shape.id,
                        "Resource shapes with the mixin trait may not define any properties. Resource mixin "
                        f"shape `{shape.id}` defines one or more properties.")


@validator(Code("S3043", Severity.ERROR, "Model", "two mixins give a member different targets"),
           rule="reference NamedMemberUtils.flattenMixins (smithy-model, at load); Smithy 2.0 mixins.rst, "
                "Mixin members")
def check_mixin_member_conflicts(model: Model) -> Iterable[Diagnostic]:
    """Members inherited under one name from several mixins target the same shape.

    Spec: mixins.rst §"Mixin members" (a shape "MUST NOT" inherit conflicting members: members
    with the same name that target different shapes). The loader reports a local member that
    redefines an inherited target (``S2022``); this check covers two mixins that disagree: a
    ``Model`` error on the shape, as the reference's ``NamedMemberUtils.flattenMixins`` reports
    it while building the shape.
    """
    for shape in user_shapes(model):
        if len(shape.mixins) < 2:
            continue
        for name, member in shape.members.items():
            first: tuple[str, str] | None = None
            for mixin_id in shape.mixins:
                mixin = model.shapes.get(mixin_id)
                inherited = mixin.members.get(name) if mixin is not None else None
                if inherited is None:
                    continue
                if first is None:
                    first = (inherited.id, inherited.target)
                elif inherited.target != first[1]:
                    # (the reference's message names the shape's own member, on the shape)
                    yield error(model, "S3043", shape.id,
                                f"Member conflicts with an inherited mixin member: `{member.id}`",
                                hint=f"`{inherited.id}` targets `{inherited.target}`, but `{first[0]}` targets "
                                     f"`{first[1]}`: give the mixins' `{name}` members one target")
                    break


@validator(Code("S3007", Severity.ERROR, "DefaultTrait",
                "a `@default` value that does not match its shape (type, constraints, non-empty list, map or "
                "document), `null` on a shape, or a member's default other than its target's"),
           Code("S3123", Severity.WARNING, "DefaultTrait",
                "a `@default` of `0` outside a `@range` (`DefaultTrait.Member.InvalidRange`...), a blob default "
                "that is not base64"),
           rule="reference DefaultTraitValidator (smithy-model); Smithy 2.0 type-refinement-traits.rst, "
                "default trait")
def check_default_values(model: Model) -> Iterable[Diagnostic]:
    """A ``@default`` value matches the shape it applies to (for a member, the member and its
    target, constraint traits included); ``null`` only on members; lists, maps and
    documents default to empty values; a blob's default is base64; a structure member that
    targets a shape with a default repeats that default (or sets ``null``).

    Spec: type-refinement-traits.rst §"default trait" ("The default value MUST be compatible
    with the shape targeted by the member"; "default value constraints"; a member that
    targets a shape with a default defines the same default or ``null``); the reference's
    ``DefaultTraitValidator`` (``DefaultTrait`` events: errors, and a ``0`` that breaks a
    ``@range`` is a ``DefaultTrait.Member.InvalidRange`` / ``DefaultTrait.Target.InvalidRange``
    WARNING, so that 1.0 models convert losslessly).
    """
    # (a member without a default is at fault only when it targets a shape with one)
    defaulted = {s.id for s in shapes_having(model, DEFAULT)}
    for shape in user_shapes(model):
        structure = shape.type == "structure"
        if DEFAULT in shape.traits:
            yield from _default_value(model, shape, shape.id, shape.id, shape.traits, {})
        for m in shape.members.values():
            if DEFAULT in m.traits:
                yield from _default_value(model, shape, m.id, m.target, m.traits, m.traits)
            elif structure and m.target in defaulted:
                yield from _member_default(model, m.id, m.target, None, False)


def _default_value(model: Model, shape: Shape, node: str, target: str, traits: dict,
                   constraints: dict) -> Iterable[Diagnostic]:
    """:func:`check_default_values` for a node (``shape`` or one of its members) with a
    ``@default``."""
    is_member = node != shape.id
    value = traits[DEFAULT]
    target_shape = model.shapes.get(target)
    if target_shape is None:
        return
    if value == {} and target_shape.type not in ("map", "structure", "union", "document"):
        value = None  # an explicit ``null`` default, as the loader stores it for annotation-style values
    if value is None:
        if not is_member:
            yield event(model, "S3007", node, "The @default trait can be set to null only on members",
                        trait=DEFAULT)
        return
    if is_member and shape.type == "structure":
        yield from _member_default(model, node, target, value, True)
    checker = NodeChecker(model, shape.namespace, zero_range_warning=True)
    checker.check(value, target, constraints, "")
    for i, (severity, _path, message) in enumerate(checker.problems):
        suffix = checker.suffixes.get(i)
        event_id = f"DefaultTrait.{suffix}" if suffix else None
        # (located at the default value, as the reference's NodeValidationVisitor does)
        if severity >= Severity.ERROR:
            yield event(model, "S3007", node, f"Error validating @default trait: {message}", trait=DEFAULT,
                        event_id=event_id)
        elif severity is Severity.WARNING and suffix:
            yield event(model, "S3123", node, f"Error validating @default trait: {message}", trait=DEFAULT,
                        event_id=event_id)
    yield from _default_shape_rules(model, node, target_shape.type, value)


def _default_shape_rules(model: Model, node: str, kind: str, value: object) -> Iterable[Diagnostic]:
    """The reference's rules on a default's value by the type of shape it is for."""
    if kind == "blob" and isinstance(value, str):
        import base64

        try:
            base64.b64decode(value.encode("utf-8"), validate=True)
        except (binascii.Error, ValueError):
            yield event(model, "S3123", node, "The @default value of a blob should be a valid base64 string.",
                        trait=DEFAULT)
    elif kind == "map" and isinstance(value, dict) and value:
        yield event(model, "S3007", node, "The @default value of a map must be an empty map", trait=DEFAULT)
    elif kind in ("list", "set") and isinstance(value, list) and value:
        yield event(model, "S3007", node, "The @default value of a list must be an empty list", trait=DEFAULT)
    elif kind == "document" and isinstance(value, list) and value:
        yield event(model, "S3007", node, "The @default value of a document cannot be a non-empty array",
                    trait=DEFAULT)
    elif kind == "document" and isinstance(value, dict) and value:
        yield event(model, "S3007", node, "The @default value of a document cannot be a non-empty object",
                    trait=DEFAULT)


def _member_default(model: Model, node: str, target: str, value: object, has_default: bool) -> Iterable[Diagnostic]:
    """A structure member targeting a shape with a ``@default`` repeats it or sets ``null``
    (``value``: the member's default, ``None`` for ``null``; ``has_default``: it has one)."""
    target_shape = model.shapes.get(target)
    if target_shape is None or DEFAULT not in target_shape.traits:
        return
    expected = target_shape.traits[DEFAULT]
    if not has_default:
        yield error(model, "S3007", node, f"Member targets {target}, which requires that the member defines the same "
                                          f"default of `{_json(expected)}` or `null`")
    elif value is not None and canonical(value) != canonical(expected):
        yield error(model, "S3007", node,
                    f"Member defines a default value that differs from the default value of the target shape, "
                    f"{target}. The member has a default of `{_json(value)}`, but the target has a default of "
                    f"`{_json(expected)}`.")
