"""The decisions of a conflict as small immutable values with a stable text form.

>>> a = Harm("ash", "brute", "weaponry")
>>> str(a), parse_action(str(a)) == a
('harm ash -> brute weaponry', True)
>>> str(Dash("ash", -6, "break")), parse_action("dash ash -6 break")
('dash ash -6 break', Dash(char='ash', shift=-6, mode='break'))
>>> parse_action("plan ash spell")
Plan(char='ash', category='spell')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from factionsim.core.game import Action, IllegalActionError


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


@dataclass(frozen=True, slots=True)
class Plan(Action):
    """Before the round: ``char`` intends an action of ``category`` (its initiative category)."""

    char: str
    category: str

    def __str__(self) -> str:
        return f"plan {self.char} {self.category}"


@dataclass(frozen=True, slots=True)
class Replan(Action):
    """``char`` changes its plan: at its turn, to a later category (it acts then); when a
    category begins, from a later one to this one (it acts in this category)."""

    char: str
    category: str

    def __str__(self) -> str:
        return f"replan {self.char} {self.category}"


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """Free movement of ``shift`` heights and no action."""

    char: str
    shift: int

    def __str__(self) -> str:
        return f"hold {self.char} {_signed(self.shift)}"


@dataclass(frozen=True, slots=True)
class Stand(Action):
    """Stand ground (category 1) after a free move of ``shift`` heights."""

    char: str
    shift: int

    def __str__(self) -> str:
        return f"stand {self.char} {_signed(self.shift)}"


@dataclass(frozen=True, slots=True)
class Harm(Action):
    """Attack ``target`` with ``skill`` (category 3)."""

    char: str
    target: str
    skill: str

    def __str__(self) -> str:
        return f"harm {self.char} -> {self.target} {self.skill}"


@dataclass(frozen=True, slots=True)
class Advantage(Action):
    """Create an Advantage on ``target`` with a ``skill`` check (category 2)."""

    char: str
    skill: str
    target: str

    def __str__(self) -> str:
        return f"advantage {self.char} {self.skill} -> {self.target}"


@dataclass(frozen=True, slots=True)
class Trick(Action):
    """Create an Advantage on ``target`` without a check (``impair``: +1; a scenario trick: +1 or
    +2) (category 2)."""

    char: str
    trick: str
    target: str

    def __str__(self) -> str:
        return f"trick {self.char} {self.trick} -> {self.target}"


@dataclass(frozen=True, slots=True)
class Assist(Action):
    """Assist ``ally``'s next roll with the major levels of Bond (category 2)."""

    char: str
    ally: str

    def __str__(self) -> str:
        return f"assist {self.char} -> {self.ally}"


@dataclass(frozen=True, slots=True)
class Remove(Action):
    """Try to remove an enemy Advantage (``adv#n``) (category 2)."""

    char: str
    advantage: str

    def __str__(self) -> str:
        return f"remove {self.char} {self.advantage}"


@dataclass(frozen=True, slots=True)
class Ritual(Action):
    """Work on the scenario's ritual (do something else, category 2)."""

    char: str

    def __str__(self) -> str:
        return f"ritual {self.char}"


@dataclass(frozen=True, slots=True)
class Parley(Action):
    """Try to convince ``target`` to stand down (do something else, category 2)."""

    char: str
    target: str

    def __str__(self) -> str:
        return f"parley {self.char} -> {self.target}"


@dataclass(frozen=True, slots=True)
class Cast(Action):
    """Complete a Spell or Technique on ``target`` (category 4)."""

    char: str
    spell: str
    target: str

    def __str__(self) -> str:
        return f"cast {self.char} {self.spell} -> {self.target}"


@dataclass(frozen=True, slots=True)
class Dash(Action):
    """Move far: ``shift`` heights in all (free 2 + up to 5) (category 5). ``mode``: ``free`` (not
    engaged), ``check`` (an Acrobatics/Coordination check) or ``break`` (no check; enemies within
    2 heights attack)."""

    char: str
    shift: int
    mode: str = "free"

    def __str__(self) -> str:
        return f"dash {self.char} {_signed(self.shift)}" + ("" if self.mode == "free" else f" {self.mode}")


@dataclass(frozen=True, slots=True)
class TieChoice(Action):
    """A tied check: ``succeed`` with a consequence or ``fail`` with an opportunity."""

    char: str
    choice: str

    def __str__(self) -> str:
        return f"tie {self.char} {self.choice}"


@dataclass(frozen=True, slots=True)
class Reroll(Action):
    """Sacrifice a minor level of Bond with ``partner`` to reroll a failed check."""

    char: str
    partner: str

    def __str__(self) -> str:
        return f"reroll {self.char} with {self.partner}"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Keep the failed check."""

    char: str

    def __str__(self) -> str:
        return f"accept {self.char}"


@dataclass(frozen=True, slots=True)
class Proceed(Action):
    """A category begins: ``side`` changes no (more) plans into it."""

    side: str

    def __str__(self) -> str:
        return f"proceed {self.side}"


_ID = r"([a-z0-9][a-z0-9-]*)"
_NUM = r"([+-]?\d+)"
_PATTERNS: list[tuple[re.Pattern[str], type[Action]]] = [
    (re.compile(rf"^plan {_ID} (\w+)$"), Plan),
    (re.compile(rf"^replan {_ID} (\w+)$"), Replan),
    (re.compile(rf"^hold {_ID} {_NUM}$"), Hold),
    (re.compile(rf"^stand {_ID} {_NUM}$"), Stand),
    (re.compile(rf"^harm {_ID} -> {_ID} (\w+)$"), Harm),
    (re.compile(rf"^advantage {_ID} (\w+) -> {_ID}$"), Advantage),
    (re.compile(rf"^trick {_ID} {_ID} -> {_ID}$"), Trick),
    (re.compile(rf"^assist {_ID} -> {_ID}$"), Assist),
    (re.compile(rf"^remove {_ID} (adv#\d+)$"), Remove),
    (re.compile(rf"^ritual {_ID}$"), Ritual),
    (re.compile(rf"^parley {_ID} -> {_ID}$"), Parley),
    (re.compile(rf"^cast {_ID} {_ID} -> {_ID}$"), Cast),
    (re.compile(rf"^dash {_ID} {_NUM}(?: (check|break))?$"), Dash),
    (re.compile(rf"^tie {_ID} (succeed|fail)$"), TieChoice),
    (re.compile(rf"^reroll {_ID} with {_ID}$"), Reroll),
    (re.compile(rf"^accept {_ID}$"), Accept),
    (re.compile(rf"^proceed {_ID}$"), Proceed),
]


def parse_action(text: str) -> Action:
    """The action whose text form is ``text``; :class:`IllegalActionError` if none."""
    text = " ".join(text.strip().split())
    for pattern, cls in _PATTERNS:
        m = pattern.match(text)
        if not m:
            continue
        args: list[object] = [g for g in m.groups()]
        if cls in (Hold, Stand):
            args[1] = int(str(args[1]))
        if cls is Dash:
            args = [args[0], int(str(args[1])), args[2] or "free"]
        return cls(*args)
    raise IllegalActionError(f"not a conflict action: {text!r}")
