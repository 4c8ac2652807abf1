"""smithy-waiters: the ``smithy.waiters#waitable`` trait (waiters.rst).

Reference validators mirrored here: ``WaitableTraitValidator`` (with ``WaiterMatcherValidator``
for each acceptor's matcher) and ``UniqueWaiterNamesValidator``.

For every waiter of every ``@waitable`` operation:

* ``minDelay`` (default 2) must not exceed ``maxDelay`` (default 120) — ERROR ``WaitableTrait``;
* at least one acceptor must have the ``success`` state — ERROR ``WaitableTrait``;
* a ``message`` is only allowed on ``failure`` acceptors — ERROR ``WaitableTrait``; on a
  failure acceptor it is a JMESPath expression over the output that must give a string or
  an array of strings (ERROR ``WaitableTrait``);
* ``output`` / ``inputOutput`` matchers: ``path`` is a JMESPath expression, type-checked
  (:mod:`smithy2cfn.languages.jmespath_lint`) over a sample of the output structure, or of
  ``{"input": ..., "output": ...}``. A syntax error or an ERROR problem is ERROR
  ``WaitableTrait``; a DANGER problem is DANGER
  ``WaitableTraitJmespathProblem.JmespathEventDanger.<waiter>.<acceptor>``, a WARNING one
  WARNING ``WaitableTraitJmespathProblem.JmespathEventWarning.<waiter>.<acceptor>``. The
  result type must suit the comparator (``booleanEquals`` → boolean, ``stringEquals`` →
  string, ``allStringEquals``/``anyStringEquals`` → array), unless it is unknown: DANGER
  ``WaitableTraitJmespathProblem.ReturnTypeMismatch.<waiter>.<acceptor>``; and
  ``booleanEquals`` expects ``"true"`` or ``"false"`` (ERROR ``WaitableTrait``);
* ``errorType`` should name one of the operation's errors (by shape ID or name): WARNING
  ``WaitableTraitInvalidErrorType.<waiter>.<acceptor>`` otherwise.

Across the operations of each service, waiter names must be unique case-insensitively:
ERROR ``UniqueWaiterNames`` on each operation involved.

Every event is about the operation and located at its ``@waitable`` trait.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.languages.jmespath_lint import (
    ANY_TYPE,
    ARRAY,
    BOOLEAN,
    STRING,
    JmespathSyntaxError,
    LintResult,
    lint,
    parse,
    sample_value,
)
from smithy2cfn.model.knowledge import TopDownIndex
from smithy2cfn.model.knowledge_ops import OperationIndex
from smithy2cfn.model.nodes import is_number
from smithy2cfn.model.shapes import Model, ShapeId
from smithy2cfn.model.traits import WAITABLE
from smithy2cfn.validation.support.events import at_trait, diag
from smithy2cfn.validation.support.shapes import user_shapes_having

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_PROBLEM = "WaitableTraitJmespathProblem"
#: comparator → the result type it needs (reference ``WaiterMatcherValidator.validatePathMatcher``)
_COMPARATOR_TYPES = {"booleanEquals": BOOLEAN, "stringEquals": STRING, "allStringEquals": ARRAY,
                     "anyStringEquals": ARRAY}


class _Acceptor:
    """Collects the events of one acceptor (reference ``WaiterMatcherValidator``)."""

    def __init__(self, model: Model, operation: str, waiter: str, index: int, out: list[Diagnostic]) -> None:
        self.model, self.operation, self.waiter, self.index, self.out = model, operation, waiter, index, out

    def add(self, code: str, severity: Severity | None, message: str, event: str | None = None,
            hint: str | None = None) -> None:
        d = diag(self.model, code, severity, self.operation,
                 f"Waiter `{self.waiter}`, acceptor {self.index}: {message}", event, hint)
        self.out.append(at_trait(self.model, d, WAITABLE))

    def suffix(self) -> str:
        return f"{self.waiter}.{self.index}"

    # ---- JMESPath
    def report(self, text: str, result: LintResult) -> None:
        for problem in result.problems:
            message = f"Problem found in JMESPath expression ({text}): {problem}"
            if problem.severity == "ERROR":
                self.add("S3710", None, message)
            elif problem.severity == "DANGER":
                self.add("S3711", None, message, f"{_PROBLEM}.JmespathEventDanger.{self.suffix()}")
            else:
                self.add("S3712", None, message, f"{_PROBLEM}.JmespathEventWarning.{self.suffix()}")

    def check_path(self, current: Any, matcher: dict) -> None:
        path = matcher.get("path")
        comparator = matcher.get("comparator")
        if not isinstance(path, str):
            return  # TraitValue
        try:
            expression = parse(path)
        except JmespathSyntaxError as e:
            self.add("S3710", None, f"Invalid JMESPath expression ({path}): {e}",
                     hint="see https://jmespath.org/specification.html")
            returns = ANY_TYPE
        else:
            result = lint(expression, current)
            self.report(path, result)
            returns = result.return_type
        expected = matcher.get("expected")
        if comparator == "booleanEquals" and expected not in ("true", "false"):
            self.add("S3710", None, "Waiter acceptors with a booleanEquals comparator must set their `expected` "
                                    f"value to 'true' or 'false', but found '{expected}'.")
        needed = _COMPARATOR_TYPES.get(comparator) if isinstance(comparator, str) else None
        if needed is not None and returns != ANY_TYPE and returns != needed:
            self.add("S3711", None, f"Waiter acceptors with a {comparator} comparator must return a `{needed}` type, "
                                    f"but this acceptor was statically determined to return a `{returns}` type.",
                     f"{_PROBLEM}.ReturnTypeMismatch.{self.suffix()}",
                     hint=f"make the expression give a {needed}, or use a comparator that takes a {returns}")

    def check_message(self, text: str, output: Any) -> None:
        """Reference ``WaiterMatcherValidator.validateMessage``."""
        try:
            expression = parse(text)
        except JmespathSyntaxError as e:
            self.add("S3710", None, f"Invalid JMESPath expression in `message` ({text}): {e}")
            return
        result = lint(expression, output)
        self.report(text, result)
        if result.return_type == ARRAY:
            try:
                element = lint(parse(text + "[0]"), output).return_type
            except JmespathSyntaxError:
                element = ANY_TYPE
            if element != STRING:
                self.add("S3710", None, "The `message` JMESPath expression must resolve to a string or an array of "
                                        f"strings, but this expression resolves to an array of `{element}`.")
        elif result.return_type != STRING:
            self.add("S3710", None, "The `message` JMESPath expression must resolve to a string or an array of "
                                    "strings, but this expression was statically determined to return a "
                                    f"`{result.return_type}` type.")


class _Samples:
    """Sample values of an operation's output and of ``{input, output}``, made on first use."""

    def __init__(self, model: Model, operation: str) -> None:
        self.model, self.operation = model, operation
        self._output: Any = None
        self._input_output: Any = None

    def output(self) -> Any:
        if self._output is None:
            ops = self.model.knowledge(OperationIndex)
            self._output = sample_value(self.model, ops.output_id(self.operation))
        return self._output

    def input_output(self) -> Any:
        if self._input_output is None:
            ops = self.model.knowledge(OperationIndex)
            self._input_output = {"input": sample_value(self.model, ops.input_id(self.operation)),
                                  "output": self.output()}
        return self._input_output


