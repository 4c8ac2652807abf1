"""The library does everything the command line does: build from a smithy-build.json with
overrides, validate files, write a JSON AST; the exit code is a property of the result."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import smithy2cfn
from conftest import REPO
from smithy2cfn import api
from smithy2cfn.cli import main
from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Severity, Span

EXAMPLE = REPO / "examples" / "vault"
CONFIG = EXAMPLE / "smithy-build.json"
SCHEMA = "acme-vault-vault.json"
GOLDEN = EXAMPLE / "expected" / SCHEMA


def codes(result) -> set[str]:
    return {d.code for d in result.diagnostics if d.is_error}


# ---------------------------------------------------------------- build_from_config


def test_build_from_a_smithy_build_json_writes_the_golden(tmp_path, monkeypatch):
    """Where Smithy puts it: build/smithy/<projection>/<plugin>/ (issue 16; it was build/cloudformation)."""
    monkeypatch.chdir(tmp_path)
    result = api.build_from_config(CONFIG, extensions=[])
    assert result.exit_code == 0 and result.ok, result.diagnostics
    folder = Path("build", "smithy", "source", "cloudformation")
    assert result.out_dir == folder and result.written == [folder / SCHEMA]
    assert (tmp_path / folder / SCHEMA).read_bytes() == GOLDEN.read_bytes()
    (projection,) = result.projections
    assert (projection.name, projection.artifact, projection.out_dir) == ("source", "cloudformation", folder)
    # models and no smithy-build.json: build/cloudformation, as before
    result = api.build_from_config(models=[EXAMPLE / "model"], extensions=[])
    assert result.out_dir == api.DEFAULT_OUT_DIR and result.written == [api.DEFAULT_OUT_DIR / "aws-vault-vault.json"]


def test_the_smithy_build_json_of_a_project_folder_is_found(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(EXAMPLE, project)
    result = api.build_from_config(project_dir=project, out_dir=None, extensions=[])
    assert result.exit_code == 0, result.diagnostics
    assert result.written == [] and result.out_dir is None
    assert api.render_schema(result.schemas[SCHEMA]).encode() == GOLDEN.read_bytes()
    # models given: the folder's smithy-build.json is not read
    result = api.build_from_config(models=[project / "model"], project_dir=project, out_dir=None, extensions=[])
    assert list(result.schemas) == ["aws-vault-vault.json"]  # organizationName: the default, not the config's


def test_overrides_win_over_the_config_and_are_located(tmp_path):
    result = api.build_from_config(CONFIG, out_dir=None, overrides={"organizationName": "Zed"}, extensions=[])
    assert result.exit_code == 0
    assert result.schemas["zed-vault-vault.json"]["typeName"] == "Zed::Vault::Vault"
    result = api.build_from_config(CONFIG, out_dir=None, overrides={"service": "acme.vault#Nope"}, extensions=[])
    (d,) = [d for d in result.diagnostics if d.code == "S4001"]
    assert d.span == Span("<override service>") and result.exit_code == 1
    result = api.build_from_config(CONFIG, out_dir=None, overrides={"organizationName": "A-B"},
                                   override_spans={"organizationName": Span("<my tool --org>")}, extensions=[])
    (d,) = [d for d in result.diagnostics if d.code == "S5020"]
    assert d.span == Span("<my tool --org>") and result.exit_code == 2


@pytest.mark.parametrize("overrides", [["organizationName"], {1: "x"}, "service"])
def test_overrides_that_are_no_mapping_are_a_configuration_error(overrides):
    result = api.build_from_config(CONFIG, out_dir=None, overrides=overrides, extensions=[])
    (d,) = [d for d in result.diagnostics if d.is_error]
    assert (d.code, d.span, result.exit_code) == ("S5001", Span("<overrides>"), 2)


def test_a_flat_settings_file_with_models(tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"service": "acme.vault#VaultService", "organizationName": "Flat"}))
    result = api.build_from_config(settings, [EXAMPLE / "model"], out_dir=tmp_path / "out", extensions=[])
    assert result.exit_code == 0, result.diagnostics
    assert [p.name for p in result.written] == ["flat-vault-vault.json"]


def test_configuration_problems_exit_2_and_load_nothing(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = api.build_from_config(bad, [EXAMPLE / "model"], out_dir=tmp_path / "out", extensions=[])
    assert codes(result) == {"S5000"} and result.exit_code == 2 and result.schemas == {}
    assert result.diagnostics[0].span.path == str(bad)
    typed = tmp_path / "typed.json"
    typed.write_text('{"useIntegerType": "yes"}')
    result = api.build_from_config(typed, [EXAMPLE / "model"], out_dir=tmp_path / "out", extensions=[])
    assert codes(result) == {"S5001"} and result.exit_code == 2
    assert not (tmp_path / "out").exists()


def test_nothing_to_build_is_a_usage_error(tmp_path):
    result = api.build_from_config(project_dir=tmp_path, extensions=[])
    (d,) = result.diagnostics
    assert (d.code, d.span, result.exit_code) == ("S5005", Span(str(tmp_path)), 2)
    no_sources = tmp_path / "settings.json"
    no_sources.write_text('{"organizationName": "X"}')
    result = api.build_from_config(no_sources, extensions=[])
    assert codes(result) == {"S5005"} and result.diagnostics[0].span == Span(str(no_sources))


def test_check_mode_and_exit_codes(tmp_path):
    out = tmp_path / "out"
    stale = api.build_from_config(CONFIG, out_dir=out, check=True, extensions=[])
    assert stale.exit_code == 1 and stale.check and stale.stale == [out / SCHEMA] and not out.exists()
    assert api.build_from_config(CONFIG, out_dir=out, extensions=[]).exit_code == 0
    fresh = api.build_from_config(CONFIG, out_dir=out, check=True, extensions=[])
    assert fresh.exit_code == 0 and fresh.stale == [] and fresh.written == []


def test_config_warnings_come_with_the_build(tmp_path):
    config = tmp_path / "smithy-build.json"
    config.write_text(json.dumps({"version": "1.0", "sources": [str(EXAMPLE / "model")], "extra": 1,
                                  "plugins": {"cloudformation": {"organizationName": "Wx"}}}))
    result = api.build_from_config(config, out_dir=None, extensions=[])
    assert result.exit_code == 0 and "S5002" in {d.code for d in result.diagnostics}


@pytest.mark.parametrize("items, code", [
    ([], 0),
    ([Diagnostic("S4101", Severity.WARNING, "w")], 0),
    ([Diagnostic("S2001", Severity.ERROR, "e")], 1),
    ([Diagnostic("S3001", Severity.DANGER, "d")], 1),
    ([Diagnostic("S5011", Severity.ERROR, "e")], 1),
    ([Diagnostic("S5001", Severity.ERROR, "e"), Diagnostic("S2001", Severity.ERROR, "e")], 2),
    ([Diagnostic("S5021", Severity.ERROR, "e")], 2),
    ([Diagnostic("S5022", Severity.ERROR, "e")], 1),
    ([Diagnostic("S5030", Severity.ERROR, "e")], 2),
    ([Diagnostic("S5002", Severity.WARNING, "w")], 0),
])
def test_exit_code_is_a_property_of_the_result(items, code):
    assert api.Result(items).exit_code == code
    assert api.BuildResult(items).exit_code == code
    assert api.BuildResult(stale=[Path("x")]).exit_code == 1


# ---------------------------------------------------------------- validate, JSON AST


def test_validate_files():
    assert api.validate_files([EXAMPLE / "model"]).exit_code == 0
    result = api.validate_files([REPO / "tests" / "cli" / "fixtures" / "unknown-shape.smithy"])
    assert result.exit_code == 1 and "S2001" in codes(result) and result.model is not None


def test_validate_is_callable_again_and_after_importing_the_subpackage(tmp_path):
    loaded = smithy2cfn.load([EXAMPLE / "model"])
    first = smithy2cfn.validate(loaded)
    assert smithy2cfn.validate(loaded) == first
    import smithy2cfn.validation.core.traits as traits

    assert smithy2cfn.validate(loaded) == first and first.ok
    # the subpackage is still reachable through the package
    assert smithy2cfn.validation.core.traits is traits is sys.modules["smithy2cfn.validation.core.traits"]
    assert smithy2cfn.validation.run_validators is sys.modules["smithy2cfn.validation"].run_validators
    (tmp_path / "m.smithy").write_text(NO_IDENTIFIERS)
    found = smithy2cfn.validate(smithy2cfn.load([tmp_path / "m.smithy"]))  # runs the checks
    assert {"S3006", "S3012"} <= {d.code for d in found.diagnostics} and found.exit_code == 1


def test_importing_the_package_stays_lazy():
    code = ("import sys, smithy2cfn; "
            "print(sorted(m for m in sys.modules if m.startswith(('smithy2cfn.validation', 'smithy2cfn.emit', "
            "'smithy2cfn.derive', 'networkx', 'jsonschema'))))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == "[]", proc.stderr


def test_json_ast_text_and_file_match_the_command_line(tmp_path):
    cli_text = CliRunner().invoke(main, ["ast", str(EXAMPLE / "model")], catch_exceptions=False).stdout
    result = api.write_json_ast([EXAMPLE / "model"])
    assert result.exit_code == 0 and result.text == cli_text and result.written is None
    assert json.loads(result.text)["smithy"] == "2.0"
    model = api.load([EXAMPLE / "model"]).model
    assert api.json_ast(model, Diagnostics()) == cli_text
    target = tmp_path / "model.json"
    result = api.write_json_ast(model, target)  # a loaded model
    assert result.written == target and target.read_text() == cli_text


def test_json_ast_failures(tmp_path):
    result = api.write_json_ast([EXAMPLE / "model"], tmp_path)
    (d,) = result.diagnostics
    assert (d.code, d.span, result.exit_code) == ("S5011", Span(str(tmp_path)), 1)
    result = api.write_json_ast(REPO / "tests" / "cli" / "fixtures" / "syntax-error.smithy", tmp_path / "x.json")
    assert result.exit_code == 1 and result.text is None and "S1001" in codes(result)
    assert not (tmp_path / "x.json").exists()


# ---------------------------------------------------------------- one result style

NO_IDENTIFIERS = """$version: "2"
namespace ex

