"""HTTP binding and endpoint checks (http-bindings.rst, endpoint-traits.rst, authentication-traits.rst).

One function per reference validator of ``software.amazon.smithy.model.validation.validators``
(named in each docstring), reading the bindings of :class:`~smithy2cfn.model.knowledge_http.HttpBindingIndex`.
Events carry the reference's event IDs (``HttpHeaderTrait``, ``HttpUriConflict``,
``HttpMethodSemantics.UnexpectedPayload``...) on the reference's shapes, at its severities;
events the reference places at a trait are located at that trait.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.languages.patterns import PatternMatcher
from smithy2cfn.model.knowledge import TopDownIndex
from smithy2cfn.model.knowledge_http import (
    DOCUMENT,
    LABEL,
    PAYLOAD,
    UNBOUND,
    HttpBindingIndex,
    Pattern,
    PatternError,
    UriPattern,
    endpoint_host_prefix,
    parse_host_prefix,
)
from smithy2cfn.model.knowledge_ops import OperationIndex, ServiceIndex, id_sort_key, sorted_ids
from smithy2cfn.model.relationships import NeighborIndex, RelationshipType, Walker
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.model.traits import (
    ENDPOINT,
    ERROR,
    HOST_LABEL,
    HTTP,
    HTTP_API_KEY_AUTH,
    HTTP_ERROR,
    HTTP_HEADER,
    HTTP_LABEL,
    HTTP_PAYLOAD,
    HTTP_PREFIX_HEADERS,
    HTTP_QUERY,
    HTTP_QUERY_PARAMS,
    HTTP_RESPONSE_CODE,
    IDEMPOTENT,
    MIXIN,
    PATTERN,
    READONLY,
)
from smithy2cfn.regexes import lazy
from smithy2cfn.validation.support.events import event, idiomatic, relationships_text, ticked
from smithy2cfn.validation.support.shapes import (
    members_having,
    shapes_having,
    shapes_of_type,
    shapes_with_members_having,
    trait_applied,
)


def _operations_with(model: Model, trait_id: str) -> list[Shape]:
    return [s for s in shapes_having(model, trait_id) if s.type == "operation"]


def _http_uri(model: Model, operation: Shape) -> UriPattern | None:
    return model.knowledge(HttpBindingIndex).uri(operation.id)


# ----------------------------------------------------------------------------- trait values


@validator(Code("S3369", Severity.ERROR, "HttpUriFormat", "an `@http` URI that is not US-ASCII"),
           "S3374",
           rule="reference HttpUriFormatValidator and the HttpTrait/EndpointTrait providers (smithy-model); "
                "Smithy 2.0 http-bindings.rst, uri, and endpoint-traits.rst, hostPrefix")
def check_http_patterns(model: Model) -> Iterable[Diagnostic]:
    """``@http`` URIs and ``@endpoint`` host prefixes parse, and URIs are ASCII.

    Spec: http-bindings.rst §"uri" (pattern rules), endpoint-traits.rst §"hostPrefix".
    Reference: the ``HttpTrait``/``EndpointTrait`` providers (a pattern that does not parse is
    a ``Model`` error, "Error creating trait"), and ``HttpUriFormatValidator`` (a URI that
    is not US-ASCII).
    """
    # (only operations with @http or @endpoint, in model order)
    marked = {shape.id for trait in (HTTP, ENDPOINT) for shape in shapes_having(model, trait)}
    if not marked:
        return
    index = model.knowledge(HttpBindingIndex)
    for shape in shapes_of_type(model, "operation"):
        if shape.id not in marked:
            continue
        if HTTP in shape.traits:
            reason = index.uri_error(shape.id)
            uri = index.uri(shape.id)
            if reason:
                yield event(model, "S3374", shape.id, f"Error creating trait `http`: {reason}", trait=HTTP,
                            hint="fix the `uri` of the @http trait (http-bindings.rst §uri)")
            elif uri is not None and not uri.text.isascii():
                yield event(model, "S3369", shape.id, f"@http trait `uri` is invalid: {uri.text}", trait=HTTP,
                            hint="percent-encode characters outside US-ASCII")
        prefix = endpoint_host_prefix(shape)
        if prefix is not None:
            try:
                parse_host_prefix(prefix)
            except PatternError as e:
                yield event(model, "S3374", shape.id, f"Error creating trait `endpoint`: {e}", trait=ENDPOINT,
                            hint="fix the `hostPrefix` of the @endpoint trait (endpoint-traits.rst §hostPrefix)")


# ----------------------------------------------------------------------------- bindings


@validator(Code("S3360", Severity.ERROR, "HttpBindingsMissing",
               "an operation of a service whose other operations (or protocol) need `@http` has none",
               also=(Severity.WARNING,)),
           rule="reference HttpBindingsMissingValidator (smithy-model); Smithy 2.0 http-bindings.rst, http trait")
def check_http_bindings_missing(model: Model) -> Iterable[Diagnostic]:
    """When some operations of a service have ``@http``, all of them do.

    Spec: http-bindings.rst §"http trait". Reference: ``HttpBindingsMissingValidator``: an
    ERROR for each operation without ``@http`` in a service whose protocol (its
    ``@protocolDefinition`` lists ``smithy.api#http``) requires the bindings, else a WARNING
    when another operation of the service has them.
    """
    if not shapes_having(model, HTTP):
        return
    top_down = model.knowledge(TopDownIndex)
    services = model.knowledge(ServiceIndex)
    for service in shapes_of_type(model, "service"):
        operations = [model.shapes[o] for o in top_down.contained_operations(service.id)]
        protocol = next((p for p in services.protocols(service.id)
                         if HTTP in (services.protocol_definition(p).get("traits") or [])), None)
        if protocol is not None:
            severity, reason = Severity.ERROR, f"The `{protocol}` protocol requires all"
        elif any(HTTP in o.traits for o in operations):
            severity, reason = Severity.WARNING, "One or more"
        else:
            continue
        for op in operations:
            if HTTP not in op.traits:
                yield event(model, "S3360", op.id,
                            f"{reason} operations in the `{service.id}` service define the `http` trait, but this "
                            "operation is missing the `http` trait.", severity=severity,
                            hint="add an @http trait to the operation")


_IGNORED_OUTSIDE_INPUT = (HTTP_LABEL, HTTP_QUERY_PARAMS, HTTP_QUERY)
_IGNORED_OUTSIDE_OUTPUT = (HTTP_RESPONSE_CODE,)
_HTTP_MEMBER_BINDING_TRAITS = (HTTP_HEADER, HTTP_LABEL, HTTP_PAYLOAD, HTTP_PREFIX_HEADERS, HTTP_QUERY_PARAMS,
                               HTTP_QUERY, HTTP_RESPONSE_CODE)


@validator(Code("S3361", Severity.WARNING, "HttpBindingTraitIgnored",
               "an HTTP binding trait on a member where it has no effect"),
           rule="reference HttpBindingTraitIgnoredValidator (smithy-model); Smithy 2.0 http-bindings.rst, "
                "HTTP message bindings")
def check_http_binding_traits_ignored(model: Model) -> Iterable[Diagnostic]:
    """HTTP member binding traits only act on the top level of an input, output or error.

    Spec: http-bindings.rst §"HTTP message bindings" (the binding traits are ignored
    elsewhere). Reference: ``HttpBindingTraitIgnoredValidator`` (WARNING
    ``HttpBindingTraitIgnored.Input``/``.Output``/``.TopLevel``).
    """
    # (only structures with a member carrying a binding trait, in model order)
    bound = {shape.id for trait in _HTTP_MEMBER_BINDING_TRAITS for shape in shapes_with_members_having(model, trait)}
    if not bound:
        return
    reverse = model.knowledge(NeighborIndex)
    for container in shapes_of_type(model, "structure"):
        if container.id not in bound or MIXIN in container.traits:
            continue
        rels = None
        for member in container.members.values():
            traits = [t for t in _HTTP_MEMBER_BINDING_TRAITS if t in member.traits]
            if not traits:
                continue
            if rels is None:
                rels = reverse.reverse(container.id)
            outside_input = [t for t in _IGNORED_OUTSIDE_INPUT if t in traits]
            outside_output = [t for t in _IGNORED_OUTSIDE_OUTPUT if t in traits]
            ignored: dict[RelationshipType, list[str]] = {}
            checked = 0
            for rel in rels:
                if rel.type is RelationshipType.MEMBER_CONTAINER:
                    continue
                checked += 1
                if rel.type is not RelationshipType.INPUT and outside_input:
                    ignored.setdefault(rel.type, []).append(rel.shape)
                elif rel.type is not RelationshipType.OUTPUT and outside_output:
                    ignored.setdefault(rel.type, []).append(rel.shape)
                elif rel.type not in (RelationshipType.INPUT, RelationshipType.OUTPUT, RelationshipType.ERROR):
                    ignored.setdefault(rel.type, []).append(rel.shape)
            if not ignored:
                continue
            if outside_input:
                kind, trait = "Input", outside_input[0]
            elif outside_output:
                kind, trait = "Output", outside_output[0]
            else:
                kind, trait = "TopLevel", traits[0]
            mixed = " mixed in" if member.from_mixin else ""
            where = ("ignored in all contexts." if checked == len(ignored)
                     else f"ignored in some contexts: {relationships_text(ignored)}")
            yield event(model, "S3361", member.id,
                        f"The `{idiomatic(trait)}` trait applied to this{mixed} member is {where}", trait=trait,
                        event_id=f"HttpBindingTraitIgnored.{kind}",
                        hint="bind the member at the top level of an operation input, output or error, or "
                             "remove the trait")


# RFC 9110 §5.6.2 token characters
_TCHAR = frozenset("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_HEADER_BLOCKLIST = frozenset({
    "authorization", "connection", "content-length", "expect", "host", "max-forwards",
    "proxy-authenticate", "server", "te", "trailer", "transfer-encoding", "upgrade", "user-agent",
    "www-authenticate", "x-forwarded-for",
})


@validator(Code("S3362", Severity.ERROR, "HttpHeaderTrait",
               "two members bind one header, or a header name is restricted or not an RFC 9110 token",
               also=(Severity.DANGER,)),
           rule="reference HttpHeaderTraitValidator (smithy-model); Smithy 2.0 http-bindings.rst, httpHeader trait")
def check_http_header_traits(model: Model) -> Iterable[Diagnostic]:
    """``@httpHeader`` names are valid, allowed and unique within a structure.

    Spec: http-bindings.rst §"httpHeader trait" (restricted headers; field names are RFC 9110
    tokens; header names are case-insensitive). Reference: ``HttpHeaderTraitValidator``.
    """
    if not trait_applied(model, HTTP_HEADER):
        return
    for structure in shapes_of_type(model, "structure"):
        groups: dict[str, list[str]] = {}
        for m in structure.members.values():
            name = m.traits.get(HTTP_HEADER)
            if isinstance(name, str):
                groups.setdefault(name.lower(), []).append(m.name)
        for header, names in groups.items():
            if len(names) > 1:
                yield event(model, "S3362", structure.id,
                            f"`httpHeader` field name binding conflicts found for the `{header}` header in the "
                            f"following structure members: {ticked(names)}",
                            hint="bind each header to one member only (header names are case-insensitive)")
    for member in members_having(model, HTTP_HEADER):
        header = member.traits.get(HTTP_HEADER)
        if not isinstance(header, str):
            continue
        if header.lower() in _HEADER_BLOCKLIST:
            yield event(model, "S3362", member.id, f"`{header}` is not an allowed HTTP header binding",
                        trait=HTTP_HEADER, severity=Severity.DANGER,
                        hint="this header is controlled by the HTTP stack; bind another header")
        elif any(c not in _TCHAR for c in header):
            yield event(model, "S3362", member.id,
                        f"`{header}` is not a valid HTTP header field name according to section 5.6.2 of RFC 9110",
                        trait=HTTP_HEADER, severity=Severity.DANGER,
                        hint="use only letters, digits and !#$%&'*+-.^_`|~")


@validator(Code("S3363", Severity.ERROR, "HttpLabelTrait",
               "a URI label without its `@httpLabel` member, or the reverse; a greedy label not bound to a string"),
           rule="reference HttpLabelTraitValidator (smithy-model); Smithy 2.0 http-bindings.rst, httpLabel trait")
def check_http_label_traits(model: Model) -> Iterable[Diagnostic]:
    """Every URI label has an ``@httpLabel`` input member and every such member a label;
    greedy labels bind strings.

    Spec: http-bindings.rst §"httpLabel trait" (label binding rules). Reference:
    ``HttpLabelTraitValidator``.
    """
    ops = model.knowledge(OperationIndex)
    for operation in _operations_with(model, HTTP):
        uri = _http_uri(model, operation)
        structure = ops.input_shape(operation.id)
        if uri is None or structure is None:
            continue
        labels = {s.content for s in uri.labels}
        for member in structure.members.values():
            if HTTP_LABEL not in member.traits:
                continue
            labels.discard(member.name)
            segment = uri.label(member.name)
            if segment is None:
                yield event(model, "S3363", member.id,
                            f"This `{member.name}` structure member is marked with the `httpLabel` trait, but no "
                            f"corresponding `http` URI label could be found when used as the input of the "
                            f"`{operation.id}` operation.", trait=HTTP_LABEL,
                            hint=f"add a `{{{member.name}}}` label to the URI, or remove @httpLabel")
            elif segment.is_greedy:
                target = model.shapes.get(member.target)
                if target is not None and target.type not in ("string", "enum"):
                    yield event(model, "S3363", member.id,
                                f"The `{member.name}` structure member corresponds to a greedy label when used as "
                                f"the input of the `{operation.id}` operation. This member targets ({target.type}: "
                                f"`{target.id}`), but greedy labels must target string shapes.", trait=HTTP_LABEL)
        if labels:
            yield event(model, "S3363", operation.id,
                        f"This operation uses `{structure.id}` as input, but the following URI labels found in the "
                        f"operation's `http` trait do not have a corresponding member marked with the `httpLabel` "
                        f"trait: {ticked(labels)}",
                        hint="add @required @httpLabel input members named like the labels")


@validator(Code("S3364", Severity.ERROR, "HttpQueryTrait",
               "two members bind one query parameter, or one the URI sets literally"),
           rule="reference HttpQueryTraitValidator (smithy-model); Smithy 2.0 http-bindings.rst, httpQuery trait")
def check_http_query_traits(model: Model) -> Iterable[Diagnostic]:
    """``@httpQuery`` names are unique in a structure and do not repeat a query literal of
    the URI.

    Spec: http-bindings.rst §"httpQuery trait". Reference: ``HttpQueryTraitValidator``.
    """
    by_structure: dict[str, dict[str, list[str]]] = {}
    for member in members_having(model, HTTP_QUERY):
        container = model.shapes.get(member.container)
        name = member.traits.get(HTTP_QUERY)
        if container is None or container.type != "structure" or not isinstance(name, str):
            continue
        by_structure.setdefault(container.id, {}).setdefault(name, []).append(member.name)
    if not by_structure:
        return
    ops = model.knowledge(OperationIndex)
    users: dict[str, list[Shape]] = {}
    for operation in _operations_with(model, HTTP):
        structure = ops.input(operation.id)
        if structure is not None:
            users.setdefault(structure.id, []).append(operation)
    for structure_id, params in by_structure.items():
        for param, names in params.items():
            if len(names) > 1:
                yield event(model, "S3364", structure_id,
                            f"`httpQuery` parameter name binding conflicts found for the `{param}` parameter in the "
                            f"following structure members: {ticked(names)}",
                            hint="bind each query parameter to one member only")
        for operation in users.get(structure_id, []):
            uri = _http_uri(model, operation)
            if uri is None:
                continue
            for literal in uri.query_literals:
                if literal in params:
                    yield event(model, "S3364", structure_id,
                                f"`httpQuery` name `{literal}` conflicts with the `http` trait of the "
                                f"`{operation.id}` operation: `{uri.text}`",
                                hint="rename the query parameter or remove the literal from the URI")


@validator(Code("S3365", Severity.NOTE, "HttpQueryParamsTrait", "`@httpQueryParams` next to `@httpQuery` members"),
           rule="reference HttpQueryParamsTraitValidator (smithy-model); Smithy 2.0 http-bindings.rst, "
                "httpQueryParams trait")
def check_http_query_params_traits(model: Model) -> Iterable[Diagnostic]:
    """Note structures that mix ``@httpQueryParams`` with ``@httpQuery`` members.

    Spec: http-bindings.rst §"httpQueryParams trait". Reference:
    ``HttpQueryParamsTraitValidator`` (NOTE).
    """
    for member in members_having(model, HTTP_QUERY_PARAMS):
        container = model.shapes.get(member.container)
        if container is None or container.type != "structure":
            continue
        query = [m.name for m in container.members.values() if HTTP_QUERY in m.traits]
        if query:
            yield event(model, "S3365", container.id,
                        f"Structure member `{member.name}` is marked with the `httpQueryParams` trait, and "
                        f"`httpQuery` traits are applied to the following members: {ticked(query)}. The service "
                        f"will not be able to disambiguate between query string parameters intended for the "
                        f"`{member.name}` member and those explicitly bound to the `httpQuery` members.")


@validator(Code("S3366", Severity.ERROR, "HttpPrefixHeadersTrait",
               "an `@httpHeader` starts with the structure's `@httpPrefixHeaders` prefix", also=(Severity.NOTE,)),
           rule="reference HttpPrefixHeadersTraitValidator (smithy-model); Smithy 2.0 http-bindings.rst, "
                "httpPrefixHeaders trait")
def check_http_prefix_headers_traits(model: Model) -> Iterable[Diagnostic]:
    """No ``@httpHeader`` of a structure starts with its ``@httpPrefixHeaders`` prefix.

    Spec: http-bindings.rst §"httpPrefixHeaders trait" (header bindings must not
    case-insensitively start with the prefix). Reference:
    ``HttpPrefixHeadersTraitValidator`` (ERROR; a NOTE for the empty prefix).
    """
    for member in members_having(model, HTTP_PREFIX_HEADERS):
        container = model.shapes.get(member.container)
        value = member.traits.get(HTTP_PREFIX_HEADERS)
        if container is None or container.type != "structure" or not isinstance(value, str):
            continue
        prefix = value.lower()
        if prefix:
            severity = Severity.ERROR
            detail = "`httpHeader` bindings must not case-insensitively start with any `httpPrefixHeaders` bindings."
        else:
            severity = Severity.NOTE
            detail = (f"The service will not be able to disambiguate between header parameters intended for the "
                      f"`{member.id}` member and those explicitly bound to the `httpHeader` members.")
        for other in container.members.values():
            header = other.traits.get(HTTP_HEADER)
            if isinstance(header, str) and header.lower().startswith(prefix):
                yield event(model, "S3366", other.id,
                            f"`httpHeader` binding of `{header.lower()}` conflicts with the `httpPrefixHeaders` "
                            f"binding of `{member.id}` to `{prefix}`. {detail}", trait=HTTP_HEADER, severity=severity)


@validator(Code("S3372", Severity.ERROR, "HttpPayload", "with an `@httpPayload` member, other members are not bound"),
           rule="reference HttpPayloadValidator (smithy-model); Smithy 2.0 http-bindings.rst, httpPayload trait")
def check_http_payload(model: Model) -> Iterable[Diagnostic]:
    """With an ``@httpPayload`` member, every other member is bound elsewhere.

    Spec: http-bindings.rst §"httpPayload trait" ("If the httpPayload trait is present on a
    structure, then all other members MUST be bound to other parts of the message").
    Reference: ``HttpPayloadValidator``.
    """
    if not trait_applied(model, HTTP_PAYLOAD):
        return
    index = model.knowledge(HttpBindingIndex)
    ops = model.knowledge(OperationIndex)
    todo: list[tuple[str, Shape | None, list]] = []
    for operation in _operations_with(model, HTTP):
        todo.append((operation.id, ops.input_shape(operation.id), index.request_bindings(operation.id)))
        todo.append((operation.id, ops.output_shape(operation.id), index.response_bindings(operation.id)))
    for structure in shapes_having(model, ERROR):
        if structure.type == "structure":
            todo.append((structure.id, structure, index.response_bindings(structure.id)))
    for _subject, structure, bindings in todo:
        unbound = [b.member_name for b in bindings if b.location == UNBOUND]
        if unbound and structure is not None:
            yield event(model, "S3372", structure.id,
                        "A member of this structure is marked with the `httpPayload` trait, but the following "
                        f"structure members are not explicitly bound to the HTTP message: {ticked(unbound)}",
                        hint="bind the other members to headers, the query string or labels, or move them "
                             "into the payload")


# ----------------------------------------------------------------------------- URIs


def _greedy_labels(model: Model) -> Iterable[Diagnostic]:
    for shape in shapes_having(model, HTTP):
        uri = _http_uri(model, shape)
        if uri is None:
            continue
        segments = uri.segments
        for i, s in enumerate(segments):
            if not s.is_greedy:
                continue
            for later in segments[i + 1:]:
                if later.is_greedy:
                    yield event(model, "S3368", shape.id,
                                f"At most one greedy label segment may exist in a pattern: {uri.text}", trait=HTTP,
                                event_id="HttpUriGreedyLabel.MultipleGreedyLabels")
                if later.is_label:
                    yield event(model, "S3368", shape.id,
                                f"A greedy label must be the last label in its pattern: {uri.text}", trait=HTTP,
                                event_id="HttpUriGreedyLabel.GreedyLabelIsNotLastLabel")


@validator(Code("S3368", Severity.DANGER, "HttpUriGreedyLabel",
               "several greedy labels in a URI, or one that is not the last label"),
           rule="reference HttpUriGreedyLabelValidator (smithy-model); Smithy 2.0 http-bindings.rst, Greedy labels")
def check_http_uri_greedy_labels(model: Model) -> Iterable[Diagnostic]:
    """A URI has at most one greedy label, and it is the last label.

    Spec: http-bindings.rst §"Greedy labels". Reference: ``HttpUriGreedyLabelValidator``
    (DANGER ``HttpUriGreedyLabel.MultipleGreedyLabels``/``.GreedyLabelIsNotLastLabel``).
    """
    yield from _greedy_labels(model)


def _label_patterns(model: Model, operation: Shape) -> dict[str, str]:
    """Label name → ``@pattern`` of its member (or the member's target)."""
    out: dict[str, str] = {}
    for b in model.knowledge(HttpBindingIndex).request_bindings(operation.id, LABEL):
        value = b.member.traits.get(PATTERN)
        if value is None:
            target = model.shapes.get(b.member.target)
            value = target.traits.get(PATTERN) if target is not None else None
        if isinstance(value, str):
            out[b.member_name] = value
    return out


def _host_label_patterns(model: Model, operation: Shape) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in model.knowledge(OperationIndex).input_members(operation.id).values():
        value = m.traits.get(PATTERN)
        if HOST_LABEL in m.traits and isinstance(value, str):
            out[m.name] = value
    return out


def _allowable(model: Model, pattern: Pattern, operation: Shape, other_pattern: Pattern, other: Shape,
               patterns_of) -> bool:
    """The reference's ``isAllowableConflict``: every conflicting label/literal segment pair
    is kept apart by a ``@pattern`` on the label's member that the literal does not match."""
    conflicts = pattern.conflicting_label_segments(other_pattern)
    if not conflicts:
        return False
    mine, theirs = patterns_of(model, operation), patterns_of(model, other)
    matcher = model.knowledge(PatternMatcher)
    for a, b in conflicts:
        if a.is_label == b.is_label:
            continue
        if a.is_label:
            regex, literal = mine.get(a.content), b.content
        else:
            regex, literal = theirs.get(b.content), a.content
        if regex is None or matcher.search(regex, literal) is True:
            return False
    return True


def _endpoints_conflict(model: Model, operation: Shape, other: Shape) -> bool:
    mine, theirs = endpoint_host_prefix(operation), endpoint_host_prefix(other)
    if mine is None and theirs is None:
        return True
    if (mine is None) != (theirs is None):
        return False
    try:
        a, b = parse_host_prefix(mine or ""), parse_host_prefix(theirs or "")
    except PatternError:
        return True
    return not _allowable(model, a, operation, b, other, _host_label_patterns)


@validator(Code("S3367", Severity.ERROR, "HttpUriConflict",
               "two operations of a service share a method and URI pattern", also=(Severity.DANGER,)),
           rule="reference HttpUriConflictValidator (smithy-model); Smithy 2.0 http-bindings.rst, Pattern conflicts")
def check_http_uri_conflicts(model: Model) -> Iterable[Diagnostic]:
    """Operations of a service do not share a method and URI pattern.

    Spec: http-bindings.rst §"Pattern conflicts" (literal vs. label segments are allowed to
    overlap only when a ``@pattern`` on the label keeps them apart; then it is a DANGER).
    Reference: ``HttpUriConflictValidator`` (ERROR, or DANGER for allowable conflicts;
    operations with different ``@endpoint`` host prefixes do not conflict).
    """
    if not shapes_having(model, HTTP):
        return
    top_down = model.knowledge(TopDownIndex)
    index = model.knowledge(HttpBindingIndex)
    for service in shapes_of_type(model, "service"):
        # each operation is compared with those of its method whose pattern conflicts with its
        # own (UriPattern.conflict_key: the same key; in the same order), not with every other
        found = [(model.shapes[o], uri, (index.method(o), uri.conflict_key()))
                 for o in top_down.contained_operations(service.id)
                 if HTTP in model.shapes[o].traits and (uri := index.uri(o)) is not None]
        by_key: dict[object, list[tuple[Shape, UriPattern]]] = {}
        for operation, uri, key in found:
            by_key.setdefault(key, []).append((operation, uri))
        for operation, uri, key in found:
            conflicts: list[str] = []
            allowable: list[str] = []
            for other, other_uri in by_key[key]:
                if other is operation or not _endpoints_conflict(model, operation, other):
                    continue
                text = f"`{other.id}` ({other_uri.text})"
                if _allowable(model, uri, operation, other_uri, other, _label_patterns):
                    allowable.append(text)
                else:
                    conflicts.append(text)
            head = f"Operation URI, `{uri.text}`, conflicts with other operation URIs in the same service: "
            if conflicts:
                yield event(model, "S3367", operation.id, head + f"[{listed(conflicts, sort=True)}]",
                            hint="give the operations different methods or URI patterns")
            if allowable:
                yield event(model, "S3367", operation.id,
                            head + f"[{listed(allowable, sort=True)}]. Pattern traits applied to the label members "
                            "prevent the label value from evaluating to a conflict, but this is still a poor design. "
                            "If this is acceptable, this can be suppressed.", severity=Severity.DANGER)


# ----------------------------------------------------------------------------- semantics

#: method → (readonly, idempotent, allows a request payload, warning when modeled)
_METHODS: dict[str, tuple[bool | None, bool | None, bool | None, str | None]] = {
    "GET": (True, False, False, None),
    "HEAD": (True, False, False, None),
    "OPTIONS": (True, False, True,
                "OPTIONS requests are typically used as part of CORS and should not be modeled explicitly. They "
                "are an implementation detail that should not appear in generated client or server code. "
                "Instead, tooling should use the `cors` trait on a service to automatically configure CORS on "
                "clients and servers. It is the responsibility of service frameworks and API gateways to "
                "automatically manage OPTIONS requests. For example, OPTIONS requests are automatically "
                "created when using Smithy models with Amazon API Gateway."),
    "TRACE": (True, False, False, None),
    "POST": (False, None, True, None),
    "DELETE": (False, True, False, None),
    "PUT": (False, True, True, None),
    "PATCH": (False, None, True, None),
}


@validator(Code("S3370", Severity.WARNING, "HttpMethodSemantics",
               "`@readonly`/`@idempotent` or a request payload that does not fit the HTTP method",
               also=(Severity.DANGER,)),
           rule="reference HttpMethodSemanticsValidator (smithy-model); Smithy 2.0 http-bindings.rst, method")
def check_http_method_semantics(model: Model) -> Iterable[Diagnostic]:
    """An operation's ``@readonly``/``@idempotent`` traits and request payload fit its HTTP
    method.

    Spec: http-bindings.rst §"method" (safe and idempotent methods; GET, HEAD, DELETE, TRACE
    carry no payload). Reference: ``HttpMethodSemanticsValidator`` (WARNINGs
    ``HttpMethodSemantics.*``, DANGER ``HttpMethodSemantics.UnexpectedPayload``).
    """
    index = model.knowledge(HttpBindingIndex)
    for operation in _operations_with(model, HTTP):
        written = index.method(operation.id)
        if written is None or written.upper() not in _METHODS:
            continue
        method = written.upper()
        readonly, idempotent, payload_ok, note = _METHODS[method]
        if written not in _METHODS:
            yield event(model, "S3370", operation.id,
                        f"This operation uses the `{written}` method in the `http` trait, but expected `{method}`.",
                        trait=HTTP)
        if note:
            yield event(model, "S3370", operation.id, note, trait=HTTP, event_id=f"HttpMethodSemantics.{method}")
        has = READONLY in operation.traits
        if readonly is not None and readonly != has:
            yield event(model, "S3370", operation.id,
                        f"This operation uses the `{method}` method in the `http` trait, but "
                        f"{'is' if has else 'is not'} marked with the readonly trait", trait=HTTP,
                        event_id="HttpMethodSemantics." + ("UnnecessaryReadonlyTrait" if has else "MissingReadonlyTrait"))
        has = IDEMPOTENT in operation.traits
        if idempotent is not None and idempotent != has:
            yield event(model, "S3370", operation.id,
                        f"This operation uses the `{method}` method in the `http` trait, but "
                        f"{'is' if has else 'is not'} marked with the idempotent trait", trait=HTTP,
                        event_id="HttpMethodSemantics." + ("UnnecessaryIdempotentTrait" if has
                                                           else "MissingIdempotentTrait"))
        if payload_ok is False:
            payload = index.request_bindings(operation.id, PAYLOAD)
            document = index.request_bindings(operation.id, DOCUMENT)
            if payload:
                yield event(model, "S3370", operation.id,
                            f"This operation uses the `{method}` method in the `http` trait, but the "
                            f"`{payload[0].member_name}` member is sent as the payload of the request because it is "
                            f"marked with the `httpPayload` trait. Many HTTP clients do not support payloads with "
                            f"{method} requests. Consider binding this member to other parts of the HTTP request such "
                            "as a query string parameter using the `httpQuery` trait, a header using the `httpHeader` "
                            "trait, or a path segment using the `httpLabel` trait.", trait=HTTP,
                            severity=Severity.DANGER, event_id="HttpMethodSemantics.UnexpectedPayload")
            elif document:
                yield event(model, "S3370", operation.id,
                            f"This operation uses the `{method}` method in the `http` trait, but the following "
                            f"members are sent as part of the payload of the request: "
                            f"{ticked(b.member_name for b in document)}. These members are sent as part of the "
                            "payload because they are not explicitly configured to be sent in headers, in the "
                            f"query string, or in a URI segment. Many HTTP clients do not support payloads with "
                            f"{method} requests. Consider binding these members to other parts of the HTTP request "
                            "such as query string parameters using the `httpQuery` trait, headers using the "
                            "`httpHeader` trait, or URI segments using the `httpLabel` trait.", trait=HTTP,
                            severity=Severity.DANGER, event_id="HttpMethodSemantics.UnexpectedPayload")


@validator(Code("S3371", Severity.DANGER, "HttpResponseCodeSemantics",
               "an `@http` code outside 2xx (or a body with 204/205), an `@httpError` code outside its error's "
               "range", also=(Severity.WARNING,)),
           rule="reference HttpResponseCodeSemanticsValidator (smithy-model); Smithy 2.0 http-bindings.rst, code "
                "and httpError trait")
def check_http_response_codes(model: Model) -> Iterable[Diagnostic]:
    """Operation codes are 2xx (204/205 without a body); client errors 4xx, server errors 5xx.

    Spec: http-bindings.rst §"code", §"httpError trait". Reference:
    ``HttpResponseCodeSemanticsValidator`` (DANGER, or a WARNING for a body with 204/205).
    """
    index = model.knowledge(HttpBindingIndex)
    for operation in _operations_with(model, HTTP):
        code = index.code(operation.id)
        if code is None:
            continue
        if code < 200 or code >= 300:
            yield event(model, "S3371", operation.id, f"Expected an `http` code in the 2xx range, but found {code}",
                        trait=HTTP, severity=Severity.DANGER)
        elif code in (204, 205) and index.has_response_body(operation.id):
            yield event(model, "S3371", operation.id,
                        f"The HTTP {code} status code does not allow a response body. To use this status code, all "
                        "output members need to be bound to @httpHeader, @httpPrefixHeaders, @httpResponseCode, etc.",
                        severity=Severity.WARNING)
    for shape in shapes_having(model, HTTP_ERROR):
        if shape.type != "structure" or ERROR not in shape.traits:
            continue
        code, kind = shape.traits[HTTP_ERROR], shape.traits[ERROR]
        if not isinstance(code, int) or isinstance(code, bool):
            continue
        if kind == "client" and not 400 <= code < 500:
            wanted = "4xx"
        elif kind == "server" and not 500 <= code < 600:
            wanted = "5xx"
        else:
            continue
        yield event(model, "S3371", shape.id,
                    f"Expected an `httpError` code in the {wanted} range for a `{kind}` error, but found {code}",
                    trait=HTTP_ERROR, severity=Severity.DANGER)


# ----------------------------------------------------------------------------- endpoints and auth

_HOST = lazy(r"[a-zA-Z0-9][a-zA-Z0-9-]{0,62}(?:\.[a-zA-Z0-9-]{1,63})*\.?")


@validator(Code("S3373", Severity.ERROR, "HostLabelTrait",
               "an `@endpoint` host prefix that does not expand to a host or does not match the `@hostLabel` "
               "members", also=(Severity.DANGER,)),
           rule="reference HostLabelTraitValidator (smithy-model); Smithy 2.0 endpoint-traits.rst, hostPrefix and "
                "hostLabel trait")
def check_host_labels(model: Model) -> Iterable[Diagnostic]:
    """``@endpoint`` host prefixes expand to valid hosts and match the ``@hostLabel`` members.

    Spec: endpoint-traits.rst §"hostPrefix" (RFC 3986 host after expansion), §"hostLabel
    trait". Reference: ``HostLabelTraitValidator`` (ERROR; DANGER for labels without a
    trailing period).
    """
    for operation in _operations_with(model, ENDPOINT):
        text = endpoint_host_prefix(operation)
        if text is None:
            continue
        try:
            prefix = parse_host_prefix(text)
        except PatternError:
            continue  # reported by check_http_patterns
        stub = "".join("foo" if s.is_label else s.content for s in prefix.segments)
        if _HOST.fullmatch(stub) is None:
            yield event(model, "S3373", operation.id,
                        f"The `endpoint` trait hostPrefix, {text}, could not expand in to a valid RFC 3986 host: "
                        f"{stub}", trait=ENDPOINT)
        if not text.endswith(".") and prefix.labels:
            yield event(model, "S3373", operation.id,
                        "`endpoint` trait hostPrefix contains host labels and does not end in a period (`.`). "
                        "This can result in clients inadvertently sending data to domains you do not control.",
                        trait=ENDPOINT, severity=Severity.DANGER)
        structure = model.knowledge(OperationIndex).input_shape(operation.id)
        if structure is None:
            continue
        labels = {s.content for s in prefix.labels}
        for member in structure.members.values():
            if HOST_LABEL not in member.traits:
                continue
            labels.discard(member.name)
            if prefix.label(member.name) is None:
                yield event(model, "S3373", member.id,
                            f"This `{member.name}` structure member is marked with the `hostLabel` trait, but no "
                            "corresponding `endpoint` label could be found when used as the input of the "
                            f"`{operation.id}` operation.", trait=HOST_LABEL)
        if labels:
            yield event(model, "S3373", operation.id,
                        f"This operation uses {structure.id} as input, but the following host labels found in the "
                        "operation's `endpoint` trait do not have a corresponding member marked with the "
                        f"`hostLabel` trait: {ticked(labels)}")


@validator(Code("S3307", Severity.ERROR, "HttpApiKeyAuthTrait",
               "`@httpApiKeyAuth` with a `scheme` is not sent in a header"),
           rule="reference HttpApiKeyAuthTraitValidator (smithy-model); Smithy 2.0 authentication-traits.rst, "
                "httpApiKeyAuth trait")
def check_http_api_key_auth(model: Model) -> Iterable[Diagnostic]:
    """``@httpApiKeyAuth`` with a ``scheme`` is sent in a header.

    Spec: authentication-traits.rst §"httpApiKeyAuth trait" (``scheme`` "can only be set if
    the in property is set to header"). Reference: ``HttpApiKeyAuthTraitValidator``.
    """
    for service in shapes_having(model, HTTP_API_KEY_AUTH):
        value = service.traits.get(HTTP_API_KEY_AUTH) if service.type == "service" else None
        if isinstance(value, dict) and value.get("scheme") is not None and value.get("in") != "header":
            yield event(model, "S3307", service.id,
                        "The httpApiKeyAuth trait must have an `in` value of `header` when a `scheme` is provided, "
                        f"found: {value.get('in')}", trait=HTTP_API_KEY_AUTH,
                        hint='set `in: "header"`, or remove `scheme`')


@validator(Code("S3375", Severity.ERROR, "NoInlineDocumentSupport",
               "a service uses document shapes but its protocol does not support them"),
           rule="reference NoInlineDocumentSupportValidator (smithy-model); Smithy 2.0 protocol-traits.rst, "
                "protocolDefinition trait (noInlineDocumentSupport)")
def check_no_inline_documents(model: Model) -> Iterable[Diagnostic]:
    """A service whose protocol has ``noInlineDocumentSupport`` uses no document shape.

    Spec: protocol-traits.rst §"protocolDefinition trait" (``noInlineDocumentSupport``).
    Reference: ``NoInlineDocumentSupportValidator``.
    """
    documents = [s.id for s in shapes_of_type(model, "document")]
    if not documents:
        return
    services = model.knowledge(ServiceIndex)
    protocols = [p for p in services.protocol_traits if services.protocol_definition(p).get("noInlineDocumentSupport")
                 is True]
    if not protocols:
        return
    for service in shapes_of_type(model, "service"):
        closure = None
        for protocol in sorted(protocols, key=id_sort_key):
            if protocol not in service.traits:
                continue
            if closure is None:
                closure = Walker(model).walk_all([service.id])
            found = sorted_ids(d for d in documents if d in closure)
            if found:
                shown = listed((f"{d} @ {model.shapes[d].span or 'N/A'}" for d in found), total=len(found))
                yield event(model, "S3375", service.id,
                            f"This service uses the `{protocol}` protocol which does not support inline document "
                            f"types, but the following document types were found in the closure of the service: "
                            f"[{shown}]", trait=protocol)


__all__ = [
    "check_host_labels", "check_http_api_key_auth", "check_http_binding_traits_ignored",
    "check_http_bindings_missing", "check_http_header_traits", "check_http_label_traits",
    "check_http_method_semantics", "check_http_patterns", "check_http_payload", "check_http_prefix_headers_traits",
    "check_http_query_params_traits", "check_http_query_traits", "check_http_response_codes",
    "check_http_uri_conflicts", "check_http_uri_greedy_labels", "check_no_inline_documents",
]
