"""What each built-in transform changes in the schemas the cloudformation plugin writes (issue 16:
"a test per transform that changes what the cloudformation plugin writes, and one where it
changes nothing").

Every transform of :data:`smithy2cfn.transform.registry.TRANSFORMS` has two cases here, on the
vault example (examples/vault/model) or, where it lacks the feature, on a small model of
fixtures/effects/ (alone, or loaded beside the vault):

* CHANGES: the projection changes the written schemas, and the test states exactly how: the
  expected schemas are the unprojected ones with that one edit made, compared whole, so
  everything else is shown unchanged. A few transforms cannot change a schema by their
  nature (what they change, the converter never reads); their case says why, shows the
  schemas equal, and shows the validation events the build sees change instead (a suppression
  gone, a team's own ``EmitEachSelector`` rule no longer matching), which under ``strict``
  decides whether anything is written at all.
* SAME: the projection changes the model (checked, so the case is not vacuous) but the
  written schemas are the same.

Each case runs twice: through :func:`smithy2cfn.transform.apply_transforms` with the model
validated and converted as the plugin does, and through the real build
(:func:`smithy2cfn.api.build_from_config` with a ``smithy-build.json`` written in ``tmp_path``,
one projection per case), comparing the files written in
``build/smithy/<projection>/cloudformation/`` with those of the ``source`` projection.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from conftest import REPO
from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.load.loader import load_model
from smithy2cfn.model.shapes import Model
from smithy2cfn.transform import TransformConfig, apply_transforms
from smithy2cfn.transform import builtins as builtin_transforms
from smithy2cfn.transform.registry import TRANSFORMS

FIXTURES = Path(__file__).parent / "fixtures" / "effects"
VAULT = REPO / "examples" / "vault" / "model"
EXTRAS = FIXTURES / "vault-extras.smithy"
VAULT_CFN = {"service": "acme.vault#VaultService", "organizationName": "Acme"}
SCHEMA = "acme-vault-vault.json"

#: The models the cases run on: name → (model paths, cloudformation plugin settings).
MODELS: dict[str, tuple[list[Path], dict[str, Any]]] = {
    "vault": ([VAULT], VAULT_CFN),
    "vault+extras": ([VAULT, EXTRAS], VAULT_CFN),
    "vault+extras+closure-vault": ([VAULT, EXTRAS, FIXTURES / "closure-vault.smithy"], VAULT_CFN),
    "vault+extras+closure-iam": ([VAULT, EXTRAS, FIXTURES / "closure-iam.smithy"], VAULT_CFN),
    "vault+extras+closure-extras": ([VAULT, EXTRAS, FIXTURES / "closure-extras.smithy"], VAULT_CFN),
    "vault+tagged-traits": ([VAULT, FIXTURES / "tagged-traits.smithy"], VAULT_CFN),
    "widgets": ([FIXTURES / "widgets.smithy"], {"service": "acme.widgets#WidgetService", "organizationName": "Acme"}),
    "tagged-shapes": ([FIXTURES / "tagged-shapes.smithy"], {"service": "acme.tagged#Store", "organizationName": "Acme"}),
}

Schemas = dict[str, dict[str, Any]]
Events = frozenset[tuple[str, str | None]]


def T(name: str, **args: Any) -> TransformConfig:  # noqa: N802 (reads as the JSON entry)
    return TransformConfig(name, args)


class Case(NamedTuple):
    """One projection of one transform.

    Attributes:
        transform: the transform the case is for.
        models: a key of :data:`MODELS`.
        transforms: the projection's transforms (the one under test, and in two cases what a
            real projection must add after it, said in ``why``).
        edit: CHANGES: makes the expected schemas from a copy of the unprojected ones.
        events: CHANGES of a transform that cannot change a schema: the validation events
            ``(event ID, shape ID)`` the projection removes, and those it adds.
        changed: SAME: true when the projected model differs as the case means it to.
        why: why the case is as it is, in words (required with ``events``).
        settings: the projection's own cloudformation settings (a moved service).
        projections: other projections, for ``apply``.
    """

    transform: str
    models: str
    transforms: tuple[TransformConfig, ...]
    edit: Callable[[Schemas], None] | None = None
    events: tuple[Events, Events] | None = None
    changed: Callable[[Model, Model], bool] | None = None
    why: str = ""
    settings: dict[str, Any] | None = None
    projections: dict[str, list[TransformConfig]] | None = None


def events(gone: set[tuple[str, str | None]] = frozenset(), new: set[tuple[str, str | None]] = frozenset()
           ) -> tuple[Events, Events]:
    return frozenset(gone), frozenset(new)


# ---------------------------------------------------------------- the expected edits


def _vault(schemas: Schemas) -> dict[str, Any]:
    return schemas[SCHEMA]


def _no_rotation_days(schemas: Schemas) -> None:
    del _vault(schemas)["definitions"]["EncryptionSettings"]["properties"]["RotationDays"]


def _no_iam_actions(schemas: Schemas) -> None:
    """Without ``aws.iam#iamAction`` the handlers keep only the operations' own actions."""
    handlers = _vault(schemas)["handlers"]
    handlers["create"]["permissions"] = ["vault:CreateVault"]
    handlers["read"]["permissions"] = ["vault:GetVault", "vault:ListTagsForResource"]


