#!/usr/bin/env python3
"""Record what resource-schema-guard-rail ``--stateful`` says about each pair of the diff corpus.

Usage::

    python tools/record_guardrail_diff.py [--check] [--case NAME]... [--keep DIR] [-v]

The corpus (issue 17, ``smithy2cfn diff``) is two folders of cases:

* ``tests/diff/fixtures/pairs/<case>/``: ``old/model.smithy`` and ``new/model.smithy`` (any
  files the folders hold), built by smithy2cfn;
* ``tests/diff/fixtures/schema-pairs/<case>/``: ``old/*.json`` and ``new/*.json``, resource
  schemas written by hand, for guard-rail rules that no Smithy model reaches as smithy2cfn
  emits it;

each with a ``case.json``::

    {"description": "what the model change is, and anything surprising about it",
     "settings": {"service": "acme.vault#VaultService", "organizationName": "Acme"},  # pairs only
     "triggers": ["PR002"],     # rule IDs `diff` must report: guard-rail's (PR002) or ours (S7201..)
     "absent": ["PR002"],       # rule IDs it must NOT report (a case close to a rule that misses it)
     "guardrail": ["PR002"],    # what guard-rail --stateful reports on the built pair (written here)
     "guardrailMisses": ["TFDF002"],   # optional: guard-rail rules the change breaks but guard-rail
                                       # does not report (its bug, explained in the description)
     "guardrailError": "NotImplementedError"}  # optional: guard-rail cannot check the pair and
                                               # fails with this text (then "guardrail" is [])

For each case both sides are built in memory with ``smithy2cfn.api.build([case/side], None,
settings)`` (the default, registry-ready mode; the build must succeed: exit code 0, no error),
the schemas of the two sides are paired by ``typeName`` (a type on one side only is not
compared: a type removed or added), written under a work folder
(``<kind>/<case>/<side>/<Org-Service-Resource>.json``), and every pair of every case goes
through one run of guard-rail (``TMP/sgr/bin/python ../shared/tools/guardrail/guardrail.py
--stateful --json OLD NEW OLD NEW ...``; set it up once with ``sh
../shared/tools/guardrail/setup-guardrail.sh``). The sorted, unique ``check_id`` values of all
the case's pairs are written into its ``case.json`` as ``"guardrail"`` (the rest of the file is
kept, rewritten with an indent of 2).

Then the corpus is verified: every guard-rail rule ID in ``"triggers"`` must be among
``"guardrail"`` (except those in ``"guardrailMisses"``, which must not be), no ID of
``"absent"`` may be, and every ID guard-rail reports must be in ``"triggers"`` (issue 17:
``diff`` reports every guard-rail finding under the same ID). A case with ``"guardrailError"``
must make guard-rail fail with that text; any other case must not make it fail. ``S7xxx``
codes (ours) are not checked here: guard-rail does not know them.

Options: ``--check`` compares instead of writing (exit 1 when a recorded list differs);
``--case NAME`` (repeatable) only those cases; ``--keep DIR`` builds into DIR and leaves the
schemas there (default: a temporary folder, deleted); ``-v`` prints each case's IDs.

Exit codes: 0 all recorded (or, with ``--check``, all as recorded) and verified; 1 a recorded
list differs (``--check``) or the verification fails; 2 a case is malformed, a build fails,
guard-rail is not set up or cannot check a pair.

The test ``tests/diff/test_pairs_corpus.py`` imports this module (``case_dirs``,
``load_case``, ``build_side``, ``judge``, ``verify``) and asserts the recorded lists.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "diff" / "fixtures"
PAIRS = FIXTURES / "pairs"
SCHEMA_PAIRS = FIXTURES / "schema-pairs"
GUARDRAIL_SCRIPT = REPO.parent / "shared" / "tools" / "guardrail" / "guardrail.py"
GUARDRAIL_PYTHON = Path(tempfile.gettempdir()) / "sgr" / "bin" / "python"

#: guard-rail's stateful check IDs (rule_library/stateful/*.guard of resource-schema-guard-rail 0.0.22)
GUARDRAIL_RULES = (
    [f"PR00{i}" for i in range(1, 6)] + ["PID001", "PID002", "RQ001", "TP001", "TP002", "TP003", "ENM001"]
    + [f"ML00{i}" for i in range(1, 7)] + [f"MI{i:03d}" for i in range(1, 13)]
    + [f"TAG{i}" for i in range(100, 105)] + ["PAT001", "PAT002", "PAT003", "TFDF001", "TFDF002"]
)
#: smithy2cfn diff's own rules (issue 17): breaking changes guard-rail misses, and notes
OUR_RULES = [f"S720{i}" for i in range(1, 9)] + [f"S730{i}" for i in range(1, 7)]
_KNOWN = set(GUARDRAIL_RULES) | set(OUR_RULES)
_GUARDRAIL_ID = re.compile(r"^(PR|PID|RQ|TP|ENM|ML|MI|TAG|PAT|TFDF)[0-9]{3}$")


class CaseError(Exception):
    """A case that cannot be used: a malformed ``case.json``, a missing side, a failed build."""


class Case:
    """One case folder.

    Attributes:
        name: the folder's name.
        path: the folder.
        kind: ``"pairs"`` (Smithy models, built) or ``"schema-pairs"`` (schemas as they are).
        data: the parsed ``case.json`` (``description``, ``settings`` for pairs, ``triggers``,
            ``absent``, ``guardrail``).
    """

    __slots__ = ("name", "path", "kind", "data")

    def __init__(self, name: str, path: Path, kind: str, data: dict[str, Any]) -> None:
        self.name, self.path, self.kind, self.data = name, path, kind, data

    def __repr__(self) -> str:
        return f"Case({self.kind}/{self.name})"


def case_dirs(names: list[str] | None = None) -> list[tuple[str, Path]]:
    """``(kind, folder)`` of every case (``kind`` ``"pairs"`` or ``"schema-pairs"``), sorted by
    kind then name; only the named ones when ``names`` is given."""
    out = []
    for kind, root in (("pairs", PAIRS), ("schema-pairs", SCHEMA_PAIRS)):
        if root.is_dir():
            out += [(kind, d) for d in sorted(root.iterdir()) if d.is_dir() and (not names or d.name in names)]
    return out


def load_case(kind: str, path: Path) -> Case:
    """Read and check ``path/case.json``.

    Raises:
        CaseError: a missing or malformed file (unknown keys, a rule ID that is neither
            guard-rail's nor ours, missing ``settings`` in a model pair, an ID both triggered
            and absent, a missing ``old/`` or ``new/`` side).
    """
    file = path / "case.json"
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise CaseError(f"{file}: {err}") from err
    allowed = {"description", "settings", "triggers", "absent", "guardrail", "guardrailMisses", "guardrailError"}
    problems = []
    if not isinstance(data, dict):
        raise CaseError(f"{file}: not a JSON object")
    if set(data) - allowed:
        problems.append(f"unknown keys {sorted(set(data) - allowed)}")
    if not isinstance(data.get("description"), str) or not data["description"].strip():
        problems.append("no description")
    for key in ("triggers", "absent", "guardrail", "guardrailMisses"):
        value = data.get(key, []) if key == "guardrailMisses" else data.setdefault(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            problems.append(f"{key} is not a list of strings")
        elif key in ("triggers", "absent") and set(value) - _KNOWN:
            problems.append(f"{key}: unknown rule IDs {sorted(set(value) - _KNOWN)}")
    if not isinstance(data.get("guardrailError", ""), str):
        problems.append("guardrailError is not a string")
    if not problems and not set(data.get("guardrailMisses", [])) <= set(data["triggers"]):
        problems.append("guardrailMisses must be rules the case triggers")
    if not problems and set(data["triggers"]) & set(data["absent"]):
        problems.append(f"both triggered and absent: {sorted(set(data['triggers']) & set(data['absent']))}")
    if kind == "pairs":
        settings = data.get("settings")
        if not isinstance(settings, dict) or not {"service", "organizationName"} <= set(settings):
            problems.append("settings must give service and organizationName")
    elif "settings" in data:
        problems.append("a schema pair has no settings")
    for side in ("old", "new"):
        if not (path / side).is_dir():
            problems.append(f"no {side}/ folder")
    if problems:
        raise CaseError(f"{file}: " + "; ".join(problems))
    return Case(path.name, path, kind, data)


def build_side(case: Case, side: str, out_dir: Path | None) -> dict[str, dict[str, Any]]:
    """typeName → schema of one side (``"old"`` or ``"new"``) of ``case``.

    A model pair is built with ``smithy2cfn.api.build([case/side], out_dir, settings)``
    (``out_dir`` ``None``: nothing written); a schema pair's ``*.json`` files are read.

    Raises:
        CaseError: the build failed (its errors in the message), or two schemas of one side
            have the same typeName.
    """
    folder = case.path / side
    if case.kind == "pairs":
        from smithy2cfn import api

        result = api.build([str(folder)], out_dir, dict(case.data["settings"]))
        if result.exit_code != 0:
            errors = [f"{d.code} {d.message}" for d in result.diagnostics if d.severity.name in ("ERROR", "DANGER")]
            raise CaseError(f"{case.name}/{side}: the build failed (exit {result.exit_code}): {errors}")
        schemas = list(result.schemas.values())
    else:
        schemas = [json.loads(f.read_text(encoding="utf-8")) for f in sorted(folder.glob("*.json"))]
    by_type: dict[str, dict[str, Any]] = {}
    for schema in schemas:
        name = schema.get("typeName")
        if name in by_type:
            raise CaseError(f"{case.name}/{side}: two schemas of {name}")
        by_type[name] = schema
    return by_type


def write_pairs(case: Case, sides: dict[str, dict[str, dict[str, Any]]], work: Path) -> list[tuple[str, str]]:
    """Write each side's schema of every typeName the two sides share (``sides``: ``"old"``
    and ``"new"`` → typeName → schema) into ``work/<kind>/<case>/<side>/<typeName>.json``.

    Returns:
        ``(old file, new file)`` for each shared typeName, sorted by typeName.
    """
    pairs = []
    for name in sorted(set(sides["old"]) & set(sides["new"])):
        files = []
        for side in ("old", "new"):
            file = work / case.kind / case.name / side / (name.replace("::", "-") + ".json")
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(json.dumps(sides[side][name], indent=2) + "\n", encoding="utf-8")
            files.append(str(file))
        pairs.append((files[0], files[1]))
    return pairs


def guardrail_available() -> str | None:
    """``None`` when guard-rail can run here; otherwise why not (for a skip message)."""
    if not GUARDRAIL_SCRIPT.exists():
        return f"{GUARDRAIL_SCRIPT} is absent (the ../shared folder)"
    if not GUARDRAIL_PYTHON.exists():
        return f"guard-rail is not set up ({GUARDRAIL_PYTHON} is absent): run sh ../shared/tools/guardrail/setup-guardrail.sh"
    return None


def run_guardrail(pairs: list[tuple[str, str]], timeout: float = 600) -> dict[tuple[str, str], tuple[list[str], str | None]]:
    """Run guard-rail ``--stateful --json`` once over all ``(old, new)`` schema files.

    Returns:
        ``(old, new)`` → (the sorted unique check IDs it reported for that pair, ``None``), or
        ``([], error)`` when it could not check the pair (``error`` its message, e.g.
        ``NotImplementedError: Schemas with combiners are not yet supported ...``).

    Raises:
        CaseError: guard-rail is not set up, or prints no JSON.
    """
    why = guardrail_available()
    if why:
        raise CaseError(why)
    if not pairs:
        return {}
    argv = [str(GUARDRAIL_PYTHON), str(GUARDRAIL_SCRIPT), "--stateful", "--json"]
    for old, new in pairs:
        argv += [str(old), str(new)]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    try:
        report = json.loads(run.stdout)
    except ValueError as err:
        raise CaseError(f"guard-rail printed no JSON (exit {run.returncode}): {run.stderr[-2000:]}") from err
    out: dict[tuple[str, str], tuple[list[str], str | None]] = {}
    for doc in report["files"]:
        key = (doc["previous"], doc["file"])
        if "error" in doc:
            out[key] = ([], doc["error"])
        else:
            out[key] = (sorted({f["check_id"] for f in doc["findings"]}), None)
    return out


def verify(case: Case, found: list[str], error: str | None = None) -> list[str]:
    """What is wrong with ``found`` (guard-rail's IDs on ``case``) and ``error`` (its error
    on one of the case's pairs, or ``None``) against the case's ``triggers``, ``absent``,
    ``guardrailMisses`` and ``guardrailError``."""
    data, name = case.data, case.name
    problems = []
    expected_error = data.get("guardrailError")
    if expected_error is not None:
        if error is None or expected_error not in error:
            problems.append(f"{name}: guard-rail should fail with {expected_error!r}, got {error or found}")
        return problems
    if error is not None:
        return [f"{name}: guard-rail could not check the pair: {error[:300]}"]
    misses = data.get("guardrailMisses", [])
    for rule in data["triggers"]:
        if _GUARDRAIL_ID.match(rule) and rule not in found and rule not in misses:
            problems.append(f"{name}: triggers {rule} but guard-rail reports {found}")
    for rule in misses:
        if rule in found:
            problems.append(f"{name}: guardrailMisses lists {rule}, but guard-rail now reports it")
    for rule in data["absent"]:
        if rule in found:
            problems.append(f"{name}: {rule} must be absent but guard-rail reports it")
    for rule in found:
        if rule not in data["triggers"] and rule not in data["absent"]:
            problems.append(f"{name}: guard-rail reports {rule}, which triggers does not list "
                            "(diff must report every guard-rail finding)")
    return problems


def judge(cases: list[Case], work: Path, sides=None) -> dict[str, tuple[list[str], str | None]]:
    """``"<kind>/<case>"`` → (guard-rail's sorted unique IDs over all the case's typeName
    pairs, its first error on one of them or ``None``).

    ``sides(case)`` gives a case's ``{"old": ..., "new": ...}`` typeName → schema (default:
    :func:`build_side` of each side); the pairs are written under ``work``.

    Raises:
        CaseError: as :func:`build_side` (every case is tried first; the message lists all the
            cases that fail) and :func:`run_guardrail`.
    """
    if sides is None:
        def sides(case):
            return {side: build_side(case, side, None) for side in ("old", "new")}
    per_case: dict[str, list[tuple[str, str]]] = {}
    failed = []
    for case in cases:
        try:
            per_case[f"{case.kind}/{case.name}"] = write_pairs(case, sides(case), work)
        except CaseError as err:
            failed.append(str(err))
    if failed:
        raise CaseError(f"{len(failed)} case(s) cannot be built:\n  " + "\n  ".join(failed))
    results = run_guardrail([p for pairs in per_case.values() for p in pairs])
    out = {}
    for key, pairs in per_case.items():
        ids = sorted({i for p in pairs for i in results[p][0]})
        errors = [results[p][1] for p in pairs if results[p][1] is not None]
        out[key] = (ids, errors[0] if errors else None)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="record_guardrail_diff.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the recorded lists; write nothing")
    parser.add_argument("--case", action="append", metavar="NAME", help="only this case (repeatable)")
    parser.add_argument("--keep", metavar="DIR", help="build into DIR and keep the schemas")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each case's IDs")
    args = parser.parse_args(argv)
    try:
        cases = [load_case(kind, path) for kind, path in case_dirs(args.case)]
        if not cases:
            print("no cases", file=sys.stderr)
            return 2
        if args.keep:
            work = Path(args.keep)
            work.mkdir(parents=True, exist_ok=True)
            found = judge(cases, work)
        else:
            with tempfile.TemporaryDirectory(prefix="guardrail-diff-") as tmp:
                found = judge(cases, Path(tmp))
    except CaseError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    differ, problems = [], []
    for case in cases:
        ids, error = found[f"{case.kind}/{case.name}"]
        if args.verbose:
            print(f"{case.kind}/{case.name}: {' '.join(ids) or '-'}" + (f" (error: {error[:100]})" if error else ""))
        if ids != case.data["guardrail"]:
            differ.append(f"{case.name}: recorded {case.data['guardrail']}, guard-rail reports {ids}")
            if not args.check:
                case.data["guardrail"] = ids
                (case.path / "case.json").write_text(json.dumps(case.data, indent=2) + "\n", encoding="utf-8")
        problems += verify(case, ids, error)
    for line in differ:
        print(("differs: " if args.check else "recorded: ") + line)
    for line in problems:
        print(f"verify: {line}")
    print(f"{len(cases)} cases, {len(differ)} {'differ' if args.check else 'updated'}, {len(problems)} problems")
    return 1 if problems or (args.check and differ) else 0


if __name__ == "__main__":
    sys.exit(main())
