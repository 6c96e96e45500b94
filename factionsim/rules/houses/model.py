"""The Great Houses' sheets: traits, assets, stress and the defaults of a scenario.

Defaults marked [ours] in ``docs/ruleset-houses.md`` are values a scenario may override in its
``rules:`` mapping (see :data:`DEFAULT_RULES`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from factionsim.core.ruleset import DEFAULT_AGENT
from factionsim.core.writecount import WriteCounter, counting_setattr

ATTRIBUTES = ("physical", "mental", "social")
SKILLS_BY_ATTRIBUTE = {
    "physical": ("logistics", "craft", "security", "might"),
    "mental": ("perception", "knowledge", "morale", "piety"),
    "social": ("connections", "relations", "intrigue", "commerce"),
}
SKILLS = tuple(s for group in SKILLS_BY_ATTRIBUTE.values() for s in group)
ASSET_KINDS = ("holding", "resource", "asset", "signature")
DURATIONS = ("fleeting", "season", "permanent")

#: Scenario-level rule values (the ``rules:`` mapping of a scenario file).
DEFAULT_RULES: dict[str, Any] = {
    "actions_per_season": 3,      # [text]
    "difficulty": [8, 8],         # [text] 2d8
    "plot_points_per_season": 1,  # [ours]
    "plot_point_cap": 5,          # [ours]
    "advances_per_season": 1,     # [ours] one "session" per season
    "max_committed_assets": None,  # no limit [text: none is given]; a scenario may set one
    "create_asset_opposed": True,  # [text] a rival may oppose an asset being created
    "seize_at": 6,                # [text] a Holding at d6 may be seized
    "created_asset_names": [
        "Hired Blades", "Spy Network", "Grain Convoy", "Loyal Bannermen", "Court Favour",
        "Forged Letters", "Siege Engines", "Merchant Fleet", "Temple Blessing", "Border Fort",
    ],
}

#: Advancement costs in advances ("sessions"), as the seed's table lists them.
ADVANCE_COSTS = {"signature": 1, "rewrite": 1, "step-signature": 2, "sfx": 2, "step": 3,
                 "attribute": 4}
#: The SFX a House can unlock (2 advances) [ours: a small catalogue; see the docs].
SFX = {
    "ruthless": "attacks (a House, an Asset or a Skill, a Holding): the effect die steps up one",
    "stalwart": "defending in a contest: add a d6 to the pool",
    "resilient": "recovery rolls (repair, stress/trauma, complications): add a d6 to the pool",
}


#: How many writes Houses and Assets have had, in this process (one number for all games): every
#: attribute write counts but those of a House's Plot Points and advances (:data:`UNCOUNTED`:
#: they change at most decisions, and what reads them reads them afresh), and the rules count
#: their in-place changes of a House's dicts and lists (``skills``, ``skills_full``,
#: ``attributes``, ``complications``, ``sfx``) and of a state's asset table with
#: ``WRITES.bump()``. What is computed from the rest (``HousesState.scores``, the env's
#: observation rows) is kept while ``WRITES.count`` stays the same.
WRITES = WriteCounter()
#: The House fields whose writes :data:`WRITES` leaves out.
UNCOUNTED = frozenset({"plot_points", "advances"})
_counted_setattr = counting_setattr(WRITES, skip=UNCOUNTED)


@dataclass(slots=True)
class Asset:
    """An Asset, Holding, Resource or Signature Asset: a die from d6 to d12.

    ``full`` is the rating it can be repaired up to; ``duration`` is ``fleeting`` (one roll, or
    the end of the season), ``season`` (solidified with a Plot Point) or ``permanent``.
    """

    id: str
    name: str
    kind: str
    die: int
    full: int
    owner: str
    duration: str = "permanent"
    created: int | None = None  # the season it was created in (signature advancement)

    __setattr__ = _counted_setattr

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "name": self.name, "kind": self.kind, "die": self.die}
        if self.full != self.die:
            d["full"] = self.full
        if self.duration != "permanent":
            d["duration"] = self.duration
        if self.created is not None:
            d["created"] = self.created
        return d

    @property
    def damaged(self) -> bool:
        return self.die < self.full


@dataclass(slots=True)
class House:
    """A Great House: Distinctions, Attributes, Skills (current and full), Stress, Trauma,
    Complications (``{"from": house or "hitch", "die": d, "lasting": bool}``), Plot Points,
    unspent advances and unlocked SFX. Assets live in the state's asset table."""

    id: str
    name: str
    distinctions: list[dict[str, Any]]
    attributes: dict[str, int]
    skills: dict[str, int]
    skills_full: dict[str, int]
    stress: int = 0
    trauma: int = 0
    complications: list[dict[str, Any]] = field(default_factory=list)
    plot_points: int = 1
    advances: int = 0
    sfx: list[str] = field(default_factory=list)
    agent: str = DEFAULT_AGENT
    agent_options: dict[str, Any] = field(default_factory=dict)
    alive: bool = True

    __setattr__ = _counted_setattr

    def hindrance(self) -> list[int]:
        """Dice the opposition adds against this House: its Stress, Trauma and largest
        Complication."""
        out = [d for d in (self.stress, self.trauma) if d]
        if self.complications:
            out.append(max(c["die"] for c in self.complications))
        return out

    def damaged_skills(self) -> list[str]:
        return [s for s in SKILLS if self.skills[s] < self.skills_full[s]]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "name": self.name, "agent": self.agent}
        if self.agent_options:
            d["agent_options"] = dict(self.agent_options)
        if not self.alive:
            d["alive"] = False
        d["distinctions"] = [{"name": x["name"], "die": x["die"]} for x in self.distinctions]
        d["attributes"] = dict(self.attributes)
        d["skills"] = {s: v for s, v in self.skills.items() if v != 4}
        damaged = {s: self.skills_full[s] for s in SKILLS if self.skills_full[s] != self.skills[s]}
        if damaged:
            d["skills_full"] = damaged
        d["stress"] = self.stress
        d["trauma"] = self.trauma
        if self.complications:
            d["complications"] = [dict(c) for c in self.complications]
        d["plot_points"] = self.plot_points
        d["advances"] = self.advances
        if self.sfx:
            d["sfx"] = list(self.sfx)
        return d
