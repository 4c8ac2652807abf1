"""Resource docs (``smithy2cfn.docs.render_docs``), with the CloudFormation CLI as the judge.

* cfn-cli's own ``Project.generate_docs`` runs on the same schemas (the vault example and
  every schema of the ``cfn`` conformance cases); every file it writes, every heading and
  every anchor or link in it, and each settable property's Required / Type / Update requires
  line, must be in ours. Each difference must be one of its known bugs (below, each with a
  test showing it wrong and us right); the counts are printed at the end of the run.
* golden files for ``examples/vault`` (``pytest --update-goldens`` rewrites them);
* every resource of the 37 real AWS models with ``cfnResource`` gets docs (``test_docs_aws_all``).
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from rpdk.core.project import ARTIFACT_TYPE_RESOURCE, Project  # the judge (test dependency)

from conftest import REPO, SHARED, read_golden, record_result
from smithy2cfn.api import load, validate
from smithy2cfn.derive.plan import ConversionPlan, derive_plan
from smithy2cfn.diagnostics import Diagnostics, Span
from smithy2cfn.docs import UPDATE_BEHAVIORS, render_docs
from smithy2cfn.emit.converter import emit_schemas
from smithy2cfn.model.shapes import Model
from smithy2cfn.settings import Settings

VAULT = REPO / "examples" / "vault"
VAULT_SETTINGS = {"service": "acme.vault#VaultService", "organizationName": "Acme", "sourceDocs": ["Source Code"]}
GOLDENS = Path(__file__).parent / "fixtures" / "vault"

HEADING = re.compile(r"^#{1,6} .*$", re.M)
LINK = re.compile(r'<a href="([^"]*)"|\]\(([^)\s]*)\)')
BLOCK = re.compile(r"^#### (.+)$", re.M)
FIELD = re.compile(r"^_(Required|Type|Update requires)_: (.*)$", re.M)


def build(paths: list[Path], config: dict[str, Any]) -> tuple[Model, ConversionPlan, dict[str, dict[str, Any]]]:
    """Load, validate, plan and emit (no extensions); fails the test on an error."""
    model = validate(load(paths)).model
    diags = Diagnostics()
    settings = Settings.from_mapping(config, diags, source=Span("<test>"))
    plan = derive_plan(model, settings, diags)
    assert plan is not None and not diags.has_errors, diags.sorted()
    schemas = emit_schemas(model, plan, diags)
    assert not diags.has_errors, diags.sorted()
    return model, plan, schemas


def cfn_cli_docs(schema: dict[str, Any]) -> dict[str, str]:
    """What ``cfn generate`` writes under ``docs/`` for ``schema`` (its ``generate_docs``, in
    a temporary project folder): path → text."""
    with tempfile.TemporaryDirectory() as tmp:
        project = Project(root=tmp)
        project.type_info = tuple(schema["typeName"].split("::"))
        project.artifact_type = ARTIFACT_TYPE_RESOURCE
        project.schema = json.loads(json.dumps(schema))
        project.generate_docs()
        return {f"docs/{f.name}": f.read_text(encoding="utf-8") for f in sorted((Path(tmp) / "docs").iterdir())}


def links(text: str) -> set[str]:
    return {a or b for a, b in LINK.findall(text)}


def blocks(text: str) -> dict[str, dict[str, str]]:
    """``#### Name`` → its Required / Type / Update requires lines (the first block of a name)."""
    out: dict[str, dict[str, str]] = {}
    parts = BLOCK.split(text)
    for name, body in zip(parts[1::2], parts[2::2], strict=True):
        out.setdefault(name, dict(FIELD.findall(body.split("\n#", 1)[0])))
    return out


