"""The command line's two parsers agree: every command line :func:`smithy2cfn.cli.parse_plain`
takes (without importing click) is parsed by click into the same keyword arguments, for
every command and option of :data:`smithy2cfn.cli.COMMANDS`; what it leaves to click is
what click rejects or rewrites (README "Command line"; issue 15, "Cold start")."""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smithy2cfn import cli
from smithy2cfn.cli import COMMANDS, main, parse_plain


def _click_params(argv: list[str]) -> dict | None:
    """What click's parser gives the command of ``argv`` (``None``: a usage error or help)."""
    command = main.commands[argv[0]]
    try:
        with command.make_context(argv[0], list(argv[1:]), parent=click.Context(main, info_name="smithy2cfn"),
                                  resilient_parsing=False) as ctx:
            return dict(ctx.params)
    except (click.exceptions.Exit, click.ClickException):
        return None


def _agree(argv: list[str]) -> bool:
    """Assert that whatever parse_plain takes, click parses the same way; True if taken."""
    plain = parse_plain(argv, {})
    if plain is None:
        return False
    function, values = plain
    assert function is COMMANDS[argv[0]][0]
    assert _click_params(argv) == values, argv
    return True


@pytest.fixture
def places(tmp_path):
    file = tmp_path / "m.smithy"
    file.write_text("$version: \"2\"\n", encoding="utf-8")
    folder = tmp_path / "dir"
    folder.mkdir()
    return {"file": str(file), "dir": str(folder), "missing": str(tmp_path / "missing.json")}


def _samples(param: cli.Param, places: dict[str, str]) -> list[str]:
    if param.choices is not None:
        return list(param.choices)
    if param.path == "dir":
        return [places["dir"], places["missing"], ""]
    if param.path == "file":
        return [places["file"], places["missing"]]
    if param.path == "any":
        return [places["file"], places["dir"], places["missing"]]
    return ["acme.vault#VaultService", "-x", "--help", "a=b", ""]


def _base(name: str, places: dict[str, str]) -> list[str]:
    params = COMMANDS[name][1]
    required = any(p.kind == "arguments" and p.required for p in params)
    return [name, places["file"]] if required else [name]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_option_is_parsed_as_click_parses_it(name, places):
    taken = 0
    base = _base(name, places)
    assert _agree(base)
    for param in COMMANDS[name][1]:
        if param.kind == "arguments":
            for sample in _samples(param, places):
                taken += _agree([name, sample]) + _agree([name, sample, places["missing"], "-"])
                taken += _agree([name, "--", "-q", sample])
            continue
        for option in param.names:
            if param.kind == "flag":
                taken += _agree([*base, option]) + _agree([name, option, *base[1:]])
                taken += _agree([*base, option, option])
                assert parse_plain([*base, f"{option}=1"], {}) is None  # click: "does not take a value"
                continue
            for sample in _samples(param, places):
                taken += _agree([*base, option, sample])
                if option.startswith("--"):
                    taken += _agree([*base, f"{option}={sample}"])
                taken += _agree([name, option, sample, *base[1:]])  # before the arguments
            first, second = _samples(param, places)[:2]
            taken += _agree([*base, option, first, param.names[-1], second])  # repeated: all, or the last
            assert parse_plain([*base, option], {}) is None  # no value: click's usage error
    assert taken > 10


@pytest.mark.parametrize("argv", [
    ["build", "--help"], ["build", "-h"], ["validate"], ["--version"], ["-h"], [], ["nosuch"],
    ["build", "-qv"], ["build", "--quiet=1"], ["build", "--out", "x"], ["build", "--format", "JSON"],
    ["build", "--severity", "ERROR"], ["build", "--format", "xml"], ["validate", "m.smithy", "-x"],
    ["ast", "m.smithy", "--format", "sarif"], ["build", "-o=x"], ["build", "--org"],
])
def test_what_click_rejects_rewrites_or_combines_is_left_to_click(argv):
    assert parse_plain(argv, {}) is None


def test_paths_click_would_reject_are_left_to_click(places):
    assert parse_plain(["build", "-o", places["file"]], {}) is None  # Directory ... is a file
    assert _click_params(["build", "-o", places["file"]]) is None
    assert parse_plain(["build", "--config", places["dir"]], {}) is None  # File ... is a directory
    assert _click_params(["build", "--config", places["dir"]]) is None


def test_completion_requests_and_windows_go_to_click(places, monkeypatch):
    assert parse_plain(["build", places["file"]], {"_SMITHY2CFN_COMPLETE": "bash_complete"}) is None
    monkeypatch.setattr(os, "name", "nt")
    assert parse_plain(["build", places["file"]], {}) is None


WORDS = st.sampled_from(["build", "validate", "ast", "plugin", "-o", "--output", "--config", "--service",
                         "--org", "--service-name", "--compatibility", "default", "reference", "--strict",
                         "--check", "-q", "--quiet", "--allow-unknown-traits", "--format", "text", "json",
                         "sarif", "-v", "--verbose", "--severity", "note", "error", "--hide", "--show",
                         "--hide-validators", "--show-validators", "S3006", "--", "-", "--format=json",
                         "--org=Acme", "m.smithy", "x y", "", "-h", "--nope", "-qv"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(sorted(COMMANDS)), st.lists(WORDS, max_size=8))
def test_random_command_lines_agree(name, words):
    _agree([name, *words])


def test_a_plain_build_does_not_import_click(tmp_path):
    model = tmp_path / "m.smithy"
    model.write_text('$version: "2"\nnamespace acme\nstring Name\n', encoding="utf-8")
    probe = ("import atexit, sys, runpy\nsys.argv = ['smithy2cfn'] + sys.argv[1:]\n"
             "atexit.register(lambda: print('click' in sys.modules))\n"
             "runpy.run_module('smithy2cfn', run_name='__main__')\n")
    plain = subprocess.run([sys.executable, "-c", probe, "validate", str(model), "-q"], capture_output=True,
                           text=True, timeout=120)
    assert plain.stdout.strip() == "False" and plain.returncode == 0, plain.stderr
    helped = subprocess.run([sys.executable, "-c", probe, "validate", "--help"], capture_output=True, text=True,
                            timeout=120)
    assert helped.stdout.strip().endswith("True") and "Usage: smithy2cfn validate" in helped.stdout


def test_an_interrupted_plain_command_exits_as_click_does(monkeypatch, capsys):
    def interrupted(**_):
        raise KeyboardInterrupt

    monkeypatch.setitem(COMMANDS, "validate", (interrupted, COMMANDS["validate"][1]))
    with pytest.raises(SystemExit) as exit_:
        cli._run_plain(*parse_plain(["validate", "m.smithy"], {}))
    assert exit_.value.code == 1 and capsys.readouterr().err == "\nAborted!\n"
    monkeypatch.setattr(main.commands["validate"], "callback", interrupted)
    result = CliRunner().invoke(main, ["validate", "m.smithy"], prog_name="smithy2cfn")
    assert result.exit_code == 1 and result.stderr == "\nAborted!\n"
