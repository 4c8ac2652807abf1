"""``cfn validate`` beyond the meta-schema: the checks of cloudformation-cli's
``rpdk/core/data_loaders.py`` ``load_resource_spec`` (``S6001``–``S6016``), one rule per code.

``load_resource_spec`` logs a warning for most of them and raises for three (``arrayType``
on a non-array, ``conditionalCreateOnlyProperties`` overlapping, a top-level ``remote``):
those are errors here, the others warnings. Where resource-schema-guard-rail or the handler
contract has the same rule, the rule text names it too.
"""

from __future__ import annotations

import json
import re
import warnings

from smithy2cfn.checks import lint_rule
from smithy2cfn.diagnostics import Code, Severity
from smithy2cfn.lint.context import ResourceContext, walk
from smithy2cfn.lint.locate import Site
from smithy2cfn.model.traits import TAGGABLE
from smithy2cfn.regexes import lazy

#: cloudformation-cli's limit for enums (``len(enum) > 15`` warns).
MAX_ENUM = 15
#: cloudformation-cli's list-API inputs that are not properties (lower-cased).
LIST_OPTIONS = frozenset({"maxresults", "maxrecords", "maxitems", "nexttoken", "nextmarker", "nextpagetoken",
                          "pagetoken", "paginationtoken"})