def _pattern_names(schema: Any) -> set[str]:
    """Every ``patternProperties`` pattern of a schema."""
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("patternProperties"), dict):
                found.update(node["patternProperties"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _ref_objects(schema: dict[str, Any]) -> set[str]:
    """Top-level properties whose schema is a ``$ref`` to a definition with properties (or a
    combiner of them): cfn-cli looks their pointers up under the definition's name."""
    out = set()
    for name, prop in (schema.get("properties") or {}).items():
        ref = prop.get("$ref", "") if isinstance(prop, dict) else ""
        target = (schema.get("definitions") or {}).get(ref.removeprefix("#/definitions/"), {})
        if ref and ("properties" in target or any(k in target for k in ("oneOf", "anyOf", "allOf"))):
            out.add(name)
    return out


def _name_uses(schema: dict[str, Any]) -> tuple[set[str], dict[str, set[str]]]:
    """Names cfn-cli's markdown cache mixes up, and names of ``$ref`` object properties.

    cfn-cli keeps the markdown of every object (and array of objects) it has documented under
    the *name* it was reached by (a property name, a definition name, a map pattern) and hands
    it to the next property of that name, anywhere. The first set holds the names used for
    two different things; the second maps each property name (at any depth) whose schema is
    a ``$ref`` to a definition with properties to those definitions' names (cfn-cli looks
    their pointers up under the definition's name)."""
    definitions = schema.get("definitions") or {}
    uses: dict[str, set[str]] = {}
    ref_objects: dict[str, set[str]] = {}

    def is_object(d: Any) -> bool:
        return isinstance(d, dict) and ("properties" in d or any(k in d for k in ("oneOf", "anyOf", "allOf")))

    for name, d in definitions.items():
        if is_object(d) or (isinstance(d, dict) and "patternProperties" in d):
            uses.setdefault(name, set()).add("definition " + name)
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key in ("properties", "patternProperties"):
                for name, sub in (node.get(key) or {}).items() if isinstance(node.get(key), dict) else ():
                    uses.setdefault(name, set()).add(json.dumps(sub, sort_keys=True))
                    ref = sub.get("$ref", "") if isinstance(sub, dict) else ""
                    if ref and is_object(definitions.get(ref.removeprefix("#/definitions/"))):
                        ref_objects.setdefault(name, set()).add(ref.removeprefix("#/definitions/"))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return {n for n, u in uses.items() if len(u) > 1}, ref_objects


def judge(schema: dict[str, Any], ours: dict[str, str]) -> dict[str, list[str]]:
    """Compare cfn-cli's docs of ``schema`` with ``ours``. Returns the differences by class:
    ``missing`` (a file, heading, link or field of theirs we lack with no known reason: must
    stay empty) and one list per known cfn-cli bug; also ``compared`` (what was checked)."""
    theirs = cfn_cli_docs(schema)
    found: dict[str, list[str]] = {"missing": [], "pattern-as-property": [], "ref-create-only": [],
                                   "ref-read-only": [], "nested-create-only": [], "one-of-required": [],
                                   "name-cache": [], "compared": []}
    patterns = _pattern_names(schema)
    escaped = {"\\" + p if p[:1] in "^*+.([{#" else p for p in patterns}
    ambiguous, ref_objects = _name_uses(schema)
    create_only = set(schema.get("createOnlyProperties") or ())
    read_only = set(schema.get("readOnlyProperties") or ())
    one_of = {name for name, d in (schema.get("definitions") or {}).items() if "oneOf" in d or "anyOf" in d}
    cached_links: set[str] = set()  # links in the Type of a block cfn-cli took from its name cache
    for path, text in theirs.items():
        found["compared"].append(path)
        mine = ours.get(path)
        if mine is None:
            found["missing"].append(f"{path}: no such file")
            continue
        my_headings = set(HEADING.findall(mine))
        for heading in HEADING.findall(text):
            found["compared"].append(f"{path}: {heading}")
            if heading in my_headings:
                continue
            bug = "pattern-as-property" if heading[5:] in escaped else "missing"
            found[bug].append(f"{path}: heading {heading!r}")
        my_blocks = blocks(mine)
        page = path.removeprefix("docs/").removesuffix(".md")
        for name, fields in blocks(text).items():
            if name in escaped:
                continue
            mine_fields = my_blocks.get(name, {})
            for field, value in fields.items():
                found["compared"].append(f"{path}: {name} {field}")
                if mine_fields.get(field) == value:
                    continue
                pointer = f"/properties/{name}"
                ours_value = mine_fields.get(field, "")
                if path == "docs/README.md" and name in ref_objects and pointer in read_only:
                    bug = "ref-read-only"
                elif field == "Update requires" and name in ref_objects and ("Replacement" in value) == any(
                        f"/properties/{d}" in create_only for d in ref_objects[name]):
                    bug = "ref-create-only"  # what the definition's name says, not the property's
                elif field == "Update requires" and path != "docs/README.md" and "No interruption" in value \
                        and ("Replacement" in ours_value or "depends on where" in ours_value):
                    bug = "nested-create-only"
                elif field == "Required" and value == "Yes" and ours_value == "No" \
                        and any(page == d.lower() for d in one_of):
                    bug = "one-of-required"
                elif name in ambiguous and field in ("Type", "Update requires"):
                    bug = "name-cache"
                    cached_links |= links(value)
                else:
                    bug = "missing"
                found[bug].append(f"{path}: {name} {field}: theirs {value!r}, ours {ours_value!r}")
    for path, text in theirs.items():
        mine = ours.get(path)
        my_links = links(mine or "")
        for link in links(text) if mine is not None else ():
            found["compared"].append(f"{path}: link {link}")
            if link in my_links or link.startswith(UPDATE_BEHAVIORS):
                continue  # the update-behaviour links are compared with their block's field above
            if link[1:] in {p.lower() for p in patterns} or link.removesuffix(".md").split("-")[-1] in patterns:
                bug = "pattern-as-property" if link.startswith("#") else "name-cache"
            elif link[1:] in {n.lower() for n in ref_objects if f"/properties/{n}" in read_only}:
                bug = "ref-read-only"  # a readOnly object property cfn-cli lists as settable
            elif link in cached_links:
                bug = "name-cache"
            else:
                bug = "missing"
            found[bug].append(f"{path}: link {link!r}")
    return found


def _conformance_cases() -> list[Any]:
    path = SHARED / "conformance" / "cfn" / "cases.json"
    if not path.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{path} not found (../shared is absent)"))]
    return [pytest.param(c, id=c["name"]) for c in json.loads(path.read_text())["cases"]]


@pytest.fixture(scope="module")
def vault() -> tuple[Model, ConversionPlan, dict[str, dict[str, Any]]]:
    return build([VAULT / "model"], VAULT_SETTINGS)


@pytest.fixture(scope="module")
def vault_docs(vault) -> dict[str, str]:
    return render_docs(*vault)["acme-vault-vault.json"]


# ---------------------------------------------------------------- cfn-cli as the judge


def _record(name: str, found: dict[str, list[str]]) -> None:
    for kind, items in found.items():
        for i, item in enumerate(items):
            record_result(f"docs judge ({kind})", f"{name}/{i}/{item}", kind != "missing")


def test_judge_vault(vault, vault_docs):
    schema = vault[2]["acme-vault-vault.json"]
    assert schema == json.loads((VAULT / "expected" / "acme-vault-vault.json").read_text())
    found = judge(schema, vault_docs)
    _record("vault", found)
    assert not found["missing"], found["missing"]
    assert found["ref-create-only"] and found["pattern-as-property"] and found["nested-create-only"]


@pytest.mark.parametrize("case", _conformance_cases())
def test_judge_conformance(case, tmp_path):
    base = SHARED / "conformance" / "cfn"
    config = dict(case["config"])
    model, plan, schemas = build([base / m for m in case["models"]], config)
    docs = render_docs(model, plan, schemas)
    assert set(docs) == set(schemas)
    for file, schema in schemas.items():
        found = judge(schema, docs[file])
        _record(f"{case['name']}/{file}", found)
        assert not found["missing"], found["missing"]


# ---------------------------------------------------------------- cfn-cli's bugs, one test each


def _block(text: str, name: str) -> str:
    parts = BLOCK.split(text)
    return next(body for n, body in zip(parts[1::2], parts[2::2], strict=True) if n == name)


def test_cfn_cli_bug_create_only_ref_property(vault, vault_docs):
    """``Encryption`` is createOnly, its schema a ``$ref``: cfn-cli looks it up as
    ``/properties/EncryptionSettings`` and says "No interruption"."""
    schema = vault[2]["acme-vault-vault.json"]
    assert "/properties/Encryption" in schema["createOnlyProperties"]
    assert schema["properties"]["Encryption"] == {"$ref": "#/definitions/EncryptionSettings"}
    theirs = _block(cfn_cli_docs(schema)["docs/README.md"], "Encryption")
    ours = _block(vault_docs["docs/README.md"], "Encryption")
    assert "_Update requires_: [No interruption]" in theirs
    assert "_Update requires_: [Replacement]" in ours
    assert "createOnly: not in `UpdateVault`'s input" in ours  # and why


def test_cfn_cli_bug_read_only_ref_property_listed_as_settable(vault):
    """The same lookup hides readOnly from an object property: cfn-cli lists it with the
    properties a template sets; we list it with the attributes ``Fn::GetAtt`` returns."""
    model, plan, schemas = vault
    schema = json.loads(json.dumps(schemas["acme-vault-vault.json"]))
    schema["readOnlyProperties"].append("/properties/Encryption")
    schema["createOnlyProperties"].remove("/properties/Encryption")
    schema["required"].remove("Encryption")
    theirs = cfn_cli_docs(schema)["docs/README.md"]
    ours = render_docs(model, plan, {"acme-vault-vault.json": schema})["acme-vault-vault.json"]["docs/README.md"]
    assert '"<a href="#encryption"' in theirs.split("### YAML")[0]
    assert '"<a href="#encryption"' not in ours.split("### YAML")[0]
    assert "#### Encryption" in ours.split("### Fn::GetAtt")[1]


def test_cfn_cli_bug_trailing_comma_when_last_property_is_read_only(vault):
    """cfn-cli puts the comma by ``loop.last`` over all properties, readOnly ones included, so
    its JSON syntax ends with a comma when the last property is readOnly."""
    model, plan, schemas = vault
    schema = json.loads(json.dumps(schemas["acme-vault-vault.json"]))
    schema["readOnlyProperties"].append("/properties/VaultName")
    schema["createOnlyProperties"].remove("/properties/VaultName")
    schema["required"].remove("VaultName")
    theirs = cfn_cli_docs(schema)["docs/README.md"]
    ours = render_docs(model, plan, {"acme-vault-vault.json": schema})["acme-vault-vault.json"]["docs/README.md"]
    assert re.search(r",\n    }\n}", theirs)
    assert not re.search(r",\n    }\n}", ours) and re.search(r"</i>\n    }\n}", ours)


def test_cfn_cli_bug_pattern_printed_as_property_name(vault, vault_docs):
    """A map's ``patternProperties`` pattern (``.+``) is a property heading and anchor in
    cfn-cli's page; ours says the keys match it."""
    theirs = cfn_cli_docs(vault[2]["acme-vault-vault.json"])["docs/labels.md"]
    ours = vault_docs["docs/labels.md"]
    assert "#### \\.+" in theirs and 'href="#.+"' in theirs
    assert "#### \\.+" not in ours and 'href="#.+"' not in ours
    assert "#### Keys matching <code>.+</code>" in ours and "_Value Type_: String" in ours


def test_cfn_cli_bug_sub_property_of_create_only_property(vault, vault_docs):
    """Changing ``Encryption.Algorithm`` replaces the vault (``Encryption`` is createOnly);
    cfn-cli's sub-page says "No interruption"."""
    theirs = _block(cfn_cli_docs(vault[2]["acme-vault-vault.json"])["docs/encryptionsettings.md"], "Algorithm")
    ours = _block(vault_docs["docs/encryptionsettings.md"], "Algorithm")
    assert "_Update requires_: [No interruption]" in theirs
    assert "_Update requires_: [Replacement]" in ours and "part of `Encryption`, which is createOnly" in ours


def test_cfn_cli_bug_one_of_members_all_required():
    """A union (``oneOf``) is merged by cfn-cli's flattener with every option's ``required``,
    so each member reads "Required: Yes" though exactly one may be set."""
    base = shared_cfn()
    model, plan, schemas = build([base / "test-service.smithy"],
                                 {"service": "smithy.example#TestService", "organizationName": "Smithy"})
    file = next(f for f, s in schemas.items() if "ConditionalProperty" in s.get("definitions", {}))
    theirs = cfn_cli_docs(schemas[file])["docs/conditionalproperty.md"]
    ours = render_docs(model, plan, schemas)[file]["docs/conditionalproperty.md"]
    assert "_Required_: Yes" in _block(theirs, "OptionOne") and "_Required_: Yes" in _block(theirs, "OptionTwo")
    assert "_Required_: No" in _block(ours, "OptionOne")
    assert "_Exactly one of_: [OptionOne](#optionone), [OptionTwo](#optiontwo)" in ours


def test_cfn_cli_bug_markdown_cached_by_name(vault):
    """cfn-cli hands the markdown of the map ``Labels`` to the next property named ``Labels``
    anywhere, here a string of ``Tag``: its page links a string to ``labels.md``."""
    model, plan, schemas = vault
    schema = json.loads(json.dumps(schemas["acme-vault-vault.json"]))
    schema["definitions"]["Tag"]["properties"]["Labels"] = {"type": "string"}
    theirs = _block(cfn_cli_docs(schema)["docs/tag.md"], "Labels")
    ours = _block(render_docs(model, plan, {"acme-vault-vault.json": schema})["acme-vault-vault.json"]["docs/tag.md"],
                  "Labels")
    assert '_Type_: <a href="labels.md">Labels</a>' in theirs
    assert "_Type_: String" in ours
    assert "Labels" in _name_uses(schema)[0]


def shared_cfn() -> Path:
    from conftest import shared_or_skip

    return shared_or_skip("conformance", "cfn")


# ---------------------------------------------------------------- what cfn-cli leaves out


def test_additions(vault_docs):
    readme = vault_docs["docs/README.md"]
    assert "_Write Only_: Yes: never returned" in _block(readme, "AdminPassword")
    assert '@cfnMutability("write")' in _block(readme, "AdminPassword")
    assert "_Deprecated_: Yes: Use storageClass instead. (since 2026-11-01)" in _block(readme, "Tier")
    assert "_Minimum_: <code>1</code>" in _block(readme, "RetentionDays")
    assert "_Maximum_: <code>3650</code>" in _block(readme, "RetentionDays")
    assert "_Insertion Order_: Yes" in _block(readme, "Tags")
    line = next(n for n, text in enumerate((REPO / "examples/vault/model/vault.smithy").read_text().splitlines(), 1)
                if text.strip() == "$vaultName")  # CreateVault's input holds it first
    assert f"(vault.smithy:{line})" in _block(readme, "VaultName")  # the why, located in the model
    assert "## Tagging" in readme and "_Tags updatable_: Yes" in readme
    assert "| update | `vault:TagResource`, `vault:UntagResource`, `vault:UpdateVault` |" in readme
    assert "The additional identifier is `VaultArn`." in readme


def test_constraints_cfn_cli_leaves_out(vault):
    """Defaults, numeric and item limits, uniqueItems and insertionOrder false, item
    constraints; a pattern is HTML-escaped inside ``<code>``; a property without them shows none."""
    model, plan, schemas = vault
    schema = json.loads(json.dumps(schemas["acme-vault-vault.json"]))
    schema["properties"]["RetentionDays"].update({"default": 30, "exclusiveMaximum": 3651, "multipleOf": 1})
    schema["properties"]["Tags"].update({"minItems": 1, "maxItems": 50, "uniqueItems": True, "insertionOrder": False})
    schema["properties"]["Description"] = {"type": "array", "items": {"type": "string", "pattern": "^<[a-z]+>&$"}}
    readme = render_docs(model, plan, {"acme-vault-vault.json": schema})["acme-vault-vault.json"]["docs/README.md"]
    retention = _block(readme, "RetentionDays")
    assert "_Default_: <code>30</code>" in retention and "_Exclusive Maximum_: <code>3651</code>" in retention
    assert "_Multiple Of_: <code>1</code>" in retention
    tags = _block(readme, "Tags")
    assert "_Minimum Items_: <code>1</code>" in tags and "_Maximum Items_: <code>50</code>" in tags
    assert "_Unique Items_: Yes" in tags and "_Insertion Order_: No" in tags
    assert "_Item Pattern_: <code>^&lt;[a-z]+&gt;&amp;$</code>" in _block(readme, "Description")
    assert "_Default_" not in _block(readme, "VaultName") and "_Insertion Order_" not in _block(readme, "VaultName")


def test_examples_become_template_snippets(vault):
    """An ``@examples`` entry of the create operation is shown as a template; one with an
    ``error`` is not."""
    model, plan, schemas = vault
    create = model.get("acme.vault#CreateVault")
    from smithy2cfn.model.traits import EXAMPLES

    saved = dict(create.traits)
    create.traits[EXAMPLES] = [
        {"title": "A small vault", "input": {"vaultName": "my-vault", "encryption": {"algorithm": "AES256"},
                                            "clientToken": "x"}},
        {"title": "Bad name", "input": {"vaultName": "!"}, "error": {"shapeId": "acme.vault#ValidationError"}},
    ]
    try:
        readme = render_docs(model, plan, schemas)["acme-vault-vault.json"]["docs/README.md"]
    finally:
        create.traits.clear()
        create.traits.update(saved)
    examples = readme.split("## Examples", 1)[1]
    assert "### A small vault" in examples and "Bad name" not in examples
    snippet = json.loads(examples.split("```json\n", 1)[1].split("```", 1)[0])
    assert snippet == {"Resources": {"MyVault": {"Type": "Acme::Vault::Vault", "Properties": {
        "Encryption": {"Algorithm": "AES256"}, "VaultName": "my-vault"}}}}
    assert "    Properties:\n      Encryption:\n        Algorithm: \"AES256\"" in examples
    # the example's own @examples (its second one is an error case: not shown)
    own = render_docs(model, plan, schemas)["acme-vault-vault.json"]["docs/README.md"].split("## Examples", 1)[1]
    assert "### Create a vault for a team's secrets" in own and "at least 3 characters" not in own


def test_nested_deprecation_from_the_member(vault):
    """A ``@deprecated`` member of a nested structure is said so on its page (the schema has
    no place for it); without the trait, nothing is said."""
    model, plan, schemas = vault
    member = model.get("acme.vault#EncryptionSettings").members["rotationDays"]
    from smithy2cfn.model.traits import DEPRECATED

    member.traits[DEPRECATED] = {"message": "Keys rotate on their own."}
    try:
        page = render_docs(model, plan, schemas)["acme-vault-vault.json"]["docs/encryptionsettings.md"]
    finally:
        del member.traits[DEPRECATED]
    assert "_Deprecated_: Yes: Keys rotate on their own." in _block(page, "RotationDays")
    assert "_Deprecated_" not in _block(page, "Algorithm")
    assert "_Deprecated_" not in render_docs(model, plan, schemas)["acme-vault-vault.json"]["docs/encryptionsettings.md"]


def test_recursive_and_broken_references(vault):
    """A definition that holds itself (directly, in a list and in a map), a ``$ref`` to a
    definition that does not exist, and a ``$ref`` that points at itself: pages are made once,
    nothing loops, cfn-cli's headings and links are still in ours."""
    model, plan, schemas = vault
    schema = json.loads(json.dumps(schemas["acme-vault-vault.json"]))
    schema["definitions"]["EncryptionSettings"]["properties"].update({
        "Next": {"$ref": "#/definitions/EncryptionSettings"},
        "Chain": {"type": "array", "items": {"$ref": "#/definitions/EncryptionSettings"}},
        "ByName": {"type": "object", "patternProperties": {"^[a-z]+$": {"$ref": "#/definitions/EncryptionSettings"}},
                   "additionalProperties": False},
    })
    ours = render_docs(model, plan, {"acme-vault-vault.json": schema})["acme-vault-vault.json"]
    assert ours == render_docs(model, plan, {"acme-vault-vault.json": schema})["acme-vault-vault.json"]
    page = ours["docs/encryptionsettings.md"]
    assert '_Type_: <a href="encryptionsettings.md">EncryptionSettings</a>' in _block(page, "Next")
    assert '_Type_: List of <a href="encryptionsettings.md">EncryptionSettings</a>' in _block(page, "Chain")
    assert "Keys matching <code>^[a-z]+$</code>" in ours["docs/encryptionsettings-byname.md"]
    assert _block(page, "Next").count("Replacement") == 1  # reached only through Encryption (createOnly)
    assert not judge(schema, ours)["missing"]
    broken = json.loads(json.dumps(schema))
    broken["properties"]["Description"] = {"$ref": "#/definitions/Nowhere"}
    broken["definitions"]["Loop"] = {"$ref": "#/definitions/Loop"}
    broken["properties"]["KmsKeyId"] = {"$ref": "#/definitions/Loop"}
    readme = render_docs(model, plan, {"acme-vault-vault.json": broken})["acme-vault-vault.json"]["docs/README.md"]
    assert "_Type_: Map" in _block(readme, "Description") and "_Type_: Map" in _block(readme, "KmsKeyId")


def test_page_names_are_plain_file_names(vault):
    """A map's page name holds its pattern (cfn-cli's naming): a ``/`` or control character
    in it becomes ``_``, and a very long one is cut, so that every page is a file of ``docs/``."""
    model, plan, schemas = vault
    schema = json.loads(json.dumps(schemas["acme-vault-vault.json"]))
    schema["definitions"]["LabelMap"]["patternProperties"] = {
        "^a/b$": {"type": "object", "patternProperties": {"x" * 300: {"type": "string"}}, "additionalProperties": False}}
    docs = render_docs(model, plan, {"acme-vault-vault.json": schema})["acme-vault-vault.json"]
    assert "docs/labels-^a_b$.md" in docs
    assert all(p.count("/") == 1 and len(p.encode()) < 220 for p in docs), sorted(docs)


def test_no_schema_no_docs(vault):
    model, plan, _ = vault
    assert render_docs(model, plan, {}) == {}


def test_deterministic(vault, vault_docs):
    assert render_docs(*vault)["acme-vault-vault.json"] == vault_docs


# ---------------------------------------------------------------- golden files


def test_vault_goldens(vault_docs, update_goldens):
    on_disk = {p.relative_to(GOLDENS).as_posix() for p in GOLDENS.rglob("*.md")} if GOLDENS.exists() else set()
    if not update_goldens:
        assert on_disk == set(vault_docs), "files differ: run pytest --update-goldens, then review"
    for path, text in vault_docs.items():
        assert text == read_golden(GOLDENS / path, text, update_goldens), path


# ---------------------------------------------------------------- the real AWS models


def test_docs_aws_all(aws_all_models):
    """Every resource of the AWS models with ``cfnResource`` gets docs, and cfn-cli's docs of
    each schema are in ours but for its known bugs (counted as ``docs judge aws-all (...)``)."""
    models = [p for p in aws_all_models if "aws.cloudformation#cfnResource" in p.read_text(encoding="utf-8")]
    if not models:
        pytest.skip("no AWS model with cfnResource in ../shared/conformance/aws-all")
    missing: list[str] = []
    resources = 0
    for path in models:
        model = load([path]).model
        diags = Diagnostics()
        plan = derive_plan(model, Settings.from_mapping({}, diags, source=Span("<test>")), diags)
        assert plan is not None, (path.name, diags.sorted())
        schemas = emit_schemas(model, plan, diags)
        assert not diags.has_errors, (path.name, diags.sorted())
        docs = render_docs(model, plan, schemas)
        assert set(docs) == set(schemas) == {r.file_name for r in plan.resources}, path.name
        resources += len(docs)
        for file, schema in schemas.items():
            assert "docs/README.md" in docs[file]
            found = judge(schema, docs[file])
            for kind, items in found.items():
                for i, item in enumerate(items):
                    record_result(f"docs judge aws-all ({kind})", f"{file}/{i}/{item}", kind != "missing")
            missing += [f"{file}: {m}" for m in found["missing"]]
    record_result("docs aws-all (resources with docs)", "all", True)
    assert len(models) == 37 and resources == 138, (len(models), resources)
    assert not missing, missing[:20]


# ---------------------------------------------------------------- hostile schemas

#: Values of the wrong type or shape put in random places of the vault schema.
ODD_VALUES = [None, 1, -1, 2.5, "x", "", True, [], {}, ["a"], {"type": "array"}, {"$ref": "#/definitions/Tag"},
              {"$ref": "#/definitions/Nope"}, {"$ref": 3}, {"type": ["string", "object"]}, {"type": 5},
              {"type": "array", "items": [{"type": "string"}]}, {"patternProperties": []}, {"properties": {"a": 1}},
              {"oneOf": [1, {"properties": 2}]}, {"enum": "abc"}, {"enum": [None, {"a": 1}]}, {"description": 7},
              {"type": "object", "patternProperties": {"": {"type": "string"}}}]


def test_malformed_schemas_do_not_raise(vault):
    """A schema bent out of the meta-schema's shape (as an extension's mapper might leave it)
    still gets docs: keywords of the wrong type are ignored, never a traceback."""
    import random

    model, plan, schemas = vault
    base = schemas["acme-vault-vault.json"]
    paths: list[tuple[Any, ...]] = []
    stack: list[tuple[tuple[Any, ...], Any]] = [((), base)]
    while stack:
        path, node = stack.pop()
        paths.append(path)
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        stack.extend((path + (k,), v) for k, v in items)
    rng = random.Random(18)
    for _ in range(400):
        schema = json.loads(json.dumps(base))
        for _ in range(rng.randint(1, 4)):
            path = rng.choice(paths[1:])
            node = schema
            try:
                for key in path[:-1]:
                    node = node[key]
                node[path[-1]] = json.loads(json.dumps(rng.choice(ODD_VALUES)))
            except (KeyError, IndexError, TypeError):
                pass  # an earlier change removed the path
        docs = render_docs(model, plan, {"acme-vault-vault.json": schema})["acme-vault-vault.json"]
        assert docs["docs/README.md"].startswith("# ")
