"""A WWN faction's *afterstate*: the game just after its faction action is over, and a few
numbers that describe it from the faction's side (what a learned evaluator reads).

A value-search policy (:mod:`factionsim.agents.value_search`, ``factionsim train --method
value``) tries each of the planner's candidate faction actions on a state rebuilt from the
faction's own view, lets the heuristic play the action's own steps (which asset attacks which,
where to move...), and scores the state it reaches when the action is over with a network that
reads :func:`features`. The planner (:mod:`factionsim.agents.planner`) instead plays every faction
on to the end of the next turn; its rollouts note the same afterstate on the way
(``_rollout(..., afterstate=...)``), which is where the evaluator's training data comes from.

The features are the faction's standing, wealth and exposure, none of which depends on the
campaign's size or its asset table, so one evaluator plays any WWN campaign
(``FEATURES`` names them; ``FEATURE_SET`` is the name a policy file gives them).

>>> from factionsim import load_campaign
>>> from factionsim.configs import default_campaign_path
>>> s = load_campaign(default_campaign_path())
>>> fid = s.current_actor()
>>> x = features(s, fid)
>>> x.shape == (len(FEATURES),), bool(np.isfinite(x).all())
(True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from factionsim.rules.wwn import turn as T

#: the name of this feature set in a policy file's ``search.features`` (a change to
#: :func:`features` is a new name)
FEATURE_SET = "wwn-afterstate-1"

#: the phases of a faction action and its own steps (a defender's and a rival's answers
#: included): the action is over when the acting faction's turn reaches any other phase
ACTION_STEPS = frozenset({T.ACTION, T.ATTACK, T.DEFEND, T.MOVE, T.REPAIR, T.EXPAND_WHERE,
                          T.EXPAND_HP, T.RIVAL_ATTACK, T.CREATE, T.HIDE, T.SELL})

#: what :func:`features` returns, in order (XP and Treasure in their own units; counts of assets)
FEATURES = (
    "score",                 # 1 + goal XP earned + share of HP left
    "rival_score",           # the best rival's score
    "rivals_mean_score",     # the mean score of the rivals
    "goal_progress",         # progress towards the current goal, times its difficulty
    "goal_difficulty",       # the current goal's XP (0: none)
    "treasure",
    "holdings",              # what its assets cost, scaled by the HP they have left
    "xp",                    # unspent XP
    "hp_share",              # HP left / max HP
    "paralysed",             # abandoned a goal: no action next turn
    "assets",                # assets it has (Bases of Influence included)
    "bases",                 # its Bases of Influence
    "damaged",               # its assets below their max HP
    "attackers",             # its assets that can attack
    "stealthed",             # its assets in Stealth
    "exposed",               # its assets where they are forbidden
    "contested",             # its assets sharing a place with a hostile faction's asset
    "threatened_bases",      # its Bases sharing a place with a hostile faction's attacker
    "hostile_near",          # hostile assets (that it can see) sharing a place with its assets
    "hostile_bases_near",    # hostile Bases sharing a place with its attackers
    "rival_treasure",        # the best rival's Treasure
    "rival_holdings",        # the best rival's holdings
    "rival_assets",          # the best rival's asset count
    "turn_share",            # the turn / the campaign's max turns (0: no limit)
)


def action_over(state: Any, me: str, turn: int) -> bool:
    """Whether faction ``me``'s faction action of turn ``turn`` is over in ``state`` (or the
    game is): another faction's turn, another turn, or a phase after the action's steps."""
    if state.is_over() or state.turn != turn:
        return True
    if not state.order or state.order_index >= len(state.order):
        return True
    return state.order[state.order_index] != me or state.phase not in ACTION_STEPS


def _holdings(assets: Any) -> float:
    return float(sum(a.kind.cost * a.hp / max(1, a.max_hp) for a in assets))


def features(state: Any, me: str) -> np.ndarray:
    """``FEATURES`` of ``state`` (a full game state: the afterstate) for faction ``me``, float64."""
    scores = state.scores()
    f = state.factions[me]
    rivals = [k for k in scores if k != me]
    best = max(rivals, key=lambda k: scores[k]) if rivals else None
    mine = state.assets_of(me)
    g = f.goal
    difficulty = float(g.difficulty or 1) if g is not None else 0.0
    progress = (min(1.0, g.progress / g.needed) * difficulty
                if g is not None and g.needed else 0.0)
    hostile = {k for k in rivals if state.hostile(me, k)}
    by_place: dict[str, list[Any]] = {}
    for a in state.assets.values():
        if a.owner in hostile:
            by_place.setdefault(a.location, []).append(a)
    places = {a.location for a in mine}
    attack_places = {a.location for a in mine if a.kind.attack is not None}
    near = [a for p in places for a in by_place.get(p, ())]
    best_f = state.factions[best] if best is not None else None
    best_assets = state.assets_of(best) if best is not None else ()
    max_turns = state.max_turns
    return np.array([
        scores[me],
        scores[best] if best is not None else 0.0,
        float(np.mean([scores[k] for k in rivals])) if rivals else 0.0,
        progress,
        difficulty,
        float(f.treasure),
        _holdings(mine),
        float(f.xp),
        f.hp / f.max_hp if f.max_hp else 0.0,
        float(f.paralysed),
        float(len(mine)),
        float(sum(a.is_base for a in mine)),
        float(sum(a.hp < a.max_hp for a in mine)),
        float(sum(a.kind.attack is not None for a in mine)),
        float(sum(a.stealth for a in mine)),
        float(sum(a.exposed for a in mine)),
        float(sum(a.location in by_place for a in mine)),
        float(sum(a.is_base and any(b.kind.attack is not None for b in by_place.get(a.location, ()))
                  for a in mine)),
        float(len(near)),
        float(sum(a.is_base for p in attack_places for a in by_place.get(p, ()))),
        float(best_f.treasure) if best_f is not None else 0.0,
        _holdings(best_assets),
        float(len(best_assets)),
        min(1.0, state.turn / max_turns) if max_turns else 0.0,
    ], np.float64)
