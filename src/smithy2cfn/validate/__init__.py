"""Validate stage: semantic checks of a loaded model (Smithy 2.0 "Model validation").

Each check is a small function ``check_x(model) -> Iterable[Diagnostic]`` whose docstring
cites the spec section it enforces; :data:`VALIDATORS` lists them in the order they run.
:func:`run_validators` runs them all, drops findings about built-in prelude shapes, and never
raises: a validator that fails is reported as an ``S3099`` warning and the others go on.
Diagnostic codes are listed in :mod:`smithy2cfn.validate.common`.

What the loader reports itself (unresolved targets, duplicates, unknown traits, mixin
problems, trait conflicts while merging) is not repeated here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Severity
from smithy2cfn.model.shapes import Model, ShapeId
from smithy2cfn.validate import cfn, resources, shape_rules, traits
from smithy2cfn.validate.suppressions import apply_suppressions

Validator = Callable[[Model], Iterable[Diagnostic]]

#: The registry: every validator, in the order it runs.
VALIDATORS: list[Validator] = [
    # shapes
    shape_rules.check_enum_shapes,
    shape_rules.check_int_enum_shapes,
    shape_rules.check_collection_members,
    shape_rules.check_mixin_shapes,
    shape_rules.check_mixin_member_conflicts,
    shape_rules.check_default_values,
    # traits
    traits.check_trait_targets,
    traits.check_trait_conflicts,
    traits.check_trait_values,
    traits.check_structurally_exclusive,
    traits.check_unstable_traits,
    # service types
    resources.check_relationship_targets,
    resources.check_resource_identifiers,
    resources.check_resource_containment,
    resources.check_lifecycle_traits,
    resources.check_identifier_bindings,
    resources.check_property_bindings,
    # aws.cloudformation
    cfn.check_cfn_resource_properties,
    cfn.check_cfn_primary_identifier,
    cfn.check_cfn_mutability,
]


def validate_model(model: Model, validators: Iterable[Validator] | None = None) -> list[Diagnostic]:
    """Run ``validators`` (default :data:`VALIDATORS`) and return their diagnostics.

    Findings about prelude shapes are dropped, and so are those that the model suppresses
    (:mod:`smithy2cfn.validate.suppressions`); an exception inside a validator becomes one
    ``S3099`` WARNING naming the validator (the model is never rejected for it).
    """
    out: list[Diagnostic] = []
    for check in validators if validators is not None else VALIDATORS:
        try:
            for d in check(model):
                if d.shape_id and ShapeId.root(d.shape_id) in model.prelude_ids:
                    continue
                out.append(d)
        except Exception as e:  # noqa: BLE001 - a validator bug must not stop the build
            out.append(Diagnostic("S3099", Severity.WARNING,
                                  f"internal error in validator {check.__name__}: {type(e).__name__}: {e}; "
                                  "its checks were skipped", hint="please report this as a smithy2cfn bug"))
    return apply_suppressions(model, out)


def run_validators(model: Model, diags: Diagnostics) -> None:
    """Run every validator of :data:`VALIDATORS` over ``model``, adding to ``diags``.

    Args:
        model: a loaded model (the API calls this only when loading found no errors).
        diags: receives the diagnostics (``S3xxx``); nothing is raised.
    """
    diags.extend(validate_model(model))


__all__ = ["VALIDATORS", "Validator", "run_validators", "validate_model"]
