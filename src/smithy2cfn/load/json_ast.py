"""Reading Smithy JSON AST files into :class:`SourceDocument` (Smithy 2.0 "JSON AST").

The JSON AST already uses absolute shape IDs; this module checks the document's structure,
splits ``"type": "apply"`` entries into :class:`ApplyStatement` objects, and finds
approximate source positions for shapes and members (the line of their key) so that
diagnostics can point into the file.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from smithy2cfn.diagnostics import Diagnostic, Severity, Span
from smithy2cfn.load.document import ApplyStatement, SourceDocument

#: A JSON string, as an "unrolled loop" (one regex step per escape, not per character;
#: possessive where Python has it, so that no backtracking state is kept at all).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"'.replace("*", "*+" if sys.version_info >= (3, 11) else "*"),
                     re.S)
_COLON = re.compile(r"\s*:")


def _key_positions(text: str, path: str) -> dict[str, Span]:
    """Map every object key that looks like a shape ID to the span of its first occurrence.

    The strings of the (valid) JSON text are matched one after the other, so a search
    never starts inside a string: starting at every quote, escaped ones included, made a
    long string with escaped quotes quadratic (hours for a 4 MB ``documentation``).
    """
    spans: dict[str, Span] = {}
    line = 1
    line_start = counted = 0
    for m in _STRING.finditer(text):
        start = m.start()
        if not _COLON.match(text, m.end()):
            continue
        key = text[start + 1:m.end() - 1]
        if "#" not in key or key in spans:
            continue
        line += text.count("\n", counted, start)
        line_start = max(line_start, text.rfind("\n", counted, start) + 1)
        counted = start
        spans[key] = Span(path, line, start - line_start + 1)
    return spans


def _metadata_key_positions(text: str, path: str, keys: list[str]) -> dict[str, Span]:
    """Approximate spans of the top-level keys of the ``"metadata"`` object: the first
    ``"key":`` after the ``"metadata"`` key (the JSON itself is already known valid)."""
    spans: dict[str, Span] = {}
    start = re.search(r'"metadata"\s*:', text)
    if start is None:
        return spans
    for key in keys:
        m = re.compile(re.escape(json.dumps(key)) + r"\s*:").search(text, start.end())
        if m is None:
            continue
        line = text.count("\n", 0, m.start()) + 1
        col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        spans[key] = Span(path, line, col)
    return spans


def _error(path: str, message: str, span: Span | None = None, code: str = "S1101") -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, message, span or Span(path))


def read_json_ast(text: str, path: str) -> SourceDocument:
    """Parse a JSON AST file into a :class:`SourceDocument`; never raises on bad input.

    Args:
        text: the file's text.
        path: its path, for diagnostics.

    Returns:
        The document; problems (invalid JSON ``S1100``, wrong structure ``S1101``,
        unsupported version ``S1102``) are in ``document.diagnostics``.

    Follows Smithy 2.0 "JSON AST" (top-level ``smithy``, ``metadata``, ``shapes``).
    """
    doc = SourceDocument(path=path, version="2.0", ast={"smithy": "2.0", "metadata": {}, "shapes": {}})
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        line = getattr(e, "lineno", 0)
        col = getattr(e, "colno", 0)
        msg = getattr(e, "msg", str(e))
        doc.diagnostics.append(Diagnostic("S1100", Severity.ERROR, f"invalid JSON: {msg}",
                                          Span(path, line, col)))
        return doc
    if not isinstance(data, dict):
        doc.diagnostics.append(_error(path, "a JSON AST model must be a JSON object"))
        return doc
    version = data.get("smithy")
    if not isinstance(version, str):
        doc.diagnostics.append(_error(path, "a JSON AST model needs a string 'smithy' version"))
        return doc
    if version in ("1", "1.0"):
        doc.version = "1.0"
    elif version in ("2", "2.0"):
        doc.version = "2.0"
    else:
        doc.diagnostics.append(_error(path, f"unsupported Smithy version '{version}'", code="S1102"))
        return doc
    doc.ast["smithy"] = doc.version
    positions = _key_positions(text, path)
    metadata = data.get("metadata", {})
    if not isinstance(metadata, dict):
        doc.diagnostics.append(_error(path, "'metadata' must be an object"))
    else:
        doc.ast["metadata"] = metadata
        doc.metadata_spans = _metadata_key_positions(text, path, list(metadata))
    shapes = data.get("shapes", {})
    if not isinstance(shapes, dict):
        doc.diagnostics.append(_error(path, "'shapes' must be an object"))
        return doc
    for shape_id, body in shapes.items():
        span = positions.get(shape_id, Span(path))
        if not _valid_absolute_id(shape_id):
            doc.diagnostics.append(_error(path, f"invalid shape ID '{shape_id}'", span))
            continue
        if not isinstance(body, dict) or not isinstance(body.get("type"), str):
            doc.diagnostics.append(_error(path, f"shape '{shape_id}' needs an object with a 'type'", span))
            continue
        traits = body.get("traits", {})
        if not isinstance(traits, dict):
            doc.diagnostics.append(_error(path, f"'traits' of '{shape_id}' must be an object", span))
            traits = {}
        if body["type"] == "apply":
            doc.applies.append(ApplyStatement(shape_id, dict(traits), span))
            continue
        if doc.version == "1.0":
            for key, feature in (("properties", "resource properties"), ("mixins", "mixins")):
                if key in body and (key != "properties" or body["type"] == "resource"):
                    doc.diagnostics.append(_error(
                        path, f"{feature} can only be used with Smithy version 2 or later "
                        f"(shape '{shape_id}' is in a version {version} file)", span, code="S1013"))
        doc.ast["shapes"][shape_id] = body
        doc.spans[shape_id] = span
        members = body.get("members")
        if isinstance(members, dict):
            for name in members:
                doc.spans[f"{shape_id}${name}"] = span
        for name in ("member", "key", "value"):
            if isinstance(body.get(name), dict):
                doc.spans[f"{shape_id}${name}"] = span
    return doc


_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*#[A-Za-z_][A-Za-z0-9_]*(\$[A-Za-z_][A-Za-z0-9_]*)?$")


def _valid_absolute_id(text: str) -> bool:
    return bool(_ID.match(text))


def is_absolute_shape_id(text: Any) -> bool:
    """True when ``text`` is a syntactically valid absolute shape ID (Smithy 2.0 §"Shape ID")."""
    return isinstance(text, str) and _valid_absolute_id(text)
