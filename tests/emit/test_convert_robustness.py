"""Conversion robustness: every shape type and feature as a ``cfnResource`` property.

Hand-written models under ``tests/emit/fixtures/convert/`` (and small ones inline) go through
load → validate → convert. For each: no ERROR diagnostic, deterministic output, and every
schema passes our meta-schema check (``emit.metaschema.check_schema``) *and* the
CloudFormation CLI's own loader (``rpdk.core.data_loaders.load_resource_spec``).

Where the reference's output for a feature is known from its source, it is asserted; each
assertion names the reference class (``smithy-jsonschema`` ``JsonSchemaShapeVisitor``,
``TimestampMapper``; ``smithy-aws-cloudformation`` ``CfnResourceIndex``, ``CfnConverter``).
Models the reference rejects must fail here with a coded diagnostic that has a location.
A bounded hypothesis test generates random resources (property types, mutability traits).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rpdk.core.data_loaders import load_resource_spec  # the CloudFormation CLI's own loader (test dependency)

from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.emit.metaschema import check_schema
from smithy2cfn.load import load_texts

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "convert"



def convert_texts(sources: list[tuple[str, str]], config: dict | None = None):
    """Load, validate and convert in-memory sources; returns ``(schemas, diagnostics)``."""
    diags = Diagnostics()
    model = load_texts(sources, diags)
    if diags.has_errors:
        return {}, diags.sorted()
    checked = api.validate(model, diags)
    if not checked.ok:
        return {}, checked.diagnostics
    # reference mode: these tests compare with the Java plugin's output
    converted = api.convert(model, {"compatibility": "reference", **(config or {})})
    return converted.schemas, Diagnostics(checked.diagnostics + converted.diagnostics).sorted()


def errors(diags) -> list:
    return [d for d in diags if d.is_error]


def assert_valid_schemas(schemas: dict[str, dict]) -> None:
    """Every schema passes our meta-schema check and the CloudFormation CLI loader."""
    assert schemas
    for name, schema in schemas.items():
        assert [d for d in check_schema(schema, name) if d.is_error] == [], name
        load_resource_spec(io.StringIO(json.dumps(schema)))


def build_fixture(name: str, config: dict | None = None) -> dict[str, dict]:
    """Convert one fixture model; assert a clean, deterministic, valid result."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    first, diags = convert_texts([(name, text)], config)
    assert errors(diags) == [], [d.format_text() for d in errors(diags)]
    assert_valid_schemas(first)
    again, _ = convert_texts([(name, text)], config)
    assert [api.render_schema(s) for s in first.values()] == [api.render_schema(s) for s in again.values()]
    assert list(first) == sorted(first)
    return first


# ------------------------------------------------------------------- every simple type

@pytest.fixture(scope="module")
def widget() -> dict:
    schemas = build_fixture("all_types.smithy", {"organizationName": "Ex"})
    assert list(schemas) == ["ex-allsvc-widget.json"]  # @cfnResource(name:) names the type
    return schemas["ex-allsvc-widget.json"]


def test_type_name_uses_cfn_resource_name(widget):
    assert widget["typeName"] == "Ex::AllSvc::Widget"


def test_simple_types(widget):
    # JsonSchemaShapeVisitor: blob/string/timestamp → string, boolean, integral types →
    # "number" unless useIntegerType, float/double/bigInteger/bigDecimal → number,
    # document → {} ("A document type becomes just `{}`").
    props = widget["properties"]
    assert props["ABlob"] == {"type": "string"}
    assert props["ABool"] == {"type": "boolean"}
    assert props["AString"] == {"type": "string"}
    for name in ("AByte", "AShort", "AnInt", "ALong", "AFloat", "ADouble", "ABigInt", "ABigDec"):
        assert props[name] == {"type": "number"}, name
    assert props["ADoc"] == {}


def test_use_integer_type():
    schemas = build_fixture("all_types.smithy", {"organizationName": "Ex", "useIntegerType": True})
    props = schemas["ex-allsvc-widget.json"]["properties"]
    for name in ("AByte", "AShort", "AnInt", "ALong"):
        assert props[name] == {"type": "integer"}, name
    # bigInteger stays a number (JsonSchemaShapeVisitor.bigIntegerShape).
    assert props["ABigInt"] == {"type": "number"}
    assert props["ADouble"] == {"type": "number"}


