"""Regenerate (or check) the precomputed data shipped in ``smithy2cfn/data/precomputed``.

Run from a source checkout (an editable install) after changing the grammar, the prelude,
the parser or the lowering::

    python -m smithy2cfn.precompute           # rewrite the stale files
    python -m smithy2cfn.precompute --check   # exit 1 if a file is stale (what the tests check)

Files: ``parser-tables.json`` (the LALR tables, :mod:`smithy2cfn.parse.tables`) and
``prelude-documents.json`` (the lowered prelude, :mod:`smithy2cfn.load.prelude_data`) each
record the key (:mod:`smithy2cfn.stamps`) of what it was computed from; at run time a file
whose key does not match the installed package is ignored and the data is computed from
source, so stale data costs start-up time, never correctness. ``catalog.json`` (every code
and check as the source declares them, :mod:`smithy2cfn.catalog`) and the README's tables of
codes (between ``<!-- generated: NAME -->`` and ``<!-- end generated -->``) are made by
importing every module and reading their declarations (:func:`catalog_text`,
:func:`readme_text`); they carry no key: ``tests/api/test_catalog.py`` fails while they are stale.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import sys
from pathlib import Path

from smithy2cfn.load import prelude_data
from smithy2cfn.parse import tables
from smithy2cfn.parse.tables import grammar_text
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

COMMAND = "python -m smithy2cfn.precompute"
#: The repository's README (in a source checkout: the package is ``src/smithy2cfn``).
README = Path(__file__).resolve().parents[2] / "README.md"
#: Modules never imported to collect declarations (importing them runs something).
_NOT_IMPORTED = frozenset({"smithy2cfn.__main__"})
#: Stage headings of README's table of codes, by the code's first digit.
STAGES = {"1": "parse", "2": "load", "3": "validate", "4": "derive / emit", "5": "configuration and output",
          "6": "lint", "7": "command line and diff"}


def declarations() -> tuple[dict[str, Any], list[Any]]:
    """Every code and check the package declares: imports every module of the package
    (but :data:`_NOT_IMPORTED`) and returns ``(code → Code, [Check...])`` of the package's
    own modules (not those a test or an extension declared in the same process), the checks
    ordered by kind, module and line (the order the runners run them in).

    Raises:
        ImportError: a module does not import; ValueError: two modules declare one code.
    """
    import smithy2cfn
    from smithy2cfn.checks import DECLARED, KINDS
    from smithy2cfn.diagnostics import CODES

    for info in pkgutil.walk_packages(smithy2cfn.__path__, "smithy2cfn."):
        if info.name not in _NOT_IMPORTED:
            importlib.import_module(info.name)
    ours = ("smithy2cfn", "smithy2cfn.")
    checks = sorted((c for c in DECLARED.values() if c.module.startswith(ours)),
                    key=lambda c: (KINDS.index(c.kind), c.module, c.line, c.function))
    return {code: entry for code, entry in CODES.declared().items() if entry.owner.startswith(ours)}, checks


def catalog_text() -> str:
    """The text ``catalog.json`` should have (:func:`smithy2cfn.catalog.render`)."""
    from smithy2cfn import catalog

    codes, checks = declarations()
    return catalog.render({code: entry.to_json() for code, entry in codes.items()}, [c.to_json() for c in checks])


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _codes_table() -> str:
    codes, _ = declarations()
    rows = ["| code | severity | event ID | meaning |", "|---|---|---|---|"]
    stage = None
    for code in sorted(codes):
        entry = codes[code]
        if code[1] != stage:
            stage = code[1]
            rows.append(f"| **{STAGES.get(stage, stage)}** | | | |")
        meaning = entry.meaning + (" (exit 2)" if entry.usage else "")
        rows.append(f"| {code} | {', '.join(s.label for s in entry.severities)} | {entry.event_id or '—'} | "
                    f"{_cell(meaning)} |")
    return "\n".join(rows)


def _lint_table() -> str:
    """README's table of lint rules: each lint check's codes with their meaning, the rule
    the check mirrors and the severities (the meaning says when a code has another)."""
    codes, checks = declarations()
    rule_of: dict[str, str] = {}
    for check in checks:
        if check.kind == "lint":
            for code in check.codes:
                rule_of.setdefault(code, check.rule)
    rows = ["| code | meaning | rule it mirrors | severity |", "|---|---|---|---|"]
    for code in sorted(rule_of):
        entry = codes[code]
        rows.append(f"| {code} | {_cell(entry.meaning)} | {_cell(rule_of[code])} | "
                    f"{', '.join(s.label for s in entry.severities)} |")
    return "\n".join(rows)


def _diff_table() -> str:
    """README's table of diff rules: each diff check's code, guard-rail's check ID when it is
    one of guard-rail's, its meaning, the semantic-version level it gives, its severity and
    the rule it follows."""
    from smithy2cfn.diff.context import rule_id_of

    codes, checks = declarations()
    rows = ["| code | ruleId | meaning | level | severity | rule |", "|---|---|---|---|---|---|"]
    for check in sorted((c for c in checks if c.kind == "diff"), key=lambda c: c.codes):
        for code in check.codes:
            entry = codes[code]
            rows.append(f"| {code} | {rule_id_of(code) or '—'} | {_cell(entry.meaning)} | "
                        f"{getattr(check.run, 'level', 'major')} | {entry.severity.label} | {_cell(check.rule)} |")
    return "\n".join(rows)


#: The README's generated tables: name → the function making it.
TABLES = {"codes": _codes_table, "lint-rules": _lint_table, "diff-rules": _diff_table}
_GENERATED = lazy(r"(<!-- generated: ([a-z-]+) -->\n)(.*?)(<!-- end generated -->)", re.S)


def readme_text(text: str) -> str:
    """``text`` (the README) with each generated table (:data:`TABLES`) made anew.

    Raises:
        KeyError: a marker names no table.
    """
    return _GENERATED.sub(lambda m: m.group(1) + TABLES[m.group(2)]() + "\n" + m.group(4), text)


def current_texts() -> dict[str, str]:
    """File name → the text the data file should have for the sources as they are now.

    Raises:
        TypeError: a lowered value that the JSON form cannot hold exactly.
    """
    from smithy2cfn import catalog

    grammar = grammar_text()
    sources = prelude_data.prelude_sources()
    return {
        catalog.CATALOG_FILE: catalog_text(),
        tables.TABLES_FILE: tables.render_data(
            "LALR(1) tables of grammar/smithy.lark computed by Lark (see smithy2cfn.parse.tables)",
            tables.key(grammar), tables.tables_data(grammar)),
        prelude_data.DOCUMENTS_FILE: prelude_data.render_documents(
            prelude_data.lower_prelude(sources), prelude_data.key(sources)),
    }


def stale_files() -> list[str]:
    """Names of the shipped data files that differ from :func:`current_texts`, and
    ``README.md`` when its generated tables are stale."""
    out = []
    for name, text in current_texts().items():
        try:
            shipped = tables.data_file(name).read_text(encoding="utf-8")
        except OSError:
            shipped = None
        if shipped != text:
            out.append(name)
    readme = README.read_text(encoding="utf-8")
    if readme_text(readme) != readme:
        out.append(README.name)
    return out


def main(argv: list[str] | None = None) -> int:
    """Command line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a data file is stale; write nothing")
    args = parser.parse_args(argv)
    texts = current_texts()
    folder = Path(str(tables.data_file("")))
    status = 0
    for name, text in texts.items():
        path = folder / name
        status |= _refresh(path, path.read_text(encoding="utf-8") if path.is_file() else None, text, args.check)
    if README.is_file():
        old = README.read_text(encoding="utf-8")
        status |= _refresh(README, old, readme_text(old), args.check, "tables ")
    return status


def _refresh(path: Path, old: str | None, new: str, check: bool, what: str = "") -> int:
    """Write ``new`` to ``path`` unless it holds it already (with ``check``, only say that it
    is stale), printing which; 1 when it is stale under ``check``, else 0."""
    if old == new:
        print(f"{path}: {what}up to date")
        return 0
    if check:
        print(f"{path}: {what}stale; run {COMMAND}")
        return 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(new, encoding="utf-8", newline="\n")
    print(f"{path}: {what}written")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
