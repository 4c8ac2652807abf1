"""Codes and checks are declared where they are used, and everything else is made from those
declarations (:mod:`smithy2cfn.checks`, :mod:`smithy2cfn.catalog`):

* the shipped catalog and README's tables of codes are current (else: run
  ``python -m smithy2cfn.precompute``);
* every check names a rule and only declared codes, and writes in its source only codes it
  declares; the runner turns a code a validator does not declare into ``S3099``;
* every code has one owner, is written somewhere in the package, and a module writes only
  codes it declares or that a module it imports declares;
* the validators a model runs are routed from the catalog, by trait package.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
from pathlib import Path

import pytest

from smithy2cfn import catalog, precompute
from smithy2cfn.checks import DECLARED, Check, shipped, validator
from smithy2cfn.diagnostics import CODES, Code, Diagnostic, Severity

PACKAGE = Path(precompute.__file__).resolve().parent
CODE = re.compile(r"[\"'](S\d{4})[\"']")


#: Checks that write a code they do not declare, with the change that removes each (a place
#: that no longer does must leave the list).
KNOWN_UNDECLARED: dict[str, list[str]] = {}


#: Codes reported by another stage than their number says: codes are stable (suppressions and
#: scripts name them), so these keep the number they were given before the loader reported
#: them (the reference's loader reports these events too).
CODES_OF_ANOTHER_STAGE = {
    "S2025": "smithy2cfn.parse.lower",
    **{code: "smithy2cfn.load.loader" for code in ("S3032", "S3041", "S3101", "S3102", "S3103", "S3104", "S3106")},
}


@pytest.fixture(scope="module")
def declared() -> tuple[dict[str, Code], list[Check]]:
    return precompute.declarations()


def test_catalog_and_readme_tables_are_current():
    stale = [name for name in precompute.stale_files() if name in (catalog.CATALOG_FILE, precompute.README.name)]
    assert not stale, f"{stale} stale: a declaration changed; run `{precompute.COMMAND}` and commit the result"


def test_the_shipped_catalog_holds_every_declaration(declared):
    codes, checks = declared
    data = catalog.read()
    assert set(data["codes"]) == set(codes) and len(codes) > 300
    assert [Check.from_json(e) for e in data["checks"]] == [
        Check(c.kind, c.name, c.module, c.function, c.codes, c.rule, c.packages, c.line) for c in checks]


def test_every_check_names_a_rule_and_declared_codes(declared):
    codes, checks = declared
    assert len([c for c in checks if c.kind == "validator"]) >= 130
    for check in checks:
        assert check.rule.strip(), check
        assert check.codes, f"{check.module}.{check.function} declares no code"
        assert set(check.codes) <= set(codes), check


def test_a_check_writes_only_the_codes_it_declares(declared):
    """Read from the source: every code literal in a check's function (and in the functions
    of its module that it calls, transitively) is one the check declares."""
    _, checks = declared
    wrong = {}
    for check in checks:
        source = Path(inspect.getsourcefile(check.run)).read_text(encoding="utf-8")
        tree = ast.parse(source)
        defs = {n.name: n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        seen: set[str] = set()
        written: set[str] = set()

        def visit(name: str, defs=defs, seen=seen, written=written, source=source) -> None:
            if name in seen or name not in defs:
                return
            seen.add(name)
            node = defs[name]
            body = ast.Module(body=node.body, type_ignores=[])
            written.update(CODE.findall(ast.unparse(body)))
            for sub in ast.walk(body):
                if isinstance(sub, ast.Name):
                    visit(sub.id)
                elif isinstance(sub, ast.Attribute):
                    visit(sub.attr)

        visit(check.function)
        extra = written - set(check.codes)
        if extra:
            wrong[f"{check.module}.{check.function}"] = sorted(extra)
    assert wrong == KNOWN_UNDECLARED


def test_every_code_is_written_somewhere(declared):
    codes, _ = declared
    used: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        # a declaration is not a use
        text = re.sub(r"Code\(\s*[\"']S\d{4}[\"']", "", text)
        used |= set(CODE.findall(text))
    assert set(codes) <= used, sorted(set(codes) - used)
    assert used <= set(codes), sorted(used - set(codes))


def test_a_code_is_a_stage_code_of_its_owner(declared):
    """Codes are grouped by stage (README "Diagnostics"): the first digit says where the
    owner is."""
    codes, _ = declared
    rooms = {"1": ("smithy2cfn.parse", "smithy2cfn.model", "smithy2cfn.load", "smithy2cfn.plugin"),
             "2": ("smithy2cfn.load",), "3": ("smithy2cfn.validation",),
             "4": ("smithy2cfn.derive", "smithy2cfn.emit", "smithy2cfn.contract", "smithy2cfn.custom"),
             "5": ("smithy2cfn.api", "smithy2cfn.config", "smithy2cfn.buildconfig", "smithy2cfn.settings",
                   "smithy2cfn.smithy_build", "smithy2cfn.writer", "smithy2cfn.derive", "smithy2cfn.emit",
                   "smithy2cfn.plugin", "smithy2cfn.transform", "smithy2cfn.project"),
             "6": ("smithy2cfn.lint", "smithy2cfn.api"),
             "7": ("smithy2cfn.plugin", "smithy2cfn.cli", "smithy2cfn.diff", "smithy2cfn.api")}
    wrong = {code: entry.owner for code, entry in codes.items()
             if not entry.owner.startswith(rooms[code[1]])}
    assert wrong == CODES_OF_ANOTHER_STAGE


def test_the_runner_reports_an_undeclared_code_as_an_internal_error():
    from smithy2cfn.api import load
    from smithy2cfn.validation import validate_model

    model, _ = load([str(PACKAGE.parents[1] / "examples" / "vault" / "model")])
    declared = dict(DECLARED)
    try:
        @validator("S3099", rule="a test validator")
        def liar(model):
            yield Diagnostic("S3001", Severity.ERROR, "not mine")
    finally:
        # (the test validator is no declaration of the package: test_prelude_cache)
        DECLARED.clear()
        DECLARED.update(declared)

    found = validate_model(model, [liar])
    assert [d.code for d in found] == ["S3099"] and "S3001" in found[0].message


def test_a_check_declared_again_replaces_its_first_declaration():
    """A module imported again (as a test may) declares its checks again: each stays listed
    once, the new declaration in place of the old."""
    declared = dict(DECLARED)
    try:
        def twice(model):
            return []

        first = validator("S3099", rule="a test validator")(twice).check
        again = validator("S3099", rule="a test validator, again")(twice).check
        mine = [c for c in DECLARED.values() if (c.module, c.function) == (__name__, "twice")]
        assert mine == [again] and first not in DECLARED.values()
    finally:
        # (not a declaration of the package)
        DECLARED.clear()
        DECLARED.update(declared)


def test_validation_imports_a_validator_when_it_runs_and_a_missing_one_is_an_internal_error(monkeypatch):
    """By default ``validate_model`` runs the catalog's entries, each module imported by the
    process that runs it (``checks.loaded``): the same events as the imported validators; an
    entry whose module is gone (a stale catalog) is an ``S3099`` naming it, not a traceback."""
    from smithy2cfn import checks
    from smithy2cfn.api import load
    from smithy2cfn.validation import validate_model, validators_for

    model, _ = load([str(PACKAGE.parents[1] / "examples" / "vault" / "model")])
    assert validate_model(model) == validate_model(model, validators_for(model))
    gone = Check("validator", "Gone", "smithy2cfn.validation.gone", "check_gone", ("S3001",), "a stale entry")
    real = checks.shipped
    monkeypatch.setattr(checks, "shipped", lambda kind: [*real(kind), gone] if kind == "validator" else real(kind))
    found = [d for d in validate_model(model) if d.code == "S3099"]
    assert len(found) == 1 and "check_gone" in found[0].message and "ModuleNotFoundError" in found[0].message


def test_validators_are_routed_by_trait_package():
    from smithy2cfn.model.shapes import Model
    from smithy2cfn.validation import validators_for

    everyone = validators_for(None)
    listed = shipped("validator")
    assert len(everyone) == len(listed) >= 130
    model = Model()
    model.packages = frozenset({"smithy.api"})
    small = validators_for(model)
    names = {f.__name__ for f in small}
    assert "check_waitable" not in names and "check_targets" in names
    assert all(not f.check.packages or "smithy.api" in f.check.packages for f in small)


def test_a_code_table_lookup_falls_back_on_the_catalog():
    entry = CODES["S6121"]
    assert entry.event_id == "CfnLint.GuardRail.Description" and entry.owner.startswith("smithy2cfn.lint")
    assert "S9999" not in CODES
    with pytest.raises(KeyError):
        CODES["S9999"]


@pytest.mark.parametrize("layout", ["shipped", "one line", "unreadable"])
def test_a_section_read_alone_is_the_section_of_the_whole_file(monkeypatch, layout):
    whole = catalog.read()
    text = {"shipped": catalog.path().read_text(encoding="utf-8"), "one line": json.dumps(whole),
            "unreadable": "{not json"}[layout]
    monkeypatch.setattr(catalog, "_text", text)
    monkeypatch.setattr(catalog, "_cache", None)
    monkeypatch.setattr(catalog, "_sections", {})
    expected = whole if layout != "unreadable" else {"codes": {}, "checks": []}
    assert catalog.section("checks") == expected["checks"]
    assert catalog.section("codes") == expected["codes"]
    assert len(expected["checks"]) > 200 or layout == "unreadable"
