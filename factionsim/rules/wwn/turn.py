"""The faction turn (6.2.0) as a sequence of decision points.

At the start of each turn every living faction rolls 1d8 for initiative (ties: the faction listed
first in the campaign goes first). Each faction in order then:

1. takes exposure damage (assets left where they are forbidden, see ``movement.py``), earns income
   and pays upkeep (automatic);
2. may use its free abilities, each once, in the order it likes (``abilities`` phase);
3. takes one faction action (``action`` phase, then that action's own steps);
4. checks its goal, picks a new one or keeps the old, and may spend XP (``goal``, ``raise``).

A defender's choice (which asset meets an attack) and a rival's answer to a new Base of
Influence are decisions of those factions, taken in the middle of the acting faction's turn.
A decision point with exactly one legal action is applied automatically.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from factionsim.core.dice import roll_die
from factionsim.core.engine import stop_or_force
from factionsim.core.game import Action, Event, IllegalActionError

from . import abilities, economy, flow, goals, movement
from . import actions as A
from .checks import CheckResult, start_check
from .combat import resolve_attack
from .data import ATTRIBUTES, BASE_OF_INFLUENCE
from .house_rules import HouseRules
from .model import Asset, Faction

if TYPE_CHECKING:
    from .state import WwnState

TURN_START = "turn-start"
FACTION_START = "faction-start"
FACTION_END = "faction-end"
START_EFFECTS = "start-effects"
ABILITIES = "abilities"
ACTION = "action"
ATTACK = "attack"
DEFEND = "defend"
MOVE = "move"
REPAIR = "repair"
EXPAND_WHERE = "expand-where"
EXPAND_HP = "expand-hp"
RIVAL_ATTACK = "rival-attack"
CREATE = "create"
HIDE = "hide"
SELL = "sell"
GOAL = "goal"
RAISE = "raise"

#: The phase each faction action opens.
ACTION_PHASE = {"attack": ATTACK, "move": MOVE, "repair": REPAIR, "expand": EXPAND_WHERE,
                "create": CREATE, "hide": HIDE, "sell": SELL}
HIDE_COST = 2
HIDE_MIN_CUNNING = 3
_TAG_OF_TOP_ATTRIBUTE = {"machiavellian": "cunning", "martial": "force", "rich": "wealth"}


def acting(state: WwnState) -> Faction:
    """The faction whose turn it is."""
    return state.factions[state.order[state.order_index]]


# ======================================================================== automatic steps
def settle(state: WwnState, start_turn: bool = True) -> list[Event]:
    """Run automatic steps and forced decisions until a real decision point (or the end).

    With ``start_turn=False`` it stops between turns, so a campaign saved after the last
    faction's turn holds no dice of the next turn yet.
    """
    events: list[Event] = []
    while True:
        phase = state.phase
        if phase == TURN_START:
            if not start_turn or state.is_over():
                state.actor = None
                return events
            _start_turn(state, events)
        elif phase == FACTION_START:
            _begin_faction_turn(state, events)
        elif phase == FACTION_END:
            _end_faction_turn(state, events)
        elif phase == START_EFFECTS and not flow.asking(state):
            _start_effects(state, events)
        elif not state.factions[state.order[state.order_index]].alive:  # (acting(), inline)
            state.phase = FACTION_END
        elif stop_or_force(state, legal_actions, apply, events):
            return events


def _start_turn(state: WwnState, events: list[Event]) -> None:
    rolls = {f.id: roll_die(state.rng, 8) for f in state.living_factions()}
    index = {fid: i for i, fid in enumerate(state.factions)}
    state.order = sorted(rolls, key=lambda fid: (-rolls[fid], index[fid]))
    state.initiative = rolls
    state.order_index = 0
    state.phase = FACTION_START
    events.append(Event(state.current_turn, "initiative", None,
                        {"rolls": rolls, "order": list(state.order)}))


def _begin_faction_turn(state: WwnState, events: list[Event]) -> None:
    f = acting(state)
    state.ctx = {"used": [], "done": []}
    if not f.alive:
        state.phase = FACTION_END
        return
    events.append(Event(state.current_turn, "faction-turn", f.id, {"treasure": f.treasure}))
    movement.exposure_damage(state, f, events)
    economy.income_and_upkeep(state, f, events)
    if not f.alive:
        state.phase = FACTION_END
    else:
        state.ctx["start_effects"] = abilities.turn_start_holders(state, f.id)
        _enter(state, START_EFFECTS)


def _start_effects(state: WwnState, events: list[Event]) -> None:
    """Run the next start-of-turn ability (each may pause for decisions), then move on to the
    free abilities; a paralysed faction (it abandoned its goal last turn) skips its Faction
    Action, and with the house rule ``paralysis_blocks_abilities`` (the default) its abilities
    too: straight to the goal step."""
    f = acting(state)
    queue = state.ctx["start_effects"]
    while queue:
        asset = state.assets.get(queue.pop(0))
        if asset is not None and abilities.usable(state, asset):
            flow.run(state, movement.start_of_turn, state, asset, events)
            return
    del state.ctx["start_effects"]
    if f.paralysed:
        f.paralysed = False
        state.ctx["paralysed"] = True
        blocked = state.house_rules.paralysis_blocks_abilities
        events.append(Event(state.current_turn, "paralysed", f.id, {"abilities_blocked": blocked}))
        if blocked:
            _enter_goal(state, events)
            return
    _enter(state, ABILITIES)


def _end_faction_turn(state: WwnState, events: list[Event]) -> None:
    f = acting(state)
    if f.alive:
        abilities.turn_end(state, f.id, events)
    if state.next_in_order(FACTION_START):
        return
    state.initiative = {}
    events.append(Event(state.turn, "turn-end", None, {
        "factions": {f.id: {"hp": f.hp, "treasure": f.treasure, "assets": len(state.assets_of(f.id))}
                     for f in state.factions.values() if f.alive}}))


def _enter(state: WwnState, phase: str, actor: str | None = None) -> None:
    state.phase = phase
    state.actor = actor or state.order[state.order_index]  # (the acting faction's id)


def _enter_goal(state: WwnState, events: list[Event]) -> None:
    f = acting(state)
    outcome = goals.evaluate(state, f, bool(state.ctx.get("attacked")))
    _settle_goal_outcome(state, f, outcome, events)
    _enter(state, GOAL)


def _settle_goal_outcome(state: WwnState, f: Faction, outcome: str | None,
                         events: list[Event]) -> None:
    if outcome == "complete":
        goals.complete(state, f, events)
    elif outcome == "failed":
        assert f.goal is not None
        events.append(Event(state.current_turn, "goal-failed", f.id,
                            {"goal": f.goal.id, "target": f.goal.target}))
        f.goal = None


# ======================================================================== legal actions
def legal_actions(state: WwnState) -> list[Action]:
    return list(_GENERATORS[state.phase](state))


#: the choices that take no parameter from the state, made once (actions are frozen values):
#: the env's codec finds their indices by object, without encoding them again
_DONE = A.Done()
_KEEP_GOAL = A.KeepGoal()
_CHOOSE = {kind: A.ChooseAction(kind) for kind in A.ACTION_KINDS}


def _abilities_options(state: WwnState) -> Iterator[Action]:
    f = acting(state)
    used = state.ctx["used"]
    if f.has_tag("imperialist") and "imperialist" not in used and any(_expand_where(state)):
        yield A.UseAbility("imperialist")
    for asset_id, option in abilities.free_options(state, f.id):
        key = abilities.free_use_key(state, state.assets[asset_id], option)
        if key is None or key not in used:
            yield A.UseAbility(asset_id, option)
    yield _DONE


def _action_options(state: WwnState) -> Iterator[Action]:
    for kind, phase in ACTION_PHASE.items():
        if any(a for a in _GENERATORS[phase](state) if not isinstance(a, A.Done)):
            yield _CHOOSE[kind]
    yield _CHOOSE["pass"]


def _attack_options(state: WwnState) -> Iterator[Action]:
    return _each_asset_once(state, movement.can_attack, movement.attack_targets, A.Attack,
                            abilities.attack_options)


def _defend_options(state: WwnState) -> Iterator[Action]:
    pending = state.ctx["pending"]
    attacker = state.assets[pending["attacker"]]
    for d in movement.defenders(state, pending["target"], attacker):
        yield A.Defend(d.id)


def _move_options(state: WwnState) -> Iterator[Action]:
    return _each_asset_once(state, _may_move, movement.destinations, A.Move,
                            abilities.move_options)


def _may_move(state: WwnState, a: Asset) -> bool:
    return not a.is_base and abilities.usable(state, a)


def _each_asset_once(state: WwnState, may_act: Callable[[WwnState, Asset], bool],
                     choices: Callable[[WwnState, Asset], Iterable[str]],
                     make: Callable[[str, str], Action],
                     in_place: Callable[[WwnState, str, list[str]], list[tuple[str, str]]],
                     ) -> Iterator[Action]:
    """The options of a Faction Action in which each of the acting faction's assets acts at most
    once (Attack, Move Asset): ``make(asset id, choice)`` for each asset not yet ``done`` that
    ``may_act``, one per choice; the abilities' uses ``in_place`` of it; then Done."""
    f = acting(state)
    done = state.ctx["done"]
    for a in state.assets_of(f.id):
        if a.id not in done and may_act(state, a):
            for choice in choices(state, a):
                yield make(a.id, choice)
    for asset_id, option in in_place(state, f.id, done):
        yield A.UseAbility(asset_id, option)
    yield _DONE


