"""smithy-rules-engine: endpoint rule sets, BDDs, endpoint tests and context parameters
(rules-engine/specification.rst, rules-engine/parameters.rst, rules-engine/endpoint-tests.rst).

The traits ``smithy.rules#endpointRuleSet`` (a document), ``#endpointBdd``, ``#endpointTests``,
``#clientContextParams``, ``#staticContextParams``, ``#contextParam`` and
``#operationContextParams`` are read here into small plain records (:class:`Parameter`,
:class:`Rule`, expressions as tuples), the way the reference's ``EndpointRuleSet.fromNode``
and ``EndpointBddTrait.fromNode`` read them. Reference behaviour mirrored:

* trait creation (``EndpointRuleSet.fromNode``, ``Parameter.fromNode``,
  ``EndpointBddTrait.fromNode``): a rule set or BDD that cannot be read is an ERROR ``Model``
  ("Error creating trait ..."), and the checks below skip it;
* ``StaticContextParamsTraitValidator``, ``OperationContextParamsTraitValidator``,
  ``RuleSetParameterValidator``, ``RuleSetAuthSchemesValidator`` (with the AWS auth scheme
  validators of ``EndpointAuthUtils``), ``RuleSetBuiltInValidator``, ``RuleSetUriValidator``,
  ``RuleSetParamMissingDocsValidator``, ``RulesEngineVersionValidator``,
  ``BddTraitValidator`` and ``EndpointTestsTraitValidator``;
* ``RuleSetTestCaseValidator``: each endpoint test case is evaluated (reference
  ``RuleEvaluator`` with the core functions); a case that reaches ``parseURL``, ``uriEncode``
  or an ``aws.*`` function (which needs the AWS partitions data) is not judged;
* smithy-aws-endpoints: ``RuleSetAwsBuiltInValidator`` (the built-ins that need care).

Not done: the rule set's static type check at trait creation (``EndpointRuleSet.typeCheck``).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, declare_codes, listed
from smithy2cfn.languages.jmespath_lint import JmespathSyntaxError, lint, parse, sample_value
from smithy2cfn.model.knowledge import TopDownIndex
from smithy2cfn.model.knowledge_ops import OperationIndex
from smithy2cfn.model.nodes import canonical, is_number, node_type
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
from smithy2cfn.validation.support.events import at_trait, diag
from smithy2cfn.validation.support.node_values import NodeChecker
from smithy2cfn.validation.support.shapes import user_shapes_of_type

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S3770", Severity.ERROR, "Model",
         "an `@endpointRuleSet` or `@endpointBdd` value cannot be read (bad structure, parameter, version, "
         "base64 nodes, node count): the trait is not created"),
    Code("S3771", Severity.ERROR, "StaticContextParamsTrait",
         "a `@staticContextParams` value is not a string, a boolean or a list of strings"),
    Code("S3772", Severity.ERROR, "OperationContextParamsTrait",
         "an `@operationContextParams` path does not parse, does not fit the input, or uses an unsupported "
         "JMESPath expression"),
    Code("S3773", Severity.ERROR, "RuleSetParameter.StaticContextParams.InconsistentType",
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
    Code("S3784", Severity.ERROR, "RuleSetAuthSchemes",
         "an endpoint's `authSchemes` is not a list of named schemes, names one twice, or a "
         "sigv4/sigv4a/beta scheme has bad properties (a `sigv4-` sub-scheme: danger; an unknown scheme: "
         "warning)", also=(Severity.DANGER, Severity.WARNING,)),
    Code("S3785", Severity.ERROR, "RuleSetBuiltIn",
         "a built-in parameter (in the rule set or a test's `builtInParams`) is not a registered built-in "
         "(`RuleSetBuiltIn.RuleSet`, `RuleSetBuiltIn.TestCase.<i>.Inputs.<j>`)"),
    Code("S3786", Severity.ERROR, "RuleSetUri",
         "an endpoint URL starts with literal text other than `http://` or `https://`"),
    Code("S3787", Severity.WARNING, "RuleSetParamMissingDocs", "a rule set parameter has no documentation"),
    Code("S3788", Severity.ERROR, "RulesEngineVersion",
         "a rule set uses a function (coalesce, ite, split, negative getAttr index) newer than its declared "
         "version"),
    Code("S3789", Severity.ERROR, "BddTrait",
         "an `@endpointBdd` node or root refers to a condition, node or result that does not exist"),
    Code("S3790", Severity.ERROR, "EndpointTestsTrait",
         "an endpoint test names an operation the service lacks, gives built-in values inconsistently or not"
         " at all, or an operation input that does not fit the input shape (danger)", also=(Severity.DANGER,)),
    Code("S3791", Severity.ERROR, "RuleSetTestCase",
         "an endpoint test case does not give what it expects when the rule set is evaluated (a value of the"
         " wrong type, an empty split delimiter, another endpoint or error)"),
    Code("S3800", Severity.DANGER, "RuleSetAwsBuiltIn",
         "a rule set uses an AWS built-in that needs care (`AWS::Auth::AccountId`...; "
         "`RuleSetAwsBuiltIn.<built-in>`)"),
)

#: Built-in parameters the rules engine knows: the core one and those of the AWS extension
#: (reference ``BuiltIns``, ``AwsBuiltIns``).
BUILT_INS = (
    "SDK::Endpoint",
    "AWS::UseDualStack", "AWS::UseFIPS", "AWS::Region", "AWS::Auth::AccountId",
    "AWS::Auth::AccountIdEndpointMode", "AWS::Auth::CredentialScope", "AWS::S3::Accelerate",
    "AWS::S3::DisableMultiRegionAccessPoints", "AWS::S3::ForcePathStyle", "AWS::S3::UseArnRegion",
    "AWS::S3::UseGlobalEndpoint", "AWS::S3Control::UseArnRegion", "AWS::STS::UseGlobalEndpoint",
)
#: Built-ins whose rules need extra care (reference ``RuleSetAwsBuiltInValidator``).
CAREFUL_BUILT_INS = ("AWS::Auth::AccountId", "AWS::Auth::AccountIdEndpointMode", "AWS::Auth::CredentialScope")

_PARAMETER_PROPERTIES = ("builtIn", "required", "type", "deprecated", "documentation", "default")
#: Functions newer than rules engine 1.0 (reference ``availableSince`` of each function).
_SINCE_1_1 = {"coalesce": "Coalesce", "ite": "Ite", "split": "Split"}


class RulesError(ValueError):
    """A rule set, BDD or parameter that the reference cannot create (its message)."""


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Parameter:
    """One rule set parameter (reference ``Parameter``): ``type`` is ``"String"``,
    ``"Boolean"`` or ``"stringArray"`` (the reference's ``ParameterType`` names)."""

    name: str
    type: str
    required: bool = False
    built_in: str | None = None
    documentation: str | None = None
    default: Any = None


@dataclass
class Rule:
    """One rule: ``kind`` ``endpoint``, ``error`` or ``tree``; conditions as
    ``(fn, argv expressions, assigned name or None)``; the endpoint's URL, header and property expressions; the error
    expression; nested rules of a tree."""

    kind: str
    conditions: list[tuple[str, list[Any], str | None]] = field(default_factory=list)
    url: Any = None
    headers: dict[str, list[Any]] = field(default_factory=dict)
    properties: dict[str, Any] = field(default_factory=dict)
    error: Any = None
    rules: list[Rule] = field(default_factory=list)


@dataclass
class RuleSet:
    """A rule set or BDD as read: its version ``(major, minor)``, parameters, rules (for a
    BDD: its results) and free conditions (a BDD's)."""

    version: tuple[int, int]
    parameters: dict[str, Parameter]
    rules: list[Rule]
    conditions: list[tuple[str, list[Any], str | None]] = field(default_factory=list)


def parameter_type_of_value(value: Any) -> str | None:
    """The parameter type of a JSON value (reference ``ParameterType.fromNode``/``fromType``),
    or ``None`` when it is none of string, boolean, array of strings."""
    if isinstance(value, bool):
        return "Boolean"
    if isinstance(value, str):
        return "String"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "stringArray"
    return None


def _version(text: Any) -> tuple[int, int]:
    if not isinstance(text, str) or not text:
        raise RulesError("Version string cannot be null or empty")
    parts = text.split(".")
    if len(parts) < 2:
        raise RulesError(f"Invalid version: `{text}`. Expected format: major.minor")
    try:
        major, minor = int(parts[0]), int(parts[1])
    except ValueError:
        raise RulesError(f"Invalid version format: {text}") from None
    if major < 0 or minor < 0:
        raise RulesError("Version components must be non-negative")
    return major, minor


def read_parameters(value: Any) -> dict[str, Parameter]:
    """The parameters of a rule set (reference ``Parameters.fromNode``/``Parameter.fromNode``).

    Raises:
        RulesError: not an object of objects, an unknown property, a type that is not
            ``string``/``boolean``/``stringArray``, a default on a parameter not required.
    """
    if not isinstance(value, dict):
        raise RulesError("Expected `parameters` to be an object")
    out: dict[str, Parameter] = {}
    for name, node in value.items():
        where = f"while parsing the parameter `{name}`"
        if not isinstance(node, dict):
            raise RulesError(f"{where}: expected an object")
        extra = [k for k in node if k not in _PARAMETER_PROPERTIES]
        if extra:
            raise RulesError(f"{where}: unexpected properties {extra} (valid: {list(_PARAMETER_PROPERTIES)})")
        required = node.get("required", False)
        built_in, doc, kind = node.get("builtIn"), node.get("documentation"), node.get("type")
        if not isinstance(required, bool) or not isinstance(built_in, (str, type(None))) \
                or not isinstance(doc, (str, type(None))) or not isinstance(node.get("deprecated", {}), dict):
            raise RulesError(f"{where}: a property has the wrong type")
        if not isinstance(kind, str):
            raise RulesError(f"{where}: missing string member `type`")
        if kind.lower() == "string":
            ptype = "String"
        elif kind.lower() == "boolean":
            ptype = "Boolean"
        elif kind == "stringArray":
            ptype = "stringArray"
        else:
            raise RulesError(f"{where}: Unexpected parameter type `{kind}`. Expected `string`, `boolean`, "
                             "or `stringArray`.")
        if "default" in node and not required:
            raise RulesError(f"{where}: When a default value is set, the field must also be marked as required")
        out[name] = Parameter(name, ptype, required, built_in, doc, node.get("default"))
    return out


def read_expression(node: Any) -> Any:
    """An expression (reference ``Expression.fromNode``) as a tuple: ``("ref", name)``,
    ``("fn", name, [args])``, or a literal (:func:`read_literal`).

    Raises:
        RulesError: an object with not exactly one of ``ref`` and ``fn``, or a bad literal.
    """
    if isinstance(node, dict):
        if ("ref" in node) == ("fn" in node):
            raise RulesError("expected exactly one of `ref` or `fn` to be set")
        if "ref" in node:
            if not isinstance(node["ref"], str):
                raise RulesError("ref must be a string")
            return ("ref", node["ref"])
        if not isinstance(node["fn"], str) or not isinstance(node.get("argv"), list):
            raise RulesError("while parsing fn: expected `fn` (a string) and `argv` (an array)")
        return ("fn", node["fn"], [read_expression(a) for a in node["argv"]])
    return read_literal(node)


def read_literal(node: Any) -> Any:
    """A literal (reference ``Literal.fromNode``): ``("str", template text)``, ``("bool", v)``,
    ``("int", v)``, ``("tuple", [literals])`` or ``("record", {key: literal})``.

    Raises:
        RulesError: ``null``, or a template whose braces do not match.
    """
    if isinstance(node, dict):
        return ("record", {k: read_literal(v) for k, v in node.items()})
    if isinstance(node, bool):
        return ("bool", node)
    if isinstance(node, str):
        _template_check(node)
        return ("str", node)
    if is_number(node):
        return ("int", int(node))
    if isinstance(node, list):
        return ("tuple", [read_literal(v) for v in node])
    raise RulesError("null node not supported")


def _template_check(text: str) -> None:
    """Raise when a template's braces do not match (reference ``Template.parseTemplate``)."""
    depth, i = 0, 0
    while i < len(text):
        if text.startswith("{{", i) or text.startswith("}}", i):
            i += 2
            continue
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth < 0:
                raise RulesError("when parsing template: unmatched `}` in template")
        i += 1
    if depth != 0:
        raise RulesError("when parsing template: unmatched `{` in template")


def _condition(node: Any) -> tuple[str, list[Any], str | None]:
    if not isinstance(node, dict) or not isinstance(node.get("fn"), str) or not isinstance(node.get("argv"), list):
        raise RulesError("Expected a condition: an object with `fn` and `argv`")
    if "assign" in node and not isinstance(node["assign"], str):
        raise RulesError("Expected `assign` to be a string")
    return node["fn"], [read_expression(a) for a in node["argv"]], node.get("assign")


def read_rule(node: Any) -> Rule:
    """One rule (reference ``Rule.fromNode``).

    Raises:
        RulesError: not an object, an unknown ``type``, a missing endpoint/error/rules.
    """
    if not isinstance(node, dict):
        raise RulesError("while parsing rule: expected an object")
    kind = node.get("type")
    conditions = node.get("conditions", [])
    if not isinstance(conditions, list):
        raise RulesError("while parsing rule: expected `conditions` to be an array")
    rule = Rule(str(kind), [_condition(c) for c in conditions])
    if kind == "endpoint":
        endpoint = node.get("endpoint")
        if not isinstance(endpoint, dict) or "url" not in endpoint:
            raise RulesError("while parsing rule: an endpoint rule needs `endpoint` with a `url`")
        rule.url = read_expression(endpoint["url"])
        headers = endpoint.get("headers", {})
        properties = endpoint.get("properties", {})
        if not isinstance(headers, dict) or not all(isinstance(v, list) for v in headers.values()) \
                or not isinstance(properties, dict):
            raise RulesError("while parsing rule: bad `headers` or `properties`")
        rule.headers = {k: [read_expression(v) for v in values] for k, values in headers.items()}
        rule.properties = {k: read_literal(v) for k, v in properties.items()}
    elif kind == "error":
        if "error" not in node:
            raise RulesError("while parsing rule: an error rule needs `error`")
        rule.error = read_expression(node["error"])
    elif kind == "tree":
        if not isinstance(node.get("rules"), list):
            raise RulesError("while parsing rule: a tree rule needs `rules`")
        rule.rules = [read_rule(r) for r in node["rules"]]
    else:
        raise RulesError(f"while parsing rule: unexpected rule type `{kind}`")
    return rule


def read_rule_set(value: Any) -> RuleSet:
    """The ``@endpointRuleSet`` document (reference ``EndpointRuleSet.fromNode``).

    Raises:
        RulesError: the rule set cannot be read.
    """
    if not isinstance(value, dict):
        raise RulesError("when parsing endpoint ruleset: The root of a ruleset must be an object")
    for key, kind in (("parameters", dict), ("version", str), ("rules", list)):
        if not isinstance(value.get(key), kind):
            raise RulesError(f"when parsing endpoint ruleset: missing or wrong member `{key}`")
    parameters = read_parameters(value["parameters"])
    version = _version(value["version"])
    return RuleSet(version, parameters, [read_rule(r) for r in value["rules"]])


def _decode_base64(text: str) -> bytes:
    """Java's basic ``Base64`` decoder (``java.util.Base64.Decoder.decode``): padding optional,
    but a ``=`` must complete a unit and end the text; its messages.

    Raises:
        RulesError: a character outside the alphabet, a misplaced ``=``, a dangling character.
    """
    pad = text.find("=")
    body = text if pad < 0 else text[:pad]
    bad = re.search(r"[^A-Za-z0-9+/]", body)
    if bad:
        raise RulesError(f"Illegal base64 character {ord(bad.group()):x}")
    dangling = len(body) % 4
    if pad >= 0:
        if dangling == 0 or (dangling == 2 and not text.startswith("==", pad)):
            raise RulesError("Input byte array has wrong 4-byte ending unit")
        after = pad + (2 if dangling == 2 else 1)
        if dangling != 1 and after < len(text):
            raise RulesError(f"Input byte array has incorrect ending byte at {after}")
    if dangling == 1:
        raise RulesError("Last unit does not have enough valid bits")
    try:
        return base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError) as e:  # pragma: no cover - the checks above cover the alphabet
        raise RulesError(str(e)) from None


