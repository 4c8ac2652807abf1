"""``smithy.api#traitValidators``: constraints a trait definition puts on the shapes around it.

Spec: model-validation.rst §"traitValidators trait". A trait definition may carry
``@traitValidators``, a map of event ID → ``{selector, message?, severity?}``. Wherever the
trait is applied, each selector is evaluated *from that one shape* (not from the whole model)
and every shape it yields is reported with the entry's event ID, severity (``ERROR`` by
default) and message. The trait packages rely on it: ``smithy.mqtt#publish`` /
``#subscribe`` (errors, event streams, topic labels), ``smithy.protocols#rpcv2Cbor``
(``rpcv2Cbor.NoDocuments``, DANGER) and the AWS XML/query protocols (``UnsupportedProtocolDocument``).

Reference: ``TraitValidatorsValidator`` (smithy-model). Its checks, mirrored here:

* every key must be a valid event ID, i.e. a valid Smithy namespace (``foo.bar``,
  ``_foo``; not ``.``, ``foo.``, ``_``, ``1``, ``a.1``) — otherwise an ERROR
  ``TraitValidators`` on the trait definition, and that definition's validators do not run;
* for each node (shape or member) the trait is applied to, for each entry, each shape the
  selector yields from that node gets one event: "Found an incompatible shape when
  validating the constraints of the `T` trait attached to `S`[: message]".

Selectors are evaluated by the shared engine (``model.knowledge(SelectorEngine)``,
:mod:`smithy2cfn.languages.selector`). A selector the engine cannot parse is not
silently skipped: too deeply nested ones are an ERROR at the trait definition
(``S3702``, as for ``@trait`` selectors), others a NOTE (``S3703``) saying the entry was not
checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity
from smithy2cfn.languages.selector import (
    MAX_SELECTOR_NESTING,
    SelectorEngine,
    SelectorError,
    SelectorTooDeep,
    parse_selector,
)
from smithy2cfn.model.nodes import describe, shorten
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import TRAIT_VALIDATORS
from smithy2cfn.regexes import lazy
from smithy2cfn.validation.support.events import diag
from smithy2cfn.validation.support.shapes import members_having, shapes_having

_IDENTIFIER = r"(?:_+[A-Za-z0-9]|[A-Za-z])[A-Za-z0-9_]*"
#: A valid event ID for a trait validator: a Smithy namespace (reference
#: ``ShapeId.isValidNamespace``: identifiers separated by single dots, ASCII only).
EVENT_ID = lazy(rf"{_IDENTIFIER}(?:\.{_IDENTIFIER})*\Z", re.ASCII)

_SEVERITIES = {"NOTE": Severity.NOTE, "WARNING": Severity.WARNING, "DANGER": Severity.DANGER,
               "ERROR": Severity.ERROR}


def _nodes_with_trait(model: Model, trait_id: str) -> list[str]:
    """Every shape and member ID carrying ``trait_id``, sorted (prelude shapes included:
    what a selector yields from them is dropped later only if it is a prelude shape)."""
    return sorted([s.id for s in shapes_having(model, trait_id)] + [m.id for m in members_having(model, trait_id)])


@validator(Code("S3700", Severity.ERROR, "TraitValidators",
                "a `@traitValidators` key is not a valid event ID (that definition's validators do not run)"),
           Code("S3701", Severity.ERROR, None,
                "a `@traitValidators` selector matched a shape near where the trait is applied (the entry's own "
                "event ID and severity)", also=(Severity.DANGER, Severity.WARNING, Severity.NOTE,)),
           Code("S3702", Severity.ERROR, "TraitValidators",
                "a `@traitValidators` selector nests functions more than 50 levels deep (see Limits)"),
           Code("S3703", Severity.NOTE, "TraitValidators",
                "a `@traitValidators` selector cannot be evaluated; that entry is not checked"),
           rule="reference TraitValidatorsValidator (smithy-model); Smithy 2.0 model-validation.rst, "
                "traitValidators trait")
def check_trait_validators(model: Model) -> Iterable[Diagnostic]:
    """Run every ``@traitValidators`` entry from each shape its trait is applied to.

    Spec: model-validation.rst §"traitValidators trait"; reference ``TraitValidatorsValidator``.
    Yields ``S3700`` (an invalid event ID key, ERROR ``TraitValidators``, on the trait
    definition), ``S3701`` (a matched shape: the entry's own event ID and severity, on the
    matched shape), ``S3702``/``S3703`` (a selector that cannot be evaluated).
    """
    engine = model.knowledge(SelectorEngine)
    for definition in model.shapes_with_trait(TRAIT_VALIDATORS):
        validators = definition.traits[TRAIT_VALIDATORS]
        if not isinstance(validators, dict):
            continue  # a wrong trait value is a TraitValue error (check_trait_values)
        valid = True
        for key in validators:
            if not isinstance(key, str) or not EVENT_ID.match(key):
                valid = False
                yield diag(model, "S3700", None, definition.id,
                           f"`{TRAIT_VALIDATORS}` key is not a valid event ID: `{key}`",
                           hint="use a dotted identifier such as `MyTrait.NoDocuments` (letters, digits "
                                "and `_`, each part starting with a letter or `_` then a letter or digit)")
        if not valid:
            continue
        entries: list[tuple[str, tuple, str | None, Severity]] = []
        for key, entry in validators.items():
            if not isinstance(entry, dict) or not isinstance(entry.get("selector"), str):
                continue  # TraitValue
            text = entry["selector"]
            try:
                selector = parse_selector(text)
            except SelectorTooDeep as e:
                yield diag(model, "S3702", None, definition.id,
                           f"the selector of `{TRAIT_VALIDATORS}` entry `{key}` is too deeply nested: {e}",
                           hint=f"nest selector functions at most {MAX_SELECTOR_NESTING} levels deep")
                continue
            except SelectorError as e:
                yield diag(model, "S3703", None, definition.id,
                           f"the selector of `{TRAIT_VALIDATORS}` entry `{key}` cannot be evaluated "
                           f"({shorten(str(e), 300)}); shapes it would match are not reported")
                continue
            message = entry.get("message")
            severity = _SEVERITIES.get(entry.get("severity", "ERROR"), Severity.ERROR)
            entries.append((key, selector, message if isinstance(message, str) else None, severity))
        if not entries:
            continue
        for applied in _nodes_with_trait(model, definition.id):
            for key, selector, message, severity in entries:
                for found in sorted(engine.run(selector, {applied}, {})):
                    suffix = f": {message}" if message is not None else ""
                    yield diag(model, "S3701", severity, found,
                               "Found an incompatible shape when validating the constraints of the "
                               f"`{definition.id}` trait attached to `{applied}`{suffix}",
                               event=key,
                               hint=f"the trait `{definition.id}` forbids this shape here "
                                    f"(its validator {describe(key)})")


__all__ = ["EVENT_ID", "TRAIT_VALIDATORS", "check_trait_validators"]
