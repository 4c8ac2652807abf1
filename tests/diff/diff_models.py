"""A small cfnResource model as data, rendered to IDL, and the edits a service team makes to
it: the models the diff tests compare (tests/diff/test_diff_edits.py draws the edits with
hypothesis; tests/diff/test_diff_api.py names a few).

A spec is a plain dict (copied, never changed in place by :func:`apply`)::

    {"members": {name: {"target": shape, "create": bool, "update": bool, "read": bool,
                        "required": bool, "cfnName": str | None, "mutability": str | None}},
     "shapes": {name: {"kind": "string", "length": [min, max] | None, "pattern": str | None}
                     | {"kind": "integer", "range": [min, max] | None}
                     | {"kind": "enum", "values": [...]}
                     | {"kind": "list", "unique": bool, "length": [min, max] | None}},
     "update": bool, "list": bool, "identifiers": ["thingId"] (order kept)}
"""

from __future__ import annotations

import copy
from typing import Any

SETTINGS = {"service": "example.diff#DiffService", "organizationName": "Example"}
TYPE_NAME = "Example::DiffService::Thing"

BASE: dict[str, Any] = {
    "members": {
        "name": {"target": "Name", "create": True, "update": True, "read": True, "required": True,
                 "cfnName": None, "mutability": None},
        "size": {"target": "Size", "create": True, "update": True, "read": True, "required": False,
                 "cfnName": None, "mutability": None},
        "tier": {"target": "Tier", "create": True, "update": False, "read": True, "required": False,
                 "cfnName": None, "mutability": None},
        "labels": {"target": "Labels", "create": True, "update": True, "read": True, "required": False,
                   "cfnName": None, "mutability": None},
        "secret": {"target": "Name", "create": True, "update": True, "read": False, "required": False,
                   "cfnName": None, "mutability": None},
        "status": {"target": "Tier", "create": False, "update": False, "read": True, "required": False,
                   "cfnName": None, "mutability": None},
    },
    "shapes": {
        "Name": {"kind": "string", "length": [1, 64], "pattern": "^[a-z-]+$"},
        "Size": {"kind": "integer", "range": [1, 100]},
        "Tier": {"kind": "enum", "values": ["BASIC", "PRO", "MAX"]},
        "Labels": {"kind": "list", "unique": False, "length": [0, 10]},
    },
    "update": True,
    "list": True,
    "identifiers": ["thingId"],
}


def render(spec: dict[str, Any]) -> str:
    """The IDL 2.0 text of a spec (see the module docstring)."""
    members = spec["members"]
    ids = spec["identifiers"]
    out = ['$version: "2"', "", "namespace example.diff", "",
           "use aws.cloudformation#cfnMutability", "use aws.cloudformation#cfnName",
           "use aws.cloudformation#cfnResource", "",
           'service DiffService {', '    version: "2024-01-01"', "    resources: [Thing]", "}", "",
           "/// A thing.", "@cfnResource", "resource Thing {",
           "    identifiers: { " + ", ".join(f"{i}: ThingId" for i in ids) + " }",
           "    properties: {"]
    out += [f"        {name}: {m['target']}" for name, m in members.items()]
    out += ["    }", "    create: CreateThing", "    read: GetThing"]
    if spec["update"]:
        out.append("    update: UpdateThing")
    out.append("    delete: DeleteThing")
    if spec["list"]:
        out.append("    list: ListThings")
    out += ["}", "", "string ThingId", ""]
    for name, shape in spec["shapes"].items():
        if shape["kind"] == "string":
            if shape.get("length"):
                out.append(f"@length(min: {shape['length'][0]}, max: {shape['length'][1]})")
            if shape.get("pattern"):
                out.append(f'@pattern("{shape["pattern"]}")')
            out.append(f"string {name}")
        elif shape["kind"] == "integer":
            if shape.get("range"):
                out.append(f"@range(min: {shape['range'][0]}, max: {shape['range'][1]})")
            out.append(f"integer {name}")
        elif shape["kind"] == "enum":
            out += [f"enum {name} {{", *[f"    {v}" for v in shape["values"]], "}"]
        elif shape["kind"] == "list":
            if shape.get("unique"):
                out.append("@uniqueItems")
            if shape.get("length"):
                out.append(f"@length(min: {shape['length'][0]}, max: {shape['length'][1]})")
            out += [f"list {name} {{", "    member: String", "}"]
        out.append("")

    def member_lines(name: str, m: dict[str, Any], required: bool) -> list[str]:
        lines = []
        if required:
            lines.append("        @required")
        if m.get("cfnName"):
            lines.append(f'        @cfnName("{m["cfnName"]}")')
        if m.get("mutability"):
            lines.append(f'        @cfnMutability("{m["mutability"]}")')
        return lines + [f"        ${name}", ""]

    def ident_lines() -> list[str]:
        return [line for i in ids for line in ("        @required", f"        ${i}", "")]

    out += ["operation CreateThing {", "    input := for Thing {"]
    for name, m in members.items():
        if m["create"]:
            out += member_lines(name, m, m["required"])
    out += ["    }", "    output := for Thing {", *ident_lines(), "    }", "}", ""]
    out += ["@readonly", "operation GetThing {", "    input := for Thing {", *ident_lines(), "    }",
            "    output := for Thing {", *ident_lines()]
    for name, m in members.items():
        if m["read"]:
            out += member_lines(name, m, False)
    out += ["    }", "}", ""]
    if spec["update"]:
        out += ["@idempotent", "operation UpdateThing {", "    input := for Thing {", *ident_lines()]
        for name, m in members.items():
            if m["update"]:
                out += member_lines(name, m, False)
        out += ["    }", "    output := {}", "}", ""]
    out += ["@idempotent", "operation DeleteThing {", "    input := for Thing {", *ident_lines(), "    }",
            "    output := {}", "}", ""]
    if spec["list"]:
        out += ["@readonly", "operation ListThings {", "    input := {}", "    output := {",
                "        @required", "        things: ThingIds", "    }", "}", "", "list ThingIds {",
                "    member: ThingId", "}", ""]
    return "\n".join(out)


