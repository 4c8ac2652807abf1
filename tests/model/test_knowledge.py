"""The model's relationships and knowledge indexes (model/relationships.py, model/knowledge.py)."""

from __future__ import annotations

from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.load import load_texts
from smithy2cfn.model.knowledge import (
    BottomUpIndex,
    IdentifierBindingIndex,
    PropertyBindingIndex,
    TopDownIndex,
)
from smithy2cfn.model.relationships import (
    MEMBERS_ONLY_TYPES,
    RELATIONSHIP_TYPES,
    NeighborIndex,
    RelationshipType,
    Walker,
    relationships,
)

MODEL = """$version: "2"
namespace ex

service Svc { version: "1", resources: [Parent], operations: [Ping] }

resource Parent {
    identifiers: { parentId: String }
    read: GetParent
    resources: [Child]
}

resource Child {
    identifiers: { parentId: String, childId: String }
    properties: { name: String }
    create: CreateChild
    read: GetChild
}

@readonly
operation Ping {}

@readonly
operation GetParent { input := { @required parentId: String } }

operation CreateChild {
    input := { @required parentId: String, name: String }
    output := { @required parentId: String, @required childId: String }
}

@readonly
operation GetChild {
    input := {
        @required parentId: String
        @required childId: String
    }
    output := { name: String, @required childId: String }
}
"""


def _model(text: str = MODEL):
    diags = Diagnostics()
    model = load_texts([("m.smithy", text)], diags)
    assert not diags.has_errors, [d.message for d in diags]
    return model


def test_relationships_follow_the_reference_order():
    model = _model()
    rels = [(r.type, r.neighbor) for r in relationships(model, "ex#Child")]
    assert rels == [
        (RelationshipType.IDENTIFIER, "smithy.api#String"),
        (RelationshipType.IDENTIFIER, "smithy.api#String"),
        (RelationshipType.PROPERTY, "smithy.api#String"),
        (RelationshipType.CREATE, "ex#CreateChild"),
        (RelationshipType.READ, "ex#GetChild"),
    ]
    member = [(r.type, r.neighbor) for r in relationships(model, "ex#GetChildInput$childId")]
    assert member == [(RelationshipType.MEMBER_CONTAINER, "ex#GetChildInput"),
                      (RelationshipType.MEMBER_TARGET, "smithy.api#String")]
    # Unit input/output give no relationship; unknown IDs none at all.
    assert relationships(model, "ex#Ping") == []
    assert relationships(model, "ex#Nope") == []


def test_shapes_of_the_members_only_types_point_at_their_own_members_only():
    """``MEMBERS_ONLY_TYPES`` (what ``check_targets`` passes by): a shape of such a type
    without mixins has no relationship but one to each of its members; a map (its key is
    checked) and a shape with a mixin are not such shapes."""
    model = _model(MODEL + """
@mixin
structure Base { tag: String }
structure Mixed with [Base] { other: String }
list Names { member: String }
union Choice { a: String, b: Integer }
enum Color { RED, GREEN }
intEnum Level { LOW = 1 }
map Tags { key: String, value: String }
""")
    checked = 0
    for shape in model.shapes.values():
        rels = relationships(model, shape.id)
        only_members = [r.neighbor for r in rels] == [m.id for m in shape.members.values()]
        if shape.type in MEMBERS_ONLY_TYPES and not shape.mixins:
            assert only_members, shape.id
            checked += 1
    assert checked > 10
    assert "map" not in MEMBERS_ONLY_TYPES
    assert [r.type for r in relationships(model, "ex#Mixed")][0] is RelationshipType.MIXIN


def test_reverse_relationships_and_walker():
    model = _model()
    index = model.knowledge(NeighborIndex)
    assert index is model.knowledge(NeighborIndex)  # built once per model
    assert {r.shape for r in index.reverse("ex#GetChild")} == {"ex#Child"}
    walked = Walker(model).walk("ex#Svc", lambda r: r.type is RelationshipType.RESOURCE)
    assert walked == ["ex#Svc", "ex#Parent", "ex#Child"]


