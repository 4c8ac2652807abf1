"""smithy2cfn.parallel: work shared with one forked helper process gives the results of doing
it all here, in the same order, whatever the helper does; and it is used only when the
program asked for it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO
from smithy2cfn import parallel
from smithy2cfn.api import load, validate
from smithy2cfn.validation import validate_model

CAN_FORK = hasattr(os, "fork") and sys.platform.startswith("linux") and len(os.sched_getaffinity(0)) >= 2
needs_fork = pytest.mark.skipif(not CAN_FORK, reason="needs Linux and two CPUs (smithy2cfn.parallel.available)")


@pytest.fixture
def allowed(monkeypatch):
    monkeypatch.setattr(parallel, "_allowed", True)
    monkeypatch.delenv(parallel.JOBS_VARIABLE, raising=False)
    # a machine busy with other work shares nothing (the load average); here it must
    monkeypatch.setattr(parallel, "_spare_cpu", lambda: CAN_FORK)


def _slow_pid(piece: int) -> tuple[int, int]:
    time.sleep(0.02)  # long enough that both processes take pieces
    return piece * piece, os.getpid()


def test_a_library_process_is_never_forked(monkeypatch):
    monkeypatch.setattr(parallel, "_allowed", False)
    assert not parallel.available()
    assert parallel.run_shared([1, 2, 3], _slow_pid) == [(1, os.getpid()), (4, os.getpid()), (9, os.getpid())]


@needs_fork
def test_shared_work_comes_back_complete_and_in_order(allowed):
    assert parallel.available()
    out = parallel.run_shared(list(range(30)), _slow_pid)
    assert [value for value, _ in out] == [i * i for i in range(30)]
    pids = {pid for _, pid in out}
    assert os.getpid() in pids and len(pids) == 2, "the helper took no piece"


@needs_fork
def test_what_the_helper_does_not_send_back_is_computed_here(allowed):
    parent = os.getpid()

    def fails_in_helper(piece: int) -> tuple[int, int]:
        if os.getpid() != parent and piece == 5:
            raise ValueError("only in the helper")
        return _slow_pid(piece)

    def dies_in_helper(piece: int) -> tuple[int, int]:
        if os.getpid() != parent:
            os._exit(3)
        return _slow_pid(piece)

    def unpicklable_in_helper(piece: int):
        return (lambda: piece) if os.getpid() != parent else piece

    assert [v for v, _ in parallel.run_shared(list(range(12)), fails_in_helper)] == [i * i for i in range(12)]
    assert parallel.run_shared(list(range(12)), dies_in_helper) == [(i * i, parent) for i in range(12)]
    assert parallel.run_shared(list(range(12)), unpicklable_in_helper) == list(range(12))


@needs_fork
def test_an_exception_here_propagates_and_the_helper_is_reaped(allowed):
    parent = os.getpid()

    def fails_here(piece: int) -> int:
        if os.getpid() == parent:
            raise KeyError(piece)
        time.sleep(0.01)
        return piece

    with pytest.raises(KeyError):
        parallel.run_shared(list(range(6)), fails_here)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no child left behind


def test_it_is_not_used_when_asked_not_to_or_with_threads_running(allowed, monkeypatch):
    monkeypatch.setenv(parallel.JOBS_VARIABLE, "1")
    assert not parallel.available()
    monkeypatch.delenv(parallel.JOBS_VARIABLE)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not parallel.available()
    finally:
        stop.set()
        thread.join()
    assert parallel.available() == CAN_FORK
    assert parallel.run_shared(list(range(parallel.MAX_PIECES + 1)), lambda p: (p, os.getpid()))[-1] == \
        (parallel.MAX_PIECES, os.getpid())


def test_a_busy_machine_is_not_given_a_helper(monkeypatch, tmp_path):
    cpus = len(os.sched_getaffinity(0))
    loadavg = tmp_path / "loadavg"
    monkeypatch.setattr(parallel, "_LOADAVG", str(loadavg))
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))  # (an average that lags: idle)
    loadavg.write_text(f"0.00 0.00 0.00 {cpus}/300 4321\n")  # every CPU has a task ready to run now
    assert not parallel._spare_cpu()
    loadavg.write_text(f"{cpus * 9}.00 0.00 0.00 {cpus - 1}/300 4321\n")  # one free now, busy a moment ago
    assert parallel._spare_cpu() == CAN_FORK
    # where the file cannot be read, the last minute's average decides
    loadavg.unlink()
    assert parallel._spare_cpu() == CAN_FORK
    monkeypatch.setattr(os, "getloadavg", lambda: (64.0, 64.0, 64.0))
    assert not parallel._spare_cpu()
    loadavg.write_text("garbled\n")
    assert not parallel._spare_cpu()


def test_a_task_ready_for_a_moment_only_is_not_a_busy_cpu(monkeypatch, tmp_path):
    # (a kernel thread woken at the first look: one in four of SageMaker's builds lost the helper)
    import time

    cpus = len(os.sched_getaffinity(0))
    loadavg = tmp_path / "loadavg"
    monkeypatch.setattr(parallel, "_LOADAVG", str(loadavg))
    looks = []
    later = {"ready": 0}  # (the tasks ready at the second look)

    def wait(seconds):  # (between the two looks: the other task is gone, or still there)
        looks.append(seconds)
        loadavg.write_text(f"0.00 0.00 0.00 {later['ready']}/300 4321\n")
    monkeypatch.setattr(time, "sleep", wait)
    for later["ready"], spare in ((cpus - 1, CAN_FORK), (cpus, False)):
        loadavg.write_text(f"0.00 0.00 0.00 {cpus}/300 4321\n")
        looks.clear()
        assert parallel._spare_cpu() == spare
        assert looks == ([parallel._SECOND_LOOK] if cpus >= 2 else [])
    loadavg.write_text(f"0.00 0.00 0.00 {cpus - 1}/300 4321\n")  # free at the first look: no second one
    looks.clear()
    assert parallel._spare_cpu() == CAN_FORK and looks == []


def _model_text(shapes: int) -> str:
    """A model with ``shapes`` structures, some of which the validators report."""
    lines = ['$version: "2"', "namespace example", "", "service Svc { version: \"1\", operations: [Op0] }",
             "operation Op0 { input: S0, output: S1 }"]
    for i in range(shapes):
        lines.append(f"@pattern(\"a{i}\")\nstring lower{i}\n" if i % 7 == 0 else f"structure S{i} {{ a: String, b: S{(i + 1) % shapes} }}")
    return "\n".join(lines) + "\n"


@needs_fork
def test_validation_shared_with_a_helper_reports_the_same_events(allowed, monkeypatch, tmp_path):
    import smithy2cfn.validation as validation

    monkeypatch.setattr(validation, "SHARED_FROM_SHAPES", 10)
    (tmp_path / "m.smithy").write_text(_model_text(60), encoding="utf-8")
    loaded = load(tmp_path / "m.smithy")
    shared = [d.to_json() for d in validate_model(loaded.model)]
    monkeypatch.setattr(parallel, "_allowed", False)
    alone = [d.to_json() for d in validate_model(loaded.model)]
    assert shared == alone and len(alone) > 5
    assert [d.to_json() for d in validate(loaded).diagnostics]  # the api's path too


@needs_fork
def test_the_program_shares_a_large_validation_and_prints_the_same(tmp_path):
    model = tmp_path / "large.smithy"
    model.write_text(_model_text(700), encoding="utf-8")
    events = [json.loads(line) for line in _validated_alike(model).splitlines() if line.startswith("{")]
    assert len(events) > 50


def _validated_alike(path) -> str:
    """What ``smithy2cfn validate --format json PATH`` prints (standard output, then error),
    asserted the same with ``SMITHY2CFN_JOBS=1`` and without."""
    runs = []
    for jobs in ("1", ""):
        env = {**os.environ, parallel.JOBS_VARIABLE: jobs, "PYTHONPATH": str(REPO / "src")}
        proc = subprocess.run([sys.executable, "-m", "smithy2cfn", "validate", "--format", "json", str(path)],
                              capture_output=True, text=True, env=env, timeout=300)
        runs.append((proc.returncode, proc.stdout, proc.stderr))
    assert runs[0] == runs[1]
    return runs[0][1] + runs[0][2]


@needs_fork
def test_files_parsed_by_a_helper_make_the_same_model_and_events(allowed, monkeypatch, tmp_path):
    from smithy2cfn.load import loader
    from smithy2cfn.model.json_ast import model_to_json_ast

    monkeypatch.setattr(loader, "SHARED_FROM_CHARACTERS", 1)
    for i in range(5):
        (tmp_path / f"m{i}.smithy").write_text(_model_text(40).replace("namespace example", f"namespace ex{i}")
                                               + ("structure Broken {\n" if i == 3 else ""), encoding="utf-8")
    (tmp_path / "more.json").write_text(json.dumps({"smithy": "2.0", "shapes": {
        "ex9#Thing": {"type": "string", "traits": {"smithy.api#length": {"min": "x"}}}}}), encoding="utf-8")

    def loaded() -> tuple:
        result = validate(load(tmp_path))
        return [d.to_json() for d in result.diagnostics], model_to_json_ast(result.model)

    shared = loaded()
    monkeypatch.setattr(parallel, "_allowed", False)
    alone = loaded()
    assert shared == alone
    assert any(d["code"] == "S1001" for d in alone[0]) and len(alone[1]["shapes"]) > 200


@needs_fork
def test_a_large_idl_file_parsed_in_parts_makes_the_same_model_and_events(allowed, monkeypatch, tmp_path):
    from smithy2cfn.load import loader
    from smithy2cfn.model.json_ast import model_to_json_ast
    from smithy2cfn.parse import idl

    monkeypatch.setattr(loader, "SHARED_FROM_CHARACTERS", 1)
    monkeypatch.setattr(loader, "PART_CHARACTERS", 300)
    text = _model_text(200).replace("structure S", "/// doc\n@since(\"1\")\nstructure S").replace(" }\n", "\n}\n")
    (tmp_path / "clean.smithy").write_text(text, encoding="utf-8")
    (tmp_path / "broken.smithy").write_text(text.replace("namespace example", "namespace broken")
                                            .replace("structure S120 {", "structure S120 {{"), encoding="utf-8")
    joins = []
    join = idl.join_idl_parts

    def joined(parts):
        file = join(parts)
        joins.append((len(parts), file is not None))
        return file
    monkeypatch.setattr(idl, "join_idl_parts", joined)

    def loaded() -> tuple:
        result = validate(load(tmp_path))
        return [d.to_json() for d in result.diagnostics], model_to_json_ast(result.model)

    shared = loaded()
    assert sorted(joins) == [(joins[0][0], False), (joins[0][0], True)] and joins[0][0] > 10, \
        "both files were read in parts, and the clean one joined"
    monkeypatch.setattr(parallel, "_allowed", False)
    alone = loaded()
    assert shared == alone
    assert any(d["code"] == "S1001" for d in alone[0]) and len(alone[1]["shapes"]) > 300


@needs_fork
def test_meanwhile_is_done_here_while_the_helper_starts_and_its_failure_ignored(allowed):
    done = []
    out = parallel.run_shared(list(range(8)), _slow_pid, meanwhile=lambda: done.append(os.getpid()))
    assert done == [os.getpid()] and [v for v, _ in out] == [i * i for i in range(8)]
    assert len({pid for _, pid in out}) == 2

    def fails():
        raise RuntimeError("advisory")
    assert [v for v, _ in parallel.run_shared(list(range(4)), _slow_pid, meanwhile=fails)] == [0, 1, 4, 9]


def test_meanwhile_is_not_done_when_nothing_is_shared(monkeypatch):
    monkeypatch.setattr(parallel, "_allowed", False)
    done = []
    assert parallel.run_shared([1, 2], lambda p: p, meanwhile=lambda: done.append(1)) == [1, 2]
    assert done == []


@needs_fork
def test_a_large_model_is_read_while_this_process_prepares_the_later_stages(allowed, monkeypatch, tmp_path):
    from smithy2cfn import api
    from smithy2cfn.load import loader

    monkeypatch.setattr(loader, "SHARED_FROM_CHARACTERS", 1)
    for i in range(3):
        (tmp_path / f"m{i}.smithy").write_text(_model_text(30).replace("namespace example", f"namespace ex{i}"),
                                               encoding="utf-8")
    prepared = []
    prepare = api._prepare_stages
    monkeypatch.setattr(api, "_prepare_stages", lambda packages: prepared.append(packages) or prepare(packages))
    shared = api.validate_files(tmp_path)
    assert prepared == [frozenset({"smithy.api"})]
    monkeypatch.setattr(parallel, "_allowed", False)
    alone = api.validate_files(tmp_path)
    assert [d.to_json() for d in shared.diagnostics] == [d.to_json() for d in alone.diagnostics]
    assert len(prepared) == 1, "nothing is prepared meanwhile when nothing is shared"


@needs_fork
def test_the_program_reads_large_files_in_parts_and_prints_the_same(tmp_path):
    from smithy2cfn.load import loader

    clean = _model_text(9000).replace(" }\n", "\n}\n").replace("structure S1 {", "/// One.\nstructure S1 {")
    assert len(clean) > 2 * loader.PART_CHARACTERS
    (tmp_path / "clean.smithy").write_text(clean, encoding="utf-8")
    # a text block whose lines look like the places where a file is cut: those parts are refused
    tricky = clean.replace("namespace example", "namespace tricky").replace(
        "structure S4000 {", '@documentation("""\n}\n\nstructure Fake {\n}\n""")\nstructure S4000 {')
    (tmp_path / "tricky.smithy").write_text(tricky, encoding="utf-8")
    shapes = {f"ex.json#J{i}": {"type": "structure", "members": {"a": {"target": "smithy.api#String", "traits": {
        "smithy.api#documentation": "x" * 40}}}} for i in range(2500)}
    shapes["ex.json#J7"]["traits"] = {"smithy.api#length": {"min": "bad"}}
    (tmp_path / "model.json").write_text(json.dumps({"smithy": "2.0", "shapes": shapes}, indent=4), encoding="utf-8")
    printed = _validated_alike(tmp_path)
    assert '"S1018"' not in printed and '"S1001"' not in printed
    assert printed.count('"code"') > 100


def test_a_file_is_read_in_at_most_max_parts(monkeypatch):
    from smithy2cfn.load import loader
    from smithy2cfn.parse import idl

    text = '$version: "2"\nnamespace example\n\n' + "".join(
        f"structure S{i} {{\n    a: String\n}}\n\n" for i in range(400_000))
    assert len(text) > 10 * 1024 * 1024
    pieces = []
    monkeypatch.setattr(parallel, "available", lambda: True)
    monkeypatch.setattr(parallel, "run_shared", lambda p, work, meanwhile=None: pieces.extend(p) or [None] * len(p))
    monkeypatch.setattr(idl, "join_idl_parts", lambda parts: "joined")
    assert loader._read_all([("m.smithy", text)]) == ["joined"]
    assert 32 < len(pieces) <= loader.MAX_PARTS


def _pieces_of_a_helper(count: int, offset: int = 0):
    """A ``prepare`` for :func:`parallel.start_helper`: ``count`` pieces, piece ``i`` the
    square of ``i + offset`` and the helper's process ID."""
    return lambda: ([f"p{i}" for i in range(count)], lambda i: _slow_pid(i + offset))


