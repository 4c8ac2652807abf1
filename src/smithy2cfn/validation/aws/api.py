"""Validators of the ``aws.api`` trait package (aws-core.rst): ARNs, the service trait's
values, client endpoint discovery and tagging.

Each check mirrors one validator of the reference's smithy-aws-traits package (named in its
``rule``) and reports that validator's event IDs at its severities: ``ArnTemplate`` and
``ArnTrait`` (``@aws.api#arn``), ``CloudWatchNamespace``, ``EventSource`` and ``SdkServiceId``
(``@aws.api#service``), ``ClientEndpointDiscovery``, and the tagging validators
``ServiceTagging``, ``TagEnabledService``, ``TaggableResource``, ``TagResourcePropertyName`` and
``TagResourcePropertyType`` (``@aws.api#tagEnabled``, ``@aws.api#taggable``).
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.derive.tagging import TAG_APIS, TAG_MEMBER_NAME, TagIndex
from smithy2cfn.diagnostics import Code, Diagnostic, Severity
from smithy2cfn.model.knowledge import PropertyBindingIndex, TopDownIndex
from smithy2cfn.model.knowledge_ops import OperationIndex
from smithy2cfn.model.nodes import as_object, node_type
from smithy2cfn.model.shapes import Member, Model, Shape, ShapeId
from smithy2cfn.model.traits import (
    AWS_ARN,
    AWS_SERVICE,
    CLIENT_DISCOVERED_ENDPOINT,
    CLIENT_ENDPOINT_DISCOVERY,
    TAG_ENABLED,
    TAGGABLE,
)
from smithy2cfn.regexes import lazy
from smithy2cfn.validation.support.events import (
    distinct,
    event,
    java_hash_set_order,
    java_list,
    shape_text,
    ticked,
)
from smithy2cfn.validation.support.shapes import arn_namespace, is_string, service_trait, type_of


def _services(model: Model, trait: str) -> list[Shape]:
    """The services applying ``trait``, sorted by shape ID."""
    return [s for s in model.shapes_with_trait(trait) if s.type == "service"]


# --------------------------------------------------------------------------- aws.api#arn


#: A template label (reference ``ArnTemplateValidator.EXPRESSION_PATTERN``, used with find()).
_ARN_LABEL = lazy(r"^[!|+]?[a-zA-Z_][a-zA-Z0-9_]*$")
_ARN_LABELS = lazy(r"\{([^}]+)}")


def arn_labels(template: str) -> list[str]:
    """The ``{label}`` names of an ARN template, in order (reference ``ArnTrait.getLabels``)."""
    return _ARN_LABELS.findall(template)


@validator(Code("S3500", Severity.ERROR, "ArnTemplate",
                "an `@aws.api#arn` template has a bad label, or its labels are not the resource's identifiers"),
           rule="reference ArnTemplateValidator (smithy-aws-traits); aws-core.rst, aws.api#arn trait: each "
                "label of a template is an identifier of the resource, and each identifier is a label",
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_arn_templates(model: Model) -> Iterable[Diagnostic]:
    """The ``@aws.api#arn`` template of each resource of an ``@aws.api#service`` service uses
    well-formed labels, and names exactly the resource's identifiers.

    Spec: aws-core.rst §"aws.api#arn trait" (``template``: "Each label MUST correspond to an
    identifier name of the resource"). Reference ``ArnTemplateValidator`` (event
    ``ArnTemplate``): a syntax error first; else the identifiers missing from the template,
    and the labels that are no identifier.
    """
    top_down = model.knowledge(TopDownIndex)
    for service in _services(model, AWS_SERVICE):
        for rid in top_down.contained_resources(service.id):
            resource = model.shapes[rid]
            trait = as_object(resource.traits.get(AWS_ARN))
            template = trait.get("template")
            if AWS_ARN not in resource.traits or not isinstance(template, str):
                continue
            labels = arn_labels(template)
            invalid = [label for label in labels if not _ARN_LABEL.search(label)]
            if invalid:
                yield event(model, "S3500", rid,
                            f"aws.api#arn trait contains invalid template labels: {ticked(invalid)}. Template "
                            "labels must match the following regular expression: "
                            f"{_ARN_LABEL.pattern}", trait=AWS_ARN)
                continue
            names = list(resource.identifiers)
            missing = set(names) - set(labels)
            if missing:
                yield event(model, "S3500", rid,
                            f"Invalid aws.api#arn trait resource, `{template}`. The following resource "
                            f"identifier names were missing from the `arn` template: {ticked(missing)}",
                            trait=AWS_ARN, hint="add a `{name}` label for each identifier of the resource")
            extra = set(labels) - set(names)
            if extra:
                yield event(model, "S3500", rid,
                            f"Invalid aws.api#arn trait resource, `{template}`. Found template labels in the "
                            "trait that are not the names of the identifiers of the resource: "
                            f"{java_list(names)}. Extraneous identifiers: [{ticked(extra)}]",
                            trait=AWS_ARN, hint="each label must name an identifier of the resource")


#: ``ArnTrait.Provider``'s optional boolean members, in the order it reads them (with
#: ``resourceDelimiter`` between ``noAccount`` and ``reusable``).
_ARN_BOOLEANS = ("absolute", "noRegion", "noAccount")
#: ``ArnTrait.ResourceDelimiter`` values.
_ARN_DELIMITERS = ("/", ":")


def arn_creation_problem(value: object) -> str | None:
    """Why the reference cannot build an ``@aws.api#arn`` trait from ``value`` (``None`` when
    it can): ``ArnTrait.Provider.createTrait`` reads the members in order and stops at the
    first problem, and the constructor rejects a template starting with ``/``."""
    if not isinstance(value, dict):
        return f"Expected object, but found {node_type(value)}."
    template = value.get("template")
    if "template" not in value:
        return "Missing expected member `template`."
    if not isinstance(template, str):
        return f"Expected `template` member to be a string, but found {node_type(template)}."
    for name in _ARN_BOOLEANS:
        if name in value and not isinstance(value[name], bool):
            return f"Expected `{name}` to be a boolean; found {node_type(value[name])}"
    if "resourceDelimiter" in value:
        delimiter = value["resourceDelimiter"]
        if not isinstance(delimiter, str):
            return f"Expected `resourceDelimiter` to be a string; found {node_type(delimiter)}"
        if delimiter not in _ARN_DELIMITERS:
            return f"Invalid delimiter: {delimiter}"
    if "reusable" in value and not isinstance(value["reusable"], bool):
        return f"Expected `reusable` to be a boolean; found {node_type(value['reusable'])}"
    if template.startswith("/"):
        return f"Invalid aws.api#arn trait. The template must not start with '/'. Found `{template}`"
    return None


@validator(Code("S3501", Severity.ERROR, "ArnTrait",
                "`@aws.api#arn(resourceDelimiter)` on an ARN that is not `absolute`"),
           Code("S3517", Severity.ERROR, "Model",
                "an `@aws.api#arn` value the reference cannot build: a template starting with `/`, a "
                "`resourceDelimiter` other than `/` or `:`, a member of the wrong type (the trait is not created)"),
           rule="reference ArnTrait.Provider (trait creation) and ArnTraitValidator (smithy-aws-traits); "
                "aws-core.rst, aws.api#arn trait: template, resourceDelimiter only with absolute",
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_arn_traits(model: Model) -> Iterable[Diagnostic]:
    """Each ``@aws.api#arn`` value can be built, and ``resourceDelimiter`` is only set on an
    ``absolute`` ARN.

    Spec: aws-core.rst §"aws.api#arn trait" (``template``: relative templates do not start
    with ``/``; ``resourceDelimiter``: ``/`` or ``:``, and "MUST only be set when absolute is
    true"). Reference ``ArnTrait.Provider``: a value it cannot build is an ERROR ``Model``
    "Error creating trait `aws.api#arn`: ..." (``S3517``: the model does not load, so no
    other check counts); reference ``ArnTraitValidator`` (``S3501``, ERROR ``ArnTrait``).
    """
    for resource in model.of_type("resource"):
        if AWS_ARN not in resource.traits:
            continue
        trait = resource.traits.get(AWS_ARN)
        problem = arn_creation_problem(trait)
        if problem is not None:
            yield event(model, "S3517", resource.id, f"Error creating trait `{AWS_ARN}`: {problem}", trait=AWS_ARN)
            continue
        trait = as_object(trait)
        if trait.get("absolute") is not True and "resourceDelimiter" in trait:
            yield event(model, "S3501", resource.id, "A `resourceDelimiter` can only be set for an `absolute` ARN.",
                        trait=AWS_ARN, hint="remove `resourceDelimiter`, or set `absolute: true`")


# --------------------------------------------------------------------------- aws.api#service

_PASCAL_CASE = lazy(r"^[A-Z][a-zA-Z0-9]*(?:[A-Z][a-zA-Z0-9]*)*$")


@validator(Code("S3502", Severity.DANGER, "CloudWatchNamespace",
                "`aws.api#service(cloudWatchNamespace)` does not start with `AWS/` or is not PascalCase"),
           rule="reference CloudWatchNamespaceValidator (smithy-aws-traits); aws-core.rst, aws.api#service "
                "trait, cloudWatchNamespace",
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_cloudwatch_namespaces(model: Model) -> Iterable[Diagnostic]:
    """``aws.api#service(cloudWatchNamespace)`` starts with ``AWS/`` and its service part
    is PascalCase.

    Spec: aws-core.rst §"aws.api#service trait" (``cloudWatchNamespace``). Reference
    ``CloudWatchNamespaceValidator`` (event ``CloudWatchNamespace``, DANGER).
    """
    for service in _services(model, AWS_SERVICE):
        namespace = (service_trait(service) or {}).get("cloudWatchNamespace")
        if not isinstance(namespace, str):
            continue
        prefixed = namespace.startswith("AWS/")
        rest = namespace.replace("AWS/", "")
        pascal = bool(_PASCAL_CASE.fullmatch(rest))
        if prefixed and pascal:
            continue
        message = f"The service's CloudWatch metric namespace `{namespace}` does not follow convention."
        if not prefixed:
            message += " The namespace should start with the `AWS/` prefix."
        if not pascal:
            message += f" The namespace's service component `{rest}` should be PascalCase."
        yield event(model, "S3502", service.id, message, trait=AWS_SERVICE,
                    hint="use `AWS/ServiceName`, e.g. `AWS/DynamoDB`")


_EVENT_SOURCE_EXCEPTIONS = {"cloudwatch.amazonaws.com": "monitoring.amazonaws.com"}


@validator(Code("S3504", Severity.WARNING, "EventSource",
                "`aws.api#service(cloudTrailEventSource)` is a placeholder or not `<arnNamespace>.amazonaws.com`"),
           rule="reference EventSourceValidator (smithy-aws-traits); aws-core.rst, aws.api#service trait, "
                "cloudTrailEventSource",
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_event_sources(model: Model) -> Iterable[Diagnostic]:
    """``aws.api#service(cloudTrailEventSource)`` is ``<arnNamespace>.amazonaws.com`` and is
    no placeholder.

    Spec: aws-core.rst §"aws.api#service trait" (``cloudTrailEventSource``). Reference
    ``EventSourceValidator`` (event ``EventSource``, WARNING).
    """
    for service in _services(model, AWS_SERVICE):
        trait = service_trait(service) or {}
        namespace = arn_namespace(service)
        expected = namespace + ".amazonaws.com"
        source = trait.get("cloudTrailEventSource")
        source = source if isinstance(source, str) else expected
        if _EVENT_SOURCE_EXCEPTIONS.get(expected) == source:
            continue
        if "REPLACE" in source or source.upper() == source:
            message = f"aws.api#service|cloudTrailEventSource must not use placeholders, but found: {source}"
        elif source != expected:
            message = ("aws.api#service|cloudTrailEventSource does not match the expected value. "
                       f"Expected '{expected}', but found '{source}'.")
        else:
            continue
        yield event(model, "S3504", service.id, message, trait=AWS_SERVICE)


_SDK_ID = lazy(r"^[a-zA-Z][a-zA-Z0-9]*( [a-zA-Z0-9]+)*$")
_COMPANY_NAMES = ("AWS", "Aws", "Amazon")
#: The reference's set iterates in this order (``SetUtils.of("service", "client", "api")``
#: is a Java HashSet); only one ending can match a given id anyway except "service"/"api".
_DISALLOWED_ENDINGS = ("service", "client", "api")
_LEGACY_SDK_IDS = frozenset({
    "ACM PCA", "ApiGatewayManagementApi", "Config Service", "Cost and Usage Report Service",
    "Application Discovery Service", "Database Migration Service", "Directory Service",
    "Elasticsearch Service", "IoT 1Click Devices Service", "IoTAnalytics", "Lex Model Building Service",
    "Lex Runtime Service", "Marketplace Entitlement Service", "mq", "Resource Groups Tagging API",
})


def sdk_id_problems(sdk_id: str) -> list[str]:
    """Why ``sdk_id`` is not a valid SDK service ID (empty when it is), as the reference's
    ``SdkServiceIdValidator.validateServiceId`` words it."""
    if sdk_id in _LEGACY_SDK_IDS:
        return []
    problems = []
    if not _SDK_ID.search(sdk_id):
        problems.append(f"Does not match the required pattern `{_SDK_ID.pattern}`")
    if any(name in sdk_id for name in _COMPANY_NAMES):
        problems.append(f"Must not contain any of the following company names: [{ticked(_COMPANY_NAMES)}]")
    lower = sdk_id.lower()
    ending = next((e for e in _DISALLOWED_ENDINGS if lower.endswith(e)), None)
    if ending is not None:
        problems.append(f"Must not case-insensitively end with `{ending}`")
    if not sdk_id or len(sdk_id.encode("utf-16-le")) // 2 > 50:  # Java String.length(): UTF-16 units
        problems.append("Must be between 1 and 50 characters long.")
    return problems


@validator(Code("S3505", Severity.DANGER, "SdkServiceId",
                "`aws.api#service(sdkId)` is not a valid SDK service ID"),
           rule="reference SdkServiceIdValidator (smithy-aws-traits); aws-core.rst, aws.api#service trait, "
                "sdkId and Choosing an SDK service ID",
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_sdk_service_ids(model: Model) -> Iterable[Diagnostic]:
    """``aws.api#service(sdkId)`` matches ``^[a-zA-Z][a-zA-Z0-9]*( [a-zA-Z0-9]+)*$``, names
    no company, does not end with Service/Client/API and has 1 to 50 characters.

    Spec: aws-core.rst §"sdkId". Reference ``SdkServiceIdValidator`` (event
    ``SdkServiceId``, DANGER); the service IDs released before the rule are accepted.
    """
    for service in _services(model, AWS_SERVICE):
        sdk_id = (service_trait(service) or {}).get("sdkId")
        if not isinstance(sdk_id, str):
            continue  # a missing sdkId is a TraitValue error
        problems = sdk_id_problems(sdk_id)
        if problems:
            yield event(model, "S3505", service.id,
                        f"Invalid SDK service ID value, `{sdk_id}`: {';'.join(problems)}", trait=AWS_SERVICE,
                        hint="use the service's short name in words, e.g. `Lex Models`")


# --------------------------------------------------------------------------- endpoint discovery


def _discovery_services(model: Model) -> list[tuple[Shape, dict]]:
    return [(s, as_object(s.traits.get(CLIENT_ENDPOINT_DISCOVERY))) for s in _services(model, CLIENT_ENDPOINT_DISCOVERY)]


def _discovery_ref(service: Shape, trait: dict, key: str) -> str | None:
    value = trait.get(key)
    return ShapeId.absolute(value, service.namespace) if isinstance(value, str) else None


@validator(Code("S3508", Severity.ERROR, "ClientEndpointDiscovery",
                "endpoint discovery: the endpoint operation is unbound or has the wrong input or output, an "
                "operation is not in a discovery service or lacks its error; no error defined (danger), no "
                "discovered operation (warning)", also=(Severity.DANGER, Severity.WARNING)),
           rule="reference ClientEndpointDiscoveryValidator (smithy-aws-traits); aws-core.rst, Client "
                "Endpoint Discovery: aws.api#clientEndpointDiscovery and aws.api#clientDiscoveredEndpoint "
                "traits",
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_client_endpoint_discovery(model: Model) -> Iterable[Diagnostic]:
    """Endpoint discovery: the service names an error and a bound endpoint operation with the
    required input and output shapes; every ``@clientDiscoveredEndpoint`` operation is in such
    a service and can return its error.

    Spec: aws-core.rst §"Client endpoint discovery". Reference
    ``ClientEndpointDiscoveryValidator`` (event ``ClientEndpointDiscovery``; DANGER
    ``.MissingErrorDefinition``, WARNING ``.NoOperations``, ERROR
    ``.UnboundOperation.<name>``).
    """
    top_down = model.knowledge(TopDownIndex)
    services = _discovery_services(model)
    infos: dict[str, dict[str, str | None]] = {}  # service → operation → error structure
    for service, trait in services:
        if _discovery_ref(service, trait, "error") is None:
            yield event(model, "S3508", service.id, "Services SHOULD define an error which indicates an endpoint "
                        "is invalid.", severity=Severity.DANGER,
                        event_id="ClientEndpointDiscovery.MissingErrorDefinition",
                        trait=CLIENT_ENDPOINT_DISCOVERY)
        op_id = _discovery_ref(service, trait, "operation")
        if op_id is None or type_of(model, op_id) != "operation":
            continue
        error_id = _discovery_ref(service, trait, "error")
        error_struct = error_id if error_id and type_of(model, error_id) == "structure" else None
        found = {o: error_struct for o in top_down.contained_operations(service.id)
                 if CLIENT_DISCOVERED_ENDPOINT in model.shapes[o].traits}
        if found:
            infos[service.id] = found
    for service, trait in services:
        op_id = _discovery_ref(service, trait, "operation")
        if op_id is not None and type_of(model, op_id) == "operation":
            yield from _endpoint_operation(model, model.shapes[op_id])
    for service, trait in services:
        op_id = _discovery_ref(service, trait, "operation")
        if op_id is not None and op_id not in service.operations:
            yield event(model, "S3508", service.id,
                        f"The operation `{op_id}` must be bound to the service `{shape_text(model, service.id)}` to use it "
                        "as the endpoint operation.",
                        event_id=f"ClientEndpointDiscovery.UnboundOperation.{ShapeId.name(op_id)}",
                        hint="add the operation to the service's `operations`")
    for service, _trait in services:
        if service.id not in infos:
            yield event(model, "S3508", service.id,
                        f"The service `{service.id}` is configured to use endpoint discovery, but has no "
                        f"operations bound with the `{CLIENT_DISCOVERED_ENDPOINT}` trait.",
                        severity=Severity.WARNING, event_id="ClientEndpointDiscovery.NoOperations")
    for op in model.of_type("operation"):
        if CLIENT_DISCOVERED_ENDPOINT not in op.traits:
            continue
        bound = [(sid, ops[op.id]) for sid, ops in infos.items() if op.id in ops]
        if not bound:
            yield event(model, "S3508", op.id,
                        f"The operation `{op.id}` is marked with `{CLIENT_DISCOVERED_ENDPOINT}` but is not "
                        f"attached to a service with the `{CLIENT_ENDPOINT_DISCOVERY}` trait.",
                        hint="bind the operation to a service with endpoint discovery")
            continue
        for sid, error_id in bound:
            if error_id is not None and error_id not in op.errors:
                yield event(model, "S3508", op.id,
                            f"The operation `{op.id}` is marked with `{CLIENT_DISCOVERED_ENDPOINT}` and is bound "
                            f"to the service `{sid}` but does not have the required error `{error_id}`.",
                            hint=f"add `{ShapeId.name(error_id)}` to the operation's errors")


def _endpoint_operation(model: Model, op: Shape) -> Iterable[Diagnostic]:
    ops = model.knowledge(OperationIndex)
    inputs, input_struct = ops.input_members(op.id), ops.input(op.id)
    if not set(inputs) <= {"Operation", "Identifiers"}:
        yield event(model, "S3508", input_struct.id if input_struct else op.id,
                    f"Input for endpoint discovery operation `{op.id}` may only have the members Operation and "
                    f"Identifiers but found: {', '.join(java_hash_set_order(inputs))}")  # a HashSet
    operation_member = inputs.get("Operation")
    if operation_member is not None and operation_member.target in model.shapes \
            and not is_string(model, operation_member.target):
        yield event(model, "S3508", operation_member.target,
                    "The Operation member of an endpoint discovery operation must be a string")
    identifiers = inputs.get("Identifiers")
    if identifiers is not None:
        target = model.shapes.get(identifiers.target)
        value = target.members.get("value") if target is not None and target.type == "map" else None
        if value is None or not is_string(model, value.target):
            yield event(model, "S3508", identifiers.id, "The Identifiers member of an endpoint discovery "
                        "operation must be a map whose keys and values are strings.")
    outputs = ops.output_members(op.id)
    if len(outputs) != 1 or "Endpoints" not in outputs:
        yield event(model, "S3508", op.id, "Endpoint discovery operation output must only contain an `Endpoints` "
                    f"member, but found: [{','.join(outputs)}]")
    endpoints = outputs.get("Endpoints")
    if endpoints is None:
        return
    listing = model.shapes.get(endpoints.target)
    if listing is None or listing.type != "list":
        yield event(model, "S3508", endpoints.id, "The output member `Endpoints` on an endpoint discovery "
                    "operation must be a list.")
        return
    item = listing.members.get("member")
    struct = model.shapes.get(item.target) if item is not None else None
    if struct is None or struct.type != "structure":
        yield event(model, "S3508", listing.id, "The member of the Endpoints list in an endpoint discovery "
                    "operation must be a structure shape.")
        return
    address = struct.members.get("Address")
    if address is not None and address.target in model.shapes and not is_string(model, address.target):
        yield event(model, "S3508", address.id, "The `Address` member of the `Endpoint` shape must be a string type.")
    period = struct.members.get("CachePeriodInMinutes")
    if period is not None and period.target in model.shapes and type_of(model, period.target) != "long":
        yield event(model, "S3508", period.id, "The `CachePeriodInMinutes` member of the `Endpoint` shape must be "
                    "a long type.")
    if set(struct.members) != {"Address", "CachePeriodInMinutes"}:
        yield event(model, "S3508", struct.id, "The `Endpoint` shape must only have the members `Address` and "
                    f"`CachePeriodInMinutes`, but found: {', '.join(java_hash_set_order(struct.members))}")


# --------------------------------------------------------------------------- tagging

_ARN_MEMBER_PREFIX = lazy(r"^[R|r]esource")
_ARN_MEMBER_SUFFIX = lazy(r"[A|a]rn|ARN$")
_TAG_KEYS_NAME = lazy(r"^[T|t]ag[K|k]eys$")


def _is_arn_member_name(name: str) -> bool:
    """Reference ``TaggingShapeUtils.isArnMemberDesiredName``."""
    if not name:
        return False
    rest = _ARN_MEMBER_PREFIX.sub("", name, count=1)
    return _ARN_MEMBER_SUFFIX.sub("", rest, count=1) == ""


def is_tags_shape(model: Model, shape: Shape | None) -> bool:
    """A list of two-string structures, or a map to strings (``verifyTagsShape``)."""
    if shape is None:
        return False
    if shape.type == "list":
        item = shape.members.get("member")
        struct = model.shapes.get(item.target) if item is not None else None
        return (struct is not None and struct.type == "structure" and len(struct.members) == 2
                and all(is_string(model, m.target) for m in struct.members.values()))
    if shape.type == "map":
        value = shape.members.get("value")
        return value is not None and is_string(model, value.target)
    return False


def _is_tag_keys_shape(model: Model, shape: Shape | None) -> bool:
    item = shape.members.get("member") if shape is not None and shape.type == "list" else None
    return item is not None and is_string(model, item.target)


def _has_arn_input(model: Model, members: dict[str, Member]) -> bool:
    return any(_is_arn_member_name(name) and is_string(model, m.target) for name, m in members.items())


def _count(model: Model, members: dict[str, Member], name_ok, shape_ok) -> int:
    return sum(1 for name, m in members.items() if name_ok(name) and shape_ok(model, model.shapes.get(m.target)))


def _tags_name(name: str) -> bool:
    return bool(TAG_MEMBER_NAME.match(name))


def _tag_keys_name(name: str) -> bool:
    return bool(_TAG_KEYS_NAME.match(name))


def tag_operation_is_valid(model: Model, kind: str, op: Shape) -> bool:
    """Whether ``op`` meets the requirements of the ``kind`` (``tagApi``, ``untagApi``,
    ``listTagsApi``) service-wide tag operation (``TaggingShapeUtils.verify*Operation``)."""
    ops = model.knowledge(OperationIndex)
    inputs = ops.input_members(op.id)
    if kind == "tagApi":
        found = _count(model, inputs, _tags_name, is_tags_shape)
    elif kind == "untagApi":
        found = _count(model, inputs, _tag_keys_name, _is_tag_keys_shape)
    else:
        found = _count(model, ops.output_members(op.id), _tags_name, is_tags_shape)
    return found == 1 and _has_arn_input(model, inputs)


def _service_tag_ops(model: Model, service: Shape) -> dict[str, tuple[str, bool]]:
    """``kind`` → (operation ID, valid) for the service's resolved tag operations."""
    apis = model.knowledge(TagIndex).tag_operations(service.id)
    out = {}
    for kind, op_id in apis.items():
        op = model.shapes.get(op_id)
        out[kind] = (op_id, op is not None and op.type == "operation" and tag_operation_is_valid(model, kind, op))
    return out


def service_has_tag_apis(model: Model, service: Shape) -> bool:
    """True when a ``@tagEnabled`` service has all three valid tag operations
    (``AwsTagIndex.serviceHasTagApis``)."""
    if TAG_ENABLED not in service.traits:
        return False
    ops = _service_tag_ops(model, service)
    return len(ops) == 3 and all(valid for _, valid in ops.values())


@validator(Code("S3512", Severity.WARNING, "ServiceTagging",
                "a `@tagEnabled` service lacks a tag operation (warning) or has one of the wrong shape (danger)", also=(Severity.DANGER,)),
           rule="reference ServiceTaggingValidator (smithy-aws-traits); aws-core.rst, aws.api#tagEnabled "
                "trait: TagResource, UntagResource, ListTagsForResource",
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_service_tagging(model: Model) -> Iterable[Diagnostic]:
    """A ``@tagEnabled`` service has TagResource, UntagResource and ListTagsForResource
    operations (or those its ``apiConfig`` names) of the required shapes.

    Spec: aws-core.rst §"aws.api#tagEnabled trait". Reference ``ServiceTaggingValidator``
    (event ``ServiceTagging``: WARNING for a missing operation, DANGER for one that does not
    satisfy the requirements).
    """
    for service in _services(model, TAG_ENABLED):
        ops = _service_tag_ops(model, service)
        config = as_object(as_object(service.traits.get(TAG_ENABLED)).get("apiConfig"))
        for kind, default in TAG_APIS.items():
            if kind in ops:
                op_id, valid = ops[kind]
                if not valid:
                    yield event(model, "S3512", service.id,
                                f"Shape `{op_id}` does not satisfy '{default}' operation requirements.",
                                severity=Severity.DANGER, trait=TAG_ENABLED)
                continue
            configured = config.get(kind)
            if isinstance(configured, str):
                message = (f"Service marked `aws.api#TagEnabled` is missing an operation named "
                           f"'{ShapeId.name(configured)}' (specified by `apiConfig`).")
            else:
                message = f"Service marked `aws.api#TagEnabled` is missing an operation named '{default}.'"
            yield event(model, "S3512", service.id, message, trait=TAG_ENABLED)


@validator(Code("S3513", Severity.ERROR, "TagEnabledService",
                "a `@tagEnabled` service has no `@taggable` resource; inconsistent tag operations or an `apiConfig`"
                " shadowing an operation (warning)", also=(Severity.WARNING,)),
           rule="reference TagEnabledServiceValidator (smithy-aws-traits); aws-core.rst, aws.api#tagEnabled "
                "trait and Taggable service API config structure",
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_tag_enabled_services(model: Model) -> Iterable[Diagnostic]:
    """A ``@tagEnabled`` service has a ``@taggable`` resource, has consistent tag
    operations (unless ``disableDefaultOperations``), and its ``apiConfig`` does not shadow
    a default-named operation.

    Spec: aws-core.rst §"aws.api#tagEnabled trait". Reference ``TagEnabledServiceValidator``
    (event ``TagEnabledService``).
    """
    top_down = model.knowledge(TopDownIndex)
    for service in _services(model, TAG_ENABLED):
        trait = as_object(service.traits.get(TAG_ENABLED))
        if not any(TAGGABLE in model.shapes[r].traits for r in top_down.contained_resources(service.id)):
            yield event(model, "S3513", service.id, "Service marked `aws.api#tagEnabled` trait must have at least "
                        "one `aws.api#taggable` resource.", hint="mark a resource of the service @taggable")
        if trait.get("disableDefaultOperations") is not True and not service_has_tag_apis(model, service):
            yield event(model, "S3513", service.id, "Service marked `aws.api#tagEnabled` trait does not have "
                        "consistent tagging operations implemented: {TagResource, UntagResource, and "
                        "ListTagsForResource}.", severity=Severity.WARNING)
        if "apiConfig" not in trait:
            continue
        config = as_object(trait.get("apiConfig"))
        names = {ShapeId.name(o) for o in service.operations}
        for kind, default in TAG_APIS.items():
            configured = config.get(kind)
            if not isinstance(configured, str) or ShapeId.name(configured) == default or default not in names:
                continue
            configured = ShapeId.absolute(configured, service.namespace)
            yield event(model, "S3513", service.id,
                        f"Service has `apiConfig.{kind}` set to `{configured}` but also has a service-bound "
                        f"operation named `{default}`. The default-named operation will be ignored for tagging "
                        f"API discovery. Remove either the `apiConfig` override or the `{default}` operation to "
                        "avoid ambiguity.", severity=Severity.WARNING, trait=TAG_ENABLED)


def _tag_property_in_input(model: Model, resource: Shape, op_id: str | None) -> bool:
    prop = as_object(resource.traits.get(TAGGABLE)).get("property")
    op = model.shapes.get(op_id) if op_id else None
    if not isinstance(prop, str) or op is None:
        return False
    index = model.knowledge(PropertyBindingIndex)
    inputs = model.knowledge(OperationIndex).input_members(op.id)
    return any(index.property_name(m.id) == prop for m in inputs.values())


def _exactly_one(model: Model, members: dict[str, Member], name_ok, shape_ok) -> bool:
    return _count(model, members, name_ok, shape_ok) == 1


def _taggable_via_instance_operations(model: Model, resource: Shape) -> bool:
    config = as_object(resource.traits.get(TAGGABLE)).get("apiConfig")
    if not isinstance(config, dict):
        return False

    def op(key: str) -> Shape | None:
        ref = config.get(key)
        shape = model.shapes.get(ShapeId.absolute(ref, resource.namespace)) if isinstance(ref, str) else None
        return shape if shape is not None and shape.type == "operation" else None

    tag, untag, list_tags = op("tagApi"), op("untagApi"), op("listTagsApi")
    ops = model.knowledge(OperationIndex)
    tag_ok = (tag is not None and _tag_property_in_input(model, resource, tag.id)
              and _exactly_one(model, ops.input_members(tag.id), _tags_name, is_tags_shape))
    untag_ok = untag is not None and _exactly_one(model, ops.input_members(untag.id), _tag_keys_name,
                                                  _is_tag_keys_shape)
    list_ok = list_tags is not None and _exactly_one(model, ops.output_members(list_tags.id), _tags_name,
                                                     is_tags_shape)
    return tag_ok and untag_ok and list_ok


@validator(Code("S3514", Severity.DANGER, "TaggableResource",
                "a `@taggable` resource cannot be tagged, updates tags, or lacks `@arn` (error); a likely taggable "
                "resource, or a service without `@tagEnabled` (warning)", also=(Severity.ERROR, Severity.WARNING)),
           rule="reference TaggableResourceValidator (smithy-aws-traits); aws-core.rst, aws.api#taggable "
                "trait",
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_taggable_resources(model: Model) -> Iterable[Diagnostic]:
    """Each ``@taggable`` resource of a service can be tagged (through its own tag operations
    or the service's), does not update tags in ``update``/``put``, and uses ``@arn`` when
    only service-wide operations tag it; an ``@arn`` resource of a service with tag
    operations is likely taggable; a service with taggable resources is ``@tagEnabled``.

    Spec: aws-core.rst §"aws.api#taggable trait". Reference ``TaggableResourceValidator``
    (event ``TaggableResource``).
    """
    top_down = model.knowledge(TopDownIndex)
    tags = model.knowledge(TagIndex)
    for service in model.of_type("service"):
        service_wide = service_has_tag_apis(model, service)
        for rid in top_down.contained_resources(service.id):
            resource = model.shapes[rid]
            likely = False
            if TAGGABLE in resource.traits:
                likely = True
                if tags.is_tag_on_update(resource):
                    op_id = resource.update or resource.put
                    if op_id:
                        yield event(model, "S3514", op_id, "Update and put resource lifecycle operations should not "
                                    "support updating tags because it is a privileged operation that modifies "
                                    "access.", severity=Severity.DANGER,
                                    hint="tag through the tag operations, not the update")
                instance = _taggable_via_instance_operations(model, resource)
                if service_wide and not instance and AWS_ARN not in resource.traits:
                    yield event(model, "S3514", rid, "Resource is taggable only via service-wide tag operations. "
                                "It must use the `aws.api@arn` trait.", severity=Severity.ERROR,
                                hint="add @aws.api#arn to the resource")
                if not service_wide and not instance:
                    yield event(model, "S3514", rid, "Resource does not have tagging CRUD operations and is not "
                                "compatible with service-wide tagging operations for service "
                                f"`{service.id}`.", severity=Severity.DANGER)
            elif AWS_ARN in resource.traits and service_wide:
                yield event(model, "S3514", rid, "Resource is likely missing `aws.api#taggable` trait.",
                            severity=Severity.WARNING)
                likely = True
            if likely and TAG_ENABLED not in service.traits:
                yield event(model, "S3514", service.id, "Service has resources with `aws.api#taggable` applied but "
                            "does not have the `aws.api#tagEnabled` trait.", severity=Severity.WARNING)


@validator(Code("S3515", Severity.WARNING, "TagResourcePropertyName",
                "a `@taggable(property)` is not named like `tags`"),
           rule="reference TagResourcePropertyNameValidator (smithy-aws-traits); aws-core.rst, "
                "aws.api#taggable trait: property",
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_tag_property_names(model: Model) -> Iterable[Diagnostic]:
    """A ``@taggable(property)`` is named ``tags``/``Tags`` (or ``tagList``, ``tagsMap``...).

    Spec: aws-core.rst §"aws.api#taggable trait". Reference
    ``TagResourcePropertyNameValidator`` (event ``TagResourcePropertyName``, WARNING).
    """
    for resource in model.of_type("resource"):
        prop = as_object(resource.traits.get(TAGGABLE)).get("property") if TAGGABLE in resource.traits else None
        if isinstance(prop, str) and not TAG_MEMBER_NAME.match(prop):
            yield event(model, "S3515", resource.id, "Suggested tag property name is '[T|t]ags'.")


@validator(Code("S3516", Severity.ERROR, "TagResourcePropertyType",
                "a `@taggable(property)` is not a list of key/value pairs or a map of strings"),
           rule="reference TagResourcePropertyTypeValidator (smithy-aws-traits); aws-core.rst, "
                "aws.api#taggable trait: property",
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_tag_property_types(model: Model) -> Iterable[Diagnostic]:
    """The ``@taggable(property)`` of a resource targets a list of key/value string pairs or
    a map of strings.

    Spec: aws-core.rst §"aws.api#taggable trait". Reference
    ``TagResourcePropertyTypeValidator`` (event ``TagResourcePropertyType``).
    """
    for resource in model.of_type("resource"):
        prop = as_object(resource.traits.get(TAGGABLE)).get("property") if TAGGABLE in resource.traits else None
        if not isinstance(prop, str) or prop not in resource.properties:
            continue
        if not is_tags_shape(model, model.shapes.get(resource.properties[prop])):
            yield event(model, "S3516", resource.id, "Tag property must be a list shape targeting a member "
                        "containing a pair of strings, or a Map shape targeting a string member.",
                        hint="target a map of strings, or a list of structures with two string members")


__all__ = [
    "arn_creation_problem", "arn_labels", "check_arn_templates", "check_arn_traits", "check_client_endpoint_discovery",
    "check_cloudwatch_namespaces", "check_event_sources", "check_sdk_service_ids", "check_service_tagging",
    "check_tag_enabled_services", "check_tag_property_names", "check_tag_property_types",
    "check_taggable_resources", "is_tags_shape", "sdk_id_problems", "service_has_tag_apis",
    "tag_operation_is_valid",
]
