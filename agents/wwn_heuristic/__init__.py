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
from factionsim.core.prose import plural
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
from factionsim.rules.wwn.goals import goal_name

from . import goals as goal_ai
from . import homebrew as hb_goals
from .abilities import NET_INCOME, answer_reaction, choose_free_ability
from .personality import TEMPERAMENTS, Personality
from .steering import STEERING_OPTIONS, Steering
from .tactics import XP, Situation, income_of, pct
from .tuning import KEPT_TUNINGS, ReadingTuning, Tuning

__all__ = ["HeuristicAgent", "Personality", "Steering"]


class HeuristicAgent(Agent):
    """Goal-driven WWN player. Options: ``temperament`` (aggressive, cautious, greedy, scheming,
    balanced; default from the faction's tags and best attribute) and the steering options of
    :mod:`.steering` (``focus``, ``enemy``, ``protect``, ``avoid``, ``story``)."""

    name = "heuristic"
    OPTIONS = {"temperament": OptionSpec(str, "how it weighs goals and risks (default: from the "
                                              "faction's tags and best attribute)",
                                         choices=TEMPERAMENTS),
               **STEERING_OPTIONS}

    def __init__(self, temperament: str | None = None, *, tuning: Tuning | ReadingTuning | None = None,
                 **options: Any):
        self.temperament = temperament
        self.tuning = tuning  # learned shifts of its weights (:mod:`.tuning`); None: none
        self.steering = Steering.of(options)
        self.options = options
        self.last_reason: str | None = None
        self._personality: dict[tuple, Personality] = {}

    # ------------------------------------------------------------------ entry point
    def situation(self, view: Any) -> Situation:
        """What it knows at this decision (its personality and steering included)."""
        return Situation(view, self.personality(view.faction, view), self.steering)

    def act(self, view: Any, legal_actions: list[Any], rng: Any) -> Any:
        if len(legal_actions) == 1:
            self.last_reason = None
            return legal_actions[0]
        sit = self.situation(view)
        handler = _PHASES.get(view.phase)
        choice, reason = handler(sit, legal_actions) if handler else (legal_actions[0], None)
        if choice not in legal_actions:  # defensive: never return an illegal action
            choice, reason = legal_actions[0], None
        self.last_reason = reason
        return choice

    def temperament_of(self, faction) -> str:
        """The temperament it plays ``faction`` with (the option, else from the faction; a
        tuning keeps it)."""
        return Personality.of(faction, self.temperament).temperament

    def personality(self, faction, view: Any = None) -> Personality:
        """How it weighs things for ``faction``: its temperament's weights, shifted by its
        tuning at ``view``'s decision (a tuning that reads the faction's place needs the view)."""
        tuning = self.tuning.at(view) if self.tuning is not None else None
        key = (faction.id, faction.force, faction.cunning, faction.wealth, tuning)
        if key not in self._personality:
            if len(self._personality) >= KEPT_TUNINGS:  # (a reading tuning meets many)
                self._personality.clear()
            own = Personality.of(faction, self.temperament)
            self._personality[key] = tuning.apply(own) if tuning else own
        return self._personality[key]

    # scores of the faction actions, for the planner's ordering
    def action_scores(self, view: Any, legal_actions: list[Any]) -> dict[Any, float]:
        """The Faction Actions worth considering (those that would do something and the
        steering allows, and ``pass``) and their values."""
        sit = self.situation(view)
        out = {}
        for a in legal_actions:
            if isinstance(a, ChooseAction):
                if a.kind == "pass":
                    out[a] = 0.0
                elif not sit.steer.avoids(a.kind):
                    value, _, useful = _action_value(sit, a.kind)
                    if useful:
                        out[a] = value
        return out

    def goal_scores(self, view: Any, legal_actions: list[Any]) -> dict[Any, float]:
        """The goal choices the steering allows and their values (XP points per turn)."""
        sit = self.situation(view)
        return {c: v for v, c, _ in goal_ai.rank_choices(
            sit, [a for a in legal_actions if isinstance(a, ChooseGoal)])}

    def goal_verdict(self, view: Any, legal_actions: list[Any]) -> Any:
        """What this heuristic would do with its current goal at the goal step: the
        :class:`KeepGoal` (or :class:`Bribe`) it would keep with, or the choice it would switch
        to; ``None`` without a current goal."""
        sit = self.situation(view)
        if sit.goal is None:
            return None
        return _goal(sit, legal_actions)[0]


