#!/usr/bin/env python3
"""Judge: real ``smithy-build.json`` files built side by side by smithy2cfn and the Java toolchain.

Usage::

    SMITHY2CFN_REFERENCE_BUILD_CMD='/work/ref/smithy-build.sh {configs} {projection} {output}' \\
        python tools/judge_smithy_build.py [--cases DIR] [--case NAME]... [--keep DIR] [--json FILE] [-v]

Each case is a folder of ``--cases`` (default ``tools/judge-cases/``) holding one or more
``smithy-build.json`` files and the models they name, and an optional ``case.json``::

    {"about": "what the case exercises",
     "configs": ["smithy-build.json", "more.json"],     # default ["smithy-build.json"], merged in order
     "env": {"ORG": "Acme"},                              # ${NAME} variables of the files
     "projection": "public",                              # --projection NAME (default: all)
     "output": "out",                                     # -o out / smithy build --output out
     "needs_shared": true,                                # reads ../shared (skipped when absent)
     "deliberate": "README section: why the outputs differ"}   # a documented difference

Both builds run in their own empty folder as the current folder (where ``outputDirectory``,
default ``build/smithy``, is resolved), with the case's ``env`` plus ``SMITHY2CFN_SHARED`` (the
absolute path of ``../shared`` beside the repository, for cases that read the conformance
models in place: ``"sources": ["${SMITHY2CFN_SHARED}/conformance/cfn/weather.smithy"]``) and
``SMITHY2CFN_REPO`` (the repository):

* ours: ``python -m smithy2cfn build -c CONFIG... [--projection NAME] [-o DIR]`` with this interpreter;
* the reference: the command template of ``SMITHY2CFN_REFERENCE_BUILD_CMD``, whose ``{configs}``
  becomes ``-c CONFIG`` for each config file (absolute, shell-quoted), ``{projection}``
  ``--projection NAME`` or nothing, and ``{output}`` ``--output DIR`` or nothing; it must
  behave as ``smithy build`` (``/work/ref/smithy-build.sh`` runs the reference's
  ``SmithyBuild`` through ``BuildMain``, see ``/work/ref/README.txt``).

Comparison, per case: whether each build succeeded (exit status 0) or failed; when both
succeeded, per projection (``<output>/<projection>/``, found as the folder two levels above each
artifact file), the set of artifact files (``cloudformation/acme-vault-vault.json``) and each
file's JSON, equal as parsed JSON; the first differing JSON pointer is printed. Smithy's own
artifacts (``model/``, ``build-info/``, ``sources/`` of a projection, which smithy2cfn does not
write: README "smithy-build.json") are left out of the reference's side. When both whole
builds failed, each projection the reference tried (a ``build-info/`` folder) is built again
alone on both sides with ``--projection NAME`` and compared the same way: smithy2cfn writes
nothing when one projection fails, where Smithy still writes the others, so one broken
projection does not hide the rest (the messages of failures are not compared).

The projected models too (unless ``--no-models``): when both builds succeeded, for each
projection whose ``model/model.json`` the reference wrote, ``smithy2cfn ast --projection NAME``
of the same configs, compared shape by shape as parsed JSON, leaving out the namespaces of
the built-in trait packages (the reference writes every package on its class path), and the
metadata: what each transform did to the model, beyond what reaches a schema. A case with
``deliberate`` that differs is counted apart (a difference the README documents), never as passed.

Output: one line per case (``PASS``, ``FAIL``, ``DELIBERATE``, ``SKIP``) with the number of
files compared as JSON and the first difference, then ``passed P/T``; ``--json FILE`` writes the same as JSON. Cases run in name
order and the report is deterministic (no times). Exit status 0 when no case failed, 1 when
one did, 2 on bad usage (no reference command).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CASES = Path(__file__).resolve().parent / "judge-cases"
ENV_CMD = "SMITHY2CFN_REFERENCE_BUILD_CMD"
#: The artifacts every Smithy projection gets from the Java toolchain's default plugins.
SMITHY_ONLY_ARTIFACTS = frozenset({"model", "build-info", "sources"})
#: Seconds each build may take.
TIMEOUT = 300


def pointer_escape(token: str) -> str:
    """One JSON pointer reference token (RFC 6901 section 3: ``~`` → ``~0``, ``/`` → ``~1``)."""
    return token.replace("~", "~0").replace("/", "~1")


def first_difference(a: object, b: object, path: str = "") -> str | None:
    """The JSON pointer (RFC 6901) of the first place where JSON values ``a`` and ``b`` differ.

    Objects are compared key by key in sorted order (a key on one side only differs at that
    key), arrays element by element (a length difference at the first missing index), and
    scalars by value and JSON type (``1`` and ``1.0`` are equal, ``1`` and ``true`` are not).
    ``None`` when they are equal; ``""`` (the whole document) when the top-level values differ.
    """
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            where = f"{path}/{pointer_escape(key)}"
            if key not in a or key not in b:
                return where
            found = first_difference(a[key], b[key], where)
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for index in range(max(len(a), len(b))):
            where = f"{path}/{index}"
            if index >= len(a) or index >= len(b):
                return where
            found = first_difference(a[index], b[index], where)
            if found is not None:
                return found
        return None
    if isinstance(a, bool) or isinstance(b, bool):
        return None if type(a) is type(b) and a == b else path
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return None if a == b else path
    return None if type(a) is type(b) and a == b else path


def collect(root: Path, *, reference: bool) -> dict[str, dict[str, Path]]:
    """The artifact files under ``root`` by projection: ``{"build/smithy/public": {"cloudformation/x.json": path}}``.

    A file at ``<output>/<projection>/<artifact>/<name>`` belongs to the projection folder
    ``<output>/<projection>`` (relative to ``root``, ``/``-separated). On the reference's side
    the artifacts of Smithy's default plugins (``SMITHY_ONLY_ARTIFACTS``) are left out; every
    file of either side is otherwise listed, so a stray file is a difference.
    """
    found: dict[str, dict[str, Path]] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).parts
        if reference and any(
            rel[depth] in SMITHY_ONLY_ARTIFACTS
            and root.joinpath(*rel[:depth], "build-info", "smithy-build-info.json").is_file()
            for depth in range(1, len(rel) - 1)
        ):
            continue  # <projection>/{model,build-info,sources}/...: the default plugins' files
        if len(rel) < 3:
            found.setdefault(".", {})["/".join(rel)] = path
            continue
        found.setdefault("/".join(rel[:-2]), {})["/".join(rel[-2:])] = path
    return found


def compare_outputs(ours: dict[str, dict[str, Path]], ref: dict[str, dict[str, Path]]) -> list[str]:
    """The differences between two ``collect`` results, in a stable order (empty: equal).

    Per projection folder: missing on one side, artifact files on one side only, and per
    common file the first differing JSON pointer (or that one side is not JSON).
    """
    problems: list[str] = []
    for proj in sorted(set(ours) | set(ref)):
        if proj not in ours:
            problems.append(f"{proj}: only the reference wrote it ({', '.join(sorted(ref[proj]))})")
            continue
        if proj not in ref:
            problems.append(f"{proj}: only smithy2cfn wrote it ({', '.join(sorted(ours[proj]))})")
            continue
        a, b = ours[proj], ref[proj]
        for name in sorted(set(a) - set(b)):
            problems.append(f"{proj}/{name}: only smithy2cfn wrote it")
        for name in sorted(set(b) - set(a)):
            problems.append(f"{proj}/{name}: only the reference wrote it")
        for name in sorted(set(a) & set(b)):
            try:
                doc_a = json.loads(a[name].read_text(encoding="utf-8"))
                doc_b = json.loads(b[name].read_text(encoding="utf-8"))
            except (ValueError, UnicodeDecodeError):
                if a[name].read_bytes() != b[name].read_bytes():
                    problems.append(f"{proj}/{name}: the bytes differ (not JSON)")
                continue
            where = first_difference(doc_a, doc_b)
            if where is not None:
                problems.append(f"{proj}/{name}: differs at {where!r}: smithy2cfn {_show(doc_a, where)}"
                                f" | reference {_show(doc_b, where)}")
    return problems


def _show(doc: object, pointer: str) -> str:
    """The value at ``pointer`` in ``doc``, as short JSON (``<absent>`` when it is not there)."""
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(doc, dict) and token in doc:
            doc = doc[token]
        elif isinstance(doc, list) and token.isdigit() and int(token) < len(doc):
            doc = doc[int(token)]
        else:
            return "<absent>"
    text = json.dumps(doc, sort_keys=True)
    return text if len(text) <= 160 else text[:157] + "..."


class Case:
    """One case folder: its configs (absolute paths), env, projection, flags from ``case.json``."""

    def __init__(self, folder: Path) -> None:
        folder = folder.resolve()  # the builds run in folders of their own
        meta = json.loads((folder / "case.json").read_text(encoding="utf-8")) if (folder / "case.json").is_file() else {}
        self.name = folder.name
        self.folder = folder
        self.about: str = meta.get("about", "")
        self.configs = [folder / c for c in meta.get("configs", ["smithy-build.json"])]
        self.env: dict[str, str] = dict(meta.get("env", {}))
        self.projection: str | None = meta.get("projection")
        self.output: str | None = meta.get("output")
        self.needs_shared: bool = bool(meta.get("needs_shared", False))
        self.deliberate: str | None = meta.get("deliberate")


def _build(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, list[str]]:
    """Runs one build in ``cwd``: (exit status, last 3 lines of stderr); -1 on a timeout."""
    cwd.mkdir(parents=True)
    try:
        proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return -1, [f"timed out after {TIMEOUT} s"]
    return proc.returncode, (proc.stderr or "").strip().splitlines()[-3:]


def _side_by_side(case: Case, template: str, env: dict[str, str], tmp: Path,
                  projection: str | None, models: bool) -> tuple[dict, list[str]]:
    """Builds both sides (``projection``: ``--projection NAME``, or the case's own) in ``tmp``;
    (exit statuses and stderr tails, differences)."""
    projection = projection or case.projection
    configs = " ".join(f"-c {shlex.quote(str(c))}" for c in case.configs)
    ours_argv = [sys.executable, "-m", "smithy2cfn", "build", "-q"]
    for c in case.configs:
        ours_argv += ["-c", str(c)]
    if projection:
        ours_argv += ["--projection", projection]
    if case.output:
        ours_argv += ["-o", case.output]
    ref_argv = shlex.split(template.format(
        configs=configs, projection=f"--projection {shlex.quote(projection)}" if projection else "",
        output=f"--output {shlex.quote(case.output)}" if case.output else ""))
    runs = {"ours": _build(ours_argv, tmp / "ours", env), "reference": _build(ref_argv, tmp / "reference", env)}
    info = {"ours_rc": runs["ours"][0], "ours_stderr": runs["ours"][1],
            "reference_rc": runs["reference"][0], "reference_stderr": runs["reference"][1]}
    ok_ours, ok_ref = runs["ours"][0] == 0, runs["reference"][0] == 0
    where = f"[--projection {projection}] " if projection and not case.projection else ""
    if ok_ours != ok_ref:
        return info, [f"{where}smithy2cfn {'succeeded' if ok_ours else 'failed'} (exit {runs['ours'][0]}), "
                      f"the reference {'succeeded' if ok_ref else 'failed'} (exit {runs['reference'][0]})"]
    if not ok_ours:
        return info, []
    ours, ref = collect(tmp / "ours", reference=False), collect(tmp / "reference", reference=True)
    info["compared"] = sum(len(set(ours[p]) & set(ref[p])) for p in set(ours) & set(ref))
    differences = compare_outputs(ours, ref)
    if models:
        info["models_compared"], found = _compare_projected_models(case, env, tmp)
        differences += found
    return info, [where + d for d in differences]


def attempted_projections(root: Path) -> list[str]:
    """The projections the reference built or tried to (a ``build-info/`` folder: Smithy's
    build-info plugin runs even when the projected model is broken), sorted."""
    return sorted({p.parent.parent.name for p in root.rglob("build-info/smithy-build-info.json")})


def builtin_namespaces() -> frozenset[str]:
    """The namespaces of smithy2cfn's built-in prelude and trait packages (``smithy.api``,
    ``aws.cloudformation``...: one ``<namespace>.smithy`` file each in ``smithy2cfn.prelude``),
    which are also the namespaces of the reference's trait jars."""
    import smithy2cfn.prelude

    return frozenset(p.stem for p in Path(smithy2cfn.prelude.__file__).parent.glob("*.smithy"))


