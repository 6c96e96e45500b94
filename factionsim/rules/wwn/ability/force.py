"""Force asset abilities (6.9.0), registered on import.

Shared helpers for abilities that move assets live here too (``wealth_movement.py`` uses them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from factionsim.core.dice import Dice
from factionsim.core.game import Event

from .. import abilities, flow
from ..abilities import ENTERS_STEALTHED, can_leave, register, usable
from ..actions import Decline, UseAbility
from ..combat import damage_asset
from ..data import AttackLine
from ..movement import destinations, entry_affordable, forbids, move_asset, move_range

if TYPE_CHECKING:
    from ..model import Asset
    from ..state import WwnState


# ------------------------------------------------------------------ helpers (shared)
def log(state: WwnState, source: Asset, effect: str, events: list[Event], /, **data: Any) -> None:
    """The ``ability`` event of one use."""
    events.append(Event(state.current_turn, "ability", source.owner,
                        {"source": source.id, "effect": effect, **data}))


def allied(state: WwnState, a: str, b: str) -> bool:
    """Same faction, or factions whose relation is ``allied``."""
    return a == b or state.relation(a, b) == "allied"


def seen_by(faction: str, asset: Asset) -> bool:
    """Whether ``faction`` can see ``asset`` (other factions' Stealthed assets are invisible)."""
    return asset.owner == faction or not asset.stealth


def may_enter(state: WwnState, asset: Asset, dest: str) -> bool:
    """``asset`` may be moved (by an ability) from where it is to ``dest``: not forbidden there,
    and its owner can pay any toll on entering (Interrupted Logistics)."""
    return (dest != asset.location and not forbids(state, dest, asset)
            and entry_affordable(state, asset, dest))


def move(state: WwnState, asset: Asset, dest: str, events: list[Event], cause: str = "move") -> None:
    move_asset(state, asset, dest, events, cause=cause)


def split_move(option: str) -> tuple[str, str]:
    """``"infantry#3->b"`` -> ``("infantry#3", "b")`` (asset and location ids are slugs: neither
    holds ``->``)."""
    asset_id, _, dest = option.rpartition("->")
    return asset_id, dest


def road_moves(state: WwnState, holder: Asset) -> list[str]:
    """The moves a road offers for 1 Treasure (Military Roads, Underground Roads): any other asset
    of the holder's faction (not a Base) within one move of it, to a location within one move of
    it that the asset may enter; none when the faction has no Treasure."""
    if state.factions[holder.owner].treasure < 1:
        return []
    reach = state.map.within(holder.location, 1)
    return [f"{a.id}->{dest}" for a in state.assets_of(holder.owner)
            if a.id != holder.id and not a.is_base and a.location in reach and can_leave(state, a)
            for dest in reach if may_enter(state, a, dest)]


def paid_move(state: WwnState, holder: Asset, option: str, effect: str, events: list[Event],
              cause: str = "move") -> None:
    """The free action "move an asset for 1 Treasure" (Military Roads, Underground Roads,
    Transport Network, Covert Transport): the faction pays 1, the use is logged as ``effect``,
    the asset ``option`` names (``"<asset>-><location>"``) moves (a ``cause`` event)."""
    asset_id, dest = split_move(option)
    state.factions[holder.owner].treasure -= 1
    log(state, holder, effect, events, asset=asset_id, to=dest, cost=1)
    move(state, state.assets[asset_id], dest, events, cause)


def unlimited_transport(state: WwnState, holder: Asset, option: str) -> str | None:
    """``free_ability`` of Transport Network and Underground Roads, whose text sets no limit per
    turn: used as often as paid for, unless the house rule ``transport_once_per_turn`` is on."""
    return "" if state.house_rules.transport_once_per_turn else None


def _line(asset: Asset) -> AttackLine | None:
    line = asset.kind.attack
    return line if isinstance(line, AttackLine) else None


# ------------------------------------------------------------------ Brilliant General
def _general_helps(state: WwnState, general: Asset, asset: Asset) -> bool:
    return usable(state, general) and (
        general.id == asset.id
        or (asset.attribute == "force" and asset.location == general.location
            and allied(state, general.owner, asset.owner)))


def _general_die(state: WwnState, asset: Asset, holder: Asset) -> int:
    first = next((g for g in state.assets.values()
                  if g.type == "brilliant-general" and _general_helps(state, g, asset)), None)
    return int(first is not None and first.id == holder.id)


@register("brilliant-general", "extra_attack_dice")
def _general_attack(state: WwnState, attacker: Asset, holder: Asset) -> int:
    return _general_die(state, attacker, holder)


@register("brilliant-general", "extra_defense_dice")
def _general_defense(state: WwnState, defender: Asset, line: AttackLine, holder: Asset) -> int:
    return _general_die(state, defender, holder)


# ------------------------------------------------------------------ Purity Rites
@register("purity-rites", "can_defend")
def _rites_can_defend(state: WwnState, defender: Asset, attacker: Asset) -> bool:
    line = _line(attacker)
    return line is not None and line.defender == "cunning"


@register("purity-rites", "extra_defense_dice")
def _rites_die(state: WwnState, defender: Asset, line: AttackLine, holder: Asset) -> int:
    return int(defender.id == holder.id and line.defender == "cunning")


# ------------------------------------------------------------------ Fortification Program
@register("fortification-program", "extra_defenders")
def _fort_may_defend(state: WwnState, target: str, attacker: Asset, holder: Asset) -> bool:
    line = _line(attacker)
    return (line is not None and line.defender == "force"
            and holder.location != attacker.location
            and state.map.distance(holder.location, attacker.location) <= move_range(state, holder.owner)
            and holder.status.get("fortify_turn") != state.current_turn)


@register("fortification-program", "after_defend")
def _fort_used(state: WwnState, attacker: Asset, defender: Asset, success: bool,
               events: list[Event]) -> None:
    if defender.location != attacker.location:
        defender.status["fortify_turn"] = state.current_turn
        log(state, defender, "defends-from-afar", events, location=attacker.location)


# ------------------------------------------------------------------ Siege Experts
@register("siege-experts", "after_attack")
def _siege_plunder(state: WwnState, attacker: Asset, defender: Asset, success: bool,
                   events: list[Event]) -> None:
    victim = state.factions[defender.owner]
    if not success or not victim.alive:
        return
    roll = Dice.parse("1d4").roll(state.rng)
    taken = min(roll.total, victim.treasure)
    victim.treasure -= taken
    state.factions[attacker.owner].treasure += taken
    log(state, attacker, "plunder", events, target_faction=victim.id, roll=list(roll.dice),
        treasure=taken)


# ------------------------------------------------------------------ Temple Fanatics
def _zeal(state: WwnState, fanatics: Asset, events: list[Event]) -> None:
    if fanatics.id not in state.assets:
        return
    roll = Dice.parse("1d4").roll(state.rng)
    log(state, fanatics, "zeal", events, roll=list(roll.dice))
    damage_asset(state, fanatics, roll.total, None, events, "zeal",
                 {"expr": roll.expr, "dice": list(roll.dice), "total": roll.total})


@register("temple-fanatics", "after_attack")
def _fanatics_attack(state: WwnState, attacker: Asset, defender: Asset, success: bool,
                     events: list[Event]) -> None:
    if success:
        _zeal(state, attacker, events)


@register("temple-fanatics", "after_defend")
def _fanatics_defend(state: WwnState, attacker: Asset, defender: Asset, success: bool,
                     events: list[Event]) -> None:
    _zeal(state, defender, events)


# ------------------------------------------------------------------ Demonic Slayer
ENTERS_STEALTHED.add("demonic-slayer")


# ------------------------------------------------------------------ Invincible Legion
@register("invincible-legion", "allow_entry")
def _legion_entry(state: WwnState, asset: Asset, location: str, holder: Asset) -> bool:
    return asset.id == holder.id


# ------------------------------------------------------------------ Vanguard Unit
@register("vanguard-unit", "move_options")
def _vanguard_options(state: WwnState, holder: Asset) -> list[str]:
    if not can_leave(state, holder):
        return []
    here = holder.location
    return [loc for loc in state.map.within(here, move_range(state, holder.owner)) if loc != here]


@register("vanguard-unit", "move_use")
def _vanguard_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    abilities.on_act(state, holder, events)  # defined after the ability modules load
    done = state.ctx.get("done", [])
    group = [a.id for a in state.assets_at(holder.location)
             if a.id != holder.id and not a.is_base and a.id not in done
             and allied(state, holder.owner, a.owner) and seen_by(holder.owner, a)
             and can_leave(state, a)]
    flow.call(state, "vanguard-pick",
              {"vanguard": holder.id, "dest": option, "left": group, "taken": []}, events)


@flow.step("vanguard-pick")
def _vanguard_pick(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    args = dict(args)
    choice = args.pop("choice", None)
    if choice is not None:
        unit = args["left"].pop(0)
        if choice != "decline":
            args["taken"] = [*args["taken"], unit]
    holder = state.assets.get(args["vanguard"])
    if holder is None:
        return
    if args["left"]:
        flow.ask(state, holder.owner,
                 [UseAbility(holder.id, f"take-{args['left'][0]}"), Decline()], "vanguard-pick", args)
        return

    dest = args["dest"]
    log(state, holder, "vanguard-advance", events, to=dest, group=list(args["taken"]))
    for aid in [holder.id, *args["taken"]]:
        asset = state.assets.get(aid)
        if asset is None:
            continue
        move(state, asset, dest, events)
        if forbids(state, dest, asset):
            asset.status["may_stay"] = dest
        if "done" in state.ctx and aid not in state.ctx["done"]:
            state.ctx["done"].append(aid)
        if flow.asking(state):  # a reaction to the move paused the chain: the rest stay put
            break


# ------------------------------------------------------------------ War Fleet
@register("war-fleet", "can_attack")
def _fleet_can_attack(state: WwnState, asset: Asset) -> bool:
    return state.map.locations[asset.location].coastal


@register("war-fleet", "free_options")
def _fleet_options(state: WwnState, holder: Asset) -> list[str]:
    return [loc for loc in destinations(state, holder) if state.map.locations[loc].coastal]


@register("war-fleet", "free_use")
def _fleet_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    log(state, holder, "sails", events, to=option)
    move(state, holder, option, events)


# ------------------------------------------------------------------ Magical Logistics
@register("magical-logistics", "free_options")
def _logistics_options(state: WwnState, holder: Asset) -> list[str]:
    return [a.id for a in state.assets.values()
            if a.attribute == "force" and a.damaged and allied(state, holder.owner, a.owner)
            and seen_by(holder.owner, a)]


@register("magical-logistics", "free_use")
def _logistics_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    target = state.assets[option]
    healed = min(2, target.max_hp - target.hp)
    target.hp += healed
    log(state, holder, "repair", events, asset=target.id, healed=healed, hp=target.hp)


# ------------------------------------------------------------------ Military Roads
register("military-roads", "free_options")(road_moves)


@register("military-roads", "free_use")
def _roads_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    paid_move(state, holder, option, "road-march", events)


# ------------------------------------------------------------------ Military Transport
@register("military-transport", "free_options")
def _transport_options(state: WwnState, holder: Asset) -> list[str]:
    here, reach = holder.location, move_range(state, holder.owner)
    out: list[str] = []
    for a in state.assets.values():
        if a.id == holder.id or a.is_base or not allied(state, holder.owner, a.owner) \
                or not seen_by(holder.owner, a) or not can_leave(state, a):
            continue
        if a.location == here:
            out.extend(f"{a.id}->{d}" for d in state.map.within(here, reach) if may_enter(state, a, d))
        elif state.map.distance(a.location, here) <= reach and may_enter(state, a, here):
            out.append(f"{a.id}->{here}")
    return out


@register("military-transport", "free_use")
def _transport_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    aid, dest = split_move(option)
    log(state, holder, "transport", events, asset=aid, to=dest)
    move(state, state.assets[aid], dest, events)
