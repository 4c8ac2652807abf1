#!/usr/bin/env python3
"""Fuzzing campaign for smithy2cfn (issue 6: "Any input, however hostile: no traceback, no
write outside the output folder, no code run from a cache").

Usage::

    python tools/fuzz.py --inputs 10000 --jobs 2 --seed 1 --out /tmp/fuzz-report
    python tools/fuzz.py --replay tests/hostile/fixtures/some-case      # one reproducer, verdict
    python tools/fuzz.py --replay DIR --mode cli                         # ... forced through the CLI

Run it with the Python of the venv that has smithy2cfn installed (``.venv/bin/python``), or
give that interpreter with ``--python``. The campaign is deterministic for a seed: input
``i`` is generated from ``random.Random(f"{seed}:{i}")`` alone, whatever ``--jobs`` is.

Generators (the rows of the summary table; ``--weights name=w,...`` changes the mix):

* ``idl-bytes``      byte mutations of seed IDL files (cut, duplicate, bit flip, invalid
                     UTF-8, NUL, BOM, huge repeats);
* ``idl-tokens``     token mutations of seed IDL (drop / duplicate / swap / replace / insert
                     keywords, punctuation, numbers like ``1e400`` ``-0`` ``NaN``, strings
                     with escapes, text blocks, deep ``[[[[`` / ``{{{{``);
* ``json-ast``       wrong types in JSON AST documents (valid documents, the JSON AST of
                     the build seeds, shapes sampled from the AWS models), values replaced
                     by ints, strings, lists, null, objects, huge / NaN numbers, deep nests;
* ``stress``         structural stress recipes (deep chains, 5,000-deep values, long mixin
                     and child-resource chains, many siblings, hostile regexes, selectors
                     with hundreds of nested ``:not(``, 4 MB strings), each small enough
                     for a linear implementation to finish well under the timeout;
* ``names-settings`` hostile names and settings (``organizationName``, ``serviceName``,
                     ``cfnResource`` name, ``jsonAdd`` ``/typeName``,
                     ``schemaDocumentExtensions`` ``typeName`` with ``../``, ``/abs``, NUL...;
                     wrong types in every setting and every smithy-build.json key;
                     ``jsonAdd`` pointers with non-ASCII digits or 5,000-digit indexes;
                     the ``--org`` / ``--service-name`` flags; non-dict / NaN settings);
* ``odd-paths``      FIFOs, /dev/zero, names over NAME_MAX, dangling symlinks and loops,
                     unreadable entries, empty files, a folder as ``--config``, ``ast -o``
                     into a missing or read-only place, a sparse 4 GiB file (CLI only).

Modes: the bulk runs through the library API (``smithy2cfn.build/load/validate/convert``)
in long-lived worker processes (``--worker``), a share (``--cli-fraction``, at least 20%)
through real ``python -m smithy2cfn`` subprocesses. Each run gets a fresh sandbox
(``HOME``, ``TMPDIR``, ``XDG_CACHE_HOME``, the input folder, the output folder); when the
tool runs as root it also gives the child a private ``/tmp`` (a bind mount in a new mount
namespace) and drops ``CAP_DAC_OVERRIDE``/``CAP_DAC_READ_SEARCH`` so that unreadable files
really are unreadable. CLI runs start with the prelude cache cold (empty), warm (a valid
cache made by the product itself) or poisoned (each cache file replaced by a pickle that
would create a marker folder when unpickled).

Oracles (each a column of the table; a run can fail several):

* ``traceback``   "Traceback" on stderr, or an exception out of the API call;
* ``internal``    an internal-error diagnostic (``S3099``, or a message saying "internal error");
* ``timeout``     over ``--timeout`` seconds (10): the process group is killed; a timeout
                  is retried once at the end and counted only when it happens again;
* ``bad-exit``    an exit code other than 0, 1, 2 (a signal, a crashed worker);
* ``write-fail``  anything written when the exit code is not 0 (or in ``--check`` mode);
* ``outside``     any change in the sandbox outside ``-o`` (input folder, HOME, the cache,
                  TMPDIR, the private /tmp, anything above the work folder); cache writes
                  are their own class (``outside:cache``), exempt with ``--allow-cache``;
* ``non-strict``  an output (written file, ``ast`` stdout, API schema) that is not RFC 8259
                  JSON in UTF-8 (``json.loads(..., parse_constant=<raise>)``);
* ``misnamed``    on exit 0, a written file not named ``typeName.lower().replace('::','-')
                  + '.json'`` after its own ``typeName`` (or a stray file in ``-o``);
* ``cache-exec``  the poisoned cache ran code (its marker folder appeared).

Report folder (``--out``): ``summary.txt`` (the table and the failure classes),
``summary.json``, ``failures.jsonl`` (every failing input: index, generator, signature,
detail) and ``repro/<class>/`` — per failure class the first failing input, shrunk (lines,
tokens, JSON members, settings, flags, recipe sizes removed while the same class still
fails, bounded by ``--shrink-seconds`` per class) and written as ``case.json`` plus its
input files under ``files/`` (paths relative to the child's working folder: ``files/in/...`` are the
models, ``files/cfg.json`` a config, ...); ``--replay`` runs such a folder (the tests under
``tests/hostile/fixtures/`` use the same format).
"""

from __future__ import annotations

import argparse
import collections
import copy
import json
import math
import os
import pickle
import random
import re
import select
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
TIMEOUT = 10.0

# ============================================================================ special values
#
# Settings and JSON values are kept in an encoded, JSON-able form so that a case can be
# written to case.json and replayed: {"$fz": "nan"}, {"$fz": "inf"}, {"$fz": "-inf"},
# {"$fz": "lit", "text": "1e400"} (raw JSON text), {"$fz": "int", "digits": N} (an N-digit
# integer), {"$fz": "deep", "kind": "list"|"dict", "n": N, "leaf": v} (N-deep nest).


def fz(tag: str, **kw: Any) -> dict:
    return {"$fz": tag, **kw}


def _is_fz(v: Any) -> bool:
    return isinstance(v, dict) and isinstance(v.get("$fz"), str) and len(v) <= 4


def fz_text(v: dict) -> str:
    """JSON text of one special value."""
    kind = v["$fz"]
    if kind == "nan":
        return "NaN"
    if kind == "inf":
        return "Infinity"
    if kind == "-inf":
        return "-Infinity"
    if kind == "lit":
        return v["text"]
    if kind == "int":
        return "9" * int(v["digits"])
    if kind == "deep":
        leaf = render_json(v.get("leaf", 1))
        n = int(v["n"])
        if v.get("kind") == "dict":
            return '{"a": ' * n + leaf + "}" * n
        return "[" * n + leaf + "]" * n
    raise ValueError(kind)


def render_json(obj: Any, indent: int | None = None, ascii_only: bool = True) -> str:
    """JSON text of an encoded value: special values become their raw text (NaN, deep...)."""
    holes: list[str] = []

    def strip(v: Any) -> Any:
        if _is_fz(v):
            holes.append(fz_text(v))
            return f"@@FZ{len(holes) - 1}@@"
        if isinstance(v, dict):
            return {str(k): strip(x) for k, x in v.items()}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v

    text = json.dumps(strip(obj), indent=indent, ensure_ascii=ascii_only, allow_nan=True)
    if holes:
        text = re.sub(r'"@@FZ(\d+)@@"', lambda m: holes[int(m.group(1))], text)
    return text


def decode_value(v: Any) -> Any:
    """The Python value of an encoded value (deep nests built without recursion)."""
    if _is_fz(v):
        kind = v["$fz"]
        if kind == "nan":
            return float("nan")
        if kind == "inf":
            return float("inf")
        if kind == "-inf":
            return float("-inf")
        if kind == "lit":
            return json.loads(v["text"])
        if kind == "int":
            return 10 ** int(v["digits"]) - 1
        if kind == "deep":
            node: Any = decode_value(v.get("leaf", 1))
            for _ in range(int(v["n"])):
                node = {"a": node} if v.get("kind") == "dict" else [node]
            return node
        raise ValueError(kind)
    if isinstance(v, dict):
        return {k: decode_value(x) for k, x in v.items()}
    if isinstance(v, list):
        return [decode_value(x) for x in v]
    return v


def hostile_values() -> list[Any]:
    """Values of every JSON type, at the edges: wrong types for any slot."""
    return [
        0, -1, 1, 2**31, 2**63, 2**64, 10**30, -(10**30), fz("int", digits=400), fz("int", digits=5000),
        1e308, -0.0, 5e-324, 0.5, fz("nan"), fz("inf"), fz("-inf"), fz("lit", text="1e400"),
        fz("lit", text="-1e-400"),
        "", "x", "#", "$", "smithy.api#String", "smithy.api#Unit", "a#B$c$d", "\x00", "\ud800", "../../x",
        "a" * 5000, "structure", "resource", "apply", "smithy.api#", "#B", "ns#", "\u202e", "İ",
        [], [1], ["a"], [[]], [[[["x"]]]], [None], [{}], None, True, False,
        {}, {"type": "structure"}, {"target": "smithy.api#String"}, {"": 1}, {"a": {"b": {}}},
        {"min": fz("nan")}, {"name": 5},
        fz("deep", kind="list", n=1000), fz("deep", kind="dict", n=1000), fz("deep", kind="list", n=5000),
    ]


HOSTILE_NAMES = [
    "../", "../../evil", "..", ".", "", " ", "/abs", "{SB}/abs-escape", "a/b", "a\\b", "\x00", "a\x00b",
    "a" * 1000, "é", "Ω", "\U0001f4a5", "\u202e", "ＡＢ", "ǅ", "İ", "ß", "CON", "nul", "a:b", "a::b",
    "::", "Ab::Cd", "~", "$HOME", "%s", "\n", "\t", "a" * 64, "a" * 65, ".json", "x.json/..",
    "\ud800", "..\\..\\evil", "Ok", "Fuzz", "ab/../../../evil", "/", "\\", "-", "--", "a\nb",
]


# ============================================================================ cases

@dataclass(repr=False)
class Case:
    """One input: files, optional sandbox setup, and the command to run on them.

    ``cmd``: ``build`` / ``validate`` / ``ast``; ``models``: paths relative to the work
    folder (or absolute, ``{SB}`` = the sandbox); ``out``: ``-o`` target (relative path)
    or ``None``; ``config``: ``--config`` path or ``None``; ``settings``: encoded settings
    (API mode: the ``settings`` argument; CLI mode: written to ``config`` when that file is
    not among ``files``); ``flags``: extra CLI flags (API mode maps ``--org`` /
    ``--service-name`` / ``--service`` onto settings); ``api``: the library call for API
    mode (``build`` / ``validate`` / ``convert`` / ``ast``); ``setup``: sandbox operations
    (fifo, symlink, chmod, sparse, mkdir, cache state); ``recipe``: a stress recipe that
    makes the files (so reproducers stay small).
    """

    gen: str
    tag: str
    mode: str = "api"
    cmd: str = "build"
    api: str = "build"
    models: list[str] = field(default_factory=lambda: ["in"])
    out: str | None = "out"
    config: str | None = None
    settings: Any = None
    flags: list[str] = field(default_factory=list)
    check: bool = False
    files: dict[str, Any] = field(default_factory=dict)   # rel path -> str | bytes
    setup: list[dict] = field(default_factory=list)
    recipe: dict | None = None
    cli_only: bool = False
    api_only: bool = False
    index: int = -1

    def __repr__(self) -> str:
        files = {k: len(v) for k, v in self.files.items()}
        settings = render_json(self.settings)
        if len(settings) > 300:
            settings = settings[:300] + "..."
        return (f"Case({self.gen}/{self.tag}, {self.mode} {self.cmd} (api {self.api}), models={self.models}, "
                f"out={self.out}, config={self.config}, flags={self.flags}, check={self.check}, settings={settings}, "
                f"recipe={self.recipe}, setup={self.setup}, file sizes={files})")

    def size(self) -> int:
        return sum(len(v) for v in self.files.values()) + len(json.dumps(self.recipe or {}))

    def to_json(self) -> dict:
        d = asdict(self)
        d["files"] = {}
        return d


