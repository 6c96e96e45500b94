"""WWN asset types as numbers: what the env tells a policy about an asset is its stat line, never
its name, so a policy can play asset types it never saw (a campaign's own).

:func:`type_features` reads an asset type object (:class:`factionsim.rules.wwn.data.AssetType`,
or any object with the same fields) and the ability registry (which hook points its ability
uses, :data:`factionsim.rules.wwn.hooks.HOOKS`). Every value is in [0, 1]; the names, in order,
are :data:`TYPE_FEATURES`:

- ``present`` (1.0: the presence flag of a row of the env's ``asset_types`` piece);
- ``force``, ``cunning``, ``wealth``, ``base``: the asset's attribute (one-hot; ``base``: a Base
  of Influence);
- ``rating`` (/ 8), ``cost`` (Treasure, / 40), ``hp`` (max HP, / 20), ``magic`` (the Magic level
  needed to buy it, 0-3, / 3);
- the attack: ``attack`` (it can Attack), ``attack_special`` (the whole attack is its ability's),
  the attacker's and the defender's attribute (one-hot each), ``damage_dice`` (/ 4),
  ``damage_die`` (faces, / 12), ``damage_bonus`` (/ 10), ``damage_special`` (the damage is the
  ability's);
- the counterattack: ``counter``, ``counter_dice``, ``counter_die``, ``counter_bonus`` (same
  scales);
- qualities: ``subtle``, ``stealthed_on_entry`` (begins play Stealthed), ``unsellable``,
  ``ability`` (the text gives it an ability), ``upkeep`` (Treasure a turn, / 5);
- what its ability does, by the hook points it registers (:data:`ABILITY_KINDS`: one flag per
  kind, ``ability_other`` for a hook point not listed there).

Numbers beyond a scale are capped at 1. Two types with the same stat line and the same kinds of
ability encode alike.

>>> from factionsim.rules.wwn.data import ASSET_TYPES
>>> f = dict(zip(TYPE_FEATURES, type_features(ASSET_TYPES["infantry"]).tolist(), strict=True))
>>> f["force"], f["rating"], f["attacker_force"], f["damage_dice"], f["damage_die"], f["counter_die"]
(1.0, 0.375, 1.0, 0.25, 0.6666666865348816, 0.5)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from factionsim.core.dice import Dice, DiceError
from factionsim.rules.wwn.ability.wealth_movement import UPKEEP
from factionsim.rules.wwn.data import ATTRIBUTES, MAGIC_LEVELS
from factionsim.rules.wwn.hooks import ENTERS_STEALTHED, HOOK_POINTS, HOOKS, UNSELLABLE

#: Kinds of ability, each the hook points (:data:`~factionsim.rules.wwn.hooks.HOOK_POINTS`) that
#: make it; a type's flag is set when its ability registers any of them.
ABILITY_KINDS: dict[str, tuple[str, ...]] = {
    "ability_economy": ("income", "upkeep", "turn_end", "cost_modifier", "discount",
                        "discount_used", "magic_boost", "on_purchase", "profit_dice"),
    "ability_turn_start": ("turn_start",),
    "ability_free_action": ("free_options", "free_use", "free_ability"),
    "ability_attack": ("attack_options", "attack_use", "special_hit", "extra_attack_dice",
                       "can_attack", "can_target", "counter_allowed", "after_attack"),
    "ability_defense": ("extra_defense_dice", "can_defend", "extra_defenders", "negate_options",
                        "negate_use", "save_options", "save_use", "after_defend", "on_destroyed",
                        "damage_allowed", "left_play"),
    "ability_checks": ("check_dice", "expand_dice", "reroll_options", "reroll_use",
                       "damage_reroll_options", "damage_reroll_use"),
    "ability_movement": ("move_options", "move_use", "allow_entry", "hold_in_place",
                         "entry_toll", "enter_delayed", "after_move"),
}
_KIND_OF_HOOK = {hook: kind for kind, hooks in ABILITY_KINDS.items() for hook in hooks}
_ATTRIBUTE_KINDS = (*ATTRIBUTES, "base")

TYPE_FEATURES: tuple[str, ...] = (
    "present", *_ATTRIBUTE_KINDS, "rating", "cost", "hp", "magic",
    "attack", "attack_special", *(f"attacker_{a}" for a in ATTRIBUTES),
    *(f"defender_{a}" for a in ATTRIBUTES), "damage_dice", "damage_die", "damage_bonus",
    "damage_special", "counter", "counter_dice", "counter_die", "counter_bonus",
    "subtle", "stealthed_on_entry", "unsellable", "ability", "upkeep",
    *ABILITY_KINDS, "ability_other")
TYPE_WIDTH = len(TYPE_FEATURES)
_AT = {name: i for i, name in enumerate(TYPE_FEATURES)}


def _scaled(value: float, top: float) -> float:
    return min(max(value, 0.0), top) / top


def _dice(out: np.ndarray, prefix: str, text: str) -> None:
    """Write dice ``text`` (``"2d6+2"``) as count, faces and bonus at ``prefix``'s positions;
    ``"special"`` (or text that is not dice) sets ``damage_special`` instead."""
    try:
        dice = Dice.parse(text)
    except DiceError:
        if prefix == "damage":
            out[_AT["damage_special"]] = 1.0
        return
    out[_AT[f"{prefix}_dice"]] = _scaled(dice.count, 4)
    out[_AT[f"{prefix}_die"]] = _scaled(dice.sides, 12) if dice.count else 0.0
    out[_AT[f"{prefix}_bonus"]] = _scaled(dice.modifier, 10)


def ability_kinds(type_id: str, hooks: Mapping[str, Mapping[str, Any]] = HOOKS) -> list[str]:
    """The kinds of ability (:data:`ABILITY_KINDS`, ``ability_other``) type ``type_id`` has in the
    hook tables ``hooks`` (a game's ``state.hooks``: the standard ones plus its homebrew types')."""
    kinds = {_KIND_OF_HOOK.get(hook, "ability_other") for hook in HOOK_POINTS
             if type_id in hooks.get(hook, ())}
    return sorted(kinds)


def type_features(kind: Any, hooks: Mapping[str, Mapping[str, Any]] = HOOKS) -> np.ndarray:
    """The :data:`TYPE_FEATURES` of asset type ``kind`` (float32, each in [0, 1]); ``hooks``: the
    game's hook tables, where a campaign's own types register their abilities."""
    out = np.zeros(TYPE_WIDTH, np.float32)
    out[_AT["present"]] = 1.0
    attribute = kind.attribute if kind.attribute in _ATTRIBUTE_KINDS else "base"
    out[_AT[attribute]] = 1.0
    out[_AT["rating"]] = _scaled(kind.rating, 8)
    out[_AT["cost"]] = _scaled(kind.cost, 40)
    out[_AT["hp"]] = _scaled(kind.hp, 20)
    magic = kind.magic if kind.magic in MAGIC_LEVELS else "none"
    out[_AT["magic"]] = MAGIC_LEVELS.index(magic) / 3
    attack = kind.attack
    if attack is not None:
        out[_AT["attack"]] = 1.0
        if isinstance(attack, str):  # "special": the ability makes the whole attack
            out[_AT["attack_special"]] = 1.0
        else:
            for side, attr in (("attacker", attack.attacker), ("defender", attack.defender)):
                if attr in ATTRIBUTES:
                    out[_AT[f"{side}_{attr}"]] = 1.0
            _dice(out, "damage", attack.damage)
    if kind.counter is not None:
        out[_AT["counter"]] = 1.0
        _dice(out, "counter", kind.counter)
    out[_AT["subtle"]] = float(kind.subtle)
    out[_AT["stealthed_on_entry"]] = float(kind.id in ENTERS_STEALTHED
                                           or "stealth" in kind.qualities)
    out[_AT["unsellable"]] = float(kind.id in UNSELLABLE)
    out[_AT["ability"]] = float(kind.ability)
    upkeep = kind.upkeep or UPKEEP.get(kind.id, 0)  # a campaign's, or the book's
    out[_AT["upkeep"]] = _scaled(upkeep, 5)
    for name in ability_kinds(kind.id, hooks):
        out[_AT[name]] = 1.0
    return out
