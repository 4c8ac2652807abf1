"""Settings of the ``cloudformation`` smithy-build plugin.

Follows "Generating CloudFormation Resource Schemas from Smithy" §"CloudFormation
configuration settings" and §"JSON schema configuration settings", and the reference's
``CfnConfig`` (which extends ``JsonSchemaConfig``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.model.nodes import describe, pointer, scan

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


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _json_problem(value: Any) -> str | None:
    """Why ``value`` cannot be written as strict JSON (settings given through the library
    API may hold anything: ``float("nan")``, sets, tuple keys, 5,000-deep nests), or ``None``.
    """
    problems = scan(value)
    if not problems:
        return None
    path, problem = problems[0]
    return f"{problem} (at {pointer(path)})" if path else problem


#: The most segments a ``jsonAdd`` pointer may have (real ones have a handful: the written
#: document may nest at most 400 levels, see ``S4108``).
MAX_POINTER_SEGMENTS = 64


def _is_json_add(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(pointers, dict) and all(not isinstance(p, str) or p.count("/") <= MAX_POINTER_SEGMENTS
                                           for p in pointers)
        for pointers in value.values())


#: Settings whose values are written into schemas as they are: they must be strict JSON.
_JSON_VALUED = frozenset({"jsonAdd", "schemaDocumentExtensions"})
#: setting name → (attribute, checker, expected type description)
_SETTINGS: dict[str, tuple[str, Any, str]] = {
    "service": ("service", lambda v: isinstance(v, str), "a shape ID string"),
    "organizationName": ("organization_name", lambda v: isinstance(v, str), "a string"),
    "serviceName": ("service_name", lambda v: isinstance(v, str), "a string"),
    "externalDocs": ("external_docs", _is_str_list, "a list of strings"),
    "sourceDocs": ("source_docs", _is_str_list, "a list of strings"),
    "jsonAdd": ("json_add", _is_json_add,
                "an object of resource shape ID → object of JSON pointer (at most "
                f"{MAX_POINTER_SEGMENTS} segments) → JSON value"),
    "disableHandlerPermissionGeneration": ("disable_handler_permission_generation",
                                           lambda v: isinstance(v, bool), "a boolean"),
    "disableDeprecatedPropertyGeneration": ("disable_deprecated_property_generation",
                                            lambda v: isinstance(v, bool), "a boolean"),
    "disableRequiredPropertyGeneration": ("disable_required_property_generation",
                                          lambda v: isinstance(v, bool), "a boolean"),
    "disableCapitalizedProperties": ("disable_capitalized_properties",
                                     lambda v: isinstance(v, bool), "a boolean"),
    "defaultTimestampFormat": ("default_timestamp_format",
                               lambda v: isinstance(v, str) and v in TIMESTAMP_FORMATS,
                               "one of " + ", ".join(repr(f) for f in TIMESTAMP_FORMATS)),
    "schemaDocumentExtensions": ("schema_document_extensions", lambda v: isinstance(v, dict),
                                 "an object of JSON values"),
    "disableFeatures": ("disable_features", _is_str_list, "a list of strings"),
    "useIntegerType": ("use_integer_type", lambda v: isinstance(v, bool), "a boolean"),
    "compatibility": ("compatibility", lambda v: isinstance(v, str) and v in COMPATIBILITY_MODES,
                      "one of " + ", ".join(repr(m) for m in COMPATIBILITY_MODES)),
    "strict": ("strict", lambda v: isinstance(v, bool), "a boolean"),
}


@dataclass
class CfnConfig:
    """The ``cloudformation`` plugin settings (reference ``CfnConfig``).

    Attributes:
        service: absolute shape ID of the service to convert; ``None`` means "the only
            service in the model" (resolved by :func:`smithy2cfn.emit.convert`).
        organization_name: the ``Organization`` part of ``typeName``; ``None`` defaults to
            ``"AWS"`` when the service has the ``aws.api#service`` trait.
        service_name: the ``Service`` part of ``typeName``; ``None`` defaults to
            ``aws.api#service`` ``cloudFormationName``, else the service shape name.
        external_docs / source_docs: priority-ordered, case-insensitive names looked up in
            a resource's ``smithy.api#externalDocumentation`` for ``documentationUrl`` /
            ``sourceUrl``.
        json_add: resource shape ID → JSON pointer → value, added to the written schema.
        disable_*: the boolean switches of the same names.
        default_timestamp_format: format for timestamps without ``@timestampFormat``.
        schema_document_extensions: top-level keys merged into every schema.
        disable_features: JSON Schema keywords removed from every generated schema.
        use_integer_type: ``integer`` instead of ``number`` for byte/short/integer/long.
        compatibility: ``"default"`` (registry-ready schemas) or ``"reference"`` (the Java
            plugin's output, unchanged wherever it passes the meta-schema).
        strict: fail the build on warnings (``S6000``; read by :func:`smithy2cfn.api.build`).
        extensions: every setting as given (unknown keys included), for custom mappers.
    """

    service: str | None = None
    organization_name: str | None = None
    service_name: str | None = None
    external_docs: list[str] = field(default_factory=lambda: list(DEFAULT_EXTERNAL_DOCS))
    source_docs: list[str] = field(default_factory=lambda: list(DEFAULT_SOURCE_DOCS))
    json_add: dict[str, dict[str, Any]] = field(default_factory=dict)
    disable_handler_permission_generation: bool = False
    disable_deprecated_property_generation: bool = False
    disable_required_property_generation: bool = False
    disable_capitalized_properties: bool = False
    default_timestamp_format: str = "date-time"
    schema_document_extensions: dict[str, Any] = field(default_factory=dict)
    disable_features: list[str] = field(default_factory=list)
    use_integer_type: bool = False
    compatibility: str = "default"
    strict: bool = False
    extensions: dict[str, Any] = field(default_factory=dict)
    #: where the settings came from (a config file, or the command line), for diagnostics
    source: Span | None = None

    @property
    def registry_ready(self) -> bool:
        """True in the default mode: CloudFormation's registry rules are applied."""
        return self.compatibility != "reference"

    @classmethod
    def from_dict(cls, d: Any, diags: Diagnostics, *, spans: Mapping[str, Span] | None = None,
                  source: Span | None = None) -> CfnConfig:
        """Build a config from the plugin's JSON settings object.

        Args:
            d: the ``cloudformation`` plugin object of ``smithy-build.json`` (any mapping
                with string keys); anything else is an ``S5001`` error and gives the defaults.
            diags: receives ``S5001`` (error) for a setting of the wrong type — the setting
                keeps its default — and ``S5002`` (warning) for an unknown setting.
            spans: where each setting's key is written (a config file), for diagnostics.
            source: where the settings come from, for diagnostics without a key span.

        Returns:
            The config (``source`` set); never raises on bad input (reference
            ``CfnConfig.fromNode``).
        """
        config = cls(source=source)
        spans = spans or {}
        if not isinstance(d, Mapping) or not all(isinstance(k, str) for k in d):
            diags.error("S5001", "cloudformation plugin settings must be a JSON object (a mapping of setting "
                        f"names to values), got {type(d).__name__}", source,
                        hint='for example {"service": "example.weather#Weather"}')
            return config
        config.extensions = dict(d)
        for key, value in d.items():
            where = spans.get(key, source)
            spec = _SETTINGS.get(key)
            if spec is None:
                diags.warning("S5002", f"unknown cloudformation setting '{key}' is ignored", where,
                              hint="known settings: " + ", ".join(sorted(_SETTINGS)))
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
            if isinstance(value, list):
                value = list(value)
            elif isinstance(value, dict):
                value = dict(value)
            setattr(config, attr, value)
        return config
