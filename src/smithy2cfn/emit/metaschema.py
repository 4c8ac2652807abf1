"""Validation of a resource schema against the CloudFormation meta-schema.

The meta-schema (``provider.definition.schema.v1.json`` and the ``base`` /
``provider.configuration`` files it refers to, from the PyPI package ``cloudformation-cli``)
ships in ``smithy2cfn/data/cfn-metaschema``. Relative ``$ref``s resolve through a
``referencing.Registry``; JSON Schema draft-07.

Before the meta-schema, :func:`check_schema` makes sure the document can be written as
strict JSON at all (finite numbers, string keys, JSON types only, at most
:data:`MAX_DOCUMENT_DEPTH` levels deep): ``jsonschema`` and ``json.dumps`` both recurse
once or more per level.

A fast path (issue 10): the meta-schema compiled to plain Python at development time by
``fastjsonschema`` (:func:`compiled_validator_source`, shipped as
:mod:`smithy2cfn.emit.metaschema_compiled`, no run-time dependency) accepts a valid schema
some 25 times faster than ``jsonschema``, and without importing ``jsonschema`` at all. Only
a schema it rejects goes through ``jsonschema``, which reports the located errors. The
compiled module is used only while its key matches the meta-schema files
(:func:`metaschema_key`); regenerate it with ``python -m smithy2cfn.emit.metaschema``
(``tests/emit/test_metaschema_fast.py`` fails until you do).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from smithy2cfn.diagnostics import Code, Diagnostic, Severity, Span, declare_codes
from smithy2cfn.languages.patterns import compile_pattern
from smithy2cfn.model.nodes import pointer, scan
from smithy2cfn.regexes import lazy
from smithy2cfn.stamps import content_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S4201", Severity.ERROR, None, "a schema fails the CloudFormation meta-schema (names the property)"),
    Code("S4202", Severity.WARNING, None,
         "a `format` (e.g. a Java-only regex) that the CloudFormation CLI does not check"),
)

#: Deepest nesting of a written schema document: a 256-level ``@default`` value (the
#: readers' limit) inside a property inside :data:`~smithy2cfn.emit.jsonschema.MAX_LIST_NESTING`
#: nested lists stays well within it; ``json.dumps`` recurses once per level.
MAX_DOCUMENT_DEPTH = 400

#: The meta-schema files shipped in the package (read as files: the package is never run
#: from a zip, and importlib.resources would cost every start-up its imports).
_METASCHEMA_FOLDER = Path(__file__).parents[1] / "data" / "cfn-metaschema"
_FILES = (
    "provider.definition.schema.v1.json",
    "base.definition.schema.v1.json",
    "provider.configuration.definition.schema.v1.json",
)
_BASE_URI = "https://schema.cloudformation.us-east-1.amazonaws.com/"
_DRAFT7_URI = "http://json-schema.org/draft-07/schema"


if TYPE_CHECKING:
    import jsonschema


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    import jsonschema  # here: a schema the compiled validator accepts never needs it (~40 ms of import)
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7

    folder = _METASCHEMA_FOLDER
    docs = {name: json.loads((folder / name).read_text(encoding="utf-8")) for name in _FILES}
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


_UNICODE_CLASS = lazy(r"\\[pP](\{[A-Za-z_ =]+\}|[A-Za-z])")
_HEX_BRACED = lazy(r"\\x\{[0-9A-Fa-f]+\}")
_CLASS_ESCAPE_DASH = lazy(r"(\\[wWdDsS])-")


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


def _meta_documents() -> dict[str, bytes]:
    folder = _METASCHEMA_FOLDER
    return {name: (folder / name).read_bytes() for name in _FILES}


def metaschema_key() -> str:
    """The key (:func:`smithy2cfn.stamps.content_key`) of the meta-schema files (names and
    bytes): the compiled validator is used only while its ``KEY`` equals this."""
    parts: list[bytes | str] = []
    for name, data in sorted(_meta_documents().items()):
        parts += [name, data]
    return content_key(parts)


def _is_json_pointer(value: object) -> bool:
    """``format: json-pointer`` as ``jsonschema``'s format checker decides it (with the
    ``jsonpointer`` package)."""
    if not isinstance(value, str):
        return True
    import jsonpointer

    try:
        jsonpointer.JsonPointer(value)
    except jsonpointer.JsonPointerException:
        return False
    return True


_FORMATS = {"regex": _is_regex, "json-pointer": _is_json_pointer}


@lru_cache(maxsize=1)
def _compiled() -> Any:
    """The compiled validator function, or ``None`` when the shipped module does not match
    the meta-schema files (then every schema goes through ``jsonschema``)."""
    try:
        from smithy2cfn.emit import metaschema_compiled
    except ImportError:
        return None
    if getattr(metaschema_compiled, "KEY", None) != metaschema_key():
        return None
    return metaschema_compiled.validate


def fast_accepts(schema: dict[str, Any]) -> bool:
    """True when the compiled meta-schema accepts ``schema`` (then ``jsonschema`` would
    report nothing either: ``tests/emit/test_metaschema_fast.py``); False when it rejects it, or
    cannot tell (no current compiled module, a document too deep for it)."""
    validate = _compiled()
    if validate is None:
        return False
    try:
        validate(schema, _FORMATS)
    except (ValueError, TypeError, RecursionError):  # its JsonSchemaValueException is a ValueError
        return False
    return True


def compiled_validator_source() -> str:
    """The Python source of :mod:`smithy2cfn.emit.metaschema_compiled`: the provider
    meta-schema (with the files it refers to and the draft-07 meta-schema) compiled by
    ``fastjsonschema.compile_to_code`` (defaults not applied, formats ``regex`` and
    ``json-pointer`` given at call time as :func:`_is_regex` and :func:`_is_json_pointer`),
    its import of ``fastjsonschema`` replaced by a local exception class, under a header
    with :func:`metaschema_key`. Development time only: needs ``fastjsonschema`` and
    ``jsonschema``."""
    import fastjsonschema
    import jsonschema

    docs = {name: json.loads(data) for name, data in _meta_documents().items()}

    def handler(uri: str) -> Any:
        if uri.startswith(_DRAFT7_URI):
            return jsonschema.Draft7Validator.META_SCHEMA
        return docs[uri.split("#", 1)[0].rsplit("/", 1)[-1]]

    code = fastjsonschema.compile_to_code(
        docs["provider.definition.schema.v1.json"], handlers={"https": handler, "http": handler},
        formats={"regex": _is_regex, "json-pointer": _is_json_pointer}, use_default=False,
    )
    imported = "from fastjsonschema import JsonSchemaValueException, JsonSchemaValuesException\n"
    patterns = code[code.index("REGEX_PATTERNS = {"):code.index("\n}\n", code.index("REGEX_PATTERNS = {"))] \
        if "REGEX_PATTERNS = {" in code else ""
    if imported not in code or "\nimport re\n" not in code or code.count("re.compile(") != patterns.count("re.compile("):
        raise RuntimeError("fastjsonschema's generated code changed: update compiled_validator_source")
    # Its patterns compiled on first use (smithy2cfn.regexes): a build checks a few of them.
    code = code.replace("\nimport re\n", "\nfrom smithy2cfn.regexes import lazy\n").replace("re.compile(", "lazy(")
    # decimal.Decimal only once decimal is imported (before that, no value can be one): its
    # import cost every build about 5 M instructions.
    number = "(int, float, Decimal)"
    if "\nfrom decimal import Decimal\n" not in code or code.count("Decimal") != code.count(number) + 1:
        raise RuntimeError("fastjsonschema's generated code changed: update compiled_validator_source")
    code = code.replace("\nfrom decimal import Decimal\n", "\nimport sys\n").replace(number, "(int, float, *_decimal())")
    local = ("class JsonSchemaValueException(ValueError):\n"
             "    def __init__(self, message, value=None, name=None, definition=None, rule=None):\n"
             "        super().__init__(message)\n\n\n"
             "JsonSchemaValuesException = JsonSchemaValueException\n\n\n"
             "def _decimal():\n"
             "    module = sys.modules.get('decimal') or sys.modules.get('_decimal')\n"
             "    return (module.Decimal,) if module is not None else ()\n")
    entry = re.search(r"^def (validate_https___schema_cloudformation_[a-z0-9_]*provider_definition_schema_v1_json)\(",
                      code, re.M)
    if entry is None:
        raise RuntimeError("fastjsonschema's generated code changed: no entry function found")
    header = ('"""The CloudFormation provider meta-schema as plain Python (generated: do not edit).\n\n'
              "Made by ``python -m smithy2cfn.emit.metaschema`` (smithy2cfn.emit.metaschema.\n"
              f"compiled_validator_source) with fastjsonschema {fastjsonschema.VERSION}.\n"
              '"""\n# ruff: noqa\n# fmt: off\n'
              f'KEY = "{metaschema_key()}"\n')
    return header + code.replace(imported, local) + f"\n\nvalidate = {entry.group(1)}\n"


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
    if fast_accepts(schema):
        return []
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


if __name__ == "__main__":  # python -m smithy2cfn.emit.metaschema: regenerate the compiled validator
    from pathlib import Path

    target = Path(__file__).with_name("metaschema_compiled.py")
    target.write_text(compiled_validator_source(), encoding="utf-8")
    print(f"{target}: written")