def _no_deprecated_tier(schemas: Schemas) -> None:
    """Without CreateVault's deprecated ``tier`` member, Tier is only read: read-only, no
    longer create-only nor deprecated."""
    vault = _vault(schemas)
    vault["createOnlyProperties"].remove("/properties/Tier")
    del vault["deprecatedProperties"]
    del vault["properties"]["Tier"]["description"]
    vault["readOnlyProperties"] = sorted([*vault["readOnlyProperties"], "/properties/Tier"])


def _undocumented(schemas: Schemas) -> None:
    """Without ``@documentation`` the default description, and no description but Tier's
    (which ``@deprecated`` writes)."""
    vault = _vault(schemas)
    vault["description"] = "Definition of Acme::Vault::Vault Resource Type"
    for node in [*vault["definitions"].values(), *vault["definitions"]["EncryptionSettings"]["properties"].values()]:
        node.pop("description", None)
    for name, node in vault["properties"].items():
        if name != "Tier":
            node.pop("description", None)


def _renamed_definition(new: str) -> Callable[[Schemas], None]:
    def edit(schemas: Schemas) -> None:
        vault = _vault(schemas)
        vault["definitions"][new] = vault["definitions"].pop("EncryptionSettings")
        vault["properties"]["Encryption"]["$ref"] = f"#/definitions/{new}"
    return edit


def _nothing(schemas: Schemas) -> None:
    schemas.clear()


def _secret_count_is_a_string(schemas: Schemas) -> None:
    _vault(schemas)["properties"]["SecretCount"]["type"] = "string"


def _admin_password_create_only(schemas: Schemas) -> None:
    """Without ``@cfnMutability("write")`` AdminPassword (create input only) is create-only too."""
    vault = _vault(schemas)
    vault["createOnlyProperties"] = sorted([*vault["createOnlyProperties"], "/properties/AdminPassword"])


def _no_label(schemas: Schemas) -> None:
    item = schemas["acme-store-item.json"]
    del item["properties"]["Label"]
    item["readOnlyProperties"].remove("/properties/Label")


# ---------------------------------------------------------------- what the projected model shows


def _gone(*ids: str) -> Callable[[Model, Model], bool]:
    return lambda before, after: all(i in before.shapes and i not in after.shapes for i in ids)


def _member_gone(shape: str, member: str) -> Callable[[Model, Model], bool]:
    return lambda before, after: member in before.shapes[shape].members and member not in after.shapes[shape].members


