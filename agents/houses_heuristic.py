"""A rule-of-thumb player for the Great Houses (``heuristic`` on ``houses`` states).

It weighs every House action it may take now by its expected worth in score points (the
scenario's ``scores()``), from the odds of the dice (:mod:`houses_odds`):

- **Seize a Holding**: the chance to beat the owner with an effect die larger than the Holding,
  times what the Holding is worth to both Houses;
- **Attack an Asset or a Skill** (a rival Holding): the steps it takes off (a Holding brought to
  d6 can then be seized), less the Stress that comes back on a failure;
- **Attack a Faction**: the Stress or Trauma it inflicts on a rival (a House near its end is
  worth finishing), less the Stress that comes back;
- **Create a Complication**: a rival's trouble adds its die to every roll against that rival
  for the rest of the season (or until recovered, with a Plot Point);
- **Create an Asset**: a die for a later roll, and a Signature Asset at the season's end;
- **Recover / Repair**: what it restores, weighed against the risk of a hitch escalating Trauma
  (a House at d12 Trauma does not gamble its existence on a recovery roll) and the danger of
  keeping a damaged Holding at d6, where a rival may seize it.

A rival's loss counts fully when that rival is level with or ahead of the House, half
otherwise. Pools: the largest Distinction, Attribute and Skill and every lasting asset (none
when recovering from heavy Trauma: each die is another chance of a hitch). Plot Points: a
defender adds a die when it turns the contest; a winner inflicts what hurts most (Stress,
Trauma, or both); it opposes assets the leading rivals create. Against incoming harm it
throws the least useful trait that cancels the effect, Holdings only to avoid collapse.

Each decision sets ``last_reason`` (one line).
"""

from __future__ import annotations

from typing import Any

from factionsim.agents.houses_odds import contest
from factionsim.core.game import Agent
from factionsim.rules.houses import turn
from factionsim.rules.houses.actions import (
    Accept,
    Advance,
    ChooseAction,
    Commit,
    InflictBoth,
    Keep,
    Oppose,
    PickDistinction,
    RollPool,
    Sacrifice,
    SpendPlotPoint,
    Target,
    Trait,
)
from factionsim.rules.houses.dice import RollResult, add_die, inflict, step_down, steps
from factionsim.rules.houses.model import SKILLS

#: the part of inflicted harm expected to land after the loser's sacrifices
LANDS = 0.7
#: the chance a Holding worn down to the seizing die is seized (by this House) later
SEIZE_LATER = 0.4
#: the chance a damaged Holding of its own left at the seizing die is seized by a rival
SEIZE_RISK = 0.8


def stress_penalty(d: int) -> float:
    return (steps(d) + 1) / 2 if d else 0.0


def trauma_penalty(d: int) -> float:
    return float(steps(d) + 1) if d else 0.0


