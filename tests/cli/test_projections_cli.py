"""The command line over smithy-build.json projections (issue 16): ``-c``/``--config``
repeated and merged, ``--projection``, ``-o``, ``--check`` per projection, ``ast
--projection``; the exit codes of every earlier command unchanged."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import REPO
from smithy2cfn.cli import main, parse_plain

EXAMPLE = REPO / "examples" / "vault"
MODEL = EXAMPLE / "model"
SCHEMA = "acme-vault-vault.json"
CFN = {"service": "acme.vault#VaultService", "organizationName": "Acme"}


def run(*args: str, cwd: Path):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)


@pytest.fixture
def project(tmp_path, set_doc_transform):
    (tmp_path / "smithy-build.json").write_text(json.dumps({
        "version": "1.0", "sources": [str(MODEL)], "plugins": {"cloudformation": CFN},
        "projections": {"public": {"transforms": [{"name": "setDoc", "args": {"text": "Resource Type definition "
                                                                                    "for the public."}}]}}}))
    (tmp_path / "local.json").write_text(json.dumps({"version": "1.0", "outputDirectory": "out"}))
    return tmp_path


def description(path: Path) -> str:
    return json.loads(path.read_text())["description"]


def test_every_projection_is_built_where_smithy_puts_it(project):
    result = run("build", cwd=project)
    assert result.exit_code == 0, result.output
    assert "wrote 2 schema(s) in build/smithy (2 projections)" in result.stderr
    root = project / "build" / "smithy"
    assert description(root / "public" / "cloudformation" / SCHEMA) == "Resource Type definition for the public."
    assert description(root / "source" / "cloudformation" / SCHEMA).startswith("Resource Type definition for Acme")


def test_configs_merge_in_order(project):
    result = run("build", "-c", "smithy-build.json", "--config", "local.json", cwd=project)
    assert result.exit_code == 0, result.output
    assert (project / "out" / "public" / "cloudformation" / SCHEMA).is_file()  # local.json's outputDirectory


def test_projection_and_o(project):
    result = run("build", "--projection", "public", "-o", "flat", cwd=project)
    assert result.exit_code == 0, result.output
    assert [p.name for p in (project / "flat").iterdir()] == [SCHEMA]
    result = run("build", "-o", "all", cwd=project)
    assert sorted(p.parent.parent.name for p in (project / "all").rglob("*.json")) == ["public", "source"]
    result = run("build", "--projection", "nope", "--format", "json", cwd=project)
    assert result.exit_code == 2 and not (project / "build").exists()
    (d,) = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    assert d["code"] == "S5042" and d["file"] == "<command line --projection>" and "public, source" in d["hint"]


def test_check_per_projection(project):
    assert run("build", "--check", cwd=project).exit_code == 1
    assert run("build", "--projection", "source", cwd=project).exit_code == 0
    assert run("build", "--check", "--projection", "source", cwd=project).exit_code == 0
    result = run("build", "--check", "--format", "json", cwd=project)
    assert result.exit_code == 1
    stale = [json.loads(line) for line in result.stderr.splitlines() if '"S5010"' in line]
    assert [Path(d["file"]).parts[2] for d in stale] == ["public"]


def test_ast_of_a_projection(project):
    result = run("ast", "--projection", "public", cwd=project)
    assert result.exit_code == 0, result.output
    shapes = json.loads(result.stdout)["shapes"]
    assert shapes["acme.vault#Vault"]["traits"]["smithy.api#documentation"] == "Resource Type definition for the public."
    result = run("ast", "--config", "smithy-build.json", "-o", "source.json", cwd=project)
    assert result.exit_code == 0 and "Resource Type definition for Acme" in (project / "source.json").read_text()
    assert run("ast", "--projection", "nope", cwd=project).exit_code == 2
    assert run("ast", cwd=project).exit_code == 2  # MODELS, --config or --projection: as before, a usage error


def test_the_readme_command_still_writes_the_flat_folder(tmp_path):
    result = run("build", "--config", str(EXAMPLE / "smithy-build.json"), "-o", "build/cfn", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "build" / "cfn" / SCHEMA).read_bytes() == (EXAMPLE / "expected" / SCHEMA).read_bytes()


def test_the_plain_parser_reads_the_new_options_as_click_does(project):
    function, values = parse_plain(["build", "-c", "a.json", "--config=b.json", "--projection", "p"], {})
    assert values["config_file"] == (Path("a.json"), Path("b.json")) and values["projection"] == "p"
    function, values = parse_plain(["ast", "--projection", "p"], {})
    assert values["models"] == () and values["projection"] == "p"
    assert parse_plain(["ast"], {}) is None  # left to click: MODELS missing
