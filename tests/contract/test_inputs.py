"""Contract-test inputs (``smithy2cfn.contract``, issue 18): the CloudFormation CLI's own
input loading and update-key check as the judge, validation against the schema, inputs
made from ``@examples`` and derived from the schema, determinism, and the real AWS models.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conftest import REPO, SHARED
from smithy2cfn.api import build_from_config
from smithy2cfn.contract import contract_inputs
from smithy2cfn.contract.inputs import ResourceInputs
from smithy2cfn.contract.values import first_error, schema_validator
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.model.traits import EXAMPLES

FIXTURES = Path(__file__).parent / "fixtures"
WIDGET = (FIXTURES / "widget", "acme.widget#WidgetService")
MISFIT = (FIXTURES / "misfit", "acme.gadget#GadgetService")
VAULT = (REPO / "examples" / "vault" / "model", "acme.vault#VaultService")


def built(models: Path, service: str) -> tuple[Any, Any, dict[str, dict[str, Any]]]:
    """``(model, plan, schemas)`` of a build in memory."""
    result = build_from_config(models=[models], out_dir=None, extensions=[],
                               overrides={"service": service, "organizationName": "Acme"})
    assert result.exit_code == 0, [d.format_text() for d in result.diagnostics]
    out = result.projections[0]
    return out.model, out.plan, out.schemas


def inputs_of(models: Path, service: str) -> tuple[dict[str, dict[str, str]], Diagnostics, dict[str, dict]]:
    model, plan, schemas = built(models, service)
    diags = Diagnostics()
    return contract_inputs(model, plan, schemas, diags), diags, schemas


def derived_inputs_of(models: Path, service: str) -> tuple[dict[str, dict[str, str]], Diagnostics, dict[str, dict]]:
    """:func:`inputs_of` with the model's ``@examples`` taken away for the call: what is
    derived from the schema alone."""
    from smithy2cfn.model.traits import EXAMPLES

    model, plan, schemas = built(models, service)
    saved = {s.id: s.traits[EXAMPLES] for s in model.shapes.values() if EXAMPLES in s.traits}
    for sid in saved:
        del model.shapes[sid].traits[EXAMPLES]
    try:
        diags = Diagnostics()
        return contract_inputs(model, plan, schemas, diags), diags, schemas
    finally:
        for sid, value in saved.items():
            model.shapes[sid].traits[EXAMPLES] = value


def write_project(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def judge(schema: dict[str, Any], root: Path) -> int:
    """Run cloudformation-cli's contract-test input loading (``rpdk.core.test.get_inputs``,
    set after set as ``cfn test`` does) on the project folder ``root`` and, for each set, the
    resource client's create/update/invalid example generation with those inputs (its
    ``validate_update_example_keys`` check included) and its tag check for a taggable type.
    Returns the number of sets read; raises what cfn-cli raises."""
    from rpdk.core.contract.resource_client import ResourceClient
    from rpdk.core.test import empty_override, get_inputs

    count = 0
    while True:
        inputs = get_inputs(root, None, None, count + 1, None, None, None)
        if not inputs:
            return count
        count += 1
        assert set(inputs) == {"CREATE", "UPDATE", "INVALID"}, inputs
        # the client without its AWS session and Lambda client: only the schema, the
        # overrides and the inputs matter to example generation
        client = ResourceClient.__new__(ResourceClient)
        client._overrides = empty_override()
        client._update_schema(schema)
        client._inputs = inputs
        create = client.generate_create_example()
        update = client.generate_update_example(create)
        assert client.generate_invalid_create_example() == inputs["INVALID"]
        tagging = schema.get("tagging", {})
        if tagging.get("taggable") and tagging.get("tagProperty", "").split("/")[-1] in schema["properties"]:
            assert client.validate_model_contain_tags(create)
            assert client.validate_model_contain_tags(update)


def check_against_schema(schema: dict[str, Any], files: dict[str, str], validator: Any) -> None:
    read_only = {p.split("/")[-1] for p in schema.get("readOnlyProperties", []) if p.count("/") == 2}
    for name, text in files.items():
        doc = json.loads(text)
        error = first_error(validator, doc)
        if name.endswith("_invalid.json"):
            assert error is not None, f"{name} validates: {text}"
        else:
            assert error is None, f"{name}: {error.message if error else ''}"
            assert not read_only & set(doc), f"{name} holds readOnly {read_only & set(doc)}"


# --------------------------------------------------------------------------- examples


def test_examples_make_the_inputs_with_property_names_and_converted_values(tmp_path):
    out, diags, schemas = inputs_of(*WIDGET)
    assert list(diags) == []
    files = out["acme-widget-widget.json"]
    assert sorted(files) == ["inputs/inputs_1_create.json", "inputs/inputs_1_invalid.json",
                             "inputs/inputs_1_update.json"]
    create = json.loads(files["inputs/inputs_1_create.json"])
    # @nestedProperties opened, cfnName and capitalization applied, nested structures renamed,
    # the idempotency token (cfnExcludeProperty) left out
    assert create == {
        "Colour": "blue",
        "LaunchedAt": "2023-11-14T22:13:20Z",      # epoch seconds 1700000000 as date-time
        "Payload": "aGVsbG8=",                     # blob "hello" in base64
        "Settings": {"mode": "fast", "levels": [1, 2]},   # a document as written
        "Shape": {"Sides": 4, "Label": "square"},
        "Size": 3,
        "Tags": [{"Key": "team", "Value": "widgets"}],
        "WidgetName": "blue-widget",
    }
    update = json.loads(files["inputs/inputs_1_update.json"])
    # the update example's changes over the create input; the createOnly name carried
    assert update == {**create, "Colour": "red", "Size": 5}
    # the example with allowConstraintErrors and an error is the invalid input
    assert json.loads(files["inputs/inputs_1_invalid.json"]) == {"Colour": "red", "WidgetName": "Bad Name"}
    schema = next(iter(schemas.values()))
    write_project(tmp_path, files)
    assert judge(schema, tmp_path) == 1
    check_against_schema(schema, files, jsonschema.Draft7Validator(schema))


def test_an_example_that_does_not_fit_is_a_warning_at_its_examples_trait():
    out, diags, schemas = inputs_of(*MISFIT)
    [warning] = [d for d in diags if d.code == "S4401"]
    assert warning.severity.name == "WARNING"
    assert "Eight bytes of secret" in warning.message and "property Secret" in warning.message
    assert "'maxLength'" in warning.message
    source = (FIXTURES / "misfit" / "gadget.smithy").read_text(encoding="utf-8").splitlines()
    assert warning.span.path.endswith("gadget.smithy")
    assert source[warning.span.line - 1].startswith("@examples(")
    # left out: the create input is derived instead, and valid
    files = next(iter(out.values()))
    create = json.loads(files["inputs/inputs_1_create.json"])
    assert "Secret" not in create and set(create) == {"Code"}
    schema = next(iter(schemas.values()))
    check_against_schema(schema, files, jsonschema.Draft7Validator(schema))


def test_an_example_that_fits_makes_no_warning():
    _, diags, _ = inputs_of(*WIDGET)
    assert [d.code for d in diags] == []


# --------------------------------------------------------------------------- derived


def test_derived_inputs_satisfy_the_schema_and_the_judge(tmp_path):
    out, diags, schemas = derived_inputs_of(*VAULT)
    assert list(diags) == []
    [(name, files)] = out.items()
    schema = schemas[name]
    create = json.loads(files["inputs/inputs_1_create.json"])
    assert set(create) == {"Encryption", "Tags", "VaultName"}   # required, writable identifiers, tags
    assert 3 <= len(create["VaultName"]) <= 63 and create["VaultName"].replace("-", "").isalnum()
    update = json.loads(files["inputs/inputs_1_update.json"])
    assert update["VaultName"] == create["VaultName"] and update["Encryption"] == create["Encryption"]
    assert update != create                      # what can change, changes
    write_project(tmp_path, files)
    assert judge(schema, tmp_path) == 1
    check_against_schema(schema, files, jsonschema.Draft7Validator(schema))


def test_the_judge_rejects_an_update_input_that_changes_a_create_only_identifier(tmp_path):
    out, _, schemas = inputs_of(*WIDGET)
    files = dict(next(iter(out.values())))
    update = json.loads(files["inputs/inputs_1_update.json"])
    update["WidgetName"] = "another-widget"
    files["inputs/inputs_1_update.json"] = json.dumps(update)
    write_project(tmp_path, files)
    with pytest.raises(AssertionError, match="createOnlyProperties"):
        judge(next(iter(schemas.values())), tmp_path)


def test_an_invalid_input_breaks_the_schema_and_a_fixed_one_would_not():
    out, _, schemas = derived_inputs_of(*VAULT)
    files = next(iter(out.values()))
    schema = next(iter(schemas.values()))
    validator = schema_validator(schema)
    invalid = json.loads(files["inputs/inputs_1_invalid.json"])
    error = first_error(validator, invalid)
    assert error is not None and error.validator in ("maxLength", "type")
    create = json.loads(files["inputs/inputs_1_create.json"])
    broken = [k for k in invalid if invalid[k] != create.get(k)]
    assert len(broken) == 1                        # one property broken, the rest as create
    assert first_error(validator, {**invalid, broken[0]: create[broken[0]]}) is None


def test_patterns_python_re_cannot_read_are_matched():
    validator = schema_validator({"properties": {"A": {"type": "string", "pattern": "^\\p{L}+$"}},
                                  "patternProperties": {}, "additionalProperties": False})
    assert first_error(validator, {"A": "été"}) is None
    assert first_error(validator, {"A": "e1"}) is not None
    assert first_error(validator, {"B": "x"}) is not None
    java = schema_validator({"type": "string", "pattern": "^[\\p{Print}\\s]*$"})   # transfer's As2Id
    assert first_error(java, "a b") is None and first_error(java, "\x01") is not None


def test_a_backtracking_pattern_is_answered():
    # an ECMA-262 backtracking engine (regress) takes 4 s on 26 characters and doubles with each
    # one more; regex answers, or gives up after MATCH_TIMEOUT and counts it as a match
    validator = schema_validator({"type": "string", "pattern": "^(a+)+$"})
    assert first_error(validator, "a" * 60 + "b") is not None
    assert first_error(validator, "a" * 60) is None


# --------------------------------------------------------------------------- determinism


def _texts(models: Path, service: str) -> str:
    out, _, _ = inputs_of(models, service)
    return json.dumps(out, sort_keys=True)


def test_the_same_model_gives_byte_identical_files():
    first = _texts(*VAULT)
    assert first == _texts(*VAULT)
    # and in another process, with another hash seed (rstr builds some alphabets from sets)
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from pathlib import Path; "
            "from test_inputs import _texts, VAULT; print(_texts(*VAULT))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)], capture_output=True, text=True,
                          env={**env, "PYTHONPATH": os.pathsep.join([str(REPO / "tests"), env.get("PYTHONPATH", "")])},
                          timeout=120, check=True)
    assert done.stdout.strip() == first


def test_a_negated_class_pattern_gives_the_same_string_whatever_the_hash_seed():
    from smithy2cfn.contract.values import pattern_string

    code = ("from smithy2cfn.contract.values import pattern_string; "
            "print(pattern_string('^[^a-z]{6}\\\\W$', 1, 20, 'seed'))")
    seen = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert seen == {pattern_string("^[^a-z]{6}\\W$", 1, 20, "seed") + "\n"}


# --------------------------------------------------------------------------- AWS models


def _aws_cfn_models(request: pytest.FixtureRequest) -> list[Path]:
    """The published AWS models with ``cfnResource``: ``../scratch/aws-all`` beside the
    repository when they are extracted there, else the archive (``../shared/conformance/aws-all``,
    extracted by the ``aws_all_models`` fixture)."""
    folder = REPO.parent / "scratch" / "aws-all"
    if folder.is_dir() and any(folder.glob("*.json")):
        models = sorted(folder.glob("*.json"))
    else:
        if not (SHARED / "conformance" / "aws-all" / "models.tar.xz").is_file():
            pytest.skip("no AWS models: ../shared/conformance/aws-all/models.tar.xz is absent")
        models = request.getfixturevalue("aws_all_models")
    return [p for p in models if '"aws.cloudformation#cfnResource"' in p.read_text(encoding="utf-8")]


def test_every_resource_of_the_aws_models_gets_a_valid_create_input(request, tmp_path):
    models = _aws_cfn_models(request)
    assert len(models) >= 37
    start = time.perf_counter()
    resources = sets = 0
    origin = {"example": 0, "derived": 0}
    by_resource = {"example": 0, "derived": 0}
    missing: list[str] = []
    judged = 0
    for path in models:
        result = build_from_config(models=[path], out_dir=None, extensions=[])
        out = result.projections[0]
        assert out.plan is not None, path.name
        diags = Diagnostics()
        for rplan in out.plan.resources:
            schema = out.schemas.get(rplan.file_name)
            if schema is None:
                continue
            resources += 1
            maker = ResourceInputs(out.model, out.plan, rplan, schema, diags)
            files = maker.files()
            if not files:
                missing.append(rplan.type_name)
                continue
            sets += len(files) // 3
            for o in maker.origins:
                origin[o] += 1
            by_resource["example" if "example" in maker.origins else "derived"] += 1
            check_against_schema(schema, files, schema_validator(schema))
            project = tmp_path / rplan.file_name
            write_project(project, files)
            judged += judge(schema, project)
        assert not [d for d in diags if d.code == "S4402"], [d.format_text() for d in diags]
    print(f"\ncontract inputs on {len(models)} AWS models: {resources} resources (create input from "
          f"@examples: {by_resource['example']}, derived: {by_resource['derived']}), {sets} sets "
          f"(create from examples: {origin['example']}, derived: {origin['derived']}), "
          f"judged by cfn-cli: {judged}, {time.perf_counter() - start:.1f} s")
    assert missing == []
    assert judged == sets


# --------------------------------------------------------------------------- rules S4402-S4404


def gadget(tmp_path: Path, code_traits: str, examples: str) -> Path:
    """The misfit fixture's model with other ``Code`` constraints and create examples."""
    text = (FIXTURES / "misfit" / "gadget.smithy").read_text(encoding="utf-8")
    text = text.replace('@length(min: 2, max: 6)\n@pattern("^[A-Z]+$")\nstring Code', f"{code_traits}\nstring Code")
    start = text.index("@examples(")
    end = text.index("operation CreateGadget")
    text = text[:start] + (f"@examples([{examples}])\n" if examples else "") + text[end:]
    text += '\n@error("client")\nstructure GadgetExists {}\n'
    text = text.replace("    output := for Gadget {\n        @required\n        $gadgetId\n    }\n}",
                        "    output := for Gadget {\n        @required\n        $gadgetId\n    }\n"
                        "    errors: [GadgetExists]\n}", 1)
    (tmp_path / "gadget.smithy").write_text(text, encoding="utf-8")
    return tmp_path


