"""Traits of the service and operation rules whose value the reference cannot build.

The reference turns each value of a trait that has a Java class into that class while it
assembles the model (its ``TraitService`` providers). A value the provider cannot read
(a member missing or of the wrong node type, an entry that is no shape ID, ``@error``
neither ``client`` nor ``server``...) fails there: an ERROR ``Model`` event "Error creating
trait `name`: reason" on the shape the trait is applied to, and the trait is not attached,
so the trait value checks never see it. :func:`check_trait_creation` reports these events
with the providers' messages (``ObjectNode.expectStringMember`` and friends) for the traits
of this task: ``error``, ``http``, ``httpError``, ``httpHeader``, ``httpQuery``,
``httpApiKeyAuth``, ``endpoint``, ``auth``, ``requestCompression``, ``paginated``,
``idempotent``, ``references`` and ``examples``, and the selectors of ``trait``, ``idRef``
and ``traitValidators`` (``Selector.fromNode``: a syntax error). A URI or host prefix
that does not parse is reported by :func:`smithy2cfn.validation.core.http.check_http_patterns`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Diagnostic
from smithy2cfn.languages.selector import SelectorError, SelectorTooDeep, parse_selector
from smithy2cfn.model.knowledge_http import HttpBindingIndex
from smithy2cfn.model.nodes import node_type
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import (
    AUTH,
    ENDPOINT,
    ERROR,
    EXAMPLES,
    HTTP,
    HTTP_API_KEY_AUTH,
    HTTP_ERROR,
    HTTP_HEADER,
    HTTP_QUERY,
    ID_REF,
    IDEMPOTENT,
    PAGINATED,
    REFERENCES,
    REQUEST_COMPRESSION,
    TRAIT,
    TRAIT_VALIDATORS,
)
from smithy2cfn.regexes import lazy
from smithy2cfn.validation.support.events import event
from smithy2cfn.validation.support.shapes import user_nodes_with_traits

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: An absolute shape ID, as the reference's ``ShapeId.from`` accepts it (model.rst §"Shape ID").
ABSOLUTE_ID = lazy(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*#[A-Za-z_][A-Za-z0-9_]*"
                   r"(?:\$[A-Za-z_][A-Za-z0-9_]*)?")


class _Unreadable(Exception):
    """A provider's ``ExpectationNotMetException``/``SourceException``: the message."""


def _expect(value: Any, kind: str) -> Any:
    """``Node.expect<Kind>Node()``: "Expected object, but found string." when not ``kind``."""
    if node_type(value) != kind:
        raise _Unreadable(f"Expected {kind}, but found {node_type(value)}.")
    return value


def _member(value: dict, name: str, kind: str, required: bool = True) -> Any:
    """``ObjectNode.expect<Kind>Member(name)`` (``required``) or ``get<Kind>Member``."""
    if name not in value:
        if required:
            raise _Unreadable(f"Missing expected member `{name}`.")
        return None
    if node_type(value[name]) != kind:
        article = "an" if kind[0] in "aeiou" else "a"
        raise _Unreadable(f"Expected `{name}` member to be {article} {kind}, but found {node_type(value[name])}."
                          if required else f"Expected `{name}` to be {article} {kind}; found {node_type(value[name])}")
    return value[name]


def _error(value: Any) -> None:
    if _expect(value, "string") not in ("client", "server"):
        raise _Unreadable(f"error trait must be set to client or server, found `{value}`")


def _http(value: Any) -> None:
    _member(_expect(value, "object"), "uri", "string")
    _member(value, "method", "string")
    _member(value, "code", "number", required=False)


def _http_error(value: Any) -> None:
    _expect(value, "number")


def _non_empty(trait: str, what: str) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        if _expect(value, "string") == "":
            raise _Unreadable(f"{trait} {what} binding must not be empty")
    return check


def _api_key(value: Any) -> None:
    _member(_expect(value, "object"), "scheme", "string", required=False)
    _member(value, "name", "string")
    location = _member(value, "in", "string", required=False)
    if location is None:
        raise _Unreadable("in was not set on the builder")
    if location not in ("header", "query"):
        raise _Unreadable(f"Invalid location type: {location}")


def _shape_id(value: Any) -> None:
    """``ShapeId.fromNode``: a string holding an absolute shape ID."""
    if not ABSOLUTE_ID.fullmatch(_expect(value, "string")):
        raise _Unreadable(f"Invalid shape ID: {value}")


def _elements(value: Any, kind: str) -> list:
    """``ArrayNode.getElementsAs``: every element of ``kind``."""
    for i, element in enumerate(_expect(value, "array")):
        if node_type(element) != kind:
            raise _Unreadable(f"Expected array element {i} to be a {kind} but found {node_type(element)}.")
    return value


def _paginated(value: Any) -> None:
    for name in ("pageSize", "items", "inputToken", "outputToken"):
        _member(_expect(value, "object"), name, "string", required=False)


def _idempotent(value: Any) -> None:
    for name in ("exists", "notFound"):
        for entry in _member(_expect(value, "object"), name, "array", required=False) or ():
            _shape_id(entry)


def _references(value: Any) -> None:
    for reference in _elements(value, "object"):
        _shape_id(_member(reference, "resource", "string"))
        for target in (_member(reference, "ids", "object", required=False) or {}).values():
            _expect(target, "string")
        if "service" in reference:
            _shape_id(reference["service"])
        _member(reference, "rel", "string", required=False)


