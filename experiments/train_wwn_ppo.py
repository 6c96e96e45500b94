"""Train one WWN faction with MaskablePPO against registry opponents (CleanRL-style, one file).

    python experiments/train_wwn_ppo.py --timesteps 400000 --opponents random --out runs/ppo
    factionsim train --timesteps 400000 --opponents random --out runs/ppo   # the same

The learner takes a random seat each episode (one policy for every faction); the other factions
are played by the named registry agents (``random``, ``heuristic``, ``policy:PATH`` of an earlier
model for self-play). Every ``eval_every`` steps the policy (sampling) plays ``eval_games``
games against each opponent kind (learner seats in rotation) and the win rate (sole highest
score at the end, see ``factionsim.envs``) goes to TensorBoard (``OUT/tb``) and stdout. The
final model is ``OUT/model.zip`` (also saved at each evaluation, a checkpoint);
``OUT/eval.json`` holds the evaluations. Play it with
``agent: policy:OUT/model.zip`` in a campaign file.

Defaults chosen for 2 CPU cores: one 128-unit layer shared by the policy and value heads
(``--trunk``: the observation is long, so the first layer is most of an update's work), then
128 units per head; the environments step in the training process (``--vec dummy``: with
``subproc`` the per-step messages between processes cost more than the parallel games save)
and torch uses both cores for the updates (``--torch-threads 2``).

    python experiments/train_wwn_ppo.py --eval-only runs/ppo/model.zip \
        --eval-opponents random heuristic --eval-games 200      # evaluate a saved model
    python experiments/train_wwn_ppo.py --eval-only random ...   # the random baseline
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np


@dataclass
class Args:
    timesteps: int = 400_000  # learner decisions; about 25-30 min on 2 CPU cores
    opponents: list[str] = field(default_factory=lambda: ["random"])
    eval_opponents: list[str] = field(default_factory=lambda: ["random"])
    seed: int = 0
    n_envs: int = 8
    vec: str = "dummy"  # or "subproc" (on 2 cores its per-step messages cost more than it saves)
    out: str = "runs/wwn_ppo"
    campaign: str | None = None  # default: the bundled campaign
    max_turns: int = 30
    learning_rate: float = 3e-4
    n_steps: int = 256  # per env between updates (8 x 256 = 2048 a rollout)
    batch_size: int = 512
    n_epochs: int = 4
    gamma: float = 0.995
    ent_coef: float = 0.01
    trunk: int = 128  # units of the first layer, shared by policy and value (0: not shared)
    net_arch: list[int] = field(default_factory=lambda: [128])  # per head, after the trunk
    eval_every: int = 50_000  # 0: no evaluation during training
    eval_games: int = 40
    torch_threads: int = 2
    eval_deterministic: bool = False  # sample from the policy (argmax play is much weaker)
    eval_only: str | None = None  # a saved model (or "random"): only evaluate it, eval_games each
    progress: bool = True  # progress bars (training steps, evaluation games) on stderr


def env_kwargs(args: Args, opponents: list[str]) -> dict[str, Any]:
    return {"campaign": args.campaign, "opponents": opponents, "max_turns": args.max_turns}


def evaluate(model: Any, args: Args, opponent: str, games: int, seed: int = 10_000,
             progress: bool = False) -> dict:
    """Win rate of the policy over ``games`` games, learner seats in rotation (``progress``: a
    bar of the games on stderr)."""
    from tqdm import tqdm

    from factionsim.envs.single_agent import SingleAgentEnv

    probe = SingleAgentEnv(**env_kwargs(args, [opponent]))
    seats = probe.aec.possible_agents
    envs = {s: SingleAgentEnv(learner=s, **env_kwargs(args, [opponent])) for s in seats}
    wins = shared = 0
    per_seat = {s: 0 for s in seats}
    for g in tqdm(range(games), desc=f"evaluating vs {opponent}", unit="game", file=sys.stderr,
                  leave=False, disable=not progress):
        seat = seats[g % len(seats)]
        env = envs[seat]
        obs, _ = env.reset(seed=seed + g)
        done, info = False, {}
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(),
                                      deterministic=args.eval_deterministic)
            obs, _, done, _, info = env.step(int(action))
        wins += info["outcome"] > 0
        shared += info["outcome"] == 0
        per_seat[seat] += info["outcome"] > 0
    return {"opponent": opponent, "games": games, "win_rate": wins / games,
            "shared_win_rate": shared / games,
            "win_rate_by_seat": {s: per_seat[s] / len(range(i, games, len(seats)))
                                 for i, s in enumerate(seats) if i < games}}


class RandomPolicy:
    """Uniform over the legal actions: the baseline a trained policy is compared with."""

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)

    def predict(self, obs: Any, action_masks: Any, deterministic: bool = True) -> tuple:
        return int(self.rng.choice(np.flatnonzero(action_masks))), None


def evaluate_only(args: Args) -> list[dict]:
    """Win rates of ``args.eval_only`` against each of ``args.eval_opponents``."""
    if args.eval_only == "random":
        model: Any = RandomPolicy(args.seed)
    else:
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(args.eval_only, device="cpu")
    results = []
    for opp in args.eval_opponents:
        t0 = time.perf_counter()
        r = evaluate(model, args, opp, args.eval_games, seed=90_000 + args.seed,
                     progress=args.progress)
        r["seconds"] = round(time.perf_counter() - t0, 1)
        results.append(r)
        print(json.dumps({"policy": args.eval_only, **r}), flush=True)
    return results


def train(args: Args) -> Path:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
    from tqdm import tqdm

    from factionsim.envs.features import policy_kwargs
    from factionsim.envs.single_agent import SingleAgentEnv

    torch.set_num_threads(args.torch_threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "args.json").write_text(json.dumps(dataclasses.asdict(args), indent=2))
    vec_cls = SubprocVecEnv if args.vec == "subproc" and args.n_envs > 1 else DummyVecEnv
    venv = make_vec_env(SingleAgentEnv, n_envs=args.n_envs, seed=args.seed, vec_env_cls=vec_cls,
                        env_kwargs=env_kwargs(args, args.opponents))
    model = MaskablePPO(
        "MlpPolicy", venv, learning_rate=args.learning_rate, n_steps=args.n_steps,
        batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma,
        ent_coef=args.ent_coef, seed=args.seed, verbose=0, device="cpu",
        tensorboard_log=str(out / "tb"), policy_kwargs=policy_kwargs(args.trunk, args.net_arch),
    )
    results: list[dict] = []

    class Evaluate(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next_eval = args.eval_every
            self.t0 = time.perf_counter()

        def _on_step(self) -> bool:
            if args.eval_every > 0 and self.num_timesteps >= self.next_eval:
                self.next_eval += args.eval_every
                self._evaluate()
            return True

        def _evaluate(self) -> None:
            fps = self.num_timesteps / (time.perf_counter() - self.t0)
            for opp in args.eval_opponents:
                r = evaluate(self.model, args, opp, args.eval_games)
                r.update(timesteps=self.num_timesteps, steps_per_s=round(fps, 1))
                results.append(r)
                self.logger.record(f"eval/win_rate_{opp.replace(':', '_')}", r["win_rate"])
                tqdm.write(f"[{self.num_timesteps:>8} steps, {fps:6.0f} steps/s] vs {opp}: "
                           f"win rate {r['win_rate']:.2f} (shared {r['shared_win_rate']:.2f})")
            self.logger.record("time/steps_per_s", fps)
            self.model.save(out / "model.zip")  # a checkpoint: a stopped run still has a policy
            (out / "eval.json").write_text(json.dumps({"history": results}, indent=2))

    class Progress(BaseCallback):
        """A bar of the learner's steps on stderr (evaluation lines print above it)."""

        def _on_training_start(self) -> None:
            self.bar = tqdm(total=args.timesteps, desc="training", unit="step", file=sys.stderr,
                            dynamic_ncols=True)

        def _on_step(self) -> bool:
            self.bar.update(min(self.num_timesteps, args.timesteps) - self.bar.n)
            return True

        def _on_training_end(self) -> None:
            self.bar.close()

    callbacks = [Evaluate(), Progress()] if args.progress else [Evaluate()]
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=callbacks, tb_log_name="ppo")
    elapsed = time.perf_counter() - t0
    model.save(out / "model.zip")
    venv.close()
    final = [evaluate(model, args, opp, args.eval_games * 2, seed=50_000, progress=args.progress)
             for opp in args.eval_opponents]
    summary = {"timesteps": args.timesteps, "seconds": round(elapsed, 1),
               "steps_per_s": round(args.timesteps / elapsed, 1), "final": final,
               "history": results}
    (out / "eval.json").write_text(json.dumps(summary, indent=2))
    for r in final:
        print(f"final vs {r['opponent']}: win rate {r['win_rate']:.2f} over {r['games']} games")
    print(f"trained {args.timesteps} steps in {elapsed:.0f} s "
          f"({args.timesteps / elapsed:.0f} steps/s); saved {out / 'model.zip'}")
    return out / "model.zip"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One ``--option`` per field of :class:`Args` (lists take several values)."""
    for f in dataclasses.fields(Args):
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING \
            else f.default
        flag = "--" + f.name.replace("_", "-")
        if isinstance(default, list):
            kind = int if default and isinstance(default[0], int) else str
            parser.add_argument(flag, dest=f.name, nargs="+", type=kind, default=default)
        elif f.name in ("campaign", "eval_only"):
            parser.add_argument(flag, dest=f.name, default=None)
        elif isinstance(default, bool):
            parser.add_argument(flag, dest=f.name, default=default,
                                type=lambda s: s.lower() in ("1", "true", "yes"),
                                help=f"true/false, default {default}")
        else:
            parser.add_argument(flag, dest=f.name, type=type(default), default=default,
                                help=f"default {default}")


def args_from_namespace(ns: argparse.Namespace) -> Args:
    return Args(**{f.name: getattr(ns, f.name) for f in dataclasses.fields(Args)})


def run(args: Args) -> Path | list[dict]:
    """What the options ask for: evaluate a saved model (``eval_only``) or train one."""
    return evaluate_only(args) if args.eval_only else train(args)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    np.set_printoptions(precision=3)
    run(args_from_namespace(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
