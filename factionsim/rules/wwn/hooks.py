"""The hook points of WWN asset abilities, declared in one place, and their registration.

An ability module registers a function for a declared hook point of an asset type::

    @register("court-patronage", "income")
    def _patronage(state, asset, events): ...

:func:`register` refuses a hook point that is not in :data:`HOOK_POINTS` (at import time, so a
misspelt hook never loads), and :data:`HOOKS` has a table for each declared point only, so the
rules cannot fire an undeclared one either (``HOOKS["incom"]`` is a ``KeyError``). The rules
call the hook points through :mod:`factionsim.rules.wwn.abilities`. This module imports no other
rule module (only the asset table, :mod:`.data`, whose entries carry the abilities' summaries):
the ability modules (``ability/``) import it and the rules, never the reverse.

>>> register("infantry", "incom")
Traceback (most recent call last):
...
factionsim.rules.wwn.hooks.UnknownHookError: 'incom' is not a declared hook point (did you mean 'income'?)
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from .data import ASSETS

#: Every hook point: name -> what a registered function receives and returns, and when it runs.
#: "holder" is the asset whose ability it is; hooks "keyed by" a type run for that type only.
HOOK_POINTS: dict[str, str] = {
    # ---- the faction turn
    "income": "(state, holder, events) -> None: extra income at the start of its owner's turn",
    "upkeep": "(state, holder, events) -> None: the asset's own upkeep",
    "turn_start": "(state, holder, events) -> None: run one at a time as chains after upkeep, for "
                  "its owner's turn (Omniscient Seers, rogue mercenaries)",
    "turn_end": "(state, holder, events) -> None: at the end of its owner's turn (Manufactory)",
    "free_options": "(state, holder) -> list[str]: options of its free action this turn",
    "free_use": "(state, holder, option, events) -> None: use the free action",
    "free_ability": "(state, holder, option) -> str | None: which of the asset's free abilities "
                    "`option` uses: '' its one ability (the default), a name for a second one "
                    "usable in the same turn (Mad Genius's sacrifice), None for an ability with no "
                    "limit per turn (Transport Network, Underground Roads); see free_use_key",
    "attack_options": "(state, holder) -> list[str]: attacks made in place of an Attack "
                      "(Cryptomancers, Seditionists)",
    "attack_use": "(state, holder, option, events) -> None: make such an attack (a chain)",
    "move_options": "(state, holder) -> list[str]: extra Move Asset options (Vanguard Unit)",
    "move_use": "(state, holder, option, events) -> None: make such a move",
    # ---- checks and attacks
    "check_dice": "(state, attacker_side, defender_side, location, holder) -> None: change the "
                  "dice of any check (caps, registered in DICE_CAPS, run after additions)",
    "extra_attack_dice": "(state, attacking_asset, holder) -> int",
    "extra_defense_dice": "(state, defending_asset, attack_line, holder) -> int",
    "expand_dice": "(state, faction, location, holder) -> int: extra dice on Expand checks",
    "reroll_options": "(state, check, holder) -> list[UseAbility]: rerolls offered after any "
                      "check (Just As Planned, Mindbenders)",
    "reroll_use": "(state, check, choice, holder, events) -> None: apply a chosen reroll",
    "can_attack": "(state, asset) -> bool, keyed by the asset's type: whether it may attack "
                  "(War Fleet...)",
    "can_defend": "(state, defending_asset, attacking_asset) -> bool, keyed by the defender's type",
    "can_target": "(state, attacker, defender) -> bool, keyed by the attacker's type: which assets "
                  "it may attack at all (Occult Countermeasures, Pleaders)",
    "counter_allowed": "(state, attacker, defender) -> bool, keyed by the attacker's type",
    "extra_defenders": "(state, target_faction, attacking_asset, holder) -> bool: the holder may "
                       "meet an attack made away from its location (Fortification Program)",
    "special_hit": "(state, attacker, defender, events) -> None, keyed by the attacker's type: the "
                   "effect of a successful attack whose damage is 'special'",
    "negate_options": "(state, attacker, defender, holder) -> list[UseAbility]: negate a "
                      "successful attack (Useful Idiots)",
    "negate_use": "(state, args, holder, events) -> None",
    "damage_allowed": "(state, source_asset, target_asset) -> bool, keyed by either type",
    "damage_reroll_options": "(state, roller, target, holder) -> list[UseAbility]: force the "
                             "damage just rolled to be rerolled (Mindbenders)",
    "damage_reroll_use": "(state, roll, choice, holder, events) -> the roll kept",
    "save_options": "(state, attacker, defender, holder) -> list[UseAbility]: keep an asset an "
                    "attack destroys (Healers, Lead or Silver)",
    "save_use": "(state, args, holder, events) -> bool: False when it could not be paid",
    "after_attack": "(state, attacker, defender, success, events) -> None, keyed by the "
                    "attacker's type, after every attack it made that reached an outcome, even "
                    "when either asset has left play (success: False when it failed or was "
                    "negated)",
    "after_defend": "(state, attacker, defender, success, events) -> None, keyed by the "
                    "defender's type, after every attack it met, even when either asset has left "
                    "play (Temple Fanatics, Fortification Program)",
    "on_destroyed": "(state, asset, source, events, cause, holder) -> bool: True saves the asset "
                    "(no ability uses it yet)",
    "left_play": "(state, asset, holder, events) -> None: an asset is about to leave play "
                 "(destroyed, sold, lost); the holder is still in play (Hired Friends)",
    # ---- movement
    "allow_entry": "(state, asset, location, holder) -> bool: lets the asset into a location "
                   "whose ruler forbids it (Popular Movement, Invincible Legion)",
    "hold_in_place": "(state, asset, holder) -> bool: True keeps the asset where it is",
    "entry_toll": "(state, asset, location, holder) -> int: the most Treasure a Move Asset into "
                  "the location may cost (0: free)",
    "enter_delayed": "(state, asset, location, holder, events) -> None: pay the toll and delay "
                     "the arrival (Interrupted Logistics)",
    "after_move": "(state, moved_asset, origin, holder, events) -> None: may start checks "
                  "(Vigilant Agents); moves run as chains",
    # ---- purchases and profit
    "cost_modifier": "(state, faction, type_id, location, holder) -> int: Treasure added to (or "
                     "taken off) a purchase (Cooperative Businesses...)",
    "discount": "(state, faction, type_id, location, running) -> int: purchase discounts earned "
                "this turn, called once per registered type whether or not such an asset is "
                "still in play (Merchant Prince, Usurers)",
    "discount_used": "(state, new_asset, events) -> None: such a discount is used up",
    "magic_boost": "(state, faction, location, holder) -> int: steps added to the faction's Magic "
                   "for buying there (Arcane Laboratory, Mad Genius)",
    "on_purchase": "(state, new_asset, cost, holder, events) -> None",
    "profit_dice": "(state, rolling_asset, holder) -> int: nonzero rolls a Wealth profit die "
                   "twice, keeping the better (Ancient Mechanisms)",
}

#: hook point -> asset type -> function (one table per declared hook point, no others).
HOOKS: dict[str, dict[str, Callable[..., Any]]] = {name: {} for name in HOOK_POINTS}
#: asset type -> what its ability does (docs/assets.md): the ``summary`` of its entry in
#: ``assets.yaml``, for the types that have one.
SUMMARIES: dict[str, str] = {k: t.summary for k, t in ASSETS.items() if t.summary}
#: ``check_dice`` hooks that cap dice (Blackmail) run after those that add dice.
DICE_CAPS: set[str] = set()
#: Asset types that always begin play Stealthed.
ENTERS_STEALTHED: set[str] = set()
#: Asset types that cannot be sold or disbanded.
UNSELLABLE: set[str] = set()
#: Asset types whose ``turn_start`` hook is an ability the faction triggers (Omniscient Seers): a
#: paralysed faction does not run it (house rule ``paralysis_blocks_abilities``, the default);
#: other start-of-turn hooks are bookkeeping or consequences (Mindbenders, rogue mercenaries).
TRIGGERED_AT_TURN_START: set[str] = set()


class UnknownHookError(ValueError):
    """A hook point that :data:`HOOK_POINTS` does not declare."""


def register(asset_type: str, hook: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as ``asset_type``'s handler for hook point ``hook``."""
    table = HOOKS.get(hook)
    if table is None:
        close = difflib.get_close_matches(hook, list(HOOK_POINTS), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UnknownHookError(f"{hook!r} is not a declared hook point{hint}")

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        table[asset_type] = fn
        return fn

    return wrap


def implemented() -> set[str]:
    """Asset ids with at least one registered ability hook (or a quality set by an ability)."""
    return {t for table in HOOKS.values() for t in table} | ENTERS_STEALTHED | UNSELLABLE
