"""The reference's smithy-build.json reading tests, ported: fixtures written after
smithy-build's ``src/test/resources/.../build/*.json`` with the expectations of its
``SmithyBuildConfigTest`` and ``SmithyBuildTest`` (the name of each case says which).

Where smithy2cfn differs on purpose, the case says so (a file without ``version`` is a flat
settings file here, as in earlier versions; the reference requires ``version``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import record_result
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.smithy_build import read_build_config

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "smithy_build"
ENV = {"FOO": "Hi", "BAR": "TagFromEnv", "NAME_KEY": "name"}


def _read(*names: str):
    diags = Diagnostics()
    config = read_build_config([FIXTURES / n for n in names], diags, environ=ENV)
    return config, diags


def _loads_from_json():  # SmithyBuildConfigTest.loadsFromJson (special-syntax.json: comments)
    config, diags = _read("comments.json")
    assert not diags.items and set(config.projections) == {"kept", "commented", "source"}


def _apply_cycle():  # SmithyBuildTest.detectsCyclesInApplyProjection
    _, diags = _read("apply-cycle.json")
    assert {d.code for d in diags} == {"S5205"}
    assert any("Cycle found in apply transforms: bar -> foo -> bar" in d.message for d in diags)


def _apply_direct_recursion():  # SmithyBuildTest.detectsDirectlyRecursiveApply
    (_, diags) = _read("apply-itself.json")
    (d,) = diags.items
    assert d.code == "S5205" and "Cannot recursively apply the same projection: foo" in d.message
    assert d.span.line == 4


def _apply_invalid_projection():  # SmithyBuildTest.validatesThatApplyProjectionsExist
    (_, diags) = _read("apply-missing.json")
    (d,) = diags.items
    assert d.code == "S5205" and "Unable to find projection named `bar`" in d.message


def _expands_environment_variables():  # SmithyBuildConfigTest.expandsEnvironmentVariables
    config, diags = _read("env.json")
    assert not diags.items
    (transform,) = config.projections["a"].transforms
    assert transform.name == "includeShapesByTag"
    assert transform.args == {"tags": ["Hi", "compoundTagFromEnv", "HiAndTagFromEnv", "${BAZ}"]}


def _throws_for_unknown_environment_variables():  # SmithyBuildConfigTest.throwsForUnknownEnvironmentVariables
    _, diags = _read("env-unset.json")
    (d,) = diags.items
    assert d.code == "S5041" and "UNSET_KEY_THAT_DOES_NOT_EXIST" in d.message and d.span.line == 4


def _rewrites_args_array():  # SmithyBuildConfigTest.rewritesArgsArrayToUnderscoreArgs
    config, diags = _read("args-list.json")
    assert not diags.items and config.projections["rewrite"].transforms[0].args == {"__args": ["sensitive"]}


def _can_be_abstract():  # SmithyBuildConfigTest.canBeAbstract
    config, diags = _read("abstract.json")
    assert not diags.items and config.projections["abstract"].abstract
    assert "abstract" not in config.buildable()


def _can_load_json_data_into_builder():  # SmithyBuildConfigTest.canLoadJsonDataIntoBuilder
    config, diags = _read("abstract.json", "two-projections.json")
    assert not diags.items and {"a", "b", "abstract", "source"} == set(config.projections)
    assert config.projections["abstract"].abstract and config.output_directory == "elsewhere"


def _artifact_names():  # SmithyBuildTest.buildsWithArtifactNames (artifact-names.json)
    config, diags = _read("artifact-names.json")
    assert not diags.items
    assert [(p.artifact, p.settings["organizationName"]) for p in config.plugins_of("source")] == \
        [("cloudformation", "Top"), ("foo1", "TopFoo"), ("foo2", "SourceFoo")]
    assert [(p.artifact, p.settings["organizationName"]) for p in config.plugins_of("a")] == \
        [("cloudformation", "A"), ("foo1", "TopFoo")]


def _output_dir_cannot_be_empty():  # SmithyBuildConfigTest.outputDirCannotBeEmpty
    _, diags = _read("empty-output.json")
    (d,) = diags.items
    assert d.code == "S5001" and "outputDirectory" in d.message


CASES = {name.strip("_"): case for name, case in list(globals().items()) if name.startswith("_") and
         callable(case) and name not in ("_read",) and not name.startswith("__")}


@pytest.mark.parametrize("name", sorted(CASES))
def test_reference_case(name):
    try:
        CASES[name]()
    except Exception:
        record_result("smithy-build config (reference cases)", name, False)
        raise
    record_result("smithy-build config (reference cases)", name, True)


# ----------------------------------------------------------- the fetched reference's own files

#: The fetched smithy repository (a bare git mirror: the `fetch` tool's).
MIRROR = Path("/work/.mirror/smithy-lang+smithy/repo")
REFERENCE_BUILD = "smithy-build/src/test/resources/software/amazon/smithy/build"

#: Reference resource → (the Java test that reads it, the error codes its expectation means:
#: none, or the code whose error the Java test expects).
FETCHED = {
    "apply-cycle.json": ("SmithyBuildTest.detectsCyclesInApplyProjection", {"S5205"}),
    "apply-direct-recursion.json": ("SmithyBuildTest.detectsDirectlyRecursiveApply", {"S5205"}),
    "apply-invalid-projection.json": ("SmithyBuildTest.validatesThatApplyProjectionsExist", {"S5205"}),
    "config-with-env.json": ("SmithyBuildConfigTest.expandsEnvironmentVariables", set()),
    "config-with-invalid-env.json": ("SmithyBuildConfigTest.throwsForUnknownEnvironmentVariables", {"S5041"}),
    "config-with-abstract.json": ("SmithyBuildTest (an abstract projection is not built)", set()),
    "special-syntax.json": ("SmithyBuildConfigTest.loadsFromJson (comments)", set()),
    "rewrites-args-array.json": ("SmithyBuildTest.rewritesArgsArray", set()),
    "unknown-transform.json": ("SmithyBuildTest (an unknown transform fails the build)", {"S5201"}),
    "bad-syntax.json": ("SmithyBuildConfigTest.throwsForInvalidJson", {"S5000"}),
    "empty-config.json": ("SmithyBuildConfigTest (an empty config)", set()),
}


@pytest.mark.parametrize("name", sorted(FETCHED))
def test_the_fetched_reference_file(name, tmp_path):
    """The same expectations on the reference's own resource files, read from the fetched
    repository (skipped when it is absent)."""
    import subprocess

    if not MIRROR.exists():
        pytest.skip(f"the fetched reference is not at {MIRROR} (fetch github:smithy-lang/smithy)")
    shown = subprocess.run(["git", "--git-dir", str(MIRROR), "show", f"HEAD:{REFERENCE_BUILD}/{name}"],
                           capture_output=True, timeout=60)
    if shown.returncode != 0:
        pytest.skip(f"{name} is not in the fetched reference")
    (tmp_path / name).write_bytes(shown.stdout)
    test, expected = FETCHED[name]
    diags = Diagnostics()
    config = read_build_config([tmp_path / name], diags, environ=ENV)
    errors = {d.code for d in diags if d.is_error}
    record_result("smithy-build config (fetched reference files)", name, errors == expected)
    assert errors == expected, (test, [d.format_text() for d in diags])
    if name == "config-with-env.json":
        (transform,) = config.projections["a"].transforms
        assert (transform.name, transform.args["tags"]) == (
            "includeShapesByTag", ["Hi", "compoundTagFromEnv", "HiAndTagFromEnv", "${BAZ}"])
    if name == "rewrites-args-array.json":
        (transform,) = config.projections["rewrite"].transforms
        assert transform.args == {"__args": ["sensitive"]}
