"""Validators of the ``aws.api``, ``aws.auth`` and ``aws.protocols`` trait packages.

Spec: aws-core.rst (``aws.api#service``, ``aws.api#arn``, ``aws.api#clientEndpointDiscovery``,
``aws.api#tagEnabled``, ``aws.api#taggable``), aws-auth.rst (``sigv4``, ``sigv4a``),
aws-protocols (``httpChecksum``, ``awsQueryError``, the protocol traits). Each check mirrors
one validator of the reference's smithy-aws-traits package (named in its docstring) and
reports that validator's event IDs at its severities.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.derive.tagging import TAG_MEMBER_NAME, TagIndex
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, declare_codes
from smithy2cfn.model.knowledge import PropertyBindingIndex, TopDownIndex
from smithy2cfn.model.knowledge_ops import OperationIndex
from smithy2cfn.model.nodes import as_object, string_items
from smithy2cfn.model.shapes import Member, Model, Shape, ShapeId
from smithy2cfn.model.traits import (
    AWS_ARN,
    AWS_QUERY,
    AWS_QUERY_COMPATIBLE,
    AWS_QUERY_ERROR,
    AWS_SERVICE,
    CLIENT_DISCOVERED_ENDPOINT,
    CLIENT_ENDPOINT_DISCOVERY,
    ENUM,
    ENUM_VALUE,
    ERROR,
    HTTP,
    HTTP_CHECKSUM,
    HTTP_HEADER,
    HTTP_PAYLOAD,
    HTTP_PREFIX_HEADERS,
    HTTP_QUERY,
    HTTP_QUERY_PARAMS,
    REST_XML,
    TAG_ENABLED,
    TAGGABLE,
)
from smithy2cfn.validation.support.events import (
    distinct,
    event,
    java_hash_set_order,
    java_list,
    shape_text,
    ticked,
)
from smithy2cfn.validation.support.shapes import arn_namespace, is_string, service_trait, type_of

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S3500", Severity.ERROR, "ArnTemplate",
         "an `@aws.api#arn` template has a bad label, or its labels are not the resource's identifiers"),
    Code("S3501", Severity.ERROR, "ArnTrait",
         "`@aws.api#arn(resourceDelimiter)` on an ARN that is not `absolute`"),
    Code("S3502", Severity.DANGER, "CloudWatchNamespace",
         "`aws.api#service(cloudWatchNamespace)` does not start with `AWS/` or is not PascalCase"),
    Code("S3503", Severity.ERROR, "ErrorRename", "a service using an AWS protocol renames an error shape"),
    Code("S3504", Severity.WARNING, "EventSource",
         "`aws.api#service(cloudTrailEventSource)` is a placeholder or not `<arnNamespace>.amazonaws.com`"),
    Code("S3505", Severity.DANGER, "SdkServiceId", "`aws.api#service(sdkId)` is not a valid SDK service ID"),
    Code("S3506", Severity.ERROR, "HttpChecksumTrait",
         "`@httpChecksum` without a behaviour, or naming missing or non-enum members or unsupported values; "
         "a header binding that collides with `x-amz-checksum-` (danger, warning)", also=(Severity.DANGER, Severity.WARNING,)),
    Code("S3507", Severity.WARNING, "SigV4Traits",
         "`arnNamespace`, `@sigv4(name)` and `@sigv4a(name)` differ"),
    Code("S3508", Severity.ERROR, "ClientEndpointDiscovery",
         "endpoint discovery: the endpoint operation is unbound or has the wrong input or output, an "
         "operation is not in a discovery service or lacks its error; no error defined (danger), no "
         "discovered operation (warning)", also=(Severity.DANGER, Severity.WARNING,)),
    Code("S3509", Severity.ERROR, "ProtocolHttpPayload",
         "with an AWS protocol, `@httpPayload` binds a list, map or simple type other than a string or blob"),
    Code("S3510", Severity.ERROR, "ProtocolHttp",
         "an `eventStreamHttp` version of an AWS protocol is not in its `http`"),
    Code("S3511", Severity.DANGER, "QueryErrorCode",
         "two errors of a query (or query-compatible) service share an error code"),
    Code("S3512", Severity.WARNING, "ServiceTagging",
         "a `@tagEnabled` service lacks a tag operation (warning) or has one of the wrong shape (danger)", also=(Severity.DANGER,)),
    Code("S3513", Severity.ERROR, "TagEnabledService",
         "a `@tagEnabled` service has no `@taggable` resource; inconsistent tag operations or an `apiConfig`"
         " shadowing an operation (warning)", also=(Severity.WARNING,)),
    Code("S3514", Severity.DANGER, "TaggableResource",
         "a `@taggable` resource cannot be tagged, updates tags, or lacks `@arn` (error); a likely taggable "
         "resource, or a service without `@tagEnabled` (warning)", also=(Severity.ERROR, Severity.WARNING,)),
    Code("S3515", Severity.WARNING, "TagResourcePropertyName",
         "a `@taggable(property)` is not named like `tags`"),
    Code("S3516", Severity.ERROR, "TagResourcePropertyType",
         "a `@taggable(property)` is not a list of key/value pairs or a map of strings"),
)

SIGV4 = "aws.auth#sigv4"
SIGV4A = "aws.auth#sigv4a"
EC2_QUERY = "aws.protocols#ec2Query"
AWS_JSON_1_0 = "aws.protocols#awsJson1_0"
AWS_JSON_1_1 = "aws.protocols#awsJson1_1"
REST_JSON_1 = "aws.protocols#restJson1"

#: The reference's ``AwsProtocolTrait`` subclasses (they have ``http``/``eventStreamHttp``).
AWS_PROTOCOLS = (AWS_JSON_1_0, AWS_JSON_1_1, REST_JSON_1, REST_XML)


def _services(model: Model, trait: str | None = None) -> list[Shape]:
    return [s for s in model.of_type("service") if trait is None or trait in s.traits]


# --------------------------------------------------------------------------- aws.api#arn


#: A template label (reference ``ArnTemplateValidator.EXPRESSION_PATTERN``, used with find()).
_ARN_LABEL = re.compile(r"^[!|+]?[a-zA-Z_][a-zA-Z0-9_]*$")
_ARN_LABELS = re.compile(r"\{([^}]+)}")


def arn_labels(template: str) -> list[str]:
    """The ``{label}`` names of an ARN template, in order (reference ``ArnTrait.getLabels``)."""
    return _ARN_LABELS.findall(template)


@validator("S3500",
           rule="The ``@aws.api#arn`` template of each resource of an ``@aws.api#service`` service uses well-formed labels, and names exactly the resource's identifiers.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
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


@validator("S3501",
           rule="``resourceDelimiter`` is only set on an ``absolute`` ARN.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
@distinct
def check_arn_traits(model: Model) -> Iterable[Diagnostic]:
    """``resourceDelimiter`` is only set on an ``absolute`` ARN.

    Spec: aws-core.rst §"aws.api#arn trait" (``resourceDelimiter``: "MUST only be set when
    absolute is true"). Reference ``ArnTraitValidator`` (event ``ArnTrait``).
    """
    for resource in model.of_type("resource"):
        if AWS_ARN not in resource.traits:
            continue
        trait = as_object(resource.traits.get(AWS_ARN))
        if trait.get("absolute") is not True and "resourceDelimiter" in trait:
            yield event(model, "S3501", resource.id, "A `resourceDelimiter` can only be set for an `absolute` ARN.",
                        trait=AWS_ARN, hint="remove `resourceDelimiter`, or set `absolute: true`")


# --------------------------------------------------------------------------- aws.api#service

_PASCAL_CASE = re.compile(r"^[A-Z][a-zA-Z0-9]*(?:[A-Z][a-zA-Z0-9]*)*$")


@validator("S3502",
           rule="``aws.api#service(cloudWatchNamespace)`` starts with ``AWS/`` and its service part is PascalCase.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
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


@validator("S3504",
           rule="``aws.api#service(cloudTrailEventSource)`` is ``<arnNamespace>.amazonaws.com`` and is no placeholder.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
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


_SDK_ID = re.compile(r"^[a-zA-Z][a-zA-Z0-9]*( [a-zA-Z0-9]+)*$")
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
    if not sdk_id or len(sdk_id) > 50:
        problems.append("Must be between 1 and 50 characters long.")
    return problems


@validator("S3505",
           rule="``aws.api#service(sdkId)`` matches ``^[a-zA-Z][a-zA-Z0-9]*( [a-zA-Z0-9]+)*$``, names no company, does not end with Service/Client/API and has 1 to 50 characters.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
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


@validator("S3503",
           rule="A service using an AWS protocol that sends only error names does not rename errors.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
@distinct
def check_error_renames(model: Model) -> Iterable[Diagnostic]:
    """A service using an AWS protocol that sends only error names does not rename errors.

    Spec: aws/protocols/error-rename.rst.template, included by aws-json-1_0-protocol.rst,
    aws-json-1_1-protocol.rst, aws-query-protocol.rst, aws-ec2-query-protocol.rst,
    aws-restjson1-protocol.rst and aws-restxml-protocol.rst (error shape names are sent on the
    wire). Reference ``ErrorRenameValidator`` (event ``ErrorRename``).
    """
    protocols = {AWS_JSON_1_0: "awsJson1_0", AWS_JSON_1_1: "awsJson1_1", AWS_QUERY: "awsQuery",
                 EC2_QUERY: "ec2Query", REST_JSON_1: "restJson1", REST_XML: "restXml"}
    for service in _services(model):
        if not service.rename:
            continue
        used = [name for tid, name in protocols.items() if tid in service.traits]
        if not used:
            continue
        names = java_list(java_hash_set_order(used))
        for shape_id, to in service.rename.items():
            shape = model.shapes.get(shape_id)
            if shape is None or ERROR not in shape.traits:
                continue
            yield event(model, "S3503", service.id,
                        f"Service attempts to rename an error shape from `{shape_id}` to \"{to}\"; "
                        f"Service protocols {names} do not support error renaming.",
                        hint="remove the rename of the error shape")


# --------------------------------------------------------------------------- aws.auth


@validator("S3507",
           rule="``aws.api#service(arnNamespace)``, ``@sigv4(name)`` and ``@sigv4a(name)`` SHOULD be equal.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
@distinct
def check_sigv4_traits(model: Model) -> Iterable[Diagnostic]:
    """``aws.api#service(arnNamespace)``, ``@sigv4(name)`` and ``@sigv4a(name)`` SHOULD be
    equal.

    Spec: aws-auth.rst §"aws.auth#sigv4 trait" / §"aws.auth#sigv4a trait". Reference
    ``SigV4TraitsValidator`` (event ``SigV4Traits``, WARNING).
    """
    def mismatch(service: Shape, m1: str, v1: str, m2: str, v2: str) -> Diagnostic:
        return event(model, "S3507", service.id,
                     f"Value for `{m1}` \"{v1}\" and value for `{m2}` \"{v2}\" SHOULD match.",
                     hint="use the same signing name in each trait")

    for service in _services(model):
        v4 = as_object(service.traits.get(SIGV4)).get("name") if SIGV4 in service.traits else None
        v4a = as_object(service.traits.get(SIGV4A)).get("name") if SIGV4A in service.traits else None
        if service_trait(service) is not None:
            namespace = arn_namespace(service)
            if isinstance(v4, str) and v4 != namespace:
                yield mismatch(service, "aws.api#service$arnNamespace", namespace, "aws.auth#sigv4$name", v4)
            if isinstance(v4a, str) and v4a != namespace:
                yield mismatch(service, "aws.api#service$arnNamespace", namespace, "aws.auth#sigv4a$name", v4a)
        if isinstance(v4, str) and isinstance(v4a, str) and v4 != v4a:
            yield mismatch(service, "aws.auth#sigv4$name", v4, "aws.auth#sigv4a$name", v4a)


# --------------------------------------------------------------------------- httpChecksum

CHECKSUM_PREFIX = "x-amz-checksum-"
CHECKSUM_ALGORITHMS = ("CRC32", "CRC32C", "CRC64NVME", "MD5", "SHA1", "SHA256", "SHA512", "XXHASH64",
                       "XXHASH3", "XXHASH128")
VALIDATION_MODES = ("ENABLED",)


def _enum_values(model: Model, member: Member) -> list[str] | None:
    """The values of the enum trait the member resolves (its own ``@enum``, else its
    target's ``@enum`` or enum shape values: the reference's ``getMemberTrait(EnumTrait)``),
    or ``None`` when there is none."""
    for traits in (member.traits, None):
        if traits is None:
            target = model.shapes.get(member.target)
            if target is None:
                return None
            if ENUM not in target.traits and target.type == "enum":
                return [v for v in (m.traits.get(ENUM_VALUE, m.name) for m in target.members.values())
                        if isinstance(v, str)]
            traits = target.traits
        value = traits.get(ENUM)
        if ENUM in traits:
            return [e["value"] for e in value if isinstance(e, dict) and isinstance(e.get("value"), str)] \
                if isinstance(value, list) else []
    return None


@validator("S3506",
           rule="``@httpChecksum`` configures a request or response checksum behaviour, names existing enum input members with supported values, and no header binding collides with the ``x-amz-checksum-`` headers.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
@distinct
def check_http_checksums(model: Model) -> Iterable[Diagnostic]:
    """``@httpChecksum`` configures a request or response checksum behaviour, names existing
    enum input members with supported values, and no header binding collides with the
    ``x-amz-checksum-`` headers.

    Spec: aws-core.rst §"aws.protocols#httpChecksum trait". Reference
    ``HttpChecksumTraitValidator`` (event ``HttpChecksumTrait``; DANGER
    ``HttpChecksumTrait.HttpPrefixHeaders.<member>.<prefix>`` and WARNING
    ``HttpChecksumTrait.HttpHeader.<member>.<header>`` for the header conflicts).
    """
    for op in model.of_type("operation"):
        if HTTP_CHECKSUM not in op.traits:
            continue
        trait = as_object(op.traits.get(HTTP_CHECKSUM))
        algorithm_member = trait.get("requestAlgorithmMember")
        mode_member = trait.get("requestValidationModeMember")
        responses = string_items(trait.get("responseAlgorithms"))
        request = trait.get("requestChecksumRequired") is True or isinstance(algorithm_member, str)
        response = bool(responses) or isinstance(mode_member, str)
        if not request and not response:
            yield event(model, "S3506", op.id, "The `httpChecksum` trait must define at least one of the "
                        "`request` or `response` checksum behaviors.", trait=HTTP_CHECKSUM,
                        hint="set `requestChecksumRequired`, `requestAlgorithmMember` or the response members")
            continue
        input_struct = model.knowledge(OperationIndex).input(op.id)
        if input_struct is None:
            continue  # no input: TraitTarget reports it
        if request:
            if isinstance(algorithm_member, str):
                yield from _checksum_enum(model, op, input_struct, "requestAlgorithmMember", algorithm_member,
                                          CHECKSUM_ALGORITHMS)
            yield from _header_conflicts(model, op, input_struct)
        if response:
            if not isinstance(mode_member, str):
                yield event(model, "S3506", op.id, "The `httpChecksum` trait must model the "
                            "`requestValidationModeMember` property to support response checksum behavior.",
                            trait=HTTP_CHECKSUM)
            else:
                yield from _checksum_enum(model, op, input_struct, "requestValidationModeMember", mode_member,
                                          VALIDATION_MODES)
            if not responses:
                yield event(model, "S3506", op.id, "The `httpChecksum` trait must model the "
                            "`responseAlgorithms` property to support response checksum behavior.",
                            trait=HTTP_CHECKSUM)
            output_struct = model.knowledge(OperationIndex).output(op.id)
            if output_struct is not None:
                yield from _header_conflicts(model, op, output_struct)
            for error_id in dict.fromkeys(op.errors):
                error_shape = model.shapes.get(error_id)
                if error_shape is not None:
                    yield from _header_conflicts(model, op, error_shape)


def _checksum_enum(model: Model, op: Shape, input_struct: Shape, prop: str, name: str,
                   supported: tuple[str, ...]) -> Iterable[Diagnostic]:
    member = input_struct.members.get(name)
    if member is None:
        yield event(model, "S3506", op.id, f"The `{prop}` property of the `httpChecksum` trait targets a member "
                    "that does not exist.", trait=HTTP_CHECKSUM)
        return
    values = _enum_values(model, member)
    if values is None:
        yield event(model, "S3506", op.id, f"The `{prop}` property of the `httpChecksum` trait targets a member "
                    "that does not resolve an `enum` trait.", trait=HTTP_CHECKSUM)
        return
    unsupported = [v for v in values if v not in supported]
    if unsupported:
        yield event(model, "S3506", op.id, f"The `{prop}` property of the `httpChecksum` trait targets a member "
                    f"with an `enum` trait that contains unsupported values: {ticked(unsupported)}",
                    trait=HTTP_CHECKSUM, hint=f"supported values: {', '.join(supported)}")


def _header_conflicts(model: Model, op: Shape, container: Shape) -> Iterable[Diagnostic]:
    # The reference names the binding by `member.getId().getName()`, which is the name of the
    # structure holding the member (`HeadersConflictsInput`), not the member's own name.
    owner = ShapeId.name(container.id)
    for member in container.members.values():
        prefix = member.traits.get(HTTP_PREFIX_HEADERS)
        if isinstance(prefix, str) and CHECKSUM_PREFIX.startswith(prefix):
            lower = prefix.lower()
            yield event(model, "S3506", op.id,
                        f"The `httpPrefixHeaders` binding of `{owner}` uses the prefix `{lower}` that "
                        f"conflicts with the prefix `{CHECKSUM_PREFIX}` used by the `httpChecksum` trait.",
                        severity=Severity.DANGER,
                        event_id=f"HttpChecksumTrait.HttpPrefixHeaders.{owner}.{lower}",
                        hint=f"use a prefix that `{CHECKSUM_PREFIX}` does not start with")
        header = member.traits.get(HTTP_HEADER)
        if isinstance(header, str) and header.startswith(CHECKSUM_PREFIX):
            lower = header.lower()
            yield event(model, "S3506", op.id,
                        f"The `httpHeader` binding of `{lower}` on `{owner}` starts with the prefix "
                        f"`{CHECKSUM_PREFIX}` used by the `httpChecksum` trait.", severity=Severity.WARNING,
                        event_id=f"HttpChecksumTrait.HttpHeader.{owner}.{lower}")


# --------------------------------------------------------------------------- endpoint discovery


def _discovery_services(model: Model) -> list[tuple[Shape, dict]]:
    return [(s, as_object(s.traits.get(CLIENT_ENDPOINT_DISCOVERY))) for s in _services(model, CLIENT_ENDPOINT_DISCOVERY)]


def _discovery_ref(service: Shape, trait: dict, key: str) -> str | None:
    value = trait.get(key)
    return ShapeId.absolute(value, service.namespace) if isinstance(value, str) else None


@validator("S3508",
           rule="Endpoint discovery: the service names an error and a bound endpoint operation with the required input and output shapes; every ``@clientDiscoveredEndpoint`` operation is in such a service and can return its error.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
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


# --------------------------------------------------------------------------- protocols

_PAYLOAD_TYPES = frozenset({"structure", "union", "document", "blob", "string", "enum"})


def _payload_members(struct: Shape | None, request: bool) -> list[Member]:
    """Members bound to the payload (reference ``HttpBindingIndex``, location PAYLOAD)."""
    out = []
    for m in struct.members.values() if struct is not None else ():
        if HTTP_HEADER in m.traits or HTTP_PREFIX_HEADERS in m.traits:
            continue
        if request and (HTTP_QUERY in m.traits or HTTP_QUERY_PARAMS in m.traits):
            continue
        if HTTP_PAYLOAD in m.traits:
            out.append(m)
    return out


@validator("S3509",
           rule="With an AWS protocol, ``@httpPayload`` binds only a structure, union, document, blob, string or enum.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
@distinct
def check_protocol_http_payloads(model: Model) -> Iterable[Diagnostic]:
    """With an AWS protocol, ``@httpPayload`` binds only a structure, union, document, blob,
    string or enum.

    Spec: aws/protocols/aws-restjson1-protocol.rst and aws-restxml-protocol.rst ("httpPayload ...
    list, set and map shapes are not supported").
    Reference ``ProtocolHttpPayloadValidator`` (event ``ProtocolHttpPayload``): the first bad
    payload member of each request, response and error of each operation of the service.
    """
    top_down = model.knowledge(TopDownIndex)
    for service in _services(model):
        if not any(p in service.traits for p in AWS_PROTOCOLS):
            continue
        for op_id in top_down.contained_operations(service.id):
            op = model.shapes[op_id]
            groups: list[list[Member]] = []
            if HTTP in op.traits:
                groups.append(_payload_members(model.knowledge(OperationIndex).input(op.id), True))
                groups.append(_payload_members(model.knowledge(OperationIndex).output(op.id), False))
            for error_id in dict.fromkeys(op.errors):
                error_shape = model.shapes.get(error_id)
                if error_shape is not None and error_shape.type == "structure" and ERROR in error_shape.traits:
                    groups.append(_payload_members(error_shape, False))
            for members in groups:
                bad = next((m for m in members if type_of(model, m.target) not in _PAYLOAD_TYPES), None)
                if bad is not None:
                    yield event(model, "S3509", bad.id, "AWS Protocols only support binding the following shape "
                                "types to the payload: string, blob, structure, union, and document",
                                trait=HTTP_PAYLOAD, hint="bind a structure (or a blob or string) to the payload")


@validator("S3510",
           rule="Every ``eventStreamHttp`` version of an AWS protocol trait is also in its ``http``.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
@distinct
def check_protocol_http(model: Model) -> Iterable[Diagnostic]:
    """Every ``eventStreamHttp`` version of an AWS protocol trait is also in its ``http``.

    Spec: aws/protocols/aws-json-1_0-protocol.rst (and the other HTTP protocols' pages):
    "Any entry in ``eventStreamHttp`` MUST also appear in ``http``".
    Reference ``ProtocolHttpValidator`` (event ``ProtocolHttp``).
    """
    for service in _services(model):
        for tid in AWS_PROTOCOLS:
            if tid not in service.traits:
                continue
            trait = as_object(service.traits.get(tid))
            http = string_items(trait.get("http"))
            invalid = [v for v in string_items(trait.get("eventStreamHttp")) if v not in http]
            if invalid:
                yield event(model, "S3510", service.id,
                            "The following values of the `eventStreamHttp` property do not also appear in the "
                            f"`http` property of the {tid} protocol trait: {java_list(invalid)}", trait=tid,
                            hint="add them to `http`")


@validator("S3511",
           rule="No two errors of an awsQuery, ec2Query or awsQueryCompatible service share an error code (the ``@awsQueryError`` code, else the shape name).",
           packages=("aws.api", "aws.auth", "aws.protocols",))
@distinct
def check_query_error_codes(model: Model) -> Iterable[Diagnostic]:
    """No two errors of an awsQuery, ec2Query or awsQueryCompatible service share an error
    code (the ``@awsQueryError`` code, else the shape name).

    Spec: aws/protocols/aws-query-protocol.rst (``aws.protocols#awsQueryError``). Reference
    ``QueryErrorCodeValidator`` (event ``QueryErrorCode``, DANGER, on the service).
    """
    top_down = model.knowledge(TopDownIndex)
    for service in _services(model):
        if not any(t in service.traits for t in (AWS_QUERY_COMPATIBLE, AWS_QUERY, EC2_QUERY)):
            continue
        errors = set(service.errors)
        for op_id in top_down.contained_operations(service.id):
            errors.update(model.shapes[op_id].errors)
        codes: dict[str, set[str]] = {}
        for error_id in errors:
            code = ShapeId.name(error_id)
            shape = model.shapes.get(error_id)
            query_error = as_object(shape.traits.get(AWS_QUERY_ERROR)) if shape is not None else {}
            if isinstance(query_error.get("code"), str):
                code = query_error["code"]
            codes.setdefault(code, set()).add(error_id)
        for code in sorted(codes):
            shapes = sorted(codes[code])
            if len(shapes) < 2:
                continue
            yield event(model, "S3511", service.id,
                        f"Multiple error shapes with the error code `{code}` found: [{', '.join(shapes)}]. This "
                        "error code ambiguity will result in the wrong error shape being deserialized when "
                        "running the query protocol. This pain will be carried forward when migrating to a new "
                        "protocol when using the awsQueryCompatible trait.",
                        hint="give one of them a distinct code with @awsQueryError")


# --------------------------------------------------------------------------- tagging

_ARN_MEMBER_PREFIX = re.compile(r"^[R|r]esource")
_ARN_MEMBER_SUFFIX = re.compile(r"[A|a]rn|ARN$")
_TAG_KEYS_NAME = re.compile(r"^[T|t]ag[K|k]eys$")
_TAG_OPS = (("tagApi", "TagResource"), ("untagApi", "UntagResource"), ("listTagsApi", "ListTagsForResource"))


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


@validator("S3512",
           rule="A ``@tagEnabled`` service has TagResource, UntagResource and ListTagsForResource operations (or those its ``apiConfig`` names) of the required shapes.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
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
        for kind, default in _TAG_OPS:
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


@validator("S3513",
           rule="A ``@tagEnabled`` service has a ``@taggable`` resource, has consistent tag operations (unless ``disableDefaultOperations``), and its ``apiConfig`` does not shadow a default-named operation.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
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
        for kind, default in _TAG_OPS:
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


@validator("S3514",
           rule="Each ``@taggable`` resource of a service can be tagged (through its own tag operations or the service's), does not update tags in ``update``/``put``, and uses ``@arn`` when only service-wide operations tag it; an ``@arn`` resource of a service with tag operations is likely taggable; a service with taggable resources is ``@tagEnabled``.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
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
    for service in _services(model):
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


@validator("S3515",
           rule="A ``@taggable(property)`` is named ``tags``/``Tags`` (or ``tagList``, ``tagsMap``...).",
           packages=("aws.api", "aws.auth", "aws.protocols",))
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


@validator("S3516",
           rule="The ``@taggable(property)`` of a resource targets a list of key/value string pairs or a map of strings.",
           packages=("aws.api", "aws.auth", "aws.protocols",))
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
    "arn_labels", "check_arn_templates", "check_arn_traits", "check_client_endpoint_discovery",
    "check_cloudwatch_namespaces", "check_error_renames", "check_event_sources", "check_http_checksums",
    "check_protocol_http", "check_protocol_http_payloads", "check_query_error_codes",
    "check_sdk_service_ids", "check_service_tagging", "check_sigv4_traits", "check_tag_enabled_services",
    "check_tag_property_names", "check_tag_property_types", "check_taggable_resources", "is_tags_shape",
    "sdk_id_problems", "service_has_tag_apis", "tag_operation_is_valid",
]
