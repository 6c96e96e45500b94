"""Which goal fits the faction now: for each goal an estimate of the turns it would take from the
faction's real position, the chance it gets done, and so the XP it brings per turn, weighed by
personality (:func:`estimate` -> :class:`GoalEstimate`).

The heuristic adopts the goal with the best value (:func:`rank_choices`) and keeps it while it
remains the better bet (:func:`why_abandon`): a goal is dropped only when it has become
impossible, or when the best other goal, *paying the turn of paralysis that abandoning costs*,
would bring clearly more XP per turn than finishing this one. The turns left to finish a goal
are re-estimated from the position each turn, and never taken as less than what the progress
made so far predicts: a goal whose estimate keeps growing loses out to one that can be finished.

Steering options (:mod:`.steering`): ``focus`` leaves only that goal to choose; ``enemy`` makes
the goals that name a target prefer it; ``story`` keeps a goal unless it becomes impossible.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from factionsim.rules.wwn import goals as rules_goals
from factionsim.rules.wwn.data import ATTRIBUTES
from factionsim.rules.wwn.goals import goal_name

from . import homebrew
from .odds import attack_chance, damage_mean
from .tactics import XP, Situation, income_of

#: goals whose failure needs no abandoning (no turn of paralysis)
FAILS_FREELY = ("eliminate-target",)
#: how much more XP per turn another goal must promise before this one is abandoned
SWITCH_MARGIN = 5.0
#: turns a new goal is kept before switching is considered at all
SETTLE_TURNS = 4
#: a goal this close to done (estimated turns left) is finished, whatever else beckons
CLOSE_TURNS = 12


@dataclass(frozen=True)
class GoalEstimate:
    """What a goal would bring: ``turns`` left to complete it (``inf``: not from here),
    ``chance`` it gets done, ``xp`` it pays, ``value`` (XP points per turn, personality
    weighed) and ``why`` (a few words for the reason)."""

    value: float
    turns: float
    chance: float
    xp: float
    why: str

    @property
    def possible(self) -> bool:
        return self.turns < math.inf and self.chance > 0


#: what a goal that has to be abandoned costs, in XP points: the turn of paralysis
ABANDON_COST = XP * 1.0


def _rate(turns: float, chance: float, xp: float, weight: float, fails_freely: bool = False
          ) -> float:
    """XP points per turn a goal is expected to bring: its XP if it gets done, less the cost of
    abandoning it if it does not (nothing for a goal that fails by itself, Eliminate Target)."""
    if turns == math.inf:
        return 0.0
    risk = 0.0 if fails_freely else (1 - chance) * ABANDON_COST
    return weight * (chance * xp * XP - risk) / (turns + 0.5)


#: the least chance of success of a blow our estimates count on (the heuristic does not
#: strike at long odds, see ``Situation.attack_ready``)
LONG_ODDS = 0.3


def _odds_taken(sit: Situation) -> float:
    """The least chance to hit of a blow the estimates count: a blow this faction would make
    (its temperament's ``attack_floor``: a cautious or greedy faction strikes only at 50%, so
    blows at 36% that it will never make bring no goal nearer), and never a long shot."""
    return max(LONG_ODDS, sit.p.attack_floor)


def _damage_rate(sit: Situation, predicate, guarded: bool = False) -> float:
    """Expected damage per turn our attackers deal to visible hostile assets matching
    ``predicate``: each attacker's best blow at odds it would take, spread over the moves it
    needs to get there (a blow two moves away counts a third), and a turn in two spent on
    other things than the Attack action. ``guarded``: the defending faction picks which of its
    assets meets a blow, so a blow aimed at one asset is shared among the owner's other visible
    assets in the place (a Base behind two guards takes a third of it). Only blows at odds it
    would take count (:func:`_odds_taken`)."""
    rate = 0.0
    for blows in _blows(sit):
        best = 0.0
        for e, blow in blows:
            if predicate(e):
                best = max(best, blow / (1 + _guards(sit, e)) if guarded else blow)
        rate += best
    return rate / 2


def _blows(sit: Situation) -> list[list[tuple[Any, float]]]:
    """For each of our assets that may attack (and is not holding a place for Inside Enemy
    Territory), ``(enemy asset, expected damage of a blow spread over the moves to get
    there)`` of every visible asset of a faction we would attack that it could strike at odds
    it would take: what :func:`_damage_rate` sums for any predicate (kept for the decision)."""
    kept = sit.kept.get("blows")
    if kept is not None:
        return kept
    kept, floor = [], _odds_taken(sit)
    for a in sit.mine:
        if not a.kind.can_attack_normally or a.stealth and _counts_inside(sit, a):
            continue
        blows = []
        for e in sit.enemies:
            if e.stealth or e.owner not in sit.target_ids \
                    or not sit.state.can_defend(e, a):  # (Occult Countermeasures: Magic only)
                continue
            steps = sit.steps_to(a, e.location)
            if steps == math.inf:
                continue
            p = attack_chance(sit.me, a.kind.attack, sit.state.factions[e.owner], a, e)
            if p >= floor:
                blows.append((e, p * damage_mean(a.kind.attack.damage) / (1 + steps)))
        kept.append(blows)
    sit.kept["blows"] = kept
    return kept


def _guards(sit: Situation, asset) -> int:
    """The owner's other visible assets in ``asset``'s place (the defender may send any of
    them to meet a blow aimed at it)."""
    return sum(1 for e in sit.by_loc.get(asset.location, ())
               if e.owner == asset.owner and not e.stealth and e.id != asset.id)


def _target_turns(sit: Situation, asset) -> float:
    """Rough turns for us to destroy ``asset``: the moves to reach it, then the blows (inf when
    nothing of ours can reach it, or none at odds it would strike at, :func:`_odds_taken`)."""
    best, floor = math.inf, _odds_taken(sit)
    guards = 1 + _guards(sit, asset)
    for a in sit.mine:
        if not a.kind.can_attack_normally or not sit.state.can_defend(asset, a):
            continue
        steps = sit.steps_to(a, asset.location)
        if steps == math.inf:
            continue
        p = attack_chance(sit.me, a.kind.attack, sit.state.factions[asset.owner], a, asset)
        per = p * damage_mean(a.kind.attack.damage) / guards
        if per > 0 and p >= floor:
            best = min(best, steps + asset.hp / per)
    return best


def _steps_to_new_ground(sit: Situation) -> float:
    """Moves our nearest non-Base asset needs to reach another place with no Base of ours
    (where it stands is no good: it would be an expansion spot already)."""
    best = math.inf
    for a in sit.mine:
        if a.is_base:
            continue
        for loc in sit.state.map.locations:
            if loc != a.location and not sit.base_here(loc):
                best = min(best, sit.steps_to(a, loc))
    return best


def _buy_and_walk(sit: Situation) -> float:
    """Turns for Expand Influence by an asset not yet bought: save for it, buy it at one of our
    Bases (a Subtle one walks into ground rivals forbid), walk it to a place with no Base of
    ours, plant the Base (inf when no asset it may buy could get anywhere new)."""
    from dataclasses import replace

    me, state = sit.me, sit.state
    income = max(1, income_of(me))
    best = math.inf
    for base in (a for a in sit.mine if a.is_base):
        cheapest: dict[bool, tuple[int, str]] = {}  # subtle or not: (cost, type)
        for kind, cost in sit.offers(base.location):
            key = bool(kind.subtle)
            if key not in cheapest or (cost, kind.id) < cheapest[key]:
                cheapest[key] = (cost, kind.id)
        for cost, type_id in cheapest.values():
            kind = state.asset_types[type_id]
            probe = replace(base, id=f"?{type_id}@{base.location}", type=type_id, kind=kind,
                            hp=kind.hp, max_hp=kind.hp)
            walk = min((sit.steps_to(probe, loc) for loc in state.map.locations
                        if loc != base.location and not sit.base_here(loc)), default=math.inf)
            saving = math.ceil(max(0, cost - me.treasure) / income)
            best = min(best, saving + 1 + walk + 1)
    return best


def war_prey(sit: Situation, goal: str, target: str = "") -> list:
    """The visible enemy assets a war goal wants struck (empty for other goals)."""
    me = sit.me
    enemies = [e for e in sit.enemies if not e.stealth and e.owner in sit.target_ids]
    if goal == "blood-the-enemy":
        return enemies
    if goal == "destroy-the-foe":
        foe = _foe(sit)
        return [e for e in enemies if foe is not None and e.owner == foe.id and e.is_base]
    if goal == "eliminate-target":
        return [e for e in enemies if e.id == target]
    if goal == "invincible-valor":
        return [e for e in enemies if e.attribute == "force" and e.kind.rating > me.force]
    if goal == "root-out-the-enemy":
        owner, _, loc = target.partition("@")
        return [e for e in enemies if e.is_base and e.owner == owner and e.location == loc]
    if goal == "sphere-dominance":
        return [e for e in enemies if not e.is_base and e.attribute == target]
    return homebrew.prey(sit, goal, enemies)


def _foe(sit: Situation):
    """The faction Destroy the Foe aims at: the GM's ``enemy`` if hostile, else the weakest."""
    if sit.steer.enemy in sit.target_ids:
        return sit.state.factions[sit.steer.enemy]
    foes = [sit.state.factions[h] for h in sit.target_ids]
    return min(foes, key=lambda f: (f.hp, f.id), default=None)


