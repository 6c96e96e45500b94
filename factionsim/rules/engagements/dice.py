"""Engagement dice: d6, every 3 or higher a success; wounds from successes against defense.

Step 6 of the seed: "For every time that the roll nets more successes than the pillar's defense,
it inflicts a wound ... rolling 1 to 2 successes against defense 2 inflicts no wounds, 3 to 4
successes inflicts 1 wound, 5 to 6 successes inflicts 2 wounds, and so on." We read it as
``wounds = (successes - 1) // defense`` for defense >= 1 (which reproduces the example exactly)
and every success is a wound against defense 0.

>>> [wounds(s, 2) for s in range(7)]
[0, 0, 0, 1, 1, 2, 2]
>>> [wounds(s, 1) for s in range(4)], [wounds(s, 0) for s in range(3)]
([0, 0, 1, 2], [0, 1, 2])
>>> successes([1, 2, 3, 6])
2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

SIDES = 6
SUCCESS = 3


def successes(dice: Sequence[int]) -> int:
    """How many dice show :data:`SUCCESS` or more."""
    return sum(1 for d in dice if d >= SUCCESS)


def wounds(succ: int, defense: int) -> int:
    """Wounds ``succ`` successes inflict on a pillar of ``defense``."""
    if succ <= 0:
        return 0
    if defense <= 0:
        return succ
    return (succ - 1) // defense


def roll(rng: Any, n: int) -> list[int]:
    """``n`` six-sided dice from ``rng`` (no call at all for ``n == 0``)."""
    if n <= 0:
        return []
    return [int(x) for x in rng.integers(1, SIDES + 1, size=n)]
