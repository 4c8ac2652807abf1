"""Benchmark: load and validate every published AWS service model (``../shared/conformance/aws-all``).

Run ``python benchmarks/bench_aws_all.py [--limit SECONDS] [--total SECONDS] [--top N] [NAME...]``.
The archive is extracted to a temporary folder; then each model is loaded and validated in
this process (after the prelude is loaded once), and the script prints:

* the slowest ``--top`` models (load, validate and total, in seconds);
* the models over ``--limit`` (default 2 s) and whether the whole set stayed under
  ``--total`` (default 60 s) — the targets of issue 8;
* every Python warning raised while loading or validating (there must be none: a warning
  would reach stderr in the CLI);
* the models whose verdict differs from the reference's (accepted with no ERROR or
  DANGER, except cloudwatch-2010-08-01, rejected with ``QueryErrorCode``).

Timings are printed, never asserted: wall-clock seconds (the targets) and, beside them,
the process's CPU seconds (``time.process_time``), which a machine shared with other jobs
inflates far less. The exit code is 1 when a target is missed, a warning was raised or a
verdict is wrong. ``NAME`` arguments keep only the models whose
file name contains one of them.
"""

from __future__ import annotations

import argparse
import sys
import tarfile
import tempfile
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ARCHIVE = REPO.parent / "shared" / "conformance" / "aws-all" / "models.tar.xz"
REFERENCE_REJECTS = {"cloudwatch-2010-08-01": "QueryErrorCode"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=2.0, help="seconds allowed per model")
    parser.add_argument("--total", type=float, default=60.0, help="seconds allowed for the whole set")
    parser.add_argument("--top", type=int, default=10, help="how many of the slowest models to list")
    parser.add_argument("names", nargs="*", help="keep only models whose file name contains one of these")
    args = parser.parse_args()
    if not ARCHIVE.exists():
        print(f"no archive at {ARCHIVE}")
        return 0

    from smithy2cfn import api
    from smithy2cfn.load import loader

    loader._prelude_documents()  # once per process, as in the CLI; not counted per model
    rows: list[tuple[float, float, str]] = []
    cpu: dict[str, float] = {}
    caught: list[str] = []
    wrong: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(ARCHIVE) as tar:
            tar.extractall(tmp, filter="data")
        models = sorted(p for p in Path(tmp).rglob("*.json")
                        if not args.names or any(n in p.name for n in args.names))
        for path in models:
            with warnings.catch_warnings(record=True) as found:
                warnings.simplefilter("always")
                c0, t0 = time.process_time(), time.perf_counter()
                loaded = api.load([path])
                t1 = time.perf_counter()
                diags = api.validate(loaded).diagnostics
                t2, c2 = time.perf_counter(), time.process_time()
            cpu[path.stem] = c2 - c0
            caught += [f"{path.stem}: {w.category.__name__}: {w.message}" for w in found]
            rows.append((t1 - t0, t2 - t1, path.stem))
            bad = {d.event_id for d in diags if d.is_error}
            expected = REFERENCE_REJECTS.get(path.stem)
            if (expected is None and bad) or (expected is not None and bad != {expected}):
                wrong.append(f"{path.stem}: {sorted(e or '?' for e in bad) or 'accepted'}")
    total = sum(load + check for load, check, _ in rows)
    print(f"{len(rows)} models, {total:.1f} s in all (load {sum(r[0] for r in rows):.1f} s, "
          f"validate {sum(r[1] for r in rows):.1f} s; CPU {sum(cpu.values()):.1f} s)")
    print(f"{'slowest':45s} {'load':>7s} {'validate':>9s} {'total':>7s} {'CPU':>7s}")
    for load, check, name in sorted(rows, key=lambda r: -(r[0] + r[1]))[:args.top]:
        print(f"{name:45s} {load:7.2f} {check:9.2f} {load + check:7.2f} {cpu[name]:7.2f}")
    over = [name for load, check, name in rows if load + check > args.limit]
    print(f"over {args.limit:g} s: {over or 'none'}; whole set under {args.total:g} s: {total <= args.total}")
    print(f"Python warnings: {caught or 'none'}")
    print(f"verdicts unlike the reference's: {wrong or 'none'}")
    return 1 if over or total > args.total or caught or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
