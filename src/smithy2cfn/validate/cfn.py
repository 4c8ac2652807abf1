"""Rules of the ``aws.cloudformation`` traits (aws-cloudformation.rst).

* §"cfnResource trait": members of the structures a resource's properties are derived from
  (§"Resource properties": identifiers, ``read`` output, ``put``/``create``/``update``
  input, ``additionalSchemas``) that share a name MUST resolve to the same target; the
  deprecated ``primaryIdentifier`` MUST name a resource property that targets a string.
* §"cfnMutability trait" / §"cfnAdditionalIdentifier trait": an additional identifier MUST
  NOT have ``write`` (or ``create``) mutability.

Trait placement, conflicts (``cfnExcludeProperty`` vs the others) and values (the
``cfnMutability`` enum, ``additionalSchemas`` structure IDs) are checked generically by
:mod:`smithy2cfn.validate.traits`.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.diagnostics import Diagnostic
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.model.traits import (
    CFN_ADDITIONAL_IDENTIFIER,
    CFN_EXCLUDE_PROPERTY,
    CFN_MUTABILITY,
    CFN_RESOURCE,
    MIXIN,
    NESTED_PROPERTIES,
)
from smithy2cfn.validate.common import error, user_shapes, warning
from smithy2cfn.validate.resources import identifier_bindings


def _structure_members(model: Model, structure_id: str | None):
    """Top-level members of a structure, descending into ``@nestedProperties`` members."""
    structure = model.shapes.get(structure_id) if structure_id else None
    if structure is None or structure.type != "structure":
        return []
    nested = [m for m in structure.members.values() if NESTED_PROPERTIES in m.traits]
    if nested:
        inner = model.shapes.get(nested[0].target)
        return list(inner.members.values()) if inner is not None and inner.type == "structure" else []
    return list(structure.members.values())


def cfn_property_targets(model: Model, resource: Shape) -> dict[str, set[str]]:
    """CloudFormation property name → the shape IDs its defining members target.

    Follows aws-cloudformation.rst §"Resource properties": the resource's identifiers, the
    top-level members of the ``read`` output and the ``put``/``create``/``update`` inputs
    (``@nestedProperties`` followed), and the members of every ``additionalSchemas``
    structure; members marked ``@cfnExcludeProperty`` are left out. Like the reference, a
    lifecycle member whose name is that of an input member binding an identifier of the
    operation does not add a target: the identifier's own target defines that property.
    """
    out: dict[str, set[str]] = {}
    for name, target in resource.identifiers.items():
        out.setdefault(name, set()).add(target)
    sources: list[tuple[str | None, set[str]]] = []
    for kind, io in (("read", "output"), ("put", "input"), ("create", "input"), ("update", "input")):
        op = model.shapes.get(getattr(resource, kind) or "")
        if op is not None and op.type == "operation":
            bound = set(identifier_bindings(model, resource, op).values())
            sources.append((getattr(op, io), bound))
    trait = resource.traits.get(CFN_RESOURCE)
    if isinstance(trait, dict) and isinstance(trait.get("additionalSchemas"), list):
        sources += [(s, set()) for s in trait["additionalSchemas"] if isinstance(s, str)]
    for structure_id, bound in sources:
        for member in _structure_members(model, structure_id):
            if CFN_EXCLUDE_PROPERTY in member.traits or member.name in bound:
                continue
            out.setdefault(member.name, set()).add(member.target)
    return out


def _cfn_resources(model: Model) -> list[Shape]:
    return [s for s in user_shapes(model)
            if s.type == "resource" and CFN_RESOURCE in s.traits and MIXIN not in s.traits]


def check_cfn_resource_properties(model: Model) -> Iterable[Diagnostic]:
    """Members that define the same CloudFormation property target the same shape.

    Spec: aws-cloudformation.rst §"Resource properties" ("Any members used to derive
    properties that are defined in more than one of the above structures MUST resolve to the
    same target") and §"cfnResource trait" (``additionalSchemas``). Reference event:
    ``CfnResourceProperty``. Severity: ERROR when the targets are shapes of different types
    (``string`` vs ``boolean``: no single schema fits); a WARNING when they are all of one
    type (two string shapes with different constraints), which real AWS models do and the
    reference converts.
    """
    for resource in _cfn_resources(model):
        trait = resource.traits.get(CFN_RESOURCE)
        cfn_name = trait.get("name") if isinstance(trait, dict) else None
        cfn_name = cfn_name if isinstance(cfn_name, str) and cfn_name else resource.name
        for prop, targets in sorted(cfn_property_targets(model, resource).items()):
            if len(targets) < 2:
                continue
            kinds = {model.shapes[t].type if t in model.shapes else t for t in targets}
            make = error if len(kinds) > 1 else warning
            yield make(model, "S3050", resource.id,
                       f"The `{prop}` property of the generated `{cfn_name}` CloudFormation resource "
                       f"targets multiple shapes: [{', '.join(sorted(targets))}]. Reusing member names "
                       "that target different shapes can cause confusion for users of the API. This "
                       "target discrepancy must either be resolved in the model or one of the members "
                       "must be excluded from the conversion.", "CfnResourceProperty",
                       "make the members target the same shape, or mark one with @cfnExcludeProperty")


def check_cfn_primary_identifier(model: Model) -> Iterable[Diagnostic]:
    """``@cfnResource(primaryIdentifier: ...)`` names a resource property targeting a string.

    Spec: aws-cloudformation.rst §"cfnResource trait" (``primaryIdentifier``: "The value MUST
    be the name of a property on the resource shape that targets a string shape"). Reference
    event: ``CfnResourceProperty``.
    """
    for resource in _cfn_resources(model):
        trait = resource.traits.get(CFN_RESOURCE)
        pid = trait.get("primaryIdentifier") if isinstance(trait, dict) else None
        if not isinstance(pid, str):
            continue
        if pid not in resource.properties:
            yield error(model, "S3051", resource.id,
                        f"The alternative resource primary identifier, `{pid}`, must be a property of the "
                        "resource.", "CfnResourceProperty")
            continue
        target = model.shapes.get(resource.properties[pid])
        if target is not None and target.type not in ("string", "enum"):
            yield error(model, "S3051", resource.id,
                        f"The alternative resource primary identifier, `{pid}`, targets a `{target.type}` "
                        "shape, it must target a `string`.", "CfnResourceProperty")


def check_cfn_mutability(model: Model) -> Iterable[Diagnostic]:
    """An ``@cfnAdditionalIdentifier`` member does not have ``write`` or ``create`` mutability.

    Spec: aws-cloudformation.rst §"cfnAdditionalIdentifier trait" ("MUST NOT be applied to
    members with the cfnMutability trait set to write or create") and §"cfnMutability trait".
    Reference event: ``CfnMutabilityTrait``.
    """
    for shape in user_shapes(model):
        for member in shape.members.values():
            value = member.traits.get(CFN_MUTABILITY)
            if value in ("write", "create") and CFN_ADDITIONAL_IDENTIFIER in member.traits:
                yield error(model, "S3052", member.id,
                            f'Member with the mutability value of "{value}" is also marked as an additional '
                            "identifier", "CfnMutabilityTrait")


__all__ = [
    "cfn_property_targets",
    "check_cfn_mutability",
    "check_cfn_primary_identifier",
    "check_cfn_resource_properties",
]
