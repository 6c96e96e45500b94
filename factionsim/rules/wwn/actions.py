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

from factionsim.core.game import Action, ActionTable, action

#: The seven faction actions of 6.6.0, plus passing.
ACTION_KINDS = ("attack", "move", "repair", "expand", "create", "hide", "sell", "pass")


@action
class ChooseAction(Action):
    """Pick this turn's faction action (one of :data:`ACTION_KINDS`)."""

    TEXT = "action {kind}"


@action
class Done(Action):
    """Finish the current step (stop attacking, moving, repairing, using abilities...)."""

    TEXT = "done"


@action
class Decline(Action):
    """Let a reaction pass (no reroll, no sacrifice, no payment...)."""

    TEXT = "decline"


@action
class Attack(Action):
    """Attack ``target`` (a faction) in the attacking asset's location with ``asset``."""

    TEXT = "attack {asset} -> {target}"


@action
class Defend(Action):
    """The defending faction picks which of its assets present meets the attack."""

    TEXT = "defend with {asset}"


@action
class Move(Action):
    TEXT = "move {asset} -> {destination}"


@action
class Repair(Action):
    """Repair one asset (1 Treasure, +1 for each further fix of the same asset this turn)."""

    TEXT = "repair {asset}"


@action
class RepairFaction(Action):
    """Spend 1 Treasure to heal the faction itself (once per turn)."""

    TEXT = "repair faction"


@action
class ExpandAt(Action):
    """Plant a new Base of Influence in ``location`` (its HP is the next decision)."""

    TEXT = "expand at {location}"


@action
class BaseHp(Action):
    """Maximum HP of the new Base of Influence (costs that many Treasure)."""

    hp: int

    TEXT = "base hp {hp}"


@action
class Create(Action):
    TEXT = "create {asset_type} at {location}"


@action
class Hide(Action):
    TEXT = "hide {asset}"


@action
class Sell(Action):
    TEXT = "sell {asset}"


@action
class UseAbility(Action):
    """Use a free ability once this turn: ``source`` is an asset id or a tag (``imperialist``),
    ``option`` the choice it needs (target, destination...), or empty."""

    option: str = ""

    TEXT = "use {source}[ {option:rest}]"


@action
class Bribe(Action):
    """Spend Treasure on bribes and influence toward the Wealth of Kingdoms goal."""

    amount: int

    TEXT = "bribe {amount}"


@action
class ChooseGoal(Action):
    """Adopt a goal; ``target`` is the goal's parameter (an asset, faction@location or attribute)."""

    target: str = ""

    TEXT = "goal {goal}[ {target}]"


@action
class KeepGoal(Action):
    TEXT = "keep goal"


@action
class RaiseRating(Action):
    """Spend XP to raise an attribute by one."""

    TEXT = "raise {attribute}"


#: Every action's text, in the order they are read (``str(action)`` writes them).
ACTIONS = ActionTable(
    "WWN", ChooseAction, Done, Decline, Attack, Defend, Move, RepairFaction, Repair, ExpandAt,
    BaseHp, Create, Hide, Sell, UseAbility, Bribe, ChooseGoal, KeepGoal, RaiseRating,
)


def parse_action(text: str) -> Action:
    """Read an action back from its text form; raises :class:`IllegalActionError` if unknown."""
    return ACTIONS.parse(text)
