"""Cunning asset abilities (6.8.0), registered on import (:mod:`factionsim.rules.wwn.hooks`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from factionsim.core.dice import Dice
from factionsim.core.game import Event

from .. import abilities, flow
from ..abilities import register
from ..actions import Decline, UseAbility
from ..checks import CheckResult, start_check
from ..combat import begin_attack, damage_asset, remove_asset
from ..movement import entry_affordable, move_range
from .force import log, move, paid_move, road_moves, split_move, unlimited_transport

if TYPE_CHECKING:
    from ..checks import CheckResult, Side
    from ..model import Asset
    from ..state import WwnState

#: 1d4 costs: an option is offered only when the highest roll can be paid.
D4_MAX = 4


# ------------------------------------------------------------------ helpers
def _usable(state: WwnState, asset: Asset) -> bool:
    return asset.id in state.assets and abilities.usable(state, asset)


def _near(state: WwnState, location: str) -> list[str]:
    """Locations within one move (the location itself and its neighbours)."""
    return list(state.map.within(location, 1))


def _pay(state: WwnState, faction: str, amount: int) -> None:
    state.factions[faction].treasure -= amount


def _owner_next_turn(state: WwnState, owner: str) -> int:
    """The game turn of ``owner``'s next faction turn: this one if it has yet to act."""
    later = state.order[state.order_index + 1:] if state.order else []
    return state.current_turn if owner in later else state.current_turn + 1


def _rival_targets(state: WwnState, holder: Asset, locations: list[str]) -> list[Asset]:
    """Visible hostile assets (not Bases) in ``locations``."""
    return [a for a in state.assets.values()
            if a.location in locations and not a.is_base and not a.stealth
            and state.hostile(holder.owner, a.owner)]


def _reveal(state: WwnState, asset: Asset, reason: str, events: list[Event]) -> None:
    asset.stealth = False
    asset.status.pop("until_acts", None)
    events.append(Event(state.current_turn, "revealed", asset.owner,
                        {"asset": asset.id, "reason": reason}))


# ------------------------------------------------------------------ Bewitching Charmer
@register("bewitching-charmer", "special_hit")
def _charmer_hit(state: WwnState, attacker: Asset, defender: Asset, events: list[Event]) -> None:
    defender.status["pinned_by"] = attacker.id
    log(state, attacker, "pin", events, target=defender.id, location=attacker.location)


@register("bewitching-charmer", "counter_allowed")
def _charmer_counter(state: WwnState, attacker: Asset, defender: Asset) -> bool:
    return False


@register("bewitching-charmer", "hold_in_place")
def _charmer_hold(state: WwnState, asset: Asset, holder: Asset) -> bool:
    return asset.status.get("pinned_by") == holder.id and asset.location == holder.location


@register("bewitching-charmer", "after_move")
def _charmer_moves(state: WwnState, asset: Asset, origin: str, holder: Asset,
                   events: list[Event]) -> None:
    if asset.id != holder.id:
        return
    for a in state.assets.values():
        if a.status.get("pinned_by") == holder.id:
            del a.status["pinned_by"]


# ------------------------------------------------------------------ Blackmail
abilities.DICE_CAPS.add("blackmail")


@register("blackmail", "check_dice")
def _blackmail(state: WwnState, attacker: Side, defender: Side, location: str | None,
               holder: Asset) -> None:
    if location != holder.location or not abilities.usable(state, holder):
        return
    for side in (attacker, defender):
        if state.hostile(holder.owner, side.faction):
            side.dice = min(side.dice, 1)


# ------------------------------------------------------------------ Court Patronage
@register("court-patronage", "income")
def _patronage(state: WwnState, asset: Asset, events: list[Event]) -> None:
    if not abilities.usable(state, asset):
        return
    f = state.factions[asset.owner]
    f.treasure += 1
    log(state, asset, "patronage-income", events, amount=1, treasure=f.treasure)


