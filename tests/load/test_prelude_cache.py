"""The precomputed data shipped with the package (no runtime cache folder any more):

* the LALR parser tables and the lowered prelude in ``smithy2cfn/data/precomputed`` are
  current (else: run ``python -m smithy2cfn.precompute``);
* the lowered prelude round-trips its JSON form exactly (types, spans, ANNOTATION);
* the key covers every module the lowering imports, and stale data is ignored, not used;
* nothing is written outside the package at run time.
"""

from __future__ import annotations

import ast
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smithy2cfn import precompute
from smithy2cfn.diagnostics import Diagnostic, Severity, Span
from smithy2cfn.load import loader, prelude_data
from smithy2cfn.model.document import ANNOTATION, ApplyStatement, SourceDocument
from smithy2cfn.parse import tables
from smithy2cfn.records import fields

PACKAGE = Path(prelude_data.__file__).resolve().parents[1]


def same(a, b, where="") -> None:
    """Deep equality that also compares types (``True`` is not ``1``, ``1.0`` is not ``1``)
    and keeps :data:`ANNOTATION` the one object it is."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if a is ANNOTATION or b is ANNOTATION:
        assert a is b, where
    elif isinstance(a, dict):
        assert list(a) == list(b), f"{where}: keys differ"
        for k in a:
            same(a[k], b[k], f"{where}/{k}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), f"{where}: lengths differ"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{where}[{i}]")
    elif isinstance(a, (SourceDocument, ApplyStatement)):
        for name in fields(a):
            same(getattr(a, name), getattr(b, name), f"{where}.{name}")
    elif isinstance(a, float) and math.isnan(a):
        assert math.isnan(b), where
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def test_shipped_data_is_current():
    stale = precompute.stale_files()
    assert not stale, (f"the precomputed data {stale} is stale (the grammar, the prelude or the front end "
                       f"changed): run `{precompute.COMMAND}` and commit the result")
    assert tables.load_tables(tables.grammar_text()) is not None
    assert prelude_data.load_documents() is not None


def test_shipped_prelude_equals_a_fresh_lowering_exactly():
    shipped = prelude_data.load_documents()
    fresh = prelude_data.lower_prelude()
    same(shipped, fresh)
    # lower_prelude lowers as the loader lowers any IDL files
    from smithy2cfn.diagnostics import Diagnostics

    same(list(fresh), loader.read_sources(prelude_data.prelude_sources(), Diagnostics()))
    annotations = [v for d in shipped for s in d.ast["shapes"].values()
                   for v in (s.get("traits") or {}).values() if v is ANNOTATION]
    assert annotations
    # and the process uses the shipped documents
    assert loader._prelude_documents() == shipped


def test_shipped_parser_tables_equal_fresh_ones():
    """The shipped tables are the automaton the installed Lark computes from the grammar,
    state for state (compared as graphs from the start state: numbering aside)."""
    grammar = tables.grammar_text()
    shipped = tables.load_tables(grammar)
    assert shipped == tables.tables_data(grammar)
    lark_table = tables.lark_parse_table(tables.build_parser(grammar))

    def lark_shape(table):
        seen, queue = {table.start_states["start"]: 0}, [table.start_states["start"]]
        out = []
        for state in queue:
            row = []
            for sym, (action, arg) in sorted(table.states[state].items()):
                if action.name == "Shift":
                    if arg not in seen:
                        seen[arg] = len(seen)
                        queue.append(arg)
                    row.append((sym, "shift", seen[arg]))
                else:
                    row.append((sym, "reduce", arg.origin.name, tuple(s.name for s in arg.expansion)))
            out.append(row)
        return out, seen[table.end_states["start"]]

    def our_shape(data):
        seen, queue = {data["start_state"]: 0}, [data["start_state"]]
        out = []
        for state in queue:
            row = []
            for sym, act in sorted(data["states"][state].items()):
                if act >= 0:
                    if act not in seen:
                        seen[act] = len(seen)
                        queue.append(act)
                    row.append((sym, "shift", seen[act]))
                else:
                    origin, size = data["rules"][-act - 1][:2]
                    row.append((sym, "reduce", origin, size))
            out.append(row)
        return out, seen[data["end_state"]]

    theirs, ours = lark_shape(lark_table), our_shape(shipped)
    assert ours[1] == theirs[1]
    for lark_row, our_row in zip(theirs[0], ours[0], strict=True):
        assert [r[:3] if r[1] == "shift" else (*r[:3], len(r[3])) for r in lark_row] == our_row


annotation_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text() | st.just(ANNOTATION),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text() | st.sampled_from(["\0", "\0x", "\1", "", "#int"]), inner, max_size=4),
    max_leaves=20)
spans = st.builds(Span, st.sampled_from(["f.smithy", "other.smithy"]), st.integers(0, 9), st.integers(0, 9),
                  st.integers(0, 9), st.integers(0, 9))


@settings(max_examples=150, deadline=None)
@given(value=annotation_values, traits=st.dictionaries(st.text(), annotation_values, max_size=3),
       span=spans, maybe=st.none() | spans)
def test_document_form_round_trips_any_value(value, traits, span, maybe):
    doc = SourceDocument(
        "f.smithy", "2.0", {"smithy": "2.0", "shapes": {"a#B": {"type": "string", "traits": traits}}, "x": value},
        applies=[ApplyStatement("a#B", traits, maybe, {"a#t": span})],
        spans={"a#B": span, "\0odd": maybe}, trait_spans={"a#B": {"a#t": span}},
        metadata_spans={"k": span},
        diagnostics=[Diagnostic("S1001", Severity.ERROR, "m", maybe, "a#B", None, "E")])
    text = tables.render_data("test", "k", prelude_data.encode_documents([doc]))
    (back,) = prelude_data.decode_documents(
        json.loads(text, object_hook=prelude_data._hook)["data"])
    same(back, doc)


def test_a_json_ast_document_with_its_locator_is_not_stored():
    """A JSON AST document's locator (its text's, from which the spans of its members are made
    when read) has no stored form: storing one fails loudly rather than losing those spans."""
    from smithy2cfn.model import json_ast

    doc = json_ast.read_json_ast('{"smithy": "2.0", "shapes": {"a#B": {"type": "string"}}}', "m.json")
    assert doc.locate is not None
    with pytest.raises(TypeError, match="locator"):
        prelude_data.encode_documents([doc])


@pytest.fixture
def fresh_prelude_caches():
    """The per-process caches of the shipped prelude lines and documents, emptied before and
    after (a test that makes the data stale must not leave its answer behind)."""
    caches = (prelude_data._shipped_lines, prelude_data._shipped_document)
    for cache in caches:
        cache.cache_clear()
    yield
    for cache in caches:
        cache.cache_clear()


def test_a_build_reads_only_the_prelude_documents_of_its_packages(fresh_prelude_caches):
    """A model that names one trait package reads and decodes that package's document and
    the prelude's, not the other 15 (a small build: 28% of the data), and they are the
    documents a whole reading gives."""
    docs = loader._prelude_of(frozenset({"smithy.api", "aws.cloudformation"}))
    assert [d.path for d in docs] == ["<prelude>/smithy.api.smithy", "<prelude>/aws.cloudformation.smithy"]
    assert prelude_data._shipped_document.cache_info().currsize == 2
    whole = {d.path: d for d in prelude_data.load_documents()}
    for doc in docs:
        same(doc, whole[doc.path])
    # every package selected: every document, in the prelude's order
    assert [d.path for d in prelude_data.documents_of(lambda path: True)] == list(whole)


def test_stale_data_is_not_used(monkeypatch, fresh_prelude_caches):
    monkeypatch.setattr(prelude_data, "key", lambda sources=None: "0" * 64)
    monkeypatch.setattr(tables, "key", lambda grammar: "0" * 64)
    assert prelude_data.load_documents() is None
    assert tables.load_tables(tables.grammar_text()) is None
    assert tables.parser_tables(tables.grammar_text()) == tables.tables_data(tables.grammar_text())
    same(prelude_data.prelude_documents(), prelude_data.lower_prelude())


def test_stale_data_is_not_read_per_document_either(monkeypatch, fresh_prelude_caches):
    monkeypatch.setattr(prelude_data, "key", lambda sources=None: "0" * 64)
    assert prelude_data._shipped_lines() is None
    wanted = lambda path: path.endswith("aws.cloudformation.smithy")  # noqa: E731
    (doc,) = prelude_data.documents_of(wanted)
    same([doc], [d for d in prelude_data.lower_prelude() if wanted(d.path)])


def test_a_data_file_of_another_layout_is_not_read_per_document(monkeypatch, tmp_path, fresh_prelude_caches):
    # the shipped file written whole on one line (render_data's layout): right key, not read
    # line by line, so the documents are lowered from source
    whole = tables.render_data("x", prelude_data.key(), prelude_data.encode_documents(prelude_data.lower_prelude()))
    (tmp_path / prelude_data.DOCUMENTS_FILE).write_text(whole, encoding="utf-8")
    monkeypatch.setattr(prelude_data, "data_file", lambda name: tmp_path / name)
    assert prelude_data._shipped_lines() is None
    assert [d.path for d in prelude_data.documents_of(lambda path: True)] == \
        [d.path for d in prelude_data.lower_prelude()]


def _imports(path: Path) -> set[str]:
    """smithy2cfn modules a source file imports (at any depth of the file), as paths
    relative to the package; ``from smithy2cfn.x import y`` counts ``x/y.py`` when that is a
    module, else ``x.py`` / ``x/__init__.py``."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [[a.name] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [[f"{node.module}.{a.name}", node.module] for a in node.names]
        else:
            continue
        for choices in names:  # the submodule if it is one, else the module
            for name in choices:
                rel = "/".join(name.split(".")[1:])
                found = [c for c in (rel + ".py", rel + "/__init__.py")
                         if name.startswith("smithy2cfn.") and (PACKAGE / c).is_file()]
                if found:
                    out.add(found[0])
                    break
    return out