#: cloudformation-cli: keywords that belong to one family of types.
KEYWORD_MAPPINGS = (
    ({"integer", "number"}, {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    ({"string"}, {"minLength", "maxLength", "pattern"}),
    ({"object"}, {"minProperties", "maxProperties", "additionalProperties", "patternProperties"}),
    ({"array"}, {"minItems", "maxItems", "additionalItems", "uniqueItems"}),
)
TYPE_SPECIFIC_KEYWORDS = frozenset().union(*(keywords for _, keywords in KEYWORD_MAPPINGS))
#: Java's POSIX and java.lang.Character classes (``\p{Alpha}``, ``\p{javaLowerCase}``): valid
#: ECMA-262 syntax or not, ECMA does not read them as Java does (the syntax itself, inline
#: flags, ``\A``, possessive quantifiers..., is checked by an ECMA engine: :func:`ecma_problem`).
NOT_ECMA = lazy(r"\\[pP]\{(?:Lower|Upper|ASCII|Alpha|Digit|Alnum|Punct|Graph|Print|Blank|Cntrl|XDigit|Space|"
                r"java\w+|Is\w+)\}")


def python_regex_problem(pattern: str) -> str | None:
    """Why ``pattern`` does not compile with Python's ``re`` as cloudformation-cli compiles
    it (``re.ASCII``), or ``None``."""
    try:
        with warnings.catch_warnings():  # "possible nested set" and other FutureWarnings
            warnings.simplefilter("ignore")
            re.compile(pattern, re.ASCII)
    except re.error as e:
        return f"Python re: {e}"
    except (RecursionError, OverflowError, ValueError) as e:
        return f"Python re: {type(e).__name__}"
    return None


def ecma_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not the ECMA-262 regular expression it means to be, or ``None``.

    The syntax is checked by an ECMA-262 engine, the ``regress`` package (the regex engine
    of the Rust JSON Schema validators; flag ``u``, as JSON Schema's ``regex`` format reads
    patterns); a pattern it accepts is also checked for Java constructs that ECMA reads
    otherwise (:data:`NOT_ECMA`: ``\\p{Alpha}`` is Java's ASCII class but ECMA's Unicode
    property). Source: the meta-schema's ``pattern`` keyword (ECMA-262), guard-rail's and
    cfn-cli's Python ``re`` counterpart being :func:`python_regex_problem`.
    """
    import regress  # imported here: only lint (default mode) reads patterns this way

    try:
        regress.Regex(pattern, "u")
    except regress.RegressError as e:
        return f"not an ECMA-262 regular expression ({e})"
    found = NOT_ECMA.search(pattern)
    return f"ECMA-262 has no `{found.group(0)}`" if found else None


# -- property names and keywords, in every subschema ------------------------------------


@lint_rule(Code("S6001", Severity.WARNING, "CfnLint.CfnValidate.PropertyCase",
                "a property name starts with a lowercase letter"),
           rule="cfn-cli data_loaders: properties don't usually start with lowercase letters")
def property_case(ctx: ResourceContext) -> None:
    """A property (at any depth) whose name starts with a lowercase letter."""
    for where, sub in ctx.subschemas():
        props = sub.get("properties")
        for name in props if isinstance(props, dict) else ():
            if name[:1].islower():
                ctx.report("S6001", f"property `{name}` starts with a lowercase letter",
                           ctx.loc.site([*where, "properties", name]),
                           "give the member an @aws.cloudformation#cfnName starting with a capital letter")


def _typed_properties(ctx: ResourceContext):
    """``(site parts, name, details, type)`` of every property with a ``type``, at any depth."""
    for where, sub in ctx.subschemas():
        props = sub.get("properties")
        for name, details in props.items() if isinstance(props, dict) else ():
            if isinstance(details, dict) and "type" in details:
                yield [*where, "properties", name], name, details, details["type"]


@lint_rule(Code("S6002", Severity.WARNING, "CfnLint.CfnValidate.InsertionOrder",
                "an array property without `insertionOrder`"),
           rule="cfn-cli data_loaders: explicitly specify insertionOrder for array")
def insertion_order(ctx: ResourceContext) -> None:
    """An array property without ``insertionOrder``."""
    for parts, name, details, kind in _typed_properties(ctx):
        if kind == "array" and "insertionOrder" not in details:
            ctx.report("S6002", f"array property `{name}` has no insertionOrder", ctx.loc.site(parts),
                       "use the default compatibility mode (it writes insertionOrder), or add "
                       "@uniqueItems to the list if its order does not matter")


@lint_rule(Code("S6003", Severity.ERROR, "CfnLint.CfnValidate.ArrayType",
                "`arrayType` on a property that is not an array (`cfn validate` rejects it)"),
           rule="cfn-cli data_loaders: arrayType is only applicable for properties of type array")
def array_type(ctx: ResourceContext) -> None:
    """``arrayType`` on a property that is not an array (``cfn validate`` raises)."""
    for parts, name, details, kind in _typed_properties(ctx):
        if kind != "array" and "arrayType" in details:
            ctx.report("S6003", f"property `{name}` has arrayType but is not an array", ctx.loc.site(parts),
                       "remove the arrayType added by jsonAdd or an extension")


@lint_rule(Code("S6004", Severity.WARNING, "CfnLint.CfnValidate.TypeKeywords",
                "a keyword of another type (`minLength` on a number...)"),
           rule="cfn-cli data_loaders: incorrect JSON schema keyword(s) for type")
def type_keywords(ctx: ResourceContext) -> None:
    """A property with a keyword of another family of types (:data:`KEYWORD_MAPPINGS`)."""
    for parts, name, details, kind in _typed_properties(ctx):
        if not isinstance(kind, str):
            continue
        for types, allowed in KEYWORD_MAPPINGS:
            wrong = (TYPE_SPECIFIC_KEYWORDS - allowed) & set(details)
            if wrong and kind in types:
                ctx.report("S6004", f"property `{name}` of type {kind} has keyword(s) {', '.join(sorted(wrong))}",
                           ctx.loc.site(parts),
                           f"remove the trait that gives {sorted(wrong)[0]} (e.g. @length or @range on a member "
                           "of another type)")


@lint_rule(Code("S6012", Severity.WARNING, "CfnLint.CfnValidate.OpenObject",
                "an object with properties whose `additionalProperties` is not false"),
           rule="cfn-cli data_loaders: additionalProperties false on objects with properties")
def open_object(ctx: ResourceContext) -> None:
    """A (sub)schema with properties whose ``additionalProperties`` is not ``false``."""
    for where, sub in ctx.subschemas():
        props = sub.get("properties")
        if isinstance(props, dict) and props and sub.get("additionalProperties") is not False:
            ctx.report("S6012", f"object `{'/'.join(where) or 'schema'}` with properties does not set "
                                "additionalProperties to false", ctx.loc.site(list(where)),
                       "remove the jsonAdd or extension that opens the object")


# -- patterns and enums, anywhere in the schema -------------------------------------------


@lint_rule(Code("S6005", Severity.WARNING, "CfnLint.CfnValidate.ArnPartition",
                "a `@pattern` hard-codes the `arn:aws:` partition"),
           rule="cfn-cli data_loaders: don't hardcode the aws partition in ARN patterns")
def arn_partition(ctx: ResourceContext) -> None:
    """A ``pattern`` holding ``arn:aws:``, at the ``@pattern`` trait."""
    for where, pattern in ctx.keyword_values("pattern"):
        if isinstance(pattern, str) and "arn:aws:" in pattern:
            ctx.report("S6005", f"pattern hard-codes the aws partition: {pattern}", ctx.loc.site(list(where)),
                       "write the partition as arn:aws[a-z-]*: (or arn:[^:]+:) in the @pattern")


@lint_rule(Code("S6006", Severity.WARNING, "CfnLint.CfnValidate.Pattern",
                "a `@pattern` that Python `re` cannot compile, or that uses a construct ECMA-262 lacks (`\\p{L}`, "
                "`(?i)`)"),
           rule="cfn-cli data_loaders: could not validate regular expression; handler contract: patterns valid as "
                "ECMA-262 and Python re")
def pattern_syntax(ctx: ResourceContext) -> None:
    """A ``pattern`` Python ``re`` cannot compile (:func:`python_regex_problem`), or with a
    construct ECMA-262 lacks (:func:`ecma_problem`), at the ``@pattern`` trait."""
    for where, value in ctx.keyword_values("pattern"):
        problem = (python_regex_problem(value) or ecma_problem(value)) if isinstance(value, str) else None
        if problem:
            ctx.report("S6006", f"pattern cannot be used by CloudFormation ({problem}): {value}",
                       ctx.loc.site(list(where)),
                       "rewrite the @pattern with constructs both ECMA-262 and Python accept (e.g. "
                       "[A-Za-z] instead of \\p{L}, no inline (?i) flags)")


@lint_rule(Code("S6007", Severity.WARNING, "CfnLint.CfnValidate.LargeEnum", "an enum of more than 15 values"),
           rule="cfn-cli data_loaders: consider not manually maintaining large enums")
def large_enum(ctx: ResourceContext) -> None:
    """An ``enum`` of more than :data:`MAX_ENUM` values, at the enum shape."""
    for where, value in ctx.keyword_values("enum"):
        if isinstance(value, list) and len(value) > MAX_ENUM:
            ctx.report("S6007", f"an enum of {len(value)} values (over {MAX_ENUM}) at {'/'.join(where[:-1])}",
                       _enum_site(ctx, list(where)),
                       "if the values change often (instance types, regions...), model the member as "
                       "a plain string and document the values")


def _enum_site(ctx: ResourceContext, parts: list[str]) -> Site:
    """An ``enum`` keyword: the enum shape it is written from."""
    site = ctx.loc.site(parts[:-1])
    shape = ctx.model.get(site.shape_id)
    if shape is not None and shape.type not in ("enum", "intEnum"):
        member = ctx.model.member(site.shape_id) if "$" in site.shape_id else None
        target = ctx.model.get(member.target) if member is not None else None
        if target is not None:
            return ctx.loc.site(parts)
    return site


@lint_rule(Code("S6008", Severity.WARNING, "CfnLint.CfnValidate.NonAscii",
                "non-ASCII characters in the schema (usually `@documentation`)"),
           rule="cfn-cli data_loaders: non-ASCII characters found in resource schema")
def non_ascii(ctx: ResourceContext) -> None:
    """Non-ASCII characters, reported at each text holding some (one finding a place)."""
    if not re.search(r"[^ -~]", json.dumps(ctx.schema, ensure_ascii=False)):
        return
    reported: set[tuple[str, int, int]] = set()
    for where, value in walk(ctx.schema):
        if isinstance(value, str):
            texts = [value]
        elif isinstance(value, dict):
            texts = [str(k) for k in value]
        else:
            continue
        for text in texts:
            chars = sorted(set(re.findall(r"[^ -~\n\t\r]", text)))
            if not chars:
                continue
            site = ctx.loc.site(list(where))
            key = (site.span.path if site.span else "", site.span.line if site.span else 0,
                   site.span.column if site.span else 0)
            if key in reported:
                continue
            reported.add(key)
            ctx.report("S6008", f"non-ASCII characters {', '.join(repr(c) for c in chars[:5])} at "
                                f"{'/'.join(where) or 'schema'}", site,
                       "write the text (usually @documentation) in ASCII: '-' for dashes, plain quotes")


# -- the top-level keywords ---------------------------------------------------------------


@lint_rule(Code("S6009", Severity.WARNING, "CfnLint.CfnValidate.ListOption",
                "a LIST API input (`MaxResults`, `NextToken`...) is a property"),
           rule="cfn-cli data_loaders: LIST API inputs are not resource properties")
def list_option(ctx: ResourceContext) -> None:
    """A top-level property named like a list API input (:data:`LIST_OPTIONS`)."""
    names = {str(n).lower(): n for n in ctx.obj("properties")}
    for lower in sorted(LIST_OPTIONS & set(names)):
        ctx.report("S6009", f"property `{names[lower]}` is a LIST API input, not a resource property",
                   ctx.loc.property_site(names[lower]),
                   "add @aws.cloudformation#cfnExcludeProperty to the member, or @notProperty")


@lint_rule(Code("S6010", Severity.WARNING, "CfnLint.CfnValidate.ReadOnlyOverlap",
                "a readOnly property is also createOnly, writeOnly or required"),
           rule="cfn-cli data_loaders: readOnlyProperties should not overlap writeOnly, createOnly or required; "
                "guard-rail PR001, PR004")
def read_only_overlap(ctx: ResourceContext) -> None:
    """A readOnly property that is also createOnly, writeOnly or required."""
    read_only = set(ctx.pointer_list("readOnlyProperties"))
    create_only = set(ctx.pointer_list("createOnlyProperties"))
    write_only = set(ctx.pointer_list("writeOnlyProperties"))
    required = {"/properties/" + r for r in ctx.arr("required") if isinstance(r, str)}
    for pointer in sorted(read_only & (create_only | write_only | required)):
        others = [n for n, s in (("createOnly", create_only), ("writeOnly", write_only), ("required", required))
                  if pointer in s]
        ctx.report("S6010", f"{pointer} is readOnly and {', '.join(others)}", ctx.loc.pointer_site(pointer),
                   "a readOnly property cannot be set: remove @required, or fix its "
                   "@aws.cloudformation#cfnMutability")


@lint_rule(Code("S6011", Severity.WARNING, "CfnLint.CfnValidate.WildcardPermission",
                "a handler permission with a wildcard"),
           rule="cfn-cli data_loaders: use specific handler permissions instead of wildcards; guard-rail PER002, "
                "PER004, PER007, PER009, PER011 (wildcard)")
def wildcard_permission(ctx: ResourceContext) -> None:
    """A handler permission holding ``*``, at the operation whose ``requiredActions`` give
    it. (guard-rail's wildcard notation, ``^[a-z0-9-]{0,20}:([a-zA-Z0-9]+)?\\*$`` on the five
    handlers, matches a subset of these.)"""
    for handler, body in sorted(ctx.obj("handlers").items()):
        permissions = body.get("permissions") if isinstance(body, dict) else None
        for permission in permissions if isinstance(permissions, list) else ():
            if isinstance(permission, str) and "*" in permission:
                ctx.report("S6011", f"the {handler} handler's permission `{permission}` is a wildcard",
                           _permission_site(ctx, handler, permission),
                           "name the exact actions in the operation's @aws.iam#iamAction requiredActions")


def _permission_site(ctx: ResourceContext, handler: str, permission: str) -> Site:
    """The operation whose ``requiredActions`` hold ``permission`` (else the handler's)."""
    plan = next((h for h in ctx.rplan.handlers if h.name == handler), None)
    for op in plan.operations if plan else ():
        shape = ctx.model.get(op)
        if shape is not None and permission in json.dumps(shape.traits, default=str):
            return Site(shape.span, ctx.resource.id)
    return ctx.loc.operation_site(handler)


@lint_rule(Code("S6013", Severity.WARNING, "CfnLint.CfnValidate.PrimaryIdentifierMutability",
                "a primaryIdentifier property is neither readOnly nor createOnly"),
           rule="cfn-cli data_loaders: primaryIdentifier must be readOnly or createOnly; guard-rail PID003")
def primary_identifier_mutability(ctx: ResourceContext) -> None:
    """A primaryIdentifier property that is neither readOnly nor createOnly."""
    read_only = set(ctx.pointer_list("readOnlyProperties"))
    create_only = set(ctx.pointer_list("createOnlyProperties"))
    for pointer in ctx.pointer_list("primaryIdentifier"):
        if pointer not in read_only and pointer not in create_only:
            ctx.report("S6013", f"primaryIdentifier {pointer} is neither readOnly nor createOnly",
                       ctx.loc.pointer_site(pointer),
                       "an identifier is set once: mark the member @aws.cloudformation#cfnMutability(\"create\") "
                       "or (\"read\")")


@lint_rule(Code("S6014", Severity.ERROR, "CfnLint.CfnValidate.ConditionalCreateOnly",
                "conditionalCreateOnlyProperties overlap createOnly or readOnly (`cfn validate` rejects it)"),
           rule="cfn-cli data_loaders: conditionalCreateOnlyProperties must not overlap createOnly or readOnly")
def conditional_create_only(ctx: ResourceContext) -> None:
    """A conditionalCreateOnly property that is also createOnly or readOnly (``cfn validate``
    raises)."""
    conditional = set(ctx.pointer_list("conditionalCreateOnlyProperties"))
    fixed = set(ctx.pointer_list("createOnlyProperties")) | set(ctx.pointer_list("readOnlyProperties"))
    for pointer in sorted(conditional & fixed):
        ctx.report("S6014", f"{pointer} is conditionalCreateOnly and createOnly or readOnly",
                   ctx.loc.pointer_site(pointer), "remove it from conditionalCreateOnlyProperties (jsonAdd)")


@lint_rule(Code("S6015", Severity.WARNING, "CfnLint.CfnValidate.Tagging", "the schema has no `tagging`"),
           rule="cfn-cli data_loaders: explicitly specify value for tagging; guard-rail TAG002")
def tagging_given(ctx: ResourceContext) -> None:
    """The schema has no ``tagging``."""
    if "tagging" not in ctx.schema:
        ctx.report("S6015", "the schema has no `tagging`", ctx.loc.trait_site(TAGGABLE),
                   "use the default compatibility mode, or add @aws.api#taggable to the resource")


@lint_rule(Code("S6016", Severity.ERROR, "CfnLint.CfnValidate.Remote",
                "a top-level `remote` (reserved: `cfn validate` rejects it)"),
           rule="cfn-cli data_loaders: property 'remote' is reserved for CloudFormation use")
def remote(ctx: ResourceContext) -> None:
    """A top-level ``remote`` (``cfn validate`` raises)."""
    if "remote" in ctx.schema:
        ctx.report("S6016", "the schema has a top-level `remote`, reserved for CloudFormation",
                   ctx.loc.resource_site(), "remove `remote` from jsonAdd / schemaDocumentExtensions")


__all__ = ["ecma_problem", "python_regex_problem"]
