"""The generated provider of a custom resource, end to end: this test plays CloudFormation.

:func:`smithy2cfn.custom.provider.provider_files` is run for a small hand-written properties
schema and for ``examples/vault``'s; the files go to a temporary folder with a stub of the
team's file (a dict as the service) and ``properties.schema.json``; a subprocess imports
``provider.py`` and calls ``handler(event, context)`` for each request CloudFormation sends
in a stack's life (Create, Update in place, Update with replacement and the Delete of the old
resource, failures, malformed requests). crhelper PUTs each response to the request's
``ResponseURL``: here a loopback HTTPS server (crhelper speaks HTTPS only; its certificate is
made with ``openssl`` and trusted through ``SSL_CERT_FILE``). The checks are the protocol's
rules (AWS CloudFormation User Guide, "Custom resource request and response reference"):
exactly one response per request, ``Reason`` on FAILED, no ``Data``/``NoEcho`` on a Delete,
the body at most 4096 bytes, a non-empty ``PhysicalResourceId`` of at most 1 KB, a new one on
a replacing update, and the properties the team's functions receive are typed.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import ssl
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import REPO
from smithy2cfn.custom.provider import STRING_FORMS, handlers_file, module_name, provider_files

# --- the loopback "presigned URL" -------------------------------------------------------------


class _Recorder(BaseHTTPRequestHandler):
    responses: dict[str, list[bytes]] = {}
    lock = threading.Lock()

    def do_PUT(self) -> None:  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        with self.lock:
            self.responses.setdefault(self.path.split("?")[0], []).append(body)
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def presigned(tmp_path_factory):
    """``(base URL, responses by path, certificate file)`` of an HTTPS server on 127.0.0.1."""
    pytest.importorskip("crhelper", reason="crhelper is not installed (pip install -e '.[test]')")
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not on PATH: no certificate for the loopback HTTPS server")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(cert), "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True, timeout=60)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(cert), str(key))
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"https://127.0.0.1:{server.server_address[1]}", _Recorder.responses, cert
    server.shutdown()
    server.server_close()


# --- the team's file: a dict as the service -----------------------------------------------------

STUB = '''
import json
import os
import time

SERVICE = {}
COUNT = [0]
KNOB = %(knob)r
ATTRIBUTES = %(attributes)r


def _log(call, **fields):
    with open(os.environ["STUB_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps({"call": call, **fields}) + "\\n")


def _attributes(physical_id, properties):
    n = int(physical_id.split("-")[1])
    values = {name: value.format(n=n) if isinstance(value, str) else value for name, value in ATTRIBUTES.items()}
    if properties.get(KNOB) == "big":
        values[sorted(values)[0]] = "x" * 5000
    return values


def create(properties):
    _log("create", properties=properties)
    if properties.get(KNOB) == "fail":
        raise RuntimeError("the service refused: quota exceeded")
    if properties.get(KNOB) == "slow":
        time.sleep(1.5)
    if properties.get(KNOB) == "longid":
        return "r" * 1025, {}
    COUNT[0] += 1
    physical_id = f"res-{COUNT[0]}"
    SERVICE[physical_id] = properties
    if properties.get(KNOB) == "extra":
        return physical_id, {"Nope": 1}
    return physical_id, _attributes(physical_id, properties)


def update(physical_id, properties, old_properties):
    _log("update", physical_id=physical_id, properties=properties, old_properties=old_properties)
    if physical_id not in SERVICE:
        raise KeyError(f"no resource {physical_id}")
    if properties.get(KNOB) == "fail":
        raise ValueError("the service cannot make this change")
    SERVICE[physical_id] = properties
    return _attributes(physical_id, properties)


def delete(physical_id, properties):
    _log("delete", physical_id=physical_id, properties=properties)
    SERVICE.pop(physical_id, None)
'''

DRIVER = '''
import json, sys
sys.path.insert(0, sys.argv[1])
import provider


class Context:
    aws_request_id = "request"
    function_name = "provider"

    def __init__(self, remaining):
        self.remaining = remaining

    def get_remaining_time_in_millis(self):
        return self.remaining


for event in json.load(open(sys.argv[2], encoding="utf-8")):
    provider.handler(event, Context(event.pop("TestRemainingMillis", 20000)))
'''


def _write(folder: Path, files: dict[str, str], team: dict[str, str] | None, schema: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    for name, text in (team or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "properties.schema.json").write_text(json.dumps(schema, indent=2), encoding="utf-8")


def _play(folder: Path, events: list[dict], presigned) -> tuple[list[list[dict]], list[dict], str]:
    """Runs the events through ``folder``'s provider.handler in one process (a warm Lambda);
    returns each event's responses, the stub's log and the process's output."""
    base, responses, cert = presigned
    for n, event in enumerate(events):
        event.setdefault("ResponseURL", f"{base}/{folder.name}/{n}?X-Amz-Signature=x")
    (folder / "events.json").write_text(json.dumps(events), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "SSL_", "HTTPS_", "https_"))}
    env.update(SSL_CERT_FILE=str(cert), AWS_REGION="us-east-1", AWS_EC2_METADATA_DISABLED="true",
               STUB_LOG=str(folder / "stub.log"), NO_PROXY="127.0.0.1")
    run = subprocess.run([sys.executable, "-c", DRIVER, str(folder), str(folder / "events.json")],
                         env=env, cwd=folder, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    got = [[json.loads(b) for b in responses.get(f"/{folder.name}/{n}", [])] for n in range(len(events))]
    raw = [responses.get(f"/{folder.name}/{n}", []) for n in range(len(events))]
    for n, bodies in enumerate(raw):
        assert len(bodies) == 1, f"request {n} ({events[n].get('RequestType')}): {len(bodies)} responses"
        assert len(bodies[0]) <= 4096, f"request {n}: a body of {len(bodies[0])} bytes"
    log = [json.loads(line) for line in (folder / "stub.log").read_text().splitlines()] \
        if (folder / "stub.log").exists() else []
    return [g[0] for g in got], log, run.stdout + run.stderr


def _check_rules(event: dict, response: dict, attributes: list[str], no_echo: bool) -> None:
    """The response rules every answer must follow."""
    for key in ("Status", "PhysicalResourceId", "StackId", "RequestId", "LogicalResourceId"):
        assert isinstance(response.get(key), str), (key, response)
    assert response["StackId"] == event.get("StackId", "")
    assert response["RequestId"] == event.get("RequestId", "")
    assert response["Status"] in ("SUCCESS", "FAILED")
    assert 0 < len(response["PhysicalResourceId"].encode()) <= 1024
    if response["Status"] == "FAILED":
        assert response.get("Reason"), response
    if event.get("RequestType") == "Delete" or response["Status"] == "FAILED":
        assert "Data" not in response and "NoEcho" not in response, response
    else:
        assert set(response.get("Data", {})) <= set(attributes)
        assert all(isinstance(v, str) for v in response.get("Data", {}).values())
        assert response.get("NoEcho", False) is no_echo
    if event.get("RequestType") in ("Update", "Delete") and response["Status"] == "FAILED":
        assert response["PhysicalResourceId"] == event["PhysicalResourceId"]


class Stack:
    """Requests as CloudFormation makes them for one logical resource."""

    def __init__(self, custom_name: str, token: str = "arn:aws:lambda:us-east-1:123456789012:function:provider"):
        self.custom_name, self.token, self.count = custom_name, token, 0

    def request(self, kind: str, properties: dict | None, physical_id: str | None = None,
                old: dict | None = None, **extra: object) -> dict:
        self.count += 1
        event: dict = {
            "RequestType": kind,
            "StackId": "arn:aws:cloudformation:us-east-1:123456789012:stack/test/1a2b3c",
            "RequestId": f"req-{self.count}",
            "LogicalResourceId": "Res",
            "ResourceType": self.custom_name,
            "ServiceToken": self.token,
        }
        if properties is not None:
            event["ResourceProperties"] = {"ServiceToken": self.token, **properties}
        if physical_id is not None:
            event["PhysicalResourceId"] = physical_id
        if old is not None:
            event["OldResourceProperties"] = {"ServiceToken": self.token, **old}
        event.update(extra)
        return event


# --- a small schema: every encoded scalar kind, nested in lists, maps and objects ---------------

INT = {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 10},
                 {"type": "string", "pattern": STRING_FORMS["integer"]}]}
