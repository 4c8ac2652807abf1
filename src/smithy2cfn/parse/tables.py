"""The LALR parser tables, computed at development time and shipped as plain JSON.

Building the Lark LALR(1) parser from ``grammar/smithy.lark`` takes tens of milliseconds
per process. Instead of Lark's ``cache=True`` (a pickle under a predictable name in the
shared temp folder, which another user can plant), the tables are serialized once with
Lark's own ``memo_serialize`` (the data ``lark.tools.standalone`` embeds) into
``smithy2cfn/data/precomputed/parser-tables.json`` and loaded with
``Lark._load_from_dict``: plain JSON, nothing unpickled, nothing written at run time.

The file records a sha256 :func:`key` over everything the tables are computed from (the
grammar text, the Lark options and version, this module's source, the package version).
:func:`load_parser` uses the file only when its key matches the installed package's;
otherwise the caller builds the parser from the grammar. ``python -m smithy2cfn.precompute``
rewrites the file (README "Precomputed data"); ``tests/test_prelude_cache.py`` fails when
it is stale.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

from lark import Lark
from lark import __version__ as LARK_VERSION
from lark.grammar import Rule
from lark.lexer import TerminalDef

#: The Lark options of our parser (part of the key).
LARK_OPTIONS: dict[str, Any] = dict(parser="lalr", lexer="basic", propagate_positions=True,
                                    maybe_placeholders=False)
#: Format tag of the precomputed data files.
FORMAT = "smithy2cfn-precomputed/1"
#: The file name of the tables under ``smithy2cfn/data/precomputed``.
TABLES_FILE = "parser-tables.json"
_PACKAGE_ROOT = Path(__file__).resolve().parents[1]
_INT_KEYS = "#int"  # {"#int": [[key, value], ...]}: a dict with int keys (JSON keys are strings)


def package_version() -> str:
    """The version of the smithy2cfn package these modules belong to."""
    from smithy2cfn.version import __version__

    return __version__


def source_digest(*parts: str, modules: tuple[str, ...] = ()) -> str:
    """sha256 (hex) over ``parts`` and the text of ``modules`` (paths relative to the
    ``smithy2cfn`` package, read from the installed package, newlines normalised).

    Raises:
        OSError: a module's source cannot be read (e.g. a bytecode-only install); callers
            then build from source.
    """
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8")
        h.update(len(data).to_bytes(8, "big") + data)
    for rel in modules:
        data = rel.encode("utf-8") + b"\0" + (_PACKAGE_ROOT / rel).read_text(encoding="utf-8").encode("utf-8")
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def key(grammar: str) -> str:
    """The key of the parser tables for ``grammar`` in this installation."""
    options = json.dumps(LARK_OPTIONS, sort_keys=True)
    return source_digest(FORMAT, "parser-tables", package_version(), LARK_VERSION, options, grammar,
                         modules=("parse/tables.py",))


def data_file(name: str) -> Any:
    """The precomputed data file ``name`` (an importlib.resources Traversable)."""
    return resources.files("smithy2cfn").joinpath("data", "precomputed", name)


def read_data(name: str, expected_key: str, object_hook: Any = None) -> Any | None:
    """The ``data`` of precomputed file ``name`` (decoded with ``object_hook``) when its
    format and key match; ``None`` when it is missing, unreadable, or stale."""
    try:
        text = data_file(name).read_text(encoding="utf-8")
        doc = json.loads(text, object_hook=object_hook)
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("key") != expected_key:
        return None
    return doc.get("data")


def render_data(what: str, key_: str, data: Any) -> str:
    """The text of a precomputed data file (strict JSON, one line per top-level key)."""
    head = {"format": FORMAT, "what": what, "key": key_}
    body = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return "{\n" + "".join(f"{json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items()) + \
        f'"data": {body}\n}}\n'


def _encode(value: Any) -> Any:
    """Lark's serialized data as JSON: tuples → lists, int-keyed dicts → ``{"#int": pairs}``.

    Raises:
        TypeError: for anything else that JSON cannot hold exactly.
    """
    if isinstance(value, dict):
        if value and all(type(k) is int for k in value):
            return {_INT_KEYS: [[k, _encode(v)] for k, v in value.items()]}
        if not all(isinstance(k, str) for k in value) or _INT_KEYS in value:
            raise TypeError(f"cannot encode dict keys {list(value)[:5]!r}")
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"cannot encode {type(value).__name__}")


def _int_keys_hook(d: dict) -> Any:
    if _INT_KEYS in d:
        return {k: v for k, v in d[_INT_KEYS]}
    return d


def build_parser(grammar: str) -> Lark:
    """The parser built from the grammar text (what the tables file saves us)."""
    return Lark(grammar, **LARK_OPTIONS)


def _canonical(table: dict) -> dict:
    """A serialized LALR parse table (``tokens``, ``states``, ``start_states``,
    ``end_states``) with its numbering made canonical: symbols sorted by name, states
    numbered in breadth-first order from the start state, each state's symbols in name
    order. Lark numbers states in an order that changes from run to run (it iterates sets
    of objects); the automaton itself does not change, so this makes the file
    byte-identical across runs.

    Raises:
        ValueError: when a state cannot be reached from the start state.
    """
    names = table["tokens"]                           # symbol index -> name
    states = table["states"]                          # state -> {symbol index: (0 shift | 1 reduce, arg)}
    (start_name,) = table["start_states"]
    order = {table["start_states"][start_name]: 0}
    queue = [table["start_states"][start_name]]
    for state in queue:
        for sym in sorted(states[state], key=lambda i: names[i]):
            action, arg = states[state][sym]
            if action == 0 and arg not in order:
                order[arg] = len(order)
                queue.append(arg)
    if len(order) != len(states):
        raise ValueError(f"{len(states) - len(order)} parser states are unreachable")
    symbols = sorted(names.values())
    index = {name: i for i, name in enumerate(symbols)}
    new_states = {}
    for state in queue:
        acts = states[state]
        new_states[order[state]] = {
            index[names[sym]]: ((0, order[arg]) if action == 0 else (1, arg))
            for sym, (action, arg) in sorted(acts.items(), key=lambda kv: names[kv[0]])}
    return {"tokens": dict(enumerate(symbols)), "states": new_states,
            "start_states": {k: order[v] for k, v in table["start_states"].items()},
            "end_states": {k: order[v] for k, v in table["end_states"].items()}}


def tables_data(grammar: str) -> dict:
    """The JSON-able tables of the parser built from ``grammar`` (for the generator), with
    a canonical numbering of the LALR states (:func:`_canonical`)."""
    data, memo = build_parser(grammar).memo_serialize([TerminalDef, Rule])
    data["parser"]["parser"] = _canonical(data["parser"]["parser"])
    return _encode({"data": data, "memo": memo})


def load_parser(grammar: str) -> Lark | None:
    """The parser from the shipped tables when they were computed from ``grammar`` with
    this package's sources and Lark version; ``None`` otherwise (build it instead)."""
    try:
        expected = key(grammar)
    except OSError:
        return None
    data = read_data(TABLES_FILE, expected, _int_keys_hook)
    if not isinstance(data, dict):
        return None
    try:
        return Lark._load_from_dict(data["data"], data["memo"])
    except (KeyError, TypeError, ValueError):
        return None  # a file of the right key is never like this; build rather than fail


__all__ = ["FORMAT", "LARK_OPTIONS", "TABLES_FILE", "build_parser", "data_file", "key", "load_parser",
           "read_data", "render_data", "source_digest", "tables_data"]
