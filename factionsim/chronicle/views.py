"""Who may see what, for every output: the campaign data and the events of an audience
(``"gm"``: everything; ``"players"``: what the rules make public), from the ruleset's
:class:`~factionsim.core.visibility.Visibility` (``RulesetInfo.visibility``).

The report, the chronicles, ``show --players``, ``events --players``, the Foundry export and the
faction sheets all go through :func:`visible_frame` and :func:`visible_events`; what each
ruleset keeps from the players is in its ``visibility`` module and its page of the docs.

>>> from factionsim.core.game import Event
>>> before = {"ruleset": "wwn", "factions": [{"id": "a", "treasure": 5, "assets": [
...     {"id": 4, "type": "thugs", "location": "x", "hp": 1, "stealth": True}]}]}
>>> visible_frame(before, "players")["factions"]
[{'id': 'a', 'assets': []}]
>>> evs = [Event(1, "hide", "a", {"asset": "spy#4", "cost": 2}),
...        Event(1, "move", "a", {"asset": "spy#4", "from": "x", "to": "y"}),
...        Event(1, "income", "a", {"amount": 3, "treasure": 5})]
>>> visible_events("wwn", evs, "players", before)
[]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from factionsim.core.game import Event
from factionsim.core.names import Names
from factionsim.core.visibility import Visibility, check_audience
from factionsim.rulesets import get_ruleset

from .markdown import story_markdown
from .story import stories

__all__ = ["recorded_data", "render_turn", "visibility", "visible_events", "visible_frame"]


def recorded_data(history: Any, turn: int, strict: bool = False) -> dict[str, Any] | None:
    """The campaign data after ``turn`` as the rules hold it (the history's snapshot loaded and
    written back, so a hand-written first snapshot reads like the rest); ``None`` when the
    history has no snapshot of that turn. A snapshot that does not load is a
    :class:`~factionsim.core.game.CampaignError` naming it when ``strict`` (the report, the
    sheets: they read one shape of data only), else its raw data (``redo``'s chronicle block)."""
    from factionsim.core.game import CampaignError
    from factionsim.rulesets import load_campaign

    text = history.snapshot(turn)
    if not text:
        return None
    try:
        return load_campaign(history.snapshot_path(turn), text).to_dict()
    except CampaignError:
        if strict:
            raise
        return history.snapshot_data(turn)


def visibility(ruleset: str) -> Visibility:
    """The ruleset's notion of what the players may know."""
    return get_ruleset(ruleset).visibility


def visible_frame(data: dict[str, Any], audience: str) -> dict[str, Any]:
    """Campaign data (a frame: the file's data or a turn's snapshot) as ``audience`` knows it."""
    return visibility(data["ruleset"]).visible_frame(data, audience)


def visible_events(ruleset: str, events: Iterable[Event], audience: str,
                   before: dict[str, Any] | None = None) -> list[Event]:
    """The events ``audience`` may know of, ``before`` being the GM's campaign data when they
    begin (a turn's snapshot before it)."""
    return visibility(ruleset).visible_events(events, audience, before)


def render_turn(events: list[Event], names: Names, audience: str = "gm",
                before: dict[str, Any] | None = None) -> str:
    """One turn (or several) of the chronicle of ``audience``, as markdown without the title
    line. ``events`` are the GM's (all of them); ``before`` the GM's campaign data before them."""
    check_audience(audience)
    shown = visible_events(names.ruleset, events, audience, before) if names.ruleset else events
    frame = visible_frame(before, audience) if before and names.ruleset else before
    return "\n".join(story_markdown(s) for s in stories(shown, replace(names, notes=()),
                                                           audience, frame))
