"""``--method tune`` (WWN): the heuristic's weights tuned against the heuristic itself by the
cross-entropy method (Rubinstein 1999; Szita and Lorincz 2006, for Tetris controllers).

**What is learnt**: a :class:`~factionsim.agents.wwn_heuristic.tuning.Tuning`, 22 numbers that
shift how strongly the WWN heuristic weighs blows, defence, income, each Faction Action, passing
and each goal, on top of the faction's own temperament (all 0: the heuristic itself). The policy
decides as fast as the heuristic (no network at play time beyond reading the numbers).

**How**: a search distribution over the numbers, independent normals (mean 0, spread
``--tune-sigma``: ``attack_floor`` a fifth of it, being a chance). Each of ``--tune-generations``
generations:

1. ``--tune-population`` candidates are drawn (the first is the mean itself);
2. every candidate plays the same ``--tune-games`` games: game ``g`` of generation ``k`` is a
   campaign generated from a seed in ``--generated-seeds`` (``factionsim new --seed S``'s
   generator, the shape of the run's campaign) with its dice from ``(--seed, k, g)``; the
   candidate plays every second faction (the first, third... in ``g`` even games, the others in
   odd ones), the default heuristic the rest, for ``--max-turns`` turns. Its fitness is the
   tournament's pairwise share: 1 where its best faction's score is above the heuristic's best,
   0.5 for equal scores, else 0 (common dice for all candidates: their differences are not the
   dice's);
3. the ``--tune-elites`` fittest candidates' mean and spread move the distribution halfway
   towards theirs (smoothing keeps a generation's lucky draw from taking over), the spread never
   below a tenth of the first one.

The run writes ``OUT/policy.json`` + ``policy.npz`` (the distribution's final mean, a search
policy of kind ``tuned-heuristic``: its one-layer network turns a constant 1 into the 22
numbers, :mod:`factionsim.agents.tuned`), ``OUT/eval.json`` (every generation; then
``--final-eval-games`` fresh games of the final mean against the heuristic, on training seeds),
``OUT/tb/`` (TensorBoard: ``tune/share_*``) and the run record. A seeded run gives the same file
for any number of ``--workers``.
"""

from __future__ import annotations

import json
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .args import Args

#: fitness shares are written with this many digits
_DIGITS = 4


def check_tune(args: Args) -> None:
    """``--method tune``'s options, or :class:`ValueError` naming the bad one.

    >>> check_tune(Args(method="tune", tune_elites=20, tune_population=16))
    Traceback (most recent call last):
    ...
    ValueError: --tune-elites 20: from 1 to --tune-population (16)
    """
    from .league_run import generated_seeds

    if args.ruleset != "wwn":
        raise ValueError(f"--method tune tunes the WWN heuristic; the {args.ruleset} ruleset "
                         "has none to tune")
    for name, lo in (("tune_generations", 1), ("tune_population", 2), ("tune_games", 2)):
        if getattr(args, name) < lo:
            raise ValueError(f"--{name.replace('_', '-')} {getattr(args, name)}: at least {lo}")
    if not 1 <= args.tune_elites <= args.tune_population:
        raise ValueError(f"--tune-elites {args.tune_elites}: from 1 to --tune-population "
                         f"({args.tune_population})")
    if not 0 < args.tune_sigma <= 5:
        raise ValueError(f"--tune-sigma {args.tune_sigma:g}: above 0, at most 5")
    generated_seeds(args)


def first_spread(sigma: float) -> np.ndarray:
    """The search distribution's first spread: ``sigma`` for every number but ``attack_floor``
    (a chance to hit: a fifth of it)."""
    from factionsim.agents.wwn_heuristic.tuning import TUNING_NAMES

    return np.asarray([sigma / 5 if n == "attack_floor" else sigma for n in TUNING_NAMES])


@lru_cache(maxsize=4)
def _campaigns(campaign: str | None, seeds: tuple[int, int]) -> Any:
    from .games import Campaigns

    return Campaigns("wwn", campaign, generated=1.0, seeds=seeds)


def tune_game(seed: int, campaign: str | None, seeds: tuple[int, int], turns: int,
              task: tuple[int, int, tuple[float, ...]]) -> float:
    """The candidate's pairwise share in game ``task = (generation, game, tuning values)``
    (see the module docstring): 1, 0.5 or 0."""
    from factionsim.agents.wwn_heuristic import HeuristicAgent
    from factionsim.agents.wwn_heuristic.tuning import Tuning
    from factionsim.runner import play

    generation, game, values = task
    state = _campaigns(campaign, seeds).draw(np.random.default_rng([seed, generation, game]))
    tuned = Tuning.from_vector(values)
    factions = list(state.factions)
    mine = {f for i, f in enumerate(factions) if (i + game) % 2 == 0}
    agents = {f: HeuristicAgent(tuning=tuned if f in mine else None) for f in factions}
    play(state, turns, agents)
    scores = state.scores()
    ours = max(scores[f] for f in mine)
    theirs = max(scores[f] for f in factions if f not in mine)
    return 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0


class _Games:
    """Plays lists of tasks with ``workers`` spawned processes kept for the whole run."""

    def __init__(self, args: Args, seeds: tuple[int, int]):
        from functools import partial

        self.play = partial(tune_game, args.seed, args.campaign, seeds, args.max_turns)
        self.pool: Any = None
        if args.workers > 1:
            import multiprocessing as mp

            self.pool = mp.get_context("spawn").Pool(args.workers)

    def shares(self, tasks: list[tuple[int, int, tuple[float, ...]]]) -> np.ndarray:
        if self.pool is None:
            return np.asarray([self.play(t) for t in tasks])
        return np.asarray(self.pool.map(self.play, tasks, chunksize=4))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool.join()


