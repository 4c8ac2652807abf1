"""Benchmark: how long the pipeline takes on the models we have.

Run ``python benchmarks/bench_build.py [--repeat N]``. It measures, in milliseconds (median
of N runs, in this process after a warm-up):

* ``prelude``: parsing and lowering our prelude and trait packages (done once per process);
* for the example and each real AWS model in ``../shared/conformance/aws/models`` (if
  present): ``load`` (read + assemble) and ``convert`` (derive + emit + meta-schema check);
* ``cli``: a whole ``smithy2cfn build`` of the example in a fresh interpreter.

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def _median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from smithy2cfn import api
    from smithy2cfn.load import loader

    t = time.perf_counter()
    loader._prelude_documents()
    print(f"{'prelude (first parse)':45s} {(time.perf_counter() - t) * 1000:9.1f} ms")

    cases = [("example: acme.vault", [str(REPO / "examples/vault/model")],
              {"service": "acme.vault#VaultService", "organizationName": "Acme"})]
    models = SHARED / "conformance" / "aws" / "models"
    if models.exists():
        import json

        for case in json.loads((SHARED / "conformance/aws/cases.json").read_text())["cases"]:
            cases.append((f"aws: {case['name']}", [str(SHARED / 'conformance/aws' / m) for m in case["models"]],
                          case["config"]))
    print(f"{'model':45s} {'load':>9s}    {'convert':>9s}")
    for name, paths, settings in cases:
        model = api.load(paths).model
        load_ms = _median_ms(lambda p=paths: api.load(p), args.repeat)
        conv_ms = _median_ms(lambda m=model, s=settings: api.convert(m, s), args.repeat)
        print(f"{name:45s} {load_ms:9.1f} ms {conv_ms:9.1f} ms")

    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "smithy2cfn", "build", "-q", "--config",
               str(REPO / "examples/vault/smithy-build.json"), "-o", tmp]
        ms = _median_ms(lambda: subprocess.run(cmd, check=True), max(1, args.repeat // 2))
        print(f"{'cli: build example (fresh interpreter)':45s} {ms:9.1f} ms")


if __name__ == "__main__":
    main()
