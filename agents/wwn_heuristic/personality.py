"""A faction's personality: its temperament (from the campaign or its tags and best attribute)
and the weights the heuristic derives from it.

>>> from types import SimpleNamespace as NS
>>> f = NS(force=7, cunning=3, wealth=6, tags=("martial",), has_tag=lambda t: t == "martial")
>>> p = Personality.of(f)
>>> p.temperament, p.focus
('aggressive', 'force')
>>> Personality.of(f, "cautious").goal_weight["peaceable-kingdom"] > 1
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from factionsim.core.game import CampaignError

TEMPERAMENTS = ("aggressive", "cautious", "greedy", "scheming", "balanced")
WAR_GOALS = ("blood-the-enemy", "destroy-the-foe", "eliminate-target", "invincible-valor",
             "root-out-the-enemy", "sphere-dominance")

#: goal id -> weight, per temperament (missing goals weigh 1)
_GOAL_WEIGHTS: dict[str, dict[str, float]] = {
    "aggressive": {**dict.fromkeys(WAR_GOALS, 1.5), "peaceable-kingdom": 0.3,
                   "wealth-of-kingdoms": 0.6, "inside-enemy-territory": 0.7},
    "cautious": {**dict.fromkeys(WAR_GOALS, 0.6), "peaceable-kingdom": 1.6,
                 "expand-influence": 1.2, "wealth-of-kingdoms": 1.2},
    "greedy": {**dict.fromkeys(WAR_GOALS, 0.8), "wealth-of-kingdoms": 1.8,
               "expand-influence": 1.3},
    "scheming": {"inside-enemy-territory": 1.6, "eliminate-target": 1.3, "expand-influence": 1.1,
                 "blood-the-enemy": 0.9},
    "balanced": {},
}
#: temperament -> (aggression, caution, greed)
_STYLE = {"aggressive": (1.5, 0.7, 0.8), "cautious": (0.6, 1.6, 1.0),
          "greedy": (0.8, 1.0, 1.6), "scheming": (1.0, 1.1, 1.0), "balanced": (1.0, 1.0, 1.0)}
_TAG_TEMPERAMENT = {"martial": "aggressive", "rich": "greedy", "machiavellian": "scheming",
                    "concealed": "scheming", "imperialist": "greedy"}
_FOCUS_TEMPERAMENT = {"force": "aggressive", "wealth": "greedy", "cunning": "scheming"}


@dataclass(frozen=True)
class Personality:
    temperament: str
    focus: str  # best attribute: what it raises and buys first
    aggression: float = 1.0
    caution: float = 1.0
    greed: float = 1.0
    goal_weight: dict[str, float] = field(default_factory=dict)

    @classmethod
    def of(cls, faction, temperament: str | None = None) -> Personality:
        ratings = {"force": faction.force, "cunning": faction.cunning, "wealth": faction.wealth}
        focus = max(ratings, key=lambda a: (ratings[a], a == "force"))
        for tag, top in (("martial", "force"), ("machiavellian", "cunning"), ("rich", "wealth")):
            if faction.has_tag(tag):
                focus = top
        if temperament is None:
            temperament = next((_TAG_TEMPERAMENT[t] for t in faction.tags if t in _TAG_TEMPERAMENT),
                               _FOCUS_TEMPERAMENT[focus])
        if temperament not in TEMPERAMENTS:
            raise CampaignError(f"unknown temperament {temperament!r}; "
                                f"choose one of {', '.join(TEMPERAMENTS)}")
        aggression, caution, greed = _STYLE[temperament]
        return cls(temperament, focus, aggression, caution, greed,
                   dict(_GOAL_WEIGHTS[temperament]))
