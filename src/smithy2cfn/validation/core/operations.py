"""Operation checks: input/output structures, idempotency, request compression, examples.

Reference validators: ``OperationValidator`` (``OperationInputOutputMisuse``,
``OperationInputOutputName.input``/``.output``, ``OperationNameAmbiguity``),
``IdempotentTraitValidator``, ``IdempotencyTokenIgnoredValidator``,
``RequestCompressionTraitValidator`` and ``ExamplesTraitValidator``.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity
from smithy2cfn.model.knowledge import TopDownIndex
from smithy2cfn.model.relationships import NeighborIndex, RelationshipType
from smithy2cfn.model.shapes import Model, Shape, ShapeId
from smithy2cfn.model.traits import (
    EXAMPLES,
    IDEMPOTENCY_TOKEN,
    IDEMPOTENT,
    INPUT,
    MIXIN,
    OUTPUT,
    REQUEST_COMPRESSION,
    REQUIRES_LENGTH,
    STREAMING,
    UNIT,
)
from smithy2cfn.validation.support.events import event, relationships_text, ticked
from smithy2cfn.validation.support.node_values import NodeChecker
from smithy2cfn.validation.support.shapes import shapes_having, shapes_of_type, shapes_with_members_having

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# ----------------------------------------------------------------------------- input and output


@validator(Code("S3320", Severity.ERROR, "OperationInputOutputMisuse",
               "an `@input`/`@output` structure used as the other, by a member, or by several operations"),
           Code("S3321", Severity.WARNING, "OperationInputOutputName",
                "an `@input`/`@output` structure not named after its operation"),
           Code("S3322", Severity.WARNING, "OperationNameAmbiguity",
                "a shape named like an operation's input/output that is not"),
           rule="reference OperationValidator (smithy-model); Smithy 2.0 type-refinement-traits.rst, input trait "
                "and output trait")
def check_operation_input_output(model: Model) -> Iterable[Diagnostic]:
    """``@input`` and ``@output`` structures are used only as one operation's input (output).

    Spec: type-refinement-traits.rst §"input trait" and §"output trait" (such a structure
    "can only be referenced in the input (output) property of a single operation" and not
    targeted by members). Reference: ``OperationValidator`` (ERROR
    ``OperationInputOutputMisuse``; WARNING ``OperationInputOutputName.input``/``.output``
    when the structure's name does not start with the operation's).
    """
    index = model.knowledge(NeighborIndex)
    for trait, descriptor, invalid in ((INPUT, "input", "output"), (OUTPUT, "output", "input")):
        for shape in shapes_having(model, trait):
            operations: set[str] = set()
            for rel in index.reverse(shape.id):
                label = rel.type.label or ""
                if label == descriptor:
                    operations.add(rel.shape)
                    if not ShapeId.name(rel.neighbor).startswith(ShapeId.name(rel.shape)):
                        yield event(model, "S3321", rel.shape,
                                    f"The {descriptor} of this operation should target a shape that starts with the "
                                    f"operation's name, '{ShapeId.name(rel.shape)}', but the targeted shape is "
                                    f"`{rel.neighbor}`", event_id=f"OperationInputOutputName.{descriptor}")
                elif label == invalid:
                    yield event(model, "S3320", rel.shape,
                                f"Operation `{label}` cannot target structures marked with the `@{descriptor}` trait: "
                                f"`{shape.id}`", hint=f"use a structure without @{descriptor}")
                elif rel.type is RelationshipType.MEMBER_TARGET:
                    yield event(model, "S3320", rel.shape,
                                f"Members cannot target structures marked with the @{descriptor} trait: {shape.id}",
                                hint=f"target a structure without @{descriptor}")
            if len(operations) > 1:
                yield event(model, "S3320", shape.id,
                            f"Shapes marked with the @{descriptor} trait cannot be used as {descriptor} by multiple "
                            f"operations: {ticked(operations)}",
                            hint=f"give each operation its own {descriptor} structure")
    for operation in shapes_of_type(model, "operation"):
        for descriptor, target, suffixes in (("input", operation.input or UNIT, ("Input", "Request")),
                                             ("output", operation.output or UNIT, ("Output", "Response"))):
            for suffix in suffixes:
                test = f"{operation.id}{suffix}"
                if test != target and test in model.shapes:
                    yield event(model, "S3322", test,
                                f"The name of this shape implies that it is the {descriptor} of {operation.id}, but "
                                f"that operation uses {target} for {descriptor}. This kind of ambiguity can confuse "
                                "developers calling this operation and can cause issues in code generators that use "
                                f"similar naming conventions to generate {descriptor} types.")


# ----------------------------------------------------------------------------- idempotency


@validator(Code("S3323", Severity.ERROR, "IdempotentTrait",
               "`@idempotent` `exists`/`notFound` both set, or naming an error the operation lacks"),
           rule="reference IdempotentTraitValidator (smithy-model); Smithy 2.0 behavior-traits.rst, idempotent "
                "trait")
def check_idempotent_traits(model: Model) -> Iterable[Diagnostic]:
    """``@idempotent`` ``exists`` and ``notFound`` are exclusive and name operation errors.

    Spec: behavior-traits.rst §"idempotent trait". Reference: ``IdempotentTraitValidator``.
    """
    for operation in shapes_having(model, IDEMPOTENT):
        value = operation.traits.get(IDEMPOTENT) if operation.type == "operation" else None
        if not isinstance(value, dict):
            continue
        exists, not_found = value.get("exists"), value.get("notFound")
        if exists is not None and not_found is not None:
            yield event(model, "S3323", operation.id,
                        "The `exists` and `notFound` properties of the `@idempotent` trait are mutually exclusive. "
                        "Only one may be specified.", trait=IDEMPOTENT)
        for name, errors in (("exists", exists), ("notFound", not_found)):
            if not isinstance(errors, list):
                continue
            for error_id in errors:
                if isinstance(error_id, str) and error_id not in operation.errors:
                    yield event(model, "S3323", operation.id,
                                f"The `{name}` property references error `{error_id}`, but it is not in the "
                                f"operation's errors list. Expected one of {ticked(dict.fromkeys(operation.errors))}",
                                trait=IDEMPOTENT, hint="add the error to the operation's `errors`")


@validator(Code("S3324", Severity.WARNING, "IdempotencyTokenIgnored",
               "`@idempotencyToken` outside a top-level operation input member"),
           rule="reference IdempotencyTokenIgnoredValidator (smithy-model); Smithy 2.0 behavior-traits.rst, "
                "idempotencyToken trait")
def check_idempotency_tokens_ignored(model: Model) -> Iterable[Diagnostic]:
    """Warn about ``@idempotencyToken`` members that are not top-level input members.

    Spec: behavior-traits.rst §"idempotencyToken trait". Reference:
    ``IdempotencyTokenIgnoredValidator``.
    """
    index = model.knowledge(NeighborIndex)
    for container in shapes_with_members_having(model, IDEMPOTENCY_TOKEN):
        if container.type != "structure" or MIXIN in container.traits:
            continue
        for member in container.members.values():
            if IDEMPOTENCY_TOKEN not in member.traits:
                continue
            ignored: dict[RelationshipType, list[str]] = {}
            for rel in index.reverse(container.id):
                if rel.type not in (RelationshipType.MEMBER_CONTAINER, RelationshipType.INPUT):
                    ignored.setdefault(rel.type, []).append(rel.shape)
            if ignored:
                yield event(model, "S3324", member.id,
                            "The `idempotencyToken` trait only has an effect when applied to a top-level operation "
                            f"input member, but it was applied and ignored in the following contexts: "
                            f"{relationships_text(ignored)}",
                            trait=IDEMPOTENCY_TOKEN)


# ----------------------------------------------------------------------------- compression

#: Compression algorithms the ``@requestCompression`` trait supports (reference
#: ``RequestCompressionTrait.SUPPORTED_COMPRESSION_ALGORITHMS``).
SUPPORTED_COMPRESSION_ALGORITHMS = frozenset({"gzip"})


@validator(Code("S3325", Severity.ERROR, "RequestCompressionTrait",
               "`@requestCompression` without input, with a length-requiring stream, or with no or unknown "
               "encodings"),
           rule="reference RequestCompressionTraitValidator (smithy-model); Smithy 2.0 behavior-traits.rst, "
                "requestCompression trait")
def check_request_compression(model: Model) -> Iterable[Diagnostic]:
    """``@requestCompression`` operations have an input without length-requiring streams and
    at least one supported encoding.

    Spec: behavior-traits.rst §"requestCompression trait". Reference:
    ``RequestCompressionTraitValidator``.
    """
    for operation in shapes_having(model, REQUEST_COMPRESSION):
        value = operation.traits.get(REQUEST_COMPRESSION) if operation.type == "operation" else None
        if not isinstance(value, dict) or not isinstance(value.get("encodings"), list):
            continue  # the trait cannot be created (validation/core/trait_creation.py reports it)
        # the reference checks the encodings of an operation without input too
        structure = model.shapes.get(operation.input) if operation.input and operation.input != UNIT else None
        if not operation.input or operation.input == UNIT:
            yield event(model, "S3325", operation.id,
                        "The `requestCompression` trait can only be applied to operations which have an input shape "
                        "defined", hint="give the operation an input structure")
        for member in (structure.members.values() if structure is not None else ()):
            target = model.shapes.get(member.target)
            if target is not None and STREAMING in target.traits and REQUIRES_LENGTH in target.traits:
                yield event(model, "S3325", operation.id,
                            "The `requestCompression` trait can only be applied to operations which do not have input "
                            "members that target shapes with both the `streaming` and `requiresLength` traits applied, "
                            f"but found member `{member.id}` targeting `{target.id}`")
        encodings = [e for e in value["encodings"] if isinstance(e, str)]
        if not encodings:
            yield event(model, "S3325", operation.id,
                        "There must be at least one compression algorithm in `encodings` for the `requestCompression` "
                        f"trait applied to `{operation.id}`", trait=REQUEST_COMPRESSION,
                        hint='add an encoding such as "gzip"')
            continue
        invalid = [e for e in encodings if e.lower() not in SUPPORTED_COMPRESSION_ALGORITHMS]
        if invalid:
            yield event(model, "S3325", operation.id,
                        f"Invalid compression algorithm{'' if len(invalid) == 1 else 's'} found in "
                        f"`requestCompression` trait applied to `{operation.id}`: {ticked(invalid)}",
                        trait=REQUEST_COMPRESSION,
                        hint=f"supported: {', '.join(sorted(SUPPORTED_COMPRESSION_ALGORITHMS))}")


# ----------------------------------------------------------------------------- examples


class _ExampleChecker(NodeChecker):
    """The node value check of trait values, as the reference's ``NodeValidationVisitor``
    runs it for examples: with ``allowConstraintErrors``, constraint violations and missing
    required members are warnings."""

    def __init__(self, model: Model, namespace: str, allow_constraint_errors: bool) -> None:
        super().__init__(model, namespace, True)
        self.allow = allow_constraint_errors

    def add(self, path: str, message: str, severity: Severity = Severity.ERROR) -> None:
        if message.startswith("union values must contain exactly one member") and message.endswith(" got 0"):
            return  # the reference rejects a union value with several members, not an empty one
        if self.allow and (message.startswith("Missing required structure member")
                           or len(self.problems) in self.suffixes):
            # a @range violation (the base class records its event ID suffix before adding it)
            # is a constraint error too (the reference's RangeTraitPlugin.getSeverity)
            severity = Severity.WARNING
        super().add(path, message, severity)

    def constraint(self, path: str, message: str) -> None:
        self.add(path, message, Severity.WARNING if self.allow else Severity.ERROR)


def _services_contain_error(model: Model, operation: Shape, error_id: str) -> bool:
    """True when every service that contains ``operation`` lists ``error_id`` in its errors
    (and there is at least one service), as the reference's ``servicesContainError``."""
    services = shapes_of_type(model, "service")
    if not services:
        return False
    top_down = model.knowledge(TopDownIndex)
    for service in services:
        if operation.id in top_down.contained_operations(service.id) and error_id not in service.errors:
            return False
    return True


