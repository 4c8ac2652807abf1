"""The conversion plan: everything the CloudFormation schemas of a service are made of,
derived once, frozen, and read by the emitter and by every later feature.

:func:`derive_plan` takes a loaded model and the ``cloudformation`` settings and decides,
for each ``@cfnResource`` resource of the service (reference ``CfnConverter`` /
``Smithy2Cfn`` and the mappers of ``CoreExtension``): its ``typeName`` and file name, its
properties (schema name, the member that gives the schema, mutability and *why*, required,
deprecated), identifiers, handlers and their permissions, tagging, documentation links,
and the shapes its properties reach. The emitter (:mod:`smithy2cfn.emit`) turns a plan into
JSON without deriving anything; lint rules and explanations read the same plan.

Settings that only switch output off (``disableHandlerPermissionGeneration``,
``disableRequiredPropertyGeneration``, ``disableDeprecatedPropertyGeneration``) are
applied by the emitter: the plan always holds the facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from smithy2cfn.derive.resource_index import (
    FULL,
    CfnResource,
    CfnResourceIndex,
    Mutability,
    MutabilitySource,
    SourceKind,
    is_create_only,
    is_read_only,
    is_write_only,
)
from smithy2cfn.derive.tagging import TAG_MEMBER_NAME, TagIndex
from smithy2cfn.derive.typename import (
    PART_RULE,
    Part,
    is_type_name,
    mapper_problem,
    part_problems,
    setting_part,
    show,
)
from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes, listed
from smithy2cfn.model.knowledge import IdentifierBindingIndex, TopDownIndex
from smithy2cfn.model.relationships import RelationshipType, Walker
from smithy2cfn.model.shapes import Member, Model, Shape, ShapeId
from smithy2cfn.model.traits import (
    AWS_SERVICE,
    CFN_NAME,
    CFN_RESOURCE,
    DEPRECATED,
    DOCUMENTATION,
    EXTERNAL_DOCUMENTATION,
    IAM_ACTION,
    NO_REPLACE,
    PROPERTY,
    REQUIRED,
    REQUIRED_ACTIONS,
    TAGGABLE,
)
from smithy2cfn.records import Record, replace
from smithy2cfn.settings import Settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S4001", Severity.ERROR, None,
         "the `service` setting names no service (with a \"did you mean\" hint)"),
    Code("S4002", Severity.ERROR, None, "no `service` setting and not exactly one service in the model"),
    Code("S4003", Severity.ERROR, None, "a resource has no identifiers, so no `primaryIdentifier`"),
    Code("S4004", Severity.ERROR, None, "an additional identifier is not a property of the resource"),
    Code("S4006", Severity.ERROR, None,
         "`organizationName` missing and the service has no `@aws.api#service`"),
    Code("S4007", Severity.ERROR, None, "a `@taggable` property is not a property of the resource"),
    Code("S4008", Severity.ERROR, None, "a `@taggable` resource has no tag operation to read its tags with"),
    Code("S4009", Severity.ERROR, None, "a resource has no properties"),
    Code("S4010", Severity.ERROR, None, "two resources give the same typeName"),
    Code("S4011", Severity.WARNING, None,
         "a `@cfnResource` resource is not bound to the converted service, so it gets no schema"),
    Code("S4012", Severity.WARNING, None,
         "the converted service has no `@cfnResource` resource, so nothing is written"),
    Code("S4301", Severity.NOTE, None,
         "registry-ready: a resource without `@aws.api#taggable` gets `tagging: {taggable: false}`"),
    Code("S4302", Severity.WARNING, None,
         "a tags-like property on a resource without `@aws.api#taggable` (its schema says it cannot be "
         "tagged)"),
    Code("S4303", Severity.NOTE, None,
         "registry-ready: `tagUpdatable` is false (no update handler, or no tag and untag operations)"),
    Code("S4304", Severity.NOTE, None,
         "registry-ready: the tag property is neither createOnly nor writeOnly (tags change through the tag "
         "operations)"),
    Code("S4305", Severity.NOTE, None,
         "registry-ready: a handler gets the permissions of the tag operations it calls"),
    Code("S4310", Severity.NOTE, None,
         "registry-ready: a list handler gets a `handlerSchema` for the parent identifiers its input needs"),
    Code("S5022", Severity.ERROR, None,
         "the model makes a bad typeName part: `@cfnResource(name:)`, "
         "`@aws.api#service(cloudFormationName:)` too long, or a shape name (located at the trait or shape)"),
)

#: Suffix of the reference's pseudo structure that holds a resource's property members.
SYNTHETIC_SUFFIX = "__SYNTHETIC__"
#: Handler names in the order CloudFormation documents them.
HANDLERS = ("create", "read", "update", "delete", "list")


def capitalize(name: str) -> str:
    """Upper-case the first character (reference ``StringUtils.capitalize``)."""
    return name[:1].upper() + name[1:]


def property_name(member: Member, config: Settings) -> str:
    """The JSON property name of a member: ``cfnName`` as written, else the ``@property``
    name or the member name, capitalized unless ``disableCapitalizedProperties``
    (reference ``CfnConverter.getPropertyNamingStrategy``, which capitalizes ``@property``
    names only when capitalization is *disabled*; we treat them like member names)."""
    cfn_name = member.traits.get(CFN_NAME)
    if isinstance(cfn_name, str):
        return cfn_name
    prop = member.traits.get(PROPERTY)
    base = prop.get("name") if isinstance(prop, dict) and isinstance(prop.get("name"), str) else member.name
    return base if config.disable_capitalized_properties else capitalize(base)


# --------------------------------------------------------------------------- the plan


class PropertyPlan(Record, frozen=True):
    """One property of a resource schema.

    Attributes:
        name: the property's name in the model (the member name).
        schema_name: its name in the schema (``cfnName``, capitalization applied).
        member: the member whose target and traits give the property's schema, re-parented
            under the resource's synthetic structure (reference ``getCfnResourceStructure``).
        shape_ids: every member (or identifier target) the property comes from.
        mutability: CREATE / READ / WRITE, as derived.
        sources: why it has that mutability, in derivation order (see
            :class:`~smithy2cfn.derive.resource_index.MutabilitySource`).
        required: ``@required`` and settable (CREATE or WRITE), reference ``RequiredMapper``.
        deprecated: the member or its target is ``@deprecated``.
        is_tags: the tags property a ``@taggable`` resource adds (not derived from operations).
    """

    name: str
    schema_name: str
    member: Member
    shape_ids: tuple[str, ...]
    mutability: Mutability
    sources: tuple[MutabilitySource, ...]
    required: bool
    deprecated: bool
    is_tags: bool

    def __init__(self, name: str, schema_name: str, member: Member, shape_ids: tuple[str, ...],
                 mutability: Mutability, sources: tuple[MutabilitySource, ...], required: bool,
                 deprecated: bool, is_tags: bool = False) -> None:
        self.__dict__.update(name=name, schema_name=schema_name, member=member, shape_ids=shape_ids,
                             mutability=mutability, sources=sources, required=required, deprecated=deprecated,
                             is_tags=is_tags)

    @property
    def pointer(self) -> str:
        """``/properties/<schema name>`` (reference ``Context.getPropertyPointer``)."""
        return "/properties/" + self.schema_name

    @property
    def create_only(self) -> bool:
        """In ``createOnlyProperties``."""
        return not self.is_tags and is_create_only(self.mutability)

    @property
    def read_only(self) -> bool:
        """In ``readOnlyProperties``."""
        return not self.is_tags and is_read_only(self.mutability)

    @property
    def write_only(self) -> bool:
        """In ``writeOnlyProperties``."""
        return not self.is_tags and is_write_only(self.mutability)

    def explain(self) -> str:
        """Why the property is createOnly / readOnly / writeOnly (or none), in plain words,
        one line per source."""
        kinds = [k for k, on in (("createOnly", self.create_only), ("readOnly", self.read_only),
                                  ("writeOnly", self.write_only)) if on]
        head = f"{self.schema_name} is {' and '.join(kinds) or 'neither createOnly, readOnly nor writeOnly'} " \
               f"({self.mutability.words()}):"
        return "\n".join([head] + [f"  - {s.describe()}" for s in self.sources])


class HandlerPlan(Record, frozen=True):
    """A handler (``create``, ``read``...) and the IAM permissions it needs.

    ``operations`` are the lifecycle operations it calls (``put`` counts for ``create`` and,
    without ``@noReplace``, for ``update``); reference ``HandlerPermissionMapper``.
    """

    name: str
    operations: tuple[str, ...]
    permissions: tuple[str, ...]
    #: for a ``list`` handler whose input needs parent identifiers: their property names
    #: (the handler's ``handlerSchema``, registry-ready mode only)
    schema_properties: tuple[str, ...]

    def __init__(self, name: str, operations: tuple[str, ...], permissions: tuple[str, ...],
                 schema_properties: tuple[str, ...] = ()) -> None:
        self.__dict__.update(name=name, operations=operations, permissions=permissions,
                             schema_properties=schema_properties)


class TaggingPlan(Record, frozen=True):
    """The ``tagging`` object (reference ``TaggingMapper`` for ``@taggable`` resources; in
    registry-ready mode every resource has one, ``taggable: false`` without ``@taggable``,
    and its other fields are ``None``).

    ``operations`` maps ``tagApi``/``untagApi``/``listTagsApi`` to the operations found.
    """

    taggable: bool
    tag_on_create: bool | None
    tag_updatable: bool | None
    cloudformation_system_tags: bool | None
    tag_property: str | None
    permissions: tuple[str, ...]
    operations: Mapping[str, str]

    def __init__(self, taggable: bool, tag_on_create: bool | None = None, tag_updatable: bool | None = None,
                 cloudformation_system_tags: bool | None = None, tag_property: str | None = None,
                 permissions: tuple[str, ...] = (), operations: Mapping[str, str] | None = None) -> None:
        self.__dict__.update(taggable=taggable, tag_on_create=tag_on_create, tag_updatable=tag_updatable,
                             cloudformation_system_tags=cloudformation_system_tags, tag_property=tag_property,
                             permissions=permissions,
                             operations=MappingProxyType({}) if operations is None else operations)


class ResourcePlan(Record, frozen=True):
    """Everything one resource schema is made of.

    Attributes:
        resource_id: the resource shape.
        type_name: the final ``typeName`` (``jsonAdd`` and ``schemaDocumentExtensions``
            applied), a valid CloudFormation type name.
        file_name: the output file, ``typeName`` lower-cased, ``::`` → ``-``, ``.json``.
        description: the resource's documentation, or ``Definition of <typeName> Resource Type``.
        source_url / documentation_url: from ``@externalDocumentation`` (``sourceDocs`` /
            ``externalDocs`` names).
        properties: in derivation order (identifiers first), the tags property last.
        primary_identifier: property names.
        additional_identifiers: lists of property names.
        handlers: in :data:`HANDLERS` order, only those with operations.
        tagging: for ``@taggable`` resources.
        shapes: every shape the properties reach through members (their schemas'
            ``definitions`` come from these).
        span: where the resource is defined.
    """

    resource_id: str
    type_name: str
    file_name: str
    description: str
    source_url: str | None
    documentation_url: str | None
    properties: tuple[PropertyPlan, ...]
    primary_identifier: tuple[str, ...]
    additional_identifiers: tuple[tuple[str, ...], ...]
    handlers: tuple[HandlerPlan, ...]
    tagging: TaggingPlan | None
    shapes: frozenset[str]
    span: Span | None

    def __init__(self, resource_id: str, type_name: str, file_name: str, description: str,
                 source_url: str | None, documentation_url: str | None, properties: tuple[PropertyPlan, ...],
                 primary_identifier: tuple[str, ...], additional_identifiers: tuple[tuple[str, ...], ...],
                 handlers: tuple[HandlerPlan, ...], tagging: TaggingPlan | None, shapes: frozenset[str],
                 span: Span | None) -> None:
        self.__dict__.update(resource_id=resource_id, type_name=type_name, file_name=file_name,
                             description=description, source_url=source_url,
                             documentation_url=documentation_url, properties=properties,
                             primary_identifier=primary_identifier,
                             additional_identifiers=additional_identifiers, handlers=handlers,
                             tagging=tagging, shapes=shapes, span=span)

    def property(self, name: str) -> PropertyPlan | None:
        """The property named ``name`` in the model (member name), or ``None``."""
        return next((p for p in self.properties if p.name == name), None)


class ConversionPlan(Record, frozen=True):
    """The plan of one conversion: the service, the settings, one :class:`ResourcePlan` per
    ``@cfnResource`` resource the service contains (sorted by resource ID), and the service
    closure (the shapes whose JSON Schema definition names are reserved, reference
    ``DeconflictingStrategy``; empty when the plan has no resource: the reference computes
    it only for the schema converter of a resource, ``CfnConverter.createConversionEnvironment``)."""

    service_id: str
    config: Settings
    resources: tuple[ResourcePlan, ...]
    service_shapes: frozenset[str]

    def __init__(self, service_id: str, config: Settings, resources: tuple[ResourcePlan, ...],
                 service_shapes: frozenset[str]) -> None:
        self.__dict__.update(service_id=service_id, config=config, resources=resources,
                             service_shapes=service_shapes)

    def resource(self, resource_id: str) -> ResourcePlan | None:
        """The plan of one resource, or ``None``."""
        return next((r for r in self.resources if r.resource_id == resource_id), None)


# --------------------------------------------------------------------------- derivation


def _first_model_file(model: Model) -> Span | None:
    paths = [p for p in model.versions if not p.startswith("<prelude>")]
    return Span(paths[0]) if paths else None


def resolve_service(model: Model, config: Settings, diags: Diagnostics) -> Shape | None:
    """The service to convert: ``config.service``, or the model's only service.

    Errors: ``S4001`` (service not found / not a service), ``S4002`` (no ``service``
    setting and not exactly one service in the model).
    """
    if config.service:
        shape = model.get(config.service)
        if shape is None or shape.type != "service":
            what = "not found" if shape is None else f"a {shape.type}, not a service"
            names = [s.id for s in model.of_type("service") if not model.is_prelude(s.id)]
            import difflib  # only for a "did you mean" hint

            close = difflib.get_close_matches(config.service, names, n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'?" if close else (
                f"services in the model: {listed(names)}" if names else None)
            diags.error("S4001", f"cloudformation 'service' {config.service} is {what}",
                        span=config.where("service"), shape_id=config.service, hint=hint)
            return None
        return shape
    services = [s for s in model.of_type("service") if not model.is_prelude(s.id)]
    if len(services) != 1:
        found = listed(s.id for s in services) or "none"
        diags.error("S4002", f"cloudformation setting 'service' is missing and the model has "
                             f"{len(services)} services ({found})",
                    span=config.source if services else _first_model_file(model),
                    hint="set 'service' to the shape ID of the service to convert")
        return None
    return services[0]


def type_name_parts(service: Shape, resource: Shape, config: Settings, diags: Diagnostics) -> list[Part] | None:
    """The three parts of ``Organization::Service::Resource`` and where each comes from
    (reference ``CfnConverter.resolveResourceTypeName``).

    ``organizationName`` defaults to ``AWS`` with the ``aws.api#service`` trait, else it is
    required (error ``S4006``, and ``None`` is returned); ``serviceName`` defaults to its
    ``cloudFormationName``, else the service shape name; the resource part is
    ``cfnResource`` ``name``, else the shape name. A part that comes from a setting is
    located where the setting was given (:meth:`Settings.where`: the config key, or
    ``<command line --flag>``).
    """
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
        org_part = setting_part(org, "organizationName", "--org", config.where("organizationName"))
    if config.service_name is not None:
        svc_part = setting_part(config.service_name, "serviceName", "--service-name", config.where("serviceName"))
    else:
        cfn_name = service_trait.get("cloudFormationName") if isinstance(service_trait, dict) else None
        if cfn_name:
            svc_part = Part(str(cfn_name), f"the @aws.api#service cloudFormationName of {service.id}", "S5022",
                            service.trait_spans.get(AWS_SERVICE, service.span),
                            f"change cloudFormationName to {PART_RULE}, or set 'serviceName' "
                            "(--service-name NAME)", service.id)
        else:
            svc_part = Part(service.name, f"the name of service {service.id}", "S5022", service.span,
                            f"set 'serviceName' (--service-name NAME) to {PART_RULE}", service.id)
    trait = resource.traits.get(CFN_RESOURCE)
    name = trait.get("name") if isinstance(trait, dict) and trait.get("name") else None
    if name:
        res_part = Part(str(name), f"the @aws.cloudformation#cfnResource name of {resource.id}", "S5022",
                        resource.trait_spans.get(CFN_RESOURCE, resource.span),
                        f"change the cfnResource 'name' to {PART_RULE}", resource.id)
    else:
        res_part = Part(resource.name, f"the name of resource {resource.id}", "S5022", resource.span,
                        f"give @aws.cloudformation#cfnResource a 'name' of {PART_RULE}", resource.id)
    return [org_part, svc_part, res_part]


def file_name(type_name: str) -> str:
    """Output file name of a type: lower-cased, ``::`` → ``-``, plus ``.json``
    (reference ``Smithy2Cfn.getFileNameFromResourceType``).

    Raises:
        ValueError: when ``type_name`` is not a CloudFormation type name
            (:func:`~smithy2cfn.derive.typename.is_type_name`), so that no caller can make a
            file name holding ``/``, ``..``, NUL or other characters from it.
    """
    if not is_type_name(type_name):
        raise ValueError(f"not a CloudFormation typeName: {show(type_name)}")
    return type_name.lower().replace("::", "-") + ".json"


def _final_type_name(computed: str, parts: list[Part], resource: Shape, config: Settings,
                     diags: Diagnostics) -> str | None:
    """The ``typeName`` the schema ends with: ``jsonAdd`` ``/typeName`` for the resource, else
    ``schemaDocumentExtensions`` ``typeName``, else ``computed`` (the emitter applies them in
    that order, ``jsonAdd`` last); ``None`` after a located error when it is not a
    CloudFormation type name."""
    final: Any = computed
    setter = None
    if "typeName" in config.schema_document_extensions:
        final, setter = config.schema_document_extensions["typeName"], "schemaDocumentExtensions"
    for where, value in config.json_add.get(resource.id, {}).items():
        import jsonpointer  # only with jsonAdd settings

        try:
            if jsonpointer.JsonPointer(where).parts == ["typeName"]:
                final, setter = value, "jsonAdd"
        except jsonpointer.JsonPointerException:
            continue  # the emitter reports the pointer (S4005)
    if is_type_name(final):
        return final
    if setter is None:
        diags.extend(part_problems(parts, resource.id))
    else:
        diags.extend([mapper_problem(final, setter, resource.id, config.where(setter), resource.span)])
    return None


def permissions_for_operation(model: Model, service: Shape, operation_id: str) -> set[str]:
    """IAM actions to call an operation: ``<arnNamespace or service name>:<operation name>``
    (lower-cased prefix, service ``rename`` applied) plus its ``aws.iam#iamAction``
    ``requiredActions`` (else ``aws.iam#requiredActions``). Reference
    ``HandlerPermissionMapper.getPermissionsEntriesForOperation``."""
    trait = service.traits.get(AWS_SERVICE)
    arn_namespace = trait.get("arnNamespace") if isinstance(trait, dict) else None
    prefix = arn_namespace if isinstance(arn_namespace, str) and arn_namespace else service.name
    name = service.rename.get(operation_id, ShapeId.name(operation_id))
    perms = {f"{prefix.lower()}:{name}"}
    op = model.get(operation_id)
    if op is not None:
        iam = op.traits.get(IAM_ACTION)
        actions = iam.get("requiredActions") if isinstance(iam, dict) else None
        if not actions:
            actions = op.traits.get(REQUIRED_ACTIONS)
        if isinstance(actions, list):
            perms |= {a for a in actions if isinstance(a, str)}
    return perms


def _doc_links(resource: Shape, config: Settings) -> tuple[str | None, str | None]:
    """``(sourceUrl, documentationUrl)`` from ``@externalDocumentation`` by the ``sourceDocs``
    and ``externalDocs`` names, case-insensitive, in priority order (reference
    ``DocumentationMapper``)."""
    docs = resource.traits.get(EXTERNAL_DOCUMENTATION)
    if not isinstance(docs, dict):
        return None, None
    lower = {k.lower(): v for k, v in docs.items() if isinstance(v, str)}

    def pick(names: list[str]) -> str | None:
        return next((lower[n.lower()] for n in names if n.lower() in lower), None)

    return pick(config.source_docs), pick(config.external_docs)


class _ResourcePlanner:
    """Plans one resource (the reference's ``getCfnResourceStructure`` and core mappers)."""

    def __init__(self, model: Model, service: Shape, resource: Shape, cfn: CfnResource, config: Settings,
                 diags: Diagnostics) -> None:
        self.model, self.service, self.resource, self.cfn = model, service, resource, cfn
        self.config, self.diags = config, diags
        self.container = resource.id + SYNTHETIC_SUFFIX

    def properties(self) -> list[PropertyPlan]:
        out = []
        for name, prop in self.cfn.properties.items():
            source = self.model.member(prop.shape_id) if "$" in prop.shape_id else None
            if source is not None:
                member = replace(source, name=name, container=self.container)
            else:
                member = Member(name=name, target=prop.shape_id, container=self.container)
            target = self.model.get(member.target)
            out.append(PropertyPlan(
                name=name, schema_name=property_name(member, self.config), member=member,
                shape_ids=tuple(sorted(prop.shape_ids)), mutability=prop.mutability,
                sources=tuple(prop.sources),
                required=REQUIRED in member.traits and bool(prop.mutability & (Mutability.CREATE | Mutability.WRITE)),
                deprecated=DEPRECATED in member.traits or (target is not None and DEPRECATED in target.traits)))
        tags = self.tags_property()
        if tags is not None:
            out.append(tags)
        if self.config.registry_ready:
            out = self.registry_ready_tags(out)
        return out

    def registry_ready_tags(self, properties: list[PropertyPlan]) -> list[PropertyPlan]:
        """Registry-ready tags: the tag property of a resource with tag, untag and list-tags
        operations is updated through them, so it is neither createOnly nor writeOnly (TAG014,
        TAG017); a tags-like property on a resource without ``@taggable`` is a warning."""
        resource = self.resource
        if TAGGABLE not in resource.traits:
            for p in properties:
                if TAG_MEMBER_NAME.match(p.name):
                    member = self.model.member(p.shape_ids[0]) if "$" in p.shape_ids[0] else None
                    self.diags.warning(
                        "S4302", f"{resource.id} has a tags property `{p.schema_name}` but no @aws.api#taggable, so "
                                 "its schema says it cannot be tagged", member.span if member else resource.span,
                        resource.id, "add @aws.api#taggable(property: \"" + p.name + "\") to the resource")
            return properties
        apis = self.tag_apis()
        if not all(k in apis for k in ("tagApi", "untagApi", "listTagsApi")):
            return properties
        tag_name = tag_property_name(resource, self.config)
        out = []
        for p in properties:
            if p.schema_name == tag_name and not p.is_tags and (p.create_only or p.write_only):
                source = MutabilitySource(SourceKind.TAG_OPERATIONS, FULL, resource.id, fixes=True,
                                          operation=apis["tagApi"], trait=TAGGABLE,
                                          span=resource.trait_spans.get(TAGGABLE, resource.span))
                self.note("S4304", f"the tag property `{p.schema_name}` of {resource.id} is neither createOnly "
                                   f"nor writeOnly: CloudFormation changes tags through {apis['tagApi']} and "
                                   f"{apis['untagApi']} and reads them through {apis['listTagsApi']}",
                          source.span, None)
                p = replace(p, mutability=FULL, sources=p.sources + (source,))
            out.append(p)
        return out

    def tags_property(self) -> PropertyPlan | None:
        """The tags property of a ``@taggable`` resource whose tag property is not already a
        property (reference ``TaggingMapper.injectTagsMember``); ``S4007``/``S4008``."""
        resource = self.resource
        if TAGGABLE not in resource.traits:
            return None
        trait = resource.traits[TAGGABLE]
        trait = trait if isinstance(trait, dict) else {}
        prop = trait.get("property") if isinstance(trait.get("property"), str) else None
        if prop and prop in self.cfn.properties:
            return None
        name = tag_property_name(resource, self.config)
        member: Member | None = None
        if prop:
            target = resource.properties.get(prop)
            if target is None:
                self.diags.error("S4007", f"@taggable property '{prop}' of {resource.id} is not a resource "
                                          "property", span=resource.trait_spans.get(TAGGABLE, resource.span),
                                 shape_id=resource.id, hint=f"add '{prop}' to the properties of {resource.id}")
            else:
                member = Member(name=name, target=target, container=self.container)
        else:
            tags = self.model.knowledge(TagIndex)
            op = tags.tag_operations(resource.id).get("tagApi")
            source = tags.tags_member(op) if op else None
            if source is None:
                self.diags.error("S4008", f"@taggable resource {resource.id} has no TagResource operation with a "
                                          "tags input member", span=resource.trait_spans.get(TAGGABLE, resource.span),
                                 shape_id=resource.id,
                                 hint="add @aws.api#tagEnabled and TagResource to the service, or set "
                                      "the taggable 'property'")
            else:
                member = replace(source, name=name, container=self.container)
        if member is None:
            return None
        target = self.model.get(member.target)
        return PropertyPlan(name=name, schema_name=name, member=member, shape_ids=(member.target,),
                            mutability=Mutability.NONE, sources=(), required=False,
                            deprecated=DEPRECATED in member.traits or (target is not None and DEPRECATED in target.traits),
                            is_tags=True)

    def tag_apis(self) -> dict[str, str]:
        """``tagApi``/``untagApi``/``listTagsApi`` → operation, for a ``@taggable`` resource."""
        if TAGGABLE not in self.resource.traits:
            return {}
        return dict(self.model.knowledge(TagIndex).tag_operations(self.resource.id))

    def has_update_handler(self) -> bool:
        """An ``update`` handler exists: the update operation, or put without ``@noReplace``."""
        r = self.resource
        return bool(r.update or (r.put and NO_REPLACE not in r.traits))

    def tagging(self) -> TaggingPlan | None:
        resource = self.resource
        if TAGGABLE not in resource.traits:
            if not self.config.registry_ready:
                return None
            self.note("S4301", f"{resource.id} has no @aws.api#taggable, so its schema says `tagging: "
                               "{taggable: false}` (CloudFormation assumes a resource is taggable when "
                               "`tagging` is left out)", resource.span,
                      "add @aws.api#taggable to the resource if it supports tags")
            return TaggingPlan(taggable=False)
        trait = resource.traits[TAGGABLE]
        trait = trait if isinstance(trait, dict) else {}
        tags = self.model.knowledge(TagIndex)
        apis = self.tag_apis()
        perms: set[str] = set()
        for key in ("tagApi", "listTagsApi", "untagApi"):
            if key in apis:
                perms |= permissions_for_operation(self.model, self.service, apis[key])
        updatable = True
        if self.config.registry_ready:
            updatable = self.has_update_handler() and "tagApi" in apis and "untagApi" in apis
            if not updatable:
                why = ("it has no update handler (no update operation, and no put without @noReplace)"
                       if not self.has_update_handler() else "its service has no tag and untag operations")
                self.note("S4303", f"tagging of {resource.id}: `tagUpdatable` is false because {why}",
                          resource.trait_spans.get(TAGGABLE, resource.span),
                          "add an update lifecycle operation and TagResource/UntagResource operations "
                          "to make tags updatable")
        return TaggingPlan(
            taggable=True, tag_on_create=tags.is_tag_on_create(resource), tag_updatable=updatable,
            cloudformation_system_tags=not trait.get("disableSystemTags", False),
            tag_property="/properties/" + tag_property_name(resource, self.config),
            permissions=tuple(sorted(perms)), operations=MappingProxyType(apis))

    def handlers(self, properties: list[PropertyPlan]) -> tuple[HandlerPlan, ...]:
        """The handlers and their permissions (reference ``HandlerPermissionMapper``: ``put``
        counts for ``create`` and, without ``@noReplace``, ``update``). Registry-ready mode
        adds the tagging permissions each handler needs (read lists tags, update tags and
        untags, create tags when tags are not part of the create request) and the list
        handler's ``handlerSchema`` when its input needs parent identifiers."""
        model, service, resource = self.model, self.service, self.resource
        ops: dict[str, list[str]] = {name: [] for name in HANDLERS}
        for name in HANDLERS:
            op = getattr(resource, name)
            if op:
                ops[name].append(op)
        if resource.put:
            ops["create"].append(resource.put)
            if NO_REPLACE not in resource.traits:
                ops["update"].append(resource.put)
        tagging_ops: dict[str, list[str]] = {name: [] for name in HANDLERS}
        apis = self.tag_apis()
        if self.config.registry_ready and apis:
            tag_on_create = self.model.knowledge(TagIndex).is_tag_on_create(resource)
            wanted = {"read": ["listTagsApi"], "update": ["tagApi", "untagApi"],
                      "create": [] if tag_on_create else ["tagApi"]}
            for handler, keys in wanted.items():
                tagging_ops[handler] = [apis[k] for k in keys if k in apis]
        out = []
        for name in HANDLERS:
            if not ops[name]:
                continue
            perms: set[str] = set()
            for op in ops[name] + tagging_ops[name]:
                perms |= permissions_for_operation(model, service, op)
            added = tuple(op for op in tagging_ops[name] if op not in ops[name])
            if added:
                self.note("S4305", f"the {name} handler of {resource.id} gets the permissions of "
                                   f"{listed(added)}, which CloudFormation calls to manage tags",
                          model.shapes[added[0]].span if added[0] in model.shapes else resource.span, None)
            schema_properties: tuple[str, ...] = ()
            if name == "list" and self.config.registry_ready:
                schema_properties = self.list_parameters(properties)
            out.append(HandlerPlan(name, tuple(ops[name] + list(added)), tuple(sorted(perms)), schema_properties))
        return tuple(out)

    def list_parameters(self, properties: list[PropertyPlan]) -> tuple[str, ...]:
        """The properties a list request needs: the identifiers its input binds (a child
        resource's parent identifiers), as they appear in the schema."""
        resource = self.resource
        if not resource.list:
            return ()
        bound = self.model.knowledge(IdentifierBindingIndex).input_bindings(resource.id, resource.list)
        names = tuple(sorted(p.name for p in properties if p.name in bound))
        if names:
            self.note("S4310", f"the list handler of {resource.id} gets a handlerSchema requiring "
                               f"{listed(names)}, which its input {resource.list} needs",
                      self.model.shapes[resource.list].span if resource.list in self.model.shapes else resource.span,
                      None)
        return names

    def note(self, code: str, message: str, span: Span | None, hint: str | None) -> None:
        """Announce a registry-ready correction (a NOTE at the Smithy location behind it)."""
        self.diags.add(code, Severity.NOTE, message, span, self.resource.id, hint)

    def identifiers(self, names: set[str]) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
        resource, cfn = self.resource, self.cfn
        if not cfn.primary_identifiers:
            self.diags.error("S4003", f"resource {resource.id} has no identifiers, so its CloudFormation "
                                      f"schema has no primaryIdentifier", span=resource.span,
                             shape_id=resource.id, hint="add an 'identifiers' property to the resource")
        additional = []
        for ids in cfn.additional_identifiers:
            missing = [n for n in ids if n not in names]
            if missing:
                self.diags.error("S4004", f"additional identifier '{missing[0]}' of {resource.id} is not a "
                                          f"property of the resource (is it excluded?)", span=resource.span,
                                 shape_id=resource.id)
                continue
            additional.append(tuple(ids))
        return tuple(cfn.primary_identifiers), tuple(additional)

    def reached_shapes(self, properties: list[PropertyPlan]) -> frozenset[str]:
        """The property targets and every shape reachable from them through members
        (reference ``Walker`` from the synthetic structure)."""
        walker = Walker(self.model)

        def through_members(rel) -> bool:
            return rel.type.is_member_binding or rel.type is RelationshipType.MEMBER_TARGET

        return frozenset(s for s in walker.walk_all((p.member.target for p in properties), through_members)
                         if "$" not in s)


def tag_property_name(resource: Shape, config: Settings) -> str:
    """The tags property name: the ``@taggable`` ``property`` (capitalized unless
    ``disableCapitalizedProperties``), else ``Tags`` (reference ``TaggingMapper``)."""
    trait = resource.traits.get(TAGGABLE)
    prop = trait.get("property") if isinstance(trait, dict) else None
    if not isinstance(prop, str) or not prop:
        return "Tags"
    return prop if config.disable_capitalized_properties else capitalize(prop)


def derive_plan(model: Model, config: Settings, diags: Diagnostics) -> ConversionPlan | None:
    """Plan the conversion of every ``@cfnResource`` resource of the configured service.

    Args:
        model: a loaded (and validated) model.
        config: the ``cloudformation`` settings (:class:`~smithy2cfn.settings.Settings`,
            checked): a problem a setting causes is located where it was given.
        diags: receives the problems found (``S4001``–``S4012``, ``S5020``–``S5022``); nothing
            is raised.

    Returns:
        The frozen :class:`ConversionPlan`, or ``None`` when the service or the
        organization name cannot be resolved. Resources whose ``typeName`` is invalid are
        left out of the plan after their error.
    """
    service = resolve_service(model, config, diags)
    if service is None:
        return None
    marked = [shape for shape in model.shapes_with_trait(CFN_RESOURCE) if shape.type == "resource"]
    # (no resource carries the trait, as in most service models: none is contained, and the
    # service's resources are not walked)
    contained = model.knowledge(TopDownIndex).contained_resources(service.id) if marked else []
    contained_set = set(contained)
    for resource in marked:
        if resource.id not in contained_set and not model.is_prelude(resource.id):
            diags.warning("S4011", f"resource {resource.id} has @cfnResource but is not bound to service "
                                   f"{service.id}, so no schema is written for it", span=resource.span,
                          shape_id=resource.id, hint=f"add it to the 'resources' of {service.id} "
                                                     "(or of a resource bound to it)")
    index = model.knowledge(CfnResourceIndex)
    cfn_resources = [(rid, index.get(rid)) for rid in contained if index.get(rid) is not None]
    if not cfn_resources:
        diags.warning("S4012", f"service {service.id} has no resource with @aws.cloudformation#cfnResource, "
                               "so no schema is written", span=service.span, shape_id=service.id,
                      hint="apply @aws.cloudformation#cfnResource to the resources to convert")
    plans: list[ResourcePlan] = []
    files: dict[str, str] = {}
    for rid, cfn in cfn_resources:
        resource = model.shapes[rid]
        parts = type_name_parts(service, resource, config, diags)
        if parts is None:
            return None
        final = _final_type_name("::".join(p.value for p in parts), parts, resource, config, diags)
        if final is None:
            continue
        planner = _ResourcePlanner(model, service, resource, cfn, config, diags)
        properties = planner.properties()
        if not properties:
            diags.error("S4009", f"resource {rid} has no properties", span=resource.span, shape_id=rid)
        primary, additional = planner.identifiers({p.name for p in properties})
        doc = resource.traits.get(DOCUMENTATION)
        source_url, documentation_url = _doc_links(resource, config)
        fname = file_name(final)
        if fname in files:
            diags.error("S4010", f"two resources convert to the same typeName {final} (file {fname}): "
                                 f"{files[fname]} and {rid}", span=resource.span, shape_id=rid,
                        hint="give one of them another @aws.cloudformation#cfnResource name")
            continue
        files[fname] = rid
        plans.append(ResourcePlan(
            resource_id=rid, type_name=final, file_name=fname,
            description=doc if isinstance(doc, str) else f"Definition of {final} Resource Type",
            source_url=source_url, documentation_url=documentation_url,
            properties=tuple(properties), primary_identifier=primary, additional_identifiers=additional,
            handlers=planner.handlers(properties), tagging=planner.tagging(),
            shapes=planner.reached_shapes(properties), span=resource.span))
    service_shapes = frozenset(Walker(model).walk(service.id)) if plans else frozenset()
    return ConversionPlan(service.id, config, tuple(plans), service_shapes)


__all__ = [
    "HANDLERS", "SYNTHETIC_SUFFIX", "ConversionPlan", "HandlerPlan", "PropertyPlan", "ResourcePlan", "TaggingPlan",
    "capitalize", "derive_plan", "file_name", "permissions_for_operation", "property_name", "resolve_service",
    "tag_property_name", "type_name_parts",
]
