"""The gymnasium spaces of a codec, built on first use.

Every codec sizes its observation (``obs_size``) and action catalogue (``n_actions``) from the
campaign; :class:`CodecSpaces` turns those into the env's spaces only when something asks for
them, so a codec (and a trained policy that plays through it, ``agent: trained``) works in an
install without gymnasium (the ``rl`` extra).

>>> class Tiny(CodecSpaces):
...     obs_size, n_actions = 3, 2
>>> Tiny().action_space.n, Tiny().observation_space["observation"].shape
(2, (3,))
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np


class CodecSpaces:
    """``action_space`` (``Discrete(n_actions)``) and ``observation_space``
    (``{"observation": Box[0, 1] of obs_size float32, "action_mask": Box of n_actions int8}``)."""

    obs_size: int
    n_actions: int

    @cached_property
    def action_space(self) -> Any:
        from gymnasium import spaces

        return spaces.Discrete(self.n_actions)

    @cached_property
    def observation_space(self) -> Any:
        from gymnasium import spaces

        return spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8),
        })
