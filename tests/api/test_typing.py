"""The public API is typed (issue 10): ``py.typed`` ships, the package's public modules pass
``mypy --strict`` (the ``[tool.mypy]`` settings of pyproject.toml), and so does a program
that uses them."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from conftest import REPO

#: A user's program: every public function and result attribute, used as documented.
CONSUMER = '''
from pathlib import Path
from typing import Any

import smithy2cfn
from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Severity
from smithy2cfn.report import DiagnosticFilter, render_sarif, sarif_document


def main(folder: Path) -> int:
    result: smithy2cfn.BuildResult = smithy2cfn.build([folder], out_dir=None,
                                                      settings={"organizationName": "Acme"})
    names: list[str] = sorted(result.schemas)
    loaded: smithy2cfn.LoadResult = smithy2cfn.load([folder])
    validated: smithy2cfn.ValidationResult = smithy2cfn.validate(loaded)
    converted: smithy2cfn.ConvertResult = smithy2cfn.convert(validated.model, {"organizationName": "Acme"})
    schema: dict[str, Any] = converted.schemas["acme-x-y.json"]
    model, diags = smithy2cfn.load([folder])  # the earlier forms still type-check
    smithy2cfn.validate(model, diags)
    checked: smithy2cfn.ValidationResult = smithy2cfn.validate_files([str(folder)])
    from_config = api.build_from_config(None, [folder], out_dir=None, overrides={"service": "a#B"})
    ast: smithy2cfn.AstResult = smithy2cfn.write_json_ast(model)
    shown: list[Diagnostic] = DiagnosticFilter(Severity.NOTE).select(result.diagnostics)
    log: str = render_sarif(sarif_document(shown))
    more = Diagnostics()
    more.warning("S9999", "an extension's warning")
    return (len(names) + checked.exit_code + from_config.exit_code + len(ast.text or "") + len(log) + len(more)
            + converted.exit_code + len(schema))
'''


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e '.[test]'")
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


def test_py_typed_ships():
    assert (REPO / "src" / "smithy2cfn" / "py.typed").is_file()


def test_public_api_passes_mypy_strict():
    proc = _mypy()
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_program_using_the_api_passes_mypy_strict(tmp_path):
    program = tmp_path / "consumer.py"
    program.write_text(textwrap.dedent(CONSUMER), encoding="utf-8")
    proc = _mypy("--strict", str(program))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    bad = tmp_path / "bad.py"
    bad.write_text("import smithy2cfn\n\nn: int = smithy2cfn.build([], None).schemas\n", encoding="utf-8")
    proc = _mypy("--strict", str(bad))
    assert proc.returncode == 1 and "Incompatible types in assignment" in proc.stdout
