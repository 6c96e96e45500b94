"""The control flow every ruleset's state shares: the engine contract over a *rules module*.

A ruleset keeps its decision points in a module (``turn.py``) with ``TURN_START``,
``legal_actions(state)``, ``apply(state, action, events)`` and ``settle(state, start_turn=True)``
(run automatic steps up to the next decision point). Its state class subclasses
:class:`DecisionState`, names that module in ``decision_module`` and holds ``phase``, ``actor``,
``factions``, ``turn`` and ``max_turns``; this class provides ``current_actor``,
``legal_actions`` (cached per decision point), ``apply``, ``advance`` and ``is_over`` of the
contract (:class:`factionsim.core.game.GameState`; the ruleset adds ``scores``, ``view``,
``to_dict``/``from_dict``, ``faction_summary`` and ``display_names``), and the
campaign fields every ruleset saves alike (the common fields, the dice generator's state, and the
turn order of a turn in progress).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from factionsim.core.dice import seeded_dice
from factionsim.core.game import Action, Event, GameState, IllegalActionError


class DecisionState(GameState):
    """Base of the rulesets' game states (see the module docstring): a :class:`GameState` whose
    decision points live in a rules module."""

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

    def __init__(self) -> None:
        """The fields every ruleset's state has (a ruleset's ``__init__`` adds its own)."""
        self.name = ""
        self.seed: int | None = None
        self.turn = 0
        self.max_turns: int | None = None
        self.rng: Any = np.random.default_rng()
        self.phase = self.decision_module.TURN_START
        self.actor: str | None = None
        self.ctx: dict[str, Any] = {}
        self.extra: dict[str, Any] = {}  # campaign fields this version does not use, kept on save
        self._pending: list[Event] = []
        self._legal: list[Action] | None = None

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

    def common_fields_data(self) -> dict[str, Any]:
        """The start of every campaign file: ``ruleset``, ``name``, ``seed`` and ``max_turns``
        when set, ``turn`` (what :meth:`read_common_fields` reads back)."""
        d: dict[str, Any] = {"ruleset": self.ruleset, "name": self.name}
        if self.seed is not None:
            d["seed"] = self.seed
        d["turn"] = self.turn
        if self.max_turns is not None:
            d["max_turns"] = self.max_turns
        return d

    def rng_data(self) -> dict[str, Any]:
        """The dice generator's state as plain data (the campaign field ``rng``)."""
        return copy.deepcopy(self.rng.bit_generator.state)

    def read_rng(self, d: dict[str, Any]) -> None:
        """Dice from campaign data ``d``: its saved generator state (``rng``), else a generator
        seeded with ``seed`` (read first, by :meth:`read_common_fields`)."""
        if "rng" in d:
            self.rng = np.random.Generator(np.random.PCG64())
            self.rng.bit_generator.state = copy.deepcopy(d["rng"])
        elif self.seed is not None:
            self.rng = seeded_dice(self.seed)[1]
        else:
            self.rng = np.random.default_rng()  # no seed yet: fresh dice

    def in_progress_data(self, **fields: Any) -> dict[str, Any]:
        """The campaign field ``in_progress`` of a ruleset that plays in turn order (``order``,
        ``order_index``): phase, actor, order, the ruleset's own ``fields``, then ``ctx``."""
        return {"phase": self.phase, "actor": self.actor, "order": list(self.order),
                "order_index": self.order_index, **fields, "ctx": copy.deepcopy(self.ctx)}

    def read_in_progress(self, ip: dict[str, Any]) -> None:
        """Restore what :meth:`in_progress_data` wrote in common (the ruleset reads its own)."""
        self.phase, self.actor, self.order = ip["phase"], ip["actor"], list(ip["order"])
        self.order_index = int(ip["order_index"])
        self.ctx = copy.deepcopy(ip["ctx"])

    def next_in_order(self, faction_start: str) -> bool:
        """A faction's turn is over, in a ruleset that plays in turn order (``order``,
        ``order_index``): on to the next faction (phase ``faction_start``; True), or, after the
        last, the turn is counted and ends (False; the ruleset then reports it)."""
        self.order_index += 1
        self.ctx = {}
        if self.order_index < len(self.order):
            self.phase = faction_start
            return True
        self.turn += 1
        self.phase = self.decision_module.TURN_START
        self.actor = None
        self.order, self.order_index = [], 0
        return False

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
        return (self.phase == self.decision_module.TURN_START  # (first: the cheapest test)
                and self.max_turns is not None and self.turn >= self.max_turns)


def stop_or_force(state: Any, legal_actions: Callable[[Any], list[Action]],
                  apply: Callable[[Any, Action, list[Event]], None], events: list[Event]) -> bool:
    """The last step of a ruleset's ``settle`` at a decision point: with exactly one legal action
    it is applied (a forced move; returns False, settle goes on); otherwise the legal actions are
    kept for :meth:`DecisionState.legal_actions` and it returns True (settle stops here)."""
    legal = legal_actions(state)
    if len(legal) != 1:
        state._legal = legal
        return True
    apply(state, legal[0], events)
    return False


def _listed(action: Action, legal: list[Action]) -> bool:
    """``action in legal``, looking for the very object first: callers usually pass back one of
    the listed actions, and comparing dataclasses by value along the way is slower."""
    for a in legal:
        if a is action:
            return True
    return action in legal

