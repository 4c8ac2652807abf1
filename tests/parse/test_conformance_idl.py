"""Conformance of the front end with the reference loader (``../shared/conformance/idl``).

* ``valid``: ``smithy2cfn ast`` of ``valid/<case>.smithy`` + ``valid/__shared.json`` equals
  ``canonical/<case>.json`` (parsed JSON; ``__shared.json`` shapes removed).
* round trip: where ``valid/<case>.json`` exists, its ``ast`` equals that of the IDL file.
* ``invalid``: ``smithy2cfn validate`` rejects every case with exit 1; where the case's first
  line names a line, we count whether one of our errors is on that line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import SHARED, record_result
from smithy2cfn.cli import main

IDL = SHARED / "conformance" / "idl"


def _params(folder: str, pattern: str) -> list:
    root = IDL / folder
    if not root.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{root} not found (../shared is absent)"),
                             id=f"{folder}-absent")]
    files = sorted(p for p in root.rglob(pattern) if not p.name.startswith("__"))
    return [pytest.param(p, id=str(p.relative_to(root))) for p in files]


def _ast(*paths: Path) -> tuple[int, dict | None, str]:
    result = CliRunner().invoke(main, ["ast", *map(str, paths)], catch_exceptions=False)
    doc = json.loads(result.stdout) if result.exit_code == 0 else None
    return result.exit_code, doc, result.output


def _shared_ids() -> set[str]:
    return set(json.loads((IDL / "valid" / "__shared.json").read_text())["shapes"])


def _without_shared(doc: dict) -> dict:
    shared = _shared_ids()
    doc = dict(doc)
    doc["shapes"] = {k: v for k, v in doc.get("shapes", {}).items() if k.split("$")[0] not in shared}
    return doc


@pytest.mark.parametrize("case", _params("valid", "*.smithy"))
def test_valid_matches_canonical(case: Path):
    rel = case.relative_to(IDL / "valid").with_suffix(".json")
    expected = json.loads((IDL / "canonical" / rel).read_text())
    ok = False
    try:
        code, doc, output = _ast(case, IDL / "valid" / "__shared.json")
        assert code == 0, output
        actual = _without_shared(doc)
        expected.setdefault("shapes", {})
        assert actual.get("shapes") == expected.get("shapes")
        assert actual.get("metadata", {}) == expected.get("metadata", {})
        ok = True
    finally:
        record_result("idl valid (JSON AST matches)", str(rel), ok)


@pytest.mark.parametrize("case", _params("valid", "*.json"))
def test_json_ast_round_trip(case: Path):
    idl = case.with_suffix(".smithy")
    if not idl.exists():
        pytest.skip("no IDL twin")
    ok = False
    try:
        code1, from_json, out1 = _ast(case, IDL / "valid" / "__shared.json")
        code2, from_idl, out2 = _ast(idl, IDL / "valid" / "__shared.json")
        assert code1 == 0, out1
        assert code2 == 0, out2
        assert from_json == from_idl
        ok = True
    finally:
        record_result("idl JSON AST round trip", str(case.relative_to(IDL / "valid")), ok)


_LINE = re.compile(r"line (\d+)")


@pytest.mark.parametrize("case", _params("invalid", "*.smithy"))
def test_invalid_is_rejected(case: Path):
    first = case.read_text(encoding="utf-8", errors="replace").splitlines()[0]
    result = CliRunner().invoke(main, ["validate", str(case), "--format", "json"], catch_exceptions=False)
    rejected = result.exit_code == 1
    name = str(case.relative_to(IDL / "invalid"))
    record_result("idl invalid (rejected)", name, rejected)
    m = _LINE.search(first)
    if m and rejected:
        lines = {json.loads(x).get("line") for x in result.stderr.splitlines() if x.startswith("{")}
        record_result("idl invalid (same line as the reference)", name, int(m.group(1)) in lines)
    assert rejected, f"{case.name} was accepted; the reference reports: {first}"


@pytest.mark.parametrize("case", _params("invalid", "*.json"))
def test_invalid_json_ast_is_rejected(case: Path):
    result = CliRunner().invoke(main, ["validate", str(case)], catch_exceptions=False)
    record_result("idl invalid JSON AST (rejected)", str(case.relative_to(IDL / "invalid")), result.exit_code == 1)
    assert result.exit_code == 1, result.output


def _aws_models() -> list:
    root = SHARED / "conformance" / "aws" / "models"
    if not root.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{root} not found (../shared is absent)"),
                             id="aws-absent")]
    return [pytest.param(p, id=p.stem) for p in sorted(root.glob("*.json"))]


@pytest.mark.parametrize("model", _aws_models())
def test_real_models_round_trip_through_ast(model: Path):
    """Loading a real AWS model and writing it back gives the same shapes and metadata."""
    code, doc, output = _ast(model)
    original = json.loads(model.read_text())
    ok = code == 0 and doc["shapes"] == original["shapes"] and doc.get("metadata", {}) == original.get("metadata", {})
    record_result("aws models: JSON AST round trip", model.stem, ok)
    assert ok, output[:2000]
