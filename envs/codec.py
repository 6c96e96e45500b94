"""What a ruleset's environment codec is (:class:`Codec`), and the one error codecs raise.

A codec turns a ruleset's state into fixed-size numbers for :class:`factionsim.envs.aec.FactionEnv`
and for trained policies (``agent: policy:PATH``, ``agent: trained``): it is built once per
campaign (``Codec(state, limits)``; the sizes come from the campaign and the codec's ``Limits``)
and then observes any state of that campaign through a faction's view (``state.view(agent)``,
read with its ruleset's view accessors only). A ruleset names its codec in its descriptor
(``RulesetInfo.codec``); ``make_env(..., **limits)`` and ``make_codec(state, **limits)`` pass the
options that are not the env's own to the codec's ``Limits``.

A codec needs numpy only: its gymnasium spaces are built on first use, so a trained policy plays
through it in an install without gymnasium (the ``rl`` extra).

Observation layout (:class:`Layout`, ``codec.layout``; ``codec.observation_layout()`` lists its
pieces): the flat observation is a sequence of named pieces ``(name, rows, width)``, laid out one
after the other, each row-major (OpenSpiel's Kuhn poker style of naming a tensor's parts). A
piece with ``rows == 1`` is a *global* piece (the decision point, the observer's own sheet...).
A piece with ``rows > 1`` is an *entity set* (assets, locations, factions, pillars,
characters...): one row per entity slot, all rows alike, and the **first value of each row is 1.0
when the row holds an entity, 0.0 when it is empty** (an empty row is all zeros unless the
codec's docstring says otherwise); a set-based policy applies the same layers to every row and
pools over the rows whose flag is 1. The observation's size is the sum of its pieces, and
``layout.view(obs, name)`` is a piece as a ``(..., rows, width)`` view of a flat observation (or
of a batch of them) without a copy.

>>> class Tiny(Codec):
...     layout = Layout([("phase", 1, 3), ("units", 2, 2)])
...     n_actions = 2
>>> tiny = Tiny()
>>> tiny.obs_size, int(tiny.action_space.n), tiny.observation_space["observation"].shape
(7, 2, (7,))
>>> obs = np.arange(7, dtype=np.float32)
>>> tiny.layout.view(obs, "units")
array([[3., 4.],
       [5., 6.]], dtype=float32)
>>> [piece.name for piece in tiny.layout.entity_sets()]
['units']
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator
from functools import cached_property
from typing import Any, ClassVar, NamedTuple

import numpy as np

from factionsim.core.game import FactionsimError, View

_PACKERS: dict[int, struct.Struct] = {}


def packer(n: int) -> struct.Struct:
    """The ``struct`` of ``n`` native float32 values (made once per ``n``): packing a list of
    Python numbers with it gives the bytes of ``np.asarray(values, np.float32)``."""
    p = _PACKERS.get(n)
    if p is None:
        p = _PACKERS[n] = struct.Struct(f"{n}f")
    return p


def float32s(values: list[float]) -> np.ndarray:
    """``values`` (Python numbers) as a read-only float32 array: the same numbers as
    ``np.asarray(values, np.float32)`` (each rounded from a double the same way), several times
    faster for the lists of ~100 values an observation writes at once: ``struct`` converts them
    in one C loop where numpy inspects every item's type first. Values must be finite and within
    float32's range (observations are scaled to [0, 1])."""
    p = _PACKERS.get(len(values))  # (:func:`packer`, inline: this is called at every step)
    if p is None:
        p = packer(len(values))
    return np.frombuffer(p.pack(*values), np.float32)


def grow_bank(bank: np.ndarray, index: dict[Any, Any], limit: int) -> np.ndarray:
    """A bank of already-encoded observation rows (``index``: row key -> its row) with room for
    more: twice as many rows, or, once it holds ``limit`` rows, the same one emptied (``index``
    cleared: rows are encoded again as they come)."""
    if len(bank) >= limit:
        index.clear()
        return bank
    return np.concatenate([bank, np.zeros_like(bank)])


class Piece(NamedTuple):
    """One named part of the flat observation: ``rows`` rows of ``width`` values (``rows > 1``:
    an entity set whose rows start with their presence flag)."""

    name: str
    rows: int
    width: int

    @property
    def size(self) -> int:
        return self.rows * self.width

    @property
    def is_set(self) -> bool:
        """Whether this piece is an entity set (one row per entity slot)."""
        return self.rows > 1


