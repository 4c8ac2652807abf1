"""smithy-build.json as Smithy reads it (issue 16): the config files read and merged
(``smithy2cfn.smithy_build``), and the projections built from one load
(``smithy2cfn.api.build_from_config``), written where Smithy puts them.

The transforms themselves are tested in tests/transform/; the builds here use the real
runner (``apply`` included) with a stand-in transform, ``setDoc`` (the resource's
documentation, so the schema's description shows the projection: tests/conftest.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import REPO
from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.smithy_build import read_build_config, read_config_file, strip_comments

EXAMPLE = REPO / "examples" / "vault"
MODEL = EXAMPLE / "model"
SCHEMA = "acme-vault-vault.json"
CFN = {"service": "acme.vault#VaultService", "organizationName": "Acme"}


@pytest.fixture(autouse=True)
def transforms(set_doc_transform):
    """The stand-in ``setDoc`` transform (tests/conftest.py), next to the real ones."""


def write(path: Path, data: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=4), encoding="utf-8")
    return path


def three_projections(tmp_path: Path, **extra) -> Path:
    """A smithy-build.json with ``source`` (top-level plugin), ``public`` and ``internal``
    (each a description of its own), ``internal`` applying the abstract ``docs``."""
    return write(tmp_path / "smithy-build.json", {
        "version": "1.0", "sources": [str(MODEL)], "plugins": {"cloudformation": CFN},
        "projections": {
            "docs": {"abstract": True, "transforms": [{"name": "setDoc", "args": {"text": "Resource Type "
                                                                                     "definition for internal."}}]},
            "public": {"transforms": [{"name": "setDoc", "args": {"text": "Resource Type definition for public."}}]},
            "internal": {"transforms": [{"name": "apply", "args": {"projections": ["docs"]}}]},
        }, **extra})


def errors(diags) -> list[tuple[str, int | None, int | None, str]]:
    return [(d.code, d.span.line if d.span else None, d.span.column if d.span else None, d.message)
            for d in diags if d.is_error]


# ---------------------------------------------------------------- reading


def test_projections_as_smithy_reads_them(tmp_path):
    config = tmp_path / "conf" / "smithy-build.json"
    write(config, {"version": "1.0", "sources": ["model"], "imports": ["/abs/shared"],
                   "plugins": {"cloudformation": CFN, "openapi": {}},
                   "projections": {
                       "a": {"imports": ["extra"], "transforms": [{"name": "old", "args": ["x", "y"]}]},
                       "b": {"plugins": {"cloudformation": {"organizationName": "Bee"},
                                         "cloudformation::ref": {"compatibility": "reference"}}},
                       "gone": {"abstract": True, "transforms": [{"name": "setDoc"}]}}})
    diags = Diagnostics()
    file = read_build_config([config], diags)
    assert not diags.items and file.smithy_build
    assert file.sources == [str(tmp_path / "conf" / "model"), "/abs/shared"]
    assert list(file.projections) == ["a", "b", "gone", "source"]  # source is implicit
    assert file.projections["a"].imports == [str(tmp_path / "conf" / "extra")]
    (old,) = file.projections["a"].transforms
    assert (old.name, old.args) == ("old", {"__args": ["x", "y"]})  # the reference's list shim
    assert old.span.line > 1
    # the top-level plugin runs in every projection unless it has its own of the same ID
    assert [(p.plugin_id, p.artifact, p.settings) for p in file.plugins_of("a")] == \
        [("cloudformation", "cloudformation", CFN)]
    assert [(p.artifact, p.settings) for p in file.plugins_of("b")] == \
        [("cloudformation", {"organizationName": "Bee"}), ("ref", {"compatibility": "reference"})]
    assert file.buildable() == ["a", "b", "source"]  # abstract projections are never built


def test_a_file_without_cloudformation_plugin_builds_its_source_projection(tmp_path):
    config = write(tmp_path / "smithy-build.json", {"version": "1.0", "sources": [str(MODEL)]})
    file = read_build_config([config], Diagnostics())
    assert file.buildable() == ["source"] and file.plugins_of("source") == []
    result = api.build_from_config(config, out_dir=None, overrides=CFN, extensions=[])
    assert result.exit_code == 0 and list(result.schemas) == [SCHEMA]


def test_environment_variables_in_every_string(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = write(tmp_path / "smithy-build.json", {
        "version": "1.0", "sources": ["${MODELS}"], "outputDirectory": "${SMITHY_ROOT_DIR}/out",
        "plugins": {"cloudformation": {**CFN, "serviceName": "${NAME}x", "externalDocs": ["\\${KEEP}", "a${NAME}"]}},
        "projections": {"${NAME}": {"transforms": [{"name": "setDoc", "args": {"text": "${NAME}"}}]}}})
    diags = Diagnostics()
    file = read_build_config([config], diags, environ={"MODELS": str(MODEL), "NAME": "Zed"})
    assert not diags.items
    assert file.sources == [str(MODEL)] and file.output_directory == f"{tmp_path}/out"
    (plugin,) = file.plugins_of("source")
    assert plugin.settings["serviceName"] == "Zedx" and plugin.settings["externalDocs"] == ["${KEEP}", "aZed"]
    assert file.projections["Zed"].transforms[0].args == {"text": "Zed"}  # keys are expanded too
    assert file.projections["Zed"].span.line > 1  # and keep their place


def test_an_unset_environment_variable_is_a_located_error(tmp_path):
    config = tmp_path / "smithy-build.json"
    config.write_text('{"version": "1.0",\n "sources": ["${NOPE}/model", "${ALSO_NOPE}"]}')
    diags = Diagnostics()
    read_build_config([config], diags, environ={})
    assert [(c, line, col) for c, line, col, _ in errors(diags)] == [("S5041", 2, 14), ("S5041", 2, 31)]
    assert "'NOPE'" in diags.items[0].message
    result = api.build_from_config(config, out_dir=tmp_path / "out", environ={}, extensions=[])
    assert result.exit_code == 2 and not (tmp_path / "out").exists()
    # set, it is fine
    result = api.build_from_config(config, out_dir=None, overrides=CFN, environ={"NOPE": str(EXAMPLE),
                                                                                 "ALSO_NOPE": str(MODEL)},
                                   extensions=[])
    assert result.exit_code == 0, result.diagnostics


def test_comments_are_left_out_and_positions_kept(tmp_path):
    text = '{"version": "1.0", // a comment\n "url": "http://x//y", // "quoted"\n "sources": [5]}'
    assert strip_comments(text) == text.replace('// a comment', ' ' * 12).replace('// "quoted"', ' ' * 11)
    config = tmp_path / "smithy-build.json"
    config.write_text(text)
    diags = Diagnostics()
    read_build_config([config], diags)
    assert [(c, line) for c, line, _, _ in errors(diags)] == [("S5001", 3)]


def test_several_files_merge_as_smithy_build_c_does(tmp_path):
    a = write(tmp_path / "a" / "smithy-build.json", {
        "version": "1.0", "sources": ["model"], "outputDirectory": "first",
        "maven": {"dependencies": ["g:a:1"]},
        "projections": {"p": {"transforms": [{"name": "setDoc", "args": {"text": "a"}}]}, "q": {}}})
    b = write(tmp_path / "b" / "smithy-build.json", {
        "version": "1.0", "imports": ["shared"], "outputDirectory": "second",
        "maven": {"dependencies": ["g:b:1", "g:a:1"]},
        "projections": {"p": {"transforms": [{"name": "setDoc", "args": {"text": "b"}}]}}})
    diags = Diagnostics()
    file = read_build_config([a, b], diags)
    assert not diags.items
    # each file's paths are relative to its own folder; sources then imports, in order
    assert file.sources == [str(tmp_path / "a" / "model"), str(tmp_path / "b" / "shared")]
    assert file.output_directory == "second"  # the last one given wins
    assert file.projections["p"].transforms[0].args == {"text": "b"}  # a later projection replaces
    assert "q" in file.projections
    assert [d for d, _ in file.dependencies] == ["g:a:1", "g:b:1"]  # joined (MavenConfig.merge)


BAD = [
    ({"version": "1.0", "projections": {"bad name": {}}}, "S5040", "invalid projection name"),
    ({"version": "1.0", "projections": {"a": {"abstract": True, "plugins": {"cloudformation": {}}}}}, "S5040",
     "abstract projection 'a' must not define imports or plugins"),
    ({"version": "1.0", "projections": {"source": {"transforms": [{"name": "removeUnusedShapes"}]}}}, "S5040",
     "source projection cannot contain any transforms"),
    ({"version": "1.0", "projections": {"a": {"plugins": {"cloudformation": {}},
                                              "transforms": [{"name": "apply", "args": {"projections": ["nope"]}}]}}},
     "S5205", "Unable to find projection named `nope` referenced by the `a` projection"),
    ({"version": "1.0", "projections": {
        "a": {"plugins": {"cloudformation": {}}, "transforms": [{"name": "apply", "args": {"projections": ["b"]}}]},
        "b": {"abstract": True, "transforms": [{"name": "apply", "args": {"projections": ["a"]}}]}}},
     "S5205", "Cycle found in apply transforms: a -> b -> a"),
    ({"version": "1.0", "projections": {
        "a": {"plugins": {"cloudformation": {}}, "transforms": [{"name": "apply", "args": {"projections": ["a"]}}]}}},
     "S5205", "Cannot recursively apply the same projection: a"),
    ({"version": "1.0", "plugins": {"bad::x::y": {}}}, "S5040", "invalid plugin ID"),
    ({"version": "1.0", "projections": {"a": {"transforms": [{"name": "-x"}]}}}, "S5040", "invalid transform name"),
    ({"version": "1.0", "outputDirectory": ""}, "S5001", "'outputDirectory' must be a folder path"),
    ({"version": "1.0", "maven": {"dependencies": [5]}}, "S5001", "maven: 'dependencies' must be"),
    ({"version": "1.0", "maven": {"repositories": [{"id": "x"}]}}, "S5001", "maven: 'repositories' must be"),
    ({"version": "1.0", "projections": {"a": {"transforms": [{"name": "x", "args": 5}]}}}, "S5001",
     "'transforms' must be a list"),
    ({"version": "1.0", "plugins": {"cloudformation::x": 5}}, "S5001", "found a number at 'cloudformation::x'"),
    ({"version": "1.0", "plugins": {"cloudformation": {}},
      "projections": {"a": {"plugins": {"run::cloudformation": {"command": ["x"]}}}}}, "S5040",
     "plugins cloudformation, run::cloudformation use the same artifact name 'cloudformation'"),
]


@pytest.mark.parametrize("data, code, fragment", BAD)
def test_each_bad_input_is_a_located_usage_error(tmp_path, data, code, fragment):
    config = tmp_path / "smithy-build.json"
    config.write_text(json.dumps({**data, "sources": [str(MODEL)]}, indent=2))
    diags = Diagnostics()
    read_build_config([config], diags)
    found = [d for d in diags if d.is_error]
    assert [d.code for d in found] == [code], found
    assert fragment in found[0].message and found[0].span.path == str(config) and found[0].span.line > 1
    result = api.build_from_config(config, out_dir=tmp_path / "out", overrides=CFN, extensions=[])
    assert result.exit_code == 2 and not (tmp_path / "out").exists()


def test_unused_maven_keys_are_warnings_and_dependencies_go_to_the_resolver(tmp_path, monkeypatch):
    config = write(tmp_path / "smithy-build.json", {
        "version": "1.0", "plugins": {"cloudformation": CFN},
        "maven": {"dependencies": ["com.example:models:1.0"], "extra": 1,
                  "repositories": [{"url": "file:///repo", "httpCredentials": "u:p"}]}})
    seen = {}

    def resolve(dependencies, repositories, diags):
        seen["args"] = (dependencies, repositories)
        return [MODEL]  # the models its jar holds

    from smithy2cfn.load import maven

    monkeypatch.setattr(maven, "resolve_dependencies", resolve)
    result = api.build_from_config(config, out_dir=None, extensions=[])
    assert result.exit_code == 0 and list(result.schemas) == [SCHEMA]
    (dependency,), (repository,) = seen["args"]
    assert dependency[0] == "com.example:models:1.0" and dependency[1].line > 1
    assert repository[0] == "file:///repo"
    warnings = sorted((d.code, d.span.line) for d in result.diagnostics if d.code in ("S5003", "S5002"))
    assert [c for c, _ in warnings] == ["S5003", "S5003"]


def test_a_flat_settings_file_cannot_be_merged(tmp_path):
    flat = write(tmp_path / "settings.json", CFN)
    config = three_projections(tmp_path)
    diags = Diagnostics()
    read_build_config([config, flat], diags)
    assert [c for c, *_ in errors(diags)] == ["S5040"]


def test_read_config_file_keeps_its_one_build_form(tmp_path):
    config = three_projections(tmp_path)
    out = read_config_file(config, Diagnostics())  # a top-level plugin: the source projection's
    assert out.settings == CFN and out.sources == [str(MODEL)]


# ---------------------------------------------------------------- building


def test_three_projections_from_one_load(tmp_path, monkeypatch, transforms):
    monkeypatch.chdir(tmp_path)
    config = three_projections(tmp_path)
    loads = []
    for name in ("load_model", "_load_and_validate"):  # (any load of model files by a build)
        real = getattr(api, name)
        monkeypatch.setattr(api, name, lambda *a, real=real, **k: loads.append(a[0]) or real(*a, **k))
    result = api.build_from_config(config, extensions=[])
    assert result.exit_code == 0, result.diagnostics
    assert len(loads) == 1  # the sources are loaded once for the three projections
    root = Path("build", "smithy")
    assert result.out_dir == root
    assert [(p.name, p.out_dir) for p in result.projections] == [
        (name, root / name / "cloudformation") for name in ("internal", "public", "source")]
    described = {name: json.loads((tmp_path / root / name / "cloudformation" / SCHEMA).read_text())["description"]
                 for name in ("internal", "public", "source")}
    assert described["public"] == "Resource Type definition for public."
    assert described["internal"] == "Resource Type definition for internal."  # applied from 'docs'
    assert described["source"].startswith("Resource Type definition for Acme::Vault::Vault")
    assert not (tmp_path / root / "docs").exists()  # abstract: never built
    assert sorted(result.schemas) == [f"{n}/cloudformation/{SCHEMA}" for n in ("internal", "public", "source")]
    assert result.projection("public").schemas[SCHEMA]["description"] == described["public"]


def test_projection_selects_one_and_an_unknown_one_is_a_usage_error(tmp_path, monkeypatch, transforms):
    monkeypatch.chdir(tmp_path)
    config = three_projections(tmp_path)
    result = api.build_from_config(config, projection="public", extensions=[])
    assert result.exit_code == 0 and [p.name for p in result.projections] == ["public"]
    assert result.out_dir == Path("build", "smithy", "public", "cloudformation") and list(result.schemas) == [SCHEMA]
    assert not (tmp_path / "build" / "smithy" / "source").exists()
    for name, fragment in (("nope", "no projection named 'nope'"), ("docs", "is abstract")):
        result = api.build_from_config(config, projection=name, extensions=[])
        (d,) = [d for d in result.diagnostics if d.is_error]
        assert d.code == "S5042" and fragment in d.message and result.exit_code == 2
        assert d.hint == "the projections to build: internal, public, source"


def test_output_directory_and_o(tmp_path, monkeypatch, transforms):
    monkeypatch.chdir(tmp_path)
    config = three_projections(tmp_path, outputDirectory="generated")
    result = api.build_from_config(config, extensions=[])
    assert result.exit_code == 0 and (tmp_path / "generated" / "public" / "cloudformation" / SCHEMA).is_file()
    # -o with several projections: in place of outputDirectory, as smithy build --output
    result = api.build_from_config(config, out_dir=tmp_path / "o", extensions=[])
    assert sorted(p.relative_to(tmp_path / "o").as_posix() for p in result.written) == [
        f"{n}/cloudformation/{SCHEMA}" for n in ("internal", "public", "source")]
    # -o with one projection built: the schemas' folder, as before
    result = api.build_from_config(config, out_dir=tmp_path / "flat", projection="internal", extensions=[])
    assert result.written == [tmp_path / "flat" / SCHEMA]


def test_check_works_per_projection(tmp_path, monkeypatch, transforms):
    monkeypatch.chdir(tmp_path)
    config = three_projections(tmp_path)
    assert api.build_from_config(config, extensions=[]).exit_code == 0
    assert api.build_from_config(config, check=True, extensions=[]).exit_code == 0
    public = tmp_path / "build" / "smithy" / "public" / "cloudformation" / SCHEMA
    public.write_text(public.read_text().replace("public", "changed"))
    result = api.build_from_config(config, check=True, extensions=[])
    assert result.exit_code == 1 and result.stale == [Path("build", "smithy", "public", "cloudformation", SCHEMA)]
    assert result.projection("public").stale and not result.projection("source").stale
    # one projection only: the others are not looked at
    assert api.build_from_config(config, check=True, projection="source", extensions=[]).exit_code == 0


def test_nothing_is_written_when_one_projection_fails(tmp_path, monkeypatch, transforms):
    monkeypatch.chdir(tmp_path)
    config = three_projections(tmp_path)
    data = json.loads(config.read_text())
    data["projections"]["public"]["plugins"] = {"cloudformation": {**CFN, "service": "acme.vault#Nope"}}
    config.write_text(json.dumps(data, indent=2))
    result = api.build_from_config(config, extensions=[])
    assert result.exit_code == 1 and not (tmp_path / "build").exists() and result.schemas == {}
    (d,) = [d for d in result.diagnostics if d.is_error]
    assert d.code == "S4001" and d.message.endswith("[projection public]")  # which projection failed
    # a warning of the shared model is not repeated per projection
    assert all("[projection" not in d.message for d in result.diagnostics if d.code.startswith("S3"))


def test_a_projection_with_imports_adds_them_to_the_sources(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    extra = tmp_path / "extra.smithy"
    extra.write_text('$version: "2"\nnamespace acme.extra\nstring Unused\n')
    config = write(tmp_path / "smithy-build.json", {
        "version": "1.0", "sources": [str(MODEL)], "plugins": {"cloudformation": CFN},
        "projections": {"more": {"imports": [str(extra)]}}})
    result = api.build_from_config(config, out_dir=None, extensions=[])
    assert result.exit_code == 0, result.diagnostics
    assert "acme.extra#Unused" in result.projection("more").model.shapes
    assert "acme.extra#Unused" not in result.projection("source").model.shapes


def test_ast_of_a_projection(tmp_path, monkeypatch, transforms):
    monkeypatch.chdir(tmp_path)
    three_projections(tmp_path)
    result = api.write_json_ast([], projection="public")
    assert result.exit_code == 0, result.diagnostics
    shapes = json.loads(result.text)["shapes"]
    assert shapes["acme.vault#Vault"]["traits"]["smithy.api#documentation"] == "Resource Type definition for public."
    result = api.write_json_ast([], projection="nope")
    assert result.text is None and [d.code for d in result.diagnostics] == ["S5042"] and result.exit_code == 2


def test_the_library_build_reports_its_one_projection():
    result = api.build([MODEL], None, CFN, extensions=[])
    (projection,) = result.projections
    assert projection.name == "source" and projection.schemas == result.schemas and projection.model is not None
    assert os.fspath(SCHEMA) in result.schemas


def test_read_settings_of_one_projection(tmp_path):
    """The run plugin's settings: those of the projection Smithy runs (SMITHY_PROJECTION_NAME)."""
    config = write(tmp_path / "smithy-build.json", {"version": "1.0", "projections": {
        "a": {"plugins": {"cloudformation": {"organizationName": "Aa"}}},
        "b": {"plugins": {"cloudformation": {"organizationName": "Bb"}}}}})
    diags = Diagnostics()
    settings, _ = api.read_settings(config, diags=diags, projection="b")
    assert settings.organization_name == "Bb" and not diags.items
    api.read_settings(config, diags=diags)  # which one? an error, as before
    assert [d.code for d in diags if d.is_error] == ["S5001"]


