"""The reference's smithy-build transform tests as a conformance suite.

Each ``fixtures/cases/<transform>.json`` holds the cases we ported from smithy-build's
``src/test/java/.../build/transforms/<Class>Test.java``: a model (a file of
``fixtures/models/`` that we wrote to exercise what the Java test checks, with our own
namespaces and shapes, or a small model written inline from the Java test's builders), the
transform's ``args``, and what the result must be, derived from the Java test and the
reference's transform code. The end of the run prints passed/total per transform
(``conformance`` section).

A case ported from a test that loads one of the reference's resource files
(``src/test/resources/.../transforms/``) also says, under ``fetched_reference``, that file's
name, the Java test's arguments and what the Java test asserts, in the reference's own shape
IDs: ``test_against_fetched_reference`` runs those on the files of the fetched smithy
repository, when it is there (the reference's files are read only from there).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import record_result
from smithy2cfn.diagnostics import Diagnostics, Severity, Span
from smithy2cfn.load.loader import load_model, load_texts
from smithy2cfn.model.json_ast import shape_to_json_ast
from smithy2cfn.model.shapes import Model
from smithy2cfn.transform import TransformConfig, apply_transforms

HERE = Path(__file__).parent
CASES = HERE / "fixtures" / "cases"
MODELS = HERE / "fixtures" / "models"
MIRROR = Path("/work/.mirror/smithy-lang+smithy/repo")
RESOURCES = "smithy-build/src/test/resources/software/amazon/smithy/build/transforms"


def _cases() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(CASES.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        out.extend((data["transform"], case) for case in data["cases"])
    return out


ALL = _cases()


def model_files(case: dict[str, Any]) -> list[str]:
    """The files of ``fixtures/models/`` a case loads (``[]``: an inline model); of a
    case's ``fetched_reference``, the reference's resource files it loads."""
    files = case.get("model", [])
    return [files] if isinstance(files, str) else list(files)


def load_case_model(case: dict[str, Any], reference_texts: dict[str, str] | None = None) -> Model:
    """The case's model (``reference_texts``: the fetched reference's resource files)."""
    diags = Diagnostics()
    if reference_texts is not None:
        model = load_texts(list(reference_texts.items()), diags)
    elif "model" in case:
        model = load_model([str(MODELS / f) for f in model_files(case)], diags)
    else:
        model = load_texts([(case.get("model_name", "model.smithy"), case["model_text"])], diags)
    assert not diags.has_errors, [d.message for d in diags]
    return model


def _ids(model: Model) -> set[str]:
    return {i for s in model.shapes.values() for i in (s.id, *(m.id for m in s.members.values()))}


def _node(model: Model, node_id: str) -> Any:
    return model.member(node_id) if "$" in node_id else model.shapes.get(node_id)


def check(name: str, case: dict[str, Any], model: Model) -> list[str]:
    """Run the case; the list of its failed expectations (empty: it passed)."""
    diags = Diagnostics()
    config = TransformConfig(name, case["args"], Span("smithy-build.json", 3, 5), {})
    result = apply_transforms(model, [config], diags)
    expect = case["expect"]
    problems: list[str] = []
    errors = {d.code for d in diags if d.severity >= Severity.ERROR}
    warnings = {d.code for d in diags if d.severity == Severity.WARNING}
    if "error" in expect:
        if expect["error"] not in errors:
            problems.append(f"expected error {expect['error']}, got {sorted(errors)}")
        return problems
    if errors:
        return [f"unexpected errors: {[d.message for d in diags]}"]
    if "warning" in expect and expect["warning"] not in warnings:
        problems.append(f"expected warning {expect['warning']}")
    ids = _ids(result)
    problems += [f"{i} missing" for i in expect.get("present", []) if i not in ids]
    problems += [f"{i} still there" for i in expect.get("absent", []) if i in ids]
    if "ids" in expect:
        ns = expect["ids"]["namespace"]
        got = sorted(i for i in ids if i.startswith(ns + "#"))
        if got != sorted(expect["ids"]["exactly"]):
            want = set(expect["ids"]["exactly"])
            problems.append(f"ids differ: extra {sorted(set(got) - want)}, missing {sorted(want - set(got))}")
    if "non_prelude_ids" in expect:
        got = {i for i in ids if not i.startswith("smithy.api#") and i.split("$")[0] not in result.prelude_ids}
        want = set(expect["non_prelude_ids"])
        if got != want:
            problems.append(f"ids differ: extra {sorted(got - want)}, missing {sorted(want - got)}")
    for node_id, rule in expect.get("traits", {}).items():
        node = _node(result, node_id)
        if node is None:
            problems.append(f"{node_id} missing")
            continue
        problems += [f"{node_id} lacks {t}" for t in rule.get("has", []) if t not in node.traits]
        problems += [f"{node_id} still has {t}" for t in rule.get("lacks", []) if t in node.traits]
    if "trait_definitions" in expect:
        defined = {s.id for s in result.shapes.values() if "smithy.api#trait" in s.traits}
        problems += [f"trait {t} not defined" for t in expect["trait_definitions"].get("has", []) if t not in defined]
        problems += [f"trait {t} still defined" for t in expect["trait_definitions"].get("lacks", []) if t in defined]
    for node_id, names in expect.get("members", {}).items():
        shape = result.shapes.get(node_id)
        if shape is None or list(shape.members) != names:
            problems.append(f"{node_id} members {list(shape.members) if shape else None} != {names}")
    for node_id, kind in expect.get("types", {}).items():
        shape = result.shapes.get(node_id)
        if shape is None or shape.type != kind:
            problems.append(f"{node_id} type {shape.type if shape else None} != {kind}")
    for node_id, values in expect.get("trait_values", {}).items():
        node = _node(result, node_id)
        if node is None or any(node.traits.get(t) != v for t, v in values.items()):
            problems.append(f"{node_id} traits {node.traits if node else None} lack {values}")
    for node_id, tags in expect.get("tags", {}).items():
        node = _node(result, node_id)
        if node is None or sorted(node.traits.get("smithy.api#tags", [])) != sorted(tags):
            problems.append(f"{node_id} tags {node.traits.get('smithy.api#tags') if node else None} != {tags}")
    for node_id in expect.get("unchanged", []):
        if shape_to_json_ast(result.shapes[node_id], result) != shape_to_json_ast(model.shapes[node_id], model):
            problems.append(f"{node_id} changed")
    for node_id, rename in expect.get("rename", {}).items():
        shape = result.shapes.get(node_id)
        if shape is None or shape.rename != rename:
            problems.append(f"{node_id} rename {shape.rename if shape else None} != {rename}")
    if "no_trait" in expect and any(expect["no_trait"] in s.traits for s in result.shapes.values()):
        problems.append(f"a shape still has {expect['no_trait']}")
    for members in expect.get("metadata_rename_keys", {}).values():
        closures = result.metadata.get("shapeClosures") or [{}]
        keys = set(closures[0].get("rename", {}))
        problems += [f"rename key {k} missing" for k in members.get("has", []) if k not in keys]
        problems += [f"rename key {k} still there" for k in members.get("lacks", []) if k in keys]
    if "metadata" in expect:
        problems += [f"metadata {k} missing" for k in expect["metadata"].get("has", []) if k not in result.metadata]
        problems += [f"metadata {k} still there" for k in expect["metadata"].get("lacks", []) if k in result.metadata]
    if expect.get("valid"):
        from smithy2cfn.api import validate

        found = validate(result).diagnostics
        bad = [d for d in found if d.is_error]
        if bad:
            problems.append(f"projected model invalid: {[d.message for d in bad][:3]}")
    return problems


@pytest.mark.parametrize(("name", "case"), ALL, ids=[f"{n}:{c['name']}" for n, c in ALL])
def test_reference_case(name: str, case: dict[str, Any]) -> None:
    """One ported case of the reference's transform tests, on our model."""
    model = load_case_model(case)
    before = json.dumps({sid: shape_to_json_ast(s, model) for sid, s in model.shapes.items()}, sort_keys=True,
                        default=str)
    problems = check(name, case, model)
    after = json.dumps({sid: shape_to_json_ast(s, model) for sid, s in model.shapes.items()}, sort_keys=True,
                       default=str)
    if before != after:
        problems.append("the input model was changed")
    record_result(f"transform {name}", case["name"], not problems)
    assert not problems, problems


