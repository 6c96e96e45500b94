"""A *rollout-leaf* policy: the planner's search, its rollouts' last states scored by a learned
evaluator of the game's final outcome (``factionsim train --method leaf``; a policy file's
``search`` of kind ``rollout-leaf``).

The planner (:mod:`factionsim.agents.planner`) tries its candidates in rollouts to the end of the
next turn and scores each rollout's last state with the hand-made
:func:`~factionsim.agents.planner.rollout_value` (score, goal progress, wealth, against the best
rival). Here the same planner, with the file's ``budget``, ``horizon`` and ``margin``, scores
that state with the file's network instead: it reads :func:`leaf_features` (the afterstate
features of :mod:`factionsim.agents.afterstate` plus the faction's standing and the turns left)
and estimates the faction's **final pairwise share** (:func:`final_share`: the share of the other
factions it will finish above when the heuristic plays every faction to the end), learnt from
heuristic games, expressed in XP of ``rollout_value`` (training divides the share by what one
XP of it is worth), so the planner's discount of late goal XP and its margin keep their meaning.
None of the features depends on the campaign's size, so the file plays any WWN campaign. Every
decision the planner does not search is its heuristic's (default options).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from factionsim.agents.afterstate import FEATURES, features

#: the policy file's ``search.kind`` this module plays
SEARCH_KIND = "rollout-leaf"
#: the name of :func:`leaf_features` in a policy file's ``search.features`` (a change is a new
#: name)
LEAF_FEATURE_SET = "wwn-leaf-1"
#: what :func:`leaf_features` returns: the afterstate features, then these
LEAF_EXTRAS = (
    "lead",            # score - the best rival's score
    "lead_over_mean",  # score - the rivals' mean score
    "standing",        # the share of the rivals its score is above now (a tie: half)
    "standing_late",   # standing times turn_share (how much of the game is played)
    "turns_left",      # max turns - the turn (0: no limit)
    "alive",           # 1 while the faction stands
)
LEAF_FEATURES = FEATURES + LEAF_EXTRAS


def final_share(scores: dict[str, float], me: str) -> float:
    """The share of the other factions whose score ``me``'s is above (a tie counts half): a
    tournament's pairwise share, seen from one faction (0.5 with no rival)."""
    rivals = [v for k, v in scores.items() if k != me]
    if not rivals:
        return 0.5
    own = scores[me]
    return float(sum(1.0 if own > v else 0.5 if own == v else 0.0 for v in rivals) / len(rivals))


def leaf_features(state: Any, me: str) -> np.ndarray:
    """:data:`LEAF_FEATURES` of ``state`` for faction ``me`` (float64)."""
    base = features(state, me)
    named = dict(zip(FEATURES, base, strict=True))
    standing = final_share(state.scores(), me)
    turns_left = (max(0, state.max_turns - state.turn) if state.max_turns else 0)
    extras = [named["score"] - named["rival_score"], named["score"] - named["rivals_mean_score"],
              standing, standing * named["turn_share"], float(turns_left),
              float(state.factions[me].alive)]
    return np.concatenate([base, np.asarray(extras, np.float64)])


class LeafSearch:
    """Chooses for a policy whose file's ``search`` is of kind ``rollout-leaf``; ``model``: the
    :class:`~factionsim.models.PolicyModel` (its network: :func:`leaf_features` in, one value
    out). Every decision is the planner's (searched or its heuristic's)."""

    def __init__(self, model: Any, label: str):
        from factionsim.agents.planner import PlannerAgent
        from factionsim.agents.value_search import check_features

        search = model.search
        check_features(model, label, LEAF_FEATURE_SET, len(LEAF_FEATURES), "leaf")
        self.model = model
        self.planner = PlannerAgent(budget=int(search["budget"]), horizon=int(search["horizon"]),
                                    margin=float(search["margin"]), leaf=self.value)
        self.label = label
        self.last_reason: str | None = None

    def value(self, state: Any, me: str) -> float:
        """The network's estimate of ``me``'s final pairwise share from ``state`` (in XP)."""
        return float(self.model.network(leaf_features(state, me)[None])[0, 0])

    def choose(self, view: Any, legal: list[Any], rng: Any) -> Any:
        """The planner's choice at ``view``'s decision (its heuristic's where it does not
        search)."""
        choice = self.planner.act(view, legal, rng)
        self.last_reason = f"{self.label}: {self.planner.last_reason}"
        return choice
