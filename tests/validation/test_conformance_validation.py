"""The reference's own validation suites ("errorfiles", ../shared/conformance/validation).

Each ``X.smithy``/``X.json`` is loaded alone, with the built-in trait packages; ``X.errors``
lists every event the reference emits, one a line: ``[SEVERITY] shape: message | EventId``
(``-`` as the shape for model-wide events). A case passes when smithy2cfn gives the
reference's verdict (rejected iff an ERROR or DANGER is listed) and reports every listed
ERROR/DANGER event on the same shape with the same event ID (either may be a dot-prefix of
the other: ``TraitValue`` for ``TraitValue.Member.InvalidRange``, and, as the reference's
own runner allows, ``PaginatedTrait.WrongShapeType.pageSize`` for ``PaginatedTrait``).

Cases that do not pass yet are listed in ``tests/validation/validation-known-failures.txt``;
the list is strict: a listed case that passes fails the run (remove it from the list), an
unlisted case that fails fails the run. The counts print at the end of the run.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import SHARED, record_result
from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostic

ROOT = SHARED / "conformance" / "validation"
KNOWN_FAILURES = Path(__file__).resolve().parent / "validation-known-failures.txt"
_LINE = re.compile(r"^\[(\w+)\] (.*?): (.*) \| (\S*)\s*$")


def _cases() -> list[Path]:
    if not ROOT.exists():
        return []
    return sorted(p for p in ROOT.rglob("*.errors")
                  if p.with_suffix(".smithy").exists() or p.with_suffix(".json").exists())


def _name(errors: Path) -> str:
    return str(errors.relative_to(ROOT).with_suffix(""))


def _expected(errors: Path) -> list[tuple[str, str, str, str]]:
    """``(severity, shape ID or "-", message, event ID)`` for each event line."""
    out = []
    for line in errors.read_text(encoding="utf-8").splitlines():
        m = _LINE.match(line.strip())
        if m:
            out.append((m.group(1), m.group(2), m.group(3), m.group(4)))
    return out


def _matches(d: Diagnostic, shape: str, event: str) -> bool:
    # The reference's own runner (SmithyTestCase.compareEvents) accepts an actual event whose
    # ID extends the expected one (``actual.containsId(expected)``): an .errors file may list
    # ``PaginatedTrait`` for ``PaginatedTrait.WrongShapeType.pageSize``. Ours may also be the
    # shorter one (``TraitValue`` for ``TraitValue.Member.InvalidRange``).
    if not d.event_id or not (event == d.event_id or event.startswith(d.event_id + ".")
                              or d.event_id.startswith(event + ".")):
        return False
    return (d.shape_id or "-") == shape


def _known_failures() -> set[str]:
    if not KNOWN_FAILURES.exists():
        return set()
    return {line.strip() for line in KNOWN_FAILURES.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")}


def evaluate(errors: Path) -> tuple[bool, int, int, list[str]]:
    """``(verdict right, expected ERROR/DANGER events found, expected, problems)`` for one case."""
    model_file = errors.with_suffix(".smithy")
    if not model_file.exists():
        model_file = errors.with_suffix(".json")
    got = api.validate(api.load([model_file])).diagnostics
    expected = _expected(errors)
    rejected = any(sev in ("ERROR", "DANGER") for sev, *_ in expected)
    verdict = any(d.is_error for d in got) == rejected
    problems = [] if verdict else [f"verdict: expected {'rejected' if rejected else 'accepted'}"]
    wanted = [(sev, shape, msg, event) for sev, shape, msg, event in expected if sev in ("ERROR", "DANGER")]
    found = 0
    for sev, shape, msg, event in wanted:
        if any(_matches(d, shape, event) for d in got):
            found += 1
        else:
            problems.append(f"missing [{sev}] {shape}: {event} ({msg[:100]})")
    if not verdict:
        problems += [f"got: {d.severity.label} {d.shape_id} {d.event_id} {d.message[:100]}" for d in got if d.is_error]
    return verdict, found, len(wanted), problems


CASES = _cases()


@pytest.mark.skipif(not ROOT.exists(), reason=f"conformance material not found at {ROOT} (../shared is absent)")
@pytest.mark.parametrize("errors", CASES, ids=[_name(c) for c in CASES])
def test_validation_case(errors: Path):
    name = _name(errors)
    suite = name.split("/", 1)[0]
    verdict, found, wanted, problems = evaluate(errors)
    record_result(f"validation {suite} (verdict)", name, verdict)
    for i in range(wanted):
        record_result(f"validation {suite} (ERROR/DANGER events)", f"{name}#{i}", i < found)
    passed = verdict and found == wanted
    if name in _known_failures():
        assert not passed, f"{name} passes now: remove it from {KNOWN_FAILURES.name}"
    else:
        assert passed, "\n".join(problems)


def test_known_failures_name_real_cases():
    if not ROOT.exists():
        pytest.skip(f"conformance material not found at {ROOT}")
    names = {_name(c) for c in CASES}
    assert sorted(_known_failures() - names) == []
