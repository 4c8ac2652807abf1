"""smithy-mqtt-traits: ``smithy.mqtt#publish``, ``#subscribe`` and ``#topicLabel`` (mqtt.rst).

The constraints the trait definitions state with ``@traitValidators`` (no errors, no input
event streams, subscribe output streams...) run in :mod:`smithy2cfn.validation.core.trait_validators`.
This module mirrors the reference's Java parts:

* ``Topic.parse`` (trait creation): a topic must not be empty, must not hold wildcards
  (``+``, ``#``), and each ``{label}`` spans a whole level, is ``[a-zA-Z0-9_]+`` and appears
  once — otherwise ERROR ``Model`` "Error creating trait ..." and the operation has no
  topic for the checks below;
* ``MqttTopicLabelValidator``: every ``@topicLabel`` input member has a label in the topic,
  and every label of the topic has a ``@topicLabel`` input member — ERROR ``MqttTopicLabel``;
* ``MqttTopicConflictValidator`` (with ``ResolvedTopicIndex``/``TopicBinding``): two operations
  whose topics can match the same MQTT topic must have the same payload shape (a publish
  operation's input, a subscribe operation's output event stream) — ERROR
  ``MqttTopicConflict`` on each operation involved.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.model.knowledge_ops import OperationIndex
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import MQTT_PUBLISH, MQTT_SUBSCRIBE, MQTT_TOPIC_LABEL
from smithy2cfn.records import Record
from smithy2cfn.regexes import lazy
from smithy2cfn.validation.support.events import at_trait, diag
from smithy2cfn.validation.support.shapes import event_stream, user_shapes_of_type

_LABEL = lazy(r"[a-zA-Z0-9_]+\Z")


class TopicSyntaxError(ValueError):
    """A malformed MQTT topic (reference ``TopicSyntaxException``)."""


class Level(Record, frozen=True):
    """One ``/``-separated level of a topic: a literal or a ``{label}``."""

    value: str
    is_label: bool

    def __init__(self, value: str, is_label: bool) -> None:
        self.__dict__.update(value=value, is_label=is_label)


def parse_topic(topic: str) -> tuple[Level, ...]:
    """The levels of an MQTT topic (reference ``Topic.parse`` with ``TopicRule.TOPIC``).

    Raises:
        TopicSyntaxError: an empty topic, a wildcard level, a label that is not a whole level,
            a bad label name, or a label used twice.
    """
    if not topic:
        raise TopicSyntaxError("Topics and topic filters may not be empty")
    levels: list[Level] = []
    labels: set[str] = set()
    for level in topic.split("/"):
        if "#" in level or "+" in level:
            raise TopicSyntaxError(f"Wildcard levels are not allowed in MQTT topics. Found `{level}` in `{topic}`")
        if level.startswith("{") and level.endswith("}") and len(level) >= 2:
            label = level[1:-1]
            if not _LABEL.match(label):
                raise TopicSyntaxError(f"Invalid topic label name `{label}` found in `{topic}`")
            if label in labels:
                raise TopicSyntaxError(f"Duplicate topic label `{label}` found in `{topic}`")
            labels.add(label)
            levels.append(Level(label, True))
        elif "{" in level or "}" in level:
            raise TopicSyntaxError(f"Topic labels must span an entire level. Found `{level}` in `{topic}`")
        else:
            levels.append(Level(level, False))
    return tuple(levels)


def topics_conflict(a: tuple[Level, ...], b: tuple[Level, ...]) -> bool:
    """Whether two topics can match the same MQTT topic (reference ``Topic.conflictsWith``):
    level by level, two different literals, or a literal against a label, tell them apart;
    otherwise they conflict when they have as many levels."""
    for x, y in zip(a, b, strict=False):
        if x.value == "#" or y.value == "#":
            return True
        if x.value == "+" or y.value == "+":
            continue
        if not x.is_label and not y.is_label and x.value != y.value:
            return False
        if x.is_label != y.is_label:
            return False
    return len(a) == len(b)


class TopicBinding(Record, frozen=True):
    """An operation's MQTT topic and payload (reference ``TopicBinding``)."""

    operation: str
    trait: str
    topic: str
    levels: tuple[Level, ...]
    payload: str | None

    def __init__(self, operation: str, trait: str, topic: str, levels: tuple[Level, ...],
                 payload: str | None) -> None:
        self.__dict__.update(operation=operation, trait=trait, topic=topic, levels=levels, payload=payload)


