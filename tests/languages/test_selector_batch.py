"""``:test`` and ``:not`` run their leading filter steps over all nodes at once and follow
neighbor steps set-at-a-time (``SelectorEngine._passing``), type and ``[trait|x]`` steps are
answered from per-model indexes, and ``matches`` runs a selector of filters from the shape
alone: the result must be what running the selector from each node alone, reading each
node's type and traits, gives. Checked on every selector of the built-in trait definitions (and a few that
mix filters, neighbors and variables), over the vault example and a real AWS model.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO, shared_or_skip
from smithy2cfn.api import load
from smithy2cfn.languages.selector import (
    TYPE_TOKENS,
    AttrStep,
    SelectorEngine,
    SelectorError,
    TypeStep,
    _typed_members_then_filters,
    parse_selector,
)
from smithy2cfn.model.traits import TRAIT

EXTRA = [
    ":test(member > string)",
    ":not(member > :is(list, map))",
    "structure > member :test([trait|required], > string)",
    ":is(:test(string), :not(member)) [trait|documentation]",
    ":test(> :test(string, number))",
    "member :not(:in(structure > member [trait|required]))",
    "service $ops(~> operation) ~> structure :test(${ops})",
    ":test(operation -[input]-> structure > member [trait|httpLabel])",
    ":test(< structure)",
    ":not(< :is(list, map))",
    "member :test(< structure [trait|input])",
    ":test(<-[input, output]- operation [trait|readonly])",
    "operation :not(-[input]-> structure > member [trait|required])",
    ":test([trait|smithy.api#documentation], > :test(< service))",
    "[trait|required] :test(> string)",
    ":test(~> [trait|error])",
    "structure > member",
    ":is(enum, intEnum) > member",
    "map > member",
    "union > member",
    "collection > member",
    "aggregateType > member",
    ":is(list, map) > member",
    ":is(structure, operation) > member",
    "operation > member",
    "* > member",
    "member > member",
]

#: Every kind of shape whose members ``T > member`` reaches, mixins (with members of their own
#: and inherited), a map, a set and an intEnum among them: what
#: ``SelectorEngine._typed_members`` lists from the shapes' members must be what following
#: their relationships gives.
MEMBER_CONTAINERS_MODEL = """$version: "2"
namespace example.members

@mixin
structure Base {
    @required
    id: String
    tag: String
}

structure Thing with [Base] {
    name: String
    tag: String = "x"
}

@mixin
structure Empty {}

structure Plain with [Empty] {}

union Choice {
    a: String
    b: Thing
}

enum Color {
    RED
    GREEN
}

intEnum Level {
    LOW = 1
    HIGH = 2
}

list Things {
    member: Thing
}

@uniqueItems
list Names {
    member: String
}

map ThingsByName {
    key: String
    value: Thing
}

