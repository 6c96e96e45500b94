"""The Great Houses' decisions as small immutable values with a stable text form.

>>> str(ChooseAction("attack-house")), str(PickDistinction("old-blood", hinder=True))
('action attack-house', 'distinction old-blood d4')
>>> parse_action("commit castle-aldren#1")
Commit(asset='castle-aldren#1')
>>> parse_action("advance attribute physical social")
Advance(option='attribute', trait='physical', other='social')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from factionsim.core.game import Action, IllegalActionError

#: The eight House actions of the seed, plus passing. The last three are recovery actions
#: (also the only kinds of the free recovery at the end of the season).
ACTION_KINDS = ("create-asset", "create-complication", "attack-house", "attack-trait", "seize",
                "repair", "recover", "recover-complication", "pass")
RECOVERY_KINDS = ("repair", "recover", "recover-complication", "pass")


@dataclass(frozen=True, slots=True)
class ChooseAction(Action):
    """The House action to take now (one of :data:`ACTION_KINDS`)."""

    kind: str

    def __str__(self) -> str:
        return f"action {self.kind}"


@dataclass(frozen=True, slots=True)
class Target(Action):
    """The rival House the action is aimed at."""

    house: str

    def __str__(self) -> str:
        return f"target {self.house}"


@dataclass(frozen=True, slots=True)
class Trait(Action):
    """The trait the action is about: a skill name, an asset id, ``stress``, ``trauma`` or
    ``complication:<source>``."""

    trait: str

    def __str__(self) -> str:
        return f"trait {self.trait}"


@dataclass(frozen=True, slots=True)
class PickDistinction(Action):
    """The Distinction rolled: at its die, or as a d4 to earn a Plot Point (``hinder``)."""

    distinction: str
    hinder: bool = False

    def __str__(self) -> str:
        return f"distinction {self.distinction}" + (" d4" if self.hinder else "")


@dataclass(frozen=True, slots=True)
class PickAttribute(Action):
    attribute: str

    def __str__(self) -> str:
        return f"attribute {self.attribute}"


@dataclass(frozen=True, slots=True)
class PickSkill(Action):
    skill: str

    def __str__(self) -> str:
        return f"skill {self.skill}"


@dataclass(frozen=True, slots=True)
class Commit(Action):
    """Add one of the House's assets (Holding, Resource, Asset) to the pool."""

    asset: str

    def __str__(self) -> str:
        return f"commit {self.asset}"


@dataclass(frozen=True, slots=True)
class RollPool(Action):
    """The pool is complete: roll it."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class SpendPlotPoint(Action):
    """Spend a Plot Point: add a die to the total, solidify an asset for the season, make a
    complication long-lasting, or inflict Trauma instead of Stress (the decision point says)."""

    def __str__(self) -> str:
        return "plot point"


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Spend no Plot Point here."""

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class InflictBoth(Action):
    """The winner of Attack a Faction spends a Plot Point for a second effect die: the effect
    lands as Stress and the second die as Trauma ("Stress and/or Trauma")."""

    def __str__(self) -> str:
        return "plot point both"


@dataclass(frozen=True, slots=True)
class Oppose(Action):
    """A rival opposes the asset being created: it rolls its own pool instead of the GM's
    difficulty ("The GM sets the difficulty if no one is opposing you")."""

    def __str__(self) -> str:
        return "oppose"


@dataclass(frozen=True, slots=True)
class Sacrifice(Action):
    """Offer a Skill (d6 or more) or an Asset to absorb incoming Stress or Trauma."""

    trait: str

    def __str__(self) -> str:
        return f"sacrifice {self.trait}"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Take what is left of the incoming Stress or Trauma."""

    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True, slots=True)
class Advance(Action):
    """Spend advances: ``signature <asset>``, ``step-signature <asset>``, ``sfx <name>``,
    ``step <skill or asset>``, ``attribute <up> <down>``."""

    option: str
    trait: str = ""
    other: str = ""

    def __str__(self) -> str:
        return " ".join(x for x in ("advance", self.option, self.trait, self.other) if x)


@dataclass(frozen=True, slots=True)
class Done(Action):
    def __str__(self) -> str:
        return "done"


_PATTERNS: list[tuple[re.Pattern[str], type[Action], tuple]] = [
    (re.compile(r"^action (\S+)$"), ChooseAction, (str,)),
    (re.compile(r"^target (\S+)$"), Target, (str,)),
    (re.compile(r"^trait (\S+)$"), Trait, (str,)),
    (re.compile(r"^distinction (\S+)( d4)?$"), PickDistinction, (str, bool)),
    (re.compile(r"^attribute (\S+)$"), PickAttribute, (str,)),
    (re.compile(r"^skill (\S+)$"), PickSkill, (str,)),
    (re.compile(r"^commit (\S+)$"), Commit, (str,)),
    (re.compile(r"^roll$"), RollPool, ()),
    (re.compile(r"^plot point$"), SpendPlotPoint, ()),
    (re.compile(r"^plot point both$"), InflictBoth, ()),
    (re.compile(r"^oppose$"), Oppose, ()),
    (re.compile(r"^keep$"), Keep, ()),
    (re.compile(r"^sacrifice (\S+)$"), Sacrifice, (str,)),
    (re.compile(r"^accept$"), Accept, ()),
    (re.compile(r"^advance (\S+)(?: (\S+))?(?: (\S+))?$"), Advance, (str, str, str)),
    (re.compile(r"^done$"), Done, ()),
]


def parse_action(text: str) -> Action:
    """Read an action back from its text form; raises :class:`IllegalActionError` if unknown."""
    text = " ".join(text.split())
    for pattern, cls, types in _PATTERNS:
        m = pattern.match(text)
        if m:
            args = [(bool(g) if t is bool else (t(g) if g is not None else ""))
                    for t, g in zip(types, m.groups(), strict=True)]
            return cls(*args)
    raise IllegalActionError(f"not a Great Houses action: {text!r}")
