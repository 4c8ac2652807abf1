"""AWS tagging knowledge for CloudFormation resources (aws-core.rst "aws.api#taggable",
"aws.api#tagEnabled"; reference ``AwsTagIndex`` and ``TaggingShapeUtils``).

For each resource of a ``@tagEnabled`` service: its tag, untag and list-tags operations —
the ``@taggable(apiConfig)`` of the resource, else the service's ``@tagEnabled(apiConfig)``
operations, else the service's operations named ``TagResource``, ``UntagResource`` and
``ListTagsForResource`` — and whether its tag property is set on create and on update.
Get it with ``model.knowledge(TagIndex)``.
"""

from __future__ import annotations

from smithy2cfn.model.knowledge import PropertyBindingIndex, TopDownIndex
from smithy2cfn.model.nodes import as_object
from smithy2cfn.model.shapes import Member, Model, Shape, ShapeId
from smithy2cfn.model.traits import NO_REPLACE, TAG_ENABLED, TAGGABLE
from smithy2cfn.regexes import lazy

#: Names a tags member may have (reference ``TaggingShapeUtils.TAG_PROPERTY_REGEX``).
TAG_MEMBER_NAME = lazy(r"^[T|t]ag(s|s?[M|m]ap|[L|l]ist)$")
#: ``apiConfig`` key → the default operation name (reference ``TaggingShapeUtils``).
TAG_APIS = {"tagApi": "TagResource", "untagApi": "UntagResource", "listTagsApi": "ListTagsForResource"}


class TagIndex:
    """Tag operations and tag-on-create/update of the resources of a model (reference
    ``AwsTagIndex``).

    Args:
        model: the model (the index is built once per model by ``model.knowledge``).
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self._apis: dict[str, dict[str, str]] = {}
        self._members: dict[str, Member | None] = {}  # (tags_member's answers so far)
        self._on_create: set[str] = set()
        self._on_update: set[str] = set()
        top_down = model.knowledge(TopDownIndex)
        for service in model.shapes_with_trait(TAG_ENABLED):
            if service.type != "service":
                continue
            by_name = {ShapeId.name(op): op for op in service.operations}
            config = as_object(as_object(service.traits.get(TAG_ENABLED)).get("apiConfig"))
            service_apis: dict[str, str] = {}
            for key, default in TAG_APIS.items():
                configured = config.get(key)
                if isinstance(configured, str) and configured in service.operations:
                    service_apis[key] = configured
                elif default in by_name:
                    service_apis[key] = by_name[default]
            self._apis[service.id] = service_apis
            for rid in top_down.contained_resources(service.id):
                resource = model.shapes[rid]
                resource_config = as_object(as_object(resource.traits.get(TAGGABLE)).get("apiConfig"))
                apis = dict(service_apis)
                if resource_config:
                    # The resource's apiConfig names all three operations (they are required).
                    apis = {k: v for k in TAG_APIS if isinstance(v := resource_config.get(k), str)}
                self._apis[rid] = apis
        for resource in model.shapes_with_trait(TAGGABLE):
            prop = as_object(resource.traits.get(TAGGABLE)).get("property")
            if resource.type != "resource" or not isinstance(prop, str) or not prop:
                continue
            properties = model.knowledge(PropertyBindingIndex)  # (only for a resource that names one)
            if self._in_input(resource.create, prop, properties):
                self._on_create.add(resource.id)
            if self._in_input(resource.update, prop, properties):
                self._on_update.add(resource.id)
            if self._in_input(resource.put, prop, properties):
                self._on_create.add(resource.id)  # put always creates,
                if NO_REPLACE not in resource.traits:
                    self._on_update.add(resource.id)  # and updates unless @noReplace

    def _in_input(self, operation_id: str | None, prop: str, properties: PropertyBindingIndex) -> bool:
        op = self.model.shapes.get(operation_id) if operation_id else None
        input_shape = self.model.shapes.get(op.input) if op is not None and op.input else None
        if input_shape is None:
            return False
        return any(properties.property_name(m.id) == prop for m in input_shape.members.values())

    def tag_operations(self, shape_id: str) -> dict[str, str]:
        """``tagApi``/``untagApi``/``listTagsApi`` → operation ID, for a service or a resource
        it contains (empty when the service is not ``@tagEnabled``)."""
        return self._apis.get(shape_id, {})

    def tags_member(self, operation_id: str) -> Member | None:
        """The last input member of an operation whose name is a tags name (``tags``,
        ``Tags``, ``tagList``, ``tagsMap``...), found when first asked (the validators that
        build this index never ask: the members of every operation's input are not read
        for them)."""
        if operation_id in self._members:
            return self._members[operation_id]
        found = None
        op = self.model.shapes.get(operation_id)
        if op is not None and op.type == "operation" and op.input:
            input_shape = self.model.shapes.get(op.input)
            for m in input_shape.members.values() if input_shape is not None else ():
                if TAG_MEMBER_NAME.match(m.name):
                    found = m
        self._members[operation_id] = found
        return found

    def is_tag_on_create(self, resource: Shape) -> bool:
        """True when the ``@taggable`` property is in the create (or put) input."""
        return resource.id in self._on_create

    def is_tag_on_update(self, resource: Shape) -> bool:
        """True when the ``@taggable`` property is in the update input (or the put input of
        a resource without ``@noReplace``)."""
        return resource.id in self._on_update


__all__ = ["TAG_APIS", "TAG_MEMBER_NAME", "TagIndex"]