def test_a_property_no_value_satisfies_is_a_warning_and_no_inputs(tmp_path):
    out, diags, _ = inputs_of(gadget(tmp_path, '@length(min: 5, max: 6)\n@pattern("^A{2}$")', ""), MISFIT[1])
    [warning] = [d for d in diags if d.code == "S4402"]
    assert "/properties/Code" in warning.message and "'pattern'" in warning.message
    assert warning.span is not None and warning.span.path.endswith("gadget.smithy")
    assert list(out.values()) == [{}]


def test_a_satisfiable_property_makes_no_s4402(tmp_path):
    out, diags, _ = inputs_of(gadget(tmp_path, '@length(min: 2, max: 6)\n@pattern("^A{2}$")', ""), MISFIT[1])
    assert [d.code for d in diags] == []
    assert json.loads(next(iter(out.values()))["inputs/inputs_1_create.json"]) == {"Code": "AA"}


def test_an_error_example_that_fits_the_schema_is_a_note_and_left_out(tmp_path):
    examples = ('{ title: "Exists", input: { code: "ABC" }, error: { shapeId: GadgetExists, content: {} } }\n'
                '{ title: "Too long", input: { code: "ABCDEFGH" }, allowConstraintErrors: true,'
                ' error: { shapeId: GadgetExists, content: {} } }')
    out, diags, _ = inputs_of(gadget(tmp_path, "@length(min: 2, max: 6)", examples), MISFIT[1])
    [note] = [d for d in diags if d.code == "S4403"]
    assert note.severity.name == "NOTE" and "'Exists'" in note.message
    files = next(iter(out.values()))
    assert json.loads(files["inputs/inputs_1_invalid.json"]) == {"Code": "ABCDEFGH"}
    assert "inputs/inputs_2_create.json" not in files


