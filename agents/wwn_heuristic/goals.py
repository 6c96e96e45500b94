"""Which goal fits the faction now: each goal's expected XP per turn, weighed by personality.

``estimate(sit, choice)`` returns ``(points per turn, why)``; the heuristic adopts the best and
abandons its current goal only when it has become hopeless (a wasted turn costs too).
"""

from __future__ import annotations

import math

from factionsim.rules.wwn.data import ATTRIBUTES
from factionsim.rules.wwn.movement import destinations

from .odds import attack_chance, damage_mean
from .tactics import XP, Situation, income_of


def _kill_rate(sit: Situation, predicate) -> tuple[float, float]:
    """(expected damage per turn, hits-to-kill proxy) our attackers deal to matching enemies
    where they stand or one move away."""
    rate = 0.0
    for a in sit.mine:
        if not a.kind.can_attack_normally:
            continue
        best = 0.0
        for e in sit.enemies:
            if e.stealth or not predicate(e):
                continue
            dist = sit.state.map.distance(a.location, e.location)
            if dist > 1:
                continue
            p = attack_chance(sit.me, a.kind.attack, sit.state.factions[e.owner])
            best = max(best, p * damage_mean(a.kind.attack.damage) / (1 + dist))
        rate += best
    return rate, 0.0


def _target_turns(sit: Situation, asset) -> float:
    """Rough turns for us to destroy ``asset`` (inf when nothing of ours can reach it)."""
    best = math.inf
    rivals = sum(1 for e in sit.by_loc.get(asset.location, ())
                 if e.owner == asset.owner and not e.stealth)
    for a in sit.mine:
        if not a.kind.can_attack_normally:
            continue
        dist = sit.state.map.distance(a.location, asset.location)
        if dist > 1:
            continue
        p = attack_chance(sit.me, a.kind.attack, sit.state.factions[asset.owner], a, asset)
        per = p * damage_mean(a.kind.attack.damage) / max(1, rivals)
        if per > 0:
            best = min(best, dist + asset.hp / per)
    return best


