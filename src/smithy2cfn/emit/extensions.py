"""Extensions: extra CloudFormation mappers and JSON Schema mappers from other packages.

An extension is the reference's ``Smithy2CfnExtension`` (``smithy-aws-cloudformation``):
an object with two optional hooks,

* ``cfn_mappers()`` → a sequence of :class:`~smithy2cfn.emit.mappers.CfnMapper`
  *instances*, run in the mapper chain with the core mappers (sorted by ``order``, stable);
* ``json_schema_mappers()`` → a sequence of JSON Schema mappers, callables
  ``(converter, shape_or_member, schema) -> schema`` (:data:`SchemaMapper`), run on every
  schema the JSON Schema converter builds, after the built-in ones.

A package makes its extension available to every build by declaring an entry point in the
group :data:`ENTRY_POINT_GROUP` (the reference finds its extensions through Java's
``ServiceLoader``)::

    [project.entry-points."smithy2cfn.extensions"]
    my-extension = "my_package:MyExtension"

:func:`smithy2cfn.api.build` and :func:`smithy2cfn.api.convert` load them
(``extensions=None``, found by :mod:`smithy2cfn.emit.discovery`) or take a list of
extensions instead. What the hooks return is
checked here (:func:`extension_mappers`): a hook that raises, or returns anything but a
sequence of mappers, is error ``S5030`` located in the extension's code, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.records import Record

TYPE_CHECKING = False
if TYPE_CHECKING:  # (the mappers' modules are the emit stage: imported when a mapper is checked)
    from typing import Any, Protocol

    from smithy2cfn.emit.jsonschema import SchemaMapper
    from smithy2cfn.emit.mappers import CfnMapper
else:  # (a build, which imports this module, does not import typing: 12 million instructions)
    Protocol = object

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S5030", Severity.ERROR, None,
         "an extension cannot be used: its entry point does not import, it cannot be made, or a hook raises "
         "or returns no list of mappers", also=(Severity.WARNING,), usage=True),
)

#: The entry point group installed extensions are declared in.
ENTRY_POINT_GROUP = "smithy2cfn.extensions"

#: The diagnostic code of every extension failure (see README "Diagnostics").
EXTENSION_CODE = "S5030"


class Extension(Protocol):
    """Extra mappers for the conversion (reference ``Smithy2CfnExtension``).

    Both hooks are optional: subclass this protocol to inherit the empty defaults, or give
    any object (a class instance, a module) one or both of the methods. Each hook is called
    once per build or conversion. (A :class:`typing.Protocol` to type checkers; at run time a
    plain base class, since a build does not import :mod:`typing`: an extension is used
    for the methods it has, whatever its class.)
    """

    def cfn_mappers(self) -> Sequence[CfnMapper]:
        """CloudFormation mappers (instances of :class:`CfnMapper` subclasses, each with an
        integer ``order``) to run with the core chain. Default: none."""
        return ()

    def json_schema_mappers(self) -> Sequence[SchemaMapper]:
        """JSON Schema mappers, callables ``(converter, shape_or_member, schema) -> schema``
        run on every schema built, after the built-in ones. Default: none."""
        return ()


class ExtensionMappers(Record):
    """The mappers every extension of a run contributes, in extension order; itself an
    :class:`Extension` (their union), so that extensions loaded once can be passed on.

    Attributes:
        cfn: CloudFormation mappers (:class:`CfnMapper` instances).
        json_schema: JSON Schema mappers (:data:`SchemaMapper` callables).
    """

    __slots__ = ("cfn", "json_schema")
    cfn: list[CfnMapper]
    json_schema: list[SchemaMapper]

    def __init__(self, cfn: list[CfnMapper] | None = None, json_schema: list[SchemaMapper] | None = None) -> None:
        self.cfn = [] if cfn is None else cfn
        self.json_schema = [] if json_schema is None else json_schema

    def cfn_mappers(self) -> list[CfnMapper]:
        """:attr:`cfn`, as an extension's hook."""
        return list(self.cfn)

    def json_schema_mappers(self) -> list[SchemaMapper]:
        """:attr:`json_schema`, as an extension's hook."""
        return list(self.json_schema)


_PACKAGE_DIR = Path(__file__).resolve().parent.parent


def _library_dirs() -> tuple[list[Path], list[Path]]:
    """(standard library folders, site-packages folders) of this interpreter."""
    import sysconfig  # only when an extension fails: its import cost every build some 3 ms

    paths = sysconfig.get_paths()
    std = [Path(paths[k]).resolve() for k in ("stdlib", "platstdlib") if k in paths]
    site = [Path(paths[k]).resolve() for k in ("purelib", "platlib") if k in paths]
    return std, site


def _is_theirs(filename: str, std: list[Path], site: list[Path]) -> bool:
    """True for a frame in third-party code: a real file that is neither ours nor Python's."""
    if not filename or filename.startswith("<"):
        return False
    try:
        path = Path(filename).resolve()
    except (OSError, RuntimeError, ValueError):
        return False
    if path.is_relative_to(_PACKAGE_DIR):
        return False
    in_site = any(path.is_relative_to(s) for s in site)
    return in_site or not any(path.is_relative_to(s) for s in std)


