"""Validate stage: semantic checks of a loaded model (Smithy 2.0 "Model validation").

Each check is a function ``check_x(model) -> Iterable[Diagnostic]`` marked with
:func:`smithy2cfn.checks.validator`: the codes it reports, the rule it follows, the trait
packages it checks. The catalog (:mod:`smithy2cfn.catalog`) lists them;
:func:`run_validators` runs the ones that apply to the model (:func:`validators_for`), drops
findings about built-in prelude shapes but ERRORs (as the reference's ``ModelValidator``
does), and never raises: a validator that fails, or
reports a code it does not declare, is reported as an ``S3099`` ERROR (the model is not let
through unchecked) and the others go on.

What the loader reports itself (unresolved targets, duplicates, unknown traits, mixin
problems, trait conflicts while merging) is not repeated here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from smithy2cfn import garbage_collection, parallel
from smithy2cfn.checks import Check, loaded, runnable
from smithy2cfn.diagnostics import Code, Diagnostic, Diagnostics, Severity, declare_codes
from smithy2cfn.model.shapes import Model, ShapeId
from smithy2cfn.validation.suppressions import finish, loading_failed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

Validator = Callable[[Model], Iterable[Diagnostic]]

#: The code of an internal error: a validator raised, or reported a code it does not declare.
CODES = declare_codes(
    Code("S3099", Severity.ERROR, None,
         "internal error in a validator (it raised, or reported a code it does not declare): the model is not "
         "accepted, since its checks did not all run; please report it"),
)


def validators_for(model: Model | None = None) -> list[Validator]:
    """The validators that apply to ``model``: those of the catalog (:func:`smithy2cfn.checks.shipped`)
    whose trait packages the model loaded (:attr:`Model.packages`; a validator of no package
    runs on every model; every validator when ``model`` is ``None`` or did not record its
    packages), in catalog order, their modules imported. A small model thus neither imports
    nor runs the rules engine, protocol tests, waiters... (issue 10: work in proportion to
    the model). Each is the function its module defines, with its :class:`~smithy2cfn.checks.Check`
    as the attribute ``check``.

    Raises:
        ImportError, AttributeError: a catalog entry names no function (a stale catalog:
            ``tests/api/test_catalog.py`` fails first).
    """
    return _validators(None if model is None else model.packages)


def import_validators(packages: frozenset[str]) -> None:
    """Import the modules of the validators that apply to a model of the trait packages
    ``packages`` (those :func:`validators_for` imports for it): work the program does while
    a helper process reads the model (:func:`smithy2cfn.load.load_model`'s ``meanwhile``)."""
    _validators(packages)


def _validators(packages: frozenset[str] | None) -> list[Validator]:
    return [c.run for c in _entries(packages, load=True) if c.run is not None]


def _entries(packages: frozenset[str] | None, load: bool = False) -> list[Check]:
    """The checks of :func:`validators_for` (packages as there), their modules imported
    only with ``load`` (else each is imported by the process that runs it: :func:`_run_one`)."""
    def applies(check: Check) -> bool:
        return not check.packages or packages is None or not packages.isdisjoint(check.packages)

    return runnable("validator", __name__, applies, load=load)


def __getattr__(name: str) -> Any:
    """``VALIDATORS``: every validator of the catalog, in order (imports them all)."""
    if name == "VALIDATORS":
        return validators_for(None)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def validate_model(model: Model, validators: Iterable[Validator] | None = None,
                   prior: list[Diagnostic] | None = None, *,
                   suppressed: list[Diagnostic] | None = None,
                   meanwhile: Callable[[], object] | None = None,
                   helper: parallel.Helper | None = None) -> list[Diagnostic]:
    """Run ``validators`` (default: the ones that apply to ``model``, :func:`validators_for`,
    each module imported when one of its validators is to run: by the process that runs
    it, when they are shared with a helper process) and return their diagnostics.

    Findings about prelude shapes are dropped unless they are ERRORs (the reference's
    ``ModelValidator.filterPrelude``); the others are suppressed, re-graded and
    ordered as the reference does (:func:`smithy2cfn.validation.suppressions.finish`: an
    ERROR of the correctness validators hides the critical validators' events, an ERROR of
    those hides the others'). ``prior`` are the events of loading, which count in that
    order too. An exception inside a validator is a bug of this implementation; it becomes
    one ``S3099`` ERROR naming the validator, so a model whose checks did not all run is
    never accepted (the other validators still run, and what the failed one found before it
    failed is kept).

    ``suppressed``, when given, receives the events that the model's suppressions hid (of
    ``prior`` and of this run; :func:`smithy2cfn.validation.suppressions.finish`), which
    ``filterSuppressions``'s ``removeUnused`` needs: recorded in the same run, so a build
    validates once. ``meanwhile``: work this process does first when the validators are
    shared with a helper process (:func:`smithy2cfn.parallel.run_shared`), such as the
    imports of the stages after validation. ``helper``: the helper of :func:`start_helper`
    started for this model's sources, which takes validators when they are shared (a model
    of :data:`SHARED_FROM_SHAPES` shapes or more); whoever started it closes it after
    (:meth:`~smithy2cfn.parallel.Helper.close`: nothing when the validators took it).
    """
    out: list[Diagnostic] = []
    with garbage_collection.frozen():  # the loaded model out of the collector's reach
        _run(model, validators if validators is not None else _entries(model.packages), out, meanwhile, helper)
    return finish(model, list(prior or []), out, suppressed)[1]


#: A model with at least this many shapes (members not counted) shares its validators with a
#: helper process when :mod:`smithy2cfn.parallel` may fork (the fork and the copy of the
#: results cost a few milliseconds: a small model is validated faster in one process).
SHARED_FROM_SHAPES = 500


#: JSON AST sources that write at least this many ``"type"`` keys in all (one per shape
#: entry, some more in trait values: the shapes a model will have, counted before it is
#: read) are loaded by a helper process of their own as well when :mod:`smithy2cfn.parallel`
#: may fork (:func:`start_helper`), which then shares the validators of the model it loaded.
#: Below it, a helper would be killed unused (a model of fewer than
#: :data:`SHARED_FROM_SHAPES` shapes validates in one process), and a model of 400 shapes
#: gained nothing from one (2 CPUs, 2026-11-27: AWS models of 412 to 707 shapes took 0.5 ms
#: more to 3.7 ms less with it than with a helper forked after loading, medians of 11 runs).
HELPER_FROM_SHAPES = 500


def start_helper(sources: list[tuple[str, str]], *, allow_unknown_traits: bool = False
                 ) -> parallel.Helper | None:
    """A helper process that loads the model of ``sources`` (``(path, text)``, as
    :func:`smithy2cfn.load.load_texts` takes them, with the prelude) on its own while this
    process loads it, then takes validators of :func:`validate_model` (its ``helper``):
    unlike a helper forked after loading, it reads no page of this process's model, so
    neither process pays for copying the pages the other touches (issue 15, "Cold start").
    Its model is the same, from the same text; its events are kept only when it made the
    same list of validators (:func:`smithy2cfn.parallel.run_shared`'s ``keys``). It selects
    the trait packages of ``sources`` first and tells them (:func:`smithy2cfn.parallel.tell`):
    this process takes them from :meth:`~smithy2cfn.parallel.Helper.told` (the ``packages``
    of :func:`~smithy2cfn.load.load_texts`) instead of selecting them again, when they have
    arrived by the time its reading of the sources needs them.

    ``None`` (nothing forked) unless :mod:`smithy2cfn.parallel` may fork, the JSON AST
    sources write :data:`HELPER_FROM_SHAPES` shape entries or more, and the loader does not
    share the parsing of the IDL files (:func:`smithy2cfn.load.loader.shares_idl_parsing`:
    there, a helper forked when the files are read parses half of them, and another one
    forked after loading takes validators). Close it (:meth:`~smithy2cfn.parallel.Helper.close`) when the model is not
    validated. Raises nothing; what the helper meets (a model that fails to load, a bug)
    only ends it, and this process validates what it did not send back.
    """
    from smithy2cfn.load.loader import shares_idl_parsing

    json_ast = [text for path, text in sources if path.endswith(".json")]
    if not _writes_at_least(json_ast, '"type"', HELPER_FROM_SHAPES) or shares_idl_parsing(sources):
        return None  # (whether a helper may be forked now is parallel.start_helper's to ask, once)

    def prepare() -> tuple[list[str], Callable[[int], list[Diagnostic]]] | None:
        import gc

        from smithy2cfn.load import load_texts
        from smithy2cfn.load.loader import select_packages

        packages = select_packages(text for _, text in sources)
        parallel.tell(packages)  # (the other process loads the same sources: it need not select them again)
        diags = Diagnostics()
        model = load_texts(sources, diags, allow_unknown_traits=allow_unknown_traits, packages=lambda: packages)
        if loading_failed(diags) or len(model.shapes) < SHARED_FROM_SHAPES:
            return None
        gc.disable()  # (as validate_model does; this process leaves when the queue is empty)
        checks = _entries(model.packages)
        return [_key(check) for check in checks], lambda i: _run_one(model, checks[i])

    return parallel.start_helper(prepare)


def _writes_at_least(texts: list[str], needle: str, count: int) -> bool:
    """Whether ``texts`` hold ``needle`` ``count`` times or more, as :meth:`str.count`
    counts them (left to right, not overlapping), looking no further than the ``count``-th
    (SageMaker's 500th ``"type"`` is in its first tenth: counting all 3.3 MB took 2 ms)."""
    left = count
    for text in texts:
        at = 0
        while left > 0 and (at := text.find(needle, at)) >= 0:
            at += len(needle)
            left -= 1
    return left <= 0


def _key(check: Validator | Check) -> str:
    """The name a validator is known by in both processes of :func:`start_helper`."""
    return check.function if isinstance(check, Check) else getattr(check, "__qualname__", type(check).__name__)


def _run(model: Model, validators: Iterable[Validator | Check], out: list[Diagnostic],
         meanwhile: Callable[[], object] | None = None, helper: parallel.Helper | None = None) -> None:
    checks = list(validators)
    if len(model.shapes) >= SHARED_FROM_SHAPES:
        found = parallel.run_shared(checks, lambda check: _run_one(model, check), meanwhile,
                                    helper=helper, keys=[_key(check) for check in checks] if helper else None)
    else:
        found = [_run_one(model, check) for check in checks]
    for events in found:
        out.extend(events)


def _run_one(model: Model, check: Validator | Check) -> list[Diagnostic]:
    """The events of one validator (those it may report, none about the prelude unless an
    ERROR), or the ``S3099`` of its failure after what it found before. A catalog entry's
    module is imported first (:func:`smithy2cfn.checks.loaded`)."""
    if isinstance(check, Check):
        try:
            function = loaded(check).run
        except Exception as e:  # noqa: BLE001 - a stale catalog must not become a traceback
            return [_internal(check.function, f"{type(e).__name__}: {str(e)[:200]}")]
        if function is None:  # (loaded always sets it)
            return [_internal(check.function, "its catalog entry names no function")]
        check = function
    out: list[Diagnostic] = []
    declared = getattr(check, "check", None)
    allowed = frozenset(declared.codes) if isinstance(declared, Check) else None
    units = getattr(check, "unit_codes", None)
    if allowed is not None and callable(units):
        # a validator that runs units of its own (the configured validators) holds each
        # unit to the codes it declares itself, and may pass on any of those
        allowed |= units()
    name = getattr(check, "__name__", type(check).__name__)
    try:
        for d in check(model):
            if allowed is not None and d.code not in allowed:
                out.append(_internal(name, f"it reported {d.code}, a code it does not declare ({d.message[:200]})"))
                continue
            if _about_prelude(model, d):
                continue
            out.append(d)
    except Exception as e:  # noqa: BLE001 - a validator bug must not become a traceback
        out.append(_internal(name, f"{type(e).__name__}: {str(e)[:200]}"))
    return out


def _internal(name: str, what: str) -> Diagnostic:
    return Diagnostic("S3099", Severity.ERROR,
                      f"internal error in validator {name} ({what}); the model cannot be accepted because its checks "
                      "did not all run", hint="please report this as a smithy2cfn bug, with the model")


def _about_prelude(model: Model, d: Diagnostic) -> bool:
    # The reference's ModelValidator.filterPrelude: a validator's event on a prelude shape is
    # dropped unless it is an ERROR (a broken prelude, or a model that misuses a built-in
    # shape: `smithy.api#Blob` as the Operation member of an endpoint-discovery input).
    return d.severity is not Severity.ERROR and bool(d.shape_id) \
        and ShapeId.root(d.shape_id) in model.prelude_ids


def run_validators(model: Model, diags: Diagnostics, *, suppressed: list[Diagnostic] | None = None,
                   meanwhile: Callable[[], object] | None = None, helper: parallel.Helper | None = None) -> None:
    """Validate ``model`` after loading, as the reference's ``ModelAssembler`` does, adding
    to ``diags``.

    Args:
        model: a loaded model.
        diags: the events of loading; receives the validation diagnostics (``S3xxx``).
            When loading failed (an ERROR the reference's loader reports itself, event
            ``Model``), nothing is validated, as in the reference; loading events that
            are validators' events in the reference (``Target``...) do not stop it, and
            the model's suppressions apply to the loading events too. Nothing is raised.
        suppressed: when given, receives the events (of loading and of validation) that the
            model's suppressions hid, with their own severity (the reference's events of
            severity ``SUPPRESSED``): what :func:`smithy2cfn.transform.apply_transforms`
            takes as ``suppressed`` for ``filterSuppressions``'s ``removeUnused``. Nothing is
            added when loading failed (nothing was validated).
        meanwhile: see :func:`validate_model` (not done when nothing is validated).
        helper: see :func:`validate_model` (not used when nothing is validated).
    """
    if loading_failed(diags):
        return
    prior = list(diags)
    found = validate_model(model, prior=prior, suppressed=suppressed, meanwhile=meanwhile, helper=helper)
    diags.items[:] = finish(model, prior, [])[0]
    diags.extend(found)


def suppressed_events(model: Model, prior: list[Diagnostic] | None = None) -> list[Diagnostic]:
    """The events that validating ``model`` suppressed (``@suppress`` traits, ``suppressions``
    metadata), each with its own severity, in the order validation found them: the
    reference's events of severity ``SUPPRESSED``, which ``filterSuppressions``'s
    ``removeUnused`` keeps the suppressions of. ``prior``: the events of loading ``model``,
    whose suppressed ones count too (left out, only the validators' events are seen).

    This validates ``model`` (:func:`validate_model`), for a caller that has not: a build that
    validates gets the same list from that run with ``run_validators(model, diags,
    suppressed=[])`` instead of validating twice. Nothing is raised.
    """
    out: list[Diagnostic] = []
    validate_model(model, prior=prior, suppressed=out)
    return out


__all__ = ["VALIDATORS", "Validator", "run_validators", "start_helper", "suppressed_events", "validate_model",
           "validators_for"]
