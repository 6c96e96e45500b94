"""House rules: the options a GM may set where readers of chapter 6 disagree.

A WWN campaign file may carry a ``house_rules:`` block; every option is optional and defaults to
the reading factionsim plays by (``docs/rules-wwn.md`` documents each beside the rule it changes)::

    house_rules:
      xp_cost: table                     # example (default) | table
      transport_once_per_turn: true      # false (default) | true
      paralysis_blocks_abilities: false  # true (default) | false
      relations_default: neutral         # hostile (default) | neutral
      relations_change: none             # attacks (default) | none
      max_turns: 20                      # none (default) | a whole number >= 1

- ``xp_cost``: what raising a rating by one costs. ``example``: the worked example of 6.7.0
  (5 -> 6 costs 9 XP, 6 -> 7 costs 12); ``table``: the value of the XP table at the *new* rating
  (5 -> 6 costs 12, 6 -> 7 costs 16), as the Foundry VTT system and other tools charge.
- ``transport_once_per_turn``: Transport Network and Underground Roads, whose text sets no limit,
  may be used only once per turn (``false``: as often as the faction pays 1 Treasure a move).
- ``paralysis_blocks_abilities``: a faction that abandoned its goal "may not trigger any Asset
  special abilities" in its next turn: no free abilities and no start-of-turn abilities (Omniscient
  Seers). ``false``: the paralysis costs the Faction Action only.
- ``relations_default``: the relation of two factions the campaign's ``relations`` do not list.
- ``relations_change``: **our rule, not the text's** (chapter 6 never changes a relation).
  ``attacks``: an attack makes enemies: the attacked faction, if it was not hostile to the
  attacker, becomes hostile to it, and so do the attacked faction's allies that were neutral to the
  attacker (an ally of both stays allied with both); each change is a ``relation`` event in the
  chronicle. ``none``: relations stay as the campaign sets them.
- ``max_turns``: the game ends after this many turns (the same setting as a top-level
  ``max_turns``, which older files use; WWN campaigns are saved with it here).

>>> rules = HouseRules.from_data({"xp_cost": "table"})
>>> rules.xp_to_raise(6), HouseRules().xp_to_raise(6)
(12, 9)
>>> rules.to_data()
{'xp_cost': 'table'}
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from factionsim.core.game import CampaignError

from .data import XP_AT_NEW_RATING, XP_TO_RAISE

#: option -> (the values allowed, what it changes); the defaults are the dataclass's.
OPTIONS: dict[str, tuple[tuple[Any, ...] | None, str]] = {
    "xp_cost": (("example", "table"),
                "XP to raise a rating: the worked example of 6.7.0 or the table at the new rating"),
    "transport_once_per_turn": ((False, True),
                                "Transport Network and Underground Roads once per turn"),
    "paralysis_blocks_abilities": ((True, False),
                                   "a paralysed faction triggers no asset abilities"),
    "relations_default": (("hostile", "neutral"), "the relation of unlisted pairs of factions"),
    "relations_change": (("attacks", "none"),
                         "our rule: an attack makes the attacked faction and its neutral allies "
                         "hostile to the attacker (none: relations never change)"),
    "max_turns": (None, "the game ends after this many turns (none: it never ends by turns)"),
}
BLOCK = "house_rules"


@dataclass(slots=True)
class HouseRules:
    """The campaign's house rules (see the module docstring); the defaults are our readings."""

    xp_cost: str = "example"
    transport_once_per_turn: bool = False
    paralysis_blocks_abilities: bool = True
    relations_default: str = "hostile"
    relations_change: str = "attacks"
    max_turns: int | None = None

    @classmethod
    def from_data(cls, block: Mapping[str, Any] | None, max_turns: int | None = None) -> HouseRules:
        """From a validated ``house_rules`` block; ``max_turns`` is the top-level field (used when
        the block gives none)."""
        rules = cls(**dict(block or {}))
        if rules.max_turns is None:
            rules.max_turns = max_turns
        return rules

    def to_data(self) -> dict[str, Any]:
        """The block as saved: the options that differ from their defaults, in option order."""
        default = HouseRules()
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}

    def xp_to_raise(self, new_rating: int) -> int:
        """XP that raising a rating to ``new_rating`` costs under ``xp_cost``."""
        table = XP_AT_NEW_RATING if self.xp_cost == "table" else XP_TO_RAISE
        return table[new_rating]

    def summary(self) -> str:
        """One line for the chronicle's header: every option and its value, ``*`` marking the
        ones that differ from our reading (the legend only where one does)."""
        changed = self.to_data()
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            shown = "none" if value is None else str(value).lower()
            parts.append(f"{f.name} {shown}" + ("*" if f.name in changed else ""))
        legend = " (* differs from factionsim's reading)" if changed else ""
        return "House rules: " + ", ".join(parts) + legend + "."


# ---------------------------------------------------------------------- checking a file
def validate(block: Any, checker: Any, top_max_turns: Any = None) -> dict[str, Any]:
    """Check a ``house_rules`` block (``checker``: a :class:`factionsim.core.campaign.FieldChecker`
    naming the file and lines) and return it normalized; raises :class:`CampaignError`."""
    if block is None:
        return {}

    def fail(path: tuple[Any, ...], problem: str) -> CampaignError:
        return CampaignError(f"{checker.where((BLOCK, *path))}: {problem}.")

    if not isinstance(block, dict):
        raise fail((), f"must be a mapping of house rules, not {type(block).__name__}; allowed "
                   f"options: {', '.join(OPTIONS)}")
    out: dict[str, Any] = {}
    for key, value in block.items():
        if key not in OPTIONS:
            close = difflib.get_close_matches(str(key), list(OPTIONS), n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise fail((key,), f"unknown house rule {key!r}{hint}; allowed: {', '.join(OPTIONS)}")
        allowed, _ = OPTIONS[key]
        if key == "max_turns":
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < 1):
                raise fail((key,), f"must be a whole number >= 1 or null (got {value!r})")
            if value is not None and top_max_turns is not None and top_max_turns != value:
                raise fail((key,), f"{value} disagrees with the top-level max_turns "
                           f"{top_max_turns}; give max_turns once (here)")
        elif value not in allowed or type(value) is not type(allowed[0]):
            shown = "true/false" if isinstance(allowed[0], bool) else ", ".join(allowed)
            close = difflib.get_close_matches(value, [str(a) for a in allowed], n=1, cutoff=0.5) \
                if isinstance(value, str) else []
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise fail((key,), f"unknown value {value!r}{hint}; allowed: {shown}")
        out[key] = value
    return out


def schema() -> dict[str, Any]:
    """The JSON-Schema fragment of the block (for ``factionsim schema``)."""
    default = HouseRules()
    props: dict[str, Any] = {}
    for name, (allowed, meaning) in OPTIONS.items():
        prop: dict[str, Any] = ({"enum": list(allowed)} if allowed is not None
                                else {"type": ["integer", "null"], "minimum": 1})
        props[name] = {**prop, "default": getattr(default, name), "description": meaning}
    return {"type": ["object", "null"], "additionalProperties": False, "properties": props,
            "description": "options where readers of the rules disagree; see docs/rules-wwn.md"}
