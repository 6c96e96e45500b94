"""factionsim.core.writecount: which writes a counting ``__setattr__`` counts."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from factionsim.core.writecount import WriteCounter, counting_setattr


def _thing(slots: bool, **options):
    counter = WriteCounter()

    @dataclass(slots=slots)
    class Thing:
        a: int = 0
        b: int = 0
        items: list[int] = field(default_factory=list)

        __setattr__ = counting_setattr(counter, **options)

    return Thing, counter


# (options, writes after construction, expected count of those writes)
CASES = [
    ({}, [("a", 1), ("b", 1), ("a", 1)], 3),                          # every write
    ({"only": {"a"}}, [("a", 1), ("b", 2), ("a", 3)], 2),             # a's alone
    ({"skip": {"a"}}, [("a", 1), ("b", 2), ("b", 3)], 2),             # all but a's
    ({"changes_only": True}, [("a", 0), ("a", 1), ("a", 1), ("b", 5)], 2),  # real changes
    ({"changes_only": True, "only": {"b"}}, [("a", 1), ("b", 0), ("b", 4)], 1),
    ({"changes_only": True, "skip": {"b"}}, [("a", 1), ("b", 4), ("a", 1)], 1),
]


@pytest.mark.parametrize("slots", [False, True])
@pytest.mark.parametrize(("options", "writes", "expected"), CASES)
def test_counted_writes(slots, options, writes, expected):
    thing_class, counter = _thing(slots, **options)
    thing = thing_class()
    before = counter.count
    for name, value in writes:
        setattr(thing, name, value)
    assert counter.count - before == expected
    assert (thing.a, thing.b) == (dict(writes).get("a", 0), dict(writes).get("b", 0))


def test_construction_counts_except_with_changes_only():
    """``__init__``'s first write of each field is a write like any other, but no change of a
    value that was there before."""
    thing_class, counter = _thing(True)
    thing_class()
    assert counter.count == 3
    thing_class, counter = _thing(True, changes_only=True)
    thing_class()
    assert counter.count == 0


def test_in_place_changes_are_counted_by_bump():
    thing_class, counter = _thing(False)
    thing = thing_class()
    before = counter.count
    thing.items.append(1)  # no attribute write: unseen ...
    assert counter.count == before
    counter.bump()         # ... until the code that made it says so
    assert counter.count == before + 1


def test_only_and_skip_together_are_refused():
    with pytest.raises(ValueError, match="not both"):
        counting_setattr(WriteCounter(), only={"a"}, skip={"b"})