def compare_models(ours: dict, ref: dict, builtin: frozenset[str]) -> str | None:
    """The first difference between two JSON AST models (``smithy2cfn ast`` and Smithy's
    ``model/model.json``), leaving out the shapes of the built-in namespaces (the reference
    writes every trait package on its class path, smithy2cfn none): a shape ID on one side
    only, else the first differing JSON pointer of a shape, else of ``metadata``. ``None``
    when they are equal."""
    def user(doc: dict) -> dict:
        return {k: v for k, v in (doc.get("shapes") or {}).items() if k.partition("#")[0] not in builtin}

    mine, theirs = user(ours), user(ref)
    for sid in sorted(set(mine) ^ set(theirs)):
        return f"shape {sid}: only {'smithy2cfn' if sid in mine else 'the reference'} has it"
    for sid in sorted(mine):
        where = first_difference(mine[sid], theirs[sid])
        if where is not None:
            return (f"shape {sid} differs at {where!r}: smithy2cfn {_show(mine[sid], where)} | "
                    f"reference {_show(theirs[sid], where)}")
    where = first_difference(ours.get("metadata", {}), ref.get("metadata", {}))
    if where is not None:
        return (f"metadata differs at {where!r}: smithy2cfn {_show(ours.get('metadata', {}), where)} | "
                f"reference {_show(ref.get('metadata', {}), where)}")
    return None


