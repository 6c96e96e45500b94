"""Anima Prime pillars, faction dice and engagements (seed 000, "9.7 Engagements").

Modules: ``model`` (pillars, factions, settings), ``dice`` (successes and wounds), ``actions``
(decisions with a text form), ``turn`` (the faction turn as decision points), ``engagement``
(the eight steps, counters, combined engagements, mercenaries), ``state`` (the engine contract),
``validate`` (scenario files), ``prose`` and ``present`` (chronicle and reports).
"""

from __future__ import annotations

from factionsim.core.game import Agent
from factionsim.core.ruleset import RulesetInfo
from factionsim.rules import with_heuristic

from . import actions, behaviour, present, prose, validate, visibility
from .state import EngagementsState


def _heuristic() -> type[Agent]:
    from factionsim.agents.engagements_heuristic import Heuristic

    return Heuristic


def _codec() -> type:
    from factionsim.envs.engagements_codec import EngagementsCodec

    return EngagementsCodec


RULESET = RulesetInfo(
    name="engagements", title="Anima Prime pillars and engagements", state_class=EngagementsState,
    validate=validate.validate, faction_field="factions", prose=prose.PROSE,
    present=present.PRESENTATION, default_campaign="ashen_thrones.yaml",
    agents=with_heuristic(_heuristic),
    codec=_codec, docs="docs/ruleset-engagements.md", behaviour=behaviour.BEHAVIOUR,
    actions=actions.ACTIONS,
    visibility=visibility.VISIBILITY)
