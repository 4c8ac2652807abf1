"""The lint rules: CloudFormation's own checks of a resource schema, reported at the model.

Four published rule sets are reimplemented here, each rule read from its source:

* ``cfn validate`` beyond the meta-schema: cloudformation-cli ``rpdk/core/data_loaders.py``
  ``load_resource_spec`` (codes ``S6001``–``S6016``);
* resource-schema-guard-rail's stateless rules: ``rpdk/guard_rail/rule_library/**``
  (``core``, ``mutable``, ``tags``, ``combiners``) and ``docs/BASIC_LINTING.md``: PID, PR,
  PER, TAG, ARN, COM, GN (``S6101``–``S6124``);
* the registry's tagging checks (cloudformation-resource-schema ``ResourceTagging``: a
  ``tagUpdatable`` resource has an update handler) (``S6130``);
* the handler contract's requirements that a model shows (CloudFormation CLI user guide
  "Resource type handler contract") (``S6201``–``S6206``).

Each rule judges the schema as written (so it agrees with the judge it mirrors) and reports
at the member, operation or trait that made the offending part (:mod:`.locate`). Model
problems are warnings; what CloudFormation rejects (``cfn validate`` raising, the registry
refusing) is an error.
"""

from __future__ import annotations

import json
import re
import warnings
from collections import deque
from collections.abc import Iterator
from typing import Any

