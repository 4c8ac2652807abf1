"""Conformance: the ``build`` command against the reference converter's expected schemas.

Two suites from ``../shared/conformance``: ``cfn`` (the reference's own test models, IDL) and
``aws`` (real AWS service models, JSON AST). Each case runs the real CLI in-process, writes
into a temporary folder, and compares every expected file as parsed JSON. Every schema the
build writes is also checked by the CloudFormation CLI's own loader
(``rpdk.core.data_loaders.load_resource_spec``). Counts are printed at the end of the run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from rpdk.core.data_loaders import load_resource_spec  # the CloudFormation CLI's own loader (test dependency)

from conftest import SHARED, record_result
from smithy2cfn.cli import main


def _cases(suite: str) -> list:
    path = SHARED / "conformance" / suite / "cases.json"
    if not path.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{path} not found (../shared is absent)"),
                             id=f"{suite}-absent")]
    cases = json.loads(path.read_text())["cases"]
    return [pytest.param(c, id=c["name"]) for c in cases]


def run_build(suite: str, case: dict, out: Path):
    """Run ``smithy2cfn build`` for one case, in reference mode (the Java plugin's output,
    which the expected files are); returns the click result."""
    base = SHARED / "conformance" / suite
    config = out.parent / "config.json"
    config.write_text(json.dumps(case["config"]))
    args = ["build", *[str(base / m) for m in case["models"]], "-o", str(out), "--config", str(config),
            "--compatibility", "reference", "--format", "json"]
    return CliRunner().invoke(main, args, catch_exceptions=False)


def check_with_cloudformation_cli(path: Path) -> None:
    """Load a schema file with the CloudFormation CLI's own loader (raises when it rejects it)."""
    with path.open(encoding="utf-8") as f:
        load_resource_spec(f)


def check_case(suite: str, case: dict, tmp_path: Path) -> None:
    """Build one case and compare every expected file; records per-case and per-schema counts."""
    base = SHARED / "conformance" / suite
    out = tmp_path / "out"
    result = run_build(suite, case, out)
    written = sorted(p.name for p in out.glob("*.json")) if result.exit_code == 0 else []
    problems: list[str] = [] if result.exit_code == 0 else [result.stderr]
    for name, rel in case["expected"].items():
        expected = json.loads((base / rel).read_text())
        if name == "*":
            name = written[0] if len(written) == 1 else "*"
        same = name in written and json.loads((out / name).read_text()) == expected
        record_result(f"{suite} (schemas)", f"{case['name']}/{name}", same)
        if not same:
            problems.append(f"{name} differs from {rel} (written: {written})")
    for name in written:
        check_with_cloudformation_cli(out / name)
    if case.get("complete", True) and "*" not in case["expected"] and written:
        if set(written) != set(case["expected"]):
            problems.append(f"unexpected extra or missing files: {sorted(set(written) ^ set(case['expected']))}")
    record_result(f"{suite} (cases)", case["name"], not problems)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("case", _cases("cfn"))
def test_cfn_suite(case, tmp_path):
    check_case("cfn", case, tmp_path)


@pytest.mark.parametrize("case", _cases("aws"))
def test_aws_suite(case, tmp_path):
    check_case("aws", case, tmp_path)
