"""Diagnostics: every problem found in a model or a build.

A :class:`Diagnostic` carries a stable code, a :class:`Severity`, a plain message, an
optional shape ID and a :class:`Span` (file, 1-based line and column). Stages never raise
on bad input: they append diagnostics to a list and go on, so one run reports all the
problems it can find (the reference's ``ValidationEvent`` model, Smithy 2.0
"Model validation").

Every stage reports to a :class:`Diagnostics`; what a run reports of them is the funnel's
(:func:`funnel`: sorted, deduplicated, at most :data:`MAX_PER_CODE` of one code and
severity), and a message lists at most :data:`MAX_LISTED` items (:func:`listed`), so that
output grows linearly with the model (README "Limits").

Every code is registered in :data:`CODES` with its usual severity, the reference's event ID
(filled in for every diagnostic that does not give one) and its meaning; README
"Diagnostics" lists the same table. Code groups:

* ``S1xxx`` parse (IDL syntax, JSON AST syntax, I/O)
* ``S2xxx`` load (shape resolution, mixins, apply, traits, prelude)
* ``S3xxx`` validate (semantic model checks)
* ``S4xxx`` derive / emit (CloudFormation conversion, meta-schema check)
* ``S5xxx`` configuration and output
"""

from __future__ import annotations

import enum
import heapq
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any


class Severity(enum.IntEnum):
    """How bad a diagnostic is; ``ERROR`` and above fail a build.

    Ordered like the reference's ``Severity``: NOTE < WARNING < DANGER < ERROR.
    """

    NOTE = 0
    WARNING = 1
    DANGER = 2
    ERROR = 3

    @property
    def label(self) -> str:
        """Lower-case name used in the text format (``error``, ``warning``...)."""
        return self.name.lower()


@dataclass(frozen=True, order=True, init=False)
class Span:
    """A place in a source file: path and 1-based line/column (end inclusive-exclusive).

    ``line``/``column`` 0 mean "somewhere in this file" (e.g. a JSON AST file without
    positions for a node).
    """

    path: str
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0

    def __init__(self, path: str, line: int = 0, column: int = 0, end_line: int = 0, end_column: int = 0) -> None:
        # The frozen dataclass's own __init__ sets each field through object.__setattr__:
        # 2.5 times slower, and the IDL front end makes a span per shape, member and trait.
        d = self.__dict__
        d["path"], d["line"], d["column"], d["end_line"], d["end_column"] = path, line, column, end_line, end_column

    def __str__(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}:{self.column}"
        return self.path


@dataclass(frozen=True)
class Code:
    """What a diagnostic code means (one entry of :data:`CODES`).

    ``severity`` is the code's usual severity; ``other_severities`` lists the others some of
    its uses have (``S1003`` is a warning for a skipped folder entry). ``event_id`` is the
    reference's validation event ID (Smithy 2.0 "Model validation"; the reference's
    ``Validator.MODEL_ERROR`` is ``"Model"``), or ``None`` where the reference has no event
    (files and folders, the conversion, configuration and output).
    """

    severity: Severity
    event_id: str | None
    meaning: str
    other_severities: tuple[Severity, ...] = ()

    @property
    def severities(self) -> tuple[Severity, ...]:
        """Every severity the code is reported with, the usual one first."""
        return (self.severity, *self.other_severities)