use aws.cloudformation#cfnResource

service Svc { version: "1", resources: [Thing] }

@cfnResource
resource Thing { create: CreateThing }

operation CreateThing {
    input := { name: String }
    output := {}
}
"""


def test_every_call_returns_a_result_with_its_product():
    loaded = smithy2cfn.load([EXAMPLE / "model"])
    assert isinstance(loaded, api.LoadResult) and loaded.exit_code == 0 and "acme.vault#Vault" in loaded.model.shapes
    checked = smithy2cfn.validate(loaded)
    assert isinstance(checked, api.ValidationResult) and checked.model is loaded.model and checked.ok
    assert checked.diagnostics == smithy2cfn.validate_files([EXAMPLE / "model"]).diagnostics
    converted = smithy2cfn.convert(checked.model, {"service": "acme.vault#VaultService", "organizationName": "Acme"},
                                   extensions=[])
    assert isinstance(converted, api.ConvertResult) and converted.exit_code == 0
    assert api.render_schema(converted.schemas[SCHEMA]).encode() == GOLDEN.read_bytes()
    bad = smithy2cfn.load(REPO / "tests" / "cli" / "fixtures" / "syntax-error.smithy")
    assert bad.exit_code == 1 and "S1001" in codes(bad)
    assert smithy2cfn.validate(bad).exit_code == 1  # the load's errors come along
    assert smithy2cfn.convert(checked.model, {"useIntegerType": 1}, extensions=[]).exit_code == 2


def test_a_conversion_that_failed_its_checks_returns_no_schema(tmp_path):
    model_file = tmp_path / "m.smithy"
    model_file.write_text(NO_IDENTIFIERS)
    model = smithy2cfn.load(model_file).model
    result = smithy2cfn.convert(model, {"organizationName": "Ex"}, extensions=[])
    assert {"S4003", "S4201"} <= codes(result) and result.exit_code == 1
    assert result.schemas == {} and len(result) == 0
    # control: the same resource with an identifier converts
    model_file.write_text(NO_IDENTIFIERS.replace("resource Thing {", "resource Thing { identifiers: { id: String },")
                          .replace("input := { name: String }", "input := { name: String }\n    output := { @required id: String }")
                          .replace("    output := {}\n", ""))
    result = smithy2cfn.convert(smithy2cfn.load(model_file).model, {"organizationName": "Ex"}, extensions=[])
    assert result.ok and list(result.schemas) == ["ex-svc-thing.json"], [d.format_text() for d in result.diagnostics]


def test_the_earlier_call_forms_still_work(tmp_path):
    (tmp_path / "m.smithy").write_text(NO_IDENTIFIERS)
    bad, diags = smithy2cfn.load([tmp_path / "m.smithy"])  # a pair, as load returned
    assert isinstance(diags, Diagnostics) and not diags.has_errors
    returned = smithy2cfn.validate(bad, diags)  # adds to the collector
    assert any(d.code.startswith("S3") for d in diags) and returned.diagnostics == diags.sorted()
    model, diags = smithy2cfn.load([EXAMPLE / "model"])
    assert smithy2cfn.load([EXAMPLE / "model"])[0].shapes.keys() == model.shapes.keys()
    settings = {"service": "acme.vault#VaultService", "organizationName": "Acme"}
    schemas = smithy2cfn.convert(model, {**settings, "bogus": 1}, diags, extensions=[])  # adds to it too
    assert "S5002" in {d.code for d in diags} and schemas.diagnostics == diags.sorted()
    assert list(schemas) == [SCHEMA] and schemas[SCHEMA]["typeName"] == "Acme::Vault::Vault"
    assert schemas == {SCHEMA: schemas.schemas[SCHEMA]} and schemas != {}
    found = Diagnostics()
    smithy2cfn.load([REPO / "tests" / "cli" / "fixtures" / "syntax-error.smithy"], found)
    assert found.has_errors
    assert smithy2cfn.convert(model, settings, found, extensions=[]) == {}  # a failed run converts nothing


_JSON_SCALARS = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
                 | st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8) | st.just("\u2028\"\\\x00"))
_JSON_VALUES = st.recursive(
    _JSON_SCALARS,
    lambda inner: (st.lists(inner, max_size=4) | st.tuples(inner)
                   | st.dictionaries(st.text(max_size=5) | st.integers(0, 9) | st.none(), inner, max_size=4)),
    max_leaves=25)


@settings(max_examples=400, deadline=None)
@given(_JSON_VALUES)
def test_render_schema_writes_what_json_dumps_writes(value):
    """render_schema's own encoder gives json.dumps's text (indent 2, key order kept, not
    ASCII-only) and raises what json.dumps raises (NaN, infinities), keys that are not
    strings and tuples included."""
    from smithy2cfn.writer import render_schema

    try:
        expected = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e)):
            render_schema(value)
        return
    assert render_schema(value) == expected


def test_render_schema_leaves_deep_values_to_json_dumps():
    deep: list = []
    for _ in range(150):
        deep = [deep, {"k": 1.5}]
    assert api.render_schema({"a": deep}) == json.dumps({"a": deep}, indent=2, ensure_ascii=False) + "\n"
