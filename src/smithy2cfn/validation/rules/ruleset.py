"""smithy-rules-engine: the validators of endpoint rule sets, BDDs, endpoint tests and context
parameters (rules-engine/specification.rst, rules-engine/parameters.rst).

The rules engine's language (reading ``smithy.rules#endpointRuleSet`` and ``#endpointBdd``
into plain records, evaluating a rule set over a test case) is
:mod:`smithy2cfn.languages.rules_engine`; each service's rule set and BDD are read once per
model (:class:`RuleSetIndex`). Reference validators mirrored here:

* trait creation (``EndpointRuleSet.fromNode``, ``Parameter.fromNode``,
  ``EndpointBddTrait.fromNode``): a rule set or BDD that cannot be read is an ERROR ``Model``
  ("Error creating trait ..."), and the checks below skip it;
* ``StaticContextParamsTraitValidator``, ``OperationContextParamsTraitValidator``,
  ``RuleSetParameterValidator``, ``RuleSetAuthSchemesValidator`` (with the AWS auth scheme
  validators of ``EndpointAuthUtils``), ``RuleSetBuiltInValidator``, ``RuleSetUriValidator``,
  ``RuleSetParamMissingDocsValidator``, ``RulesEngineVersionValidator``,
  ``BddTraitValidator`` and ``EndpointTestsTraitValidator``;
* ``RuleSetTestCaseValidator``: each endpoint test case is evaluated; a case that reaches
  ``parseURL``, ``uriEncode`` or an ``aws.*`` function (which needs the AWS partitions data)
  is not judged;
* smithy-aws-endpoints: ``RuleSetAwsBuiltInValidator`` (the built-ins that need care).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.languages.jmespath_lint import JmespathSyntaxError, lint, parse, sample_value
from smithy2cfn.languages.rules_engine import (
    BUILT_INS,
    RESULT_OFFSET,
    Bdd,
    RulesError,
    RuleSet,
    all_rules,
    endpoint_rules,
    evaluate_test_case,
    is_node_reference,
    newer_function,
    parameter_type_of_value,
    read_bdd,
    read_rule_set,
    show_expression,
    show_node,
)
from smithy2cfn.model.knowledge import TopDownIndex
from smithy2cfn.model.knowledge_ops import OperationIndex
from smithy2cfn.model.nodes import canonical, node_type
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.model.traits import (
    RULES_CLIENT_CONTEXT_PARAMS,
    RULES_CONTEXT_PARAM,
    RULES_ENDPOINT_BDD,
    RULES_ENDPOINT_RULE_SET,
    RULES_ENDPOINT_TESTS,
    RULES_OPERATION_CONTEXT_PARAMS,
    RULES_STATIC_CONTEXT_PARAMS,
)
from smithy2cfn.records import Record
from smithy2cfn.regexes import lazy
from smithy2cfn.validation.support.events import at_trait, diag
from smithy2cfn.validation.support.node_values import NodeChecker
from smithy2cfn.validation.support.shapes import user_shapes_of_type

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: AWS built-ins whose rules need extra care (reference ``RuleSetAwsBuiltInValidator``).
CAREFUL_BUILT_INS = ("AWS::Auth::AccountId", "AWS::Auth::AccountIdEndpointMode", "AWS::Auth::CredentialScope")


class _Read(Record):
    """What was read of one service's rule set and BDD; ``problems`` lists ``(trait ID,
    message)`` for a trait that could not be read (:func:`check_rule_set_traits` reports them)."""

    __slots__ = ("rule_set", "bdd", "bdd_nodes", "problems")
    rule_set: RuleSet | None
    bdd: RuleSet | None
    bdd_nodes: Bdd | None
    problems: tuple[tuple[str, str], ...]

    def __init__(self, rule_set: RuleSet | None = None, bdd: RuleSet | None = None,
                 bdd_nodes: Bdd | None = None, problems: tuple[tuple[str, str], ...] = ()) -> None:
        self.rule_set = rule_set
        self.bdd = bdd
        self.bdd_nodes = bdd_nodes
        self.problems = problems


def _read_service(service: Shape) -> _Read:
    found = _Read()
    problems: list[tuple[str, str]] = []
    if RULES_ENDPOINT_RULE_SET in service.traits:
        try:
            found.rule_set = read_rule_set(service.traits[RULES_ENDPOINT_RULE_SET])
        except (RulesError, RecursionError, ValueError, OverflowError) as e:
            problems.append((RULES_ENDPOINT_RULE_SET, str(e)))
    if RULES_ENDPOINT_BDD in service.traits:
        try:
            found.bdd, found.bdd_nodes = read_bdd(service.traits[RULES_ENDPOINT_BDD])
        except (RulesError, RecursionError, ValueError, OverflowError) as e:
            problems.append((RULES_ENDPOINT_BDD, str(e)))
    found.problems = tuple(problems)
    return found


class RuleSetIndex:
    """Each user service with ``@endpointRuleSet`` or ``@endpointBdd``, read once per model
    (``model.knowledge(RuleSetIndex)``): :attr:`services` lists ``(service, read)``."""

    def __init__(self, model: Model) -> None:
        self.services: list[tuple[Shape, _Read]] = [
            (s, _read_service(s)) for s in user_shapes_of_type(model, "service")
            if s.type == "service" and (RULES_ENDPOINT_RULE_SET in s.traits or RULES_ENDPOINT_BDD in s.traits)]


def _services(model: Model) -> list[tuple[Shape, _Read]]:
    """Each user service with a rule set or BDD, and what was read of them."""
    return model.knowledge(RuleSetIndex).services


def _rule_sets(read: _Read) -> list[tuple[RuleSet, str]]:
    """The readable rule set and BDD of a service, each with its trait ID."""
    return [(rs, t) for rs, t in ((read.rule_set, RULES_ENDPOINT_RULE_SET), (read.bdd, RULES_ENDPOINT_BDD))
            if rs is not None]


@validator(Code("S3770", Severity.ERROR, "Model",
                "an `@endpointRuleSet` or `@endpointBdd` value cannot be read (bad structure, parameter, version, "
                "base64 nodes, node count): the trait is not created"),
           rule="reference EndpointRuleSet.fromNode, Parameters.fromNode and EndpointBddTrait.fromNode (smithy-rules-engine, trait creation); Smithy rules-engine/specification.rst, Endpoint rule set object and smithy.rules#endpointBdd trait",
           packages=("smithy.rules",))
def check_rule_set_traits(model: Model) -> Iterable[Diagnostic]:
    """``@endpointRuleSet`` and ``@endpointBdd`` values can be read.

    Spec: rules-engine/specification.rst; reference ``EndpointRuleSet.fromNode``,
    ``Parameter.fromNode``, ``EndpointBddTrait.fromNode``. Code ``S3770`` (ERROR ``Model``).
    """
    hints = {RULES_ENDPOINT_RULE_SET: "see the rules engine specification (rules-engine/specification.rst)",
             RULES_ENDPOINT_BDD: "regenerate the BDD from the rule set"}
    for service, read in _services(model):
        for trait, message in read.problems:
            yield at_trait(model, diag(model, "S3770", None, service.id, f"Error creating trait `{trait}`: {message}",
                                       hint=hints[trait]), trait)


# --------------------------------------------------------------------------- operation params


@validator(Code("S3771", Severity.ERROR, "StaticContextParamsTrait",
                "a `@staticContextParams` value is not a string, a boolean or a list of strings"),
           rule="reference StaticContextParamsTraitValidator (smithy-rules-engine); Smithy rules-engine/parameters.rst, smithy.rules#staticContextParams trait",
           packages=("smithy.rules",))
def check_static_context_params(model: Model) -> Iterable[Diagnostic]:
    """``@staticContextParams`` values are strings, booleans or arrays of strings.

    Spec: rules-engine/parameters.rst §"smithy.rules#staticContextParams trait"; reference
    ``StaticContextParamsTraitValidator``. Code ``S3771`` (ERROR ``StaticContextParamsTrait``).
    """
    for op in model.shapes_with_trait(RULES_STATIC_CONTEXT_PARAMS):
        params = op.traits[RULES_STATIC_CONTEXT_PARAMS]
        if op.type != "operation" or not isinstance(params, dict):
            continue
        for name, definition in params.items():
            if not isinstance(definition, dict) or "value" not in definition:
                continue
            value = definition["value"]
            if parameter_type_of_value(value) is None:
                yield at_trait(model, diag(
                    model, "S3771", None, op.id,
                    f"The operation `{op.id}` is marked with `{RULES_STATIC_CONTEXT_PARAMS}` which contains a key "
                    f"`{name}` with an unsupported document type value `{node_type(value)}`.",
                    hint="use a string, a boolean or a list of strings"), RULES_STATIC_CONTEXT_PARAMS)


_UNSUPPORTED_JMESPATH = {
    "comparator": "comparator", "index_expression": None, "index": "index", "literal": "literal",
    "multi_select_dict": "multiselect hash", "and_expression": "and", "or_expression": "or",
    "not_expression": "not", "filter_projection": "filter projection", "slice": "slice",
}


def _unsupported(tree: dict) -> list[str]:
    """What an ``operationContextParams`` path uses beyond the supported subset (reference
    ``UnsupportedJmesPathVisitor``): only fields, sub-expressions, projections, flattens,
    multi-select lists and ``keys(...)``."""
    out: list[str] = []
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        kind = node.get("type")
        if kind == "function_expression":
            if node.get("value") == "keys":
                stack.extend(reversed(node.get("children", [])))
            else:
                out.append(f"`{node.get('value')}` function")
            continue
        if kind == "index_expression":
            # jmespath's `a[0]` is index_expression(a, index(0)); `a[*]` is a projection
            stack.extend(reversed(node.get("children", [])))
            continue
        label = _UNSUPPORTED_JMESPATH.get(kind or "")
        if label:
            out.append(label)
            continue
        stack.extend(reversed(node.get("children", [])))
    return out


def _operation_context_type(model: Model, op_id: str, path: str) -> str | None:
    """The parameter type an ``operationContextParams`` path gives (reference
    ``OperationContextParamsChecker.inferParameterType``), or ``None``."""
    try:
        expression = parse(path)
    except JmespathSyntaxError:
        return None
    result = lint(expression, sample_value(model, model.knowledge(OperationIndex).input_id(op_id))).return_type
    return {"boolean": "Boolean", "string": "String", "array": "stringArray"}.get(result)


@validator(Code("S3772", Severity.ERROR, "OperationContextParamsTrait",
                "an `@operationContextParams` path does not parse, does not fit the input, or uses an unsupported "
                "JMESPath expression"),
           rule="reference OperationContextParamsTraitValidator (smithy-rules-engine); Smithy rules-engine/parameters.rst, smithy.rules#operationContextParams trait",
           packages=("smithy.rules",))
def check_operation_context_params(model: Model) -> Iterable[Diagnostic]:
    """``@operationContextParams`` paths parse, fit the input, and use the supported subset.

    Spec: rules-engine/parameters.rst §"smithy.rules#operationContextParams trait"; reference
    ``OperationContextParamsTraitValidator``. Code ``S3772`` (ERROR
    ``OperationContextParamsTrait``).
    """
    for op in model.shapes_with_trait(RULES_OPERATION_CONTEXT_PARAMS):
        params = op.traits[RULES_OPERATION_CONTEXT_PARAMS]
        if op.type != "operation" or not isinstance(params, dict):
            continue
        head = f"The operation `{op.id}` is marked with `{RULES_OPERATION_CONTEXT_PARAMS}` which contains a"
        for name, definition in params.items():
            path = definition.get("path") if isinstance(definition, dict) else None
            if not isinstance(path, str):
                continue
            try:
                expression = parse(path)
            except JmespathSyntaxError as e:
                yield at_trait(model, diag(model, "S3772", None, op.id,
                                           f"{head} key `{name}` with an unparseable JMESPath path `{path}`: {e}.",
                                           hint="see https://jmespath.org/specification.html"),
                               RULES_OPERATION_CONTEXT_PARAMS)
                continue
            result = lint(expression, sample_value(model, model.knowledge(OperationIndex).input_id(op.id)))
            if result.problems:
                listed = ", ".join(f"'{p.message}'" for p in result.problems)
                yield at_trait(model, diag(model, "S3772", None, op.id,
                                           f"{head} path `{name}` with an invalid JMESPath path `{path}`: {listed}.",
                                           hint="name members of the operation's input"),
                               RULES_OPERATION_CONTEXT_PARAMS)
            unsupported = _unsupported(expression.tree)
            if unsupported:
                listed = ", ".join(f"'{u}'" for u in unsupported)
                yield at_trait(model, diag(
                    model, "S3772", None, op.id,
                    f"{head} key `{name}` with a JMESPath path `{path}` with unsupported expressions: {listed}.",
                    hint="use only fields, projections, flattens, multi-select lists and keys()"),
                    RULES_OPERATION_CONTEXT_PARAMS)


# --------------------------------------------------------------------------- parameters


def _model_parameters(model: Model, service: Shape, operations: list[Shape]) -> tuple[dict[str, str], list[Diagnostic]]:
    """The endpoint parameters the service model binds (name → type) and the type conflicts
    between them (reference ``RuleSetParameterValidator.validateAndExtractParameters``)."""
    params: dict[str, str] = {}
    problems: list[Diagnostic] = []

    def bind(name: str, ptype: str, code: str, node_id: str, trait: str) -> None:
        """Record ``name``'s type; a second, different type is an error at ``trait``."""
        if name in params and params[name] != ptype:
            problems.append(at_trait(model, diag(model, code, None, node_id,
                                                 f"Inconsistent type for `{name}` parameter"), trait))
        else:
            params[name] = ptype

    client = service.traits.get(RULES_CLIENT_CONTEXT_PARAMS)
    if isinstance(client, dict):
        for name, definition in client.items():
            kind = definition.get("type") if isinstance(definition, dict) else None
            if kind in ("string", "boolean"):
                params[name] = kind.capitalize()
    for op in operations:
        static = op.traits.get(RULES_STATIC_CONTEXT_PARAMS)
        if isinstance(static, dict):
            for name, definition in static.items():
                ptype = parameter_type_of_value(definition.get("value")) if isinstance(definition, dict) else None
                if ptype is not None:
                    bind(name, ptype, "S3773", op.id, RULES_STATIC_CONTEXT_PARAMS)
        context = op.traits.get(RULES_OPERATION_CONTEXT_PARAMS)
        if isinstance(context, dict):
            for name, definition in context.items():
                path = definition.get("path") if isinstance(definition, dict) else None
                ptype = _operation_context_type(model, op.id, path) if isinstance(path, str) else None
                if ptype is not None:
                    bind(name, ptype, "S3774", op.id, RULES_OPERATION_CONTEXT_PARAMS)
        structure = model.shapes.get(model.knowledge(OperationIndex).input_id(op.id))
        for member in (structure.members.values() if structure is not None else ()):
            trait = member.traits.get(RULES_CONTEXT_PARAM)
            name = trait.get("name") if isinstance(trait, dict) else None
            if not isinstance(name, str):
                continue
            target = model.shapes.get(member.target)
            if target is None or target.type not in ("string", "boolean"):
                shown = f"({target.type}: `{target.id}`)" if target is not None else member.target
                problems.append(at_trait(model, diag(
                    model, "S3775", None, member.id, f"Unsupported type `{shown}` for `{name}` parameter",
                    hint="a context parameter targets a string or a boolean"), RULES_CONTEXT_PARAM))
                continue
            bind(name, target.type.capitalize(), "S3776", member.id, RULES_CONTEXT_PARAM)
    return params, problems


