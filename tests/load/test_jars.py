"""Model jars (:mod:`smithy2cfn.load.jars`): a jar built here with :mod:`zipfile`, holding a
``META-INF/smithy/manifest`` and models, used as a model path, found in a model folder,
named by a ``smithy-build.json``'s ``sources`` and ``imports``; the manifest read as the
reference's ``ModelDiscovery.parseManifest`` reads it; and a build from a jar writes what a
build from the files writes. The limits (bombs, traversal...) are in
``tests/hostile/test_hostile_jars.py``.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from conftest import REPO
from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostics, Severity
from smithy2cfn.load import load_model
from smithy2cfn.load.jars import manifest_line_problem

SHARED_MODEL = """$version: "2"
namespace example.shared

/// A name shared by the teams.
@length(min: 1, max: 64)
string Name
"""

SHARED_JSON = json.dumps({"smithy": "2.0", "shapes": {"example.shared#Count": {"type": "integer"}}})

USES_SHARED = """$version: "2"
namespace example.app

structure Widget {
    name: example.shared#Name
    count: example.shared#Count
}
"""


def make_jar(path: Path, files: dict[str, str | bytes], compression: int = zipfile.ZIP_DEFLATED) -> Path:
    """A jar at ``path`` holding ``files`` (entry name → content), in the order given."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, content in files.items():
            zf.writestr(name, content)
    return path


def shared_jar(path: Path, manifest: str = "# the shared models\n\nshared.smithy\nnested/count.json\n") -> Path:
    return make_jar(path, {
        "META-INF/MANIFEST.MF": "Manifest-Version: 1.0\n",
        "META-INF/smithy/manifest": manifest,
        "META-INF/smithy/shared.smithy": SHARED_MODEL,
        "META-INF/smithy/nested/count.json": SHARED_JSON,
        "software/example/Shared.class": b"\xca\xfe\xba\xbe",
    })


def load(paths: list, **kwargs) -> tuple:
    diags = Diagnostics()
    model = load_model([str(p) for p in paths], diags, **kwargs)
    return model, diags


def errors(diags: Diagnostics) -> list:
    return [d for d in diags if d.is_error]


def test_a_jar_given_as_a_model_path_gives_the_models_its_manifest_lists(tmp_path):
    jar = shared_jar(tmp_path / "lib" / "shared.jar")
    app = tmp_path / "app.smithy"
    app.write_text(USES_SHARED)
    model, diags = load([app, jar])
    assert not errors(diags), [d.format_text() for d in diags]
    assert {"example.shared#Name", "example.shared#Count", "example.app#Widget"} <= set(model.shapes)
    assert model.shapes["example.shared#Name"].traits["smithy.api#documentation"] == "A name shared by the teams."
    assert not [d for d in diags if d.code.startswith("S102")]


def test_a_shape_from_a_jar_is_located_in_the_jar(tmp_path):
    jar = make_jar(tmp_path / "m.jar", {
        "META-INF/smithy/manifest": "a.smithy\n",
        "META-INF/smithy/a.smithy": '$version: "2"\nnamespace ex\n\nstructure S {\n    a: Missing\n}\n',
    })
    model, diags = load([jar])
    [error] = errors(diags)
    assert error.code == "S2001"
    assert error.span.path == f"{jar}!/META-INF/smithy/a.smithy"
    assert (error.span.line, error.span.column) == (5, 5)  # the member
    assert model.shapes["ex#S"].span.path == f"{jar}!/META-INF/smithy/a.smithy"


def test_a_jar_in_a_model_folder_is_read_as_the_reference_reads_it(tmp_path):
    """``ModelAssembler.addImport(Path)`` walks a folder and hands each ``.jar`` to
    ``ModelLoader.loadJar``; a jar without a manifest is ignored (a note here)."""
    folder = tmp_path / "model"
    (folder / "lib").mkdir(parents=True)
    (folder / "app.smithy").write_text(USES_SHARED)
    shared_jar(folder / "lib" / "shared.jar")
    make_jar(folder / "lib" / "tool.jar", {"META-INF/MANIFEST.MF": "Manifest-Version: 1.0\n"})
    model, diags = load([folder])
    assert not errors(diags), [d.format_text() for d in diags]
    assert "example.shared#Name" in model.shapes
    [note] = [d for d in diags if d.code == "S1021"]
    assert note.severity == Severity.NOTE and note.span.path.endswith("tool.jar")


def test_a_jar_given_without_a_manifest_is_a_warning_and_holds_no_models(tmp_path):
    jar = make_jar(tmp_path / "tool.jar", {"META-INF/MANIFEST.MF": "Manifest-Version: 1.0\n"})
    model, diags = load([jar])
    assert [(d.code, d.severity) for d in diags] == [("S1021", Severity.WARNING)]
    assert not [s for s in model.shapes if not s.startswith(("smithy.api#",))]


def test_the_manifest_skips_comments_blank_lines_and_repeats_and_reads_crlf(tmp_path):
    jar = shared_jar(tmp_path / "shared.jar",
                     manifest="# comment\r\n\r\nshared.smithy\r\nshared.smithy\rnested/count.json")
    model, diags = load([jar])
    assert not list(diags), [d.format_text() for d in diags]
    assert {"example.shared#Name", "example.shared#Count"} <= set(model.shapes)


