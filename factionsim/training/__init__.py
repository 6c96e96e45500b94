"""Training policies (needs the ``rl`` extra: torch, stable-baselines3, sb3-contrib).

- :class:`Args` (:mod:`.args`): a run's options, one ``--option`` each; importing it imports no
  torch.
- :func:`run` / :func:`train` / :func:`evaluate_only` / :func:`convert` (:mod:`.ppo`):
  MaskablePPO against registry opponents, with progress bar, TensorBoard curves, ``eval.json``
  and the run's record (:mod:`.record`); writes the policy file format of
  :mod:`factionsim.models` (:mod:`.export`).
- :func:`.league_run.train_league` (``--method league``): imitation of an expert (behaviour
  cloning, DAgger) then PPO against a league, on a set-based network (:mod:`.nets`,
  :mod:`.graph`) played by many games at once (:mod:`.games`, :mod:`.imitation`, :mod:`.league`).
- :func:`.value.train_value` (``--method value``, WWN): a learned evaluator of afterstates,
  played by one-ply search over the planner's candidates (:mod:`.value_data`, :mod:`.value_fit`).
- :func:`.leaf.train_leaf` (``--method leaf``, WWN): the planner's search, its rollouts' last
  states scored by an evaluator of the final outcome learnt from heuristic games
  (:mod:`.leaf_data`, :mod:`.leaf_fit`).
- :func:`.tune.train_tune` (``--method tune``, WWN): the heuristic's weights tuned by the
  cross-entropy method against the heuristic itself.
- :mod:`.evaluate`: win rates of a policy against opponents, played with numpy.

``factionsim train`` and ``experiments/train_wwn_ppo.py`` are thin layers over these. Every
ruleset trains (``Args(ruleset="houses")``): the env is :func:`factionsim.envs.make_env`.

>>> Args().ruleset, Args(ruleset="houses").out_dir()
('wwn', 'runs/houses_ppo')
"""

from __future__ import annotations

import os
import sys
from typing import Any

from .args import Args, add_arguments, args_from_namespace, command_line


def passive_openmp() -> None:
    """Let torch's OpenMP threads sleep while they wait for work (``OMP_WAIT_POLICY=PASSIVE``,
    unless the environment sets it): by default a waiting thread spins, taking a core from the
    env workers (``--vec workers``) and from any other job on the machine: on the 2 shared
    cores of the development machine 2 spinning threads trained 8-10x slower than 1 thread or
    2 passive ones (docs/training.md, "Learner throughput"). It must be set before torch loads;
    after, it changes nothing."""
    if "torch" not in sys.modules:
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def run(args: Args) -> Any:
    """What the options ask for: convert a stable-baselines3 zip (``--convert``), evaluate a
    policy (``--eval-only``), or train one (:func:`train`); imports torch (with
    :func:`passive_openmp`)."""
    passive_openmp()
    from .ppo import convert, evaluate_only

    if args.convert:
        return convert(args)
    if args.eval_only:
        return evaluate_only(args)
    return train(args)


def train(args: Args) -> Any:
    """Train as ``args.method`` says (``ppo``, ``league``, ``advantage``, ``value``, ``leaf`` or
    ``tune``; imports torch); another method is a :class:`~factionsim.core.game.FactionsimError`
    naming them."""
    if args.method in ("league", "advantage"):
        from .league_run import train_league

        return train_league(args)
    if args.method == "value":
        from .value import train_value

        return train_value(args)
    if args.method == "leaf":
        from .leaf import train_leaf

        return train_leaf(args)
    if args.method == "tune":
        from .tune import train_tune

        return train_tune(args)
    if args.method != "ppo":
        from factionsim.core.game import FactionsimError

        raise FactionsimError(f"--method {args.method!r}; allowed: ppo, league, advantage, "
                              "value, leaf, tune")
    from .ppo import train as train_ppo

    return train_ppo(args)


__all__ = ["Args", "add_arguments", "args_from_namespace", "command_line", "run", "train"]
