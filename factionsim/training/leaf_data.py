"""The data of ``--method leaf``: heuristic self-play games, every faction's situation noted at
the end of every turn, labelled with how the game ended for it.

A data game is a campaign generated with a seed from ``campaign_seeds`` (``factionsim new
--seed S``'s generator), played by the heuristic in every seat for a number of turns drawn from
``turns`` (both ends included). Each time a turn ends (and once more at the game's end), every
faction's :func:`~factionsim.agents.leaf_search.leaf_features` are noted, with the hand-made
:func:`~factionsim.agents.planner.rollout_value` of the state (the planner's leaf, to compare
with). When the game is over each of its rows gets the faction's **final pairwise share**
(:func:`~factionsim.agents.leaf_search.final_share`: the share of the other factions it finished
above, a tie half), the quantity a tournament measures, and its final lead (own score minus the
best rival's).

These states are those the planner's rollouts end in (a turn's end, every faction played by the
heuristic), so the fit learns what such a state is worth at the *end of the game*, not at a short
horizon. Games are seeded (``seed``, the game's index): the same arguments give the same rows for
any number of workers.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from . import value_data
from .value_data import in_order

#: the arrays of a data set (one row per faction and turn end), as :func:`~.value_data.save_rows` writes them
COLUMNS = ("game", "turn", "x", "handmade", "share", "lead")


def leaf_game(seed: int, campaign_seeds: tuple[int, int], turns: tuple[int, int],
              game: int) -> dict[str, np.ndarray]:
    """The rows of data game ``game`` (see the module docstring)."""
    from factionsim.agents.leaf_search import LEAF_FEATURES, final_share, leaf_features
    from factionsim.agents.planner import rollout_value
    from factionsim.agents.wwn_heuristic import HeuristicAgent

    from .games import Campaigns

    rng = np.random.default_rng([seed, game])
    state = Campaigns("wwn", generated=1.0, seeds=campaign_seeds).draw(rng)
    state.max_turns = state.turn + int(rng.integers(turns[0], turns[1] + 1))
    players: dict[str, HeuristicAgent] = {}
    noted: list[tuple[int, str, np.ndarray, float]] = []

    def note() -> None:
        for f in state.factions:
            noted.append((state.turn, f, leaf_features(state, f), rollout_value(state, f)))

    turn = state.turn
    for _ in range(500_000):
        actor = state.current_actor()
        if actor is None or state.is_over():
            break
        player = players.setdefault(actor, HeuristicAgent())
        state.apply(player.act(state.view(actor), state.legal_actions(), rng))
        if state.turn != turn:
            turn = state.turn
            note()
    if not noted or noted[-1][0] != state.turn:
        note()
    scores = state.scores()
    lead = {f: scores[f] - max((v for k, v in scores.items() if k != f), default=0.0)
            for f in scores}
    return {"game": np.full(len(noted), game, np.int64),
            "turn": np.asarray([t for t, *_ in noted], np.int64),
            "x": np.asarray([x for _, _, x, _ in noted]).reshape(-1, len(LEAF_FEATURES)),
            "handmade": np.asarray([v for *_, v in noted], np.float64),
            "share": np.asarray([final_share(scores, f) for _, f, _, _ in noted], np.float64),
            "lead": np.asarray([lead[f] for _, f, _, _ in noted], np.float64)}


def collect(seed: int, games: int, campaign_seeds: tuple[int, int], turns: tuple[int, int],
            workers: int, progress: Callable[[int], None] | None = None
            ) -> dict[str, np.ndarray]:
    """``games`` data games played by ``workers`` processes, joined in game order;
    ``progress(games done)`` after each game."""
    play = partial(leaf_game, seed, campaign_seeds, turns)
    parts: list[dict[str, np.ndarray]] = []
    for part in in_order(play, range(games), workers):
        parts.append(part)
        if progress is not None:
            progress(len(parts))
    return {k: np.concatenate([p[k] for p in parts]) for k in COLUMNS}


def load_rows(path: Any) -> dict[str, np.ndarray]:
    """A data set :func:`~.value_data.save_rows` wrote (:data:`COLUMNS`)."""
    return value_data.load_rows(path, COLUMNS)