# ---------------------------------------------------------------- Inside Enemy Territory
def _inside_locations(sit: Situation) -> set[str]:
    return {b.location for b in sit.hostile_bases()}


def excluded_units(sit: Situation) -> frozenset[str]:
    """The assets that can never count for Inside Enemy Territory: for the goal held, the units
    Stealthed in enemy ground when it was adopted (the rules' reading,
    :func:`factionsim.rules.wwn.goals.inside_excluded`); for the goal not yet adopted, those
    Stealthed in enemy ground now (adoption would exclude them). Moving them is no progress;
    buying and hiding new agents, or bringing in ones hidden elsewhere, is. Kept per decision."""
    cached = sit.__dict__.get("_inside_excluded")
    if cached is None:
        g = sit.goal
        if g is not None and g.id == "inside-enemy-territory":
            cached = frozenset(rules_goals.inside_excluded(sit.state, g))
        else:
            ground = _inside_locations(sit)
            cached = frozenset(a.id for a in sit.mine if a.stealth and a.location in ground)
        sit._inside_excluded = cached
    return cached


def _counts_inside(sit: Situation, asset) -> bool:
    """Whether ``asset`` counts for Inside Enemy Territory now (Stealthed where a hostile Base
    stands, and not one of the units excluded at adoption)."""
    g = sit.goal
    if g is None or g.id != "inside-enemy-territory" or not asset.stealth:
        return False
    return asset.location in _inside_locations(sit) and asset.id not in excluded_units(sit)