def _compare_projected_models(case: Case, env: dict[str, str], tmp: Path) -> tuple[int, list[str]]:
    """For each projection whose ``model/model.json`` the reference wrote in ``tmp/reference``,
    ``smithy2cfn ast --projection NAME`` of the same configs, compared by :func:`compare_models`:
    (models compared, differences)."""
    builtin = builtin_namespaces()
    problems: list[str] = []
    compared = 0
    for model_json in sorted((tmp / "reference").rglob("model/model.json")):
        name = model_json.parent.parent.name
        out = tmp / "ast" / f"{name}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        argv = [sys.executable, "-m", "smithy2cfn", "ast", "-o", str(out), "--projection", name]
        for c in case.configs:
            argv += ["-c", str(c)]
        proc = subprocess.run(argv, cwd=tmp, env=env, capture_output=True, text=True, timeout=TIMEOUT)
        if proc.returncode != 0 or not out.is_file():
            problems.append(f"{name}/model: smithy2cfn ast failed (exit {proc.returncode})")
            continue
        compared += 1
        found = compare_models(json.loads(out.read_text(encoding="utf-8")),
                               json.loads(model_json.read_text(encoding="utf-8")), builtin)
        if found is not None:
            problems.append(f"{name}/model: {found}")
    return compared, problems


