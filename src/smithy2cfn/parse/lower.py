"""Lowering an :class:`IdlFile` to a :class:`SourceDocument` (JSON-AST-shaped).

Does what the IDL adds on top of the JSON AST (Smithy 2.0 "Smithy IDL"):

* relative shape ID resolution (§"Relative shape ID resolution"): a ``use``d name, else the
  shape in the current namespace if it exists, else the prelude (``smithy.api``) shape if it
  exists, else the current namespace (the loader then reports it as unresolved) — for
  member targets, mixins, ``for``, trait names, ``apply`` targets, service / resource /
  operation references and unquoted trait and metadata values (§"Syntactic shape IDs");
* documentation comments → ``smithy.api#documentation`` (§"Documentation comment");
* inline ``:=`` input/output → structures ``<Operation><suffix>`` with ``smithy.api#input``
  / ``smithy.api#output`` (§"Inline input / output shapes");
* ``= value`` on a member → ``smithy.api#default``; on an enum member →
  ``smithy.api#enumValue`` (§"Enum shapes", §"IntEnum shapes", §"Structure shapes");
* enum members target ``smithy.api#Unit``; elided members (``$name``) become
  ``{"elided": true}`` and ``for`` becomes ``"for"`` (see :mod:`smithy2cfn.model.document`).

Diagnostic codes: ``S1011`` a member defined twice, a trait applied twice with different
values (applied twice with arrays, they concatenate; with equal values, it is kept once; a
shape defined twice is handed to the loader in ``duplicate_shapes``), ``S1014`` a shape name that
clashes with a ``use`` statement, ``S1017`` a member or body property that does not fit
the shape type (wrong member names of list/map, bad service/resource property values),
``S2025`` an unquoted node value (trait, metadata or default value, a shape ID in a service or
resource body) that resolves to no loaded shape (the reference's ``SyntacticShapeIdTarget``,
a DANGER: it fails validation unless suppressed, and the model is still validated).
"""

from __future__ import annotations

from smithy2cfn import garbage_collection
from smithy2cfn.diagnostics import Code, Severity, SourceLimiter, Span, declare_codes
from smithy2cfn.model.document import ApplyStatement, SourceDocument
from smithy2cfn.model.traits import DEFAULT, DOCUMENTATION, ENUM_VALUE, MIXIN, UNIT
from smithy2cfn.parse.idl import (
    IdlFile,
    MemberDef,
    ShapeDef,
    TraitApplication,
    UnquotedId,
)
from smithy2cfn.prelude import PRELUDE_NAMESPACE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S1017", Severity.ERROR, "Model",
         "wrong members for a list/map/enum, badly typed service/resource properties"),
    Code("S2025", Severity.DANGER, "SyntacticShapeIdTarget", "an unquoted node value names no shape"),
)

_RESOURCE_SINGLE = ("create", "put", "read", "update", "delete", "list")
_RESOURCE_LISTS = ("operations", "collectionOperations", "resources")
_RESOURCE_MAPS = ("identifiers", "properties")
_SERVICE_LISTS = ("operations", "resources", "errors")


