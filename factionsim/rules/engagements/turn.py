"""The round and the faction turn as decision points.

A round (``state.turn`` counts completed rounds) gives every living faction one turn, in campaign
order rotated by one place each round (round 1 starts with the first faction, round 2 with the
second...). In its turn a faction:

1. earns income: ``income_base`` + 1 per ``income_per_pillars`` pillars, rounded down (automatic);
2. spends (``spend`` phase, any number of decisions, then ``done``): ``convert N -> rival`` (1-3
   faction dice into engagement dice against that rival), ``build cC dD`` (a new pillar, cost
   C + D), ``raise P competence|defense`` (the new level in dice), ``heal P`` (one wound circle);
   ``engage R`` (when it gained engagement dice against R since it last engaged R; see
   ``engagement.py``), ``commission M -> R for N`` (pay a mercenary to engage R);
3. ends its turn: every faction left with no pillar at the end of a turn collapses (its core
   was exposed in that turn and nothing was rebuilt).

A decision point with exactly one legal action is applied automatically (:func:`settle`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from factionsim.core.ending import game_end
from factionsim.core.engine import stop_or_force
from factionsim.core.game import Action, Event

from . import engagement
from .actions import Build, Commission, Convert, Done, Engage, Heal, Raise, choice
from .model import MAX_COMPETENCE, MAX_DEFENSE, MAX_ENGAGEMENT_DRAW, Faction

if TYPE_CHECKING:
    from .state import EngagementsState

TURN_START = "turn-start"
FACTION_START = "faction-start"
SPEND = "spend"
ENGAGE = "engage"
FACTION_END = "faction-end"


def acting(state: EngagementsState) -> Faction:
    return state.factions[state.order[state.order_index]]


# ======================================================================== automatic steps
def settle(state: EngagementsState, start_turn: bool = True) -> list[Event]:
    """Run automatic steps and forced decisions up to a real decision point (or the end).

    With ``start_turn=False`` it stops between rounds (a saved file holds no next-round income).
    """
    events: list[Event] = []
    rounds = 0
    while True:
        phase = state.phase
        if phase == TURN_START:
            # at most one new round per call: a round of nothing but forced moves (no income, no
            # choices) must not loop forever; the next call plays the next one
            if not start_turn or state.is_over() or rounds:
                state.actor = None
                return events
            rounds += 1
            _start_round(state, events)
        elif phase == FACTION_START:
            _begin_faction_turn(state, events)
        elif phase == FACTION_END:
            _end_faction_turn(state, events)
        elif stop_or_force(state, legal_actions, apply, events):
            return events


def _start_round(state: EngagementsState, events: list[Event]) -> None:
    ids = list(state.factions)
    k = state.turn % len(ids)
    state.order = [fid for fid in ids[k:] + ids[:k] if state.factions[fid].alive]
    state.order_index = 0
    state.phase = FACTION_START
    events.append(Event(state.current_turn, "round", None, {"order": list(state.order)}))


def _begin_faction_turn(state: EngagementsState, events: list[Event]) -> None:
    f = acting(state)
    state.ctx = {"engaged": 0, "deferred": [], "commissioned": []}
    if not f.alive:
        state.phase = FACTION_END
        return
    events.append(Event(state.current_turn, "faction-turn", f.id, {"faction_dice": f.faction_dice}))
    amount = state.settings.income(len(f.pillars))
    f.faction_dice += amount
    events.append(Event(state.current_turn, "income", f.id, {
        "amount": amount, "pillars": len(f.pillars), "faction_dice": f.faction_dice}))
    state.phase = SPEND
    state.actor = f.id


def _end_faction_turn(state: EngagementsState, events: list[Event]) -> None:
    # "A faction with no pillars left has its core exposed; at the end of that turn it collapses
    # unless it rebuilds a pillar" [other_systems.md]: "that turn" is the one in which its last
    # pillar fell, whoever's turn it was (only its own turn lets it rebuild)
    for f in state.factions.values():
        if f.alive and not f.pillars:
            collapse(state, f, events)
    if state.next_in_order(FACTION_START):
        return
    events.append(Event(state.turn, "turn-end", None, {"factions": {
        fid: {"pillars": len(x.pillars), "faction_dice": x.faction_dice,
              "score": round(s, 2)}
        for (fid, x), s in zip(state.factions.items(), state.scores().values(), strict=True)
        if x.alive}}))
    if state.is_over():
        events.append(game_end(state))


def collapse(state: EngagementsState, f: Faction, events: list[Event]) -> None:
    """A faction that ends a turn with no pillar collapses: its resources are lost."""
    f.alive = False
    f.faction_dice = 0
    f.engagement = {}
    f.may_engage = []
    events.append(Event(state.current_turn, "collapse", f.id, {}))


# ======================================================================== legal actions
def legal_actions(state: EngagementsState) -> list[Action]:
    if state.phase == ENGAGE:
        return engagement.legal_actions(state)
    if state.phase == SPEND:
        return _spend_options(state)
    return []


def build_cost(competence: int, defense: int) -> int:
    return competence + defense


def raise_cost(level_now: int) -> int:
    return level_now + 1


def can_engage(state: EngagementsState, f: Faction, rival: str) -> bool:
    """"A faction has the option of engaging another whenever it gains engagement dice against
    that faction" [text]: it holds engagement dice against ``rival`` gained since it last engaged
    it (a scenario's starting pools count as gained); no limit per turn unless the scenario sets
    ``engagements_per_turn``."""
    r = state.factions[rival]
    limit = state.settings.engagements_per_turn
    return (r.alive and bool(r.pillars) and bool(f.pillars) and f.pool(rival) > 0
            and rival in f.may_engage
            and (limit is None or state.ctx.get("engaged", 0) < limit)
            and rival not in state.ctx.get("deferred", ()))


def commissions(state: EngagementsState, f: Faction) -> Iterator[Commission]:
    """Mercenaries ``f`` can pay to engage a rival (each at most once per turn): alive, with
    pillars, for their price in faction dice."""
    rivals = [r.id for r in state.living_factions() if r.pillars]
    for m in state.living_factions():
        if m.mercenary is None or m.id == f.id or not m.pillars or f.faction_dice < m.mercenary \
                or m.id in state.ctx.get("commissioned", ()):
            continue
        for r in rivals:
            if r not in (m.id, f.id):
                yield choice(Commission, m.id, r, m.mercenary)


def _spend_options(state: EngagementsState) -> list[Action]:
    """The spending step's options, in this order: engage, commission, convert, build, raise,
    heal, done (each the one object of its choice; the converts and builds as kept tuples)."""
    f = acting(state)
    cfg = state.settings
    dice = f.faction_dice
    rivals = [r.id for r in state.living_factions() if r.id != f.id]
    out: list[Action] = [choice(Engage, rival) for rival in rivals if can_engage(state, f, rival)]
    out += commissions(state, f)
    most = min(MAX_ENGAGEMENT_DRAW, dice)
    if most > 0:
        for rival in rivals:
            out += choice(_converts, rival, most)
    if len(f.pillars) < cfg.pillar_cap:
        top_c = min(cfg.build_competence_max, MAX_COMPETENCE)
        top_d = min(cfg.build_defense_max, MAX_DEFENSE)
        # (dice beyond the dearest pillar's cost buy no more options)
        out += choice(_builds, top_c, top_d, min(dice, build_cost(top_c, top_d)))
    pillars = state.pillars
    for pid in f.pillars:
        p = pillars[pid]
        if p.competence < MAX_COMPETENCE and raise_cost(p.competence) <= dice:
            out.append(choice(Raise, pid, "competence"))
        if p.defense < MAX_DEFENSE and raise_cost(p.defense) <= dice:
            out.append(choice(Raise, pid, "defense"))
        if p.wounds and cfg.heal_cost <= dice:
            out.append(choice(Heal, pid))
    out.append(choice(Done))
    return out


def _converts(rival: str, most: int) -> tuple[Action, ...]:
    """Convert 1..``most`` dice against ``rival`` (made once per rival and ``most``)."""
    return tuple(choice(Convert, n, rival) for n in range(1, most + 1))


def _builds(top_c: int, top_d: int, dice: int) -> tuple[Action, ...]:
    """The pillars ``dice`` faction dice can build, competence 1..``top_c`` and defense
    0..``top_d`` (made once per maxima and dice)."""
    return tuple(choice(Build, c, d) for c in range(1, top_c + 1) for d in range(0, top_d + 1)
                 if build_cost(c, d) <= dice)


# ======================================================================== applying
def apply(state: EngagementsState, action: Action, events: list[Event]) -> None:
    if state.phase == ENGAGE:
        engagement.apply(state, action, events)
        if "eng" not in state.ctx:
            state.phase, state.actor = SPEND, acting(state).id
        return
    f = acting(state)
    t = state.current_turn
    if isinstance(action, Done):
        state.phase = FACTION_END
    elif isinstance(action, Convert):
        f.faction_dice -= action.amount
        state.gained(f, action.rival, action.amount)
        events.append(Event(t, "convert", f.id, {"amount": action.amount, "rival": action.rival,
                                                 "pool": f.pool(action.rival),
                                                 "faction_dice": f.faction_dice}))
    elif isinstance(action, Build):
        cost = build_cost(action.competence, action.defense)
        f.faction_dice -= cost
        p = state.new_pillar(f.id, action.competence, action.defense)
        f.exposed_since = None
        events.append(Event(t, "build", f.id, {"pillar": p.id, "competence": p.competence,
                                               "defense": p.defense, "cost": cost,
                                               "faction_dice": f.faction_dice}))
    elif isinstance(action, Raise):
        p = state.pillars[action.pillar]
        level = getattr(p, action.stat) + 1
        f.faction_dice -= raise_cost(level - 1)
        setattr(p, action.stat, level)
        events.append(Event(t, "raise", f.id, {"pillar": p.id, "stat": action.stat,
                                               "level": level, "cost": level,
                                               "faction_dice": f.faction_dice}))
    elif isinstance(action, Heal):
        p = state.pillars[action.pillar]
        f.faction_dice -= state.settings.heal_cost
        p.wounds -= 1
        events.append(Event(t, "heal", f.id, {"pillar": p.id, "circles_left": p.circles_left,
                                              "cost": state.settings.heal_cost,
                                              "faction_dice": f.faction_dice}))
    elif isinstance(action, Engage):
        state.ctx["engaged"] = state.ctx.get("engaged", 0) + 1
        chance = state.settings.gm_deferral
        if chance > 0 and int(state.rng.integers(0, 100)) < round(chance * 100):
            state.ctx.setdefault("deferred", []).append(action.rival)
            state.ctx["engaged"] -= 1
            events.append(Event(t, "deferred", f.id, {"defender": action.rival}))
            return
        f.may_engage.remove(action.rival)
        events.append(Event(t, "engage", f.id, {"defender": action.rival,
                                                "pool": f.pool(action.rival)}))
        state.phase = ENGAGE
        engagement.start(state, f.id, action.rival)
    elif isinstance(action, Commission):
        state.ctx.setdefault("commissioned", []).append(action.faction)
        events.append(Event(t, "commission", f.id, {"mercenary": action.faction,
                                                    "defender": action.rival,
                                                    "price": action.price}))
        state.phase = ENGAGE
        engagement.commission(state, f.id, action.faction, action.rival, action.price)
