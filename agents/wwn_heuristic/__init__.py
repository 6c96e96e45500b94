"""The ``heuristic`` agent for WWN: goal-driven, personality-flavoured, and it says why.

It picks goals that fit the faction (:mod:`.goals`), then at each decision point takes the
choice that best advances the current goal by the values of :mod:`.tactics`. Each decision's
one-line reason is kept in ``agent.last_reason`` (the runner puts it in the event stream).

>>> from factionsim import load_campaign
>>> from factionsim.configs import default_campaign_path
>>> import numpy as np
>>> s = load_campaign(default_campaign_path())
>>> agent = HeuristicAgent(temperament="aggressive")
>>> fid = s.current_actor()
>>> a = agent.act(s.view(fid), s.legal_actions(), np.random.default_rng(0))
>>> a in s.legal_actions() and bool(agent.last_reason)
True
"""

from __future__ import annotations

from typing import Any

from factionsim.core.game import Agent, OptionSpec
from factionsim.rules.wwn import flow
from factionsim.rules.wwn import turn as T
from factionsim.rules.wwn.actions import (
    Attack,
    BaseHp,
    Bribe,
    ChooseAction,
    ChooseGoal,
    Create,
    Defend,
    Done,
    ExpandAt,
    Hide,
    KeepGoal,
    Move,
    RaiseRating,
    Repair,
    RepairFaction,
    Sell,
    UseAbility,
)
from factionsim.rules.wwn.data import XP_TO_RAISE
from factionsim.rules.wwn.economy import purchase_cost
from factionsim.rules.wwn.goals import GOALS

from . import goals as goal_ai
from .abilities import answer_reaction, choose_free_ability
from .personality import TEMPERAMENTS, Personality
from .tactics import XP, Situation, income_of, pct

__all__ = ["HeuristicAgent", "Personality"]


class HeuristicAgent(Agent):
    """Goal-driven WWN player. Options: ``temperament`` (aggressive, cautious, greedy, scheming,
    balanced; default from the faction's tags and best attribute)."""

    name = "heuristic"
    OPTIONS = {"temperament": OptionSpec(str, "how it weighs goals and risks (default: from the "
                                              "faction's tags and best attribute)",
                                         choices=TEMPERAMENTS)}

    def __init__(self, temperament: str | None = None, **options: Any):
        self.temperament = temperament
        self.options = options
        self.last_reason: str | None = None
        self._personality: dict[tuple, Personality] = {}

    # ------------------------------------------------------------------ entry point
    def act(self, view: Any, legal_actions: list[Any], rng: Any) -> Any:
        if len(legal_actions) == 1:
            self.last_reason = None
            return legal_actions[0]
        sit = Situation(view, self.personality(view.faction))
        handler = _PHASES.get(view.phase)
        choice, reason = handler(sit, legal_actions) if handler else (legal_actions[0], None)
        if choice not in legal_actions:  # defensive: never return an illegal action
            choice, reason = legal_actions[0], None
        self.last_reason = reason
        return choice

    def personality(self, faction) -> Personality:
        key = (faction.id, faction.force, faction.cunning, faction.wealth)
        if key not in self._personality:
            self._personality[key] = Personality.of(faction, self.temperament)
        return self._personality[key]

    # scores of the faction actions, for the planner's ordering
    def action_scores(self, view: Any, legal_actions: list[Any]) -> dict[Any, float]:
        sit = Situation(view, self.personality(view.faction))
        return {a: _action_value(sit, a.kind)[0] for a in legal_actions
                if isinstance(a, ChooseAction)}

    def goal_scores(self, view: Any, legal_actions: list[Any]) -> dict[Any, float]:
        sit = Situation(view, self.personality(view.faction))
        return {c: v for v, c, _ in goal_ai.rank_choices(
            sit, [a for a in legal_actions if isinstance(a, ChooseGoal)])}


