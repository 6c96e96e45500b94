"""Small statistics every report of many games shares: confidence intervals of a proportion
(:func:`wilson`) and of a whole count table, and quantiles of a sample.

>>> lo, hi = wilson(8, 10)
>>> round(lo, 3), round(hi, 3)
(0.49, 0.943)
>>> wilson(0, 0)
(0.0, 1.0)
>>> quantiles([4, 1, 3, 2, 5], (0.1, 0.5, 0.9)), quantiles(range(1, 11), (0.1, 0.5, 0.9))
([1.0, 3.0, 5.0], [1.0, 5.0, 9.0])
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.96


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``successes`` out of ``n`` trials (95% by default); ``(0, 1)``
    with no trials. Unlike the normal approximation it stays inside [0, 1] and is sound near 0%
    and 100% (where forecasts often are)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def win_shares(scores: dict[str, float]) -> dict[str, float]:
    """Each faction's share of the win: ``1/k`` for each of the ``k`` with the best score, 0
    for the others (every faction of ``scores``, in its order).

    >>> win_shares({"a": 3.0, "b": 5.0, "c": 5.0})
    {'a': 0.0, 'b': 0.5, 'c': 0.5}
    """
    best = max(scores.values())
    k = sum(v == best for v in scores.values())
    return {f: 1 / k if v == best else 0.0 for f, v in scores.items()}


def proportion(successes: int, n: int, digits: int = 6) -> dict[str, float | int]:
    """``{"p", "lo", "hi", "count", "n"}``: a share with its Wilson 95% interval, rounded."""
    lo, hi = wilson(successes, n)
    return {"p": round(successes / n, digits) if n else 0.0, "lo": round(lo, digits),
            "hi": round(hi, digits), "count": int(successes), "n": int(n)}


def quantiles(values: Sequence[float], qs: Sequence[float]) -> list[float]:
    """The ``qs`` quantiles of ``values`` by the inverse of their empirical distribution: the
    smallest value with at least a share ``q`` of the values at or below it (Hyndman and Fan's
    type 1). Each is a value the sample holds (whole numbers stay whole), not an interpolation."""
    ordered = sorted(float(v) for v in values)
    if not ordered:
        return [math.nan for _ in qs]
    return [ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered) - 1e-9) - 1))]
            for q in qs]


def _pct(x: float) -> str:
    """A share as a percentage: whole percents, one decimal below 10% and above 90%."""
    return f"{x * 100:.1f}" if x < 0.1 or x > 0.9 else f"{x * 100:.0f}"


def share_text(share: dict[str, float | int]) -> str:
    """A :func:`proportion` in words: ``62% (58-66)``, the interval in percent too.

    >>> share_text(proportion(310, 500))
    '62% (58-66)'
    >>> share_text(proportion(2, 500))
    '0.4% (0.1-1.4)'
    """
    return f"{_pct(share['p'])}% ({_pct(share['lo'])}-{_pct(share['hi'])})"
