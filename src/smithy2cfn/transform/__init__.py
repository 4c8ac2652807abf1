"""Projection transforms: smithy-build's built-in transforms applied to a loaded model.

A projection of a ``smithy-build.json`` (Smithy "smithy-build" guide, "Projections" and
"Transforms"; the reference's ``software.amazon.smithy.build.transforms``) names a list of
transforms, each ``{"name": ..., "args": {...}}``, applied in order to the model its sources
and imports load. The result is a new :class:`~smithy2cfn.model.shapes.Model`; the caller
validates it again, as Smithy does, before converting it.

This package is the one place that knows the transforms: their names, their arguments, and
what each does to a model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from smithy2cfn.diagnostics import Diagnostics, Span
from smithy2cfn.model.shapes import Model
from smithy2cfn.records import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:  # the registry is imported when a transform runs
    from smithy2cfn.transform.registry import Suppressed


class TransformConfig(Record, frozen=True):
    """One entry of a projection's ``transforms`` list, as the file says it.

    Attributes:
        name: the transform's name (``"excludeShapesByTag"``).
        args: its ``args`` object as written (JSON values; ``{}`` when absent).
        span: where the entry is in its file (``None``: made by a library caller).
        arg_spans: argument name → where its key is, for located errors.
    """

    name: str
    args: dict[str, Any]
    span: Span | None
    arg_spans: dict[str, Span]

    def __init__(self, name: str, args: dict[str, Any] | None = None, span: Span | None = None,
                 arg_spans: dict[str, Span] | None = None) -> None:
        self.__dict__.update(name=name, args={} if args is None else args, span=span,
                             arg_spans={} if arg_spans is None else arg_spans)


def apply_transforms(model: Model, transforms: Sequence[TransformConfig], diags: Diagnostics, *,
                     projections: Mapping[str, Sequence[TransformConfig]] | None = None,
                     projection: str | None = None,
                     suppressed: Suppressed = None) -> Model:
    """``model`` with ``transforms`` applied in order (reference ``SmithyBuildImpl``).

    The transforms are smithy-build's built-in ones (:mod:`smithy2cfn.transform.builtins`,
    README "Transforms"), with the reference's names and arguments.

    Args:
        model: the loaded model of a projection (its sources and imports); not changed.
        transforms: the projection's transforms, in order.
        diags: where an unknown transform (``S5201``), a bad argument (``S5202`` wrong type or
            value, ``S5203`` missing; ``S5204`` an unknown argument is a warning, as the
            reference ignores it), an ``apply`` problem (``S5205``: unknown projection, the
            projection itself, a cycle) or a transform that cannot be applied (``S5206``) is
            reported, located at the entry or the argument at fault. Every entry is checked
            before any runs, so one run reports all of them.
        projections: projection name → its transforms, for the ``apply`` transform.
        projection: the name of the projection ``transforms`` belong to (``apply`` of itself
            is an error; cycles are named from it).
        suppressed: the events that validating ``model`` suppressed: the diagnostics
            :func:`smithy2cfn.validation.run_validators` recorded with ``suppressed=`` (or
            :func:`smithy2cfn.validation.suppressed_events` made), or ``(event ID, shape ID or
            None)`` pairs, or a function making that list (called only when a
            ``filterSuppressions`` with ``removeUnused`` runs); ``None``: not known, and such
            a transform is an ``S5206`` error.

    Returns:
        A new model (``model`` itself when ``transforms`` is empty). When an entry is in
        error (``S5201``-``S5205``) nothing runs and ``model`` is returned; when a transform
        fails as it runs (``S5206``), the model as far as the transforms before it took it.
        Either way the errors in ``diags`` stop the build.
    """
    if not transforms:
        return model
    from smithy2cfn.transform.run import run_transforms

    return run_transforms(model, transforms, diags, projections=projections, projection=projection,
                          suppressed=suppressed)


def check_transforms(transforms: Sequence[TransformConfig], diags: Diagnostics, *,
                     projections: Mapping[str, Sequence[TransformConfig]] | None = None,
                     projection: str | None = None) -> bool:
    """Check ``transforms`` without running them (names, arguments, the projections their
    ``apply`` reaches): :func:`smithy2cfn.transform.run.check_transforms`. Returns whether
    no error was found; each is reported in ``diags``."""
    from smithy2cfn.transform.run import check_transforms as check

    return check(transforms, diags, projections=projections, projection=projection)


def check_transform_names(transforms: Sequence[TransformConfig], diags: Diagnostics, *,
                          projection: str | None = None) -> bool:
    """Check only the names of ``transforms`` (``S5201``), as the reference checks the
    projections it does not build: :func:`smithy2cfn.transform.run.check_transform_names`.
    Returns whether every name is known; each unknown one is reported in ``diags``."""
    from smithy2cfn.transform.run import check_transform_names as check

    return check(transforms, diags, projection=projection)


__all__ = ["TransformConfig", "apply_transforms", "check_transform_names", "check_transforms"]
