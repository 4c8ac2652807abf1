"""The provider of a Lambda-backed custom resource: Python source to start from.

:func:`provider_files` writes, for one resource served as a ``Custom::`` resource (issue 19):

* ``provider.py``: generated, regenerated on every build (its header says so). The Lambda
  entry point ``handler(event, context)`` on top of crhelper (AWS's custom-resource helper,
  ``aws-cloudformation/custom-resource-helper``: dispatch by ``RequestType``, the timer that
  answers before Lambda's timeout, the PUT to the presigned ``ResponseURL`` with retries). It
  converts ``ResourceProperties`` (and ``OldResourceProperties``) from the strings
  CloudFormation delivers to the model's types by walking ``properties.schema.json`` (read
  from beside it), validates them with jsonschema, calls the team's ``create`` / ``update`` /
  ``delete`` and checks the response against CloudFormation's custom resource response rules
  before sending it. crhelper builds a body that breaks some of them (``Data`` and ``NoEcho``
  on a Delete, no size check, a random ``PhysicalResourceId`` on a failed Create), so the
  provider overrides the one method that builds the body (``CfnResource._send``) and keeps
  the rest; that is why requirements.txt pins crhelper to its 2.0 series.
* ``<module>_handlers.py``: the team's code, with typed stubs of the three functions. It is
  written only when absent (second dict of the result): regeneration never overwrites it.
* ``requirements.txt``: what the provider needs at run time (crhelper, jsonschema).

Sources: AWS CloudFormation User Guide, "Custom resources" and "Custom resource request and
response reference" (request fields, response fields, the 4096-byte limit of the body, the
1 KB limit of ``PhysicalResourceId``, replacement by a new physical ID, ``Data``/``NoEcho``);
crhelper 2.0.12 ``resource_helper.py`` and ``utils.py``.

The templates are jinja2, in ``smithy2cfn/custom/templates/``; jinja2 is imported by
:func:`provider_files` only. Output is deterministic.
"""

from __future__ import annotations

import json
import keyword

from smithy2cfn.regexes import lazy
from smithy2cfn.templates import environment
from smithy2cfn.version import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The team's file name: ``<module>_handlers.py``.
HANDLERS_SUFFIX = "_handlers"
#: requirements.txt's lines: the provider's run-time libraries, pinned to ranges. crhelper's
#: 2.0 series only: provider.py overrides its ``CfnResource._send``.
REQUIREMENTS = ("crhelper>=2.0.12,<2.1", "jsonschema>=4.0,<5")
#: The three patterns of the string form of a scalar in properties.schema.json (HELPERS17
#: "Issue 19", shared with smithy2cfn.custom.schemas), by the typed schema's type.
STRING_FORMS = {
    "integer": "^-?[0-9]+$",
    "number": "^-?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?$",
    "boolean": "^(?:true|false)$",
}
#: How deep the schema is walked for the generated types (the schema is cut at 32 already).
MAX_DEPTH = 40

_WORD = lazy(r"[A-Za-z0-9]+")
_CAMEL = lazy(r"(?<=[a-z0-9])(?=[A-Z])")
_IDENTIFIER = lazy(r"^[A-Za-z_][A-Za-z0-9_]*$")
_NEWLINES = lazy(r"[\r\n\x00-\x1f\x7f]+")

def _environment() -> Any:
    return environment("smithy2cfn.custom", {"py": _py_literal, "one_line": one_line, "doc": docstring_text})


def _py_literal(value: Any) -> str:
    """A Python literal of a JSON value (strings, numbers, booleans, None, lists, dicts)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (list, tuple)):  # a tuple
        return "(" + ", ".join(map(_py_literal, value)) + ("," if len(value) == 1 else "") + ")"
    return json.dumps(value, ensure_ascii=False)


def one_line(text: str) -> str:
    """``text`` on one line (control characters and line breaks made spaces): safe in a
    ``#`` comment."""
    return _NEWLINES.sub(" ", text).strip()


def docstring_text(text: Any) -> str:
    """``text`` on one line, safe inside a ``\"\"\"`` docstring (backslashes doubled, quotes
    escaped)."""
    return one_line(str(text)).replace("\\", "\\\\").replace('"', '\\"')


