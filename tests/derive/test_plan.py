"""The conversion plan (derive/plan.py): one frozen product of the derivation that the
emitter, the cfn validators and later features read; each property keeps why it has its
mutability, with source locations."""

from __future__ import annotations

import dataclasses

import pytest

from conftest import REPO
from smithy2cfn import api
from smithy2cfn.derive import CfnResourceIndex, SourceKind, derive_plan
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.emit import emit_schemas
from smithy2cfn.load import load_model, load_texts
from smithy2cfn.model.traits import CFN_MUTABILITY
from smithy2cfn.settings import Settings

EXAMPLE = REPO / "examples" / "vault"
SETTINGS = {"service": "acme.vault#VaultService", "organizationName": "Acme"}


def _vault():
    diags = Diagnostics()
    model = load_model([str(EXAMPLE / "model")], diags)
    plan = derive_plan(model, Settings.from_mapping(SETTINGS, diags), diags)
    assert plan is not None and not diags.has_errors, [d.message for d in diags if d.is_error]
    return model, plan


def test_the_plan_is_frozen_and_complete():
    _, plan = _vault()
    (vault,) = plan.resources
    assert vault.type_name == "Acme::Vault::Vault" and vault.file_name == "acme-vault-vault.json"
    with pytest.raises(dataclasses.FrozenInstanceError):
        vault.type_name = "x"  # type: ignore[misc]
    assert vault.primary_identifier == ("vaultId",)
    assert [h.name for h in vault.handlers] == ["create", "read", "update", "delete", "list"]
    assert vault.tagging is not None and vault.tagging.tag_property == "/properties/Tags"
    assert {"acme.vault#EncryptionSettings", "acme.vault#Tag", "acme.vault#TagList"} <= vault.shapes


def test_every_property_says_why_it_has_its_mutability():
    model, plan = _vault()
    (vault,) = plan.resources
    vault_id = vault.property("vaultId")
    assert vault_id.read_only and [s.kind for s in vault_id.sources] == [SourceKind.IDENTIFIER]
    kms = vault.property("kmsKeyId")
    assert kms.create_only
    read_output, source = kms.sources
    assert read_output.kind is SourceKind.READ_OUTPUT and read_output.operation == "acme.vault#GetVault"
    # the trait that decides it, where it is written (vault.smithy: @cfnMutability("create-and-read"))
    assert source.kind is SourceKind.CFN_MUTABILITY and source.trait == CFN_MUTABILITY and source.fixes
    lines = (EXAMPLE / "model" / "vault.smithy").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if '@cfnMutability("create-and-read")' in text)
    assert source.span is not None and source.span.path.endswith("vault.smithy") and source.span.line == line
    assert "createOnly" in kms.explain() and f"vault.smithy:{line}" in kms.explain()
    name = vault.property("vaultName")
    assert name.create_only
    assert {s.kind for s in name.sources} >= {SourceKind.READ_OUTPUT, SourceKind.CREATE_INPUT}
    assert all(s.operation for s in name.sources)


def test_emit_reads_the_plan_and_the_validators_read_the_same_derivation():
    model, plan = _vault()
    diags = Diagnostics()
    schemas = emit_schemas(model, plan, diags)
    assert not diags.has_errors
    assert schemas == api.build([EXAMPLE / "model"], None, SETTINGS).schemas
    # one derivation per model: the validators and the plan share it
    index = model.knowledge(CfnResourceIndex)
    api.validate(model)
    assert model.knowledge(CfnResourceIndex) is index


BINDING = """$version: "2"
namespace ex
use aws.cloudformation#cfnResource

service Svc { version: "1", resources: [Thing] }

@cfnResource
resource Thing {
    identifiers: { id: String }
    read: GetThing
    update: UpdateThing
}

@readonly
operation GetThing { input := { @required id: String }, output := { @required id: String, name: String } }

operation UpdateThing {
    input := {
        @required @resourceIdentifier("id") other: String
        @required id: String
        name: String
    }
}
"""


def test_explicit_identifier_bindings_win_in_the_conversion():
    """``other`` binds the identifier (explicit @resourceIdentifier wins over the implicit
    binding of ``id``, the reference's IdentifierBindingIndex), so ``other`` is no property."""
    diags = Diagnostics()
    model = load_texts([("m.smithy", BINDING)], diags)
    plan = derive_plan(model, Settings.from_mapping({"organizationName": "Ex"}, diags), diags)
    (thing,) = plan.resources
    assert {p.name for p in thing.properties} == {"id", "name"}


NO_CFN_RESOURCE = """$version: "2"
namespace ex

service Svc { version: "1", resources: [Thing] }

resource Thing { identifiers: { id: String }, read: GetThing }

@readonly
operation GetThing { input := { @required id: String }, output := { @required id: String } }
"""


def test_a_service_without_cfn_resources_is_not_walked():
    """Most service models (every AWS one) have no ``@cfnResource``: their plan has no
    resource, an S4012 warning, and an empty service closure; the service's resources and
    shapes are not walked for it (the relationships are not built when no validator built
    them: a build's helper process may have run the validators that did)."""
    from smithy2cfn.model.knowledge import TopDownIndex
    from smithy2cfn.model.relationships import NeighborIndex

    diags = Diagnostics()
    model = load_texts([("m.smithy", NO_CFN_RESOURCE)], diags)
    plan = derive_plan(model, Settings.from_mapping({"organizationName": "Ex"}, diags), diags)
    assert plan is not None and plan.resources == () and plan.service_shapes == frozenset()
    assert [d.code for d in diags] == ["S4012"]
    assert NeighborIndex not in model._knowledge and TopDownIndex not in model._knowledge
    # with the trait, the same service is walked: the closure reserves its shapes' names
    model = load_texts([("m.smithy", NO_CFN_RESOURCE.replace("resource Thing", "@aws.cloudformation#cfnResource\n"
                                                                                 "resource Thing"))], diags)
    plan = derive_plan(model, Settings.from_mapping({"organizationName": "Ex"}, diags), diags)
    assert [r.resource_id for r in plan.resources] == ["ex#Thing"]
    assert {"ex#Svc", "ex#Thing", "ex#GetThing"} <= plan.service_shapes