def cem_step(mean: np.ndarray, spread: np.ndarray, candidates: np.ndarray, fitness: np.ndarray,
             elites: int, floor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The next ``(mean, spread)``: halfway from the current ones towards the mean and spread of
    the ``elites`` fittest ``candidates`` (ties: the earlier candidate first), the spread at
    least ``floor``.

    >>> m, s = cem_step(np.zeros(1), np.ones(1), np.array([[1.0], [3.0], [-2.0]]),
    ...                 np.array([0.6, 0.7, 0.1]), 2, np.full(1, 0.1))
    >>> float(m[0]), float(s[0])
    (1.0, 1.0)
    """
    best = np.argsort(-fitness, kind="stable")[:elites]
    chosen = candidates[best]
    new_mean = 0.5 * mean + 0.5 * chosen.mean(axis=0)
    new_spread = np.maximum(0.5 * spread + 0.5 * chosen.std(axis=0), floor)
    return new_mean, new_spread


def train_tune(args: Args) -> Path:
    """Tune as the module docstring says; returns the path of ``OUT/policy.json``."""
    from factionsim.agents.wwn_heuristic.tuning import TUNING_NAMES
    from factionsim.core.files import write_atomic
    from factionsim.core.stats import wilson
    from factionsim.models import write_policy

    from .league_run import _Log
    from .value import start_run

    check_tune(args)
    out, record, started, seeds = start_run(args)
    log = _Log(out, args.progress)
    rng = np.random.default_rng([args.seed, 0x7E5])
    mean = np.zeros(len(TUNING_NAMES))
    spread = first_spread(args.tune_sigma)
    floor = spread / 10
    history: list[dict[str, Any]] = []
    games = _Games(args, seeds)
    try:
        for k in range(args.tune_generations):
            noise = rng.standard_normal((args.tune_population - 1, len(mean)))
            candidates = np.vstack([mean, mean + noise * spread])
            tasks = [(k, g, tuple(c)) for c in candidates for g in range(args.tune_games)]
            fitness = games.shares(tasks).reshape(len(candidates), args.tune_games).mean(axis=1)
            mean, spread = cem_step(mean, spread, candidates, fitness, args.tune_elites, floor)
            row = {"generation": k + 1, "games": len(tasks),
                   "share_of_mean": round(float(fitness[0]), _DIGITS),
                   "share_best": round(float(fitness.max()), _DIGITS),
                   "share_population": round(float(fitness.mean()), _DIGITS),
                   "spread": round(float(spread.mean()), _DIGITS),
                   "seconds": round(time.time() - started, 1)}
            history.append(row)
            log.scalars(k + 1, {f"tune/{key}": v for key, v in row.items()
                                if key.startswith(("share", "spread"))})
            log.line(f"generation {k + 1}/{args.tune_generations}: the mean's share "
                     f"{row['share_of_mean']:.1%}, best {row['share_best']:.1%}, population "
                     f"{row['share_population']:.1%} ({len(tasks)} games, {row['seconds']:.0f} s)")
        final: dict[str, Any] = {}
        if args.final_eval_games:
            shares = games.shares([(args.tune_generations, g, tuple(mean))
                                   for g in range(args.final_eval_games)])
            lo, hi = wilson(float(shares.sum()), len(shares))
            final = {"opponent": "heuristic", "games": len(shares),
                     "share": round(float(shares.mean()), _DIGITS),
                     "ci95": [round(lo, _DIGITS), round(hi, _DIGITS)]}
            log.line(f"final: the tuned heuristic's pairwise share against the heuristic "
                     f"{final['share']:.1%} ({lo:.1%}-{hi:.1%}) of {len(shares)} games")
    finally:
        games.close()
        log.close()
    tuning = {n: round(float(v), 6) for n, v in zip(TUNING_NAMES, mean, strict=True)}
    description = {
        "ruleset": "wwn", "env_version": 1,
        "spaces": {"observation": 1, "actions": len(TUNING_NAMES)},
        "codec": {"limits": {}},
        "trained_on": {"campaign": f"campaigns generated with seeds {seeds[0]}-{seeds[1]}",
                       "shape": "any"},
        "network": {"layers": [{"type": "dense", "weight": "tuning", "bias": None,
                                "activation": None}]},
        "search": {"kind": "tuned-heuristic", "features": "constant",
                   "parameters": list(TUNING_NAMES)},
        "training": {"algorithm": "the cross-entropy method over the heuristic's tuning, "
                                  "fitness its pairwise share against the heuristic",
                     "command": record["command"], "versions": record["versions"],
                     "git": record.get("git"), "tuning": tuning, "final": final},
        "notes": "plays the WWN heuristic with these shifts of its weights "
                 "(factionsim.agents.wwn_heuristic.tuning); the network turns a constant 1 "
                 "into them",
    }
    path = out / "policy.json"
    write_policy(path, description, {"tuning": mean.reshape(-1, 1)}, dtype="float64")
    summary = {"method": "tune", "seconds": round(time.time() - started, 1),
               "generations": history, "final": final, "tuning": tuning}
    write_atomic(out / "eval.json", json.dumps(summary, indent=2) + "\n")
    print(f"wrote {path} (play it with agent: policy:{path})")
    return path
