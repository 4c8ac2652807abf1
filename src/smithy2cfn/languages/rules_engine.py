"""The rules engine's language (Smithy rules-engine/specification.rst, standard-library.rst):
endpoint rule sets and BDDs read into plain records, and their evaluation over the parameters
of an endpoint test case (specification.rst §"smithy.rules#endpointTests trait").

* Reading (reference ``EndpointRuleSet.fromNode``, ``Parameters.fromNode``, ``Rule.fromNode``,
  ``Expression.fromNode``, ``Literal.fromNode``, ``EndpointBddTrait.fromNode`` and ``Bdd``):
  :func:`read_rule_set`, :func:`read_bdd` give a :class:`RuleSet` (parameters, rules,
  expressions as tuples) and a :class:`Bdd`; what the reference cannot create raises
  :class:`RulesError` with the reference's message.
* Walking and printing: :func:`all_rules`, :func:`endpoint_rules`, :func:`show_expression`
  (a literal as the reference prints it), :func:`newer_function` (a function newer than
  rules engine 1.0: reference ``availableSince``).
* Evaluation (reference ``RuleEvaluator``, ``Bdd.evaluate`` and ``TestEvaluator`` with the
  core library functions): :func:`evaluate_test_case`, of a rule set or a BDD. ``parseURL``,
  ``uriEncode`` and the ``aws.*`` functions need the AWS partitions data; a case that depends
  on them is not judged.

Not done: the rule set's static type check (``EndpointRuleSet.typeCheck``).

Imports the model only; the validators of :mod:`smithy2cfn.validation.rules` import it.
"""

from __future__ import annotations

import binascii
import functools
import json
import re
from collections.abc import Iterator

from smithy2cfn.model.nodes import canonical, is_number
from smithy2cfn.records import Record
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Built-in parameters the rules engine knows: the core one and those of the AWS extension
#: (reference ``BuiltIns``, ``AwsBuiltIns``).
BUILT_INS = (
    "SDK::Endpoint",
    "AWS::UseDualStack", "AWS::UseFIPS", "AWS::Region", "AWS::Auth::AccountId",
    "AWS::Auth::AccountIdEndpointMode", "AWS::Auth::CredentialScope", "AWS::S3::Accelerate",
    "AWS::S3::DisableMultiRegionAccessPoints", "AWS::S3::ForcePathStyle", "AWS::S3::UseArnRegion",
    "AWS::S3::UseGlobalEndpoint", "AWS::S3Control::UseArnRegion", "AWS::STS::UseGlobalEndpoint",
)

_PARAMETER_PROPERTIES = ("builtIn", "required", "type", "deprecated", "documentation", "default")
#: Functions newer than rules engine 1.0 (reference ``availableSince`` of each function).
_SINCE_1_1 = {"coalesce": "Coalesce", "ite": "Ite", "split": "Split"}


class RulesError(ValueError):
    """A rule set, BDD or parameter that the reference cannot create (its message)."""


# --------------------------------------------------------------------------- reading


class Parameter(Record, frozen=True):
    """One rule set parameter (reference ``Parameter``): ``type`` is ``"String"``,
    ``"Boolean"`` or ``"stringArray"`` (the reference's ``ParameterType`` names)."""

    name: str
    type: str
    required: bool
    built_in: str | None
    documentation: str | None
    default: Any

    def __init__(self, name: str, type: str, required: bool = False, built_in: str | None = None,
                 documentation: str | None = None, default: Any = None) -> None:
        self.__dict__.update(name=name, type=type, required=required, built_in=built_in,
                             documentation=documentation, default=default)


