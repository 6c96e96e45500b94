"""Throughput of the envs: random masked play of each ruleset next to PettingZoo's connect four.

    python experiments/benchmark_env.py                       # ratios, about 1 minute
    python experiments/benchmark_env.py --repeats 9 --seconds 3
    python experiments/benchmark_env.py --modes full,engine   # also the rules alone
    python experiments/benchmark_env.py --train-steps 16384   # also MaskablePPO learner steps/s

Every env is played by the same loop (:func:`play`): ``agent_iter``, ``last()`` (which builds the
observation and the mask), ``step`` with a random legal action drawn from the mask; a step is one
decision (stepping an agent that is out of the game with ``None`` is not counted). The reference
is PettingZoo's own ``connect_four_v3`` (``pettingzoo.classic``, as its users build it: with its
wrappers), played in the same process, so the figure that matters is the **ratio** of a
ruleset's steps/s to connect four's: it holds on any machine, where absolute figures do not.

The machine may be shared and noisy, so each repeat measures every env in turn, in slices of
``--slice`` CPU seconds (whole games; default 0.05 s) taken round robin until each env has had
``--seconds``: every env of a repeat is measured over the same stretch of time, so what slows the
machine down slows them alike (with one long measurement per env, the ratios of repeats taken
minutes apart ranged 0.6-1.1 for one ruleset; sliced, within a few hundredths). The order is
rotated from one repeat to the next, time is CPU time of this process (``time.process_time``:
other processes' load does not count), and the figures printed are medians over the repeats:
steps/s of each env and, for each ruleset, the median of the repeats' ratios to connect four.
``--slice 0`` measures each env in one piece, as before. It also prints
the **best** of the repeats (the fastest measurement of each env, and its ratio to connect four's
fastest): on a machine other processes share, a measurement can only be slowed down by them,
never sped up, so the bests are the steadier figures there (use many short repeats:
``--repeats 21 --seconds 0.5``).

Modes (``--modes``): ``full`` is the loop above; ``mask-only`` reads only the mask
(``last(observe=False)`` + ``action_mask()``); ``engine`` is the rules alone
(``state.legal_actions()`` / ``apply``, no env), the ceiling of the other two; ``floor`` is the
PettingZoo loop over an env with no rules (:class:`FloorEnv`, WWN's spaces): what the API and
numpy cost before any rule runs.

``--train-steps N`` also runs MaskablePPO with the training defaults (``factionsim train``'s
``Args``) for ``N`` learner steps and the single-agent env alone (random masked learner actions,
the same opponents) for as many: learner steps/s with updates (over wall time, and per
CPU-second of this process and its env workers: steadier on a shared machine), and the env's
share of the time.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from pettingzoo import AECEnv

RULESETS = ("wwn", "engagements", "houses", "conflict")
REFERENCE = "connect_four_v3"


@dataclass
class Args:
    seconds: float = 2.0  # per measurement (whole games: at least one)
    slice: float = 0.05  # CPU seconds per turn of an env within a repeat (0: one piece)
    repeats: int = 5  # interleaved rounds; medians over them
    rulesets: str = ",".join(RULESETS)
    modes: str = "full"  # comma-separated: full, mask-only, engine, floor
    max_turns: int = 30  # the env's turn cap (make_env's default)
    train_steps: int = 0  # >0: also MaskablePPO learner steps/s (WWN) and the env's share
    n_envs: int = 0  # 0: the training script's default
    vec: str = ""  # "": the training script's default ("dummy", "workers" or "subproc")
    torch_threads: int = 0  # 0: the training script's default
    seed: int = 0


class FloorEnv(AECEnv):
    """No rules: the WWN env's agents, spaces and game length, and an observation written with the
    few numpy calls a real one makes (template copy, fixed values, ones, asset rows).

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