def _bound_parameters(model: Model, service: Shape, op: Shape) -> set[str]:
    names: set[str] = set()
    for holder, trait in ((service, RULES_CLIENT_CONTEXT_PARAMS), (op, RULES_STATIC_CONTEXT_PARAMS),
                          (op, RULES_OPERATION_CONTEXT_PARAMS)):
        value = holder.traits.get(trait)
        if isinstance(value, dict):
            names.update(value)
    structure = model.shapes.get(model.knowledge(OperationIndex).input_id(op.id))
    for member in (structure.members.values() if structure is not None else ()):
        trait = member.traits.get(RULES_CONTEXT_PARAM)
        if isinstance(trait, dict) and isinstance(trait.get("name"), str):
            names.add(trait["name"])
    return names


def _test_cases(service: Shape) -> list[dict]:
    tests = service.traits.get(RULES_ENDPOINT_TESTS)
    cases = tests.get("testCases") if isinstance(tests, dict) else None
    return [c for c in cases if isinstance(c, dict)] if isinstance(cases, list) else []


@validator(Code("S3773", Severity.ERROR, "RuleSetParameter.StaticContextParams.InconsistentType",
                "a `@staticContextParams` value's type differs from the same parameter's elsewhere"),
           Code("S3774", Severity.ERROR, "RuleSetParameter.OperationContextParams.InconsistentType",
                "an `@operationContextParams` path's type differs from the same parameter's elsewhere"),
           Code("S3775", Severity.ERROR, "RuleSetParameter.ContextParam.UnsupportedType",
                "a `@contextParam` member targets neither a string nor a boolean"),
           Code("S3776", Severity.ERROR, "RuleSetParameter.ContextParam.InconsistentType",
                "a `@contextParam` member's type differs from the same parameter's elsewhere"),
           Code("S3777", Severity.ERROR, "RuleSetParameter.Operation.RequiredMissing",
                "an operation binds no value for a required rule set parameter without default"),
           Code("S3778", Severity.ERROR, "RuleSetParameter.RuleSet.UnmatchedName",
                "a rule set parameter the service model does not bind, or a bound parameter the rule set lacks"),
           Code("S3779", Severity.ERROR, "RuleSetParameter.RuleSet.TypeMismatch",
                "a rule set parameter's type differs from the type the service model binds"),
           Code("S3780", Severity.DANGER, "RuleSetParameter.TestCase.Unused",
                "a rule set parameter no endpoint test case sets"),
           Code("S3781", Severity.ERROR, "RuleSetParameter.TestCase.TypeMismatch",
                "an endpoint test case sets a parameter to a value of another type"),
           Code("S3782", Severity.ERROR, "RuleSetParameter.TestCase.RequiredMissing",
                "an endpoint test case lacks a required parameter without default"),
           Code("S3783", Severity.ERROR, "RuleSetParameter.TestCase.Undefined",
                "an endpoint test case sets a parameter the rule set does not define"),
           rule="reference RuleSetParameterValidator (smithy-rules-engine); Smithy rules-engine/parameters.rst, Rules engine parameters and their binding traits; rules-engine/specification.rst, smithy.rules#endpointTests trait (params)",
           packages=("smithy.rules",))
