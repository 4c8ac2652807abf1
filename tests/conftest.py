"""Shared test helpers: where the conformance material lives, and how to run the CLI."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def shared_or_skip(*parts: str) -> Path:
    """The path under ``../shared``; skip the test with a clear reason when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"conformance material not found at {path} (the ../shared folder is absent)")
    return path


def json_paths(value, prefix: tuple = ()):
    """Every path (tuple of keys and indexes) in a JSON value, the empty one first, parents
    before children: where the property-based tests change a document."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from json_paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from json_paths(v, (*prefix, i))


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite golden files (under tests/<room>/fixtures) instead of comparing")


@pytest.fixture
def update_goldens(request) -> bool:
    return bool(request.config.getoption("--update-goldens"))


def read_golden(path: Path, actual: str, update: bool) -> str:
    """The golden text at ``path`` to compare ``actual`` with. With ``--update-goldens``
    (``update``) ``actual`` is written there first; otherwise a missing golden fails the test
    (it is never written silently, so a test cannot pass by writing what it checks)."""
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    if not path.exists():
        pytest.fail(f"golden file {path} is missing: run `pytest --update-goldens`, then review it")
    return path.read_text(encoding="utf-8")


# ---------------------------------------------------------------- conformance counts

_RESULTS: dict[str, dict[str, bool]] = {}


def record_result(suite: str, case: str, passed: bool) -> None:
    """Remember one conformance case's outcome for the end-of-run summary."""
    _RESULTS.setdefault(suite, {})[case] = passed


def pytest_terminal_summary(terminalreporter):
    if not _RESULTS:
        return
    terminalreporter.section("conformance")
    for suite in sorted(_RESULTS):
        cases = _RESULTS[suite]
        passed = sum(cases.values())
        terminalreporter.write_line(f"{suite}: {passed}/{len(cases)} passed")


# ---------------------------------------------------------------- aws-all


@pytest.fixture(scope="session")
def aws_all_models(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Every published AWS service model (``../shared/conformance/aws-all``), extracted once
    per session from ``models.tar.xz``; the test is skipped when the archive is absent."""
    archive = shared_or_skip("conformance", "aws-all", "models.tar.xz")
    folder = tmp_path_factory.mktemp("aws-all")
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    models = sorted(folder.rglob("*.json"))
    if not models:
        pytest.skip(f"no model in {archive}")
    return models


@pytest.fixture
def set_doc_transform(monkeypatch: pytest.MonkeyPatch) -> str:
    """A stand-in transform for tests of projections (the real ones are tested in
    tests/transform/): ``setDoc`` (``args.text``, a string) sets the documentation of the
    vault example's resource ``acme.vault#Vault``, so a schema's description shows which
    projection made it; ``old`` takes the reference's old list form of ``args``. Registered
    in the transform registry for the test only, so the real checks and runner (``apply``
    included) run around it. Returns the stand-in's name."""
    from smithy2cfn.transform import registry
    from smithy2cfn.transform.ops import copy_model

    def set_doc(model, args, context):
        out = copy_model(model)
        out.own("acme.vault#Vault").traits["smithy.api#documentation"] = args["text"]
        out.changed()
        return out

    monkeypatch.setitem(registry.TRANSFORMS, "setDoc", registry.Transform(
        "setDoc", "(test stand-in)", (registry.Arg("text", registry.STRING, default=""),), None, set_doc))
    monkeypatch.setitem(registry.TRANSFORMS, "old", registry.Transform(
        "old", "(test stand-in)", (registry.Arg("values", registry.STRINGS, default=()),), "values",
        lambda model, args, context: model))
    return "setDoc"


def guardrail_or_skip() -> tuple[Path, Path]:
    """``(python, guardrail.py)`` of resource-schema-guard-rail as ``../shared/tools/guardrail``
    sets it up (its own venv in the temp folder); skips with a message where it is absent."""
    import tempfile

    python = Path(tempfile.gettempdir()) / "sgr" / "bin" / "python"
    script = shared_or_skip("tools", "guardrail", "guardrail.py")
    if not python.exists():
        pytest.skip(f"guard-rail is not set up ({python} is absent): run sh ../shared/tools/guardrail/"
                    "setup-guardrail.sh")
    return python, script


def guardrail_stateful(pairs: list[tuple[Path, Path]]) -> list[set[str]]:
    """guard-rail's stateful check IDs for each ``(old schema file, new schema file)`` pair,
    in one run of guard-rail (``guardrail.py --stateful --json``)."""
    import json
    import subprocess

    python, script = guardrail_or_skip()
    args = [str(p) for pair in pairs for p in pair]
    run = subprocess.run([str(python), str(script), "--stateful", "--json", *args], capture_output=True, text=True,
                         timeout=600, check=False)
    report = json.loads(run.stdout)
    entries = report["files"] if isinstance(report["files"], list) else list(report["files"].values())
    assert len(entries) == len(pairs), run.stderr[-2000:]
    return [{f["check_id"] for f in entry["findings"]} for entry in entries]
