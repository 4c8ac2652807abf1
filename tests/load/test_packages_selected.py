"""Trait packages loaded on demand, and their validators run only with them (issue 10).

* :func:`smithy2cfn.load.loader.select_packages`: ``smithy.api`` always; a package when the
  model's text names its namespace, with the packages it needs; every package when an
  escape could spell a namespace or a whole-model validator (``EmitNoneSelector``) is
  configured. One model per rule that triggers it and one that does not.
* The validator registry: every entry names a real function; a package's validators are
  not even imported for a model that does not load the package.
* The result does not depend on the selection: for every model of the reference's
  validation suites (``../shared``), the diagnostics (every severity, message and place)
  and the schemas are the same as when every package is loaded.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SHARED, record_result
from smithy2cfn import api
from smithy2cfn.checks import shipped
from smithy2cfn.load import loader
from smithy2cfn.validation import validators_for

EVERY = frozenset(loader._package_closures())
CFN_RESOURCE = '$version: "2"\nnamespace ex\nuse aws.cloudformation#cfnResource\n@cfnResource\nresource Foo {}\n'


def test_the_prelude_alone_for_a_model_that_names_no_package():
    assert loader.select_packages(['$version: "2"\nnamespace ex\nstructure A { s: String }\n']) == {"smithy.api"}


def test_a_named_package_is_loaded_with_what_it_needs():
    assert loader.select_packages([CFN_RESOURCE]) == {"smithy.api", "aws.cloudformation"}
    # aws.protocols applies smithy.protocols traits, and smithy.protocols aws.protocols ones
    assert loader.select_packages(["use aws.protocols#restJson1"]) == {"smithy.api", "aws.protocols",
                                                                      "smithy.protocols"}
    assert loader.select_packages(["@aws.apigateway#integration"]) >= {"aws.apigateway", "aws.api"}


def test_names_in_any_file_count():
    assert loader.select_packages(["namespace a", "use smithy.waiters#waitable"]) == {"smithy.api",
                                                                                      "smithy.waiters"}


@pytest.mark.parametrize("text", [
    '{"smithy": "2.0", "shapes": {"a#A": {"type": "structure", "traits": {"aws\\u002eapi#arn": {}}}}}',
    '{"smithy": "2.0", "shapes": {"a#A": {"type": "structure", "traits": {"aws\\u002Eapi#arn": {}}}}}',
    'metadata m = "\\u0061ws.api#arn"',
    'metadata m = "aws.\\\napi"',
    # after an even run of backslashes (each escaping the next), the escape is one
    '{"smithy": "2.0", "metadata": {"m": "\\\\\\u0061ws.api#arn"}, "shapes": {}}',
    'metadata validators = [{name: "EmitNoneSelector", configuration: {selector: "[trait|protocolDefinition]"}}]',
])
def test_text_that_could_spell_a_namespace_or_sees_every_shape_loads_every_package(text):
    assert loader.select_packages([text]) == EVERY


def test_a_plain_escape_does_not_load_every_package():
    assert loader.select_packages(['metadata m = "a \\"quoted\\" word\\n"']) == {"smithy.api"}
    # escapes of characters no namespace holds (263 of the 402 AWS models have some)
    assert loader.select_packages(['{"d": "it\\u2019s \\u0020 \\u00a0 \\uD800", "x": "smithy.waiters#y"}']) == {
        "smithy.api", "smithy.waiters"}
    # an escaped backslash before "u0041" (a pattern's range, as glue and securityhub write
    # `[\\u0020-\\u007E]`): a backslash and plain text, which spell nothing
    assert loader.select_packages(['{"p": "^([\\\\u0020-\\\\u007E\\\\r\\\\n])*$"}']) == {"smithy.api"}
    assert loader.select_packages(['metadata m = "a\\\\\\\\u0041 \\\\\n"']) == {"smithy.api"}


def test_a_large_model_is_searched_like_a_small_one():
    assert loader.select_packages(["x" * (4 << 20)]) == {"smithy.api"}
    assert loader.select_packages(["aws.amazon.com " * 300_000 + "use smithy.waiters#waitable"]) == {
        "smithy.api", "smithy.waiters"}


#: the packages' namespaces, and two no package has (without a dot, and ending in one)
NAMESPACES = [ns for ns in EVERY if ns != "smithy.api"] + ["alloy", "aws."]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["aws.", "smithy.", "aws", "smithy", ".", "#", "api", "apigateway", "iam",
                                          "waiters", "x", "smithy.aws.iam", "aws.aws.api", "test", "protocols",
                                          "alloy", "allo"]),
                         max_size=12).map("".join), min_size=1, max_size=3))
def test_the_namespaces_found_are_those_the_text_holds(texts):
    expected = {ns for ns in NAMESPACES if any(ns in text for text in texts)}
    assert loader._named(texts, NAMESPACES) == expected
    with pytest.MonkeyPatch.context() as patch:  # (the regular expressions of large texts)
        patch.setattr(loader, "_SCANNED_BELOW", 0)
        assert loader._named(texts, NAMESPACES) == expected


def test_the_model_records_its_packages(tmp_path):
    path = tmp_path / "m.smithy"
    path.write_text(CFN_RESOURCE, encoding="utf-8")
    model = api.load([path]).model
    assert model.packages == {"smithy.api", "aws.cloudformation"}
    assert not any(sid.startswith("aws.api#") for sid in model.shapes)
    assert "aws.cloudformation#cfnResource" in model.shapes


def test_a_typo_in_a_package_name_is_still_reported(tmp_path):
    path = tmp_path / "m.smithy"
    path.write_text('$version: "2"\nnamespace ex\nuse aws.cloudformaton#cfnResource\n@cfnResource\nresource Foo {}\n',
                    encoding="utf-8")
    (d,) = api.load([path]).diagnostics
    assert d.code == "S2010" and "aws.cloudformaton#cfnResource" in d.message


def test_every_catalog_validator_names_a_validator_of_a_real_package():
    packages = set(EVERY)
    listed = shipped("validator")
    for entry in listed:
        assert callable(getattr(importlib.import_module(entry.module), entry.function))
        assert set(entry.packages) <= packages, entry
    assert len(validators_for(None)) == len(listed) >= 130


def test_package_validators_run_only_with_their_package(tmp_path):
    path = tmp_path / "m.smithy"
    path.write_text(CFN_RESOURCE, encoding="utf-8")
    model = api.load([path]).model
    names = {v.__name__ for v in validators_for(model)}
    assert "check_cfn_mutability" in names and "check_targets" in names
    assert not names & {"check_waitable", "check_rule_set_traits", "check_http_request_tests", "check_sigv4_traits"}
    model.packages = None  # a model the loader did not make: every validator runs
    assert len(validators_for(model)) == len(shipped("validator"))


def test_a_small_build_does_not_import_the_validators_of_other_packages(tmp_path):
    path = tmp_path / "m.smithy"
    path.write_text(CFN_RESOURCE, encoding="utf-8")
    probe = ("import sys\nfrom smithy2cfn import api\napi.build([sys.argv[1]], None, {})\n"
             "print(' '.join(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, check=True)
    modules = set(out.stdout.split())
    assert "smithy2cfn.validation.cfn" in modules
    assert not modules & {"smithy2cfn.validation.rules.ruleset", "smithy2cfn.languages.rules_engine",
                          "smithy2cfn.validation.protocols.protocol_tests",
                          "smithy2cfn.validation.apigateway", "smithy2cfn.validation.waiters", "jmespath"}


def test_packages_known_already_are_taken_as_given_and_anything_else_is_selected_here(monkeypatch):
    from smithy2cfn.diagnostics import Diagnostics

    sources = [("m.smithy", CFN_RESOURCE)]
    selected = []
    select = loader.select_packages
    monkeypatch.setattr(loader, "select_packages", lambda texts: selected.append(1) or select(texts))
    given = frozenset({"smithy.api", "aws.cloudformation", "aws.api"})
    asked = []
    model = loader.load_texts(sources, Diagnostics(), packages=lambda: asked.append(1) or given)
    assert model.packages == given and selected == [] and asked == [1], "asked once, when needed"
    # not known (None), or not a frozenset of strings (what a helper process sent is checked)
    for told in (None, ["smithy.api"], {"smithy.api"}, frozenset({1}), "smithy.api"):
        selected.clear()
        model = loader.load_texts(sources, Diagnostics(), packages=lambda told=told: told)
        assert model.packages == {"smithy.api", "aws.cloudformation"} and selected == [1]
    # without the prelude, nothing is asked
    model = loader.load_texts(sources, Diagnostics(), prelude=False, packages=lambda: asked.append(2) or given)
    assert model.packages == frozenset() and asked == [1]


# ----------------------------------------------------------------- same result either way

VALIDATION = SHARED / "conformance" / "validation"
MODELS = sorted(p for p in VALIDATION.rglob("*") if p.suffix in (".smithy", ".json")) if VALIDATION.exists() else []


def _outcome(path: Path) -> tuple[list[tuple], str]:
    result = api.build([path], None, {})
    return ([(d.code, d.severity.name, d.message, str(d.span), d.shape_id, d.hint) for d in result.diagnostics],
            json.dumps(result.schemas, sort_keys=True))


@pytest.mark.skipif(not MODELS, reason=f"conformance material not found at {VALIDATION} (../shared is absent)")
@pytest.mark.parametrize("path", MODELS, ids=[str(p.relative_to(VALIDATION)) for p in MODELS])
def test_selecting_packages_changes_no_diagnostic_and_no_schema(path, monkeypatch):
    selected = _outcome(path)
    monkeypatch.setattr(loader, "select_packages", lambda texts: EVERY)
    every = _outcome(path)
    record_result("packages selected (same diagnostics and schemas as with every package)", str(path),
                  selected == every)
    assert selected == every
