"""A rule-of-thumb player for ``conflict`` scenarios (the ``heuristic`` the conflict ruleset offers:
``make_agent("heuristic", "conflict")``).

- Planning: a character works the ritual or carries the item when the objective asks for it;
  heals a badly hurt ally or casts a harmful spell when a foe is in range; attacks when a foe is
  within reach after its free move; otherwise creates an Advantage (a +2 trick or a strong skill)
  near foes, moves far to close in, or stands ground next to its allies.
- Attacks: the expected damage (chance to beat the TN x (TN + item)) weighed by how close the
  blow brings the target to falling (its pool plus its Approaches): the side focuses its blows.
- Ties: succeed with the consequence while Guts allow; after a failure, sacrifice a minor Bond
  level (preferring one that does not break a major level) to reroll.

Every decision sets ``last_reason`` (one line).
"""

from __future__ import annotations

from typing import Any

from factionsim.core.game import Agent
from factionsim.rules.conflict import turn as T
from factionsim.rules.conflict.actions import (
    Accept,
    Advantage,
    Assist,
    Cast,
    Dash,
    Harm,
    Hold,
    Plan,
    Proceed,
    Replan,
    Reroll,
    Ritual,
    Stand,
    TieChoice,
    Trick,
)
from factionsim.rules.conflict.model import HARM_SKILLS, Character


def p_success(tn: int) -> float:
    """Chance that 1d6 comes under ``tn`` or ties it (a tie is taken as a success)."""
    return min(1.0, max(0.0, tn / 6))


