"""Hostile input to ``smithy2cfn diff``: schema folders with deep ``$ref`` chains, huge
lattices of definitions, files that are not JSON, revisions that look like options. Each is a
diagnostic (or a finding), never a traceback, a hang or a command run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from smithy2cfn import api
from smithy2cfn.diff.delta import MAX_DEPTH, schema_delta


def _schema(definitions: dict, properties: dict) -> dict:
    return {"typeName": "A::B::C", "description": "x", "definitions": definitions, "properties": properties,
            "primaryIdentifier": ["/properties/Id"], "additionalProperties": False}


def _pair(tmp_path: Path, old: dict, new: dict) -> tuple[Path, Path]:
    for name, schema in (("old", old), ("new", new)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a-b-c.json").write_text(json.dumps(schema), encoding="utf-8")
    return tmp_path / "old", tmp_path / "new"


def test_a_ref_chain_deeper_than_the_limit_is_cut_with_a_warning(tmp_path):
    depth = 3 * MAX_DEPTH
    defs = {f"D{i}": {"type": "object", "properties": {"Next": {"$ref": f"#/definitions/D{i + 1}"}}}
            for i in range(depth)}
    defs[f"D{depth}"] = {"type": "string", "maxLength": 5}
    changed = json.loads(json.dumps(defs))
    changed[f"D{depth}"]["maxLength"] = 3
    old, new = _pair(tmp_path, _schema(defs, {"Id": {"$ref": "#/definitions/D0"}}),
                     _schema(changed, {"Id": {"$ref": "#/definitions/D0"}}))
    result = api.diff(old_schemas=old, new_schemas=new)
    assert "S7007" in {d.code for d in result.diagnostics}
    assert result.exit_code in (0, 1)


def test_a_lattice_of_definitions_is_compared_once_per_pair():
    # every definition refers to the next one twice: inlining every use would make 2**40 nodes
    defs = {f"D{i}": {"type": "object", "properties": {"A": {"$ref": f"#/definitions/D{i + 1}"},
                                                       "B": {"$ref": f"#/definitions/D{i + 1}"}}}
            for i in range(40)}
    defs["D40"] = {"type": "string"}
    delta = schema_delta(_schema(defs, {"Id": {"$ref": "#/definitions/D0"}}),
                         _schema(defs, {"Id": {"$ref": "#/definitions/D0"}}))
    assert delta.changes == () and not delta.truncated


@pytest.mark.parametrize("text", ["{NaN}", '{"typeName": 1e1000000000000000000}', "[" * 100_000, "\udcff",
                                  '{"typeName": "A::B::C"} extra'])
def test_a_file_that_is_not_strict_json_is_a_usage_error(tmp_path, text):
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    (tmp_path / "new" / "x.json").write_bytes(text.encode("utf-8", "surrogateescape"))
    result = api.diff(old_schemas=tmp_path / "old", new_schemas=tmp_path / "new")
    assert result.exit_code == 2 and {d.code for d in result.diagnostics} == {"S7004"}


def test_a_fifo_in_a_schema_folder_is_not_read(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    os.mkfifo(tmp_path / "new" / "x.json")
    result = api.diff(old_schemas=tmp_path / "old", new_schemas=tmp_path / "new")
    assert [d.code for d in result.diagnostics] == ["S7005"] and result.types == []


@pytest.mark.parametrize("rev", ["--output=/tmp/pwned", "-c core.pager=touch x", "HEAD; touch pwned", "$(touch x)"])
def test_a_revision_that_looks_like_an_option_runs_nothing(tmp_path, monkeypatch, rev):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(tmp_path)}
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, env=env, check=True)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.smithy").write_text('$version: "2"\nnamespace x\n', encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    result = api.diff(base=rev, new=["m.smithy"])
    assert result.exit_code == 2 and {d.code for d in result.diagnostics} == {"S7002"}
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert not Path("/tmp/pwned").exists()
