"""Benchmark: how fast is the IDL front end, in MB/s?

Run ``python benchmarks/bench_parse.py [--cases NAME,...] [--repeat N] [--aws-dir DIR] [--no-cli]``
or ``python benchmarks/bench_parse.py --curve [--cases NAME,...]``.

For each input it prints the size and, as MB/s (megabytes of IDL text per CPU second of this
process, best of ``--repeat`` runs, after a warm-up that loads the prelude; CPU time rather
than wall-clock time because a machine busy with other work disturbs it less):

* ``parse``: :func:`smithy2cfn.parse.idl.parse_idl` (tokenize, LALR parse, walk to ``IdlFile``);
* ``+lower``: parse plus :func:`smithy2cfn.parse.lower.lower_idl` (to the JSON-AST-shaped
  ``SourceDocument``);
* ``load``: :func:`smithy2cfn.api.load` of the file (read, parse, lower, assemble the model
  with the prelude);
* ``cli``: a whole ``python -m smithy2cfn validate FILE`` process: CPU seconds (user +
  system) and wall-clock seconds (``--no-cli`` leaves it out);

and the number of diagnostics. Inputs:

* ``example``: ``examples/vault/model`` (5 KB, a normal file);
* ``prelude``: our prelude and trait packages (18 files, 150 KB, parsed and lowered as one
  batch; ``load`` is not measured);
* ``s3``: the S3 model (``s3-2006-03-01.json``) printed as IDL by ``benchmarks/ast_to_idl.py``
  (1.5 MB; documentation as ``///`` comments). Read from ``--aws-dir`` (default
  ``/work/scratch/aws-all``) or else from ``../shared/conformance/aws-all/models.tar.xz``;
* ``huge-line``: ``tools/fuzz.py``'s stress recipe of that name, 2 MB (``string A string A ...``
  on one line: 230,000 statements; the second is a syntax error, the parser skips the rest
  of the line: this measures the tokenizer on a 2 MB line);
* ``dup-shapes``: 200,000 lines ``string A`` (each a duplicate shape, 1.8 MB; 1,000 are
  reported, then one with the count of the others);
* ``flat``: ``benchmarks/bench_scaling.py``'s flat model at 5.6 MB (documented structures);
* ``aws:NAME``: the AWS model ``NAME`` (e.g. ``aws:sagemaker-2017-07-24``) printed as IDL, read
  from ``--aws-dir``.

``--curve`` measures ``load`` (CPU seconds of :func:`smithy2cfn.api.load`) of ``huge-line``,
``dup-shapes``, ``flat`` and ``syntax-errors`` (one bad statement a line: the parser stops
after 50 syntax errors, the rest of the file is skipped) at 0.5, 1, 2 and 4 MB and prints
the slope of log(time) over log(size) between the smallest and the largest (1.0 is linear).

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
S3 = "s3-2006-03-01.json"


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def s3_json(aws_dir: Path) -> dict:
    """The S3 model's JSON AST, from ``aws_dir`` or the conformance tarball."""
    if (aws_dir / S3).is_file():
        return json.loads((aws_dir / S3).read_text(encoding="utf-8"))
    with tarfile.open(SHARED / "conformance" / "aws-all" / "models.tar.xz") as tar:
        for member in tar:
            if member.name.endswith("/" + S3) or member.name == S3:
                return json.load(tar.extractfile(member))
    raise FileNotFoundError(S3)


def inputs(names: list[str], aws_dir: Path) -> dict[str, list[tuple[str, str]]]:
    """name → the ``(path, text)`` files of each benchmark input."""
    out: dict[str, list[tuple[str, str]]] = {}
    for name in names:
        if name == "example":
            out[name] = [(str(p), p.read_text(encoding="utf-8"))
                         for p in sorted((REPO / "examples" / "vault" / "model").glob("*.smithy"))]
        elif name == "prelude":
            from smithy2cfn.load.prelude_data import prelude_sources

            out[name] = prelude_sources()
        elif name == "s3":
            to_idl = _module(REPO / "benchmarks" / "ast_to_idl.py").to_idl
            out[name] = [("s3.smithy", to_idl(s3_json(aws_dir)))]
        elif name == "huge-line":
            fuzz = _module(REPO / "tools" / "fuzz.py")
            (text,) = fuzz.recipe_files({"name": "huge-line", "n": 2_000_000}).values()
            out[name] = [("huge-line.smithy", text)]
        elif name == "dup-shapes":
            out[name] = [("dup.smithy", '$version: "2"\nnamespace a\n' + "string A\n" * 200_000)]
        elif name == "flat":
            gen_flat = _module(REPO / "benchmarks" / "bench_scaling.py").gen_flat
            out[name] = [("flat.smithy", gen_flat(5_600_000))]
        elif name.startswith("aws:"):
            to_idl = _module(REPO / "benchmarks" / "ast_to_idl.py").to_idl
            model = json.loads((aws_dir / f"{name[4:]}.json").read_text(encoding="utf-8"))
            out[name] = [(f"{name[4:]}.smithy", to_idl(model))]
        else:
            raise SystemExit(f"unknown case {name!r}")
    return out


