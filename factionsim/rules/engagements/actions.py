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

from factionsim.core.game import Action, ActionTable, action, choice_table

STATS = ("competence", "defense")


@action
class Done(Action):
    """End the current step (spending, inviting, committing pillars, the Fanatical option)."""

    TEXT = "done"


@action
class Convert(Action):
    """Turn ``amount`` faction dice into engagement dice against ``rival`` (1:1)."""

    amount: int

    TEXT = "convert {amount} -> {rival}"


@action
class Build(Action):
    """Build a new pillar of this competence and defense (costs competence + defense dice)."""

    competence: int
    defense: int

    TEXT = "build c{competence} d{defense}"


@action
class Raise(Action):
    """Raise a pillar's competence or defense by one (costs the new level in faction dice)."""

    TEXT = "raise {pillar} {stat}"


@action
class Heal(Action):
    """Clear one marked wound circle of a pillar."""

    TEXT = "heal {pillar}"


@action
class Engage(Action):
    """Step 1: declare ``rival`` the defender of an engagement."""

    TEXT = "engage {rival}"


@action
class Invite(Action):
    """Ask ``faction`` to join the engagement as an ally (``price`` 0) or hire it as a mercenary
    for ``price`` faction dice (paid when it joins)."""

    price: int = 0

    TEXT = ("invite {faction}", "hire {faction} for {price}")


@action
class Commission(Action):
    """Pay the mercenary ``faction`` ``price`` faction dice to engage ``rival`` itself ("Some
    factions (mercenaries) will participate or engage for payment"); paid when it accepts."""

    price: int

    TEXT = "commission {faction} -> {rival} for {price}"


@action
class Join(Action):
    """Accept an invitation (or a mercenary contract) to join an engagement."""

    TEXT = "join"


@action
class Decline(Action):
    """Refuse an invitation."""

    TEXT = "decline"


@action
class Commit(Action):
    """Step 2: add a pillar to the engagement (the first is free, each further one 1 faction die)."""

    TEXT = "commit {pillar}"


@action
class Fanatical(Action):
    """Boon Fanatical: mark a wound circle of this pillar for 2 more dice."""

    TEXT = "fanatical {pillar}"


@action
class Draw(Action):
    """Step 4: take ``n`` (0-3) engagement dice out of the pool against the opponent."""

    n: int

    TEXT = "draw {n}"


@action
class Allocate(Action):
    """Step 5: put ``n`` of the dice still to divide on the opposing ``pillar``."""

    n: int

    TEXT = "allocate {n} -> {pillar}"


#: Every action's text, in the order they are read (``str(action)`` writes them).
ACTIONS = ActionTable(
    "engagements", Done, Convert, Build, Raise, Heal, Engage, Invite, Join, Decline, Commit,
    Fanatical, Draw, Allocate, Commission,
)


#: ``choice(Kind, *fields)``: the one object of each choice the rules offered so far in this
#: process, so that the env encodes an action object it has met before with one lookup by
#: identity (and none is built again)
choice = choice_table()


def parse_action(text: str) -> Action:
    """Read an action back from its text form (raises :class:`IllegalActionError`)."""
    return ACTIONS.parse(text)
