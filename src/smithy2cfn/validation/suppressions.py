"""Suppressions, severity overrides, and the order in which validation events count.

Smithy 2.0 "Model validation" (model-validation.rst):

* §"Suppressions": a suppression hides validation events whose event ID matches it
  hierarchically (``Foo`` matches ``Foo`` and ``Foo.Bar``, not ``FooBar``).
  ``@suppress([...])`` applies to events on the shape or member that has the trait (the
  reference's ``TraitSuppression``: the event's own shape only); ``metadata suppressions =
  [{id, namespace, reason}]`` to events on shapes of that namespace, or to every event
  (shape-less ones included) with ``"*"``. ERROR events cannot be suppressed.
* §"Severity overrides": ``metadata severityOverrides = [{id, namespace, severity}]`` raises
  the severity of matching events to ``WARNING`` or ``DANGER`` (never lowers it, never to
  ``ERROR``); a suppression wins over an override (the reference's
  ``ModelBasedEventDecorator``).
* Malformed ``suppressions`` and ``severityOverrides`` metadata are ``Model`` errors with the
  reference's messages (``ModelBasedEventDecorator``); the ``validators`` metadata is read,
  and its problems reported, by :mod:`smithy2cfn.validation.core.configured`.

:func:`finish` orders the events as the reference's ``ModelAssembler`` and ``ModelValidator``
do: a model whose loading failed (an ERROR that is not a validator's event) is not
validated; otherwise an ERROR of the correctness validators (``Target``, ``ResourceCycle``)
hides the events of all the others (which would not have run). The critical validators
(``ValidationUtils.CRITICAL_VALIDATORS``: ``TraitTarget``, ``TraitValue``, ``DefaultTrait``...)
do not hide the others' events: that is the reference's "legacy validation mode", in which
its own validation suites (the errorfiles) are run, so that a model gets every event they
list.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.diagnostics import Code, Diagnostic, Severity, Span, declare_codes
from smithy2cfn.model.nodes import node_type
from smithy2cfn.model.shapes import Model, ShapeId
from smithy2cfn.model.traits import SUPPRESS
from smithy2cfn.records import Record, replace

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S3100", Severity.ERROR, "Model",
         "malformed validation metadata: `suppressions` or `severityOverrides` (a warning for an unknown "
         "property; the `validators` metadata's problems are S3580 and S3583)", also=(Severity.WARNING,)),
)

#: Event IDs of the reference's correctness validators (``ModelValidator.CORRECTNESS_VALIDATORS``),
#: whose errors stop validation before any other validator.
CORRECTNESS_EVENTS = frozenset({"Target", "ResourceCycle"})
#: Event IDs of the reference's critical validators (``ValidationUtils.CRITICAL_VALIDATORS``),
#: whose errors stop validation before the other validators.
CRITICAL_EVENTS = frozenset({
    "EnumShape", "ExclusiveStructureMemberTrait", "TraitTarget", "TraitValue", "TraitConflict",
    "DefaultTrait", "ShapeIdConflict", "SingleOperationBinding", "SingleResourceBinding",
})

_SEVERITY_OVERRIDES = ("WARNING", "DANGER")


def id_matches(event_id: str, suppression_id: str) -> bool:
    """True when ``suppression_id`` equals ``event_id`` or is a dot-segment prefix of it
    (the reference's ``ValidationEvent.containsId``)."""
    return event_id == suppression_id or event_id.startswith(suppression_id + ".")


def stage_of(event_id: str | None) -> int:
    """When an event counts: 0 loading and validation metadata (``Model``, ``Model.*`` and
    events without an ID), 1 correctness validators, 2 critical validators, 3 the others."""
    if event_id is None or event_id == "Model" or event_id.startswith("Model."):
        return 0
    head = event_id.split(".", 1)[0]
    if head in CORRECTNESS_EVENTS:
        return 1
    if head in CRITICAL_EVENTS:
        return 2
    return 3


class Rule(Record, frozen=True):
    """One metadata suppression or severity override: event ``id``, ``namespace`` (``*`` for
    every event) and, for an override, the ``severity`` it raises events to."""

    id: str
    namespace: str
    severity: Severity | None

    def __init__(self, id: str, namespace: str, severity: Severity | None = None) -> None:
        self.__dict__.update(id=id, namespace=namespace, severity=severity)

    def matches(self, event: Diagnostic) -> bool:
        """True when the rule applies to ``event`` (hierarchical ID, namespace of its shape)."""
        if not event.event_id or not id_matches(event.event_id, self.id):
            return False
        if self.namespace == "*":
            return True
        return bool(event.shape_id) and ShapeId.namespace(event.shape_id) == self.namespace


def _metadata_span(model: Model, key: str) -> Span | None:
    return model.metadata_spans.get(key)


def _model_error(model: Model, key: str, message: str, severity: Severity = Severity.ERROR) -> Diagnostic:
    return Diagnostic("S3100", severity, message, _metadata_span(model, key), None,
                      f"fix the `{key}` metadata (model-validation.rst)", event_id="Model")


def _rules(model: Model, key: str, problems: list[Diagnostic]) -> list[Rule]:
    """The entries of the ``suppressions`` or ``severityOverrides`` metadata (``key``); a
    malformed one is left out with a ``Model`` error in ``problems``."""
    if key not in model.metadata:
        return []
    value = model.metadata[key]
    if not isinstance(value, list):
        problems.append(_model_error(model, key, f"Expected array, but found {node_type(value)}."))
        return []
    for i, entry in enumerate(value):
        if not isinstance(entry, dict):
            problems.append(_model_error(model, key, f"Expected array element {i} to be a object but found "
                                                     f"{node_type(entry)}."))
            return []
    out: list[Rule] = []
    allowed = ("id", "namespace", "severity") if key == "severityOverrides" else ("id", "namespace", "reason")
    for entry in value:
        extra = [k for k in entry if k not in allowed]
        if extra:
            problems.append(_model_error(
                model, key, "Expected an object with possible properties of "
                f"{', '.join(f'`{k}`' for k in sorted(allowed))}, but found additional properties: "
                f"{', '.join(f'`{k}`' for k in sorted(extra))}", Severity.WARNING))
        fields: dict[str, str] = {}
        bad = False
        for name in ("id", "namespace", "severity") if key == "severityOverrides" else ("id", "namespace"):
            if name not in entry:
                problems.append(_model_error(model, key, f"Missing expected member `{name}`."))
                bad = True
                break
            if not isinstance(entry[name], str):
                problems.append(_model_error(model, key, f"Expected `{name}` member to be a string, but found "
                                                         f"{node_type(entry[name])}."))
                bad = True
                break
            fields[name] = entry[name]
        if bad:
            continue
        if key == "suppressions" and "reason" in entry and not isinstance(entry["reason"], str):
            problems.append(_model_error(model, key, f"Expected `reason` to be a string; found "
                                                     f"{node_type(entry['reason'])}"))
            continue
        severity = None
        if key == "severityOverrides":
            if fields["severity"] not in _SEVERITY_OVERRIDES:
                problems.append(_model_error(
                    model, key, f"Expected one of {', '.join(f'`{s}`' for s in sorted(_SEVERITY_OVERRIDES))}; "
                    f"got `{fields['severity']}`."))
                continue
            severity = Severity[fields["severity"]]
        out.append(Rule(fields["id"], fields["namespace"], severity))
    return out


def _trait_suppressed(model: Model, event: Diagnostic) -> bool:
    """True when the event's own shape or member has a ``@suppress`` matching its ID."""
    if not event.shape_id or not event.event_id:
        return False
    shape = model.shapes.get(ShapeId.root(event.shape_id))
    if shape is None:
        return False
    name = ShapeId.member(event.shape_id)
    if name is not None:
        member = shape.members.get(name)
        traits = member.traits if member is not None else {}
    else:
        traits = shape.traits
    values = traits.get(SUPPRESS)
    return isinstance(values, list) and any(isinstance(v, str) and id_matches(event.event_id, v) for v in values)


class Decorator:
    """Suppresses and re-grades events as the model's ``@suppress`` traits and
    ``suppressions`` / ``severityOverrides`` metadata say (the reference's
    ``ModelBasedEventDecorator``). :attr:`problems` are the ``Model`` errors of malformed
    metadata."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.problems: list[Diagnostic] = []
        self.suppressions = _rules(model, "suppressions", self.problems)
        self.overrides = _rules(model, "severityOverrides", self.problems)

    def decorate(self, event: Diagnostic) -> Diagnostic | None:
        """``event`` with its severity raised by the overrides that match it, or ``None``
        when a suppression hides it. ERROR events are never changed."""
        if event.severity >= Severity.ERROR:
            return event
        if _trait_suppressed(self.model, event) or (self.suppressions
                                                    and any(s.matches(event) for s in self.suppressions)):
            return None
        severity = event.severity
        for rule in self.overrides:
            if rule.severity is not None and rule.severity > severity and rule.matches(event):
                severity = rule.severity
        return event if severity == event.severity else replace(event, severity=severity)


def loading_failed(events: Iterable[Diagnostic]) -> bool:
    """True when ``events`` (of loading) hold an ERROR that the reference's loader reports
    itself (not a validator's event such as ``Target``): the reference does not validate
    such a model (``ModelAssembler``: "containsErrorEvents")."""
    return any(d.severity >= Severity.ERROR and stage_of(d.event_id) == 0 for d in events)


def finish(model: Model, prior: list[Diagnostic], found: list[Diagnostic],
           suppressed: list[Diagnostic] | None = None) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """Decorate and order events as the reference does (see the module docstring).

    Args:
        model: the validated model.
        prior: the events of loading (already reported).
        found: what the validators found.
        suppressed: when given, receives the events a suppression hid (``@suppress`` or the
            ``suppressions`` metadata), as they were before decorating: those of ``prior``,
            then those of ``found`` of the stages that count (an event of a validator that
            an earlier stage's ERROR stops is not one the reference's build sees). These are
            the events of severity ``SUPPRESSED`` in the reference's ``ValidatedResult``.

    Returns:
        ``(prior, new)``: the loading events as decorated (suppressed ones left out), and the
        validation events that count, in order.
    """
    decorator = Decorator(model)
    hidden_prior: list[Diagnostic] = []
    hidden_new: list[Diagnostic] = []

    def decorate(events: Iterable[Diagnostic], hidden: list[Diagnostic]) -> list[Diagnostic]:
        out = []
        for d in events:
            e = decorator.decorate(d)
            if e is None:
                hidden.append(d)
            else:
                out.append(e)
        return out

    prior = decorate(prior, hidden_prior)
    new = decorate(decorator.problems + found, hidden_new)
    kept: list[Diagnostic] = []
    reached: set[int] = set()
    for stages in ((0,), (1,), (2, 3)):
        if any(d.severity >= Severity.ERROR and stage_of(d.event_id) < stages[0] for d in prior + kept):
            break
        reached.update(stages)
        kept += [d for d in new if stage_of(d.event_id) in stages]
    if suppressed is not None:
        suppressed += hidden_prior
        suppressed += [d for d in hidden_new if stage_of(d.event_id) in reached]
    return prior, kept


def apply_suppressions(model: Model, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` decorated by the model's suppressions and severity overrides
    (:class:`Decorator`): suppressed ones are left out."""
    decorator = Decorator(model)
    return [e for e in (decorator.decorate(d) for d in diagnostics) if e is not None]


def apply_suppressions_or_codes(model: Model, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """:func:`apply_suppressions` for smithy2cfn's own findings (lint, diff), which a
    suppression names by event ID (``CfnLint.GuardRail``, hierarchically) or by code
    (``S6110``): those left by both, decorated by the first (a severity override applies)."""
    kept = apply_suppressions(model, diagnostics)
    by_code = apply_suppressions(model, [replace(d, event_id=d.code) for d in kept])
    survivors = {(d.code, d.message, d.span, d.shape_id) for d in by_code}
    return [d for d in kept if (d.code, d.message, d.span, d.shape_id) in survivors]


__all__ = ["CORRECTNESS_EVENTS", "CRITICAL_EVENTS", "Decorator", "Rule", "apply_suppressions",
           "apply_suppressions_or_codes",
           "finish", "id_matches", "loading_failed", "stage_of"]
