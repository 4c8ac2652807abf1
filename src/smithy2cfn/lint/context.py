"""What a lint rule is given: one resource's emitted schema, its plan and the model, with the
helpers the rules share.

A lint rule (:func:`smithy2cfn.checks.lint_rule`) is a function ``rule_x(ctx) -> None`` that
reads ``ctx`` (a :class:`ResourceContext`) and calls :meth:`ResourceContext.report` for each
finding, at the model place that made the offending part of the schema (:mod:`.locate`).
The rules judge the schema as written (a ``jsonAdd`` or an extension may have written
anything, and such a schema is linted too), so every accessor here tolerates any JSON.

The walks several rules read (every subschema, every ``pattern`` and ``enum`` keyword) are
made once per schema and kept (:meth:`ResourceContext.subschemas`,
:meth:`ResourceContext.keyword_values`), so that one rule per code costs no more than one
walk per family of codes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from smithy2cfn.checks import Check
from smithy2cfn.derive.plan import ResourcePlan
from smithy2cfn.diagnostics import CODES, Diagnostic, Severity
from smithy2cfn.lint.locate import Locator, Site
from smithy2cfn.model.nodes import as_array, as_object, string_items
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.model.traits import CFN_MUTABILITY

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


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


#: The keywords whose values :meth:`ResourceContext.keyword_values` collects.
COLLECTED_KEYWORDS = ("pattern", "enum")


class ResourceContext:
    """One resource's schema as the lint rules see it.

    Args:
        model: the model the plan was derived from.
        rplan: the resource's plan.
        locator: maps schema pointers of this schema to model places.
        schema: the emitted schema (any JSON object: it is read, never changed).
        file_name: the schema's output file name (each message starts with it).

    Attributes:
        check: the rule running now (set by the runner, :func:`smithy2cfn.lint.run_rules`):
            :meth:`report` quotes its rule and accepts only its codes.
        found: the findings reported so far.
        undeclared: ``(check, code, message)`` for each finding whose code the running rule
            does not declare (the runner turns each into an internal error).
    """

    def __init__(self, model: Model, rplan: ResourcePlan, locator: Locator, schema: dict[str, Any],
                 file_name: str) -> None:
        self.model, self.rplan, self.loc, self.schema, self.file_name = model, rplan, locator, schema, file_name
        self.resource: Shape = locator.resource
        self.check: Check | None = None
        self.found: list[Diagnostic] = []
        self.undeclared: list[tuple[Check, str, str]] = []
        self._subschemas: list[tuple[tuple[str, ...], dict]] | None = None
        self._keywords: dict[str, list[tuple[tuple[str, ...], Any]]] | None = None

    def report(self, code: str, message: str, site: Site, hint: str | None, severity: Severity | None = None) -> None:
        """Record one finding of the running rule: ``"<file>: <message> (<rule>)"`` at
        ``site``, with the code's usual severity unless ``severity`` is given. A code the
        running rule does not declare is not recorded but kept in :attr:`undeclared`."""
        check = self.check
        if check is None or code not in check.codes:
            if check is not None:
                self.undeclared.append((check, code, message))
            return
        self.found.append(Diagnostic(code, severity or CODES[code].severity,
                                     f"{self.file_name}: {message} ({check.rule})", site.span, site.shape_id, hint))

    # -- the schema, whatever JSON it holds --------------------------------------------

    def obj(self, key: str) -> dict[str, Any]:
        """The object at a top-level key (``{}`` when absent or not an object)."""
        return as_object(self.schema.get(key))

    def arr(self, key: str) -> list[Any]:
        """The array at a top-level key (``[]`` when absent or not an array)."""
        return as_array(self.schema.get(key))

    def pointer_list(self, key: str) -> list[str]:
        """The strings of the array at a top-level key (``readOnlyProperties``...)."""
        return string_items(self.schema.get(key))

    def tagging(self) -> dict[str, Any] | None:
        """The schema's ``tagging`` when it is an object with a ``taggable`` key; ``None``
        otherwise (guard-rail's TAG001/TAG003/TAG005/TAG006, ``S6124``, report those)."""
        tagging = self.schema.get("tagging")
        return tagging if isinstance(tagging, dict) and "taggable" in tagging else None

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

    # -- walks made once per schema --------------------------------------------------

    def subschemas(self) -> list[tuple[tuple[str, ...], dict]]:
        """Every (sub)schema with its pointer segments (:func:`schemas_in`), made once."""
        if self._subschemas is None:
            self._subschemas = list(schemas_in(self.schema))
        return self._subschemas

    def keyword_values(self, keyword: str) -> list[tuple[tuple[str, ...], Any]]:
        """Every value written under the key ``keyword`` (one of :data:`COLLECTED_KEYWORDS`)
        anywhere in the schema, with its pointer segments, in document order; one walk of
        the schema (:func:`walk`) serves every keyword.

        Raises:
            KeyError: a keyword that is not collected.
        """
        if self._keywords is None:
            self._keywords = {k: [] for k in COLLECTED_KEYWORDS}
            for where, value in walk(self.schema):
                if where and where[-1] in self._keywords:
                    self._keywords[where[-1]].append((where, value))
        return self._keywords[keyword]

    # -- places in the model -----------------------------------------------------------

    def mutability_site(self, fallback: Site, pointer: str) -> Site:
        """Where a property's mutability is decided: its ``cfnMutability`` trait if any."""
        prop = self.loc.property(pointer.rsplit("/", 1)[-1])
        if prop is not None:
            for source in reversed(prop.sources):
                if source.trait == CFN_MUTABILITY and source.span is not None:
                    return Site(source.span, fallback.shape_id)
        return fallback


__all__ = ["COLLECTED_KEYWORDS", "ResourceContext", "schemas_in", "walk"]