def connect_four() -> AECEnv:
    """PettingZoo's ``connect_four_v3.env()`` (it imports pygame, for rendering only)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.env()


def play(env: Any, rng: np.random.Generator, seed: int, mode: str = "full") -> int:
    """One whole game of random masked play; returns the number of decisions stepped.

    The same loop for every env: ``agent_iter``, ``last`` (``mode="full"``: with the observation;
    ``"mask-only"``: ``last(observe=False)`` and the env's ``action_mask()``), ``step``."""
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter():
        if mode == "mask-only":
            _, _, term, trunc, _ = env.last(observe=False)
            mask = None if term or trunc else env.action_mask()
        else:
            obs, _, term, trunc, _ = env.last()
            mask = obs["action_mask"]
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(mask)
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps


def play_engine(env: Any, rng: np.random.Generator, seed: int) -> int:
    """One whole game of the rules alone: ``legal_actions`` / ``apply`` on the env's state."""
    env.reset(seed=seed)
    state = env.state
    steps = 0
    while state.current_actor() is not None:
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
        steps += 1
    return steps


class Meter:
    """Whole games of one env in one loop (``mode``), played a slice at a time, with the steps
    and CPU seconds of this process added up over the slices."""

    def __init__(self, make: Callable[[], Any], mode: str, seed: int, label: str = ""):
        self.env, self.mode, self.seed, self.label = make(), mode, seed, label
        self.rng = np.random.default_rng(seed)
        self.steps = self.games = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        """Play whole games (at least one) for at least ``seconds`` of CPU time."""
        t0 = time.process_time()
        while True:
            seed = self.seed + self.games
            if self.mode == "engine":
                self.steps += play_engine(self.env, self.rng, seed)
            else:
                self.steps += play(self.env, self.rng, seed, self.mode)
            self.games += 1
            elapsed = time.process_time() - t0
            if elapsed >= seconds:
                break
        self.seconds += elapsed

    def result(self) -> dict[str, Any]:
        return {"steps": self.steps, "games": self.games, "seconds": self.seconds,
                "steps_per_s": self.steps / self.seconds}


def measure(make: Callable[[], Any], mode: str, seconds: float, seed: int) -> dict[str, Any]:
    """Steps/s (CPU time of this process) of whole games played for at least ``seconds``."""
    meter = Meter(make, mode, seed)
    meter.run(seconds)
    return meter.result()


def measure_sliced(makers: dict[str, Callable[[], Any]], jobs: list[tuple[str, str]],
                   seconds: float, slice_s: float, seed: int) -> dict[tuple[str, str], float]:
    """Steps/s of every ``(env, mode)`` job, measured round robin in slices of ``slice_s`` CPU
    seconds until each has had ``seconds`` (``slice_s`` 0: each in one piece, in turn)."""
    meters = {job: Meter(makers[job[0]], job[1], seed, label=job[0]) for job in jobs}
    while any(m.seconds < seconds for m in meters.values()):
        for m in meters.values():
            if m.seconds < seconds:
                m.run(min(slice_s, seconds - m.seconds) if slice_s > 0 else seconds)
    return {job: m.result()["steps_per_s"] for job, m in meters.items()}


def env_makers(args: Args) -> dict[str, Callable[[], Any]]:
    """name -> a function building that env: connect four, then each ruleset's AEC env."""
    from factionsim.envs import make_env

    makers: dict[str, Callable[[], Any]] = {REFERENCE: connect_four}
    for ruleset in args.rulesets.split(","):
        makers[ruleset] = lambda r=ruleset: make_env(ruleset=r, max_turns=args.max_turns)
    return makers


def floor_env(args: Args) -> FloorEnv:
    from factionsim.envs import make_env

    env = make_env(max_turns=args.max_turns)
    return FloorEnv(env.possible_agents, env.codec.observation_space, env.codec.action_space)


def env_steps_per_second(args: Args, mode: str) -> dict[str, Any]:
    """One WWN measurement in ``mode`` (``floor``, ``engine``, ``full``, ``mask-only``)."""
    if mode == "floor":
        make, loop = (lambda: floor_env(args)), "full"
    else:
        make, loop = env_makers(args)["wwn"], mode
    result = measure(make, loop, args.seconds, args.seed)
    return {"mode": mode, **result, "steps_per_s": round(result["steps_per_s"])}


def compare(args: Args) -> dict[str, Any]:
    """Interleaved repeats of every (env, mode); medians of steps/s and of ratios to connect
    four (full loop)."""
    makers = env_makers(args)
    modes = args.modes.split(",")
    jobs = [(REFERENCE, "full")] + [(name, mode) for mode in modes for name in makers
                                     if name != REFERENCE and mode != "floor"]
    if "floor" in modes:
        jobs.append(("floor", "full"))
        makers["floor"] = lambda: floor_env(args)
    runs: dict[tuple[str, str], list[float]] = {job: [] for job in jobs}
    ratios: dict[tuple[str, str], list[float]] = {job: [] for job in jobs}
    for r in range(args.repeats):
        k = r % len(jobs)
        this_round = measure_sliced(makers, jobs[k:] + jobs[:k],  # rotated: no env always first
                                    args.seconds, args.slice, args.seed + 1000 * r)
        for job, rate in this_round.items():
            runs[job].append(rate)
            ratios[job].append(rate / this_round[(REFERENCE, "full")])
    rows = []
    best_reference = max(runs[(REFERENCE, "full")])
    for name, mode in jobs:
        rows.append({"env": name, "mode": mode,
                     "steps_per_s": round(statistics.median(runs[(name, mode)])),
                     "ratio": round(statistics.median(ratios[(name, mode)]), 3),
                     "best_steps_per_s": round(max(runs[(name, mode)])),
                     "best_ratio": round(max(runs[(name, mode)]) / best_reference, 3),
                     "ratios": [round(x, 3) for x in ratios[(name, mode)]]})
    return {"repeats": args.repeats, "seconds": args.seconds, "slice": args.slice,
            "time": "process CPU",
            "results": rows}


def train_steps_per_second(args: Args) -> dict[str, Any]:
    """MaskablePPO with the training defaults (:class:`factionsim.training.Args`) for
    ``train_steps`` learner steps, then the same single-agent envs alone (random masked learner
    actions) for as many: the learner's steps/s and the env's share of a training step."""
    from benchmark_ppo_ab import cpu_seconds

    from factionsim.training import passive_openmp

    passive_openmp()  # as factionsim train does
    import torch
    from stable_baselines3.common.logger import Logger

    from factionsim.envs.single_agent import SingleAgentEnv
    from factionsim.training import Args as TrainArgs
    from factionsim.training.ppo import make_model, make_venv

    cfg = TrainArgs(seed=args.seed)
    cfg.vec = args.vec or cfg.vec
    n_envs = args.n_envs or cfg.n_envs
    torch.set_num_threads(args.torch_threads or cfg.torch_threads)
    venv = make_venv(cfg, {"max_turns": args.max_turns}, n_envs)
    model = make_model(cfg, venv, n_steps=cfg.n_steps * cfg.n_envs // n_envs)
    model.set_logger(Logger(None, []))  # measure, log nothing (no SB3-<date> temp folder)
    cpu0 = cpu_seconds(venv)
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.train_steps)
    train_s = time.perf_counter() - t0
    train_cpu = cpu_seconds(venv) - cpu0
    venv.close()
    # the env alone: the same learner decisions, random masked actions, no network
    env = SingleAgentEnv(max_turns=args.max_turns)
    rng = np.random.default_rng(args.seed)
    env.reset(seed=args.seed)
    t0 = time.perf_counter()
    for _ in range(model.num_timesteps):
        legal = np.flatnonzero(env.action_masks())
        _, _, done, _, _ = env.step(int(legal[rng.integers(len(legal))]))
        if done:
            env.reset()
    env_s = time.perf_counter() - t0
    return {"mode": f"maskable-ppo ({n_envs} envs, {cfg.vec}, {torch.get_num_threads()} torch "
                    "threads)",
            "steps": model.num_timesteps, "steps_per_s": round(model.num_timesteps / train_s),
            "steps_per_cpu_s": round(model.num_timesteps / train_cpu),
            "load": round(os.getloadavg()[0], 1),
            "env_alone_steps_per_s": round(model.num_timesteps / env_s),
            "env_share": round(env_s / train_s, 3)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for f in dataclasses.fields(Args):
        parser.add_argument("--" + f.name.replace("_", "-"), dest=f.name, type=type(f.default),
                            default=f.default)
    args = Args(**vars(parser.parse_args(argv)))
    report = compare(args)
    print(f"{'env':>16} {'mode':>9} {'steps/s':>8} {'x c4':>6} {'best':>8} {'x c4':>6}   "
          f"(medians and bests of {args.repeats} interleaved repeats, {args.seconds:g} s CPU "
          f"each in slices of {args.slice:g} s; then each repeat's ratio)")
    for r in report["results"]:
        print(f"{r['env']:>16} {r['mode']:>9} {r['steps_per_s']:>8} {r['ratio']:>6.2f} "
              f"{r['best_steps_per_s']:>8} {r['best_ratio']:>6.2f}   {r['ratios']}")
    if args.train_steps:
        report["training"] = t = train_steps_per_second(args)
        print(f"{t['mode']}: {t['steps_per_s']} learner steps/s ({t['steps_per_cpu_s']} per "
              f"CPU-second, load {t['load']}); the env alone "
              f"{t['env_alone_steps_per_s']} steps/s: {t['env_share']:.0%} of a training step")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
