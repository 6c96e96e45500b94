"""The rulesets factionsim plays: one package each (``wwn``, ``houses``, ``engagements``,
``conflict``), whose ``__init__`` declares it in one :class:`~factionsim.core.ruleset.RulesetInfo`
(``RULESET``); :mod:`factionsim.rulesets` lists them.

The agents that play any ruleset are declared here, for the rulesets to offer
(``agents=(RANDOM, IDLE, ..., MANUAL)``); each ruleset adds its own (a heuristic...).
"""

from __future__ import annotations

from factionsim.core.game import Agent
from factionsim.core.ruleset import AgentSpec


def _random() -> type[Agent]:
    from factionsim.agents.simple import RandomAgent

    return RandomAgent


def _idle() -> type[Agent]:
    from factionsim.agents.simple import IdleAgent

    return IdleAgent


def _manual() -> type[Agent]:
    from factionsim.agents.manual import ManualAgent

    return ManualAgent


RANDOM = AgentSpec("random", "picks uniformly among the legal actions (a baseline)", _random)
IDLE = AgentSpec("idle", "does nothing it can avoid (a baseline)", _idle)
MANUAL = AgentSpec("manual", "asks the GM at the terminal for every decision", _manual)
