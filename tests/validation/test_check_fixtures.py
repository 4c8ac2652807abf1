"""Every validator, and every configurable validator (one a model's ``validators`` metadata
turns on), has, on disk, models that trigger each of its codes and one that does not
(issue 15: "one model per rule that triggers it and one that does not" made visible).

Layout: ``tests/validation/fixtures/<module>/<check>/<case>.smithy`` (or ``.json``), where
``<module>`` is the check's module under ``smithy2cfn/validation`` as a path
(``core/targets``, ``waiters``, ``smithy_linters``) and ``<check>`` its function name (for a
configurable validator, its factory: ``smithy_linters/camel_case``; its models name it in
their ``validators`` metadata); beside each model,
``<case>.errors`` lists every event smithy2cfn reports for it, in the reference's errorfile
format (``[SEVERITY] shape: message | EventId``, ``-`` for no shape), sorted: a golden file
(``pytest --update-goldens`` rewrites it; review the diff). Each model is loaded alone with
the built-in trait packages, as the reference's validation suites are.

The coverage test then asks, of every validator and configurable validator in the catalog,
for a folder whose cases report each of its codes (but those listed in :data:`NOT_TRIGGERED`,
with why) and one case that reports none of them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from conftest import read_golden
from smithy2cfn import api
from smithy2cfn.checks import Check, shipped

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
PREFIX = "smithy2cfn.validation."

#: Validators (and configurable validators) with no fixture folder yet (each room's work
#: removes its own). Check names are ``<module under validation>.<function>``.
WITHOUT_FIXTURES: set[str] = {
}

#: Codes a validator declares that no model can trigger, with why: ``check name → {code: why}``.
NOT_TRIGGERED: dict[str, dict[str, str]] = {
    "core.configured.check_configured_validators": {
        "S3099": "an internal error: only a configured validator that fails, or reports a code it does not declare, "
                 "reports it (tests/validation/test_configured_units.py makes one)",
    },
    "core.trait_validators.check_trait_validators": {
        "S3703": "a selector the parser rejects is a syntax error, which check_trait_creation reports as the "
                 "reference does (S3374, a Model error: it hides this NOTE)",
    },
    "core.traits.check_trait_targets": {
        "S3008": "a selector the parser rejects is a syntax error, which check_trait_creation reports as the "
                 "reference does (S3374, a Model error: it hides this NOTE)",
    },
}


def _cases() -> list[Path]:
    if not FIXTURES.is_dir():
        return []
    return sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".smithy", ".json") and p.is_file())


def _folder(check: Check) -> Path:
    return FIXTURES.joinpath(*check.module.removeprefix(PREFIX).split("."), check.function)


def _line(d) -> str:
    return f"[{d.severity.name}] {d.shape_id or '-'}: {d.message} | {d.event_id or '-'}"


def _checks() -> list[Check]:
    """The checks that need fixtures: the validators and the configurable validators."""
    return shipped("validator") + shipped("configurable")


@cache
def _run(model: Path) -> tuple[str, frozenset[str]]:
    """The errorfile text of ``model``'s events and the codes reported."""
    result = api.validate(api.load([model]))
    lines = sorted({_line(d) for d in result.diagnostics})
    return "".join(line + "\n" for line in lines), frozenset(d.code for d in result.diagnostics)


@pytest.mark.parametrize("model", _cases(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_events(model: Path, update_goldens: bool) -> None:
    text, _ = _run(model)
    assert text == read_golden(model.with_suffix(".errors"), text, update_goldens)


def test_every_check_has_fixtures_that_trigger_each_code_and_one_that_does_not() -> None:
    missing, untriggered, no_clean, stale = [], {}, [], []
    for check in _checks():
        name = f"{check.module.removeprefix(PREFIX)}.{check.function}"
        folder = _folder(check)
        cases = sorted(p for p in folder.glob("*") if p.suffix in (".smithy", ".json")) if folder.is_dir() else []
        if not cases:
            if name not in WITHOUT_FIXTURES:
                missing.append(name)
            continue
        if name in WITHOUT_FIXTURES:
            stale.append(name)
        reported = [_run(p)[1] for p in cases]
        expected = set(check.codes) - set(NOT_TRIGGERED.get(name, {}))
        left = expected - set().union(*reported)
        if left:
            untriggered[name] = sorted(left)
        if all(codes & set(check.codes) for codes in reported):
            no_clean.append(name)
    assert not missing, f"checks without fixtures in tests/validation/fixtures: {missing}"
    assert not untriggered, f"codes no fixture of the validator triggers: {untriggered}"
    assert not no_clean, f"checks without a case that reports none of their codes: {no_clean}"
    assert not stale, f"these checks have fixtures now: delete them from WITHOUT_FIXTURES: {stale}"


def test_every_fixture_folder_is_a_check() -> None:
    folders = {_folder(c) for c in _checks()}
    strays = sorted({str(p.parent.relative_to(FIXTURES)) for p in _cases() if p.parent not in folders})
    assert not strays, f"fixture folders that name no validator or configurable validator (moved or renamed?): {strays}"