class Rule(Record):
    """One rule: ``kind`` ``endpoint``, ``error`` or ``tree``; conditions as
    ``(fn, argv expressions, assigned name or None)``; the endpoint's URL, header and property expressions; the error
    expression; nested rules of a tree."""

    __slots__ = ("kind", "conditions", "url", "headers", "properties", "error", "rules")
    kind: str
    conditions: list[tuple[str, list[Any], str | None]]
    url: Any
    headers: dict[str, list[Any]]
    properties: dict[str, Any]
    error: Any
    rules: list[Rule]

    def __init__(self, kind: str, conditions: list[tuple[str, list[Any], str | None]] | None = None,
                 url: Any = None, headers: dict[str, list[Any]] | None = None,
                 properties: dict[str, Any] | None = None, error: Any = None,
                 rules: list[Rule] | None = None) -> None:
        self.kind = kind
        self.conditions = [] if conditions is None else conditions
        self.url = url
        self.headers = {} if headers is None else headers
        self.properties = {} if properties is None else properties
        self.error = error
        self.rules = [] if rules is None else rules


class RuleSet(Record):
    """A rule set or BDD as read: its version ``(major, minor)``, parameters, rules (for a
    BDD: its results) and free conditions (a BDD's)."""

    __slots__ = ("version", "parameters", "rules", "conditions")
    version: tuple[int, int]
    parameters: dict[str, Parameter]
    rules: list[Rule]
    conditions: list[tuple[str, list[Any], str | None]]

    def __init__(self, version: tuple[int, int], parameters: dict[str, Parameter], rules: list[Rule],
                 conditions: list[tuple[str, list[Any], str | None]] | None = None) -> None:
        self.version = version
        self.parameters = parameters
        self.rules = rules
        self.conditions = [] if conditions is None else conditions


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


def read_version(text: Any) -> tuple[int, int]:
    """A rules engine version ``"major.minor"`` as ``(major, minor)`` (reference
    ``RulesVersion.of``).

    Raises:
        RulesError: not a non-empty string, fewer than two parts, a part not a number or
            negative.
    """
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


#: The braces of a template, escaped pairs first, in the order :func:`_template_check` reads them.
_TEMPLATE_BRACES = lazy(r"\{\{|\}\}|[{}]")


def _template_check(text: str) -> None:
    """Raise when a template's braces do not match (reference ``Template.parseTemplate``):
    read left to right, ``{{`` and ``}}`` are escaped braces, any other ``{`` opens and ``}``
    closes. Only the braces are visited (most of a rule set's strings have none)."""
    if "{" not in text and "}" not in text:
        return
    depth = 0
    for brace in _TEMPLATE_BRACES.findall(text):
        if brace == "{":
            depth += 1
        elif brace == "}":
            depth -= 1
            if depth < 0:
                raise RulesError("when parsing template: unmatched `}` in template")
    if depth != 0:
        raise RulesError("when parsing template: unmatched `{` in template")


def read_condition(node: Any) -> tuple[str, list[Any], str | None]:
    """A condition (reference ``Condition.fromNode``) as ``(fn, argv expressions, assign or None)``.

    Raises:
        RulesError: not an object with ``fn`` (a string) and ``argv`` (an array), or an
            ``assign`` that is not a string.
    """
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
    rule = Rule(str(kind), [read_condition(c) for c in conditions])
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
    version = read_version(value["version"])
    return RuleSet(version, parameters, [read_rule(r) for r in value["rules"]])


