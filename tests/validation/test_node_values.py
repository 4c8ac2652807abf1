"""``NodeChecker.passes_plainly`` (:mod:`smithy2cfn.validation.support.node_values`): the trait
values that ``check_trait_values`` skips are exactly ones the checker finds nothing in."""

from __future__ import annotations

import pytest

from smithy2cfn import api
from smithy2cfn.validation.support.node_values import NodeChecker

MODEL = """$version: "2.0"
namespace ex
@trait string plain
@trait @length(max: 3) string short
@trait @pattern("^a+$") string as
@trait @idRef(failWhenMissing: true) string ref
@trait enum choice { A }
@trait integer count
@plain("x") @short("toolong") @as("bbb") @ref("Nope") @choice("B") @count(1)
string S
"""


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    path = tmp_path_factory.mktemp("m") / "m.smithy"
    path.write_text(MODEL, encoding="utf-8")
    return api.load([path]).model


@pytest.mark.parametrize(("trait", "value", "plain"), [
    ("ex#plain", "x", True), ("ex#plain", 1, False), ("ex#short", "toolong", False), ("ex#as", "bbb", False),
    ("ex#ref", "Nope", False), ("ex#choice", "B", False), ("ex#count", "1", False), ("ex#missing", "x", False),
    ("smithy.api#documentation", "docs", True),
])
def test_passes_plainly_only_where_the_checker_finds_nothing(model, trait, value, plain):
    assert NodeChecker.passes_plainly(model, value, trait) is plain
    checker = NodeChecker(model, "ex")
    checker.check(value, trait, {}, "")
    if plain:
        assert checker.problems == []
    elif trait not in ("ex#missing",):
        assert checker.problems  # (each of these values breaks its trait's constraint or type)


def test_skipped_values_still_report_the_others(model):
    found = [d.message.split("`")[1] for d in api.validate(model).diagnostics
             if d.shape_id == "ex#S" and d.code == "S3003"]
    assert sorted(found) == ["ex#as", "ex#choice", "ex#ref", "ex#short"]
