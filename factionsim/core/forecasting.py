"""What a ruleset tells ``factionsim forecast`` and ``factionsim odds`` beyond the engine contract
(:class:`Forecasting`, the descriptor's optional ``forecasting`` field).

A forecast plays many futures of a campaign and counts, in each, what the contract already says
(who is still standing, goals completed, the numbers of the ruleset's charts) and what only the
ruleset knows: which places each faction holds, whether it still holds its headquarters, and
which events are *headlines* worth a probability of their own ("the Iron Legion destroys the
Silver Guild's Base of Influence at Coldvale"). A ruleset without a :class:`Forecasting` is
forecast from the contract alone, its headlines being its presentation's key events per faction
(:func:`key_event_headline`).

>>> from factionsim.core.game import Event
>>> from factionsim.core.names import Names
>>> h = key_event_headline(Event(3, "seized", "house-a", {}), Names({"house-a": "House A"}))
>>> h.key, h.text
('seized|house-a', 'House A: seized')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from factionsim.core.game import Event, GameState
from factionsim.core.names import Names


@dataclass(frozen=True)
class Headline:
    """An event as a forecast counts it: ``key`` is the same in every future where "the same
    thing" happens (no asset numbers, no dice), ``text`` says it to the GM."""

    key: str
    text: str


#: ``choose(state, faction, legal_actions, rng) -> action``: how odds rollouts get a faction's
#: answer to a question asked in the middle of a rule (the campaign's own agents, by default).
Chooser = Callable[[GameState, str, list[Any], Any], Any]


@dataclass(frozen=True)
class Forecasting:
    """A ruleset's answers to the questions of forecasts and odds (every field optional).

    - ``holdings(state)``: faction -> {key: label} of what it holds where, now (WWN:
      ``"base@coldvale": "Base at Coldvale"`` and ``"assets@coldvale": "assets at Coldvale"``);
      a forecast reports the chance each one is gained or lost;
    - ``headquarters(state)``: faction -> whether it holds its headquarters now;
    - ``headline(event, names)``: the :class:`Headline` an event makes, or ``None`` for an event
      that is no headline;
    - ``odds(state, action_text, method=, samples=, seed=, choose=)``: the odds of one action's
      outcomes as plain data, and ``odds_text(result, names)`` that result in words
      (``factionsim odds``); ``choose`` is a :data:`Chooser`.
    """

    holdings: Callable[[GameState], dict[str, dict[str, str]]] | None = None
    headquarters: Callable[[GameState], dict[str, bool]] | None = None
    headline: Callable[[Event, Names], Headline | None] | None = None
    odds: Callable[..., dict[str, Any]] | None = None
    odds_text: Callable[[dict[str, Any], Names], str] | None = None


def key_event_headline(event: Event, names: Names) -> Headline:
    """The headline of a ruleset without its own: the event's kind and faction."""
    who = names.faction(event.faction)
    return Headline(f"{event.kind}|{event.faction or ''}", f"{who}: {event.kind.replace('-', ' ')}")
