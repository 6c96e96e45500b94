"""Worlds Without Number factions (chapter 6), the main ruleset.

Modules: ``data`` (asset stat lines, from ``assets.yaml``), ``model`` (factions, assets, goals),
``state`` (the engine contract), ``turn`` (the faction turn as decision points), ``flow``
(decisions asked half-way through a rule), ``checks``, ``combat``, ``movement``, ``economy``,
``goals``, ``tags``, ``abilities`` (the hook points asset abilities use) and ``ability/`` (the
abilities), ``validate`` (campaign files), ``schema`` (their JSON Schema), ``generate``
(``factionsim new``), ``prose`` and ``present`` (chronicle and reports), ``forecast`` and
``odds`` (what ``factionsim forecast`` counts, and the odds of one attack), ``records``
(what a GM records between turns: ``factionsim record``).
"""

from __future__ import annotations

from factionsim.core.game import Agent
from factionsim.core.ruleset import AgentSpec, RulesetInfo, agent_options_schema
from factionsim.rules import IDLE, MANUAL, POLICY, RANDOM, TRAINED

from . import actions, behaviour, forecast, present, prose, records, rumours, schema, validate, visibility
from .state import WwnState


def _heuristic() -> type[Agent]:
    from factionsim.agents.wwn_heuristic import HeuristicAgent

    return HeuristicAgent


def _planner() -> type[Agent]:
    from factionsim.agents.planner import PlannerAgent

    return PlannerAgent


def _codec() -> type:
    from factionsim.envs.wwn_codec import WwnCodec

    return WwnCodec


def _schema(agents: list[str]) -> dict:
    """The campaign schema, each agent's ``agent_options`` included (their classes declare them)."""
    return schema.campaign_schema(agents, agent_options_schema(RULESET.agents))


RULESET = RulesetInfo(
    name="wwn", title="Worlds Without Number factions", state_class=WwnState,
    validate=validate.validate, faction_field="factions", prose=prose.PROSE,
    present=present.PRESENTATION, default_campaign="shattered_march.yaml",
    agents=(RANDOM, IDLE,
            AgentSpec("heuristic", "goal-driven, explains each decision", _heuristic),
            AgentSpec("planner", "looks ahead with the rules as its forward model", _planner),
            MANUAL, POLICY, TRAINED),
    codec=_codec, schema=_schema, docs="docs/rules-wwn.md",
    forecasting=forecast.FORECASTING, behaviour=behaviour.BEHAVIOUR,
    actions=actions.ACTIONS, records=records.RECORDS,
    visibility=visibility.VISIBILITY, rumours=rumours.RUMOURS)
