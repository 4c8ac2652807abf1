"""Finding and loading extensions: the entry points of installed packages, or the ones a
caller gives, made into the mappers of a run (:class:`~smithy2cfn.emit.extensions.ExtensionMappers`).

An installed package declares an extension with an entry point of the group
:data:`~smithy2cfn.emit.extensions.ENTRY_POINT_GROUP` (the reference finds its
``Smithy2CfnExtension`` classes through Java's ``ServiceLoader``);
:func:`installed_extensions` lists them without importing anything, and
:func:`resolve_extensions` imports, creates and checks them. Every failure is error
``S5030`` naming the extension and located in its code or at its entry point's line, never
a traceback. :mod:`smithy2cfn.api` calls :func:`resolve_extensions` once per build or
conversion; this module is imported only then (it costs ``importlib.metadata`` only when
some package may declare an extension, see :func:`_may_declare`).
"""

from __future__ import annotations

import os
import re
import types
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from smithy2cfn.diagnostics import Diagnostics, Severity, Span
from smithy2cfn.emit.extensions import (
    ENTRY_POINT_GROUP,
    EXTENSION_CODE,
    Extension,
    ExtensionMappers,
    definition_site,
    describe_error,
    extension_mappers,
    raise_site,
)
from smithy2cfn.records import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint


class InstalledExtension(Record, frozen=True):
    """An extension declared by an installed package (entry point group
    ``smithy2cfn.extensions``).

    Attributes:
        name: the entry point name.
        value: what it names (``module:attribute``).
        distribution: the declaring package's name (``""`` when unknown).
        version: its version (``""`` when unknown).
        entry_point: the :class:`importlib.metadata.EntryPoint`.
    """

    name: str
    value: str
    distribution: str
    version: str
    entry_point: EntryPoint

    def __init__(self, name: str, value: str, distribution: str, version: str, entry_point: EntryPoint) -> None:
        self.__dict__.update(name=name, value=value, distribution=distribution, version=version,
                             entry_point=entry_point)

    @property
    def label(self) -> str:
        """How diagnostics name it: ``'name' (module:attr, from package version)``."""
        origin = f", from {self.distribution} {self.version}".rstrip() if self.distribution else ""
        return f"'{self.name}' ({self.value}{origin})"

    def declaration(self) -> Span:
        """Where the entry point is declared: the line ``name = value`` of the package's
        installed ``entry_points.txt``, else ``<entry point smithy2cfn.extensions:NAME>``."""
        path = _entry_points_file(getattr(self.entry_point, "dist", None))
        if path is None:
            return Span(f"<entry point {ENTRY_POINT_GROUP}:{self.name}>")
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return Span(str(path))
        section = None
        for number, line in enumerate(lines, 1):
            text = line.strip()
            if text.startswith("[") and text.endswith("]"):
                section = text[1:-1].strip()
            elif section == ENTRY_POINT_GROUP and "=" in text and text.split("=", 1)[0].strip() == self.name:
                return Span(str(path), number, len(line) - len(line.lstrip()) + 1, number, len(line.rstrip()) + 1)
        return Span(str(path))


def _entry_points_file(dist: Any) -> Path | None:
    """The installed ``entry_points.txt`` of a distribution, found through its ``RECORD``
    (``None`` when it has no record of its files)."""
    if dist is None:
        return None
    try:
        files = dist.files or []
    except (OSError, ValueError):  # an unreadable or undecodable RECORD
        return None
    for f in files:
        if f.name == "entry_points.txt" and f.parent.name.endswith((".dist-info", ".egg-info")):
            return Path(dist.locate_file(f))
    return None


