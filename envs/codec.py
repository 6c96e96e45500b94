"""What a ruleset's environment codec is (:class:`Codec`), and the one error codecs raise.

A codec turns a ruleset's state into fixed-size numbers for :class:`factionsim.envs.aec.FactionEnv`:
it is built once per campaign (``Codec(state, limits)``; the sizes come from the campaign and
the codec's ``Limits``) and then observes any state of that campaign. A ruleset names its codec
in its descriptor (``RulesetInfo.codec``); ``make_env(..., **limits)`` passes the options that
are not the env's own to the codec's ``Limits``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from factionsim.core.game import FactionsimError


class EncodingError(FactionsimError, ValueError):
    """A campaign or game state beyond a codec's maxima (the message names the limit to raise),
    or a legal action its catalogue has no room for."""


class Codec:
    """Base of the rulesets' codecs.

    Subclasses set ``Limits`` (a frozen dataclass of the maxima that size the spaces) and, in
    ``__init__(state, limits=None)``: ``obs_size``, ``n_actions``, ``observation_space``
    (``Dict(observation=Box, action_mask=Box)``) and ``action_space`` (``Discrete``)."""

    Limits: ClassVar[type]
    obs_size: int
    n_actions: int
    observation_space: Any
    action_space: Any

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
