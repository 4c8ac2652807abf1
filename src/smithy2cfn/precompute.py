"""Regenerate (or check) the precomputed data shipped in ``smithy2cfn/data/precomputed``.

Run from a source checkout (an editable install) after changing the grammar, the prelude,
the parser or the lowering::

    python -m smithy2cfn.precompute           # rewrite the stale files
    python -m smithy2cfn.precompute --check   # exit 1 if a file is stale (what the tests check)

Files: ``parser-tables.json`` (the LALR tables, :mod:`smithy2cfn.parse.tables`) and
``prelude-documents.json`` (the lowered prelude, :mod:`smithy2cfn.load.prelude_data`). Each
records the key (:mod:`smithy2cfn.stamps`) of what it was computed from; at run time a file whose key does not
match the installed package is ignored and the data is computed from source, so stale data
costs start-up time, never correctness.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from smithy2cfn.load import prelude_data
from smithy2cfn.parse import tables
from smithy2cfn.parse.syntax import grammar_text

COMMAND = "python -m smithy2cfn.precompute"


def current_texts() -> dict[str, str]:
    """File name → the text the data file should have for the sources as they are now.

    Raises:
        TypeError: a lowered value that the JSON form cannot hold exactly.
    """
    grammar = grammar_text()
    sources = prelude_data.prelude_sources()
    return {
        tables.TABLES_FILE: tables.render_data(
            "LALR(1) tables of grammar/smithy.lark computed by Lark (see smithy2cfn.parse.tables)",
            tables.key(grammar), tables.tables_data(grammar)),
        prelude_data.DOCUMENTS_FILE: prelude_data.render_documents(
            prelude_data.lower_prelude(sources), prelude_data.key(sources)),
    }


def stale_files() -> list[str]:
    """Names of the shipped data files that differ from :func:`current_texts`."""
    out = []
    for name, text in current_texts().items():
        try:
            shipped = tables.data_file(name).read_text(encoding="utf-8")
        except OSError:
            shipped = None
        if shipped != text:
            out.append(name)
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
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        if old == text:
            print(f"{path}: up to date")
        elif args.check:
            print(f"{path}: stale; run {COMMAND}")
            status = 1
        else:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="\n")
            print(f"{path}: written")
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
