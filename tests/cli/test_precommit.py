"""The pre-commit hooks of ``.pre-commit-hooks.yaml`` (issue 10), run by pre-commit in a
temporary git repository.

Without network: the hooks are copied into a ``repo: local`` configuration as they are
(entry, args, files, pass_filenames), except ``language: python`` (which would pip-install
this package in a new environment) becomes ``system`` with the entry pointing at the
``smithy2cfn`` installed next to the running interpreter. The manifest itself is checked
with ``pre-commit validate-manifest``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

EXAMPLE = REPO / "examples" / "vault"
MANIFEST = REPO / ".pre-commit-hooks.yaml"

pytest.importorskip("pre_commit", reason="pre-commit is in the test extra: pip install -e '.[test]'")
yaml = pytest.importorskip("yaml", reason="pre-commit depends on PyYAML")
if shutil.which("git") is None:  # pragma: no cover - depends on the machine
    pytest.skip("git is not installed: the pre-commit hooks cannot be run", allow_module_level=True)


def _smithy2cfn() -> str:
    found = Path(sys.executable).with_name("smithy2cfn")
    if not found.exists():  # pragma: no cover - an environment without the console script
        pytest.skip(f"no smithy2cfn script next to {sys.executable}")
    return str(found)


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"), HOME=str(tmp_path / "home"),
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_NOSYSTEM="1")
    (tmp_path / "home").mkdir(exist_ok=True)
    return env


def _git(repo: Path, env: dict[str, str], *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, timeout=60)


def _pre_commit(repo: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=repo, env=env, capture_output=True,
                          text=True, timeout=300)


def test_manifest_is_valid(tmp_path):
    proc = _pre_commit(REPO, _env(tmp_path), "validate-manifest", str(MANIFEST))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    hooks = {hook["id"]: hook for hook in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))}
    assert set(hooks) == {"smithy2cfn-check", "smithy2cfn-validate", "smithy2cfn-diff"}
    assert hooks["smithy2cfn-check"]["entry"].split()[:3] == ["smithy2cfn", "build", "--check"]
    assert hooks["smithy2cfn-validate"]["entry"].split()[:2] == ["smithy2cfn", "validate"]
    assert hooks["smithy2cfn-diff"]["entry"].split() + hooks["smithy2cfn-diff"]["args"] == \
        ["smithy2cfn", "diff", "--base", "origin/main"]


@pytest.fixture
def project(tmp_path):
    """A git repository holding the example project, its built schemas, and a
    .pre-commit-config.yaml running this checkout's hooks."""
    env = _env(tmp_path)
    repo = tmp_path / "project"
    shutil.copytree(EXAMPLE / "model", repo / "model")
    shutil.copy(EXAMPLE / "smithy-build.json", repo / "smithy-build.json")
    built = subprocess.run([_smithy2cfn(), "build", "-q"], cwd=repo, env=env, capture_output=True, text=True,
                           timeout=120)
    assert built.returncode == 0, built.stderr
    hooks = []
    for hook in yaml.safe_load(MANIFEST.read_text(encoding="utf-8")):
        entry = hook["entry"].split(" ", 1)
        assert entry[0] == "smithy2cfn" and hook["language"] == "python"
        hooks.append({**hook, "language": "system", "entry": " ".join([_smithy2cfn(), *entry[1:]])})
    config = {"repos": [{"repo": "local", "hooks": hooks}]}
    (repo / ".pre-commit-config.yaml").write_text(json.dumps(config, indent=2), encoding="utf-8")  # JSON is YAML
    _git(repo, env, "init", "-q")
    _git(repo, env, "add", "-A")
    _git(repo, env, "commit", "-q", "-m", "project")
    _git(repo, env, "update-ref", "refs/remotes/origin/main", "HEAD")  # as a clone of the project has it
    return repo, env


def test_hooks_pass_on_an_up_to_date_project(project):
    repo, env = project
    proc = _pre_commit(repo, env, "run", "--all-files")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "smithy2cfn build --check" in proc.stdout and "smithy2cfn validate" in proc.stdout
    assert proc.stdout.count("Passed") == 3


def test_check_hook_fails_when_the_schemas_are_stale(project):
    repo, env = project
    (schema,) = (repo / "build" / "smithy" / "source" / "cloudformation").iterdir()  # where Smithy puts it
    schema.write_text(schema.read_text(encoding="utf-8").replace('"typeName"', '"typeName" ', 1), encoding="utf-8")
    _git(repo, env, "add", "-A")
    proc = _pre_commit(repo, env, "run", "smithy2cfn-check")
    assert proc.returncode == 1, proc.stdout
    assert "S5010" in proc.stdout and "out of date" in proc.stdout


def test_validate_hook_fails_on_a_broken_model(project):
    repo, env = project
    model = repo / "model" / "vault.smithy"
    model.write_text(model.read_text(encoding="utf-8") + "\nstructure Broken { x: NoSuchShape }\n",
                     encoding="utf-8")
    _git(repo, env, "add", "-A")
    proc = _pre_commit(repo, env, "run", "smithy2cfn-validate")
    assert proc.returncode == 1
    assert "S2001" in proc.stdout and "NoSuchShape" in proc.stdout


def test_diff_hook_fails_on_a_breaking_change(project):
    repo, env = project
    model = repo / "model" / "vault.smithy"
    text = model.read_text(encoding="utf-8")
    assert "@length(min: 3, max: 63)" in text
    model.write_text(text.replace("@length(min: 3, max: 63)", "@length(min: 3, max: 40)"), encoding="utf-8")
    _git(repo, env, "add", "-A")
    proc = _pre_commit(repo, env, "run", "smithy2cfn-diff")
    assert proc.returncode == 1, proc.stdout
    assert "S7118 [ML006]" in proc.stdout and "verdict: major" in proc.stdout
