"""How often a policy wins: games against registry opponents, learner seats in rotation.

A *player* here chooses a catalogue index from an observation and a mask
(``choose(obs, mask, rng) -> int``): :class:`NumpyPlayer` plays a policy file's network (what
``agent: policy:PATH`` plays, so the figures are those of the file that ships), and
:class:`RandomPlayer` is the baseline. Game ``g`` is seeded from ``seed + g`` and the player's
generator from ``[seed, g]``, so an evaluation is reproducible. A win is the sole highest score
at the end (see :mod:`factionsim.envs`); shared wins are counted apart.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

from factionsim.models import PolicyModel, masked_softmax


class NumpyPlayer:
    """Samples from a policy's masked distribution (``deterministic``: its most likely action)."""

    def __init__(self, policy: PolicyModel, deterministic: bool = False):
        self.policy = policy
        self.deterministic = deterministic

    def choose(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(mask)
        probs = masked_softmax(self.policy.logits(obs), legal)
        pick = np.argmax(probs) if self.deterministic else rng.choice(len(legal), p=probs)
        return int(legal[pick])


class RandomPlayer:
    """Uniform over the legal actions: the baseline a trained policy is compared with."""

    def choose(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        return int(rng.choice(np.flatnonzero(mask)))


def env_kwargs(args: Any, opponents: list[str]) -> dict[str, Any]:
    """``SingleAgentEnv`` options of a run (:class:`factionsim.training.Args`)."""
    return {"campaign": args.campaign, "ruleset": args.ruleset, "opponents": opponents,
            "max_turns": args.max_turns}


def evaluate(player: Any, args: Any, opponent: str, games: int, seed: int = 10_000,
             progress: bool = False) -> dict[str, Any]:
    """Win rate (with its Wilson 95% interval) of ``player`` over ``games`` games against
    ``opponent`` in every other seat (``progress``: a bar of the games on stderr)."""
    from tqdm import tqdm

    from factionsim.envs.single_agent import SingleAgentEnv
    from factionsim.tournament import wilson

    t0 = time.perf_counter()
    probe = SingleAgentEnv(**env_kwargs(args, [opponent]))
    seats = probe.aec.possible_agents
    envs = {s: SingleAgentEnv(learner=s, **env_kwargs(args, [opponent])) for s in seats}
    wins = shared = 0
    per_seat = {s: [0, 0] for s in seats}
    for g in tqdm(range(games), desc=f"evaluating vs {opponent}", unit="game", file=sys.stderr,
                  leave=False, disable=not progress):
        seat = seats[g % len(seats)]
        env = envs[seat]
        rng = np.random.default_rng([seed, g])
        obs, _ = env.reset(seed=seed + g)
        done, info = False, {}
        while not done:
            obs, _, done, _, info = env.step(player.choose(obs, env.action_masks(), rng))
        wins += info["outcome"] > 0
        shared += info["outcome"] == 0
        per_seat[seat][0] += info["outcome"] > 0
        per_seat[seat][1] += 1
    low, high = wilson(wins, games)
    return {"opponent": opponent, "games": games, "win_rate": wins / games,
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "shared_win_rate": shared / games,
            "win_rate_by_seat": {s: w / n for s, (w, n) in per_seat.items() if n},
            "seconds": round(time.perf_counter() - t0, 1)}
