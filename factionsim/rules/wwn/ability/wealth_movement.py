"""Wealth assets that move (6.10.0): Caravan, Dragomans, Economic Disruption, Free Company, Hired
Legion, Mad Genius, Smuggling Fleet, Transport Network (registered on import).

Mercenaries (Free Company, Hired Legion): our rules for what the text leaves open.

- Upkeep is taken at the start of the owner's turn, before other upkeep. Unpaid upkeep becomes
  back pay (``status["arrears"]``); each later upkeep the owner must pay the upkeep plus all back
  pay at once, automatically when its Treasure allows. While it cannot, the 1d6 is rolled every
  turn: 1-3 the asset deserts (lost), 4-6 it is rogue (``status["rogue"]``) for that turn.
- A rogue mercenary attacks at the start of its owner's turn (after upkeep) the most
  profitable-looking target: the visible asset of a faction hostile to its owner, able to defend
  against it, in its location or a location within the owner's movement range that does not forbid
  it, with the highest purchase cost (a Base counts its max HP); ties: the nearer, then the older
  asset. It moves there first if needed, then attacks that asset's faction, which picks the
  defender as in any Attack. While rogue its owner cannot use its free move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from factionsim.core.dice import roll_die
from factionsim.core.game import Event

from .. import flow
from ..abilities import UNSELLABLE, can_defend, can_leave, register, usable
from ..actions import Defend, parse_action
from ..combat import remove_asset, start_attack
from ..movement import can_attack, defenders, destinations
from .force import log, may_enter, move, move_range, paid_move, unlimited_transport

if TYPE_CHECKING:
    from ..model import Asset
    from ..state import WwnState


def _self_moves(state: WwnState, holder: Asset) -> list[str]:
    return destinations(state, holder)


def _self_move(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    log(state, holder, "relocates", events, to=option)
    move(state, holder, option, events)


def _passengers(state: WwnState, holder: Asset) -> list[Asset]:
    """The other assets of the holder's faction at its location that may leave it (no Bases):
    what a Caravan or a Smuggling Fleet may take along."""
    return [a for a in state.assets_at(holder.location)
            if a.owner == holder.owner and a.id != holder.id and not a.is_base and can_leave(state, a)]


# ------------------------------------------------------------------ Caravan
@register("caravan", "free_options")
def _caravan_options(state: WwnState, holder: Asset) -> list[str]:
    if state.factions[holder.owner].treasure < 1 or not can_leave(state, holder):
        return []
    here = holder.location
    others = _passengers(state, holder)
    out: list[str] = []
    for dest in state.map.within(here, 1):
        if may_enter(state, holder, dest):
            out.append(dest)
            out.extend(f"{dest}+{a.id}" for a in others if may_enter(state, a, dest))
    return out


@register("caravan", "free_use")
def _caravan_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    dest, _, other = option.partition("+")
    state.factions[holder.owner].treasure -= 1
    log(state, holder, "caravan", events, to=dest, cost=1, **({"carried": other} if other else {}))
    move(state, holder, dest, events)
    if other and other in state.assets and not flow.asking(state):
        move(state, state.assets[other], dest, events)


# ------------------------------------------------------------------ Dragomans
@register("dragomans", "expand_dice")
def _dragomans_die(state: WwnState, faction: str, location: str, holder: Asset) -> int:
    first = next((d for d in state.assets.values()
                  if d.type == "dragomans" and d.owner == faction and d.location == location
                  and usable(state, d)), None)
    return int(first is not None and first.id == holder.id)


register("dragomans", "free_options")(_self_moves)
register("dragomans", "free_use")(_self_move)

# ------------------------------------------------------------------ Economic Disruption
register("economic-disruption", "free_options")(_self_moves)
register("economic-disruption", "free_use")(_self_move)

# ------------------------------------------------------------------ Free Company, Hired Legion
UPKEEP = {"free-company": 1, "hired-legion": 2}
UNSELLABLE.add("hired-legion")


def _merc_moves(state: WwnState, holder: Asset) -> list[str]:
    return [] if holder.status.get("rogue") else _self_moves(state, holder)


def _merc_upkeep(state: WwnState, asset: Asset, events: list[Event]) -> None:
    f = state.factions[asset.owner]
    owed = asset.status.get("arrears", 0)
    due = UPKEEP[asset.type] + owed
    if f.treasure >= due:
        f.treasure -= due
        asset.status.pop("arrears", None)
        asset.status.pop("rogue", None)
        log(state, asset, "wages", events, paid=due, back_pay=owed, treasure=f.treasure)
        return
    asset.status["arrears"] = due
    roll = roll_die(state.rng, 6)
    if roll <= 3:
        log(state, asset, "deserts", events, owed=due, roll=[roll])
        remove_asset(state, asset, events, "unpaid, deserted")
    else:
        asset.status["rogue"] = True
        log(state, asset, "goes-rogue", events, owed=due, roll=[roll])


def _value(asset: Asset) -> int:
    return asset.max_hp if asset.is_base else asset.kind.cost


def rogue_target(state: WwnState, merc: Asset) -> Asset | None:
    """The most profitable-looking target of a rogue mercenary (see the module docstring)."""
    if not can_attack(state, merc):
        return None
    here = merc.location
    places = [here] + ([loc for loc in state.map.within(here, move_range(state, merc.owner))
                        if may_enter(state, merc, loc)] if can_leave(state, merc) else [])
    order = {aid: i for i, aid in enumerate(state.assets)}
    targets = [a for a in state.assets.values()
               if a.location in places and not a.stealth and state.hostile(merc.owner, a.owner)
               and usable(state, a) and can_defend(state, a, merc)]
    if not targets:
        return None
    return min(targets, key=lambda a: (-_value(a), state.map.distance(here, a.location), order[a.id]))


def _rogue_attack(state: WwnState, merc: Asset, events: list[Event]) -> None:
    if not merc.status.get("rogue"):
        return
    target = rogue_target(state, merc)
    if target is None:
        log(state, merc, "rogue-idle", events)
        return
    log(state, merc, "rogue-attack", events, target=target.id, target_faction=target.owner)
    if target.location != merc.location:
        move(state, merc, target.location, events)
        if flow.asking(state) or merc.id not in state.assets or merc.location != target.location:
            return  # a reaction paused the move, or the entry was delayed (Interrupted Logistics)
    candidates = defenders(state, target.owner, merc)
    if len(candidates) == 1:
        start_attack(state, merc, candidates[0], events)
    elif candidates:
        flow.ask(state, target.owner, [Defend(d.id) for d in candidates], "rogue-defend",
                 {"attacker": merc.id})


@flow.step("rogue-defend")
def _rogue_defend(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    choice = parse_action(args["choice"])
    merc = state.assets.get(args["attacker"])
    if merc is not None and isinstance(choice, Defend) and choice.asset in state.assets:
        start_attack(state, merc, state.assets[choice.asset], events)


for _merc in UPKEEP:
    register(_merc, "free_options")(_merc_moves)
    register(_merc, "free_use")(_self_move)
    register(_merc, "upkeep")(_merc_upkeep)
    register(_merc, "turn_start")(_rogue_attack)


# ------------------------------------------------------------------ Mad Genius
@register("mad-genius", "free_options")
def _genius_options(state: WwnState, holder: Asset) -> list[str]:
    out = _self_moves(state, holder)
    base = state.base_of(holder.owner, holder.location)
    if base is not None and not base.status.get("mad_genius") \
            and state.factions[holder.owner].magic != "high":
        out.append("sacrifice")
    return out


@register("mad-genius", "free_ability")
def _genius_ability(state: WwnState, holder: Asset, option: str) -> str:
    """Moving and being sacrificed are two abilities of the text, each once per turn."""
    return "sacrifice" if option == "sacrifice" else ""


@register("mad-genius", "free_use")
def _genius_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    if option != "sacrifice":
        _self_move(state, holder, option, events)
        return
    base = state.base_of(holder.owner, holder.location)
    assert base is not None
    base.status["mad_genius"] = True
    log(state, holder, "sacrifice", events, location=holder.location)
    remove_asset(state, holder, events, "sacrificed")


# The boost outlives the Genius: it is kept on the faction's Base in that location.
@register("base-of-influence", "magic_boost")
def _genius_boost(state: WwnState, faction: str, location: str, holder: Asset) -> int:
    if holder.status.get("mad_genius") and holder.owner == faction and holder.location == location:
        return max(0, 3 - state.factions[faction].magic_level)
    return 0


@register("base-of-influence", "on_purchase")
def _genius_spent(state: WwnState, new: Asset, cost: int, holder: Asset, events: list[Event]) -> None:
    if holder.status.get("mad_genius") and new.owner == holder.owner and new.location == holder.location:
        del holder.status["mad_genius"]
        log(state, holder, "genius-spent", events, asset=new.id)


# ------------------------------------------------------------------ Smuggling Fleet
@register("smuggling-fleet", "free_options")
def _smuggle_options(state: WwnState, holder: Asset) -> list[str]:
    if not can_leave(state, holder):
        return []
    here = holder.location
    others = _passengers(state, holder)
    out: list[str] = []
    for dest in state.map.within(here, 1):
        if state.map.locations[dest].coastal and may_enter(state, holder, dest):
            out.append(dest)
            out.extend(f"{dest}+{a.id}" for a in others)
    return out


@register("smuggling-fleet", "free_use")
def _smuggle_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    dest, _, other = option.partition("+")
    log(state, holder, "smuggle", events, to=dest, **({"carried": other} if other else {}))
    move(state, holder, dest, events)
    cargo = state.assets.get(other) if other else None
    if cargo is not None and not flow.asking(state):
        if not cargo.subtle:
            cargo.status["subtle"] = True
            cargo.status["until_acts"] = [*cargo.status.get("until_acts", []), "subtle"]
        move(state, cargo, dest, events)


# ------------------------------------------------------------------ Transport Network
@register("transport-network", "free_options")
def _network_options(state: WwnState, holder: Asset) -> list[str]:
    if state.factions[holder.owner].treasure < 1:
        return []
    out: list[str] = []
    near_net = state.map.within(holder.location, 1)
    for a in state.assets_of(holder.owner):
        if a.is_base or state.map.distance(holder.location, a.location) > 2 or not can_leave(state, a):
            continue
        dests = dict.fromkeys([*state.map.within(a.location, 1), *near_net])
        out.extend(f"{a.id}->{d}" for d in dests if may_enter(state, a, d))
    return out


register("transport-network", "free_ability")(unlimited_transport)


@register("transport-network", "free_use")
def _network_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    paid_move(state, holder, option, "transport", events)