NUM = {"anyOf": [{"type": "number"}, {"type": "string", "pattern": STRING_FORMS["number"]}]}
BOOL = {"anyOf": [{"type": "boolean"}, {"type": "string", "pattern": STRING_FORMS["boolean"]}]}
THING_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "ServiceToken": {"type": "string", "minLength": 1},
        "ServiceTimeout": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 3600},
                                     {"type": "string", "pattern": STRING_FORMS["integer"]}]},
        "Name": {"type": "string", "minLength": 1},
        "Note": {"type": "string"},
        "Secret": {"type": "string", "pattern": "^[a-z]+$"},
        "Size": INT,
        "Ratio": NUM,
        "Enabled": BOOL,
        "Ports": {"type": "array", "items": INT},
        "Limits": {"type": "object", "additionalProperties": INT},
        "Rules": {"type": "array", "items": {
            "type": "object", "properties": {"On": BOOL, "Weight": NUM, "Tags": {"type": "array", "items": BOOL}},
            "required": ["On"], "additionalProperties": False}},
    },
    "required": ["ServiceToken", "Name"],
    "additionalProperties": False,
}
THING = {"custom_name": "Custom::Thing", "type_name": "Acme::Test::Thing", "resource_id": "acme.test#Thing",
         "model_source": "tests/custom (hand-written)", "regenerate": "smithy2cfn build --custom-resource x",
         "properties_schema": THING_SCHEMA, "create_only": ["Name"], "attributes": ["Arn", "Id", "Ports", "Ready"],
         "no_echo": True}


