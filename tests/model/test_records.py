"""smithy2cfn.records: record classes behave as the dataclasses they replace (equality,
hashing, repr, order, frozen, replace), side by side with a real dataclass."""

from __future__ import annotations

import dataclasses

import pytest

from smithy2cfn.records import Record, as_tuple, fields, replace


@dataclasses.dataclass(frozen=True, order=True)
class FrozenDC:
    a: int
    b: str = ""
    c: tuple = ()


class Frozen(Record, frozen=True, order=True):
    a: int
    b: str
    c: tuple

    def __init__(self, a: int, b: str = "", c: tuple = ()) -> None:
        self.__dict__.update(a=a, b=b, c=c)


class Child(Frozen):
    d: int

    def __init__(self, a: int, b: str = "", c: tuple = (), d: int = 0) -> None:
        super().__init__(a, b, c)
        self.__dict__["d"] = d


@dataclasses.dataclass
class MutableDC:
    x: list
    y: int = 0
    z: object = dataclasses.field(default=None, compare=False, repr=False)


class Mutable(Record, hidden=("z",)):
    __slots__ = ("x", "y", "z")
    x: list
    y: int
    z: object

    def __init__(self, x: list, y: int = 0, z: object = None) -> None:
        self.x, self.y, self.z = x, y, z


class Identity(Record, eq=False):
    __slots__ = ("v",)
    v: int

    def __init__(self, v: int) -> None:
        self.v = v


def test_frozen_record_is_a_frozen_dataclass():
    pairs = [(Frozen(1, "x", (2,)), FrozenDC(1, "x", (2,))), (Frozen(1), FrozenDC(1)), (Frozen(0, "y"), FrozenDC(0, "y"))]
    for record, dc in pairs:
        assert repr(record).replace("Frozen(", "FrozenDC(") == repr(dc)
        assert hash(record) == hash(Frozen(record.a, record.b, record.c))
        assert record == Frozen(record.a, record.b, record.c)
        assert as_tuple(record) == dataclasses.astuple(dc)
    for (r1, d1) in pairs:
        for (r2, d2) in pairs:
            assert (r1 == r2) == (d1 == d2)
            assert (r1 < r2, r1 <= r2, r1 > r2, r1 >= r2) == (d1 < d2, d1 <= d2, d1 > d2, d1 >= d2)
    assert sorted(r for r, _ in pairs) == [Frozen(0, "y"), Frozen(1), Frozen(1, "x", (2,))]
    with pytest.raises(dataclasses.FrozenInstanceError):
        pairs[0][0].a = 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        del pairs[0][0].a
    assert Frozen(1) != (1, "", ()) and Frozen(1).__eq__(FrozenDC(1)) is NotImplemented


def test_subclass_adds_fields_and_compares_only_with_its_class():
    child = Child(1, "x", (), 4)
    assert fields(Child) == ("a", "b", "c", "d") and fields(child) == fields(Child)
    assert repr(child) == "Child(a=1, b='x', c=(), d=4)"
    assert child != Frozen(1, "x", ()) and child == Child(1, "x", (), 4) and child != Child(1, "x", (), 5)
    assert {child, Child(1, "x", (), 4)} == {child}
    assert replace(child, d=7) == Child(1, "x", (), 7) and type(replace(child, a=2)) is Child


def test_mutable_record_is_a_dataclass_hidden_fields_left_out():
    record, dc = Mutable([1], 2, z="hidden"), MutableDC([1], 2, z="hidden")
    assert repr(record).replace("Mutable(", "MutableDC(") == repr(dc) == "MutableDC(x=[1], y=2)"
    assert record == Mutable([1], 2, z="other") and record != Mutable([1], 3)
    with pytest.raises(TypeError):
        hash(record)  # a dataclass with eq and not frozen is unhashable
    record.y = 5
    assert record.y == 5 and not hasattr(record, "__dict__")
    assert replace(record, y=9).z == "hidden"  # replace passes every field to __init__, as dataclasses.replace
    with pytest.raises(TypeError):
        replace(record, w=1)
    assert Mutable.__match_args__ == ("x", "y", "z")


def test_eq_false_keeps_identity():
    a, b = Identity(1), Identity(1)
    assert a != b and a == a and len({a, b}) == 2
