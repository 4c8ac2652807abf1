"""Registry-ready schemas (the default ``compatibility``): each correction CloudFormation's
registry, ``cfn validate`` and the contract tests need, announced by a located note — one
model that triggers it and one that does not — and ``reference`` mode leaving them all out."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostics, Severity
from smithy2cfn.emit.converter import MAX_SCHEMA_BYTES, schema_size
from smithy2cfn.emit.text import first_sentence, plain_text
from smithy2cfn.load import load_texts

HEAD = """$version: "2"
namespace ex
use aws.api#taggable
use aws.api#tagEnabled
use aws.cloudformation#cfnResource
"""


def model(resource_traits: str = "", *, tag_ops: bool = True, update: bool = True, tags_in_create: bool = True,
          extra_props: str = "", doc: str = "A thing.", child: bool = False) -> str:
    ops = "operations: [TagResource, UntagResource, ListTagsForResource]" if tag_ops else ""
    # the reference's TagEnabledService: a @tagEnabled service needs a @taggable resource
    enabled = "@tagEnabled" if "taggable" in resource_traits and tag_ops else ""
    text = HEAD + f"""
{enabled}
service Svc {{ version: "1", resources: [Thing], {ops} }}

/// {doc}
@cfnResource
{resource_traits}
resource Thing {{
    identifiers: {{ id: String }}
    properties: {{ name: String, tags: TagList, values: Values, ids: Ids{extra_props} }}
    create: CreateThing
    read: GetThing
    {"update: UpdateThing" if update else ""}
    delete: DeleteThing
    list: ListThings
    {"resources: [Part]" if child else ""}
}}

list TagList {{ member: Tag }}
structure Tag {{ @required Key: String, @required Value: String }}
list Values {{ member: String }}
@uniqueItems
list Ids {{ member: String }}

operation CreateThing {{
    input := {{ name: String, values: Values, ids: Ids {"tags: TagList" if tags_in_create else ""} }}
    output := {{ @required id: String }}
}}
@readonly
operation GetThing {{
    input := {{ @required id: String }}
    output := {{ @required id: String, name: String, tags: TagList, values: Values, ids: Ids }}
}}
operation UpdateThing {{ input := {{ @required id: String, name: String }} }}
@idempotent
operation DeleteThing {{ input := {{ @required id: String }} }}
@readonly
operation ListThings {{ output := {{ ids: Ids }} }}

operation TagResource {{ input := {{ @required resourceArn: String, @required tags: TagList }} }}
operation UntagResource {{ input := {{ @required resourceArn: String, @required tagKeys: Values }} }}
@readonly
operation ListTagsForResource {{ input := {{ @required resourceArn: String }}, output := {{ tags: TagList }} }}
"""
    if child:
        text += """
