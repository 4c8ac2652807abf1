"""The JSON Schemas of a Lambda-backed custom resource (smithy2cfn.custom.schemas, issue 19),
checked on examples/vault served as ``Custom::Vault``: what CloudFormation sends (every scalar
a string) and the protocol reference's request and response examples (the CloudFormation
User Guide's "custom resource request and response reference", Create / Update / Delete
pages), written with Vault's own property and attribute names."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest

from conftest import REPO
from smithy2cfn.custom.schemas import (
    MAX_DEPTH,
    MAX_RESPONSE_BYTES,
    SCHEMA_FILES,
    STRING_FORMS,
    attribute_names,
    check_custom,
    create_example,
    custom_name_problem,
    custom_schemas,
    encode,
    response_schema_for,
    settable_names,
    template_snippet,
)
from smithy2cfn.diagnostics import Diagnostics, Span

NAME = "Custom::Vault"
TOKEN = "arn:aws:lambda:us-west-2:123456789012:function:vault-provider"
STACK = "arn:aws:cloudformation:us-west-2:123456789012:stack/mystack/5b918d10-cd98-11ea-90d5-0a9cd3354c10"
URL = ("https://cloudformation-custom-resource-response-uswest2.s3.us-west-2.amazonaws.com/"
       "arn%3Aaws%3Acloudformation%3Aus-west-2%3A123456789012%3Astack/mystack/5b918d10?X-Amz-Signature=abc")
VAULT_ID = "v-0123456789abcdef"


@pytest.fixture(scope="module")
def vault() -> Any:
    from smithy2cfn.api import build_from_config

    result = build_from_config(str(REPO / "examples" / "vault" / "smithy-build.json"), out_dir=None)
    projection = result.projections[0]
    assert projection.schemas, [d.message for d in result.diagnostics]
    return projection


@pytest.fixture(scope="module")
def parts(vault: Any) -> tuple[dict[str, Any], Any]:
    schema = vault.schemas["acme-vault-vault.json"]
    return schema, vault.plan.resources[0]


@pytest.fixture(scope="module")
def schemas(vault: Any, parts: Any) -> dict[str, dict[str, Any]]:
    schema, rplan = parts
    return custom_schemas(schema, rplan, NAME, vault.model)


def validator(schema: dict[str, Any]) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)


def errors(schema: dict[str, Any], instance: Any) -> list[str]:
    return [e.message for e in validator(schema).iter_errors(instance)]


def rules(schema: dict[str, Any], instance: Any) -> list[str]:
    """The broken rules as ``<path>:<keyword>`` (``/`` for the top), searched through ``anyOf``."""
    out = []
    for error in validator(schema).iter_errors(instance):
        for e in [error, *(error.context or ())]:
            out.append("/" + "/".join(str(p) for p in e.absolute_path) + ":" + str(e.validator))
    return out


def stringify(value: Any) -> Any:
    """A value as CloudFormation delivers it in ResourceProperties: every scalar a string."""
    if isinstance(value, dict):
        return {k: stringify(v) for k, v in value.items()}
    if isinstance(value, list):
        return [stringify(v) for v in value]
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return value


#: Every settable property of Vault, as a template sets it (native types).
EVERY_PROPERTY = {
    "ServiceToken": TOKEN,
    "ServiceTimeout": 300,
    "AdminPassword": "correct horse battery staple",
    "Description": "Secrets of the platform team",
    "Encryption": {"Algorithm": "AES256", "RotationDays": 90},
    "KmsKeyId": "alias/vault",
    "Labels": {"env": "prod", "tier": "archive"},
    "RetentionDays": 30,
    "StorageClass": "INFREQUENT",
    "Tags": [{"Key": "team", "Value": "platform"}],
    "Tier": "gold",
    "VaultName": "team-secrets",
}


# --------------------------------------------------------------------------- properties


def test_the_properties_are_the_settable_ones_and_the_protocols(schemas, parts):
    schema, _ = parts
    props = schemas["properties.schema.json"]
    assert list(props["properties"]) == ["ServiceToken", "ServiceTimeout", *settable_names(schema)]
    assert set(EVERY_PROPERTY) == set(props["properties"])
    assert not set(attribute_names(schema)) & set(props["properties"])  # readOnly ones are not inputs
    assert {"AdminPassword", "KmsKeyId", "VaultName", "Encryption"} <= set(props["properties"])  # writeOnly, createOnly
    assert props["required"] == ["ServiceToken", "Encryption", "VaultName"]
    assert props["additionalProperties"] is False
    assert "$ref" not in json.dumps(props) and "definitions" not in props


def test_scalars_are_encoded_as_issue_19_says(schemas):
    props = schemas["properties.schema.json"]["properties"]
    assert props["RetentionDays"] == {"anyOf": [{"type": "integer", "maximum": 3650, "minimum": 1},
                                                {"type": "string", "pattern": "^-?[0-9]+$"}]}
    nested = props["Encryption"]["properties"]["RotationDays"]["anyOf"]
    assert nested[0]["type"] == "integer" and nested[1] == {"type": "string", "pattern": STRING_FORMS["integer"]}
    assert props["VaultName"]["type"] == "string" and "anyOf" not in props["VaultName"]
    assert props["Tags"]["items"]["type"] == "object"  # $ref inlined, insertionOrder left out
    assert "insertionOrder" not in props["Tags"]


def test_the_properties_schema_accepts_what_cloudformation_sends(schemas):
    props = schemas["properties.schema.json"]
    sent = stringify(EVERY_PROPERTY)
    assert sent["RetentionDays"] == "30" and sent["Encryption"]["RotationDays"] == "90"
    assert errors(props, sent) == []
    assert errors(props, EVERY_PROPERTY) == []  # the native types a template writes
    for timeout in ("1", "60", "3600", 1, 3600):
        assert errors(props, {**sent, "ServiceTimeout": timeout}) == [], timeout
    assert errors(props, {"ServiceToken": TOKEN, "VaultName": "abc", "Encryption": {"Algorithm": "x"}}) == []


@pytest.mark.parametrize("where, value", [
    (("RetentionDays",), "thirty"),
    (("RetentionDays",), "3.5"),
    (("RetentionDays",), True),
    (("Encryption", "RotationDays"), "ninety"),
    (("Encryption",), "AES256"),
    (("Tags",), {"Key": "team", "Value": "platform"}),
    (("Labels",), ["prod"]),
    (("VaultName",), 42),
    (("ServiceToken",), 42),
])
def test_the_properties_schema_rejects_wrong_types(schemas, where, value):
    doc = copy.deepcopy(stringify(EVERY_PROPERTY))
    node = doc
    for step in where[:-1]:
        node = node[step]
    node[where[-1]] = value
    assert errors(schemas["properties.schema.json"], doc), (where, value)


@pytest.mark.parametrize("change", [
    {"VaultName": "x"},  # minLength
    {"VaultName": "Team_Secrets"},  # pattern
    {"RetentionDays": 0},  # minimum (a native number)
    {"RetentionDays": 3651},  # maximum
    {"StorageClass": "GLACIER"},  # enum
    {"Encryption": {"RotationDays": "90"}},  # a nested required member missing
    {"Encryption": {"Algorithm": "AES256", "Rounds": "3"}},  # a nested unknown member
    {"Tags": [{"Key": "team"}]},  # an item's required member missing
    {"Unknown": "x"},  # additionalProperties
    {"ServiceToken": "vault-provider"},  # not a Lambda or SNS ARN
    {"ServiceTimeout": "0"},
    {"ServiceTimeout": "3601"},
    {"ServiceTimeout": "060"},
    {"ServiceTimeout": 0},
    {"ServiceTimeout": 3601},
    {"ServiceTimeout": "soon"},
])
def test_the_properties_schema_rejects_constraint_violations(schemas, change):
    assert errors(schemas["properties.schema.json"], {**stringify(EVERY_PROPERTY), **change}), change


def test_service_token_and_required_properties_are_required(schemas):
    props = schemas["properties.schema.json"]
    for name in ("ServiceToken", "VaultName", "Encryption"):
        doc = {k: v for k, v in stringify(EVERY_PROPERTY).items() if k != name}
        assert any(f"'{name}' is a required property" in m for m in errors(props, doc)), name


# --------------------------------------------------------------------------- requests


def create_request() -> dict[str, Any]:
    """The reference's Create example, with Vault's properties."""
    return {
        "RequestType": "Create",
        "RequestId": "unique-id-for-this-create-request",
        "ResponseURL": URL,
        "ResourceType": NAME,
        "LogicalResourceId": "MyVault",
        "StackId": STACK,
        "ServiceToken": TOKEN,
        "ResourceProperties": stringify({"ServiceToken": TOKEN, "VaultName": "team-secrets",
                                         "Encryption": {"Algorithm": "AES256", "RotationDays": 90},
                                         "RetentionDays": 30, "Tags": [{"Key": "team", "Value": "platform"}],
                                         "Labels": {"env": "prod"}}),
    }


def update_request() -> dict[str, Any]:
    """The reference's Update example: PhysicalResourceId and OldResourceProperties."""
    request = create_request()
    old = request["ResourceProperties"]
    return {**request, "RequestType": "Update", "RequestId": "unique-id-for-this-update-request",
            "PhysicalResourceId": VAULT_ID,
            "ResourceProperties": {**old, "RetentionDays": "365", "StorageClass": "INFREQUENT"},
            "OldResourceProperties": old}