def best(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    """The shortest of ``repeat`` runs (CPU seconds) and the last result."""
    times, result = [], None
    for _ in range(repeat):
        t = time.process_time()
        result = fn()
        times.append(time.process_time() - t)
    return min(times), result


def run_case(name: str, files: list[tuple[str, str]], repeat: int, cli: bool) -> None:
    from smithy2cfn import api
    from smithy2cfn.load import loader
    from smithy2cfn.parse.idl import parse_idl
    from smithy2cfn.parse.lower import lower_idl

    size = sum(len(text.encode("utf-8")) for _, text in files) / 1e6
    prelude_ids: set[str] = set()
    for d in loader._prelude_documents():
        prelude_ids |= set(d.ast["shapes"])
    if name == "prelude":
        prelude_ids = set()

    def parse():
        return [parse_idl(text, path) for path, text in files]

    def parse_lower():
        parsed = parse()
        known = set(prelude_ids)
        for f in parsed:
            known |= f.defined_shape_ids()
        return parsed, [lower_idl(f, known) for f in parsed]

    t_parse, parsed = best(parse, repeat)
    t_lower, (_, docs) = best(parse_lower, repeat)
    n_diags = sum(len(f.diagnostics) for f in parsed) + sum(len(d.diagnostics) for d in docs)
    row = f"{name:11s} {size:7.2f} MB  parse {size / t_parse:6.2f} MB/s ({t_parse:6.3f} s)  " \
          f"+lower {size / t_lower:6.2f} MB/s ({t_lower:6.3f} s)"
    if name != "prelude":
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for i, (_, text) in enumerate(files):
                p = Path(tmp) / f"f{i}.smithy"
                p.write_text(text, encoding="utf-8")
                paths.append(str(p))
            t_load, loaded = best(lambda: api.load(paths), repeat)
            n_diags = len(loaded.diagnostics)
            row += f"  load {size / t_load:6.2f} MB/s ({t_load:6.3f} s)"
            if cli:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t = time.perf_counter()
                proc = subprocess.run([sys.executable, "-m", "smithy2cfn", "validate", *paths],
                                      capture_output=True, text=True)
                wall = time.perf_counter() - t
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                row += f"  cli {cpu:6.2f} s CPU, {wall:6.2f} s wall (exit {proc.returncode})"
    print(row + f"  {n_diags} diagnostics", flush=True)


def curve_text(name: str, nbytes: int) -> str:
    """The input of curve case ``name`` at about ``nbytes`` bytes."""
    header = '$version: "2"\nnamespace a\n'
    if name == "huge-line":
        fuzz = _module(REPO / "tools" / "fuzz.py")
        (text,) = fuzz.recipe_files({"name": "huge-line", "n": nbytes}).values()
        return text
    if name == "dup-shapes":
        return header + "string A\n" * (nbytes // 9)
    if name == "flat":
        return _module(REPO / "benchmarks" / "bench_scaling.py").gen_flat(nbytes)
    if name == "syntax-errors":
        return header + "".join(f"structure S{i} {{ a: }}\n" for i in range(nbytes // 24))
    raise SystemExit(f"unknown curve case {name!r}")


def curve(names: list[str]) -> None:
    """Print the load time of each case at 0.5, 1, 2 and 4 MB and the log-log slope."""
    import math

    from smithy2cfn import api

    sizes = [500_000, 1_000_000, 2_000_000, 4_000_000]
    for name in names:
        times = []
        with tempfile.TemporaryDirectory() as tmp:
            for nbytes in sizes:
                path = Path(tmp) / f"{name}.smithy"
                path.write_text(curve_text(name, nbytes), encoding="utf-8")
                t, _ = best(lambda p=str(path): api.load([p]), 1)
                times.append(t)
        slope = math.log(times[-1] / times[0]) / math.log(sizes[-1] / sizes[0])
        print(f"{name:14s} " + "  ".join(f"{n / 1e6:.1f} MB {t:6.3f} s" for n, t in zip(sizes, times, strict=True))
              + f"  slope {slope:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="example,prelude,s3,huge-line,dup-shapes,flat")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--aws-dir", type=Path, default=Path("/work/scratch/aws-all"))
    parser.add_argument("--no-cli", action="store_true")
    parser.add_argument("--curve", action="store_true", help="the growth of load time from 0.5 to 4 MB")
    args = parser.parse_args()
    from smithy2cfn import api

    with tempfile.TemporaryDirectory() as tmp:  # warm-up: imports and the prelude
        (Path(tmp) / "m.smithy").write_text('$version: "2"\nnamespace a\nstring S\n', encoding="utf-8")
        api.load([str(Path(tmp) / "m.smithy")])
    if args.curve:
        given = args.cases != parser.get_default("cases")
        curve(args.cases.split(",") if given else ["huge-line", "dup-shapes", "flat", "syntax-errors"])
        return
    for name, files in inputs(args.cases.split(","), args.aws_dir).items():
        big = sum(len(t) for _, t in files) > 1_000_000
        run_case(name, files, 1 if big and args.repeat > 1 else args.repeat, not args.no_cli)


if __name__ == "__main__":  # pragma: no cover
    main()