from smithy2cfn.derive.plan import ResourcePlan
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, declare_codes, listed
from smithy2cfn.lint.locate import Locator, Site
from smithy2cfn.model.knowledge import IdentifierBindingIndex
from smithy2cfn.model.nodes import as_array, as_object, string_items
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.model.traits import CFN_MUTABILITY, DOCUMENTATION, REQUIRED, TAGGABLE

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S6001", Severity.WARNING, "CfnLint.CfnValidate.PropertyCase",
         "a property name starts with a lowercase letter"),
    Code("S6002", Severity.WARNING, "CfnLint.CfnValidate.InsertionOrder",
         "an array property without `insertionOrder`"),
    Code("S6003", Severity.ERROR, "CfnLint.CfnValidate.ArrayType",
         "`arrayType` on a property that is not an array (`cfn validate` rejects it)"),
    Code("S6004", Severity.WARNING, "CfnLint.CfnValidate.TypeKeywords",
         "a keyword of another type (`minLength` on a number...)"),
    Code("S6005", Severity.WARNING, "CfnLint.CfnValidate.ArnPartition",
         "a `@pattern` hard-codes the `arn:aws:` partition"),
    Code("S6006", Severity.WARNING, "CfnLint.CfnValidate.Pattern",
         "a `@pattern` that Python `re` cannot compile, or that uses a construct ECMA-262 lacks (`\\p{L}`, "
         "`(?i)`)"),
    Code("S6007", Severity.WARNING, "CfnLint.CfnValidate.LargeEnum", "an enum of more than 15 values"),
    Code("S6008", Severity.WARNING, "CfnLint.CfnValidate.NonAscii",
         "non-ASCII characters in the schema (usually `@documentation`)"),
    Code("S6009", Severity.WARNING, "CfnLint.CfnValidate.ListOption",
         "a LIST API input (`MaxResults`, `NextToken`...) is a property"),
    Code("S6010", Severity.WARNING, "CfnLint.CfnValidate.ReadOnlyOverlap",
         "a readOnly property is also createOnly, writeOnly or required"),
    Code("S6011", Severity.WARNING, "CfnLint.CfnValidate.WildcardPermission",
         "a handler permission with a wildcard"),
    Code("S6012", Severity.WARNING, "CfnLint.CfnValidate.OpenObject",
         "an object with properties whose `additionalProperties` is not false"),
    Code("S6013", Severity.WARNING, "CfnLint.CfnValidate.PrimaryIdentifierMutability",
         "a primaryIdentifier property is neither readOnly nor createOnly"),
    Code("S6014", Severity.ERROR, "CfnLint.CfnValidate.ConditionalCreateOnly",
         "conditionalCreateOnlyProperties overlap createOnly or readOnly (`cfn validate` rejects it)"),
    Code("S6015", Severity.WARNING, "CfnLint.CfnValidate.Tagging", "the schema has no `tagging`"),
    Code("S6016", Severity.ERROR, "CfnLint.CfnValidate.Remote",
         "a top-level `remote` (reserved: `cfn validate` rejects it)"),
    Code("S6101", Severity.WARNING, "CfnLint.GuardRail.PrimaryIdentifier",
         "`primaryIdentifier` missing or empty"),
    Code("S6102", Severity.WARNING, "CfnLint.GuardRail.PrimaryIdentifierWriteOnly",
         "a primaryIdentifier property is writeOnly"),
    Code("S6103", Severity.WARNING, "CfnLint.GuardRail.Pointer",
         "a pointer (`readOnlyProperties`...) names no property of the schema"),
    Code("S6104", Severity.WARNING, "CfnLint.GuardRail.CreateHandler",
         "no create handler, or one without permissions"),
    Code("S6105", Severity.WARNING, "CfnLint.GuardRail.ReadHandler",
         "no read handler, or one without permissions"),
    Code("S6106", Severity.NOTE, "CfnLint.GuardRail.UpdateHandler",
         "no update handler (every change replaces the resource)"),
    Code("S6107", Severity.WARNING, "CfnLint.GuardRail.UpdatePermissions",
         "an update handler without permissions"),
    Code("S6108", Severity.WARNING, "CfnLint.GuardRail.DeleteHandler",
         "no delete handler, or one without permissions"),
    Code("S6109", Severity.WARNING, "CfnLint.GuardRail.ListHandler",
         "no list handler, or one without permissions"),
    Code("S6110", Severity.WARNING, "CfnLint.GuardRail.NotTaggable",
         "the resource is not taggable (no `@aws.api#taggable`)"),
    Code("S6111", Severity.WARNING, "CfnLint.GuardRail.TagPropertyNotTaggable",
         "a property named like tags on a resource that is not taggable"),
    Code("S6112", Severity.WARNING, "CfnLint.GuardRail.TaggingFields",
         "`tagging` lacks `tagOnCreate`, `tagUpdatable`, `cloudFormationSystemTags`, `tagProperty` or "
         "`permissions`"),
    Code("S6113", Severity.WARNING, "CfnLint.GuardRail.TagsProperty",
         "a taggable resource without a `Tags` property"),
    Code("S6114", Severity.WARNING, "CfnLint.GuardRail.TagPropertyPointer",
         "`tagProperty` names no property of the schema"),
    Code("S6115", Severity.WARNING, "CfnLint.GuardRail.TagPropertyWriteOnly",
         "the tag property is writeOnly"),
    Code("S6116", Severity.WARNING, "CfnLint.GuardRail.TagPropertyCreateOnly",
         "the tag property is createOnly"),
    Code("S6117", Severity.WARNING, "CfnLint.GuardRail.TagPropertyWildcard",
         "`tagProperty` holds a wildcard"),
    Code("S6118", Severity.WARNING, "CfnLint.GuardRail.ArnProperty",
         "an ARN property that is not a string with a pattern"),
    Code("S6119", Severity.WARNING, "CfnLint.GuardRail.PropertyType",
         "a property without a type, or with several"),
    Code("S6120", Severity.WARNING, "CfnLint.GuardRail.ArrayItems",
         "an array property without `items`, or with items given by `anyOf`/`allOf`/`oneOf`"),
    Code("S6121", Severity.WARNING, "CfnLint.GuardRail.Description",
         "the description does not start with `Resource Type definition for`"),
    Code("S6122", Severity.WARNING, "CfnLint.GuardRail.SourceUrl", "`sourceUrl` is not https"),
    Code("S6123", Severity.WARNING, "CfnLint.GuardRail.ReplacementStrategy",
         "`replacementStrategy` is `create_then_delete`"),
    Code("S6124", Severity.WARNING, "CfnLint.GuardRail.LegacyTaggable",
         "a top-level `taggable`, or a `tagging` that is no object or has no `taggable`"),
    Code("S6130", Severity.ERROR, "CfnLint.Registry.TagUpdatable",
         "`tagUpdatable` is true without an update handler (the registry rejects it); a warning when the "
         "model has one but the schema leaves it out", also=(Severity.WARNING,)),
    Code("S6201", Severity.WARNING, "CfnLint.Contract.ReadReturnsAll",
         "a property that is not writeOnly is not in the read output"),
    Code("S6202", Severity.WARNING, "CfnLint.Contract.IdentifierInputs",
         "a read or delete input requires a member that is not an identifier"),
    Code("S6203", Severity.WARNING, "CfnLint.Contract.CreateReturnsIdentifier",
         "the create output lacks the primary identifier"),
    Code("S6204", Severity.WARNING, "CfnLint.Contract.ListReturnsIdentifiers",
         "the list output lacks the identifiers"),
    Code("S6205", Severity.WARNING, "CfnLint.Contract.WriteOnlyReturned",
         "a writeOnly property is in the read or list output"),
    Code("S6206", Severity.WARNING, "CfnLint.Contract.PrimaryIdentifierType",
         "a primaryIdentifier property is not a string or integer"),
)

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
#: guard-rail's wildcard permission notation (``service:*``, ``service:Describe*``).
WILDCARD_NOTATION = re.compile(r"^[a-z0-9-]{0,20}:([a-zA-Z0-9]+)?\*$")
#: guard-rail: property names that hold ARNs.
ARN_NAME = re.compile(r"(Arn|arn|ARN)")
#: Java's POSIX and java.lang.Character classes (``\p{Alpha}``, ``\p{javaLowerCase}``): valid
#: ECMA-262 syntax or not, ECMA does not read them as Java does (the syntax itself, inline
#: flags, ``\A``, possessive quantifiers..., is checked by an ECMA engine: :func:`ecma_problem`).
NOT_ECMA = re.compile(r"\\[pP]\{(?:Lower|Upper|ASCII|Alpha|Digit|Alnum|Punct|Graph|Print|Blank|Cntrl|XDigit|Space|"
                      r"java\w+|Is\w+)\}")
#: The handlers the handler contract requires.
REQUIRED_HANDLERS = ("create", "read", "delete")


