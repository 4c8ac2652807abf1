"""``maven.dependencies`` resolved locally (:mod:`smithy2cfn.load.maven`): built-in packages
satisfied silently; any other coordinate found in a temporary local repository (``$HOME``
set to a temporary folder) or a ``file://`` repository, its jar then loaded; what cannot be
found, malformed coordinates and remote repositories reported where they are written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_jars import SHARED_MODEL, USES_SHARED, errors, make_jar

from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostics, Severity, Span
from smithy2cfn.load import load_model
from smithy2cfn.load.maven import BUILT_IN, parse_coordinate, resolve_dependencies
from smithy2cfn.prelude import package_namespace, prelude_files

HERE = "smithy-build.json"


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """An empty home folder (and no Smithy CLI Maven settings)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("SMITHY_MAVEN_CACHE", raising=False)
    monkeypatch.delenv("SMITHY_MAVEN_REPOS", raising=False)
    return home


def install(repository: Path, group: str, artifact: str, version: str, name: str | None = None) -> Path:
    """A jar of the shared models at Maven's layout in ``repository``."""
    folder = repository.joinpath(*group.split("."), artifact, version)
    return make_jar(folder / (name or f"{artifact}-{version}.jar"), {
        "META-INF/smithy/manifest": "shared.smithy\n",
        "META-INF/smithy/shared.smithy": SHARED_MODEL,
    })


def deps(*coordinates: str) -> list[tuple[str, Span]]:
    return [(c, Span(HERE, 4 + i, 9)) for i, c in enumerate(coordinates)]


def test_built_in_packages_are_satisfied_silently(home):
    diags = Diagnostics()
    coordinates = [f"software.amazon.smithy:{artifact}:1.54.0" for artifact in BUILT_IN]
    coordinates += ["software.amazon.smithy:smithy-openapi:1.54.0", "software.amazon.smithy:smithy-cli:1.54.0"]
    assert resolve_dependencies(deps(*coordinates), [], diags) == []
    assert not list(diags)


def test_every_built_in_package_s_namespaces_are_built_in():
    built_in = {package_namespace(name) for name, _ in prelude_files()}
    for artifact, namespaces in BUILT_IN.items():
        assert set(namespaces) <= built_in, artifact


def test_a_coordinate_is_found_in_the_local_repository_and_its_jar_loaded(home, tmp_path):
    jar = install(home / ".m2" / "repository", "com.example", "shared-models", "1.2.0")
    diags = Diagnostics()
    found = resolve_dependencies(deps("com.example:shared-models:1.2.0",
                                      "software.amazon.smithy:smithy-aws-traits:1.54.0"), [], diags)
    assert found == [jar] and not list(diags)
    app = tmp_path / "app.smithy"
    app.write_text(USES_SHARED.replace("    count: example.shared#Count\n", ""))
    model = load_model([str(app), *map(str, found)], diags)
    assert not errors(diags) and "example.shared#Name" in model.shapes


def test_file_repositories_are_looked_in_after_the_local_one(home, tmp_path):
    remote_layout = tmp_path / "repo with space"
    jar = install(remote_layout, "com.example", "shared-models", "2.0.0")
    snapshot = install(remote_layout, "com.example", "snap", "1.0-SNAPSHOT", "snap-1.0-20240101.120000-2.jar")
    install(remote_layout, "com.example", "snap", "1.0-SNAPSHOT", "snap-1.0-20230101.120000-1.jar")
    diags = Diagnostics()
    url = remote_layout.as_uri()  # file:///.../repo%20with%20space
    found = resolve_dependencies(deps("com.example:shared-models:2.0.0", "com.example:snap:1.0-SNAPSHOT"),
                                 [(url, Span(HERE, 9, 13))], diags)
    assert found == [jar, snapshot] and not list(diags)


