"""``smithy2cfn diff``: what a model change does to the resource types, before it ships.

Two versions of one build (:class:`~smithy2cfn.diff.context.Side`: the schemas, and the model
and conversion plan they were made from) are compared type by type, paired by ``typeName``.
For each pair, :func:`~smithy2cfn.diff.delta.schema_delta` finds what changed in the schemas,
and the diff rules (functions marked :func:`smithy2cfn.checks.diff_rule`, one code each) say
what it does to deployed stacks, located at the Smithy element that caused it and explained
with the derivation's own reasons (:class:`~smithy2cfn.derive.plan.PropertyPlan` ``sources``
on both sides):

* :mod:`.guard_rail`: resource-schema-guard-rail's stateful rules, one per check ID
  (``S7101``–``S7140``, ``ruleId`` ``PR001``...);
* :mod:`.breaking`: breaking changes guard-rail has no rule for (``S7201``–``S7210``);
* :mod:`.compatible`: additions and changes no template sees, as notes (``S7301``–``S7306``).

Each type gets a semantic-version verdict (:func:`verdict`): ``major`` when a finding of a
``major`` rule is left after the new model's suppressions, else ``minor`` when one of a
``minor`` rule is, else ``patch``; the whole diff gets the highest.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import Check, run_checks, runnable
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, Span, declare_codes
from smithy2cfn.diff.context import Finding, Side, TypeDiff
from smithy2cfn.diff.delta import Delta, schema_delta
from smithy2cfn.records import Record, replace

CODES = declare_codes(
    Code("S7099", Severity.ERROR, None,
         "internal error in a diff rule (it raised, or reported a code it does not declare); please report it"),
)

#: Verdicts, lowest first.
VERDICTS = ("patch", "minor", "major")


def verdict(levels: Iterable[str]) -> str:
    """The semantic-version verdict of findings of these levels: the highest of them
    (:data:`VERDICTS`), ``"patch"`` for none."""
    found = set(levels)
    return next((v for v in reversed(VERDICTS) if v in found), "patch")


class TypeReport(Record):
    """One resource type's findings (sorted by location) and verdict.

    Attributes:
        type_name: the type.
        status: ``"changed"`` (both sides have it), ``"added"`` or ``"removed"``.
        findings: the findings left after suppressions.
        suppressed: how many findings a suppression removed.
        verdict: ``"major"``, ``"minor"`` or ``"patch"``.
        truncated: the schemas were too large to compare completely (see :data:`~smithy2cfn.diff.delta.MAX_NODES`).
    """

    type_name: str
    status: str
    findings: list[Finding]
    suppressed: int
    verdict: str
    truncated: bool

    def __init__(self, type_name: str, status: str, findings: list[Finding], suppressed: int = 0,
                 truncated: bool = False) -> None:
        self.type_name, self.status, self.findings, self.suppressed = type_name, status, findings, suppressed
        self.verdict = verdict(f.level for f in findings)
        self.truncated = truncated


def diff_rules() -> list[Check]:
    """The diff rules of the catalog, in catalog order, each with ``run`` set
    (:func:`smithy2cfn.checks.runnable`)."""
    return runnable("diff", __name__)


def _internal(ctx: TypeDiff, check: Check, what: str) -> Finding:
    span = Span(ctx.new.files.get(ctx.type_name) or ctx.new.name)
    diagnostic = Diagnostic("S7099", Severity.ERROR,
                            f"{ctx.type_name}: internal error in diff rule {check.name} ({what}); the diff is "
                            "incomplete", span, hint="please report this as a smithy2cfn bug, with both models")
    return Finding(diagnostic, ctx.type_name, "major", None, "", "new")


def compare_type(type_name: str, old: Side, new: Side, rules: list[Check] | None = None) -> TypeReport:
    """Compare one resource type on both sides with every diff rule (:func:`diff_rules`,
    or ``rules``): the findings left after the new model's suppressions (matching a
    finding's event ID, ``CfnDiff.GuardRail.PR002``..., hierarchically, or its code), sorted.
    A rule that raises, or reports a code it does not declare, gives an ``S7099`` ERROR
    and the others go on. Never raises."""
    status = "changed" if type_name in old.schemas and type_name in new.schemas else \
        "added" if type_name in new.schemas else "removed"
    delta = schema_delta(old.schemas[type_name], new.schemas[type_name]) if status == "changed" \
        else Delta((), frozenset())
    ctx = TypeDiff(type_name, old, new, delta)
    kept_rules = [c for c in (diff_rules() if rules is None else rules)
                  if bool(getattr(c.run, "unpaired", False)) != ctx.paired]
    run_checks(ctx, kept_rules, lambda check, what: _internal(ctx, check, what))
    found = _unique(ctx.found)
    kept = found
    if new.model is not None:
        from smithy2cfn.validation.suppressions import apply_suppressions_or_codes

        left = apply_suppressions_or_codes(new.model, [f.diagnostic for f in found])
        by_key = {_key(d): d for d in left}
        kept = [replace(f, diagnostic=by_key[_key(f.diagnostic)]) for f in found if _key(f.diagnostic) in by_key]
    kept.sort(key=lambda f: (f.diagnostic.sort_key(), f.pointer))
    return TypeReport(type_name, status, kept, len(found) - len(kept), delta.truncated)


def _key(d: Diagnostic) -> tuple[object, ...]:
    return (d.code, d.message, d.span, d.shape_id)


def _unique(found: list[Finding]) -> list[Finding]:
    """Findings without repeats (one message at one place once)."""
    seen: set[tuple[object, ...]] = set()
    out: list[Finding] = []
    for f in found:
        key = _key(f.diagnostic)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def compare_sides(old: Side, new: Side) -> list[TypeReport]:
    """Every resource type of either side (sorted by ``typeName``), compared
    (:func:`compare_type`)."""
    rules = diff_rules()
    return [compare_type(name, old, new, rules) for name in sorted(set(old.schemas) | set(new.schemas))]


__all__ = ["CODES", "VERDICTS", "Finding", "Side", "TypeReport", "compare_sides", "compare_type", "diff_rules",
           "verdict"]