def _repair_options(state: WwnState) -> Iterator[Action]:
    f = acting(state)
    fixes = state.ctx.setdefault("fixes", {})
    for a in state.assets_of(f.id):
        if a.damaged and fixes.get(a.id, 0) + 1 <= f.treasure:
            yield A.Repair(a.id)
    if not state.ctx.get("healed") and f.hp < f.max_hp and f.treasure >= 1:
        yield A.RepairFaction()
    yield _DONE


def _expand_where(state: WwnState) -> Iterator[Action]:
    f = acting(state)
    if f.treasure < 1:
        return
    seen: set[str] = set()
    for a in state.assets_of(f.id):
        if a.location not in seen:
            seen.add(a.location)
            if state.base_of(f.id, a.location) is None:
                yield A.ExpandAt(a.location)


def _expand_hp(state: WwnState) -> Iterator[Action]:
    f = acting(state)
    for hp in range(1, min(f.treasure, f.max_hp) + 1):
        yield A.BaseHp(hp)


def _rival_attack_options(state: WwnState) -> Iterator[Action]:
    rival = state.actor
    builder = acting(state).id
    done = state.ctx["rival_done"]
    for a in state.assets_at(state.ctx["expand"]):
        if a.owner == rival and a.id not in done and movement.can_attack(state, a) \
                and movement.defenders(state, builder, a):
            yield A.Attack(a.id, builder)
    yield _DONE


