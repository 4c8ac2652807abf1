"""Why each property of a resource schema is what it is: ``smithy2cfn explain`` (issue 18).

The derivation records, for every property, every contribution to its mutability
(:class:`~smithy2cfn.derive.resource_index.MutabilitySource`: which lifecycle operation's
input or output holds the member, which trait fixes it, which identifier it is). This module
turns a :class:`~smithy2cfn.derive.plan.ConversionPlan` into explanations in model terms,
each reason located at the member, trait or operation it names:

* a reason for every source ("create: in `CreateVault`'s input", "write:
  `@cfnMutability(\"write\")` on `adminPassword`"), at the member or the trait;
* for what a property lacks, the place that lacks it ("createOnly: not in `UpdateVault`'s
  input", at ``UpdateVault``; "createOnly: `Vault` has no update lifecycle operation", at the
  resource), unless a trait or an identifier fixed its mutability;
* ``required`` and ``deprecated`` at their traits;
* each handler's lifecycle operations and permissions, and the tagging of the type.

Read by ``smithy2cfn explain``, the generated docs and the diff's messages: one place says why.
"""

from __future__ import annotations

from smithy2cfn.derive.plan import ConversionPlan, HandlerPlan, PropertyPlan, ResourcePlan
from smithy2cfn.derive.resource_index import MutabilitySource, SourceKind
from smithy2cfn.diagnostics import Span
from smithy2cfn.model.shapes import Member, Model, Shape, ShapeId
from smithy2cfn.model.traits import CFN_MUTABILITY, DEPRECATED, NO_REPLACE, REQUIRED, TAGGABLE
from smithy2cfn.records import Record

#: ``ns#Name$member`` → ``Name`` (for messages).
_name = ShapeId.name


class Reason(Record, frozen=True):
    """One reason, located.

    Attributes:
        text: the reason in model terms (``"createOnly: not in `UpdateVault`'s input"``).
        span: where the member, trait, operation or resource it names is written.
        shape_id: that shape or member.
        names: the text that place holds (an operation's or member's name, a trait's name),
            for tools and tests that check a reason points where it says.
    """

    text: str
    span: Span | None
    shape_id: str | None
    names: str

    def __init__(self, text: str, span: Span | None, shape_id: str | None, names: str) -> None:
        self.__dict__.update(text=text, span=span, shape_id=shape_id, names=names)


class PropertyExplanation(Record, frozen=True):
    """One property: its pointer, what it is, and why.

    Attributes:
        name: the member name; pointer: ``/properties/<schema name>``.
        create_only / read_only / write_only / required / deprecated: as the schema says.
        mutability: the derived flags in words (``"create, read"``).
        reasons: every reason, sources first, in derivation order.
    """

    name: str
    pointer: str
    create_only: bool
    read_only: bool
    write_only: bool
    required: bool
    deprecated: bool
    mutability: str
    reasons: tuple[Reason, ...]

    def __init__(self, name: str, pointer: str, create_only: bool, read_only: bool, write_only: bool,
                 required: bool, deprecated: bool, mutability: str, reasons: tuple[Reason, ...]) -> None:
        self.__dict__.update(name=name, pointer=pointer, create_only=create_only, read_only=read_only,
                             write_only=write_only, required=required, deprecated=deprecated,
                             mutability=mutability, reasons=reasons)

    @property
    def kinds(self) -> list[str]:
        """``["createOnly", "required"...]``: what the property is, in the schema's terms."""
        return [k for k, on in (("createOnly", self.create_only), ("readOnly", self.read_only),
                                ("writeOnly", self.write_only), ("required", self.required),
                                ("deprecated", self.deprecated)) if on]


class HandlerExplanation(Record, frozen=True):
    """A handler, the lifecycle operations behind it and its permissions."""

    name: str
    permissions: tuple[str, ...]
    reasons: tuple[Reason, ...]

    def __init__(self, name: str, permissions: tuple[str, ...], reasons: tuple[Reason, ...]) -> None:
        self.__dict__.update(name=name, permissions=permissions, reasons=reasons)