def save_case(case: Case, folder: Path) -> None:
    """Write ``case`` as ``folder/case.json`` plus its files under ``folder/files/`` (work-relative paths)."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    d = case.to_json()
    names = {}
    for rel, content in sorted(case.files.items()):
        target = folder / "files" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
        names[rel] = "bytes"
    d["file_list"] = sorted(names)
    (folder / "case.json").write_text(json.dumps(d, indent=2, ensure_ascii=True) + "\n", encoding="utf-8")


def load_case(folder: Path) -> Case:
    """Read a case written by :func:`save_case`."""
    d = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    files = {rel: (folder / "files" / rel).read_bytes() for rel in d.pop("file_list", [])}
    d.pop("files", None)
    case = Case(**d)
    case.files = files
    return case


# ============================================================================ seeds

@dataclass
class BuildSeed:
    name: str
    files: dict[str, str]
    settings: dict
    resources: list[str]
    json_ast: str | None = None


class Seeds:
    """Seed inputs: IDL texts, JSON AST documents, buildable models with their settings."""

    def __init__(self, repo: Path = REPO, shared: Path | None = SHARED, python: str = sys.executable,
                 cache_dir: Path | None = None, with_aws: bool = True) -> None:
        self.idl: list[tuple[str, str]] = []
        self.json_docs: list[tuple[str, dict]] = []
        self.aws: list[tuple[str, dict, dict]] = []   # name, doc, config
        self.builds: list[BuildSeed] = []
        self.traits: list[str] = _trait_ids(repo)
        shared = shared if shared is not None and shared.exists() else None
        # IDL seeds
        idl_files = sorted((repo / "examples").rglob("*.smithy"))
        # the tests' hand-written models (not the hostile reproducers, not the per-check
        # fixtures of tests/validation/fixtures), in the order they had under tests/fixtures/
        for folder in ("cli/fixtures", "emit/fixtures", "parse/fixtures", "validation/models"):
            idl_files += sorted((repo / "tests" / folder).rglob("*.smithy"))
        if shared:
            idl_files += sorted((shared / "conformance/idl/valid").rglob("*.smithy"))
            idl_files += sorted((shared / "conformance/cfn").rglob("*.smithy"))
        for f in idl_files:
            if "hostile" in f.parts:
                continue
            try:
                self.idl.append((f.name, f.read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError):
                pass
        # JSON AST seeds
        if shared:
            for f in sorted((shared / "conformance/idl/valid").rglob("*.json")):
                try:
                    doc = json.loads(f.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    continue
                if isinstance(doc, dict) and "smithy" in doc:
                    self.json_docs.append((f.name, doc))
            if with_aws:
                try:
                    cases = json.loads((shared / "conformance/aws/cases.json").read_text())["cases"]
                except (OSError, ValueError, KeyError):
                    cases = []
                for c in cases:
                    try:
                        doc = json.loads((shared / "conformance/aws" / c["models"][0]).read_text())
                    except (OSError, ValueError):
                        continue
                    self.aws.append((c["name"], doc, c.get("config", {})))
        # build seeds
        vault = repo / "examples/vault"
        if vault.exists():
            self.builds.append(BuildSeed(
                "vault", {f"{f.name}": f.read_text(encoding="utf-8") for f in sorted((vault / "model").glob("*.smithy"))},
                {"service": "acme.vault#VaultService", "organizationName": "Acme", "sourceDocs": ["Source Code"]},
                []))
        if shared:
            try:
                cases = json.loads((shared / "conformance/cfn/cases.json").read_text())["cases"]
            except (OSError, ValueError, KeyError):
                cases = []
            for c in cases:
                files = {}
                for m in c["models"]:
                    files[Path(m).name] = (shared / "conformance/cfn" / m).read_text(encoding="utf-8")
                self.builds.append(BuildSeed(c["name"], files, dict(c.get("config", {})), []))
        self.builds.append(BuildSeed("mini", {"mini.smithy": MINI.replace("{STRESS}", MINI_P0)},
                                     {"organizationName": "Fuzz"}, []))
        for b in self.builds:
            b.resources = _resource_ids(b.files)
        self._json_ast_for_builds(python, cache_dir)

    def _json_ast_for_builds(self, python: str, cache_dir: Path | None) -> None:
        """The JSON AST of each build seed, made once by the product (``ast``) in one process."""
        cache = cache_dir / "build-seeds-ast.json" if cache_dir else None
        data: dict = {}
        if cache and cache.exists():
            try:
                data = json.loads(cache.read_text())
            except ValueError:
                data = {}
        missing = [b for b in self.builds if b.name not in data]
        if missing:
            script = (
                "import json,sys\n"
                "from smithy2cfn.load import load_texts\nfrom smithy2cfn.diagnostics import Diagnostics\n"
                "from smithy2cfn.model.json_ast import model_to_json_ast, render_json_ast\n"
                "out={}\n"
                "for name, files in json.loads(sys.stdin.read()):\n"
                "    d=Diagnostics(); m=load_texts(list(files.items()), d)\n"
                "    if not d.has_errors: out[name]=render_json_ast(model_to_json_ast(m))\n"
                "print(json.dumps(out))\n")
            payload = json.dumps([(b.name, b.files) for b in missing])
            try:
                r = subprocess.run([python, "-c", script], input=payload, capture_output=True, text=True,
                                   timeout=120, env={**os.environ, "SMITHY2CFN_NO_CACHE": "1"})
                data.update(json.loads(r.stdout or "{}"))
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
            if cache:
                cache.parent.mkdir(parents=True, exist_ok=True)
                cache.write_text(json.dumps(data))
        for b in self.builds:
            b.json_ast = data.get(b.name)


def _trait_ids(repo: Path) -> list[str]:
    out = []
    for f in sorted((repo / "src/smithy2cfn/prelude").glob("*.smithy")):
        text = f.read_text(encoding="utf-8")
        ns = re.search(r"^namespace\s+([\w.]+)", text, re.M)
        if not ns:
            continue
        for m in re.finditer(r"^@trait\b[\s\S]*?^(?:structure|string|list|map|union|document|boolean|integer|long|"
                             r"enum|intEnum|timestamp|blob|double|float|short|byte|bigInteger|bigDecimal)\s+(\w+)",
                             text, re.M):
            out.append(f"{ns.group(1)}#{m.group(1)}")
    return sorted(set(out)) or ["smithy.api#documentation", "smithy.api#required"]


def _resource_ids(files: dict[str, str]) -> list[str]:
    out = []
    for text in files.values():
        ns = re.search(r"^namespace\s+([\w.]+)", text, re.M)
        if ns:
            out += [f"{ns.group(1)}#{m}" for m in re.findall(r"^resource\s+(\w+)", text, re.M)]
    return out


# A minimal convertible model; {STRESS} receives a recipe's shapes, which hang off P0.
MINI = """$version: "2"
namespace fuzz.stress

use aws.cloudformation#cfnResource

service FuzzSvc {
    version: "1"
    resources: [FuzzRes]
}

@cfnResource
resource FuzzRes {
    identifiers: { id: String }
    properties: { p: P0 }
    read: GetFuzzRes
}