#: code → the published rule(s) it mirrors.
RULES: dict[str, str] = {
    "S6001": "cfn-cli data_loaders: properties don't usually start with lowercase letters",
    "S6002": "cfn-cli data_loaders: explicitly specify insertionOrder for array",
    "S6003": "cfn-cli data_loaders: arrayType is only applicable for properties of type array",
    "S6004": "cfn-cli data_loaders: incorrect JSON schema keyword(s) for type",
    "S6005": "cfn-cli data_loaders: don't hardcode the aws partition in ARN patterns",
    "S6006": "cfn-cli data_loaders: could not validate regular expression; handler contract: patterns valid as "
             "ECMA-262 and Python re",
    "S6007": "cfn-cli data_loaders: consider not manually maintaining large enums",
    "S6008": "cfn-cli data_loaders: non-ASCII characters found in resource schema",
    "S6009": "cfn-cli data_loaders: LIST API inputs are not resource properties",
    "S6010": "cfn-cli data_loaders: readOnlyProperties should not overlap writeOnly, createOnly or required; "
             "guard-rail PR001, PR004",
    "S6011": "cfn-cli data_loaders: use specific handler permissions instead of wildcards; guard-rail PER002, "
             "PER004, PER007, PER009, PER011 (wildcard)",
    "S6012": "cfn-cli data_loaders: additionalProperties false on objects with properties",
    "S6013": "cfn-cli data_loaders: primaryIdentifier must be readOnly or createOnly; guard-rail PID003",
    "S6014": "cfn-cli data_loaders: conditionalCreateOnlyProperties must not overlap createOnly or readOnly",
    "S6015": "cfn-cli data_loaders: explicitly specify value for tagging; guard-rail TAG002",
    "S6016": "cfn-cli data_loaders: property 'remote' is reserved for CloudFormation use",
    "S6101": "guard-rail PID001, PID002",
    "S6102": "guard-rail PID004; handler contract: primaryIdentifier is never writeOnly",
    "S6103": "guard-rail PR005, PR006, PR007, PR008; handler contract: every pointer resolves to a property",
    "S6104": "guard-rail PER001, PER002; handler contract: create, read and delete are present",
    "S6105": "guard-rail PER003, PER004; handler contract: create, read and delete are present",
    "S6106": "guard-rail PER005",
    "S6107": "guard-rail PER006",
    "S6108": "guard-rail PER008, PER009; handler contract: create, read and delete are present",
    "S6109": "guard-rail PER010, PER011",
    "S6110": "guard-rail TAG015",
    "S6111": "guard-rail TAG016",
    "S6112": "guard-rail TAG007, TAG008, TAG009, TAG010, TAG012",
    "S6113": "guard-rail TAG004, TAG011",
    "S6114": "guard-rail TAG013",
    "S6115": "guard-rail TAG014",
    "S6116": "guard-rail TAG017, TAG018",
    "S6117": "guard-rail TAG019",
    "S6118": "guard-rail ARN001, ARN002",
    "S6119": "guard-rail COM001, COM002",
    "S6120": "guard-rail COM003, COM004, COM005, COM006",
    "S6121": "guard-rail GN001",
    "S6122": "guard-rail GN002",
    "S6123": "guard-rail GN003",
    "S6124": "guard-rail TAG001, TAG003, TAG005, TAG006",
    "S6130": "registry schema library (ResourceTagging): invalid tagUpdatable value since update handler is missing",
    "S6201": "handler contract: read returns every property, readOnly ones included",
    "S6202": "handler contract: read and delete inputs are identifiers only",
    "S6203": "handler contract: create returns the primary identifier",
    "S6204": "handler contract: list returns identifiers",
    "S6205": "handler contract: a writeOnly property is never in a read or list output",
    "S6206": "handler contract: primaryIdentifier properties are strings or integers",
}


