"""Regular expressions compiled on first use.

A module-level ``re.compile`` runs when the module is imported, whether or not the run
needs the expression: a small build imported 46 of them, some 27 million instructions
(6% of it; issue 15, "Cold start"), most never used (the JSON reader's, for an IDL model).
``NAME = lazy(r"...")`` is compiled the first time one of its attributes is read; each
attribute read after that is the compiled pattern's own (kept on the object), so a hot loop
pays nothing more than with ``re.compile``.

A :class:`LazyPattern` has the methods and attributes of :class:`re.Pattern` (``match``,
``fullmatch``, ``search``, ``sub``, ``finditer``, ``pattern``, ``groupindex``...); a
function that takes a pattern object (``re.sub(pattern, ...)``) needs :attr:`compiled`.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class LazyPattern:
    """``re.compile(pattern, flags)``, made when first used (see the module's documentation).

    Raises:
        re.error: on first use, for a pattern that does not compile (as ``re.compile``).
    """

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._source = pattern
        self._flags = flags

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (``re.compile``'s cache makes it once)."""
        return re.compile(self._source, self._flags)

    def __getattr__(self, name: str) -> Any:
        # Called only for what the object does not hold yet: the first read of each method.
        if name.startswith("_"):
            raise AttributeError(name)
        value = getattr(self.compiled, name)
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"lazy({self._source!r}{', ' + str(self._flags) if self._flags else ''})"


def lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """``re.compile(pattern, flags)``, compiled on first use."""
    return LazyPattern(pattern, flags)

