"""The training envs spread over a few worker processes, each stepping its share in turn.

stable-baselines3's ``SubprocVecEnv`` runs one process per env (8 for ``factionsim train``'s
default, on 2 cores) and asks each for its action mask in a second round trip every step.
:class:`WorkerVecEnv` runs ``workers`` processes (default 2, one per core), each holding an SB3
``DummyVecEnv`` of its share of the envs: a step is one message to each worker and one answer
(observations, rewards, dones, infos and the new action masks together), and
``env_method("action_masks")`` answers from the masks that came with the last step. Each
worker's ``DummyVecEnv`` does what the one-process ``DummyVecEnv`` does (automatic reset,
``terminal_observation``, seeds), so the same seeds and actions give the same observations,
rewards and masks: training with ``--vec workers`` gives ``--vec dummy``'s weights bit for bit
(``tests/test_sb3_fast.py``), its env steps taking place on two cores at once.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv
from stable_baselines3.common.vec_env.base_vec_env import CloudpickleWrapper, VecEnv

MASKS = "action_masks"


def _worker(remote: Any, parent_remote: Any, env_fns: CloudpickleWrapper) -> None:
    parent_remote.close()
    envs = DummyVecEnv(env_fns.var)
    try:
        while True:
            cmd, data = remote.recv()
            if cmd == "step":
                obs, rewards, dones, infos = envs.step(data)
                remote.send((obs, rewards, dones, infos, np.stack(envs.env_method(MASKS))))
            elif cmd == "reset":
                envs._seeds, envs._options = list(data[0]), list(data[1])
                obs = envs.reset()
                remote.send((obs, envs.reset_infos, np.stack(envs.env_method(MASKS))))
            elif cmd == "spaces":
                remote.send((envs.observation_space, envs.action_space))
            elif cmd == "close":
                envs.close()
                break
            else:  # get_attr, set_attr, env_method, env_is_wrapped, has_attr
                name, args, kwargs = data
                remote.send(getattr(envs, cmd)(name, *args, **kwargs))
    except (EOFError, KeyboardInterrupt):
        pass
    finally:
        remote.close()


class WorkerVecEnv(VecEnv):
    """``env_fns`` stepped by ``workers`` processes (see the module docstring)."""

    def __init__(self, env_fns: Sequence[Callable[[], Any]], workers: int = 2,
                 start_method: str | None = None):
        n = len(env_fns)
        self.groups = [list(g) for g in np.array_split(np.arange(n), max(1, min(workers, n)))]
        methods = mp.get_all_start_methods()
        ctx = mp.get_context(start_method or ("forkserver" if "forkserver" in methods
                                              else "spawn"))
        self.remotes, self.processes = [], []
        for group in self.groups:
            remote, child = ctx.Pipe()
            process = ctx.Process(target=_worker, daemon=True, args=(
                child, remote, CloudpickleWrapper([env_fns[i] for i in group])))
            process.start()
            child.close()
            self.remotes.append(remote)
            self.processes.append(process)
        self.remotes[0].send(("spaces", None))
        observation_space, action_space = self.remotes[0].recv()
        super().__init__(n, observation_space, action_space)
        self._masks: np.ndarray | None = None
        self.closed = False

    def step_async(self, actions: np.ndarray) -> None:
        for remote, group in zip(self.remotes, self.groups, strict=True):
            remote.send(("step", actions[group]))

    def step_wait(self) -> Any:
        results = [remote.recv() for remote in self.remotes]
        self._masks = np.concatenate([r[4] for r in results])
        return (np.concatenate([r[0] for r in results]), np.concatenate([r[1] for r in results]),
                np.concatenate([r[2] for r in results]), [i for r in results for i in r[3]])

    def reset(self) -> Any:
        for remote, group in zip(self.remotes, self.groups, strict=True):
            remote.send(("reset", ([self._seeds[i] for i in group],
                                   [self._options[i] for i in group])))
        results = [remote.recv() for remote in self.remotes]
        self.reset_infos = [i for r in results for i in r[1]]
        self._masks = np.concatenate([r[2] for r in results])
        self._reset_seeds()
        self._reset_options()
        return np.concatenate([r[0] for r in results])

    def close(self) -> None:
        if self.closed:
            return
        for remote in self.remotes:
            remote.send(("close", None))
        for process in self.processes:
            process.join()
        self.closed = True

    def _each(self, cmd: str, name: str, args: tuple, kwargs: dict, indices: Any) -> list[Any]:
        """``cmd`` run by each worker's ``DummyVecEnv`` on its envs among ``indices``."""
        wanted = set(self._get_indices(indices))
        asked = []
        for remote, group in zip(self.remotes, self.groups, strict=True):
            local = [k for k, i in enumerate(group) if i in wanted]
            if local:
                remote.send((cmd, (name, args, {**kwargs, "indices": local})))
                asked.append(remote)
        answers = [remote.recv() for remote in asked]
        return [x for answer in answers if answer is not None for x in answer]

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name == MASKS and not method_args and not method_kwargs \
                and self._masks is not None:
            return [self._masks[i] for i in self._get_indices(indices)]
        return self._each("env_method", method_name, method_args, method_kwargs, indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return self._each("get_attr", attr_name, (), {}, indices)

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        self._each("set_attr", attr_name, (value,), {}, indices)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return self._each("env_is_wrapped", wrapper_class, (), {}, indices)

    def has_attr(self, attr_name: str) -> bool:
        self.remotes[0].send(("has_attr", (attr_name, (), {})))
        return bool(self.remotes[0].recv())