def test_timestamps(widget):
    # TimestampMapper: date-time → string + format; epoch-* → number without format;
    # http-date only sets type "string", so a member inherits the format its target
    # timestamp was given under the default date-time format.
    props = widget["properties"]
    assert props["ATimestamp"] == {"type": "string", "format": "date-time"}
    assert props["DtTs"] == {"type": "string", "format": "date-time"}
    assert props["EpochTs"] == {"type": "number"}
    assert props["HttpTs"] == {"type": "string", "format": "date-time"}


@pytest.mark.parametrize("fmt, expected", [
    ("date-time", {"type": "string", "format": "date-time"}),
    ("epoch-seconds", {"type": "number"}),
    ("http-date", {"type": "string"}),
])
def test_default_timestamp_format(fmt, expected):
    schemas = build_fixture("all_types.smithy", {"organizationName": "Ex", "defaultTimestampFormat": fmt})
    props = schemas["ex-allsvc-widget.json"]["properties"]
    assert props["ATimestamp"] == expected
    assert props["EpochTs"] == {"type": "number"}  # the member's own @timestampFormat wins


def test_enums(widget):
    defs = widget["definitions"]
    # enum / intEnum / 1.0 @enum strings are definitions reached by $ref
    # (DefaultRefStrategy.isInlined), with their values in declaration order.
    assert defs["Color"] == {"type": "string", "enum": ["RED", "green"]}
    assert defs["Level"] == {"type": "number", "enum": [1, 10]}
    assert defs["OldEnum"] == {"type": "string", "enum": ["a", "b"]}
    assert widget["properties"]["AnEnum"] == {"$ref": "#/definitions/Color"}


def test_lists_and_maps(widget):
    props, defs = widget["properties"], widget["definitions"]
    assert props["Uniq"] == {"type": "array", "items": {"type": "string"}, "uniqueItems": True}
    assert props["SparseList"] == {"type": "array", "items": {"type": "string"}}
    # @length on a member targeting a list: minItems/maxItems (updateBuilder).
    assert props["ShortList"]["minItems"] == 1 and props["ShortList"]["maxItems"] == 3
    # Maps: patternProperties keyed by the key's @pattern; @length → min/maxProperties.
    assert defs["PatternMap"]["patternProperties"] == {"^[a-z]+$": {"type": "number"}}
    assert defs["PatternMap"]["minProperties"] == 1 and defs["PatternMap"]["maxProperties"] == 10
    assert props["AMap"] == {"$ref": "#/definitions/PatternMap"}


def test_union_and_recursion(widget):
    defs = widget["definitions"]
    # Unions: oneOf of single-property objects titled by the property name.
    variants = defs["Choice"]["oneOf"]
    assert [v["title"] for v in variants] == ["S", "I", "N", "U"]
    assert all(v["required"] == [v["title"]] for v in variants)
    assert "Unit" in defs  # smithy.api#Unit is kept when a union targets it
    # Self and mutual recursion go through $refs.
    assert defs["Node"]["properties"]["Children"]["items"] == {"$ref": "#/definitions/Node"}
    assert defs["A"]["properties"]["B"] == {"$ref": "#/definitions/B"}
    assert defs["B"]["properties"]["A"] == {"$ref": "#/definitions/A"}


def test_constraints_and_docs(widget):
    props = widget["properties"]
    assert props["Constrained"] == {"type": "string", "maxLength": 5, "minLength": 2, "pattern": "^x"}
    assert props["Ranged"] == {"type": "number", "maximum": 10, "minimum": 1}
    assert props["RangedF"] == {"type": "number", "maximum": 9.5, "minimum": 0.5}
    assert props["BigMin"]["minimum"] == 1000000000000
    assert props["Documented"]["description"] == "Documented member"
    # @sensitive has no JSON Schema form.
    assert props["Secret"] == {"type": "string"}
    assert props["SensitiveStruct"] == {"$ref": "#/definitions/SensitiveStruct"}


def test_deprecated(widget):
    assert widget["properties"]["Old"]["description"] == "This shape is deprecated since 2020: use other"
    assert widget["deprecatedProperties"] == ["/properties/Old"]


def test_deprecated_without_message_ends_with_a_period():
    # DeprecatedTrait.getDeprecatedDescription: ": message" when there is one, else ".".
    text = SERVICE.format(members="a: String, @deprecated b: String, @deprecated(since: \"2.1\") c: String, "
                                  '@documentation("Docs") @deprecated(message: "use a") d: String', shapes="")
    schemas, diags = convert_texts([("m.smithy", text)], {"organizationName": "Ex"})
    assert errors(diags) == [], [d.format_text() for d in errors(diags)]
    (schema,) = schemas.values()
    props = schema["properties"]
    assert "description" not in props["A"]
    assert props["B"]["description"] == "This shape is deprecated."
    assert props["C"]["description"] == "This shape is deprecated since 2.1."
    assert props["D"]["description"] == "Docs\nThis shape is deprecated: use a"