@needs_fork
def test_a_helper_started_early_makes_its_own_pieces_and_shares_them(allowed):
    helper = parallel.start_helper(_pieces_of_a_helper(20))
    assert helper is not None and not parallel.available(), "one helper at a time"
    out = parallel.run_shared(list(range(20)), _slow_pid, helper=helper, keys=[f"p{i}" for i in range(20)])
    assert [v for v, _ in out] == [i * i for i in range(20)]
    assert len({pid for _, pid in out}) == 2, "the helper took no piece"
    assert parallel.available() and not helper.waiting()
    helper.close()  # (nothing: it was used and reaped)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@needs_fork
def test_what_a_helper_made_of_other_pieces_is_not_kept(allowed):
    # its pieces are not this process's (other keys, one more or less), or it has none:
    # everything is computed here (the helper's squares of i + 1 would show)
    for prepare, keys in ((_pieces_of_a_helper(20, offset=1), [f"q{i}" for i in range(20)]),
                          (_pieces_of_a_helper(21, offset=1), [f"p{i}" for i in range(20)]),
                          (_pieces_of_a_helper(19, offset=1), [f"p{i}" for i in range(20)]),
                          (lambda: None, [f"p{i}" for i in range(20)])):
        helper = parallel.start_helper(prepare)
        out = parallel.run_shared(list(range(20)), _slow_pid, helper=helper, keys=keys)
        assert out == [(i * i, os.getpid()) for i in range(20)]

    def fails():
        raise RuntimeError("the helper's own input is broken")
    helper = parallel.start_helper(fails)
    assert [v for v, _ in parallel.run_shared(list(range(6)), _slow_pid, helper=helper, keys=[])] == \
        [i * i for i in range(6)]
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@needs_fork
def test_a_helper_not_used_is_killed_and_reaped(allowed):
    def forever():
        time.sleep(60)
    started = time.monotonic()
    helper = parallel.start_helper(forever)
    helper.close()
    helper.close()
    assert time.monotonic() - started < 30 and parallel.available()
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)
    # given to run_shared with more pieces than a queue holds, it is closed too
    helper = parallel.start_helper(forever)
    count = parallel.MAX_PIECES + 1
    assert parallel.run_shared(list(range(count)), lambda p: p, helper=helper)[-1] == count - 1
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


