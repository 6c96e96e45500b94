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
    """``Linear(observation -> features_dim)`` + ReLU, shared by the policy and value heads."""

    def __init__(self, observation_space: Any, features_dim: int = 256):
        super().__init__(observation_space, features_dim)
        self.layer = nn.Sequential(nn.Linear(int(observation_space.shape[0]), features_dim),
                                   nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.layer(observations)


def policy_kwargs(trunk: int, net_arch: list[int]) -> dict[str, Any]:
    """SB3 ``policy_kwargs``: a shared :class:`LinearTrunk` of ``trunk`` units (0: none, SB3's
    flat observation) followed by ``net_arch`` layers for each head."""
    if trunk <= 0:
        return {"net_arch": list(net_arch)}
    return {"net_arch": list(net_arch), "features_extractor_class": LinearTrunk,
            "features_extractor_kwargs": {"features_dim": int(trunk)},
            "share_features_extractor": True}