def installed_extensions(diags: Diagnostics) -> list[InstalledExtension]:
    """The extensions installed in the environment: the entry points of the group
    ``smithy2cfn.extensions`` (:data:`~smithy2cfn.emit.extensions.ENTRY_POINT_GROUP`) of
    the packages :func:`importlib.metadata.distributions` finds on ``sys.path`` (a package
    found twice counts once: the first on ``sys.path``, as
    :func:`importlib.metadata.entry_points` does), sorted by entry point name (then value
    and package, for determinism). Nothing is imported yet (see
    :func:`resolve_extensions`).

    ``diags`` receives ``S5030`` for a package whose ``entry_points.txt`` cannot be parsed
    (a line without ``=``, not UTF-8): an error when its text names the group, a warning
    when it cannot be read (an extension it declares would not run); packages whose
    unparsable file does not name the group are not ours to report. Costs the import of
    :mod:`importlib.metadata` (about 25 ms, unless already imported) and a read of every
    installed package's ``entry_points.txt`` (about 3 ms for 50 packages); when some
    package declares an extension, every package's name too (about 10 ms).
    """
    if not _may_declare(ENTRY_POINT_GROUP):
        return []
    from importlib.metadata import distributions

    declaring = []  # (position on sys.path, distribution, its entry points of the group)
    every = list(distributions())
    for position, dist in enumerate(every):
        try:
            eps = list(dist.entry_points.select(group=ENTRY_POINT_GROUP))
        except (TypeError, ValueError) as e:  # a line without '=' (TypeError); not UTF-8 (ValueError)
            _unreadable_entry_points(dist, e, diags)
            continue
        if eps:
            declaring.append((position, dist, eps))
    if not declaring:
        return []
    # A package found twice counts once, the first on sys.path (reading every package's
    # name costs a few milliseconds: only done when some package declares an extension).
    first: dict[str, int] = {}
    for position, dist in enumerate(every):
        first.setdefault(_package_key(_name_and_version(dist)[0]) or f"#{position}", position)
    found: list[InstalledExtension] = []
    for position, dist, eps in declaring:
        name, version = _name_and_version(dist)
        if first.get(_package_key(name) or f"#{position}") != position:
            continue
        found += [InstalledExtension(ep.name, ep.value, name, version, ep) for ep in eps]
    return sorted(found, key=lambda e: (e.name, e.value, e.distribution, e.version))


def _may_declare(group: str) -> bool:
    """``False`` only when no installed package can declare an entry point of ``group``:
    every ``sys.path`` entry is a folder (or missing), the only finder of distributions is
    the standard one, and no ``*.dist-info`` / ``*.egg-info`` ``entry_points.txt`` in those
    folders names ``[group]`` or fails to decode as UTF-8. Then :func:`installed_extensions`
    has nothing to find or report, and skips :mod:`importlib.metadata` (its import and the
    parsing of every package's metadata: about 15 ms of a cold start, issue 10)."""
    import sys
    from importlib.machinery import PathFinder

    if any(hasattr(finder, "find_distributions") and finder is not PathFinder for finder in sys.meta_path):
        return True
    marker = f"[{group}]".encode()
    for entry in sys.path:
        folder = entry or "."
        if not os.path.isdir(folder):
            if os.path.exists(folder):
                return True  # a zip file or an egg: let importlib.metadata read it
            continue
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(folder, name, "entry_points.txt"), "rb") as f:
                    data = f.read()
            except OSError:
                continue
            if marker in data:
                return True
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                return True  # installed_extensions warns about it
    return False


def _name_and_version(dist: Any) -> tuple[str, str]:
    """A distribution's ``Name`` and ``Version`` (``""`` when missing or unreadable)."""
    try:
        metadata = dist.metadata
    except ValueError:  # METADATA not UTF-8
        return "", ""
    if metadata is None:
        return "", ""
    return str(metadata.get("Name") or ""), str(metadata.get("Version") or "")


