"""Writing a :class:`Model` as Smithy JSON AST, the way the reference serializer does.

Smithy 2.0 "JSON AST". Prelude and trait-package shapes are left out; shapes that use
mixins list them as ``mixins`` references and hold only what they introduce (traits,
members, and the errors/operations/resources/version/rename of operations, resources and
services); traits that a shape introduces on a member inherited from a mixin are written as
``"type": "apply"`` entries keyed by the member ID. As the reference serializer does:
operations always have ``input``/``output`` (``smithy.api#Unit`` when absent), lists of
shape references are sorted, IDL 1.0 ``set`` shapes become ``list`` + ``@uniqueItems``,
and the synthetic ``@box`` is left out. Keys are sorted, so the output is byte-stable.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from smithy2cfn.load.jsonread import BigNumber
from smithy2cfn.model import Member, Model, Shape
from smithy2cfn.model.shapes import LIFECYCLE_OPERATIONS
from smithy2cfn.model.traits import UNIT


def _ref(shape_id: str) -> dict[str, str]:
    return {"target": shape_id}


#: Traits the reference treats as synthetic and never writes in a 2.0 JSON AST.
_SYNTHETIC = frozenset({"smithy.api#box"})


def _traits(traits: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in traits.items() if k not in _SYNTHETIC}


def _member(member: Member) -> dict[str, Any]:
    out: dict[str, Any] = {"target": member.target}
    traits = _traits(member.introduced_traits)
    if traits:
        out["traits"] = traits
    return out


def _id_list(ids: list[str]) -> list[dict[str, str]]:
    """A list of references, sorted by shape ID as the reference serializer writes them."""
    return [_ref(i) for i in sorted(set(ids))]


def _introduced(values: list[str], inherited: list[str]) -> list[str]:
    return [v for v in values if v not in inherited]


def shape_to_json_ast(shape: Shape, model: Model | None = None) -> dict[str, dict[str, Any]]:
    """The JSON AST entries for one shape: its own entry plus any ``apply`` entries.

    ``model`` (to look the shape's mixins up) lets the writer leave out what a mixin
    contributes to a service, resource or operation, as the reference serializer does.

    Returns a dict of absolute ID → JSON AST body (``{"type": ..., ...}``).
    """
    body: dict[str, Any] = {"type": shape.type}
    extra: dict[str, dict[str, Any]] = {}
    if shape.mixins:
        body["mixins"] = [_ref(m) for m in shape.mixins]
    traits = _traits(shape.introduced_traits if shape.mixins else shape.traits)
    if shape.type == "set":
        # Sets are not part of IDL 2.0: the reference writes them as lists with @uniqueItems.
        body["type"] = "list"
        traits.setdefault("smithy.api#uniqueItems", {})
    if traits:
        body["traits"] = traits
    mixin_shapes = [model.shapes[m] for m in shape.mixins if model is not None and m in model.shapes]

    def inherited(attr: str) -> list[str]:
        out: list[str] = []
        for m in mixin_shapes:
            out += getattr(m, attr)
        return out

    local = {n: m for n, m in shape.members.items() if m.from_mixin is None}
    if shape.type in ("list", "set"):
        if "member" in local:
            body["member"] = _member(local["member"])
    elif shape.type == "map":
        for name in ("key", "value"):
            if name in local:
                body[name] = _member(local[name])
    elif shape.type in ("structure", "union", "enum", "intEnum"):
        body["members"] = {n: _member(m) for n, m in local.items()}
    for member in shape.members.values():
        if member.from_mixin is not None and _traits(member.introduced_traits):
            extra[member.id] = {"type": "apply", "traits": _traits(member.introduced_traits)}
    if shape.type == "operation":
        body["input"] = _ref(shape.input or UNIT)
        body["output"] = _ref(shape.output or UNIT)
        errors = _introduced(shape.errors, inherited("errors"))
        if errors:
            body["errors"] = _id_list(errors)
    elif shape.type == "resource":
        if shape.identifiers:
            body["identifiers"] = {k: _ref(v) for k, v in shape.identifiers.items()}
        if shape.properties:
            body["properties"] = {k: _ref(v) for k, v in shape.properties.items()}
        for op in LIFECYCLE_OPERATIONS:
            if getattr(shape, op):
                body[op] = _ref(getattr(shape, op))
        operations = _introduced(shape.operations, inherited("operations"))
        if operations:
            body["operations"] = _id_list(operations)
        if shape.collection_operations:
            body["collectionOperations"] = _id_list(shape.collection_operations)
        resources = _introduced(shape.resources, inherited("resources"))
        if resources:
            body["resources"] = _id_list(resources)
    elif shape.type == "service":
        versions = {m.version for m in mixin_shapes}
        if shape.version and shape.version.strip() and shape.version not in versions:
            body["version"] = shape.version
        for attr in ("operations", "resources", "errors"):
            values = _introduced(getattr(shape, attr), inherited(attr))
            if values:
                body[attr] = _id_list(values)
        inherited_rename: dict[str, str] = {}
        for m in mixin_shapes:
            inherited_rename.update(m.rename)
        rename = {k: v for k, v in shape.rename.items() if inherited_rename.get(k) != v}
        if rename:
            body["rename"] = rename
    return {shape.id: body, **extra}


def model_to_json_ast(model: Model, *, include_prelude: bool = False) -> dict[str, Any]:
    """The whole model as a JSON AST document (``{"smithy": "2.0", "metadata"?, "shapes"}``)."""
    shapes: dict[str, Any] = {}
    for shape_id in sorted(model.shapes):
        if not include_prelude and model.is_prelude(shape_id):
            continue
        shapes.update(shape_to_json_ast(model.shapes[shape_id], model))
    doc: dict[str, Any] = {"smithy": "2.0"}
    if model.metadata:
        doc["metadata"] = model.metadata
    doc["shapes"] = shapes
    return doc


def render_json_ast(document: dict[str, Any]) -> str:
    """Byte-stable text of a JSON AST document: sorted keys, 4-space indent, final newline.

    Strict JSON (RFC 8259). A :class:`~smithy2cfn.load.jsonread.BigNumber` (a number too
    large for a 64-bit float) is written as it was written in the model, as the reference
    keeps such numbers.

    Raises:
        ValueError: the document holds a NaN or an infinite float (the readers never make one).
    """
    bigs: list[str] = []
    marker = f"bignumber-{uuid.uuid4().hex}-"

    def swap(value: Any) -> Any:  # node values are at most MAX_NODE_DEPTH deep: bounded recursion
        if isinstance(value, BigNumber):
            bigs.append(value.literal)
            return f"{marker}{len(bigs) - 1}"
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    text = json.dumps(swap(document), indent=4, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"
    if bigs:
        text = re.sub(f'"{marker}([0-9]+)"', lambda m: bigs[int(m.group(1))], text)
    return text
