"""The odds of one Attack (6.6.0), ``factionsim odds CAMPAIGN "attack infantry#3 -> silver-guild"``.

The attack is weighed as if made now, from the campaign as it stands, once for each asset the
target faction could choose to meet it ("the defender chooses which of the Assets present will
meet the Attack"). For each choice: the chance of a hit, the damage dice on a hit and the
counterattack dice on a failure, the chance the defending asset is destroyed (or removed with
its faction when the blow makes the faction collapse), the chance the attacking asset is
destroyed, and for a Base of Influence the faction HP lost and the chance the faction collapses
("Damage done to a Base of Influence is also done directly to the faction's hit points. Overflow
damage is not transmitted").

Two methods, named in the result:

- **exact** (enumeration): where the rules alone decide the attack. The check is "1d10 + rating"
  against "1d10 + rating"; "The attacker wins if their total is higher, and the defender wins if
  it's a tie or their roll is higher"; extra dice (tags, Brilliant General, Purity Rites,
  Omniscient Seers...) mean "the dice are rolled and the highest of them are used"; Antimagical
  rolls the whole check twice and keeps the worse; Massive wins without dice. Damage dice are
  summed (``1d4-1`` never below 0). Deterministic ability effects (immunities, no counterattack)
  are applied.
- **monte-carlo** (rollouts through the rules engine): where an ability may step into the
  attack — a faction may reroll the check or the damage, negate the hit or save the asset
  (Just As Planned, Mindbenders, Useful Idiots, Healers, Lead or Silver), an asset acts after
  it attacks or defends (Temple Fanatics, Saboteurs...) or the hit is the ability's own effect
  (Expert Treachery, Bewitching Charmer). Each sample copies the campaign, gives it fresh dice
  from ``(seed, sample)`` and plays the attack chain until it is over, the factions' own agents
  answering every question it asks. Every probability comes with its Wilson 95% interval.

>>> from fractions import Fraction
>>> check_success(Side("a", "force", 2), Side("d", "force", 1), None)
Fraction(11, 20)
>>> dice_distribution("1d4-1")[0]  # a 1 on the die: 1 - 1 = 0
Fraction(1, 4)
"""

from __future__ import annotations

import pickle
from collections import Counter
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from factionsim.core.dice import Dice, seeded_dice
from factionsim.core.game import FactionsimError
from factionsim.core.names import Names
from factionsim.core.stats import proportion

from . import abilities, combat, flow, movement, turn
from .actions import Attack, parse_action
from .checks import Side, check_sides

if TYPE_CHECKING:
    from factionsim.core.forecasting import Chooser

    from .model import Asset
    from .state import WwnState

METHODS = ("auto", "exact", "monte-carlo")
#: Rollouts per defender choice when the attack is sampled (``--samples``).
DEFAULT_SAMPLES = 4000
D10 = 10

#: Hooks through which an ability steps into an attack chain (an asset in play holding one of
#: them makes enumeration impractical): what each lets its holder do.
INTERPOSING = {
    "reroll_options": "may reroll the check",
    "negate_options": "may negate a hit",
    "damage_reroll_options": "may force a damage roll to be rerolled",
    "save_options": "may save an asset from destruction",
    "on_destroyed": "acts when an asset is destroyed",
}


class OddsError(FactionsimError):
    """An action whose odds cannot be given (not an attack, no such asset, no target there)."""


# ------------------------------------------------------------------ exact distributions
def kept_die(dice: int, twice_worst: bool = False) -> dict[int, Fraction]:
    """The distribution of the die a side keeps: the highest of ``dice`` d10; with
    ``twice_worst`` (Antimagical) the whole roll is made twice and the worse result kept.

    >>> kept_die(2)[10], kept_die(1, twice_worst=True)[1]
    (Fraction(19, 100), Fraction(19, 100))
    """
    def at_most(k: int) -> Fraction:
        p = Fraction(k, D10) ** dice
        return 1 - (1 - p) ** 2 if twice_worst else p

    return {k: at_most(k) - at_most(k - 1) for k in range(1, D10 + 1)}


