"""Great Houses behaviour metrics (:mod:`factionsim.core.behaviour`), counted from the events.

Per House: the season's actions by kind (``action`` events: Create an Asset, Create a
Complication, Attack a House or a Trait, Seize, the recoveries, pass), tests won, assets
created and seized, complications inflicted, and its collapse by cause: Trauma inflicted by a
rival (``trauma`` with ``by``) or escalated by its own hitches (``trauma-escalates``). A turn
*stalls* when the House passes or causes nothing but bookkeeping.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from factionsim.core.behaviour import BehaviourSpec, Tally, load_rates, tally_turns

from .actions import ACTION_KINDS

BOOKKEEPING = frozenset({"decision", "plot-point"})


def count(events: Sequence[Any], start: Mapping[str, Any], end: Mapping[str, Any],
          first_turn: int) -> dict[str, Tally]:
    """Each House's :class:`Tally` of one history (see the module docstring)."""
    tallies = tally_turns(events, first_turn, BOOKKEEPING)
    last_trauma: dict[str, str] = {}
    for e in events:
        if e.kind == "complication" and e.data.get("source") in tallies:
            tallies[e.data["source"]].add("complications")  # (the event is the victim's)
        t = tallies.get(e.faction) if e.faction is not None else None
        if t is None:
            continue
        if e.kind == "test" and e.data.get("success"):
            t.add("tests_won")
        elif e.kind == "asset-created":
            t.add("assets_created")
        elif e.kind == "seized":
            t.add("seizures")
        elif e.kind == "trauma":
            last_trauma[e.faction] = "rivals" if e.data.get("by") else "other"
        elif e.kind == "trauma-escalates":
            last_trauma[e.faction] = "hitches"
        elif e.kind == "collapse":
            t.add("collapses")
            t.add(f"collapse_by_{last_trauma.get(e.faction, 'other')}")
    return tallies


#: the rates it reports (``behaviour.yaml``)
RATES = load_rates(__package__, ACTION_KINDS)

BEHAVIOUR = BehaviourSpec(count=count, rates=RATES, actions=ACTION_KINDS)
