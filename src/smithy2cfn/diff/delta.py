"""What changed between two versions of one resource schema, keyword by keyword.

resource-schema-guard-rail's stateful mode (``core/stateful.py``) resolves every ``$ref`` of
both schemas (``utils/schema_utils.resolve_schema``: each property's schema inlined, a
definition already being resolved on the way stops the recursion), diffs them with DeepDiff
and sorts the differences into a "meta-diff": properties added and removed (nested ones as
``/properties/A/B``, through array items as ``/properties/A/*/B``), and for each JSON Schema
keyword (``type``, ``enum``, ``maxLength``, ``required``...) the nodes where it was added,
removed or changed. Its rules read that meta-diff.

:func:`schema_delta` makes the same kind of record, our own way: it walks the two schemas
side by side and resolves ``$ref`` as it goes, comparing each pair of definitions once
(guard-rail inlines every use, which grows with the number of paths to a definition). A
difference is a :class:`Change`: the keyword, added / removed / changed, the node's JSON
pointer segments in the *resolved* schema (``("properties", "A", "items", "properties",
"B")``, which :class:`smithy2cfn.lint.locate.Locator` follows through the model) and the old
and new values. The top-level CloudFormation lists (``primaryIdentifier``,
``createOnlyProperties``...), ``handlers`` and ``tagging`` are not walked here: the rules read
them from the schemas themselves.
"""

from __future__ import annotations

from collections.abc import Iterator

from smithy2cfn.records import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ADDED, REMOVED, CHANGED = "added", "removed", "changed"

#: Keywords of a (sub)schema holding subschemas, walked rather than compared as values.
CHILD_MAPS = ("properties", "patternProperties")
CHILD_LISTS = ("allOf", "anyOf", "oneOf")
#: Top-level keys of a resource schema that are not a schema node's keywords (the rules
#: compare them directly); ``definitions`` is only reached through ``$ref``.
RESOURCE_KEYS = frozenset({
    "typeName", "sourceUrl", "documentationUrl", "definitions", "handlers", "tagging", "primaryIdentifier",
    "additionalIdentifiers", "readOnlyProperties", "writeOnlyProperties", "createOnlyProperties",
    "conditionalCreateOnlyProperties", "nonPublicProperties", "nonPublicDefinitions", "deprecatedProperties",
    "propertyTransform", "replacementStrategy", "resourceLink", "sourceCodeUrl", "taggable", "$schema", "$id",
    "remote", "typeConfiguration", "$comment",
})
#: At most this many pairs of nodes are compared per schema pair (a schema is at most a
#: few MB; this bounds a hostile one whose definitions reference each other in a lattice).
MAX_NODES = 200_000
#: At most this many levels of subschemas are walked (a chain of ``$ref`` can nest as deep as
#: a schema has definitions; below this the walk stops, ``Delta.truncated``).
MAX_DEPTH = 150


class Change(Record, frozen=True):
    """One difference between the old and the new schema.

    Attributes:
        keyword: the JSON Schema keyword (``"maxLength"``, ``"required"``, ``"enum"``...), or
            ``"property"`` for a property added or removed (``parts`` is then the property's
            own pointer), ``"patternProperties"``, ``"items"``, ``"additionalProperties"``
            for a whole subschema added or removed.
        kind: ``"added"``, ``"removed"`` or ``"changed"``.
        parts: JSON pointer segments of the node in the resolved schema (``()`` is the
            schema itself).
        old / new: the keyword's value on each side (``None`` where it is absent). For
            items added to or removed from a ``required`` or ``enum`` list that both sides
            have, the items concerned are on their side (``old`` for removed, ``new`` for
            added) and the other side holds its whole list.
    """

    keyword: str
    kind: str
    parts: tuple[str, ...]
    old: Any
    new: Any

    def __init__(self, keyword: str, kind: str, parts: tuple[str, ...], old: Any = None, new: Any = None) -> None:
        self.__dict__.update(keyword=keyword, kind=kind, parts=parts, old=old, new=new)

    @property
    def path(self) -> str:
        """The node as guard-rail names it (:func:`guard_path`)."""
        return guard_path(self.parts)

    @property
    def pointer(self) -> str:
        """``parts`` as a JSON pointer (``/properties/A/items``)."""
        return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in self.parts)


def guard_path(parts: tuple[str, ...] | list[str]) -> str:
    """A node's path as guard-rail's meta-diff writes it (``stateful._cast_path``): the first
    ``properties`` kept, nested ``properties`` segments left out, ``items`` followed by
    ``properties`` written ``*`` (``("properties", "A", "items", "properties", "B")`` →
    ``/properties/A/*/B``)."""
    out: list[str] = []
    i = 0
    while i < len(parts):
        keyword = parts[i]
        name = parts[i + 1] if i + 1 < len(parts) else None
        if keyword == "items" and name == "properties":
            out += ["*", *parts[i + 2:i + 3]]
            i += 3
        elif keyword in CHILD_MAPS:
            if not (keyword == "properties" and i > 0):
                out.append(keyword)
            out += parts[i + 1:i + 2]
            i += 2
        elif keyword in CHILD_LISTS:
            out.append(keyword)  # guard-rail drops list indexes
            i += 2
        else:
            out.append(keyword)
            i += 1
    return "/" + "/".join(out)


