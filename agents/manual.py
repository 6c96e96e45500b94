"""The game master at the table: a faction played by hand, and a GM's review of any agent's plans.

``ManualAgent`` (``agent: manual`` in a campaign file) asks the GM for every decision of its
faction: it prints the legal actions, numbered, and reads a number or an action's text form
(``attack infantry#3 -> silver-guild``). ``GmReview`` wraps another agent (``factionsim turn
--interactive``): it shows the planned action and the agent's one-line reason, and the GM accepts
it, asks for another plan, or types the action. A plan the GM turns down is recorded as a
``gm-veto`` event (``pending_events``, collected by :func:`factionsim.runner.play`).

The GM is asked only where there is a real choice: a decision with one legal action is taken
without a prompt, and so (unless ``ask_always``) is a plan to do nothing more (``done``, ``keep
goal``: see :data:`QUIET`). Each prompt starts with the faction's sheet in one line (HP,
Treasure, goal and progress: the ruleset's ``faction_line``), and every action shown carries the
ruleset's note on it (cost, stats, odds: ``Presentation.note``); the command that plays the turn
gives the agents the campaign's :class:`Table`.

Input and output streams are injectable (tests drive them with ``io.StringIO``); by default they
are ``sys.stdin`` / ``sys.stdout`` at the time of the call.

>>> import io
>>> out = io.StringIO()
>>> agent = ManualAgent(input=io.StringIO("2\\n"), output=out)
>>> agent.act(None, ["done", "hide x#1"], None)
'hide x#1'
>>> agent.act(None, ["done"], None)  # no choice: no prompt
'done'
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from factionsim.core.game import Agent, Event, FactionsimError, GameState, View
from factionsim.core.presentation import Presentation

HELP = ("  a / Enter  accept the plan\n"
        "  r          ask the agent for another plan\n"
        "  e ACTION   enter the action yourself (its text form or its number in the list)\n"
        "  l          list the legal actions\n"
        "  t          accept every plan of this faction for the rest of its turn\n"
        "  ?          this help")


#: plans that do nothing more (end a step, keep the goal): accepted without asking the GM
QUIET = frozenset({"done", "keep goal"})


class GmInputEnded(FactionsimError):
    """The GM's input ended (end of file) before a decision was made."""


def _describe(view: View | None) -> tuple[str, str, int | None]:
    """``(faction name, phase, turn being played)`` of a view (``None``: a bare prompt)."""
    if view is None:
        return "?", "", None
    return view.faction.name, str(view.phase), view.current_turn


class Table:
    """What the GM is shown at a prompt, from the campaign's ruleset's ``present``
    (:class:`~factionsim.core.presentation.Presentation`) and the campaign ``state`` being
    played (the GM's: the whole of it; ``None`` for either: names and actions only). The
    command that plays the turn sets it (``agent.table``)."""

    def __init__(self, present: Presentation | None = None, state: GameState | None = None):
        self.present = present
        self.state = state

    def sheet(self, view: View | None) -> str:
        """The deciding faction in one line (HP, Treasure, goal and progress), as ``turn``
        prints it."""
        if view is None:
            return "?"
        if self.present is None or self.state is None:
            return str(view.faction.name)
        return self.present.faction_line(self.state, view.faction_id)

    def with_note(self, view: View | None, action: Any) -> str:
        """``action`` and, in brackets, the ruleset's note on it (cost, stats, odds)."""
        text = self.present.note(self.state, action) \
            if view is not None and self.present and self.state is not None else ""
        return f"{action}  [{text}]" if text else str(action)


def match_action(text: str, legal: list[Any]) -> Any | None:
    """The legal action whose text form (or 1-based number in the list) is ``text``."""
    text = " ".join(text.split())
    if text.isdigit() and 1 <= int(text) <= len(legal):
        return legal[int(text) - 1]
    for a in legal:
        if str(a) == text:
            return a
    lowered = [a for a in legal if str(a).lower() == text.lower()]
    return lowered[0] if len(lowered) == 1 else None


class _Console:
    def __init__(self, input: TextIO | None, output: TextIO | None):
        self._in, self._out = input, output
        self.table = Table()

    @property
    def out(self) -> TextIO:
        return self._out or sys.stdout

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = (self._in or sys.stdin).readline()
        if not line:
            raise GmInputEnded("the GM's input ended before the decision was made; the campaign "
                               "file was not changed.")
        return line.strip()

    def list_actions(self, legal: list[Any], view: View | None = None) -> None:
        for i, a in enumerate(legal, 1):
            self.say(f"  {i:3d}. {self.table.with_note(view, a)}")


