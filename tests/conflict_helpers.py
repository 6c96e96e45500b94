"""Builders for small conflicts with scripted dice (see ``wwn_helpers.ScriptedRng``)."""

from __future__ import annotations

from typing import Any

from wwn_helpers import ScriptedRng  # noqa: F401  (re-exported)

from factionsim.rules.conflict.actions import Plan, Proceed
from factionsim.rules.conflict.state import ConflictState
from factionsim.rules.conflict.validate import validate


def char(cid: str, position: int = 0, **kw: Any) -> dict[str, Any]:
    """A character: approaches 2/0/0, 10 Blood and Guts, no skills unless given."""
    d = {"id": cid, "position": position, "approaches": kw.pop("approaches", {"careful": 2}),
         "max_blood": kw.pop("max_blood", 10), "max_guts": kw.pop("max_guts", 10)}
    d.update(kw)
    return d


def make(heroes: list[dict], foes: list[dict], rng: Any = None, heroes_side: bool = True,
         **extra: Any) -> ConflictState:
    data = {"ruleset": "conflict", "name": "test", "seed": 1,
            "sides": [{"id": "heroes", "heroes": heroes_side, "characters": heroes,
                       **extra.pop("hero_side", {})},
                      {"id": "foes", "characters": foes, **extra.pop("foe_side", {})}],
            **extra}
    s = ConflictState.from_dict(validate(data, "test.yaml", {}))
    if rng is not None:
        s.rng = rng
    return s


def plan(s: ConflictState, **plans: str) -> None:
    """Plan every character (``cid=category``, ``-`` written ``_``); unlisted ones plan ``move``
    (the last category, so they act after what a test looks at). Sides then keep their plans
    at the start of each category (:func:`proceed`) up to the first character's turn."""
    while s.current_actor() is not None and s.phase == "plan":
        legal = s.legal_actions()
        cid = legal[0].char
        s.apply(Plan(cid, plans.get(cid.replace("-", "_"), "move")))
    proceed(s)


def proceed(s: ConflictState) -> list:
    """While a category begins and a side could pull characters into it, it keeps its plans."""
    events = []
    while s.current_actor() is not None and s.phase == "replan":
        events += s.advance()
        events += s.apply(Proceed(s.actor))
    return events


def act(s: ConflictState, action: Any) -> list:
    """Apply ``action`` (sides keeping their plans at category starts before and after it);
    returns every event."""
    events = proceed(s)
    events += s.apply(action)
    return events + proceed(s)


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def first(events: list, kind: str):
    return next(e for e in events if e.kind == kind)