def delete_request() -> dict[str, Any]:
    """The reference's Delete example: PhysicalResourceId, no OldResourceProperties."""
    return {**create_request(), "RequestType": "Delete", "RequestId": "unique-id-for-this-delete-request",
            "PhysicalResourceId": VAULT_ID}


def test_the_request_schema_accepts_the_references_examples(schemas):
    for request in (create_request(), update_request(), delete_request()):
        assert errors(schemas["request.schema.json"], request) == [], request["RequestType"]


def _without(doc: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != key}


def _props(request: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """``request`` with its ResourceProperties changed (a value ``None`` removes the key)."""
    props = {**request["ResourceProperties"], **changes}
    return {**request, "ResourceProperties": {k: v for k, v in props.items() if v is not None}}


@pytest.mark.parametrize("broken, expected", [
    pytest.param(lambda: _props(create_request(), ServiceToken=None), "/ResourceProperties:required",
                 id="missing ServiceToken"),
    pytest.param(lambda: {**create_request(), "ResourceType": "Custom::Other"}, "/ResourceType:const",
                 id="ResourceType mismatch"),
    pytest.param(lambda: {**create_request(), "PhysicalResourceId": VAULT_ID}, "/:not",
                 id="PhysicalResourceId on Create"),
    pytest.param(lambda: {**create_request(), "OldResourceProperties": create_request()["ResourceProperties"]},
                 "/:not", id="OldResourceProperties on Create"),
    pytest.param(lambda: {**delete_request(), "OldResourceProperties": create_request()["ResourceProperties"]},
                 "/:not", id="OldResourceProperties on Delete"),
    pytest.param(lambda: _without(update_request(), "OldResourceProperties"), "/:required",
                 id="Update without OldResourceProperties"),
    pytest.param(lambda: _without(update_request(), "PhysicalResourceId"), "/:required",
                 id="Update without PhysicalResourceId"),
    pytest.param(lambda: _without(delete_request(), "PhysicalResourceId"), "/:required",
                 id="Delete without PhysicalResourceId"),
    pytest.param(lambda: {**create_request(), "RequestType": "Read"}, "/RequestType:enum", id="unknown RequestType"),
    pytest.param(lambda: _without(create_request(), "ResponseURL"), "/:required", id="missing ResponseURL"),
    pytest.param(lambda: _props(create_request(), ServiceTimeout="0"), "/ResourceProperties/ServiceTimeout:anyOf",
                 id="ServiceTimeout 0"),
    pytest.param(lambda: _props(create_request(), ServiceTimeout="3601"), "/ResourceProperties/ServiceTimeout:anyOf",
                 id="ServiceTimeout 3601"),
    pytest.param(lambda: _props(create_request(), RetentionDays="thirty"), "/ResourceProperties/RetentionDays:anyOf",
                 id="a property of the wrong type"),
    pytest.param(lambda: {**update_request(), "OldResourceProperties": {"ServiceToken": TOKEN}},
                 "/OldResourceProperties:required", id="OldResourceProperties without the required properties"),
])
def test_the_request_schema_rejects_each_broken_variant(schemas, broken, expected):
    assert expected in rules(schemas["request.schema.json"], broken())


# --------------------------------------------------------------------------- responses


def response(request: dict[str, Any], **more: Any) -> dict[str, Any]:
    """The reference's success response to ``request``, copying its IDs."""
    return {"Status": "SUCCESS", "PhysicalResourceId": request.get("PhysicalResourceId", VAULT_ID),
            "StackId": request["StackId"], "RequestId": request["RequestId"],
            "LogicalResourceId": request["LogicalResourceId"], **more}


DATA = {"VaultId": VAULT_ID, "VaultArn": "arn:aws:vault:us-west-2:123456789012:vault/" + VAULT_ID,
        "Status": "ACTIVE", "CreationTime": "2026-11-26T03:15:05Z", "SecretCount": "0"}


def test_the_response_schema_accepts_the_references_examples(schemas):
    top = schemas["response.schema.json"]
    cases = {
        "Create": [response(create_request(), Data=DATA), response(create_request()),
                   response(create_request(), Data={**DATA, "SecretCount": 3}, NoEcho=True),
                   response(create_request(), Status="FAILED", Reason="Required failure reason string")],
        "Update": [response(update_request(), Data=DATA),
                   response(update_request(), Status="FAILED", Reason="Required failure reason string")],
        "Delete": [response(delete_request()),
                   response(delete_request(), Status="FAILED", Reason="Required failure reason string")],
    }
    for request_type, bodies in cases.items():
        for body in bodies:
            assert errors(response_schema_for(top, request_type), body) == [], (request_type, body)
            assert errors(top, body) == [], body


@pytest.mark.parametrize("request_type, body, expected", [
    pytest.param("Create", _without(response(create_request(), Status="FAILED"), "Reason"),
                 "/:required", id="FAILED without Reason"),
    pytest.param("Create", response(create_request(), Status="FAILED", Reason=""),
                 "/Reason:minLength", id="FAILED with an empty Reason"),
    pytest.param("Delete", response(delete_request(), Data={"VaultId": VAULT_ID}),
                 "/:additionalProperties", id="Data on a Delete response"),
    pytest.param("Delete", response(delete_request(), NoEcho=False),
                 "/:additionalProperties", id="NoEcho on a Delete response"),
    pytest.param("Create", response(create_request(), PhysicalResourceId=""),
                 "/PhysicalResourceId:minLength", id="empty PhysicalResourceId"),
    pytest.param("Create", response(create_request(), PhysicalResourceId="x" * 1025),
                 "/PhysicalResourceId:maxLength", id="PhysicalResourceId too long"),
    pytest.param("Update", _without(response(update_request()), "PhysicalResourceId"),
                 "/:required", id="no PhysicalResourceId"),
    pytest.param("Create", response(create_request(), Data={"Unknown": "x"}),
                 "/Data:additionalProperties", id="unknown Data key"),
    pytest.param("Create", response(create_request(), Data={"VaultName": "team-secrets"}), "/Data:additionalProperties",
                 id="a settable property in Data"),
    pytest.param("Create", response(create_request(), Data={"SecretCount": "many"}),
                 "/Data/SecretCount:anyOf", id="a Data value of the wrong type"),
    pytest.param("Create", response(create_request(), Data={"VaultId": "vault-1"}),
                 "/Data/VaultId:pattern", id="a Data value off its pattern"),
    pytest.param("Create", response(create_request(), NoEcho="true"), "/NoEcho:type", id="NoEcho not a boolean"),
    pytest.param("Create", response(create_request(), Status="OK"), "/Status:enum", id="unknown Status"),
    pytest.param("Create", response(create_request(), RequestType="Create"),
                 "/:additionalProperties", id="an unknown field"),
])
def test_the_response_schema_rejects_each_broken_variant(schemas, request_type, body, expected):
    assert expected in rules(response_schema_for(schemas["response.schema.json"], request_type), body)
    if request_type != "Delete":  # a response does not say what it answers: Data is fine at the top level
        assert errors(schemas["response.schema.json"], body)


def test_the_response_schema_says_what_it_cannot_check(schemas):
    top = schemas["response.schema.json"]
    assert MAX_RESPONSE_BYTES == 4096 and "4096 bytes" in top["description"]
    assert "bytes" in top["definitions"]["createResponse"]["properties"]["PhysicalResourceId"]["description"]
    assert "deleteResponse" in top["description"]
    assert list(top["definitions"]["data"]["properties"]) == ["CreationTime", "SecretCount", "Status", "VaultArn",
                                                              "VaultId"]
    with pytest.raises(ValueError, match="Read"):
        response_schema_for(top, "Read")


# --------------------------------------------------------------------------- @sensitive


def test_no_echo_is_required_when_a_data_value_is_sensitive(tmp_path):
    from smithy2cfn.api import build_from_config

    vault = REPO / "examples" / "vault"
    text = (vault / "model" / "vault.smithy").read_text(encoding="utf-8")
    sensitive = text.replace("@pattern(\"^arn:aws[a-z-]*:vault:", "@sensitive\n@pattern(\"^arn:aws[a-z-]*:vault:")
    assert sensitive != text
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "vault.smithy").write_text(sensitive, encoding="utf-8")
    (tmp_path / "smithy-build.json").write_text((vault / "smithy-build.json").read_text(encoding="utf-8"),
                                                encoding="utf-8")
    projection = build_from_config(str(tmp_path / "smithy-build.json"), out_dir=None).projections[0]
    schema = projection.schemas["acme-vault-vault.json"]
    rplan = projection.plan.resources[0]
    with_model = response_schema_for(custom_schemas(schema, rplan, NAME, projection.model)["response.schema.json"],
                                      "Create")
    body = response(create_request(), Data=DATA)
    assert any("NoEcho" in m for m in errors(with_model, body))
    assert errors(with_model, {**body, "NoEcho": True}) == []
    assert errors(with_model, response(create_request())) == []  # no Data, nothing to mask
    # the trait is on the target shape: without the model it cannot be seen
    without = response_schema_for(custom_schemas(schema, rplan, NAME)["response.schema.json"], "Create")
    assert errors(without, body) == []


