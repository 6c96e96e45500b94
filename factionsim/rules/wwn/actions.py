"""WWN decisions as small immutable values with a stable text form.

A faction turn is a sequence of decisions. Each action below is legal at one kind of decision
point; ``str(action)`` is its text form and :func:`parse_action` reads it back:

>>> str(Attack("infantry#3", "silver-guild"))
'attack infantry#3 -> silver-guild'
>>> parse_action("move infantry#3 -> vell") == Move("infantry#3", "vell")
True
>>> parse_action("goal sphere-dominance wealth")
ChooseGoal(goal='sphere-dominance', target='wealth')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from factionsim.core.game import Action, IllegalActionError

#: The seven faction actions of 6.6.0, plus passing.
ACTION_KINDS = ("attack", "move", "repair", "expand", "create", "hide", "sell", "pass")


@dataclass(frozen=True, slots=True)
class ChooseAction(Action):
    """Pick this turn's faction action (one of :data:`ACTION_KINDS`)."""

    kind: str

    def __str__(self) -> str:
        return f"action {self.kind}"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Finish the current step (stop attacking, moving, repairing, using abilities...)."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Let a reaction pass (no reroll, no sacrifice, no payment...)."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Attack ``target`` (a faction) in the attacking asset's location with ``asset``."""

    asset: str
    target: str

    def __str__(self) -> str:
        return f"attack {self.asset} -> {self.target}"


@dataclass(frozen=True, slots=True)
class Defend(Action):
    """The defending faction picks which of its assets present meets the attack."""

    asset: str

    def __str__(self) -> str:
        return f"defend with {self.asset}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    asset: str
    destination: str

    def __str__(self) -> str:
        return f"move {self.asset} -> {self.destination}"


@dataclass(frozen=True, slots=True)
class Repair(Action):
    """Repair one asset (1 Treasure, +1 for each further fix of the same asset this turn)."""

    asset: str

    def __str__(self) -> str:
        return f"repair {self.asset}"


@dataclass(frozen=True, slots=True)
class RepairFaction(Action):
    """Spend 1 Treasure to heal the faction itself (once per turn)."""

    def __str__(self) -> str:
        return "repair faction"


@dataclass(frozen=True, slots=True)
class ExpandAt(Action):
    """Plant a new Base of Influence in ``location`` (its HP is the next decision)."""

    location: str

    def __str__(self) -> str:
        return f"expand at {self.location}"


@dataclass(frozen=True, slots=True)
class BaseHp(Action):
    """Maximum HP of the new Base of Influence (costs that many Treasure)."""

    hp: int

    def __str__(self) -> str:
        return f"base hp {self.hp}"


@dataclass(frozen=True, slots=True)
class Create(Action):
    asset_type: str
    location: str

    def __str__(self) -> str:
        return f"create {self.asset_type} at {self.location}"


@dataclass(frozen=True, slots=True)
class Hide(Action):
    asset: str

    def __str__(self) -> str:
        return f"hide {self.asset}"


@dataclass(frozen=True, slots=True)
class Sell(Action):
    asset: str

    def __str__(self) -> str:
        return f"sell {self.asset}"


@dataclass(frozen=True, slots=True)
class UseAbility(Action):
    """Use a free ability once this turn: ``source`` is an asset id or a tag (``imperialist``),
    ``option`` the choice it needs (target, destination...), or empty."""

    source: str
    option: str = ""

    def __str__(self) -> str:
        return f"use {self.source}" + (f" {self.option}" if self.option else "")


@dataclass(frozen=True, slots=True)
class Bribe(Action):
    """Spend Treasure on bribes and influence toward the Wealth of Kingdoms goal."""

    amount: int

    def __str__(self) -> str:
        return f"bribe {self.amount}"


@dataclass(frozen=True, slots=True)
class ChooseGoal(Action):
    """Adopt a goal; ``target`` is the goal's parameter (an asset, faction@location or attribute)."""

    goal: str
    target: str = ""

    def __str__(self) -> str:
        return f"goal {self.goal}" + (f" {self.target}" if self.target else "")


@dataclass(frozen=True, slots=True)
class KeepGoal(Action):
    def __str__(self) -> str:
        return "keep goal"


@dataclass(frozen=True, slots=True)
class RaiseRating(Action):
    """Spend XP to raise an attribute by one."""

    attribute: str

    def __str__(self) -> str:
        return f"raise {self.attribute}"


_PATTERNS: list[tuple[re.Pattern[str], type[Action], tuple[type, ...]]] = [
    (re.compile(r"^action (\S+)$"), ChooseAction, (str,)),
    (re.compile(r"^done$"), Done, ()),
    (re.compile(r"^decline$"), Decline, ()),
    (re.compile(r"^attack (\S+) -> (\S+)$"), Attack, (str, str)),
    (re.compile(r"^defend with (\S+)$"), Defend, (str,)),
    (re.compile(r"^move (\S+) -> (\S+)$"), Move, (str, str)),
    (re.compile(r"^repair faction$"), RepairFaction, ()),
    (re.compile(r"^repair (\S+)$"), Repair, (str,)),
    (re.compile(r"^expand at (\S+)$"), ExpandAt, (str,)),
    (re.compile(r"^base hp (\d+)$"), BaseHp, (int,)),
    (re.compile(r"^create (\S+) at (\S+)$"), Create, (str, str)),
    (re.compile(r"^hide (\S+)$"), Hide, (str,)),
    (re.compile(r"^sell (\S+)$"), Sell, (str,)),
    (re.compile(r"^use (\S+)(?: (.+))?$"), UseAbility, (str, str)),
    (re.compile(r"^bribe (\d+)$"), Bribe, (int,)),
    (re.compile(r"^goal (\S+)(?: (\S+))?$"), ChooseGoal, (str, str)),
    (re.compile(r"^keep goal$"), KeepGoal, ()),
    (re.compile(r"^raise (\S+)$"), RaiseRating, (str,)),
]


def parse_action(text: str) -> Action:
    """Read an action back from its text form; raises :class:`IllegalActionError` if unknown."""
    text = " ".join(text.split())
    for pattern, cls, types in _PATTERNS:
        m = pattern.match(text)
        if m:
            args = [t(g) if g is not None else "" for t, g in zip(types, m.groups(), strict=True)]
            return cls(*args)
    raise IllegalActionError(f"not a WWN action: {text!r}")
