"""What a GM is told of each option at a WWN decision (``turn --interactive``, ``agent: manual``):
its cost, the stats of the assets involved and, for an attack or a defence, the odds the rules
give (:mod:`.odds`, exact enumeration; where an ability may step in, the GM is sent to
``factionsim odds`` instead of a guess).

>>> from factionsim.configs import default_campaign_path
>>> from factionsim.rulesets import load_campaign
>>> from .actions import Create, Hide
>>> s = load_campaign(default_campaign_path())
>>> action_note(s, Create("infantry", "tarsis"))
'6 Treasure; Infantry: Force 3, 6 HP, attack Force vs Force 1d8, counter 1d6'
>>> action_note(s, Hide("informers#7"))
'2 Treasure: Informers (3/3 HP) gains Stealth'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import actions as A
from . import economy, hooks, odds
from .data import AssetType
from .goals import FIXED_DIFFICULTY, goal_name
from .turn import HIDE_COST, acting

if TYPE_CHECKING:
    from .model import Asset
    from .state import WwnState

#: what each faction action does, in a few words (6.6.0)
ACTION_WORDS = {
    "attack": "assets attack rivals where they stand",
    "move": "assets move one step each",
    "repair": "repair assets or the faction's own HP, for Treasure",
    "expand": "found a Base of Influence: 1 Treasure per HP, rivals there may attack it",
    "create": "buy one asset where the faction has a Base",
    "hide": f"{HIDE_COST} Treasure per asset given Stealth",
    "sell": "sell an asset for half its cost",
    "pass": "do nothing this turn",
}


def _stats(kind: AssetType) -> str:
    line = kind.attack
    if line is None:
        attack = "no attack"
    elif isinstance(line, str):
        attack = "special attack"
    else:
        attack = f"attack {line.attacker.title()} vs {line.defender.title()} {line.damage}"
    counter = f"counter {kind.counter}" if kind.counter else "no counter"
    subtle = ", subtle" if kind.subtle else ""
    return f"{kind.name}: {kind.attribute.title()} {kind.rating}, {kind.hp} HP, {attack}, " \
           f"{counter}{subtle}"


def _asset(state: WwnState, aid: str) -> str:
    a: Asset = state.assets[aid]
    return f"{a.kind.name} ({a.hp}/{a.max_hp} HP)"


def _pct(p: float) -> str:
    return f"{round(100 * p)}%"


def _span(values: list[float]) -> str:
    lo, hi = min(values), max(values)
    return _pct(lo) if _pct(lo) == _pct(hi) else f"{_pct(lo)}-{_pct(hi)}"


def attack_note(state: WwnState, attacker_id: str, target: str,
                defender_id: str | None = None) -> str:
    """The odds of an attack (of one defender choice, or the range over the target's choices)."""
    attacker = state.assets[attacker_id]
    defenders = [state.assets[defender_id]] if defender_id else \
        odds.parse_attack(state, str(A.Attack(attacker_id, target)))[2]
    hits, kills, losses = [], [], []
    stepping = []
    for d in defenders:
        why = odds.interference(state, attacker, d)
        if why:
            stepping.append(d)
            continue
        out = odds.exact_attack(state, attacker.id, d.id)["outcomes"]
        hits.append(out["hit"]["p"])
        kills.append(out["defender destroyed"]["p"])
        losses.append(out["attacker destroyed"]["p"])
    line = attacker.kind.attack
    text = _asset(state, attacker.id)
    if line is not None and not isinstance(line, str):
        text += f", {line.attacker.title()} vs {line.defender.title()} {line.damage}"
    if hits:
        who = "" if len(defenders) == 1 else " (the defender chooses who meets it)"
        text += (f"; hit {_span(hits)}, destroys the defender {_span(kills)}, loses the attacker "
                 f"{_span(losses)}{who}")
    if stepping:
        text += "; abilities may step in" + ("" if hits else ": 'factionsim odds' samples it")
    return text


def action_note(state: WwnState, action: Any) -> str:
    """One line on ``action`` for the GM: cost, stats, odds (empty when there is nothing to add)."""
    f = acting(state) if state.current_actor() else None
    if isinstance(action, A.ChooseAction):
        return ACTION_WORDS.get(action.kind, "")
    if isinstance(action, A.Attack):
        return attack_note(state, action.asset, action.target)
    if isinstance(action, A.Defend):
        pending = state.ctx.get("pending") or {}
        if pending.get("attacker") in state.assets:
            return "meets it: " + attack_note(state, pending["attacker"], pending["target"],
                                              action.asset).split("; ", 1)[-1]
        return _asset(state, action.asset)
    if isinstance(action, A.Move):
        place = state.map.locations[action.destination]
        ruler = state.factions.get(place.ruler or "")
        return _asset(state, action.asset) + f" to {place.name}" + (
            f" (ruled by {ruler.name})" if ruler else "")
    if isinstance(action, A.Repair) and f is not None:
        cost = state.ctx.get("fixes", {}).get(action.asset, 0) + 1
        a = state.assets[action.asset]
        return f"{cost} Treasure: {_asset(state, a.id)} heals " \
               f"{min(economy.repair_amount(f, a), a.max_hp - a.hp)} HP"
    if isinstance(action, A.RepairFaction) and f is not None:
        return f"1 Treasure: heals {min(economy.faction_heal_amount(f), f.max_hp - f.hp)} HP " \
               f"(now {f.hp}/{f.max_hp})"
    if isinstance(action, A.ExpandAt):
        return f"a Base at {state.map.locations[action.location].name}: 1 Treasure per HP"
    if isinstance(action, A.BaseHp):
        return f"{action.hp} Treasure for a Base of {action.hp} HP"
    if isinstance(action, A.Create) and f is not None:
        kind = state.asset_types[action.asset_type]
        return f"{economy.purchase_cost(state, f, kind, action.location)} Treasure; {_stats(kind)}"
    if isinstance(action, A.Hide):
        return f"{HIDE_COST} Treasure: {_asset(state, action.asset)} gains Stealth"
    if isinstance(action, A.Sell):
        a = state.assets[action.asset]
        gain = 0 if a.damaged else a.kind.cost // 2
        return f"gains {gain} Treasure for {_asset(state, a.id)}"
    if isinstance(action, A.UseAbility):
        if action.source not in state.assets:
            return ""
        summary = hooks.SUMMARIES.get(state.assets[action.source].type, "")
        return f"{_asset(state, action.source)}: {summary.split('. ')[0].rstrip('.')}" \
            if summary else f"{_asset(state, action.source)}'s ability"
    if isinstance(action, A.Bribe):
        return f"{action.amount} Treasure"
    if isinstance(action, A.ChooseGoal):
        own = state.goal_types.get(action.goal)
        xp = own.difficulty if own is not None else FIXED_DIFFICULTY.get(action.goal)
        return goal_name(state, action.goal) + (f", {xp} XP" if xp else ", XP by its target")
    if isinstance(action, A.RaiseRating) and f is not None:
        new = f.rating(action.attribute) + 1
        return f"{action.attribute.title()} {new - 1} -> {new} for " \
               f"{state.house_rules.xp_to_raise(new)} XP"
    return ""
