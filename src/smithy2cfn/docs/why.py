"""Why a property has its update behaviour, in model terms, one sentence per reason.

The sentences read the derivation's record (:attr:`PropertyPlan.sources
<smithy2cfn.derive.plan.PropertyPlan.sources>`, each a
:class:`~smithy2cfn.derive.resource_index.MutabilitySource`) and end with where the member,
trait or identifier is written (``vault.smithy:133``). ``smithy2cfn explain`` works on the
same data; :func:`mutability_reasons` is the one place the docs take their "why" text from,
so that it can later point at the shared wording.
"""

from __future__ import annotations

from smithy2cfn.derive.plan import PropertyPlan
from smithy2cfn.derive.resource_index import Mutability, MutabilitySource, SourceKind
from smithy2cfn.diagnostics import Span
from smithy2cfn.model.shapes import ShapeId

#: What the lifecycle operation of a source kind is called in the sentences.
_OPERATION_ROLE = {
    SourceKind.READ_OUTPUT: ("output", "read"),
    SourceKind.CREATE_INPUT: ("input", "create"),
    SourceKind.PUT_INPUT: ("input", "put"),
    SourceKind.UPDATE_INPUT: ("input", "update"),
}


def where(span: Span | None, root: str = "") -> str:
    """``" (vault.smithy:133)"``: the file (relative to ``root``, a folder prefix ending in
    ``/`` or empty) and line of ``span``; empty without a line."""
    if span is None or not span.line:
        return ""
    path = span.path[len(root):] if root and span.path.startswith(root) else span.path
    return f" ({path}:{span.line})"


def _shape(shape_id: str) -> str:
    member = ShapeId.member(shape_id)
    name = ShapeId.name(shape_id)
    return f"`{name}${member}`" if member else f"`{name}`"


def source_sentence(source: MutabilitySource, root: str = "") -> str:
    """One reason in plain words: what in the model contributes and what it gives
    (``create``, ``read``, ``write``), with its location (:func:`where`)."""
    if source.fixes:
        gives = f"makes it {source.mutability.words()}"
    else:
        gives = f"gives {source.mutability.words()}" if source.mutability else "adds nothing"
    kind = source.kind
    if kind is SourceKind.IDENTIFIER:
        what = f"it is an identifier of {_shape(source.shape_id)}"
    elif kind is SourceKind.PUT_IDENTIFIER:
        what = f"it is an identifier of {_shape(source.shape_id)} (a resource with a `put` lifecycle operation)"
    elif kind is SourceKind.PARENT_IDENTIFIER:
        what = (f"it is an identifier {_shape(source.shape_id)} inherits from its parent "
                f"{_shape(source.parent or '')}")
    elif kind is SourceKind.CFN_MUTABILITY:
        what = f"{_shape(source.shape_id)} has `@{ShapeId.name(source.trait or 'cfnMutability')}`"
    elif kind is SourceKind.ADDITIONAL_IDENTIFIER:
        what = f"{_shape(source.shape_id)} is marked `@{ShapeId.name(source.trait or 'cfnAdditionalIdentifier')}`"
    elif kind is SourceKind.TAG_OPERATIONS:
        what = (f"it is the tag property of {_shape(source.shape_id)}, whose tags CloudFormation changes through "
                f"{_shape(source.operation or '')}")
    elif kind is SourceKind.ADDITIONAL_SCHEMA:
        what = f"{_shape(source.shape_id)} is in a `cfnResource` `additionalSchemas` structure"
    else:
        part, role = _OPERATION_ROLE.get(kind, (kind.value, "lifecycle"))
        what = f"{_shape(source.shape_id)} is in the {part} of {_shape(source.operation or '')}, the {role} operation"
    return f"{what}, which {gives}{where(source.span, root)}"


def mutability_reasons(prop: PropertyPlan, root: str = "") -> tuple[str, ...]:
    """Why ``prop`` is createOnly, readOnly, writeOnly or updatable: one sentence per
    derivation source (:func:`source_sentence`, in derivation order), then, where the
    behaviour comes from what is *missing* (no update input, no read output), a sentence
    saying so. ``root`` is cut from the front of file paths (see :func:`where`)."""
    lines = [source_sentence(s, root) for s in prop.sources]
    fixed = any(s.fixes for s in prop.sources)
    if not fixed and not prop.is_tags:
        if prop.create_only:
            lines.append("no `update` or `put` input holds it, so it cannot change once the resource exists")
        elif prop.read_only:
            lines.append("no `create`, `put` or `update` input holds it, so only the service sets it")
        if prop.write_only and not prop.mutability & Mutability.READ:
            lines.append("the `read` output does not hold it, so it is never returned")
    return tuple(lines)