@readonly
operation GetFuzzRes {
    input := {
        @required
        id: String
    }
    output := {
        @required
        id: String
        p: P0
    }
}
{STRESS}
"""
MINI_P0 = "structure P0 {\n    a: String\n}\n"


# ============================================================================ generators

IDL_KEYWORDS = [
    "$version", "namespace", "use", "metadata", "apply", "structure", "union", "list", "set", "map", "enum",
    "intEnum", "string", "integer", "blob", "boolean", "document", "timestamp", "bigDecimal", "bigInteger",
    "byte", "short", "long", "float", "double", "service", "resource", "operation", "with", "for", "member",
    "key", "value", "input", "output", "errors", "identifiers", "properties", "resources", "operations",
    "create", "put", "read", "update", "delete", "list", "collectionOperations", "true", "false", "null",
    "smithy.api#String", "Unit", "@required", "@trait", "@mixin", "@cfnResource", "@aws.cloudformation#cfnResource",
    "@pattern", "@range", "@length", "@default", "@documentation", "@idRef", "@suppress", "@jsonName",
    "@enumValue", "@http", "@cfnMutability", "@cfnName", "@cfnExcludeProperty", "@cfnAdditionalIdentifier",
    "@cfnDefaultValue", "@taggable", "@timestampFormat", "$member", "@input", "@output", "@readonly",
    "@idempotent", "@private", "@box", "@sparse", "@uniqueItems", "#", "smithy.api#", "a.b.c#D$e",
]
IDL_PUNCT = ["{", "}", "[", "]", "(", ")", ":", ":=", ",", "@", "$", "#", "=", ".", "\n", "//", "///", "\"", "\\",
             "\r", "\t", "\ufeff", "\x00", "\u2028"]
IDL_NUMBERS = ["1e400", "-1e400", "-0", "99999999999999999999999", "NaN", "Infinity", "-Infinity", "1e-400",
               "0.0000000000000000000001", "18446744073709551616", "-9223372036854775809", "2147483648",
               "1.7976931348623157e309", "0x10", "1_000", "01", "1.", ".5", "1e", "-", "9" * 5000, "1e99999999999"]
IDL_STRINGS = ['"\\u0000"', '"\\uD800"', '"\\uDFFF\\uD800"', '"\\"', '"\\x41"', '"\\u12"', '"\\\\"',
               '"\\n\\t\\r\\b\\f\\/"', '"\u202e"', '"\x00"', '""', '"a#B$c"', '"smithy.api#String"',
               '"' + "a" * 10000 + '"', '"""\n    a\n    """', '"""a"""', '"""\n\\\n"""', '"""\n"""""',
               '"""\n\\u{1F600}\n"""', '"\\U0001F600"', "'single'", '"' + "\\u0041" * 2000 + '"']
_TOKEN = re.compile(r'''(?P<tb>"""(?:[^"\\]|\\.|"(?!""))*""")|(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<comment>//[^\n]*)
|(?P<num>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(?P<ident>[A-Za-z_$][A-Za-z0-9_.#$]*)|(?P<nl>\n)|(?P<ws>[ \t\r,]+)
|(?P<punct>:=|.)''', re.S | re.X)


def tokenize(text: str) -> list[str]:
    """Split IDL text into tokens (whitespace kept as tokens, so joining gives the text back)."""
    return [m.group(0) for m in _TOKEN.finditer(text)]


def _is_ws(tok: str) -> bool:
    return tok.isspace() or tok.strip(" \t\r,") == ""


def _deep_token(rng: random.Random) -> str:
    k = rng.choice([64, 500, 2000, 5000])
    kind = rng.choice(["[", "{", "[]", "{}", "(", "obj", "@"])
    if kind == "[]":
        return "[" * k + "]" * k
    if kind == "{}":
        return "{" * k + "}" * k
    if kind == "obj":
        return "{a:" * k + "1" + "}" * k
    if kind == "@":
        return "@a(" * k
    return kind * k


def _token_pool(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.3:
        return rng.choice(IDL_KEYWORDS)
    if r < 0.5:
        return rng.choice(IDL_PUNCT)
    if r < 0.7:
        return rng.choice(IDL_NUMBERS)
    if r < 0.9:
        return rng.choice(IDL_STRINGS)
    return _deep_token(rng)


def mutate_tokens(text: str, rng: random.Random, ops: int | None = None) -> str:
    toks = tokenize(text)
    for _ in range(ops or rng.randint(1, 6)):
        sig = [i for i, t in enumerate(toks) if not _is_ws(t)]
        if not sig:
            toks.append(_token_pool(rng))
            continue
        i = rng.choice(sig)
        op = rng.choice(["drop", "dup", "swap", "replace", "replace", "insert", "insert"])
        if op == "drop":
            del toks[i]
        elif op == "dup":
            toks[i:i] = [toks[i], " "]
        elif op == "swap":
            j = rng.choice(sig)
            toks[i], toks[j] = toks[j], toks[i]
        elif op == "replace":
            toks[i] = _token_pool(rng)
        else:
            toks[i:i] = [_token_pool(rng), rng.choice([" ", "\n", ""])]
    return "".join(toks)


def mutate_bytes(data: bytes, rng: random.Random, ops: int | None = None) -> bytes:
    buf = bytearray(data)
    for _ in range(ops or rng.randint(1, 5)):
        n = len(buf)
        i = rng.randint(0, n) if n else 0
        j = min(n, i + rng.choice([1, 2, 8, 40, 400]))
        op = rng.choice(["cut", "dup", "flip", "utf8", "nul", "bom", "repeat", "truncate", "random"])
        if op == "cut":
            del buf[i:j]
        elif op == "dup":
            buf[i:i] = buf[i:j]
        elif op == "flip" and i < n:
            buf[i] ^= 1 << rng.randint(0, 7)
        elif op == "utf8":
            buf[i:i] = rng.choice([b"\xff", b"\xfe\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                                   b"\xc0\xaf", b"\xe2\x82", b"\x80"])
        elif op == "nul":
            buf[i:i] = b"\x00" * rng.choice([1, 1, 100])
        elif op == "bom":
            pos = 0 if rng.random() < 0.5 else i
            buf[pos:pos] = rng.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"])
        elif op == "repeat":
            chunk = bytes(buf[i:j]) or b"{"
            times = rng.choice([100, 1000, 10000, 100000])
            times = min(times, (2 << 20) // max(1, len(chunk)))
            buf[i:i] = chunk * times
        elif op == "truncate":
            del buf[i:]
        else:
            buf[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    return bytes(buf)


def _choose_cmd(rng: random.Random, buildable: bool) -> str:
    r = rng.random()
    if buildable:
        return "build" if r < 0.6 else ("validate" if r < 0.8 else "ast")
    return "build" if r < 0.2 else ("validate" if r < 0.6 else "ast")


def _attach_command(case: Case, rng: random.Random, cmd: str, settings: Any) -> Case:
    """Fill in how the command is run: API call, or CLI flags / config file / smithy-build.json."""
    case.cmd = cmd
    if cmd == "build":
        case.api = "convert" if (case.mode == "api" and rng.random() < 0.25) else "build"
        case.settings = settings if settings is not None else {"organizationName": "Fuzz"}
        case.out = "out"
        case.check = rng.random() < 0.1
        if case.check and rng.random() < 0.5:
            case.files.setdefault("out/stale.json", '{"typeName": "A::B::C"}\n')
        if case.mode == "cli":
            how = rng.random()
            if how < 0.45:
                case.config = "cfg.json"
            elif how < 0.6 and isinstance(case.settings, dict):
                sb = {"version": "1.0", "sources": [f"{m}" for m in case.models],
                      "plugins": {"cloudformation": case.settings}}
                case.files["smithy-build.json"] = render_json(sb, indent=2)
                case.models = []
                if rng.random() < 0.5:
                    case.config = "smithy-build.json"
            else:
                s = case.settings if isinstance(case.settings, dict) else {}
                for key, flag in (("service", "--service"), ("organizationName", "--org"),
                                  ("serviceName", "--service-name")):
                    if isinstance(s.get(key), str) and _argv_safe(s[key]):
                        case.flags += [flag, s[key]]
                rest = {k: v for k, v in s.items() if k not in ("service", "organizationName", "serviceName")}
                if rest:
                    case.settings = rest
                    case.config = "cfg.json"
                else:
                    case.settings = None
            if rng.random() < 0.2:
                case.flags += [rng.choice(["--format", "-q", "-v"])]
                if case.flags[-1] == "--format":
                    case.flags.append(rng.choice(["json", "text"]))
    elif cmd == "validate":
        case.api = "validate"
        case.out = None
        case.settings = None
        if case.mode == "cli" and rng.random() < 0.2:
            case.flags += ["--format", "json"]
    else:
        case.api = "ast"
        case.settings = None
        case.out = "out.json" if rng.random() < 0.5 else None
    return case


def _argv_safe(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\x00" not in s


def gen_idl_bytes(rng: random.Random, seeds: Seeds, mode: str) -> Case:
    case = Case("idl-bytes", "bytes", mode)
    if rng.random() < 0.4 and seeds.builds:
        b = rng.choice(seeds.builds)
        names = sorted(b.files)
        victim = rng.choice(names)
        for n in names:
            data = b.files[n].encode()
            case.files[f"in/{n}"] = mutate_bytes(data, rng) if n == victim else data
        case.tag = f"bytes:{b.name}"
        return _attach_command(case, rng, _choose_cmd(rng, True), dict(b.settings))
    name, text = rng.choice(seeds.idl)
    case.files[f"in/{name}"] = mutate_bytes(text.encode(), rng)
    case.tag = "bytes:idl"
    return _attach_command(case, rng, _choose_cmd(rng, False), None)


def gen_idl_tokens(rng: random.Random, seeds: Seeds, mode: str) -> Case:
    case = Case("idl-tokens", "tokens", mode)
    if rng.random() < 0.5 and seeds.builds:
        b = rng.choice(seeds.builds)
        names = sorted(b.files)
        victim = rng.choice(names)
        for n in names:
            case.files[f"in/{n}"] = mutate_tokens(b.files[n], rng) if n == victim else b.files[n]
        case.tag = f"tokens:{b.name}"
        return _attach_command(case, rng, _choose_cmd(rng, True), dict(b.settings))
    name, text = rng.choice(seeds.idl)
    case.files[f"in/{name}"] = mutate_tokens(text, rng)
    case.tag = "tokens:idl"
    return _attach_command(case, rng, _choose_cmd(rng, False), None)


SHAPE_TYPES = ["structure", "union", "list", "set", "map", "enum", "intEnum", "string", "integer", "blob",
               "boolean", "document", "timestamp", "bigDecimal", "bigInteger", "byte", "short", "long",
               "float", "double", "service", "resource", "operation", "apply", "member", "", "unknown"]


def _nodes(doc: Any, limit: int = 20000) -> list[tuple[Any, Any]]:
    """(container, key) pairs of every value in ``doc``, breadth first, at most ``limit``."""
    out: list[tuple[Any, Any]] = []
    todo = collections.deque([doc])
    while todo and len(out) < limit:
        node = todo.popleft()
        if isinstance(node, dict) and not _is_fz(node):
            for k, v in node.items():
                out.append((node, k))
                todo.append(v)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                out.append((node, i))
                todo.append(v)
    return out


def _hostile_trait_value(rng: random.Random, trait: str) -> Any:
    special = {
        "smithy.api#pattern": ["a{4294967296}", "(" * 300 + "a" + ")" * 300, "[", "(?P<x", "\\", "^(a+)+$",
                               "a{1000}{1000}", "\\p{L}", "(?i)a(?-i)", ""],
        "smithy.api#range": [{"min": fz("lit", text="1e400")}, {"min": fz("nan")}, {"min": "x"}, {"max": -0.0},
                             {"min": 5, "max": 1}, {"min": fz("int", digits=5000)}],
        "smithy.api#length": [{"min": -1}, {"max": "x"}, {"min": 2**64}, {"min": 1.5}],
        "smithy.api#trait": [{"selector": ":not(" * 500 + "string" + ")" * 500}, {"selector": 5},
                             {"selector": "[trait|"}, {"selector": "~>" * 500}, {"structurallyExclusive": 5}],
        "aws.cloudformation#cfnResource": [{"name": rng.choice(HOSTILE_NAMES)}, {"name": 5},
                                           {"additionalSchemas": ["nope#Nope"]}, {"additionalSchemas": 5}, 5],
        "aws.cloudformation#cfnMutability": ["full", "create", "nope", 5, None],
        "smithy.api#default": [fz("nan"), [], {}, fz("deep", kind="list", n=1000), "x", 2**64],
        "smithy.api#enumValue": [2**64, "", fz("nan"), 1.5],
        "smithy.api#suppress": [["*"], [5], "x"],
        "smithy.api#idRef": [{"selector": "[" * 50}, {"failWhenMissing": "x"}],
    }
    if trait in special and rng.random() < 0.7:
        return rng.choice(special[trait])
    return rng.choice(hostile_values())


def mutate_json_doc(doc: Any, rng: random.Random, traits: list[str], ops: int | None = None) -> Any:
    doc = copy.deepcopy(doc)
    for _ in range(ops or rng.randint(1, 4)):
        shapes = doc.get("shapes") if isinstance(doc, dict) else None
        op = rng.random()
        if op < 0.35 and isinstance(shapes, dict) and shapes:
            sid = rng.choice(sorted(shapes))
            body = shapes[sid]
            if not isinstance(body, dict):
                continue
            if "members" in body and isinstance(body["members"], dict) and body["members"] and rng.random() < 0.5:
                body = body["members"][rng.choice(sorted(body["members"]))]
                if not isinstance(body, dict):
                    continue
            tr = body.setdefault("traits", {}) if isinstance(body.get("traits", {}), dict) else {}
            trait = rng.choice(sorted(tr) or traits) if rng.random() < 0.4 else rng.choice(traits)
            tr[trait] = _hostile_trait_value(rng, trait)
        elif op < 0.45 and isinstance(shapes, dict) and shapes:
            body = shapes[rng.choice(sorted(shapes))]
            if isinstance(body, dict):
                body["type"] = rng.choice(SHAPE_TYPES)
        elif op < 0.55 and isinstance(shapes, dict) and shapes:
            ids = sorted(shapes)
            cands = [(c, k) for c, k in _nodes(shapes) if k == "target"]
            if cands:
                c, k = rng.choice(cands)
                c[k] = rng.choice(ids + ["smithy.api#Unit", "nope#Nope", "", 5, None, "smithy.api#String$x"])
        else:
            nodes = _nodes(doc)
            if not nodes:
                continue
            c, k = rng.choice(nodes)
            sub = rng.random()
            if sub < 0.6:
                c[k] = rng.choice(hostile_values())
            elif sub < 0.75:
                del c[k]
            elif sub < 0.85 and isinstance(c, dict):
                c[rng.choice(HOSTILE_NAMES + ["type", "target", "traits", "members", "smithy"])] = c.pop(k)
            elif sub < 0.95:
                c[k] = [c[k]]
            else:
                c[k] = fz("deep", kind=rng.choice(["list", "dict"]), n=rng.choice([1000, 5000, 20000]), leaf=None)
    return doc


def _sample_aws(doc: dict, rng: random.Random, limit: int = 60) -> dict:
    shapes = doc.get("shapes", {})
    ids = sorted(shapes)
    start = rng.choice(ids)
    keep: list[str] = []
    todo = [start]
    seen = set()
    while todo and len(keep) < limit:
        sid = todo.pop()
        if sid in seen or sid not in shapes:
            continue
        seen.add(sid)
        keep.append(sid)
        for c, k in _nodes(shapes[sid], 2000):
            v = c[k]
            if isinstance(v, str) and v in shapes and v not in seen:
                todo.append(v)
    return {"smithy": doc.get("smithy", "2.0"), "shapes": {s: shapes[s] for s in keep}}


def gen_json_ast(rng: random.Random, seeds: Seeds, mode: str) -> Case:
    case = Case("json-ast", "json", mode)
    r = rng.random()
    builds = [b for b in seeds.builds if b.json_ast]
    settings = None
    buildable = False
    if r < 0.45 and builds:
        b = rng.choice(builds)
        doc = json.loads(b.json_ast)
        case.tag = f"json:{b.name}"
        settings = dict(b.settings)
        buildable = True
    elif r < 0.55 and seeds.aws:
        name, full, cfg = rng.choice(seeds.aws)
        if rng.random() < 0.3:
            doc = full
            settings = dict(cfg)
            buildable = True
            case.tag = f"json:aws-full:{name}"
        else:
            doc = _sample_aws(full, rng)
            case.tag = f"json:aws-sample:{name}"
    elif seeds.json_docs:
        name, doc = rng.choice(seeds.json_docs)
        case.tag = "json:idl-valid"
    else:
        doc = {"smithy": "2.0", "shapes": {}}
        case.tag = "json:empty"
    mutated = mutate_json_doc(doc, rng, seeds.traits)
    text = render_json(mutated, indent=rng.choice([None, 2]), ascii_only=rng.random() < 0.8)
    case.files["in/model.json"] = text
    return _attach_command(case, rng, _choose_cmd(rng, buildable), settings)


# ---------------------------------------------------------------- stress recipes

def _mini(stress: str) -> str:
    return MINI.replace("{STRESS}", stress)


def recipe_files(recipe: dict) -> dict[str, str | bytes]:
    """The input files of a stress recipe ``{"name": ..., "n": N}`` (deterministic)."""
    name, n = recipe["name"], int(recipe["n"])
    if name == "structure-chain":
        body = "".join(f"structure P{i} {{\n    a: P{i + 1}\n}}\n" for i in range(n)) + f"structure P{n} {{}}\n"
        return {"in/m.smithy": _mini(body)}
    if name == "list-chain":
        body = "structure P0 { a: L0 }\n" + "".join(f"list L{i} {{ member: L{i + 1} }}\n" for i in range(n))
        return {"in/m.smithy": _mini(body + f"list L{n} {{ member: String }}\n")}
    if name == "json-structure-chain":
        shapes = {f"fuzz.chain#P{i}": {"type": "structure", "members": {"a": {"target": f"fuzz.chain#P{i + 1}"}}}
                  for i in range(n)}
        shapes[f"fuzz.chain#P{n}"] = {"type": "structure", "members": {}}
        return {"in/m.json": json.dumps({"smithy": "2.0", "shapes": shapes})}
    if name == "deep-metadata":
        return {"in/m.smithy": 'metadata deep = ' + "[" * n + "1" + "]" * n + "\n" + _mini(MINI_P0)}
    if name == "deep-trait-value":
        return {"in/m.smithy": _mini(MINI_P0 + "@trait\ndocument deep\n\n@deep(" + "[" * n + "]" * n
                                     + ")\nstring Deep\n")}
    if name == "deep-trait-json":
        doc = ('{"smithy": "2.0", "shapes": {"fuzz.deep#t": {"type": "document", "traits": {"smithy.api#trait": {}}},'
               ' "fuzz.deep#S": {"type": "string", "traits": {"fuzz.deep#t": ' + "[" * n + "]" * n + "}}}}")
        return {"in/m.json": doc}
    if name == "deep-metadata-json":
        return {"in/m.json": '{"smithy": "2.0", "metadata": {"x": ' + '{"a":' * n + "1" + "}" * n + "}}"}
    if name == "deep-settings":
        return {"in/m.smithy": _mini(MINI_P0),
                "cfg.json": '{"organizationName": "Fuzz", "schemaDocumentExtensions": {"definitions": {"Deep": {"default": '
                            + "[" * n + "]" * n + "}}}}"}
    if name == "deep-jsonadd":
        return {"in/m.smithy": _mini(MINI_P0),
                "cfg.json": '{"organizationName": "Fuzz", "jsonAdd": {"fuzz.stress#FuzzRes": {"/properties/P/default": '
                            + '{"a":' * n + "1" + "}" * n + "}}}"}
    if name == "mixin-chain":
        body = "@mixin\nstructure M0 {\n    a: String\n}\n"
        body += "".join(f"@mixin\nstructure M{i} with [M{i - 1}] {{}}\n" for i in range(1, n))
        body += f"structure P0 with [M{n - 1}] {{}}\n"
        return {"in/m.smithy": _mini(body)}
    if name == "resource-chain":
        res = "".join(f"resource C{i} {{\n    identifiers: {{ id: String }}\n    resources: [C{i + 1}]\n}}\n"
                      for i in range(n))
        res += f"resource C{n} {{\n    identifiers: {{ id: String }}\n}}\n"
        text = _mini(MINI_P0).replace("resources: [FuzzRes]", "resources: [FuzzRes, C0]")
        return {"in/m.smithy": text + res}
    if name == "many-members":
        body = "structure P0 {\n" + "".join(f"    m{i}: String\n" for i in range(n)) + "}\n"
        return {"in/m.smithy": _mini(body)}
    if name == "many-shapes":
        body = MINI_P0 + "".join(f"@documentation(\"d{i}\")\nstring S{i}\n" for i in range(n))
        return {"in/m.smithy": _mini(body)}
    if name == "many-operations":
        ops = ", ".join(f"Op{i}" for i in range(n))
        body = MINI_P0 + "".join(f"operation Op{i} {{}}\n" for i in range(n))
        return {"in/m.smithy": _mini(body).replace("read: GetFuzzRes", f"read: GetFuzzRes\n    operations: [{ops}]")}
    if name == "many-enum-values":
        body = "structure P0 { e: E }\nenum E {\n" + "".join(f"    V{i}\n" for i in range(n)) + "}\n"
        return {"in/m.smithy": _mini(body)}
    if name == "wide-union":
        body = "structure P0 { u: U }\nunion U {\n" + "".join(f"    m{i}: String\n" for i in range(n)) + "}\n"
        return {"in/m.smithy": _mini(body)}
    if name == "regex-nested-groups":
        pat = "(" * n + "a" + ")" * n
        return {"in/m.smithy": _mini(f'structure P0 {{\n    @pattern("{pat}")\n    a: String\n}}\n')}
    if name == "regex-huge-repeat":
        pats = ["a{4294967296}", "a{1000}{1000}{1000}", "(?:a{1000}){1000}", "a{99999999999999999999}",
                "a{" + "9" * n + "}"]
        pat = pats[n % len(pats)]
        return {"in/m.smithy": _mini(f'structure P0 {{\n    @pattern("{pat}")\n    a: String\n}}\n')}
    if name == "regex-redos":
        return {"in/m.smithy": _mini('structure P0 {\n    @pattern("^(a+)+$")\n    @default("' + "a" * n
                                     + '!")\n    a: String\n}\n')}
    if name == "selector-nested-not":
        sel = ":not(" * n + "string" + ")" * n
        return {"in/m.smithy": _mini(MINI_P0 + f'@trait(selector: "{sel}")\nstructure t {{}}\n\n@t\nstring T\n')}
    if name == "selector-long-chain":
        sel = "structure" + " > member" * n
        return {"in/m.smithy": _mini(MINI_P0 + f'@trait(selector: "{sel}")\nstructure t {{}}\n\n@t\nstring T\n')}
    if name == "selector-nested-is":
        sel = ":is(" * n + "*" + ")" * n
        return {"in/m.smithy": _mini(MINI_P0 + f'@trait(selector: "{sel}")\nstructure t {{}}\n\n@t\nstring T\n')}
    if name == "huge-doc-string":
        return {"in/m.smithy": _mini(MINI_P0).replace("@cfnResource\n", '@documentation("' + "x" * n
                                                        + '")\n@cfnResource\n')}
    if name == "huge-identifier":
        ident = "A" * n
        return {"in/m.smithy": _mini(MINI_P0 + f"string {ident}\n")}
    if name == "huge-comment":
        return {"in/m.smithy": "// " + "c" * n + "\n" + _mini(MINI_P0)}
    if name == "huge-text-block":
        return {"in/m.smithy": _mini(MINI_P0 + '@documentation("""\n' + ("t" * 79 + "\n") * (n // 80) + '""")\n'
                                     + "string Big\n")}
    if name == "huge-escapes":
        return {"in/m.smithy": _mini(MINI_P0 + '@documentation("' + "\\u0041" * (n // 6) + '")\nstring Big\n')}
    if name == "huge-line":
        return {"in/m.smithy": _mini(MINI_P0 + "string A " * (n // 9) + "\n")}
    if name == "many-lines":
        return {"in/m.smithy": _mini(MINI_P0) + "\n" * n}
    if name == "many-applies":
        return {"in/m.smithy": _mini(MINI_P0) + "".join('apply P0 @documentation("x")\n' for _ in range(n))}
    if name == "huge-number":
        return {"in/m.smithy": _mini(f"structure P0 {{\n    @range(min: 1{'0' * n})\n    a: Integer\n}}\n")}
    if name == "many-files":
        files: dict[str, str | bytes] = {"in/m.smithy": _mini(MINI_P0)}
        for i in range(n):
            files[f"in/f{i}.smithy"] = f'$version: "2"\nnamespace fuzz.f{i}\nstring S\n'
        return files
    raise ValueError(name)


#: name -> (min n, max n, weight, command choices). Sizes keep a linear implementation far
#: below the timeout (the 4 MB strings are the brief's "4 MB strings").
RECIPES: dict[str, tuple[int, int, float]] = {
    "structure-chain": (1000, 3000, 2), "list-chain": (1000, 3000, 1), "json-structure-chain": (1000, 5000, 1),
    "deep-metadata": (1000, 5000, 1), "deep-trait-value": (1000, 5000, 1), "deep-trait-json": (1000, 5000, 1),
    "deep-metadata-json": (1000, 5000, 1), "deep-settings": (1000, 5000, 1), "deep-jsonadd": (1000, 5000, 1),
    "mixin-chain": (500, 2000, 2), "resource-chain": (200, 1000, 2), "many-members": (2000, 10000, 1),
    "many-shapes": (2000, 10000, 1), "many-operations": (500, 3000, 1), "many-enum-values": (2000, 10000, 1),
    "wide-union": (500, 5000, 1), "regex-nested-groups": (100, 600, 2), "regex-huge-repeat": (0, 20, 2),
    "regex-redos": (20, 40, 1), "selector-nested-not": (200, 600, 2), "selector-long-chain": (200, 2000, 1),
    "selector-nested-is": (200, 600, 1), "huge-doc-string": (1 << 20, 4 << 20, 1),
    "huge-identifier": (1 << 16, 1 << 20, 1), "huge-comment": (1 << 20, 4 << 20, 1),
    "huge-text-block": (1 << 20, 4 << 20, 1), "huge-escapes": (1 << 20, 4 << 20, 1), "huge-line": (1 << 20, 4 << 20, 1),
    "many-lines": (100000, 1000000, 1), "many-applies": (1000, 10000, 1), "huge-number": (1000, 100000, 1),
    "many-files": (50, 400, 1),
}


def gen_stress(rng: random.Random, seeds: Seeds, mode: str) -> Case:
    names = sorted(RECIPES)
    name = rng.choices(names, weights=[RECIPES[n][2] for n in names])[0]
    lo, hi, _ = RECIPES[name]
    n = rng.randint(lo, hi)
    case = Case("stress", f"stress:{name}", mode, recipe={"name": name, "n": n})
    settings: Any = {"organizationName": "Fuzz"}
    cmd = "build" if rng.random() < 0.7 else rng.choice(["validate", "ast"])
    if name in ("deep-settings", "deep-jsonadd"):
        cmd = "build"
        if mode == "api":
            kind = "list" if name == "deep-settings" else "dict"
            key = "schemaDocumentExtensions" if name == "deep-settings" else "jsonAdd"
            deep = fz("deep", kind=kind, n=n, leaf=[] if kind == "list" else 1)
            settings = {"organizationName": "Fuzz",
                        key: {"definitions": {"Deep": {"default": deep}}} if key == "schemaDocumentExtensions"
                        else {"fuzz.stress#FuzzRes": {"/properties/P/default": deep}}}
    _attach_command(case, rng, cmd, settings)
    if name in ("deep-settings", "deep-jsonadd") and mode == "cli":
        case.config, case.settings, case.models = "cfg.json", None, ["in"]
        case.flags = [f for f in case.flags if f in ("-q", "-v", "--format", "json", "text")]
        case.files.pop("smithy-build.json", None)
    return case


# ---------------------------------------------------------------- names and settings

SETTING_KEYS = ["service", "organizationName", "serviceName", "externalDocs", "sourceDocs", "jsonAdd",
                "disableHandlerPermissionGeneration", "disableDeprecatedPropertyGeneration",
                "disableRequiredPropertyGeneration", "disableCapitalizedProperties", "defaultTimestampFormat",
                "schemaDocumentExtensions", "disableFeatures", "useIntegerType", "compatibility", "strict",
                "artifacts", "customResources"]
POINTERS = ["/properties/X/enum/\u0661\u0662", "/" + "9" * 5000, "/properties/-", "", "/", "no-slash", "/~2", "/~",
            "/a~1b", "/properties/Foo" + "/x" * 1000, "/required/-", "/required/99999999999999999999",
            "/required/\uff11", "/typeName", "/definitions/-/x", "/properties/\x00", "/handlers/create/permissions/0",
            "/required/0", "/required/-1", "/required/01", "/primaryIdentifier/0", "/primaryIdentifier",
            "/properties", "/additionalProperties"]


def _set_cfn_name(files: dict[str, Any], name: str) -> dict[str, Any]:
    out = {}
    lit = json.dumps(name)
    for k, text in files.items():
        if isinstance(text, str):
            text = re.sub(r"@(aws\.cloudformation#)?cfnResource(\((?:[^()]|\([^()]*\))*\))?",
                          lambda m: f"@{m.group(1) or ''}cfnResource(name: {lit})", text)
        out[k] = text
    return out


def gen_names_settings(rng: random.Random, seeds: Seeds, mode: str) -> Case:
    b = rng.choice(seeds.builds)
    case = Case("names-settings", "names", mode)
    case.files = {f"in/{n}": t for n, t in b.files.items()}
    settings: Any = dict(b.settings)
    res = b.resources or ["nope#Nope"]
    kind = rng.choice(["org", "service-name", "cfn-name", "jsonadd-typename", "extensions-typename",
                       "wrong-type", "wrong-type", "smithy-build", "smithy-build", "pointers", "flags", "api-nondict",
                       "artifacts-custom"])
    case.tag = f"names:{kind}"
    name = rng.choice(HOSTILE_NAMES)
    if kind == "org":
        settings["organizationName"] = name
    elif kind == "service-name":
        settings["serviceName"] = name
        if rng.random() < 0.5:
            settings["organizationName"] = rng.choice(HOSTILE_NAMES)
    elif kind == "cfn-name":
        case.files = _set_cfn_name(case.files, name)
    elif kind == "jsonadd-typename":
        tn = rng.choice([name, f"{name}::B::C", f"Ab::{name}::Cd", "Ab::Cd::Ef", "ab::cd::ef", "AB::CD::EF",
                         "../../a::b::c", "Aa::Bb::" + "C" * 64, 5, None, ["Ab::Cd::Ef"]])
        settings["jsonAdd"] = {rng.choice(res): {"/typeName": tn}}
    elif kind == "extensions-typename":
        settings["schemaDocumentExtensions"] = {"typeName": rng.choice([name, "Ab::Cd::Ef", "Zz::Yy::Xx", 5])}
    elif kind == "wrong-type":
        for key in rng.sample(SETTING_KEYS, rng.randint(1, 3)):
            settings[key] = rng.choice(hostile_values() + HOSTILE_NAMES[:10])
        if rng.random() < 0.3:
            settings[rng.choice(HOSTILE_NAMES)] = rng.choice(hostile_values())
    elif kind == "artifacts-custom":  # the project files and custom resources (issues 18, 19) with hostile names
        settings["artifacts"] = rng.sample(["docs", "inputs", "role"], rng.randint(0, 3))
        settings["customResources"] = {rng.choice(res + ["nope#Nope"]): rng.choice(
            ["Custom::Vault", f"Custom::{name}", "Custom::..", "Custom::" + "x" * 61, name])}
    elif kind == "pointers":
        settings["jsonAdd"] = {rng.choice(res + ["nope#Nope", "", "a/b"]): {
            rng.choice(POINTERS): rng.choice(hostile_values() + ["x", {"type": "string"}])
            for _ in range(rng.randint(1, 3))}}
    elif kind == "api-nondict":
        if mode == "api":
            settings = rng.choice([[1, 2], ["a", "b"], "string", 5, True, fz("nan"), [["service", "x"]],
                                   {"organizationName": fz("nan")}, {"jsonAdd": {res[0]: fz("nan")}},
                                   {"jsonAdd": {res[0]: {"/description": fz("nan")}}},
                                   {"schemaDocumentExtensions": {"x-n": fz("inf")}},
                                   {"jsonAdd": {res[0]: {"/x-big": fz("int", digits=5000)}}},
                                   {"schemaDocumentExtensions": {"x": "\ud800"}}])
            if isinstance(settings, dict):
                settings = {**b.settings, **settings}
        else:
            settings["schemaDocumentExtensions"] = {"x-nan": fz("nan")}
    if kind == "smithy-build" and mode == "cli":
        return _smithy_build_case(case, rng, settings)
    cmd = "build"
    _attach_command(case, rng, cmd, settings)
    if kind == "flags" and mode == "cli":
        flag = rng.choice(["--org", "--service-name", "--service"])
        value = rng.choice([n for n in HOSTILE_NAMES if _argv_safe(n)])
        case.flags += [flag, value]
    return case


def _smithy_build_case(case: Case, rng: random.Random, settings: dict) -> Case:
    case.cmd = "build"
    case.out = "out"
    models = sorted(k[len("in/"):] for k in case.files)
    sb: dict[str, Any] = {"version": "1.0", "sources": [f"in/{m}" for m in models],
                          "plugins": {"cloudformation": settings}}
    key = rng.choice(["version", "sources", "imports", "plugins", "projections", "outputDirectory", "maven",
                      "plugins.cloudformation", "projections.p", "projections.p.plugins",
                      "projections.p.plugins.cloudformation", "projections.p.imports", "projections.two",
                      "sources.item", "paths"])
    value = rng.choice(hostile_values())
    if key == "projections":
        sb["projections"] = value
    elif key == "plugins.cloudformation":
        sb["plugins"]["cloudformation"] = value
    elif key.startswith("projections."):
        del sb["plugins"]
        proj: dict[str, Any] = {"plugins": {"cloudformation": settings}}
        if key == "projections.p.plugins":
            proj["plugins"] = value
        elif key == "projections.p.plugins.cloudformation":
            proj["plugins"]["cloudformation"] = value
        elif key == "projections.p.imports":
            proj["imports"] = value
            proj["transforms"] = rng.choice([5, [], [{"name": "x"}], "x"])
        sb["projections"] = {"p": proj}
        if key == "projections.two":
            sb["projections"]["q"] = copy.deepcopy(proj)
        if key == "projections.p":
            sb["projections"]["p"] = value
    elif key == "sources.item":
        sb["sources"].append(rng.choice([5, None, "", "/dev/zero", "../../../..", "{SB}/home", "in/missing.smithy",
                                         "\x00", "a" * 300, "in/../in"]))
    elif key == "paths":
        sb["imports"] = [rng.choice(["/dev/null", "{SB}/tmp", "..", "in", "/proc/self/status", "/nonexistent"])]
    else:
        sb[key] = value
    case.files["sb/smithy-build.json"] = render_json(sb, indent=2)
    # paths in smithy-build.json are relative to the file: put it one level down.
    text = case.files["sb/smithy-build.json"].replace('"in/', '"../in/')
    case.files["sb/smithy-build.json"] = text
    case.config = "sb/smithy-build.json"
    case.models = []
    case.settings = None
    return case


# ---------------------------------------------------------------- odd paths

ODD_KINDS = ["fifo-config", "fifo-model", "fifo-in-folder", "devzero-config", "devzero-model", "longname-model",
             "longname-config", "longname-out", "longname-in-folder", "dangling-symlink", "symlink-loop",
             "self-loop", "unreadable-file", "unreadable-dir", "empty-smithy", "empty-json", "empty-config",
             "dir-as-config", "ast-out-missing", "ast-out-readonly", "build-out-readonly", "build-out-is-file",
             "ast-out-is-dir", "sparse-model", "sparse-json-in-folder", "sparse-config", "devnull-model",
             "proc-model", "model-is-out", "out-inside-in", "config-is-model", "dash-model", "nul-file-json",
             "bad-json-in-folder", "deep-json-in-folder", "symlink-to-devzero"]


def gen_odd_paths(rng: random.Random, seeds: Seeds, mode: str) -> Case:
    b = rng.choice(seeds.builds)
    kind = rng.choice(ODD_KINDS)
    case = Case("odd-paths", f"odd:{kind}", "cli", cli_only=True)
    case.files = {f"in/{n}": t for n, t in b.files.items()}
    _attach_command(case, rng, "build", dict(b.settings))
    case.config, case.flags, case.check = "cfg.json", [], False
    case.models = ["in"]
    case.files.pop("smithy-build.json", None)
    case.files.pop("out/stale.json", None)
    long = "L" * 300
    if kind == "fifo-config":
        case.setup.append({"op": "fifo", "path": "cfg.json"})
    elif kind == "fifo-model":
        case.setup.append({"op": "fifo", "path": "in/pipe.smithy"})
        case.models = ["in/pipe.smithy"]
    elif kind == "fifo-in-folder":
        case.setup.append({"op": "fifo", "path": "in/pipe.smithy"})
    elif kind == "devzero-config":
        case.config = "/dev/zero"
    elif kind == "devzero-model":
        case.models = ["/dev/zero"]
    elif kind == "symlink-to-devzero":
        case.setup.append({"op": "symlink", "path": "in/zero.smithy", "target": "/dev/zero"})
    elif kind == "longname-model":
        case.models = [f"in/{long}.smithy"]
    elif kind == "longname-config":
        case.config = f"{long}.json"
    elif kind == "longname-out":
        case.out = long
    elif kind == "longname-in-folder":
        case.models = [f"in/{'d' * 200}/{'e' * 200}/{'f' * 200}/{long}"]
    elif kind == "dangling-symlink":
        case.setup.append({"op": "symlink", "path": "in/dangling.smithy", "target": "nowhere.smithy"})
    elif kind == "symlink-loop":
        case.setup += [{"op": "symlink", "path": "in/a.smithy", "target": "b.smithy"},
                       {"op": "symlink", "path": "in/b.smithy", "target": "a.smithy"},
                       {"op": "symlink", "path": "in/loopdir", "target": "."}]
    elif kind == "self-loop":
        case.setup.append({"op": "symlink", "path": "in/self.json", "target": "self.json"})
    elif kind == "unreadable-file":
        case.files["in/secret.smithy"] = '$version: "2"\nnamespace x\nstring S\n'
        case.setup.append({"op": "chmod", "path": "in/secret.smithy", "mode": 0})
    elif kind == "unreadable-dir":
        case.files["in/locked/x.smithy"] = '$version: "2"\nnamespace x\nstring S\n'
        case.setup.append({"op": "chmod", "path": "in/locked", "mode": 0})
    elif kind == "empty-smithy":
        case.files["in/empty.smithy"] = ""
    elif kind == "empty-json":
        case.files["in/empty.json"] = ""
        case.models = ["in", "in/empty.json"]
    elif kind == "empty-config":
        case.files["cfg.json"] = ""
    elif kind == "dir-as-config":
        case.setup.append({"op": "mkdir", "path": "cfgdir"})
        case.config = "cfgdir"
    elif kind in ("ast-out-missing", "ast-out-readonly", "ast-out-is-dir"):
        case.cmd, case.api, case.config, case.settings = "ast", "ast", None, None
        if kind == "ast-out-missing":
            case.out = rng.choice(["missing/deeper/x.json", "nofile/x.json"])
        elif kind == "ast-out-readonly":
            case.setup.append({"op": "mkdir", "path": "ro", "mode": 0o555})
            case.out = "ro/x.json"
        else:
            case.setup.append({"op": "mkdir", "path": "outdir"})
            case.out = "outdir"
    elif kind == "build-out-readonly":
        case.setup.append({"op": "mkdir", "path": "ro", "mode": 0o555})
        case.out = "ro/out"
    elif kind == "build-out-is-file":
        case.files["outfile"] = "not a folder\n"
        case.out = "outfile"
    elif kind == "sparse-model":
        case.setup.append({"op": "sparse", "path": "in/big.smithy", "size": 4 << 30})
        case.models = ["in/big.smithy"]
    elif kind == "sparse-json-in-folder":
        case.setup.append({"op": "sparse", "path": "in/big.json", "size": 4 << 30})
    elif kind == "sparse-config":
        case.setup.append({"op": "sparse", "path": "cfg.json", "size": 4 << 30})
    elif kind == "devnull-model":
        case.models = ["in", "/dev/null"]
    elif kind == "proc-model":
        case.models = ["/proc/self/status"]
    elif kind == "model-is-out":
        case.out = "in"
    elif kind == "out-inside-in":
        case.out = "in/out"
    elif kind == "config-is-model":
        case.config = f"in/{sorted(b.files)[0]}"
    elif kind == "dash-model":
        case.models = ["in", "-"]
    elif kind == "nul-file-json":
        case.files["in/nul.json"] = b"\x00" * 1000
    elif kind == "bad-json-in-folder":
        case.files["in/bad.json"] = '{"smithy": "2.0", "shapes": ' + rng.choice(['5}', '[]}', '{"a#B": 5}}',
                                                                                  '{"a#B": {"type": 5}}}'])
    elif kind == "deep-json-in-folder":
        case.files["in/deep.json"] = "[" * 100000 + "]" * 100000
    if rng.random() < 0.3 and case.cmd == "build" and case.config == "cfg.json" and case.out == "out" \
            and not any(op.get("path") == "cfg.json" for op in case.setup) and "cfg.json" not in case.files:
        case.cmd = rng.choice(["validate", "ast"])
        case.api = case.cmd
        case.config, case.settings = None, None
        case.out = None if case.cmd == "validate" else rng.choice([None, "out.json"])
    return case


GENERATORS: dict[str, tuple[float, Any]] = {
    "idl-bytes": (15, gen_idl_bytes),
    "idl-tokens": (22, gen_idl_tokens),
    "json-ast": (23, gen_json_ast),
    "stress": (10, gen_stress),
    "names-settings": (22, gen_names_settings),
    "odd-paths": (8, gen_odd_paths),
}


def make_case(index: int, seed: int, seeds: Seeds, cli_fraction: float = 0.25,
              weights: dict[str, float] | None = None, gen: str | None = None,
              mode: str | None = None, rng: random.Random | None = None) -> Case:
    """Input number ``index`` of the campaign with ``seed`` (deterministic)."""
    rng = rng or random.Random(f"{seed}:{index}")
    names = sorted(GENERATORS)
    w = {n: GENERATORS[n][0] for n in names}
    if weights:
        w.update(weights)
    gen = gen or rng.choices(names, weights=[w[n] for n in names])[0]
    if mode is None:
        mode = "cli" if rng.random() < cli_fraction else "api"
    case = GENERATORS[gen][1](rng, seeds, mode)
    if case.cli_only:
        case.mode = "cli"
    if case.mode == "cli":
        r = rng.random()
        state = "cold" if r < 0.2 else ("poison" if r < 0.35 else "warm")
        case.setup.append({"op": "cache", "state": state})
        if rng.random() < 0.1:
            case.setup.append({"op": "env", "unset": "XDG_CACHE_HOME"})
        if rng.random() < 0.1:
            case.setup.append({"op": "env", "unset": "TMPDIR"})   # honoured only with a private /tmp
    case.index = index
    return case


# ============================================================================ running

LAUNCH = r"""
import ctypes, json, os, resource, sys
spec = json.loads(sys.argv[1])
for lim, val in ((resource.RLIMIT_AS, spec.get("as_limit")), (resource.RLIMIT_FSIZE, spec.get("fsize_limit"))):
    if val:
        try:
            resource.setrlimit(lim, (val, val))
        except (ValueError, OSError):
            pass
libc = ctypes.CDLL(None, use_errno=True)
if spec.get("binds"):
    if libc.unshare(0x00020000) == 0 and libc.mount(b"none", b"/", None, 16384 | 262144, None) == 0:
        for src, dst in spec["binds"]:
            libc.mount(src.encode(), dst.encode(), None, 4096, None)
if spec.get("drop_caps"):
    for cap in (1, 2, 3, 21):
        libc.prctl(24, cap, 0, 0, 0)
os.chdir(spec["cwd"])
os.execve(spec["argv"][0], spec["argv"], spec["env"])
"""


def _probe_isolation(python: str) -> bool:
    """True when the launcher can make a mount namespace and drop capabilities (root)."""
    if os.geteuid() != 0:
        return False
    try:
        r = subprocess.run(["unshare", "-m", "true"], capture_output=True, timeout=10)
        return r.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


class _Evil:
    """Unpickling this runs ``os.mkdir(path)``: the poisoned cache's marker."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):
        return (os.mkdir, (self.path,))


@dataclass
class Outcome:
    rc: int | None
    stdout: bytes
    stderr: str
    elapsed: float
    timed_out: bool = False
    exc: str | None = None
    internal: list[str] = field(default_factory=list)
    schemas: dict[str, str] = field(default_factory=dict)
    ast_text: str | None = None


@dataclass
class Failure:
    kind: str        # traceback / internal / timeout / bad-exit / write-fail / outside / non-strict / misnamed / cache-exec
    signature: str   # the failure class
    detail: str


KINDS = ["traceback", "internal", "timeout", "bad-exit", "write-fail", "outside", "non-strict", "misnamed", "cache-exec"]


def _strict_json(data: bytes | str) -> str | None:
    """None when ``data`` is RFC 8259 JSON in UTF-8, else what is wrong."""
    if isinstance(data, str):
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError as e:
            return f"not encodable as UTF-8: {e.reason}"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8"

    def bad(c: str) -> Any:
        raise ValueError(f"non-standard constant {c}")

    try:
        json.loads(text, parse_constant=bad)
    except (ValueError, RecursionError) as e:
        return f"{type(e).__name__}: {str(e)[:200]}"
    return None


def _tb_signature(tb: str) -> str:
    lines = [ln for ln in tb.strip().splitlines() if ln.strip()]
    exc_line = ""
    for ln in reversed(lines):
        if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit|Warning)?\b(:|$)", ln) and not ln.startswith(" "):
            exc_line = ln
            break
    exc = exc_line.split(":", 1)[0] if exc_line else "?"
    frames = re.findall(r'File "([^"]+)", line \d+, in (\S+)', tb)
    ours = [(f, fn) for f, fn in frames if "smithy2cfn" in f and "/tools/fuzz.py" not in f]
    if not ours:
        ours = frames[-1:] if frames else [("?", "?")]
    if exc == "RecursionError" and len(frames) > 3:
        # the recursing function: ours if it is ours, else (recursion inside a library such as
        # re or json) the deepest of our frames, the call into that library
        top = collections.Counter(frames).most_common(1)[0][0]
        f, fn = top if top in ours else ours[-1]
    else:
        f, fn = ours[-1]
    short = re.sub(r"^.*?/smithy2cfn/", "", f)
    return f"{exc}@{short}:{fn}"