@dataclass
class Bdd:
    """A decoded BDD: ``nodes`` as ``(variable, high, low)`` triples (node 0 is the terminal)."""

    root: int
    nodes: list[tuple[int, int, int]]
    condition_count: int
    result_count: int


RESULT_OFFSET = 100_000_000


def read_bdd(value: Any) -> tuple[RuleSet, Bdd]:
    """The ``@endpointBdd`` trait (reference ``EndpointBddTrait.fromNode`` and ``Bdd``).

    Raises:
        RulesError: the BDD cannot be created (results with conditions, bad base64, a node
            count that does not fit the data, a complemented or dangling root, version < 1.1).
    """
    if not isinstance(value, dict):
        raise RulesError("Expected an object")
    version = _version(value.get("version"))
    parameters = read_parameters(value.get("parameters"))
    conditions, results = value.get("conditions"), value.get("results")
    if not isinstance(conditions, list) or not isinstance(results, list):
        raise RulesError("Expected `conditions` and `results` arrays")
    read_conditions = [_condition(c) for c in conditions]
    rules = [read_rule({"conditions": [], **r} if isinstance(r, dict) else r) for r in results]
    for i, (node, rule) in enumerate(zip(results, rules, strict=True), start=1):
        if rule.conditions or (isinstance(node, dict) and node.get("conditions")):
            raise RulesError(f"BDD result at index {i} has conditions, but BDD results must not have conditions. "
                             "All conditions should be hoisted into the BDD decision structure.")
    nodes_text, node_count, root = value.get("nodes"), value.get("nodeCount"), value.get("root")
    if not isinstance(nodes_text, str) or not is_number(node_count) or not is_number(root):
        raise RulesError("Expected `nodes` (a string), `nodeCount` and `root` (numbers)")
    node_count, root = int(node_count), int(root)
    data = _decode_base64(nodes_text)
    if len(data) != node_count * 12:
        raise RulesError(f"Expected {node_count * 12} bytes for {node_count} nodes, but got {len(data)}")
    ints = [int.from_bytes(data[i:i + 4], "big", signed=True) for i in range(0, len(data), 4)]
    triples = [(ints[i], ints[i + 1], ints[i + 2]) for i in range(0, len(ints), 3)]
    if node_count < 0:
        raise RulesError(f"Node count cannot be negative: {node_count}")
    if root < -1:
        raise RulesError(f"Root reference cannot be complemented: {root}")
    if _is_node_reference(root) and abs(root) - 1 >= node_count:
        raise RulesError(f"Root points to invalid BDD node: {abs(root) - 1} (node count: {node_count})")
    if version < (1, 1):
        raise RulesError("Rules engine version for endpointBdd trait must be >= 1.1")
    rule_set = RuleSet(version, parameters, rules, read_conditions)
    return rule_set, Bdd(root, triples, len(read_conditions), len(rules) + 1)


