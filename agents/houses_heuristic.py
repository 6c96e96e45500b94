"""A rule-of-thumb player for the Great Houses (``heuristic`` on ``houses`` states).

- Pools: the largest Distinction (never the d4 Hinder), Attribute and Skill; commits its two
  largest lasting assets (fleeting ones are kept for Signature advancement).
- Actions: recovers when Stress reaches d10 or Trauma d8; seizes any rival Holding at d6;
  otherwise strikes at the smallest rival Holding (to bring it to d6), preferring the leading
  rival; in the last round creates an asset (to make it a Signature at the season's end).
- Free recovery: Trauma, then Stress, then damaged Holdings and Skills, then complications.
- Plot Points: a defender adds a die when it would otherwise lose; a winner inflicts Trauma; an
  attacker adds a die to a low total; a created asset or complication is solidified with spare
  Plot Points.
- Against incoming Stress: throws the least useful trait that cancels the effect outright (a
  Skill it does not roll, a Resource), never a Holding unless the House would collapse.
- Advances: Signature Asset, then stepping a Signature Asset, then a Holding.

Each decision sets ``last_reason`` (one line).
"""

from __future__ import annotations

from typing import Any

from factionsim.core.game import Agent
from factionsim.rules.houses import turn
from factionsim.rules.houses.actions import (
    Accept,
    Advance,
    ChooseAction,
    Commit,
    Done,
    Keep,
    PickDistinction,
    RollPool,
    Sacrifice,
    SpendPlotPoint,
    Target,
    Trait,
)
from factionsim.rules.houses.dice import inflict
from factionsim.rules.houses.model import SKILLS


