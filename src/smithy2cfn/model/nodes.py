"""JSON node values (trait values, ``@default``, metadata, settings): iterative helpers.

A node value can be nested as deeply as its reader allows (256 levels in the IDL, see
``S1016``) and, through the library API (``jsonAdd``, ``schemaDocumentExtensions``,
custom mappers), as deeply as a caller likes. Python's recursion limit is about 1,000
frames, so every helper here walks a value with an explicit stack and never recurses.

Numbers are checked against what strict JSON (RFC 8259) and CloudFormation can carry: a
``float`` must be finite (``NaN`` and ``Infinity`` are not JSON; an IDL literal such as
``1e400`` overflows to ``Infinity``), and an ``int`` must lie within the range of an IEEE
double (about ``1.8e308``) — larger ones are read as ``Infinity`` by JSON parsers that use
doubles, and Python cannot print integers of more than 4,300 digits by default.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Mapping

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: How deeply a node value may nest arrays and objects: the limit of both readers (IDL and
#: JSON, ``S1016``), and the deepest value the helpers here descend into.
MAX_NODE_DEPTH = 256

_DOUBLE_MAX = sys.float_info.max


def is_number(value: Any) -> bool:
    """True for ``int`` and ``float`` values that are not ``bool``."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def node_type(value: Any) -> str:
    """The Smithy node type name of a JSON value: ``"object"``, ``"array"``, ``"string"``,
    ``"number"``, ``"boolean"`` or ``"null"`` (the reference's ``NodeType``, as its messages
    name it). ``bool`` is a boolean, not a number; any other value is ``"null"``."""
    if isinstance(value, bool):
        return "boolean"
    if is_number(value):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def node_kind(value: Any) -> str:
    """:func:`node_type` with its article, as messages name what a value is: ``"an object"``,
    ``"an array"``, ``"a string"``, ``"a number"``, ``"a boolean"``, ``"null"``."""
    kind = node_type(value)
    return kind if kind == "null" else ("an " if kind[0] in "ao" else "a ") + kind


def as_object(value: Any) -> dict:
    """``value`` when it is a JSON object (a ``dict``), else ``{}`` (raw documents and trait
    values may hold anything)."""
    return value if isinstance(value, dict) else {}


def as_array(value: Any) -> list:
    """``value`` when it is a JSON array (a ``list``), else ``[]``."""
    return value if isinstance(value, list) else []


def string_items(value: Any) -> list[str]:
    """The strings of a JSON array, in order, others dropped (``[]`` for a non-array)."""
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def describe(value: Any, width: int = 60) -> str:
    """A short, always printable text for ``value`` in a message.

    Integers of more than about 60 digits are described by their size (``str()`` of an
    integer over 4,300 digits raises ``ValueError``), floats use JSON spellings
    (``NaN``, ``Infinity``), strings are quoted and cut to ``width`` characters, objects
    and arrays are named, not printed (they may be nested thousands of levels deep).
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        bits = value.bit_length()
        if bits > 200:
            return f"an integer of about {int(bits * math.log10(2)) + 1} digits"
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, str):
        text = json.dumps(value if len(value) <= width else value[:width], ensure_ascii=False)
        return text if len(value) <= width else text[:-1] + '..."'
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return f"a Python {type(value).__name__}"


def number_problem(value: Any) -> str | None:
    """Why a number cannot be written as a finite JSON number, or ``None`` when it can.

    Non-numbers (and ``bool``) give ``None``: only ``int``/``float`` values are judged.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN is not a JSON number"
        if math.isinf(value):
            return (f"{describe(value)} is not a JSON number (a number literal beyond the range "
                    "of a double, about 1.8e308, becomes Infinity)")
        return None
    if isinstance(value, int) and abs(value) > _DOUBLE_MAX:
        return f"{describe(value)} is beyond the range of a double (about 1.8e308)"
    return None


def pointer(path: tuple | list, width: int = 120) -> str:
    """RFC 6901 JSON pointer of a path of keys/indexes (``""`` for the root), for messages:
    one longer than ``width`` characters keeps its start and end around ``…``."""
    text = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)
    return shorten(text, width)


