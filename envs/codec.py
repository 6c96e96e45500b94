"""What a ruleset's environment codec is (:class:`Codec`), and the one error codecs raise.

A codec turns a ruleset's state into fixed-size numbers for :class:`factionsim.envs.aec.FactionEnv`
and for trained policies (``agent: policy:PATH``, ``agent: trained``): it is built once per
campaign (``Codec(state, limits)``; the sizes come from the campaign and the codec's ``Limits``)
and then observes any state of that campaign. A ruleset names its codec in its descriptor
(``RulesetInfo.codec``); ``make_env(..., **limits)`` and ``make_codec(state, **limits)`` pass the
options that are not the env's own to the codec's ``Limits``.

A codec needs numpy only: its gymnasium spaces are built on first use, so a trained policy plays
through it in an install without gymnasium (the ``rl`` extra).

>>> class Tiny(Codec):
...     obs_size, n_actions = 3, 2
>>> int(Tiny().action_space.n), Tiny().observation_space["observation"].shape
(2, (3,))
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from factionsim.core.game import FactionsimError

#: The version of the spaces (observation layout, action catalogue); see "Version history" in
#: :mod:`factionsim.envs`. A trained policy records the version it was trained on and plays only
#: on the same one.
ENV_VERSION = 1


class EncodingError(FactionsimError, ValueError):
    """A campaign or game state beyond a codec's maxima (the message names the limit to raise),
    or a legal action its catalogue has no room for."""


class Codec:
    """Base of the rulesets' codecs.

    Subclasses set ``Limits`` (a frozen dataclass of the maxima that size the spaces) and, in
    ``__init__(state, limits=None)``, ``obs_size`` and ``n_actions``; the base class turns those
    into ``action_space`` (``Discrete(n_actions)``) and ``observation_space``
    (``Dict(observation=Box[0, 1] of obs_size float32, action_mask=Box of n_actions int8)``)
    when something first asks for them."""

    Limits: ClassVar[type]
    obs_size: int
    n_actions: int

    @classmethod
    def for_campaign(cls, state: Any, **limits: Any) -> Codec:
        """The codec of ``state``'s campaign with its ``Limits`` raised or lowered by ``limits``
        (an unknown limit is a ``TypeError``; a campaign beyond them an :class:`EncodingError`)."""
        return cls(state, cls.Limits(**limits))  # type: ignore[call-arg]

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

    def observe(self, state: Any, agent: str, out: np.ndarray) -> np.ndarray:
        """Write ``agent``'s observation of ``state`` into ``out`` (float32, every entry) and
        return it; what the agent may not see is left out."""
        raise NotImplementedError

    def encode_actions(self, state: Any, actor: str, legal: list[Any]) -> list[int]:
        """The catalogue index of each legal action (distinct; -1 for one the catalogue leaves
        out, where the codec allows that)."""
        raise NotImplementedError

    def render_faction(self, state: Any, faction: str) -> str:
        """The faction's headline numbers for ``render()`` (empty: only its score is shown)."""
        return ""
