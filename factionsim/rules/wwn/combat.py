"""Damage, destruction, faction collapse, and the resolution of one Attack (6.6.0).

An attacking asset makes the attribute check of its attack line against the defending faction.
On a success the defending asset takes the attack's damage dice; on a failure the attacker takes
the defender's counterattack dice, if it has any. Damage to a Base of Influence is also dealt to
the owning faction's HP, without overflow. An asset at 0 HP is destroyed; a faction at 0 HP
collapses and all its assets are removed.

Every attack that reaches its outcome ends in :func:`finish_attack`, which runs the attacking
asset's after-attack ability and the defending asset's after-defend ability whether or not they
are still in play and whether or not the hit was negated; each ability decides what it does then
(the table is in ``docs/rules-wwn.md``, "The attack chain").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from factionsim.core.dice import Dice, Roll
from factionsim.core.game import Event

from . import abilities, flow, goals, relations
from .actions import Decline
from .checks import CheckResult, start_check

if TYPE_CHECKING:
    from .model import Asset
    from .state import WwnState


def damage_asset(state: WwnState, asset: Asset, amount: int, source: str | None,
                 events: list[Event], cause: str, roll: dict[str, Any] | None = None) -> int:
    """Deal ``amount`` damage to ``asset`` (``source`` = the faction responsible, or None).

    Returns the damage actually taken (never more than the HP it had). Handles destruction,
    damage to the owner's HP for Bases, and collapse.
    """
    dealt = min(amount, asset.hp)
    asset.hp -= dealt
    owner = state.factions[asset.owner]
    data = {"asset": asset.id, "owner": owner.id, "damage": dealt, "cause": cause,
            "hp_left": asset.hp}
    if roll is not None:
        data["roll"] = roll
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
    abilities.left_play(state, asset, events)
    state.assets.pop(asset.id, None)
    owner = state.factions[asset.owner]
    if asset.is_base and asset.location == owner.headquarters:
        owner.headquarters_lost = True  # it is gone for good: loading never rebuilds it
    events.append(Event(state.current_turn, "destroyed", source,
                        {"asset": asset.id, "owner": asset.owner, "location": asset.location,
                         "cause": cause}))
    if source is not None and state.hostile(source, asset.owner):
        goals.on_destroyed(state, source, asset)


def remove_asset(state: WwnState, asset: Asset, events: list[Event], reason: str) -> None:
    """Take an asset out of play for a non-combat reason (sold, unpaid, lost)."""
    abilities.left_play(state, asset, events)
    state.assets.pop(asset.id, None)
    events.append(Event(state.current_turn, "asset-lost", asset.owner,
                        {"asset": asset.id, "location": asset.location, "reason": reason}))


def collapse(state: WwnState, faction_id: str, source: str | None, events: list[Event]) -> None:
    """A faction at 0 HP collapses: it is out of the game and all its assets are removed."""
    f = state.factions[faction_id]
    f.alive = False
    f.hp = 0
    lost = [a.id for a in state.assets_of(faction_id)]
    for aid in lost:
        del state.assets[aid]
    events.append(Event(state.current_turn, "collapse", faction_id,
                        {"by": source, "assets_lost": lost}))
    if source is not None and state.hostile(source, faction_id):
        goals.on_collapse(state, source, faction_id)


def begin_attack(state: WwnState, attacker: Asset, events: list[Event],
                 target: str | None = None) -> None:
    """``attacker`` attacks: with the Attack action, or with an ability whose text calls its roll
    an attack (Cryptomancers, Informers, Vigilant Agents). It acts (qualities held "until it acts"
    lapse) and a Stealthed attacker loses its Stealth: 6.3.0, Stealth is lost "when the Stealthed
    Asset Attacks something". The one rule for every asset that attacks. ``target``: the
    faction attacked, whose relation to the attacker may change (house rule
    ``relations_change``, :mod:`.relations`)."""
    abilities.on_act(state, attacker, events)
    if attacker.stealth:
        attacker.stealth = False
        events.append(Event(state.current_turn, "revealed", attacker.owner,
                             {"asset": attacker.id, "reason": "attacked"}))
    if target is not None:
        relations.on_attack(state, attacker.owner, target, events)


def start_attack(state: WwnState, attacker: Asset, defender: Asset, events: list[Event],
                 cause: str = "attack") -> None:
    """Begin one asset's attack on another; the chain may pause for reactions (rerolls, Useful
    Idiots, Healers...). Run it with :func:`flow.run` so the game returns to the calling phase."""
    line = attacker.kind.attack
    begin_attack(state, attacker, events, defender.owner)
    start_check(
        state, attacker.owner, line.attacker, defender.owner, line.defender, "attack-outcome",
        {"attacker": attacker.id, "defender": defender.id, "cause": cause}, events,
        **attack_check_options(state, attacker, defender),
    )


def attack_check_options(state: WwnState, attacker: Asset, defender: Asset) -> dict[str, Any]:
    """The options of the attribute check of ``attacker``'s attack on ``defender``: the assets
    (Antimagical) and the extra dice abilities give each side."""
    return {"attacking_asset": attacker, "defending_asset": defender,
            "extra_attacker_dice": abilities.extra_attack_dice(state, attacker),
            "extra_defender_dice": abilities.extra_defense_dice(state, defender, attacker.kind.attack)}


def resolve_attack(state: WwnState, attacker: Asset, defender: Asset, events: list[Event],
                   cause: str = "attack") -> None:
    """An attack from start to end as one chain (returns to the current phase when done)."""
    flow.run(state, start_attack, state, attacker, defender, events, cause)


@flow.step("attack-outcome")
def _attack_outcome(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    attacker = state.assets.get(args["attacker"])
    defender = state.assets.get(args["defender"])
    if attacker is None or defender is None:  # a reaction to the check took one out of play:
        return                                # the attack has no outcome
    check = CheckResult.from_state(args["check"])
    events.append(Event(state.current_turn, args["cause"], attacker.owner, {
        "attacker": attacker.id, "defender": defender.id, "location": attacker.location,
        "target_faction": defender.owner, **check.to_dict()}))
    if check.success:
        negate = abilities.negate_options(state, attacker, defender)
        if negate:
            faction, options = negate
            flow.ask(state, faction, [*options, Decline()], "attack-negate", args)
            return
        _hit(state, args, events)
    elif defender.kind.counter and abilities.counter_allowed(state, attacker, defender):
        roll = Dice.parse(defender.kind.counter).roll(state.rng)
        _offer_damage_reroll(state, {**args, "roll": _roll(roll), "roller": defender.owner,
                                     "target": attacker.id, "then": "attack-counter"}, events)
    else:
        finish_attack(state, attacker, defender, False, events)


@flow.step("attack-negate")
def _attack_negate(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    if args["choice"] == "decline":
        _hit(state, args, events)
        return
    attacker, defender = state.assets[args["attacker"]], state.assets[args["defender"]]
    abilities.negate_use(state, args, events)
    finish_attack(state, attacker, defender, False, events)  # negated: not a successful attack


def _hit(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    attacker, defender = state.assets[args["attacker"]], state.assets[args["defender"]]
    if abilities.special_hit(state, attacker, defender, events):
        finish_attack(state, attacker, defender, True, events)
        return
    roll = Dice.parse(attacker.kind.attack.damage).roll(state.rng)
    _offer_damage_reroll(state, {**args, "roll": _roll(roll), "roller": attacker.owner,
                                 "target": defender.id, "then": "attack-hit"}, events)


def _offer_damage_reroll(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    """A damage roll was made: a faction able to force its reroll (Mindbenders) decides first,
    then the chain goes on at ``args["then"]`` with ``args["roll"]``."""
    target = state.assets.get(args["target"])
    offer = None if target is None else abilities.damage_reroll_options(
        state, args["roller"], target, args.get("damage_declined", []))
    if offer:
        faction, options = offer
        flow.ask(state, faction, [*options, Decline()], "damage-reroll", {**args, "asked": faction})
    else:
        flow.call(state, args["then"], args, events)


@flow.step("damage-reroll")
def _damage_reroll(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    args = dict(args)
    choice, asked = args.pop("choice"), args.pop("asked")
    if choice == "decline":
        args["damage_declined"] = [*args.get("damage_declined", []), asked]
    else:
        args["roll"] = abilities.damage_reroll_use(state, args["roll"], choice, events)
    _offer_damage_reroll(state, args, events)


@flow.step("attack-hit")
def _attack_hit(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    """The attack's damage roll is final: immunity, a last chance to save the asset, damage."""
    attacker, defender = state.assets.get(args["attacker"]), state.assets.get(args["defender"])
    if attacker is None or defender is None:
        return
    total = args["roll"]["total"]
    if not abilities.damage_allowed(state, attacker, defender):
        events.append(Event(state.current_turn, "immune", defender.owner,
                            {"asset": defender.id, "attacker": attacker.id, "roll": args["roll"]}))
    elif total >= defender.hp and not defender.is_base and \
            (save := abilities.save_options(state, attacker, defender)):
        # the blow would destroy it: first let factions with a way to save it decide
        dealt = defender.hp
        defender.hp = 0
        events.append(Event(state.current_turn, "damage", attacker.owner, {
            "asset": defender.id, "owner": defender.owner, "damage": dealt, "cause": args["cause"],
            "hp_left": 0, "roll": args["roll"]}))
        if state.hostile(attacker.owner, defender.owner):
            goals.on_damage(state, attacker.owner, dealt)
        faction, options = save
        flow.ask(state, faction, [*options, Decline()], "attack-save", {**args, "asked": faction})
        return
    else:
        damage_asset(state, defender, total, attacker.owner, events, args["cause"], args["roll"])
    finish_attack(state, attacker, defender, True, events)


