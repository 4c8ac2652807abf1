"""The import graph of the package: stages only import their own layer or lower ones, and no
module imports itself back through others (README "Architecture").

Every module under ``src/smithy2cfn`` is parsed with :mod:`ast`; each ``import`` and
``from ... import`` naming a ``smithy2cfn`` module counts, at any depth of the file (an import
inside a function is an edge too: a cycle hidden behind a lazy import is still a cycle).
``from smithy2cfn.x import y`` counts ``smithy2cfn.x.y`` when that is a module, else
``smithy2cfn.x``. The implicit import of a package's ``__init__`` does not count.

Also: emit imports from derive only its product (the plan), networkx is imported inside the
functions that need it, and trait IDs are named in ``model/traits.py``. Each rule has an
explicit list of the places that break it today, with the change that removes them; a
place that no longer breaks it must leave its list.
"""

from __future__ import annotations

import ast
import graphlib
import io
import re
import tokenize
from pathlib import Path

from conftest import REPO

PACKAGE = REPO / "src" / "smithy2cfn"

#: Layers, lowest first (issue 7's target layout). A module belongs to the first entry whose
#: name is the module or a package above it.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("smithy2cfn.diagnostics", "smithy2cfn.catalog", "smithy2cfn.checks", "smithy2cfn.model",
              "smithy2cfn.settings", "smithy2cfn.prelude", "smithy2cfn.stamps", "smithy2cfn.garbage_collection",
              "smithy2cfn.version", "smithy2cfn.records", "smithy2cfn.regexes", "smithy2cfn.parallel",
              "smithy2cfn.templates")),
    ("parse", ("smithy2cfn.parse",)),
    ("load", ("smithy2cfn.load",)),
    ("languages", ("smithy2cfn.languages",)),
    ("transform", ("smithy2cfn.transform",)),
    # smithy-build.json reading: it makes the transforms' TransformConfig (issue 16)
    ("build config", ("smithy2cfn.smithy_build",)),
    ("derive", ("smithy2cfn.derive",)),
    ("validate", ("smithy2cfn.validation",)),
    ("emit", ("smithy2cfn.emit",)),
    ("lint", ("smithy2cfn.lint",)),
    # resource docs (cfn-cli's docs/ folder) from the plan and the schemas (issue 18)
    ("docs", ("smithy2cfn.docs",)),
    # contract-test inputs of a resource-type project: reads the plan and the schemas (issue 18)
    ("contract", ("smithy2cfn.contract",)),
    # a resource-type project (cfn init's layout): its execution role, finding projects (issue 18)
    ("project", ("smithy2cfn.project",)),
    # Lambda-backed custom resources: their schemas, provider and template snippet from the plan (issue 19)
    ("custom", ("smithy2cfn.custom",)),
    # smithy2cfn diff: reads two builds' plans and schemas, locates with lint's Locator (issue 17)
    ("diff", ("smithy2cfn.diff",)),
    ("api", ("smithy2cfn.api", "smithy2cfn.writer", "smithy2cfn.precompute", "smithy2cfn")),
    ("cli", ("smithy2cfn.cli", "smithy2cfn.__main__", "smithy2cfn.plugin", "smithy2cfn.huge_pages")),
]

#: Upward edges that exist today and are known: ``(importer, imported)``, each with the change
#: that removes it. (None today: the stage order holds.)
KNOWN_UPWARD: set[tuple[str, str]] = set()

#: What emit may import from derive: its product, the conversion plan, never the machinery
#: that computes it (issue 7: "emit turns the plan into schemas without calling back").
#: The plan, and the type-name rules it follows (emit checks a typeName an extension's mapper sets).
DERIVE_PRODUCT = {"smithy2cfn.derive.plan", "smithy2cfn.derive.typename"}
#: emit → derive imports that exist today.
KNOWN_EMIT_TO_DERIVE: set[tuple[str, str]] = set()

#: Modules that import networkx at module level (it costs ~0.15 s of start-up; README
#: "Architecture": import it inside the function that needs it, once graphlib is not enough).
KNOWN_MODULE_LEVEL_NETWORKX: set[str] = set()

