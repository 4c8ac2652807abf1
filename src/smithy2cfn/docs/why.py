"""Why a property has its update behaviour, in model terms, one sentence per reason: the
reasons of ``smithy2cfn explain`` (:func:`smithy2cfn.derive.explain.explain_property`, the
one place that says why), each followed by where it is written (``vault.smithy:133``)."""

from __future__ import annotations

from smithy2cfn.derive.explain import explain_property
from smithy2cfn.derive.plan import PropertyPlan
from smithy2cfn.diagnostics import Span
from smithy2cfn.model.shapes import Model


def where(span: Span | None, root: str = "") -> str:
    """``" (vault.smithy:133)"``: the file (relative to ``root``, a folder prefix ending in
    ``/`` or empty) and line of ``span``; empty without a line."""
    if span is None or not span.line:
        return ""
    path = span.path[len(root):] if root and span.path.startswith(root) else span.path
    return f" ({path}:{span.line})"


def mutability_reasons(model: Model, resource_id: str, prop: PropertyPlan, root: str = "") -> tuple[str, ...]:
    """Why ``prop`` (of the resource ``resource_id``) is createOnly, readOnly, writeOnly or
    updatable: the mutability reasons of its explanation (its ``required`` and
    ``deprecated`` ones left out: the docs say those on their own lines), each with
    :func:`where`. ``root`` is cut from the front of file paths."""
    explained = explain_property(model, model.get(resource_id), prop)
    return tuple(f"{r.text}{where(r.span, root)}" for r in explained.reasons
                 if not r.text.startswith(("required:", "deprecated:")))
