"""JMESPath expressions in trait values: parsing and the reference's static type check.

Waiter acceptors (``smithy.waiters#waitable``: ``path``, ``message``) and contract
conditions (``smithy.contracts#conditions``: ``expression``) are JMESPath expressions
(https://jmespath.org/specification.html) evaluated against a value of a modeled shape.
The reference checks them statically: it makes a *sample value* of the shape
(``ModelRuntimeTypeGenerator``: every structure member present, lists of two items, strings
of ``"aa"``, numbers ``8``, timestamps ``0``, documents "any") and runs the expression over
it with a type checker (smithy-jmespath ``TypeChecker``) that reports

* ERROR problems: an unknown function, a wrong number of arguments, an argument of the
  wrong type (``length(`10`)``);
* DANGER problems: a field that the object does not have, a field/index/slice/projection/
  flatten applied to a value of the wrong type (``\\`10\\`.foo``);
* WARNING problems: a comparator that does not apply to the type (``\\`true\\` < \\`false\\```);

and computes the expression's result type (``string``, ``number``, ``boolean``, ``array``,
``object``, ``null``, ``expression`` or ``any``). This module mirrors that checker
(:func:`lint`) and the sample values (:func:`sample_value`), node for node, including its
approximations (a projection over an empty array is checked with an unknown value; a function
returns a fixed sample of its declared type — ``ends_with`` is declared to return a number,
as in the reference).

Parsing uses the ``jmespath`` package (:func:`parse`), made as strict as the reference's
parser: JSON literals must be strict JSON (the deprecated elided-quote literal ``\\`foo\\```
and ``NaN``/``Infinity`` are syntax errors), and an expression nested more than
:data:`MAX_DEPTH` levels is rejected before it is checked (see README "Limits").
"""

from __future__ import annotations

import functools
import math
import warnings

from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import LENGTH, RANGE
from smithy2cfn.records import Record
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Deepest nesting of a parsed expression this implementation checks (a syntax tree deeper
#: than this is reported as an error instead of being checked recursively).
MAX_DEPTH = 200


class _Sentinel:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return self.name


#: An unknown value (the reference's ``LiteralExpression.ANY``).
ANY = _Sentinel("ANY")
#: The value of an expression reference ``&expr`` (``LiteralExpression.EXPREF``).
EXPREF = _Sentinel("EXPREF")
#: An expression reference stored inside an array or object: read back, its type is "any"
#: (the reference stores the bare function object, which is none of the JSON types).
_EXPREF_STORED = _Sentinel("EXPREF_STORED")

#: Runtime type names, as the reference prints them (``RuntimeType.toString``).
STRING, NUMBER, BOOLEAN, NULL, ARRAY, OBJECT, EXPRESSION, ANY_TYPE = (
    "string", "number", "boolean", "null", "array", "object", "expression", "any")


def type_of(value: Any) -> str:
    """The runtime type of a sample value (reference ``LiteralExpression.getType``)."""
    if isinstance(value, list):
        return ARRAY
    if isinstance(value, dict):
        return OBJECT
    if isinstance(value, str):
        return STRING
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, (int, float)):
        return NUMBER
    if value is None:
        return NULL
    if value is EXPREF:
        return EXPRESSION
    return ANY_TYPE


def _truthy(value: Any) -> bool:
    """Reference ``LiteralExpression.isTruthy``: unknown values, numbers and expression
    references are true; empty strings, arrays and objects, ``false`` and ``null`` false."""
    kind = type_of(value)
    if kind in (ANY_TYPE, NUMBER, EXPRESSION):
        return True
    if kind in (STRING, ARRAY, OBJECT):
        return len(value) > 0
    if kind == BOOLEAN:
        return value
    return False


def _stored(value: Any) -> Any:
    return _EXPREF_STORED if value is EXPREF else value


# --------------------------------------------------------------------------- parsing


class JmespathSyntaxError(ValueError):
    """An expression that does not parse (the message says where and why)."""