def _metadata_gone(key: str) -> Callable[[Model, Model], bool]:
    return lambda before, after: key in before.metadata and key not in after.metadata


def _trait(shape: str, member: str | None, trait: str) -> Callable[[Model], Any]:
    def get(model: Model) -> Any:
        node = model.shapes[shape] if member is None else model.shapes[shape].members[member]
        return node.traits.get(trait)
    return get


def _trait_became(shape: str, member: str | None, trait: str, old: Any, new: Any) -> Callable[[Model, Model], bool]:
    get = _trait(shape, member, trait)
    return lambda before, after: get(before) == old and get(after) == new


ROTATION = "acme.vault#EncryptionSettings$rotationDays"
UNSTABLE = "UnstableTrait"
#: Where the vault applies an unstable CloudFormation trait (the vault's metadata suppresses
#: UnstableTrait for its namespace).
UNSTABLE_AT = {(f"{UNSTABLE}.{trait}", f"acme.vault#{shape}") for trait, shape in (
    ("aws.api#tagEnabled", "VaultService"), ("aws.api#taggable", "Vault"), ("aws.cloudformation#cfnResource", "Vault"),
    ("aws.cloudformation#cfnAdditionalIdentifier", "GetVaultInput$vaultArn"),
    ("aws.cloudformation#cfnDefaultValue", "CreateVaultInput$retentionDays"),
    ("aws.cloudformation#cfnExcludeProperty", "CreateVaultInput$clientToken"),
    ("aws.cloudformation#cfnMutability", "CreateVaultInput$adminPassword"),
    ("aws.cloudformation#cfnMutability", "CreateVaultInput$kmsKeyId"),
    ("aws.cloudformation#cfnName", "GetVaultOutput$createdAt"))}