def explain(agent: HeuristicAgent, view: Any, action: Any) -> str:
    """A one-line reason for a faction action or goal choice someone else (the planner) made."""
    sit = agent.situation(view)
    if isinstance(action, ChooseAction):
        if action.kind == "pass":
            return _pass_reason(sit)
        why = _action_value(sit, action.kind)[1]
        return why or f"chooses to {action.kind}"
    if isinstance(action, ChooseGoal):
        e = goal_ai.estimate(sit, action.goal, action.target)
        text = f"sets out for {_goal_text(sit, action)}" + (f": {e.why}" if e.why else "")
        if sit.goal is not None:
            text = f"abandons {goal_name(sit.state, sit.goal.id)} and " + text
        return text + _steer_note(sit, action)
    if isinstance(action, KeepGoal) and sit.goal is not None:
        return f"keeps to its goal {_keeps(sit)}"
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
    chosen = choose_free_ability(sit, legal) \
        or hb_goals.transport_choice(sit, legal, lambda: _move_values(sit))
    if chosen is not None:
        return chosen
    return _done(legal), "no free ability worth using"


def _asset_name(sit, aid):
    a = sit.state.asset(aid)
    return sit.aname(a) if a is not None else aid


# ====================================================================== the faction action
def _action(sit: Situation, legal):
    """The most valuable Faction Action among those that would *do* something (a Move with
    somewhere worth going, an Attack worth making...) and the steering allows. When none
    is worth its cost, a deliberate pass with its reason (saving for a named purchase, lying low
    before a stronger rival, bribing for Wealth of Kingdoms)."""
    best, best_value, best_why = None, -1e9, ""
    for a in _of(legal, ChooseAction):
        if a.kind == "pass" or sit.steer.avoids(a.kind):
            continue
        value, why, useful = _action_value(sit, a.kind)
        if useful and value > best_value:
            best, best_value, best_why = a, value, why
    wait = _pass_value(sit)
    if best is not None and best_value > max(0.0, sit.p.weigh("pass", wait[0])):
        return best, best_why
    return ChooseAction("pass"), wait[1]


def _pass_value(sit: Situation) -> tuple[float, str]:
    """What passing is worth and why: saving for bribes or a purchase close at hand pays."""
    g = sit.goal.id if sit.goal else ""
    if g == "wealth-of-kingdoms":
        return 1.0, _saving_for_bribes(sit)
    want = goal_ai.purchase_for(sit)
    if want is not None and want[2] <= 2:
        kind, cost, wait = want
        return 0.5, (f"saves its Treasure for {kind.name} ({sit.me.treasure}/{cost}, "
                     f"{plural(wait, 'turn of income', 'turns of income')} away)")
    return 0.0, _pass_reason(sit)


def _saving_for_bribes(sit: Situation) -> str:
    """Why a Wealth of Kingdoms faction keeps its Treasure (with the goal's progress)."""
    return f"saves its Treasure ({sit.me.treasure}) for bribes and influence{_progress(sit)}"


def _pass_reason(sit: Situation) -> str:
    """Why a faction passes when nothing is worth doing: it names what it waits for."""
    g = sit.goal.id if sit.goal else ""
    if g == "wealth-of-kingdoms":
        return _saving_for_bribes(sit)
    want = goal_ai.purchase_for(sit)
    if want is not None:
        kind, cost, wait = want
        return f"saves its Treasure for {kind.name} ({sit.me.treasure}/{cost})"
    threat = max(((sit.threat_to(a.location), a.location) for a in sit.mine if a.is_base),
                 default=(0.0, ""))
    if threat[0] >= 1:
        rivals = sorted({e.owner for e in sit.hostile_present(threat[1])})
        return (f"lies low: {', '.join(sit.fname(r) for r in rivals)} would punish any move it "
                f"could make")
    if goal_ai.no_room_to_grow(sit):
        return ("banks its Treasure: it holds every asset its ratings allow and a Base wherever "
                "its assets stand, and waits for the experience to raise a rating")
    return "holds its hand: every action open to it would cost more than it gains"


def _action_value(sit: Situation, kind: str) -> tuple[float, str, bool]:
    """(value, reason, useful) of Faction Action ``kind``: ``useful`` is False when taking it
    would change nothing (no move worth making, no attack worth making...). The value is as the
    faction's personality weighs it (a tuning's factor, :mod:`.tuning`)."""
    value, why, useful = _plain_action_value(sit, kind)
    return sit.p.weigh(kind, value), why, useful