def check_success(attacker: Side, defender: Side, automatic: str | None) -> Fraction:
    """The chance the attacker wins the check: its kept die + rating strictly above the
    defender's (a tie is the defender's); ``automatic`` (Massive) decides without dice."""
    if automatic is not None:
        return Fraction(int(automatic == "attacker"))
    a, d = kept_die(attacker.dice, attacker.twice_worst), kept_die(defender.dice, defender.twice_worst)
    return sum((pa * pd for x, pa in a.items() for y, pd in d.items()
                if x + attacker.rating > y + defender.rating), Fraction(0))


def dice_distribution(expr: str) -> dict[int, Fraction]:
    """The total of a dice expression (``2d6+1``), a total below 0 counting as 0 (as rolled)."""
    dice = Dice.parse(expr)
    totals = {0: Fraction(1)}
    for _ in range(dice.count):
        step: dict[int, Fraction] = {}
        for total, p in totals.items():
            for face in range(1, dice.sides + 1):
                step[total + face] = step.get(total + face, Fraction(0)) + p / dice.sides
        totals = step
    out: dict[int, Fraction] = {}
    for total, p in sorted(totals.items()):
        value = max(0, total + dice.modifier)
        out[value] = out.get(value, Fraction(0)) + p
    return out


def _at_least(dist: dict[int, Fraction], threshold: int) -> Fraction:
    return sum((p for v, p in dist.items() if v >= threshold), Fraction(0))


def _exact(p: Fraction) -> dict[str, Any]:
    return {"p": round(float(p), 6), "exact": f"{p.numerator}/{p.denominator}"}


def _exact_dist(dist: dict[int, Fraction]) -> dict[str, dict[str, Any]]:
    return {str(v): _exact(p) for v, p in sorted(dist.items())}


# ------------------------------------------------------------------ which method
def interference(state: WwnState, attacker: Asset, defender: Asset) -> list[str]:
    """Why the attack of ``attacker`` on ``defender`` cannot be enumerated: one line per ability
    that may step into it (empty: the rules alone decide it)."""
    why = []
    if attacker.kind.attack.damage == "special" or abilities.has_special_hit(attacker):
        why.append(f"{attacker.kind.name} ({attacker.id}): a hit is its ability's own effect")
    for hook, what in INTERPOSING.items():
        for holder, _fn in abilities._holders(state, hook):
            why.append(f"{holder.kind.name} ({holder.id}, {state.factions[holder.owner].name}) {what}")
    if attacker.type in state.hooks["after_attack"]:
        why.append(f"{attacker.kind.name} ({attacker.id}) acts after it attacks")
    if defender.type in state.hooks["after_defend"]:
        why.append(f"{defender.kind.name} ({defender.id}) acts after it defends")
    return why


# ------------------------------------------------------------------ exact
def _side(side: Side) -> dict[str, Any]:
    dice = "1d10" if side.dice == 1 else f"{side.dice}d10 keep highest"
    return {"faction": side.faction, "attribute": side.attribute, "rating": side.rating,
            "dice": side.dice, "twice_worst": side.twice_worst,
            "roll": f"{dice}{' (rolled twice, worse kept)' if side.twice_worst else ''} + {side.rating}"}


