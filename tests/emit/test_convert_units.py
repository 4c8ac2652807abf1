"""Unit tests of the converter on hand-built models: mutability derivation (aws-cloudformation.rst
"Property mutability"), configuration, and the places where we deliberately differ from the
reference (dropped keywords, schemaDocumentExtensions, naming conflicts, no identifiers)."""

from __future__ import annotations

from smithy2cfn.derive import CfnResourceIndex, Mutability, derive_plan
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.emit import CfnMapper, emit_schemas
from smithy2cfn.emit.metaschema import check_schema
from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.settings import Settings

NS = "smithy.example"


def convert(model: Model, settings: Settings, diags: Diagnostics, mappers=()) -> dict:
    """The converter alone: plan and emit, no lint, no extensions (``smithy2cfn.convert``
    adds those)."""
    plan = derive_plan(model, settings, diags)
    return {} if plan is None else emit_schemas(model, plan, diags, list(mappers))


def sid(name: str) -> str:
    return f"{NS}#{name}"


def struct(model: Model, name: str, members: dict[str, tuple[str, dict]], type_: str = "structure") -> None:
    shape = Shape(sid(name), type_)
    for mname, (target, traits) in members.items():
        shape.members[mname] = Member(mname, target, shape.id, dict(traits))
    model.shapes[shape.id] = shape


def base_model() -> Model:
    """The "Property mutability" example of aws-cloudformation.rst."""
    m = Model()
    for t in ("String", "Boolean", "Timestamp"):
        m.shapes[f"smithy.api#{t}"] = Shape(f"smithy.api#{t}", t.lower())
        m.prelude_ids.add(f"smithy.api#{t}")
    s = "smithy.api#String"
    req = {"smithy.api#required": {}}
    struct(m, "ComplexProperty", {"anotherProperty": (s, {})})
    cp = sid("ComplexProperty")
    struct(m, "CreateFooRequest", {"createProperty": (cp, {}), "mutableProperty": (cp, {}),
                                   "writeProperty": (cp, {}), "createWriteProperty": (cp, {})})
    struct(m, "CreateFooResponse", {"fooId": (s, {})})
    struct(m, "GetFooRequest", {"fooId": (s, req)})
    struct(m, "GetFooResponse", {"fooId": (s, {}), "createProperty": (cp, {}), "mutableProperty": (cp, {}),
                                 "readProperty": (cp, {})})
    struct(m, "UpdateFooRequest", {"fooId": (s, req), "mutableProperty": (cp, {}), "writeProperty": (cp, {})})
    for op, inp, out in (("CreateFoo", "CreateFooRequest", "CreateFooResponse"),
                         ("GetFoo", "GetFooRequest", "GetFooResponse"),
                         ("UpdateFoo", "UpdateFooRequest", None)):
        m.shapes[sid(op)] = Shape(sid(op), "operation", input=sid(inp), output=sid(out) if out else None)
    m.shapes[sid("Foo")] = Shape(sid("Foo"), "resource", traits={"aws.cloudformation#cfnResource": {}},
                                 identifiers={"fooId": s}, create=sid("CreateFoo"), read=sid("GetFoo"),
                                 update=sid("UpdateFoo"))
    m.shapes[sid("FooService")] = Shape(sid("FooService"), "service", version="2020-01-01",
                                        resources=[sid("Foo")])
    return m


def mutabilities(model: Model, resource: str = "Foo") -> dict[str, Mutability]:
    cfn = CfnResourceIndex(model).get(sid(resource))
    assert cfn is not None
    return {n: p.mutability for n, p in cfn.properties.items()}


def test_spec_mutability_example() -> None:
    cfn = CfnResourceIndex(base_model()).get(sid("Foo"))
    assert cfn.read_only() == ["fooId", "readProperty"]
    assert cfn.create_only() == ["createProperty", "createWriteProperty"]
    assert cfn.write_only() == ["createWriteProperty", "writeProperty"]
    muts = mutabilities(base_model())
    assert muts["mutableProperty"] == Mutability.CREATE | Mutability.READ | Mutability.WRITE


