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

The named projections' transforms are real ones: ``internal`` removes the unused shapes
(``removeUnusedShapes``), ``public`` the documentation (``excludeTraits``); each projected
model is validated again, as Smithy does. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_build import _median_ms  # (beside this file)

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


#: Each named projection's organization and transform.
_PROJECTIONS = (("internal", "Internal", {"name": "removeUnusedShapes"}),
                ("public", "Public", {"name": "excludeTraits", "args": {"traits": ["documentation"]}}))


def _config(folder: Path, models: list[str], settings: dict) -> Path:
    named = {"projections": {
        name: {"plugins": {"cloudformation": {**settings, "organizationName": org}}, "transforms": [transform]}
        for name, org, transform in _PROJECTIONS}}
    path = folder / "smithy-build.json"
    path.write_text(json.dumps({"version": "1.0", "sources": models,
                                "plugins": {"cloudformation": {"organizationName": "Acme", **settings}}, **named}))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from smithy2cfn import api

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
            config = _config(folder, models, settings)

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
            cli = [sys.executable, "-m", "smithy2cfn", "build", "-q", "-c", str(config), "-o", str(folder / "out")]

            def one_process(cli=cli):
                subprocess.run(cli, check=True)

            def three_processes(cli=cli):
                for name in names:
                    subprocess.run([*cli, "--projection", name], check=True)

            a, b = _median_ms(one_process, args.repeat), _median_ms(three_processes, args.repeat)
            print(f"{label:32s} {'cli':8s} {a:11.1f} ms {b:7.1f} ms {b / a:5.2f}x")


if __name__ == "__main__":
    main()
