"""Campaign-defined (homebrew) WWN goals: the ``goal_types:`` block of a campaign.

A GM adds goals of their own beside the ten of the book. Each is a *counter* over what happens
in play (:data:`COUNTERS`) and a difficulty, the XP it pays when the counter reaches its number::

    goal_types:
      - id: hold-the-weir
        name: Hold the Weir
        difficulty: 2
        counter: {kind: hold-base, location: weir, turns: 3}

A faction adopts one like a book goal (it is offered at every goal step, with no target), and
its progress shows as ``progress``/``needed`` in the saved goal. :mod:`.goals` calls the
functions below as things happen (damage, destruction, a Base planted) and in the goal step.

>>> kind = goal_types([{"id": "reavers", "name": "Reavers", "difficulty": 2,
...                     "counter": {"kind": "inflict-damage", "amount": 8}}])["reavers"]
>>> kind.counter, kind.needed, describe(kind)
('inflict-damage', 8, "Deal 8 damage to hostile factions' assets and Bases.")
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .data import ATTRIBUTES
from .homebrew import check_entries, entry_schema

if TYPE_CHECKING:
    from .model import Asset, Faction, Goal
    from .state import WwnState

#: the block's key in a campaign
BLOCK = "goal_types"
#: the most homebrew goals one campaign may define
MAX_GOALS = 50
#: the highest difficulty (XP) a homebrew goal may pay
MAX_DIFFICULTY = 10


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a counter: ``kind`` is ``int`` (from ``lo`` to ``hi``), ``asset type``,
    ``location`` or ``attribute``; ``needed`` marks the number the counter must reach."""

    kind: str
    lo: int = 1
    hi: int = 20
    required: bool = True
    needed: bool = False


@dataclass(frozen=True, slots=True)
class Counter:
    """One counter of the vocabulary: its parameters and its description in words."""

    name: str
    params: Mapping[str, Param]
    words: str


#: The counter vocabulary, name -> :class:`Counter`.
COUNTERS: dict[str, Counter] = {c.name: c for c in (
    Counter("inflict-damage", {"amount": Param("int", 1, 100, needed=True)},
            "Deal {amount} damage to hostile factions' assets and Bases."),
    Counter("destroy-assets", {"count": Param("int", needed=True),
                               "attribute": Param("attribute", required=False)},
            "Destroy {count} {of}assets (not Bases) of hostile factions."),
    Counter("own-assets", {"count": Param("int", needed=True), "type": Param("asset type")},
            "Own {count} assets of type {type} at the end of its turn."),
    Counter("hold-base", {"location": Param("location"), "turns": Param("int", needed=True)},
            "Hold a Base of Influence at {location} at the end of {turns} of its turns in a row."),
    Counter("plant-bases", {"count": Param("int", 1, 10, needed=True)},
            "Plant {count} new Bases of Influence by Expand Influence."),
)}

#: the fields of one homebrew goal: field -> required?
FIELDS = {"id": True, "name": True, "difficulty": True, "counter": True}


@dataclass(frozen=True, slots=True)
class GoalType:
    """One homebrew goal: id, name, ``difficulty`` (XP), the ``counter`` kind and its
    parameters (``params``: name -> value pairs)."""

    id: str
    name: str
    difficulty: int
    counter: str
    params: tuple[tuple[str, Any], ...]

    def param(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)

    @property
    def needed(self) -> int:
        """The number the counter must reach."""
        return next(int(v) for k, v in self.params if COUNTERS[self.counter].params[k].needed)


def describe(kind: GoalType) -> str:
    """What a homebrew goal asks, in words."""
    p = dict(kind.params)
    attr = p.get("attribute")
    return COUNTERS[kind.counter].words.format(**p, of=f"{attr.capitalize()} " if attr else "")


def goal_types(rows: Sequence[Mapping[str, Any]]) -> dict[str, GoalType]:
    """The checked ``goal_types:`` block, id -> :class:`GoalType`."""
    out: dict[str, GoalType] = {}
    for row in rows:
        counter = dict(row["counter"])
        kind = counter.pop("kind")
        out[row["id"]] = GoalType(row["id"], row["name"], row["difficulty"], kind,
                                  tuple(sorted(counter.items())))
    return out


# ---------------------------------------------------------------------- progress in play
def of(state: WwnState, faction: str) -> tuple[Goal, GoalType] | None:
    """``faction``'s goal and its homebrew definition, when its goal is a homebrew one."""
    g = state.factions[faction].goal
    kind = state.goal_types.get(g.id) if g is not None else None
    return (g, kind) if kind is not None else None


