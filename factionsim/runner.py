"""Play a campaign forward: the loop every command builds on (:func:`play`, one decision at a
time: :func:`decide`), and what many independent games share (:class:`CampaignTemplate`).

>>> from factionsim import load_campaign
>>> from factionsim.configs import default_campaign_path
>>> state = load_campaign(default_campaign_path())
>>> events = play(state, turns=1)
>>> state.turn, events[0].kind
(1, 'initiative')
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from factionsim.agents import make_agent
from factionsim.core.dice import reseed, seeded_dice
from factionsim.core.game import Agent, CampaignError, Event, GameState
from factionsim.core.ruleset import DEFAULT_RULESET


def agents_from_campaign(state: GameState, overrides: dict[str, str] | None = None,
                         source: Any = None) -> dict[str, Agent]:
    """One agent per faction, as the campaign names them (``agent:`` and ``agent_options:``; a
    faction that names none is played by :data:`~factionsim.core.ruleset.DEFAULT_AGENT`), each
    the implementation for the state's ruleset.

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


def agent_for_campaign(state: GameState, faction: str, name: str, options: dict[str, Any],
                       source: Any = None) -> Agent:
    """``make_agent(name, state.ruleset, **options)`` checked against the campaign
    (:meth:`Agent.check_fits <factionsim.core.game.Agent.check_fits>`: a trained policy plays only
    the spaces it was trained on); errors name ``source`` (when given) and ``faction``."""
    try:
        agent = make_agent(name, state.ruleset, **options)
        agent.check_fits(state)
        return agent
    except CampaignError as exc:
        where = f"{source}: " if source else ""
        raise CampaignError(f"{where}faction {faction!r}: {exc}") from exc


def check_campaign_players(state: GameState, data: Mapping[str, Any], lines: Mapping[Any, int],
                           source: str) -> None:
    """What ``validate`` checks beyond loading (which checks agent names and options only, and
    loads no model): every faction's agent is made and can play this campaign (a policy file
    loads, a pickled one only with ``--trust-model``, and fits the campaign's spaces). Raises
    :class:`CampaignError` naming the file ``source``, the line and the field (``data`` and
    ``lines`` as :func:`~factionsim.core.campaign.load_campaign_data` read them)."""
    from factionsim.core.campaign import FieldChecker
    from factionsim.rulesets import ruleset_of

    field = ruleset_of(state).faction_field
    entries = data.get(field) or []
    ids = [entry.get("id") if isinstance(entry, Mapping) else None for entry in entries]
    for fid, f in state.factions.items():
        try:
            agent_for_campaign(state, fid, f.agent, f.agent_options)
        except CampaignError as exc:
            path = (field, ids.index(fid), "agent") if fid in ids else (field,)
            raise CampaignError(f"{FieldChecker(source, lines).where(path)}: {exc}") from None


def agent_rng(state: GameState) -> np.random.Generator:
    """The generator agents draw from during the next turn.

    It is derived from the campaign seed and the turn number, so playing two turns at once or
    one turn, saving, loading and playing another gives the same choices.
    """
    return seeded_dice(int(state.seed or 0), int(state.turn), 0xFAC7)[1]


def decide(state: GameState, agents: dict[str, Agent], rng: np.random.Generator,
           events: list[Event], on_events: Callable[[list[Event]], None] | None = None
           ) -> tuple[str, Any] | None:
    """One decision: the automatic steps up to it, the deciding faction's agent's choice (with
    its reason, when it gives one, and the events it asks to record first, e.g. GM vetoes), and
    what the choice caused, all appended to ``events``. Returns ``(faction, action)``, or
    ``None`` when nobody decides (the game is over). ``on_events`` is given the automatic
    steps' events before the agent is asked, then the rest once the choice is applied."""
    actor = state.current_actor()
    if actor is None:
        return None
    seen = len(events)
    events.extend(state.advance())  # automatic steps before this decision come first
    if on_events is not None and len(events) > seen:
        on_events(events[seen:])
    seen = len(events)
    agent = agents[actor]
    action = agent.act(state.view(actor), state.legal_actions(), rng)
    if agent.last_reason:  # the agent explains itself (heuristic, planner): before what it caused
        events.append(Event(state.current_turn, "decision", actor,
                            {"action": str(action), "reason": agent.last_reason}))
    pending = agent.pending_events  # e.g. GM vetoes (agents/manual.py)
    if pending:
        events.extend(pending)
        pending.clear()
    events.extend(state.apply(action))
    if on_events is not None and len(events) > seen:
        on_events(events[seen:])
    return actor, action


