"""A faction's personality: its temperament (from the campaign or its tags and best attribute)
and the weights the heuristic derives from it.

>>> from types import SimpleNamespace as NS
>>> f = NS(force=7, cunning=3, wealth=6, tags=("martial",), has_tag=lambda t: t == "martial")
>>> p = Personality.of(f)
>>> p.temperament, p.focus
('aggressive', 'force')
>>> Personality.of(f, "cautious").goal_weight["peaceable-kingdom"] > 1
True
>>> Personality.of(f, "greedy").raises, Personality.of(f, "scheming").arm_weight["cunning"]
('income', 1.4)

What each temperament does differently (beyond the weights of goals):

- **aggressive**: values blows more (``aggression``), strikes at 25% odds;
- **cautious**: values blows less and defence and repairs more (``aggression``, ``caution``),
  strikes only at 50% odds;
- **greedy**: values what an asset earns and costs each turn (``greed``: income abilities such
  as Farmers, Manufactory, Court Patronage; upkeep such as a Free Company's), raises first the
  attribute whose next point earns most (its share of income, an earning asset it opens),
  builds its Bases to last (``base_hp``: 3 HP at least, up to half its spare Treasure and 6 HP:
  a Base keeps the Treasure paid for its HP while it stands), and plants them only away from its
  rivals' blows unless its goal asks for Bases (``base_risk``: a Base's damage is the faction's
  own HP), cares less for Expand Influence and Inside Enemy Territory (Bases and agents thrown
  among its rivals), hardly ever sets out for Wealth of Kingdoms (weight 0.05: its bribes, four
  times its Wealth in Treasure for 2 XP, are Treasure gone; unless its Treasure has nothing else
  to buy, ``goals.idle_treasure``) and strikes only at 50% odds (a lost fight is lost money);
- **scheming**: buys Cunning and Subtle assets (``favoured``), raises Cunning first (room for
  more Cunning assets), strikes with its Cunning assets rather than its soldiers
  (``arm_weight``), hides and moves Stealthed (the weights of Inside Enemy Territory), and cares
  less than others for what an asset earns (``greed`` 0.7: its Treasure is for its plots);
- **balanced**: none of these.
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
    "greedy": {**dict.fromkeys(WAR_GOALS, 0.8), "expand-influence": 0.7,
               "inside-enemy-territory": 0.6, "wealth-of-kingdoms": 0.05},
    "scheming": {"inside-enemy-territory": 1.6, "eliminate-target": 1.3, "expand-influence": 1.1,
                 "blood-the-enemy": 0.9},
    "balanced": {},
}
#: temperament -> (aggression, caution, greed)
_STYLE = {"aggressive": (1.5, 0.7, 0.8), "cautious": (0.45, 1.6, 1.0),
          "greedy": (0.7, 1.0, 2.5), "scheming": (1.0, 1.1, 0.7), "balanced": (1.0, 1.0, 1.0)}
#: temperament -> lowest chance to hit at which an attack is worth making (see
#: ``Situation.attack_ready``)
_ATTACK_FLOOR = {"aggressive": 0.25, "cautious": 0.5, "greedy": 0.5}
#: temperament -> the attribute it raises before its focus ("income": the one whose next point
#: earns most Treasure per XP, see ``_raise``)
_RAISES = {"greedy": "income", "scheming": "cunning"}
#: temperament -> (least, most) HP it gives a new Base (0: as the threat there asks; see
#: ``_expand_hp``)
_BASE_HP = {"greedy": (3, 6)}
#: temperament -> {asset attribute or "subtle": points added to a purchase's value}
_FAVOURED = {"scheming": {"cunning": 5.0, "subtle": 1.0}, "greedy": {"wealth": 2.0}}
#: temperament -> share of a spot's worth for a new Base lost per point of damage a turn the
#: rivals close by could deal it (``Situation.base_risk``)
_BASE_RISK = {"greedy": 0.5}
#: temperament -> {attacking asset's attribute: weight of what its blow gains}
_ARM_WEIGHT = {"scheming": {"cunning": 1.4, "force": 0.8}}
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
    attack_floor: float = 0.35
    raises: str | None = None  # the attribute raised first (None: the focus)
    favoured: dict[str, float] = field(default_factory=dict)
    arm_weight: dict[str, float] = field(default_factory=dict)
    base_risk: float = 0.0  # how much the rivals' blows close by spoil a spot for a new Base
    base_hp: tuple[int, int] = (0, 0)  # (least, most) HP of a new Base, (0, 0): as needed
    #: Faction Action kind (or "pass") -> factor on its value (a tuning's: :mod:`.tuning`)
    action_weight: dict[str, float] = field(default_factory=dict)

    def weigh(self, kind: str, value: float) -> float:
        """``value`` of Faction Action ``kind`` as this personality weighs it."""
        return value * self.action_weight.get(kind, 1.0)

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
                   dict(_GOAL_WEIGHTS[temperament]), _ATTACK_FLOOR.get(temperament, 0.35),
                   _RAISES.get(temperament), dict(_FAVOURED.get(temperament, {})),
                   dict(_ARM_WEIGHT.get(temperament, {})), _BASE_RISK.get(temperament, 0.0),
                   _BASE_HP.get(temperament, (0, 0)))
