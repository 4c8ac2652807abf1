"""Contract-test inputs of a resource-type project: ``inputs/inputs_N_create.json``,
``inputs_N_update.json`` and ``inputs_N_invalid.json`` as ``cfn test`` reads them.

The CloudFormation CLI (``rpdk/core/test.py`` ``get_inputs``, ``get_type``;
``contract/resource_client.py`` ``generate_create_example``, ``generate_update_example``,
``validate_update_example_keys``) reads, for N = 1, 2, ... until a number has no file, every
``inputs/inputs_N*.json`` as a flat JSON object keyed by property name, sorted into
``CREATE`` / ``UPDATE`` / ``INVALID`` by the words of its file name. A set holds all three
(the update and invalid handler tests read the keys of the set without checking them).
Its update check requires every createOnly primary identifier of the update input to equal
the create input's; the tagging tests require the tag property in the inputs of a taggable
type. The prefix ``inputs_1`` also matches ``inputs_10_create.json``, so a project holds at
most :data:`MAX_SETS` sets.

Where the inputs come from (issue 18, "Contract-test inputs"):

* the model's ``@examples`` on the resource's lifecycle operations: ``create`` / ``put``
  input examples make create inputs, ``update`` input examples update inputs, and an
  example with ``error`` or ``allowConstraintErrors`` an invalid input. Member names become
  property names through the plan (:attr:`PropertyPlan.schema_name`: ``cfnName``,
  capitalization; ``@nestedProperties`` members opened; ``cfnExcludeProperty`` members and
  idempotency tokens left out), nested structures through the same naming rule, and values
  are converted to what the schema holds (timestamps in the format the schema's node has,
  blobs base64, enums and documents as written);
* where a resource has no usable example, values derived from the schema
  (:class:`~smithy2cfn.contract.values.SchemaValues`): its required properties, its
  writable identifiers and its tag property; the update input changes what it can change;
  the invalid input breaks one property (a string longer than its ``maxLength``, else a
  value of the wrong type).

readOnly properties are left out of every input, every createOnly value of the create
input is carried into the update input, and the tag property of a taggable type is in the
create and update inputs. Every input is checked against the schema before it is returned:
create and update inputs validate, invalid ones do not. An example that does not fit is a
warning located at its operation's ``@examples`` trait, naming the property and the rule,
and is left out.
"""

from __future__ import annotations

import base64
import copy
import datetime as dt
import json
from collections.abc import Mapping

from smithy2cfn.contract.values import NoValue, SchemaValues, count, first_error, mapping, schema_validator
from smithy2cfn.derive.plan import ConversionPlan, PropertyPlan, ResourcePlan, property_name
from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.model.knowledge import IdentifierBindingIndex
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.model.traits import (
    CFN_EXCLUDE_PROPERTY,
    EXAMPLES,
    IDEMPOTENCY_TOKEN,
    NESTED_PROPERTIES,
    TIMESTAMP_FORMAT,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this room reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S4401", Severity.WARNING, None,
         "an `@examples` input of a lifecycle operation does not fit the resource schema (the property and "
         "the rule are named); it is left out of the contract-test inputs"),
    Code("S4402", Severity.WARNING, None,
         "no contract-test input could be derived from a resource schema: no create input (a property whose "
         "pattern, lengths or ranges no value was found for), or no invalid input for a set"),
    Code("S4403", Severity.NOTE, None,
         "an `@examples` entry with `error` or `allowConstraintErrors` fits the resource schema, so it "
         "cannot be an invalid contract-test input; it is left out"),
    Code("S4404", Severity.WARNING, None,
         "more than 9 contract-test input sets: cfn-cli's `inputs_1` prefix also reads `inputs_10_...`, so "
         "the sets after the ninth are left out"),
)

#: Most sets a project can hold (``get_inputs`` reads ``inputs_<N>*``: N=1 would also read 10-19).
MAX_SETS = 9
#: File kinds of a set, in the order they are listed.
KINDS = ("create", "update", "invalid")
#: Values of the wrong type, by the JSON type they break.
WRONG_TYPE: Mapping[str, Any] = {"string": 12345, "integer": "not-an-integer", "number": "not-a-number",
                                 "boolean": "not-a-boolean", "array": "not-an-array", "object": "not-an-object"}


