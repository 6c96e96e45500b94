"""Damage, destruction, faction collapse, and the resolution of one Attack (6.6.0).

An attacking asset makes the attribute check of its attack line against the defending faction.
On a success the defending asset takes the attack's damage dice; on a failure the attacker takes
the defender's counterattack dice, if it has any. Damage to a Base of Influence is also dealt to
the owning faction's HP, without overflow. An asset at 0 HP is destroyed; a faction at 0 HP
collapses and all its assets are removed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from factionsim.core.dice import Dice
from factionsim.core.game import Event

from . import abilities, goals
from .checks import attribute_check

if TYPE_CHECKING:
    from .model import Asset
    from .state import WwnState


def damage_asset(state: WwnState, asset: Asset, amount: int, source: str | None,
                 events: list[Event], cause: str) -> int:
    """Deal ``amount`` damage to ``asset`` (``source`` = the faction responsible, or None).

    Returns the damage actually taken (never more than the HP it had). Handles destruction,
    damage to the owner's HP for Bases, and collapse.
    """
    dealt = min(amount, asset.hp)
    asset.hp -= dealt
    owner = state.factions[asset.owner]
    data = {"asset": asset.id, "owner": owner.id, "damage": dealt, "cause": cause,
            "hp_left": asset.hp}
    faction_loss = 0
    if asset.is_base and dealt:
        faction_loss = min(dealt, owner.hp)
        owner.hp -= faction_loss
        data["faction_damage"] = faction_loss
        data["faction_hp_left"] = owner.hp
    events.append(Event(state.current_turn, "damage", source, data))
    if source is not None and dealt and state.hostile(source, owner.id):
        goals.on_damage(state, source, dealt)
    if asset.hp <= 0:
        destroy_asset(state, asset, source, events, cause)
    if owner.alive and owner.hp <= 0:
        collapse(state, owner.id, source, events)
    return dealt


def destroy_asset(state: WwnState, asset: Asset, source: str | None, events: list[Event],
                  cause: str) -> None:
    """Remove a destroyed asset (abilities may save it first, e.g. Healers)."""
    if abilities.on_destroyed(state, asset, source, events, cause):
        return
    state.assets.pop(asset.id, None)
    events.append(Event(state.current_turn, "destroyed", source,
                        {"asset": asset.id, "owner": asset.owner, "location": asset.location,
                         "cause": cause}))
    if source is not None and state.hostile(source, asset.owner):
        goals.on_destroyed(state, source, asset)


def remove_asset(state: WwnState, asset: Asset, events: list[Event], reason: str) -> None:
    """Take an asset out of play for a non-combat reason (sold, unpaid, lost)."""
    state.assets.pop(asset.id, None)
    events.append(Event(state.current_turn, "asset-lost", asset.owner,
                        {"asset": asset.id, "location": asset.location, "reason": reason}))


def collapse(state: WwnState, faction_id: str, source: str | None, events: list[Event]) -> None:
    """A faction at 0 HP collapses: it is out of the game and all its assets are removed."""
    f = state.factions[faction_id]
    f.alive = False
    f.hp = 0
    lost = [a.id for a in state.assets.values() if a.owner == faction_id]
    for aid in lost:
        del state.assets[aid]
    events.append(Event(state.current_turn, "collapse", faction_id,
                        {"by": source, "assets_lost": lost}))
    if source is not None and state.hostile(source, faction_id):
        goals.on_collapse(state, source, faction_id)


def resolve_attack(state: WwnState, attacker: Asset, defender: Asset, events: list[Event],
                   cause: str = "attack") -> bool:
    """One asset attacks another; returns True when the attack succeeded."""
    line = attacker.kind.attack
    a_fac = state.factions[attacker.owner]
    d_fac = state.factions[defender.owner]
    if attacker.stealth:  # attacking reveals a Stealthed asset
        attacker.stealth = False
        events.append(Event(state.current_turn, "revealed", a_fac.id,
                             {"asset": attacker.id, "reason": "attacked"}))
    check = attribute_check(
        state, a_fac, line.attacker, d_fac, line.defender,
        attacking_asset=attacker, defending_asset=defender,
        extra_attacker_dice=abilities.extra_attack_dice(state, attacker),
        extra_defender_dice=abilities.extra_defense_dice(state, defender, line),
    )
    check = abilities.reroll_check(state, check, events)
    data = {"attacker": attacker.id, "defender": defender.id, "location": attacker.location,
            "target_faction": d_fac.id, **check.to_dict()}
    event = Event(state.current_turn, cause, a_fac.id, data)
    events.append(event)
    if check.success:
        roll = Dice.parse(line.damage).roll(state.rng)
        data["damage_roll"] = {"expr": roll.expr, "dice": list(roll.dice), "total": roll.total}
        if abilities.damage_allowed(state, attacker, defender):
            damage_asset(state, defender, roll.total, a_fac.id, events, cause)
    elif defender.kind.counter and abilities.damage_allowed(state, defender, attacker):
        roll = Dice.parse(defender.kind.counter).roll(state.rng)
        data["counter_roll"] = {"expr": roll.expr, "dice": list(roll.dice), "total": roll.total}
        damage_asset(state, attacker, roll.total, d_fac.id, events, "counterattack")
    abilities.after_attack(state, attacker, defender, check.success, events)
    return check.success