def _chosen(topics: list[tuple[str, str, tuple[Level, ...] | None, str]], first: str) -> set[tuple[str, str]]:
    """``(operation, trait)`` of the topic each operation is checked with. An operation with
    both traits (a TraitConflict error) is checked with one: the label check takes
    ``subscribe`` first, the topic index ``publish`` (as the reference). A topic that does not
    parse has no trait in the reference, so the other one is taken."""
    parsed = {(op, trait) for op, trait, levels, _topic in topics if levels is not None}
    return {(op, trait) for op, trait in parsed if trait == first or (op, first) not in parsed}


def _topics(model: Model) -> tuple[list[tuple[str, str, tuple[Level, ...] | None, str]], list[tuple[str, str, str]]]:
    """``(operation, trait, levels or None, topic)`` of every MQTT operation, and
    ``(operation, trait, why)`` of each topic that does not parse."""
    out: list[tuple[str, str, tuple[Level, ...] | None, str]] = []
    problems: list[tuple[str, str, str]] = []
    for shape in user_shapes_of_type(model, "operation"):
        if shape.type != "operation":
            continue
        for trait in (MQTT_SUBSCRIBE, MQTT_PUBLISH):
            topic = shape.traits.get(trait)
            if not isinstance(topic, str):
                continue
            try:
                levels = parse_topic(topic)
            except TopicSyntaxError as e:
                levels = None
                problems.append((shape.id, trait, str(e)))
            out.append((shape.id, trait, levels, topic))
    return out, problems


@validator(Code("S3730", Severity.ERROR, "Model",
                "an MQTT topic (`@smithy.mqtt#publish`/`#subscribe`) is empty, has a wildcard, a label that is not "
                "a whole level, a bad or repeated label"),
           Code("S3731", Severity.ERROR, "MqttTopicLabel",
                "an MQTT topic label has no `@topicLabel` input member, or a `@topicLabel` member no label"),
           rule="reference Topic.parse (trait creation) and MqttTopicLabelValidator (smithy-mqtt-traits); "
                "mqtt.rst, MQTT topic templates and smithy.mqtt#topicLabel trait",
           packages=("smithy.mqtt",))
def check_mqtt_topics(model: Model) -> Iterable[Diagnostic]:
    """Every MQTT topic parses, and its labels match the ``@topicLabel`` input members.

    Spec: mqtt.rst §"MQTT topic templates", §"smithy.mqtt#topicLabel trait"; reference
    ``Topic.parse`` (``S3730``, ERROR ``Model``) and ``MqttTopicLabelValidator`` (``S3731``,
    ERROR ``MqttTopicLabel``). An operation with both traits is checked with ``subscribe``.
    """
    topics, problems = _topics(model)
    for op_id, trait, why in problems:
        yield at_trait(model, diag(model, "S3730", None, op_id, f"Error creating trait `{trait}`: {why}"), trait)
    chosen = _chosen(topics, MQTT_SUBSCRIBE)
    for op_id, trait, levels, _topic in topics:
        if levels is None or (op_id, trait) not in chosen:
            continue
        labels = {level.value for level in levels if level.is_label}
        input_id = model.knowledge(OperationIndex).input_id(op_id)
        structure = model.shapes.get(input_id)
        for member in (structure.members.values() if structure is not None else ()):
            if MQTT_TOPIC_LABEL not in member.traits:
                continue
            if member.name in labels:
                labels.discard(member.name)
            else:
                yield at_trait(model, diag(
                    model, "S3731", None, member.id,
                    f"This member is marked with the `{MQTT_TOPIC_LABEL}` trait, but when this member is used as part "
                    f"of the input of the `{op_id}` operation, a corresponding label cannot be found in the `{trait}` "
                    "trait", hint=f"add `{{{member.name}}}` to the topic, or remove @topicLabel"), MQTT_TOPIC_LABEL)
        if labels:
            yield at_trait(model, diag(
                model, "S3731", None, op_id,
                f"The `{trait}` trait contains the following topic labels that could not be found in the input "
                f"structure of the operation or were not marked with the `{MQTT_TOPIC_LABEL}` trait: "
                f"[{listed(labels, form='`{}`', sort=True)}]",
                hint="add a @required @topicLabel input member of the same name for each label"), trait)