def _examples(value: Any) -> None:
    for example in _elements(value, "object"):
        for name, kind in (("title", "string"), ("documentation", "string"), ("input", "object"),
                           ("output", "object")):
            _member(example, name, kind, required=False)
        if "error" in example:
            error = _expect(example["error"], "object")
            _shape_id(_member(error, "shapeId", "string"))
            # ErrorExample.fromNode's expectObjectMember(name, consumer) is optional, as
            # getObjectMember is (iot-managed-integrations has error examples without content)
            _member(error, "content", "object", required=False)
        _member(example, "allowConstraintErrors", "boolean", required=False)


def _endpoint(value: Any) -> None:
    _member(_expect(value, "object"), "hostPrefix", "string")


def _auth(value: Any) -> None:
    for entry in _expect(value, "array"):
        _shape_id(entry)


def _request_compression(value: Any) -> None:
    for entry in _member(_expect(value, "object"), "encodings", "array"):
        _expect(entry, "string")


def _selector(value: Any) -> None:
    """``Selector.fromNode``: a string that parses as a selector (one nested too deeply is
    this implementation's limit, reported by ``check_selectors`` / ``check_trait_validators``)."""
    try:
        parse_selector(_expect(value, "string"))
    except SelectorTooDeep:
        return
    except SelectorError as e:
        raise _Unreadable(str(e)) from None


def _trait(value: Any) -> None:
    """``TraitDefinition.Provider``: its ``selector`` (a ``null`` value is an empty object;
    the other members' shapes are checked as the trait's value)."""
    if isinstance(value, dict) and "selector" in value:
        _selector(value["selector"])


def _id_ref(value: Any) -> None:
    """``IdRefTrait.Provider``: its ``selector``."""
    if isinstance(value, dict) and "selector" in value:
        _selector(value["selector"])


def _trait_validators(value: Any) -> None:
    """``TraitValidatorsTrait.Provider``: each validator's ``selector``."""
    for entry in (value.values() if isinstance(value, dict) else ()):
        if isinstance(entry, dict) and "selector" in entry:
            _selector(entry["selector"])


#: trait → (its name in messages, the provider's reading of a value).
_PROVIDERS: dict[str, tuple[str, Callable[[Any], None]]] = {
    ERROR: ("error", _error),
    HTTP: ("http", _http),
    HTTP_ERROR: ("httpError", _http_error),
    HTTP_HEADER: ("httpHeader", _non_empty("httpHeader", "field name")),
    HTTP_QUERY: ("httpQuery", _non_empty("httpQuery", "parameter name")),
    HTTP_API_KEY_AUTH: ("httpApiKeyAuth", _api_key),
    ENDPOINT: ("endpoint", _endpoint),
    AUTH: ("auth", _auth),
    REQUEST_COMPRESSION: ("requestCompression", _request_compression),
    PAGINATED: ("paginated", _paginated),
    IDEMPOTENT: ("idempotent", _idempotent),
    REFERENCES: ("references", _references),
    EXAMPLES: ("examples", _examples),
    TRAIT: ("trait", _trait),
    ID_REF: ("idRef", _id_ref),
    TRAIT_VALIDATORS: ("traitValidators", _trait_validators),
}


#: The traits :func:`check_trait_creation` reads.
_READ = frozenset(_PROVIDERS)


@validator("S3374",
           rule="reference trait providers (TraitService) through LoaderTraitMap.createTrait (smithy-model, "
                "at "
                "load); Smithy 2.0 model.rst, Trait node values, and the value shape of each trait")
def check_trait_creation(model: Model) -> Iterable[Diagnostic]:
    """Values of the traits above that the reference's trait providers cannot read.

    Spec: the value shapes of http-traits.rst (``http``, ``httpError``, ``httpHeader``,
    ``httpQuery``), authentication-traits.rst (``httpApiKeyAuth``, ``auth``),
    endpoint-traits.rst (``endpoint``), type-refinement-traits.rst (``error``) and
    behavior-traits.rst (``requestCompression``, ``paginated``, ``idempotent``),
    resource-traits.rst (``references``), documentation-traits.rst (``examples``). Reference: ``HttpTrait.Provider``,
    ``HttpErrorTrait.Provider``, ``HttpHeaderTrait``/``HttpQueryTrait`` (an empty name),
    ``HttpApiKeyAuthTrait.Provider`` (``Location.fromString``), ``EndpointTrait.Provider``,
    ``AuthTrait.Provider`` (``ShapeId.fromNode``), ``ErrorTrait``,
    ``RequestCompressionTrait.Provider``, ``PaginatedTrait.Provider``,
    ``IdempotentTrait.fromNode``, ``ReferencesTrait.Provider``, ``ExamplesTrait.Provider``,
    ``TraitDefinition.Provider``, ``IdRefTrait.Provider`` and ``TraitValidatorsTrait.Provider``
    (``Selector.fromNode``) (the loader's ``LoaderTraitMap.createTrait`` turns what they throw into an) ERROR
    ``Model`` "Error creating trait `name`:
    reason", located at the trait, one per trait value (the first problem the provider meets).
    """
    index = model.knowledge(HttpBindingIndex)
    for node_id, traits in user_nodes_with_traits(model):
        if _READ.isdisjoint(traits):
            continue  # (most shapes and members: none of these traits, nothing to read)
        for trait, (name, read) in _PROVIDERS.items():
            if traits.get(trait) is None:
                continue  # no value at all: the loader reports it
            if trait == HTTP and index.uri_error(node_id):
                continue  # the provider parses the URI first: check_http_patterns reports it
            try:
                read(traits[trait])
            except _Unreadable as problem:
                yield event(model, "S3374", node_id, f"Error creating trait `{name}`: {problem}", trait=trait,
                            hint=f"give @{name} a value of the shape its definition has")


__all__ = ["ABSOLUTE_ID", "check_trait_creation"]
