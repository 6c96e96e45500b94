"""The Great Houses' decisions as small immutable values with a stable text form.

>>> str(ChooseAction("attack-house")), str(PickDistinction("old-blood", hinder=True))
('action attack-house', 'distinction old-blood d4')
>>> parse_action("commit castle-aldren#1")
Commit(asset='castle-aldren#1')
>>> parse_action("advance attribute physical social")
Advance(option='attribute', trait='physical', other='social')
"""

from __future__ import annotations

from factionsim.core.game import Action, ActionTable, action

#: The eight House actions of the seed, plus passing. The last three are recovery actions
#: (also the only kinds of the free recovery at the end of the season).
ACTION_KINDS = ("create-asset", "create-complication", "attack-house", "attack-trait", "seize",
                "repair", "recover", "recover-complication", "pass")
RECOVERY_KINDS = ("repair", "recover", "recover-complication", "pass")


@action
class ChooseAction(Action):
    """The House action to take now (one of :data:`ACTION_KINDS`)."""

    TEXT = "action {kind}"


@action
class Target(Action):
    """The rival House the action is aimed at."""

    TEXT = "target {house}"


@action
class Trait(Action):
    """The trait the action is about: a skill name, an asset id, ``stress``, ``trauma`` or
    ``complication:<source>``."""

    TEXT = "trait {trait}"


@action
class PickDistinction(Action):
    """The Distinction rolled: at its die, or as a d4 to earn a Plot Point (``hinder``)."""

    hinder: bool = False

    TEXT = "distinction {distinction}[ d4{hinder?}]"


@action
class PickAttribute(Action):
    TEXT = "attribute {attribute}"


@action
class PickSkill(Action):
    TEXT = "skill {skill}"


@action
class Commit(Action):
    """Add one of the House's assets (Holding, Resource, Asset) to the pool."""

    TEXT = "commit {asset}"


@action
class RollPool(Action):
    """The pool is complete: roll it."""

    TEXT = "roll"


@action
class SpendPlotPoint(Action):
    """Spend a Plot Point: add a die to the total, solidify an asset for the season, make a
    complication long-lasting, or inflict Trauma instead of Stress (the decision point says)."""

    TEXT = "plot point"


@action
class Keep(Action):
    """Spend no Plot Point here."""

    TEXT = "keep"


@action
class InflictBoth(Action):
    """The winner of Attack a Faction spends a Plot Point for a second effect die: the effect
    lands as Stress and the second die as Trauma ("Stress and/or Trauma")."""

    TEXT = "plot point both"


@action
class Oppose(Action):
    """A rival opposes the asset being created: it rolls its own pool instead of the GM's
    difficulty ("The GM sets the difficulty if no one is opposing you")."""

    TEXT = "oppose"


@action
class Sacrifice(Action):
    """Offer a Skill (d6 or more) or an Asset to absorb incoming Stress or Trauma."""

    TEXT = "sacrifice {trait}"


@action
class Accept(Action):
    """Take what is left of the incoming Stress or Trauma."""

    TEXT = "accept"


@action
class Advance(Action):
    """Spend advances: ``signature <asset>``, ``step-signature <asset>``, ``sfx <name>``,
    ``step <skill or asset>``, ``attribute <up> <down>``."""

    trait: str = ""
    other: str = ""

    TEXT = "advance {option}[ {trait}][ {other}]"


@action
class Done(Action):
    TEXT = "done"


#: Every action's text, in the order they are read (``str(action)`` writes them).
ACTIONS = ActionTable(
    "Great Houses", ChooseAction, Target, Trait, PickDistinction, PickAttribute, PickSkill, Commit,
    RollPool, SpendPlotPoint, InflictBoth, Oppose, Keep, Sacrifice, Accept, Advance, Done,
)


def parse_action(text: str) -> Action:
    """Read an action back from its text form; raises :class:`IllegalActionError` if unknown."""
    return ACTIONS.parse(text)