def base_name(custom_name: str) -> str:
    """The PascalCase name of a ``Custom::`` type, for Python names: ``Custom::Vault`` →
    ``Vault``, ``Custom::my-vault.v2`` → ``MyVaultV2``; ``Resource`` when nothing is left."""
    name = custom_name.split("::", 1)[1] if custom_name.startswith("Custom::") else custom_name
    words = _WORD.findall(name)
    text = "".join(w[:1].upper() + w[1:] for w in words) or "Resource"
    return text if not text[0].isdigit() else "R" + text


def module_name(custom_name: str) -> str:
    """The snake_case module name of a ``Custom::`` type: ``Custom::VaultKey`` → ``vault_key``."""
    name = _CAMEL.sub("_", base_name(custom_name)).lower()
    return name + "_" if keyword.iskeyword(name) else name


def handlers_file(custom_name: str) -> str:
    """The team's file name: ``Custom::Vault`` → ``vault_handlers.py``."""
    return module_name(custom_name) + HANDLERS_SUFFIX + ".py"


class _Types:
    """The TypedDicts of a properties schema, nested ones first (a post-order walk)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.classes: list[dict[str, Any]] = []
        self.used: set[str] = set()
        self.literal = False
        self.any = False

    def name(self, wanted: str) -> str:
        name, n = wanted, 2
        while name in self.used:
            name, n = f"{wanted}{n}", n + 1
        self.used.add(name)
        return name

    def annotation(self, schema: Any, name: str, depth: int) -> str:
        """The Python type of a value of ``schema`` (a TypedDict named ``name`` for an object
        with properties)."""
        if not isinstance(schema, dict) or depth > MAX_DEPTH:
            self.any = True
            return "Any"
        typed = typed_branch(schema)
        if typed is not None:
            schema = typed
        kind = schema.get("type")
        enum = schema.get("enum")
        if isinstance(enum, list) and enum and all(isinstance(v, str) for v in enum):
            self.literal = True
            return "Literal[" + ", ".join(json.dumps(v) for v in enum) + "]"
        if kind == "string":
            return "str"
        if kind == "integer":
            return "int"
        if kind == "number":
            return "float"
        if kind == "boolean":
            return "bool"
        if kind == "array":
            items = schema.get("items")
            return f"list[{self.annotation(items, name + 'Item', depth + 1)}]"
        if kind == "object" or "properties" in schema:
            if isinstance(schema.get("properties"), dict) and schema["properties"]:
                return self.typed_dict(schema, name, depth)
            values = schema.get("additionalProperties")
            patterns = schema.get("patternProperties")
            if not isinstance(values, dict) and isinstance(patterns, dict) and len(patterns) == 1:
                values = next(iter(patterns.values()))
            if isinstance(values, dict):
                return f"dict[str, {self.annotation(values, name + 'Value', depth + 1)}]"
            self.any = True
            return "dict[str, Any]"
        self.any = True
        return "Any"

    def typed_dict(self, schema: dict[str, Any], name: str, depth: int, skip: tuple[str, ...] = ()
                   ) -> str:
        name = self.name(name)
        required = set(schema.get("required") or ()) if isinstance(schema.get("required"), list) else set()
        fields = []
        for key in sorted(schema["properties"]):
            if key in skip:
                continue
            child = self.annotation(schema["properties"][key], name + base_name(key), depth + 1)
            fields.append({"name": key, "type": child, "required": key in required})
        self.classes.append({
            "name": name,
            "description": one_line(str(schema.get("description", ""))),
            "fields": fields,
            "required": [f for f in fields if f["required"]],
            "optional": [f for f in fields if not f["required"]],
            "identifiers": all(_IDENTIFIER.match(f["name"]) and not keyword.iskeyword(f["name"])
                               for f in fields),
        })
        return name


def typed_branch(schema: dict[str, Any]) -> dict[str, Any] | None:
    """The typed schema of an ``anyOf [typed, string form]`` of the properties schema's
    encoding (HELPERS17 "Issue 19"), or None when ``schema`` is not one."""
    branches = schema.get("anyOf")
    if not isinstance(branches, list) or len(branches) != 2:
        return None
    typed, text = branches
    if not isinstance(typed, dict) or not isinstance(text, dict):
        return None
    kind = typed.get("type")
    if kind not in STRING_FORMS or text.get("type") != "string" or text.get("pattern") != STRING_FORMS[kind]:
        return None
    return typed


#: The protocol's own properties (not the resource's): validated, not passed to the team.
PROTOCOL_PROPERTIES = ("ServiceToken", "ServiceTimeout")


def provider_files(*, custom_name: str, type_name: str, resource_id: str, model_source: str,
                   regenerate: str, properties_schema: dict[str, Any], create_only: list[str],
                   attributes: list[str], no_echo: bool
                   ) -> tuple[dict[str, str], dict[str, str]]:
    """The provider of one custom resource, as file texts.

    Args:
        custom_name: the ``Custom::`` type name (``"Custom::Vault"``).
        type_name: the resource type it stands for (``"Acme::Vault::Vault"``), for the docs.
        resource_id: the resource's shape ID (``"acme.vault#Vault"``), for the docs.
        model_source: where the model came from, for the header (a file, a folder, a config).
        regenerate: the command line that regenerates the files, for the header.
        properties_schema: ``properties.schema.json`` as a dict (the encoding of scalars of
            HELPERS17 "Issue 19": ``anyOf [typed, string form]``); the generated provider reads
            the file itself at run time, this one gives the generated types.
        create_only: the names of the createOnly properties (top level): an Update that
            changes one is a replacement.
        attributes: the names ``Fn::GetAtt`` reads (the readOnly properties): the only keys
            allowed in the response's ``Data``.
        no_echo: whether the response sets ``NoEcho`` (an attribute is ``@sensitive``).

    Returns:
        ``(files, files_if_absent)``: file name (relative to the custom resource's folder) →
        text. ``files`` (``provider.py``, ``requirements.txt``) are written on every build;
        ``files_if_absent`` (``<module>_handlers.py``, the team's code) only when no file of
        that name exists: regeneration must never overwrite it.

    Raises:
        jinja2.TemplateError: only on a broken template shipped with the package.
    """
    base = base_name(custom_name)
    module = module_name(custom_name) + HANDLERS_SUFFIX
    types = _Types(base)
    if isinstance(properties_schema.get("properties"), dict):
        properties_type = types.typed_dict(properties_schema, base + "Properties", 0,
                                           skip=PROTOCOL_PROPERTIES)
    else:
        types.any = True
        properties_type = types.name(base + "Properties")
        types.classes.append({"name": properties_type, "description": "", "fields": [], "required": [],
                              "optional": [], "identifiers": True})
    attributes_type = types.name(base + "Attributes")
    scalar = "Union[str, int, float, bool]"
    types.classes.append({
        "name": attributes_type, "description": "What Fn::GetAtt reads (the response's Data).",
        "fields": [{"name": a, "type": scalar, "required": False} for a in sorted(attributes)],
        "required": [], "optional": [{"name": a, "type": scalar, "required": False} for a in sorted(attributes)],
        "identifiers": all(_IDENTIFIER.match(a) and not keyword.iskeyword(a) for a in attributes),
    })
    context = {
        "version": __version__,
        "custom_name": custom_name,
        "type_name": type_name,
        "resource_id": resource_id,
        "model_source": model_source,
        "regenerate": regenerate,
        "module": module,
        "create_only": sorted(set(create_only)),
        "attributes": sorted(set(attributes)),
        "no_echo": bool(no_echo),
        "protocol_properties": PROTOCOL_PROPERTIES,
        "string_forms": STRING_FORMS,
        "classes": types.classes,
        "uses_literal": types.literal,
        "uses_any": types.any,
        "properties_type": properties_type,
        "attributes_type": attributes_type,
        "requirements": REQUIREMENTS,
    }
    env = _environment()
    files = {
        "provider.py": env.get_template("provider.py.j2").render(context),
        "requirements.txt": env.get_template("requirements.txt.j2").render(context),
    }
    team = {module + ".py": env.get_template("handlers.py.j2").render(context)}
    return files, team
