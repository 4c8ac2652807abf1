"""Knowledge about operations and services: inputs, outputs, errors, protocols, auth schemes.

Built once per model with ``model.knowledge(OperationIndex)`` / ``model.knowledge(ServiceIndex)``
and read by the validators of HTTP bindings, pagination, streaming, examples and services.

Spec: service-types.rst §"Operation" (input and output default to ``smithy.api#Unit``,
errors), §"Service" (service-wide errors), protocol-traits.rst §"protocolDefinition trait",
authentication-traits.rst §"authDefinition trait" and §"auth trait". Reference classes:
``OperationIndex``, ``ServiceIndex`` (``software.amazon.smithy.model.knowledge``). Broken
models are tolerated: a missing or non-structure input is simply not known.
"""

from __future__ import annotations

from smithy2cfn.model.shapes import Member, Model, Shape
from smithy2cfn.model.traits import AUTH, AUTH_DEFINITION, PROTOCOL_DEFINITION, UNIT


def id_sort_key(shape_id: str) -> tuple[str, str]:
    """Sort key of a shape ID in the reference's order (``ShapeId.compareTo``): case-insensitive
    first, then case-sensitive to break ties (``ns#Foo`` < ``ns#fOO`` < ``ns#foo``; shape IDs
    are ASCII, so lower-casing is Java's ``compareToIgnoreCase``: ``_`` sorts before letters)."""
    return (shape_id.lower(), shape_id)


def sorted_ids(ids) -> list[str]:
    """``ids`` (any iterable of shape IDs) sorted like the reference's ``TreeSet<ShapeId>``."""
    return sorted(set(ids), key=id_sort_key)