def test_more_than_nine_sets_is_a_warning_and_nine_are_written(tmp_path, tmp_path_factory):
    examples = "\n".join(f'{{ title: "Gadget {i}", input: {{ code: "{"ABCDEFGHIJK"[i] * 3}" }} }}' for i in range(11))
    out, diags, schemas = inputs_of(gadget(tmp_path, "@length(min: 2, max: 6)", examples), MISFIT[1])
    [warning] = [d for d in diags if d.code == "S4404"]
    assert "11" in warning.message
    files = next(iter(out.values()))
    assert len(files) == 27 and "inputs/inputs_9_create.json" in files
    assert json.loads(files["inputs/inputs_9_create.json"]) == {"Code": "III"}
    project = tmp_path_factory.mktemp("project")
    write_project(project, files)
    assert judge(next(iter(schemas.values())), project) == 9
    # why nine: cfn-cli's set 1 reads every inputs/inputs_1*.json, inputs_10_create.json too
    from rpdk.core.test import get_type
    assert "inputs_10_create.json".startswith("inputs_1") and get_type("inputs_10_create.json") == "CREATE"


# --------------------------------------------------------------------------- hostile schemas


def test_an_example_json_cannot_hold_is_a_warning_not_a_traceback():
    from smithy2cfn.contract.inputs import _Example

    model, plan, schemas = built(*MISFIT)
    rplan = plan.resources[0]
    diags = Diagnostics()
    maker = ResourceInputs(model, plan, rplan, schemas[rplan.file_name], diags)
    op = model.get("acme.gadget#CreateGadget")
    assert maker._misfit(_Example("Huge", op, {"Code": float("inf")}, False), {"Code": float("inf")}, "create")
    assert not maker._misfit(_Example("Fine", op, {"Code": "AB"}, False), {"Code": "AB"}, "create")
    [warning] = list(diags)
    assert warning.code == "S4401" and "'Huge'" in warning.message and warning.span == op.trait_spans[EXAMPLES]