def check_rule_set_parameters(model: Model) -> Iterable[Diagnostic]:
    """Rule set parameters match what the service model binds, and the endpoint tests.

    Spec: rules-engine/parameters.rst, rules-engine/specification.rst §"smithy.rules#endpointTests trait"; reference
    ``RuleSetParameterValidator``. Codes ``S3773``–``S3783`` (ERROR, the ``TestCase.Unused``
    one DANGER; event IDs ``RuleSetParameter.<part>.<problem>``).
    """
    top_down = model.knowledge(TopDownIndex)
    for service, read in _services(model):
        operations = [model.shapes[o] for o in top_down.contained_operations(service.id) if o in model.shapes]
        for rule_set, trait in _rule_sets(read):
            bound, problems = _model_parameters(model, service, operations)
            yield from problems
            yield from _parameters_matching(model, service, trait, rule_set, bound)
            required = sorted(p.name for p in rule_set.parameters.values()
                              if p.required and p.default is None and p.built_in is None)
            if required:
                for op in operations:
                    names = _bound_parameters(model, service, op)
                    for name in required:
                        if name not in names:
                            yield diag(model, "S3777", None, op.id,
                                       f"Required parameter `{name}` is not bound by operation `{op.id.split('#')[-1]}`",
                                       hint="bind it with @contextParam, @staticContextParams or "
                                            "@operationContextParams, or give it a default")
            if RULES_ENDPOINT_TESTS in service.traits:
                yield from _test_parameters(model, service, rule_set, trait)


