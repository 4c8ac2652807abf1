"""A Smithy selector parser and evaluator (Smithy 2.0 "Selectors", selectors.rst).

Selectors say where a trait may be applied (``@trait(selector: ...)``) and which shapes an
``@idRef(selector: ...)`` value may name. This module parses a selector once
(:func:`parse_selector`, cached) into a tuple of steps and evaluates it over a
:class:`~smithy2cfn.model.Model` (:class:`SelectorEngine`).

The model is a graph whose nodes are shape IDs, top-level shapes and members alike
(``ns#Shape$member``); edges are the relationships of §"Relationships", read from the
model's :class:`~smithy2cfn.model.relationships.NeighborIndex` (``member``, ``input``,
``identifier``... and the unnamed member → target edge; ``trait`` edges only when asked for
by name; the reference's deprecated ``bound`` and ``instanceOperation`` by name).

Supported: shape types (``*``, ``number``, ``simpleType``, ``collection``...; ``string``
also matches ``enum``, ``integer`` matches ``intEnum``, ``list`` matches ``set``), attribute
selectors (``id``, ``trait``, ``service``, ``var``, node properties, ``(keys)``,
``(values)``, ``(length)``, ``(first)``, string/numeric/projection comparators, ``i``),
scoped attribute selectors, neighbors (``>``, ``<``, ``~>``, ``-[a, b]->``,
``<-[a]-``), functions ``:test``, ``:is``/``:each``, ``:not``, ``:in``, ``:root``,
``:recursive``, ``:topdown`` (unknown functions yield nothing), and variables
(``$name(...)``, ``${name}``).

Errors: :func:`parse_selector` raises :class:`SelectorError` for text it cannot parse, and
:class:`SelectorTooDeep` for functions nested more than :data:`MAX_SELECTOR_NESTING` levels
deep (which bounds the recursion of parsing and evaluation); evaluation never raises on a
parsed selector, and walks the shape graph itself (``~>``, ``:recursive``, ``:topdown``)
with explicit stacks.
"""

from __future__ import annotations

import collections
import functools
from collections.abc import Callable, Iterable

from smithy2cfn.model.knowledge import MemberIds, MemberTraitIndex
from smithy2cfn.model.relationships import MEMBERS_ONLY_TYPES, NeighborIndex, RelationshipType, all_node_ids
from smithy2cfn.model.shapes import SIMPLE_TYPES, Model, ShapeId, ShapeLists
from smithy2cfn.prelude import PRELUDE_NAMESPACE
from smithy2cfn.records import Record
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

# --------------------------------------------------------------------------- syntax tree


class SelectorError(ValueError):
    """A selector the parser does not understand (bad syntax or an unsupported construct)."""


class SelectorTooDeep(SelectorError):
    """A selector whose functions and variables nest more than :data:`MAX_SELECTOR_NESTING`
    levels deep (``:not(:not(:not(...)))``): beyond this implementation's limit, an error."""


#: Deepest nesting of ``:function(...)`` and ``$var(...)`` a selector may have. Parsing and
#: evaluation recurse once per level; real selectors nest two or three levels.
MAX_SELECTOR_NESTING = 50


class TypeStep(Record, frozen=True):
    """``*`` or a shape type name (``string``, ``number``, ``member``...): a filter."""

    name: str

    def __init__(self, name: str) -> None:
        self.__dict__.update(name=name)


class AttrStep(Record, frozen=True):
    """``[path]`` or ``[path op values i]``: a filter on an attribute of the shape."""

    path: tuple[str, ...]
    op: str | None
    values: tuple[str, ...]
    ci: bool

    def __init__(self, path: tuple[str, ...], op: str | None = None, values: tuple[str, ...] = (),
                 ci: bool = False) -> None:
        self.__dict__.update(path=path, op=op, values=values, ci=ci)


class Assertion(Record, frozen=True):
    """One ``lhs op rhs, rhs... [i]`` of a scoped attribute selector.

    ``lhs`` and each ``rhs`` are ``("ctx", path)`` (a context value ``@{path}``) or
    ``("lit", text)``.
    """

    lhs: tuple[str, Any]
    op: str
    rhs: tuple[tuple[str, Any], ...]
    ci: bool

    def __init__(self, lhs: tuple[str, Any], op: str, rhs: tuple[tuple[str, Any], ...], ci: bool = False) -> None:
        self.__dict__.update(lhs=lhs, op=op, rhs=rhs, ci=ci)


class ScopedAttrStep(Record, frozen=True):
    """``[@path: assertion && ...]``: a filter; ``path`` is empty to scope to the shape."""

    path: tuple[str, ...]
    assertions: tuple[Assertion, ...]

    def __init__(self, path: tuple[str, ...], assertions: tuple[Assertion, ...]) -> None:
        self.__dict__.update(path=path, assertions=assertions)


class NeighborStep(Record, frozen=True):
    """``>``, ``<``, ``~>``, ``-[rels]->`` (``kind`` ``"fwd"``) or ``<-[rels]-`` (``"rev"``)."""

    kind: str
    rels: tuple[str, ...]

    def __init__(self, kind: str, rels: tuple[str, ...] = ()) -> None:
        self.__dict__.update(kind=kind, rels=rels)


class FunctionStep(Record, frozen=True):
    """``:name(selector, ...)``."""

    name: str
    args: tuple[tuple, ...]

    def __init__(self, name: str, args: tuple[tuple, ...]) -> None:
        self.__dict__.update(name=name, args=args)


class VarSetStep(Record, frozen=True):
    """``$name(selector)``: stores what the selector yields for the shape; yields the shape."""

    name: str
    selector: tuple

    def __init__(self, name: str, selector: tuple) -> None:
        self.__dict__.update(name=name, selector=selector)


class VarGetStep(Record, frozen=True):
    """``${name}``: yields the shapes stored in a variable."""

    name: str

    def __init__(self, name: str) -> None:
        self.__dict__.update(name=name)


Selector = tuple  # a tuple of steps

