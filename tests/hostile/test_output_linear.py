"""What a run prints, and the model it builds, grow linearly with the model (issue 15).

The three cases of ``benchmarks/bench_output.py`` (which measures time and memory up to 8×)
at two small sizes, the second about twice the first in bytes: the output of ``validate``
(text and JSON) and, for the mixin chain, the members the loader builds, may grow by at most
1.1 times the growth of the model. Before the funnel, a mixin cycle's output grew with the
square of the model (each S2020 error named every other shape), a chain of child resources'
JSON output with its power 1.4 (each MemberShouldReferenceResource warning listed every
deeper resource), and a mixin chain's members with the square of its levels. Sizes are
counted, never timed.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from smithy2cfn import api
from smithy2cfn.cli import main

_BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(_BENCHMARKS))  # bench_output imports bench_scaling beside it
_spec = importlib.util.spec_from_file_location("bench_output", _BENCHMARKS / "bench_output.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

#: case → its generator's argument at the two sizes
SIZES = {"mixin-cycle": (150, 300), "child-chain": (30, 42), "mixin-chain": (400, 800)}


def _write(tmp_path: Path, case: str, arg: int) -> tuple[Path, int]:
    text = bench.CASES[case][0](arg)
    folder = tmp_path / f"{case}-{arg}"
    folder.mkdir()
    (folder / "model.smithy").write_text(text, encoding="utf-8")
    return folder, len(text.encode())


def _output(folder: Path, *fmt: str) -> int:
    result = CliRunner().invoke(main, ["validate", *fmt, str(folder)], catch_exceptions=False)
    return len(result.stderr.encode())


@pytest.mark.parametrize("case", list(SIZES))
def test_output_grows_linearly(tmp_path, case):
    (small, small_bytes), (large, large_bytes) = (_write(tmp_path, case, arg) for arg in SIZES[case])
    growth = large_bytes / small_bytes
    assert 1.7 < growth < 2.1
    for fmt in ((), ("--format", "json")):
        before, after = _output(small, *fmt), _output(large, *fmt)
        assert before > 0
        assert after <= 1.1 * growth * before, (fmt, before, after)


def test_mixin_chain_members_grow_linearly(tmp_path):
    counts = []
    sizes = []
    for arg in SIZES["mixin-chain"]:
        folder, size = _write(tmp_path, "mixin-chain", arg)
        model, diags = api.load([folder])
        assert [d.code for d in diags if d.is_error] == ["S2029"]
        counts.append(sum(len(s.members) for s in model.shapes.values() if not model.is_prelude(s.id)))
        sizes.append(size)
    assert counts[1] <= 1.1 * sizes[1] / sizes[0] * counts[0], counts


def test_did_you_mean_hints_do_a_bounded_amount_of_work(monkeypatch, tmp_path):
    """Thousands of references to undefined shapes in a model of thousands of shapes: each
    "did you mean" hint compared the missing name with every shape name, work that grew as
    the product of the two (2,000 shapes: 3 s, 4,000: 10 s). The names compared, in all,
    are bounded; a name that differs in case alone is still found after that."""
    import difflib

    from smithy2cfn.load import loader

    compared = []
    close = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches",
                        lambda word, names, *a, **k: compared.append(len(names)) or close(word, names, *a, **k))
    lines = ['$version: "2"', "namespace example"]
    lines += [f"structure S{i} {{ a: S{i}x, b: S{i + 1} }}" for i in range(3000)]
    lines += ["structure S3000 { a: s0 }"]
    (tmp_path / "m.smithy").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = api.load(tmp_path / "m.smithy")
    missing = [d for d in result.collector.items if d.code == "S2001"]
    assert len(missing) == 3001
    assert sum(compared) <= loader.SUGGESTION_BUDGET and len(compared) > 10
    assert missing[0].hint == "did you mean 'example#S0'?"
    assert missing[2999].hint is None  # (the budget is spent)
    assert missing[3000].hint == "did you mean 'example#S0'?"  # s0: in case alone
