"""Lint stage: CloudFormation's rules checked on the emitted schemas, reported at the model.

Runs after emit and before anything is written (:func:`smithy2cfn.api.convert` calls
:func:`lint_schemas` in the default, registry-ready, compatibility mode). It reads the
conversion plan and the schemas; emit never imports it. The rules (:mod:`.rules`) mirror
cloudformation-cli's ``cfn validate`` loader, resource-schema-guard-rail's stateless rules,
the registry's tagging checks and the handler contract; each finding names the rule it
mirrors and is located at the member, operation or trait that causes it (:mod:`.locate`).

Smithy suppressions silence lint findings as they silence validation events: ``@suppress``
on the shape (or member) and ``metadata suppressions``, matching the code's event ID
(``CfnLint``, ``CfnLint.GuardRail``... hierarchically, see README §"Lint rules") or the code
itself (``S6110``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from smithy2cfn.derive.plan import ConversionPlan
from smithy2cfn.diagnostics import Diagnostic
from smithy2cfn.lint.locate import Locator, definition_names
from smithy2cfn.lint.rules import RULES, ResourceLint
from smithy2cfn.model.shapes import Model
from smithy2cfn.validation.suppressions import apply_suppressions


def lint_schemas(model: Model, plan: ConversionPlan, schemas: Mapping[str, dict[str, Any]]) -> list[Diagnostic]:
    """Lint the schemas emitted from ``plan``.

    Args:
        model: the model the plan was derived from.
        plan: the conversion plan.
        schemas: output file name → schema, as :func:`smithy2cfn.emit.emit_schemas`
            returns them (a schema is matched to its resource by file name, else by
            ``typeName``; a schema matching none is not linted).

    Returns:
        The findings (``S6001``–``S6206``) left once the model's suppressions are applied,
        sorted by location. Never raises on a plan and schemas made by the emitter.
    """
    names = definition_names(model, plan)
    by_file = {r.file_name: r for r in plan.resources}
    by_type = {r.type_name: r for r in plan.resources}
    found: list[Diagnostic] = []
    for file_name, schema in schemas.items():
        rplan = by_file.get(file_name) or by_type.get(schema.get("typeName"))
        if rplan is None or rplan.resource_id not in model.shapes:
            continue
        locator = Locator(model, plan, rplan, names)
        found += ResourceLint(model, rplan, locator, schema, file_name).run()
    kept = apply_suppressions(model, found)
    by_code = apply_suppressions(model, [replace(d, event_id=d.code) for d in kept])
    survivors = {(d.code, d.message, d.span, d.shape_id) for d in by_code}
    out = [d for d in kept if (d.code, d.message, d.span, d.shape_id) in survivors]
    return sorted(set(out), key=Diagnostic.sort_key)


__all__ = ["RULES", "lint_schemas"]
