"""Hostile jars and folder walks: every problem a located diagnostic, never a traceback, a
hang, or a read past the limits (README "Limits"; :mod:`smithy2cfn.load.jars`,
:class:`smithy2cfn.load.files.ReadBudget`). Jars are built here with :mod:`zipfile`, then
damaged byte by byte where a writer would refuse to make them.
"""

from __future__ import annotations

import os
import struct
import zipfile
from pathlib import Path

import pytest

from smithy2cfn.diagnostics import Diagnostics, Severity, Span
from smithy2cfn.load import files, jars, load_model
from smithy2cfn.load.loader import discover

MODEL = '$version: "2"\nnamespace ex\nstring A\n'


def make_jar(path: Path, entries: list[tuple[str, str | bytes]], compression: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, content in entries:
            zf.writestr(name, content)
    return path


def load(*paths, spans=None) -> tuple:
    diags = Diagnostics()
    model = load_model([str(p) for p in paths], diags, spans=spans)
    return model, diags


def codes(diags) -> list[tuple[str, int]]:
    return [(d.code, d.span.line if d.span else -1) for d in diags if d.severity >= Severity.WARNING]


def patch_headers(path: Path, entry: str, **fields: int) -> None:
    """Rewrite fields of ``entry``'s local and central headers (``flags``, ``method``,
    ``size``: the uncompressed size)."""
    data = bytearray(path.read_bytes())
    name = entry.encode()
    local = {"flags": (6, "<H"), "method": (8, "<H"), "size": (22, "<L")}
    central = {"flags": (8, "<H"), "method": (10, "<H"), "size": (24, "<L")}
    for signature, offsets, name_at in ((b"PK\x03\x04", local, 30), (b"PK\x01\x02", central, 46)):
        at = data.find(signature)
        while at >= 0:
            if data[at + name_at: at + name_at + len(name)] == name:
                for key, value in fields.items():
                    offset, fmt = offsets[key]
                    struct.pack_into(fmt, data, at + offset, value)
            at = data.find(signature, at + 4)
    path.write_bytes(bytes(data))


# --------------------------------------------------------------------------- jars


def test_a_zip_bomb_is_refused_from_its_compression_ratio(tmp_path):
    jar = make_jar(tmp_path / "bomb.jar", [("META-INF/smithy/manifest", "bomb.smithy\nok.smithy\n"),
                                           ("META-INF/smithy/bomb.smithy", b"/" * (8 << 20)),
                                           ("META-INF/smithy/ok.smithy", MODEL)])
    model, diags = load(jar)
    [error] = [d for d in diags if d.is_error]
    assert error.code == "S1026" and "to 1" in error.message
    assert error.span == Span(f"{jar}!/META-INF/smithy/manifest", 1, 1, 1, 12)
    assert "ex#A" in model.shapes


def test_a_model_below_the_ratio_floor_may_compress_well(tmp_path):
    jar = make_jar(tmp_path / "m.jar", [("META-INF/smithy/manifest", "a.smithy"),
                                        ("META-INF/smithy/a.smithy", MODEL + "/" * 100_000 + "\n")])
    _, diags = load(jar)
    assert not [d for d in diags if d.is_error]


def test_an_entry_that_inflates_past_its_declared_size_is_refused(tmp_path):
    """The central directory says 100 bytes; the data inflates to 1 MiB: the reader stops at
    the declared size and the CRC does not match (S1020), nothing more is read."""
    jar = make_jar(tmp_path / "liar.jar", [("META-INF/smithy/manifest", "a.smithy"),
                                           ("META-INF/smithy/a.smithy", MODEL + "//" + "x" * (1 << 20) + "\n")])
    patch_headers(jar, "META-INF/smithy/a.smithy", size=100)
    _, diags = load(jar)
    assert codes(diags) == [("S1020", 1)]


def test_an_entry_larger_than_the_file_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(jars, "MAX_FILE_BYTES", 1000)
    jar = make_jar(tmp_path / "big.jar", [("META-INF/smithy/manifest", "big.smithy\nsmall.smithy"),
                                          ("META-INF/smithy/big.smithy", MODEL + "//" + os.urandom(600).hex()),
                                          ("META-INF/smithy/small.smithy", MODEL.replace("A", "B"))])
    model, diags = load(jar)
    assert codes(diags) == [("S1025", 1)]
    assert "ex#B" in model.shapes and "ex#A" not in model.shapes


def test_a_manifest_is_bounded_in_size_and_in_lines(tmp_path, monkeypatch):
    monkeypatch.setattr(jars, "MAX_MANIFEST_BYTES", 1000)
    jar = make_jar(tmp_path / "long.jar", [("META-INF/smithy/manifest", "# " + os.urandom(600).hex())])
    _, diags = load(jar)
    assert codes(diags) == [("S1025", 0)] and "1,000 bytes" in next(iter(diags)).message
    monkeypatch.setattr(jars, "MAX_JAR_ENTRIES", 5)
    lines = "".join(f"missing{i}.smithy\n" for i in range(40))
    jar = make_jar(tmp_path / "lines.jar", [("META-INF/smithy/manifest", lines)])
    _, diags = load(jar)
    assert codes(diags) == [("S1023", i) for i in range(1, 6)] + [("S1024", 6)]


def test_manifest_lines_that_leave_the_jar_are_refused(tmp_path):
    jar = make_jar(tmp_path / "up.jar", [
        ("META-INF/smithy/manifest", "../../../../etc/passwd\n/etc/hosts\nok/../../x.smithy\nok.smithy\n"),
        ("META-INF/smithy/ok.smithy", MODEL),
        ("META-INF/x.smithy", MODEL.replace("A", "X")),
    ])
    model, diags = load(jar)
    assert codes(diags) == [("S1022", 1), ("S1022", 2), ("S1022", 3)]
    assert "ex#A" in model.shapes and "ex#X" not in model.shapes


@pytest.mark.parametrize("limit, attribute", [(10, "MAX_JAR_ENTRIES"), (200, "MAX_JAR_DIRECTORY_BYTES")])
def test_too_many_entries_are_refused_before_the_directory_is_read(tmp_path, monkeypatch, limit, attribute):
    monkeypatch.setattr(jars, attribute, limit)
    jar = make_jar(tmp_path / "many.jar", [("META-INF/smithy/manifest", "a.smithy"),
                                           ("META-INF/smithy/a.smithy", MODEL)]
                   + [(f"junk/{i}.class", b"") for i in range(20)])
    opened = []
    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", lambda self: opened.append(self))
    model, diags = load(jar)
    assert codes(diags) == [("S1024", 0)] and not opened
    assert [d.span for d in diags] == [Span(str(jar))]


def test_a_zip64_end_record_is_read_for_the_entry_count(tmp_path, monkeypatch):
    monkeypatch.setattr(jars, "MAX_JAR_ENTRIES", 10)
    path = tmp_path / "z64.jar"
    with zipfile.ZipFile(path, "w", allowZip64=True) as zf:
        zf.writestr("META-INF/smithy/manifest", "a.smithy")
        for i in range(20):
            zf.writestr(f"junk/{i}", b"")
    data = bytearray(path.read_bytes())
    # Rewrite as ZIP64: the classic end record's counts become 0xFFFF, a ZIP64 record and its locator hold them.
    end = data.rfind(b"PK\x05\x06")
    _, _, _, _, count, cd_size, cd_offset, _ = struct.unpack("<4s4H2LH", data[end:end + 22])
    record = struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, cd_size, cd_offset)
    locator = struct.pack("<4sLQL", b"PK\x06\x07", 0, end, 1)
    classic = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, cd_size, cd_offset, 0)
    path.write_bytes(bytes(data[:end]) + record + locator + classic)
    _, diags = load(path)
    assert codes(diags) == [("S1024", 0)] and "21 entries" in next(iter(diags)).message


