"""Benchmark: smithy2cfn side by side with the Java reference (issue 10's table).

Run ``python benchmarks/side_by_side.py [--repeat N] [--aws-models DIR] [--cases A,B] [--largest N]
[--json FILE] [--importtime-top K]``.

Cases (each skipped with a note when its model is absent):

* ``small``: the cfn conformance model ``integ/complex-resource.smithy`` (``../shared``);
* ``transfer``, ``bedrock-agent``, ``sagemaker``: real AWS models as JSON AST (``--aws-models``,
  default the ``SMITHY2CFN_AWS_MODELS`` variable or ``../scratch/aws-all``; SageMaker's, 3.3 MB,
  is the largest of the published models);
* ``s3-idl``: the s3 model written as IDL 2.0 by ``benchmarks/ast_to_idl.py`` (2.2 MB);
* with ``--largest N``, the N largest JSON AST models of ``--aws-models`` besides those (issue
  15's goal is on every real model; named by file without its date, their goals those of a real
  model; no warm runs, which would take minutes).

For each it measures, in fresh processes (after a warm-up run, with bytecode compiled as in
an installed package; with the reference, its runs and ours in turns, one order then the
other, so that a drift of the machine's speed weighs on both), ``smithy2cfn build`` as a user runs it: wall time, CPU time (user + system: what the process itself used, which a machine busy with
other work disturbs less) and peak resident memory (``ru_maxrss``), the median of
``--repeat`` runs (memory: the largest). In one worker process it measures the warm
in-process ``api.build`` (no output folder; median after a warm-up) and, for the IDL case,
``api.load`` in MB/s.

Import time: ``import smithy2cfn.cli`` and ``import smithy2cfn.api``, each timed inside a fresh
process (wall and CPU, median of ``--repeat`` after a warm-up; the interpreter's own start-up,
``python -c pass`` as a whole process, for scale), and the modules that cost most under
``python -X importtime`` (self time, the least of ``--repeat`` runs; that flag adds its own
overhead, so read the ranking, not the sum).

The reference runs when ``SMITHY2CFN_REFERENCE_CMD`` gives its command: a template whose
``{models}`` (the model files, shell-quoted), ``{service}``, ``{org}`` and ``{out}`` (an
empty output folder) are filled in, for example
``java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp ref.jar CfnMain {models} {service} {org} {out}``.
Its warm in-process time comes from ``SMITHY2CFN_REFERENCE_WARM_CMD``, the same kind of
template with ``{repeat}`` too: one process that converts the model repeatedly after its own
warm-up and prints the median time of ``{repeat}`` conversions, in milliseconds, as the first
number of its last line of output (``warm_ms median 27.5 min 24.8``; a ``cpu_ms median N`` on that
line gives the CPU time of the converting thread too); or, without a command,
from ``SMITHY2CFN_REFERENCE_WARM_MS`` (``small=19,transfer=271``). Without the reference
command the reference figures of issue 10 (measured with the JVM flags above) are printed
for comparison, marked as not measured here. Ratios are reference ÷ smithy2cfn (above 1:
smithy2cfn is faster or smaller): wall ÷ wall, CPU ÷ CPU (the reference's CPU time counts its JIT
and GC threads), peak memory ÷ peak memory. On a machine shared with other work, the CPU ratio is
the steadier one; the goals are on wall time measured on an idle machine.

The machine's second CPU: before and after the cases, two CPU-bound processes run together for
a second and one alone for a second (:func:`parallel_capacity`); the work the two did, as a
multiple of the one's, says how much a second process can add on this machine at that time
(2.0: two whole CPUs; on the virtual machine of issue 15's notes it went from 2.1 to 1.3 within
two minutes). Both programs use one (our helper process, the reference's JIT and GC threads).

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"

#: Issue 10's reference figures (whole process: seconds, MiB; warm in-process: ms), measured
#: with the reference built from smithy-lang/smithy behind a main, JVM flags
#: -XX:+UseSerialGC -XX:TieredStopAtLevel=1. Used when no reference command is given.
ISSUE_REFERENCE = {
    "small": {"wall": 0.60, "mib": 78, "warm_ms": 19.0},
    "transfer": {"wall": 1.43, "mib": 181, "warm_ms": 271.0},
    "bedrock-agent": {"wall": 1.56, "mib": 165},
    "s3-idl": {"wall": 2.08},
}
#: Issue 15's goals (issue 10's warm goal kept): reference ÷ smithy2cfn at least this (whole
#: process time, peak memory, warm time): >= 6x on the small model, >= 4x on every real model,
#: at most 1/3 of the reference's memory.
GOALS = {"small": (6.0, 3.0, 2.0), "transfer": (4.0, 3.0, 2.0), "bedrock-agent": (4.0, 3.0, None),
         "sagemaker": (4.0, 3.0, None), "s3-idl": (4.0, 3.0, None)}
#: The goals of any other real model (``--largest``).
REAL_MODEL_GOALS = (4.0, 3.0, None)
#: The modules whose import time is printed (each in a fresh process).
IMPORTED = ("smithy2cfn.cli", "smithy2cfn.api")


@dataclass
class Case:
    name: str
    models: list[Path]
    service: str
    org: str
    size: int = 0  # bytes of model text


@dataclass
class Runs:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    rss_kib: list[int] = field(default_factory=list)
    failed: str | None = None

    def summary(self) -> dict[str, float]:
        return {"wall": statistics.median(self.wall), "cpu": statistics.median(self.cpu),
                "mib": max(self.rss_kib) / 1024, "wall_min": min(self.wall), "cpu_min": min(self.cpu)}


def run_process(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int, int, str]:
    """Run ``argv``; (wall s, CPU s, peak RSS KiB, exit code, stderr tail) of that process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return (wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode,
            err.decode("utf-8", "replace")[-400:])