def _hide_spot(sit: Situation, location: str) -> bool:
    """Whether an asset may be hidden at ``location``: no other faction's Base stands there."""
    return not any(b.is_base and b.owner != sit.fid for b in sit.state.assets_at(location))


@dataclass(frozen=True)
class InsideRoute:
    """How one asset gets to count for Inside Enemy Territory: ``turns`` it needs, the place
    where it hides first (``None``: it is Stealthed already) and the place it heads for."""

    asset: str
    turns: float
    hide_at: str | None
    target: str


def _moves(distance: float, reach: int) -> float:
    """Moves of ``reach`` edges each to cover ``distance`` edges (inf: no way there)."""
    return math.ceil(distance / reach) if distance < math.inf else math.inf


def _route(sit: Situation, asset, targets: set[str]) -> InsideRoute | None:
    state, reach = sit.state, sit.state.move_range(sit.fid)
    goals = sorted(targets)
    if not goals or asset.id in excluded_units(sit):
        return None  # (an excluded unit counts nowhere: moving it is no progress)

    def walk(frm: str) -> tuple[float, str]:  # Stealthed: every place may be entered
        return min((_moves(state.map.distance(frm, t), reach), t) for t in goals)

    if asset.stealth:
        turns, target = walk(asset.location)
        return InsideRoute(asset.id, turns, None, target) if turns < math.inf else None
    best = None
    for spot in state.map.locations:
        if not _hide_spot(sit, spot):
            continue
        there = sit.steps_to(asset, spot)
        if there == math.inf:
            continue
        rest, target = walk(spot)
        turns = there + 1 + rest
        if turns == math.inf:
            continue
        if best is None or (turns, spot) < (best.turns, best.hide_at):
            best = InsideRoute(asset.id, turns, spot, target)
    return best