def exact_attack(state: WwnState, attacker_id: str, defender_id: str) -> dict[str, Any]:
    """The odds of one defender choice by enumeration (the state is not changed)."""
    s: WwnState = pickle.loads(pickle.dumps(state))
    attacker, defender = s.assets[attacker_id], s.assets[defender_id]
    combat.begin_attack(s, attacker, [])  # as the attack does: Stealth and "until it acts" lapse
    line = attacker.kind.attack
    att, dfn, auto = check_sides(s, s.factions[attacker.owner], line.attacker,
                                 s.factions[defender.owner], line.defender,
                                 **combat.attack_check_options(s, attacker, defender))
    hit = check_success(att, dfn, auto)
    out: dict[str, Any] = {"check": {"attacker": _side(att), "defender": _side(dfn),
                                     "automatic": auto, "hit": _exact(hit)}}
    outcomes = {"hit": hit}
    damage = dice_distribution(line.damage)
    immune = not abilities.damage_allowed(s, attacker, defender)
    out["damage"] = {"dice": line.damage, "immune": immune, "distribution": _exact_dist(damage)}
    # out of play: destroyed, or removed with everything of a faction the blow makes collapse
    out_at = min(defender.hp, s.factions[defender.owner].hp) if defender.is_base else defender.hp
    outcomes["defender destroyed"] = Fraction(0) if immune else hit * _at_least(damage, out_at)
    if defender.is_base:
        owner = s.factions[defender.owner]
        loss: dict[int, Fraction] = {}
        for v, p in damage.items():
            lost = 0 if immune else min(v, defender.hp, owner.hp)
            loss[lost] = loss.get(lost, Fraction(0)) + p
        out["faction_damage"] = {"faction": owner.id, "hp": owner.hp, "distribution": _exact_dist(loss)}
        outcomes["defending faction collapses"] = hit * _at_least(loss, owner.hp)
    counter = defender.kind.counter
    if counter and abilities.counter_allowed(s, attacker, defender):
        dist = dice_distribution(counter)
        c_immune = not abilities.damage_allowed(s, defender, attacker)
        out["counter"] = {"dice": counter, "immune": c_immune, "distribution": _exact_dist(dist)}
        outcomes["attacker destroyed"] = Fraction(0) if c_immune else (1 - hit) * _at_least(dist, attacker.hp)
    else:
        out["counter"] = None
        outcomes["attacker destroyed"] = Fraction(0)
    out["outcomes"] = {k: _exact(v) for k, v in outcomes.items()}
    return out


# ------------------------------------------------------------------ Monte Carlo
def _roll_on(events: list, asset_id: str, cause: str) -> int | None:
    """The final damage roll against ``asset_id`` in a chain's events (damage or immunity)."""
    for e in events:
        d = e.data
        if d.get("asset") == asset_id and "roll" in d and (
                (e.kind == "damage" and d.get("cause") == cause) or e.kind == "immune"):
            return int(d["roll"]["total"])
    return None


def sampled_attack(state: WwnState, attacker_id: str, defender_id: str, samples: int, seed: int,
                   choose: Chooser) -> dict[str, Any]:
    """The odds of one defender choice from ``samples`` rollouts of the attack chain through
    the engine; sample ``i`` rolls the dice of ``(seed, i)`` and its agents draw from
    ``(seed, i, 1)``; ``choose`` answers the questions the chain asks."""
    blob = pickle.dumps(state)
    owner = state.assets[defender_id].owner
    counts: Counter[str] = Counter()
    damage: Counter[int] = Counter()
    countered: Counter[int] = Counter()
    loss: Counter[int] = Counter()
    for i in range(samples):
        s: WwnState = pickle.loads(blob)
        s.rng = seeded_dice(seed, i)[1]
        agent_rng = seeded_dice(seed, i, 1)[1]
        events: list = []
        combat.resolve_attack(s, s.assets[attacker_id], s.assets[defender_id], events)
        while flow.asking(s):
            s._legal = None
            actor = s.actor
            action = choose(s, actor, turn.legal_actions(s), agent_rng)
            flow.answer(s, action, events)
        attack = next((e for e in events if e.kind == "attack" and e.data["attacker"] == attacker_id), None)
        counts["hit"] += bool(attack and attack.data["success"])
        counts["no outcome"] += attack is None
        after = s.assets.get(defender_id)
        counts["defender destroyed"] += after is None
        counts["defender changes sides"] += after is not None and after.owner != owner
        counts["attacker destroyed"] += attacker_id not in s.assets
        counts["defending faction collapses"] += not s.factions[owner].alive
        if (rolled := _roll_on(events, defender_id, "attack")) is not None:
            damage[rolled] += 1
        if (rolled := _roll_on(events, attacker_id, "counterattack")) is not None:
            countered[rolled] += 1
        loss[sum(e.data.get("faction_damage", 0) for e in events
                 if e.kind == "damage" and e.data["asset"] == defender_id)] += 1
    base = state.assets[defender_id].is_base
    shown = ["hit", "defender destroyed", "attacker destroyed"]
    shown += [k for k in ("defending faction collapses", "defender changes sides", "no outcome")
              if counts[k] or (k == "defending faction collapses" and base)]
    out: dict[str, Any] = {"outcomes": {k: proportion(counts[k], samples) for k in shown}}
    line = state.assets[attacker_id].kind.attack
    out["damage"] = _sampled_dist(damage, line.damage if line.damage != "special" else None)
    counter = state.assets[defender_id].kind.counter
    out["counter"] = _sampled_dist(countered, counter) if countered or counter else None
    if base:
        out["faction_damage"] = {"faction": owner, "hp": state.factions[owner].hp,
                                 "distribution": _dist_props(loss)}
    return out


