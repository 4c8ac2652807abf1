"""The lint stage (issue 9 part 2): each rule has one model (or schema) that triggers it, at
the right line of the model, and the clean model that does not; suppressions silence lint
codes; ``--strict`` fails the build on warnings; the example builds with 0 warnings; each
rule is a unit declaring its code and rule (``smithy2cfn.checks.lint_rule``), and the runner
turns a rule's bug into an internal error.

Rules reachable from a model are triggered by a model variant. Rules that only a ``jsonAdd``
or an extension can break (the emitter never writes such a schema) are triggered by changing
the emitted schema before linting it, as an extension's mapper would.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from smithy2cfn import api
from smithy2cfn.checks import Check, shipped
from smithy2cfn.cli import main
from smithy2cfn.derive.plan import derive_plan
from smithy2cfn.diagnostics import CODES, Diagnostic, Diagnostics, Severity
from smithy2cfn.emit import emit_schemas
from smithy2cfn.lint import lint_rules, lint_schemas, run_rules
from smithy2cfn.lint.cfn_validate import ecma_problem, python_regex_problem
from smithy2cfn.lint.context import ResourceContext
from smithy2cfn.lint.locate import Locator, definition_names
from smithy2cfn.load import load_texts
from smithy2cfn.settings import Settings

BASE = """$version: "2"
namespace ex
use aws.api#taggable
use aws.api#tagEnabled
use aws.cloudformation#cfnResource
use aws.cloudformation#cfnMutability
use aws.iam#iamAction

@tagEnabled
service Svc { version: "1", resources: [Thing], operations: [TagResource, UntagResource, ListTagsForResource] }

/// Resource Type definition for Ex::Svc::Thing.
@cfnResource
@taggable(property: "tags")
@aws.api#arn(template: "thing/{id}")
resource Thing {
    identifiers: { id: ThingId }
    properties: { name: Name, thingArn: ThingArn, tags: TagList, size: Size, secret: String }
    create: CreateThing
    read: GetThing
    update: UpdateThing
    delete: DeleteThing
    list: ListThings
}

@pattern("^t-[0-9a-f]+$")
string ThingId

@pattern("^[A-Za-z0-9-]+$")
string Name

@pattern("^arn:aws[a-z-]*:svc:[a-z0-9-]+:[0-9]{12}:thing/.+$")
string ThingArn

enum Size {
    SMALL
    LARGE
}

list TagList { member: Tag }
structure Tag { @required Key: String, @required Value: String }
list ThingIds { member: ThingId }

operation CreateThing {
    input := { name: Name, size: Size, tags: TagList, @cfnMutability("write") secret: String }
    output := { @required id: ThingId }
}
@readonly
operation GetThing {
    input := { @required id: ThingId }
    output := { @required id: ThingId, name: Name, thingArn: ThingArn, size: Size, tags: TagList }
}
operation UpdateThing { input := { @required id: ThingId, name: Name } }
@idempotent
operation DeleteThing { input := { @required id: ThingId } }
@readonly
operation ListThings { output := { ids: ThingIds } }

