"""Odds of Cortex Prime rolls for the Great Houses heuristic, estimated once per pair of pools.

A roll is estimated by sampling (``SAMPLES`` draws from a generator seeded by the pools
themselves, so the figures are the same in every process) and cached: a game asks about a few
hundred distinct pairs of pools at most.

>>> o = contest((8, 8, 10), (8, 8), difficulty=True)
>>> 0.4 < o.win < 0.75 and abs(sum(o.effect.values()) - o.win) < 1e-9
True
>>> contest((8, 8, 10), (8, 8), difficulty=True) is o      # cached
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

SAMPLES = 600
SIZES = (4, 6, 8, 10, 12)


@dataclass(frozen=True)
class Odds:
    """What a roll of ``mine`` against ``theirs`` gives, as probabilities.

    ``win``: the roller beats the other total (ties fail); ``effect[d]``: it wins with effect
    die ``d``; ``steps[k]``: it wins by ``5 (k-1)`` points or more (k = 1..3); ``hitches[k]``:
    at least ``k`` hitches in the roller's pool (k = 1..3); ``their_effect[d]``: it loses and the
    other side's effect die is ``d`` (an opposing House's, for harm that comes back).
    """

    win: float
    effect: dict[int, float]
    steps: tuple[float, float, float]
    hitches: tuple[float, float, float]
    their_effect: dict[int, float]


def _seed(*pools: tuple[int, ...]) -> int:
    seed = 17
    for pool in pools:
        for d in pool:
            seed = (seed * 31 + d) % (2 ** 61 - 1)
        seed = (seed * 37 + 1) % (2 ** 61 - 1)
    return seed


def _roll(rng: np.random.Generator, pool: tuple[int, ...], hitches_count: bool):
    """Totals (best two usable dice), effect dice (largest usable die left, d4 if none) and
    hitch counts of ``SAMPLES`` rolls of ``pool``."""
    sizes = np.array(pool, dtype=np.int64)
    values = rng.integers(1, sizes + 1, size=(SAMPLES, len(pool)))
    usable = values if hitches_count else np.where(values > 1, values, 0)
    # best values first; on equal values the smaller die goes into the total (see dice._order)
    key = usable * 100 - sizes
    order = np.argsort(-key, axis=1, kind="stable")
    ranked_values = np.take_along_axis(usable, order, axis=1)
    ranked_sizes = np.broadcast_to(sizes, values.shape)
    ranked_sizes = np.take_along_axis(ranked_sizes, order, axis=1)
    total = ranked_values[:, :2].sum(axis=1)
    rest = np.where(ranked_values[:, 2:] > 0, ranked_sizes[:, 2:], 0)
    effect = rest.max(axis=1, initial=0)
    effect = np.where(effect > 0, effect, 4)
    hitches = np.zeros(SAMPLES, dtype=np.int64) if hitches_count else (values == 1).sum(axis=1)
    return total, effect, hitches


@lru_cache(maxsize=1 << 16)
def contest(mine: tuple[int, ...], theirs: tuple[int, ...], difficulty: bool = False) -> Odds:
    """``mine`` rolled against ``theirs``: an opposing House's pool, or (``difficulty``) the
    GM's difficulty pool, whose 1s count as plain numbers."""
    rng = np.random.default_rng(_seed(mine, theirs, (int(difficulty),)))
    total, effect, hitches = _roll(rng, mine, False)
    their_total, their_effect, _ = _roll(rng, theirs, difficulty)
    win = total > their_total
    margin = total - their_total
    n = float(SAMPLES)
    return Odds(
        win=float(win.mean()),
        effect={d: float((win & (effect == d)).sum() / n) for d in SIZES},
        steps=tuple(float((win & (margin >= 5 * k)).sum() / n) for k in range(3)),  # type: ignore[arg-type]
        hitches=tuple(float((hitches >= k).sum() / n) for k in (1, 2, 3)),  # type: ignore[arg-type]
        their_effect={d: float((~win & (their_effect == d)).sum() / n) for d in SIZES},
    )