def test_each_path_keeps_where_it_is_written(tmp_path):
    config = tmp_path / "smithy-build.json"
    config.write_text('{"version": "1.0",\n "sources": ["a", "b"],\n "projections": {"p": {"imports": ["c"]}}}')
    file = read_build_config([config], Diagnostics())
    assert {Path(p).name: (s.line, s.column) for p, s in file.path_spans.items()} == \
        {"a": (2, 14), "b": (2, 19), "c": (3, 36)}


def test_a_bad_setting_of_one_projection_is_located_in_it(tmp_path):
    config = tmp_path / "smithy-build.json"
    config.write_text(json.dumps({"version": "1.0", "sources": [str(MODEL)], "plugins": {"cloudformation": CFN},
                                  "projections": {"p": {"plugins": {"cloudformation": {"useIntegerType": "yes"}}}}},
                                 indent=2))
    result = api.build_from_config(config, out_dir=tmp_path / "out", extensions=[])
    (d,) = [d for d in result.diagnostics if d.is_error]
    line = next(i for i, text in enumerate(config.read_text().splitlines(), 1) if '"useIntegerType"' in text)
    assert d.code == "S5001" and d.span.path == str(config) and d.span.line == line and result.exit_code == 2
    assert not (tmp_path / "out").exists()


def test_a_second_cloudformation_plugin_writes_its_own_artifact_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = write(tmp_path / "smithy-build.json", {
        "version": "1.0", "sources": [str(MODEL)],
        "plugins": {"cloudformation": CFN, "cloudformation::reference": {**CFN, "compatibility": "reference"}}})
    result = api.build_from_config(config, extensions=[])
    assert result.exit_code == 0, result.diagnostics
    folder = tmp_path / "build" / "smithy" / "source"
    ours, theirs = (json.loads((folder / a / SCHEMA).read_text()) for a in ("cloudformation", "reference"))
    assert ours != theirs  # registry-ready, and what the Java plugin writes
    assert sorted(result.schemas) == [f"source/cloudformation/{SCHEMA}", f"source/reference/{SCHEMA}"]
    result = api.build_from_config(config, out_dir=tmp_path / "o", extensions=[])  # two sets: -o is the root
    assert sorted(p.relative_to(tmp_path / "o").as_posix() for p in result.written) == \
        [f"source/cloudformation/{SCHEMA}", f"source/reference/{SCHEMA}"]


