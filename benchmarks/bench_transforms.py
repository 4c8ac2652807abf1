"""Benchmark: what each projection transform costs on large models.

Run ``python benchmarks/bench_transforms.py [--largest N] [PATH...]``.

Loads each model (the ``PATH`` arguments, or the ``--largest`` N biggest files of
``/work/scratch/aws-all`` or of the extracted ``../shared/conformance/aws-all`` archive),
then applies each transform of :data:`CASES` to it alone, timing it (CPU time of the process,
``time.process_time``). A transform copies only the shapes it changes (``transform.ops.Draft``),
so one that changes nothing costs a walk over the model. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import defaultdict

from bench_validate import _models  # (beside this file) the largest AWS models, as bench_validate takes them

#: name → args; ``{service}`` is replaced by the model's first service.
CASES: list[tuple[str, dict]] = [
    ("excludeShapesByTag", {"tags": ["internal"]}),
    ("includeShapesByTag", {"tags": ["public"]}),
    ("excludeShapesBySelector", {"selector": "[trait|deprecated]"}),
    ("excludeTraits", {"traits": ["documentation"]}),
    ("includeServices", {"services": []}),
    ("removeUnusedShapes", {}),
    ("removeTraitDefinitions", {}),
    ("flattenNamespaces", {"namespace": "flat", "service": "{service}"}),
    ("renameShapes", {"renamed": {"{service}": "renamed.ns#Service"}}),
    ("flattenAndRemoveMixins", {}),
]


def _fill(value, service: str):
    if isinstance(value, str):
        return value.replace("{service}", service)
    if isinstance(value, list):
        return [_fill(v, service) for v in value]
    if isinstance(value, dict):
        return {_fill(k, service): _fill(v, service) for k, v in value.items()}
    return value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--largest", type=int, default=5, help="how many of the largest AWS models to run")
    parser.add_argument("paths", nargs="*", help="model files (default: the largest AWS models)")
    args = parser.parse_args()

    from smithy2cfn import api
    from smithy2cfn.diagnostics import Diagnostics
    from smithy2cfn.transform import TransformConfig, apply_transforms

    totals: dict[str, float] = defaultdict(float)
    with tempfile.TemporaryDirectory() as tmp:
        for path in _models(args, tmp):
            model = api.load([path]).model
            services = [s.id for s in model.shapes.values() if s.type == "service"]
            row = []
            for name, raw in CASES:
                config = TransformConfig(name, _fill(raw, services[0] if services else "none#None"))
                start = time.process_time()
                apply_transforms(model, [config], Diagnostics())
                spent = time.process_time() - start
                totals[name] += spent
                row.append(f"{name} {spent:.2f}")
            print(f"{path.stem} ({len(model.shapes)} shapes): " + ", ".join(row))
    print("total per transform: " + ", ".join(f"{n} {t:.2f} s" for n, t in totals.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
