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

from dataclasses import dataclass

from factionsim.core.game import Action, ActionTable

#: The seven faction actions of 6.6.0, plus passing.
ACTION_KINDS = ("attack", "move", "repair", "expand", "create", "hide", "sell", "pass")


@dataclass(frozen=True, slots=True)
class ChooseAction(Action):
    """Pick this turn's faction action (one of :data:`ACTION_KINDS`)."""

    kind: str

    TEXT = "action {kind}"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Finish the current step (stop attacking, moving, repairing, using abilities...)."""

    TEXT = "done"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Let a reaction pass (no reroll, no sacrifice, no payment...)."""

    TEXT = "decline"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Attack ``target`` (a faction) in the attacking asset's location with ``asset``."""

    asset: str
    target: str

    TEXT = "attack {asset} -> {target}"


@dataclass(frozen=True, slots=True)
class Defend(Action):
    """The defending faction picks which of its assets present meets the attack."""

    asset: str

    TEXT = "defend with {asset}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    asset: str
    destination: str

    TEXT = "move {asset} -> {destination}"


@dataclass(frozen=True, slots=True)
class Repair(Action):
    """Repair one asset (1 Treasure, +1 for each further fix of the same asset this turn)."""

    asset: str

    TEXT = "repair {asset}"


@dataclass(frozen=True, slots=True)
class RepairFaction(Action):
    """Spend 1 Treasure to heal the faction itself (once per turn)."""

    TEXT = "repair faction"


@dataclass(frozen=True, slots=True)
class ExpandAt(Action):
    """Plant a new Base of Influence in ``location`` (its HP is the next decision)."""

    location: str

    TEXT = "expand at {location}"


@dataclass(frozen=True, slots=True)
class BaseHp(Action):
    """Maximum HP of the new Base of Influence (costs that many Treasure)."""

    hp: int

    TEXT = "base hp {hp}"


@dataclass(frozen=True, slots=True)
class Create(Action):
    asset_type: str
    location: str

    TEXT = "create {asset_type} at {location}"


@dataclass(frozen=True, slots=True)
class Hide(Action):
    asset: str

    TEXT = "hide {asset}"


@dataclass(frozen=True, slots=True)
class Sell(Action):
    asset: str

    TEXT = "sell {asset}"


@dataclass(frozen=True, slots=True)
class UseAbility(Action):
    """Use a free ability once this turn: ``source`` is an asset id or a tag (``imperialist``),
    ``option`` the choice it needs (target, destination...), or empty."""

    source: str
    option: str = ""

    TEXT = "use {source}[ {option:rest}]"


@dataclass(frozen=True, slots=True)
class Bribe(Action):
    """Spend Treasure on bribes and influence toward the Wealth of Kingdoms goal."""

    amount: int

    TEXT = "bribe {amount}"


@dataclass(frozen=True, slots=True)
class ChooseGoal(Action):
    """Adopt a goal; ``target`` is the goal's parameter (an asset, faction@location or attribute)."""

    goal: str
    target: str = ""

    TEXT = "goal {goal}[ {target}]"


@dataclass(frozen=True, slots=True)
class KeepGoal(Action):
    TEXT = "keep goal"


@dataclass(frozen=True, slots=True)
class RaiseRating(Action):
    """Spend XP to raise an attribute by one."""

    attribute: str

    TEXT = "raise {attribute}"


#: Every action's text, in the order they are read (``str(action)`` writes them).
ACTIONS = ActionTable(
    "WWN", ChooseAction, Done, Decline, Attack, Defend, Move, RepairFaction, Repair, ExpandAt,
    BaseHp, Create, Hide, Sell, UseAbility, Bribe, ChooseGoal, KeepGoal, RaiseRating,
)


def parse_action(text: str) -> Action:
    """Read an action back from its text form; raises :class:`IllegalActionError` if unknown."""
    return ACTIONS.parse(text)
