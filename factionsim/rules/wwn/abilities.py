"""Asset abilities: code registered by asset id, called by the rules at fixed hook points.

Stats live in ``assets.yaml``; only abilities that change the rules are code. An ability module
(``ability/``) registers functions for the hooks it needs (:mod:`.hooks`)::

    @register("court-patronage", "income")
    def _patronage(state, asset, events): ...

The rules call the ``run_*`` / query functions below at each hook point; with no ability
registered for the assets in play they change nothing. Which assets have a registered ability is
listed by :func:`implemented`; ``docs/assets.md`` is generated from it.

The hook points, with what each registered function receives and returns, are declared in
:data:`factionsim.rules.wwn.hooks.HOOK_POINTS`; ``register`` refuses any other name.

Options offered to a faction are ``UseAbility(asset_id, option)`` actions; the engine adds
``decline``. The faction that owns the offering asset is the one asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from factionsim.core.game import Event

from . import homebrew_tags
from .hooks import (
    DICE_CAPS,
    ENTERS_STEALTHED,
    HOOKS,
    SUMMARIES,
    TRIGGERED_AT_TURN_START,
    UNSELLABLE,
    implemented,
    register,
)

if TYPE_CHECKING:
    from factionsim.core.game import Action

    from .checks import CheckResult, Side
    from .data import AttackLine
    from .model import Asset
    from .state import WwnState

# (declared in .hooks; the ability modules import them from here too)
__all__ = ["DICE_CAPS", "ENTERS_STEALTHED", "HOOKS", "SUMMARIES", "TRIGGERED_AT_TURN_START",
           "UNSELLABLE", "implemented", "register"]


def _holders(state: WwnState, hook: str) -> list[tuple[Asset, Callable[..., Any]]]:
    """The assets in play with a ``hook`` ability, in asset order, with their functions.

    Cached per hook until the asset table changes (an asset enters or leaves play)."""
    table = state.hooks[hook]
    if not table:
        return []
    version, cache = state.holders_cache
    if version != state.assets.version:
        cache = {}
        state.holders_cache = (state.assets.version, cache)
    found = cache.get(hook)
    if found is None:
        found = cache[hook] = [(a, table[a.type]) for a in state.assets.values() if a.type in table]
    return found


def run_income(state: WwnState, faction: str, events: list[Event]) -> None:
    """Income abilities: the faction's assets', then its homebrew tags' (:mod:`.homebrew_tags`)."""
    for asset, fn in _holders(state, "income"):
        if asset.owner == faction:
            fn(state, asset, events)
    homebrew_tags.run_income(state, faction, events)


def run_upkeep(state: WwnState, faction: str, events: list[Event]) -> None:
    for asset, fn in _holders(state, "upkeep"):
        if asset.owner == faction and asset.id in state.assets:
            fn(state, asset, events)


def free_options(state: WwnState, faction: str) -> list[tuple[str, str]]:
    """(asset id, option) pairs of the free actions ``faction`` may still use this turn."""
    out: list[tuple[str, str]] = []
    for asset, fn in _holders(state, "free_options"):
        if asset.owner == faction and free_usable(state, asset):
            out.extend((asset.id, opt) for opt in fn(state, asset))
    treasure = state.factions[faction].treasure
    out.extend((a.id, PAY_RANSOM) for a in state.assets_of(faction)
               if "ransom" in a.status and a.status["ransom"] <= treasure)
    return out


#: The free action that pays an asset's ``ransom`` (see the status conventions below).
PAY_RANSOM = "pay-ransom"


def free_use(state: WwnState, asset: Asset, option: str, events: list[Event]) -> None:
    if option == PAY_RANSOM and "ransom" in asset.status:
        _pay_ransom(state, asset, events)
        return
    state.hooks["free_use"][asset.type](state, asset, option, events)


def _pay_ransom(state: WwnState, asset: Asset, events: list[Event]) -> None:
    """Pay the price that lifts a disabling (Supply Interruption); paying is not the asset's own
    free action, which stays available this turn."""
    price = asset.status.pop("ransom")
    source = asset.status.pop("disabled_by", None)
    f = state.factions[asset.owner]
    f.treasure -= price
    events.append(Event(state.current_turn, "ability", f.id, {
        "source": source or asset.id, "effect": "ransom-paid", "asset": asset.id, "paid": price,
        "treasure": f.treasure}))