class Heuristic(Agent):
    name = "heuristic"

    def __init__(self, **options: Any):
        self.options = options
        self.last_reason: str | None = None

    def act(self, view: Any, legal: list[Any], rng: Any) -> Any:
        self.last_reason = None
        s = view.state
        me = s.houses[view.faction_id]
        by_text = {str(a): a for a in legal}
        handler = getattr(self, "_" + s.phase.replace("-", "_"), None)
        choice = handler(s, me, legal, by_text) if handler else None
        if choice is None or choice not in legal:
            choice = legal[0]
            self.last_reason = None
        return choice

    # ------------------------------------------------------------ choosing the action
    def _action(self, s, me, legal, by_text):
        kinds = {a.kind for a in legal if isinstance(a, ChooseAction)}
        last = s.round == s.rules["actions_per_season"] - 1
        if s.ctx.get("free"):
            for kind, why in (("recover", "recovers from Stress or Trauma"),
                              ("repair", "repairs a damaged trait"),
                              ("recover-complication", "shakes off a complication")):
                if kind in kinds and (kind != "recover" or me.trauma or me.stress >= 6):
                    self.last_reason = why
                    return ChooseAction(kind)
            self.last_reason = "nothing worth recovering"
            return ChooseAction("pass")
        if "recover" in kinds and (me.stress >= 10 or me.trauma >= 8):
            self.last_reason = f"Stress d{me.stress} / Trauma d{me.trauma} is too heavy"
            return ChooseAction("recover")
        if "seize" in kinds:
            self.last_reason = "a rival Holding is down to d6: seize it"
            return ChooseAction("seize")
        if last and "create-asset" in kinds and me.advances + s.rules["advances_per_season"] >= 1 \
                and not any(a.owner == me.id and a.kind == "asset" for a in s.assets.values()):
            self.last_reason = "an asset now can become a Signature Asset at the season's end"
            return ChooseAction("create-asset")
        if "attack-trait" in kinds and self._holding_target(s, me):
            self.last_reason = "wear a rival Holding down to d6 to seize it"
            return ChooseAction("attack-trait")
        if "repair" in kinds:
            self.last_reason = "repairs a damaged trait"
            return ChooseAction("repair")
        if "attack-house" in kinds:
            self.last_reason = "no Holding to strike: attack the leading rival"
            return ChooseAction("attack-house")
        return None

    def _holding_target(self, s, me):
        scores = s.scores()
        best = None
        for a in s.assets.values():
            if a.kind == "holding" and a.owner != me.id and s.houses[a.owner].alive:
                key = (a.die, -scores[a.owner], a.id)
                if best is None or key < best[0]:
                    best = (key, a)
        return best[1] if best else None

    def _target(self, s, me, legal, by_text):
        kind = s.ctx["kind"]
        if kind == "attack-trait":
            h = self._holding_target(s, me)
            if h is not None and Target(h.owner) in legal:
                return Target(h.owner)
        scores = s.scores()
        options = [a for a in legal if isinstance(a, Target)]
        self.last_reason = "the leading rival"
        return max(options, key=lambda a: (scores[a.house], a.house))

    def _trait(self, s, me, legal, by_text):
        kind = s.ctx["kind"]
        options = [a.trait for a in legal]
        if kind == "attack-trait":
            holdings = [t for t in options if t in s.assets and s.assets[t].kind == "holding"]
            if holdings:
                return Trait(min(holdings, key=lambda t: (s.assets[t].die, t)))
            return Trait(max(options, key=lambda t: self._die(s, t, s.houses[s.ctx["target"]])))
        if kind == "recover":
            return Trait("trauma") if "trauma" in options else Trait(options[0])
        if kind == "repair":
            holdings = [t for t in options if t in s.assets and s.assets[t].kind == "holding"]
            if holdings:
                return Trait(holdings[0])
            return Trait(max(options, key=lambda t: (self._full(s, t, me), t)))
        return Trait(options[0])

    @staticmethod
    def _die(s, t, house):
        return house.skills[t] if t in house.skills else s.assets[t].die

    @staticmethod
    def _full(s, t, house):
        return house.skills_full[t] if t in house.skills else s.assets[t].full

    # ------------------------------------------------------------ building a pool
    def _distinction(self, s, me, legal, by_text):
        options = [a for a in legal if isinstance(a, PickDistinction) and not a.hinder]
        dies = {d["id"]: d["die"] for d in me.distinctions}
        return max(options, key=lambda a: (dies[a.distinction], a.distinction))

    def _attribute(self, s, me, legal, by_text):
        return max(legal, key=lambda a: (me.attributes[a.attribute], a.attribute))

    def _skill(self, s, me, legal, by_text):
        return max(legal, key=lambda a: (me.skills[a.skill], a.skill))

    def _commit(self, s, me, legal, by_text):
        options = [a for a in legal if isinstance(a, Commit)
                   and s.assets[a.asset].duration != "fleeting"]
        if options:
            return max(options, key=lambda a: (s.assets[a.asset].die, a.asset))
        return RollPool()

    def _plot(self, s, me, legal, by_text):
        ctx = s.ctx
        role = ctx["pool"]["role"]
        mine = ctx["rolls"][role]
        if role == "defender":
            to_beat = ctx["rolls"]["actor"]["total"]
            if mine["total"] < to_beat:
                self.last_reason = "a Plot Point to hold off the attack"
                return SpendPlotPoint()
            return Keep()
        if ctx["kind"] in turn.OPPOSED and mine["total"] < 14 and me.plot_points >= 2:
            return SpendPlotPoint()
        if ctx["kind"] not in turn.OPPOSED and mine["total"] < 11:
            return SpendPlotPoint()
        return Keep()

    def _solidify(self, s, me, legal, by_text):
        return SpendPlotPoint() if me.plot_points >= 2 else Keep()

    def _lasting(self, s, me, legal, by_text):
        return SpendPlotPoint() if me.plot_points >= 2 else Keep()

    def _harm(self, s, me, legal, by_text):
        self.last_reason = "Trauma lasts: spend a Plot Point on it"
        return SpendPlotPoint()

    # ------------------------------------------------------------ absorbing harm
    def _sacrifice(self, s, me, legal, by_text):
        harm = s.ctx["harm"]
        effect = harm["effect"]
        current = me.trauma if harm["kind"] == "trauma" else me.stress
        after = inflict(current, effect)
        deadly = harm["kind"] == "trauma" and after == 0 or (
            harm["kind"] == "stress" and after == 0 and inflict(me.trauma, 6) == 0)
        heavy = deadly or harm["kind"] == "trauma" or after >= 10
        top = max(SKILLS, key=lambda k: me.skills[k])

        def cost(t: str) -> tuple:
            if t in me.skills:
                return (1 if t == top else 0, me.skills[t])
            a = s.assets[t]
            rank = {"fleeting": 0, "season": 0, "asset": 0, "resource": 1, "signature": 2,
                    "holding": 3}
            return (rank[a.duration] if a.duration != "permanent" else rank[a.kind], a.die)

        options = [a.trait for a in legal if isinstance(a, Sacrifice)]
        if not deadly:
            options = [t for t in options if t in me.skills or s.assets[t].kind != "holding"]
        cancelling = [t for t in options if self._die(s, t, me) > effect]
        if cancelling:
            choice = min(cancelling, key=cost)
            if heavy or cost(choice)[0] == 0:
                self.last_reason = f"the {choice} absorbs the whole d{effect}"
                return Sacrifice(choice)
        if heavy and options:
            return Sacrifice(min(options, key=cost))
        return Accept()

    # ------------------------------------------------------------ advancement
    def _advance(self, s, me, legal, by_text):
        for option in ("signature", "step-signature"):
            for a in legal:
                if isinstance(a, Advance) and a.option == option:
                    self.last_reason = f"advance: {option}"
                    return a
        steps = [a for a in legal if isinstance(a, Advance) and a.option == "step"
                 and a.trait in s.assets and s.assets[a.trait].kind == "holding"]
        if steps:
            self.last_reason = "advance: a stronger Holding"
            return min(steps, key=lambda a: (s.assets[a.trait].full, a.trait))
        return Done()
