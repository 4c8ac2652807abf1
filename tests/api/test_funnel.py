"""The funnel every stage reports through (issue 15): at most ``MAX_PER_CODE`` diagnostics of
one code and severity, the next one counting the rest; at most ``MAX_LISTED`` items in one
message; and the mixin expansion limit (``S2029``). README "Limits"."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

from smithy2cfn import api
from smithy2cfn.cli import main
from smithy2cfn.diagnostics import (
    MAX_LISTED,
    MAX_PER_CODE,
    Diagnostic,
    Diagnostics,
    Elided,
    Severity,
    SourceLimiter,
    Span,
    format_diagnostics,
    funnel,
    listed,
)
from smithy2cfn.load.loader import MAX_MIXIN_COPIES


def _many(n: int, code: str = "S2001", severity: Severity = Severity.ERROR, path: str = "m.smithy") -> list:
    return [Diagnostic(code, severity, f"problem {i}", Span(path, i + 1, 1)) for i in range(n)]


# --------------------------------------------------------------------------- the cap per code


def test_the_first_of_each_code_by_location_are_kept_whatever_the_order_of_emission():
    items = _many(MAX_PER_CODE + 10) + _many(3, "S2002")
    reported = funnel(items)
    for seed in range(3):
        shuffled = items[:]
        random.Random(seed).shuffle(shuffled)
        assert funnel(shuffled) == reported
    s2001 = [d for d in reported if d.code == "S2001"]
    assert len(s2001) == MAX_PER_CODE + 1
    assert [d.span.line for d in s2001] == list(range(1, MAX_PER_CODE + 2))
    assert s2001[-1].message == ("problem 1000 (and 9 more S2001 error diagnostics not reported: a run reports "
                                 "at most 1,000 of one code and severity)")
    assert len([d for d in reported if d.code == "S2002"]) == 3
    assert funnel(reported) == reported  # applying it again changes nothing


def test_up_to_one_more_than_the_cap_is_reported_as_it_is():
    items = _many(MAX_PER_CODE + 1)
    assert funnel(items) == items
    assert funnel(_many(5) + _many(5)) == _many(5)  # deduplicated


def test_an_error_is_never_left_out_for_warnings_of_its_code():
    warnings = _many(MAX_PER_CODE + 50, "S1003", Severity.WARNING)
    error = Diagnostic("S1003", Severity.ERROR, "not a regular file", Span("z.smithy"))
    diags = Diagnostics([*warnings, error])
    reported = diags.sorted()
    assert error in reported
    assert api.ValidationResult(diagnostics=reported).exit_code == 1
    assert len(reported) == MAX_PER_CODE + 2


def test_diagnostics_a_source_never_made_are_counted():
    out: list = []
    source = SourceLimiter(out, limit=3)
    for i in range(7):
        source.add("S1011", Severity.ERROR, f"dup {i}", Span("a.smithy", i + 1, 1))
    source.add("S1001", Severity.ERROR, "other", Span("a.smithy", 99, 1))
    source.finish()
    assert [d.message for d in out] == ["dup 0", "dup 1", "dup 2", "other", "dup 3"]
    assert isinstance(out[-1], Elided) and out[-1].more == 3
    other_file: list = []
    source = SourceLimiter(other_file, limit=3)
    for i in range(5):
        source.append(Diagnostic("S1011", Severity.ERROR, f"dup {i}", Span("b.smithy", i + 1, 1)))
    source.finish()
    reported = funnel(out + other_file, limit=3)
    assert [d.message for d in reported if d.code == "S1011"] == [
        "dup 0", "dup 1", "dup 2",
        "dup 3 (and 8 more S1011 error diagnostics not reported: a run reports at most 3 of one code and severity)"]
    assert not any(isinstance(d, Elided) for d in reported)


def test_a_source_reports_everything_up_to_the_limit_plus_one():
    out: list = []
    source = SourceLimiter(out, limit=3)
    for i in range(4):
        source.add("S1011", Severity.ERROR, f"dup {i}", None)
    source.finish()
    assert [d.message for d in funnel(out, limit=3)] == ["dup 0", "dup 1", "dup 2", "dup 3"]


def _enum_strings(count: int, suppressed: int) -> str:
    lines = ['$version: "2"', "namespace a"]
    for i in range(count):
        lines.append(('@suppress(["ModelDeprecation"]) ' if i < suppressed else "")
                     + f'@enum([{{value: "x", name: "X"}}]) string S{i}')
    return "\n".join(lines) + "\n"


def test_suppressed_events_take_no_place_under_the_cap(tmp_path):
    """S3130 (ModelDeprecation, a warning of the loader) on 1,030 shapes, the first 20
    suppressed: the 1,000 reported start at the 21st, and 9 more are counted."""
    (tmp_path / "m.smithy").write_text(_enum_strings(MAX_PER_CODE + 30, 20))
    result = api.validate_files([tmp_path])
    s3130 = [d for d in result.diagnostics if d.code == "S3130"]
    assert len(s3130) == MAX_PER_CODE + 1
    assert s3130[0].shape_id == "a#S20"
    assert "(and 9 more S3130 warning diagnostics not reported" in s3130[-1].message
    assert result.exit_code == 0


def _mixin_cycle(shapes: int) -> str:
    lines = ['$version: "2"', "namespace a"]
    lines += [f"@mixin structure C{i} with [C{(i + 1) % shapes}] {{ c{i}: String }}" for i in range(shapes)]
    return "\n".join(lines) + "\n"


def test_json_and_sarif_stay_valid_and_the_run_fails_when_errors_are_capped(tmp_path):
    (tmp_path / "m.smithy").write_text(_mixin_cycle(MAX_PER_CODE + 100))
    runner = CliRunner()
    result = runner.invoke(main, ["validate", "--format", "json", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.stderr.splitlines()]
    s2020 = [r for r in rows if r["code"] == "S2020"]
    assert len(s2020) == MAX_PER_CODE + 1
    assert s2020[-1]["message"].endswith("(and 99 more S2020 error diagnostics not reported: a run reports at most "
                                         "1,000 of one code and severity)")
    assert all(r["message"].count("'a#C") <= MAX_LISTED + 1 for r in s2020)
    sarif = runner.invoke(main, ["validate", "--format", "sarif", str(tmp_path)], catch_exceptions=False)
    assert sarif.exit_code == 1
    doc = json.loads(sarif.stdout)
    assert len(doc["runs"][0]["results"]) == MAX_PER_CODE + 1
    text = runner.invoke(main, ["validate", str(tmp_path)], catch_exceptions=False)
    assert text.stderr.count("error[S2020]") == MAX_PER_CODE + 1


def test_format_diagnostics_funnels_a_plain_list():
    text = format_diagnostics(_many(MAX_PER_CODE + 5), fmt="json")
    assert len(text.splitlines()) == MAX_PER_CODE + 1


# --------------------------------------------------------------------------- the list cap


def test_a_message_lists_at_most_max_listed_items():
    assert listed([]) == ""
    assert listed(["b", "a"], form="`{}`", sort=True) == "`a`, `b`"
    assert listed(["b", "a"]) == "b, a"
    names = [f"S{i}" for i in range(5000)]
    text = listed(names, form="'{}'", sort=True)
    assert text.endswith(", ... and 4,950 more")
    assert text.split(", ...")[0] == ", ".join(f"'{n}'" for n in sorted(names)[:MAX_LISTED])
    assert listed(iter(names[:3]), total=5000, limit=2) == "S0, S1, ... and 4,998 more"
    assert listed(range(MAX_LISTED)) == ", ".join(str(i) for i in range(MAX_LISTED))


def test_a_mixin_cycle_message_names_at_most_max_listed_shapes(tmp_path):
    (tmp_path / "m.smithy").write_text(_mixin_cycle(200))
    result = api.validate_files([tmp_path])
    first = next(d for d in result.diagnostics if d.code == "S2020")
    assert first.message == ("mixin cycle: 'a#C0' cannot be resolved; it uses, through its mixins, "
                             + ", ".join(f"'a#C{i}'" for i in range(1, MAX_LISTED + 1))
                             + ", ... and 149 more, which use it")


# --------------------------------------------------------------------------- the mixin limit


def _mixin_chain(levels: int) -> str:
    lines = ['$version: "2"', "namespace a", "@mixin structure L0 { m0: String }"]
    lines += [f"@mixin structure L{i} with [L{i - 1}] {{ m{i}: String }}" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_a_mixin_chain_stops_at_the_limit_with_a_located_error(tmp_path):
    """400 levels would copy 80,000 members: loading stops where the copies pass 50,000."""
    (tmp_path / "m.smithy").write_text(_mixin_chain(400) + "apply L399 @documentation(\"last\")\n")
    model, diags = api.load([tmp_path])
    errors = [d for d in diags.sorted() if d.is_error]
    assert [d.code for d in errors] == ["S2029"]  # and no S2003 for the apply to a shape not built
    copies = sum(len(s.members) for s in model.shapes.values() if not model.is_prelude(s.id)) - 400
    assert copies <= MAX_MIXIN_COPIES
    level = int(errors[0].shape_id.split("#L")[1])
    assert errors[0].span.line == 3 + level
    assert f"a#L{level - 1}" in model.shapes and f"a#L{level}" not in model.shapes


def test_a_mixin_chain_under_the_limit_is_built_whole(tmp_path):
    (tmp_path / "m.smithy").write_text(_mixin_chain(300))  # 44,850 copies
    model, diags = api.load([tmp_path])
    assert not diags.has_errors
    assert len(model.shapes["a#L299"].members) == 300