class Heuristic(Agent):
    name = "heuristic"

    def __init__(self, **options: Any):
        self.options = options
        self.last_reason: str | None = None
        self.plan: tuple[str, str | None, str | None] | None = None

    def act(self, view: Any, legal: list[Any], rng: Any) -> Any:
        self.last_reason = None
        s = view  # what this House knows (everything, in this ruleset)
        me = s.houses[view.faction_id]
        handler = getattr(self, "_" + s.phase.replace("-", "_"), None)
        choice = handler(s, me, legal) if handler else None
        if choice is None or choice not in legal:
            choice = legal[0]
            self.last_reason = None
        return choice

    # ============================================================ pools and worth
    @staticmethod
    def best_dice(h: Any) -> list[int]:
        return [max(d["die"] for d in h.distinctions), max(h.attributes.values()),
                max(h.skills.values())]

    @staticmethod
    def lasting(s: Any, h: Any) -> list[int]:
        """Dice of the assets the House commits: every asset but a fleeting one kept to become a
        Signature Asset at the season's end."""
        keep = Heuristic.signature_candidate(s, h)
        return [a.die for a in s.assets_of(h.id) if a.id != keep]

    @staticmethod
    def signature_candidate(s: Any, h: Any) -> str | None:
        made = [a.id for a in s.assets_of(h.id) if a.kind == "asset" and a.created == s.current_turn]
        return made[0] if made and h.advances + s.rules["advances_per_season"] >= 1 else None

    def pool(self, s: Any, h: Any, kind: str, rival: Any = None) -> tuple[int, ...]:
        dice = self.best_dice(h)
        heavy = kind == "recover-trauma" and h.trauma >= 10
        if not heavy:
            dice += self.lasting(s, h)
        if rival is not None:
            dice += rival.hindrance()
        if "resilient" in h.sfx and kind.startswith(("recover", "repair")):
            dice.append(6)
        return tuple(sorted(dice, reverse=True))

    def defense(self, s: Any, r: Any, actor: Any) -> tuple[int, ...]:
        dice = self.best_dice(r) + [a.die for a in s.assets_of(r.id)] + actor.hindrance()
        if "stalwart" in r.sfx:
            dice.append(6)
        return tuple(sorted(dice, reverse=True))

    @staticmethod
    def difficulty(s: Any, h: Any, kind: str, trait: str | None) -> tuple[int, ...]:
        ctx = {"kind": kind, "trait": trait}
        hind = [d for _, d in turn.unopposed_hindrance(h, ctx)]
        return tuple(sorted(list(s.rules["difficulty"]) + hind, reverse=True))

    def weight(self, s: Any, me: Any, r: Any) -> float:
        """How much a rival's loss is worth to this House."""
        scores = s.scores()
        return 1.0 if scores[r.id] >= scores[me.id] - 1 else 0.5

    @staticmethod
    def stress_cost(s: Any, h: Any, effect: int) -> float:
        """Score ``h`` loses if Stress at ``effect`` lands (taken out: Trauma; collapse: all)."""
        after = inflict(h.stress, effect)
        if after:
            return stress_penalty(after) - stress_penalty(h.stress)
        trauma = inflict(h.trauma, 6)
        if not trauma:
            return s.scores()[h.id] + 3
        return trauma_penalty(trauma) - trauma_penalty(h.trauma) - stress_penalty(h.stress)

    @staticmethod
    def trauma_cost(s: Any, h: Any, effect: int) -> float:
        after = inflict(h.trauma, effect)
        if not after:
            return s.scores()[h.id] + 3
        return trauma_penalty(after) - trauma_penalty(h.trauma)

    def harm_value(self, s: Any, winner: Any, loser: Any, effect: int) -> float:
        """The worst the winner can make ``effect`` land on the loser (Trauma for a Plot
        Point)."""
        v = self.stress_cost(s, loser, effect)
        if winner.plot_points > 0:
            v = max(v, self.trauma_cost(s, loser, effect))
        return v

    # ============================================================ choosing the action
    def candidates(self, s: Any, me: Any, kinds: set[str]) -> list[tuple[float, str, Any, Any, str]]:
        """(value, kind, target, trait, reason) for every action worth a look."""
        out: list[tuple[float, str, Any, Any, str]] = []
        rivals = [r for r in s.living() if r.id != me.id]
        if "seize" in kinds:
            for aid in s.seizable(me):
                a = s.assets[aid]
                owner = s.houses[a.owner]
                o = contest(self.pool(s, me, "seize", owner), self.defense(s, owner, me))
                p = sum(v for d, v in o.effect.items() if d > a.die)
                worth = (3 + steps(a.die)) * (1 + self.weight(s, me, owner))
                out.append((p * worth, "seize", None, aid, f"seize {a.name} ({p:.0%})"))
        for r in rivals:
            w = self.weight(s, me, r)
            mine = self.pool(s, me, "attack", r)
            theirs = self.defense(s, r, me)
            o = contest(mine, theirs)
            back = sum(p * self.stress_cost(s, me, d) for d, p in o.their_effect.items()) * LANDS
            if "attack-trait" in kinds:
                for a in s.assets_of(r.id):
                    if a.kind != "holding":
                        continue
                    loss = 0.0
                    for k, p in enumerate(o.steps):
                        p_exact = p - (o.steps[k + 1] if k + 1 < 3 else 0.0)
                        after = a.die - 2 * (k + 1)
                        if after < 6:
                            loss += p_exact * (3 + steps(a.die))
                        else:
                            later = SEIZE_LATER * 4 if after <= s.rules["seize_at"] else 0.0
                            loss += p_exact * ((k + 1) + later)
                    out.append((loss * (0.5 + w) - back, "attack-trait", r.id, a.id,
                                f"wear down {r.name}'s {a.name}"))
            if "attack-house" in kinds:
                hurt = sum(p * self.harm_value(s, me, r, d) for d, p in o.effect.items())
                out.append((hurt * LANDS * (0.5 + w) - back, "attack-house", r.id, None,
                            f"attack {r.name} itself"))
            if "create-complication" in kinds and not any(c["from"] == me.id for c in r.complications):
                strike = max([v for v, _, t, _, _ in out if t == r.id] + [0.0])
                likely = max(o.effect, key=lambda d: (o.effect[d], d))
                value = o.win * self.complication_value(s, me, r, likely, mine, theirs, strike)
                out.append((value * w, "create-complication", r.id, None,
                            f"complicate {r.name}'s affairs"))
        if "create-asset" in kinds:
            o = contest(self.pool(s, me, "create-asset"), self.difficulty(s, me, "create-asset", None),
                        difficulty=True)
            p = sum(v for d, v in o.effect.items() if d >= 6) * 0.7  # rivals may oppose
            last = s.round == s.rules["actions_per_season"] - 1
            signature = (last and me.advances + s.rules["advances_per_season"] >= 1
                         and self.signature_candidate(s, me) is None)
            out.append((p * (2.0 if signature else 0.4), "create-asset", None, None,
                        "an asset now" + (", a Signature Asset at the season's end" if signature
                                          else "")))
        for kind in ("recover", "repair", "recover-complication"):
            if kind in kinds:
                for trait in s.traits_for(me, kind):
                    v, why = self.recovery_value(s, me, kind, trait)
                    out.append((v, kind, None, trait, why))
        return out

    def complication_value(self, s: Any, me: Any, r: Any, die: int, mine: tuple[int, ...],
                           theirs: tuple[int, ...], strike: float) -> float:
        """Worth of a Complication at ``die`` on ``r``: it joins every pool rolled against ``r``,
        so each of this House's later strikes at ``r`` (worth ``strike`` now) succeeds more often,
        for the rest of the season (or two seasons more when a Plot Point makes it last), and it
        hinders ``r``'s own rolls."""
        left = s.rules["actions_per_season"] - s.round - 1
        lasting = 2 if me.plot_points >= 2 else 0
        base = contest(mine, theirs).win
        lift = (contest(tuple(sorted((*mine, die), reverse=True)), theirs).win - base) / max(0.1, base)
        return (left + lasting) * max(0.0, strike) * lift + 0.3 * steps(die)

    def recovery_value(self, s: Any, me: Any, kind: str, trait: str) -> tuple[float, str]:
        diff = self.difficulty(s, me, kind, trait)
        if kind == "recover":
            before = getattr(me, trait)
            o = contest(self.pool(s, me, f"recover-{trait}"), diff, difficulty=True)
            pen = stress_penalty if trait == "stress" else trauma_penalty
            gain = sum(p * (pen(before) - (0 if d > before else pen(step_down(before))))
                       for d, p in o.effect.items())
            gain += o.win * (1.0 if before >= 10 else 0.3)  # safer from being taken out / collapse
            risk = 0.0
            if trait == "trauma":
                to_collapse = (12 - before) // 2 + 1
                if to_collapse <= 3:
                    risk = o.hitches[to_collapse - 1] * (s.scores()[me.id] + 3)
                risk += o.hitches[0] * 0.5
            return gain - risk, f"recover from its {trait.title()} (d{before}, {o.win:.0%})"
        if kind == "recover-complication":
            source = trait.split(":", 1)[1]
            comp = next(c for c in me.complications if c["from"] == source)
            o = contest(self.pool(s, me, kind), diff, difficulty=True)
            return o.win * 0.3 * steps(comp["die"]), "shake off a complication"
        o = contest(self.pool(s, me, kind), diff, difficulty=True)
        if trait in me.skills:
            return o.win * 0.4, f"repair its {trait.title()}"
        a = s.assets[trait]
        danger = (SEIZE_RISK * (3 + steps(a.die)) if a.kind == "holding"
                  and a.die <= s.rules["seize_at"] else 0.0)
        gain = 1.0 if a.kind in ("holding", "resource", "signature") else 0.3
        return o.win * (gain + danger) + 0.2, f"repair {a.name} (d{a.die} of d{a.full})"

    def _action(self, s, me, legal):
        kinds = {a.kind for a in legal if isinstance(a, ChooseAction)}
        options = self.candidates(s, me, kinds)
        best = max(options, key=lambda x: x[0], default=None)
        if best is None or best[0] <= 0.05:
            self.plan = None
            self.last_reason = "nothing worth the risk" if not s.decision.get("free") \
                else "nothing worth recovering"
            return ChooseAction("pass")
        value, kind, target, trait, why = best
        self.plan = (kind, target, trait)
        self.last_reason = f"{why} (worth {value:.1f})"
        return ChooseAction(kind)

    def _target(self, s, me, legal):
        if self.plan and Target(self.plan[1]) in legal:
            return Target(self.plan[1])
        scores = s.scores()
        return max((a for a in legal if isinstance(a, Target)), key=lambda a: (scores[a.house], a.house))

    def _trait(self, s, me, legal):
        if self.plan and Trait(self.plan[2]) in legal:
            return Trait(self.plan[2])
        return None

    # ============================================================ building a pool
    def _distinction(self, s, me, legal):
        dies = {d["id"]: d["die"] for d in me.distinctions}
        return max((a for a in legal if isinstance(a, PickDistinction) and not a.hinder),
                   key=lambda a: (dies[a.distinction], a.distinction))

    def _attribute(self, s, me, legal):
        return max(legal, key=lambda a: (me.attributes[a.attribute], a.attribute))

    def _skill(self, s, me, legal):
        return max(legal, key=lambda a: (me.skills[a.skill], a.skill))

    def _commit(self, s, me, legal):
        ctx = s.decision
        if ctx["kind"] == "recover" and ctx.get("trait") == "trauma" and me.trauma >= 10 \
                and ctx["pool"]["role"] == "actor":
            return RollPool()  # every die is another chance of a hitch
        keep = self.signature_candidate(s, me)
        options = [a for a in legal if isinstance(a, Commit) and a.asset != keep]
        if options:
            return max(options, key=lambda a: (s.assets[a.asset].die, a.asset))
        return RollPool()

    def _plot(self, s, me, legal):
        ctx = s.decision
        role = ctx["pool"]["role"]
        mine = ctx["rolls"][role]
        better = add_die(RollResult.from_dict(mine)).total
        if role == "defender":
            to_beat = ctx["rolls"]["actor"]["total"]
            if mine["total"] < to_beat <= better:
                self.last_reason = "a Plot Point to hold off the attack"
                return SpendPlotPoint()
            return Keep()
        if turn.opposed(ctx) and mine["total"] < 15 and me.plot_points >= 2:
            return SpendPlotPoint()
        if not turn.opposed(ctx) and mine["total"] < 12:
            return SpendPlotPoint()
        return Keep()

    def _solidify(self, s, me, legal):
        return SpendPlotPoint() if me.plot_points >= 2 else Keep()

    def _lasting(self, s, me, legal):
        return SpendPlotPoint() if me.plot_points >= 2 else Keep()

    def _harm(self, s, me, legal):
        harm = s.decision["harm"]
        loser = s.houses[harm["to"]]
        e = harm["effect"]
        options = [(self.stress_cost(s, loser, e), Keep(), "Stress")]
        options.append((self.trauma_cost(s, loser, e) - 0.5, SpendPlotPoint(), "Trauma"))
        if InflictBoth() in legal:
            both = self.stress_cost(s, loser, e) + self.trauma_cost(s, loser, harm["extra"])
            options.append((both - 0.5, InflictBoth(), "Stress and Trauma"))
        value, choice, what = max(options, key=lambda x: x[0])
        self.last_reason = f"inflicts {what} on {loser.name}"
        return choice

    def _oppose(self, s, me, legal):
        creator = s.houses[s.decision["actor"]]
        if self.weight(s, me, creator) >= 1.0:
            self.last_reason = f"opposes {creator.name}'s new asset"
            return Oppose()
        return Keep()

    # ============================================================ absorbing harm
    def _sacrifice(self, s, me, legal):
        harm = s.decision["harm"]
        effect = harm["effect"]
        cost = self.trauma_cost(s, me, effect) if harm["kind"] == "trauma" \
            else self.stress_cost(s, me, effect)
        deadly = cost >= s.scores()[me.id]
        heavy = deadly or cost >= 1.5
        top = max(SKILLS, key=lambda k: me.skills[k])

        def price(t: str) -> tuple:
            if t in me.skills:
                return (1 if t == top else 0, me.skills[t])
            a = s.assets[t]
            rank = {"asset": 0, "resource": 1, "signature": 2, "holding": 3}[a.kind]
            return (0 if a.duration != "permanent" else rank, a.die)

        options = [a.trait for a in legal if isinstance(a, Sacrifice)]
        if not deadly:
            options = [t for t in options if t in me.skills or s.assets[t].kind != "holding"]
        cancelling = [t for t in options if self._die(s, t, me) > effect]
        if cancelling:
            choice = min(cancelling, key=price)
            if heavy or price(choice)[0] == 0:
                self.last_reason = f"the {choice} absorbs the whole d{effect}"
                return Sacrifice(choice)
        if heavy and options:
            return Sacrifice(min(options, key=price))
        return Accept()

    @staticmethod
    def _die(s, t, house):
        return house.skills[t] if t in house.skills else s.assets[t].die

    # ============================================================ advancement
    def _advance(self, s, me, legal):
        for option in ("signature", "step-signature"):
            for a in legal:
                if isinstance(a, Advance) and a.option == option:
                    self.last_reason = f"advance: {option}"
                    return a
        steps_up = [a for a in legal if isinstance(a, Advance) and a.option == "step"
                    and a.trait in s.assets and s.assets[a.trait].kind == "holding"]
        if steps_up:
            self.last_reason = "advance: a stronger Holding"
            return min(steps_up, key=lambda a: (s.assets[a.trait].full, a.trait))
        return next(a for a in legal if not isinstance(a, Advance))
