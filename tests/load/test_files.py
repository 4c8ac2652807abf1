"""The package's one bounded read (:func:`smithy2cfn.load.files.read_bytes`): a file read
whole in one read of the size ``fstat`` gives, and still exactly, and never past the limit,
when the file changes between the ``fstat`` and the read."""

from __future__ import annotations

import os

import pytest

from smithy2cfn.load import files


@pytest.mark.parametrize("size", [0, 1, 4095, 4096, 1 << 20, (1 << 20) + 3, 3 * (1 << 20) + 1])
def test_a_file_is_read_whole(tmp_path, size):
    path = tmp_path / "model.json"
    data = bytes(range(256)) * (size // 256) + bytes(size % 256)
    path.write_bytes(data)
    assert files.read_bytes(path) == (data, None)


@pytest.mark.parametrize("limit", [9, 10])
def test_the_limit_is_the_largest_size_read(tmp_path, limit):
    path = tmp_path / "model.smithy"
    path.write_bytes(b"0123456789")
    data, problem = files.read_bytes(path, limit)
    if limit >= 10:
        assert (data, problem) == (b"0123456789", None)
    else:
        assert data is None and problem is not None and problem.code == "S1004"


class _Fstat:
    """``os.fstat`` of a file that has changed since: its size reported as ``size``."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.real = os.fstat

    def __call__(self, fd: int) -> os.stat_result:
        st = self.real(fd)
        fields = list(st)
        fields[6] = self.size  # st_size
        return os.stat_result(fields)


@pytest.mark.parametrize("reported", [0, 5, 999, 1001, 5000])
def test_a_file_that_changed_since_fstat_is_read_to_its_end(tmp_path, monkeypatch, reported):
    path = tmp_path / "model.json"
    data = b"x" * 1000
    path.write_bytes(data)
    monkeypatch.setattr(files.os, "fstat", _Fstat(reported))
    assert files.read_bytes(path) == (data, None)


def test_a_file_that_grew_past_the_limit_since_fstat_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "model.json"
    path.write_bytes(b"x" * 100)
    monkeypatch.setattr(files.os, "fstat", _Fstat(10))
    data, problem = files.read_bytes(path, 50)
    assert data is None and problem is not None and problem.code == "S1004"
