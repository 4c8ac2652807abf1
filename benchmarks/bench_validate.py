"""Benchmark: where validation spends its time, validator by validator.

Run ``python benchmarks/bench_validate.py [--largest N] [--top K] [--gc MODE] [PATH...]``.

Loads each model (the ``PATH`` arguments, or the ``--largest`` N biggest files of
``/work/scratch/aws-all`` or of the extracted ``../shared/conformance/aws-all`` archive),
then runs every validator of :data:`smithy2cfn.validation.VALIDATORS` over it alone, timing
each one (CPU time of the process, ``time.process_time``, which other work on a busy machine disturbs less than wall-clock time). It prints the ``--top`` validators by total
time over all the models, with their slowest single run and the model it was on, and the
total per model.

``--gc`` chooses how the garbage collector runs during validation, to measure its pauses:
``default`` (as the CLI runs), ``freeze`` (``gc.freeze()`` after loading, so the loaded model
is never scanned again), or ``off`` (``gc.disable()`` while validating). Timings are printed,
never asserted.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tarfile
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCRATCH = Path("/work/scratch/aws-all")
ARCHIVE = REPO.parent / "shared" / "conformance" / "aws-all" / "models.tar.xz"


def _models(args: argparse.Namespace, tmp: str) -> list[Path]:
    if args.paths:
        return [Path(p) for p in args.paths]
    folder = SCRATCH
    if not folder.is_dir():
        with tarfile.open(ARCHIVE) as tar:
            tar.extractall(tmp, filter="data")
        folder = Path(tmp)
    files = sorted(folder.rglob("*.json"), key=lambda p: -p.stat().st_size)
    return files[:args.largest]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--largest", type=int, default=20, help="how many of the largest AWS models to run")
    parser.add_argument("--top", type=int, default=15, help="how many validators to list")
    parser.add_argument("--gc", choices=("default", "freeze", "off"), default="default")
    parser.add_argument("paths", nargs="*", help="model files (default: the largest AWS models)")
    args = parser.parse_args()

    from smithy2cfn import api
    from smithy2cfn.load import loader
    from smithy2cfn.validation import VALIDATORS, validate_model

    loader._prelude_documents()  # once per process, as in the CLI
    totals: dict[str, float] = defaultdict(float)
    worst: dict[str, tuple[float, str]] = {}
    per_model: list[tuple[float, float, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in _models(args, tmp):
            t0 = time.process_time()
            model = api.load([path]).model
            t1 = time.process_time()
            if args.gc == "freeze":
                gc.freeze()
            elif args.gc == "off":
                gc.disable()
            spent = 0.0
            for check in VALIDATORS:
                name = getattr(check, "__qualname__", repr(check))
                s = time.process_time()
                validate_model(model, [check])
                dt = time.process_time() - s
                spent += dt
                totals[name] += dt
                if dt > worst.get(name, (0.0, ""))[0]:
                    worst[name] = (dt, path.stem)
            if args.gc == "freeze":
                gc.unfreeze()
            elif args.gc == "off":
                gc.enable()
            per_model.append((t1 - t0, spent, path.stem))
    print(f"{len(per_model)} models (gc {args.gc}): load {sum(r[0] for r in per_model):.2f} s, "
          f"validate {sum(r[1] for r in per_model):.2f} s")
    print(f"{'validator':55s} {'total':>7s} {'worst':>7s}  model")
    for name, total in sorted(totals.items(), key=lambda kv: -kv[1])[:args.top]:
        dt, model_name = worst[name]
        print(f"{name:55s} {total:7.2f} {dt:7.2f}  {model_name}")
    print(f"{'model':45s} {'load':>7s} {'validate':>9s}")
    for load, check, name in sorted(per_model, key=lambda r: -r[1])[:args.top]:
        print(f"{name:45s} {load:7.2f} {check:9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