def equal(a: Any, b: Any) -> bool:
    """JSON equality as DeepDiff sees it with ``ignore_type_in_groups=numbers``: ``1 == 1.0``,
    but ``true`` is not ``1``; lists in order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(equal(v, b[k]) for k, v in a.items())
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _key(value: Any) -> Any:
    """A hashable stand-in for a JSON value (list items compared as sets)."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, (int, float)):
        return ("n", float(value))
    if isinstance(value, dict):
        return ("o", tuple(sorted((k, _key(v)) for k, v in value.items())))
    if isinstance(value, list):
        return ("a", tuple(_key(v) for v in value))
    return ("s", value) if isinstance(value, str) else ("x", repr(value))


def items_added(old: list[Any], new: list[Any]) -> list[Any]:
    """Items of ``new`` not in ``old``, in ``new``'s order (lists compared ignoring order,
    as guard-rail does for every list but ``primaryIdentifier``)."""
    have = {_key(v) for v in old}
    return [v for v in new if _key(v) not in have]


class Delta(Record, frozen=True):
    """Every :class:`Change` between two resource schemas, in walk order, and the properties
    the new schema adds (guard-rail's ``properties.added``, nested ones included: the
    paths a rule accepts as "newly added")."""

    changes: tuple[Change, ...]
    added_paths: frozenset[str]
    truncated: bool

    def __init__(self, changes: tuple[Change, ...], added_paths: frozenset[str], truncated: bool = False) -> None:
        self.__dict__.update(changes=changes, added_paths=added_paths, truncated=truncated)

    def of(self, keyword: str, kind: str | None = None) -> Iterator[Change]:
        """The changes of ``keyword`` (and ``kind``, when given)."""
        return (c for c in self.changes if c.keyword == keyword and (kind is None or c.kind == kind))


