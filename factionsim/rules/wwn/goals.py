"""Faction goals (6.7.0): what each one asks, how progress is tracked, and the XP it pays.

Progress is updated by the rules as things happen (damage dealt, assets destroyed, bases planted)
and checked in the goal step at the end of the faction's turn. Our readings of the text:

- Blood the Enemy counts damage this faction deals to hostile factions' assets and Bases, by its
  attacks and its counterattacks; the amount needed is F+C+W when the goal is adopted.
- Destroy the Foe completes when a hostile faction collapses from damage this faction dealt;
  its difficulty is 2 + the average of the *destroyed* faction's F, C, W (rounded up) when it
  collapses ("the faction's" read as the foe's: the goal is sized by what was destroyed).
- Eliminate Target names an undamaged hostile non-Base asset; it fails (free goal change) when the
  goal step of the third turn after adoption arrives without this faction destroying it, or when
  the target leaves play some other way.
- Expand Influence completes when a Base this faction plants survives its rivals' answer; it is
  contested (+1 XP) when a hostile faction had an asset in the location.
- Inside Enemy Territory counts own Stealthed assets in locations holding a hostile Base, except
  the *units* (asset ids) that were already Stealthed in such a location at adoption: those never
  count for this goal, wherever they go ("Units that are already Stealthed in locations when this
  goal is adopted don't count"); a unit Stealthed elsewhere at adoption counts once it stands in
  enemy ground. The number needed is current Cunning. (Saves written before this reading keep
  ``asset@location`` pairs in the goal's ``baseline``: each is read as its asset.)
- Peaceable Kingdom counts this faction's turns without an Attack action since adoption; an
  Attack resets the count.
- Root Out the Enemy names a hostile Base (``faction@location``); difficulty is half the average
  of the ratings of the faction that *rules the location* (its ``ruler``; the Base's owner where
  the location has no living ruler), rounded up, fixed at adoption.
- Sphere Dominance names an attribute; it needs that many hostile non-Base assets of the attribute
  destroyed by this faction (the rating at adoption); difficulty is half that, rounded up.
- Wealth of Kingdoms is advanced with ``bribe N`` in the goal step; it needs 4 x Wealth spent and
  cannot be adopted again until Wealth has risen since it was last completed.

A campaign's own goals (``goal_types:``, :mod:`.homebrew_goals`) are offered beside these, with
no target, and counted by the same calls.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

from factionsim.core.game import Event

from . import homebrew_goals
from .actions import ChooseGoal
from .data import ATTRIBUTES, ceil_div
from .model import ASSET_CHANGES, Goal

if TYPE_CHECKING:
    from collections.abc import Callable

    from .model import Faction
    from .state import WwnState

GOALS = {
    "blood-the-enemy": "Blood the Enemy",
    "destroy-the-foe": "Destroy the Foe",
    "eliminate-target": "Eliminate Target",
    "expand-influence": "Expand Influence",
    "inside-enemy-territory": "Inside Enemy Territory",
    "invincible-valor": "Invincible Valor",
    "peaceable-kingdom": "Peaceable Kingdom",
    "root-out-the-enemy": "Root Out the Enemy",
    "sphere-dominance": "Sphere Dominance",
    "wealth-of-kingdoms": "Wealth of Kingdoms",
}


def goal_name(state: WwnState, goal_id: str) -> str:
    """A goal's name: the book's, or the campaign's own (``goal_types:``), else its id."""
    kind = state.goal_types.get(goal_id)
    return kind.name if kind is not None else GOALS.get(goal_id, goal_id)


FIXED_DIFFICULTY = {"blood-the-enemy": 2, "eliminate-target": 1, "expand-influence": 1,
                    "inside-enemy-territory": 2, "invincible-valor": 2, "peaceable-kingdom": 1,
                    "wealth-of-kingdoms": 2}
ELIMINATE_TARGET_TURNS = 3
PEACEABLE_TURNS = 4


def _avg_up(values: tuple[int, ...] | list[int]) -> int:
    return math.ceil(sum(values) / len(values))


# Goal options are built at nearly every decision of random play, and building ~30 frozen
# objects each time was a tenth of its time: the same ChooseGoal object serves every time.
def _choice_per_target(goal: str) -> Callable[[str], ChooseGoal]:
    """``target -> ChooseGoal(goal, target)``, the same object for the same target."""
    return functools.lru_cache(maxsize=4096)(functools.partial(ChooseGoal, goal))


_eliminate = _choice_per_target("eliminate-target")
_root_out = _choice_per_target("root-out-the-enemy")
_BLOOD = ChooseGoal("blood-the-enemy")
_DESTROY = ChooseGoal("destroy-the-foe")
_WEALTH = ChooseGoal("wealth-of-kingdoms")
#: Choices open to every faction whatever the state of play (listed between the target kinds).
_UNTARGETED = tuple(ChooseGoal(g) for g in ("expand-influence", "inside-enemy-territory",
                                            "invincible-valor", "peaceable-kingdom"))