def _parameters_matching(model: Model, service: Shape, trait: str, rule_set: RuleSet,
                         bound: dict[str, str]) -> Iterator[Diagnostic]:
    matched: list[str] = []
    for p in rule_set.parameters.values():
        if p.built_in is not None:
            matched.append(p.name)
            continue
        if p.name not in bound:
            yield at_trait(model, diag(
                model, "S3778", None, service.id,
                f"Parameter `{p.name}` exists in ruleset but not in service model, existing params: "
                f"{listed(bound)}", hint="bind it with @clientContextParams or a context parameter trait"), trait)
            continue
        matched.append(p.name)
        if p.type != bound[p.name]:
            yield at_trait(model, diag(model, "S3779", None, service.id, f"Type mismatch for parameter `{p.name}`",
                                       hint=f"the service model binds it as {bound[p.name]}"), trait)
    for name in bound:
        if name not in matched:
            yield at_trait(model, diag(
                model, "S3778", None, service.id,
                f"Parameter `{name}` exists in service model but not in ruleset, existing params: "
                f"[{listed(matched)}]", hint="declare it in the rule set's parameters"), trait)


def _test_parameters(model: Model, service: Shape, rule_set: RuleSet, trait: str) -> Iterator[Diagnostic]:
    cases = _test_cases(service)
    used: dict[str, list[Any]] = {}
    for case in cases:
        params = case.get("params")
        if isinstance(params, dict):
            for name, value in params.items():
                used.setdefault(name, []).append(value)
    for p in rule_set.parameters.values():
        if p.name not in used:
            yield at_trait(model, diag(model, "S3780", None, service.id,
                                       f"Parameter `{p.name}` is never used in an `EndpointTests` test case",
                                       hint="add a test case that sets it"), RULES_ENDPOINT_TESTS)
        else:
            for value in used[p.name]:
                if parameter_type_of_value(value) != p.type:
                    yield at_trait(model, diag(model, "S3781", None, service.id,
                                               f"Type mismatch for parameter `{p.name}`, `{p.type}` expected"),
                                   RULES_ENDPOINT_TESTS)
        if p.required and p.default is None and len(used.get(p.name, ())) < len(cases):
            yield at_trait(model, diag(model, "S3782", None, service.id,
                                       f"Required parameter `{p.name}` is missing in at least one test case",
                                       hint="set it in every test case, or give it a default"), RULES_ENDPOINT_TESTS)
    for name in used:
        if name not in rule_set.parameters:
            yield at_trait(model, diag(model, "S3783", None, service.id,
                                       f"Test parameter `{name}` is not defined in ruleset"), RULES_ENDPOINT_TESTS)


