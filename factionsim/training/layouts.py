"""What a set-based policy needs to know of a codec: the pieces of its observation, and which
actions of its catalogue belong to which entity row.

- :func:`observation_pieces`: the flat observation as named pieces ``(name, rows, width)``, in
  order; a piece with more than one row is an entity set whose rows start with a presence flag
  (1.0: the row holds an entity). A codec that describes its own layout (``codec.layout``, env
  version 2) is read as it says, its asset tables as sets and every other piece as a vector; the
  WWN codec of env version 1, which does not, is read from its block offsets
  (:func:`_wwn_v1_pieces`); any other codec is one piece.
- :func:`action_sources`: for every catalogue index, what scores it: the context vector
  (``("context", j)``), a row of an entity set (``("rows", set, row, column)``: "attack with the
  asset in own slot 3" is column 0..F-1 of row 3 of the own assets). A policy then scores such
  actions with one small layer shared by every row (a pointer-style head) instead of a separate
  weight per slot. Only WWN has rows of actions today; other codecs score everything from the
  context.

>>> from factionsim import load_campaign
>>> from factionsim.configs import default_campaign_path
>>> from factionsim.envs import make_codec
>>> codec = make_codec(load_campaign(default_campaign_path()))
>>> [(p.name, p.rows) for p in observation_pieces(codec) if p.rows > 1]
[('own_assets', 32), ('other_assets', 64)]
>>> sum(p.size for p in observation_pieces(codec)) == codec.obs_size
True
>>> a = action_sources(codec)
>>> len(a.sources) == codec.n_actions, a.columns
(True, {'own_assets': 34, 'other_assets': 1})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from factionsim.envs.codec import Piece

#: the pieces read as entity sets (rows of one asset each, a presence flag first)
ASSET_SETS = ("own_assets", "other_assets")


def observation_pieces(codec: Any) -> list[Piece]:
    """The codec's observation as pieces (see the module docstring); they add up to
    ``codec.obs_size``."""
    layout = getattr(codec, "layout", None)
    if layout is not None and hasattr(layout, "pieces"):  # env version 2: the codec's Layout
        # only the asset tables are read as sets (their rows start with a presence flag); the
        # other pieces as vectors
        pieces = [Piece(p.name, p.rows, p.width) if p.name in ASSET_SETS
                  else Piece(p.name, 1, p.rows * p.width) for p in layout.pieces]
    elif type(codec).__name__ == "WwnCodec":
        pieces = _wwn_v1_pieces(codec)
    else:
        pieces = [Piece("observation", 1, int(codec.obs_size))]
    if sum(p.size for p in pieces) != codec.obs_size:
        raise ValueError(f"{type(codec).__name__}: observation pieces add up to "
                         f"{sum(p.size for p in pieces)} values, not {codec.obs_size}")
    return pieces


def _wwn_v1_pieces(codec: Any) -> list[Piece]:
    g0, own0, fac0, loc0, ast0 = codec._starts
    return [Piece("global", 1, own0 - g0), Piece("own", 1, fac0 - own0),
            Piece("factions", 1, loc0 - fac0), Piece("locations", 1, ast0 - loc0),
            Piece("own_assets", codec.limits.own_assets, codec.asset_row),
            Piece("other_assets", codec.limits.other_assets, codec.asset_row)]


@dataclass
class ActionSources:
    """``sources[i]``: what scores catalogue action ``i`` (see the module docstring);
    ``columns[set]``: how many actions each row of that set scores."""

    sources: list[tuple[Any, ...]]
    columns: dict[str, int]

    @property
    def n_context(self) -> int:
        return sum(1 for s in self.sources if s[0] == "context")


def action_sources(codec: Any) -> ActionSources:
    """Which catalogue actions are scored per entity row (WWN), the rest by the context."""
    if type(codec).__name__ == "WwnCodec" and {p.name for p in observation_pieces(codec)} \
            >= {"own_assets", "other_assets"}:
        return _wwn_sources(codec)
    return ActionSources([("context", i) for i in range(codec.n_actions)], {})


def _wwn_sources(codec: Any) -> ActionSources:
    """The WWN catalogue (see :mod:`factionsim.envs.wwn_codec`): the per-slot blocks of the own
    assets (attack x seat, defend, move x location, repair, hide, sell, use x option) are scored
    per own-asset row; a goal's "asset" targets (rows of the other assets' table) per
    other-asset row; everything else by the context."""
    from factionsim.envs.wwn_codec import GOAL_TARGETS

    F, L, K = codec.F, codec.L, codec.limits.options
    off = codec.offset
    own_blocks = [("attack", F), ("defend", 1), ("move", L), ("repair", 1), ("hide", 1),
                  ("sell", 1), ("use-asset", K)]
    sources: list[tuple[Any, ...] | None] = [None] * codec.n_actions
    column = 0
    for block, width in own_blocks:
        for slot in range(codec.limits.own_assets):
            for k in range(width):
                sources[off[block] + slot * width + k] = ("rows", "own_assets", slot, column + k)
        column += width
    for goal, target in GOAL_TARGETS.items():
        if target == "asset" and goal in codec.goal_offset:
            first = off["goal"] + codec.goal_offset[goal] + 1  # slot 0: no target
            for row in range(codec.limits.other_assets):
                sources[first + row] = ("rows", "other_assets", row, 0)
    j = 0
    for i, s in enumerate(sources):
        if s is None:
            sources[i] = ("context", j)
            j += 1
    return ActionSources(sources, {"own_assets": column, "other_assets": 1})  # type: ignore[arg-type]
