"""ARC: Doom-style character conflict (seed 004): sides of characters on a line of heights,
initiative by intent, Blood and Guts.

Modules: ``model`` (characters, sides, spells, settings), ``checks`` (the d6 under a target
number), ``actions`` (decisions with a text form), ``turn`` (the round as decision points),
``state`` (the engine contract), ``validate`` (scenario files), ``prose`` and ``present``
(chronicle and reports).
"""

from __future__ import annotations

from factionsim.core.game import Agent
from factionsim.core.ruleset import RulesetInfo
from factionsim.rules import with_heuristic

from . import actions, behaviour, present, prose, validate, visibility
from .state import ConflictState


def _heuristic() -> type[Agent]:
    from factionsim.agents.conflict_heuristic import Heuristic

    return Heuristic


def _codec() -> type:
    from factionsim.envs.conflict_codec import ConflictCodec

    return ConflictCodec


RULESET = RulesetInfo(
    name="conflict", title="ARC-style character conflict", state_class=ConflictState,
    validate=validate.validate, faction_field="sides", prose=prose.PROSE,
    present=present.PRESENTATION, default_campaign="conflict_bridge.yaml",
    agents=with_heuristic(_heuristic),
    codec=_codec, docs="docs/ruleset-conflict.md", behaviour=behaviour.BEHAVIOUR,
    actions=actions.ACTIONS,
    visibility=visibility.VISIBILITY)
