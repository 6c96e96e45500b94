"""An engagement (seed 000 steps 1-8), combined engagements and mercenaries, as decision stages.

The engagement in progress lives in ``state.ctx["eng"]`` (plain data, so a file saved mid-way
continues exactly). Stages, each a decision of the faction named:

``invite`` (aggressor)   ask a faction to join as an ally (``invite X``) or hire a mercenary
                         (``hire X for N``); ``done`` to go on;
``answer`` (invitee)     ``join`` or ``decline``; a joining faction then sets up its own part
                         (the stages below) before the aggressor invites again;
``pillars`` (participant) ``commit P`` (step 2: the first pillar free, each further one 1 faction
                         die), ``fanatical P`` (boon), ``done``;
``draw`` (participant)   ``draw N``: step 4, 0-3 engagement dice from its pool against the defender;
``allocate`` (participant) ``allocate N -> P``: step 5, divide every die among the defender's
                         pillars, a few at a time;
then the attack is rolled (step 6) and the defender counters (steps 7-8):
``counter-fanatical``, ``counter-draw`` (pool against the aggressor), ``counter-allocate`` (only
among the pillars that attacked, none with Assassinate); the counter is rolled and the engagement
ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from factionsim.core.game import Action, Event

from . import dice
from .actions import Allocate, Commit, Decline, Done, Draw, Fanatical, Invite, Join, choice
from .model import FANATICAL_DICE, MAX_ENGAGEMENT_DRAW

if TYPE_CHECKING:
    from .state import EngagementsState

INVITE, ANSWER, PILLARS, DRAW, ALLOCATE = "invite", "answer", "pillars", "draw", "allocate"
C_FANATICAL, C_DRAW, C_ALLOCATE = "counter-fanatical", "counter-draw", "counter-allocate"


def _part(faction: str) -> dict[str, Any]:
    return {"faction": faction, "pillars": [], "fanatical": [], "dice": 0, "drawn": 0,
            "remaining": 0, "alloc": {}}


def start(state: EngagementsState, aggressor: str, defender: str) -> None:
    """Step 1: ``aggressor`` has named ``defender``; the aggressor may now invite allies."""
    state.ctx["eng"] = {"aggressor": aggressor, "defender": defender, "stage": INVITE,
                        "asked": [], "invite": None, "parts": [_part(aggressor)], "current": 0,
                        "counter": None}
    _set_actor(state)


def commission(state: EngagementsState, patron: str, mercenary: str, defender: str,
               price: int) -> None:
    """``patron`` offers ``mercenary`` ``price`` faction dice to engage ``defender``: the
    mercenary answers (``join`` or ``decline``); if it accepts, it is paid and leads the
    engagement as its aggressor (its own pillars and engagement pool; it invites no one)."""
    state.ctx["eng"] = {"aggressor": mercenary, "defender": defender, "stage": ANSWER,
                        "asked": [mercenary], "patron": patron,
                        "invite": {"faction": mercenary, "price": price, "commission": True},
                        "parts": [_part(mercenary)], "current": 0, "counter": None}
    _set_actor(state)


def eng(state: EngagementsState) -> dict[str, Any]:
    return state.ctx["eng"]


def current_part(e: dict[str, Any]) -> dict[str, Any]:
    return e["counter"] if e["stage"].startswith("counter") else e["parts"][e["current"]]


def _set_actor(state: EngagementsState) -> None:
    e = eng(state)
    stage = e["stage"]
    if stage == INVITE:
        state.actor = e["aggressor"]
    elif stage == ANSWER:
        state.actor = e["invite"]["faction"]
    else:
        state.actor = current_part(e)["faction"]


def attack_targets(state: EngagementsState, e: dict[str, Any]) -> list[str]:
    """The defender's pillars (step 5)."""
    return list(state.factions[e["defender"]].pillars)


def counter_targets(state: EngagementsState, e: dict[str, Any]) -> list[str]:
    """Pillars that attacked, still standing, and not protected by Assassinate (step 8)."""
    out = []
    for part in e["parts"]:
        for pid in part["pillars"]:
            p = state.pillars.get(pid)
            if p is not None and not p.has("assassinate"):
                out.append(pid)
    return out