@validator(Code("S3787", Severity.WARNING, "RuleSetParamMissingDocs", "a rule set parameter has no documentation"),
           rule="reference RuleSetParamMissingDocsValidator (smithy-rules-engine); Smithy rules-engine/parameters.rst, Parameter evolution (a parameter SHOULD have documentation)",
           packages=("smithy.rules",))
def check_param_docs(model: Model) -> Iterable[Diagnostic]:
    """Rule set parameters have documentation (a warning).

    Spec: rules-engine/parameters.rst (``documentation``); reference ``RuleSetParamMissingDocsValidator``. Code ``S3787`` (WARNING
    ``RuleSetParamMissingDocs``).
    """
    for service, read in _services(model):
        for rule_set, trait in _rule_sets(read):
            for p in rule_set.parameters.values():
                if p.documentation is None:
                    yield at_trait(model, diag(model, "S3787", None, service.id,
                                               f"Parameter `{p.name}` does not have documentation"), trait)


@validator(Code("S3785", Severity.ERROR, "RuleSetBuiltIn",
                "a built-in parameter (in the rule set or a test's `builtInParams`) is not a registered built-in "
                "(`RuleSetBuiltIn.RuleSet`, `RuleSetBuiltIn.TestCase.<i>.Inputs.<j>`)"),
           rule="reference RuleSetBuiltInValidator (smithy-rules-engine); Smithy rules-engine/parameters.rst, Built-ins; rules-engine/specification.rst, smithy.rules#endpointTests trait (builtInParams)",
           packages=("smithy.rules",))
def check_built_ins(model: Model) -> Iterable[Diagnostic]:
    """The built-in of each rule set and BDD parameter, and each built-in an endpoint test's
    operation input sets, is a registered one (:data:`~smithy2cfn.languages.rules_engine.BUILT_INS`).

    Spec: rules-engine/parameters.rst §"builtIn"; reference ``RuleSetBuiltInValidator``.
    """
    known = ", ".join(sorted(BUILT_INS))
    for service, read in _services(model):
        for rule_set, trait in _rule_sets(read):
            for p in rule_set.parameters.values():
                if p.built_in is not None and p.built_in not in BUILT_INS:
                    yield at_trait(model, diag(
                        model, "S3785", None, service.id,
                        f"The `{p.built_in}` built-in used is not registered, valid built-ins: {known}",
                        "RuleSetBuiltIn.RuleSet"), trait)
    for service in model.shapes_with_trait(RULES_ENDPOINT_TESTS):
        if service.type != "service" or service.id in model.prelude_ids:
            continue
        for i, case in enumerate(_test_cases(service)):
            inputs = case.get("operationInputs")
            for j, entry in enumerate(inputs if isinstance(inputs, list) else []):
                built_ins = entry.get("builtInParams") if isinstance(entry, dict) else None
                for name in (built_ins if isinstance(built_ins, dict) else ()):
                    if name not in BUILT_INS:
                        yield at_trait(model, diag(
                            model, "S3785", None, service.id,
                            f"The `{name}` built-in used is not registered, valid built-ins: {known}",
                            f"RuleSetBuiltIn.TestCase.{i}.Inputs.{j}"), RULES_ENDPOINT_TESTS)


@validator(Code("S3800", Severity.DANGER, "RuleSetAwsBuiltIn",
                "a rule set uses an AWS built-in that needs care (`AWS::Auth::AccountId`...; "
                "`RuleSetAwsBuiltIn.<built-in>`)"),
           rule="reference RuleSetAwsBuiltInValidator (smithy-aws-endpoints); Smithy aws/rules-engine/built-ins.rst, AWS::Auth::AccountId, AWS::Auth::AccountIdEndpointMode and AWS::Auth::CredentialScope built-ins",
           packages=("smithy.rules",))
def check_aws_built_ins(model: Model) -> Iterable[Diagnostic]:
    """A rule set or BDD parameter bound to ``AWS::Auth::AccountId``,
    ``AWS::Auth::AccountIdEndpointMode`` or ``AWS::Auth::CredentialScope`` needs a review of
    the rules that use it (a danger, to suppress once reviewed).

    Spec: aws/aws-endpoints-region.rst; reference ``RuleSetAwsBuiltInValidator``
    (smithy-aws-endpoints).
    """
    for service, read in _services(model):
        for rule_set, trait in _rule_sets(read):
            for p in rule_set.parameters.values():
                if p.built_in in CAREFUL_BUILT_INS:
                    yield at_trait(model, diag(
                        model, "S3800", None, service.id,
                        f"The `{p.built_in}` built-in used requires additional consideration of the rules that use it.",
                        f"RuleSetAwsBuiltIn.{p.built_in}",
                        hint="suppress this once the rules that use it are reviewed"), trait)


# --------------------------------------------------------------------------- rules