def inside_routes(sit: Situation) -> tuple[int, int, list[InsideRoute]]:
    """(assets counting now, assets still needed, the quickest routes for as many of the
    others as are needed) for Inside Enemy Territory."""
    targets = _inside_locations(sit)
    excluded = excluded_units(sit)
    done, routes = 0, []
    for a in sit.mine:
        if a.is_base or a.id in excluded:
            continue
        if a.stealth and a.location in targets:
            done += 1
            continue
        r = _route(sit, a, targets)
        if r is not None:
            routes.append(r)
    left = max(0, sit.me.cunning - done)
    routes.sort(key=lambda r: (r.turns, r.asset))
    return done, left, routes[:left]


def progress_now(sit: Situation) -> tuple[int, int]:
    """``(progress, needed)`` of the faction's goal as the rules would count them now, from
    what the faction sees (:func:`factionsim.rules.wwn.goals.progress_now` reads the whole
    state): Inside Enemy Territory's agents in place and the current Cunning, the stored
    figures for the other goals; ``(0, 0)`` without a goal."""
    g = sit.goal
    if g is None:
        return 0, 0
    if g.id == "inside-enemy-territory":
        return inside_routes(sit)[0], sit.me.cunning
    return g.progress, g.needed


def _room(sit: Situation) -> int:
    """Assets the faction may still buy without paying upkeep: each attribute holds as many
    (non-Base) assets as its rating before each more costs 1 Treasure a turn."""
    held = {x: 0 for x in ATTRIBUTES}
    for a in sit.mine:
        if not a.is_base:
            held[a.attribute] += 1
    return sum(max(0, sit.me.rating(x) - held[x]) for x in ATTRIBUTES)


def no_room_to_grow(sit: Situation) -> bool:
    """Whether Treasure can buy the faction nothing more now: no room for another asset
    without upkeep ("A faction can have no more Assets of a particular attribute than their
    attribute score") and no place where an asset of its stands without a Base of its own."""
    return _room(sit) == 0 and not sit.expansion_spots()


def idle_treasure(sit: Situation) -> bool:
    """Whether the faction's Treasure has nothing left to buy (:func:`no_room_to_grow`) and it
    holds enough to pay Wealth of Kingdoms at once. A greedy faction shuns Wealth of Kingdoms
    because its bribes are Treasure gone; Treasure that cannot be spent on anything else is no
    loss."""
    return sit.me.treasure >= 4 * sit.me.wealth and no_room_to_grow(sit)