CHANGES = [
    Case("apply", "vault", (T("apply", projections=["iamless"]),), edit=_no_iam_actions,
         projections={"iamless": [T("excludeTraits", traits=["aws.iam#"])]}),
    Case("changeStringEnumsToEnumShapes", "widgets", (T("changeStringEnumsToEnumShapes"),),
         events=events(gone={("ModelDeprecation", "acme.widgets#Finish")}),
         why="a string with @enum and an enum shape are written the same (a definition with 'enum'); "
             "without the deprecated @enum its warnings are gone"),
    Case("changeTypes", "vault", (T("changeTypes", shapeTypes={"acme.vault#SecretCount": "string"}),),
         edit=_secret_count_is_a_string),
    Case("excludeMetadata", "vault", (T("excludeMetadata", keys=["suppressions"]),), events=events(new=UNSTABLE_AT),
         why="the converter reads no metadata; without the vault's suppressions, validation warns where "
             "it applies unstable CloudFormation traits"),
    Case("excludeShapesBySelector", "vault", (T("excludeShapesBySelector", selector=f"[id = '{ROTATION}']"),),
         edit=_no_rotation_days),
    Case("excludeShapesByTag", "vault+extras", (T("excludeShapesByTag", tags=["internal"]),), edit=_no_rotation_days),
    Case("excludeShapesByTrait", "vault", (T("excludeShapesByTrait", traits=["deprecated"]),),
         edit=_no_deprecated_tier),
    Case("excludeTags", "vault+extras", (T("excludeTags", tags=["internal"]),),
         events=events(gone={("InternalMember", ROTATION)}),
         why="the converter never reads @tags; the team's rule flagging members tagged internal no "
             "longer matches"),
    Case("excludeTraits", "vault", (T("excludeTraits", traits=["documentation"]),), edit=_undocumented),
    Case("excludeTraitsByTag", "vault+extras", (T("excludeTraitsByTag", tags=["mutability"]),),
         edit=_admin_password_create_only),
    Case("filterSuppressions", "vault", (T("filterSuppressions", eventIdDenyList=[UNSTABLE]),),
         events=events(new=UNSTABLE_AT),
         why="suppressions decide validation events, never a schema: without the UnstableTrait "
             "suppression, validation warns"),
    Case("flattenAndRemoveMixins", "widgets", (T("flattenAndRemoveMixins"),),
         events=events(gone={("MixinLeft", "acme.widgets#WidgetCommon")}),
         why="the converter reads a mixin's members where they are mixed in, so flattening writes "
             "the same; the team's rule flagging mixins no longer matches"),
    Case("flattenClosureNamespaces", "vault+extras",
         (T("flattenClosureNamespaces", namespace="acme.shared", closure="acme.extras#Encryption"),
          T("excludeMetadata", keys=["shapeClosures"])),
         edit=_renamed_definition("KeyPolicy"),
         why="the closure's rename names the definition; the closures go after it, as the renamed "
             "IDs in their 'rename' fail validation of the projected model (as in the reference)"),
    Case("flattenNamespaces", "vault", (T("flattenNamespaces", namespace="acme.flat", service="acme.vault#VaultService"),),
         settings={**VAULT_CFN, "service": "acme.flat#VaultService"},
         events=events(new={(e, s.replace("acme.vault#", "acme.flat#")) for e, s in UNSTABLE_AT}),
         why="the converter names definitions by shape name (after the service's rename, which the "
             "transform applies), never by namespace; the vault's suppressions name its namespace, so "
             "in the new one validation warns"),
    Case("includeClosures", "vault+extras+closure-vault", (T("includeClosures", closures=["acme.extras#VaultOnly"]),),
         edit=_no_iam_actions),
    Case("includeMetadata", "vault+extras", (T("includeMetadata", keys=["team", "validators", "shapeClosures"]),),
         events=events(new=UNSTABLE_AT),
         why="the converter reads no metadata; the suppressions not kept, validation warns"),
    Case("includeNamespaces", "vault", (T("includeNamespaces", namespaces=["acme.vault", "aws.api", "aws.iam"]),),
         edit=_nothing),
    Case("includeServices", "vault", (T("includeServices", services=["acme.vault#Other"]),), edit=_nothing),
    Case("includeShapesBySelector", "vault", (T("includeShapesBySelector", selector=f":not([id = '{ROTATION}'])"),),
         edit=_no_rotation_days),
    Case("includeShapesByTag", "tagged-shapes", (T("includeShapesByTag", tags=["cfn"]),), edit=_no_label),
    Case("includeTags", "vault+extras", (T("includeTags", tags=["beta"]),),
         events=events(gone={("InternalMember", ROTATION), ("TeamTrait", "acme.extras#owner")}),
         why="the converter never reads @tags; the team's rules flagging what is tagged internal or "
             "team no longer match"),
    Case("includeTraits", "vault", (T("includeTraits", traits=["smithy.api#", "aws.api#", "aws.cloudformation#"]),),
         edit=_no_iam_actions),
    Case("includeTraitsByTag", "vault", (T("includeTraitsByTag", tags=["vault"]),), edit=_nothing,
         why="no trait definition of the vault is tagged: every trait from outside the prelude goes, "
             "@cfnResource with them, so nothing is a resource"),
    Case("makeIdempotencyTokensClientOptional", "widgets", (T("makeIdempotencyTokensClientOptional"),),
         events=events(new={("OptionalToken", "acme.widgets#CreateWidgetInput$requestToken")}),
         why="an idempotency token is never a schema property; the team's rule flagging "
             "@clientOptional members now matches it"),
    Case("removeDeprecatedShapes", "vault", (T("removeDeprecatedShapes", relativeDate="2026-12-01"),),
         edit=_no_deprecated_tier),
    Case("removeTraitDefinitions", "vault+extras", (T("removeTraitDefinitions"),),
         events=events(gone={("TeamTrait", "acme.extras#owner"),
                             ("InternalMember", "acme.vault#EncryptionSettings$rotationDays")}),
         why="the converter reads traits where they are applied, and they stay; the definitions go, and "
             "the model's metadata with them (the reference rebuilds the model from its shapes alone), "
             "so the team's validators (metadata) no longer run"),
    Case("removeUnusedShapes", "vault+extras", (T("removeUnusedShapes"),),
         events=events(gone={("ModelDeprecation", "acme.extras#OldCode"), ("EnumNamesPresent", "acme.extras#OldCode")}),
         why="what no service reaches, the converter never reads; an unused shape's warnings go with it"),
    Case("renameShapes", "vault", (T("renameShapes", renamed={"acme.vault#EncryptionSettings": "acme.vault#KeyPolicy"}),),
         edit=_renamed_definition("KeyPolicy")),
]