_SPHERES = tuple(ChooseGoal("sphere-dominance", attr) for attr in ATTRIBUTES)


def options(state: WwnState, faction: Faction) -> list[ChooseGoal]:
    """Every goal the faction may adopt now, with each possible target.

    Kept per faction in ``state.goal_options_cache`` while what they depend on is unchanged:
    the hostile factions, the assets (the table's ``version`` and :data:`.model.ASSET_CHANGES`,
    which count every change to any asset), whether Wealth of Kingdoms is open and the
    campaign's own goals. The same choice objects come back (a new list each time)."""
    return list(_kept(state, faction)[1])


def options_besides(state: WwnState, faction: Faction, goal: Goal) -> list[ChooseGoal]:
    """:func:`options` less the choice of ``goal`` itself (its id and target): the other goals
    a faction holding ``goal`` may switch to (each choice is a distinct goal and target, so
    at most one is left out: found by the kept options' index, not by comparing each)."""
    kept = _kept(state, faction)
    choices, places = kept[1], kept[3]
    if places is None:  # two alike (a faction holding two Bases in one place): compare each
        return [c for c in choices if c.goal != goal.id or c.target != goal.target]
    i = places.get((goal.id, goal.target))
    return list(choices) if i is None else choices[:i] + choices[i + 1:]


def _kept(state: WwnState, faction: Faction) -> tuple[Any, list[ChooseGoal], object,
                                                      dict[tuple[str, str], int] | None]:
    """``state.goal_options_cache``'s entry of ``faction``, worked out again when what the
    options depend on changed (see :func:`options`): ``(key, options, the table's token, each
    option's (goal, target) -> its place among them, or None when two are alike)``."""
    hostile = state.hostile_factions(faction.id)
    table = state.assets
    key = (table.version, ASSET_CHANGES.count, tuple(hostile),
           faction.wealth > faction.wealth_at_last_kingdoms, tuple(state.goal_types))
    cached = state.goal_options_cache.get(faction.id)
    if cached is None or cached[0] != key or cached[2] is not table.token:
        choices = _options(state, faction, set(hostile))
        places: dict[tuple[str, str], int] | None = {
            (c.goal, c.target): i for i, c in enumerate(choices)}
        if len(places) != len(choices):
            places = None
        cached = state.goal_options_cache[faction.id] = (key, choices, table.token, places)
    return cached


def _options(state: WwnState, faction: Faction, hostile_ids: set[str]) -> list[ChooseGoal]:
    """:func:`options` worked out: hostile assets to eliminate, hostile Bases to root out, and
    the goals that take no target or an attribute."""
    targets: list[ChooseGoal] = []  # visible hostile assets: undamaged non-Bases to eliminate
    bases: list[ChooseGoal] = []  # ... and Bases to root out
    for a in state.assets.values():
        if a.owner in hostile_ids and not a.stealth:
            if a.is_base:
                bases.append(_root_out(f"{a.owner}@{a.location}"))
            elif not a.damaged:
                targets.append(_eliminate(a.id))
    out = [_BLOOD]
    if hostile_ids:
        out.append(_DESTROY)
    out += targets
    out += _UNTARGETED
    out += bases
    out += _SPHERES
    if faction.wealth > faction.wealth_at_last_kingdoms:
        out.append(_WEALTH)
    out += (ChooseGoal(g) for g in state.goal_types)
    return out


def adopt(state: WwnState, faction: Faction, choice: ChooseGoal, started: int | None = None) -> Goal:
    """Set up goal ``choice`` for ``faction``. ``started`` is the turn it counts as adopted in
    (default: the turn being played, whose goal step adopts it); a goal written in a campaign file
    counts as adopted at the end of the last turn played (``state.turn``), so Eliminate Target's
    three turns are the next three played."""
    g = Goal(choice.goal, choice.target,
             started=state.current_turn if started is None else started, needed=1,
             difficulty=FIXED_DIFFICULTY.get(choice.goal))
    homebrew = state.goal_types.get(g.id)
    if homebrew is not None:
        g.needed, g.difficulty = homebrew.needed, homebrew.difficulty
    elif g.id == "blood-the-enemy":
        g.needed = sum(faction.ratings)
    elif g.id == "peaceable-kingdom":
        g.needed = PEACEABLE_TURNS
    elif g.id == "wealth-of-kingdoms":
        g.needed = 4 * faction.wealth
    elif g.id == "sphere-dominance":
        g.needed = faction.rating(g.target)
        g.difficulty = ceil_div(g.needed, 2)
    elif g.id == "root-out-the-enemy":
        g.difficulty = ceil_div(_avg_up(ruling_faction(state, g.target).ratings), 2)
    elif g.id == "inside-enemy-territory":
        g.baseline = sorted(inside_units(state, faction.id))
        g.needed = faction.cunning
    faction.goal = g
    return g


def ruling_faction(state: WwnState, target: str) -> Faction:
    """The "current ruling faction" of Root Out the Enemy's ``faction@location``: the location's
    living ruler, else the owner of the Base."""
    owner, _, location = target.partition("@")
    ruler = state.factions.get(state.map.locations[location].ruler or "")
    return ruler if ruler is not None and ruler.alive else state.factions[owner]


