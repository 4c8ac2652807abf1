"""The rules engine's language (:mod:`smithy2cfn.languages.rules_engine`): reading rule sets and
BDDs, and evaluating them over endpoint test cases. The validators that use it are tested by
their fixtures (tests/validation/fixtures/rules) and tests/validation/test_validate_rules_engine.py.
"""

from __future__ import annotations

import base64

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smithy2cfn.languages import rules_engine as re_

R = re_.RESULT_OFFSET


def rule_set(params: dict | None = None, rules: list | None = None, version: str = "1.1") -> dict:
    return {"version": version, "parameters": params if params is not None else {},
            "rules": rules if rules is not None else [
                {"type": "endpoint", "conditions": [], "endpoint": {"url": "https://example.com"}}]}


# --------------------------------------------------------------------------- reading


@pytest.mark.parametrize("value, message", [
    (rule_set({"P": {"type": "integer"}}), "Unexpected parameter type `integer`"),
    (rule_set({"P": {"type": "string", "default": "x"}}), "must also be marked as required"),
    (rule_set({"P": {"type": "string", "extra": True}}), "unexpected properties"),
    (rule_set(rules=[{"type": "loop", "conditions": []}]), "unexpected rule type `loop`"),
    (rule_set(rules=[{"type": "error", "conditions": [], "error": "a {b"}]), "unmatched `{`"),
    ({"version": "1", "parameters": {}, "rules": []}, "Expected format: major.minor"),
    ({"version": "1.0", "rules": []}, "missing or wrong member `parameters`"),
])
def test_rule_sets_that_cannot_be_read(value, message):
    with pytest.raises(re_.RulesError, match=message):
        re_.read_rule_set(value)


def test_a_rule_set_is_read_into_records():
    rs = re_.read_rule_set(rule_set({"Region": {"type": "String", "required": True, "default": "us-east-1"}}, [
        {"type": "tree", "conditions": [{"fn": "isSet", "argv": [{"ref": "Region"}], "assign": "r"}], "rules": [
            {"type": "endpoint", "conditions": [], "endpoint": {"url": "https://{r}.example.com",
                                                               "properties": {"authSchemes": [{"name": "sigv4"}]}}}]},
    ]))
    assert rs.version == (1, 1) and rs.parameters["Region"] == re_.Parameter("Region", "String", True, default="us-east-1")
    endpoint = list(re_.endpoint_rules(rs))
    assert [r.kind for r in re_.all_rules(rs.rules)] == ["tree", "endpoint"] and len(endpoint) == 1
    assert rs.rules[0].conditions == [("isSet", [("ref", "Region")], "r")]
    assert re_.show_expression(endpoint[0].properties["authSchemes"]) == "[{name=sigv4}]"


@given(st.binary(max_size=60))
@settings(max_examples=50, deadline=None)
def test_base64_reading_matches_the_standard_decoder(data):
    text = base64.b64encode(data).decode()
    assert re_.decode_base64(text) == data
    assert re_.decode_base64(text.rstrip("=")) == data  # padding is optional


def test_newer_functions():
    assert re_.newer_function(("fn", "coalesce", [])) == "Coalesce"
    assert re_.newer_function(("fn", "getAttr", [("ref", "a"), ("str", "b[-1]")])) == "GetAttr"
    assert re_.newer_function(("fn", "getAttr", [("ref", "a"), ("str", "b[1]")])) is None
    assert re_.newer_function(("fn", "isSet", [("ref", "a")])) is None


# --------------------------------------------------------------------------- evaluation


def test_split_needs_a_delimiter():
    rs = re_.read_rule_set(rule_set(rules=[{"type": "error", "conditions": [
        {"fn": "split", "argv": ["a", "", 0]}], "error": "x"}]))
    assert re_.evaluate_test_case(rs, {"expect": {"error": "x"}}) == "Split delimiter cannot be empty"


def test_defaults_fill_parameters_a_test_case_leaves_out():
    rs = re_.read_rule_set(rule_set({"Fips": {"type": "boolean", "required": True, "default": True}}, [
        {"type": "error", "conditions": [{"fn": "booleanEquals", "argv": [{"ref": "Fips"}, True]}], "error": "fips"},
        {"type": "endpoint", "conditions": [], "endpoint": {"url": "https://example.com"}}]))
    assert re_.evaluate_test_case(rs, {"params": {}, "expect": {"error": "fips"}}) is None
    assert re_.evaluate_test_case(rs, {"params": {"Fips": False}, "expect": {"endpoint": {
        "url": "https://example.com"}}}) is None