def inside_plan(sit: Situation) -> tuple[float, int, int, str]:
    """(turns, assets still to place, Treasure it needs, why) for Inside Enemy Territory from
    here: assets to buy (one a turn, and no more than it may own without upkeep), to hide (2
    Treasure each, never where another faction has a Base: it may have to walk to a place it can
    hide in first) and to walk, Stealthed, to a place where a hostile Base stands."""
    me = sit.me
    concealed = me.has_tag("concealed")
    if not _inside_locations(sit) or (me.cunning < 3 and not concealed):
        return math.inf, 0, 0, "it has no enemy ground it could slip into"
    done, left, routes = inside_routes(sit)
    buys = left - len(routes)
    if buys > _room(sit):
        return math.inf, left, 0, "it has no room for more agents without paying upkeep"
    dist = sit.state.map.distance
    if buys and not any(b.is_base and dist(b.location, t) < math.inf
                        for b in sit.mine for t in _inside_locations(sit)):
        return math.inf, left, 0, "no road leads from its Bases to enemy ground"
    walk = max((r.turns for r in routes), default=0) + (3 if buys else 0)
    hides = sum(1 for r in routes if r.hide_at is not None) + (0 if concealed else buys)
    cash = 2 * hides + buys * 3
    saving = max(0, cash - me.treasure) / max(1, income_of(me))
    turns = buys + walk + saving
    why = (f"{done}/{me.cunning} hidden agents in place, "
           + (f"{len(routes)} more can get there" if routes else "the rest must be bought"))
    return turns, left, cash, why


# ---------------------------------------------------------------- every goal
def estimate(sit: Situation, goal: str, target: str = "") -> GoalEstimate:
    """The :class:`GoalEstimate` of adopting (or, for the current goal, finishing) ``goal``."""
    me = sit.me
    w = sit.p.goal_weight.get(goal, 1.0)
    current = sit.goal if sit.goal is not None and sit.goal.id == goal \
        and sit.goal.target == target else None
    xp, turns, chance, why = 1.0, math.inf, 1.0, ""
    own = homebrew.own_goal(sit, goal)
    if own is not None:  # a campaign's own goal, by its counter
        xp, turns, chance, why = homebrew.estimate(
            sit, own, current, lambda pred: _damage_rate(sit, pred),
            lambda: _steps_to_new_ground(sit))
    elif goal == "blood-the-enemy":
        rate = _damage_rate(sit, lambda e: True)
        left = (current.needed - current.progress) if current else sum(me.ratings)
        xp, turns, chance = 2, left / max(rate, 0.05), 0.6
        why = f"its forces can draw about {rate:.1f} blood a turn"
    elif goal == "destroy-the-foe":
        weakest = _foe(sit)
        if weakest is not None:
            rate = _damage_rate(sit, lambda e: e.owner == weakest.id and e.is_base, guarded=True)
            xp = 2 + math.ceil(sum(weakest.ratings) / 3)
            turns, chance = weakest.hp / max(rate, 0.05) + 1, 0.3
            why = f"{weakest.name} is down to {weakest.hp} HP"
    elif goal == "eliminate-target":
        a = sit.state.asset(target)
        if a is not None and not a.stealth and a.owner in sit.target_ids:
            t = _target_turns(sit, a)
            turns, chance = t, (0.55 if t <= 2 else 0.3 if t <= 3 else 0.0)
            why = f"{sit.aname(a)} at {sit.place(a.location)} is within reach"
    elif goal == "expand-influence":
        spots = sit.good_expansion_spots()
        walk = _steps_to_new_ground(sit)
        # a goal held already is kept by buying the asset (abandoning it costs a turn);
        # adopting one that way was measured to finish fewer goals (docs/agents.md)
        bought = _buy_and_walk(sit) if current is not None and not spots else math.inf
        if spots or walk < math.inf:
            turns = 1 if spots else 1 + walk
            contested = [s for s in spots if sit.hostile_present(s)]
            xp = 1.3 if contested else 1
            chance = 0.9 if len(contested) < len(spots) or not spots else 0.6
            why = "it has a foothold to build on" if spots else "it can send an asset to new ground"
        elif sit.expansion_spots():  # only ground its rivals may tear a new Base down on
            turns, chance = 1, 0.4
            why = "it has a foothold, if a contested one"
        if not spots and bought < turns:
            turns, chance = bought, 0.8
            why = "it can buy an asset at a Base and send it to new ground"
    elif goal == "inside-enemy-territory":
        turns, left, cash, why = inside_plan(sit)
        xp, chance = 2, (0.75 if left <= 2 else 0.6 if left <= 4 else 0.4)
    elif goal == "invincible-valor":
        prey = [e for e in sit.enemies if e.attribute == "force" and e.kind.rating > me.force
                and e.owner in sit.target_ids]
        if prey:
            t = min(_target_turns(sit, e) for e in prey)
            xp, turns, chance = 2, t, 0.6
            why = "a mighty enemy force is within reach"
    elif goal == "peaceable-kingdom":
        threat = sum(sit.threat_to(a.location) for a in sit.mine if a.is_base)
        left = (current.needed - current.progress) if current else 4
        xp, turns = 1, left
        # peace costs the blows it forgoes: less likely kept when enemies are at the gates
        chance = 0.95 if threat < 1 else 0.8
        why = "its borders are quiet" if threat < 1 else "it would rather not fight"
    elif goal == "root-out-the-enemy":
        owner, _, loc = target.partition("@")
        base = next((a for a in sit.by_loc.get(loc, ()) if a.is_base and a.owner == owner), None)
        if base is not None and owner in sit.target_ids:

            ruler = sit.state.ruling_faction(target)
            t = _target_turns(sit, base)
            xp = math.ceil(math.ceil(sum(ruler.ratings) / 3) / 2)
            # a Base others are also striking at may fall to them first: the goal is then lost
            others = any(e.owner not in (owner, sit.fid) and e.kind.can_attack_normally
                         and sit.state.hostile(e.owner, owner) for e in sit.by_loc.get(loc, ()))
            turns, chance = t, 0.4 * (0.5 if others else 1.0)
            why = f"{sit.fname(owner)}'s Base at {sit.place(loc)} looks weak"
            if owner == sit.steer.enemy:
                w *= 1.5
    elif goal == "sphere-dominance" and target in ATTRIBUTES:
        need = current.needed - current.progress if current else me.rating(target)
        rate = _damage_rate(sit, lambda e: e.attribute == target)
        prey = sum(1 for e in sit.enemies if e.attribute == target and e.owner in sit.target_ids)
        if prey:
            xp = math.ceil(me.rating(target) / 2)
            turns = need * 5 / max(rate, 0.05)
            chance = min(1.0, prey / max(1, need)) * 0.4
            why = f"{prey} rival {target} assets are in view"
    elif goal == "wealth-of-kingdoms":
        left = (current.needed - current.progress) if current else 4 * me.wealth
        xp, turns = 2, max(0, left - me.treasure) / max(1, income_of(me))
        why = f"its coffers fill by {income_of(me)} a turn"
        if idle_treasure(sit):  # bribes cost nothing it could have bought
            w = max(w, 1.0)
            why = (f"its {me.treasure} Treasure has nothing else to buy: every asset its "
                   f"ratings allow, a Base wherever it stands")
    if goal in ("eliminate-target", "destroy-the-foe") and target and target == sit.steer.enemy:
        w *= 1.5
    if current is not None and turns < math.inf:
        turns = max(turns, _observed_turns(sit, current))
    return GoalEstimate(_rate(turns, chance, xp, w, goal in FAILS_FREELY), turns, chance, xp, why)