#: The environment of the measured processes: as a user's, with compiled bytecode (a
#: PYTHONDONTWRITEBYTECODE left in this shell would make every run compile our modules).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

# This process stays small: Linux counts in a child's peak memory (``ru_maxrss``) the memory of
# the process it was forked from, up to the new program's start (``exec``), so the work that would
# make this one large (reading a model, writing s3 as IDL) is done by other processes. The
# benchmark that parsed s3's JSON itself reported 27 MiB for a build of the small model that
# takes 19.


#: The busy loop :func:`parallel_capacity` runs: rounds of pure-Python work for argv[1]
#: seconds, then prints how many rounds it made.
_BUSY = ("import sys, time\n"
         "end = time.perf_counter() + float(sys.argv[1])\n"
         "n = 0\n"
         "while time.perf_counter() < end:\n"
         "    for _ in range(10000):\n"
         "        pass\n"
         "    n += 1\n"
         "print(n)\n")


def parallel_capacity(seconds: float = 1.0) -> float:
    """The work two CPU-bound processes do together in ``seconds``, as a multiple of what
    one does alone (2.0 on a machine with two whole CPUs free; ``nan`` when a run failed)."""
    def rounds(processes: int) -> int:
        procs = [subprocess.Popen([sys.executable, "-c", _BUSY, str(seconds)], stdout=subprocess.PIPE)
                 for _ in range(processes)]
        counts = [p.communicate()[0] for p in procs]
        return sum(int(c) for c in counts) if all(p.returncode == 0 for p in procs) else 0

    one, two = rounds(1), rounds(2)
    return two / one if one and two else float("nan")


def measure(argv_for: callable, repeat: int) -> Runs:
    """``repeat`` runs after one warm-up run (bytecode written, files in the page cache)."""
    return measure_side_by_side([argv_for], repeat)[0]


def measure_side_by_side(argvs_for: list[callable], repeat: int,
                         envs: list[dict[str, str]] | None = None) -> list[Runs]:
    """The runs of each command (``repeat`` each, after one warm-up run of each), taken in
    turns, in one order then the reverse (A B, B A, A B...): a machine whose speed drifts
    during the minute a case takes slows every command alike, not the one measured last. A
    command that fails is not run again. ``envs``: each command's environment (default
    :data:`CHILD_ENV` for all)."""
    runs = [Runs() for _ in argvs_for]
    for i in range(repeat + 1):
        order = list(range(len(argvs_for)))
        for k in order if i % 2 == 0 else order[::-1]:
            if runs[k].failed:
                continue
            with tempfile.TemporaryDirectory() as out:
                wall, cpu, rss, code, err = run_process(argvs_for[k](out), CHILD_ENV if envs is None else envs[k])
            if code != 0:
                runs[k].failed = f"exit {code}: {err.strip()}"
                continue
            if i == 0:
                continue
            runs[k].wall.append(wall)
            runs[k].cpu.append(cpu)
            runs[k].rss_kib.append(rss)
    return runs