_E, _W, _D, _N = Severity.ERROR, Severity.WARNING, Severity.DANGER, Severity.NOTE
#: Every diagnostic code: code → :class:`Code`. README.md §"Diagnostics" lists the same codes
#: with the same severities and event IDs (``tests/test_readme.py`` checks it).
CODES: dict[str, Code] = {
    # parse (IDL, JSON AST, files)
    "S1000": Code(_E, None, "a model path does not exist or cannot be read"),
    "S1001": Code(_E, "Model", "IDL syntax error (grammar, tokens, escapes, numbers, required line breaks)"),
    "S1002": Code(_E, None, "the file is not valid UTF-8"),
    "S1003": Code(_E, None, "a model path is not a regular file or folder (a FIFO, a device, a socket); warning "
                  "for such an entry (or a broken symbolic link) in a model folder, which is skipped", (_W,)),
    "S1004": Code(_E, None, "a model file is larger than 256 MiB"),
    "S1005": Code(_E, None, "a path cannot be resolved: name too long, symbolic link loop"),
    "S1006": Code(_E, None, "a folder under a model folder cannot be listed"),
    "S1010": Code(_E, "Model", "statement out of order (`$version` not first, `use` after shapes...)"),
    "S1011": Code(_E, "Model", "duplicate statement, member, trait or object key"),
    "S1012": Code(_E, "Model", "bad `$version` or operation input/output suffix"),
    "S1013": Code(_E, "Model", "IDL 2.0 feature in a 1.0 file (mixins, `:=`, `for`, `$member`, defaults, enums, "
                  "resource properties), or `set` in 2.0"),
    "S1014": Code(_E, "Model", "invalid `use` statement, or a shape named like a `use`d one"),
    "S1015": Code(_W, "Model", "unknown control statement"),
    "S1016": Code(_E, "Model", "node value nested more than 256 levels deep (IDL and JSON AST; see Limits)"),
    "S1017": Code(_E, "Model", "wrong members for a list/map/enum, badly typed service/resource properties"),
    "S1018": Code(_W, "Model.BadDocumentationComment", "documentation comment (`///`) attached to nothing (after "
                                                       "traits, at the end of a line or file, before `}`...)"),
    "S1100": Code(_E, "Model", "JSON AST file is not valid JSON (RFC 8259: `NaN` and `Infinity` are not JSON)"),
    "S1101": Code(_E, "Model", "JSON AST document has the wrong structure (not an object, no `smithy` version, "
                  "`metadata`/`shapes`/a shape entry not an object)"),
    "S1102": Code(_E, "Model", "unsupported Smithy version"),
    "S1103": Code(_E, "Model", "a number literal out of range (IDL or JSON; see Limits)"),
    "S1104": Code(_E, "Model", "a JSON AST property has the wrong type or is missing (`mixins`, `members`, "
                  "`traits`, `target`, `rename`...)"),
    "S1105": Code(_E, "Model", "a JSON AST shape ID or member name is invalid (trait names, targets, `rename` keys)"),
    "S1106": Code(_W, "Model", "unknown JSON AST property (ignored, as the reference does)"),
    # load
    "S2001": Code(_E, "Target", "a shape reference does not resolve (with a \"did you mean\" hint)"),
    "S2002": Code(_E, "Model", "a shape is defined twice (or redefines a built-in shape)"),
    "S2003": Code(_E, "Model", "`apply` targets a shape or member that does not exist"),
    "S2004": Code(_E, "Model", "unknown shape type"),
    "S2005": Code(_E, "Model", "conflicting metadata values"),
    "S2006": Code(_E, "Model", "malformed shape entry (member without target, bad reference)"),
    "S2010": Code(_E, "Model.UnresolvedTrait", "unknown trait (no definition loaded), reported once; a warning "
                                               "and kept as is with --allow-unknown-traits"),
    "S2011": Code(_E, "Model", "a shape applied as a trait is not a trait definition"),
    "S2012": Code(_E, "Model", "a trait needs a value"),
    "S2013": Code(_E, "Model", "two different values for one trait"),
    "S2020": Code(_E, "Model", "mixin cycle (reported on every shape on it)"),
    "S2021": Code(_E, "Model", "mixin without `@mixin`, or of another shape type"),
    "S2022": Code(_E, "Model", "member conflicts with an inherited mixin member"),
    "S2023": Code(_E, "Model", "`for` names a shape that is not a resource"),
    "S2024": Code(_E, "Model", "elided member matches no resource identifier/property or mixin member"),
    "S2025": Code(_E, "SyntacticShapeIdTarget", "an unquoted node value names no shape"),
    "S2026": Code(_E, "Model", "`@box` in an IDL 2.0 model"),
    "S2027": Code(_D, "PrivateAccess", "a structure is `for` a `@private` resource of another namespace"),
    "S2029": Code(_E, "Model", "mixins would copy more members and traits into shapes than the model may hold "
                  "(see Limits); the shapes after the one reported are not built"),
    # validate
    "S3001": Code(_E, "TraitTarget", "trait applied outside its selector"),
    "S3002": Code(_E, "TraitConflict", "conflicting traits"),
    "S3003": Code(_E, "TraitValue", "trait value does not match the trait's shape"),
    "S3004": Code(_W, "TraitValue", "trait value has a member the trait's shape lacks"),
    "S3005": Code(_E, "ExclusiveStructureMemberTrait", "structurally exclusive trait used twice"),
    "S3006": Code(_W, "UnstableTrait", "unstable trait"),
    "S3007": Code(_E, "DefaultTrait", "`@default` value of the wrong type"),
    "S3008": Code(_N, "TraitTarget", "a selector cannot be evaluated; its check is skipped"),
    "S3009": Code(_E, "TraitValue", "a selector (`@trait`, `@idRef`) nests functions more than 50 levels deep "
                  "(see Limits)"),
    "S3010": Code(_E, "ResourceLifecycle", "lifecycle operation with the wrong `@readonly`/`@idempotent`"),
    "S3011": Code(_E, "ResourceIdentifierBinding", "an instance operation does not bind every identifier with a member of the identifier's target, or a child resource's operation misses a parent identifier"),
    "S3012": Code(_E, "ResourceIdentifierBinding", "collection operation binds every identifier"),
    "S3013": Code(_E, "ResourceIdentifier", "a child resource lacks its parent's identifiers, or gives them other targets"),
    "S3016": Code(_E, "ResourceCycle", "resource containment cycle (or two children of a resource sharing a descendant, as the reference finds)"),
    "S3017": Code(_E, "ResourceOperationInputOutput", "an input/output member maps to no property or identifier, to a property of another target, or twice; a property no operation uses"),
    "S3018": Code(_E, "Target", "a relationship targets the wrong kind of shape (a trait definition, a mixin, a string identifier...)"),
    "S3020": Code(_E, "TraitValue", "a `@pattern` cannot be compiled: groups nested more than 100 deep, or a "
                  "repetition count too large (`a{4294967296}`)"),
    "S3030": Code(_E, "EnumShape", "enum value that is not a non-empty string"),
    "S3031": Code(_E, "EnumShape", "duplicate enum / intEnum values"),
    "S3032": Code(_E, "Model", "enum / intEnum without members"),
    "S3033": Code(_E, "EnumShape", "intEnum value missing, or not a 32-bit integer"),
    "S3034": Code(_W, "EnumShape", "an enum member name that is not UPPER_SNAKE_CASE"),
    "S3040": Code(_E, "Model", "operation / resource mixin with input, output, identifiers..."),
    "S3041": Code(_E, "Model", "list / map without its required members"),
    "S3043": Code(_E, "Model", "two mixins give a member different targets"),
    "S3050": Code(_E, "CfnResourceProperty", "a CloudFormation property targets different shapes (a warning "
                  "when they are all of one type)", (_W,)),
    "S3051": Code(_E, "CfnResourceProperty", "primary identifier is not a string property"),
    "S3052": Code(_E, "CfnMutabilityTrait", "write/create-only member marked additional identifier"),
    "S3300": Code(_E, "Service", "two shapes of a service closure have case-insensitively equal names (a warning or note when they are equivalent lists or simple shapes)", (_W, _N,)),
    "S3301": Code(_E, "Service", "a service `rename` is not a valid identifier, changes nothing, names a shape outside the service, or renames a member, resource or operation"),
    "S3302": Code(_E, "ShapeIdConflict", "two shape or member IDs differ only in case"),
    "S3303": Code(_E, "SingleResourceBinding", "a resource is bound twice in a service closure"),
    "S3304": Code(_E, "SingleOperationBinding", "an operation is bound twice in a service closure"),
    "S3305": Code(_D, "AuthTrait", "`@auth` names an auth scheme the service does not have"),
    "S3306": Code(_W, "ServiceAuthDefinitions", "a service with several auth schemes has no `@auth` order"),
    "S3307": Code(_E, "HttpApiKeyAuthTrait", "`@httpApiKeyAuth` with a `scheme` is not sent in a header"),
    "S3308": Code(_E, "UnitType", "`smithy.api#Unit` referenced where only operation input/output and union or enum members may"),
    "S3309": Code(_W, "ServiceBoundResourceOperation", "a service operation has members that bind identifiers of one of its resources"),
    "S3320": Code(_E, "OperationInputOutputMisuse", "an `@input`/`@output` structure used as the other, by a member, or by several operations"),
    "S3321": Code(_W, "OperationInputOutputName", "an `@input`/`@output` structure not named after its operation"),
    "S3322": Code(_W, "OperationNameAmbiguity", "a shape named like an operation's input/output that is not"),
    "S3323": Code(_E, "IdempotentTrait", "`@idempotent` `exists`/`notFound` both set, or naming an error the operation lacks"),
    "S3324": Code(_W, "IdempotencyTokenIgnored", "`@idempotencyToken` outside a top-level operation input member"),
    "S3325": Code(_E, "RequestCompressionTrait", "`@requestCompression` without input, with a length-requiring stream, or with no or unknown encodings"),
    "S3326": Code(_E, "ExamplesTrait", "an `@examples` example does not match the operation's input, output or errors", (_W,)),
    "S3340": Code(_E, "StreamingTrait", "a stream used where it is not allowed (nested, in errors, event stream members, without `@httpPayload`, optional)"),
    "S3341": Code(_E, "EventPayloadTrait", "an event with an `@eventPayload` member has members that are not `@eventHeader`s"),
    "S3360": Code(_E, "HttpBindingsMissing", "an operation of a service whose other operations (or protocol) need `@http` has none", (_W,)),
    "S3361": Code(_W, "HttpBindingTraitIgnored", "an HTTP binding trait on a member where it has no effect"),
    "S3362": Code(_E, "HttpHeaderTrait", "two members bind one header, or a header name is restricted or not an RFC 9110 token", (_D,)),
    "S3363": Code(_E, "HttpLabelTrait", "a URI label without its `@httpLabel` member, or the reverse; a greedy label not bound to a string"),
    "S3364": Code(_E, "HttpQueryTrait", "two members bind one query parameter, or one the URI sets literally"),
    "S3365": Code(_N, "HttpQueryParamsTrait", "`@httpQueryParams` next to `@httpQuery` members"),
    "S3366": Code(_E, "HttpPrefixHeadersTrait", "an `@httpHeader` starts with the structure's `@httpPrefixHeaders` prefix", (_N,)),
    "S3367": Code(_E, "HttpUriConflict", "two operations of a service share a method and URI pattern", (_D,)),
    "S3368": Code(_D, "HttpUriGreedyLabel", "several greedy labels in a URI, or one that is not the last label"),
    "S3369": Code(_E, "HttpUriFormat", "an `@http` URI that is not US-ASCII"),
    "S3370": Code(_W, "HttpMethodSemantics", "`@readonly`/`@idempotent` or a request payload that does not fit the HTTP method", (_D,)),
    "S3371": Code(_D, "HttpResponseCodeSemantics", "an `@http` code outside 2xx (or a body with 204/205), an `@httpError` code outside its error's range", (_W,)),
    "S3372": Code(_E, "HttpPayload", "with an `@httpPayload` member, other members are not bound"),
    "S3373": Code(_E, "HostLabelTrait", "an `@endpoint` host prefix that does not expand to a host or does not match the `@hostLabel` members", (_D,)),
    "S3374": Code(_E, "Model", "a trait of these validators cannot be created (\"Error creating trait\"): an `@http` URI or `@endpoint` host prefix that does not parse; a member of `@http`, `@endpoint`, `@httpApiKeyAuth`, `@requestCompression`, `@paginated`, `@idempotent`, `@references`, `@examples` missing or of the wrong type; a shape ID in `@auth`, `@idempotent`, `@references`, `@examples` that is none; `@error` neither client nor server; an empty `@httpHeader`/`@httpQuery`"),
    "S3375": Code(_E, "NoInlineDocumentSupport", "a service uses document shapes but its protocol does not support them"),
    "S3380": Code(_E, "PaginatedTrait", "an `@paginated` member is missing, required, of the wrong type, or a path where none is allowed", (_D, _W,)),
    "S3400": Code(_W, "ResourceIdentifierBinding", "an implicit identifier binding is overridden by `@resourceIdentifier`"),
    "S3401": Code(_E, "ResourceIdentifierBinding", "two members bind one identifier with `@resourceIdentifier`"),
    "S3402": Code(_W, "MemberShouldReferenceResource", "a member named and typed like a resource identifier without `@references`"),
    "S3403": Code(_E, "ResourceIdentifier", "a resource identifier is also a resource property"),
    "S3405": Code(_E, "ReferencesTrait", "a `@references` entry that targets no resource, has `ids` on a string shape or of the wrong count or names, or names members that are missing or not strings"),
    # validate: trait packages (S3700-S3899: traitValidators, waiters, protocols, protocol tests, mqtt,
    # apigateway, contracts, rules engine)
    "S3700": Code(_E, "TraitValidators", "a `@traitValidators` key is not a valid event ID (that definition's validators do not run)"),
    "S3701": Code(_E, None, "a `@traitValidators` selector matched a shape near where the trait is applied (the entry's own event ID and severity)", (_D, _W, _N,)),
    "S3702": Code(_E, "TraitValidators", "a `@traitValidators` selector nests functions more than 50 levels deep (see Limits)"),
    "S3703": Code(_N, "TraitValidators", "a `@traitValidators` selector cannot be evaluated; that entry is not checked"),
    "S3710": Code(_E, "WaitableTrait", "a `@waitable` waiter is malformed: no success acceptor, `minDelay` > `maxDelay`, a `message` on a non-failure acceptor or not giving strings, a JMESPath syntax or function error, `booleanEquals` expecting neither \"true\" nor \"false\""),
    "S3711": Code(_D, "WaitableTraitJmespathProblem", "a waiter's JMESPath expression does not fit the operation's input/output (a missing field, a wrong type), or gives the wrong type for its comparator (`.ReturnTypeMismatch`)"),
    "S3712": Code(_W, "WaitableTraitJmespathProblem", "a waiter's JMESPath expression compares values of a type the comparator does not order"),
    "S3713": Code(_W, "WaitableTraitInvalidErrorType", "a waiter's `errorType` names none of the operation's errors"),
    "S3714": Code(_E, "UniqueWaiterNames", "two operations of a service have waiters whose names differ only in case"),
    "S3720": Code(_E, "Model", "a `@conditions` value is not an object of conditions with a string `expression` and `documentation`, or an expression is not JMESPath (the trait is not created)"),
    "S3721": Code(_E, "ConditionsTrait", "a `@conditions` expression calls an unknown function or passes it wrong arguments"),
    "S3722": Code(_D, "ConditionsTrait", "a `@conditions` expression does not fit its shape (a missing field, a wrong type) or does not give a boolean"),
    "S3723": Code(_W, "ConditionsTrait", "a `@conditions` expression compares values of a type the comparator does not order"),
    "S3724": Code(_E, "TraitValue", "a trait value breaks a `@conditions` condition of its shape (`TraitValue.<condition>`)"),
    "S3730": Code(_E, "Model", "an MQTT topic (`@smithy.mqtt#publish`/`#subscribe`) is empty, has a wildcard, a label that is not a whole level, a bad or repeated label"),
    "S3731": Code(_E, "MqttTopicLabel", "an MQTT topic label has no `@topicLabel` input member, or a `@topicLabel` member no label"),
    "S3732": Code(_E, "MqttTopicConflict", "two MQTT operations bind conflicting topics to different payloads"),
    "S3740": Code(_E, "Rpcv2CborTrait", "an `eventStreamHttp` value of `@rpcv2Cbor`/`@rpcv2Json` is not in its `http` list (Rpcv2JsonTrait for rpcv2Json)"),
    "S3750": Code(_E, "AuthorizersTrait", "an `@aws.apigateway#authorizers` scheme is not an auth scheme of the service, or `enableSimpleResponses` without payload format 2.0"),
    "S3751": Code(_E, "EndpointConfiguration", "a `PRIVATE` API Gateway endpoint with an `ipAddressType` other than `dualstack`"),
    "S3752": Code(_D, "GatewayResponsesCors", "a service has both `@aws.apigateway#gatewayResponses` and `@cors` (responses override CORS headers)"),
    "S3760": Code(_E, "UniqueProtocolTestCaseId", "two protocol test cases of one trait share an ID"),
    "S3761": Code(_E, "HttpRequestTestsInput", "an `httpRequestTests` case has params or vendor params that are no valid value, or a malformed JSON/XML body (danger)", (_D, _W,)),
    "S3762": Code(_E, "HttpResponseTestsOutput", "an `httpResponseTests` case of an operation has params or vendor params that are no valid value, or a malformed body (danger)", (_D, _W,)),
    "S3763": Code(_E, "HttpResponseTestsError", "an `httpResponseTests` case of an error structure has params or vendor params that are no valid value, or a malformed body (danger)", (_D, _W,)),
    "S3764": Code(_E, "HttpMalformedRequestTests", "the `testParameters` lists of a malformed request test differ in length"),
    "S3765": Code(_E, "EventStreamTestsTrait", "an `eventStreamTests` case is empty, has an event without a stream for it, values that are no valid value, or a malformed body (danger)", (_D, _W,)),
    "S3766": Code(_E, "Model", "a protocol test case names a shape with a relative ID in quotes (`\"Params\"`): the trait cannot be read"),
    "S3767": Code(_E, "Model", "a protocol test case names a shape the model lacks (`vendorParamsShape`...): its checks stop there"),
    "S3768": Code(_E, "Model", "a protocol test case lacks a required member (`Missing expected member`): the trait is not created"),
    "S3770": Code(_E, "Model", "an `@endpointRuleSet` or `@endpointBdd` value cannot be read (bad structure, parameter, version, base64 nodes, node count): the trait is not created"),
    "S3771": Code(_E, "StaticContextParamsTrait", "a `@staticContextParams` value is not a string, a boolean or a list of strings"),
    "S3772": Code(_E, "OperationContextParamsTrait", "an `@operationContextParams` path does not parse, does not fit the input, or uses an unsupported JMESPath expression"),
    "S3773": Code(_E, "RuleSetParameter.StaticContextParams.InconsistentType", "a `@staticContextParams` value's type differs from the same parameter's elsewhere"),
    "S3774": Code(_E, "RuleSetParameter.OperationContextParams.InconsistentType", "an `@operationContextParams` path's type differs from the same parameter's elsewhere"),
    "S3775": Code(_E, "RuleSetParameter.ContextParam.UnsupportedType", "a `@contextParam` member targets neither a string nor a boolean"),
    "S3776": Code(_E, "RuleSetParameter.ContextParam.InconsistentType", "a `@contextParam` member's type differs from the same parameter's elsewhere"),
    "S3777": Code(_E, "RuleSetParameter.Operation.RequiredMissing", "an operation binds no value for a required rule set parameter without default"),
    "S3778": Code(_E, "RuleSetParameter.RuleSet.UnmatchedName", "a rule set parameter the service model does not bind, or a bound parameter the rule set lacks"),
    "S3779": Code(_E, "RuleSetParameter.RuleSet.TypeMismatch", "a rule set parameter's type differs from the type the service model binds"),
    "S3780": Code(_D, "RuleSetParameter.TestCase.Unused", "a rule set parameter no endpoint test case sets"),
    "S3781": Code(_E, "RuleSetParameter.TestCase.TypeMismatch", "an endpoint test case sets a parameter to a value of another type"),
    "S3782": Code(_E, "RuleSetParameter.TestCase.RequiredMissing", "an endpoint test case lacks a required parameter without default"),
    "S3783": Code(_E, "RuleSetParameter.TestCase.Undefined", "an endpoint test case sets a parameter the rule set does not define"),
    "S3784": Code(_E, "RuleSetAuthSchemes", "an endpoint's `authSchemes` is not a list of named schemes, names one twice, or a sigv4/sigv4a/beta scheme has bad properties (a `sigv4-` sub-scheme: danger; an unknown scheme: warning)", (_D, _W,)),
    "S3785": Code(_E, "RuleSetBuiltIn", "a built-in parameter (in the rule set or a test's `builtInParams`) is not a registered built-in (`RuleSetBuiltIn.RuleSet`, `RuleSetBuiltIn.TestCase.<i>.Inputs.<j>`)"),
    "S3786": Code(_E, "RuleSetUri", "an endpoint URL starts with literal text other than `http://` or `https://`"),
    "S3787": Code(_W, "RuleSetParamMissingDocs", "a rule set parameter has no documentation"),
    "S3788": Code(_E, "RulesEngineVersion", "a rule set uses a function (coalesce, ite, split, negative getAttr index) newer than its declared version"),
    "S3789": Code(_E, "BddTrait", "an `@endpointBdd` node or root refers to a condition, node or result that does not exist"),
    "S3790": Code(_E, "EndpointTestsTrait", "an endpoint test names an operation the service lacks, gives built-in values inconsistently or not at all, or an operation input that does not fit the input shape (danger)", (_D,)),
    "S3791": Code(_E, "RuleSetTestCase", "an endpoint test case does not give what it expects when the rule set is evaluated (a value of the wrong type, an empty split delimiter, another endpoint or error)"),
    "S3800": Code(_D, "RuleSetAwsBuiltIn", "a rule set uses an AWS built-in that needs care (`AWS::Auth::AccountId`...; `RuleSetAwsBuiltIn.<built-in>`)"),
    "S3801": Code(_D, "AwsSpecialCaseEndpoint.UnsupportedEndpointPattern", "a special-case endpoint pattern uses a placeholder other than `{region}`, `{service}`, `{dnsSuffix}`, `{dualStackDnsSuffix}`"),
    "S3802": Code(_D, "AwsSpecialCaseEndpoint.InvalidEndpointPatternScheme", "a special-case endpoint pattern does not start with `http://` or `https://`"),
    "S3803": Code(_E, "AwsSpecialCaseEndpoint.InvalidEndpointPatternUrl", "a special-case endpoint pattern is not a URL once its braces are removed"),
    "S3099": Code(_E, None, "internal error in one validator: the model is not accepted unchecked (please report)"),
    # validate: AWS trait packages, IAM, smoke tests, configured validators, linters (S3500-S3699)
    "S3500": Code(_E, "ArnTemplate", "an `@aws.api#arn` template has a bad label, or its labels are not the "
                  "resource's identifiers"),
    "S3501": Code(_E, "ArnTrait", "`@aws.api#arn(resourceDelimiter)` on an ARN that is not `absolute`"),
    "S3502": Code(_D, "CloudWatchNamespace", "`aws.api#service(cloudWatchNamespace)` does not start with `AWS/` "
                  "or is not PascalCase"),
    "S3503": Code(_E, "ErrorRename", "a service using an AWS protocol renames an error shape"),
    "S3504": Code(_W, "EventSource", "`aws.api#service(cloudTrailEventSource)` is a placeholder or not "
                  "`<arnNamespace>.amazonaws.com`"),
    "S3505": Code(_D, "SdkServiceId", "`aws.api#service(sdkId)` is not a valid SDK service ID"),
    "S3506": Code(_E, "HttpChecksumTrait", "`@httpChecksum` without a behaviour, or naming missing or non-enum "
                  "members or unsupported values; a header binding that collides with `x-amz-checksum-` "
                  "(danger, warning)", (_D, _W)),
    "S3507": Code(_W, "SigV4Traits", "`arnNamespace`, `@sigv4(name)` and `@sigv4a(name)` differ"),
    "S3508": Code(_E, "ClientEndpointDiscovery", "endpoint discovery: the endpoint operation is unbound or has the "
                  "wrong input or output, an operation is not in a discovery service or lacks its error; no "
                  "error defined (danger), no discovered operation (warning)", (_D, _W)),
    "S3509": Code(_E, "ProtocolHttpPayload", "with an AWS protocol, `@httpPayload` binds a list, map or simple "
                  "type other than a string or blob"),
    "S3510": Code(_E, "ProtocolHttp", "an `eventStreamHttp` version of an AWS protocol is not in its `http`"),
    "S3511": Code(_D, "QueryErrorCode", "two errors of a query (or query-compatible) service share an error code"),
    "S3512": Code(_W, "ServiceTagging", "a `@tagEnabled` service lacks a tag operation (warning) or has one of the "
                  "wrong shape (danger)", (_D,)),
    "S3513": Code(_E, "TagEnabledService", "a `@tagEnabled` service has no `@taggable` resource; inconsistent tag "
                  "operations or an `apiConfig` shadowing an operation (warning)", (_W,)),
    "S3514": Code(_D, "TaggableResource", "a `@taggable` resource cannot be tagged, updates tags, or lacks `@arn` "
                  "(error); a likely taggable resource, or a service without `@tagEnabled` (warning)", (_E, _W)),
    "S3515": Code(_W, "TagResourcePropertyName", "a `@taggable(property)` is not named like `tags`"),
    "S3516": Code(_E, "TagResourcePropertyType", "a `@taggable(property)` is not a list of key/value pairs or a "
                  "map of strings"),
    "S3540": Code(_E, "ConditionKeys", "an IAM condition key used by an operation, member or the service is not "
                  "defined, or a member supplies a key the service resolves"),
    "S3541": Code(_E, "ConditionKeyValueTrait", "several input members supply one condition key's value"),
    "S3542": Code(_E, "DefineConditionKeysTrait", "a condition key defined `required` is not service-resolved"),
    "S3543": Code(_E, "IamAction", "`@iamAction` sets a property a deprecated IAM trait also sets; a resource both "
                  "required and optional (danger)", (_D,)),
    "S3544": Code(_D, "IamResourceTrait", "an `@iamResource` name does not appear in the resource's `@arn`"),
    "S3545": Code(_E, "IamResourceTraitConflictingName", "two IAM resources of a service share a name "
                  "(case-insensitively)"),
    "S3560": Code(_E, "SmokeTestCase", "a smoke test case's `params` or `vendorParams` do not match their shapes, "
                  "or `params` is missing for required input; `vendorParams` without its shape or the "
                  "reverse (warning)", (_W,)),
    "S3561": Code(_E, "UniqueSmokeTestCaseId", "two smoke test cases of a service (or an operation) share an ID"),
    "S3580": Code(_E, "Model", "the `validators` metadata is not a list of objects, or an entry lacks `name` or "
                  "has a bad `severity`, `namespaces` or `selector`"),
    "S3581": Code(_W, "UnknownValidator", "a `validators` entry names no known validator (event "
                  "`UnknownValidator_<name>`)"),
    "S3582": Code(_E, "Model", "a configured validator cannot be created from its `configuration`"),
    "S3583": Code(_W, "Model", "a `validators` entry has an unknown property"),
    "S3590": Code(_D, "EmitEachSelector", "configured `EmitEachSelector`: a shape matches the selector (event, "
                  "severity and message as configured)", (_E, _W, _N)),
    "S3591": Code(_D, "EmitNoneSelector", "configured `EmitNoneSelector`: no shape matches the selector",
                  (_E, _W, _N)),
    "S3592": Code(_N, "UnreferencedShape", "configured `UnreferencedShape`: a shape is not connected to a root "
                  "shape", (_D, _W)),
    "S3600": Code(_D, "AbbreviationName", "linter: a shape or member name has an all-caps abbreviation",
                  (_W, _N)),
    "S3601": Code(_D, "CamelCase", "linter: a shape, trait or member name is not camel case as configured",
                  (_W, _N)),
    "S3602": Code(_W, "InputOutputStructureReuse", "linter: an operation input or output lacks `@input` or "
                  "`@output`", (_D, _N)),
    "S3603": Code(_D, "MissingClientOptionalTrait", "linter: a `@required` or `@default` member lacks "
                  "`@clientOptional`", (_W, _N)),
    "S3604": Code(_D, "MissingPaginatedTrait", "linter: an operation looks paginated but lacks `@paginated` "
                  "(warning for a suggestion)", (_W, _N)),
    "S3605": Code(_W, "MissingSensitiveTrait", "linter: a name suggests sensitive data but nothing is "
                  "`@sensitive`", (_D, _N)),
    "S3606": Code(_W, "NoninclusiveTerms", "linter: a name or trait value uses a non-inclusive term", (_D, _N)),
    "S3607": Code(_W, "RepeatedShapeName", "linter: a member name repeats its structure's or union's name",
                  (_D, _N)),
    "S3608": Code(_D, "ReservedWords", "linter: a shape or member name is a reserved word", (_W, _N)),
    "S3609": Code(_D, "ShouldHaveUsedTimestamp", "linter: a shape or member named like a timestamp is not one",
                  (_W, _N)),
    "S3610": Code(_D, "StandardOperationVerb", "linter: an operation name does not start with a standard verb",
                  (_W, _N)),
    "S3611": Code(_W, "StutteredShapeName", "linter: a member name starts with its structure's or union's name",
                  (_D, _N)),
    "S3100": Code(_E, "Model", "malformed validation metadata: `suppressions`, `severityOverrides` or `validators` (a warning for an unknown property)", (_W,)),
    "S3101": Code(_N, "Model.IgnoredDuplicateDefinition", "a shape defined again the same way (its traits merge): the definition is ignored"),
    "S3102": Code(_E, "Target", "a mixin that has no `@mixin` trait"),
    "S3103": Code(_E, "Model", "a mixin that is not defined, or cannot be built (the shape cannot be built either)"),
    "S3104": Code(_E, "Model", "`@default` in an IDL 1.0 model"),
    "S3105": Code(_W, "DeprecatedShape", "a relationship targets a `@deprecated` shape (event `DeprecatedShape.<target>`)"),
    "S3106": Code(_E, "Model", "a built-in trait's value cannot be read: the wrong JSON type for the trait's shape, a member its reference class expects missing, an invalid shape ID, an `externalDocumentation` value that is not a URL"),
    "S3107": Code(_W, "DeprecatedTrait", "a `@deprecated` trait is applied"),
    "S3108": Code(_E, "EnumTrait", "`@enum` trait values: a duplicate `value` or `name`, or a value without `name` where others have one"),
    "S3109": Code(_W, "EnumTrait", "`@enum` trait names missing (`EnumNamesPresent`) or not upper case (`EnumTrait.<name>`)"),
    "S3110": Code(_E, "LengthTrait", "`@length` with a negative `min` or `max`, or `min` greater than `max`"),
    "S3111": Code(_E, "RangeTrait", "`@range` with a decimal bound on a shape without decimals, or `min` greater than `max`"),
    "S3112": Code(_E, "CorsTrait", "`@cors` with both `origin` and `origins`"),
    "S3113": Code(_E, "JsonName", "members of one shape whose JSON names (`@jsonName` or member name) conflict"),
    "S3114": Code(_E, "XmlNamespaceTrait", "`@xmlNamespace` with an invalid `uri`"),
    "S3115": Code(_E, "Union", "a union without members"),
    "S3116": Code(_N, "Union", "a union member targeting a shape with a `@default` (note), `@box` on a union member (warning)", (_W,)),
    "S3117": Code(_E, "PrivateAccess", "a reference to a `@private` shape of another namespace (a warning for a private trait applied)", (_W,)),
    "S3118": Code(_E, "MetadataTrait", "`@metadata` for a reserved key, or two shapes typing one metadata key"),
    "S3119": Code(_E, "TypedMetadata", "a metadata value that does not match its `@metadata` shape (event `TypedMetadata.<key>`)", (_W,)),
    "S3120": Code(_E, "ShapeClosure", "a `shapeClosures` entry: duplicate or shape ID, nothing included, bad selector, bad rename"),
    "S3121": Code(_D, "ShapeClosure", "a shape closure namespace without shapes, or a selector adding no shapes (`ShapeClosure.EmptyNamespace.<id>`, `ShapeClosure.EmptySelector.<id>`)"),
    "S3122": Code(_W, "ShapeClosure", "shapes of a closure whose names differ only in case (`ShapeClosure.NameConflicts.<id>`)"),
    "S3123": Code(_W, "DefaultTrait", "a `@default` of `0` outside a `@range` (`DefaultTrait.Member.InvalidRange`...), a blob default that is not base64"),
    "S3124": Code(_E, "ShapeRecursion", "a list, set or map recursive without a structure or union between, a structure recursive through required members, a union that cannot be instantiated"),
    "S3125": Code(_E, "TraitBreakingChanges", "a trait definition's `breakingChanges` path names a missing member"),
    "S3127": Code(_E, "MediaType", "a `@mediaType` value that is not a media type"),
    "S3128": Code(_W, "XmlFlattenedTrait", "`@xmlFlattened` member whose target list member's `@xmlName` has no effect"),
    "S3129": Code(_W, "PrivateMixinMember", "`@private` on a mixin member (it is still inherited)"),
    "S3130": Code(_W, "ModelDeprecation", "a deprecated feature: a `set` shape, the `@enum` trait in IDL 2.0"),
    "S3131": Code(_W, "DefaultValueInUpdate", "an update-style operation whose input has top-level `@default` members"),
    "S3132": Code(_W, "PatternTrait", "a `@pattern` without a leading `^` or a trailing `$`"),
    # derive / emit
    "S4001": Code(_E, None, "the `service` setting names no service (with a \"did you mean\" hint)"),
    "S4002": Code(_E, None, "no `service` setting and not exactly one service in the model"),
    "S4003": Code(_E, None, "a resource has no identifiers, so no `primaryIdentifier`"),
    "S4004": Code(_E, None, "an additional identifier is not a property of the resource"),
    "S4005": Code(_E, None, "a `jsonAdd` pointer cannot be applied"),
    "S4006": Code(_E, None, "`organizationName` missing and the service has no `@aws.api#service`"),
    "S4007": Code(_E, None, "a `@taggable` property is not a property of the resource"),
    "S4008": Code(_E, None, "a `@taggable` resource has no tag operation to read its tags with"),
    "S4009": Code(_E, None, "a resource has no properties"),
    "S4010": Code(_E, None, "two resources give the same typeName"),
    "S4011": Code(_W, None, "a `@cfnResource` resource is not bound to the converted service, so it gets no schema"),
    "S4012": Code(_W, None, "the converted service has no `@cfnResource` resource, so nothing is written"),
    "S4101": Code(_W, None, "a JSON Schema keyword the CloudFormation meta-schema forbids is left out "
                  "(e.g. `contentMediaType`)"),
    "S4102": Code(_E, None, "two shapes want the same definition name"),
    "S4103": Code(_E, None, "a `@range` bound is not a finite number"),
    "S4104": Code(_E, None, "a `@length` bound is not a finite whole number (`1e400`, `1.5`)"),
    "S4105": Code(_E, None, "a `@default` or enum value cannot be written as strict JSON (`NaN`, `Infinity`, "
                  "beyond a double, too deep)"),
    "S4106": Code(_E, None, "lists nested inside each other more than 64 deep (see Limits)"),
    "S4108": Code(_E, None, "a finished schema is not strict JSON, or too deeply nested to write or check "
                  "(names the pointer)"),
    "S4109": Code(_E, None, "internal error: a mapper raised or returned no schema (names the mapper; please report)"),
    "S4301": Code(_N, None, "registry-ready: a resource without `@aws.api#taggable` gets `tagging: {taggable: false}`"),
    "S4302": Code(_W, None, "a tags-like property on a resource without `@aws.api#taggable` (its schema says it "
                  "cannot be tagged)"),
    "S4303": Code(_N, None, "registry-ready: `tagUpdatable` is false (no update handler, or no tag and untag "
                  "operations)"),
    "S4304": Code(_N, None, "registry-ready: the tag property is neither createOnly nor writeOnly (tags change "
                  "through the tag operations)"),
    "S4305": Code(_N, None, "registry-ready: a handler gets the permissions of the tag operations it calls"),
    "S4306": Code(_N, None, "registry-ready: HTML descriptions are written as plain text"),
    "S4307": Code(_N, None, "registry-ready: descriptions shortened to their first sentence so the schema fits in "
                  "60 KiB"),
    "S4308": Code(_E, None, "a schema is over 60 KiB even with its descriptions shortened"),
    "S4309": Code(_N, None, "registry-ready: arrays get an explicit `insertionOrder`"),
    "S4310": Code(_N, None, "registry-ready: a list handler gets a `handlerSchema` for the parent identifiers its "
                  "input needs"),
    "S4201": Code(_E, None, "a schema fails the CloudFormation meta-schema (names the property)"),
    "S4202": Code(_W, None, "a `format` (e.g. a Java-only regex) that the CloudFormation CLI does not check"),
    # lint (issue 9: CloudFormation's rules at the model's source; README "Lint rules")
    "S6000": Code(_E, None, "`--strict` (the `strict` setting): the build has warnings, so it fails and nothing is "
                  "written"),
    "S6001": Code(_W, "CfnLint.CfnValidate.PropertyCase", "a property name starts with a lowercase letter"),
    "S6002": Code(_W, "CfnLint.CfnValidate.InsertionOrder", "an array property without `insertionOrder`"),
    "S6003": Code(_E, "CfnLint.CfnValidate.ArrayType", "`arrayType` on a property that is not an array (`cfn validate` "
                  "rejects it)"),
    "S6004": Code(_W, "CfnLint.CfnValidate.TypeKeywords", "a keyword of another type (`minLength` on a number...)"),
    "S6005": Code(_W, "CfnLint.CfnValidate.ArnPartition", "a `@pattern` hard-codes the `arn:aws:` partition"),
    "S6006": Code(_W, "CfnLint.CfnValidate.Pattern", "a `@pattern` that Python `re` cannot compile, or that uses a "
                  "construct ECMA-262 lacks (`\\p{L}`, `(?i)`)"),
    "S6007": Code(_W, "CfnLint.CfnValidate.LargeEnum", "an enum of more than 15 values"),
    "S6008": Code(_W, "CfnLint.CfnValidate.NonAscii", "non-ASCII characters in the schema (usually `@documentation`)"),
    "S6009": Code(_W, "CfnLint.CfnValidate.ListOption", "a LIST API input (`MaxResults`, `NextToken`...) is a "
                  "property"),
    "S6010": Code(_W, "CfnLint.CfnValidate.ReadOnlyOverlap", "a readOnly property is also createOnly, writeOnly or "
                  "required"),
    "S6011": Code(_W, "CfnLint.CfnValidate.WildcardPermission", "a handler permission with a wildcard"),
    "S6012": Code(_W, "CfnLint.CfnValidate.OpenObject", "an object with properties whose `additionalProperties` is not "
                  "false"),
    "S6013": Code(_W, "CfnLint.CfnValidate.PrimaryIdentifierMutability", "a primaryIdentifier property is neither "
                  "readOnly nor createOnly"),
    "S6014": Code(_E, "CfnLint.CfnValidate.ConditionalCreateOnly", "conditionalCreateOnlyProperties overlap createOnly "
                  "or readOnly (`cfn validate` rejects it)"),
    "S6015": Code(_W, "CfnLint.CfnValidate.Tagging", "the schema has no `tagging`"),
    "S6016": Code(_E, "CfnLint.CfnValidate.Remote", "a top-level `remote` (reserved: `cfn validate` rejects it)"),
    "S6101": Code(_W, "CfnLint.GuardRail.PrimaryIdentifier", "`primaryIdentifier` missing or empty"),
    "S6102": Code(_W, "CfnLint.GuardRail.PrimaryIdentifierWriteOnly", "a primaryIdentifier property is writeOnly"),
    "S6103": Code(_W, "CfnLint.GuardRail.Pointer", "a pointer (`readOnlyProperties`...) names no property of the "
                  "schema"),
    "S6104": Code(_W, "CfnLint.GuardRail.CreateHandler", "no create handler, or one without permissions"),
    "S6105": Code(_W, "CfnLint.GuardRail.ReadHandler", "no read handler, or one without permissions"),
    "S6106": Code(_N, "CfnLint.GuardRail.UpdateHandler", "no update handler (every change replaces the resource)"),
    "S6107": Code(_W, "CfnLint.GuardRail.UpdatePermissions", "an update handler without permissions"),
    "S6108": Code(_W, "CfnLint.GuardRail.DeleteHandler", "no delete handler, or one without permissions"),
    "S6109": Code(_W, "CfnLint.GuardRail.ListHandler", "no list handler, or one without permissions"),
    "S6110": Code(_W, "CfnLint.GuardRail.NotTaggable", "the resource is not taggable (no `@aws.api#taggable`)"),
    "S6111": Code(_W, "CfnLint.GuardRail.TagPropertyNotTaggable", "a property named like tags on a resource that is not "
                  "taggable"),
    "S6112": Code(_W, "CfnLint.GuardRail.TaggingFields", "`tagging` lacks `tagOnCreate`, `tagUpdatable`, "
                  "`cloudFormationSystemTags`, `tagProperty` or `permissions`"),
    "S6113": Code(_W, "CfnLint.GuardRail.TagsProperty", "a taggable resource without a `Tags` property"),
    "S6114": Code(_W, "CfnLint.GuardRail.TagPropertyPointer", "`tagProperty` names no property of the schema"),
    "S6115": Code(_W, "CfnLint.GuardRail.TagPropertyWriteOnly", "the tag property is writeOnly"),
    "S6116": Code(_W, "CfnLint.GuardRail.TagPropertyCreateOnly", "the tag property is createOnly"),
    "S6117": Code(_W, "CfnLint.GuardRail.TagPropertyWildcard", "`tagProperty` holds a wildcard"),
    "S6118": Code(_W, "CfnLint.GuardRail.ArnProperty", "an ARN property that is not a string with a pattern"),
    "S6119": Code(_W, "CfnLint.GuardRail.PropertyType", "a property without a type, or with several"),
    "S6120": Code(_W, "CfnLint.GuardRail.ArrayItems", "an array property without `items`, or with items given by "
                  "`anyOf`/`allOf`/`oneOf`"),
    "S6121": Code(_W, "CfnLint.GuardRail.Description", "the description does not start with `Resource Type definition "
                  "for`"),
    "S6122": Code(_W, "CfnLint.GuardRail.SourceUrl", "`sourceUrl` is not https"),
    "S6123": Code(_W, "CfnLint.GuardRail.ReplacementStrategy", "`replacementStrategy` is `create_then_delete`"),
    "S6124": Code(_W, "CfnLint.GuardRail.LegacyTaggable", "a top-level `taggable`, or a `tagging` that is no object or "
                  "has no `taggable`"),
    "S6130": Code(_E, "CfnLint.Registry.TagUpdatable", "`tagUpdatable` is true without an update handler (the "
                  "registry rejects it); a warning when the model has one but the schema leaves it out", (_W,)),
    "S6201": Code(_W, "CfnLint.Contract.ReadReturnsAll", "a property that is not writeOnly is not in the read output"),
    "S6202": Code(_W, "CfnLint.Contract.IdentifierInputs", "a read or delete input requires a member that is not an "
                  "identifier"),
    "S6203": Code(_W, "CfnLint.Contract.CreateReturnsIdentifier", "the create output lacks the primary identifier"),
    "S6204": Code(_W, "CfnLint.Contract.ListReturnsIdentifiers", "the list output lacks the identifiers"),
    "S6205": Code(_W, "CfnLint.Contract.WriteOnlyReturned", "a writeOnly property is in the read or list output"),
    "S6206": Code(_W, "CfnLint.Contract.PrimaryIdentifierType", "a primaryIdentifier property is not a string or "
                  "integer"),
    # configuration and output
    "S5000": Code(_E, None, "config file unreadable, not a regular file, too large, or not strict JSON (exit 2)"),
    "S5001": Code(_E, None, "a setting or smithy-build.json key has the wrong type or value (exit 2)"),
    "S5002": Code(_W, None, "unknown setting or smithy-build.json key"),
    "S5003": Code(_W, None, "smithy-build.json `maven` dependencies are not fetched"),
    "S5004": Code(_W, None, "smithy-build.json projection transforms are not applied"),
    "S5005": Code(_E, None, "nothing to build: no model file or folder given and no smithy-build.json (exit 2)"),
    "S5010": Code(_E, None, "`--check`: an output file is missing or out of date"),
    "S5011": Code(_E, None, "an output file cannot be written"),
    "S5020": Code(_E, None, "`organizationName` / `serviceName` (config key, `--org`, `--service-name`, library "
                  "`settings`) cannot be part of a typeName (2–64 ASCII letters or digits each); nothing is "
                  "written (exit 2)"),
    "S5021": Code(_E, None, "`jsonAdd` or `schemaDocumentExtensions` sets a `typeName` that is not "
                  "`Org::Service::Resource` (exit 2)"),
    "S5022": Code(_E, None, "the model makes a bad typeName part: `@cfnResource(name:)`, "
                  "`@aws.api#service(cloudFormationName:)` too long, or a shape name (located at the trait or shape)"),
    "S5023": Code(_E, None, "a custom mapper sets a bad `typeName`"),
    "S5024": Code(_E, None, "an output file name is not a plain name inside the output folder, or `--check` would "
                  "read through a link leaving it"),
    "S5030": Code(_E, None, "an extension cannot be used: its entry point does not import, it cannot be made, "
                  "or a hook raises or returns no list of mappers (exit 2)", (_W,)),
    # the command line in CI (issue 10)
    "S7000": Code(_E, None, "`smithy2cfn plugin` run without `SMITHY_PLUGIN_DIR` (not by Smithy's run plugin; "
                  "exit 2)"),
}


