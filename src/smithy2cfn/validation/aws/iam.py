"""Validators of the ``aws.iam`` trait package (aws-iam.rst).

Condition keys (``@conditionKeys``, ``@defineConditionKeys``, ``@conditionKeyValue``,
``@serviceResolvedConditionKeys``, the keys inferred from resource identifiers), IAM actions
(``@iamAction`` and the deprecated traits it replaces) and IAM resources
(``@iamResource``). Each check mirrors one validator of the reference's
smithy-aws-iam-traits package, with its event IDs and severities.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity, listed
from smithy2cfn.model.knowledge import TopDownIndex
from smithy2cfn.model.knowledge_ops import OperationIndex
from smithy2cfn.model.nodes import as_object, string_items
from smithy2cfn.model.shapes import Model, Shape
from smithy2cfn.model.traits import (
    ACTION_NAME,
    ACTION_PERMISSION_DESCRIPTION,
    AWS_ARN,
    AWS_SERVICE,
    CONDITION_KEY_VALUE,
    CONDITION_KEYS,
    DEFINE_CONDITION_KEYS,
    DISABLE_CONDITION_KEY_INFERENCE,
    IAM_ACTION,
    IAM_RESOURCE,
    REQUIRED_ACTIONS,
    SERVICE_RESOLVED_CONDITION_KEYS,
)
from smithy2cfn.validation.support.events import distinct, event, ticked
from smithy2cfn.validation.support.shapes import arn_namespace


def full_condition_key(service: Shape, key: str) -> str:
    """A condition key with its service prefix: keys without ``:`` belong to the service's
    ARN namespace (reference ``ConditionKeysIndex.resolveFullConditionKey``)."""
    return key if ":" in key else f"{arn_namespace(service)}:{key}"


def iam_resource_name(resource: Shape) -> str:
    """``@iamResource(name)``, else the resource's shape name (``IamResourceTrait.resolveResourceName``)."""
    name = as_object(resource.traits.get(IAM_RESOURCE)).get("name")
    return name if isinstance(name, str) else resource.name