# --------------------------------------------------------------------------- all schemas


def test_every_schema_is_a_draft_07_schema(schemas):
    assert list(schemas) == list(SCHEMA_FILES)
    for name, doc in schemas.items():
        assert doc["$schema"] == "http://json-schema.org/draft-07/schema#", name
        jsonschema.Draft7Validator.check_schema(doc)
    for request_type in ("Create", "Update", "Delete"):
        jsonschema.Draft7Validator.check_schema(response_schema_for(schemas["response.schema.json"], request_type))


def test_the_schemas_are_deterministic_and_leave_their_input_alone(vault, parts, schemas):
    schema, rplan = parts
    before = copy.deepcopy(schema)
    again = custom_schemas(schema, rplan, NAME, vault.model)
    assert json.dumps(again) == json.dumps(schemas)
    assert schema == before
    assert json.dumps(template_snippet(schema, rplan, NAME)) == json.dumps(template_snippet(schema, rplan, NAME))


def test_recursion_is_cut_at_max_depth():
    root = {"definitions": {"Node": {"type": "object", "properties": {"Next": {"$ref": "#/definitions/Node"},
                                                                      "Size": {"type": "number"}}}}}
    node = encode({"$ref": "#/definitions/Node"}, root)
    depth = 0
    while node:
        assert node["properties"]["Size"]["anyOf"][1]["pattern"] == STRING_FORMS["number"]
        node, depth = node["properties"]["Next"], depth + 1
    assert depth == MAX_DEPTH
    jsonschema.Draft7Validator.check_schema(encode({"$ref": "#/definitions/Node"}, root))
    assert encode({"$ref": "#/definitions/Missing"}, root) == {}


