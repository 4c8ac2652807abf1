"""Validators a model turns on in its ``validators`` metadata (Smithy 2.0 "Model
validation" §"Validators"; the reference's ``ValidationLoader``, ``ValidatorDefinition``,
``ValidatorFromDefinitionFactory``, ``ValidatorService`` and ``ModelValidator``).

Each entry of the ``validators`` list names a validator (``name``) and may give its
``configuration``, the ``id`` its events take (the first segment of their event IDs; the
name by default), a ``severity`` (``DANGER``, ``WARNING`` or ``NOTE``) and a ``message``
(``{super}`` stands for the original message) for its events, and ``namespaces`` and a
``selector`` that restrict the shapes its events may be about.

The validators that can be named are the functions marked
:func:`~smithy2cfn.checks.configurable` (``configuration → validator`` factories, each with
the name an entry gives it and the codes it reports): ``EmitEachSelector``,
``EmitNoneSelector`` and ``UnreferencedShape`` (smithy-model's linters, here), and the
linters of :mod:`smithy2cfn.validation.smithy_linters`. They are found through the catalog
(:func:`configurable_named`), which imports only the module of the one named. An unknown
name is a ``UnknownValidator_<name>`` WARNING; a configuration the validator cannot be made
from is an ERROR (``Model``); a validator that reports a code it does not declare, or fails,
is an internal error (``S3099``), as the runner does for validators.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator

from smithy2cfn.checks import Check, configurable, runnable, shipped, validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.languages.selector import SelectorEngine, SelectorError, parse_selector
from smithy2cfn.model.nodes import node_type
from smithy2cfn.model.shapes import Model, ShapeId
from smithy2cfn.model.unreferenced import unreferenced_shapes
from smithy2cfn.records import Record, replace
from smithy2cfn.validation.support.configuration import (
    ConfigError,
    Validator,
    config_object,
    config_required_selector,
    config_selector,
    config_string,
)
from smithy2cfn.validation.support.events import event

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_PROPERTIES = ("name", "id", "message", "severity", "namespaces", "selector", "configuration")
_SEVERITIES = {"DANGER": Severity.DANGER, "WARNING": Severity.WARNING, "NOTE": Severity.NOTE}


# --------------------------------------------------------------------------- the definitions


class ValidatorDefinition(Record):
    """One entry of the ``validators`` metadata (reference ``ValidatorDefinition``)."""

    __slots__ = ("name", "id", "message", "severity", "namespaces", "selector", "configuration")
    name: str
    id: str
    message: str | None
    severity: Severity | None
    namespaces: list[str]
    selector: tuple | None
    configuration: dict[str, Any]

    def __init__(self, name: str, id: str, message: str | None = None, severity: Severity | None = None,
                 namespaces: list[str] | None = None, selector: tuple | None = None,
                 configuration: dict[str, Any] | None = None) -> None:
        self.name = name
        self.id = id
        self.message = message
        self.severity = severity
        self.namespaces = [] if namespaces is None else namespaces
        self.selector = selector
        self.configuration = {} if configuration is None else configuration

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
            yield replace(
                d, event_id=new, hint=hint, severity=self.severity if self.severity is not None else d.severity,
                message=self.message.replace("{super}", d.message) if self.message is not None else d.message)


def _model_error(model: Model, message: str, code: str = "S3580", severity: Severity | None = None) -> Diagnostic:
    return event(model, code, "", message, severity=severity,
                 hint="fix the `validators` metadata (model-validation.rst, Validators)")


def _ticked(values: Iterable[str]) -> str:
    """The reference's ``ValidationUtils.tickedList``: sorted, in backticks."""
    return ", ".join(f"`{v}`" for v in sorted(values))