def walk(node: Any, parts: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every value of a JSON document with its pointer segments, depth first, iteratively."""
    stack: list[tuple[tuple[str, ...], Any]] = [(parts, node)]
    while stack:
        where, value = stack.pop()
        yield where, value
        if isinstance(value, dict):
            stack.extend((where + (str(k),), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((where + (str(i),), v) for i, v in reversed(list(enumerate(value))))


def schemas_in(node: Any, parts: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], dict]]:
    """Every (sub)schema of a resource schema, structurally: the document, its
    ``definitions``, and below each schema its ``properties``, ``patternProperties``,
    ``items``, ``additionalProperties`` and combiner variants (never a property *named*
    like a keyword)."""
    stack: list[tuple[tuple[str, ...], Any]] = [(parts, node)]
    while stack:
        where, schema = stack.pop()
        if not isinstance(schema, dict):
            continue
        yield where, schema
        for key in ("properties", "patternProperties", "definitions"):
            children = schema.get(key)
            if isinstance(children, dict):
                stack.extend((where + (key, str(k)), v) for k, v in children.items())
        for key in ("items", "additionalProperties"):
            if isinstance(schema.get(key), dict):
                stack.append((where + (key,), schema[key]))
        for key in ("oneOf", "anyOf", "allOf"):
            if isinstance(schema.get(key), list):
                stack.extend((where + (key, str(i)), v) for i, v in enumerate(schema[key]))


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


class ResourceLint:
    """Runs every rule over one resource's schema; :attr:`found` holds the diagnostics."""

    def __init__(self, model: Model, rplan: ResourcePlan, locator: Locator, schema: dict[str, Any],
                 file_name: str) -> None:
        self.model, self.rplan, self.loc, self.schema, self.file_name = model, rplan, locator, schema, file_name
        self.resource: Shape = locator.resource
        self.found: list[Diagnostic] = []

    def report(self, code: str, message: str, site: Site, hint: str | None, severity: Severity | None = None) -> None:
        """Record one finding, naming the rule it mirrors and the output file."""
        self.found.append(Diagnostic(code, severity or CODES[code].severity,
                                     f"{self.file_name}: {message} ({RULES[code]})", site.span, site.shape_id, hint))

    def run(self) -> list[Diagnostic]:
        """Run every rule; returns the findings."""
        for check in (self.cfn_cli, self.identifiers_and_pointers, self.handlers, self.tagging, self.properties,
                      self.general, self.contract):
            check()
        return self.found

    # -- helpers ---------------------------------------------------------------------

    def obj(self, key: str) -> dict[str, Any]:
        """The object at a top-level key (``{}`` when absent or not an object: a ``jsonAdd``
        may write anything, and such a schema is linted too)."""
        return as_object(self.schema.get(key))

    def arr(self, key: str) -> list[Any]:
        """The array at a top-level key (``[]`` when absent or not an array)."""
        return as_array(self.schema.get(key))

    def pointer_list(self, key: str) -> list[str]:
        """The strings of the array at a top-level key (a list of JSON pointers)."""
        return string_items(self.schema.get(key))

    def resolve(self, node: Any) -> Any:
        """Follow a local ``$ref`` (``#/definitions/X``) once."""
        if isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/definitions/"):
            target = self.obj("definitions").get(node["$ref"][len("#/definitions/"):])
            return target if isinstance(target, dict) else node
        return node

    def variants(self, node: Any) -> list[dict]:
        """A schema with its ``$ref`` followed, and its ``allOf``/``anyOf``/``oneOf``
        variants (guard-rail's ``resolve_schema`` squashes them)."""
        node = self.resolve(node)
        if not isinstance(node, dict):
            return []
        out = [node]
        for key in ("allOf", "anyOf", "oneOf"):
            values = node.get(key)
            out += [v for v in (self.resolve(x) for x in (values if isinstance(values, list) else ()))
                    if isinstance(v, dict)]
        return out

    def resolves(self, pointer: str) -> bool:
        """Whether ``pointer`` is a property path of the schema as guard-rail lists them
        (its ``add_paths_to_schema``: ``/properties/A/B`` through ``$ref`` and combiners,
        ``*`` for array items). Walks the pointer, so it costs its length whatever the size
        of the schema."""
        parts = pointer.split("/")
        if len(parts) < 3 or parts[0] != "" or parts[1] != "properties":
            return False
        nodes = [self.obj("properties").get(parts[2])]
        for segment in parts[3:]:
            following = []
            for node in nodes:
                for variant in self.variants(node):
                    if segment == "*":
                        following.append(variant.get("items"))
                    elif isinstance(variant.get("properties"), dict) and segment in variant["properties"]:
                        following.append(variant["properties"][segment])
            nodes = [n for n in following if isinstance(n, dict)][:64]
        return any(isinstance(n, dict) for n in nodes) and parts[-1] != "*"

    def tag_path(self) -> str | None:
        """A property path whose last name holds ``Tag`` (guard-rail's ``TaggingPath``, which
        TAG016 looks for), the shortest, found breadth first: each definition is entered
        once, so the search is linear in the schema's size."""
        queue = deque((f"/properties/{name}", name, sub) for name, sub in sorted(self.obj("properties").items()))
        entered: set[str] = set()
        while queue:
            path, name, node = queue.popleft()
            if "Tag" in name:
                return path
            if isinstance(node, dict) and isinstance(node.get("$ref"), str):
                if node["$ref"] in entered:
                    continue
                entered.add(node["$ref"])
            for variant in self.variants(node):
                items = variant.get("items")
                if isinstance(items, dict):
                    queue.append((path + "/*", "*", items))
                children = variant.get("properties")
                for child, sub in sorted(children.items()) if isinstance(children, dict) else ():
                    queue.append((f"{path}/{child}", child, sub))
        return None

    # -- cfn validate ----------------------------------------------------------------

    def cfn_cli(self) -> None:
        """cloudformation-cli ``load_resource_spec``: every check after the meta-schema."""
        loc, schema = self.loc, self.schema
        for where, sub in schemas_in(schema):
            props = sub.get("properties")
            if not isinstance(props, dict):
                continue
            for name, details in props.items():
                site = loc.site(list(where) + ["properties", name])
                if name[:1].islower():
                    self.report("S6001", f"property `{name}` starts with a lowercase letter", site,
                                "give the member an @aws.cloudformation#cfnName starting with a capital letter")
                if not isinstance(details, dict) or "type" not in details:
                    continue
                kind = details["type"]
                if kind == "array" and "insertionOrder" not in details:
                    self.report("S6002", f"array property `{name}` has no insertionOrder", site,
                                "use the default compatibility mode (it writes insertionOrder), or add "
                                "@uniqueItems to the list if its order does not matter")
                if kind != "array" and "arrayType" in details:
                    self.report("S6003", f"property `{name}` has arrayType but is not an array", site,
                                "remove the arrayType added by jsonAdd or an extension")
                for types, allowed in KEYWORD_MAPPINGS:
                    wrong = (TYPE_SPECIFIC_KEYWORDS - allowed) & set(details) if isinstance(kind, str) else set()
                    if wrong and kind in types:
                        self.report("S6004", f"property `{name}` of type {kind} has keyword(s) "
                                             f"{', '.join(sorted(wrong))}", site,
                                    f"remove the trait that gives {sorted(wrong)[0]} (e.g. @length or @range on a "
                                    "member of another type)")
            if props and sub.get("additionalProperties") is not False:
                self.report("S6012", f"object `{'/'.join(where) or 'schema'}` with properties does not set "
                                     "additionalProperties to false", loc.site(list(where)),
                            "remove the jsonAdd or extension that opens the object")
        for where, value in walk(schema):
            if where and where[-1] == "pattern" and isinstance(value, str):
                self.pattern_checks(where, value)
            elif where and where[-1] == "enum" and isinstance(value, list) and len(value) > MAX_ENUM:
                site = self.enum_site(list(where))
                self.report("S6007", f"an enum of {len(value)} values (over {MAX_ENUM}) at {'/'.join(where[:-1])}",
                            site, "if the values change often (instance types, regions...), model the member as "
                                  "a plain string and document the values")
        text = json.dumps(schema, ensure_ascii=False)
        if re.search(r"[^ -~]", text):
            self.non_ascii()
        names = {str(n).lower(): n for n in self.obj("properties")}
        for lower in sorted(LIST_OPTIONS & set(names)):
            self.report("S6009", f"property `{names[lower]}` is a LIST API input, not a resource property",
                        loc.property_site(names[lower]),
                        "add @aws.cloudformation#cfnExcludeProperty to the member, or @notProperty")
        read_only = set(self.pointer_list("readOnlyProperties"))
        create_only = set(self.pointer_list("createOnlyProperties"))
        write_only = set(self.pointer_list("writeOnlyProperties"))
        required = {"/properties/" + r for r in self.arr("required") if isinstance(r, str)}
        for pointer in sorted(read_only & (create_only | write_only | required)):
            others = [n for n, s in (("createOnly", create_only), ("writeOnly", write_only), ("required", required))
                      if pointer in s]
            self.report("S6010", f"{pointer} is readOnly and {', '.join(others)}", loc.pointer_site(pointer),
                        "a readOnly property cannot be set: remove @required, or fix its "
                        "@aws.cloudformation#cfnMutability")
        for handler, body in sorted(self.obj("handlers").items()):
            for permission in body.get("permissions", []) if isinstance(body, dict) else []:
                if isinstance(permission, str) and "*" in permission:
                    self.report("S6011", f"the {handler} handler's permission `{permission}` is a wildcard",
                                self.permission_site(handler, permission),
                                "name the exact actions in the operation's @aws.iam#iamAction requiredActions")
        for pointer in self.pointer_list("primaryIdentifier"):
            if pointer not in read_only and pointer not in create_only:
                self.report("S6013", f"primaryIdentifier {pointer} is neither readOnly nor createOnly",
                            loc.pointer_site(pointer),
                            "an identifier is set once: mark the member @aws.cloudformation#cfnMutability(\"create\") "
                            "or (\"read\")")
        conditional = set(self.pointer_list("conditionalCreateOnlyProperties"))
        for pointer in sorted(conditional & (create_only | read_only)):
            self.report("S6014", f"{pointer} is conditionalCreateOnly and createOnly or readOnly",
                        loc.pointer_site(pointer), "remove it from conditionalCreateOnlyProperties (jsonAdd)")
        if "tagging" not in schema:
            self.report("S6015", "the schema has no `tagging`", loc.trait_site(TAGGABLE),
                        "use the default compatibility mode, or add @aws.api#taggable to the resource")
        if "remote" in schema:
            self.report("S6016", "the schema has a top-level `remote`, reserved for CloudFormation",
                        loc.resource_site(), "remove `remote` from jsonAdd / schemaDocumentExtensions")

    def pattern_checks(self, where: tuple[str, ...], pattern: str) -> None:
        """``S6005`` (``arn:aws:`` in a pattern) and ``S6006`` (a pattern Python ``re``
        cannot compile, or with a construct ECMA-262 lacks), at the ``@pattern`` trait."""
        site = self.loc.site(list(where))
        if "arn:aws:" in pattern:
            self.report("S6005", f"pattern hard-codes the aws partition: {pattern}", site,
                        "write the partition as arn:aws[a-z-]*: (or arn:[^:]+:) in the @pattern")
        problem = python_regex_problem(pattern) or ecma_problem(pattern)
        if problem:
            self.report("S6006", f"pattern cannot be used by CloudFormation ({problem}): {pattern}", site,
                        "rewrite the @pattern with constructs both ECMA-262 and Python accept (e.g. "
                        "[A-Za-z] instead of \\p{L}, no inline (?i) flags)")

    def enum_site(self, parts: list[str]) -> Site:
        """An ``enum`` keyword: the enum shape it is written from."""
        site = self.loc.site(parts[:-1])
        shape = self.model.get(site.shape_id)
        if shape is not None and shape.type not in ("enum", "intEnum"):
            member = self.model.member(site.shape_id) if "$" in site.shape_id else None
            target = self.model.get(member.target) if member is not None else None
            if target is not None:
                return self.loc.site(parts)
        return site

    def permission_site(self, handler: str, permission: str) -> Site:
        """The operation whose ``requiredActions`` hold ``permission`` (else the handler's)."""
        plan = next((h for h in self.rplan.handlers if h.name == handler), None)
        for op in plan.operations if plan else ():
            shape = self.model.get(op)
            if shape is not None and permission in json.dumps(shape.traits, default=str):
                return Site(shape.span, self.resource.id)
        return self.loc.operation_site(handler)

    def non_ascii(self) -> None:
        """S6008 at each text holding non-ASCII characters (one per place)."""
        reported: set[tuple[str, int, int]] = set()
        for where, value in walk(self.schema):
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
                site = self.loc.site(list(where))
                key = (site.span.path if site.span else "", site.span.line if site.span else 0,
                       site.span.column if site.span else 0)
                if key in reported:
                    continue
                reported.add(key)
                self.report("S6008", f"non-ASCII characters {', '.join(repr(c) for c in chars[:5])} at "
                                     f"{'/'.join(where) or 'schema'}", site,
                            "write the text (usually @documentation) in ASCII: '-' for dashes, plain quotes")

    # -- guard-rail: identifiers, pointers -------------------------------------------

    def identifiers_and_pointers(self) -> None:
        """guard-rail PID001/PID002 (``S6101``), PID004 (``S6102``), PR005–PR008 and the
        contract's "every pointer resolves" (``S6103``)."""
        loc, schema = self.loc, self.schema
        primary = schema.get("primaryIdentifier")
        if not isinstance(primary, list) or not primary:
            self.report("S6101", "primaryIdentifier is missing or empty", loc.resource_site(),
                        "give the resource identifiers")
        write_only = set(self.pointer_list("writeOnlyProperties"))
        for pointer in self.pointer_list("primaryIdentifier"):
            if pointer in write_only:
                self.report("S6102", f"primaryIdentifier {pointer} is writeOnly", loc.pointer_site(pointer),
                            "an identifier is read back: remove @aws.cloudformation#cfnMutability(\"write\")")
        for key in ("primaryIdentifier", "readOnlyProperties", "createOnlyProperties", "writeOnlyProperties",
                    "deprecatedProperties", "conditionalCreateOnlyProperties"):
            for pointer in self.pointer_list(key):
                if not self.resolves(pointer):
                    self.report("S6103", f"{key} names {pointer}, which is not a property of the schema",
                                loc.resource_site(), "fix the jsonAdd, or the identifier/property it names")
        for ids in self.arr("additionalIdentifiers"):
            for pointer in ids if isinstance(ids, list) else []:
                if isinstance(pointer, str) and not self.resolves(pointer):
                    self.report("S6103", f"additionalIdentifiers names {pointer}, which is not a property of "
                                         "the schema", loc.resource_site(),
                                "fix the @aws.cloudformation#cfnAdditionalIdentifier member")

    # -- guard-rail: handlers --------------------------------------------------------

    def handlers(self) -> None:
        """guard-rail PER001–PER011 (``S6104``–``S6109``; wildcards are ``S6011``): each
        handler exists and has specific permissions; the contract's create, read, delete."""
        handlers = self.schema.get("handlers")
        handlers = handlers if isinstance(handlers, dict) else {}
        lifecycle = {"create": "create (or put)", "read": "read", "delete": "delete", "list": "list",
                     "update": "update (or put without @noReplace)"}
        codes = {"create": "S6104", "read": "S6105", "delete": "S6108", "list": "S6109"}
        planned = {h.name for h in self.rplan.handlers}
        for name, code in codes.items():
            site = self.loc.operation_site(name)
            if name not in handlers:
                if name in planned:
                    self.report(code, f"the schema has no {name} handler (the model has one; the handlers were "
                                      "left out of the schema)", site,
                                "do not set disableHandlerPermissionGeneration (or remove the jsonAdd that drops "
                                "handlers)")
                else:
                    self.report(code, f"the resource has no {name} handler", self.loc.resource_site(),
                                f"bind a {lifecycle[name]} lifecycle operation to {self.resource.id}")
                continue
            self.permission_checks(name, handlers[name], code, site)
        if "update" not in handlers:
            self.report("S6106", "the resource has no update handler, so every change replaces it",
                        self.loc.resource_site(), f"bind an update lifecycle operation to {self.resource.id} "
                                                  "if its properties can change in place")
        else:
            self.permission_checks("update", handlers["update"], "S6107", self.loc.operation_site("update"))

    def permission_checks(self, name: str, handler: Any, code: str, site: Site) -> None:
        """A handler's permissions are a non-empty list (``code``) without guard-rail's
        wildcard notation (``S6011``)."""
        permissions = handler.get("permissions") if isinstance(handler, dict) else None
        if not isinstance(permissions, list) or not permissions:
            self.report(code, f"the {name} handler has no permissions", site,
                        "do not disable handler permission generation; give the operation "
                        "@aws.iam#iamAction requiredActions")
            return
        for permission in permissions:
            if isinstance(permission, str) and WILDCARD_NOTATION.match(permission):
                self.report("S6011", f"the {name} handler's permission `{permission}` is a wildcard",
                            self.permission_site(name, permission),
                            "name the exact actions in the operation's @aws.iam#iamAction requiredActions")

    # -- guard-rail: tagging, registry tagging -----------------------------------------

    def tagging(self) -> None:
        """guard-rail TAG001–TAG019 (``S6110``–``S6117``, ``S6124``) and the registry's
        ``tagUpdatable`` check (``S6130``)."""
        loc, schema = self.loc, self.schema
        site = loc.trait_site(TAGGABLE)
        tagging = schema.get("tagging")
        if "taggable" in schema:
            self.report("S6124", "the schema has the deprecated top-level `taggable`", site,
                        "remove `taggable` (jsonAdd / schemaDocumentExtensions): `tagging` replaces it")
        if tagging is None:
            return
        if not isinstance(tagging, dict):
            self.report("S6124", "`tagging` is not an object", site, "remove the jsonAdd that sets `tagging`")
            return
        if "taggable" not in tagging:
            self.report("S6124", "`tagging` has no `taggable`", site, "remove the jsonAdd that changes `tagging`")
            return
        if tagging["taggable"] is not True:
            self.report("S6110", "the resource is not taggable (`tagging.taggable` is false)", loc.resource_site(),
                        "add @aws.api#taggable to the resource, with TagResource, UntagResource and "
                        "ListTagsForResource operations on the service (@aws.api#tagEnabled)")
            tag_path = self.tag_path()
            if tag_path is not None:
                self.report("S6111", f"the resource is not taggable but has the tag-like property {tag_path}",
                            loc.pointer_site(tag_path),
                            "add @aws.api#taggable to the resource, or rename the member (@aws.cloudformation#cfnName) "
                            "if it does not hold the resource's tags")
            return
        missing = [k for k in ("tagOnCreate", "tagUpdatable", "cloudFormationSystemTags", "tagProperty",
                               "permissions") if k not in tagging]
        if missing:
            self.report("S6112", f"`tagging` lacks {', '.join(missing)}", site,
                        "do not remove tagging fields with jsonAdd; @aws.api#taggable gives them")
        if "Tags" not in self.obj("properties"):
            self.report("S6113", "the resource is taggable but has no `Tags` property", site,
                        "name the tags property Tags (@aws.api#taggable(property: \"tags\") or "
                        "@aws.cloudformation#cfnName(\"Tags\"))")
        tag_property = tagging.get("tagProperty")
        if isinstance(tag_property, str):
            prop_site = loc.pointer_site(tag_property)
            if not self.resolves(tag_property):
                self.report("S6114", f"tagProperty {tag_property} is not a property of the schema", site,
                            "set @aws.api#taggable property to a member of the resource")
            if "*" in tag_property:
                self.report("S6117", f"tagProperty {tag_property} holds a wildcard", site,
                            "name the tags property itself in @aws.api#taggable")
            if tag_property in self.pointer_list("writeOnlyProperties"):
                self.report("S6115", f"tagProperty {tag_property} is writeOnly", self.mutability_site(prop_site,
                                                                                                     tag_property),
                            "return the tags from the read operation, or give the service TagResource, "
                            "UntagResource and ListTagsForResource operations")
            if tag_property in self.pointer_list("createOnlyProperties"):
                self.report("S6116", f"tagProperty {tag_property} is createOnly"
                                     + (" while tagUpdatable is true" if tagging.get("tagUpdatable") is True else ""),
                            self.mutability_site(prop_site, tag_property),
                            "put the tags member in the update input, or give the service TagResource and "
                            "UntagResource operations")
        if tagging.get("tagUpdatable") is True and "update" not in self.obj("handlers"):
            planned = any(h.name == "update" for h in self.rplan.handlers)
            self.report("S6130", "tagUpdatable is true but the schema has no update handler"
                                 + (" (the model has one; the handlers were left out of the schema)" if planned else ""),
                        site, "do not leave out the handlers (disableHandlerPermissionGeneration, jsonAdd)" if planned
                        else "bind an update lifecycle operation, or set tagUpdatable false",
                        Severity.WARNING if planned else Severity.ERROR)

    def mutability_site(self, fallback: Site, pointer: str) -> Site:
        """Where a property's mutability is decided: its ``cfnMutability`` trait if any."""
        prop = self.loc.property(pointer.rsplit("/", 1)[-1])
        if prop is not None:
            for source in reversed(prop.sources):
                if source.trait == CFN_MUTABILITY and source.span is not None:
                    return Site(source.span, fallback.shape_id)
        return fallback

    # -- guard-rail: properties (ARN, COM) -------------------------------------------

    def properties(self) -> None:
        """guard-rail ARN001/ARN002 (``S6118``) and COM001–COM006 (``S6119``, ``S6120``) on
        the top-level properties."""
        loc = self.loc
        for name, details in sorted(self.obj("properties").items()):
            site = loc.property_site(name)
            if not isinstance(details, dict):
                continue
            if ARN_NAME.search(name):
                resolved = self.resolve(details)
                if resolved.get("type") != "string" or "pattern" not in resolved:
                    what = "is not a string" if resolved.get("type") != "string" else "has no pattern"
                    self.report("S6118", f"ARN property `{name}` {what}", site,
                                "target a string shape with an ARN @pattern (e.g. ^arn:aws[a-z-]*:...)")
            resolved = self.resolve(details)
            if "type" not in resolved:  # guard-rail checks the property with its $ref resolved
                if any(k in resolved for k in ("oneOf", "anyOf", "allOf")):
                    self.report("S6119", f"property `{name}` is a union (oneOf) without a type", site,
                                "CloudFormation wants a typed property: target a structure of optional members "
                                "instead of the union, or suppress CfnLint.GuardRail.PropertyType")
                else:
                    self.report("S6119", f"property `{name}` has no type", site,
                                "give the member a target with a JSON type (a document has none)")
            if isinstance(details.get("type"), list):
                self.report("S6119", f"property `{name}` has several types", site, "target one shape type")
            if details.get("type") == "array":
                items = self.resolve(details.get("items"))  # guard-rail reads the items resolved
                if not isinstance(items, dict):
                    self.report("S6120", f"array property `{name}` has no items", site, "target a list shape")
                else:
                    for combiner in ("anyOf", "allOf", "oneOf"):
                        if combiner in items:
                            self.report("S6120", f"array property `{name}` gives its items with {combiner}",
                                        loc.site(["properties", name, "items"]),
                                        "make the list member target a structure instead of a union")

    # -- guard-rail: general ---------------------------------------------------------

    def general(self) -> None:
        """guard-rail GN001–GN003 (``S6121``–``S6123``)."""
        description = self.schema.get("description")
        if not (isinstance(description, str) and description.startswith("Resource Type definition for")):
            self.report("S6121", "the description does not start with `Resource Type definition for`",
                        self.loc.trait_site(DOCUMENTATION),
                        f"start the resource's @documentation with \"Resource Type definition for "
                        f"{self.schema.get('typeName', '...')}\"")
        source_url = self.schema.get("sourceUrl")
        if isinstance(source_url, str) and not source_url.startswith("https:"):
            self.report("S6122", f"sourceUrl {source_url} does not use https", self.loc.resource_site(),
                        "use an https:// link in @externalDocumentation")
        if self.schema.get("replacementStrategy") == "create_then_delete":
            self.report("S6123", "replacementStrategy is create_then_delete", self.loc.resource_site(),
                        "remove replacementStrategy from jsonAdd / schemaDocumentExtensions")

    # -- handler contract ------------------------------------------------------------

    def output_names(self, operation: str | None) -> set[str] | None:
        """Member names of an operation's output (``None``: no such operation)."""
        shape = self.model.get(operation) if operation else None
        if shape is None:
            return None
        output = self.model.get(shape.output) if shape.output else None
        return set(output.members) if output is not None else set()

    def contract(self) -> None:
        """The handler contract as the model shows it (``S6201``–``S6206``): read returns
        every readable property (members of structures its output nests count), read and
        delete require identifiers only, create returns (or is given) the primary
        identifier, list returns the identifiers (or a list of the single identifier's
        shape), no writeOnly property in a read or list output, primary identifiers are
        strings or integers."""
        model, resource, loc = self.model, self.resource, self.loc
        read_shape = model.get(resource.read) if resource.read else None
        # what read returns: its output's members, and those of the structures it nests (a
        # `Key` wrapper holding the properties counts)
        read_out = self.reachable(read_shape.output)[0] if read_shape is not None else None
        bindings = model.knowledge(IdentifierBindingIndex)
        identifiers = set(resource.identifiers)
        for prop in self.rplan.properties:
            if prop.schema_name not in self.obj("properties"):
                continue
            member_names = {sid.rsplit("$", 1)[-1] for sid in prop.shape_ids if "$" in sid} | {prop.name}
            # S6201: readable, but the read operation does not return it
            if (read_out is not None and not prop.write_only and not prop.is_tags and prop.name not in identifiers
                    and not (member_names & read_out) and not self.is_tag_property(prop.schema_name)):
                self.report("S6201", f"property `{prop.schema_name}` is not writeOnly, but the read operation "
                                     f"{resource.read} does not return it", loc.property_site(prop.schema_name),
                            f"add `{prop.name}` to the output of {resource.read}, or mark the member "
                            "@aws.cloudformation#cfnMutability(\"write\")")
            # S6205: writeOnly, but read or list returns it
            if prop.write_only:
                for op in (resource.read, resource.list):
                    out = self.output_names(op)
                    if out and member_names & out:
                        self.report("S6205", f"property `{prop.schema_name}` is writeOnly but {op} returns it",
                                    self.mutability_site(loc.property_site(prop.schema_name), prop.pointer),
                                    "remove @aws.cloudformation#cfnMutability(\"write\") from the member, or the "
                                    f"member from the output of {op}")
        # S6202: read and delete inputs are identifiers only
        for handler in ("read", "delete"):
            op = getattr(resource, handler)
            shape = model.get(op) if op else None
            inputs = model.get(shape.input) if shape is not None and shape.input else None
            if inputs is None:
                continue
            bound = set(bindings.input_bindings(resource.id, op).values())  # member names
            for name, member in inputs.members.items():
                if name in bound or name in identifiers or REQUIRED not in member.traits:
                    continue
                self.report("S6202", f"the {handler} input {inputs.id} requires `{name}`, which is not an "
                                     "identifier: CloudFormation calls the handler with the identifiers only",
                            Site(member.span, member.id),
                            f"make `{name}` optional, or bind it as an identifier (@resourceIdentifier)")
        # S6203: create returns the primary identifier
        create = resource.create
        if create and model.get(create) is not None:
            out, _ = self.reachable(model.get(create).output)
            bound_in = set(bindings.input_bindings(resource.id, create))
            bound_out = set(bindings.output_bindings(resource.id, create))
            for name in self.rplan.primary_identifier:
                if name in bound_in or name in bound_out or name in out:
                    continue  # given by the caller, or returned (at any depth of the output)
                self.report("S6203", f"the create operation {create} does not return the primary identifier "
                                     f"`{name}`", loc.operation_site("create"),
                            f"add `{name}` to the output of {create} (bound with @resourceIdentifier if its name "
                            "differs)")
        # S6204: list returns identifiers
        if resource.list and model.get(resource.list) is not None:
            names, targets = self.reachable(model.get(resource.list).output)
            missing = [n for n in self.rplan.primary_identifier
                       if n not in names and not (len(self.rplan.primary_identifier) == 1
                                                  and resource.identifiers.get(n) in targets)]
            if missing:
                self.report("S6204", f"the list operation {resource.list} does not return the identifier(s) "
                                     f"{listed(missing)}", loc.operation_site("list"),
                            f"return a list of summaries holding {listed(missing)} from {resource.list}")
        # S6206: primaryIdentifier properties are strings or integers
        for pointer in self.pointer_list("primaryIdentifier"):
            details = self.resolve(self.obj("properties").get(pointer.rsplit("/", 1)[-1]))
            if isinstance(details, dict) and details.get("type") not in ("string", "integer"):
                self.report("S6206", f"primaryIdentifier {pointer} is of type {details.get('type', 'none')}",
                            loc.pointer_site(pointer), "make the identifier target a string (or integer) shape")

    def is_tag_property(self, schema_name: str) -> bool:
        """The schema's ``tagging.tagProperty`` is this property."""
        tagging = self.schema.get("tagging")
        return isinstance(tagging, dict) and tagging.get("tagProperty") == "/properties/" + schema_name

    def reachable(self, shape_id: str | None) -> tuple[set[str], set[str]]:
        """Member names of a structure and of the structures its members reach, and the
        targets of the list members it reaches, up to 4 levels (a list output's summaries,
        or a list of identifiers)."""
        names: set[str] = set()
        targets: set[str] = set()
        seen: set[str] = set()
        stack = [(shape_id, 0)]
        while stack:
            sid, depth = stack.pop()
            shape = self.model.get(sid) if sid else None
            if shape is None or depth > 4 or shape.id in seen:
                continue
            seen.add(shape.id)
            for name, member in shape.members.items():
                if shape.type in ("structure", "union"):
                    names.add(name)
                elif shape.type in ("list", "set"):
                    targets.add(member.target)
                stack.append((member.target, depth + 1))
        return names, targets


__all__ = ["RULES", "ResourceLint", "ecma_problem", "python_regex_problem", "schemas_in", "walk"]