_STRING_OPS = ("^=", "$=", "*=", "!=", "?=", "=")
_NUMERIC_OPS = (">=", "<=", ">", "<")
_PROJECTION_OPS = ("{!=}", "{<<}", "{=}", "{<}")
_COMPARATORS = _PROJECTION_OPS + ("^=", "$=", "*=", "!=", "?=", ">=", "<=", "=", ">", "<")
_IDENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*")
_BARE_VALUE = lazy(r"[A-Za-z0-9_.#+\-]+")
_NUMBER = lazy(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$")

#: Type tokens (§"Matching shapes by type") → the JSON AST types they match.
_NUMBERS = frozenset({"byte", "short", "integer", "long", "float", "double", "bigDecimal",
                      "bigInteger", "intEnum"})
_AGGREGATES = frozenset({"list", "set", "map", "structure", "union"})
TYPE_TOKENS: dict[str, frozenset[str]] = {
    "number": _NUMBERS,
    "simpleType": frozenset(SIMPLE_TYPES),
    "aggregateType": _AGGREGATES,
    "dataType": frozenset(SIMPLE_TYPES) | _AGGREGATES,
    "serviceType": frozenset({"service", "operation", "resource"}),
    "collection": frozenset({"list", "set"}),
    "list": frozenset({"list", "set"}),
    "set": frozenset({"list", "set"}),
    "string": frozenset({"string", "enum"}),
    "integer": frozenset({"integer", "intEnum"}),
}
for _t in ("blob", "boolean", "document", "byte", "short", "long", "float", "double", "bigDecimal",
           "bigInteger", "timestamp", "map", "structure", "union", "service", "operation", "resource",
           "member", "enum", "intEnum"):
    TYPE_TOKENS.setdefault(_t, frozenset({_t}))


class _Parser:
    """Recursive-descent parser over the selector text (grammar: selectors.rst §"Grammar")."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.nesting = 0

    def enter(self) -> None:
        """Open one level of ``(...)`` nesting; :class:`SelectorTooDeep` past the limit."""
        self.nesting += 1
        if self.nesting > MAX_SELECTOR_NESTING:
            raise SelectorTooDeep(f"functions and variables are nested more than {MAX_SELECTOR_NESTING} "
                                  f"levels deep (at offset {self.pos})")

    # ---- low level
    def ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t\r\n":
            self.pos += 1

    def peek(self, s: str) -> bool:
        return self.text.startswith(s, self.pos)

    def eat(self, s: str) -> bool:
        if self.peek(s):
            self.pos += len(s)
            return True
        return False

    def expect(self, s: str) -> None:
        self.ws()
        if not self.eat(s):
            raise SelectorError(f"expected '{s}' at offset {self.pos} of selector {self.text!r}")

    def ident(self) -> str:
        self.ws()
        m = _IDENT.match(self.text, self.pos)
        if not m:
            raise SelectorError(f"expected an identifier at offset {self.pos} of selector {self.text!r}")
        self.pos = m.end()
        return m.group(0)

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    # ---- selectors
    def selector(self) -> Selector:
        steps = []
        while True:
            self.ws()
            if self.at_end() or self.text[self.pos] in ",)":
                break
            steps.append(self.expression())
        if not steps:
            raise SelectorError(f"empty selector at offset {self.pos} of {self.text!r}")
        return tuple(steps)

    def expression(self):
        t = self.text
        if self.eat("*"):
            return TypeStep("*")
        if self.eat("~>"):
            return NeighborStep("~>")
        if self.eat("<-["):
            rels = self.relationships()
            self.expect("]-")
            return NeighborStep("rev", rels)
        if self.eat("-["):
            rels = self.relationships()
            self.expect("]->")
            return NeighborStep("fwd", rels)
        if self.eat(">"):
            return NeighborStep(">")
        if self.eat("<"):
            return NeighborStep("<")
        if self.eat("[@"):
            return self.scoped_attr()
        if self.eat("["):
            return self.attr()
        if self.eat("${"):
            name = self.ident()
            self.expect("}")
            return VarGetStep(name)
        if self.eat("$"):
            name = self.ident()
            self.expect("(")
            self.enter()
            sel = self.selector()
            self.expect(")")
            self.nesting -= 1
            return VarSetStep(name, sel)
        if self.eat(":"):
            name = self.ident()
            self.expect("(")
            self.enter()
            args = [self.selector()]
            self.ws()
            while self.eat(","):
                args.append(self.selector())
                self.ws()
            self.expect(")")
            self.nesting -= 1
            return FunctionStep(name, tuple(args))
        m = _IDENT.match(t, self.pos)
        if m:
            self.pos = m.end()
            name = m.group(0)
            if name not in TYPE_TOKENS:
                raise SelectorError(f"unknown shape type '{name}' in selector {t!r}")
            return TypeStep(name)
        raise SelectorError(f"unexpected character {t[self.pos]!r} at offset {self.pos} of selector {t!r}")

    def relationships(self) -> tuple[str, ...]:
        rels = [self.ident()]
        self.ws()
        while self.eat(","):
            rels.append(self.ident())
            self.ws()
        return tuple(rels)

    def value(self) -> str:
        """A ``SelectorValue``: quoted text, a number or a (root) shape ID."""
        self.ws()
        t = self.text
        if self.pos < len(t) and t[self.pos] in "'\"":
            q = t[self.pos]
            end = t.find(q, self.pos + 1)
            if end < 0:
                raise SelectorError(f"unclosed string in selector {t!r}")
            out = t[self.pos + 1: end]
            self.pos = end + 1
            return out
        m = _BARE_VALUE.match(t, self.pos)
        if not m:
            raise SelectorError(f"expected a value at offset {self.pos} of selector {t!r}")
        self.pos = m.end()
        return m.group(0)

    def path_segment(self) -> str:
        self.ws()
        if self.eat("("):
            name = self.ident()
            self.expect(")")
            return f"({name})"
        return self.value()

    def path(self) -> tuple[str, ...]:
        segs = [self.path_segment()]
        self.ws()
        while self.eat("|"):
            segs.append(self.path_segment())
            self.ws()
        return tuple(segs)

    def comparator(self) -> str | None:
        self.ws()
        for op in _COMPARATORS:
            if self.eat(op):
                return op
        return None

    def case_flag(self) -> bool:
        self.ws()
        m = _IDENT.match(self.text, self.pos)
        if m and m.group(0) == "i":
            self.pos = m.end()
            return True
        return False

    def attr(self) -> AttrStep:
        path = self.path()
        op = self.comparator()
        if op is None:
            self.expect("]")
            return AttrStep(path)
        values = [self.value()]
        self.ws()
        while self.eat(","):
            values.append(self.value())
            self.ws()
        ci = self.case_flag()
        self.expect("]")
        return AttrStep(path, op, tuple(values), ci)

    def scoped_value(self) -> tuple[str, Any]:
        self.ws()
        if self.eat("@{"):
            p = self.path()
            self.expect("}")
            return ("ctx", p)
        return ("lit", self.value())

    def scoped_attr(self) -> ScopedAttrStep:
        self.ws()
        path: tuple[str, ...] = ()
        if not self.peek(":"):
            path = self.path()
        self.expect(":")
        assertions = []
        while True:
            lhs = self.scoped_value()
            op = self.comparator()
            if op is None:
                raise SelectorError(f"expected a comparator at offset {self.pos} of selector {self.text!r}")
            rhs = [self.scoped_value()]
            self.ws()
            while self.eat(","):
                rhs.append(self.scoped_value())
                self.ws()
            ci = self.case_flag()
            assertions.append(Assertion(lhs, op, tuple(rhs), ci))
            self.ws()
            if not self.eat("&&"):
                break
        self.expect("]")
        return ScopedAttrStep(path, tuple(assertions))


@functools.lru_cache(maxsize=1024)
def parse_selector(text: str) -> Selector:
    """Parse selector text into a tuple of steps (cached per text).

    Raises:
        SelectorError: the text is not a selector this module understands;
            :class:`SelectorTooDeep` (a subclass) when it nests more than
            :data:`MAX_SELECTOR_NESTING` levels deep.
    """
    p = _Parser(text)
    sel = p.selector()
    p.ws()
    if not p.at_end():
        raise SelectorError(f"unexpected {text[p.pos]!r} at offset {p.pos} of selector {text!r}")
    return sel


if TYPE_CHECKING:
    _Item = TypeVar("_Item")
    _Answer = TypeVar("_Answer")


def _by_identity(function: Callable[[_Item], _Answer]) -> Callable[[_Item], _Answer]:
    """``function`` of a selector or step, remembered per object (at most 4,096, then
    forgotten all at once). ``functools.lru_cache`` keys by value: a selector is a tuple of
    frozen records, hashed all through, nested steps included, at every look-up (the hashes
    were most of these functions' cost on a large model's trait selectors). The object is
    kept with its answer, so that its ``id`` is not reused while remembered; an equal
    selector that is another object gets an entry of its own (the same answer)."""
    memo: dict[int, tuple[_Item, _Answer]] = {}

    @functools.wraps(function)
    def remembered(item: _Item) -> _Answer:
        entry = memo.get(id(item))
        if entry is not None and entry[0] is item:
            return entry[1]
        answer = function(item)
        if len(memo) >= 4096:
            memo.clear()
        memo[id(item)] = (item, answer)
        return answer

    return remembered


@_by_identity
def _uses_variables(sel: Selector) -> bool:
    """True when ``sel`` sets or reads variables (or has a scoped attribute, which may):
    then it must run from each starting shape alone. Cached per selector (it is asked once
    per :meth:`SelectorEngine._passing` call)."""
    for step in sel:
        if isinstance(step, (VarSetStep, VarGetStep)):
            return True
        if isinstance(step, AttrStep) and step.path and step.path[0] == "var":
            return True
        if isinstance(step, ScopedAttrStep):
            return True  # may read @{var|...}; evaluate per starting shape to be safe
        if isinstance(step, FunctionStep) and any(_uses_variables(a) for a in step.args):
            return True
    return False


@_by_identity
def _is_filter(step: Any) -> bool:
    """True when ``step`` keeps or drops each node on its own, yielding a subset of the nodes
    it is given (a type, an attribute, ``:test``, ``:not``, ``:in``, or ``:is`` of such
    steps): then running it over many nodes at once gives what running it from each gives."""
    if isinstance(step, (TypeStep, AttrStep)):
        return True
    if isinstance(step, FunctionStep):
        if step.name in ("test", "not", "in"):
            return True
        if step.name == "is":
            return all(all(_is_filter(s) for s in a) for a in step.args)
    return False


@_by_identity
def _trait_presence(step: AttrStep) -> str | None:
    """The absolute trait ID when ``step`` is ``[trait|name]`` (presence of one trait,
    answered from :meth:`SelectorEngine.nodes_with_trait`); ``None`` otherwise."""
    if step.op is not None or len(step.path) != 2 or step.path[0] != "trait":
        return None
    seg = step.path[1]
    if seg.startswith("("):
        return None
    return ShapeId.absolute(seg, PRELUDE_NAMESPACE)


# --------------------------------------------------------------------------- attribute values

_EMPTY = object()  # the "empty value" of §"Empty attribute"


class _Proj:
    """A projection (§"Projection attribute"): an unordered bag of values."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = [i for i in items if i is not _EMPTY]

    def flat(self) -> list[Any]:
        out: list[Any] = []
        for i in self.items:
            out.extend(i.flat() if isinstance(i, _Proj) else [i])
        return out


class _IdAttr(Record, frozen=True):
    shape_id: str

    def __init__(self, shape_id: str) -> None:
        self.__dict__.update(shape_id=shape_id)


class _ShapeAttr(Record, frozen=True):
    node: str

    def __init__(self, node: str) -> None:
        self.__dict__.update(node=node)


class _TraitsAttr(Record, frozen=True):
    node: str

    def __init__(self, node: str) -> None:
        self.__dict__.update(node=node)


class _ServiceAttr(Record, frozen=True):
    node: str

    def __init__(self, node: str) -> None:
        self.__dict__.update(node=node)


class _VarAttr:
    def __init__(self, variables: dict[str, set[str]]) -> None:
        self.variables = variables


def _fmt_number(v: int | float) -> str:
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e16:
        return repr(v)
    if isinstance(v, int) and v.bit_length() > 10_000:
        return "i" + format(v, "x")  # str() raises past 4,300 digits; no selector value is that long
    return str(v)


def _to_str(v: Any) -> str | None:
    """String form for string comparators; ``None`` for the empty value."""
    if v is _EMPTY or v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return _fmt_number(v)
    if isinstance(v, str):
        return v
    if isinstance(v, (_IdAttr, _ShapeAttr, _ServiceAttr)):
        return getattr(v, "shape_id", None) or getattr(v, "node", "")
    return ""


def _exists(v: Any) -> bool:
    if v is _EMPTY or v is None:
        return False
    if isinstance(v, _Proj):
        return bool(v.flat())
    return True


class _Plan:
    """How :meth:`SelectorEngine.matches` evaluates one selector: whether it only filters
    (:func:`_only_filters`), its neighbor moves (:func:`_neighbor_moves`), what it yields from
    each starting shape so far, and what it yields over the whole model once evaluated so
    (``None`` until then)."""

    __slots__ = ("selector", "filters_only", "moves", "yields", "selected", "alternatives", "typed_members")

    def __init__(self, selector: Selector, filters_only: bool, moves: list[NeighborStep] | None,
                 selected: frozenset[str] | None) -> None:
        self.selector = selector
        self.filters_only = filters_only
        self.moves = moves
        self.yields: dict[str, frozenset[str]] = {}
        self.selected = selected
        #: for a selector that starts with ``:is(A, B...)``: ``A`` then the rest, ``B`` then
        #: the rest... (:meth:`SelectorEngine.matching`); ``None`` otherwise
        self.alternatives = _alternatives(selector)
        #: for ``T > member`` then filters only: those two parts (:func:`_typed_members_then_filters`)
        self.typed_members = _typed_members_then_filters(selector)


class SelectorEngine:
    """Evaluates parsed selectors over one model, with per-model caches.

    Validators share one engine per model: ``model.knowledge(SelectorEngine)``.

    Args:
        model: the loaded model. It must not change while the engine is used.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self._neighbors = model.knowledge(NeighborIndex)
        self._fwd: dict[str, list[tuple[str, str]]] = {}
        self._select_cache: dict[Selector, frozenset[str]] = {}
        #: per selector (by identity), how :meth:`matches` evaluates it
        self._plans: dict[int, _Plan] = {}
        self._all: list[str] | None = None
        self._members: frozenset[str] | None = None
        self._traits: dict[str, dict[str, Any]] = {}
        self._by_type: dict[str, frozenset[str]] = {}
        self._fwd_targets: dict[str, list[str]] = {}
        self._rev_sources: dict[str, list[str]] = {}
        self._with_trait: dict[str, frozenset[str]] = {}

    # ---- nodes
    def all_nodes(self) -> list[str]:
        """Every shape ID and member ID of the model (the starting shapes of a selector)."""
        if self._all is None:
            self._all = list(all_node_ids(self.model))
        return self._all

    def _member_ids(self) -> frozenset[str]:
        if self._members is None:
            self._members = self.model.knowledge(MemberIds).ids
        return self._members

    def exists(self, node: str) -> bool:
        return self.node_type(node) is not None

    def nodes_of_type(self, token: str) -> frozenset[str]:
        """Every node a type step (``string``, ``number``, ``member``... but not ``*``)
        matches, made once per token from the model's shapes by type
        (:class:`~smithy2cfn.model.shapes.ShapeLists`) and its member IDs
        (:class:`~smithy2cfn.model.knowledge.MemberIds`): a type step is then one set
        intersection instead of a type look-up per node."""
        found = self._by_type.get(token)
        if found is None:
            allowed = TYPE_TOKENS.get(token, frozenset())
            by_type = self.model.knowledge(ShapeLists).by_type
            ids = [shape.id for kind in allowed if kind != "member" for shape in by_type.get(kind, ())]
            found = frozenset(ids).union(self._member_ids()) if "member" in allowed else frozenset(ids)
            self._by_type[token] = found
        return found

    def nodes_with_trait(self, trait_id: str) -> frozenset[str]:
        """Every node (shape or member) that applies trait ``trait_id`` (an absolute shape
        ID) with a value other than JSON ``null``: what ``[trait|name]`` matches, made once per
        trait from the model's indexes of shapes and members by trait (in proportion to the
        nodes that apply it, not to the model)."""
        found = self._with_trait.get(trait_id)
        if found is None:
            shapes = self.model.knowledge(ShapeLists).by_trait.get(trait_id, ())
            members = self.model.knowledge(MemberTraitIndex).by_trait.get(trait_id, ())
            found = self._with_trait[trait_id] = frozenset(
                [s.id for s in shapes if s.traits[trait_id] is not None]
                + [m.id for _, m in members if m.traits[trait_id] is not None])
        return found

    def node_type(self, node: str) -> str | None:
        """The type of a node (``member`` for a member), ``None`` for an ID the model lacks."""
        shape = self.model.shapes.get(node)
        if shape is not None:
            return shape.type
        return "member" if "$" in node and node in self._member_ids() else None

    def traits(self, node: str) -> dict[str, Any]:
        found = self._traits.get(node)
        if found is None:
            obj = self.model.member(node) if "$" in node else self.model.shapes.get(node)
            found = obj.traits if obj is not None else {}
            self._traits[node] = found
        return found

    # ---- relationships (§"Relationships"; reference ``NeighborSelector``)
    def forward(self, node: str) -> list[tuple[str, str]]:
        """``(selector label, neighbor ID)`` for every relationship ``>`` follows from
        ``node``: the valid directed relationships of
        :func:`~smithy2cfn.model.relationships.relationships` (all but member → container);
        ``""`` labels the member → target edge."""
        cached = self._fwd.get(node)
        if cached is None:
            cached = [(rel.type.label or "", rel.neighbor) for rel in self._neighbors.neighbors(node)
                      if rel.is_valid and rel.type.directed]
            self._fwd[node] = cached
        return cached

    def _targets(self, node: str) -> list[str]:
        """The neighbors ``>`` yields from ``node`` (of :meth:`forward`), listed once."""
        found = self._fwd_targets.get(node)
        if found is None:
            found = self._fwd_targets[node] = [t for _, t in self.forward(node)]
        return found

    def _sources(self, node: str) -> list[str]:
        """The shapes ``<`` yields from ``node`` (of :meth:`reverse`), listed once."""
        found = self._rev_sources.get(node)
        if found is None:
            found = self._rev_sources[node] = [s for _, s in self.reverse(node)]
        return found

    def trait_edges(self, node: str) -> list[str]:
        return [t for t in self.traits(node) if t in self.model.shapes]

    def reverse(self, node: str) -> list[tuple[str, str]]:
        """``(selector label, source ID)`` for every relationship ``<`` follows back to
        ``node`` (no trait edges)."""
        return [(rel.type.label or "", rel.shape) for rel in self._neighbors.reverse(node) if rel.type.directed]

    def _synthetic(self, node: str, rels: tuple[str, ...], forward: bool) -> list[str]:
        """The deprecated relationships the reference's selector still accepts (reference
        ``NeighborSelector.BoundRelationship`` / ``InstanceOperationRelationship``), from a
        resource: ``bound`` (either direction) yields the resources and services that bind it
        with ``resources``; ``instanceOperation`` yields, forward, the operations it binds
        through ``operation``, ``put``, ``read``, ``update`` or ``delete`` (backward, the
        bindings of that kind pointing at a resource: never any)."""
        if self.node_type(node) != "resource":
            return []
        out: list[str] = []
        if "bound" in rels:
            out.extend(rel.shape for rel in self._neighbors.reverse(node) if rel.type is RelationshipType.RESOURCE)
        if "instanceOperation" in rels:
            if forward:
                out.extend(rel.neighbor for rel in self._neighbors.neighbors(node)
                           if rel.is_valid and rel.type.is_instance_operation_binding)
            else:
                out.extend(rel.shape for rel in self._neighbors.reverse(node)
                           if rel.type.is_instance_operation_binding)
        return out

    def _directed(self, node: str, rels: tuple[str, ...]) -> list[str]:
        out = [n for r, n in self.forward(node) if r and r in rels]
        if "trait" in rels:
            out.extend(self.trait_edges(node))
        if "bound" in rels or "instanceOperation" in rels:
            out.extend(self._synthetic(node, rels, True))
        return out

    def _reverse_directed(self, node: str, rels: tuple[str, ...]) -> list[str]:
        out = [n for r, n in self.reverse(node) if r and r in rels]
        if "trait" in rels and node in self.model.shapes:
            # shapes applying this trait (rare; linear scan)
            out.extend(n for n in self.all_nodes() if node in self.traits(n))
        if "bound" in rels or "instanceOperation" in rels:
            out.extend(self._synthetic(node, rels, False))
        return out

    def closure(self, nodes: Iterable[str]) -> set[str]:
        """What ``~>`` yields for ``nodes`` (reference ``RecursiveNeighborSelector``): for
        each start, every shape its :meth:`forward` edges reach, the start itself excluded
        even when a cycle leads back to it; the union over the starts.

        One pass for any number of starts (a walk per start, as the reference does, costs
        starts × reach): every node keeps up to two of the starts that reach it, and a node
        is yielded when one of them is not itself. (A node reached from two or more starts
        always keeps two: along any path, each node holds the path's start or two starts.)

        From one shape (not a member) it is the shape's walk (:meth:`NeighborIndex.walk`,
        shared with the service-closure checks) without the shape: a walk also follows the
        member → container edges, which ``~>`` does not, but from a shape every member is
        reached from its container, so they reach nothing more.
        """
        if isinstance(nodes, (set, frozenset, list, tuple)) and len(nodes) == 1:
            (start,) = nodes
            if "$" not in start:
                found = set(self._neighbors.walk(start))
                found.discard(start)
                return found
        origins: dict[str, list[str]] = {}
        queue: collections.deque[tuple[str, str]] = collections.deque()

        def reach(target: str, origin: str) -> None:
            held = origins.setdefault(target, [])
            if len(held) < 2 and origin not in held:
                held.append(origin)
                queue.append((target, origin))

        for start in nodes:
            for _, target in self.forward(start):
                reach(target, start)
        while queue:
            node, origin = queue.popleft()
            for _, target in self.forward(node):
                reach(target, origin)
        return {n for n, held in origins.items() if held[0] != n or len(held) > 1}

    # ---- attributes (§"Attributes")
    def _prop(self, value: Any, seg: str, variables: dict[str, set[str]]) -> Any:
        if value is _EMPTY:
            return _EMPTY
        if isinstance(value, _Proj):
            if seg == "(first)":
                flat = value.flat()
                return flat[0] if flat else _EMPTY
            return _Proj(self._prop(v, seg, variables) for v in value.flat())
        if isinstance(value, _ShapeAttr):
            if seg == "id":
                return _IdAttr(value.node)
            if seg == "trait":
                return _TraitsAttr(value.node)
            if seg == "service":
                return _ServiceAttr(value.node) if self.node_type(value.node) == "service" else _EMPTY
            if seg == "var":
                return _VarAttr(variables)
            return _EMPTY
        if isinstance(value, _IdAttr):
            sid = value.shape_id
            if seg == "namespace":
                return ShapeId.namespace(sid)
            if seg == "name":
                return ShapeId.name(sid)
            if seg == "member":
                mem = ShapeId.member(sid)
                return mem if mem is not None else _EMPTY
            if seg == "(length)":
                return len(sid)
            return _EMPTY
        if isinstance(value, _TraitsAttr):
            traits = self.traits(value.node)
            if seg == "(keys)":
                return _Proj(_IdAttr(k) for k in traits)
            if seg == "(values)":
                return _Proj(traits.values())
            tid = ShapeId.absolute(seg, PRELUDE_NAMESPACE)
            return traits[tid] if tid in traits else _EMPTY
        if isinstance(value, _ServiceAttr):
            if seg == "id":
                return _IdAttr(value.node)
            if seg == "version":
                shape = self.model.shapes.get(value.node)
                return shape.version if shape and shape.version is not None else _EMPTY
            return _EMPTY
        if isinstance(value, _VarAttr):
            if seg in value.variables:
                return _Proj(_ShapeAttr(n) for n in value.variables[seg])
            return _EMPTY
        # node values (JSON)
        if isinstance(value, dict):
            if seg == "(keys)":
                return _Proj(value.keys())
            if seg == "(values)":
                return _Proj(value.values())
            if seg == "(length)":
                return len(value)
            return value[seg] if seg in value else _EMPTY
        if isinstance(value, list):
            if seg == "(values)":
                return _Proj(value)
            if seg == "(length)":
                return len(value)
            return _EMPTY
        if isinstance(value, str) and seg == "(length)":
            return len(value)
        return _EMPTY

    def attribute(self, node: str, path: tuple[str, ...], variables: dict[str, set[str]],
                  scope: Any = None) -> Any:
        value: Any = _ShapeAttr(node) if scope is None else scope
        for seg in path:
            value = self._prop(value, seg, variables)
        return value

    @staticmethod
    def _compare_one(lhs: str, op: str, rhs: str, ci: bool) -> bool:
        if op in _NUMERIC_OPS:
            if not (_NUMBER.match(lhs) and _NUMBER.match(rhs)):
                return False
            a, b = float(lhs), float(rhs)
            return {">": a > b, ">=": a >= b, "<": a < b, "<=": a <= b}[op]
        if ci:
            lhs, rhs = lhs.lower(), rhs.lower()
        if op == "=":
            return lhs == rhs
        if op == "!=":
            return lhs != rhs
        if op == "^=":
            return lhs.startswith(rhs)
        if op == "$=":
            return lhs.endswith(rhs)
        if op == "*=":
            return rhs in lhs
        return False

    def compare(self, lhs: Any, op: str, rhs: list[Any], ci: bool) -> bool:
        """Apply comparator ``op`` (§"Attribute comparison") between ``lhs`` and the ``rhs`` values."""
        if op in _PROJECTION_OPS:
            if not isinstance(lhs, _Proj) or not any(isinstance(r, _Proj) for r in rhs):
                return op == "{!=}"
            left = {s for s in (_to_str(v) for v in lhs.flat()) if s is not None}
            right: set[str] = set()
            for r in rhs:
                if isinstance(r, _Proj):
                    right |= {s for s in (_to_str(v) for v in r.flat()) if s is not None}
            if ci:
                left, right = {s.lower() for s in left}, {s.lower() for s in right}
            if op == "{=}":
                return left == right
            if op == "{!=}":
                return left != right
            if op == "{<}":
                return left <= right
            return left < right
        if op == "?=":
            want = {(_to_str(r) or "").lower() for r in _flatten(rhs)}
            present = _exists(lhs)
            return ("true" in want and present) or ("false" in want and not present)
        lefts = lhs.flat() if isinstance(lhs, _Proj) else [lhs]
        rights = [s for s in (_to_str(r) for r in _flatten(rhs)) if s is not None]
        for left in lefts:
            ls = _to_str(left)
            if ls is None:
                continue
            if op == "!=":
                if rights and all(self._compare_one(ls, op, r, ci) for r in rights):
                    return True
            elif any(self._compare_one(ls, op, r, ci) for r in rights):
                return True
        return False

    # ---- evaluation
    def select(self, sel: Selector) -> frozenset[str]:
        """Every node the selector yields when each shape and member of the model is sent
        through it (cached per selector)."""
        cached = self._select_cache.get(sel)
        if cached is not None:
            return cached
        members = self._typed_members(sel)
        if members is not None:
            self._select_cache[sel] = members
            return members
        if _uses_variables(sel):
            out: set[str] = set()
            for n in self.all_nodes():
                out |= self.run(sel, {n}, {})
        else:
            out = self.run(sel, set(self.all_nodes()), {})
        result = frozenset(out)
        self._select_cache[sel] = result
        return result

    def matches(self, sel: Selector, node: str) -> bool:
        """True when ``node`` is yielded by ``sel`` for the whole model (trait target check).

        A selector that only filters (:func:`_only_filters`) yields a shape exactly when
        the shape passes it on its own, so it is run on ``node`` alone: the cost follows
        the traits applied, not the model's size times the selectors (issue 10). Any other
        selector is evaluated over the whole model once (:meth:`select`)."""
        entry = self._plan(sel)
        if entry.selected is not None:  # (evaluated over the whole model already)
            return node in entry.selected
        if entry.filters_only:
            return node in self.run(sel, {node}, {})
        if entry.moves is not None:
            starts = self._origins(node, entry.moves)
            if starts is not None:
                # Such a selector yields, for a set of shapes, the union of what it yields for
                # each: what one shape yields is kept, so that a structure's members, say,
                # are listed once and not once per member (issue 10: linear in the model).
                yields = entry.yields
                for start in starts:
                    found = yields.get(start)
                    if found is None:
                        found = yields[start] = frozenset(self.run(sel, {start}, {}))
                    if node in found:
                        return True
                return False
        entry.selected = self.select(sel)
        return node in entry.selected

    def matching(self, sel: Selector, nodes: Iterable[str]) -> set[str]:
        """The nodes of ``nodes`` that ``sel`` yields for the whole model: ``{n for n in nodes
        if self.matches(sel, n)}``, computed set at a time.

        A selector without variables that only filters, or only filters and moves to
        neighbors (:meth:`matches`), yields for a set of shapes the union of what it yields
        for each: so it is run once over all of ``nodes`` (a filter), or over all the shapes
        its moves can come from (walked back from ``nodes`` together), rather than once per
        node. The cost follows the nodes asked about and their neighbors, with Python's set
        operations doing most of it (issue 15). Any other selector is asked per node."""
        nodes = set(nodes)
        entry = self._plan(sel)
        if entry.selected is not None:
            return nodes & entry.selected
        if not nodes or _uses_variables(sel):
            return {n for n in nodes if self.matches(sel, n)}
        if entry.filters_only:
            return nodes & self.run(sel, nodes, {})
        if entry.moves is not None:
            if _member_container_types(sel) is not None:  # (T > member: see _typed_members)
                entry.selected = self.select(sel)
                return nodes & entry.selected
            if entry.typed_members is not None:
                # `T > member F`, F filters only: the members asked about that `T > member`
                # yields (from the shapes' members, once), then F run on them alone, rather than
                # F run on every member of their containers (`@default`'s selector, asked about
                # quicksight's 337 defaults, looked at 2,300 members)
                head, rest = entry.typed_members
                candidates = nodes & self.select(head)
                return self.run(rest, candidates, {}) if candidates else candidates
            starts = self._walk_back(nodes, entry.moves, None)
            return nodes & self.run(sel, starts, {}) if starts else set()
        if entry.alternatives:
            # `:is(A, B) rest` yields what `A rest` and `B rest` yield (every step is
            # distributive without variables): each alternative is asked on its own, so that
            # `:is(simpleType, structure > member ...)` is not evaluated over the whole model
            found: set[str] = set()
            for alternative in entry.alternatives:
                found |= self.matching(alternative, nodes)
            return found
        return {n for n in nodes if self.matches(sel, n)}

    def _typed_members(self, sel: Selector) -> frozenset[str] | None:
        """What ``sel`` yields over the whole model when it is ``T > member`` with ``T`` a type
        step, or ``:is`` of type steps, whose shapes' ``>`` relationships are their members
        and mixins only (:func:`_member_container_types`), made from those shapes' members
        (and their mixins that are members) without their relationships, else ``None``.

        What :meth:`select` would find step by step, in one walk over the shapes of those
        types: ``structure > member`` (``@required``...) and ``:is(enum, intEnum) > member``
        (``@enumValue``) are asked about every member applying such a trait (SageMaker:
        5,400 of them), which walking back from each cost 9 ms."""
        kinds = _member_container_types(sel)
        if kinds is None:
            return None
        by_type = self.model.knowledge(ShapeLists).by_type
        found: list[str] = []
        for kind in kinds:
            # (the relationships of a shape of these types: its mixins, then its members, a map's
            # key and value only: smithy2cfn.model.relationships._shape_relationships; in any
            # order. A mixin that is a member the model has passes `member` below)
            shapes = by_type.get(kind, ())
            found += [mixin for shape in shapes if shape.mixins for mixin in shape.mixins if "$" in mixin]
            if kind == "map":
                found += [member.id for shape in shapes for name, member in shape.members.items()
                          if name == "key" or name == "value"]
            else:
                found += [member.id for shape in shapes for member in shape.members.values()]
        return self._member_ids().intersection(found)

    def _plan(self, sel: Selector) -> _Plan:
        # What is known of the selector, found by identity: a selector is a tuple of steps
        # that hashes all its steps, nested ones included, at every look-up (most of
        # :meth:`matches`'s time on the traits of a large model). An equal selector that is
        # another object only gets an entry of its own.
        entry = self._plans.get(id(sel))
        if entry is None or entry.selector is not sel:
            entry = self._plans[id(sel)] = _Plan(sel, _only_filters(sel), _neighbor_moves(sel),
                                                 self._select_cache.get(sel))
        return entry

    def _origins(self, node: str, moves: list[NeighborStep]) -> set[str] | None:
        """The shapes from which ``moves`` (a selector's neighbor steps, in order) can lead
        to ``node``: walked back from ``node``, last step first (a superset is fine: the
        selector is then run from them). ``None`` when they are more than
        :data:`_MAX_ORIGINS` (then evaluating the selector over the whole model once is
        cheaper)."""
        return self._walk_back({node}, moves, _MAX_ORIGINS)

    def _walk_back(self, frontier: set[str], moves: list[NeighborStep], limit: int | None) -> set[str] | None:
        """The shapes from which ``moves`` can lead to a shape of ``frontier`` (see
        :meth:`_origins`); ``None`` when they are more than ``limit`` (no limit: ``None``)."""
        for step in reversed(moves):
            back: set[str] = set()
            for n in frontier:
                if step.kind == ">":
                    back.update(self._sources(n))
                elif step.kind == "<":
                    back.update(self._targets(n))
                elif step.kind == "fwd":
                    back.update(self._reverse_directed(n, step.rels))
                else:
                    back.update(self._directed(n, step.rels))
            if limit is not None and len(back) > limit:
                return None
            frontier = back
        return frontier

    def yields_any(self, sel: Selector, node: str, variables: dict[str, set[str]]) -> bool:
        """True when sending ``node`` through ``sel`` yields at least one shape."""
        return bool(self.run(sel, {node}, variables))

    def run(self, sel: Selector, nodes: set[str], variables: dict[str, set[str]]) -> set[str]:
        """Send ``nodes`` through the steps of ``sel``; returns what the last step yields."""
        current = nodes
        for step in sel:
            if not current:
                return current
            current = self.step(step, current, variables)
        return current

    def step(self, step: Any, nodes: set[str], variables: dict[str, set[str]]) -> set[str]:
        if isinstance(step, TypeStep):
            if step.name == "*":
                return nodes
            return (nodes if isinstance(nodes, set) else set(nodes)) & self.nodes_of_type(step.name)
        if isinstance(step, AttrStep):
            trait = _trait_presence(step)
            if trait is not None:
                return (nodes if isinstance(nodes, set) else set(nodes)) & self.nodes_with_trait(trait)
            return {n for n in nodes if self._attr_matches(step, n, variables)}
        if isinstance(step, ScopedAttrStep):
            return {n for n in nodes if self._scoped_matches(step, n, variables)}
        if isinstance(step, NeighborStep):
            out: set[str] = set()
            if step.kind == ">":
                for n in nodes:
                    out.update(self._targets(n))
            elif step.kind == "<":
                for n in nodes:
                    out.update(self._sources(n))
            elif step.kind == "~>":
                out = self.closure(nodes)
            elif step.kind == "fwd":
                for n in nodes:
                    out.update(self._directed(n, step.rels))
            else:
                for n in nodes:
                    out.update(self._reverse_directed(n, step.rels))
            return out
        if isinstance(step, FunctionStep):
            return self._function(step, nodes, variables)
        if isinstance(step, VarSetStep):
            for n in nodes:
                variables[step.name] = self.run(step.selector, {n}, variables)
            return nodes
        if isinstance(step, VarGetStep):
            return set(variables.get(step.name, set()))
        return set()

    def _attr_matches(self, step: AttrStep, node: str, variables: dict[str, set[str]]) -> bool:
        value = self.attribute(node, step.path, variables)
        if step.op is None:
            return _exists(value)
        return self.compare(value, step.op, list(step.values), step.ci)

    def _scoped_matches(self, step: ScopedAttrStep, node: str, variables: dict[str, set[str]]) -> bool:
        scope = self.attribute(node, step.path, variables) if step.path else _ShapeAttr(node)
        if not _exists(scope):
            return False
        scopes = scope.flat() if isinstance(scope, _Proj) else [scope]
        for ctx in scopes:
            ok = True
            for a in step.assertions:
                lhs = self._scoped_value(a.lhs, ctx, variables)
                rhs = [self._scoped_value(r, ctx, variables) for r in a.rhs]
                if not self.compare(lhs, a.op, rhs, a.ci):
                    ok = False
                    break
            if ok:
                return True
        return False

    def _scoped_value(self, v: tuple[str, Any], ctx: Any, variables: dict[str, set[str]]) -> Any:
        kind, payload = v
        if kind == "lit":
            return payload
        value = ctx
        for seg in payload:
            value = self._prop(value, seg, variables)
        return value

    def _passing(self, sel: Selector, nodes: set[str], variables: dict[str, set[str]]) -> set[str]:
        """The nodes of ``nodes`` from which ``sel`` yields at least one shape (what ``:test``
        and ``:not`` keep), computed set-at-a-time (:meth:`_passing_from`). A selector that
        uses variables runs from each node alone."""
        if _uses_variables(sel):
            return {n for n in nodes if self.yields_any(sel, n, variables)}
        return self._passing_from(sel, 0, nodes, variables)

    def _neighbors_of(self, step: NeighborStep, node: str) -> list[str]:
        """What neighbor step ``step`` (not ``~>``) yields from ``node`` alone."""
        if step.kind == ">":
            return self._targets(node)
        if step.kind == "<":
            return self._sources(node)
        if step.kind == "fwd":
            return self._directed(node, step.rels)
        return self._reverse_directed(node, step.rels)

    def _passing_from(self, sel: Selector, i: int, nodes: set[str], variables: dict[str, set[str]]) -> set[str]:
        """The nodes of ``nodes`` from which the steps ``sel[i:]`` (no variables) yield at
        least one shape.

        Without variables every step is distributive (what it yields for a set is the union
        of what it yields for each node), so: leading filter steps (:func:`_is_filter`) run
        once over all the nodes; a neighbor step (``>``, ``<``, ``-[..]->``, ``<-[..]-``)
        keeps the nodes with a neighbor among those the remaining steps pass, found by one
        recursive call over all the neighbors; anything else (``~>``, ``:recursive``...)
        runs from each node alone. The cost is then in proportion to the nodes and edges
        visited, not to nodes × selector runs.
        """
        current = nodes
        while i < len(sel) and current and _is_filter(sel[i]):
            current = self.step(sel[i], current, variables)
            i += 1
        if i == len(sel) or not current:
            return set(current)
        step = sel[i]
        if isinstance(step, NeighborStep) and step.kind != "~>":
            edges = {n: self._neighbors_of(step, n) for n in current}
            targets: set[str] = set()
            for found in edges.values():
                targets.update(found)
            good = self._passing_from(sel, i + 1, targets, variables) if targets else set()
            if not good:
                return set()
            return {n for n, found in edges.items() if not good.isdisjoint(found)}
        rest = sel[i:]
        return {n for n in current if self.run(rest, {n}, variables)}

    def _function(self, step: FunctionStep, nodes: set[str], variables: dict[str, set[str]]) -> set[str]:
        name, args = step.name, step.args
        if name == "test":
            out: set[str] = set()
            remaining = set(nodes)
            for a in args:
                if not remaining:
                    break
                passed = self._passing(a, remaining, variables)
                out |= passed
                remaining -= passed
            return out
        if name in ("is", "each"):
            out = set()
            for a in args:
                out |= self.run(a, set(nodes), variables)
            return out
        if name == "not":
            return set(nodes) - self._passing(args[0], set(nodes), variables)
        if name == "in":
            return {n for n in nodes if n in self.run(args[0], {n}, variables)}
        if name == "root":
            return set(self.select(args[0]))
        if name == "recursive":
            out = set()
            frontier = set(nodes)
            while frontier:
                found = self.run(args[0], frontier, variables) - out
                out |= found
                frontier = found
            return out
        if name == "topdown":
            qualifier = args[0]
            disqualifier = args[1] if len(args) > 1 else None
            out = set()
            memo: dict[tuple[int, str], bool] = {}
            for n in nodes:
                self._topdown(n, qualifier, disqualifier, variables, out, memo)
            return out
        return set()  # unknown functions yield nothing (§"Functions")

    def _topdown(self, start: str, qualifier: Selector, disqualifier: Selector | None,
                 variables: dict[str, set[str]], out: set[str], memo: dict[tuple[int, str], bool]) -> None:
        """``:topdown`` from one shape (§"topdown function"), walked with an explicit stack
        (a resource hierarchy can be thousands of levels deep). ``memo`` keeps what the
        (variable-free) qualifier and disqualifier yield per shape across starting shapes."""
        visited: set[str] = set()
        stack: list[tuple[str, bool]] = [(start, False)]
        cacheable = not _uses_variables(qualifier) and not (disqualifier and _uses_variables(disqualifier))

        def test(which: int, sel: Selector, node: str) -> bool:
            if not cacheable:
                return self.yields_any(sel, node, variables)
            key = (which, node)
            if key not in memo:
                memo[key] = self.yields_any(sel, node, variables)
            return memo[key]

        while stack:
            node, qualified = stack.pop()
            if node in visited or self.node_type(node) not in ("service", "resource", "operation"):
                continue
            visited.add(node)
            if not qualified and test(0, qualifier, node):
                qualified = True
            if qualified and disqualifier is not None and test(1, disqualifier, node):
                qualified = False
            if qualified:
                out.add(node)
            # The reference follows `operation` and `resource` relationships only (selectors.rst
            # §"topdown"): not lifecycle or collection operations.
            children = [rel.neighbor for rel in self._neighbors.neighbors(node)
                        if rel.is_valid and rel.neighbor != node
                        and rel.type in (RelationshipType.OPERATION, RelationshipType.RESOURCE)]
            stack.extend((t, qualified) for t in reversed(children))


#: Functions that yield a subset of their input, each shape tested on its own.
_FILTER_FUNCTIONS = frozenset({"test", "not"})


def _only_filters(sel: Selector) -> bool:
    """True when every step of ``sel`` keeps or drops each shape on its own, never yields
    another shape: type and attribute steps, ``:test`` and ``:not``, and ``:is`` /
    ``:each`` whose alternatives only filter (selectors.rst §"Functions")."""
    for step in sel:
        if isinstance(step, (TypeStep, AttrStep, ScopedAttrStep)):
            continue
        if isinstance(step, FunctionStep) and (
                step.name in _FILTER_FUNCTIONS
                or (step.name in ("is", "each") and all(_only_filters(a) for a in step.args))):
            continue
        return False
    return True


#: The most starting shapes :meth:`SelectorEngine.matches` sends through a moving selector
#: before it evaluates the selector over the whole model instead.
_MAX_ORIGINS = 256


#: The shape types whose ``>`` relationships lead to their members and their mixins only
#: (:func:`smithy2cfn.model.relationships.relationships`: those of its members-only types, and
#: maps, whose members are their key and value).
_MEMBER_CONTAINERS = MEMBERS_ONLY_TYPES | {"map"}


@_by_identity
def _member_container_types(sel: Selector) -> frozenset[str] | None:
    """The shape types ``T`` stands for when ``sel`` is ``T > member`` and ``T`` is a type
    step, or ``:is`` of type steps, of :data:`_MEMBER_CONTAINERS` only; ``None`` otherwise
    (see :meth:`SelectorEngine._typed_members`)."""
    if len(sel) != 3:
        return None
    first, move, last = sel
    if not (isinstance(move, NeighborStep) and move.kind == ">" and not move.rels
            and isinstance(last, TypeStep) and last.name == "member"):
        return None
    if isinstance(first, TypeStep):
        names = [first.name]
    elif isinstance(first, FunctionStep) and first.name == "is" and first.args and all(
            len(arg) == 1 and isinstance(arg[0], TypeStep) for arg in first.args):
        names = [arg[0].name for arg in first.args]
    else:
        return None
    if any(name not in TYPE_TOKENS for name in names):  # ("*")
        return None
    kinds = frozenset().union(*(TYPE_TOKENS[name] for name in names))
    return kinds if kinds <= _MEMBER_CONTAINERS else None


def _typed_members_then_filters(sel: Selector) -> tuple[Selector, Selector] | None:
    """``(T > member, F)`` when ``sel`` is ``T > member`` (:func:`_member_container_types`)
    followed by steps ``F`` that only filter (:func:`_only_filters`) and use no variables:
    ``sel`` then yields, of what ``T > member`` yields, the members that pass ``F`` alone;
    ``None`` otherwise."""
    if len(sel) <= 3 or _member_container_types(sel[:3]) is None:
        return None
    rest = sel[3:]
    return (sel[:3], rest) if _only_filters(rest) and not _uses_variables(rest) else None


def _neighbor_moves(sel: Selector) -> list[NeighborStep] | None:
    """The neighbor steps of a selector made of filtering steps (:func:`_only_filters`) and
    single neighbor steps (``>``, ``<``, ``-[rels]->``, ``<-[rels]-`` over plain
    relationships), in order; ``None`` for any other selector (``~>``, ``:is`` of moving
    selectors, ``:root``, ``:in``, variables, the ``trait``, ``bound`` and
    ``instanceOperation`` relationships): such a selector yields a shape exactly when some
    shape a few steps back yields it, each starting shape on its own."""
    moves: list[NeighborStep] = []
    for step in sel:
        if isinstance(step, NeighborStep):
            if step.kind == "~>" or {"trait", "bound", "instanceOperation"} & set(step.rels):
                return None
            moves.append(step)
        elif not _only_filters((step,)):
            return None
    return moves


def _alternatives(sel: Selector) -> tuple[Selector, ...] | None:
    """For a selector that starts with ``:is(A, B...)`` (or ``:each``), the selectors ``A``
    then the rest of ``sel``, ``B`` then the rest...; ``None`` for any other selector."""
    if not sel or not isinstance(sel[0], FunctionStep) or sel[0].name not in ("is", "each") or not sel[0].args:
        return None
    rest = tuple(sel[1:])
    return tuple(tuple(arg) + rest for arg in sel[0].args)


def _flatten(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    for v in values:
        out.extend(v.flat() if isinstance(v, _Proj) else [v])
    return out


__all__ = ["MAX_SELECTOR_NESTING", "SelectorEngine", "SelectorError", "SelectorTooDeep", "parse_selector",
           "TYPE_TOKENS"]