def load_definitions(model: Model) -> tuple[list[ValidatorDefinition], list[Diagnostic]]:
    """The entries of the ``validators`` metadata, and the problems of the malformed ones
    (each is left out): ``S3580`` ERRORs, and an ``S3583`` WARNING for an entry's unknown
    properties (which the reference logs). Messages are the reference's
    (``ValidationLoader.loadValidators``, the ``Node`` expectations it uses)."""
    if "validators" not in model.metadata:
        return [], []
    value = model.metadata["validators"]
    if not isinstance(value, list):
        return [], [_model_error(model, f"validators must be an array. Found {node_type(value)}.")]
    out: list[ValidatorDefinition] = []
    problems: list[Diagnostic] = []
    for entry in value:
        if not isinstance(entry, dict):
            problems.append(_model_error(model, "Each element of `validators` must be an object. Found "
                                                f"{node_type(entry)}."))
            continue
        extra = [k for k in entry if k not in _PROPERTIES]
        if extra:
            problems.append(_model_error(model, f"Expected an object with possible properties of {_ticked(_PROPERTIES)}"
                                                f", but found additional properties: {_ticked(extra)}", code="S3583"))
        try:
            out.append(_definition(entry))
        except ConfigError as e:
            problems.append(_model_error(model, str(e)))
    return out, problems


def _optional_string(entry: dict[str, Any], key: str) -> str | None:
    """``ObjectNode.getStringMember``: absent, or a string."""
    if key in entry and not isinstance(entry[key], str):
        raise ConfigError(f"Expected `{key}` to be a string; found {node_type(entry[key])}")
    return entry.get(key)


def _definition(entry: dict[str, Any]) -> ValidatorDefinition:
    """One entry, read as the reference's ``ValidationLoader.loadSingleValidator`` does (the
    first problem it meets raises :class:`ConfigError`)."""
    if "name" not in entry:
        raise ConfigError("Missing expected member `name`.")
    name = entry["name"]
    if not isinstance(name, str):
        raise ConfigError(f"Expected `name` member to be a string, but found {node_type(name)}.")
    ident = _optional_string(entry, "id")
    definition = ValidatorDefinition(name, name if ident is None else ident, _optional_string(entry, "message"))
    severity = _optional_string(entry, "severity")
    if severity is not None:
        if severity not in _SEVERITIES:
            raise ConfigError(f"Expected one of {_ticked(_SEVERITIES)}; got `{severity}`.")
        definition.severity = _SEVERITIES[severity]
    if "namespaces" in entry:
        spaces = entry["namespaces"]
        if not isinstance(spaces, list):
            raise ConfigError(f"Expected `namespaces` to be an array of strings. Found {node_type(spaces)}.")
        for i, space in enumerate(spaces):
            if not isinstance(space, str):
                raise ConfigError(f"Expected array element {i} to be a string but found {node_type(space)}.")
        definition.namespaces = list(spaces)
    if "configuration" in entry:
        if not isinstance(entry["configuration"], dict):
            raise ConfigError(f"Expected `configuration` to be an object; found {node_type(entry['configuration'])}")
        definition.configuration = entry["configuration"]
    selector = _optional_string(entry, "selector")
    if selector is not None:
        try:
            definition.selector = parse_selector(selector)
        except SelectorError as e:
            raise ConfigError(str(e)) from None
    return definition


# --------------------------------------------------------------------------- finding a validator by name


#: The package whose modules hold the configurable validators (searched without a catalog).
_STAGE = "smithy2cfn.validation"


def configurable_named(name: str) -> Check | None:
    """The configurable validator a ``validators`` entry calls ``name`` (its
    :class:`~smithy2cfn.checks.Check`, ``run`` its factory), or ``None``.

    Found in the shipped catalog (:func:`smithy2cfn.checks.runnable`), which imports only the
    module that defines it; without a catalog, by importing every module of the validation
    stage (slower, the same validators).

    Raises:
        ImportError, AttributeError: a catalog entry names no function (a stale catalog:
            ``tests/api/test_catalog.py`` fails first).
    """
    found = runnable("configurable", _STAGE, lambda unit: unit.name == name)
    return found[0] if found else None


def _internal(unit: Check, what: str) -> Diagnostic:
    """The runner's internal error (``S3099``) for a configurable validator that failed or
    reported a code it does not declare."""
    return Diagnostic("S3099", Severity.ERROR,
                      f"internal error in configured validator {unit.name} ({unit.module}.{unit.function}: {what}); "
                      "the model cannot be accepted because its checks did not all run",
                      hint="please report this as a smithy2cfn bug, with the model")


