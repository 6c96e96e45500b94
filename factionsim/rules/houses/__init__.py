"""Cortex Prime Great Houses in a Succession War (seed 001).

Modules: ``model`` (Houses, assets, the scenario's rules), ``dice`` (pools, effect dice, steps),
``actions`` (decisions with a text form), ``turn`` (the season as decision points), ``outcomes``
(what a roll does), ``state`` (the engine contract), ``validate`` (scenario files), ``prose`` and
``present`` (chronicle and reports), ``forecast`` (what ``factionsim forecast`` counts).
"""

from __future__ import annotations

from factionsim.core.game import Agent
from factionsim.core.ruleset import RulesetInfo
from factionsim.rules import with_heuristic

from . import actions, behaviour, forecast, present, prose, validate, visibility
from .state import HousesState


def _heuristic() -> type[Agent]:
    from factionsim.agents.houses_heuristic import Heuristic

    return Heuristic


def _codec() -> type:
    from factionsim.envs.houses_codec import HousesCodec

    return HousesCodec


RULESET = RulesetInfo(
    name="houses", title="Cortex Prime Great Houses in a Succession War", state_class=HousesState,
    validate=validate.validate, faction_field="houses", prose=prose.PROSE,
    present=present.PRESENTATION, default_campaign="banteave_succession.yaml",
    agents=with_heuristic(_heuristic),
    codec=_codec, docs="docs/ruleset-houses.md",
    forecasting=forecast.FORECASTING, behaviour=behaviour.BEHAVIOUR,
    actions=actions.ACTIONS,
    visibility=visibility.VISIBILITY)
