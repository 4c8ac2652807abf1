"""Every validator, and every configurable validator (one a model's ``validators`` metadata
turns on), has, on disk, models that trigger each of its codes and one that does not
(issue 15: "one model per rule that triggers it and one that does not" made visible).

Layout: ``tests/validation/fixtures/<module>/<check>/<case>.smithy`` (or ``.json``), where
``<module>`` is the check's module under ``smithy2cfn/validation`` as a path
(``core/targets``, ``waiters``, ``smithy_linters``) and ``<check>`` its function name (for a
configurable validator, its factory: ``smithy_linters/camel_case``; its models name it in
their ``validators`` metadata); beside each model,
``<case>.errors`` lists every event smithy2cfn reports for it, in the reference's errorfile
format (``[SEVERITY] shape: message | EventId``, ``-`` for no shape), sorted: a golden file
(``pytest --update-goldens`` rewrites it; review the diff). Each model is loaded alone with
the built-in trait packages, as the reference's validation suites are.

The coverage test then asks, of every validator and configurable validator in the catalog,
for a folder whose cases report each of its codes (but those listed in :data:`NOT_TRIGGERED`,
with why) and one case that reports none of them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from conftest import read_golden
from smithy2cfn import api
from smithy2cfn.checks import Check, shipped

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
PREFIX = "smithy2cfn.validation."

#: Validators (and configurable validators) with no fixture folder yet (each room's work
#: removes its own). Check names are ``<module under validation>.<function>``.
WITHOUT_FIXTURES: set[str] = {
    "apigateway.check_authorizers",
    "apigateway.check_endpoint_configuration",
    "apigateway.check_gateway_responses_cors",
    "aws.iam.check_condition_key_values",
    "aws.iam.check_condition_keys",
    "aws.iam.check_define_condition_keys",
    "aws.iam.check_iam_actions",
    "aws.iam.check_iam_resource_names",
    "aws.iam.check_iam_resources",
    "aws.traits.check_arn_templates",
    "aws.traits.check_arn_traits",
    "aws.traits.check_client_endpoint_discovery",
    "aws.traits.check_cloudwatch_namespaces",
    "aws.traits.check_error_renames",
    "aws.traits.check_event_sources",
    "aws.traits.check_http_checksums",
    "aws.traits.check_protocol_http",
    "aws.traits.check_protocol_http_payloads",
    "aws.traits.check_query_error_codes",
    "aws.traits.check_sdk_service_ids",
    "aws.traits.check_service_tagging",
    "aws.traits.check_sigv4_traits",
    "aws.traits.check_tag_enabled_services",
    "aws.traits.check_tag_property_names",
    "aws.traits.check_tag_property_types",
    "aws.traits.check_taggable_resources",
    "cfn.check_cfn_mutability",
    "cfn.check_cfn_primary_identifier",
    "cfn.check_cfn_resource_properties",
    "contracts.check_condition_values",
    "contracts.check_conditions",
    "core.http.check_host_labels",
    "core.http.check_http_api_key_auth",
    "core.http.check_http_binding_traits_ignored",
    "core.http.check_http_bindings_missing",
    "core.http.check_http_header_traits",
    "core.http.check_http_label_traits",
    "core.http.check_http_method_semantics",
    "core.http.check_http_patterns",
    "core.http.check_http_payload",
    "core.http.check_http_prefix_headers_traits",
    "core.http.check_http_query_params_traits",
    "core.http.check_http_query_traits",
    "core.http.check_http_response_codes",
    "core.http.check_http_uri_conflicts",
    "core.http.check_http_uri_greedy_labels",
    "core.http.check_no_inline_documents",
    "core.operations.check_examples",
    "core.operations.check_idempotency_tokens_ignored",
    "core.operations.check_idempotent_traits",
    "core.operations.check_operation_input_output",
    "core.operations.check_request_compression",
    "core.paginated.check_paginated",
    "core.resources.check_identifier_bindings",
    "core.resources.check_lifecycle_traits",
    "core.resources.check_member_should_reference_resource",
    "core.resources.check_property_bindings",
    "core.resources.check_references",
    "core.resources.check_resource_containment",
    "core.resources.check_resource_identifiers",
    "core.service.check_auth_traits",
    "core.service.check_service_bound_resource_operations",
    "core.service.check_service_closures",
    "core.service.check_shape_id_conflicts",
    "core.service.check_single_bindings",
    "core.service.check_unit_type",
    "core.streaming.check_event_payloads",
    "core.streaming.check_streaming",
    "mqtt.check_mqtt_topic_conflicts",
    "mqtt.check_mqtt_topics",
    "protocols.protocol_tests.check_event_stream_tests",
    "protocols.protocol_tests.check_http_request_tests",
    "protocols.protocol_tests.check_http_response_tests",
    "protocols.protocol_tests.check_malformed_request_tests",
    "protocols.protocol_tests.check_protocol_test_ids",
    "protocols.protocol_tests.check_test_trait_references",
    "protocols.rpcv2.check_rpcv2_event_stream_http",
    "rules.aws_endpoints.check_special_case_endpoints",
    "rules.ruleset.check_auth_schemes",
    "rules.ruleset.check_bdd",
    "rules.ruleset.check_built_ins",
    "rules.ruleset.check_endpoint_tests",
    "rules.ruleset.check_operation_context_params",
    "rules.ruleset.check_param_docs",
    "rules.ruleset.check_rule_set_parameters",
    "rules.ruleset.check_rule_set_traits",
    "rules.ruleset.check_rules_version",
    "rules.ruleset.check_static_context_params",
    "rules.ruleset.check_test_cases",
    "rules.ruleset.check_uris",
    "smoke_tests.check_smoke_test_cases",
    "smoke_tests.check_unique_smoke_test_ids",
    "waiters.check_waitable",
}

#: Codes a validator declares that no model can trigger, with why: ``check name → {code: why}``.
NOT_TRIGGERED: dict[str, dict[str, str]] = {
    "core.configured.check_configured_validators": {
        "S3099": "an internal error: only a configured validator that fails, or reports a code it does not declare, "
                 "reports it (tests/validation/test_configured_units.py makes one)",
    },
    "core.trait_validators.check_trait_validators": {
        "S3703": "a selector the parser rejects is a syntax error, which check_trait_creation reports as the "
                 "reference does (S3374, a Model error: it hides this NOTE)",
    },
    "core.traits.check_trait_targets": {
        "S3008": "a selector the parser rejects is a syntax error, which check_trait_creation reports as the "
                 "reference does (S3374, a Model error: it hides this NOTE)",
    },
}


def _cases() -> list[Path]:
    if not FIXTURES.is_dir():
        return []
    return sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".smithy", ".json") and p.is_file())


def _folder(check: Check) -> Path:
    return FIXTURES.joinpath(*check.module.removeprefix(PREFIX).split("."), check.function)


def _line(d) -> str:
    return f"[{d.severity.name}] {d.shape_id or '-'}: {d.message} | {d.event_id or '-'}"


def _checks() -> list[Check]:
    """The checks that need fixtures: the validators and the configurable validators."""
    return shipped("validator") + shipped("configurable")


@cache
def _run(model: Path) -> tuple[str, frozenset[str]]:
    """The errorfile text of ``model``'s events and the codes reported."""
    result = api.validate(api.load([model]))
    lines = sorted({_line(d) for d in result.diagnostics})
    return "".join(line + "\n" for line in lines), frozenset(d.code for d in result.diagnostics)


