"""The README's library example runs and prints what its comment says (its tables of codes are
generated from the declarations: ``tests/api/test_catalog.py``)."""

from __future__ import annotations

import contextlib
import io
import os
import re

from conftest import REPO


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
