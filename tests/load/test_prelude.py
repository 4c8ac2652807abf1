"""Tests of smithy2cfn.prelude: our own prelude and trait packages (Smithy 2.0 §"Prelude").

* every ``.smithy`` file of the package is listed by :func:`prelude_files`, in a fixed order;
* every shape and trait of the reference prelude (``shared/reference/prelude``, read only
  here, never copied) is defined by our files with the same shape type, the same members,
  member targets and required-ness, and the same trait-ness;
* every file parses without error diagnostics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

import pytest

from smithy2cfn.parse.idl import parse_idl
from smithy2cfn.parse.lower import lower_idl
from smithy2cfn.prelude import PRELUDE_FILE_NAMES, PRELUDE_NAMESPACE, prelude_files

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
REFERENCE_PRELUDE = SHARED / "reference" / "prelude"

SHAPE_TYPES = (
    "blob boolean document string byte short integer long float double bigInteger bigDecimal "
    "timestamp enum intEnum list map structure union service resource operation"
).split()

_NAMESPACE = re.compile(r"^namespace\s+([\w.]+)\s*$", re.M)
_SHAPE = re.compile(rf"^({'|'.join(SHAPE_TYPES)})\s+(\w+)\b(.*)$")
_MEMBER = re.compile(r"^\s+(\w+)\s*:\s*([\w.#$]+)")
_ENUM_MEMBER = re.compile(r"^\s+(\w+)\s*(?:=.*)?$")


@dataclass
class ScannedShape:
    """What a line-oriented scan sees of one top-level shape statement."""

    type: str
    is_trait: bool
    members: dict[str, tuple[str, bool]] = field(default_factory=dict)  # name -> (target, required)


def scan(text: str) -> tuple[str, dict[str, ScannedShape]]:
    """Scan a prelude-style IDL file (shape statements and their closing brace at column 0).

    Returns the namespace and the shapes by absolute shape ID. Not a parser: it relies on the
    layout both the reference and our files use (4-space member indentation, ``@trait`` and
    ``@required`` on their own lines).
    """
    ns_match = _NAMESPACE.search(text)
    assert ns_match, "no namespace statement"
    namespace = ns_match.group(1)
    shapes: dict[str, ScannedShape] = {}
    pending_traits: list[str] = []
    current: ScannedShape | None = None
    required_next = False
    depth = 0  # parenthesis depth of a multi-line trait application at column 0
    for raw in text.splitlines():
        line = "" if raw.lstrip().startswith("//") else raw  # whole-line comments only: URLs hold "//"
        if current is not None:
            if line.startswith("}"):
                current = None
                continue
            stripped = line.strip()
            if not stripped:
                continue
            if stripped.startswith("@"):
                required_next = required_next or stripped == "@required"
                continue
            member = _MEMBER.match(line)
            if member:
                current.members[member.group(1)] = (member.group(2), required_next)
            elif current.type in ("enum", "intEnum") and _ENUM_MEMBER.match(line):
                current.members[_ENUM_MEMBER.match(line).group(1)] = ("", required_next)
            required_next = False
            continue
        if depth > 0:
            depth += line.count("(") - line.count(")")
            continue
        if line.startswith("@"):
            pending_traits.append(re.match(r"@([\w.#]+)", line).group(1))
            depth = line.count("(") - line.count(")")
            continue
        shape = _SHAPE.match(line)
        if shape:
            kind, name, rest = shape.groups()
            scanned = ScannedShape(kind, "trait" in pending_traits)
            shapes[f"{namespace}#{name}"] = scanned
            pending_traits = []
            if "{" in rest and "}" not in rest:
                current = scanned
    return namespace, shapes


def scan_files(pairs: list[tuple[str, str]]) -> dict[str, ScannedShape]:
    """Scan several files; fails on a shape ID defined twice."""
    out: dict[str, ScannedShape] = {}
    for name, text in pairs:
        _, shapes = scan(text)
        for sid in shapes:
            assert sid not in out, f"{sid} defined twice ({name})"
        out.update(shapes)
    return out


@pytest.fixture(scope="module")
def ours() -> dict[str, ScannedShape]:
    return scan_files(prelude_files())


@pytest.fixture(scope="module")
def reference() -> dict[str, ScannedShape]:
    if not REFERENCE_PRELUDE.is_dir():
        pytest.skip(f"reference prelude not available: {REFERENCE_PRELUDE} is absent")
    pairs = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(REFERENCE_PRELUDE.glob("*.smithy"))]
    if not pairs:
        pytest.skip(f"reference prelude not available: no .smithy files in {REFERENCE_PRELUDE}")
    return scan_files(pairs)


# --------------------------------------------------------------------------- the package


def test_every_file_is_listed_in_a_fixed_order() -> None:
    on_disk = sorted(p.name for p in files("smithy2cfn.prelude").iterdir() if p.name.endswith(".smithy"))
    names = [name for name, _ in prelude_files()]
    assert sorted(names) == on_disk
    assert len(set(names)) == len(names)
    assert names == list(PRELUDE_FILE_NAMES)
    assert names[0] == f"{PRELUDE_NAMESPACE}.smithy"
    assert [n for n, _ in prelude_files()] == names  # stable across calls


def test_prelude_files_returns_a_new_list() -> None:
    first = prelude_files()
    first.clear()
    assert prelude_files()


@pytest.mark.parametrize("name", PRELUDE_FILE_NAMES)
def test_file_is_idl2_with_matching_namespace(name: str) -> None:
    text = dict(prelude_files())[name]
    assert re.search(r'^\$version:\s*"2"\s*$', text, re.M), "every prelude file is IDL 2.0"
    namespace, shapes = scan(text)
    assert f"{namespace}.smithy" == name
    assert shapes


def test_prelude_core_shapes(ours: dict[str, ScannedShape]) -> None:
    for name, kind in [("String", "string"), ("Integer", "integer"), ("Document", "document"),
                       ("PrimitiveInteger", "integer"), ("PrimitiveBoolean", "boolean"),
                       ("Unit", "structure")]:
        assert ours[f"smithy.api#{name}"].type == kind
    text = dict(prelude_files())["smithy.api.smithy"]
    assert re.search(r"^@default\(0\)\ninteger PrimitiveInteger$", text, re.M)
    assert re.search(r"^@default\(false\)\nboolean PrimitiveBoolean$", text, re.M)
    assert re.search(r"^@unitType\nstructure Unit \{\}$", text, re.M)


def test_extra_packages_define_the_traits_aws_models_use(ours: dict[str, ScannedShape]) -> None:
    for tid in [
        "smithy.rules#endpointRuleSet", "smithy.rules#endpointTests", "smithy.rules#clientContextParams",
        "smithy.rules#contextParam", "smithy.rules#staticContextParams",
        "smithy.rules#operationContextParams", "smithy.waiters#waitable", "smithy.test#smokeTests",
        "smithy.protocols#rpcv2Cbor", "smithy.protocols#rpcv2Json",
    ]:
        assert tid in ours and ours[tid].is_trait, tid


# --------------------------------------------------------------------------- vs. the reference


def test_every_reference_shape_is_defined(reference: dict[str, ScannedShape], ours: dict[str, ScannedShape]) -> None:
    missing = sorted(set(reference) - set(ours))
    assert not missing, f"shapes of the reference prelude missing from ours: {missing}"


def test_no_unexpected_shapes_in_reference_namespaces(
    reference: dict[str, ScannedShape], ours: dict[str, ScannedShape]
) -> None:
    namespaces = {sid.split("#")[0] for sid in reference}
    extra = sorted(sid for sid in ours if sid.split("#")[0] in namespaces and sid not in reference)
    assert not extra, f"shapes not in the reference prelude: {extra}"


def test_traits_match_the_reference(reference: dict[str, ScannedShape], ours: dict[str, ScannedShape]) -> None:
    ref_traits = sorted(sid for sid, s in reference.items() if s.is_trait)
    our_traits = sorted(sid for sid, s in ours.items() if s.is_trait and sid.split("#")[0] in
                        {t.split("#")[0] for t in reference})
    assert len(ref_traits) > 100
    assert our_traits == ref_traits


def test_shape_types_and_members_match_the_reference(
    reference: dict[str, ScannedShape], ours: dict[str, ScannedShape]
) -> None:
    problems = []
    for sid, ref in sorted(reference.items()):
        mine = ours.get(sid)
        if mine is None:
            continue  # reported by test_every_reference_shape_is_defined
        if mine.type != ref.type:
            problems.append(f"{sid}: type {mine.type} != {ref.type}")
        if mine.members != ref.members:
            problems.append(f"{sid}: members {mine.members} != {ref.members}")
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------- parsing


def test_every_file_parses_without_errors() -> None:
    failures = []
    for name, text in prelude_files():
        parsed = parse_idl(text, name)
        errors = [d for d in parsed.diagnostics if d.is_error]
        failures += [f"{name}: {d.format_text()}" for d in errors]
        if not errors:
            assert parsed.namespace == name.removesuffix(".smithy")
            assert {s.name for s in parsed.shapes} == {sid.split("#")[1] for sid in scan(text)[1]}
    assert not failures, "\n".join(failures)


def _lowered_shapes(pairs: list[tuple[str, str]]) -> dict[str, dict]:
    """Parse and lower files together into JSON AST shapes."""
    parsed = [parse_idl(text, name) for name, text in pairs]
    known: set[str] = set()
    for p in parsed:
        known |= p.defined_shape_ids()
    shapes: dict[str, dict] = {}
    for p in parsed:
        doc = lower_idl(p, known)
        assert not [d for d in doc.diagnostics if d.is_error], p.path
        shapes.update(doc.ast["shapes"])
    return shapes


def _semantic(value):
    """Drop what may differ from the reference: docs, breaking-change messages, empty traits."""
    if isinstance(value, list):
        return [_semantic(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, item in value.items():
        if key == "smithy.api#documentation" or (key == "message" and "change" in value):
            continue
        item = _semantic(item)
        if key == "traits" and item == {}:
            continue
        out[key] = item
    return out


def test_lowered_shapes_equal_the_reference() -> None:
    """Parsed to JSON AST, every reference shape equals ours: type, members, traits, values."""
    if not REFERENCE_PRELUDE.is_dir():
        pytest.skip(f"reference prelude not available: {REFERENCE_PRELUDE} is absent")
    reference = _lowered_shapes(
        [(p.name, p.read_text(encoding="utf-8")) for p in sorted(REFERENCE_PRELUDE.glob("*.smithy"))]
    )
    ours = _lowered_shapes(prelude_files())
    different = [sid for sid in sorted(reference) if _semantic(reference[sid]) != _semantic(ours.get(sid))]
    assert not different, f"shapes that differ from the reference prelude: {different}"
