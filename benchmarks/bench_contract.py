"""Benchmark: contract-test inputs (``smithy2cfn.contract.contract_inputs``, issue 18) of the
AWS models with ``@aws.cloudformation#cfnResource`` resources, against their build.

Run ``python benchmarks/bench_contract.py [--aws-models DIR] [--repeat N]`` (default directory:
``SMITHY2CFN_AWS_MODELS`` or ``../scratch/aws-all``). Each model is built in memory once
(``build_from_config``, nothing written); then ``contract_inputs`` is timed on it (best of
``--repeat``). Prints per model the resources, sets (create inputs from ``@examples`` /
derived) and the time of the build and of the inputs, and the totals. Timings are printed,
never asserted.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from smithy2cfn.api import build_from_config
from smithy2cfn.contract.inputs import ResourceInputs
from smithy2cfn.diagnostics import Diagnostics

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aws-models", default=os.environ.get("SMITHY2CFN_AWS_MODELS",
                                                               str(REPO.parent / "scratch" / "aws-all")))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    models = [p for p in sorted(Path(args.aws_models).glob("*.json"))
              if '"aws.cloudformation#cfnResource"' in p.read_text(encoding="utf-8")]
    totals = {"build": 0.0, "inputs": 0.0, "resources": 0, "example": 0, "derived": 0}
    for path in models:
        t = time.perf_counter()
        out = build_from_config(models=[path], out_dir=None, extensions=[]).projections[0]
        build = time.perf_counter() - t
        best = float("inf")
        origins: list[str] = []
        for _ in range(max(1, args.repeat)):
            origins = []
            t = time.perf_counter()
            for rplan in out.plan.resources if out.plan else ():
                if rplan.file_name in out.schemas:
                    maker = ResourceInputs(out.model, out.plan, rplan, out.schemas[rplan.file_name], Diagnostics())
                    maker.files()
                    origins += maker.origins
            best = min(best, time.perf_counter() - t)
        resources = len(out.schemas)
        print(f"{path.stem:40} {resources:3} resources  sets {origins.count('example'):3} from examples "
              f"{origins.count('derived'):3} derived  build {build * 1000:7.0f} ms  inputs {best * 1000:6.0f} ms")
        totals["build"] += build
        totals["inputs"] += best
        totals["resources"] += resources
        totals["example"] += origins.count("example")
        totals["derived"] += origins.count("derived")
    print(f"{len(models)} models, {totals['resources']} resources, sets {totals['example']} from examples "
          f"{totals['derived']} derived: build {totals['build']:.1f} s, inputs {totals['inputs']:.2f} s")


if __name__ == "__main__":
    main()