SAME = [
    Case("apply", "vault", (T("apply", projections=["errorless"]),), changed=_gone("acme.vault#VaultNotFound"),
         projections={"errorless": [T("excludeShapesByTrait", traits=["error"])]}),
    Case("changeStringEnumsToEnumShapes", "widgets", (T("changeStringEnumsToEnumShapes"),),
         changed=lambda before, after: (before.shapes["acme.widgets#Finish"].type,
                                        after.shapes["acme.widgets#Finish"].type) == ("string", "enum")),
    Case("changeTypes", "vault", (T("changeTypes", shapeTypes={"acme.vault#SecretCount": "integer"}),),
         changed=lambda before, after: after.shapes["acme.vault#SecretCount"].type == "integer"),
    Case("excludeMetadata", "vault+extras", (T("excludeMetadata", keys=["team"]),), changed=_metadata_gone("team")),
    Case("excludeShapesBySelector", "vault", (T("excludeShapesBySelector", selector="[id = acme.vault#VaultNotFound]"),),
         changed=_gone("acme.vault#VaultNotFound")),
    Case("excludeShapesByTag", "vault+extras", (T("excludeShapesByTag", tags=["team"]),), changed=_gone("acme.extras#owner")),
    Case("excludeShapesByTrait", "vault", (T("excludeShapesByTrait", traits=["error"]),),
         changed=_gone("acme.vault#VaultNotFound", "acme.vault#VaultAlreadyExists")),
    Case("excludeTags", "vault+extras", (T("excludeTags", tags=["beta"]),),
         changed=_trait_became("acme.vault#EncryptionSettings", "rotationDays", "smithy.api#tags",
                               ["internal", "beta"], ["internal"])),
    Case("excludeTraits", "vault", (T("excludeTraits", traits=["paginated"]),), changed=_gone("smithy.api#paginated")),
    Case("excludeTraitsByTag", "vault+extras", (T("excludeTraitsByTag", tags=["team"]),),
         changed=lambda before, after: "acme.extras#owner" not in after.shapes
         and "acme.extras#owner" not in after.shapes["acme.vault#Vault"].traits),
    Case("filterSuppressions", "vault", (T("filterSuppressions", removeReasons=True),),
         changed=lambda before, after: after.metadata["suppressions"] == [
             {"id": UNSTABLE, "namespace": "acme.vault"}] != before.metadata["suppressions"]),
    Case("flattenAndRemoveMixins", "widgets", (T("flattenAndRemoveMixins"),), changed=_gone("acme.widgets#WidgetCommon")),
    Case("flattenClosureNamespaces", "vault+extras+closure-extras",
         (T("flattenClosureNamespaces", namespace="acme.moved", closure="acme.extras#Extras"),
          T("excludeMetadata", keys=["shapeClosures"])),
         changed=lambda before, after: "acme.moved#owner" in after.shapes and "acme.extras#owner" not in after.shapes),
    Case("flattenNamespaces", "vault", (T("flattenNamespaces", namespace="acme.flat", service="acme.vault#VaultService"),),
         settings={**VAULT_CFN, "service": "acme.flat#VaultService"},
         changed=lambda before, after: "acme.flat#Vault" in after.shapes and "acme.vault#Vault" not in after.shapes),
    Case("includeClosures", "vault+extras+closure-iam", (T("includeClosures", closures=["acme.extras#VaultAndIam"]),),
         changed=_gone("acme.extras#owner", "acme.extras#OldCode")),
    Case("includeMetadata", "vault+extras", (T("includeMetadata", keys=["suppressions", "validators", "shapeClosures"]),),
         changed=_metadata_gone("team")),
    Case("includeNamespaces", "vault+extras",
         (T("includeNamespaces", namespaces=["acme.vault", "aws.api", "aws.cloudformation", "aws.iam"]),),
         changed=_gone("acme.extras#owner", "acme.extras#Leftover")),
    Case("includeServices", "vault+extras", (T("includeServices", services=["acme.vault#VaultService"]),),
         changed=_gone("acme.extras#Unrelated")),
    Case("includeShapesBySelector", "vault", (T("includeShapesBySelector", selector=":not([trait|error])"),),
         changed=_gone("acme.vault#VaultNotFound")),
    Case("includeShapesByTag", "tagged-shapes", (T("includeShapesByTag", tags=["cfn", "extra"]),),
         changed=_gone("acme.tagged#Draft")),
    Case("includeTags", "vault+extras", (T("includeTags", tags=["internal"]),),
         changed=_trait_became("acme.vault#EncryptionSettings", "rotationDays", "smithy.api#tags",
                               ["internal", "beta"], ["internal"])),
    Case("includeTraits", "vault+extras",
         (T("includeTraits", traits=["smithy.api#", "aws.api#", "aws.cloudformation#", "aws.iam#"]),),
         changed=_gone("acme.extras#owner")),
    Case("includeTraitsByTag", "vault+tagged-traits", (T("includeTraitsByTag", tags=["vault"]),),
         changed=_gone("acme.traits#reviewed")),
    Case("makeIdempotencyTokensClientOptional", "widgets", (T("makeIdempotencyTokensClientOptional"),),
         changed=_trait_became("acme.widgets#CreateWidgetInput", "requestToken", "smithy.api#clientOptional", None, {})),
    Case("removeDeprecatedShapes", "vault+extras", (T("removeDeprecatedShapes", relativeDate="2026-01-01"),),
         changed=_gone("acme.extras#Leftover")),
    Case("removeTraitDefinitions", "vault+extras", (T("removeTraitDefinitions"),),
         changed=lambda before, after: "acme.extras#owner" not in after.shapes
         and "acme.extras#owner" in after.shapes["acme.vault#Vault"].traits),
    Case("removeUnusedShapes", "vault+extras", (T("removeUnusedShapes"),), changed=_gone("acme.extras#OldCode")),
    Case("renameShapes", "vault", (T("renameShapes", renamed={"acme.vault#VaultNotFound": "acme.vault#NoSuchVault"}),),
         changed=lambda before, after: "acme.vault#NoSuchVault" in after.shapes
         and "acme.vault#VaultNotFound" not in after.shapes),
]