def test_schemas_no_value_can_be_made_for_raise_novalue_not_a_traceback():
    from smithy2cfn.contract.values import NoValue, SchemaValues

    cases = {
        "depth": {"definitions": {"A": {"type": "object", "properties": {"a": {"$ref": "#/definitions/A"}},
                                        "required": ["a"]}}},
        "$ref": {"definitions": {"A": {"$ref": "#/definitions/B"}}},
        "pattern": {"definitions": {"A": {"type": "string", "pattern": "^a{5000}$"}}},
        "maxLength": {"definitions": {"A": {"type": "string", "minLength": 5, "maxLength": 2}}},
        "maximum": {"definitions": {"A": {"type": "integer", "minimum": 5, "maximum": 2}}},
        "oneOf": {"definitions": {"A": {"oneOf": [{"type": "string", "maxLength": 1, "minLength": 2}]}}},
    }
    for rule, schema in cases.items():
        values = SchemaValues(schema, "Acme::X::Y")
        with pytest.raises(NoValue) as caught:
            values.value({"$ref": "#/definitions/A"}, "/properties/A")
        assert caught.value.rule == rule, (rule, caught.value.rule)


def test_values_satisfy_what_they_are_made_for():
    from smithy2cfn.contract.values import SchemaValues

    node = {"type": "object", "required": ["n", "l", "s", "m"], "minProperties": 5, "additionalProperties": False,
            "properties": {"n": {"type": "integer", "exclusiveMinimum": 7, "multipleOf": 5},
                           "l": {"type": "array", "minItems": 3, "uniqueItems": True,
                                 "items": {"type": "string", "enum": ["a", "b", "c"]}},
                           "s": {"type": "string", "pattern": "^[^a-z]{3}\\.[0-9]+$", "maxLength": 6},
                           "m": {"type": "object", "patternProperties": {"^k-[0-9]$": {"type": "boolean"}},
                                 "additionalProperties": False},
                           "t": {"type": "string", "format": "date-time"}}}
    values = SchemaValues({}, "Acme::X::Y")
    for variant in range(3):
        value = values.value(node, "/properties/X", variant)
        assert values.fits(node, value), value
        assert value["n"] == 10 and sorted(value["l"]) == ["a", "b", "c"] and "t" in value


