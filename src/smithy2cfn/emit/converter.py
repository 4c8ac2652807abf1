"""Conversion plan → CloudFormation resource schemas (reference ``CfnConverter`` and
``Smithy2Cfn``).

:func:`emit_schemas` turns a :class:`~smithy2cfn.derive.plan.ConversionPlan` into one JSON
document per resource: the planned properties become JSON Schema (:mod:`.jsonschema`),
the mapper chain writes what the plan decided and lets extensions change it, and every
document is checked against the CloudFormation meta-schema. Nothing here derives facts
about the model: it reads the plan. :func:`convert` plans and emits in one call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from smithy2cfn.config import CfnConfig
from smithy2cfn.derive.plan import ConversionPlan, derive_plan, file_name, property_name
from smithy2cfn.derive.typename import is_type_name, mapper_problem
from smithy2cfn.diagnostics import Diagnostics, Span
from smithy2cfn.emit.jsonschema import DEFAULT_SCHEMA_MAPPERS, SchemaConverter, SchemaMapper
from smithy2cfn.emit.mappers import CfnMapper, JsonAddMapper, SchemaDocumentExtensionsMapper, default_mappers
from smithy2cfn.emit.metaschema import check_schema
from smithy2cfn.emit.schema import Context, ResourceSchema
from smithy2cfn.model.shapes import Model

#: The mappers that apply settings (their typeName was checked by the plan).
_SETTING_MAPPERS = (JsonAddMapper, SchemaDocumentExtensionsMapper)


def run_mapper(ctx: Context, mapper: CfnMapper, hook: str, arg: Any) -> Any:
    """Call ``mapper.<hook>(ctx, arg)``; never raises.

    Returns what ``update_node`` returned (``arg`` itself for ``before``/``after``). A mapper
    that raises, or whose ``update_node`` returns something other than a dict, is a bug:
    error ``S4109`` at the resource naming the mapper, and ``arg`` is kept.
    """
    name = type(mapper).__name__
    try:
        result = getattr(mapper, hook)(ctx, arg)
    except Exception as e:  # noqa: BLE001 - a mapper bug must not become a traceback
        problem = f"raised {type(e).__name__}: {str(e)[:200]}"
    else:
        if hook != "update_node":
            return arg
        if isinstance(result, dict):
            return result
        problem = f"returned a {type(result).__name__}, not a schema object"
    ctx.diags.error("S4109", f"internal error: mapper {name}.{hook} {problem} while converting "
                             f"{ctx.resource.id}", span=ctx.resource.span, shape_id=ctx.resource.id,
                    hint="please report this as a bug of the mapper (smithy2cfn's own, or an "
                         "extension's), with the model")
    return arg


def emit_schemas(model: Model, plan: ConversionPlan, diags: Diagnostics,
                 mappers: Sequence[CfnMapper] = (),
                 schema_mappers: Sequence[SchemaMapper] = ()) -> dict[str, dict[str, Any]]:
    """Write the schemas of a plan.

    Args:
        model: the model the plan was derived from.
        plan: the conversion plan (:func:`~smithy2cfn.derive.plan.derive_plan`).
        diags: receives ``S41xx`` schema problems (``S4109`` for a mapper that raised),
            ``S4005`` for a ``jsonAdd`` pointer that cannot be applied, ``S5023`` for a
            mapper that sets an invalid ``typeName``, and the ``S4108``/``S4201``/``S4202``
            document and meta-schema findings, located at the resource; nothing is raised.
        mappers: extra CFN mappers (extensions), run in ``order`` with the core chain.
        schema_mappers: extra JSON Schema mappers (extensions), run after the core ones on
            every schema built.

    Returns:
        Output file name → schema, sorted by file name; each schema's key order is the order
        to write. The file name is the plan's, unless a mapper changed ``typeName`` to
        another valid type name.
    """
    config = plan.config
    service = model.shapes[plan.service_id]
    converter = SchemaConverter(model, config, lambda m: property_name(m, config), diags, set(plan.service_shapes),
                                service, mappers=DEFAULT_SCHEMA_MAPPERS + tuple(schema_mappers))
    chain = default_mappers(list(mappers))
    out: dict[str, dict[str, Any]] = {}
    for rplan in plan.resources:
        resource = model.shapes[rplan.resource_id]
        ctx = Context(model, service, resource, rplan, plan, config, converter, diags)
        schema = ResourceSchema(rplan.type_name, rplan.description)
        setter = "a mapper"  # the last extension mapper that changed typeName (for S5023)
        for mapper in chain:
            run_mapper(ctx, mapper, "before", schema)
            setter = type(mapper).__name__ if schema.type_name != rplan.type_name else setter
        for prop in rplan.properties:
            schema.properties[prop.schema_name] = converter.ref(prop.member)
        schema.definitions = converter.definitions(set(rplan.shapes))
        for mapper in chain:
            before = schema.type_name
            run_mapper(ctx, mapper, "after", schema)
            setter = type(mapper).__name__ if schema.type_name != before else setter
        node = schema.to_node()
        for mapper in chain:
            before = node.get("typeName")
            node = run_mapper(ctx, mapper, "update_node", node)
            after = node.get("typeName")
            if (after != before or type(after) is not type(before)) and not isinstance(mapper, _SETTING_MAPPERS):
                setter = type(mapper).__name__
        node["additionalProperties"] = False
        final = node.get("typeName")
        fname = rplan.file_name
        if final != rplan.type_name:
            if not is_type_name(final):
                diags.extend([mapper_problem(final, setter, rplan.resource_id, resource.span, resource.span)])
                continue
            fname = file_name(final)
        problems = check_schema(node, fname)
        for problem in problems:
            # located at the resource the schema is made from, and naming the output file
            diags.extend([replace(problem, span=resource.span or problem.span, shape_id=rplan.resource_id,
                                  message=f"{fname}: {problem.message}")])
        if any(p.code == "S4108" for p in problems):
            continue  # a document that cannot be written as JSON is not returned either
        if fname in out:
            diags.error("S4010", f"two resources convert to the same typeName {final} (file {fname})",
                        span=resource.span, shape_id=rplan.resource_id,
                        hint="give one of them another @aws.cloudformation#cfnResource name")
            continue
        out[fname] = node
    return dict(sorted(out.items()))


def convert(model: Model, config: CfnConfig, diags: Diagnostics,
            mappers: Sequence[CfnMapper] | None = None, *,
            setting_spans: Mapping[str, Span] | None = None,
            schema_mappers: Sequence[SchemaMapper] | None = None) -> dict[str, dict[str, Any]]:
    """Plan (:func:`~smithy2cfn.derive.plan.derive_plan`) and emit (:func:`emit_schemas`)
    every ``@cfnResource`` resource of the configured service.

    Args:
        model: the loaded model.
        config: the ``cloudformation`` plugin settings.
        diags: receives every problem (see both functions); nothing is raised.
        mappers: extra CFN mappers (extensions).
        setting_spans: setting name → where it was given (a config file key, or
            ``Span("<command line --org>")`` for a flag); locates setting problems.
        schema_mappers: extra JSON Schema mappers (extensions).

    Returns:
        Output file name → schema (see :func:`emit_schemas`); ``{}`` when planning failed.
    """
    plan = derive_plan(model, config, diags, setting_spans=setting_spans)
    if plan is None:
        return {}
    return emit_schemas(model, plan, diags, mappers or (), schema_mappers or ())


__all__ = ["convert", "emit_schemas", "file_name", "run_mapper"]