def _observed_turns(sit: Situation, g) -> float:
    """Turns left as the time already spent says: at the pace of the progress made so far
    (goals measured in progress points), and for any goal without progress at least half the
    turns already spent on it (an estimate that never comes true keeps growing)."""
    age = max(1, sit.state.current_turn - g.started)
    if g.id in ("blood-the-enemy", "sphere-dominance") and g.progress:
        return (g.needed - g.progress) / (g.progress / age)
    if not g.progress and g.id != "peaceable-kingdom":
        return age / 2
    return 0.0


def allowed(sit: Situation, choices) -> list:
    """The goal choices the steering leaves: only ``focus`` goals when there are some."""
    if sit.steer.focus:
        focused = [c for c in choices if c.goal == sit.steer.focus]
        if focused:
            return focused
    return list(choices)


def rank_choices(sit: Situation, choices) -> list[tuple[float, object, str]]:
    """``[(points per turn, choice, why)]``, best first (ties in legal order), of the choices the
    steering allows."""
    scored = []
    for i, c in enumerate(allowed(sit, choices)):
        e = estimate(sit, c.goal, c.target)
        scored.append((e.value, -i, c, e.why))
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [(v, c, why) for v, _, c, why in scored]


def impossible(sit: Situation) -> str | None:
    """Why the current goal cannot be completed any more, or None."""
    g = sit.goal
    if g is None:
        return None
    if g.id == "root-out-the-enemy":
        owner, _, loc = g.target.partition("@")
        if not any(a.is_base and a.owner == owner for a in sit.by_loc.get(loc, ())):
            return "its target Base is gone"
    if g.id == "destroy-the-foe" and not sit.target_ids:
        return "no foe is left"
    if (g.id in ("sphere-dominance", "invincible-valor", "blood-the-enemy")
            or homebrew.is_war(sit)) and not sit.target_ids:
        return "it has no enemy left to fight"
    if g.id == "inside-enemy-territory" and not _inside_locations(sit):
        return "no enemy Base is left to slip into"
    age = sit.state.current_turn - g.started
    if g.id not in FAILS_FREELY and age >= SETTLE_TURNS \
            and not estimate(sit, g.id, g.target).possible:
        return "nothing it has can bring it about"
    return None