@validator(Code("S3710", Severity.ERROR, "WaitableTrait",
                "a `@waitable` waiter is malformed: no success acceptor, `minDelay` > `maxDelay`, a `message` on a "
                "non-failure acceptor or not giving strings, a JMESPath syntax or function error, `booleanEquals` "
                "expecting neither \"true\" nor \"false\""),
           Code("S3711", Severity.DANGER, "WaitableTraitJmespathProblem",
                "a waiter's JMESPath expression does not fit the operation's input/output (a missing field, a wrong"
                " type), or gives the wrong type for its comparator (`.ReturnTypeMismatch`)"),
           Code("S3712", Severity.WARNING, "WaitableTraitJmespathProblem",
                "a waiter's JMESPath expression compares values of a type the comparator does not order"),
           Code("S3713", Severity.WARNING, "WaitableTraitInvalidErrorType",
                "a waiter's `errorType` names none of the operation's errors"),
           rule="reference WaitableTraitValidator and WaiterMatcherValidator (smithy-waiters); waiters.rst, "
                "smithy.waiters#waitable trait, Acceptor structure, PathMatcher structure and JMESPath "
                "static analysis",
           packages=("smithy.waiters",))
def check_waitable(model: Model) -> Iterable[Diagnostic]:
    """Waiters are well formed and their JMESPath expressions fit the operation.

    Spec: waiters.rst §"smithy.waiters#waitable trait", §"Acceptor structure", §"Matcher
    union", §"PathMatcher structure", §"Waiter names"; reference ``WaitableTraitValidator`` and
    ``WaiterMatcherValidator``. Codes: ``S3710`` (ERROR ``WaitableTrait``), ``S3711`` (DANGER
    ``WaitableTraitJmespathProblem...``), ``S3712`` (WARNING, JMESPath), ``S3713`` (WARNING
    ``WaitableTraitInvalidErrorType...``).
    """
    for operation in user_shapes_having(model, WAITABLE):
        if operation.type != "operation" or not isinstance(operation.traits.get(WAITABLE), dict):
            continue
        out: list[Diagnostic] = []
        samples = _Samples(model, operation.id)
        for name, waiter in operation.traits[WAITABLE].items():
            if not isinstance(waiter, dict):
                continue  # TraitValue
            low, high = waiter.get("minDelay", 2), waiter.get("maxDelay", 120)
            if is_number(low) and is_number(high) and low > high:
                out.append(at_trait(model, diag(
                    model, "S3710", None, operation.id,
                    f"`{WAITABLE}` trait waiter named `{name}` has a `minDelay` value of {low} that is greater "
                    f"than its `maxDelay` value of {high}"), WAITABLE))
            acceptors = waiter.get("acceptors")
            found_success = False
            for i, acceptor in enumerate(acceptors if isinstance(acceptors, list) else []):
                if not isinstance(acceptor, dict):
                    continue
                checker = _Acceptor(model, operation.id, name, i, out)
                matcher = acceptor.get("matcher")
                if isinstance(matcher, dict) and len(matcher) == 1:
                    kind, value = next(iter(matcher.items()))
                    if kind == "output" and isinstance(value, dict):
                        checker.check_path(samples.output(), value)
                    elif kind == "inputOutput" and isinstance(value, dict):
                        checker.check_path(samples.input_output(), value)
                    elif kind == "errorType" and isinstance(value, str):
                        errors = operation.errors
                        if not any(value in (e, ShapeId.name(e)) for e in errors):
                            checker.add("S3713", None,
                                        f"errorType '{value}' not found on operation. This operation defines "
                                        f"the following errors: [{listed(errors)}]",
                                        f"WaitableTraitInvalidErrorType.{checker.suffix()}")
                state = acceptor.get("state")
                if state == "success":
                    found_success = True
                message = acceptor.get("message")
                if message is not None and state != "failure":
                    checker.add("S3710", None, "The `message` property is only valid on acceptors with a "
                                               f"`failure` state, but found state `{state}`.")
                elif isinstance(message, str) and state == "failure":
                    checker.check_message(message, samples.output())
            if not found_success:
                out.append(at_trait(model, diag(
                    model, "S3710", None, operation.id,
                    f"No success state matcher found for `{WAITABLE}` trait waiter named `{name}`",
                    hint="add an acceptor with `state: \"success\"`"), WAITABLE))
        yield from out