class Layout:
    """The named pieces of a codec's flat observation, in order (see the module docstring)."""

    def __init__(self, pieces: Iterable[tuple[str, int, int]]):
        self.pieces: tuple[Piece, ...] = tuple(Piece(str(n), int(r), int(w)) for n, r, w in pieces)
        self.start: dict[str, int] = {}  #: name -> where the piece starts in the observation
        pos = 0
        for p in self.pieces:
            if p.name in self.start:
                raise ValueError(f"observation layout: two pieces named {p.name!r}")
            if p.rows < 1 or p.width < 0:
                raise ValueError(f"observation layout: piece {p.name!r} has {p.rows} rows of "
                                 f"{p.width}")
            self.start[p.name] = pos
            pos += p.size
        self.size = pos  #: the observation's size: the sum of the pieces' sizes
        self._piece = {p.name: p for p in self.pieces}

    def __iter__(self) -> Iterator[Piece]:
        return iter(self.pieces)

    def __len__(self) -> int:
        return len(self.pieces)

    def __getitem__(self, name: str) -> Piece:
        return self._piece[name]

    def slice(self, name: str) -> slice:
        """Where piece ``name`` lies in the flat observation."""
        start = self.start[name]
        return slice(start, start + self._piece[name].size)

    def view(self, obs: np.ndarray, name: str) -> np.ndarray:
        """Piece ``name`` of ``obs`` (shape ``(..., size)``) as a ``(..., rows, width)`` view."""
        p = self._piece[name]
        return obs[..., self.slice(name)].reshape(*obs.shape[:-1], p.rows, p.width)

    def views(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """Every piece of ``obs`` by name (views, no copies)."""
        return {p.name: self.view(obs, p.name) for p in self.pieces}

    def entity_sets(self) -> list[Piece]:
        """The pieces with more than one row (entity sets), in order."""
        return [p for p in self.pieces if p.is_set]

    def globals(self) -> list[Piece]:
        """The pieces with one row, in order."""
        return [p for p in self.pieces if not p.is_set]

    def to_list(self) -> list[list[Any]]:
        """``[[name, rows, width], ...]``: the layout as plain data (a policy file can keep it)."""
        return [[p.name, p.rows, p.width] for p in self.pieces]

    def __repr__(self) -> str:
        return f"Layout({self.to_list()!r})"


def action_offsets(blocks: Iterable[tuple[str, int]]) -> tuple[dict[str, int], int]:
    """An action catalogue laid out as consecutive blocks ``(name, size)``: each block's first
    index (name -> offset) and the number of actions in all.

    >>> action_offsets([("done", 1), ("attack", 4), ("move", 3)])
    ({'done': 0, 'attack': 1, 'move': 5}, 8)
    """
    offset: dict[str, int] = {}
    n = 0
    for name, size in blocks:
        offset[name] = n
        n += size
    return offset, n


class EncodingError(FactionsimError, ValueError):
    """A campaign or game state beyond a codec's maxima (the message names the limit to raise),
    or a legal action its catalogue has no room for."""


class Codec:
    """Base of the rulesets' codecs.

    Subclasses set ``ENV_VERSION`` (the version of their spaces, see "Version history" in
    :mod:`factionsim.envs`: a trained policy records it and plays only on the same one),
    ``Limits`` (a frozen dataclass of the maxima that size the spaces) and, in
    ``__init__(state, limits=None)``, ``layout`` (a :class:`Layout`, from which ``obs_size``
    follows) and ``n_actions``; the base class turns those into ``action_space``
    (``Discrete(n_actions)``) and ``observation_space`` (``Dict(observation=Box[0, 1] of
    obs_size float32, action_mask=Box of n_actions int8)``) when something first asks for
    them."""

    ENV_VERSION: ClassVar[int] = 1
    Limits: ClassVar[type]
    layout: Layout
    n_actions: int

    @property
    def obs_size(self) -> int:
        """The observation's size: the sum of its layout's pieces."""
        return self.layout.size

    def observation_layout(self) -> list[Piece]:
        """The observation's named pieces ``(name, rows, width)``, in order (see :class:`Layout`)."""
        return list(self.layout.pieces)

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

    def observe(self, view: View, out: np.ndarray,
                scores: dict[str, float] | None = None) -> np.ndarray:
        """Write the observation of ``view`` (``state.view(agent)``: what that faction may see,
        read through its ruleset's view accessors) into ``out`` (float32, every entry) and
        return it. ``scores``: ``view.scores()`` when the caller has it already (the env
        computes it once per decision), else ``None``."""
        raise NotImplementedError

    def observation(self, view: View, scores: dict[str, float] | None = None) -> np.ndarray:
        """:meth:`observe` into a new float32 array (a codec may build it faster than writing
        into one made first)."""
        return self.observe(view, np.empty(self.obs_size, np.float32), scores)

    def encode_actions(self, view: View, legal: list[Any]) -> list[int]:
        """The catalogue index of each of ``legal``, the actions of ``view``'s faction at its
        decision (distinct; -1 for one the catalogue leaves out, where the codec allows that)."""
        raise NotImplementedError

    def render_faction(self, view: View) -> str:
        """The headline numbers of ``view``'s faction for ``render()`` (empty: only its score is
        shown)."""
        return ""
