"""What transforms change in the schemas the cloudformation plugin writes (issue 16: a test per
transform that changes the output, and one where it changes nothing), on the vault example:
each projected model is validated, then converted as the plugin converts it."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import REPO
from smithy2cfn.api import convert, validate
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.load.loader import load_model
from smithy2cfn.transform import TransformConfig, apply_transforms

VAULT = REPO / "examples" / "vault" / "model"
SETTINGS = {"service": "acme.vault#VaultService", "organizationName": "Acme"}
SCHEMA = "acme-vault-vault.json"


@pytest.fixture(scope="module")
def vault():
    diags = Diagnostics()
    model = load_model([str(VAULT)], diags)
    assert not diags.has_errors
    return model


def _schemas(model: Any) -> dict[str, Any]:
    problems = [d.message for d in validate(model).diagnostics if d.is_error]
    assert not problems, problems
    result = convert(model, SETTINGS)
    assert not [d.message for d in result.diagnostics if d.is_error]
    return dict(result.schemas)


def _project(model: Any, *configs: TransformConfig) -> Any:
    diags = Diagnostics()
    out = apply_transforms(model, list(configs), diags)
    assert not diags.items, [d.message for d in diags]
    return out


def test_excluding_a_member_removes_the_nested_property(vault) -> None:
    before = _schemas(vault)[SCHEMA]
    out = _project(vault, TransformConfig("excludeShapesBySelector",
                                          {"selector": "[id='acme.vault#EncryptionSettings$rotationDays']"}))
    after = _schemas(out)[SCHEMA]
    assert "RotationDays" in before["definitions"]["EncryptionSettings"]["properties"]
    assert "RotationDays" not in after["definitions"]["EncryptionSettings"]["properties"]
    assert after["properties"].keys() == before["properties"].keys()


def test_excluding_documentation_removes_descriptions(vault) -> None:
    before = _schemas(vault)[SCHEMA]
    after = _schemas(_project(vault, TransformConfig("excludeTraits", {"traits": ["documentation"]})))[SCHEMA]
    assert before["description"].startswith("Resource Type definition for Acme::Vault::Vault")
    assert after["description"] == "Definition of Acme::Vault::Vault Resource Type"
    described = [name for name, p in after["properties"].items() if "description" in p]
    assert described == ["Tier"]  # its description comes from @deprecated, which stays
    assert sum("description" in p for p in before["properties"].values()) > 1


def test_excluding_the_service_writes_nothing(vault) -> None:
    out = _project(vault, TransformConfig("includeServices", {"services": ["acme.vault#Other"]}))
    result = convert(out, SETTINGS)
    assert not result.schemas and any(d.is_error for d in result.diagnostics)


def test_renaming_the_resource_renames_the_type(vault) -> None:
    out = _project(vault, TransformConfig("renameShapes", {"renamed": {"acme.vault#Vault": "acme.vault#Locker"}}),
                   TransformConfig("excludeTraits", {"traits": ["aws.cloudformation#cfnResource"]}))
    # without @cfnResource nothing is a resource any more: the schema is gone
    assert _schemas(out) == {}


@pytest.mark.parametrize("config", [
    TransformConfig("excludeShapesByTag", {"tags": ["no-such-tag"]}),
    TransformConfig("removeUnusedShapes"),
    TransformConfig("excludeMetadata", {"keys": ["nothing"]}),
    TransformConfig("flattenAndRemoveMixins"),
    TransformConfig("makeIdempotencyTokensClientOptional"),
    TransformConfig("includeServices", {"services": ["acme.vault#VaultService"]}),
], ids=lambda c: c.name)
def test_transforms_that_leave_the_schema_as_it_was(vault, config: TransformConfig) -> None:
    assert _schemas(_project(vault, config)) == _schemas(vault)


def test_readme_example_projection(vault) -> None:
    """README "Transforms"'s example, on the vault model: nothing tagged internal, the one
    service, unused shapes gone; the schema is the same."""
    out = _project(vault, TransformConfig("excludeShapesByTag", {"tags": ["internal"]}),
                   TransformConfig("includeServices", {"services": ["acme.vault#VaultService"]}),
                   TransformConfig("removeUnusedShapes"))
    assert _schemas(out) == _schemas(vault)