def test_real_transforms_shape_each_projection(tmp_path, monkeypatch):
    """The real transforms through a build: excludeTraits removes the resource's
    documentation (its schema's description falls back to the default one), and
    filterSuppressions' removeUnused reads the events the sources' validation suppressed:
    the vault example's UnstableTrait suppression is used, so it stays, and the projected
    model validates without the UnstableTrait warnings."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "smithy-build.json", {
        "version": "1.0", "sources": [str(MODEL)], "plugins": {"cloudformation": CFN},
        "projections": {
            "bare": {"transforms": [{"name": "excludeTraits", "args": {"traits": ["documentation"]}},
                                    {"name": "filterSuppressions", "args": {"removeUnused": True}}]},
        }})
    result = api.build_from_config(tmp_path / "smithy-build.json", extensions=[])
    assert result.exit_code == 0, [d.format_text() for d in result.diagnostics]
    assert not [d for d in result.diagnostics if d.event_id == "UnstableTrait"]
    bare, source = (result.projection(n).schemas[SCHEMA] for n in ("bare", "source"))
    assert bare["description"] != source["description"]
    assert bare["description"] == "Definition of Acme::Vault::Vault Resource Type"  # the default
    assert set(bare["properties"]) == set(source["properties"])
    model = result.projection("bare").model
    assert model.metadata["suppressions"][0]["id"] == "UnstableTrait"  # used: kept
    assert (tmp_path / "build" / "smithy" / "bare" / "cloudformation" / SCHEMA).exists()


def test_an_unknown_real_transform_stops_the_build_before_loading(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "smithy-build.json", {
        "version": "1.0", "sources": [str(MODEL)], "plugins": {"cloudformation": CFN},
        "projections": {"p": {"transforms": [{"name": "excludeShapesByTags", "args": {"tags": ["x"]}}]}}})
    loads = []
    monkeypatch.setattr(api, "load_model", lambda *a, **k: loads.append(a[0]))
    monkeypatch.setattr(api, "_load_and_validate", lambda *a, **k: loads.append(a[0]))
    result = api.build_from_config(tmp_path / "smithy-build.json", extensions=[])
    (d,) = [d for d in result.diagnostics if d.is_error]
    assert d.code == "S5201" and "did you mean 'excludeShapesByTag'" in (d.hint or "")
    text = (tmp_path / "smithy-build.json").read_text().splitlines()
    line = next(i for i, s in enumerate(text, 1) if "excludeShapesByTags" in s)
    assert d.span.path.endswith("smithy-build.json") and d.span.line == line - 1  # at the entry's "{"
    assert result.exit_code == 2 and not loads and not (tmp_path / "build").exists()


def _broken_elsewhere(tmp_path: Path) -> Path:
    """``good`` builds; ``cycle-a``/``cycle-b`` apply each other and ``bad-arg`` has an
    argument of the wrong type: what Smithy reports only when it builds those projections."""
    return write(tmp_path / "smithy-build.json", {
        "version": "1.0", "sources": [str(MODEL)], "plugins": {"cloudformation": CFN},
        "projections": {
            "good": {"transforms": [{"name": "excludeTraits", "args": {"traits": ["documentation"]}}]},
            "cycle-a": {"transforms": [{"name": "apply", "args": {"projections": ["cycle-b"]}}]},
            "cycle-b": {"transforms": [{"name": "apply", "args": {"projections": ["cycle-a"]}}]},
            "bad-arg": {"transforms": [{"name": "excludeTraits", "args": {"traits": "documentation"}}]},
        }})


def test_projection_builds_despite_arguments_and_applies_of_projections_not_built(tmp_path, monkeypatch):
    """As ``smithy build --projection good``: the reference checks a projection's transform
    arguments and ``apply`` targets only when it builds that projection (found by the judge,
    tools/judge_smithy_build.py, case error-apply-cycle)."""
    monkeypatch.chdir(tmp_path)
    config = _broken_elsewhere(tmp_path)
    result = api.build_from_config(config, projection="good", extensions=[])
    assert result.exit_code == 0, [d.format_text() for d in result.diagnostics]
    assert (tmp_path / "build" / "smithy" / "good" / "cloudformation" / SCHEMA).exists()
    # the whole file, or one of the broken projections, still fails before loading
    for projection, codes in ((None, {"S5202", "S5205"}), ("cycle-a", {"S5205"}), ("bad-arg", {"S5202"})):
        result = api.build_from_config(config, projection=projection, extensions=[])
        assert result.exit_code == 2 and {d.code for d in result.diagnostics if d.is_error} == codes, projection


def test_an_unknown_transform_name_fails_every_build_even_in_an_abstract_projection(tmp_path, monkeypatch):
    """``SmithyBuildImpl`` resolves the transforms of every projection, abstract ones and those
    not built included, when it is created: an unknown name fails ``--projection`` too."""
    monkeypatch.chdir(tmp_path)
    config = write(tmp_path / "smithy-build.json", {
        "version": "1.0", "sources": [str(MODEL)], "plugins": {"cloudformation": CFN},
        "projections": {
            "good": {},
            "unused": {"abstract": True, "transforms": [{"name": "excludeEverything", "args": {}}]},
        }})
    for projection in (None, "good"):
        result = api.build_from_config(config, projection=projection, extensions=[])
        assert [d.code for d in result.diagnostics if d.is_error] == ["S5201"], projection
        assert result.exit_code == 2
    diags = Diagnostics()
    read_build_config([config], diags, projection="good")
    assert [d.code for d in diags if d.is_error] == ["S5201"]


@pytest.mark.parametrize("where", ["../elsewhere", "/tmp/smithy2cfn-outside", "out/../../x"])
def test_an_output_directory_outside_the_current_folder_is_refused(tmp_path, monkeypatch, where):
    """A smithy-build.json (from a pull request too) cannot send the schemas outside the folder
    the build runs in; -o can."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    write(work / "smithy-build.json", {"version": "1.0", "sources": [str(MODEL)], "outputDirectory": where,
                                       "plugins": {"cloudformation": CFN}})
    result = api.build_from_config(work / "smithy-build.json", extensions=[])
    (d,) = [d for d in result.diagnostics if d.is_error]
    assert d.code == "S5043" and result.exit_code == 2
    line = next(i for i, s in enumerate((work / "smithy-build.json").read_text().splitlines(), 1)
                if '"outputDirectory"' in s)
    assert d.span.path.endswith("smithy-build.json") and d.span.line == line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["work"] and not Path("/tmp/smithy2cfn-outside").exists()
    result = api.build_from_config(work / "smithy-build.json", out_dir=tmp_path / "chosen", extensions=[])
    assert result.exit_code == 0 and (tmp_path / "chosen" / SCHEMA).exists()


def test_an_output_directory_below_the_current_folder_is_used(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "smithy-build.json", {"version": "1.0", "sources": [str(MODEL)], "outputDirectory": "a/../out",
                                           "plugins": {"cloudformation": CFN}})
    result = api.build_from_config(tmp_path / "smithy-build.json", extensions=[])
    assert result.exit_code == 0, result.diagnostics
    assert (tmp_path / "out" / "source" / "cloudformation" / SCHEMA).exists()
