"""The diagnostic formats: text (source line, caret, help, folding) and JSON lines."""

from __future__ import annotations

import json
import os
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Severity, Span, _SourceLines, format_diagnostics


def test_text_format_has_location_source_caret_and_help(tmp_path):
    src = tmp_path / "m.smithy"
    src.write_text("namespace a\nstructure Foo { bar: Baz }\n")
    d = Diagnostic("S2001", Severity.ERROR, "unresolved 'Baz'", Span(str(src), 2, 22, 2, 25),
                   "a#Foo$bar", "did you mean 'Bar'?")
    lines = format_diagnostics([d], read_source=api.read_regular_file).splitlines()
    assert lines[0] == f"{src}:2:22: error[S2001] unresolved 'Baz' (shape a#Foo$bar)"
    assert lines[1] == "    2 | structure Foo { bar: Baz }"
    assert lines[2] == "      |                      ^^^"
    assert lines[3] == "      = help: did you mean 'Bar'?"


def _line_by_split(data: bytes, n: int) -> str | None:
    # line n as the readers count lines: after the (n - 1)-th "\n", a "\r" before its end left out
    lines = data.split(b"\n")
    if not data or data.endswith(b"\n"):
        lines.pop()
    return lines[n - 1].removesuffix(b"\r").decode("utf-8", "replace") if n <= len(lines) else None


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.binary(max_size=90).map(lambda b: b.replace(b"\n", b"")), max_size=400),
       end=st.sampled_from([b"", b"\n", b"\r\n"]), asked=st.lists(st.integers(1, 410), min_size=1, max_size=30),
       in_order=st.booleans())
def test_source_lines_are_those_between_line_breaks_asked_in_any_order(lines, end, asked, in_order):
    data = b"\n".join(lines) + (end if lines else b"")
    source = _SourceLines(data)
    for n in sorted(asked) if in_order else asked:
        assert source.get(n) == _line_by_split(data, n)


def test_a_line_far_into_a_file_of_short_lines_after_long_ones():
    # the guess of where a line is comes from the lines before it: here far too far
    data = b"x" * 5000 + b"\n" + b"\n".join(b"%d" % i for i in range(20000)) + b"\n"
    source = _SourceLines(data)
    assert [source.get(n) for n in (1, 2, 3, 15000, 20001, 20002)] == ["x" * 5000, "0", "1", "14998", "19999", None]


class _CountedBytes(bytes):
    """Bytes that count the calls of their ``count`` method."""

    calls = 0

    def count(self, *args):  # type: ignore[override]
        _CountedBytes.calls += 1
        return super().count(*args)


def test_finding_a_line_takes_a_few_steps_whatever_the_lines_before_it():
    # 1,000 empty lines, then lines of 100 KB: the lines so far say a line is 1 byte long;
    # a guess that never grew would count its way through 5 MB in steps of some 70 bytes
    data = _CountedBytes(b"\n" * 1000 + (b"x" * 100_000 + b"\n") * 100)
    source = _SourceLines(data)
    assert source.get(1000) == ""
    _CountedBytes.calls = 0
    assert source.get(1050) == "x" * 100_000
    assert _CountedBytes.calls < 100