#: Trait IDs written as string literals outside model/traits.py: module → how many.
KNOWN_TRAIT_LITERALS: dict[str, int] = {}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """The smithy2cfn modules ``path`` (module ``name``) imports, anywhere in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            candidates = [[a.name] for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolved against the importing package
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            candidates = [[f"{base}.{a.name}", base] for a in node.names]
        else:
            continue
        for choices in candidates:
            found = next((c for c in choices if c in modules), None)
            if found is not None and found != name:
                out.add(found)
    return out


def _layer(module: str) -> int:
    best: tuple[int, int] | None = None  # (length of the matching prefix, layer index)
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > best[0]:
                    best = (len(prefix), index)
    assert best is not None, f"{module} is in no layer: add it to LAYERS"
    return best[1]


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, name, modules) for name, path in modules.items()}


def _layer_map(graph: dict[str, set[str]]) -> str:
    lines = []
    for index, (layer, _) in enumerate(LAYERS):
        members = sorted(m for m in graph if _layer(m) == index)
        lines.append(f"{index} {layer}: {', '.join(members)}")
    return "\n".join(lines)


def test_every_module_is_in_a_layer():
    graph = _graph()
    assert len(graph) > 40
    for module in graph:
        _layer(module)


def test_no_module_imports_a_higher_layer():
    graph = _graph()
    upward = sorted((a, b) for a, targets in graph.items() for b in targets if _layer(b) > _layer(a))
    unexpected = [f"{a} ({LAYERS[_layer(a)][0]}) imports {b} ({LAYERS[_layer(b)][0]})"
                  for a, b in upward if (a, b) not in KNOWN_UPWARD]
    assert not unexpected, "\n".join(unexpected) + "\n\nlayers:\n" + _layer_map(graph)
    stale = KNOWN_UPWARD - set(upward)
    assert not stale, f"these known upward imports are gone: delete them from KNOWN_UPWARD: {sorted(stale)}"


def test_emit_reads_the_plan_not_derive_machinery():
    graph = _graph()
    edges = {(a, b) for a, targets in graph.items() for b in targets
             if a.startswith("smithy2cfn.emit") and b.startswith("smithy2cfn.derive") and b not in DERIVE_PRODUCT}
    assert edges <= KNOWN_EMIT_TO_DERIVE, sorted(edges - KNOWN_EMIT_TO_DERIVE)
    stale = KNOWN_EMIT_TO_DERIVE - edges
    assert not stale, f"gone: delete them from KNOWN_EMIT_TO_DERIVE: {sorted(stale)}"


def test_networkx_is_imported_only_where_needed():
    found = set()
    for name, path in _modules().items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:  # module level only
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "networkx" for a in node.names) \
                    or isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "networkx":
                found.add(name)
    assert found == KNOWN_MODULE_LEVEL_NETWORKX, (sorted(found - KNOWN_MODULE_LEVEL_NETWORKX),
                                                  sorted(KNOWN_MODULE_LEVEL_NETWORKX - found))


def _guarded(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _annotations(tree: ast.Module) -> set[int]:
    """The ids of the nodes inside annotations (strings under ``from __future__ import
    annotations``, never evaluated) and inside ``if TYPE_CHECKING:`` blocks."""
    found: set[int] = set()
    for node in ast.walk(tree):
        parts: list[ast.AST] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            parts += [x.annotation for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
                      if x is not None and x.annotation is not None]
            parts += [node.returns] if node.returns is not None else []
        elif isinstance(node, ast.AnnAssign):
            parts.append(node.annotation)
        elif _guarded(node):
            parts += node.body
        found.update(id(sub) for part in parts for sub in ast.walk(part))
    return found


def test_typing_is_imported_for_type_checkers_only():
    """typing costs 12.6 million instructions to import (3.6% of a small build): every module
    imports it only under ``TYPE_CHECKING = False`` / ``if TYPE_CHECKING:`` (which type
    checkers take as true), with ``from __future__ import annotations``, and uses the names
    it imports there, and the names it defines there, in annotations and such blocks only
    (unless its ``else:`` branch defines them too, for run time: ``Protocol = object``;
    ``tests/cli/test_cli_ci.py`` checks a build does not import typing)."""
    problems = []
    for name, path in _modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        future = any(isinstance(n, ast.ImportFrom) and n.module == "__future__"
                     and any(a.name == "annotations" for a in n.names) for n in tree.body)
        guarded: set[str] = set()
        for node in tree.body:
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "typing" for a in node.names) \
                    or isinstance(node, ast.ImportFrom) and node.module == "typing":
                problems.append(f"{name}:{node.lineno}: typing imported at run time")
            if _guarded(node):
                defined: set[str] = set()
                for sub in (n for part in node.body for n in ast.walk(part)):
                    if isinstance(sub, ast.ImportFrom) and sub.module == "typing":
                        defined.update(a.asname or a.name for a in sub.names)
                    elif isinstance(sub, ast.Assign):
                        defined.update(t.id for t in sub.targets if isinstance(t, ast.Name))
                    elif isinstance(sub, ast.ClassDef):
                        defined.add(sub.name)
                # (a name the `else:` branch defines too exists at run time: ``Protocol = object``)
                given = {t.id for n in node.orelse for sub in ast.walk(n) if isinstance(sub, (ast.Assign, ast.ClassDef))
                         for t in (sub.targets if isinstance(sub, ast.Assign) else [ast.Name(sub.name)])
                         if isinstance(t, ast.Name)}
                guarded |= defined - given
        if guarded and not future:
            problems.append(f"{name}: names from typing without `from __future__ import annotations`")
        inside = _annotations(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in guarded \
                    and id(node) not in inside:
                problems.append(f"{name}:{node.lineno}: {node.id} is used at run time")
    assert not problems, "\n".join(problems)


_TRAIT_ID = re.compile(r"""["'](?:smithy|aws)\.[A-Za-z.]+#[A-Za-z]+["']""")


def test_trait_ids_are_named_in_model_traits():
    """A trait ID is a constant of ``model/traits.py``, not a string literal elsewhere
    (docstrings and comments may name them)."""
    found: dict[str, int] = {}
    for name, path in _modules().items():
        if name == "smithy2cfn.model.traits":
            continue
        tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        count = sum(1 for tok in tokens if tok.type == tokenize.STRING and _TRAIT_ID.fullmatch(tok.string))
        if count:
            found[name] = count
    assert found == KNOWN_TRAIT_LITERALS


#: The validation stage's modules that are no room of checks: the runner and what checks share
#: (the support room, ``validation/support/``).
VALIDATION_SUPPORT = {"smithy2cfn.validation", "smithy2cfn.validation.suppressions"} | {
    f"smithy2cfn.validation.support{'.' + p.stem if p.stem != '__init__' else ''}"
    for p in (PACKAGE / "validation" / "support").glob("*.py")}


def test_checks_import_the_languages_and_the_support_modules_only():
    graph = _graph()
    rooms = {f"smithy2cfn.validation.{p.parent.name}" for p in (PACKAGE / "validation").glob("*/__init__.py")}
    checks = {m for m in graph if m.startswith("smithy2cfn.validation.") and m not in VALIDATION_SUPPORT | rooms}
    edges = sorted((a, b) for a in checks for b in graph[a] if b in checks)
    assert not edges, f"check modules import other check modules (move what they share to the support room): {edges}"
    support = {m for m in graph if m.startswith("smithy2cfn.validation.support")}
    upward = sorted((a, b) for a in support for b in graph[a] if b in checks)
    assert not upward, f"the support room imports no check module: {upward}"
    assert all(not b.startswith("smithy2cfn.validation") for m in graph if m.startswith("smithy2cfn.languages")
               for b in graph[m]), "the languages are below validation"


def test_no_stage_imports_the_api():
    """The library's front door (``api``) is imported by the package itself and the command
    line only: no stage reaches back to it."""
    graph = _graph()
    importers = {a for a, targets in graph.items() for b in targets if b == "smithy2cfn.api"}
    assert importers <= {"smithy2cfn", "smithy2cfn.cli", "smithy2cfn.plugin"}, sorted(importers)


def test_no_import_cycle():
    graph = _graph()
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as e:
        # graphlib lists the cycle with each module before the one that imports it
        cycle = " imports ".join(reversed(e.args[1]))
        raise AssertionError(f"import cycle: {cycle}\n\nlayers:\n{_layer_map(graph)}") from None


def test_the_checker_sees_function_level_and_relative_imports(tmp_path):
    """The import reader finds imports inside functions and resolves relative ones."""
    pkg = tmp_path / "smithy2cfn"
    (pkg / "parse").mkdir(parents=True)
    for rel in ("__init__.py", "parse/__init__.py", "parse/idl.py", "parse/lower.py", "load.py"):
        (pkg / rel).write_text("")
    modules = {_module_name_in(pkg, p): p for p in pkg.rglob("*.py")}
    (pkg / "parse" / "idl.py").write_text(
        "def f():\n    from smithy2cfn import load\n    from . import lower\n    import smithy2cfn.parse\n")
    assert _imports_in(pkg, pkg / "parse" / "idl.py", modules) == {
        "smithy2cfn.load", "smithy2cfn.parse.lower", "smithy2cfn.parse"}
    assert _layer("smithy2cfn.parse.idl") < _layer("smithy2cfn.load.loader") < _layer("smithy2cfn.cli")
    assert _layer("smithy2cfn.model.json_ast") == 0 and _layer("smithy2cfn") == _layer("smithy2cfn.api")


def _module_name_in(package: Path, path: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports_in(package: Path, path: Path, modules: dict[str, Path]) -> set[str]:
    return _imports(path, _module_name_in(package, path), modules)