@validator(Code("S3714", Severity.ERROR, "UniqueWaiterNames",
                "two operations of a service have waiters whose names differ only in case"),
           rule="reference UniqueWaiterNamesValidator (smithy-waiters); waiters.rst, Waiter names",
           packages=("smithy.waiters",))
def check_unique_waiter_names(model: Model) -> Iterable[Diagnostic]:
    """No two operations of a service have waiters whose names differ only in case.

    Spec: waiters.rst §"Waiter names" ("waiter names MUST be case-insensitively unique in the
    closure of a service"); reference ``UniqueWaiterNamesValidator``. Code ``S3714`` (ERROR
    ``UniqueWaiterNames``) on each operation involved.
    """
    index = model.knowledge(TopDownIndex)
    for service in model.of_type("service"):
        names: dict[str, set[str]] = {}
        for op_id in index.contained_operations(service.id):
            op = model.shapes.get(op_id)
            waiters = op.traits.get(WAITABLE) if op is not None else None
            if isinstance(waiters, dict):
                for name in waiters:
                    names.setdefault(name.lower(), set()).add(op_id)
        for name in sorted(names):
            operations = names[name]
            if len(operations) < 2:
                continue
            ordered = sorted(operations)
            for op_id in ordered:
                others = listed((o for o in ordered if o != op_id), total=len(ordered) - 1)
                yield at_trait(model, diag(
                    model, "S3714", None, op_id,
                    f"`{WAITABLE}` trait waiter name `{name}` case-insensitively conflicts with waiters on other "
                    f"operations in the closure of service, `{service.id}`: [{others}]",
                    hint="rename one of the waiters"), WAITABLE)


__all__ = ["check_unique_waiter_names", "check_waitable"]