def _stub(knob: str, attributes: dict[str, object]) -> str:
    """The team's file: ``attributes`` are the values create and update return (``{n}``: the
    resource's number); the property ``knob`` set to ``fail``, ``big`` or ``slow`` makes the
    service fail, return an oversized attribute, or take 1.5 s."""
    return STUB % {"knob": knob, "attributes": attributes}


THING_ATTRIBUTES = {"Arn": "arn:thing:{n}", "Id": "res-{n}", "Ready": True, "Ports": [1, 2]}


def test_thing_end_to_end(presigned, tmp_path):
    files, team = provider_files(**THING)
    folder = tmp_path / "thing"
    _write(folder, files, {handlers_file("Custom::Thing"): _stub("Note", THING_ATTRIBUTES)}, THING_SCHEMA)
    s = Stack("Custom::Thing")
    valid = {"Name": "alpha", "Size": "5", "Ratio": "2.5", "Enabled": "true", "Ports": ["1", "10"],
             "Limits": {"cpu": "2"}, "ServiceTimeout": "300",
             "Rules": [{"On": "false", "Weight": "-1e3", "Tags": ["true", "false"]}]}
    moved = {**valid, "Size": "6"}
    renamed = {**moved, "Name": "beta"}
    events = [
        s.request("Create", valid),                                              # 0 res-1
        s.request("Update", moved, "res-1", old=valid),                          # 1 in place
        s.request("Update", renamed, "res-1", old=moved),                        # 2 replaced: res-2
        s.request("Delete", moved, "res-1"),                                     # 3 the old one
        s.request("Create", {**valid, "Note": "fail"}),                          # 4 the team fails
        # 5: CloudFormation deletes the failed create, by the physical ID 4 answered
        s.request("Delete", {**valid, "Note": "fail"}, "smithy2cfn-failed-create-req-5"),
        s.request("Create", {"Size": "five", "Ports": ["1", "11"], "Enabled": "yes", "Extra": "1",
                             "Secret": "Hunter2!", "Limits": {"cpu": "0.5"}}),  # 6 malformed
        s.request("Create", {**valid, "Note": "big"}),                           # 7 oversized Data: res-3
        s.request("Update", {**renamed, "Note": "fail"}, "res-2", old=renamed),  # 8 the team fails
        # 9: a rollback: the values refused by 8 come back as the old ones (never refused)
        s.request("Update", renamed, "res-2", old={**renamed, "Size": "99", "Note": "fail"}),
        s.request("Update", {**renamed, "Size": "0"}, "res-2", old=renamed),     # 10 malformed update
        s.request("Delete", {"Size": "oops"}, "res-2"),                          # 11 delete never refused
        s.request("Create", valid, ResourceType="Custom::Other"),                # 12 not this type
        s.request("Create", valid, ResourceType="AWS::CloudFormation::CustomResource"),  # 13 res-4
    ]
    responses, log, output = _play(folder, events, presigned)  # one process: a warm Lambda
    for event, response in zip(events, responses, strict=True):
        _check_rules(event, response, THING["attributes"], True)
    status = [r["Status"] for r in responses]
    assert status == ["SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "FAILED", "SUCCESS", "FAILED", "FAILED",
                      "FAILED", "SUCCESS", "FAILED", "SUCCESS", "FAILED", "SUCCESS"], output
    ids = [r["PhysicalResourceId"] for r in responses]
    # Create, in place (same ID), replacement (a new ID), then the old one's Delete
    assert ids[:4] == ["res-1", "res-1", "res-2", "res-1"]
    # Data: the attributes, values made strings; NoEcho (an attribute is sensitive)
    assert responses[0]["Data"] == {"Arn": "arn:thing:1", "Id": "res-1", "Ready": "true", "Ports": "[1,2]"}
    assert responses[0]["NoEcho"] is True and responses[2]["Data"]["Id"] == "res-2"
    # the team's failure: its message; the Delete of a resource never created succeeds without the team
    assert "quota exceeded" in responses[4]["Reason"] and ids[4] == "smithy2cfn-failed-create-req-5"
    assert ids[5] == ids[4] and not any(c["call"] == "delete" and c["physical_id"] == ids[4] for c in log)
    # malformed: each property and rule named, never the value
    reason = responses[6]["Reason"]
    for phrase in ("ResourceProperties.Size does not satisfy type", "ResourceProperties.Ports[1] does not "
                   "satisfy maximum 10", "ResourceProperties.Enabled does not satisfy type \"boolean\"",
                   "'Name' is a required property", "'Extra' was unexpected",
                   "ResourceProperties.Secret does not satisfy pattern", "ResourceProperties.Limits.cpu"):
        assert phrase in reason, (phrase, reason)
    assert "Hunter2" not in reason and ids[6].startswith("smithy2cfn-failed-create-")
    # oversized Data: FAILED with the limit named, the created resource's ID kept (its Delete cleans up)
    assert "4096" in responses[7]["Reason"] and ids[7] == "res-3"
    assert "cannot make this change" in responses[8]["Reason"] and ids[8] == "res-2"
    assert "maximum 10" not in responses[10]["Reason"] and "Size does not satisfy minimum 1" in responses[10]["Reason"]
    assert ids[10] == "res-2" and ids[11] == "res-2"
    assert "Custom::Other" in responses[12]["Reason"] and ids[13] == "res-4"
    # what the team received: typed, at every depth, without the protocol's properties
    created = log[0]["properties"]
    assert created == {"Name": "alpha", "Size": 5, "Ratio": 2.5, "Enabled": True, "Ports": [1, 10],
                       "Limits": {"cpu": 2}, "Rules": [{"On": False, "Weight": -1000.0, "Tags": [True, False]}]}
    update = log[1]
    assert update["call"] == "update" and update["properties"]["Size"] == 6 and update["old_properties"]["Size"] == 5
    assert [c["call"] for c in log[:4]] == ["create", "update", "create", "delete"]
    rollback = [c for c in log if c["call"] == "update" and c["old_properties"].get("Size") == 99]
    assert len(rollback) == 1  # the rollback's old values, converted, not refused


