"""Throughput of the WWN env: env steps/s with random masked actions, MaskablePPO steps/s.

    python experiments/benchmark_env.py                      # both, about 1.5 minutes
    python experiments/benchmark_env.py --train-steps 0      # env only

Env steps are AEC decisions of any faction (``env.step``); three ways of reading the mask:
``full`` builds every observation (``env.last()``), ``mask-only`` only the mask
(``env.last(observe=False)`` + ``env.action_mask()``), ``engine`` is the rules alone
(``state.legal_actions()``/``apply``), the ceiling for the other two. ``floor`` is the same
PettingZoo loop over an env with no rules at all (:class:`FloorEnv`): what the API and numpy cost
on this machine before any rule runs. Training steps are the learner's decisions
(``SingleAgentEnv``, opponents played inside), updates included.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from pettingzoo import AECEnv


@dataclass
class Args:
    seconds: float = 10.0  # per env measurement
    max_turns: int = 30
    train_steps: int = 16_384  # 0: skip the training measurement
    n_envs: int = 0  # 0: the training script's default
    vec: str = ""  # "" : the training script's default ("dummy" or "subproc")
    torch_threads: int = 0  # 0: the training script's default
    seed: int = 0


class FloorEnv(AECEnv):
    """No rules: the WWN env's agents, spaces and game length, and an observation written with the
    few numpy calls the real one makes (template copy, fixed values, ones, asset rows).

    Every step offers the same ``legal`` actions; the game is truncated after ``length`` steps.
    No env with these spaces runs the benchmark loop faster on the same machine.
    """

    metadata = {"name": "floor_v0", "is_parallelizable": False}

    def __init__(self, agents: list[str], observation_space: Any, action_space: Any, *,
                 legal: int = 21, length: int = 160, values: int = 64, ones: int = 30,
                 asset_rows: int = 23, row_size: int = 40):
        super().__init__()
        self.possible_agents = list(agents)
        self._spaces = (observation_space, action_space)
        self.length = length
        self.template = np.zeros(observation_space["observation"].shape, np.float32)
        self.n_actions = int(action_space.n)
        self.legal = list(range(0, self.n_actions, self.n_actions // legal))[:legal]
        self.values = [0.5] * values
        self.fixed = list(range(0, values * 3, 3))
        self.ones = list(range(1, ones * 3, 3))
        self.bank = np.ones((asset_rows, row_size), np.float32)
        self.rows = list(range(asset_rows))

    def observation_space(self, agent: str) -> Any:
        return self._spaces[0]

    def action_space(self, agent: str) -> Any:
        return self._spaces[1]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self.steps = 0

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = np.empty(len(self.template), np.float32)
        obs[:] = self.template
        obs[self.fixed] = self.values
        obs[self.ones] = 1.0
        block = obs[-self.bank.size:].reshape(self.bank.shape)
        np.take(self.bank, self.rows, axis=0, out=block)
        return {"observation": obs, "action_mask": self.action_mask()}

    def action_mask(self) -> np.ndarray:
        mask = np.zeros(self.n_actions, np.int8)
        mask[self.legal] = 1
        return mask

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        if self.steps >= self.length:
            self.truncations = {a: True for a in self.agents}
        self._accumulate_rewards()
        self.agent_selection = self.agents[(self.agents.index(agent) + 1) % len(self.agents)]
        self._deads_step_first()


def env_steps_per_second(args: Args, mode: str) -> dict:
    from factionsim.envs import make_env

    env = make_env(max_turns=args.max_turns)
    if mode == "floor":
        env = FloorEnv(env.possible_agents, env.codec.observation_space,
                       env.codec.action_space)
    rng = np.random.default_rng(args.seed)
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < args.seconds:
        env.reset(seed=args.seed + games)
        games += 1
        if mode == "engine":
            state = env.state
            while state.current_actor() is not None:
                legal = state.legal_actions()
                state.apply(legal[int(rng.integers(len(legal)))])
                steps += 1
            continue
        for _agent in env.agent_iter():
            if mode in ("full", "floor"):
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
    """MaskablePPO with the training defaults (:class:`factionsim.training.Args`)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.logger import Logger
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from factionsim.envs.features import policy_kwargs
    from factionsim.envs.single_agent import SingleAgentEnv
    from factionsim.training import Args as TrainArgs

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
    results = [env_steps_per_second(args, mode)
               for mode in ("floor", "engine", "full", "mask-only")]
    if args.train_steps:
        results.append(train_steps_per_second(args))
    for r in results:
        print(f"{r['mode']:>32}: {r['steps_per_s']:>7} steps/s ({r['steps']} steps)")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