def estimate(sit: Situation, goal: str, target: str = "") -> tuple[float, str]:
    me = sit.me
    w = sit.p.goal_weight.get(goal, 1.0)
    xp, turns, chance, why = 1.0, math.inf, 1.0, ""
    if goal == "blood-the-enemy":
        rate, _ = _kill_rate(sit, lambda e: True)
        xp, turns = 2, sum(me.ratings) / max(rate, 0.05) + 1
        why = f"its forces can draw about {rate:.1f} blood a turn"
    elif goal == "destroy-the-foe":
        foes = [sit.state.factions[h] for h in sit.hostile_ids]
        weakest = min(foes, key=lambda f: f.hp, default=None)
        if weakest is not None:
            rate, _ = _kill_rate(sit, lambda e: e.owner == weakest.id and e.is_base)
            xp = 2 + math.ceil(sum(me.ratings) / 3)
            turns, chance = weakest.hp / max(rate, 0.05) + 2, 0.5
            why = f"{weakest.name} is down to {weakest.hp} HP"
    elif goal == "eliminate-target":
        a = sit.state.assets.get(target)
        if a is not None and not a.stealth:
            t = _target_turns(sit, a)
            turns, chance = t + 1, (0.8 if t <= 2 else 0.4 if t <= 3 else 0.05)
            why = f"the {sit.aname(a)} at {sit.place(a.location)} is within reach"
    elif goal == "expand-influence":
        spots = sit.good_expansion_spots()
        movable = any(not sit.base_here(d) for a in sit.mine if not a.is_base
                      for d in destinations(sit.state, a))
        if me.treasure + income_of(me) >= 1 and (spots or movable):
            turns = 1 if spots else 2
            contested = [s for s in spots if sit.hostile_present(s)]
            xp = 1.3 if contested else 1
            chance = 0.9 if len(contested) < len(spots) or not spots else 0.6
            why = "it has a foothold to build on" if spots else "it can send an asset to new ground"
    elif goal == "inside-enemy-territory":
        can_hide = me.cunning >= 3 or me.has_tag("concealed")
        bases = sit.hostile_bases()
        if can_hide and bases:
            need = me.cunning
            have = sum(1 for a in sit.mine if not a.is_base)
            cash = 2 * need if not me.has_tag("concealed") else 0
            saving = max(0, cash - me.treasure) / max(1, income_of(me))
            turns = 2 + max(0, need - have) * 1.5 + saving
            xp, chance = 2, 0.7
            why = f"it needs {need} hidden agents among its enemies"
    elif goal == "invincible-valor":
        prey = [e for e in sit.enemies if e.attribute == "force" and e.kind.rating > me.force]
        if prey:
            t = min(_target_turns(sit, e) for e in prey)
            xp, turns, chance = 2, t + 1, 0.6
            why = "a mighty enemy force is within reach"
    elif goal == "peaceable-kingdom":
        threat = sum(sit.threat_to(a.location) for a in sit.mine if a.is_base)
        xp, turns, chance = 1, 4, 0.95
        why = "its borders are quiet" if threat < 1 else "it would rather not fight"
    elif goal == "root-out-the-enemy":
        owner, _, loc = target.partition("@")
        base = next((a for a in sit.by_loc.get(loc, ()) if a.is_base and a.owner == owner), None)
        if base is not None:
            ruler = sit.state.factions[owner]
            t = _target_turns(sit, base)
            xp = math.ceil(math.ceil(sum(ruler.ratings) / 3) / 2)
            turns, chance = t + 1, 0.5
            why = f"{ruler.name}'s Base at {sit.place(loc)} looks weak"
    elif goal == "sphere-dominance" and target in ATTRIBUTES:
        need = me.rating(target)
        rate, _ = _kill_rate(sit, lambda e: e.attribute == target)
        prey = sum(1 for e in sit.enemies if e.attribute == target)
        if prey:
            xp = math.ceil(need / 2)
            turns = need * 5 / max(rate, 0.05) + 1
            chance = min(1.0, prey / need)
            why = f"{prey} rival {target} assets are in view"
    elif goal == "wealth-of-kingdoms":
        need = 4 * me.wealth - me.treasure
        xp, turns = 2, 1 + max(0, need) / max(1, income_of(me))
        why = f"its coffers fill by {income_of(me)} a turn"
    value = w * chance * xp * XP / (turns + 0.5) if turns < math.inf else 0.0
    return value, why


def rank_choices(sit: Situation, choices) -> list[tuple[float, object, str]]:
    """``[(points per turn, choice, why)]``, best first (ties in legal order)."""
    scored = []
    for i, c in enumerate(choices):
        value, why = estimate(sit, c.goal, c.target)
        scored.append((value, -i, c, why))
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [(v, c, why) for v, _, c, why in scored]


def hopeless(sit: Situation) -> str | None:
    """Why the current goal should be dropped now, or None to keep at it."""
    g = sit.goal
    if g is None:
        return None
    age = sit.state.current_turn - g.started
    if g.id == "root-out-the-enemy":
        owner, _, loc = g.target.partition("@")
        if not any(a.is_base and a.owner == owner for a in sit.by_loc.get(loc, ())):
            return "its target Base is gone"
    if g.id == "destroy-the-foe" and not sit.hostile_ids:
        return "no foe is left"
    if g.id == "eliminate-target":
        return None  # fails by itself, with no wasted turn
    if g.id in ("peaceable-kingdom", "wealth-of-kingdoms"):
        return None  # always reachable
    if g.id == "expand-influence" and age >= 3 and g.progress == 0 \
            and not sit.good_expansion_spots():
        return f"{age} turns without safe ground to build on"
    value, _ = estimate(sit, g.id, g.target)
    if age >= 4 and g.progress == 0 and value < 3.0:
        return f"{age} turns without progress"
    if age >= 8 and value < 5.0:
        return f"{age} turns and still far from it"
    return None