def run_case(case: Case, template: str, keep: Path | None, models: bool = True) -> dict:
    """Builds ``case`` both ways and compares.

    Returns ``{"case", "about", "verdict", "ours_rc", "reference_rc", "differences", ...}``.
    When both whole builds fail and the case builds every projection, each projection the
    reference tried is built again alone on both sides (``--projection NAME``) and compared:
    smithy2cfn writes nothing when one projection fails, where Smithy writes the others, so
    one failing projection must not hide the others ("per_projection" lists them).
    """
    result: dict = {"case": case.name, "about": case.about}
    if case.needs_shared and not SHARED.is_dir():
        return {**result, "verdict": "SKIP", "differences": [f"{SHARED} is absent"]}
    env = {**os.environ, **case.env, "SMITHY2CFN_SHARED": str(SHARED), "SMITHY2CFN_REPO": str(REPO)}
    env.pop("SMITHY_MAVEN_CACHE", None)
    with tempfile.TemporaryDirectory(prefix=f"judge-{case.name}-") as tmp_name:
        tmp = Path(tmp_name)
        info, differences = _side_by_side(case, template, env, tmp / "all", None, models)
        result.update(info)
        if not differences and info["ours_rc"] != 0 and not case.projection:
            projections = attempted_projections(tmp / "all" / "reference")
            result["per_projection"] = projections
            for name in projections:
                again, found = _side_by_side(case, template, env, tmp / f"projection-{name}", name, models)
                for key in ("compared", "models_compared"):
                    result[key] = result.get(key, 0) + again.get(key, 0)
                differences += found
        if keep is not None:
            dest = keep / case.name
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(tmp, dest)
    verdict = "PASS" if not differences else ("DELIBERATE" if case.deliberate else "FAIL")
    return {**result, "verdict": verdict, "differences": differences,
            **({"deliberate": case.deliberate} if case.deliberate else {})}