def explain(agent: HeuristicAgent, view: Any, action: Any) -> str:
    """A one-line reason for a faction action or goal choice someone else (the planner) made."""
    sit = Situation(view, agent.personality(view.faction))
    if isinstance(action, ChooseAction):
        why = _action_value(sit, action.kind)[1]
        return why or f"chooses to {action.kind}"
    if isinstance(action, ChooseGoal):
        value, why = goal_ai.estimate(sit, action.goal, action.target)
        return f"sets out for {_goal_text(sit, action)}" + (f": {why}" if why else "")
    if isinstance(action, KeepGoal) and sit.goal is not None:
        return f"keeps to its goal {GOALS[sit.goal.id]} ({sit.goal.progress}/{sit.goal.needed})"
    return str(action)


def _of(legal, cls):
    return [a for a in legal if isinstance(a, cls)]


def _done(legal):
    return next((a for a in legal if isinstance(a, Done)), None)


# ====================================================================== free abilities
def _abilities(sit: Situation, legal):
    for a in _of(legal, UseAbility):
        if a.source == "imperialist":
            if sit.me.treasure >= 2 and sit.expansion_spots():
                return a, "Imperialist: plants a new Base without spending its action"
            continue
    chosen = choose_free_ability(sit, legal)
    if chosen is not None:
        return chosen
    return _done(legal), "no free ability worth using"


def _asset_name(sit, aid):
    a = sit.state.assets.get(aid)
    return sit.aname(a) if a is not None else aid


# ====================================================================== the faction action
def _action(sit: Situation, legal):
    best, best_value, best_why = None, -1e9, ""
    for a in _of(legal, ChooseAction):
        value, why = _action_value(sit, a.kind)
        if value > best_value:
            best, best_value, best_why = a, value, why
    return best, best_why


def _action_value(sit: Situation, kind: str) -> tuple[float, str]:
    g = sit.goal.id if sit.goal else ""
    goal = sit.goal_name()
    if kind == "pass":
        if g == "wealth-of-kingdoms":
            return 1.0, f"saves its Treasure: {goal}"
        return 0.0, "nothing worth doing this turn"
    if kind == "attack":
        plans = [p for a in sit.mine if (p := sit.best_attack(a)) and sit.attack_ready(p)]
        if not plans:
            return -1.0, ""
        value = sum(p.value for p in plans)
        if g == "peaceable-kingdom":
            value -= XP * (1 + sit.goal.progress)
        best = max(plans, key=lambda p: p.value)
        return value, (f"goes to war on {sit.fname(best.target)}: {_why_fight(sit)}, "
                       f"{len(plans)} blow(s) it expects to win")
    if kind == "repair":
        vals = [sit.repair_value(a, 0) for a in sit.mine if a.damaged]
        if sit.me.hp < sit.me.max_hp:
            vals.append(sit.faction_repair_value())
        value = sum(v for v in vals if v > 0)
        return value, f"mends its wounds ({sit.me.hp}/{sit.me.max_hp} HP)"
    if kind == "expand":
        spots = sit.expansion_spots()
        if not spots:
            return -1.0, ""
        safe = max(sit.expand_score(s) for s in spots)
        value = 2.0 * sit.p.greed
        if g == "expand-influence":
            value += XP * 1.2
        if g == "wealth-of-kingdoms":
            value -= 4
        value = value * min(1.0, safe) - (1 - min(1.0, safe)) * 6
        return value, f"plants a new Base: {goal}"
    if kind == "create":
        return _create_value(sit)
    if kind == "move":
        moves = _move_values(sit)
        value = sum(v for v, _, _ in moves.values() if v > 0)
        movers = len({a for a, _ in moves})
        return value, f"redeploys {movers} asset(s): {goal}"
    if kind == "hide":
        value = sum(v for v, _ in _hide_values(sit).values() if v > 0)
        return value, f"slips its agents into the shadows: {goal}"
    if kind == "sell":
        value = max((v for v, _ in _sell_values(sit).values()), default=-1.0)
        return value, "sells what it cannot keep"
    return -5.0, ""


