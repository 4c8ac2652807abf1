"""AWS tagging information for CloudFormation resources (aws-core.rst "aws.api#taggable",
"aws.api#tagEnabled"; reference ``AwsTagIndex``, ``TaggingShapeUtils``).
"""

from __future__ import annotations

import re

from smithy2cfn.derive.bindings import BindingIndex, struct_members
from smithy2cfn.derive.graph import build_graph, contained_resources
from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import TAG_ENABLED, TAGGABLE

_TAG_NAME = re.compile(r"^[T|t]ag(s|[L|l]ist)$")
_API_NAMES = {"tagApi": "TagResource", "untagApi": "UntagResource", "listTagsApi": "ListTagsForResource"}


class TagIndex:
    """Tag operations and tag-on-create behaviour of the resources of a model.

    Args:
        model: the model.
        bindings: its :class:`BindingIndex` (built when omitted).
    """

    def __init__(self, model: Model, bindings: BindingIndex | None = None) -> None:
        self.model = model
        self.bindings = bindings or BindingIndex(model)
        self._apis: dict[str, dict[str, str]] = {}
        graph = build_graph(model)
        for service in model.shapes_with_trait(TAG_ENABLED):
            if service.type != "service":
                continue
            by_name = {}
            for op_id in service.operations:
                by_name[op_id.split("#", 1)[-1]] = op_id
            service_apis = {key: by_name[name] for key, name in _API_NAMES.items() if name in by_name}
            for rid in contained_resources(graph, service.id):
                resource = model.get(rid)
                trait = resource.traits.get(TAGGABLE) if resource else None
                api_config = trait.get("apiConfig") if isinstance(trait, dict) else None
                apis = dict(service_apis)
                if isinstance(api_config, dict):
                    apis.update({k: v for k, v in api_config.items() if k in _API_NAMES and isinstance(v, str)})
                self._apis.setdefault(rid, apis)

    def tag_operations(self, resource_id: str) -> dict[str, str]:
        """``tagApi``/``untagApi``/``listTagsApi`` → operation ID found for a resource."""
        return self._apis.get(resource_id, {})

    def tags_member(self, operation_id: str) -> Member | None:
        """The last input member of an operation whose name looks like tags (``tags``,
        ``Tags``, ``tagList``...)."""
        op = self.model.get(operation_id)
        found = None
        for m in struct_members(self.model, op.input if op else None):
            if _TAG_NAME.match(m.name):
                found = m
        return found

    def _property_in_input(self, resource: Shape, operation_id: str | None, prop: str) -> bool:
        op = self.model.get(operation_id) if operation_id else None
        if op is None:
            return False
        return any(self.bindings.property_name(m.id) == prop for m in struct_members(self.model, op.input))

    def is_tag_on_create(self, resource: Shape) -> bool:
        """True when the taggable property is set by the resource's create (or put) input."""
        trait = resource.traits.get(TAGGABLE)
        prop = trait.get("property") if isinstance(trait, dict) else None
        if not prop:
            return False
        return (self._property_in_input(resource, resource.create, prop)
                or self._property_in_input(resource, resource.put, prop))
