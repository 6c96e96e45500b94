"""Tuned weights for the WWN heuristic: a few numbers, learned by ``factionsim train --method
tune`` (:mod:`factionsim.training.tune`), that shift how strongly the heuristic weighs each kind
of choice, on top of the faction's own temperament.

Every number is 0 for "as the temperament says", so an all-zero tuning plays exactly as the
heuristic does. What each name moves (:data:`TUNING_NAMES`, in this order):

- ``aggression``, ``caution``, ``greed``: the temperament's weights of blows struck, of defence
  and repairs, of what an asset earns and costs each turn, multiplied by ``exp(value)``;
- ``attack_floor``: added to the lowest chance to hit at which an attack is worth making (the
  sum kept within 0.05-0.95);
- ``action:KIND`` for each Faction Action (``attack``, ``move``, ``repair``, ``expand``,
  ``create``, ``hide``, ``sell``) and ``action:pass``: the action's value (its worth or, when
  negative, its cost) when the heuristic weighs its Faction Action, multiplied by
  ``exp(value)``; for ``pass``, the value of waiting (saving for a purchase or for bribes);
- ``goal:ID`` for each of the book's goals: the temperament's weight of that goal, multiplied by
  ``exp(value)`` (homebrew goals keep theirs).

>>> from types import SimpleNamespace as NS
>>> from factionsim.agents.wwn_heuristic.personality import Personality
>>> f = NS(force=7, cunning=3, wealth=6, tags=("martial",), has_tag=lambda t: t == "martial")
>>> base = Personality.of(f)
>>> Tuning.of({}).apply(base) == base
True
>>> tuned = Tuning.of({"aggression": 0.5, "action:create": -1.0}).apply(base)
>>> round(tuned.aggression / base.aggression, 3), round(tuned.weigh("create", 2.0), 3)
(1.649, 0.736)
>>> Tuning.of({"boldness": 1.0})
Traceback (most recent call last):
...
ValueError: unknown tuning name(s) boldness; known: aggression, caution, greed, ...
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from factionsim.rules.wwn.goals import GOALS
from factionsim.rules.wwn.turn import ACTION_PHASE

from .personality import Personality

ACTION_KINDS = (*ACTION_PHASE, "pass")
STYLE = ("aggression", "caution", "greed")
#: the names of a tuning's numbers, in the order of its vector
TUNING_NAMES = (*STYLE, "attack_floor", *(f"action:{k}" for k in ACTION_KINDS),
                *(f"goal:{g}" for g in GOALS))
#: bounds of ``attack_floor`` once the tuning is added
FLOOR_RANGE = (0.05, 0.95)


@dataclass(frozen=True)
class Tuning:
    """One number per name of :data:`TUNING_NAMES` (``values``, in that order)."""

    values: tuple[float, ...]

    @classmethod
    def of(cls, named: Mapping[str, float]) -> Tuning:
        """From ``{name: value}`` (names left out are 0); ValueError for an unknown name."""
        unknown = sorted(set(named) - set(TUNING_NAMES))
        if unknown:
            raise ValueError(f"unknown tuning name(s) {', '.join(unknown)}; known: "
                             f"{', '.join(TUNING_NAMES[:3])}, ...")
        return cls(tuple(float(named.get(n, 0.0)) for n in TUNING_NAMES))

    @classmethod
    def from_vector(cls, vector: Sequence[float]) -> Tuning:
        """From the values in :data:`TUNING_NAMES` order."""
        if len(vector) != len(TUNING_NAMES):
            raise ValueError(f"a tuning has {len(TUNING_NAMES)} values, not {len(vector)}")
        return cls(tuple(float(v) for v in vector))

    def named(self) -> dict[str, float]:
        return dict(zip(TUNING_NAMES, self.values, strict=True))

    def apply(self, p: Personality) -> Personality:
        """``p`` with this tuning's shifts (see the module docstring)."""
        if not any(self.values):
            return p
        t = self.named()
        style = {k: getattr(p, k) * math.exp(t[k]) for k in STYLE}
        floor = min(max(p.attack_floor + t["attack_floor"], FLOOR_RANGE[0]), FLOOR_RANGE[1])
        actions = {k: math.exp(t[f"action:{k}"]) for k in ACTION_KINDS if t[f"action:{k}"]}
        goals = dict(p.goal_weight)
        for g in GOALS:
            if t[f"goal:{g}"]:
                goals[g] = goals.get(g, 1.0) * math.exp(t[f"goal:{g}"])
        return dataclasses.replace(p, **style, attack_floor=floor, action_weight=actions,
                                   goal_weight=goals)
