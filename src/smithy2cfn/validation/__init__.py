"""Validate stage: semantic checks of a loaded model (Smithy 2.0 "Model validation").

Each check is a small function ``check_x(model) -> Iterable[Diagnostic]`` whose docstring
cites the spec section it enforces; :data:`REGISTRY` lists them in the order they run, with
the trait packages they check. :func:`run_validators` runs the ones that apply to the model
(:func:`validators_for`), drops their findings about built-in prelude shapes but ERRORs (as
the reference's ``ModelValidator`` does), and never raises: a validator that fails is
reported as an ``S3099`` ERROR (the model is not let through unchecked) and the others go on.
Diagnostic codes are listed in :mod:`smithy2cfn.validation.common`.

What the loader reports itself (unresolved targets, duplicates, unknown traits, mixin
problems, trait conflicts while merging) is not repeated here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

from smithy2cfn import collector
from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Severity
from smithy2cfn.model.shapes import Model, ShapeId
from smithy2cfn.validation.suppressions import finish, loading_failed

Validator = Callable[[Model], Iterable[Diagnostic]]

#: The registry: every validator, in the order it runs, as ``(packages, module, function)``:
#: the function ``check_x`` of module ``smithy2cfn.validation.<module>``, imported when it first
#: runs. ``packages`` are the trait packages whose traits it checks: it runs only when the
#: model loaded one of them (:attr:`Model.packages`; a model that loaded none of them can
#: apply none of their traits, so the validator would find nothing), and ``()`` runs on
#: every model. A small model thus neither imports nor runs the rules engine, protocol
#: tests, waiters... (issue 10: work in proportion to the model).
REGISTRY: tuple[tuple[tuple[str, ...], str, str], ...] = (
    # relationships
    ((), "targets", "check_targets"),
    # shapes
    ((), "shape_rules", "check_enum_shapes"),
    ((), "shape_rules", "check_int_enum_shapes"),
    ((), "shape_rules", "check_mixin_shapes"),
    ((), "shape_rules", "check_mixin_member_conflicts"),
    ((), "shape_rules", "check_default_values"),
    # traits
    ((), "traits", "check_selectors"),
    ((), "traits", "check_pattern_traits"),
    ((), "traits", "check_trait_targets"),
    ((), "traits", "check_trait_conflicts"),
    ((), "traits", "check_trait_values"),
    ((), "traits", "check_structurally_exclusive"),
    ((), "traits", "check_unstable_traits"),
    ((), "traits", "check_deprecated_traits"),
    ((), "traits", "check_enum_traits"),
    ((), "traits", "check_trait_breaking_changes"),
    # smithy.api#traitValidators
    ((), "trait_validators", "check_trait_validators"),
    # smithy.waiters
    (("smithy.waiters",), "waiters", "check_waitable"),
    (("smithy.waiters",), "waiters", "check_unique_waiter_names"),
    # smithy.contracts
    (("smithy.contracts",), "contracts", "check_conditions"),
    (("smithy.contracts",), "contracts", "check_condition_values"),
    # smithy.mqtt
    (("smithy.mqtt",), "mqtt", "check_mqtt_topics"),
    (("smithy.mqtt",), "mqtt", "check_mqtt_topic_conflicts"),
    # smithy.protocols
    (("smithy.protocols",), "protocols", "check_rpcv2_event_stream_http"),
    # smithy.test
    (("smithy.test",), "protocol_tests", "check_test_trait_references"),
    (("smithy.test",), "protocol_tests", "check_protocol_test_ids"),
    (("smithy.test",), "protocol_tests", "check_http_request_tests"),
    (("smithy.test",), "protocol_tests", "check_http_response_tests"),
    (("smithy.test",), "protocol_tests", "check_malformed_request_tests"),
    (("smithy.test",), "protocol_tests", "check_event_stream_tests"),
    # aws.apigateway
    (("aws.apigateway",), "apigateway", "check_authorizers"),
    (("aws.apigateway",), "apigateway", "check_endpoint_configuration"),
    (("aws.apigateway",), "apigateway", "check_gateway_responses_cors"),
    # smithy.rules
    (("smithy.rules",), "rules_engine", "check_rule_set_traits"),
    (("smithy.rules",), "rules_engine", "check_static_context_params"),
    (("smithy.rules",), "rules_engine", "check_operation_context_params"),
    (("smithy.rules",), "rules_engine", "check_rule_set_parameters"),
    (("smithy.rules",), "rules_engine", "check_auth_schemes"),
    (("smithy.rules",), "rules_engine", "check_built_ins"),
    (("smithy.rules",), "rules_engine", "check_uris"),
    (("smithy.rules",), "rules_engine", "check_param_docs"),
    (("smithy.rules",), "rules_engine", "check_rules_version"),
    (("smithy.rules",), "rules_engine", "check_bdd"),
    (("smithy.rules",), "rules_engine", "check_endpoint_tests"),
    (("smithy.rules",), "rules_engine", "check_test_cases"),
    # aws.endpoints
    (("aws.endpoints",), "aws_endpoints", "check_special_case_endpoints"),
    # constraint traits, unions, private access (validate/constraints.py)
    ((), "constraints", "check_length_traits"),
    ((), "constraints", "check_range_traits"),
    ((), "constraints", "check_cors_traits"),
    ((), "constraints", "check_json_names"),
    ((), "constraints", "check_xml_namespaces"),
    ((), "constraints", "check_unions"),
    ((), "constraints", "check_private_access"),
    ((), "constraints", "check_media_types"),
    ((), "constraints", "check_xml_flattened"),
    ((), "constraints", "check_private_mixin_members"),
    ((), "constraints", "check_set_shapes"),
    ((), "constraints", "check_defaults_in_updates"),
    # shape recursion (validate/recursion.py)
    ((), "recursion", "check_shape_recursion"),
    # metadata and shape closures (validate/metadata.py)
    ((), "metadata", "check_metadata_traits"),
    ((), "metadata", "check_typed_metadata"),
    ((), "metadata", "check_shape_closures"),
    # service types
    ((), "resources", "check_resource_identifiers"),
    ((), "resources", "check_resource_containment"),
    ((), "resources", "check_lifecycle_traits"),
    ((), "resources", "check_identifier_bindings"),
    ((), "resources", "check_property_bindings"),
    ((), "resources", "check_member_should_reference_resource"),
    ((), "resources", "check_references"),
    # trait values the reference cannot build (validate/creation.py)
    ((), "creation", "check_trait_creation"),
    # services (validate/service.py)
    ((), "service", "check_service_closures"),
    ((), "service", "check_shape_id_conflicts"),
    ((), "service", "check_single_bindings"),
    ((), "service", "check_service_bound_resource_operations"),
    ((), "service", "check_auth_traits"),
    ((), "service", "check_unit_type"),
    # HTTP bindings, endpoints, auth (validate/http.py)
    ((), "http", "check_http_patterns"),
    ((), "http", "check_http_bindings_missing"),
    ((), "http", "check_http_binding_traits_ignored"),
    ((), "http", "check_http_header_traits"),
    ((), "http", "check_http_label_traits"),
    ((), "http", "check_http_query_traits"),
    ((), "http", "check_http_query_params_traits"),
    ((), "http", "check_http_prefix_headers_traits"),
    ((), "http", "check_http_payload"),
    ((), "http", "check_http_uri_greedy_labels"),
    ((), "http", "check_http_uri_conflicts"),
    ((), "http", "check_http_method_semantics"),
    ((), "http", "check_http_response_codes"),
    ((), "http", "check_host_labels"),
    ((), "http", "check_http_api_key_auth"),
    ((), "http", "check_no_inline_documents"),
    # operations (validate/operations.py)
    ((), "operations", "check_operation_input_output"),
    ((), "operations", "check_idempotent_traits"),
    ((), "operations", "check_idempotency_tokens_ignored"),
    ((), "operations", "check_request_compression"),
    ((), "operations", "check_examples"),
    # streams and events (validate/streaming.py)
    ((), "streaming", "check_streaming"),
    ((), "streaming", "check_event_payloads"),
    # pagination (validate/paginated.py)
    ((), "paginated", "check_paginated"),
    # aws.api, aws.auth, aws.protocols
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_arn_templates"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_arn_traits"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_cloudwatch_namespaces"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_event_sources"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_sdk_service_ids"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_error_renames"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_sigv4_traits"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_http_checksums"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_client_endpoint_discovery"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_protocol_http_payloads"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_protocol_http"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_query_error_codes"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_service_tagging"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_tag_enabled_services"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_taggable_resources"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_tag_property_names"),
    (("aws.api", "aws.auth", "aws.protocols"), "aws", "check_tag_property_types"),
    # aws.iam
    (("aws.iam",), "iam", "check_condition_keys"),
    (("aws.iam",), "iam", "check_condition_key_values"),
    (("aws.iam",), "iam", "check_define_condition_keys"),
    (("aws.iam",), "iam", "check_iam_actions"),
    (("aws.iam",), "iam", "check_iam_resources"),
    # (every service: a resource's IAM name defaults to its shape name, so two resources of
    # a service named alike conflict whether or not the model names aws.iam, as the
    # reference's IamResourceTraitConflictingNameValidator reports wherever it is installed)
    ((), "iam", "check_iam_resource_names"),
    # smithy.test#smokeTests
    (("smithy.test",), "smoke_tests", "check_smoke_test_cases"),
    (("smithy.test",), "smoke_tests", "check_unique_smoke_test_ids"),
    # the validators and linters the `validators` metadata turns on
    ((), "metadata_validators", "check_configured_validators"),
    # aws.cloudformation
    (("aws.cloudformation",), "cfn", "check_cfn_resource_properties"),
    (("aws.cloudformation",), "cfn", "check_cfn_primary_identifier"),
    (("aws.cloudformation",), "cfn", "check_cfn_mutability"),
    # validation metadata
    ((), "suppressions", "check_validators_metadata"),
)


def validators_for(model: Model | None = None) -> list[Validator]:
    """The validators of :data:`REGISTRY` that apply to ``model`` (every one when ``model``
    is ``None`` or did not record its packages), in order, their modules imported.

    Raises:
        ImportError, AttributeError: a registry entry names no function (a bug: the
            registry test imports every entry).
    """
    packages = None if model is None else model.packages
    out: list[Validator] = []
    for needs, module, function in REGISTRY:
        if needs and packages is not None and packages.isdisjoint(needs):
            continue
        out.append(getattr(importlib.import_module(f"smithy2cfn.validation.{module}"), function))
    return out


def __getattr__(name: str) -> Any:
    """``VALIDATORS``: every validator of :data:`REGISTRY`, in order (imports them all)."""
    if name == "VALIDATORS":
        return validators_for(None)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def validate_model(model: Model, validators: Iterable[Validator] | None = None,
                   prior: list[Diagnostic] | None = None) -> list[Diagnostic]:
    """Run ``validators`` (default: the ones that apply to ``model``, :func:`validators_for`)
    and return their diagnostics.

    Findings about prelude shapes are dropped unless they are ERRORs (the reference's
    ``ModelValidator.filterPrelude``); the others are suppressed, re-graded and
    ordered as the reference does (:func:`smithy2cfn.validation.suppressions.finish`: an
    ERROR of the correctness validators hides the critical validators' events, an ERROR of
    those hides the others'). ``prior`` are the events of loading, which count in that
    order too. An exception inside a validator is a bug of this implementation; it becomes
    one ``S3099`` ERROR naming the validator, so a model whose checks did not all run is
    never accepted (the other validators still run, and what the failed one found before it
    failed is kept).
    """
    out: list[Diagnostic] = []
    with collector.frozen():  # the loaded model out of the collector's reach
        _run(model, validators if validators is not None else validators_for(model), out)
    return finish(model, list(prior or []), out)[1]


def _run(model: Model, validators: Iterable[Validator], out: list[Diagnostic]) -> None:
    for check in validators:
        try:
            for d in check(model):
                if _about_prelude(model, d):
                    continue
                out.append(d)
        except Exception as e:  # noqa: BLE001 - a validator bug must not become a traceback
            name = getattr(check, "__name__", type(check).__name__)
            out.append(Diagnostic("S3099", Severity.ERROR,
                                  f"internal error in validator {name} ({type(e).__name__}: {str(e)[:200]}); the model "
                                  "cannot be accepted because its checks did not all run",
                                  hint="please report this as a smithy2cfn bug, with the model"))


def _about_prelude(model: Model, d: Diagnostic) -> bool:
    # The reference's ModelValidator.filterPrelude: a validator's event on a prelude shape is
    # dropped unless it is an ERROR (a broken prelude, or a model that misuses a built-in
    # shape: `smithy.api#Blob` as the Operation member of an endpoint-discovery input).
    return d.severity is not Severity.ERROR and bool(d.shape_id) \
        and ShapeId.root(d.shape_id) in model.prelude_ids


def run_validators(model: Model, diags: Diagnostics) -> None:
    """Validate ``model`` after loading, as the reference's ``ModelAssembler`` does, adding
    to ``diags``.

    Args:
        model: a loaded model.
        diags: the events of loading; receives the validation diagnostics (``S3xxx``).
            When loading failed (an ERROR the reference's loader reports itself, event
            ``Model``), nothing is validated, as in the reference; loading events that
            are validators' events in the reference (``Target``...) do not stop it, and
            the model's suppressions apply to the loading events too. Nothing is raised.
    """
    if loading_failed(diags):
        return
    prior = list(diags)
    found = validate_model(model, prior=prior)
    diags.items[:] = finish(model, prior, [])[0]
    diags.extend(found)


__all__ = ["REGISTRY", "VALIDATORS", "Validator", "run_validators", "validate_model", "validators_for"]
