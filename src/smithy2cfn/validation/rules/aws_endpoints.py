"""smithy-aws-endpoints: the special-case endpoint patterns of
``aws.endpoints#standardRegionalEndpoints`` and ``#standardPartitionalEndpoints``
(aws/aws-endpoints-region.rst).

Reference ``AwsSpecialCaseEndpointValidator``: each special case's ``endpoint`` pattern may only
use the ``{region}``, ``{service}``, ``{dnsSuffix}`` and ``{dualStackDnsSuffix}`` placeholders
(DANGER ``AwsSpecialCaseEndpoint.UnsupportedEndpointPattern``), should start with ``http://``
or ``https://`` (DANGER ``...InvalidEndpointPatternScheme``), and must be a URL once the braces
are removed (ERROR ``...InvalidEndpointPatternUrl``). The rule-set side of the package
(``RuleSetAwsBuiltInValidator``, the AWS auth schemes) is in
:mod:`smithy2cfn.validation.rules.ruleset`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import AWS_ENDPOINTS_STANDARD_PARTITIONAL, AWS_ENDPOINTS_STANDARD_REGIONAL
from smithy2cfn.regexes import lazy
from smithy2cfn.validation.support.events import at_trait, diag

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SUPPORTED_PATTERNS = ("{region}", "{service}", "{dnsSuffix}", "{dualStackDnsSuffix}")
_PLACEHOLDER = lazy(r"\{[^}]*\}")
#: Protocols ``java.net.URL`` knows without extra handlers.
_URL_PROTOCOLS = ("http", "https", "ftp", "file", "jar")
_URI_TEXT = lazy(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*\Z")


def is_valid_url(pattern: str) -> bool:
    """Whether the pattern without its braces is a URL (reference: ``new URL(url).toURI()``):
    a protocol ``java.net.URL`` knows, and only characters a URI may hold."""
    url = pattern.replace("{", "").replace("}", "")
    scheme, colon, rest = url.partition(":")
    if not colon or scheme.lower() not in _URL_PROTOCOLS:
        return False
    return bool(_URI_TEXT.match(rest))


def _endpoints(value: Any, keys: tuple[str, ...]) -> Iterator[str]:
    """The ``endpoint`` strings of the special-case maps ``keys`` of a trait value."""
    if not isinstance(value, dict):
        return
    for key in keys:
        cases = value.get(key)
        for entries in (cases.values() if isinstance(cases, dict) else ()):
            for entry in (entries if isinstance(entries, list) else ()):
                endpoint = entry.get("endpoint") if isinstance(entry, dict) else None
                if isinstance(endpoint, str):
                    yield endpoint


@validator(Code("S3801", Severity.DANGER, "AwsSpecialCaseEndpoint.UnsupportedEndpointPattern",
                "a special-case endpoint pattern uses a placeholder other than `{region}`, `{service}`, "
                "`{dnsSuffix}`, `{dualStackDnsSuffix}`"),
           Code("S3802", Severity.DANGER, "AwsSpecialCaseEndpoint.InvalidEndpointPatternScheme",
                "a special-case endpoint pattern does not start with `http://` or `https://`"),
           Code("S3803", Severity.ERROR, "AwsSpecialCaseEndpoint.InvalidEndpointPatternUrl",
                "a special-case endpoint pattern is not a URL once its braces are removed"),
           rule="reference AwsSpecialCaseEndpointValidator (smithy-aws-endpoints); Smithy aws/aws-endpoints-region.rst, aws.endpoints#standardRegionalEndpoints and aws.endpoints#standardPartitionalEndpoints traits (endpoint)",
           packages=("aws.endpoints",))
def check_special_case_endpoints(model: Model) -> Iterable[Diagnostic]:
    """Special-case endpoint patterns use known placeholders and are ``http(s)`` URLs.

    Spec: aws/aws-endpoints-region.rst (``endpoint``: "a URL template ... supports
    {region}, {service}, {dnsSuffix}, {dualStackDnsSuffix}"); reference
    ``AwsSpecialCaseEndpointValidator``. Codes ``S3801`` (DANGER, unsupported placeholder),
    ``S3802`` (DANGER, no ``http(s)://``), ``S3803`` (ERROR, not a URL).
    """
    sources = ((AWS_ENDPOINTS_STANDARD_REGIONAL, ("regionSpecialCases", "partitionSpecialCases")),
               (AWS_ENDPOINTS_STANDARD_PARTITIONAL, ("partitionEndpointSpecialCases",)))
    for trait, keys in sources:
        for service in model.shapes_with_trait(trait):
            if service.type != "service":
                continue
            for endpoint in _endpoints(service.traits[trait], keys):
                unsupported = [m.group() for m in _PLACEHOLDER.finditer(endpoint)
                               if m.group() not in SUPPORTED_PATTERNS]
                if unsupported:
                    yield at_trait(model, diag(
                        model, "S3801", None, service.id,
                        f"Endpoint `{endpoint}` contains unsupported patterns: {', '.join(unsupported)}",
                        hint=f"use only {', '.join(SUPPORTED_PATTERNS)}"), trait)
                if not (endpoint.startswith("http://") or endpoint.startswith("https://")):
                    yield at_trait(model, diag(
                        model, "S3802", None, service.id,
                        f"Endpoint `{endpoint}` should start with scheme `http://` or `https://`",
                        hint="start the pattern with https://"), trait)
                if not is_valid_url(endpoint):
                    yield at_trait(model, diag(model, "S3803", None, service.id,
                                               f"Endpoint `{endpoint}` should be a valid URL.",
                                               hint="remove spaces and characters a URL cannot hold"), trait)


__all__ = ["SUPPORTED_PATTERNS", "check_special_case_endpoints", "is_valid_url"]