@cfnResource
resource Part {
    identifiers: { id: String, partId: String }
    read: GetPart
    list: ListParts
}
@readonly
operation GetPart { input := { @required id: String, @required partId: String }, output := { size: Integer } }
@readonly
operation ListParts { input := { @required id: String }, output := { parts: Values } }
"""
    return text


def build(text: str, **settings_):
    diags = Diagnostics()
    m = load_texts([("m.smithy", text)], diags)
    checked = api.validate(m, diags)
    assert checked.ok, [d.format_text() for d in checked.diagnostics if d.is_error]
    converted = api.convert(m, {"organizationName": "Ex", **settings_})
    diags.extend(converted.diagnostics)
    return converted.schemas, diags


def thing(schemas) -> dict:
    return schemas["ex-svc-thing.json"]


def codes(diags, code: str) -> list:
    return [d for d in diags if d.code == code]


# service-wide tag operations need the resource's ARN (the reference's TaggableResource)
TAGGABLE = '@taggable(property: "tags")\n@aws.api#arn(template: "thing/{id}")'


def test_a_resource_without_taggable_says_so():
    schemas, diags = build(model())
    assert thing(schemas)["tagging"] == {"taggable": False}
    (note,) = codes(diags, "S4301")
    assert note.severity == Severity.NOTE and note.span.line == 13  # the resource
    schemas, diags = build(model(TAGGABLE))
    assert thing(schemas)["tagging"]["taggable"] is True and not codes(diags, "S4301")
    schemas, _ = build(model(), compatibility="reference")
    assert "tagging" not in thing(schemas)


def test_a_tags_property_without_taggable_is_a_warning():
    _, diags = build(model())
    (warning,) = codes(diags, "S4302")
    assert warning.severity == Severity.WARNING and "@aws.api#taggable" in warning.hint
    _, diags = build(model(TAGGABLE))
    assert not codes(diags, "S4302")


def test_tags_are_updatable_only_with_an_update_handler_and_tag_operations():
    schemas, diags = build(model(TAGGABLE, update=False))
    assert thing(schemas)["tagging"]["tagUpdatable"] is False
    assert "update handler" in codes(diags, "S4303")[0].message
    schemas, diags = build(model(TAGGABLE))
    assert thing(schemas)["tagging"]["tagUpdatable"] is True and not codes(diags, "S4303")
    schemas, _ = build(model(TAGGABLE, update=False), compatibility="reference")
    assert thing(schemas)["tagging"]["tagUpdatable"] is True  # the Java plugin's value


def test_the_tag_property_is_neither_create_nor_write_only_with_tag_operations():
    schemas, diags = build(model(TAGGABLE))
    schema = thing(schemas)
    assert "/properties/Tags" not in schema.get("createOnlyProperties", [])
    assert "/properties/Tags" not in schema.get("writeOnlyProperties", [])
    (note,) = codes(diags, "S4304")
    assert note.span.line == 12  # the @taggable trait
    # without tag operations Smithy's TaggableResource is a DANGER, suppressed here
    schemas, diags = build(model('@suppress(["TaggableResource"])\n' + TAGGABLE, tag_ops=False))
    assert "/properties/Tags" in thing(schemas)["createOnlyProperties"] and not codes(diags, "S4304")
    schemas, _ = build(model(TAGGABLE), compatibility="reference")
    assert "/properties/Tags" in thing(schemas)["createOnlyProperties"]


def test_handlers_get_the_tagging_permissions_they_need():
    schemas, diags = build(model(TAGGABLE, tags_in_create=False))
    handlers = thing(schemas)["handlers"]
    assert "svc:ListTagsForResource" in handlers["read"]["permissions"]
    assert {"svc:TagResource", "svc:UntagResource"} <= set(handlers["update"]["permissions"])
    assert "svc:TagResource" in handlers["create"]["permissions"]  # tags applied after creation
    assert {d.message.split(" handler")[0] for d in codes(diags, "S4305")} == {"the create", "the read", "the update"}
    schemas, _ = build(model(TAGGABLE))  # tags in the create request: create needs no TagResource
    assert "svc:TagResource" not in thing(schemas)["handlers"]["create"]["permissions"]
    schemas, _ = build(model(TAGGABLE), compatibility="reference")
    assert thing(schemas)["handlers"]["read"]["permissions"] == ["svc:GetThing"]


def test_html_descriptions_become_plain_text():
    schemas, diags = build(model(doc="<p>A <code>thing</code> &amp; more.</p>"))
    assert thing(schemas)["description"] == "A thing & more."
    (note,) = codes(diags, "S4306")
    assert note.span.line == 10  # the documentation comment of the shape
    _, diags = build(model())
    assert not codes(diags, "S4306")
    schemas, _ = build(model(doc="<p>A <code>thing</code> &amp; more.</p>"), compatibility="reference")
    assert thing(schemas)["description"] == "<p>A <code>thing</code> &amp; more.</p>"


def test_arrays_say_whether_their_order_matters():
    schemas, diags = build(model())
    props = thing(schemas)["properties"]
    assert props["Values"]["insertionOrder"] is True and props["Ids"]["insertionOrder"] is False
    assert codes(diags, "S4309")
    schemas, _ = build(model(), compatibility="reference")
    assert "insertionOrder" not in thing(schemas)["properties"]["Values"]


def test_a_child_list_handler_has_a_handler_schema():
    schemas, diags = build(model(child=True))
    part = schemas["ex-svc-part.json"]
    assert part["handlers"]["list"]["handlerSchema"] == {
        "properties": {"Id": {"$ref": "resource-schema.json#/properties/Id"}}, "required": ["Id"]}
    assert codes(diags, "S4310")
    assert "handlerSchema" not in thing(schemas)["handlers"]["list"]  # its list needs no parameter
    schemas, _ = build(model(child=True), compatibility="reference")
    assert "handlerSchema" not in schemas["ex-svc-part.json"]["handlers"]["list"]


def test_a_schema_over_60_kib_has_its_descriptions_shortened():
    long_doc = "First sentence. " + "More words follow here. " * 4000
    schemas, diags = build(model(doc=long_doc))
    assert thing(schemas)["description"] == "First sentence."
    assert schema_size(thing(schemas)) <= MAX_SCHEMA_BYTES and codes(diags, "S4307")
    _, diags = build(model())
    assert not codes(diags, "S4307")


def test_a_schema_over_60_kib_even_shortened_is_an_error():
    props = "".join(f", p{i}: String" for i in range(3000))
    schemas, diags = build(model(extra_props=props).replace(
        "input := { name: String, values: Values, ids: Ids tags: TagList }",
        "input := { name: String, values: Values, ids: Ids tags: TagList " + props.replace(",", "") + " }"))
    (error,) = codes(diags, "S4308")
    assert error.is_error and "ex-svc-thing.json" not in schemas


def test_the_example_schema_is_registry_ready_and_quiet():
    from conftest import REPO

    result = api.build_from_config(REPO / "examples" / "vault" / "smithy-build.json", out_dir=None)
    assert result.exit_code == 0
    assert [d for d in result.diagnostics if d.severity >= Severity.WARNING] == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("<>/&;#ap x.\n\t") + ["<p>", "</p>", "<li>", "&amp;", "&#65;"]),
                max_size=40).map("".join))
def test_plain_text_never_raises_and_is_stable(text):
    once = plain_text(text)
    assert "\t" not in once and not once.startswith(" ")
    if "<" not in once and "&" not in once:
        assert plain_text(once) == once
    assert isinstance(first_sentence(once), str)


def test_plain_text_examples():
    assert plain_text("<ul><li>one</li><li>two &lt;b&gt;</li></ul>") == "- one\n- two <b>"
    assert plain_text("Line  one\n\n   line two") == "Line one\nline two"
    assert first_sentence("Hi there. Then more.") == "Hi there."
    assert json.loads(json.dumps(plain_text("<p>\u00a0x</p>"))) == "x"
