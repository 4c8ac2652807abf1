"""Trait target checks run a filtering selector on the shape alone, and a selector that
moves a few steps from the shapes a few steps back (issue 10: validators work in
proportion to the model): that must give what evaluating the selector over the whole model
gives, for every selector of every trait definition we ship."""

from __future__ import annotations

from conftest import REPO, SHARED
from smithy2cfn import api
from smithy2cfn.languages.selector import (
    SelectorEngine,
    SelectorError,
    _neighbor_moves,
    _only_filters,
    parse_selector,
)


def _selectors(model) -> dict[str, object]:
    found = {}
    for shape in model.shapes.values():
        trait = shape.traits.get("smithy.api#trait")
        if isinstance(trait, dict) and isinstance(trait.get("selector"), str):
            try:
                found[trait["selector"]] = parse_selector(trait["selector"])
            except SelectorError:
                continue
    return found


def test_filtering_selectors_match_as_over_the_whole_model():
    loaded = api.load([REPO / "examples" / "vault" / "model"])
    assert loaded.ok
    model = loaded.model
    engine = SelectorEngine(model)
    selectors = _selectors(model)
    filtering = {text: sel for text, sel in selectors.items() if _only_filters(sel)}
    assert len(filtering) >= 20 and len(selectors) - len(filtering) >= 10  # both kinds are exercised
    nodes = engine.all_nodes()
    for text, sel in filtering.items():
        whole = engine.select(sel)
        alone = {n for n in nodes if engine.matches(sel, n)}
        assert alone == whole, text


def test_what_counts_as_a_filter():
    assert _only_filters(parse_selector("structure"))
    assert _only_filters(parse_selector("[trait|error]"))
    assert _only_filters(parse_selector(":test(string, member > string)"))
    assert _only_filters(parse_selector(":not(:test(service, operation))"))
    assert _only_filters(parse_selector(":is(structure, union)"))
    assert not _only_filters(parse_selector("structure > member"))
    assert not _only_filters(parse_selector(":is(structure, structure > member)"))
    assert not _only_filters(parse_selector("operation -[input]-> structure"))
    assert not _only_filters(parse_selector(":root(service)"))


def test_every_selector_matches_as_over_the_whole_model():
    paths = [REPO / "examples" / "vault" / "model"]
    for extra in ("conformance/cfn/integ/complex-resource.smithy", "conformance/aws/models/transfer-2018-11-05.json"):
        if (SHARED / extra).exists():
            paths.append(SHARED / extra)
    for path in paths:
        loaded = api.load([path])
        assert loaded.ok, path
        model = loaded.model
        selectors = _selectors(model)
        moving = [sel for sel in selectors.values() if not _only_filters(sel) and _neighbor_moves(sel) is not None]
        assert len(moving) >= 10
        alone_engine, whole_engine = SelectorEngine(model), SelectorEngine(model)
        nodes = whole_engine.all_nodes()
        for text, sel in selectors.items():
            whole = whole_engine.select(sel)
            alone = {n for n in nodes if alone_engine.matches(sel, n)}
            assert alone == whole, (path, text)
            alone_engine._select_cache.clear()  # each node through the per-shape path


def test_what_moves_a_few_steps():
    assert [m.kind for m in _neighbor_moves(parse_selector("structure > member"))] == [">"]
    assert [m.kind for m in _neighbor_moves(parse_selector("operation -[input]-> structure > member"))] == [
        "fwd", ">"]
    assert _neighbor_moves(parse_selector("service ~> operation")) is None
    assert _neighbor_moves(parse_selector("resource -[bound]-> service")) is None
    assert _neighbor_moves(parse_selector(":is(structure, structure > member)")) is None
    assert _neighbor_moves(parse_selector("structure")) == []