def _plain_action_value(sit: Situation, kind: str) -> tuple[float, str, bool]:
    """:func:`_action_value` before the personality's factor."""
    g = sit.goal.id if sit.goal else ""
    if kind == "pass":
        value, why = _pass_value(sit)
        return value, why, True
    if kind == "attack":
        plans = [p for a in sit.mine if (p := sit.best_attack(a)) and sit.attack_ready(p)]
        if not plans:
            return -1.0, "", False
        value = sum(p.value for p in plans)
        if g == "peaceable-kingdom":
            value -= XP * (1 + sit.goal.progress)
        best = max(plans, key=lambda p: p.value)
        return value, (f"goes to war on {sit.fname(best.target)}: {_why_fight(sit, best.target)}, "
                       f"{plural(len(plans), 'blow')} worth striking"), True
    if kind == "repair":
        damaged = [a for a in sit.mine if a.damaged]
        vals = [sit.repair_value(a, 0) for a in damaged]
        assets = plural(len(damaged), "damaged asset")
        if sit.me.hp < sit.me.max_hp:
            vals.append(sit.faction_repair_value())
            why = f"mends its wounds ({sit.me.hp}/{sit.me.max_hp} HP)" + (
                f" and {assets}" if damaged else "")
        else:  # (whole itself: only its assets need mending)
            why = f"repairs {assets}"
        value = sum(v for v in vals if v > 0)
        return value, why, value > 0
    if kind == "expand":
        spots = sit.expansion_spots()
        if not spots:
            return -1.0, "", False
        safe = max(sit.plant_score(s) for s in spots)
        value = 2.0 * sit.p.greed
        if g == "expand-influence":
            value += XP * 1.2
        if g == "wealth-of-kingdoms":
            value -= 4
        value = value * min(1.0, safe) - (1 - min(1.0, safe)) * 6
        where = sit.place(max(spots, key=lambda s: (sit.plant_score(s), s)))
        return value, (f"plants a new Base: {where} looks safe enough"
                       + (f", and new Bases are what it is after{_progress(sit)}"
                          if g == "expand-influence" else "")), True
    if kind == "create":
        return _create_value(sit)
    if kind == "move":
        moves = _move_values(sit)
        if not moves:
            return 0.0, "", False
        value = sum(_best_per_asset(moves).values())
        # the move :func:`_move` makes first: the best value, the first such in the legal order
        # (the order ``_move_values`` lists them in), so the reason names the move that follows
        _, why, _ = max(moves.values(), key=lambda v: v[0])
        return value, f"redeploys: {why}", True
    if kind == "hide":
        worth = [(v, why) for v, why in _hide_values(sit).values() if v > 0]
        value = sum(v for v, _ in worth[:sit.me.treasure // 2])
        return value, (f"has {plural(len(worth), 'asset')} worth hiding; first, it {worth[0][1]}" if worth
                       else "nothing worth hiding"), value > 0 and sit.me.treasure >= 2
    if kind == "sell":
        values = _sell_values(sit)
        value = max((v for v, _ in values.values()), default=-1.0)
        return value, "sells what it cannot keep", bool(values)
    return -5.0, "", False


def _best_per_asset(moves: dict) -> dict[str, float]:
    """Each asset's best move value (an asset moves once per action)."""
    best: dict[str, float] = {}
    for (asset, _), (v, _, _) in moves.items():
        best[asset] = max(best.get(asset, 0.0), v)
    return best


# ====================================================================== attacking
def _attack(sit: Situation, legal):
    best, best_plan = None, None
    for a in _of(legal, Attack):
        if a.target not in sit.target_ids:
            continue
        plan = sit.attack_plan(sit.state.asset(a.asset), a.target)
        if plan and sit.attack_ready(plan) and (best_plan is None or plan.value > best_plan.value):
            best, best_plan = a, plan
    if best is None:
        return _done(legal), "no further attack worth making"
    d = sit.state.asset(best_plan.defender)
    kill = f", {pct(best_plan.kill)} to destroy it" if best_plan.kill >= 0.5 else ""
    return best, (f"attacks {sit.aname(d)} with its {sit.state.asset(best.asset).kind.name}: "
                  f"{_why_fight(sit, best.target)}, {pct(best_plan.chance)} to hit{kill}")


def _why_fight(sit: Situation, target: str | None = None) -> str:
    """Why a blow at ``target`` now: the GM's sworn enemy, what its war goal wants (with its
    progress), a faction that threatens its friends, a rival, else the opening."""
    if target is not None and target == sit.steer.enemy:
        return f"{sit.fname(target)} is its sworn enemy"
    if sit.war_goal():
        return _war_goal_why(sit)
    if target in sit.shared_enemy_ids:
        return f"{sit.fname(target)} threatens its friends"
    if target in sit.rival_ids:
        return f"{sit.fname(target)} is its rival"
    return "an opening worth taking"


def _war_goal_why(sit: Situation) -> str:
    """What its war goal wants, in words (not the goal's name again), with its progress."""
    g = sit.goal
    why = {"blood-the-enemy": "every point of damage to its enemies counts",
           "destroy-the-foe": f"it means to bring down {sit.fname(g.target)}"
           if g.target in sit.state.factions else "it means to bring down its foe",
           "eliminate-target": "it has marked "
           + (sit.aname(sit.state.asset(g.target)) if sit.state.asset(g.target) is not None
              else "an asset") + " for destruction",
           "invincible-valor": "it wants to beat a stronger foe",
           "root-out-the-enemy": "it wants the Base at "
           + (sit.place(loc) if (loc := (g.target or "").partition("@")[2])
              in sit.state.map.locations else "its enemy's ground") + " gone",
           "sphere-dominance": "it wants its rivals out of its sphere"}.get(g.id, "its war")
    return why + _progress(sit)


def _keeps(sit: Situation) -> str:
    """``Blood the Enemy (3/16)``: the goal kept and its progress as the rules count it now."""
    progress, needed = goal_ai.progress_now(sit)
    return f"{goal_name(sit.state, sit.goal.id)} ({progress}/{needed})"


def _progress(sit: Situation) -> str:
    """`` (2/6 so far)`` for a goal that counts its progress (as the rules count it now:
    :func:`goals.progress_now`), else nothing."""
    progress, needed = goal_ai.progress_now(sit)
    return f" ({progress}/{needed} so far)" if needed else ""


def _rival_attack(sit: Situation, legal):
    builder = sit.state.acting().id
    if builder not in sit.target_ids:  # an ally, a neutral or a faction it protects
        relation = ("it protects them" if builder == sit.steer.protect
                    else f"they are {sit.state.relation(sit.fid, builder)}")
        return _done(legal), f"lets {sit.fname(builder)}'s new Base stand: {relation}"
    choice, reason = _attack(sit, legal)
    if isinstance(choice, Attack):
        return choice, f"strikes at {sit.fname(builder)}'s new Base: " + reason.split(": ", 1)[-1]
    return choice, f"lets {sit.fname(builder)}'s new Base stand"


def _defend(sit: Situation, legal):
    pending = sit.view.decision["pending"]
    attacker = sit.state.asset(pending["attacker"])
    if attacker is None:  # a Stealthed attacker it cannot see: its sturdiest asset meets it
        best = max(_of(legal, Defend), key=lambda d: (sit.state.asset(d.asset).hp, d.asset))
        d = sit.state.asset(best.asset)
        return best, f"sends its {d.kind.name} to meet an unseen attacker: its sturdiest asset"
    best = min(_of(legal, Defend),
               key=lambda d: (sit.defence_loss(attacker, sit.state.asset(d.asset)), d.asset))
    d = sit.state.asset(best.asset)
    return best, f"sends its {d.kind.name} to meet {sit.aname(attacker)}: the smallest loss"


# ====================================================================== moving
def _move_values(sit: Situation) -> dict[tuple[str, str], tuple[float, str, Any]]:
    """(asset, destination) -> (value, reason, _) for each move worth making."""
    state = sit.state
    g = sit.goal
    out: dict[tuple[str, str], tuple[float, str, Any]] = {}
    spots = sit.good_expansion_spots()
    inside = g is not None and g.id == "inside-enemy-territory"
    routes = {r.asset: r for r in goal_ai.inside_routes(sit)[2]} if inside else {}
    # Treasure with nothing left to buy and no war to wage: an asset walks to new ground, where
    # the faction can plant its next Base (by the Expand action, or for Expand Influence)
    grower = _nearest_to_new_ground(sit) \
        if not sit.war_goal() and goal_ai.no_room_to_grow(sit) else None
    for a in sit.mine:
        if a.is_base or not state.usable(a):
            continue
        if inside and goal_ai._counts_inside(sit, a):
            continue  # it already counts where it stands
        here_plan = sit.best_attack(a)
        here = here_plan.value if sit.attack_ready(here_plan) else 0.0
        exposed = state.forbids(a.location, a)
        dests = state.destinations(a)
        sneak = _sneak(sit, a, routes.get(a.id), dests)
        march = _march(sit, a, dests) if here <= 0 else None
        new_ground = _toward_new_ground(sit, a, dests) \
            if (hb_goals.expanding(sit) or a.id == grower) and not spots else None
        hold = hb_goals.toward_hold(sit, a, dests)
        for dest in dests:
            value, why = -0.5, ""
            if exposed:
                value = sit.asset_value(a) * 0.6
                why = f"pulls its {a.kind.name} out of hostile ground"
            if hb_goals.expanding(sit) and not spots and not sit.base_here(dest):
                v = XP * (0.6 if sit.hostile_present(dest) else 0.9)
                if v > value:
                    value = v
                    why = f"sends its {a.kind.name} to {sit.place(dest)}, ground for a new Base"
            elif new_ground is not None and dest == new_ground[0] and new_ground[1] > value:
                value, why = new_ground[1], new_ground[2]
            if sneak is not None and dest == sneak[0] and sneak[1] > value:
                value, why = sneak[1], sneak[2]
            if hold is not None and dest == hold[0] and XP * hold[1] > value:
                value, why = XP * hold[1], hold[2]
            if a.kind.can_attack_normally and (sit.war_goal() or sit.shared_enemy_ids
                                               or sit.steer.enemy in sit.target_ids) \
                    and not (a.stealth and inside):
                plan = sit.best_attack(a, dest)
                if plan and sit.attack_ready(plan) and (
                        sit.war_goal() or plan.target in sit.shared_enemy_ids
                        or plan.target == sit.steer.enemy):
                    v = 0.4 * plan.value - here  # a blow next turn, not this one
                    if g.id == "root-out-the-enemy" and dest == g.target.partition("@")[2]:
                        v += XP * 0.5
                    if v > value:
                        value, why = v, _march_why(sit, a, dest, plan)
            if march is not None and dest == march[0] and march[1] > value:
                value, why = march[1], march[2]
            if value > 0:
                out[(a.id, dest)] = (value, why, None)
    return out


def _march_why(sit: Situation, asset, dest: str, plan) -> str:
    """``marches its Knights on the Ford to strike the Reed Cult's Militia next turn (64% to
    hit): ...``: where, whom, the odds and why (:func:`_why_fight`)."""
    target = plan.defender if isinstance(plan.defender, str) else None
    prey = (f"strike {sit.aname(sit.state.asset(target))} next turn"
            if sit.state.asset(target) is not None else "strike next turn")
    return (f"marches its {asset.kind.name} on {sit.place(dest)} to {prey} "
            f"({pct(plan.chance)} to hit): {_why_fight(sit, plan.target)}")


def _nearest_to_new_ground(sit: Situation) -> str | None:
    """The asset that could reach a place with no Base of ours in the fewest moves (None when
    none can): the one a faction with nothing left to buy sends to new ground."""
    best = min(((sit.steps_to(a, loc), a.id) for a in sit.mine
                if not a.is_base and sit.state.usable(a)
                for loc in sit.state.map.locations if not sit.base_here(loc)),
               default=(float("inf"), None))
    return best[1] if 0 < best[0] < float("inf") else None


def _toward_new_ground(sit: Situation, asset, dests: list[str]) -> tuple[str, float, str] | None:
    """``(destination, value, reason)`` of the step that brings ``asset`` closer to the nearest
    place with no Base of ours (for Expand Influence), or None."""
    ground = sorted((sit.steps_to(asset, loc), loc) for loc in sit.state.map.locations
                    if not sit.base_here(loc))
    ground = [g for g in ground if 0 < g[0] < float("inf")]
    if not ground:
        return None
    steps, loc = ground[0]
    dest = sit.next_step(asset, loc, dests)
    if dest is None:
        return None
    if not hb_goals.expanding(sit):  # (growing: see _move_values)
        return dest, XP * 0.3 / steps, (f"sends its {asset.kind.name} towards "
                                        f"{sit.place(loc)}, new ground for its next Base: its "
                                        f"Treasure has nothing else to buy")
    return dest, XP * 0.6 / steps, (f"sends its {asset.kind.name} towards {sit.place(loc)}, "
                                    f"new ground for a Base{_progress(sit)}")


def _march(sit: Situation, asset, dests: list[str]) -> tuple[str, float, str] | None:
    """``(destination, value, reason)`` of the step that brings ``asset`` (an attacker with no
    blow worth striking where it stands) closer to what its war goal wants struck, or to the
    GM's ``enemy``; None when there is nothing to march on. Only prey it would strike once
    there counts (one it may strike at all, with a blow worth making against the defender its
    owner would send there): marching on the others, it found no blow on arrival, marched on
    to other prey and back, turn after turn (a shuffle, issue 24)."""
    if not asset.kind.can_attack_normally or (asset.stealth and sit.goal is not None
                                              and sit.goal.id == "inside-enemy-territory"):
        return None
    prey = goal_ai.war_prey(sit, sit.goal.id, sit.goal.target) if sit.war_goal() else []
    if not prey and sit.steer.enemy in sit.target_ids:
        prey = [e for e in sit.enemies if e.owner == sit.steer.enemy and not e.stealth]
    reachable = sorted((sit.steps_to(asset, e.location), e.location, e.id) for e in prey
                       if sit.state.can_defend(e, asset))  # prey it may strike at all
    reachable = [r for r in reachable if 0 < r[0] < float("inf") and sit.attack_ready(
        sit.attack_plan(asset, sit.state.asset(r[2]).owner, r[1]))]
    if not reachable:
        return None
    steps, location, target = reachable[0]
    dest = sit.next_step(asset, location, dests)
    if dest is None:
        return None
    prey_asset = sit.state.asset(target)
    return dest, XP * 0.3 / steps, (f"marches its {asset.kind.name} towards {sit.aname(prey_asset)}"
                                    f" at {sit.place(location)}: "
                                    f"{_why_fight(sit, prey_asset.owner)}")


def _sneak(sit: Situation, asset, route, dests: list[str]) -> tuple[str, float, str] | None:
    """``(destination, value, reason)`` of the step an asset takes on its route to count for
    Inside Enemy Territory (:func:`goals.inside_routes`): to the place it can hide in first, or,
    Stealthed, into enemy ground; None when it has no route or is where it must hide."""
    if route is None:
        return None
    g = sit.goal
    share = XP * 2 / max(1, g.needed)
    if route.hide_at is not None:
        if route.hide_at == asset.location:
            return None  # it hides here (the Hide action)
        dest = sit.next_step(asset, route.hide_at, dests)
        return None if dest is None else (
            dest, share * 0.4, f"takes its {asset.kind.name} towards {sit.place(route.hide_at)}, "
                               f"where it can hide before it slips among its enemies' Bases")
    dest = _closer(sit, asset.location, route.target, dests)
    if dest is None:
        return None
    arrive = dest == route.target
    return dest, share * (1.0 if arrive else 0.6), (
        f"slips its hidden {asset.kind.name} " + ("into" if arrive else "towards")
        + f" {sit.place(dest if arrive else route.target)}, among its enemies' Bases"
        + _progress(sit))


def _closer(sit: Situation, here: str, target: str, dests: list[str]) -> str | None:
    """The destination nearest ``target`` on the map, if nearer than ``here``."""
    dist = sit.state.map.distance
    best = min(dests, key=lambda d: (dist(d, target), d), default=None)
    return best if best is not None and dist(best, target) < dist(here, target) else None


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
            a = sit.state.asset(r.asset)
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
    best = max(_of(legal, ExpandAt), key=lambda e: (sit.plant_score(e.location), e.location))
    return best, (f"founds a Base at {sit.place(best.location)}: "
                  f"{pct(min(1.0, sit.expand_score(best.location)))} likely to stand")


def _expand_hp(sit: Situation, legal):
    loc = sit.view.decision["expand"]
    threat = sit.threat_to(loc)
    hps = sorted(b.hp for b in _of(legal, BaseHp))
    least, most = sit.p.base_hp
    reserve = 2 if least else 0
    want = max(1, round(threat * 1.5) + 1) if threat else (2 if sit.p.caution > 1.2 else 1)
    if least:  # a greedy faction builds to last: a Base keeps the Treasure paid for its HP as
        # long as it stands, and a sturdier one stands longer: up to half its spare Treasure
        want = max(want, least, min(most, (sit.me.treasure - reserve) // 2))
    if want > sit.me.treasure - reserve:  # it could not hold anyway: risk as little as possible
        return BaseHp(1), "gives it a single HP: it could not hold against the rivals close by"
    want = min(want, hps[-1])
    choice = BaseHp(max(h for h in hps if h <= want))
    why = (" against the rivals close by" if threat else ", enough for quiet ground")
    if least and choice.hp > least:
        why = ": built to last, a Base keeps the Treasure paid for its HP while it stands"
    return choice, f"gives it {choice.hp} HP{why}"


# ====================================================================== buying
def _create_value(sit: Situation) -> tuple[float, str, bool]:
    offers = [(kind, base.location) for base in sit.mine if base.is_base
              for kind, cost in sit.offers(base.location)
              if cost <= sit.me.treasure] if sit.state.acting().id == sit.fid else []
    if not offers:
        return -1.0, "", False
    kind, location = max(offers, key=lambda o: sit.purchase_value(o[0].id, o[1]))
    value = min(12.0, 0.35 * sit.purchase_value(kind.id, location))  # an investment
    g = sit.goal.id if sit.goal else ""
    if g == "wealth-of-kingdoms":
        value -= 6 * sit.p.greed
    return value, f"buys {kind.name}: {_purchase_why(sit, kind)}", True


def _create(sit: Situation, legal):
    best = max(_of(legal, Create),
               key=lambda c: (sit.purchase_value(c.asset_type, c.location), c.asset_type))
    kind = sit.state.asset_types[best.asset_type]
    cost = sit.state.purchase_cost(sit.me, kind, best.location)
    return best, (f"buys {kind.name} at {sit.place(best.location)} for {cost} Treasure: "
                  f"{_purchase_why(sit, kind)}")


def _purchase_why(sit: Situation, kind: Any) -> str:
    """Why this asset: a blade for a war goal, hidden hands for enemy territory, else value."""
    if sit.war_goal() and kind.can_attack_normally:
        return f"a blade for its war; {_why_fight(sit)}"
    if kind.subtle and sit.goal and sit.goal.id == "inside-enemy-territory":
        return f"hands it can hide among its enemies{_progress(sit)}"
    return "its best value for the Treasure"


# ====================================================================== hiding and selling
def _hide_values(sit: Situation) -> dict[str, tuple[float, str]]:
    """Asset -> (value, reason) of hiding it, best first. For Inside Enemy Territory only as
    many as the goal still needs, those closest to enemy ground."""
    out = {}
    g = sit.goal
    inside = g is not None and g.id == "inside-enemy-territory"
    wanted: set[str] = set()
    if inside:  # those whose route to enemy ground starts with hiding here
        asset = sit.state.asset
        wanted = {r.asset for r in goal_ai.inside_routes(sit)[2]
                  if r.hide_at == asset(r.asset).location}
    for a in sit.mine:
        if a.is_base or a.stealth:
            continue
        if any(b.is_base and b.owner != sit.fid for b in sit.by_loc.get(a.location, ())):
            continue
        v = -2.0
        why = f"hides its {a.kind.name} at {sit.place(a.location)}"
        if a.id in wanted:
            v = XP * 2 / max(1, g.needed) - 2
            why += f": hidden agents among its enemies{_progress(sit)}"
        elif sit.threat_to(a.location) >= a.hp:
            v = sit.asset_value(a) * 0.4 * sit.p.caution - 2
            why += ": its enemies there could destroy it"
        out[a.id] = (v, why)
    return dict(sorted(out.items(), key=lambda kv: -kv[1][0]))


def _hide(sit: Situation, legal):
    values = _hide_values(sit)
    best = max(_of(legal, Hide), key=lambda h: values.get(h.asset, (-9, ""))[0], default=None)
    if best is None or values.get(best.asset, (-9, ""))[0] <= 0 or sit.me.treasure < 2:
        return _done(legal), "hides nothing more"
    return best, values[best.asset][1]


def _sell_values(sit: Situation) -> dict[str, tuple[float, str]]:
    """Asset -> (value, reason) of selling it: assets beyond a rating's limit (they cost
    upkeep), and, when an attribute has no room left and Treasure is piling up, its weakest
    asset, to make room for a much better one (see :func:`_upgrade`)."""
    out = {}
    counts: dict[str, list] = {}
    for a in sit.mine:
        if not a.is_base:
            counts.setdefault(a.attribute, []).append(a)
    for attr, owned in counts.items():
        excess = len(owned) - sit.me.rating(attr)
        for a in sorted(owned, key=lambda x: sit.asset_value(x))[:max(0, excess)]:
            gain = 0 if a.damaged else a.kind.cost // 2
            out[a.id] = (1.0 + gain, "more than it can upkeep")
        upgrade = _upgrade(sit, attr, owned) if excess == 0 else None
        if upgrade is not None:
            worst, better, gain = upgrade
            out[worst.id] = (gain, f"to make room for {better.name}")
    return out


def _upgrade(sit: Situation, attr: str, owned: list):
    """``(asset to sell, better kind, value)`` when ``attr`` has no room for another asset, the
    Treasure in hand pays for a better one after the sale, and the better one is clearly worth
    more (its worth to us beyond the weakest asset's, less the half of the price lost)."""
    bases = [a.location for a in sit.mine if a.is_base]
    if not bases or not owned:
        return None
    me = sit.me
    worst = min(owned, key=lambda a: (sit.gross_value(a.kind), a.id))
    cash = me.treasure + (0 if worst.damaged else worst.kind.cost // 2)
    best, best_gain = None, 0.0
    for kind in sit.state.asset_types.values():
        if kind.attribute != attr or kind.rating > me.rating(attr) \
                or kind.magic_level > me.magic_level or kind.id == worst.type:
            continue
        cost = sit.state.purchase_cost(me, kind, bases[0])
        if cost > cash or cost > me.treasure + income_of(me):
            continue
        gain = sit.gross_value(kind) - sit.gross_value(worst.kind) - 0.25 * worst.kind.cost
        if gain > best_gain:
            best, best_gain = kind, gain
    if best is None or best_gain < 3.0:
        return None
    return worst, best, best_gain * 0.3


def _sell(sit: Situation, legal):
    values = _sell_values(sit)
    for s in _of(legal, Sell):
        if s.asset in values:
            return s, f"sells its {sit.state.asset(s.asset).kind.name}: {values[s.asset][1]}"
    return _done(legal), "sells nothing more"


# ====================================================================== goals and XP
def _goal(sit: Situation, legal):
    """Bribe for Wealth of Kingdoms every turn it can; keep the current goal unless
    :func:`goals.why_abandon` finds it impossible or clearly beaten (the turn of paralysis
    counted); with no goal, the best one the steering allows."""
    g = sit.goal
    bribe = next((a for a in legal if isinstance(a, Bribe)), None)
    choices = _of(legal, ChooseGoal)
    keep = next((a for a in legal if isinstance(a, KeepGoal)), None)
    if keep is not None:
        drop = goal_ai.why_abandon(sit, choices)
        if drop is None or (bribe is not None and not goal_ai.impossible(sit)):
            if bribe is not None:
                return bribe, (f"spends {bribe.amount} Treasure on bribes and influence: "
                               f"Wealth of Kingdoms ({g.progress + bribe.amount}/{g.needed})")
            return keep, f"keeps to its goal {_keeps(sit)}" + (
                ": the story it was given" if sit.steer.story else "")
        why_drop, choice, why = drop
        return choice, (f"abandons {goal_name(sit.state, g.id)} ({why_drop}) for {_goal_text(sit, choice)}: "
                        f"{why}" + _steer_note(sit, choice))
    ranked = goal_ai.rank_choices(sit, choices)
    value, choice, why = ranked[0]
    return choice, (f"sets out for {_goal_text(sit, choice)}" + (f": {why}" if why else "")
                    + _steer_note(sit, choice))


def _steer_note(sit: Situation, choice: ChooseGoal) -> str:
    """What the GM's steering had to do with a goal choice (empty when nothing)."""
    focus = sit.steer.focus
    if focus and choice.goal == focus:
        return " (the GM's focus)"
    if focus:
        return f" (its focus {goal_name(sit.state, focus)} cannot be taken up now)"
    enemy = sit.steer.enemy
    if enemy and _aimed_at(sit, choice) == enemy:
        return f" (aimed at {sit.fname(enemy)}, its sworn enemy)"
    return ""


def _aimed_at(sit: Situation, choice: ChooseGoal) -> str | None:
    """The faction a goal choice targets (Root Out, Eliminate Target), if any."""
    if choice.goal == "root-out-the-enemy":
        return choice.target.partition("@")[0]
    if choice.goal == "eliminate-target" and sit.state.asset(choice.target) is not None:
        return sit.state.asset(choice.target).owner
    if choice.goal == "destroy-the-foe" and sit.steer.enemy in sit.target_ids:
        return sit.steer.enemy
    return None


def _goal_text(sit: Situation, c: ChooseGoal) -> str:
    name = goal_name(sit.state, c.goal)
    if c.goal == "eliminate-target" and sit.state.asset(c.target) is not None:
        return f"{name} ({sit.aname(sit.state.asset(c.target))})"
    if c.goal == "root-out-the-enemy":
        owner, _, loc = c.target.partition("@")
        return f"{name} ({sit.fname(owner)} at {sit.place(loc)})"
    return name + (f" ({c.target})" if c.target else "")


def _raise(sit: Situation, legal):
    """Raise the focus attribute when it can; but Wealth first when the Treasure in hand would
    pay Wealth of Kingdoms at once once Wealth has risen (the goal is closed until it does);
    another attribute when the focus cannot rise any more."""
    raises = {r.attribute: r for r in _of(legal, RaiseRating)}
    focus = sit.p.focus
    first = sit.p.raises
    if first == "income" and raises:
        attr = max(raises, key=lambda a: (_income_gain(sit, a), a))
        return raises[attr], f"raises its {attr.title()}: {_income_gain_why(sit, attr)}"
    if first in raises and first != focus:
        why = {"wealth": "more income", "cunning": "room for more agents"}.get(first, "its way")
        return raises[first], f"raises its {first.title()} first: {why}"
    me = sit.me
    if "wealth" in raises and me.wealth <= me.wealth_at_last_kingdoms \
            and me.treasure >= 4 * (me.wealth + 1):
        return raises["wealth"], (f"raises its Wealth: its {me.treasure} Treasure can pay for "
                                  f"Wealth of Kingdoms again")
    if focus in raises:
        return raises[focus], f"raises its {focus.title()}, the heart of its power"
    focus_next = me.rating(focus) + 1
    blocked = focus_next > 8 or not T.can_raise(_with_xp(me, 99), focus)
    if raises and blocked:
        attr = min(raises, key=lambda a: XP_TO_RAISE[me.rating(a) + 1])
        return raises[attr], f"raises its {attr.title()}"
    return _done(legal), "saves its experience"


def _income_asset_opened(sit: Situation, attr: str):
    """The asset type earning the most Treasure that raising ``attr`` one point would open
    (None when it opens none that earns)."""
    me = sit.me
    new = me.rating(attr) + 1
    opened = [k for k in sit.state.asset_types.values()
              if k.attribute == attr and k.rating == new and k.magic_level <= me.magic_level
              and NET_INCOME.get(k.id, 0) > 0]
    return max(opened, key=lambda k: (NET_INCOME[k.id], k.id), default=None)


def _income_gain(sit: Situation, attr: str) -> float:
    """Treasure per turn per XP spent that raising ``attr`` brings: its share of income
    (Wealth/2, Force and Cunning /4) and the best earning asset it opens."""
    new = sit.me.rating(attr) + 1
    gain = 0.5 if attr == "wealth" else 0.25
    opened = _income_asset_opened(sit, attr)
    if opened is not None:  # (it may hold as many as the new rating)
        gain += NET_INCOME[opened.id] * 2
    return gain / max(1, XP_TO_RAISE[new])


def _income_gain_why(sit: Situation, attr: str) -> str:
    opened = _income_asset_opened(sit, attr)
    return (f"it opens the way to {opened.name}" if opened is not None
            else "the surest way to more income")


def _with_xp(f, xp):
    from dataclasses import replace

    return replace(f, xp=xp)


_PHASES = {
    T.ABILITIES: _abilities, T.ACTION: _action, T.ATTACK: _attack, T.DEFEND: _defend,
    T.MOVE: _move, T.REPAIR: _repair, T.EXPAND_WHERE: _expand_where, T.EXPAND_HP: _expand_hp,
    T.RIVAL_ATTACK: _rival_attack, T.CREATE: _create, T.HIDE: _hide, T.SELL: _sell,
    T.GOAL: _goal, T.RAISE: _raise, flow.REACT: answer_reaction,
}