def raise_site(error: BaseException) -> Span | None:
    """Where ``error`` was raised in third-party code: the innermost traceback frame that is
    neither smithy2cfn's nor the standard library's (nor a frozen ``importlib`` frame), as
    ``file:line:column``; for a ``SyntaxError``, the position of the bad code. ``None``
    when no such frame exists."""
    if isinstance(error, SyntaxError) and error.filename and error.lineno:
        return Span(str(error.filename), error.lineno, max(error.offset or 1, 1))
    import traceback  # only when an extension fails

    std, site = _library_dirs()
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        if _is_theirs(frame.filename, std, site) and frame.lineno:
            column, end_line, end_column = (getattr(frame, k, None) for k in ("colno", "end_lineno", "end_colno"))
            if column is None or end_line is None or end_column is None:  # Python < 3.11
                return Span(frame.filename, frame.lineno, 1)
            return Span(frame.filename, frame.lineno, column + 1, end_line, end_column + 1)
    return None


def definition_site(obj: Any) -> Span | None:
    """Where a function, method or class is defined (``file:line:1``), or ``None``."""
    code = getattr(getattr(obj, "__func__", obj), "__code__", None)
    if code is not None and code.co_filename and not code.co_filename.startswith("<"):
        return Span(code.co_filename, code.co_firstlineno, 1)
    if isinstance(obj, type):
        import inspect  # only on an error path: inspect costs an import

        try:
            _, first = inspect.getsourcelines(obj)
            source = inspect.getsourcefile(obj)
        except (OSError, TypeError):
            return None
        if source:
            return Span(source, first, 1)
    return None


def describe_error(error: BaseException) -> str:
    """``Type: message`` of an exception, the message cut to 200 characters."""
    text = str(error)
    return f"{type(error).__name__}: {text[:200]}" if text else type(error).__name__


def _what(value: Any) -> str:
    if isinstance(value, type):
        return f"the class {value.__qualname__} (not an instance of it)"
    return f"a {type(value).__name__}"


def extension_mappers(extension: Any, name: str, where: Callable[[], Span | None], diags: Diagnostics,
                      into: ExtensionMappers) -> bool:
    """Call ``extension``'s hooks and add what they return to ``into``.

    Args:
        extension: an object with ``cfn_mappers`` and/or ``json_schema_mappers`` (see
            :class:`Extension`).
        name: how diagnostics name the extension (its entry point, or its class).
        where: gives where the extension is declared (its entry point, or its class), for
            problems that have no better place; called only then.
        diags: receives error ``S5030`` for a hook that raises (located where it raised),
            is not callable, or returns anything but a list or tuple of mappers — a
            :class:`CfnMapper` instance with an integer ``order`` from ``cfn_mappers``, a
            callable from ``json_schema_mappers`` — (located at the hook's definition).
        into: receives the mappers.

    Returns:
        ``True`` when both hooks gave usable mappers; on ``False`` nothing of this
        extension was added. Never raises (an ``Exception`` raised by a hook is reported).
    """
    found = ExtensionMappers()
    ok = True
    for hook_name, check, expected in (
            ("cfn_mappers", _is_cfn_mapper, "CfnMapper instances with an integer 'order'"),
            ("json_schema_mappers", callable, "callables (converter, shape, schema) -> schema")):
        hook = getattr(extension, hook_name, None)
        if hook is None:
            continue
        problems: list[tuple[str, Span | None]] = []
        if not callable(hook):
            problems.append((f"'{hook_name}' is {_what(hook)}, not a method", None))
        else:
            try:
                items = hook()
            except Exception as e:  # noqa: BLE001 - third-party code: any exception is its bug, not a traceback
                problems.append((f"{hook_name}() raised {describe_error(e)}", raise_site(e)))
            else:
                if not isinstance(items, (list, tuple)):
                    problems.append((f"{hook_name}() returned {_what(items)}, not a list of {expected}", None))
                else:
                    problems += [(f"item {i} of {hook_name}() is {_what(item)}, not one of the {expected}", None)
                                 for i, item in enumerate(items) if not check(item)]
        for message, at in problems:
            diags.error(EXTENSION_CODE, f"extension {name}: {message}", at or definition_site(hook) or where(),
                        hint=f"fix the extension {name} ({hook_name}() returns a list of {expected}), or leave "
                             "it out (uninstall its package, or pass extensions=[...])")
        if problems:
            ok = False
        else:
            (found.cfn if hook_name == "cfn_mappers" else found.json_schema).extend(items)
    if ok:
        into.cfn.extend(found.cfn)
        into.json_schema.extend(found.json_schema)
    return ok


def _is_cfn_mapper(value: Any) -> bool:
    from smithy2cfn.emit.mappers import CfnMapper

    order = getattr(value, "order", None)
    return isinstance(value, CfnMapper) and isinstance(order, int) and not isinstance(order, bool)


__all__ = ["ENTRY_POINT_GROUP", "EXTENSION_CODE", "Extension", "ExtensionMappers", "definition_site",
           "describe_error", "extension_mappers", "raise_site"]