def invitable(state: EngagementsState, e: dict[str, Any]) -> list[Invite]:
    """Factions the aggressor may still ask: alive, with pillars, not a side of the engagement;
    a mercenary only for its price and only if the aggressor can pay it."""
    a = state.factions[e["aggressor"]]
    out = []
    for f in state.factions.values():
        if f.id in (e["aggressor"], e["defender"]) or f.id in e["asked"]:
            continue
        if not f.alive or not f.pillars:
            continue
        if f.mercenary is not None:
            if a.faction_dice >= f.mercenary:
                out.append(choice(Invite, f.id, f.mercenary))
        else:
            out.append(choice(Invite, f.id))
    return out


# ======================================================================== legal actions
def legal_actions(state: EngagementsState) -> list[Action]:
    """The engagement's options at its stage (a new list; each action the one object of its
    choice, the draws and allocations as kept tuples)."""
    e = eng(state)
    stage = e["stage"]
    if stage == INVITE:
        return [*invitable(state, e), choice(Done)]
    if stage == ANSWER:
        return [choice(Join), choice(Decline)]
    out: list[Action] = []
    if stage in (PILLARS, C_FANATICAL):
        part = current_part(e)
        f = state.factions[part["faction"]]
        if stage == PILLARS:
            cost = 1 if part["pillars"] else 0
            if f.faction_dice >= cost:
                out += [choice(Commit, pid) for pid in f.pillars if pid not in part["pillars"]]
        for pid in part["pillars"]:
            p = state.pillars.get(pid)
            if p is not None and p.has("fanatical"):  # each use marks a circle, the last included
                out.append(choice(Fanatical, pid))
        if part["pillars"]:
            out.append(choice(Done))
    elif stage in (DRAW, C_DRAW):
        part = current_part(e)
        rival = e["aggressor"] if stage == C_DRAW else e["defender"]
        pool = state.factions[part["faction"]].pool(rival)
        out += choice(_draws, min(MAX_ENGAGEMENT_DRAW, pool))
    elif stage in (ALLOCATE, C_ALLOCATE):
        part = current_part(e)
        targets = attack_targets(state, e) if stage == ALLOCATE else counter_targets(state, e)
        rest = part["remaining"]
        if len(targets) == 1:
            return [choice(Allocate, rest, targets[0])]
        for pid in targets:
            out += choice(_allocations, pid, rest)
    return out


def _draws(most: int) -> tuple[Action, ...]:
    """Draw 0..``most`` dice (made once per ``most``)."""
    return tuple(choice(Draw, n) for n in range(most + 1))


def _allocations(pid: str, rest: int) -> tuple[Action, ...]:
    """Allocate 1..``rest`` dice to pillar ``pid`` (made once per pillar and ``rest``)."""
    return tuple(choice(Allocate, n, pid) for n in range(1, rest + 1))