@pytest.mark.parametrize("model", _cases(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_events(model: Path, update_goldens: bool) -> None:
    text, _ = _run(model)
    assert text == read_golden(model.with_suffix(".errors"), text, update_goldens)


def test_every_check_has_fixtures_that_trigger_each_code_and_one_that_does_not() -> None:
    missing, untriggered, no_clean, stale = [], {}, [], []
    for check in _checks():
        name = f"{check.module.removeprefix(PREFIX)}.{check.function}"
        folder = _folder(check)
        cases = sorted(p for p in folder.glob("*") if p.suffix in (".smithy", ".json")) if folder.is_dir() else []
        if not cases:
            if name not in WITHOUT_FIXTURES:
                missing.append(name)
            continue
        if name in WITHOUT_FIXTURES:
            stale.append(name)
        reported = [_run(p)[1] for p in cases]
        expected = set(check.codes) - set(NOT_TRIGGERED.get(name, {}))
        left = expected - set().union(*reported)
        if left:
            untriggered[name] = sorted(left)
        if all(codes & set(check.codes) for codes in reported):
            no_clean.append(name)
    assert not missing, f"checks without fixtures in tests/validation/fixtures: {missing}"
    assert not untriggered, f"codes no fixture of the validator triggers: {untriggered}"
    assert not no_clean, f"checks without a case that reports none of their codes: {no_clean}"
    assert not stale, f"these checks have fixtures now: delete them from WITHOUT_FIXTURES: {stale}"


def test_every_fixture_folder_is_a_check() -> None:
    folders = {_folder(c) for c in _checks()}
    strays = sorted({str(p.parent.relative_to(FIXTURES)) for p in _cases() if p.parent not in folders})
    assert not strays, f"fixture folders that name no validator or configurable validator (moved or renamed?): {strays}"