def test_the_source_line_is_the_one_the_span_counts_past_a_line_separator_in_a_string(tmp_path):
    # a JSON string may hold U+2028 or U+0085 as they are: str.splitlines breaks
    # there, the JSON AST reader's lines do not, so the line shown must not either
    src = tmp_path / "m.json"
    src.write_text('{"smithy": "2.0", "shapes": {\n'
                   '  "a#A": {"type": "string", "traits": {"smithy.api#documentation": "x\u2028y\x85z"}},\n'
                   '  "a#B": {"type": "string", "traits": {"smithy.api#pattern": "b"}}\n}}\n', encoding="utf-8")
    found = [d for d in api.validate_files([src]).diagnostics if d.code == "S3132"]  # a pattern without ^ and $
    assert found and found[0].span.line == 3, found
    text = format_diagnostics(found, read_source=api.read_regular_file)
    assert '    3 |   "a#B": {"type": "string", "traits": {"smithy.api#pattern": "b"}}' in text.splitlines()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_span_on_a_fifo_shows_no_source_line_and_never_blocks(tmp_path):
    fifo = tmp_path / "pipe.smithy"
    os.mkfifo(fifo)
    d = Diagnostic("S1001", Severity.ERROR, "bad", Span(str(fifo), 2, 1))
    done: list[str] = []
    worker = threading.Thread(target=lambda: done.append(format_diagnostics([d], read_source=api.read_regular_file)), daemon=True)
    worker.start()
    worker.join(10)
    assert done and done[0].splitlines() == [f"{fifo}:2:1: error[S1001] bad"]


def test_sorted_by_file_line_column_and_deduplicated():
    diags = Diagnostics()
    diags.error("S1", "b", Span("b.smithy", 1, 1))
    diags.error("S1", "a2", Span("a.smithy", 2, 1))
    diags.error("S1", "a1", Span("a.smithy", 1, 5))
    diags.error("S1", "a1", Span("a.smithy", 1, 5))
    text = format_diagnostics(diags)
    assert [line.split(": ")[0] for line in text.splitlines()] == ["a.smithy:1:5", "a.smithy:2:1", "b.smithy:1:1"]


def test_json_lines():
    d = Diagnostic("S3006", Severity.WARNING, "unstable", Span("m.smithy", 3, 1), "a#B", event_id="UnstableTrait")
    (line,) = format_diagnostics([d], "json").splitlines()
    assert json.loads(line) == {"code": "S3006", "severity": "warning", "message": "unstable", "file": "m.smithy",
                                "line": 3, "column": 1, "shapeId": "a#B", "eventId": "UnstableTrait"}


def test_repeated_warnings_fold_but_errors_never_do():
    items = [Diagnostic("S3006", Severity.WARNING, "same", Span("m.smithy", i, 1)) for i in range(1, 7)]
    items += [Diagnostic("S2001", Severity.ERROR, "same error", Span("m.smithy", i, 2)) for i in range(1, 7)]
    text = format_diagnostics(items, fold_after=3)
    assert text.count("warning[S3006] same (") == 0
    assert sum(1 for line in text.splitlines() if line.endswith("warning[S3006] same")) == 3
    assert "warning[S3006] same: 3 more like the above" in text
    assert text.count("error[S2001]") == 6
    assert "more like" not in format_diagnostics(items)


def test_a_long_source_line_is_shown_as_a_window_around_the_column():
    line = "x" * 5000 + "BAD" + "y" * 5000
    d = Diagnostic("S1001", Severity.ERROR, "bad", Span("m.smithy", 1, 5001, 1, 5004))
    text = d.format_text(line)
    shown, caret = text.splitlines()[1:3]
    assert len(shown) < 140 and "…" in shown
    assert shown[caret.index("^"):caret.index("^") + 3] == "BAD" and caret.count("^") == 3
    short = Diagnostic("S1001", Severity.ERROR, "bad", Span("m.smithy", 1, 3, 1, 6)).format_text("abBADc")
    assert short.splitlines()[1].endswith("abBADc") and "…" not in short


def test_a_code_gets_its_reference_event_id_and_usual_severity():
    diags = Diagnostics()
    unresolved = diags.error("S2001", "member targets 'a#B', which is not defined")
    duplicate = diags.add("S2002", None, "shape 'a#A' is defined more than once")
    assert (unresolved.event_id, duplicate.event_id, duplicate.severity) == ("Target", "Model", Severity.ERROR)
    # the caller's event ID wins (S3031 is EnumShape or IntEnumShape); codes the reference
    # has no event for, and codes that are not ours, have none
    assert Diagnostic("S3031", Severity.ERROR, "x", event_id="IntEnumShape").event_id == "IntEnumShape"
    assert Diagnostic("S4009", Severity.ERROR, "x").event_id is None
    assert Diagnostic("X123", Severity.ERROR, "x").event_id is None
    assert json.loads(format_diagnostics([unresolved], fmt="json"))["eventId"] == "Target"


