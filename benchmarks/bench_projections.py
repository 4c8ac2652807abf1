"""Benchmark: a smithy-build.json with three projections, built once vs three builds.

Run ``python benchmarks/bench_projections.py [--repeat N]``. For the example model and, when
``../shared`` is present, a large AWS model, it writes a ``smithy-build.json`` with three
projections that have a ``cloudformation`` plugin (``source`` and two named ones, each with
its own ``organizationName``, and each named one with one transform) and measures, in
milliseconds (median of N runs):

* ``library``: one ``build_from_config`` building the three projections, against three calls
  each building one (``projection=NAME``), in this process after a warm-up;
* ``cli``: one ``smithy2cfn build`` against three ``smithy2cfn build --projection NAME``, each
  a fresh interpreter.

The transform is a stand-in that changes nothing but makes a new model (so the projected
model is validated again, as a real transform's is); the transforms themselves are
another module's and cost what they cost on both sides alike. In the ``cli`` rows the
named projections have no transform (the stand-in cannot be installed in a fresh
interpreter), so those rows measure the shared load alone. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
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


def _identity(model, transforms, diags, *, projections=None, **_):
    import copy

    if not transforms:
        return model
    out = copy.copy(model)
    out.shapes = dict(model.shapes)
    out._knowledge = {}
    return out


def _config(folder: Path, models: list[str], settings: dict, transforms: bool) -> Path:
    named = {"projections": {
        name: {"plugins": {"cloudformation": {**settings, "organizationName": org}},
               **({"transforms": [{"name": "identity"}]} if transforms else {})}
        for name, org in (("internal", "Internal"), ("public", "Public"))}}
    path = folder / ("with-transforms.json" if transforms else "smithy-build.json")
    path.write_text(json.dumps({"version": "1.0", "sources": models,
                                "plugins": {"cloudformation": {"organizationName": "Acme", **settings}}, **named}))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from smithy2cfn import api, transform

    transform.apply_transforms = _identity  # the stand-in (see the module docstring)
    cases = [("example: acme.vault", [str(REPO / "examples/vault/model")], {"service": "acme.vault#VaultService"})]
    cases_file = SHARED / "conformance/aws/cases.json"
    if cases_file.exists():
        for case in json.loads(cases_file.read_text())["cases"]:
            if case["name"].startswith("qbusiness"):
                cases.append((f"aws: {case['name']}", [str(SHARED / "conformance/aws" / m) for m in case["models"]],
                              case["config"]))
    names = ("internal", "public", "source")
    print(f"{'model':32s} {'':8s} {'3 projections':>14s} {'3 builds':>10s} {'ratio':>6s}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for label, models, settings in cases:
            config = _config(folder, models, settings, transforms=True)

            def once(config=config):
                result = api.build_from_config(config, out_dir=None, extensions=[])
                assert result.exit_code == 0, result.diagnostics

            def apart(config=config):
                for name in names:
                    result = api.build_from_config(config, out_dir=None, extensions=[], projection=name)
                    assert result.exit_code == 0, result.diagnostics

            once()
            a, b = _median_ms(once, args.repeat), _median_ms(apart, args.repeat)
            print(f"{label:32s} {'library':8s} {a:11.1f} ms {b:7.1f} ms {b / a:5.2f}x")
            plain = _config(folder, models, settings, transforms=False)
            cli = [sys.executable, "-m", "smithy2cfn", "build", "-q", "-c", str(plain), "-o", str(folder / "out")]

            def one_process(cli=cli):
                subprocess.run(cli, check=True)

            def three_processes(cli=cli):
                for name in names:
                    subprocess.run([*cli, "--projection", name], check=True)

            a, b = _median_ms(one_process, args.repeat), _median_ms(three_processes, args.repeat)
            print(f"{label:32s} {'cli':8s} {a:11.1f} ms {b:7.1f} ms {b / a:5.2f}x")


if __name__ == "__main__":
    main()
