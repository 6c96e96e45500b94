"""Treasure: income, upkeep, buying, selling and repairing (6.2.0, 6.6.0, 6.5.0 tags).

Upkeep: a faction owning more assets of an attribute than its rating pays 1 Treasure per excess
asset at the start of its turn; what it cannot pay for is lost, newest assets first (our choice:
the text does not say which). Bases of Influence count toward no limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from factionsim.core.game import Event

from . import abilities
from .combat import remove_asset
from .data import ATTRIBUTES, AssetType, ceil_div, income

if TYPE_CHECKING:
    from .model import Asset, Faction
    from .state import WwnState

INNOVATIVE_BONUS = 2
INNOVATIVE_MAX_OVERCOMPLEX = 2
POPULIST_MAX_COST = 5


def income_and_upkeep(state: WwnState, f: Faction, events: list[Event]) -> None:
    earned = income(f.force, f.wealth, f.cunning)
    f.treasure += earned
    events.append(Event(state.current_turn, "income", f.id,
                        {"amount": earned, "treasure": f.treasure}))
    abilities.run_income(state, f.id, events)
    abilities.run_upkeep(state, f.id, events)
    by_attribute: dict[str, list[Asset]] | None = None
    for attr in ATTRIBUTES:
        if by_attribute is None:  # (again after a loss: a removal may take other assets along)
            by_attribute = owned_by_attribute(state, f.id)
        own = by_attribute[attr]
        excess = len(own) - f.rating(attr)
        if excess <= 0:
            continue
        paid = min(excess, f.treasure)
        f.treasure -= paid
        lost = own[len(own) - (excess - paid):] if excess > paid else []
        events.append(Event(state.current_turn, "upkeep", f.id, {
            "attribute": attr, "excess": excess, "paid": paid,
            "lost": [a.id for a in lost], "treasure": f.treasure}))
        for a in lost:
            remove_asset(state, a, events, "excess upkeep unpaid")
        if lost:
            by_attribute = None


def owned_by_attribute(state: WwnState, faction: str) -> dict[str, list[Asset]]:
    """``faction``'s assets other than Bases by attribute (every attribute a key), in asset
    order: the lists upkeep counts. Kept in ``state.upkeep_cache`` with the tuple of the
    faction's assets they came from (``state.assets_of``: the same object until an asset enters
    or leaves play or changes hands), so a faction whose assets did not change since its last
    turn is not sorted again; an asset's type (its attribute) never changes. Do not change
    the lists."""
    owned = state.assets_of(faction)
    kept = state.upkeep_cache.get(faction)
    if kept is not None and kept[0] is owned:
        return kept[1]
    by_attribute: dict[str, list[Asset]] = {x: [] for x in ATTRIBUTES}
    for a in owned:
        if not a.is_base:
            by_attribute[a.attribute].append(a)
    state.upkeep_cache[faction] = (owned, by_attribute)
    return by_attribute


def overcomplex(f: Faction, kind: AssetType) -> bool:
    """An asset the faction could only buy thanks to Innovative."""
    return kind.rating > f.rating(kind.attribute)


def purchase_cost(state: WwnState, f: Faction, kind: AssetType, location: str) -> int:
    """What ``f`` pays for ``kind`` at ``location``, at least 0: its cost (Populist: 1 less for
    a cost of at most 5, never below 1), plus the ``cost_modifier`` hooks of the assets in play
    (state, faction, type_id, location, holder) -> int (Cooperative Businesses...), then the
    discounts earned this turn: ``discount`` hook (state, faction, type_id, location, running)
    -> int, called once per registered type whether or not such an asset is still in play,
    ``running`` being the modifier so far (Merchant Prince, Usurers)."""
    return _pricer(state, f, location)(kind)


def _pricer(state: WwnState, f: Faction, location: str) -> Callable[[AssetType], int]:
    """``price(kind)``: :func:`purchase_cost` of ``kind`` for ``f`` at ``location``, with what
    does not depend on the type looked up once (the Populist tag, the assets with a
    ``cost_modifier`` hook, the ``discount`` hooks), for a question asked of every type: the
    same hooks called with the same arguments in the same order."""
    populist = f.has_tag("populist")
    holders = abilities.cost_modifier_holders(state)
    discounts = tuple(state.hooks["discount"].values())
    fid = f.id

    def price(kind: AssetType) -> int:
        cost = kind.cost
        if populist and cost <= POPULIST_MAX_COST:
            cost = max(1, cost - 1)
        type_id = kind.id
        total = sum(fn(state, fid, type_id, location, holder) for holder, fn in holders) \
            if holders else 0
        for fn in discounts:
            total += fn(state, fid, type_id, location, total)
        return max(0, cost + total)

    return price


def buyable(state: WwnState, f: Faction, location: str) -> Iterator[str]:
    """Asset ids ``f`` may create at its Base in ``location`` now."""
    for kind, cost in creatable(state, f, location):
        if cost <= f.treasure:
            yield kind.id


def creatable(state: WwnState, f: Faction, location: str) -> Iterator[tuple[AssetType, int]]:
    """``(type, cost)`` of every asset type ``f``'s ratings, tags, Magic and holdings let it
    create at its Base in ``location``, whatever its Treasure: what :func:`buyable` offers once
    the cost is in hand (the cost is :func:`purchase_cost`'s, its hooks called as that one's)."""
    bonus = INNOVATIVE_BONUS if f.has_tag("innovative") else 0
    owned = {attr: 0 for attr in ATTRIBUTES}
    n_overcomplex = 0
    for a in state.assets_of(f.id):
        if not a.is_base:
            owned[a.attribute] += 1
            n_overcomplex += overcomplex(f, a.kind)
    magic = f.magic_level + abilities.magic_boost(state, f.id, location)
    ratings = {attr: f.rating(attr) for attr in ATTRIBUTES}
    no_more_overcomplex = n_overcomplex >= INNOVATIVE_MAX_OVERCOMPLEX
    price = _pricer(state, f, location)
    for kind in state.asset_types.values():
        if kind.is_base:
            continue
        rating = ratings[kind.attribute]
        if kind.rating > rating + bonus or owned[kind.attribute] >= rating:
            continue
        if no_more_overcomplex and overcomplex(f, kind):
            continue
        if kind.magic_level > magic:
            continue
        yield kind, price(kind)


def create_asset(state: WwnState, f: Faction, type_id: str, location: str,
                 events: list[Event]) -> Asset:
    kind = state.asset_types[type_id]
    cost = purchase_cost(state, f, kind, location)
    f.treasure -= cost
    stealth = (f.has_tag("concealed") or type_id in abilities.ENTERS_STEALTHED
               or "stealth" in kind.qualities)
    asset = state.new_asset(type_id, f.id, location, stealth=stealth)
    events.append(Event(state.current_turn, "create", f.id, {
        "asset": asset.id, "location": location, "cost": cost, "stealth": asset.stealth}))
    abilities.on_purchase(state, asset, cost, events)
    return asset


def sellable(state: WwnState, asset: Asset) -> bool:
    return not asset.is_base and asset.type not in abilities.UNSELLABLE


def sell_asset(state: WwnState, f: Faction, asset: Asset, events: list[Event]) -> None:
    """Half the purchase cost, rounded down; nothing for a damaged asset."""
    gain = 0 if asset.damaged else asset.kind.cost // 2
    f.treasure += gain
    events.append(Event(state.current_turn, "sell", f.id,
                        {"asset": asset.id, "gain": gain, "damaged": asset.damaged}))
    abilities.left_play(state, asset, events)
    state.assets.pop(asset.id)


def repair_amount(f: Faction, asset: Asset) -> int:
    """Half the relevant rating, rounded up. A Base uses the faction's highest rating (our
    reading: a Base belongs to no attribute)."""
    rating = max(f.ratings) if asset.is_base else f.rating(asset.attribute)
    return ceil_div(rating, 2)


def repair_asset(state: WwnState, f: Faction, asset: Asset, events: list[Event]) -> None:
    fixes = state.ctx.setdefault("fixes", {})
    cost = fixes.get(asset.id, 0) + 1
    fixes[asset.id] = cost
    f.treasure -= cost
    healed = min(repair_amount(f, asset), asset.max_hp - asset.hp)
    asset.hp += healed
    events.append(Event(state.current_turn, "repair", f.id,
                        {"asset": asset.id, "cost": cost, "healed": healed, "hp": asset.hp}))


def faction_heal_amount(f: Faction) -> int:
    """(highest + lowest of Force, Wealth, Cunning) / 2, rounded up."""
    return ceil_div(max(f.ratings) + min(f.ratings), 2)


def repair_faction(state: WwnState, f: Faction, events: list[Event]) -> None:
    f.treasure -= 1
    healed = min(faction_heal_amount(f), f.max_hp - f.hp)
    f.hp += healed
    events.append(Event(state.current_turn, "repair-faction", f.id,
                        {"cost": 1, "healed": healed, "hp": f.hp}))