def on_damage(state: WwnState, source: str, dealt: int) -> None:
    """``source`` dealt ``dealt`` damage to a hostile faction's asset."""
    found = of(state, source)
    if found and found[1].counter == "inflict-damage":
        found[0].progress += dealt


def on_destroyed(state: WwnState, source: str, asset: Asset) -> None:
    """``source`` destroyed a hostile faction's ``asset``."""
    found = of(state, source)
    if found and found[1].counter == "destroy-assets" and not asset.is_base:
        attr = found[1].param("attribute")
        found[0].progress += attr is None or asset.attribute == attr


def on_base_planted(state: WwnState, faction: str) -> None:
    """``faction`` planted a Base by Expand Influence (and it survived its rivals' answer)."""
    found = of(state, faction)
    if found and found[1].counter == "plant-bases":
        found[0].progress += 1


def evaluate(state: WwnState, faction: Faction, g: Goal, kind: GoalType) -> None:
    """The goal step: update the counters that look at the state of play."""
    if kind.counter == "own-assets":
        g.progress = sum(a.type == kind.param("type") for a in state.assets_of(faction.id))
    elif kind.counter == "hold-base":
        held = state.base_of(faction.id, kind.param("location")) is not None
        g.progress = g.progress + 1 if held else 0


# ---------------------------------------------------------------------- checking
def check_goal_types(ck: Any, rows: Any, asset_types: Sequence[str], standard: Sequence[str],
                     path: tuple[Any, ...] = (BLOCK,)) -> list[Any]:
    """Check the ``goal_types:`` block with ``ck`` (a :class:`factionsim.core.fields.Checker`
    whose ``known["location"]`` holds the campaign's locations): fields, a new id (not one of
    ``standard``, the book's goals, nor given twice), a counter of :data:`COUNTERS` with its
    parameters (``type`` one of ``asset_types``). Returns the block unchanged."""
    for at, row in check_entries(ck, rows, path, "goal", FIELDS, MAX_GOALS, standard,
                                 "a goal of the book", "an id not among " + ", ".join(standard)):
        ck.text(row["name"], (*at, "name"), empty=False)
        ck.integer(row["difficulty"], (*at, "difficulty"), 1, MAX_DIFFICULTY)
        _counter(ck, row["counter"], (*at, "counter"), asset_types)
    return rows


def _counter(ck: Any, value: Any, path: tuple[Any, ...], asset_types: Sequence[str]) -> None:
    ck.mapping(value, path, "counter")
    if "kind" not in value:
        ck.fail(path, "missing field 'kind'", allowed=", ".join(COUNTERS))
    counter = COUNTERS[ck.choice(value["kind"], (*path, "kind"), tuple(COUNTERS), "counter")]
    ck.mapping(value, path, f"{counter.name} counter", keys=["kind", *counter.params],
               required=["kind", *(k for k, p in counter.params.items() if p.required)])
    for name, p in counter.params.items():
        if name not in value:
            continue
        at = (*path, name)
        if p.kind == "int":
            ck.integer(value[name], at, p.lo, p.hi)
        elif p.kind == "asset type":
            ck.choice(value[name], at, list(asset_types), "asset type",
                      "an asset id of docs/assets.md, base-of-influence, or one of the "
                      "campaign's asset_types")
        elif p.kind == "location":
            ck.ref(value[name], at, "location")
        else:
            ck.choice(value[name], at, ATTRIBUTES, "attribute")


def schema(standard: Sequence[str]) -> dict[str, Any]:
    """The JSON Schema of one ``goal_types`` entry (for :mod:`.schema`; ``standard``: the book's
    goal ids, which it may not take)."""
    def prop(p: Param) -> dict[str, Any]:
        if p.kind == "int":
            return {"type": "integer", "minimum": p.lo, "maximum": p.hi}
        if p.kind == "attribute":
            return {"enum": list(ATTRIBUTES)}
        return {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"}

    counters = [{
        "type": "object", "description": c.words, "additionalProperties": False,
        "required": ["kind", *(k for k, p in c.params.items() if p.required)],
        "properties": {"kind": {"const": c.name}, **{k: prop(p) for k, p in c.params.items()}},
    } for c in COUNTERS.values()]
    return entry_schema("goal", BLOCK, FIELDS, standard, counter={"oneOf": counters},
                        difficulty={"type": "integer", "minimum": 1, "maximum": MAX_DIFFICULTY})
