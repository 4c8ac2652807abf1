"""Conversion plan → CloudFormation resource schemas (reference ``CfnConverter`` and
``Smithy2Cfn``).

:func:`emit_schemas` turns a :class:`~smithy2cfn.derive.plan.ConversionPlan` into one JSON
document per resource: the planned properties become JSON Schema (:mod:`.jsonschema`),
the mapper chain writes what the plan decided and lets extensions change it, and every
document is checked against the CloudFormation meta-schema. Nothing here derives facts
about the model: it reads the plan. :func:`smithy2cfn.api.convert` plans, emits and lints
in one call.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from smithy2cfn.derive.plan import ConversionPlan, ResourcePlan, file_name, property_name
from smithy2cfn.derive.typename import is_type_name, mapper_problem
from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.emit.jsonschema import DEFAULT_SCHEMA_MAPPERS, INTEGER_TYPES, SchemaConverter, SchemaMapper
from smithy2cfn.emit.mappers import CfnMapper, JsonAddMapper, SchemaDocumentExtensionsMapper, default_mappers
from smithy2cfn.emit.metaschema import check_schema
from smithy2cfn.emit.schema import Context, ResourceSchema
from smithy2cfn.emit.text import first_sentence, is_markup, plain_text
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import DOCUMENTATION
from smithy2cfn.records import replace
from smithy2cfn.settings import Settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S4108", Severity.ERROR, None,
         "a finished schema is not strict JSON, or too deeply nested to write or check (names the pointer)"),
    Code("S4109", Severity.ERROR, None,
         "internal error: a mapper raised or returned no schema (names the mapper; please report)"),
    Code("S4306", Severity.NOTE, None, "registry-ready: HTML descriptions are written as plain text"),
    Code("S4307", Severity.NOTE, None,
         "registry-ready: descriptions shortened to their first sentence so the schema fits in 60 KiB"),
    Code("S4308", Severity.ERROR, None, "a schema is over 60 KiB even with its descriptions shortened"),
    Code("S4309", Severity.NOTE, None, "registry-ready: arrays get an explicit `insertionOrder`"),
    Code("S4311", Severity.NOTE, None,
         "registry-ready: byte, short, integer, long and intEnum shapes are written `integer`, not `number` "
         "(`useIntegerType: false` keeps `number`)"),
)

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
    if not plan.resources:
        # The reference makes a JSON Schema converter for each @cfnResource resource
        # (CfnConverter.createConversionEnvironment): without any, none is made, so the
        # definition names of the service's shapes are never deconflicted (no S4102 about
        # them; SageMaker: 20 ms of work for no schema).
        return {}
    config = plan.config
    service = model.shapes[plan.service_id]
    converter = SchemaConverter(model, config, lambda m: property_name(m, config), diags, set(plan.service_shapes),
                                service, mappers=DEFAULT_SCHEMA_MAPPERS + tuple(schema_mappers))
    chain = default_mappers(list(mappers))
    out: dict[str, dict[str, Any]] = {}
    for rplan in plan.resources:
        resource = model.shapes[rplan.resource_id]
        ctx = Context(model, service, resource, rplan, plan, config, converter, diags)
        description = plain_text(rplan.description) if config.registry_ready else rplan.description
        schema = ResourceSchema(rplan.type_name, description)
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
        if config.registry_ready:
            _announce_text_and_arrays(model, rplan, config, diags)
            if not _fit(node, rplan, resource.span, diags):
                continue
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


#: The largest schema ``cfn validate`` accepts, in bytes of ``json.dumps(schema)`` (UTF-8,
#: ASCII escapes): ``rpdk.core.data_loaders.MAX_CONFIGURATION_SCHEMA_LENGTH``.
MAX_SCHEMA_BYTES = 60 * 1024


def schema_size(node: dict[str, Any]) -> int:
    """The size of a schema as ``cfn validate`` measures it: ``json.dumps`` with its default
    separators and ASCII escapes, in UTF-8 bytes."""
    return len(json.dumps(node).encode("utf-8"))


def _descriptions(node: Any) -> list[tuple[dict, str]]:
    """Every ``(object, "description")`` whose value is a string, walking ``node``
    iteratively (property names are keys of ``properties`` objects, never strings)."""
    found: list[tuple[dict, str]] = []
    stack = [node]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value.get("description"), str):
                found.append((value, "description"))
            stack.extend(v for k, v in value.items() if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            stack.extend(v for v in value if isinstance(v, (dict, list)))
    return found


def _fit(node: dict[str, Any], rplan: ResourcePlan, span: Span | None, diags: Diagnostics) -> bool:
    """Registry-ready: make the schema fit in :data:`MAX_SCHEMA_BYTES`, shortening every
    description to its first sentence if it must (note ``S4307``); ``False`` after error
    ``S4308`` when it still does not fit."""
    size = schema_size(node)
    if size <= MAX_SCHEMA_BYTES:
        return True
    for obj, key in _descriptions(node):
        obj[key] = first_sentence(obj[key])
    shortened = schema_size(node)
    if shortened <= MAX_SCHEMA_BYTES:
        diags.add("S4307", Severity.NOTE,
                  f"the schema of {rplan.resource_id} is {size} bytes, over the {MAX_SCHEMA_BYTES} that cfn validate "
                  f"accepts: its descriptions are shortened to their first sentence ({shortened} bytes)",
                  span, rplan.resource_id, "shorten the @documentation of the resource's shapes")
        return True
    diags.error("S4308",
                f"the schema of {rplan.resource_id} is {shortened} bytes even with descriptions shortened to their "
                f"first sentence, over the {MAX_SCHEMA_BYTES} that cfn validate accepts; nothing is written",
                span, rplan.resource_id,
                "split the resource, or exclude properties with @aws.cloudformation#cfnExcludeProperty")
    return False


def _announce_text_and_arrays(model: Model, rplan: ResourcePlan, config: Settings, diags: Diagnostics) -> None:
    """The registry-ready notes about descriptions made plain text (``S4306``), arrays
    given ``insertionOrder`` (``S4309``) and integral shapes written ``integer`` (``S4311``),
    each at the first shape it comes from."""
    html: list[tuple[str, Span | None]] = []
    lists: list[tuple[str, Span | None]] = []
    integral: list[tuple[str, Span | None]] = []
    for sid in sorted(rplan.shapes | {rplan.resource_id}):
        shape = model.shapes.get(sid)
        if shape is None:
            continue
        owners = [(shape.id, shape.traits, shape.trait_spans, shape.span)]
        owners += [(m.id, m.traits, m.trait_spans, m.span) for m in shape.members.values()]
        for owner, traits, spans, where in owners:
            doc = traits.get(DOCUMENTATION)
            if isinstance(doc, str) and is_markup(doc):
                html.append((owner, spans.get(DOCUMENTATION, where)))
        if shape.type in ("list", "set"):
            lists.append((shape.id, shape.span))
        elif shape.type in INTEGER_TYPES or shape.type == "intEnum":
            integral.append((shape.id, shape.span))
    if html:
        diags.add("S4306", Severity.NOTE,
                  f"{len(html)} @documentation value(s) reaching the schema of {rplan.resource_id} are HTML and are "
                  f"written as plain text (first: {html[0][0]})", html[0][1], rplan.resource_id, None)
    if lists:
        diags.add("S4309", Severity.NOTE,
                  f"{len(lists)} list shape(s) of the schema of {rplan.resource_id} get an explicit insertionOrder "
                  f"(false for @uniqueItems, true otherwise; first: {lists[0][0]})", lists[0][1], rplan.resource_id,
                  None)
    if integral and config.integer_type and "useIntegerType" not in config.spans:
        diags.add("S4311", Severity.NOTE,
                  f"{len(integral)} integral shape(s) of the schema of {rplan.resource_id} are written as type "
                  f"integer, not number (first: {integral[0][0]})", integral[0][1], rplan.resource_id,
                  "set useIntegerType to false to write number, as the Java plugin does")


__all__ = ["emit_schemas", "file_name", "run_mapper"]
