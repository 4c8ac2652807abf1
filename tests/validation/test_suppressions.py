"""Suppressions (Smithy 2.0 "Model validation" §"Suppressions") hide matching warnings."""

from __future__ import annotations

from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.load import load_texts
from smithy2cfn.validation import validate_model
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