@flow.step("attack-save")
def _attack_save(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    attacker, defender = state.assets.get(args["attacker"]), state.assets[args["defender"]]
    if args["choice"] == "decline" and attacker is not None:  # another faction may still save it
        declined = [*args.get("save_declined", []), args.get("asked")]
        save = abilities.save_options(state, attacker, defender, declined)
        if save:
            faction, options = save
            flow.ask(state, faction, [*options, Decline()], "attack-save",
                     {**args, "asked": faction, "save_declined": declined})
            return
    if args["choice"] == "decline" or not abilities.save_use(state, args, events):
        destroy_asset(state, defender, attacker.owner if attacker else None, events, args["cause"])
    if attacker is not None:
        finish_attack(state, attacker, defender, True, events)


@flow.step("attack-counter")
def _attack_counter(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    """The failed attack's counterattack roll is final: the attacker takes it."""
    attacker, defender = state.assets.get(args["attacker"]), state.assets.get(args["defender"])
    if attacker is None or defender is None:
        return
    if abilities.damage_allowed(state, defender, attacker):
        damage_asset(state, attacker, args["roll"]["total"], defender.owner, events,
                     "counterattack", args["roll"])
    else:
        events.append(Event(state.current_turn, "immune", attacker.owner,
                            {"asset": attacker.id, "attacker": defender.id, "roll": args["roll"]}))
    finish_attack(state, attacker, defender, False, events)


def finish_attack(state: WwnState, attacker: Asset, defender: Asset, success: bool,
                  events: list[Event]) -> None:
    """The end of an attack that reached its outcome: ``after_attack`` (the attacker's type) and
    ``after_defend`` (the defender's), always, even when one of them has left play (the
    counterattack destroyed the attacker, the hit destroyed the defender) or the hit was negated.
    ``success`` is False for a failed or negated attack; each ability decides what it does when
    its asset is gone (docs/rules-wwn.md, "The attack chain")."""
    abilities.after_attack(state, attacker, defender, success, events)
    abilities.after_defend(state, attacker, defender, success, events)


def _roll(roll: Roll) -> dict[str, Any]:
    return {"expr": roll.expr, "dice": list(roll.dice), "total": roll.total}