# ------------------------------------------------------------------ Covert Transport
def _carried(state: WwnState, holder: Asset, allied: bool) -> list[Asset]:
    return [a for a in state.assets_at(holder.location)
            if a.id != holder.id and a.attribute in ("cunning", "wealth")
            and (a.owner == holder.owner
                 or (allied and state.relation(holder.owner, a.owner) == "allied" and not a.stealth))
            and abilities.can_leave(state, a)]


def _ranged_moves(state: WwnState, holder: Asset, cargo: list[Asset], tolled: bool) -> list[str]:
    """Moves of ``cargo`` to places within the faction's move range; ``tolled``: only where the
    owner could pay an entry toll (the cargo arrives unstealthed)."""

    reach = state.map.within(holder.location, move_range(state, holder.owner))
    return [f"{a.id}->{loc}" for a in cargo for loc in reach if loc != a.location
            and (not tolled or entry_affordable(state, a, loc))]


@register("covert-transport", "free_options")
def _transport_options(state: WwnState, holder: Asset) -> list[str]:
    if state.factions[holder.owner].treasure < 1:
        return []
    return _ranged_moves(state, holder, _carried(state, holder, allied=False), tolled=False)


@register("covert-transport", "free_use")
def _transport_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    cargo = state.assets[split_move(option)[0]]
    if not cargo.stealth:
        cargo.stealth = True
        lapsing = cargo.status.setdefault("until_acts", [])
        if "stealth" not in lapsing:
            lapsing.append("stealth")
    paid_move(state, holder, option, "covert-transport", events, "transport")


# ------------------------------------------------------------------ Cryptomancers
@register("cryptomancers", "attack_options")
def _crypto_options(state: WwnState, holder: Asset) -> list[str]:
    return [a.id for a in _rival_targets(state, holder, _near(state, holder.location))]


@register("cryptomancers", "attack_use")
def _crypto_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:

    target = state.assets[option]
    begin_attack(state, holder, events, target.owner)
    start_check(state, holder.owner, "cunning", target.owner, "cunning", "cryptomancers-outcome",
                {"attacker": holder.id, "defender": target.id}, events,
                attacking_asset=holder, defending_asset=target,
                extra_attacker_dice=abilities.extra_attack_dice(state, holder),
                extra_defender_dice=abilities.extra_defense_dice(state, target, holder.kind.attack))


