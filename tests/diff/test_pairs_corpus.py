"""The corpus of model pairs for ``smithy2cfn diff`` (issue 17), checked without the diff engine.

``tests/diff/fixtures/pairs/<case>/`` holds ``old/`` and ``new/`` Smithy models and a
``case.json``; ``fixtures/schema-pairs/<case>/`` holds schemas written by hand for what no
model reaches (``tools/record_guardrail_diff.py`` documents the format and records the
``"guardrail"`` lists). Here:

* every case has a valid ``case.json`` and both sides build with smithy2cfn (exit code 0, the
  default registry-ready mode), and a case that triggers a rule changes the schemas;
* when guard-rail is set up (``sh ../shared/tools/guardrail/setup-guardrail.sh``), its
  ``--stateful`` verdict on every pair is the recorded ``"guardrail"`` list, every guard-rail rule a
  case triggers is in it (but for the ones it is known to miss), no rule a case lists as absent,
  and it fails only on the cases known to make it fail (``tools/record_guardrail_diff.verify``).

The ``diff`` command itself is tested elsewhere, against the same corpus.
"""

from __future__ import annotations

import importlib.util
import json

import pytest

from conftest import REPO, record_result

_SPEC = importlib.util.spec_from_file_location("record_guardrail_diff", REPO / "tools" / "record_guardrail_diff.py")
corpus = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(corpus)

CASES = corpus.case_dirs()
_BUILT: dict[tuple[str, str], tuple[dict, dict]] = {}  # (kind, case) -> (old, new): typeName -> schema


def _built(case) -> tuple[dict, dict]:
    key = (case.kind, case.name)
    if key not in _BUILT:
        _BUILT[key] = (corpus.build_side(case, "old", None), corpus.build_side(case, "new", None))
    return _BUILT[key]


def test_the_corpus_has_a_pair_for_every_rule():
    triggered, absent = set(), set()
    for _kind, path in CASES:
        data = json.loads((path / "case.json").read_text(encoding="utf-8"))
        triggered |= set(data.get("triggers", []))
        absent |= set(data.get("absent", []))
    rules = set(corpus.GUARDRAIL_RULES) | {f"S720{i}" for i in range(1, 9)} | {f"S730{i}" for i in range(1, 6)}
    assert sorted(rules - triggered) == []
    assert sorted(rules - absent) == []
    assert any(path.name == "identical" for _, path in CASES)


@pytest.mark.parametrize("kind,path", CASES, ids=[f"{k}/{p.name}" for k, p in CASES])
def test_case_is_valid_and_both_sides_build(kind, path):
    ok = False
    try:
        case = corpus.load_case(kind, path)
        old, new = _built(case)
        assert old or new, "neither side has a resource type"
        if case.data["triggers"]:
            assert old != new, "a case that triggers a rule must change the schemas"
        if path.name == "identical":
            assert old == new and not case.data["triggers"]
        ok = True
    except corpus.CaseError as err:
        pytest.fail(str(err))
    finally:
        record_result("diff corpus (case.json valid, both sides build)", f"{kind}/{path.name}", ok)


def test_guardrail_reports_what_is_recorded(tmp_path):
    why = corpus.guardrail_available()
    if why:
        pytest.skip(why)
    cases = [corpus.load_case(kind, path) for kind, path in CASES]
    verdicts = corpus.judge(cases, tmp_path, sides=lambda case: dict(zip(("old", "new"), _built(case), strict=True)))
    wrong = []
    for case in cases:
        found, error = verdicts[f"{case.kind}/{case.name}"]
        problems = corpus.verify(case, found, error)
        if found != case.data["guardrail"]:
            problems.append(f"{case.name}: recorded {case.data['guardrail']}, guard-rail reports {found}")
        record_result("diff corpus (guard-rail verdict as recorded)", f"{case.kind}/{case.name}", not problems)
        wrong += problems
    assert wrong == [], "run python tools/record_guardrail_diff.py, then review"