class Heuristic(Agent):
    name = "heuristic"

    def __init__(self, **options: Any):
        self.options = options
        self.last_reason: str | None = None

    # ------------------------------------------------------------------ entry point
    def act(self, view: Any, legal: list[Any], rng: Any) -> Any:
        state = view  # what this side knows
        first = legal[0]
        if isinstance(first, TieChoice):
            c = state.chars[first.char]
            choice = "succeed" if c.guts > state.settings["tie_strain"] + 1 else "fail"
            self.last_reason = f"{c.name} ties and chooses to {choice}"
            return TieChoice(first.char, choice)
        if isinstance(first, (Reroll, Accept)):
            return self._reroll(state, legal)
        if isinstance(first, Plan):
            return self._plan(state, view, legal)
        if state.phase == T.REPLAN:
            return self._replan(state, legal)
        return self._turn(state, legal)

    # ------------------------------------------------------------------ changing plans
    def _replan(self, state: Any, legal: list[Any]) -> Any:
        """A category begins: move into it a character that planned later and now has what it
        planned for within reach here (a foe to strike once the attacks begin, a spell target)."""
        category = state.category_of()
        for a in legal:
            if not isinstance(a, Replan):
                continue
            c = state.chars[a.char]
            foes = state.enemies(c)
            spell_ready = c.plan == "spell" and self._spell_target(state, c, foes)
            if category == "harm" and c.plan in ("move", "spell") and not spell_ready \
                    and self._best_harm(state, c, foes):
                self.last_reason = f"{c.name} strikes now instead ({c.plan} planned)"
                return a
            if category == "aid" and c.plan in ("harm", "move") and self._best_trick(state, c, foes):
                self.last_reason = f"{c.name} sets up a lasting Advantage first"
                return a
        self.last_reason = "keeps its plans"
        return next(a for a in legal if isinstance(a, Proceed))

    @staticmethod
    def _spell_target(state: Any, c: Character, foes: list[Character]) -> bool:
        """Has ``c`` a spell left with a target in range (a foe; an ally to heal)?"""
        for sp in c.spells:
            if sp.uses <= 0:
                continue
            targets = state.allies(c, include_self=True) if sp.effect == "heal" else foes
            if any(state.in_range(c, t, sp.range) for t in targets):
                return True
        return False

    def _best_trick(self, state: Any, c: Character, foes: list[Character]) -> Trick | None:
        """A +2 Advantage without a check on a foe in reach that has none of ``c``'s yet."""
        for t in foes:
            mine = [a for a in state.advantages if a["by"] == c.id and t.id in a["targets"]]
            for trick, bonus in sorted(c.tricks.items()):
                if bonus >= 2 and not mine and state.in_range(c, t, state.settings["reach"]):
                    return Trick(c.id, trick, t.id)
        return None

    # ------------------------------------------------------------------ questions
    def _reroll(self, state: Any, legal: list[Any]) -> Any:
        rerolls = [a for a in legal if isinstance(a, Reroll)]
        if not rerolls:
            self.last_reason = "no Bond to sacrifice"
            return next(a for a in legal if isinstance(a, Accept))
        mpm = state.settings["minor_per_major"]
        tn = state.jobs[0]["result"]["tn"] if state.jobs and "result" in state.jobs[0] else 0
        spare = [a for a in rerolls if state.bond_steps(a.char, a.partner) % mpm != 0]
        if tn < 3 or (not spare and tn < 5):
            self.last_reason = f"keeps the failure (TN {tn}: not worth a Bond)"
            return next(a for a in legal if isinstance(a, Accept))

        def key(a: Reroll) -> tuple[int, int]:
            steps = state.bond_steps(a.char, a.partner)
            return (int(steps % mpm != 0), steps)

        best = max(rerolls, key=key)
        self.last_reason = f"sacrifices Bond with {state.chars[best.partner].name} to reroll"
        return best

    # ------------------------------------------------------------------ planning
    def _plan(self, state: Any, view: Any, legal: list[Plan]) -> Plan:
        cid = legal[0].char
        c = state.chars[cid]
        options = {a.category for a in legal if a.char == cid}
        category, why = self._intent(state, c, options)
        self.last_reason = f"{c.name} plans {category}: {why}"
        return Plan(cid, category)

    def _intent(self, state: Any, c: Character, options: set[str]) -> tuple[str, str]:
        s = state.settings
        obj, item = state.objective, state.item
        foes = state.enemies(c)
        if obj is not None and obj["side"] == c.side:
            if obj["type"] == "ritual" and c.rank(obj.get("skill", "arcana")) >= 1 \
                    and abs(c.position - obj["at"]) <= state.free_move(c) + s["stand_radius"]:
                return "aid", "the ritual"
            if obj["type"] == "carry" and item is not None:
                if item.get("holder") == c.id:
                    return "move", "carry the item across"
                if item.get("holder") is None and self._closest_to_item(state, c):
                    return "move", "take up the item"
        if "spell" in options:
            for sp in c.spells:
                if sp.uses <= 0:
                    continue
                if sp.effect == "heal" and any(
                        a.blood * 3 < a.max_blood and state.in_range(c, a, sp.range)
                        for a in state.allies(c, include_self=True)):
                    return "spell", f"heal with {sp.name}"
                if sp.effect in ("harm", "advantage") and any(state.in_range(c, t, sp.range)
                                                              for t in foes):
                    return "spell", f"cast {sp.name}"
        best = self._best_harm(state, c, foes)
        if best is not None:
            return "harm", f"strike {state.chars[best[1].target].name}"
        if foes and (c.tricks or max((c.rank(k) for k in ("guile", "tactics")), default=0) >= 2) \
                and any(state.in_range(c, t, s["reach"]) for t in foes):
            return "aid", "set up an Advantage"
        if foes:
            return "move", "close in"
        return "stand", "hold the line"

    def _closest_to_item(self, state: Any, c: Character) -> bool:
        pos = state.item["position"]
        mine = [a for a in state.allies(c, include_self=True)]
        return min(mine, key=lambda a: (abs(a.position - pos), a.id)).id == c.id

    # ------------------------------------------------------------------ a character's turn
    def _turn(self, state: Any, legal: list[Any]) -> Any:
        c = state.chars[legal[0].char]
        foes = state.enemies(c)
        scored: list[tuple[float, Any, str]] = []
        for a in legal:
            v, why = self._value(state, c, a, foes)
            scored.append((v, a, why))
        v, best, why = max(scored, key=lambda x: x[0])
        self.last_reason = f"{c.name}: {why}"
        return best

    def _value(self, state: Any, c: Character, a: Any, foes: list[Character]) -> tuple[float, str]:
        s = state.settings
        obj, item = state.objective, state.item
        if isinstance(a, Harm):
            ev = self._harm_value(state, c, a)
            return 10 + ev, f"attacks {state.chars[a.target].name} with {a.skill}"
        if isinstance(a, Cast):
            sp = next(x for x in c.spells if x.id == a.spell)
            t = state.chars[a.target]
            if c.concentration_broken:
                return -5, "its spell is broken"
            if sp.effect == "heal":
                missing = (t.max_blood - t.blood) if sp.pool == "blood" else (t.max_guts - t.guts)
                return 5 + min(missing, sp.power), f"heals {t.name}"
            if sp.effect == "advantage":
                return 8 + sp.power, f"casts {sp.name}"
            return 10 + sp.power * (1 + self._finish(t, sp.pool, sp.power)), f"casts {sp.name} at {t.name}"
        if isinstance(a, Ritual):
            return 50, "works the ritual"
        if isinstance(a, Trick):
            bonus = 1 if a.trick == "impair" else c.tricks[a.trick]
            return 6 + self._lasting(state, c, a.target, bonus), \
                f"hampers {state.chars[a.target].name}"
        if isinstance(a, Advantage):
            tn = c.rank(a.skill) + c.best_approach() + state.advantage_bonus(c, state.chars[a.target])[0]
            return 6 + p_success(tn) * self._lasting(state, c, a.target, c.rank(a.skill)), \
                f"creates an Advantage with {a.skill}"
        if isinstance(a, Assist):
            ally = state.chars[a.ally]
            useful = ally.plan == "harm" and not ally.acted
            return (7 + state.major_bond(c.id, ally.id)) if useful else 1, f"assists {ally.name}"
        if isinstance(a, Dash):
            return self._dash_value(state, c, a, foes)
        if isinstance(a, Stand):
            near = sum(1 for x in state.allies(c) if abs(x.position - (c.position + a.shift))
                       <= s["stand_radius"])
            return 3 + near - abs(a.shift) * 0.1, "stands ground"
        if isinstance(a, Hold):
            pos = c.position + a.shift
            if obj is not None and obj["type"] == "carry" and item is not None \
                    and item.get("holder") is None and pos == item["position"]:
                return 9, "takes up the item"
            if not foes:
                return 0, "holds"
            gap = min(abs(pos - f.position) for f in foes)
            return 2 - 0.1 * max(0, gap - state.reach(c, "blood")), "moves into position"
        if isinstance(a, Replan):
            return -1, f"waits for {a.category}"
        return 0, str(a)

    def _attackers(self, state: Any, c: Character) -> int:
        return sum(1 for x in state.allies(c) if x.plan == "harm" and not x.acted)

    def _lasting(self, state: Any, c: Character, target: str, bonus: int) -> float:
        """An Advantage lasts until an enemy removes it: worth its bonus on the attacks still to
        come this round and (less surely) in the next rounds, over what ``c`` already has on
        that target (one creator's Advantages do not add up)."""
        have = max([a["bonus"] for a in state.advantages if a["by"] == c.id
                    and target in a["targets"]] + [0])
        extra = max(0, bonus - have)
        later = len(state.allies(c)) * 1.5
        return extra * (self._attackers(state, c) + later)

    def _dash_value(self, state: Any, c: Character, a: Dash, foes: list[Character]) -> tuple[float, str]:
        s = state.settings
        pos = c.position + a.shift
        risk = 0.0
        if a.mode == "break":
            risk = 2.0 * sum(1 for f in foes if abs(f.position - c.position) <= s["aoo_radius"])
        elif a.mode == "check":
            skill = T.best_skill(c, ("acrobatics", "coordination"))
            risk = 4 * (1 - p_success(c.rank(skill) + c.best_approach()))
        obj, item = state.objective, state.item
        if obj is not None and obj["type"] == "carry" and item is not None:
            if item.get("holder") == c.id and obj["side"] == c.side:
                gain = (pos - c.position) * obj["direction"]
                return 5 + gain - risk, "carries the item"
            if item.get("holder") is None:
                return 5 - abs(pos - item["position"]) - risk, "runs for the item"
        if pos < 0 or pos > s["length"]:
            return -20, "would flee"
        if not foes:
            return 0, "moves"
        gap = min(abs(pos - f.position) for f in foes)
        return 4 - abs(gap - state.reach(c, "blood")) * 0.5 - risk, "closes in"

    # ------------------------------------------------------------------ attacks
    def _best_harm(self, state: Any, c: Character, foes: list[Character]) -> tuple[float, Harm] | None:
        best: tuple[float, Harm] | None = None
        for t in foes:
            for sk, pool in HARM_SKILLS.items():
                if state.in_range(c, t, state.reach(c, pool)):
                    h = Harm(c.id, t.id, sk)
                    v = self._harm_value(state, c, h)
                    if best is None or v > best[0]:
                        best = (v, h)
        return best

    def _harm_value(self, state: Any, c: Character, a: Harm) -> float:
        t = state.chars[a.target]
        pool = HARM_SKILLS.get(a.skill) or t.vulnerable[a.skill]
        s = state.settings
        tn = (c.rank(a.skill) + c.best_approach()
              + (s["unarmed"] if a.skill == "weaponry" and c.weapon is None else 0)
              + state.advantage_bonus(c, t)[0] + sum(b for _, b in c.assists) + c.opportunity
              - (t.armor if pool == "blood" else t.ward)
              - (s["stand_penalty"] if state.protected(t) else 0))
        if tn <= 0:
            return -1.0
        item = (c.weapon or 0) if pool == "blood" else c.talisman
        dmg = tn + item
        return p_success(tn) * dmg * (1 + self._finish(t, pool, dmg))

    @staticmethod
    def _finish(t: Character, pool: str, dmg: int) -> float:
        """How much of what keeps ``t`` standing one blow of ``dmg`` takes (0..1)."""
        left = t.pool(pool) + sum(t.approaches.values())
        return min(1.0, dmg / max(1, left))
