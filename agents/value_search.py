"""A *value-search* policy: one-ply search over the planner's candidates, scored by a learned
evaluator of afterstates (``factionsim train --method value``; the policy file's ``search``
field).

At a faction action where the planner would search (its candidates: the heuristic's favourite
actions plus "pass", :meth:`~factionsim.agents.planner.PlannerAgent.candidates`), each candidate
and the heuristic's own choice is tried ``samples`` times on a state rebuilt from the faction's
own view (the same dice seeds for every candidate), its own steps played by the heuristic
(:meth:`~factionsim.agents.planner.PlannerAgent.afterstate`), and the state reached when the
action is over is scored by the policy file's network, which reads its
:func:`~factionsim.agents.afterstate.features`. The candidate with the best mean score is played
if it beats the heuristic choice's by ``margin``; otherwise the heuristic's choice. Every other
decision is the heuristic's (its default options). No rollout goes past the faction's own
action: what the planner learns from playing every faction to the end of the next turn, the
network has to know.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from factionsim.core.game import CampaignError

#: the policy file's ``search.kind`` this module plays
SEARCH_KIND = "afterstate-value"


def check_features(model: Any, label: str, feature_set: str, size: int, method: str) -> None:
    """:class:`CampaignError` unless the search policy ``model`` (named ``label``) reads the
    features this factionsim computes (``feature_set``, ``size`` values); retrained by
    ``factionsim train --method METHOD``."""
    name = model.search["features"]
    if name != feature_set or model.obs_size != size:
        raise CampaignError(
            f"{label} reads the features {name!r} ({model.obs_size} values); this factionsim "
            f"computes {feature_set!r} ({size} values): retrain it with 'factionsim train "
            f"--method {method}'")


class ValueSearch:
    """Chooses faction actions for a policy whose file has a ``search`` field; ``model``: the
    :class:`~factionsim.models.PolicyModel` (its network: features in, one value out)."""

    def __init__(self, model: Any, label: str):
        from factionsim.agents.afterstate import FEATURE_SET, FEATURES
        from factionsim.agents.planner import PlannerAgent

        search = model.search
        check_features(model, label, FEATURE_SET, len(FEATURES), "value")
        self.model = model
        self.samples = int(search["samples"])
        self.margin = float(search["margin"])
        self.planner = PlannerAgent()
        self.label = label
        self.last_reason: str | None = None

    def choose(self, view: Any, legal: list[Any], rng: Any) -> Any | None:
        """The action to play at ``view``'s decision, or ``None`` where it does not search (the
        caller plays the heuristic's choice there)."""
        from factionsim.agents.afterstate import features
        from factionsim.rules.wwn import turn as T

        if view.phase != T.ACTION:
            return None
        candidates = self.planner.candidates(view, legal)
        if len(candidates) < 2:
            return None
        own = self.planner._heuristic_choice(view, legal, rng)
        tried = list(candidates) + ([own] if own not in candidates else [])
        seeds = [int(s) for s in rng.integers(0, 2**63 - 1, size=self.samples)]
        me = view.faction_id
        x = np.array([features(self.planner.afterstate(view, c, s), me)
                      for c in tried for s in seeds])
        values = np.asarray(self.model.network(x), np.float64).reshape(len(tried), -1).mean(1)
        h = tried.index(own)
        best = int(np.argmax(values))
        if values[best] < values[h] + self.margin:
            best = h
        gain = values[best] - values[h]
        self.last_reason = (
            f"{self.label}: the heuristic's choice, no other of {len(tried) - 1} looked "
            f"{self.margin:g} better" if best == h else
            f"{self.label}: looked {gain:+.2f} better than the heuristic's "
            f"{own} after the action ({len(tried)} tried)")
        return tried[best]