#: The edits :func:`apply` knows, with the arguments each takes (names drawn from the spec).
EDITS = ("remove_member", "add_member", "drop_from", "add_to", "required", "cfn_name", "mutability",
         "length", "range", "pattern", "enum_add", "enum_remove", "unique", "drop_operation",
         "add_identifier", "swap_identifiers", "list_length")


def apply(spec: dict[str, Any], edit: str, arg: str = "", value: Any = None) -> dict[str, Any]:
    """A copy of ``spec`` with one edit made (:data:`EDITS`); an edit that does not apply
    (no such member, the last member removed...) leaves the copy unchanged."""
    s = copy.deepcopy(spec)
    members, shapes = s["members"], s["shapes"]
    m = members.get(arg)
    if edit == "remove_member" and m is not None and len(members) > 1:
        del members[arg]
    elif edit == "add_member" and arg and arg not in members:
        members[arg] = {"target": value or "Name", "create": True, "update": True, "read": True, "required": False,
                        "cfnName": None, "mutability": None}
    elif edit == "drop_from" and m is not None and value in ("create", "update", "read"):
        m[value] = False
        if not (m["create"] or m["update"] or m["read"]):
            m["read"] = True
    elif edit == "add_to" and m is not None and value in ("create", "update", "read"):
        m[value] = True
    elif edit == "required" and m is not None and m["create"]:
        m["required"] = not m["required"]
    elif edit == "cfn_name" and m is not None:
        m["cfnName"] = value or None
    elif edit == "mutability" and m is not None:
        m["mutability"] = value or None
    elif edit == "length" and arg in shapes and shapes[arg]["kind"] == "string":
        shapes[arg]["length"] = value
    elif edit == "list_length" and arg in shapes and shapes[arg]["kind"] == "list":
        shapes[arg]["length"] = value
    elif edit == "range" and arg in shapes and shapes[arg]["kind"] == "integer":
        shapes[arg]["range"] = value
    elif edit == "pattern" and arg in shapes and shapes[arg]["kind"] == "string":
        shapes[arg]["pattern"] = value
    elif edit == "enum_add" and arg in shapes and shapes[arg]["kind"] == "enum" and value not in shapes[arg]["values"]:
        shapes[arg]["values"].append(value)
    elif edit == "enum_remove" and arg in shapes and shapes[arg]["kind"] == "enum" and len(shapes[arg]["values"]) > 1 \
            and value in shapes[arg]["values"]:
        shapes[arg]["values"].remove(value)
    elif edit == "unique" and arg in shapes and shapes[arg]["kind"] == "list":
        shapes[arg]["unique"] = not shapes[arg]["unique"]
    elif edit == "drop_operation" and value in ("update", "list"):
        s[value] = not s[value]
    elif edit == "add_identifier" and "parentId" not in s["identifiers"]:
        s["identifiers"].append("parentId")
    elif edit == "swap_identifiers" and len(s["identifiers"]) > 1:
        s["identifiers"].reverse()
    return s
