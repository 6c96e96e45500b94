"""Players: every agent is ``act(view, legal_actions, rng) -> action``
(:class:`factionsim.core.game.Agent`).

>>> agent = make_agent("random", "wwn")
>>> import numpy as np
>>> agent.act(None, ["a", "b"], np.random.default_rng(0)) in ("a", "b")
True
>>> for part in check_agent("heuristc", {}, "houses").split("; "): print(part)
unknown agent 'heuristc' (did you mean 'heuristic'?)
the houses ruleset offers: heuristic, idle, manual, policy:PATH, random, trained

Agents are named in campaign files (``agent: heuristic``, ``agent_options: {...}``) and on the
command line. Which agents a ruleset offers, and where their code lives, its descriptor says
(``RulesetInfo.agents``); ``make_agent`` picks the implementation for that ruleset when the
agent is made and imports its module only then, so a GM's run never imports torch.
"""

from __future__ import annotations

from typing import Any

from factionsim.core.game import Agent, CampaignError
from factionsim.core.ruleset import RulesetInfo, agent_problem
from factionsim.rulesets import get_ruleset

__all__ = ["Agent", "available_agents", "check_agent", "make_agent"]


def available_agents(ruleset: str | RulesetInfo) -> list[str]:
    """The agents ``ruleset`` offers, as campaign files name them (``policy:PATH``...)."""
    return [spec.usage for spec in get_ruleset(ruleset).agents]


def check_agent(name: Any, options: Any, ruleset: str | RulesetInfo) -> str | None:
    """What is wrong with agent ``name`` and its ``options`` for ``ruleset`` (an unknown agent,
    one the ruleset does not offer, an unknown option, a value not allowed), or ``None``."""
    info = get_ruleset(ruleset)
    problem = agent_problem(name, options, info.offered_agents(), info.name)
    return None if problem is None else problem[1]


def make_agent(name: str, ruleset: str | RulesetInfo, **options: Any) -> Agent:
    """Build the agent called ``name`` (``random``, ``heuristic``, ``policy:PATH``...) for games
    of ``ruleset``, with its options; raises :class:`CampaignError` naming what the ruleset
    offers when it is unknown there or its options are not the agent's."""
    info = get_ruleset(ruleset)
    problem = check_agent(name, options, info)
    if problem is not None:
        raise CampaignError(problem)
    key, _, argument = name.partition(":")
    spec = info.offered_agents()[key]
    if spec.argument is not None:
        options = {**options, spec.argument: argument}
    return spec.load().for_ruleset(info, **options)