def test_malformed_requests_are_answered(presigned, tmp_path):
    files, team = provider_files(**THING)
    folder = tmp_path / "envelope"
    _write(folder, files, {handlers_file("Custom::Thing"): _stub("Note", THING_ATTRIBUTES)}, THING_SCHEMA)
    s = Stack("Custom::Thing")
    events = [
        s.request("Create", {"Name": "a"}, RequestId=""),
        s.request("Retire", {"Name": "a"}),
        s.request("Update", {"Name": "a"}),  # no PhysicalResourceId
        s.request("Create", None),            # no ResourceProperties: ServiceToken missing
        s.request("Create", {"Name": "a", "Note": "longid"}),  # the team's physical ID is over 1 KB
        s.request("Create", {"Name": "a", "Note": "extra"}),   # the team's attributes are not the type's
    ]
    responses, log, output = _play(folder, events, presigned)
    assert [r["Status"] for r in responses] == ["FAILED"] * 6, output
    assert "RequestId" in responses[0]["Reason"] and "RequestType" in responses[1]["Reason"]
    assert "PhysicalResourceId" in responses[2]["Reason"] and "'ServiceToken' is a required" in responses[3]["Reason"]
    assert "physical ID" in responses[4]["Reason"] and responses[4]["PhysicalResourceId"] == "smithy2cfn-failed-create-req-5"
    # the resource exists: its ID is answered, so that CloudFormation's Delete removes it
    assert "Nope" in responses[5]["Reason"] and responses[5]["PhysicalResourceId"] == "res-1"
    assert [c["call"] for c in log] == ["create", "create"]


