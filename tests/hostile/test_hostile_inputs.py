"""Hostile inputs: every class of bad input is a located diagnostic, never a traceback or a hang.

1. JSON AST values of the wrong type anywhere in a shape entry (``model/json_ast.py``).
2. JSON strictness and depth (JSON AST models, config files) and IDL number literals.
3. Settings and ``smithy-build.json`` of the wrong shape, through files and the library.
4. Paths: FIFOs, devices, huge files, names too long, symbolic link loops, unreadable
   folders, outputs that cannot be written.
5. ``ast`` writes models that load back: mixin members refined locally or by ``apply``.

Then two bounded hypothesis tests: JSON AST documents with wrong values in random places
never raise through ``load``/``validate``/``build``, and generated models with mixins and
refinements are a fixed point of load → ast → load → ast.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import string
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, SHARED, json_paths
from smithy2cfn import api
from smithy2cfn.cli import main
from smithy2cfn.diagnostics import Diagnostics, Severity
from smithy2cfn.emit.mappers import json_add
from smithy2cfn.load import load_texts
from smithy2cfn.model.json_ast import model_to_json_ast, render_json_ast
from smithy2cfn.model.jsonread import MAX_NODE_DEPTH, BigNumber
from smithy2cfn.smithy_build import read_config_file

EXAMPLE = REPO / "examples" / "vault" / "model"
SETTINGS = {"service": "acme.vault#VaultService", "organizationName": "Acme"}


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), input=stdin, env=env, catch_exceptions=False)


def load_json(text: str, name: str = "m.json") -> Diagnostics:
    diags = Diagnostics()
    load_texts([(name, text)], diags)
    return diags


def located(diags, code: str) -> list[tuple[int, int, str]]:
    """``(line, column, message)`` of the diagnostics with ``code``."""
    return [(d.span.line, d.span.column, d.message) for d in diags if d.code == code]


@contextlib.contextmanager
def deadline(seconds: int):
    """Fail instead of hanging forever (a FIFO read blocks, /dev/zero never ends)."""
    def expired(signum, frame):
        raise AssertionError(f"still running after {seconds} s")
    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------- 1. JSON AST structure

def _doc(shapes: str) -> str:
    return '{\n"smithy": "2.0",\n"shapes": {\n' + shapes + "\n}\n}\n"


# (JSON AST shapes on lines 4..., expected code, line, column, message fragment)
WRONG_TYPES = [
    ('"a#S": {"type": "structure", "mixins": [[1]]}', "S1104", 4, 41, "mixin #1 of 'a#S' must be a shape reference"),
    ('"a#S": {"type": "structure", "mixins": [{"target": 5}]}', "S1104", 4, 42, "must be an absolute shape ID string"),
    ('"a#S": {"type": "structure", "mixins": "a#M"}', "S1104", 4, 30, "'mixins' of 'a#S' must be a list"),
    ('"a#R": {"type": "resource", "resources": 5}', "S1104", 4, 29, "'resources' of 'a#R' must be a list"),
    ('"a#R": {"type": "resource", "identifiers": {"id": "smithy.api#String"}}', "S1104", 4, 45,
     "identifier 'id' of 'a#R' must be a shape reference object"),
    ('"a#R": {"type": "resource", "read": {"target": {"x": 1}}}', "S1104", 4, 38, "the target of 'read'"),
    ('"a#S": {"type": "structure", "members": {"a": 5}}', "S1104", 4, 42, "member 'a#S$a' must be a member object"),
    ('"a#S": {"type": "structure", "members": {"a": {"traits": {}}}}', "S1104", 4, 42, "has no 'target'"),
    ('"a#S": {"type": "structure", "members": [1]}', "S1104", 4, 30, "'members' of 'a#S' must be an object"),
    ('"a#S": {"type": "structure", "members": {"1a": {"target": "smithy.api#String"}}}', "S1105", 4, 42,
     "invalid member name '1a'"),
    ('"a#S": {"type": "string", "traits": [1]}', "S1104", 4, 27, "'traits' of 'a#S' must be an object"),
    ('"a#S": {"type": "string", "traits": {"documentation": "x"}}', "S1105", 4, 38,
     "trait name 'documentation' is not an absolute shape ID"),
    ('"a#L": {"type": "list", "member": {"target": 12}}', "S1104", 4, 36, "the target of member 'a#L$member'"),
    ('"a#O": {"type": "operation", "input": "a#In"}', "S1104", 4, 30, "'input' of 'a#O' must be a shape reference"),
    ('"a#O": {"type": "operation", "errors": [null]}', "S1104", 4, 41, "error #1 of 'a#O'"),
    ('"a#V": {"type": "service", "version": 2006}', "S1104", 4, 28, "'version' of 'a#V' must be a string"),
    ('"a#V": {"type": "service", "rename": {"Foo": "Bar"}}', "S1105", 4, 39, "a 'rename' key 'Foo'"),
    ('"a#V": {"type": "service", "rename": {"a#Foo": 1}}', "S1104", 4, 39, "to a name string"),
    ('"a#S$m": {"type": "apply", "traits": 5}', "S1104", 4, 28, "'traits' of 'a#S$m' must be an object"),
    ('"a#S": [1]', "S1101", 4, 1, "must be an object with a 'type'"),
    ('"a#S": {"type": ["string"]}', "S1101", 4, 1, "needs a string 'type'"),
    ('"a#S$x": {"type": "string"}', "S1105", 4, 1, "cannot have a member ID"),
]


@pytest.mark.parametrize("shapes,code,line,column,fragment", WRONG_TYPES,
                         ids=[f"{i}-{c[0][:30]}" for i, c in enumerate(WRONG_TYPES)])
def test_json_ast_wrong_type_is_located_at_the_key(shapes, code, line, column, fragment) -> None:
    diags = load_json(_doc(shapes))
    found = located(diags, code)
    assert any(fragment in m for _, _, m in found), [d.format_text() for d in diags]
    assert (line, column) in [(ln, col) for ln, col, m in found if fragment in m], found
    assert all(d.span is not None and d.span.path == "m.json" for d in diags if d.is_error)


def test_json_ast_well_typed_entries_have_no_structure_diagnostic() -> None:
    diags = load_json(_doc(
        '"a#M": {"type": "structure", "traits": {"smithy.api#mixin": {}}, '
        '"members": {"a": {"target": "smithy.api#String"}}},\n'
        '"a#S": {"type": "structure", "mixins": [{"target": "a#M"}]},\n'
        '"a#V": {"type": "service", "version": "1", "rename": {"a#S": "T"}, "errors": []},\n'
        '"a#S$a": {"type": "apply", "traits": {"smithy.api#documentation": "x"}}'))
    assert not [d for d in diags if d.code.startswith("S11")], [d.format_text() for d in diags]


def test_unknown_json_ast_properties_warn_and_are_ignored() -> None:
    diags = load_json(_doc(
        '"a#S": {"type": "structure", "for": "a#R", "members": {"a": {"target": "smithy.api#String", '
        '"elided": true}}},\n"a#S$a": {"type": "apply", "mixins": []}'))
    warnings = located(diags, "S1106")
    assert [(ln, col) for ln, col, _ in warnings] == [(4, 30), (4, 93), (5, 28)], warnings
    assert not diags.has_errors


def test_members_and_traits_of_json_ast_get_their_own_lines() -> None:
    text = _doc('"a#S": {\n "type": "structure",\n "members": {\n  "a": {\n   "target": "a#Nope"}}}')
    (d,) = [d for d in load_json(text) if d.code == "S2001"]
    assert (d.span.line, d.span.column) == (7, 3)


# ---------------------------------------------------------------- 2. JSON strictness, depth, numbers

@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_json_nan_and_infinity_are_refused_where_they_are(token: str) -> None:
    diags = load_json(_doc(f'"a#S": {{"type": "string", "traits": {{"a#t": [1, {token}]}}}}'))
    assert located(diags, "S1100") == [(4, 49, f"invalid JSON: '{token}' is not a JSON value (RFC 8259 has no "
                                        "NaN or Infinity); write a finite number or a string")]


@pytest.mark.parametrize("text,line,column,fragment", [
    ('{"smithy": "2.0",\n "shapes" {}}', 2, 11, "expected ':'"),
    ('{"smithy": "2.0",\n "shapes": {},}', 2, 15, "expected a property name"),
    ('{"smithy": "2.0", "shapes": {"a#S": {"type": "string", "traits": {"a#t": [1 2]}}}}', 1, 77,
     "expecting ',' delimiter"),
    ('{"smithy": "2.0"} {}', 1, 19, "extra data"),
    ("", 1, 1, "expected a value"),
    ("\ufeff{}", 1, 1, "byte order mark"),
    ('{"smithy": "2.0", "shapes": {"a#S": {"type": "string\u0001"}}}', 1, 53, "invalid control character"),
])
def test_json_syntax_errors_are_located(text: str, line: int, column: int, fragment: str) -> None:
    (found,) = located(load_json(text), "S1100")
    assert found[:2] == (line, column) and fragment in found[2], found


def test_numbers_beyond_a_double_are_kept_exactly_and_written_back() -> None:
    text = _doc('"a#S": {"type": "string", "traits": {"smithy.api#documentation": "x", "a#t": 1e400}}')
    diags = Diagnostics()
    model = load_texts([("m.json", text)], diags)
    value = model.shapes["a#S"].traits["a#t"]
    assert isinstance(value, BigNumber) and value == 10**400
    assert '"a#t": 1e400' in render_json_ast(model_to_json_ast(model))


@pytest.mark.parametrize("literal,fragment", [("1e1000", "too large"), ("1" * 1001, "1001 digits")])
def test_numbers_that_cannot_be_kept_are_located_errors(literal: str, fragment: str) -> None:
    diags = load_json(_doc(f'"a#S": {{"type": "string", "traits": {{"a#t": [0, {literal}]}}}}'))
    (found,) = located(diags, "S1103")
    assert found[:2] == (4, 49) and fragment in found[2]
    idl = load_texts_diags(f'$version: "2"\nnamespace a\n@a#t({literal})\nstring S\n')
    (found,) = located(idl, "S1103")
    assert found[:2] == (3, 6) and fragment in found[2]


def load_texts_diags(text: str, name: str = "m.smithy") -> Diagnostics:
    diags = Diagnostics()
    load_texts([(name, text)], diags)
    return diags


# Exponents of 19 digits and more made Decimal raise InvalidOperation (a traceback) in every
# reader; the number is now judged on its text first (jsonread.read_number).
HUGE_EXPONENTS = ["1e1000000000000000000", "-1E-1000000000000000000", "0.5e+00099999999999"]


@pytest.mark.parametrize("literal", HUGE_EXPONENTS)
def test_a_huge_exponent_is_a_located_error_in_idl_and_json_ast(tmp_path: Path, literal: str) -> None:
    js = load_json(_doc(f'"a#S": {{"type": "string", "traits": {{"a#t": [0, {literal}]}}}}'))
    (found,) = located(js, "S1103")
    assert found[:2] == (4, 49) and "exponent" in found[2] and "at most 9" in found[2]
    idl_text = f'$version: "2"\nnamespace a\n@a#t({literal})\nstring S\n'
    (found,) = located(load_texts_diags(idl_text), "S1103")
    assert found[:2] == (3, 6) and "exponent" in found[2]
    model = tmp_path / "m.smithy"
    model.write_text(idl_text)
    result = run("validate", str(model))
    assert result.exit_code == 1 and "S1103" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("literal,value", [("1e-999999999", 0.0), ("1e0000000000000000000000005", 1e5),
                                           ("1.5e999", 15 * 10**998)])
def test_exponents_of_at_most_9_digits_are_read(literal: str, value) -> None:
    diags = Diagnostics()
    model = load_texts([("m.smithy", f'$version: "2"\nnamespace a\n@a#t({literal})\nstring S\n')], diags)
    assert not located(diags, "S1103")
    assert model.shapes["a#S"].traits["a#t"] == value


@pytest.mark.parametrize("literal", HUGE_EXPONENTS)
@pytest.mark.parametrize("name,config", [
    ("settings.json", '{"service": "acme.vault#VaultService",\n "organizationName": "Acme", "x": [LIT]}'),
    ("smithy-build.json", '{"version": "1.0",\n "plugins": {"cloudformation": {"service": "acme.vault#VaultService",'
                          ' "useIntegerType": LIT}}}'),
])
def test_a_huge_exponent_in_a_settings_file_is_s5000_and_exit_2(tmp_path: Path, name: str, config: str,
                                                                literal: str) -> None:
    cfg = tmp_path / name
    cfg.write_text(config.replace("LIT", literal))
    diags = Diagnostics()
    read_config_file(cfg, diags)
    (d,) = [d for d in diags if d.is_error]
    assert d.code == "S5000" and "exponent" in d.message and d.span.line == 2 and d.span.column > 1
    result = run("build", str(EXAMPLE), "--config", str(cfg), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and "S5000" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("prelude", ["true", "false"])
@pytest.mark.parametrize("value,code", [("1e1000000000000000000", "S1103"), ("[" * 5000 + "]" * 5000, "S1016")])
def test_the_plugin_reads_stdin_as_the_loader_does(tmp_path: Path, prelude: str, value: str, code: str) -> None:
    """With ``SMITHY_INCLUDES_PRELUDE=true`` the prelude was dropped through ``json.loads``: a
    deep value raised RecursionError and ``1e400`` was written back as ``Infinity``."""
    text = '{"smithy": "2.0", "metadata": {"m": ' + value + '}, "shapes": {}}'
    env = {"SMITHY_PLUGIN_DIR": str(tmp_path / "p"), "SMITHY_INCLUDES_PRELUDE": prelude}
    result = run("plugin", "--org", "Acme", stdin=text, env=env)
    assert result.exit_code == 1 and code in result.stderr and "Traceback" not in result.stderr


def test_the_plugin_keeps_numbers_beyond_a_double_when_dropping_the_prelude(tmp_path: Path) -> None:
    model, diags = api.load([EXAMPLE])
    doc = model_to_json_ast(model, include_prelude=True)
    doc["metadata"] = {"big": BigNumber(10**400, "1e400")}
    text = render_json_ast(doc)
    result = run("plugin", "--service", "acme.vault#VaultService", "--org", "Acme", stdin=text,
                 env={"SMITHY_PLUGIN_DIR": str(tmp_path / "p"), "SMITHY_INCLUDES_PRELUDE": "true"})
    assert result.exit_code == 0, result.output
    assert [p.name for p in (tmp_path / "p").iterdir()] == ["acme-vault-vault.json"]


def test_a_jmespath_index_of_5000_digits_is_a_syntax_error() -> None:
    diags = Diagnostics()
    model = load_texts([("m.smithy", '$version: "2"\nnamespace a\nuse smithy.waiters#waitable\n'
                                     '@waitable(W: {acceptors: [{state: "success", matcher: {output: {path: "foo['
                                     + "9" * 5000 + ']", expected: "x", comparator: "stringEquals"}}}]})\n'
                                     "operation Op { output := { foo: L } }\nlist L { member: String }\n")], diags)
    api.validate(model, diags)
    assert [d.code for d in diags if d.is_error] == ["S3710"]
    assert "more digits" in [d for d in diags if d.is_error][0].message


def test_idl_numbers_beyond_a_double_are_exact_not_inf() -> None:
    diags = Diagnostics()
    model = load_texts([("m.smithy", '$version: "2"\nnamespace a\nstructure S { @default(1e400) d: Double }\n')],
                       diags)
    value = model.shapes["a#S"].members["d"].traits["smithy.api#default"]
    assert isinstance(value, BigNumber) and str(value) == "1e400"


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth,fails", [(MAX_NODE_DEPTH, False), (MAX_NODE_DEPTH + 2, True), (5000, True)])
def test_one_nesting_limit_for_idl_and_json_trait_values(depth: int, fails: bool) -> None:
    """A trait value of ``depth`` nested arrays (the innermost one holding a number)."""
    value = "[" * depth + "1" + "]" * depth
    idl = load_texts_diags(f'$version: "2"\nnamespace a\n@a#t({value})\nstring S\n')
    js = load_json(_doc(f'"a#S": {{"type": "string", "traits": {{"a#t": {value}}}}}'))
    assert bool(located(idl, "S1016")) == fails
    assert bool(located(js, "S1016")) == fails
    if fails:
        # the value starts at column 45; the first value nested too deep is the 258th '['
        assert located(js, "S1016")[0][:2] == (4, 45 + MAX_NODE_DEPTH + 1)


def test_deep_json_outside_trait_values_is_located() -> None:
    diags = load_json(_doc(f'"a#S": {{"type": "structure", "mixins": {_nested(5000)}}}'))
    assert located(diags, "S1016")


def test_lone_surrogate_escapes_become_replacement_characters_as_in_idl() -> None:
    for name, text in [("m.json", _doc('"a#S": {"type": "string", "traits": {"smithy.api#documentation": '
                                       '"\\ud800 \\ud83d\\ude00"}}')),
                       ("m.smithy", '$version: "2"\nnamespace a\n@documentation("\\ud800 \\ud83d\\ude00")\n'
                                    "string S\n")]:
        diags = Diagnostics()
        model = load_texts([(name, text)], diags)
        assert model.shapes["a#S"].traits["smithy.api#documentation"] == "\ufffd \U0001F600", name


@pytest.mark.parametrize("text,fragment", [
    ('{"service": NaN}', "'NaN' is not a JSON value"),
    ('{"x": ' + _nested(5000) + "}", "nested more than 256"),
    ('{"x": 1e99999}', "too large"),
    ('{"x": 1,}', "expected a property name"),
])
def test_config_files_are_strict_json(tmp_path: Path, text: str, fragment: str) -> None:
    cfg = tmp_path / "c.json"
    cfg.write_text(text)
    diags = Diagnostics()
    read_config_file(cfg, diags)
    (d,) = [d for d in diags if d.is_error]
    assert d.code == "S5000" and fragment in d.message and d.span.line == 1 and d.span.column > 1
    result = run("build", str(EXAMPLE), "--config", str(cfg), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and "S5000" in result.stderr


# ---------------------------------------------------------------- 3. settings of the wrong shape

@pytest.mark.parametrize("config,line,column,fragment", [
    ('{"version": "1.0",\n "projections": 5}', 2, 2, "'projections' must be an object"),
    ('{"version": "1.0",\n "plugins": []}', 2, 2, "'plugins' must be an object"),
    ('{"version": "1.0",\n "plugins": {"cloudformation": 5}}', 2, 14, "found a number at 'cloudformation'"),
    ('{"version": "1.0", "projections": {"p": {\n "imports": 5, "plugins": {"cloudformation": {}}}}}', 2, 2,
     "projection 'p': 'imports' must be a list"),
    ('{"version": "1.0", "projections": {"p": {"plugins": {"cloudformation": {}},\n "transforms": [5]}}}', 2, 17,
     "'transforms' must be a list of"),
    ('{"version": "1.0", "sources": ["m",\n 3]}', 2, 2, "found a number at 1"),
    ('{"service": "acme.vault#VaultService",\n "externalDocs": [1, 2]}', 2, 2, "'externalDocs' must be a list"),
    ('{"service": "acme.vault#VaultService",\n "jsonAdd": {"acme.vault#Vault": 5}}', 2, 2, "'jsonAdd' must be"),
    ('{"version": "1.0", "plugins": {"cloudformation": {\n "useIntegerType": "yes"}}}', 2, 2,
     "'useIntegerType' must be a boolean"),
])
def test_config_keys_of_the_wrong_type_are_located_and_exit_2(tmp_path: Path, config: str, line: int,
                                                              column: int, fragment: str) -> None:
    cfg = tmp_path / "smithy-build.json"
    cfg.write_text(config)
    diags = Diagnostics()
    api.read_settings(cfg, diags=diags)  # the file read (smithy_build), then its settings typed
    errors = [(d.span.line, d.span.column, d.message) for d in diags if d.code == "S5001"]
    assert any((ln, col) == (line, column) and fragment in m for ln, col, m in errors), errors
    result = run("build", str(EXAMPLE), "--config", str(cfg), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert not (tmp_path / "out").exists()


def test_a_well_typed_smithy_build_json_is_accepted(tmp_path: Path) -> None:
    cfg = tmp_path / "smithy-build.json"
    cfg.write_text(json.dumps({"version": "1.0", "sources": [str(EXAMPLE)], "projections": {"p": {
        "abstract": False, "imports": [], "transforms": [{"name": "removeUnusedShapes", "args": {}}],
        "plugins": {"cloudformation": SETTINGS}}}}))
    diags = Diagnostics()
    out = read_config_file(cfg, diags)
    assert not diags.has_errors and out.settings == SETTINGS


@pytest.mark.parametrize("settings", [5, [("service", "acme.vault#VaultService")], "x", {1: 2}])
def test_library_settings_that_are_not_a_mapping_are_reported(settings) -> None:
    result = api.build([EXAMPLE], None, settings)
    errors = [d for d in result.diagnostics if d.is_error]
    assert [d.code for d in errors] == ["S5001"] and not result.schemas
    converted = api.convert(api.load([EXAMPLE]).model, settings, settings_source="<library>")
    assert converted.schemas == {} and converted.exit_code == 2
    assert [(d.code, d.span.path) for d in converted.diagnostics if d.is_error] == [("S5001", "<library>")]


@pytest.mark.parametrize("value", [float("nan"), {1, 2}, object()])
def test_library_json_add_values_must_be_json(value) -> None:
    result = api.build([EXAMPLE], None, {**SETTINGS, "jsonAdd": {"acme.vault#Vault": {"/x": value}}})
    assert [d.code for d in result.diagnostics if d.is_error] == ["S5001"]


@pytest.mark.parametrize("pointer", ["/a/\u0661", "/a/\u00b2", "/a/" + "9" * 5000, "/a/01"])
def test_json_add_array_indexes_are_ascii_and_bounded(pointer: str) -> None:
    doc = {"a": [1]}
    assert "is not an index of the array" in json_add(doc, pointer, 2)
    assert doc == {"a": [1]}
    assert json_add(doc, "/a/1", 2) is None and doc == {"a": [1, 2]}


# Found by the coverage-guided harnesses (tools/fuzz_coverage.py): diagnostics without a
# location (no file, or the settings file without a line).

@pytest.mark.parametrize("entry,code", [
    ('{name: "NoSuchValidator"}', "S3581"),
    ('{name: "EmitEachSelector"}', "S3582"),
    ('{name: "EmitNoneSelector", configuration: {selector: "string"}, namespace: "a"}', "S3583"),
    ('{name: "EmitNoneSelector", configuration: {selector: "[trait|length]"}}', "S3591"),
    ('5', "S3580"),
])
def test_events_of_configured_validators_are_located_at_the_validators_metadata(entry: str, code: str) -> None:
    diags = Diagnostics()
    model = load_texts([("m.smithy", f'$version: "2"\n\nmetadata validators = [{entry}]\nnamespace a\nstring S\n')],
                       diags)
    api.validate(model, diags)
    found = [d for d in diags if d.code == code]
    assert found and all((d.span.path, d.span.line) == ("m.smithy", 3) for d in found), [str(d.span) for d in found]


def test_a_protocol_test_naming_a_missing_shape_is_located_at_its_trait() -> None:
    diags = Diagnostics()
    model = load_texts([("m.smithy", '$version: "2"\nnamespace a\nuse smithy.test#httpRequestTests\n'
                                     "@trait @protocolDefinition structure p {}\n"
                                     '@http(method: "POST", uri: "/")\n'
                                     '@httpRequestTests([{id: "x", protocol: p, method: "POST", uri: "/", '
                                     'vendorParamsShape: "a#Nope", vendorParams: {a: 1}}])\n'
                                     "operation Op {}\n")], diags)
    api.validate(model, diags)
    (d,) = [d for d in diags if d.code == "S3767"]
    assert (d.span.path, d.span.line, d.span.column) == ("m.smithy", 6, 1) and not d.shape_id


@pytest.mark.parametrize("settings,code,line", [
    ('{"organizationName": "Acme",\n "service": "acme.vault#Nope"}', "S4001", 2),
    ('{"service": "acme.vault#VaultService", "organizationName": "Acme",\n "jsonAdd": {"acme.vault#Vault": '
     '{"no-slash": 1}}}', "S4005", 2),
])
def test_settings_problems_found_in_conversion_are_located_at_their_key(tmp_path: Path, settings: str, code: str,
                                                                       line: int) -> None:
    cfg = tmp_path / "settings.json"
    cfg.write_text(settings)
    result = api.build_from_config(cfg, [EXAMPLE], out_dir=None)
    (d,) = [d for d in result.diagnostics if d.code == code]
    assert (d.span.path, d.span.line, d.span.column) == (str(cfg), line, 2)


def test_the_shapes_of_a_file_with_an_invalid_namespace_are_not_defined() -> None:
    """Found by the coverage-guided harness: ``namespace a.b$c`` made shape IDs that read as
    member IDs (``a.b$c#M``), and validators' events about them had no location."""
    for namespace, defined in (("a.b$c", False), ("a.b_c", True)):
        diags = Diagnostics()
        model = load_texts([("m.smithy", f'$version: "2"\nnamespace {namespace}\nmap M {{}}\n'
                                         f"apply M @documentation(\"x\")\n")], diags)
        api.validate(model, diags)
        assert all(d.span is not None and d.span.line for d in diags), [d.format_text() for d in diags]
        assert (f"{namespace}#M" in model.shapes) == defined
        assert [d.code for d in diags if d.is_error] == (["S3041"] if defined else ["S1001"])


@pytest.mark.parametrize("name,defined", [("G$tFoo", False), ("G.tFoo", False), ("GetFoo", True)])
def test_a_shape_whose_name_is_no_identifier_is_not_defined(name: str, defined: bool) -> None:
    """Found by the coverage-guided IDL harness: ``operation G$tFoo`` was defined as
    ``com.foo#G$tFoo``, an ID that reads as a member of ``com.foo#G``, and the loader's
    ``S2001`` about its input had no location. The name is a syntax error (``S1001``) and
    the statement defines no shape, as a file with an invalid namespace defines none; a
    reference to it is located where it is written."""
    diags = Diagnostics()
    model = load_texts([("m.smithy", f'$version: "2"\nnamespace com.foo\n\noperation {name} {{\n'
                                     f"    input: GetFooInput\n}}\n\noperation Uses {{\n    input: {name}\n}}\n")],
                       diags)
    assert all(d.span is not None and d.span.line for d in diags), [d.format_text() for d in diags]
    assert (f"com.foo#{name}" in model.shapes) == defined
    located = sorted((d.code, d.span.line) for d in diags if d.is_error)
    if defined:  # (both inputs point at shapes that are no structure, or not defined)
        assert ("S2001", 4) in located and "S1001" not in {code for code, _ in located}
    else:
        assert located[:1] == [("S1001", 4)] and ("S2001", 8) in located and ("S2001", 4) not in located


def test_validating_model_after_model_keeps_memory_bounded() -> None:
    """Found by the coverage-guided harness (its memory grew 25 MB a minute): the cycles of
    every validated model piled up in the collector's oldest generation
    (garbage_collection.frozen). In a fresh process, as the harness and a server run."""
    import subprocess
    import sys

    script = (
        "import gc, json, sys\n"
        "from smithy2cfn import api\n"
        "counts = []\n"
        "for _ in range(30):\n"
        "    model, diags = api.load([sys.argv[1]])\n"
        "    api.validate(model, diags)\n"
        "    del model, diags\n"
        "    counts.append(len(gc.get_objects()))\n"
        "print(json.dumps(counts))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(EXAMPLE)], capture_output=True, text=True,
                          timeout=300, check=True)
    counts = json.loads(done.stdout)
    # one dead model of the vault example is about 5,000 tracked objects: 25 more
    # validations leave at most one or two behind (the heap may grow a quarter), not 25
    assert counts[-1] - counts[4] < 12_000, counts
    assert max(counts[4:]) < counts[4] * 1.5, counts


def test_suppressions_metadata_of_the_wrong_type_does_not_crash() -> None:
    for value in ("1", "[1, [2], {\"id\": 5}]", '"x"'):
        diags = Diagnostics()
        model = load_texts([("m.smithy", f'$version: "2"\nmetadata suppressions = {value}\nnamespace a\n'
                                         "@deprecated\nstring X\nstructure S { x: X }\n")], diags)
        checked = api.validate(model, diags)
        # no validator failed (S3099): the malformed metadata is one Model error, as in the
        # reference (ModelBasedEventDecorator)
        assert [d.code for d in checked.diagnostics if d.is_error] == ["S3100"], [d.format_text() for d in diags]


# ---------------------------------------------------------------- 4. paths

def _model_file(tmp_path: Path) -> Path:
    model = tmp_path / "ok.smithy"
    model.write_text('$version: "2"\nnamespace a\nstring S\n')
    return model


def test_fifo_and_devices_are_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with deadline(20):
        for path in (fifo, Path("/dev/zero")):
            diags = api.load([path]).diagnostics
            assert [d.code for d in diags if d.is_error] == ["S1003"]
            result = run("build", str(EXAMPLE), "--config", str(path), "-o", str(tmp_path / "out"))
            assert result.exit_code == 2 and "not a regular file" in result.stderr


def test_a_huge_model_file_is_refused_from_its_size(tmp_path: Path) -> None:
    big = tmp_path / "big.smithy"
    with open(big, "wb") as f:
        f.truncate(4 * 1024**3)  # sparse: takes no space
    with deadline(20):
        diags = api.load([big]).diagnostics
    assert [(d.code, d.span.path) for d in diags if d.is_error] == [("S1004", str(big))]


def test_a_name_too_long_is_a_diagnostic(tmp_path: Path) -> None:
    diags = api.load([tmp_path / ("a" * 5000)]).diagnostics
    assert [d.code for d in diags if d.is_error] == ["S1005"]


def test_folder_entries_that_cannot_be_used(tmp_path: Path) -> None:
    folder = tmp_path / "models"
    (folder / "sub").mkdir(parents=True)
    _model_file(folder)
    os.mkfifo(folder / "pipe.smithy")
    (folder / "broken.smithy").symlink_to(folder / "missing.smithy")
    (folder / "self.json").symlink_to(folder / "self.json")
    (folder / "sub" / "up").symlink_to(folder)
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(folder / "sock.smithy"))
        with deadline(20):
            loaded = api.load([folder])
    model, diags = loaded.model, loaded.diagnostics
    found = sorted((d.code, d.severity, Path(d.span.path).name) for d in diags)
    assert found == [("S1003", Severity.WARNING, "broken.smithy"), ("S1003", Severity.WARNING, "pipe.smithy"),
                     ("S1003", Severity.WARNING, "sock.smithy"), ("S1005", Severity.ERROR, "self.json"),
                     ("S1005", Severity.ERROR, "up")]
    assert "a#S" in model.shapes