class ResourceExplanation(Record, frozen=True):
    """One resource type explained.

    Attributes:
        type_name / resource_id / span: the type, its resource shape and where it is written.
        properties: in schema order (the plan's).
        handlers: in CloudFormation's order.
        tagging: reasons about the type's tagging (``()`` when it has none).
    """

    type_name: str
    resource_id: str
    span: Span | None
    properties: tuple[PropertyExplanation, ...]
    handlers: tuple[HandlerExplanation, ...]
    tagging: tuple[Reason, ...]

    def __init__(self, type_name: str, resource_id: str, span: Span | None,
                 properties: tuple[PropertyExplanation, ...], handlers: tuple[HandlerExplanation, ...],
                 tagging: tuple[Reason, ...]) -> None:
        self.__dict__.update(type_name=type_name, resource_id=resource_id, span=span, properties=properties,
                             handlers=handlers, tagging=tagging)



def _member_name(shape_id: str) -> str:
    return shape_id.rpartition("$")[2] if "$" in shape_id else _name(shape_id)


def _owner(model: Model, shape_id: str) -> Member | Shape | None:
    """The member (``ns#A$m``) or shape of an ID, or ``None``."""
    return model.member(shape_id) if "$" in shape_id else model.get(shape_id)


def _lifecycle(model: Model, resource: Shape | None, name: str) -> Shape | None:
    """The resource's lifecycle operation ``name`` (``create``, ``read``...), or ``None``."""
    op = getattr(resource, name, None) if resource is not None else None
    return model.get(op) if isinstance(op, str) else None


def source_reason(model: Model, source: MutabilitySource, prop: PropertyPlan) -> Reason:
    """One mutability source as a reason, located at its member or trait."""
    gives = source.mutability.words() if source.mutability else "no flag"
    member = _member_name(source.shape_id)
    kind = source.kind
    if kind is SourceKind.CFN_MUTABILITY:
        owner = _owner(model, source.shape_id)
        value = owner.traits.get(CFN_MUTABILITY) if owner is not None else None
        shown = f'("{value}")' if isinstance(value, str) else ""
        return Reason(f"{gives}: @cfnMutability{shown} on `{member}` fixes it", source.span, source.shape_id,
                      "cfnMutability")
    if kind is SourceKind.ADDITIONAL_IDENTIFIER:
        return Reason(f"{gives}: `{member}` is an additional identifier (@cfnAdditionalIdentifier)", source.span,
                      source.shape_id, "cfnAdditionalIdentifier")
    if kind in (SourceKind.IDENTIFIER, SourceKind.PUT_IDENTIFIER, SourceKind.PARENT_IDENTIFIER):
        what = {SourceKind.IDENTIFIER: f"an identifier of `{_name(source.shape_id)}`",
                SourceKind.PUT_IDENTIFIER: f"an identifier of `{_name(source.shape_id)}`, which has a put "
                                           "lifecycle operation",
                SourceKind.PARENT_IDENTIFIER: f"an identifier inherited from the parent `{_name(source.parent or '?')}`"}[kind]
        # (located where the identifier is declared: its resource)
        return Reason(f"{gives}: {what}", source.span, source.shape_id, _name(source.shape_id))
    if kind is SourceKind.TAG_OPERATIONS:
        return Reason(f"{gives}: the tag property, which CloudFormation changes through `{_name(source.operation or '?')}`",
                      source.span, source.shape_id, member)
    if kind is SourceKind.ADDITIONAL_SCHEMA:
        return Reason(f"{gives}: in the additional schema `{_name(source.shape_id)}`", source.span, source.shape_id,
                      member)
    where = kind.value.split()[-1]  # "input" / "output"
    return Reason(f"{gives}: in `{_name(source.operation or '?')}`'s {where}", source.span, source.shape_id, member)


