"""The LALR(1) tables of the IDL grammar: computed by Lark at development time, shipped as JSON.

``grammar/smithy.lark`` is the source of truth. Lark turns it into an LALR(1) automaton
(``python -m smithy2cfn.precompute`` runs it); this module keeps only what our own driver
(:mod:`smithy2cfn.parse.syntax`) needs to run that automaton, as plain data:

* ``terminals``: name → ``["str", text]`` (a keyword or punctuation) or ``["re", regex]``;
* ``rules``: per rule ``[origin, size, keep, expand1]`` — the nonterminal it reduces to,
  the number of symbols it pops, which of the popped values become the node's children
  (``null``: all of them, else ``[[index, splice], ...]``; ``splice`` marks the helper rules
  Lark makes for ``x*``/``x+``, whose children are spliced into the parent) and whether a
  node with one child is replaced by that child (Lark's ``?rule``). This is exactly what
  Lark's parse-tree builder does (``lark.parse_tree_builder``: anonymous tokens filtered out
  except in ``!rule``, ``_rule`` children inlined, ``?rule`` single children inlined);
* ``states``: per state ``{symbol: action}``; for a terminal, ``action >= 0`` shifts to that
  state and ``action < 0`` reduces rule ``-action - 1``; for a nonterminal it is the goto
  state;
* ``start_state`` and ``end_state`` (the state whose goto after a reduction accepts);
* ``safe_reductions``: per state, the terminals whose reduction cannot fail
  (:func:`safe_reductions`; derived from the tables above).

The file ``smithy2cfn/data/precomputed/parser-tables.json`` records a :func:`key`
over everything the tables are computed from (the grammar text, the Lark options, this
module's source, the package version). :func:`load_tables` uses the file only when its key
matches; otherwise :func:`parser_tables` computes the tables with Lark (imported only
then: when the shipped data is current no run imports Lark). The installed Lark version is
left out of the key on purpose: at run time the shipped tables do not depend on it, and
``tests/load/test_prelude_cache.py`` checks that the installed Lark computes the same automaton.
Plain JSON, nothing unpickled, nothing written at run time.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from smithy2cfn.stamps import content_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The Lark options the tables are computed with (part of the key).
LARK_OPTIONS: dict[str, Any] = dict(parser="lalr", lexer="basic", propagate_positions=True,
                                    maybe_placeholders=False)
#: Format tag of the precomputed data files.
FORMAT = "smithy2cfn-precomputed/2"
#: The file name of the tables under ``smithy2cfn/data/precomputed``.
TABLES_FILE = "parser-tables.json"
_PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def package_version() -> str:
    """The version of the smithy2cfn package these modules belong to."""
    from smithy2cfn.version import __version__

    return __version__


def source_digest(*parts: str, modules: tuple[str, ...] = ()) -> str:
    """The key (:func:`smithy2cfn.stamps.content_key`) of ``parts`` and the text of
    ``modules`` (paths relative to the ``smithy2cfn`` package, read from the installed
    package, newlines normalised).

    Raises:
        OSError: a module's source cannot be read (e.g. a bytecode-only install); callers
            then build from source.
    """
    texts = [*parts]
    for rel in modules:
        texts += [rel, (_PACKAGE_ROOT / rel).read_text(encoding="utf-8")]
    return content_key(texts)


@functools.cache
def grammar_text() -> str:
    """The grammar, from the installed package data or the source tree (editable install)."""
    res = Path(__file__).parents[1] / "grammar" / "smithy.lark"
    if res.is_file():
        return res.read_text(encoding="utf-8")
    return (Path(__file__).parents[3] / "grammar" / "smithy.lark").read_text(encoding="utf-8")


def key(grammar: str) -> str:
    """The key of the parser tables for ``grammar`` in this installation."""
    options = json.dumps(LARK_OPTIONS, sort_keys=True)
    return source_digest(FORMAT, "parser-tables", package_version(), options, grammar,
                         modules=("parse/tables.py",))


def data_file(name: str) -> Any:
    """The precomputed data file ``name`` (a path in the installed package)."""
    return _PACKAGE_ROOT / "data" / "precomputed" / name


def is_current(head: Any, expected_key: str) -> bool:
    """Whether the top-level object (or just its header) of a precomputed data file has
    this format and ``expected_key``."""
    return isinstance(head, dict) and head.get("format") == FORMAT and head.get("key") == expected_key


def read_data(name: str, expected_key: str, object_hook: Any = None) -> Any | None:
    """The ``data`` of precomputed file ``name`` (decoded with ``object_hook``) when its
    format and key match; ``None`` when it is missing, unreadable, or stale."""
    try:
        text = data_file(name).read_text(encoding="utf-8")
        doc = json.loads(text, object_hook=object_hook)
    except (OSError, ValueError):
        return None
    return doc.get("data") if is_current(doc, expected_key) else None


def data_head(what: str, key_: str, **fields: Any) -> str:
    """The start of a precomputed data file: ``{``, then one line per header key (format,
    what, key, then ``fields``), each ending in a comma; ``"data"`` comes next."""
    head = {"format": FORMAT, "what": what, "key": key_, **fields}
    return "{\n" + "".join(f"{json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items())


def render_data(what: str, key_: str, data: Any) -> str:
    """The text of a precomputed data file (strict JSON, one line per top-level key)."""
    body = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return data_head(what, key_) + f'"data": {body}\n}}\n'


def build_parser(grammar: str) -> Any:
    """The Lark parser built from the grammar text (a ``lark.Lark``; imports Lark)."""
    from lark import Lark

    return Lark(grammar, **LARK_OPTIONS)


def lark_parse_table(parser: Any) -> Any:
    """The LALR parse table of a Lark parser (Lark has no public accessor for it; only this
    function reaches into Lark's private attributes)."""
    return parser.parser.parser.parser.parse_table


def tables_data(grammar: str) -> dict:
    """The tables (see the module docstring) of the automaton Lark computes for
    ``grammar``, numbered canonically so that the file is byte-identical across runs.

    Lark numbers states in an order that changes from run to run (it iterates sets of
    objects); here states are numbered breadth-first from the start state, visiting
    symbols in name order, and rules are sorted by origin and expansion.

    Raises:
        ValueError: when a state cannot be reached from the start state.
    """
    from lark.lexer import PatternStr

    parser = build_parser(grammar)
    table = lark_parse_table(parser)
    (start,) = table.start_states
    start_state, end_state = table.start_states[start], table.end_states[start]
    order = {start_state: 0}
    queue = [start_state]
    rules: set = set()
    for state in queue:
        for sym in sorted(table.states[state]):
            action, arg = table.states[state][sym]
            if action.name == "Shift":
                if arg not in order:
                    order[arg] = len(order)
                    queue.append(arg)
            else:
                rules.add(arg)
    if len(order) != len(table.states):
        raise ValueError(f"{len(table.states) - len(order)} parser states are unreachable")
    rule_list = sorted(rules, key=lambda r: (r.origin.name, [s.name for s in r.expansion]))
    rule_index = {r: i for i, r in enumerate(rule_list)}
    states = []
    for state in queue:
        row = {}
        for sym, (action, arg) in sorted(table.states[state].items()):
            row[sym] = order[arg] if action.name == "Shift" else -rule_index[arg] - 1
        states.append(row)
    rule_rows = []
    for r in rule_list:
        if r.alias or r.options.template_source:
            raise ValueError(f"rule {r} has an alias or template: the driver does not know them")
        keep_all = r.options.keep_all_tokens
        keep = [[i, not s.is_term and s.name.startswith("_")] for i, s in enumerate(r.expansion)
                if keep_all or not (s.is_term and s.filter_out)]
        plain = len(keep) == len(r.expansion) and not any(splice for _, splice in keep)
        rule_rows.append([r.origin.name, len(r.expansion), None if plain else keep, bool(r.options.expand1)])
    terminals = {t.name: ["str" if isinstance(t.pattern, PatternStr) else "re",
                          t.pattern.value if isinstance(t.pattern, PatternStr) else t.pattern.to_regexp()]
                 for t in sorted(parser.terminals, key=lambda t: t.name)}
    return {"terminals": terminals, "rules": rule_rows, "states": states,
            "start_state": 0, "end_state": order[end_state],
            "safe_reductions": safe_reductions(states, rule_rows)}


def safe_reductions(states: list[dict[str, int]], rules: list[list]) -> list[list[str]]:
    """Per state, the terminals whose reduce action is sure to end in a shift of that
    terminal, whatever the stack below the state holds (sorted lists of names).

    An LALR(1) automaton merges the lookaheads of LR(1) states, so a reduction on ``t``
    may lead, through the gotos, to a state where ``t`` is an error: the driver then
    simulates the reductions (:func:`smithy2cfn.parse.syntax._can_shift`) before it
    commits to them. This static answer saves that simulation where it cannot fail. It is
    conservative: after a reduction of ``A → α`` (``n`` symbols) in state ``s``, the state
    below can be any ``p`` with a path of ``n`` transitions to ``s`` (in an LR(0)
    automaton every such path spells ``α``, so ``p`` has a goto on ``A``), and the
    reduction is safe when, for every such ``p``, ``t`` is shifted or safely reduced in
    ``goto(p, A)``. A cycle of reductions counts as unsafe. ``$END`` is left out (the
    driver always simulates it).
    """
    preds: list[set[int]] = [set() for _ in states]
    for p, row in enumerate(states):
        for act in row.values():
            if act >= 0:  # a shift on a terminal or a goto on a nonterminal
                preds[act].add(p)
    back_memo: dict[tuple[int, int], set[int]] = {}

    def back(s: int, n: int) -> set[int]:
        """The states ``n`` transitions before ``s``."""
        found = back_memo.get((s, n))
        if found is None:
            found = {s}
            for _ in range(n):
                found = set().union(*(preds[x] for x in found))
            back_memo[(s, n)] = found
        return found

    memo: dict[tuple[int, str], bool] = {}

    def safe(s: int, t: str) -> bool:
        known = memo.get((s, t))
        if known is not None:
            return known
        memo[(s, t)] = False  # in progress: a cycle is unsafe
        act = states[s].get(t)
        result = act is not None and act >= 0
        if act is not None and act < 0:
            origin, size = rules[-act - 1][:2]
            result = all(origin in states[p] and safe(states[p][origin], t) for p in back(s, size))
        memo[(s, t)] = result
        return result

    return [sorted(t for t, act in row.items() if act < 0 and t.isupper() and t != "$END" and safe(s, t))
            for s, row in enumerate(states)]


def load_tables(grammar: str) -> dict | None:
    """The shipped tables when they were computed from ``grammar`` with this package's
    sources; ``None`` otherwise (compute them instead)."""
    try:
        expected = key(grammar)
    except OSError:
        return None
    data = read_data(TABLES_FILE, expected)
    if not isinstance(data, dict) or not {"terminals", "rules", "states", "start_state", "end_state",
                                                 "safe_reductions"} <= set(data):
        return None
    return data


def parser_tables(grammar: str) -> dict:
    """The tables for ``grammar``: the shipped ones when current (:func:`load_tables`),
    else computed with Lark (:func:`tables_data`, tens of milliseconds plus Lark's import)."""
    data = load_tables(grammar)
    return data if data is not None else tables_data(grammar)


__all__ = ["FORMAT", "LARK_OPTIONS", "TABLES_FILE", "build_parser", "data_file", "key", "lark_parse_table",
           "load_tables", "parser_tables", "read_data", "render_data", "safe_reductions", "source_digest",
           "tables_data"]