# --------------------------------------------------------------------------- names and checks


@pytest.mark.parametrize("name, good", [
    ("Custom::Vault", True),
    ("Custom::a_b@c-d.e", True),
    ("Custom::" + "V" * 60, True),
    ("Custom::" + "V" * 61, False),
    ("Custom::", False),
    ("Vault", False),
    ("AWS::CloudFormation::CustomResource", False),
    ("Custom::Acme Vault", False),
    ("Custom::Väult", False),
    ("Custom::Acme::Vault", False),
])
def test_custom_names(parts, name, good):
    schema, rplan = parts
    diags = Diagnostics()
    span = Span("smithy-build.json", 7, 30, 7, 45)
    assert check_custom(schema, rplan, name, diags, span) is good
    assert (custom_name_problem(name) is None) is good
    if good:
        assert diags.items == []
        custom_schemas(schema, rplan, name)
    else:
        assert [(d.code, d.span) for d in diags.items] == [("S4501", span)]
        with pytest.raises(ValueError):
            custom_schemas(schema, rplan, name)


def test_a_reserved_property_name_is_an_error(parts):
    schema, rplan = parts
    clash = copy.deepcopy(schema)
    clash["properties"]["ServiceToken"] = {"type": "string"}
    diags = Diagnostics()
    assert check_custom(clash, rplan, NAME, diags) is False
    assert [d.code for d in diags.items] == ["S4502"]
    props = custom_schemas(clash, rplan, NAME)["properties.schema.json"]
    assert props["properties"]["ServiceToken"]["pattern"].startswith("^arn:")  # the protocol's wins


