"""Benchmark: do a run's OUTPUT and memory grow linearly with the model (issue 15)?

Run ``python benchmarks/bench_output.py [--cases NAME,...] [--scales 1,2,4,8]``.

Three models whose diagnostics, or whose expansion, once grew with the square of the
model, each generated at 1×, 2×, 4× and 8× a base size (8× is the size issue 15 measured):

* ``mixin-cycle``: ``@mixin structure C0 with [C1]``, ``C1 with [C2]``... the last one
  ``with [C0]``, 625 → 5,000 shapes (266 KB at 8×): every shape is on the cycle, and each
  one's ``S2020`` error used to name all the others (296 MB of text at 8×);
* ``mixin-chain``: ``@mixin structure L1 with [L0] { m1: String }``... each level adding one
  member, 250 → 2,000 levels (105 KB at 8×): the levels inherit ``levels²/2`` members in all
  (2 million at 8×) unless expansion stops at the mixin limit (README "Limits");
* ``child-chain``: resources ``R0 { resources: [R1] }``... each with its parent's identifiers
  plus its own (``bench_scaling.py``'s model), 88 → 250 levels, so that the model's size in
  bytes (which grows with the square of the depth) doubles at each step: each member's MemberShouldReferenceResource
  warning used to list every deeper resource (78 MB of text at 8×).

Each case and size is run as whole ``smithy2cfn`` processes (a fresh interpreter each):
``validate`` (text, then ``--format json``) and ``build`` (text); for each it prints the
bytes written on standard error (the diagnostics), the peak resident memory (``ru_maxrss``
of the process, from ``wait4``) and the CPU seconds (user + system), then the log-log slope
of each against the model's size in bytes (1.0 is linear; issue 15's goal for output and
memory is ≤ 1.1). Figures are printed, never asserted: ``tests/hostile/test_output_linear.py``
checks the growth of the output's size at small sizes.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_scaling import HEADER, _slope, gen_child_chain  # (beside this file)

#: A service with one resource, so that ``build`` converts something in every case.
_SERVICE = ('service Svc { version: "1", resources: [Thing] }\n\n'
            "@cfnResource\nresource Thing {\n    identifiers: { thingId: String }\n"
            "    create: CreateThing\n    read: GetThing\n}\n\n"
            "@readonly\noperation GetThing {\n    input := { @required thingId: String }\n"
            "    output := { @required thingId: String }\n}\n\n")


# --------------------------------------------------------------------------- generators

def gen_mixin_cycle(shapes: int) -> str:
    """``shapes`` mixins on one cycle: ``C<i> with [C<i+1>]``, the last one ``with [C0]``,
    each with a member of its own."""
    out = [HEADER, _SERVICE,
           "operation CreateThing { input: CreateThingInput, output: CreateThingOutput }\n",
           "@input\nstructure CreateThingInput { name: String }\n",
           "@output\nstructure CreateThingOutput { @required thingId: String }\n\n"]
    for i in range(shapes):
        out.append(f"@mixin\nstructure C{i} with [C{(i + 1) % shapes}] {{ c{i}: String }}\n")
    return "".join(out)


def gen_mixin_chain(levels: int) -> str:
    """``levels`` mixins ``L<i> with [L<i-1>]``, each adding the member ``m<i>``; the last
    one is the create input of the resource ``Thing``."""
    out = [HEADER, _SERVICE,
           "operation CreateThing { input: CreateThingInput, output: CreateThingOutput }\n",
           f"@input\nstructure CreateThingInput with [L{levels - 1}] {{}}\n",
           "@output\nstructure CreateThingOutput { @required thingId: String }\n\n",
           "@mixin\nstructure L0 { m0: String }\n"]
    for i in range(1, levels):
        out.append(f"@mixin\nstructure L{i} with [L{i - 1}] {{ m{i}: String }}\n")
    return "".join(out)


#: case → (generator, its argument at 1×, how the argument grows with the scale, unit)
CASES = {
    "mixin-cycle": (gen_mixin_cycle, 625, 1.0, "shapes"),
    "mixin-chain": (gen_mixin_chain, 250, 1.0, "levels"),
    "child-chain": (gen_child_chain, 88.4, 0.5, "levels"),  # bytes grow with levels²
}


def size_argument(case: str, scale: float) -> int:
    """The generator's argument for ``case`` at ``scale`` × its base size."""
    _, base, power, _ = CASES[case]
    return int(round(base * scale ** power))