def _is_node_reference(ref: int) -> bool:
    return 1 < ref < RESULT_OFFSET or -RESULT_OFFSET < ref < -1


@dataclass
class _Read:
    """What was read of one service's rule set / BDD, and the errors of reading."""

    rule_set: RuleSet | None = None
    bdd: RuleSet | None = None
    bdd_nodes: Bdd | None = None
    problems: list[Diagnostic] = field(default_factory=list)


def _read_service(model: Model, service: Shape) -> _Read:
    found = _Read()
    if RULES_ENDPOINT_RULE_SET in service.traits:
        try:
            found.rule_set = read_rule_set(service.traits[RULES_ENDPOINT_RULE_SET])
        except (RulesError, RecursionError, ValueError, OverflowError) as e:
            found.problems.append(at_trait(model, diag(
                model, "S3770", None, service.id, f"Error creating trait `{RULES_ENDPOINT_RULE_SET}`: {e}",
                hint="see the rules engine specification (rules-engine/specification.rst)"), RULES_ENDPOINT_RULE_SET))
    if RULES_ENDPOINT_BDD in service.traits:
        try:
            found.bdd, found.bdd_nodes = read_bdd(service.traits[RULES_ENDPOINT_BDD])
        except (RulesError, RecursionError, ValueError, OverflowError) as e:
            found.problems.append(at_trait(model, diag(
                model, "S3770", None, service.id, f"Error creating trait `{RULES_ENDPOINT_BDD}`: {e}",
                hint="regenerate the BDD from the rule set"), RULES_ENDPOINT_BDD))
    return found