# ---------------------------------------------------------------- running a case


_LOADED: dict[str, Model] = {}


def _model(key: str) -> Model:
    if key not in _LOADED:
        diags = Diagnostics()
        model = load_model([str(p) for p in MODELS[key][0]], diags)
        assert not diags.has_errors, [d.message for d in diags]
        _LOADED[key] = model
    return _LOADED[key]


def _events(model: Model) -> tuple[Events, list[str]]:
    """The model's validation warnings and notes as ``(event ID, shape ID)``, and its errors."""
    found = api.validate(model).diagnostics
    return (frozenset((d.event_id or d.code, d.shape_id) for d in found if not d.is_error),
            [d.message for d in found if d.is_error])


def _schemas(model: Model, settings: dict[str, Any]) -> Schemas:
    result = api.convert(model, settings)
    return copy.deepcopy(dict(result.schemas))


def _project(case: Case) -> tuple[Model, Model]:
    """The case's model (loaded once, shared as a build shares it between projections) and
    its projection; the model itself is left as it was."""
    before = _model(case.models)
    diags = Diagnostics()
    text = api.json_ast(before, diags)
    after = apply_transforms(before, list(case.transforms), diags, projections=case.projections)
    assert not diags.items, [d.message for d in diags]
    assert api.json_ast(before, diags) == text, "the transform changed the model it was given"
    return before, after


