"""Characters, sides and the rule tables of the ``conflict`` ruleset (ARC: Doom, seed 004).

A side is a faction; its characters are its pieces. Every number a scenario may change lives in
:data:`DEFAULT_SETTINGS` (``settings:`` in the scenario file).

>>> c = Character("ash", "Ash", "heroes", approaches={"careful": 2, "creative": 1, "concerted": 0})
>>> c.best_approach()
2
>>> c.max_blood, c.active
(6, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from factionsim.core.ruleset import DEFAULT_AGENT
from factionsim.core.writecount import WriteCounter, bump_own, counting_setattr

APPROACHES = ("careful", "creative", "concerted")
SKILLS = ("academic", "culture", "observe", "tactics", "charisma", "guile", "impose", "insight",
          "acrobatics", "coordination", "physique", "weaponry", "artistry", "survival", "tinker",
          "trade", "arcana", "focus")
#: The skills that harm each pool [text].
HARM_SKILLS = {"physique": "blood", "weaponry": "blood", "insight": "guts", "impose": "guts"}
#: Skills that can create an Advantage with a check [ours: the text's examples plus their kin].
ADVANTAGE_SKILLS = ("guile", "physique", "tactics", "observe", "acrobatics", "coordination",
                    "arcana", "tinker", "survival", "impose")
#: Skills an enemy may use to remove an Advantage (the best is used) [ours].
REMOVE_SKILLS = ("observe", "tactics", "acrobatics", "physique", "guile")
#: Skills for moving far under attack [text: "for example, with Acrobatics or Coordination"].
MOVE_SKILLS = ("acrobatics", "coordination")
#: "Do something else": parley with Charisma, a ritual with the objective's skill (Arcana).
PARLEY_SKILL = "charisma"

#: Initiative categories in order [text]: 1 stand ground, 2 non-harmful, 3 harm, 4 spell, 5 move far.
CATEGORIES = ("stand", "aid", "harm", "spell", "move")
CATEGORY_TITLES = {"stand": "standing ground", "aid": "non-harmful actions", "harm": "attacks",
                   "spell": "spells and techniques", "move": "moving far"}

ACTIVE, FALLEN, FLED, YIELDED = "active", "fallen", "fled", "yielded"
STATUSES = (ACTIVE, FALLEN, FLED, YIELDED)

DEFAULT_SETTINGS: dict[str, Any] = {
    "length": 20,            # the field: heights 0..length on a line [ours]
    "free_move": 2,          # free movement with any action [text]
    "far_move": 5,           # additional heights when moving far [text]
    "injured_free_move": 1,  # free movement at 0 Blood [ours: "injured ... limited movement"]
    "stand_radius": 2,       # stand ground protects allies within 2 heights [text]
    "stand_penalty": 1,      # -1 to the attack's TN per character standing ground nearby [text]
    "bond_cap": 3,           # stand ground gains minor Bond up to the first major level [text]
    "minor_per_major": 3,    # 3 minor levels = 1 major level [ours]
    "reach": 2,              # reach of Blood attacks without a ranged weapon [ours: the 2 heights
                             # of every radius the text gives]
    "guts_range": 2,         # reach of Guts attacks [ours: the same 2 heights]
    "aid_range": 2,          # reach of Advantages with a check, assists and parley [ours: 2]
    "unarmed": -2,           # difficulty of Weaponry without a weapon [ours]
    "advantage_rounds": 0,   # 0: an Advantage lasts until an enemy removes it [text]; N: it
                             # also fades at the end of the N-th round (its creation's = 1)
    "likely_tn": 5,          # an Advantage without a check needs a check this likely: TN >= 5
                             # [ours for "already likely to succeed"]
    "flawless_bonus": 2,     # a flawless success adds this to damage / Advantage bonus [ours]
    "tie_strain": 1,         # "succeed with a consequence": the roller loses 1 Guts [ours]
    "opportunity": 1,        # "fail with an opportunity": +1 TN on the roller's next check [ours]
    "aoo_radius": 2,         # enemies within 2 heights attack one who breaks away [text]
    "engaged_radius": 2,     # an enemy this close means "being attacked or targeted" [ours]
    "parley_fraction": 0.5,  # parley makes a foe stand down only at <= half Guts [ours]
    "concentration_tn": 6,   # first concentration roll under TN 6, then 5, 4... [text]
}


@dataclass
class Spell:
    """A Spell or Technique: ``effect`` harm (``power`` damage to ``pool``), heal (restore
    ``power`` to ``pool``) or advantage (+``power`` on the target and its neighbours within
    2 heights); ``uses`` instances left, ``range`` in heights."""

    id: str
    name: str
    effect: str = "harm"
    pool: str = "blood"
    power: int = 3
    range: int = 6
    uses: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "effect": self.effect, "pool": self.pool,
                "power": self.power, "range": self.range, "uses": self.uses}


#: How many writes of what a character's :meth:`Character.health` reads there have been, in this
#: process (one number for all games): an attribute write of a :data:`HEALTH_FIELDS` field
#: counts by itself; the rules count their in-place changes of ``approaches`` with
#: :meth:`Character.changed`. ``ConflictState.scores`` is kept while ``HEALTH_WRITES.count``
#: stays the same.
HEALTH_WRITES = WriteCounter()
HEALTH_FIELDS = frozenset({"status", "blood", "guts", "max_blood", "max_guts", "approaches",
                           "approach_max"})


@dataclass
class Character:
    """A hero, champion or creature in the conflict (the scenario format documents each field)."""

    id: str
    name: str
    side: str
    hero: bool = False
    position: int = 0
    approaches: dict[str, int] = field(default_factory=lambda: dict.fromkeys(APPROACHES, 1))
    approach_max: int = 0
    skills: dict[str, int] = field(default_factory=dict)
    blood: int = 6
    max_blood: int = 6
    guts: int = 6
    max_guts: int = 6
    weapon: int | None = None  # None: no weapon (Weaponry at a disadvantage)
    armor: int = 0
    talisman: int = 0          # damage bonus of Guts attacks
    ward: int = 0              # defense against Guts attacks
    reach: int | None = None   # Blood attack reach; None = settings.reach
    spells: list[Spell] = field(default_factory=list)
    tricks: dict[str, int] = field(default_factory=dict)  # Advantages without a check: id -> 1|2
    vulnerable: dict[str, str] = field(default_factory=dict)  # other skill -> pool it harms
    status: str = ACTIVE
    # the round in progress
    plan: str | None = None
    acted: bool = False
    targeted: bool = False
    standing: bool = False
    attacks_taken: int = 0      # attacks this round before its turn (concentration)
    concentration_broken: bool = False
    opportunity: int = 0
    assists: list[list[Any]] = field(default_factory=list)  # [helper id, bonus]

    def __post_init__(self) -> None:
        if not self.approach_max:
            self.approach_max = sum(self.approaches.values())

    #: every attribute write also counts in the character's own ``writes`` (not a field;
    #: in-place changes: :meth:`changed`), so that the env can keep a row per character
    __setattr__ = counting_setattr(HEALTH_WRITES, only=HEALTH_FIELDS, own="writes")

    def changed(self) -> None:
        """Count an in-place change of this character that no attribute write sees (an
        Approach point lost, an assist added, a spell's use spent): in its own ``writes``, and
        in :data:`HEALTH_WRITES` (an Approach is health; the others are counted there too, a
        harmless extra)."""
        bump_own(self, "writes")
        HEALTH_WRITES.bump()

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    def rank(self, skill: str) -> int:
        return int(self.skills.get(skill, 0))

    def best_approach(self) -> int:
        return max(self.approaches.values())

    def best_approach_name(self) -> str:
        return max(APPROACHES, key=lambda a: (self.approaches[a], -APPROACHES.index(a)))

    def pool(self, pool: str) -> int:
        return self.blood if pool == "blood" else self.guts

    def health(self) -> float:
        """Blood, Guts and Approaches left as a fraction of their starting maxima (0..1)."""
        if not self.active and self.status != FLED:
            return 0.0
        total = self.max_blood + self.max_guts + self.approach_max
        return (self.blood + self.guts + sum(self.approaches.values())) / max(1, total)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id, "name": self.name, "position": self.position,
            "approaches": dict(self.approaches), "skills": dict(self.skills),
            "blood": self.blood, "max_blood": self.max_blood, "guts": self.guts,
            "max_guts": self.max_guts,
        }
        if self.approach_max != sum(self.approaches.values()):
            d["approach_max"] = self.approach_max
        items = {"weapon": self.weapon, "armor": self.armor, "talisman": self.talisman,
                 "ward": self.ward}
        d["items"] = {k: v for k, v in items.items() if v}
        if self.weapon == 0:
            d["items"]["weapon"] = 0
        if self.reach is not None:
            d["reach"] = self.reach
        if self.spells:
            d["spells"] = [s.to_dict() for s in self.spells]
        if self.tricks:
            d["tricks"] = dict(self.tricks)
        if self.vulnerable:
            d["vulnerable"] = dict(self.vulnerable)
        if self.status != ACTIVE:
            d["status"] = self.status
        rnd = {"plan": self.plan, "acted": self.acted, "targeted": self.targeted,
               "standing": self.standing,
               "attacks_taken": self.attacks_taken,
               "concentration_broken": self.concentration_broken,
               "opportunity": self.opportunity, "assists": [list(a) for a in self.assists]}
        rnd = {k: v for k, v in rnd.items() if v}
        if rnd:
            d["round"] = rnd
        return d


@dataclass
class Side:
    """A faction in the conflict: its characters, its agent, whether they are heroes."""

    id: str
    name: str
    heroes: bool = False
    surprised: bool = False
    agent: str = DEFAULT_AGENT
    agent_options: dict[str, Any] = field(default_factory=dict)
    characters: list[str] = field(default_factory=list)
    alive: bool = True  # kept up to date by the state: any character still in the conflict

    # the headline numbers the generic tools read (gm summaries, env rendering)
    hp: int = 0
    max_hp: int = 0
    treasure: int = 0
    xp: int = 0
    goal: None = None
