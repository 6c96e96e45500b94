"""ARC conflict behaviour metrics (:mod:`factionsim.core.behaviour`), counted from the events.

A side's *turn* is a round it takes part in (the ``round`` event's ``order``). Per side: its
characters' actions by kind (attack, cast, dash, hold, stand, assist, advantage, parley, ritual,
item...), its attacks by mode (``attack_mode_<mode>``: harm, ...) and outcome, characters fallen,
and the conflicts it won. A round *stalls* for a side when none of its characters acted; the round
in which the conflict ends is counted only for the sides that acted in it (the others' turn never
came).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from factionsim.core.behaviour import BehaviourSpec, Tally, load_rates

#: events that are not a character's action
NOT_ACTIONS = frozenset({"decision", "replan", "tie", "reroll", "concentration", "fallen",
                         "advantage-expired", "advantage-failed", "spell-broken",
                         "conflict-end", "category", "turn-end"})
ACTION_KINDS = ("attack", "cast", "dash", "hold", "stand", "assist", "advantage", "parley",
                "ritual", "item", "bond", "remove")


def count(events: Sequence[Any], start: Mapping[str, Any], end: Mapping[str, Any],
          first_turn: int) -> dict[str, Tally]:
    """Each side's :class:`Tally` of one history (see the module docstring)."""
    tallies: dict[str, Tally] = {}
    acted: dict[str, bool] = {}

    def cut_short() -> None:
        """The conflict ended within the round: a side whose turn had not come did not stall
        (the round is not counted for it)."""
        for sid, did in acted.items():
            if not did:
                tallies[sid].turns.pop()
        acted.clear()

    def close_round() -> None:
        for sid, did in acted.items():
            if not did:
                tallies[sid].add("stalls")
        acted.clear()

    for e in events:
        if e.kind == "round":
            close_round()
            for sid in e.data.get("order", ()):
                tallies.setdefault(sid, Tally()).turns.append(e.turn - first_turn + 1)
                acted[sid] = False
            continue
        if e.kind == "conflict-end":
            cut_short()
        t = tallies.get(e.faction) if e.faction is not None else None
        if t is None:
            continue
        if e.kind == "fallen":
            t.add("fallen")
        elif e.kind == "conflict-end":
            t.add("wins")
        elif e.kind not in NOT_ACTIONS:
            t.add(f"action_{e.kind}")
            acted[e.faction] = True
            if e.kind == "attack":
                t.add(f"attack_mode_{e.data.get('mode', 'other')}")
                if e.data.get("success"):
                    t.add("attacks_landed")
    close_round()
    return tallies


#: the rates it reports (``behaviour.yaml``)
RATES = load_rates(__package__, ACTION_KINDS)

BEHAVIOUR = BehaviourSpec(count=count, rates=RATES, actions=ACTION_KINDS)
