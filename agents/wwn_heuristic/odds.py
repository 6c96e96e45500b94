"""Exact odds for WWN dice: attribute checks (keep-highest d10s, Antimagical, Massive) and damage.

>>> round(check_chance(3, 1, 3, 1), 2)   # 1d10+3 must beat 1d10+3 strictly
0.45
>>> check_chance(1, 1, 12, 1)            # cannot win: 10+1 never beats 1+12
0.0
>>> round(damage_at_least("1d6", 4), 2)
0.5
"""

from __future__ import annotations

from functools import lru_cache

from factionsim.core.dice import Dice
from factionsim.rules.wwn.checks import EXTRA_DIE_TAG
from factionsim.rules.wwn.data import MAGIC_LEVELS, AttackLine

_MEDIUM = MAGIC_LEVELS.index("medium")


@lru_cache(maxsize=64)
def _best_of(dice: int, twice_worst: bool) -> tuple[float, ...]:
    """Distribution of the kept d10 (index 1..10) for ``dice`` dice keep-highest."""
    cdf = [(k / 10) ** dice for k in range(11)]
    if twice_worst:  # the worse of two independent keep-highest results
        cdf = [1 - (1 - c) ** 2 for c in cdf]
    return tuple([0.0] + [cdf[k] - cdf[k - 1] for k in range(1, 11)])


@lru_cache(maxsize=4096)
def check_chance(att_rating: int, att_dice: int, def_rating: int, def_dice: int,
                 att_twice: bool = False, def_twice: bool = False) -> float:
    """Chance the attacker's total is strictly higher than the defender's."""
    pa, pd = _best_of(att_dice, att_twice), _best_of(def_dice, def_twice)
    p = 0.0
    for a in range(1, 11):
        for d in range(1, 11):
            if a + att_rating > d + def_rating:
                p += pa[a] * pd[d]
    return p


@lru_cache(maxsize=256)
def damage_distribution(expr: str) -> tuple[float, ...]:
    """P(total = k) for k = 0..max, negative totals clamped to 0 like the engine. A "special"
    attack (Bewitching Charmer, Expert Treachery: the ability is the effect) deals no damage."""
    if expr == "special":
        return (1.0,)
    d = Dice.parse(expr)
    dist = {0: 1.0}
    for _ in range(d.count):
        new: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, d.sides + 1):
                new[total + face] = new.get(total + face, 0.0) + p / d.sides
        dist = new
    out: dict[int, float] = {}
    for total, p in dist.items():
        k = max(0, total + d.modifier)
        out[k] = out.get(k, 0.0) + p
    top = max(out)
    return tuple(out.get(k, 0.0) for k in range(top + 1))


def damage_at_least(expr: str, hp: int) -> float:
    """Chance that ``expr`` deals at least ``hp`` damage."""
    dist = damage_distribution(expr)
    return sum(dist[max(0, hp):]) if hp < len(dist) else 0.0


def damage_mean(expr: str) -> float:
    return sum(k * p for k, p in enumerate(damage_distribution(expr)))


def attack_chance(attacker, line: AttackLine, defender, att_asset=None, def_asset=None) -> float:
    """Chance an attack of ``line`` by faction ``attacker`` succeeds against faction ``defender``.

    Uses what both sides can see: ratings, tags (extra dice, Antimagical, Massive)."""
    ra, rd = attacker.rating(line.attacker), defender.rating(line.defender)
    a_massive, d_massive = attacker.has_tag("massive"), defender.has_tag("massive")
    if a_massive != d_massive:
        if a_massive and ra > 2 * rd:
            return 1.0
        if d_massive and rd > 2 * ra:
            return 0.0
    na = 1 + _tag_die(attacker, line.attacker)
    nd = 1 + _tag_die(defender, line.defender)
    at = att_asset is not None and defender.has_tag("antimagical") \
        and att_asset.kind.magic_level >= _MEDIUM
    dt = def_asset is not None and attacker.has_tag("antimagical") \
        and def_asset.kind.magic_level >= _MEDIUM
    return check_chance(ra, na, rd, nd, at, dt)


def cunning_chance(attacker, defender) -> float:
    """Chance of winning a plain Cunning vs Cunning check (Expand Influence)."""
    return attack_chance(attacker, AttackLine("cunning", "cunning", "0"), defender)


def _tag_die(faction, attribute: str) -> int:
    tag = EXTRA_DIE_TAG.get(attribute)
    return int(bool(tag) and faction.has_tag(tag))
