"""Train factionsim factions with RLlib (new API stack: RLModule, env runners, learners), one file.

    python experiments/train_rllib.py --iterations 200 --out runs/rllib           # this machine
    RAY_ADDRESS=auto python experiments/train_rllib.py --env-runners 32 ...        # a Ray cluster
    python experiments/train_rllib.py --smoke                                      # CI: < 2 min

Needs ``pip install "factionsim[rl,cluster]"``. Any ruleset with an env codec works
(``--campaign`` names the file; default: the bundled WWN campaign).

The env (:class:`FactionMultiAgentEnv`) is a turn-based RLlib ``MultiAgentEnv`` over the
PettingZoo AEC env (:mod:`factionsim.envs`): each step's observation dict holds only the faction
that decides next, as ``{"observations": float32[N_obs], "action_mask": float32[N_act]}``.
Factions named in ``--internal`` (``faction=agent``, e.g. ``veiled-hand=heuristic``) are played
*inside* the env by registry agents (heuristic, random, ``policy:PATH``) and are invisible to
RLlib. The others are RLlib agents, mapped by ``policy_mapping_fn`` to two RLModules:

- ``learner``: the seats named in ``--learner-seats`` (default: the first RLlib seat), the only
  module in ``policies_to_train``;
- ``frozen``: every other RLlib seat; not trained. Every ``--snapshot-every`` iterations the
  learner's weights are copied into it (self-play against a frozen earlier self; 0 = never, the
  frozen seats then keep their initial random weights).

Both modules are RLlib's ``ActionMaskingTorchRLModule`` (a PPO module that adds ``log(mask)`` to
the logits, so illegal actions are never sampled). Rewards are those of the AEC env (shaped
standing plus the final outcome), handed to a faction together with its next observation (or at
the end of its game), so nothing is credited to an agent between its turns. An index outside the
mask (only unmasked sampling, e.g. RLlib's env check) plays the lowest legal index instead.

Prints one JSON line per iteration (learner return, episodes, env steps, steps/s) and saves a
checkpoint in OUT at the end.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv


@dataclass
class Args:
    iterations: int = 200
    campaign: str | None = None  # default: the bundled WWN campaign
    max_turns: int = 30
    internal: list[str] = field(default_factory=lambda: [])  # faction=agent, played inside the env
    learner_seats: list[str] = field(default_factory=lambda: [])  # default: the first RLlib seat
    snapshot_every: int = 10  # copy learner -> frozen every N iterations (0: never)
    env_runners: int = 1  # remote env runners (0: sample in the driver)
    envs_per_runner: int = 1
    train_batch: int = 4000
    minibatch: int = 256
    epochs: int = 4
    lr: float = 3e-4
    gamma: float = 0.995
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    seed: int = 0
    out: str = "runs/rllib"
    address: str | None = None  # a Ray cluster (default: $RAY_ADDRESS, else a local instance)
    smoke: bool = False  # tiny settings for CI: a few iterations on a 3-turn game


SMOKE = {"iterations": 2, "max_turns": 3, "internal": ["veiled-hand=heuristic", "ashen-flame=random"],
         "snapshot_every": 1, "env_runners": 0, "train_batch": 128, "minibatch": 64, "epochs": 1,
         "hidden": [32]}


class FactionMultiAgentEnv(MultiAgentEnv):
    """Turn-based RLlib env over :func:`factionsim.envs.make_env` (see the module docstring).

    ``config``: ``campaign``, ``max_turns``, ``internal`` ({faction: agent name}), ``shaping``.
    """

    def __init__(self, config: dict[str, Any] | None = None):
        super().__init__()
        from factionsim.agents import make_agent
        from factionsim.envs import make_env

        config = dict(config or {})
        options = {"max_turns": config.get("max_turns", 30)}
        if "shaping" in config:
            options["shaping"] = config["shaping"]
        self.aec = make_env(config.get("campaign"), **options)
        internal = dict(config.get("internal") or {})
        unknown = set(internal) - set(self.aec.possible_agents)
        if unknown:
            raise ValueError(f"--internal names unknown factions {sorted(unknown)}; factions: "
                             f"{', '.join(self.aec.possible_agents)}")
        self.internal = {fid: make_agent(name, self.aec.ruleset) for fid, name in internal.items()}
        self.possible_agents = [a for a in self.aec.possible_agents if a not in self.internal]
        if not self.possible_agents:
            raise ValueError("every faction is played inside the env; leave at least one to RLlib")
        self.agents = list(self.possible_agents)
        codec = self.aec.codec
        space = gym.spaces.Dict({
            "action_mask": gym.spaces.Box(0.0, 1.0, (codec.n_actions,), np.float32),
            "observations": codec.observation_space["observation"],
        })
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: codec.action_space for a in self.possible_agents}
        self._rng = np.random.default_rng(config.get("seed", 0))
        self._pending: dict[str, float] = {}
        self._acted: set[str] = set()
        self._done: set[str] = set()

    def _obs(self, agent: str) -> dict[str, np.ndarray]:
        o = self.aec.observe(agent)
        return {"action_mask": o["action_mask"].astype(np.float32), "observations": o["observation"]}

    def _collect(self) -> None:
        for a in self.possible_agents:
            self._pending[a] += float(self.aec.rewards.get(a, 0.0))

    def _advance(self) -> tuple[dict, dict, dict, dict]:
        """Play internal seats and step out finished factions until an RLlib agent decides or the
        game ends; return (obs, rewards, terminateds, infos) for this RLlib step."""
        env = self.aec
        obs, rewards, terms, infos = {}, {}, {}, {}
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                if agent in self.possible_agents and agent not in self._done:
                    self._done.add(agent)
                    if agent in self._acted:  # its last observation closes its episode
                        obs[agent], rewards[agent] = self._obs(agent), self._pending[agent]
                        terms[agent], infos[agent] = True, dict(env.infos.get(agent, {}))
                    self._pending[agent] = 0.0
                env.step(None)
                self._collect()
                continue
            if agent in self.internal:
                legal, _ = env._legal()
                env.step_action(self.internal[agent].act(env.state.view(agent), legal, self._rng))
                self._collect()
                continue
            obs[agent], rewards[agent] = self._obs(agent), self._pending[agent]
            self._pending[agent] = 0.0
            self._acted.add(agent)
            return obs, rewards, terms, infos
        for agent in self.possible_agents:  # game over: close every episode still open
            if agent not in self._done and agent in self._acted:
                obs[agent], rewards[agent] = self._obs(agent), self._pending[agent]
                terms[agent], infos[agent] = True, dict(self.aec.infos.get(agent, {}))
            self._done.add(agent)
        terms["__all__"] = True
        return obs, rewards, terms, infos

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.aec.reset(seed=int(self._rng.integers(2**31 - 1)))
        self._pending = {a: 0.0 for a in self.possible_agents}
        self._acted, self._done = set(), set()
        obs, _, terms, infos = self._advance()
        if terms.get("__all__"):
            raise RuntimeError("the game ended before any RLlib agent decided")
        return obs, infos

    def step(self, action_dict: dict[str, Any]):
        ((agent, action),) = action_dict.items()
        illegal = self.aec.step_or_lowest(action)  # unmasked sampling (RLlib's env check)
        self._collect()
        obs, rewards, terms, infos = self._advance()
        if illegal and agent in obs:
            infos[agent] = {**infos.get(agent, {}), "illegal_action": int(action)}
        terms.setdefault("__all__", False)
        return obs, rewards, terms, {"__all__": False}, infos


def build_config(args: Args) -> Any:
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    internal = dict(item.split("=", 1) for item in args.internal)
    env_config = {"campaign": args.campaign, "max_turns": args.max_turns, "internal": internal,
                  "seed": args.seed}
    seats = FactionMultiAgentEnv(env_config).possible_agents
    learners = set(args.learner_seats or seats[:1])
    if not learners <= set(seats):
        raise ValueError(f"--learner-seats must be among the RLlib seats {seats}")

    def policy_mapping_fn(agent_id: str, episode: Any, **kwargs: Any) -> str:
        return "learner" if agent_id in learners else "frozen"

    model = {"head_fcnet_hiddens": list(args.hidden), "fcnet_hiddens": list(args.hidden),
             "vf_share_layers": True}
    modules = {"learner": RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model)}
    if set(seats) - learners:
        modules["frozen"] = RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model)
    return (
        PPOConfig()
        .environment(FactionMultiAgentEnv, env_config=env_config)
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner,
                     num_cpus_per_env_runner=1)
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=args.train_batch, minibatch_size=args.minibatch,
                  num_epochs=args.epochs, lr=args.lr, gamma=args.gamma)
        .multi_agent(policies=set(modules), policy_mapping_fn=policy_mapping_fn,
                     policies_to_train=["learner"])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
        .debugging(seed=args.seed)
    )


def snapshot(algo: Any) -> None:
    """Copy the learner's weights into the frozen module on every env runner."""
    state = algo.get_module("learner").get_state(inference_only=True)

    def load(runner: Any) -> None:
        if "frozen" in runner.module:
            runner.module["frozen"].set_state(state)

    algo.env_runner_group.foreach_env_runner(load, local_env_runner=True)


