"""README "Transforms" holds the table the transform declarations make."""

from __future__ import annotations

from conftest import REPO
from smithy2cfn.transform.docs import markdown_table


def test_readme_lists_every_transform_as_declared() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index("<!-- transforms table:")
    start = text.index("\n", start) + 1
    end = text.index("<!-- end of transforms table -->", start)
    assert text[start:end] == markdown_table(), "README's transforms table is stale: paste markdown_table()"
