"""Suppressions (Smithy 2.0 "Model validation" §"Suppressions") hide matching warnings."""

from __future__ import annotations

from smithy2cfn.diagnostics import Diagnostics, Severity
from smithy2cfn.load import load_texts
from smithy2cfn.validation import run_validators, suppressed_events, validate_model
from smithy2cfn.validation.suppressions import id_matches

MODEL = """$version: "2"
{metadata}
namespace example.sup

use aws.cloudformation#cfnName

structure Thing {{
    {suppress}
    @cfnName("Other")
    name: String
}}
"""


def _events(metadata: str = "", suppress: str = "") -> list[str]:
    diags = Diagnostics()
    model = load_texts([("m.smithy", MODEL.format(metadata=metadata, suppress=suppress))], diags)
    assert not diags.has_errors, [d.format_text() for d in diags]
    return [d.event_id for d in validate_model(model) if d.shape_id == "example.sup#Thing$name"]


#: The reference's event ID for an unstable trait: ``UnstableTrait.<trait>`` (suppressed by
#: ``UnstableTrait``, hierarchically).
UNSTABLE = "UnstableTrait.aws.cloudformation#cfnName"


def test_unsuppressed_event_is_reported():
    assert UNSTABLE in _events()


def test_suppress_trait_on_the_member():
    assert UNSTABLE not in _events(suppress='@suppress(["UnstableTrait"])')


def test_metadata_suppression_by_namespace():
    entry = 'metadata suppressions = [{{id: "UnstableTrait", namespace: "{ns}"}}]'
    assert UNSTABLE not in _events(metadata=entry.format(ns="example.sup"))
    assert UNSTABLE not in _events(metadata=entry.format(ns="*"))
    assert UNSTABLE in _events(metadata=entry.format(ns="other.ns"))


def test_hierarchical_ids():
    assert id_matches("Foo", "Foo")
    assert id_matches("Foo.Bar", "Foo")
    assert not id_matches("Foo", "Foo.Bar")
    assert not id_matches("ABC123", "ABC")


def _load(metadata: str = "", suppress: str = "", extra: str = ""):
    diags = Diagnostics()
    model = load_texts([("m.smithy", MODEL.format(metadata=metadata, suppress=suppress) + extra)], diags)
    return model, diags


def test_suppressed_events_are_the_hidden_ones():
    """``suppressed_events``: what a suppression hid, with its shape and own severity; an
    event no suppression matches is not among them (filterSuppressions' removeUnused)."""
    model, _ = _load(suppress='@suppress(["UnstableTrait"])')
    hidden = suppressed_events(model)
    assert [(d.event_id, d.shape_id, d.severity) for d in hidden] == \
        [(UNSTABLE, "example.sup#Thing$name", Severity.WARNING)]
    model, _ = _load(suppress='@suppress(["Deprecated"])')
    assert suppressed_events(model) == []
    entry = 'metadata suppressions = [{{id: "UnstableTrait", namespace: "{ns}"}}]'
    model, _ = _load(metadata=entry.format(ns="*"))
    assert [d.event_id for d in suppressed_events(model)] == [UNSTABLE]
    model, _ = _load(metadata=entry.format(ns="other.ns"))
    assert suppressed_events(model) == []


def test_run_validators_records_them_in_the_same_run():
    """A build's one validation gives both: the events that count in ``diags``, the hidden
    ones in ``suppressed`` (the same list ``suppressed_events`` makes)."""
    model, diags = _load(suppress='@suppress(["UnstableTrait"])')
    recorded: list = []
    run_validators(model, diags, suppressed=recorded)
    assert recorded == suppressed_events(model) and len(recorded) == 1
    assert all(d.event_id != UNSTABLE for d in diags)


def test_events_of_validators_an_error_stops_are_not_recorded():
    """A ``Target`` ERROR (an unresolved member target) stops the other validators in the
    reference, so their events, suppressed or not, are not seen: nothing is recorded."""
    model, diags = _load(suppress='@suppress(["UnstableTrait"])', extra="\nstructure Broken { m: NoSuchShape }\n")
    assert any(d.event_id == "Target" and d.severity is Severity.ERROR for d in diags)
    recorded: list = []
    run_validators(model, diags, suppressed=recorded)
    assert recorded == []