class _Marker:
    """Writes its file (this process's ID) when it is freed."""

    def __init__(self, path) -> None:
        self.path = path

    def __del__(self) -> None:
        self.path.write_text(str(os.getpid()))


@needs_fork
def test_a_helper_leaves_without_freeing_what_its_pieces_read(allowed, tmp_path):
    # (freeing a model object by object is what the other side would wait for: SageMaker 18 ms)
    marker = tmp_path / "freed"

    def prepare():
        held = _Marker(marker)  # (made in the helper, as its model is)
        return [f"p{i}" for i in range(20)], lambda i: held and _slow_pid(i)
    helper = parallel.start_helper(prepare)
    out = parallel.run_shared(list(range(20)), _slow_pid, helper=helper, keys=[f"p{i}" for i in range(20)])
    assert [v for v, _ in out] == [i * i for i in range(20)]
    assert len({pid for _, pid in out}) == 2, "the helper took no piece"
    assert not marker.exists(), "the helper freed what its pieces read before leaving"


def test_no_helper_is_started_for_a_library_caller(monkeypatch):
    monkeypatch.setattr(parallel, "_allowed", False)
    assert parallel.start_helper(_pieces_of_a_helper(3)) is None


def _json_model(shapes: int) -> str:
    """A JSON AST model of ``shapes`` structures, some of which the validators report."""
    out = {f"ex.json#J{i}": {"type": "structure", "members": {
        "a": {"target": "smithy.api#String", "traits": {"smithy.api#documentation": "x" * 40}},
        "b": {"target": f"ex.json#J{(i + 1) % shapes}"}}} for i in range(shapes)}
    for i in range(0, shapes, 7):
        out[f"ex.json#J{i}"]["traits"] = {"smithy.api#pattern": f"a{i}"}
    return json.dumps({"smithy": "2.0", "shapes": out}, indent=4)


