"""Throughput of the WWN env: env steps/s with random masked actions, MaskablePPO steps/s.

    python experiments/benchmark_env.py                      # both, about 1.5 minutes
    python experiments/benchmark_env.py --train-steps 0      # env only

Env steps are AEC decisions of any faction (``env.step``); three ways of reading the mask:
``full`` builds every observation (``env.last()``), ``mask-only`` only the mask
(``env.last(observe=False)`` + ``env.action_mask()``), ``engine`` is the rules alone
(``state.legal_actions()``/``apply``), the ceiling for the other two. Training steps are the
learner's decisions (``SingleAgentEnv``, opponents played inside), updates included.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))  # train_wwn_ppo: the PPO settings measured


@dataclass
class Args:
    seconds: float = 10.0  # per env measurement
    max_turns: int = 30
    train_steps: int = 16_384  # 0: skip the training measurement
    n_envs: int = 0  # 0: the training script's default
    vec: str = ""  # "" : the training script's default ("dummy" or "subproc")
    torch_threads: int = 0  # 0: the training script's default
    seed: int = 0


def env_steps_per_second(args: Args, mode: str) -> dict:
    from factionsim.envs import make_env

    env = make_env(max_turns=args.max_turns)
    rng = np.random.default_rng(args.seed)
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < args.seconds:
        env.reset(seed=args.seed + games)
        games += 1
        state = env.state
        if mode == "engine":
            while state.current_actor() is not None:
                legal = state.legal_actions()
                state.apply(legal[int(rng.integers(len(legal)))])
                steps += 1
            continue
        for _agent in env.agent_iter():
            if mode == "full":
                obs, _, term, trunc, _ = env.last()
                mask = obs["action_mask"]
            else:
                _, _, term, trunc, _ = env.last(observe=False)
                mask = None if term or trunc else env.action_mask()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    elapsed = time.perf_counter() - t0
    return {"mode": mode, "steps": steps, "games": games, "steps_per_s": round(steps / elapsed)}


def train_steps_per_second(args: Args) -> dict:
    """MaskablePPO with the training script's default settings (``train_wwn_ppo.Args``)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.logger import Logger
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
    from train_wwn_ppo import Args as TrainArgs

    from factionsim.envs.features import policy_kwargs
    from factionsim.envs.single_agent import SingleAgentEnv

    cfg = TrainArgs()
    n_envs = args.n_envs or cfg.n_envs
    torch.set_num_threads(args.torch_threads or cfg.torch_threads)
    vec = args.vec or cfg.vec
    vec_cls = SubprocVecEnv if vec == "subproc" else DummyVecEnv
    venv = make_vec_env(SingleAgentEnv, n_envs=n_envs, seed=args.seed, vec_env_cls=vec_cls,
                        env_kwargs={"max_turns": args.max_turns})
    model = MaskablePPO("MlpPolicy", venv, learning_rate=cfg.learning_rate,
                        n_steps=cfg.n_steps * cfg.n_envs // n_envs, batch_size=cfg.batch_size,
                        n_epochs=cfg.n_epochs, gamma=cfg.gamma, ent_coef=cfg.ent_coef,
                        device="cpu", seed=args.seed,
                        policy_kwargs=policy_kwargs(cfg.trunk, cfg.net_arch))
    model.set_logger(Logger(None, []))  # measure, log nothing (no SB3-<date> temp folder)
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.train_steps)
    elapsed = time.perf_counter() - t0
    venv.close()
    return {"mode": f"maskable-ppo ({n_envs} envs, {vec}, "
                    f"{torch.get_num_threads()} torch threads)",
            "steps": model.num_timesteps, "steps_per_s": round(model.num_timesteps / elapsed)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for f in dataclasses.fields(Args):
        parser.add_argument("--" + f.name.replace("_", "-"), dest=f.name, type=type(f.default),
                            default=f.default)
    args = Args(**vars(parser.parse_args(argv)))
    results = [env_steps_per_second(args, mode) for mode in ("engine", "full", "mask-only")]
    if args.train_steps:
        results.append(train_steps_per_second(args))
    for r in results:
        print(f"{r['mode']:>32}: {r['steps_per_s']:>7} steps/s ({r['steps']} steps)")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
