"""Metadata rules: ``@metadata`` types of metadata keys, and the ``shapeClosures`` metadata.

Spec: model-validation.rst §"metadata trait" (a shape gives the type of one metadata key;
the keys ``suppressions``, ``severityOverrides`` and ``validators`` are reserved) and
shape-closures.rst §"shapeClosures metadata". Reference validators:
``MetadataTraitValidator``, ``TypedMetadataValidator`` and ``ShapeClosureValidator`` (with
``ShapeClosureIndex``). Their events are about the model, not a shape (``-`` in the
reference's output), except ``MetadataTrait``, which is about the typing shape.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.languages.selector import SelectorEngine, SelectorError, parse_selector
from smithy2cfn.model.relationships import Walker
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import METADATA
from smithy2cfn.regexes import lazy
from smithy2cfn.validation.support.events import diag, error
from smithy2cfn.validation.support.node_values import NodeChecker
from smithy2cfn.validation.support.shapes import shapes_having

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Metadata keys the reference reserves (``MetadataTraitValidator.RESERVED``).
RESERVED_KEYS = frozenset({"severityOverrides", "suppressions", "validators"})
#: The metadata key of shape closures (shape-closures.rst).
SHAPE_CLOSURES = "shapeClosures"
_SHAPE_ID = lazy(r"(?:_+[A-Za-z0-9]|[A-Za-z])\w*(?:\.(?:_+[A-Za-z0-9]|[A-Za-z])\w*)*#"
                 r"(?:_+[A-Za-z0-9]|[A-Za-z])\w*")


def _metadata_types(model: Model) -> dict[str, list[str]]:
    """Metadata key → the shapes marked ``@metadata(key: ...)`` for it, in shape-ID order."""
    out: dict[str, list[str]] = {}
    for shape in sorted(shapes_having(model, METADATA), key=lambda s: s.id):  # (not every shape: those marked)
        value = shape.traits.get(METADATA)
        if isinstance(value, dict) and isinstance(value.get("key"), str):
            out.setdefault(value["key"], []).append(shape.id)
    return out


@validator(Code("S3118", Severity.ERROR, "MetadataTrait",
                "`@metadata` for a reserved key, or two shapes typing one metadata key"),
           rule="reference MetadataTraitValidator (smithy-model); Smithy 2.0 model-validation.rst, metadata "
                "trait")
def check_metadata_traits(model: Model) -> Iterable[Diagnostic]:
    """A metadata key is typed by one shape at most, and never a reserved key.

    Spec: model-validation.rst §"metadata trait"; the reference's ``MetadataTraitValidator``
    (``MetadataTrait`` errors on every shape that types a reserved or twice-typed key).
    """
    for key, shapes in _metadata_types(model).items():
        if key in RESERVED_KEYS:
            for shape_id in shapes:
                yield error(model, "S3118", shape_id,
                            f"The metadata key `{key}` has been reserved by Smithy and may not be defined elsewhere.")
        elif len(shapes) > 1:
            for shape_id in shapes:
                others = listed((s for s in shapes if s != shape_id), total=len(shapes) - 1)
                yield error(model, "S3118", shape_id,
                            f"A type has already been defined for the metadata key `{key}`. Conflicts with: "
                            f"[{others}]")


def _model_event(model: Model, code: str, key: str, message: str, event: str,
                 severity: Severity | None = None) -> Diagnostic:
    """An event about the model's ``key`` metadata (no shape; located at the metadata)."""
    d = diag(model, code, severity, "", message, event)
    return Diagnostic(d.code, d.severity, message, model.metadata_spans.get(key), None, d.hint,
                      event_id=event)


@validator(Code("S3119", Severity.ERROR, "TypedMetadata",
                "a metadata value that does not match its `@metadata` shape (event `TypedMetadata.<key>`)",
                also=(Severity.WARNING,)),
           rule="reference TypedMetadataValidator (smithy-model); Smithy 2.0 model-validation.rst, metadata "
                "trait")
