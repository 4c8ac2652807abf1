"""The JMESPath language the waiters' acceptors are checked with
(:mod:`smithy2cfn.languages.jmespath_lint`): sample values that follow the shapes, the type
check's problems over objects and arrays, the parser's limits, and generated expressions (they
never raise anything but a syntax error). The waiters validator that uses it is tested in
tests/validation/test_validate_packages.py and by its fixtures.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smithy2cfn import api
from smithy2cfn.languages import jmespath_lint as jl


def test_sample_values_follow_the_shapes(tmp_path):
    path = tmp_path / "m.smithy"
    path.write_text("""$version: "2.0"
namespace ex
structure S {
    s: Short
    t: Three
    l: L
    m: M
    r: S
    ts: Timestamp
    d: Document
}
@length(max: 1) list L { member: String }
@length(min: 3) string Three
map M { key: String, value: Integer }
""", encoding="utf-8")
    model = api.load([path]).model
    value = jl.sample_value(model, "ex#S")
    assert value["s"] == 8 and value["t"] == "aaa" and value["l"] == ["aa"]
    assert value["m"] == {"aa0": 8, "aa1": 8} and value["ts"] == 0
    assert value["d"] is jl.ANY and value["r"]["r"] is jl.ANY  # recursion ends in "any"
    assert jl.lint(jl.parse("r.s"), value).return_type == "number"
    assert jl.lint(jl.parse("l[0]"), value).return_type == "string"
    assert jl.lint(jl.parse("l[5]"), value).return_type == "null"
    assert jl.lint(jl.parse("*.s"), value).return_type == "array"
    assert jl.lint(jl.parse("ends_with(t, 'a')"), value).return_type == "number"  # as the reference declares


@pytest.mark.parametrize("text, problem", [
    ("a.b", "DANGER"), ("x", None), ("[a, b]", "DANGER"), ("`\"s\"` < `\"t\"`", "WARNING"), ("x < `2`", None),
    ("sort_by(@, &a)", "ERROR"), ("abs(x)", None), ("abs('s')", "ERROR"), ("join(',', ['a'])", None),
    ("merge(@, @)", None), ("not_null(x, `1`)", None), ("to_string()", "ERROR"), ("x.y", "DANGER"),
])
def test_lint_problems_over_an_object(text, problem):
    result = jl.lint(jl.parse(text), {"x": 1})
    severities = {p.severity for p in result.problems}
    assert (problem in severities) if problem else not severities


@pytest.mark.parametrize("text, problem", [
    # an expression reference is checked against the function's current value, not against the
    # array's items (the reference's TypeChecker does so): `&a` over an array is a DANGER
    ("sort_by(@, &a)", "DANGER"), ("max_by(@, &a)", "DANGER"), ("map(&a, @)", "DANGER"), ("[?a == `1`].a", None),
    ("sort_by(@, &@)", None),
    ("[?b == `1`]", "DANGER"), ("[].a", None), ("[*].b", "DANGER"), ("sum(@)", "ERROR"), ("@.a", "DANGER"),
])
def test_lint_problems_over_an_array(text, problem):
    result = jl.lint(jl.parse(text), [{"a": 1}, {"a": 2}])
    severities = {p.severity for p in result.problems}
    assert (problem in severities) if problem else not severities


def test_parse_limits():
    with pytest.raises(jl.JmespathSyntaxError):
        jl.parse("!" * 5000 + "a")
    with pytest.raises(jl.JmespathSyntaxError):
        jl.parse(" || ".join(["a"] * (jl.MAX_DEPTH + 5)))
    with pytest.raises(jl.JmespathSyntaxError):
        jl.parse("`NaN`")
    assert jl.parse(" || ".join(["a"] * 50)).text


_ATOMS = st.sampled_from(["a", "b", "@", "`1`", "'s'", "`true`", "`null`", "`[1, 2]`", "`{\"a\": 1}`", "*",
                          "[]", "[0]", "[1:]", "[?a]", "&a", "length(@)", "x"])
_GLUE = st.sampled_from([".", " | ", " || ", " && ", " == ", " < ", "", "!", "[", "]", "(", ")", ", "])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_ATOMS, _GLUE), max_size=12),
       st.sampled_from([jl.ANY, {"a": [{"a": 1}], "b": "x"}, [1, 2], "s", None]))
def test_parse_and_lint_never_raise_anything_else(parts, current):
    text = "".join(a + g for a, g in parts)
    try:
        expression = jl.parse(text)
    except jl.JmespathSyntaxError:
        return
    result = jl.lint(expression, current)
    assert result.return_type in {"string", "number", "boolean", "null", "array", "object", "expression", "any"}


_WAITER_MODEL = """$version: "2.0"
namespace ex
use smithy.waiters#waitable
use smithy.contracts#conditions
service Svc { operations: [Get] }
@readonly
%s
operation Get { output := { %s n: Integer } }
"""
_WAITER = '@waitable(Ready: {acceptors: [{state: "success", matcher: {output: {path: "n", expected: "1", ' \
          'comparator: "stringEquals"}}}]})'


_WAITER_COMPARING = '@waitable(Ready: {acceptors: [{state: "success", matcher: {output: {path: "n > `0`", ' \
                    'expected: "true", comparator: "booleanEquals"}}}]})'


_CONDITION = '@conditions(Pos: {expression: "n > `0`", documentation: "positive"})'


@pytest.mark.parametrize(("waiter", "condition", "imported"),
                         [("", "", False), (_WAITER, "", False), (_WAITER_COMPARING, "", True),
                          ("", _CONDITION, True)])
def test_the_jmespath_package_is_imported_only_for_an_expression(tmp_path, waiter, condition, imported):
    """Its import (with ``inspect``'s, 15 ms) is paid only by a model with an expression to
    check that is more than a path of fields and flattens (``n``, ``Items[].State``: most
    waiters, parsed without it), not by every model that loads the waiters and contracts
    packages (issue 15)."""
    import subprocess
    import sys

    path = tmp_path / "m.smithy"
    path.write_text(_WAITER_MODEL % (waiter, condition), encoding="utf-8")
    probe = ("import sys\nfrom smithy2cfn import api\nr = api.build([sys.argv[1]], None, {})\n"
             "print(sorted({d.code for d in r.diagnostics if d.severity.name == 'ERROR'}), 'jmespath' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[]", str(imported)]


@pytest.mark.parametrize("text", ["Foo", "Foo.Bar", "Foo.Bar.Baz", "Foo[]", "Foo[].Bar", "Foo[].Bar.Baz",
                                  "Foo.Bar[].Baz", "Foo[].Bar[].Baz", "Foo[][]", "_a.b_1[].c"])
def test_simple_paths_parse_to_the_package_tree(text):
    """A path of fields and ``[]`` flattens, parsed without the ``jmespath`` package, gives the
    tree the package's parser gives (``pos`` of each field included)."""
    assert jl._simple_tree(text) is not None
    assert jl._simple_tree(text) == jl._parser_class()().parse(text).parsed


@pytest.mark.parametrize("text", ["Foo.", ".Foo", "Foo[0]", "Foo[*].Bar", "Foo []", "1a", "Foo[]Bar", "`1`", ""])
def test_other_expressions_are_left_to_the_package(text):
    """Anything else (an index, a wildcard, a space, a literal, a syntax error) is parsed by
    the package, its errors and trees as before."""
    assert jl._simple_tree(text) is None
