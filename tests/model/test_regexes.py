"""smithy2cfn.regexes: a lazy pattern is compiled on first use and then answers as the
compiled pattern does."""

from __future__ import annotations

import re

import pytest

from smithy2cfn.regexes import lazy


def test_compiled_on_first_use_then_the_patterns_own_methods():
    pattern = lazy(r"(?P<word>[a-z]+)-(\d+)", re.I)
    assert "match" not in vars(pattern)  # nothing compiled yet
    assert pattern.match("Ab-12").groups() == ("Ab", "12")
    assert vars(pattern)["match"] == re.compile(r"(?P<word>[a-z]+)-(\d+)", re.I).match
    assert pattern.sub(r"\2", "ab-1 cd-2") == "1 2" and pattern.groupindex == {"word": 1}
    assert pattern.pattern == r"(?P<word>[a-z]+)-(\d+)" and pattern.compiled.flags & re.I
    assert [m.group(2) for m in pattern.finditer("a-1 b-2")] == ["1", "2"]
    assert repr(pattern) == f"lazy({pattern.pattern!r}, {re.I})"


def test_a_bad_pattern_fails_when_first_used():
    bad = lazy("(unclosed")
    with pytest.raises(re.error):
        bad.search("x")