class Runner:
    """Runs cases in sandboxes and checks the oracles. One per job (thread)."""

    def __init__(self, workdir: Path, python: str = sys.executable, timeout: float = TIMEOUT,
                 mem_limit_mb: int = 4096, isolate: bool | None = None, allow_cache: bool = False,
                 cache_template: Path | None = None) -> None:
        self.workdir = Path(workdir)
        self.python = python
        self.timeout = timeout
        self.mem_limit = mem_limit_mb << 20
        self.isolate = _probe_isolation(python) if isolate is None else isolate
        if self.isolate and str(self.workdir.resolve()).startswith("/tmp/"):
            self.bind_tmp = False
        else:
            self.bind_tmp = self.isolate
        self.allow_cache = allow_cache
        self.cache_template = cache_template
        self.worker: subprocess.Popen | None = None
        self._buf = b""
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.box = self.workdir / "r" / "box"
        self.wdir = self.workdir / "worker"

    # ---------------------------------------------------------------- sandbox
    def _env(self, box: Path, unset: set[str] = frozenset()) -> dict[str, str]:
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(box / "home"), "TMPDIR": str(box / "tmp"),
               "XDG_CACHE_HOME": str(box / "home" / ".cache"), "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
               "PYTHONUNBUFFERED": "1"}
        for k in unset:
            env.pop(k, None)
        return env

    def _launch_spec(self, argv: list[str], cwd: Path, env: dict, tmp_dir: Path, cache_dir: Path) -> list[str]:
        spec: dict[str, Any] = {"argv": argv, "cwd": str(cwd), "env": env, "as_limit": self.mem_limit,
                                "fsize_limit": 1 << 30}
        if self.isolate:
            spec["drop_caps"] = True
            binds = []
            if self.bind_tmp:
                binds.append([str(tmp_dir), "/tmp"])
            real_cache = Path(os.path.expanduser("~root" if os.geteuid() == 0 else "~")) / ".cache"
            if real_cache.is_dir():
                binds.append([str(cache_dir), str(real_cache)])
            spec["binds"] = binds
        return [self.python, "-S", "-c", LAUNCH, json.dumps(spec)]

    def _clean(self, path: Path) -> None:
        if not path.exists() and not path.is_symlink():
            return

        def onerror(func, p, exc):
            try:
                os.chmod(os.path.dirname(p), 0o755)
                os.chmod(p, 0o755)
                func(p)
            except OSError:
                pass

        shutil.rmtree(path, onerror=onerror)

    def materialize(self, case: Case) -> Path:
        """Make a fresh sandbox for ``case``; returns the work folder (the child's cwd)."""
        root = self.workdir / "r"
        self._clean(root)
        box = self.box
        work = box / "work"
        for d in (work / "in", box / "home" / ".cache", box / "tmp", box / "realtmp", box / "realcache"):
            d.mkdir(parents=True, exist_ok=True)
        os.chmod(box / "realtmp", 0o1777)
        files = dict(case.files)
        if case.recipe:
            files.update(recipe_files(case.recipe))
        for rel, content in files.items():
            p = Path(os.path.normpath(work / rel))
            p.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, str):
                content = content.replace("{SB}", str(box)).encode("utf-8", "surrogatepass")
            p.write_bytes(content)
        if case.config and case.config not in files and not os.path.isabs(case.config) and case.settings is not None \
                and not any(op.get("path") == case.config for op in case.setup):
            text = render_json(_subst(case.settings, str(box)), indent=2)
            try:
                (work / case.config).parent.mkdir(parents=True, exist_ok=True)
                (work / case.config).write_bytes(text.encode("utf-8", "surrogatepass"))
            except OSError:
                pass   # a --config name the file system refuses (over NAME_MAX): the child meets it too
        for op in case.setup:
            kind = op["op"]
            p = work / op["path"] if "path" in op else None
            if p is not None:
                p.parent.mkdir(parents=True, exist_ok=True)
            if kind == "fifo":
                os.mkfifo(p)
            elif kind == "symlink":
                os.symlink(op["target"], p)
            elif kind == "sparse":
                with open(p, "wb") as f:
                    f.truncate(op["size"])
            elif kind == "mkdir":
                p.mkdir(exist_ok=True)
        for op in case.setup:  # permissions last, so that the files above could be made
            if op["op"] == "chmod":
                os.chmod(work / op["path"], op["mode"])
            elif op["op"] == "mkdir" and "mode" in op:
                os.chmod(work / op["path"], op["mode"])
            elif op["op"] == "cache":
                self._cache_state(op["state"], box, op.get("parts", ["cache", "tmp"]))
        return work

    def _cache_state(self, state: str, box: Path, parts: list[str] = ("cache", "tmp")) -> None:
        """Prepare the caches: ``cold`` (empty), ``warm`` (the template: the files a cold run
        of the product left in ``$XDG_CACHE_HOME`` and ``$TMPDIR``), ``poison`` (the same
        names, each holding a pickle that makes a marker folder when loaded; a first line
        that looks like a hash header is kept, so that a loader checking it goes on).
        ``parts`` limits the state to ``cache`` ($XDG_CACHE_HOME) or ``tmp`` ($TMPDIR and the
        private /tmp); the other part stays cold."""
        tpl = self.cache_template
        targets = [("cache", box / "home" / ".cache", "PWNED-xdg-cache"), ("tmp", box / "tmp", "PWNED-tmpdir"),
                   ("tmp", box / "realtmp", "PWNED-tmpdir")]
        if state == "cold":
            return
        if tpl is None or not any(tpl.rglob("*")):
            if state == "poison":
                (box / "home" / ".cache" / "smithy2cfn").mkdir(parents=True, exist_ok=True)
                (box / "home" / ".cache" / "smithy2cfn" / "prelude-poison.pickle").write_bytes(
                    pickle.dumps(_Evil(str(box / "PWNED-xdg-cache"))))
            return
        for sub, dest, marker in targets:
            src = tpl / sub
            if sub not in parts or not src.is_dir():
                continue
            for f in sorted(src.rglob("*")):
                dst = dest / f.relative_to(src)
                if f.is_dir():
                    dst.mkdir(parents=True, exist_ok=True)
                    continue
                dst.parent.mkdir(parents=True, exist_ok=True)
                if state == "warm":
                    shutil.copy2(f, dst)
                else:
                    orig = f.read_bytes()
                    head = orig.split(b"\n", 1)[0] + b"\n" if re.match(rb"^[0-9a-f]{64}\n", orig) else b""
                    dst.write_bytes(head + pickle.dumps(_Evil(str(box / marker))))

    def snapshot(self) -> dict[str, tuple]:
        out: dict[str, tuple] = {}
        root = str(self.workdir)
        for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
            rel_dir = os.path.relpath(dirpath, root)
            if rel_dir == "worker" or rel_dir.startswith("worker/home"):
                # the API worker's own files (its log changes every run) except its /tmp
                dirnames[:] = [d for d in dirnames if d == "tmp"] if rel_dir == "worker" else []
                filenames = []
            for name in dirnames + filenames:
                p = os.path.join(dirpath, name)
                try:
                    st = os.lstat(p)
                except OSError:
                    continue
                rel = os.path.relpath(p, root)
                if stat.S_ISDIR(st.st_mode):
                    out[rel] = ("d", st.st_mode)
                else:
                    out[rel] = ("f", st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino)
        return out

    # ---------------------------------------------------------------- commands
    def _argv(self, case: Case, box: Path) -> list[str]:
        sub = lambda s: s.replace("{SB}", str(box))  # noqa: E731
        argv = [case.cmd, *[sub(m) for m in case.models]]
        if case.cmd == "build":
            if case.out is not None:
                argv += ["-o", sub(case.out)]
            if case.config:
                argv += ["--config", sub(case.config)]
            if case.check:
                argv.append("--check")
        elif case.cmd == "ast" and case.out is not None:
            argv += ["-o", sub(case.out)]
        argv += [sub(f) for f in case.flags]
        return argv

    def run_cli(self, case: Case, work: Path) -> Outcome:
        box = self.box
        unset = {op["unset"] for op in case.setup if op["op"] == "env"}
        if not self.bind_tmp:
            unset.discard("TMPDIR")   # else the child would write to the real /tmp
        argv = [self.python, "-m", "smithy2cfn", *self._argv(case, box)]
        cmd = self._launch_spec(argv, work, self._env(box, unset), box / "realtmp", box / "realcache")
        t0 = time.monotonic()
        try:
            p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 start_new_session=True)
        except (OSError, ValueError) as e:
            return Outcome(None, b"", f"cannot start: {e}", 0.0)
        try:
            out, err = p.communicate(timeout=self.timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            _killpg(p)
            out, err = p.communicate()
            timed_out = True
        return Outcome(p.returncode, out, err.decode("utf-8", "replace"), time.monotonic() - t0, timed_out)

    def _start_worker(self) -> None:
        self._clean(self.wdir)
        for d in ("home", "tmp", "cache"):
            (self.wdir / d).mkdir(parents=True, exist_ok=True)
        os.chmod(self.wdir / "tmp", 0o1777)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(self.wdir / "home"), "LANG": "C.UTF-8",
               "TMPDIR": str(self.wdir / "tmp"), "SMITHY2CFN_NO_CACHE": "1", "PYTHONDONTWRITEBYTECODE": "1",
               "XDG_CACHE_HOME": str(self.wdir / "home" / ".cache")}
        argv = [self.python, str(Path(__file__).resolve()), "--worker"]
        cmd = self._launch_spec(argv, self.wdir, env, self.wdir / "tmp", self.wdir / "cache")
        self.worker_log = open(self.wdir / "stderr.log", "wb")  # noqa: SIM115
        self.worker = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.worker_log,
                                       start_new_session=True)
        line = self._read_line(60.0)
        if line is None or not line.startswith(b"ready"):
            self._stop_worker()
            raise RuntimeError(f"API worker did not start: {line!r} "
                               + (self.wdir / "stderr.log").read_text(errors="replace")[-2000:])

    def _read_line(self, timeout: float) -> bytes | None:
        assert self.worker and self.worker.stdout
        fd = self.worker.stdout.fileno()
        buf = getattr(self, "_buf", b"")
        deadline = time.monotonic() + timeout
        while b"\n" not in buf:
            left = deadline - time.monotonic()
            if left <= 0:
                self._buf = buf
                return None
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                self._buf = b""
                return b""
            buf += chunk
        line, _, rest = buf.partition(b"\n")
        self._buf = rest
        return line

    def _stop_worker(self) -> None:
        if self.worker is not None:
            _killpg(self.worker)
            try:
                self.worker.wait(5)
            except subprocess.TimeoutExpired:
                pass
            self.worker = None
            self._buf = b""
            try:
                self.worker_log.close()
            except (AttributeError, OSError):
                pass

    def run_api(self, case: Case, work: Path) -> Outcome:
        if self.worker is None or self.worker.poll() is not None:
            self._start_worker()
        assert self.worker and self.worker.stdin
        box = self.box
        task = {"case": case.to_json(), "cwd": str(work), "env": self._env(box), "box": str(box)}
        t0 = time.monotonic()
        try:
            self.worker.stdin.write(json.dumps(task).encode() + b"\n")
            self.worker.stdin.flush()
        except (BrokenPipeError, OSError):
            rc = self.worker.poll()
            self._stop_worker()
            return Outcome(rc if rc is not None else -9, b"", "worker died", 0.0)
        line = self._read_line(self.timeout)
        elapsed = time.monotonic() - t0
        if line is None:
            self._stop_worker()
            return Outcome(None, b"", "", elapsed, timed_out=True)
        if line == b"":
            try:
                rc = self.worker.wait(5)
            except subprocess.TimeoutExpired:
                rc = -9
            self._stop_worker()
            log = (self.wdir / "stderr.log").read_text(errors="replace")[-4000:]
            return Outcome(rc if rc else -1, b"", f"worker died (rc {rc})\n{log}", elapsed)
        res = json.loads(line)
        out = Outcome(res["rc"], b"", res.get("stderr", ""), res.get("elapsed", elapsed), exc=res.get("exc"),
                      internal=res.get("internal", []), schemas=res.get("schemas", {}), ast_text=res.get("ast"))
        if res.get("restart"):
            self._stop_worker()
        return out

    def close(self) -> None:
        self._stop_worker()

    # ---------------------------------------------------------------- oracles
    def run(self, case: Case) -> tuple[Outcome, list[Failure]]:
        """Materialize, run (CLI or API, per ``case.mode``) and check every oracle."""
        if case.mode == "api" and (self.worker is None or self.worker.poll() is not None):
            self._start_worker()
        work = self.materialize(case)
        before = self.snapshot()
        if case.mode == "cli":
            outcome = self.run_cli(case, work)
        else:
            outcome = self.run_api(case, work)
        after = self.snapshot()
        failures = self.check(case, outcome, before, after, work)
        return outcome, failures

    def check(self, case: Case, o: Outcome, before: dict, after: dict, work: Path) -> list[Failure]:
        f: list[Failure] = []
        what = f"{case.mode}:{case.cmd}"
        if o.timed_out:
            f.append(Failure("timeout", f"timeout:{case.tag}", f"over {self.timeout:.0f} s"))
        tb = o.exc or ""
        if not tb and "Traceback (most recent call last)" in o.stderr:
            tb = o.stderr[o.stderr.index("Traceback (most recent call last)"):]
        if tb:
            f.append(Failure("traceback", "traceback:" + _tb_signature(tb), tb[-3000:]))
        internal = list(o.internal)
        for m in re.finditer(r"^.*\b(S3099)\b.*$|^.*internal error.*$", o.stderr, re.M | re.I):
            internal.append(m.group(0))
        if internal:
            m = re.search(r"validator (\w+): (\w+)", internal[0])
            sig = f"internal:S3099:{m.group(1)}:{m.group(2)}" if m else "internal:" + internal[0][:60]
            f.append(Failure("internal", sig, "\n".join(internal)[:3000]))
        if o.rc is not None and o.rc not in (0, 1, 2) and not o.timed_out:
            f.append(Failure("bad-exit", f"bad-exit:{o.rc}:{what}", o.stderr[-2000:]))
        # writes
        box_rel = os.path.relpath(self.box, self.workdir)
        work_rel = os.path.relpath(work, self.workdir)
        allowed: str | None = None
        if case.out is not None and case.cmd in ("build", "ast"):
            allowed = os.path.normpath(os.path.join(work_rel, case.out.replace("{SB}", str(self.box))))
            if os.path.isabs(allowed):
                allowed = os.path.relpath(allowed, self.workdir)
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        written, outside = [], []
        for k in changed:
            if allowed and (k == allowed or k.startswith(allowed + "/")):
                written.append(k)
            elif allowed and allowed.startswith(k + "/") and k not in before and after.get(k, ("",))[0] == "d":
                written.append(k)   # a missing parent folder of -o, made for it
            else:
                outside.append(k)
        for marker in sorted(self.box.glob("PWNED-*")):
            f.append(Failure("cache-exec", "cache-exec:" + marker.name[len("PWNED-"):],
                             f"a poisoned cache file in {marker.name[len('PWNED-'):]} ran code when loaded"))
        outside = [k for k in outside if "/PWNED-" not in k]
        cache_rel = os.path.join(box_rel, "home", ".cache")
        cache_writes = [k for k in outside if k.startswith(cache_rel + "/") or k.startswith(
            os.path.join(box_rel, "realcache") + "/")]
        if self.allow_cache:
            outside = [k for k in outside if k not in cache_writes]
        if outside:
            def klass(k: str) -> str:
                if k in cache_writes:
                    return "cache"
                for name, sub in (("tmp", "tmp"), ("tmp", "realtmp"), ("input", "work/in"), ("home", "home")):
                    if k.startswith(os.path.join(box_rel, sub) + "/"):
                        return name
                if k.startswith("worker/tmp"):
                    return "tmp"
                return "escape"
            kinds = sorted({klass(k) for k in outside})
            f.append(Failure("outside", f"outside:{'+'.join(kinds)}" + (f":{case.tag}" if "escape" in kinds else ""),
                             "changed: " + ", ".join(outside[:20])))
        failed = o.rc != 0 or o.timed_out
        if written and (failed or case.check):
            f.append(Failure("write-fail", f"write-fail:{what}:rc{o.rc}", "written: " + ", ".join(written[:20])))
        # outputs
        if o.rc == 0 and not o.timed_out:
            if case.cmd == "ast" and case.out is None:
                text = o.stdout if case.mode == "cli" else (o.ast_text or "")
                problem = _strict_json(text)
                if problem:
                    f.append(Failure("non-strict", f"non-strict:ast-stdout:{problem.split(':')[0]}", problem))
            new_files = [k for k in written if after.get(k, ("",))[0] == "f"]
            for k in new_files:
                p = self.workdir / k
                if _artifact(p):
                    if p.suffix != ".json":
                        continue  # docs, templates, the provider: not JSON
                    data = p.read_bytes() if not p.is_symlink() else b""
                    problem = _strict_json(data)
                    if problem:
                        f.append(Failure("non-strict", f"non-strict:artifact:{problem.split(':')[0]}", f"{k}: {problem}"))
                    continue
                try:
                    data = p.read_bytes() if not p.is_symlink() else b""
                except OSError as e:
                    f.append(Failure("non-strict", "non-strict:unreadable-output", str(e)))
                    continue
                problem = _strict_json(data)
                if problem:
                    f.append(Failure("non-strict", f"non-strict:{case.cmd}-file:{problem.split(':')[0]}",
                                     f"{k}: {problem}"))
                    continue
                if case.cmd == "build":
                    f += _name_check(p.name, json.loads(data.decode("utf-8")), k)
            for name, text in o.schemas.items():
                problem = _strict_json(text)
                if problem:
                    f.append(Failure("non-strict", f"non-strict:api-schema:{problem.split(':')[0]}",
                                     f"{name}: {problem}"))
                else:
                    f += _name_check(name, json.loads(text), name)
        # one failure per signature
        seen, out = set(), []
        for x in f:
            if x.signature not in seen:
                seen.add(x.signature)
                out.append(x)
        return out


