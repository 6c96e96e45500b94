"""The control flow every ruleset's state shares: the engine contract over a *rules module*.

A ruleset keeps its decision points in a module (``turn.py``) with ``TURN_START``,
``legal_actions(state)``, ``apply(state, action, events)`` and ``settle(state, start_turn=True)``
(run automatic steps up to the next decision point). Its state class subclasses
:class:`DecisionState`, names that module in ``decision_module`` and holds ``phase``, ``actor``,
``factions``, ``turn`` and ``max_turns``; this class provides ``current_actor``,
``legal_actions`` (cached per decision point), ``apply``, ``advance`` and ``is_over``.
"""

from __future__ import annotations

import copy
from types import ModuleType
from typing import Any

from factionsim.core.game import Action, Event, IllegalActionError


class DecisionState:
    """Base of the rulesets' game states (see the module docstring)."""

    decision_module: ModuleType
    #: how many rounds of automatic steps one advance may run before giving up on finding a
    #: decision (a ruleset whose rounds can pass with no decision at all sets more than 1)
    max_forced_rounds = 1

    phase: str
    actor: str | None
    turn: int
    max_turns: int | None
    factions: dict[str, Any]
    _pending: list[Event]
    _legal: list[Action] | None

    #: campaign fields every ruleset's file has (read by :meth:`read_common_fields`)
    COMMON_FIELDS = frozenset({"ruleset", "name", "seed", "turn", "max_turns", "in_progress", "rng"})

    def read_common_fields(self, d: dict[str, Any], own_fields: set[str]) -> None:
        """Set ``name``, ``seed``, ``turn``, ``max_turns`` from campaign data ``d``, and keep the
        fields neither common nor among the ruleset's ``own_fields`` in ``extra`` (written back
        on save)."""
        known = self.COMMON_FIELDS | own_fields
        self.extra = {k: copy.deepcopy(v) for k, v in d.items() if k not in known}
        self.name = d.get("name", "")
        self.seed = d.get("seed")
        self.turn = int(d.get("turn", 0))
        self.max_turns = d.get("max_turns")

    def current_actor(self) -> str | None:
        """The faction that decides now, or ``None`` when the game is over."""
        self._advance()
        return None if self.phase == self.decision_module.TURN_START and self.is_over() else self.actor

    def legal_actions(self) -> list[Action]:
        """The actions open to :meth:`current_actor` at this decision point."""
        self._advance()
        if self._legal is None:
            self._legal = self.decision_module.legal_actions(self) if self.actor is not None else []
        return self._legal

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` for the current actor and run on to the next decision point (never
        into the next turn). Returns the events caused; raises :class:`IllegalActionError` for an
        action not in :meth:`legal_actions`."""
        legal = self.legal_actions()
        if not _listed(action, legal):
            raise IllegalActionError(
                f"{action} is not legal for {self.actor} now (phase {self.phase}); legal: "
                + ", ".join(map(str, legal[:12])) + (" ..." if len(legal) > 12 else ""))
        events, self._pending = self._pending, []
        self._legal = None
        self.decision_module.apply(self, action, events)
        events.extend(self.decision_module.settle(self, start_turn=False))
        return events

    def advance(self) -> list[Event]:
        """Run automatic steps (a new turn's dice, income...) up to the next decision point and
        return their events; :meth:`apply` returns them otherwise."""
        self._advance()
        events, self._pending = self._pending, []
        return events

    def _advance(self) -> None:
        if self.actor is not None:  # at a decision point already (most calls)
            return
        for _ in range(self.max_forced_rounds):
            if self.actor is not None or self.is_over():
                return
            self._legal = None  # settle lists the legal actions of the decision it stops at
            self._pending.extend(self.decision_module.settle(self))

    def is_over(self) -> bool:
        """Fewer than two factions left, or ``max_turns`` reached between turns."""
        if sum([f.alive for f in self.factions.values()]) < 2:  # (a list sums faster)
            return True
        return (self.max_turns is not None and self.turn >= self.max_turns
                and self.phase == self.decision_module.TURN_START)


def _listed(action: Action, legal: list[Action]) -> bool:
    """``action in legal``, looking for the very object first: callers usually pass back one of
    the listed actions, and comparing dataclasses by value along the way is slower."""
    for a in legal:
        if a is action:
            return True
    return action in legal


class FactionView:
    """What one faction knows of a state; rulesets subclass it to hide what it cannot see."""

    def __init__(self, state: Any, faction: str):
        self.state = state
        self.faction_id = faction

    @property
    def faction(self) -> Any:
        return self.state.factions[self.faction_id]

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def phase(self) -> str:
        return self.state.phase
