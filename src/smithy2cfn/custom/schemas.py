"""The JSON Schemas (draft-07) of a Lambda-backed custom resource served from a model's
resource, and the template snippet a user writes for it (issue 19).

CloudFormation's custom resource protocol (the *CloudFormation custom resource request and
response reference*, ``crpg-ref.html`` of the User Guide, and its Create / Update / Delete
pages) is three JSON documents:

* the template's ``Properties`` of the ``Custom::Name`` resource, delivered verbatim as the
  request's ``ResourceProperties`` except that every scalar, at any depth, arrives as a
  string (cloudformation-coverage-roadmap #1037): ``properties.schema.json``;
* the request CloudFormation sends to the provider (``RequestType`` ``Create`` / ``Update``
  / ``Delete``, with ``PhysicalResourceId`` on Update and Delete and
  ``OldResourceProperties`` on Update only): ``request.schema.json``;
* the response the provider puts to the presigned ``ResponseURL`` (``Status``, ``Reason``
  required when ``FAILED``, a non-empty ``PhysicalResourceId`` of at most 1 KB, ``Data`` and
  ``NoEcho`` only on Create and Update, a body of at most 4096 bytes):
  ``response.schema.json``.

The settable properties of the resource schema (the emitted, registry-ready schema of
:func:`smithy2cfn.api.build`: every property not in ``readOnlyProperties``) are the inputs;
its readOnly properties are what ``Fn::GetAtt`` reads, so they are the keys of ``Data``.

The encoding of scalars in ``properties.schema.json`` and ``Data`` (the provider helper
relies on it, issue 19's rooms): every scalar schema (at any depth) whose ``type`` is
``integer``, ``number`` or ``boolean`` is written as ``{"anyOf": [<the typed schema, its
constraints kept>, {"type": "string", "pattern": P}]}`` with P from :data:`STRING_FORMS`;
strings stay plain; objects and arrays recurse (``properties``, ``patternProperties``,
``items``, ``additionalProperties``); ``$ref``\\ s are inlined (``definitions`` dropped) so
each file stands alone, recursion cut at a depth of :data:`MAX_DEPTH` with ``{}``. The string
form is checked for its shape only: a number's ``minimum``/``maximum`` apply once the provider
has converted it to the model's type.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping

from smithy2cfn.derive.plan import ConversionPlan, PropertyPlan, ResourcePlan
from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import SENSITIVE
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S4501", Severity.ERROR, None,
         "a custom resource name is not `Custom::` followed by 1 to 60 letters, digits or `_@-.`", usage=True),
    Code("S4502", Severity.ERROR, None,
         "a settable property of a resource served as a custom resource is named `ServiceToken` or "
         "`ServiceTimeout`, which the custom resource protocol reserves"),
    Code("S4503", Severity.WARNING, None,
         "a readOnly property of a resource served as a custom resource holds an object or a list: "
         "`Fn::GetAtt` reads `Data` as flat name/value pairs, so its response value is JSON text"),
)

#: The JSON Schema dialect of every file.
DRAFT_07 = "http://json-schema.org/draft-07/schema#"
#: The protocol's limit on a response body, in bytes (UTF-8): not a JSON Schema rule, the
#: provider checks it (the reference: "The total size of the response body can't exceed 4096 bytes").
MAX_RESPONSE_BYTES = 4096
#: The most bytes of a ``PhysicalResourceId`` ("up to 1 KB"); the schema says 1024 characters.
MAX_PHYSICAL_ID_BYTES = 1024
#: The most characters of a custom type's name after ``Custom::``.
MAX_CUSTOM_NAME = 60
#: Nested ``$ref``\ s inlined before a recursive shape is cut with ``{}``.
MAX_DEPTH = 32
#: The protocol's request types, in the order the reference lists them.
REQUEST_TYPES = ("Create", "Update", "Delete")
#: The file names :func:`custom_schemas` returns, in that order.
SCHEMA_FILES = ("properties.schema.json", "request.schema.json", "response.schema.json")
#: The properties every custom resource has: reserved names.
PROTOCOL_PROPERTIES = ("ServiceToken", "ServiceTimeout")

#: The string form CloudFormation delivers of each scalar type (issue 19's encoding).
STRING_FORMS: Mapping[str, str] = {
    "integer": "^-?[0-9]+$",
    "number": "^-?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?$",
    "boolean": "^(?:true|false)$",
}
#: A ``ServiceTimeout`` string: an integer from 1 to 3600, no sign, no leading zero.
SERVICE_TIMEOUT_PATTERN = "^(?:[1-9][0-9]{0,2}|[12][0-9]{3}|3[0-5][0-9]{2}|3600)$"
#: A ``ServiceToken``: a Lambda function or SNS topic ARN.
SERVICE_TOKEN_PATTERN = "^arn:aws[a-z-]*:(?:lambda|sns):[a-z0-9-]+:[0-9]{12}:.+$"
#: A custom type's name (the Create request reference: "up to 60 characters long and can
#: include alphanumeric and the following characters: _@-.").
CUSTOM_NAME = lazy(r"Custom::[A-Za-z0-9_@.\-]{1,60}")
#: Keywords of the resource schema that JSON Schema does not know and a custom resource has no use for.
CFN_ONLY = frozenset({"insertionOrder", "arrayType", "relationshipRef", "$comment"})
#: Keywords whose value is one subschema, and those whose value is a list or a map of them.
_ONE = ("items", "additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else")
_LIST = ("allOf", "anyOf", "oneOf")
_MAP = ("properties", "patternProperties")


# --------------------------------------------------------------------------- names


def custom_name_problem(custom_name: object) -> str | None:
    """What is wrong with a ``Custom::`` type name, in words, or ``None`` when it is good
    (``Custom::`` then 1 to :data:`MAX_CUSTOM_NAME` letters, digits or ``_@-.``; the
    reference's Create request page, ``ResourceType``)."""
    if not isinstance(custom_name, str):
        return f"a custom resource name is a string, not {type(custom_name).__name__}"
    if not custom_name.startswith("Custom::"):
        return f"'{custom_name}' does not start with 'Custom::'"
    rest = custom_name[len("Custom::"):]
    if not rest:
        return f"'{custom_name}' has no name after 'Custom::'"
    if len(rest) > MAX_CUSTOM_NAME:
        return f"'{custom_name}' has {len(rest)} characters after 'Custom::', more than {MAX_CUSTOM_NAME}"
    if not CUSTOM_NAME.fullmatch(custom_name):
        bad = sorted({c for c in rest if not (c.isascii() and (c.isalnum() or c in "_@-."))})
        return (f"'{custom_name}' holds {', '.join(repr(c) for c in bad)}: only letters, digits and _@-. may "
                "follow 'Custom::'")
    return None


def logical_id(custom_name: str) -> str:
    """The logical ID the template snippet gives the resource: the letters and digits of the
    name after ``Custom::`` (logical IDs are alphanumeric), ``Resource`` when none are left."""
    rest = custom_name.split("::", 1)[-1]
    return "".join(c for c in rest if c.isascii() and c.isalnum()) or "Resource"


# --------------------------------------------------------------------------- reading the schema


def _pointer_names(pointers: Any) -> set[str]:
    """Top-level property names of ``/properties/<name>`` pointers."""
    out = set()
    for p in pointers if isinstance(pointers, list) else ():
        if isinstance(p, str) and p.startswith("/properties/") and "/" not in p[len("/properties/"):]:
            out.add(p[len("/properties/"):].replace("~1", "/").replace("~0", "~"))
    return out


def _properties(schema: Mapping[str, Any]) -> dict[str, Any]:
    props = schema.get("properties")
    return props if isinstance(props, dict) else {}


def settable_names(schema: Mapping[str, Any]) -> list[str]:
    """The properties a template sets, in the schema's order: every property not in
    ``readOnlyProperties`` (createOnly and writeOnly ones are inputs). Only top-level pointers
    count (smithy2cfn emits no nested ones)."""
    read_only = _pointer_names(schema.get("readOnlyProperties"))
    return [n for n in _properties(schema) if n not in read_only]


def attribute_names(schema: Mapping[str, Any]) -> list[str]:
    """The properties ``Fn::GetAtt`` reads (the readOnly ones, the keys of ``Data``), in the
    schema's order."""
    read_only = _pointer_names(schema.get("readOnlyProperties"))
    return [n for n in _properties(schema) if n in read_only]


def _resolve(root: Mapping[str, Any], ref: Any) -> Any:
    """The node a local ``$ref`` (``#/...``) points at in ``root``, or ``None`` (the
    ``jsonpointer`` library resolves it)."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    import jsonpointer

    try:
        return jsonpointer.resolve_pointer(root, ref[1:], None)
    except jsonpointer.JsonPointerException:
        return None

def encode(node: Any, root: Mapping[str, Any], depth: int = 0) -> Any:
    """A resource-schema node as a custom resource receives it: ``$ref``\\ s inlined (cut at
    :data:`MAX_DEPTH` nested ones with ``{}``, an unresolvable one is ``{}`` too), keywords of
    :data:`CFN_ONLY` left out, and every integer, number or boolean schema wrapped as
    ``{"anyOf": [<typed>, {"type": "string", "pattern": STRING_FORMS[type]}]}`` (see the
    module docstring). ``root`` is the schema the ``$ref``\\ s point into. A new value;
    ``node`` is not changed."""
    if not isinstance(node, dict):
        return copy.deepcopy(node)
    if "$ref" in node:
        target = _resolve(root, node["$ref"])
        if depth >= MAX_DEPTH or not isinstance(target, dict):
            return {}
        merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        return encode(merged, root, depth + 1)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in CFN_ONLY or key == "definitions":
            continue
        if key in _ONE and isinstance(value, dict):
            out[key] = encode(value, root, depth)
        elif key == "items" and isinstance(value, list) or key in _LIST and isinstance(value, list):
            out[key] = [encode(v, root, depth) for v in value]
        elif key in _MAP and isinstance(value, dict):
            out[key] = {k: encode(v, root, depth) for k, v in value.items()}
        elif key == "dependencies" and isinstance(value, dict):
            out[key] = {k: encode(v, root, depth) if isinstance(v, dict) else copy.deepcopy(v)
                        for k, v in value.items()}
        else:
            out[key] = copy.deepcopy(value)
    kind = out.get("type")
    if isinstance(kind, str) and kind in STRING_FORMS:
        return {"anyOf": [out, {"type": "string", "pattern": STRING_FORMS[kind]}]}
    return out


def _is_scalar(node: Any) -> bool:
    """An encoded node holds a string, number, boolean or enum (not an object or a list)."""
    if not isinstance(node, dict):
        return False
    if "anyOf" in node and len(node) == 1:
        return all(_is_scalar(n) for n in node["anyOf"])
    return node.get("type") in ("string", "integer", "number", "boolean") or (
        "enum" in node and "type" not in node) or ("const" in node and "type" not in node)


def is_sensitive(prop: PropertyPlan, model: Model | None) -> bool:
    """``@sensitive`` on the property's member or its target (``smithy.api#sensitive``)."""
    if SENSITIVE in prop.member.traits:
        return True
    target = model.get(prop.member.target) if model is not None and prop.member.target else None
    return target is not None and SENSITIVE in target.traits


def sensitive_attributes(schema: Mapping[str, Any], rplan: ResourcePlan, model: Model | None) -> list[str]:
    """The readOnly properties (``Data`` keys) that are ``@sensitive``: the response sets
    ``NoEcho`` when ``Data`` holds any of them."""
    names = set(attribute_names(schema))
    return [p.schema_name for p in rplan.properties if p.schema_name in names and is_sensitive(p, model)]


# --------------------------------------------------------------------------- checks


def check_custom(schema: Mapping[str, Any], rplan: ResourcePlan, custom_name: object, diags: Diagnostics,
                 span: Span | None = None) -> bool:
    """Check that ``rplan``'s resource can be served as ``custom_name``; report into ``diags``:
    ``S4501`` (a bad ``Custom::`` name, at ``span``: where the setting or flag gave it),
    ``S4502`` (a settable property named ``ServiceToken`` / ``ServiceTimeout``, at its member),
    ``S4503`` (warning: a readOnly property that is an object or a list, at its member).
    Returns False when an error was reported (no schemas should be written then)."""
    ok = True
    problem = custom_name_problem(custom_name)
    if problem is not None:
        diags.error("S4501", f"the custom resource name of {rplan.resource_id} is not valid: {problem}",
                    span=span, shape_id=rplan.resource_id,
                    hint="name it Custom:: followed by up to 60 letters, digits or _@-. (Custom::Vault)")
        ok = False
    by_name = {p.schema_name: p for p in rplan.properties}

    def where(name: str) -> Span | None:
        prop = by_name.get(name)
        return (prop.member.span if prop is not None else None) or rplan.span

    for name in settable_names(schema):
        if name in PROTOCOL_PROPERTIES:
            diags.error("S4502", f"property {name} of {rplan.resource_id} has the name of the custom resource "
                                 f"protocol's own {name}, so it cannot be one of {custom_name}'s properties",
                        span=where(name), shape_id=rplan.resource_id,
                        hint="rename the property with @aws.cloudformation#cfnName")
            ok = False
    for name in attribute_names(schema):
        if not _is_scalar(encode(_properties(schema)[name], schema)):
            diags.warning("S4503", f"readOnly property {name} of {rplan.resource_id} is an object or a list, but "
                                   "Fn::GetAtt reads a custom resource's Data as flat name/value pairs: its value "
                                   "in the response is JSON text", span=where(name), shape_id=rplan.resource_id,
                          hint="expose its scalar members as readOnly properties of their own to read them with "
                               "Fn::GetAtt")
    return ok


# --------------------------------------------------------------------------- the schemas


def _service_token() -> dict[str, Any]:
    return {"type": "string", "pattern": SERVICE_TOKEN_PATTERN,
            "description": "The ARN of the Lambda function or SNS topic that serves the custom resource, in the "
                           "stack's Region."}


def _service_timeout() -> dict[str, Any]:
    return {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 3600},
                      {"type": "string", "pattern": SERVICE_TIMEOUT_PATTERN}],
            "description": "The most seconds an operation of the custom resource may take before it times out, "
                           "an integer from 1 to 3600 (default 3600); CloudFormation delivers it as a string."}