@flow.step("cryptomancers-outcome")
def _crypto_outcome(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    holder, target = state.assets.get(args["attacker"]), state.assets.get(args["defender"])
    if holder is None or target is None:
        return
    check = CheckResult.from_state(args["check"])
    log(state, holder, "stun-attempt", events, target=target.id, target_faction=target.owner,
         **check.to_dict())
    if not check.success:
        return  # no counterattack
    negate = abilities.negate_options(state, holder, target)
    if negate:
        faction, options = negate
        flow.ask(state, faction, [*options, Decline()], "cryptomancers-negate", args)
        return
    _stun(state, holder, target, events)


@flow.step("cryptomancers-negate")
def _crypto_negate(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    holder, target = state.assets.get(args["attacker"]), state.assets.get(args["defender"])
    if args["choice"] != "decline":
        abilities.negate_use(state, args, events)
    elif holder is not None and target is not None:
        _stun(state, holder, target, events)


def _stun(state: WwnState, holder: Asset, target: Asset, events: list[Event]) -> None:
    turn = _owner_next_turn(state, target.owner)
    target.status["stunned_turn"] = turn
    log(state, holder, "stun", events, target=target.id, turn=turn)


# ------------------------------------------------------------------ Dancing Girls
@register("dancing-girls", "damage_allowed")
def _dancers_immune(state: WwnState, source: Asset, target: Asset) -> bool:
    return not (target.type == "dancing-girls" and source.attribute == "force")


@register("dancing-girls", "can_defend")
def _dancers_defend(state: WwnState, defender: Asset, attacker: Asset) -> bool:
    return attacker.attribute != "force"


# ------------------------------------------------------------------ Expert Treachery
@register("expert-treachery", "special_hit")
def _treachery_hit(state: WwnState, attacker: Asset, defender: Asset, events: list[Event]) -> None:
    owner = state.factions[attacker.owner]
    owner.treasure += 5
    converted = not defender.is_base
    log(state, attacker, "treachery", events, target=defender.id, from_faction=defender.owner,
         treasure=5, converted=converted)
    remove_asset(state, attacker, events, "spent (expert treachery)")
    if converted:
        state.assets.reassign(defender, owner.id)
        defender.exposed = False


# ------------------------------------------------------------------ Hired Friends
@register("hired-friends", "free_options")
def _friends_options(state: WwnState, holder: Asset) -> list[str]:
    if state.factions[holder.owner].treasure < 1:
        return []
    near = _near(state, holder.location)
    return [a.id for a in state.assets_of(holder.owner)
            if a.attribute == "wealth" and a.location in near and not a.subtle]


def _friends_release(state: WwnState, holder: Asset) -> None:
    prev = state.assets.get(holder.status.pop("granted", ""))
    if prev is not None and prev.status.get("subtle") == holder.id:
        del prev.status["subtle"]


@register("hired-friends", "free_use")
def _friends_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    target = state.assets[option]
    _pay(state, holder.owner, 1)
    _friends_release(state, holder)
    target.status["subtle"] = holder.id
    holder.status["granted"] = target.id
    log(state, holder, "grant-subtle", events, asset=target.id, cost=1)


@register("hired-friends", "left_play")
def _friends_gone(state: WwnState, asset: Asset, holder: Asset, events: list[Event]) -> None:
    if asset.id == holder.id:
        _friends_release(state, holder)


# ------------------------------------------------------------------ Informers
@register("informers", "free_options")
def _informers_options(state: WwnState, holder: Asset) -> list[str]:
    if state.factions[holder.owner].treasure < 1:
        return []
    return state.hostile_factions(holder.owner)


@register("informers", "free_use")
def _informers_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    _pay(state, holder.owner, 1)
    begin_attack(state, holder, events, option)
    start_check(state, holder.owner, "cunning", option, "cunning", "informers-outcome",
                {"source": holder.id, "target": option}, events, attacking_asset=holder)


@flow.step("informers-outcome")
def _informers_outcome(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    holder = state.assets.get(args["source"])
    if holder is None:
        return
    check = CheckResult.from_state(args["check"])
    near = _near(state, holder.location)
    found = [a for a in state.assets_of(args["target"]) if a.stealth and a.location in near] \
        if check.success else []
    log(state, holder, "search", events, target_faction=args["target"], cost=1,
         revealed=[a.id for a in found], **check.to_dict())
    for a in found:
        _reveal(state, a, "informers", events)


# ------------------------------------------------------------------ Interrupted Logistics
@register("interrupted-logistics", "entry_toll")
def _logistics_toll(state: WwnState, asset: Asset, location: str, holder: Asset) -> int:
    if (holder.location == location and asset.location != location and not asset.stealth
            and state.hostile(holder.owner, asset.owner) and abilities.usable(state, holder)):
        return D4_MAX
    return 0


@register("interrupted-logistics", "enter_delayed")
def _logistics_delay(state: WwnState, asset: Asset, location: str, holder: Asset,
                     events: list[Event]) -> None:
    roll = Dice.parse("1d4").roll(state.rng)
    f = state.factions[asset.owner]
    if f.treasure < roll.total:  # "cannot enter ... without paying": it stays out
        log(state, holder, "entry-refused", events, asset=asset.id, asset_owner=asset.owner,
             to=location, roll=list(roll.dice), treasure=f.treasure)
        return
    f.treasure -= roll.total
    asset.status["arriving"] = location
    log(state, holder, "delay-entry", events, asset=asset.id, asset_owner=asset.owner,
         to=location, roll=list(roll.dice), paid=roll.total)


# ------------------------------------------------------------------ Just As Planned
@register("just-as-planned", "reroll_options")
def _jap_options(state: WwnState, check: CheckResult, holder: Asset) -> list[UseAbility]:
    loser = check.loser()
    if loser.faction != holder.owner or loser.attribute != "cunning" or not _usable(state, holder):
        return []
    return [UseAbility(holder.id)]


@register("just-as-planned", "reroll_use")
def _jap_use(state: WwnState, check: CheckResult, choice: str, holder: Asset,
             events: list[Event]) -> None:
    side = check.loser()
    before = list(side.rolls)
    side.roll(state.rng)
    cost = Dice.parse("1d6").roll(state.rng)
    log(state, holder, "reroll", events, faction=side.faction, before=before, after=side.rolls,
         total=side.total, cost_roll=list(cost.dice))
    damage_asset(state, holder, cost.total, None, events, "just-as-planned")


# ------------------------------------------------------------------ Mindbenders
def _side_wins(check: CheckResult, side: Side) -> bool:
    return check.success if side is check.attacker else not check.success


@register("mindbenders", "reroll_options")
def _mb_options(state: WwnState, check: CheckResult, holder: Asset) -> list[UseAbility]:
    st = holder.status
    if st.get("used_turn") == state.current_turn or not _usable(state, holder):
        return []
    out = []
    for side, other in ((check.attacker, check.defender), (check.defender, check.attacker)):
        if not state.hostile(holder.owner, side.faction) or side.faction in st.get("affected", []):
            continue
        wins = _side_wins(check, side)
        if other.faction == holder.owner:
            if wins:
                out.append(UseAbility(holder.id, f"{side.faction}:lower"))
        else:
            out.append(UseAbility(holder.id, f"{side.faction}:{'lower' if wins else 'higher'}"))
    return out


@register("mindbenders", "reroll_use")
def _mb_use(state: WwnState, check: CheckResult, choice: str, holder: Asset,
            events: list[Event]) -> None:
    fid, _, keep = choice.split()[2].partition(":")
    side = check.attacker if check.attacker.faction == fid else check.defender
    before, before_total = list(side.rolls), side.total
    side.roll(state.rng)
    rerolled, new_total = list(side.rolls), side.total
    if (keep == "lower") == (before_total < new_total):
        side.rolls, side.total = before, before_total
    holder.status["used_turn"] = state.current_turn
    holder.status["affected"] = [*holder.status.get("affected", []), fid]
    log(state, holder, "forced-reroll", events, faction=fid, keep=keep, before=before,
         rerolled=rerolled, kept_total=side.total)


def _mb_ready(state: WwnState, holder: Asset, rival: str) -> bool:
    st = holder.status
    return (st.get("used_turn") != state.current_turn and _usable(state, holder)
            and state.hostile(holder.owner, rival) and rival not in st.get("affected", []))


@register("mindbenders", "damage_reroll_options")
def _mb_damage_options(state: WwnState, roller: str, target: Asset, holder: Asset) -> list[UseAbility]:
    if not _mb_ready(state, holder, roller):
        return []
    if target.owner == holder.owner:
        return [UseAbility(holder.id, f"{roller}:lower")]
    return [UseAbility(holder.id, f"{roller}:{keep}") for keep in ("lower", "higher")]


@register("mindbenders", "damage_reroll_use")
def _mb_damage_use(state: WwnState, roll: dict[str, Any], choice: str, holder: Asset,
                   events: list[Event]) -> dict[str, Any]:
    fid, _, keep = choice.split()[2].partition(":")
    again = Dice.parse(roll["expr"]).roll(state.rng)
    rerolled = {"expr": again.expr, "dice": list(again.dice), "total": again.total}
    kept = rerolled if (keep == "lower") == (again.total < roll["total"]) else roll
    holder.status["used_turn"] = state.current_turn
    holder.status["affected"] = [*holder.status.get("affected", []), fid]
    log(state, holder, "forced-damage-reroll", events, faction=fid, keep=keep,
         before=roll["dice"], rerolled=rerolled["dice"], kept_total=kept["total"])
    return kept


@register("mindbenders", "turn_start")
def _mb_reset(state: WwnState, holder: Asset, events: list[Event]) -> None:
    holder.status.pop("affected", None)


# ------------------------------------------------------------------ Occult Infiltrators
abilities.ENTERS_STEALTHED.add("occult-infiltrators")


# ------------------------------------------------------------------ Omniscient Seers
abilities.TRIGGERED_AT_TURN_START.add("omniscient-seers")


def _first_seers(state: WwnState, faction: str, location: str) -> Asset | None:
    return next((a for a in state.assets_of(faction) if a.type == "omniscient-seers"
                 and location in _near(state, a.location) and abilities.usable(state, a)), None)


@register("omniscient-seers", "check_dice")
def _seers_dice(state: WwnState, attacker: Side, defender: Side, location: str | None,
                holder: Asset) -> None:
    if location is None or _first_seers(state, holder.owner, location) is not holder:
        return
    for side in (attacker, defender):
        if side.faction == holder.owner and side.attribute == "cunning":
            side.dice += 1


@register("omniscient-seers", "expand_dice")
def _seers_expand(state: WwnState, faction: str, location: str, holder: Asset) -> int:
    return int(faction == holder.owner and _first_seers(state, faction, location) is holder)


@register("omniscient-seers", "turn_start")
def _seers_start(state: WwnState, holder: Asset, events: list[Event]) -> None:
    near = _near(state, holder.location)
    targets = [a.id for a in state.assets.values()
               if a.stealth and a.location in near and state.hostile(holder.owner, a.owner)]
    _seers_next(state, {"seers": holder.id, "targets": targets, "i": 0}, events)


@flow.step("seers-next")
def _seers_next(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    holder = state.assets.get(args["seers"])
    targets, i = args["targets"], args["i"]
    while holder is not None and i < len(targets):
        target = state.assets.get(targets[i])
        if target is not None and target.stealth:
            start_check(state, target.owner, "cunning", holder.owner, "cunning", "seers-done",
                        {**args, "i": i}, events, extra_defender_dice=1)
            return
        i += 1


@flow.step("seers-done")
def _seers_done(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    holder, target = state.assets.get(args["seers"]), state.assets.get(args["targets"][args["i"]])
    check = CheckResult.from_state(args["check"])
    if holder is not None and target is not None:
        log(state, holder, "scry", events, target=target.id, target_faction=target.owner,
             **check.to_dict())
        if not check.success:
            _reveal(state, target, "omniscient-seers", events)
    _seers_next(state, {"seers": args["seers"], "targets": args["targets"], "i": args["i"] + 1},
                events)


# ------------------------------------------------------------------ Popular Movement
@register("popular-movement", "allow_entry")
def _movement_entry(state: WwnState, asset: Asset, location: str, holder: Asset) -> bool:
    return (holder.location == location and asset.owner == holder.owner
            and abilities.usable(state, holder))


# ------------------------------------------------------------------ Saboteurs
@register("saboteurs", "after_attack")
def _saboteurs(state: WwnState, attacker: Asset, defender: Asset, success: bool,
               events: list[Event]) -> None:
    if defender.id not in state.assets:
        return
    turn = _owner_next_turn(state, defender.owner)
    defender.status["no_free_turn"] = turn
    log(state, attacker, "sabotage", events, target=defender.id, turn=turn)


# ------------------------------------------------------------------ Seditionists
@register("seditionists", "attack_options")
def _sedition_options(state: WwnState, holder: Asset) -> list[str]:
    if state.factions[holder.owner].treasure < D4_MAX:
        return []
    current = holder.status.get("infesting")
    return [a.id for a in _rival_targets(state, holder, [holder.location]) if a.id != current]


@register("seditionists", "attack_use")
def _sedition_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    abilities.on_act(state, holder, events)
    roll = Dice.parse("1d4").roll(state.rng)
    _pay(state, holder.owner, roll.total)
    target = state.assets[option]
    prev = state.assets.get(holder.status.get("infesting", ""))
    if prev is not None and prev.status.get("infested_by") == holder.id:
        del prev.status["infested_by"]
    holder.status["infesting"] = target.id
    target.status["infested_by"] = holder.id
    log(state, holder, "infest", events, target=target.id, target_faction=target.owner,
         roll=list(roll.dice), cost=roll.total)


# ------------------------------------------------------------------ Shapeshifters
@register("shapeshifters", "free_options")
def _shift_options(state: WwnState, holder: Asset) -> list[str]:
    return [""] if not holder.stealth and state.factions[holder.owner].treasure >= 1 else []


@register("shapeshifters", "free_use")
def _shift_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    _pay(state, holder.owner, 1)
    holder.stealth = True
    log(state, holder, "stealth", events, cost=1)


# ------------------------------------------------------------------ Smugglers
@register("smugglers", "free_options")
def _smuggle_options(state: WwnState, holder: Asset) -> list[str]:
    return _ranged_moves(state, holder, _carried(state, holder, allied=True), tolled=True)


@register("smugglers", "free_use")
def _smuggle_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    asset_id, dest = split_move(option)
    log(state, holder, "smuggle", events, asset=asset_id, to=dest)
    move(state, state.assets[asset_id], dest, events, "transport")


# ------------------------------------------------------------------ Underground Roads
register("underground-roads", "free_ability")(unlimited_transport)


register("underground-roads", "free_options")(road_moves)


@register("underground-roads", "free_use")
def _roads_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    paid_move(state, holder, option, "underground-road", events, "transport")


# ------------------------------------------------------------------ Useful Idiots
_IDIOTS_KEY = "useful_idiots_sacrificed"  # state.extra: {faction: game turn of the last sacrifice}


@register("useful-idiots", "negate_options")
def _idiots_options(state: WwnState, attacker: Asset, defender: Asset,
                    holder: Asset) -> list[UseAbility]:
    owner = defender.owner
    if holder.owner != owner or state.extra.get(_IDIOTS_KEY, {}).get(owner) == state.current_turn:
        return []
    return [UseAbility(a.id) for a in state.assets_of(owner)
            if a.type == "useful-idiots" and a.id != defender.id and abilities.usable(state, a)
            and defender.location in _near(state, a.location)]


@register("useful-idiots", "negate_use")
def _idiots_use(state: WwnState, args: dict[str, Any], holder: Asset, events: list[Event]) -> None:
    state.extra.setdefault(_IDIOTS_KEY, {})[holder.owner] = state.current_turn
    log(state, holder, "negate-attack", events, attacker=args["attacker"],
         defender=args["defender"])
    remove_asset(state, holder, events, "sacrificed")


# ------------------------------------------------------------------ Vigilant Agents
@register("vigilant-agents", "after_move")
def _agents_watch(state: WwnState, asset: Asset, origin: str, holder: Asset,
                  events: list[Event]) -> None:
    if not asset.stealth:
        return
    watchers: list[Asset] = []
    for a in state.assets.values():
        if (a.type == "vigilant-agents" and state.hostile(a.owner, asset.owner)
                and asset.location in _near(state, a.location) and abilities.usable(state, a)
                and all(w.owner != a.owner for w in watchers)):
            watchers.append(a)
    if watchers and watchers[0] is holder:  # the first watcher runs every faction's check
        _agents_next(state, {"moved": asset.id, "agents": [w.id for w in watchers], "i": 0}, events)


@flow.step("agents-next")
def _agents_next(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    moved = state.assets.get(args["moved"])
    agents, i = args["agents"], args["i"]
    while moved is not None and moved.stealth and i < len(agents):
        agent = state.assets.get(agents[i])
        if agent is not None:
            from ..combat import begin_attack

            begin_attack(state, agent, events, moved.owner)
            start_check(state, agent.owner, "cunning", moved.owner, "cunning", "agents-done",
                        {**args, "i": i}, events, attacking_asset=agent, defending_asset=moved)
            return
        i += 1


@flow.step("agents-done")
def _agents_done(state: WwnState, args: dict[str, Any], events: list[Event]) -> None:
    agent, moved = state.assets.get(args["agents"][args["i"]]), state.assets.get(args["moved"])
    check = CheckResult.from_state(args["check"])
    if agent is not None and moved is not None:
        log(state, agent, "watch", events, target=moved.id, target_faction=moved.owner,
             **check.to_dict())
        if check.success:
            _reveal(state, moved, "vigilant-agents", events)
            return
    _agents_next(state, {"moved": args["moved"], "agents": args["agents"], "i": args["i"] + 1},
                 events)
