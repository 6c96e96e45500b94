"""Train one faction policy with MaskablePPO against registry opponents, and watch it learn.

The learner takes a random seat each episode (one policy for every faction of the campaign); the
other factions are played by the named registry agents (``random``, ``heuristic``, ``trained``,
``policy:PATH`` of an earlier policy for self-play). Every ``eval_every`` learner steps (and at
the start) the policy plays ``eval_games`` games against each of ``eval_opponents`` with learner
seats in rotation, played by the one game loop (:mod:`.evaluate`) with the numpy forward pass
of the file format (so the figures are those of the file that is written).

What a run folder ``OUT`` holds:

- ``policy.json`` + ``policy.npz``: the policy (:mod:`factionsim.models.files`; play it with
  ``agent: policy:OUT/policy.json``), rewritten at every evaluation (a stopped run still has one)
  and at the end, with the final evaluation in its ``training`` metadata;
- ``sb3_checkpoint.zip``: stable-baselines3's own save of the model (optimizer state included),
  for resuming or inspecting *this* run only: it is pickled, and factionsim plays such a file only
  with ``--trust-model``;
- ``eval.json``: every evaluation (``history``) and the final one (``final``: ``final_eval_games``
  games per opponent, with Wilson 95% intervals), plus the training time and speed;
- ``run.json`` / ``command.txt``: the exact command, options and versions
  (:mod:`factionsim.training.record`);
- ``tb/``: TensorBoard logs (``tensorboard --logdir OUT/tb``): ``eval/win_rate_vs_<opponent>``
  per opponent over the learner's steps, ``train/win_rate`` (the last 200 training games),
  ``time/steps_per_s`` and SB3's losses.

On the terminal a progress bar counts the learner's steps and shows the current win rates
(training games, and the last evaluation against each opponent); each evaluation also prints one
line above it.
"""

from __future__ import annotations

import json
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

from factionsim.core.game import FactionsimError

from .args import Args
from .evaluate import evaluate, policy_agent
from .evaluate import run_campaign as _campaign

#: the training games the "train win rate" averages over
TRAIN_WINDOW = 200


def provenance(record: dict[str, Any], args: Args) -> dict[str, Any]:
    """What a policy file says of the run that made it (its ``training`` field)."""
    return {"algorithm": "MaskablePPO (sb3-contrib)", "command": record["command"],
            "versions": record["versions"], "git": record["git"], "opponents": args.opponents}


def env_kwargs(args: Args, opponents: list[str]) -> dict[str, Any]:
    """``SingleAgentEnv`` options of a run."""
    return {"campaign": args.campaign, "ruleset": args.ruleset, "opponents": opponents,
            "max_turns": args.max_turns}


def _tag(opponent: str) -> str:
    return opponent.replace(":", "_").replace("/", "_")


#: ``--vec``: how the training envs are stepped
VEC_KINDS = ("dummy", "workers", "subproc")


def make_venv(args: Args, kwargs: dict[str, Any], n_envs: int | None = None) -> Any:
    """``n_envs`` (default ``args.n_envs``) single-agent envs made with ``kwargs``, seeded by
    ``args.seed``, stepped as ``args.vec`` says: ``dummy`` in this process, ``workers`` by
    ``args.workers`` processes each stepping its share (:mod:`factionsim.envs.vec_workers`),
    ``subproc`` one process per env (stable-baselines3's ``SubprocVecEnv``)."""
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from factionsim.envs.single_agent import SingleAgentEnv
    from factionsim.envs.vec_workers import WorkerVecEnv

    if args.vec not in VEC_KINDS:
        raise FactionsimError(f"--vec {args.vec}: one of {', '.join(VEC_KINDS)}")
    n_envs = n_envs or args.n_envs
    kind = args.vec if n_envs > 1 else "dummy"
    vec_cls = {"dummy": DummyVecEnv, "workers": WorkerVecEnv, "subproc": SubprocVecEnv}[kind]
    options = {"workers": args.workers} if kind == "workers" else {}
    return make_vec_env(SingleAgentEnv, n_envs=n_envs, seed=args.seed, vec_env_cls=vec_cls,
                        env_kwargs=kwargs, vec_env_kwargs=options)


