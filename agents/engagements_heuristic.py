"""A hand-written player for the engagements ruleset (``heuristic`` on engagements campaigns).

- **Spending**: a faction with no pillar rebuilds at once; a pillar one wound from defeat is
  healed; it engages when an engagement promises wounds; then it fills its pillar slots with
  cheap sturdy pillars (strength is score), keeps engagement dice against its target (the
  rival whose pillars it can hurt most, the score leader counting half again) and a reserve of one
  engagement die against its most dangerous rival (for counters), raises defenses, heals,
  raises competence.
- **Engagements**: it invites allies and hires a mercenary (if it can spare the price) when the
  defender leads the scores (never the score leader itself, whose renown it would feed); asked
  to join, it weighs what it gains (the expected wounds and defeats of its dice on the
  defender, more against the leader, less when the aggressor is the leader, the price if paid)
  against what it risks (the defender's counter on its committed pillar, the grievance dice the
  defender gains against it, the engagement dice it spends) and joins only when the gain is
  larger; it pays a mercenary to engage the leader when it can spare the price;
  it commits its free pillar (Assassinate first, it cannot be countered) and each further one
  worth more than the die it costs, keeps a reserve when drawing engagement dice against its
  main threat, and concentrates its dice where they make wounds: an exact split of all dice
  over the target pillars maximising expected wounds and defeats (allies' dice on a pillar
  count, as combined successes are added).

Each decision sets ``last_reason``.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import Any

from factionsim.core.game import Agent
from factionsim.rules.engagements import engagement as eng_rules
from factionsim.rules.engagements.actions import (
    Allocate,
    Build,
    Commission,
    Commit,
    Convert,
    Decline,
    Done,
    Draw,
    Engage,
    Fanatical,
    Heal,
    Invite,
    Join,
    Raise,
)
from factionsim.rules.engagements.dice import wounds as wounds_for
from factionsim.rules.engagements.prose import dice_text

P_SUCCESS = 2 / 3


@lru_cache(maxsize=4096)
def _pmf(n: int) -> tuple[float, ...]:
    return tuple(comb(n, k) * P_SUCCESS ** k * (1 - P_SUCCESS) ** (n - k) for k in range(n + 1))


@lru_cache(maxsize=65536)
def pillar_value(n: int, defense: int, circles_left: int, kill_bonus: float) -> float:
    """Expected damage value of ``n`` dice (all sides combined) on one pillar: wounds marked plus
    ``kill_bonus`` times the chance of defeating it."""
    if n <= 0:
        return 0.0
    total = 0.0
    for k, p in enumerate(_pmf(n)):
        w = min(wounds_for(k, defense), circles_left)
        total += p * (w + (kill_bonus if w >= circles_left else 0.0))
    return total


def best_split(dice: int, targets: list[tuple[str, int, int, float, int]]) -> tuple[float, dict[str, int]]:
    """Split ``dice`` over ``targets`` (id, defense, circles_left, kill_bonus, dice others put
    there) to maximise the total expected value; every die is placed."""
    if not targets:
        return 0.0, {}
    # dp over targets: best[j][r] = best value placing r dice among the first j targets
    best = [[0.0] + [float("-inf")] * dice]
    choice: list[list[int]] = []
    for _tid, d, c, bonus, others in targets:
        base = pillar_value(others, d, c, bonus)
        row = [float("-inf")] * (dice + 1)
        pick = [0] * (dice + 1)
        prev = best[-1]
        for r in range(dice + 1):
            for k in range(r + 1):
                if prev[r - k] == float("-inf"):
                    continue
                v = prev[r - k] + pillar_value(others + k, d, c, bonus) - base
                if v > row[r] + 1e-12:
                    row[r], pick[r] = v, k
        best.append(row)
        choice.append(pick)
    split: dict[str, int] = {}
    r = dice
    for j in range(len(targets) - 1, -1, -1):
        k = choice[j][r]
        split[targets[j][0]] = k
        r -= k
    return best[-1][dice], split


class Heuristic(Agent):
    """See the module docstring."""

    name = "heuristic"

    def __init__(self, **options: Any):
        self.options = options
        self.last_reason: str | None = None

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def leader(state: Any, me: str) -> str | None:
        scores = state.scores()
        rivals = {k: v for k, v in scores.items() if k != me and state.factions[k].alive}
        if not rivals:
            return None
        top = max(rivals.values())
        return next(k for k, v in rivals.items() if v == top) if top >= scores[me] else None

    @staticmethod
    def threat(state: Any, me: str) -> str | None:
        """The rival with the most competence (who would hurt most in an engagement)."""
        best, out = -1, None
        for f in state.living_factions():
            if f.id != me and f.pillars:
                c = sum(state.pillars[p].competence for p in f.pillars)
                if c > best:
                    best, out = c, f.id
        return out

    @staticmethod
    def kill_bonus(p: Any) -> float:
        return p.competence + p.defense + 2.0

    def targets_of(self, state: Any, pillars: list[str], others: dict[str, int]) -> list:
        out = []
        for pid in pillars:
            p = state.pillars[pid]
            out.append((pid, p.defense, p.circles_left, self.kill_bonus(p), others.get(pid, 0)))
        return out

    def attack_value(self, state: Any, me: str, rival: str, extra_dice: int) -> float:
        f = state.factions[me]
        dice = sum(sorted((state.pillars[p].competence for p in f.pillars), reverse=True)[:2])
        dice += extra_dice
        value, _ = best_split(min(dice, 20), self.targets_of(state, state.factions[rival].pillars, {}))
        if rival == self.leader(state, me):
            value *= 1.5
        return value

    def target(self, state: Any, me: str) -> str | None:
        best, out = 0.0, None
        for r in state.living_factions():
            if r.id != me and r.pillars:
                v = self.attack_value(state, me, r.id, 2)
                if v > best:
                    best, out = v, r.id
        return out

    def pick(self, legal: list[Any], want: Any, reason: str) -> Any:
        if want in legal:
            self.last_reason = reason
            return want
        return None

    # ------------------------------------------------------------------ act
    def act(self, view: Any, legal: list[Any], rng: Any) -> Any:
        state, me = view, view.faction_id
        self.last_reason = None
        phase = state.phase
        choice = self._engagement(state, me, legal) if phase == "engage" else self._spend(state, me, legal)
        if choice is None or choice not in legal:
            choice = next((a for a in legal if isinstance(a, Done)), legal[0])
            self.last_reason = self.last_reason or "nothing better to do"
        return choice

    # ------------------------------------------------------------------ spending
    def _spend(self, state: Any, me: str, legal: list[Any]) -> Any:
        f = state.factions[me]
        dice = f.faction_dice
        mine = [state.pillars[p] for p in f.pillars]
        if not mine:
            builds = [a for a in legal if isinstance(a, Build)]
            if builds:
                b = max(builds, key=lambda a: (min(a.defense, 1) + a.competence + a.defense, a.defense))
                self.last_reason = "rebuilds a pillar before its core collapses"
                return b
        for p in sorted(mine, key=lambda p: p.circles_left):
            if p.wounds and p.circles_left <= 1:
                act = self.pick(legal, Heal(p.id), f"heals {p.name}, one wound from defeat")
                if act:
                    return act
        engages = [a for a in legal if isinstance(a, Engage)]
        if engages:
            scored = [(self.attack_value(state, me, a.rival, min(3, f.pool(a.rival))), a) for a in engages]
            value, best = max(scored, key=lambda t: t[0])
            if value >= 1.0:
                lead = " against the leader" if best.rival == self.leader(state, me) else ""
                self.last_reason = f"engages {best.rival}: about {value:.1f} expected wounds{lead}"
                return best
        hired = self.commission(state, me, legal)
        if hired is not None:
            return hired
        cap = state.settings.pillar_cap
        if len(mine) < cap:
            want = Build(1, 1) if len(mine) >= 2 or dice >= 2 else Build(1, 0)
            if dice >= 4 and len(mine) < cap - 1:
                want = Build(1, 1)
            act = self.pick(legal, want, "builds a pillar: more strength, more income")
            if act:
                return act
            if dice < 2 and len(mine) < 2:
                act = self.pick(legal, Build(1, 0), "builds a cheap pillar")
                if act:
                    return act
        tgt = self.target(state, me)
        threat = self.threat(state, me)
        if tgt is not None and (f.pool(tgt) < 2 or tgt not in f.may_engage):
            act = self.pick(legal, Convert(1, tgt), f"prepares an engagement against {tgt}")
            if act:
                return act
        if threat is not None and threat != tgt and f.pool(threat) < 1:
            act = self.pick(legal, Convert(1, threat), f"keeps a counter reserve against {threat}")
            if act:
                return act
        for p in sorted(mine, key=lambda p: (p.defense, -p.competence)):
            if p.defense < 2:
                act = self.pick(legal, Raise(p.id, "defense"), f"hardens {p.name}")
                if act:
                    return act
        for p in mine:
            if p.wounds:
                act = self.pick(legal, Heal(p.id), f"heals {p.name}")
                if act:
                    return act
        for p in sorted(mine, key=lambda p: (p.defense, p.competence)):
            if p.defense < 3:
                act = self.pick(legal, Raise(p.id, "defense"), f"hardens {p.name}")
                if act:
                    return act
        for p in sorted(mine, key=lambda p: p.competence):
            act = self.pick(legal, Raise(p.id, "competence"), f"trains {p.name}")
            if act:
                return act
        if tgt is not None and f.pool(tgt) < 3:
            act = self.pick(legal, Convert(1, tgt), f"stockpiles engagement dice against {tgt}")
            if act:
                return act
        self.last_reason = "ends its turn"
        return Done()

    # ------------------------------------------------------------------ joining
    def join_value(self, state: Any, me: str, e: dict[str, Any]) -> tuple[float, float]:
        """(gain, risk) of joining engagement ``e`` with this faction's best pillar: the value of
        its dice on the defender's pillars (allies' dice counted), weighted by who the defender
        and the aggressor are, plus a price; against the defender's expected counter on that
        pillar, the grievance dice it would gain against this faction and the dice spent."""
        f = state.factions[me]
        inv = e["invite"]
        mine = sorted((state.pillars[p] for p in f.pillars), key=lambda p: -p.competence)
        if not mine:
            return 0.0, 1.0
        best = mine[0]
        drawn = min(3, f.pool(e["defender"]))
        others: dict[str, int] = {}
        for part in e["parts"]:
            for pid, k in part["alloc"].items():
                others[pid] = others.get(pid, 0) + k
        targets = self.targets_of(state, state.factions[e["defender"]].pillars, others)
        value, _ = best_split(min(best.competence + drawn, 20), targets)
        leader = self.leader(state, me)
        if e["defender"] == leader:
            value *= 1.5
        if e["aggressor"] == leader:
            value *= 0.5
        gain = value + inv["price"]
        d = state.factions[e["defender"]]
        counter = sum(sorted((state.pillars[p].competence for p in d.pillars), reverse=True)[:2]) + 1
        sides = 1 + sum(len(part["pillars"]) for part in e["parts"]) + 1
        share = max(1, round(counter * 1.5 / sides))
        risk = pillar_value(share, best.defense, best.circles_left, self.kill_bonus(best))
        risk += 0.5 * state.settings.grievance_dice + 0.3 * drawn
        return gain, risk

    def commission(self, state: Any, me: str, legal: list[Any]) -> Any:
        """Pay a mercenary to engage the leader when the price leaves dice to spare."""
        leader = self.leader(state, me)
        f = state.factions[me]
        for a in legal:
            if isinstance(a, Commission) and a.rival == leader and a.faction != leader \
                    and f.faction_dice - a.price >= 3:
                merc = state.factions[a.faction]
                dice = sum(sorted((state.pillars[p].competence for p in merc.pillars),
                                  reverse=True)[:1])
                value, _ = best_split(dice, self.targets_of(state, state.factions[leader].pillars, {}))
                if value * 1.5 >= a.price:
                    price = dice_text(a.price, "faction")
                    self.last_reason = f"pays {a.faction} {price} to engage the leader"
                    return a
        return None

    # ------------------------------------------------------------------ engagements
    def _engagement(self, state: Any, me: str, legal: list[Any]) -> Any:
        e = state.decision["eng"]
        stage = e["stage"]
        f = state.factions[me]
        leader = self.leader(state, me)
        if stage == eng_rules.INVITE:
            invites = [a for a in legal if isinstance(a, Invite) and a.faction != leader]
            against_leader = e["defender"] == leader
            for a in invites:
                if a.price == 0 and against_leader:
                    self.last_reason = f"calls on {a.faction} against the leader"
                    return a
                if a.price and against_leader and f.faction_dice - a.price >= 2:
                    self.last_reason = f"hires {a.faction} for {dice_text(a.price, 'faction')}"
                    return a
            self.last_reason = "goes on without (more) allies"
            return Done()
        if stage == eng_rules.ANSWER:
            gain, risk = self.join_value(state, me, e)
            inv = e["invite"]
            paid = f" and {dice_text(inv['price'], 'faction')}" if inv["price"] else ""
            if gain > risk:
                self.last_reason = (f"joins against {e['defender']}: expects {gain:.1f}{paid} for "
                                    f"a risk of {risk:.1f}")
                return Join()
            self.last_reason = f"stays out: {gain:.1f}{paid} is not worth a risk of {risk:.1f}"
            return Decline()
        part = eng_rules.current_part(e)
        counter = stage.startswith("counter")
        if stage in (eng_rules.PILLARS, eng_rules.C_FANATICAL):
            for a in legal:
                if isinstance(a, Fanatical):
                    p = state.pillars[a.pillar]
                    if p.wounds == 0:
                        self.last_reason = f"{p.name} fights fanatically"
                        return a
            commits = [a for a in legal if isinstance(a, Commit)]
            if commits:
                ranked = sorted(commits, key=lambda a: (state.pillars[a.pillar].has("assassinate"),
                                                        state.pillars[a.pillar].competence),
                                reverse=True)
                best = ranked[0]
                p = state.pillars[best.pillar]
                free = not part["pillars"]
                reserve = 1
                if free or (p.competence >= 2 and f.faction_dice > reserve):
                    self.last_reason = f"commits {p.name}" + (" (free)" if free else "")
                    return best
            self.last_reason = "enough pillars committed"
            return Done()
        if stage in (eng_rules.DRAW, eng_rules.C_DRAW):
            draws = [a.n for a in legal if isinstance(a, Draw)]
            n = max(draws)
            if not counter:
                threat = self.threat(state, me)
                pool = f.pool(e["defender"])
                if e["defender"] == threat and pool - n < 1 and n > 1:
                    n -= 1  # keep a die to counter the threat later
            self.last_reason = f"draws {dice_text(n, 'engagement')}"
            return Draw(n)
        if stage in (eng_rules.ALLOCATE, eng_rules.C_ALLOCATE):
            allocs = [a for a in legal if isinstance(a, Allocate)]
            if len(allocs) == 1:
                self.last_reason = "puts its dice on the only target"
                return allocs[0]
            targets = sorted({a.pillar for a in allocs})
            others: dict[str, int] = {}
            if not counter:
                for other in e["parts"]:
                    if other is not part:
                        for pid, k in other["alloc"].items():
                            others[pid] = others.get(pid, 0) + k
            for pid, k in part["alloc"].items():
                others[pid] = others.get(pid, 0) + k
            value, split = best_split(part["remaining"], self.targets_of(state, targets, others))
            pid, k = max(split.items(), key=lambda kv: kv[1])
            self.last_reason = (f"concentrates {dice_text(k)} on {state.pillars[pid].name} "
                                f"(expected {value:.1f})")
            return Allocate(k, pid)
        return None
