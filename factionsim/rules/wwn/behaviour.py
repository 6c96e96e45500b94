"""WWN behaviour metrics (:mod:`factionsim.core.behaviour`), counted from the events.

A faction turn (from its ``faction-turn`` event to the next faction's) **stalls** when

- it is paralysed (the faction abandoned its goal the turn before: ``paralysed``);
- its Faction Action changed nothing: an ``action`` other than ``pass`` followed by no event of
  its own before the goal step (a Move that moved nothing...), an *empty action*;
- it passed and did nothing else with the turn: a ``pass`` not followed by a ``bribe`` (Wealth
  of Kingdoms is paid in the goal step, so a pass that bribes is the goal's work), an *idle pass*;
- or its Faction Action was a Move whose only effect was to trade places, a *shuffle*
  (:func:`shuffled`): every asset moved either went back to where its move of the faction's
  previous turn took it from (A -> B, then B -> A), or, with the other moves, left as many assets
  of each type in each place as before (two Thugs swapping places), and no goal was completed
  that turn. Such moves change nothing a goal can count (Inside Enemy Territory does not count
  the agents it excluded, wherever they go), nor what the faction holds where.

Other counts: attacks (each ``attack`` event the faction strikes), Faction Actions by kind,
creations, expansions (Bases planted), hides, Cunning acts (attacks by its Cunning assets and uses
of its Cunning assets' abilities, not the effects that come without a choice: Court Patronage's
income, Interrupted Logistics' toll), income, Treasure and asset value at the start and the end
(the listed cost of its non-Base assets, plus 1 per maximum HP of each Base of Influence but the
one at its headquarters: what Expand Influence paid for it, "1 Treasure for each hit point"),
assets lost to rivals (``destroyed`` by another faction) and to upkeep (``asset-lost`` for upkeep
unpaid), goals completed (their turns), abandoned and failed, relation changes and collapse.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from factionsim.core.behaviour import BehaviourSpec, Tally, faction_turns, load_rates

from . import homebrew
from .actions import ACTION_KINDS
from .data import BASE_OF_INFLUENCE, AssetType

#: events of the goal step: they do not make a Faction Action do something
GOAL_STEP = frozenset({"goal-complete", "goal-chosen", "goal-failed", "goal-abandoned", "bribe",
                       "raise"})
#: ``ability`` effects that happen without the owner choosing them (income, upkeep, a toll on
#: rivals): not counted as using an ability
UNCHOSEN_EFFECTS = frozenset({"patronage-income", "entry-refused", "delay-entry", "homebrew-income",
                              "homebrew-upkeep", "homebrew-upkeep-unpaid"})
#: events that are not something happening (a decision is only its reason)
NOT_EFFECTS = GOAL_STEP | {"decision"}


def _kind(asset_id: str, types: Mapping[str, AssetType]) -> AssetType | None:
    return types.get(asset_id.rsplit("#", 1)[0])


def _value(frame: Mapping[str, Any], fid: str,
           types: Mapping[str, AssetType]) -> tuple[float, float]:
    """(Treasure, asset value) of faction ``fid`` in a campaign frame: the listed cost of its
    non-Base assets plus the maximum HP of its Bases but the one at its headquarters (a Base
    costs 1 Treasure per HP to plant; the headquarters was never bought)."""
    for f in frame.get("factions", ()):
        if f["id"] == fid:
            if not f.get("alive", True):
                return 0.0, 0.0
            value = 0
            for a in f.get("assets") or ():
                if a["type"] == BASE_OF_INFLUENCE:
                    if a.get("location") != f.get("headquarters"):
                        value += a.get("max_hp") or 0
                elif a["type"] in types:
                    value += types[a["type"]].cost
            return float(f.get("treasure", 0)), float(value)
    return 0.0, 0.0


#: a move: (asset id, from, to)
Moved = tuple[str, str, str]


def moves_of(fid: str, events: Sequence[Any]) -> list[Moved]:
    """The moves of faction ``fid``'s assets among ``events`` (one faction turn's)."""
    return [(e.data.get("asset", ""), e.data.get("from", ""), e.data.get("to", ""))
            for e in events if e.kind == "move" and e.faction == fid]


def shuffled(moves: Sequence[Moved], previous: Sequence[Moved]) -> bool:
    """Whether ``moves`` (one faction turn's, not empty) only trade places: each either takes an
    asset back where its move in ``previous`` (the faction's previous turn's moves) took it from,
    or is one of moves that together leave as many assets of each type in each place.

    >>> shuffled([("thugs#1", "b", "a")], [("thugs#1", "a", "b")])   # back where it was
    True
    >>> shuffled([("thugs#1", "a", "b"), ("thugs#2", "b", "a")], [])  # two Thugs swap
    True
    >>> shuffled([("thugs#1", "a", "b"), ("scouts#2", "b", "a")], [])  # different assets
    False
    >>> shuffled([("thugs#1", "b", "c")], [("thugs#1", "a", "b")])   # onwards
    False
    """
    back = {(asset, to, frm) for asset, frm, to in previous}
    rest = [m for m in moves if m not in back]

    def kind(asset: str) -> str:
        return asset.rsplit("#", 1)[0]

    return bool(moves) and Counter((kind(a), frm) for a, frm, _ in rest) == \
        Counter((kind(a), to) for a, _, to in rest)


def count(events: Sequence[Any], start: Mapping[str, Any], end: Mapping[str, Any],
          first_turn: int) -> dict[str, Tally]:
    """Each faction's :class:`Tally` of one history (see the module docstring)."""
    fids = [f["id"] for f in start.get("factions", ())]
    tallies = {fid: Tally(goal_turns=[]) for fid in fids}
    types = homebrew.asset_table(start.get("asset_types"))
    for fid, t in tallies.items():
        t.counts["treasure_start"], t.counts["value_start"] = _value(start, fid, types)
        t.counts["treasure_end"], t.counts["value_end"] = _value(end, fid, types)
        t.counts["worth_end"] = t.counts["treasure_end"] + t.counts["value_end"]
    last_moves: dict[str, list[Moved]] = {}  # each faction's moves in its previous turn
    for fid, turn, turn_events in faction_turns(events):
        if fid in tallies:
            _count_turn(tallies[fid], fid, turn - first_turn + 1, turn_events,
                        last_moves.get(fid, []))
            last_moves[fid] = moves_of(fid, turn_events)
    for e in events:
        _count_event(tallies, e, first_turn, types)
    for t in tallies.values():
        t.counts["treasure_available"] = t.counts["treasure_start"] + t.counts.get("income", 0)
    return tallies


def _count_turn(t: Tally, fid: str, turn: int, events: list[Any],
                previous: Sequence[Moved]) -> None:
    t.turns.append(turn)
    stall = turn_stall(fid, events, previous, t)
    if stall is not None:
        t.add(stall)
        t.add("stalls")


def turn_stall(fid: str, events: Sequence[Any], previous: Sequence[Moved],
               t: Tally | None = None) -> str | None:
    """How faction ``fid``'s turn (its ``events``) stalled: ``"paralysed"``, ``"idle_passes"``,
    ``"empty_actions"`` (also counted as ``empty_<action>`` in ``t``) or ``"shuffles"`` (see the
    module docstring; ``previous``: its previous turn's moves), else None. Counts its Faction
    Action (``action_<kind>``) in ``t`` when given."""
    action = None
    effects = bribed = goal_done = False
    only_moves = True
    for e in events:
        if e.kind == "paralysed" and e.faction == fid:
            return "paralysed"
        if e.kind == "action" and e.faction == fid:
            action = e.data.get("action")
            if t is not None:
                t.add(f"action_{action}")
        elif action is not None and e.kind not in NOT_EFFECTS:
            effects = True
            only_moves = only_moves and e.kind == "move" and e.faction == fid
        bribed |= e.kind == "bribe" and e.faction == fid
        goal_done |= e.kind == "goal-complete" and e.faction == fid
    if action is None:
        return None  # it collapsed before it could act
    if action == "pass":
        return None if bribed else "idle_passes"
    if not effects:
        if t is not None:
            t.add(f"empty_{action}")
        return "empty_actions"
    if action == "move" and only_moves and not goal_done \
            and shuffled(moves_of(fid, events), previous):
        return "shuffles"
    return None


#: events counted once each for the faction whose event it is: event kind -> count
_COUNTED = {"create": "creations", "base-planted": "expansions", "hide": "hides",
            "goal-abandoned": "goals_abandoned", "goal-failed": "goals_failed",
            "collapse": "collapses", "relation": "relation_changes"}


def _count_event(tallies: dict[str, Tally], e: Any, first_turn: int,
                 types: Mapping[str, AssetType]) -> None:
    d, fid = e.data, e.faction
    t = tallies.get(fid) if fid is not None else None
    kind = e.kind
    if kind == "destroyed":
        owner = tallies.get(d.get("owner"))
        if owner is not None and fid is not None and fid != d.get("owner"):
            owner.add("lost_to_rivals")
            if t is not None:
                t.add("kills")
        elif owner is not None:
            owner.add("lost_other")
        return
    if t is None:
        return
    if kind in _COUNTED:
        t.add(_COUNTED[kind])
    elif kind == "attack":
        t.add("attacks")
        k = _kind(d.get("attacker", ""), types)
        if k is not None and k.attribute == "cunning":
            t.add("cunning_acts")
    elif kind == "ability" and d.get("effect") not in UNCHOSEN_EFFECTS:
        k = _kind(str(d.get("source", "")), types)
        if k is not None and k.attribute == "cunning":
            t.add("cunning_acts")
    elif kind == "income":
        t.add("income", d.get("amount", 0))
    elif kind == "asset-lost":
        t.add("lost_to_upkeep" if "upkeep" in str(d.get("reason", "")) else "lost_other")
    elif kind == "goal-complete":
        assert t.goal_turns is not None
        t.goal_turns.append(e.turn - first_turn + 1)


#: the rates it reports (``behaviour.yaml``)
RATES = load_rates(__package__)

BEHAVIOUR = BehaviourSpec(count=count, rates=RATES, actions=ACTION_KINDS)
