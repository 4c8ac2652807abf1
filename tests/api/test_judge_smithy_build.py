"""tools/judge_smithy_build.py, the side-by-side judge of smithy-build.json builds: its comparison
(JSON pointers, Smithy's own artifacts left out, success against failure), run with fake
reference commands (the real one, the Java toolchain, is not needed here)."""

from __future__ import annotations

import importlib.util
import json
import shlex
import sys
from pathlib import Path

import pytest

from conftest import REPO

_SPEC = importlib.util.spec_from_file_location("judge_smithy_build", REPO / "tools" / "judge_smithy_build.py")
judge = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(judge)


def test_first_difference_is_a_json_pointer():
    assert judge.first_difference({"a": [1, 2]}, {"a": [1, 2]}) is None
    assert judge.first_difference({"a": 1}, {"a": 1.0}) is None
    assert judge.first_difference({"a": {"x/y~z": [1, 2]}}, {"a": {"x/y~z": [1, 3]}}) == "/a/x~1y~0z/1"
    assert judge.first_difference({"a": [1]}, {"a": [1, 2]}) == "/a/1"
    assert judge.first_difference({"a": 1, "b": 2}, {"b": 2}) == "/a"
    assert judge.first_difference({"a": 1}, {"a": True}) == "/a"
    assert judge.first_difference([], {}) == ""


def test_collect_leaves_out_smithys_own_artifacts(tmp_path):
    proj = tmp_path / "build" / "smithy" / "public"
    for rel in ("build-info/smithy-build-info.json", "model/model.json", "sources/manifest",
                "sources/nested/a.smithy", "cloudformation/acme-x-y.json", "other/z.json"):
        (proj / rel).parent.mkdir(parents=True, exist_ok=True)
        (proj / rel).write_text("{}")
    ref = judge.collect(tmp_path, reference=True)
    assert {k: sorted(v) for k, v in ref.items()} == {
        "build/smithy/public": ["cloudformation/acme-x-y.json", "other/z.json"]}
    ours = judge.collect(tmp_path, reference=False)
    assert "model/model.json" in ours["build/smithy/public"]


def _case(cases: Path) -> None:
    case = cases / "vault"
    case.mkdir(parents=True)
    (case / "smithy-build.json").write_text(json.dumps({
        "version": "1.0",
        "sources": [str(REPO / "examples" / "vault" / "model")],
        "plugins": {"cloudformation": {"service": "acme.vault#VaultService", "organizationName": "Acme",
                                       "compatibility": "reference"}},
        "projections": {"nodocs": {"transforms": [{"name": "excludeTraits", "args": {"traits": ["documentation"]}}]}},
    }))


_FAKE = '''
import json, pathlib, subprocess, sys
mode, args = sys.argv[1], sys.argv[2:]
rc = subprocess.run([sys.executable, "-m", "smithy2cfn", "build", "-q", *args]).returncode
if mode == "fail":
    sys.exit(1)
if mode == "edit":
    path = pathlib.Path("build/smithy/nodocs/cloudformation/acme-vault-vault.json")
    doc = json.loads(path.read_text())
    doc["properties"]["VaultName"]["maxLength"] = 64
    path.write_text(json.dumps(doc))
if mode == "extra":
    info = pathlib.Path("build/smithy/source/build-info")
    info.mkdir(parents=True)
    (info / "smithy-build-info.json").write_text("{}")
    pathlib.Path("build/smithy/source/cloudformation/extra.json").write_text("{}")
sys.exit(rc)
'''


@pytest.mark.parametrize("mode, rc, expected", [
    ("same", 0, "PASS       vault (2 files, 0 models compared)"),
    ("edit", 1, "differs at '/properties/VaultName/maxLength': smithy2cfn 63 | reference 64"),
    ("fail", 1, "smithy2cfn succeeded (exit 0), the reference failed (exit 1)"),
    ("extra", 1, "build/smithy/source/cloudformation/extra.json: only the reference wrote it"),
])
def test_judge_with_a_fake_reference(tmp_path, monkeypatch, capsys, mode, rc, expected):
    cases = tmp_path / "cases"
    _case(cases)
    fake = tmp_path / "fake.py"
    fake.write_text(_FAKE)
    monkeypatch.setenv(judge.ENV_CMD, f"{shlex.quote(sys.executable)} {shlex.quote(str(fake))} {mode} "
                                      "{configs} {projection}")
    monkeypatch.chdir(tmp_path)  # a relative --cases folder: the builds run elsewhere
    assert judge.main(["--cases", "cases", "--json", str(tmp_path / "out.json")]) == rc
    out = capsys.readouterr().out
    assert expected in out
    report = json.loads((tmp_path / "out.json").read_text())
    assert report["passed"] == (1 if rc == 0 else 0) and report["total"] == 1


def test_judge_without_a_reference_command_is_usage(monkeypatch, capsys):
    monkeypatch.delenv(judge.ENV_CMD, raising=False)
    assert judge.main([]) == 2
    assert judge.ENV_CMD in capsys.readouterr().err


def test_compare_models_leaves_out_the_builtin_namespaces():
    builtin = judge.builtin_namespaces()
    assert {"smithy.api", "aws.cloudformation", "smithy.rules"} <= builtin and "acme.vault" not in builtin
    ours = {"smithy": "2.0", "metadata": {"m": [1]},
            "shapes": {"acme.x#A": {"type": "string", "traits": {"smithy.api#documentation": "a"}}}}
    ref = {"smithy": "2.0", "metadata": {"m": [1]},
           "shapes": {"acme.x#A": {"type": "string", "traits": {"smithy.api#documentation": "a"}},
                      "aws.api#arn": {"type": "structure"}}}
    assert judge.compare_models(ours, ref, builtin) is None
    ref["shapes"]["acme.x#A"]["traits"]["smithy.api#documentation"] = "b"
    assert judge.compare_models(ours, ref, builtin) == (
        "shape acme.x#A differs at '/traits/smithy.api#documentation': smithy2cfn \"a\" | reference \"b\"")
    ref["shapes"]["acme.x#B"] = {"type": "string"}
    assert judge.compare_models(ours, ref, builtin) == "shape acme.x#B: only the reference has it"
    del ref["shapes"]["acme.x#B"]
    ref["shapes"]["acme.x#A"]["traits"]["smithy.api#documentation"] = "a"
    ref["metadata"] = {"m": [2]}
    assert judge.compare_models(ours, ref, builtin).startswith("metadata differs at '/m/0'")