def free_use_key(state: WwnState, asset: Asset, option: str) -> str | None:
    """What using free-action ``option`` of ``asset`` uses up for the turn (``state.ctx["used"]``):
    the asset's id for its one free ability, ``"<id>/<name>"`` for a second ability of its own
    (``free_ability`` hook), None when nothing is used up (paying a ransom; abilities whose text
    sets no limit per turn)."""
    if option == PAY_RANSOM:
        return None
    fn = state.hooks["free_ability"].get(asset.type)
    name = "" if fn is None else fn(state, asset, option)
    if name is None:
        return None
    return f"{asset.id}/{name}" if name else asset.id


def extra_attack_dice(state: WwnState, attacker: Asset) -> int:
    """Extra dice of an asset's attack check: abilities', and its owner's homebrew tags'."""
    return sum(fn(state, attacker, holder) for holder, fn in _holders(state, "extra_attack_dice")
               ) + homebrew_tags.extra_dice(state, attacker.owner, "attack-dice")


def extra_defense_dice(state: WwnState, defender: Asset, line: AttackLine) -> int:
    """Extra dice of an asset's defence check: abilities', and its owner's homebrew tags'."""
    return sum(fn(state, defender, line, holder)
               for holder, fn in _holders(state, "extra_defense_dice")
               ) + homebrew_tags.extra_dice(state, defender.owner, "defense-dice")


def adjust_check_dice(state: WwnState, attacker: Side, defender: Side, location: str | None) -> None:
    for holder, fn in sorted(_holders(state, "check_dice"), key=lambda h: h[0].type in DICE_CAPS):
        fn(state, attacker, defender, location, holder)


def _first_offer(state: WwnState, hook: str, *args: Any) -> tuple[str, list[Action]] | None:
    """The first (faction, options) a holder of ``hook`` offers, in asset order."""
    for holder, fn in _holders(state, hook):
        options = fn(state, *args, holder)
        if options:
            return holder.owner, options
    return None


def reroll_options(state: WwnState, check: CheckResult,
                   declined: list[str]) -> tuple[str, list[Action]] | None:
    """A faction that may reroll part of ``check`` now and its options (``reroll_options`` hook:
    (state, check, holder) -> list of UseAbility); factions in ``declined`` are not asked again."""
    for holder, fn in _holders(state, "reroll_options"):
        if holder.owner not in declined:
            options = fn(state, check, holder)
            if options:
                return holder.owner, options
    return None


def reroll_use(state: WwnState, check: CheckResult, choice: str, events: list[Event]) -> None:
    """Apply a chosen reroll (``use <asset> <option>``) to ``check`` in place."""
    asset_id = choice.split()[1]
    asset = state.assets[asset_id]
    state.hooks["reroll_use"][asset.type](state, check, choice, asset, events)


def negate_options(state: WwnState, attacker: Asset, defender: Asset) -> tuple[str, list[Action]] | None:
    """Ways to negate a successful attack before its damage (Useful Idiots)."""
    return _first_offer(state, "negate_options", attacker, defender)