def _auth_problems(name: str, scheme: dict[str, Any]) -> list[tuple[Severity, str]]:
    """The problems of one auth scheme of an endpoint (reference ``EndpointAuthUtils``
    validators); ``[]`` when none applies is reported by the caller."""
    out: list[tuple[Severity, str]] = []

    def typed(key: str, kind: str, label: str) -> None:
        value = scheme.get(key)
        if value is None:
            out.append((Severity.ERROR, f"Expected auth property `{key}` of {label} type but didn't find one"))
        elif value[0] != kind:
            out.append((Severity.ERROR, f"Unexpected type for auth property `{key}`, found `{show_expression(value)}` but "
                                        f"expected {label} value"))

    def only(allowed: tuple[str, ...]) -> None:
        for key in scheme:
            if key not in allowed:
                out.append((Severity.ERROR, f"Unexpected key: `{key}` (valid keys: [{', '.join(allowed)}])"))

    if name in ("sigv4", "sigv4a"):
        only(("name", "signingName", "signingRegion" if name == "sigv4" else "signingRegionSet",
              "disableDoubleEncoding", "disableNormalizePath"))
        if name == "sigv4a":
            region_set = scheme.get("signingRegionSet")
            typed("signingRegionSet", "tuple", "an array<string>")
            if region_set is not None and region_set[0] == "tuple":
                if not region_set[1]:
                    out.append((Severity.ERROR, "The `signingRegionSet` property must not be an empty list."))
                for item in region_set[1]:
                    if item[0] != "str":
                        out.append((Severity.ERROR, "Unexpected type for auth property `signingRegionSet.Value`, "
                                                    f"found `{show_expression(item)}` but expected a string value"))
        for key, kind, label in (("signingName", "str", "a string"), ("disableDoubleEncoding", "bool", "a boolean"),
                                 ("disableNormalizePath", "bool", "a boolean")):
            if key in scheme:
                typed(key, kind, label)
        if name == "sigv4" and "signingRegion" in scheme:
            typed("signingRegion", "str", "a string")
    elif name.startswith("sigv4-") or name.startswith("beta-"):
        typed("signingName", "str", "a string")
        if name.startswith("sigv4-"):
            out.append((Severity.DANGER, "Requirements for `sigv4-` auth sub-scheme validation may change."))
    return out


def _has_auth_validator(name: str) -> bool:
    return name in ("sigv4", "sigv4a") or name.startswith("sigv4-") or name.startswith("beta-")


@validator(Code("S3784", Severity.ERROR, "RuleSetAuthSchemes",
                "an endpoint's `authSchemes` is not a list of named schemes, names one twice, or a "
                "sigv4/sigv4a/beta scheme has bad properties (a `sigv4-` sub-scheme: danger; an unknown scheme: "
                "warning)", also=(Severity.DANGER, Severity.WARNING,)),
           rule="reference RuleSetAuthSchemesValidator (smithy-rules-engine); Smithy rules-engine/specification.rst, Endpoint object (authSchemes); aws/rules-engine/auth-schemes.rst (the sigv4, sigv4a, sigv4-* and beta-* validators of smithy-aws-endpoints)",
           packages=("smithy.rules",))
def check_auth_schemes(model: Model) -> Iterable[Diagnostic]:
    """Each endpoint's ``authSchemes`` property is a list of named, well-formed schemes.

    Reference ``RuleSetAuthSchemesValidator`` with the AWS scheme validators
    (``EndpointAuthUtils``: ``sigv4``, ``sigv4a``, ``sigv4-*``, ``beta-*``). Code ``S3784``
    (``RuleSetAuthSchemes``: ERROR; DANGER for a ``sigv4-`` sub-scheme; WARNING for a scheme
    no validator knows). Spec: rules-engine/specification.rst §"Endpoint object"
    (``authSchemes``), aws/rules-engine/auth-schemes.rst.
    """
    for service, read in _services(model):
        for rule_set, trait in _rule_sets(read):
            for rule in endpoint_rules(rule_set):
                schemes = rule.properties.get("authSchemes")
                if schemes is None:
                    continue
                if schemes[0] != "tuple":
                    yield at_trait(model, diag(model, "S3784", None, service.id,
                                               f"Expected `authSchemes` to be a list, found: `{show_expression(schemes)}`"),
                                   trait)
                    continue
                names: list[str] = []
                duplicates: list[str] = []
                for entry in schemes[1]:
                    if entry[0] != "record":
                        yield at_trait(model, diag(
                            model, "S3784", None, service.id,
                            f"Expected `authSchemes` to be a list of objects, but found: `{show_expression(entry)}`"), trait)
                        continue
                    name = entry[1].get("name")
                    if name is None or name[0] != "str":
                        yield at_trait(model, diag(
                            model, "S3784", None, service.id,
                            "Expected `authSchemes` to have a `name` key with a string value but it did not: "
                            f"`{show_expression(entry)}`", hint='give each auth scheme a `"name"`'), trait)
                        continue
                    if "{" in name[1].replace("{{", "").replace("}}", ""):
                        continue  # a template: not checked statically
                    text = name[1].replace("{{", "{").replace("}}", "}")
                    if text in names and text not in duplicates:
                        duplicates.append(text)
                    names.append(text)
                    if not _has_auth_validator(text):
                        yield at_trait(model, diag(model, "S3784", Severity.WARNING, service.id,
                                                   f"Did not find a validator for the `{text}` auth scheme"), trait)
                        continue
                    for severity, message in _auth_problems(text, entry[1]):
                        yield at_trait(model, diag(model, "S3784", severity, service.id, message), trait)
                for name in duplicates:
                    yield at_trait(model, diag(model, "S3784", None, service.id,
                                               f"Found duplicate `name` of `{name}` in the `authSchemes` list",
                                               hint="list each auth scheme once"), trait)


@validator(Code("S3786", Severity.ERROR, "RuleSetUri",
                "an endpoint URL starts with literal text other than `http://` or `https://`"),
           rule="reference RuleSetUriValidator (smithy-rules-engine); Smithy rules-engine/specification.rst, Endpoint object (url)",
           packages=("smithy.rules",))
def check_uris(model: Model) -> Iterable[Diagnostic]:
    """An endpoint URL that starts with literal text starts with ``http://`` or ``https://``.

    Spec: rules-engine/specification.rst §"Endpoint object" (``url``); reference ``RuleSetUriValidator``. Code ``S3786`` (ERROR ``RuleSetUri``).
    """
    for service, read in _services(model):
        for rule_set, trait in _rule_sets(read):
            for rule in endpoint_rules(rule_set):
                url = rule.url
                if url is None or url[0] != "str" or not url[1] or url[1].startswith("{") and not \
                        url[1].startswith("{{"):
                    continue
                text = url[1]
                end = len(text)
                i = 0
                while i < len(text):
                    if text.startswith("{{", i) or text.startswith("}}", i):
                        i += 2
                        continue
                    if text[i] == "{":
                        end = i
                        break
                    i += 1
                literal = text[:end].replace("{{", "{").replace("}}", "}")
                if not (literal.startswith("http://") or literal.startswith("https://")):
                    yield at_trait(model, diag(
                        model, "S3786", None, service.id,
                        f"URI should start with `http://` or `https://` but the URI started with {literal}",
                        hint="write the scheme in the URL template"), trait)