class ManualAgent(Agent):
    """Every decision of the faction is the GM's."""

    name = "manual"

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None, **options: Any):
        self.console = _Console(input, output)
        self.last_reason: str | None = None

    @property
    def table(self) -> Table:
        return self.console.table

    @table.setter
    def table(self, value: Table) -> None:
        self.console.table = value

    def act(self, view: Any, legal_actions: list[Any], rng: Any) -> Any:
        name, phase, turn = _describe(view)
        c = self.console
        if len(legal_actions) == 1:  # no choice to make: nothing to ask, nothing to explain
            self.last_reason = None
            return legal_actions[0]
        c.say(f"\nTurn {turn}, {c.table.sheet(view)}" if turn is not None else f"\n{name}:")
        c.say(f"  {phase}: your decision.")
        c.list_actions(legal_actions, view)
        while True:
            answer = c.ask("action (number or text, l to list)> ")
            if answer in ("l", "?", ""):
                c.list_actions(legal_actions, view)
                continue
            action = match_action(answer, legal_actions)
            if action is not None:
                self.last_reason = "chosen by the GM"
                return action
            c.say(f"  '{answer}' is not one of the legal actions; type its number or text (l lists).")


class GmReview(Agent):
    """Wraps an agent: the GM sees each plan with its reason and accepts, re-plans or overrides."""

    def __init__(self, inner: Agent, input: TextIO | None = None, output: TextIO | None = None,
                 ask_always: bool = False):
        self.inner = inner
        self.ask_always = ask_always
        self.name = f"gm-review({inner.name})"
        self.console = _Console(input, output)
        self.pending_events: list[Event] = []
        self.last_reason: str | None = None
        self._trust: tuple[Any, Any] | None = None

    table = ManualAgent.table

    def act(self, view: Any, legal_actions: list[Any], rng: Any) -> Any:
        plan = self.inner.act(view, legal_actions, rng)
        reason = self.inner.last_reason
        self.last_reason = reason
        name, phase, turn = _describe(view)
        # this faction turn (or defence), where the ruleset plays factions in turn order
        slot = (turn, view.order_index if view is not None else None)
        if self._trust == slot or len(legal_actions) == 1 or (
                str(plan) in QUIET and not self.ask_always):
            return plan  # trusted, no choice, or nothing more to do: no prompt
        first_plan, first_reason = plan, reason
        rejected: list[Any] = []
        c = self.console
        c.say(f"\nTurn {turn}, {c.table.sheet(view)}" if turn is not None else f"\n{name}:")
        c.say(f"  {phase} step, plans: {c.table.with_note(view, plan)}"
              + (f"\n  reason: {reason}" if reason else "\n  reason: (the agent gives none)"))
        how = ""
        while True:
            answer = c.ask("[a]ccept, [r]e-plan, [e]nter action, [l]ist, [t]rust rest of turn, ?> ")
            word, _, rest = answer.partition(" ")
            word = word.lower()
            if word in ("", "a", "accept", "y", "yes"):
                break
            if word in ("t", "trust"):
                self._trust = slot
                break
            if word in ("?", "h", "help"):
                c.say(HELP)
                continue
            if word in ("l", "list"):
                c.list_actions(legal_actions, view)
                continue
            if word in ("r", "re-plan", "replan"):
                rejected.append(plan)
                remaining = [a for a in legal_actions if a not in rejected]
                if not remaining:
                    c.say("  no other legal action is left; enter one from the list or accept.")
                    rejected.pop()
                    continue
                plan = self.inner.act(view, remaining, rng)
                reason = self.inner.last_reason
                how = "re-planned"
                c.say(f"  new plan: {c.table.with_note(view, plan)}"
                      + (f"\n  reason: {reason}" if reason else ""))
                continue
            text = rest if word in ("e", "enter") else answer
            if not text:
                c.list_actions(legal_actions, view)
                text = c.ask("action (number or text)> ")
            action = match_action(text, legal_actions)
            if action is None:
                c.say(f"  '{text}' is not a legal action now; l lists them.")
                continue
            plan, reason, how = action, "entered by the GM", "entered"
            break
        if plan != first_plan:
            self.pending_events.append(Event(turn or 0, "gm-veto", view.faction_id if view else None, {
                "planned": str(first_plan), "reason": first_reason or "", "chosen": str(plan),
                "how": how or "entered"}))
        self.last_reason = reason
        return plan