def properties_schema(schema: Mapping[str, Any], rplan: ResourcePlan, custom_name: str) -> dict[str, Any]:
    """``properties.schema.json``: the request's ``ResourceProperties`` (see the module
    docstring): ``ServiceToken`` (required) and ``ServiceTimeout``, then the settable
    properties encoded, ``required`` as the resource schema has it for settable properties,
    ``additionalProperties: false``."""
    props = _properties(schema)
    settable = [n for n in settable_names(schema) if n not in PROTOCOL_PROPERTIES]
    required = [n for n in schema.get("required") or () if isinstance(n, str) and n in settable]
    out: dict[str, Any] = {
        "$schema": DRAFT_07,
        "title": f"{custom_name} ResourceProperties",
        "description": f"The properties of a {custom_name} resource (served from {rplan.resource_id}, "
                       f"{rplan.type_name}) as its provider receives them in ResourceProperties: every number "
                       "and boolean may arrive as its string form (CloudFormation delivers scalars as strings); "
                       "ranges of a string form are checked once the provider converts it.",
        "type": "object",
        "properties": {"ServiceToken": _service_token(), "ServiceTimeout": _service_timeout(),
                       **{n: encode(props[n], schema) for n in settable}},
        "required": ["ServiceToken", *required],
        "additionalProperties": False,
    }
    return out