class RuleSetIndex:
    """Each user service with ``@endpointRuleSet`` or ``@endpointBdd``, read once per model
    (``model.knowledge(RuleSetIndex)``): :attr:`services` lists ``(service, read)``."""

    def __init__(self, model: Model) -> None:
        self.services: list[tuple[Shape, _Read]] = [
            (s, _read_service(model, s)) for s in user_shapes_of_type(model, "service")
            if s.type == "service" and (RULES_ENDPOINT_RULE_SET in s.traits or RULES_ENDPOINT_BDD in s.traits)]


def _services(model: Model) -> list[tuple[Shape, _Read]]:
    """Each user service with a rule set or BDD, and what was read of them."""
    return model.knowledge(RuleSetIndex).services


def _rule_sets(read: _Read) -> list[tuple[RuleSet, str]]:
    """The readable rule set and BDD of a service, each with its trait ID."""
    return [(rs, t) for rs, t in ((read.rule_set, RULES_ENDPOINT_RULE_SET), (read.bdd, RULES_ENDPOINT_BDD))
            if rs is not None]


@validator("S3770",
           rule="``@endpointRuleSet`` and ``@endpointBdd`` values can be read.",
           packages=("smithy.rules",))
def check_rule_set_traits(model: Model) -> Iterable[Diagnostic]:
    """``@endpointRuleSet`` and ``@endpointBdd`` values can be read.

    Spec: rules-engine/specification.rst; reference ``EndpointRuleSet.fromNode``,
    ``Parameter.fromNode``, ``EndpointBddTrait.fromNode``. Code ``S3770`` (ERROR ``Model``).
    """
    for _service, read in _services(model):
        yield from read.problems


# --------------------------------------------------------------------------- rule walking


def _all_rules(rules: list[Rule]) -> Iterator[Rule]:
    stack = list(reversed(rules))
    while stack:
        rule = stack.pop()
        yield rule
        stack.extend(reversed(rule.rules))


