"""Configured validators (the ``validators`` metadata) are units found through the catalog,
each held to the codes it declares (:mod:`smithy2cfn.validation.core.configured`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from smithy2cfn import api, checks
from smithy2cfn.checks import DECLARED, configurable, shipped
from smithy2cfn.diagnostics import Diagnostic, Severity
from smithy2cfn.validation.core import configured

MODEL = """$version: "2"

metadata validators = [{name: "Liar"}, {name: "Crasher"}, {name: "EmitEachSelector", configuration: {selector: "string"}}]

namespace smithy.example

string Name
"""


_declared = dict(DECLARED)
try:
    @configurable("Liar", "S3590", rule="a test unit that reports a code it does not declare")
    def _liar(config):
        def run_liar(model):
            yield Diagnostic("S3001", Severity.ERROR, "not mine")
        return run_liar

    @configurable("Crasher", "S3590", rule="a test unit that fails")
    def _crasher(config):
        def run_crasher(model):
            raise RuntimeError("boom")
        return run_crasher
finally:
    # (the test units are no declarations of the package: test_prelude_cache)
    DECLARED.clear()
    DECLARED.update(_declared)


def test_a_unit_reporting_an_undeclared_code_or_failing_is_an_internal_error(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch):
    units = {"Liar": _liar.check, "Crasher": _crasher.check}
    by_catalog = configured.configurable_named
    monkeypatch.setattr(configured, "configurable_named", lambda name: units.get(name) or by_catalog(name))
    (tmp_path / "m.smithy").write_text(MODEL)
    model = api.load([tmp_path / "m.smithy"]).model
    found = list(configured.check_configured_validators(model))
    internal = sorted(d.message for d in found if d.code == "S3099")
    assert len(internal) == 2 and all(d.severity is Severity.ERROR for d in found if d.code == "S3099")
    assert "configured validator Crasher" in internal[0] and "RuntimeError: boom" in internal[0]
    assert "configured validator Liar" in internal[1] and "it reported S3001" in internal[1]
    # the other configured validator still ran
    assert [d.shape_id for d in found if d.code == "S3590" and d.shape_id.startswith("smithy.example#")] == [
        "smithy.example#Name"]
    # through the runner: the model is not accepted, and no S3099 blames check_configured_validators
    result = api.validate(api.load([tmp_path / "m.smithy"]))
    assert result.exit_code != 0
    assert not any("check_configured_validators" in d.message for d in result.diagnostics)


def test_the_runner_passes_on_the_codes_of_configured_units(tmp_path: Path):
    (tmp_path / "m.smithy").write_text(MODEL.replace('{name: "Liar"}, {name: "Crasher"}, ', ""))
    result = api.validate(api.load([tmp_path / "m.smithy"]))
    assert [(d.code, d.shape_id) for d in result.diagnostics] == [("S3590", "smithy.example#Name")]


def test_every_name_resolves_to_its_unit_through_the_catalog():
    listed = shipped("configurable")
    names = {c.name for c in listed}
    assert {"EmitEachSelector", "EmitNoneSelector", "UnreferencedShape", "CamelCase", "StutteredShapeName"} <= names
    assert len(names) == len(listed) == 15
    for entry in listed:
        unit = configured.configurable_named(entry.name)
        assert unit is not None and unit.run is not None and unit.codes == entry.codes
    assert configured.configurable_named("NoSuchValidator") is None
    assert configured.unit_codes() == frozenset(code for c in listed for code in c.codes)


def test_without_a_catalog_the_units_are_found_by_importing_the_modules(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(checks, "shipped", lambda kind: [])
    unit = configured.configurable_named("CamelCase")
    assert unit is not None and unit.module == "smithy2cfn.validation.smithy_linters" and unit.codes == ("S3601",)