def make_model(args: Args, venv: Any, n_steps: int | None = None, **options: Any) -> Any:
    """The run's MaskablePPO on ``venv``: ``args``' PPO settings and network, sb3-contrib's
    algorithm with the pieces of :mod:`factionsim.envs.sb3_fast` (the same values, less work),
    the trunk multiplied by its varying columns
    (:func:`~factionsim.envs.features.linear_by_columns`) and SB3's Adam fused (equal up to
    float rounding), its rollouts on one torch thread
    (:class:`~factionsim.envs.sb3_fast.FastMaskablePPO`); ``n_steps`` per env (default
    ``args.n_steps``), ``options`` for ``MaskablePPO`` (``tensorboard_log``...)."""
    from factionsim.envs.features import policy_kwargs
    from factionsim.envs.sb3_fast import CompactRolloutBuffer, FastMaskablePolicy, FastMaskablePPO

    return FastMaskablePPO(
        FastMaskablePolicy, venv, learning_rate=args.learning_rate,
        n_steps=n_steps or args.n_steps, batch_size=args.batch_size, n_epochs=args.n_epochs,
        gamma=args.gamma, ent_coef=args.ent_coef, seed=args.seed, verbose=0, device="cpu",
        policy_kwargs={**policy_kwargs(args.trunk, args.net_arch),
                       # SB3's Adam (its eps), fused: one pass over the weights per step
                       "optimizer_kwargs": {"eps": 1e-5, "fused": True}},
        rollout_buffer_class=CompactRolloutBuffer, **options)


def train(args: Args) -> Path:
    """Train as ``args`` say; returns the path of ``OUT/policy.json``."""
    import torch

    from factionsim.envs import make_codec

    from .export import export_sb3
    from .record import write_run_record

    torch.set_num_threads(args.torch_threads)
    out = Path(args.out_dir())
    out.mkdir(parents=True, exist_ok=True)
    record = write_run_record(out, args)
    state, campaign = _campaign(args)
    codec = make_codec(state)
    venv = make_venv(args, env_kwargs(args, args.opponents))
    model = make_model(args, venv, tensorboard_log=str(out / "tb"))
    watch = make_watch(args, out, codec, state, provenance(record, args), campaign)
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=watch, tb_log_name="ppo")
    elapsed = time.perf_counter() - t0
    venv.close()
    model.save(out / "sb3_checkpoint.zip")
    path = out / "policy.json"
    written = export_sb3(model, codec, state, path, provenance(record, args), campaign,
                         dtype=args.weights_dtype)  # evaluated as stored (float16 included)
    player = policy_agent(written, str(path), args, state)
    final = [evaluate(player, args, opp, args.final_eval_games, seed=50_000,
                      progress=args.progress) for opp in args.eval_opponents]
    summary = {"timesteps": int(model.num_timesteps), "seconds": round(elapsed, 1),
               "steps_per_s": round(model.num_timesteps / elapsed, 1), "final": final,
               "history": watch.history}
    from factionsim.core.files import write_atomic

    write_atomic(out / "eval.json", json.dumps(summary, indent=2) + "\n")
    training = {**provenance(record, args), "timesteps": summary["timesteps"],
                "seconds": summary["seconds"],
                "final_eval": [{k: r[k] for k in ("opponent", "games", "win_rate",
                                                  "win_rate_ci95", "shared_win_rate")}
                               for r in final]}
    export_sb3(model, codec, state, path, training, campaign, dtype=args.weights_dtype)
    for r in final:
        print(f"final vs {r['opponent']}: win rate {r['win_rate']:.3f} "
              f"(95% CI {r['win_rate_ci95'][0]:.3f}-{r['win_rate_ci95'][1]:.3f}) over "
              f"{r['games']} games")
    print(f"trained {summary['timesteps']} steps in {elapsed:.0f} s "
          f"({summary['steps_per_s']:.0f} steps/s); wrote {path} (play it with "
          f"agent: policy:{path})")
    return path