def ours(case: Case) -> callable:
    return lambda out: [sys.executable, "-m", "smithy2cfn", "build", "-q", *map(str, case.models),
                        "--service", case.service, "--org", case.org, "-o", out]


def reference(template: str, case: Case, repeat: int = 0) -> callable:
    def argv(out: str) -> list[str]:
        text = template.format(models=" ".join(shlex.quote(str(m)) for m in case.models),
                               service=shlex.quote(case.service), org=shlex.quote(case.org), out=shlex.quote(out),
                               repeat=repeat)
        return shlex.split(text)
    return argv


def reference_warm(template: str, case: Case, repeat: int) -> dict[str, float] | str:
    """The reference's warm median from ``SMITHY2CFN_REFERENCE_WARM_CMD``, or why not:
    ``{"warm_ms": ms}``, with ``"warm_cpu_ms"`` when its line gives ``cpu_ms median N``."""
    with tempfile.TemporaryDirectory() as out:
        proc = subprocess.run(reference(template, case, repeat)(out), capture_output=True, text=True, env=CHILD_ENV)
    lines = proc.stdout.strip().splitlines()
    number = re.search(r"[0-9]+(?:\.[0-9]+)?", lines[-1]) if lines else None
    if proc.returncode != 0 or number is None:
        return f"exit {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-300:]}"
    figures = {"warm_ms": float(number.group())}
    cpu = re.search(r"cpu_ms median ([0-9]+(?:\.[0-9]+)?)", lines[-1])
    if cpu:
        figures["warm_cpu_ms"] = float(cpu.group(1))
    return figures


IMPORT_PROBE = r'''
import sys, time
t, c = time.perf_counter(), time.process_time()
__import__(sys.argv[1])
print(time.perf_counter() - t, time.process_time() - c, len(sys.modules))
'''


def import_times(modules: tuple[str, ...], repeat: int) -> dict[str, dict[str, float]]:
    """Per module: ``{"wall_ms", "cpu_ms", "modules"}`` of ``import module`` timed inside a fresh
    process (median of ``repeat`` after a warm-up; ``modules``: ``len(sys.modules)`` after it),
    and ``"python -c pass"``: the interpreter's start-up and exit as a whole process."""
    out = {}
    for module in modules:
        walls, cpus, count = [], [], 0
        for i in range(repeat + 1):
            proc = subprocess.run([sys.executable, "-c", IMPORT_PROBE, module], capture_output=True, text=True,
                                  check=True, env=CHILD_ENV)
            wall, cpu, count = proc.stdout.split()
            if i:
                walls.append(float(wall) * 1000)
                cpus.append(float(cpu) * 1000)
        out[module] = {"wall_ms": statistics.median(walls), "cpu_ms": statistics.median(cpus), "modules": int(count)}
    bare = measure(lambda _out: [sys.executable, "-c", "pass"], repeat)
    out["python -c pass"] = {"wall_ms": statistics.median(bare.wall) * 1000,
                             "cpu_ms": statistics.median(bare.cpu) * 1000}
    return out