def test_duplicate_entry_names_are_refused(tmp_path):
    with pytest.warns(UserWarning, match="Duplicate name"):
        jar = make_jar(tmp_path / "dup.jar", [("META-INF/smithy/manifest", "a.smithy\nb.smithy"),
                                              ("META-INF/smithy/a.smithy", MODEL),
                                              ("META-INF/smithy/a.smithy", MODEL.replace("A", "Evil")),
                                              ("META-INF/smithy/b.smithy", MODEL.replace("A", "B"))])
    model, diags = load(jar)
    assert codes(diags) == [("S1027", 1)]
    assert "ex#B" in model.shapes and "ex#A" not in model.shapes and "ex#Evil" not in model.shapes
    with pytest.warns(UserWarning, match="Duplicate name"):
        jar = make_jar(tmp_path / "dup2.jar", [("META-INF/smithy/manifest", "a.smithy"),
                                               ("META-INF/smithy/manifest", "b.smithy")])
    _, diags = load(jar)
    assert codes(diags) == [("S1027", 0)]


@pytest.mark.parametrize("content", [b"", b"not a zip at all", b"PK\x05\x06" + b"\0" * 10,
                                     b"PK\x03\x04" + b"\xff" * 100])
def test_what_is_not_a_jar_is_s1020(tmp_path, content):
    jar = tmp_path / "broken.jar"
    jar.write_bytes(content)
    _, diags = load(jar)
    assert codes(diags) == [("S1020", 0)]


