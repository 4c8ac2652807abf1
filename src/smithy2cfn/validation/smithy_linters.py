"""The linters a model can turn on in its ``validators`` metadata (the reference's
smithy-linters package; Smithy 2.0 guides "Linting": AbbreviationName, CamelCase,
InputOutputStructureReuse, MissingClientOptionalTrait, MissingPaginatedTrait,
MissingSensitiveTrait, NoninclusiveTerms, RepeatedShapeName, ReservedWords,
ShouldHaveUsedTimestamp, StandardOperationVerb, StutteredShapeName).

Each linter is a factory ``configuration → validator`` marked
:func:`~smithy2cfn.checks.configurable` with the name a ``validators`` entry gives it and the
code it reports; :mod:`smithy2cfn.validation.core.configured` finds it through the catalog
and runs it. A configuration it cannot be made from
raises :class:`~smithy2cfn.validation.support.configuration.ConfigError`. Events carry the
linter's name as event ID (with the reference's sub-parts), which the ``validators`` entry
may change. Findings about the built-in prelude and trait packages are dropped, as the
reference drops them for the prelude.
"""

from __future__ import annotations

import re
import unicodedata
import warnings
from collections.abc import Iterable, Iterator

from smithy2cfn.checks import configurable
from smithy2cfn.diagnostics import Code, Diagnostic, Severity
from smithy2cfn.languages.selector import SelectorEngine
from smithy2cfn.model.knowledge_ops import OperationIndex
from smithy2cfn.model.relationships import Walker
from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import (
    AUTH_DEFINITION,
    CLIENT_OPTIONAL,
    DEFAULT,
    INPUT,
    OUTPUT,
    PAGINATED,
    PROTOCOL_DEFINITION,
    REFERENCES,
    REQUIRED,
    SENSITIVE,
    TRAIT,
)
from smithy2cfn.regexes import lazy
from smithy2cfn.validation.support.configuration import (
    ConfigError,
    Validator,
    config_bool,
    config_object,
    config_selector,
    config_string,
    config_string_lists,
    config_strings,
)
from smithy2cfn.validation.support.events import (
    event,
    idiomatic,
    java_hash_set_order,
    split_camel_case,
    ticked,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_NUMBER_TYPES = frozenset({"byte", "short", "integer", "long", "float", "double", "bigInteger", "bigDecimal",
                           "intEnum"})


def _user_shapes(model: Model) -> list[Shape]:
    return [s for s in model.shapes.values() if not model.is_prelude(s.id)]


def _user_nodes(model: Model) -> Iterator[tuple[Shape, Member | None]]:
    """Every non-built-in shape, then each of its members: ``(shape, member or None)``."""
    for shape in _user_shapes(model):
        yield shape, None
        for member in shape.members.values():
            yield shape, member


# --------------------------------------------------------------------------- AbbreviationName


@configurable("AbbreviationName",
              Code("S3600", Severity.DANGER, "AbbreviationName",
                   "linter: a shape or member name has an all-caps abbreviation",
                   also=(Severity.WARNING, Severity.NOTE,)),
              rule="reference AbbreviationNameValidator (smithy-linters); Smithy 2.0 "
                   "guides/model-linters.rst, AbbreviationName")
def abbreviation_name(config: dict[str, Any]) -> Validator:
    """``AbbreviationName``: shape and member names (not enum members) with a camel-case
    word of two or more capitals not in ``allowedAbbreviations`` (DANGER, with the
    recommended name). Reference ``AbbreviationNameValidator``."""
    config = config_object(config)
    allowed = set(config_strings(config, "allowedAbbreviations"))

    def recommended(name: str) -> str:
        out = []
        for word in split_camel_case(name):
            if word in allowed or sum(1 for c in word if "A" <= c <= "Z") <= 1:
                out.append(word)
            else:
                out.append(word[:1].upper() + word[1:].lower())
        return "".join(out)

    def run_abbreviation_name(model: Model) -> Iterator[Diagnostic]:
        for shape, member in _user_nodes(model):
            if member is not None and shape.type in ("enum", "intEnum"):
                continue
            kind = "member" if member is not None else "shape"
            name = member.name if member is not None else shape.name
            better = recommended(name)
            if better != name:
                yield event(model, "S3600", member.id if member is not None else shape.id,
                            f"{kind} name, `{name}`, contains invalid abbreviations. Change this {kind} name to "
                            f"`{better}`", hint=f"rename it `{better}`")

    return run_abbreviation_name


# --------------------------------------------------------------------------- CamelCase

_UPPER_CAMEL = lazy(r"^[A-Z]+[A-Za-z0-9]*$")
_LOWER_CAMEL = lazy(r"^[a-z]+[A-Za-z0-9]*$")


@configurable("CamelCase",
              Code("S3601", Severity.DANGER, "CamelCase",
                   "linter: a shape, trait or member name is not camel case as configured",
                   also=(Severity.WARNING, Severity.NOTE,)),
              rule="reference CamelCaseValidator (smithy-linters); Smithy 2.0 guides/model-linters.rst, "
                   "CamelCase")
def camel_case(config: dict[str, Any]) -> Validator:
    """``CamelCase``: shape names are upper camel case, trait names (not auth or protocol
    definitions) lower camel case, and the members of each service closure (and, for the
    rest, of each namespace) all upper or all lower camel case, as ``memberNames`` says
    (``auto``: the more common of the two). DANGER. Reference ``CamelCaseValidator``."""
    config = config_object(config)
    given = config_string(config, "memberNames") or "auto"
    handling = given.lower()
    if handling not in ("upper", "lower", "auto"):
        raise ConfigError("Deserialization error at (/memberNames): unable to create "
                          f"software.amazon.smithy.linters.CamelCaseValidator$MemberNameHandling from \"{given}\": "
                          "Expected one of the following enum strings: [upper, lower, auto]")

    def members_check(model: Model, members: list[Member], scope: str) -> Iterator[Diagnostic]:
        upper_count = lower_count = 0
        not_upper: list[Member] = []
        not_lower: list[Member] = []
        for m in members:
            container = model.shapes.get(m.container)
            if container is None or container.type in ("enum", "intEnum", "list", "map"):
                continue
            if _UPPER_CAMEL.search(m.name):
                upper_count += 1
            else:
                not_upper.append(m)
            if _LOWER_CAMEL.search(m.name):
                lower_count += 1
            else:
                not_lower.append(m)
        mode = handling
        if mode == "auto":
            mode = "upper" if upper_count > lower_count else "lower"
        for m in not_upper if mode == "upper" else not_lower:
            yield event(model, "S3601", m.id, f"Member shape member name, `{m.name}`, is not {mode} camel case; "
                        f"members in the {scope} must all use {mode} camel case.")

    def run_camel_case(model: Model) -> Iterator[Diagnostic]:
        shapes = _user_shapes(model)
        for shape in shapes:
            if TRAIT not in shape.traits and not _UPPER_CAMEL.search(shape.name):
                yield event(model, "S3601", shape.id,
                            f"{shape.type} shape name, `{shape.name}`, is not upper camel case")
        for shape in shapes:
            if (TRAIT in shape.traits and AUTH_DEFINITION not in shape.traits
                    and PROTOCOL_DEFINITION not in shape.traits and not _LOWER_CAMEL.search(shape.name)):
                yield event(model, "S3601", shape.id,
                            f"{shape.type} trait definition, `{shape.name}`, is not lower camel case")
        seen: set[str] = set()
        walker = Walker(model)
        for service in model.of_type("service"):
            members = [model.member(n) for n in walker.iterate(service.id) if "$" in n]
            members = [m for m in members if m is not None]
            yield from members_check(model, members, service.name)
            seen.update(m.id for m in members)
        by_namespace: dict[str, list[Member]] = {}
        for shape in shapes:
            for m in shape.members.values():
                if m.id not in seen:
                    by_namespace.setdefault(shape.namespace, []).append(m)
        for namespace, members in by_namespace.items():
            yield from members_check(model, members, f"{namespace} namespace")

    return run_camel_case


# --------------------------------------------------------------------------- InputOutputStructureReuse


@configurable("InputOutputStructureReuse",
              Code("S3602", Severity.WARNING, "InputOutputStructureReuse",
                   "linter: an operation input or output lacks `@input` or `@output`",
                   also=(Severity.DANGER, Severity.NOTE,)),
              rule="reference InputOutputStructureReuseValidator (smithy-linters); Smithy 2.0 "
                   "guides/model-linters.rst, InputOutputStructureReuse")
def input_output_structure_reuse(config: dict[str, Any]) -> Validator:
    """``InputOutputStructureReuse``: an operation's input lacks ``@input``, or its output
    ``@output`` (WARNING ``InputOutputStructureReuse.Input.<operation>`` / ``.Output.``).
    Reference ``InputOutputStructureReuseValidator``."""
    config_object(config)

    def run_input_output_structure_reuse(model: Model) -> Iterator[Diagnostic]:
        for op in model.of_type("operation"):
            if model.is_prelude(op.id):
                continue
            for target, trait, part in ((op.input, INPUT, "Input"), (op.output, OUTPUT, "Output")):
                shape = model.shapes.get(target) if target else None
                if shape is None or trait in shape.traits:
                    continue
                message = (f"This structure is the {part.lower()} of `{op.id}`, but it is not marked with the "
                           f"@{part.lower()} trait.")
                if part == "Input":
                    message += (" The @input trait gives operations more flexibility to evolve their top-level "
                                "input members in ways that would otherwise be backward incompatible.")
                yield event(model, "S3602", shape.id, message,
                            event_id=f"InputOutputStructureReuse.{part}.{op.name}",
                            hint=f"define the {part.lower()} inline (`{part.lower()} := {{...}}`) or mark it "
                                 f"@{part.lower()}")

    return run_input_output_structure_reuse


# --------------------------------------------------------------------------- MissingClientOptionalTrait


@configurable("MissingClientOptionalTrait",
              Code("S3603", Severity.DANGER, "MissingClientOptionalTrait",
                   "linter: a `@required` or `@default` member lacks `@clientOptional`",
                   also=(Severity.WARNING, Severity.NOTE,)),
              rule="reference MissingClientOptionalTrait (smithy-linters); Smithy 2.0 "
                   "guides/model-linters.rst, MissingClientOptionalTrait")
def missing_client_optional_trait(config: dict[str, Any]) -> Validator:
    """``MissingClientOptionalTrait``: ``@default`` (with ``onRequiredOrDefault``) and
    ``@required`` members (all of them with ``onRequiredOrDefault``, those targeting a
    structure or union with ``onRequiredStructureOrUnion``) lack ``@clientOptional``.
    DANGER. Reference ``MissingClientOptionalTrait``."""
    config = config_object(config)
    on_default = config_bool(config, "onRequiredOrDefault")
    on_aggregate = config_bool(config, "onRequiredStructureOrUnion")

    def run_missing_client_optional_trait(model: Model) -> Iterator[Diagnostic]:
        for _shape, member in _user_nodes(model):
            if member is None or CLIENT_OPTIONAL in member.traits:
                continue
            if DEFAULT in member.traits and on_default:
                yield event(model, "S3603", member.id, "@default members must also be marked with the "
                            "@clientOptional trait")
            if REQUIRED in member.traits:
                target = model.shapes.get(member.target)
                if on_default:
                    yield event(model, "S3603", member.id, "@required members must also be marked with the "
                                "@clientOptional trait")
                elif on_aggregate and target is not None and target.type in ("structure", "union"):
                    yield event(model, "S3603", member.id, "@required members that target a structure or union "
                                "must be marked with the @clientOptional trait. Not using the @clientOptional "
                                "trait here is risky because there is no backward compatible way to replace the "
                                "@required trait with the @default trait if the member ever needs to be made "
                                "optional.")

    return run_missing_client_optional_trait


# --------------------------------------------------------------------------- MissingPaginatedTrait

_PAGINATION_DISCLAIMER = ("Paginating operations that can return potentially unbounded lists of data helps to "
                          "maintain a predictable SLA and helps to prevent operational issues in the future.")


@configurable("MissingPaginatedTrait",
              Code("S3604", Severity.DANGER, "MissingPaginatedTrait",
                   "linter: an operation looks paginated but lacks `@paginated` (warning for a suggestion)",
                   also=(Severity.WARNING, Severity.NOTE,)),
              rule="reference MissingPaginatedTraitValidator (smithy-linters); Smithy 2.0 "
                   "guides/model-linters.rst, MissingPaginatedTrait")
def missing_paginated_trait(config: dict[str, Any]) -> Validator:
    """``MissingPaginatedTrait``: an operation without ``@paginated`` whose verb requires
    pagination, or with a pagination input or output member (DANGER); or whose verb
    suggests it and whose output has a list member (WARNING). Reference
    ``MissingPaginatedTraitValidator``."""
    config = config_object(config)

    def lower_set(key: str, default: tuple[str, ...]) -> set[str]:
        return {v.lower() for v in config_strings(config, key)} if key in config else set(default)

    require = lower_set("verbsRequirePagination", ("list", "search"))
    suggest = lower_set("verbsSuggestPagination", ("describe", "get"))
    inputs = lower_set("inputMembersRequirePagination", (
        "maxresults", "maxitems", "pagesize", "limit", "nexttoken", "pagetoken", "token", "marker"))
    outputs = lower_set("outputMembersRequirePagination", (
        "nexttoken", "pagetoken", "token", "marker", "nextpage", "nextpagetoken", "position", "nextmarker",
        "paginationtoken", "nextpagemarker"))

    def run_missing_paginated_trait(model: Model) -> Iterator[Diagnostic]:
        for op in model.of_type("operation"):
            if PAGINATED in op.traits or model.is_prelude(op.id):
                continue
            verb = split_camel_case(op.name)[0].lower()
            if verb in require:
                yield event(model, "S3604", op.id, f"The verb of this operation, `{verb}`, requires that the "
                            f"operation is marked with the `paginated` trait. {_PAGINATION_DISCLAIMER}")
                continue
            found = next((n for n in model.knowledge(OperationIndex).input_members(op.id) if n.lower() in inputs), None)
            if found is not None:
                yield event(model, "S3604", op.id, f"This operation contains an input member, `{found}`, that "
                            "requires that the operation is marked with the `paginated` trait. "
                            f"{_PAGINATION_DISCLAIMER}")
                continue
            out = model.knowledge(OperationIndex).output_members(op.id)
            found = next((n for n in out if n.lower() in outputs), None)
            if found is not None:
                yield event(model, "S3604", op.id, f"This operation contains an output member, `{found}`, that "
                            "requires that the operation is marked with the `paginated` trait. "
                            f"{_PAGINATION_DISCLAIMER}")
                continue
            if verb in suggest and any(model.shapes.get(m.target) is not None
                                       and model.shapes[m.target].type == "list" for m in out.values()):
                yield event(model, "S3604", op.id, f"The verb of this operation, `{verb}`, and the presence of a "
                            "top-level list member in its output, suggests that the operation should have the "
                            f"`paginated` trait. {_PAGINATION_DISCLAIMER}", severity=Severity.WARNING)

    return run_missing_paginated_trait


# --------------------------------------------------------------------------- word matching


def _word_pattern(terms: str) -> str:
    """A word-boundary search, lower-cased (reference ``WordBoundaryMatcher.parseWordPattern``)."""
    if not terms:
        raise ConfigError("Invalid empty search terms")
    previous_space = False
    for i, ch in enumerate(terms):
        if ch == " ":
            if i == 0 or i == len(terms) - 1 or previous_space:
                raise ConfigError(f"Invalid spaces in word boundary search: {terms}")
            previous_space = True
        elif not ch.isalnum():
            raise ConfigError(f"Invalid non-alphanumeric characters in word boundary search:{terms}")
        else:
            previous_space = False
    return terms.lower()


def _char_type(ch: str) -> str:
    return unicodedata.category(ch)


def split_words(text: str) -> str:
    """``text`` as lower-case words separated by single spaces: camel case, digits and
    delimiters split it, delimiters are dropped (reference ``WordBoundaryMatcher.splitWords``)."""
    if not text:
        return ""
    out: list[str] = []
    start = 0
    current = _char_type(text[0])
    for pos in range(1, len(text)):
        kind = _char_type(text[pos])
        if kind == current:
            continue
        if kind == "Ll" and current == "Lu":
            new_start = pos - 1
            if new_start != start:
                out.append(text[start:new_start].lower())
                start = new_start
        else:
            if text[pos - 1].isalnum():
                out.append(text[start:pos].lower())
            start = pos
        current = kind
    if text[start].isalnum():
        out.append(text[start:].lower())
    return " ".join(out)


class WordMatcher:
    """Word-boundary search (reference ``WordBoundaryMatcher``): each search matches whole
    words of the split text, with or without its spaces (``"pass word"`` matches
    ``PassWord`` and ``Password``)."""

    def __init__(self, searches: Iterable[str] = ()) -> None:
        self.words: list[str] = []
        for search in searches:
            self.add(search)

    def add(self, terms: str) -> None:
        pattern = _word_pattern(terms)
        for word in (pattern, pattern.replace(" ", "")):
            if word not in self.words:
                self.words.append(word)

    @staticmethod
    def _at_boundary(needle: str, haystack: str) -> bool:
        pos = haystack.find(needle)
        if pos < 0:
            return False
        if len(needle) == len(haystack):
            return True
        if pos == 0:
            return haystack[len(needle)] == " "
        if pos == len(haystack) - len(needle):
            return haystack[pos - 1] == " "
        return haystack[pos - 1] == " " and haystack[pos + len(needle)] == " "

    def first_match(self, text: str) -> str | None:
        """The first search (in the reference's hash-set order) found in ``text``."""
        if not text or not self.words:
            return None
        haystack = split_words(text)
        return next((w for w in java_hash_set_order(self.words) if self._at_boundary(w, haystack)), None)

    def test(self, text: str) -> bool:
        return self.first_match(text) is not None


class WildcardMatcher:
    """Case-insensitive ``word``, ``prefix*``, ``*suffix`` and ``*infix*`` patterns (reference
    ``WildcardMatcher``)."""

    def __init__(self, patterns: Iterable[str] = ()) -> None:
        self.tests: list[tuple[str, str]] = []
        for pattern in patterns:
            self.add(pattern)

    def add(self, pattern: str) -> None:
        if not pattern:
            raise ConfigError("Invalid empty pattern")
        if pattern == "*":
            raise ConfigError("Invalid wildcard pattern: *")
        if "*" in pattern[1:-1]:
            raise ConfigError(f"Invalid inner '*' in wildcard pattern: {pattern}")
        starts, ends = pattern.startswith("*"), pattern.endswith("*") and len(pattern) > 1
        needle = pattern.strip("*").lower() if starts or ends else pattern.lower()
        mode = "contains" if starts and ends else "endswith" if starts else "startswith" if ends else "equals"
        self.tests.append((mode, needle))

    def test(self, text: str) -> bool:
        if not text:
            return False
        text = text.lower()
        for mode, needle in self.tests:
            if (mode == "contains" and needle in text) or (mode == "endswith" and text.endswith(needle)) or \
                    (mode == "startswith" and text.startswith(needle)) or (mode == "equals" and text == needle):
                return True
        return False


# --------------------------------------------------------------------------- MissingSensitiveTrait

DEFAULT_SENSITIVE_TERMS = (
    "account number", "bank", "billing address", "birth", "birth day", "citizenship", "credentials",
    "credit card", "csc", "driver license", "drivers license", "email", "ethnicity", "first name", "gender",
    "insurance", "ip address", "last name", "maiden name", "mailing address", "pass phrase", "pass word",
    "passport", "phone", "religion", "secret", "sexual orientation", "social security", "ssn", "tax payer",
    "telephone", "zip code",
)


@configurable("MissingSensitiveTrait",
              Code("S3605", Severity.WARNING, "MissingSensitiveTrait",
                   "linter: a name suggests sensitive data but nothing is `@sensitive`",
                   also=(Severity.DANGER, Severity.NOTE,)),
              rule="reference MissingSensitiveTraitValidator (smithy-linters); Smithy 2.0 "
                   "guides/model-linters.rst, MissingSensitiveTrait")
def missing_sensitive_trait(config: dict[str, Any]) -> Validator:
    """``MissingSensitiveTrait``: names that contain a sensitive term (the defaults and
    ``terms``, or only ``terms`` with ``excludeDefaults``) on shapes, and members, where
    neither the shape nor the member's container or target is ``@sensitive``. WARNING.
    Reference ``MissingSensitiveTraitValidator``."""
    config = config_object(config)
    terms = config_strings(config, "terms")
    exclude = config_bool(config, "excludeDefaults")
    if exclude and not terms:
        raise ConfigError("Cannot set 'excludeDefaults' to true and leave 'terms' unspecified.")
    matcher = WordMatcher(terms)
    if not exclude:
        for term in DEFAULT_SENSITIVE_TERMS:
            matcher.add(term)

    def run_missing_sensitive_trait(model: Model) -> Iterator[Diagnostic]:
        for shape, member in _user_nodes(model):
            if member is not None:
                target = model.shapes.get(member.target)
                if SENSITIVE in shape.traits or shape.type == "enum" or (target is not None
                                                                          and SENSITIVE in target.traits):
                    continue
                found = matcher.first_match(member.name)
                if found:
                    yield event(model, "S3605", member.id, "This member possibly contains sensitive data but "
                                "neither the enclosing nor target shape are marked with the sensitive trait (based "
                                f"on the presence of '{found}')", hint="mark the target or the container @sensitive")
            elif shape.type not in ("operation", "service", "resource") and SENSITIVE not in shape.traits:
                found = matcher.first_match(shape.name)
                if found:
                    yield event(model, "S3605", shape.id, "This shape possibly contains sensitive data but is not "
                                f"marked with the sensitive trait (based on the presence of '{found}')",
                                hint="mark it @sensitive")

    return run_missing_sensitive_trait


# --------------------------------------------------------------------------- NoninclusiveTerms

BUILT_IN_NONINCLUSIVE_TERMS = {
    "master": ["primary", "parent", "main"],
    "slave": ["secondary", "replica", "clone", "child"],
    "blacklist": ["denyList"],
    "whitelist": ["allowList"],
}


def text_instances(model: Model) -> Iterator[tuple[str, str, str | None, str | None, tuple[str, ...]]]:
    """The texts of the model a term search reads (reference ``TextIndex``): ``(kind, text,
    node ID, trait ID, path)`` — each namespace (``"namespace"``), each shape and member name
    (``"shape"``), and each string in a trait value and each key of a trait value that its
    trait's shape does not define (``"trait"``, with the path to it; ``references`` is
    skipped)."""
    namespaces: set[str] = set()
    for shape, member in _user_nodes(model):
        if member is None and shape.namespace not in namespaces:
            namespaces.add(shape.namespace)
            yield "namespace", shape.namespace, None, None, ()
        node = member if member is not None else shape
        node_id = node.id
        yield "shape", member.name if member is not None else shape.name, node_id, None, ()
        for tid, value in node.traits.items():
            if tid not in model.shapes or tid == REFERENCES:
                continue
            yield from _trait_texts(model, node_id, tid, value)


def _trait_texts(model: Model, node_id: str, tid: str, value: Any):
    stack: list[tuple[Any, Shape | None, tuple[str, ...]]] = [(value, model.shapes.get(tid), ())]
    while stack:
        val, shape, path = stack.pop()
        if isinstance(val, str):
            yield "trait", val, node_id, tid, path
        elif isinstance(val, dict):
            todo = []
            for key, item in val.items():
                member = shape.members.get(key) if shape is not None else None
                child = model.shapes.get(member.target) if member is not None else None
                if child is None:
                    yield "trait", key, node_id, tid, (*path, key, "key")
                todo.append((item, child, (*path, key)))
            stack.extend(reversed(todo))
        elif isinstance(val, list):
            stack.extend(reversed([(item, None, (*path, str(i))) for i, item in enumerate(val)]))


@configurable("NoninclusiveTerms",
              Code("S3606", Severity.WARNING, "NoninclusiveTerms",
                   "linter: a name or trait value uses a non-inclusive term",
                   also=(Severity.DANGER, Severity.NOTE,)),
              rule="reference NoninclusiveTermsValidator (smithy-linters); Smithy 2.0 "
                   "guides/model-linters.rst, NoninclusiveTerms")
def noninclusive_terms(config: dict[str, Any]) -> Validator:
    """``NoninclusiveTerms``: namespaces, shape and member names and trait values that
    contain a non-inclusive term (the built-in ones and ``terms``, or only ``terms`` with
    ``excludeDefaults``), with the suggested replacements. WARNING
    (``NoninclusiveTerms.Namespace.<ns>.<term>``, ``.Shape.<term>``,
    ``.Trait.<term>.<trait>[.<path>]``). Reference ``NoninclusiveTermsValidator``."""
    config = config_object(config)
    extra = config_string_lists(config, "terms")
    exclude = config_bool(config, "excludeDefaults")
    if exclude and not extra:
        raise ConfigError("Cannot set 'excludeDefaults' to true and leave 'terms' empty or unspecified.")
    terms = dict(extra) if exclude else {**BUILT_IN_NONINCLUSIVE_TERMS, **extra}

    def addendum(matched: str, replacements: list[str]) -> str:
        if not replacements:
            return ""
        upper = matched[:1].isupper()
        fixed = [(r[:1].upper() if upper else r[:1].lower()) + r[1:] for r in replacements]
        return f" Consider using one of the following terms instead: {ticked(fixed)}"

    def run_noninclusive_terms(model: Model) -> Iterator[Diagnostic]:
        for kind, text, node_id, tid, path in text_instances(model):
            lower_text = text.lower()
            for term, replacements in terms.items():
                start = lower_text.find(term.lower())
                if start < 0:
                    continue
                matched = text[start:start + len(term)]
                more = addendum(matched, replacements)
                if kind == "namespace":
                    yield event(model, "S3606", "", f"{text} namespace uses a non-inclusive term `{matched}`.{more}",
                                event_id=f"NoninclusiveTerms.Namespace.{text}.{matched.lower()}")
                elif kind == "trait":
                    name = idiomatic(tid)
                    if path:
                        where = "/".join(path)
                        yield event(model, "S3606", node_id, f"'{name}' trait value at path {{{where}}} contains a "
                                    f"non-inclusive term `{matched}`.{more}", trait=tid,
                                    event_id=f"NoninclusiveTerms.Trait.{matched.lower()}.{name}.{where}")
                    else:
                        yield event(model, "S3606", node_id, f"'{name}' trait has a value that contains a "
                                    f"non-inclusive term `{matched}`.{more}", trait=tid,
                                    event_id=f"NoninclusiveTerms.Trait.{matched.lower()}.{name}")
                else:
                    node_type = "member" if "$" in node_id else model.shapes[node_id].type
                    yield event(model, "S3606", node_id, f"{node_type[:1].upper()}{node_type[1:]} shape uses a "
                                f"non-inclusive term `{matched}`.{more}",
                                event_id=f"NoninclusiveTerms.Shape.{matched.lower()}")

    return run_noninclusive_terms


# --------------------------------------------------------------------------- RepeatedShapeName


def _repeated_names(model: Model, exact: bool, code: str, verb: str) -> Iterator[Diagnostic]:
    for shape in model.of_type("structure", "union"):
        if model.is_prelude(shape.id):
            continue
        lower = shape.name.lower()
        for name, member in shape.members.items():
            if (name.lower() == lower) if exact else name.lower().startswith(lower):
                how = "equal to" if exact else "prefixed with"
                yield event(model, code, member.id,
                            f"The `{shape.name}` {shape.type} shape {verb} its name in the member `{name}`; "
                            f"{shape.type} member names should not be {how} the {shape.type} name.",
                            hint=f"drop the `{shape.name}` prefix from the member name")


@configurable("RepeatedShapeName",
              Code("S3607", Severity.WARNING, "RepeatedShapeName",
                   "linter: a member name repeats its structure's or union's name",
                   also=(Severity.DANGER, Severity.NOTE,)),
              rule="reference RepeatedShapeNameValidator (smithy-linters); Smithy 2.0 "
                   "guides/model-linters.rst, RepeatedShapeName")
def repeated_shape_name(config: dict[str, Any]) -> Validator:
    """``RepeatedShapeName``: structure and union members whose name starts with (or, with
    ``exactMatch``, equals) the shape's name, case-insensitively. WARNING. Reference
    ``RepeatedShapeNameValidator``."""
    config = config_object(config)
    exact = config_bool(config, "exactMatch")
    return lambda model: _repeated_names(model, exact, "S3607", "repeats")


@configurable("StutteredShapeName",
              Code("S3611", Severity.WARNING, "StutteredShapeName",
                   "linter: a member name starts with its structure's or union's name",
                   also=(Severity.DANGER, Severity.NOTE,)),
              rule="reference StutteredShapeNameValidator (smithy-linters); Smithy 2.0 deprecated: "
                   "guides/model-linters.rst, RepeatedShapeName")
def stuttered_shape_name(config: dict[str, Any]) -> Validator:
    """``StutteredShapeName`` (deprecated for RepeatedShapeName): structure and union
    members whose name starts with the shape's name. WARNING. Reference
    ``StutteredShapeNameValidator``."""
    config_object(config)
    return lambda model: _repeated_names(model, False, "S3611", "stutters")


# --------------------------------------------------------------------------- ReservedWords


@configurable("ReservedWords",
              Code("S3608", Severity.DANGER, "ReservedWords",
                   "linter: a shape or member name is a reserved word",
                   also=(Severity.WARNING, Severity.NOTE,)),
              rule="reference ReservedWordsValidator (smithy-linters); Smithy 2.0 guides/model-linters.rst, "
                   "ReservedWords")
def reserved_words(config: dict[str, Any]) -> Validator:
    """``ReservedWords``: shape and member names that match the ``words`` (wildcards) or
    ``terms`` (word boundaries) of a ``reserved`` entry, among the shapes its ``selector``
    (default ``*``) yields. DANGER. Reference ``ReservedWordsValidator``."""
    config = config_object(config)
    entries = config.get("reserved", [])
    if not isinstance(entries, list):
        raise ConfigError("Deserialization error at (/reserved): expected a list of objects")
    rules = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ConfigError(f"Deserialization error at (/reserved/{i}): expected an object")
        selector = config_selector(entry, "selector")
        reason = config_string(entry, "reason") or ""
        rules.append((selector[1] if selector else None, reason, WildcardMatcher(config_strings(entry, "words")),
                      WordMatcher(config_strings(entry, "terms"))))

    def run_reserved_words(model: Model) -> Iterator[Diagnostic]:
        engine = model.knowledge(SelectorEngine)
        for selector, reason, wildcards, words in rules:
            nodes = sorted(engine.select(selector)) if selector is not None else list(engine.all_nodes())
            for node in nodes:
                if model.is_prelude(node):
                    continue
                name = node.split("$", 1)[1] if "$" in node else node.split("#", 1)[-1]
                if wildcards.test(name) or words.test(name):
                    yield event(model, "S3608", node, f"The word `{name}` is reserved. {reason}",
                                hint="rename it")

    return run_reserved_words


# --------------------------------------------------------------------------- ShouldHaveUsedTimestamp

_TIMESTAMP_PATTERNS = (
    r"^.*[Tt]imestamp.*$", r"^[Tt]ime([_A-Z].*)?$", r"^[Dd]ate([_A-Z].*)?$", r"^.*([a-z]T|_[Tt])ime$",
    r"^.*([a-z]D|_[Dd])ate$", r"^.*([a-z]A|_[Aa])t$", r"^.*([a-z]O|_[Oo])n$", r"^.*([a-z]S|_[Ss])ince$",
)


@configurable("ShouldHaveUsedTimestamp",
              Code("S3609", Severity.DANGER, "ShouldHaveUsedTimestamp",
                   "linter: a shape or member named like a timestamp is not one",
                   also=(Severity.WARNING, Severity.NOTE,)),
              rule="reference ShouldHaveUsedTimestampValidator (smithy-linters); Smithy 2.0 "
                   "guides/model-linters.rst, ShouldHaveUsedTimestamp")
def should_have_used_timestamp(config: dict[str, Any]) -> Validator:
    """``ShouldHaveUsedTimestamp``: string and number shapes, and structure and union
    members not targeting a timestamp (or an enum, or a structure or list of only
    timestamps), named like a timestamp (the default patterns and ``additionalPatterns``).
    DANGER. Reference ``ShouldHaveUsedTimestampValidator``."""
    config = config_object(config)
    patterns = [re.compile(p) for p in _TIMESTAMP_PATTERNS]
    for text in config_strings(config, "additionalPatterns"):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                patterns.append(re.compile(text))
        except (re.error, RecursionError, OverflowError) as e:
            raise ConfigError(f"Deserialization error at (/additionalPatterns): invalid pattern `{text}`: {e}") \
                from None

    def only_timestamps(model: Model, shape: Shape) -> bool:
        return all(model.shapes[m.target].type == "timestamp" for m in shape.members.values()
                   if m.target in model.shapes)

    def run_should_have_used_timestamp(model: Model) -> Iterator[Diagnostic]:
        for shape in _user_shapes(model):
            if shape.type == "string" or shape.type in _NUMBER_TYPES:
                for pattern in patterns:
                    if pattern.fullmatch(shape.name):
                        yield event(model, "S3609", shape.id, f"Shape `{shape.name}` is named like a timestamp but "
                                    f"is a `{shape.type}` shape.", hint="make it a timestamp shape")
            elif shape.type in ("structure", "union"):
                for name, member in shape.members.items():
                    target = model.shapes.get(member.target)
                    if target is None or target.type in ("timestamp", "enum"):
                        continue
                    if target.type in ("structure", "list") and only_timestamps(model, target):
                        continue
                    if any(p.fullmatch(name) for p in patterns):
                        yield event(model, "S3609", member.id, f"Member `{name}` is named like a timestamp but "
                                    f"references a `{target.type}` shape", hint="target a timestamp shape")

    return run_should_have_used_timestamp


# --------------------------------------------------------------------------- StandardOperationVerb


@configurable("StandardOperationVerb",
              Code("S3610", Severity.DANGER, "StandardOperationVerb",
                   "linter: an operation name does not start with a standard verb",
                   also=(Severity.WARNING, Severity.NOTE,)),
              rule="reference StandardOperationVerbValidator (smithy-linters); Smithy 2.0 "
                   "guides/model-linters.rst, StandardOperationVerb")
def standard_operation_verb(config: dict[str, Any]) -> Validator:
    """``StandardOperationVerb``: operation names start (after one of the ``prefixes``)
    with one of the ``verbs``; a verb of ``suggestAlternatives`` gets its alternatives.
    DANGER. Reference ``StandardOperationVerbValidator``."""
    config = config_object(config)
    verbs = config_strings(config, "verbs")
    prefixes = config_strings(config, "prefixes")
    alternatives = config_string_lists(config, "suggestAlternatives")
    if not verbs and not alternatives:
        raise ConfigError("Either verbs or suggestAlternatives must be set when configuring StandardOperationVerb")

    def run_standard_operation_verb(model: Model) -> Iterator[Diagnostic]:
        for op in model.of_type("operation"):
            if model.is_prelude(op.id):
                continue
            words = split_camel_case(op.name)
            prefix = None
            if words[0] not in prefixes:
                name = words[0]
            elif len(words) == 1:
                yield event(model, "S3610", op.id, f"Operation name consists of only a verb prefix: {op.name}")
                continue
            else:
                prefix, name = words[0], words[1]
            lead = f"Operation shape `{op.name}` uses a non-standard verb, `{name}`"
            if prefix is not None:
                lead += f", with a detected prefix of `{prefix}`"
            lead += "."
            if name in alternatives:
                yield event(model, "S3610", op.id, f"{lead} Consider using one of the following verbs instead: "
                            f"{ticked(alternatives[name])}")
            elif name not in verbs:
                yield event(model, "S3610", op.id, f"{lead} Expected one of the following verbs: {ticked(verbs)}")

    return run_standard_operation_verb



__all__ = [
    "BUILT_IN_NONINCLUSIVE_TERMS", "DEFAULT_SENSITIVE_TERMS", "WildcardMatcher", "WordMatcher", "abbreviation_name",
    "camel_case", "input_output_structure_reuse", "missing_client_optional_trait", "missing_paginated_trait",
    "missing_sensitive_trait", "noninclusive_terms", "repeated_shape_name", "reserved_words",
    "should_have_used_timestamp", "split_words", "standard_operation_verb", "stuttered_shape_name", "text_instances",
]
