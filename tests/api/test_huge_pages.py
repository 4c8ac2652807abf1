"""smithy2cfn.huge_pages: when the program puts its heap on transparent huge pages (each
condition, on a kernel made of files), that it does so in a program's process (huge pages
in use, once), never in a library's, and that the program prints the same either way.

The calls that change the allocator run in child processes only: this test runner's heap
stays as it is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from smithy2cfn import huge_pages

REPO = Path(__file__).resolve().parents[2]

#: /proc/buddyinfo with plenty of free 2 MiB (order 9) and 4 MiB (order 10) blocks.
PLENTY = ("Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3\n"
          "Node 0, zone   Normal  20946  11120   6459   3641   3446   1955   1165    679    338    133     73\n")


def _gnu_linux() -> bool:
    try:
        return sys.platform.startswith("linux") and os.confstr("CS_GNU_LIBC_VERSION").startswith("glibc")
    except (ValueError, OSError, AttributeError):
        return False


@pytest.fixture
def kernel(tmp_path, monkeypatch):
    """A kernel made of files: THP ``madvise``, 2 MiB pages, plenty of them free; the
    process's limits unlimited. Returns a function that rewrites one file."""
    if not _gnu_linux() or os.sysconf("SC_PAGE_SIZE") != 4096:
        pytest.skip("huge pages are used on Linux with the GNU C library (and 4 KiB pages here) only")
    import resource

    files = {"enabled": "always [madvise] never\n", "size": "2097152\n",
             "size_enabled": "always [inherit] madvise never\n", "buddy": PLENTY}

    def write(name: str, text: str | None) -> None:
        path = tmp_path / name
        if text is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(text)

    for name, text in files.items():
        write(name, text)
    monkeypatch.setattr(huge_pages, "_THP_SETTING", str(tmp_path / "enabled"))
    monkeypatch.setattr(huge_pages, "_THP_SIZE", str(tmp_path / "size"))
    monkeypatch.setattr(huge_pages, "_THP_SIZE_SETTING", str(tmp_path / "size_enabled"))  # (no "{}": any size)
    monkeypatch.setattr(huge_pages, "_BUDDY_INFO", str(tmp_path / "buddy"))
    monkeypatch.setattr(resource, "getrlimit", lambda limit: (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    return write


def test_wanted_where_the_kernel_gives_huge_pages(kernel):
    assert huge_pages.wanted({}) == 2 << 20
    kernel("enabled", "[always] madvise never\n")
    assert huge_pages.wanted({}) == 2 << 20
    kernel("size_enabled", None)  # (before Linux 6.8: no setting per size)
    assert huge_pages.wanted({}) == 2 << 20


@pytest.mark.parametrize("name, text", [
    ("enabled", "always madvise [never]\n"),
    ("size_enabled", "always inherit madvise [never]\n"),  # this size is off, whatever the setting above says
    ("size", "3000000\n"),  # not a power of two
    ("size", "4096\n"),  # no larger than a page
    ("size", str(512 << 20) + "\n"),  # (arm64 with 64 KiB pages: larger than an eighth of the reserve)
    ("size", "two megabytes\n"),
    ("enabled", None),  # no transparent huge pages in this kernel
    ("buddy", "Node 0, zone   Normal  20946  11120   6459   3641   3446   1955   1165    679    338     63      0\n"),
    ("buddy", None),
])
def test_not_wanted_where_the_kernel_gives_none_or_would_have_to_compact(kernel, name, text):
    kernel(name, text)
    assert huge_pages.wanted({}) == 0


def test_enough_free_blocks_counts_the_larger_ones_as_several(kernel):
    # 63 free 2 MiB blocks are too few; one free 4 MiB block more makes 65
    kernel("buddy", "Node 0, zone   Normal  0 0 0 0 0 0 0 0 0 63 0\n")
    assert huge_pages.wanted({}) == 0
    kernel("buddy", "Node 0, zone   Normal  0 0 0 0 0 0 0 0 0 63 1\n")
    assert huge_pages.wanted({}) == 2 << 20


def test_not_wanted_when_turned_off_or_the_process_is_limited(kernel, monkeypatch):
    assert huge_pages.wanted({huge_pages.VARIABLE: "0"}) == 0
    assert huge_pages.wanted({huge_pages.VARIABLE: "1"}) == 2 << 20
    import resource

    monkeypatch.setattr(resource, "getrlimit",
                        lambda limit: (1 << 30, resource.RLIM_INFINITY) if limit == resource.RLIMIT_AS
                        else (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    assert huge_pages.wanted({}) == 0


def test_not_wanted_off_linux(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    assert huge_pages.wanted({}) == 0


#: A child process: calls use_huge_pages (twice), allocates small objects (arenas) and larger
#: ones (the C library's heap), and prints what it returned and the huge pages it holds.
_PROBE = """
import json, sys
from smithy2cfn import huge_pages
first = huge_pages.use_huge_pages()
again = huge_pages.use_huge_pages()
small = [(i, str(i)) for i in range(300_000)]
large = [bytearray(2048) for _ in range(20_000)]
held = {}
with open("/proc/self/smaps_rollup") as f:
    for line in f:
        key, _, value = line.partition(":")
        if key in ("AnonHugePages", "Rss"):
            held[key] = int(value.split()[0])
print(json.dumps({"first": first, "again": again, "wanted": huge_pages.wanted(), **held}))
"""


def _probe(**env: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env}, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_process_that_asks_gets_huge_pages_once():
    on = _probe()
    if not on["wanted"]:
        pytest.skip("this machine gives no transparent huge pages (huge_pages.wanted() is 0 here)")
    assert on["first"] is True and on["again"] is True
    assert on["AnonHugePages"] >= 4096  # (kB: two huge pages at least, of the 60 MB the probe made)
    off = _probe(**{huge_pages.VARIABLE: "0"})
    assert off["first"] is False and off["again"] is False
    with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
        if "[madvise]" in f.read():  # (with "always" the kernel may give some anyway)
            assert off["AnonHugePages"] == 0


def test_a_library_process_keeps_its_allocator(tmp_path):
    """Importing smithy2cfn and building never calls use_huge_pages: only the program does."""
    code = ("import smithy2cfn, smithy2cfn.huge_pages as h; "
            f"r = smithy2cfn.build([{str(REPO / 'examples' / 'vault' / 'model')!r}], {str(tmp_path)!r}, "
            "{'service': 'acme.vault#VaultService', 'organizationName': 'Acme'}); "
            "print(r.exit_code, h._done)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0 False"


def test_the_program_prints_and_writes_the_same_either_way(tmp_path):
    model = REPO / "examples" / "vault" / "model"
    outputs = []
    for value in ("1", "0"):
        out = tmp_path / value
        proc = subprocess.run([sys.executable, "-m", "smithy2cfn", "build", "--format", "json", "--org", "Acme",
                               str(model), "-o", str(out)],
                              capture_output=True, text=True, timeout=120, check=False,
                              env={**os.environ, huge_pages.VARIABLE: value})
        files = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
        outputs.append((proc.returncode, proc.stdout, files))
    assert outputs[0][2], "the example writes schemas"
    assert outputs[0] == outputs[1]