def _create_options(state: WwnState) -> Iterator[Action]:
    f = acting(state)
    for base in state.assets_of(f.id):
        if base.is_base:
            for kind in economy.buyable(state, f, base.location):
                yield A.Create(kind, base.location)


def _hide_options(state: WwnState) -> Iterator[Action]:
    f = acting(state)
    if f.cunning >= HIDE_MIN_CUNNING and f.treasure >= HIDE_COST:
        for a in state.assets_of(f.id):
            if not a.is_base and not a.stealth and not any(
                b.is_base and b.owner != f.id for b in state.assets_at(a.location)
            ):
                yield A.Hide(a.id)
    yield _DONE  # always: running out of Treasure mid-action must not leave no legal action


def _sell_options(state: WwnState) -> Iterator[Action]:
    f = acting(state)
    for a in state.assets_of(f.id):
        if not a.is_base and economy.sellable(state, a):
            yield A.Sell(a.id)
    yield _DONE


def _goal_options(state: WwnState) -> Sequence[Action]:
    """Keep (or advance) the current goal, or adopt any other (a list: built at most decisions)."""
    f = acting(state)
    g = f.goal
    if g is None:
        return goals.options(state, f)
    out: list[Action] = []
    if g.id == "wealth-of-kingdoms" and f.treasure > 0:
        out.append(A.Bribe(min(f.treasure, g.needed - g.progress)))
    out.append(_KEEP_GOAL)
    out += goals.options_besides(state, f, g)
    return out