def why_abandon(sit: Situation, choices) -> tuple[str, object, str] | None:
    """``(why the current goal goes, the goal that replaces it, why that one)`` or None to keep
    it (see the module docstring). The other goals are ranked only once one of the reasons to
    drop it holds (most turns none does, and ranking estimates every goal)."""
    g = sit.goal
    if g is None or g.id in FAILS_FREELY:
        return None  # Eliminate Target fails by itself, with no turn of paralysis
    gone = impossible(sit)
    focus = sit.steer.focus
    # a GM's focus, adoptable now, is worth the paralysis (the steering then ranks only it)
    to_focus = bool(focus) and any(c.goal == focus for c in choices)
    if not gone:
        if sit.steer.story or (focus == g.id):
            return None
        if not to_focus:
            age = sit.state.current_turn - g.started
            if age < SETTLE_TURNS:
                return None
            keep = estimate(sit, g.id, g.target)
            if keep.turns < CLOSE_TURNS:
                return None
    ranked = rank_choices(sit, choices)
    if not ranked:
        return None
    value, choice, why = ranked[0]
    if value <= 0:
        return None
    if gone:
        return gone, choice, why
    if to_focus:
        return f"the GM's focus is {goal_name(sit.state, focus)}", choice, why
    other = estimate(sit, choice.goal, choice.target)
    # the other goal starts a turn late (paralysis): its XP per turn over that longer wait
    switch = _rate(other.turns + 1, other.chance, other.xp,
                   sit.p.goal_weight.get(choice.goal, 1.0), choice.goal in FAILS_FREELY)
    # (what abandoning the current goal later might cost is no reason to abandon it now)
    staying = _rate(keep.turns, keep.chance, keep.xp, sit.p.goal_weight.get(g.id, 1.0), True)
    if switch > SWITCH_MARGIN * staying:
        left = "out of reach" if keep.turns == math.inf else f"{keep.turns:.0f} more turns away"
        return f"{age} turns on and still {left}", choice, why
    return None


def purchase_for(sit: Situation):
    """The asset most worth saving for: ``(kind, cost, turns to afford it)`` of the best-valued
    asset it could buy at one of its Bases with more Treasure, or None (kept for the
    decision)."""
    if "purchase_for" in sit.kept:
        return sit.kept["purchase_for"]
    best, best_value = None, 0.0
    for base in (a for a in sit.mine if a.is_base):
        for kind, cost in sit.offers(base.location):
            if cost <= sit.me.treasure:
                continue
            value = sit.purchase_value(kind.id, base.location) - 0.3 * cost
            if value > best_value:
                wait = math.ceil((cost - sit.me.treasure) / max(1, income_of(sit.me)))
                best, best_value = (kind, cost, wait), value
    sit.kept["purchase_for"] = best
    return best