def shorten(text: str, width: int = 120) -> str:
    """``text``, or its start and end around ``…`` when longer than ``width``."""
    if len(text) <= width:
        return text
    keep = max(width // 2 - 1, 1)
    return text[:keep] + "…" + text[-keep:]


def truncate(text: str, width: int = 40) -> str:
    """``text``, or its first ``width - 3`` characters and ``...`` when it is longer than
    ``width`` (a token quoted in a message)."""
    return text if len(text) <= width else text[:width - 3] + "..."


def scan(value: Any, max_depth: int = MAX_NODE_DEPTH, limit: int = 20) -> list[tuple[tuple, str]]:
    """Find what keeps ``value`` from being written as strict JSON.

    Walks ``value`` iteratively in document order and reports, as ``(path, problem)``:
    numbers :func:`number_problem` rejects, object keys that are not strings, Python
    objects that are not JSON values (``set``, ``tuple``, custom classes...), and
    containers nested more than ``max_depth`` levels below ``value`` (not descended).
    ``path`` is a tuple of keys and indexes (see :func:`pointer`). Stops after ``limit``
    problems. Never raises, whatever the depth or size of ``value``.
    """
    problems: list[tuple[tuple, str]] = []
    stack: list[tuple[Any, tuple, int]] = [(value, (), 0)]
    while stack and len(problems) < limit:
        v, path, depth = stack.pop()
        if v is None or isinstance(v, (bool, str)):
            continue
        if isinstance(v, (int, float)):
            problem = number_problem(v)
            if problem:
                problems.append((path, problem))
            continue
        if isinstance(v, (dict, list)):
            if depth >= max_depth and v:
                problems.append((path, f"nested more than {max_depth} levels deep"))
                continue
            if isinstance(v, dict):
                children = []
                for k, x in v.items():
                    if not isinstance(k, str):
                        problems.append((path, f"an object key is not a string but {describe(k)}"))
                        continue
                    children.append((x, path + (k,), depth + 1))
            else:
                children = [(x, path + (i,), depth + 1) for i, x in enumerate(v)]
            stack.extend(reversed(children))
            continue
        problems.append((path, f"{describe(v)} is not a JSON value"))
    return problems


def copy_node(value: Any) -> Any:
    """A copy of a JSON value whose objects and arrays are new (``dict``/``list``; mappings
    and sequences such as ``MappingProxyType`` and ``tuple`` become them), scalars shared.
    Built iteratively, for any depth: a setting's value written into a schema is copied
    first, so that later mappers that change the schema never change the setting."""
    def fresh(v: Any) -> Any:
        return {} if isinstance(v, Mapping) else [] if isinstance(v, (list, tuple)) else v

    root = fresh(value)
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        if isinstance(source, Mapping):
            for k, v in source.items():
                target[k] = child = fresh(v)
                if child is not v:
                    stack.append((v, child))
        elif isinstance(source, (list, tuple)):
            for v in source:
                child = fresh(v)
                target.append(child)
                if child is not v:
                    stack.append((v, child))
    return root


class _Raw(str):
    """Text written as is by :func:`canonical`."""


def canonical(value: Any) -> str:
    """A canonical text of a JSON value: equal values (object key order aside) give equal
    texts. Integral floats equal their integers (``1.0`` ≙ ``1``) and ``true`` differs from
    ``1``. Built iteratively, for any depth; for ``uniqueItems`` checks."""
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        v = stack.pop()
        if type(v) is _Raw:
            out.append(v)
        elif isinstance(v, dict):
            items = sorted(((str(k), x) for k, x in v.items()), key=lambda kv: kv[0])
            stack.append(_Raw("}"))
            for i in range(len(items) - 1, -1, -1):
                stack.append(items[i][1])
                stack.append(_Raw(("," if i else "") + json.dumps(items[i][0]) + ":"))
            stack.append(_Raw("{"))
        elif isinstance(v, (list, tuple)):
            stack.append(_Raw("]"))
            for i in range(len(v) - 1, -1, -1):
                stack.append(v[i])
                if i:
                    stack.append(_Raw(","))
            stack.append(_Raw("["))
        elif isinstance(v, str):
            out.append(json.dumps(v))
        elif v is None or isinstance(v, bool):
            out.append(json.dumps(v))
        elif isinstance(v, float) and v.is_integer():
            out.append("i" + format(int(v), "x"))
        elif isinstance(v, int):
            out.append("i" + format(v, "x"))  # hex: no 4,300-digit limit
        elif isinstance(v, float):
            out.append("f" + repr(v))
        else:
            out.append(f"<{type(v).__name__}:{id(v)}>")
    return "".join(out)


__all__ = ["MAX_NODE_DEPTH", "as_array", "as_object", "canonical", "describe", "is_number", "node_kind", "node_type",
           "number_problem", "pointer", "scan", "shorten", "string_items", "truncate"]
