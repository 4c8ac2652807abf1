"""Matching values against ``@pattern`` (:mod:`smithy2cfn.languages.patterns`): a simple
pattern whose search is bounded is matched with ``re``, and gives the answer the ``regex``
package (with its timeout) gives; any other pattern, or a value long enough to make the
search slow, still goes to ``regex``."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smithy2cfn.languages import patterns
from smithy2cfn.languages.patterns import PatternMatcher

#: @pattern values of real models (AWS service models), and edge cases of the simple form.
PATTERNS = [
    r"^[a-z0-9.\-]{1,63}$", r"^\/?.+\/.+$", r"^[a-zA-Z_][a-zA-Z_0-9-]*(:[a-zA-Z_][a-zA-Z_0-9-]*)?$",
    r"^([A-Za-z0-9][A-Za-z0-9-\.]{0,62}:[^:]+)$", r"^[\w+=,.@-]+$", r"^arn:aws:iam::\d{12}:role/.*$",
    r"[^\s]+", r"$", r"^$", r"^[]a]$", r"^[a-]$", r"^[\]]x$", r"a\$", r"^\S+$", r"^[^:]*:[^:]*$",
    r"^(?:a-)?b{2,}$", r"^\d{4}-\d{2}-\d{2}$", r"^[ -~]*$", r"a.b", r"^[A-Z]+\.?[0-9]*$", r"^\s*$",
    r"^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$", r"[ab]{2}-{1}[ab1]{3,}", r"^a{2,4}b+$",
    # not simple: still matched with regex
    r"^(a|b)+$", r"^(a+)+$", r"^\p{L}+$", r"a+?", r"^(\w+\s?)*$",
]
VALUES = st.text(alphabet=st.sampled_from("ab:-./_ \n1Z9é]\\$"), max_size=30)


def _with_regex(pattern: str, value: str) -> bool | None:
    compiled = patterns._compile_for_matching(pattern)
    return None if compiled is None else compiled.search(value, timeout=5) is not None


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PATTERNS), VALUES)
def test_re_and_regex_agree_on_simple_patterns(pattern, value):
    assert PatternMatcher().search(pattern, value) == _with_regex(pattern, value)


@pytest.mark.parametrize(("pattern", "simple"), [
    (r"^[a-z0-9.\-]{1,63}$", True), (r"^[a-zA-Z_][a-zA-Z_0-9-]*(:[a-zA-Z_][a-zA-Z_0-9-]*)?$", True),
    (r"^(a+)+$", False), (r"^(a|b)$", False), (r"a+?", False), (r"^\p{L}$", False), (r"[[a]]", False),
    (r"^((a))$", False), (r"^a{3,2}$", False),
])
def test_simple_patterns(pattern, simple):
    assert (patterns._simple_quantifiers(pattern) is not None) is simple


def test_an_exact_count_is_no_choice():
    """``{8}`` tries one count, ``{2,4}`` three: a UUID pattern (the most common of AWS
    models' examples) is matched with ``re`` whatever its value, ``^a{2,40}$`` not for a
    long value."""
    uuid = r"^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$"
    assert patterns._simple_quantifiers(uuid) == (True, ((8, 8), (4, 4), (4, 4), (4, 4), (12, 12)))
    assert patterns._bounded_match_steps(uuid, "5b9f3d79-7392-4a5b-9c4e-0123456789ab" * 100)
    assert patterns._simple_quantifiers(r"a+b*c?d{2,}e{1,3}") == (False, ((1, None), (0, None), (0, 1), (2, None),
                                                                          (1, 3)))
    assert not patterns._bounded_match_steps(r"a*b*c*d*", "x" * 100)


def test_a_long_value_goes_to_regex():
    """The bound follows the value: ``^.*a.*b$`` on 40 characters is bounded, on 40,000 not."""
    assert patterns._bounded_match_steps(r"^.*a.*b$", "x" * 40)
    assert not patterns._bounded_match_steps(r"^.*a.*b$", "x" * 40_000)
    assert not patterns._bounded_match_steps(r"^(a+)+$", "a")


def test_a_model_with_simple_patterns_does_not_import_regex():
    probe = ("import sys\nfrom smithy2cfn.languages.patterns import PatternMatcher\n"
             "m = PatternMatcher()\n"
             "print(m.search(r'^[a-z0-9.\\-]{1,63}$', 'bedrock'), 'regex' in sys.modules, "
             "m.search(r'^(a+)+$', 'aaa'), 'regex' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False", "True", "True"]


@pytest.mark.parametrize("pattern", [
    *PATTERNS, "a{4294967295}", "a{1,4294967296}", "a{0123456789}", "a{999999999}", "(" * 101 + ")" * 101,
    "(" * 100 + ")" * 100, "[(((]", "a{3,2}", "\\12345678901",
])
def test_pattern_limit_is_compile_patterns_limit(pattern):
    """``pattern_limit`` (which compiles only a pattern with a long number) says what
    ``compile_pattern`` says about the limits."""
    _compiled, kind, reason = patterns.compile_pattern(pattern)
    assert patterns.pattern_limit(pattern) == (reason if kind == "limit" else None)
