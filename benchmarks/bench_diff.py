"""Benchmark: ``smithy2cfn diff`` of two versions of a large real model against two builds of it
(issue 17: a diff must cost less than two builds).

Run ``python benchmarks/bench_diff.py [--repeat N] [--aws-models DIR] [--models a.json,b.json]``.
For each model (default: the largest AWS models with ``@aws.cloudformation#cfnResource``
resources, from ``--aws-models``, default ``SMITHY2CFN_AWS_MODELS`` or ``../scratch/aws-all``,
and the largest AWS model of all), a second version is made by editing the JSON AST as a
release does (every ``@length`` max above its min lowered by one, every ``@documentation`` changed), then
it times, in fresh processes (median of ``--repeat``, wall and CPU):

* ``build``: ``smithy2cfn build MODEL -o TMP`` of each version (the sum of the two);
* ``diff``: ``smithy2cfn diff --old OLD --new NEW --format json``;

and prints the ratio diff ÷ two builds and the findings count. Timings are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _run(args: list[str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "smithy2cfn", *args], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), run


def _edited(model: dict) -> dict:
    """The next version: every ``@length`` max above its min lowered by one, every documentation
    changed."""
    out = json.loads(json.dumps(model))
    for shape in out.get("shapes", {}).values():
        for owner in [shape, *shape.get("members", {}).values()]:
            traits = owner.get("traits", {})
            length = traits.get("smithy.api#length")
            if isinstance(length, dict) and isinstance(length.get("max"), int) and \
                    length["max"] > max(1, length.get("min") if isinstance(length.get("min"), int) else 0):
                length["max"] -= 1
            if isinstance(traits.get("smithy.api#documentation"), str):
                traits["smithy.api#documentation"] += " (changed)"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--aws-models", default=os.environ.get("SMITHY2CFN_AWS_MODELS",
                                                               str(REPO.parent / "scratch" / "aws-all")))
    parser.add_argument("--models", help="comma-separated model files (default: see the docstring)")
    args = parser.parse_args()
    folder = Path(args.aws_models)
    if args.models:
        models = [Path(m) for m in args.models.split(",")]
    elif folder.is_dir():
        every = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_size, reverse=True)
        cfn = [p for p in every if "aws.cloudformation#cfnResource" in p.read_text(encoding="utf-8")]
        models = cfn[:2] + every[:1]
    else:
        print(f"no models: {folder} is absent (--aws-models)")
        return
    print(f"python {sys.version.split()[0]}, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}; "
          f"median of {args.repeat} runs")
    print(f"{'model':38s} {'size':>7s} | {'2 builds s':>10s} {'cpu s':>7s} | {'diff s':>7s} {'cpu s':>7s} | "
          f"{'diff / 2 builds':>15s} | findings")
    for path in models:
        with tempfile.TemporaryDirectory() as tmp:
            old, new = Path(tmp, "old.json"), Path(tmp, "new.json")
            model = json.loads(path.read_text(encoding="utf-8"))
            old.write_text(json.dumps(model), encoding="utf-8")
            new.write_text(json.dumps(_edited(model)), encoding="utf-8")
            builds, build_cpu, diffs, diff_cpu = [], [], [], []
            findings = 0
            for _ in range(args.repeat):
                wall = cpu = 0.0
                for version in (old, new):
                    w, c, _ = _run(["build", str(version), "-o", str(Path(tmp, "out", version.stem)), "-q"])
                    wall, cpu = wall + w, cpu + c
                builds.append(wall)
                build_cpu.append(cpu)
                w, c, run = _run(["diff", "--old", str(old), "--new", str(new), "--format", "json", "-q",
                                  "--fail-on", "never"])
                diffs.append(w)
                diff_cpu.append(c)
                if run.returncode == 0:
                    findings = sum(len(t["findings"]) for t in json.loads(run.stdout)["types"])
            b, d = statistics.median(builds), statistics.median(diffs)
            print(f"{path.name:38s} {path.stat().st_size // 1024:6d}K | {b:10.2f} {statistics.median(build_cpu):7.2f} | "
                  f"{d:7.2f} {statistics.median(diff_cpu):7.2f} | {d / b:15.2f} | {findings}")


if __name__ == "__main__":
    main()
