"""Validators of the ``aws.auth`` trait package (aws-auth.rst): the signing names of
``@aws.auth#sigv4`` and ``@aws.auth#sigv4a`` (reference ``SigV4TraitsValidator``,
smithy-aws-traits).
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity
from smithy2cfn.model.nodes import as_object
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.validation.support.events import distinct, event
from smithy2cfn.validation.support.shapes import arn_namespace, service_trait

SIGV4 = "aws.auth#sigv4"
SIGV4A = "aws.auth#sigv4a"


@validator(Code("S3507", Severity.WARNING, "SigV4Traits",
                "`arnNamespace`, `@sigv4(name)` and `@sigv4a(name)` differ"),
           rule="reference SigV4TraitsValidator (smithy-aws-traits); aws-auth.rst, aws.auth#sigv4 trait and "
                "aws.auth#sigv4a trait: the signing names match the ARN namespace",
           packages=("aws.api", "aws.auth", "aws.protocols"))
@distinct
def check_sigv4_traits(model: Model) -> Iterable[Diagnostic]:
    """``aws.api#service(arnNamespace)``, ``@sigv4(name)`` and ``@sigv4a(name)`` SHOULD be
    equal.

    Spec: aws-auth.rst §"aws.auth#sigv4 trait" / §"aws.auth#sigv4a trait". Reference
    ``SigV4TraitsValidator`` (event ``SigV4Traits``, WARNING).
    """
    def mismatch(service: Shape, m1: str, v1: str, m2: str, v2: str) -> Diagnostic:
        return event(model, "S3507", service.id,
                     f"Value for `{m1}` \"{v1}\" and value for `{m2}` \"{v2}\" SHOULD match.",
                     hint="use the same signing name in each trait")

    for service in model.of_type("service"):
        v4 = as_object(service.traits.get(SIGV4)).get("name") if SIGV4 in service.traits else None
        v4a = as_object(service.traits.get(SIGV4A)).get("name") if SIGV4A in service.traits else None
        if service_trait(service) is not None:
            namespace = arn_namespace(service)
            if isinstance(v4, str) and v4 != namespace:
                yield mismatch(service, "aws.api#service$arnNamespace", namespace, "aws.auth#sigv4$name", v4)
            if isinstance(v4a, str) and v4a != namespace:
                yield mismatch(service, "aws.api#service$arnNamespace", namespace, "aws.auth#sigv4a$name", v4a)
        if isinstance(v4, str) and isinstance(v4a, str) and v4 != v4a:
            yield mismatch(service, "aws.auth#sigv4$name", v4, "aws.auth#sigv4a$name", v4a)


__all__ = ["check_sigv4_traits"]