#: The runs of each model: (label, command-line arguments before the model folder).
RUNS = (
    ("validate", ["validate"]),
    ("validate json", ["validate", "--format", "json"]),
    ("build", ["build", "--service", "bench#Svc", "--org", "Bench"]),
)


# --------------------------------------------------------------------------- measuring

def run_cli(args: list[str], timeout: float) -> tuple[int, float, int, int]:
    """Run ``python -m smithy2cfn ARGS`` in a fresh process: ``(bytes on stderr, CPU
    seconds, peak RSS in KiB, exit status)``; the output is counted, not kept."""
    proc = subprocess.Popen([sys.executable, "-m", "smithy2cfn", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    size = 0
    deadline = time.monotonic() + timeout
    while chunk := proc.stderr.read(1 << 20):
        size += len(chunk)
        if time.monotonic() > deadline:
            proc.kill()
            break
    proc.stderr.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return size, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode


def slope(xs: list[float], ys: list[float]) -> float:
    """``bench_scaling``'s least-squares slope of log(y) against log(x), over the points where
    y > 0 (a run that prints nothing at 1× and one error from 2× on has slope 0, not infinity)."""
    pts = [(x, y) for x, y in zip(xs, ys, strict=True) if y > 0]
    return _slope([x for x, _ in pts], [y for _, y in pts])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(CASES), help=f"comma-separated cases of {', '.join(CASES)}")
    parser.add_argument("--scales", default="1,2,4,8", help="multiples of the base size (default 1,2,4,8)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per run (default 600)")
    args = parser.parse_args()
    scales = [float(s) for s in args.scales.split(",")]
    with tempfile.TemporaryDirectory() as tmpdir:
        empty = Path(tmpdir, "empty")
        empty.mkdir()
        (empty / "model.smithy").write_text(HEADER + _SERVICE.split("@cfnResource")[0], encoding="utf-8")
        base_kib = run_cli(["validate", str(empty)], args.timeout)[2]
        print(f"peak memory of a validate of an empty model: {base_kib / 1024:.0f} MiB (the 'above' slopes "
              "leave it out)")
        for case in args.cases.split(","):
            gen, _, _, unit = CASES[case]
            print(f"\n== {case}")
            print(f"{'size':>14s} {'bytes':>9s} | " + " | ".join(
                f"{label + ' out':>17s} {'MiB':>6s} {'CPU s':>6s}" for label, _ in RUNS) + " | exit")
            xs: list[float] = []
            figures: dict[str, list[tuple[int, float, int]]] = {label: [] for label, _ in RUNS}
            for scale in scales:
                arg = size_argument(case, scale)
                folder = Path(tmpdir, f"{case}-{scale:g}")
                folder.mkdir()
                text = gen(arg)
                (folder / "model.smithy").write_text(text, encoding="utf-8")
                xs.append(len(text.encode()))
                cells, codes = [], []
                for label, command in RUNS:
                    extra = ["-o", str(folder / "out")] if command[0] == "build" else []
                    size, cpu, kib, code = run_cli([*command, *extra, str(folder)], args.timeout)
                    figures[label].append((size, cpu, kib))
                    cells.append(f"{size:17,d} {kib / 1024:6.0f} {cpu:6.2f}")
                    codes.append(str(code))
                print(f"{f'{arg} {unit}':>14s} {xs[-1]:9d} | " + " | ".join(cells) + " | " + ",".join(codes),
                      flush=True)
            print("   log-log slope against bytes: " + "; ".join(
                f"{label}: output {slope(xs, [f[0] for f in rows]):.2f}, memory "
                f"{slope(xs, [f[2] for f in rows]):.2f} (above {slope(xs, [f[2] - base_kib for f in rows]):.2f}), "
                f"CPU {slope(xs, [f[1] for f in rows]):.2f}"
                for label, rows in figures.items()))


if __name__ == "__main__":
    main()