def _dist_props(counts: Counter[int]) -> dict[str, dict[str, Any]]:
    n = sum(counts.values())
    return {str(v): proportion(c, n) for v, c in sorted(counts.items())}


def _sampled_dist(counts: Counter[int], dice: str | None) -> dict[str, Any]:
    return {"dice": dice, "rolls": sum(counts.values()), "distribution": _dist_props(counts)}


# ------------------------------------------------------------------ the action
def parse_attack(state: WwnState, text: str) -> tuple[Asset, str, list[Asset]]:
    """The attacking asset, target faction and possible defenders of an attack's text, or an
    :class:`OddsError` saying what is wrong and what is possible."""
    try:
        action = parse_action(text)
    except FactionsimError:
        action = None
    if not isinstance(action, Attack):
        raise OddsError(f"odds are given for attacks: 'attack ASSET -> FACTION' (as the legal "
                        f"actions write them, e.g. 'attack infantry#3 -> silver-guild'), not {text!r}")
    attackers = [a for a in state.assets.values() if movement.can_attack(state, a)
                 and movement.attack_targets(state, a)]
    can = ", ".join(f"{a.id} -> {'/'.join(movement.attack_targets(state, a))}" for a in attackers[:12])
    attacker = state.assets.get(action.asset)
    if attacker is None:
        raise OddsError(f"no asset {action.asset!r} in play; attacks possible now: {can or 'none'}")
    if action.target not in state.factions:
        raise OddsError(f"no faction {action.target!r}; factions: {', '.join(state.factions)}")
    if not movement.can_attack(state, attacker):
        raise OddsError(f"{attacker.id} ({attacker.kind.name}) cannot attack now; attacks possible "
                        f"now: {can or 'none'}")
    targets = movement.attack_targets(state, attacker)
    if action.target not in targets:
        why = (f"{action.target} is not hostile to {attacker.owner} (attacks target only hostile "
               f"factions)" if not state.hostile(attacker.owner, action.target) else
               f"{action.target} has no asset at {attacker.location} able to meet an attack")
        raise OddsError(f"{why}: no odds for {attacker.id}; it can attack: "
                        f"{', '.join(targets) or 'nobody'}")
    return attacker, action.target, movement.defenders(state, action.target, attacker)