def test_smithy_maven_cache_replaces_the_local_repository(home, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    jar = install(cache, "com.example", "shared-models", "1.0")
    monkeypatch.setenv("SMITHY_MAVEN_CACHE", str(cache))
    assert resolve_dependencies(deps("com.example:shared-models:1.0"), [], Diagnostics()) == [jar]


def test_a_coordinate_found_nowhere_names_every_place_looked(home, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    diags = Diagnostics()
    found = resolve_dependencies(deps("com.example:missing:1.0"), [(other.as_uri(), Span(HERE, 9, 13))], diags)
    assert found == []
    [error] = errors(diags)
    assert error.code == "S1031" and error.span == Span(HERE, 4, 9)
    assert str(home / ".m2/repository/com/example/missing/1.0/missing-1.0.jar") in error.message
    assert str(other / "com/example/missing/1.0/missing-1.0.jar") in error.message
    assert "sources" in error.hint


def test_without_repositories_maven_central_is_named_as_not_contacted(home):
    diags = Diagnostics()
    resolve_dependencies(deps("com.example:missing:1.0"), [], diags)
    [error] = errors(diags)
    assert "Maven Central" in error.message


def test_a_remote_repository_is_a_note_that_it_is_not_contacted(home):
    diags = Diagnostics()
    resolve_dependencies(deps("software.amazon.smithy:smithy-waiters:1.0"),
                         [("https://repo.example.com/maven", Span(HERE, 9, 13)), ("not a url", Span(HERE, 10, 13))],
                         diags)
    assert [(d.code, d.severity, d.span.line) for d in diags] == [
        ("S1032", Severity.NOTE, 9), ("S1032", Severity.WARNING, 10)]


@pytest.mark.parametrize("coordinate", [
    "com.example:shared", "com.example", "", "a:b:c:d:e:f", "com.example:shared:LATEST",
    "com.example:shared:RELEASE", "com.example:shared:latest.release", "com.example:shared:1.+",
    "com.example:shared:[1.0,2.0)", "com.example:../../etc:1.0", "com..example:shared:1.0",
    "com.example:shared:..", "com.example:shared:pom:1.0", "com example:shared:1.0",
])
def test_malformed_coordinates_are_located_errors(home, coordinate):
    diags = Diagnostics()
    assert resolve_dependencies(deps(coordinate), [], diags) == []
    assert [(d.code, d.span) for d in diags] == [("S1030", Span(HERE, 4, 9))]


def test_well_formed_coordinates_parse_as_maven_s_default_artifact():
    c, problem = parse_coordinate("com.example:shared:jar:models:1.0")
    assert problem is None and (c.group, c.artifact, c.extension, c.classifier, c.version) == (
        "com.example", "shared", "jar", "models", "1.0")
    assert c.file_name() == "shared-1.0-models.jar"
    assert str(c.relative_folder()) == "com/example/shared/1.0"


def test_a_second_version_of_an_artifact_is_a_warning_and_the_first_is_used(home):
    jar = install(home / ".m2" / "repository", "com.example", "shared-models", "1.0")
    install(home / ".m2" / "repository", "com.example", "shared-models", "2.0")
    diags = Diagnostics()
    found = resolve_dependencies(deps("com.example:shared-models:1.0", "com.example:shared-models:2.0",
                                      "com.example:shared-models:1.0"), [], diags)
    assert found == [jar]
    assert [(d.code, d.span.line) for d in diags] == [("S1033", 5)]


def pom(path: Path, group: str, artifact: str, version: str, dependencies: str, extra: str = "") -> None:
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>{group}</groupId>
  <artifactId>{artifact}</artifactId>
  <version>{version}</version>
  {extra}
  <dependencies>{dependencies}</dependencies>
</project>
""")


def dependency(group: str, artifact: str, version: str | None, more: str = "") -> str:
    version_tag = f"<version>{version}</version>" if version else ""
    return f"<dependency><groupId>{group}</groupId><artifactId>{artifact}</artifactId>{version_tag}{more}</dependency>"


def test_the_dependencies_a_pom_lists_are_followed_nearest_first(home):
    """app-models → core-models 1.0 and a Java library; core-models → base-models; a second
    path to core-models 2.0 loses to the nearer 1.0 (Maven's "nearest wins")."""
    repo = home / ".m2" / "repository"
    app = install(repo, "com.example", "app-models", "1.0")
    core = install(repo, "com.example", "core-models", "1.0")
    base = install(repo, "com.example", "base-models", "3.1")
    install(repo, "com.example", "core-models", "2.0")
    other = install(repo, "com.example", "other-models", "1.0")
    library = make_jar(repo / "com/fasterxml/lib/1.0/lib-1.0.jar", {"com/fasterxml/Lib.class": b"\xca\xfe"})
    pom(app.with_suffix(".pom"), "com.example", "app-models", "1.0",
        dependency("com.example", "core-models", "${project.version}")
        + dependency("com.example", "other-models", "1.0")
        + dependency("com.fasterxml", "lib", "1.0")
        + dependency("software.amazon.smithy", "smithy-aws-traits", None)
        + dependency("com.example", "test-only", "1.0", "<scope>test</scope>")
        + dependency("com.example", "optional", "1.0", "<optional>true</optional>"))
    pom(core.with_suffix(".pom"), "com.example", "core-models", "1.0",
        dependency("com.example", "base-models", "${base.version}"),
        "<properties><base.version>3.1</base.version></properties>")
    pom(other.with_suffix(".pom"), "com.example", "other-models", "1.0",
        dependency("com.example", "core-models", "2.0"))
    diags = Diagnostics()
    found = resolve_dependencies(deps("com.example:app-models:1.0"), [], diags)
    assert found == [app, core, other, base] and library not in found
    assert not list(diags), [d.format_text() for d in diags]


def test_a_missing_dependency_of_a_dependency_is_a_warning(home):
    repo = home / ".m2" / "repository"
    app = install(repo, "com.example", "app-models", "1.0")
    pom(app.with_suffix(".pom"), "com.example", "app-models", "1.0",
        dependency("com.example", "gone", "1.0") + dependency("com.example", "managed", None))
    diags = Diagnostics()
    assert resolve_dependencies(deps("com.example:app-models:1.0"), [], diags) == [app]
    assert [(d.code, d.severity, d.span.line) for d in diags] == [
        ("S1034", Severity.WARNING, 4), ("S1034", Severity.WARNING, 4)]
    messages = " ".join(d.message for d in diags)
    assert "com.example:gone:1.0" in messages and "com.example:managed" in messages


def test_a_pom_that_is_not_xml_is_a_warning(home):
    repo = home / ".m2" / "repository"
    app = install(repo, "com.example", "app-models", "1.0")
    app.with_suffix(".pom").write_text("<project><unclosed></project>")
    diags = Diagnostics()
    assert resolve_dependencies(deps("com.example:app-models:1.0"), [], diags) == [app]
    assert [d.code for d in diags] == ["S1034"] and "not XML" in next(iter(diags)).message


def test_a_dependency_cycle_ends(home):
    repo = home / ".m2" / "repository"
    a = install(repo, "com.example", "a", "1.0")
    b = install(repo, "com.example", "b", "1.0")
    pom(a.with_suffix(".pom"), "com.example", "a", "1.0", dependency("com.example", "b", "1.0"))
    pom(b.with_suffix(".pom"), "com.example", "b", "1.0", dependency("com.example", "a", "1.0"))
    diags = Diagnostics()
    assert resolve_dependencies(deps("com.example:a:1.0"), [], diags) == [a, b] and not list(diags)


def test_a_build_reads_a_dependency_from_the_local_repository(home, tmp_path, monkeypatch):
    """The whole path: a smithy-build.json's maven dependency (and a built-in package's,
    satisfied silently) → the jar in ~/.m2 → a schema whose property comes from it."""
    install(home / ".m2" / "repository", "com.example", "shared-models", "1.2.0")
    model = tmp_path / "model"
    model.mkdir()
    (model / "thing.smithy").write_text(
        '$version: "2"\nnamespace example.app\n'
        "use aws.cloudformation#cfnResource\n"
        "service Things { version: \"1\", resources: [Thing] }\n"
        "@cfnResource\nresource Thing { identifiers: { id: String }, properties: { label: example.shared#Name },\n"
        "    read: GetThing }\n"
        "@readonly operation GetThing { input := { @required id: String }\n"
        "    output := { @required id: String, label: example.shared#Name } }\n")
    config = tmp_path / "smithy-build.json"
    config.write_text(json.dumps({
        "version": "1.0", "sources": ["model"],
        "maven": {"dependencies": ["software.amazon.smithy:smithy-aws-cloudformation-traits:1.54.0",
                                   "com.example:shared-models:1.2.0"]},
        "plugins": {"cloudformation": {"organizationName": "Example"}}}))
    monkeypatch.chdir(tmp_path)
    result = api.build_from_config(config, out_dir=tmp_path / "out", extensions=[])
    assert result.exit_code == 0, [d.format_text() for d in result.diagnostics]
    (schema,) = result.schemas.values()
    assert schema["properties"]["Label"] == {"type": "string", "minLength": 1, "maxLength": 64,
                                             "description": "A name shared by the teams."}