def inside_units(state: WwnState, fid: str) -> set[str]:
    """Ids of faction ``fid``'s Stealthed assets standing where a hostile Base stands."""
    hostile = set(state.hostile_factions(fid))  # (only living factions hold assets)
    hostile_bases = {a.location for a in state.assets.values() if a.is_base and a.owner in hostile}
    return {a.id for a in state.assets_of(fid) if a.stealth and a.location in hostile_bases}


def inside_excluded(state: WwnState, g: Goal) -> set[str]:
    """The units that never count for Inside Enemy Territory goal ``g``: those Stealthed in
    enemy ground when it was adopted (``g.baseline``). An entry ``asset@location`` naming a place
    on the map is the form saves kept before this reading (the pair that did not count): it is
    read as its asset."""
    out = set()
    for entry in g.baseline:
        unit, at, place = entry.rpartition("@")
        out.add(unit if at and place in state.map.locations else entry)
    return out


def progress_now(state: WwnState, faction: Faction) -> tuple[int, int]:
    """``(progress, needed)`` of the faction's goal as the rules count them at this moment:
    Inside Enemy Territory's from the assets where they stand now and the current Cunning (the
    stored figures are those of the last goal step); the stored figures for the others."""
    g = faction.goal
    if g is None:
        return 0, 0
    if g.id == "inside-enemy-territory":
        return (len(inside_units(state, faction.id) - inside_excluded(state, g)),
                faction.cunning)
    return g.progress, g.needed


# ---------------------------------------------------------------- progress as things happen
def _goal(state: WwnState, fid: str, goal_id: str) -> Goal | None:
    g = state.factions[fid].goal
    return g if g is not None and g.id == goal_id else None


def on_damage(state: WwnState, source: str, dealt: int) -> None:
    g = _goal(state, source, "blood-the-enemy")
    if g:
        g.progress += dealt
    homebrew_goals.on_damage(state, source, dealt)


def on_destroyed(state: WwnState, source: str, asset) -> None:
    g = state.factions[source].goal
    if g is None:
        return
    homebrew_goals.on_destroyed(state, source, asset)
    if g.id == "sphere-dominance":
        g.progress += asset.attribute == g.target
    elif _destroys_goal_target(state, source, g, asset):
        g.progress = 1


def _destroys_goal_target(state: WwnState, source: str, g: Goal, asset) -> bool:
    """Whether destroying ``asset`` is what goal ``g`` of faction ``source`` asks for."""
    if g.id == "eliminate-target":
        return g.target == asset.id
    if g.id == "invincible-valor":
        return asset.attribute == "force" and asset.kind.rating > state.factions[source].force
    if g.id == "root-out-the-enemy":
        return asset.is_base and g.target == f"{asset.owner}@{asset.location}"
    return False


def on_collapse(state: WwnState, source: str, faction_id: str) -> None:
    g = _goal(state, source, "destroy-the-foe")
    if g:
        g.progress = 1
        g.difficulty = 2 + _avg_up(state.factions[faction_id].ratings)


def on_base_planted(state: WwnState, fid: str, contested: bool) -> None:
    g = _goal(state, fid, "expand-influence")
    if g:
        g.progress = 1
        g.contested = g.contested or contested
    homebrew_goals.on_base_planted(state, fid)


# ---------------------------------------------------------------- the goal step
def evaluate(state: WwnState, faction: Faction, attacked_this_turn: bool) -> str | None:
    """Update turn-based progress; ``"complete"``, ``"failed"`` or ``None`` (still open)."""
    g = faction.goal
    if g is None:
        return None
    if g.id == "peaceable-kingdom":
        g.progress = 0 if attacked_this_turn else g.progress + 1
    elif g.id == "inside-enemy-territory":
        g.progress, g.needed = progress_now(state, faction)
    elif g.id in state.goal_types:
        homebrew_goals.evaluate(state, faction, g, state.goal_types[g.id])
    if g.progress >= g.needed:
        return "complete"
    if g.id == "eliminate-target" and (
        g.target not in state.assets or state.current_turn >= g.started + ELIMINATE_TARGET_TURNS
    ):
        return "failed"
    return None


def difficulty(faction: Faction, g: Goal) -> int:
    if g.id == "expand-influence":
        return 1 + int(g.contested)
    return int(g.difficulty or 0)


def complete(state: WwnState, faction: Faction, events: list[Event]) -> None:
    g = faction.goal
    assert g is not None
    xp = difficulty(faction, g)
    faction.xp += xp
    faction.xp_earned += xp
    faction.goals_completed += 1
    if g.id == "wealth-of-kingdoms":
        faction.wealth_at_last_kingdoms = faction.wealth
    events.append(Event(state.current_turn, "goal-complete", faction.id,
                        {"goal": g.id, "target": g.target, "xp": xp}))
    faction.goal = None
