"""Checks as self-describing units: a validator, a lint rule or a configurable validator is
a function marked, where it is defined, with the codes it reports, the rule it follows and
(validators) the trait packages it needs.

As in the reference, where each validator is a class whose event ID comes from its name
and which ``META-INF/services`` lists, and in cfn-lint, where each rule carries its ``id``,
``shortdesc`` and ``source_url``: adding a check is one function in its room plus its test
fixture, nothing else. The registries (which validators run for a model, which lint rules
run, which validators a model's ``validators`` metadata can name), the table of codes and
README's tables are built from these marks (:mod:`smithy2cfn.catalog`)::

    from smithy2cfn.checks import validator
    from smithy2cfn.diagnostics import Code, Severity

    @validator(Code("S3700", Severity.ERROR, "WaitableTrait", "a waiter's delays or acceptors are wrong"),
               rule="reference WaitableTraitValidator (smithy-waiters; waiters.rst)",
               packages=("smithy.waiters",))
    def check_waitable(model): ...

A code is given either as a :class:`~smithy2cfn.diagnostics.Code` (declared there, owned by
the check's module) or as the code string of one the module (or the validation support
module) declares with :func:`~smithy2cfn.diagnostics.declare_codes`, for codes that several
checks of one module share. A check reports only the codes it names: the runners turn any
other into an internal error (``S3099``), and ``tests/api/test_catalog.py`` reads every check's
source for the codes it writes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from smithy2cfn.diagnostics import CODES, Code, declare_codes
from smithy2cfn.records import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    F = TypeVar("F", bound=Callable[..., Any])

#: The kinds of checks: a validator of the validation stage (``model -> diagnostics``), a
#: lint rule of the lint stage (run once per emitted schema), a validator that a model's
#: ``validators`` metadata names (a factory: ``configuration -> validator``), and a diff
#: rule (run once per pair of schemas of one resource type, :mod:`smithy2cfn.diff`).
KINDS = ("validator", "lint", "configurable", "diff")


class Check(Record, frozen=True, hidden=("run",)):
    """One check, as its decorator declared it.

    Attributes:
        kind: one of :data:`KINDS`.
        name: the function's name, or for a configurable validator the name a model's
            ``validators`` metadata gives it (the reference's validator name:
            ``EmitEachSelector``, ``CamelCase``).
        module: the module defining it.
        function: the function's attribute name in ``module``.
        codes: the codes it may report, sorted.
        rule: the rule it follows: the reference class, the CloudFormation rule, the spec
            section (README's tables quote it).
        packages: (validators) the trait packages whose traits it checks: it runs only when
            the model loaded one of them (:attr:`smithy2cfn.model.Model.packages`); ``()``
            runs on every model.
        line: where the function is defined (orders the checks of a module).
        run: the function itself (``None`` for an entry read from the catalog).
    """

    kind: str
    name: str
    module: str
    function: str
    codes: tuple[str, ...]
    rule: str
    packages: tuple[str, ...]
    line: int
    run: Callable[..., Any] | None

    def __init__(self, kind: str, name: str, module: str, function: str, codes: tuple[str, ...], rule: str,
                 packages: tuple[str, ...] = (), line: int = 0, run: Callable[..., Any] | None = None) -> None:
        self.__dict__.update(kind=kind, name=name, module=module, function=function, codes=codes, rule=rule,
                             packages=packages, line=line, run=run)

    def to_json(self) -> dict[str, Any]:
        """The check's catalog entry (:mod:`smithy2cfn.catalog`)."""
        return {"kind": self.kind, "name": self.name, "module": self.module, "function": self.function,
                "codes": list(self.codes), "rule": self.rule, "packages": list(self.packages), "line": self.line}

    @classmethod
    def from_json(cls, entry: dict[str, Any]) -> Check:
        """A check from its catalog entry (see :meth:`to_json`); ``run`` is ``None``.

        Raises:
            KeyError, TypeError: a malformed entry.
        """
        return cls(entry["kind"], entry["name"], entry["module"], entry["function"], tuple(entry["codes"]),
                   entry["rule"], tuple(entry.get("packages", ())), int(entry.get("line", 0)))


#: Every check declared by the modules imported so far, by ``(module, function)``, in
#: declaration order (a module imported again, as a test may, declares its checks anew).
DECLARED: dict[tuple[str, str], Check] = {}


def _line(function: Callable[..., Any]) -> int:
    """Where ``function`` is defined: the line of the function a wrapper made with
    :func:`functools.wraps` wraps (``@distinct``), not the wrapper's."""
    while hasattr(function, "__wrapped__"):
        function = function.__wrapped__
    code = getattr(function, "__code__", None)
    return code.co_firstlineno if code is not None else 0


def _declare(kind: str, name: str | None, codes: Iterable[Code | str], rule: str,
             packages: Iterable[str], function: Callable[..., Any]) -> Check:
    module = function.__module__
    found: list[str] = []
    for c in codes:
        if isinstance(c, Code):
            declare_codes(c, owner=module)
            found.append(c.code)
        elif isinstance(c, str) and CODES.is_declared(c):
            found.append(c)
        else:
            raise ValueError(f"{module}.{function.__name__} names the code {c!r}, which is not declared: give a "
                             "Code(...) or declare it with declare_codes in the module")
    if not rule:
        raise ValueError(f"{module}.{function.__name__}: a check names the rule it follows")
    check = Check(kind, name or function.__name__, module, function.__name__, tuple(sorted(set(found))), rule,
                  tuple(packages), _line(function),
                  function)
    DECLARED[check.module, check.function] = check
    return check


def validator(*codes: Code | str, rule: str, packages: Iterable[str] = ()) -> Callable[[F], F]:
    """Mark ``check_x(model) -> Iterable[Diagnostic]`` as a validator of the validation stage
    (see the module docstring). The function gets the attribute ``check`` (its :class:`Check`).

    Raises:
        ValueError: a code that is not declared, a code another module owns, or no rule
            (at import: a bug of the declaring module).
    """
    def mark(function: F) -> F:
        function.check = _declare("validator", None, codes, rule, packages, function)  # type: ignore[attr-defined]
        return function
    return mark


def lint_rule(*codes: Code | str, rule: str) -> Callable[[F], F]:
    """Mark ``rule_x(ctx) -> None`` as a lint rule, run on every emitted schema with the
    lint stage's context (:class:`smithy2cfn.lint.context.ResourceContext`, whose ``report``
    quotes ``rule`` in each message); see :func:`validator`."""
    def mark(function: F) -> F:
        function.check = _declare("lint", None, codes, rule, (), function)  # type: ignore[attr-defined]
        return function
    return mark


def configurable(name: str, *codes: Code | str, rule: str) -> Callable[[F], F]:
    """Mark ``factory(configuration) -> validator`` as the validator a model's ``validators``
    metadata calls ``name`` (Smithy 2.0 "Model validation" §"Validators"); see
    :func:`validator`."""
    def mark(function: F) -> F:
        function.check = _declare("configurable", name, codes, rule, (), function)  # type: ignore[attr-defined]
        return function
    return mark


#: A diff rule's levels of semantic version (:func:`diff_rule`).
LEVELS = ("major", "minor", "patch")


def diff_rule(code: Code, *, rule: str, level: str = "major", unpaired: bool = False) -> Callable[[F], F]:
    """Mark ``rule_x(ctx) -> None`` as a rule of ``smithy2cfn diff``, run on every pair of
    schemas of one resource type with :class:`smithy2cfn.diff.context.TypeDiff`; it reports
    ``code`` only (one code a rule). ``level`` is the semantic-version level a finding of
    it gives its type: ``"major"`` (breaks deployed stacks or templates), ``"minor"`` (an
    addition a template can use), ``"patch"`` (nothing a template can see). A rule runs on
    types both sides have, or, with ``unpaired``, only on a type one side lacks (added or
    removed). The function gets the attributes ``level`` and ``unpaired``. See
    :func:`validator` for the errors.
    """
    if level not in LEVELS:
        raise ValueError(f"diff rule level {level!r} is not one of {LEVELS}")

    def mark(function: F) -> F:
        function.check = _declare("diff", None, (code,), rule, (), function)  # type: ignore[attr-defined]
        function.level = level  # type: ignore[attr-defined]
        function.unpaired = unpaired  # type: ignore[attr-defined]
        return function
    return mark


def run_checks(ctx: Any, checks: Iterable[Check], internal: Callable[[Check, str], Any]) -> None:
    """Run each check's function on ``ctx`` (a stage's context: an object with the attributes
    ``check``, the check running, ``found``, its findings, and ``undeclared``, the
    ``(check, code, message)`` of each finding whose code the check does not declare): a
    check that raises, and each undeclared finding, adds ``internal(check, what)`` to
    ``ctx.found`` (an internal-error finding) and the others go on. Never raises."""
    for check in checks:
        ctx.check = check
        try:
            if check.run is not None:
                check.run(ctx)
        except Exception as e:  # noqa: BLE001 - a check's bug must not become a traceback
            ctx.found.append(internal(check, f"{type(e).__name__}: {str(e)[:200]}"))
    ctx.check = None
    for check, code, message in ctx.undeclared:
        if check is not None:
            ctx.found.append(internal(check, f"it reported {code}, a code it does not declare ({message[:200]})"))
    ctx.undeclared.clear()


def shipped(kind: str) -> list[Check]:
    """The checks of ``kind`` in the shipped catalog (:func:`smithy2cfn.catalog.section`), in
    catalog order; malformed entries are left out. ``[]`` when there is no catalog."""
    from smithy2cfn import catalog

    out: list[Check] = []
    for entry in catalog.section("checks"):
        if not isinstance(entry, dict) or entry.get("kind") != kind:  # (the other kinds' entries: no record made)
            continue
        try:
            out.append(Check.from_json(entry))
        except (KeyError, TypeError, ValueError):
            continue
    return out


def loaded(entry: Check) -> Check:
    """The check of the catalog entry ``entry`` with ``run`` set: its module imported, the
    function's own :class:`Check` (its ``check`` attribute). An entry that has ``run``
    already is returned as it is.

    Raises:
        ImportError, AttributeError: the entry names no function (a stale catalog).
    """
    if entry.run is not None:
        return entry
    import importlib

    function = getattr(importlib.import_module(entry.module), entry.function)
    check = getattr(function, "check", None)
    return check if isinstance(check, Check) else Check(**{**entry.__dict__, "run": function})


def runnable(kind: str, package: str, keep: Callable[[Check], bool] | None = None, *, load: bool = True
             ) -> list[Check]:
    """The checks of ``kind`` that ``keep`` accepts (all when ``None``), as the catalog lists
    them (:func:`shipped`, in catalog order), each with ``run`` set: its module is imported
    and the entry is the function's own :class:`Check` (its ``check`` attribute). Without a
    catalog, the checks found by importing every module of the package ``package`` (a
    module name, e.g. ``"smithy2cfn.lint"``), ordered by module and line: slower, the same
    checks. ``keep`` is asked before a module is imported, so that a check it refuses costs
    no import. With ``load=False``, the catalog's entries are returned without importing
    anything (``run`` is ``None``: :func:`loaded` imports one when it is to run).

    Raises:
        ImportError, AttributeError: a catalog entry names no function (a stale catalog:
            ``tests/api/test_catalog.py`` fails first).
    """
    import importlib

    listed = shipped(kind)
    if not listed:
        import pkgutil

        for info in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
            importlib.import_module(info.name)
        listed = sorted((c for c in DECLARED.values() if c.kind == kind and c.module.startswith(package + ".")),
                        key=lambda c: (c.module, c.line))
    kept = [entry for entry in listed if keep is None or keep(entry)]
    return [loaded(entry) for entry in kept] if load else kept


__all__ = ["DECLARED", "KINDS", "LEVELS", "Check", "configurable", "diff_rule", "lint_rule", "loaded", "run_checks",
           "runnable", "shipped", "validator"]