def test_property_names(widget):
    props = widget["properties"]
    # CfnConverter names properties after the member (capitalized) or @cfnName; the
    # protocol traits @jsonName / @xmlName do not rename CloudFormation properties.
    assert "CustomName" in props and "CfnNamed" not in props
    assert "JsonNamed" in props and "RenamedJson" not in props and "renamedJson" not in props
    assert "XmlNamed" in props and "RenamedXml" not in props


def test_defaults(widget):
    props = widget["properties"]
    # createRef: an inlined target carries the member's default; a $ref target is wrapped
    # in allOf [ref, {default}].
    assert props["Defaulted"] == {"type": "number", "default": 5}
    assert props["DefaultedStr"] == {"type": "string", "default": "x"}
    assert props["DefaultedList"]["default"] == []
    assert props["DefaultedEnum"] == {"allOf": [{"$ref": "#/definitions/Color"}, {"default": "RED"}]}
    assert props["DefaultedMap"] == {"allOf": [{"$ref": "#/definitions/PlainMap"}, {"default": {}}]}


def test_media_type_dropped_with_warning():
    text = (FIXTURES / "all_types.smithy").read_text(encoding="utf-8")
    schemas, diags = convert_texts([("all_types.smithy", text)], {"organizationName": "Ex"})
    warned = [d for d in diags if d.code == "S4101"]
    assert warned and warned[0].span is not None and "JsonString" in warned[0].message
    assert schemas["ex-allsvc-widget.json"]["properties"]["MediaTyped"] == {"type": "string"}


def test_mutability_all_types(widget):
    # CfnResourceIndex: the identifier from the create output is read-only; a read-output
    # member with @cfnMutability("read") is read-only; members of the create, update and
    # read structures are plain properties.
    assert widget["readOnlyProperties"] == ["/properties/Created", "/properties/ThingId"]
    assert "createOnlyProperties" not in widget and "writeOnlyProperties" not in widget
    assert widget["primaryIdentifier"] == ["/properties/ThingId"]
    assert sorted(widget["handlers"]) == ["create", "delete", "list", "read", "update"]


# ------------------------------------------------------- resources and their lifecycles

@pytest.fixture(scope="module")
def nested() -> dict:
    return build_fixture("nested_lifecycles.smithy")


def test_nested_child_resources(nested):
    assert sorted(nested) == ["aws-nestsvc-child.json", "aws-nestsvc-grandchild.json",
                              "aws-nestsvc-nocreate.json", "aws-nestsvc-parent.json",
                              "aws-nestsvc-putter.json"]
    # CfnResourceIndex.setIdentifierMutabilities: parent identifiers are create-only, the
    # resource's own identifier read-only (no put) — at every nesting depth.
    gc = nested["aws-nestsvc-grandchild.json"]
    assert gc["primaryIdentifier"] == ["/properties/ChildId", "/properties/GcId", "/properties/ParentId"]
    assert gc["createOnlyProperties"] == ["/properties/ChildId", "/properties/ParentId"]
    assert "/properties/GcId" in gc["readOnlyProperties"]
    child = nested["aws-nestsvc-child.json"]
    assert "/properties/ParentId" in child["createOnlyProperties"]


def test_shared_structures(nested):
    # Two resources sharing a (recursive) structure each get their own copy of the definition.
    for name in ("aws-nestsvc-parent.json", "aws-nestsvc-child.json"):
        shared = nested[name]["definitions"]["Shared"]
        assert shared["properties"]["B"] == {"$ref": "#/definitions/Shared"}
    # A property named like a definition of another resource does not collide.
    assert nested["aws-nestsvc-child.json"]["properties"]["Config"] == {"type": "string"}
    assert nested["aws-nestsvc-parent.json"]["properties"]["Config"] == {"$ref": "#/definitions/Config"}


def test_put_lifecycle_and_no_create(nested):
    # getDefaultIdentifierMutabilities: with a put operation the identifier is given on
    # creation (create-only), not read-only.
    putter = nested["aws-nestsvc-putter.json"]
    assert putter["typeName"] == "AWS::NestSvc::Putter"
    assert putter["createOnlyProperties"] == ["/properties/PutId"]
    assert "readOnlyProperties" not in putter
    no_create = nested["aws-nestsvc-nocreate.json"]
    assert no_create["readOnlyProperties"] == ["/properties/NcId", "/properties/Status"]
    assert "create" not in no_create.get("handlers", {})