def _endpoint_rules(rule_set: RuleSet) -> Iterator[Rule]:
    return (r for r in _all_rules(rule_set.rules) if r.kind == "endpoint")


def _show(expr: Any) -> str:
    """An expression as the reference prints a literal (``{name=true}``, ``[a, b]``)."""
    kind = expr[0]
    if kind == "record":
        return "{" + ", ".join(f"{k}={_show(v)}" for k, v in expr[1].items()) + "}"
    if kind == "tuple":
        return "[" + ", ".join(_show(v) for v in expr[1]) + "]"
    if kind == "bool":
        return "true" if expr[1] else "false"
    if kind == "ref":
        return "{ref=" + expr[1] + "}"
    if kind == "fn":
        return expr[1] + "(" + ", ".join(_show(a) for a in expr[2]) + ")"
    return str(expr[1])


# --------------------------------------------------------------------------- operation params


@validator("S3771",
           rule="``@staticContextParams`` values are strings, booleans or arrays of strings.",
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


@validator("S3772",
           rule="``@operationContextParams`` paths parse, fit the input, and use the supported subset.",
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


@validator("S3770", "S3773", "S3774", "S3775", "S3776", "S3777", "S3778", "S3779", "S3780", "S3781", "S3782", "S3783",
           rule="Rule set parameters match what the service model binds, and the endpoint tests.",
           packages=("smithy.rules",))
def check_rule_set_parameters(model: Model) -> Iterable[Diagnostic]:
    """Rule set parameters match what the service model binds, and the endpoint tests.

    Spec: rules-engine/parameters.rst, rules-engine/endpoint-tests.rst; reference
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


@validator("S3770", "S3787",
           rule="Rule set parameters have documentation (a warning).",
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


@validator("S3770", "S3785", "S3800",
           rule="Built-in parameters are known ones; some AWS built-ins need care (a danger).",
           packages=("smithy.rules",))
def check_built_ins(model: Model) -> Iterable[Diagnostic]:
    """Built-in parameters are known ones; some AWS built-ins need care (a danger).

    Spec: rules-engine/parameters.rst §"builtIn", aws/aws-endpoints-region.rst; reference ``RuleSetBuiltInValidator`` (code ``S3785``, ERROR ``RuleSetBuiltIn.RuleSet`` or
    ``RuleSetBuiltIn.TestCase.<i>.Inputs.<j>``) and smithy-aws-endpoints'
    ``RuleSetAwsBuiltInValidator`` (code ``S3800``, DANGER ``RuleSetAwsBuiltIn.<built-in>``).
    """
    known = ", ".join(sorted(BUILT_INS))
    for service, read in _services(model):
        for rule_set, trait in _rule_sets(read):
            for p in rule_set.parameters.values():
                if p.built_in is None:
                    continue
                if p.built_in not in BUILT_INS:
                    yield at_trait(model, diag(
                        model, "S3785", None, service.id,
                        f"The `{p.built_in}` built-in used is not registered, valid built-ins: {known}",
                        "RuleSetBuiltIn.RuleSet"), trait)
                if p.built_in in CAREFUL_BUILT_INS:
                    yield at_trait(model, diag(
                        model, "S3800", None, service.id,
                        f"The `{p.built_in}` built-in used requires additional consideration of the rules that use it.",
                        f"RuleSetAwsBuiltIn.{p.built_in}",
                        hint="suppress this once the rules that use it are reviewed"), trait)
        if read.rule_set is None and read.bdd is None:
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
            out.append((Severity.ERROR, f"Unexpected type for auth property `{key}`, found `{_show(value)}` but "
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
                                                    f"found `{_show(item)}` but expected a string value"))
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


@validator("S3770", "S3784",
           rule="Each endpoint's ``authSchemes`` property is a list of named, well-formed schemes.",
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
            for rule in _endpoint_rules(rule_set):
                schemes = rule.properties.get("authSchemes")
                if schemes is None:
                    continue
                if schemes[0] != "tuple":
                    yield at_trait(model, diag(model, "S3784", None, service.id,
                                               f"Expected `authSchemes` to be a list, found: `{_show(schemes)}`"),
                                   trait)
                    continue
                names: list[str] = []
                duplicates: list[str] = []
                for entry in schemes[1]:
                    if entry[0] != "record":
                        yield at_trait(model, diag(
                            model, "S3784", None, service.id,
                            f"Expected `authSchemes` to be a list of objects, but found: `{_show(entry)}`"), trait)
                        continue
                    name = entry[1].get("name")
                    if name is None or name[0] != "str":
                        yield at_trait(model, diag(
                            model, "S3784", None, service.id,
                            "Expected `authSchemes` to have a `name` key with a string value but it did not: "
                            f"`{_show(entry)}`", hint='give each auth scheme a `"name"`'), trait)
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


@validator("S3770", "S3786",
           rule="An endpoint URL that starts with literal text starts with ``http://`` or ``https://``.",
           packages=("smithy.rules",))
def check_uris(model: Model) -> Iterable[Diagnostic]:
    """An endpoint URL that starts with literal text starts with ``http://`` or ``https://``.

    Spec: rules-engine/specification.rst §"Endpoint object" (``url``); reference ``RuleSetUriValidator``. Code ``S3786`` (ERROR ``RuleSetUri``).
    """
    for service, read in _services(model):
        for rule_set, trait in _rule_sets(read):
            for rule in _endpoint_rules(rule_set):
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


def _version_problems(fn: Any) -> str | None:
    """The class name of a function newer than rules engine 1.0, or ``None``."""
    if not isinstance(fn, tuple) or fn[0] != "fn":
        return None
    name, args = fn[1], fn[2]
    if name in _SINCE_1_1:
        return _SINCE_1_1[name]
    if name == "getAttr" and len(args) == 2 and args[1][0] == "str" and re.search(r"\[-\d+\]", args[1][1]):
        return "GetAttr"
    return None


@validator("S3770", "S3788",
           rule="Functions are only used from the rules engine version that has them (``coalesce``, ``ite``, ``split`` and negative ``getAttr`` indexes need 1.1).",
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
            for rule in _all_rules(rule_set.rules):
                for fn, args, _assign in rule.conditions:
                    elements.append(("fn", fn, args))
                    elements.extend(args)
                elements.extend([rule.url, *(v for values in rule.headers.values() for v in values), rule.error])
            for element in elements:
                name = _version_problems(element)
                if name:
                    yield at_trait(model, diag(
                        model, "S3788", None, service.id,
                        f"{name} requires rules engine version >= 1.1, but ruleset declares version {declared}",
                        hint='declare "version": "1.1"'), trait)


@validator("S3770", "S3789",
           rule="A BDD's references point at nodes and results that exist.",
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
            if _is_node_reference(ref) and abs(ref) - 1 >= len(bdd.nodes):
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


@validator("S3770", "S3790",
           rule="Endpoint test cases name operations of the service, give built-in values consistently, and give operation inputs that fit the input shapes (their types and required members; constraint traits are not applied to them).",
           packages=("smithy.rules",))
def check_endpoint_tests(model: Model) -> Iterable[Diagnostic]:
    """Endpoint test cases name operations of the service, give built-in values consistently,
    and give operation inputs that fit the input shapes (their types and required members;
    constraint traits are not applied to them).

    Spec: rules-engine/endpoint-tests.rst; reference ``EndpointTestsTraitValidator``. Code
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


def _test_case(model: Model, service: Shape, rule_set: RuleSet, case: dict,
               by_name: dict[str, str]) -> Iterator[Diagnostic]:
    def emit(message: str, severity: Severity | None = None, event: str | None = None) -> Diagnostic:
        return at_trait(model, diag(model, "S3790", severity, service.id, message, event), RULES_ENDPOINT_TESTS)

    params = case.get("params") if isinstance(case.get("params"), dict) else {}
    built_ins = [p for p in rule_set.parameters.values() if p.built_in is not None]
    non_default = {p.name: params[p.name] for p in built_ins
                   if p.default is not None and p.name in params and canonical(params[p.name]) != canonical(p.default)}
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
                yield emit(f"Test case does not supply the `{_json(non_default[p.name])}` value for the `{p.name}` "
                           f"parameter's `{p.built_in}` built-in.")
            if p.default is None and p.name in params and p.built_in not in given:
                yield emit(f"Operation input does not supply a value for the `{p.built_in}` built-in parameter and "
                           f"the `{p.name}` parameter does not set a default.")
        by_param = {p.name: p.built_in for p in built_ins}
        for pname, value in params.items():
            built_in = by_param.get(pname)
            if built_in is None or built_in not in given:
                continue
            if canonical(given[built_in]) != canonical(value):
                yield emit(f"Inconsistent testcase parameters: {_show_node(value)} and {_show_node(given[built_in])}")
        operation_params = entry.get("operationParams", {})
        # Types and structure only: constraint traits (@pattern...) are not applied, as the
        # published AWS models the reference accepts (s3-control) have error test cases whose
        # inputs break them on purpose.
        checker = NodeChecker(model, service.id.split("#")[0], constraints=False)
        checker.check(operation_params if operation_params is not None else {},
                      model.knowledge(OperationIndex).input_id(by_name[name]), {}, "")
        for severity, path, message in checker.problems:
            lowered = severity < Severity.DANGER or expects_error
            where = f"{path.lstrip('.')}: " if path else ""
            yield emit("The operationInput value for an endpoint test does not match the operation's input shape: "
                       f"{where}{message}", Severity.DANGER if lowered else severity)


# --------------------------------------------------------------------------- evaluation


class _Empty:
    def __repr__(self) -> str:
        return "<empty>"


EMPTY = _Empty()


class _Unknown:
    def __repr__(self) -> str:
        return "<unknown>"


#: The value of a function not evaluated here (``aws.partition``...): whatever uses it is
#: unknown too, and a rule whose condition is unknown stops the evaluation (not judged).
UNKNOWN = _Unknown()


class EvaluationError(RuntimeError):
    """A test case the rule set fails on (reference: the ``RuntimeException`` of ``TestEvaluator``)."""


class _Unsupported(Exception):
    """Evaluation reached what is not modelled here (``aws.partition``...): the case is skipped."""


@dataclass(frozen=True)
class EndpointValue:
    """An endpoint a rule set resolves to: URL, headers (name → values), properties."""

    url: str
    headers: tuple[tuple[str, tuple[str, ...]], ...]
    properties: str  # canonical JSON of the property values


def _type_name(value: Any) -> str:
    if value is EMPTY:
        return "EmptyType"
    if isinstance(value, bool):
        return "BooleanType"
    if isinstance(value, str):
        return "StringType"
    if isinstance(value, int):
        return "IntegerType"
    if isinstance(value, list):
        return "ArrayType"
    return "EndpointType" if isinstance(value, EndpointValue) else "RecordType"


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if not isinstance(value, (list, dict)) else _json(value)


def _expect(value: Any, kind: type, name: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)) or value is EMPTY:
        raise EvaluationError(f"Expected `{name}` but was `{_type_name(value)}` with value: `{_shown(value)}`")
    return value


def _host_label(text: str, dots: bool) -> bool:
    labels = text.split(".") if dots else [text]
    return bool(text) and all(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9-]{0,62}", label) for label in labels)


def _split(value: str, delimiter: str, limit: int) -> list[str]:
    """Reference ``Split.split``."""
    if not delimiter:
        raise EvaluationError("Split delimiter cannot be empty")
    if limit < 0:
        raise EvaluationError(f"Split limit cannot be negative, but given: {limit}")
    if not value or limit == 1:
        return [value]
    return value.split(delimiter, limit - 1 if limit > 0 else -1)


def _substring(value: str, start: int, stop: int, reverse: bool) -> Any:
    """Reference ``Substring.getSubstring`` (``EMPTY`` when out of range or not ASCII)."""
    if start >= stop or len(value) < stop or start < 0 or any(ord(c) > 127 for c in value):
        return EMPTY
    return value[len(value) - stop:len(value) - start] if reverse else value[start:stop]


def _get_attr(value: Any, path: str) -> Any:
    """Reference ``GetAttr``: ``a.b[0]`` parts; a missing index is empty."""
    if value is UNKNOWN:
        return UNKNOWN
    for component in path.split("."):
        key, bracket, index = component.partition("[")
        if key:
            if not isinstance(value, dict):
                raise EvaluationError(f"Expected `RecordType` but was `{_type_name(value)}` with value: "
                                      f"`{_shown(value)}`")
            if key not in value:
                raise _Unsupported
            value = value[key]
        if bracket:
            try:
                i = int(index.rstrip("]"))
            except ValueError:
                raise _Unsupported from None
            items = _expect(value, list, "ArrayType")
            i = i if i >= 0 else len(items) + i
            value = items[i] if 0 <= i < len(items) else EMPTY
    return value


#: Functions not evaluated here, with their argument types: they give :data:`UNKNOWN`.
_OPAQUE: dict[str, tuple[tuple[type, str], ...]] = {
    "aws.partition": ((str, "StringType"),),
    "aws.parseArn": ((str, "StringType"),),
    "aws.isVirtualHostableS3Bucket": ((str, "StringType"), (bool, "BooleanType")),
    "parseURL": ((str, "StringType"),),
    "uriEncode": ((str, "StringType"),),
}


class _Evaluator:
    """Evaluates a rule set over test parameters (reference ``RuleEvaluator`` with the core
    library functions; ``parseURL``, ``uriEncode`` and the ``aws.*`` functions stop the
    evaluation as :class:`_Unsupported`)."""

    def __init__(self, scope: dict[str, Any]) -> None:
        self.scopes: list[dict[str, Any]] = [scope]
        self.steps = 0

    def lookup(self, name: str) -> Any:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return EMPTY

    def template(self, text: str) -> str:
        out: list[str] = []
        i, depth, start, literal_from = 0, 0, 0, 0
        while i < len(text):
            if depth == 0 and (text.startswith("{{", i) or text.startswith("}}", i)):
                i += 2
                continue
            if text[i] == "{":
                if depth == 0:
                    out.append(text[literal_from:i].replace("{{", "{").replace("}}", "}"))
                    start = i + 1
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    short = text[start:i]
                    name, hash_, path = short.partition("#")
                    value = self.lookup(name.strip())
                    if hash_:
                        value = _get_attr(value, path)
                    if value is UNKNOWN:
                        raise _Unsupported
                    out.append(_expect(value, str, "StringType"))
                    literal_from = i + 1
            i += 1
        out.append(text[literal_from:].replace("{{", "{").replace("}}", "}"))
        return "".join(out)

    def value(self, expr: Any) -> Any:
        self.steps += 1
        if self.steps > 100_000:
            raise _Unsupported
        kind = expr[0]
        if kind == "ref":
            return self.lookup(expr[1])
        if kind == "str":
            return self.template(expr[1])
        if kind in ("bool", "int"):
            return expr[1]
        if kind == "tuple":
            return [self.value(v) for v in expr[1]]
        if kind == "record":
            return {k: self.value(v) for k, v in expr[1].items()}
        return self.function(expr[1], expr[2])

    def function(self, name: str, args: list[Any]) -> Any:
        if name == "coalesce":
            for a in args:
                v = self.value(a)
                if v is not EMPTY:
                    return v
            return EMPTY
        if name == "ite" and len(args) == 3:
            condition = self.value(args[0])
            if condition is UNKNOWN:
                return UNKNOWN
            return self.value(args[1] if _expect(condition, bool, "BooleanType") else args[2])
        if name == "getAttr" and len(args) == 2 and args[1][0] == "str":
            return _get_attr(self.value(args[0]), args[1][1])
        values = [self.value(a) for a in args]
        if name in _OPAQUE and len(values) == len(_OPAQUE[name]):
            # evaluated elsewhere (partitions data...): only the argument types are checked
            for v, (kind, label) in zip(values, _OPAQUE[name], strict=True):
                if v is not UNKNOWN:
                    _expect(v, kind, label)
            return UNKNOWN
        if any(v is UNKNOWN for v in values):
            return UNKNOWN
        if name == "isSet" and len(values) == 1:
            return values[0] is not EMPTY
        if name == "not" and len(values) == 1:
            return not _expect(values[0], bool, "BooleanType")
        if name in ("booleanEquals", "stringEquals") and len(values) == 2:
            kind, label = (bool, "BooleanType") if name == "booleanEquals" else (str, "StringType")
            return _expect(values[0], kind, label) == _expect(values[1], kind, label)
        if name == "isValidHostLabel" and len(values) == 2:
            return _host_label(_expect(values[0], str, "StringType"), _expect(values[1], bool, "BooleanType"))
        if name == "split" and len(values) == 3:
            return _split(_expect(values[0], str, "StringType"), _expect(values[1], str, "StringType"),
                          _expect(values[2], int, "IntegerType"))
        if name == "substring" and len(values) == 4:
            return _substring(_expect(values[0], str, "StringType"), _expect(values[1], int, "IntegerType"),
                              _expect(values[2], int, "IntegerType"), _expect(values[3], bool, "BooleanType"))
        raise _Unsupported

    def rules(self, rules: list[Rule]) -> Any:
        for rule in rules:
            result = self.rule(rule)
            if result is not EMPTY:
                return result
        return EMPTY

    def rule(self, rule: Rule) -> Any:
        self.scopes.append({})
        try:
            for fn, args, assign in rule.conditions:
                value = self.function(fn, args)
                if value is UNKNOWN and fn != "aws.partition":
                    raise _Unsupported  # which branch is taken is not known
                if value is not EMPTY and assign:
                    self.scopes[-1][assign] = value
                if value is EMPTY or value is False:
                    return EMPTY
            if rule.kind == "tree":
                result = self.rules(rule.rules)
                if result is EMPTY:
                    raise EvaluationError("no rules inside of tree rule matched—invalid rules")
                return result
            if rule.kind == "error":
                message = self.value(rule.error)
                if message is UNKNOWN:
                    raise _Unsupported
                return ("error", message)
            url = self.value(rule.url)
            if url is UNKNOWN:
                raise _Unsupported
            url = _expect(url, str, "StringType")
            headers = tuple(sorted((k, tuple(_expect(self.value(v), str, "StringType") for v in values))
                                   for k, values in rule.headers.items()))
            values = {k: self.value(v) for k, v in rule.properties.items()}
            if _holds_unknown(values):
                raise _Unsupported
            properties = canonical(values)
            return EndpointValue(url, headers, properties)
        finally:
            self.scopes.pop()


def _holds_unknown(value: Any) -> bool:
    stack = [value]
    while stack:
        v = stack.pop()
        if v is UNKNOWN:
            return True
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def evaluate_test_case(rule_set: RuleSet, case: dict) -> str | None:
    """Why a test case fails on a rule set (reference ``TestEvaluator.evaluate``), or ``None``
    when it passes or reaches what is not evaluated here. Never raises."""
    params = case.get("params") if isinstance(case.get("params"), dict) else {}
    scope: dict[str, Any] = {p.name: _runtime(p.default) for p in rule_set.parameters.values()
                             if p.default is not None}
    scope.update({k: _runtime(v) for k, v in params.items()})
    expect = case.get("expect")
    if not isinstance(expect, dict) or not ("endpoint" in expect or "error" in expect):
        return "Unhandled endpoint test case expectation."
    try:
        result = _Evaluator(scope).rules(rule_set.rules)
        if result is EMPTY:
            return "No rules in ruleset matched"
        if "endpoint" in expect:
            wanted = expect["endpoint"] if isinstance(expect["endpoint"], dict) else {}
            if not isinstance(result, EndpointValue):
                return (f"Expected `EndpointType` but was `StringType` with value: `{_shown(result[1])}`"
                        if isinstance(result, tuple) else "Expected an endpoint")
            headers = wanted.get("headers") if isinstance(wanted.get("headers"), dict) else {}
            expected = EndpointValue(
                str(wanted.get("url", "")),
                tuple(sorted((k, tuple(v) if isinstance(v, list) else ()) for k, v in headers.items())),
                canonical({k: _runtime(v) for k, v in (wanted.get("properties") or {}).items()}))
            if expected != result:
                return f"Expected endpoint `{expected.url}` but got `{result.url}` (or other headers or properties)"
            return None
        if not isinstance(result, tuple):
            return f"Expected `StringType` but was `EndpointType` with value: `{result.url}`"
        message = result[1]
        if not isinstance(message, str):
            return f"Expected `StringType` but was `{_type_name(message)}` with value: `{_shown(message)}`"
        if message != expect["error"]:
            return f"Expected error `{expect['error']}` but got `{message}`"
        return None
    except EvaluationError as e:
        return str(e)
    except (_Unsupported, RecursionError, TypeError, ValueError):
        return None


def _runtime(value: Any) -> Any:
    """A JSON value as a rules engine value (``null`` is empty, numbers are integers)."""
    if value is None:
        return EMPTY
    if is_number(value):
        return int(value)
    if isinstance(value, list):
        return [_runtime(v) for v in value]
    if isinstance(value, dict):
        return {k: _runtime(v) for k, v in value.items()}
    return value


@validator("S3770", "S3791",
           rule="Each endpoint test case gives the result it expects when the rule set is evaluated.",
           packages=("smithy.rules",))
def check_test_cases(model: Model) -> Iterable[Diagnostic]:
    """Each endpoint test case gives the result it expects when the rule set is evaluated.

    Spec: rules-engine/endpoint-tests.rst; reference ``RuleSetTestCaseValidator``
    (``TestEvaluator``). Code ``S3791`` (ERROR ``RuleSetTestCase``). Cases that reach a
    function not evaluated here (``parseURL``, ``uriEncode``, ``aws.*``) are not judged.
    """
    for service, read in _services(model):
        if RULES_ENDPOINT_TESTS not in service.traits or read.rule_set is None:
            continue
        for case in _test_cases(service):
            problem = evaluate_test_case(read.rule_set, case)
            if problem:
                yield at_trait(model, diag(model, "S3791", None, service.id, problem,
                                           hint="fix the test case's expectation or the rules"),
                               RULES_ENDPOINT_TESTS)


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


def _show_node(value: Any) -> str:
    """A node as the reference's ``Node.toString`` shows it in a message (strings bare)."""
    return value if isinstance(value, str) else _json(value)


__all__ = [
    "BUILT_INS",
    "CAREFUL_BUILT_INS",
    "EMPTY",
    "Bdd",
    "EndpointValue",
    "EvaluationError",
    "Parameter",
    "Rule",
    "RuleSet",
    "RuleSetIndex",
    "RulesError",
    "check_auth_schemes",
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
    "evaluate_test_case",
    "check_uris",
    "parameter_type_of_value",
    "read_bdd",
    "read_expression",
    "read_literal",
    "read_parameters",
    "read_rule",
    "read_rule_set",
]