def _check_value(model: Model, operation: Shape, kind: str, title: Any, value: Any, shape_id: str,
                 allow: bool) -> list[Diagnostic]:
    checker = _ExampleChecker(model, operation.namespace, allow)
    checker.check(value if value is not None else {}, shape_id, {}, "")
    out = []
    for i, (severity, path, message) in enumerate(checker.problems):
        if message.startswith("Invalid structure member") or message.startswith("Invalid union member"):
            continue  # reported below, in the reference's words
        suffix = checker.suffixes.get(i)
        out.append(event(model, "S3326", operation.id, f"Example {kind} of `{title}`{path}: {message}",
                         trait=EXAMPLES, severity=severity,
                         event_id=f"ExamplesTrait.{suffix}" if suffix else None))
    shape = model.shapes.get(shape_id)
    if isinstance(value, dict) and shape is not None and shape.type in ("structure", "union"):
        for key in value:
            if key not in shape.members:
                out.append(event(model, "S3326", operation.id,
                                 f"Example {kind} of `{title}`: Member `{key}` does not exist in `{shape.id}`",
                                 trait=EXAMPLES, severity=Severity.WARNING if shape.type == "structure"
                                 else Severity.ERROR, event_id="ExamplesTrait.UnknownMember"))
    return out


@validator(Code("S3326", Severity.ERROR, "ExamplesTrait",
               "an `@examples` example does not match the operation's input, output or errors",
               also=(Severity.WARNING,)),
           rule="reference ExamplesTraitValidator (smithy-model); Smithy 2.0 documentation-traits.rst, examples "
                "trait")