def negate_use(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    asset = state.assets[args["choice"].split()[1]]
    state.hooks["negate_use"][asset.type](state, args, asset, events)


def save_options(state: WwnState, attacker: Asset, defender: Asset,
                 declined: list[str] | tuple[str, ...] = ()) -> tuple[str, list[Action]] | None:
    """Ways to keep an asset the attack is about to destroy (Healers, Lead or Silver): the
    attacking asset's own ability is asked first (it acts at 0 HP, before the asset is destroyed),
    then other holders in asset order; factions in ``declined`` are not asked again."""
    holders = sorted(_holders(state, "save_options"), key=lambda h: h[0].id != attacker.id)
    for holder, fn in holders:
        if holder.owner not in declined:
            options = fn(state, attacker, defender, holder)
            if options:
                return holder.owner, options
    return None


def save_use(state: WwnState, args: dict[str, Any], events: list[Event]) -> bool:
    """Apply a chosen save; False when it could not be paid (the asset is then destroyed)."""
    asset = state.assets[args["choice"].split()[1]]
    return bool(state.hooks["save_use"][asset.type](state, args, asset, events))


def special_hit(state: WwnState, attacker: Asset, defender: Asset, events: list[Event]) -> bool:
    """A successful attack whose effect is the ability's instead of damage dice."""
    fn = state.hooks["special_hit"].get(attacker.type)
    return fn is not None and (fn(state, attacker, defender, events) is not False)


def counter_allowed(state: WwnState, attacker: Asset, defender: Asset) -> bool:
    fn = state.hooks["counter_allowed"].get(attacker.type)
    return fn is None or fn(state, attacker, defender)


def can_defend(state: WwnState, defender: Asset, attacker: Asset) -> bool:
    """``can_defend`` keyed by the defender's type (state, defender, attacker), and ``can_target``
    keyed by the attacker's type (state, attacker, defender): assets it may attack at all."""
    fn = state.hooks["can_defend"].get(defender.type)
    target_fn = state.hooks["can_target"].get(attacker.type)
    return (fn is None or fn(state, defender, attacker)) and \
        (target_fn is None or target_fn(state, attacker, defender))


def damage_allowed(state: WwnState, source: Asset, target: Asset) -> bool:
    table = state.hooks["damage_allowed"]
    return all(fn(state, source, target) for t, fn in table.items() if t in (source.type, target.type))


def after_attack(state: WwnState, attacker: Asset, defender: Asset, success: bool,
                 events: list[Event]) -> None:
    fn = state.hooks["after_attack"].get(attacker.type)
    if fn is not None:
        fn(state, attacker, defender, success, events)


def after_defend(state: WwnState, attacker: Asset, defender: Asset, success: bool,
                 events: list[Event]) -> None:
    fn = state.hooks["after_defend"].get(defender.type)
    if fn is not None:
        fn(state, attacker, defender, success, events)


def extra_defenders(state: WwnState, target: str, attacker: Asset) -> list[Asset]:
    """Assets of ``target`` elsewhere that an ability lets meet ``attacker``'s attack."""
    return [h for h, fn in _holders(state, "extra_defenders")
            if h.owner == target and not h.stealth and usable(state, h)
            and can_defend(state, h, attacker) and fn(state, target, attacker, h)]


def on_destroyed(state: WwnState, asset: Asset, source: str | None, events: list[Event],
                 cause: str) -> bool:
    return any(fn(state, asset, source, events, cause, holder)
               for holder, fn in _holders(state, "on_destroyed"))


def expand_extra_dice(state: WwnState, faction: str, location: str) -> int:
    """Extra dice of an Expand Influence check: abilities', and the faction's homebrew tags'."""
    return sum(fn(state, faction, location, holder) for holder, fn in _holders(state, "expand_dice")
               ) + homebrew_tags.extra_dice(state, faction, "expand-dice")


# ---------------------------------------------------------------- asset status conventions
# Abilities mark assets through ``asset.status`` (saved with the campaign):
#   "disabled_by": id or reason  -> the asset cannot be used for anything (Seditionists, Supply
#                                   Interruption) until the key is removed
#   "stunned_turn": T            -> the asset can do nothing during its owner's turn T
#                                   (Cryptomancers)
#   "ransom": N (with "disabled_by") -> the owner may lift the disabling by paying N Treasure as
#                                   a free action, ``use <asset> pay-ransom`` (Supply Interruption)
#   "no_free_turn": T            -> no free-action ability during turn T (Saboteurs)
#   "pinned_by": id              -> cannot leave its location while that asset is there
#                                   (Bewitching Charmer)
#   "infested_by": id            -> cannot be used while that asset is in play, in the same
#                                   location and still has "infesting": this asset (Seditionists)
#   "arriving": location         -> a delayed entry (by any move): the asset arrives there at the
#                                   start of its owner's next turn (Interrupted Logistics)
#   "may_stay": location         -> not forbidden in that location (carried there by a Vanguard
#                                   Unit); cleared when the asset moves anywhere else


def usable(state: WwnState, asset: Asset) -> bool:
    """Whether the asset may act, attack, defend or lend its ability now."""
    st = asset.status
    if not st:
        return True
    if "disabled_by" in st:
        return False
    if st.get("stunned_turn") == state.current_turn and state.order_index < len(state.order) \
            and state.order[state.order_index] == asset.owner:
        return False
    infester = state.assets.get(st.get("infested_by", ""))
    return not (infester is not None and infester.location == asset.location
                and infester.status.get("infesting") == asset.id)


def free_usable(state: WwnState, asset: Asset) -> bool:
    return usable(state, asset) and asset.status.get("no_free_turn") != state.current_turn


def can_attack(state: WwnState, asset: Asset) -> bool:
    """``can_attack`` hook (state, asset) -> bool keyed by type (War Fleet...)."""
    fn = state.hooks["can_attack"].get(asset.type)
    return usable(state, asset) and (fn is None or fn(state, asset))


def has_special_hit(asset: Asset) -> bool:
    return asset.type in HOOKS["special_hit"]  # (homebrew types have no special hit)


def attack_options(state: WwnState, faction: str, done: list[str]) -> list[tuple[str, str]]:
    """Attacks made "in place of an Attack" by an ability (Cryptomancers, Seditionists):
    ``attack_options`` hook (state, holder) -> list[str]; ``attack_use`` (state, holder, option,
    events) runs as a chain."""
    return _in_place_options(state, "attack_options", faction, done)


def attack_use(state: WwnState, asset: Asset, option: str, events: list[Event]) -> None:
    state.hooks["attack_use"][asset.type](state, asset, option, events)


def move_options(state: WwnState, faction: str, done: list[str]) -> list[tuple[str, str]]:
    """Extra Move Asset options (Vanguard Unit moving a group): ``move_options`` hook
    (state, holder) -> list[str]; ``move_use`` (state, holder, option, events)."""
    return _in_place_options(state, "move_options", faction, done)


def _in_place_options(state: WwnState, hook: str, faction: str,
                      done: list[str]) -> list[tuple[str, str]]:
    """(holder id, option) pairs of ``hook`` (state, holder) -> list[str] over ``faction``'s
    usable assets not in ``done`` (those that already acted this Faction Action)."""
    out: list[tuple[str, str]] = []
    for holder, fn in _holders(state, hook):
        if holder.owner == faction and holder.id not in done and usable(state, holder):
            out.extend((holder.id, opt) for opt in fn(state, holder))
    return out


def move_use(state: WwnState, asset: Asset, option: str, events: list[Event]) -> None:
    state.hooks["move_use"][asset.type](state, asset, option, events)


def entry_allowed(state: WwnState, asset: Asset, location: str) -> bool:
    """An ability lets ``asset`` into ``location`` although its ruler forbids it:
    ``allow_entry`` hook (state, asset, location, holder) -> bool (Popular Movement, Invincible
    Legion)."""
    if asset.status.get("may_stay") == location:
        return True
    return any(fn(state, asset, location, holder) for holder, fn in _holders(state, "allow_entry"))


def can_leave(state: WwnState, asset: Asset) -> bool:
    """``hold_in_place`` hook (state, asset, holder) -> bool: True keeps ``asset`` where it is."""
    return usable(state, asset) and not any(
        fn(state, asset, holder) for holder, fn in _holders(state, "hold_in_place"))


def after_move(state: WwnState, asset: Asset, origin: str, events: list[Event]) -> None:
    """``after_move`` hook (state, moved_asset, origin, holder, events) — may start checks
    (Vigilant Agents); moves run as chains."""
    for holder, fn in _holders(state, "after_move"):
        if asset.id in state.assets:
            fn(state, asset, origin, holder, events)


def cost_modifier_holders(state: WwnState) -> list[tuple[Asset, Callable[..., Any]]]:
    """The assets in play with a ``cost_modifier`` hook, with their functions (see
    :func:`asset_cost_modifier`)."""
    return _holders(state, "cost_modifier")


def asset_cost_modifier(state: WwnState, faction: str, type_id: str, location: str) -> int:
    """The ``cost_modifier`` hooks of the assets in play alone."""
    holders = _holders(state, "cost_modifier")
    if not holders:  # the usual case, at every price asked
        return 0
    return sum(fn(state, faction, type_id, location, holder) for holder, fn in holders)


def magic_boost(state: WwnState, faction: str, location: str) -> int:
    """Steps added to the faction's Magic for buying in ``location``: ``magic_boost`` hook
    (state, faction, location, holder) -> int (Arcane Laboratory, Mad Genius)."""
    return sum(fn(state, faction, location, holder) for holder, fn in _holders(state, "magic_boost"))


def on_purchase(state: WwnState, asset: Asset, cost: int, events: list[Event]) -> None:
    """``on_purchase`` hook (state, new_asset, cost, holder, events) — discounts used up."""
    for holder, fn in _holders(state, "on_purchase"):
        fn(state, asset, cost, holder, events)
    for fn in state.hooks["discount_used"].values():  # (state, new_asset, events)
        fn(state, asset, events)


def turn_start_holders(state: WwnState, faction: str) -> list[str]:
    """Assets of ``faction`` with a ``turn_start`` hook (state, holder, events), run one at a
    time as chains after upkeep (Omniscient Seers, rogue mercenaries); first, assets whose
    delayed move (``status["arriving"]``) completes now."""
    arriving = [a.id for a in state.assets_of(faction) if "arriving" in a.status]
    return arriving + [h.id for h, _ in _holders(state, "turn_start")
                       if h.owner == faction and h.id not in arriving]


def turn_start(state: WwnState, asset: Asset, events: list[Event]) -> None:
    """The ``turn_start`` hook of ``asset`` (see :func:`factionsim.rules.wwn.movement.start_of_turn`,
    which first completes a delayed move). A paralysed faction triggers none of the abilities in
    :data:`TRIGGERED_AT_TURN_START` (an ``ability-blocked`` event says so)."""
    fn = state.hooks["turn_start"].get(asset.type)
    if fn is None or asset.id not in state.assets or _asking(state):
        return
    if asset.type in TRIGGERED_AT_TURN_START and paralysis_blocks(state, asset.owner):
        events.append(Event(state.current_turn, "ability-blocked", asset.owner,
                            {"source": asset.id, "reason": "paralysed"}))
        return
    fn(state, asset, events)


def paralysis_blocks(state: WwnState, faction: str) -> bool:
    """Whether ``faction`` is in the turn after abandoning a goal and may trigger no asset
    abilities in it (6.2.0; house rule ``paralysis_blocks_abilities``). True only while its own
    turn starts: the flag is cleared before its abilities step."""
    return state.house_rules.paralysis_blocks_abilities and state.factions[faction].paralysed


def _asking(state: WwnState) -> bool:
    return "ask" in state.ctx


def entry_toll(state: WwnState, asset: Asset, location: str) -> int:
    """The most Treasure a Move Asset of ``asset`` into ``location`` may cost (0: free)."""
    holders = _holders(state, "entry_toll")
    if not holders:  # the usual case, at every destination offered
        return 0
    return max(fn(state, asset, location, holder) for holder, fn in holders)


def delay_entry(state: WwnState, asset: Asset, location: str, events: list[Event]) -> bool:
    """A Move Asset into ``location`` that an ability tolls and delays: the first holder whose
    toll applies takes it (``enter_delayed`` hook); True when the move was delayed."""
    for holder, fn in _holders(state, "entry_toll"):
        if fn(state, asset, location, holder):
            state.hooks["enter_delayed"][holder.type](state, asset, location, holder, events)
            return True
    return False


def left_play(state: WwnState, asset: Asset, events: list[Event]) -> None:
    """``asset`` is about to leave play (destroyed, sold, lost): ``left_play`` hooks run."""
    for holder, fn in _holders(state, "left_play"):
        fn(state, asset, holder, events)


def turn_end(state: WwnState, faction: str, events: list[Event]) -> None:
    """``turn_end`` hook (state, holder, events) for the faction's own assets (Manufactory)."""
    for holder, fn in _holders(state, "turn_end"):
        if holder.owner == faction and holder.id in state.assets:
            fn(state, holder, events)


def on_act(state: WwnState, asset: Asset, events: list[Event]) -> None:
    """The asset acts (attacks, moves on its own, uses an ability): qualities granted "until it
    acts" (``asset.status["until_acts"]``: "stealth" and/or "subtle") end now."""
    lapsing = asset.status.pop("until_acts", None)
    if not lapsing:
        return
    for quality in lapsing:
        if quality == "stealth":
            asset.stealth = False
        else:
            asset.status.pop(quality, None)
    events.append(Event(state.current_turn, "quality-lost", asset.owner,
                        {"asset": asset.id, "qualities": list(lapsing), "reason": "acted"}))


def damage_reroll_options(state: WwnState, roller: str, target: Asset,
                          declined: list[str]) -> tuple[str, list[Action]] | None:
    """A faction that may force ``roller`` to reroll the damage it just rolled against ``target``
    (Mindbenders): ``damage_reroll_options`` hook (state, roller, target, holder) -> list of
    UseAbility; ``damage_reroll_use`` (state, roll, choice, holder, events) -> the kept roll."""
    for holder, fn in _holders(state, "damage_reroll_options"):
        if holder.owner not in declined:
            options = fn(state, roller, target, holder)
            if options:
                return holder.owner, options
    return None


def damage_reroll_use(state: WwnState, roll: dict[str, Any], choice: str,
                      events: list[Event]) -> dict[str, Any]:
    holder = state.assets[choice.split()[1]]
    return state.hooks["damage_reroll_use"][holder.type](state, roll, choice, holder, events)
