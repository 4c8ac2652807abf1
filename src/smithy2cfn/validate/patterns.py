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
"""

from __future__ import annotations

import functools
import re

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
        return re.compile(text), None, None
    except re.error as e:
        return None, "syntax", str(e)
    except OverflowError as e:  # "the repetition number is too large" (over 4294967294)
        return None, "limit", str(e)
    except RecursionError:  # only when the caller's own stack is already deep
        return None, "limit", "it is nested too deeply to compile"


__all__ = ["MAX_PATTERN_NESTING", "compile_pattern", "pattern_nesting"]
