"""``smithy2cfn diff`` on the corpus of model pairs (``fixtures/pairs``, one per rule that
triggers it and one close to it that does not; ``fixtures/schema-pairs`` for what no model
reaches; see ``tools/record_guardrail_diff.py``):

* every rule a case triggers is reported (guard-rail's under its check ID as ``ruleId``,
  ours under its code), and none a case lists as absent;
* every guard-rail stateful finding recorded for the pair (``"guardrail"``, re-checked against
  guard-rail itself by ``test_pairs_corpus.py``), and the ones guard-rail is known to miss, is
  a finding under the same ID;
* every finding is located in a model of the pair (or its schema file), at a line;
* the pair in reverse order is compared too, with its own verdict.

Prints passed/total per suite.
"""

from __future__ import annotations

import importlib.util

import pytest

from conftest import REPO, record_result
from smithy2cfn import api

_SPEC = importlib.util.spec_from_file_location("record_guardrail_diff", REPO / "tools" / "record_guardrail_diff.py")
corpus = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(corpus)

CASES = corpus.case_dirs()


def _diff(case, reverse: bool = False) -> api.DiffResult:
    old, new = ("new", "old") if reverse else ("old", "new")
    if case.kind == "schema-pairs":
        return api.diff(old_schemas=case.path / old, new_schemas=case.path / new)
    return api.diff([case.path / old], [case.path / new], overrides=case.data["settings"])


def _ids(result: api.DiffResult) -> set[str]:
    return {x for t in result.types for f in t.findings for x in (f.rule_id, f.diagnostic.code) if x}


@pytest.mark.parametrize("kind,path", CASES, ids=[f"{k}/{p.name}" for k, p in CASES])
def test_diff_reports_the_case(kind, path):
    ok = False
    try:
        case = corpus.load_case(kind, path)
        result = _diff(case)
        assert result.old is not None and result.new is not None, result.diagnostics
        found = _ids(result)
        data = case.data
        assert set(data["triggers"]) <= found, sorted(set(data["triggers"]) - found)
        assert not set(data["absent"]) & found, sorted(set(data["absent"]) & found)
        judged = set(data["guardrail"]) | set(data.get("guardrailMisses", []))
        assert judged <= found, f"guard-rail's {sorted(judged - found)} not reported"
        for t in result.types:
            for f in t.findings:
                span = f.diagnostic.span
                assert span is not None and span.path.startswith(str(path)), (f.diagnostic, path)
                if kind == "pairs":
                    assert span.line > 0, f.diagnostic
        if path.name == "identical":
            assert [f for t in result.types for f in t.findings] == []
        breaking = any(i in found for i in data["triggers"] if not i.startswith("S73"))
        assert (result.verdict == "major") == breaking or not data["triggers"], (result.verdict, data["triggers"])
        assert _diff(case, reverse=True).old is not None
        ok = True
    finally:
        record_result("diff corpus (every trigger and guard-rail finding reported, none absent)",
                      f"{kind}/{path.name}", ok)