class ConditionKeysIndex:
    """The condition keys each service defines (explicitly and inferred from resource
    identifiers) and those each resource and operation of it uses (reference
    ``ConditionKeysIndex``).

    Resources inherit their parent's keys (unless ``@iamResource(disableConditionKeyInheritance)``)
    and the keys inferred from their parents' identifiers; operations get only their own
    ``@conditionKeys``.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self._defined: dict[str, dict[str, dict]] = {}
        self._used: dict[str, dict[str, set[str]]] = {}
        for service in model.of_type("service"):
            if AWS_SERVICE not in service.traits:
                continue
            defined: dict[str, dict] = {}
            for key, definition in as_object(service.traits.get(DEFINE_CONDITION_KEYS)).items():
                defined[full_condition_key(service, key)] = as_object(definition)
            self._defined[service.id] = defined
            self._used[service.id] = {}
            for child in [*service.resources, *service.operations]:
                self._compute(service, child, None, set(), set())

    def _compute(self, service: Shape, subject_id: str, parent: Shape | None, inherited: set[str],
                 walking: set[str]) -> None:
        subject = self.model.shapes.get(subject_id)
        if subject is None or subject_id in walking:
            return
        keys: set[str] = set()
        if as_object(subject.traits.get(IAM_RESOURCE)).get("disableConditionKeyInheritance") is not True:
            keys |= inherited
        self._used[service.id][subject_id] = keys
        keys |= {full_condition_key(service, k) for k in string_items(subject.traits.get(CONDITION_KEYS))}
        if subject.type != "resource":
            return
        walking = walking | {subject_id}
        inferred: dict[str, str] = {}
        if DISABLE_CONDITION_KEY_INFERENCE not in subject.traits and DISABLE_CONDITION_KEY_INFERENCE not in \
                service.traits:
            inferred = self._infer(service, subject, parent)
        for op_id in _all_operations(subject):
            if op_id in self.model.shapes:
                self._compute(service, op_id, subject, set(), walking)
        keys |= set(inferred.values())
        for child in subject.resources:
            self._compute(service, child, subject, keys, walking)

    def _infer(self, service: Shape, resource: Shape, parent: Shape | None) -> dict[str, str]:
        out: dict[str, str] = {}
        parent_ids = set(parent.identifiers) if parent is not None else set()
        for name, target in resource.identifiers.items():
            if name in parent_ids or target not in self.model.shapes:
                continue
            key = f"{arn_namespace(service)}:{iam_resource_name(resource)}{name[:1].upper()}{name[1:]}"
            out[name] = key
            self._defined[service.id][key] = {}
        return out

    def defined(self, service_id: str) -> dict[str, dict]:
        """Condition key → its definition (``{}`` for an inferred one), for a service."""
        return self._defined.get(service_id, {})

    def used(self, service_id: str, shape_id: str) -> set[str]:
        """The condition keys a resource or operation of the service uses."""
        return self._used.get(service_id, {}).get(shape_id, set())


def _all_operations(resource: Shape) -> list[str]:
    """``ResourceShape.getAllOperations``: operations, collection operations and lifecycle."""
    out = [*resource.operations, *resource.collection_operations]
    out += [op for op in resource.lifecycle().values()]
    return list(dict.fromkeys(out))


def _key_services(model: Model) -> list[Shape]:
    return [s for s in model.of_type("service") if AWS_SERVICE in s.traits]


@validator(Code("S3540", Severity.ERROR, "ConditionKeys",
                "an IAM condition key used by an operation, member or the service is not defined, or a member "
                "supplies a key the service resolves"),
           rule="reference ConditionKeysValidator (smithy-aws-iam-traits); aws-iam.rst, "
                "aws.iam#conditionKeys trait, aws.iam#serviceResolvedConditionKeys trait and "
                "aws.iam#conditionKeyValue trait: every key used is defined",
           packages=("aws.iam",))
@distinct
def check_condition_keys(model: Model) -> Iterable[Diagnostic]:
    """Every condition key a service resolves, an operation lists or an input member
    supplies is defined by the service (``aws:`` global keys excepted for operations), and
    no member supplies a key the service resolves.

    Spec: aws-iam.rst §"aws.iam#conditionKeys trait", §"aws.iam#serviceResolvedConditionKeys
    trait", §"aws.iam#conditionKeyValue trait". Reference ``ConditionKeysValidator``
    (event ``ConditionKeys``).
    """
    index = model.knowledge(ConditionKeysIndex)
    top_down = model.knowledge(TopDownIndex)
    for service in _key_services(model):
        known = index.defined(service.id)
        known_list = ticked(known)
        resolved: list[str] = []
        if SERVICE_RESOLVED_CONDITION_KEYS in service.traits:
            resolved = [full_condition_key(service, k)
                        for k in string_items(service.traits.get(SERVICE_RESOLVED_CONDITION_KEYS))]
            invalid = [k for k in resolved if k not in known]
            if invalid:
                yield event(model, "S3540", service.id,
                            f"The condition keys resolved by the `{service.id}` service refer to undefined "
                            f"condition key(s) [{ticked(invalid)}]. Expected one of the following defined condition "
                            f"keys: [{known_list}]", trait=SERVICE_RESOLVED_CONDITION_KEYS,
                            hint="define them with @aws.iam#defineConditionKeys")
        for op_id in top_down.contained_operations(service.id):
            op = model.shapes[op_id]
            for name in sorted(index.used(service.id, op_id)):
                if name not in known and not name.startswith("aws:"):
                    yield event(model, "S3540", op_id,
                                f"This operation scoped within the `{service.id}` service refers to an undefined "
                                f"condition key `{name}`. Expected one of the following defined condition keys: "
                                f"[{known_list}]", hint="define it with @aws.iam#defineConditionKeys on the service")
            for member in model.knowledge(OperationIndex).input_members(op.id).values():
                value = member.traits.get(CONDITION_KEY_VALUE)
                if not isinstance(value, str):
                    continue
                key = full_condition_key(service, value)
                if key not in known:
                    yield event(model, "S3540", member.id,
                                f"This operation `{op_id}` scoped within the `{service.id}` service with member "
                                f"`{member.id}` refers to an undefined condition key `{key}`. Expected one of the "
                                f"following defined condition keys: [{known_list}]", trait=CONDITION_KEY_VALUE)
                if key in resolved:
                    yield event(model, "S3540", member.id,
                                f"This operation `{op_id}` scoped within the `{service.id}` service with member "
                                f"`{member.id}` refers to a condition key `{key}` that is also resolved by service.",
                                trait=CONDITION_KEY_VALUE)


@validator(Code("S3541", Severity.ERROR, "ConditionKeyValueTrait",
                "several input members supply one condition key's value"),
           rule="reference ConditionKeyValueTraitValidator (smithy-aws-iam-traits); aws-iam.rst, "
                "aws.iam#conditionKeyValue trait: one member supplies a key's value",
           packages=("aws.iam",))
@distinct
def check_condition_key_values(model: Model) -> Iterable[Diagnostic]:
    """No two input members of an operation supply the same condition key's value.

    Spec: aws-iam.rst §"aws.iam#conditionKeyValue trait". Reference
    ``ConditionKeyValueTraitValidator`` (event ``ConditionKeyValueTrait``, on the input).
    """
    top_down = model.knowledge(TopDownIndex)
    for service in _key_services(model):
        for op_id in top_down.contained_operations(service.id):
            op = model.shapes[op_id]
            by_key: dict[str, list[str]] = {}
            for member in model.knowledge(OperationIndex).input_members(op.id).values():
                value = member.traits.get(CONDITION_KEY_VALUE)
                if isinstance(value, str):
                    by_key.setdefault(full_condition_key(service, value), []).append(member.name)
            struct = model.knowledge(OperationIndex).input(op.id)
            for key, names in sorted(by_key.items()):
                if len(names) > 1 and struct is not None:
                    yield event(model, "S3541", struct.id,
                                f"The `{key}` condition key has its value supplied in the `{op_id}` operation's "
                                f"input shape by multiple members [{ticked(names)}]. This value must only be "
                                "supplied by one member.", hint="keep @conditionKeyValue on one member")


@validator(Code("S3542", Severity.ERROR, "DefineConditionKeysTrait",
                "a condition key defined `required` is not service-resolved"),
           rule="reference DefineConditionKeysTraitValidator (smithy-aws-iam-traits); aws-iam.rst, "
                "aws.iam#defineConditionKeys trait: required only for service-resolved keys",
           packages=("aws.iam",))
@distinct
def check_define_condition_keys(model: Model) -> Iterable[Diagnostic]:
    """A condition key defined ``required`` is one the service resolves.

    Spec: aws-iam.rst §"aws.iam#defineConditionKeys trait" (``required``: "only valid for
    condition keys resolved by the service"). Reference
    ``DefineConditionKeysTraitValidator`` (event ``DefineConditionKeysTrait``).
    """
    index = model.knowledge(ConditionKeysIndex)
    for service in model.of_type("service"):
        resolved = string_items(service.traits.get(SERVICE_RESOLVED_CONDITION_KEYS))
        for key, definition in index.defined(service.id).items():
            if definition.get("required") is True and key not in resolved:
                yield event(model, "S3542", service.id,
                            f"The `{key}` condition key is defined as required but is resolved from the request. "
                            "This property is only valid for condition keys resolved by the service, it MUST also "
                            "be specified in the `@serviceResolvedConditionKeys` trait or use the `@required` trait "
                            "instead.", trait=DEFINE_CONDITION_KEYS)


@validator(Code("S3543", Severity.ERROR, "IamAction",
                "`@iamAction` sets a property a deprecated IAM trait also sets; a resource both required and "
                "optional (danger)", also=(Severity.DANGER,)),
           rule="reference IamActionValidator (smithy-aws-iam-traits); aws-iam.rst, aws.iam#iamAction trait "
                "and Deprecated action traits",
           packages=("aws.iam",))
@distinct
def check_iam_actions(model: Model) -> Iterable[Diagnostic]:
    """``@iamAction`` does not set a property that a deprecated trait on the operation also
    sets, and names no resource both required and optional.

    Spec: aws-iam.rst §"aws.iam#iamAction trait". Reference ``IamActionValidator`` (events
    ``IamAction.ConflictingProperty.<property>``, ERROR, and
    ``IamAction.Resources.DuplicateEntries``, DANGER).
    """
    deprecated = (("name", ACTION_NAME), ("documentation", ACTION_PERMISSION_DESCRIPTION),
                  ("requiredActions", REQUIRED_ACTIONS))
    for op in model.of_type("operation"):
        if IAM_ACTION not in op.traits:
            continue
        trait = as_object(op.traits.get(IAM_ACTION))
        for prop, tid in deprecated:
            value = trait.get(prop)
            present = bool(string_items(value)) if prop == "requiredActions" else isinstance(value, str)
            if tid in op.traits and present:
                yield event(model, "S3543", op.id,
                            f"Operation has the `{prop}` property of the `@aws.iam#iamAction` trait set and the "
                            f"deprecated `@{tid}` trait applied.", event_id=f"IamAction.ConflictingProperty.{prop}",
                            trait=tid, hint=f"remove the deprecated @{tid}")
        resources = as_object(trait.get("resources"))
        required, optional = as_object(resources.get("required")), as_object(resources.get("optional"))
        duplicates = [name for name in required if name in optional]
        if duplicates:
            yield event(model, "S3543", op.id,
                        "Operation has the following resource names defined as both required and optional: "
                        f"[{listed(duplicates)}]", severity=Severity.DANGER,
                        event_id="IamAction.Resources.DuplicateEntries", trait=IAM_ACTION)


@validator(Code("S3544", Severity.DANGER, "IamResourceTrait",
                "an `@iamResource` name does not appear in the resource's `@arn`"),
           rule="reference IamResourceTraitValidator (smithy-aws-iam-traits); aws-iam.rst, "
                "aws.iam#iamResource trait: the name appears in the resource's ARN template",
           packages=("aws.iam",))
@distinct
def check_iam_resources(model: Model) -> Iterable[Diagnostic]:
    """The ``@iamResource`` name of a resource with a relative ``@arn`` appears in the ARN
    template.

    Spec: aws-iam.rst §"aws.iam#iamResource trait". Reference ``IamResourceTraitValidator``
    (event ``IamResourceTrait``, DANGER).
    """
    for resource in model.of_type("resource"):
        if IAM_RESOURCE not in resource.traits or AWS_ARN not in resource.traits:
            continue
        name = as_object(resource.traits.get(IAM_RESOURCE)).get("name")
        name = name if isinstance(name, str) else resource.name.lower()
        arn = as_object(resource.traits.get(AWS_ARN))
        template = arn.get("template")
        if not isinstance(template, str):
            continue
        parts = [p for piece in template.split("/") for p in piece.split(":")]
        if name not in parts and arn.get("absolute") is not True:
            yield event(model, "S3544", resource.id,
                        "The `@aws.iam#iamResource` trait applied to the resource defines an IAM resource name, "
                        f"`{name}`, that does not match the `@arn` template, `{template}`, of the resource.",
                        hint="use the resource name that appears in the ARN template")


@validator(Code("S3545", Severity.ERROR, "IamResourceTraitConflictingName",
                "two IAM resources of a service share a name (case-insensitively)"),
           rule="reference IamResourceTraitConflictingNameValidator (smithy-aws-iam-traits); aws-iam.rst, "
                "aws.iam#iamResource trait: names unique in a service")
@distinct
def check_iam_resource_names(model: Model) -> Iterable[Diagnostic]:
    """No two resources of a service have the same IAM resource name (case-insensitively).

    Spec: aws-iam.rst §"aws.iam#iamResource trait". Reference
    ``IamResourceTraitConflictingNameValidator`` (event ``IamResourceTraitConflictingName``).
    """
    top_down = model.knowledge(TopDownIndex)
    for service in model.of_type("service"):
        by_name: dict[str, list[str]] = {}
        for rid in top_down.contained_resources(service.id):
            by_name.setdefault(iam_resource_name(model.shapes[rid]).lower(), []).append(rid)
        for name, ids in sorted(by_name.items()):
            if len(ids) > 1:
                yield event(model, "S3545", service.id,
                            "Multiple IAM resources defined with the same IAM resource name is not allowed in a "
                            "service closure, but found multiple resources case-insensitively named "
                            f"`{name}` in the service `{service.id}`: [{ticked(ids)}]",
                            hint="give them distinct names with @aws.iam#iamResource(name: ...)")


__all__ = [
    "ConditionKeysIndex", "check_condition_key_values", "check_condition_keys", "check_define_condition_keys",
    "check_iam_actions", "check_iam_resource_names", "check_iam_resources", "full_condition_key",
    "iam_resource_name",
]
