"""Validators a model turns on in its ``validators`` metadata (Smithy 2.0 "Model
validation" §"Validators"; the reference's ``ValidationLoader``, ``ValidatorDefinition``,
``ValidatorFromDefinitionFactory``, ``ValidatorService`` and ``ModelValidator``).

Each entry of the ``validators`` list names a validator (``name``) and may give its
``configuration``, the ``id`` its events take (the first segment of their event IDs; the
name by default), a ``severity`` (``DANGER``, ``WARNING`` or ``NOTE``) and a ``message``
(``{super}`` stands for the original message) for its events, and ``namespaces`` and a
``selector`` that restrict the shapes its events may be about.

The validators that can be named: ``EmitEachSelector``, ``EmitNoneSelector`` and
``UnreferencedShape`` (smithy-model's linters, here), and the linters of
:mod:`smithy2cfn.validation.smithy_linters`. An unknown name is a ``UnknownValidator_<name>``
WARNING; a configuration the validator cannot be made from is an ERROR (``Model``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator
from typing import Any

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, declare_codes, listed
from smithy2cfn.languages.selector import SelectorEngine, SelectorError, parse_selector
from smithy2cfn.model.nodes import node_type
from smithy2cfn.model.relationships import NeighborIndex
from smithy2cfn.model.shapes import Model, ShapeId
from smithy2cfn.model.traits import ID_REF, METADATA, TRAIT
from smithy2cfn.prelude import PRELUDE_NAMESPACE
from smithy2cfn.validation.smithy_linters import LINTERS
from smithy2cfn.validation.support.configuration import (
    ConfigError,
    Factory,
    Validator,
    config_object,
    config_required_selector,
    config_selector,
    config_string,
)
from smithy2cfn.validation.support.events import event

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S3580", Severity.ERROR, "Model",
         "the `validators` metadata is not a list of objects, or an entry lacks `name` or has a bad "
         "`severity`, `namespaces` or `selector`"),
    Code("S3581", Severity.WARNING, "UnknownValidator",
         "a `validators` entry names no known validator (event `UnknownValidator_<name>`)"),
    Code("S3582", Severity.ERROR, "Model",
         "a configured validator cannot be created from its `configuration`"),
    Code("S3583", Severity.WARNING, "Model", "a `validators` entry has an unknown property"),
    Code("S3590", Severity.DANGER, "EmitEachSelector",
         "configured `EmitEachSelector`: a shape matches the selector (event, severity and message as "
         "configured)", also=(Severity.ERROR, Severity.WARNING, Severity.NOTE,)),
    Code("S3591", Severity.DANGER, "EmitNoneSelector",
         "configured `EmitNoneSelector`: no shape matches the selector", also=(Severity.ERROR, Severity.WARNING, Severity.NOTE,)),
    Code("S3592", Severity.NOTE, "UnreferencedShape",
         "configured `UnreferencedShape`: a shape is not connected to a root shape", also=(Severity.DANGER, Severity.WARNING,)),
)

_PROPERTIES = ("name", "id", "message", "severity", "namespaces", "selector", "configuration")
_SEVERITIES = {"DANGER": Severity.DANGER, "WARNING": Severity.WARNING, "NOTE": Severity.NOTE}


# --------------------------------------------------------------------------- the definitions


@dataclasses.dataclass
class ValidatorDefinition:
    """One entry of the ``validators`` metadata (reference ``ValidatorDefinition``)."""

    name: str
    id: str
    message: str | None = None
    severity: Severity | None = None
    namespaces: list[str] = dataclasses.field(default_factory=list)
    selector: tuple | None = None
    configuration: dict[str, Any] = dataclasses.field(default_factory=dict)

    def map(self, model: Model, events: Iterable[Diagnostic]) -> Iterator[Diagnostic]:
        """The validator's events that this definition lets through, with its ``id``,
        ``severity`` and ``message`` (reference ``ValidatorDefinition.map``)."""
        candidates = model.knowledge(SelectorEngine).select(self.selector) if self.selector is not None else None
        unchanged = self.name == self.id and self.severity is None and self.message is None
        for d in events:
            if d.shape_id:
                if self.namespaces and ShapeId.namespace(d.shape_id) not in self.namespaces:
                    continue
                if candidates is not None and d.shape_id not in candidates:
                    continue
            if unchanged:
                yield d
                continue
            old = d.event_id or self.name
            new = self.id + old[old.index("."):] if "." in old else self.id
            hint = d.hint.replace(f"Smithy event: {old}", f"Smithy event: {new}") if d.hint else d.hint
            yield dataclasses.replace(
                d, event_id=new, hint=hint, severity=self.severity if self.severity is not None else d.severity,
                message=self.message.replace("{super}", d.message) if self.message is not None else d.message)


def _model_error(model: Model, message: str, code: str = "S3580", severity: Severity | None = None,
                 hint: str | None = None) -> Diagnostic:
    return event(model, code, "", message, severity=severity, hint=hint)


def load_definitions(model: Model) -> tuple[list[ValidatorDefinition], list[Diagnostic]]:
    """The entries of the ``validators`` metadata, and the problems of the malformed ones
    (each is left out; reference ``ValidationLoader``)."""
    if "validators" not in model.metadata:
        return [], []
    value = model.metadata["validators"]
    if not isinstance(value, list):
        return [], [_model_error(model, f"validators must be an array. Found {node_type(value)}.",
                                 hint="make `validators` a list of objects")]
    out: list[ValidatorDefinition] = []
    problems: list[Diagnostic] = []
    for entry in value:
        if not isinstance(entry, dict):
            problems.append(_model_error(model, "Each element of `validators` must be an object. Found "
                                                f"{node_type(entry)}."))
            continue
        for key in entry:
            if key not in _PROPERTIES:
                problems.append(_model_error(model, f"Unknown property `{key}` in a `validators` entry; expected "
                                                    f"one of {', '.join(_PROPERTIES)}", code="S3583"))
        try:
            out.append(_definition(entry))
        except ConfigError as e:
            problems.append(_model_error(model, str(e)))
    return out, problems


def _definition(entry: dict[str, Any]) -> ValidatorDefinition:
    name = entry.get("name")
    if not isinstance(name, str):
        raise ConfigError("Missing required member `name` of a `validators` entry" if name is None
                          else f"Expected `name` to be a string; found {node_type(name)}")
    for key in ("id", "message", "severity", "selector"):
        if key in entry and not isinstance(entry[key], str):
            raise ConfigError(f"Expected `{key}` to be a string; found {node_type(entry[key])}")
    definition = ValidatorDefinition(name, entry.get("id", name), entry.get("message"))
    if "severity" in entry:
        if entry["severity"] not in _SEVERITIES:
            raise ConfigError(f"Expected one of `DANGER`, `WARNING`, `NOTE`; got `{entry['severity']}`.")
        definition.severity = _SEVERITIES[entry["severity"]]
    if "namespaces" in entry:
        spaces = entry["namespaces"]
        if not isinstance(spaces, list) or not all(isinstance(s, str) for s in spaces):
            raise ConfigError("Expected `namespaces` to be an array of strings")
        definition.namespaces = list(spaces)
    if "configuration" in entry:
        if not isinstance(entry["configuration"], dict):
            raise ConfigError(f"Expected `configuration` to be an object; found {node_type(entry['configuration'])}")
        definition.configuration = entry["configuration"]
    if "selector" in entry:
        try:
            definition.selector = parse_selector(entry["selector"])
        except SelectorError as e:
            raise ConfigError(f"Invalid `selector` of a `validators` entry: {e}") from None
    return definition


def factories() -> dict[str, Factory]:
    """Every validator a ``validators`` entry can name: name → factory."""
    return {"EmitEachSelector": emit_each_selector, "EmitNoneSelector": emit_none_selector,
            "UnreferencedShape": unreferenced_shape, **LINTERS}


@validator("S3580", "S3581", "S3582", "S3583", "S3590", "S3591", "S3592",
           # the linters it runs (smithy2cfn.validation.smithy_linters) report their own codes
           "S3600", "S3601", "S3602", "S3603", "S3604", "S3605", "S3606", "S3607", "S3608", "S3609", "S3610", "S3611",
           rule="Run the validators that the ``validators`` metadata turns on, with each entry's ``id``, ``severity``, ``message``, ``namespaces`` and ``selector``.")
def check_configured_validators(model: Model) -> Iterable[Diagnostic]:
    """Run the validators that the ``validators`` metadata turns on, with each entry's
    ``id``, ``severity``, ``message``, ``namespaces`` and ``selector``.

    Spec: model-validation.rst §"Validators". Reference ``ModelValidator``
    (``loadModelValidators``) and ``ValidatorDefinition``: a malformed entry is an ERROR
    (``Model``); an unknown validator name a WARNING ``UnknownValidator_<name>``; a
    configuration the validator cannot be made from an ERROR ``Model`` ("Error creating
    `Name` validator: ...").
    """
    definitions, problems = load_definitions(model)
    seen: set[Diagnostic] = set()
    for d in problems:
        if d not in seen:  # the reference's events are a set
            seen.add(d)
            yield d
    known = factories()
    for definition in definitions:
        factory = known.get(definition.name)
        if factory is None:
            yield event(model, "S3581", "", f"Unable to locate a validator named `{definition.name}`",
                        event_id=f"UnknownValidator_{definition.name}",
                        hint="check the name against the validators smithy2cfn knows (see README)")
            continue
        try:
            validator = factory(definition.configuration)
        except ConfigError as e:
            d = event(model, "S3582", "", f"Error creating `{definition.name}` validator: {e}")
            if d not in seen:
                seen.add(d)
                yield d
            continue
        for d in definition.map(model, validator(model)):
            if d not in seen:
                seen.add(d)
                yield d


# --------------------------------------------------------------------------- EmitEachSelector


def _parse_template(template: str) -> list[str | tuple[str, ...]]:
    """A message template's parts: literal text, or the path of a ``@{...}`` scoped
    attribute (``@@`` is a literal ``@``). Reference ``EmitEachSelectorValidator.MessageTemplateParser``."""
    parts: list[str | tuple[str, ...]] = []
    text: list[str] = []
    i = 0
    while i < len(template):
        ch = template[i]
        if ch != "@":
            text.append(ch)
            i += 1
            continue
        if template.startswith("@@", i):
            text.append("@")
            i += 2
            continue
        if not template.startswith("@{", i):
            raise ConfigError(f"Syntax error at column {i + 1} of EmitEachSelector message template: expected `{{` "
                              "after `@`")
        end, path = _scoped_path(template, i + 2)
        if text:
            parts.append("".join(text))
            text = []
        parts.append(path)
        i = end
    if text:
        parts.append("".join(text))
    return parts


def _scoped_path(text: str, i: int) -> tuple[int, tuple[str, ...]]:
    """Parses ``segment|segment...}`` from ``i``; returns (index after ``}``, path)."""
    segments: list[str] = []
    current: list[str] = []
    while i < len(text):
        ch = text[i]
        if ch in "'\"":
            close = text.find(ch, i + 1)
            if close < 0:
                break
            current.append(text[i + 1:close])
            i = close + 1
        elif ch in "|}":
            segment = "".join(current).strip()
            if not segment:
                raise ConfigError(f"Syntax error at column {i + 1} of EmitEachSelector message template: "
                                  "empty attribute path segment")
            segments.append(segment)
            current = []
            i += 1
            if ch == "}":
                return i, tuple(segments)
        else:
            current.append(ch)
            i += 1
    raise ConfigError("Syntax error of EmitEachSelector message template: unclosed `@{`")


def _message_text(value: Any, node_value: bool) -> str:
    """The reference's ``AttributeValue.toMessageString`` for an attribute of the selector
    engine: shapes and IDs as IDs, node values as compact JSON, projections sorted in
    brackets, the empty value as nothing."""
    if hasattr(value, "flat"):
        return "[" + listed((_message_text(v, node_value) for v in value.flat()), sort=True) + "]"
    if type(value).__name__ == "_TraitsAttr":
        return ""
    for attr in ("shape_id", "node"):
        if isinstance(getattr(value, attr, None), str):
            return getattr(value, attr)
    if isinstance(value, (dict, list)) or (node_value and isinstance(value, (str, int, float, bool))):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    return ""


def emit_each_selector(config: dict[str, Any]) -> Validator:
    """``EmitEachSelector``: an event (DANGER) for each shape the ``selector`` yields, only
    those with ``bindToTrait`` when it is set (located at that trait), with the message
    ``messageTemplate`` expands (``@{...}`` scoped attributes of the shape and the
    selector's variables) or "Selector capture matched selector: <selector>".

    Reference ``EmitEachSelectorValidator`` (smithy-model linters).
    """
    config = config_object(config)
    text, selector = config_required_selector(config, "selector")
    bind = config_string(config, "bindToTrait")
    if bind is not None:
        bind = ShapeId.absolute(bind, PRELUDE_NAMESPACE)
    template_text = config_string(config, "messageTemplate")
    template = _parse_template(template_text) if template_text is not None else None

    def validate(model: Model) -> Iterator[Diagnostic]:
        engine = model.knowledge(SelectorEngine)
        if bind is not None and not any(bind in t for _, t in _all_traits(model)):
            return
        if template is None:
            for node in sorted(engine.select(selector)):
                if bind is None or bind in engine.traits(node):
                    yield event(model, "S3590", node, f"Selector capture matched selector: {text}", trait=bind)
            return
        for start in engine.all_nodes():
            variables: dict[str, set[str]] = {}
            for node in sorted(engine.run(selector, {start}, variables)):
                if bind is not None and bind not in engine.traits(node):
                    continue
                message = "".join(
                    part if isinstance(part, str)
                    else _message_text(engine.attribute(node, part, variables), "trait" in part[:-1])
                    for part in template)
                yield event(model, "S3590", node, message, trait=bind)

    return validate


def _all_traits(model: Model) -> Iterator[tuple[str, dict[str, Any]]]:
    for shape in model.shapes.values():
        yield shape.id, shape.traits
        for member in shape.members.values():
            yield member.id, member.traits


def emit_none_selector(config: dict[str, Any]) -> Validator:
    """``EmitNoneSelector``: one event (DANGER, about no shape) when the ``selector``
    yields no shape outside the built-in prelude and trait packages.

    Reference ``EmitNoneSelectorValidator`` (smithy-model linters).
    """
    config = config_object(config)
    text, selector = config_required_selector(config, "selector")

    def validate(model: Model) -> Iterator[Diagnostic]:
        matched = model.knowledge(SelectorEngine).select(selector)
        if not any(not model.is_prelude(node) for node in matched):
            yield event(model, "S3591", "", f"Expected at least one shape to match selector: {text}")

    return validate


# --------------------------------------------------------------------------- UnreferencedShape


def id_ref_targets(model: Model, traits: dict[str, Any], namespace: str) -> list[str]:
    """The shapes that values of ``traits`` name where the trait's shape has ``@idRef``
    (reference ``NeighborProvider.withIdRefRelationships``)."""
    out: list[str] = []
    for tid, value in traits.items():
        if tid not in model.shapes:
            continue
        stack: list[tuple[Any, str, dict[str, Any]]] = [(value, tid, {})]
        while stack:
            val, shape_id, member_traits = stack.pop()
            shape = model.shapes.get(shape_id)
            if shape is None:
                continue
            if isinstance(val, str) and (ID_REF in member_traits or ID_REF in shape.traits):
                target = ShapeId.absolute(val, namespace) if "#" not in val and "$" not in val else val
                if target not in model.shapes and "#" not in val:
                    target = ShapeId.absolute(val, PRELUDE_NAMESPACE)
                if ShapeId.root(target) in model.shapes:
                    out.append(ShapeId.root(target))
                continue
            if isinstance(val, dict) and shape.type in ("structure", "union"):
                for key, item in val.items():
                    member = shape.members.get(key)
                    if member is not None:
                        stack.append((item, member.target, member.traits))
            elif isinstance(val, dict) and shape.type == "map":
                member = shape.members.get("value")
                if member is not None:
                    stack.extend((item, member.target, member.traits) for item in val.values())
            elif isinstance(val, list) and shape.type in ("list", "set"):
                member = shape.members.get("member")
                if member is not None:
                    stack.extend((item, member.target, member.traits) for item in val)
    return out


def unreferenced_shapes(model: Model, roots: Iterable[str]) -> list[str]:
    """Shapes (not members, not built in) that no relationship or ``@idRef`` trait value
    connects to ``roots``, trait definitions or ``@metadata`` shapes (reference
    ``UnreferencedShapes``), sorted."""
    index = model.knowledge(NeighborIndex)
    starts = list(roots)
    starts += [s.id for s in model.shapes.values() if TRAIT in s.traits or METADATA in s.traits]
    connected: set[str] = set()
    stack = list(starts)
    while stack:
        node = stack.pop()
        if node in connected:
            continue
        connected.add(node)
        stack.extend(rel.neighbor for rel in index.neighbors(node) if rel.is_valid and rel.neighbor not in connected)
        obj = model.member(node) if "$" in node else model.shapes.get(node)
        if obj is not None and obj.traits:
            stack.extend(t for t in id_ref_targets(model, obj.traits, ShapeId.namespace(node)) if t not in connected)
    return sorted(s.id for s in model.shapes.values() if s.id not in connected and not model.is_prelude(s.id))


def unreferenced_shape(config: dict[str, Any]) -> Validator:
    """``UnreferencedShape``: a NOTE for each shape not connected to a shape the
    ``rootShapeSelector`` (default ``service``) yields.

    Reference ``UnreferencedShapeValidator`` (smithy-model linters).
    """
    config = config_object(config, ("rootShapeSelector",))
    found = config_selector(config, "rootShapeSelector")
    text, selector = found if found is not None else ("service", parse_selector("service"))

    def validate(model: Model) -> Iterator[Diagnostic]:
        roots = sorted(model.knowledge(SelectorEngine).select(selector))
        for shape_id in unreferenced_shapes(model, roots):
            yield event(model, "S3592", shape_id, "This shape is unreferenced. It has no modeled connections to "
                        f"shapes that match the following selector: `{text}`",
                        hint="remove the shape, or connect it to a service")

    return validate


__all__ = [
    "ValidatorDefinition", "check_configured_validators", "emit_each_selector", "emit_none_selector",
    "factories", "id_ref_targets", "load_definitions", "unreferenced_shape", "unreferenced_shapes",
]