def main(argv: list[str] | None = None) -> int:
    """Command line: runs the cases, prints one line per case and ``passed P/T``; exit 0/1/2."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=CASES, help="folder of case folders")
    parser.add_argument("--case", action="append", default=[], help="run only this case (repeatable)")
    parser.add_argument("--keep", type=Path, help="copy both output folders of each case here")
    parser.add_argument("--json", type=Path, help="write the results as JSON to this file")
    parser.add_argument("--no-models", action="store_true",
                        help="do not compare the projected models (smithy2cfn ast against model/model.json)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every difference and the stderr tails")
    args = parser.parse_args(argv)
    template = os.environ.get(ENV_CMD)
    if not template:
        print(f"{ENV_CMD} is not set: give the reference's `smithy build` command, for example "
              f"{ENV_CMD}='/work/ref/smithy-build.sh {{configs}} {{projection}} {{output}}'", file=sys.stderr)
        return 2
    folders = sorted(p for p in args.cases.iterdir() if p.is_dir() and any(p.glob("*.json")))
    if args.case:
        folders = [p for p in folders if p.name in args.case]
    results = []
    for folder in folders:
        res = run_case(Case(folder), template, args.keep, models=not args.no_models)
        results.append(res)
        line = (f"{res['verdict']:<10} {res['case']} ({res.get('compared', 0)} files, "
                f"{res.get('models_compared', 0)} models compared)")
        if res["differences"]:
            line += f": {res['differences'][0]}"
            if len(res["differences"]) > 1:
                line += f" (+{len(res['differences']) - 1} more)"
        print(line, flush=True)
        if args.verbose and res["verdict"] != "SKIP":
            for diff in res["differences"][1:]:
                print(f"           {diff}")
            if res.get("deliberate"):
                print(f"           deliberate: {res['deliberate']}")
            for side in ("ours", "reference"):
                for text in res.get(f"{side}_stderr", []):
                    print(f"           [{side} exit {res[f'{side}_rc']}] {text}")
    counted = [r for r in results if r["verdict"] != "SKIP"]
    passed = sum(r["verdict"] == "PASS" for r in counted)
    deliberate = sum(r["verdict"] == "DELIBERATE" for r in counted)
    failed = sum(r["verdict"] == "FAIL" for r in counted)
    skipped = len(results) - len(counted)
    compared = sum(r.get("compared", 0) for r in counted)
    models = sum(r.get("models_compared", 0) for r in counted)
    print(f"passed {passed}/{len(counted)} ({failed} failed, {deliberate} deliberate differences, {skipped} skipped; "
          f"{compared} files and {models} projected models compared)")
    if args.json:
        args.json.write_text(json.dumps({"passed": passed, "total": len(counted), "results": results},
                                        indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
