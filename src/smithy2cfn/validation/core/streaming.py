"""Streaming and event checks (streaming.rst).

Reference validators: ``StreamingTraitValidator`` (event ``StreamingTrait``) and
``EventPayloadTraitValidator`` (``EventPayloadTrait``). A structure that contains a stream
(a member targeting a ``@streaming`` blob or event stream union) may only be an operation's
input or output, never a member's target or an error; event stream union members target
structures; streaming blobs are ``@required`` or have a ``@default``, and carry
``@httpPayload`` in services whose protocol supports it.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.model.knowledge_ops import ServiceIndex
from smithy2cfn.model.relationships import NeighborIndex, RelationshipType, Walker
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import (
    DEFAULT,
    EVENT_HEADER,
    EVENT_PAYLOAD,
    HTTP_PAYLOAD,
    REQUIRED,
    REQUIRES_LENGTH,
    STREAMING,
)
from smithy2cfn.validation.support.events import event, ticked
from smithy2cfn.validation.support.shapes import shapes_having, shapes_of_type, shapes_with_members_having


@validator(Code("S3340", Severity.ERROR, "StreamingTrait",
               "a stream used where it is not allowed (nested, in errors, event stream members, without "
               "`@httpPayload`, optional)"),
           rule="reference StreamingTraitValidator (smithy-model); Smithy 2.0 streaming.rst, streaming trait and "
                "requiresLength trait")
def check_streaming(model: Model) -> Iterable[Diagnostic]:
    """Streams are used only where streaming.rst allows them.

    Spec: streaming.rst §"streaming trait" ("structures that contain a member that targets a
    streaming shape ... MUST only be used as operation inputs or outputs"; event stream
    unions have structure members), §"requiresLength trait" (only in inputs), and
    http-bindings.rst §"httpPayload trait" (a streaming blob is the payload where the protocol
    supports it). Reference: ``StreamingTraitValidator``.
    """
    streaming = shapes_having(model, STREAMING)
    if not streaming:
        return
    index = model.knowledge(NeighborIndex)
    # members that target a stream: what references their containers
    for shape in streaming:
        for rel in index.reverse(shape.id):
            if rel.type is not RelationshipType.MEMBER_TARGET:
                continue
            member = model.member(rel.shape)
            container = model.shapes.get(member.container) if member is not None else None
            if container is None:
                continue
            for ref in index.reverse(container.id):
                if not ref.type.directed or ref.type in (RelationshipType.INPUT, RelationshipType.MIXIN):
                    continue
                if ref.type is RelationshipType.OUTPUT:
                    if REQUIRES_LENGTH in shape.traits:
                        yield event(model, "S3340", container.id,
                                    "Structures that contain a reference to a stream marked with the @requiresLength "
                                    "trait can only be used as operation inputs, but this structure is referenced "
                                    f"from `{ref.shape}` as output",
                                    hint="use the structure as an operation input only")
                elif ref.type is RelationshipType.MEMBER_TARGET:
                    yield event(model, "S3340", ref.shape,
                                "Members cannot target structures that contain a stream, but this member targets "
                                f"{container.id}", hint="streams can only be top-level members of an input or output")
                else:
                    yield event(model, "S3340", ref.shape,
                                f"This shape has an invalid `{ref.type.name}` relationship to a structure, "
                                f"`{container.id}`, that contains a stream")
    # event stream unions
    for union in streaming:
        if union.type != "union":
            continue
        bad = [m.name for m in union.members.values()
               if (t := model.shapes.get(m.target)) is not None and t.type != "structure"]
        if bad:
            yield event(model, "S3340", union.id,
                        "Each member of an event stream union must target a structure shape, but the following union "
                        f"members do not: [{listed(bad)}]")
    # streaming blobs: payloads where the protocol supports @httpPayload
    services = model.knowledge(ServiceIndex)
    walker = Walker(model)
    for service in shapes_of_type(model, "service"):
        if not any(HTTP_PAYLOAD in (services.protocol_definition(p).get("traits") or [])
                   for p in services.protocols(service.id)):
            continue
        for node in walker.walk(service.id):
            member = model.member(node) if "$" in node else None
            if member is None or HTTP_PAYLOAD in member.traits:
                continue
            target = model.shapes.get(member.target)
            if target is not None and STREAMING in target.traits:
                yield event(model, "S3340", member.id,
                            f"Member `{member.id}` referencing @streaming shape `{member.target}` must have the "
                            f"@httpPayload trait, as service `{service.id}` has a protocol that supports "
                            "@httpPayload.", hint="add @httpPayload to the member")
    # streaming blobs: never optional
    for shape in model.shapes.values():
        for member in shape.members.values():
            target = model.shapes.get(member.target)
            if target is not None and target.type == "blob" and STREAMING in target.traits \
                    and REQUIRED not in member.traits and DEFAULT not in member.traits:
                yield event(model, "S3340", member.id,
                            "Members that target blobs marked with the `streaming` trait MUST also be marked with "
                            "the `required` or `default` trait.", hint='add @required or @default("")')


@validator(Code("S3341", Severity.ERROR, "EventPayloadTrait",
               "an event with an `@eventPayload` member has members that are not `@eventHeader`s"),
           rule="reference EventPayloadTraitValidator (smithy-model); Smithy 2.0 streaming.rst, eventPayload "
                "trait")
def check_event_payloads(model: Model) -> Iterable[Diagnostic]:
    """In an event with an ``@eventPayload`` member, every other member is an ``@eventHeader``.

    Spec: streaming.rst §"eventPayload trait". Reference: ``EventPayloadTraitValidator``.
    """
    for shape in shapes_with_members_having(model, EVENT_PAYLOAD):
        if shape.type != "structure":
            continue
        unmarked = [m.name for m in shape.members.values()
                    if EVENT_HEADER not in m.traits and EVENT_PAYLOAD not in m.traits]
        if unmarked:
            yield event(model, "S3341", shape.id,
                        "This event structure contains a member marked with the `eventPayload` trait, so all other "
                        "members must be marked with the `eventHeader` trait. However, the following member(s) are "
                        f"not marked with the eventHeader trait: {ticked(unmarked)}",
                        hint="mark the other members with @eventHeader")


__all__ = ["check_event_payloads", "check_streaming"]