def _react_options(state: WwnState) -> Iterator[Action]:
    for text in state.ctx["ask"]["options"]:
        yield A.parse_action(text)


def _raise_options(state: WwnState) -> Iterator[Action]:
    f = acting(state)
    lowest = min(f.force, f.cunning, f.wealth)
    if lowest >= 8 or f.xp < state.house_rules.xp_to_raise(lowest + 1):
        # (most goal steps: the cheapest step, the lowest rating's, is beyond the XP; a step
        # never costs less at a higher rating, see data.XP_TO_RAISE, so none is open)
        yield _DONE
        return
    for attr in ATTRIBUTES:
        if can_raise(f, attr, state.house_rules):
            yield A.RaiseRating(attr)
    yield _DONE


def can_raise(f: Faction, attr: str, rules: HouseRules | None = None) -> bool:
    """Enough XP for the next step (its cost by the house rule ``xp_cost``), rating below 8, and
    tags that demand a top attribute hold."""
    new = f.rating(attr) + 1
    if new > 8 or f.xp < (rules or HouseRules()).xp_to_raise(new):
        return False
    return not any(f.has_tag(tag) and top != attr and new > f.rating(top)
                   for tag, top in _TAG_OF_TOP_ATTRIBUTE.items())


_GENERATORS: dict[str, Callable[[WwnState], Iterable[Action]]] = {
    ABILITIES: _abilities_options, ACTION: _action_options, ATTACK: _attack_options,
    DEFEND: _defend_options, MOVE: _move_options, REPAIR: _repair_options,
    EXPAND_WHERE: _expand_where, EXPAND_HP: _expand_hp, RIVAL_ATTACK: _rival_attack_options,
    CREATE: _create_options, HIDE: _hide_options, SELL: _sell_options, GOAL: _goal_options,
    RAISE: _raise_options, flow.REACT: _react_options,
}


# ======================================================================== applying
def apply(state: WwnState, action: Action, events: list[Event]) -> None:
    """Apply a legal action (legality is checked by the caller)."""
    if state.phase == flow.REACT:
        flow.answer(state, action, events)
        return
    handler = _HANDLERS.get((state.phase, type(action)))
    if handler is None:
        raise IllegalActionError(f"{action} cannot be applied in phase {state.phase}")
    handler(state, action, events)


def _log(state: WwnState, kind: str, faction: str | None, **data) -> Event:
    return Event(state.current_turn, kind, faction, data)


def _done(state: WwnState, action: A.Done, events: list[Event]) -> None:
    if state.phase == ABILITIES:
        if state.ctx.get("paralysed"):  # abilities but no Faction Action (house rule)
            _enter_goal(state, events)
        else:
            _enter(state, ACTION)
    elif state.phase == RAISE:
        state.phase = FACTION_END
    elif state.phase == RIVAL_ATTACK:
        state.ctx["rivals"].pop(0)
        _next_rival(state, events)
    else:
        _enter_goal(state, events)


def _use_ability(state: WwnState, action: A.UseAbility, events: list[Event]) -> None:
    if action.source == "imperialist":
        state.ctx["used"].append(action.source)
        events.append(_log(state, "ability", acting(state).id, source="imperialist",
                           effect="expand-influence"))
        state.ctx["expand_resume"] = ABILITIES
        _enter(state, EXPAND_WHERE)
        return
    asset = state.assets[action.source]
    key = abilities.free_use_key(state, asset, action.option)
    if key is not None:
        state.ctx["used"].append(key)
    abilities.on_act(state, asset, events)
    flow.run(state, abilities.free_use, state, asset, action.option, events)


def _special_attack(state: WwnState, action: A.UseAbility, events: list[Event]) -> None:
    """An attack made "in place of an Attack" by an ability (Cryptomancers, Seditionists)."""
    state.ctx["done"].append(action.source)
    flow.run(state, abilities.attack_use, state, state.assets[action.source], action.option, events)


def _special_move(state: WwnState, action: A.UseAbility, events: list[Event]) -> None:
    """A Move Asset option an ability gives (Vanguard Unit moving its group)."""
    state.ctx["done"].append(action.source)
    flow.run(state, abilities.move_use, state, state.assets[action.source], action.option, events)