# ======================================================================== applying
def apply(state: EngagementsState, action: Action, events: list[Event]) -> None:
    e = eng(state)
    stage = e["stage"]
    t = state.current_turn
    if stage == INVITE:
        if isinstance(action, Invite):
            e["asked"].append(action.faction)
            e["invite"] = {"faction": action.faction, "price": action.price}
            e["stage"] = ANSWER
            events.append(Event(t, "invite", e["aggressor"], {
                "ally": action.faction, "price": action.price, "defender": e["defender"]}))
        else:
            e["current"] = 0
            e["stage"] = PILLARS
    elif stage == ANSWER and e.get("patron"):
        _answer_commission(state, e, action, events)
        return
    elif stage == ANSWER:
        inv = e.pop("invite")
        e["invite"] = None
        ally = inv["faction"]
        if isinstance(action, Join):
            if inv["price"]:
                state.factions[e["aggressor"]].faction_dice -= inv["price"]
                state.factions[ally].faction_dice += inv["price"]
            e["parts"].append(_part(ally))
            e["current"] = len(e["parts"]) - 1
            e["stage"] = PILLARS
            events.append(Event(t, "join", ally, {"aggressor": e["aggressor"],
                                                  "defender": e["defender"], "price": inv["price"]}))
        else:
            e["stage"] = INVITE
            events.append(Event(t, "decline", ally, {"aggressor": e["aggressor"],
                                                     "defender": e["defender"], "price": inv["price"]}))
    elif stage in (PILLARS, C_FANATICAL):
        part = current_part(e)
        f = state.factions[part["faction"]]
        if isinstance(action, Commit):
            cost = 1 if part["pillars"] else 0
            f.faction_dice -= cost
            part["pillars"].append(action.pillar)
            part["dice"] += state.pillars[action.pillar].competence
            events.append(Event(t, "commit", f.id, {"pillar": action.pillar, "cost": cost,
                                                    "competence": state.pillars[action.pillar].competence,
                                                    "faction_dice": f.faction_dice}))
        elif isinstance(action, Fanatical):
            p = state.pillars[action.pillar]
            p.wounds += 1
            part["fanatical"].append(action.pillar)
            part["dice"] += FANATICAL_DICE
            events.append(Event(t, "fanatical", f.id, {"pillar": action.pillar,
                                                       "circles_left": p.circles_left}))
            if p.defeated:  # its last circle: it gives its all and falls (its dice still roll)
                defeat(state, p.id, f.id, None, events, t)
        else:
            e["stage"] = DRAW if stage == PILLARS else C_DRAW
    elif stage in (DRAW, C_DRAW):
        assert isinstance(action, Draw)
        part = current_part(e)
        f = state.factions[part["faction"]]
        rival = e["aggressor"] if stage == C_DRAW else e["defender"]
        f.engagement[rival] = f.pool(rival) - action.n
        part["drawn"] = action.n
        part["dice"] += action.n
        part["remaining"] = part["dice"]
        events.append(Event(t, "draw", f.id, {
            "n": action.n, "against": rival, "pool_left": f.engagement[rival],
            "dice": part["dice"], "pillars": list(part["pillars"]), "counter": stage == C_DRAW}))
        e["stage"] = ALLOCATE if stage == DRAW else C_ALLOCATE
    elif stage in (ALLOCATE, C_ALLOCATE):
        assert isinstance(action, Allocate)
        part = current_part(e)
        part["alloc"][action.pillar] = part["alloc"].get(action.pillar, 0) + action.n
        part["remaining"] -= action.n
        if part["remaining"] == 0:
            events.append(Event(t, "allocation", part["faction"], {
                "dice": part["dice"], "allocation": dict(part["alloc"]),
                "counter": stage == C_ALLOCATE}))
            _part_done(state, e, events)
    _set_actor_or_end(state)


def _answer_commission(state: EngagementsState, e: dict[str, Any], action: Action,
                       events: list[Event]) -> None:
    """The mercenary takes the contract (it is paid and sets up its engagement) or refuses it
    (nothing is paid and nothing happens)."""
    inv = e["invite"]
    e["invite"] = None
    merc, patron = inv["faction"], e["patron"]
    data = {"aggressor": patron, "defender": e["defender"], "price": inv["price"],
            "commission": True}
    if isinstance(action, Join):
        state.factions[patron].faction_dice -= inv["price"]
        state.factions[merc].faction_dice += inv["price"]
        e["stage"] = PILLARS
        events.append(Event(state.current_turn, "join", merc, data))
        _set_actor(state)
        return
    events.append(Event(state.current_turn, "decline", merc, data))
    del state.ctx["eng"]
    state.phase = "spend"
    state.actor = patron


def _set_actor_or_end(state: EngagementsState) -> None:
    if "eng" in state.ctx:
        _set_actor(state)


def _part_done(state: EngagementsState, e: dict[str, Any], events: list[Event]) -> None:
    if e["stage"] == C_ALLOCATE:
        _resolve_counter(state, e, events)
        _finish(state, e, events)
    elif e["current"] != 0:  # an ally is set up: the aggressor may invite more
        e["stage"] = INVITE
    else:
        _resolve_attack(state, e, events)
        _start_counter(state, e, events)