def _names(pointers: Any) -> list[tuple[str, ...]]:
    """``/properties/A/B`` pointers as ``("A", "B")`` tuples (others are left out)."""
    out = []
    for p in pointers if isinstance(pointers, list) else ():
        if isinstance(p, str) and p.startswith("/properties/"):
            out.append(tuple(s.replace("~1", "/").replace("~0", "~") for s in p[len("/properties/"):].split("/")))
    return out


def _prune(doc: Any, path: tuple[str, ...]) -> None:
    """Remove ``path`` from ``doc`` (``*`` steps into every item of a list), as cfn-cli's
    ``prune_properties`` does."""
    if not path:
        return
    head, rest = path[0], path[1:]
    if isinstance(doc, list):
        for item in doc:
            _prune(item, path[1:] if head == "*" else path)
        return
    if not isinstance(doc, dict) or head not in doc:
        return
    if rest:
        _prune(doc[head], rest)
    else:
        del doc[head]


def render_input(doc: dict[str, Any]) -> str:
    """An input file's text: strict JSON (2-space indent, keys in the order given, trailing newline).

    Raises:
        ValueError: ``doc`` holds ``NaN`` or an infinity, or an integer of more than 4,300 digits.
    """
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


class _Example:
    """One ``@examples`` entry converted to properties."""

    def __init__(self, title: str, op: Shape, props: dict[str, Any], invalid: bool) -> None:
        self.title, self.op, self.props, self.invalid = title, op, props, invalid

    @property
    def span(self) -> Span | None:
        return self.op.trait_spans.get(EXAMPLES, self.op.span)


