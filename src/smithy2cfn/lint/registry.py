"""The CloudFormation registry's own checks of a schema that the meta-schema does not make
(cloudformation-resource-schema ``ResourceTagging``), one rule per code (``S6130``).

What the registry refuses is an error; where the model has what the schema lacks (a jsonAdd
or a setting left it out), the finding is a warning that says so.
"""

from __future__ import annotations

from smithy2cfn.checks import lint_rule
from smithy2cfn.diagnostics import Code, Severity
from smithy2cfn.lint.context import ResourceContext
from smithy2cfn.model.traits import TAGGABLE


@lint_rule(Code("S6130", Severity.ERROR, "CfnLint.Registry.TagUpdatable",
                "`tagUpdatable` is true without an update handler (the registry rejects it); a warning when the "
                "model has one but the schema leaves it out", also=(Severity.WARNING,)),
           rule="registry schema library (ResourceTagging): invalid tagUpdatable value since update handler is "
                "missing")
def tag_updatable(ctx: ResourceContext) -> None:
    """A taggable resource's ``tagging.tagUpdatable`` is true but the schema has no update
    handler: an error, a warning when the plan has an update handler the schema left out."""
    tagging = ctx.tagging()
    if tagging is None or tagging["taggable"] is not True or tagging.get("tagUpdatable") is not True:
        return
    if "update" in ctx.obj("handlers"):
        return
    planned = any(h.name == "update" for h in ctx.rplan.handlers)
    ctx.report("S6130", "tagUpdatable is true but the schema has no update handler"
                        + (" (the model has one; the handlers were left out of the schema)" if planned else ""),
               ctx.loc.trait_site(TAGGABLE),
               "do not leave out the handlers (disableHandlerPermissionGeneration, jsonAdd)" if planned
               else "bind an update lifecycle operation, or set tagUpdatable false",
               Severity.WARNING if planned else Severity.ERROR)


__all__: list[str] = []