def _artifact(path: Path) -> bool:
    """A file a build writes beside the schemas, not a schema: a project file in
    ``<schema stem>/`` (``docs/``, ``inputs/``, ``resource-role.yaml``: setting ``artifacts``) or
    a custom resource's folder (``custom-<name>/``: setting ``customResources``)."""
    parent = path.parent
    return parent.name.startswith("custom-") or parent.name in ("docs", "inputs") or \
        (parent.parent / f"{parent.name}.json").is_file()


def _name_check(name: str, doc: Any, where: str) -> list[Failure]:
    tn = doc.get("typeName") if isinstance(doc, dict) else None
    if not isinstance(tn, str):
        return [Failure("misnamed", "misnamed:no-typeName", f"{where}: no string typeName")]
    expected = tn.lower().replace("::", "-") + ".json"
    if name != expected:
        how = "stray-file" if not name.endswith(".json") else "typeName-mismatch"
        return [Failure("misnamed", f"misnamed:{how}", f"{where}: typeName {tn!r} wants {expected!r}")]
    return []


def _subst(v: Any, box: str) -> Any:
    if isinstance(v, str):
        return v.replace("{SB}", box)
    if isinstance(v, list):
        return [_subst(x, box) for x in v]
    if isinstance(v, dict) and not _is_fz(v):
        return {_subst(k, box): _subst(x, box) for k, x in v.items()}
    return v