def test_one_response_when_lambda_runs_out_of_time(presigned, tmp_path):
    """crhelper answers FAILED just before Lambda's timeout; the team's function finishing
    after that must not send a second response (the process lives on here, as it may not
    in Lambda)."""
    files, team = provider_files(**THING)
    folder = tmp_path / "timeout"
    _write(folder, files, {handlers_file("Custom::Thing"): _stub("Note", THING_ATTRIBUTES)}, THING_SCHEMA)
    s = Stack("Custom::Thing")
    events = [s.request("Create", {"Name": "a", "Note": "slow"}, TestRemainingMillis=1000),
              s.request("Create", {"Name": "b"})]
    responses, log, output = _play(folder, events, presigned)
    assert [r["Status"] for r in responses] == ["FAILED", "SUCCESS"], output
    assert responses[0]["Reason"] == "Execution timed out"
    assert responses[0]["PhysicalResourceId"] == "smithy2cfn-failed-create-req-1"
    assert "a second response to request req-1 was not sent" in output


def test_a_broken_team_file_still_answers(presigned, tmp_path):
    files, team = provider_files(**THING)
    folder = tmp_path / "broken"
    _write(folder, files, {handlers_file("Custom::Thing"): "raise ImportError('half written')\n"}, THING_SCHEMA)
    s = Stack("Custom::Thing")
    events = [s.request("Create", {"Name": "a"}), s.request("Delete", {"Name": "a"}, "res-1")]
    responses, _, output = _play(folder, events, presigned)
    assert [r["Status"] for r in responses] == ["FAILED", "FAILED"], output
    assert "half written" in responses[0]["Reason"]
    assert "Data" not in responses[1]


# --- examples/vault, built as Custom::Vault ------------------------------------------------


def test_vault_end_to_end(presigned, tmp_path):
    """examples/vault built as Custom::Vault by smithy2cfn itself (the customResources
    setting): its generated provider, unmodified, with a stub for the service calls in the
    team's file, and every response checked against the generated response schema."""
    from smithy2cfn import api
    from smithy2cfn.custom.schemas import response_schema_for

    built = api.build_from_config(str(REPO / "examples" / "vault" / "smithy-build.json"), out_dir=tmp_path / "out",
                                  overrides={"customResources": {"acme.vault#Vault": "Custom::Vault"}})
    assert built.ok, built.diagnostics
    resource = built.schemas["acme-vault-vault.json"]
    generated = tmp_path / "out" / "custom-vault"
    files = {p.name: p.read_text(encoding="utf-8") for p in generated.iterdir() if p.name != "vault_handlers.py"}
    schema = json.loads(files["properties.schema.json"])
    response_schema = json.loads(files["response.schema.json"])
    attributes = [p.rsplit("/", 1)[1] for p in resource["readOnlyProperties"]]
    folder = tmp_path / "vault"
    assert sorted(attributes) == ["CreationTime", "SecretCount", "Status", "VaultArn", "VaultId"]
    values = {"VaultId": "v-{n:016x}", "VaultArn": "arn:aws:vault:us-east-1:123456789012:vault/v-{n:016x}",
              "Status": "ACTIVE", "SecretCount": 3, "CreationTime": "2026-11-26T00:00:00Z"}
    _write(folder, files, {"vault_handlers.py": _stub("Description", values)}, schema)
    s = Stack("Custom::Vault")
    valid = {"VaultName": "team-secrets", "Encryption": {"Algorithm": "AES256", "RotationDays": "90"},
             "RetentionDays": "30", "StorageClass": "STANDARD", "Labels": {"team": "infra"},
             "Tags": [{"Key": "env", "Value": "prod"}], "AdminPassword": "correct horse"}
    described = {**valid, "Description": "shared"}
    renamed = {**described, "VaultName": "team-secrets-2"}
    events = [
        s.request("Create", valid),
        s.request("Update", described, "res-1", old=valid),
        s.request("Update", renamed, "res-1", old=described),
        s.request("Delete", described, "res-1"),
        s.request("Create", {**valid, "Description": "fail"}),
        s.request("Create", {**valid, "RetentionDays": "0", "VaultName": "UPPER", "StorageClass": "COLD",
                             "Encryption": {"RotationDays": "x"}}),
        s.request("Create", {**valid, "Description": "big"}),
        s.request("Delete", renamed, "res-2"),
    ]
    responses, log, output = _play(folder, events, presigned)
    import jsonschema

    for event, response in zip(events, responses, strict=True):
        _check_rules(event, response, attributes, False)
        jsonschema.validate(response, response_schema_for(response_schema, event["RequestType"]))
    assert [r["Status"] for r in responses] == ["SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "FAILED", "FAILED",
                                                "FAILED", "SUCCESS"], output
    assert [r["PhysicalResourceId"] for r in responses[:4]] == ["res-1", "res-1", "res-2", "res-1"]
    assert responses[0]["Data"] == {"VaultId": "v-0000000000000001", "SecretCount": "3", "Status": "ACTIVE",
                                    "VaultArn": "arn:aws:vault:us-east-1:123456789012:vault/v-0000000000000001",
                                    "CreationTime": "2026-11-26T00:00:00Z"}
    reason = responses[5]["Reason"]
    for phrase in ("RetentionDays does not satisfy minimum 1", "VaultName does not satisfy pattern",
                   "StorageClass does not satisfy enum", "Encryption: 'Algorithm' is a required property",
                   "Encryption.RotationDays does not satisfy type \"integer\""):
        assert phrase in reason, (phrase, reason)
    assert "4096" in responses[6]["Reason"]
    assert log[0]["properties"]["RetentionDays"] == 30
    assert log[0]["properties"]["Encryption"] == {"Algorithm": "AES256", "RotationDays": 90}


