"""Games/s and env steps/s: the local process backend against the Ray backend, 1 and 2 workers.

    python experiments/benchmark_cluster.py [--games 200] [--turns 20] [--agents random]
    RAY_ADDRESS=auto python experiments/benchmark_cluster.py --workers 1 2 8 32   # a cluster

Games: a tournament (:func:`factionsim.tournament.run_tournament`) of ``games`` games of the
default WWN campaign, ``turns`` turns each. Env steps: ``episodes`` episodes of the PettingZoo AEC
env (uniform over the action mask, ``env_turns`` turns each) run as jobs on the same backends.
Each timing includes starting the local process pool (spawn, imports) or, for Ray, the first
tasks' worker start-up, but not ``ray.init`` itself (a cluster is already running; its start-up
is reported as ``ray_init_s``). The best of ``repeats`` is reported. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import asdict, dataclass, field


@dataclass
class Args:
    games: int = 200
    turns: int = 20
    agents: list[str] = field(default_factory=lambda: ["random"])
    episodes: int = 40
    env_turns: int = 10
    workers: list[int] = field(default_factory=lambda: [1, 2])
    backends: list[str] = field(default_factory=lambda: ["local", "ray"])
    repeats: int = 2
    seed: int = 0
    address: str | None = None


def _episode(shared: tuple, episode: int) -> int:
    """One AEC-env episode with uniformly random legal actions; returns its env steps."""
    import numpy as np

    from factionsim.envs import make_env

    env_turns, seed = shared
    env = make_env(max_turns=env_turns)
    env.reset(seed=seed * 100_003 + episode)
    rng = np.random.default_rng(episode)
    steps = 0
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        legal = np.flatnonzero(env.action_mask(agent))
        env.step(int(rng.choice(legal)))
        steps += 1
    return steps


def measure(args: Args, backend: str, workers: int) -> dict[str, float]:
    from factionsim.backends import run_jobs
    from factionsim.tournament import run_tournament

    best_games = best_steps = float("inf")
    steps = 0
    for _ in range(args.repeats):
        start = time.perf_counter()
        run_tournament(args.agents, args.games, turns=args.turns, seed=args.seed, workers=workers,
                       backend=backend, address=args.address)
        best_games = min(best_games, time.perf_counter() - start)
        start = time.perf_counter()
        steps = sum(run_jobs(_episode, range(args.episodes), shared=(args.env_turns, args.seed),
                             backend=backend, workers=workers, address=args.address))
        best_steps = min(best_steps, time.perf_counter() - start)
    return {"games_per_s": round(args.games / best_games, 2), "games_s": round(best_games, 2),
            "env_steps_per_s": round(steps / best_steps, 1), "env_steps": steps,
            "env_s": round(best_steps, 2)}


def main(args: Args) -> dict:
    out: dict = {"args": asdict(args), "cpus": os.cpu_count(),
                 "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}
    if "ray" in args.backends:
        from factionsim.backends import ray_init

        start = time.perf_counter()
        ray_init(args.address, num_cpus=max(args.workers)) if args.address is None \
            else ray_init(args.address)
        out["ray_init_s"] = round(time.perf_counter() - start, 2)
    results = {}
    for workers in args.workers:
        for backend in args.backends:
            results[f"{backend}/{workers}"] = measure(args, backend, workers)
            print(json.dumps({f"{backend}/{workers}": results[f"{backend}/{workers}"]}),
                  flush=True)
    out["results"] = results
    for w in args.workers:
        if f"local/{w}" in results and f"ray/{w}" in results:
            out[f"ray_over_local_games_{w}"] = round(
                results[f"ray/{w}"]["games_per_s"] / results[f"local/{w}"]["games_per_s"], 3)
    out["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    return out


def parse_args(argv: list[str] | None = None) -> Args:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    defaults = Args()
    p.add_argument("--games", type=int, default=defaults.games)
    p.add_argument("--turns", type=int, default=defaults.turns)
    p.add_argument("--agents", nargs="+", default=defaults.agents)
    p.add_argument("--episodes", type=int, default=defaults.episodes)
    p.add_argument("--env-turns", type=int, default=defaults.env_turns)
    p.add_argument("--workers", type=int, nargs="+", default=defaults.workers)
    p.add_argument("--backends", nargs="+", default=defaults.backends, choices=["local", "ray"])
    p.add_argument("--repeats", type=int, default=defaults.repeats)
    p.add_argument("--seed", type=int, default=defaults.seed)
    p.add_argument("--address", default=None)
    return Args(**vars(p.parse_args(argv)))


if __name__ == "__main__":
    print(json.dumps(main(parse_args()), indent=2))
