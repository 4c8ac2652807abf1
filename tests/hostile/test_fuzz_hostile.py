"""Hostile inputs (issue 6): no traceback, no hang, no write outside ``-o``, no code run from a cache.

The generators of the fuzz campaign (``tools/fuzz.py``: byte and token mutations of IDL, wrong
types in JSON AST, structural stress, hostile names and settings, odd paths) drive hypothesis
here through ``st.randoms``, bounded for CI: the library API (in a worker process with the
campaign's 10 s timeout) for most examples, real ``python -m smithy2cfn`` subprocesses for a
handful. Every run is checked by the campaign's oracles (``Runner.check``): no traceback or
internal-error diagnostic, no timeout, exit code 0/1/2, nothing written on failure or in
``--check`` mode, nothing changed in the sandbox outside ``-o`` (HOME, TMPDIR, the cache, the
input folder), outputs are strict JSON, written files are named after their ``typeName``, and
a poisoned cache runs no code.

``tests/hostile/fixtures/<class>/`` holds one minimal reproducer per failure class the campaign
found (``case.json`` + ``files/``, the format of ``python tools/fuzz.py --replay DIR``); each is
run through the CLI (the few that only the library API can express, through the API).

The hypothesis tests are derandomized (the same examples on every run; the campaign explores)
and do not shrink (the campaign's own shrinker made the fixtures), so that a failing run stays
within the CI budget; they fail on the first failing example, print it and save it as a
reproducer folder.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import random
import sys

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from conftest import REPO, SHARED

_spec = importlib.util.spec_from_file_location("smithy2cfn_fuzz", REPO / "tools" / "fuzz.py")
fuzz = importlib.util.module_from_spec(_spec)
sys.modules["smithy2cfn_fuzz"] = fuzz
_spec.loader.exec_module(fuzz)

HOSTILE = REPO / "tests" / "hostile" / "fixtures"
FIXTURE_CASES = sorted(p.parent.name for p in HOSTILE.glob("*/case.json"))


@functools.cache
def seeds() -> fuzz.Seeds:
    """The campaign's seeds (the repository's models, plus ../shared's when present)."""
    return fuzz.Seeds(REPO, SHARED if SHARED.exists() else None, sys.executable)


def cases(gen: str | None, mode: str) -> st.SearchStrategy:
    """Inputs of generator ``gen`` (any generator when ``None``) run in ``mode`` (api / cli)."""
    def make(rnd: random.Random) -> fuzz.Case:
        return fuzz.make_case(0, 0, seeds(), gen=gen, mode=mode, rng=rnd)
    return st.randoms(use_true_random=False).map(make)


@pytest.fixture(scope="module")
def runner(tmp_path_factory):
    r = fuzz.Runner(tmp_path_factory.mktemp("fuzz-sandbox"), sys.executable)
    r.cache_template = fuzz._cache_template(r, seeds(), tmp_path_factory.mktemp("fuzz-cache-template"))
    yield r
    r.close()


def verdict(runner, case) -> list[str]:
    """The oracles' findings for one case, as readable lines (empty when it passes). A failing
    case is saved as a reproducer folder (``python tools/fuzz.py --replay DIR``), named in the lines."""
    outcome, failures = runner.run(case)
    if not failures:
        return []
    saved = runner.workdir.parent / "failed" / f"{case.tag.replace(':', '-').replace('/', '-')}-{id(case)}"
    fuzz.save_case(case, saved)
    where = f"{case.mode} {case.tag}: " + " ".join(runner._argv(case, runner.box)) + f"  (reproducer: {saved})"
    return [f"{where}\n  {f.signature}\n  {f.detail[:1500]}" for f in failures]


BOUNDED = dict(deadline=None, derandomize=True, phases=[Phase.explicit, Phase.reuse, Phase.generate],
               suppress_health_check=list(HealthCheck))


# ---------------------------------------------------------------- the oracles themselves

def test_strict_json_oracle():
    assert fuzz._strict_json(b'{"a": [1, 2.5, "x"]}') is None
    for bad in (b'{"a": NaN}', b"[Infinity]", b"[-Infinity]", b'{"a": 1', b"\xff", '["\ud800"]'):
        assert fuzz._strict_json(bad) is not None, bad


def test_file_name_oracle():
    assert fuzz._name_check("ab-cd-ef.json", {"typeName": "Ab::Cd::Ef"}, "x") == []
    assert [f.signature for f in fuzz._name_check("acme-vault-vault.json", {"typeName": "Xx::Yy::Zz"}, "x")] == \
        ["misnamed:typeName-mismatch"]
    assert [f.signature for f in fuzz._name_check("a.json", {}, "x")] == ["misnamed:no-typeName"]


def test_traceback_signature():
    tb = ('Traceback (most recent call last):\n  File "/r/src/smithy2cfn/api.py", line 9, in build\n'
          '    x()\n  File "/r/src/smithy2cfn/load/loader.py", line 3, in discover\n    y()\n'
          "OSError: [Errno 36] File name too long: 'LLL'\n")
    assert fuzz._tb_signature(tb) == "OSError@load/loader.py:discover"
    # recursion inside a library is named by our deepest frame, the call into it
    rec = ('Traceback (most recent call last):\n  File "/r/src/smithy2cfn/emit/metaschema.py", line 5, in _is_regex\n'
           + '  File "/py/re/_parser.py", line 872, in _parse\n' * 50 + "RecursionError: maximum recursion depth\n")
    assert fuzz._tb_signature(rec) == "RecursionError@emit/metaschema.py:_is_regex"