operation TagResource { input := { @required resourceArn: String, @required tags: TagList } }
operation UntagResource { input := { @required resourceArn: String, @required tagKeys: ThingIds } }
@readonly
operation ListTagsForResource { input := { @required resourceArn: String }, output := { tags: TagList } }
"""

FILE = "ex-svc-thing.json"


def planned(text: str, **settings_):
    """Load, validate, plan and emit ``text``: ``(model, plan, schemas, diagnostics)``."""
    diags = Diagnostics()
    model = load_texts([("m.smithy", text)], diags)
    api.validate(model, diags)
    assert not diags.has_errors, [d.format_text() for d in diags if d.is_error]
    config = Settings.from_mapping({"organizationName": "Ex", **settings_}, diags)
    plan = derive_plan(model, config, diags)
    schemas = emit_schemas(model, plan, diags)
    assert not diags.has_errors, [d.format_text() for d in diags if d.is_error]
    return model, plan, schemas, diags


def lint(text: str, mutate: Callable[[dict], None] | None = None, **settings_) -> list[Diagnostic]:
    """The lint findings for ``text`` (its schema changed by ``mutate`` first)."""
    model, plan, schemas, _ = planned(text, **settings_)
    if mutate is not None:
        schemas = copy.deepcopy(schemas)
        mutate(schemas[FILE])
    return lint_schemas(model, plan, schemas)


def line_of(text: str, snippet: str) -> int:
    """The 1-based line of the first occurrence of ``snippet``."""
    index = text.index(snippet)
    return text.count("\n", 0, index) + 1


#: code → the rule its lint check mirrors (as the catalog lists the checks).
RULE_OF = {code: check.rule for check in lint_rules() for code in check.codes}


def test_the_clean_model_has_no_lint_finding():
    assert [d.format_text() for d in lint(BASE) if d.severity >= Severity.NOTE] == []


# --------------------------------------------------------------------------- model variants

#: code → (replacements on BASE, snippet of the line the finding is at, settings)
MODEL_CASES: dict[str, tuple[list[tuple[str, str]], str, dict]] = {
    "S6001": ([], "name: Name, size: Size", {"disableCapitalizedProperties": True}),
    "S6005": ([("arn:aws[a-z-]*:svc", "arn:aws:svc")], '@pattern("^arn:aws:svc', {}),
    "S6006": ([('@pattern("^[A-Za-z0-9-]+$")', '@pattern("^\\\\p{L}+$")')], '@pattern("^\\\\p{L}', {}),
    "S6007": ([("    SMALL\n    LARGE\n", "".join(f"    V{i}\n" for i in range(16)))], "enum Size", {}),
    "S6008": ([('@pattern("^[A-Za-z0-9-]+$")\nstring Name', '@documentation("A name — any name.")\n'
                                                          '@pattern("^[A-Za-z0-9-]+$")\nstring Name')],
              '@documentation("A name —', {}),
    "S6009": ([("size: Size, secret", "size: Size, maxResults: Integer, secret"),
               ("size: Size, tags: TagList }\n}", "size: Size, tags: TagList, maxResults: Integer }\n}")],
              "maxResults: Integer }", {}),
    "S6011": ([("@readonly\noperation GetThing", '@readonly\n@iamAction(requiredActions: ["svc:Describe*"])\n'
                                                 "operation GetThing")], "operation GetThing", {}),
    # (a property only a removed lifecycle operation binds leaves the resource too: Smithy's
    # ResourceOperationInputOutput; without @taggable, @tagEnabled goes: TagEnabledService)
    "S6104": ([("    create: CreateThing\n", ""), ("size: Size, secret: String }", "size: Size }")], "resource Thing", {}),
    "S6105": ([("    read: GetThing\n", ""), ("thingArn: ThingArn, tags: TagList, size", "tags: TagList, size"), ("@readonly\noperation GetThing", "@readonly\noperation GetThingX")],
              "resource Thing", {}),
    "S6108": ([("    delete: DeleteThing\n", "")], "resource Thing", {}),
    "S6109": ([("    list: ListThings\n", "")], "resource Thing", {}),
    "S6110": ([('@taggable(property: "tags")\n', ""), ("@tagEnabled\n", "")], "resource Thing", {}),
    "S6111": ([('@taggable(property: "tags")\n', ""), ("@tagEnabled\n", "")], "tags: TagList, @cfnMutability", {}),
    "S6113": ([('@taggable(property: "tags")', '@taggable(property: "labels")'), ("tags: TagList, size", "labels: TagList, size"),
               ("tags: TagList, @cfn", "labels: TagList, @cfn"), ("size: Size, tags: TagList }\n}", "size: Size, labels: TagList }\n}")],
              '@taggable(property: "labels")', {}),
    "S6118": ([("thingArn: ThingArn, tags", "thingArn: String, tags"), ("thingArn: ThingArn, size", "thingArn: String, size")],
              "thingArn: String, size", {}),
    "S6119": ([("secret: String }", "secret: Document }")], '@cfnMutability("write") secret: Document', {}),
    "S6121": ([("/// Resource Type definition for Ex::Svc::Thing.", "/// A thing.")], "/// A thing.", {}),
    "S6201": ([("size: Size, tags: TagList, @cfn", '@cfnMutability("full") size: Size, tags: TagList, @cfn'),
               ("size: Size, tags: TagList }\n}", "tags: TagList }\n}")], '@cfnMutability("full") size', {}),
    "S6202": ([("input := { @required id: ThingId }\n    output", "input := { @required id: ThingId, @notProperty "
                                                                 "@required verbose: Boolean }\n    output")],
              "input := { @required id: ThingId, @notProperty", {}),
    "S6203": ([("output := { @required id: ThingId }", "output := {}")], "operation CreateThing", {}),
    "S6204": ([("operation ListThings { output := { ids: ThingIds } }",
                "operation ListThings { output := { @notProperty names: TagList } }")], "operation ListThings", {}),
    "S6205": ([("size: Size, tags: TagList }\n}", "size: Size, tags: TagList, secret: String }\n}")],
              '@cfnMutability("write") secret', {}),
}


@pytest.mark.parametrize("code", sorted(MODEL_CASES))
def test_a_model_variant_triggers_the_rule_at_its_line(code: str):
    replacements, snippet, settings_ = MODEL_CASES[code]
    text = BASE
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    found = [d for d in lint(text, **settings_) if d.code == code]
    assert found, f"{code} not reported"
    expected = line_of(text, snippet)
    assert expected in [d.span.line for d in found], [d.format_text() for d in found]
    for d in found:
        assert d.span.path == "m.smithy" and d.hint and RULE_OF[code] in d.message
        assert d.severity in CODES[code].severities and d.event_id == CODES[code].event_id
    assert not [d for d in lint(BASE) if d.code == code]


def test_a_resource_without_update_gets_a_note():
    text = BASE.replace("    update: UpdateThing\n", "")
    (note,) = [d for d in lint(text) if d.code == "S6106"]
    assert note.severity == Severity.NOTE and note.span.line == line_of(text, "resource Thing")
    assert RULE_OF["S6106"] in note.message and note.hint
    assert not [d for d in lint(BASE) if d.code == "S6106"]


# --------------------------------------------------------------------------- schema variants


def _drop(key: str) -> Callable[[dict], None]:
    return lambda s: s.pop(key)


#: code → (change to the emitted schema, snippet of the line the finding is at)
SCHEMA_CASES: dict[str, tuple[Callable[[dict], None], str]] = {
    "S6002": (lambda s: s["properties"]["Tags"].pop("insertionOrder"), "tags: TagList, @cfnMutability"),
    "S6003": (lambda s: s["properties"]["Name"].update(arrayType="Standard"), "name: Name, size"),
    "S6004": (lambda s: s["properties"]["Name"].update(minimum=1), "name: Name, size"),
    "S6010": (lambda s: s.update(required=["Id"]), "resource Thing"),
    "S6012": (lambda s: s["definitions"]["Tag"].pop("additionalProperties"), "structure Tag"),
    "S6013": (lambda s: s.update(readOnlyProperties=[]), "resource Thing"),
    "S6014": (lambda s: s.update(conditionalCreateOnlyProperties=["/properties/Id"]), "resource Thing"),
    "S6015": (_drop("tagging"), "@taggable"),
    "S6016": (lambda s: s.update(remote={}), "resource Thing"),
    "S6101": (lambda s: s.update(primaryIdentifier=[]), "resource Thing"),
    "S6102": (lambda s: s.update(writeOnlyProperties=["/properties/Id", *s["writeOnlyProperties"]]),
              "resource Thing"),
    "S6103": (lambda s: s["readOnlyProperties"].append("/properties/Nope"), "resource Thing"),
    "S6107": (lambda s: s["handlers"]["update"].update(permissions=[]), "operation UpdateThing"),
    "S6112": (lambda s: s["tagging"].pop("permissions"), "@taggable"),
    "S6114": (lambda s: s["tagging"].update(tagProperty="/properties/Nope"), "@taggable"),
    "S6115": (lambda s: s["writeOnlyProperties"].append("/properties/Tags"), "tags: TagList, @cfnMutability"),
    "S6116": (lambda s: s.update(createOnlyProperties=["/properties/Tags"]), "tags: TagList, @cfnMutability"),
    "S6117": (lambda s: s["tagging"].update(tagProperty="/properties/Tags/*"), "@taggable"),
    "S6119": (lambda s: s["definitions"].update(Size={"oneOf": [{"type": "string"}, {"type": "integer"}]}),
              "size: Size, tags: TagList, @cfn"),
    "S6120": (lambda s: s["properties"]["Tags"].update(items={"oneOf": [{"$ref": "#/definitions/Tag"}]}),
              "list TagList"),
    "S6122": (lambda s: s.update(sourceUrl="http://example.com"), "resource Thing"),
    "S6123": (lambda s: s.update(replacementStrategy="create_then_delete"), "resource Thing"),
    "S6124": (lambda s: s.update(taggable=True), "@taggable"),
    "S6130": (lambda s: s["handlers"].pop("update"), "@taggable"),
    "S6206": (lambda s: s["properties"].update(Id={"type": "boolean"}), "resource Thing"),
}


@pytest.mark.parametrize("code", sorted(SCHEMA_CASES))
def test_a_schema_change_triggers_the_rule_at_its_line(code: str):
    mutate, snippet = SCHEMA_CASES[code]
    found = [d for d in lint(BASE, mutate) if d.code == code]
    assert found, f"{code} not reported"
    assert line_of(BASE, snippet) in [d.span.line for d in found], [d.format_text() for d in found]
    assert all(d.hint and RULE_OF[code] in d.message and d.severity in CODES[code].severities for d in found)
    assert not [d for d in lint(BASE) if d.code == code]


def test_every_lint_code_has_a_case_and_a_rule_unit_of_its_own():
    cases = set(MODEL_CASES) | set(SCHEMA_CASES) | {"S6106"}
    assert cases == set(RULE_OF)
    # S6000 is --strict's (api), S6099 the runner's internal error
    assert {c for c in CODES if c.startswith("S6") and c not in ("S6000", "S6099")} == set(RULE_OF)
    assert all(CODES[c].event_id.startswith("CfnLint.") for c in RULE_OF)
    rules = lint_rules()
    assert [len(r.codes) for r in rules] == [1] * len(RULE_OF) == [1] * 47
    assert all(r.rule and r.run is not None and r.module.startswith("smithy2cfn.lint.") for r in rules)
    # run in catalog order
    assert [(r.module, r.function) for r in rules] == [(c.module, c.function) for c in shipped("lint")]


def test_what_cfn_validate_rejects_is_an_error():
    for code, mutate in (("S6003", SCHEMA_CASES["S6003"][0]), ("S6014", SCHEMA_CASES["S6014"][0]),
                         ("S6016", SCHEMA_CASES["S6016"][0])):
        (d,) = [d for d in lint(BASE, mutate) if d.code == code]
        assert d.severity == Severity.ERROR


def test_tag_updatable_without_update_is_an_error_unless_the_model_has_one():
    def no_update(s: dict) -> None:
        s["handlers"].pop("update")

    (d,) = [d for d in lint(BASE, no_update) if d.code == "S6130"]
    assert d.severity == Severity.WARNING  # the model has an update handler; the schema dropped it
    text = BASE.replace("    update: UpdateThing\n", "")
    (d,) = [d for d in lint(text, lambda s: s["tagging"].update(tagUpdatable=True)) if d.code == "S6130"]
    assert d.severity == Severity.ERROR


# --------------------------------------------------------------------------- suppressions, modes


def test_suppressions_silence_lint_by_event_id_and_by_code():
    text = BASE.replace("/// Resource Type definition for Ex::Svc::Thing.", "/// A thing.")
    assert [d.code for d in lint(text) if d.code == "S6121"] == ["S6121"]
    for suppression in ('"CfnLint"', '"CfnLint.GuardRail"', '"CfnLint.GuardRail.Description"', '"S6121"'):
        suppressed = text.replace("@cfnResource\n@taggable", f"@suppress([{suppression}])\n@cfnResource\n@taggable")
        assert not [d for d in lint(suppressed) if d.code == "S6121"], suppression
    other = text.replace("@cfnResource\n@taggable", '@suppress(["CfnLint.Contract"])\n@cfnResource\n@taggable')
    assert [d.code for d in lint(other) if d.code == "S6121"] == ["S6121"]
    metadata = text.replace("namespace ex\n", 'metadata suppressions = [{id: "S6121", namespace: "ex"}]\nnamespace ex\n')
    assert not [d for d in lint(metadata) if d.code == "S6121"]


def test_reference_mode_is_not_linted():
    diags = Diagnostics()
    model = load_texts([("m.smithy", BASE.replace("/// Resource Type", "/// A thing. Resource Type"))], diags)
    reference = api.convert(model, {"organizationName": "Ex", "compatibility": "reference"})
    assert not [d for d in reference.diagnostics if d.code.startswith("S6")]
    assert [d for d in api.convert(model, {"organizationName": "Ex"}).diagnostics if d.code == "S6121"]


def test_strict_fails_the_build_on_warnings_and_writes_nothing(tmp_path):
    path = tmp_path / "m.smithy"
    path.write_text(BASE.replace("/// Resource Type definition for Ex::Svc::Thing.", "/// A thing."))
    out = tmp_path / "out"
    result = api.build([path], out, {"organizationName": "Ex"}, extensions=[])
    assert result.exit_code == 0 and result.written
    out2 = tmp_path / "out2"
    result = api.build([path], out2, {"organizationName": "Ex", "strict": True}, extensions=[])
    assert result.exit_code == 1 and not result.written and not out2.exists()
    (error,) = [d for d in result.diagnostics if d.code == "S6000"]
    assert "S6121" in error.message and error.hint
    result = api.build([path], None, {"organizationName": "Ex"}, strict=True, extensions=[])
    assert result.exit_code == 1
    runner = CliRunner()
    run = runner.invoke(main, ["build", str(path), "--org", "Ex", "-o", str(tmp_path / "out3"), "--strict"])
    assert run.exit_code == 1 and "S6000" in run.output and not (tmp_path / "out3").exists()
    run = runner.invoke(main, ["build", str(path), "--org", "Ex", "-o", str(tmp_path / "out4")])
    assert run.exit_code == 0


def test_the_strict_setting_must_be_a_boolean(tmp_path):
    path = tmp_path / "m.smithy"
    path.write_text(BASE)
    result = api.build([path], None, {"organizationName": "Ex", "strict": "yes"}, extensions=[])
    (error,) = [d for d in result.diagnostics if d.code == "S5001"]
    assert "'strict'" in error.message and result.exit_code == 2


def test_the_example_builds_strict_with_no_warning():
    from conftest import REPO

    result = api.build_from_config(REPO / "examples" / "vault" / "smithy-build.json", out_dir=None,
                                   overrides={"strict": True}, extensions=[])
    assert result.exit_code == 0, [d.format_text() for d in result.diagnostics if d.severity >= Severity.WARNING]
    assert not [d for d in result.diagnostics if d.severity >= Severity.WARNING]
    expected = json.loads((REPO / "examples" / "vault" / "expected" / "acme-vault-vault.json").read_text())
    assert result.schemas["acme-vault-vault.json"] == expected


# --------------------------------------------------------------------------- patterns


def test_patterns_are_checked_as_python_and_ecma():
    assert python_regex_problem("^[a-z]+$") is None and ecma_problem("^[a-z]+$") is None
    assert python_regex_problem("^\\p{L}+$") is not None  # Python has no \p
    assert ecma_problem("(?i)abc") is not None and python_regex_problem("(?i)abc") is None
    assert ecma_problem("^abc\\Z") is not None and ecma_problem("a*+") is not None
    assert ecma_problem("^\\\\Z$") is None  # an escaped backslash before Z
    # syntax only an ECMA-262 engine sees wrong (regress): a reversed range, a quantifier
    # with nothing to repeat (cfn/integ/rule-example's `{11}{0,1011}`), an unclosed group
    for bad in ("[z-a]", "{11}{0,1011}", "(a", "a{2,1}"):
        assert ecma_problem(bad) is not None and "ECMA-262" in ecma_problem(bad), bad
    assert ecma_problem("^\\p{L}+$") is None and ecma_problem("(?<name>a)\\k<name>") is None


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ab()[]{}*+?|^$\\pLZ-:0123456789", max_size=20))
def test_the_pattern_checks_never_raise(pattern: str):
    assert python_regex_problem(pattern) is None or python_regex_problem(pattern).startswith("Python re")
    problem = ecma_problem(pattern)
    assert problem is None or re.search("ECMA", problem)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=8)
KEYS = st.sampled_from(["properties", "definitions", "handlers", "tagging", "required", "primaryIdentifier",
                        "readOnlyProperties", "writeOnlyProperties", "createOnlyProperties", "additionalIdentifiers",
                        "conditionalCreateOnlyProperties", "description", "sourceUrl", "taggable", "remote"])


@pytest.fixture(scope="module")
def clean():
    return planned(BASE)


@settings(max_examples=40, deadline=None)
@given(changes=st.lists(st.tuples(KEYS, JSON), min_size=1, max_size=3),
       nested=st.lists(st.tuples(st.sampled_from(["Name", "Tags", "Id"]), JSON), max_size=2))
def test_lint_never_raises_on_whatever_a_json_add_writes(clean, changes, nested):
    """A jsonAdd or an extension may write any JSON into a schema (the build then fails on the
    meta-schema, but the schema is still linted): the lint reports, never raises."""
    model, plan, schemas, _ = clean
    schema = copy.deepcopy(schemas[FILE])
    for key, value in nested:
        schema["properties"][key] = value
    for key, value in changes:
        schema[key] = value
    for d in lint_schemas(model, plan, {FILE: schema}):
        assert d.code in RULE_OF and d.span is not None


def test_a_deep_shared_structure_graph_is_searched_once_per_definition():
    """40 structures, each with two members targeting the next: 2**40 property paths, which
    the lint never lists (TAG016's tag-like property is found breadth first, each definition
    entered once), and the finding is at the nested member."""
    chain = "".join(f"structure S{i} {{ a: S{i + 1}, b: S{i + 1} }}\n" for i in range(40))
    chain += "structure S40 { TagSet: String }\n"
    text = BASE.replace('@taggable(property: "tags")\n', "").replace("@tagEnabled\n", "").replace("size: Size, secret", "size: Size, deep: S0, secret")
    text = text.replace("size: Size, tags: TagList }\n}", "size: Size, tags: TagList, deep: S0 }\n}")
    text = text.replace("@required Key: String, @required Value: String }", "@required Key: String, @required Value: "
                        "String }\n" + chain).replace("tags: TagList, @cfn", "tags: TagList, deep: S0, @cfn")
    model, plan, schemas, _ = planned(text)
    schema = copy.deepcopy(schemas[FILE])
    schema["properties"].pop("Tags")  # leave the deep TagSet as the only tag-like property
    (finding,) = [d for d in lint_schemas(model, plan, {FILE: schema}) if d.code == "S6111"]
    assert "/properties/Deep/A/" in finding.message and finding.message.count("/A") == 40
    assert finding.span.line == line_of(text, "structure S40")


@pytest.mark.parametrize("permissions", [None, 5, "svc:*", {"svc:*": 1}])
def test_permissions_that_are_no_list_are_reported_not_raised(permissions):
    """A jsonAdd may write anything as a handler's permissions: the handler rule reports
    that it has none, and the wildcard rule reads only a list (it used to iterate ``None``)."""
    found = lint(BASE, lambda s: s["handlers"]["create"].update(permissions=permissions))
    assert [d.code for d in found if d.code in ("S6104", "S6011", "S6099")] == ["S6104"]


# --------------------------------------------------------------------------- the runner


@pytest.fixture(scope="module")
def context_factory(clean):
    model, plan, schemas, _ = clean
    names = definition_names(model, plan)

    def make() -> ResourceContext:
        (rplan,) = plan.resources
        return ResourceContext(model, rplan, Locator(model, plan, rplan, names), schemas[FILE], FILE)
    return make


def _rule(function, *codes: str) -> Check:
    """A lint rule for the runner alone (``lint_rule`` would add it to the declarations)."""
    return Check("lint", function.__name__, __name__, function.__name__, codes, "a test rule", run=function)


def test_a_rule_reporting_a_code_it_does_not_declare_is_an_internal_error(context_factory):
    def liar(ctx):
        ctx.report("S6121", "not mine", ctx.loc.resource_site(), "hint")
        ctx.report("S6122", "mine", ctx.loc.resource_site(), "hint")

    found = run_rules(context_factory(), [_rule(liar, "S6122")])
    assert sorted(d.code for d in found) == ["S6099", "S6122"]
    (internal,) = [d for d in found if d.code == "S6099"]
    assert internal.severity == Severity.ERROR and "liar" in internal.message and "S6121" in internal.message
    assert internal.span is not None and internal.span.path == "m.smithy" and internal.hint
    (mine,) = [d for d in found if d.code == "S6122"]
    assert mine.message == f"{FILE}: mine (a test rule)"


def test_a_rule_that_raises_is_an_internal_error_and_the_others_run(context_factory):
    def broken(ctx):
        raise KeyError("boom")

    def fine(ctx):
        ctx.report("S6122", "found", ctx.loc.resource_site(), "hint")

    found = run_rules(context_factory(), [_rule(broken, "S6121"), _rule(fine, "S6122")])
    assert [d.code for d in found] == ["S6099", "S6122"]
    assert "broken" in found[0].message and "KeyError" in found[0].message


def test_a_rule_that_reports_nothing_adds_nothing(context_factory):
    assert run_rules(context_factory(), [_rule(lambda ctx: None, "S6122")]) == []
    assert run_rules(context_factory(), lint_rules()) == []  # the clean schema


def test_rule_modules_import_the_context_and_locate_modules_not_each_other():
    """The lint rooms: a rule module (one per source it mirrors) imports from the lint stage
    only ``lint.context`` and ``lint.locate``; the context imports only ``lint.locate``."""
    import ast
    import importlib
    from pathlib import Path

    shared = {"smithy2cfn.lint.context", "smithy2cfn.lint.locate"}
    modules = sorted({r.module for r in lint_rules()})
    assert modules == ["smithy2cfn.lint.cfn_validate", "smithy2cfn.lint.contract", "smithy2cfn.lint.guard_rail",
                       "smithy2cfn.lint.registry"]
    for name in [*modules, "smithy2cfn.lint.context"]:
        tree = ast.parse(Path(importlib.import_module(name).__file__).read_text(encoding="utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        lint_imports = {m for m in imported if m == "smithy2cfn.lint" or m.startswith("smithy2cfn.lint.")}
        allowed = {"smithy2cfn.lint.locate"} if name.endswith(".context") else shared
        assert lint_imports <= allowed, (name, sorted(lint_imports - allowed))


def test_without_a_catalog_the_rules_are_found_by_importing_the_lint_modules(monkeypatch):
    import smithy2cfn.checks

    listed = [(r.module, r.function, r.rule) for r in lint_rules()]
    monkeypatch.setattr(smithy2cfn.checks, "shipped", lambda kind: [])
    assert [(r.module, r.function, r.rule) for r in lint_rules()] == listed