def topic_bindings(model: Model) -> list[TopicBinding]:
    """The topic binding of each MQTT operation whose topic parses (reference
    ``ResolvedTopicIndex``): a publish operation's payload is its input; a subscribe
    operation's is its output event stream's union, and it has no binding without one."""
    out: list[TopicBinding] = []
    topics = _topics(model)[0]
    chosen = _chosen(topics, MQTT_PUBLISH)
    for op_id, trait, levels, topic in topics:
        if levels is None or (op_id, trait) not in chosen:
            continue
        if trait == MQTT_PUBLISH:
            out.append(TopicBinding(op_id, trait, topic, levels, model.knowledge(OperationIndex).input_id(op_id)))
        else:
            stream = event_stream(model, model.knowledge(OperationIndex).output_id(op_id))
            if stream is not None:
                out.append(TopicBinding(op_id, trait, topic, levels, stream.target))
    return out


def _conflict(a: TopicBinding, b: TopicBinding) -> bool:
    """Reference ``TopicBinding.conflictsWith``."""
    if not topics_conflict(a.levels, b.levels):
        return False
    if a.payload is None:
        return b.payload is not None
    if b.payload is None:
        return True
    return a.payload != b.payload


@validator(Code("S3732", Severity.ERROR, "MqttTopicConflict",
                "two MQTT operations bind conflicting topics to different payloads"),
           rule="reference MqttTopicConflictValidator with ResolvedTopicIndex (smithy-mqtt-traits); "
                "mqtt.rst, Topic conflicts",
           packages=("smithy.mqtt",))
def check_mqtt_topic_conflicts(model: Model) -> Iterable[Diagnostic]:
    """No two MQTT operations bind conflicting topics to different payloads.

    Spec: mqtt.rst §"Topic conflicts" ("topics that resolve to the same MQTT topic MUST use
    the same payload"); reference ``MqttTopicConflictValidator``. Code ``S3732`` (ERROR
    ``MqttTopicConflict``) on each operation involved.
    """
    bindings = topic_bindings(model)
    for binding in bindings:
        others = [o for o in bindings if o is not binding and _conflict(o, binding)]
        if not others:
            continue
        described = listed((f"`{o.trait}` trait payload " + (f"`{o.payload}`" if o.payload else "N/A")
                            + f" of `{o.operation}`" for o in others), sort=True)
        yield at_trait(model, diag(
            model, "S3732", None, binding.operation,
            f"This shape resolves to an MQTT topic `{binding.topic}` as part of the `{binding.operation}` operation, "
            f"and its payload of `{binding.payload or 'N/A'}` conflicts with other topic payloads: "
            f"[{described}]",
            hint="use different topics, or the same payload shape"), binding.trait)


__all__ = ["Level", "TopicBinding", "TopicSyntaxError", "check_mqtt_topic_conflicts", "check_mqtt_topics",
           "parse_topic", "topic_bindings", "topics_conflict"]
