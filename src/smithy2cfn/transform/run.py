"""Running a projection's transforms in order (reference ``SmithyBuildImpl.applyProjectionTransforms``
and ``applyQueuedProjections``), with every problem a located diagnostic.

Before anything runs, every transform of the projection (and of the projections ``apply``
reaches) is looked up and its arguments checked, so that one run reports all the errors it
can find; then the transforms run in order. ``apply`` runs the named projections'
transforms in its place, in order; applying the projection itself, an unknown projection, or
a cycle of ``apply`` is an error naming the cycle (the reference's ``Cycle found in apply
transforms: a -> b -> a``).

Codes (``S52xx``, configuration errors; the reference has no event IDs for them):

* ``S5201`` unknown transform name (error; hint: the known names, the closest first);
* ``S5205`` ``apply`` of an unknown projection, of itself, or a cycle (error);
* ``S5206`` a transform cannot be applied to this model with these arguments: what the
  reference's transforms throw ``SmithyBuildException`` for (error).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence

from smithy2cfn import garbage_collection
from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.model.shapes import Model
from smithy2cfn.transform import builtins  # noqa: F401  (declares the transforms)
from smithy2cfn.transform.ops import Draft
from smithy2cfn.transform.registry import (
    TRANSFORMS,
    Context,
    Suppressed,
    Transform,
    TransformError,
    check_args,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CODES = declare_codes(
    Code("S5201", Severity.ERROR, None, "unknown projection transform", usage=True),
    Code("S5205", Severity.ERROR, None,
         "the 'apply' transform names an unknown projection, its own projection, or makes a cycle", usage=True),
    Code("S5206", Severity.ERROR, None, "a projection transform cannot be applied to the model", usage=True),
)


class _Step:
    """A transform entry that passed its checks: the declaration and converted arguments."""

    __slots__ = ("config", "declared", "args")

    def __init__(self, config: Any, declared: Transform, args: dict[str, Any]) -> None:
        self.config = config
        self.declared = declared
        self.args = args


def _hint_names(name: str) -> str:
    """The names closest to ``name``; every known name when none is close."""
    names = sorted(TRANSFORMS)
    close = difflib.get_close_matches(name, names, n=3)
    if close:
        return f"did you mean {', '.join(repr(c) for c in close)}? (README \"Transforms\" lists them all)"
    return f"known transforms: {', '.join(names)}"


def _check(transforms: Sequence[Any], diags: Diagnostics, where: str) -> tuple[list[_Step], bool]:
    """The checked steps of one projection's transforms (those without errors), and whether
    every one was without errors (each error reported)."""
    steps: list[_Step] = []
    ok = True
    for config in transforms:
        declared = TRANSFORMS.get(config.name)
        if declared is None:
            diags.error("S5201", f"{where}: unknown transform '{config.name}'", config.span,
                        hint=_hint_names(str(config.name)))
            ok = False
            continue
        args = check_args(declared, config.args, diags, config.span, config.arg_spans or {})
        if args is None:
            ok = False
            continue
        steps.append(_Step(config, declared, args))
    return steps, ok


def check_transforms(transforms: Sequence[Any], diags: Diagnostics, *,
                     projections: Mapping[str, Sequence[Any]] | None = None, projection: str | None = None) -> bool:
    """Check a projection's transforms without running them: every entry's name and arguments
    (``S5201``-``S5204``), and every projection its ``apply`` transforms reach, with their own
    entries (``S5205``: unknown, itself, a cycle). Reading a ``smithy-build.json`` checks each
    projection this way before any model is loaded; :func:`run_transforms` checks the same.

    Returns:
        Whether no error was found (each one is reported in ``diags``).
    """
    projections = projections or {}
    where = f"projection '{projection}'" if projection else "projection"
    top, ok = _check(transforms, diags, where)
    return _check_applies(top, projection, projections, diags, {}, [projection or ""]) and ok


def check_transform_names(transforms: Sequence[Any], diags: Diagnostics, *, projection: str | None = None) -> bool:
    """Check only that every transform of a projection has a known name (``S5201``): what
    the reference checks of every projection, abstract ones and those not built included,
    when ``SmithyBuildImpl`` is created (``createTransformers``: ``UnknownTransformException``);
    arguments and ``apply`` targets it checks only when a projection is built.

    Returns:
        Whether every name is known (each unknown one is reported in ``diags``).
    """
    where = f"projection '{projection}'" if projection else "projection"
    ok = True
    for config in transforms:
        if config.name not in TRANSFORMS:
            diags.error("S5201", f"{where}: unknown transform '{config.name}'", config.span,
                        hint=_hint_names(str(config.name)))
            ok = False
    return ok


@garbage_collection.paused()  # copies of a model's shapes: many allocations, no cycles
def run_transforms(model: Model, transforms: Sequence[Any], diags: Diagnostics, *,
                   projections: Mapping[str, Sequence[Any]] | None = None, projection: str | None = None,
                   suppressed: Suppressed = None) -> Model:
    """``model`` with ``transforms`` (:class:`~smithy2cfn.transform.TransformConfig`) applied
    in order; see :func:`smithy2cfn.transform.apply_transforms`, which calls it.

    Args:
        projection: the name of the projection whose transforms these are (for ``apply``:
            applying it again is an error, and cycles are named from it).
        suppressed: the events validation of ``model`` suppressed, ``(event ID, shape ID)``
            (``filterSuppressions``'s ``removeUnused``).

    Returns:
        The transformed model. When an entry or an ``apply`` is in error, every such error is
        reported and nothing runs (``model`` is returned); when a transform fails as it runs
        (``S5206``), the model as far as the transforms before it took it.
    """
    projections = projections or {}
    where = f"projection '{projection}'" if projection else "projection"
    checked: dict[str, list[_Step] | None] = {}
    top, ok = _check(transforms, diags, where)
    ok = _check_applies(top, projection, projections, diags, checked, [projection or ""]) and ok
    if not ok:  # every problem is reported; nothing runs
        return model
    context = Context(model, projection, suppressed)
    current = model
    for step in top:
        current, good = _run(current, step, context, diags, checked)
        if not good:
            break
    return current


def _apply_names(step: _Step) -> list[str]:
    return list(step.args["projections"]) if step.declared.name == "apply" else []


def _check_applies(steps: list[_Step], projection: str | None, projections: Mapping[str, Sequence[Any]],
                   diags: Diagnostics, checked: dict[str, list[_Step] | None], path: list[str]) -> bool:
    """Check every projection ``apply`` reaches from ``steps`` (once each), reporting unknown
    projections, self-application and cycles (``path``: the projections applied so far)."""
    ok = True
    for step in steps:
        for target in _apply_names(step):
            span = step.config.arg_spans.get("projections", step.config.span) if step.config.arg_spans \
                else step.config.span
            if target == path[-1] and len(path) == 1:
                diags.error("S5205", f"Cannot recursively apply the same projection: {target}", span,
                            hint="remove the projection from its own 'apply'")
                ok = False
                continue
            if target not in projections:
                known = ", ".join(sorted(projections)) or "none"
                diags.error("S5205", f"Unable to find projection named `{target}` referenced by the "
                            f"`{path[-1]}` projection", span, hint=f"known projections: {known}")
                ok = False
                continue
            if target in path:
                cycle = " -> ".join([*path[path.index(target):], target])
                diags.error("S5205", f"Cycle found in apply transforms: {cycle}", span,
                            hint="remove one 'apply' of the cycle")
                ok = False
                continue
            if target not in checked:
                inner, good = _check(projections[target], diags, f"projection '{target}'")
                checked[target] = inner
                good = _check_applies(inner, projection, projections, diags, checked, [*path, target]) and good
                if not good:
                    checked[target] = None
                    ok = False
            elif checked[target] is None:
                ok = False
    return ok


def _run(model: Model, step: _Step, context: Context, diags: Diagnostics,
         checked: dict[str, list[_Step] | None]) -> tuple[Model, bool]:
    config = step.config
    try:
        current = step.declared.function(model, step.args, context)
        if isinstance(current, Draft):
            current = current.finish()
    except TransformError as problem:
        span: Span | None = config.span
        if problem.arg and config.arg_spans:
            span = config.arg_spans.get(problem.arg, span)
        diags.error("S5206", f"transform '{step.declared.name}': {problem.message}", span, hint=problem.hint)
        return model, False
    for target in _apply_names(step):
        inner = checked.get(target)
        if inner is None:
            return current, False
        for inner_step in inner:
            current, good = _run(current, inner_step, context, diags, checked)
            if not good:
                return current, False
    return current, True


__all__ = ["run_transforms"]
