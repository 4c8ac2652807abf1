"""smithy-protocol-traits: ``smithy.protocols#rpcv2Cbor`` and ``#rpcv2Json`` (protocols/smithy-rpc-v2.rst).

Reference ``Rpcv2CborTraitValidator`` / ``Rpcv2JsonTraitValidator`` (``Rpcv2ProtocolTraitValidator``):
every value of the trait's ``eventStreamHttp`` list must also be in its ``http`` list (both
default to empty) — ERROR ``Rpcv2CborTrait`` / ``Rpcv2JsonTrait`` on the service. The
protocol's other constraint (``rpcv2Cbor.NoDocuments``, DANGER) is a ``@traitValidators``
entry of the trait definition, run by :mod:`smithy2cfn.validation.core.trait_validators`.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import RPCV2_CBOR, RPCV2_JSON
from smithy2cfn.validation.support.events import at_trait, diag

_EVENTS = {RPCV2_CBOR: "Rpcv2CborTrait", RPCV2_JSON: "Rpcv2JsonTrait"}


@validator(Code("S3740", Severity.ERROR, "Rpcv2CborTrait",
                "an `eventStreamHttp` value of `@rpcv2Cbor`/`@rpcv2Json` is not in its `http` list (Rpcv2JsonTrait "
                "for rpcv2Json)"),
           rule="reference Rpcv2CborTraitValidator and Rpcv2JsonTraitValidator (smithy-protocol-traits, Rpcv2ProtocolTraitValidator); Smithy protocols/smithy-rpc-v2-cbor.rst and smithy-rpc-v2-json.rst, the eventStreamHttp property of the protocol trait (a subset of http)",
           packages=("smithy.protocols",))
def check_rpcv2_event_stream_http(model: Model) -> Iterable[Diagnostic]:
    """``eventStreamHttp`` lists only HTTP versions that ``http`` lists too.

    Spec: protocols/smithy-rpc-v2.rst §"smithy.protocols#rpcv2Cbor trait" (``eventStreamHttp``
    "MUST be a subset of the http list"); reference ``Rpcv2ProtocolTraitValidator``. Code
    ``S3740`` (ERROR ``Rpcv2CborTrait`` or ``Rpcv2JsonTrait``).
    """
    for trait, event in _EVENTS.items():
        for service in model.shapes_with_trait(trait):
            value = service.traits[trait]
            if service.type != "service" or not isinstance(value, dict):
                continue
            http = value.get("http") if isinstance(value.get("http"), list) else []
            stream = value.get("eventStreamHttp") if isinstance(value.get("eventStreamHttp"), list) else []
            invalid = [v for v in stream if v not in http]
            if invalid:
                yield at_trait(model, diag(
                    model, "S3740", None, service.id,
                    "The following values of the `eventStreamHttp` property do not also appear in the `http` "
                    f"property of the {trait} protocol trait: [{listed(invalid)}]",
                    event, hint="add these versions to `http`, or remove them from `eventStreamHttp`"), trait)


__all__ = ["check_rpcv2_event_stream_http"]