def test_a_listed_file_the_jar_lacks_is_an_error_at_its_manifest_line(tmp_path):
    jar = shared_jar(tmp_path / "shared.jar", manifest="shared.smithy\n# next\nmissing.smithy\n")
    model, diags = load([jar])
    [error] = errors(diags)
    assert error.code == "S1023" and "missing.smithy" in error.message
    assert (error.span.path, error.span.line, error.span.column) == (f"{jar}!/META-INF/smithy/manifest", 3, 1)
    assert "example.shared#Name" in model.shapes  # the other models are read


def test_a_listed_file_that_is_not_a_model_is_an_error(tmp_path):
    """The reference: "Invalid file referenced by Smithy JAR manifest" (a JSON file without a
    ``smithy`` key, another extension); a jar inside a jar is not read either."""
    jar = make_jar(tmp_path / "m.jar", {
        "META-INF/smithy/manifest": "schema.json\nREADME.md\ninner.jar\n",
        "META-INF/smithy/schema.json": '{"type": "object"}',
        "META-INF/smithy/README.md": "# hello",
        "META-INF/smithy/inner.jar": b"PK",
    })
    _, diags = load([jar])
    assert [(d.code, d.span.line) for d in errors(diags)] == [("S1023", 1), ("S1023", 2), ("S1023", 3)]


def test_manifest_lines_follow_model_discovery():
    """``ModelDiscovery.isValidateResourceLine``."""
    for good in ("a.smithy", "nested/b.json", "x-y_z.1.smithy", "ünïcode.smithy"):
        assert manifest_line_problem(good) is None, good
    for bad in ("../a.smithy", "/a.smithy", "a/../b.smithy", "./a.smithy", "a//b.smithy", "a/", "a b.smithy",
                "a\\b.smithy", "C:a.smithy", "a?.smithy", "a%20.smithy", "a*.smithy", "a|b", "a'b", 'a"b',
                "a<b", "a>b", "a#b", "a\tb"):
        assert manifest_line_problem(bad), bad


def test_a_model_in_a_jar_that_is_not_utf8_is_located(tmp_path):
    jar = make_jar(tmp_path / "m.jar", {
        "META-INF/smithy/manifest": "a.smithy\n",
        "META-INF/smithy/a.smithy": b'$version: "2"\nnamespace ex\nstring \xff\n',
    })
    _, diags = load([jar])
    [error] = errors(diags)
    assert error.code == "S1002"
    assert (error.span.path, error.span.line, error.span.column) == (f"{jar}!/META-INF/smithy/a.smithy", 3, 8)


def test_the_same_jar_given_twice_is_read_once(tmp_path):
    jar = shared_jar(tmp_path / "shared.jar")
    _, diags = load([jar, tmp_path / "." / "shared.jar"])
    assert not list(diags), [d.format_text() for d in diags]


def test_a_stored_jar_is_read_too(tmp_path):
    jar = make_jar(tmp_path / "m.jar", {"META-INF/smithy/manifest": "a.smithy",
                                        "META-INF/smithy/a.smithy": SHARED_MODEL}, zipfile.ZIP_STORED)
    model, diags = load([jar])
    assert not list(diags) and "example.shared#Name" in model.shapes


def test_a_build_from_a_jar_writes_what_a_build_from_its_files_writes(tmp_path):
    vault = REPO / "examples" / "vault"
    config = json.loads((vault / "smithy-build.json").read_text())["plugins"]["cloudformation"]
    text = (vault / "model" / "vault.smithy").read_text()
    jar = make_jar(tmp_path / "vault.jar", {"META-INF/smithy/manifest": "vault.smithy\n",
                                            "META-INF/smithy/vault.smithy": text})
    result = api.build([jar], tmp_path / "out", config)
    assert result.ok, [d.format_text() for d in result.diagnostics]
    expected = sorted(p.name for p in (vault / "expected").iterdir())
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == expected
    for name in expected:
        assert (tmp_path / "out" / name).read_text() == (vault / "expected" / name).read_text()


def test_a_smithy_build_json_names_jars_in_sources_and_imports(tmp_path):
    shared_jar(tmp_path / "lib" / "shared.jar")
    make_jar(tmp_path / "lib" / "more.jar", {
        "META-INF/smithy/manifest": "more.smithy\n",
        "META-INF/smithy/more.smithy": '$version: "2"\nnamespace example.more\nstring Extra\n',
    })
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "app.smithy").write_text(USES_SHARED + "\nstructure Other { extra: example.more#Extra }\n")
    config = tmp_path / "smithy-build.json"
    config.write_text(json.dumps({"version": "1.0", "sources": ["model", "lib/shared.jar"],
                                  "imports": ["lib/more.jar"]}))
    settings, sources = api.read_settings(config)
    diags = Diagnostics()
    model = load_model(sources, diags)
    assert not errors(diags), [d.format_text() for d in diags]
    assert {"example.shared#Name", "example.more#Extra", "example.app#Other"} <= set(model.shapes)