def _get(d: dict[str, Any], *path: str) -> Any:
    for key in path:
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


def train(args: Args) -> list[dict[str, Any]]:
    import ray

    if not ray.is_initialized():
        ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
    algo = build_config(args).build_algo()
    history = []
    try:
        for it in range(1, args.iterations + 1):
            start = time.perf_counter()
            result = algo.train()
            secs = time.perf_counter() - start
            steps = int(_get(result, "env_runners", "num_env_steps_sampled") or 0)
            ret = _get(result, "env_runners", "module_episode_returns_mean", "learner")
            row = {"iteration": it,
                   "learner_return": None if ret is None else round(float(ret), 4),
                   "episodes": int(_get(result, "env_runners", "num_episodes") or 0),
                   "env_steps": steps, "env_steps_per_s": round(steps / secs, 1) if secs else None,
                   "seconds": round(secs, 2)}
            history.append(row)
            print(json.dumps(row), flush=True)
            if args.snapshot_every and it % args.snapshot_every == 0 and algo.get_module("frozen"):
                snapshot(algo)
        out = Path(args.out).resolve()
        out.mkdir(parents=True, exist_ok=True)
        algo.save_to_path(str(out / "checkpoint"))
    finally:
        algo.stop()
    return history


def parse_args(argv: list[str] | None = None) -> Args:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        if f.type == "bool":
            p.add_argument(flag, action="store_true")
        elif f.name in ("internal", "learner_seats", "hidden"):
            p.add_argument(flag, nargs="*", type=int if f.name == "hidden" else str,
                           default=f.default_factory())
        else:
            kind = {"int": int, "float": float}.get(str(f.type), str)
            p.add_argument(flag, type=kind, default=f.default)
    ns = p.parse_args(argv)
    args = Args(**vars(ns))
    if args.smoke:
        args = dataclasses.replace(args, **SMOKE)
    return args


if __name__ == "__main__":
    train(parse_args())