class ResourceInputs:
    """The contract-test inputs of one resource (see the module's documentation)."""

    def __init__(self, model: Model, plan: ConversionPlan, rplan: ResourcePlan, schema: dict[str, Any],
                 diags: Diagnostics) -> None:
        self.model, self.plan, self.rplan, self.schema, self.diags = model, plan, rplan, schema, diags
        self.props: dict[str, Any] = mapping(schema, "properties")
        self.read_only = _names(schema.get("readOnlyProperties"))
        self.read_only_top = {p[0] for p in self.read_only if len(p) == 1}
        self.create_only = {p[0] for p in _names(schema.get("createOnlyProperties")) if len(p) == 1}
        identifiers = _names(schema.get("primaryIdentifier"))
        for group in schema.get("additionalIdentifiers") or ():
            identifiers += _names(group)
        self.identifiers = list(dict.fromkeys(p[0] for p in identifiers if len(p) == 1))
        tagging = mapping(schema, "tagging")
        tag_pointer = tagging.get("tagProperty", "/properties/Tags")
        tag_names = _names([tag_pointer])
        self.tag_property = tag_names[0][0] if tag_names and len(tag_names[0]) == 1 and tagging.get(
            "taggable", schema.get("taggable", True)) and tag_names[0][0] in self.props else None
        self.validator = schema_validator(schema)
        self.values = SchemaValues(schema, rplan.type_name)
        self.by_schema_name: dict[str, PropertyPlan] = {p.schema_name: p for p in rplan.properties}
        #: per set written, where its create input came from: ``"example"`` or ``"derived"``
        self.origins: list[str] = []

    # ------------------------------------------------------------------ helpers

    def ordered(self, doc: dict[str, Any]) -> dict[str, Any]:
        """``doc`` with its keys in the schema's property order (others after, sorted)."""
        return {**{k: doc[k] for k in self.props if k in doc}, **{k: doc[k] for k in sorted(doc) if k not in self.props}}

    def writable(self, doc: dict[str, Any]) -> dict[str, Any]:
        """A copy of ``doc`` without its readOnly properties (nested ones too)."""
        out: dict[str, Any] = copy.deepcopy(doc)
        for path in self.read_only:
            _prune(out, path)
        return out

    def derive(self, name: str, variant: int) -> Any:
        """A value of property ``name`` (raises :class:`NoValue`)."""
        return self.values.value(self.props[name], "/properties/" + name, variant)

    def _property_span(self, name: str) -> Span | None:
        prop = self.by_schema_name.get(name)
        return (prop.member.span if prop is not None and prop.member.span is not None else None) or self.rplan.span

    # ------------------------------------------------------------------ examples

    def _property_of(self, op: Shape, member_name: str, member_id: str) -> PropertyPlan | None:
        """The property an input member of ``op`` maps to."""
        for prop in self.rplan.properties:
            if member_id in prop.shape_ids:
                return prop
        bound = {m: i for i, m in self.model.knowledge(IdentifierBindingIndex)
                 .input_bindings(self.rplan.resource_id, op.id).items()}
        name = bound.get(member_name, member_name)
        return self.rplan.property(name)

    def _flatten(self, op: Shape, shape_id: str | None, value: Any, out: dict[str, Any]) -> None:
        """Put the properties an input ``value`` of structure ``shape_id`` holds into ``out``."""
        shape = self.model.get(shape_id) if shape_id else None
        if shape is None or not isinstance(value, dict):
            return
        for name, item in value.items():
            member = shape.members.get(name)
            if member is None or IDEMPOTENCY_TOKEN in member.traits or CFN_EXCLUDE_PROPERTY in member.traits:
                continue
            if NESTED_PROPERTIES in member.traits:
                self._flatten(op, member.target, item, out)
                continue
            prop = self._property_of(op, name, member.id)
            if prop is None or prop.schema_name not in self.props:
                continue
            out[prop.schema_name] = self.convert(member.target, item, member.traits.get(TIMESTAMP_FORMAT))

    def convert(self, shape_id: str, value: Any, timestamp_format: Any = None) -> Any:
        """A Smithy node value of shape ``shape_id`` as the schema holds it: structure and
        union members renamed (the schema's naming rule), timestamps in the format the
        schema gives them (``@timestampFormat`` of the member, of the shape, else the
        ``defaultTimestampFormat`` setting), blobs base64."""
        shape = self.model.get(shape_id)
        if shape is None:
            return value
        t = shape.type
        if t in ("structure", "union") and isinstance(value, dict):
            out = {}
            for k, v in value.items():
                member = shape.members.get(k)
                if member is not None:
                    out[property_name(member, self.plan.config)] = self.convert(
                        member.target, v, member.traits.get(TIMESTAMP_FORMAT))
            return out
        if t in ("list", "set") and isinstance(value, list) and "member" in shape.members:
            member = shape.members["member"]
            return [self.convert(member.target, v, member.traits.get(TIMESTAMP_FORMAT)) for v in value]
        if t == "map" and isinstance(value, dict) and "value" in shape.members:
            member = shape.members["value"]
            return {k: self.convert(member.target, v, member.traits.get(TIMESTAMP_FORMAT)) for k, v in value.items()}
        if t == "timestamp" or timestamp_format is not None:
            fmt = timestamp_format if isinstance(timestamp_format, str) else shape.traits.get(TIMESTAMP_FORMAT)
            return _timestamp(value, fmt if isinstance(fmt, str) else self.plan.config.default_timestamp_format)
        if t == "blob" and isinstance(value, str):
            return base64.b64encode(value.encode("utf-8")).decode("ascii")
        if t in ("bigInteger", "bigDecimal") and isinstance(value, str):
            try:
                number = float(value)
            except ValueError:
                return value
            return int(number) if number.is_integer() else number
        return value

    def examples(self, op_ids: list[str | None]) -> list[_Example]:
        """The ``@examples`` entries of the operations, converted (in trait order)."""
        out = []
        for op_id in op_ids:
            op = self.model.get(op_id) if op_id else None
            entries = op.traits.get(EXAMPLES) if op is not None else None
            if op is None or not isinstance(entries, list):
                continue
            for i, entry in enumerate(entries):
                if not isinstance(entry, dict):
                    continue
                props: dict[str, Any] = {}
                self._flatten(op, op.input, entry.get("input", {}), props)
                title = str(entry["title"]) if isinstance(entry.get("title"), str) else f"#{i + 1}"
                invalid = "error" in entry or entry.get("allowConstraintErrors") is True
                out.append(_Example(title, op, props, invalid))
        return out

    def _misfit(self, example: _Example, doc: dict[str, Any], what: str) -> bool:
        """Warn (``S4401``) when ``doc``, made from ``example``, does not validate (or holds a
        number JSON cannot write, such as ``1e400``); True then."""
        if self._unwritable(example, doc):
            return True
        error = first_error(self.validator, doc)
        if error is None:
            return False
        where = "/".join(str(p) for p in error.absolute_path)
        subject = f"property {where}" if where else "the input"
        self.diags.warning(
            "S4401", f"the @examples entry '{example.title}' of {example.op.id} does not fit "
                     f"{self.rplan.type_name} as a {what} input: {subject} breaks '{error.validator}' "
                     f"({_short(error.message)})",
            span=example.span, shape_id=example.op.id,
            hint="change the example's input to fit the member's constraints, or mark it with "
                 "allowConstraintErrors to use it as an invalid input")
        return True

    def _unwritable(self, example: _Example, doc: dict[str, Any]) -> bool:
        """Warn (``S4401``) when ``doc`` cannot be written as strict JSON; True then."""
        try:
            render_input(doc)
        except (ValueError, TypeError, RecursionError) as e:
            self.diags.warning(
                "S4401", f"the @examples entry '{example.title}' of {example.op.id} cannot be a contract-test "
                         f"input of {self.rplan.type_name}: {_short(str(e))}",
                span=example.span, shape_id=example.op.id, hint="write numbers JSON can hold (no 1e400)")
            return True
        return False

    # ------------------------------------------------------------------ derived sets

    def derived_create(self) -> dict[str, Any] | None:
        """Create input made from the schema; ``None`` after warning ``S4402``."""
        required = [n for n in self.schema.get("required") or () if isinstance(n, str)]
        names = [n for n in self.props if n in required or n in self.identifiers or n == self.tag_property]
        names = [n for n in names if n not in self.read_only_top]
        doc: dict[str, Any] = {}
        try:
            for name in names:
                doc[name] = self.derive(name, 0)
        except NoValue as e:
            self._no_value(e)
            return None
        for attempt in range(1, 6):
            error = first_error(self.validator, doc)
            if error is None:
                return self.writable(doc)
            name = str(error.absolute_path[0]) if error.absolute_path else ""
            if name not in doc:
                break
            try:
                doc[name] = self.derive(name, 2 * attempt)
            except NoValue:
                break
        error = first_error(self.validator, doc)
        if error is None:
            return self.writable(doc)
        where = "/".join(str(p) for p in error.absolute_path) or "the input"
        self._no_value(NoValue(f"{error.validator}' ({_short(error.message)})", "/properties/" + where), quoted=True)
        return None

    def _no_value(self, e: NoValue, quoted: bool = False) -> None:
        name = e.pointer.removeprefix("/properties/").split("/")[0]
        rule = f"'{e.rule}" if quoted else f"'{e.rule}'"
        self.diags.warning(
            "S4402", f"no contract-test input could be derived for {self.rplan.type_name}: no value of "
                     f"{e.pointer} satisfies {rule}", span=self._property_span(name), shape_id=self.rplan.resource_id,
            hint="add an @examples entry to the create operation, or write inputs/inputs_1_create.json by hand")

    def derived_update(self, create: dict[str, Any]) -> dict[str, Any]:
        """Update input: ``create`` (without readOnly properties) with every scalar property
        (string, number, boolean, enum) that is not createOnly nor an identifier given another
        value, where that still validates (objects and arrays are kept: an example's are
        richer than a derived one); when none can change, one optional updatable property is
        added."""
        doc = dict(create)
        changeable = [n for n in self.props if n not in self.create_only and n not in self.read_only_top
                      and n not in self.identifiers]
        changed = False
        for name in [n for n in changeable if n in doc and self.is_scalar(n)]:
            try:
                value = self.derive(name, 1)
            except NoValue:
                continue
            trial = {**doc, name: value}
            if value != doc[name] and first_error(self.validator, trial) is None:
                doc, changed = trial, True
        if not changed:
            for name in [n for n in changeable if n not in doc]:
                try:
                    value = self.derive(name, 1)
                except NoValue:
                    continue
                trial = self.writable({**doc, name: value})
                if first_error(self.validator, trial) is None:
                    doc = trial
                    break
        return self.ordered(doc)

    def is_scalar(self, name: str) -> bool:
        """Property ``name`` holds a string, number, boolean or enum value."""
        try:
            node = self.values.resolve(self.props.get(name, {}), "/properties/" + name)
        except NoValue:
            return False
        return "enum" in node or self.values.kind(node) in ("string", "integer", "number", "boolean")

    def derived_invalid(self, create: dict[str, Any]) -> dict[str, Any] | None:
        """Invalid input: ``create`` with one property broken (a string longer than its
        ``maxLength``, else a value of the wrong type); ``None`` when nothing breaks it."""
        candidates: list[tuple[str, Any]] = []
        names = list(create) + [n for n in self.props if n not in create and n not in self.read_only_top]
        for name in names:
            try:
                node = self.values.resolve(self.props.get(name, {}), "/properties/" + name)
            except NoValue:
                continue
            longest = count(node, "maxLength")
            if longest is not None and longest < 4096:
                candidates.append((name, "x" * (longest + 1)))
        for name in names:
            try:
                node = self.values.resolve(self.props.get(name, {}), "/properties/" + name)
            except NoValue:
                continue
            kind = self.values.kind(node)
            if kind is not None and kind in WRONG_TYPE:
                candidates.append((name, WRONG_TYPE[kind]))
        candidates.append(("InvalidPropertyName", "x"))
        for name, value in candidates:
            trial = self.ordered({**create, name: value})
            if first_error(self.validator, trial) is not None:
                return trial
        return None

    # ------------------------------------------------------------------ sets

    def with_tags(self, doc: dict[str, Any]) -> dict[str, Any]:
        """``doc`` with the tag property (derived) when the type is taggable and it has none."""
        if self.tag_property is None or self.tag_property in doc or self.tag_property in self.read_only_top:
            return doc
        try:
            value = self.derive(self.tag_property, 0)
        except NoValue:
            return doc
        trial = self.ordered({**doc, self.tag_property: value})
        return trial if first_error(self.validator, trial) is None else doc

    def update_from(self, create: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
        """An update input: ``create`` overlaid with ``changes``, readOnly properties out,
        createOnly values (and identifiers) as the create input has them."""
        doc = self.writable({**create, **changes})
        for name in self.props:
            if (name in self.create_only or name in self.identifiers) and name in create:
                doc[name] = create[name]
        return self.with_tags(self.ordered(doc))

    def files(self) -> dict[str, str]:
        """``{"inputs/inputs_1_create.json": text, ...}``; empty when no create input could be made."""
        resource = self.model.get(self.rplan.resource_id)
        create_ops = [resource.create, resource.put] if resource is not None else []
        update_ops = [resource.update] if resource is not None else []
        creates: list[dict[str, Any]] = []
        origins: list[str] = []
        invalids: list[dict[str, Any]] = []
        update_examples: list[tuple[_Example, dict[str, Any]]] = []
        create_examples = self.examples(create_ops)
        for ex in create_examples:
            doc = self.with_tags(self.ordered(self.writable(ex.props)))
            if ex.invalid:
                self._invalid_example(ex, doc, invalids)
            elif doc in creates:
                continue  # the same input as an earlier example's: one set is enough
            elif not self._misfit(ex, doc, "create"):
                creates.append(doc)
                origins.append("example")
        if not creates:
            derived = self.derived_create()
            if derived is None:
                return {}
            creates.append(self.with_tags(self.ordered(derived)))
            origins.append("derived")
        for ex in self.examples(update_ops):
            doc = self.update_from(creates[0], ex.props)
            if ex.invalid:
                self._invalid_example(ex, self.ordered(self.writable(ex.props)), invalids)
            elif not self._misfit(ex, doc, "update"):
                update_examples.append((ex, ex.props))
        count = max(len(creates), len(update_examples), len(invalids), 1)
        if count > MAX_SETS:
            self.diags.warning("S4404", f"{self.rplan.type_name} has {count} contract-test input sets from its "
                                        f"@examples; the {count - MAX_SETS} after the ninth are left out "
                                        "(cfn test reads inputs_1* for set 1, inputs_10_* included)",
                               span=self.rplan.span, shape_id=self.rplan.resource_id)
            count = MAX_SETS
        out: dict[str, str] = {}
        for i in range(count):
            create = creates[i % len(creates)]
            if i < len(update_examples):
                update = self.update_from(create, update_examples[i][1])
                if first_error(self.validator, update) is not None:
                    update = self.derived_update(create)
            else:
                update = self.derived_update(create)
            invalid = invalids[i] if i < len(invalids) else self.derived_invalid(create)
            if invalid is None:
                self.diags.warning(
                    "S4402", f"no invalid contract-test input could be derived for {self.rplan.type_name}: its "
                             "schema accepts the create input with any one property broken or added, so set "
                             f"{i + 1} is left out", span=self.rplan.span, shape_id=self.rplan.resource_id,
                    hint="add an @examples entry with allowConstraintErrors and an error to the create operation")
                continue
            n = len(out) // 3 + 1
            self.origins.append(origins[i % len(origins)])
            for kind, doc in zip(KINDS, (create, update, invalid), strict=True):
                out[f"inputs/inputs_{n}_{kind}.json"] = render_input(doc)
        return out

    def _invalid_example(self, ex: _Example, doc: dict[str, Any], invalids: list[dict[str, Any]]) -> None:
        if self._unwritable(ex, doc):
            return
        if first_error(self.validator, doc) is None:
            self.diags.add("S4403", Severity.NOTE,
                           f"the @examples entry '{ex.title}' of {ex.op.id} expects an error but its input fits "
                           f"the {self.rplan.type_name} schema, so it is no invalid contract-test input",
                           ex.span, ex.op.id,
                           "an invalid input breaks the schema (a pattern, a length, a range, a required property)")
        else:
            invalids.append(doc)


def _timestamp(value: Any, fmt: str) -> Any:
    """A Smithy timestamp node value (epoch seconds, or an RFC 3339 string) in ``fmt``."""
    when: dt.datetime | None = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            when = dt.datetime.fromtimestamp(value, tz=dt.timezone.utc)
        except (OverflowError, OSError, ValueError):
            return value
    elif isinstance(value, str):
        try:
            when = dt.datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            try:
                from email.utils import parsedate_to_datetime

                when = parsedate_to_datetime(value)
            except (TypeError, ValueError):
                return value
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.timezone.utc)
    if when is None:
        return value
    when = when.astimezone(dt.timezone.utc)
    if fmt.startswith("epoch-"):
        seconds = when.timestamp()
        return int(seconds) if seconds.is_integer() else seconds
    if fmt == "http-date":
        from email.utils import format_datetime

        return format_datetime(when.replace(microsecond=0), usegmt=True)
    text = when.strftime("%Y-%m-%dT%H:%M:%S")
    if when.microsecond:
        text += f".{when.microsecond:06d}".rstrip("0")
    return text + "Z"


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def contract_inputs(model: Model, plan: ConversionPlan, schemas: Mapping[str, dict[str, Any]],
                    diags: Diagnostics) -> dict[str, dict[str, str]]:
    """The contract-test inputs of every resource of a conversion.

    Args:
        model: the model the plan was derived from.
        plan: the conversion plan (:func:`smithy2cfn.derive.derive_plan`).
        schemas: the emitted schemas by file name, as ``api.build(...).schemas`` holds them
            (``ResourcePlan.file_name``); a resource whose schema is not there is skipped.
        diags: receives ``S4401`` (an example that does not fit, at its ``@examples`` trait),
            ``S4402`` (no create input could be derived, at the property; or no invalid
            one, at the resource: that set is left out), ``S4403`` (an error
            example that fits), ``S4404`` (more than nine sets).

    Returns:
        schema file name → ``{"inputs/inputs_1_create.json": text, "inputs/inputs_1_update.json":
        text, "inputs/inputs_1_invalid.json": text, ...}`` (paths relative to the resource-type
        project's folder; sets numbered from 1; each text a JSON object keyed by property name,
        2-space indented with a trailing newline). A resource no create input could be made for
        maps to ``{}``. The same arguments give the same texts.

    Follows cloudformation-cli's contract-test input loading (``rpdk/core/test.py``
    ``get_inputs``, ``contract/resource_client.py``); see the module's documentation.
    """
    out: dict[str, dict[str, str]] = {}
    for rplan in plan.resources:
        schema = schemas.get(rplan.file_name)
        if isinstance(schema, dict):
            out[rplan.file_name] = ResourceInputs(model, plan, rplan, schema, diags).files()
    return out


__all__ = ["CODES", "MAX_SETS", "ResourceInputs", "contract_inputs", "render_input"]
