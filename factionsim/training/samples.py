"""A bounded store of labelled decisions for imitation: observations kept sparse.

An observation is a few thousand floats, mostly zeros (empty asset rows); it is stored as its
non-zero values (float16) and their positions, and its legal actions as catalogue indices, so
a few hundred thousand decisions fit in a few hundred megabytes. :meth:`SampleBuffer.batch`
rebuilds dense float32 observations and boolean legal masks for training. When full, the
oldest decisions go first (DAgger keeps the recent rounds).

>>> import numpy as np
>>> buf = SampleBuffer(obs_size=4, n_actions=3, capacity=2)
>>> buf.add(np.array([[0, .5, 0, 1], [1, 0, 0, 0], [0, 0, .25, 0]], np.float32),
...         [np.array([0, 2]), np.array([1, 2]), np.array([0, 1])], np.array([2, 1, 0]))
>>> len(buf)
2
>>> obs, mask, target = buf.batch(np.array([0, 1]))
>>> obs.tolist(), mask.tolist(), target.tolist()
([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.25, 0.0]], [[False, True, True], [True, True, False]], [1, 0])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def _ragged_positions(ptr: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For the samples ``ids`` of a ragged array with offsets ``ptr``: the batch row of each
    element and its position in the flat storage."""
    starts = ptr[ids]
    lens = ptr[ids + 1] - starts
    rows = np.repeat(np.arange(len(ids)), lens)
    firsts = np.repeat(starts - (np.cumsum(lens) - lens), lens)
    return rows, np.arange(int(lens.sum())) + firsts


class SampleBuffer:
    """Decisions ``(observation, legal actions, target action)`` (see the module docstring)."""

    def __init__(self, obs_size: int, n_actions: int, capacity: int):
        self.obs_size, self.n_actions, self.capacity = obs_size, n_actions, int(capacity)
        col_type = np.uint16 if obs_size < 1 << 16 else np.int32
        act_type = np.uint16 if n_actions < 1 << 16 else np.int32
        self.values = np.zeros(0, np.float16)
        self.cols = np.zeros(0, col_type)
        self.obs_ptr = np.zeros(1, np.int64)
        self.legal = np.zeros(0, act_type)
        self.legal_ptr = np.zeros(1, np.int64)
        self.target = np.zeros(0, np.int32)

    def __len__(self) -> int:
        return len(self.target)

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.values, self.cols, self.obs_ptr, self.legal,
                                      self.legal_ptr, self.target))

    def add(self, obs: np.ndarray, legal: Sequence[np.ndarray], target: np.ndarray) -> None:
        """Add decisions: ``obs`` (n, obs_size), the catalogue indices of each one's legal
        actions, and the target action of each (a catalogue index among its legal ones)."""
        if not len(obs):
            return
        rows, cols = np.nonzero(obs)
        counts = np.bincount(rows, minlength=len(obs))
        self.values = np.concatenate([self.values, obs[rows, cols].astype(np.float16)])
        self.cols = np.concatenate([self.cols, cols.astype(self.cols.dtype)])
        self.obs_ptr = np.concatenate([self.obs_ptr, self.obs_ptr[-1] + np.cumsum(counts)])
        lens = np.array([len(x) for x in legal])
        self.legal = np.concatenate([self.legal, *(np.asarray(x, self.legal.dtype)
                                                   for x in legal)])
        self.legal_ptr = np.concatenate([self.legal_ptr, self.legal_ptr[-1] + np.cumsum(lens)])
        self.target = np.concatenate([self.target, np.asarray(target, np.int32)])
        extra = len(self) - self.capacity
        if extra > 0:
            self._drop(extra)

    def extend(self, other: SampleBuffer) -> None:
        """Add every decision of ``other`` (a buffer of the same spaces) after this one's."""
        self.values = np.concatenate([self.values, other.values])
        self.cols = np.concatenate([self.cols, other.cols])
        self.obs_ptr = np.concatenate([self.obs_ptr, self.obs_ptr[-1] + other.obs_ptr[1:]])
        self.legal = np.concatenate([self.legal, other.legal])
        self.legal_ptr = np.concatenate([self.legal_ptr, self.legal_ptr[-1] + other.legal_ptr[1:]])
        self.target = np.concatenate([self.target, other.target])
        extra = len(self) - self.capacity
        if extra > 0:
            self._drop(extra)

    def _drop(self, n: int) -> None:
        o, lg = int(self.obs_ptr[n]), int(self.legal_ptr[n])
        self.values, self.cols = self.values[o:].copy(), self.cols[o:].copy()
        self.obs_ptr = self.obs_ptr[n:] - o
        self.legal = self.legal[lg:].copy()
        self.legal_ptr = self.legal_ptr[n:] - lg
        self.target = self.target[n:].copy()

    def batch(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Dense float32 observations, boolean legal masks and targets of samples ``ids``."""
        ids = np.asarray(ids)
        obs = np.zeros((len(ids), self.obs_size), np.float32)
        rows, flat = _ragged_positions(self.obs_ptr, ids)
        obs[rows, self.cols[flat]] = self.values[flat]
        mask = np.zeros((len(ids), self.n_actions), bool)
        rows, flat = _ragged_positions(self.legal_ptr, ids)
        mask[rows, self.legal[flat]] = True
        return obs, mask, self.target[ids]