def _package_key(name: str) -> str:
    """A package name normalized (PEP 503: runs of ``-_.`` are one ``-``, lower case)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _unreadable_entry_points(dist: Any, error: Exception, diags: Diagnostics) -> None:
    """Report a package whose ``entry_points.txt`` cannot be parsed, when it may declare an
    extension (see :func:`installed_extensions`)."""
    try:
        text = dist.read_text("entry_points.txt") or ""
    except ValueError:
        text = None
    if text is not None and f"[{ENTRY_POINT_GROUP}]" not in text:
        return  # declares no extension: another tool's problem
    name, version = _name_and_version(dist)
    label = f"{name} {version}".strip() or "a package"
    where = _entry_points_file(dist)
    diags.add(EXTENSION_CODE, Severity.ERROR if text is not None else Severity.WARNING,
              f"the entry points of {label} cannot be read ({type(error).__name__}: {str(error)[:200]}); "
              "the extensions it declares do not run",
              Span(str(where)) if where is not None else Span(f"<package {label}>"),
              hint="each line of a section is 'name = module:attribute'; reinstall the package")


def _has_hooks(obj: Any) -> bool:
    return hasattr(obj, "cfn_mappers") or hasattr(obj, "json_schema_mappers")


def _instantiate(obj: Any, name: str, where: Callable[[], Span], diags: Diagnostics) -> Any | None:
    """The extension ``obj`` stands for: a class (or factory) is called without arguments;
    an object with hooks (an instance, a module) is itself. ``None`` after an ``S5030``."""
    if _has_hooks(obj) and not isinstance(obj, type):
        return obj
    if callable(obj):
        try:
            made = obj()
        except Exception as e:  # noqa: BLE001 - third-party code: any exception is its bug
            diags.error(EXTENSION_CODE, f"extension {name} cannot be created: {describe_error(e)}",
                        raise_site(e) or definition_site(obj) or where(),
                        hint="an extension class is created without arguments; fix the extension, or "
                             "leave it out (uninstall its package, or pass extensions=[...])")
            return None
        if _has_hooks(made) and not isinstance(made, type):
            return made
        obj = made
    diags.error(EXTENSION_CODE, f"extension {name} is not an extension: an object of type "
                                f"{type(obj).__name__} with neither cfn_mappers() nor json_schema_mappers()",
                where(),
                hint="an extension (smithy2cfn.emit.extensions.Extension) is a class or object with "
                     "cfn_mappers() and/or json_schema_mappers()")
    return None


def _explicit_name(obj: Any) -> str:
    """How diagnostics name an extension passed in: its class, module or factory name, or
    (for what is no extension at all) its ``repr``, cut to 60 characters."""
    if isinstance(obj, type):
        return obj.__qualname__
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if isinstance(name, str) and (callable(obj) or isinstance(obj, types.ModuleType)):
        return name
    if _has_hooks(obj):
        return type(obj).__qualname__
    text = repr(obj)
    return text if len(text) <= 60 else text[:57] + "..."


def resolve_extensions(extensions: Sequence[Extension | type] | None, diags: Diagnostics) -> ExtensionMappers:
    """The mappers of ``extensions``: the ones given, or (``None``) every installed one
    (:func:`installed_extensions`, loaded in entry point name order).

    An extension is an object with ``cfn_mappers()`` and/or ``json_schema_mappers()``
    (:class:`smithy2cfn.emit.extensions.Extension`), or a class (or factory) making one
    when called without arguments; an entry point names one of those.

    Args:
        extensions: a list of extensions (``[]`` for none), or ``None`` for those installed.
        diags: receives error ``S5030`` for each extension that cannot be used — its entry
            point fails to import (located where the import failed: the extension's line,
            or the entry point's line in the package's ``entry_points.txt``), it cannot be
            created, it is no extension, or a hook raises or returns no list of mappers
            (see :func:`smithy2cfn.emit.extensions.extension_mappers`). The message names
            the extension; nothing is raised.

    Returns:
        The mappers of the extensions that work, in extension order (a failed extension
        adds none; its error fails the build).
    """
    out = ExtensionMappers()
    if extensions is None:
        for installed in installed_extensions(diags):
            name = installed.label
            if not installed.entry_point.pattern.match(installed.value):
                diags.error(EXTENSION_CODE, f"extension {name} cannot be loaded: its value is not "
                                            "'module' or 'module:attribute'", installed.declaration(),
                            hint=f"declare it as {installed.name or 'name'} = \"my_package:MyExtension\"")
                continue
            try:
                obj = installed.entry_point.load()
            except Exception as e:  # noqa: BLE001 - importing third-party code may raise anything
                declared, at = installed.declaration(), raise_site(e)
                where = f" (entry point declared at {declared})" if at is not None else ""
                package = f": pip uninstall {installed.distribution}" if installed.distribution else ""
                diags.error(EXTENSION_CODE, f"extension {name} cannot be loaded: {describe_error(e)}{where}",
                            at or declared, hint=f"fix the extension, or uninstall its package{package}")
                continue
            ext = _instantiate(obj, name, installed.declaration, diags)
            if ext is not None:
                extension_mappers(ext, name, installed.declaration, diags, out)
        return out
    if isinstance(extensions, (str, bytes)) or not isinstance(extensions, Iterable):
        diags.error(EXTENSION_CODE, f"extensions must be a list of extensions (or None for those installed), "
                                    f"got a {type(extensions).__name__}", Span("<extensions>"))
        return out
    for obj in extensions:
        name = _explicit_name(obj)

        def site(obj: Any = obj, name: str = name) -> Span:
            if isinstance(obj, types.ModuleType):
                path = getattr(obj, "__file__", None)
                return Span(path) if isinstance(path, str) else Span(f"<extension {name}>")
            return definition_site(obj if isinstance(obj, type) else type(obj)) or Span(f"<extension {name}>")

        ext = _instantiate(obj, name, site, diags)
        if ext is not None:
            extension_mappers(ext, name, site, diags, out)
    return out


__all__ = ["InstalledExtension", "installed_extensions", "resolve_extensions"]
