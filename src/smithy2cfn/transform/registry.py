"""How a transform is declared, and the arguments' checking, generic over the declarations.

Each built-in transform (:mod:`smithy2cfn.transform.builtins`) is one function marked
``@transform(name, reference=..., args=(Arg(...), ...))``: its name in a
``smithy-build.json``, the reference class it follows (smithy-build
``software.amazon.smithy.build.transforms.<Class>``), and its arguments with the reference
``Config`` class's names, types and defaults. :data:`TRANSFORMS` is the registry made from
those declarations; :func:`check_args` reads a transform's ``args`` object against them.

Argument types (:class:`ArgType`) follow what the reference's ``NodeMapper`` accepts for the
``Config`` setter: a ``Set<String>``/``List<String>`` is a JSON array of strings, a ``String``
a string, a ``boolean`` a boolean, a ``ShapeId`` an absolute shape ID, a ``Selector`` a
selector's text, a ``Map`` a JSON object. As in the reference, an argument written as JSON
``null`` is as if absent, and a transform whose reference class extends
``BackwardCompatHelper`` also takes the old form ``"args": ["a", "b"]`` (a list of strings
standing for its one list argument, :attr:`Transform.compat`).

Codes (``S52xx``, configuration errors: the reference has no event IDs for them, it throws
``SmithyBuildException`` or logs):

* ``S5202`` an argument of the wrong type or value (error);
* ``S5203`` a required argument missing (error);
* ``S5204`` an unknown argument (warning: the reference's ``NodeMapper`` warns and ignores it,
  ``NodeMapper.WhenMissing.WARN``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from smithy2cfn.diagnostics import Code, Diagnostic, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.model.nodes import node_kind
from smithy2cfn.model.shapes import ALL_TYPES, Model
from smithy2cfn.records import Record
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CODES = declare_codes(
    Code("S5202", Severity.ERROR, None, "a projection transform's argument has the wrong type or value", usage=True),
    Code("S5203", Severity.ERROR, None, "a projection transform's required argument is missing", usage=True),
    Code("S5204", Severity.WARNING, None, "a projection transform's argument is unknown and ignored", usage=True),
)

#: An absolute shape ID (Smithy 2.0 §"Shape ID" ABNF), member allowed.
_SHAPE_ID = lazy(r"(?:_*[A-Za-z][A-Za-z0-9_]*)(?:\.(?:_*[A-Za-z][A-Za-z0-9_]*))*"
                 r"#_*[A-Za-z][A-Za-z0-9_]*(?:\$_*[A-Za-z][A-Za-z0-9_]*)?")
#: A relative or absolute trait ID (``documentation``, ``smithy.api#documentation``), or a
#: namespace followed by ``#`` (``smithy.api#``: every trait of it), as ``TraitRemovalUtils``.
_TRAIT_REF = lazy(r"(?:(?:_*[A-Za-z][A-Za-z0-9_]*)(?:\.(?:_*[A-Za-z][A-Za-z0-9_]*))*#)?(?:_*[A-Za-z][A-Za-z0-9_]*)?")


def is_shape_id(text: object) -> bool:
    """True for an absolute shape ID (``ns.a#Name`` or ``ns.a#Name$member``)."""
    return isinstance(text, str) and _SHAPE_ID.fullmatch(text) is not None


class ArgType(Record, frozen=True):
    """An argument's type: how it is written (``label``, shown in hints) and a function that
    turns the JSON value into what the transform reads, or says what is wrong with it.

    Attributes:
        label: the type as the reference's ``Config`` declares it (``Set<String>``...).
        convert: ``value → (converted, None)`` or ``(None, problem)``.
    """

    label: str
    convert: Callable[[Any], tuple[Any, str | None]]

    def __init__(self, label: str, convert: Callable[[Any], tuple[Any, str | None]]) -> None:
        self.__dict__.update(label=label, convert=convert)


def _kind(value: Any) -> str:
    """A JSON value's kind with its article, for messages (``"an array"``, ``"null"``):
    :func:`smithy2cfn.model.nodes.node_kind`."""
    kind = node_kind(value)
    return kind if kind == "null" else article(kind)


def _strings(value: Any) -> tuple[Any, str | None]:
    if not isinstance(value, list):
        return None, f"must be an array of strings, found {_kind(value)}"
    bad = next((v for v in value if not isinstance(v, str)), _MISSING)
    if bad is not _MISSING:
        return None, f"must be an array of strings, found an element that is {_kind(bad)}"
    return tuple(dict.fromkeys(value)), None


def _shape_ids(value: Any) -> tuple[Any, str | None]:
    found, problem = _strings(value)
    if problem:
        return None, problem.replace("strings", "absolute shape IDs")
    bad = [v for v in found if not is_shape_id(v)]
    if bad:
        return None, f"must hold absolute shape IDs (namespace#Name), found '{bad[0]}'"
    return found, None


def _trait_refs(value: Any) -> tuple[Any, str | None]:
    found, problem = _strings(value)
    if problem:
        return None, problem
    bad = [v for v in found if not v or _TRAIT_REF.fullmatch(v) is None]
    if bad:
        return None, f"must hold trait shape IDs or namespaces ending in '#', found '{bad[0]}'"
    return found, None


def _trait_ids(value: Any) -> tuple[Any, str | None]:
    found, problem = _trait_refs(value)
    if problem:
        return None, problem.replace(" or namespaces ending in '#'", "")
    bad = [v for v in found if v.endswith("#")]
    if bad:
        return None, f"must hold trait shape IDs, found '{bad[0]}'"
    return found, None


def _string(value: Any) -> tuple[Any, str | None]:
    return (value, None) if isinstance(value, str) else (None, f"must be a string, found {_kind(value)}")


def _boolean(value: Any) -> tuple[Any, str | None]:
    return (value, None) if isinstance(value, bool) else (None, f"must be a boolean, found {_kind(value)}")


def _shape_id(value: Any) -> tuple[Any, str | None]:
    if not isinstance(value, str):
        return None, f"must be an absolute shape ID string, found {_kind(value)}"
    return (value, None) if is_shape_id(value) and "$" not in value else \
        (None, f"must be an absolute shape ID (namespace#Name), found '{value}'")


def _selector(value: Any) -> tuple[Any, str | None]:
    if not isinstance(value, str):
        return None, f"must be a selector string, found {_kind(value)}"
    from smithy2cfn.languages.selector import SelectorError, parse_selector

    try:
        return parse_selector(value), None
    except SelectorError as problem:
        return None, f"is not a valid selector: {problem}"


def _string_map(value: Any) -> tuple[Any, str | None]:
    if not isinstance(value, dict):
        return None, f"must be an object of strings, found {_kind(value)}"
    bad = next((k for k, v in value.items() if not isinstance(v, str)), None)
    if bad is not None:
        return None, f"must map strings to strings; '{bad}' maps to {_kind(value[bad])}"
    return dict(value), None


def _shape_types(value: Any) -> tuple[Any, str | None]:
    if not isinstance(value, dict):
        return None, f"must be an object of shape IDs to shape types, found {_kind(value)}"
    for k, v in value.items():
        if not is_shape_id(k) or "$" in k:
            return None, f"keys must be absolute shape IDs (namespace#Name), found '{k}'"
        if not isinstance(v, str) or v not in ALL_TYPES:
            return None, f"'{k}' maps to {v!r}, which is not a shape type"
    return dict(value), None


_MISSING = object()

#: ``Set<String>`` / ``List<String>``.
STRINGS = ArgType("array of strings", _strings)
#: ``Set<ShapeId>``.
SHAPE_IDS = ArgType("array of absolute shape IDs", _shape_ids)
#: ``Set<String>`` of trait IDs or namespaces ending in ``#`` (``TraitRemovalUtils.parseTraits``).
TRAIT_REFS = ArgType("array of trait IDs (relative ones are in smithy.api) or namespaces ending in '#'", _trait_refs)
#: ``Set<String>`` of trait IDs, relative ones in ``smithy.api`` (``ShapeId.fromOptionalNamespace``).
TRAIT_IDS = ArgType("array of trait IDs (relative ones are in smithy.api)", _trait_ids)
#: ``String``.
STRING = ArgType("string", _string)
#: ``boolean``.
BOOLEAN = ArgType("boolean", _boolean)
#: ``ShapeId``.
SHAPE_ID = ArgType("absolute shape ID", _shape_id)
#: ``Selector``.
SELECTOR = ArgType("selector", _selector)
#: ``Map<String, String>``.
STRING_MAP = ArgType("object of strings", _string_map)
#: ``Map<ShapeId, ShapeType>``.
SHAPE_TYPES = ArgType("object of absolute shape IDs to shape types", _shape_types)


class Arg(Record, frozen=True):
    """One argument of a transform, as the reference's ``Config`` class declares it.

    Attributes:
        name: its name in ``args`` (the ``Config`` property: ``tags``, ``exportTagged``...).
        type: its :class:`ArgType`.
        default: its value when absent (already converted), unless ``required``.
        required: the reference fails without it.
    """

    name: str
    type: ArgType
    default: Any
    required: bool

    def __init__(self, name: str, type: ArgType, default: Any = None, required: bool = False) -> None:
        self.__dict__.update(name=name, type=type, default=default, required=required)


class TransformError(Exception):
    """A transform cannot be applied to this model with these arguments (the reference's
    ``SmithyBuildException`` thrown by a transform): :func:`smithy2cfn.transform.run` reports
    it as ``S5206`` at the transform, or at ``arg`` when given."""

    def __init__(self, message: str, hint: str | None = None, arg: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.arg = arg


#: The events that validating a projection's model suppressed: a list of diagnostics (as
#: :func:`smithy2cfn.validation.run_validators` records them with ``suppressed=``) or of
#: ``(event ID, shape ID or None)`` pairs, or a function making such a list (called only by a
#: transform that needs it).
Suppressed = (Sequence[Diagnostic | tuple[str, str | None]]
              | Callable[[], Sequence[Diagnostic | tuple[str, str | None]]] | None)


class Context(Record, eq=False):
    """What a transform function is given besides the model and its arguments.

    Attributes:
        original: the projection's model before any transform (reference
            ``TransformContext.getOriginalModel``).
        projection: the name of the projection running the transform, or ``None``.
        suppressed: the events that validating ``original`` suppressed (:data:`Suppressed`;
            reference ``TransformContext.getOriginalModelValidationEvents``, those of
            severity ``SUPPRESSED``), for ``filterSuppressions``'s ``removeUnused``;
            ``None``: not known.
    """

    original: Model
    projection: str | None
    suppressed: Suppressed

    def __init__(self, original: Model, projection: str | None = None, suppressed: Suppressed = None) -> None:
        self.original = original
        self.projection = projection
        self.suppressed = suppressed

    def suppressed_events(self) -> list[tuple[str, str | None]] | None:
        """:attr:`suppressed` as ``(event ID, shape ID or None)`` pairs (made once, calling it
        when it is a function; a diagnostic's event ID is its code's when it has none), or
        ``None``."""
        if self.suppressed is None:
            return None
        events = self.suppressed() if callable(self.suppressed) else self.suppressed
        pairs = [(e.event_id or e.code, e.shape_id) if isinstance(e, Diagnostic) else (e[0], e[1]) for e in events]
        self.suppressed = pairs
        return pairs


class Transform(Record, frozen=True):
    """A declared transform (see :func:`transform`).

    Attributes:
        name: its name in ``smithy-build.json``.
        reference: the reference class it follows (``ExcludeShapesByTag``).
        args: its arguments, in the ``Config`` class's order.
        compat: for a reference ``BackwardCompatHelper``: the argument an ``args`` list stands
            for (``getBackwardCompatibleNameMapping``), else ``None``.
        function: ``(model, args, context) → Model``; ``args`` maps every argument's name to
            its converted value or default. It never changes ``model``; it may raise
            :class:`TransformError`.
    """

    name: str
    reference: str
    args: tuple[Arg, ...]
    compat: str | None
    function: Callable[[Model, dict[str, Any], Context], Model]

    def __init__(self, name: str, reference: str, args: tuple[Arg, ...], compat: str | None,
                 function: Callable[[Model, dict[str, Any], Context], Model]) -> None:
        self.__dict__.update(name=name, reference=reference, args=args, compat=compat, function=function)


#: Every declared transform: name → :class:`Transform` (filled by :func:`transform`, as
#: :mod:`smithy2cfn.transform.builtins` is imported).
TRANSFORMS: dict[str, Transform] = {}


def transform(name: str, *, reference: str, args: tuple[Arg, ...] = (), compat: str | None = None
              ) -> Callable[[Callable[[Model, dict[str, Any], Context], Model]],
                            Callable[[Model, dict[str, Any], Context], Model]]:
    """Declare the decorated function as the transform ``name`` (see :class:`Transform`).

    Raises:
        ValueError: ``name`` is declared twice, or ``compat`` names no argument.
    """
    def mark(function: Callable[[Model, dict[str, Any], Context], Model]
             ) -> Callable[[Model, dict[str, Any], Context], Model]:
        if name in TRANSFORMS:
            raise ValueError(f"transform {name!r} is declared twice")
        if compat is not None and compat not in {a.name for a in args}:
            raise ValueError(f"transform {name!r}: compat argument {compat!r} is not declared")
        TRANSFORMS[name] = Transform(name, reference, args, compat, function)
        return function
    return mark


def check_args(declared: Transform, raw: Any, diags: Diagnostics, span: Span | None,
               arg_spans: dict[str, Span]) -> dict[str, Any] | None:
    """``raw`` (a transform's ``args`` as written) read against ``declared``'s arguments:
    name → converted value, every absent one at its default; ``None`` when an argument is in
    error (each problem reported to ``diags``, located at its key, else at ``span``).

    An ``args`` array is the old form of a ``BackwardCompatHelper`` transform (its
    :attr:`Transform.compat` argument); so is an object's ``__args`` member.
    """
    where = f"transform '{declared.name}'"
    if isinstance(raw, list) or (isinstance(raw, dict) and "__args" in raw and declared.compat):
        listed = raw if isinstance(raw, list) else raw["__args"]
        if declared.compat is None:
            diags.error("S5202", f"{where}: 'args' must be an object, found an array", span,
                        hint=f"write the arguments by name: {_known(declared)}")
            return None
        raw = {**({} if isinstance(raw, list) else {k: v for k, v in raw.items() if k != "__args"}),
               declared.compat: listed}
    elif raw is None:
        raw = {}
    elif not isinstance(raw, dict):
        diags.error("S5202", f"{where}: 'args' must be an object, found {_kind(raw)}", span,
                    hint=f"its arguments: {_known(declared)}")
        return None
    by_name = {a.name: a for a in declared.args}
    out: dict[str, Any] = {}
    wrong: set[str] = set()  # given, but of the wrong type: reported once, not as missing too
    ok = True
    for key, value in raw.items():
        arg = by_name.get(key)
        at = arg_spans.get(key, span)
        if arg is None:
            diags.warning("S5204", f"{where}: unknown argument '{key}' is ignored", at,
                          hint=f"its arguments: {_known(declared)}")
            continue
        if value is None:
            continue
        converted, problem = arg.type.convert(value)
        if problem is not None:
            diags.error("S5202", f"{where}: argument '{key}' {problem}", at,
                        hint=f"'{key}' is {article(arg.type.label)}")
            wrong.add(key)
            ok = False
            continue
        out[key] = converted
    for arg in declared.args:
        if arg.name in out or arg.name in wrong:
            continue
        if arg.required:
            diags.error("S5203", f"{where}: argument '{arg.name}' is required", span,
                        hint=f"add \"{arg.name}\" ({article(arg.type.label)}) to its 'args'")
            ok = False
        else:
            out[arg.name] = arg.default
    return out if ok else None


def article(label: str) -> str:
    """``label`` with its indefinite article (``an array of strings``)."""
    return ("an " if label[0] in "aeiou" else "a ") + label


def _known(declared: Transform) -> str:
    if not declared.args:
        return "none"
    return ", ".join(f"'{a.name}' ({a.type.label}{', required' if a.required else ''})" for a in declared.args)


__all__ = [
    "BOOLEAN", "SELECTOR", "SHAPE_ID", "SHAPE_IDS", "SHAPE_TYPES", "STRING", "STRINGS", "STRING_MAP",
    "TRAIT_IDS", "TRAIT_REFS", "TRANSFORMS", "Arg", "ArgType", "Context", "Suppressed", "Transform", "TransformError", "article", "check_args",
    "is_shape_id", "transform",
]
