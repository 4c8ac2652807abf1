"""Rules of the ``aws.cloudformation`` traits (aws-cloudformation.rst).

* §"cfnResource trait": members of the structures a resource's properties are derived from
  (§"Resource properties": identifiers, ``read`` output, ``put``/``create``/``update``
  input, ``additionalSchemas``) that share a name MUST resolve to the same target; the
  deprecated ``primaryIdentifier`` MUST name a resource property that targets a string.
* §"cfnMutability trait" / §"cfnAdditionalIdentifier trait": an additional identifier MUST
  NOT have ``write`` (or ``create``) mutability.

Trait placement, conflicts (``cfnExcludeProperty`` vs the others) and values (the
``cfnMutability`` enum, ``additionalSchemas`` structure IDs) are checked generically by
:mod:`smithy2cfn.validation.core.traits`.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.derive.resource_index import CfnResourceIndex
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.model.traits import (
    CFN_ADDITIONAL_IDENTIFIER,
    CFN_MUTABILITY,
    CFN_RESOURCE,
    MIXIN,
)
from smithy2cfn.validation.support.events import error, event
from smithy2cfn.validation.support.shapes import user_shapes_having, user_shapes_with_members_having


def _cfn_resources(model: Model) -> list[Shape]:
    return [s for s in user_shapes_having(model, CFN_RESOURCE) if s.type == "resource" and MIXIN not in s.traits]


@validator(Code("S3050", Severity.ERROR, "CfnResourceProperty", "a CloudFormation property targets different shapes"),
           rule="reference CfnResourcePropertyValidator (smithy-aws-cloudformation-traits); "
                "aws-cloudformation.rst, Resource properties: the members that define one property target one shape",
           packages=("aws.cloudformation",))
def check_cfn_resource_properties(model: Model) -> Iterable[Diagnostic]:
    """Members that define the same CloudFormation property target the same shape.

    Spec: aws-cloudformation.rst §"Resource properties" ("Any members used to derive
    properties that are defined in more than one of the above structures MUST resolve to the
    same target") and §"cfnResource trait" (``additionalSchemas``). Reads the derivation
    itself (:class:`~smithy2cfn.derive.resource_index.CfnResourceIndex`): each property's
    shapes — member targets, or identifier targets — must be one. Reference
    ``CfnResourcePropertyValidator`` (event ``CfnResourceProperty``).
    """
    index = model.knowledge(CfnResourceIndex)
    for resource in _cfn_resources(model):
        cfn = index.get(resource.id)
        if cfn is None:
            continue
        trait = resource.traits.get(CFN_RESOURCE)
        cfn_name = trait.get("name") if isinstance(trait, dict) else None
        cfn_name = cfn_name if isinstance(cfn_name, str) and cfn_name else resource.name
        for prop, derived in sorted(cfn.properties.items()):
            targets = set()
            for shape_id in derived.shape_ids:
                member = model.member(shape_id) if "$" in shape_id else None
                targets.add(member.target if member is not None else shape_id)
            if len(targets) < 2:
                continue
            yield error(model, "S3050", resource.id,
                        f"The `{prop}` property of the generated `{cfn_name}` CloudFormation resource "
                        f"targets multiple shapes: [{listed(targets, sort=True)}]. Reusing member names "
                        "that target different shapes can cause confusion for users of the API. This "
                        "target discrepancy must either be resolved in the model or one of the members "
                        "must be excluded from the conversion.", "CfnResourceProperty",
                        "make the members target the same shape, or mark one with @cfnExcludeProperty")


@validator(Code("S3051", Severity.ERROR, "CfnResourceProperty", "primary identifier is not a string property"),
           rule="reference CfnResourcePropertyValidator (smithy-aws-cloudformation-traits); "
                "aws-cloudformation.rst, aws.cloudformation#cfnResource trait: primaryIdentifier names a property targeting a string",
           packages=("aws.cloudformation",))
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
            yield event(model, "S3051", resource.id,
                        f"The alternative resource primary identifier, `{pid}`, must be a property of the "
                        "resource.", trait=CFN_RESOURCE)
            continue
        target = model.shapes.get(resource.properties[pid])
        if target is not None and target.type not in ("string", "enum"):
            yield event(model, "S3051", resource.id,
                        f"The alternative resource primary identifier, `{pid}`, targets a `{target.type}` "
                        "shape, it must target a `string`.", trait=CFN_RESOURCE)


@validator(Code("S3052", Severity.ERROR, "CfnMutabilityTrait", "write/create-only member marked additional identifier"),
           rule="reference CfnMutabilityTraitValidator (smithy-aws-cloudformation-traits); "
                "aws-cloudformation.rst, aws.cloudformation#cfnAdditionalIdentifier trait: not on a write or create member",
           packages=("aws.cloudformation",))
def check_cfn_mutability(model: Model) -> Iterable[Diagnostic]:
    """An ``@cfnAdditionalIdentifier`` member does not have ``write`` or ``create`` mutability.

    Spec: aws-cloudformation.rst §"cfnAdditionalIdentifier trait" ("MUST NOT be applied to
    members with the cfnMutability trait set to write or create") and §"cfnMutability trait".
    Reference event: ``CfnMutabilityTrait``.
    """
    for shape in user_shapes_with_members_having(model, CFN_MUTABILITY):
        for member in shape.members.values():
            value = member.traits.get(CFN_MUTABILITY)
            if value in ("write", "create") and CFN_ADDITIONAL_IDENTIFIER in member.traits:
                yield event(model, "S3052", member.id,
                            f'Member with the mutability value of "{value}" is also marked as an additional '
                            "identifier", trait=CFN_MUTABILITY, event_id="CfnMutabilityTrait")


__all__ = [
    "check_cfn_mutability",
    "check_cfn_primary_identifier",
    "check_cfn_resource_properties",
]