def test_every_reference_test_class_is_ported() -> None:
    """Each transform the reference tests has cases here (the suite's coverage)."""
    names = {n for n, _ in ALL}
    for expected in ("excludeShapesByTag", "excludeShapesBySelector", "includeShapesBySelector", "renameShapes",
                     "flattenNamespaces", "removeUnusedShapes", "removeTraitDefinitions", "excludeTraits"):
        assert expected in names


def test_against_fetched_reference() -> None:
    """The cases ported from a test on a reference resource file, as the Java test states
    them (``fetched_reference``), on that file of the fetched reference (skipped when the
    reference is not fetched)."""
    if not MIRROR.exists():
        pytest.skip(f"the fetched reference is not at {MIRROR} (fetch github:smithy-lang/smithy)")
    failures = {}
    ran = 0
    for name, ported in ALL:
        if "fetched_reference" not in ported:
            continue
        case = {"name": ported["name"], **ported["fetched_reference"]}
        texts = {}
        for file in model_files(case):
            shown = subprocess.run(["git", f"--git-dir={MIRROR}", "show", f"HEAD:{RESOURCES}/{file}"],
                                   capture_output=True, text=True, check=False)
            if shown.returncode == 0:
                texts[file] = shown.stdout
        if not texts or len(texts) != len(model_files(case)):
            continue
        ran += 1
        problems = check(name, case, load_case_model(case, texts))
        record_result(f"transform {name} (fetched reference)", case["name"], not problems)
        if problems:
            failures[f"{name}:{case['name']}"] = problems
    assert ran > 0
    assert not failures, failures