def test_a_data_value_that_is_an_object_is_json_text(parts):
    schema, rplan = parts
    nested = copy.deepcopy(schema)
    nested["properties"]["Usage"] = {"type": "object", "properties": {"Bytes": {"type": "integer"}}}
    nested["readOnlyProperties"] = [*nested["readOnlyProperties"], "/properties/Usage"]
    diags = Diagnostics()
    assert check_custom(nested, rplan, NAME, diags) is True
    assert [d.code for d in diags.items] == ["S4503"]
    data = custom_schemas(nested, rplan, NAME)["response.schema.json"]["definitions"]["data"]
    assert data["properties"]["Usage"]["type"] == "string"
    clean = Diagnostics()
    assert check_custom(schema, rplan, NAME, clean) is True and clean.items == []


# --------------------------------------------------------------------------- template snippet


def _load_yaml(text: str) -> Any:
    cfn_flip = pytest.importorskip("cfn_flip", reason="cfn-flip (installed with cloudformation-cli) reads !GetAtt")
    return json.loads(cfn_flip.to_json(text))


def test_the_snippet_uses_the_create_example(vault, parts, schemas):
    schema, rplan = parts
    example = create_example(vault.model, vault.plan, rplan, schema)
    assert example is not None and example["VaultName"] == "team-secrets"
    texts = template_snippet(schema, rplan, NAME, example)
    template = json.loads(texts["template.json"])
    resource = template["Resources"]["Vault"]
    assert resource["Type"] == NAME
    assert resource["Properties"]["ServiceToken"] == {"Fn::GetAtt": ["VaultProvider", "Arn"]}
    assert resource["Properties"]["Encryption"] == {"Algorithm": "AES256", "RotationDays": 90}
    assert template["Outputs"]["VaultArn"] == {"Value": {"Fn::GetAtt": ["Vault", "VaultArn"]}}
    assert "ServiceToken: !GetAtt VaultProvider.Arn" in texts["template.yaml"]
    assert "Type: Custom::Vault" in texts["template.yaml"]
    assert _load_yaml(texts["template.yaml"]) == template
    # what the user writes is what the properties schema accepts (ServiceToken resolved)
    properties = {**resource["Properties"], "ServiceToken": TOKEN}
    assert errors(schemas["properties.schema.json"], properties) == []
    assert errors(schemas["properties.schema.json"], stringify(properties)) == []


def test_the_snippet_has_placeholders_without_an_example(parts):
    schema, rplan = parts
    texts = template_snippet(schema, rplan, NAME)
    properties = json.loads(texts["template.json"])["Resources"]["Vault"]["Properties"]
    assert properties["VaultName"] == "<VaultName>" and properties["StorageClass"] == "STANDARD"
    assert properties["RetentionDays"] == 1 and properties["Encryption"] == {"Algorithm": "<Algorithm>"}
    assert "Tier" not in properties  # deprecated: not shown
    assert not set(attribute_names(schema)) & set(properties)
    assert _load_yaml(texts["template.yaml"]) == json.loads(texts["template.json"])


def test_snippet_yaml_quotes_what_yaml_would_read_otherwise(parts):
    schema, rplan = parts
    example = {"VaultName": "yes", "Description": "a: b # c", "Labels": {"on": "123", "x": ""},
               "RetentionDays": 30, "KmsKeyId": "\u00e9t\u00e9 \"quoted\"\nline"}
    texts = template_snippet(schema, rplan, NAME, example)
    assert _load_yaml(texts["template.yaml"]) == json.loads(texts["template.json"])
