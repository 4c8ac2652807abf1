"""An applied trait that nothing defines: error S2010 (Model.UnresolvedTrait), as the reference's
loader reports it (LoaderTraitMap: "Unable to resolve trait"), or with
``--allow-unknown-traits`` / ``allow_unknown_traits=True`` a warning, the trait kept as is."""

from __future__ import annotations

from click.testing import CliRunner

from smithy2cfn import api
from smithy2cfn.cli import main

MISSING_USE = '$version: "2"\nnamespace ex\n@cfnResource\nresource Foo {}\n'
WITH_USE = '$version: "2"\nnamespace ex\nuse aws.cloudformation#cfnResource\n@cfnResource\nresource Foo {}\n'
CUSTOM = '$version: "2"\nnamespace ex\nservice S { version: "1" }\n@notATrait\nstructure A {}\n'


def _write(tmp_path, text):
    path = tmp_path / "model.smithy"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_unknown_trait_is_an_error_whose_hint_names_the_built_in_trait(tmp_path):
    [d] = api.load([_write(tmp_path, MISSING_USE)]).diagnostics
    assert (d.code, d.severity.label, d.event_id, d.shape_id) == ("S2010", "error", "Model.UnresolvedTrait", "ex#Foo")
    assert (d.span.line, d.span.column) == (3, 1)
    assert "Unable to resolve trait `ex#cfnResource`" in d.message
    assert "use aws.cloudformation#cfnResource" in d.hint
    assert api.validate_files([_write(tmp_path, MISSING_USE)]).exit_code == 1


def test_a_defined_trait_is_no_problem(tmp_path):
    assert not [d for d in api.load([_write(tmp_path, WITH_USE)]).diagnostics if d.code == "S2010"]


def test_a_trait_with_no_namesake_points_to_defining_it(tmp_path):
    [d] = api.load([_write(tmp_path, CUSTOM)]).diagnostics
    assert d.code == "S2010" and d.severity.label == "error"
    assert "@trait" in d.hint and "--allow-unknown-traits" in d.hint


def test_allowed_unknown_traits_are_warnings_and_kept(tmp_path):
    loaded = api.load([_write(tmp_path, MISSING_USE)], allow_unknown_traits=True)
    model, [d] = loaded.model, loaded.diagnostics
    assert (d.code, d.severity.label) == ("S2010", "warning")
    assert model.shapes["ex#Foo"].traits["ex#cfnResource"] == {}
    assert api.validate_files([_write(tmp_path, CUSTOM)], allow_unknown_traits=True).exit_code == 0


def test_the_commands_fail_on_an_unknown_trait_unless_allowed(tmp_path):
    path = str(_write(tmp_path, CUSTOM))
    runner = CliRunner()
    for args in (["validate", path], ["ast", path], ["build", path, "-o", str(tmp_path / "out")]):
        failed = runner.invoke(main, args)
        assert failed.exit_code == 1, (args, failed.output)
        assert "error[S2010]" in failed.output
        allowed = runner.invoke(main, [*args, "--allow-unknown-traits"])
        assert allowed.exit_code == 0, (args, allowed.output)
        # ast prints errors only; the trait is kept in its output
        assert ('"ex#notATrait": {}' if args[0] == "ast" else "warning[S2010]") in allowed.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