def _absence(model: Model, resource: Shape | None, prop: PropertyPlan) -> list[Reason]:
    """Where a property's missing flags come from: the operation that does not have it, or
    the lifecycle operation the resource lacks; nothing when a trait or an identifier fixed
    its mutability (that source says it all)."""
    if any(s.fixes for s in prop.sources) or prop.is_tags:
        return []
    out: list[Reason] = []
    res_span = resource.span if resource is not None else None
    res_id = resource.id if resource is not None else None
    res_name = _name(res_id or '?')

    def missing(flag: str, ops: list[tuple[str, str]]) -> None:
        shapes = [(name, where, _lifecycle(model, resource, name)) for name, where in ops]
        found = [(name, where, op) for name, where, op in shapes if op is not None]
        if not found:
            names = " or ".join(name for name, _ in ops)
            out.append(Reason(f"{flag}: `{res_name}` has no {names} lifecycle operation", res_span, res_id,
                              res_name))
            return
        for _name, where, op in found:
            out.append(Reason(f"{flag}: not in `{op.name}`'s {where}", op.span, op.id, op.name))

    if prop.create_only:  # (a put lifecycle operation updates too, unless the resource is @noReplace)
        replaces = resource is not None and NO_REPLACE not in resource.traits
        missing("createOnly", [("update", "input")] + ([("put", "input")] if replaces else []))
    if prop.write_only:
        missing("writeOnly", [("read", "output")])
    if prop.read_only:
        missing("readOnly", [("create", "input"), ("update", "input")])
    return out


def _trait_reasons(model: Model, prop: PropertyPlan) -> list[Reason]:
    """``required`` and ``deprecated``, at their traits (on a member of the property, or on
    its target)."""
    out: list[Reason] = []
    members = [m for m in (_owner(model, sid) for sid in prop.shape_ids) if m is not None]
    if prop.required:
        owner = next((m for m in members if REQUIRED in m.traits), None)
        if owner is not None:
            out.append(Reason(f"required: @required on `{_member_name(owner.id)}` in `{_name(owner.id)}`",
                              owner.trait_spans.get(REQUIRED, owner.span), owner.id, "required"))
    if prop.deprecated:
        target = model.get(prop.member.target) if prop.member.target else None
        owners: list[Member | Shape] = [*members, *([target] if target is not None else [])]
        owner = next((m for m in owners if DEPRECATED in m.traits), None)
        if owner is not None:
            value = owner.traits.get(DEPRECATED)
            message = value.get("message") if isinstance(value, dict) else None
            out.append(Reason(f"deprecated: @deprecated on `{_member_name(owner.id)}`"
                              + (f": {message}" if isinstance(message, str) else ""),
                              owner.trait_spans.get(DEPRECATED, owner.span), owner.id, "deprecated"))
    return out


def explain_property(model: Model, resource: Shape | None, prop: PropertyPlan) -> PropertyExplanation:
    """One property of a resource plan explained (see the module docstring)."""
    reasons = [source_reason(model, s, prop) for s in prop.sources]
    if prop.is_tags and resource is not None:
        reasons.append(Reason(f"the tag property of `{resource.name}` (@aws.api#taggable): neither createOnly, "
                              "readOnly nor writeOnly, whatever operations hold it",
                              resource.trait_spans.get(TAGGABLE, resource.span), resource.id,
                              "taggable" if TAGGABLE in resource.trait_spans else resource.name))
    reasons += _absence(model, resource, prop) + _trait_reasons(model, prop)
    return PropertyExplanation(prop.name, prop.pointer, prop.create_only, prop.read_only, prop.write_only,
                               prop.required, prop.deprecated, prop.mutability.words(), tuple(reasons))


def _handler(model: Model, handler: HandlerPlan) -> HandlerExplanation:
    reasons = []
    for op_id in handler.operations:
        op = model.get(op_id)
        reasons.append(Reason(f"{handler.name}: calls `{_name(op_id)}`", op.span if op is not None else None,
                              op_id, _name(op_id)))
    return HandlerExplanation(handler.name, handler.permissions, tuple(reasons))