operation DoThing {
    input := with [Base] {
        extra: Integer
    }
    output: Thing
}
"""


class PerNodeEngine(SelectorEngine):
    """The plain rule: a node passes ``:test(X)`` when ``X`` run from it alone yields a shape."""

    def _passing(self, sel, nodes, variables):
        return {n for n in nodes if self.yields_any(sel, n, variables)}

    def step(self, step, nodes, variables):
        if isinstance(step, TypeStep) and step.name != "*":
            return {n for n in nodes if self.node_type(n) in TYPE_TOKENS[step.name]}
        if isinstance(step, AttrStep):
            return {n for n in nodes if self._attr_matches(step, n, variables)}
        return super().step(step, nodes, variables)

    def matches(self, sel, node):
        return node in self.select(sel)

    def _typed_members(self, sel):
        return None  # (``T > member`` followed relationship by relationship, as any selector)


#: ``T > member`` and then filters (``SelectorEngine.matching`` runs the filters on the asked
#: members that ``T > member`` yields: ``_typed_members_then_filters``), and three it must not
#: take that way (a move after the filters, a variable, a type whose ``>`` leads elsewhere too).
MEMBERS_THEN_FILTERS = [
    "structure > member :test(> :is(simpleType, list, map))",
    "structure > member [trait|required] :test(> :test(string, number, boolean, timestamp))",
    "structure > member :not([trait|required])",
    ":is(enum, intEnum) > member [trait|enumValue]",
    "map > member :test(> string)",
    ":is(list, map) > member :not(:test(> structure))",
]
NOT_MEMBERS_THEN_FILTERS = [
    "structure > member [trait|required] > string",
    "structure > member $m(*) :test(${m})",
    "operation > member [trait|required]",
]


def _selectors(model) -> list[str]:
    found = {value["selector"] for shape in model.shapes.values()
             if isinstance(value := shape.traits.get(TRAIT), dict) and isinstance(value.get("selector"), str)}
    return sorted(found) + EXTRA


def _models() -> list[Path]:
    return [REPO / "examples" / "vault" / "model" / "vault.smithy"]


def test_member_selectors_equal_following_the_relationships(tmp_path: Path) -> None:
    path = tmp_path / "members.smithy"
    path.write_text(MEMBER_CONTAINERS_MODEL, encoding="utf-8")
    loaded = load([path])
    assert loaded.ok, loaded.diagnostics
    model = loaded.model
    plain = PerNodeEngine(model)
    shortcuts = 0
    for text in EXTRA[-11:]:
        sel = parse_selector(text)
        engine = SelectorEngine(model)
        shortcuts += engine._typed_members(sel) is not None
        expected = plain.select(sel)
        assert engine.select(sel) == expected, text
        nodes = engine.all_nodes()
        assert SelectorEngine(model).matching(sel, nodes) == expected, text
        assert {n for n in nodes if SelectorEngine(model).matches(sel, n)} == expected, text
    assert shortcuts == 7  # (not `operation`, `*` or `member`: their `>` leads elsewhere too)
    assert "example.members#Thing$id" in plain.select(parse_selector("structure > member"))


def test_members_then_filters_equal_following_the_relationships(tmp_path: Path) -> None:
    path = tmp_path / "members.smithy"
    path.write_text(MEMBER_CONTAINERS_MODEL, encoding="utf-8")
    model = load([path]).model
    plain = PerNodeEngine(model)
    for text in MEMBERS_THEN_FILTERS + NOT_MEMBERS_THEN_FILTERS:
        sel = parse_selector(text)
        assert (_typed_members_then_filters(sel) is not None) is (text in MEMBERS_THEN_FILTERS), text
        expected = plain.select(sel)
        nodes = SelectorEngine(model).all_nodes()
        members = {n for n in nodes if "$" in n}
        some = {n for n in members if "Thing" in n or "Color" in n}  # (a part of the members, and shapes)
        for asked in (nodes, members, some | {"example.members#Thing"}):
            assert SelectorEngine(model).matching(sel, asked) == expected & set(asked), text
    assert plain.select(parse_selector(MEMBERS_THEN_FILTERS[2])) >= {"example.members#Thing$name"}


@pytest.mark.parametrize("path", _models(), ids=lambda p: p.name)
def test_batched_test_and_not_equal_per_node_evaluation(path: Path) -> None:
    model = load([path]).model
    checked = 0
    for text in _selectors(model):
        try:
            sel = parse_selector(text)
        except SelectorError:
            continue
        assert SelectorEngine(model).select(sel) == PerNodeEngine(model).select(sel), text
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("path", _models(), ids=lambda p: p.name)
def test_matches_equals_membership_in_the_whole_model_selection(path: Path) -> None:
    model = load([path]).model
    plain = PerNodeEngine(model)
    checked = 0
    for text in _selectors(model):
        try:
            sel = parse_selector(text)
        except SelectorError:
            continue
        engine = SelectorEngine(model)  # fresh: no selection cached before matches is asked
        assert {n for n in engine.all_nodes() if engine.matches(sel, n)} == plain.select(sel), text
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("path", _models(), ids=lambda p: p.name)
def test_matching_a_set_equals_membership_in_the_whole_model_selection(path: Path) -> None:
    """``matching`` (set at a time: filters over the nodes, moves walked back from them,
    ``:is(A, B) rest`` as ``A rest`` and ``B rest``) keeps the nodes the whole-model selection
    holds, for every node of the model and for a part of them."""
    model = load([path]).model
    plain = PerNodeEngine(model)
    checked = 0
    for text in _selectors(model) + [":is(simpleType, structure > member :test(> string))",
                                     ":is(list, structure) > member"]:
        try:
            sel = parse_selector(text)
        except SelectorError:
            continue
        expected = plain.select(sel)
        engine = SelectorEngine(model)
        nodes = engine.all_nodes()
        assert engine.matching(sel, nodes[::3]) == expected & set(nodes[::3]), text
        assert SelectorEngine(model).matching(sel, nodes) == expected & set(nodes), text
        checked += 1
    assert checked > 50


def test_batched_evaluation_on_an_aws_model() -> None:
    models = sorted(shared_or_skip("conformance", "aws", "models").glob("*.json"), key=lambda p: p.stat().st_size)
    if not models:
        pytest.skip("no AWS model")
    test_batched_test_and_not_equal_per_node_evaluation(models[0])  # the smallest: a few seconds