def bdd(nodes: list[tuple[int, int, int]], root: int) -> dict:
    """A BDD on parameter ``Endpoint``: condition 0 is ``isSet(Endpoint)``; result 1 its URL,
    result 2 an error."""
    data = b"".join(v.to_bytes(4, "big", signed=True) for node in nodes for v in node)
    return {"version": "1.1", "parameters": {"Endpoint": {"type": "string"}},
            "conditions": [{"fn": "isSet", "argv": [{"ref": "Endpoint"}]}],
            "results": [{"type": "endpoint", "endpoint": {"url": {"ref": "Endpoint"}}},
                        {"type": "error", "error": "none"}],
            "root": root, "nodeCount": len(nodes), "nodes": base64.b64encode(data).decode()}


TERMINAL = (-1, 1, -1)
SET = {"params": {"Endpoint": "https://a.example.com"}, "expect": {"endpoint": {"url": "https://a.example.com"}}}
UNSET = {"params": {}, "expect": {"error": "none"}}


@pytest.mark.parametrize("nodes, root, set_, unset", [
    ([TERMINAL, (0, R + 1, R + 2)], 2, None, None),                    # high when the condition holds
    # node 1's high branch is node 2 complemented: there the branches swap, so a set endpoint ends in the error
    ([TERMINAL, (0, -3, R + 2), (0, R + 1, R + 2)], 2,
     "Expected `EndpointType` but was `StringType` with value: `none`", None),
    ([TERMINAL, (0, R + 2, R + 1)], 2, "Expected `EndpointType` but was `StringType` with value: `none`",
     "Expected `StringType` but was `EmptyType` with value: `<empty>`"),  # the branches the other way
    ([TERMINAL, (0, 1, R + 2)], 2, "No BDD result matched", None),      # a terminal: no result
    ([TERMINAL, (0, R, R + 2)], 2, "Invalid BDD rule result: NO_MATCH", None),  # result 0
    ([TERMINAL], R + 2, "Expected `EndpointType` but was `StringType` with value: `none`", None),  # a result root
    ([TERMINAL, (0, 2, 2)], 2, None, None),                            # a cycle: not judged
    ([TERMINAL, (0, R + 9, R + 2)], 2, None, None),                     # no such result: not judged
    ([TERMINAL, (3, R + 1, R + 2)], 2, None, None),                     # no such condition: not judged
])
def test_bdd_evaluation(nodes, root, set_, unset):
    rs, decoded = re_.read_bdd(bdd(nodes, root))
    assert re_.evaluate_test_case(rs, SET, decoded) == set_
    assert re_.evaluate_test_case(rs, UNSET, decoded) == unset


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", "a", "{a}", "{", "x}"]),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["ref", "fn", "argv", "a", "type", "url"]), inner, max_size=3),
                    max_leaves=12)


@given(JSON)
@settings(max_examples=200, deadline=None)
def test_readers_and_evaluator_never_raise_anything_else(node):
    try:
        rs = re_.read_rule_set({"version": "1.1", "parameters": {}, "rules": [
            {"type": "error", "conditions": [{"fn": "coalesce", "argv": [node]}], "error": node}]})
    except re_.RulesError:
        return
    result = re_.evaluate_test_case(rs, {"params": {"a": node}, "expect": {"error": "x"}})
    assert result is None or isinstance(result, str)


@given(st.lists(st.tuples(st.integers(-3, 3), st.sampled_from([0, 1, -1, 2, -2, 3, R, R + 1, R + 2, R + 5]),
                          st.sampled_from([0, 1, -1, 2, -2, 3, R, R + 1, R + 2, R + 5])), max_size=4),
       st.sampled_from([1, -1, 2, -2, 3, R + 1, R + 2]))
@settings(max_examples=200, deadline=None)
def test_bdd_evaluation_never_raises(nodes, root):
    try:
        rs, decoded = re_.read_bdd(bdd([TERMINAL, *nodes], root))
    except re_.RulesError:
        return
    for case in (SET, UNSET):
        result = re_.evaluate_test_case(rs, case, decoded)
        assert result is None or isinstance(result, str)
