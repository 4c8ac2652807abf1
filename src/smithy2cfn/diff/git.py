"""The model at a git revision, read without touching the working tree (``diff --base REV``).

The files under one folder of the repository, as they are at ``REV``, are copied into a
temporary folder (``git ls-tree -r -z REV -- FOLDER``, then ``git cat-file --batch`` for
their contents): nothing in the working tree, the index or ``HEAD`` changes, and nothing from
the repository runs (``ls-tree`` and ``cat-file`` read objects; they run no hook, filter or
fsmonitor). Symbolic links and submodules are left out; a path with ``..`` or an absolute one
(which git does not make) is refused; the walk stops at the loader's limits
(:data:`smithy2cfn.load.files.MAX_WALK_ENTRIES`, :data:`~smithy2cfn.load.files.MAX_WALK_BYTES`).
Diagnostics point at the files as ``REV:path`` (:meth:`Checkout.shown`).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path, PurePosixPath

from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.load.files import MAX_WALK_BYTES, MAX_WALK_ENTRIES
from smithy2cfn.records import Record

CODES = declare_codes(
    Code("S7001", Severity.ERROR, None, "`diff --base`: git is not installed, or the current folder is not in a "
         "git repository", usage=True),
    Code("S7002", Severity.ERROR, None, "`diff --base`: the revision is not a commit of the repository", usage=True),
    Code("S7003", Severity.ERROR, None, "`diff --base`: a path is outside the repository, or git failed to read "
         "the revision's files", usage=True),
)

#: Seconds a git command may take (a hung credential prompt or a huge repository).
GIT_TIMEOUT = 300


class Checkout(Record):
    """The files of one folder of the repository at a revision, copied into ``root``.

    Attributes:
        rev: the revision as given (``origin/main``); commit: the commit it names.
        top: the repository's working tree (absolute); folder: the folder copied, relative
            to ``top`` (``""``: all of it); root: the temporary copy of ``top`` (the folder
            copied is ``root / folder``).
        files: how many files were copied.
    """

    rev: str
    commit: str
    top: Path
    folder: str
    root: Path
    files: int

    def __init__(self, rev: str, commit: str, top: Path, folder: str, root: Path, files: int) -> None:
        self.rev, self.commit, self.top, self.folder, self.root, self.files = rev, commit, top, folder, root, files

    def at_revision(self, path: str | os.PathLike[str]) -> Path:
        """Where a path of the working tree (relative to the current folder, or absolute) is
        in the copy."""
        rel = os.path.relpath(os.path.abspath(path), self.top)
        return self.root / rel

    def shown(self, path: str) -> str:
        """A path of the copy as diagnostics show it (``REV:model/a.smithy``); other paths as
        they are."""
        root = os.fspath(self.root) + os.sep
        if path.startswith(root):
            return f"{self.rev}:{PurePosixPath(*Path(path[len(root):]).parts)}"
        return path


def _git(args: list[str], cwd: str | os.PathLike[str], data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}
    return subprocess.run(["git", "-c", "core.fsmonitor=false", *args], cwd=cwd, input=data, capture_output=True,
                          timeout=GIT_TIMEOUT, env=env, check=False)


def _first_line(data: bytes) -> str:
    text = data.decode("utf-8", "replace").strip()
    return text.splitlines()[0][:300] if text else ""


def checkout(rev: str, paths: list[str], dest: Path, diags: Diagnostics) -> Checkout | None:
    """Copy, into ``dest``, the files at ``rev`` of the smallest folder of the current
    folder's repository that holds the current folder and every one of ``paths``.

    Returns:
        The :class:`Checkout`, or ``None`` after an error (``S7001`` no git or no
        repository, ``S7002`` unknown revision, ``S7003`` a path outside the repository or
        git failing; ``S1007`` when the folder has more files or bytes than the loader's
        limits). Never raises.
    """
    where = Span("<command line --base>")
    try:
        found = _git(["rev-parse", "--show-toplevel"], ".")
    except (OSError, subprocess.SubprocessError) as e:
        diags.error("S7001", f"cannot run git: {e}", where, hint="install git, or compare two folders with --old "
                    "and --new")
        return None
    if found.returncode != 0:
        diags.error("S7001", f"the current folder is not in a git repository ({_first_line(found.stderr)})", where,
                    hint="run diff --base from inside the repository, or compare two folders with --old and --new")
        return None
    top = Path(found.stdout.decode("utf-8", "surrogateescape").strip())
    verified = _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"], top)
    if verified.returncode != 0 or not verified.stdout.strip():
        diags.error("S7002", f"'{rev}' is not a commit of the repository {top}", where,
                    hint="give a branch, tag or commit (fetch it first: git fetch origin main)")
        return None
    commit = verified.stdout.decode("ascii", "replace").strip()
    folders = []
    for path in [os.curdir, *paths]:
        absolute = os.path.realpath(path)
        rel = os.path.relpath(absolute, os.path.realpath(top))
        if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
            diags.error("S7003", f"{path} is outside the repository {top}", Span(path),
                        hint="diff --base compares paths inside the current folder's repository")
            return None
        folders.append(rel if os.path.isdir(absolute) or not os.path.exists(absolute) else os.path.dirname(rel))
    folder = os.path.commonpath([f if f != os.curdir else "" for f in folders] or [""])
    listed = _git(["ls-tree", "-r", "-z", "--full-tree", commit, "--", folder or "."], top)
    if listed.returncode != 0:
        diags.error("S7003", f"git cannot list {folder or 'the repository'} at {rev}: {_first_line(listed.stderr)}",
                    where)
        return None
    blobs: list[tuple[str, str]] = []
    for entry in listed.stdout.split(b"\0"):
        if not entry:
            continue
        meta, _, name = entry.partition(b"\t")
        mode, kind, sha = (meta.decode("ascii", "replace").split() + ["", "", ""])[:3]
        if kind != "blob" or mode == "120000":
            continue
        rel_name = name.decode("utf-8", "surrogateescape")
        parts = PurePosixPath(rel_name).parts
        if not parts or rel_name.startswith("/") or any(p in ("..", ".", "") for p in parts):
            continue
        blobs.append((sha, rel_name))
        if len(blobs) > MAX_WALK_ENTRIES:
            diags.error("S1007", f"{folder or 'the repository'} at {rev} has more than {MAX_WALK_ENTRIES:,} files",
                        where, hint="run diff --base from a smaller folder of the repository")
            return None
    contents = _git(["cat-file", "--batch"], top, "".join(f"{sha}\n" for sha, _ in blobs).encode("ascii"))
    if contents.returncode != 0:
        diags.error("S7003", f"git cannot read the files at {rev}: {_first_line(contents.stderr)}", where)
        return None
    data, pos, total = contents.stdout, 0, 0
    for _sha, rel_name in blobs:
        end = data.index(b"\n", pos)
        header = data[pos:end].split()
        size = int(header[2]) if len(header) == 3 and header[1] == b"blob" else -1
        if size < 0:
            diags.error("S7003", f"git cannot read {rel_name} at {rev}", where)
            return None
        body = data[end + 1:end + 1 + size]
        pos = end + 1 + size + 1
        total += size
        if total > MAX_WALK_BYTES:
            diags.error("S1007", f"{folder or 'the repository'} at {rev} holds more than {MAX_WALK_BYTES:,} bytes",
                        where, hint="run diff --base from a smaller folder of the repository")
            return None
        target = dest.joinpath(*PurePosixPath(rel_name).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
    return Checkout(rev, commit, top, folder, dest, len(blobs))


__all__ = ["CODES", "Checkout", "checkout"]
