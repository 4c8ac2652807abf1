"""Write a Smithy JSON AST model as Smithy IDL 2.0, to benchmark the IDL front end on a
real model's size (issue 10: "s3 as IDL").

Run ``python benchmarks/ast_to_idl.py MODEL.json [-o OUT.smithy]`` (default: standard
output). One namespace per model (the AWS models have one; an error otherwise).

What it writes (Smithy 2.0 IDL spec, "Shape statements"): ``metadata`` statements, the
namespace, then every shape in the JSON AST's order with its traits as ``@id(value)`` (the
value as JSON, which is an IDL node value; objects and arrays over indented lines, as
people write them) and its members; shape IDs of the model's own
namespace relative, prelude IDs relative when no shape of the model has the same name,
others absolute. Shapes of the prelude namespace (``smithy.api``) are left out. The result
loads to the same model as the JSON AST (``python -m smithy2cfn ast`` of both is equal:
:func:`check_round_trip`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

PRELUDE = "smithy.api"
SIMPLE = {"blob", "boolean", "string", "byte", "short", "integer", "long", "float", "double", "bigInteger",
          "bigDecimal", "timestamp", "document"}
SHAPE_LISTS = ("operations", "resources", "errors", "collectionOperations")
LIFECYCLE = ("create", "put", "read", "update", "delete", "list")


class Writer:
    """Renders the shapes of one namespace (see the module docstring)."""

    def __init__(self, namespace: str, names: set[str]):
        self.namespace = namespace
        self.names = names  # the model's own shape names, which shadow the prelude's

    def ref(self, shape_id: str) -> str:
        namespace, _, name = shape_id.partition("#")
        if namespace == self.namespace or (namespace == PRELUDE and "$" not in name and name not in self.names):
            return name
        return shape_id

    @staticmethod
    def value(node: Any) -> str:
        return json.dumps(node, ensure_ascii=False)

    def traits(self, traits: dict[str, Any], indent: str) -> str:
        out = []
        for tid, v in traits.items():
            text = self.value(v)
            if isinstance(v, (dict, list)) and v:  # laid out over lines, as people write them
                text = json.dumps(v, ensure_ascii=False, indent=4).replace("\n", "\n" + indent)
            out.append(f"{indent}@{self.ref(tid)}({text})\n")
        return "".join(out)

    def members(self, members: dict[str, Any], indent: str = "    ") -> str:
        out = []
        for name, member in members.items():
            out.append(self.traits(member.get("traits", {}), indent))
            out.append(f"{indent}{name}: {self.ref(member['target'])}\n")
        return "".join(out)

    def shape(self, shape_id: str, shape: dict[str, Any]) -> str:
        kind = shape["type"]
        name = shape_id.partition("#")[2]
        head = self.traits(shape.get("traits", {}), "")
        mixins = shape.get("mixins", [])
        with_ = f" with [{', '.join(self.ref(m['target']) for m in mixins)}]" if mixins else ""
        if kind in SIMPLE:
            return f"{head}{kind} {name}{with_}\n"
        if kind in ("structure", "union"):
            return f"{head}{kind} {name}{with_} {{\n{self.members(shape.get('members', {}))}}}\n"
        if kind in ("enum", "intEnum"):
            return f"{head}{kind} {name}{with_} {{\n{self.enum_members(shape.get('members', {}))}}}\n"
        if kind in ("list", "set"):
            kind = "list"  # IDL 2.0 has no set: a set is a list with @uniqueItems
            extra = "" if shape["type"] == "list" else "@uniqueItems\n"
            return f"{extra}{head}{kind} {name}{with_} {{\n{self.members({'member': shape['member']})}}}\n"
        if kind == "map":
            members = {"key": shape["key"], "value": shape["value"]}
            return f"{head}map {name}{with_} {{\n{self.members(members)}}}\n"
        if kind in ("service", "resource", "operation"):
            return f"{head}{kind} {name}{with_} {{\n{self.properties(shape)}}}\n"
        raise ValueError(f"{shape_id}: unsupported shape type {kind!r}")

    def enum_members(self, members: dict[str, Any]) -> str:
        out = []
        for name, member in members.items():
            traits = dict(member.get("traits", {}))
            value = traits.pop("smithy.api#enumValue", None)
            out.append(self.traits(traits, "    "))
            out.append(f"    {name} = {self.value(value)}\n" if value is not None else f"    {name}\n")
        return "".join(out)

    def properties(self, shape: dict[str, Any]) -> str:
        out = []
        for key, value in shape.items():
            if key in ("type", "traits", "mixins"):
                continue
            if key in ("input", "output") or key in LIFECYCLE:
                out.append(f"    {key}: {self.ref(value['target'])}\n")
            elif key in SHAPE_LISTS:
                out.append(f"    {key}: [{', '.join(self.ref(v['target']) for v in value)}]\n")
            elif key in ("identifiers", "properties"):
                pairs = ", ".join(f"{k}: {self.ref(v['target'])}" for k, v in value.items())
                out.append(f"    {key}: {{ {pairs} }}\n")
            elif key == "rename":
                pairs = ", ".join(f"{self.value(k)}: {self.value(v)}" for k, v in value.items())
                out.append(f"    rename: {{ {pairs} }}\n")
            elif key == "version":
                out.append(f"    version: {self.value(value)}\n")
            else:
                raise ValueError(f"unsupported property {key!r}")
        return "".join(out)


def to_idl(document: dict[str, Any]) -> str:
    """The IDL text of a JSON AST document (one namespace besides the prelude's)."""
    shapes = {k: v for k, v in document.get("shapes", {}).items() if not k.startswith(PRELUDE + "#")}
    namespaces = {k.partition("#")[0] for k in shapes}
    if len(namespaces) != 1:
        raise SystemExit(f"ast_to_idl: one namespace expected, found {sorted(namespaces)}")
    (namespace,) = namespaces
    writer = Writer(namespace, {k.partition("#")[2] for k in shapes})
    out = ['$version: "2"\n\n']
    for key, value in document.get("metadata", {}).items():
        out.append(f"metadata {writer.value(key)} = {writer.value(value)}\n")
    out.append(f"\nnamespace {namespace}\n")
    for shape_id, shape in shapes.items():
        out.append("\n" + writer.shape(shape_id, shape))
    return "".join(out)


def check_round_trip(json_path: Path, idl_path: Path) -> None:
    """Fail unless both files load without errors to the same model (as JSON AST)."""
    from smithy2cfn import api

    texts = []
    for path in (json_path, idl_path):
        result = api.write_json_ast([path])
        errors = [d.format_text() for d in result.diagnostics if d.is_error]
        if result.text is None or errors:
            raise SystemExit(f"ast_to_idl: {path} does not load: {errors[:3]}")
        texts.append(result.text)
    if texts[0] != texts[1]:
        raise SystemExit(f"ast_to_idl: {idl_path} loads to another model than {json_path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("-o", "--output", type=Path)
    parser.add_argument("--check", action="store_true", help="check that the IDL loads to the same model")
    args = parser.parse_args()
    text = to_idl(json.loads(args.model.read_text(encoding="utf-8")))
    if args.output is None:
        sys.stdout.write(text)
        return
    args.output.write_text(text, encoding="utf-8")
    if args.check:
        check_round_trip(args.model, args.output)


if __name__ == "__main__":
    main()
