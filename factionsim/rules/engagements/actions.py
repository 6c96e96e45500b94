"""Decisions of the engagements ruleset: small immutable values with a stable text form.

>>> str(Allocate(3, "black-lances#1"))
'allocate 3 -> black-lances#1'
>>> parse_action("convert 2 -> red-hand") == Convert(2, "red-hand")
True
>>> parse_action("hire sellswords for 2")
Invite(faction='sellswords', price=2)
>>> all(parse_action(str(a)) == a for a in [Done(), Build(2, 1), Raise("x#1", "defense"),
...     Heal("x#1"), Engage("b"), Invite("c"), Join(), Decline(), Commit("x#1"),
...     Fanatical("x#1"), Draw(0), Commission("c", "b", 2)])
True
"""

from __future__ import annotations

from dataclasses import dataclass

from factionsim.core.game import Action, ActionTable

STATS = ("competence", "defense")


@dataclass(frozen=True, slots=True)
class Done(Action):
    """End the current step (spending, inviting, committing pillars, the Fanatical option)."""

    TEXT = "done"


@dataclass(frozen=True, slots=True)
class Convert(Action):
    """Turn ``amount`` faction dice into engagement dice against ``rival`` (1:1)."""

    amount: int
    rival: str

    TEXT = "convert {amount} -> {rival}"


@dataclass(frozen=True, slots=True)
class Build(Action):
    """Build a new pillar of this competence and defense (costs competence + defense dice)."""

    competence: int
    defense: int

    TEXT = "build c{competence} d{defense}"


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """Raise a pillar's competence or defense by one (costs the new level in faction dice)."""

    pillar: str
    stat: str

    TEXT = "raise {pillar} {stat}"


@dataclass(frozen=True, slots=True)
class Heal(Action):
    """Clear one marked wound circle of a pillar."""

    pillar: str

    TEXT = "heal {pillar}"


@dataclass(frozen=True, slots=True)
class Engage(Action):
    """Step 1: declare ``rival`` the defender of an engagement."""

    rival: str

    TEXT = "engage {rival}"


@dataclass(frozen=True, slots=True)
class Invite(Action):
    """Ask ``faction`` to join the engagement as an ally (``price`` 0) or hire it as a mercenary
    for ``price`` faction dice (paid when it joins)."""

    faction: str
    price: int = 0

    TEXT = ("invite {faction}", "hire {faction} for {price}")


@dataclass(frozen=True, slots=True)
class Commission(Action):
    """Pay the mercenary ``faction`` ``price`` faction dice to engage ``rival`` itself ("Some
    factions (mercenaries) will participate or engage for payment"); paid when it accepts."""

    faction: str
    rival: str
    price: int

    TEXT = "commission {faction} -> {rival} for {price}"


@dataclass(frozen=True, slots=True)
class Join(Action):
    """Accept an invitation (or a mercenary contract) to join an engagement."""

    TEXT = "join"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Refuse an invitation."""

    TEXT = "decline"


@dataclass(frozen=True, slots=True)
class Commit(Action):
    """Step 2: add a pillar to the engagement (the first is free, each further one 1 faction die)."""

    pillar: str

    TEXT = "commit {pillar}"


@dataclass(frozen=True, slots=True)
class Fanatical(Action):
    """Boon Fanatical: mark a wound circle of this pillar for 2 more dice."""

    pillar: str

    TEXT = "fanatical {pillar}"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Step 4: take ``n`` (0-3) engagement dice out of the pool against the opponent."""

    n: int

    TEXT = "draw {n}"


@dataclass(frozen=True, slots=True)
class Allocate(Action):
    """Step 5: put ``n`` of the dice still to divide on the opposing ``pillar``."""

    n: int
    pillar: str

    TEXT = "allocate {n} -> {pillar}"


#: Every action's text, in the order they are read (``str(action)`` writes them).
ACTIONS = ActionTable(
    "engagements", Done, Convert, Build, Raise, Heal, Engage, Invite, Join, Decline, Commit,
    Fanatical, Draw, Allocate, Commission,
)


def parse_action(text: str) -> Action:
    """Read an action back from its text form (raises :class:`IllegalActionError`)."""
    return ACTIONS.parse(text)