def action_odds(state: WwnState, text: str, *, method: str = "auto", samples: int = DEFAULT_SAMPLES,
                seed: int = 0, choose: Chooser | None = None) -> dict[str, Any]:
    """The odds of the attack ``text`` for each defender the target may choose (plain data).

    ``method``: ``exact`` (an :class:`OddsError` where abilities make it impractical),
    ``monte-carlo`` (needs ``choose``), or ``auto``: exact where possible."""
    if method not in METHODS:
        raise OddsError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    attacker, target, defenders = parse_attack(state, text)
    choices = []
    for defender in defenders:
        why = interference(state, attacker, defender)
        use = method if method != "auto" else ("monte-carlo" if why else "exact")
        if use == "exact" and why:
            raise OddsError(f"the odds of this attack cannot be enumerated: {'; '.join(why)} "
                            f"(use --method monte-carlo)")
        entry = {"defender": defender.id, "type": defender.type, "name": defender.kind.name,
                 "owner": defender.owner, "hp": defender.hp, "base": defender.is_base,
                 "method": use, "why": why}
        if use == "exact":
            entry.update(exact_attack(state, attacker.id, defender.id))
        else:
            if choose is None:
                raise OddsError("Monte Carlo odds need the factions' agents to answer questions")
            entry.update({"samples": samples, "seed": seed},
                         **sampled_attack(state, attacker.id, defender.id, samples, seed, choose))
        choices.append(entry)
    return {"action": str(Attack(attacker.id, target)), "attacker": attacker.id,
            "attacker_name": attacker.kind.name, "attacker_owner": attacker.owner,
            "attacker_hp": attacker.hp, "location": attacker.location, "target": target,
            "line": {"attacker": attacker.kind.attack.attacker,
                     "defender": attacker.kind.attack.defender,
                     "damage": attacker.kind.attack.damage},
            "defenders": choices}


# ------------------------------------------------------------------ in words
def _pct(p: dict[str, Any]) -> str:
    text = f"{p['p']:6.1%}"
    if "lo" in p:
        return f"{text} [{p['lo']:.1%}-{p['hi']:.1%}]"
    return f"{text} (exactly {p['exact']})" if p["exact"] not in ("0/1", "1/1") else text


def _dist_line(dist: dict[str, dict[str, Any]]) -> str:
    return ", ".join(f"{v}: {p['p']:.1%}" for v, p in dist.items())


def odds_text(result: dict[str, Any], names: Names) -> str:
    """The result of :func:`action_odds` as the GM reads it."""
    line = result["line"]
    lines = [f"{names.asset(result['attacker'], result['attacker_owner'])} ({result['attacker_hp']} HP) "
             f"attacks {names.faction(result['target'])} at {names.place(result['location'])}: "
             f"{line['attacker'].title()} vs {line['defender'].title()}, damage {line['damage']}.",
             f"{names.faction(result['target'])} chooses which asset meets it "
             f"({len(result['defenders'])} possible):"]
    for d in result["defenders"]:
        lines.append("")
        head = f"If {names.asset(d['defender'], d['owner'])} ({d['hp']} HP) defends"
        if d["method"] == "exact":
            lines.append(f"{head} — exact odds (enumerated):")
            check = d["check"]
            auto = f"; {check['automatic']} wins without dice" if check["automatic"] else ""
            lines.append(f"  check: {check['attacker']['roll']} vs {check['defender']['roll']} "
                         f"(a tie goes to the defender){auto}")
        else:
            because = ", because:" if d["why"] else " (as asked):"
            lines.append(f"{head} — Monte Carlo, {d['samples']} rollouts through the rules "
                         f"(seed {d['seed']}; 95% intervals){because}")
            lines += [f"  - {w}" for w in d["why"]]
        for k, p in d["outcomes"].items():
            lines.append(f"  {k + ':':<29}{_pct(p)}")
        dmg = d["damage"]
        if dmg and dmg["distribution"]:
            immune = " (the defender is immune: no damage taken)" if dmg.get("immune") else ""
            lines.append(f"  damage on a hit ({dmg['dice']}){immune}: {_dist_line(dmg['distribution'])}")
        if d.get("faction_damage"):
            fd = d["faction_damage"]
            lines.append(f"  {names.faction(fd['faction'])} HP lost ({fd['hp']} now): "
                         f"{_dist_line(fd['distribution'])}")
        c = d.get("counter")
        if c and c["distribution"]:
            immune = " (the attacker is immune)" if c.get("immune") else ""
            lines.append(f"  counterattack on a miss ({c['dice']}){immune}: {_dist_line(c['distribution'])}")
        elif c and c.get("dice"):
            lines.append(f"  counterattack ({c['dice']}): not rolled in any sample")
        else:
            lines.append("  no counterattack")
    return "\n".join(lines) + "\n"
