"""Helpers shared by the validators: diagnostic construction, spans, user shapes.

Diagnostic codes of the validate stage (``S3xxx``); the reference's event ID is kept in the
hint of every diagnostic (``Smithy event: TraitTarget``) so results can be compared with the
reference's validation events.

========  =====================================================  ===========================
code      problem                                                reference event ID
========  =====================================================  ===========================
S3001     trait applied to a shape its selector does not match    TraitTarget
S3002     two conflicting traits on one shape                     TraitConflict
S3003     trait value does not match the trait's shape            TraitValue
S3004     trait value has a member the trait's shape lacks        TraitValue (warning)
S3005     structurally exclusive trait used more than once        StructurallyExclusiveTrait
S3006     unstable trait applied                                  UnstableTrait (warning)
S3007     @default value of the wrong type                        DefaultTrait
S3008     a trait's selector cannot be evaluated (check skipped)  (note)
S3009     a selector nests functions too deeply (over 50 levels)  TraitValue
S3010     lifecycle operation with the wrong readonly/idempotent  ResourceLifecycle
S3011     instance operation does not bind every identifier       ResourceIdentifierBinding
S3012     collection operation binds every identifier             ResourceIdentifierBinding
S3013     child resource lacks its parent's identifiers           ResourceIdentifier
S3014     resource identifier does not target a string            ResourceIdentifier
S3015     @resourceIdentifier names no identifier                 ResourceIdentifierBinding
S3016     resource containment cycle                              ResourceCycle
S3017     property binding problems                               ResourceOperationInputOutput
S3018     a relationship targets the wrong kind of shape          Target
S3020     a @pattern nested too deeply / repetition too large     TraitValue
S3030     enum value that is not a non-empty string               EnumShape
S3031     duplicate enum / intEnum values                         EnumShape / IntEnumShape
S3032     enum / intEnum without members                          Model
S3033     intEnum value that is not a 32-bit integer              IntEnumShape
S3040     operation / resource mixin with input, output, ids...   Model
S3041     list / map without its required members                 Model
S3043     two mixins give a member different targets              Model
S3050     cfn property whose members target different shapes     CfnResourceProperty
          (ERROR across shape types, WARNING within one type)
S3051     cfnResource primaryIdentifier is not a string property  CfnResourceProperty
S3052     write/create-only member marked additional identifier   CfnMutabilityTrait
S3099     internal error in a validator (an ERROR: never skipped)  —
========  =====================================================  ===========================
"""

from __future__ import annotations

from smithy2cfn.diagnostics import Diagnostic, Severity, Span
from smithy2cfn.model.shapes import Model


def span_of(model: Model, node_id: str) -> Span | None:
    """The span of a shape or member (``None`` when unknown)."""
    if "$" in node_id:
        m = model.member(node_id)
        if m is not None and m.span is not None:
            return m.span
        node_id = node_id.split("$", 1)[0]
    shape = model.shapes.get(node_id)
    return shape.span if shape else None


def diag(model: Model, code: str, severity: Severity, node_id: str, message: str,
         event: str, hint: str | None = None) -> Diagnostic:
    """A located diagnostic about ``node_id``; ``event`` is the reference's event ID."""
    tail = f"Smithy event: {event}"
    return Diagnostic(code, severity, message, span_of(model, node_id), node_id,
                      f"{hint} ({tail})" if hint else tail, event_id=event)


def error(model: Model, code: str, node_id: str, message: str, event: str, hint: str | None = None) -> Diagnostic:
    """An ERROR diagnostic (see :func:`diag`)."""
    return diag(model, code, Severity.ERROR, node_id, message, event, hint)


def warning(model: Model, code: str, node_id: str, message: str, event: str,
            hint: str | None = None) -> Diagnostic:
    """A WARNING diagnostic (see :func:`diag`)."""
    return diag(model, code, Severity.WARNING, node_id, message, event, hint)


def user_shapes(model: Model):
    """Shapes that are not from the built-in prelude or trait packages, sorted by ID."""
    return sorted((s for s in model.shapes.values() if s.id not in model.prelude_ids), key=lambda s: s.id)


def user_nodes(model: Model):
    """``(node ID, traits)`` for every non-prelude shape and member, in shape-ID order."""
    for s in user_shapes(model):
        yield s.id, s.traits
        for m in s.members.values():
            yield m.id, m.traits
