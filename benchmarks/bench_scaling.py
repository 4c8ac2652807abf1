"""Benchmark: does the cost of a build grow linearly with the model?

Run ``python benchmarks/bench_scaling.py [--cases NAME,...] [--scales 1,2,4,8] [--no-cli]``;
issue 10's goal is stated for ``--scales 1,2,4,8,16`` (slow: the 16× flat baseline of
``string`` is 8 MB of IDL, and 16× ``child-chain`` 22 MB).

Four stress models, each generated at 1×, 2×, 4× and 8× a base size by default (8× is the
size at which issue 6 measured them):

* ``mixin-chain``: a chain of ``@mixin`` structures, each ``with [`` the previous one and
  adding a trait to an inherited member, 375 → 3,000 levels; the last one is the create
  input of a ``@cfnResource``;
* ``child-chain``: resources ``R0 { resources: [R1] }``, ``R1 { resources: [R2] }``...
  each with its parent's identifiers plus its own, a ``create`` and a ``read`` binding
  them, all ``@cfnResource``, 62 → 500 levels (a child has one identifier per level, so
  the model's size grows with the square of the depth);
* ``siblings``: one service binding ``@cfnResource`` resources side by side, 62 → 500;
* ``string``: one ``@documentation`` text block of 0.5 → 4 MB;
* ``json-string`` (not run by default): the ``string`` case as a JSON AST file, a
  ``documentation`` of 0.5 → 4 MB with escaped quotes;
* ``mixin-members`` (not run by default): a mixin chain where each level adds a member,
  125 → 1,000 levels. Every shape holds the members of all the mixins before it (as in the
  reference, members are flattened), so the loaded model has levels²/2 members: its cost
  is linear in the members (see the slope against model nodes), not in the bytes.

and a ``flat`` baseline: structures with a few members each, one ``@cfnResource`` resource,
generated at the same number of bytes as each stress model.

For every model it measures ``validate`` (load + validate) and ``build`` (load, validate,
convert, write) through :mod:`smithy2cfn.api`, each in a fresh worker interpreter (after
a warm-up build of an empty model, so imports and the prelude are not counted), and one
whole-process ``smithy2cfn build``. It prints CPU seconds (user + system, which a machine
busy with other work disturbs less than wall-clock time) and peak resident memory
(``ru_maxrss`` of the process, minus the worker's after warm-up for the api rows), the
ratio to the flat model of the same size, and the log-log slope of time and memory
against the model's size in bytes (1.0 is linear; the goal is ≤ 1.1) and of the build
time against the loaded model's nodes (shapes plus their flattened members); for the
stress model and its flat baseline, also the slope of the validate stage alone (the CPU
time of ``api.validate`` after ``api.load``). Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HEADER = ('$version: "2"\n\nmetadata suppressions = [{ id: "UnstableTrait", namespace: "bench" }]\n\n'
          "namespace bench\n\nuse aws.cloudformation#cfnResource\n\n")


# --------------------------------------------------------------------------- generators

def gen_mixin_chain(levels: int) -> str:
    """``levels`` mixins ``M1 with [M0]``..., each documenting an inherited member; the
    last one is the create input of the resource ``Thing``."""
    out = [HEADER,
           'service Svc { version: "1", resources: [Thing] }\n\n',
           "@cfnResource\nresource Thing {\n    identifiers: { thingId: String }\n"
           "    create: CreateThing\n    read: GetThing\n}\n\n",
           "operation CreateThing { input: CreateThingInput, output: CreateThingOutput }\n",
           f"@input\nstructure CreateThingInput with [M{levels - 1}] {{}}\n",
           "@output\nstructure CreateThingOutput { @required thingId: String }\n\n",
           "@readonly\noperation GetThing {\n    input := { @required thingId: String }\n"
           "    output := { name: String, size: Integer, color: String }\n}\n\n",
           "@mixin\nstructure M0 {\n    name: String\n    size: Integer\n    color: String\n}\n\n"]
    for i in range(1, levels):
        out.append(f'@mixin\nstructure M{i} with [M{i - 1}] {{\n    @documentation("level {i}")\n    $name\n}}\n\n')
    return "".join(out)


def gen_mixin_members(levels: int) -> str:
    """``levels`` mixins, each adding one member to those of the previous one."""
    out = [HEADER, 'service Svc { version: "1", resources: [Thing] }\n\n',
           "@cfnResource\nresource Thing {\n    identifiers: { thingId: String }\n"
           "    create: CreateThing\n    read: GetThing\n}\n\n",
           "operation CreateThing { input: CreateThingInput, output: CreateThingOutput }\n",
           f"@input\nstructure CreateThingInput with [M{levels - 1}] {{}}\n",
           "@output\nstructure CreateThingOutput { @required thingId: String }\n\n",
           "@readonly\noperation GetThing {\n    input := { @required thingId: String }\n"
           "    output := { name: String }\n}\n\n",
           "@mixin\nstructure M0 {\n    name: String\n}\n\n"]
    for i in range(1, levels):
        out.append(f"@mixin\nstructure M{i} with [M{i - 1}] {{\n    field{i}: String\n}}\n\n")
    return "".join(out)


def gen_child_chain(levels: int) -> str:
    """``R0 { resources: [R1] }``... ``levels`` deep; ``R<k>`` has identifiers
    ``id0``..``id<k>``, a ``create`` whose input binds the parents' identifiers and a ``read``
    whose input binds all of them (members elided with ``for R<k>``)."""
    out = [HEADER, 'service Svc { version: "1", resources: [R0] }\n\nstring Id\n\n']
    for k in range(levels):
        ids = ", ".join(f"id{j}: Id" for j in range(k + 1))
        child = f"    resources: [R{k + 1}]\n" if k + 1 < levels else ""
        parent_ids = "".join(f"@required $id{j} " for j in range(k))
        out.append(f"@cfnResource\nresource R{k} {{\n    identifiers: {{ {ids} }}\n"
                   f"    properties: {{ name{k}: String }}\n    create: Create{k}\n    read: Get{k}\n{child}}}\n\n"
                   f"operation Create{k} {{\n    input := for R{k} {{ {parent_ids}$name{k} }}\n"
                   f"    output := {{}}\n}}\n\n"
                   f"@readonly\noperation Get{k} {{\n    input := for R{k} {{ {parent_ids}@required $id{k} }}\n"
                   f"    output := for R{k} {{ $name{k} }}\n}}\n\n")
    return "".join(out)


def gen_siblings(count: int) -> str:
    """One service binding ``count`` ``@cfnResource`` resources with create/read/delete."""
    names = ", ".join(f"R{k}" for k in range(count))
    out = [HEADER, f'service Svc {{\n    version: "1"\n    resources: [{names}]\n}}\n\n']
    for k in range(count):
        out.append(f"@cfnResource\nresource R{k} {{\n    identifiers: {{ id{k}: String }}\n"
                   f"    properties: {{ name{k}: String, size{k}: Integer }}\n"
                   f"    create: Create{k}\n    read: Get{k}\n    delete: Delete{k}\n}}\n\n"
                   f"operation Create{k} {{\n    input := {{ name{k}: String, size{k}: Integer }}\n"
                   f"    output := {{ @required id{k}: String }}\n}}\n\n"
                   f"@readonly\noperation Get{k} {{\n    input := {{ @required id{k}: String }}\n"
                   f"    output := {{ @required id{k}: String, name{k}: String, size{k}: Integer }}\n}}\n\n"
                   f"@idempotent\noperation Delete{k} {{\n    input := {{ @required id{k}: String }}\n"
                   f"    output := {{}}\n}}\n\n")
    return "".join(out)


def gen_string(megabytes: float) -> str:
    """A resource whose ``@documentation`` is a text block of ``megabytes`` MB."""
    line = "Lorem ipsum dolor sit amet, \\\"quoted\\\" and caf\u00e9 \u2014 consectetur adipiscing elit.\n"
    n = int(megabytes * 1_000_000 / len(line.encode()))
    text = "".join(f"    {line}" for _ in range(n))
    return (HEADER + 'service Svc { version: "1", resources: [Thing] }\n\n'
            + f'@documentation("""\n{text}    """)\n'
            + "@cfnResource\nresource Thing {\n    identifiers: { thingId: String }\n    read: GetThing\n}\n\n"
            + "@readonly\noperation GetThing {\n    input := { @required thingId: String }\n"
            + "    output := { @required thingId: String, name: String }\n}\n")


def gen_json_string(megabytes: float) -> str:
    """A JSON AST model whose resource has a ``documentation`` string of ``megabytes`` MB
    (with escaped quotes, as real AWS models' documentation has)."""
    doc = 'Lorem ipsum dolor sit amet, "quoted" and caf\u00e9 \u2014 consectetur adipiscing elit.\n'
    doc *= int(megabytes * 1_000_000 / len(doc.encode()))
    string, required = {"target": "smithy.api#String"}, {"smithy.api#required": {}}
    model = {"smithy": "2.0", "metadata": {"suppressions": [{"id": "UnstableTrait", "namespace": "bench"}]},
             "shapes": {
                 "bench#Svc": {"type": "service", "version": "1", "resources": [{"target": "bench#Thing"}]},
                 "bench#Thing": {"type": "resource", "identifiers": {"thingId": string},
                                 "read": {"target": "bench#GetThing"},
                                 "traits": {"aws.cloudformation#cfnResource": {}, "smithy.api#documentation": doc}},
                 "bench#GetThing": {"type": "operation", "input": {"target": "bench#GetThingInput"},
                                    "output": {"target": "bench#GetThingInput"}, "traits": {"smithy.api#readonly": {}}},
                 "bench#GetThingInput": {"type": "structure",
                                         "members": {"thingId": {**string, "traits": required}}},
             }}
    return json.dumps(model, indent=2, ensure_ascii=False)


def gen_flat(nbytes: int) -> str:
    """About ``nbytes`` of independent structures, plus one ``@cfnResource``."""
    out = [HEADER, 'service Svc { version: "1", resources: [Thing] }\n\n',
           "@cfnResource\nresource Thing {\n    identifiers: { thingId: String }\n    read: GetThing\n}\n\n",
           "@readonly\noperation GetThing {\n    input := { @required thingId: String }\n"
           "    output := { @required thingId: String, name: String }\n}\n\n"]
    size = sum(len(s) for s in out)
    i = 0
    while size < nbytes:
        s = f"/// Shape {i}.\nstructure S{i} {{\n    name: String\n    size: Integer\n}}\n\n"
        out.append(s)
        size += len(s)
        i += 1
    return "".join(out)


#: case → (generator, sizes at 1×: the generator's argument, a unit for printing)
CASES = {
    "mixin-chain": (gen_mixin_chain, 375, "levels"),
    "child-chain": (gen_child_chain, 62.5, "levels"),
    "siblings": (gen_siblings, 62.5, "resources"),
    "string": (gen_string, 0.5, "MB"),
    "mixin-members": (gen_mixin_members, 125, "levels"),
    "json-string": (gen_json_string, 0.5, "MB"),
}
DEFAULT_CASES = ("mixin-chain", "child-chain", "siblings", "string")


def _arg(case: str, scale: int) -> float | int:
    base = CASES[case][1]
    value = base * scale
    return value if case.endswith("string") else int(round(value))


# --------------------------------------------------------------------------- measuring

def _worker(command: str, model_dir: str) -> None:
    """In a fresh interpreter: warm up, then measure one api ``validate`` or ``build``
    (CPU seconds, peak RSS growth in KiB, model nodes or schemas made)."""
    import resource

    from smithy2cfn import api

    with tempfile.TemporaryDirectory() as empty:
        Path(empty, "e.smithy").write_text('$version: "2"\nnamespace e\nservice S { version: "1" }\n')
        api.build([empty], None, {"service": "e#S", "organizationName": "E"})  # imports every stage
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.process_time()
    loaded = None
    if command == "validate":
        read = api.load([model_dir])
        model = read.model
        loaded = time.process_time()
        diags = api.validate(read).diagnostics if read.ok else read.diagnostics
        errors = [d for d in diags if d.is_error]
        count = sum(1 + len(s.members) for s in model.shapes.values() if not model.is_prelude(s.id))
    else:
        with tempfile.TemporaryDirectory() as out:
            result = api.build([model_dir], out, {"service": "bench#Svc", "organizationName": "Bench"})
        errors = [d for d in result.diagnostics if d.is_error]
        count = len(result.schemas)
    end = time.process_time()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    json.dump({"seconds": end - t, "stage": end - loaded if loaded is not None else None,
               "kib": peak - base, "count": count,
               "errors": [d.format_text() for d in errors[:3]]}, sys.stdout)


def _cli(model_dir: str, timeout: float) -> tuple[float, int, int]:
    """CPU time and peak RSS of one whole ``smithy2cfn build`` process, as reported by a tiny
    wrapper that runs the CLI module and prints its own ``getrusage`` when it exits."""
    code = ("import resource, sys, runpy\n"
            "sys.argv = ['smithy2cfn'] + sys.argv[1:]\n"
            "rc = 0\n"
            "try:\n    runpy.run_module('smithy2cfn', run_name='__main__')\n"
            "except SystemExit as e:\n    rc = e.code or 0\n"
            "u = resource.getrusage(resource.RUSAGE_SELF)\n"
            "print(u.ru_utime + u.ru_stime, u.ru_maxrss, file=sys.stderr)\n"
            "sys.exit(rc)\n")
    with tempfile.TemporaryDirectory() as out:
        try:
            proc = subprocess.run([sys.executable, "-c", code, "build", "-q", "--service", "bench#Svc",
                                   "--org", "Bench", "-o", out, model_dir],
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return math.inf, 0, -1
    try:
        cpu, kib = proc.stderr.strip().splitlines()[-1].split()
        return float(cpu), int(kib), proc.returncode
    except (ValueError, IndexError):
        return math.nan, 0, proc.returncode


def _api(command: str, model_dir: str, timeout: float) -> dict:
    try:
        proc = subprocess.run([sys.executable, __file__, "--worker", command, model_dir], capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"seconds": math.inf, "kib": 0, "count": 0, "errors": ["timeout"]}
    try:
        return json.loads(proc.stdout)
    except ValueError:
        return {"seconds": math.nan, "kib": 0, "count": 0, "errors": [proc.stderr[-500:]]}


def _stage(row: dict) -> float:
    """CPU seconds of the validate stage alone (``api.validate`` after ``api.load``)."""
    stage = row["validate"].get("stage")
    return stage if stage is not None else math.nan


def _slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log(y) against log(x)."""
    pts = [(math.log(x), math.log(max(y, 1e-6))) for x, y in zip(xs, ys, strict=True)
           if x > 0 and math.isfinite(y)]
    if len(pts) < 2:
        return math.nan
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    den = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / den if den else math.nan


def measure(text: str, tmp: Path, name: str, timeout: float, cli: bool, repeat: int = 1) -> dict:
    """Write ``text`` as a one-file model and measure validate, build and the CLI (the
    fastest of ``repeat`` runs of each, to see through a busy machine)."""
    folder = tmp / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ("model.json" if text.startswith("{") else "model.smithy")).write_text(text, encoding="utf-8")
    row: dict = {"bytes": len(text.encode())}
    for command in ("validate", "build"):
        r = min((_api(command, str(folder), timeout) for _ in range(repeat)), key=lambda r: r["seconds"])
        row[command] = r
        if r["errors"]:
            print(f"  ! {name} {command}: {r['errors'][0]}", file=sys.stderr)
    if cli:
        row["cli"] = min((_cli(str(folder), timeout) for _ in range(repeat)), key=lambda r: r[0])
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(DEFAULT_CASES),
                        help=f"comma-separated cases of {', '.join(CASES)} (default: {', '.join(DEFAULT_CASES)})")
    parser.add_argument("--scales", default="1,2,4,8", help="multiples of the base size (default 1,2,4,8)")
    parser.add_argument("--no-cli", action="store_true", help="skip the whole-process builds")
    parser.add_argument("--no-flat", action="store_true", help="skip the flat baselines")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per run (default 300)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per measure, the fastest kept (default 1)")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(*args.worker)
        return
    scales = [int(s) for s in args.scales.split(",")]
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        for case in args.cases.split(","):
            gen, _, unit = CASES[case]
            print(f"\n== {case}")
            print(f"{'size':>12s} {'bytes':>9s} | {'validate s':>10s} {'MiB':>6s} {'×flat':>6s} | "
                  f"{'build s':>8s} {'MiB':>6s} {'×flat':>6s} | {'cli s':>7s} {'MiB':>6s} | "
                  f"{'flat val s':>10s} {'build s':>8s} {'MiB':>6s}")
            rows = []
            for scale in scales:
                arg = _arg(case, scale)
                row = measure(gen(arg), tmp, f"{case}-{scale}", args.timeout, not args.no_cli, args.repeat)
                flat = None if args.no_flat else measure(gen_flat(row["bytes"]), tmp, f"flat-{case}-{scale}",
                                                         args.timeout, False, args.repeat)
                rows.append((row, flat))

                def ratio(cmd: str, row=row, flat=flat) -> str:
                    if flat is None or not flat[cmd]["seconds"]:
                        return "-"
                    return f"{row[cmd]['seconds'] / flat[cmd]['seconds']:6.2f}"

                cli = row.get("cli", (math.nan, 0, 0))
                print(f"{f'{arg} {unit}':>12s} {row['bytes']:9d} | "
                      f"{row['validate']['seconds']:10.2f} {row['validate']['kib'] / 1024:6.0f} {ratio('validate'):>6s} | "
                      f"{row['build']['seconds']:8.2f} {row['build']['kib'] / 1024:6.0f} {ratio('build'):>6s} | "
                      f"{cli[0]:7.2f} {cli[1] / 1024:6.0f} | "
                      + (f"{flat['validate']['seconds']:10.2f} {flat['build']['seconds']:8.2f} "
                         f"{flat['build']['kib'] / 1024:6.0f}" if flat else ""),
                      flush=True)
            xs = [r["bytes"] for r, _ in rows]
            slopes = [f"{cmd} time {_slope(xs, [r[cmd]['seconds'] for r, _ in rows]):.2f} "
                      f"mem {_slope(xs, [max(r[cmd]['kib'], 1) for r, _ in rows]):.2f}"
                      for cmd in ("validate", "build")]
            slopes.insert(1, f"validate stage alone {_slope(xs, [_stage(r) for r, _ in rows]):.2f}")
            nodes = [r["validate"]["count"] for r, _ in rows]
            if all(nodes):
                slopes.append(f"build time against model nodes ({nodes[0]}→{nodes[-1]}) "
                              f"{_slope(nodes, [r['build']['seconds'] for r, _ in rows]):.2f}")
            if not args.no_cli:
                slopes.append(f"cli time {_slope(xs, [r['cli'][0] for r, _ in rows]):.2f}")
            if not args.no_flat:
                slopes.append(f"flat validate time {_slope(xs, [f['validate']['seconds'] for _, f in rows]):.2f} "
                              f"(stage alone {_slope(xs, [_stage(f) for _, f in rows]):.2f})")
                slopes.append(f"flat build time {_slope(xs, [f['build']['seconds'] for _, f in rows]):.2f}")
            print("   log-log slope against bytes: " + "; ".join(slopes))


if __name__ == "__main__":
    main()