def event_id_of(code: str) -> str | None:
    """The reference's event ID for ``code`` (:data:`CODES`), or ``None`` (no such event, or
    a code that is not ours: an extension's)."""
    entry = CODES.get(code)
    return entry.event_id if entry is not None else None


#: The most characters of a source line that a text diagnostic shows.
SOURCE_WINDOW = 120
#: A run reports at most this many diagnostics of one code and severity; the next one (in
#: the order of :meth:`Diagnostic.sort_key`) says how many more there were (:func:`funnel`,
#: README "Limits"). A 5,000-shape mixin cycle would otherwise print 5,000 errors.
MAX_PER_CODE = 1000
#: A message lists at most this many shapes, members or values, then "... and 4,990 more"
#: (:func:`listed`): above every list of the conformance suites (the longest names 11) and
#: of the 402 AWS models (36), so that none of their messages changes.
MAX_LISTED = 50


def listed(items: Iterable[object], limit: int = MAX_LISTED, *, form: str = "{}", sort: bool = False,
           sep: str = ", ", total: int | None = None) -> str:
    """``items`` as text for a message: each one's ``str`` written as ``form`` (``"`{}`"``
    puts it in backticks), ``sep``-joined, at most ``limit`` of them and then
    ``... and 4,990 more`` (``""`` for none).

    ``sort``: by their text (the reference's ``ValidationUtils.tickedList``; otherwise the
    given order, its ``orderedTickedList``). Only the items shown are sorted (a partial
    sort) and formatted. ``total``: how many items there are in all, when ``items`` (in
    order) holds only the first ones. A message that names every other shape of a model
    makes the output grow with the square of the model (issue 15: a 5,000-shape mixin cycle
    printed 296 MB).
    """
    if sort:
        texts = [str(i) for i in items]
        count = len(texts)
        shown = sorted(texts) if count <= limit else heapq.nsmallest(limit, texts)
    else:
        rest = iter(items)
        shown = [str(i) for i in islice(rest, limit)]
        count = len(shown) + (0 if total is not None else sum(1 for _ in rest))
    total = count if total is None else total
    text = sep.join(form.format(t) for t in shown)
    if total > limit:
        text += f"{sep}... and {total - limit:,} more"
    return text


