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

import re
from dataclasses import dataclass

from factionsim.core.game import Action, IllegalActionError

STATS = ("competence", "defense")


@dataclass(frozen=True, slots=True)
class Done(Action):
    """End the current step (spending, inviting, committing pillars, the Fanatical option)."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Convert(Action):
    """Turn ``amount`` faction dice into engagement dice against ``rival`` (1:1)."""

    amount: int
    rival: str

    def __str__(self) -> str:
        return f"convert {self.amount} -> {self.rival}"


@dataclass(frozen=True, slots=True)
class Build(Action):
    """Build a new pillar of this competence and defense (costs competence + defense dice)."""

    competence: int
    defense: int

    def __str__(self) -> str:
        return f"build c{self.competence} d{self.defense}"


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """Raise a pillar's competence or defense by one (costs the new level in faction dice)."""

    pillar: str
    stat: str

    def __str__(self) -> str:
        return f"raise {self.pillar} {self.stat}"


@dataclass(frozen=True, slots=True)
class Heal(Action):
    """Clear one marked wound circle of a pillar."""

    pillar: str

    def __str__(self) -> str:
        return f"heal {self.pillar}"


@dataclass(frozen=True, slots=True)
class Engage(Action):
    """Step 1: declare ``rival`` the defender of an engagement."""

    rival: str

    def __str__(self) -> str:
        return f"engage {self.rival}"


@dataclass(frozen=True, slots=True)
class Invite(Action):
    """Ask ``faction`` to join the engagement as an ally (``price`` 0) or hire it as a mercenary
    for ``price`` faction dice (paid when it joins)."""

    faction: str
    price: int = 0

    def __str__(self) -> str:
        return f"hire {self.faction} for {self.price}" if self.price else f"invite {self.faction}"


@dataclass(frozen=True, slots=True)
class Commission(Action):
    """Pay the mercenary ``faction`` ``price`` faction dice to engage ``rival`` itself ("Some
    factions (mercenaries) will participate or engage for payment"); paid when it accepts."""

    faction: str
    rival: str
    price: int

    def __str__(self) -> str:
        return f"commission {self.faction} -> {self.rival} for {self.price}"


@dataclass(frozen=True, slots=True)
class Join(Action):
    """Accept an invitation (or a mercenary contract) to join an engagement."""

    def __str__(self) -> str:
        return "join"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Refuse an invitation."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class Commit(Action):
    """Step 2: add a pillar to the engagement (the first is free, each further one 1 faction die)."""

    pillar: str

    def __str__(self) -> str:
        return f"commit {self.pillar}"


@dataclass(frozen=True, slots=True)
class Fanatical(Action):
    """Boon Fanatical: mark a wound circle of this pillar for 2 more dice."""

    pillar: str

    def __str__(self) -> str:
        return f"fanatical {self.pillar}"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Step 4: take ``n`` (0-3) engagement dice out of the pool against the opponent."""

    n: int

    def __str__(self) -> str:
        return f"draw {self.n}"


@dataclass(frozen=True, slots=True)
class Allocate(Action):
    """Step 5: put ``n`` of the dice still to divide on the opposing ``pillar``."""

    n: int
    pillar: str

    def __str__(self) -> str:
        return f"allocate {self.n} -> {self.pillar}"


_PATTERNS: list[tuple[re.Pattern[str], type]] = [
    (re.compile(r"^done$"), Done),
    (re.compile(r"^convert (\d+) -> (\S+)$"), Convert),
    (re.compile(r"^build c(\d+) d(\d+)$"), Build),
    (re.compile(r"^raise (\S+) (competence|defense)$"), Raise),
    (re.compile(r"^heal (\S+)$"), Heal),
    (re.compile(r"^engage (\S+)$"), Engage),
    (re.compile(r"^invite (\S+)$"), Invite),
    (re.compile(r"^join$"), Join),
    (re.compile(r"^decline$"), Decline),
    (re.compile(r"^commit (\S+)$"), Commit),
    (re.compile(r"^fanatical (\S+)$"), Fanatical),
    (re.compile(r"^draw (\d+)$"), Draw),
    (re.compile(r"^allocate (\d+) -> (\S+)$"), Allocate),
    (re.compile(r"^commission (\S+) -> (\S+) for (\d+)$"), Commission),
]
_HIRE = re.compile(r"^hire (\S+) for (\d+)$")


def parse_action(text: str) -> Action:
    """Read an action back from its text form (raises :class:`IllegalActionError`)."""
    text = " ".join(text.split())
    m = _HIRE.match(text)
    if m:
        return Invite(m.group(1), int(m.group(2)))
    for pattern, cls in _PATTERNS:
        m = pattern.match(text)
        if m:
            args = [int(g) if g.isdigit() else g for g in m.groups()]
            return cls(*args)
    raise IllegalActionError(f"not an engagements action: {text!r}")