def test_top_down_and_bottom_up():
    model = _model()
    top = model.knowledge(TopDownIndex)
    assert top.contained_resources("ex#Svc") == ["ex#Child", "ex#Parent"]
    assert top.contained_operations("ex#Parent") == ["ex#CreateChild", "ex#GetChild", "ex#GetParent"]
    bottom = model.knowledge(BottomUpIndex)
    assert bottom.all_parents("ex#Svc", "ex#GetChild") == ("ex#Child", "ex#Parent", "ex#Svc")
    assert bottom.resource_binding("ex#Svc", "ex#Child") == "ex#Parent"
    assert bottom.resource_binding("ex#Svc", "ex#Parent") is None
    assert bottom.resource_binding("ex#Svc", "ex#Ping") is None


def test_explicit_identifier_binding_wins_over_an_implicit_one():
    """The reference's rule (IdentifierBindingIndex: explicit put, implicit putIfAbsent):
    in ``{ @required @resourceIdentifier("id") other: String, @required id: String }`` the
    identifier ``id`` is bound to ``other``, whatever the member order."""
    for members in ('@required @resourceIdentifier("id") other: String\n        @required id: String',
                    '@required id: String\n        @required @resourceIdentifier("id") other: String'):
        model = _model(f"""$version: "2"
namespace ex
resource R {{ identifiers: {{ id: String }}, read: Get }}
@readonly
operation Get {{
    input := {{
        {members}
    }}
}}
""")
        index = model.knowledge(IdentifierBindingIndex)
        assert index.input_bindings("ex#R", "ex#Get") == {"id": "other"}
        assert index.binding_type("ex#R", "ex#Get") == "instance"


def test_property_bindings():
    model = _model()
    props = model.knowledge(PropertyBindingIndex)
    child_input = model.shapes["ex#CreateChildInput"].members
    assert props.property_name(child_input["name"].id) == "name"
    assert not props.requires_property(child_input["parentId"])  # binds an identifier
    assert model.knowledge(IdentifierBindingIndex).binding_type("ex#Child", "ex#CreateChild") == "collection"


def test_relationship_types_sharing_a_label_stay_distinct():
    """MAP_KEY, LIST_MEMBER... all have the selector label "member" but are different types
    (an enum with equal values would make them aliases of one another)."""
    model = _model('$version: "2"\nnamespace ex\nmap M { key: String, value: Integer }\nlist L { member: String }\n')
    assert [r.type for r in relationships(model, "ex#M")] == [RelationshipType.MAP_KEY, RelationshipType.MAP_VALUE]
    assert [r.type for r in relationships(model, "ex#L")] == [RelationshipType.LIST_MEMBER]
    assert len(set(RELATIONSHIP_TYPES)) == len({t.name for t in RELATIONSHIP_TYPES}) == 25
    assert [t.value for t in RELATIONSHIP_TYPES] == list(range(25))
    assert all(getattr(RelationshipType, t.name) is t for t in RELATIONSHIP_TYPES)
    assert {t.label for t in RELATIONSHIP_TYPES if t.is_member_binding} == {"member"}


def test_a_model_no_one_holds_is_freed_with_its_indexes_without_the_cyclic_collector():
    """An index refers to its model's fields through a view that holds the model weakly
    (``shapes._view``): no cycle, so dropping a validated model frees it at once (the cyclic
    garbage collector, off here, is not needed); an index someone still holds keeps working
    after its model is gone, and asks for other indexes of its own."""
    import gc
    import weakref

    from smithy2cfn.validation import validate_model

    enabled = gc.isenabled()
    gc.disable()
    try:
        model = _model()
        validate_model(model)
        assert len(model._knowledge) >= 5
        gone = weakref.ref(model)
        index = model.knowledge(NeighborIndex)
        assert index.model.knowledge(TopDownIndex) is model.knowledge(TopDownIndex)
        del model
        assert gone() is None
        assert [r.neighbor for r in index.neighbors("ex#Svc")] == ["ex#Ping", "ex#Parent"]
        top_down = index.model.knowledge(TopDownIndex)  # (the model gone: the view's own)
        assert "ex#Child" in top_down.contained_resources("ex#Svc")
    finally:
        if enabled:
            gc.enable()


def test_an_index_sees_the_fields_the_model_has_when_it_is_built():
    """A model whose fields are replaced before its next index is built (as the loader does
    while it assembles) gives that index its new fields."""
    model = _model()
    model.knowledge(NeighborIndex)
    model.shapes = {k: v for k, v in model.shapes.items() if k != "ex#Ping"}
    assert "ex#Ping" not in model.knowledge(TopDownIndex).model.shapes
