"""smithy-protocol-test-traits: ``smithy.test#httpRequestTests``, ``#httpResponseTests``,
``#httpMalformedRequestTests`` and ``#eventStreamTests`` (http-protocol-compliance-tests.rst,
event-stream-protocol-compliance-tests.rst).

Reference validators mirrored here:

* ``UniqueProtocolTestCaseIdValidator`` — test case IDs are unique per trait across the
  model (ERROR ``UniqueProtocolTestCaseId`` on every shape holding a repeated ID). As in the
  reference, the expanded IDs of malformed request tests (``id_case0``... for parameterized
  ones) share the response tests' table;
* ``HttpRequestTestsInputValidator``, ``HttpResponseTestsOutputValidator``,
  ``HttpResponseTestsErrorValidator`` (``ProtocolTestCaseValidator``) — for each test case: a
  JSON or XML ``body`` (by ``bodyMediaType``) must be well formed, XML without a DOCTYPE
  (DANGER); ``params`` must be a valid value of the operation's input (output, or error
  structure), with timestamps as epoch seconds; ``vendorParams`` a valid value of
  ``vendorParamsShape`` (and a ``vendorParamsShape`` without ``vendorParams`` is a WARNING);
  params without an input/output to hold them are an ERROR. Event IDs are the validator names
  (``HttpRequestTestsInput``...);
* ``HttpMalformedRequestTestsValidator`` — the lists of ``testParameters`` have one length
  (ERROR ``HttpMalformedRequestTests``);
* ``EventStreamTestsTraitValidator`` — initial request/response params and shapes, vendor
  params, and each event's params (against the input or output event stream union) are valid
  values; request events need an input stream, response events an output stream; event
  bodies are well formed; a test case has at least one event or initial message (event ID
  ``EventStreamTestsTrait``).

Values are checked by the trait-value checker of :mod:`smithy2cfn.validation.core.traits` (the
reference's ``NodeValidationVisitor``), with the reference's protocol-test settings: ``null``
is allowed for optional members, ``float``/``double`` take ``"NaN"``/``"Infinity"``/
``"-Infinity"``, and (HTTP tests) timestamps must be numbers of epoch seconds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, declare_codes, listed
from smithy2cfn.model.jsonread import parse_json
from smithy2cfn.model.knowledge_ops import OperationIndex
from smithy2cfn.model.nodes import node_type, shorten
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.model.traits import (
    EVENT_STREAM_TESTS,
    HTTP_MALFORMED_REQUEST_TESTS,
    HTTP_REQUEST_TESTS,
    HTTP_RESPONSE_TESTS,
)
from smithy2cfn.records import replace
from smithy2cfn.regexes import lazy
from smithy2cfn.validation.support.events import at_trait, diag
from smithy2cfn.validation.support.node_values import NodeChecker
from smithy2cfn.validation.support.shapes import event_stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Codes several validators of this module report (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S3767", Severity.ERROR, "Model",
         "a protocol test case names a shape the model lacks (`vendorParamsShape`...): its checks stop there"),
)

_FLOAT_SPECIALS = frozenset({"NaN", "Infinity", "-Infinity"})
_MEDIA_TYPE = lazy(r"\s*([^/\s;]+)/([^\s;]+)")


# --------------------------------------------------------------------------- bodies


def media_problem(body: str, media_type: str) -> str | None:
    """Why ``body`` is not well formed for ``media_type``, or ``None`` (reference
    ``ProtocolTestValidationUtils.validateMediaType``): XML (``*/xml``, ``*/*+xml``) must be
    well-formed XML without a DOCTYPE (no DTD, no entities); JSON (``*/json``, ``*/*+json``)
    strict JSON. Other media types, and an empty body, are not checked."""
    if not body or not media_type:
        return None
    m = _MEDIA_TYPE.match(media_type)
    if m is None:
        return None
    subtype = m.group(2).lower()
    suffix = subtype.rsplit("+", 1)[1] if "+" in subtype else ""
    if subtype == "xml" or suffix == "xml":
        return _xml_problem(body)
    if subtype == "json" or suffix == "json":
        _, problem = parse_json(body, "<body>", lambda _path: False)
        if problem is not None and problem.is_syntax_error:
            return f"Error parsing JSON: {problem.message} (offset {problem.offset})"
    return None


class _Doctype(Exception):
    pass


def _xml_problem(body: str) -> str | None:
    import xml.parsers.expat  # (only for a test with an XML body: 4 ms of import otherwise)

    parser = xml.parsers.expat.ParserCreate()

    def doctype(*_args: Any) -> None:
        raise _Doctype

    parser.StartDoctypeDeclHandler = doctype
    try:
        parser.Parse(body, True)
    except _Doctype:
        return "DOCTYPE is disallowed (a DTD could define entities)"
    except xml.parsers.expat.ExpatError as e:
        return f"{xml.parsers.expat.errors.messages.get(e.code, str(e))} (line {e.lineno}, column {e.offset + 1})"
    return None


# --------------------------------------------------------------------------- node values


def _special_positions(model: Model, value: Any, shape_id: str) -> tuple[set[str], list[tuple[str, str, Any]]]:
    """Where ``value`` holds a float special string (``"NaN"``... at a float/double), and
    where a timestamp that is not a number: ``(paths, [(path, timestamp shape, value)])``,
    paths in the trait-value checker's form (``.a.0``)."""
    specials: set[str] = set()
    timestamps: list[tuple[str, str, Any]] = []
    stack: list[tuple[Any, str, str]] = [(value, shape_id, "")]
    while stack:
        v, sid, path = stack.pop()
        shape = model.shapes.get(sid)
        if shape is None or v is None:
            continue
        if shape.type in ("float", "double") and v in _FLOAT_SPECIALS:
            specials.add(path)
        elif shape.type == "timestamp" and (isinstance(v, bool) or not isinstance(v, (int, float))):
            timestamps.append((path, sid, v))
        elif shape.type in ("structure", "union") and isinstance(v, dict):
            for key, item in v.items():
                member = shape.members.get(key)
                if member is not None:
                    stack.append((item, member.target, f"{path}.{key}"))
        elif shape.type in ("list", "set") and isinstance(v, list):
            member = shape.members.get("member")
            if member is not None:
                stack.extend((item, member.target, f"{path}.{i}") for i, item in enumerate(v))
        elif shape.type == "map" and isinstance(v, dict):
            member = shape.members.get("value")
            if member is not None:
                stack.extend((item, member.target, f"{path}.{k}") for k, item in v.items())
    return specials, timestamps


def node_problems(model: Model, value: Any, shape_id: str, namespace: str,
                  epoch_seconds: bool) -> list[tuple[Severity, str, str]]:
    """``(severity, path, message)`` for ``value`` as a value of ``shape_id`` (reference
    ``NodeValidationVisitor`` with ``ALLOW_OPTIONAL_NULLS``), sorted by path; with
    ``epoch_seconds`` timestamps must be numbers (``TimestampValidationStrategy.EPOCH_SECONDS``)."""
    checker = NodeChecker(model, namespace)
    checker.check(value, shape_id, {}, "")
    specials, timestamps = _special_positions(model, value, shape_id)
    problems = [p for p in checker.problems if p[1] not in specials]
    if epoch_seconds:
        flagged = {p[1] for p in problems}
        for path, sid, v in timestamps:
            if path not in flagged:
                problems.append((Severity.ERROR, path, f"Invalid {node_type(v)} value provided for timestamp, "
                                                       f"`{sid}`. Expected a number that contains epoch seconds "
                                                       "with optional millisecond precision"))
    return problems


class _Emitter:
    """Makes the events of one validator about one shape and trait."""

    def __init__(self, model: Model, code: str, event: str, shape: Shape, trait: str) -> None:
        self.model, self.code, self.event, self.shape, self.trait = model, code, event, shape, trait

    def add(self, severity: Severity, message: str, event: str | None = None, hint: str | None = None) -> Diagnostic:
        return at_trait(self.model, diag(self.model, self.code, severity, self.shape.id, message,
                                         event or self.event, hint), self.trait)

    def node(self, value: Any, shape_id: str, context: str, epoch_seconds: bool) -> Iterable[Diagnostic]:
        """The problems of a value, each message prefixed with its place (``trait.0.params.a``);
        an unknown member's event ID names it (``<event>.UnknownMember.<shape>.<member>``, as the
        reference's ``NodeValidationVisitor.unknownMember``)."""
        for severity, path, message in node_problems(self.model, value, shape_id, self.shape.namespace,
                                                     epoch_seconds):
            yield self.add(severity, f"{context}{shorten(path)}: {message}", _event_of(self.event, message))


#: The node-value checker's message for a member the shape lacks (the reference's wording, and
#: the older one ``Invalid structure member ...``): its event ID names the shape and the member.
_UNKNOWN_MEMBER = (lazy(r"Member `(?P<m>[^`]*)` does not exist in `(?P<s>[^`]*)`"),
                   lazy(r"Invalid \w+ member `(?P<m>[^`]*)` found for `(?P<s>[^`]*)`"))


def _event_of(event: str, message: str) -> str:
    """``event``, or ``<event>.UnknownMember.<shape>.<member>`` for an unknown member's message."""
    for pattern in _UNKNOWN_MEMBER:
        found = pattern.match(message)
        if found:
            return f"{event}.UnknownMember.{found['s']}.{found['m']}"
    return event


_IDENT = r"(?:_+[A-Za-z0-9]|[A-Za-z])[A-Za-z0-9_]*"
#: An absolute shape ID (reference ``ShapeId.from``): what the test traits' shape references
#: must be once loaded (an unquoted one is made absolute by the loader; a quoted relative one
#: is not, and the reference cannot create the trait).
_ABSOLUTE_ID = lazy(rf"{_IDENT}(?:\.{_IDENT})*#{_IDENT}(?:\${_IDENT})?\Z", re.ASCII)

#: Keys holding shape IDs: of a test case, and of an event stream test's events.
_CASE_REFS = ("vendorParamsShape", "initialRequestShape", "initialResponseShape")


def _bad_reference(value: Any) -> str | None:
    """The first shape reference of a test trait value that is not an absolute shape ID."""
    for case in _cases(value):
        refs = [case.get(k) for k in _CASE_REFS]
        events = case.get("events")
        refs += [e.get("vendorParamsShape") for e in (events if isinstance(events, list) else []) if isinstance(e, dict)]
        for ref in refs:
            if isinstance(ref, str) and not _ABSOLUTE_ID.match(ref):
                return ref
    return None


@validator(Code("S3766", Severity.ERROR, "Model",
                "a protocol test case names a shape with a relative ID in quotes (`\"Params\"`): the trait cannot be "
                "read"),
           Code("S3768", Severity.ERROR, "Model",
                "a protocol test case lacks a required member (`Missing expected member`): the trait is not created"),
           rule="reference HttpRequestTestCase.fromNode, HttpResponseTestCase.fromNode, HttpMalformedRequestTestCase.fromNode and EventStreamTestCase.fromNode (smithy-protocol-test-traits, trait creation); Smithy http-protocol-compliance-tests.rst and event-stream-protocol-compliance-tests.rst, the test case structures",
           packages=("smithy.test",))
def check_test_trait_references(model: Model) -> Iterable[Diagnostic]:
    """The shape references of protocol test cases are absolute shape IDs.

    Spec: http-protocol-compliance-tests.rst (``vendorParamsShape``... are shape IDs). Reference: the test traits' ``fromNode`` (``ShapeId.from``): a quoted relative ID such as
    ``"Params"`` cannot be read, the trait is not created (ERROR ``Model``, ``S3766``) and the
    other checks of this module skip that trait on that shape; a test case without a required
    member (``expectMember``) cannot be read either (ERROR ``Model``, ``S3768``).
    """
    for trait in (HTTP_REQUEST_TESTS, HTTP_RESPONSE_TESTS, HTTP_MALFORMED_REQUEST_TESTS, EVENT_STREAM_TESTS):
        for shape in model.shapes_with_trait(trait):
            if shape.id in model.prelude_ids:
                continue
            ref = _bad_reference(shape.traits[trait]) if trait != HTTP_MALFORMED_REQUEST_TESTS else None
            if ref is not None:
                yield at_trait(model, diag(model, "S3766", None, shape.id,
                                           f"Error creating trait `{trait}`: Invalid shape ID: {ref}",
                                           hint=f"write the absolute shape ID (`{shape.namespace}#{ref}`), or "
                                                "leave it unquoted"), trait)
                continue
            missing = _missing_member(model, trait, shape.traits[trait], shape.namespace)
            if missing is not None:
                yield at_trait(model, diag(model, "S3768", None, shape.id,
                                           f"Error creating trait `{trait}`: Missing expected member `{missing}`.",
                                           hint=f"add `{missing}`"), trait)


def _missing_member(model: Model, trait: str, value: Any, namespace: str) -> str | None:
    """The first required member a test trait value lacks (the reference's ``fromNode`` reads
    required members with ``expectMember``: the trait is not created), or ``None``."""
    checker = NodeChecker(model, namespace, constraints=False)
    checker.check(value, trait, {}, "")
    for _severity, _path, message in checker.problems:
        m = re.match(r"Missing required structure member `([^`]+)`", message)
        if m:
            return m.group(1)
    return None


class _MissingShape(Exception):
    """A test case names a shape the model lacks (the reference's validator fails with
    "Shape not found in model")."""

    def __init__(self, shape_id: str, emit: _Emitter) -> None:
        super().__init__(shape_id)
        self.shape_id = shape_id
        self.emit = emit


def _resolve(model: Model, ref: Any, emit: _Emitter) -> str | None:
    """The shape a test case of ``emit``'s trait names (an absolute ID), ``None`` when it
    names none.

    Raises:
        _MissingShape: the model has no such shape.
    """
    if not isinstance(ref, str):
        return None
    if ref not in model.shapes:
        raise _MissingShape(ref, emit)
    return ref


def _missing(model: Model, e: _MissingShape) -> Diagnostic:
    """The reference's event is about no shape; it is located at the test trait."""
    d = diag(model, "S3767", None, "", f"Shape not found in model: {e.shape_id}",
             hint="define the shape, or correct the shape ID")
    span = e.emit.shape.trait_spans.get(e.emit.trait) or e.emit.shape.span
    return replace(d, span=span) if span is not None else d


# --------------------------------------------------------------------------- HTTP tests


def _shapes_with(model: Model, trait: str) -> list[Shape]:
    """User operations and structures with ``trait``, but not those whose trait the reference
    cannot create (:func:`check_test_trait_references`)."""
    return [s for s in model.shapes_with_trait(trait) if s.type in ("operation", "structure")
            and s.id not in model.prelude_ids and _bad_reference(s.traits[trait]) is None]


def _stopping_at_missing_shapes(model: Model, found: Iterable[Diagnostic]) -> Iterable[Diagnostic]:
    """``found``, until a test case names a shape the model lacks: then one ERROR ``Model``
    (``S3767``) and nothing more from that check, as the reference's validator fails there."""
    try:
        yield from found
    except _MissingShape as e:
        yield _missing(model, e)


def _cases(value: Any) -> list[dict]:
    return [c if isinstance(c, dict) else {} for c in value] if isinstance(value, list) else []


def _http_test_validator(model: Model, trait: str, code: str, event: str, descriptor: str,
                         validated_by: str) -> Iterable[Diagnostic]:
    """Reference ``ProtocolTestCaseValidator`` for one trait and one kind of structure:
    ``descriptor`` "input" (request tests: the operation's input), "output" (response tests
    on operations: the output) or "error" (response tests on error structures: the structure);
    ``validated_by`` is the shape type whose vendor params and missing structure it reports."""
    for shape in _shapes_with(model, trait):
        emit = _Emitter(model, code, event, shape, trait)
        for i, case in enumerate(_cases(shape.traits[trait])):
            media_type, body = case.get("bodyMediaType"), case.get("body")
            if isinstance(media_type, str) and isinstance(body, str):
                problem = media_problem(body, media_type)
                if problem is not None:
                    yield emit.add(Severity.DANGER, f"Invalid {media_type} content in `{trait}` protocol test case "
                                                    f"`{case.get('id')}`: {problem}",
                                   hint="fix the body, or its bodyMediaType")
            vendor_shape = case.get("vendorParamsShape")
            if vendor_shape is not None and shape.type == validated_by:
                vendor = case.get("vendorParams")
                if not vendor:
                    yield emit.add(Severity.WARNING,
                                   "Protocol test case defined a `vendorParamsShape` but no `vendorParams`")
                else:
                    target = _resolve(model, vendor_shape, emit)
                    if target is not None:
                        yield from emit.node(vendor, target, f"{trait}.{i}.vendorParams", True)
            ops = model.knowledge(OperationIndex)
            if descriptor == "input":
                structure = ops.input_id(shape.id) if shape.type == "operation" else None
            elif descriptor == "output":
                structure = ops.output_id(shape.id) if shape.type == "operation" else None
            else:
                structure = shape.id if shape.type == "structure" else None
            params = case.get("params")
            if structure is not None:
                yield from emit.node(params if params is not None else {}, structure, f"{trait}.{i}.params", True)
            elif params and shape.type == validated_by:
                yield emit.add(Severity.ERROR, f"Protocol test {descriptor} parameters provided for operation with "
                                               f"no {descriptor}: `{shorten(str(params), 200)}`")


@validator(Code("S3761", Severity.ERROR, "HttpRequestTestsInput",
                "an `httpRequestTests` case has params or vendor params that are no valid value, or a malformed "
                "JSON/XML body (danger)", also=(Severity.DANGER, Severity.WARNING,)),
           "S3767",
           rule="reference HttpRequestTestsInputValidator (smithy-protocol-test-traits, ProtocolTestCaseValidator); Smithy http-protocol-compliance-tests.rst, httpRequestTests",
           packages=("smithy.test",))
def check_http_request_tests(model: Model) -> Iterable[Diagnostic]:
    """``httpRequestTests`` cases: bodies, params (the input) and vendor params are valid.

    Spec: http-protocol-compliance-tests.rst §"httpRequestTests"; reference
    ``HttpRequestTestsInputValidator``. Code ``S3761`` (``HttpRequestTestsInput``).
    """
    yield from _stopping_at_missing_shapes(model, _http_test_validator(
        model, HTTP_REQUEST_TESTS, "S3761", "HttpRequestTestsInput", "input", "operation"))


@validator(Code("S3762", Severity.ERROR, "HttpResponseTestsOutput",
                "an `httpResponseTests` case of an operation has params or vendor params that are no valid value, "
                "or a malformed body (danger)", also=(Severity.DANGER, Severity.WARNING,)),
           Code("S3763", Severity.ERROR, "HttpResponseTestsError",
                "an `httpResponseTests` case of an error structure has params or vendor params that are no valid "
                "value, or a malformed body (danger)", also=(Severity.DANGER, Severity.WARNING,)),
           "S3767",
           rule="reference HttpResponseTestsOutputValidator and HttpResponseTestsErrorValidator (smithy-protocol-test-traits, ProtocolTestCaseValidator); Smithy http-protocol-compliance-tests.rst, httpResponseTests",
           packages=("smithy.test",))
def check_http_response_tests(model: Model) -> Iterable[Diagnostic]:
    """``httpResponseTests`` cases: bodies, params (the operation output, or the error
    structure) and vendor params are valid.

    Spec: http-protocol-compliance-tests.rst §"httpResponseTests"; reference
    ``HttpResponseTestsOutputValidator`` (``S3762``, ``HttpResponseTestsOutput``) and
    ``HttpResponseTestsErrorValidator`` (``S3763``, ``HttpResponseTestsError``).
    """
    yield from _stopping_at_missing_shapes(model, _http_test_validator(
        model, HTTP_RESPONSE_TESTS, "S3762", "HttpResponseTestsOutput", "output", "operation"))
    yield from _stopping_at_missing_shapes(model, _http_test_validator(
        model, HTTP_RESPONSE_TESTS, "S3763", "HttpResponseTestsError", "error", "structure"))


@validator(Code("S3764", Severity.ERROR, "HttpMalformedRequestTests",
                "the `testParameters` lists of a malformed request test differ in length"),
           rule="reference HttpMalformedRequestTestsValidator (smithy-protocol-test-traits); Smithy http-protocol-compliance-tests.rst, httpMalformedRequestTests (parameterized tests)",
           packages=("smithy.test",))
def check_malformed_request_tests(model: Model) -> Iterable[Diagnostic]:
    """The ``testParameters`` lists of a malformed request test all have one length.

    Spec: http-protocol-compliance-tests.rst §"httpMalformedRequestTests" (parameterized
    tests); reference ``HttpMalformedRequestTestsValidator``. Code ``S3764`` (ERROR
    ``HttpMalformedRequestTests``).
    """
    for shape in _shapes_with(model, HTTP_MALFORMED_REQUEST_TESTS):
        for case in _cases(shape.traits[HTTP_MALFORMED_REQUEST_TESTS]):
            parameters = case.get("testParameters")
            if isinstance(parameters, dict) and parameters:
                sizes = {len(v) if isinstance(v, list) else -1 for v in parameters.values()}
                if len(sizes) != 1:
                    yield at_trait(model, diag(
                        model, "S3764", None, shape.id,
                        "Each list associated to a key in `testParameters` must be of the same length.",
                        hint=f"test case `{case.get('id')}`: give every parameter as many values"),
                        HTTP_MALFORMED_REQUEST_TESTS)


def _malformed_ids(case: dict) -> list[str]:
    """The IDs of the test cases a malformed request test expands to (reference
    ``ParameterizedHttpMalformedRequestTestCase.generateTestCasesFromParameters``)."""
    case_id = case.get("id")
    if not isinstance(case_id, str):
        return []
    parameters = case.get("testParameters")
    if not isinstance(parameters, dict) or not parameters:
        return [case_id]
    first = next(iter(parameters.values()))
    return [f"{case_id}_case{i}" for i in range(len(first) if isinstance(first, list) else 0)]


@validator(Code("S3760", Severity.ERROR, "UniqueProtocolTestCaseId",
                "two protocol test cases of one trait share an ID"),
           rule="reference UniqueProtocolTestCaseIdValidator (smithy-protocol-test-traits); Smithy http-protocol-compliance-tests.rst, the id of a test case (unique per trait)",
           packages=("smithy.test",))
def check_protocol_test_ids(model: Model) -> Iterable[Diagnostic]:
    """Protocol test case IDs are unique across the model, per trait.

    Spec: http-protocol-compliance-tests.rst ("id ... MUST be unique across all other
    test cases of the same trait"); reference ``UniqueProtocolTestCaseIdValidator``. Code
    ``S3760`` (ERROR ``UniqueProtocolTestCaseId``), once per shape and repeat.
    """
    tables: dict[str, dict[str, list[str]]] = {HTTP_REQUEST_TESTS: {}, HTTP_RESPONSE_TESTS: {},
                                               HTTP_MALFORMED_REQUEST_TESTS: {}, EVENT_STREAM_TESTS: {}}
    shapes = sorted((s for s in model.shapes.values() if s.type in ("operation", "structure")
                     and s.id not in model.prelude_ids), key=lambda s: (s.type != "operation", s.id))
    for shape in shapes:
        for trait in (HTTP_REQUEST_TESTS, HTTP_RESPONSE_TESTS, EVENT_STREAM_TESTS):
            if trait in shape.traits and _bad_reference(shape.traits[trait]) is not None:
                continue
            for case in _cases(shape.traits.get(trait)):
                if isinstance(case.get("id"), str):
                    tables[trait].setdefault(case["id"], []).append(shape.id)
        # as in the reference, expanded malformed request test IDs share the response tests' table
        for case in _cases(shape.traits.get(HTTP_MALFORMED_REQUEST_TESTS)):
            for case_id in _malformed_ids(case):
                tables[HTTP_RESPONSE_TESTS].setdefault(case_id, []).append(shape.id)
    for trait, table in tables.items():
        for case_id in sorted(table):
            holders = table[case_id]
            if len(holders) < 2:
                continue
            names = listed(holders, form="`{}`", sort=True)
            for holder in holders:
                yield at_trait(model, diag(
                    model, "S3760", None, holder,
                    f"Conflicting `{trait}` test case IDs found for ID `{case_id}`: {names}",
                    hint="give each test case its own ID"), trait)


# --------------------------------------------------------------------------- event stream tests


@validator(Code("S3765", Severity.ERROR, "EventStreamTestsTrait",
                "an `eventStreamTests` case is empty, has an event without a stream for it, values that are no "
                "valid value, or a malformed body (danger)", also=(Severity.DANGER, Severity.WARNING,)),
           "S3767",
           rule="reference EventStreamTestsTraitValidator (smithy-protocol-test-traits); Smithy event-stream-protocol-compliance-tests.rst, eventStreamTests trait",
           packages=("smithy.test",))
def check_event_stream_tests(model: Model) -> Iterable[Diagnostic]:
    """``eventStreamTests`` cases are complete and their values valid.

    Spec: event-stream-protocol-compliance-tests.rst §"eventStreamTests trait"; reference
    ``EventStreamTestsTraitValidator``. Code ``S3765`` (``EventStreamTestsTrait``; ERROR,
    DANGER for a malformed event body, WARNING for unknown members).
    """
    yield from _stopping_at_missing_shapes(model, _event_stream_tests(model))


def _event_stream_tests(model: Model) -> Iterable[Diagnostic]:
    for op in _shapes_with(model, EVENT_STREAM_TESTS):
        if op.type != "operation":
            continue
        emit = _Emitter(model, "S3765", "EventStreamTestsTrait", op, EVENT_STREAM_TESTS)
        in_stream = event_stream(model, model.knowledge(OperationIndex).input_id(op.id))
        out_stream = event_stream(model, model.knowledge(OperationIndex).output_id(op.id))
        trait = EVENT_STREAM_TESTS
        for i, case in enumerate(_cases(op.traits[trait])):
            yield from _event_stream_case(model, emit, op, i, case, in_stream, out_stream)
            if (not case.get("events") and case.get("initialRequestParams") is None
                    and case.get("initialRequest") is None and case.get("initialResponseParams") is None
                    and case.get("initialResponse") is None):
                yield emit.add(Severity.ERROR, f"{trait}.{i}: At least one event, an initial request, or an "
                                               "initial response must be set.", f"EventStreamTestsTrait.{i}")


def _event_stream_case(model: Model, emit: _Emitter, op: Shape, i: int, case: dict, in_stream: Any,
                       out_stream: Any) -> Iterable[Diagnostic]:
    trait = EVENT_STREAM_TESTS

    def value_of(key: str) -> Any:
        v = case.get(key)
        return v if v is not None else {}

    if case.get("initialRequestParams") is not None:
        yield from emit.node(case["initialRequestParams"], model.knowledge(OperationIndex).input_id(op.id),
                             f"{trait}.{i}.initialRequestParams", False)
    target = _resolve(model, case.get("initialRequestShape"), emit)
    if target is not None:
        yield from emit.node(value_of("initialRequest"), target, f"{trait}.{i}.initialRequest", False)
    if case.get("initialResponseParams") is not None:
        yield from emit.node(case["initialResponseParams"], model.knowledge(OperationIndex).output_id(op.id),
                             f"{trait}.{i}.initialResponseParams", False)
    target = _resolve(model, case.get("initialResponseShape"), emit)
    if target is not None:
        yield from emit.node(value_of("initialResponse"), target, f"{trait}.{i}.initialResponse", False)
    target = _resolve(model, case.get("vendorParamsShape"), emit)
    if target is not None:
        yield from emit.node(value_of("vendorParams"), target, f"{trait}.{i}.vendorParams", False)
    events = case.get("events")
    for j, event in enumerate(events if isinstance(events, list) else []):
        if not isinstance(event, dict):
            continue
        where = f"{i}.events.{j}"
        if event.get("params") is not None:
            kind = event.get("type")
            if kind == "request":
                if in_stream is None:
                    yield emit.add(Severity.ERROR, f"{trait}.{where}: Invalid request event for operation {op.id} "
                                                   "that has no input stream.")
                else:
                    yield from emit.node(event["params"], in_stream.target, f"{trait}.{where}.params", False)
            elif kind == "response":
                if out_stream is None:
                    yield emit.add(Severity.ERROR, f"{trait}.{where}: Invalid response event for operation "
                                                   f"{op.id} that has no output stream.",
                                   f"EventStreamTestsTrait.{where}")
                else:
                    yield from emit.node(event["params"], out_stream.target, f"{trait}.{where}.params", False)
        media_type, body = event.get("bodyMediaType"), event.get("body")
        if isinstance(media_type, str) and isinstance(body, str):
            problem = media_problem(body, media_type)
            if problem is not None:
                yield emit.add(Severity.DANGER, f"{trait}.{where}.body: Invalid {media_type} content: {problem}")
        target = _resolve(model, event.get("vendorParamsShape"), emit)
        if target is not None:
            vendor = event.get("vendorParams")
            yield from emit.node(vendor if vendor is not None else {}, target, f"{trait}.{where}.vendorParams", False)


__all__ = ["check_event_stream_tests", "check_http_request_tests", "check_http_response_tests",
           "check_malformed_request_tests", "check_protocol_test_ids", "check_test_trait_references", "media_problem",
           "node_problems"]
