"""Reference docs of a resource type, in the CloudFormation CLI's layout, from the model.

:func:`render_docs` turns each resource's emitted schema, read with its
:class:`~smithy2cfn.derive.plan.ResourcePlan`, into the Markdown files ``cfn generate``
writes under a resource-type project's ``docs/`` folder (cloudformation-cli
``rpdk/core/project.py`` ``generate_docs`` with its ``docs-readme.md`` and
``docs-subproperty.md`` templates): ``docs/README.md`` (Syntax in JSON and YAML,
Properties, Return Values with ``Ref`` and ``Fn::GetAtt``) and one page per nested object
(and per map), under the same file names, headings and anchors, so that readers and tools
find what they expect. Where cfn-cli is wrong the docs are right:

* a createOnly (or readOnly) property whose schema is a ``$ref`` is looked up under the
  definition's name there, so it reads "No interruption" (and is listed among the settable
  properties); here the property's own pointer decides;
* a map's ``patternProperties`` pattern is printed there as if it were a property name;
  here the page says the keys match the pattern and what the values are.

And they hold what cfn-cli leaves out: writeOnly ("never returned"), defaults, numeric,
length and item limits, ``uniqueItems`` and ``insertionOrder``, deprecation with its
message, the identifiers, tagging, each handler's permissions, the ``@examples`` of the
create operation as template snippets, and why each property has its update behaviour
(:mod:`smithy2cfn.docs.why`, from the plan's mutability sources, with ``file:line``).

The Markdown is made with jinja2 templates shipped in ``smithy2cfn/docs/templates/``;
jinja2 is imported by :func:`render_docs` only. Output is deterministic.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping

from smithy2cfn.derive.plan import ConversionPlan, PropertyPlan, ResourcePlan, property_name
from smithy2cfn.docs.why import mutability_reasons
from smithy2cfn.model.shapes import Model, ShapeId
from smithy2cfn.model.traits import DEPRECATED, EXAMPLES
from smithy2cfn.regexes import lazy
from smithy2cfn.templates import environment

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: CloudFormation's "Update behaviors of stack resources" page and its anchors.
UPDATE_BEHAVIORS = "https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/using-cfn-updating-stacks-update-behaviors.html"
UPDATE_LINKS = {
    "replacement": f"[Replacement]({UPDATE_BEHAVIORS}#update-replacement)",
    "some": f"[Some interruptions]({UPDATE_BEHAVIORS}#update-some-interrupt)",
    "none": f"[No interruption]({UPDATE_BEHAVIORS}#update-no-interrupt)",
}
#: cloudformation-cli ``BASIC_TYPE_MAPPINGS``: JSON types as the docs name them.
BASIC_TYPES = {"string": "String", "number": "Double", "integer": "Integer", "boolean": "Boolean"}
#: Constraints shown after the type: schema keyword → label (cfn-cli shows the first four).
CONSTRAINTS = (
    ("minLength", "Minimum Length"), ("maxLength", "Maximum Length"), ("pattern", "Pattern"),
    ("minimum", "Minimum"), ("maximum", "Maximum"), ("exclusiveMinimum", "Exclusive Minimum"),
    ("exclusiveMaximum", "Exclusive Maximum"), ("multipleOf", "Multiple Of"),
    ("minItems", "Minimum Items"), ("maxItems", "Maximum Items"),
    ("minProperties", "Minimum Properties"), ("maxProperties", "Maximum Properties"),
    ("format", "Format"), ("const", "Constant"), ("default", "Default"),
)
#: How deep ``$ref`` chains and nesting are followed (a schema that goes deeper is cut).
MAX_DEPTH = 64
#: cloudformation-cli ``MARKDOWN_RESERVED_CHARACTERS``: a heading starting with one is escaped.
MARKDOWN_RESERVED = frozenset("^*+.([{#")
#: How many routes (property paths) to one page are kept to decide its update behaviour.
MAX_ROUTES = 16

#: Two or more blank lines (the templates' blocks each end with one).
BLANK_LINES = lazy(r"\n{3,}")

#: Characters a page name may not hold (a map's pattern is part of its page name).
UNSAFE_FILE_CHARS = lazy(r"[/\\\x00-\x1f\x7f]")
#: Longest page name, in bytes, before ``.md`` (file systems allow 255).
MAX_FILE_NAME = 200

def _environment() -> Any:
    return environment("smithy2cfn.docs", {"code": code, "escape_markdown": escape_markdown})


def code(value: Any) -> str:
    """``<code>value</code>``, HTML-escaped (a pattern's ``<`` or ``&`` stays text); a
    non-string value as JSON."""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return f"<code>{html.escape(text, quote=False)}</code>"


def escape_markdown(text: str) -> str:
    """A heading's text with a leading Markdown character escaped (cloudformation-cli
    ``escape_markdown``)."""
    return "\\" + text if text[:1] in MARKDOWN_RESERVED else text


def render_docs(model: Model, plan: ConversionPlan, schemas: Mapping[str, Mapping[str, Any]]
                ) -> dict[str, dict[str, str]]:
    """The docs of every resource of ``plan`` that has a schema in ``schemas``.

    Args:
        model: the model the plan was derived from (deprecation messages, ``@examples``).
        plan: the conversion plan (:func:`smithy2cfn.derive.plan.derive_plan`).
        schemas: output file name → resource schema, as :func:`smithy2cfn.emit.emit_schemas`
            and ``api.build(...).schemas`` give them (``"acme-vault-vault.json"`` → schema).

    Returns:
        schema file name → {path relative to the resource-type project folder → Markdown
        text}, e.g. ``{"acme-vault-vault.json": {"docs/README.md": "...",
        "docs/encryptionsettings.md": "..."}}``; both levels sorted by key. A resource whose
        file is not in ``schemas`` (its conversion failed) gets nothing. The file names
        of the sub-pages are cfn-cli's: a nested object's definition name (or, for one
        written inline, the top property's name) lower-cased plus ``.md``; a map's page is
        its property path joined with ``-``.

    A map defined once and reached again under the same name keeps its first page (as
    cfn-cli does); page names are plain file names (:func:`_file_name`).

    Never raises on a bad schema: a keyword of the wrong type is ignored, and an unknown
    ``$ref`` or a nesting deeper than :data:`MAX_DEPTH` is shown as type ``Map`` rather
    than followed.
    Follows cloudformation-cli ``Project.generate_docs`` / ``_set_docs_properties`` (its
    layout, names and anchors), corrected as the module docstring says.
    """
    env = _environment()
    root = _source_root(model)
    out: dict[str, dict[str, str]] = {}
    for resource in plan.resources:
        schema = schemas.get(resource.file_name)
        if not isinstance(schema, Mapping):
            continue
        out[resource.file_name] = _Resource(model, plan, resource, schema, root).render(env)
    return dict(sorted(out.items()))


def _source_root(model: Model) -> str:
    """The folder prefix (``.../model/``) shared by the model's own files, cut from the
    locations the docs print, so that they do not depend on where the build ran."""
    import os

    paths = [p for p in model.versions if not p.startswith("<")]
    if not paths:
        return ""
    common = os.path.dirname(paths[0]) if len(paths) == 1 else os.path.commonpath(paths)
    if len(paths) > 1 and common in paths:
        common = os.path.dirname(common)
    return common + "/" if common else ""


def _props(schema: Mapping[str, Any]) -> tuple[dict[str, Any], list[str], list[tuple[str, list[str]]]]:
    """An object's properties with the ``oneOf``/``anyOf``/``allOf`` parts merged in (as
    cfn-cli's flattener does), its ``required``, and the ``oneOf``/``anyOf`` choices
    (keyword, property names)."""
    props: dict[str, Any] = dict(_mapping(schema.get("properties")))
    required = _strings(schema.get("required"))
    choices: list[tuple[str, list[str]]] = []
    for key in ("allOf", "oneOf", "anyOf"):
        names: list[str] = []
        for part in schema.get(key) if isinstance(schema.get(key), list) else ():
            if not isinstance(part, Mapping):
                continue
            for name, sub in _mapping(part.get("properties")).items():
                props.setdefault(name, sub)
                names.append(name)
            if key == "allOf":
                required += _strings(part.get("required"))
        if key != "allOf" and names:
            choices.append((key, list(dict.fromkeys(names))))
    return props, required, choices


class _Page:
    """One Markdown page being made: its title, description and property blocks."""

    def __init__(self, file: str, title: str, description: str | None, kind: str) -> None:
        self.file, self.title, self.description, self.kind = file, title, description, kind  # kind: "object" or "map"
        self.properties: list[dict[str, Any]] = []
        self.choices: list[tuple[str, list[str]]] = []
        self.map: dict[str, Any] | None = None
        #: property pointers this page is reached through ("/properties/Encryption"), and
        #: whether each route is createOnly there
        self.routes: list[tuple[str, bool]] = []
        #: a map page's update behaviour ("replacement", "none" or "mixed") and, when
        #: mixed, one line per route
        self.update = "none"
        self.update_why: tuple[str, ...] = ()


class _Resource:
    """The docs of one resource: walks its schema as cfn-cli does, collecting pages."""

    def __init__(self, model: Model, plan: ConversionPlan, resource: ResourcePlan, schema: Mapping[str, Any],
                 root: str) -> None:
        self.model, self.plan, self.resource, self.schema, self.root = model, plan, resource, schema, root
        self.definitions: Mapping[str, Any] = _mapping(schema.get("definitions"))
        self.type_name = str(schema.get("typeName") or resource.type_name)
        self.create_only = set(_strings(schema.get("createOnlyProperties")))
        self.conditional = set(_strings(schema.get("conditionalCreateOnlyProperties")))
        self.read_only = set(_strings(schema.get("readOnlyProperties")))
        self.write_only = set(_strings(schema.get("writeOnlyProperties")))
        self.deprecated = set(_strings(schema.get("deprecatedProperties")))
        self.pages: dict[str, _Page] = {}
        #: object location (definition name, or top property name) → page file name
        self.object_pages: dict[tuple[str, ...], str] = {}
        self.by_schema_name = {p.schema_name: p for p in resource.properties}
        self.member_docs = self._nested_members()

    # ------------------------------------------------------------------ walking

    def _resolve(self, node: Any, depth: int = 0) -> tuple[Any, tuple[str, ...] | None]:
        """``node`` with ``$ref`` to a definition followed; and the definition's location."""
        location = None
        while isinstance(node, Mapping) and isinstance(node.get("$ref"), str) and depth < MAX_DEPTH:
            ref = node["$ref"]
            if not ref.startswith("#/definitions/"):
                return {}, None
            name = ref[len("#/definitions/"):].replace("~1", "/").replace("~0", "~")
            if name not in self.definitions:
                return {}, None
            node, location, depth = self.definitions[name], ("definitions", name), depth + 1
        return (node if isinstance(node, Mapping) else {}), location

    def types(self, node: Any, name: str, path: tuple[str, ...], location: tuple[str, ...] | None,
              pointer: str, create_only: bool, depth: int, single: bool = True) -> tuple[str, str, str]:
        """The JSON, YAML and long-form type texts of ``node`` (cfn-cli's ``jsontype``,
        ``yamltype``, ``longformtype``), making the pages of the objects and maps it holds.

        ``name``/``path`` are cfn-cli's ``propname``/``proppath``; ``location`` where the
        node is written (``("properties", "Foo")``, ``("definitions", "Bar")``), ``pointer``
        the property pointer of this route and ``create_only`` whether it is createOnly."""
        resolved, ref_location = self._resolve(node)
        if ref_location is not None:
            location = ref_location
        if depth > MAX_DEPTH:
            return ("Map",) * 3  # type: ignore[return-value]
        kinds = resolved.get("type", "object")
        kinds = [k for k in kinds if isinstance(k, str)] if isinstance(kinds, list) else [kinds]
        texts = [self._one_type(resolved, str(k), name, path, location, pointer, create_only, depth,
                                single and len(kinds) == 1) for k in kinds]
        return tuple(", ".join(dict.fromkeys(t[i] for t in texts)) for i in range(3))  # type: ignore[return-value]

    def _one_type(self, node: Mapping[str, Any], kind: str, name: str, path: tuple[str, ...],
                  location: tuple[str, ...] | None, pointer: str, create_only: bool, depth: int,
                  single: bool) -> tuple[str, str, str]:
        if kind in BASIC_TYPES:
            return (BASIC_TYPES[kind],) * 3  # type: ignore[return-value]
        if kind == "array":
            items = node.get("items", {})
            item_location = (location + ("items",)) if location else None
            j, y, long = self.types(items, name, path, item_location, pointer + "/*", create_only, depth + 1)
            return f"[ {j}, ... ]", (f"\n      - {y}" if single else f"[ {y}, ... ]"), f"List of {long}"
        if kind != "object":
            return ("Unknown",) * 3  # type: ignore[return-value]
        props, required, choices = _props(node)
        if props:
            key = location[:2] if location else ("properties", name)
            page_name = key[1]
            file = self.object_pages.get(key)
            if file is None:
                file = self._free_file(_file_name(page_name), key)
                self.object_pages[key] = file
                page = self.pages[file] = _Page(file, f"{self.type_name} {page_name}",
                                                _text(node.get("description")), "object")
                page.choices = choices
                self._object_page(page, props, required, page_name, key, pointer, create_only, depth)
            else:
                self._add_route(self.pages[file], props, page_name, key, pointer, create_only, depth)
            link = f'<a href="{file}">{page_name}</a>'
            return link, link, link
        patterns = node.get("patternProperties")
        if isinstance(patterns, Mapping) and patterns:
            # a map defined once and reached again under the same name keeps its first page
            # (as cfn-cli does); one written inline, or reached under another name, gets its own
            shared = ("map", name) + location[:2] if location and location[0] == "definitions" else None
            file = self.object_pages.get(shared) if shared else None
            file = file or _file_name("-".join(path))
            if shared:
                self.object_pages.setdefault(shared, file)
            if file not in self.pages:
                page = self.pages[file] = _Page(file, f"{self.type_name} {' '.join(path)}",
                                                _text(node.get("description")), "map")
                page.routes.append((pointer, create_only))
                entries = []
                for pattern, value in patterns.items():
                    j, y, long = self.types(value, str(pattern), path + (str(pattern),),
                                            (location + ("patternProperties", str(pattern))) if location else None,
                                            pointer + "/*", create_only, depth + 1)
                    entries.append({"pattern": str(pattern), "jsontype": j, "yamltype": y, "longformtype": long,
                                    "constraints": _constraints(self._resolve(value)[0])})
                page.map = {"entries": entries, "constraints": _constraints(node)}
            elif len(self.pages[file].routes) < MAX_ROUTES:
                self.pages[file].routes.append((pointer, create_only))
            link = f'<a href="{file}">{path[-1]}</a>'
            return link, link, link
        return ("Map",) * 3  # type: ignore[return-value]

    def _free_file(self, file: str, key: tuple[str, ...]) -> str:
        """``file``, or (when another object already has that page, which cfn-cli would
        overwrite) a name made unique with the object's location."""
        if file not in self.pages:
            return file
        base = _file_name("-".join(key[1:])).removesuffix(".md")
        candidate, n = base + ".md", 2
        while candidate in self.pages:
            candidate, n = f"{base}-{n}.md", n + 1
        return candidate

    def _object_page(self, page: _Page, props: Mapping[str, Any], required: list[str], page_name: str,
                     key: tuple[str, ...], pointer: str, create_only: bool, depth: int) -> None:
        page.routes.append((pointer, create_only))
        members = self.member_docs.get(page_name, {})
        for prop_name, sub in props.items():
            sub_pointer = f"{pointer}/{prop_name}"
            sub_create_only = create_only or sub_pointer in self.create_only
            resolved, _ = self._resolve(sub)
            j, y, long = self.types(sub, prop_name, (page_name, prop_name), key + ("properties", prop_name),
                                    sub_pointer, sub_create_only, depth + 1)
            block = self._block(prop_name, resolved, j, y, long, required=prop_name in required)
            block["deprecated"] = members.get(prop_name)
            block["sub_pointer"] = prop_name
            page.properties.append(block)

    def _add_route(self, page: _Page, props: Mapping[str, Any], page_name: str, key: tuple[str, ...],
                   pointer: str, create_only: bool, depth: int) -> None:
        """Another property path reaches an object page already made: remember it (for the
        update behaviour of its properties) and follow it into the objects below."""
        if len(page.routes) >= MAX_ROUTES or any(pointer.startswith(p + "/") for p, _ in page.routes):
            return
        page.routes.append((pointer, create_only))
        for prop_name, sub in props.items():
            sub_pointer = f"{pointer}/{prop_name}"
            self.types(sub, prop_name, (page_name, prop_name), key + ("properties", prop_name), sub_pointer,
                       create_only or sub_pointer in self.create_only, depth + 1)

    # ------------------------------------------------------------------ blocks

    def _block(self, name: str, node: Mapping[str, Any], jsontype: str, yamltype: str, longformtype: str,
               required: bool) -> dict[str, Any]:
        items, _ = self._resolve(node.get("items")) if node.get("type") == "array" else ({}, None)
        constraints = _constraints(node)
        constraints += [("Item " + label, value) for label, value in _constraints(items)]
        if node.get("type") == "array":
            if node.get("uniqueItems") is True:
                constraints.append(("Unique Items", "Yes: no two items may be equal"))
            order = node.get("insertionOrder")
            if order is not None:
                constraints.append(("Insertion Order", "Yes: the order of the items is kept and compared"
                                    if order else "No: the items are a set, compared in any order"))
        return {"name": name, "anchor": name.lower(), "description": _text(node.get("description")),
                "required": required, "jsontype": jsontype, "yamltype": yamltype, "longformtype": longformtype,
                "allowedvalues": [v if isinstance(v, str) else json.dumps(v, sort_keys=True)
                                  for v in (node.get("enum") if isinstance(node.get("enum"), list) else ())],
                "constraints": constraints, "deprecated": None, "update_kind": None, "why": (), "write_only": False,
                "read_only": False, "is_tags": False}

    def _nested_members(self) -> dict[str, dict[str, str]]:
        """definition name → property name → deprecation text, for the structures the
        resource's properties reach (found by shape name: the emitter names a definition
        after its shape unless two collide, and then nothing is said)."""
        by_name: dict[str, list[str]] = {}
        for shape_id in self.resource.shapes:
            by_name.setdefault(ShapeId.name(shape_id), []).append(shape_id)
        found: dict[str, dict[str, str]] = {}
        for name in self.definitions:
            ids = by_name.get(name, [])
            shape = self.model.get(ids[0]) if len(ids) == 1 else None
            if shape is None or not shape.members:
                continue
            for member in shape.members.values():
                text = _deprecation(member.traits.get(DEPRECATED))
                if text is not None:
                    found.setdefault(name, {})[property_name(member, self.plan.config)] = text
        return found

    # ------------------------------------------------------------------ pages

    def render(self, env: Any) -> dict[str, str]:
        properties = _mapping(self.schema.get("properties"))
        required = set(_strings(self.schema.get("required")))
        blocks, gettable = [], []
        for name, node in properties.items():
            pointer = f"/properties/{name}"
            create_only = pointer in self.create_only
            resolved, _ = self._resolve(node)
            j, y, long = self.types(node, name, (name,), ("properties", name), pointer, create_only, 0)
            block = self._block(name, resolved, j, y, long, required=name in required)
            plan_prop = self.by_schema_name.get(name)
            block.update(self._top_level(name, pointer, plan_prop))
            (gettable if block["read_only"] else blocks).append(block)
        for page in self.pages.values():
            self._page_updates(page)
        files = {"docs/README.md": env.get_template("readme.md.j2").render(
            type_name=self.type_name, description=_text(self.schema.get("description")),
            properties=blocks, ref=self._ref(), getatt=self._getatt(properties, gettable),
            identifiers=self._identifiers(), tagging=self._tagging(), handlers=self._handlers(),
            examples=self._examples(), links=self._links(), update_links=UPDATE_LINKS)}
        template = env.get_template("subproperty.md.j2")
        for file, page in sorted(self.pages.items()):
            files["docs/" + file] = template.render(page=page, update_links=UPDATE_LINKS)
        return {path: _tidy(text) for path, text in sorted(files.items())}

    def _top_level(self, name: str, pointer: str, prop: PropertyPlan | None) -> dict[str, Any]:
        if pointer in self.create_only:
            update = "replacement"
        elif pointer in self.conditional:
            update = "some"
        else:
            update = "none"
        deprecated = None
        if prop is not None:
            deprecated = _deprecation(prop.member.traits.get(DEPRECATED))
            if deprecated is None:
                target = self.model.get(prop.member.target)
                deprecated = _deprecation(target.traits.get(DEPRECATED)) if target is not None else None
        if deprecated is None and pointer in self.deprecated:
            deprecated = "Yes"
        return {"update_kind": update, "read_only": pointer in self.read_only, "write_only": pointer in self.write_only,
                "deprecated": deprecated, "why": mutability_reasons(self.model, self.resource.resource_id, prop, self.root)
                if prop is not None else (),
                "is_tags": bool(prop is not None and prop.is_tags)}

    def _page_updates(self, page: _Page) -> None:
        """The update behaviour of each property of a page: Replacement where every route to
        it is createOnly, No interruption where none is, and which routes where they differ."""
        if page.map is not None:
            replaced = [c for _, c in page.routes]
            page.update = "replacement" if all(replaced) else "none" if not any(replaced) else "mixed"
            if page.update == "mixed":
                page.update_why = tuple(f"{UPDATE_LINKS['replacement'] if c else UPDATE_LINKS['none']} as `{p}`"
                                        for p, c in page.routes)
        for block in page.properties:
            if block["update_kind"] is not None:
                continue
            routes = [(f"{p}/{block['sub_pointer']}", c or f"{p}/{block['sub_pointer']}" in self.create_only)
                      for p, c in page.routes]
            replaced = [p for p, c in routes if c]
            if len(replaced) == len(routes):
                block["update_kind"] = "replacement"
                parents = sorted({_parent_name(p) for p in replaced})
                block["why"] = (f"it is part of {', '.join(parents)}, which is createOnly",) if parents else ()
            elif not replaced:
                block["update_kind"] = "none"
            else:
                block["update_kind"] = "mixed"
                block["why"] = tuple(f"{UPDATE_LINKS['replacement'] if c else UPDATE_LINKS['none']} as `{p}`"
                                     for p, c in routes)
            # readOnly / writeOnly where every route has it, on the property or above it
            block["write_only"] = all(any(a in self.write_only for a in _ancestors(p)) for p, _ in routes)
            block["read_only"] = all(any(a in self.read_only for a in _ancestors(p)) for p, _ in routes)

    # ------------------------------------------------------------------ README parts

    def _ref(self) -> str | None:
        primary = list(_strings(self.schema.get("primaryIdentifier")))
        if len(primary) == 1 and primary[0].count("/") == 2 and primary[0].startswith("/properties/"):
            return primary[0].split("/")[2]
        return None

    def _identifiers(self) -> dict[str, Any]:
        def names(pointers: Any) -> list[str]:
            return [p.removeprefix("/properties/") for p in _strings(pointers)]
        return {"primary": names(self.schema.get("primaryIdentifier")),
                "additional": [names(group) for group in _list(self.schema.get("additionalIdentifiers"))
                               if isinstance(group, list)]}

    def _getatt(self, properties: Mapping[str, Any], blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """cfn-cli lists every ``readOnlyProperties`` entry (its last name) with the
        description; here with its type and why too."""
        by_name = {b["name"]: b for b in blocks}
        out = []
        for pointer in _strings(self.schema.get("readOnlyProperties")):
            name = pointer.rsplit("/", 1)[-1]
            block = by_name.get(name) if pointer == f"/properties/{name}" else None
            description = block["description"] if block else None
            out.append({"name": name, "pointer": pointer, "block": block,
                        "description": description or f"Returns the <code>{name}</code> value."})
        return out

    def _tagging(self) -> dict[str, Any] | None:
        tagging = self.schema.get("tagging")
        if not isinstance(tagging, Mapping):
            return None
        return {"taggable": tagging.get("taggable", True) is not False,
                "tag_on_create": tagging.get("tagOnCreate"), "tag_updatable": tagging.get("tagUpdatable"),
                "system_tags": tagging.get("cloudFormationSystemTags"),
                "tag_property": str(tagging.get("tagProperty", "")).removeprefix("/properties/") or None,
                "permissions": list(_strings(tagging.get("permissions"))),
                "operations": {k: ShapeId.name(v) for k, v in sorted((self.resource.tagging.operations
                                                                        if self.resource.tagging else {}).items())}}

    def _handlers(self) -> list[dict[str, Any]]:
        handlers = self.schema.get("handlers")
        if not isinstance(handlers, Mapping):
            return []
        planned = {h.name: h for h in self.resource.handlers}
        order = ("create", "read", "update", "delete", "list")
        out = []
        for name in sorted(handlers, key=lambda n: (order.index(n) if n in order else len(order), n)):
            handler = handlers[name]
            if not isinstance(handler, Mapping):
                continue
            plan = planned.get(name)
            out.append({"name": name, "permissions": list(_strings(handler.get("permissions"))),
                        "timeout": handler.get("timeoutInMinutes"),
                        "operations": [ShapeId.name(o) for o in plan.operations] if plan else []})
        return out

    def _links(self) -> list[tuple[str, str]]:
        return [(label, str(self.schema[key])) for key, label in
                (("documentationUrl", "Documentation"), ("sourceUrl", "Source code"))
                if isinstance(self.schema.get(key), str)]

    def _examples(self) -> list[dict[str, Any]]:
        """The create operation's ``@examples`` as template snippets: the input's members
        that are properties of the resource, under their property names."""
        shape = self.model.get(self.resource.resource_id)
        create = (shape.create or shape.put) if shape is not None else None
        operation = self.model.get(create) if create else None
        examples = operation.traits.get(EXAMPLES) if operation is not None else None
        if not isinstance(examples, list) or operation is None or not operation.input:
            return []
        by_member = {}
        for prop in self.resource.properties:
            for shape_id in prop.shape_ids:
                if ShapeId.root(shape_id) == operation.input and ShapeId.member(shape_id):
                    by_member[ShapeId.member(shape_id)] = prop.schema_name
        settable = {b for b in _mapping(self.schema.get("properties"))
                    if f"/properties/{b}" not in self.read_only}
        out = []
        for example in examples:
            if not isinstance(example, Mapping) or "error" in example or not isinstance(example.get("input"), Mapping):
                continue
            values = {by_member[m]: v for m, v in example["input"].items()
                      if by_member.get(m) in settable}
            if not values:
                continue
            values = {k: _capitalized(v, self.plan.config.disable_capitalized_properties) for k, v in values.items()}
            resource = {"Type": self.type_name, "Properties": dict(sorted(values.items()))}
            logical = "My" + self.type_name.rsplit("::", 1)[-1]
            out.append({"title": str(example.get("title", "")), "documentation": _text(example.get("documentation")),
                        "json": json.dumps({"Resources": {logical: resource}}, indent=4, sort_keys=False),
                        "yaml": _yaml({"Resources": {logical: resource}})})
        return out


def _tidy(text: str) -> str:
    """At most one blank line in a row, one newline at the end (the templates' blocks each
    end with a blank line)."""
    return BLANK_LINES.sub("\n\n", text).strip("\n") + "\n"


def _capitalized(value: Any, keep: bool) -> Any:
    """Structure member names in an example value as property names (capitalized unless
    ``disableCapitalizedProperties``); a ``cfnName`` below the top is not known here."""
    if isinstance(value, Mapping):
        return {(k if keep else k[:1].upper() + k[1:]): _capitalized(v, keep) for k, v in value.items()}
    if isinstance(value, list):
        return [_capitalized(v, keep) for v in value]
    return value


def _yaml(value: Any, indent: int = 0) -> str:
    """A small YAML writer for example snippets (block style, JSON scalars)."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(value, Mapping):
        for key, sub in value.items():
            if isinstance(sub, (Mapping, list)) and sub:
                lines.append(f"{pad}{key}:")
                lines.append(_yaml(sub, indent + 2))
            else:
                lines.append(f"{pad}{key}: {json.dumps(sub)}")
    elif isinstance(value, list):
        for sub in value:
            if isinstance(sub, (Mapping, list)) and sub:
                inner = _yaml(sub, indent + 2)
                lines.append(f"{pad}- {inner.lstrip()}")
            else:
                lines.append(f"{pad}- {json.dumps(sub)}")
    return "\n".join(lines)


def _file_name(stem: str) -> str:
    """cfn-cli's page name, ``stem`` lower-cased plus ``.md``, made a plain file name: ``/``,
    ``\\`` and control characters (a map pattern may hold them) become ``_``, and a name
    longer than :data:`MAX_FILE_NAME` is cut and given a hash of the whole."""
    name = UNSAFE_FILE_CHARS.sub("_", stem.lower())
    if len(name.encode()) > MAX_FILE_NAME:
        import hashlib

        digest = hashlib.sha256(name.encode()).hexdigest()[:12]
        name = name.encode()[:MAX_FILE_NAME - 13].decode(errors="ignore") + "-" + digest
    return name + ".md"


def _ancestors(pointer: str) -> list[str]:
    """``/properties/A/B`` → ``["/properties/A", "/properties/A/B"]``."""
    parts = pointer.split("/")
    return ["/".join(parts[:i]) for i in range(3, len(parts) + 1)]


def _parent_name(pointer: str) -> str:
    parts = [p for p in pointer.split("/")[2:] if p != "*"]
    return f"`{parts[0]}`" if parts else "its parent"


def _deprecation(trait: Any) -> str | None:
    """``"Yes: <message> (since <since>)"`` for a ``@deprecated`` value, else ``None``."""
    if not isinstance(trait, Mapping):
        return None
    message, since = trait.get("message"), trait.get("since")
    text = "Yes" + (f": {message}" if isinstance(message, str) and message else "")
    return text + (f" (since {since})" if isinstance(since, str) and since else "")


def _constraints(node: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [(label, code(node[key])) for key, label in CONSTRAINTS if key in node]


def _mapping(value: Any) -> Mapping[str, Any]:
    """``value`` when it is a mapping, else an empty one (a schema keyword of the wrong type
    is ignored rather than followed)."""
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None