class OperationIndex:
    """The input, output and errors of every operation (reference ``OperationIndex``): the
    one place that answers what an operation takes and returns.

    * :meth:`input_id` / :meth:`output_id`: the shape ID the operation names,
      ``smithy.api#Unit`` when it names none, whatever that shape is (reference
      ``OperationShape.getInputShape``);
    * :meth:`input_shape` / :meth:`output_shape`: the structure an operation uses,
      ``smithy.api#Unit`` when it names none (the reference's ``getInputShape``), or
      ``None`` when it names a shape that is not a structure or does not exist;
    * :meth:`input` / :meth:`output`: the same, ``None`` for ``smithy.api#Unit``
      (reference ``getInput``);
    * :meth:`input_members` / :meth:`output_members`: name → member of that structure
      (reference ``getInputMembers``).
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self._inputs: dict[str, Shape] = {}
        self._outputs: dict[str, Shape] = {}
        self._input_users: dict[str, list[str]] = {}
        self._output_users: dict[str, list[str]] = {}
        for shape in model.shapes.values():
            if shape.type != "operation":
                continue
            for target, found, users in ((shape.input, self._inputs, self._input_users),
                                         (shape.output, self._outputs, self._output_users)):
                structure = self._structure(target or UNIT)
                if structure is not None:
                    found[shape.id] = structure
                    users.setdefault(structure.id, []).append(shape.id)

    def _structure(self, shape_id: str) -> Shape | None:
        shape = self.model.shapes.get(shape_id)
        return shape if shape is not None and shape.type == "structure" else None

    def input_id(self, operation_id: str) -> str:
        """The ID of the shape the operation names as input, ``smithy.api#Unit`` when it names
        none or is no operation (even when that shape is no structure or does not exist)."""
        shape = self.model.shapes.get(operation_id)
        return (shape.input if shape is not None and shape.input else None) or UNIT

    def output_id(self, operation_id: str) -> str:
        """The ID of the shape the operation names as output (see :meth:`input_id`)."""
        shape = self.model.shapes.get(operation_id)
        return (shape.output if shape is not None and shape.output else None) or UNIT

    def input_shape(self, operation_id: str) -> Shape | None:
        """The input structure (``smithy.api#Unit`` when none is named), or ``None``."""
        return self._inputs.get(operation_id)

    def output_shape(self, operation_id: str) -> Shape | None:
        """The output structure (``smithy.api#Unit`` when none is named), or ``None``."""
        return self._outputs.get(operation_id)

    def input(self, operation_id: str) -> Shape | None:
        """The input structure, ``None`` for ``smithy.api#Unit`` (reference ``getInput``)."""
        found = self._inputs.get(operation_id)
        return found if found is not None and found.id != UNIT else None

    def output(self, operation_id: str) -> Shape | None:
        """The output structure, ``None`` for ``smithy.api#Unit`` (reference ``getOutput``)."""
        found = self._outputs.get(operation_id)
        return found if found is not None and found.id != UNIT else None

    def input_members(self, operation_id: str) -> dict[str, Member]:
        """The members of the input structure by name, in order (a new dict; empty for Unit or
        an unknown input)."""
        found = self._inputs.get(operation_id)
        return dict(found.members) if found is not None else {}

    def output_members(self, operation_id: str) -> dict[str, Member]:
        """The members of the output structure by name, in order (a new dict; empty for Unit
        or an unknown output)."""
        found = self._outputs.get(operation_id)
        return dict(found.members) if found is not None else {}

    def input_users(self, structure_id: str) -> list[str]:
        """The operations that use ``structure_id`` as input, in model order."""
        return list(self._input_users.get(structure_id, []))

    def output_users(self, structure_id: str) -> list[str]:
        """The operations that use ``structure_id`` as output, in model order."""
        return list(self._output_users.get(structure_id, []))

    def errors(self, shape_id: str) -> list[str]:
        """The error structures an operation or service names (those that exist and are
        structures), in order."""
        shape = self.model.shapes.get(shape_id)
        if shape is None or shape.type not in ("operation", "service"):
            return []
        return [e for e in shape.errors if self._structure(e) is not None]


class ServiceIndex:
    """Protocols and auth schemes of services (reference ``ServiceIndex``).

    A protocol is a trait whose definition carries ``@protocolDefinition``; an auth scheme
    one whose definition carries ``@authDefinition``. Both are listed in shape-ID order.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self.protocol_traits = frozenset(s.id for s in model.shapes.values() if PROTOCOL_DEFINITION in s.traits)
        self.auth_traits = frozenset(s.id for s in model.shapes.values() if AUTH_DEFINITION in s.traits)

    def _applied(self, service_id: str, kinds: frozenset[str]) -> list[str]:
        shape = self.model.shapes.get(service_id)
        if shape is None or shape.type != "service":
            return []
        return sorted_ids(t for t in shape.traits if t in kinds)

    def protocols(self, service_id: str) -> list[str]:
        """The protocol traits applied to a service, in shape-ID order."""
        return self._applied(service_id, self.protocol_traits)

    def auth_schemes(self, service_id: str) -> list[str]:
        """The auth scheme traits applied to a service, in shape-ID order."""
        return self._applied(service_id, self.auth_traits)

    def protocol_definition(self, protocol_id: str) -> dict:
        """The ``@protocolDefinition`` value of a protocol trait (``{}`` when unknown)."""
        shape = self.model.shapes.get(protocol_id)
        value = shape.traits.get(PROTOCOL_DEFINITION) if shape is not None else None
        return value if isinstance(value, dict) else {}

    def effective_auth_schemes(self, service_id: str, operation_id: str | None = None) -> list[str]:
        """The auth schemes that apply to a service (or to one of its operations): the
        ``@auth`` trait's list, kept to the schemes the service has, else every scheme of
        the service (reference ``getEffectiveAuthSchemes``)."""
        service = self.model.shapes.get(service_id)
        if service is None or service.type != "service":
            return []
        for subject_id in (operation_id, service_id):
            subject = self.model.shapes.get(subject_id) if subject_id else None
            if subject is not None and AUTH in subject.traits:
                value = subject.traits[AUTH]
                names = value if isinstance(value, list) else []
                return [n for n in names if isinstance(n, str) and n in service.traits]
        return self.auth_schemes(service_id)


__all__ = ["OperationIndex", "ServiceIndex", "id_sort_key", "sorted_ids"]