def test_key_covers_every_module_the_lowering_uses():
    """Every module reachable by imports from the front end is hashed into the key (package
    ``__init__`` files imported implicitly are not followed: they hold no lowering code)."""
    roots = {"parse/idl.py", "parse/lower.py", "parse/syntax.py", "load/prelude_data.py"}
    seen, queue = set(roots), list(roots)
    while queue:
        for dep in _imports(PACKAGE / queue.pop()):
            if dep not in seen:
                seen.add(dep)
                queue.append(dep)
    assert seen <= set(prelude_data.FRONT_END_MODULES), seen - set(prelude_data.FRONT_END_MODULES)
    assert prelude_data.FRONT_END_MODULES and all((PACKAGE / m).is_file() for m in prelude_data.FRONT_END_MODULES)


def test_key_changes_with_the_front_end_source(monkeypatch, tmp_path):
    """A change to the lowering's source changes the key (so a fix is never hidden behind
    stale data)."""
    fake = tmp_path / "smithy2cfn"
    for rel in prelude_data.FRONT_END_MODULES:
        (fake / rel).parent.mkdir(parents=True, exist_ok=True)
        (fake / rel).write_text((PACKAGE / rel).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(tables, "_PACKAGE_ROOT", fake)
    before = prelude_data.key()
    (fake / "parse/lower.py").write_text((PACKAGE / "parse/lower.py").read_text() + "\n# a fix\n")
    assert prelude_data.key() != before
    (fake / "parse/lower.py").unlink()
    with pytest.raises(OSError):
        prelude_data.key()


def test_no_cache_is_written_anywhere(tmp_path):
    """A run writes nothing to $XDG_CACHE_HOME, $HOME or the temp folder."""
    home, cache, tmp = tmp_path / "home", tmp_path / "cache", tmp_path / "tmp"
    for folder in (home, cache, tmp):
        folder.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(cache), "TMPDIR": str(tmp)}
    code = ("from smithy2cfn.load import loader; from smithy2cfn.model.document import ANNOTATION;"
            "docs = loader._prelude_documents();"
            "print(any(v is ANNOTATION for d in docs for s in d.ast['shapes'].values()"
            " for v in (s.get('traits') or {}).values()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == "True", out.stderr
    assert [p for f in (home, cache, tmp) for p in f.rglob("*")] == []