def test_a_linked_folder_is_followed_once(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    _model_file(real)
    folder = tmp_path / "models"
    folder.mkdir()
    (folder / "link").symlink_to(real)
    (folder / "again").symlink_to(real)
    loaded = api.load([folder])
    assert loaded.ok and "a#S" in loaded.model.shapes


def test_a_folder_that_cannot_be_listed_is_an_error(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "models"
    (folder / "locked").mkdir(parents=True)
    _model_file(folder)
    real_scandir = os.scandir

    def scandir(path):
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    diags = api.load([folder]).diagnostics
    assert [(d.code, Path(d.span.path).name) for d in diags if d.is_error] == [("S1006", "locked")]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root can list any folder")
def test_a_folder_without_permissions_is_an_error(tmp_path: Path) -> None:
    folder = tmp_path / "models"
    locked = folder / "locked"
    locked.mkdir(parents=True)
    _model_file(locked)
    locked.chmod(0)
    try:
        diags = api.load([folder]).diagnostics
    finally:
        locked.chmod(0o755)
    assert [d.code for d in diags if d.is_error] == ["S1006"]


@pytest.mark.parametrize("target", ["folder", "missing-parent", "/proc/smithy2cfn-test/x.json"])
def test_ast_output_that_cannot_be_written_is_s5011(tmp_path: Path, target: str) -> None:
    model = _model_file(tmp_path)
    blocker = tmp_path / "file.txt"
    blocker.write_text("")
    out = {"folder": str(tmp_path), "missing-parent": str(blocker / "sub" / "x.json")}.get(target, target)
    result = run("ast", str(model), "-o", out)
    assert result.exit_code == 1 and "S5011" in result.stderr, result.output


# ---------------------------------------------------------------- 5. ast output loads back

TWO_MIXINS = """$version: "2"
namespace a
@mixin
structure M1 { @documentation("a") foo: String }
@mixin
structure M2 { @length(min: 1) foo: String }
structure S with [M1, M2] { @length(min: 2) foo: String }
"""


def _ast(text: str, name: str) -> tuple[str, dict]:
    """``ast`` of one source, and every shape's and member's traits (the model's meaning)."""
    diags = Diagnostics()
    model = load_texts([(name, text)], diags)
    assert not diags.has_errors, [d.format_text() for d in diags if d.is_error] + [text]
    meaning = {}
    for shape in model.shapes.values():
        if not model.is_prelude(shape.id):
            meaning[shape.id] = shape.traits
            meaning.update({m.id: m.traits for m in shape.members.values()})
    return render_json_ast(model_to_json_ast(model)), meaning


def _round_trips(text: str) -> list[str]:
    """``ast`` of the model, then of what it wrote, then again; the meaning never changes."""
    written, meaning = _ast(text, "m.smithy")
    out = [written]
    for _ in range(2):
        written, again = _ast(written, "ast.json")
        assert again == meaning, out[-1]
        out.append(written)
    return out


def test_a_member_refined_over_two_mixins_loads_back() -> None:
    """Used to be written as an apply that the loader rejected (S2013)."""
    first, second, third = _round_trips(TWO_MIXINS)
    assert first == second == third
    shapes = json.loads(first)["shapes"]
    assert shapes["a#S$foo"] == {"type": "apply", "traits": {"smithy.api#length": {"min": 2}}}


def test_a_member_of_two_mixins_redefined_without_traits_settles_after_one_write() -> None:
    """The reference's rules: a member redefined locally introduces only its own traits (none
    here: nothing to write), while the same member without a local definition introduces the
    later mixin's traits (written as an apply). So the second write differs from the first
    (as with the reference), and is then a fixed point; the model means the same throughout."""
    first, second, third = _round_trips('$version: "2"\nnamespace a\n@mixin\nstructure M1 { foo: String }\n'
                                        '@mixin\nstructure M0 { @documentation("a") foo: String }\n'
                                        "structure S with [M1, M0] { foo: String }\n")
    assert "a#S$foo" not in json.loads(first)["shapes"]
    assert json.loads(second)["shapes"]["a#S$foo"]["traits"] == {"smithy.api#documentation": "a"}
    assert second == third


TRAITS = ['@documentation("a")', '@documentation("b")', '@tags(["x"])', '@tags(["y"])', "@length(min: 1)",
          "@length(min: 2)", "@required", "@sensitive", "@deprecated", '@pattern("^a")']
MEMBER = st.lists(st.sampled_from(TRAITS), max_size=3, unique_by=lambda t: t.split("(")[0])


@st.composite
def mixin_models(draw) -> str:
    """Mixins M0..Mn (each maybe using earlier ones), then shapes using some of them and
    refining ``foo`` locally, by ``$foo`` elision or by ``apply``."""
    lines = ['$version: "2"', "namespace a"]
    mixins: list[str] = []
    for i in range(draw(st.integers(1, 3))):
        name = f"M{i}"
        uses = draw(st.lists(st.sampled_from(mixins), unique=True, max_size=2)) if mixins else []
        with_ = f" with [{', '.join(uses)}]" if uses else ""
        traits = " ".join(draw(MEMBER))
        lines.append(f"@mixin\nstructure {name}{with_} {{ {traits} foo: String }}")
        mixins.append(name)
    for j in range(draw(st.integers(1, 2))):
        uses = draw(st.lists(st.sampled_from(mixins), unique=True, min_size=1, max_size=3))
        traits = " ".join(draw(MEMBER))
        how = draw(st.sampled_from(["redefine", "elide", "apply", "none"]))
        body = {"redefine": f"{traits} foo: String", "elide": f"{traits} $foo"}.get(how, "")
        lines.append(f"structure S{j} with [{', '.join(uses)}] {{ {body} }}")
        if how == "apply":
            lines += [f"apply S{j}$foo {t}" for t in draw(MEMBER)]
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixin_models())
def test_ast_of_mixin_refinements_loads_back_to_a_fixed_point(text: str) -> None:
    diags = Diagnostics()
    load_texts([("m.smithy", text)], diags)
    if diags.has_errors:  # e.g. two different @length on one member: rejected, nothing to write
        assert all(d.code == "S2013" for d in diags if d.is_error), [d.format_text() for d in diags]
        return
    _, second, third = _round_trips(text)
    assert second == third, text


# ---------------------------------------------------------------- hypothesis: wrong values anywhere

def _seeds() -> list[dict]:
    root = SHARED / "conformance" / "idl" / "valid"
    docs = [json.loads(p.read_text()) for p in sorted(root.glob("*.json")) if not p.name.startswith("__")]
    model = api.load([EXAMPLE]).model
    docs.append(json.loads(render_json_ast(model_to_json_ast(model))))  # with a cfnResource
    return docs


SEEDS = _seeds()
#: Raw JSON texts that json.dumps cannot make: spliced in for marker strings.
RAW = {"@nan": "NaN", "@inf": "-Infinity", "@big": "1e400", "@huge": "1e99999", "@digits": "7" * 1200,
       "@deep": _nested(3000), "@deep300": _nested(300)}
ODD = st.sampled_from([5, -1, 0, 1.5, True, None, "", "x", "ns#X", "a#b$c", [], [1], [[1]], [None], {}, {"a": 1},
                       {"target": 5}, {"target": "ns#Nope"}, [{"target": [1]}], {"type": "structure"},
                       {"type": [1]}, *RAW]) | st.text(string.printable, max_size=5)


@st.composite
def broken_documents(draw) -> str:
    doc = json.loads(json.dumps(draw(st.sampled_from(SEEDS))))
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(list(json_paths(doc))))
        value = json.loads(json.dumps(draw(ODD)))  # a fresh copy: never shared, never circular
        if not path:
            continue
        target = doc
        for key in path[:-1]:
            target = target[key]
        if draw(st.booleans()) and isinstance(target, dict):
            target[draw(st.sampled_from(["type", "traits", "mixins", "members", "target", "x"]))] = value
        else:
            target[path[-1]] = value
    text = json.dumps(doc)
    for marker, raw in RAW.items():
        text = text.replace(json.dumps(marker), raw)
    return text


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_documents())
def test_json_ast_with_wrong_values_anywhere_never_raises(tmp_path_factory, text: str) -> None:
    path = tmp_path_factory.mktemp("hostile") / "model.json"
    path.write_text(text, encoding="utf-8")
    checked = api.validate(api.load([path]))
    converted = api.convert(checked.model, {"organizationName": "Fuzz"}) if checked.ok else checked
    result = api.build([path], None, {"organizationName": "Fuzz"})
    for d in [*checked.diagnostics, *converted.diagnostics, *result.diagnostics]:
        assert d.code and d.message, d
        assert d.span is not None and d.span.path, d.format_text()


# ---------------------------------------------------------------- embedded trait-package shapes

def test_a_trait_package_shape_embedded_the_same_way_is_accepted() -> None:
    """AWS models embed aws.cloudformation#StructureIdList (deadline-2023-10-12); the
    reference accepts an equal definition, a different one is still a duplicate."""
    shape = ('{"type": "list", "member": {"target": "smithy.api#String", "traits": {"smithy.api#idRef": '
             '{"failWhenMissing": true, "selector": "structure"}}}, "traits": {"smithy.api#private": {}}}')
    assert not load_json(_doc(f'"aws.cloudformation#StructureIdList": {shape}')).has_errors
    other = shape.replace("smithy.api#String", "smithy.api#Integer")
    assert located(load_json(_doc(f'"aws.cloudformation#StructureIdList": {other}')), "S2002")
    # a prelude shape defined again as the prelude does is merged too (the reference's
    # paginated-invalid case does it); defined otherwise it is a duplicate
    assert not load_json(_doc('"smithy.api#String": {"type": "string"}')).has_errors
    assert located(load_json(_doc('"smithy.api#String": {"type": "integer"}')), "S2002")
