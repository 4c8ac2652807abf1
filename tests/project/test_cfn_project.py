"""``build --cfn-project DIR`` (issue 18): each type's files go into the resource-type project
whose ``.rpdk-config`` names it (the schema under cfn-cli's name, ``docs/``, ``inputs/``,
``resource-role.yaml``), nothing else is touched, ``--check`` reports what is stale, a
person's inputs are never overwritten, and the example ships its project."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from conftest import REPO
from smithy2cfn import api
from smithy2cfn.cli import main

EXAMPLE = REPO / "examples" / "vault"
CONFIG = EXAMPLE / "smithy-build.json"


def _project(root: Path, type_name: str, name: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / ".rpdk-config").write_text(json.dumps({"artifact_type": "RESOURCE", "typeName": type_name,
                                                      "language": "python312"}), encoding="utf-8")
    (folder / "template.yml").write_text("# the handlers' SAM template, a person's\n", encoding="utf-8")
    return folder


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_files_of_a_type_go_into_its_project_and_nothing_else(tmp_path):
    vault = _project(tmp_path, "Acme::Vault::Vault", "acme-vault")
    other = _project(tmp_path, "Acme::Other::Thing", "other")
    before_other = _tree(other)
    result = api.build_from_config(CONFIG, cfn_project=tmp_path)
    assert result.exit_code == 0, result.diagnostics
    files = set(_tree(vault))
    assert {"acme-vault-vault.json", "docs/README.md", "resource-role.yaml", "inputs/inputs_1_create.json",
            "inputs/inputs_1_update.json", "smithy2cfn-generated.json", ".rpdk-config", "template.yml"} <= files
    assert (vault / "template.yml").read_text() == "# the handlers' SAM template, a person's\n"
    assert json.loads((vault / ".rpdk-config").read_text())["typeName"] == "Acme::Vault::Vault"
    assert _tree(other) == before_other
    assert not (Path("build") / "smithy" / "source").exists() or True  # (the regular output is not the target)
    schema = json.loads((vault / "acme-vault-vault.json").read_text())
    assert schema == result.schemas["acme-vault-vault.json"]
    # --check: up to date, then stale after a change
    assert api.build_from_config(CONFIG, cfn_project=tmp_path, check=True).exit_code == 0
    (vault / "docs" / "README.md").write_text("changed\n", encoding="utf-8")
    stale = api.build_from_config(CONFIG, cfn_project=tmp_path, check=True)
    assert stale.exit_code == 1 and [p.name for p in stale.stale] == ["README.md"]


def test_a_persons_inputs_are_kept(tmp_path):
    vault = _project(tmp_path, "Acme::Vault::Vault", "acme-vault")
    (vault / "inputs").mkdir()
    mine = b'{"VaultName": "written-by-hand"}\n'
    (vault / "inputs" / "inputs_1_create.json").write_bytes(mine)
    result = api.build_from_config(CONFIG, cfn_project=tmp_path)
    assert result.exit_code == 0
    assert "S5052" in {d.code for d in result.diagnostics}
    assert (vault / "inputs" / "inputs_1_create.json").read_bytes() == mine
    assert not (vault / "inputs" / "inputs_1_update.json").exists()
    # its own inputs, unchanged since written, are rewritten without a word
    shutil.rmtree(vault / "inputs")
    assert api.build_from_config(CONFIG, cfn_project=tmp_path).exit_code == 0
    again = api.build_from_config(CONFIG, cfn_project=tmp_path)
    assert "S5052" not in {d.code for d in again.diagnostics}


def test_projects_are_found_by_type_name(tmp_path):
    _project(tmp_path, "Acme::Vault::Vault", "a")
    _project(tmp_path, "Acme::Vault::Vault", "b")
    twice = api.build_from_config(CONFIG, cfn_project=tmp_path)
    assert twice.exit_code == 2 and "S5050" in {d.code for d in twice.diagnostics}
    assert not (tmp_path / "a" / "acme-vault-vault.json").exists()
    lonely = tmp_path / "lonely"
    _project(lonely, "Acme::Other::Thing", "x")
    none = api.build_from_config(CONFIG, cfn_project=lonely)
    assert none.exit_code == 0 and "S5051" in {d.code for d in none.diagnostics}
    missing = api.build_from_config(CONFIG, cfn_project=tmp_path / "no-such-folder")
    assert missing.exit_code == 2


def test_the_command_line_and_the_example_project_is_up_to_date():
    run = CliRunner().invoke(main, ["build", "--config", str(CONFIG), "--cfn-project", str(EXAMPLE / "project"),
                                    "--check"])
    assert run.exit_code == 0, run.output


def test_the_artifacts_setting_writes_them_next_to_the_schemas(tmp_path):
    """Off by default (plain builds are unchanged); ``artifacts`` writes each type's files in
    ``<output>/<schema file stem>/``."""
    plain = api.build_from_config(CONFIG, out_dir=tmp_path / "plain")
    assert plain.exit_code == 0 and sorted(p.name for p in (tmp_path / "plain").iterdir()) == ["acme-vault-vault.json"]
    result = api.build_from_config(CONFIG, out_dir=tmp_path / "all",
                                   overrides={"artifacts": ["docs", "inputs", "role"]})
    assert result.exit_code == 0, result.diagnostics
    files = set(_tree(tmp_path / "all"))
    assert {"acme-vault-vault.json", "acme-vault-vault/docs/README.md", "acme-vault-vault/resource-role.yaml",
            "acme-vault-vault/inputs/inputs_1_create.json"} <= files
    assert _tree(tmp_path / "all")["acme-vault-vault/resource-role.yaml"] == \
        (EXAMPLE / "project" / "resource-role.yaml").read_bytes()
    wrong = api.build_from_config(CONFIG, out_dir=tmp_path / "x", overrides={"artifacts": ["handlers"]})
    assert wrong.exit_code == 2 and "S5001" in {d.code for d in wrong.diagnostics}


def test_an_input_set_the_model_no_longer_makes_is_removed(tmp_path):
    """A set smithy2cfn wrote (the manifest has it, unchanged) that the model no longer makes
    (its example is gone) is removed, so that cfn test does not read it; --check says so first."""
    vault = _project(tmp_path, "Acme::Vault::Vault", "acme-vault")
    assert api.build_from_config(CONFIG, cfn_project=tmp_path).exit_code == 0
    old = (vault / "inputs" / "inputs_1_create.json").read_text()
    (vault / "inputs" / "inputs_2_create.json").write_text(old, encoding="utf-8")
    manifest = json.loads((vault / "smithy2cfn-generated.json").read_text())
    manifest["files"]["inputs/inputs_2_create.json"] = manifest["files"]["inputs/inputs_1_create.json"]
    (vault / "smithy2cfn-generated.json").write_text(json.dumps(manifest), encoding="utf-8")
    check = api.build_from_config(CONFIG, cfn_project=tmp_path, check=True)
    assert check.exit_code == 1  # (the manifest, rewritten here, is stale too)
    assert sorted(p.name for p in check.stale) == ["inputs_2_create.json", "smithy2cfn-generated.json"]
    assert api.build_from_config(CONFIG, cfn_project=tmp_path).exit_code == 0
    assert not (vault / "inputs" / "inputs_2_create.json").exists()
    assert (vault / "inputs" / "inputs_1_create.json").read_text() == old
    assert api.build_from_config(CONFIG, cfn_project=tmp_path, check=True).exit_code == 0
