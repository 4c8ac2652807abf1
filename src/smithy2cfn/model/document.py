"""The common input of the loader: one source file as a JSON-AST-shaped document.

Both front ends produce a :class:`SourceDocument`: the JSON AST reader (``model/json_ast.py``)
directly, the IDL front end (``parse/``) by lowering its syntax tree. The loader
(``load/loader.py``) then assembles all documents, the prelude and the trait packages into
one :class:`smithy2cfn.model.Model`.

``ast`` follows Smithy 2.0 "JSON AST" (``{"smithy": ..., "metadata": {...}, "shapes":
{absolute_id: {...}}}``) with every shape ID absolute, plus three IDL-only extensions:

* a member entry with ``"elided": true`` and no ``"target"`` is an elided member
  (``$name`` in the IDL), whose target comes from the ``for`` resource or the mixins;
* a shape entry may have ``"for": "ns#Resource"`` (target elision, IDL 2.0 §"for");
* a trait value :data:`ANNOTATION` is an annotation trait written without a value
  (``@foo`` or ``@foo()``); the loader turns it into ``{}``, ``[]`` or ``true`` from the
  trait's shape. ``None`` is an explicit ``null`` (e.g. ``@default(null)``).

``apply`` statements are kept apart in ``applies`` (several may target the same shape).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from smithy2cfn.diagnostics import DeferredSpans, Diagnostic, Span
from smithy2cfn.records import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class _Annotation:
    """The type of :data:`ANNOTATION` (a singleton)."""

    _instance: _Annotation | None = None

    def __new__(cls) -> _Annotation:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ANNOTATION"

    def __copy__(self) -> _Annotation:
        return self

    def __deepcopy__(self, memo: dict) -> _Annotation:
        return self

    def __reduce__(self) -> tuple:
        return (_Annotation, ())


#: The value of a trait applied without a value (IDL 2.0 §"Trait values": ``@foo``).
ANNOTATION = _Annotation()


class ApplyStatement(Record):
    """``apply Target @trait...`` (IDL 2.0 §"Apply statement", JSON AST ``"type": "apply"``).

    ``target`` is an absolute shape or member ID; ``traits`` maps absolute trait IDs to
    values (:data:`ANNOTATION` for annotation traits without a value). ``namespace`` is the
    namespace of the IDL file that states it (``None`` in a JSON AST, where the reference
    takes the target's own): an ``apply`` to a prelude shape from another namespace is an
    error (the reference's ``LoaderTraitMap``).
    """

    __slots__ = ("target", "traits", "span", "trait_spans", "namespace")
    target: str
    traits: dict[str, Any]
    span: Span | None
    trait_spans: dict[str, Span]
    namespace: str | None

    def __init__(self, target: str, traits: dict[str, Any], span: Span | None = None,
                 trait_spans: dict[str, Span] | None = None, namespace: str | None = None) -> None:
        self.target = target
        self.traits = traits
        self.span = span
        self.trait_spans = {} if trait_spans is None else trait_spans
        self.namespace = namespace


class SourceDocument(Record, hidden=("locate",)):
    """One loaded source file.

    Attributes:
        path: the file's path as given by the user (used in diagnostics).
        version: ``"1.0"`` or ``"2.0"`` (IDL ``$version`` / JSON AST ``smithy``; IDL files
            without ``$version`` are ``"1.0"``).
        ast: the JSON AST document with absolute shape IDs (see module docstring).
        applies: apply statements, in source order.
        spans: absolute shape or member ID → where it is defined. (A JSON AST document leaves
            out the members written as they should be, found by :meth:`span_of`.)
        trait_spans: shape or member ID → trait ID → where the trait is applied (one map per
            owner: a loader looks up an owner's traits together; a JSON AST document's maps
            are :class:`~smithy2cfn.diagnostics.DeferredSpans`, read-only; it leaves out
            those of the members :attr:`spans` leaves out, found by :meth:`trait_spans_of`).
        metadata_spans: metadata key → where the key is set.
        diagnostics: problems found while reading the file (syntax errors...).
        duplicate_shapes: ``(shape ID, shape entry, span)`` of shapes defined again in the
            same file (the loader merges equal definitions and reports conflicting ones).
        locate: a JSON AST document's locator (``locate(path)``, a
            :class:`~smithy2cfn.model.jsonread.JsonText`'s ``span``), from which
            :meth:`span_of` and :meth:`trait_spans_of` make the spans of the members that
            :attr:`spans` and :attr:`trait_spans` leave out; ``None`` for any other document.
            Not compared.
    """

    __slots__ = ("path", "version", "ast", "applies", "spans", "trait_spans", "metadata_spans",
                 "diagnostics", "duplicate_shapes", "locate")
    path: str
    version: str
    ast: dict[str, Any]
    applies: list[ApplyStatement]
    spans: dict[str, Span]
    trait_spans: dict[str, Mapping[str, Span]]
    metadata_spans: dict[str, Span]
    diagnostics: list[Diagnostic]
    duplicate_shapes: list[tuple[str, dict[str, Any], Span | None]]
    locate: Callable[[tuple[Any, ...]], Span] | None

    def __init__(self, path: str, version: str, ast: dict[str, Any],
                 applies: list[ApplyStatement] | None = None, spans: dict[str, Span] | None = None,
                 trait_spans: dict[str, Mapping[str, Span]] | None = None,
                 metadata_spans: dict[str, Span] | None = None, diagnostics: list[Diagnostic] | None = None,
                 duplicate_shapes: list[tuple[str, dict[str, Any], Span | None]] | None = None,
                 locate: Callable[[tuple[Any, ...]], Span] | None = None) -> None:
        self.path = path
        self.version = version
        self.ast = ast
        self.applies = [] if applies is None else applies
        self.spans = {} if spans is None else spans
        self.trait_spans = {} if trait_spans is None else trait_spans
        self.metadata_spans = {} if metadata_spans is None else metadata_spans
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.duplicate_shapes = [] if duplicate_shapes is None else duplicate_shapes
        self.locate = locate

    def _members_entry(self, member_id: str) -> tuple[str, str, Any] | None:
        """``(shape ID, member name, member entry)`` of a member of a shape's ``members``
        object in :attr:`ast`, for a document with a :attr:`locate` (else ``None``)."""
        if self.locate is None or "$" not in member_id:
            return None
        shape_id, _, name = member_id.partition("$")
        body = self.ast["shapes"].get(shape_id)
        members = body.get("members") if type(body) is dict else None
        if type(members) is not dict or name not in members:
            return None
        return shape_id, name, members[name]

    def span_of(self, node_id: str) -> Span | None:
        """Where the shape or member ``node_id`` is defined in this file (``None``: not here).
        A JSON AST reader keeps no span of a member written as it should be (one in a
        ``members`` object, most never read: SageMaker's 7,300, a span and a map of trait
        spans each); it is made here, deferred (:meth:`Span.deferred`, at the member's key),
        as the reader made it before. The loader, which builds every member, gives each such
        member what makes it (:class:`~smithy2cfn.model.shapes.Member`'s ``deferred``)."""
        span = self.spans.get(node_id)
        if span is None:
            found = self._members_entry(node_id)
            if found is not None:
                span = Span.deferred(members_where(self, found[0]), found[1])
        return span

    def trait_spans_of(self, owner: str) -> Mapping[str, Span] | None:
        """Where each trait written on the shape or member ``owner`` is (``None``: none
        here): :attr:`trait_spans`, or for a member :attr:`span_of` makes the span of, a
        :class:`~smithy2cfn.diagnostics.DeferredSpans` over its ``traits`` object (as the
        reader made it before)."""
        spans = self.trait_spans.get(owner)
        if spans is None and owner not in self.spans:
            found = self._members_entry(owner)
            if found is not None:
                traits = found[2].get("traits") if type(found[2]) is dict else None
                if type(traits) is dict and traits:
                    spans = member_trait_spans(members_where(self, found[0]), found[1], traits)
        return spans


def members_where(doc: SourceDocument, shape_id: str) -> tuple[str, Callable[[tuple[Any, ...]], Span], tuple[Any, ...]]:
    """The ``where`` of :meth:`Span.deferred` for the keys of shape ``shape_id``'s ``members``
    object in the JSON AST document ``doc`` (one with a :attr:`~SourceDocument.locate`)."""
    return doc.path, doc.locate, ("shapes", shape_id, "members")  # type: ignore[return-value]


def member_trait_spans(where: tuple[str, Callable[[tuple[Any, ...]], Span], tuple[Any, ...]], name: str,
                       traits: Mapping[str, Any]) -> DeferredSpans:
    """The spans of the keys of member ``name``'s ``traits`` object (``traits``), the member
    being a key of the ``members`` object at ``where`` (:func:`members_where`)."""
    path, locate, at = where
    return DeferredSpans((path, locate, (*at, name, "traits")), traits)
