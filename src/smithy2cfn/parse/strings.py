"""Decoding IDL string literals (Smithy 2.0 "Smithy IDL" §"String values", §"String escape
characters", §"Text blocks", §"Incidental white space removal").
"""

from __future__ import annotations

_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_HEX = set("0123456789abcdefABCDEF")


def decode_escapes(body: str) -> tuple[str, str | None]:
    """Expand the escapes of a string body (without its quotes; CRLF already normalised).

    Returns ``(value, problem)``; ``problem`` is a message for the first invalid escape
    (the value then keeps the offending characters as written). UTF-16 surrogate pairs
    written as two ``\\uXXXX`` escapes are combined; lone surrogates become U+FFFD.
    The text between escapes is copied in slices, so a long string costs a few copies of
    itself, not one object per character.
    """
    if "\\" not in body:
        return body, None
    out: list[str] = []
    problem: str | None = None
    surrogates = False
    i, n = 0, len(body)
    while i < n:
        j = body.find("\\", i)
        if j < 0:
            out.append(body[i:])
            break
        if j > i:
            out.append(body[i:j])
        i = j
        nxt = body[i + 1] if i + 1 < n else ""
        if nxt in _SIMPLE_ESCAPES and nxt:
            out.append(_SIMPLE_ESCAPES[nxt])
            i += 2
        elif nxt == "\n":
            i += 2  # escaped new line expands to nothing
        elif nxt == "u":
            digits = body[i + 2:i + 6]
            if len(digits) < 4:
                problem = problem or "invalid unclosed unicode escape in string"
                out.append(body[i:i + 2])
                i += 2
                continue
            bad = next((c for c in digits if c not in _HEX), None)
            if bad is not None:
                problem = problem or f"invalid unicode escape character '{bad}' in string"
                out.append(body[i:i + 2])
                i += 2
                continue
            code = int(digits, 16)
            surrogates = surrogates or 0xD800 <= code <= 0xDFFF
            out.append(chr(code))
            i += 6
        else:
            shown = nxt if nxt else "end of string"
            problem = problem or f"invalid escape '\\{shown}' in string"
            out.append("\\")
            i += 1
    value = "".join(out)
    # Only a \\u escape can produce a surrogate (text decoded from UTF-8 has none).
    return (_fix_surrogates(value) if surrogates else value), problem


def _fix_surrogates(s: str) -> str:
    if not any(0xD800 <= ord(c) <= 0xDFFF for c in s):
        return s
    out: list[str] = []
    i = 0
    while i < len(s):
        c = ord(s[i])
        if 0xD800 <= c <= 0xDBFF and i + 1 < len(s) and 0xDC00 <= ord(s[i + 1]) <= 0xDFFF:
            out.append(chr(0x10000 + ((c - 0xD800) << 10) + (ord(s[i + 1]) - 0xDC00)))
            i += 2
        elif 0xD800 <= c <= 0xDFFF:
            out.append("\ufffd")
            i += 1
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def decode_quoted_text(token: str) -> tuple[str, str | None]:
    """Decode a ``"..."`` token (QuotedText); returns ``(value, problem or None)``."""
    if "\\" not in token and "\r" not in token:
        return token[1:-1], None  # nothing to decode: most strings
    body = token[1:-1].replace("\r\n", "\n").replace("\r", "\n")
    return decode_escapes(body)


def decode_text_block(token: str) -> tuple[str, str | None]:
    """Decode a ``\"\"\"...\"\"\"`` token (TextBlock): strip incidental whitespace, then escapes.

    Returns ``(value, problem or None)``; a text block must start with a new line after the
    opening delimiter (only spaces may precede it).
    """
    body = token[3:-3].replace("\r\n", "\n").replace("\r", "\n")
    head, sep, rest = body.partition("\n")
    if not sep or head.strip(" \t"):
        return decode_escapes(body.strip())[0], "a text block must start with a new line after '\"\"\"'"
    lines = rest.split("\n")
    # Common whitespace prefix: non-blank lines, plus the last line (the closing delimiter's).
    prefix: int | None = None
    for idx, line in enumerate(lines):
        stripped = line.lstrip(" \t")
        if not stripped and idx != len(lines) - 1:
            continue
        width = len(line) - len(stripped)
        prefix = width if prefix is None else min(prefix, width)
    prefix = prefix or 0
    trimmed = [line[prefix:].rstrip(" \t") for line in lines]
    return decode_escapes("\n".join(trimmed))
