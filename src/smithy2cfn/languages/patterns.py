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
as not checked (a warning) instead of hanging the run. A simple pattern (a sequence of
single characters, classes and their quantifiers: most ``@pattern`` values) whose matching
cannot take long for the value at hand is matched with ``re`` instead
(:func:`_bounded_match_steps`): the same answer without importing ``regex`` (30 ms).
"""

from __future__ import annotations

import functools
import re
import time
import warnings

from smithy2cfn.regexes import lazy

TYPE_CHECKING = False

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


#: A run of digits long enough to be a repetition count ``re`` cannot hold (over 4294967294).
_LONG_NUMBER = lazy(r"[0-9]{10}")


def pattern_limit(text: str) -> str | None:
    """Why ``text`` is beyond this implementation's limits (:func:`compile_pattern`'s kind
    ``"limit"``), or ``None``. Compiles only a pattern that holds a number of 10 digits or
    more: otherwise only the nesting can be at fault (``re``'s other failures are syntax), so
    a model's patterns need not all be compiled to be checked."""
    if pattern_nesting(text) <= MAX_PATTERN_NESTING and not _LONG_NUMBER.search(text):
        return None
    _compiled, kind, reason = compile_pattern(text)
    return reason if kind == "limit" else None


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


#: One atom of a simple pattern (:func:`_simple_quantifiers`): a literal character, an
#: escaped punctuation character or ``\\d \\w \\s \\D \\W \\S``, ``.``, or a class
#: ``[...]`` of such and ranges (no nested ``[``, no doubled ``&&``, ``--``, ``||``, ``~~``).
_SIMPLE_ATOM = lazy(r"""[^.^$*+?{}\[\]\\|()]|\\[^A-Za-z0-9]|\\[dwsDWS]|\.
                        |\[\^?\]?(?:[^\]\\\[&~|-]|[&~|-](?![&~|-])|\\[^A-Za-z0-9]|\\[dwsDWS])*\]""", re.VERBOSE)
#: A greedy quantifier (``?``, ``*``, ``+``, ``{m}``, ``{m,}``, ``{m,n}``), not lazy or possessive.
_SIMPLE_QUANTIFIER = lazy(r"(?:([?*+])|\{([0-9]+)(?:(,)([0-9]*))?\})(?![?+])")
#: The most backtracking steps (:func:`_bounded_match_steps`) a match with ``re`` may need.
_RE_STEPS = 200_000


@functools.lru_cache(maxsize=512)
def _simple_quantifiers(text: str) -> tuple[bool, tuple[tuple[int, int | None], ...]] | None:
    """``(anchored, counts)`` of a simple pattern: an optional ``^``, then atoms
    (:data:`_SIMPLE_ATOM`) each with an optional greedy quantifier, possibly inside groups
    ``(...)`` or ``(?:...)`` that are not nested and are at most optional (``?``), then an
    optional ``$``; ``counts`` holds the least and the largest count of each quantifier
    (largest ``None``: unbounded; an optional group counts as one of 0 to 1). ``None`` for
    any other pattern (alternation, nested or repeated groups, lazy quantifiers, other
    escapes...), where ``re`` and ``regex`` might differ or backtracking is not bounded by
    the product of the counts each quantifier can try."""
    pos, end = 0, len(text)
    anchored = text.startswith("^")
    if anchored:
        pos = 1
    if text.endswith("$") and not text.endswith("\\$") and end > pos:
        end -= 1
    counts: list[tuple[int, int | None]] = []
    in_group = False
    while pos < end:
        if text.startswith("(", pos) and not in_group:
            in_group = True
            pos += 3 if text.startswith("(?:", pos) else 1
            continue
        if text.startswith(")", pos) and in_group:
            in_group = False
            pos += 1
            if text.startswith("?", pos) and not text.startswith(("??", "?+"), pos):
                counts.append((0, 1))
                pos += 1
            continue
        atom = _SIMPLE_ATOM.match(text, pos, end)
        if atom is None:
            return None
        pos = atom.end()
        quantifier = _SIMPLE_QUANTIFIER.match(text, pos, end)
        if quantifier is None:
            if text.startswith(("?", "*", "+", "{"), pos):
                return None  # (a lazy or possessive quantifier, a '{' that is no quantifier)
            continue
        pos = quantifier.end()
        symbol, low, comma, high = quantifier.groups()
        if symbol in ("*", "+") or (comma and not high):
            counts.append((1 if symbol == "+" else int(low or 0), None))
        elif symbol == "?":
            counts.append((0, 1))
        else:
            top = int(high) if comma else int(low)
            if top < int(low):
                return None
            counts.append((int(low), top))
    return (anchored, tuple(counts)) if not in_group else None


def _bounded_match_steps(text: str, value: str) -> bool:
    """Whether searching ``value`` with the simple pattern ``text`` takes at most
    :data:`_RE_STEPS` backtracking steps: at most (start positions) x (for each quantifier,
    the counts it can try: from its least to its largest, at most the value's length; one
    for an exact count such as ``{8}``) x (pattern length), since a simple pattern has no
    repeated groups. Such a search is matched with ``re`` (which has no timeout); any other
    with ``regex``."""
    shape = _simple_quantifiers(text)
    if shape is None:
        return False
    anchored, counts = shape
    n = len(value)
    steps = (1 if anchored else n + 1) * (len(text) + 1)
    for low, top in counts:
        steps *= max(1, (n if top is None else min(top, n)) - low + 1)
        if steps > _RE_STEPS:
            return False
    return True


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
        if self.remaining > 0 and _bounded_match_steps(pattern, value):
            quick = compile_pattern(pattern)[0]
            if quick is not None:
                start = time.monotonic()
                try:
                    return quick.search(value) is not None
                finally:
                    self.remaining -= time.monotonic() - start
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
           "pattern_limit", "pattern_nesting"]