@needs_fork
def test_a_large_model_is_loaded_by_a_helper_too_which_takes_validators(allowed, monkeypatch, tmp_path):
    from smithy2cfn import api, validation

    (tmp_path / "model.json").write_text(_json_model(1500), encoding="utf-8")
    started = []  # (one per helper forked)
    start = parallel.start_helper

    def counted(prepare):
        helper = start(prepare)
        if helper is not None:
            started.append(1)
        return helper
    monkeypatch.setattr(parallel, "start_helper", counted)
    here = []  # (the validators this process runs: those the helper ran are not counted)
    run_one = validation._run_one
    monkeypatch.setattr(validation, "_run_one", lambda model, check: here.append(1) or run_one(model, check))
    shared = api.validate_files(tmp_path)
    assert started == [1]
    ran_here = len(here)
    monkeypatch.setattr(parallel, "_allowed", False)
    alone = api.validate_files(tmp_path)
    assert [d.to_json() for d in shared.diagnostics] == [d.to_json() for d in alone.diagnostics]
    assert len(alone.diagnostics) > 100
    assert 0 < ran_here < len(here) - ran_here, "the helper took no validator"
    # a model whose loading fails is not validated: the helper is closed
    (tmp_path / "broken.json").write_text('{"smithy": "2.0", "shapes": {"ex#A": {"type": "nope"}}}', encoding="utf-8")
    monkeypatch.setattr(parallel, "_allowed", True)
    failed = api.validate_files(tmp_path)
    assert failed.exit_code == 1 and started == [1, 1]
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@needs_fork
def test_an_early_helper_is_started_for_a_json_model_of_many_shapes_only(allowed, monkeypatch):
    from smithy2cfn import validation
    from smithy2cfn.load import loader

    def started(sources) -> bool:
        helper = validation.start_helper(sources)
        if helper is not None:
            helper.close()
        return helper is not None

    shapes = validation.HELPER_FROM_SHAPES
    assert started([("m.json", _json_model(shapes))])
    assert not started([("m.json", _json_model(shapes - 100))]), "its validators are not shared"
    # an IDL model whose parsing is shared with a helper forked when it is read has none
    text = _model_text(50)
    monkeypatch.setattr(loader, "SHARED_FROM_CHARACTERS", len(text))
    assert not started([("m.json", _json_model(shapes)), ("m.smithy", text)])
    assert started([("m.json", _json_model(shapes)), ("m.smithy", text[:-1])])