@validator(Code("S3580", Severity.ERROR, "Model",
                "the `validators` metadata is not a list of objects, or an entry lacks `name` or has a bad "
                "`id`, `message`, `severity`, `namespaces`, `selector` or `configuration`"),
           Code("S3581", Severity.WARNING, "UnknownValidator",
                "a `validators` entry names no known validator (event `UnknownValidator_<name>`)"),
           Code("S3582", Severity.ERROR, "Model",
                "a configured validator cannot be created from its `configuration`"),
           Code("S3583", Severity.WARNING, "Model", "a `validators` entry has an unknown property"),
           "S3099",
           rule="reference ModelValidator.loadModelValidators, ValidationLoader and ValidatorDefinition "
                "(smithy-model); Smithy 2.0 model-validation.rst, Validators")
def check_configured_validators(model: Model) -> Iterable[Diagnostic]:
    """Run the validators that the ``validators`` metadata turns on, with each entry's
    ``id``, ``severity``, ``message``, ``namespaces`` and ``selector``.

    Spec: model-validation.rst §"Validators". Reference ``ModelValidator``
    (``loadModelValidators``), ``ValidationLoader`` and ``ValidatorDefinition``: a malformed
    entry is an ERROR (``Model``, ``S3580``; unknown properties an ``S3583`` WARNING); an
    unknown validator name a WARNING ``UnknownValidator_<name>`` (``S3581``); a
    configuration the validator cannot be made from an ERROR ``Model`` (``S3582``, "Error
    creating `Name` validator: ..."). The configured validators report their own codes
    (each declares them, :func:`smithy2cfn.checks.configurable`); one that reports another
    code, or fails, is an internal error ``S3099`` naming it, and the others still run.

    An event without a location of its own (the reference's events about no shape, such
    as a malformed entry or ``EmitNoneSelector``'s) is located at the ``validators``
    metadata key.
    """
    where = model.metadata_spans.get("validators")
    for d in _configured_validators(model):
        yield replace(d, span=where) if d.span is None and where is not None else d


def _configured_validators(model: Model) -> Iterable[Diagnostic]:
    definitions, problems = load_definitions(model)
    seen: set[Diagnostic] = set()
    for d in problems:
        if d not in seen:  # the reference's events are a set
            seen.add(d)
            yield d
    for definition in definitions:
        unit = configurable_named(definition.name)
        if unit is None or unit.run is None:
            yield event(model, "S3581", "", f"Unable to locate a validator named `{definition.name}`",
                        event_id=f"UnknownValidator_{definition.name}",
                        hint=f"the validators smithy2cfn knows: {listed(sorted(_known_names()))}")
            continue
        try:
            configured = unit.run(definition.configuration)
        except ConfigError as e:
            d = event(model, "S3582", "", f"Error creating `{definition.name}` validator: {e}")
            if d not in seen:
                seen.add(d)
                yield d
            continue
        except Exception as e:  # noqa: BLE001 - a validator bug must not become a traceback
            yield _internal(unit, f"{type(e).__name__}: {str(e)[:200]}")
            continue
        allowed = frozenset(unit.codes)
        try:
            for d in definition.map(model, configured(model)):
                if d.code not in allowed:
                    yield _internal(unit, f"it reported {d.code}, a code it does not declare ({d.message[:200]})")
                elif d not in seen:
                    seen.add(d)
                    yield d
        except Exception as e:  # noqa: BLE001 - a validator bug must not become a traceback
            yield _internal(unit, f"{type(e).__name__}: {str(e)[:200]}")


def _known_names() -> set[str]:
    """The names of every configurable validator (from the catalog: no module imported)."""
    return {unit.name for unit in shipped("configurable") or runnable("configurable", _STAGE)}


@functools.cache
def unit_codes() -> frozenset[str]:
    """Every code a configurable validator declares: what :func:`check_configured_validators`
    may pass on (it holds each unit to its own codes; the runner reads this as the attribute
    ``unit_codes`` of the validator)."""
    return frozenset(code for unit in shipped("configurable") or runnable("configurable", _STAGE)
                     for code in unit.codes)


