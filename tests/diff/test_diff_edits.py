"""Property-based: random edits of a model (members and operations added and removed, traits,
constraints, enum values, cfnName, cfnMutability, lifecycle operations, identifiers), both
versions built, and resource-schema-guard-rail as the judge: every stateful finding guard-rail
makes on the pair, in either order, is a ``diff`` finding with the same ID, located in a model;
identical models give no finding; the verdict follows the findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from diff_models import BASE, SETTINGS, apply, render
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conftest import guardrail_or_skip, guardrail_stateful
from smithy2cfn import api

MEMBERS = sorted(BASE["members"]) + ["extra"]
VALUES = {
    "remove_member": st.none(), "add_member": st.sampled_from(["Name", "Size", "Tier", "Labels"]),
    "drop_from": st.sampled_from(["create", "update", "read"]), "add_to": st.sampled_from(["create", "update", "read"]),
    "required": st.none(), "cfn_name": st.sampled_from(["", "Renamed", "OtherName"]),
    "mutability": st.sampled_from(["", "full", "create-and-read", "create", "read", "write"]),
    "length": st.one_of(st.none(), st.tuples(st.integers(0, 5), st.integers(10, 100)).map(list)),
    "list_length": st.one_of(st.none(), st.tuples(st.integers(0, 3), st.integers(5, 20)).map(list)),
    "range": st.one_of(st.none(), st.tuples(st.integers(0, 5), st.integers(50, 200)).map(list)),
    "pattern": st.sampled_from([None, "^[a-z-]+$", "^[a-z]+$", "^.+$"]),
    "enum_add": st.sampled_from(["ULTRA", "BASIC"]), "enum_remove": st.sampled_from(["BASIC", "PRO", "MAX"]),
    "unique": st.none(), "drop_operation": st.sampled_from(["update", "list"]), "add_identifier": st.none(),
    "swap_identifiers": st.none(),
}
SHAPE_EDITS = {"length": ["Name"], "list_length": ["Labels"], "range": ["Size"], "pattern": ["Name"],
               "enum_add": ["Tier"], "enum_remove": ["Tier"], "unique": ["Labels"]}


@st.composite
def edits(draw: st.DrawFn) -> list[tuple[str, str, object]]:
    out = []
    for _ in range(draw(st.integers(1, 3))):
        edit = draw(st.sampled_from(sorted(VALUES)))
        arg = draw(st.sampled_from(SHAPE_EDITS.get(edit, MEMBERS)))
        out.append((edit, arg, draw(VALUES[edit])))
    return out


def _sides(tmp: Path, old: dict, new: dict) -> tuple[api.DiffResult, api.DiffResult]:
    for name, spec in (("old", old), ("new", new)):
        (tmp / name).mkdir(parents=True, exist_ok=True)
        (tmp / name / "model.smithy").write_text(render(spec), encoding="utf-8")
    forward = api.diff([tmp / "old" / "model.smithy"], [tmp / "new" / "model.smithy"], overrides=SETTINGS)
    backward = api.diff([tmp / "new" / "model.smithy"], [tmp / "old" / "model.smithy"], overrides=SETTINGS)
    return forward, backward


def _written(tmp: Path, result: api.DiffResult) -> tuple[Path, Path]:
    assert result.old is not None and result.new is not None
    paths = []
    for side in (result.old, result.new):
        (schema,) = side.schemas.values()
        path = tmp / f"{side.label}-{len(list(tmp.iterdir()))}.json"
        path.write_text(json.dumps(schema), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(changes=edits())
def test_every_guard_rail_finding_is_a_diff_finding(tmp_path_factory, changes):
    guardrail_or_skip()
    spec = BASE
    for edit in changes:
        spec = apply(spec, *edit)
    tmp = tmp_path_factory.mktemp("edits")
    forward, backward = _sides(tmp, BASE, spec)
    assume(forward.old is not None and forward.new is not None)  # an edit may make a model that does not build
    judged = guardrail_stateful([_written(tmp, forward), _written(tmp, backward)])
    for result, expected in zip((forward, backward), judged, strict=True):
        ours = {f.rule_id for t in result.types for f in t.findings if f.rule_id}
        assert expected <= ours, (changes, sorted(expected - ours))
        for t in result.types:
            for f in t.findings:
                assert f.diagnostic.span is not None and f.diagnostic.span.path.endswith("model.smithy")
        if expected:
            assert result.verdict == "major" and result.exit_code == 1


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(changes=edits())
def test_identical_models_have_no_finding(tmp_path_factory, changes):
    spec = BASE
    for edit in changes:
        spec = apply(spec, *edit)
    tmp = tmp_path_factory.mktemp("same")
    forward, _ = _sides(tmp, spec, spec)
    assume(forward.old is not None)
    assert [f for t in forward.types for f in t.findings] == []
    assert forward.verdict == "patch" and forward.exit_code == 0


def test_the_edits_make_models_that_build(tmp_path):
    """The generator is worth something: the base model and most single edits build."""
    built = 0
    for edit in sorted(VALUES):
        arg = SHAPE_EDITS.get(edit, ["tier"])[0]
        spec = apply(BASE, edit, arg, {"drop_from": "update", "cfn_name": "Renamed", "mutability": "create",
                                       "length": [2, 30], "range": [0, 10], "pattern": "^.+$",
                                       "enum_add": "ULTRA", "enum_remove": "PRO", "drop_operation": "update",
                                       "add_member": "Name", "add_to": "update", "list_length": [1, 5]}.get(edit))
        forward, _ = _sides(tmp_path / edit, BASE, spec)
        built += forward.new is not None
    assert built >= len(VALUES) - 2, built


@pytest.mark.parametrize("edit, arg, value, rule, verdict, reverse", [
    ("drop_from", "size", "update", "PR002", "major", "minor"),
    ("cfn_name", "size", "Capacity", "PR001", "major", "major"),
    ("length", "Name", [1, 32], "ML006", "major", "minor"),
    ("enum_remove", "Tier", "MAX", "ENM001", "major", "minor"),
    ("add_member", "extra", "Size", None, "minor", "major"),
    ("enum_add", "Tier", "ULTRA", None, "minor", "major"),
    ("drop_operation", "", "list", None, "major", "minor"),
])
def test_a_pair_and_its_reverse_have_their_own_verdict(tmp_path, edit, arg, value, rule, verdict, reverse):
    forward, backward = _sides(tmp_path, BASE, apply(BASE, edit, arg, value))
    assert forward.verdict == verdict, [f.diagnostic.message for t in forward.types for f in t.findings]
    if rule:
        assert rule in {f.rule_id for t in forward.types for f in t.findings}
    assert backward.verdict == reverse, [f.diagnostic.message for t in backward.types for f in t.findings]