def _string(description: str, **more: Any) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, **more, "description": description}


def _physical_id() -> dict[str, Any]:
    return _string(f"The provider's identifier of the resource: a non-empty string of at most "
                   f"{MAX_PHYSICAL_ID_BYTES} bytes in UTF-8 (this schema checks {MAX_PHYSICAL_ID_BYTES} characters; "
                   "the provider checks the bytes), the same for the same resource: a different one on an Update "
                   "is a replacement, after which CloudFormation deletes the old one.",
                   maxLength=MAX_PHYSICAL_ID_BYTES)


def _is_type(request_type: str) -> dict[str, Any]:
    return {"properties": {"RequestType": {"const": request_type}}, "required": ["RequestType"]}


def request_schema(schema: Mapping[str, Any], rplan: ResourcePlan, custom_name: str,
                   properties: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``request.schema.json``: the request CloudFormation sends (the reference's request
    object and its Create / Update / Delete pages). Every request has ``RequestType``,
    ``ResponseURL``, ``StackId``, ``RequestId``, ``ResourceType`` (``const`` the custom
    name), ``LogicalResourceId`` and ``ResourceProperties`` (``#/definitions/resourceProperties``:
    the properties schema); an ``if``/``then`` per request type: a Create has no
    ``PhysicalResourceId`` nor ``OldResourceProperties``, an Update has both, a Delete has a
    ``PhysicalResourceId`` and no ``OldResourceProperties``. Other top-level fields are allowed
    (CloudFormation adds some, such as ``ServiceToken``)."""
    props = dict(properties if properties is not None else properties_schema(schema, rplan, custom_name))
    props.pop("$schema", None)
    ref = {"$ref": "#/definitions/resourceProperties"}
    return {
        "$schema": DRAFT_07,
        "title": f"{custom_name} request",
        "description": f"A request CloudFormation sends to the provider of {custom_name} (Create, Update or "
                       "Delete). OldResourceProperties are checked against the current properties schema.",
        "definitions": {"resourceProperties": props},
        "type": "object",
        "properties": {
            "RequestType": {"enum": list(REQUEST_TYPES), "description": "The stack operation that asks for it."},
            "ResponseURL": _string("The presigned Amazon S3 URL the provider puts its response to.", format="uri"),
            "StackId": _string("The ARN of the stack that holds the custom resource.",
                               pattern="^arn:aws[a-z-]*:cloudformation:[^:]*:[^:]*:stack/.+$"),
            "RequestId": _string("A unique ID of the request (with StackId, it identifies the request)."),
            "ResourceType": {"const": custom_name, "description": "The custom resource type of the template."},
            "LogicalResourceId": _string("The resource's logical ID in the template.", pattern="^[A-Za-z0-9]+$",
                                         maxLength=255),
            "PhysicalResourceId": _physical_id(),
            "ResourceProperties": {**ref, "description": "The resource's Properties as the template gives them."},
            "OldResourceProperties": {**ref, "description": "The Properties before the update (Update only)."},
            "ServiceToken": {"type": "string", "description": "The service token of the template."},
        },
        "required": ["RequestType", "ResponseURL", "StackId", "RequestId", "ResourceType", "LogicalResourceId",
                     "ResourceProperties"],
        "allOf": [
            {"if": _is_type("Create"),
             "then": {"not": {"anyOf": [{"required": ["PhysicalResourceId"]}, {"required": ["OldResourceProperties"]}]},
                      "description": "A Create has no PhysicalResourceId and no OldResourceProperties."}},
            {"if": _is_type("Update"),
             "then": {"required": ["PhysicalResourceId", "OldResourceProperties"]}},
            {"if": _is_type("Delete"),
             "then": {"required": ["PhysicalResourceId"], "not": {"required": ["OldResourceProperties"]},
                      "description": "A Delete has a PhysicalResourceId and no OldResourceProperties."}},
        ],
    }


def data_schema(schema: Mapping[str, Any], custom_name: str) -> dict[str, Any]:
    """The ``Data`` object of a response: the readOnly properties (``Fn::GetAtt``'s names)
    encoded as in ``ResourceProperties``, an object or a list as JSON text,
    ``additionalProperties: false``."""
    props = _properties(schema)
    values: dict[str, Any] = {}
    for name in attribute_names(schema):
        node = encode(props[name], schema)
        values[name] = node if _is_scalar(node) else {
            "type": "string", "description": f"{name} as JSON text (Fn::GetAtt reads flat name/value pairs)."}
    return {"type": "object",
            "description": f"What Fn::GetAtt reads of a {custom_name} resource: its readOnly properties.",
            "properties": values, "additionalProperties": False}


def _response(request_type: str, data: bool, sensitive: list[str]) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "Status": {"enum": ["SUCCESS", "FAILED"]},
        "Reason": {"type": "string", "description": "Why it failed (required when Status is FAILED)."},
        "PhysicalResourceId": _physical_id(),
        "StackId": _string("The request's StackId, copied."),
        "RequestId": _string("The request's RequestId, copied."),
        "LogicalResourceId": _string("The request's LogicalResourceId, copied."),
    }
    rules: list[dict[str, Any]] = [
        {"if": {"properties": {"Status": {"const": "FAILED"}}, "required": ["Status"]},
         "then": {"required": ["Reason"], "properties": {"Reason": {"minLength": 1}}}},
    ]
    if data:
        properties["NoEcho"] = {"type": "boolean",
                                "description": "Mask Data's values in Fn::GetAtt's output and the console."}
        properties["Data"] = {"$ref": "#/definitions/data"}
        if sensitive:
            rules.append({"if": {"properties": {"Status": {"const": "SUCCESS"}}, "required": ["Status", "Data"]},
                          "then": {"required": ["NoEcho"], "properties": {"NoEcho": {"const": True}},
                                   "description": f"Data holds @sensitive values ({', '.join(sensitive)}): NoEcho "
                                                  "is true."}})
    return {
        "type": "object",
        "description": f"A response to a {request_type} request"
                       + ("." if data else " (no Data, no NoEcho)."),
        "properties": properties,
        "required": ["Status", "PhysicalResourceId", "StackId", "RequestId", "LogicalResourceId"],
        "additionalProperties": False,
        "allOf": rules,
    }


def response_schema(schema: Mapping[str, Any], rplan: ResourcePlan, custom_name: str,
                    model: Model | None = None) -> dict[str, Any]:
    """``response.schema.json``: the response a provider puts to ``ResponseURL``. One
    definition per request type (``createResponse``, ``updateResponse``, ``deleteResponse``:
    ``Data`` and ``NoEcho`` only on the first two; ``NoEcho`` must be true on a successful
    response with ``Data`` when a readOnly property is ``@sensitive``, which needs ``model``
    when the trait is on a target shape) and ``data`` (:func:`data_schema`); the top level
    accepts any of them, since a response does not say which request it answers: validate
    against :func:`response_schema_for` to check one type's rules. The 4096-byte body limit
    (:data:`MAX_RESPONSE_BYTES`) is in the description: the provider checks it."""
    sensitive = sensitive_attributes(schema, rplan, model)
    names = {t: t.lower() + "Response" for t in REQUEST_TYPES}
    return {
        "$schema": DRAFT_07,
        "title": f"{custom_name} response",
        "description": f"A response of the provider of {custom_name}, put to the request's ResponseURL. Its "
                       f"body is at most {MAX_RESPONSE_BYTES} bytes (checked by the provider, not by this schema). "
                       "The top level accepts a response to any request type; to check the rules of one (Data and "
                       "NoEcho are not allowed on a Delete response), validate against "
                       "{\"$ref\": \"#/definitions/<type>Response\"} with this document's definitions "
                       "(createResponse, updateResponse or deleteResponse).",
        "definitions": {
            "data": data_schema(schema, custom_name),
            **{names[t]: _response(t, t != "Delete", sensitive) for t in REQUEST_TYPES},
        },
        "anyOf": [{"$ref": f"#/definitions/{names[t]}"} for t in REQUEST_TYPES],
    }


def response_schema_for(response: Mapping[str, Any], request_type: str) -> dict[str, Any]:
    """The schema of a response to one request type (``Create``, ``Update`` or ``Delete``):
    ``response``'s definitions with ``allOf: [{"$ref": "#/definitions/<type>Response"}]``.

    Raises:
        ValueError: ``request_type`` is not one of :data:`REQUEST_TYPES`.
    """
    if request_type not in REQUEST_TYPES:
        raise ValueError(f"request type {request_type!r} is not one of {', '.join(REQUEST_TYPES)}")
    return {"$schema": DRAFT_07, "title": f"{response.get('title', 'response')} to {request_type}",
            "definitions": copy.deepcopy(response.get("definitions", {})),
            "allOf": [{"$ref": f"#/definitions/{request_type.lower()}Response"}]}


def custom_schemas(schema: Mapping[str, Any], rplan: ResourcePlan, custom_name: str,
                   model: Model | None = None) -> dict[str, dict[str, Any]]:
    """The three schemas of the custom resource ``custom_name`` served from ``rplan``'s
    resource: ``{"properties.schema.json": ..., "request.schema.json": ...,
    "response.schema.json": ...}`` (JSON values, draft-07; see :func:`properties_schema`,
    :func:`request_schema`, :func:`response_schema`). ``schema`` is the emitted resource
    schema; ``model`` finds ``@sensitive`` on target shapes. Deterministic, ``schema`` is not
    changed.

    Raises:
        ValueError: ``custom_name`` is not a valid ``Custom::`` name (:func:`check_custom`
            reports it as ``S4501`` first).
    """
    problem = custom_name_problem(custom_name)
    if problem is not None:
        raise ValueError(problem)
    props = properties_schema(schema, rplan, custom_name)
    return {
        "properties.schema.json": props,
        "request.schema.json": request_schema(schema, rplan, custom_name, props),
        "response.schema.json": response_schema(schema, rplan, custom_name, model),
    }


# --------------------------------------------------------------------------- template snippet


class _GetAtt:
    """``Fn::GetAtt`` of a logical ID's attribute (YAML ``!GetAtt Name.Attr``)."""

    def __init__(self, name: str, attribute: str) -> None:
        self.name, self.attribute = name, attribute

    def json(self) -> dict[str, Any]:
        return {"Fn::GetAtt": [self.name, self.attribute]}


def placeholder(node: Any, name: str, depth: int = 0) -> Any:
    """A value of an encoded schema node for the snippet: its ``default``, first ``enum``
    value or ``const``, a string ``<name>``, the ``minimum`` (else 1) of a number, ``false``,
    an object of its properties (required ones, else all), a list of one item, a map of one
    ``key``."""
    if not isinstance(node, dict) or depth > 8:
        return f"<{name}>"
    if "default" in node:
        return copy.deepcopy(node["default"])
    if "anyOf" in node and isinstance(node["anyOf"], list) and node["anyOf"]:
        return placeholder(node["anyOf"][0], name, depth + 1)
    if isinstance(node.get("enum"), list) and node["enum"]:
        return copy.deepcopy(node["enum"][0])
    if "const" in node:
        return copy.deepcopy(node["const"])
    kind = node.get("type")
    if kind in ("integer", "number"):
        low = node.get("minimum")
        return low if isinstance(low, (int, float)) and not isinstance(low, bool) else 1
    if kind == "boolean":
        return False
    if kind == "array":
        return [placeholder(node.get("items"), name, depth + 1)]
    if kind == "object":
        props: dict[str, Any] = node["properties"] if isinstance(node.get("properties"), dict) else {}
        required = [n for n in node.get("required") or () if n in props]
        if props:
            return {n: placeholder(props[n], n, depth + 1) for n in (required or list(props))}
        patterns = node.get("patternProperties")
        if isinstance(patterns, dict) and patterns:
            return {"key": placeholder(next(iter(patterns.values())), "value", depth + 1)}
        if isinstance(node.get("additionalProperties"), dict):
            return {"key": placeholder(node["additionalProperties"], "value", depth + 1)}
        return {}
    return f"<{name}>"


def snippet_properties(schema: Mapping[str, Any], rplan: ResourcePlan, custom_name: str,
                       example: Mapping[str, Any] | None) -> dict[str, Any]:
    """The snippet's ``Properties`` without ``ServiceToken``: ``example``'s settable
    properties (keyed by schema name, as :mod:`smithy2cfn.contract` converts a create
    operation's ``@examples`` input) in the schema's order, else a placeholder
    (:func:`placeholder`) for every settable property that is not deprecated."""
    props = properties_schema(schema, rplan, custom_name)["properties"]
    names = [n for n in props if n not in PROTOCOL_PROPERTIES]
    if example is not None:
        return {n: copy.deepcopy(example[n]) for n in names if n in example}
    deprecated = {p.schema_name for p in rplan.properties if p.deprecated}
    return {n: placeholder(props[n], n) for n in names if n not in deprecated}


def create_example(model: Model, plan: ConversionPlan, rplan: ResourcePlan,
                   schema: dict[str, Any]) -> dict[str, Any] | None:
    """The first ``@examples`` input of the resource's ``create`` (else ``put``) operation that
    fits the resource schema, as properties keyed by schema name without readOnly ones
    (converted as :mod:`smithy2cfn.contract` converts them: member names through the plan,
    timestamps and blobs as the schema holds them); ``None`` when there is none. Examples
    with ``error`` or ``allowConstraintErrors`` are skipped."""
    from smithy2cfn.contract.inputs import ResourceInputs
    from smithy2cfn.contract.values import first_error

    resource = model.get(rplan.resource_id)
    if resource is None:
        return None
    inputs = ResourceInputs(model, plan, rplan, schema, Diagnostics())
    for ex in inputs.examples([resource.create, resource.put]):
        doc = inputs.ordered(inputs.writable(ex.props))
        if not ex.invalid and doc and first_error(inputs.validator, doc) is None:
            return doc
    return None


def template_snippet(schema: Mapping[str, Any], rplan: ResourcePlan, custom_name: str,
                     example: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The ``Custom::`` resource as a user writes it: ``{"template.json": ..., "template.yaml":
    ...}`` texts of a template whose ``Resources`` hold it (logical ID :func:`logical_id`,
    ``ServiceToken`` ``Fn::GetAtt`` of ``<logical ID>Provider.Arn``, the properties of
    :func:`snippet_properties`) and whose ``Outputs`` read each ``Data`` key with
    ``Fn::GetAtt``. JSON with 2-space indent; YAML in CloudFormation's short form
    (``!GetAtt``). Deterministic.

    Raises:
        ValueError: ``custom_name`` is not a valid ``Custom::`` name.
    """
    problem = custom_name_problem(custom_name)
    if problem is not None:
        raise ValueError(problem)
    name = logical_id(custom_name)
    properties: dict[str, Any] = {"ServiceToken": _GetAtt(name + "Provider", "Arn"),
                                  **snippet_properties(schema, rplan, custom_name, example)}
    template: dict[str, Any] = {"Resources": {name: {"Type": custom_name, "Properties": properties}}}
    outputs = {logical_id("x::" + a) or a: {"Value": _GetAtt(name, a)} for a in attribute_names(schema)}
    if outputs:
        template["Outputs"] = outputs
    return {"template.json": json.dumps(_plain(template), indent=2, ensure_ascii=False) + "\n",
            "template.yaml": "\n".join(_yaml(template, 0)) + "\n"}


def _plain(value: Any) -> Any:
    if isinstance(value, _GetAtt):
        return value.json()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


#: A string YAML reads back as the same string without quotes.
_PLAIN = lazy(r"[A-Za-z_<][A-Za-z0-9 _.:<>/-]*[A-Za-z0-9_.>/]|[A-Za-z_]")
#: Plain words YAML 1.1 reads as something else than a string.
_YAML_WORDS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf"})


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and text.lower() not in _YAML_WORDS and not text.startswith("<<") and ": " not in text:
        return text
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def _yaml(value: Any, indent: int) -> list[str]:
    """Block-style YAML lines of a mapping or a list at ``indent`` spaces."""
    pad = " " * indent
    lines: list[str] = []
    items = list(value.items()) if isinstance(value, dict) else [(None, v) for v in value]
    for key, item in items:
        head = f"{pad}{_scalar(key)}:" if key is not None else f"{pad}-"
        if isinstance(item, _GetAtt):
            lines.append(f"{head} !GetAtt {item.name}.{item.attribute}")
        elif isinstance(item, (dict, list)) and item:
            if key is None and isinstance(item, dict):
                nested = _yaml(item, indent + 2)
                lines.append(f"{pad}- {nested[0].lstrip()}")
                lines.extend(nested[1:])
            else:
                lines.append(head)
                lines.extend(_yaml(item, indent + 2))
        elif isinstance(item, (dict, list)):
            lines.append(f"{head} {'{}' if isinstance(item, dict) else '[]'}")
        else:
            lines.append(f"{head} {_scalar(item)}")
    return lines