def decode_base64(text: str) -> bytes:
    """``text`` decoded as Java's basic ``Base64`` decoder does
    (``java.util.Base64.Decoder.decode``): padding optional, but a ``=`` must complete a unit
    and end the text; its messages.

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
    import base64  # (only for a rule set that decodes base64: 5 ms of import otherwise)

    try:
        return base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError) as e:  # pragma: no cover - the checks above cover the alphabet
        raise RulesError(str(e)) from None


class Bdd(Record):
    """A decoded BDD: ``nodes`` as ``(variable, high, low)`` triples (node 0 is the terminal)."""

    __slots__ = ("root", "nodes", "condition_count", "result_count")
    root: int
    nodes: list[tuple[int, int, int]]
    condition_count: int
    result_count: int

    def __init__(self, root: int, nodes: list[tuple[int, int, int]], condition_count: int, result_count: int) -> None:
        self.root = root
        self.nodes = nodes
        self.condition_count = condition_count
        self.result_count = result_count


RESULT_OFFSET = 100_000_000


def read_bdd(value: Any) -> tuple[RuleSet, Bdd]:
    """The ``@endpointBdd`` trait (reference ``EndpointBddTrait.fromNode`` and ``Bdd``).

    Raises:
        RulesError: the BDD cannot be created (results with conditions, bad base64, a node
            count that does not fit the data, a complemented or dangling root, version < 1.1).
    """
    if not isinstance(value, dict):
        raise RulesError("Expected an object")
    version = read_version(value.get("version"))
    parameters = read_parameters(value.get("parameters"))
    conditions, results = value.get("conditions"), value.get("results")
    if not isinstance(conditions, list) or not isinstance(results, list):
        raise RulesError("Expected `conditions` and `results` arrays")
    read_conditions = [read_condition(c) for c in conditions]
    rules = [read_rule({"conditions": [], **r} if isinstance(r, dict) else r) for r in results]
    for i, (node, rule) in enumerate(zip(results, rules, strict=True), start=1):
        if rule.conditions or (isinstance(node, dict) and node.get("conditions")):
            raise RulesError(f"BDD result at index {i} has conditions, but BDD results must not have conditions. "
                             "All conditions should be hoisted into the BDD decision structure.")
    nodes_text, node_count, root = value.get("nodes"), value.get("nodeCount"), value.get("root")
    if not isinstance(nodes_text, str) or not is_number(node_count) or not is_number(root):
        raise RulesError("Expected `nodes` (a string), `nodeCount` and `root` (numbers)")
    node_count, root = int(node_count), int(root)
    data = decode_base64(nodes_text)
    if len(data) != node_count * 12:
        raise RulesError(f"Expected {node_count * 12} bytes for {node_count} nodes, but got {len(data)}")
    ints = [int.from_bytes(data[i:i + 4], "big", signed=True) for i in range(0, len(data), 4)]
    triples = [(ints[i], ints[i + 1], ints[i + 2]) for i in range(0, len(ints), 3)]
    if node_count < 0:
        raise RulesError(f"Node count cannot be negative: {node_count}")
    if root < -1:
        raise RulesError(f"Root reference cannot be complemented: {root}")
    if is_node_reference(root) and abs(root) - 1 >= node_count:
        raise RulesError(f"Root points to invalid BDD node: {abs(root) - 1} (node count: {node_count})")
    if version < (1, 1):
        raise RulesError("Rules engine version for endpointBdd trait must be >= 1.1")
    rule_set = RuleSet(version, parameters, rules, read_conditions)
    return rule_set, Bdd(root, triples, len(read_conditions), len(rules) + 1)


def is_node_reference(ref: int) -> bool:
    """Whether a BDD reference names a node (not the terminals ``1``/``-1``, not a result
    ``RESULT_OFFSET + i``; negative: complemented) (reference ``Bdd.isNodeReference``)."""
    return 1 < ref < RESULT_OFFSET or -RESULT_OFFSET < ref < -1


# --------------------------------------------------------------------------- rule walking


def all_rules(rules: list[Rule]) -> Iterator[Rule]:
    """Every rule of ``rules`` and of their trees, depth first in document order."""
    stack = list(reversed(rules))
    while stack:
        rule = stack.pop()
        yield rule
        stack.extend(reversed(rule.rules))


def endpoint_rules(rule_set: RuleSet) -> Iterator[Rule]:
    """The endpoint rules of a rule set, at any depth, in document order."""
    return (r for r in all_rules(rule_set.rules) if r.kind == "endpoint")


def show_expression(expr: Any) -> str:
    """An expression as the reference prints a literal (``{name=true}``, ``[a, b]``)."""
    kind = expr[0]
    if kind == "record":
        return "{" + ", ".join(f"{k}={show_expression(v)}" for k, v in expr[1].items()) + "}"
    if kind == "tuple":
        return "[" + ", ".join(show_expression(v) for v in expr[1]) + "]"
    if kind == "bool":
        return "true" if expr[1] else "false"
    if kind == "ref":
        return "{ref=" + expr[1] + "}"
    if kind == "fn":
        return expr[1] + "(" + ", ".join(show_expression(a) for a in expr[2]) + ")"
    return str(expr[1])


def newer_function(fn: Any) -> str | None:
    """The reference's class name of ``fn`` (an expression tuple) when that function, or
    that use of it (a negative ``getAttr`` index), is newer than rules engine 1.0
    (reference ``availableSince``: ``Coalesce``, ``Ite``, ``Split``, ``GetAttr``), else ``None``."""
    if not isinstance(fn, tuple) or fn[0] != "fn":
        return None
    name, args = fn[1], fn[2]
    if name in _SINCE_1_1:
        return _SINCE_1_1[name]
    if name == "getAttr" and len(args) == 2 and args[1][0] == "str" and re.search(r"\[-\d+\]", args[1][1]):
        return "GetAttr"
    return None


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


class EndpointValue(Record, frozen=True):
    """An endpoint a rule set resolves to: URL, headers (name → values), properties."""

    url: str
    headers: tuple[tuple[str, tuple[str, ...]], ...]
    properties: str  # canonical JSON of the property values

    def __init__(self, url: str, headers: tuple[tuple[str, tuple[str, ...]], ...], properties: str) -> None:
        self.__dict__.update(url=url, headers=headers, properties=properties)


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
    if start >= stop or len(value) < stop or start < 0 or not value.isascii():
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


@functools.lru_cache(maxsize=1024)
def _template_parts(text: str) -> tuple[str | tuple[str, str | None], ...]:
    """A string template split once into literal text (``{{``/``}}`` unescaped) and
    references ``(name, getAttr path or None)`` (``{name}``, ``{name#path}``), in order: a
    rule set's templates are evaluated again for each of its test cases."""
    parts: list[str | tuple[str, str | None]] = []
    literal: list[str] = []
    i, depth, start, literal_from = 0, 0, 0, 0
    while i < len(text):
        if depth == 0 and (text.startswith("{{", i) or text.startswith("}}", i)):
            i += 2
            continue
        if text[i] == "{":
            if depth == 0:
                literal.append(text[literal_from:i].replace("{{", "{").replace("}}", "}"))
                start = i + 1
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                name, hash_, path = text[start:i].partition("#")
                parts.append("".join(literal))
                literal = []
                parts.append((name.strip(), path if hash_ else None))
                literal_from = i + 1
        i += 1
    literal.append(text[literal_from:].replace("{{", "{").replace("}}", "}"))
    parts.append("".join(literal))
    return tuple(p for p in parts if p != "")


#: The equality functions: name → the type (and its name) both arguments must have.
_EQUALS = {"booleanEquals": (bool, "BooleanType"), "stringEquals": (str, "StringType")}


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
        """The string template ``text`` with its references replaced (reference ``Template``)."""
        out: list[str] = []
        for part in _template_parts(text):
            if part.__class__ is str:
                out.append(part)
                continue
            name, path = part
            value = self.lookup(name)
            if path is not None:
                value = _get_attr(value, path)
            if value is UNKNOWN:
                raise _Unsupported
            out.append(_expect(value, str, "StringType"))
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
        # The most frequent functions first, each as the general path below answers it (an
        # unknown argument makes the result unknown; arguments evaluated in order).
        if name == "isSet" and len(args) == 1:
            v = self.value(args[0])
            return UNKNOWN if v is UNKNOWN else v is not EMPTY
        if name in _EQUALS and len(args) == 2:
            a, b = self.value(args[0]), self.value(args[1])
            if a is UNKNOWN or b is UNKNOWN:
                return UNKNOWN
            kind, label = _EQUALS[name]
            return _expect(a, kind, label) == _expect(b, kind, label)
        if name == "not" and len(args) == 1:
            v = self.value(args[0])
            return UNKNOWN if v is UNKNOWN else not _expect(v, bool, "BooleanType")
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
        if UNKNOWN in values:  # (no value equals UNKNOWN but itself)
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


def _bdd_result(evaluator: _Evaluator, rule_set: RuleSet, bdd: Bdd) -> Any:
    """The result a BDD reaches (reference ``Bdd.evaluate`` with ``RuleBasedConditionEvaluator``
    and ``RuleEvaluator.evaluateBdd``): from the root, each node's condition picks its high or
    low branch (swapped under a complemented reference) until a terminal or a result.

    Raises:
        EvaluationError: a terminal is reached ("No BDD result matched"), or result 0 (the
            no-match sentinel).
        _Unsupported: a condition that is not evaluated here decides a branch, or a reference
            the BDD validator reports (a node or condition that does not exist, a cycle).
    """
    ref = bdd.root
    for _ in range(len(bdd.nodes) + 1):  # a path visits each node once at most
        if not is_node_reference(ref):
            break
        index = abs(ref) - 1
        if index >= len(bdd.nodes) or not 0 <= bdd.nodes[index][0] < len(rule_set.conditions):
            raise _Unsupported
        variable, high, low = bdd.nodes[index]
        fn, args, assign = rule_set.conditions[variable]
        value = evaluator.function(fn, args)
        if value is UNKNOWN and fn != "aws.partition":
            raise _Unsupported  # which branch is taken is not known
        if value is not EMPTY and assign:
            evaluator.scopes[-1][assign] = value
        ref = high if (value is not EMPTY and value is not False) != (ref < 0) else low
    else:
        raise _Unsupported
    if ref in (1, -1):
        raise EvaluationError("No BDD result matched")
    if ref == RESULT_OFFSET:  # result 0, the no-match sentinel
        raise EvaluationError("Invalid BDD rule result: NO_MATCH")
    if not RESULT_OFFSET < ref <= RESULT_OFFSET + len(rule_set.rules):
        raise _Unsupported
    return evaluator.rule(rule_set.rules[ref - RESULT_OFFSET - 1])


def evaluate_test_case(rule_set: RuleSet, case: dict, bdd: Bdd | None = None) -> str | None:
    """Why a test case fails (reference ``TestEvaluator.evaluate``), or ``None`` when it passes
    or reaches what is not evaluated here. ``rule_set`` is a rule set, or with ``bdd`` the
    conditions and results of an ``@endpointBdd`` (:func:`read_bdd`). Never raises."""
    params = case.get("params") if isinstance(case.get("params"), dict) else {}
    scope: dict[str, Any] = {p.name: _runtime(p.default) for p in rule_set.parameters.values()
                             if p.default is not None}
    scope.update({k: _runtime(v) for k, v in params.items()})
    expect = case.get("expect")
    if not isinstance(expect, dict) or not ("endpoint" in expect or "error" in expect):
        return "Unhandled endpoint test case expectation."
    try:
        evaluator = _Evaluator(scope)
        result = _bdd_result(evaluator, rule_set, bdd) if bdd is not None else evaluator.rules(rule_set.rules)
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


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def show_node(value: Any) -> str:
    """A node as the reference's ``Node.toString`` shows it in a message (strings bare)."""
    return value if isinstance(value, str) else _json(value)



__all__ = [
    "BUILT_INS",
    "EMPTY",
    "RESULT_OFFSET",
    "UNKNOWN",
    "Bdd",
    "EndpointValue",
    "EvaluationError",
    "Parameter",
    "Rule",
    "RuleSet",
    "RulesError",
    "all_rules",
    "decode_base64",
    "endpoint_rules",
    "evaluate_test_case",
    "is_node_reference",
    "newer_function",
    "parameter_type_of_value",
    "read_bdd",
    "read_condition",
    "read_expression",
    "read_literal",
    "read_parameters",
    "read_rule",
    "read_rule_set",
    "read_version",
    "show_expression",
    "show_node",
]
