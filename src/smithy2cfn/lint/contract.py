"""The handler contract's requirements that a model shows (CloudFormation CLI user guide,
"Resource type handler contract"), one rule per code (``S6201``–``S6206``).

CloudFormation calls the read and delete handlers with the identifiers only, expects read to
return every property that is not writeOnly, create to return the primary identifier, list
to return the identifiers; these rules read the lifecycle operations' inputs and outputs in
the model, where the schema no longer shows them.
"""

from __future__ import annotations

from smithy2cfn.checks import lint_rule
from smithy2cfn.derive.plan import PropertyPlan
from smithy2cfn.diagnostics import Code, Severity, listed
from smithy2cfn.lint.context import ResourceContext
from smithy2cfn.lint.locate import Site
from smithy2cfn.model.knowledge import IdentifierBindingIndex
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import REQUIRED

#: How deep :func:`reachable` follows an output's members.
REACH_DEPTH = 4


def reachable(model: Model, shape_id: str | None) -> tuple[set[str], set[str]]:
    """Member names of a structure and of the structures its members reach, and the targets
    of the list members it reaches, up to :data:`REACH_DEPTH` levels (a list output's
    summaries, or a list of identifiers)."""
    names: set[str] = set()
    targets: set[str] = set()
    seen: set[str] = set()
    stack = [(shape_id, 0)]
    while stack:
        sid, depth = stack.pop()
        shape = model.get(sid) if sid else None
        if shape is None or depth > REACH_DEPTH or shape.id in seen:
            continue
        seen.add(shape.id)
        for name, member in shape.members.items():
            if shape.type in ("structure", "union"):
                names.add(name)
            elif shape.type in ("list", "set"):
                targets.add(member.target)
            stack.append((member.target, depth + 1))
    return names, targets


def _output_names(model: Model, operation: str | None) -> set[str] | None:
    """Member names of an operation's output (``None``: no such operation)."""
    shape = model.get(operation) if operation else None
    if shape is None:
        return None
    output = model.get(shape.output) if shape.output else None
    return set(output.members) if output is not None else set()


def _properties(ctx: ResourceContext):
    """``(property, its member names)`` for each planned property the schema has (the names
    of the members it is made from, and its own)."""
    written = ctx.obj("properties")
    for prop in ctx.rplan.properties:
        if prop.schema_name in written:
            yield prop, {sid.rsplit("$", 1)[-1] for sid in prop.shape_ids if "$" in sid} | {prop.name}


def _is_tag_property(ctx: ResourceContext, prop: PropertyPlan) -> bool:
    """The schema's ``tagging.tagProperty`` is this property."""
    return ctx.obj("tagging").get("tagProperty") == "/properties/" + prop.schema_name


@lint_rule(Code("S6201", Severity.WARNING, "CfnLint.Contract.ReadReturnsAll",
                "a property that is not writeOnly is not in the read output"),
           rule="handler contract: read returns every property, readOnly ones included")
def read_returns_all(ctx: ResourceContext) -> None:
    """A property that is not writeOnly (nor an identifier, nor the tags) that the read
    operation does not return (members of the structures its output nests count: a ``Key``
    wrapper holding the properties)."""
    resource = ctx.resource
    read_shape = ctx.model.get(resource.read) if resource.read else None
    if read_shape is None:
        return
    read_out = reachable(ctx.model, read_shape.output)[0]
    identifiers = set(resource.identifiers)
    for prop, member_names in _properties(ctx):
        if (not prop.write_only and not prop.is_tags and prop.name not in identifiers
                and not (member_names & read_out) and not _is_tag_property(ctx, prop)):
            ctx.report("S6201", f"property `{prop.schema_name}` is not writeOnly, but the read operation "
                                f"{resource.read} does not return it", ctx.loc.property_site(prop.schema_name),
                       f"add `{prop.name}` to the output of {resource.read}, or mark the member "
                       "@aws.cloudformation#cfnMutability(\"write\")")


@lint_rule(Code("S6202", Severity.WARNING, "CfnLint.Contract.IdentifierInputs",
                "a read or delete input requires a member that is not an identifier"),
           rule="handler contract: read and delete inputs are identifiers only")