def _tagging(model: Model, resource: Shape | None, rplan: ResourcePlan) -> tuple[Reason, ...]:
    tagging = rplan.tagging
    if tagging is None or resource is None:
        return ()
    span = resource.trait_spans.get(TAGGABLE, resource.span)
    if not tagging.taggable:
        return (Reason(f"not taggable: `{resource.name}` has no @aws.api#taggable", resource.span, resource.id,
                       resource.name),)
    out = [Reason(f"taggable: @aws.api#taggable on `{resource.name}`"
                  + (f", tag property `{tagging.tag_property}`" if tagging.tag_property else ""), span, resource.id,
                  "taggable")]
    for role, op_id in sorted(tagging.operations.items()):
        op = model.get(op_id)
        out.append(Reason(f"{role}: `{_name(op_id)}`", op.span if op is not None else None, op_id, _name(op_id)))
    return tuple(out)


def explain_plan(model: Model, plan: ConversionPlan) -> list[ResourceExplanation]:
    """Every resource of ``plan`` explained, in the plan's order. Never raises on a plan
    derived from ``model``."""
    out: list[ResourceExplanation] = []
    for rplan in plan.resources:
        resource = model.get(rplan.resource_id)
        props = tuple(explain_property(model, resource, p) for p in rplan.properties)
        out.append(ResourceExplanation(rplan.type_name, rplan.resource_id, rplan.span, props,
                                       tuple(_handler(model, h) for h in rplan.handlers),
                                       _tagging(model, resource, rplan)))
    return out


def render_text(explanations: list[ResourceExplanation]) -> str:
    """The explanations as text (``smithy2cfn explain``): per type, each property with what
    it is and why (``file:line`` after each reason), then the handlers and the tagging."""
    lines: list[str] = []
    for res in explanations:
        lines.append(f"{res.type_name} ({res.resource_id}{', ' + str(res.span) if res.span else ''})")
        for prop in res.properties:
            lines.append(f"  {prop.pointer}: {', '.join(prop.kinds) or 'updatable'} ({prop.mutability})")
            lines += [f"    - {r.text}" + (f" ({r.span})" if r.span is not None else "") for r in prop.reasons]
        if res.handlers:
            lines.append("  handlers:")
            for h in res.handlers:
                lines.append(f"    {h.name}: {', '.join(h.permissions) or 'no permissions'}")
                lines += [f"      - {r.text}" + (f" ({r.span})" if r.span is not None else "") for r in h.reasons]
        if res.tagging:
            lines.append("  tagging:")
            lines += [f"    - {r.text}" + (f" ({r.span})" if r.span is not None else "") for r in res.tagging]
    return "\n".join(lines) + ("\n" if lines else "")


def _reason_json(reason: Reason) -> dict[str, object]:
    s = reason.span
    return {"text": reason.text, "file": s.path if s else None, "line": s.line if s and s.line else None,
            "column": s.column if s and s.line else None, "shapeId": reason.shape_id}


def to_json(explanations: list[ResourceExplanation]) -> dict[str, object]:
    """The explanations as one JSON document (``smithy2cfn explain --format json``):
    ``{"types": [{"typeName", "resource", "file", "line", "column", "properties": [{"name",
    "pointer", "createOnly", "readOnly", "writeOnly", "required", "deprecated", "mutability",
    "reasons": [{"text", "file", "line", "column", "shapeId"}]}], "handlers": [{"name",
    "permissions", "reasons"}], "tagging": [reasons]}]}``."""
    types = []
    for res in explanations:
        s = res.span
        types.append({
            "typeName": res.type_name, "resource": res.resource_id, "file": s.path if s else None,
            "line": s.line if s and s.line else None, "column": s.column if s and s.line else None,
            "properties": [{"name": p.name, "pointer": p.pointer, "createOnly": p.create_only,
                            "readOnly": p.read_only, "writeOnly": p.write_only, "required": p.required,
                            "deprecated": p.deprecated, "mutability": p.mutability,
                            "reasons": [_reason_json(r) for r in p.reasons]} for p in res.properties],
            "handlers": [{"name": h.name, "permissions": list(h.permissions),
                          "reasons": [_reason_json(r) for r in h.reasons]} for h in res.handlers],
            "tagging": [_reason_json(r) for r in res.tagging],
        })
    return {"types": types}


__all__ = ["HandlerExplanation", "PropertyExplanation", "Reason", "ResourceExplanation", "explain_plan",
           "explain_property", "render_text", "source_reason", "to_json"]
