"""The rulesets factionsim plays: one package each (``wwn``, ``houses``, ``engagements``,
``conflict``), whose ``__init__`` declares it in one :class:`~factionsim.core.ruleset.RulesetInfo`
(``RULESET``); :mod:`factionsim.rulesets` lists them.

The agents that play any ruleset are declared here, for the rulesets to offer
(``agents=(RANDOM, IDLE, ..., MANUAL, POLICY, TRAINED)``); each ruleset adds its own (a
heuristic...): :func:`with_heuristic` is that list for a ruleset whose own player is one
rule-of-thumb heuristic. ``POLICY`` and ``TRAINED`` play trained policies through the ruleset's env codec
(``RulesetInfo.codec``), so a ruleset offers them only when it has one.
"""

from __future__ import annotations

from collections.abc import Callable

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


def _policy() -> type[Agent]:
    from factionsim.agents.policy import PolicyAgent

    return PolicyAgent


def _trained() -> type[Agent]:
    from factionsim.agents.policy import TrainedAgent

    return TrainedAgent


RANDOM = AgentSpec("random", "picks uniformly among the legal actions (a baseline)", _random)
IDLE = AgentSpec("idle", "does nothing it can avoid (a baseline)", _idle)
MANUAL = AgentSpec("manual", "asks the GM at the terminal for every decision", _manual)
POLICY = AgentSpec("policy", "a trained policy file (factionsim train writes one), played with numpy",
                   _policy, argument="path")
TRAINED = AgentSpec("trained", "the trained policy shipped with factionsim for the ruleset "
                    "(refused where none ships)", _trained)


def with_heuristic(load: Callable[[], type[Agent]]) -> tuple[AgentSpec, ...]:
    """The agents of a ruleset whose own player is a rule-of-thumb heuristic (``load`` imports
    its class): the baselines, the heuristic, the GM at the terminal and trained policies, in the
    order ``validate`` and the help list them."""
    return (RANDOM, IDLE,
            AgentSpec("heuristic", "plays by simple rules of thumb, explains each decision", load),
            MANUAL, POLICY, TRAINED)