def test_idl_v1_set_and_boxed_primitives():
    schemas = build_fixture("idl_v1.smithy", {"organizationName": "Ex", "defaultTimestampFormat": "epoch-seconds"})
    item = schemas["ex-v1svc-item.json"]
    props = item["properties"]
    # A set is an array with uniqueItems: smithy-model SetShape always adds @uniqueItems.
    assert props["Tags"] == {"type": "array", "items": {"type": "string"}, "uniqueItems": True}
    # 1.0 primitives get their zero @default (ModelUpgrader); @box members get @default(null).
    assert props["Prim"] == {"type": "number", "default": 0}
    assert props["Flag"] == {"type": "boolean", "default": False}
    assert props["Count"] == {"type": "number"}
    assert props["When"] == {"type": "number"}  # defaultTimestampFormat epoch-seconds
    # additionalSchemas members become properties; @cfnAdditionalIdentifier is listed.
    assert "ExtraThing" in props and "Bytes" in props
    assert item["additionalIdentifiers"] == [["/properties/Arn"]]


def test_mixins_and_nested_collections():
    schemas = build_fixture("mixins_collections.smithy")
    res = schemas["aws-mixcfn-res.json"]
    assert res["description"] == "Mixed-in docs"  # documentation from the resource mixin
    assert res["primaryIdentifier"] == ["/properties/Arn"]
    assert res["additionalIdentifiers"] == [["/properties/ResId"]]
    props = res["properties"]
    assert "Ignored" not in props  # @cfnExcludeProperty
    assert props["Nested"]["items"]["items"] == {"type": "string", "minLength": 1}
    assert props["TsShape"] == {"type": "number"}  # @timestampFormat on the timestamp shape
    assert res["definitions"]["Titled"]["title"] == "A Titled Thing"
    # @cfnMutability: create → create-only + write-only; create-and-read → create-only;
    # write → write-only; read → read-only; full → none of them.
    assert {"/properties/Co", "/properties/Cr"} <= set(res["createOnlyProperties"])
    assert {"/properties/Co", "/properties/Wo"} <= set(res["writeOnlyProperties"])
    assert "/properties/Cr" not in res["writeOnlyProperties"]
    assert "/properties/Ro" in res["readOnlyProperties"]
    for key in ("createOnlyProperties", "writeOnlyProperties", "readOnlyProperties"):
        assert "/properties/Full" not in res.get(key, [])


# ------------------------------------------------------- models the reference rejects

SERVICE = """$version: "2.0"
namespace ex.t
use aws.cloudformation#cfnResource
service Svc {{ version: "1", resources: [Res] }}
@cfnResource
resource Res {{ identifiers: {{ id: String }}, read: GetRes }}
@readonly
operation GetRes {{ input := {{ @required id: String }}, output := {{ {members} }} }}
{shapes}
"""


def test_range_bound_not_a_number_is_located_error():
    # RangeTrait.Provider reads min/max with expectNumberNode: a string bound fails the model.
    text = SERVICE.format(members='v: V, @range(max: "3") w: Integer', shapes='@range(min: "0.5")\ninteger V')
    schemas, diags = convert_texts([("m.smithy", text)], {"organizationName": "Ex"})
    found = [d for d in diags if d.code == "S4103"]
    assert len(found) == 2
    assert all(d.is_error and d.span is not None and d.span.line for d in found)
    assert any("property 'w' of ex.t#Res" in d.message for d in found)
    assert schemas == {} or errors(diags)


def test_definition_name_conflict_is_located_error():
    # Dup and Dup_ are distinct in the service closure (no Service conflict) but both are
    # "Dup" once made alphanumeric.
    text = SERVICE.format(members="a: Dup, b: ex.u#Dup_", shapes="structure Dup { x: String }")
    other = '$version: "2.0"\nnamespace ex.u\nstructure Dup_ { y: String }\n'
    _, diags = convert_texts([("m.smithy", text), ("u.smithy", other)], {"organizationName": "Ex"})
    found = [d for d in diags if d.code == "S4102"]
    assert found and found[0].span is not None and found[0].span.path == "u.smithy"


def test_definition_names_are_not_deconflicted_without_a_cfn_resource():
    # As the reference (CfnConverter makes a JSON Schema converter per @cfnResource
    # resource): the same conflict as above, in a service with no such resource, is no
    # error; the conversion only says that there is nothing to convert.
    text = ('$version: "2.0"\nnamespace ex.t\nservice Svc { version: "1", operations: [Op] }\n'
            "operation Op { input := { a: Dup, b: ex.u#Dup_ } }\nstructure Dup { x: String }\n")
    other = '$version: "2.0"\nnamespace ex.u\nstructure Dup_ { y: String }\n'
    schemas, diags = convert_texts([("m.smithy", text), ("u.smithy", other)], {"organizationName": "Ex"})
    assert schemas == {} and not errors(diags), [d.format_text() for d in diags]
    assert "S4012" in {d.code for d in diags}