def check_examples(model: Model) -> Iterable[Diagnostic]:
    """``@examples`` match the operation: input and output values fit their structures, an
    error example names one of the operation's (or all its services') errors.

    Spec: documentation-traits.rst §"examples trait" (``output`` and ``error`` are exclusive;
    ``allowConstraintErrors`` requires ``error``). Reference: ``ExamplesTraitValidator``.
    """
    for operation in shapes_having(model, EXAMPLES):
        value = operation.traits.get(EXAMPLES) if operation.type == "operation" else None
        if not isinstance(value, list):
            continue
        for example in value:
            if not isinstance(example, dict):
                continue
            title = example.get("title")
            output, error = example.get("output"), example.get("error")
            allow = example.get("allowConstraintErrors") is True
            input_id = operation.input or UNIT
            if input_id in model.shapes:
                if allow and error is None:
                    yield event(model, "S3326", operation.id,
                                f"Example: `{title}` has allowConstraintErrors enabled, so error must be defined.",
                                trait=EXAMPLES)
                yield from _check_value(model, operation, "input", title, example.get("input"), input_id, allow)
            if output is not None and error is not None:
                yield event(model, "S3326", operation.id,
                            f"Example: `{title}` has both output and error defined, only one should be present.",
                            trait=EXAMPLES)
            elif output is not None:
                output_id = operation.output or UNIT
                if output_id in model.shapes:
                    yield from _check_value(model, operation, "output", title, output, output_id, allow)
            elif isinstance(error, dict):
                error_id = error.get("shapeId")
                if not isinstance(error_id, str):
                    continue
                if error_id in model.shapes and (error_id in operation.errors
                                                 or _services_contain_error(model, operation, error_id)):
                    yield from _check_value(model, operation, "error", title, error.get("content"), error_id, allow)
                else:
                    yield event(model, "S3326", operation.id,
                                f"Error parameters provided for operation without the `{error_id}` error: `{title}`",
                                trait=EXAMPLES, hint="add the error to the operation's `errors`, or fix `shapeId`")


__all__ = [
    "SUPPORTED_COMPRESSION_ALGORITHMS", "check_examples", "check_idempotency_tokens_ignored",
    "check_idempotent_traits", "check_operation_input_output", "check_request_compression",
]