# ====================================================================== attacking
def _attack(sit: Situation, legal):
    best, best_plan = None, None
    for a in _of(legal, Attack):
        plan = sit.attack_plan(sit.state.assets[a.asset], a.target)
        if plan and sit.attack_ready(plan) and (best_plan is None or plan.value > best_plan.value):
            best, best_plan = a, plan
    if best is None:
        return _done(legal), "no further attack it expects to win"
    d = sit.state.assets[best_plan.defender]
    kill = f", {pct(best_plan.kill)} to destroy it" if best_plan.kill >= 0.5 else ""
    return best, (f"attacks {sit.aname(d)} with its {sit.state.assets[best.asset].kind.name}: "
                  f"{_why_fight(sit)}, {pct(best_plan.chance)} to hit{kill}")


def _why_fight(sit: Situation) -> str:
    return sit.goal_name() if sit.war_goal() else "an opening too good to miss"


def _rival_attack(sit: Situation, legal):
    builder = T.acting(sit.state).id
    choice, reason = _attack(sit, legal)
    if isinstance(choice, Attack):
        return choice, f"strikes at {sit.fname(builder)}'s new Base: " + reason.split(": ", 1)[-1]
    return choice, f"lets {sit.fname(builder)}'s new Base stand"


def _defend(sit: Situation, legal):
    pending = sit.view.decision["pending"]
    attacker = sit.state.assets[pending["attacker"]]
    best = min(_of(legal, Defend),
               key=lambda d: (sit.defence_loss(attacker, sit.state.assets[d.asset]), d.asset))
    d = sit.state.assets[best.asset]
    return best, f"sends its {d.kind.name} to meet {sit.aname(attacker)}: the smallest loss"


# ====================================================================== moving
def _move_values(sit: Situation) -> dict[tuple[str, str], tuple[float, str, Any]]:
    """(asset, destination) -> (value, reason, _) for each useful move."""
    state = sit.state
    g = sit.goal
    out: dict[tuple[str, str], tuple[float, str, Any]] = {}
    spots = sit.good_expansion_spots()
    hostile_base_locs = {b.location for b in sit.hostile_bases()}
    for a in sit.mine:
        if a.is_base:
            continue
        from factionsim.rules.wwn.movement import destinations, forbids

        here_plan = sit.best_attack(a)
        here = here_plan.value if sit.attack_ready(here_plan) else 0.0
        exposed = forbids(state, a.location, a)
        for dest in destinations(state, a):
            value, why = -0.5, ""
            if exposed:
                value = sit.asset_value(a) * 0.6
                why = f"pulls its {a.kind.name} out of hostile ground"
            if g and g.id == "expand-influence" and not spots and not sit.base_here(dest):
                v = XP * (0.6 if sit.hostile_present(dest) else 0.9)
                if v > value:
                    value = v
                    why = f"sends its {a.kind.name} to {sit.place(dest)}: Expand Influence"
            if g and g.id == "inside-enemy-territory" and a.stealth and dest in hostile_base_locs \
                    and a.location not in hostile_base_locs:
                v = XP * 2 / max(1, g.needed)
                if v > value:
                    value, why = v, (f"slips its hidden {a.kind.name} into {sit.place(dest)}: "
                                     f"Inside Enemy Territory")
            if a.kind.can_attack_normally and sit.war_goal():
                plan = sit.best_attack(a, dest)
                if plan and sit.attack_ready(plan):
                    v = 0.4 * plan.value - here  # a blow next turn, not this one
                    if g.id == "root-out-the-enemy" and dest == g.target.partition("@")[2]:
                        v += XP * 0.5
                    if v > value:
                        value, why = v, (f"marches its {a.kind.name} on {sit.place(dest)}: "
                                         f"{sit.goal_name()}")
            if value > 0:
                out[(a.id, dest)] = (value, why, None)
    return out


def _move(sit: Situation, legal):
    values = _move_values(sit)
    best, best_v, why = None, 0.0, ""
    for m in _of(legal, Move):
        v = values.get((m.asset, m.destination))
        if v and v[0] > best_v:
            best, best_v, why = m, v[0], v[1]
    if best is None:
        return _done(legal), "no other move serves its goal"
    return best, why