def _settings(case: Case) -> dict[str, Any]:
    return case.settings or MODELS[case.models][1]


def _name(case: Case) -> str:
    return case.transform


def test_every_builtin_transform_has_a_case_of_each_kind() -> None:
    builtins = {name for name, t in TRANSFORMS.items() if t.function.__module__ == builtin_transforms.__name__}
    assert len(builtins) >= 28
    assert sorted(builtins - {c.transform for c in CHANGES}) == [], "transforms without a case that changes the output"
    assert sorted(builtins - {c.transform for c in SAME}) == [], "transforms without a case that changes nothing"
    for case in CHANGES:
        assert (case.edit is None) != (case.events is None), case.transform
        assert case.transforms[0].name == case.transform
        assert case.events is None or case.why, f"{case.transform}: say why it cannot change a schema"
    assert all(case.changed is not None for case in SAME)


@pytest.mark.parametrize("key", [key for key in MODELS if key.startswith("vault+")])
def test_the_fixtures_beside_the_vault_leave_its_schema_alone(key: str) -> None:
    assert _schemas(_model(key), VAULT_CFN) == _schemas(_model("vault"), VAULT_CFN)


@pytest.mark.parametrize("case", CHANGES, ids=_name)
def test_what_the_transform_changes(case: Case) -> None:
    before, after = _project(case)
    source = _schemas(before, MODELS[case.models][1])
    assert source, "the unprojected model writes schemas"
    written = _schemas(after, _settings(case))
    old_events, old_errors = _events(before)
    new_events, new_errors = _events(after)
    assert not old_errors and not new_errors, new_errors
    if case.edit is not None:
        expected = copy.deepcopy(source)
        case.edit(expected)
        assert expected != source, "the edit changes something"
        assert written == expected
    else:
        assert written == source  # by its nature: said in case.why
        gone, new = case.events
        assert (old_events - new_events, new_events - old_events) == (gone, new)


@pytest.mark.parametrize("case", SAME, ids=_name)
def test_what_the_transform_leaves_alone(case: Case) -> None:
    before, after = _project(case)
    assert case.changed(before, after), "the projection changes the model"
    assert not _events(after)[1]
    source = _schemas(before, MODELS[case.models][1])
    assert source and _schemas(after, _settings(case)) == source


# ---------------------------------------------------------------- through the real build


def _entry(config: TransformConfig) -> dict[str, Any]:
    return {"name": config.name, "args": config.args}


def _written(root: Path, projection: str) -> Schemas:
    folder = root / projection / "cloudformation"
    if not folder.is_dir():
        return {}
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))}


def _build_groups() -> list[tuple[str, list[tuple[str, Case]]]]:
    """The cases by model, each a projection named ``<kind>-<transform>``; a case whose
    projection fails the build (nothing written: the service is gone) gets a build of its own."""
    groups: dict[str, list[tuple[str, Case]]] = {}
    for kind, cases in (("changes", CHANGES), ("same", SAME)):
        for case in cases:
            alone = case.edit is _nothing and case.transform == "includeServices"
            groups.setdefault(f"{case.models}{'/' + case.transform if alone else ''}", []).append(
                (f"{kind}-{case.transform}", case))
    return sorted(groups.items())


