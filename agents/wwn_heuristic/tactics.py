"""What the heuristic knows and how it values things: attacks, defenders, repairs, purchases,
moves. Every number is in *points*: 1 Treasure = 1 point, 1 XP = :data:`XP` points.

Only what the faction can see is read: :class:`Situation` is built from a ``WwnView`` and never
touches other factions' Stealthed assets.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

from factionsim.rules.wwn.data import ceil_div
from factionsim.rules.wwn.goals import goal_name as name_of_goal
from factionsim.rules.wwn.goals import inside_excluded

from . import homebrew
from .abilities import NET_INCOME
from .odds import attack_chance, damage_at_least, damage_distribution, damage_mean
from .personality import Personality
from .steering import Steering

XP = 20.0  # points per XP: goals are what the score counts
OWN_HP = 1.5  # points per faction HP of ours
ENEMY_HP = 0.6  # points per faction HP taken from a rival
GOOD_SPOT = 0.5  # expand_score from which a spot is worth planting a Base on
PRICE_WEIGHT = 0.5  # points per Treasure of a purchase's price

#: (asset type, ratings and tags of us and our rivals) -> mean damage of one attack.
_ATTACK_WORTH: dict[tuple, float] = {}


@dataclass(frozen=True)
class AttackPlan:
    asset: str
    target: str  # faction id
    defender: str  # the asset we expect to meet the attack
    chance: float
    value: float
    kill: float  # chance the defender is destroyed


class Situation:
    """One decision's worth of knowledge, built from a view (``state``: the view, a
    :class:`~factionsim.rules.wwn.state.WwnView`; the name is kept from when it was the engine
    state)."""

    def __init__(self, view, personality: Personality, steering: Steering | None = None):
        self.view = view
        self.state = view
        self.me = view.faction
        self.fid = self.me.id
        self.p = personality
        self.steer = steering or Steering()
        self.assets = view.assets()
        self.mine = [a for a in self.assets if a.owner == self.fid]
        state = self.state
        living = [f.id for f in state.living_factions() if f.id != self.fid]
        self.hostile_ids = {f for f in living if state.hostile(self.fid, f)}
        self.ally_ids = {f for f in living if state.relation(self.fid, f) == "allied"}
        #: hostile factions the campaign names as our rivals (not hostile by default only)
        self.rival_ids = {f for f in self.hostile_ids
                          if state.relations.get(frozenset((self.fid, f))) == "hostile"}
        #: the factions we would attack: the hostile ones, less the one we protect
        self.target_ids = self.hostile_ids - {self.steer.protect}
        friends = self.ally_ids | ({self.steer.protect} if self.steer.protect in living else set())
        #: our targets that are also hostile to an ally or to the faction we protect
        self.shared_enemy_ids = {f for f in self.target_ids
                                 if any(state.hostile(friend, f) for friend in friends)}
        self.enemies = [a for a in self.assets if a.owner in self.hostile_ids]
        self.by_loc: dict[str, list] = {}
        for a in self.assets:
            self.by_loc.setdefault(a.location, []).append(a)
        self.goal = self.me.goal
        self._sides: tuple | None = None  # ratings and tags of us and our rivals
        self._distance_cache: dict[str, int] = {}
        # kept for this decision (the state does not change while it is being made)
        self._type_values: dict[str, float] = {}  # purchase_value's part per asset type
        self._hits: dict[tuple[str, str], tuple] = {}
        #: answers of the goal planner kept for this decision (:func:`.goals.purchase_for`,
        #: :func:`.goals._blows`)
        self.kept: dict[str, Any] = {}
        self._offers: dict[str, list] = {}  # what it could buy at each of its Bases
        self._best_attacks: dict[tuple[str, str | None], AttackPlan | None] = {}
        self._steps: dict[tuple[str, str, bool], dict[str, int]] = {}
        self._walks: dict[tuple[str, str], dict[str, int]] = {}

    # ------------------------------------------------------------ names for reasons
    def fname(self, fid: str) -> str:
        return self.state.factions[fid].name

    def aname(self, asset) -> str:
        kind = asset.kind.name
        return kind if asset.owner == self.fid else f"{self.fname(asset.owner)}'s {kind}"

    def place(self, loc: str) -> str:
        return self.state.map.locations[loc].name

    def goal_name(self) -> str:
        return name_of_goal(self.state, self.goal.id) if self.goal else "no goal"

    # ------------------------------------------------------------ values
    def asset_value(self, asset) -> float:
        if asset.is_base:
            return 2.0 * asset.max_hp
        return float(asset.kind.cost) + 1.0

    def goal_kill_bonus(self, asset) -> float:
        """Extra points our current goal gives for destroying ``asset``."""
        g = self.goal
        if g is None:
            return 0.0
        if g.id == "eliminate-target" and g.target == asset.id:
            return XP * 1.2
        if g.id == "invincible-valor" and asset.attribute == "force" \
                and asset.kind.rating > self.me.force:
            return XP * 2
        if g.id == "root-out-the-enemy" and asset.is_base \
                and g.target == f"{asset.owner}@{asset.location}":
            return XP * max(1, g.difficulty or 1)
        if g.id == "sphere-dominance" and asset.attribute == g.target:
            return XP * (g.difficulty or 1) / max(1, g.needed)
        return XP * homebrew.kill_bonus(self, asset)

    def goal_damage_bonus(self, asset) -> float:
        """Extra points per damage point dealt to ``asset``."""
        g = self.goal
        if g is None:
            return 0.0
        if g.id == "blood-the-enemy":
            return XP * 2 / max(1, g.needed)
        if g.id == "destroy-the-foe" and asset.is_base:
            f = self.state.factions[asset.owner]
            return XP * 3 / max(4, f.hp)
        return XP * homebrew.damage_bonus(self)

    def war_goal(self) -> bool:
        return self.goal is not None and self.goal.id in (
            "blood-the-enemy", "destroy-the-foe", "eliminate-target", "invincible-valor",
            "root-out-the-enemy", "sphere-dominance") or homebrew.is_war(self)

    # ------------------------------------------------------------ attacks
    def hit_outcome(self, attacker, defender) -> tuple[float, float, float, float, float]:
        """(chance, expected damage dealt, chance of kill, expected counter taken, chance our
        attacker dies) for ``attacker`` striking ``defender`` (kept for this decision)."""
        key = (attacker.id, defender.id)
        out = self._hits.get(key)
        if out is None:
            line = attacker.kind.attack
            af, df = self.state.factions[attacker.owner], self.state.factions[defender.owner]
            p = attack_chance(af, line, df, attacker, defender)
            dealt, kill = _expected_min(line.damage, defender.hp)
            taken, lost = (_expected_min(defender.kind.counter, attacker.hp)
                           if defender.kind.counter else (0.0, 0.0))
            out = self._hits[key] = (p, dealt, kill, taken, lost)
        return out

    def target_weight(self, faction: str) -> float:
        """How much more a blow against ``faction`` is worth than against any hostile faction:
        a rival the campaign names (x1.25), an enemy of an ally or of the faction we protect
        (x1.25), the ``enemy`` a GM named (x2)."""
        w = 1.0
        if faction in self.rival_ids:
            w *= 1.25
        if faction in self.shared_enemy_ids:
            w *= 1.25
        if faction == self.steer.enemy:
            w *= 2.0
        return w

    def stealth_value(self, asset) -> float:
        """What keeping ``asset`` Stealthed is worth (an attack would reveal it): the Treasure
        hiding it cost, and its share of Inside Enemy Territory where it may count for the goal
        (not a unit the goal excluded at adoption)."""
        if not asset.stealth:
            return 0.0
        g = self.goal
        value = 2.0
        if g is not None and g.id == "inside-enemy-territory" \
                and asset.id not in inside_excluded(self.state, g):
            value += XP * 2 / max(1, g.needed) * 1.5
        return value

    def attack_value(self, attacker, defender) -> tuple[float, float, float]:
        """(value to us, chance, kill chance) of ``attacker`` (ours) striking ``defender``."""
        p, dealt, kill, taken, lost = self.hit_outcome(attacker, defender)
        gain = dealt * (0.4 + self.goal_damage_bonus(defender)) \
            + kill * (self.asset_value(defender) * 1.5 + 3 + self.goal_kill_bonus(defender))
        if defender.is_base:
            gain += dealt * ENEMY_HP
        gain *= self.target_weight(defender.owner) * self.p.arm_weight.get(attacker.attribute, 1.0)
        loss = taken * 0.3 + lost * self.asset_value(attacker)
        return (p * gain * self.p.aggression - (1 - p) * loss * self.p.caution
                - self.stealth_value(attacker)), p, kill

    def defence_loss(self, attacker, defender) -> float:
        """Expected points the defender's owner loses if ``defender`` meets ``attacker``."""
        p, dealt, kill, taken, lost = self.hit_outcome(attacker, defender)
        value = self.asset_value(defender)
        loss = dealt * (value / max(1, defender.max_hp)) * 0.5 + kill * value
        if defender.is_base:
            loss += dealt * OWN_HP * 2
        gain = taken * 0.3 + lost * (attacker.kind.cost + 1) * 0.7
        return p * loss - (1 - p) * gain

    def likely_defender(self, attacker, target: str, location: str | None = None):
        """The asset faction ``target`` would sensibly send against ``attacker`` (where it
        stands, or at ``location`` once it has moved there): only assets it may strike at all
        (Occult Countermeasures only those that need Magic; planning a blow at the others sent
        it marching back and forth, a stall)."""
        loc = location or attacker.location
        cands = [a for a in self.by_loc.get(loc, ()) if a.owner == target and not a.stealth
                 and self.state.can_defend(a, attacker)]
        if not cands:
            return None
        return min(cands, key=lambda d: (self.defence_loss(attacker, d), d.id))

    def attack_plan(self, attacker, target: str, location: str | None = None) -> AttackPlan | None:
        d = self.likely_defender(attacker, target, location)
        if d is None:
            return None
        value, p, kill = self.attack_value(attacker, d)
        return AttackPlan(attacker.id, target, d.id, p, value, kill)

    def best_attack(self, attacker, location: str | None = None) -> AttackPlan | None:
        """The most valuable attack ``attacker`` could make where it stands (or, given a
        ``location``, once it has moved there); kept for this decision."""
        if not attacker.kind.can_attack_normally:
            return None
        key = (attacker.id, location)
        if key in self._best_attacks:
            return self._best_attacks[key]
        loc = location or attacker.location
        targets = dict.fromkeys(a.owner for a in self.by_loc.get(loc, ())
                                if a.owner in self.target_ids and not a.stealth)
        plans = [p for t in targets if (p := self.attack_plan(attacker, t, location))]
        best = self._best_attacks[key] = max(plans, key=lambda p: p.value, default=None)
        return best

    def attack_ready(self, plan: AttackPlan | None) -> bool:
        """Worth making: clearly positive, not a long shot (a sure kill is always worth it)."""
        if plan is None:
            return False
        return plan.value > 0.5 and (plan.chance >= self.p.attack_floor
                                     or plan.chance * plan.kill > 0.2)

    def threat_to(self, location: str) -> float:
        """Expected damage hostile visible attackers at ``location`` could deal per turn."""
        total = 0.0
        for a in self.by_loc.get(location, ()):
            if a.owner in self.hostile_ids and a.kind.can_attack_normally:
                line = a.kind.attack
                p = attack_chance(self.state.factions[a.owner], line, self.me)
                total += p * damage_mean(line.damage)
        return total

    def base_risk(self, location: str) -> float:
        """Expected damage per turn a Base of ours at ``location`` could take: from the hostile
        visible attackers there, and half from those one move away (every point of it is a
        point of our own HP: a Base's damage is the faction's)."""
        near = self.state.map.adjacent.get(location, ())
        return self.threat_to(location) + 0.5 * sum(self.threat_to(n) for n in near)

    # ------------------------------------------------------------ repairs
    def repair_value(self, asset, fixes: int) -> float:
        from factionsim.rules.wwn.economy import repair_amount

        cost = fixes + 1
        heal = min(repair_amount(self.me, asset), asset.max_hp - asset.hp)
        if heal <= 0:
            return -1.0
        value = heal * self.asset_value(asset) / max(1, asset.max_hp) * 0.8
        if asset.is_base:
            value += heal * 0.5
            if asset.hp * 3 <= asset.max_hp:  # nearly dead: it would go at the next blow
                value += 8.0
        danger = self.threat_to(asset.location)
        if danger >= asset.hp:
            value += 3.0
        return value * self.p.caution - cost

    def faction_repair_value(self) -> float:
        from factionsim.rules.wwn.economy import faction_heal_amount

        heal = min(faction_heal_amount(self.me), self.me.max_hp - self.me.hp)
        low = 2.0 if self.me.hp * 2 < self.me.max_hp else 1.0
        return heal * OWN_HP * low * self.p.caution - 1

    # ------------------------------------------------------------ purchases
    def offers(self, location: str) -> list:
        """``(type, cost)`` of every asset type we could create at our Base in ``location``,
        Treasure aside (:meth:`~factionsim.rules.wwn.state.WwnView.creatable`; kept for this
        decision)."""
        kept = self._offers.get(location)
        if kept is None:
            kept = self._offers[location] = list(self.state.creatable(self.me, location))
        return kept

    def purchase_value(self, type_id: str, location: str) -> float:
        kind = self.state.asset_types[type_id]
        value = self._type_values.get(type_id)
        if value is None:
            value = self._type_values[type_id] = self._type_value(kind)
        # where: near the enemy for war, at home for defence
        if kind.can_attack_normally:
            value += (1.5 if self.war_goal() else 0.5) * (2 - min(2, self._enemy_distance(location)))
        return value

    def gross_value(self, kind) -> float:
        """What an asset of ``kind`` is worth to us, its price left aside (for comparing one we
        own with one we could buy)."""
        return self._type_value(kind) + kind.cost * PRICE_WEIGHT

    def _type_value(self, kind) -> float:
        """The part of :meth:`purchase_value` that does not depend on where it is bought."""
        g = self.goal.id if self.goal else ""
        attack = self._attack_worth(kind) if kind.can_attack_normally else 0.0
        defence = kind.hp * 0.5 + (damage_mean(kind.counter) if kind.counter else 0.0)
        war = self.war_goal()
        value = attack * (3.0 if war else 1.5) * self.p.aggression + defence * self.p.caution
        if g == "sphere-dominance" or g == "invincible-valor":
            value += attack * 1.5
        if g == "inside-enemy-territory" and (kind.subtle or self.me.has_tag("concealed")):
            value += 12.0
        if g == "expand-influence":
            value += 6.0 if kind.subtle else 3.0
        if kind.attribute == self.p.focus:
            value += 1.5
        value += self.p.favoured.get(kind.attribute, 0.0) \
            + (self.p.favoured.get("subtle", 0.0) if kind.subtle else 0.0)
        value += XP * homebrew.purchase_bonus(self, kind.id)
        value -= kind.cost * PRICE_WEIGHT
        if kind.homebrew:  # a campaign's own type: its ability and upkeep
            value += homebrew.effect_value(self, kind, attack, defence)
        elif kind.id in NET_INCOME:  # a book type that earns Treasure or costs upkeep
            value += homebrew.treasure_flow_value(self, NET_INCOME[kind.id])
        return value

    def _attack_worth(self, kind) -> float:
        """Mean damage per attack of a new ``kind`` against our rivals.

        It depends only on ratings and tags, so it is cached across decisions and games."""
        if self._sides is None:
            rivals = [f for f in self.state.factions.values() if f.id in self.hostile_ids]
            self._rivals = rivals or [self.me]
            self._sides = tuple((f.ratings, tuple(f.tags)) for f in (self.me, *self._rivals))
        key = (kind, self._sides)  # the stat line itself: a campaign's own type may reuse an id
        worth = _ATTACK_WORTH.get(key)
        if worth is None:
            if len(_ATTACK_WORTH) > 100_000:
                _ATTACK_WORTH.clear()
            p = sum(attack_chance(self.me, kind.attack, r) for r in self._rivals) / len(self._rivals)
            worth = _ATTACK_WORTH[key] = p * damage_mean(kind.attack.damage)
        return worth

    def _enemy_distance(self, location: str) -> int:
        """Steps from ``location`` to the nearest visible enemy asset (3 with none; cached)."""
        near = self._distance_cache.get(location)
        if near is None:
            near = self._distance_cache[location] = min(
                (self.state.map.distance(location, e.location) for e in self.enemies), default=3)
        return near

    # ------------------------------------------------------------ getting there
    def steps_to(self, asset, location: str) -> float:
        """Move Asset actions ``asset`` needs to reach ``location`` without entering ground it
        is forbidden (0 where it stands, ``inf`` when it cannot get there); kept for this
        decision."""
        if asset.location == location:
            return 0
        key = (asset.id, asset.location, asset.stealth)  # (a hypothetical copy may differ)
        if key not in self._steps:
            self._steps[key] = self._walk_to_all(asset)
        return self._steps[key].get(location, math.inf)

    def _walk_to_all(self, asset) -> dict[str, int]:
        """Moves from where ``asset`` stands to every place it may reach (a breadth-first
        search over the places it may enter; the map's edges go both ways)."""

        state = self.state
        reach = state.move_range(asset.owner)
        dist = {asset.location: 0}
        frontier = [asset.location]
        while frontier:
            nxt = []
            for y in frontier:
                for x in state.map.within(y, reach):
                    if x not in dist and not state.forbids(x, asset):
                        dist[x] = dist[y] + 1
                        nxt.append(x)
            frontier = nxt
        return dist

    def _walk_from(self, asset, location: str) -> dict[str, int]:
        """Moves to ``location`` from every place ``asset`` could start from (a reverse
        breadth-first search over the places it may enter)."""

        key = (asset.id, location)
        if key in self._walks:
            return self._walks[key]
        state = self.state
        if state.forbids(location, asset):
            self._walks[key] = {}
            return {}
        reach = state.move_range(asset.owner)
        dist = {location: 0}
        frontier = [location]
        while frontier:
            nxt = []
            for y in frontier:
                for x in state.map.within(y, reach):
                    if x not in dist and (x == asset.location or not state.forbids(x, asset)):
                        dist[x] = dist[y] + 1
                        nxt.append(x)
            frontier = nxt
        self._walks[key] = dist
        return dist

    def next_step(self, asset, location: str, destinations: list[str]) -> str | None:
        """The destination among ``destinations`` (one move) that brings ``asset`` closest to
        ``location`` (None when none brings it closer)."""
        here = self.steps_to(asset, location)
        best = None
        for d in destinations:
            if d == location:
                return d
            left = self._walk_from(asset, location).get(d, math.inf)
            if left < here and (best is None or left < best[0]):
                best = (left, d)
        return best[1] if best else None

    # ------------------------------------------------------------ where things stand
    def base_here(self, loc: str) -> bool:
        return any(a.is_base and a.owner == self.fid for a in self.by_loc.get(loc, ()))

    def hostile_present(self, loc: str) -> list:
        return [a for a in self.by_loc.get(loc, ()) if a.owner in self.hostile_ids]

    def expansion_spots(self) -> list[str]:
        """Locations holding one of our assets but no Base of ours."""
        return sorted({a.location for a in self.mine if not a.is_base
                       and not self.base_here(a.location)})

    def expand_score(self, loc: str) -> float:
        """Chance a new Base at ``loc`` survives its rivals' answer (plus a little for quiet
        ground, and more for contested ground while Expand Influence pays double there)."""
        from .odds import cunning_chance

        rivals = {a.owner for a in self.by_loc.get(loc, ()) if a.owner != self.fid}
        safe = 1.0
        for r in rivals:
            p = cunning_chance(self.me, self.state.factions[r])
            if r in self.hostile_ids:
                holds = 0.85 if self.me.treasure > 1.5 * self.threat_to(loc) + 1 else 0.1
            else:
                holds = 0.9
            safe *= p + (1 - p) * holds
        contested = any(r in self.hostile_ids for r in rivals)
        bonus = 1.5 if contested and self.goal and self.goal.id == "expand-influence" else 1.0
        ruler = self.state.map.locations[loc].ruler
        return safe * bonus + (0.2 if ruler in (None, self.fid) else 0.0) \
            + homebrew.expand_bonus(self, loc)

    def plant_score(self, loc: str) -> float:
        """:meth:`expand_score`, less what the rivals' blows close by spoil for a temperament
        that fears for its Bases (``base_risk``: greedy), unless its goal asks for new Bases:
        every point of damage a Base takes is a point of the faction's own HP, and a Base
        planted as an investment is Treasure at risk."""
        score = self.expand_score(loc)
        if self.p.base_risk and not homebrew.expanding(self) and not homebrew.hold_location(self):
            score *= max(0.0, 1.0 - self.p.base_risk * self.base_risk(loc))
        return score

    def good_expansion_spots(self) -> list[str]:
        """Expansion spots where a new Base is more likely kept than lost."""
        return [s for s in self.expansion_spots() if self.expand_score(s) >= GOOD_SPOT]

    def hostile_bases(self) -> list:
        return [a for a in self.enemies if a.is_base]


@functools.lru_cache(maxsize=4096)
def _expected_min(expr: str, hp: int) -> tuple[float, float]:
    """(expected damage actually taken by something with ``hp`` HP, chance it is destroyed)."""
    dist = damage_distribution(expr)
    taken = sum(min(k, hp) * p for k, p in enumerate(dist))
    return taken, damage_at_least(expr, hp)


def pct(p: float) -> str:
    return f"{round(100 * p)}%"


def income_of(f) -> int:
    from factionsim.rules.wwn.data import income

    return income(f.force, f.wealth, f.cunning)


__all__ = ["XP", "AttackPlan", "Situation", "ceil_div", "income_of", "math", "pct"]
