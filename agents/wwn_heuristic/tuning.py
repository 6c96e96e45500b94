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

A tuning may also **read the faction's place in the campaign** (:class:`ReadingTuning`): its 22
numbers are then ``weights @ features``, the features being :data:`FEATURES` of the deciding
faction against the other living factions, worked out from what any faction can see (ratings
are public), so one tuning can play a small faction among giants otherwise than the giant:

- ``constant``: 1 (its weights are the shifts of an average faction);
- ``strength``: the faction's Force + Cunning + Wealth less the mean of its rivals', over 3;
- ``threat``: the highest Force among its rivals less its own, over 3;

each kept within -2..2. A reading tuning with every weight but the constant's 0 plays as the
constant tuning does.

The ``sheet`` reading (:data:`SHEET_FEATURES`, ``--tune-features sheet``) reads those three and
three more of the faction's sheet against its rivals', each within -2..2 as well:

- ``health``: its fraction of HP left less its rivals' mean fraction, times 2;
- ``treasure``: its Treasure over 10, less 1 (0 Treasure -1, 10 Treasure 0, 30 or more 2);
- ``holdings``: how many assets it has less the mean of how many each rival has that it can
  see (a rival's Stealthed assets are not counted), over 4.

The ``relations`` reading (:data:`RELATION_FEATURES`, ``--tune-features relations``) reads the
three of ``faction`` and one more, so that a faction at peace with its neighbours can be played
otherwise than one at war with all:

- ``hostility``: the share of its living rivals that are hostile to it, from -1 (none) to 1
  (all): ``2 * hostile / rivals - 1`` (0 when it has no living rival).

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

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
#: what a :class:`ReadingTuning` reads of the deciding faction's place (see the module docstring)
FEATURES = ("constant", "strength", "threat")
#: the ``sheet`` reading: :data:`FEATURES` and three more of the faction's sheet
SHEET_FEATURES = (*FEATURES, "health", "treasure", "holdings")
#: the ``relations`` reading: :data:`FEATURES` and the share of its rivals at war with it
RELATION_FEATURES = (*FEATURES, "hostility")
#: each feature is kept within these bounds
FEATURE_RANGE = (-2.0, 2.0)
#: how many tunings of distinct feature values a :class:`ReadingTuning` keeps at most
KEPT_TUNINGS = 4096


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

    def at(self, view) -> Tuning:
        """The tuning to play at ``view``'s decision: itself (it reads nothing)."""
        return self

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


def faction_features(view) -> tuple[float, ...]:
    """:data:`FEATURES` of the deciding faction of ``view`` (0 for both but the constant when it
    has no living rival).

    >>> from types import SimpleNamespace as NS
    >>> me = NS(id="a", force=3, cunning=4, wealth=1)
    >>> rivals = [NS(id="b", force=7, cunning=3, wealth=6), NS(id="c", force=2, cunning=4, wealth=6)]
    >>> faction_features(NS(faction=me, living_factions=lambda: [me, *rivals]))
    (1.0, -2.0, 1.3333333333333333)
    """
    me = view.faction
    return _place(me, _rivals(view, me))


def _rivals(view, me) -> list:
    return [f for f in view.living_factions() if f.id != me.id]


def _place(me, rivals: list) -> tuple[float, float, float]:
    """``constant``, ``strength`` and ``threat`` of ``me`` among ``rivals``, kept in bounds."""
    if not rivals:
        return (1.0, 0.0, 0.0)
    size = me.force + me.cunning + me.wealth
    strength = (size - sum(f.force + f.cunning + f.wealth for f in rivals) / len(rivals)) / 3
    threat = (max(f.force for f in rivals) - me.force) / 3
    lo, hi = FEATURE_RANGE
    return (1.0, min(max(strength, lo), hi), min(max(threat, lo), hi))


def sheet_features(view) -> tuple[float, ...]:
    """:data:`SHEET_FEATURES` of the deciding faction of ``view``: :func:`faction_features`, then
    ``health``, ``treasure`` and ``holdings`` (``health`` and ``holdings`` 0 when it has no
    living rival).

    >>> from types import SimpleNamespace as NS
    >>> me = NS(id="a", force=3, cunning=4, wealth=1, hp=6, max_hp=12, treasure=4)
    >>> rivals = [NS(id="b", force=7, cunning=3, wealth=6, hp=10, max_hp=10, treasure=0),
    ...           NS(id="c", force=2, cunning=4, wealth=6, hp=5, max_hp=10, treasure=9)]
    >>> held = {"a": (1, 2, 3), "b": (1,), "c": (1, 2, 3, 4, 5, 6, 7)}
    >>> view = NS(faction=me, living_factions=lambda: [me, *rivals],
    ...           assets_of=lambda fid: held[fid])
    >>> [round(x, 3) for x in sheet_features(view)]
    [1.0, -2.0, 1.333, -0.5, -0.6, -0.25]
    """
    me = view.faction
    rivals = _rivals(view, me)
    lo, hi = FEATURE_RANGE
    treasure = min(max(me.treasure / 10 - 1, lo), hi)
    if not rivals:
        return (*_place(me, rivals), 0.0, treasure, 0.0)
    health = 2 * (_hp_share(me) - sum(map(_hp_share, rivals)) / len(rivals))
    holdings = (len(view.assets_of(me.id))
                - sum(len(view.assets_of(f.id)) for f in rivals) / len(rivals)) / 4
    return (*_place(me, rivals), min(max(health, lo), hi), treasure, min(max(holdings, lo), hi))


def relation_features(view) -> tuple[float, ...]:
    """:data:`RELATION_FEATURES` of the deciding faction of ``view``: :func:`faction_features`,
    then ``hostility`` (0 when it has no living rival).

    >>> from types import SimpleNamespace as NS
    >>> me = NS(id="a", force=3, cunning=4, wealth=1)
    >>> rivals = [NS(id="b", force=7, cunning=3, wealth=6), NS(id="c", force=2, cunning=4, wealth=6)]
    >>> view = NS(faction=me, living_factions=lambda: [me, *rivals],
    ...           hostile=lambda x, y: {x, y} == {"a", "b"})
    >>> relation_features(view)
    (1.0, -2.0, 1.3333333333333333, 0.0)
    """
    me = view.faction
    rivals = _rivals(view, me)
    if not rivals:
        return (*_place(me, rivals), 0.0)
    hostile = sum(view.hostile(me.id, f.id) for f in rivals)
    return (*_place(me, rivals), 2 * hostile / len(rivals) - 1)


def _hp_share(faction) -> float:
    return faction.hp / faction.max_hp if faction.max_hp else 0.0


#: what a :class:`ReadingTuning` can read (a policy file's ``search.features``,
#: ``--tune-features``) -> (the features' names, the function working them out from a view)
READINGS: dict[str, tuple[tuple[str, ...], Callable]] = {
    "faction": (FEATURES, faction_features), "sheet": (SHEET_FEATURES, sheet_features),
    "relations": (RELATION_FEATURES, relation_features)}
#: what a tuning can read -> the number of values its network reads: "constant" a 1 (one set of
#: shifts for every faction), a name of :data:`READINGS` its features (:class:`ReadingTuning`)
TUNING_INPUTS = {"constant": 1, **{name: len(names) for name, (names, _) in READINGS.items()}}


def _reading(name: str) -> tuple[tuple[str, ...], Callable]:
    """:data:`READINGS`' entry ``name``, or ValueError naming the known ones."""
    if name not in READINGS:
        raise ValueError(f"unknown reading {name!r}; known: {', '.join(READINGS)}")
    return READINGS[name]


class ReadingTuning:
    """A tuning that reads the faction's place: at each decision, ``shifts(features)`` (the
    features of ``reading``, a name of :data:`READINGS`, as an array in their order, to one
    number per name of :data:`TUNING_NAMES`) as a :class:`Tuning`; the tunings of feature values
    met before are kept. :meth:`linear` makes one from a weight matrix, as ``--method tune``
    learns it."""

    def __init__(self, shifts: Callable[[np.ndarray], Sequence[float]], reading: str = "faction"):
        self.shifts = shifts
        self.reading = reading
        self._features = _reading(reading)[1]
        self._kept: dict[tuple[float, ...], Tuning] = {}

    @classmethod
    def linear(cls, weights: Sequence[Sequence[float]], reading: str = "faction") -> ReadingTuning:
        """``weights @ features``: one row per name of :data:`TUNING_NAMES`, one column per
        feature of ``reading`` (:data:`FEATURES` for ``faction``).

        >>> from types import SimpleNamespace as NS
        >>> w = np.zeros((len(TUNING_NAMES), len(FEATURES)))
        >>> w[0] = [0.5, 0.25, 0.0]  # aggression: 0.5, and 0.25 per unit of strength
        >>> me, rival = NS(id="a", force=6, cunning=3, wealth=3), NS(id="b", force=3, cunning=3,
        ...                                                               wealth=3)
        >>> view = NS(faction=me, living_factions=lambda: [me, rival])
        >>> ReadingTuning.linear(w).at(view).values[0]
        0.75
        """
        w = np.asarray(weights, dtype=np.float64)
        inputs = len(_reading(reading)[0])
        if w.shape != (len(TUNING_NAMES), inputs):
            raise ValueError(f"a tuning reading {reading} has {len(TUNING_NAMES)} x {inputs} "
                             f"weights, not {' x '.join(map(str, w.shape))}")
        return cls(lambda features: w @ features, reading)

    def at(self, view) -> Tuning:
        """The tuning for the deciding faction of ``view``."""
        if view is None:
            raise ValueError("a tuning that reads the faction's place needs the decision's view")
        features = self._features(view)
        tuning = self._kept.get(features)
        if tuning is None:
            if len(self._kept) >= KEPT_TUNINGS:  # (a long campaign meets many: start afresh)
                self._kept.clear()
            tuning = self._kept[features] = Tuning.from_vector(self.shifts(np.asarray(features)))
        return tuning
