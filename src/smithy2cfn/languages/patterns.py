"""Compiling ``@pattern`` regular expressions safely (constraint-traits.rst §"pattern trait").

Smithy patterns are ECMA-262 regular expressions, checked here with Python's ``re``. Besides
syntax Python does not know (Java/ECMA-only constructs such as ``\\p{L}``, which are not
errors), ``re.compile`` fails in two ways that must never escape as a traceback:

* ``OverflowError`` for a repetition count over ``re``'s limit (``a{4294967296}``; Java's
  limit is lower still, 2**31 - 1, so the reference rejects these too);
* ``RecursionError`` for groups nested a few hundred deep (``re``'s parser recurses once
  per group).

:func:`compile_pattern` sorts every outcome into ``None`` (compiled), ``"syntax"`` (an
``re.error``: maybe a valid ECMA-262/Java pattern) or ``"limit"`` (beyond the limits of this
implementation, documented in README "Limits": groups nested more than
:data:`MAX_PATTERN_NESTING` deep, a repetition count ``re`` cannot hold).
Compiling is about linear in the pattern's length (measured: 1 s per million characters),
so no length limit is needed.

MATCHING a value against a pattern is another matter: backtracking engines (Java's, which
the reference uses, as well as Python's ``re`` and ECMA-262 ones) take exponential time on
patterns such as ``^(a+)+$``. :class:`PatternMatcher` matches with the ``regex`` package,
which can stop a match after a timeout, within a time budget per model
(:data:`MATCH_TIMEOUT`, :data:`MODEL_MATCH_BUDGET`); a value it gives up on is reported
as not checked (a warning) instead of hanging the run.
"""

from __future__ import annotations

import functools
import re
import time
import warnings
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import regex

#: Deepest nesting of groups ``(...)`` and classes ``[...]`` a pattern may have.
MAX_PATTERN_NESTING = 100


def pattern_nesting(text: str) -> int:
    """The deepest nesting of ``(`` groups in ``text`` (escapes and ``[...]`` sets skipped)."""
    deepest = level = 0
    i, n = 0, len(text)
    in_set = False
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if in_set:
            if c == "]":
                in_set = False
        elif c == "[":
            in_set = True
            if text.startswith("]", i + 1) or text.startswith("^]", i + 1):
                i += 2 if text[i + 1] == "]" else 3  # a leading ']' is literal
                continue
        elif c == "(":
            level += 1
            deepest = max(deepest, level)
        elif c == ")" and level:
            level -= 1
        i += 1
    return deepest


@functools.lru_cache(maxsize=512)
def compile_pattern(text: str) -> tuple[re.Pattern | None, str | None, str | None]:
    """Compile ``text`` with ``re``; never raises.

    Returns:
        ``(compiled, None, None)`` on success, else ``(None, kind, reason)`` where ``kind``
        is ``"syntax"`` (``re.error``: not a Python pattern, perhaps a Java/ECMA-262 one)
        or ``"limit"`` (nested too deeply, a repetition count too large: the model must be
        rejected), and ``reason`` a plain sentence.
    """
    nesting = pattern_nesting(text)
    if nesting > MAX_PATTERN_NESTING:
        return None, "limit", (f"its groups are nested {nesting} levels deep; at most "
                               f"{MAX_PATTERN_NESTING} are supported")
    try:
        with warnings.catch_warnings():
            # "FutureWarning: Possible nested set" (a `[[` in a pattern, which ECMA-262
            # reads literally) is Python's note to itself, not the user's problem
            warnings.simplefilter("ignore")
            return re.compile(text), None, None
    except re.error as e:
        return None, "syntax", str(e)
    except OverflowError as e:  # "the repetition number is too large" (over 4294967294)
        return None, "limit", str(e)
    except RecursionError:  # only when the caller's own stack is already deep
        return None, "limit", "it is nested too deeply to compile"


#: Longest time one value may take to match a pattern, in seconds.
MATCH_TIMEOUT = 0.25
#: Longest time all the pattern matches of one model may take together, in seconds.
MODEL_MATCH_BUDGET = 2.0


@functools.lru_cache(maxsize=512)
def _compile_for_matching(text: str) -> regex.Pattern | None:
    if compile_pattern(text)[1] == "limit":
        return None
    import regex  # here: only a model whose values are matched against a @pattern needs it (~8 ms of import)

    try:
        return regex.compile(text)
    except (regex.error, OverflowError, RecursionError, ValueError):
        return None


class PatternMatcher:
    """Matches values against ``@pattern`` regular expressions in bounded time, for one
    model (get it with ``model.knowledge(PatternMatcher)``).

    Each match may take :data:`MATCH_TIMEOUT` seconds, and all the matches of the model
    :data:`MODEL_MATCH_BUDGET` seconds together; past that, values are not checked.
    """

    def __init__(self, _model: object = None) -> None:
        self.remaining = MODEL_MATCH_BUDGET

    def search(self, pattern: str, value: str) -> bool | None:
        """Whether ``pattern`` matches somewhere in ``value`` (``@pattern`` is not anchored);
        ``None`` when it cannot be told: the pattern does not compile, or matching took
        longer than the time allowed."""
        compiled = _compile_for_matching(pattern)
        if compiled is None or self.remaining <= 0:
            return None
        start = time.monotonic()
        try:
            return compiled.search(value, timeout=min(MATCH_TIMEOUT, self.remaining)) is not None
        except TimeoutError:
            return None
        finally:
            self.remaining -= time.monotonic() - start


__all__ = ["MATCH_TIMEOUT", "MAX_PATTERN_NESTING", "MODEL_MATCH_BUDGET", "PatternMatcher", "compile_pattern",
           "pattern_nesting"]