def check_typed_metadata(model: Model) -> Iterable[Diagnostic]:
    """The value of a metadata key typed by exactly one ``@metadata`` shape matches that
    shape (type, required members, constraint traits, ``@idRef``).

    Spec: model-validation.rst §"metadata trait"; the reference's ``TypedMetadataValidator``
    (events ``TypedMetadata.<key>``, messages ``metadata.<key>.<path>: problem``).
    """
    for key, shapes in _metadata_types(model).items():
        if len(shapes) != 1 or key not in model.metadata:
            continue
        checker = NodeChecker(model, shapes[0].split("#", 1)[0], zero_range_warning=True, relative_ids=False)
        checker.check(model.metadata[key], shapes[0], {}, "")
        for i, (severity, path, message) in enumerate(checker.problems):
            # (a @range violation takes the reference's suffix: TypedMetadata.<key>.Member.InvalidRange)
            suffix = checker.suffixes.get(i)
            event_id = f"TypedMetadata.{key}.{suffix}" if suffix else f"TypedMetadata.{key}"
            yield _model_event(model, "S3119", key, f"metadata.{key}{path}: {message}", event_id, severity)


class _Closure:
    """One entry of the ``shapeClosures`` metadata, as the reference's ``ShapeClosure.fromNode``
    reads it (``None`` from :meth:`read` where that would fail)."""

    def __init__(self, closure_id: str, namespaces: list[str], selector: str | None,
                 rename: dict[str, str]) -> None:
        self.id = closure_id
        self.namespaces = namespaces
        self.selector = selector
        self.rename = rename

    @classmethod
    def read(cls, value: Any) -> _Closure | None:
        if not isinstance(value, dict) or not isinstance(value.get("id"), str):
            return None
        namespaces = value.get("includeNamespaces", [])
        selector = value.get("includeBySelector")
        rename = value.get("rename", {})
        if not isinstance(namespaces, list) or not all(isinstance(n, str) for n in namespaces):
            return None
        if selector is not None and not isinstance(selector, str):
            return None
        if not isinstance(rename, dict) or not all(isinstance(v, str) and _SHAPE_ID.fullmatch(k)
                                                   for k, v in rename.items()):
            return None
        return cls(value["id"], list(dict.fromkeys(namespaces)), selector, rename)


@validator(Code("S3120", Severity.ERROR, "ShapeClosure",
                "a `shapeClosures` entry: duplicate or shape ID, nothing included, bad selector, bad rename"),
           Code("S3121", Severity.DANGER, "ShapeClosure",
                "a shape closure namespace without shapes, or a selector adding no shapes "
                "(`ShapeClosure.EmptyNamespace.<id>`, `ShapeClosure.EmptySelector.<id>`)"),
           Code("S3122", Severity.WARNING, "ShapeClosure",
                "shapes of a closure whose names differ only in case (`ShapeClosure.NameConflicts.<id>`)"),
           rule="reference ShapeClosureValidator (smithy-model); Smithy 2.0 shape-closures.rst")
