"""Policy network pieces for stable-baselines3 (imported only by training and policy players).

:class:`LinearTrunk` is one dense layer that the policy and value heads share. The observation
is long (several thousand mostly-zero floats) and the first layer holds most of the network's
cost, so sharing it halves the work of every update compared with SB3's default of a separate
first layer for each head.

>>> import gymnasium as gym, numpy as np, torch
>>> trunk = LinearTrunk(gym.spaces.Box(0, 1, (10,), np.float32), features_dim=4)
>>> tuple(trunk(torch.zeros(2, 10)).shape)
(2, 4)
"""

from __future__ import annotations

from typing import Any

import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


class LinearTrunk(BaseFeaturesExtractor):
    """``Linear(observation -> features_dim)`` + ReLU, shared by the policy and value heads.

    With ``by_columns`` (the default) a batch of at least :attr:`BY_COLUMNS_FROM` rows (an
    update's minibatch) is multiplied by the observation values that vary in it only
    (:func:`linear_by_columns`): the same values up to float rounding, about a sixth of the
    work for WWN. A small batch (a rollout step's 8 decisions) costs less by its non-zero
    columns, read from a transposed copy of the weights (:meth:`_linear_nonzero`; without
    gradients only: in a rollout, where the weights do not change).
    """

    #: the batch size from which ``by_columns`` applies
    BY_COLUMNS_FROM = 32

    def __init__(self, observation_space: Any, features_dim: int = 256, by_columns: bool = True):
        super().__init__(observation_space, features_dim)
        self.layer = nn.Sequential(nn.Linear(int(observation_space.shape[0]), features_dim),
                                   nn.ReLU())
        self.by_columns = by_columns

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        if not self.by_columns:
            return self.layer(observations)
        if len(observations) >= self.BY_COLUMNS_FROM:
            return torch.relu(linear_by_columns(self.layer[0], observations))
        if not torch.is_grad_enabled():  # a rollout step: its non-zero columns only
            return torch.relu(self._linear_nonzero(observations))
        return self.layer(observations)

    def _linear_nonzero(self, x: torch.Tensor) -> torch.Tensor:
        """``layer(x)`` (no gradient) over the columns non-zero in some row of ``x``, read
        from a transposed copy of the weights kept until they change (``_version`` counts
        their in-place updates): about 1,900 of WWN's 9,855 columns for a rollout step's 8
        decisions, a third of the plain layer's time. Equal to it up to float rounding."""
        linear = self.layer[0]
        version = (id(linear.weight), linear.weight._version)
        if getattr(self, "_transposed_for", None) != version:
            self._transposed = linear.weight.detach().t().contiguous()
            self._transposed_for = version
        nonzero = (x != 0).view(torch.uint8).amax(dim=0).nonzero().squeeze(1)
        return torch.addmm(linear.bias, x.index_select(1, nonzero),
                           self._transposed.index_select(0, nonzero))


def linear_by_columns(linear: nn.Linear, x: torch.Tensor) -> torch.Tensor:
    """``linear(x)`` for a batch ``x`` whose columns are mostly the same in every row.

    A WWN observation has 9,855 values: 3,648 are the campaign's asset-type table (the same in
    every observation) and most of the asset slots are empty (zero); in a 512-decision
    minibatch about 1,500 columns vary. A column that holds one value in every row adds the
    same vector to each row's output (computed once, from the first row; nothing when the value
    is 0), so only the varying columns are multiplied row by row. The result equals
    ``linear(x)`` up to float rounding (the sum is taken in another order); the weights'
    gradients are the same.

    >>> layer = nn.Linear(4, 2)
    >>> x = torch.tensor([[1.0, 0.0, 2.0, 5.0], [1.0, 0.0, 3.0, 6.0]])
    >>> bool(torch.allclose(linear_by_columns(layer, x), layer(x)))
    True
    """
    with torch.no_grad():
        high, low = x.amax(dim=0), x.amin(dim=0)
        varying = (high != low).nonzero().squeeze(1)
        constant = ((high == low) & (high != 0)).nonzero().squeeze(1)
    weight = linear.weight
    y = nn.functional.linear(x.index_select(1, varying), weight.index_select(1, varying),
                             linear.bias)
    if len(constant):
        y = y + nn.functional.linear(x[:1].index_select(1, constant),
                                     weight.index_select(1, constant))
    return y


def policy_kwargs(trunk: int, net_arch: list[int]) -> dict[str, Any]:
    """SB3 ``policy_kwargs``: a shared :class:`LinearTrunk` of ``trunk`` units (0: none, SB3's
    flat observation) followed by ``net_arch`` layers for each head."""
    if trunk <= 0:
        return {"net_arch": list(net_arch)}
    return {"net_arch": list(net_arch), "features_extractor_class": LinearTrunk,
            "features_extractor_kwargs": {"features_dim": int(trunk)},
            "share_features_extractor": True}