def importtime_top(module: str, top: int, repeat: int) -> list[tuple[float, float, str]]:
    """The ``top`` modules of ``python -X importtime -c 'import module'`` by self time:
    ``(self ms, cumulative ms, module name)``, each the least of ``repeat`` runs after a warm-up
    run (bytecode written). -X importtime does not log a module imported by
    ``importlib.import_module`` (its nested ``import`` statements are logged)."""
    best: dict[str, list[float]] = {}
    for i in range(repeat + 1):
        proc = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"], capture_output=True,
                              text=True, check=True, env=CHILD_ENV)
        if not i:
            continue
        for line in proc.stderr.splitlines():
            match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| \s*(\S+)", line)
            if match:
                own, cumulative = int(match.group(1)) / 1000, int(match.group(2)) / 1000
                figures = best.setdefault(match.group(3), [own, cumulative])
                figures[0], figures[1] = min(figures[0], own), min(figures[1], cumulative)
    return sorted(((own, cumulative, name) for name, (own, cumulative) in best.items()), reverse=True)[:top]


WORKER = r'''
import json, statistics, sys, time
from smithy2cfn import api
cases = json.loads(sys.argv[1]); repeat = int(sys.argv[2]); out = {}
for name, models, settings, idl in cases:
    api.build(models, None, settings)  # warm-up: imports, prelude, caches
    times, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        result = api.build(models, None, settings)
        times.append(time.perf_counter() - t); cpu.append(time.process_time() - c)
    out[name] = {"warm_ms": statistics.median(times) * 1000, "warm_cpu_ms": statistics.median(cpu) * 1000,
                 "ok": result.ok}
    if idl:
        loads, load_cpu = [], []
        for _ in range(repeat):
            t, c = time.perf_counter(), time.process_time()
            api.load(models)
            loads.append(time.perf_counter() - t); load_cpu.append(time.process_time() - c)
        out[name]["load_s"] = statistics.median(loads)
        out[name]["load_cpu_s"] = statistics.median(load_cpu)
print(json.dumps(out))
'''


def warm(cases: list[Case], repeat: int) -> dict[str, dict[str, float]]:
    spec = [[c.name, [str(m) for m in c.models], {"service": c.service, "organizationName": c.org},
             c.name.endswith("-idl")] for c in cases]
    proc = subprocess.run([sys.executable, "-c", WORKER, json.dumps(spec), str(repeat)], capture_output=True,
                          text=True, check=True, env=CHILD_ENV)
    return json.loads(proc.stdout)


def cases(aws: Path, scratch: Path) -> tuple[list[Case], list[str]]:
    found, notes = [], []
    small = SHARED / "conformance" / "cfn" / "integ" / "complex-resource.smithy"
    if small.exists():
        found.append(Case("small", [small], "smithy.example#TestService", "Smithy"))
    else:
        notes.append(f"small: {small} not found")
    for name, file, service in (("transfer", "transfer-2018-11-05.json", "com.amazonaws.transfer#TransferService"),
                                ("bedrock-agent", "bedrock-agent-2023-06-05.json",
                                 "com.amazonaws.bedrockagent#AmazonBedrockAgentBuildTimeLambda"),
                                ("sagemaker", "sagemaker-2017-07-24.json", "com.amazonaws.sagemaker#SageMaker")):
        if (aws / file).exists():
            found.append(Case(name, [aws / file], service, "AWS"))
        else:
            notes.append(f"{name}: {aws / file} not found (--aws-models)")
    s3 = aws / "s3-2006-03-01.json"
    if s3.exists():
        # (written by another process, as this one stays small: see CHILD_ENV)
        idl = scratch / "s3.smithy"
        with idl.open("w", encoding="utf-8") as out:
            subprocess.run([sys.executable, str(Path(__file__).parent / "ast_to_idl.py"), str(s3)], stdout=out,
                           check=True, env=CHILD_ENV)
        found.append(Case("s3-idl", [idl], "com.amazonaws.s3#AmazonS3", "AWS"))
    else:
        notes.append(f"s3-idl: {s3} not found (--aws-models)")
    for case in found:
        case.size = sum(m.stat().st_size for m in case.models)
    return found, notes


#: Prints the service shape IDs of each JSON AST file named on its command line, a JSON list per
#: line (run in another process, as this one stays small: see CHILD_ENV).
_SERVICES = ("import json, sys\n"
             "for path in sys.argv[1:]:\n"
             "    with open(path, encoding='utf-8') as f:\n"
             "        shapes = json.load(f).get('shapes', {})\n"
             "    print(json.dumps([s for s, v in shapes.items() if isinstance(v, dict) and v.get('type') == 'service']))\n")


