"""Lint stage: CloudFormation's rules checked on the emitted schemas, reported at the model.

Runs after emit and before anything is written (:func:`smithy2cfn.api.convert` calls
:func:`lint_schemas` in the default, registry-ready, compatibility mode). It reads the
conversion plan and the schemas; emit never imports it.

Each rule is one function marked :func:`smithy2cfn.checks.lint_rule` with the code it
reports and the rule it mirrors, as cfn-lint has one rule per ``id``, grouped by the source
it mirrors: cloudformation-cli's ``cfn validate`` loader (:mod:`.cfn_validate`),
resource-schema-guard-rail's stateless rules (:mod:`.guard_rail`), the registry's tagging
checks (:mod:`.registry`) and the handler contract (:mod:`.contract`). A rule reads one
resource's schema through :class:`.context.ResourceContext` and reports at the member,
operation or trait that causes the finding (:mod:`.locate`); its message quotes the rule.
The rules run are those of the catalog (:func:`smithy2cfn.checks.shipped`), in catalog
order; a rule that raises, or reports a code it does not declare, is an internal error
(``S6099``) and the others go on.

Smithy suppressions silence lint findings as they silence validation events: ``@suppress``
on the shape (or member) and ``metadata suppressions``, matching the code's event ID
(``CfnLint``, ``CfnLint.GuardRail``... hierarchically, see README §"Lint rules") or the code
itself (``S6110``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from smithy2cfn.checks import Check, run_checks, runnable
from smithy2cfn.derive.plan import ConversionPlan
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, declare_codes
from smithy2cfn.lint.context import ResourceContext
from smithy2cfn.lint.locate import Locator, definition_names
from smithy2cfn.model.shapes import Model
from smithy2cfn.validation.suppressions import apply_suppressions_or_codes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The code of an internal error: a lint rule raised, or reported a code it does not declare.
CODES = declare_codes(
    Code("S6099", Severity.ERROR, None,
         "internal error in a lint rule (it raised, or reported a code it does not declare): the build fails, "
         "since the schema's lint rules did not all run; please report it"),
)


def lint_rules() -> list[Check]:
    """The lint rules of the catalog, in catalog order, each with ``run`` (the function its
    module defines); without a catalog, every rule found by importing every module of this
    package (:func:`smithy2cfn.checks.runnable`).

    Raises:
        ImportError, AttributeError: a catalog entry names no function (a stale catalog:
            ``tests/api/test_catalog.py`` fails first).
    """
    return runnable("lint", __name__)


def run_rules(ctx: ResourceContext, rules: Iterable[Check]) -> list[Diagnostic]:
    """Run ``rules`` on one resource's schema; returns their findings, and an ``S6099``
    ERROR (at the resource) for each rule that raised and each finding whose code its rule
    does not declare. Never raises."""
    run_checks(ctx, rules, lambda check, what: _internal(ctx, check, what))
    return ctx.found


def _internal(ctx: ResourceContext, check: Check, what: str) -> Diagnostic:
    return Diagnostic("S6099", Severity.ERROR,
                      f"{ctx.file_name}: internal error in lint rule {check.name} ({what}); the build fails because "
                      "the schema's lint rules did not all run", ctx.resource.span,
                      hint="please report this as a smithy2cfn bug, with the model")


def lint_schemas(model: Model, plan: ConversionPlan, schemas: Mapping[str, dict[str, Any]]) -> list[Diagnostic]:
    """Lint the schemas emitted from ``plan`` with every lint rule (:func:`lint_rules`).

    Args:
        model: the model the plan was derived from.
        plan: the conversion plan.
        schemas: output file name → schema, as :func:`smithy2cfn.emit.emit_schemas`
            returns them (a schema is matched to its resource by file name, else by
            ``typeName``; a schema matching none is not linted).

    Returns:
        The findings (``S6001``–``S6206``; ``S6099`` for a rule's internal error) left
        once the model's suppressions are applied, sorted by location. Never raises on a
        plan and schemas made by the emitter.
    """
    names = definition_names(model, plan)
    by_file = {r.file_name: r for r in plan.resources}
    by_type = {r.type_name: r for r in plan.resources}
    rules = lint_rules()
    found: list[Diagnostic] = []
    for file_name, schema in schemas.items():
        rplan = by_file.get(file_name) or by_type.get(schema.get("typeName"))
        if rplan is None or rplan.resource_id not in model.shapes:
            continue
        locator = Locator(model, plan, rplan, names)
        found += run_rules(ResourceContext(model, rplan, locator, schema, file_name), rules)
    return sorted(set(apply_suppressions_or_codes(model, found)), key=Diagnostic.sort_key)


__all__ = ["lint_rules", "lint_schemas", "run_rules"]
