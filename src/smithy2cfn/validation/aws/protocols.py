"""Validators of the ``aws.protocols`` trait package: the AWS protocol traits
(aws/protocols/*.rst) and ``@aws.protocols#httpChecksum`` (aws-core.rst).

Each check mirrors one validator of the reference's smithy-aws-traits package (named in its
``rule``) and reports that validator's event IDs at its severities: ``ErrorRename``,
``HttpChecksumTrait``, ``ProtocolHttpPayload``, ``ProtocolHttp`` and ``QueryErrorCode``.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity
from smithy2cfn.model.knowledge import TopDownIndex
from smithy2cfn.model.knowledge_ops import OperationIndex
from smithy2cfn.model.nodes import as_object, string_items
from smithy2cfn.model.shapes import Member, Model, Shape, ShapeId
from smithy2cfn.model.traits import (
    AWS_QUERY,
    AWS_QUERY_COMPATIBLE,
    AWS_QUERY_ERROR,
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
)
from smithy2cfn.validation.support.events import distinct, event, java_hash_set_order, java_list, ticked
from smithy2cfn.validation.support.shapes import type_of

EC2_QUERY = "aws.protocols#ec2Query"
AWS_JSON_1_0 = "aws.protocols#awsJson1_0"
AWS_JSON_1_1 = "aws.protocols#awsJson1_1"
REST_JSON_1 = "aws.protocols#restJson1"

#: The reference's ``AwsProtocolTrait`` subclasses (they have ``http``/``eventStreamHttp``).
AWS_PROTOCOLS = (AWS_JSON_1_0, AWS_JSON_1_1, REST_JSON_1, REST_XML)


@validator(Code("S3503", Severity.ERROR, "ErrorRename",
                "a service using an AWS protocol renames an error shape"),
           rule="reference ErrorRenameValidator (smithy-aws-traits); "
                "aws/protocols/error-rename.rst.template, included by each AWS protocol's page: error "
                "shapes are not renamed",
           packages=("aws.api", "aws.auth", "aws.protocols"))
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
    for service in model.of_type("service"):
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


@validator(Code("S3506", Severity.ERROR, "HttpChecksumTrait",
                "`@httpChecksum` without a behaviour, or naming missing or non-enum members or unsupported values; "
                "a header binding that collides with `x-amz-checksum-` (danger, warning)", also=(Severity.DANGER, Severity.WARNING)),
           rule="reference HttpChecksumTraitValidator (smithy-aws-traits); aws-core.rst, "
                "aws.protocols#httpChecksum trait",
           packages=("aws.api", "aws.auth", "aws.protocols"))
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


@validator(Code("S3509", Severity.ERROR, "ProtocolHttpPayload",
                "with an AWS protocol, `@httpPayload` binds a list, map or simple type other than a string or blob"),
           rule="reference ProtocolHttpPayloadValidator (smithy-aws-traits); aws-restjson1-protocol.rst and "
                "aws-restxml-protocol.rst, Supported traits: httpPayload",
           packages=("aws.api", "aws.auth", "aws.protocols"))
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
    for service in model.of_type("service"):
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
                                hint="bind a structure (or a blob or string) to the payload")


@validator(Code("S3510", Severity.ERROR, "ProtocolHttp",
                "an `eventStreamHttp` version of an AWS protocol is not in its `http`"),
           rule="reference ProtocolHttpValidator (smithy-aws-traits); the AWS protocol traits' pages "
                "(aws-restjson1-protocol.rst...): every eventStreamHttp value is in http",
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_protocol_http(model: Model) -> Iterable[Diagnostic]:
    """Every ``eventStreamHttp`` version of an AWS protocol trait is also in its ``http``.

    Spec: aws/protocols/aws-json-1_0-protocol.rst (and the other HTTP protocols' pages):
    "Any entry in ``eventStreamHttp`` MUST also appear in ``http``".
    Reference ``ProtocolHttpValidator`` (event ``ProtocolHttp``).
    """
    for service in model.of_type("service"):
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


@validator(Code("S3511", Severity.DANGER, "QueryErrorCode",
                "two errors of a query (or query-compatible) service share an error code"),
           rule='reference QueryErrorCodeValidator (smithy-aws-traits); aws-query-protocol.rst, Error '
                '"Code" resolution and aws.protocols#awsQueryError trait',
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_query_error_codes(model: Model) -> Iterable[Diagnostic]:
    """No two errors of an awsQuery, ec2Query or awsQueryCompatible service share an error
    code (the ``@awsQueryError`` code, else the shape name).

    Spec: aws/protocols/aws-query-protocol.rst (``aws.protocols#awsQueryError``). Reference
    ``QueryErrorCodeValidator`` (event ``QueryErrorCode``, DANGER, on the service).
    """
    top_down = model.knowledge(TopDownIndex)
    for service in model.of_type("service"):
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


__all__ = ["check_error_renames", "check_http_checksums", "check_protocol_http", "check_protocol_http_payloads",
           "check_query_error_codes"]
