"""Resource-type projects under a folder (``build --cfn-project DIR``), found by the
``typeName`` of their ``.rpdk-config`` (the file ``cfn init`` writes; cloudformation-cli
``rpdk/core/project.py`` reads it, at most 10 KiB), and the files smithy2cfn writes there.

Into the project of a type it writes the schema (``<org>-<service>-<resource>.json``, the
name cfn-cli gives it), ``docs/``, ``inputs/`` and ``resource-role.yaml``, and nothing else:
never ``.rpdk-config``, ``template.yml`` or handler code. The schema, the docs and the role
are what cfn-cli's own ``cfn generate`` rewrites each time; contract-test inputs are often
written by hand, so an ``inputs/`` file is replaced (or removed, when the model no longer
makes it) only when smithy2cfn wrote it and nobody changed it since:
``smithy2cfn-generated.json`` (next to ``.rpdk-config``) records the SHA-256 of every file
written there. A person's inputs are left as they are, with warning ``S5052``, and no input
of that type is written.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path

from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.load.files import MAX_WALK_ENTRIES, read_bytes

CODES = declare_codes(
    Code("S5050", Severity.ERROR, None,
         "`--cfn-project`: two projects under the folder name the same typeName, or the folder is missing",
         usage=True),
    Code("S5051", Severity.WARNING, None,
         "`--cfn-project`: a type of the build has no project under the folder (its files are not written), or a "
         "`.rpdk-config` cannot be read"),
    Code("S5052", Severity.WARNING, None,
         "`--cfn-project`: an `inputs/` file smithy2cfn did not write (or that was changed since) is kept; no "
         "input of that type is written"),
)

#: The file ``cfn init`` writes at a project's root.
RPDK_CONFIG = ".rpdk-config"
#: cloudformation-cli ``MAX_RPDK_CONFIG_LENGTH``.
MAX_RPDK_CONFIG_BYTES = 10 * 1024
#: What smithy2cfn wrote into a project, with each file's SHA-256.
MANIFEST = "smithy2cfn-generated.json"
#: Folders never searched for projects.
SKIPPED = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", "build",
                     "target", ".aws-sam"})


def find_projects(root: str | os.PathLike[str], diags: Diagnostics) -> dict[str, Path]:
    """``typeName`` → project folder for every ``.rpdk-config`` under ``root`` (``root``
    included; symbolic links to folders are not followed; hidden folders and
    :data:`SKIPPED` are not searched; at most :data:`~smithy2cfn.load.files.MAX_WALK_ENTRIES`
    entries). Errors: ``S5050`` (no such folder; two projects of one type); warning
    ``S5051`` for a ``.rpdk-config`` that is not a JSON object with a string ``typeName``.
    Never raises."""
    base = Path(root)
    if not base.is_dir():
        diags.error("S5050", f"--cfn-project {root} is not a folder", Span(os.fspath(root)),
                    hint="give the folder holding the resource-type projects (made with cfn init)")
        return {}
    found: dict[str, Path] = {}
    seen = 0
    for folder, dirs, files in os.walk(base, followlinks=False):
        seen += len(dirs) + len(files)
        if seen > MAX_WALK_ENTRIES:
            diags.warning("S5051", f"{root} has more than {MAX_WALK_ENTRIES:,} entries: the search for projects "
                                   "stopped", Span(os.fspath(root)))
            break
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED)
        if RPDK_CONFIG not in files:
            continue
        config = Path(folder) / RPDK_CONFIG
        data, problem = read_bytes(config, MAX_RPDK_CONFIG_BYTES, follow_symlinks=False)
        type_name = None
        if data is not None:
            try:
                value = json.loads(data.decode("utf-8"))
                type_name = value.get("typeName") if isinstance(value, dict) else None
            except (ValueError, UnicodeDecodeError):
                type_name = None
        if not isinstance(type_name, str):
            why = problem.message if problem is not None else "it is not a JSON object with a string typeName"
            diags.warning("S5051", f"{config} is left out: {why}", Span(os.fspath(config)))
            continue
        if type_name in found:
            diags.error("S5050", f"{config} and {found[type_name] / RPDK_CONFIG} are both projects of {type_name}",
                        Span(os.fspath(config)), hint="keep one project per type under the folder")
            continue
        found[type_name] = Path(folder)
    return found


def sha256(text: str) -> str:
    """The SHA-256 of a text's UTF-8 bytes, in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _recorded(project: Path) -> dict[str, str]:
    data, _ = read_bytes(project / MANIFEST, 1 << 20, follow_symlinks=False)
    try:
        value = json.loads(data.decode("utf-8")) if data is not None else {}
    except (ValueError, UnicodeDecodeError):
        return {}
    files = value.get("files") if isinstance(value, dict) else None
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)} \
        if isinstance(files, dict) else {}


def project_files(project: Path, type_name: str, files: Mapping[str, str],
                  diags: Diagnostics) -> tuple[dict[str, str], list[str]]:
    """What to do in ``project``: the files to write (relative path → text: ``files`` and the
    manifest, :data:`MANIFEST`), and the ``inputs/`` files to remove (smithy2cfn wrote them,
    nobody changed them since, and the model no longer makes them: a set of an example that
    is gone). When the project's ``inputs/`` holds a file smithy2cfn did not write or that was
    changed since, no ``inputs/`` file is written or removed (warning ``S5052``)."""
    recorded = _recorded(project)
    inputs = project / "inputs"
    foreign: list[str] = []
    unchanged: list[str] = []
    if inputs.is_dir() and not inputs.is_symlink():
        for name in sorted(os.listdir(inputs)):
            rel = f"inputs/{name}"
            data, _ = read_bytes(inputs / name, 1 << 24, follow_symlinks=False)
            current = hashlib.sha256(data).hexdigest() if data is not None else None
            if current is not None and recorded.get(rel) == current:
                unchanged.append(rel)
            elif not (current is not None and rel in files and sha256(files[rel]) == current):
                foreign.append(rel)
    out = dict(files)
    remove: list[str] = []
    if foreign:
        diags.warning("S5052", f"{project / foreign[0]} was not written by smithy2cfn (or was changed since): the "
                               f"inputs of {type_name} are kept as they are ({len(foreign)} such file(s))",
                      Span(os.fspath(project / foreign[0])),
                      hint="delete the inputs folder's files to let smithy2cfn write them from the model")
        out = {k: v for k, v in out.items() if not k.startswith("inputs/")}
    else:
        remove = [rel for rel in unchanged if rel not in out]
    manifest = {"generatedBy": "smithy2cfn: these files are written from the Smithy model; regenerate them",
                "files": {k: sha256(v) for k, v in sorted(out.items())}}
    out[MANIFEST] = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    return out, remove


__all__ = ["CODES", "MANIFEST", "RPDK_CONFIG", "find_projects", "project_files", "sha256"]
