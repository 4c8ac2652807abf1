"""``filterSuppressions`` against the reference's ``FilterSuppressionsTest``.

Each of its parameterized cases is a model (``<model>.smithy``), a ``smithy-build.json``
(``<model>.<test>.json``: its projection ``foo``'s transforms, and the files it imports) and
the model the build must write (``<model>.<test>.smithy``), compared as JSON AST. Ours, in
``fixtures/filter-suppressions/``, are models we wrote to exercise what each reference case
checks (our own namespaces, shapes and validators; the expected models derived from the
reference's ``FilterSuppressions``); ``test_against_fetched_reference`` runs the reference's
own files, read from the fetched smithy repository, when it is there.

``removeUnused`` needs the events validation suppressed: the validation stage gives them
(:func:`smithy2cfn.validation.suppressed_events`).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import record_result
from smithy2cfn.diagnostics import Diagnostics, Span
from smithy2cfn.load.loader import load_model
from smithy2cfn.model.json_ast import model_to_json_ast
from smithy2cfn.model.shapes import Model
from smithy2cfn.transform import TransformConfig, apply_transforms
from smithy2cfn.validation import suppressed_events

HERE = Path(__file__).parent / "fixtures" / "filter-suppressions"
MIRROR = Path("/work/.mirror/smithy-lang+smithy/repo")
RESOURCES = "smithy-build/src/test/resources/software/amazon/smithy/build/transforms/filtersuppressions"

#: The reference's parameterized cases (``FilterSuppressionsTest.runTransformTests``): the
#: reference's model name, the name of ours that checks the same, and the test.
CASES = [
    ("traits", "shape-traits", "removeUnused"), ("traits", "shape-traits", "eventIdAllowList"),
    ("traits", "shape-traits", "eventIdDenyList"),
    ("namespaces", "metadata-suppressions", "filterByNamespaceAllowList"),
    ("namespaces", "metadata-suppressions", "removeReasons"), ("namespaces", "metadata-suppressions", "removeUnused"),
    ("namespaces", "metadata-suppressions", "namespaceDenyList"),
    ("namespaces", "metadata-suppressions", "filterWithTopLevelImports"),
    ("namespaces", "metadata-suppressions", "filterWithProjectionImports"),
    ("namespaces", "metadata-suppressions", "detectsValidatorRemoval"),
    ("namespaces", "metadata-suppressions", "unchanged"), ("noSuppressions", "no-suppressions", "removeUnused"),
    ("eventHierarchy", "id-hierarchy", "removeUnused"),
]


def _ast(model: Model) -> dict:
    return json.loads(json.dumps(model_to_json_ast(model), default=str))


def _run_case(folder: Path, model_name: str, test_name: str, suite: str) -> None:
    config = json.loads((folder / f"{model_name}.{test_name}.json").read_text(encoding="utf-8"))
    projection = config["projections"]["foo"]
    imports = [*config.get("imports", []), *projection.get("imports", [])]
    diags = Diagnostics()
    model = load_model([str(folder / f"{model_name}.smithy"), *(str(folder / i) for i in imports)], diags)
    assert not diags.has_errors
    transforms = [TransformConfig(t["name"], t.get("args", {}), Span("smithy-build.json", 1, 1))
                  for t in projection["transforms"]]
    run = Diagnostics()
    result = apply_transforms(model, transforms, run, projection="foo", suppressed=lambda: suppressed_events(model))
    loaded = Diagnostics()
    expected = load_model([str(folder / f"{model_name}.{test_name}.smithy")], loaded)
    assert not loaded.has_errors, [d.message for d in loaded]
    passed = not run.items and _ast(result) == _ast(expected)
    record_result(suite, f"{model_name}.{test_name}", passed)
    assert not run.items
    assert _ast(result) == _ast(expected)


@pytest.mark.parametrize(("model_name", "test_name"), [(ours, t) for _, ours, t in CASES],
                         ids=[f"{ours}.{t}" for _, ours, t in CASES])
def test_reference_filter_suppressions(model_name: str, test_name: str) -> None:
    """One case, on our model."""
    _run_case(HERE, model_name, test_name, "transform filterSuppressions (FilterSuppressionsTest)")


def test_against_fetched_reference(tmp_path: Path) -> None:
    """Every case on the fetched reference's own files (skipped when it is not fetched)."""
    if not MIRROR.exists():
        pytest.skip(f"the fetched reference is not at {MIRROR} (fetch github:smithy-lang/smithy)")
    listed = subprocess.run(["git", f"--git-dir={MIRROR}", "ls-tree", "--name-only", "HEAD", f"{RESOURCES}/"],
                            capture_output=True, text=True, check=True).stdout.split()
    for path in listed:
        text = subprocess.run(["git", f"--git-dir={MIRROR}", "show", f"HEAD:{path}"], capture_output=True,
                              text=True, check=True).stdout
        (tmp_path / Path(path).name).write_text(text, encoding="utf-8")
    for model_name, _, test_name in CASES:
        _run_case(tmp_path, model_name, test_name, "transform filterSuppressions (fetched reference)")


@pytest.mark.parametrize("lists", [("eventIdAllowList", "eventIdDenyList"), ("namespaceAllowList", "namespaceDenyList")])
def test_allow_and_deny_lists_exclude_each_other(lists: tuple[str, str]) -> None:
    """``FilterSuppressionsTest.cannotSetBoth...``: an error, at the transform."""
    diags = Diagnostics()
    model = load_model([str(HERE / "shape-traits.smithy")], Diagnostics())
    where = Span("smithy-build.json", 7, 13)
    apply_transforms(model, [TransformConfig("filterSuppressions", {lists[0]: ["a"], lists[1]: ["b"]}, where)], diags)
    (d,) = diags.items
    assert d.code == "S5206" and f"cannot set both {lists[0]} values" in d.message and d.span == where


def test_remove_unused_without_events_is_an_error() -> None:
    diags = Diagnostics()
    model = load_model([str(HERE / "shape-traits.smithy")], Diagnostics())
    out = apply_transforms(model, [TransformConfig("filterSuppressions", {"removeUnused": True})], diags)
    assert [d.code for d in diags] == ["S5206"]
    assert out is model


def test_remove_unused_with_the_events_a_build_records() -> None:
    """The build's form: one validation records the suppressed events
    (``run_validators(..., suppressed=[])``), and that list is the transform's ``suppressed``."""
    from smithy2cfn.validation import run_validators

    diags = Diagnostics()
    model = load_model([str(HERE / "shape-traits.smithy")], diags)
    recorded: list = []
    run_validators(model, diags, suppressed=recorded)
    assert recorded
    run = Diagnostics()
    out = apply_transforms(model, [TransformConfig("filterSuppressions", {"removeUnused": True})], run,
                           suppressed=recorded)
    assert not run.items
    by_callable = apply_transforms(model, [TransformConfig("filterSuppressions", {"removeUnused": True})],
                                   Diagnostics(), suppressed=lambda: suppressed_events(model))
    assert _ast(out) == _ast(by_callable) != _ast(model)
