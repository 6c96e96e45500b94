"""A *tuned-heuristic* policy file (``factionsim train --method tune``) as a player: the WWN
heuristic with the learned shifts of its weights the file holds
(:mod:`factionsim.agents.wwn_heuristic.tuning`).

The file's network turns a constant 1 (``search.features: constant``), or the deciding faction's
place among the factions (``faction`` or ``sheet``: the features of that reading,
:data:`~factionsim.agents.wwn_heuristic.tuning.READINGS`), into one number per name of its
``search.parameters``;
those must be this version's :data:`~factionsim.agents.wwn_heuristic.tuning.TUNING_NAMES`, in
that order, or the file is refused with an error naming what differs. numpy alone; the player
decides as fast as the heuristic.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from factionsim.core.game import CampaignError


class TunedHeuristic:
    """The searcher :class:`~factionsim.agents.policy.PolicyAgent` asks for a decision:
    ``choose(view, legal, rng)`` is the tuned heuristic's, also among the actions a GM left open
    when re-planning (``plays_narrowed``); ``agent`` is that heuristic."""

    #: it decides among any list of legal actions (a GM's re-plan), as the heuristic does
    plays_narrowed = True

    def __init__(self, model: Any, label: str):
        from .wwn_heuristic import HeuristicAgent
        from .wwn_heuristic.tuning import TUNING_NAMES, ReadingTuning, Tuning

        names = list(model.search["parameters"])
        if names != list(TUNING_NAMES):
            missing = [n for n in TUNING_NAMES if n not in names]
            extra = [n for n in names if n not in TUNING_NAMES]
            raise CampaignError(
                f"{label}: its tuning does not fit this factionsim's heuristic (missing: "
                f"{', '.join(missing) or 'none'}; unknown: {', '.join(extra) or 'none'}; or "
                "another order); tune it again with factionsim train --method tune")
        reading = model.search["features"]
        if reading != "constant":  # its network reads the faction's place
            self.tuning: Tuning | ReadingTuning = ReadingTuning(model.logits, reading)
        else:
            self.tuning = Tuning.from_vector(model.logits(np.ones(1)))
        self.agent = HeuristicAgent(tuning=self.tuning)
        self.label = label
        self.last_reason: str | None = None

    def choose(self, view: Any, legal: list[Any], rng: Any) -> Any:
        action = self.agent.act(view, legal, rng)
        why = self.agent.last_reason or "the tuned heuristic's choice"
        self.last_reason = f"{self.label}: {why}"
        return action
