"""Every published AWS service model (``../shared/conformance/aws-all``), in one pass each:

* the reference's verdict: every model is accepted with no ERROR or DANGER, except
  cloudwatch-2010-08-01, which the reference rejects with its ``QueryErrorCode`` validator
  (two error shapes share one ``awsQueryError`` code) — counted as ``aws-all (verdict)`` and
  held to a floor;
* ``ast`` gives back the input: the JSON AST written from the loaded model equals the model
  file, list entries the file repeats collapsed to one (the reference writes shape ID lists
  as sets, ordered by ``ShapeId.compareTo``) — counted as ``aws-all (ast equal)``;
* ``build`` (load, validate, convert with no settings, nothing written) exits 0 on every
  model the reference accepts (most have no ``cfnResource``: they build nothing, with the
  ``S4012`` warning) and 1 on cloudwatch — counted as ``aws-all (build exit)``;
* no Python warning is raised on any of them (it would reach stderr in the CLI).

Speed is measured by ``benchmarks/bench_aws_all.py``, not here.
"""

from __future__ import annotations

import json
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

from conftest import record_result
from smithy2cfn.api import build, convert, load, validate
from smithy2cfn.diagnostics import Diagnostic
from smithy2cfn.model.json_ast import model_to_json_ast, render_json_ast

#: Models the reference rejects, and the event it rejects them with.
REFERENCE_REJECTS = {"cloudwatch-2010-08-01": "QueryErrorCode"}
#: Fewest models given the reference's verdict (a ratchet: raise it, never lower it). The
#: others are listed in the branch report with the diagnostics that reject them.
VERDICT_FLOOR = 402


def same_model(written: Any, original: Any) -> bool:
    """True when ``written`` equals ``original``, where a list of ``written`` may also be the
    list of ``original`` with its repeated entries dropped (the first of each kept)."""
    stack = [(written, original)]
    while stack:
        a, b = stack.pop()
        if isinstance(a, dict) and isinstance(b, dict):
            if a.keys() != b.keys():
                return False
            stack.extend((a[k], b[k]) for k in a)
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                firsts: dict[str, Any] = {}
                for item in b:
                    firsts.setdefault(json.dumps(item, sort_keys=True), item)
                b = list(firsts.values())
                if len(a) != len(b):
                    return False
            stack.extend(zip(a, b, strict=True))
        elif a != b or type(a) is not type(b):
            return False
    return True


def test_same_model_allows_collapsed_repeats_only():
    original = {"errors": [{"target": "B"}, {"target": "a"}, {"target": "B"}], "tags": ["x", "x"]}
    assert same_model({"errors": [{"target": "B"}, {"target": "a"}], "tags": ["x", "x"]}, original)
    assert same_model({"errors": [{"target": "B"}, {"target": "a"}], "tags": ["x"]}, original)
    assert not same_model({"errors": [{"target": "a"}, {"target": "B"}], "tags": ["x"]}, original)
    assert not same_model({"errors": [{"target": "B"}], "tags": ["x"]}, original)
    assert not same_model({"errors": [{"target": "B"}, {"target": "a"}]}, original)


def test_aws_all_models(aws_all_models: list[Path]) -> None:
    wrong: dict[str, list[str]] = {}
    ast_differs: list[str] = []
    build_wrong: dict[str, list[str]] = {}
    raised: list[str] = []
    for path in aws_all_models:
        with warnings.catch_warnings(record=True) as found:
            warnings.simplefilter("always")
            checked = validate(load([path]))
            model, diags = checked.model, checked.diagnostics
            bad: list[Diagnostic] = [d for d in diags if d.is_error]
            if checked.ok:
                diags = diags + convert(model, {}, extensions=[]).diagnostics
            written = json.loads(render_json_ast(model_to_json_ast(model)))
        raised += [f"{path.stem}: {w.category.__name__}: {w.message}" for w in found]
        build_exit = 1 if any(d.is_error for d in diags) else 0
        build_right = build_exit == (1 if path.stem in REFERENCE_REJECTS else 0)
        record_result("aws-all (build exit)", path.stem, build_right)
        if not build_right:
            build_wrong[path.stem] = [d.format_text() for d in diags if d.is_error][:3]
        expected = REFERENCE_REJECTS.get(path.stem)
        if expected is None:
            right = not bad
        else:
            right = any(d.event_id == expected for d in bad) and all(d.event_id == expected for d in bad)
        record_result("aws-all (verdict)", path.stem, right)
        if not right:
            wrong[path.stem] = [f"{d.code} {d.event_id} {d.shape_id}: {d.message[:100]}" for d in bad] or \
                [f"accepted, but the reference rejects it with {expected}"]
        equal = same_model(written, json.loads(path.read_text(encoding="utf-8")))
        record_result("aws-all (ast equal)", path.stem, equal)
        if not equal:
            ast_differs.append(path.stem)
    causes = Counter(f"{name}: {line}" for name, lines in wrong.items() for line in lines)
    assert len(aws_all_models) - len(wrong) >= VERDICT_FLOOR, (
        f"{len(aws_all_models) - len(wrong)}/{len(aws_all_models)} verdicts right, fewer than {VERDICT_FLOOR}:\n"
        + "\n".join(f"{n} x {c}" for c, n in causes.most_common(40)))
    assert not ast_differs, f"`ast` differs from the input: {ast_differs[:20]}"
    assert len(aws_all_models) - len(build_wrong) >= VERDICT_FLOOR, build_wrong
    assert not raised, raised[:20]


def test_a_model_defining_its_own_unit_without_cfn_resource_builds_nothing(tmp_path: Path) -> None:
    # shield, connect, fsx... define `<namespace>#Unit` (an enum of units) and have no
    # cfnResource: `build` writes nothing, warns S4012 and exits 0, as the reference's
    # plugin does (issue 8).
    model = {
        "smithy": "2.0",
        "shapes": {
            "ex.svc#Svc": {"type": "service", "version": "1", "operations": [{"target": "ex.svc#Get"}]},
            "ex.svc#Get": {"type": "operation", "input": {"target": "ex.svc#GetInput"},
                           "output": {"target": "smithy.api#Unit"}},
            "ex.svc#GetInput": {"type": "structure", "members": {"unit": {"target": "ex.svc#Unit"}},
                                "traits": {"smithy.api#input": {}}},
            "ex.svc#Unit": {"type": "enum", "members": {
                "BITS": {"target": "smithy.api#Unit", "traits": {"smithy.api#enumValue": "BITS"}}}},
        },
    }
    path = tmp_path / "svc.json"
    path.write_text(json.dumps(model), encoding="utf-8")
    out = tmp_path / "out"
    result = build([path], out, {}, extensions=[])
    assert result.exit_code == 0, [d.format_text() for d in result.diagnostics]
    assert [d.code for d in result.diagnostics if d.code.startswith("S4")] == ["S4012"]
    assert not result.schemas and not out.exists()
    # the control: the same model with an error in it fails the build
    model["shapes"]["ex.svc#Get"]["output"] = {"target": "ex.svc#Missing"}
    path.write_text(json.dumps(model), encoding="utf-8")
    assert build([path], out, {}, extensions=[]).exit_code == 1
