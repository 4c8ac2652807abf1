"""Benchmark: whole ``smithy2cfn build`` processes, alternating between versions of the code.

Run ``python benchmarks/bench_alternate.py MODEL... [--runs N] [--rev REV]... [--tree DIR]...
[--env NAME:KEY=VALUE[,KEY=VALUE]]...``.

This is how the README's "medians of N runs alternating with the code before the round" are
measured. The variants are this checkout (``current``), each ``--rev`` (a git revision, checked
out in a temporary worktree removed at the end), each ``--tree`` (a folder holding
``src/smithy2cfn``), and each ``--env`` (this checkout with environment variables set, such as
``jobs1:SMITHY2CFN_JOBS=1``). The runs are :func:`side_by_side.measure_side_by_side`'s: every
variant in turns, one order then the other, after an uncounted round, each run
``python -m smithy2cfn build -q MODEL... -o TMP`` with the variant's ``src`` first on
``PYTHONPATH`` and without ``PYTHONDONTWRITEBYTECODE`` (:data:`side_by_side.CHILD_ENV`), so
that the uncounted round writes each tree's bytecode: with that variable set, a module whose
source is newer than its bytecode (a file edited and put back) is compiled again in every
run, some 20 ms of a SageMaker build, which once weighed on one side of such a comparison.

For each variant it prints the median, first and third quartile of the wall time, the median
CPU time (user + system of the process and its helper), and the difference of the medians
from the first variant; and the load average before and after. Timings are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from side_by_side import CHILD_ENV, measure_side_by_side  # (beside this file)

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+", help="model files or folders, as `smithy2cfn build` takes them")
    parser.add_argument("--runs", type=int, default=21, help="counted rounds (default 21)")
    parser.add_argument("--rev", action="append", default=[], help="a git revision to compare (repeatable)")
    parser.add_argument("--tree", action="append", default=[], help="a folder holding src/smithy2cfn (repeatable)")
    parser.add_argument("--env", action="append", default=[], metavar="NAME:KEY=VALUE[,KEY=VALUE]",
                        help="this checkout with environment variables set (repeatable)")
    args = parser.parse_args()

    variants: list[tuple[str, Path, dict[str, str]]] = [("current", REPO / "src", {})]
    worktrees: list[Path] = []
    try:
        for rev in args.rev:
            folder = Path(tempfile.mkdtemp(prefix="bench-alternate-"))
            subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "--force", str(folder), rev],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            worktrees.append(folder)
            variants.append((rev, folder / "src", {}))
        variants += [(Path(tree).name, Path(tree) / "src", {}) for tree in args.tree]
        for spec in args.env:
            name, _, pairs = spec.partition(":")
            variants.append((name, REPO / "src", dict(pair.partition("=")[::2] for pair in pairs.split(",") if pair)))
        envs = [{**CHILD_ENV, **extra, "PYTHONPATH": os.pathsep.join(filter(None, [str(src), CHILD_ENV.get("PYTHONPATH")]))}
                for _, src, extra in variants]
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; {args.runs} rounds, {len(variants)} variants")
        argv = [sys.executable, "-m", "smithy2cfn", "build", "-q", *args.models, "-o"]
        runs = measure_side_by_side([lambda out: [*argv, out]] * len(variants), args.runs, envs)
        first = statistics.median(runs[0].wall) if runs[0].wall else float("nan")
        for (name, _, _), measured in zip(variants, runs, strict=True):
            if measured.failed or not measured.wall:
                print(f"{name:16s} failed: {measured.failed}")
                continue
            median = statistics.median(measured.wall)
            q1, _, q3 = statistics.quantiles(measured.wall, n=4) if len(measured.wall) > 1 else (median,) * 3
            print(f"{name:16s} wall median {1000 * median:7.1f} ms (quartiles {1000 * q1:.1f}–{1000 * q3:.1f}), "
                  f"CPU median {1000 * statistics.median(measured.cpu):7.1f} ms, "
                  f"{1000 * (median - first):+6.1f} ms against {variants[0][0]}")
        print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    finally:
        for folder in worktrees:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(folder)], check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
