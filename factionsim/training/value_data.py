"""The data of ``--method value``: heuristic games in which every searched faction action is
valued by the planner's rollouts, each rollout's *afterstate* noted.

In a data game every faction is played by the heuristic. At a faction action where the planner
would search (:meth:`~factionsim.agents.planner.PlannerAgent.candidates`: two or more
candidates), each candidate and the heuristic's own choice get ``rollouts`` rollouts with the
same dice seeds (common random numbers): the candidate, the heuristic for every faction to the
end of the next turn, scored by :func:`~factionsim.agents.planner.rollout_value` (the planner's
own estimate, discount included). On the way each rollout notes the :func:`features
<factionsim.agents.afterstate.features>` of its afterstate (the state when the faction's action
is over). A row of the data is one rollout: its decision, candidate, seed, whether the
candidate is the heuristic's choice, the afterstate's features and the rollout's value. The game
then goes on with the heuristic's choice.

Games are seeded (``seed``, the game's index): the same arguments give the same rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

#: the arrays of a data set (one row per rollout), as :func:`save_rows` writes them
COLUMNS = ("decision", "candidate", "seed", "own", "x", "value", "game")


@dataclass(frozen=True)
class DataTask:
    """What a worker plays: games ``games`` of a run seeded ``seed``, each on a campaign
    generated with a seed from ``campaign_seeds`` (both ends included), ``max_turns`` turns,
    ``rollouts`` rollouts per candidate, each ``horizon`` turns past the current one."""

    seed: int
    games: tuple[int, ...]
    campaign_seeds: tuple[int, int]
    max_turns: int = 20
    rollouts: int = 2
    # turns the rollouts play after the current one (1: the planner's horizon when the
    # documented runs were made)
    horizon: int = 1


def value_game(task: DataTask, game: int) -> dict[str, np.ndarray]:
    """The rows of data game ``game`` (see the module docstring)."""
    from factionsim.agents.afterstate import FEATURES, features
    from factionsim.agents.planner import PlannerAgent
    from factionsim.agents.wwn_heuristic import HeuristicAgent
    from factionsim.rules.wwn import turn as T

    from .games import Campaigns

    rng = np.random.default_rng([task.seed, game])
    state = Campaigns("wwn", generated=1.0, seeds=task.campaign_seeds).draw(rng)
    state.max_turns = state.turn + task.max_turns
    planner = PlannerAgent(horizon=task.horizon)
    players: dict[str, HeuristicAgent] = {}
    rows: dict[str, list[Any]] = {k: [] for k in COLUMNS}
    decision = 0
    for _ in range(200_000):
        actor = state.current_actor()
        if actor is None or state.is_over():
            break
        player = players.setdefault(actor, HeuristicAgent())
        view, legal = state.view(actor), state.legal_actions()
        own = player.act(view, legal, rng)
        candidates = planner.candidates(view, legal) if view.phase == T.ACTION else []
        if len(candidates) >= 2:
            tried = list(candidates) + ([own] if own not in candidates else [])
            seeds = [int(s) for s in rng.integers(0, 2**63 - 1, size=task.rollouts)]
            for c, action in enumerate(tried):
                for k, s in enumerate(seeds):
                    noted: list[np.ndarray] = []
                    value = planner._rollout(view, action, s, afterstate=partial(
                        _note, noted, actor, features))
                    for key, v in zip(COLUMNS, (decision, c, k, action == own, noted[0], value,
                                                game), strict=True):
                        rows[key].append(v)
            decision += 1
        state.apply(own)
    out = {k: np.asarray(v) for k, v in rows.items()}
    if not len(out["x"]):
        out["x"] = np.zeros((0, len(FEATURES)))
    return out


def _note(noted: list[np.ndarray], faction: str, features: Any, state: Any) -> None:
    noted.append(features(state, faction))


def play_task(task: DataTask) -> list[dict[str, np.ndarray]]:
    """The rows of each of ``task``'s games (a worker's share)."""
    return [value_game(task, g) for g in task.games]


def join_rows(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Games' rows as one data set; decision numbers made unique across games (in order)."""
    out: dict[str, list[np.ndarray]] = {k: [] for k in COLUMNS}
    offset = 0
    for p in parts:
        for k in COLUMNS:
            out[k].append(p[k] + offset if k == "decision" else p[k])
        offset += int(p["decision"].max()) + 1 if len(p["decision"]) else 0
    return {k: np.concatenate(v) if v else np.zeros(0) for k, v in out.items()}


def collect(seed: int, games: int, campaign_seeds: tuple[int, int], max_turns: int,
            rollouts: int, workers: int,
            progress: Callable[[dict[str, np.ndarray], int], None] | None = None,
            horizon: int = 1) -> dict[str, np.ndarray]:
    """``games`` data games played by ``workers`` processes (the same rows for any number of
    workers), joined in game order; ``progress(rows so far, games done)`` after each game."""
    tasks = [DataTask(seed, (g,), campaign_seeds, max_turns, rollouts, horizon)
             for g in range(games)]
    done: dict[int, dict[str, np.ndarray]] = {}

    def note(task: DataTask, rows: list[dict[str, np.ndarray]]) -> None:
        done[task.games[0]] = rows[0]
        if progress is not None:
            progress(join_rows([done[g] for g in sorted(done)]), len(done))

    for t, rows in zip(tasks, in_order(play_task, tasks, workers), strict=True):
        note(t, rows)
    return join_rows([done[g] for g in range(games)])


def in_order(fn: Callable[[Any], Any], items: Sequence[Any], workers: int) -> Iterator[Any]:
    """``fn`` of each of ``items``, yielded in their order as each is done: in this process
    (``workers`` <= 1) or by ``workers`` spawned processes (``fn`` must then pickle)."""
    if workers <= 1:
        yield from map(fn, items)
        return
    import multiprocessing as mp

    with mp.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(fn, items)


def save_rows(path: Any, rows: dict[str, np.ndarray]) -> None:
    """A data set as a compressed ``.npz`` (arrays only: it loads without pickle)."""
    np.savez_compressed(path, **rows)


def load_rows(path: Any, columns: Sequence[str] = COLUMNS) -> dict[str, np.ndarray]:
    """The ``columns`` of a data set :func:`save_rows` wrote."""
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in columns}