def _killpg(p: subprocess.Popen) -> None:
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        try:
            p.kill()
        except OSError:
            pass


# ============================================================================ API worker

def worker_main() -> None:
    """``--worker``: read one task a line on stdin, run it through the library API, answer."""
    proto = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    import io
    import tempfile

    import smithy2cfn  # noqa: F401
    from smithy2cfn import api
    api.load([])  # parse the prelude once
    proto.write(b"ready\n")
    proto.flush()
    for raw in sys.stdin.buffer:
        task = json.loads(raw)
        d = task["case"]
        case = Case(**{k: v for k, v in d.items() if k != "files"})
        os.chdir(task["cwd"])
        for k in ("HOME", "TMPDIR", "XDG_CACHE_HOME"):
            os.environ[k] = task["env"][k]
        os.environ.pop("SMITHY2CFN_NO_CACHE", None)
        tempfile.tempdir = None
        box = task["box"]
        settings = decode_value(_subst(case.settings, box))
        for i in range(0, len(case.flags) - 1):
            key = {"--org": "organizationName", "--service-name": "serviceName", "--service": "service"}.get(case.flags[i])
            if key and isinstance(settings, dict):
                settings[key] = case.flags[i + 1].replace("{SB}", box)
        paths = [m.replace("{SB}", box) for m in case.models]
        if case.config and not case.models:
            paths = ["in"]
        res: dict[str, Any] = {"rc": 1, "internal": [], "schemas": {}}
        err = io.StringIO()
        t0 = time.monotonic()
        try:
            diags: Any = None
            if case.api == "build":
                r = api.build(paths, case.out, settings, check=case.check, settings_source="<fuzz>")
                diags = r.diagnostics
                res["rc"] = 0 if r.ok else 1
                res["schemas"] = {n: api.render_schema(s) for n, s in r.schemas.items()}
            elif case.api == "convert":
                checked = api.validate(api.load(paths))
                converted = api.convert(checked.model, settings, settings_source="<fuzz>") if checked.ok else None
                diags = checked.diagnostics + (converted.diagnostics if converted is not None else [])
                res["rc"] = 0 if converted is not None and converted.ok else 1
                schemas = converted.schemas if converted is not None else {}
                res["schemas"] = {n: api.render_schema(s) for n, s in schemas.items()}
            elif case.api == "validate":
                checked = api.validate(api.load(paths))
                diags = checked.diagnostics
                res["rc"] = 0 if checked.ok else 1
            else:  # ast
                from smithy2cfn.model.json_ast import model_to_json_ast, render_json_ast

                loaded = api.load(paths)
                diags = loaded.diagnostics
                if not loaded.ok:
                    res["rc"] = 1
                else:
                    text = render_json_ast(model_to_json_ast(loaded.model))
                    if case.out:
                        api.write_atomically(Path(case.out), text)
                    else:
                        res["ast"] = text
                    res["rc"] = 0
            for dd in diags or []:
                if dd.code == "S3099" or "internal error" in dd.message.lower():
                    res["internal"].append(f"{dd.code}: {dd.message}")
            for dd in diags or []:
                err.write(f"{dd.code} {dd.message[:200]}\n")
        except BaseException as e:  # noqa: BLE001 - this is the oracle: any exception is a finding
            res["exc"] = traceback.format_exc()
            res["rc"] = 1
            if isinstance(e, (MemoryError, RecursionError, KeyboardInterrupt, SystemExit)):
                res["restart"] = True
        res["elapsed"] = time.monotonic() - t0
        res["stderr"] = err.getvalue()[-4000:]
        try:
            line = json.dumps(res, ensure_ascii=True).encode()
        except (ValueError, TypeError, RecursionError) as e:
            line = json.dumps({"rc": 1, "exc": f"unserializable result: {e}", "restart": True}).encode()
        proto.write(line + b"\n")
        proto.flush()
        os.chdir("/")


