"""Hostile input (issue 6, security): smithy2cfn runs in CI on models and smithy-build.json
files from unreviewed pull requests.

* Nothing is written outside ``-o``: a schema file is named after the schema's final
  ``typeName``, which must match the CloudFormation meta-schema pattern, whatever the
  setting, flag, trait, mapper or library call that made it (``S5020``–``S5023``), and every
  path written or read in check mode must be a plain name inside the output folder
  (``S5024``). Each case snapshots the whole temporary tree before and after.
* Nothing is unpickled from a place another user can write (Lark's ``cache=True`` file in
  the temp folder, the old prelude cache under ``$XDG_CACHE_HOME``).
* Writes are atomic even under ``kill -9``; the files are byte-identical across runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import smithy2cfn
from conftest import REPO
from smithy2cfn import api
from smithy2cfn.cli import main
from smithy2cfn.derive.typename import is_type_name
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.emit import CfnMapper, file_name
from smithy2cfn.load import load_model

EXAMPLE = REPO / "examples" / "vault"
MODEL = EXAMPLE / "model" / "vault.smithy"
SERVICE = "acme.vault#VaultService"

#: Names that must never leave the output folder or reach a file name.
HOSTILE = [
    "../x", "../../x", "a/b", "a\\b", "a\0b", "..", ".", "", "A" * 65, "Acme\n", "Ácme",
    "Acme::Evil", "C:x", "~", "x" * 300,
]
#: A few of them, for the less direct ways in.
SOME_HOSTILE = ["../../x", str(Path("/tmp/x").resolve()), "a/b", "a\0b", "", ".."]


def snapshot(root: Path) -> dict[str, str]:
    """Every entry under ``root``: relative path → content hash (or link target / "dir")."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath, name)
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = "link:" + os.readlink(p)
            elif p.is_dir():
                out[rel] = "dir"
            else:
                out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A working folder three levels deep in a temporary tree; the test runs there."""
    work = tmp_path / "a" / "b" / "work"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    return tmp_path


def run_cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def json_diags(stderr: str) -> list[dict]:
    return [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]


def assert_refused(result, tree: Path, before: dict, code: str, exit_code: int) -> list[dict]:
    """The build failed with ``exit_code`` and an error ``code``, wrote nothing anywhere,
    and printed no traceback."""
    assert result.exit_code == exit_code, result.output
    assert "Traceback" not in result.output
    errors = [d for d in json_diags(result.stderr) if d["severity"] == "error"]
    assert code in {d["code"] for d in errors}, result.stderr
    # the meta-schema's own typeName finding is not repeated under the clearer error
    assert not any(d["code"] == "S4201" and "/typeName" in d["message"] for d in errors), errors
    assert snapshot(tree) == before
    return errors


# ---------------------------------------------------------------- names from flags and settings

@pytest.mark.parametrize(("flag", "value"), [
    *(("--org", v) for v in [*HOSTILE, str(Path("/tmp/x").resolve())] if "\0" not in v),
    *(("--service-name", v) for v in SOME_HOSTILE if "\0" not in v)])
def test_flag_cannot_name_a_file_outside_the_output(tree, flag, value):
    before = snapshot(tree)
    result = run_cli("build", "--config", str(EXAMPLE / "smithy-build.json"), "-o", "out", flag, value,
                     "--format", "json")
    (err,) = assert_refused(result, tree, before, "S5020", 2)
    assert err["file"] == f"<command line {flag}>"
    assert flag in err["hint"]


def test_nul_in_a_flag_is_refused(tree):
    before = snapshot(tree)
    result = run_cli("build", "--config", str(EXAMPLE / "smithy-build.json"), "-o", "out",
                     "--org", "a\0b", "--format", "json")
    assert_refused(result, tree, before, "S5020", 2)


@pytest.mark.parametrize(("layout", "key", "value"), [
    *(("flat", "organizationName", v) for v in [*HOSTILE, str(Path("/tmp/x").resolve())]),
    *(("flat", "serviceName", v) for v in SOME_HOSTILE),
    *(("smithy-build", key, v) for key in ("organizationName", "serviceName") for v in SOME_HOSTILE)])
def test_config_key_cannot_name_a_file_outside_the_output(tree, key, value, layout):
    settings = {"service": SERVICE, "organizationName": "Acme", key: value}
    if layout == "flat":
        config, models = settings, [str(EXAMPLE / "model")]
    else:
        config = {"version": "1.0", "sources": [str(EXAMPLE / "model")],
                  "plugins": {"cloudformation": settings}}
        models = []
    cfg = tree / "a" / "cfg.json"
    cfg.write_text(json.dumps(config, indent=4))
    before = snapshot(tree)
    result = run_cli("build", *models, "--config", str(cfg), "-o", "out", "--format", "json")
    (err,) = assert_refused(result, tree, before, "S5020", 2)
    # located at the key in the config file
    line = next(i for i, text in enumerate(cfg.read_text().splitlines(), 1) if f'"{key}"' in text)
    assert (err["file"], err["line"]) == (str(cfg), line)
    assert key in err["hint"] and str(cfg) in err["hint"]


@pytest.mark.parametrize("value", HOSTILE)
def test_library_settings_cannot_name_a_file_outside_the_output(tree, value):
    before = snapshot(tree)
    result = smithy2cfn.build([str(MODEL)], "out", {"service": SERVICE, "organizationName": value})
    assert not result.ok and not result.written and not result.schemas
    assert "S5020" in {d.code for d in result.diagnostics if d.is_error}
    assert snapshot(tree) == before


@pytest.mark.parametrize("value", ["../../evil", "a/b", "x\\\\y", "..", "Va ult", "V", "Vault\\n",
                                   "Vault\\u0000", "x" * 65])
def test_cfn_resource_name_cannot_name_a_file_outside_the_output(tree, value):
    text = MODEL.read_text().replace('@cfnResource(name: "Vault"', f'@cfnResource(name: "{value}"')
    model = tree / "a" / "m.smithy"
    model.write_text(text)
    before = snapshot(tree)
    result = run_cli("build", str(model), "--org", "Acme", "-o", "out", "--format", "json")
    (err,) = assert_refused(result, tree, before, "S5022", 1)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("@cfnResource("))
    assert (err["file"], err["line"], err["column"]) == (str(model), line, 1)  # at the trait
    assert "cfnResource" in err["hint"]


def test_service_cloudformation_name_and_shape_names_are_checked(tree):
    # the trait's own pattern (^[A-Z][A-Za-z0-9]+$) has no length limit; typeName parts do
    text = MODEL.read_text().replace('cloudFormationName: "Vault"', f'cloudFormationName: "V{"a" * 64}"')
    model = tree / "a" / "m.smithy"
    model.write_text(text)
    before = snapshot(tree)
    result = run_cli("build", str(model), "--org", "Acme", "-o", "out", "--format", "json")
    (err,) = assert_refused(result, tree, before, "S5022", 1)
    assert err["line"] == next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("@service("))
    assert "serviceName" in err["hint"]
    # a resource shape name that is no type name part (underscore) points at the resource
    text = MODEL.read_text().replace('@cfnResource(name: "Vault", ', "@cfnResource(").replace(
        "Vault", "Va_ult").replace('cloudFormationName: "Va_ult"', 'cloudFormationName: "Vault"').replace(
        'sdkId: "Va_ult"', 'sdkId: "Vault"')  # an SDK ID with `_` is a DANGER (SdkServiceId)
    model.write_text(text)
    before = snapshot(tree)
    result = run_cli("build", str(model), "--org", "Acme", "-o", "out", "--format", "json")
    (err,) = assert_refused(result, tree, before, "S5022", 1)
    assert err["shapeId"] == "acme.vault#Va_ult" and "cfnResource" in err["hint"]
    assert err["line"] == next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("resource Va_ult"))


# ---------------------------------------------------------------- names set by mappers

@pytest.mark.parametrize("setting", ["jsonAdd", "schemaDocumentExtensions"])
@pytest.mark.parametrize("value", ["../../x", "Acme::Vault::Vault\n", "Acme::Vault::Vault/../../x", 5, None])
def test_type_name_set_by_a_mapper_is_checked(tree, setting, value):
    settings = {"service": SERVICE, "organizationName": "Acme"}
    if setting == "jsonAdd":
        settings["jsonAdd"] = {"acme.vault#Vault": {"/typeName": value}}
    else:
        settings["schemaDocumentExtensions"] = {"typeName": value}
    cfg = tree / "a" / "cfg.json"
    cfg.write_text(json.dumps(settings, indent=2))
    before = snapshot(tree)
    result = run_cli("build", str(EXAMPLE / "model"), "--config", str(cfg), "-o", "out", "--format", "json")
    (err,) = assert_refused(result, tree, before, "S5021", 2)
    line = next(i for i, text in enumerate(cfg.read_text().splitlines(), 1) if f'"{setting}"' in text)
    assert (err["file"], err["line"]) == (str(cfg), line)


def test_file_name_follows_the_final_type_name(tree):
    """A bad organizationName that jsonAdd replaces does not matter: the file is named after
    the typeName that is written, inside the output folder."""
    settings = {"service": SERVICE, "organizationName": "../../x",
                "jsonAdd": {"acme.vault#Vault": {"/typeName": "Other::Vault::Thing"}}}
    before = snapshot(tree)
    result = smithy2cfn.build([str(MODEL)], "out", settings)
    assert result.ok, [d.format_text() for d in result.diagnostics]
    assert json.loads(Path("out/other-vault-thing.json").read_text())["typeName"] == "Other::Vault::Thing"
    assert set(snapshot(tree)) - set(before) == {"a/b/work/out", "a/b/work/out/other-vault-thing.json"}


class _EvilMapper(CfnMapper):
    order = 200

    def update_node(self, context, node):
        node["typeName"] = "../../evil"
        return node


def test_custom_mapper_cannot_name_a_file_outside_the_output():
    from smithy2cfn.derive import derive_plan
    from smithy2cfn.emit import emit_schemas
    from smithy2cfn.settings import Settings

    diags = Diagnostics()
    model = load_model([str(MODEL)], diags)
    config = Settings.from_mapping({"service": SERVICE, "organizationName": "Acme"}, diags)
    assert emit_schemas(model, derive_plan(model, config, diags), diags, [_EvilMapper()]) == {}
    (err,) = [d for d in diags if d.is_error]
    assert err.code == "S5023" and "_EvilMapper" in err.message and err.span.path == str(MODEL)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(org=st.text(max_size=70), svc=st.one_of(st.none(), st.text(max_size=70)))
def test_any_name_gives_a_plain_file_name_or_a_located_error(vault_model, org, svc):
    """Property: whatever the names, a schema is only ever returned under a plain lower-case
    file name made from its typeName; otherwise S5020 says which setting is wrong."""
    settings_ = {"service": SERVICE, "organizationName": org}
    if svc is not None:
        settings_["serviceName"] = svc
    result = api.convert(vault_model, settings_)
    schemas, diags = result.schemas, result.diagnostics
    for name, schema in schemas.items():
        assert re.fullmatch(r"[a-z0-9-]+\.json", name)
        assert is_type_name(schema["typeName"]) and name == file_name(schema["typeName"])
        assert api.output_path(Path("out"), name) == Path("out") / name
    if not schemas:
        assert {d.code for d in diags if d.is_error} == {"S5020"}


@pytest.fixture(scope="module")
def vault_model():
    diags = Diagnostics()
    model = load_model([str(MODEL)], diags)
    assert not diags.has_errors
    return model


def test_file_name_refuses_what_is_not_a_type_name():
    assert file_name("Acme::Vault::Vault") == "acme-vault-vault.json"
    assert file_name("Acme::Vault::Vault::MODULE") == "acme-vault-vault-module.json"
    for bad in ["../x::a::b", "Acme::Vault::Vault\n", "Acme::Vault", "A::Vault::Vault", 5]:
        with pytest.raises(ValueError):
            file_name(bad)


# ---------------------------------------------------------------- defence in depth: api.build paths

@pytest.mark.parametrize("name", ["../x.json", "/tmp/x.json", "a/b.json", "a\\b.json", "a\0b.json", "..", ".",
                                  "", ".hidden.json", "x" * 300 + ".json"])
def test_output_paths_stay_inside_the_output_folder(tree, monkeypatch, name):
    if name == "/tmp/x.json":
        name = str(tree / "abs.json")
    assert api.output_path(Path("out"), name) is None
    monkeypatch.setattr(api, "_convert", lambda *a, **k: ({name: {"typeName": "A::B::C"}, "ok.json": {}}, None))
    before = snapshot(tree)
    for check in (False, True):
        result = api.build([str(MODEL)], "out", {}, check=check)
        assert [d.code for d in result.diagnostics if d.is_error] == ["S5024"]
        assert not result.written and not result.stale
        assert snapshot(tree) == before


def test_check_mode_does_not_read_through_a_link_out_of_the_folder(tree):
    secret = tree / "secret.json"
    secret.write_text(api.render_schema(
        smithy2cfn.build([str(EXAMPLE / "model")], None, {"service": SERVICE, "organizationName": "Acme"})
        .schemas["acme-vault-vault.json"]))
    out = Path("out")
    out.mkdir()
    (out / "acme-vault-vault.json").symlink_to(secret)
    result = run_cli("build", "--config", str(EXAMPLE / "smithy-build.json"), "-o", "out", "--check",
                     "--format", "json")
    assert result.exit_code == 1
    assert [d["code"] for d in json_diags(result.stderr) if d["severity"] == "error"] == ["S5024"]
    # a real build replaces the link itself and never writes through it
    before = secret.read_bytes()
    assert run_cli("build", "--config", str(EXAMPLE / "smithy-build.json"), "-o", "out").exit_code == 0
    assert not (out / "acme-vault-vault.json").is_symlink()
    assert secret.read_bytes() == before


# ---------------------------------------------------------------- nothing unpickled from shared places

def _marker_pickle(marker: Path) -> bytes:
    """A pickle whose unpickling creates ``marker`` (what a planted cache file could do)."""

    class Plant:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    return pickle.dumps(Plant())


def _env(tmp: Path, cache: Path, home: Path) -> dict:
    return {**os.environ, "TMPDIR": str(tmp), "XDG_CACHE_HOME": str(cache), "HOME": str(home)}


def test_planted_lark_cache_is_never_loaded(tmp_path):
    """Lark's ``cache=True`` keeps ``$TMPDIR/.lark_cache_<user>_<sha>_<py>.tmp`` and unpickles
    it before checking anything: another user of the machine could plant one. We let Lark
    write its file under a private TMPDIR (so the name is exactly Lark's), replace it with a
    planted pickle, show that Lark with ``cache=True`` would run it, and that smithy2cfn never
    does."""
    tmp, cache, home = (tmp_path / n for n in ("tmp", "cache", "home"))
    for folder in (tmp, cache, home):
        folder.mkdir()
    marker = tmp_path / "pwned"
    make = ("from lark import Lark; from smithy2cfn.parse.tables import grammar_text;"
            "Lark(grammar_text(), cache=True, parser='lalr', lexer='basic', propagate_positions=True,"
            " maybe_placeholders=False)")
    env = _env(tmp, cache, home)
    subprocess.run([sys.executable, "-c", make], env=env, check=True)
    (planted,) = [p for p in tmp.iterdir() if re.fullmatch(r"\.lark_cache_.+\.tmp", p.name)]
    planted.write_bytes(b"0" * 64 + b"\n" + _marker_pickle(marker))
    for args in (["validate", str(MODEL)],
                 ["build", "--config", str(EXAMPLE / "smithy-build.json"), "-o", str(tmp_path / "out")]):
        proc = subprocess.run([sys.executable, "-m", "smithy2cfn", *args], env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        assert not marker.exists()
    # the plant is live: the old way of building the parser runs it
    subprocess.run([sys.executable, "-c", make], env=env, capture_output=True)
    assert marker.exists()


def test_planted_prelude_pickle_is_never_loaded(tmp_path):
    """The old prelude cache was ``$XDG_CACHE_HOME/smithy2cfn/prelude-<key>.pickle`` (key: the
    package version, the grammar and the prelude files). Planted at that name (and a few
    others), it is never read."""
    import hashlib as _hashlib

    from smithy2cfn import __version__
    from smithy2cfn.parse.tables import grammar_text
    from smithy2cfn.prelude import prelude_files

    tmp, cache, home = (tmp_path / n for n in ("tmp", "cache", "home"))
    marker = tmp_path / "pwned"
    digest = _hashlib.sha256(__version__.encode() + grammar_text().encode())
    for name, text in prelude_files():
        digest.update(name.encode() + b"\0" + text.encode())
    names = [f"prelude-{digest.hexdigest()[:24]}.pickle", "prelude.pickle", "prelude-0.pickle"]
    for folder in (cache / "smithy2cfn", home / ".cache" / "smithy2cfn", tmp):
        folder.mkdir(parents=True)
        for name in names:
            (folder / name).write_bytes(_marker_pickle(marker))
    env = _env(tmp, cache, home)
    for args in (["validate", str(MODEL)],
                 ["build", "--config", str(EXAMPLE / "smithy-build.json"), "-o", str(tmp_path / "out")]):
        proc = subprocess.run([sys.executable, "-m", "smithy2cfn", *args], env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        assert not marker.exists()
    # the plant is live
    subprocess.run([sys.executable, "-c", f"import pickle; pickle.load(open({str(tmp / names[0])!r}, 'rb'))"])
    assert marker.exists()


#: The one module that unpickles: what its own forked helper process sends back through an
#: anonymous pipe (``os.pipe`` before ``os.fork``), never a file or anything another user
#: can write to.
UNPICKLES_FROM_ITS_OWN_CHILD = "parallel.py"


def test_no_module_unpickles_or_uses_a_lark_cache():
    """Nothing in the package can load a pickle, marshal or shelve file, or ask Lark for its
    temp-folder cache; :mod:`smithy2cfn.parallel` unpickles bytes read from the pipe of the
    process it forked, and nothing else."""
    src = Path(smithy2cfn.__file__).parent
    for path in src.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.relative_to(src).as_posix() == UNPICKLES_FROM_ITS_OWN_CHILD:
            # (it opens one file: Linux's count of tasks ready to run, read as text)
            assert re.findall(r"\bopen\(([^,)]*)", text) == ["_LOADAVG"] and '_LOADAVG = "/proc/loadavg"' in text
            assert not re.search(r"\b(pickle\.load\(|marshal|shelve|dill)", text), path
            assert re.findall(r"pickle\.loads\(([^)]*\))", text) == ["data)"], path
            # (every reader of results reads the pipe back from the helper, made before the fork)
            assert set(re.findall(r"_Received\((\w+),", text)) == {"back_r"}
            assert text.count("back_r, back_w = os.pipe()") == 1
            assert text.index("back_r, back_w = os.pipe()") < text.index("pid = os.fork()")  # (before the one fork)
            assert text.count("os.fork()") == 1
            assert "chunk = os.read(self.fd" in text
            continue
        assert not re.search(r"^\s*(import|from)\s+(pickle|cPickle|marshal|shelve|dill)\b", text, re.M), path
        assert "cache=True" not in text.replace("``cache=True``", ""), path


# ---------------------------------------------------------------- atomic writes

def test_write_atomically_mode_links_and_fallback(tmp_path, monkeypatch):
    old = os.umask(0o027)
    try:
        for anonymous in (True, False):
            if not anonymous:
                monkeypatch.delattr(os, "O_TMPFILE", raising=False)
            folder = tmp_path / f"out-{anonymous}"
            target = folder / "a.json"
            api.write_atomically(target, "one\n")
            assert target.read_text() == "one\n"
            assert target.stat().st_mode & 0o777 == 0o640  # 0o644 minus the umask
            api.write_atomically(target, "two\n")
            assert target.read_text() == "two\n"
            # a link is replaced, never written through
            outside = tmp_path / f"outside-{anonymous}"
            outside.write_text("keep")
            target.unlink()
            target.symlink_to(outside)
            api.write_atomically(target, "three\n")
            assert outside.read_text() == "keep" and not target.is_symlink() and target.read_text() == "three\n"
            # a FIFO is replaced, never opened for reading or writing (that would block)
            target.unlink()
            os.mkfifo(target)
            api.write_atomically(target, "four\n")
            assert target.read_text() == "four\n"
            assert sorted(p.name for p in folder.iterdir()) == ["a.json"]
    finally:
        os.umask(old)


def test_unchanged_files_are_left_alone(tmp_path):
    target = tmp_path / "a.json"
    api.write_atomically(target, "same\n")
    before = os.stat(target)
    api.write_atomically(target, "same\n")
    assert os.stat(target).st_ino == before.st_ino


def test_the_writer_writes_and_checks_any_named_artifacts(tree):
    """The writer is not about schemas: any set of named texts (docs, test inputs) is
    written whole, compared in check mode, and a bad name stops everything."""
    from smithy2cfn import writer

    out = Path("docs")
    artifacts = {"Acme-Vault.md": "# Vault\n", "index.txt": "Vault\n"}
    stale = writer.write_artifacts(out, artifacts, check=True)
    assert [p.name for p in stale.stale] == ["Acme-Vault.md", "index.txt"] and not out.exists()
    assert [d.code for d in stale.diagnostics] == ["S5010", "S5010"] and not stale.ok
    done = writer.write_artifacts(out, artifacts)
    assert done.ok and done.written == [out / "Acme-Vault.md", out / "index.txt"]
    assert (out / "Acme-Vault.md").read_text() == "# Vault\n"
    assert writer.write_artifacts(out, artifacts, check=True).ok
    (out / "index.txt").write_text("changed\n")
    assert [p.name for p in writer.write_artifacts(out, artifacts, check=True).stale] == ["index.txt"]
    before = snapshot(tree)
    refused = writer.write_artifacts(out, {**artifacts, "../escape.md": "x"}, hint="name them well")
    (d,) = refused.diagnostics
    assert (d.code, d.hint, refused.written) == ("S5024", "name them well", [])
    assert snapshot(tree) == before
    (out / ".Acme-Vault.md.ab_d1234.tmp").write_text("left by a killed build")
    assert writer.sweep_temp_files(out) == [out / ".Acme-Vault.md.ab_d1234.tmp"]


def test_build_sweeps_only_our_temp_files(tree):
    out = Path("out")
    out.mkdir()
    ours = [".acme-vault-vault.json.ab_d1234.tmp", ".x-y-z.json.k2j3h4g5.tmp"]
    others = [".notes.tmp", "x.json.abcd1234.tmp", ".acme-vault-vault.json.abcd1234.tmp.keep", "keep.json"]
    for name in ours + others:
        (out / name).write_text("x")
    (out / ".dir.json.abcd1234.tmp").mkdir()
    result = run_cli("build", "--config", str(EXAMPLE / "smithy-build.json"), "-o", "out")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(
        others + [".dir.json.abcd1234.tmp", "acme-vault-vault.json"])


def _big_model(folder: Path, n: int = 24) -> Path:
    """A service with ``n`` cfnResource resources (``n`` schema files)."""
    parts = ['$version: "2"', "namespace big.example", "use aws.cloudformation#cfnResource",
             'service Big { version: "1", resources: [' + ", ".join(f"R{i}" for i in range(n)) + "] }",
             "list Labels { member: String }"]
    for i in range(n):
        parts.append(f"""
@cfnResource
resource R{i} {{
    identifiers: {{ id: String }}
    properties: {{ name: String, size: Integer, tags: Labels }}
    create: CreateR{i}
    read: GetR{i}
}}
operation CreateR{i} {{
    input := for R{i} {{
        @required
        $name
        $size
        $tags
    }}
    output := for R{i} {{
        @required
        $id
    }}
}}
@readonly
operation GetR{i} {{
    input := for R{i} {{
        @required
        $id
    }}
    output := for R{i} {{
        @required
        $id
        $name
        $size
        $tags
    }}
}}""")
    path = folder / "big.smithy"
    path.write_text("\n".join(parts) + "\n")
    return path


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()} if folder.exists() else {}


def test_kill_9_leaves_only_complete_schemas(tmp_path):
    """Real ``smithy2cfn build`` processes killed with SIGKILL at random moments (40 in all,
    two at a time) leave only complete schemas identical to a clean build's (or the complete
    old file they were replacing), and no temporary file; the next build completes the
    folder. The example replaces an existing, different file and is killed anywhere in its
    run; a 24-resource model fills its folder and is killed while the files appear."""
    rng = random.Random(40)
    big = _big_model(tmp_path)
    cli = [sys.executable, "-m", "smithy2cfn", "build", "-q"]
    cases = {"vault": ["--config", str(EXAMPLE / "smithy-build.json")], "big": [str(big), "--org", "Big"]}
    refs, took = {}, {}
    for name, args in cases.items():
        start = time.monotonic()
        subprocess.run([*cli, *args, "-o", str(tmp_path / f"ref-{name}")], check=True, capture_output=True)
        took[name] = time.monotonic() - start
        refs[name] = _files(tmp_path / f"ref-{name}")
    assert len(refs["big"]) == 24
    (vault_name,) = refs["vault"]
    old_vault = json.dumps(json.loads(refs["vault"][vault_name]), indent=4).encode()  # complete, different
    vault_out, big_out = tmp_path / "out-vault", tmp_path / "out-big"
    vault_out.mkdir()
    leftovers = partial = 0
    for attempt in range(20):
        (vault_out / vault_name).write_bytes(old_vault)
        if attempt % 4 == 0:
            shutil.rmtree(big_out, ignore_errors=True)
        count = len(_files(big_out))
        start = time.monotonic()
        procs = {"vault": subprocess.Popen([*cli, *cases["vault"], "-o", str(vault_out)], stderr=subprocess.DEVNULL),
                 "big": subprocess.Popen([*cli, *cases["big"], "-o", str(big_out)], stderr=subprocess.DEVNULL)}
        kill_at = {"vault": start + rng.uniform(0.3, 1.1) * took["vault"], "big": None}
        deadline = start + 3 * max(took.values()) + 5
        while procs:
            now = time.monotonic()
            if kill_at["big"] is None and (
                    (big_out.exists() and len(os.listdir(big_out)) > count) or now > deadline):
                kill_at["big"] = now + rng.uniform(0, 0.03)
            for name in [n for n in procs if kill_at[n] is not None and now >= kill_at[n]]:
                procs[name].send_signal(signal.SIGKILL)
                procs.pop(name).wait()
            time.sleep(0.001)
        partial += 0 < len(_files(big_out)) < 24
        for name, out in (("vault", vault_out), ("big", big_out)):
            allowed = {k: {v} for k, v in refs[name].items()}
            if name == "vault":
                allowed[vault_name].add(old_vault)
            for file, data in _files(out).items():
                if api.TEMP_FILE_RE.fullmatch(file):
                    # only between linking a finished file under a temporary name and renaming
                    # it over the old one (two system calls): complete, and swept next time
                    assert name == "vault" and data == refs[name][vault_name], file
                    leftovers += 1
                    continue
                assert data in allowed.get(file, ()), f"attempt {attempt}: {name} {file} is partial or foreign"
    for name, args in cases.items():
        subprocess.run([*cli, *args, "-o", str(tmp_path / f"out-{name}")], check=True, capture_output=True)
        assert _files(tmp_path / f"out-{name}") == refs[name]
    assert leftovers <= 2, f"{leftovers} temporary files left by 20 kills during a replacement"
    print(f"kill -9: {partial}/20 big-model kills left a partly filled folder; {leftovers} temporary files "
          f"(clean builds took {took['vault']:.2f} s and {took['big']:.2f} s)")


def test_schemas_are_byte_identical_with_and_without_the_precomputed_data(tmp_path, monkeypatch):
    from smithy2cfn.load import loader, prelude_data
    from smithy2cfn.parse import syntax, tables

    args = ([str(EXAMPLE / "model")], {"service": SERVICE, "organizationName": "Acme"})
    first = api.build(args[0], tmp_path / "a", args[1])
    assert first.ok
    monkeypatch.setattr(prelude_data, "key", lambda sources=None: "stale")
    monkeypatch.setattr(tables, "key", lambda grammar: "stale")
    syntax.get_parser.cache_clear()
    loader._prelude_documents.cache_clear()
    try:
        assert api.build(args[0], tmp_path / "b", args[1]).ok
    finally:
        syntax.get_parser.cache_clear()
        loader._prelude_documents.cache_clear()
    assert _files(tmp_path / "a") == _files(tmp_path / "b") == _files(EXAMPLE / "expected")


# ---------------------------------------------------------------- locating settings in a config file

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                      max_size=3), max_leaves=10)
#: Keys that make a flat settings file look like a smithy-build.json are left out.
setting_keys = st.text(max_size=8).filter(
    lambda k: k not in {"version", "sources", "imports", "plugins", "projections", "outputDirectory", "maven"})


@settings(max_examples=60, deadline=None)
@given(settings_=st.dictionaries(setting_keys, json_values, max_size=5), indent=st.sampled_from([None, 1, 4]),
       smithy_build=st.booleans())
def test_config_file_locates_each_setting(tmp_path_factory, settings_, indent, smithy_build):
    from smithy2cfn.smithy_build import read_config_file

    doc = {"version": "1.0", "plugins": {"cloudformation": settings_}} if smithy_build else settings_
    path = tmp_path_factory.mktemp("cfg") / "c.json"
    text = json.dumps(doc, indent=indent)
    path.write_text(text, encoding="utf-8")
    spans = read_config_file(path, Diagnostics()).spans
    assert set(spans) == set(settings_)
    lines = text.splitlines()
    for key, span in spans.items():
        line = lines[span.line - 1]
        assert json.JSONDecoder().raw_decode(line, span.column - 1)[0] == key


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=60) | st.sampled_from(["[" * 5000, '{"a":' * 3000 + "1" + "}" * 3000]))
def test_reading_a_config_file_never_raises(tmp_path_factory, text):
    from smithy2cfn.smithy_build import read_config_file

    path = tmp_path_factory.mktemp("cfg") / "c.json"
    path.write_text(text, encoding="utf-8")
    diags = Diagnostics()
    assert isinstance(read_config_file(path, diags).spans, dict)
    assert all(d.span is not None for d in diags)
