"""How the heuristic weighs and pursues a campaign's own goals (``goal_types:``,
:mod:`factionsim.rules.wwn.homebrew_goals`): it reads the goal's counter, not its name.

- ``inflict-damage`` is pursued as Blood the Enemy (every blow counts), ``destroy-assets`` as
  Sphere Dominance (kills of the counted attribute): both are war goals, with their prey.
- ``own-assets`` makes the counted type worth buying, ``plant-bases`` sends assets to new ground
  and expands as Expand Influence does, ``hold-base`` heads for its location and expands there.

:func:`estimate` sizes each one from the position as :mod:`.goals` does the book's. The
bonuses are in XP (the caller weighs them in its points: ``tactics.XP`` per XP), so that this
module needs nothing of :mod:`.tactics`, which calls it.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from factionsim.rules.wwn.data import income

if TYPE_CHECKING:
    from .tactics import Situation

#: counters pursued by striking hostile assets
WAR_COUNTERS = ("inflict-damage", "destroy-assets")


def own_goal(sit: Situation, goal_id: str | None = None):
    """The campaign's definition of ``goal_id`` (default: the current goal), or None."""
    if goal_id is None:
        goal_id = sit.goal.id if sit.goal is not None else None
    return sit.state.goal_types.get(goal_id) if goal_id else None


def _counts(kind, asset) -> bool:
    """Whether destroying ``asset`` advances a ``destroy-assets`` goal."""
    attr = kind.param("attribute")
    return not asset.is_base and (attr is None or asset.attribute == attr)


def is_war(sit: Situation) -> bool:
    kind = own_goal(sit)
    return kind is not None and kind.counter in WAR_COUNTERS


def prey(sit: Situation, goal_id: str, enemies: list) -> list:
    """The visible enemy assets a homebrew war goal wants struck (empty for others)."""
    kind = own_goal(sit, goal_id)
    if kind is None or kind.counter not in WAR_COUNTERS:
        return []
    return enemies if kind.counter == "inflict-damage" else [e for e in enemies
                                                             if _counts(kind, e)]


def kill_bonus(sit: Situation, asset) -> float:
    """Extra XP the current homebrew goal gives for destroying ``asset``."""
    kind = own_goal(sit)
    if kind is None or kind.counter != "destroy-assets" or not _counts(kind, asset):
        return 0.0
    return kind.difficulty / max(1, sit.goal.needed)


def damage_bonus(sit: Situation) -> float:
    """Extra XP per damage point the current homebrew goal gives."""
    kind = own_goal(sit)
    if kind is None or kind.counter != "inflict-damage":
        return 0.0
    return kind.difficulty / max(1, sit.goal.needed)


def purchase_bonus(sit: Situation, type_id: str) -> float:
    """Extra XP of buying a ``type_id`` asset: an ``own-assets`` goal counting it pays the
    goal's XP shared among the purchases it still needs (the one that completes it, all of it).
    Sharing it among all the goal asks for undervalued the last purchase: a greedy faction,
    weighing the upkeep of a second River Barges against half the XP, never bought it."""
    kind = own_goal(sit)
    if kind is None or kind.counter != "own-assets" or kind.param("type") != type_id:
        return 0.0
    left = kind.needed - sum(a.type == type_id for a in sit.mine)
    return kind.difficulty / left if left > 0 else 0.0


def expanding(sit: Situation) -> bool:
    """Whether the current goal wants new Bases anywhere (Expand Influence, ``plant-bases``)."""
    g = sit.goal
    if g is None:
        return False
    kind = own_goal(sit)
    return g.id == "expand-influence" or (kind is not None and kind.counter == "plant-bases")


def hold_location(sit: Situation) -> str | None:
    """Where a current ``hold-base`` goal wants a Base it has not got yet, or None."""
    kind = own_goal(sit)
    if kind is None or kind.counter != "hold-base":
        return None
    loc = kind.param("location")
    return None if sit.base_here(loc) else loc


def expand_bonus(sit: Situation, loc: str) -> float:
    """Extra expand score of ``loc``: the place a ``hold-base`` goal wants a Base in."""
    return 1.0 if loc == hold_location(sit) else 0.0


def toward_hold(sit: Situation, asset, dests: list[str]) -> tuple[str, float, str] | None:
    """``(destination, value in XP, reason)`` of the step bringing ``asset`` closer to the place
    a ``hold-base`` goal wants a Base in (where it may then expand), or None."""
    loc = hold_location(sit)
    if loc is None or asset.location == loc or any(a.location == loc for a in sit.mine):
        return None
    steps = sit.steps_to(asset, loc)
    dest = sit.next_step(asset, loc, dests) if 0 < steps < math.inf else None
    if dest is None:
        return None
    return dest, 0.8 / steps, (f"sends its {asset.kind.name} towards {sit.place(loc)}, "
                                    "where its goal wants a Base")


