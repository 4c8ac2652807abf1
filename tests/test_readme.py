"""The README's library example runs and prints what its comments say; its diagnostics table
is the registry of codes (``smithy2cfn.diagnostics.CODES``)."""

from __future__ import annotations

import contextlib
import io
import os
import re

from conftest import REPO
from smithy2cfn.diagnostics import CODES


def test_library_example_runs():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    # each print(...) with a comment prints the comment (the diagnostics printed before them aside)
    expected = re.findall(r"^print\(.*\)\s+# (.*)$", code, re.M)
    assert len(expected) >= 3 and out.getvalue().splitlines()[-len(expected):] == expected


def test_diagnostics_table_is_the_registry():
    """README §Diagnostics lists exactly the registry's codes, in its order, with the same
    severities and reference event IDs (``—`` for none)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (S\d{4}) \| ([a-z, ]+) \| (\S+) \| .+ \|$", text, re.M)
    table = [(code, severity, None if event == "—" else event) for code, severity, event in rows]
    registry = [(code, ", ".join(s.name.lower() for s in c.severities), c.event_id) for code, c in CODES.items()]
    assert table == registry


def test_every_code_in_the_source_is_registered():
    """A code written anywhere in the package is in the registry (so it has a severity,
    a README row and its event ID)."""
    used = set()
    for path in (REPO / "src" / "smithy2cfn").rglob("*.py"):
        used |= set(re.findall(r"[\"'](S\d{4})[\"']", path.read_text(encoding="utf-8")))
    assert used and used <= set(CODES), sorted(used - set(CODES))