def _choose_action(state: WwnState, action: A.ChooseAction, events: list[Event]) -> None:
    f = acting(state)
    state.ctx["kind"] = action.kind
    events.append(_log(state, "action", f.id, action=action.kind))
    if action.kind == "pass":
        _enter_goal(state, events)
        return
    if action.kind == "attack":
        state.ctx["attacked"] = True
    state.ctx["expand_resume"] = GOAL
    _enter(state, ACTION_PHASE[action.kind])


def _attack(state: WwnState, action: A.Attack, events: list[Event]) -> None:
    key = "rival_done" if state.phase == RIVAL_ATTACK else "done"
    state.ctx[key].append(action.asset)
    attacker = state.assets[action.asset]
    candidates = movement.defenders(state, action.target, attacker)
    if len(candidates) == 1:
        resolve_attack(state, attacker, candidates[0], events)
        return
    state.ctx["pending"] = {"attacker": attacker.id, "target": action.target,
                            "resume": [state.phase, state.actor]}
    _enter(state, DEFEND, action.target)


def _defend(state: WwnState, action: A.Defend, events: list[Event]) -> None:
    pending = state.ctx.pop("pending")
    state.phase, state.actor = pending["resume"]
    resolve_attack(state, state.assets[pending["attacker"]], state.assets[action.asset], events)


def _move(state: WwnState, action: A.Move, events: list[Event]) -> None:
    state.ctx["done"].append(action.asset)
    abilities.on_act(state, state.assets[action.asset], events)
    flow.run(state, movement.move_asset, state, state.assets[action.asset], action.destination, events)


def _repair(state: WwnState, action: A.Repair, events: list[Event]) -> None:
    economy.repair_asset(state, acting(state), state.assets[action.asset], events)


def _repair_faction(state: WwnState, action: A.RepairFaction, events: list[Event]) -> None:
    state.ctx["healed"] = True
    economy.repair_faction(state, acting(state), events)


def _expand_at(state: WwnState, action: A.ExpandAt, events: list[Event]) -> None:
    state.ctx["expand"] = action.location
    _enter(state, EXPAND_HP)


def _base_hp(state: WwnState, action: A.BaseHp, events: list[Event]) -> None:
    """Plant the Base, then a Cunning vs Cunning check against every other faction present."""
    f = acting(state)
    loc = state.ctx["expand"]
    f.treasure -= action.hp
    base = state.new_asset(BASE_OF_INFLUENCE, f.id, loc, max_hp=action.hp)
    events.append(_log(state, "expand", f.id, location=loc, base=base.id, hp=action.hp,
                       cost=action.hp))
    present = [fid for fid in state.factions
               if fid != f.id and any(a.owner == fid for a in state.assets_at(loc))]
    state.ctx.update(base=base.id, rivals=[], rival_done=[],
                     contested=any(state.hostile(f.id, fid) for fid in present))
    flow.call(state, "expand-check", {"present": present, "i": 0}, events)


@flow.step("expand-check")
def _expand_check(state: WwnState, args: dict, events: list[Event]) -> None:
    """Roll the builder's check against the next faction present (rerolls may pause it)."""
    present, i = args["present"], args["i"]
    if i >= len(present):
        _next_rival(state, events)
        return
    f, loc = acting(state), state.ctx["expand"]
    start_check(state, f.id, "cunning", present[i], "cunning", "expand-check-done",
                {"present": present, "i": i}, events,
                extra_attacker_dice=abilities.expand_extra_dice(state, f.id, loc))


@flow.step("expand-check-done")
def _expand_check_done(state: WwnState, args: dict, events: list[Event]) -> None:
    check = CheckResult.from_state(args["check"])
    rival = args["present"][args["i"]]
    events.append(_log(state, "expand-check", acting(state).id, rival=rival,
                       location=state.ctx["expand"], **check.to_dict()))
    if not check.success:
        state.ctx["rivals"].append(rival)
    _expand_check(state, {"present": args["present"], "i": args["i"] + 1}, events)