@given(texts=st.lists(st.lists(st.sampled_from(['"type"', '"', "type", "x", '""type""']), max_size=12).map("".join),
                      max_size=4),
       count=st.integers(-1, 12))
@settings(max_examples=300, deadline=None)
def test_counting_shape_entries_stops_once_there_are_enough_and_counts_as_str_count(texts, count):
    from smithy2cfn import validation

    assert validation._writes_at_least(texts, '"type"', count) == \
        (sum(text.count('"type"') for text in texts) >= count)


@needs_fork
def test_the_program_loads_a_large_json_model_twice_and_prints_the_same(tmp_path):
    (tmp_path / "model.json").write_text(_json_model(2000), encoding="utf-8")
    printed = _validated_alike(tmp_path / "model.json")
    assert printed.count('"code"') > 100


@needs_fork
def test_a_helper_still_making_its_pieces_when_the_queue_is_empty_is_not_waited_for(allowed):
    def slow():
        time.sleep(60)  # (a helper starved of CPU, loading its model)
        return ["p0", "p1"], _slow_pid
    started = time.monotonic()
    helper = parallel.start_helper(slow)
    assert parallel.run_shared([0, 1, 2], _slow_pid, helper=helper, keys=["p0", "p1", "p2"]) == \
        [(0, os.getpid()), (1, os.getpid()), (4, os.getpid())]
    assert time.monotonic() - started < 30, "it was waited for"
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@needs_fork
def test_a_helper_tells_a_value_before_its_pieces_and_it_is_read_without_waiting(allowed, tmp_path):
    go = tmp_path / "go"

    def prepare():
        parallel.tell(frozenset({"smithy.api", str(os.getpid())}))
        while not go.exists():  # (the helper still making its pieces)
            time.sleep(0.005)
        return [f"p{i}" for i in range(8)], _slow_pid
    helper = parallel.start_helper(prepare)
    deadline = time.monotonic() + 30
    while (told := helper.told()) is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert told == frozenset({"smithy.api", str(helper.pid)}), "told before its pieces were made"
    assert helper.told() == told, "asked again: the same value"
    go.write_text("")
    out = parallel.run_shared(list(range(8)), _slow_pid, helper=helper, keys=[f"p{i}" for i in range(8)])
    assert [v for v, _ in out] == [i * i for i in range(8)]
    assert helper.told() is None, "a helper used is no longer asked"
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@needs_fork
def test_nothing_told_is_none_and_telling_outside_a_helper_does_nothing(allowed):
    parallel.tell("nobody listens")  # (not a helper: nothing is sent anywhere)
    helper = parallel.start_helper(lambda: (time.sleep(60), None)[1])
    assert helper.told() is None
    helper.close()
    assert helper.told() is None
    helper = parallel.start_helper(_pieces_of_a_helper(6))
    assert [v for v, _ in parallel.run_shared(list(range(6)), _slow_pid, helper=helper,
                                              keys=[f"p{i}" for i in range(6)])] == [i * i for i in range(6)]


