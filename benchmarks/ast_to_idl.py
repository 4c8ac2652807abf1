"""A small Smithy JSON AST → IDL 2.0 printer, for benchmarks (not part of the package).

Run ``python benchmarks/ast_to_idl.py MODEL.json > MODEL.smithy``.

Good enough for the AWS service models (``/work/shared/conformance/aws-all``): one file per
model, its shapes in the namespace that holds most of them (shapes of other namespaces are
left out, and references to them stay absolute). It prints what a person would write:
documentation as ``///`` comments, other traits as ``@name(...)`` (structure-shaped values as ``key: value`` lists), ``enumValue``
and ``default`` as ``= value``, ``with [...]`` mixins, ``apply`` for the JSON AST's
``apply`` shapes, relative IDs where they resolve back to the same shape
(Smithy 2.0 IDL §"Relative shape ID resolution").
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from typing import Any

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_PRELUDE = "smithy.api"
_SIMPLE = {"blob", "boolean", "document", "string", "byte", "short", "integer", "long", "float", "double",
           "bigInteger", "bigDecimal", "timestamp"}
_ENTITY_LISTS = ("operations", "collectionOperations", "resources", "errors")
_ENTITY_SINGLE = ("create", "put", "read", "update", "delete", "list")


class Printer:
    """Prints the shapes of one namespace of a JSON AST model as one IDL file."""

    def __init__(self, model: dict[str, Any], prelude_names: set[str] | frozenset[str] = frozenset()) -> None:
        self.model = model
        shapes = model.get("shapes", {})
        counts = Counter(sid.partition("#")[0] for sid in shapes)
        self.ns = counts.most_common(1)[0][0] if counts else "example"
        self.local = {sid.partition("#")[2] for sid in shapes if sid.partition("#")[0] == self.ns}
        self.prelude_names = prelude_names
        self.out: list[str] = []

    # ---- names and values
    def ref(self, shape_id: str) -> str:
        """A shape ID as written in this file: relative when it resolves back to itself."""
        ns, _, name = shape_id.partition("#")
        root = name.partition("$")[0]
        if ns == self.ns:
            return name
        if ns == _PRELUDE and root not in self.local:
            return name
        return shape_id

    def value(self, v: Any) -> str:
        if isinstance(v, dict):
            if not v:
                return "{}"
            return "{" + ", ".join(f"{self.key(k)}: {self.value(x)}" for k, x in v.items()) + "}"
        if isinstance(v, list):
            return "[" + ", ".join(self.value(x) for x in v) + "]"
        if isinstance(v, bool):
            return "true" if v else "false"
        if v is None:
            return "null"
        if isinstance(v, str):
            return json.dumps(v, ensure_ascii=False)
        return json.dumps(v)

    def key(self, k: str) -> str:
        return k if _IDENT.match(k) else json.dumps(k, ensure_ascii=False)

    def traits(self, traits: dict[str, Any], indent: str, skip: tuple[str, ...] = ()) -> None:
        doc = traits.get(f"{_PRELUDE}#documentation")
        if isinstance(doc, str) and "\r" not in doc:
            self.out.extend(f"{indent}/// {line}\n" for line in doc.split("\n"))
            skip = (*skip, f"{_PRELUDE}#documentation")
        for tid, v in traits.items():
            if tid in skip:
                continue
            name = self.ref(tid)
            if v == {} and isinstance(v, dict):
                self.out.append(f"{indent}@{name}\n")
            elif isinstance(v, dict):
                body = ", ".join(f"{self.key(k)}: {self.value(x)}" for k, x in v.items())
                self.out.append(f"{indent}@{name}({body})\n")
            else:
                self.out.append(f"{indent}@{name}({self.value(v)})\n")

    # ---- shapes
    def print(self) -> str:
        out = self.out
        out.append('$version: "2.0"\n\n')
        for k, v in (self.model.get("metadata") or {}).items():
            out.append(f"metadata {self.key(k)} = {self.value(v)}\n")
        out.append(f"\nnamespace {self.ns}\n\n")
        for sid, shape in self.model.get("shapes", {}).items():
            ns, _, name = sid.partition("#")
            if shape.get("type") == "apply":
                for tid, v in (shape.get("traits") or {}).items():
                    out.append(f"apply {self.ref(sid)} @{self.ref(tid)}({self.value(v)})\n\n")
                continue
            if ns != self.ns:
                continue
            self.shape(name, shape)
        return "".join(out)

    def shape(self, name: str, shape: dict[str, Any]) -> None:
        out = self.out
        kind = shape["type"]
        self.traits(shape.get("traits") or {}, "")
        head = f"{kind} {name}"
        if shape.get("mixins"):
            head += " with [" + ", ".join(self.ref(m["target"]) for m in shape["mixins"]) + "]"
        if kind in _SIMPLE:
            out.append(head + "\n\n")
        elif kind in ("enum", "intEnum", "structure", "union"):
            out.append(head + " {\n")
            for mname, m in (shape.get("members") or {}).items():
                self.member(mname, m, enum=kind in ("enum", "intEnum"))
            out.append("}\n\n")
        elif kind in ("list", "set", "map"):
            out.append(head + " {\n")
            for mname in ("member", "key", "value"):
                if mname in shape:
                    self.member(mname, shape[mname], enum=False)
            out.append("}\n\n")
        elif kind == "operation":
            out.append(head + " {\n")
            for which in ("input", "output"):
                if which in shape:
                    out.append(f"    {which}: {self.ref(shape[which]['target'])}\n")
            if shape.get("errors"):
                out.append("    errors: [" + ", ".join(self.ref(e["target"]) for e in shape["errors"]) + "]\n")
            out.append("}\n\n")
        elif kind in ("service", "resource"):
            out.append(head + " {\n")
            for k, v in shape.items():
                if k in ("type", "traits", "mixins"):
                    continue
                if k in _ENTITY_LISTS:
                    out.append(f"    {k}: [" + ", ".join(self.ref(x["target"]) for x in v) + "]\n")
                elif k in _ENTITY_SINGLE:
                    out.append(f"    {k}: {self.ref(v['target'])}\n")
                elif k in ("identifiers", "properties"):
                    body = ", ".join(f"{self.key(n)}: {self.ref(x['target'])}" for n, x in v.items())
                    out.append(f"    {k}: {{{body}}}\n")
                elif k == "rename":
                    body = ", ".join(f"{json.dumps(s)}: {json.dumps(n)}" for s, n in v.items())
                    out.append(f"    rename: {{{body}}}\n")
                else:
                    out.append(f"    {k}: {self.value(v)}\n")
            out.append("}\n\n")
        else:
            raise ValueError(f"cannot print a {kind} shape")

    def member(self, name: str, m: dict[str, Any], enum: bool) -> None:
        traits = m.get("traits") or {}
        value_trait = f"{_PRELUDE}#enumValue" if enum else f"{_PRELUDE}#default"
        self.traits(traits, "    ", skip=(value_trait,))
        line = f"    {name}" if enum else f"    {name}: {self.ref(m['target'])}"
        if value_trait in traits:
            line += f" = {self.value(traits[value_trait])}"
        self.out.append(line + "\n")


def to_idl(model: dict[str, Any], prelude_names: set[str] | frozenset[str] = frozenset()) -> str:
    """The IDL text of ``model`` (a JSON AST document as a dict)."""
    return Printer(model, prelude_names).print()


if __name__ == "__main__":  # pragma: no cover
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(to_idl(json.load(f)))