check_configured_validators.unit_codes = unit_codes  # type: ignore[attr-defined]


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


@configurable("EmitEachSelector",
              Code("S3590", Severity.DANGER, "EmitEachSelector",
                   "configured `EmitEachSelector`: a shape matches the selector (event, severity and message as "
                   "configured)", also=(Severity.ERROR, Severity.WARNING, Severity.NOTE,)),
              rule="reference EmitEachSelectorValidator (smithy-model linters); Smithy 2.0 "
                   "model-validation.rst, "
                   "EmitEachSelector")
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
    if bind is not None and "#" not in bind:
        # (ShapeId.fromNode: an absolute shape ID, `smithy.api#sensitive`)
        raise ConfigError(f"Deserialization error at (/bindToTrait): unable to create "
                          f"software.amazon.smithy.model.shapes.ShapeId from \"{bind}\": Unable to deserialize Node "
                          f"using fromNode method: Invalid shape ID: {bind}")
    template_text = config_string(config, "messageTemplate")
    template = _parse_template(template_text) if template_text is not None else None

    def run_emit_each_selector(model: Model) -> Iterator[Diagnostic]:
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

    return run_emit_each_selector


def _all_traits(model: Model) -> Iterator[tuple[str, dict[str, Any]]]:
    for shape in model.shapes.values():
        yield shape.id, shape.traits
        for member in shape.members.values():
            yield member.id, member.traits


@configurable("EmitNoneSelector",
              Code("S3591", Severity.DANGER, "EmitNoneSelector",
                   "configured `EmitNoneSelector`: no shape matches the selector",
                   also=(Severity.ERROR, Severity.WARNING, Severity.NOTE,)),
              rule="reference EmitNoneSelectorValidator (smithy-model linters); Smithy 2.0 "
                   "model-validation.rst, "
                   "EmitNoneSelector")
def emit_none_selector(config: dict[str, Any]) -> Validator:
    """``EmitNoneSelector``: one event (DANGER, about no shape) when the ``selector``
    yields no shape outside the built-in prelude and trait packages.

    Reference ``EmitNoneSelectorValidator`` (smithy-model linters).
    """
    config = config_object(config)
    text, selector = config_required_selector(config, "selector")

    def run_emit_none_selector(model: Model) -> Iterator[Diagnostic]:
        matched = model.knowledge(SelectorEngine).select(selector)
        if not any(not model.is_prelude(node) for node in matched):
            yield event(model, "S3591", "", f"Expected at least one shape to match selector: {text}")

    return run_emit_none_selector


# --------------------------------------------------------------------------- UnreferencedShape


@configurable("UnreferencedShape",
              Code("S3592", Severity.NOTE, "UnreferencedShape",
                   "configured `UnreferencedShape`: a shape is not connected to a root shape",
                   also=(Severity.DANGER, Severity.WARNING,)),
              rule="reference UnreferencedShapeValidator (smithy-model linters); Smithy 2.0 "
                   "guides/model-linters.rst, UnreferencedShape")
def unreferenced_shape(config: dict[str, Any]) -> Validator:
    """``UnreferencedShape``: a NOTE for each shape not connected to a shape the
    ``rootShapeSelector`` (default ``service``) yields.

    Reference ``UnreferencedShapeValidator`` (smithy-model linters).
    """
    config = config_object(config, ("rootShapeSelector",))
    found = config_selector(config, "rootShapeSelector")
    text, selector = found if found is not None else ("service", parse_selector("service"))

    def run_unreferenced_shape(model: Model) -> Iterator[Diagnostic]:
        roots = sorted(model.knowledge(SelectorEngine).select(selector))
        for shape_id in sorted(s for s in unreferenced_shapes(model, roots) if not model.is_prelude(s)):
            yield event(model, "S3592", shape_id, "This shape is unreferenced. It has no modeled connections to "
                        f"shapes that match the following selector: `{text}`",
                        hint="remove the shape, or connect it to a service")

    return run_unreferenced_shape


__all__ = [
    "ValidatorDefinition", "check_configured_validators", "configurable_named", "emit_each_selector",
    "emit_none_selector", "load_definitions", "unreferenced_shape",
]