@dataclass(frozen=True)
class Diagnostic:
    """One problem: ``code`` (e.g. ``"S2001"``), severity, message, span, shape ID, hint.

    ``event_id`` is the reference's validation event ID where the problem has one
    (``"TraitTarget"``...); suppressions (Smithy 2.0 "Model validation" §"Suppressions")
    match it. Left out, it is the code's (:data:`CODES`); a caller gives one only where a
    code covers several reference events (``S3105``: ``DeprecatedShape.<target>``).
    """

    code: str
    severity: Severity
    message: str
    span: Span | None = None
    shape_id: str | None = None
    hint: str | None = None
    event_id: str | None = None

    def __post_init__(self) -> None:
        if self.event_id is None:
            object.__setattr__(self, "event_id", event_id_of(self.code))

    @property
    def is_error(self) -> bool:
        """True when this diagnostic fails the build: ERROR, or DANGER (which, as in the
        reference, fails validation unless a suppression hides it)."""
        return self.severity >= Severity.DANGER

    def sort_key(self) -> tuple[str, int, int, str, str, str, str, int, str, int, int]:
        """Key sorting by file, line, column, then code, shape and message, then every other
        field: a total order, so that the order never depends on how a set was hashed
        (two configured validators can report the same message at the same place under
        different event IDs)."""
        s = self.span
        return (
            s.path if s else "",
            s.line if s else 0,
            s.column if s else 0,
            self.code,
            self.shape_id or "",
            self.message,
            self.event_id or "",
            int(self.severity),
            self.hint or "",
            (s.end_line or 0) if s else 0,
            (s.end_column or 0) if s else 0,
        )

    def format_text(self, source_line: str | None = None) -> str:
        """Render as ``file:line:col: severity[CODE] message`` (+ source line and caret).

        ``source_line`` is the text of the offending line, without its newline; when given,
        it is printed under the message with a caret under ``span.column``: at most
        :data:`SOURCE_WINDOW` characters of it, around the column (``…`` marks what is cut),
        so that a 200 KB line does not print 200 KB per diagnostic.
        """
        where = f"{self.span}: " if self.span else ""
        shape = f" (shape {self.shape_id})" if self.shape_id and self.shape_id not in self.message else ""
        out = f"{where}{self.severity.label}[{self.code}] {self.message}{shape}"
        if source_line is not None and self.span and self.span.line:
            gutter = f"{self.span.line:>5} | "
            start = max(self.span.column - 1, 0)
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                width = self.span.end_column - self.span.column
            text = source_line
            if len(text) > SOURCE_WINDOW:
                first = max(0, min(start - SOURCE_WINDOW // 4, len(text) - SOURCE_WINDOW))
                shown = text[first:first + SOURCE_WINDOW]
                text = ("…" if first else "") + shown + ("…" if first + SOURCE_WINDOW < len(source_line) else "")
                start = start - first + (1 if first else 0)
                width = min(width, SOURCE_WINDOW)
            text = text.expandtabs(1)
            width = max(1, min(width, len(text) - start))
            out += f"\n{gutter}{text}\n{' ' * (len(gutter) - 2)}| {' ' * start}{'^' * width}"
        if self.hint:
            out += f"\n      = help: {self.hint}"
        return out

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: code, severity, message, file, line, column, shapeId, hint."""
        d: dict[str, Any] = {"code": self.code, "severity": self.severity.label, "message": self.message}
        if self.span:
            d.update(file=self.span.path, line=self.span.line, column=self.span.column)
        if self.shape_id:
            d["shapeId"] = self.shape_id
        if self.hint:
            d["hint"] = self.hint
        if self.event_id:
            d["eventId"] = self.event_id
        return d


@dataclass(frozen=True)
class Elided(Diagnostic):
    """A diagnostic that also stands for ``more`` others of its code and severity, which its
    source did not make (:class:`SourceLimiter`); :func:`funnel` counts them."""

    more: int = 0


class SourceLimiter:
    """The funnel at a source that could report millions of diagnostics (the IDL parser and
    lowering, the JSON AST reader: a file of 200,000 duplicate shapes): appends to ``out``
    the first ``limit`` diagnostics of each code and severity in the order they are found,
    and, at :meth:`finish`, the next one as an :class:`Elided` holding the count of the
    others, which are never made (that is the saving). :func:`funnel` then reports at most
    ``limit`` of each in the whole run, and the count of the rest.
    """

    __slots__ = ("out", "limit", "counts", "held")

    def __init__(self, out: list[Diagnostic], limit: int = MAX_PER_CODE) -> None:
        self.out = out
        self.limit = limit
        self.counts: dict[tuple[str, Severity], int] = {}
        self.held: dict[tuple[str, Severity], tuple[str, Span | None, str | None, str | None, str | None]] = {}

    def add(self, code: str, severity: Severity, message: str, span: Span | None, shape_id: str | None = None,
            hint: str | None = None, event_id: str | None = None) -> None:
        """Report one diagnostic (the arguments of :class:`Diagnostic`)."""
        key = (code, severity)
        count = self.counts.get(key, 0) + 1
        self.counts[key] = count
        if count <= self.limit:
            self.out.append(Diagnostic(code, severity, message, span, shape_id, hint, event_id))
        elif count == self.limit + 1:
            self.held[key] = (message, span, shape_id, hint, event_id)

    def append(self, diagnostic: Diagnostic) -> None:
        """Report a diagnostic already made."""
        d = diagnostic
        self.add(d.code, d.severity, d.message, d.span, d.shape_id, d.hint, d.event_id)

    def finish(self) -> None:
        """Report the first diagnostic left out of each code and severity, counting the others."""
        for (code, severity), (message, span, shape_id, hint, event_id) in self.held.items():
            more = self.counts[(code, severity)] - self.limit - 1
            self.out.append(Elided(code, severity, message, span, shape_id, hint, event_id, more))
        self.held.clear()


def funnel(items: Iterable[Diagnostic], limit: int = MAX_PER_CODE) -> list[Diagnostic]:
    """What a run reports of ``items``: deduplicated, sorted by :meth:`Diagnostic.sort_key`,
    and at most ``limit`` of each code and severity (README "Limits").

    The first ``limit`` of a code and severity, in that order, are kept; when more than one
    is left over, the first one left over is kept too, its message saying how many more
    there were (the ones its source never made, :class:`Elided`, counted), so the selection
    does not depend on the order in which the stages found them. Each severity of a code
    keeps its own ``limit``: an error is never left out for warnings of its code, so a run
    with errors still fails. Applying it again changes nothing. Suppressed events never
    reach it (validation drops them first), so they take no place.
    """
    ordered = sorted(set(items), key=Diagnostic.sort_key)
    totals: dict[tuple[str, Severity], int] = {}
    for d in ordered:
        key = (d.code, d.severity)
        totals[key] = totals.get(key, 0) + 1 + (d.more if isinstance(d, Elided) else 0)
    if all(n <= limit + 1 for n in totals.values()):
        return [_plain(d) for d in ordered] if any(isinstance(d, Elided) for d in ordered) else ordered
    out: list[Diagnostic] = []
    seen: dict[tuple[str, Severity], int] = {}
    for d in ordered:
        key = (d.code, d.severity)
        n = seen[key] = seen.get(key, 0) + 1
        if n <= limit:
            out.append(_plain(d))
        elif n == limit + 1:
            more = totals[key] - limit - 1
            out.append(_plain(d, f" (and {more:,} more {d.code} {d.severity.label} diagnostics not reported: "
                                 f"a run reports at most {limit:,} of one code and severity)" if more else ""))
    return out


def _plain(d: Diagnostic, note: str = "") -> Diagnostic:
    """``d`` as a plain :class:`Diagnostic`, ``note`` added to its message."""
    if not note and not isinstance(d, Elided):
        return d
    return Diagnostic(d.code, d.severity, d.message + note, d.span, d.shape_id, d.hint, d.event_id)


@dataclass
class Diagnostics:
    """An append-only collection of :class:`Diagnostic` objects, which every stage reports
    to; :meth:`sorted` is what a run reports of them (:func:`funnel`)."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(
        self,
        code: str,
        severity: Severity | None,
        message: str,
        span: Span | None = None,
        shape_id: str | None = None,
        hint: str | None = None,
        event_id: str | None = None,
    ) -> Diagnostic:
        """Record one diagnostic and return it. ``severity`` ``None`` is the code's usual one
        and ``event_id`` ``None`` the code's reference event ID (:data:`CODES`)."""
        if severity is None:
            severity = CODES[code].severity
        d = Diagnostic(code, severity, message, span, shape_id, hint, event_id)
        self.items.append(d)
        return d

    def error(self, code: str, message: str, span: Span | None = None, shape_id: str | None = None,
              hint: str | None = None, event_id: str | None = None) -> Diagnostic:
        """Record an ERROR diagnostic."""
        return self.add(code, Severity.ERROR, message, span, shape_id, hint, event_id)

    def warning(self, code: str, message: str, span: Span | None = None, shape_id: str | None = None,
                hint: str | None = None, event_id: str | None = None) -> Diagnostic:
        """Record a WARNING diagnostic."""
        return self.add(code, Severity.WARNING, message, span, shape_id, hint, event_id)

    def extend(self, other: Diagnostics | list[Diagnostic]) -> None:
        """Append every diagnostic of ``other``."""
        self.items.extend(other.items if isinstance(other, Diagnostics) else other)

    @property
    def has_errors(self) -> bool:
        """True when any diagnostic fails the build (ERROR or DANGER)."""
        return any(d.is_error for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        """What a run reports: the diagnostics deduplicated, sorted by file, line, column, at
        most :data:`MAX_PER_CODE` of each code and severity (:func:`funnel`)."""
        return funnel(self.items)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def _source_line(span: Span | None, cache: dict[str, list[str] | None]) -> str | None:
    if span is None or not span.line:
        return None
    if span.path not in cache:
        try:
            cache[span.path] = Path(span.path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            cache[span.path] = None
    lines = cache[span.path]
    if lines is None or span.line > len(lines):
        return None
    return lines[span.line - 1]


def format_diagnostics(diagnostics: Diagnostics | list[Diagnostic], fmt: str = "text",
                       show_source: bool = True, fold_after: int | None = None) -> str:
    """Render diagnostics sorted by location, one per line (``fmt`` is ``text`` or ``json``),
    at most :data:`MAX_PER_CODE` of each code and severity (:func:`funnel`).

    ``fold_after`` (text only): non-error diagnostics whose code and message repeat more than
    this many times are shown that many times, then summed up in one line.
    """
    items = funnel(diagnostics.items if isinstance(diagnostics, Diagnostics) else diagnostics)
    if fmt == "json":
        return "".join(json.dumps(d.to_json(), sort_keys=True) + "\n" for d in items)
    cache: dict[str, list[str] | None] = {}
    seen: dict[tuple[str, Severity, str], int] = {}
    out: list[str] = []
    for d in items:
        key = (d.code, d.severity, d.message)
        seen[key] = seen.get(key, 0) + 1
        if fold_after is not None and not d.is_error and seen[key] > fold_after:
            continue
        out.append(d.format_text(_source_line(d.span, cache) if show_source else None) + "\n")
    for (code, severity, message), count in seen.items():
        if fold_after is not None and severity < Severity.ERROR and count > fold_after:
            out.append(f"{severity.label}[{code}] {message}: {count - fold_after} more like the above "
                       "(--verbose shows them all)\n")
    return "".join(out)
