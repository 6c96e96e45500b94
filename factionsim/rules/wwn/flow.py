"""Decisions in the middle of a rule: continuation steps that can stop and ask a faction.

Some rules need a faction's choice half-way through (reroll this check with Just As Planned? let
Useful Idiots take the blow? pay the Healers?). A rule written as a chain of *steps* can stop at
such a point with :func:`ask`: the game moves to the ``react`` phase, the asked faction sees the
options as ordinary legal actions (always with ``decline``), and its answer resumes the chain at
the named step. Everything a step needs travels in ``args`` (plain data), so a game saved
mid-chain continues exactly.

:func:`run` starts a chain from a decision phase and remembers that phase: when the chain ends
without a pending question, the game returns to it.

>>> STEPS["noop"] = lambda state, args, events: None
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from factionsim.core.game import Action, Event

if TYPE_CHECKING:
    from .state import WwnState

REACT = "react"

Step = Callable[["WwnState", dict[str, Any], list[Event]], None]
STEPS: dict[str, Step] = {}


def step(name: str) -> Callable[[Step], Step]:
    """Register a continuation step under ``name``."""

    def wrap(fn: Step) -> Step:
        STEPS[name] = fn
        return fn

    return wrap


def call(state: WwnState, name: str, args: dict[str, Any], events: list[Event]) -> None:
    STEPS[name](state, args, events)


def ask(state: WwnState, actor: str, options: list[Action], then: str, args: dict[str, Any]) -> None:
    """Stop the chain: ``actor`` chooses one of ``options`` (or ``decline``); ``then`` resumes
    with ``args["choice"]`` set to the text of the choice."""
    state.ctx["ask"] = {"actor": actor, "options": [str(o) for o in options], "then": then,
                        "args": args, "back": [state.phase, state.actor]}
    state.phase = REACT
    state.actor = actor


def asking(state: WwnState) -> bool:
    return "ask" in state.ctx


def answer(state: WwnState, choice: Action, events: list[Event]) -> None:
    """Apply the asked faction's choice and run the chain on."""
    pending = state.ctx.pop("ask")
    state.phase, state.actor = pending["back"]
    call(state, pending["then"], {**pending["args"], "choice": str(choice)}, events)
    _maybe_finish(state)


def run(state: WwnState, fn: Callable[..., None], *args: Any) -> None:
    """Run ``fn(*args)`` as a chain started from the current decision phase; return to that phase
    when the chain is over (now, or after the questions it asks)."""
    state.ctx.setdefault("resume", []).append([state.phase, state.actor])
    fn(*args)
    _maybe_finish(state)


def _maybe_finish(state: WwnState) -> None:
    if not asking(state) and state.ctx.get("resume"):
        state.phase, state.actor = state.ctx["resume"].pop()
