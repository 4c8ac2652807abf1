"""Benchmark: whole ``smithy2cfn build`` processes, alternating between versions of the code.

Run ``python benchmarks/bench_alternate.py MODEL... [--runs N] [--rev REV]... [--tree DIR]...
[--env NAME:KEY=VALUE[,KEY=VALUE]]...``.

This is how the README's "medians of N runs alternating with the code before the round" are
measured. The variants are this checkout (``current``), each ``--rev`` (a git revision, checked
out in a temporary worktree removed at the end), each ``--tree`` (a folder holding
``src/smithy2cfn``), and each ``--env`` (this checkout with environment variables set, such as
``jobs1:SMITHY2CFN_JOBS=1``). Each round runs every variant once, in turns, one order then the
other (so that a drift of the machine's speed weighs on all of them alike), after a round that
is not counted; each run is ``python -m smithy2cfn build -q MODEL... -o TMP`` with the variant's
``src`` first on ``PYTHONPATH``. Before the rounds each tree's bytecode is compiled: with
``PYTHONDONTWRITEBYTECODE`` set, a module whose source is newer than its bytecode (a file
edited and put back) is compiled again in every run, some 20 ms of a SageMaker build, which
once weighed on one side of such a comparison.

For each variant it prints the median, first and third quartile of the wall time, the median
CPU time (user + system of the process and its helper), and the difference of the medians
from the first variant; and the load average before and after. Timings are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _compile(src: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(src)], env=env, check=True,
                   stdout=subprocess.DEVNULL)


def _run(src: Path, extra_env: dict[str, str], models: list[str], out: str) -> tuple[float, float]:
    env = dict(os.environ)
    env.update(extra_env)
    env["PYTHONPATH"] = os.pathsep.join([str(src), *filter(None, [os.environ.get("PYTHONPATH")])])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "smithy2cfn", "build", "-q", *models, "-o", out], env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


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
        for src in dict.fromkeys(src for _, src, _ in variants):
            _compile(src)
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; {args.runs} rounds, {len(variants)} variants")
        walls: dict[str, list[float]] = {name: [] for name, _, _ in variants}
        cpus: dict[str, list[float]] = {name: [] for name, _, _ in variants}
        with tempfile.TemporaryDirectory(prefix="bench-alternate-out-") as out:
            for round_ in range(args.runs + 1):
                for name, src, extra in variants if round_ % 2 == 0 else variants[::-1]:
                    wall, cpu = _run(src, extra, args.models, out)
                    if round_:  # (the first round warms the file cache and is not counted)
                        walls[name].append(wall)
                        cpus[name].append(cpu)
        first = statistics.median(walls[variants[0][0]])
        for name, _, _ in variants:
            median = statistics.median(walls[name])
            q1, _, q3 = statistics.quantiles(walls[name], n=4) if len(walls[name]) > 1 else (median, median, median)
            print(f"{name:16s} wall median {1000 * median:7.1f} ms (quartiles {1000 * q1:.1f}–{1000 * q3:.1f}), "
                  f"CPU median {1000 * statistics.median(cpus[name]):7.1f} ms, "
                  f"{1000 * (median - first):+6.1f} ms against {variants[0][0]}")
        print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    finally:
        for folder in worktrees:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(folder)], check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