def _watch_class() -> type:
    """The callback that makes a run watchable (built when training starts: SB3 is heavy)."""
    from stable_baselines3.common.callbacks import BaseCallback
    from tqdm import tqdm

    from .export import export_sb3, policy_in_memory

    class WatchCallback(BaseCallback):
        """Progress bar with win rates, evaluations to TensorBoard, eval.json and checkpoints."""

        def __init__(self, args: Args, out: Path, codec: Any, state: Any,
                     training: dict[str, Any], campaign: str):
            super().__init__()
            self.args, self.out, self.codec, self.state = args, out, codec, state
            self.training, self.campaign = training, campaign
            self.history: list[dict[str, Any]] = []
            self.outcomes: deque[float] = deque(maxlen=TRAIN_WINDOW)
            self.latest: dict[str, float] = {}
            self.next_eval = 0
            self.bar: Any = None
            self.t0 = time.perf_counter()

        def policy_now(self, model: Any) -> Any:
            return policy_in_memory(model, self.codec, self.state)

        def _on_training_start(self) -> None:
            self.t0 = time.perf_counter()
            if self.args.progress:
                self.bar = tqdm(total=self.args.timesteps, desc="training", unit="step",
                                file=sys.stderr, dynamic_ncols=True)

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                if done and "outcome" in info:
                    self.outcomes.append(float(info["outcome"] > 0))
            if self.bar is not None:
                self.bar.update(min(self.num_timesteps, self.args.timesteps) - self.bar.n)
            if self.args.eval_every > 0 and self.num_timesteps >= self.next_eval:
                self.next_eval += self.args.eval_every
                self._evaluate()
            return True

        def _train_win_rate(self) -> float | None:
            return sum(self.outcomes) / len(self.outcomes) if self.outcomes else None

        def _on_rollout_end(self) -> None:
            rate = self._train_win_rate()
            if rate is not None:
                self.logger.record("train/win_rate", rate)
            self._show()

        def _show(self) -> None:
            if self.bar is None:
                return
            rate = self._train_win_rate()
            parts = [f"train win {rate:.2f}"] if rate is not None else []
            parts += [f"vs {k} {v:.2f}" for k, v in self.latest.items()]
            self.bar.set_postfix_str(", ".join(parts), refresh=False)

        def _evaluate(self) -> None:
            args = self.args
            elapsed = time.perf_counter() - self.t0
            fps = self.num_timesteps / elapsed if elapsed > 0 else 0.0
            player = policy_agent(self.policy_now(self.model), "being trained", args, self.state)
            for opp in args.eval_opponents:
                r = evaluate(player, args, opp, args.eval_games)
                r.update(timesteps=int(self.num_timesteps), steps_per_s=round(fps, 1))
                self.history.append(r)
                self.latest[opp] = r["win_rate"]
                self.logger.record(f"eval/win_rate_vs_{_tag(opp)}", r["win_rate"])
                line = (f"[{self.num_timesteps:>8} steps, {fps:6.0f} steps/s] vs {opp}: win "
                        f"rate {r['win_rate']:.2f} (shared {r['shared_win_rate']:.2f}, "
                        f"{r['games']} games)")
                if self.bar is not None:
                    tqdm.write(line, file=sys.stderr)
                else:
                    print(line, flush=True)
            self.logger.record("time/steps_per_s", fps)
            self.logger.dump(self.num_timesteps)
            self._show()
            from factionsim.core.files import write_atomic

            write_atomic(self.out / "eval.json",
                         json.dumps({"history": self.history}, indent=2) + "\n")
            export_sb3(self.model, self.codec, self.state, self.out / "policy.json",
                       {**self.training, "checkpoint_at": int(self.num_timesteps)},
                       self.campaign, dtype=args.weights_dtype)
            self.model.save(self.out / "sb3_checkpoint.zip")

        def _on_training_end(self) -> None:
            if self.bar is not None:
                self.bar.close()

    return WatchCallback


def make_watch(args: Args, out: Path, codec: Any, state: Any, training: dict[str, Any],
               campaign: str) -> Any:
    """The run's :func:`_watch_class` callback (``training``: the checkpoints' provenance)."""
    return _watch_class()(args, out, codec, state, training, campaign)


# ----------------------------------------------------------------------------- other modes
def _player(args: Args) -> Any:
    """The agent ``--eval-only`` names (random, trained: the shipped policy, or a policy file),
    made by the registry for the run's ruleset and checked against its campaign before any
    game."""
    from factionsim.agents import make_agent

    name = args.eval_only if args.eval_only in ("random", "trained") else f"policy:{args.eval_only}"
    options = {} if name == "random" else {"deterministic": args.eval_deterministic}
    state = _campaign(args)[0]
    player = make_agent(name, state.ruleset, **options)
    player.check_fits(state)
    return player


def evaluate_only(args: Args) -> list[dict[str, Any]]:
    """Win rates of ``args.eval_only`` against each of ``args.eval_opponents`` (one JSON line
    each on stdout); trains and writes nothing."""
    player = _player(args)
    results = []
    for opp in args.eval_opponents:
        r = evaluate(player, args, opp, args.eval_games, seed=90_000 + args.seed,
                     progress=args.progress)
        results.append(r)
        print(json.dumps({"policy": args.eval_only, **r}), flush=True)
    return results


def convert(args: Args) -> Path:
    """Write the stable-baselines3 zip ``args.convert`` as ``OUT/policy.json`` + ``.npz`` for
    the run's ruleset and campaign (the loading itself needs ``--trust-model``)."""
    from factionsim.envs import make_codec
    from factionsim.models import (
        UntrustedModelError,
        pickled_models_trusted,
        untrusted_message,
        write_policy,
    )

    from .export import description, load_sb3_zip

    if not pickled_models_trusted():
        raise UntrustedModelError(untrusted_message(args.convert))
    network, arrays, spaces = load_sb3_zip(args.convert)
    state, campaign = _campaign(args)
    codec = make_codec(state)
    if (codec.obs_size, codec.n_actions) != spaces:
        raise FactionsimError(
            f"{args.convert}: its spaces (observation {spaces[0]}, {spaces[1]} actions) are not "
            f"those of {campaign} (observation {codec.obs_size}, {codec.n_actions} actions); "
            "pass the --ruleset and --campaign it was trained on")
    d = description(codec, state, network,
                    {"converted_from": str(args.convert)}, campaign)
    path = Path(args.out_dir()) / "policy.json"
    write_policy(path, d, arrays, dtype=args.weights_dtype)
    print(f"wrote {path} (play it with agent: policy:{path})")
    return path