# ====================================================================== repairs
def _repair(sit: Situation, legal):
    fixes = sit.view.decision.get("fixes", {})
    best, best_v, why = None, 0.0, ""
    for r in legal:
        if isinstance(r, Repair):
            a = sit.state.assets[r.asset]
            v = sit.repair_value(a, fixes.get(a.id, 0))
            text = f"repairs its {a.kind.name} ({a.hp}/{a.max_hp} HP)"
        elif isinstance(r, RepairFaction):
            v = sit.faction_repair_value()
            text = f"restores its own strength ({sit.me.hp}/{sit.me.max_hp} HP)"
        else:
            continue
        if v > best_v:
            best, best_v, why = r, v, text
    if best is None:
        return _done(legal), "the rest can wait"
    return best, why


# ====================================================================== expanding
def _expand_where(sit: Situation, legal):
    best = max(_of(legal, ExpandAt), key=lambda e: (sit.expand_score(e.location), e.location))
    return best, f"founds a Base at {sit.place(best.location)}: {sit.goal_name()}"


def _expand_hp(sit: Situation, legal):
    loc = sit.view.decision["expand"]
    threat = sit.threat_to(loc)
    hps = sorted(b.hp for b in _of(legal, BaseHp))
    reserve = 0 if sit.p.greed < 1.2 else 2
    want = max(1, round(threat * 1.5) + 1) if threat else (2 if sit.p.caution > 1.2 else 1)
    if want > sit.me.treasure - reserve:  # it could not hold anyway: risk as little as possible
        return BaseHp(1), "gives it a single HP: it could not hold against the rivals close by"
    want = min(want, hps[-1])
    choice = BaseHp(max(h for h in hps if h <= want))
    return choice, (f"gives it {choice.hp} HP" + (" against the rivals close by" if threat
                                                    else ", enough for quiet ground"))


# ====================================================================== buying
def _create_value(sit: Situation) -> tuple[float, str]:
    opts = T._create_options(sit.state) if T.acting(sit.state).id == sit.fid else []
    if not opts:
        return -1.0, ""
    best = max(opts, key=lambda c: sit.purchase_value(c.asset_type, c.location))
    value = min(12.0, 0.35 * sit.purchase_value(best.asset_type, best.location))  # an investment
    g = sit.goal.id if sit.goal else ""
    if g == "wealth-of-kingdoms":
        value -= 6 * sit.p.greed
    return value, f"buys {sit.state.asset_types[best.asset_type].name}: {sit.goal_name()}"


def _create(sit: Situation, legal):
    best = max(_of(legal, Create),
               key=lambda c: (sit.purchase_value(c.asset_type, c.location), c.asset_type))
    kind = sit.state.asset_types[best.asset_type]
    what = "a blade for its goal" if sit.war_goal() and kind.can_attack_normally else \
        "hidden hands" if kind.subtle and sit.goal and sit.goal.id == "inside-enemy-territory" \
        else "its best value for the Treasure"
    cost = purchase_cost(sit.state, sit.me, kind, best.location)
    return best, (f"buys {kind.name} at {sit.place(best.location)} for {cost} Treasure: "
                  f"{sit.goal_name()}, {what}")


# ====================================================================== hiding and selling
def _hide_values(sit: Situation) -> dict[str, tuple[float, str]]:
    out = {}
    g = sit.goal
    for a in sit.mine:
        if a.is_base or a.stealth:
            continue
        if any(b.is_base and b.owner != sit.fid for b in sit.by_loc.get(a.location, ())):
            continue
        v = -2.0
        if g and g.id == "inside-enemy-territory":
            v = XP * 2 / max(1, g.needed) - 2
        elif sit.threat_to(a.location) >= a.hp:
            v = sit.asset_value(a) * 0.4 * sit.p.caution - 2
        out[a.id] = (v, f"hides its {a.kind.name}")
    return out


def _hide(sit: Situation, legal):
    values = _hide_values(sit)
    best = max(_of(legal, Hide), key=lambda h: values.get(h.asset, (-9, ""))[0], default=None)
    if best is None or values.get(best.asset, (-9, ""))[0] <= 0 or sit.me.treasure < 2:
        return _done(legal), "hides nothing more"
    return best, values[best.asset][1] + f": {sit.goal_name()}"