@validator(Code("S3788", Severity.ERROR, "RulesEngineVersion",
                "a rule set uses a function (coalesce, ite, split, negative getAttr index) newer than its declared "
                "version"),
           rule="reference RulesEngineVersionValidator (smithy-rules-engine); Smithy rules-engine/specification.rst, version; rules-engine/standard-library.rst (functions newer than 1.0)",
           packages=("smithy.rules",))
def check_rules_version(model: Model) -> Iterable[Diagnostic]:
    """Functions are only used from the rules engine version that has them (``coalesce``,
    ``ite``, ``split`` and negative ``getAttr`` indexes need 1.1).

    Spec: rules-engine/specification.rst (``version``), rules-engine/standard-library.rst;
    reference ``RulesEngineVersionValidator``: each condition's function and its direct
    arguments, endpoint URLs and headers, and error expressions. Code ``S3788`` (ERROR
    ``RulesEngineVersion``).
    """
    for service, read in _services(model):
        for rule_set, trait in _rule_sets(read):
            declared = f"{rule_set.version[0]}.{rule_set.version[1]}"
            if rule_set.version >= (1, 1):
                continue
            elements: list[Any] = []
            for fn, args, _assign in rule_set.conditions:
                elements.append(("fn", fn, args))
                elements.extend(args)
            for rule in all_rules(rule_set.rules):
                for fn, args, _assign in rule.conditions:
                    elements.append(("fn", fn, args))
                    elements.extend(args)
                elements.extend([rule.url, *(v for values in rule.headers.values() for v in values), rule.error])
            for element in elements:
                name = newer_function(element)
                if name:
                    yield at_trait(model, diag(
                        model, "S3788", None, service.id,
                        f"{name} requires rules engine version >= 1.1, but ruleset declares version {declared}",
                        hint='declare "version": "1.1"'), trait)


@validator(Code("S3789", Severity.ERROR, "BddTrait",
                "an `@endpointBdd` node or root refers to a condition, node or result that does not exist"),
           rule="reference BddTraitValidator (smithy-rules-engine); Smithy rules-engine/specification.rst, smithy.rules#endpointBdd trait",
           packages=("smithy.rules",))
def check_bdd(model: Model) -> Iterable[Diagnostic]:
    """A BDD's references point at nodes and results that exist.

    Spec: rules-engine/specification.rst (``endpointBdd`` trait); reference ``BddTraitValidator``. Code ``S3789`` (ERROR ``BddTrait``).
    """
    for service, read in _services(model):
        bdd = read.bdd_nodes
        if bdd is None:
            continue

        def reference(context: str, ref: int, bdd: Bdd = bdd) -> str | None:
            if ref == 0:
                return f"{context} has invalid reference: 0"
            if is_node_reference(ref) and abs(ref) - 1 >= len(bdd.nodes):
                return (f"{context} reference {ref} points to non-existent node {abs(ref) - 1} "
                        f"(node count: {len(bdd.nodes)})")
            if ref >= RESULT_OFFSET and ref - RESULT_OFFSET >= bdd.result_count:
                return (f"{context} reference {ref} points to non-existent result {ref - RESULT_OFFSET} "
                        f"(result count: {bdd.result_count})")
            return None

        messages = [reference("Root", bdd.root)]
        for i in range(1, len(bdd.nodes)):
            variable, high, low = bdd.nodes[i]
            if not 0 <= variable < bdd.condition_count:
                messages.append(f"Node {i} has invalid variable index {variable} "
                                f"(condition count: {bdd.condition_count})")
            messages.append(reference(f"Node {i} high", high))
            messages.append(reference(f"Node {i} low", low))
        for message in messages:
            if message:
                yield at_trait(model, diag(model, "S3789", None, service.id, message,
                                           hint="regenerate the BDD from the rule set"), RULES_ENDPOINT_BDD)


# --------------------------------------------------------------------------- endpoint tests


@validator(Code("S3790", Severity.ERROR, "EndpointTestsTrait",
                "an endpoint test names an operation the service lacks, gives built-in values inconsistently or not"
                " at all, or an operation input that does not fit the input shape (danger)", also=(Severity.DANGER,)),
           rule="reference EndpointTestsTraitValidator (smithy-rules-engine); Smithy rules-engine/specification.rst, smithy.rules#endpointTests trait (operationInputs)",
           packages=("smithy.rules",))
def check_endpoint_tests(model: Model) -> Iterable[Diagnostic]:
    """Endpoint test cases name operations of the service, give built-in values consistently,
    and give operation inputs that fit the input shapes (their types and required members;
    constraint traits are not applied to them).

    Spec: rules-engine/specification.rst §"smithy.rules#endpointTests trait"; reference ``EndpointTestsTraitValidator``. Code
    ``S3790`` (``EndpointTestsTrait``: ERROR; an operation input that does not fit is DANGER
    when the reference lowers it: warnings, and every problem of a test expecting an error).
    """
    top_down = model.knowledge(TopDownIndex)
    for service, read in _services(model):
        if RULES_ENDPOINT_TESTS not in service.traits:
            continue
        by_name = {o.split("#")[-1]: o for o in top_down.contained_operations(service.id)}
        for rule_set, _trait in _rule_sets(read):
            for case in _test_cases(service):
                yield from _test_case(model, service, rule_set, case, by_name)


