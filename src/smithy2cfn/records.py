"""Records: classes of named fields (spans, diagnostics, shapes, plans, results) with the
equality, hashing, ``repr`` and :func:`replace` of a dataclass, made without
:mod:`dataclasses`.

Why: ``@dataclass`` writes each class's ``__init__``, ``__eq__``, ``__repr__`` (frozen:
``__hash__``, ``__setattr__``, ``__delattr__``) as source text and compiles it when the
module is imported, about 3.5 million instructions (1 ms) per frozen class; a small build
imported 66 of them, a third of its instructions (issue 15, "Cold start"). A record class
writes its own ``__init__`` (plain, fast, typed) and takes the rest from :class:`Record`,
which generates no code.

A record's fields are the names annotated in its class body, in order, after those of the
record classes it extends (as a dataclass's); ``ClassVar`` annotations are not fields. Each
field must be a parameter of ``__init__`` of the same name (:func:`replace` calls it).
Class keywords:

* ``frozen=True``: assigning or deleting an attribute raises
  :class:`dataclasses.FrozenInstanceError` (as a frozen dataclass; its ``__init__`` sets the
  fields with ``object.__setattr__``, or through ``self.__dict__``); instances hash by their
  fields;
* ``eq=False``: identity equality and hashing (``@dataclass(eq=False)``); otherwise
  instances of the same class are equal when their fields are (a record that is not frozen
  is then unhashable, as a dataclass);
* ``order=True``: ``<``, ``<=``, ``>``, ``>=`` compare the fields in order (same class only);
* ``hidden=("name",)``: fields left out of equality, hashing and ``repr``
  (``field(compare=False, repr=False)``).

``__slots__`` are optional (a record with them has no ``__dict__``). Source: the
behaviour of Python's :mod:`dataclasses` (PEP 557) for the options above.
"""

from __future__ import annotations

from operator import attrgetter


def _frozen_error(name: str) -> AttributeError:
    # The exception a frozen dataclass raises (code that catches it keeps working); the
    # module is imported only here, on this error's path.
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(f"cannot assign to field {name!r}")


class Record:
    """Base of record classes (see the module's documentation).

    Class attributes set for each subclass: ``_fields`` (every field, in order), ``_values``
    (a function of an instance giving the compared fields' values), ``__match_args__``.
    """

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _shown: tuple[str, ...] = ()

    @staticmethod
    def _values(record: Any) -> Any:
        return ()

    def __init_subclass__(cls, frozen: bool | None = None, eq: bool = True, order: bool = False,
                          hidden: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = [name for name, kind in cls.__dict__.get("__annotations__", {}).items()
               if "ClassVar" not in str(kind)]
        fields = tuple(dict.fromkeys([*cls._fields, *own]))
        shown = tuple(n for n in fields if n not in hidden and (n in own or n in cls._shown))
        cls._fields, cls._shown = fields, shown
        cls.__match_args__ = fields
        if len(shown) > 1:
            values = attrgetter(*shown)  # a tuple of the values, in C
        elif shown:
            one = attrgetter(shown[0])
            values = lambda record: (one(record),)  # noqa: E731
        else:
            values = lambda record: ()  # noqa: E731
        cls._values = staticmethod(values)  # type: ignore[method-assign]
        if frozen is None:
            frozen = getattr(cls, "_frozen", False)
        cls._frozen = frozen
        methods: dict[str, Any] = {}
        if eq and "__eq__" not in cls.__dict__:
            methods.update(__eq__=_eq, __hash__=_hash if frozen else None)
        if frozen:
            methods.update(__setattr__=_no_setattr, __delattr__=_no_delattr)
        if order:
            methods.update(__lt__=_lt, __le__=_le, __gt__=_gt, __ge__=_ge)
        for name, method in methods.items():
            if name not in cls.__dict__:  # a class's own methods win, as in a dataclass
                setattr(cls, name, method)

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
        return f"{type(self).__qualname__}({values})"


def _eq(self: Record, other: object) -> bool:
    if other.__class__ is self.__class__:
        return bool(self._values(self) == self._values(other))
    return NotImplemented


def _hash(self: Record) -> int:
    return hash(self._values(self))


def _no_setattr(self: Record, name: str, value: object) -> None:
    raise _frozen_error(name)


def _no_delattr(self: Record, name: str) -> None:
    raise _frozen_error(name)


def _lt(self: Record, other: object) -> bool:
    if other.__class__ is self.__class__:
        return bool(self._values(self) < self._values(other))
    return NotImplemented


def _le(self: Record, other: object) -> bool:
    if other.__class__ is self.__class__:
        return bool(self._values(self) <= self._values(other))
    return NotImplemented


def _gt(self: Record, other: object) -> bool:
    if other.__class__ is self.__class__:
        return bool(self._values(self) > self._values(other))
    return NotImplemented


def _ge(self: Record, other: object) -> bool:
    if other.__class__ is self.__class__:
        return bool(self._values(self) >= self._values(other))
    return NotImplemented


TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing itself, 12 million instructions, is imported by type checkers only)
    from typing import Any, TypeVar

    R = TypeVar("R", bound=Record)


def fields(record: Record | type[Record]) -> tuple[str, ...]:
    """The names of a record's (or record class's) fields, in order."""
    return record._fields


def as_tuple(record: Record) -> tuple[Any, ...]:
    """A record's field values, in order (:func:`dataclasses.astuple`, not recursive)."""
    return tuple(getattr(record, name) for name in record._fields)


def replace(record: R, **changes: Any) -> R:
    """A new record of ``record``'s class with its fields, ``changes`` applied, made by the
    class's ``__init__`` (:func:`dataclasses.replace`).

    Raises:
        TypeError: a name in ``changes`` is not a field.
    """
    unknown = set(changes) - set(record._fields)
    if unknown:
        raise TypeError(f"{type(record).__qualname__} has no field {sorted(unknown)[0]!r}")
    values = {name: changes[name] if name in changes else getattr(record, name) for name in record._fields}
    return type(record)(**values)
