"""Pillars, factions and campaign settings of the engagements ruleset (plain mutable records).

>>> p = Pillar("black-lances#1", "Black Lances", competence=3, defense=2)
>>> p.circles_left, p.defeated
(3, False)
>>> Settings.from_dict({"pillar_cap": 4}).pillar_cap
4
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from factionsim.core.ruleset import DEFAULT_AGENT
from factionsim.core.writecount import WriteCounter, counting_setattr

#: Boons of Anima Prime 17.2 the simulation knows.
BOONS = ("assassinate", "fanatical")
#: Flavour kinds of pillars (the reference names battle units, spy rings, propaganda groups).
KINDS = ("battle-unit", "spy-ring", "propaganda-group", "cult", "guild", "other")
MIN_COMPETENCE, MAX_COMPETENCE = 1, 5
MIN_DEFENSE, MAX_DEFENSE = 0, 4
MAX_ENGAGEMENT_DRAW = 3  # step 4: "up to 3 engagement dice"
FANATICAL_DICE = 2


def slugify(text: str) -> str:
    """``"Black Lances"`` -> ``"black-lances"``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "pillar"


#: How many writes of what the scores read there have been, in this process (one number for all
#: games): every attribute write of a Pillar, and a Faction's writes of :data:`SCORED_FIELDS`,
#: count by themselves; the rules count their in-place changes of a Faction's ``pillars`` list
#: with ``SCORE_WRITES.bump()``. ``EngagementsState.scores`` is kept while
#: ``SCORE_WRITES.count`` stays the same.
SCORE_WRITES = WriteCounter()
#: The Faction fields the scores read.
SCORED_FIELDS = frozenset({"alive", "pillars", "renown"})


@dataclass
class Pillar:
    """One pillar: ``competence`` dice it rolls, ``defense``, ``circles`` wound circles of which
    ``wounds`` are marked; defeated (and removed) when every circle is marked."""

    id: str
    name: str
    competence: int
    defense: int
    kind: str = "other"
    circles: int = 3
    wounds: int = 0
    boons: tuple[str, ...] = ()

    __setattr__ = counting_setattr(SCORE_WRITES)

    @property
    def circles_left(self) -> int:
        return self.circles - self.wounds

    @property
    def defeated(self) -> bool:
        return self.wounds >= self.circles

    @property
    def slug(self) -> str:
        return self.id.rsplit("#", 1)[0]

    def has(self, boon: str) -> bool:
        return boon in self.boons

    def strength(self) -> int:
        """Competence + defense + unmarked circles (the score counts it)."""
        return self.competence + self.defense + self.circles_left

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": int(self.id.rsplit("#", 1)[1]), "name": self.name,
                             "kind": self.kind, "competence": self.competence,
                             "defense": self.defense}
        if self.circles != 3:
            d["circles"] = self.circles
        if self.wounds:
            d["wounds"] = self.wounds
        if self.boons:
            d["boons"] = list(self.boons)
        return d


@dataclass
class Faction:
    """A faction: its pillars (ids, in order), faction dice, engagement pools per rival."""

    id: str
    name: str
    agent: str = DEFAULT_AGENT
    agent_options: dict[str, Any] = field(default_factory=dict)
    alive: bool = True
    faction_dice: int = 0
    engagement: dict[str, int] = field(default_factory=dict)  # rival id -> engagement dice
    pillars: list[str] = field(default_factory=list)
    mercenary: int | None = None  # asking price in faction dice, None if not for hire
    renown: int = 0  # rival pillars this faction defeated (score)
    exposed_since: int | None = None  # turn in which its last pillar fell
    #: rivals it gained engagement dice against since it last engaged them: "A faction has the
    #: option of engaging another whenever it gains engagement dice against that faction" [text]
    may_engage: list[str] = field(default_factory=list)

    __setattr__ = counting_setattr(SCORE_WRITES, only=SCORED_FIELDS)

    def pool(self, rival: str) -> int:
        return self.engagement.get(rival, 0)

    def gained(self, rival: str, order: list[str]) -> None:
        """It gained engagement dice against ``rival``: it may engage it (list kept in campaign
        ``order``)."""
        if rival not in self.may_engage:
            self.may_engage = [f for f in order if f in self.may_engage or f == rival]


@dataclass
class Settings:
    """Campaign settings ([ours] defaults of docs/ruleset-engagements.md; a scenario may override).

    ``gm_deferral``: chance (0-1) that the GM defers a declared engagement to a later turn.
    ``grievance_dice``: engagement dice a defender gains against each faction that attacked it.
    """

    pillar_cap: int = 5
    income_base: int = 1
    income_per_pillars: int = 2  # +1 faction die per this many pillars (rounded down)
    heal_cost: int = 1
    gm_deferral: float = 0.0
    grievance_dice: int = 0
    engagements_per_turn: int | None = None  # None: no limit (the text has none)
    build_competence_max: int = MAX_COMPETENCE  # a new pillar starts at most this competent
    build_defense_max: int = MAX_DEFENSE
    renown_score: float = 2.0

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Settings:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in (d or {}).items() if k in names})

    def to_dict(self) -> dict[str, Any]:
        default = Settings()
        return {k: v for k, v in asdict(self).items() if getattr(default, k) != v}

    def income(self, pillars: int) -> int:
        return self.income_base + pillars // max(1, self.income_per_pillars)


SETTING_KEYS = tuple(f.name for f in fields(Settings))