@pytest.mark.parametrize("group", _build_groups(), ids=lambda g: g[0])
def test_the_build_writes_what_the_projections_make(tmp_path, monkeypatch, group) -> None:
    key, cases = group
    paths, settings = MODELS[cases[0][1].models]
    projections: dict[str, Any] = {}
    for name, case in cases:
        projection: dict[str, Any] = {"transforms": [_entry(t) for t in case.transforms]}
        if case.settings is not None:
            projection["plugins"] = {"cloudformation": case.settings}
        projections[name] = projection
        for other, transforms in (case.projections or {}).items():
            projections[other] = {"abstract": True, "transforms": [_entry(t) for t in transforms]}
    (tmp_path / "smithy-build.json").write_text(json.dumps({
        "version": "1.0", "sources": [str(p) for p in paths], "plugins": {"cloudformation": settings},
        "projections": projections}), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = api.build_from_config(tmp_path / "smithy-build.json", extensions=[])
    root = tmp_path / "build" / "smithy"
    if key.endswith("/includeServices"):  # the service is gone: an error, and nothing is written
        (error,) = [d for d in result.diagnostics if d.is_error]
        assert error.code == "S4001" and "acme.vault#VaultService" in error.message
        assert not root.exists() or not any(root.rglob("*.json"))
        return
    assert result.exit_code == 0, [(d.code, d.message) for d in result.diagnostics if d.is_error]
    source = _written(root, "source")
    assert source and source == _schemas(_model(cases[0][1].models), settings)
    for name, case in cases:
        expected = copy.deepcopy(source)
        if case.edit is not None:
            case.edit(expected)
        assert _written(root, name) == expected, name
        if case.edit is _nothing:  # no resource left: the build says why nothing is written
            assert any(d.code == "S4012" and d.message.endswith(f"[projection {name}]") for d in result.diagnostics)
        if case.events is not None:  # the events a projection adds are reported, named after it
            reported = {(d.event_id or d.code, d.shape_id) for d in result.diagnostics
                        if d.message.endswith(f"[projection {name}]")}
            assert case.events[1] <= reported, name


STRICT = [case for case in CHANGES if case.events is not None and case.events[1] and case.models == "vault"]


@pytest.mark.parametrize("case", STRICT, ids=_name)
def test_under_strict_the_warnings_a_projection_adds_mean_nothing_is_written(tmp_path, monkeypatch, case) -> None:
    """What a transform that cannot change a schema does change: with ``strict`` (Smithy's
    severity threshold, as CI sets it) the warnings it lets through fail the projection, where
    the ``source`` projection writes its schema."""
    settings = {**_settings(case), "strict": True}
    (tmp_path / "smithy-build.json").write_text(json.dumps({
        "version": "1.0", "sources": [str(VAULT)], "plugins": {"cloudformation": {**VAULT_CFN, "strict": True}},
        "projections": {case.transform: {"transforms": [_entry(t) for t in case.transforms],
                                         "plugins": {"cloudformation": settings}}}}), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    source = api.build_from_config(tmp_path / "smithy-build.json", projection="source", extensions=[])
    assert source.exit_code == 0 and [p.name for p in source.written] == [SCHEMA]
    projected = api.build_from_config(tmp_path / "smithy-build.json", projection=case.transform, extensions=[])
    assert [d.code for d in projected.diagnostics if d.is_error] == ["S6000"]
    assert projected.exit_code == 1 and not projected.written
    assert not (tmp_path / "build" / "smithy" / case.transform).exists()


def test_readme_example_projection() -> None:
    """README "Transforms"'s example, on the vault model: nothing tagged internal, the one
    service, unused shapes gone; the schema is the same."""
    before = _model("vault")
    diags = Diagnostics()
    after = apply_transforms(before, [T("excludeShapesByTag", tags=["internal"]),
                                      T("includeServices", services=["acme.vault#VaultService"]),
                                      T("removeUnusedShapes")], diags)
    assert not diags.items
    assert _schemas(after, VAULT_CFN) == _schemas(before, VAULT_CFN)
