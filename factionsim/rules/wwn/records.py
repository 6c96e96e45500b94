"""What a GM records of a WWN campaign between turns (``factionsim record``, see
:mod:`factionsim.core.records`): the PCs' deeds, made through the faction rules.

- ``damage ASSET N [--by FACTION]``: the asset takes N damage as from an attack (6.6.0): a Base
  of Influence passes it to its faction's HP, an asset at 0 HP is destroyed (abilities that
  save a destroyed asset act), a faction at 0 HP collapses; with ``--by`` a faction is
  credited, as the attacker would be, toward its goal (Blood the Enemy, Destroy the Foe...);
- ``destroy ASSET [--by FACTION]``: damage equal to the asset's HP (so a Base's loss is felt by
  its faction, as any Base's destruction is);
- ``treasure FACTION CHANGE``: Treasure gained or spent (``+10``, ``-3``); never below 0;
- ``move ASSET LOCATION``: the asset is carried somewhere (no Move Asset action, no range: the
  PCs carried it); a place that forbids it (a subtle asset where it is not welcome...) is
  refused, as for any move;
- ``goal FACTION GOAL [TARGET]``: the faction takes up a new goal (without the cost of
  abandoning its old one: the GM decided it), set up as a goal written in the campaign file is.

Treasure and goals are the faction's secrets: those records reach the GM's chronicle only.

>>> [spec.name for spec in RECORDS]
['damage', 'destroy', 'treasure', 'move', 'goal', 'note']
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING, Any

from factionsim.core.names import Names
from factionsim.core.records import NOTE, Applied, RecordArg, RecordError, RecordSpec

from . import combat, movement
from .goals import GOALS, goal_name

if TYPE_CHECKING:
    from .model import Asset, Faction
    from .state import WwnState


def _choices(word: str, options: list[str], what: str, limit: int = 12) -> str:
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    shown = ", ".join(options[:limit]) + (f" and {len(options) - limit} more" if
                                          len(options) > limit else "")
    return f"{hint}; {what}: {shown}"


def _asset(state: WwnState, aid: str, arg: str = "ASSET") -> Asset:
    asset = state.assets.get(aid)
    if asset is None:
        raise RecordError(f"{arg} {aid!r} is not an asset in play"
                          + _choices(aid, list(state.assets), "assets in play (type#number, as "
                                     "'factionsim show' lists them)"))
    return asset


def _faction(state: WwnState, fid: str, arg: str) -> Faction:
    f = state.factions.get(fid)
    living = [f.id for f in state.living_factions()]
    if f is None or not f.alive:
        what = "is not a faction of this campaign" if f is None else "has collapsed"
        raise RecordError(f"{arg} {fid!r} {what}" + _choices(fid, living, "living factions"))
    return f


def _by(state: WwnState, values: dict[str, Any]) -> str | None:
    by = values.get("by")
    return _faction(state, by, "--by").id if by else None


def _hurt(state: WwnState, asset: Asset, amount: int, by: str | None, names: Names,
          verb: str) -> Applied:
    events: list[Any] = []
    public = not asset.stealth
    owner = asset.owner
    combat.damage_asset(state, asset, amount, by, events, cause="gm")
    who = f" (the work of {names.faction(by)})" if by else ""
    return Applied(state.to_dict(), events,
                   f"{names.asset(asset.id, owner)} {verb}{who}.", public)


def _damage(state: WwnState, values: dict[str, Any], names: Names) -> Applied:
    asset = _asset(state, values["asset"])
    amount = values["amount"]
    if amount < 1:
        raise RecordError(f"AMOUNT {amount}: damage must be a whole number of at least 1")
    return _hurt(state, asset, amount, _by(state, values), names,
                 f"takes {amount} damage (it had {asset.hp} HP)")


def _destroy(state: WwnState, values: dict[str, Any], names: Names) -> Applied:
    asset = _asset(state, values["asset"])
    return _hurt(state, asset, asset.hp, _by(state, values), names,
                 f"is destroyed ({asset.hp} damage)")


_CHANGE = re.compile(r"[+-]\d{1,9}")


def _change(text: str) -> int:
    """``+10`` or ``-3`` (the sign is required: a change, not a new total)."""
    import argparse

    if not _CHANGE.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a change of Treasure; write it with its "
                                         "sign: +10 (gained) or -3 (spent)")
    return int(text)


def _treasure(state: WwnState, values: dict[str, Any], names: Names) -> Applied:
    f = _faction(state, values["faction"], "FACTION")
    change = values["change"]
    if f.treasure + change < 0:
        raise RecordError(f"CHANGE {change:+d}: {f.name} has {f.treasure} Treasure, and Treasure "
                          f"never goes below 0; allowed: {-f.treasure:+d} or more")
    before, f.treasure = f.treasure, f.treasure + change
    return Applied(state.to_dict(), [], f"{f.name}'s Treasure goes from {before} to "
                   f"{f.treasure} ({change:+d}).", public=False)


def _move(state: WwnState, values: dict[str, Any], names: Names) -> Applied:
    from factionsim.core.game import Event

    asset = _asset(state, values["asset"])
    to = values["location"]
    places = list(state.map.locations)
    if to not in state.map.locations:
        raise RecordError(f"LOCATION {to!r} is not a location of this campaign"
                          + _choices(to, places, "locations"))
    if to == asset.location:
        raise RecordError(f"LOCATION {to!r}: {asset.id} is there already; give another location")
    if asset.is_base:
        raise RecordError(f"ASSET {asset.id}: Bases of Influence never move (docs/rules-wwn.md, "
                          "Move Asset); record 'destroy', and the faction may Expand Influence "
                          "elsewhere")
    if movement.forbids(state, to, asset):
        raise RecordError(f"LOCATION {to!r}: {names.place(to)} does not allow "
                          f"{names.asset(asset.id, asset.owner)} (a subtle or forbidden asset "
                          "there); allowed: " + ", ".join(
                              p for p in places if p != asset.location
                              and not movement.forbids(state, p, asset)))
    events = [Event(state.current_turn, "move", asset.owner,
                    {"asset": asset.id, "from": asset.location, "to": to})]
    origin, asset.location = asset.location, to
    asset.status.pop("arriving", None)
    asset.status.pop("may_stay", None)
    public = not asset.stealth
    return Applied(state.to_dict(), events, f"{names.asset(asset.id, asset.owner)} is carried from "
                   f"{names.place(origin)} to {names.place(to)}.", public)


def _goal(state: WwnState, values: dict[str, Any], names: Names) -> Applied:
    f = _faction(state, values["faction"], "FACTION")
    gid = values["goal"]
    known = [*GOALS, *state.goal_types]
    if gid not in known:
        raise RecordError(f"GOAL {gid!r} is not a goal of this campaign"
                          + _choices(gid, known, "goals"))
    data = state.to_dict()
    entry = next(fd for fd in data["factions"] if fd["id"] == f.id)
    target = values.get("target") or ""
    entry["goal"] = {"id": gid, "target": target} if target else gid
    what = goal_name(state, gid) + (f" ({target})" if target else "")
    return Applied(data, [], f"{f.name} takes up a new goal: {what}.", public=False)


_BY = RecordArg("--by", "the faction that did it (credited toward its goal as an attacker "
                "would be); leave out for the PCs or chance")

#: The records a WWN campaign takes, in the order ``factionsim record --help`` lists them.
RECORDS = (
    RecordSpec("damage", "an asset takes damage (a Base passes it to its faction's HP)",
               (RecordArg("ASSET", "the asset (type#number, e.g. infantry#3)"),
                RecordArg("AMOUNT", "damage, a whole number", int), _BY),
               _damage, example='factionsim record march.yaml damage infantry#3 2 '
               '--because "The party ambushed the column at the ford."'),
    RecordSpec("destroy", "an asset is destroyed (damage equal to its HP)",
               (RecordArg("ASSET", "the asset (type#number)"), _BY),
               _destroy, example='factionsim record march.yaml destroy smugglers#12 --because '
               '"The party burned the smugglers\' ships."'),
    RecordSpec("treasure", "a faction gains or spends Treasure",
               (RecordArg("FACTION", "the faction's id"),
                RecordArg("CHANGE", "+N gained or -N spent", _change)),
               _treasure, example="factionsim record march.yaml treasure silver-guild +10 "
               '--because "The party paid the Guild for safe passage."'),
    RecordSpec("move", "an asset is carried to another location",
               (RecordArg("ASSET", "the asset (type#number)"),
                RecordArg("LOCATION", "the location's id")),
               _move, example="factionsim record march.yaml move informers#7 coldvale"),
    RecordSpec("goal", "a faction takes up a new goal",
               (RecordArg("FACTION", "the faction's id"),
                RecordArg("GOAL", "the goal's id: " + ", ".join(GOALS)),
                RecordArg("TARGET", "the goal's target where it has one (Sphere Dominance: "
                          "force/cunning/wealth; Root Out the Enemy: faction@location)",
                          nargs="?")),
               _goal, example="factionsim record march.yaml goal iron-legion blood-the-enemy"),
    NOTE,
)
