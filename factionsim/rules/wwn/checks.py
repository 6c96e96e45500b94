"""Attribute checks (6.4.0) with the faction tags that change them (6.5.0).

Each side rolls 1d10 + its rating; the attacker wins only on a strictly higher total. Extra dice
(Machiavellian, Martial, Rich, some assets) mean rolling several d10 and keeping the highest.
Antimagical: an asset that needs Medium or better Magic rolls its whole check twice against an
Antimagical faction during an Attack and keeps the worse result. Massive: a Massive side whose
rating is more than twice the other side's wins automatically, unless both are Massive.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from . import abilities, flow
from .actions import Decline
from .data import MAGIC_LEVELS

if TYPE_CHECKING:
    from .model import Asset, Faction
    from .state import WwnState

#: The tag that grants an extra die on checks of each attribute.
EXTRA_DIE_TAG = {"cunning": "machiavellian", "force": "martial", "wealth": "rich"}
_MEDIUM = MAGIC_LEVELS.index("medium")


@dataclass(slots=True)
class Side:
    """One side of a check: who rolls, with which rating, how many dice, and the outcome."""

    faction: str
    attribute: str
    rating: int
    dice: int = 1
    twice_worst: bool = False
    rolls: list[int] = field(default_factory=list)
    total: int = 0

    def roll(self, rng: np.random.Generator) -> None:
        self.rolls = [int(x) for x in rng.integers(1, 11, size=self.dice)]
        best = max(self.rolls)
        if self.twice_worst:
            second = [int(x) for x in rng.integers(1, 11, size=self.dice)]
            self.rolls = self.rolls + second
            best = min(best, max(second))
        self.total = best + self.rating

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"attribute": self.attribute, "rating": self.rating,
                             "roll": self.rolls, "total": self.total}
        if self.twice_worst:
            d["rolled_twice_worst"] = True
        return d

    def to_state(self) -> dict[str, Any]:
        return {"faction": self.faction, "attribute": self.attribute, "rating": self.rating,
                "dice": self.dice, "twice_worst": self.twice_worst, "rolls": list(self.rolls),
                "total": self.total}


@dataclass(slots=True)
class CheckResult:
    attacker: Side
    defender: Side
    success: bool
    automatic: str | None = None  # why the check was decided without dice (Massive)

    def to_dict(self) -> dict[str, Any]:
        """The check as the event log shows it."""
        d = {"attacker_check": self.attacker.to_dict(), "defender_check": self.defender.to_dict(),
             "success": self.success}
        if self.automatic:
            d["automatic"] = self.automatic
        return d

    def to_state(self) -> dict[str, Any]:
        """Everything needed to rebuild the check (a chain may pause on it)."""
        return {"attacker": self.attacker.to_state(), "defender": self.defender.to_state(),
                "success": self.success, "automatic": self.automatic}

    @classmethod
    def from_state(cls, d: dict[str, Any]) -> CheckResult:
        return cls(Side(**d["attacker"]), Side(**d["defender"]), d["success"], d["automatic"])

    def loser(self) -> Side:
        return self.defender if self.success else self.attacker

    def rescore(self) -> None:
        self.success = self.attacker.total > self.defender.total


def tag_dice(faction: Faction, attribute: str) -> int:
    """Dice a faction rolls for ``attribute`` checks from its tags alone (1 or 2)."""
    tag = EXTRA_DIE_TAG.get(attribute)
    return 2 if tag and faction.has_tag(tag) else 1


def _antimagic(asset: Asset | None, opponent: Faction) -> bool:
    return (asset is not None and opponent.has_tag("antimagical")
            and asset.kind.magic_level >= _MEDIUM)


def attribute_check(state: WwnState, attacker: Faction, attacker_attribute: str, defender: Faction,
                    defender_attribute: str, **options: Any) -> CheckResult:
    """Roll an attribute check. ``options`` are :func:`check_sides`'s: ``attacking_asset`` /
    ``defending_asset`` during an Attack (for Antimagical), extra dice from assets and
    abilities."""
    att, dfn, auto = check_sides(state, attacker, attacker_attribute, defender, defender_attribute,
                                 **options)
    if auto is not None:
        return CheckResult(att, dfn, auto == "attacker", f"massive {auto}")
    att.roll(state.rng)
    dfn.roll(state.rng)
    return CheckResult(att, dfn, att.total > dfn.total)


def check_sides(
    state: WwnState,
    attacker: Faction,
    attacker_attribute: str,
    defender: Faction,
    defender_attribute: str,
    *,
    attacking_asset: Asset | None = None,
    defending_asset: Asset | None = None,
    extra_attacker_dice: int = 0,
    extra_defender_dice: int = 0,
) -> tuple[Side, Side, str | None]:
    """The two sides of a check before any die is rolled (ratings, dice kept, Antimagical,
    the dice abilities add or cap) and who wins without dice (``"attacker"``/``"defender"``
    by Massive, else ``None``): what :func:`attribute_check` rolls, and what the odds of a
    check are worked out from (:mod:`.odds`)."""
    att = Side(attacker.id, attacker_attribute, attacker.rating(attacker_attribute),
               tag_dice(attacker, attacker_attribute) + extra_attacker_dice,
               _antimagic(attacking_asset, defender))
    dfn = Side(defender.id, defender_attribute, defender.rating(defender_attribute),
               tag_dice(defender, defender_attribute) + extra_defender_dice,
               _antimagic(defending_asset, attacker))

    in_play = attacking_asset or defending_asset
    abilities.adjust_check_dice(state, att, dfn, in_play.location if in_play else None)
    return att, dfn, massive_winner(attacker, att.rating, defender, dfn.rating)


def massive_winner(attacker: Faction, att_rating: int, defender: Faction, def_rating: int) -> str | None:
    """``"attacker"``/``"defender"`` when the Massive tag decides the check, else ``None``."""
    a_massive, d_massive = attacker.has_tag("massive"), defender.has_tag("massive")
    if a_massive and d_massive:
        return None
    if a_massive and att_rating > 2 * def_rating:
        return "attacker"
    if d_massive and def_rating > 2 * att_rating:
        return "defender"
    return None


def start_check(state: WwnState, attacker: str, attacker_attribute: str, defender: str,
                defender_attribute: str, then: str, args: dict[str, Any], events: list,
                **options: Any) -> None:
    """Roll a check, let the factions use their rerolls (decisions), then continue at step
    ``then`` with ``args["check"]`` holding the final result (see :mod:`flow`)."""
    check = attribute_check(state, state.factions[attacker], attacker_attribute,
                            state.factions[defender], defender_attribute, **options)
    _offer_rerolls(state, then, {**args, "check": check.to_state()}, events)


def _offer_rerolls(state: WwnState, then: str, args: dict[str, Any], events: list) -> None:
    check = CheckResult.from_state(args["check"])
    declined = args.get("declined", [])
    offer = None if check.automatic else abilities.reroll_options(state, check, declined)
    if offer:
        faction, options = offer
        flow.ask(state, faction, [*options, Decline()], "check-reroll",
                 {**args, "then": then, "asked": faction})
    else:
        args.pop("declined", None)
        flow.call(state, then, args, events)


@flow.step("check-reroll")
def _reroll(state: WwnState, args: dict[str, Any], events: list) -> None:
    args = dict(args)
    choice, then, asked = args.pop("choice"), args.pop("then"), args.pop("asked")
    if choice == "decline":
        args["declined"] = [*args.get("declined", []), asked]
    else:
        check = CheckResult.from_state(args["check"])
        abilities.reroll_use(state, check, choice, events)
        check.rescore()
        args["check"] = check.to_state()
    _offer_rerolls(state, then, args, events)
