"""Model → CloudFormation resource schemas (reference ``CfnConverter`` and ``Smithy2Cfn``).

For each ``@cfnResource`` resource contained in the configured service: derive its
properties (:mod:`smithy2cfn.derive`), gather them as members of one pseudo structure,
convert them to JSON Schema, run the mapper chain, and name the file after ``typeName``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from smithy2cfn.config import CfnConfig
from smithy2cfn.derive.graph import closure, contained_resources, member_closure
from smithy2cfn.derive.resource_index import CfnResource, CfnResourceIndex
from smithy2cfn.derive.tagging import TAGGABLE, TagIndex
from smithy2cfn.diagnostics import Diagnostics, Span
from smithy2cfn.emit.jsonschema import (
    DEFAULT_SCHEMA_MAPPERS,
    SYNTHETIC_SUFFIX,
    SchemaConverter,
    SchemaMapper,
    capitalize,
)
from smithy2cfn.emit.mappers import CfnMapper, default_mappers, tag_member_name
from smithy2cfn.emit.metaschema import check_schema
from smithy2cfn.emit.schema import Context, ResourceSchema
from smithy2cfn.emit.typename import (
    PART_RULE,
    Part,
    is_type_name,
    mapper_problem,
    part_problems,
    setting_part,
    show,
)
from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import AWS_SERVICE, CFN_NAME, CFN_RESOURCE, DOCUMENTATION, PROPERTY

#: Mapper class → the setting it applies (for locating a typeName it sets).
_MAPPER_SETTINGS = {"JsonAddMapper": "jsonAdd", "SchemaDocumentExtensionsMapper": "schemaDocumentExtensions"}


def file_name(type_name: str) -> str:
    """Output file name of a type: lower-cased, ``::`` → ``-``, plus ``.json``
    (reference ``Smithy2Cfn.getFileNameFromResourceType``).

    Raises:
        ValueError: when ``type_name`` is not a CloudFormation type name
            (:func:`~smithy2cfn.emit.typename.is_type_name`), so that no caller can make a
            file name holding ``/``, ``..``, NUL or other characters from it.
    """
    if not is_type_name(type_name):
        raise ValueError(f"not a CloudFormation typeName: {show(type_name)}")
    return type_name.lower().replace("::", "-") + ".json"


def _first_model_file(model: Model) -> Span | None:
    """The first user file the model was loaded from (prelude files skipped), as a span."""
    paths = [p for p in model.versions if not p.startswith("<prelude>")]
    return Span(paths[0]) if paths else None


def resolve_service(model: Model, config: CfnConfig, diags: Diagnostics) -> Shape | None:
    """The service to convert: ``config.service``, or the model's only service.

    Errors: ``S4001`` (service not found / not a service), ``S4002`` (no ``service``
    setting and not exactly one service in the model).
    """
    if config.service:
        shape = model.get(config.service)
        if shape is None or shape.type != "service":
            what = "not found" if shape is None else f"a {shape.type}, not a service"
            names = {s.id: s.id for s in model.of_type("service") if not model.is_prelude(s.id)}
            close = difflib.get_close_matches(config.service, list(names), n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'?" if close else (
                f"services in the model: {', '.join(names)}" if names else None)
            diags.error("S4001", f"cloudformation 'service' {config.service} is {what}",
                        span=config.source, shape_id=config.service, hint=hint)
            return None
        return shape
    services = [s for s in model.of_type("service") if not model.is_prelude(s.id)]
    if len(services) != 1:
        found = ", ".join(s.id for s in services) or "none"
        diags.error("S4002", f"cloudformation setting 'service' is missing and the model has "
                             f"{len(services)} services ({found})",
                    span=config.source if services else _first_model_file(model),
                    hint="set 'service' to the shape ID of the service to convert")
        return None
    return services[0]


def naming_strategy(config: CfnConfig):
    """Member → CloudFormation property name: ``cfnName``, else the ``@property`` name,
    else the member name; capitalized unless ``disableCapitalizedProperties``
    (``cfnName`` is used as is). Reference ``CfnConverter.getPropertyNamingStrategy``
    (which capitalizes ``@property`` names only when capitalization is *disabled*; we
    treat them like member names)."""

    def name(member: Member) -> str:
        cfn_name = member.traits.get(CFN_NAME)
        if isinstance(cfn_name, str):
            return cfn_name
        prop = member.traits.get(PROPERTY)
        base = prop.get("name") if isinstance(prop, dict) and isinstance(prop.get("name"), str) else member.name
        return base if config.disable_capitalized_properties else capitalize(base)

    return name


def _trait_span(shape: Shape, trait_id: str) -> Span | None:
    """Where ``trait_id`` is applied to ``shape``: the shape's IDL file is read again and
    lowered to find the trait (or an ``apply`` of it); the shape's span when it cannot be
    found (a JSON AST file, a file changed since). Used on error paths only."""
    span = shape.span
    if span is None or span.path.startswith("<") or span.path.endswith(".json"):
        return span
    from smithy2cfn.load.loader import read_sources  # only on an error path

    try:
        text = Path(span.path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return span
    for doc in read_sources([(span.path, text)], Diagnostics()):
        if (shape.id, trait_id) in doc.trait_spans:
            return doc.trait_spans[(shape.id, trait_id)]
        for apply in doc.applies:
            if apply.target == shape.id and trait_id in apply.trait_spans:
                return apply.trait_spans[trait_id]
    return span


def type_name_parts(service: Shape, resource: Shape, config: CfnConfig, diags: Diagnostics,
                    setting_spans: Mapping[str, Span] | None = None) -> list[Part] | None:
    """The three parts of ``Organization::Service::Resource`` and where each comes from
    (reference ``CfnConverter.resolveResourceTypeName``).

    ``organizationName`` defaults to ``AWS`` with the ``aws.api#service`` trait, else it is
    required (error ``S4006``, and ``None`` is returned); ``serviceName`` defaults to its
    ``cloudFormationName``, else the service shape name; the resource part is
    ``cfnResource`` ``name``, else the shape name. ``setting_spans`` (setting name → span
    of the config key or ``<command line --flag>``) locates parts that come from settings.
    The parts are not checked here (see :func:`~smithy2cfn.emit.typename.part_problems`).
    """
    spans = setting_spans or {}
    service_trait = service.traits.get(AWS_SERVICE)
    org = config.organization_name
    if org is None:
        if service_trait is None:
            diags.error("S4006", "cloudformation setting 'organizationName' is required when the "
                                 f"service {service.id} has no aws.api#service trait", span=service.span,
                        shape_id=service.id, hint="pass --org NAME or set 'organizationName'")
            return None
        org_part = Part("AWS", "the default organizationName", "S5022", service.span, "", service.id)
    else:
        org_part = setting_part(org, "organizationName", "--org",
                                spans.get("organizationName", config.source))
    if config.service_name is not None:
        svc_part = setting_part(config.service_name, "serviceName", "--service-name",
                                spans.get("serviceName", config.source))
    else:
        cfn_name = service_trait.get("cloudFormationName") if isinstance(service_trait, dict) else None
        if cfn_name:
            svc_part = Part(str(cfn_name), f"the @aws.api#service cloudFormationName of {service.id}", "S5022",
                            None, f"change cloudFormationName to {PART_RULE}, or set 'serviceName' "
                                  "(--service-name NAME)", service.id)
        else:
            svc_part = Part(service.name, f"the name of service {service.id}", "S5022", service.span,
                            f"set 'serviceName' (--service-name NAME) to {PART_RULE}", service.id)
    trait = resource.traits.get(CFN_RESOURCE)
    name = trait.get("name") if isinstance(trait, dict) and trait.get("name") else None
    if name:
        res_part = Part(str(name), f"the @aws.cloudformation#cfnResource name of {resource.id}", "S5022",
                        None, f"change the cfnResource 'name' to {PART_RULE}", resource.id)
    else:
        res_part = Part(resource.name, f"the name of resource {resource.id}", "S5022", resource.span,
                        f"give @aws.cloudformation#cfnResource a 'name' of {PART_RULE}", resource.id)
    return [org_part, svc_part, res_part]


def _locate(parts: list[Part], service: Shape, resource: Shape) -> list[Part]:
    """Parts whose span is the trait they come from, looked up now (an error path)."""
    out = []
    for p in parts:
        if p.span is None and p.shape_id == resource.id:
            p = replace(p, span=_trait_span(resource, CFN_RESOURCE))
        elif p.span is None and p.shape_id == service.id:
            p = replace(p, span=_trait_span(service, AWS_SERVICE))
        out.append(p)
    return out


def type_name(model: Model, service: Shape, resource: Shape, config: CfnConfig,
              diags: Diagnostics) -> str | None:
    """``Organization::Service::Resource`` as the mappers first see it (see
    :func:`type_name_parts`); ``None`` after error ``S4006``."""
    parts = type_name_parts(service, resource, config, diags)
    return None if parts is None else "::".join(p.value for p in parts)


def resource_members(ctx_model: Model, resource: Shape, cfn: CfnResource, config: CfnConfig,
                     tags: TagIndex, diags: Diagnostics) -> dict[str, Member]:
    """The members of the reference's pseudo structure ``<Resource>__SYNTHETIC__``: each
    property's representative member re-parented under its property name (identifiers get a
    new member targeting the identifier shape), plus the tags member of a ``@taggable``
    resource whose tag property is not already a property (reference
    ``getCfnResourceStructure``, ``TaggingMapper.injectTagsMember``)."""
    container = resource.id + SYNTHETIC_SUFFIX
    members: dict[str, Member] = {}
    for name, prop in cfn.properties.items():
        source = ctx_model.member(prop.shape_id) if "$" in prop.shape_id else None
        if source is not None:
            members[name] = replace(source, name=name, container=container)
        else:
            members[name] = Member(name=name, target=prop.shape_id, container=container)
    trait = resource.traits.get(TAGGABLE)
    if trait is not None:
        trait = trait if isinstance(trait, dict) else {}
        prop = trait.get("property") if isinstance(trait.get("property"), str) else None
        tag_name = "Tags" if not prop else (prop if config.disable_capitalized_properties else capitalize(prop))
        if not prop or prop not in cfn.properties:
            if prop:
                target = resource.properties.get(prop)
                if target is None:
                    diags.error("S4007", f"@taggable property '{prop}' of {resource.id} is not a resource "
                                         "property", span=resource.span, shape_id=resource.id)
                else:
                    members[tag_name] = Member(name=tag_name, target=target, container=container)
            else:
                op = tags.tag_operations(resource.id).get("tagApi")
                source = tags.tags_member(op) if op else None
                if source is None:
                    diags.error("S4008", f"@taggable resource {resource.id} has no TagResource operation with a "
                                         "tags input member", span=resource.span, shape_id=resource.id,
                                hint="add @aws.api#tagEnabled and TagResource to the service, or set "
                                     "the taggable 'property'")
                else:
                    members[tag_name] = replace(source, name=tag_name, container=container)
    return members


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
                    hint="please report this as a bug of the mapper (smithy2cfn's own, or the one "
                         "your code registered), with the model")
    return arg


def convert(model: Model, config: CfnConfig, diags: Diagnostics,
            mappers: list[CfnMapper] | None = None, *,
            schema_mappers: Sequence[SchemaMapper] = (),
            setting_spans: Mapping[str, Span] | None = None) -> dict[str, dict[str, Any]]:
    """Convert every ``@cfnResource`` resource of the configured service.

    Args:
        model: the loaded model.
        config: the ``cloudformation`` plugin settings.
        diags: receives every problem (``S40xx`` conversion errors, ``S41xx`` schema
            problems — ``S4109`` for a mapper that raised, see :func:`run_mapper` —,
            ``S4108``/``S4201``/``S4202`` document and meta-schema findings located at the
            resource); nothing is raised.
        mappers: extra :class:`~smithy2cfn.emit.mappers.CfnMapper` objects run with the
            core chain (an extension's ``cfn_mappers()``, see
            :mod:`smithy2cfn.emit.extensions`).
        schema_mappers: extra JSON Schema mappers (an extension's
            ``json_schema_mappers()``), run on every built schema after
            :data:`~smithy2cfn.emit.jsonschema.DEFAULT_SCHEMA_MAPPERS`.
        setting_spans: setting name → where it was given (a config file key, or
            ``Span("<command line --org>")`` for a flag); locates setting problems.

    Returns:
        Output file name (the final ``typeName``, after every mapper, lower-cased, ``::`` →
        ``-``, ``.json``) → schema, sorted by file name; each schema's key order is the
        order to write. A final ``typeName`` that is not a CloudFormation type name
        (meta-schema pattern) is an error located where it comes from (``S5020``–``S5023``,
        :mod:`smithy2cfn.emit.typename`) and gets no file. Follows reference
        ``CfnConverter.convertToNodes`` and ``Smithy2Cfn``.
    """
    service = resolve_service(model, config, diags)
    if service is None:
        return {}
    index = CfnResourceIndex(model)
    tags = TagIndex(model, index.bindings)
    naming = naming_strategy(config)
    ref_shapes = closure(index.graph, [service.id])
    converter = SchemaConverter(model, config, naming, diags, ref_shapes, service,
                                mappers=DEFAULT_SCHEMA_MAPPERS + tuple(schema_mappers))
    chain = default_mappers(mappers)
    out: dict[str, dict[str, Any]] = {}
    contained = contained_resources(index.graph, service.id)
    for resource in model.shapes_with_trait(CFN_RESOURCE):
        if resource.type == "resource" and resource.id not in contained and not model.is_prelude(resource.id):
            diags.warning("S4011", f"resource {resource.id} has @cfnResource but is not bound to service "
                                   f"{service.id}, so no schema is written for it", span=resource.span,
                          shape_id=resource.id, hint=f"add it to the 'resources' of {service.id} "
                                                     "(or of a resource bound to it)")
    if not any(CFN_RESOURCE in model.shapes[rid].traits for rid in contained if rid in model.shapes):
        diags.warning("S4012", f"service {service.id} has no resource with @aws.cloudformation#cfnResource, "
                               "so no schema is written", span=service.span, shape_id=service.id,
                      hint="apply @aws.cloudformation#cfnResource to the resources to convert")
    for rid in contained:
        resource = model.get(rid)
        cfn = index.get(rid)
        if resource is None or cfn is None:
            continue
        parts = type_name_parts(service, resource, config, diags, setting_spans)
        if parts is None:
            return {}
        tname = "::".join(p.value for p in parts)
        members = resource_members(model, resource, cfn, config, tags, diags)
        ctx = Context(model, service, resource, cfn, members, config, converter, tags, index.graph, diags)
        doc = resource.traits.get(DOCUMENTATION)
        schema = ResourceSchema(tname, doc if isinstance(doc, str) else f"Definition of {tname} Resource Type")
        setter: str | None = None  # the last mapper that changed typeName
        for mapper in chain:
            before = schema.type_name
            run_mapper(ctx, mapper, "before", schema)
            setter = type(mapper).__name__ if schema.type_name != before else setter
        for member in members.values():
            schema.properties[naming(member)] = converter.ref(member)
        roots = [m.target for m in members.values()]
        reachable = member_closure(index.graph, roots) | set(roots)
        schema.definitions = converter.definitions(reachable)
        if not schema.properties:
            diags.error("S4009", f"resource {rid} has no properties", span=resource.span, shape_id=rid)
        for mapper in chain:
            before = schema.type_name
            run_mapper(ctx, mapper, "after", schema)
            setter = type(mapper).__name__ if schema.type_name != before else setter
        node = schema.to_node()
        for mapper in chain:
            before = node.get("typeName")
            node = run_mapper(ctx, mapper, "update_node", node)
            if node.get("typeName") != before or type(node.get("typeName")) is not type(before):
                setter = type(mapper).__name__
        node["additionalProperties"] = False
        # The file is named after the FINAL typeName, which must be a CloudFormation type
        # name: that is what keeps the file name a plain name inside the output folder.
        final = node.get("typeName")
        named = is_type_name(final)
        if not named:
            if setter is None:
                diags.extend(part_problems(_locate(parts, service, resource), rid))
            else:
                setting = _MAPPER_SETTINGS.get(setter, setter)
                span = (setting_spans or {}).get(setting, config.source)
                diags.extend([mapper_problem(final, setting, rid, span, resource.span)])
        fname = file_name(final) if named else f"the schema of {rid}"
        for problem in check_schema(node, fname):
            if not named and problem.message.startswith("/typeName:"):
                continue  # reported above, with where the bad typeName comes from
            # located at the resource the schema is made from, and naming the output file
            diags.extend([replace(problem, span=resource.span or problem.span, shape_id=rid,
                                  message=f"{fname}: {problem.message}")])
        if not named:
            continue
        if fname in out:
            diags.error("S4010", f"two resources convert to the same typeName {final} (file {fname})",
                        span=resource.span, shape_id=rid,
                        hint="give one of them another @aws.cloudformation#cfnResource name")
        out[fname] = node
    return dict(sorted(out.items()))


__all__ = ["convert", "file_name", "naming_strategy", "resolve_service", "tag_member_name", "type_name",
           "type_name_parts"]