def test_special_values_round_trip():
    v = {"a": fuzz.fz("nan"), "b": fuzz.fz("deep", kind="list", n=3, leaf=1), "c": fuzz.fz("int", digits=3)}
    assert fuzz.render_json(v) == '{"a": NaN, "b": [[[1]]], "c": 999}'
    decoded = fuzz.decode_value(v)
    assert decoded["b"] == [[[1]]] and decoded["c"] == 999 and decoded["a"] != decoded["a"]


def test_campaign_is_deterministic_for_a_seed():
    a = [fuzz.make_case(i, 5, seeds()).to_json() for i in range(30)]
    b = [fuzz.make_case(i, 5, seeds()).to_json() for i in range(30)]
    assert json.dumps(a) == json.dumps(b)
    assert {c["gen"] for c in a} >= {"idl-tokens", "json-ast", "names-settings"}


def test_every_generator_has_a_weight():
    assert set(fuzz.GENERATORS) == {"idl-bytes", "idl-tokens", "json-ast", "stress", "names-settings", "odd-paths"}
    assert all(w > 0 for w, _ in fuzz.GENERATORS.values())


def test_a_clean_build_passes_every_oracle(runner):
    # the harness itself: a valid build through the CLI, with a warm cache, finds nothing
    case = fuzz.Case("names-settings", "clean", "cli", files={"in/m.smithy": fuzz._mini(fuzz.MINI_P0)},
                     settings={"organizationName": "Fuzz"}, config="cfg.json",
                     setup=[{"op": "cache", "state": "warm"}])
    outcome, failures = runner.run(case)
    assert outcome.rc == 0, outcome.stderr
    assert failures == []
    assert (runner.box / "work" / "out" / "fuzz-fuzzsvc-fuzzres.json").is_file()


# ---------------------------------------------------------------- generated hostile inputs

@pytest.mark.parametrize("gen, examples", [("idl-bytes", 15), ("idl-tokens", 20), ("json-ast", 20),
                                           ("names-settings", 20), ("stress", 5)])
def test_library_api_survives_hostile_inputs(runner, gen, examples):
    @settings(max_examples=examples, **BOUNDED)
    @given(case=cases(gen, "api"))
    def check(case):
        assert verdict(runner, case) == []
    check()


@settings(max_examples=5, **BOUNDED)
@given(case=cases(None, "cli"))
def test_cli_survives_hostile_inputs(runner, case):
    assert verdict(runner, case) == []


@settings(max_examples=3, **BOUNDED)
@given(case=cases("odd-paths", "cli"))
def test_cli_survives_odd_paths(runner, case):
    assert verdict(runner, case) == []


# ---------------------------------------------------------------- regression reproducers

@pytest.mark.parametrize("name", FIXTURE_CASES)
def test_hostile_reproducer(runner, name):
    case = fuzz.load_case(HOSTILE / name)
    if not case.api_only:
        case.mode = "cli"
    assert verdict(runner, case) == []


# ---------------------------------------------------------------- the coverage-guided harnesses

def _coverage_tool():
    spec = importlib.util.spec_from_file_location("smithy2cfn_fuzz_coverage", REPO / "tools" / "fuzz_coverage.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["smithy2cfn_fuzz_coverage"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("target,data", [
    ("idl", b'$version: "2"\nnamespace a\n@range(min: 1e1000000000000000000)\ninteger I\n'),
    ("idl", b'$version: "2"\nnamespace a\nstring S\n'),
    ("idl", b'// Syntax\n\nnamespace com.foo\n\noperation G$tFoo {\n    input: GetFooInput,\n    input: GetFooInput,\n}\n'
            b'\n@input\noperationstructutFooInput {}\n'),
    ("json", b'{"smithy": "2.0", "metadata": {"m": 1e1000000000000000000}, "shapes": {}}'),
    ("json", b'{"smithy": "2.0", "shapes": {"a#S": {"type": "string"}}}'),
    ("settings", b'{"service": "acme.vault#VaultService", "organizationName": "Acme", "x": -1E-1000000000000000000}'),
    ("settings", b'{"service": "acme.vault#VaultService", "organizationName": "Acme",\n "jsonAdd": {"acme.vault#Vault": '
                 b'{"no-slash": 1}}}'),
])
def test_coverage_harnesses_run_without_atheris(target, data):
    """``tools/fuzz_coverage.py``'s harnesses (what ``--replay`` runs) pass inputs its runs
    found (each once a finding), twice for determinism; atheris is needed only to fuzz."""
    tool = _coverage_tool()
    harness = tool.Harness(target, recheck=1)
    try:
        harness(data)
    finally:
        harness.close()
    assert "atheris" not in sys.modules


def test_coverage_harness_oracle_wants_a_code_and_a_location():
    from smithy2cfn.diagnostics import Diagnostic, Severity, Span

    tool = _coverage_tool()
    tool.check_diagnostics([Diagnostic("S1001", Severity.ERROR, "x", Span("m.smithy", 1, 1))], "m.smithy")
    for bad in (Diagnostic("S1001", Severity.ERROR, "x", None), Diagnostic("S1001", Severity.ERROR, "x", Span("m.smithy")),
                Diagnostic("X1", Severity.ERROR, "x", Span("m.smithy", 1, 1)),
                Diagnostic("S3099", Severity.ERROR, "internal error", Span("m.smithy", 1, 1))):
        with pytest.raises(tool.Finding):
            tool.check_diagnostics([bad], "m.smithy")