@needs_fork
def test_this_process_takes_the_trait_packages_a_helper_selected(allowed, monkeypatch, tmp_path):
    from smithy2cfn import api, validation
    from smithy2cfn.load import loader

    (tmp_path / "model.json").write_text(_json_model(validation.HELPER_FROM_SHAPES + 100), encoding="utf-8")
    selected = []  # (the selections made in this process: the helper's, after the fork, are not seen)
    select = loader.select_packages
    monkeypatch.setattr(loader, "select_packages", lambda texts: selected.append(1) or select(texts))
    told = []
    start = validation.start_helper

    def waits_for_what_it_is_told(sources, **kwargs):
        helper = start(sources, **kwargs)
        deadline = time.monotonic() + 30  # (as a helper on a free CPU has told them by the time they are needed)
        while helper is not None and helper.told() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        told.append(helper and helper.told())
        return helper
    monkeypatch.setattr(validation, "start_helper", waits_for_what_it_is_told)
    shared = api.validate_files(tmp_path)
    assert told == [frozenset({"smithy.api"})] and selected == [], "this process selected them again"
    monkeypatch.setattr(parallel, "_allowed", False)
    alone = api.validate_files(tmp_path)
    assert selected == [1]
    assert [d.to_json() for d in shared.diagnostics] == [d.to_json() for d in alone.diagnostics]


@needs_fork
def test_no_descriptor_left_means_no_helper_and_the_work_done_here(allowed, monkeypatch):
    def no_pipe():
        raise OSError(24, "Too many open files")
    monkeypatch.setattr(os, "pipe", no_pipe)
    assert parallel.start_helper(_pieces_of_a_helper(3)) is None
    assert parallel.run_shared(list(range(6)), _slow_pid) == [(i * i, os.getpid()) for i in range(6)]