def play(state: GameState, turns: int, agents: dict[str, Agent] | None = None,
         on_turn: Callable[[int], None] | None = None,
         on_decision: Callable[[str, Any, Any], None] | None = None,
         on_events: Callable[[list[Event]], None] | None = None) -> list[Event]:
    """Play ``turns`` full turns (or until the game is over); return every event.

    ``on_turn(turn)`` is called after each completed turn (progress bars), ``on_decision(faction,
    action, agent)`` after each decision (explanations, GM logs), ``on_events(events)`` with the
    events of each decision as they happen (a GM watching at the table). An agent with a
    ``last_reason`` explains each decision: an ``Event(turn, "decision", faction, {"action": ...,
    "reason": ...})`` precedes the events that decision caused (see :func:`decide`).
    """
    agents = agents or agents_from_campaign(state)
    target = state.turn + turns
    events: list[Event] = []
    rng = agent_rng(state)
    while state.turn < target and not state.is_over():
        turn_before = state.turn
        decided = decide(state, agents, rng, events, on_events)
        if decided is None:
            break
        if on_decision is not None:
            on_decision(decided[0], decided[1], agents[decided[0]])
        if state.turn != turn_before:
            rng = agent_rng(state)
            if on_turn is not None:
                on_turn(state.turn)
    return events


def finish_turn(state: GameState, agents: dict[str, Agent]) -> list[Event]:
    """Play the turn in progress to its end although the game is over (a faction collapsed
    mid-turn), so that a saved campaign is between turns; returns its events."""
    events: list[Event] = []
    rng = agent_rng(state)
    start = state.turn
    while state.turn == start and decide(state, agents, rng, events) is not None:
        pass
    return events


@dataclass(frozen=True)
class CampaignTemplate:
    """A campaign parsed once (its state class and ``to_dict()``), from which workers build
    fresh games: what a tournament or batch sends to each worker instead of the file."""

    state_class: type[GameState]
    data: dict[str, Any]

    @classmethod
    def load(cls, campaign: str | os.PathLike[str] | None, ruleset: str = DEFAULT_RULESET
             ) -> CampaignTemplate:
        """The campaign file ``campaign`` (default: ``ruleset``'s bundled campaign)."""
        from factionsim.rulesets import get_ruleset, load_campaign

        state = load_campaign(campaign if campaign else get_ruleset(ruleset).default_campaign_path())
        return cls(type(state), state.to_dict())

    def new_game(self, seed: int, game: int) -> GameState:
        """A fresh state whose dice come from ``(seed, game)`` (:func:`seeded_dice`): game ``g``
        of master seed ``s`` is the same game whichever worker plays it."""
        state = self.state_class.from_dict(self.data)
        reseed(state, seed, game)
        return state


def turns_to_play(state: GameState, turns: int | None, default: int) -> int:
    """How many turns a game of ``state`` lasts: ``turns`` when given, else what is left of the
    campaign's own ``max_turns``, else ``default``."""
    if turns is not None:
        return turns
    if state.max_turns is not None:
        return max(0, state.max_turns - state.turn)
    return default


def event_lines(events: Iterable[Event]) -> Iterable[str]:
    """The event log as JSON lines (stable key order)."""
    import json

    for e in events:
        yield json.dumps(e.to_dict(), separators=(",", ":"), ensure_ascii=False)