def test_diagnostics_come_out_in_the_same_order_whatever_the_hash_seed(tmp_path):
    """Two configured validators reporting the same message at the same place under
    different event IDs: the order is the same with every PYTHONHASHSEED (sort_key is a
    total order)."""
    import os
    import subprocess
    import sys

    model = tmp_path / "m.smithy"
    model.write_text('$version: "2"\nmetadata validators = [\n'
                     '  {name: "AbbreviationName", id: "Zeta"}\n  {name: "AbbreviationName", id: "Alpha"}\n'
                     '  {name: "AbbreviationName", id: "Mid"}\n]\nnamespace ex\nstructure XMLThing {}\n',
                     encoding="utf-8")
    probe = ("import sys\nfrom smithy2cfn import api\n"
             "print([(d.event_id, d.message) for d in api.validate_files([sys.argv[1]]).diagnostics])")
    outputs = set()
    for seed in ("1", "2", "3", "4", "5"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outputs.add(subprocess.run([sys.executable, "-c", probe, str(model)], env=env, capture_output=True,
                                   text=True, check=True).stdout)
    assert len(outputs) == 1
    assert "Zeta" in outputs.pop()


def test_a_deferred_span_is_found_once_when_read_and_acts_as_the_span_it_finds():
    """``Span.deferred`` (the JSON AST reader's spans inside shapes): ``locate`` is called once,
    with the path ``(*at, key)``, when the line or column is first read, by an attribute,
    a comparison either way round, a hash, ``str``, ``repr``, a pickle or ``replace``; the
    span is frozen, and pickles as a plain span."""
    import pickle

    from smithy2cfn.records import replace

    calls = []

    def locate(path):
        calls.append(path)
        return Span("m.json", 7, 3)

    plain = Span("m.json", 7, 3)
    reads = [lambda s: s.line, lambda s: s.column, lambda s: s == plain, lambda s: plain == s, hash, str, repr,
             lambda s: s < Span("m.json", 8, 1), lambda s: Span("m.json", 1, 1) < s,
             lambda s: pickle.loads(pickle.dumps(s)), lambda s: replace(s, path="n.json")]
    for read in reads:
        calls.clear()
        span = Span.deferred(("m.json", locate, ("shapes", "a#S")), "x")
        read(span)
        assert calls == [("shapes", "a#S", "x")], read
        assert span == plain and hash(span) == hash(plain) and str(span) == "m.json:7:3" and repr(span) == repr(plain)
        assert calls == [("shapes", "a#S", "x")]
    span = Span.deferred(("m.json", locate, ("shapes", "a#S")), "x")
    assert type(pickle.loads(pickle.dumps(span))) is Span
    assert sorted([Span("m.json", 9, 1), span, Span("m.json", 2, 2)]) == [Span("m.json", 2, 2), plain, Span("m.json", 9, 1)]
    assert {plain: 1}[span] == 1 and span != Span("m.json", 7, 4) and span != ("m.json", 7, 3, 0, 0)
    assert (span.end_line, span.end_column) == (0, 0)
    calls.clear()
    fresh = Span.deferred(("m.json", locate, ("shapes", "a#S")), "y")  # the path and the end need no locate
    assert (fresh.path, fresh.end_line, fresh.end_column) == ("m.json", 0, 0) and calls == []
    assert fresh.line == 7 and calls == [("shapes", "a#S", "y")]
    with pytest.raises(AttributeError):
        span.line = 1
    with pytest.raises(AttributeError):
        _ = span.nothing
