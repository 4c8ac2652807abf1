"""``smithy2cfn diff`` through its interface (issue 17): the three forms of input (two model
versions, a git revision, two folders of schemas), the JSON document, SARIF, exit codes and
``--fail-on``, suppressions, usage errors, and the model places findings point at."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from diff_models import BASE, SETTINGS, TYPE_NAME, apply, render

from smithy2cfn import api
from smithy2cfn.cli import expand_variadic, main

ORG = ["--org", SETTINGS["organizationName"], "--service", SETTINGS["service"]]


def _write(folder: Path, spec: dict, metadata: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "model.smithy"
    version, rest = render(spec).split("\n", 1)
    path.write_text(f"{version}\n{metadata}\n{rest}", encoding="utf-8")
    return path


def _findings(result: api.DiffResult) -> list:
    return [f for t in result.types for f in t.findings]


def test_variadic_old_and_new_take_every_path_up_to_the_next_option():
    assert expand_variadic(["diff", "--old", "a", "b", "--new", "c", "d", "--format", "json"]) == \
        ["diff", "--old", "a", "--old", "b", "--new", "c", "--new", "d", "--format", "json"]
    assert expand_variadic(["diff", "--base", "main", "x"]) == ["diff", "--base", "main", "x"]
    assert expand_variadic(["build", "--old", "a", "b"]) == ["build", "--old", "a", "b"]
    assert expand_variadic(["diff", "--old", "a", "--", "--new"]) == ["diff", "--old", "a", "--", "--new"]


def test_two_model_versions_give_located_findings_and_a_verdict(tmp_path):
    old = _write(tmp_path / "old", BASE)
    new = _write(tmp_path / "new", apply(apply(BASE, "drop_from", "size", "update"), "length", "Name", [1, 32]))
    result = api.diff([old], [new], overrides=SETTINGS)
    assert result.verdict == "major" and result.exit_code == 1
    by_rule = {f.rule_id: f for f in _findings(result)}
    pr002 = by_rule["PR002"].diagnostic
    # the cause, in model terms, at the member the update input no longer has (old model)
    assert "UpdateThing's input no longer has size" in pr002.message
    assert pr002.span.path == str(old) and pr002.span.line > 0
    ml006 = by_rule["ML006"].diagnostic
    assert ml006.span.path == str(new)
    assert new.read_text().splitlines()[ml006.span.line - 1].startswith("@length")


def test_a_cfn_name_change_is_a_removal_said_in_model_terms(tmp_path):
    old = _write(tmp_path / "old", BASE)
    new = _write(tmp_path / "new", apply(BASE, "cfn_name", "size", "Capacity"))
    result = api.diff([old], [new], overrides=SETTINGS)
    (removed,) = [f for f in _findings(result) if f.rule_id == "PR001"]
    assert "`cfnName` changed from `Size` to `Capacity`" in removed.diagnostic.message
    assert new.read_text().splitlines()[removed.diagnostic.span.line - 1].strip().startswith("@cfnName")


def test_identical_inputs_report_nothing(tmp_path):
    old = _write(tmp_path / "old", BASE)
    new = _write(tmp_path / "new", BASE)
    result = api.diff([old], [new], overrides=SETTINGS)
    assert _findings(result) == [] and result.verdict == "patch" and result.exit_code == 0
    assert [t.type_name for t in result.types] == [TYPE_NAME]


def test_fail_on_sets_the_exit_code(tmp_path):
    old = _write(tmp_path / "old", BASE)
    new = _write(tmp_path / "new", apply(BASE, "enum_add", "Tier", "ULTRA"))
    assert api.diff([old], [new], overrides=SETTINGS).exit_code == 0
    assert api.diff([old], [new], overrides=SETTINGS, fail_on="minor").exit_code == 1
    assert api.diff([new], [old], overrides=SETTINGS, fail_on="never").exit_code == 0
    assert api.diff([new], [old], overrides=SETTINGS).exit_code == 1


def test_a_suppression_in_the_new_model_removes_a_finding_and_its_verdict(tmp_path):
    old = _write(tmp_path / "old", BASE)
    changed = apply(BASE, "pattern", "Name", "^.+$")  # PAT003, a warning
    assert {f.rule_id for f in _findings(api.diff([old], [_write(tmp_path / "plain", changed)],
                                                  overrides=SETTINGS))} == {"PAT003"}
    for name, metadata in (("by-id", 'metadata suppressions = [{id: "CfnDiff.GuardRail", namespace: "*"}]'),
                           ("by-code", 'metadata suppressions = [{id: "S7138", namespace: "example.diff"}]')):
        result = api.diff([old], [_write(tmp_path / name, changed, metadata)], overrides=SETTINGS)
        assert _findings(result) == [] and result.types[0].suppressed == 2, name
        assert result.verdict == "patch" and result.exit_code == 0
    # as for every other diagnostic, an error is never suppressed
    tightened = _write(tmp_path / "error", apply(BASE, "length", "Name", [1, 32]),
                       'metadata suppressions = [{id: "CfnDiff", namespace: "*"}]')
    assert api.diff([old], [tightened], overrides=SETTINGS).exit_code == 1


def test_a_type_added_and_removed(tmp_path):
    old = _write(tmp_path / "old", BASE)
    # the same model under another typeName (the new side's own smithy-build.json): one type
    # removed, one added
    new = _write(tmp_path / "new", BASE).parent / "smithy-build.json"
    new.write_text(json.dumps({"version": "1.0", "sources": ["model.smithy"], "plugins": {
        "cloudformation": dict(SETTINGS, serviceName="Other")}}), encoding="utf-8")
    moved = api.diff([old], [new], overrides={k: v for k, v in SETTINGS.items()})
    statuses = {t.type_name: (t.status, t.verdict) for t in moved.types}
    assert statuses == {"Example::DiffService::Thing": ("removed", "major"),
                        "Example::Other::Thing": ("added", "minor")}, (statuses, moved.diagnostics)
    assert moved.exit_code == 1


def test_folders_of_schemas(tmp_path):
    for name, spec in (("old", BASE), ("new", apply(BASE, "enum_remove", "Tier", "MAX"))):
        built = api.build([_write(tmp_path / "m" / name, spec)], tmp_path / name, SETTINGS)
        assert built.exit_code == 0
    result = api.diff(old_schemas=tmp_path / "old", new_schemas=tmp_path / "new")
    (enm,) = [f for f in _findings(result) if f.rule_id == "ENM001"]
    # a value removed: located where it was, in the old schema file, at the key
    old_file = tmp_path / "old" / "example-diffservice-thing.json"
    assert enm.diagnostic.span.path == str(old_file) and enm.diagnostic.span.line > 1
    line = old_file.read_text().splitlines()[enm.diagnostic.span.line - 1].strip()
    assert line in ('"Status": {', '"Tier": {'), line  # a property whose schema is the enum
    assert result.exit_code == 1
    assert api.diff(old_schemas=tmp_path / "old", new_schemas=tmp_path / "old").types[0].findings == []
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "x.json").write_text("{NaN", encoding="utf-8")
    bad = api.diff(old_schemas=tmp_path / "old", new_schemas=tmp_path / "bad")
    assert bad.exit_code == 2 and {d.code for d in bad.diagnostics} == {"S7004"}


@pytest.mark.parametrize("kwargs", [
    {},
    {"old": ["a.smithy"]},
    {"base": "HEAD", "old": ["a.smithy"], "new": ["b.smithy"]},
    {"old_schemas": "x"},
    {"old_schemas": "x", "new_schemas": "y", "new": ["b.smithy"]},
    {"old": ["a.smithy"], "new": ["b.smithy"], "fail_on": "sometimes"},
])
def test_usage_errors_exit_2(kwargs):
    result = api.diff(**kwargs)
    assert result.exit_code == 2 and {d.code for d in result.diagnostics} == {"S7006"}, result.diagnostics


def test_a_side_that_does_not_build_exits_1(tmp_path):
    old = _write(tmp_path / "old", BASE)
    broken = tmp_path / "broken.smithy"
    broken.write_text('$version: "2"\nnamespace x\nstructure A { b: Missing }\n', encoding="utf-8")
    result = api.diff([old], [broken], overrides=SETTINGS)
    assert result.exit_code == 1 and result.new is None and result.types == []


def _git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(cwd)}
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def repo(tmp_path, monkeypatch):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    _write(root / "model", BASE)
    (root / "smithy-build.json").write_text(json.dumps({"version": "1.0", "sources": ["model"], "plugins": {
        "cloudformation": SETTINGS}}), encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "v1")
    monkeypatch.chdir(root)
    return root


def test_base_reads_the_revision_from_git_without_touching_the_working_tree(repo):
    _write(repo / "model", apply(BASE, "remove_member", "size"))
    status = _git(repo, "status", "--porcelain")
    result = api.diff(base="main")
    (removed,) = [f for f in _findings(result) if f.rule_id == "PR001"]
    assert removed.side == "old" and removed.diagnostic.span.path == "main:model/model.smithy"
    assert removed.diagnostic.span.line > 0
    assert result.old is not None and result.old.name.startswith("main (")
    assert _git(repo, "status", "--porcelain") == status
    # with explicit paths too, and a revision that is not there
    assert api.diff(base="main", new=["model"], overrides=SETTINGS).verdict == "major"
    missing = api.diff(base="no-such-branch")
    assert missing.exit_code == 2 and {d.code for d in missing.diagnostics} == {"S7002"}


def test_base_outside_a_repository(tmp_path, monkeypatch):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    result = api.diff(base="main", new=[_write(tmp_path / "m", BASE)])
    assert result.exit_code == 2 and {d.code for d in result.diagnostics} == {"S7001"}


def test_the_command_line_json_document(tmp_path):
    old = _write(tmp_path / "old", BASE)
    new = _write(tmp_path / "new", apply(BASE, "drop_from", "size", "update"))
    runner = CliRunner()
    run = runner.invoke(main, ["diff", "--old", str(old), "--new", str(new), *ORG, "--format", "json"])
    assert run.exit_code == 1, run.output
    document = json.loads(run.stdout)
    assert document["verdict"] == "major" and document["old"] == str(old) and document["new"] == str(new)
    (entry,) = document["types"]
    assert entry["typeName"] == TYPE_NAME and entry["verdict"] == "major"
    finding = next(f for f in entry["findings"] if f["ruleId"] == "PR002")
    assert {"code", "ruleId", "severity", "message", "file", "line", "column"} <= set(finding)
    assert finding["code"] == "S7102" and finding["severity"] == "error" and finding["file"] == str(old)
    again = runner.invoke(main, ["diff", "--old", str(old), "--new", str(new), *ORG, "--format", "json"])
    assert again.stdout == run.stdout  # deterministic


def test_the_command_line_text_and_sarif(tmp_path):
    old = _write(tmp_path / "old", BASE)
    new = _write(tmp_path / "new", apply(BASE, "enum_add", "Tier", "ULTRA"))
    runner = CliRunner()
    text = runner.invoke(main, ["diff", "--old", str(old), "--new", str(new), *ORG, "-v"])
    assert text.exit_code == 0, text.output
    assert f"old: {old}" in text.stdout and f"{TYPE_NAME}: minor" in text.stdout and "S7302" in text.stdout
    sarif = runner.invoke(main, ["diff", "--old", str(old), "--new", str(new), *ORG, "--format", "sarif", "-v"])
    results = json.loads(sarif.stdout)["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["S7302"]


def test_the_installed_command_takes_several_paths_after_old(tmp_path):
    old = _write(tmp_path / "old", BASE)
    extra = tmp_path / "extra.smithy"
    extra.write_text('$version: "2"\nnamespace example.extra\nstring Unused\n', encoding="utf-8")
    new = _write(tmp_path / "new", BASE)
    run = subprocess.run([sys.executable, "-m", "smithy2cfn", "diff", "--old", str(old), str(extra), "--new",
                          str(new), str(extra), *ORG, "--format", "json"], capture_output=True, text=True,
                         timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["types"][0]["findings"] == []