class _Lowerer:
    def __init__(self, file: IdlFile, known: set[str] | frozenset[str]) -> None:
        self.file = file
        self.known = known
        self.ns = file.namespace
        self.uses = {u.name: u.shape_id for u in file.uses}
        self.doc = SourceDocument(path=file.path, version=file.version,
                                  ast={"smithy": file.version, "metadata": {}, "shapes": {}})
        self.report = SourceLimiter(self.doc.diagnostics)

    def error(self, code: str, message: str, span: Span | None, shape_id: str | None = None) -> None:
        self.report.add(code, Severity.ERROR, message, span, shape_id)

    # ---- resolution
    def resolve(self, name: str, namespace: str | None = "") -> str:
        """Resolve a shape ID as written to an absolute one (§"Relative shape ID resolution")."""
        if "#" in name:
            return name
        ns = self.ns if namespace == "" else namespace
        root, sep, member = name.partition("$")
        if root in self.uses:
            absolute = self.uses[root]
        elif ns and f"{ns}#{root}" in self.known:
            absolute = f"{ns}#{root}"
        elif f"{PRELUDE_NAMESPACE}#{root}" in self.known:
            absolute = f"{PRELUDE_NAMESPACE}#{root}"
        elif ns:
            absolute = f"{ns}#{root}"
        else:
            return name
        return absolute + sep + member

    def syntactic_id(self, node: UnquotedId, namespace: str | None) -> str:
        """Resolve an unquoted node value; report it when no shape has the resolved ID
        (the reference's ``SyntacticShapeIdTarget``)."""
        absolute = self.resolve(str(node), namespace)
        if absolute.partition("$")[0] not in self.known:
            shown = absolute if "#" in absolute else f"{PRELUDE_NAMESPACE}#{absolute}"
            self.report.add(
                "S2025", Severity.DANGER,
                f"Syntactic shape ID `{node}` does not resolve to a valid shape ID: `{shown}`. Did you mean to "
                "quote this string? Are you missing a model file?",
                node.span or Span(self.file.path), None,
                "quote the string if it is not meant as a shape ID, or load the model file that defines it",
                "SyntacticShapeIdTarget")
        return absolute

    def reference(self, name: str) -> str:
        """A shape ID of a service or resource body (``resources: [Queue]``): resolved as
        written; unquoted, it is also a syntactic shape ID (the reference parses the body as
        a node value), reported when it names no shape, besides the loader's ``Target``."""
        return self.syntactic_id(name, "") if isinstance(name, UnquotedId) else self.resolve(name)

    def value(self, node: Any, namespace: str | None = "") -> Any:
        """A node value as plain JSON, syntactic shape IDs resolved (iterative, any depth)."""
        if isinstance(node, UnquotedId):
            return self.syntactic_id(node, namespace)
        if not isinstance(node, (list, dict)):
            return node
        root: list[Any] = [None]
        stack: list[tuple[Any, Any, Any]] = [(node, root, 0)]
        while stack:
            src, parent, key = stack.pop()
            if isinstance(src, UnquotedId):
                parent[key] = self.syntactic_id(src, namespace)
            elif isinstance(src, list):
                out_l: list[Any] = [None] * len(src)
                parent[key] = out_l
                stack.extend((v, out_l, i) for i, v in enumerate(src))
            elif isinstance(src, dict):
                out_d: dict[str, Any] = dict.fromkeys(src)
                parent[key] = out_d
                stack.extend((v, out_d, k) for k, v in src.items())
            else:
                parent[key] = src
        return root[0]

    def traits(self, owner: str, traits: list[TraitApplication], docs: str | None,
               docs_span: Span | None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        seen: set[str] = set()
        spans: dict[str, Span] = {}  # (where each trait is applied: the document's, at the end)
        if docs is not None:
            # A "///" comment is the documentation trait: an @documentation with another value
            # conflicts with it, as in the reference (its traits merge in LoaderTraitMap).
            out[DOCUMENTATION] = docs
            seen.add(DOCUMENTATION)
            if docs_span is not None:
                spans[DOCUMENTATION] = docs_span
        for t in traits:
            trait_id = self.resolve(t.name)
            value = t.value if t.plain else self.value(t.value)
            if trait_id in seen:
                # The reference merges a trait applied twice (LoaderTraitMap.mergeTraits): two
                # arrays concatenate, an equal value is kept once, others conflict.
                previous = out[trait_id]
                if isinstance(previous, list) and isinstance(value, list):
                    out[trait_id] = previous + value
                elif previous != value:
                    self.error("S1011", f"Conflicting `{trait_id}` trait found on shape `{owner}`: it is "
                                        "applied twice with different values", t.span, owner)
                continue
            seen.add(trait_id)
            out[trait_id] = value
            spans[trait_id] = t.span
        if spans:  # (merged: a shape defined twice in a file gets its traits' spans from both)
            self.doc.trait_spans.setdefault(owner, {}).update(spans)
        return out

    # ---- shapes
    def lower(self) -> SourceDocument:
        f, doc = self.file, self.doc
        for key, value in f.metadata.items():
            # Metadata is outside any namespace: unquoted values resolve to the prelude only.
            doc.ast["metadata"][key] = self.value(value, None)
        doc.metadata_spans.update(f.metadata_spans)
        if f.namespace is None:
            return doc
        for u in f.uses:
            for s in f.all_shapes():
                if s.name == u.name:
                    self.error("S1014", f"shape name '{s.name}' conflicts with imported shape '{u.shape_id}'",
                               s.span, f"{self.ns}#{s.name}")
        for shape in f.shapes:
            self.shape(shape)
        for a in f.applies:
            target = self.resolve(a.target)
            stmt = ApplyStatement(target, {}, a.span, namespace=self.ns)
            for t in a.traits:
                trait_id = self.resolve(t.name)
                stmt.traits[trait_id] = self.value(t.value)
                stmt.trait_spans[trait_id] = t.span
            doc.applies.append(stmt)
        return doc

    def shape(self, s: ShapeDef, extra_traits: dict[str, Any] | None = None,
              into: dict[str, Any] | None = None) -> str:
        shape_id = f"{self.ns}#{s.name}"
        shapes = self.doc.ast["shapes"] if into is None else into
        if into is None and shape_id in shapes:
            # Defined again in this file: the loader merges an equal definition (the reference's
            # LoaderShapeMap) and reports a conflicting one.
            again: dict[str, Any] = {}
            self.shape(s, extra_traits, again)
            self.doc.duplicate_shapes.append((shape_id, again[shape_id], s.span))
            return shape_id
        body: dict[str, Any] = {"type": s.type}
        shapes[shape_id] = body
        self.doc.spans.setdefault(shape_id, s.span)
        if s.for_resource is not None:
            body["for"] = self.resolve(s.for_resource)
        if s.mixins:
            body["mixins"] = [{"target": self.resolve(m)} for m in s.mixins]
        if s.members is not None:
            self.members(shape_id, s, body)
        if s.body is not None:
            self.entity_body(shape_id, s, body)
        if s.type == "operation":
            for which in ("input", "output"):
                ref = getattr(s, which)
                if isinstance(ref, ShapeDef):
                    marker = {f"smithy.api#{which}": {}}
                    target = self.shape(ref, marker)
                    body[which] = {"target": target}
                elif ref is not None:
                    body[which] = {"target": self.resolve(ref)}
            if s.errors is not None:
                body["errors"] = [{"target": self.resolve(e)} for e in s.errors]
        traits = self.traits(shape_id, s.traits, s.docs, s.docs_span or s.span)
        if MIXIN in traits and self.file.version == "1.0":
            self.error("S1013", f"mixins can only be used with Smithy IDL version 2 or later; '{shape_id}' has "
                                "@mixin in a version 1.0 file", s.span, shape_id)
        if extra_traits:
            for k, v in extra_traits.items():
                traits.setdefault(k, v)
        if traits:
            body["traits"] = traits
        return shape_id

    def members(self, shape_id: str, s: ShapeDef, body: dict[str, Any]) -> None:
        fixed = {"list": ("member",), "set": ("member",), "map": ("key", "value")}.get(s.type)
        members: dict[str, Any] = {}
        seen: set[str] = set()
        for m in s.members or []:
            member_id = f"{shape_id}${m.name}"
            if m.name in seen:
                self.error("S1011", f"Duplicate member of `{shape_id}`: '{m.name}'", m.span, shape_id)
                continue
            seen.add(m.name)
            entry = self.member(member_id, m, s.type)
            self.doc.spans.setdefault(member_id, m.span)
            if fixed is not None:
                if m.name not in fixed:
                    allowed = "a `member` member" if len(fixed) == 1 else "`key` and `value` members"
                    self.error("S1017", f"{s.type.capitalize()} shapes may only have {allowed}, but found "
                                        f"`{m.name}`", m.span, shape_id)
                    continue
                body[m.name] = entry
            else:
                members[m.name] = entry
        if fixed is None:
            body["members"] = members
        # An enum without members of its own may get them from its mixins: the loader checks.

    def member(self, member_id: str, m: MemberDef, shape_type: str) -> dict[str, Any]:
        is_enum = shape_type in ("enum", "intEnum")
        entry: dict[str, Any] = {}
        if is_enum:
            entry["target"] = UNIT
        elif m.elided:
            entry["elided"] = True
        else:
            entry["target"] = self.resolve(m.target or "")
        traits = self.traits(member_id, m.traits, m.docs, m.docs_span or m.span)
        if m.has_value:
            trait_id = ENUM_VALUE if is_enum else DEFAULT
            if trait_id in traits:
                self.error("S1011", f"trait '{trait_id}' applied twice to '{member_id}'", m.value_span, member_id)
            traits[trait_id] = self.value(m.value)
            if m.value_span is not None:
                self.doc.trait_spans.setdefault(member_id, {})[trait_id] = m.value_span
        if traits:
            entry["traits"] = traits
        return entry

    def entity_body(self, shape_id: str, s: ShapeDef, body: dict[str, Any]) -> None:
        props = s.body or {}
        if s.type == "service":
            lists, singles, maps = _SERVICE_LISTS, (), ()
        else:
            lists, singles, maps = _RESOURCE_LISTS, _RESOURCE_SINGLE, _RESOURCE_MAPS
        for key, raw in props.items():
            if key in lists:
                if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
                    self.error("S1017", f"'{key}' of {s.type} '{shape_id}' must be a list of shape IDs",
                               s.span, shape_id)
                    continue
                body[key] = [{"target": self.reference(v)} for v in raw]
            elif key in singles:
                if not isinstance(raw, str):
                    self.error("S1017", f"'{key}' of resource '{shape_id}' must be a shape ID", s.span, shape_id)
                    continue
                body[key] = {"target": self.reference(raw)}
            elif key in maps:
                if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
                    self.error("S1017", f"'{key}' of resource '{shape_id}' must map names to shape IDs",
                               s.span, shape_id)
                    continue
                body[key] = {k: {"target": self.reference(v)} for k, v in raw.items()}
            elif key == "rename" and s.type == "service":
                if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
                    self.error("S1017", f"'rename' of service '{shape_id}' must map shape IDs to names",
                               s.span, shape_id)
                    continue
                body[key] = {self.resolve(k): str(v) for k, v in raw.items()}
            elif key in ("type", "traits", "mixins", "members"):
                self.error("S1017", f"unknown property '{key}' in {s.type} '{shape_id}'", s.span, shape_id)
            else:
                # "version" and unknown properties go through; the loader/validator judges them.
                body[key] = self.value(raw)


def lower_idl(file: IdlFile, known_shape_ids: set[str] | frozenset[str]) -> SourceDocument:
    """Lower a parsed IDL file into a :class:`SourceDocument` with absolute shape IDs.

    Args:
        file: the result of :func:`smithy2cfn.parse.idl.parse_idl`.
        known_shape_ids: absolute IDs of every shape defined in every loaded file, the
            prelude and the trait packages (used for relative shape ID resolution).

    Returns:
        The document (``ast`` in JSON AST form plus the IDL extensions described in
        :mod:`smithy2cfn.model.document`); ``diagnostics`` holds lowering problems only
        (the file's own parse diagnostics stay in ``file.diagnostics``). Never raises.

    Follows Smithy 2.0 "Smithy IDL" §"Relative shape ID resolution", §"Syntactic shape IDs",
    §"Documentation comment", §"Inline input / output shapes" and §"Target Elision".
    """
    with garbage_collection.paused():
        lowerer = _Lowerer(file, known_shape_ids)
        try:
            lowerer.lower()
        except RecursionError:  # defensive: lowering is iterative for node values
            lowerer.report.add("S1016", Severity.ERROR, "the model is nested too deeply", Span(file.path, 1, 1))
        lowerer.report.finish()
        return lowerer.doc
