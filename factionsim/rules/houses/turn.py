"""The season as a sequence of decision points.

A season: every living House rolls initiative (Mental + Perception; ties go to the higher second
die, then campaign order) and gains its Plot Points. Then ``actions_per_season`` rounds: in each,
every House in initiative order takes one House action. Then one free recovery round (repair,
recover, recover from a complication, or pass), then each House earns advances and may spend
them, then fleeting and season-long assets and phase-long complications expire.

One House action is a chain of small decisions: the action kind, its target (a rival House, a
trait), then the roller's pool (a Distinction, an Attribute, a Skill, committed assets, the
roll, a Plot Point to keep one more die), then the opposition's pool (a rival House builds its
own the same way; an unopposed roll meets 2d8 plus the roller's Stress, Trauma and largest
Complication), then the outcome, with its own decisions: Plot Points to solidify an asset or make
a complication last, the winner's choice of Stress or Trauma (a Plot Point), and the loser's
sacrifices of Skills and Assets against the incoming effect. A decision with exactly one legal
action is applied automatically.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from factionsim.core.ending import game_end
from factionsim.core.engine import stop_or_force
from factionsim.core.game import Action, Event, IllegalActionError

from . import actions as A
from . import dice, outcomes
from .model import ADVANCE_COSTS, ATTRIBUTES, SFX, SKILLS, WRITES, House
from .outcomes import log

if TYPE_CHECKING:
    from .state import HousesState

TURN_START = "turn-start"
NEXT = "next"
ACTION = "action"
TARGET = "target"
TRAIT = "trait"
DISTINCTION = "distinction"
ATTRIBUTE = "attribute"
SKILL = "skill"
COMMIT = "commit"
PLOT = "plot"            # a Plot Point to keep one more die in the total
SOLIDIFY = "solidify"    # a Plot Point to keep a created asset for the season
LASTING = "lasting"      # a Plot Point to make a complication last until recovered
HARM = "harm"            # the winner: a Plot Point to inflict Trauma instead of Stress
SACRIFICE = "sacrifice"  # the loser: sacrifice Skills and Assets
ADVANCE = "advance"
OPPOSE = "oppose"        # a rival: oppose an asset being created, or let the GM set the difficulty
PHASES = (TURN_START, ACTION, TARGET, TRAIT, DISTINCTION, ATTRIBUTE, SKILL, COMMIT, PLOT,
          SOLIDIFY, LASTING, HARM, SACRIFICE, ADVANCE, OPPOSE)

OPPOSED = ("create-complication", "attack-house", "attack-trait", "seize")
ATTACKS = ("attack-house", "attack-trait", "seize")
NEEDS_TARGET = ("create-complication", "attack-house", "attack-trait")
NEEDS_TRAIT = ("attack-trait", "seize", "repair", "recover", "recover-complication")


# ======================================================================== automatic steps
def settle(state: HousesState, start_turn: bool = True) -> list[Event]:
    """Run automatic steps and forced decisions until a real decision point (or the end).

    With ``start_turn=False`` it stops between seasons, so a scenario saved after a season holds
    no dice of the next one.
    """
    events: list[Event] = []
    for _ in range(100_000):
        phase = state.phase
        if phase == TURN_START:
            if not start_turn or state.is_over():
                state.actor = None
                return events
            _start_season(state, events)
        elif phase == NEXT:
            if state.is_over():  # a House fell and fewer than two stand
                _end_season(state, events)
                continue
            _next(state, events)
        elif stop_or_force(state, legal_actions, apply, events):
            return events
    raise RuntimeError("settle did not reach a decision")  # pragma: no cover


def _start_season(state: HousesState, events: list[Event]) -> None:
    rules = state.rules
    rolls, dice_rolled, keys = {}, {}, {}
    index = {hid: i for i, hid in enumerate(state.houses)}
    for h in state.living():
        pool = [h.attributes["mental"], h.skills["perception"]]
        r = dice.roll(state.rng, pool, labels=["attribute:mental", "skill:perception"])
        rolls[h.id] = r.total
        dice_rolled[h.id] = r.to_dict()
        second = sorted((v for v in r.values if v > 1), reverse=True)[1:2]
        keys[h.id] = (-r.total, -(second[0] if second else 0), index[h.id])
        h.plot_points = min(rules["plot_point_cap"], h.plot_points + rules["plot_points_per_season"])
    state.order = sorted(rolls, key=lambda hid: keys[hid])
    state.order_index = 0
    state.round = 0
    state.ctx = {}
    state.phase = NEXT
    events.append(log(state, "initiative", None, rolls=rolls, order=list(state.order),
                      dice=dice_rolled))


def _next(state: HousesState, events: list[Event]) -> None:
    """Hand the next decision to the next House in order, round after round."""
    a = state.rules["actions_per_season"]
    while True:
        if state.order_index >= len(state.order):
            state.order_index = 0
            state.round += 1
            if state.round == a + 1:  # every House earns its advances ("sessions")
                for x in state.living():
                    x.advances += state.rules["advances_per_season"]
        if state.round > a + 1:
            _end_season(state, events)
            return
        h = state.houses[state.order[state.order_index]]
        if not h.alive:
            state.order_index += 1
            continue
        if state.round <= a:
            state.ctx = {"actor": h.id, "free": state.round == a}
            events.append(log(state, "faction-turn", h.id, round=state.round + 1,
                              free=state.round == a))
            _enter(state, ACTION, h.id)
            return
        # advancement round
        if any(True for _ in _advance_options(state, h)):
            state.ctx = {"actor": h.id}
            _enter(state, ADVANCE, h.id)
            return
        state.order_index += 1


def _end_season(state: HousesState, events: list[Event]) -> None:
    expired = []
    for a in list(state.assets.values()):
        if a.duration in ("fleeting", "season"):
            del state.assets[a.id]
            WRITES.bump()
            expired.append(a.id)
    ended = 0
    for h in state.houses.values():
        keep = [c for c in h.complications if c["lasting"]]
        ended += len(h.complications) - len(keep)
        h.complications = keep
    if expired or ended:
        events.append(log(state, "expired", None, assets=expired, complications=ended))
    state.turn += 1
    state.phase = TURN_START
    state.actor = None
    state.order, state.order_index, state.round, state.ctx = [], 0, 0, {}
    events.append(Event(state.turn, "turn-end", None, {"factions": state.faction_summary()}))
    if state.is_over():
        events.append(game_end(state))


def _enter(state: HousesState, phase: str, actor: str) -> None:
    state.phase = phase
    state.actor = actor


def _finish_action(state: HousesState) -> None:
    state.ctx = {}
    state.order_index += 1
    state.phase = NEXT
    state.actor = None


# ======================================================================== legal actions
def legal_actions(state: HousesState) -> list[Action]:
    return list(_GENERATORS[state.phase](state))


def _me(state: HousesState) -> House:
    return state.houses[state.actor]


def rivals(state: HousesState, hid: str) -> list[House]:
    return [h for h in state.living() if h.id != hid]


def targets(state: HousesState, h: House, kind: str) -> list[str]:
    """Rival Houses an action of ``kind`` can be aimed at."""
    if kind == "attack-trait":
        return [r.id for r in rivals(state, h.id) if attackable_traits(state, r)]
    return [r.id for r in rivals(state, h.id)]


def attackable_traits(state: HousesState, house: House) -> list[str]:
    """Skills above d4 (a d4 Skill cannot be stepped down) and every asset."""
    return [s for s in SKILLS if house.skills[s] > 4] + state.asset_ids(house.id)


def seizable(state: HousesState, h: House) -> list[str]:
    at = state.rules["seize_at"]
    return [a.id for a in state.assets.values() if a.kind == "holding" and a.owner != h.id
            and state.houses[a.owner].alive and a.die <= at]


def traits_for(state: HousesState, h: House, kind: str) -> list[str]:
    if kind == "attack-trait":
        return attackable_traits(state, state.houses[state.ctx["target"]])
    if kind == "seize":
        return seizable(state, h)
    if kind == "repair":
        return h.damaged_skills() + [a.id for a in state.assets.values()
                                     if a.owner == h.id and a.damaged]
    if kind == "recover":
        return [w for w in ("stress", "trauma") if getattr(h, w)]
    if kind == "recover-complication":
        return [f"complication:{c['from']}" for c in h.complications]
    return []


def kind_open(state: HousesState, h: House, kind: str) -> bool:
    if kind == "pass" or kind == "create-asset":
        return True
    if kind in NEEDS_TARGET:
        return bool(targets(state, h, kind))
    return bool(traits_for(state, h, kind))


def _action_options(state: HousesState) -> Iterator[Action]:
    h = _me(state)
    kinds = A.RECOVERY_KINDS if state.ctx.get("free") else A.ACTION_KINDS
    for kind in kinds:
        if kind_open(state, h, kind):
            yield A.ChooseAction(kind)


def _target_options(state: HousesState) -> Iterator[Action]:
    for hid in targets(state, _me(state), state.ctx["kind"]):
        yield A.Target(hid)


def _trait_options(state: HousesState) -> Iterator[Action]:
    for t in traits_for(state, _me(state), state.ctx["kind"]):
        yield A.Trait(t)


def _distinction_options(state: HousesState) -> Iterator[Action]:
    for d in _me(state).distinctions:
        yield A.PickDistinction(d["id"])
        if d["die"] > 4:
            yield A.PickDistinction(d["id"], hinder=True)


def _attribute_options(state: HousesState) -> Iterator[Action]:
    for a in ATTRIBUTES:
        yield A.PickAttribute(a)


def _skill_options(state: HousesState) -> Iterator[Action]:
    for s in SKILLS:
        yield A.PickSkill(s)


def _commit_options(state: HousesState) -> Iterator[Action]:
    pool = state.ctx["pool"]
    cap = state.rules["max_committed_assets"]  # None: as many as the House has (the text)
    if cap is None or len(pool["committed"]) < cap:
        for aid in state.asset_ids(state.actor):
            if aid not in pool["committed"]:
                yield A.Commit(aid)
    yield A.RollPool()


def _plot_options(state: HousesState) -> Iterator[Action]:
    yield A.SpendPlotPoint()
    yield A.Keep()


def _harm_options(state: HousesState) -> Iterator[Action]:
    yield A.SpendPlotPoint()
    if state.ctx["harm"].get("extra"):
        yield A.InflictBoth()
    yield A.Keep()


def _oppose_options(state: HousesState) -> Iterator[Action]:
    yield A.Oppose()
    yield A.Keep()


def _sacrifice_options(state: HousesState) -> Iterator[Action]:
    harm = state.ctx["harm"]
    used = harm.get("used", ())
    for t in outcomes.sacrifice_options(state, _me(state), harm["allowed"]):
        if t not in used:
            yield A.Sacrifice(t)
    yield A.Accept()


def _advance_options(state: HousesState, h: House | None = None) -> Iterator[Action]:
    h = h or _me(state)
    n = h.advances
    if n >= ADVANCE_COSTS["signature"]:
        for a in state.assets.values():
            if a.owner == h.id and a.kind == "asset" and a.created == state.current_turn:
                yield A.Advance("signature", a.id)
    if n >= ADVANCE_COSTS["step-signature"]:
        for a in state.assets.values():
            if a.owner == h.id and a.kind == "signature" and a.full < 12:
                yield A.Advance("step-signature", a.id)
    if n >= ADVANCE_COSTS["sfx"]:
        for name in SFX:
            if name not in h.sfx:
                yield A.Advance("sfx", name)
    if n >= ADVANCE_COSTS["step"]:
        for s in SKILLS:
            if h.skills_full[s] < 12:
                yield A.Advance("step", s)
        for a in state.assets.values():
            if a.owner == h.id and a.kind in ("holding", "resource") and a.full < 12:
                yield A.Advance("step", a.id)
    if n >= ADVANCE_COSTS["attribute"]:
        for up in ATTRIBUTES:
            for down in ATTRIBUTES:
                if up != down and h.attributes[up] < 12 and h.attributes[down] > 4:
                    yield A.Advance("attribute", up, down)


def _advance_phase_options(state: HousesState) -> Iterator[Action]:
    yield from _advance_options(state)
    yield A.Done()


_GENERATORS: dict[str, Callable[[HousesState], Iterator[Action]]] = {
    ACTION: _action_options, TARGET: _target_options, TRAIT: _trait_options,
    DISTINCTION: _distinction_options, ATTRIBUTE: _attribute_options, SKILL: _skill_options,
    COMMIT: _commit_options, PLOT: _plot_options, SOLIDIFY: _plot_options,
    LASTING: _plot_options, HARM: _harm_options, SACRIFICE: _sacrifice_options,
    OPPOSE: _oppose_options,
    ADVANCE: _advance_phase_options,
}


# ======================================================================== applying
def apply(state: HousesState, action: Action, events: list[Event]) -> None:
    """Apply a legal action (legality is checked by the caller)."""
    handler = _HANDLERS.get((state.phase, type(action)))
    if handler is None:
        raise IllegalActionError(f"{action} cannot be applied in phase {state.phase}")
    handler(state, action, events)


def _choose(state: HousesState, action: A.ChooseAction, events: list[Event]) -> None:
    ctx = state.ctx
    ctx["kind"] = action.kind
    if action.kind == "pass":
        events.append(log(state, "action", state.actor, action="pass", free=ctx.get("free", False)))
        _finish_action(state)
    elif action.kind in NEEDS_TARGET:
        _enter(state, TARGET, state.actor)
    elif action.kind in NEEDS_TRAIT:
        _enter(state, TRAIT, state.actor)
    else:
        _begin(state, events)


def _target(state: HousesState, action: A.Target, events: list[Event]) -> None:
    state.ctx["target"] = action.house
    if state.ctx["kind"] in NEEDS_TRAIT:
        _enter(state, TRAIT, state.actor)
    else:
        _begin(state, events)


def _trait(state: HousesState, action: A.Trait, events: list[Event]) -> None:
    state.ctx["trait"] = action.trait
    if state.ctx["kind"] == "seize":
        state.ctx["target"] = state.assets[action.trait].owner
    _begin(state, events)


def _begin(state: HousesState, events: list[Event]) -> None:
    """The action is chosen: tell it, then the actor builds its pool."""
    ctx = state.ctx
    events.append(log(state, "action", ctx["actor"], action=ctx["kind"], target=ctx.get("target"),
                      trait=ctx.get("trait"), free=ctx.get("free", False)))
    ctx["rolls"] = {}
    if ctx["kind"] == "create-asset" and state.rules["create_asset_opposed"]:
        ctx["asking"] = [hid for hid in _after_in_order(state, ctx["actor"])
                         if state.houses[hid].alive]
        if _ask_opposer(state):
            return
    _start_pool(state, ctx["actor"], "actor")


def _after_in_order(state: HousesState, hid: str) -> list[str]:
    """The other Houses in initiative order, starting with the one after ``hid``."""
    order = state.order if hid in state.order else list(state.houses)
    i = order.index(hid)
    return order[i + 1:] + order[:i]


def _ask_opposer(state: HousesState) -> bool:
    """Ask the next rival whether it opposes the asset being created; False when none is left."""
    asking = state.ctx["asking"]
    if not asking:
        state.ctx.pop("asking")
        return False
    _enter(state, OPPOSE, asking[0])
    return True


def _oppose(state: HousesState, action: Action, events: list[Event]) -> None:
    """A rival opposes the asset (it becomes the contest's defender) or lets it pass."""
    ctx = state.ctx
    hid = ctx["asking"].pop(0)
    if isinstance(action, A.Oppose):
        ctx.pop("asking")
        ctx["target"] = hid
        events.append(log(state, "oppose", hid, actor=ctx["actor"]))
    elif _ask_opposer(state):
        return
    _start_pool(state, ctx["actor"], "actor")


def _start_pool(state: HousesState, hid: str, role: str) -> None:
    state.ctx["pool"] = {"house": hid, "role": role, "dice": [], "labels": [], "committed": [],
                         "hinder": False}
    _enter(state, DISTINCTION, hid)


def _add(state: HousesState, label: str, die: int) -> None:
    pool = state.ctx["pool"]
    pool["dice"].append(die)
    pool["labels"].append(label)


def _distinction(state: HousesState, action: A.PickDistinction, events: list[Event]) -> None:
    d = next(x for x in _me(state).distinctions if x["id"] == action.distinction)
    _add(state, f"distinction:{d['id']}", 4 if action.hinder else d["die"])
    state.ctx["pool"]["hinder"] = action.hinder
    state.phase = ATTRIBUTE


def _attribute(state: HousesState, action: A.PickAttribute, events: list[Event]) -> None:
    _add(state, f"attribute:{action.attribute}", _me(state).attributes[action.attribute])
    state.phase = SKILL


def _skill(state: HousesState, action: A.PickSkill, events: list[Event]) -> None:
    _add(state, f"skill:{action.skill}", _me(state).skills[action.skill])
    if state.ctx["pool"]["role"] == "actor":
        state.ctx["skill"] = action.skill
    state.phase = COMMIT


def _commit(state: HousesState, action: A.Commit, events: list[Event]) -> None:
    a = state.assets[action.asset]
    state.ctx["pool"]["committed"].append(a.id)
    _add(state, f"asset:{a.id}", a.die)


def _roll(state: HousesState, action: A.RollPool, events: list[Event]) -> None:
    ctx = state.ctx
    pool = ctx["pool"]
    h = _me(state)
    kind = ctx["kind"]
    if pool["role"] == "actor":
        ctx["committed"] = list(pool["committed"])
    opponent = state.houses.get(ctx.get("target") or "") if pool["role"] == "actor" \
        else state.houses[ctx["actor"]]
    if opposed(ctx) and opponent is not None:
        for label, die in _hindrance_labels(opponent):
            _add(state, label, die)
    if "stalwart" in h.sfx and pool["role"] == "defender":
        _add(state, "sfx:stalwart", 6)
    if "resilient" in h.sfx and kind in A.RECOVERY_KINDS:
        _add(state, "sfx:resilient", 6)
    r = dice.roll(state.rng, pool["dice"], labels=pool["labels"])
    if "ruthless" in h.sfx and pool["role"] == "actor" and kind in ATTACKS:
        r.effect = min(12, dice.step_up(r.effect) or 12)
        r.labels = [*r.labels, "sfx:ruthless"]
    # a fleeting asset serves one roll: it is spent when the action is over (see _spend_fleeting)
    ctx.setdefault("fleeting", []).extend(
        aid for aid in pool["committed"] if state.assets[aid].duration == "fleeting")
    if pool["hinder"]:
        h.plot_points = min(state.rules["plot_point_cap"], h.plot_points + 1)
        events.append(log(state, "plot-point", h.id, use="hinder", gained=1, left=h.plot_points))
    ctx["rolls"][pool["role"]] = {"house": h.id, **r.to_dict()}
    if h.plot_points > 0 and r.can_add():
        state.phase = PLOT
    else:
        _pool_done(state, events)


def _hindrance_labels(h: House) -> list[tuple[str, int]]:
    out = []
    if h.stress:
        out.append((f"stress:{h.id}", h.stress))
    if h.trauma:
        out.append((f"trauma:{h.id}", h.trauma))
    if h.complications:
        c = max(h.complications, key=lambda c: c["die"])
        out.append((f"complication:{h.id}:{c['from']}", c["die"]))
    return out


def _plot(state: HousesState, action: Action, events: list[Event]) -> None:
    ctx = state.ctx
    h = _me(state)
    if state.phase == PLOT:
        if isinstance(action, A.SpendPlotPoint):
            role = ctx["pool"]["role"]
            r = dice.add_die(dice.RollResult.from_dict(ctx["rolls"][role]))
            h.plot_points -= 1
            ctx["rolls"][role] = {"house": h.id, **r.to_dict()}
            events.append(log(state, "plot-point", h.id, use="add-die", left=h.plot_points))
        _pool_done(state, events)
    elif state.phase == SOLIDIFY:
        if isinstance(action, A.SpendPlotPoint) and ctx["asset"] in state.assets:
            h.plot_points -= 1
            state.assets[ctx["asset"]].duration = "season"
            events.append(log(state, "plot-point", h.id, use="solidify", asset=ctx["asset"],
                              left=h.plot_points))
        ctx.pop("ask", None)
        _after_resolve(state, events)
    elif state.phase == LASTING:
        if isinstance(action, A.SpendPlotPoint):
            h.plot_points -= 1
            comp = next(c for c in state.houses[ctx["target"]].complications
                        if c["from"] == h.id)
            comp["lasting"] = True
            WRITES.bump()
            events.append(log(state, "plot-point", h.id, use="lasting", target=ctx["target"],
                              left=h.plot_points))
        ctx.pop("ask", None)
        _after_resolve(state, events)
    elif state.phase == HARM:
        harm = ctx["harm"]
        if isinstance(action, A.SpendPlotPoint):
            h.plot_points -= 1
            harm["kind"] = "trauma"
            events.append(log(state, "plot-point", h.id, use="trauma", target=harm["to"],
                              left=h.plot_points))
        elif isinstance(action, A.InflictBoth):
            h.plot_points -= 1
            ctx["harm_next"] = {**harm, "kind": "trauma", "effect": harm["extra"]}
            events.append(log(state, "plot-point", h.id, use="both", target=harm["to"],
                              extra=harm["extra"], left=h.plot_points))
        _offer_sacrifice(state, events)


def opposed(ctx: dict) -> bool:
    """Does a rival House roll against this action (a contest) rather than the GM's difficulty?
    The opposed actions, and Create an Asset when a rival chose to oppose it."""
    return ctx["kind"] in OPPOSED or (ctx["kind"] == "create-asset" and bool(ctx.get("target")))


def unopposed_hindrance(actor: House, ctx: dict) -> list[tuple[str, int]]:
    """What an unopposed roll meets besides the GM's difficulty (2d8), action by action:

    - Repair: "2d8 plus any relevant Complications, Stress or Trauma" [text]: all of them;
    - Recover Stress or Trauma: "2d8 + the Stress or Trauma you're attempting to recover from"
      [text]: that one only;
    - Recover from a Complication: "roll against the Complication at standard difficulty" [text]:
      2d8 + that Complication only;
    - Create an Asset: the House's Stress, Trauma and largest Complication [ours: what hinders a
      House hinders its every roll; the GM "sets the difficulty"].
    """
    kind = ctx["kind"]
    if kind == "recover":
        return [(f"{ctx['trait']}:{actor.id}", getattr(actor, ctx["trait"]))]
    if kind == "recover-complication":
        source = ctx["trait"].split(":", 1)[1]
        comp = next(c for c in actor.complications if c["from"] == source)
        return [(f"complication:{actor.id}:{source}", comp["die"])]
    if kind == "repair":
        out = [(f"{w}:{actor.id}", getattr(actor, w)) for w in ("stress", "trauma") if getattr(actor, w)]
        return out + [(f"complication:{actor.id}:{c['from']}", c["die"]) for c in actor.complications]
    return _hindrance_labels(actor)


def _pool_done(state: HousesState, events: list[Event]) -> None:
    ctx = state.ctx
    if ctx["pool"]["role"] == "actor":
        if opposed(ctx):
            _start_pool(state, ctx["target"], "defender")
            return
        actor = state.houses[ctx["actor"]]
        hind = unopposed_hindrance(actor, ctx)
        diff = list(state.rules["difficulty"])
        labels = ["difficulty"] * len(diff) + [x[0] for x in hind]
        r = dice.roll(state.rng, diff + [x[1] for x in hind], hitches_count=True, labels=labels)
        ctx["rolls"]["opposition"] = {"house": None, **r.to_dict()}
    else:
        ctx["rolls"]["opposition"] = ctx["rolls"].pop("defender")
    ctx.pop("pool")
    state.actor = ctx["actor"]
    outcomes.resolve(state, events)
    ask = ctx.get("ask")
    if ask == "solidify":
        _enter(state, SOLIDIFY, ctx["actor"])
    elif ask == "lasting":
        _enter(state, LASTING, ctx["actor"])
    else:
        _after_resolve(state, events)


def _after_resolve(state: HousesState, events: list[Event]) -> None:
    harm = state.ctx.get("harm")
    if harm is not None:
        by = state.houses[harm["by"]]
        if by.alive and by.plot_points > 0:
            _enter(state, HARM, by.id)
            return
        _offer_sacrifice(state, events)
        return
    _hitches(state, events)


def _offer_sacrifice(state: HousesState, events: list[Event]) -> None:
    harm = state.ctx["harm"]
    events.append(log(state, "harm", harm["to"], by=harm["by"], effect=harm["effect"],
                      harm=harm["kind"]))
    _enter(state, SACRIFICE, harm["to"])


def _sacrifice(state: HousesState, action: A.Sacrifice, events: list[Event]) -> None:
    outcomes.sacrifice(state, _me(state), action.trait, events)
    if state.ctx["harm"]["effect"] <= 0:
        _accept(state, action, events)


def _accept(state: HousesState, action: Action, events: list[Event]) -> None:
    """What is left of the effect lands; then the second effect die of "Stress and Trauma", if
    the winner bought one, comes in (it may be absorbed in turn)."""
    outcomes.apply_harm(state, events)
    nxt = state.ctx.pop("harm_next", None)
    if nxt is not None and state.houses[nxt["to"]].alive:
        state.ctx["harm"] = nxt
        _offer_sacrifice(state, events)
        return
    _hitches(state, events)


def _hitches(state: HousesState, events: list[Event]) -> None:
    """Hitches on failed rolls become complications; on a Trauma recovery they escalate it."""
    ctx = state.ctx
    success = ctx["success"]
    act = ctx["rolls"]["actor"]
    actor = state.houses[ctx["actor"]]
    if ctx["kind"] == "recover" and ctx["trait"] == "trauma":
        outcomes.escalate_trauma(state, actor, act["hitches"], events)
    elif not success:
        outcomes.hitch_complications(state, actor, act["hitches"], events)
    opp = ctx["rolls"]["opposition"]
    if opp["house"] is not None and success:
        outcomes.hitch_complications(state, state.houses[opp["house"]], opp["hitches"], events)
    _spend_fleeting(state, events)
    state.phase = ACTION
    _finish_action(state)


def _spend_fleeting(state: HousesState, events: list[Event]) -> None:
    """Fleeting assets committed to this action's pools are spent now that it is over (a
    fleeting asset serves one roll); one already lost or stepped away is simply gone. Spending
    them only here keeps them in play while the action is resolved (an attack on the asset
    itself, its own repair, a sacrifice)."""
    for aid in state.ctx.get("fleeting", ()):
        a = state.assets.get(aid)
        if a is not None:
            outcomes.lose_asset(state, a, "spent", events)


def _advance(state: HousesState, action: A.Advance, events: list[Event]) -> None:
    h = _me(state)
    cost = ADVANCE_COSTS[action.option]
    h.advances -= cost
    detail: dict = {}
    if action.option == "signature":
        a = state.assets[action.trait]
        a.kind, a.die, a.full, a.duration = "signature", 6, 6, "permanent"
        detail = {"name": a.name, "die": 6}
    elif action.option == "step-signature":
        a = state.assets[action.trait]
        a.full = dice.step_up(a.full)
        a.die = dice.step_up(a.die) or 12
        detail = {"name": a.name, "die": a.die}
    elif action.option == "sfx":
        h.sfx.append(action.trait)
        WRITES.bump()
    elif action.option == "step":
        if action.trait in h.skills:
            h.skills_full[action.trait] = dice.step_up(h.skills_full[action.trait])
            h.skills[action.trait] = min(h.skills_full[action.trait], h.skills[action.trait] + 2)
            WRITES.bump()
            detail = {"die": h.skills[action.trait], "full": h.skills_full[action.trait]}
        else:
            a = state.assets[action.trait]
            a.full = dice.step_up(a.full)
            a.die = min(a.full, a.die + 2)
            detail = {"name": a.name, "die": a.die, "full": a.full}
    elif action.option == "attribute":
        h.attributes[action.trait] = dice.step_up(h.attributes[action.trait])
        h.attributes[action.other] = dice.step_down(h.attributes[action.other])
        WRITES.bump()
        detail = {"up_to": h.attributes[action.trait], "down_to": h.attributes[action.other]}
    events.append(log(state, "advance", h.id, option=action.option, trait=action.trait,
                      other=action.other, cost=cost, left=h.advances, **detail))


def _advance_done(state: HousesState, action: A.Done, events: list[Event]) -> None:
    _finish_action(state)


_HANDLERS: dict[tuple[str, type], Callable[[HousesState, Action, list[Event]], None]] = {
    (ACTION, A.ChooseAction): _choose, (TARGET, A.Target): _target, (TRAIT, A.Trait): _trait,
    (DISTINCTION, A.PickDistinction): _distinction, (ATTRIBUTE, A.PickAttribute): _attribute,
    (SKILL, A.PickSkill): _skill, (COMMIT, A.Commit): _commit, (COMMIT, A.RollPool): _roll,
    (SACRIFICE, A.Sacrifice): _sacrifice, (SACRIFICE, A.Accept): _accept,
    (ADVANCE, A.Advance): _advance, (ADVANCE, A.Done): _advance_done,
}
for _phase in (PLOT, SOLIDIFY, LASTING, HARM):
    _HANDLERS[(_phase, A.SpendPlotPoint)] = _plot
    _HANDLERS[(_phase, A.Keep)] = _plot
_HANDLERS[(HARM, A.InflictBoth)] = _plot
_HANDLERS[(OPPOSE, A.Oppose)] = _oppose
_HANDLERS[(OPPOSE, A.Keep)] = _oppose
