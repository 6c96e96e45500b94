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

from dataclasses import dataclass

from factionsim.core.game import Action, ActionTable


@dataclass(frozen=True, slots=True)
class Plan(Action):
    """Before the round: ``char`` intends an action of ``category`` (its initiative category)."""

    char: str
    category: str

    TEXT = "plan {char} {category}"


@dataclass(frozen=True, slots=True)
class Replan(Action):
    """``char`` changes its plan: at its turn, to a later category (it acts then); when a
    category begins, from a later one to this one (it acts in this category)."""

    char: str
    category: str

    TEXT = "replan {char} {category}"


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """Free movement of ``shift`` heights and no action."""

    char: str
    shift: int

    TEXT = "hold {char} {shift:+}"


@dataclass(frozen=True, slots=True)
class Stand(Action):
    """Stand ground (category 1) after a free move of ``shift`` heights."""

    char: str
    shift: int

    TEXT = "stand {char} {shift:+}"


@dataclass(frozen=True, slots=True)
class Harm(Action):
    """Attack ``target`` with ``skill`` (category 3)."""

    char: str
    target: str
    skill: str

    TEXT = "harm {char} -> {target} {skill}"


@dataclass(frozen=True, slots=True)
class Advantage(Action):
    """Create an Advantage on ``target`` with a ``skill`` check (category 2)."""

    char: str
    skill: str
    target: str

    TEXT = "advantage {char} {skill} -> {target}"


@dataclass(frozen=True, slots=True)
class Trick(Action):
    """Create an Advantage on ``target`` without a check (``impair``: +1; a scenario trick: +1 or
    +2) (category 2)."""

    char: str
    trick: str
    target: str

    TEXT = "trick {char} {trick} -> {target}"


@dataclass(frozen=True, slots=True)
class Assist(Action):
    """Assist ``ally``'s next roll with the major levels of Bond (category 2)."""

    char: str
    ally: str

    TEXT = "assist {char} -> {ally}"


@dataclass(frozen=True, slots=True)
class Remove(Action):
    """Try to remove an enemy Advantage (``adv#n``) (category 2)."""

    char: str
    advantage: str

    TEXT = "remove {char} {advantage}"


@dataclass(frozen=True, slots=True)
class Ritual(Action):
    """Work on the scenario's ritual (do something else, category 2)."""

    char: str

    TEXT = "ritual {char}"


@dataclass(frozen=True, slots=True)
class Parley(Action):
    """Try to convince ``target`` to stand down (do something else, category 2)."""

    char: str
    target: str

    TEXT = "parley {char} -> {target}"


@dataclass(frozen=True, slots=True)
class Cast(Action):
    """Complete a Spell or Technique on ``target`` (category 4)."""

    char: str
    spell: str
    target: str

    TEXT = "cast {char} {spell} -> {target}"


@dataclass(frozen=True, slots=True)
class Dash(Action):
    """Move far: ``shift`` heights in all (free 2 + up to 5) (category 5). ``mode``: ``free`` (not
    engaged), ``check`` (an Acrobatics/Coordination check) or ``break`` (no check; enemies within
    2 heights attack)."""

    char: str
    shift: int
    mode: str = "free"

    TEXT = "dash {char} {shift:+}[ {mode}]"


@dataclass(frozen=True, slots=True)
class TieChoice(Action):
    """A tied check: ``succeed`` with a consequence or ``fail`` with an opportunity."""

    char: str
    choice: str

    TEXT = "tie {char} {choice}"


@dataclass(frozen=True, slots=True)
class Reroll(Action):
    """Sacrifice a minor level of Bond with ``partner`` to reroll a failed check."""

    char: str
    partner: str

    TEXT = "reroll {char} with {partner}"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Keep the failed check."""

    char: str

    TEXT = "accept {char}"


@dataclass(frozen=True, slots=True)
class Proceed(Action):
    """A category begins: ``side`` changes no (more) plans into it."""

    side: str

    TEXT = "proceed {side}"


#: Every action's text, in the order they are read (``str(action)`` writes them).
ACTIONS = ActionTable(
    "conflict", Plan, Replan, Hold, Stand, Harm, Advantage, Trick, Assist, Remove, Ritual, Parley,
    Cast, Dash, TieChoice, Reroll, Accept, Proceed,
)


def parse_action(text: str) -> Action:
    """The action whose text form is ``text``; :class:`IllegalActionError` if none."""
    return ACTIONS.parse(text)
