"""Builders for small Great Houses situations, and dice that roll what a test says."""

from __future__ import annotations

from typing import Any

from wwn_helpers import ScriptedRng

from factionsim.rules.houses import turn
from factionsim.rules.houses.actions import (
    Accept,
    ChooseAction,
    Commit,
    Done,
    Keep,
    Oppose,
    PickAttribute,
    PickDistinction,
    PickSkill,
    RollPool,
    Target,
    Trait,
)
from factionsim.rules.houses.state import HousesState

MAX_HOUSES = 8
__all__ = ["ScriptedRng", "house", "make_state", "do", "pool", "start"]


def house(hid: str, **kw: Any) -> dict[str, Any]:
    """A House with one d8 Distinction ``bold``, d8 Attributes, every Skill d4 and no Plot Point
    unless the test says otherwise."""
    d = {"id": hid, "name": f"House {hid.title()}", "agent": "idle",
         "distinctions": [{"name": "Bold", "die": 8}],
         "attributes": {"physical": 8, "mental": 8, "social": 8}, "skills": {},
         "plot_points": 0, "assets": []}
    d.update(kw)
    return d


def make_state(*houses: dict[str, Any], rng: Any = None, **rules: Any) -> HousesState:
    """A state in the middle of season 1, round 1, with the first House about to act."""
    s = HousesState.from_dict({"ruleset": "houses", "name": "test", "seed": 1,
                               "houses": list(houses), "rules": rules})
    s.order = list(s.houses)
    s.order_index, s.round = 0, 0
    s.phase, s.actor = turn.ACTION, s.order[0]
    s.ctx = {"actor": s.order[0], "free": False}
    if rng is not None:
        s.rng = rng
    return s


_FORCED = (RollPool, Accept, Keep, Done, Target, Trait)  # single options are applied at once


def do(state: HousesState, *actions: Any) -> list[Any]:
    """Apply ``actions`` in order; a forced one (roll, accept, keep, done, the only target) that
    the engine has already applied by itself is skipped. Returns the events."""
    events = []
    for a in actions:
        if isinstance(a, _FORCED) and a not in state.legal_actions():
            continue
        events += state.apply(a)
    return events


def pool(attribute: str = "physical", skill: str = "might", commits: tuple[str, ...] = (),
         distinction: str = "bold", hinder: bool = False) -> list[Any]:
    return [PickDistinction(distinction, hinder), PickAttribute(attribute), PickSkill(skill),
            *(Commit(c) for c in commits), RollPool()]


def start(kind: str, target: str | None = None, trait: str | None = None,
          opposed_by: str | None = None) -> list[Any]:
    """Choose the action ``kind`` (its target, its trait). Create an Asset: every rival lets it
    pass (the GM's difficulty) unless ``opposed_by`` names the rival that opposes it (the rivals
    asked before it let it pass)."""
    out: list[Any] = [ChooseAction(kind)]
    if kind == "create-asset":
        out += [Oppose()] if opposed_by else [Keep()] * (MAX_HOUSES - 1)
    if target:
        out.append(Target(target))
    if trait:
        out.append(Trait(trait))
    return out
