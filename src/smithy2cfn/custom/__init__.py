"""Lambda-backed custom resources (``Custom::Name``) served from a model's resources (issue 19).

The setting ``customResources`` (``--custom-resource SHAPE_ID=Custom::Name``) names them. For
each, :func:`custom_resource_files` makes, from the same conversion plan as the resource
schema, a folder of the output named like a schema file without ``.json`` (``custom-vault/``):

* ``properties.schema.json``, ``request.schema.json``, ``response.schema.json``: the
  protocol's JSON Schemas (:mod:`.schemas`), every scalar of ``ResourceProperties`` also in
  the string form CloudFormation delivers;
* ``provider.py`` (the Lambda entry point ``handler(event, context)``, on crhelper),
  ``requirements.txt``, and ``<name>_handlers.py``, the file the team fills in, written only
  when it is not there (:mod:`.provider`);
* ``template.json`` and ``template.yaml``: the ``Custom::`` resource as a user writes it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from smithy2cfn.derive.plan import ConversionPlan
from smithy2cfn.diagnostics import Code, Diagnostics, Severity, declare_codes
from smithy2cfn.model.shapes import Model
from smithy2cfn.settings import Settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CODES = declare_codes(
    Code("S4510", Severity.ERROR, None,
         "`customResources` names a shape that is not a `@cfnResource` resource of the converted service",
         usage=True),
)


def folder_name(custom_name: str) -> str:
    """The output folder of a custom resource: its name as a schema file name is made,
    without ``.json`` (``Custom::Vault`` → ``custom-vault``)."""
    return custom_name.lower().replace("::", "-")


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def custom_resource_files(model: Model, plan: ConversionPlan, schemas: Mapping[str, dict[str, Any]],
                          config: Settings, diags: Diagnostics) -> tuple[dict[str, str], frozenset[str]]:
    """The files of every custom resource ``config.custom_resources`` names: relative path
    (``custom-vault/provider.py``...) → text, and the paths to write only when absent (the
    team's handlers). Errors (``S4510`` a shape that is no resource of the plan; ``S4501``,
    ``S4502`` from :func:`.schemas.check_custom`) go to ``diags``, located where the setting
    was given; their resources get no files."""
    from smithy2cfn.custom.provider import provider_files
    from smithy2cfn.custom.schemas import (
        attribute_names,
        check_custom,
        create_example,
        custom_schemas,
        sensitive_attributes,
        template_snippet,
    )

    where = config.where("customResources")
    files: dict[str, str] = {}
    keep: set[str] = set()
    for shape_id, custom_name in sorted(config.custom_resources.items()):
        rplan = plan.resource(shape_id)
        schema = schemas.get(rplan.file_name) if rplan is not None else None
        if rplan is None or schema is None:
            diags.error("S4510", f"customResources names {shape_id}, which is not a @cfnResource resource of "
                                 f"{plan.service_id}", where, shape_id=shape_id,
                        hint="give the shape ID of a resource with @aws.cloudformation#cfnResource bound to the "
                             "service")
            continue
        if not check_custom(schema, rplan, custom_name, diags, span=where):
            continue
        folder = folder_name(custom_name)
        made = custom_schemas(schema, rplan, custom_name, model)
        for name, value in made.items():
            files[f"{folder}/{name}"] = _json(value)
        files.update({f"{folder}/{name}": text for name, text in
                      template_snippet(schema, rplan, custom_name, create_example(model, plan, rplan, schema)).items()})
        create_only = [p.schema_name for p in rplan.properties if p.create_only]
        sources = sorted({p for p in model.versions if not p.startswith("<prelude>")})
        always, once = provider_files(
            custom_name=custom_name, type_name=str(schema.get("typeName", "")), resource_id=shape_id,
            model_source=", ".join(sources) or "the model",
            regenerate=f"smithy2cfn build with the setting customResources {{\"{shape_id}\": \"{custom_name}\"}} "
                       f"(or --custom-resource {shape_id}={custom_name})",
            properties_schema=made["properties.schema.json"], create_only=create_only,
            attributes=attribute_names(schema), no_echo=bool(sensitive_attributes(schema, rplan, model)))
        files.update({f"{folder}/{name}": text for name, text in always.items()})
        for name, text in once.items():
            files[f"{folder}/{name}"] = text
            keep.add(f"{folder}/{name}")
    return files, frozenset(keep)


__all__ = ["CODES", "custom_resource_files", "folder_name"]
