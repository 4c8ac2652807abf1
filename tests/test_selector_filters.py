"""Trait target checks run a filtering selector on the shape alone (issue 10: validators
work in proportion to the model): that must give what evaluating the selector over the
whole model gives, for every selector of every trait definition we ship."""

from __future__ import annotations

from conftest import REPO
from smithy2cfn import api
from smithy2cfn.validate.selector import SelectorEngine, SelectorError, _only_filters, parse_selector


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
    model, diags = api.load([REPO / "examples" / "vault" / "model"])
    assert not diags.has_errors
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