# ============================================================================ shrinking

def _ddmin(items: list, test, deadline: float) -> list:
    n = 2
    while len(items) >= 2 and time.monotonic() < deadline:
        chunk = max(1, math.ceil(len(items) / n))
        reduced = False
        for i in range(0, len(items), chunk):
            if time.monotonic() >= deadline:
                break
            cand = items[:i] + items[i + chunk:]
            if test(cand):
                items = cand
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(items), n * 2)
    return items


def _shrink_json(value: Any, test, deadline: float) -> Any:
    """Remove object members / list items while ``test(new_value)`` holds (top-down)."""
    def paths(v: Any, prefix: tuple) -> list[tuple]:
        out = []
        if isinstance(v, dict) and not _is_fz(v):
            for k in list(v):
                out.append(prefix + (k,))
                out += paths(v[k], prefix + (k,))
        elif isinstance(v, list):
            for i in range(len(v)):
                out.append(prefix + (i,))
                out += paths(v[i], prefix + (i,))
        return out

    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        for p in paths(value, ()):
            if time.monotonic() >= deadline:
                break
            cand = copy.deepcopy(value)
            node = cand
            try:
                for k in p[:-1]:
                    node = node[k]
                del node[p[-1]]
            except (KeyError, IndexError, TypeError):
                continue
            if test(cand):
                value = cand
                changed = True
                break
    return value


