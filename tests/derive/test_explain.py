"""``smithy2cfn explain`` (issue 18) against the mutability table of the cfn conformance cases:
every property's flags are the reference's schema's, every property has at least one reason,
and each reason's location points at the trait, member, operation or resource it names.
Prints passed/total."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import REPO, SHARED, record_result
from smithy2cfn import api
from smithy2cfn.cli import main

CFN = SHARED / "conformance" / "cfn"


def _cases() -> list[dict]:
    if not (CFN / "cases.json").exists():
        return []
    return json.loads((CFN / "cases.json").read_text(encoding="utf-8"))["cases"]


CASES = _cases()


def _line(span) -> str:
    return Path(span.path).read_text(encoding="utf-8").splitlines()[span.line - 1]


@pytest.mark.skipif(not CASES, reason=f"{CFN} is absent")
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES] or None)
def test_explain_matches_the_mutability_table_and_points_where_it_says(case):
    ok = False
    try:
        config = {**case["config"], "compatibility": "reference"}
        result = api.explain([str(CFN / m) for m in case["models"]], overrides=config)
        assert result.exit_code == 0, result.diagnostics
        expected = {}
        for path in case["expected"].values():
            schema = json.loads((CFN / path).read_text(encoding="utf-8"))
            expected[schema["typeName"]] = schema
        explained = {t.type_name: t for t in result.types}
        assert set(expected) <= set(explained)
        for type_name, schema in expected.items():
            lists = {key: set(schema.get(key, [])) for key in ("createOnlyProperties", "readOnlyProperties",
                                                                 "writeOnlyProperties")}
            for prop in explained[type_name].properties:
                flags = (prop.pointer in lists["createOnlyProperties"], prop.pointer in lists["readOnlyProperties"],
                         prop.pointer in lists["writeOnlyProperties"])
                assert (prop.create_only, prop.read_only, prop.write_only) == flags, prop.pointer
                assert prop.reasons, f"{type_name} {prop.pointer} has no reason"
                for reason in prop.reasons:
                    assert reason.span is not None and reason.span.line > 0, reason
                    assert reason.names in _line(reason.span), (reason.text, str(reason.span), _line(reason.span))
        ok = True
    finally:
        record_result("explain (cfn cases: flags as the reference's, every reason located where it says)",
                      case["name"], ok)


def test_the_example_explains_why_in_model_terms():
    result = api.explain([str(REPO / "examples" / "vault" / "smithy-build.json")])
    (vault,) = result.types
    by_pointer = {p.pointer: p for p in vault.properties}
    texts = lambda pointer: [r.text for r in by_pointer[pointer].reasons]  # noqa: E731
    assert "create: in `CreateVault`'s input" in texts("/properties/VaultName")
    assert "createOnly: not in `UpdateVault`'s input" in texts("/properties/VaultName")
    assert 'write: @cfnMutability("write") on `adminPassword` fixes it' in texts("/properties/AdminPassword")
    assert any(t.startswith("required: @required on `vaultName`") for t in texts("/properties/VaultName"))
    assert any(t.startswith("deprecated: @deprecated on `tier`: Use storageClass") for t in texts("/properties/Tier"))
    handlers = {h.name: h for h in vault.handlers}
    assert "kms:CreateGrant" in handlers["create"].permissions
    assert vault.tagging and vault.tagging[0].text.startswith("taggable: @aws.api#taggable on `Vault`")


def test_the_command_line_json_document_and_filters():
    runner = CliRunner()
    config = str(REPO / "examples" / "vault" / "smithy-build.json")
    run = runner.invoke(main, ["explain", config, "--format", "json", "--property", "KmsKeyId"])
    assert run.exit_code == 0, run.output
    document = json.loads(run.stdout)
    (entry,) = document["types"]
    assert entry["typeName"] == "Acme::Vault::Vault"
    (prop,) = entry["properties"]
    assert prop["pointer"] == "/properties/KmsKeyId" and prop["createOnly"] is True and prop["readOnly"] is False
    assert {"createOnly", "readOnly", "writeOnly", "required", "reasons"} <= set(prop)
    reason = next(r for r in prop["reasons"] if "cfnMutability" in r["text"])
    assert reason["file"].endswith("vault.smithy") and reason["line"] > 0 and reason["column"] > 0
    text = runner.invoke(main, ["explain", config, "--resource", "Vault", "--property", "kmsKeyId"])
    assert text.exit_code == 0 and "/properties/KmsKeyId: createOnly" in text.stdout
    missing = runner.invoke(main, ["explain", config, "--property", "NoSuchProperty"])
    assert missing.exit_code == 2 and "S7011" in missing.output


def test_every_property_of_the_real_aws_resource_types_has_a_reason(aws_all_models):
    """The 37 published AWS models with @cfnResource: every property of every resource type
    gets at least one located reason (counts printed)."""
    cfn = [m for m in aws_all_models if "aws.cloudformation#cfnResource" in m.read_text(encoding="utf-8")]
    types = props = 0
    for model in cfn:
        result = api.explain([str(model)])
        assert result.exit_code == 0, (model.name, [d for d in result.diagnostics if d.is_error][:3])
        for t in result.types:
            types += 1
            for prop in t.properties:
                props += 1
                assert prop.reasons and all(r.span is not None for r in prop.reasons), (model.name, prop.pointer)
    print(f"explain: {len(cfn)} models, {types} resource types, {props} properties, each with a located reason")
    assert len(cfn) >= 30 and types > 0
