"""Changing the type of shapes (reference ``ModelTransformer.changeShapeType``,
``ChangeShapeType`` and its ``Retype`` visitor; ``EnumShape.fromStringShape`` and
``memberFromEnumDefinition`` for strings with ``@enum`` that become enum shapes).

What the reference allows: a simple type to another simple type (its members, if any, are
kept; to ``enum``/``intEnum`` only from a string with ``@enum`` whose values all have names,
or can be given one); an enum or intEnum to a simple type (its members go; an enum that
becomes a string gets an ``@enum`` trait listing them); list ↔ set; structure ↔ union. Any
other change is an error. A shape ID the model does not have is ignored, as the reference's
``mapShapes`` never sees it.
"""

from __future__ import annotations

from smithy2cfn.model.shapes import AGGREGATE_TYPES, SERVICE_TYPES, SIMPLE_TYPES, Member, Model, Shape
from smithy2cfn.model.traits import DEPRECATED, DOCUMENTATION, ENUM, ENUM_VALUE, TAGS, UNIT
from smithy2cfn.regexes import lazy
from smithy2cfn.transform import ops
from smithy2cfn.transform.registry import TransformError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: A value from which a member name can be synthesized (reference ``EnumShape.CONVERTABLE_VALUE``).
_CONVERTIBLE = lazy(r"[a-zA-Z\-_.:/\s]+[a-zA-Z_0-9\-.:/\s]*")
#: What a synthesized name replaces with ``_`` (reference ``memberFromEnumDefinition``).
_SEPARATORS = lazy(r"[-.:/\s]+")
#: A member name (Smithy 2.0 §"Shape ID" ``identifier``).
_IDENTIFIER = lazy(r"_*[A-Za-z][A-Za-z0-9_]*")
#: The prelude's ``internal`` trait, which an ``internal``-tagged enum value becomes.
_INTERNAL = "smithy.api#" + "internal"


def _enum_members(shape: Shape, synthesize: bool) -> dict[str, Member] | None:
    """The enum members for a string's ``@enum`` definitions, or ``None`` when one has no
    name and none can be synthesized."""
    definitions = shape.traits.get(ENUM)
    if not isinstance(definitions, list) or not definitions:
        return None
    members: dict[str, Member] = {}
    for d in definitions:
        if not isinstance(d, dict) or not isinstance(d.get("value"), str):
            return None
        name = d.get("name")
        if not isinstance(name, str):
            if not (synthesize and _CONVERTIBLE.fullmatch(d["value"])):
                return None
            name = _SEPARATORS.sub("_", d["value"])
        if not _IDENTIFIER.fullmatch(name):
            return None
        traits: dict[str, Any] = {ENUM_VALUE: d["value"]}
        if isinstance(d.get("documentation"), str):
            traits[DOCUMENTATION] = d["documentation"]
        tags = d.get("tags")
        if isinstance(tags, list) and tags:
            traits[TAGS] = list(tags)
        if d.get("deprecated") is True:
            traits[DEPRECATED] = {}
        if isinstance(tags, list) and "internal" in tags:
            traits[_INTERNAL] = {}
        members[name] = Member(name, UNIT, shape.id, dict(traits), dict(traits), span=shape.span)
    return members


def _enum_trait(shape: Shape) -> list[dict[str, Any]]:
    """An ``@enum`` value listing an enum shape's members (reference
    ``EnumShape.enumDefinitionFromMember``)."""
    out = []
    for name, member in shape.members.items():
        entry: dict[str, Any] = {"value": member.traits.get(ENUM_VALUE, name), "name": name}
        if isinstance(member.traits.get(DOCUMENTATION), str):
            entry["documentation"] = member.traits[DOCUMENTATION]
        tags = list(member.traits.get(TAGS, [])) if isinstance(member.traits.get(TAGS), list) else []
        if _INTERNAL in member.traits and "internal" not in tags:
            tags.append("internal")
        if tags:
            entry["tags"] = tags
        if DEPRECATED in member.traits:
            entry["deprecated"] = True
        out.append(entry)
    return out


def _retype(shape: Shape, to: str, synthesize: bool) -> None:
    """Change ``shape`` (a copy) to type ``to`` in place, as the reference's ``Retype``.

    Raises:
        TransformError: a change the reference does not make.
    """
    frm = shape.type

    def invalid(why: str) -> TransformError:
        return TransformError(f"Cannot convert {shape.id} from {frm} to {to}. {why}", arg="shapeTypes")

    if frm in SERVICE_TYPES or frm == "map":
        raise invalid(f"{frm} cannot be retyped.")
    if frm in ("enum", "intEnum"):
        if to not in SIMPLE_TYPES:
            raise invalid("Enum types can only be converted to simple types.")
        if to in ("enum", "intEnum"):
            raise invalid("This simple type cannot be converted to an enum type.")
        if frm == "enum" and to == "string":
            trait = _enum_trait(shape)
            shape.traits[ENUM] = trait
            shape.introduced_traits[ENUM] = trait
        shape.members = {}
    elif frm in SIMPLE_TYPES:
        if to not in SIMPLE_TYPES:
            raise invalid("Simple types can only be converted to other simple types.")
        if to == "enum" and frm == "string":
            members = _enum_members(shape, synthesize)
            if members is None:
                raise invalid("Strings can only be converted to enums if they have an enum trait where each "
                              "enum definition has a name.")
            for d in (shape.traits, shape.introduced_traits, shape.trait_spans):
                d.pop(ENUM, None)
            shape.members = members
        elif to in ("enum", "intEnum"):
            raise invalid("This simple type cannot be converted to an enum type.")
    elif frm in ("list", "set"):
        if to not in ("list", "set"):
            raise invalid("Lists can only be converted to sets." if frm == "list" else
                          "Sets can only be converted to lists.")
    elif frm in ("structure", "union"):
        if to not in ("structure", "union"):
            raise invalid("Structures can only be converted to unions." if frm == "structure" else
                          "Unions can only be converted to structures.")
    elif frm not in AGGREGATE_TYPES:
        raise invalid(f"{frm} cannot be retyped.")
    shape.type = to


def change_shape_types(model: Model, shape_types: dict[str, str], synthesize: bool) -> Model:
    """A new model with the shapes of ``shape_types`` (ID → JSON AST type name) retyped
    (reference ``ModelTransformer.changeShapeType``; ``synthesize``:
    ``ChangeShapeTypeOption.SYNTHESIZE_ENUM_NAMES``).

    Raises:
        TransformError: a change the reference does not make.
    """
    out = ops.copy_model(model)
    for sid, to in shape_types.items():
        shape = out.shapes.get(sid)
        if shape is not None and shape.type != to:
            _retype(out.own(sid), to, synthesize)
    return out


def upgrade_enums(model: Model, synthesize: bool) -> Model:
    """A new model whose strings with ``@enum`` are enum shapes, where every value has a
    name or (``synthesize``) can be given one (reference ``ChangeShapeType.upgradeEnums``)."""
    out = ops.copy_model(model)
    for sid, shape in list(out.shapes.items()):
        if shape.type == "string" and ENUM in shape.traits and _enum_members(shape, synthesize) is not None:
            _retype(out.own(sid), "enum", synthesize)
    return out


__all__ = ["change_shape_types", "upgrade_enums"]
