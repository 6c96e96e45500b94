"""Cortex Prime dice for the Great Houses: die sizes, pools, hitches, totals, effect dice, stress.

A die is its number of sides: 4, 6, 8, 10 or 12 (0 = no die). A pool is rolled die by die;
a die showing 1 is a **hitch** and can be used neither in the total nor as the effect die. The
total is the sum of the best ``keep`` usable dice (two, three with a Plot Point); the **effect
die** is the largest usable die left over, or a d4 when none is left.

>>> r = evaluate([8, 10, 6], [7, 9, 3])
>>> r.total, r.effect, r.hitches
(16, 6, 0)
>>> evaluate([8, 10, 6], [7, 9, 1]).effect  # the d6 is a hitch: no die left, effect d4
4
>>> evaluate([8, 8], [1, 1]).total
0
>>> step_up(12), step_down(4), inflict(8, 6), inflict(6, 10), inflict(0, 8), inflict(12, 4)
(0, 0, 10, 10, 8, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SIZES = (4, 6, 8, 10, 12)
HITCH = 1


def valid_die(d: int) -> bool:
    return d in SIZES


def step_up(d: int) -> int:
    """One step larger; ``0`` when stepped past d12 (the caller decides what that means)."""
    return 0 if d >= 12 else (6 if d < 6 else d + 2)


def step_down(d: int) -> int:
    """One step smaller; ``0`` when stepped below d4."""
    return 0 if d <= 4 else d - 2


def steps(d: int) -> int:
    """Steps above d4: d4 -> 0, d6 -> 1 ... d12 -> 4 (0 for no die)."""
    return max(0, (d - 4) // 2)


def inflict(current: int, effect: int) -> int:
    """Stress (or Trauma, or a Complication) of size ``current`` hit by an ``effect`` die.

    None yet: it becomes the effect die. Already that size or larger: it steps up one. Smaller:
    it becomes the effect die. ``0`` means it stepped past d12.
    """
    if current == 0:
        return effect
    if current >= effect:
        return step_up(current)
    return effect


@dataclass(slots=True)
class RollResult:
    """One rolled pool: the dice (sizes), what they showed, the dice kept in the total."""

    dice: list[int]
    values: list[int]
    kept: list[int]          # indexes of the dice in the total
    total: int
    effect: int
    hitches: int
    labels: list[str] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {"dice": list(self.dice), "values": list(self.values), "kept": list(self.kept),
             "total": self.total, "effect": self.effect, "hitches": self.hitches}
        if self.labels is not None:
            d["labels"] = list(self.labels)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RollResult:
        return cls(list(d["dice"]), list(d["values"]), list(d["kept"]), d["total"], d["effect"],
                   d["hitches"], d.get("labels"))

    def can_add(self) -> bool:
        """Is there a usable die outside the total (what a Plot Point would add)?"""
        return any(v > HITCH and i not in self.kept for i, v in enumerate(self.values))


def _order(dice: list[int], values: list[int], hitches_count: bool) -> list[int]:
    """Usable dice best first: higher value first; on equal values the smaller die, so the
    larger dice stay free for the effect."""
    usable = [i for i, v in enumerate(values) if hitches_count or v > HITCH]
    return sorted(usable, key=lambda i: (-values[i], dice[i], i))


def evaluate(dice: list[int], values: list[int], keep: int = 2,
             hitches_count: bool = False) -> RollResult:
    """Total and effect of rolled dice (see the module docstring).

    ``hitches_count`` is for the difficulty pool, whose 1s are plain low numbers (2d8 summed).
    """
    order = _order(dice, values, hitches_count)
    kept = sorted(order[:keep])
    total = sum(values[i] for i in kept)
    rest = [dice[i] for i in order[keep:]]
    hitches = 0 if hitches_count else sum(v == HITCH for v in values)
    return RollResult(list(dice), list(values), kept, total, max(rest, default=4), hitches)


def roll(rng: Any, dice: list[int], keep: int = 2, hitches_count: bool = False,
         labels: list[str] | None = None) -> RollResult:
    """Roll ``dice`` one by one with ``rng`` and evaluate them."""
    values = [int(rng.integers(1, d + 1)) for d in dice]
    r = evaluate(dice, values, keep, hitches_count)
    r.labels = labels
    return r


def add_die(r: RollResult) -> RollResult:
    """The same roll with one more usable die in the total (a Plot Point); effect recomputed."""
    order = _order(r.dice, r.values, False)
    kept = sorted(order[:len(r.kept) + 1])
    rest = [r.dice[i] for i in order[len(kept):]]
    return RollResult(r.dice, r.values, kept, sum(r.values[i] for i in kept), max(rest, default=4),
                      r.hitches, r.labels)


def dice_text(dice: list[int]) -> str:
    """``[8, 10, 6]`` -> ``"d8 d10 d6"``; repeated sizes of a difficulty pool read ``2d8``."""
    return " ".join(f"d{d}" for d in dice)
