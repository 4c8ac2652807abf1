"""Descriptions as plain text (registry-ready mode).

Smithy ``@documentation`` is CommonMark, and AWS models write it as HTML (``<p>``,
``<code>``, ``<a href>``, entities). CloudFormation shows a schema's ``description`` as
plain text, and the HTML makes schemas far larger (``cfn validate`` refuses a schema over
60 KiB). :func:`plain_text` turns a documentation string into plain text with the standard
library's HTML parser: tags dropped (block elements become line breaks, list items ``- ``),
entities and character references decoded, whitespace normalized. :func:`first_sentence`
shortens a description when a schema must shrink.
"""

from __future__ import annotations

import functools
import re

from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Elements that start a new line of text.
_BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main",
    "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
})
_MARKUP = lazy(r"<[A-Za-z/!]|&(#\d+|#x[0-9A-Fa-f]+|[A-Za-z]+);")
_SPACES = lazy(r"[ \t\r\f\v\u00a0]+")
_SENTENCE = lazy(r"^(.+?[.!?])(?=\s|$)", re.S)


@functools.cache
def _text_parser() -> Any:
    """The HTML-to-text parser class (``html.parser`` is imported when a description first
    holds markup: some 3 ms of start-up that a model without HTML never pays)."""
    from html.parser import HTMLParser

    class _Text(HTMLParser):
        """Collects the text of an HTML fragment, one line per block element."""

        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.lines: list[list[str]] = [[]]

        def _break(self) -> None:
            if self.lines[-1]:
                self.lines.append([])

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag in _BLOCKS:
                self._break()
                if tag == "li":
                    self.lines[-1].append("- ")

        def handle_endtag(self, tag: str) -> None:
            if tag in _BLOCKS:
                self._break()

        def handle_data(self, data: str) -> None:
            self.lines[-1].append(data)

    return _Text


def is_markup(text: str) -> bool:
    """True when ``text`` holds an HTML tag or an entity / character reference."""
    return _MARKUP.search(text) is not None


def plain_text(text: str) -> str:
    """``text`` as plain text: HTML tags dropped (block elements end a line, list items start
    with ``- ``), entities decoded, runs of spaces collapsed, blank lines removed, each line
    stripped. Text without markup only has its whitespace normalized. Never raises."""
    if is_markup(text):
        parser = _text_parser()()
        try:
            parser.feed(text)
            parser.close()
        except (AssertionError, ValueError):  # pragma: no cover - html.parser is lenient
            return " ".join(text.split())
        lines = ["".join(parts) for parts in parser.lines]
    else:
        lines = text.splitlines()
    out = []
    for line in lines:
        line = _SPACES.sub(" ", line.replace("\n", " ")).strip()
        if line and line != "-":
            out.append(line)
    return "\n".join(out)


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (up to the first ``.``, ``!`` or ``?`` followed by
    whitespace or the end), or its first line when it has no sentence end."""
    m = _SENTENCE.match(text.strip())
    if m:
        return " ".join(m.group(1).split())
    return text.strip().split("\n", 1)[0]


__all__ = ["first_sentence", "is_markup", "plain_text"]