def identifier_inputs(ctx: ResourceContext) -> None:
    """A required member of the read or delete input that is not an identifier (nor bound
    to one)."""
    model, resource = ctx.model, ctx.resource
    bindings = model.knowledge(IdentifierBindingIndex)
    identifiers = set(resource.identifiers)
    for handler in ("read", "delete"):
        op = getattr(resource, handler)
        shape = model.get(op) if op else None
        inputs = model.get(shape.input) if shape is not None and shape.input else None
        if inputs is None:
            continue
        bound = set(bindings.input_bindings(resource.id, op).values())  # member names
        for name, member in inputs.members.items():
            if name in bound or name in identifiers or REQUIRED not in member.traits:
                continue
            ctx.report("S6202", f"the {handler} input {inputs.id} requires `{name}`, which is not an "
                                "identifier: CloudFormation calls the handler with the identifiers only",
                       Site(member.span, member.id),
                       f"make `{name}` optional, or bind it as an identifier (@resourceIdentifier)")


@lint_rule(Code("S6203", Severity.WARNING, "CfnLint.Contract.CreateReturnsIdentifier",
                "the create output lacks the primary identifier"),
           rule="handler contract: create returns the primary identifier")
def create_returns_identifier(ctx: ResourceContext) -> None:
    """A primary identifier that the create operation neither is given nor returns (at any
    depth of its output)."""
    model, resource = ctx.model, ctx.resource
    create = resource.create
    shape = model.get(create) if create else None
    if shape is None:
        return
    out, _ = reachable(model, shape.output)
    bindings = model.knowledge(IdentifierBindingIndex)
    bound_in = set(bindings.input_bindings(resource.id, create))
    bound_out = set(bindings.output_bindings(resource.id, create))
    for name in ctx.rplan.primary_identifier:
        if name in bound_in or name in bound_out or name in out:
            continue
        ctx.report("S6203", f"the create operation {create} does not return the primary identifier `{name}`",
                   ctx.loc.operation_site("create"),
                   f"add `{name}` to the output of {create} (bound with @resourceIdentifier if its name differs)")


@lint_rule(Code("S6204", Severity.WARNING, "CfnLint.Contract.ListReturnsIdentifiers",
                "the list output lacks the identifiers"),
           rule="handler contract: list returns identifiers")
def list_returns_identifiers(ctx: ResourceContext) -> None:
    """The list operation's output holds neither the identifiers nor (for a single
    identifier) a list of its shape."""
    resource, primary = ctx.resource, ctx.rplan.primary_identifier
    shape = ctx.model.get(resource.list) if resource.list else None
    if shape is None:
        return
    names, targets = reachable(ctx.model, shape.output)
    missing = [n for n in primary
               if n not in names and not (len(primary) == 1 and resource.identifiers.get(n) in targets)]
    if missing:
        ctx.report("S6204", f"the list operation {resource.list} does not return the identifier(s) "
                            f"{listed(missing)}", ctx.loc.operation_site("list"),
                   f"return a list of summaries holding {listed(missing)} from {resource.list}")


@lint_rule(Code("S6205", Severity.WARNING, "CfnLint.Contract.WriteOnlyReturned",
                "a writeOnly property is in the read or list output"),
           rule="handler contract: a writeOnly property is never in a read or list output")
def write_only_returned(ctx: ResourceContext) -> None:
    """A writeOnly property that the read or list operation returns (reported where its
    mutability is decided)."""
    resource = ctx.resource
    for prop, member_names in _properties(ctx):
        if not prop.write_only:
            continue
        for op in (resource.read, resource.list):
            out = _output_names(ctx.model, op)
            if out and member_names & out:
                ctx.report("S6205", f"property `{prop.schema_name}` is writeOnly but {op} returns it",
                           ctx.mutability_site(ctx.loc.property_site(prop.schema_name), prop.pointer),
                           "remove @aws.cloudformation#cfnMutability(\"write\") from the member, or the "
                           f"member from the output of {op}")


@lint_rule(Code("S6206", Severity.WARNING, "CfnLint.Contract.PrimaryIdentifierType",
                "a primaryIdentifier property is not a string or integer"),
           rule="handler contract: primaryIdentifier properties are strings or integers")
def primary_identifier_type(ctx: ResourceContext) -> None:
    """A primaryIdentifier property (its ``$ref`` resolved) that is not a string or integer."""
    for pointer in ctx.pointer_list("primaryIdentifier"):
        details = ctx.resolve(ctx.obj("properties").get(pointer.rsplit("/", 1)[-1]))
        if isinstance(details, dict) and details.get("type") not in ("string", "integer"):
            ctx.report("S6206", f"primaryIdentifier {pointer} is of type {details.get('type', 'none')}",
                       ctx.loc.pointer_site(pointer), "make the identifier target a string (or integer) shape")


__all__ = ["REACH_DEPTH", "reachable"]