def check_shape_closures(model: Model) -> Iterable[Diagnostic]:
    """The ``shapeClosures`` metadata: unique closure IDs that are not shape IDs, each
    closure including something (namespaces with shapes, a selector that parses and adds
    shapes), renames of shapes in the closure that change the name without case-insensitive
    conflicts, and (a warning) no two shapes of a closure whose names differ only in case.

    Spec: shape-closures.rst; the reference's ``ShapeClosureValidator`` (``ShapeClosure``
    errors, ``ShapeClosure.EmptyNamespace.<id>`` and ``ShapeClosure.EmptySelector.<id>``
    DANGERs, ``ShapeClosure.NameConflicts.<id>`` warnings). A closure holds its root shapes
    (the shapes of its namespaces and those its selector matches) and everything they reach
    through directed relationships (the reference's ``ShapeClosureIndex``). Entries that
    cannot be read are left to :func:`check_typed_metadata`.
    """
    entries = model.metadata.get(SHAPE_CLOSURES)
    if not isinstance(entries, list):
        return
    namespaces_in_model = {s.namespace for s in model.shapes.values()}
    seen: set[str] = set()
    for entry in entries:
        closure = _Closure.read(entry)
        if closure is None:
            continue

        def event(message: str, event_id: str = "ShapeClosure", code: str = "S3120",
                  severity: Severity | None = None) -> Diagnostic:
            return _model_event(model, code, SHAPE_CLOSURES, message, event_id, severity)

        if closure.id in seen:
            yield event(f"Shape closure id `{closure.id}` is declared more than once.")
            continue
        seen.add(closure.id)
        if _SHAPE_ID.fullmatch(closure.id) and closure.id in model.shapes:
            yield event(f"Shape closure ids must not match the ids of shapes in the model, but `{closure.id}` does.")
        if not closure.namespaces and closure.selector is None:
            yield event(f"Shape closure `{closure.id}` must define at least one of `includeNamespaces` or "
                        "`includeBySelector`.")
        non_empty = set()
        for namespace in closure.namespaces:
            if namespace in namespaces_in_model:
                non_empty.add(namespace)
            else:
                yield event(f"Shape closure `{closure.id}` includes namespace `{namespace}`, which has no shapes in "
                            "the model.", f"ShapeClosure.EmptyNamespace.{closure.id}", "S3121")
        roots = {n for s in model.shapes.values() if s.namespace in non_empty
                 for n in [s.id, *(m.id for m in s.members.values())]}
        if closure.selector is not None:
            if closure.selector == "":
                continue  # the @length of includeBySelector (TypedMetadata)
            try:
                selected = model.knowledge(SelectorEngine).select(parse_selector(closure.selector))
            except SelectorError as e:
                yield event(f"Shape closure `{closure.id}` has an invalid `includeBySelector`: {e}")
                continue
            outside = {n for n in selected if n.split("#", 1)[0] not in non_empty}
            if not non_empty and not selected:
                yield event(f"Shape closure `{closure.id}` has an `includeBySelector` that matches no shapes in the "
                            "model.", f"ShapeClosure.EmptySelector.{closure.id}", "S3121")
            elif non_empty and not outside:
                yield event(f"Shape closure `{closure.id}` has an `includeBySelector` that matches no shapes in the "
                            "model that aren't already in an included namespace.",
                            f"ShapeClosure.EmptySelector.{closure.id}", "S3121")
            roots |= selected
        shapes = Walker(model).walk_all(sorted(roots), lambda rel: rel.type.directed)
        yield from _renames(closure, shapes, event)
        yield from _name_conflicts(closure, shapes, event)


def _renames(closure: _Closure, shapes: set[str], event) -> Iterable[Diagnostic]:
    non_renamed: dict[str, str] = {}
    for shape_id in sorted(shapes):
        if "$" not in shape_id and shape_id not in closure.rename:
            non_renamed.setdefault(shape_id.split("#", 1)[1].lower(), shape_id)
    renamed: dict[str, str] = {}
    for source, name in closure.rename.items():
        if name == source.split("#", 1)[1]:
            yield event(f"Shape closure `{closure.id}` rename for `{source}` does not change the name from "
                        f"`{name}`.")
        if source not in shapes:
            yield event(f"Shape closure `{closure.id}` attempts to rename `{source}`, which is not in the closure.")
            continue
        previous = renamed.get(name.lower())
        renamed[name.lower()] = source
        if previous is not None:
            yield event(f"Shape closure `{closure.id}` rename for `{source}` (\"{name}\") case-insensitively "
                        f"conflicts with the rename for `{previous}`.")
        other = non_renamed.get(name.lower())
        if other is not None:
            yield event(f"Shape closure `{closure.id}` rename for `{source}` (\"{name}\") case-insensitively "
                        f"conflicts with non-renamed shape `{other}`.")


def _name_conflicts(closure: _Closure, shapes: set[str], event) -> Iterable[Diagnostic]:
    by_name: dict[str, list[str]] = {}
    for shape_id in sorted(shapes):
        if "$" not in shape_id and shape_id not in closure.rename:
            by_name.setdefault(shape_id.split("#", 1)[1].lower(), []).append(shape_id)
    for ids in by_name.values():
        if len(ids) > 1:
            yield event(f"Shape closure `{closure.id}` contains shapes whose names conflict case-insensitively: "
                        f"[{listed(ids)}]. Shapes in a closure should have case-insensitively unique names "
                        "regardless of their namespaces. Some code generators or other tools may require this in "
                        "order to work. The `rename` property may be used to disambiguate them.",
                        f"ShapeClosure.NameConflicts.{closure.id}", "S3122")


__all__ = ["RESERVED_KEYS", "SHAPE_CLOSURES", "check_metadata_traits", "check_shape_closures",
           "check_typed_metadata"]
