"""Extensions (reference ``Smithy2CfnExtension``): CFN mappers and JSON Schema mappers from
other packages, passed to the library or installed with an entry point
(``smithy2cfn.extensions``); a broken one is a located ``S5030``, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import REPO
from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.emit import CfnMapper, Extension, discovery
from smithy2cfn.emit.extensions import ENTRY_POINT_GROUP, ExtensionMappers

EXAMPLE = REPO / "examples" / "vault"
CONFIG = EXAMPLE / "smithy-build.json"
SCHEMA = "acme-vault-vault.json"
SETTINGS = {"service": "acme.vault#VaultService", "organizationName": "Acme"}
THIS = str(Path(__file__).resolve())


def line_of(text: str, path: str = THIS) -> int:
    """The 1-based line of ``path`` holding the comment ``text`` (once; not as a string)."""
    lines = Path(path).read_text().splitlines()
    (number,) = [i for i, line in enumerate(lines, 1) if text in line and f'"{text}' not in line]
    return number


class Stamp(CfnMapper):
    """Appends a mark to the schema description (after the core mappers)."""

    def __init__(self, mark: str) -> None:
        self.mark = mark

    def update_node(self, context, node):
        node["description"] += f" [{self.mark}]"
        return node


def comment_strings(conv, shape, schema):
    """A JSON Schema mapper: every string schema gets a ``$comment``."""
    if schema.get("type") == "string":
        schema["$comment"] = "string checked"
    return schema


class Both(Extension):
    def cfn_mappers(self):
        return [Stamp("both")]

    def json_schema_mappers(self):
        return [comment_strings]


def build(extensions, settings=SETTINGS):
    return api.build([EXAMPLE / "model"], None, settings, extensions=extensions)


def s5030(result) -> list:
    found = [d for d in result.diagnostics if d.code == "S5030"]
    assert found and all(d.is_error for d in found)
    assert result.exit_code == 2 and result.schemas == {}
    return found


# ---------------------------------------------------------------- passed to the library


def test_an_extension_changes_the_output_through_both_hooks():
    plain = build([]).schemas[SCHEMA]
    result = build([Both()])
    assert result.exit_code == 0, result.diagnostics
    schema = result.schemas[SCHEMA]
    assert schema["description"] == plain["description"] + " [both]"
    strings = [p for p in schema["properties"].values() if p.get("type") == "string"]
    assert strings and all(p["$comment"] == "string checked" for p in strings)
    assert all("$comment" not in p for p in plain["properties"].values())


def test_convert_takes_extensions_too():
    model = api.load([EXAMPLE / "model"]).model
    schemas = api.convert(model, SETTINGS, extensions=[Both()]).schemas
    assert schemas[SCHEMA]["description"].endswith(" [both]")
    assert api.convert(model, SETTINGS, extensions=[]).schemas[SCHEMA]["description"] == \
        build([]).schemas[SCHEMA]["description"]


def test_hooks_are_optional_and_a_class_or_module_is_an_extension():
    class OnlyCfn:  # no base class: only one hook
        def cfn_mappers(self):
            return (Stamp("cfn"),)

    module = type(sys)("only_schema")  # a module with one hook function
    module.json_schema_mappers = lambda: [comment_strings]
    result = build([OnlyCfn, module])  # the class is created without arguments
    assert result.exit_code == 0, result.diagnostics
    schema = result.schemas[SCHEMA]
    assert schema["description"].endswith(" [cfn]")
    assert any("$comment" in p for p in schema["properties"].values())

    class Nothing(Extension):  # the protocol's defaults: no mappers
        pass

    assert build([Nothing()]).schemas == build([]).schemas


def test_mappers_run_in_extension_order_then_by_order():
    class First(Extension):
        def cfn_mappers(self):
            return [Stamp("a")]

    class Early(CfnMapper):
        order = -10

        def update_node(self, context, node):
            node["description"] += " [early]"
            return node

    class Second(Extension):
        def cfn_mappers(self):
            return [Stamp("b"), Early()]

    description = build([First(), Second()]).schemas[SCHEMA]["description"]
    assert description.endswith(" [early] [a] [b]")


def test_no_global_registry_leaks_between_builds():
    import smithy2cfn.emit.mappers as mappers

    assert not hasattr(mappers, "register_mapper") and not hasattr(mappers, "_REGISTERED")
    build([Both()])
    assert "[both]" not in build([]).schemas[SCHEMA]["description"]


def test_an_extension_mappers_bundle_is_an_extension():
    bundle = ExtensionMappers([Stamp("x")], [comment_strings])
    assert build([bundle]).schemas[SCHEMA]["description"].endswith(" [x]")


# ---------------------------------------------------------------- broken extensions, passed in


class Raises(Extension):
    def cfn_mappers(self):
        raise RuntimeError("no mappers today")  # the raise line


class ReturnsOne(Extension):
    def json_schema_mappers(self):  # returns a function, not a list
        return comment_strings


class ReturnsClass(Extension):
    def cfn_mappers(self):  # returns a class, not an instance
        return [Stamp]


class BadOrder(CfnMapper):
    order = "first"


class ReturnsBadOrder(Extension):
    def cfn_mappers(self):  # an order that cannot be sorted
        return [BadOrder()]


class NotAMethod:
    cfn_mappers = [Stamp("list")]


class NeedsArguments(Extension):
    def __init__(self, required):
        self.required = required


def test_a_hook_that_raises_is_located_where_it_raised():
    (d,) = s5030(build([Raises()]))
    assert "extension Raises: cfn_mappers() raised RuntimeError: no mappers today" in d.message
    assert (d.span.path, d.span.line) == (THIS, line_of("# the raise line"))
    assert d.hint and "extensions=[...]" in d.hint


@pytest.mark.parametrize("extension, words, marker", [
    (ReturnsOne(), "json_schema_mappers() returned a function, not a list", "# returns a function"),
    (ReturnsClass(), "item 0 of cfn_mappers() is the class Stamp (not an instance of it)", "# returns a class"),
    (ReturnsBadOrder(), "item 0 of cfn_mappers() is a BadOrder, not one of the CfnMapper instances with an "
                        "integer 'order'", "# an order that cannot"),
])
def test_a_hook_returning_no_mappers_is_located_at_the_hook(extension, words, marker):
    (d,) = s5030(build([extension]))
    assert words in d.message and type(extension).__name__ in d.message
    assert (d.span.path, d.span.line) == (THIS, line_of(marker))


def test_what_is_no_extension_is_reported():
    (d,) = s5030(build([NotAMethod()]))
    assert "extension NotAMethod: 'cfn_mappers' is a list, not a method" in d.message
    assert (d.span.path, d.span.line) == (THIS, line_of("class NotAMethod:"))  # no method: its class
    (d,) = s5030(build([42]))
    assert "extension 42 is not an extension: an object of type int with neither" in d.message
    (d,) = s5030(build([NeedsArguments]))
    assert "extension NeedsArguments cannot be created: TypeError" in d.message
    (d,) = s5030(build("not a list"))
    assert "extensions must be a list" in d.message


def test_a_broken_extension_is_reported_with_the_models_problems_and_nothing_is_written(tmp_path):
    bad_model = tmp_path / "bad.smithy"
    bad_model.write_text('$version: "2"\nnamespace a\nstructure S { x: Nope }\n')
    result = api.build([bad_model], tmp_path / "out", {}, extensions=[Both(), Raises()])
    assert {d.code for d in result.diagnostics if d.is_error} == {"S5030", "S2001"}
    assert result.exit_code == 2 and not (tmp_path / "out").exists()


# ---------------------------------------------------------------- installed packages (entry points)


PACKAGES = {
    # a class: both hooks
    "s2c-demo": ("s2c_demo", "demo = \"s2c_demo:Demo\"", """
        from smithy2cfn.emit import CfnMapper, Extension


        class Mark(CfnMapper):
            def __init__(self, mark):
                self.mark = mark

            def update_node(self, context, node):
                node["description"] += " [" + self.mark + "]"
                return node


        def comment(conv, shape, schema):
            if schema.get("type") == "string":
                schema["$comment"] = "from s2c-demo"
            return schema


        class Demo(Extension):
            def cfn_mappers(self):
                return [Mark("demo")]

            def json_schema_mappers(self):
                return [comment]
        """),
    # a factory function, named before "demo": runs first
    "s2c-alpha": ("s2c_alpha", "alpha = \"s2c_alpha:make\"", """
        from s2c_demo import Mark


        class Alpha:
            def cfn_mappers(self):
                return [Mark("alpha")]


        def make():
            return Alpha()
        """),
}
BROKEN = {
    "s2c-broken": ("s2c_broken", "boom = \"s2c_broken:Ext\"", """
        import os

        raise RuntimeError("cannot start: " + os.sep)
        """),
    "s2c-missing": ("s2c_missing", "missing = \"s2c_missing:Nope\"", """
        class Ext:
            pass
        """),
}


def install(root: Path, packages: dict, site: Path) -> None:
    """Write each package (pyproject + module) and pip-install them into ``site``."""
    dirs = []
    for dist, (module, entry, code) in packages.items():
        pkg = root / dist
        (pkg / module).mkdir(parents=True)
        (pkg / module / "__init__.py").write_text(textwrap.dedent(code).lstrip())
        (pkg / "pyproject.toml").write_text(textwrap.dedent(f"""\
            [build-system]
            requires = ["hatchling"]
            build-backend = "hatchling.build"

            [project]
            name = "{dist}"
            version = "0.1"

            [project.entry-points."{ENTRY_POINT_GROUP}"]
            {entry}
            """))
        dirs.append(str(pkg))
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                           "--no-index", "--target", str(site), *dirs], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("extensions")
    install(root / "good", PACKAGES, root / "site")
    install(root / "bad", BROKEN, root / "site-broken")
    return {"good": root / "site", "broken": root / "site-broken"}


def cli(*args: str, pythonpath: Path | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run([sys.executable, "-m", "smithy2cfn", *args], capture_output=True, text=True, env=env)


def test_installed_extensions_run_in_entry_point_name_order(sites, tmp_path):
    for name, path in (("plain", None), ("extended", sites["good"])):
        proc = cli("build", "--config", str(CONFIG), "-o", str(tmp_path / name), pythonpath=path)
        assert proc.returncode == 0, proc.stderr
    plain = json.loads((tmp_path / "plain" / SCHEMA).read_text())
    extended = json.loads((tmp_path / "extended" / SCHEMA).read_text())
    # the CFN mappers: alpha's, then demo's (entry point names, sorted)
    assert extended["description"] == plain["description"] + " [alpha] [demo]"
    # the JSON Schema mapper
    strings = [p for p in extended["properties"].values() if p.get("type") == "string"]
    assert strings and all(p["$comment"] == "from s2c-demo" for p in strings)
    assert not any("$comment" in p for p in plain["properties"].values())


def test_broken_installed_extensions_are_located_errors(sites, tmp_path):
    proc = cli("build", "--config", str(CONFIG), "-o", str(tmp_path / "out"), "--format", "json",
               pythonpath=sites["broken"])
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert not (tmp_path / "out").exists()
    found = {d["message"].split(" ")[1]: d for d in map(json.loads, proc.stderr.splitlines())
             if d["code"] == "S5030"}
    assert set(found) == {"'boom'", "'missing'"}
    boom, missing = found["'boom'"], found["'missing'"]
    # an import that raises: located at the raise in the extension's module
    assert "(s2c_broken:Ext, from s2c-broken 0.1) cannot be loaded: RuntimeError: cannot start" in boom["message"]
    assert boom["file"] == str(sites["broken"] / "s2c_broken" / "__init__.py") and boom["line"] == 3
    assert "entry_points.txt:2:1)" in boom["message"] and boom["hint"].endswith("pip uninstall s2c-broken")
    # a missing attribute: located at the entry point's line in the installed entry_points.txt
    assert "cannot be loaded: AttributeError" in missing["message"] and "declared at" not in missing["message"]
    declared = Path(missing["file"])
    assert declared.name == "entry_points.txt" and declared.parent.parent == sites["broken"]
    assert declared.read_text().splitlines()[missing["line"] - 1].startswith("missing = s2c_missing:Nope")


def test_installed_extensions_are_found_and_sorted(sites, monkeypatch):
    monkeypatch.syspath_prepend(str(sites["good"]))
    diags = Diagnostics()
    found = discovery.installed_extensions(diags)
    assert list(diags) == []
    assert [(e.name, e.value, e.distribution, e.version) for e in found] == [
        ("alpha", "s2c_alpha:make", "s2c-alpha", "0.1"), ("demo", "s2c_demo:Demo", "s2c-demo", "0.1")]
    assert found[1].declaration().line == 2
    mappers = discovery.resolve_extensions(None, diags)
    assert not diags.has_errors
    assert [m.mark for m in mappers.cfn] == ["alpha", "demo"] and len(mappers.json_schema) == 1
    # a list means exactly those: the installed ones do not run
    assert build([]).schemas[SCHEMA]["description"] == build([Both()]).schemas[SCHEMA]["description"][:-7]
    assert build(None).schemas[SCHEMA]["description"].endswith(" [alpha] [demo]")


def fake_package(site: Path, name: str, entry_points: bytes) -> Path:
    """A package's installed metadata only (METADATA, RECORD, entry_points.txt)."""
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_bytes(entry_points)
    (info / "RECORD").write_text("".join(f"{info.name}/{f},,\n" for f in ("METADATA", "entry_points.txt", "RECORD")))
    return info / "entry_points.txt"