def test_cfn_mutability_overrides_and_locks() -> None:
    m = base_model()
    m.shapes[sid("CreateFooRequest")].members["writeProperty"].traits["aws.cloudformation#cfnMutability"] = "read"
    muts = mutabilities(m)
    # create input sets READ explicitly; the later update input cannot add WRITE.
    assert muts["writeProperty"] == Mutability.READ


def test_put_lifecycle_makes_identifiers_create_and_read() -> None:
    m = base_model()
    foo = m.shapes[sid("Foo")]
    foo.put, foo.create, foo.update = sid("UpdateFoo"), None, None
    muts = mutabilities(m)
    assert muts["fooId"] == Mutability.CREATE | Mutability.READ
    assert muts["mutableProperty"] == Mutability.CREATE | Mutability.READ | Mutability.WRITE
    assert muts["writeProperty"] == Mutability.CREATE | Mutability.WRITE


def test_exclude_property_and_additional_schemas() -> None:
    m = base_model()
    m.shapes[sid("GetFooResponse")].members["readProperty"].traits["aws.cloudformation#cfnExcludeProperty"] = {}
    struct(m, "Extra", {"added": ("smithy.api#String", {}),
                        "alias": ("smithy.api#String", {"aws.cloudformation#cfnAdditionalIdentifier": {}})})
    m.shapes[sid("Foo")].traits["aws.cloudformation#cfnResource"] = {"additionalSchemas": [sid("Extra")]}
    cfn = CfnResourceIndex(m).get(sid("Foo"))
    assert "readProperty" not in cfn.properties
    assert cfn.properties["added"].mutability == Mutability.NONE
    assert cfn.additional_identifiers == [["alias"]]


def test_inherited_identifier_is_create_and_read() -> None:
    m = base_model()
    struct(m, "GetBarRequest", {"fooId": ("smithy.api#String", {"smithy.api#required": {}}),
                                "barId": ("smithy.api#String", {"smithy.api#required": {}})})
    m.shapes[sid("GetBar")] = Shape(sid("GetBar"), "operation", input=sid("GetBarRequest"))
    m.shapes[sid("Bar")] = Shape(sid("Bar"), "resource", traits={"aws.cloudformation#cfnResource": {}},
                                 identifiers={"fooId": "smithy.api#String", "barId": "smithy.api#String"},
                                 read=sid("GetBar"))
    m.shapes[sid("Foo")].resources = [sid("Bar")]
    muts = mutabilities(m, "Bar")
    assert muts["fooId"] == Mutability.CREATE | Mutability.READ
    assert muts["barId"] == Mutability.READ


def test_convert_writes_reference_shape() -> None:
    diags = Diagnostics()
    out = convert(base_model(), Settings.from_mapping({"organizationName": "Smithy"}, diags), diags)
    assert list(out) == ["smithy-fooservice-foo.json"]
    schema = out["smithy-fooservice-foo.json"]
    assert list(schema)[:3] == ["typeName", "description", "definitions"]
    assert schema["typeName"] == "Smithy::FooService::Foo"
    assert schema["primaryIdentifier"] == ["/properties/FooId"]
    assert schema["properties"]["CreateProperty"] == {"$ref": "#/definitions/ComplexProperty"}
    assert schema["definitions"]["ComplexProperty"]["additionalProperties"] is False
    assert schema["handlers"]["create"] == {"permissions": ["fooservice:CreateFoo"]}
    assert list(schema)[-1] == "additionalProperties"
    assert check_schema(schema, "foo.json") == []
    assert not diags.has_errors


def test_config_diagnostics() -> None:
    diags = Diagnostics()
    cfg = Settings.from_mapping({"service": 3, "bogus": True, "useIntegerType": True,
                                 "defaultTimestampFormat": "nope"}, diags)
    codes = sorted(d.code for d in diags)
    assert codes == ["S5001", "S5001", "S5002"]
    assert cfg.use_integer_type is True and cfg.service is None
    assert cfg.default_timestamp_format == "date-time"


