"""smithy-aws-apigateway-traits: ``aws.apigateway#authorizers``, ``#endpointConfiguration``,
``#gatewayResponses`` (aws/amazon-apigateway.rst).

Reference validators mirrored here:

* ``AuthorizersTraitValidator``: each authorizer's ``scheme`` must be one of the auth schemes
  applied to the service (its traits whose definitions carry ``@authDefinition``), and
  ``enableSimpleResponses`` is only allowed with ``authorizerPayloadFormatVersion`` "2.0" —
  ERROR ``AuthorizersTrait`` on the service;
* ``EndpointConfigurationValidator``: a ``PRIVATE`` endpoint with an ``ipAddressType`` needs
  ``dualstack`` — ERROR ``EndpointConfiguration``;
* ``GatewayResponsesCorsValidator``: ``@gatewayResponses`` with ``@cors`` on one service —
  DANGER ``GatewayResponsesCors`` (gateway response parameters override CORS headers).

That ``@aws.apigateway#authorizer`` names an entry of the service's ``@authorizers`` is not
checked: the reference only resolves it when converting to OpenAPI, and accepts the model.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.model.knowledge_ops import ServiceIndex
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import (
    APIGATEWAY_AUTHORIZERS,
    APIGATEWAY_ENDPOINT_CONFIGURATION,
    APIGATEWAY_GATEWAY_RESPONSES,
    CORS,
)
from smithy2cfn.validation.support.events import at_trait, diag


@validator(Code("S3750", Severity.ERROR, "AuthorizersTrait",
                "an `@aws.apigateway#authorizers` scheme is not an auth scheme of the service, or "
                "`enableSimpleResponses` without payload format 2.0"),
           rule="reference AuthorizersTraitValidator (smithy-aws-apigateway-traits); amazon-apigateway.rst, "
                "aws.apigateway#authorizers trait, Validation",
           packages=("aws.apigateway",))
def check_authorizers(model: Model) -> Iterable[Diagnostic]:
    """Authorizers use the service's auth schemes, and simple responses only with payload 2.0.

    Spec: aws/amazon-apigateway.rst §"aws.apigateway#authorizers trait"; reference
    ``AuthorizersTraitValidator``. Code ``S3750`` (ERROR ``AuthorizersTrait``).
    """
    services = model.knowledge(ServiceIndex)
    for service in model.of_type("service"):
        authorizers = service.traits.get(APIGATEWAY_AUTHORIZERS)
        if not isinstance(authorizers, dict):
            continue
        entries = {name: value for name, value in authorizers.items() if isinstance(value, dict)}
        schemes = services.auth_schemes(service.id)
        invalid = sorted(f"{name} -> {value.get('scheme')}" for name, value in entries.items()
                         if value.get("scheme") not in schemes)
        if invalid:
            yield at_trait(model, diag(
                model, "S3750", None, service.id,
                f"Each `scheme` of the `{APIGATEWAY_AUTHORIZERS}` trait must target one of the auth schemes applied "
                f"to the service (i.e., [{listed(schemes, form='`{}`', sort=True)}]). The following mappings of "
                f"authorizer names to schemes are invalid: {listed(invalid)}",
                hint="apply the auth scheme trait to the service, or name one it has"), APIGATEWAY_AUTHORIZERS)
        misconfigured = sorted(name for name, value in entries.items()
                               if value.get("enableSimpleResponses") is not None
                               and value.get("authorizerPayloadFormatVersion") is not None
                               and value.get("authorizerPayloadFormatVersion") != "2.0")
        if misconfigured:
            yield at_trait(model, diag(
                model, "S3750", None, service.id,
                f"The enableSimpleResponses member of {APIGATEWAY_AUTHORIZERS} is only supported when "
                f"authorizedPayloadFormatVersion is 2.0. The following authorizers are misconfigured: "
                f"{listed(misconfigured)}"), APIGATEWAY_AUTHORIZERS)


@validator(Code("S3751", Severity.ERROR, "EndpointConfiguration",
                "a `PRIVATE` API Gateway endpoint with an `ipAddressType` other than `dualstack`"),
           rule="reference EndpointConfigurationValidator (smithy-aws-apigateway-traits); "
                "amazon-apigateway.rst, aws.apigateway#endpointConfiguration trait, Validation",
           packages=("aws.apigateway",))
def check_endpoint_configuration(model: Model) -> Iterable[Diagnostic]:
    """A ``PRIVATE`` endpoint type takes only the ``dualstack`` IP address type.

    Spec: aws/amazon-apigateway.rst §"aws.apigateway#endpointConfiguration trait"; reference
    ``EndpointConfigurationValidator``. Code ``S3751`` (ERROR ``EndpointConfiguration``).
    """
    for service in model.shapes_with_trait(APIGATEWAY_ENDPOINT_CONFIGURATION):
        value = service.traits[APIGATEWAY_ENDPOINT_CONFIGURATION]
        if service.type != "service" or not isinstance(value, dict):
            continue
        ip = value.get("ipAddressType")
        types = value.get("types") if isinstance(value.get("types"), list) else []
        if ip is not None and "PRIVATE" in types and ip != "dualstack":
            yield diag(model, "S3751", None, service.id,
                       f"The `PRIVATE` endpoint type requires `ipAddressType` to be `dualstack`, but found `{ip}`.",
                       hint='set `ipAddressType: "dualstack"`')


@validator(Code("S3752", Severity.DANGER, "GatewayResponsesCors",
                "a service has both `@aws.apigateway#gatewayResponses` and `@cors` (responses override CORS "
                "headers)"),
           rule="reference GatewayResponsesCorsValidator (smithy-aws-apigateway-traits); "
                "amazon-apigateway.rst, aws.apigateway#gatewayResponses trait, Validation",
           packages=("aws.apigateway",))
def check_gateway_responses_cors(model: Model) -> Iterable[Diagnostic]:
    """``@gatewayResponses`` and ``@cors`` on one service is a danger.

    Spec: aws/amazon-apigateway.rst §"aws.apigateway#gatewayResponses trait"; reference
    ``GatewayResponsesCorsValidator``. Code ``S3752`` (DANGER ``GatewayResponsesCors``).
    """
    for service in model.of_type("service"):
        if APIGATEWAY_GATEWAY_RESPONSES in service.traits and CORS in service.traits:
            yield diag(model, "S3752", None, service.id,
                       "Service has both @gatewayResponses and @cors applied. Gateway response parameters take "
                       "precedence over CORS-generated headers. Verify that response parameters in @gatewayResponses "
                       "do not unintentionally override CORS headers.",
                       hint="suppress GatewayResponsesCors once the response parameters are checked")


__all__ = ["check_authorizers", "check_endpoint_configuration", "check_gateway_responses_cors"]
