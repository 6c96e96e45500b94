"""A toy ruleset written the way docs/architecture.md tells a newcomer to add one: Nim. Factions
take turns taking 1 to 3 stones from one pile; whoever takes the last stone wins. It implements
:class:`GameState` directly (no rules module, no DecisionState) and declares itself in one
:class:`RulesetInfo`; tests/test_toy_ruleset.py registers it and plays it through every command."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from factionsim.core.campaign import FieldChecker
from factionsim.core.game import (
    Action,
    ActionTable,
    CampaignError,
    Event,
    GameState,
    IllegalActionError,
    View,
    action,
)
from factionsim.core.names import Names
from factionsim.core.presentation import Presentation
from factionsim.core.ruleset import DEFAULT_AGENT, RulesetInfo
from factionsim.rules import IDLE, MANUAL, RANDOM


@action
class Take(Action):
    stones: int

    TEXT = "take {stones}"


@dataclass
class Player:
    id: str
    name: str
    agent: str = DEFAULT_AGENT
    agent_options: dict[str, Any] = field(default_factory=dict)
    alive: bool = True
    taken: int = 0


class NimState(GameState):
    ruleset = "nim"

    def __init__(self) -> None:
        self.name, self.seed, self.turn, self.max_turns = "", None, 0, None
        self.rng = np.random.default_rng()
        self.phase, self.ctx = "take", {}
        self.factions: dict[str, Player] = {}
        self.pile, self.next, self.winner = 0, 0, None

    def current_actor(self) -> str | None:
        return None if self.is_over() else list(self.factions)[self.next]

    def legal_actions(self) -> list[Action]:
        return [Take(n) for n in (1, 2, 3) if n <= self.pile] if not self.is_over() else []

    def apply(self, action: Action) -> list[Event]:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not legal now")
        me = self.current_actor()
        assert me is not None and isinstance(action, Take)
        self.pile -= action.stones
        self.factions[me].taken += action.stones
        events = [Event(self.current_turn, "take", me, {"stones": action.stones, "left": self.pile})]
        if self.pile == 0:
            self.winner = me
        self.next = (self.next + 1) % len(self.factions)
        if self.next == 0:
            self.turn += 1
        return events

    def advance(self) -> list[Event]:
        return []

    def is_over(self) -> bool:
        return self.pile == 0 or (self.max_turns is not None and self.turn >= self.max_turns)

    def scores(self) -> dict[str, float]:
        return {fid: 1.0 if fid == self.winner else 0.0 for fid in self.factions}

    def view(self, faction: str) -> NimView:
        return NimView(self, faction)

    def faction_summary(self) -> dict[str, dict[str, Any]]:
        return {f.id: {"alive": f.alive, "taken": f.taken} for f in self.factions.values()}

    def display_names(self) -> dict[str, Any]:
        return {"factions": {f.id: f.name for f in self.factions.values()}, "ruleset": "nim"}

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"ruleset": "nim", "name": self.name, "seed": self.seed,
                             "turn": self.turn, "pile": self.pile, "next": self.next}
        if self.max_turns is not None:
            d["max_turns"] = self.max_turns
        d["players"] = [{"id": f.id, "name": f.name, "agent": f.agent, "taken": f.taken}
                        for f in self.factions.values()]
        d["rng"] = copy.deepcopy(self.rng.bit_generator.state)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> NimState:
        s = cls()
        s.name, s.seed, s.turn = d.get("name", ""), d.get("seed"), d.get("turn", 0)
        s.max_turns, s.pile, s.next = d.get("max_turns"), d["pile"], d.get("next", 0)
        s.factions = {p["id"]: Player(p["id"], p.get("name", p["id"]), p.get("agent", DEFAULT_AGENT),
                                      dict(p.get("agent_options") or {}), True, p.get("taken", 0))
                      for p in d["players"]}
        if "rng" in d:
            s.rng = np.random.Generator(np.random.PCG64())
            s.rng.bit_generator.state = copy.deepcopy(d["rng"])
        else:
            s.rng = np.random.default_rng(s.seed)
        return s


class NimView(View):
    """Nothing is hidden in Nim."""

    def to_state(self, rng: np.random.Generator) -> NimState:
        s = NimState.from_dict(self._state.to_dict())
        s.rng = rng
        return s


def validate(data: dict[str, Any], source: str, lines: Any = None) -> dict[str, Any]:
    where = FieldChecker(source, lines or {})
    if not isinstance(data.get("pile"), int) or data["pile"] < 0:  # 0: a game over, saved
        raise CampaignError(f"{where.where(('pile',))}: must be a whole number of at least 0.")
    players = data.get("players")
    if not isinstance(players, list) or len(players) < 2:
        raise CampaignError(f"{where.where(('players',))}: must list at least two players.")
    return data


PROSE: dict[str, Callable[[Event, Names], str]] = {
    "take": lambda e, n: f"Takes {e.data['stones']} stone(s); {e.data['left']} left.",
}


def _table(frame: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    return ["player", "taken"], [[p.get("name", p["id"]), p.get("taken", 0)] for p in frame["players"]]


PRESENTATION = Presentation(
    names=lambda frame: Names({p["id"]: p.get("name", p["id"]) for p in frame["players"]},
                              ruleset="nim"),
    table=_table, charts=(("taken", "Stones taken"),),
    series=lambda frame: {p["id"]: {"taken": p.get("taken", 0)} for p in frame["players"]},
    key_kinds=("take",))

RULESET = RulesetInfo(
    name="nim", title="Nim", state_class=NimState, validate=validate, faction_field="players",
    prose=PROSE, present=PRESENTATION, default_campaign="nim.yaml",
    agents=(RANDOM, IDLE, MANUAL), docs="docs/architecture.md", actions=ActionTable("nim", Take))

CAMPAIGN = """\
ruleset: nim
name: A Pile of Stones
seed: 3
pile: 21
players:
  - {id: ann, name: Ann, agent: random}
  - {id: bob, name: Bob, agent: random}
"""
