"""The registry: every ruleset factionsim plays, by the name campaign files give it
(``ruleset: wwn``), and loading a campaign through it.

Each ruleset package declares itself in one :class:`~factionsim.core.ruleset.RulesetInfo`
(``factionsim.rules.<name>.RULESET``); adding a ruleset is a new package and one entry in
:data:`RULESETS`. The CLI, the environment, tournaments, batches, reports and the chronicle
look rulesets up here.

>>> sorted(RULESETS)
['conflict', 'engagements', 'houses', 'wwn']
>>> get_ruleset("houses").faction_field
'houses'
>>> [a for a in get_ruleset("houses").offered_agents()]
['random', 'idle', 'heuristic', 'manual', 'policy', 'trained']
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from factionsim.core.campaign import FieldChecker, check_resumable, load_campaign_data
from factionsim.core.game import CampaignError, FactionsimError, GameState
from factionsim.core.ruleset import DEFAULT_AGENT, DEFAULT_RULESET, RulesetInfo, agent_problem
from factionsim.rules import conflict, engagements, houses, wwn

#: name -> descriptor, in the order they are listed to a user.
RULESETS: dict[str, RulesetInfo] = {info.name: info for info in (
    wwn.RULESET,
    houses.RULESET,
    engagements.RULESET,
    conflict.RULESET,
)}

__all__ = ["DEFAULT_RULESET", "RULESETS", "UnknownRulesetError", "build_campaign", "check_campaign_agents",
           "get_ruleset", "load_campaign", "ruleset_of"]


class UnknownRulesetError(FactionsimError, ValueError):
    """A ruleset name that is not registered."""


def get_ruleset(name: str | RulesetInfo) -> RulesetInfo:
    """The descriptor of ruleset ``name`` (a descriptor is returned as it is)."""
    if isinstance(name, RulesetInfo):
        return name
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise UnknownRulesetError(f"unknown ruleset {name!r}; available: "
                                  f"{', '.join(RULESETS)}") from None


def ruleset_of(state: GameState) -> RulesetInfo:
    """The descriptor of a game state's ruleset."""
    return RULESETS[state.ruleset]


def load_campaign(path: str | os.PathLike[str], text: str | None = None) -> GameState:
    """Load, validate and build the game state of a campaign file (of its ``text`` when given:
    commands that write the file read it once, under its lock).

    Dispatches on the file's ``ruleset`` field; the ruleset's ``validate`` checks the data, then
    every faction's ``agent`` and ``agent_options`` are checked against the agents the ruleset
    offers (:func:`check_campaign_agents`). Raises :class:`CampaignError` (one paragraph: file,
    field path, line, value, what is allowed).
    """
    source = str(path)
    data, lines = load_campaign_data(path, list(RULESETS), text)
    return build_campaign(data, lines, source)


def build_campaign(data: Mapping[str, Any], lines: Mapping[Any, int], source: str) -> GameState:
    """The game state of campaign data already read (``data`` and its field ``lines``, as
    :func:`~factionsim.core.campaign.load_campaign_data` gives them), checked as
    :func:`load_campaign` checks a file (a turn saved in progress must be able to go on:
    :func:`~factionsim.core.campaign.check_resumable`); ``source`` names it in errors."""
    name = data.get("ruleset")
    if not isinstance(name, str) or name not in RULESETS:
        line = lines.get(("ruleset",), 1)
        shown = repr(name) if len(repr(name)) <= 60 else repr(name)[:57] + "..."
        got = "missing" if "ruleset" not in data else f"unknown ruleset {shown}"
        raise CampaignError(
            f"{source}, line {line}, ruleset: {got}; allowed: {', '.join(sorted(RULESETS))}."
        )
    info = RULESETS[name]
    normalized = info.validate(data, source=source, lines=lines)
    check_campaign_agents(info, data, source, lines)
    state = info.state_class.from_dict(normalized)
    if "in_progress" in normalized:
        check_resumable(state, f"{source}, line {lines.get(('in_progress',), '?')}, in_progress")
    return state


def check_campaign_agents(info: RulesetInfo, data: Mapping[str, Any], source: str,
                          lines: Mapping[Any, int]) -> None:
    """Every faction's agent is one the ruleset offers, with options that agent takes (a
    faction with no ``agent`` is played by :data:`~factionsim.core.ruleset.DEFAULT_AGENT`), and
    every option that names a faction names another faction of the campaign; raises
    :class:`CampaignError` naming the file, line and field otherwise."""
    where = FieldChecker(source, lines)
    offered = info.offered_agents()
    entries = data.get(info.faction_field) or []
    ids = [e.get("id") for e in entries if isinstance(e, Mapping)]
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            continue
        options = entry.get("agent_options")
        problem = agent_problem(entry.get("agent", DEFAULT_AGENT), {} if options is None else options,
                                offered, info.name, ids, entry.get("id"))
        if problem is not None:
            field, message = problem
            raise CampaignError(f"{where.where((info.faction_field, i, *field))}: {message}.")
