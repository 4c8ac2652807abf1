"""The settings of the ``cloudformation`` plugin: one typed, immutable :class:`Settings`.

Follows "Generating CloudFormation Resource Schemas from Smithy" §"CloudFormation
configuration settings" and §"JSON schema configuration settings", and the reference's
``CfnConfig`` (which extends ``JsonSchemaConfig``).

The settings are made once, where they enter (:mod:`smithy2cfn.api`): from a config file's
``cloudformation`` object (read by :mod:`smithy2cfn.smithy_build`), the command line's flags
and the library's overrides (:meth:`Settings.from_mapping`, then :meth:`Settings.override`).
Each value is checked there, once, and keeps where it was given (:meth:`Settings.where`:
a config file key, ``<command line --org>``, ``<override KEY>``), so that derive, emit,
lint and ``--strict`` locate the problems a setting causes without another copy of the
raw mapping.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.model.nodes import describe, pointer, scan
from smithy2cfn.records import Record, replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S5001", Severity.ERROR, None,
         "a setting or smithy-build.json key has the wrong type or value", usage=True),
    Code("S5002", Severity.WARNING, None, "unknown setting or smithy-build.json key", usage=True),
)

#: Default ``externalDocs`` names, in priority order (reference ``CfnConfig``).
DEFAULT_EXTERNAL_DOCS = (
    "Documentation Url", "DocumentationUrl", "API Reference", "User Guide",
    "Developer Guide", "Reference", "Guide",
)
#: Default ``sourceDocs`` names, in priority order (reference ``CfnConfig``).
DEFAULT_SOURCE_DOCS = ("Source Url", "SourceUrl", "Source", "Source Code")
#: ``compatibility`` values: ``"default"`` writes registry-ready schemas (CloudFormation's
#: rules applied, each correction announced); ``"reference"`` writes what the Java plugin
#: writes.
COMPATIBILITY_MODES = ("default", "reference")
#: The timestamp formats ``defaultTimestampFormat`` accepts.
TIMESTAMP_FORMATS = ("date-time", "epoch-seconds", "http-date")
#: The most segments a ``jsonAdd`` pointer may have (real ones have a handful: the written
#: document may nest at most 400 levels, see ``S4108``).
MAX_POINTER_SEGMENTS = 64
#: Where settings without a better place are said to come from (the library's mapping).
DEFAULT_SOURCE = Span("<settings>")


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _json_problem(value: Any) -> str | None:
    """Why ``value`` cannot be written as strict JSON (settings given through the library
    API may hold anything: ``float("nan")``, sets, tuple keys, 5,000-deep nests), or ``None``.
    """
    problems = scan(value)
    if not problems:
        return None
    path, problem = problems[0]
    return f"{problem} (at {pointer(path)})" if path else problem


def _is_json_add(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(pointers, dict) and all(not isinstance(p, str) or p.count("/") <= MAX_POINTER_SEGMENTS
                                           for p in pointers)
        for pointers in value.values())


def _frozen(value: Any) -> Any:
    """The value a :class:`Settings` field holds: a list of strings as a tuple, an object as
    a read-only mapping (``jsonAdd``'s objects of pointers too); JSON values inside are
    kept as given (mappers copy them, :func:`smithy2cfn.model.nodes.copy_node`, before
    writing them into a schema)."""
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, dict):
        return MappingProxyType({k: MappingProxyType(dict(v)) if isinstance(v, dict) else v
                                 for k, v in value.items()})
    return value


#: The files of a resource-type project besides the schema that a build can write (setting
#: ``artifacts``; ``build --cfn-project`` writes them all): ``docs/``, ``inputs/``,
#: ``resource-role.yaml`` (issue 18).
ARTIFACTS = ("docs", "inputs", "role")
#: Settings whose values are written into schemas as they are: they must be strict JSON.
_JSON_VALUED = frozenset({"jsonAdd", "schemaDocumentExtensions"})
#: setting name → (field, checker, expected type in words)
_SETTINGS: dict[str, tuple[str, Any, str]] = {
    "service": ("service", _is_str, "a shape ID string"),
    "organizationName": ("organization_name", _is_str, "a string"),
    "serviceName": ("service_name", _is_str, "a string"),
    "externalDocs": ("external_docs", _is_str_list, "a list of strings"),
    "sourceDocs": ("source_docs", _is_str_list, "a list of strings"),
    "jsonAdd": ("json_add", _is_json_add,
                "an object of resource shape ID → object of JSON pointer (at most "
                f"{MAX_POINTER_SEGMENTS} segments) → JSON value"),
    "disableHandlerPermissionGeneration": ("disable_handler_permission_generation", _is_bool, "a boolean"),
    "disableDeprecatedPropertyGeneration": ("disable_deprecated_property_generation", _is_bool, "a boolean"),
    "disableRequiredPropertyGeneration": ("disable_required_property_generation", _is_bool, "a boolean"),
    "disableCapitalizedProperties": ("disable_capitalized_properties", _is_bool, "a boolean"),
    "defaultTimestampFormat": ("default_timestamp_format", lambda v: isinstance(v, str) and v in TIMESTAMP_FORMATS,
                               "one of " + ", ".join(repr(f) for f in TIMESTAMP_FORMATS)),
    "schemaDocumentExtensions": ("schema_document_extensions", lambda v: isinstance(v, dict),
                                 "an object of JSON values"),
    "disableFeatures": ("disable_features", _is_str_list, "a list of strings"),
    "useIntegerType": ("use_integer_type", _is_bool, "a boolean"),
    "compatibility": ("compatibility", lambda v: isinstance(v, str) and v in COMPATIBILITY_MODES,
                      "one of " + ", ".join(repr(m) for m in COMPATIBILITY_MODES)),
    "strict": ("strict", _is_bool, "a boolean"),
    "artifacts": ("artifacts", lambda v: _is_str_list(v) and set(v) <= set(ARTIFACTS),
                  "a list of " + ", ".join(repr(a) for a in ARTIFACTS)),
    "customResources": ("custom_resources", lambda v: isinstance(v, dict) and all(
        isinstance(k, str) and "#" in k and isinstance(n, str) and n.startswith("Custom::") for k, n in v.items()),
        "an object of resource shape ID → Custom:: type name"),
}
#: Every setting name, sorted (README "Settings").
SETTING_NAMES = tuple(sorted(_SETTINGS))


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


class Settings(Record, frozen=True):
    """The ``cloudformation`` plugin settings, typed and checked (reference ``CfnConfig``),
    and where each was given.

    Make them with :meth:`from_mapping` (a config file's object, a library mapping) and
    :meth:`override` (flags, library overrides); ``Settings()`` is the defaults, and
    ``Settings(organization_name="Acme")`` gives typed values directly (unchecked: the
    caller's types are trusted). Immutable: lists are tuples, objects read-only mappings.

    Attributes:
        service: absolute shape ID of the service to convert; ``None`` means "the only
            service in the model" (:func:`smithy2cfn.derive.plan.resolve_service`).
        organization_name: the ``Organization`` part of ``typeName``; ``None`` defaults to
            ``"AWS"`` when the service has the ``aws.api#service`` trait.
        service_name: the ``Service`` part of ``typeName``; ``None`` defaults to
            ``aws.api#service`` ``cloudFormationName``, else the service shape name.
        external_docs / source_docs: priority-ordered, case-insensitive names looked up in
            a resource's ``smithy.api#externalDocumentation`` for ``documentationUrl`` /
            ``sourceUrl``.
        json_add: resource shape ID → JSON pointer → JSON value, added to the written schema.
        disable_*: the boolean switches of the same names.
        default_timestamp_format: format for timestamps without ``@timestampFormat``.
        schema_document_extensions: top-level keys merged into every schema.
        disable_features: JSON Schema keywords removed from every generated schema.
        use_integer_type: ``integer`` instead of ``number`` for byte/short/integer/long, as
            given (default ``False``); what the emitter writes is :attr:`integer_type`.
        compatibility: ``"default"`` (registry-ready schemas) or ``"reference"`` (the Java
            plugin's output, unchanged wherever it passes the meta-schema).
        strict: fail the build on warnings (``S6000``; applied by :func:`smithy2cfn.api.build`).
        artifacts: the project files written next to each schema besides it (:data:`ARTIFACTS`),
            in ``<output>/<schema file stem>/``; default none.
        custom_resources: resource shape ID → ``Custom::`` name: the resources also served as
            Lambda-backed custom resources (:mod:`smithy2cfn.custom`); default none.
        extensions: every setting as given (unknown names included, values as given), for
            custom mappers (reference ``JsonSchemaConfig.getExtensions``).
        source: where the settings come from as a whole (a config file, ``<command
            line>``, ``<settings>``): the place of problems no single setting causes
            (no service given and several in the model...).
        spans: setting name → where it was given: its key in a config file
            (``file:line:column``), ``Span("<command line --org>")`` for a flag,
            ``Span("<override NAME>")`` for a library override; see :meth:`where`.
    """

    service: str | None
    organization_name: str | None
    service_name: str | None
    external_docs: tuple[str, ...]
    source_docs: tuple[str, ...]
    json_add: Mapping[str, Mapping[str, Any]]
    disable_handler_permission_generation: bool
    disable_deprecated_property_generation: bool
    disable_required_property_generation: bool
    disable_capitalized_properties: bool
    default_timestamp_format: str
    schema_document_extensions: Mapping[str, Any]
    disable_features: tuple[str, ...]
    use_integer_type: bool
    compatibility: str
    strict: bool
    artifacts: tuple[str, ...]
    custom_resources: Mapping[str, str]
    extensions: Mapping[str, Any]
    source: Span
    spans: Mapping[str, Span]

    def __init__(self, service: str | None = None, organization_name: str | None = None,
                 service_name: str | None = None, external_docs: tuple[str, ...] = DEFAULT_EXTERNAL_DOCS,
                 source_docs: tuple[str, ...] = DEFAULT_SOURCE_DOCS,
                 json_add: Mapping[str, Mapping[str, Any]] | None = None,
                 disable_handler_permission_generation: bool = False,
                 disable_deprecated_property_generation: bool = False,
                 disable_required_property_generation: bool = False,
                 disable_capitalized_properties: bool = False, default_timestamp_format: str = "date-time",
                 schema_document_extensions: Mapping[str, Any] | None = None,
                 disable_features: tuple[str, ...] = (), use_integer_type: bool = False,
                 compatibility: str = "default", strict: bool = False, artifacts: tuple[str, ...] = (),
                 custom_resources: Mapping[str, str] | None = None, extensions: Mapping[str, Any] | None = None,
                 source: Span = DEFAULT_SOURCE, spans: Mapping[str, Span] | None = None) -> None:
        self.__dict__.update(service=service, organization_name=organization_name, service_name=service_name,
                             external_docs=external_docs, source_docs=source_docs,
                             json_add=_empty() if json_add is None else json_add,
                             disable_handler_permission_generation=disable_handler_permission_generation,
                             disable_deprecated_property_generation=disable_deprecated_property_generation,
                             disable_required_property_generation=disable_required_property_generation,
                             disable_capitalized_properties=disable_capitalized_properties,
                             default_timestamp_format=default_timestamp_format,
                             schema_document_extensions=_empty() if schema_document_extensions is None else schema_document_extensions,
                             disable_features=disable_features, use_integer_type=use_integer_type,
                             compatibility=compatibility, strict=strict, artifacts=artifacts,
                             custom_resources=_empty() if custom_resources is None else custom_resources,
                             extensions=_empty() if extensions is None else extensions, source=source,
                             spans=_empty() if spans is None else spans)

    @property
    def registry_ready(self) -> bool:
        """True in the default mode: CloudFormation's registry rules are applied."""
        return self.compatibility != "reference"

    @property
    def integer_type(self) -> bool:
        """Whether byte, short, integer, long and intEnum shapes are written ``integer``:
        ``useIntegerType`` when it is given; else in the registry-ready mode (as AWS's own
        schemas type them, and as ``cfn generate`` needs to make integers of them, issue 18),
        and not in reference mode (the Java plugin writes ``number``)."""
        return self.use_integer_type if "useIntegerType" in self.spans else self.registry_ready

    def where(self, name: str) -> Span:
        """Where the setting ``name`` (``"organizationName"``...) was given, else
        :attr:`source`."""
        return self.spans.get(name, self.source)

    @classmethod
    def from_mapping(cls, values: Any, diags: Diagnostics, *, spans: Mapping[str, Span] | None = None,
                     source: Span | None = None) -> Settings:
        """Check and type the plugin's JSON settings object (reference ``CfnConfig.fromNode``).

        Args:
            values: the ``cloudformation`` object of ``smithy-build.json``, or any mapping
                of setting names to values; anything else is an ``S5001`` error (located at
                ``source``) and gives the defaults.
            diags: receives ``S5001`` (error) for a setting of the wrong type or value —
                the setting keeps its default — and ``S5002`` (warning) for an unknown
                setting, each located at the setting's span.
            spans: setting name → where its key is written (a config file); a setting
                without one is located at ``source``.
            source: where the settings come from (default ``<settings>``).

        Returns:
            The settings; never raises on bad input.
        """
        return cls(source=source or DEFAULT_SOURCE)._merged(values, spans or {}, diags)

    def override(self, values: Any, diags: Diagnostics, *, spans: Mapping[str, Span] | None = None) -> Settings:
        """These settings with ``values`` winning over them (the command line's flags, a
        library caller's overrides), each checked as :meth:`from_mapping` checks.

        Args:
            values: setting name → value; anything but a mapping with string keys is error
                ``S5001`` located at ``<overrides>`` (nothing is overridden).
            diags: receives the problems (see :meth:`from_mapping`).
            spans: setting name → where it was given (the CLI passes
                ``Span("<command line --org>")``); default ``Span("<override NAME>")``.

        Returns:
            New settings (these are unchanged); never raises on bad input.
        """
        if not isinstance(values, Mapping) or not all(isinstance(k, str) for k in values):
            diags.error("S5001", f"overrides must map setting names to values, got {type(values).__name__}",
                        Span("<overrides>"), hint='for example {"organizationName": "Example"}')
            return self
        given = spans if isinstance(spans, Mapping) else {}
        located = {key: given[key] if isinstance(given.get(key), Span) else Span(f"<override {key}>")
                   for key in values}
        return self._merged(values, located, diags)

    def _merged(self, values: Any, spans: Mapping[str, Span], diags: Diagnostics) -> Settings:
        """``self`` with the valid ones of ``values`` set (see :meth:`from_mapping`)."""
        if not isinstance(values, Mapping) or not all(isinstance(k, str) for k in values):
            diags.error("S5001", "cloudformation plugin settings must be a JSON object (a mapping of setting "
                        f"names to values), got {type(values).__name__}", self.source,
                        hint='for example {"service": "example.weather#Weather"}')
            return self
        changes: dict[str, Any] = {}
        located = dict(self.spans)
        for key, value in values.items():
            where = spans.get(key, self.source)
            located[key] = where
            spec = _SETTINGS.get(key)
            if spec is None:
                diags.warning("S5002", f"unknown cloudformation setting '{key}' is ignored", where,
                              hint="known settings: " + ", ".join(SETTING_NAMES))
                continue
            attr, check, expected = spec
            if not check(value):
                diags.error("S5001", f"cloudformation setting '{key}' must be {expected}, "
                                     f"got {describe(value)}", where)
                continue
            problem = _json_problem(value) if key in _JSON_VALUED else None
            if problem is not None:
                diags.error("S5001", f"cloudformation setting '{key}' must hold JSON values: {problem}", where,
                            hint="settings values must be JSON: finite numbers, string keys, objects, arrays, "
                                 "strings, booleans and null")
                continue
            if key == "service" and "#" not in value:
                diags.error("S5001", f"cloudformation setting 'service' must be an absolute shape ID "
                                     f"(namespace#Name), got {value!r}", where)
                continue
            changes[attr] = _frozen(value)
        given = MappingProxyType({**self.extensions, **values})
        return replace(self, **changes, extensions=given, spans=MappingProxyType(located))


__all__ = ["COMPATIBILITY_MODES", "DEFAULT_EXTERNAL_DOCS", "DEFAULT_SOURCE_DOCS", "MAX_POINTER_SEGMENTS",
           "SETTING_NAMES", "TIMESTAMP_FORMATS", "Settings"]
