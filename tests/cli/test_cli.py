"""The command line contract: exit codes, located diagnostics, no tracebacks, nothing
written on failure, deterministic output, check mode, smithy-build.json projects."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import REPO
from smithy2cfn.cli import main

CLI = Path(__file__).resolve().parent / "fixtures"
EXAMPLE = REPO / "examples" / "vault"


def run(*args: str, cwd: Path | None = None):
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(main, list(args), catch_exceptions=False)
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return runner.invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)


def json_diagnostics(stderr: str) -> list[dict]:
    return [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]


def test_syntax_error_is_located_and_recovered(tmp_path):
    out = tmp_path / "out"
    result = run("build", str(CLI / "syntax-error.smithy"), "-o", str(out), "--format", "json")
    assert result.exit_code == 1
    diags = [d for d in json_diagnostics(result.stderr) if d["severity"] == "error"]
    assert {d["code"] for d in diags} >= {"S1001"}
    assert diags[0]["file"].endswith("syntax-error.smithy")
    assert diags[0]["line"] == 7
    # the parser recovers and reports the second error as well
    assert any(d["line"] == 10 for d in diags), diags
    assert not out.exists()
    assert "Traceback" not in result.output


def test_syntax_error_text_format_shows_source_and_caret(tmp_path):
    result = run("validate", str(CLI / "syntax-error.smithy"))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    first = next(i for i, line in enumerate(lines) if "error[S1001]" in line)
    assert lines[first].startswith(f"{CLI / 'syntax-error.smithy'}:7:")
    assert "size Integer" in lines[first + 1]
    assert lines[first + 2].strip().endswith("^")


def test_unknown_shape_suggests_a_name(tmp_path):
    result = run("build", str(CLI / "unknown-shape.smithy"), "-o", str(tmp_path / "out"),
                 "--format", "json")
    assert result.exit_code == 1
    diags = json_diagnostics(result.stderr)
    unresolved = [d for d in diags if d["code"] == "S2001"]
    assert len(unresolved) == 1
    assert unresolved[0]["line"] == 27
    assert "example.unknown#Colour" in unresolved[0]["hint"]
    assert not (tmp_path / "out").exists()


def test_missing_service_is_an_error(tmp_path):
    result = run("build", str(CLI / "no-service.smithy"), "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{CLI / 'no-service.smithy'}: error[S4002]")
    assert not (tmp_path / "out").exists()


def test_unknown_service_is_an_error(tmp_path):
    result = run("build", str(EXAMPLE / "model"), "-o", str(tmp_path / "out"),
                 "--service", "acme.vault#Nope")
    assert result.exit_code == 1
    # the example's aws.iam#requiredActions is deprecated (a DeprecatedTrait warning comes first)
    assert "\n<command line --service>: error[S4001]" in "\n" + result.stderr
    assert "acme.vault#Nope" in result.stderr
    assert "did you mean 'acme.vault#VaultService'" in result.stderr


def test_missing_file_is_reported(tmp_path):
    result = run("build", str(tmp_path / "nope.smithy"), "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "error[S1000]" in result.stderr


def test_bad_usage_exits_2(tmp_path):
    assert run("build", "-o", str(tmp_path)).exit_code == 2
    assert run("frobnicate").exit_code == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert run("build", str(EXAMPLE / "model"), "--config", str(bad), "-o", str(tmp_path)).exit_code == 2


def test_example_builds_deterministically_and_matches_golden(tmp_path, update_goldens):
    golden = EXAMPLE / "expected"
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        result = run("build", "--config", str(EXAMPLE / "smithy-build.json"), "-o", str(out))
        assert result.exit_code == 0, result.output
    files = sorted(p.name for p in a.iterdir())
    assert files == ["acme-vault-vault.json"]
    for name in files:
        assert (a / name).read_bytes() == (b / name).read_bytes()
        if update_goldens:
            golden.mkdir(exist_ok=True)
            shutil.copy(a / name, golden / name)
        assert (a / name).read_bytes() == (golden / name).read_bytes()


def test_check_mode(tmp_path):
    out = tmp_path / "out"
    assert run("build", "--config", str(EXAMPLE / "smithy-build.json"), "-o", str(out), "--check").exit_code == 1
    assert not out.exists()
    assert run("build", "--config", str(EXAMPLE / "smithy-build.json"), "-o", str(out)).exit_code == 0
    assert run("build", "--config", str(EXAMPLE / "smithy-build.json"), "-o", str(out), "--check").exit_code == 0


def test_smithy_build_json_in_current_folder(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(EXAMPLE, project)
    result = run("build", cwd=project)
    assert result.exit_code == 0, result.output
    # where Smithy puts it (issue 16; it was build/cloudformation)
    assert (project / "build" / "smithy" / "source" / "cloudformation" / "acme-vault-vault.json").exists()


def test_python_dash_m_and_binary_garbage(tmp_path):
    garbage = tmp_path / "garbage.smithy"
    garbage.write_bytes(bytes(range(256)) * 4)
    proc = subprocess.run([sys.executable, "-m", "smithy2cfn", "validate", str(garbage)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "garbage.smithy:" in proc.stderr


@pytest.mark.parametrize("flag", ["--org", "--service-name"])
def test_name_overrides(tmp_path, flag):
    out = tmp_path / "out"
    result = run("build", "--config", str(EXAMPLE / "smithy-build.json"), "-o", str(out), flag, "Zed")
    assert result.exit_code == 0, result.output
    (schema_file,) = out.iterdir()
    assert "Zed" in json.loads(schema_file.read_text())["typeName"]


def test_folder_build_ignores_json_that_is_not_a_model(tmp_path):
    """A second build of a folder must not read the schemas the first one wrote into it
    (the reference's assembler ignores unrecognized JSON found in a folder)."""
    project = tmp_path / "project"
    shutil.copytree(EXAMPLE, project)
    (project / "notes.json").write_text('{"foo": 1}')
    (project / "list.json").write_text("[1, 2]")
    for _ in range(2):
        result = run("build", str(project), "-o", str(project / "out"), "--service", "acme.vault#VaultService",
                     "--org", "Acme")
        assert result.exit_code == 0, result.output
    # an explicitly named file is still checked
    result = run("validate", str(project / "notes.json"))
    assert result.exit_code == 1
    assert "error[S1101]" in result.stderr


def test_unbound_cfn_resource_is_a_located_warning(tmp_path):
    model = tmp_path / "m.smithy"
    model.write_text((EXAMPLE / "model" / "vault.smithy").read_text() + """
@cfnResource
resource Orphan {
    identifiers: { orphanId: String }
}
""")
    result = run("build", str(model), "-o", str(tmp_path / "out"), "--format", "json")
    assert result.exit_code == 0, result.output
    (warning,) = [d for d in json_diagnostics(result.stderr) if d["code"] == "S4011"]
    assert warning["shapeId"] == "acme.vault#Orphan" and warning["line"] > 1
    # organizationName defaults to AWS from @aws.api#service, as in the reference
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["aws-vault-vault.json"]


def test_service_without_cfn_resources_warns(tmp_path):
    model = tmp_path / "m.smithy"
    model.write_text('$version: "2"\nnamespace a.b\nservice S { version: "1", resources: [R] }\n'
                     "resource R { identifiers: { id: String } }\n")
    result = run("build", str(model), "-o", str(tmp_path / "out"), "--org", "X")
    assert result.exit_code == 0
    assert f"{model}:3:1: warning[S4012]" in result.stderr


def test_output_is_identical_across_processes_and_hash_seeds(tmp_path):
    """Byte-identical schemas whatever Python's string hashing (set order) is."""
    outputs = []
    for seed in ("1", "2"):
        out = tmp_path / seed
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run([sys.executable, "-m", "smithy2cfn", "build", "-q", "--config",
                               str(EXAMPLE / "smithy-build.json"), "-o", str(out)],
                              capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stderr
        outputs.append({p.name: p.read_bytes() for p in out.iterdir()})
    assert outputs[0] == outputs[1]


def test_nothing_to_build_is_a_located_usage_error(tmp_path):
    result = run("build", "--format", "json", cwd=tmp_path)
    assert result.exit_code == 2
    (d,) = json_diagnostics(result.stderr)
    assert d["code"] == "S5005" and d["file"] == "." and "smithy-build.json" in d["hint"]


def test_the_cli_only_calls_the_library():
    """cli.py parses, calls smithy2cfn.api, prints and exits: it imports nothing else of
    the package (no config reading, no emit, no JSON AST writer) but the api level's other
    library modules: the report filter and SARIF writer, the run plugin; and the program's
    own heap settings (huge_pages, of the cli room: a library never calls it)."""
    import ast as python_ast

    tree = python_ast.parse((REPO / "src" / "smithy2cfn" / "cli.py").read_text())
    imported = set()
    for node in python_ast.walk(tree):
        if isinstance(node, python_ast.ImportFrom) and node.module == "smithy2cfn":
            imported |= {f"smithy2cfn.{alias.name}" for alias in node.names}
        elif isinstance(node, python_ast.ImportFrom) and (node.module or "").startswith("smithy2cfn."):
            imported.add(node.module)
        elif isinstance(node, python_ast.Import):
            imported |= {alias.name for alias in node.names if alias.name.startswith("smithy2cfn")}
    assert imported == {"smithy2cfn.api", "smithy2cfn.diagnostics", "smithy2cfn.report", "smithy2cfn.plugin",
                        "smithy2cfn.huge_pages"}


def test_ast_keeps_the_order_of_members(tmp_path: Path) -> None:
    """A shape's members are written in the model's order (an enum's values, a structure's
    fields): building from `ast`'s output gives the same schema as building from the IDL."""
    model = tmp_path / "m.smithy"
    model.write_text('$version: "2"\nnamespace ex\nenum E {\n    ZULU\n    ALPHA\n    MIKE\n}\n'
                     "structure S {\n    z: E\n    a: String\n}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["ast", str(model)])
    assert result.exit_code == 0, result.output
    shapes = json.loads(result.stdout)["shapes"]
    assert list(shapes["ex#E"]["members"]) == ["ZULU", "ALPHA", "MIKE"]
    assert list(shapes["ex#S"]["members"]) == ["z", "a"]
    # everything else stays sorted (byte-stable): the member bodies' keys, the shapes
    assert list(shapes) == sorted(shapes)
    vault = CliRunner().invoke(main, ["ast", str(REPO / "examples" / "vault" / "model")])
    (tmp_path / "vault.json").write_text(vault.stdout, encoding="utf-8")
    out = tmp_path / "out"
    built = CliRunner().invoke(main, ["build", str(tmp_path / "vault.json"), "--service", "acme.vault#VaultService",
                                      "--org", "Acme", "-o", str(out), "-q"])
    assert built.exit_code == 0, built.output
    assert (out / "acme-vault-vault.json").read_bytes() == (
        REPO / "examples" / "vault" / "expected" / "acme-vault-vault.json").read_bytes()
