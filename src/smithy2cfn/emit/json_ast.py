"""Writing a :class:`Model` as Smithy JSON AST, the way the reference serializer does.

Smithy 2.0 "JSON AST". Prelude and trait-package shapes are left out; shapes that use
mixins list them as ``mixins`` references and hold only what they introduce; traits that a
shape introduces on a member inherited from a mixin are written as ``"type": "apply"``
entries keyed by the member ID. Keys are sorted, so the output is byte-stable.
"""

from __future__ import annotations

import json
from typing import Any

from smithy2cfn.model import Member, Model, Shape
from smithy2cfn.model.shapes import LIFECYCLE_OPERATIONS


def _ref(shape_id: str) -> dict[str, str]:
    return {"target": shape_id}


def _member(member: Member) -> dict[str, Any]:
    out: dict[str, Any] = {"target": member.target}
    if member.introduced_traits:
        out["traits"] = dict(member.introduced_traits)
    return out


def shape_to_json_ast(shape: Shape) -> dict[str, dict[str, Any]]:
    """The JSON AST entries for one shape: its own entry plus any ``apply`` entries.

    Returns a dict of absolute ID → JSON AST body (``{"type": ..., ...}``).
    """
    body: dict[str, Any] = {"type": shape.type}
    extra: dict[str, dict[str, Any]] = {}
    if shape.mixins:
        body["mixins"] = [_ref(m) for m in shape.mixins]
    traits = shape.introduced_traits if shape.mixins else shape.traits
    if traits:
        body["traits"] = dict(traits)
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
        if member.from_mixin is not None and member.introduced_traits:
            extra[member.id] = {"type": "apply", "traits": dict(member.introduced_traits)}
    if shape.type == "operation":
        if shape.input:
            body["input"] = _ref(shape.input)
        if shape.output:
            body["output"] = _ref(shape.output)
        if shape.errors:
            body["errors"] = [_ref(e) for e in shape.errors]
    elif shape.type == "resource":
        if shape.identifiers:
            body["identifiers"] = {k: _ref(v) for k, v in shape.identifiers.items()}
        if shape.properties:
            body["properties"] = {k: _ref(v) for k, v in shape.properties.items()}
        for op in LIFECYCLE_OPERATIONS:
            if getattr(shape, op):
                body[op] = _ref(getattr(shape, op))
        if shape.operations:
            body["operations"] = [_ref(o) for o in shape.operations]
        if shape.collection_operations:
            body["collectionOperations"] = [_ref(o) for o in shape.collection_operations]
        if shape.resources:
            body["resources"] = [_ref(r) for r in shape.resources]
    elif shape.type == "service":
        if shape.version is not None:
            body["version"] = shape.version
        if shape.operations:
            body["operations"] = [_ref(o) for o in shape.operations]
        if shape.resources:
            body["resources"] = [_ref(r) for r in shape.resources]
        if shape.errors:
            body["errors"] = [_ref(e) for e in shape.errors]
        if shape.rename:
            body["rename"] = dict(shape.rename)
    return {shape.id: body, **extra}


def model_to_json_ast(model: Model, *, include_prelude: bool = False) -> dict[str, Any]:
    """The whole model as a JSON AST document (``{"smithy": "2.0", "metadata"?, "shapes"}``)."""
    shapes: dict[str, Any] = {}
    for shape_id in sorted(model.shapes):
        if not include_prelude and model.is_prelude(shape_id):
            continue
        shapes.update(shape_to_json_ast(model.shapes[shape_id]))
    doc: dict[str, Any] = {"smithy": "2.0"}
    if model.metadata:
        doc["metadata"] = model.metadata
    doc["shapes"] = shapes
    return doc


def render_json_ast(document: dict[str, Any]) -> str:
    """Byte-stable text of a JSON AST document: sorted keys, 4-space indent, final newline."""
    return json.dumps(document, indent=4, sort_keys=True, ensure_ascii=False) + "\n"
