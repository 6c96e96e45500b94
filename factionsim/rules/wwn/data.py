"""The WWN rule tables: asset stat lines (from ``assets.yaml``), HP and XP tables, magic levels.

>>> ASSETS["infantry"].attack.damage, ASSETS["infantry"].counter
('1d8', '1d6')
>>> max_faction_hp(force=3, wealth=5, cunning=2)
15
>>> income(force=3, wealth=5, cunning=2)
4
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from importlib import resources

import yaml

ATTRIBUTES = ("force", "cunning", "wealth")
MAGIC_LEVELS = ("none", "low", "medium", "high")
RELATIONS = ("allied", "neutral", "hostile")

#: Hit points a faction gets from each attribute rating (index = rating).
HP_FROM_RATING = (0, 1, 2, 4, 6, 9, 12, 16, 20)
#: XP needed to raise an attribute *to* this rating (index = new rating). The seed's own example
#: (6.7.0: "raise Force from 5 to 7 will cost 9 XP to raise it to 6, then 12 more") fixes the
#: step 5 -> 6 at 9 and 6 -> 7 at 12: each step costs the table value of the rating it starts
#: from (the XP column equals the HP column; rating 1's blank read as 1).
XP_TO_RAISE = (0, 0, 1, 2, 4, 6, 9, 12, 16)
#: The XP table read the other way (house rule ``xp_cost: table``): a step costs the table value
#: at the rating it reaches (5 -> 6 costs 12), as the Foundry VTT system charges.
XP_AT_NEW_RATING = (0, 0, 2, 4, 6, 9, 12, 16, 20)

BASE_OF_INFLUENCE = "base-of-influence"


@dataclass(frozen=True, slots=True)
class AttackLine:
    """An asset's attack: ``attacker`` attribute vs ``defender`` attribute, ``damage`` dice
    (``"special"`` when the ability defines the outcome)."""

    attacker: str
    defender: str
    damage: str


@dataclass(frozen=True, slots=True)
class AssetType:
    """One asset stat line. ``attack`` is ``None`` for assets that cannot Attack, ``"special"``
    when the whole attack is the ability's; ``counter`` is dice or ``None``."""

    id: str
    name: str
    attribute: str
    rating: int
    hp: int
    cost: int
    magic: str
    attack: AttackLine | str | None
    counter: str | None
    subtle: bool
    ability: bool
    #: what its ability does, in one paragraph of our own words ("" when it has none); the asset
    #: docs page, the advice and the Foundry export show it
    summary: str = ""
    #: campaign-defined types only (see :mod:`.homebrew`): Treasure paid each turn, the ability
    #: effect from the homebrew vocabulary and its parameters, qualities beyond Subtle
    upkeep: int = 0
    effect: str | None = None
    params: tuple[tuple[str, int], ...] = ()
    qualities: tuple[str, ...] = ()
    homebrew: bool = False

    def param(self, name: str) -> int:
        """A parameter of the homebrew ``effect`` (``KeyError`` when it has none by that name)."""
        return dict(self.params)[name]

    @property
    def magic_level(self) -> int:
        return MAGIC_LEVELS.index(self.magic)

    @property
    def is_base(self) -> bool:
        return self.id == BASE_OF_INFLUENCE

    @property
    def can_attack_normally(self) -> bool:
        """True when the stat line alone defines the attack (check and damage dice)."""
        return isinstance(self.attack, AttackLine) and self.attack.damage != "special"


def _load_assets() -> dict[str, AssetType]:
    text = resources.files(__package__).joinpath("assets.yaml").read_text(encoding="utf-8")
    table: dict[str, AssetType] = {}
    for row in yaml.safe_load(text):
        attack = row["attack"]
        if isinstance(attack, dict):
            att, _, dfn = attack["check"].partition(" vs ")
            attack = AttackLine(att, dfn, str(attack["damage"]))
        table[row["id"]] = AssetType(**{**row, "attack": attack})
    return table


ASSETS: dict[str, AssetType] = _load_assets()

#: The Base of Influence is not bought with Create Asset; it has no attack and no counterattack.
BASE_TYPE = AssetType(
    id=BASE_OF_INFLUENCE, name="Base of Influence", attribute="base", rating=0, hp=0, cost=0,
    magic="none", attack=None, counter=None, subtle=False, ability=False,
)
ASSET_TYPES: dict[str, AssetType] = {**ASSETS, BASE_OF_INFLUENCE: BASE_TYPE}


def max_faction_hp(force: int, wealth: int, cunning: int) -> int:
    """Maximum faction HP: the table value of each rating, summed (no constant)."""
    return HP_FROM_RATING[force] + HP_FROM_RATING[wealth] + HP_FROM_RATING[cunning]


def income(force: int, wealth: int, cunning: int) -> int:
    """Treasure earned each turn: Wealth/2 + (Force+Cunning)/4, the total rounded up."""
    return math.ceil(wealth / 2 + (force + cunning) / 4)


def ceil_div(a: int, b: int) -> int:
    """Integer division rounded up (the rules' "rounded up")."""
    return -(-a // b)
