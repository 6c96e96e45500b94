"""Write counters: how a ruleset's objects say that something a cache read has changed.

A ruleset keeps an answer (its scores, an env's observation rows) while nothing it read has
been written. The objects it reads count their writes in one :class:`WriteCounter`; the cache
keeps the count it saw and answers again only while the count is the same::

    WRITES = WriteCounter()

    @dataclass
    class Pillar:
        wounds: int = 0
        __setattr__ = counting_setattr(WRITES)

    seen = WRITES.count
    ...                      # any ``pillar.wounds = 2`` makes ``WRITES.count != seen``

In-place changes that no attribute write sees (an item added to a list field, a dict entry
changed) are counted by the code that makes them: ``WRITES.bump()``.

A counter is one number for the whole process (all games): a write in one game makes every
cache keyed on it miss once, never answer stale. A cache must not travel with a pickled or
copied state, since another process's count does not continue this one's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

_MISSING = object()


class WriteCounter:
    """A count of writes; :meth:`bump` adds one, ``count`` is the number so far."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0

    def bump(self) -> None:
        """Count one write that no counting ``__setattr__`` sees (an in-place change)."""
        self.count += 1


def counting_setattr(counter: WriteCounter, *, only: Iterable[str] | None = None,
                     skip: Iterable[str] | None = None, changes_only: bool = False,
                     own: str | None = None) -> Callable[[Any, str, Any], None]:
    """A ``__setattr__`` for a class whose attribute writes count in ``counter``.

    ``only``: count writes of these fields alone; ``skip``: count every field's writes but
    these (at most one of the two). ``changes_only``: count a write only when the field had a
    value before and the new one differs from it (``is not`` and ``!=``), so that writing the
    value a field already has is no change, nor is ``__init__``'s first write of each field.
    The function is built for its options, so that a write pays only for the tests it needs;
    it works with ``@dataclass(slots=True)`` classes (``__setattr__ = counting_setattr(...)``
    in the class body).

    ``own``: the name of an attribute in which each object also counts every write of its
    fields, whatever ``only``/``skip`` say, so that a cache per object can tell that this
    object changed (its in-place changes: :func:`bump_own`; the code that writes should skip
    writes that would leave a value as it is, since each one makes such a cache miss). For
    classes with a ``__dict__`` (no slots); the attribute is not a dataclass field (``eq``,
    ``repr`` and ``asdict`` leave it out) and never goes back, also in a copy."""
    if only is not None and skip is not None:
        raise ValueError("counting_setattr takes only= or skip=, not both")
    if own is not None:
        if changes_only:
            raise ValueError("counting_setattr takes own= without changes_only")
        return _counting_own(counter, own, None if only is None else frozenset(only),
                             None if skip is None else frozenset(skip))
    set_field = object.__setattr__
    if changes_only:
        counted = _field_test(only, skip)

        def setattr_changes(self: Any, name: str, value: Any) -> None:
            old = getattr(self, name, _MISSING)
            if (old is not value and old is not _MISSING and old != value
                    and (counted is None or counted(name))):
                counter.count += 1
            set_field(self, name, value)
        return setattr_changes
    if only is not None:
        fields = frozenset(only)

        def setattr_only(self: Any, name: str, value: Any) -> None:
            set_field(self, name, value)
            if name in fields:
                counter.count += 1
        return setattr_only
    if skip is not None:
        left_out = frozenset(skip)

        def setattr_skip(self: Any, name: str, value: Any) -> None:
            set_field(self, name, value)
            if name not in left_out:
                counter.count += 1
        return setattr_skip

    def setattr_all(self: Any, name: str, value: Any) -> None:
        set_field(self, name, value)
        counter.count += 1
    return setattr_all


def bump_own(obj: Any, own: str) -> None:
    """Count an in-place change of ``obj`` (one no attribute write sees) in its ``own`` count
    (see :func:`counting_setattr`)."""
    d = obj.__dict__
    d[own] = d.get(own, 0) + 1


def _counting_own(counter: WriteCounter, own: str, only: frozenset[str] | None,
                  skip: frozenset[str] | None) -> Callable[[Any, str, Any], None]:
    set_field = object.__setattr__
    left_out = frozenset() if skip is None else skip

    if only is not None:
        def setattr_own_only(self: Any, name: str, value: Any) -> None:
            set_field(self, name, value)
            d = self.__dict__
            d[own] = d.get(own, 0) + 1
            if name in only:
                counter.count += 1
        return setattr_own_only

    def setattr_own(self: Any, name: str, value: Any) -> None:
        set_field(self, name, value)
        d = self.__dict__
        d[own] = d.get(own, 0) + 1
        if name not in left_out:
            counter.count += 1
    return setattr_own


def _field_test(only: Iterable[str] | None,
                skip: Iterable[str] | None) -> Callable[[str], bool] | None:
    """Whether a field's writes count (None: every field's)."""
    if only is not None:
        return frozenset(only).__contains__
    if skip is not None:
        left_out = frozenset(skip)
        return lambda name: name not in left_out
    return None
