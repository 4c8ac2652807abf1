"""CloudFormation type names: the pattern, where each part comes from, and the located
diagnostics when a type name cannot be one.

A schema's ``typeName`` is ``Organization::Service::Resource``; the CloudFormation
meta-schema (``provider.definition.schema.v1.json`` → ``base.definition.schema.v1.json``
``/properties/typeName``) requires::

    ^[a-zA-Z0-9]{2,64}::[a-zA-Z0-9]{2,64}::[a-zA-Z0-9]{2,64}(::MODULE){0,1}$

The output file name is made from the *final* ``typeName`` (after every mapper), so this
pattern is also what keeps a file name a plain name inside the output folder: only ASCII
letters, digits and ``-`` remain. The check uses :func:`re.fullmatch` (a ``$`` in
:func:`re.search`, which the JSON Schema ``pattern`` keyword uses, also matches before a
trailing newline).

Codes (README "Diagnostics"): ``S5020`` a setting (``organizationName``/``serviceName``,
``--org``/``--service-name``) makes a bad part; ``S5021`` ``jsonAdd`` or
``schemaDocumentExtensions`` sets a bad ``typeName``; ``S5022`` the model makes a bad part
(``cfnResource`` ``name``, ``aws.api#service`` ``cloudFormationName``, a shape name);
``S5023`` a custom mapper sets a bad ``typeName``.
"""

from __future__ import annotations

from smithy2cfn.diagnostics import Code, Diagnostic, Severity, Span, declare_codes
from smithy2cfn.records import Record
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S5020", Severity.ERROR, None,
         "`organizationName` / `serviceName` (config key, `--org`, `--service-name`, library `settings`) "
         "cannot be part of a typeName (2–64 ASCII letters or digits each); nothing is written", usage=True),
    Code("S5021", Severity.ERROR, None,
         "`jsonAdd` or `schemaDocumentExtensions` sets a `typeName` that is not `Org::Service::Resource`", usage=True),
    Code("S5023", Severity.ERROR, None, "a custom mapper sets a bad `typeName`"),
)

#: The meta-schema's ``typeName`` pattern, for :func:`re.fullmatch`.
TYPE_NAME_RE = lazy(r"[a-zA-Z0-9]{2,64}::[a-zA-Z0-9]{2,64}::[a-zA-Z0-9]{2,64}(?:::MODULE)?")
#: One part of a type name.
PART_RE = lazy(r"[a-zA-Z0-9]{2,64}")
#: What a part must be, in words (used in messages and hints).
PART_RULE = "2 to 64 ASCII letters or digits"
_FLAG_IN_SPAN = lazy(r"<command line (--[A-Za-z-]+)>")


def is_type_name(value: Any) -> bool:
    """True when ``value`` is a string matching the meta-schema's ``typeName`` pattern."""
    return isinstance(value, str) and TYPE_NAME_RE.fullmatch(value) is not None


def show(value: Any, limit: int = 40) -> str:
    """A short, printable rendering of a (possibly hostile) value for a message: its
    ``repr`` (so NUL, newlines and control characters are escaped), cut at ``limit``."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def flag_of(span: Span | None) -> str | None:
    """The command-line flag a span stands for (``<command line --org>`` → ``--org``)."""
    m = _FLAG_IN_SPAN.fullmatch(span.path) if span is not None else None
    return m.group(1) if m else None


class Part(Record, frozen=True):
    """One part of a type name and where it comes from.

    Attributes:
        value: the text of the part.
        what: the source in words (``"setting 'organizationName'"``,
            ``"the @aws.cloudformation#cfnResource name of acme#R"``...).
        code: ``S5020`` (from a setting) or ``S5022`` (from the model).
        span: where to point (a config key, a flag, a trait, a shape), or ``None``.
        hint: what to change.
        shape_id: the shape the part comes from, if any.
    """

    value: str
    what: str
    code: str
    span: Span | None
    hint: str
    shape_id: str | None

    def __init__(self, value: str, what: str, code: str, span: Span | None, hint: str,
                 shape_id: str | None = None) -> None:
        self.__dict__.update(value=value, what=what, code=code, span=span, hint=hint, shape_id=shape_id)


def setting_part(value: str, key: str, flag: str, span: Span | None) -> Part:
    """A part given by the setting ``key`` (``organizationName``/``serviceName``), from a
    config file key, a command-line flag (``span`` ``<command line --org>``) or the
    library's ``settings`` mapping."""
    used_flag = flag_of(span)
    if used_flag:
        example = "Acme" if used_flag == "--org" else "Storage"
        what, hint = f"{used_flag}", f"pass {used_flag} with {PART_RULE} (e.g. {used_flag} {example})"
    elif span is not None and not span.path.startswith("<"):
        what = f"setting '{key}'"
        hint = f"set '{key}' in {span.path} to {PART_RULE} (or override it with {flag})"
    else:
        what, hint = f"setting '{key}'", f"set '{key}' to {PART_RULE}"
    return Part(value, what, "S5020", span, hint)


def part_problems(parts: list[Part], resource_id: str) -> list[Diagnostic]:
    """One ERROR per part that does not match :data:`PART_RE`, located where it comes from."""
    out = []
    for part in parts:
        if PART_RE.fullmatch(part.value):
            continue
        out.append(Diagnostic(
            part.code, Severity.ERROR,
            f"{part.what} is {show(part.value)}, which cannot be part of the CloudFormation typeName of "
            f"{resource_id} (Organization::Service::Resource, each part {PART_RULE}); nothing is written",
            part.span, part.shape_id or resource_id, part.hint))
    return out


def mapper_problem(value: Any, setter: str, resource_id: str, span: Span | None,
                   resource_span: Span | None) -> Diagnostic:
    """The ERROR for a ``typeName`` that a mapper set to something that is not a type name.

    ``setter`` is ``"jsonAdd"``, ``"schemaDocumentExtensions"`` (``S5021``, located at
    ``span``, the setting) or a mapper class name (``S5023``, located at the resource).
    """
    rule = f"Organization::Service::Resource, each part {PART_RULE}"
    if setter == "jsonAdd":
        return Diagnostic("S5021", Severity.ERROR,
                          f"jsonAdd for {resource_id} sets typeName to {show(value)}, which is not a "
                          f"CloudFormation typeName ({rule}); nothing is written",
                          span, resource_id,
                          f"change or remove the '/typeName' entry of jsonAdd '{resource_id}'")
    if setter == "schemaDocumentExtensions":
        return Diagnostic("S5021", Severity.ERROR,
                          f"schemaDocumentExtensions sets typeName to {show(value)}, which is not a "
                          f"CloudFormation typeName ({rule}); nothing is written",
                          span, resource_id, "remove 'typeName' from schemaDocumentExtensions")
    return Diagnostic("S5023", Severity.ERROR,
                      f"mapper {setter} sets the typeName of {resource_id} to {show(value)}, which is not a "
                      f"CloudFormation typeName ({rule}); nothing is written",
                      resource_span, resource_id, f"fix mapper {setter}")


__all__ = ["PART_RE", "PART_RULE", "TYPE_NAME_RE", "Part", "flag_of", "is_type_name",
           "mapper_problem", "part_problems", "setting_part", "show"]
