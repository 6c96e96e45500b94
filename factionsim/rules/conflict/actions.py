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

from factionsim.core.game import Action, ActionTable, action


@action
class Plan(Action):
    """Before the round: ``char`` intends an action of ``category`` (its initiative category)."""

    TEXT = "plan {char} {category}"


@action
class Replan(Action):
    """``char`` changes its plan: at its turn, to a later category (it acts then); when a
    category begins, from a later one to this one (it acts in this category)."""

    TEXT = "replan {char} {category}"


@action
class Hold(Action):
    """Free movement of ``shift`` heights and no action."""

    shift: int

    TEXT = "hold {char} {shift:+}"


@action
class Stand(Action):
    """Stand ground (category 1) after a free move of ``shift`` heights."""

    shift: int

    TEXT = "stand {char} {shift:+}"


@action
class Harm(Action):
    """Attack ``target`` with ``skill`` (category 3)."""

    TEXT = "harm {char} -> {target} {skill}"


@action
class Advantage(Action):
    """Create an Advantage on ``target`` with a ``skill`` check (category 2)."""

    TEXT = "advantage {char} {skill} -> {target}"


@action
class Trick(Action):
    """Create an Advantage on ``target`` without a check (``impair``: +1; a scenario trick: +1 or
    +2) (category 2)."""

    TEXT = "trick {char} {trick} -> {target}"


@action
class Assist(Action):
    """Assist ``ally``'s next roll with the major levels of Bond (category 2)."""

    TEXT = "assist {char} -> {ally}"


@action
class Remove(Action):
    """Try to remove an enemy Advantage (``adv#n``) (category 2)."""

    TEXT = "remove {char} {advantage}"


@action
class Ritual(Action):
    """Work on the scenario's ritual (do something else, category 2)."""

    TEXT = "ritual {char}"


@action
class Parley(Action):
    """Try to convince ``target`` to stand down (do something else, category 2)."""

    TEXT = "parley {char} -> {target}"


@action
class Cast(Action):
    """Complete a Spell or Technique on ``target`` (category 4)."""

    TEXT = "cast {char} {spell} -> {target}"


@action
class Dash(Action):
    """Move far: ``shift`` heights in all (free 2 + up to 5) (category 5). ``mode``: ``free`` (not
    engaged), ``check`` (an Acrobatics/Coordination check) or ``break`` (no check; enemies within
    2 heights attack)."""

    shift: int
    mode: str = "free"

    TEXT = "dash {char} {shift:+}[ {mode}]"


@action
class TieChoice(Action):
    """A tied check: ``succeed`` with a consequence or ``fail`` with an opportunity."""

    TEXT = "tie {char} {choice}"


@action
class Reroll(Action):
    """Sacrifice a minor level of Bond with ``partner`` to reroll a failed check."""

    TEXT = "reroll {char} with {partner}"


@action
class Accept(Action):
    """Keep the failed check."""

    TEXT = "accept {char}"


@action
class Proceed(Action):
    """A category begins: ``side`` changes no (more) plans into it."""

    TEXT = "proceed {side}"


#: Every action's text, in the order they are read (``str(action)`` writes them).
ACTIONS = ActionTable(
    "conflict", Plan, Replan, Hold, Stand, Harm, Advantage, Trick, Assist, Remove, Ritual, Parley,
    Cast, Dash, TieChoice, Reroll, Accept, Proceed,
)


def parse_action(text: str) -> Action:
    """The action whose text form is ``text``; :class:`IllegalActionError` if none."""
    return ACTIONS.parse(text)