def largest(aws: Path, count: int, taken: list[Case]) -> list[Case]:
    """The ``count`` largest JSON AST models of ``aws`` (by size, then name) that no case of
    ``taken`` uses, each with its service (a model with no service, or several, is passed:
    they are looked for among the ``2 * count`` largest)."""
    used = {m.resolve() for case in taken for m in case.models}
    candidates = [p for p in sorted(aws.glob("*.json"), key=lambda p: (-p.stat().st_size, p.name))
                  if p.resolve() not in used][:2 * count]
    if count <= 0 or not candidates:
        return []
    lines = subprocess.run([sys.executable, "-c", _SERVICES, *map(str, candidates)], capture_output=True, text=True,
                           check=True, env=CHILD_ENV).stdout.splitlines()
    found: list[Case] = []
    for path, line in zip(candidates, lines, strict=True):
        services = json.loads(line)
        if len(services) == 1 and len(found) < count:
            name = re.sub(r"-[0-9]{4}-[0-9]{2}-[0-9]{2}$", "", path.stem)
            found.append(Case(name, [path], services[0], "AWS", path.stat().st_size))
    return found


def _ratio(ref: float | None, ours_: float | None) -> str:
    return f"{ref / ours_:5.1f}×" if ref and ours_ else "   — "


def _parse_warm(text: str) -> dict[str, float]:
    out = {}
    for part in text.split(","):
        if "=" in part:
            k, v = part.split("=", 1)
            out[k.strip()] = float(v)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--aws-models", type=Path,
                        default=Path(os.environ.get("SMITHY2CFN_AWS_MODELS", REPO.parent / "scratch" / "aws-all")))
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument("--largest", type=int, default=0, metavar="N",
                        help="also the N largest AWS models of --aws-models not among the cases")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--importtime-top", type=int, default=12, metavar="K",
                        help="list the K modules with the largest self time under -X importtime (0: none)")
    args = parser.parse_args()
    template = os.environ.get("SMITHY2CFN_REFERENCE_CMD")
    warm_template = os.environ.get("SMITHY2CFN_REFERENCE_WARM_CMD")
    ref_warm = _parse_warm(os.environ.get("SMITHY2CFN_REFERENCE_WARM_MS", ""))

    with tempfile.TemporaryDirectory() as scratch:
        found, notes = cases(args.aws_models, Path(scratch))
        every = list(found)
        if args.cases:
            wanted = set(args.cases.split(","))
            found = [c for c in found if c.name in wanted]
        named = list(found)
        if args.largest > 0:
            found += largest(args.aws_models, args.largest, every)
        for note in notes:
            print(f"note: {note}")
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; median of {args.repeat} runs")
        print("reference: " + (f"measured ({template})" if template else
                               "not run (no SMITHY2CFN_REFERENCE_CMD): issue 10's figures, not measured here"))
        if template and warm_template:
            print(f"reference warm: measured ({warm_template})")
        capacity = {"before": parallel_capacity()}
        print(f"two CPU-bound processes together: {capacity['before']:.2f}x the work of one (2.00: two whole CPUs)")
        warm_figures = warm(named, max(args.repeat, 10)) if named else {}  # (as many runs as the reference's)
        table = {}
        for case in found:
            # (ours and the reference's in turns: see measure_side_by_side)
            mine, theirs = measure_side_by_side([ours(case), reference(template, case)], args.repeat) \
                if template else (measure(ours(case), args.repeat), None)
            if mine.failed:
                print(f"{case.name}: smithy2cfn failed: {mine.failed}")
                continue
            row = {"size_bytes": case.size, "smithy2cfn": mine.summary(), **warm_figures.get(case.name, {})}
            if template and theirs is not None:
                row["reference"] = theirs.summary() if not theirs.failed else {"failed": theirs.failed}
                if warm_template and "failed" not in row["reference"] and case in named:
                    ms = reference_warm(warm_template, case, max(args.repeat, 10))
                    if isinstance(ms, dict):
                        row["reference"].update(ms)
                    else:
                        print(f"{case.name}: reference warm run failed: {ms}")
                elif case.name in ref_warm:
                    row["reference"]["warm_ms"] = ref_warm[case.name]
            else:
                row["reference"] = {**ISSUE_REFERENCE.get(case.name, {}), "source": "issue 10"}
            table[case.name] = row

    capacity["after"] = parallel_capacity()
    imports = import_times(IMPORTED, args.repeat)
    top = importtime_top(IMPORTED[0], args.importtime_top, args.repeat) if args.importtime_top > 0 else []

    print()
    print(f"{'case':14s} {'size':>8s} | {'wall s':>6s} {'cpu s':>6s} {'MiB':>4s} | "
          f"{'ref wall':>8s} {'ref cpu':>7s} {'ref MiB':>7s} | {'time ×':>6s} {'cpu ×':>6s} {'mem ×':>6s} | "
          f"{'warm ms':>7s} {'cpu ms':>6s} {'ref ms':>6s} {'ref cpu':>7s} {'×':>6s} {'cpu ×':>6s} | "
          f"goals (time, mem, warm)")
    nan = float("nan")
    for name, row in table.items():
        us, ref = row["smithy2cfn"], row["reference"]
        goal = GOALS.get(name, REAL_MODEL_GOALS)
        print(f"{name:14s} {row['size_bytes'] / 1e3:6.0f}KB | {us['wall']:6.2f} {us['cpu']:6.2f} {us['mib']:4.0f} | "
              f"{ref.get('wall', nan):8.2f} {ref.get('cpu', nan):7.2f} {ref.get('mib', nan):7.0f} | "
              f"{_ratio(ref.get('wall'), us['wall'])} {_ratio(ref.get('cpu'), us['cpu'])} "
              f"{_ratio(ref.get('mib'), us['mib'])} | {row.get('warm_ms', nan):7.1f} {row.get('warm_cpu_ms', nan):6.1f} "
              f"{ref.get('warm_ms', nan):6.1f} {ref.get('warm_cpu_ms', nan):7.1f} "
              f"{_ratio(ref.get('warm_ms'), row.get('warm_ms'))} "
              f"{_ratio(ref.get('warm_cpu_ms'), row.get('warm_cpu_ms'))} | "
              f"≥{goal[0] or '-'}× ≥{goal[1] or '-'}× ≥{goal[2] or '-'}×")
        if "load_s" in row:
            mb = row["size_bytes"] / 1e6
            print(f"{'':14s} api.load of the IDL, warm: {row['load_s']:.2f} s wall, {row['load_cpu_s']:.2f} s CPU = "
                  f"{mb / row['load_s']:.2f} MB/s wall, {mb / row['load_cpu_s']:.2f} MB/s of CPU (goal ≥ 2 MB/s); "
                  f"whole process {mb / us['wall']:.2f} MB/s wall, {mb / us['cpu']:.2f} MB/s of CPU")
    print("\n× = reference ÷ smithy2cfn: time × = wall ÷ wall, cpu × = CPU ÷ CPU (the reference's counts its JIT "
          "and GC threads; warm: the converting thread's CPU time, when its command prints it), mem × = peak RSS")
    print("\nimport time, in a fresh process (median of "
          f"{args.repeat}): " + "; ".join(
              f"{m} {f['wall_ms']:.1f} ms wall, {f['cpu_ms']:.1f} ms CPU, {f['modules']} modules"
              for m, f in imports.items() if "modules" in f)
          + f"; the interpreter alone (python -c pass, whole process) {imports['python -c pass']['wall_ms']:.1f} ms "
          f"wall, {imports['python -c pass']['cpu_ms']:.1f} ms CPU")
    if top:
        print(f"largest self times under python -X importtime -c 'import {IMPORTED[0]}' (ms, self / cumulative, "
              f"least of {args.repeat} runs):")
        for own, cumulative, module in top:
            print(f"  {own:6.1f} {cumulative:7.1f}  {module}")
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}; two CPU-bound processes "
          f"together did {capacity['before']:.2f}x the work of one before the cases, {capacity['after']:.2f}x after")
    if args.json:
        figures = {**table, "import": imports, "parallel_capacity": capacity}
        args.json.write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