def _next_rival(state: WwnState, events: list[Event]) -> None:
    rivals = state.ctx["rivals"]
    if rivals:
        _enter(state, RIVAL_ATTACK, rivals[0])
        return
    f = acting(state)
    base_id = state.ctx.pop("base")
    survived = base_id in state.assets
    events.append(_log(state, "base-planted" if survived else "base-lost", f.id,
                       base=base_id, location=state.ctx["expand"]))
    if survived:
        goals.on_base_planted(state, f.id, state.ctx.get("contested", False))
    if state.ctx.pop("expand_resume") == ABILITIES:
        _enter(state, ABILITIES)
    else:
        _enter_goal(state, events)


def _create(state: WwnState, action: A.Create, events: list[Event]) -> None:
    economy.create_asset(state, acting(state), action.asset_type, action.location, events)
    _enter_goal(state, events)


def _hide(state: WwnState, action: A.Hide, events: list[Event]) -> None:
    f = acting(state)
    f.treasure -= HIDE_COST
    state.assets[action.asset].stealth = True
    events.append(_log(state, "hide", f.id, asset=action.asset, cost=HIDE_COST))


def _sell(state: WwnState, action: A.Sell, events: list[Event]) -> None:
    economy.sell_asset(state, acting(state), state.assets[action.asset], events)


def _bribe(state: WwnState, action: A.Bribe, events: list[Event]) -> None:
    f = acting(state)
    assert f.goal is not None
    f.treasure -= action.amount
    f.goal.progress += action.amount
    events.append(_log(state, "bribe", f.id, amount=action.amount, progress=f.goal.progress,
                       needed=f.goal.needed))
    if f.goal.progress >= f.goal.needed:
        goals.complete(state, f, events)


def _keep_goal(state: WwnState, action: A.KeepGoal, events: list[Event]) -> None:
    _enter(state, RAISE)


def _choose_goal(state: WwnState, action: A.ChooseGoal, events: list[Event]) -> None:
    f = acting(state)
    if f.goal is not None:
        f.paralysed = True
        events.append(_log(state, "goal-abandoned", f.id, goal=f.goal.id, target=f.goal.target))
    g = goals.adopt(state, f, action)
    events.append(_log(state, "goal-chosen", f.id, goal=g.id, target=g.target, needed=g.needed))
    _enter(state, RAISE)


def _raise(state: WwnState, action: A.RaiseRating, events: list[Event]) -> None:
    f = acting(state)
    new = f.rating(action.attribute) + 1
    old_max = f.max_hp
    cost = state.house_rules.xp_to_raise(new)
    f.xp -= cost
    setattr(f, action.attribute, new)
    gained = f.max_hp - old_max
    f.hp += gained
    hq = state.headquarters_base(f.id)
    if hq is not None:
        hq.max_hp = f.max_hp
        hq.hp = min(hq.max_hp, hq.hp + gained)
    events.append(_log(state, "raise", f.id, attribute=action.attribute, rating=new,
                       xp_spent=cost, max_hp=f.max_hp))


_HANDLERS: dict[tuple[str, type], Callable[[WwnState, Action, list[Event]], None]] = {}
for _phase in (ABILITIES, ATTACK, MOVE, REPAIR, RIVAL_ATTACK, HIDE, SELL, RAISE):
    _HANDLERS[(_phase, A.Done)] = _done
_HANDLERS.update({
    (ABILITIES, A.UseAbility): _use_ability, (ACTION, A.ChooseAction): _choose_action,
    (ATTACK, A.UseAbility): _special_attack, (MOVE, A.UseAbility): _special_move,
    (ATTACK, A.Attack): _attack, (RIVAL_ATTACK, A.Attack): _attack, (DEFEND, A.Defend): _defend,
    (MOVE, A.Move): _move, (REPAIR, A.Repair): _repair, (REPAIR, A.RepairFaction): _repair_faction,
    (EXPAND_WHERE, A.ExpandAt): _expand_at, (EXPAND_HP, A.BaseHp): _base_hp,
    (CREATE, A.Create): _create, (HIDE, A.Hide): _hide, (SELL, A.Sell): _sell,
    (GOAL, A.Bribe): _bribe, (GOAL, A.KeepGoal): _keep_goal, (GOAL, A.ChooseGoal): _choose_goal,
    (RAISE, A.RaiseRating): _raise,
})
