"""Validation of a resource schema against the CloudFormation meta-schema.

The meta-schema (``provider.definition.schema.v1.json`` and the ``base`` /
``provider.configuration`` files it refers to, from the PyPI package ``cloudformation-cli``)
ships in ``smithy2cfn/data/cfn-metaschema``. Relative ``$ref``s resolve through a
``referencing.Registry``; JSON Schema draft-07.

Before the meta-schema, :func:`check_schema` makes sure the document can be written as
strict JSON at all (finite numbers, string keys, JSON types only, at most
:data:`MAX_DOCUMENT_DEPTH` levels deep): ``jsonschema`` and ``json.dumps`` both recurse
once or more per level.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

from smithy2cfn.diagnostics import Diagnostic, Severity, Span
from smithy2cfn.model.nodes import pointer, scan
from smithy2cfn.validate.patterns import compile_pattern

#: Deepest nesting of a written schema document: a 256-level ``@default`` value (the
#: readers' limit) inside a property inside :data:`~smithy2cfn.emit.jsonschema.MAX_LIST_NESTING`
#: nested lists stays well within it; ``json.dumps`` recurses once per level.
MAX_DOCUMENT_DEPTH = 400

_FILES = (
    "provider.definition.schema.v1.json",
    "base.definition.schema.v1.json",
    "provider.configuration.definition.schema.v1.json",
)
_BASE_URI = "https://schema.cloudformation.us-east-1.amazonaws.com/"
_DRAFT7_URI = "http://json-schema.org/draft-07/schema"


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    folder = resources.files("smithy2cfn").joinpath("data", "cfn-metaschema")
    docs = {name: json.loads(folder.joinpath(name).read_text(encoding="utf-8")) for name in _FILES}
    pairs = []
    for name, doc in docs.items():
        res = Resource.from_contents(doc, default_specification=DRAFT7)
        pairs.append((doc.get("$id", _BASE_URI + name), res))
        pairs.append((_BASE_URI + name, res))
    draft7 = DRAFT7.create_resource(jsonschema.Draft7Validator.META_SCHEMA)
    pairs += [(_DRAFT7_URI, draft7), (_DRAFT7_URI + "#", draft7)]
    registry = Registry().with_resources(pairs)
    provider = docs["provider.definition.schema.v1.json"]
    checker = jsonschema.FormatChecker()
    checker.checks("regex")(_is_regex)
    return jsonschema.Draft7Validator(provider, registry=registry, format_checker=checker)


_UNICODE_CLASS = re.compile(r"\\[pP](\{[A-Za-z_ =]+\}|[A-Za-z])")
_HEX_BRACED = re.compile(r"\\x\{[0-9A-Fa-f]+\}")
_CLASS_ESCAPE_DASH = re.compile(r"(\\[wWdDsS])-")


def _is_regex(value: object) -> bool:
    """``format: regex`` as ECMA-262 (Annex B) and Java patterns allow it: Python's ``re``
    plus Unicode property classes (``\\p{L}``), ``\\x{..}`` escapes and a literal ``-``
    after a class escape in a set, which ``re`` rejects. Never raises: a pattern ``re``
    cannot compile (bad syntax, a repetition count too large, groups nested too deeply)
    is not a regex here."""
    if not isinstance(value, str):
        return True
    text = _UNICODE_CLASS.sub("a", value)
    text = _HEX_BRACED.sub("a", text)
    # Annex B / Java: a class escape before '-' in a set makes the '-' literal.
    text = _CLASS_ESCAPE_DASH.sub(r"\1\\-", text)
    compiled, _kind, _reason = compile_pattern(text)
    return compiled is not None


def _path(parts) -> str:
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def check_schema(schema: dict, filename: str) -> list[Diagnostic]:
    """Validate a resource schema against the CloudFormation provider meta-schema.

    Args:
        schema: the resource schema (as written).
        filename: its output file name, used as the diagnostics' span path.

    Returns:
        One ERROR diagnostic ``S4201`` per validation error, naming the JSON pointer of the
        offending property (a ``format`` failure, which the CloudFormation CLI does not
        enforce, is a WARNING ``S4202``); empty when the schema is valid. A document that
        is not strict JSON — a non-finite number, a non-string key, a value of no JSON
        type, nesting deeper than :data:`MAX_DOCUMENT_DEPTH` — is an ERROR ``S4108`` per
        problem (naming its pointer) and is not checked further. Never raises.
    """
    problems = scan(schema, max_depth=MAX_DOCUMENT_DEPTH)
    if problems:
        return [Diagnostic("S4108", Severity.ERROR,
                           f"{pointer(path) or '/'}: the schema cannot be written as strict JSON: {problem}",
                           Span(filename), hint="a value added by jsonAdd, schemaDocumentExtensions or a "
                                                "custom mapper is the usual cause")
                for path, problem in problems]
    out: list[Diagnostic] = []
    try:
        errors = sorted(_validator().iter_errors(schema),
                        key=lambda e: (list(map(str, e.absolute_path)), e.message))
    except RecursionError:
        # jsonschema descends a schema recursively (6-10 frames a level): a schema nested
        # some 100 levels deep through properties/items/oneOf (only jsonAdd or a custom
        # mapper can build one; lists nest at most MAX_LIST_NESTING) cannot be checked.
        return [Diagnostic("S4108", Severity.ERROR,
                           "/: the schema is nested too deeply to check against the CloudFormation "
                           "meta-schema", Span(filename),
                           hint="nest property schemas less deeply")]
    for err in errors:
        where = _path(err.absolute_path) if err.absolute_path else "/"
        if err.validator == "format":
            # The CloudFormation CLI's own loader does not enforce formats (it accepts, e.g.,
            # the Java-only pattern of the reference's rule-example), so this only warns.
            out.append(Diagnostic("S4202", Severity.WARNING,
                                  f"{where}: {err.message}; the CloudFormation CLI accepts it, but "
                                  "tools that check formats will not (CloudFormation meta-schema, format)",
                                  Span(filename)))
            continue
        out.append(Diagnostic("S4201", Severity.ERROR,
                              f"{where}: {err.message} (CloudFormation meta-schema, {err.validator})",
                              Span(filename)))
    return out