# ======================================================================== rolling
def _resolve_attack(state: EngagementsState, e: dict[str, Any], events: list[Event]) -> None:
    """Step 6, combined: each participant rolls its own dice against each pillar; successes
    against one pillar are added together before wounds are counted."""
    t = state.current_turn
    attacked = []
    for pid in attack_targets(state, e):
        rolls: dict[str, list[int]] = {}
        for part in e["parts"]:
            n = part["alloc"].get(pid, 0)
            if n:
                rolls[part["faction"]] = dice.roll(state.rng, n)
        if not rolls:
            continue
        attacked.append(pid)
        per = {fid: dice.successes(r) for fid, r in rolls.items()}
        credit = max(per, key=lambda fid: per[fid])  # most successes, the first on a tie
        _strike(state, pid, e["defender"], rolls, e["aggressor"], credit, False, events, t)
    e["attacked"] = attacked


def _strike(state: EngagementsState, pid: str, owner: str, rolls: dict[str, list[int]],
            striker: str, credit: str, counter: bool, events: list[Event], t: int) -> None:
    """Roll result against one pillar: successes, wounds marked, defeat (renown to ``credit``)."""
    p = state.pillars[pid]
    succ = sum(dice.successes(r) for r in rolls.values())
    w = dice.wounds(succ, p.defense)
    marked = min(w, p.circles_left)
    p.wounds += marked
    events.append(Event(t, "strike", striker, {
        "pillar": pid, "owner": owner, "rolls": rolls, "successes": succ, "defense": p.defense,
        "wounds": w, "marked": marked, "circles_left": p.circles_left, "counter": counter}))
    if p.defeated:
        defeat(state, pid, owner, credit, events, t)


def defeat(state: EngagementsState, pid: str, owner: str, credit: str | None,
           events: list[Event], t: int) -> None:
    """Every circle of the pillar is marked: it is removed, ``credit`` (if a rival) gains renown;
    a faction left with no pillar has its core exposed."""
    state.remove_pillar(pid)
    if credit is not None:
        state.factions[credit].renown += 1
    left = len(state.factions[owner].pillars)
    events.append(Event(t, "pillar-defeated", owner, {"pillar": pid, "by": credit,
                                                      "pillars_left": left}))
    if not state.factions[owner].pillars:
        state.factions[owner].exposed_since = state.current_turn
        events.append(Event(t, "exposed", owner, {}))


def _start_counter(state: EngagementsState, e: dict[str, Any], events: list[Event]) -> None:
    """Step 7: every attacked pillar that still stands counters, free of charge."""
    d = state.factions[e["defender"]]
    counter_pillars = [pid for pid in e["attacked"] if pid in state.pillars]
    targets = counter_targets(state, e)
    if not counter_pillars or not targets:
        events.append(Event(state.current_turn, "no-counter", d.id, {
            "reason": "no attacked pillar stands" if not counter_pillars
            else "no attacking pillar can be countered"}))
        _finish(state, e, events)
        return
    part = _part(d.id)
    part["pillars"] = counter_pillars
    part["dice"] = sum(state.pillars[pid].competence for pid in counter_pillars)
    e["counter"] = part
    e["stage"] = C_FANATICAL
    events.append(Event(state.current_turn, "counter", d.id, {
        "pillars": counter_pillars, "against": e["aggressor"], "dice": part["dice"]}))


def _resolve_counter(state: EngagementsState, e: dict[str, Any], events: list[Event]) -> None:
    part = e["counter"]
    owners = {pid: p["faction"] for p in e["parts"] for pid in p["pillars"]}
    for pid in counter_targets(state, e):
        n = part["alloc"].get(pid, 0)
        if n:
            rolls = {part["faction"]: dice.roll(state.rng, n)}
            _strike(state, pid, owners[pid], rolls, e["defender"], e["defender"], True, events,
                    state.current_turn)


def _finish(state: EngagementsState, e: dict[str, Any], events: list[Event]) -> None:
    d = state.factions[e["defender"]]
    grievance = state.settings.grievance_dice
    gained = {}
    if grievance and d.alive and e.get("attacked"):
        for part in e["parts"]:
            fid = part["faction"]
            state.gained(d, fid, grievance)
            gained[fid] = grievance
    events.append(Event(state.current_turn, "engagement-end", e["aggressor"], {
        "defender": e["defender"], "allies": [p["faction"] for p in e["parts"][1:]],
        "grievance": gained}))
    del state.ctx["eng"]
    state.phase = "spend"
    state.actor = e["aggressor"]