# --- the generator -------------------------------------------------------------------------------


def test_the_team_file_is_apart_and_only_written_when_absent():
    files, team = provider_files(**THING)
    assert set(files) == {"provider.py", "requirements.txt"}
    assert set(team) == {"thing_handlers.py"}
    header = files["provider.py"].splitlines()[:4]
    assert "Generated by smithy2cfn" in header[0] and "DO NOT EDIT" in header[0]
    assert header[1] == "# Model: tests/custom (hand-written)"
    assert header[2] == "# Regenerate: smithy2cfn build --custom-resource x"
    assert "thing_handlers.py" in header[3]
    assert "import_module(HANDLERS_MODULE)" in files["provider.py"]
    assert files == provider_files(**THING)[0]  # deterministic
    assert files["requirements.txt"].splitlines()[-2:] == ["crhelper>=2.0.12,<2.1", "jsonschema>=4.0,<5"]


def test_generated_code_parses_for_awkward_names():
    schema = {"type": "object", "properties": {
        "class": {"type": "string"}, "Weird-Key": BOOL, "Nested": {"type": "object", "properties": {
            "A": INT, "B": {"type": "string"}}, "required": ["A"]}},
        "required": ["class"]}
    files, team = provider_files(**{**THING, "custom_name": "Custom::my-vault.v2", "properties_schema": schema,
                                    "model_source": "a\nb", "regenerate": "x\ry", "no_echo": False,
                                    "attributes": ["Arn", "def"]})
    for text in (files["provider.py"], *team.values()):
        ast.parse(text, feature_version=(3, 9))  # Lambda's oldest Python runtime still supported
    assert list(team) == ["my_vault_v2_handlers.py"] and module_name("Custom::class") == "class_"
    text = files["provider.py"]
    assert '"class": "str"' in text and "class MyVaultV2PropertiesNested(_MyVaultV2PropertiesNestedRequired" in text
    assert "# Model: a b" in text and "# Regenerate: x y" in text
    assert "NO_ECHO = False" in text and "ATTRIBUTES = (\"Arn\", \"def\")" in text


def test_the_generated_types_check_the_teams_code(tmp_path):
    """mypy reads the generated TypedDicts: a team's function that uses a property with the
    wrong type is an error, the right use is not (and provider.py itself is clean)."""
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]')")
    files, team = provider_files(**THING)
    _write(tmp_path, files, team, THING_SCHEMA)
    good = tmp_path / "thing_handlers.py"
    good.write_text(team["thing_handlers.py"] + '''

def _total(properties: ThingProperties) -> int:
    return properties["Size"] + len(properties["Name"]) + sum(properties.get("Ports", []))
''', encoding="utf-8")
    bad = tmp_path / "bad.py"
    bad.write_text('''from provider import ThingProperties


def _name(properties: ThingProperties) -> int:
    return properties["Name"] + properties["Enabled"]
''', encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mypy", "--ignore-missing-imports", "--no-incremental",
                          "--python-version", "3.10", "provider.py", "thing_handlers.py", "bad.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert errors and all(line.startswith("bad.py:5:") for line in errors), run.stdout
