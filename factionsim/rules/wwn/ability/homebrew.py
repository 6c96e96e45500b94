"""The handlers of the homebrew ability vocabulary (:data:`..homebrew.EFFECTS`) and of homebrew
upkeep.

Unlike the standard abilities, these are not registered for an asset id in the global
:data:`..hooks.HOOKS`: a campaign's own types exist in that campaign only. :func:`hook_tables`
builds the hook tables of a state with homebrew types (the standard ones plus, for each homebrew
type, the handlers of its effect), and each handler reads its parameters from the holder's stat
line (``holder.kind.param(...)``), so one function serves every type that uses the effect.

Every use that changes the game is logged as an ``ability`` event with effect
``homebrew-<effect>`` (``homebrew-upkeep``, ``homebrew-upkeep-unpaid`` for upkeep).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from factionsim.core.game import Event

from ..abilities import can_leave, usable
from ..combat import remove_asset
from ..hooks import HOOKS
from .force import log, may_enter, move, split_move

if TYPE_CHECKING:
    from ..data import AssetType, AttackLine
    from ..model import Asset
    from ..state import WwnState


def _income(state: WwnState, holder: Asset, events: list[Event]) -> None:
    if not usable(state, holder):
        return
    f = state.factions[holder.owner]
    amount = holder.kind.param("treasure")
    f.treasure += amount
    log(state, holder, "homebrew-income", events, amount=amount, treasure=f.treasure)


def _attack_dice(state: WwnState, attacker: Asset, holder: Asset) -> int:
    return holder.kind.param("dice") if attacker.id == holder.id and usable(state, holder) else 0


def _defense_dice(state: WwnState, defender: Asset, line: AttackLine, holder: Asset) -> int:
    return holder.kind.param("dice") if defender.id == holder.id and usable(state, holder) else 0


def _expand_dice(state: WwnState, faction: str, location: str, holder: Asset) -> int:
    """Several holders in one place each add their dice (our reading: nothing says they don't)."""
    mine = faction == holder.owner and location == holder.location and usable(state, holder)
    return holder.kind.param("dice") if mine else 0


def _transport_options(state: WwnState, holder: Asset) -> list[str]:
    here, reach = holder.location, holder.kind.param("range")
    out: list[str] = []
    for a in state.assets_of(holder.owner):
        if a.id == holder.id or a.is_base or a.location != here or not can_leave(state, a):
            continue
        out.extend(f"{a.id}->{d}" for d in state.map.within(here, reach) if may_enter(state, a, d))
    return out


def _transport_use(state: WwnState, holder: Asset, option: str, events: list[Event]) -> None:
    aid, dest = split_move(option)
    log(state, holder, "homebrew-transport", events, asset=aid, to=dest)
    move(state, state.assets[aid], dest, events)


def _repair(state: WwnState, holder: Asset, events: list[Event]) -> None:
    if not usable(state, holder) or not holder.damaged:
        return
    healed = min(holder.kind.param("hp"), holder.max_hp - holder.hp)
    holder.hp += healed
    log(state, holder, "homebrew-repair", events, healed=healed, hp=holder.hp)


def _upkeep(state: WwnState, holder: Asset, events: list[Event]) -> None:
    """Pay the type's upkeep; a faction that cannot pay it in full loses the asset (our reading,
    the simplest of the book's upkeep outcomes)."""
    f = state.factions[holder.owner]
    due = holder.kind.upkeep
    if f.treasure >= due:
        f.treasure -= due
        log(state, holder, "homebrew-upkeep", events, paid=due, treasure=f.treasure)
    else:
        log(state, holder, "homebrew-upkeep-unpaid", events, owed=due, treasure=f.treasure)
        remove_asset(state, holder, events, "upkeep unpaid")


#: effect -> hook point -> handler (the hook points match ``EFFECTS[effect].hooks``)
HANDLERS: dict[str, dict[str, Callable[..., Any]]] = {
    "income": {"income": _income},
    "attack-dice": {"extra_attack_dice": _attack_dice},
    "defense-dice": {"extra_defense_dice": _defense_dice},
    "expand-dice": {"expand_dice": _expand_dice},
    "transport": {"free_options": _transport_options, "free_use": _transport_use},
    "repair": {"turn_end": _repair},
}


def hook_tables(types: Mapping[str, AssetType]) -> dict[str, dict[str, Callable[..., Any]]]:
    """The hook tables of a game whose asset table is ``types``: :data:`HOOKS` itself when no
    type is homebrew, else a copy with each homebrew type's handlers added."""
    homebrew = [k for k in types.values() if k.homebrew]
    if not homebrew:
        return HOOKS
    tables = {hook: dict(table) for hook, table in HOOKS.items()}
    for kind in homebrew:
        for hook, fn in HANDLERS.get(kind.effect or "", {}).items():
            tables[hook][kind.id] = fn
        if kind.upkeep:
            tables["upkeep"][kind.id] = _upkeep
    return tables

