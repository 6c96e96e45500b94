"""Anima Prime engagements behaviour metrics (:mod:`factionsim.core.behaviour`), counted from
the events.

Per faction: its choices by kind (``action_<kind>`` for each of :data:`ACTIONS`: the spending
actions build, raise, heal, convert, engage, commission; invite, join and decline in
engagements; fanatical), engagements it started (``engage``), joined when invited (``join``) and refused
(``decline``), invitations it sent, the size of the engagements it started (factions taking
part: aggressor, defender and allies, from ``engagement-end``), pillars it built, healed and
lost, Faction Dice converted, and collapse. A turn *stalls* when the faction causes nothing but
its income (and its decisions' reasons).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from factionsim.core.behaviour import BehaviourSpec, Tally, load_rates, tally_turns

BOOKKEEPING = frozenset({"decision", "income"})
#: the choices a faction makes, each counted as ``action_<kind>`` from its event
ACTIONS = ("build", "raise", "heal", "convert", "engage", "commission", "invite", "join",
           "decline", "fanatical")
_COUNTED = {"engage": "engagements_started", "join": "engagements_joined",
            "decline": "engagements_refused", "invite": "invitations", "build": "pillars_built",
            "heal": "heals", "convert": "conversions", "collapse": "collapses"}


def count(events: Sequence[Any], start: Mapping[str, Any], end: Mapping[str, Any],
          first_turn: int) -> dict[str, Tally]:
    """Each faction's :class:`Tally` of one history (see the module docstring)."""
    tallies = tally_turns(events, first_turn, BOOKKEEPING)
    for e in events:
        t = tallies.get(e.faction) if e.faction is not None else None
        if t is None:
            continue
        if e.kind in ACTIONS:
            t.add(f"action_{e.kind}")
        if e.kind in _COUNTED:
            t.add(_COUNTED[e.kind])
        elif e.kind == "engagement-end":
            t.add("engagements_ended")
            t.add("engagement_factions", 2 + len(e.data.get("allies", ())))
        elif e.kind == "pillar-defeated":
            t.add("pillars_lost")
    for t in tallies.values():
        t.counts["invitations_answered"] = (t.counts.get("engagements_joined", 0)
                                            + t.counts.get("engagements_refused", 0))
    return tallies


#: the rates it reports (``behaviour.yaml``)
RATES = load_rates(__package__)


BEHAVIOUR = BehaviourSpec(count=count, rates=RATES, actions=ACTIONS)