def test_resource_without_identifiers_or_properties():
    text = ('$version: "2.0"\nnamespace ex.t\nuse aws.cloudformation#cfnResource\n'
            'service Svc { version: "1", resources: [Empty] }\n@cfnResource\nresource Empty {}\n')
    _, diags = convert_texts([("m.smithy", text)], {"organizationName": "Ex"})
    codes = {d.code for d in errors(diags)}
    assert {"S4003", "S4009"} <= codes
    assert all(d.span is not None for d in errors(diags))


# ------------------------------------------------------------ random resource models

SIMPLE_TARGETS = ["String", "Integer", "Long", "Boolean", "Double", "Float", "Byte", "Short",
                  "BigInteger", "BigDecimal", "Blob", "Timestamp", "Document",
                  "Color", "Level", "Names", "Dict", "Pair", "Choice"]
MUTABILITY = [None, "full", "create", "create-and-read", "read", "write"]
PREAMBLE = """$version: "2.0"
namespace ex.gen
use aws.cloudformation#cfnResource
use aws.cloudformation#cfnMutability
use aws.cloudformation#cfnExcludeProperty
use aws.api#service

@service(sdkId: "Gen")
service GenSvc {{ version: "1", resources: [Gen] }}

@cfnResource
resource Gen {{
    identifiers: {{ genId: String }}
    {lifecycle}
}}

enum Color {{
    RED
    BLUE
}}
intEnum Level {{
    LOW = 1
    HIGH = 2
}}
list Names {{ member: String }}
map Dict {{ key: String, value: Pair }}
structure Pair {{ left: String, right: Pair }}
union Choice {{ a: String, b: Pair }}
"""


@st.composite
def resource_models(draw) -> str:
    names = draw(st.lists(st.from_regex(r"[a-z][a-zA-Z0-9]{0,8}", fullmatch=True), min_size=1,
                          max_size=6, unique_by=str.lower).filter(lambda ns: "genId" not in ns))
    members = []
    for name in names:
        trait = draw(st.sampled_from(MUTABILITY))
        prefix = f'@cfnMutability("{trait}") ' if trait else ""
        if draw(st.booleans()) and not trait:
            prefix += draw(st.sampled_from(["@required ", "@cfnExcludeProperty ", "/// doc\n    "]))
        members.append((name, prefix, draw(st.sampled_from(SIMPLE_TARGETS))))
    ops = draw(st.sets(st.sampled_from(["create", "update", "put", "list"])))
    if "put" in ops:
        ops.discard("create")
    lifecycle = ["read: GetGen"] + [f"{op}: {op.capitalize()}Gen" for op in sorted(ops)]
    body = "\n        ".join(f"{p}{n}: {t}" for n, p, t in members)
    text = PREAMBLE.format(lifecycle="\n    ".join(lifecycle))
    text += f"@readonly\noperation GetGen {{\n    input := {{ @required genId: String }}\n" \
            f"    output := {{\n        @required genId: String\n        {body}\n    }}\n}}\n"
    if "create" in ops:
        text += f"operation CreateGen {{\n    input := {{\n        {body}\n    }}\n" \
                "    output := { @required genId: String }\n}\n"
    if "put" in ops:
        text += f"@idempotent\noperation PutGen {{\n    input := {{\n        @required genId: String\n" \
                f"        {body}\n    }}\n}}\n"
    if "update" in ops:
        text += f"operation UpdateGen {{\n    input := {{\n        @required genId: String\n        {body}\n    }}\n}}\n"
    if "list" in ops:
        text += "@readonly\noperation ListGen {\n    output := { ids: Names }\n}\n"
    return text


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(resource_models(), st.booleans())
def test_random_resources_convert_to_valid_schemas(text, integer_type):
    config = {"useIntegerType": integer_type}
    schemas, diags = convert_texts([("gen.smithy", text)], config)
    assert errors(diags) == [], [d.format_text() for d in errors(diags)] + [text]
    assert list(schemas) == ["aws-gensvc-gen.json"]
    assert_valid_schemas(schemas)
    again, _ = convert_texts([("gen.smithy", text)], config)
    assert api.render_schema(again["aws-gensvc-gen.json"]) == api.render_schema(schemas["aws-gensvc-gen.json"])
