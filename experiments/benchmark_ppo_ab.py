"""MaskablePPO learner steps/s of whichever factionsim is imported: to compare revisions.

    python experiments/benchmark_ppo_ab.py --steps 8192 --torch-threads 1 --vec dummy
    PYTHONPATH=/tmp/old python experiments/benchmark_ppo_ab.py ...   # an export of another revision

(An export of a revision: ``git archive REV | tar -x -C /tmp/old``, then link its ``envs``,
``agents`` and ``configs`` into ``/tmp/old/factionsim``, as the installed package maps them.)

It trains ``factionsim train``'s default model (WWN, random opponents, 8 envs, seed 0) for
``--steps`` learner steps, built as the imported revision builds it (``ppo.make_model`` and
``ppo.make_venv``; a revision from before them: sb3-contrib's ``MlpPolicy`` as ``train`` built
it then) and prints one JSON line: learner steps per second of wall time, and per CPU-second
of this process and its env workers (``--vec workers`` / ``subproc``), with the load average
before and after. On a shared machine the CPU-second figure is the steadier one; run the two
revisions one right after the other.

``--split`` also times the parts of a learner step (``collect_rollouts``, ``train``, the envs'
``step_wait`` and ``env_method`` (the action masks), the policy's forward pass, the buffer's
``add``) and prints their CPU milliseconds per learner step (with ``--vec dummy``: the envs' CPU
is this process's).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any


def cpu_seconds(venv: Any) -> float:
    """This process's CPU time and that of ``venv``'s worker processes (from ``/proc``)."""
    total = time.process_time()
    for process in getattr(venv, "processes", []):
        with open(f"/proc/{process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def build(vec: str) -> tuple[str, Any, Any]:
    """``(revision kind, venv, model)`` as the imported revision's ``factionsim train`` builds
    them."""
    import factionsim.training.ppo as ppo
    from factionsim.training import Args

    args = Args(seed=0, vec=vec)
    if hasattr(ppo, "make_model"):
        venv = ppo.make_venv(args, {"max_turns": args.max_turns})
        return "make_model", venv, ppo.make_model(args, venv)
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from factionsim.envs.features import policy_kwargs
    from factionsim.envs.single_agent import SingleAgentEnv

    venv = make_vec_env(SingleAgentEnv, n_envs=args.n_envs, seed=0, env_kwargs={"max_turns": 30},
                        vec_env_cls=SubprocVecEnv if vec == "subproc" else DummyVecEnv)
    model = MaskablePPO("MlpPolicy", venv, learning_rate=args.learning_rate,
                        n_steps=args.n_steps, batch_size=args.batch_size,
                        n_epochs=args.n_epochs, gamma=args.gamma, ent_coef=args.ent_coef,
                        seed=0, device="cpu",
                        policy_kwargs=policy_kwargs(args.trunk, args.net_arch))
    return "MlpPolicy (before make_model)", venv, model


def timed(parts: dict[str, list[float]], obj: Any, name: str, label: str) -> None:
    """Wrap ``obj.name`` to add its wall and CPU seconds to ``parts[label]``."""
    inner = getattr(obj, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            spent = parts.setdefault(label, [0.0, 0.0])
            spent[0] += time.perf_counter() - wall
            spent[1] += time.process_time() - cpu

    setattr(obj, name, wrapper)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=8192)
    parser.add_argument("--torch-threads", type=int, default=2)
    parser.add_argument("--vec", default="dummy")
    parser.add_argument("--split", action="store_true", help="time the parts of a step")
    opts = parser.parse_args()
    from factionsim import training

    if hasattr(training, "passive_openmp"):
        training.passive_openmp()
    import torch
    from stable_baselines3.common.logger import Logger

    torch.set_num_threads(opts.torch_threads)
    kind, venv, model = build(opts.vec)
    model.set_logger(Logger(None, []))
    parts: dict[str, list[float]] = {}
    if opts.split:
        for obj, name, label in ((model, "collect_rollouts", "rollouts"), (model, "train", "train"),
                                 (venv, "step_wait", "env step"),
                                 (venv, "env_method", "env masks"),
                                 (model.policy, "forward", "rollout forward"),
                                 (model.rollout_buffer, "add", "buffer add")):
            timed(parts, obj, name, label)
    load0, cpu0, wall0 = os.getloadavg()[0], cpu_seconds(venv), time.perf_counter()
    model.learn(total_timesteps=opts.steps)
    wall, cpu = time.perf_counter() - wall0, cpu_seconds(venv) - cpu0
    venv.close()
    print(json.dumps({"built": kind, "code": os.path.dirname(training.__file__),
                      "torch_threads": opts.torch_threads, "vec": opts.vec,
                      "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY", ""),
                      "steps": model.num_timesteps,
                      "steps_per_s": round(model.num_timesteps / wall),
                      "steps_per_cpu_s": round(model.num_timesteps / cpu),
                      "load": [round(load0, 1), round(os.getloadavg()[0], 1)],
                      "cpu_ms_per_step": {k: round(1e3 * v[1] / model.num_timesteps, 3)
                                          for k, v in parts.items()}}), flush=True)


if __name__ == "__main__":
    main()