def _sell_values(sit: Situation) -> dict[str, tuple[float, str]]:
    out = {}
    counts: dict[str, list] = {}
    for a in sit.mine:
        if not a.is_base:
            counts.setdefault(a.attribute, []).append(a)
    for attr, owned in counts.items():
        excess = len(owned) - sit.me.rating(attr)
        for a in sorted(owned, key=lambda x: sit.asset_value(x))[:max(0, excess)]:
            gain = 0 if a.damaged else a.kind.cost // 2
            out[a.id] = (1.0 + gain, "sells an asset it cannot upkeep")
    return out


def _sell(sit: Situation, legal):
    values = _sell_values(sit)
    for s in _of(legal, Sell):
        if s.asset in values:
            return s, f"sells its {sit.state.assets[s.asset].kind.name}: more than it can upkeep"
    return _done(legal), "sells nothing more"


# ====================================================================== goals and XP
def _goal(sit: Situation, legal):
    me, g = sit.me, sit.goal
    bribe = next((a for a in legal if isinstance(a, Bribe)), None)
    if bribe is not None and g is not None:
        remaining = g.needed - g.progress
        if bribe.amount >= remaining or me.treasure >= 2 * income_of(me):
            return bribe, (f"spends {bribe.amount} Treasure on bribes and influence: "
                           f"Wealth of Kingdoms ({g.progress + bribe.amount}/{g.needed})")
    choices = _of(legal, ChooseGoal)
    keep = next((a for a in legal if isinstance(a, KeepGoal)), None)
    if keep is not None:
        why_drop = goal_ai.hopeless(sit)
        ranked = goal_ai.rank_choices(sit, choices) if why_drop else []
        if not why_drop or not ranked or ranked[0][0] <= 0:
            return keep, f"keeps to its goal {GOALS[g.id]} ({g.progress}/{g.needed})"
        value, choice, why = ranked[0]
        return choice, (f"abandons {GOALS[g.id]} ({why_drop}) for {_goal_text(sit, choice)}: "
                        f"{why}")
    ranked = goal_ai.rank_choices(sit, choices)
    value, choice, why = ranked[0]
    return choice, f"sets out for {_goal_text(sit, choice)}: {why}" if why else \
        f"sets out for {_goal_text(sit, choice)}"


def _goal_text(sit: Situation, c: ChooseGoal) -> str:
    name = GOALS[c.goal]
    if c.goal == "eliminate-target" and c.target in sit.state.assets:
        return f"{name} ({sit.aname(sit.state.assets[c.target])})"
    if c.goal == "root-out-the-enemy":
        owner, _, loc = c.target.partition("@")
        return f"{name} ({sit.fname(owner)} at {sit.place(loc)})"
    return name + (f" ({c.target})" if c.target else "")


def _raise(sit: Situation, legal):
    raises = {r.attribute: r for r in _of(legal, RaiseRating)}
    focus = sit.p.focus
    if focus in raises:
        return raises[focus], f"raises its {focus.title()}, the heart of its power"
    me = sit.me
    focus_next = me.rating(focus) + 1
    blocked = focus_next > 8 or not T.can_raise(_with_xp(me, 99), focus)
    if raises and blocked:
        attr = min(raises, key=lambda a: XP_TO_RAISE[me.rating(a) + 1])
        return raises[attr], f"raises its {attr.title()}"
    return _done(legal), "saves its experience"


def _with_xp(f, xp):
    from dataclasses import replace

    return replace(f, xp=xp)


_PHASES = {
    T.ABILITIES: _abilities, T.ACTION: _action, T.ATTACK: _attack, T.DEFEND: _defend,
    T.MOVE: _move, T.REPAIR: _repair, T.EXPAND_WHERE: _expand_where, T.EXPAND_HP: _expand_hp,
    T.RIVAL_ATTACK: _rival_attack, T.CREATE: _create, T.HIDE: _hide, T.SELL: _sell,
    T.GOAL: _goal, T.RAISE: _raise, flow.REACT: answer_reaction,
}
