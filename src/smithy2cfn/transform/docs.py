"""README's table of the transforms (README "Transforms"), made from their declarations
(:mod:`smithy2cfn.transform.builtins`, :mod:`smithy2cfn.transform.registry`)."""

from __future__ import annotations

from smithy2cfn.transform import builtins  # noqa: F401  (declares the transforms)
from smithy2cfn.transform.registry import TRANSFORMS, Transform


def markdown_table() -> str:
    """README's table of the transforms (README "Transforms"): name, arguments (type,
    default or required) and the reference class, one row per transform, sorted by name.
    ``tests/transform/test_transforms_readme.py`` checks that README holds it."""
    rows = ["| transform | what it does | arguments | reference class |", "|---|---|---|---|"]
    for name in sorted(TRANSFORMS):
        declared = TRANSFORMS[name]
        args = "<br>".join(
            f"`{a.name}`: {a.type.label}" + (", required" if a.required else
                                            "" if a.default in (None, (), False) else f", default `{a.default}`")
            for a in declared.args) or "none"
        rows.append(f"| `{name}` | {_summary(declared)} | {args} | `{declared.reference}` |")
    return "\n".join(rows) + "\n"


def _summary(declared: Transform) -> str:
    """The first sentence of a transform's docstring, without its reference note."""
    text = " ".join((declared.function.__doc__ or "").split())
    for end in (" (reference", ". "):
        if end in text:
            text = text[:text.index(end)]
    return text.rstrip(".").replace("``", "`").replace("|", "\\|") + "."


__all__ = ["markdown_table"]