def estimate(sit: Situation, kind, current, damage_rate, steps_to_new_ground
             ) -> tuple[float, float, float, str]:
    """``(xp, turns, chance, why)`` of adopting (or finishing, ``current``) homebrew goal
    ``kind``; ``damage_rate(predicate)`` and ``steps_to_new_ground()`` are :mod:`.goals`'
    measures of the position."""
    left = (current.needed - current.progress) if current else kind.needed
    xp, turns, chance, why = float(kind.difficulty), math.inf, 0.0, ""
    if kind.counter == "inflict-damage":
        rate = damage_rate(lambda e: True)
        turns, chance = left / max(rate, 0.05), 0.6
        why = f"its forces can draw about {rate:.1f} blood a turn"
    elif kind.counter == "destroy-assets":
        rate = damage_rate(lambda e: _counts(kind, e))
        targets = sum(1 for e in sit.enemies if _counts(kind, e) and e.owner in sit.target_ids)
        if targets:
            turns = left * 5 / max(rate, 0.05)
            chance = min(1.0, targets / max(1, left)) * 0.4
            why = f"{targets} rival assets it could break are in view"
    elif kind.counter == "own-assets":
        turns, chance, why = _buying(sit, kind.param("type"), left)
    elif kind.counter == "plant-bases":
        walk = steps_to_new_ground()
        spots = sit.good_expansion_spots()
        if spots or walk < math.inf:
            turns, chance = left * (1 if spots else 1 + walk) + left, 0.7
            why = "it has ground to plant new Bases on"
    elif kind.counter == "hold-base":
        loc = kind.param("location")
        if sit.base_here(loc):
            turns, chance = left, 0.9 if sit.threat_to(loc) < 1 else 0.6
            why = f"its Base at {sit.place(loc)} stands"
        else:
            near = min((sit.steps_to(a, loc) for a in sit.mine if not a.is_base), default=math.inf)
            if near < math.inf:
                turns, chance = near + 1 + kind.needed, 0.5
                why = f"it can reach {sit.place(loc)} and plant a Base there"
    return xp, turns, chance, why


def _buying(sit: Situation, type_id: str, left: int) -> tuple[float, float, str]:
    """(turns, chance, why) of owning ``left`` more assets of ``type_id``: one purchase a turn,
    saving up the Treasure first."""
    if left <= 0:
        return 0.0, 1.0, "it owns enough already"
    kind = sit.state.asset_types[type_id]
    # rating and Magic allowing (the limit of assets per attribute aside: it can sell one)
    rich = replace(sit.me, treasure=10**6, **{kind.attribute: 8})
    costs = [sit.state.purchase_cost(sit.me, kind, b.location)
             for b in sit.mine if b.is_base and type_id in sit.state.buyable(rich, b.location)]
    if not costs or kind.rating > sit.me.rating(kind.attribute):
        return math.inf, 0.0, ""
    cash = left * min(costs)
    me = sit.me
    saving = max(0, cash - me.treasure) / max(1, income(me.force, me.wealth, me.cunning))
    return left + saving, 0.85, f"it can buy {kind.name} at {min(costs)} Treasure each"


# ---------------------------------------------------------------- homebrew asset types
#: turns of income (or upkeep) a new asset is reckoned to see
HORIZON = 8
#: points per Treasure (what a purchase's price weighs in ``Situation._type_value``)
TREASURE_POINTS = 0.5


def treasure_flow_value(sit: Situation, per_turn: float) -> float:
    """What ``per_turn`` Treasure each turn (income, or upkeep when negative) is worth in the
    points of ``Situation._type_value``: over :data:`HORIZON` turns (fewer when the campaign ends
    sooner), weighed by the temperament's greed."""
    left = HORIZON
    if sit.state.max_turns:
        left = max(1, min(HORIZON, sit.state.max_turns - sit.state.turn))
    return per_turn * left * TREASURE_POINTS * sit.p.greed


def effect_value(sit: Situation, kind, attack: float, defence: float) -> float:
    """What a campaign's own asset type's ability and upkeep are worth, in the points of
    ``Situation._type_value`` (``attack``, ``defence``: its stat line's worth there): income and
    upkeep as Treasure over :data:`HORIZON` turns, extra dice as a share of the attack or
    defence they improve, transport and Expand dice by how much the goal needs moving and new
    Bases, repair as the hit points it mends."""
    value = treasure_flow_value(sit, -kind.upkeep)
    effect = kind.effect
    if effect is None:
        return value
    n = next(iter(dict(kind.params).values()))
    if effect == "income":
        value += treasure_flow_value(sit, n)
    elif effect == "attack-dice":
        value += attack * 0.3 * n * sit.p.aggression
    elif effect == "defense-dice":
        value += defence * 0.3 * n * sit.p.caution
    elif effect == "expand-dice":
        value += (2.0 if expanding(sit) or hold_location(sit) else 0.5) * n
    elif effect == "transport":
        value += (1.5 if sit.war_goal() or expanding(sit) or hold_location(sit) else 0.8) * n
    elif effect == "repair":
        value += min(n, kind.hp) * 0.6 * sit.p.caution
    return value


def transport_choice(sit: Situation, legal: list, move_values) -> tuple[object, str] | None:
    """The free carry of a homebrew ``transport`` asset worth making now, with its reason: the
    carried asset and destination the Move action itself would value most (``move_values``:
    ``(asset, destination) -> (value, reason, _)``), or None when no carry is worth it."""
    from factionsim.rules.wwn.actions import UseAbility

    options = []
    for a in legal:
        holder = sit.state.asset(a.source) if isinstance(a, UseAbility) else None
        if holder is not None and holder.kind.homebrew and holder.kind.effect == "transport":
            options.append(a)
    if not options:
        return None
    values = move_values()
    best, best_value, why = None, 0.0, ""
    for a in options:
        aid, _, dest = a.option.rpartition("->")
        value, reason, _ = values.get((aid, dest), (0.0, "", None))
        if value > best_value:
            best, best_value, why = a, value, reason
    if best is None:
        return None
    holder = sit.state.asset(best.source)
    return best, f"its {holder.kind.name} carry it for free: {why}"
