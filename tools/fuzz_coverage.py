#!/usr/bin/env python3
"""Coverage-guided fuzzing of smithy2cfn's three readers with atheris (issue 15).

``tools/fuzz.py`` runs the inputs its generators imagine; this tool lets libFuzzer (through
atheris, Google's coverage-guided fuzzer for Python) mutate real inputs and keep each
mutant that reaches new code. One target per reader, each mutating its own bytes:

* ``idl``      the bytes of an IDL file, read as the loader reads a file (UTF-8 decoding,
               lexing, parsing, lowering: ``smithy2cfn.load.loader.read_sources``); when
               it reads without errors (and for one other input in 8), loaded with the
               prelude by ``smithy2cfn.api.load`` and checked by ``smithy2cfn.api.validate``,
               as ``smithy2cfn validate`` does (loading assembles the prelude's shapes each
               time: the fast read keeps mutants that break the syntax cheap);
* ``json``     the bytes of a JSON AST file, the same way (the JSON AST reader, then
               ``load`` + ``validate``), and through ``smithy2cfn.plugin.without_prelude``
               (the reader of ``smithy2cfn plugin``'s standard input);
* ``settings`` the bytes of a ``--config`` file (flat settings or a smithy-build.json):
               ``smithy2cfn.api.read_settings`` (``smithy2cfn.smithy_build`` and
               ``smithy2cfn.settings``, as ``smithy2cfn build`` reads it), then, when it is
               usable, ``smithy2cfn.api.convert`` of a model loaded once (a model holding
               the service the settings name: the vault example, a cfn conversion case, the
               AWS scheduler model), so that every setting reaches derive, emit and lint.

An input fails (libFuzzer stops and writes it to ``build/fuzz-findings/<target>/crash-*``)
when an exception escapes (a traceback); when a diagnostic has no known code, no location
(a span without a path, or without a line in the fuzzed file itself, except the codes
about a whole file, :data:`WHOLE_FILE_CODES`), or is an internal error (``S3099``); or, for
one input in ``--recheck`` (32), when running it again gives other diagnostics
(non-deterministic output). A hang is a libFuzzer ``timeout-*`` (``--timeout``, 20 s), a memory blow-up an
``oom-*`` (``--rss-limit-mb``, 2048). Fix a finding at its class, and make it a test in ``tests/hostile/``
(``test_hostile_inputs.py``, or a reproducer folder under ``tests/hostile/fixtures``).

Usage (run with the venv's Python, after ``pip install -e '.[fuzz]'``)::

    python tools/fuzz_coverage.py seed                    # (re)seed build/fuzz-corpus/<target>
    python tools/fuzz_coverage.py idl --seconds 1200      # 20 minutes on the IDL reader
    python tools/fuzz_coverage.py json --seconds 1200
    python tools/fuzz_coverage.py settings --seconds 1200
    python tools/fuzz_coverage.py idl --replay build/fuzz-findings/idl/crash-...   # no atheris needed
    python tools/fuzz_coverage.py idl --seconds 60 -- -only_ascii=1                 # more libFuzzer flags

Budget: 20 minutes per target (``--seconds 1200``, the default) finds the shallow classes
(the exponent of 19 digits that crashed every reader took under an hour); give a night
(``--seconds 28800``) before a release. One target at a time per core: the readers are
single-threaded. ``--allow-unlocated S3581,...`` lets a run look past a known class of
unlocated diagnostics while it is being fixed.

Corpora (outside git, under ``build/``): ``seed`` fills ``build/fuzz-corpus/<target>``
(a target's run seeds it when it is empty) from the conformance models of ``../shared``
(``--shared``; ``conformance/idl``, ``validation``, ``cfn``, ``cfn-traits``, the AWS JSON
ASTs cut into documents of at most 25 shapes, the reference prelude), from ``examples/`` and
the bundled prelude, plus the JSON AST of every cfn IDL model and, for ``settings``, the
``config`` of every cfn and AWS conversion case as flat settings and as smithy-build.json
(top-level plugin and projection). libFuzzer adds each new-coverage input there, so later
runs start where earlier ones stopped. ``build/fuzz-corpus/<target>.dict`` holds the
tokens mutations splice in (IDL keywords and traits, JSON AST keys, setting names).

Each run logs libFuzzer's output to ``build/fuzz-findings/<target>/run-<time>.log`` and
ends with a summary: inputs run (execs), coverage (``cov``: code edges reached; ``ft``:
features, edges with hit counts), corpus size, and the findings written.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pkgutil
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
BUILD = REPO / "build"
CORPUS = BUILD / "fuzz-corpus"
FINDINGS = BUILD / "fuzz-findings"
TARGETS = ("idl", "json", "settings")
#: the largest input libFuzzer makes, per target (the seeds above it are left out)
MAX_LEN = {"idl": 64 * 1024, "json": 64 * 1024, "settings": 16 * 1024}
#: codes about a whole file: a diagnostic with them may be located at the file without a line
WHOLE_FILE_CODES = frozenset({"S1002", "S1004"})
_CODE = re.compile(r"S\d{4}")
#: one input in DEEP that does not read cleanly is loaded and validated all the same
DEEP = 8


class Finding(AssertionError):
    """An input broke an oracle other than "no exception" (libFuzzer reports it as a crash)."""


# ---------------------------------------------------------------------------- seeding

def _files(root: Path, pattern: str) -> Iterator[Path]:
    if root.is_dir():
        yield from sorted(p for p in root.rglob(pattern) if p.is_file())


def _json_of(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _aws_slices(model: dict, per_doc: int = 25, most: int = 20) -> Iterator[dict]:
    """Documents of at most ``per_doc`` shapes of an AWS JSON AST (a 500 KB model would
    be cut at ``MAX_LEN`` into invalid JSON)."""
    shapes = sorted(model.get("shapes", {}).items())
    for start in range(0, min(len(shapes), per_doc * most), per_doc):
        yield {"smithy": model.get("smithy", "2.0"), "shapes": dict(shapes[start:start + per_doc])}


def _settings_cases(shared: Path) -> Iterator[dict]:
    for suite in ("cfn", "aws"):
        cases = _json_of(shared / "conformance" / suite / "cases.json")
        for case in (cases or {}).get("cases", []):
            if isinstance(case.get("config"), dict):
                yield case["config"]


def _all_settings() -> dict:
    return {"service": "acme.vault#VaultService", "organizationName": "Acme", "serviceName": "Vault",
            "externalDocs": ["Documentation"], "sourceDocs": ["Source Code"],
            "jsonAdd": {"acme.vault#Vault": {"/properties/Name/maxLength": 64, "/sourceUrl": "https://x.test"}},
            "disableHandlerPermissionGeneration": False, "disableDeprecatedPropertyGeneration": False,
            "disableRequiredPropertyGeneration": False, "disableCapitalizedProperties": False,
            "defaultTimestampFormat": "epoch-seconds", "schemaDocumentExtensions": {"x-note": [1, 2.5, None]},
            "disableFeatures": ["pattern"], "useIntegerType": True, "compatibility": "reference",
            "strict": False}


def _json_asts(paths: list[Path]) -> Iterator[str]:
    """The JSON AST of each IDL model that loads without errors."""
    from smithy2cfn import api
    from smithy2cfn.diagnostics import Diagnostics

    for path in paths:
        checked = api.validate(api.load([path]))
        if checked.ok:
            text = api.json_ast(checked.model, Diagnostics(list(checked.diagnostics)))
            if text:
                yield text


def seed_inputs(target: str, shared: Path) -> Iterator[bytes]:
    """The seed inputs of ``target`` (see the module docstring)."""
    conformance = shared / "conformance"
    suites = [conformance / name for name in ("idl", "validation", "cfn", "cfn-traits")]
    if target == "idl":
        for root in [*suites, shared / "reference" / "prelude", REPO / "examples",
                     REPO / "src" / "smithy2cfn" / "prelude"]:
            for path in _files(root, "*.smithy"):
                yield path.read_bytes()
    elif target == "json":
        for root in suites:
            for path in _files(root, "*.json"):
                doc = _json_of(path)
                if isinstance(doc, dict) and "smithy" in doc:
                    yield path.read_bytes()
        for path in _files(conformance / "aws" / "models", "*.json"):
            for doc in _aws_slices(_json_of(path) or {}):
                yield json.dumps(doc, indent=2).encode()
        idl = [*_files(conformance / "cfn", "*.smithy"), *_files(conformance / "cfn-traits", "*.smithy"),
               *_files(REPO / "examples", "*.smithy")]
        for text in _json_asts(idl):
            yield text.encode()
    else:
        configs = [*_settings_cases(shared), _all_settings()]
        for path in _files(REPO / "examples", "smithy-build.json"):
            yield path.read_bytes()
        for cfg in configs:
            yield json.dumps(cfg, indent=2).encode()
            yield json.dumps({"version": "1.0", "sources": ["model"], "plugins": {"cloudformation": cfg}}).encode()
            yield json.dumps({"version": "1.0", "imports": ["m.smithy"], "projections": {"p": {
                "transforms": [{"name": "includeTags", "args": {"tags": ["a"]}}],
                "plugins": {"cloudformation": cfg}}}}, indent=4).encode()


def _dict_tokens(target: str) -> list[str]:
    """Tokens libFuzzer splices into mutations (a ``-dict`` file)."""
    numbers = ["1e400", "-0", "1e-999999999", "18446744073709551616", "1.5", "0e0"]
    if target == "idl":
        grammar = (REPO / "grammar" / "smithy.lark").read_text(encoding="utf-8")
        words = sorted(set(re.findall(r'"([a-zA-Z$][A-Za-z]*)"', grammar)))
        traits = ["@required", "@default(", "@length(min: 1)", "@range(max: 5)", "@pattern(\"^a$\")", "@mixin",
                  "@trait", "@idRef", "@cfnResource", "@http(method: \"GET\", uri: \"/\")", "@readonly",
                  "@documentation(\"d\")", "@enumValue(", "@suppress([\"", "@internal", "@sensitive"]
        punctuation = ["$version: \"2\"", "$version: \"1.0\"", "namespace ", ":=", "->", "\"\"\"\n", "///",
                       "{", "}", "[", "]", "(", ")", "#", "$", ": ", ", ", "\n", "smithy.api#", "aws.cloudformation#"]
        return words + traits + punctuation + numbers
    if target == "json":
        keys = ["smithy", "shapes", "metadata", "type", "members", "member", "key", "value", "target",
                "traits", "mixins", "version", "operations", "resources", "errors", "input", "output",
                "identifiers", "properties", "create", "put", "read", "update", "delete", "list", "rename"]
        types = ["structure", "string", "integer", "list", "map", "union", "enum", "intEnum", "service",
                 "resource", "operation", "apply", "document", "bigDecimal", "timestamp"]
        return [f'"{k}":' for k in keys] + [f'"{t}"' for t in types] + [
            '"smithy.api#required"', '"smithy.api#default"', '"smithy.api#length"', '"smithy.api#Unit"',
            '"aws.cloudformation#cfnResource"', '"2.0"', '{"target": "smithy.api#String"}', "[]", "{}", "null",
            "true"] + numbers
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Settings", 1)[-1].split("###", 1)[0]
    keys = re.findall(r"^\| `([A-Za-z]+)` \|", section, re.M)
    build_keys = ["version", "sources", "imports", "plugins", "projections", "cloudformation", "transforms",
                  "abstract", "outputDirectory", "maven", "ignoreMissingPlugins", "args", "name"]
    return [f'"{k}":' for k in keys + build_keys] + [
        '"1.0"', '"acme.vault#VaultService"', '"acme.vault#Vault"', '"/properties/Name"', '"date-time"',
        '"reference"', "true", "false", "null", "[]", "{}"] + numbers


def _dict_line(token: str) -> str:
    out = []
    for byte in token.encode("utf-8"):
        ch = chr(byte)
        out.append(f"\\x{byte:02x}" if byte < 0x20 or byte > 0x7E or ch in '"\\' else ch)
    return '"' + "".join(out) + '"'


def seed(targets: tuple[str, ...], shared: Path, fresh: bool = False) -> dict[str, int]:
    """Write the seeds of each target to ``build/fuzz-corpus/<target>`` (named by their
    SHA-1: seeding twice adds nothing) and its dictionary; the number of seed files."""
    counts = {}
    for target in targets:
        folder = CORPUS / target
        if fresh and folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True, exist_ok=True)
        n = 0
        for data in seed_inputs(target, shared):
            if 0 < len(data) <= MAX_LEN[target]:
                (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
                n += 1
        tokens = sorted(set(_dict_tokens(target)))
        (CORPUS / f"{target}.dict").write_text("".join(_dict_line(t) + "\n" for t in tokens), encoding="ascii")
        counts[target] = n
    return counts


# ---------------------------------------------------------------------------- harnesses

def check_diagnostics(diagnostics: Any, fuzzed: str, unlocated: frozenset[str] = frozenset()) -> None:
    """Raise :class:`Finding` for a diagnostic without a known code or a location (codes in
    ``unlocated`` aside), or an internal error."""
    try:
        from smithy2cfn.diagnostics import CODES as codes
    except ImportError:  # the table moved: the code's form is still checked
        codes = None
    for d in diagnostics:
        text = f"{d.code} {d.span}: {d.message[:300]}"
        if not isinstance(d.code, str) or not _CODE.fullmatch(d.code) or (codes is not None and d.code not in codes):
            raise Finding(f"a diagnostic without a known code: {text}")
        if d.code == "S3099" or "internal error" in d.message.lower():
            raise Finding(f"an internal error: {text}")
        if d.code in unlocated:
            continue
        if d.span is None or not d.span.path:
            raise Finding(f"a diagnostic without a location: {text}")
        if d.span.path == fuzzed and d.span.line < 1 and d.code not in WHOLE_FILE_CODES:
            raise Finding(f"a diagnostic in the fuzzed file without a line: {text}")


def _rendered(diagnostics: Any) -> list[str]:
    return sorted(d.format_text() for d in diagnostics)


class Harness:
    """The fuzz target of one reader: :meth:`__call__` runs one input (bytes) and raises on a
    finding. Imports smithy2cfn when made (after atheris instruments imports)."""

    def __init__(self, target: str, recheck: int = 32, unlocated: frozenset[str] = frozenset()) -> None:
        from smithy2cfn import api

        self.api = api
        self.target = target
        self.recheck = recheck
        self.unlocated = unlocated
        self.folder = Path(tempfile.mkdtemp(prefix=f"smithy2cfn-fuzz-{target}-",
                                            dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None))
        name = {"idl": "model.smithy", "json": "model.json", "settings": "smithy-build.json"}[target]
        self.path = self.folder / name
        self.run_one: Callable[[bytes], list[str]] = getattr(self, "_" + target)
        self.models: dict[str, Any] = {}
        if target == "settings":
            self._load_models()

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def __call__(self, data: bytes) -> None:
        first = self.run_one(data)
        if self.recheck and zlib.crc32(data) % self.recheck == 0:
            again = self.run_one(data)
            if again != first:
                raise Finding("non-deterministic output: " + json.dumps([first, again])[:2000])

    # -- targets (each returns its output, rendered, for the determinism check)

    def _model(self, data: bytes) -> list[str]:
        """Read the file as the loader reads it (UTF-8, then parse and lower, or the JSON AST
        reader); then, when it reads without errors (or for one input in ``DEEP``), load
        it with the prelude and validate it: loading assembles the prelude's shapes every
        time, so the fast read keeps the run at hundreds of inputs a second."""
        from smithy2cfn.diagnostics import Diagnostics
        from smithy2cfn.load.files import decode_utf8
        from smithy2cfn.load.loader import read_sources

        self.path.write_bytes(data)
        text, _ = decode_utf8(data)
        read = Diagnostics()
        if text is not None:
            read_sources([(str(self.path), text)], read)
            check_diagnostics(read, str(self.path), self.unlocated)
        out = _rendered(read)
        if (text is None or read.has_errors) and zlib.crc32(data) % DEEP:
            return out
        checked = self.api.validate(self.api.load([self.path]))
        check_diagnostics(checked.diagnostics, str(self.path), self.unlocated)
        return out + _rendered(checked.diagnostics)

    def _idl(self, data: bytes) -> list[str]:
        return self._model(data)

    def _json(self, data: bytes) -> list[str]:
        out = self._model(data)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return out
        from smithy2cfn.plugin import without_prelude

        return [*out, without_prelude(text)]

    def _load_models(self) -> None:
        """The models the settings convert, by the service they hold (loaded and validated
        once): the vault example, every cfn conversion case (14 of them hold
        ``smithy.example#TestService``) and the smallest AWS model."""
        shared = Path(os.environ.get("SMITHY2CFN_FUZZ_SHARED", REPO.parent / "shared"))
        groups = [[REPO / "examples" / "vault" / "model"],
                  [shared / "conformance" / "aws" / "models" / "scheduler-2021-06-30.json"]]
        cases = _json_of(shared / "conformance" / "cfn" / "cases.json") or {}
        for case in cases.get("cases", []):
            groups.append([shared / "conformance" / "cfn" / m for m in case.get("models", [])])
        for paths in groups:
            checked = self.api.validate(self.api.load([p for p in paths if p.exists()]))
            if not checked.ok:
                continue
            model = checked.model
            for shape_id, shape in model.shapes.items():
                if shape.type == "service" and not model.is_prelude(shape_id):
                    self.models.setdefault(shape_id, []).append(model)
        self.default = self.models["acme.vault#VaultService"][0]

    def _model_for(self, settings: Any, data: bytes) -> Any:
        """The model whose service the settings name (one of those holding it, chosen by
        the input's CRC: the same input always gets the same model), else the vault's."""
        service = settings.service
        models = self.models.get(service) if isinstance(service, str) else None
        return models[zlib.crc32(data) % len(models)] if models else self.default

    def _settings(self, data: bytes) -> list[str]:
        from smithy2cfn.diagnostics import Diagnostics
        from smithy2cfn.writer import render_schema

        self.path.write_bytes(data)
        diags = Diagnostics()
        settings, _ = self.api.read_settings(self.path, None, None, diags)
        check_diagnostics(diags, str(self.path), self.unlocated)
        out = _rendered(diags)
        if diags.has_errors:
            return out
        converted = self.api.convert(self._model_for(settings, data), settings, extensions=[])
        check_diagnostics(converted.diagnostics, str(self.path), self.unlocated)
        for name, schema in converted.schemas.items():
            render_schema(schema)  # strict JSON, or it raises
            out.append(name)
        return out + _rendered(converted.diagnostics)


# ---------------------------------------------------------------------------- running

def _child(target: str, libfuzzer_args: list[str], recheck: int, unlocated: frozenset[str]) -> None:
    """The fuzzing process: instrument smithy2cfn, then hand over to libFuzzer."""
    import atheris

    with atheris.instrument_imports(include=["smithy2cfn"]):
        import smithy2cfn

        for info in pkgutil.walk_packages(smithy2cfn.__path__, "smithy2cfn."):
            if not info.name.endswith("__main__"):
                __import__(info.name)
        harness = Harness(target, recheck, unlocated)
    atheris.Setup([sys.argv[0], *libfuzzer_args], harness)
    atheris.Fuzz()


_STATUS = re.compile(r"^#(\d+)\s+(\w+)\s+cov: (\d+) ft: (\d+) corp: (\d+)/(\S+).*?exec/s: (\d+)(?: rss: (\d+)Mb)?")


def run(target: str, seconds: int, timeout: int, rss_limit_mb: int, recheck: int, extra: list[str],
        shared: Path, unlocated: frozenset[str] = frozenset()) -> int:
    """Fuzz ``target`` for ``seconds`` in a child process; print and return its summary's exit code."""
    corpus = CORPUS / target
    if not corpus.is_dir() or not any(corpus.iterdir()):
        print(f"seeding {corpus}: {seed((target,), shared)[target]} inputs", flush=True)
    findings = FINDINGS / target
    findings.mkdir(parents=True, exist_ok=True)
    log_path = findings / time.strftime("run-%Y%m%d-%H%M%S.log")
    args = [str(corpus), f"-max_total_time={seconds}", f"-timeout={timeout}", f"-rss_limit_mb={rss_limit_mb}",
            f"-max_len={MAX_LEN[target]}", f"-dict={CORPUS / f'{target}.dict'}", f"-artifact_prefix={findings}/",
            "-print_final_stats=1", *extra]
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", target, "--recheck", str(recheck),
           "--allow-unlocated", ",".join(sorted(unlocated)), "--", *args]
    env = {**os.environ, "SMITHY2CFN_FUZZ_SHARED": str(shared)}
    start = time.monotonic()
    first = last = None
    artifacts: list[str] = []
    execs = None
    with open(log_path, "w", encoding="utf-8") as log:
        proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, env=env,
                                text=True, errors="replace")
        assert proc.stderr is not None
        for line in proc.stderr:
            sys.stderr.write(line)
            log.write(line)
            m = _STATUS.match(line)
            if m:
                last = m
                if first is None and m.group(2) == "INITED":
                    first = m
            written = re.search(r"Test unit written to (\S+)", line)
            if written:
                artifacts.append(written.group(1))
            done = re.match(r"stat::number_of_executed_units: (\d+)", line)
            if done:
                execs = int(done.group(1))
        rc = proc.wait()
    elapsed = time.monotonic() - start
    if execs is None and last is not None:
        execs = int(last.group(1))
    summary = {"target": target, "seconds": round(elapsed), "execs": execs, "exit": rc,
               "seed_cov": first and int(first.group(3)), "seed_ft": first and int(first.group(4)),
               "cov": last and int(last.group(3)), "ft": last and int(last.group(4)),
               "corpus": last and int(last.group(5)), "findings": artifacts, "log": str(log_path)}
    print(json.dumps(summary, indent=2))
    return 0 if rc == 0 and not artifacts else 1


