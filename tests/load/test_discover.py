"""What a folder walk loads (:func:`smithy2cfn.load.loader.discover`), as the reference's
``ModelAssembler.addImport(Path)`` (``Files.walk(FOLLOW_LINKS)``, every regular file handed to
``ModelLoader.load``, which reads ``.smithy``, JSON AST ``.json`` and ``.jar`` files and
ignores the rest): hidden files and folders included, other files ignored, in sorted order.
The caps, loops and unreadable folders are in ``tests/hostile/test_hostile_jars.py``.
"""

from __future__ import annotations

import json
import zipfile

from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.load.loader import discover

MODEL = '$version: "2"\nnamespace ex\nstring A\n'


def test_a_walk_finds_models_and_jars_hidden_ones_too_and_ignores_the_rest(tmp_path):
    root = tmp_path / "model"
    (root / ".hidden").mkdir(parents=True)
    (root / "b").mkdir()
    (root / "b" / "z.smithy").write_text(MODEL)
    (root / "a.smithy").write_text(MODEL)
    (root / ".dot.smithy").write_text(MODEL)
    (root / ".hidden" / "h.smithy").write_text(MODEL)
    (root / "ast.json").write_text(json.dumps({"smithy": "2.0"}))
    (root / "schema.json").write_text(json.dumps({"typeName": "A::B::C"}))
    (root / "README.md").write_text("# models")
    (root / "manifest").write_text("a.smithy\n")
    with zipfile.ZipFile(root / "b" / "lib.jar", "w") as zf:
        zf.writestr("META-INF/smithy/manifest", "j.smithy\n")
        zf.writestr("META-INF/smithy/j.smithy", MODEL)
    diags, texts = Diagnostics(), {}
    found = discover([str(root)], diags, texts)
    assert not list(diags)
    names = [str(p.relative_to(root)) for p in found]
    assert names == [".dot.smithy", ".hidden/h.smithy", "a.smithy", "ast.json",
                     "b/lib.jar!/META-INF/smithy/j.smithy", "b/z.smithy"]
    assert texts[str(root / "b" / "lib.jar") + "!/META-INF/smithy/j.smithy"] == MODEL


def test_a_file_given_by_name_is_a_model_whatever_its_name(tmp_path):
    model = tmp_path / "model.txt"
    model.write_text(MODEL)
    diags = Diagnostics()
    assert discover([str(model)], diags) == [model] and not list(diags)
