"""Play a campaign forward: the loop every command builds on.

>>> from factionsim import load_campaign
>>> from factionsim.configs import default_campaign_path
>>> state = load_campaign(default_campaign_path())
>>> events = play(state, turns=1)
>>> state.turn, events[0].kind
(1, 'initiative')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from factionsim.agents import Agent, make_agent
from factionsim.core.game import CampaignError, Event


def agents_from_campaign(state: Any, overrides: dict[str, str] | None = None,
                         source: Any = None) -> dict[str, Agent]:
    """One agent per faction, as the campaign names them (``agent:`` and ``agent_options:``).

    A faction whose agent cannot be made (a ``policy:PATH`` with no model file, say) or cannot
    play this campaign (an agent's ``check_fits(state)``: a trained policy whose spaces differ)
    raises :class:`CampaignError` naming the campaign file ``source`` (when given) and the
    faction (by id: the rulesets keep their factions under different fields)."""
    overrides = overrides or {}
    agents: dict[str, Agent] = {}
    for fid, f in state.factions.items():
        name = overrides.get(fid, f.agent)
        agents[fid] = agent_for_campaign(state, fid, name, f.agent_options, source)
    return agents


def agent_for_campaign(state: Any, faction: str, name: str, options: dict[str, Any],
                       source: Any = None) -> Agent:
    """``make_agent(name, **options)`` checked against the campaign (see
    :func:`agents_from_campaign`); errors name ``source`` and ``faction``."""
    try:
        agent = make_agent(name, **options)
        fits = getattr(agent, "check_fits", None)  # agents bound to a campaign's spaces
        if fits is not None:
            fits(state)
        return agent
    except CampaignError as exc:
        where = f"{source}: " if source else ""
        raise CampaignError(f"{where}faction {faction!r}: {exc}") from exc


def agent_rng(state: Any) -> np.random.Generator:
    """The generator agents draw from during the next turn.

    It is derived from the campaign seed and the turn number, so playing two turns at once or
    one turn, saving, loading and playing another gives the same choices.
    """
    return np.random.default_rng([int(state.seed or 0), int(state.turn), 0xFAC7])


def play(state: Any, turns: int, agents: dict[str, Agent] | None = None,
         on_turn: Callable[[int], None] | None = None,
         on_decision: Callable[[str, Any, Any], None] | None = None) -> list[Event]:
    """Play ``turns`` full turns (or until the game is over); return every event.

    ``on_turn(turn)`` is called after each completed turn (progress bars), ``on_decision(faction,
    action, agent)`` after each decision (explanations, GM logs). An agent with a
    ``last_reason`` explains each decision: an ``Event(turn, "decision", faction, {"action": ...,
    "reason": ...})`` precedes the events that decision caused.
    """
    agents = agents or agents_from_campaign(state)
    target = state.turn + turns
    events: list[Event] = []
    rng = agent_rng(state)
    while state.turn < target and not state.is_over():
        turn_before = state.turn
        actor = state.current_actor()
        if actor is None:
            break
        advance = getattr(state, "advance", None)
        if advance is not None:  # automatic steps before this decision come first
            events.extend(advance())
        action = agents[actor].act(state.view(actor), state.legal_actions(), rng)
        reason = getattr(agents[actor], "last_reason", None)
        if reason:  # the agent explains itself (heuristic, planner): before what it caused
            events.append(Event(getattr(state, "current_turn", state.turn), "decision", actor,
                                {"action": str(action), "reason": reason}))
        pending = getattr(agents[actor], "pending_events", None)  # e.g. GM vetoes (agents/manual.py)
        if pending:
            events.extend(pending)
            pending.clear()
        events.extend(state.apply(action))
        if on_decision is not None:
            on_decision(actor, action, agents[actor])
        if state.turn != turn_before:
            rng = agent_rng(state)
            if on_turn is not None:
                on_turn(state.turn)
    return events


def event_lines(events: Iterable[Event]) -> Iterable[str]:
    """The event log as JSON lines (stable key order)."""
    import json

    for e in events:
        yield json.dumps(e.to_dict(), separators=(",", ":"), ensure_ascii=False)
