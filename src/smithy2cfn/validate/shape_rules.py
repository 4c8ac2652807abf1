"""Shape-level rules: enums, intEnums, list and map members, mixins, default values.

Spec: simple-types.rst §"enum" and §"intEnum" (at least one member, unique values, string
respectively 32-bit integer values), aggregate-types.rst §"List" and §"Map" (the required
``member``, ``key`` and ``value`` members), mixins.rst (operation mixins may not define
input or output; resource mixins may not define identifiers or properties),
type-refinement-traits.rst §"default trait" (a default value matches its target shape).
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.diagnostics import Diagnostic
from smithy2cfn.model.nodes import describe
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import DEFAULT, ENUM_VALUE, MIXIN
from smithy2cfn.validate.common import error, user_shapes
from smithy2cfn.validate.traits import _NodeChecker

_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


def _fmt(value: object) -> str:
    """A value for a message: never raises (deep values, 5,000-digit integers)."""
    return describe(value, width=200)


def check_enum_shapes(model: Model) -> Iterable[Diagnostic]:
    """``enum`` shapes: at least one member; values are non-empty, unique strings.

    Spec: simple-types.rst §"enum" ("Enums do not support aliasing; all values MUST be
    unique"; ``enumValue`` of an enum member is a string) and the reference's ``EnumShape``
    events.
    """
    for shape in user_shapes(model):
        if shape.type != "enum":
            continue
        if not shape.members:
            continue  # the loader's S3032
        seen: dict[str, str] = {}
        for member in shape.members.values():
            value = member.traits.get(ENUM_VALUE, member.name)
            if not isinstance(value, str):
                yield error(model, "S3030", member.id,
                            f"enum members can only be assigned string values, but found: {_fmt(value)}")
                continue
            if value == "":
                yield error(model, "S3030", member.id, "enum values must not be empty strings")
                continue
            if value in seen:
                yield error(model, "S3031", member.id,
                            f"enum value `{value}` is also used by member `{seen[value]}`; enum values must be "
                            "unique")
            else:
                seen[value] = member.name


def check_int_enum_shapes(model: Model) -> Iterable[Diagnostic]:
    """``intEnum`` shapes: at least one member; every member has a unique 32-bit integer value.

    Spec: simple-types.rst §"intEnum" ("The members of intEnum MUST be marked with the
    enumValue trait set to a unique integer value"; values are ``integer`` shapes).
    """
    for shape in user_shapes(model):
        if shape.type != "intEnum":
            continue
        if not shape.members:
            continue  # the loader's S3032
        seen: dict[int, str] = {}
        for member in shape.members.values():
            if ENUM_VALUE not in member.traits:
                yield error(model, "S3033", member.id, "intEnum members must have an integer value (enumValue)")
                continue
            value = member.traits[ENUM_VALUE]
            if isinstance(value, float) and not isinstance(value, bool):
                yield error(model, "S3033", member.id, "intEnum members do not support floating point values")
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                yield error(model, "S3033", member.id,
                            f"intEnum members require integer values, but found: {_fmt(value)}")
                continue
            if not _INT_MIN <= value <= _INT_MAX:
                yield error(model, "S3033", member.id,
                            f"intEnum members must fit within an integer, but found: {_fmt(value)}")
                continue
            if value in seen:
                yield error(model, "S3031", member.id,
                            f"intEnum value {value} is also used by member `{seen[value]}`; intEnum values must "
                            "be unique", "IntEnumShape")
            else:
                seen[value] = member.name


def check_mixin_shapes(model: Model) -> Iterable[Diagnostic]:
    """Operation mixins have no input/output; resource mixins no identifiers/properties.

    Spec: mixins.rst §"Operation mixins" and §"Resource mixins" (what the loader does not
    already report: cycles, type mismatches and member conflicts are load errors).
    """
    for shape in user_shapes(model):
        if MIXIN not in shape.traits:
            continue
        if shape.type == "operation" and (shape.input or shape.output):
            yield error(model, "S3040", shape.id,
                        "Operation shapes with the mixin trait MUST target `smithy.api#Unit` for their input "
                        f"and output. Operation mixin shape `{shape.id}` defines one or both of these "
                        "properties.")
        if shape.type == "resource" and (shape.identifiers or shape.properties):
            yield error(model, "S3040", shape.id,
                        "Resource shapes with the mixin trait may not define any properties. Resource mixin "
                        f"shape `{shape.id}` defines one or more properties.")


def check_mixin_member_conflicts(model: Model) -> Iterable[Diagnostic]:
    """Members inherited under one name from several mixins target the same shape.

    Spec: mixins.rst §"Mixin members" (a shape "MUST NOT" inherit conflicting members: members
    with the same name that target different shapes). The loader reports a local member that
    redefines an inherited target (``S2022``); this check covers two mixins that disagree.
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
                    yield error(model, "S3043", member.id,
                                f"Member conflicts with an inherited mixin member: `{inherited.id}` targets "
                                f"`{inherited.target}`, but `{first[0]}` targets `{first[1]}`")
                    break


def check_default_values(model: Model) -> Iterable[Diagnostic]:
    """A ``@default`` value matches the shape it applies to (for a member, its target).

    Spec: type-refinement-traits.rst §"default trait" ("The default value MUST be compatible
    with the shape targeted by the member"). Only the value's type (and enum membership)
    is checked, not constraint traits such as ``range``; ``null`` is accepted.
    """
    for shape in user_shapes(model):
        items = [(shape.id, shape.id, shape.traits, {})]
        items += [(m.id, m.target, m.traits, m.traits) for m in shape.members.values()]
        for node, target, traits, constraints in items:
            if DEFAULT not in traits or traits[DEFAULT] is None:
                continue
            target_shape = model.shapes.get(target)
            if target_shape is None or target_shape.type == "document":
                continue
            if traits[DEFAULT] == {} and target_shape.type not in ("map", "structure", "union"):
                continue  # an explicit ``null`` default, as the loader stores it for annotation-style values
            checker = _NodeChecker(model, shape.namespace, constraints=False)
            checker.check(traits[DEFAULT], target, constraints, "")
            for severity, _path, message in checker.problems:
                if severity.name == "ERROR":
                    yield error(model, "S3007", node,
                                f"The @default value of `{node}` does not match `{target}`: {message}")