def test_missing_organization_and_service() -> None:
    diags = Diagnostics()
    assert convert(base_model(), Settings(), diags) == {}
    assert [d.code for d in diags] == ["S4006"]
    diags = Diagnostics()
    assert convert(base_model(), Settings(service="a.b#Nope", organization_name="X"), diags) == {}
    assert [d.code for d in diags] == ["S4001"]


def test_media_type_dropped_with_warning() -> None:
    m = base_model()
    m.shapes[sid("Payload")] = Shape(sid("Payload"), "blob", traits={"smithy.api#mediaType": "image/png"})
    m.shapes[sid("CreateFooRequest")].members["payload"] = Member("payload", sid("Payload"),
                                                                  sid("CreateFooRequest"))
    diags = Diagnostics()
    schema = convert(m, Settings(organization_name="Smithy"), diags)["smithy-fooservice-foo.json"]
    assert schema["properties"]["Payload"] == {"type": "string"}
    assert any(d.code == "S4101" and d.shape_id == sid("Payload") for d in diags)


def test_schema_document_extensions_and_json_add() -> None:
    diags = Diagnostics()
    cfg = Settings.from_mapping({"organizationName": "Smithy", "schemaDocumentExtensions": {"x-foo": 1},
                                 "jsonAdd": {sid("Foo"): {"/sourceUrl": "https://example.com",
                                                          "/definitions/New/type": "string"}}}, diags)
    schema = convert(base_model(), cfg, diags)["smithy-fooservice-foo.json"]
    assert schema["x-foo"] == 1
    assert schema["sourceUrl"] == "https://example.com"
    assert schema["definitions"]["New"] == {"type": "string"}
    assert any("x-foo" in d.message for d in check_schema(schema, "f.json"))


def test_resource_without_identifiers_is_an_error() -> None:
    m = base_model()
    foo = m.shapes[sid("Foo")]
    foo.identifiers = {}
    diags = Diagnostics()
    convert(m, Settings(organization_name="Smithy"), diags)
    assert any(d.code == "S4003" and d.shape_id == sid("Foo") for d in diags)


def test_user_shape_named_like_trait_package_shape() -> None:
    m = base_model()
    m.shapes["aws.api#ComplexProperty"] = Shape("aws.api#ComplexProperty", "structure")
    m.prelude_ids.add("aws.api#ComplexProperty")
    diags = Diagnostics()
    schema = convert(m, Settings(organization_name="Smithy"), diags)["smithy-fooservice-foo.json"]
    assert "ComplexProperty" in schema["definitions"]
    assert not diags.has_errors


def test_custom_mapper_runs_in_chain() -> None:
    class Stamp(CfnMapper):
        order = 200

        def update_node(self, context, node):
            node["description"] = "stamped " + context.resource.name
            return node

    diags = Diagnostics()
    out = convert(base_model(), Settings(organization_name="Smithy"), diags, mappers=[Stamp()])
    assert out["smithy-fooservice-foo.json"]["description"] == "stamped Foo"


MIXIN_APPLY_MODEL = '''$version: "2"
namespace smithy.example
use aws.cloudformation#cfnResource
service Svc { version: "1", resources: [Foo] }
@cfnResource
resource Foo { identifiers: { fooId: String }, read: GetFoo }
@readonly
operation GetFoo { input := { @required fooId: String }, output: GetFooOutput }
@mixin
structure Common { name: String }
structure GetFooOutput with [Common] { fooId: String, tag: Tag }
apply GetFooOutput$name @documentation("refined")
structure Tag { key: String }
'''


def test_mixin_member_refined_with_apply() -> None:
    """The reference fails on this model; the spec implies the applied documentation."""
    from smithy2cfn.load import load_texts

    diags = Diagnostics()
    model = load_texts([("m.smithy", MIXIN_APPLY_MODEL)], diags)
    schema = convert(model, Settings(organization_name="Smithy"), diags)["smithy-svc-foo.json"]
    assert schema["properties"]["Name"] == {"type": "string", "description": "refined"}
    assert schema["definitions"]["Tag"]["properties"] == {"Key": {"type": "string"}}
    assert not diags.has_errors
    assert check_schema(schema, "smithy-svc-foo.json") == []
