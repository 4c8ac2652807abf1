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

from dataclasses import dataclass, field
from typing import Any

from smithy2cfn.diagnostics import Diagnostic, Span


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


@dataclass
class ApplyStatement:
    """``apply Target @trait...`` (IDL 2.0 §"Apply statement", JSON AST ``"type": "apply"``).

    ``target`` is an absolute shape or member ID; ``traits`` maps absolute trait IDs to
    values (:data:`ANNOTATION` for annotation traits without a value). ``namespace`` is the
    namespace of the IDL file that states it (``None`` in a JSON AST, where the reference
    takes the target's own): an ``apply`` to a prelude shape from another namespace is an
    error (the reference's ``LoaderTraitMap``).
    """

    target: str
    traits: dict[str, Any]
    span: Span | None = None
    trait_spans: dict[str, Span] = field(default_factory=dict)
    namespace: str | None = None


@dataclass
class SourceDocument:
    """One loaded source file.

    Attributes:
        path: the file's path as given by the user (used in diagnostics).
        version: ``"1.0"`` or ``"2.0"`` (IDL ``$version`` / JSON AST ``smithy``; IDL files
            without ``$version`` are ``"1.0"``).
        ast: the JSON AST document with absolute shape IDs (see module docstring).
        applies: apply statements, in source order.
        spans: absolute shape or member ID → where it is defined.
        trait_spans: ``(shape or member ID, trait ID)`` → where the trait is applied.
        metadata_spans: metadata key → where the key is set.
        diagnostics: problems found while reading the file (syntax errors...).
        duplicate_shapes: ``(shape ID, shape entry, span)`` of shapes defined again in the
            same file (the loader merges equal definitions and reports conflicting ones).
    """

    path: str
    version: str
    ast: dict[str, Any]
    applies: list[ApplyStatement] = field(default_factory=list)
    spans: dict[str, Span] = field(default_factory=dict)
    trait_spans: dict[tuple[str, str], Span] = field(default_factory=dict)
    metadata_spans: dict[str, Span] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    duplicate_shapes: list[tuple[str, dict[str, Any], Span | None]] = field(default_factory=list)