def test_a_truncated_jar_is_s1020(tmp_path):
    jar = make_jar(tmp_path / "t.jar", [("META-INF/smithy/manifest", "a.smithy"), ("META-INF/smithy/a.smithy", MODEL)])
    jar.write_bytes(jar.read_bytes()[:-30])
    _, diags = load(jar)
    assert codes(diags) == [("S1020", 0)]


@pytest.mark.parametrize("fields, fragment", [({"flags": 1}, "encrypted"), ({"method": 99}, "compression")])
def test_encrypted_or_unknown_compression_entries_are_s1020(tmp_path, fields, fragment):
    jar = make_jar(tmp_path / "e.jar", [("META-INF/smithy/manifest", "a.smithy\nb.smithy"),
                                        ("META-INF/smithy/a.smithy", MODEL),
                                        ("META-INF/smithy/b.smithy", MODEL.replace("A", "B"))])
    patch_headers(jar, "META-INF/smithy/a.smithy", **fields)
    model, diags = load(jar)
    assert codes(diags) == [("S1020", 1)] and fragment in next(iter(diags)).message.lower()
    assert "ex#B" in model.shapes


def test_a_manifest_that_is_not_utf8_is_located(tmp_path):
    jar = make_jar(tmp_path / "m.jar", [("META-INF/smithy/manifest", b"a.smithy\n\xfe\n")])
    _, diags = load(jar)
    [error] = diags
    assert (error.code, error.span) == ("S1002", Span(f"{jar}!/META-INF/smithy/manifest", 2, 1))


def test_a_fifo_named_jar_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.jar"
    os.mkfifo(fifo)
    folder = tmp_path / "model"
    folder.mkdir()
    os.mkfifo(folder / "pipe.jar")
    _, diags = load(fifo, folder)
    assert [(d.code, d.severity) for d in diags] == [("S1003", Severity.ERROR), ("S1003", Severity.WARNING)]


# --------------------------------------------------------------------------- walks


def tree(root: Path, count: int) -> Path:
    for i in range(count):
        (root / f"d{i % 3}").mkdir(parents=True, exist_ok=True)
        (root / f"d{i % 3}" / f"m{i}.smithy").write_text(MODEL.replace("A", f"A{i}"))
    return root