class Expression(Record, frozen=True):
    """A parsed expression: its text and the ``jmespath`` package's syntax tree (nested
    dicts with ``type``, ``children`` and ``value``)."""

    text: str
    tree: dict

    def __init__(self, text: str, tree: dict) -> None:
        self.__dict__.update(text=text, tree=tree)


def _depth_and_literals(tree: dict) -> tuple[int, str | None]:
    """The nesting depth of ``tree`` and the first problem of its literals (a number JSON
    cannot hold), walked iteratively."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, dict):
            continue
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            return deepest, None
        if node.get("type") == "literal":
            values = [node.get("value")]
            while values:
                v = values.pop()
                if isinstance(v, float) and not math.isfinite(v):
                    return deepest, "a JSON literal holds NaN, Infinity or a number beyond the range of a double"
                if isinstance(v, dict):
                    values.extend(v.values())
                elif isinstance(v, list):
                    values.extend(v)
            continue
        stack.extend((c, depth + 1) for c in node.get("children", ()) if isinstance(c, dict))
    return deepest, None


@functools.cache
def _parser_class() -> type:
    """The ``jmespath`` parser, noting where fields and comparisons are (``pos``: offset of
    the field's token, or of the token after a comparator, as the reference reports them),
    and never caching (its warnings about deprecated literals must be seen on each parse;
    :func:`parse` caches).

    Made on the first parse: the ``jmespath`` package (and the ``inspect`` module it imports,
    15 ms together) is imported only by a model that has an expression to check (issue 15).
    """
    import jmespath.parser

    class _Parser(jmespath.parser.Parser):
        _CACHE: dict = {}
        _MAX_SIZE = 0

        def _token_nud_unquoted_identifier(self, token):
            node = super()._token_nud_unquoted_identifier(token)
            node["pos"] = token["start"]
            return node

        def _token_nud_quoted_identifier(self, token):
            node = super()._token_nud_quoted_identifier(token)
            if isinstance(node, dict):
                node["pos"] = token["start"]
            return node

        def _parse_comparator(self, left, comparator):
            pos = self._lookahead_token(0)["start"]
            node = super()._parse_comparator(left, comparator)
            node["pos"] = pos
            return node

    return _Parser


@functools.lru_cache(maxsize=512)
def parse(text: str) -> Expression:
    """Parse a JMESPath expression as strictly as the reference does (smithy-jmespath ``Parser``).

    Raises:
        JmespathSyntaxError: the text is not an expression; a JSON literal is not strict
            JSON (an elided-quote string such as ```foo```, ``NaN``); or it nests deeper than
            :data:`MAX_DEPTH`.
    """
    tree = _simple_tree(text)
    if tree is not None:
        depth, _ = _depth_and_literals(tree)
        if depth > MAX_DEPTH:
            raise JmespathSyntaxError(f"the expression is nested more than {MAX_DEPTH} levels deep")
        return Expression(text, tree)
    import jmespath.exceptions

    parser = _parser_class()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            tree = parser().parse(text).parsed
        except jmespath.exceptions.IncompleteExpressionError:
            raise JmespathSyntaxError("Syntax error: the expression is incomplete") from None
        except jmespath.exceptions.LexerError as e:
            raise JmespathSyntaxError(f"Syntax error at {_where(text, e)}: {e.msg}") from None
        except jmespath.exceptions.ParseError as e:
            token = getattr(e, "token_value", None)
            found = f", but found {token!r}" if token not in (None, "") else ""
            raise JmespathSyntaxError(f"Syntax error at {_where(text, e)}: {e.msg}{found}") from None
        except jmespath.exceptions.JMESPathError as e:  # the package's other syntax errors (empty text...)
            raise JmespathSyntaxError(f"Syntax error: {e}") from None
        except RecursionError:
            raise JmespathSyntaxError(f"the expression is nested more than {MAX_DEPTH} levels deep") from None
        except ValueError:  # the lexer's int() of a number token: more digits than Python converts
            raise JmespathSyntaxError("Syntax error: a number has more digits than this Python converts "
                                      "(4300 by default)") from None
    if any(issubclass(w.category, PendingDeprecationWarning) for w in caught):
        raise JmespathSyntaxError("Syntax error: a JSON literal between backticks is not valid JSON "
                                  "(quote strings: `\"foo\"`, or use a raw string 'foo')")
    depth, literal_problem = _depth_and_literals(tree)
    if depth > MAX_DEPTH:
        raise JmespathSyntaxError(f"the expression is nested more than {MAX_DEPTH} levels deep")
    if literal_problem:
        raise JmespathSyntaxError(f"Syntax error: {literal_problem}")
    return Expression(text, tree)


#: A path of fields and flattens (``Foo``, ``Foo.Bar``, ``Items[].State``): nearly every
#: waiter's path (656 of the 676 in AWS's models), parsed by :func:`_simple_tree`.
_SIMPLE_PATH = lazy(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\])*")


def _simple_tree(text: str) -> dict | None:
    """The syntax tree :func:`parse` gets from the ``jmespath`` package (``pos`` included)
    for a path of unquoted fields and ``[]`` flattens, made without the package (whose import
    is most of a small model's waiter check); ``None`` for any other text.

    As the package's parser does: a dotted chain of fields is one ``subexpression`` of all
    of them (a lone field is itself); ``X[]`` is ``projection(flatten(X), right)``, where
    ``right`` is the chain after it (``identity`` when none), and a later ``[]`` flattens
    that whole projection."""
    if not _SIMPLE_PATH.fullmatch(text):
        return None
    parts = text.split("[]")
    tree = _chain(parts[0], 0)
    offset = len(parts[0])
    for part in parts[1:]:
        offset += 2
        right = _chain(part[1:], offset + 1) if part else {"type": "identity", "children": []}
        tree = {"type": "projection", "children": [{"type": "flatten", "children": [tree]}, right]}
        offset += len(part)
    return tree


def _chain(text: str, offset: int) -> dict:
    """The tree of ``a.b.c`` starting at ``offset`` of the expression (see :func:`_simple_tree`)."""
    fields = []
    for name in text.split("."):
        fields.append({"type": "field", "children": [], "value": name, "pos": offset})
        offset += len(name) + 1
    return fields[0] if len(fields) == 1 else {"type": "subexpression", "children": fields}


def _where(text: str, e: Exception) -> str:
    """``line L column C`` (1-based) of a ``jmespath`` error's offset."""
    pos = getattr(e, "lex_position", None)
    pos = min(max(pos, 0), len(text)) if isinstance(pos, int) else 0
    before = text[:pos]
    return f"line {before.count(chr(10)) + 1} column {pos - (before.rfind(chr(10)) + 1) + 1}"


# --------------------------------------------------------------------------- sample values


def sample_value(model: Model, shape_id: str | None) -> Any:
    """A sample value of a shape for the type check (reference ``ModelJmespathUtils.sampleShapeValue``
    and ``ModelRuntimeTypeGenerator``).

    Structures and unions: every member; lists: ``@length``-bounded count (2 by default) of
    the member's sample; maps: that many entries ``"<key>0"``...; strings ``"a"`` × length (2
    by default, within ``@length``); numbers 8 within ``@range``; booleans ``true``; blobs
    ``"blob"``; timestamps 0; documents and recursive members :data:`ANY`. ``None`` or an
    unknown shape gives :data:`ANY`. Built iteratively, whatever the nesting.
    """
    if shape_id is None or shape_id not in model.shapes:
        return ANY
    result: list[Any] = [None]
    # work items: (shape_id, visited member IDs on the path, setter)
    stack: list[tuple[str, frozenset[str], Any]] = [(shape_id, frozenset(), lambda v: result.__setitem__(0, v))]
    while stack:
        sid, visited, put = stack.pop()
        shape = model.shapes.get(sid)
        if shape is None:
            put(ANY)
            continue
        kind = shape.type
        if kind in ("structure", "union"):
            obj: dict[str, Any] = {}
            put(obj)
            for name, member in shape.members.items():
                obj[name] = None
                _push_member(stack, member, visited, obj, name)
        elif kind in ("list", "set"):
            arr: list[Any] = []
            put(arr)
            member = shape.members.get("member")
            size = _length(shape.traits)
            if member is not None and size > 0:
                holder: dict[str, Any] = {}

                def fill(v: Any, arr: list = arr, size: int = size) -> None:
                    if v is not None:
                        arr.extend([v] * size)
                _push_member(stack, member, visited, holder, "v", fill)
        elif kind == "map":
            obj = {}
            put(obj)
            key, val = shape.members.get("key"), shape.members.get("value")
            size = _length(shape.traits)
            key_text = "a" * _length(model.shapes[key.target].traits, MAX_SAMPLE_CHARS) if key and key.target in model.shapes else "aa"
            if size > 0:
                def fill_map(v: Any, obj: dict = obj, size: int = size, key_text: str = key_text) -> None:
                    for i in range(size):
                        obj[f"{key_text}{i}"] = v
                if val is None:
                    fill_map(ANY)
                else:
                    _push_member(stack, val, visited, {}, "v", fill_map)
        elif kind in ("string", "enum"):
            put("a" * _length(shape.traits, MAX_SAMPLE_CHARS))
        elif kind == "blob":
            put("blob")
        elif kind == "boolean":
            put(True)
        elif kind in ("byte", "short", "integer", "long", "float", "double", "bigInteger", "bigDecimal",
                      "intEnum"):
            put(_range(shape.traits))
        elif kind == "timestamp":
            put(0)
        else:  # document; service types are never sampled
            put(ANY)
    return result[0]


def _push_member(stack: list, member: Any, visited: frozenset[str], holder: dict, key: str,
                 then: Any = None) -> None:
    def put(v: Any) -> None:
        holder[key] = v
        if then is not None:
            then(v)
    if member.id in visited:
        put(ANY)
        return
    stack.append((member.target, visited | {member.id}, put))


#: Most items of a sampled list or map, and characters of a sampled string (the reference
#: uses ``@length(min:)`` as is; a huge minimum must not allocate a huge sample).
MAX_SAMPLE_ITEMS = 64
MAX_SAMPLE_CHARS = 10_000


def _length(traits: dict, cap: int = MAX_SAMPLE_ITEMS) -> int:
    chars = 2
    length = traits.get(LENGTH)
    if isinstance(length, dict):
        lo, hi = length.get("min"), length.get("max")
        if isinstance(lo, (int, float)) and not isinstance(lo, bool) and math.isfinite(lo):
            chars = max(chars, int(min(lo, cap)))
        if isinstance(hi, (int, float)) and not isinstance(hi, bool) and math.isfinite(hi):
            chars = min(chars, int(hi))
    return max(chars, 0)


def _range(traits: dict) -> float:
    value = 8.0
    rng = traits.get(RANGE)
    if isinstance(rng, dict):
        lo, hi = rng.get("min"), rng.get("max")
        if isinstance(lo, (int, float)) and not isinstance(lo, bool):
            value = max(value, float(lo))
        if isinstance(hi, (int, float)) and not isinstance(hi, bool):
            value = min(value, float(hi))
    return value


# --------------------------------------------------------------------------- type check


class Problem(Record, frozen=True, order=True):
    """One finding of the type check: ``severity`` is ``"ERROR"``, ``"DANGER"`` or ``"WARNING"``;
    ``where`` is `` (line:column)`` in the expression when known, else ``""``."""

    severity: str
    message: str
    where: str

    def __init__(self, severity: str, message: str, where: str = "") -> None:
        self.__dict__.update(severity=severity, message=message, where=where)

    def __str__(self) -> str:
        return self.message + self.where


class LintResult(Record, frozen=True):
    """What :func:`lint` found: the result type and the problems (sorted, without repeats)."""

    return_type: str
    problems: tuple[Problem, ...]

    def __init__(self, return_type: str, problems: tuple[Problem, ...]) -> None:
        self.__dict__.update(return_type=return_type, problems=problems)


def _is_type(expected: str):
    def check(arg: Any) -> str | None:
        actual = type_of(arg)
        if expected == ANY_TYPE or actual == ANY_TYPE or actual == expected:
            return None
        return f"Expected argument to be {expected}, but found {actual}"
    return check


def _list_of(expected: str):
    def check(arg: Any) -> str | None:
        actual = type_of(arg)
        if actual == ANY_TYPE:
            return None
        if actual != ARRAY:
            return f"Expected argument to be an array, but found {actual}"
        for i, element in enumerate(arg):
            if type_of(element) != expected:
                return f"Expected an array of {expected}, but found {type_of(element)} at index {i}"
        return None
    return check


def _one_of(*types: str):
    def check(arg: Any) -> str | None:
        actual = type_of(arg)
        if actual == ANY_TYPE or actual in types:
            return None
        return f"Expected one of [{', '.join(types)}], but found {actual}"
    return check


# The reference's fixed samples of each return type (LiteralExpression.NUMBER is 0...).
_RET = {NUMBER: lambda: 0, STRING: lambda: "", BOOLEAN: lambda: False, ARRAY: list, OBJECT: dict,
        ANY_TYPE: lambda: ANY}

#: name → (return type, positional argument checks, variadic check or None): the
#: reference's ``TypeChecker.FUNCTIONS`` (its declared types, ``ends_with`` → number included).
FUNCTIONS: dict[str, tuple[str, tuple, Any]] = {
    "abs": (NUMBER, (_is_type(NUMBER),), None),
    "avg": (NUMBER, (_list_of(NUMBER),), None),
    "contains": (BOOLEAN, (_one_of(ARRAY, STRING), _is_type(ANY_TYPE)), None),
    "ceil": (NUMBER, (_is_type(NUMBER),), None),
    "ends_with": (NUMBER, (_is_type(STRING), _is_type(STRING)), None),
    "floor": (NUMBER, (_is_type(NUMBER),), None),
    "join": (STRING, (_is_type(STRING), _list_of(STRING)), None),
    "keys": (ARRAY, (_is_type(OBJECT),), None),
    "length": (NUMBER, (_one_of(STRING, ARRAY, OBJECT),), None),
    "map": (ARRAY, (_is_type(EXPRESSION), _is_type(ARRAY)), None),
    "max": (NUMBER, (_is_type(ARRAY),), None),
    "max_by": (NUMBER, (_is_type(ARRAY), _is_type(EXPRESSION)), None),
    "merge": (OBJECT, (), _is_type(OBJECT)),
    "min": (NUMBER, (_is_type(ARRAY),), None),
    "min_by": (NUMBER, (_is_type(ARRAY), _is_type(EXPRESSION)), None),
    "not_null": (ANY_TYPE, (_is_type(ANY_TYPE),), _is_type(ANY_TYPE)),
    "reverse": (ARRAY, (_one_of(ARRAY, STRING),), None),
    "sort": (ARRAY, (_is_type(ARRAY),), None),
    "sort_by": (ARRAY, (_is_type(ARRAY), _is_type(EXPRESSION)), None),
    "starts_with": (BOOLEAN, (_is_type(STRING), _is_type(STRING)), None),
    "sum": (NUMBER, (_list_of(NUMBER),), None),
    "to_array": (ARRAY, (_is_type(ANY_TYPE),), None),
    "to_string": (STRING, (_is_type(ANY_TYPE),), None),
    "to_number": (NUMBER, (_is_type(ANY_TYPE),), None),
    "type": (STRING, (_is_type(ANY_TYPE),), None),
    "values": (ARRAY, (_is_type(OBJECT),), None),
}

_COMPARATORS = {"eq": "==", "ne": "!=", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}


def _equal(a: Any, b: Any) -> bool:
    """Equality of sample values (numbers by value, ``true`` is not ``1``)."""
    if type_of(a) != type_of(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, _Sentinel) or isinstance(b, _Sentinel):
        return a is b
    return a == b


def _compare(left: Any, right: Any, op: str) -> Any:
    """Reference ``RuntimeType.compare``: ``None`` (the NULL literal) marks a comparator
    that does not apply to the type."""
    kind = type_of(left)
    if kind == ANY_TYPE:
        return True
    if kind != type_of(right):
        return False  # LiteralExpression.BOOLEAN
    if kind == NUMBER:
        diff = float(left) - float(right)
        return {"eq": diff == 0, "ne": diff != 0, "gt": diff > 0, "gte": diff >= 0,
                "lt": diff < 0, "lte": diff <= 0}[op]
    if kind == EXPRESSION:
        return None
    if op == "eq":
        return True if kind == NULL else _equal(left, right)
    if op == "ne":
        return False if kind == NULL else not _equal(left, right)
    return None


class _Checker:
    """The reference's ``TypeChecker`` over the ``jmespath`` package's syntax tree."""

    def __init__(self, problems: set[Problem], text: str) -> None:
        self.problems = problems
        self.text = text

    def where(self, node: dict | None) -> str:
        """`` (line:column)`` of a node the parser placed (1-based, as the reference prints)."""
        pos = node.get("pos") if node is not None else None
        if not isinstance(pos, int) or not 0 <= pos <= len(self.text):
            return ""
        before = self.text[:pos]
        line = before.count("\n") + 1
        return f" ({line}:{pos - (before.rfind(chr(10)) + 1) + 1})"

    def danger(self, message: str, node: dict | None = None) -> None:
        self.problems.add(Problem("DANGER", message, self.where(node)))

    def visit(self, node: dict, current: Any, kft: Any = ANY) -> Any:
        """The sample result of ``node`` over ``current``. ``kft`` is the value an expression
        reference is checked against (the reference's ``knownFunctionType``: the current
        value for the arguments of a function, passed on to the children the reference
        visits with the same checker, "any" where it starts a new one)."""
        kind = node["type"]
        children = node.get("children", [])
        if kind in ("current", "identity"):
            return current
        if kind == "literal":
            return node["value"]
        if kind == "field":
            return self._field(node, current)
        if kind == "index":
            return self._index(node["value"], current)
        if kind == "slice":
            if isinstance(current, list):
                return current
            if type_of(current) != ANY_TYPE:
                self.danger(f"Slice performed on {type_of(current)}")
            return []
        if kind in ("subexpression", "index_expression", "pipe"):
            value = self.visit(children[0], current, kft)
            for child in children[1:]:
                value = self.visit(child, value)
            return value
        if kind == "comparator":
            left = self.visit(children[0], current, kft)
            right = self.visit(children[1], current, kft)
            result = _compare(left, right, node["value"])
            if result is None:
                self.problems.add(Problem("WARNING", f"Invalid comparator '{_COMPARATORS[node['value']]}' "
                                                     f"for {type_of(left)}", self.where(node)))
            return result
        if kind == "expref":
            self.visit(children[0], kft)
            return EXPREF
        if kind == "flatten":
            return self._flatten(self.visit(children[0], current, kft))
        if kind == "multi_select_list":
            return [_stored(self.visit(c, current, kft)) for c in children]
        if kind == "multi_select_dict":
            return {pair["value"]: _stored(self.visit(pair["children"][0], current, kft)) for pair in children}
        if kind == "and_expression":
            left = self.visit(children[0], current, kft)
            right = self.visit(children[1], current, kft)
            return right if _truthy(left) else left
        if kind == "or_expression":
            left = self.visit(children[0], current, kft)
            right = self.visit(children[1], current, kft)
            return left if _truthy(left) else right
        if kind == "not_expression":
            return not _truthy(self.visit(children[0], current, kft))
        if kind == "projection":
            return self._projection(children[0], children[1], current, kft)
        if kind == "value_projection":
            return self._object_projection(children[0], children[1], current, kft)
        if kind == "filter_projection":
            return self._filter_projection(children[0], children[1], children[2], current, kft)
        if kind == "function_expression":
            return self._function(node["value"], children, current)
        return ANY  # a node type of a newer jmespath package: unknown, never a false problem

    def _field(self, node: dict, current: Any) -> Any:
        name = node["value"]
        if isinstance(current, dict):
            if name in current:
                return _read(current[name])
            self.danger(f"Object field '{name}' does not exist in object with properties "
                        f"[{', '.join(current)}]", node)
            return None
        if type_of(current) != ANY_TYPE:
            self.danger(f"Object field '{name}' extraction performed on {type_of(current)}", node)
        return ANY

    def _index(self, index: int, current: Any) -> Any:
        if isinstance(current, list):
            i = index + len(current) if index < 0 else index
            return _read(current[i]) if 0 <= i < len(current) else None
        if type_of(current) != ANY_TYPE:
            self.danger(f"Array index '{index}' extraction performed on {type_of(current)}")
        return ANY

    def _flatten(self, value: Any) -> Any:
        if not isinstance(value, list):
            if type_of(value) != ANY_TYPE:
                self.danger(f"Array flatten performed on {type_of(value)}")
            return []
        flat: list[Any] = []
        for element in value:
            element = _read(element)
            if isinstance(element, list):
                flat.extend(element)
            elif element is not None:
                flat.append(element)
        return flat

    def _projection(self, left_node: dict, right_node: dict, current: Any, kft: Any) -> Any:
        left = self.visit(left_node, current, kft)
        if not isinstance(left, list) or not left:
            if type_of(left) != ANY_TYPE and not isinstance(left, list):
                self.danger(f"Array projection performed on {type_of(left)}")
            self.visit(right_node, ANY)
            return []
        return [_stored(self.visit(right_node, _read(v))) for v in left]

    def _object_projection(self, left_node: dict, right_node: dict, current: Any, kft: Any) -> Any:
        left = self.visit(left_node, current, kft)
        if not isinstance(left, dict):
            if type_of(left) != ANY_TYPE:
                self.danger(f"Object projection performed on {type_of(left)}")
            self.visit(right_node, ANY)
            return {}
        return [_stored(self.visit(right_node, _read(v))) for v in left.values()]

    def _filter_projection(self, left_node: dict, right_node: dict, condition: dict, current: Any,
                           kft: Any) -> Any:
        left = self.visit(left_node, current, kft)
        if not isinstance(left, list) or not left:
            if not isinstance(left, list) and type_of(left) != ANY_TYPE:
                self.danger(f"Filter projection performed on {type_of(left)}")
            self.visit(condition, ANY)
            self.visit(right_node, ANY)
            return []
        out: list[Any] = []
        for v in left:
            v = _read(v)
            if _truthy(self.visit(condition, v)):
                value = self.visit(right_node, v)
                if value is not None:
                    out.append(_stored(value))
        return out

    def _function(self, name: str, args: list[dict], current: Any) -> Any:
        values = [self.visit(a, current, current) for a in args]
        definition = FUNCTIONS.get(name)
        if definition is None:
            self.problems.add(Problem("ERROR", f"Unknown function: {name}"))
            return ANY
        returns, positional, variadic = definition
        if len(values) < len(positional) or (variadic is None and len(values) > len(positional)):
            self.problems.add(Problem("ERROR", f"{name} function expected {len(positional)} arguments, but was "
                                               f"given {len(values)}"))
        else:
            for i, value in enumerate(values):
                check = positional[i] if i < len(positional) else variadic
                problem = check(value) if check is not None else None
                if problem is not None:
                    self.problems.add(Problem("ERROR", f"{name} function argument {i} error: {problem}"))
        return _RET[returns]()


def _read(value: Any) -> Any:
    """A value read back out of an array or object (a stored expression reference is "any")."""
    return ANY if value is _EXPREF_STORED else value


def lint(expression: Expression, current: Any = ANY) -> LintResult:
    """Type-check ``expression`` over the sample value ``current`` (reference
    ``JmespathExpression.lint``). Never raises on a parsed expression (:func:`parse` bounds
    its depth)."""
    problems: set[Problem] = set()
    result = _Checker(problems, expression.text).visit(expression.tree, current)
    return LintResult(type_of(result), tuple(sorted(problems)))


__all__ = ["ANY", "EXPREF", "FUNCTIONS", "MAX_DEPTH", "Expression", "JmespathSyntaxError", "LintResult",
           "Problem", "lint", "parse", "sample_value", "type_of"]
