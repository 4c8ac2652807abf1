"""Validators whose work grew faster than the model (issue 10) keep their findings.

``check_member_should_reference_resource`` used to walk up the relationship graph from
every candidate member; it now computes what lies above each node once
(``resources._BindingReach``). These tests compare it with the walk it replaced, on random
graphs of resources, operations and (possibly recursive) structures, and count the graph
look-ups it makes on a chain of nested resources, which grew with the cube of the depth.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from smithy2cfn import api
from smithy2cfn.model.relationships import NeighborIndex, RelationshipType, all_node_ids, relationships
from smithy2cfn.model.shapes import Member, Model, Shape, ShapeId
from smithy2cfn.model.traits import PRIVATE, REFERENCES, TRAIT
from smithy2cfn.validation.core import recursion, resources, targets
from smithy2cfn.validation.core import traits as trait_checks
from smithy2cfn.validation.core.constraints import check_private_access
from smithy2cfn.validation.core.resources import check_member_should_reference_resource
from smithy2cfn.validation.support import shapes as support_shapes

NS = "ex#"
STRING = "smithy.api#String"
NAMES = ("aId", "bId", "other")


def _naive(model: Model) -> list[tuple[str, list[str]]]:
    """The former algorithm (and the reference's): for each member named like an identifier
    of a resource and targeting the identifier's shape, walk the reverse directed
    relationships up from the member; the resources met, and their children, are bound."""
    by_identifier: dict[str, dict[str, set[str]]] = {}
    for shape in model.shapes.values():
        if shape.type == "resource":
            for name, target in shape.identifiers.items():
                by_identifier.setdefault(name, {}).setdefault(target, set()).add(shape.id)
    index = model.knowledge(NeighborIndex)
    out = []
    for shape in model.shapes.values():
        for member in shape.members.values():
            target = model.shapes.get(member.target)
            candidates = by_identifier.get(member.name, {}).get(member.target)
            if not candidates or target is None or target.type not in ("string", "enum"):
                continue
            ignore = set()
            for traits in (member.traits, shape.traits):
                ignore.update(r["resource"] for r in traits.get(REFERENCES, []))
            seen, stack = {member.id}, [member.id]
            while stack:
                for rel in index.reverse(stack.pop()):
                    if rel.type.directed and rel.shape not in seen:
                        seen.add(rel.shape)
                        stack.append(rel.shape)
                        shape_above = model.shapes.get(rel.shape)
                        if shape_above is not None and shape_above.type == "resource":
                            ignore.add(rel.shape)
                            ignore.update(model.shapes[rel.shape].resources)
            potential = candidates - ignore
            if potential:
                out.append((member.id, sorted(potential)))
    return out


def _found(model: Model) -> list[tuple[str, list[str]]]:
    out = []
    for d in check_member_should_reference_resource(model):
        listed = d.message.rpartition("[")[2].rstrip("]")
        out.append((d.shape_id, sorted(name.strip("` ") for name in listed.split(","))))
    return out


@st.composite
def _models(draw) -> Model:
    """Resources (identifiers named from :data:`NAMES`, child resources, bound operations),
    operations (input, output) and structures whose members target strings or other
    structures, recursion and containment cycles allowed; some ``@references``."""
    n_res = draw(st.integers(1, 5))
    n_ops = draw(st.integers(0, 6))
    n_str = draw(st.integers(1, 7))
    res = [f"{NS}R{i}" for i in range(n_res)]
    ops = [f"{NS}O{i}" for i in range(n_ops)]
    structs = [f"{NS}S{i}" for i in range(n_str)]
    strings = [STRING, f"{NS}Id"]
    shapes = {STRING: Shape(STRING, "string"), f"{NS}Id": Shape(f"{NS}Id", "string")}
    for sid in structs:
        shape = Shape(sid, "structure")
        for name in draw(st.lists(st.sampled_from(NAMES), max_size=3, unique=True)):
            target = draw(st.sampled_from(strings + structs))
            traits = {"smithy.api#documentation": "A member."} if draw(st.booleans()) else {}
            if draw(st.integers(0, 5)) == 0:
                traits[REFERENCES] = [{"resource": draw(st.sampled_from(res))}]
            shape.members[name] = Member(name, target, sid, traits=traits)
        if draw(st.integers(0, 5)) == 0:
            shape.traits[REFERENCES] = [{"resource": draw(st.sampled_from(res))}]
        if draw(st.booleans()):
            shape.traits["smithy.api#documentation"] = "A structure."
        shapes[sid] = shape
    for oid in ops:
        shapes[oid] = Shape(oid, "operation", input=draw(st.sampled_from(structs)),
                            output=draw(st.sampled_from(structs)))
    for rid in res:
        names = draw(st.lists(st.sampled_from(NAMES[:2]), max_size=2, unique=True))
        shapes[rid] = Shape(rid, "resource", identifiers={n: draw(st.sampled_from(strings)) for n in names},
                            resources=draw(st.lists(st.sampled_from(res), max_size=2, unique=True)),
                            operations=draw(st.lists(st.sampled_from(ops), max_size=3, unique=True)) if ops else [])
    if draw(st.booleans()):
        enum = shapes[f"{NS}E"] = Shape(f"{NS}E", "enum", mixins=draw(st.lists(st.sampled_from(structs), max_size=1)))
        enum.members["A"] = Member("A", "smithy.api#Unit", enum.id)
    return Model(shapes=shapes)


@settings(max_examples=100, deadline=None)
@given(_models())
def test_neighbor_index_lists_the_relationships_of_every_node(model: Model) -> None:
    """The index lists every node's relationships in one walk; they are what
    :func:`relationships` says of each, and the reverse ones are those pointing at a node,
    in model order."""
    index = NeighborIndex(model)
    nodes = list(all_node_ids(model))
    for node in nodes + ["ex#Missing", "ex#S0$missing"]:
        assert index.neighbors(node) == relationships(model, node)
    for node in nodes:
        expected = [rel for other in nodes for rel in relationships(model, other)
                    if rel.is_valid and rel.neighbor == node]
        assert index.reverse(node) == expected


@settings(max_examples=100, deadline=None)
@given(_models(), st.sets(st.sampled_from(["ex#S0", "ex#S1", "ex#O0", "ex#R0", "ex#E"])))
def test_shape_and_trait_indexes_answer_as_the_walks_they_replace(model: Model, prelude: set[str]) -> None:
    """The per-model lists of shapes by type and of shapes, members and user nodes by trait
    (validation/support/shapes.py, and Model.of_type / shapes_with_trait over ShapeLists) hold what a
    walk over the whole model finds, in the same order."""
    model.prelude_ids.update(prelude & set(model.shapes))
    shapes = list(model.shapes.values())
    nodes = [(n, t) for s in sorted((s for s in shapes if s.id not in model.prelude_ids), key=lambda s: s.id)
             for n, t in [(s.id, s.traits)] + [(m.id, m.traits) for m in s.members.values()]]
    assert list(support_shapes.user_nodes(model)) == nodes
    assert list(support_shapes.user_nodes_with_traits(model)) == [(n, t) for n, t in nodes if t]
    for kind in ("structure", "operation", "resource", "enum", "service"):
        assert support_shapes.shapes_of_type(model, kind) == [s for s in shapes if s.type == kind]
        assert model.of_type(kind, "string") == sorted((s for s in shapes if s.type in (kind, "string")),
                                                       key=lambda s: s.id)
    for trait in (REFERENCES, "smithy.api#documentation"):
        assert support_shapes.shapes_having(model, trait) == [s for s in shapes if trait in s.traits]
        assert model.shapes_with_trait(trait) == sorted((s for s in shapes if trait in s.traits), key=lambda s: s.id)
        members = [m for s in shapes for m in s.members.values() if trait in m.traits]
        assert support_shapes.members_having(model, trait) == members
        assert [s.id for s in support_shapes.shapes_with_members_having(model, trait)] == \
            list(dict.fromkeys(m.container for m in members))
        assert support_shapes.trait_applied(model, trait) == bool(support_shapes.shapes_having(model, trait) or members)
        assert list(support_shapes.user_nodes_having(model, trait)) == [(n, t) for n, t in nodes if trait in t]


@settings(max_examples=300, deadline=None)
@given(_models())
def test_member_should_reference_resource_matches_the_walk(model: Model) -> None:
    assert _found(model) == _naive(model)


def _child_chain(levels: int) -> str:
    """``R0 { resources: [R1] }``... ``levels`` deep, ``R<k>`` with identifiers ``id0``..
    ``id<k>``, a ``create`` binding the parents' identifiers and a ``read`` binding all of
    them (``benchmarks/bench_scaling.py``'s ``child-chain``)."""
    out = ['$version: "2"\nnamespace bench\nservice Svc { version: "1", resources: [R0] }\nstring Id\n']
    for k in range(levels):
        ids = ", ".join(f"id{j}: Id" for j in range(k + 1))
        child = f"resources: [R{k + 1}]" if k + 1 < levels else ""
        parent_ids = "".join(f"@required $id{j} " for j in range(k))
        out.append(f"resource R{k} {{ identifiers: {{ {ids} }}, properties: {{ name{k}: String }}\n"
                   f"    create: Create{k}, read: Get{k} {child} }}\n"
                   f"operation Create{k} {{ input := for R{k} {{ {parent_ids}$name{k} }}, output := {{}} }}\n"
                   f"@readonly operation Get{k} {{ input := for R{k} {{ {parent_ids}@required $id{k} }}\n"
                   f"    output := for R{k} {{ $name{k} }} }}\n")
    return "".join(out)


def _load(text: str, tmp_path: Path) -> Model:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "model.smithy").write_text(text, encoding="utf-8")
    loaded = api.load([str(tmp_path)])
    assert loaded.ok
    return loaded.model


def test_member_should_reference_resource_on_nested_resources(tmp_path: Path) -> None:
    """The benchmark's chain of nested resources: every member of a read input names the
    identifiers of all the resources above it; a member is bound to its own resource's
    hierarchy and warned about every deeper resource (not its own child)."""
    model = _load(_child_chain(12), tmp_path)
    found = _found(model)
    assert found == _naive(model)
    assert ("bench#Get0Input$id0", sorted(f"bench#R{k}" for k in range(2, 12))) in found
    assert not [m for m, _ in found if m.startswith("bench#Get11Input$")]


def _reverse_calls(depth: int, tmp_path: Path, monkeypatch) -> tuple[int, int]:
    model = _load(_child_chain(depth), tmp_path)
    calls = 0
    real = NeighborIndex.reverse

    def counting(self: NeighborIndex, shape_id: str):
        nonlocal calls
        calls += 1
        return real(self, shape_id)

    monkeypatch.setattr(NeighborIndex, "reverse", counting)
    list(resources.check_member_should_reference_resource(model))
    monkeypatch.setattr(NeighborIndex, "reverse", real)
    nodes = sum(1 + len(s.members) for s in model.shapes.values() if not model.is_prelude(s.id))
    return calls, nodes


def test_member_should_reference_resource_looks_up_each_node_a_bounded_number_of_times(tmp_path: Path,
                                                                                        monkeypatch) -> None:
    """The walk from every member looked up every node above it again (with a chain of
    ``d`` nested resources: ~d³/6 look-ups for ~d² nodes). Now a node's reverse
    relationships are read at most a few times whatever the depth."""
    small, small_nodes = _reverse_calls(20, tmp_path / "a", monkeypatch)
    large, large_nodes = _reverse_calls(40, tmp_path / "b", monkeypatch)
    assert small <= 4 * small_nodes
    assert large <= 4 * large_nodes
    assert large / small < 1.3 * large_nodes / small_nodes


def _naive_private_access(model: Model) -> list[tuple[str, str]]:
    """The former PrivateAccess check: every relationship and trait of every user node."""
    private = {s.id for s in model.shapes.values() if PRIVATE in s.traits}
    index = model.knowledge(NeighborIndex)
    out = []
    for shape in sorted((s for s in model.shapes.values() if s.id not in model.prelude_ids), key=lambda s: s.id):
        namespace = shape.namespace
        for node, traits in [(shape.id, shape.traits)] + [(m.id, m.traits) for m in shape.members.values()]:
            for rel in index.neighbors(node):
                if rel.type is not RelationshipType.MEMBER_CONTAINER and rel.is_valid and rel.neighbor in private \
                        and ShapeId.namespace(rel.neighbor) != namespace:
                    out.append((node, rel.neighbor))
            out.extend((node, tid) for tid in traits if tid in private and ShapeId.namespace(tid) != namespace)
    return out


@st.composite
def _private_models(draw) -> Model:
    """Structures and trait definitions in two namespaces, some ``@private``, mixins and
    members targeting structures of either namespace, traits applied across namespaces."""
    ids = [f"{ns}#{name}{i}" for ns in ("a", "b") for name in ("S", "T") for i in range(3)]
    shapes = {STRING: Shape(STRING, "string")}
    for sid in ids:
        is_trait = "#T" in sid
        shape = Shape(sid, "structure", traits={TRAIT: {}} if is_trait else {},
                      mixins=draw(st.lists(st.sampled_from(ids), max_size=1)))
        if draw(st.booleans()):
            shape.traits[PRIVATE] = {}
        shapes[sid] = shape
    for sid in ids:
        shape = shapes[sid]
        for tid in draw(st.lists(st.sampled_from([i for i in ids if "#T" in i]), max_size=2, unique=True)):
            shape.traits[tid] = {}
        for k in range(draw(st.integers(0, 3))):
            member = Member(f"m{k}", draw(st.sampled_from([*ids, STRING, "a#Missing"])), sid)
            for tid in draw(st.lists(st.sampled_from([i for i in ids if "#T" in i]), max_size=2, unique=True)):
                member.traits[tid] = {}
            shape.members[member.name] = member
    return Model(shapes=shapes, prelude_ids=set(draw(st.sets(st.sampled_from(ids), max_size=2))))


@settings(max_examples=200, deadline=None)
@given(_private_models())
def test_private_access_finds_what_the_walk_over_every_node_found(model: Model) -> None:
    """PrivateAccess now starts from the private shapes; it reports the same relationships
    and trait applications, in the same order."""
    found = [(d.shape_id, d.message.split("`")[1]) for d in check_private_access(model)]
    assert found == _naive_private_access(model)


@settings(max_examples=150, deadline=None)
@given(_models(), st.data())
def test_targets_check_passes_quiet_members_without_changing_its_findings(model: Model, data) -> None:
    """check_targets skips the relationships of members whose target yields nothing; with
    some targets made trait definitions, mixins, deprecated or services, and members
    pointed at operations and resources, it finds what looking at every member finds."""
    for sid, shape in model.shapes.items():
        for trait in data.draw(st.lists(st.sampled_from([TRAIT, "smithy.api#mixin", "smithy.api#deprecated"]),
                                        max_size=2, unique=True), label=sid):
            shape.traits[trait] = {}
        for member in shape.members.values():
            if data.draw(st.integers(0, 4), label=member.id) == 0:
                member.target = data.draw(st.sampled_from(sorted(model.shapes) + ["ex#Missing"]))
    everything = list(targets.check_targets(model))
    real = targets._quiet_member_target
    try:
        targets._quiet_member_target = lambda model, target: False
        expected = list(targets.check_targets(model))
    finally:
        targets._quiet_member_target = real
    assert [(d.shape_id, d.message) for d in everything] == [(d.shape_id, d.message) for d in expected]


@st.composite
def _recursive_models(draw) -> Model:
    """Structures, lists and unions pointing at each other, members required or not."""
    ids = [f"{NS}{kind}{i}" for kind in ("S", "L", "U") for i in range(4)]
    shapes = {STRING: Shape(STRING, "string")}
    for sid in ids:
        kind = {"S": "structure", "L": "list", "U": "union"}[sid[len(NS)]]
        shape = shapes[sid] = Shape(sid, kind)
        names = ["member"] if kind == "list" else [f"m{k}" for k in range(draw(st.integers(0, 3)))]
        for name in names:
            traits = {"smithy.api#required": {}} if kind == "structure" and draw(st.booleans()) else {}
            shape.members[name] = Member(name, draw(st.sampled_from([*ids, STRING])), sid, traits=traits)
    return Model(shapes=shapes, prelude_ids=set(draw(st.sets(st.sampled_from(ids), max_size=2))))


@settings(max_examples=200, deadline=None)
@given(_recursive_models())
def test_shape_recursion_walks_from_structures_with_required_members_only(model: Model) -> None:
    """Walking from the structures that have a required member finds the same cycles as
    walking from every structure (a structure without one has no edge to follow)."""
    index = model.knowledge(NeighborIndex)

    def through_required(node: str) -> list[str]:
        # the valid directed edges of a member, and of a structure to its required members
        rels = [r for r in index.neighbors(node) if r.is_valid and r.type.directed]
        if "$" in node:
            return [r.neighbor for r in rels]
        source = model.shapes.get(node)
        return [r.neighbor for r in rels
                if source is not None and source.type == "structure" and "$" in r.neighbor
                and (member := model.member(r.neighbor)) is not None and "smithy.api#required" in member.traits]

    structures = sorted(s.id for s in model.shapes.values() if s.type == "structure" and s.id not in model.prelude_ids)
    on_cycles = recursion._on_cycles(model, structures, through_required)
    expected = [(sid, path) for sid in structures if sid in on_cycles
                for path in recursion._cycles(sid, through_required, on_cycles[sid])]
    found = [d for d in recursion.check_shape_recursion(model) if "required members" in d.message]
    assert [(d.shape_id, d.message.split(": ", 1)[1].split(". A ")[0]) for d in found] == \
        [(sid, " > ".join(path)) for sid, path in expected]


TRAIT_TARGETS_MODEL = """$version: "2"
namespace ex

@trait(selector: "string")
structure onlyStrings {}

@trait(selector: "member > string")
string memberOfString

@mixin
@trait
structure mixinTrait {}

@trait(selector: "~~~ not a selector")
structure unreadable {}

@trait
structure anywhere {}

/// Documented.
@onlyStrings
@anywhere
string Good

@onlyStrings
@mixinTrait
structure Bad {
    /// Documented.
    @memberOfString("x")
    @unreadable
    name: String

    @onlyStrings
    @memberOfString("x")
    other: Good
}

@mixin
structure Mixed {
    @onlyStrings
    inherited: String
}

structure UsesMixin with [Mixed] {}
"""


def test_trait_targets_passes_nodes_whose_traits_have_nothing_to_check(tmp_path: Path) -> None:
    """Nodes carrying only traits without a selector (``@documentation``...) are passed;
    the findings are those of checking every node."""
    model = _load(TRAIT_TARGETS_MODEL, tmp_path)
    found = [(d.code, d.shape_id, d.message) for d in trait_checks.check_trait_targets(model)]
    real = trait_checks._nothing_to_check
    try:
        trait_checks._nothing_to_check = lambda model, trait_id: False
        expected = [(d.code, d.shape_id, d.message) for d in trait_checks.check_trait_targets(model)]
    finally:
        trait_checks._nothing_to_check = real
    assert found == expected
    assert {(code, shape) for code, shape, _ in found} >= {
        ("S3001", "ex#Bad"), ("S3001", "ex#Bad$other"), ("S3008", "ex#Bad$name")}


def test_selector_type_steps_match_the_nodes_of_their_types(tmp_path: Path) -> None:
    """A type step's nodes come from the node IDs grouped by type once; they are the nodes
    whose type the token allows (``member`` and ``number`` cover several types)."""
    from smithy2cfn.languages.selector import TYPE_TOKENS, SelectorEngine

    model = _load(TRAIT_TARGETS_MODEL, tmp_path)
    engine = SelectorEngine(model)
    types = {node: ("member" if "$" in node else model.shapes[node].type) for node in all_node_ids(model)}
    for token, allowed in TYPE_TOKENS.items():
        assert engine.nodes_of_type(token) == {node for node, kind in types.items() if kind in allowed}
    assert engine.nodes_of_type("number") >= {"smithy.api#Integer", "smithy.api#Float"}


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["A", "a", "Ab", "aB", "AB"]), st.lists(st.sampled_from(["m", "M", "n"]),
                                                                                      max_size=3, unique=True)),
                max_size=6))
def test_shape_id_conflicts_as_grouping_every_id(specs) -> None:
    """Shape IDs that differ only in case are reported as when every ID was grouped by its
    lower-cased form, in the order of each group's first ID."""
    from smithy2cfn.model.knowledge_ops import sorted_ids
    from smithy2cfn.validation.core.service import check_shape_id_conflicts

    shapes: dict[str, Shape] = {}
    for name, members in specs:
        sid = f"{NS}{name}"
        shapes[sid] = Shape(sid, "structure", members={m: Member(m, STRING, sid) for m in members})
    model = Model(shapes=shapes)
    groups: dict[str, list[str]] = {}
    for sid, shape in shapes.items():
        for node in [sid] + [m.id for m in shape.members.values()]:
            groups.setdefault(node.lower(), []).append(node)
    expected = [(sid, sorted_ids(o for o in ids if o != sid)) for ids in groups.values() if len(ids) > 1 for sid in ids]
    found = [(d.shape_id, d.message.rpartition("[")[2].rstrip("]")) for d in check_shape_id_conflicts(model)]
    assert found == [(sid, ", ".join(f"`{o}`" for o in others)) for sid, others in expected]
    assert any(len(ids) > 1 for ids in groups.values()) == bool(found)