def replay(target: str, files: list[Path], recheck: int, unlocated: frozenset[str] = frozenset()) -> int:
    """Run inputs through the harness without atheris; print each verdict."""
    harness = Harness(target, 1 if recheck else 0, unlocated)
    failed = 0
    try:
        for path in files:
            try:
                harness(path.read_bytes())
                print(f"ok      {path}")
            except Exception as e:  # a finding: report it and go on
                failed += 1
                print(f"FAIL    {path}: {type(e).__name__}: {str(e)[:500]}")
    finally:
        harness.close()
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("target", nargs="?", choices=[*TARGETS, "seed"], help="a target, or 'seed'")
    parser.add_argument("--seconds", type=int, default=1200, help="time budget of a run (default 1200)")
    parser.add_argument("--timeout", type=int, default=20, help="seconds one input may take (default 20)")
    parser.add_argument("--rss-limit-mb", type=int, default=2048, help="memory limit (default 2048)")
    parser.add_argument("--recheck", type=int, default=32,
                        help="run one input in N twice and compare (0: never; default 32)")
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared",
                        help="the shared conformance folder (default ../shared)")
    parser.add_argument("--fresh", action="store_true", help="seed: delete the corpus first")
    parser.add_argument("--replay", type=Path, nargs="+", help="run these inputs through the harness and stop")
    parser.add_argument("--allow-unlocated", default="", metavar="CODES",
                        help="codes whose diagnostics may lack a location (comma-separated; a known gap "
                             "being fixed, so that the fuzzer can look past it)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    argv = sys.argv[1:] if argv is None else argv
    libfuzzer = argv[argv.index("--") + 1:] if "--" in argv else []  # more libFuzzer flags
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    unlocated = frozenset(c for c in args.allow_unlocated.split(",") if c)
    if args.child:
        _child(args.child, libfuzzer, args.recheck, unlocated)
        return 0
    if args.target is None:
        parser.error("give a target or 'seed'")
    if args.target == "seed":
        print(json.dumps(seed(TARGETS, args.shared, fresh=args.fresh)))
        return 0
    if args.replay:
        return replay(args.target, args.replay, args.recheck, unlocated)
    return run(args.target, args.seconds, args.timeout, args.rss_limit_mb, args.recheck, libfuzzer, args.shared,
               unlocated)


if __name__ == "__main__":
    sys.exit(main())