def test_unreadable_entry_points_are_reported_not_raised(tmp_path, monkeypatch):
    # networkx, imported already, reads every package's entry points when it is imported and
    # raises on such files itself: a separate problem, out of this test's reach

    site = tmp_path / "site"
    no_equals = fake_package(site, "noequals", f"[{ENTRY_POINT_GROUP}]\nbroken-line\n".encode())
    not_utf8 = fake_package(site, "notutf8", b"\xff\xfe[x]\n")
    fake_package(site, "otherbroken", b"[console_scripts]\nbroken-line\n")  # not ours: not reported
    bad_value = fake_package(site, "badvalue", f"[{ENTRY_POINT_GROUP}]\nbad = not a value!\n".encode())
    monkeypatch.syspath_prepend(str(site))
    result = build(None)
    found = {d.span.path: d for d in result.diagnostics if d.code == "S5030"}
    assert set(found) == {str(no_equals), str(not_utf8), str(bad_value)}
    assert found[str(no_equals)].is_error and "entry points of noequals 1.0 cannot be read" in found[str(no_equals)].message
    assert not found[str(not_utf8)].is_error  # it may declare no extension at all
    assert "'bad' (not a value!, from badvalue 1.0)" in found[str(bad_value)].message
    assert found[str(bad_value)].span.line == 2
    assert result.exit_code == 2 and result.schemas == {}
