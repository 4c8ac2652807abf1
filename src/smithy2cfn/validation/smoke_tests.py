"""Validators of the ``smithy.test#smokeTests`` trait (smoke-tests.rst).

Each test case's ``params`` match the operation's input (and are given when the input has
required members), its ``vendorParams`` match its ``vendorParamsShape`` (the two come
together), and test case IDs are unique within a service's operations (or an operation
bound to no service). Reference ``SmokeTestCaseValidator`` and
``UniqueSmokeTestCaseIdValidator`` (smithy-smoke-test-traits).
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity
from smithy2cfn.model.knowledge import TopDownIndex
from smithy2cfn.model.knowledge_ops import OperationIndex
from smithy2cfn.model.nodes import shorten
from smithy2cfn.model.shapes import Model, Shape, ShapeId
from smithy2cfn.model.traits import REQUIRED, SMOKE_TESTS
from smithy2cfn.regexes import lazy
from smithy2cfn.validation.support.events import distinct, event, ticked
from smithy2cfn.validation.support.node_values import NodeChecker

_UNKNOWN_MEMBER = (lazy(r"^Member `(?P<m>[^`]*)` does not exist in `(?P<s>[^`]*)`"),
                   lazy(r"^Invalid \w+ member `(?P<m>[^`]*)` found for `(?P<s>[^`]*)`"))


def _cases(shape: Shape) -> list[dict]:
    value = shape.traits.get(SMOKE_TESTS)
    return [c for c in value if isinstance(c, dict)] if isinstance(value, list) else []


def _check_value(model: Model, op: Shape, value: object, shape_id: str, context: str) -> Iterable[Diagnostic]:
    """Problems of ``value`` against ``shape_id`` (the reference's NodeValidationVisitor with
    event ID ``SmokeTestCase``). An unknown member is the reference's ``unknownMember`` event:
    "Member `m` does not exist in `S`", ``SmokeTestCase.UnknownMember.<shape>.<member>``, a
    WARNING in a structure and an ERROR in a union."""
    checker = NodeChecker(model, op.namespace)
    checker.check(value, shape_id, {}, "")
    for severity, path, message in checker.problems:
        event_id = "SmokeTestCase"
        for pattern in _UNKNOWN_MEMBER:
            found = pattern.match(message)
            if found:
                event_id = f"SmokeTestCase.UnknownMember.{found['s']}.{found['m']}"
                message = f"Member `{found['m']}` does not exist in `{found['s']}`"
                owner = model.shapes.get(found["s"])
                severity = Severity.ERROR if owner is not None and owner.type == "union" else Severity.WARNING
                break
        yield event(model, "S3560", op.id, f"{context}{shorten(path)}: {message}", severity=severity,
                    event_id=event_id, trait=SMOKE_TESTS)


@validator(Code("S3560", Severity.ERROR, "SmokeTestCase",
                "a smoke test case's `params` or `vendorParams` do not match their shapes, or `params` is missing "
                "for required input; `vendorParams` without its shape or the reverse (warning)", also=(Severity.WARNING,)),
           rule="reference SmokeTestCaseValidator (smithy-smoke-test-traits); smoke-tests.rst, "
                "SmokeTestCase: params, vendorParams and vendorParamsShape",
           packages=("smithy.test",))
@distinct
def check_smoke_test_cases(model: Model) -> Iterable[Diagnostic]:
    """Each smoke test case's ``params`` and ``vendorParams`` match their shapes.

    Spec: smoke-tests.rst §"smokeTests trait" (``params``: "input parameters ... MUST be
    compatible with the operation's input"; ``vendorParams`` / ``vendorParamsShape``).
    Reference ``SmokeTestCaseValidator`` (event ``SmokeTestCase``): a shape without values
    or values without a shape are warnings; missing ``params`` when the input has required
    members is an error.
    """
    for op in model.of_type("operation"):
        for case in _cases(op):
            case_id = case.get("id")
            vendor_shape = case.get("vendorParamsShape")
            vendor_params = case.get("vendorParams")
            context = f"{SMOKE_TESTS}.{case_id}"
            if isinstance(vendor_shape, str):
                if not isinstance(vendor_params, dict):
                    yield event(model, "S3560", op.id, f"Smoke test case with ID `{case_id}` defined a "
                                "`vendorParamsShape` but no `vendorParams`", severity=Severity.WARNING,
                                trait=SMOKE_TESTS)
                else:
                    target = ShapeId.absolute(vendor_shape, op.namespace)
                    if target in model.shapes:
                        yield from _check_value(model, op, vendor_params, target, context + ".vendorParams")
            elif isinstance(vendor_params, dict):
                yield event(model, "S3560", op.id, f"Smoke test case with ID `{case_id}` defined `vendorParams` "
                            "but no `vendorParamsShape`", severity=Severity.WARNING, trait=SMOKE_TESTS)
            params = case.get("params")
            struct = model.knowledge(OperationIndex).input(op.id)
            if isinstance(params, dict):
                if struct is not None:
                    yield from _check_value(model, op, params, struct.id, context + ".params")
                elif params:
                    # The input is Unit: every parameter is an unknown member.
                    for name in params:
                        yield event(model, "S3560", op.id, f"{context}.params: Member `{name}` does not exist "
                                    "in `smithy.api#Unit`", severity=Severity.WARNING,
                                    event_id=f"SmokeTestCase.UnknownMember.smithy.api#Unit.{name}",
                                    trait=SMOKE_TESTS)
            else:
                inputs = model.knowledge(OperationIndex).input_members(op.id)
                required = [name for name, m in inputs.items() if REQUIRED in m.traits]
                if required:
                    yield event(model, "S3560", op.id, f"Smoke test case with ID `{case_id}` does not define "
                                "`params`, but the target operation has required input members: "
                                f"{ticked(required)}", trait=SMOKE_TESTS,
                                hint="give the test case `params` with the required members")


@validator(Code("S3561", Severity.ERROR, "UniqueSmokeTestCaseId",
                "two smoke test cases of a service (or an operation) share an ID"),
           rule="reference UniqueSmokeTestCaseIdValidator (smithy-smoke-test-traits); smoke-tests.rst, "
                "SmokeTestCase: id unique in a service",
           packages=("smithy.test",))
@distinct
def check_unique_smoke_test_ids(model: Model) -> Iterable[Diagnostic]:
    """Smoke test case IDs are unique among the operations of each service, and within each
    operation bound to no service.

    Spec: smoke-tests.rst §"smokeTests trait" (``id``: "MUST be unique across all test cases
    in the service"). Reference ``UniqueSmokeTestCaseIdValidator`` (event
    ``UniqueSmokeTestCaseId``, on every operation holding a conflicting ID).
    """
    top_down = model.knowledge(TopDownIndex)
    bound: set[str] = set()
    groups: list[list[str]] = []
    for service in model.of_type("service"):
        ops = top_down.contained_operations(service.id)
        groups.append(ops)
        bound.update(ops)
    groups += [[op.id] for op in model.of_type("operation") if SMOKE_TESTS in op.traits and op.id not in bound]
    for ops in groups:
        by_id: dict[str, list[str]] = {}
        for op_id in ops:
            for case in _cases(model.shapes[op_id]):
                if isinstance(case.get("id"), str):
                    by_id.setdefault(case["id"], []).append(op_id)
        for case_id, holders in sorted(by_id.items()):
            if len(holders) < 2:
                continue
            for op_id in holders:
                yield event(model, "S3561", op_id, f"Conflicting `{SMOKE_TESTS}` test case IDs found for ID "
                            f"`{case_id}`: {ticked(holders)}", hint="give each test case of the service its own ID")


__all__ = ["check_smoke_test_cases", "check_unique_smoke_test_ids"]