def test_strings_of_wide_classes_are_letters_and_digits_where_the_class_allows():
    from smithy2cfn.contract.values import pattern_string

    wide = pattern_string("^[\\u0020-\\uD7FF\\uE000-\\uFFFD]{300}$", 0, None, "s")   # a common AWS pattern
    assert len(wide) == 300 and wide.isascii() and wide.isalnum()
    assert set(pattern_string("^[-_.]{5}$", 0, None, "s")) <= set("-_.")
    assert pattern_string("^.{3}$", 0, None, "s").isalnum()


def test_the_example_s_own_examples_make_its_inputs(tmp_path):
    """examples/vault's @examples: CreateVault's is the create input, UpdateVault's the update
    (the createOnly values carried over); the invalid input is derived from the create one."""
    out, diags, schemas = inputs_of(*VAULT)
    assert [d for d in diags if d.severity.label != "note"] == []
    [(name, files)] = out.items()
    create = json.loads(files["inputs/inputs_1_create.json"])
    update = json.loads(files["inputs/inputs_1_update.json"])
    invalid = json.loads(files["inputs/inputs_1_invalid.json"])
    assert create["VaultName"] == "team-secrets" and create["Encryption"] == {"Algorithm": "AES256", "RotationDays": 90}
    assert update["RetentionDays"] == 365 and update["VaultName"] == "team-secrets"
    assert len(invalid["VaultName"]) > 63 and {k: v for k, v in invalid.items() if k != "VaultName"} == \
        {k: v for k, v in create.items() if k != "VaultName"}
    write_project(tmp_path, files)
    assert judge(schemas[name], tmp_path) == 1