class _Walk:
    """One side-by-side walk of two schemas (see :func:`schema_delta`)."""

    def __init__(self, old_root: dict[str, Any], new_root: dict[str, Any]) -> None:
        self.roots = (old_root, new_root)
        self.changes: list[Change] = []
        self.added: set[str] = set()
        self.pairs: set[tuple[str, str]] = set()
        self.nodes = 0
        self.truncated = False

    def resolve(self, side: int, node: Any, seen: frozenset[str]) -> tuple[Any, frozenset[str], str | None]:
        """``node`` with its ``$ref`` chain followed (the referenced definition's keywords
        win, as ``dict.update`` does in guard-rail) and its ``allOf`` parts merged into it
        (the node's own keywords first), the refs followed added to ``seen``, and the last
        ref followed; a ref already in ``seen`` (recursion) or that points nowhere is dropped."""
        ref_followed = None
        for _ in range(64):
            if not isinstance(node, dict) or not isinstance(node.get("$ref"), str):
                break
            ref = node["$ref"]
            rest = {k: v for k, v in node.items() if k != "$ref"}
            target = _pointer(self.roots[side], ref) if ref not in seen else None
            if not isinstance(target, dict):
                node = rest
                break
            node = {**rest, **target}
            seen = seen | {ref}
            ref_followed = ref
        if isinstance(node, dict) and isinstance(node.get("allOf"), list):
            # a subschema that is all of several (the emitter writes a member's default next to
            # its target's $ref that way): compared as one node, its parts' keywords merged
            merged = {k: v for k, v in node.items() if k != "allOf"}
            for part in node["allOf"]:
                part, seen, _ = self.resolve(side, part, seen)
                if isinstance(part, dict):
                    for key, value in part.items():
                        merged.setdefault(key, value)
            node = merged
        return node, seen, ref_followed

    def node(self, old: Any, new: Any, parts: tuple[str, ...], seen: tuple[frozenset[str], frozenset[str]],
             root: bool = False) -> None:
        """Compare two subschemas at ``parts``."""
        self.nodes += 1
        if self.nodes > MAX_NODES or len(parts) > 2 * MAX_DEPTH:
            self.truncated = True
            return
        old, old_seen, old_ref = self.resolve(0, old, seen[0])
        new, new_seen, new_ref = self.resolve(1, new, seen[1])
        if old_ref is not None and new_ref is not None:
            if (old_ref, new_ref) in self.pairs:
                return  # this pair of definitions is compared already (its changes are reported once)
            self.pairs.add((old_ref, new_ref))
        if not isinstance(old, dict) or not isinstance(new, dict):
            if not equal(old, new):
                self.changes.append(Change("schema", CHANGED, parts, old, new))
            return
        sides = (old_seen, new_seen)
        for key in sorted(set(old) | set(new)):
            if root and key in RESOURCE_KEYS:
                continue
            a, b = old.get(key), new.get(key)
            if key in CHILD_MAPS:
                self.children(key, a if isinstance(a, dict) else {}, b if isinstance(b, dict) else {}, parts, sides)
            elif key in ("items", "additionalProperties") and (isinstance(a, dict) or isinstance(b, dict)):
                if isinstance(a, dict) and isinstance(b, dict):
                    self.node(a, b, parts + (key,), sides)
                elif not equal(a, b):
                    self.changes.append(Change(key, ADDED if key not in old else REMOVED if key not in new
                                               else CHANGED, parts, a, b))
            elif key in CHILD_LISTS and isinstance(a, list) and isinstance(b, list):
                for i in range(max(len(a), len(b))):
                    if i < len(a) and i < len(b):
                        self.node(a[i], b[i], parts + (key, str(i)), sides)
                    else:
                        self.changes.append(Change(key, ADDED if i >= len(a) else REMOVED, parts + (key, str(i)),
                                                   a[i] if i < len(a) else None, b[i] if i < len(b) else None))
            elif key not in old:
                self.changes.append(Change(key, ADDED, parts, None, b))
            elif key not in new:
                self.changes.append(Change(key, REMOVED, parts, a, None))
            elif key in ("required", "enum") and isinstance(a, list) and isinstance(b, list):
                gone, came = items_added(b, a), items_added(a, b)
                if gone:  # (the list the other side keeps: ``new``; see Change)
                    self.changes.append(Change(key, REMOVED, parts, gone, b))
                if came:
                    self.changes.append(Change(key, ADDED, parts, a, came))
            elif not equal(a, b):
                self.changes.append(Change(key, CHANGED, parts, a, b))

    def children(self, key: str, old: dict[str, Any], new: dict[str, Any], parts: tuple[str, ...],
                 seen: tuple[frozenset[str], frozenset[str]]) -> None:
        """Compare the subschemas under ``properties`` (or ``patternProperties``)."""
        what = "property" if key == "properties" else key
        for name in sorted(set(old) | set(new)):
            here = parts + (key, name)
            if name not in new:
                self.changes.append(Change(what, REMOVED, here, old[name], None))
            elif name not in old:
                self.changes.append(Change(what, ADDED, here, None, new[name]))
                self.mark_added(new[name], here, seen[1])
            else:
                self.node(old[name], new[name], here, seen)

    def mark_added(self, node: Any, parts: tuple[str, ...], seen: frozenset[str]) -> None:
        """Record a new property and the properties nested in it (guard-rail's
        ``_traverse_nested_properties``)."""
        stack = [(node, parts, seen)]
        while stack and len(self.added) < MAX_NODES:
            node, parts, seen = stack.pop()
            self.added.add(guard_path(parts))
            node, seen, _ = self.resolve(1, node, seen)
            if not isinstance(node, dict):
                continue
            items = node.get("items")
            if isinstance(items, dict):
                items, items_seen, _ = self.resolve(1, items, seen)
                if isinstance(items, dict) and isinstance(items.get("properties"), dict):
                    stack += [(v, parts + ("items", "properties", k), items_seen)
                              for k, v in items["properties"].items()]
            if isinstance(node.get("properties"), dict):
                stack += [(v, parts + ("properties", k), seen) for k, v in node["properties"].items()]


def _pointer(root: dict[str, Any], ref: str) -> Any:
    """The value a local ``$ref`` (``#/definitions/X``) names in ``root``, or ``None`` (the
    ``jsonpointer`` library resolves it)."""
    if not ref.startswith("#"):
        return None
    import jsonpointer

    try:
        return jsonpointer.resolve_pointer(root, ref[1:], None)
    except jsonpointer.JsonPointerException:
        return None


def schema_delta(old: dict[str, Any], new: dict[str, Any]) -> Delta:
    """The :class:`Delta` from resource schema ``old`` to ``new`` (any JSON objects: a
    schema written by hand or by a registry is read as it is; nothing is changed).

    The schemas' own nodes are compared from the top (``properties``, ``required``,
    ``description``, ``additionalProperties``...; not the keys of :data:`RESOURCE_KEYS`),
    then each property's subschema, ``$ref`` followed on each side. Never raises; after
    :data:`MAX_NODES` pairs of nodes, or :data:`MAX_DEPTH` levels down, the walk stops
    (``Delta.truncated``).
    """
    walk = _Walk(old, new)
    walk.node(old, new, (), (frozenset(), frozenset()), root=True)
    return Delta(tuple(walk.changes), frozenset(walk.added), walk.truncated)


__all__ = ["ADDED", "CHANGED", "REMOVED", "Change", "Delta", "equal", "guard_path", "items_added",
           "schema_delta"]
