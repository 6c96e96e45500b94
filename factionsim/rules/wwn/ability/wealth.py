"""Wealth asset abilities (6.10.0) that do not move assets (registered on import).

The moving Wealth assets (Caravan, Dragomans, ...) live in ``wealth_movement.py``.

Our readings where the text is silent (each also in the asset's summary):

- Profit rolls (Ancient Mechanisms): the Treasure dice of Farmers, Manufactory, Trade Company
  (its 1d6 of 1d6-1) and Ancient Workshop (its gain die) are profit rolls; the damage dice and
  Golden Prosperity's repair fund are not. Only the Mechanisms' owner's assets benefit, and two
  Mechanisms still give one reroll (roll twice, keep the better).
- Purchase discounts (Merchant Prince, Usurers) share one floor: the price after discounts is at
  least half the price before them (populist and surcharges included), rounded up. Merchant
  Prince discounts apply first, then each earmarked Usurers takes 2 off; an earmarked Usurers that
  took nothing off (the floor was reached) takes no damage. Earmarks not used this turn lapse.
- Half a purchase cost (Healers, Lead or Silver, Supply Interruption) is rounded up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from factionsim.core.dice import Dice, roll_die
from factionsim.core.game import Event

from .. import abilities, economy, flow
from ..abilities import register
from ..actions import Decline, UseAbility
from ..checks import CheckResult, start_check
from ..combat import damage_asset, remove_asset
from ..data import ceil_div
from .force import log

if TYPE_CHECKING:
    from ..model import Asset
    from ..state import WwnState

LOW = 1  # MAGIC_LEVELS.index("low")


def _self_damage(state: WwnState, asset: Asset, dice: str, events: list[Event]) -> list[int]:
    roll = Dice.parse(dice).roll(state.rng)
    damage_asset(state, asset, roll.total, None, events, asset.type,
                 {"expr": roll.expr, "dice": list(roll.dice), "total": roll.total})
    return list(roll.dice)


def _half_cost(asset: Asset) -> int:
    return ceil_div(asset.kind.cost, 2)


def _pay_half_cost(state: WwnState, args: dict[str, Any], holder: Asset) -> tuple[Asset, int] | None:
    """The holder's owner pays half the cost of the asset being saved (``args["defender"]``,
    rounded up): that asset and the price, or ``None`` when it cannot pay (nothing is paid)."""
    defender = state.assets[args["defender"]]
    f = state.factions[holder.owner]
    cost = _half_cost(defender)
    if f.treasure < cost:
        return None
    f.treasure -= cost
    return defender, cost


def _visible_targets(state: WwnState, holder: Asset) -> list[Asset]:
    """Other factions' assets in the holder's location it can see (not Stealthed), Bases excluded."""
    return [a for a in state.assets_at(holder.location)
            if a.owner != holder.owner and not a.stealth and not a.is_base]


# ======================================================================== profit rolls
@register("ancient-mechanisms", "profit_dice")
def _mechanisms(state: WwnState, asset: Asset, holder: Asset) -> int:
    return int(holder.owner == asset.owner and holder.location == asset.location
               and abilities.usable(state, holder))


def _profit_roll(state: WwnState, asset: Asset, sides: int) -> tuple[int, list[int]]:
    """One profit die for ``asset``, rolled twice keeping the better next to Ancient Mechanisms."""
    twice = any(fn(state, asset, h) for h, fn in abilities._holders(state, "profit_dice"))
    rolls = [roll_die(state.rng, sides) for _ in range(2 if twice else 1)]
    return max(rolls), rolls


def _gain(state: WwnState, asset: Asset, amount: int) -> int:
    f = state.factions[asset.owner]
    f.treasure += amount
    return f.treasure


def _offer_self(state: WwnState, asset: Asset) -> list[str]:
    return [""]


# ---------------------------------------------------------------- Farmers
register("farmers", "free_options")(_offer_self)


@register("farmers", "free_use")
def _farmers(state: WwnState, asset: Asset, option: str, events: list[Event]) -> None:
    value, rolls = _profit_roll(state, asset, 6)
    gained = 1 if value >= 5 else 0
    log(state, asset, "harvest", events, roll=rolls, gained=gained,
        treasure=_gain(state, asset, gained))


# ---------------------------------------------------------------- Manufactory
register("manufactory", "free_options")(_offer_self)


@register("manufactory", "free_use")
def _manufactory(state: WwnState, asset: Asset, option: str, events: list[Event]) -> None:
    value, rolls = _profit_roll(state, asset, 6)
    f = state.factions[asset.owner]
    if value == 1:
        if f.treasure >= 1:
            f.treasure -= 1
            log(state, asset, "loss", events, roll=rolls, lost=1, treasure=f.treasure)
        else:
            asset.status["owes"] = 1
            log(state, asset, "loss-owed", events, roll=rolls, owed=1,
                treasure=f.treasure)
        return
    gained = 2 if value == 6 else 1
    log(state, asset, "production", events, roll=rolls, gained=gained,
        treasure=_gain(state, asset, gained))


@register("manufactory", "turn_end")
def _manufactory_debt(state: WwnState, asset: Asset, events: list[Event]) -> None:
    owed = asset.status.pop("owes", 0)
    if not owed:
        return
    f = state.factions[asset.owner]
    if f.treasure >= owed:
        f.treasure -= owed
        log(state, asset, "debt-paid", events, paid=owed, treasure=f.treasure)
    else:
        log(state, asset, "debt-unpaid", events, owed=owed)
        remove_asset(state, asset, events, "manufactory loss unpaid")


# ---------------------------------------------------------------- Trade Company
register("trade-company", "free_options")(_offer_self)


@register("trade-company", "free_use")
def _trade_company(state: WwnState, asset: Asset, option: str, events: list[Event]) -> None:
    damage = _self_damage(state, asset, "1d4", events)
    value, rolls = _profit_roll(state, asset, 6)
    gained = value - 1
    log(state, asset, "venture", events, damage=damage, roll=rolls, gained=gained,
        treasure=_gain(state, asset, gained))


# ---------------------------------------------------------------- Ancient Workshop
register("ancient-workshop", "free_options")(_offer_self)


@register("ancient-workshop", "free_use")
def _workshop(state: WwnState, asset: Asset, option: str, events: list[Event]) -> None:
    damage = _self_damage(state, asset, "1d6", events)
    gained, rolls = _profit_roll(state, asset, 6)
    log(state, asset, "production", events, damage=damage, roll=rolls, gained=gained,
        treasure=_gain(state, asset, gained))


# ======================================================================== Golden Prosperity
register("golden-prosperity", "free_options")(_offer_self)


def _gp_options(state: WwnState, holder: Asset, budget: int) -> list[UseAbility]:
    f = state.factions[holder.owner]
    money = budget + f.treasure
    fixes = state.ctx.get("fixes", {})
    out = [UseAbility(holder.id, f"repair {a.id}") for a in state.assets_of(f.id)
           if a.damaged and fixes.get(a.id, 0) + 1 <= money]
    if not state.ctx.get("healed") and f.hp < f.max_hp and money >= 1:
        out.append(UseAbility(holder.id, "repair-faction"))
    return out


@register("golden-prosperity", "free_use")
def _golden(state: WwnState, asset: Asset, option: str, events: list[Event]) -> None:
    budget = roll_die(state.rng, 6)
    log(state, asset, "repair-fund", events, roll=[budget], fund=budget)
    _gp_offer(state, {"holder": asset.id, "budget": budget}, events)


def _gp_offer(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    holder = state.assets.get(args["holder"])
    options = _gp_options(state, holder, args["budget"]) if holder and args["budget"] > 0 else []
    if options:
        assert holder is not None
        flow.ask(state, holder.owner, [*options, Decline()], "golden-prosperity", args)
    elif args["budget"] > 0:
        owner = holder.owner if holder else None
        events.append(Event(state.current_turn, "ability", owner, {
            "source": args["holder"], "effect": "repair-fund-lapses", "lost": args["budget"]}))


@flow.step("golden-prosperity")
def _golden_choice(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    args = dict(args)
    choice = args.pop("choice")
    holder = state.assets[args["holder"]]
    f = state.factions[holder.owner]
    if choice == "decline":
        log(state, holder, "repair-fund-lapses", events, lost=args["budget"])
        return
    budget = args["budget"]
    option = choice.split(" ", 2)[2]  # "repair <asset id>" or "repair-faction"
    f.treasure += budget  # the fund pays first, the faction's own Treasure the rest
    before = f.treasure
    if option == "repair-faction":
        state.ctx["healed"] = True
        economy.repair_faction(state, f, events)
    else:
        economy.repair_asset(state, f, state.assets[option.split()[1]], events)
    cost = before - f.treasure
    args["budget"] = max(0, budget - cost)
    f.treasure -= args["budget"]
    _gp_offer(state, args, events)


# ======================================================================== saves
@register("healers", "save_options")
def _healers_options(state: WwnState, attacker: Asset, defender: Asset,
                     holder: Asset) -> list[UseAbility]:
    line = attacker.kind.attack
    mine = defender.owner == holder.owner or state.relation(holder.owner, defender.owner) == "allied"
    if (mine and not defender.is_base and abilities.usable(state, holder)
            and getattr(line, "attacker", None) == "force"
            and defender.location in state.map.within(holder.location, 1)
            and state.factions[holder.owner].treasure >= _half_cost(defender)):
        return [UseAbility(holder.id, "restore")]
    return []


@register("healers", "save_use")
def _healers_use(state: WwnState, args: dict[str, Any], holder: Asset, events: list[Event]) -> bool:
    paid = _pay_half_cost(state, args, holder)
    if paid is None:
        return False
    defender, cost = paid
    defender.hp = 1
    log(state, holder, "restore", events, asset=defender.id, cost=cost, hp=1,
        treasure=state.factions[holder.owner].treasure)
    return True


@register("lead-or-silver", "save_options")
def _los_options(state: WwnState, attacker: Asset, defender: Asset,
                 holder: Asset) -> list[UseAbility]:
    if (holder.id == attacker.id and not defender.is_base
            and state.hostile(holder.owner, defender.owner)
            and state.factions[holder.owner].treasure >= _half_cost(defender)):
        return [UseAbility(holder.id, "claim")]
    return []


@register("lead-or-silver", "save_use")
def _los_use(state: WwnState, args: dict[str, Any], holder: Asset, events: list[Event]) -> bool:
    paid = _pay_half_cost(state, args, holder)
    if paid is None:
        return False
    defender, cost = paid
    previous = defender.owner
    state.assets.reassign(defender, holder.owner)  # the one way to change an owner (keeps the index)
    defender.hp = 1
    defender.status.clear()
    defender.exposed = False
    log(state, holder, "claim", events, asset=defender.id, previous_owner=previous,
        cost=cost, hp=1, treasure=state.factions[holder.owner].treasure)
    return True


# ======================================================================== Front Merchant
@register("front-merchant", "after_attack")
def _front_merchant(state: WwnState, attacker: Asset, defender: Asset, success: bool,
                    events: list[Event]) -> None:
    victim = state.factions[defender.owner]
    if (not success or not state.hostile(attacker.owner, victim.id) or victim.treasure < 1
            or attacker.status.get("skim_turn") == state.current_turn):
        return
    attacker.status["skim_turn"] = state.current_turn
    victim.treasure -= 1
    log(state, attacker, "skim", events, victim=victim.id, amount=1,
        treasure=_gain(state, attacker, 1))


# ======================================================================== Monopoly
@register("monopoly", "free_options")
def _monopoly_options(state: WwnState, asset: Asset) -> list[str]:
    return [a.id for a in _visible_targets(state, asset)]


@register("monopoly", "free_use")
def _monopoly(state: WwnState, asset: Asset, option: str, events: list[Event]) -> None:
    target = state.assets[option]
    args = {"holder": asset.id, "target": target.id}
    log(state, asset, "squeeze", events, target=target.id, target_faction=target.owner)
    if state.factions[target.owner].treasure >= 1:
        flow.ask(state, target.owner, [UseAbility(asset.id, "pay"), Decline()], "monopoly", args)
    else:
        _monopoly_answer(state, {**args, "choice": "decline"}, events)


@flow.step("monopoly")
def _monopoly_answer(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    holder, target = state.assets.get(args["holder"]), state.assets.get(args["target"])
    if target is None:
        return
    victim = state.factions[target.owner]
    if args["choice"] != "decline" and victim.treasure >= 1:
        victim.treasure -= 1
        gainer = state.factions[holder.owner] if holder else None
        if gainer is not None:
            gainer.treasure += 1
        events.append(Event(state.current_turn, "ability", victim.id, {
            "source": args["holder"], "effect": "monopoly-paid", "target": target.id, "paid": 1}))
    else:
        remove_asset(state, target, events, "monopoly")


# ======================================================================== Supply Interruption
@register("supply-interruption", "free_options")
def _supply_options(state: WwnState, asset: Asset) -> list[str]:
    return [a.id for a in _visible_targets(state, asset) if "disabled_by" not in a.status]


@register("supply-interruption", "free_use")
def _supply(state: WwnState, asset: Asset, option: str, events: list[Event]) -> None:
    target = state.assets[option]
    start_check(state, asset.owner, "cunning", target.owner, "wealth", "supply-interruption-check",
                {"holder": asset.id, "target": target.id}, events, attacking_asset=asset)


@flow.step("supply-interruption-check")
def _supply_checked(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    check = CheckResult.from_state(args.pop("check"))
    target = state.assets.get(args["target"])
    events.append(Event(state.current_turn, "ability", state.assets[args["holder"]].owner, {
        "source": args["holder"], "effect": "supply-interruption", "target": args["target"],
        **check.to_dict()}))
    if not check.success or target is None:
        return
    price = _half_cost(target)
    if state.factions[target.owner].treasure >= price:
        flow.ask(state, target.owner, [UseAbility(args["holder"], "pay"), Decline()],
                 "supply-interruption-pay", {**args, "price": price})
    else:
        _supply_paid(state, {**args, "price": price, "choice": "decline"}, events)


@flow.step("supply-interruption-pay")
def _supply_paid(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    target = state.assets.get(args["target"])
    if target is None:
        return
    victim = state.factions[target.owner]
    price = args["price"]
    if args["choice"] != "decline" and victim.treasure >= price:
        victim.treasure -= price
        events.append(Event(state.current_turn, "ability", victim.id, {
            "source": args["holder"], "effect": "supply-paid", "target": target.id, "paid": price}))
    else:
        target.status["disabled_by"] = args["holder"]
        target.status["ransom"] = price
        events.append(Event(state.current_turn, "ability", victim.id, {
            "source": args["holder"], "effect": "disabled", "target": target.id, "ransom": price}))


# ======================================================================== purchases
@register("cooperative-businesses", "cost_modifier")
def _coop(state: WwnState, faction: str, type_id: str, location: str, holder: Asset) -> int:
    return int(faction != holder.owner and location == holder.location
               and abilities.usable(state, holder))


@register("arcane-laboratory", "magic_boost")
def _laboratory(state: WwnState, faction: str, location: str, holder: Asset) -> int:
    return int(faction == holder.owner and location == holder.location
               and abilities.usable(state, holder))


@register("merchant-prince", "free_options")
def _prince_options(state: WwnState, asset: Asset) -> list[str]:
    return [""] if state.base_of(asset.owner, asset.location) is not None else []


@register("merchant-prince", "free_use")
def _prince(state: WwnState, asset: Asset, option: str, events: list[Event]) -> None:
    damage = _self_damage(state, asset, "1d4", events)
    discount = roll_die(state.rng, 8)
    state.ctx.setdefault("prince_discounts", []).append(
        {"source": asset.id, "faction": asset.owner, "location": asset.location, "amount": discount})
    log(state, asset, "discount", events, damage=damage, roll=[discount],
        location=asset.location)


@register("usurers", "free_options")
def _usurers_options(state: WwnState, asset: Asset) -> list[str]:
    return [""] if any(a.is_base for a in state.assets_of(asset.owner)) else []


@register("usurers", "free_use")
def _usurers(state: WwnState, asset: Asset, option: str, events: list[Event]) -> None:
    state.ctx.setdefault("usurers", []).append(asset.id)
    log(state, asset, "earmark", events)


def _discount_plan(state: WwnState, faction: str, type_id: str, location: str,
                   running: int) -> tuple[int, list[str]]:
    """(Treasure off, the earmarked Usurers that take part) for this purchase."""
    if not state.ctx.get("prince_discounts") and not state.ctx.get("usurers"):
        return 0, []  # the usual case, checked first: it is asked for every price
    prince = sum(d["amount"] for d in state.ctx.get("prince_discounts", ())
                 if d["faction"] == faction and d["location"] == location)
    usurers = [u for u in state.ctx.get("usurers", ())
               if u in state.assets and state.assets[u].owner == faction]
    if not prince and not usurers:
        return 0, []

    price = state.asset_types[type_id].cost
    if state.factions[faction].has_tag("populist") and price <= economy.POPULIST_MAX_COST:
        price = max(1, price - 1)
    price = max(0, price + running)
    room = max(0, price - ceil_div(price, 2))
    off = min(prince, room)
    used = usurers[:ceil_div(room - off, 2)]
    return min(room, off + 2 * len(used)), used


@register("merchant-prince", "discount")
def _discount(state: WwnState, faction: str, type_id: str, location: str, running: int) -> int:
    return -_discount_plan(state, faction, type_id, location, running)[0]


@register("merchant-prince", "discount_used")
def _discount_used(state: WwnState, asset: Asset, events: list[Event]) -> None:
    running = abilities.asset_cost_modifier(state, asset.owner, asset.type, asset.location)
    off, used = _discount_plan(state, asset.owner, asset.type, asset.location, running)
    princes = [d["source"] for d in state.ctx.pop("prince_discounts", ())
               if d["faction"] == asset.owner and d["location"] == asset.location]
    state.ctx.pop("usurers", None)
    if not off:
        return
    events.append(Event(state.current_turn, "ability", asset.owner, {
        "source": [*princes, *used][0], "effect": "purchase-discount", "asset": asset.id,
        "discount": off, "merchant_princes": princes, "usurers": used}))
    for uid in used:
        _self_damage(state, state.assets[uid], "1d4", events)


# ======================================================================== attack limits
@register("occult-countermeasures", "can_target")
def _occult_target(state: WwnState, attacker: Asset, defender: Asset) -> bool:
    return defender.kind.magic_level >= LOW


@register("occult-countermeasures", "damage_allowed")
def _occult_damage(state: WwnState, source: Asset, target: Asset) -> bool:
    return source.type != "occult-countermeasures" or target.kind.magic_level >= LOW


@register("pleaders", "can_target")
def _pleaders_target(state: WwnState, attacker: Asset, defender: Asset) -> bool:
    return defender.attribute != "force"


@register("pleaders", "damage_allowed")
def _pleaders_damage(state: WwnState, source: Asset, target: Asset) -> bool:
    return source.type != "pleaders" or target.attribute != "force"