def shrink(case: Case, signature: str, runner: Runner, budget: float) -> Case:
    """A smaller case that still fails with ``signature`` (bounded by ``budget`` seconds)."""
    deadline = time.monotonic() + budget
    best = copy.deepcopy(case)

    def fails(c: Case) -> bool:
        try:
            _, failures = runner.run(c)
        except Exception:  # noqa: BLE001 - a broken candidate is just not a reproducer
            return False
        return any(x.signature == signature for x in failures)

    if signature.startswith("timeout:") and case.recipe is None:
        return best
    # flags and setup
    for i in range(len(best.flags) - 1, -1, -1):
        if time.monotonic() >= deadline:
            break
        c = copy.deepcopy(best)
        if c.flags[i] in ("--format", "--org", "--service-name", "--service") and i + 1 < len(c.flags):
            del c.flags[i:i + 2]
        else:
            del c.flags[i]
        if fails(c):
            best = c
    # setup operations (cache state, env, fifo...), one at a time
    for i in range(len(best.setup) - 1, -1, -1):
        if time.monotonic() >= deadline:
            break
        c = copy.deepcopy(best)
        del c.setup[i]
        if fails(c):
            best = c
    # recipe size: the smallest n that still fails (bisection)
    if best.recipe is not None:
        lo = int(RECIPES.get(best.recipe["name"], (1, 0, 0))[0] // 10) if best.recipe["name"] != "regex-huge-repeat" else 0
        hi = int(best.recipe["n"])
        while hi - lo > max(1, hi // 20) and time.monotonic() < deadline:
            mid = (lo + hi) // 2
            c = copy.deepcopy(best)
            c.recipe["n"] = mid
            if fails(c):
                hi = mid
                best = c
            else:
                lo = mid
    # settings
    if isinstance(best.settings, (dict, list)):
        def t_settings(v: Any) -> bool:
            c = copy.deepcopy(best)
            c.settings = v
            return fails(c)
        best.settings = _shrink_json(best.settings, t_settings, min(deadline, time.monotonic() + budget / 4))
    # files: drop whole files, then lines, then tokens
    names = sorted(best.files)
    if names:
        def t_files(keep: list) -> bool:
            c = copy.deepcopy(best)
            c.files = {k: c.files[k] for k in keep}
            return fails(c)
        keep = _ddmin(names, t_files, deadline)
        if len(keep) == 1 and t_files([]):
            keep = []
        best.files = {k: best.files[k] for k in keep}
    for name in sorted(best.files):
        content = best.files[name]
        if isinstance(content, bytes):
            try:
                content = content.decode("utf-8")
            except UnicodeDecodeError:
                chunks = [content[i:i + 64] for i in range(0, len(content), 64)]

                def t_bytes(parts: list, name=name) -> bool:
                    c = copy.deepcopy(best)
                    c.files[name] = b"".join(parts)
                    return fails(c)
                best.files[name] = b"".join(_ddmin(chunks, t_bytes, deadline))
                continue
        if name.endswith(".json"):
            try:
                doc = json.loads(content)
            except (ValueError, RecursionError):
                doc = None
            if isinstance(doc, (dict, list)):
                def t_doc(v: Any, name=name) -> bool:
                    c = copy.deepcopy(best)
                    try:
                        c.files[name] = json.dumps(v, indent=1, allow_nan=True)
                    except (ValueError, RecursionError):
                        return False
                    return fails(c)
                if t_doc(doc):
                    doc = _shrink_json(doc, t_doc, min(deadline, time.monotonic() + budget / 2))
                    best.files[name] = json.dumps(doc, indent=1, allow_nan=True)
                    content = best.files[name]
        lines = content.splitlines(keepends=True)

        def t_lines(parts: list, name=name) -> bool:
            c = copy.deepcopy(best)
            c.files[name] = "".join(parts)
            return fails(c)
        best.files[name] = "".join(_ddmin(lines, t_lines, deadline))
        toks = tokenize(best.files[name])
        if len(toks) < 3000:
            def t_toks(parts: list, name=name) -> bool:
                c = copy.deepcopy(best)
                c.files[name] = "".join(parts)
                return fails(c)
            best.files[name] = "".join(_ddmin(toks, t_toks, deadline))
    return best


# ============================================================================ campaign

def _cache_template(runner: Runner, seeds: Seeds, dest: Path) -> Path | None:
    """A valid prelude cache made by the product itself (a cold CLI run), copied to ``dest``."""
    case = Case("setup", "setup", "cli", cmd="validate", api="validate", models=["in"], out=None,
                files={"in/m.smithy": _mini(MINI_P0)})
    runner.run(case)
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(runner.box / "home" / ".cache", dest / "cache", symlinks=True)
    shutil.copytree(runner.box / "tmp", dest / "tmp", symlinks=True)
    return dest


def run_campaign(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(args.work or f"/var/tmp/smithy2cfn-fuzz-{os.getpid()}")
    t_start = time.monotonic()
    seeds = Seeds(python=args.python, cache_dir=out / "seeds")
    weights = {}
    for part in filter(None, (args.weights or "").split(",")):
        k, _, v = part.partition("=")
        weights[k] = float(v)
    only = set(filter(None, (args.classes or "").split(",")))
    print(f"seeds: {len(seeds.idl)} IDL, {len(seeds.json_docs)} JSON AST, {len(seeds.aws)} AWS, "
          f"{len(seeds.builds)} builds ({sum(1 for b in seeds.builds if b.json_ast)} with JSON AST), "
          f"{len(seeds.traits)} traits", flush=True)
    runners = [Runner(work / f"j{j}", args.python, args.timeout, args.mem_limit_mb, None, args.allow_cache)
               for j in range(args.jobs)]
    tpl = _cache_template(runners[0], seeds, work / "cache-template")
    for r in runners:
        r.cache_template = tpl
    print(f"isolation (private /tmp, no DAC override): {runners[0].isolate}; cache template files: "
          f"{sum(1 for p in tpl.rglob('*') if p.is_file()) if tpl else 0}", flush=True)
    results: dict[int, tuple[Case, Outcome, list[Failure]]] = {}
    lock = threading.Lock()
    todo = collections.deque(range(args.inputs))
    done = [0]
    flog = open(out / "failures.jsonl", "w", encoding="utf-8")  # noqa: SIM115

    def job(runner: Runner) -> None:
        while True:
            with lock:
                if not todo:
                    return
                index = todo.popleft()
            case = make_case(index, args.seed, seeds, args.cli_fraction, weights)
            if only and case.gen not in only:
                continue
            try:
                outcome, failures = runner.run(case)
            except Exception as e:  # noqa: BLE001 - a harness problem must not end the campaign
                outcome = Outcome(None, b"", f"harness error: {e}", 0.0)
                failures = [Failure("harness", f"harness:{type(e).__name__}", traceback.format_exc()[-2000:])]
            # keep memory flat: outputs are checked already; inputs only of failing cases
            outcome.stdout, outcome.schemas, outcome.ast_text = b"", {}, None
            outcome.stderr = outcome.stderr[-20000:]
            if not failures:
                case.files = {}
            with lock:
                results[case.index] = (case, outcome, failures)
                done[0] += 1
                for x in failures:
                    flog.write(json.dumps({"index": case.index, "gen": case.gen, "tag": case.tag, "mode": case.mode,
                                           "kind": x.kind, "signature": x.signature, "detail": x.detail[:1500]})
                               + "\n")
                flog.flush()
                if done[0] % args.progress == 0:
                    el = time.monotonic() - t_start
                    nf = sum(1 for v in results.values() if v[2])
                    print(f"[{done[0]}/{args.inputs}] {el:.0f} s, {nf} failing inputs", flush=True)

    threads = [threading.Thread(target=job, args=(r,), daemon=True) for r in runners]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # timeouts: retry once, alone, to tell load from a real hang
    retried = {"confirmed": 0, "flaky": 0}
    for idx in sorted(results):
        case, o, failures = results[idx]
        if any(x.kind == "timeout" for x in failures):
            _, again = runners[0].run(case)
            if any(x.kind == "timeout" for x in again):
                retried["confirmed"] += 1
            else:
                retried["flaky"] += 1
                results[idx] = (case, o, [x for x in failures if x.kind != "timeout"] +
                                [x for x in again if x.kind != "timeout" and x.signature not in
                                 {y.signature for y in failures}])
    t_run = time.monotonic() - t_start
    # summary
    gens = sorted(GENERATORS)
    table = {g: {"inputs": 0, "cli": 0, "exit0": 0, **{k: 0 for k in KINDS}} for g in gens}
    classes: dict[str, list[int]] = collections.defaultdict(list)
    for idx, (case, _o, failures) in sorted(results.items()):
        row = table[case.gen]
        row["inputs"] += 1
        row["cli"] += case.mode == "cli"
        row["exit0"] += _o.rc == 0
        for k in {x.kind for x in failures}:
            if k in row:
                row[k] += 1
        for x in failures:
            classes[x.signature].append(idx)
    total = {"inputs": 0, "cli": 0, "exit0": 0, **{k: 0 for k in KINDS}}
    for g in gens:
        for k in total:
            total[k] += table[g][k]
    lines = [f"smithy2cfn fuzz campaign: seed {args.seed}, {len(results)} inputs "
             f"({total['cli']} CLI, {len(results) - total['cli']} API), jobs {args.jobs}, "
             f"run {t_run:.0f} s, isolation {runners[0].isolate}",
             f"timeouts retried alone: {retried['confirmed']} confirmed, {retried['flaky']} did not recur (not counted)",
             ""]
    head = ["generator", "inputs", "cli", "exit0", *KINDS]
    widths = [max(len(h), 14 if i == 0 else 6) for i, h in enumerate(head)]
    lines.append("  ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(head, widths, strict=True))))
    for g in [*gens, "TOTAL"]:
        row = table[g] if g != "TOTAL" else total
        vals = [g] + [str(row[h]) for h in head[1:]]
        lines.append("  ".join(v.rjust(w) if i else v.ljust(w) for i, (v, w) in enumerate(zip(vals, widths, strict=True))))
    lines.append("")
    lines.append(f"failure classes: {len(classes)}")
    repro_dir = out / "repro"
    if repro_dir.exists():
        shutil.rmtree(repro_dir)
    t_shrink = time.monotonic()
    summary_classes = []
    for sig, idxs in sorted(classes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        cands = sorted(idxs, key=lambda i: results[i][0].size())
        case = results[cands[0]][0]
        fail = next(x for x in results[cands[0]][2] if x.signature == sig)
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", sig)[:90]
        small = case
        if args.shrink_seconds > 0 and time.monotonic() - t_shrink < args.shrink_total:
            small = shrink(case, sig, runners[0], args.shrink_seconds)
        save_case(small, repro_dir / slug)
        (repro_dir / slug / "failure.txt").write_text(f"{sig}\n\n{fail.detail}\n", encoding="utf-8")
        gens_hit = collections.Counter(results[i][0].gen for i in idxs)
        summary_classes.append({"signature": sig, "kind": fail.kind, "count": len(idxs), "generators": dict(gens_hit),
                                "example": cands[0], "repro": str(repro_dir / slug), "detail": fail.detail[:600]})
        lines.append(f"  {len(idxs):5d}  {sig}   [{', '.join(f'{g}:{n}' for g, n in sorted(gens_hit.items()))}]"
                     f"   repro/{slug}")
    lines.append("")
    lines.append(f"total time {time.monotonic() - t_start:.0f} s (run {t_run:.0f} s, shrinking "
                 f"{time.monotonic() - t_shrink:.0f} s)")
    text = "\n".join(lines) + "\n"
    (out / "summary.txt").write_text(text, encoding="utf-8")
    (out / "summary.json").write_text(json.dumps({"seed": args.seed, "inputs": len(results), "table": table,
                                                  "total": total, "classes": summary_classes,
                                                  "seconds": t_run, "timeouts_retried": retried}, indent=2),
                                      encoding="utf-8")
    print(text)
    for r in runners:
        r.close()
    flog.close()
    if not args.keep_work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if classes else 0


def replay(args: argparse.Namespace) -> int:
    case = load_case(Path(args.replay))
    if args.mode:
        case.mode = args.mode
    work = Path(args.work or f"/var/tmp/smithy2cfn-fuzz-replay-{os.getpid()}")
    runner = Runner(work / "j0", args.python, args.timeout, args.mem_limit_mb, None, args.allow_cache)
    try:
        runner.cache_template = _cache_template(runner, None, work / "cache-template")
        o, failures = runner.run(case)
    finally:
        runner.close()
    print(f"mode {case.mode} cmd {case.cmd}: exit {o.rc}, {o.elapsed:.2f} s, timed out {o.timed_out}")
    print("argv:", " ".join(runner._argv(case, runner.box)))
    if o.stderr:
        print("stderr (end):\n" + o.stderr[-3000:])
    for x in failures:
        print(f"FAIL {x.signature}\n  {x.detail[:1500]}")
    if not args.keep_work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", type=int, default=10000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="/tmp/fuzz-report")
    ap.add_argument("--work", help="sandbox folder (default /var/tmp/smithy2cfn-fuzz-PID; not under /tmp, "
                                   "which each child gets privately)")
    ap.add_argument("--python", default=sys.executable, help="interpreter with smithy2cfn installed")
    ap.add_argument("--timeout", type=float, default=TIMEOUT)
    ap.add_argument("--cli-fraction", type=float, default=0.25)
    ap.add_argument("--weights", help="generator weights, e.g. stress=20,odd-paths=5")
    ap.add_argument("--classes", help="only these generators (comma-separated)")
    ap.add_argument("--mem-limit-mb", type=int, default=4096, help="address-space limit of each child")
    ap.add_argument("--allow-cache", action="store_true",
                    help="do not count writes to $XDG_CACHE_HOME/smithy2cfn as writes outside -o")
    ap.add_argument("--shrink-seconds", type=float, default=40.0, help="shrinking budget per failure class")
    ap.add_argument("--shrink-total", type=float, default=1800.0, help="stop shrinking new classes after this")
    ap.add_argument("--progress", type=int, default=250)
    ap.add_argument("--keep-work", action="store_true")
    ap.add_argument("--replay", help="run one reproducer folder (case.json) and print the verdict")
    ap.add_argument("--mode", choices=["cli", "api"], help="with --replay: force the mode")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker_main()
        return 0
    if args.replay:
        return replay(args)
    return run_campaign(args)


if __name__ == "__main__":
    sys.exit(main())
