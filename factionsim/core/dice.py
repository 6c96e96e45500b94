"""Dice expressions over an explicit, seeded generator.

A dice expression is ``NdS`` with an optional ``+K`` / ``-K`` modifier, or a plain integer:

>>> d = Dice.parse("2d10+4")
>>> d.count, d.sides, d.modifier, str(d)
(2, 10, 4, '2d10+4')
>>> Dice.parse("1d4-1").max_total
3
>>> import numpy as np
>>> roll = Dice.parse("2d6").roll(np.random.default_rng(1))
>>> roll.total == sum(roll.dice)
True

All randomness in factionsim flows through a :class:`numpy.random.Generator` owned by the game
state, so a campaign and seed always reproduce the same history.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

_DICE_RE = re.compile(r"^\s*(?:(\d*)d(\d+))?\s*(?:([+-])\s*(\d+))?\s*$")


class DiceError(ValueError):
    """A dice expression that cannot be parsed."""


@dataclass(frozen=True, slots=True)
class Roll:
    """The outcome of rolling a :class:`Dice` expression: each die, the modifier and the total."""

    expr: str
    dice: tuple[int, ...]
    modifier: int
    total: int

    def __str__(self) -> str:
        return f"{self.expr} = {self.total}"


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` faces plus ``modifier`` (a constant when ``count`` is 0)."""

    count: int
    sides: int
    modifier: int = 0

    @staticmethod
    def parse(text: str | int) -> Dice:
        """Parse ``"2d10+4"``, ``"d6"``, ``"1d3+1"`` or a constant such as ``"5"``."""
        return _parse_cached(str(text))

    @property
    def max_total(self) -> int:
        return max(0, self.count * self.sides + self.modifier)

    @property
    def mean(self) -> float:
        return max(0.0, self.count * (self.sides + 1) / 2 + self.modifier)

    def roll(self, rng: np.random.Generator) -> Roll:
        """Roll the dice. A negative total (``1d4-1`` can give 0, never less) is clamped to 0."""
        dice = tuple(int(x) for x in rng.integers(1, self.sides + 1, size=self.count))
        return Roll(str(self), dice, self.modifier, max(0, sum(dice) + self.modifier))

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.modifier)
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"


@lru_cache(maxsize=256)
def _parse_cached(text: str) -> Dice:
    m = _DICE_RE.match(text)
    if not m or (m.group(2) is None and m.group(4) is None):
        raise DiceError(f"not a dice expression: {text!r} (expected e.g. '1d8', '2d10+4', '3')")
    mod = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    if m.group(2) is None:
        return Dice(0, 1, mod)
    count = int(m.group(1) or 1)
    sides = int(m.group(2))
    if count < 1 or sides < 1:
        raise DiceError(f"dice need at least one die of at least one side: {text!r}")
    return Dice(count, sides, mod)


def roll_die(rng: np.random.Generator, sides: int) -> int:
    """One die of ``sides`` faces."""
    return int(rng.integers(1, sides + 1))


# ------------------------------------------------------------------ seeds -> dice generators
#: The largest seed (``--seed`` and a campaign's ``seed:``): numpy takes any non-negative whole
#: number; factionsim keeps seeds to what a signed 64-bit integer holds.
MAX_SEED = 2**63 - 1


def fresh_seed() -> int:
    """A new seed from the operating system's entropy (for a campaign that has none yet)."""
    return int(np.random.SeedSequence().entropy % 2**31)


def seeded_dice(*entropy: int) -> tuple[int, np.random.Generator]:
    """``(seed, generator)``: the one way factionsim turns seeds into dice.

    With one number the seed is that number; with several (a master seed and a game number...)
    they are mixed by :class:`numpy.random.SeedSequence` and the seed recorded is one drawn from
    it. The generator is ``default_rng`` of the same entropy, so equal entropy gives equal dice.

    >>> seeded_dice(7)[0], seeded_dice(0, 3)[0] == seeded_dice(0, 3)[0] != seeded_dice(0, 4)[0]
    (7, True)
    >>> int(seeded_dice(7)[1].integers(100)) == int(np.random.default_rng(7).integers(100))
    True
    """
    if len(entropy) == 1:
        return int(entropy[0]), np.random.default_rng(int(entropy[0]))
    seq = np.random.SeedSequence([int(e) for e in entropy])
    return int(seq.generate_state(1)[0]), np.random.default_rng(seq)


def reseed(state: Any, *entropy: int) -> None:
    """Give ``state`` the seed and dice of :func:`seeded_dice` (``state.seed``, ``state.rng``)."""
    state.seed, state.rng = seeded_dice(*entropy)
