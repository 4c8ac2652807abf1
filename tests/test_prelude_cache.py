"""The parsed prelude is cached per user, and a cached copy equals a fresh parse."""

from __future__ import annotations

import subprocess
import sys

from smithy2cfn.load import loader


def _fresh(monkeypatch, cache_home, no_cache: bool = False):
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache_home))
    if no_cache:
        monkeypatch.setenv("SMITHY2CFN_NO_CACHE", "1")
    else:
        monkeypatch.delenv("SMITHY2CFN_NO_CACHE", raising=False)
    loader._prelude_documents.cache_clear()
    try:
        return loader._prelude_documents()
    finally:
        loader._prelude_documents.cache_clear()


def test_cache_is_written_and_read_back_equal(monkeypatch, tmp_path):
    parsed = _fresh(monkeypatch, tmp_path, no_cache=True)
    assert not (tmp_path / "smithy2cfn").exists()
    written = _fresh(monkeypatch, tmp_path)
    (cache_file,) = (tmp_path / "smithy2cfn").glob("prelude-*.pickle")
    cached = _fresh(monkeypatch, tmp_path)
    assert parsed == written == cached
    # a corrupt cache is rebuilt, not trusted
    cache_file.write_bytes(b"not a pickle")
    assert _fresh(monkeypatch, tmp_path) == parsed


def test_annotation_marker_survives_the_cache(tmp_path):
    code = ("from smithy2cfn.load import loader; from smithy2cfn.load.document import ANNOTATION;"
            "docs = loader._prelude_documents();"
            "print(any(v is ANNOTATION for d in docs for s in d.ast['shapes'].values()"
            " for v in (s.get('traits') or {}).values()))")
    env = {"XDG_CACHE_HOME": str(tmp_path), "PATH": ""}
    for _ in range(2):  # first run writes the cache, second reads it
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        assert out.stdout.strip() == "True", out.stderr