def test_a_walk_past_its_entry_cap_stops_with_an_error_naming_the_entry(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_WALK_ENTRIES", 10)
    small, big = tree(tmp_path / "small", 3), tree(tmp_path / "big", 30)
    spans = {str(big): Span("smithy-build.json", 3, 24)}
    model, diags = load(small, big, spans=spans)
    [error] = [d for d in diags if d.is_error]
    assert error.code == "S1007" and error.span == Span("smithy-build.json", 3, 24)
    assert str(big) in error.message and "10 files and folders" in error.message
    assert "ex#A0" in model.shapes and "ex#A29" not in model.shapes  # nothing of the big one is loaded
    _, again = load(small, big, spans=spans)
    assert [d.format_text() for d in again] == [d.format_text() for d in diags]


def test_each_path_past_its_own_cap_is_reported_and_the_others_are_read(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_WALK_ENTRIES", 10)
    big1, small, big2 = tree(tmp_path / "big1", 30), tree(tmp_path / "small", 3), tree(tmp_path / "big2", 30)
    model, diags = load(big1, small, big2)
    assert [(d.code, d.span.path) for d in diags] == [("S1007", str(big1)), ("S1007", str(big2))]
    assert "ex#A0" in model.shapes and "ex#A29" not in model.shapes


def test_a_walk_past_its_byte_cap_stops(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_WALK_BYTES", 10 * len(MODEL))
    _, diags = load(tree(tmp_path / "m", 30))
    assert codes(diags) == [("S1007", 0)] and "of models" in next(iter(diags)).message


def test_the_load_caps_count_every_path_together(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_LOAD_ENTRIES", 20)
    a, b, c = (tree(tmp_path / name, 8) for name in "abc")
    _, diags = load(a, b, c)
    [error] = diags
    assert error.code == "S1007" and str(b) in error.message and "together" in error.message
    assert "after it are not read" in error.message


def test_a_jar_counts_in_the_byte_cap(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_WALK_BYTES", 100)
    jar = make_jar(tmp_path / "m.jar", [("META-INF/smithy/manifest", "a.smithy\nb.smithy"),
                                        ("META-INF/smithy/a.smithy", MODEL),
                                        ("META-INF/smithy/b.smithy", MODEL.replace("A", "B") + "//" + "x" * 100)])
    model, diags = load(jar)
    assert codes(diags) == [("S1007", 0)] and "ex#A" not in model.shapes


@pytest.mark.parametrize("entry", ["/", "../../../../../../.."])
def test_walking_the_whole_file_system_stops(monkeypatch, entry):
    """A ``sources`` entry of ``/`` stops at the cap (lowered here so that the test is quick on
    any machine; README "Limits" gives the real numbers)."""
    monkeypatch.setattr(files, "MAX_WALK_ENTRIES", 3000)
    diags = Diagnostics()
    assert discover([entry], diags) == []
    errors = [d for d in diags if d.code == "S1007"]
    assert len(errors) == 1 and errors[0].span == Span(entry)


def test_a_symbolic_link_loop_in_a_walk_is_an_error_and_the_walk_ends(tmp_path):
    (tmp_path / "m" / "a" / "b").mkdir(parents=True)
    (tmp_path / "m" / "a" / "ok.smithy").write_text(MODEL)
    (tmp_path / "m" / "a" / "b" / "loop").symlink_to(tmp_path / "m")
    (tmp_path / "m" / "a" / "b" / "self").symlink_to(tmp_path / "m" / "a" / "b")
    model, diags = load(tmp_path / "m")
    assert sorted((d.code, Path(d.span.path).name) for d in diags) == [("S1005", "loop"), ("S1005", "self")]
    assert "ex#A" in model.shapes


def test_an_unreadable_folder_in_a_walk_is_an_error(tmp_path, monkeypatch):
    (tmp_path / "m" / "locked").mkdir(parents=True)
    (tmp_path / "m" / "ok.smithy").write_text(MODEL)
    real = os.scandir

    def scandir(path):
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    model, diags = load(tmp_path / "m")
    assert [(d.code, Path(d.span.path).name) for d in diags] == [("S1006", "locked")]
    assert "ex#A" in model.shapes


# --------------------------------------------------------------------------- Maven POMs


@pytest.mark.parametrize("doctype", [
    '<!ENTITY a "aaaaaaaaaa">' + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">'
                                         for i in range(9)),  # a billion laughs
    '<!ENTITY j SYSTEM "file:///etc/passwd">',  # an external entity
])
def test_a_hostile_pom_is_a_warning_and_reads_nothing_else(tmp_path, monkeypatch, doctype):
    from smithy2cfn.load.maven import resolve_dependencies

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("SMITHY_MAVEN_CACHE", raising=False)
    monkeypatch.delenv("SMITHY_MAVEN_REPOS", raising=False)
    folder = tmp_path / ".m2/repository/com/example/evil/1.0"
    folder.mkdir(parents=True)
    jar = make_jar(folder / "evil-1.0.jar", [("META-INF/smithy/manifest", "a.smithy"),
                                             ("META-INF/smithy/a.smithy", MODEL)])
    (folder / "evil-1.0.pom").write_text(
        f'<?xml version="1.0"?><!DOCTYPE project [{doctype}]><project><dependencies><dependency>'
        "<groupId>com.example</groupId><artifactId>x</artifactId><version>&j;</version>"
        "</dependency></dependencies></project>")
    diags = Diagnostics()
    assert resolve_dependencies([("com.example:evil:1.0", Span("smithy-build.json", 5, 9))], [], diags) == [jar]
    assert [(d.code, d.span.line) for d in diags] == [("S1034", 5)]
    assert "root:" not in next(iter(diags)).message