def _same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values are equal as :func:`~smithy2cfn.model.nodes.canonical` sees
    them, compared directly when both are strings or both booleans (a test case's
    parameters nearly always are), where the canonical texts are equal exactly when the
    values are."""
    if a.__class__ is b.__class__ and a.__class__ in (str, bool):
        return a == b
    return canonical(a) == canonical(b)


def _test_case(model: Model, service: Shape, rule_set: RuleSet, case: dict,
               by_name: dict[str, str]) -> Iterator[Diagnostic]:
    def emit(message: str, severity: Severity | None = None, event: str | None = None) -> Diagnostic:
        return at_trait(model, diag(model, "S3790", severity, service.id, message, event), RULES_ENDPOINT_TESTS)

    params = case.get("params") if isinstance(case.get("params"), dict) else {}
    built_ins = [p for p in rule_set.parameters.values() if p.built_in is not None]
    non_default = {p.name: params[p.name] for p in built_ins
                   if p.default is not None and p.name in params and not _same_json(params[p.name], p.default)}
    expects_error = isinstance(case.get("expect"), dict) and "error" in case["expect"]
    inputs = case.get("operationInputs")
    for entry in inputs if isinstance(inputs, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("operationName"), str):
            continue
        name = entry["operationName"]
        if name not in by_name:
            yield emit(f"Test case operation `{name}` does not exist in service `{service.id}`")
            continue
        given = entry.get("builtInParams") if isinstance(entry.get("builtInParams"), dict) else {}
        for p in built_ins:
            if p.name in non_default and p.built_in not in given:
                yield emit(f"Test case does not supply the `{json.dumps(non_default[p.name], ensure_ascii=False)}` value for the `{p.name}` "
                           f"parameter's `{p.built_in}` built-in.")
            if p.default is None and p.name in params and p.built_in not in given:
                yield emit(f"Operation input does not supply a value for the `{p.built_in}` built-in parameter and "
                           f"the `{p.name}` parameter does not set a default.")
        by_param = {p.name: p.built_in for p in built_ins}
        for pname, value in params.items():
            built_in = by_param.get(pname)
            if built_in is None or built_in not in given:
                continue
            if not _same_json(given[built_in], value):
                yield emit(f"Inconsistent testcase parameters: {show_node(value)} and {show_node(given[built_in])}")
        operation_params = entry.get("operationParams", {})
        # Types and structure only: constraint traits (@pattern...) are not applied, as the
        # published AWS models the reference accepts (s3-control) have error test cases whose
        # inputs break them on purpose.
        checker = NodeChecker(model, service.id.split("#")[0], constraints=False)
        checker.check(operation_params if operation_params is not None else {},
                      model.knowledge(OperationIndex).input_id(by_name[name]), {}, "")
        for severity, path, message in checker.problems:
            lowered = severity < Severity.DANGER or expects_error
            yield emit("The operationInput value for an endpoint test does not match the operation's input shape"
                       f"{path}: {message}", Severity.DANGER if lowered else severity,
                       _event_of("EndpointTestsTrait", message))


#: The node-value checker's message for a member the shape lacks (the reference's wording, and
#: the older one ``Invalid structure member ...``): its event ID names the shape and the member.
_UNKNOWN_MEMBER = (lazy(r"Member `(?P<m>[^`]*)` does not exist in `(?P<s>[^`]*)`"),
                   lazy(r"Invalid \w+ member `(?P<m>[^`]*)` found for `(?P<s>[^`]*)`"))


def _event_of(event: str, message: str) -> str:
    """``event``, or ``<event>.UnknownMember.<shape>.<member>`` for an unknown member's message
    (the reference's ``NodeValidationVisitor.unknownMember``)."""
    for pattern in _UNKNOWN_MEMBER:
        found = pattern.match(message)
        if found:
            return f"{event}.UnknownMember.{found['s']}.{found['m']}"
    return event


@validator(Code("S3791", Severity.ERROR, "RuleSetTestCase",
                "an endpoint test case does not give what it expects when the rule set is evaluated (a value of the"
                " wrong type, an empty split delimiter, another endpoint or error)"),
           rule="reference RuleSetTestCaseValidator (smithy-rules-engine, TestEvaluator); Smithy rules-engine/specification.rst, smithy.rules#endpointTests trait (expect)",
           packages=("smithy.rules",))
def check_test_cases(model: Model) -> Iterable[Diagnostic]:
    """Each endpoint test case gives the result it expects when the rule set (or, without one,
    the BDD) is evaluated.

    Spec: rules-engine/specification.rst §"smithy.rules#endpointTests trait"; reference
    ``RuleSetTestCaseValidator`` (``TestEvaluator``). Code ``S3791`` (ERROR
    ``RuleSetTestCase``). Cases that reach a function not evaluated here (``parseURL``,
    ``uriEncode``, ``aws.*``) are not judged.
    """
    for service, read in _services(model):
        if RULES_ENDPOINT_TESTS not in service.traits:
            continue
        # the rule set when there is one, else the BDD (as the reference chooses)
        rule_set, bdd = (read.rule_set, None) if read.rule_set is not None else (read.bdd, read.bdd_nodes)
        if rule_set is None:
            continue
        for case in _test_cases(service):
            problem = evaluate_test_case(rule_set, case, bdd)
            if problem:
                yield at_trait(model, diag(model, "S3791", None, service.id, problem,
                                           hint="fix the test case's expectation or the rules"),
                               RULES_ENDPOINT_TESTS)


__all__ = [
    "CAREFUL_BUILT_INS",
    "RuleSetIndex",
    "check_auth_schemes",
    "check_aws_built_ins",
    "check_bdd",
    "check_built_ins",
    "check_endpoint_tests",
    "check_operation_context_params",
    "check_param_docs",
    "check_rule_set_parameters",
    "check_rule_set_traits",
    "check_rules_version",
    "check_static_context_params",
    "check_test_cases",
    "check_uris",
]
