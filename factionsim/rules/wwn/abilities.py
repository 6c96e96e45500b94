"""Asset abilities: code registered by asset id, called by the rules at fixed hook points.

Stats live in ``assets.yaml``; only abilities that change the rules are code. An ability module
registers functions for the hooks it needs::

    @register("court-patronage", "income")
    def _patronage(state, asset, events): ...

The rules call the ``run_*`` / query functions below at each hook point; with no ability
registered for the assets in play they change nothing. Which assets have a registered ability is
listed by :func:`implemented`; ``docs/assets.md`` is generated from it.

Hook points (and what each registered function receives / returns):

- ``income``            (state, asset, events) -> None — extra income at the start of the turn
- ``upkeep``            (state, asset, events) -> None — the asset's own upkeep
- ``free_options``      (state, asset) -> list[str] — options of its free action this turn
- ``free_use``          (state, asset, option, events) -> None — use the free action
- ``extra_attack_dice`` (state, attacking_asset, asset) -> int
- ``extra_defense_dice`` (state, defending_asset, attack_line, asset) -> int
- ``check_dice``        (state, attacker_side, defender_side, location, asset) -> None
- ``can_defend``        (state, defending_asset, attacking_asset) -> bool
- ``damage_allowed``    (state, source_asset, target_asset) -> bool
- ``after_attack``      (state, attacker, defender, success, events) -> None
- ``expand_dice``       (state, faction, location, asset) -> int — extra dice on Expand checks
- ``on_destroyed``      (state, asset, source, events, cause, asset_with_ability) -> bool (saved)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from factionsim.core.game import Event

    from .checks import CheckResult, Side
    from .data import AttackLine
    from .model import Asset
    from .state import WwnState

HOOKS: dict[str, dict[str, Callable[..., Any]]] = defaultdict(dict)
SUMMARIES: dict[str, str] = {}


def register(asset_type: str, hook: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``fn`` as ``asset_type``'s handler for ``hook``."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        HOOKS[hook][asset_type] = fn
        return fn

    return wrap


def implemented() -> set[str]:
    """Asset ids with at least one registered ability hook."""
    return {t for table in HOOKS.values() for t in table}


def _holders(state: WwnState, hook: str) -> list[tuple[Asset, Callable[..., Any]]]:
    table = HOOKS.get(hook)
    if not table:
        return []
    return [(a, table[a.type]) for a in state.assets.values() if a.type in table]


def run_income(state: WwnState, faction: str, events: list[Event]) -> None:
    for asset, fn in _holders(state, "income"):
        if asset.owner == faction:
            fn(state, asset, events)


def run_upkeep(state: WwnState, faction: str, events: list[Event]) -> None:
    for asset, fn in _holders(state, "upkeep"):
        if asset.owner == faction and asset.id in state.assets:
            fn(state, asset, events)


def free_options(state: WwnState, faction: str) -> list[tuple[str, str]]:
    """(asset id, option) pairs of the free actions ``faction`` may still use this turn."""
    out: list[tuple[str, str]] = []
    for asset, fn in _holders(state, "free_options"):
        if asset.owner == faction:
            out.extend((asset.id, opt) for opt in fn(state, asset))
    return out


def free_use(state: WwnState, asset: Asset, option: str, events: list[Event]) -> None:
    HOOKS["free_use"][asset.type](state, asset, option, events)


def extra_attack_dice(state: WwnState, attacker: Asset) -> int:
    return sum(fn(state, attacker, holder) for holder, fn in _holders(state, "extra_attack_dice"))


def extra_defense_dice(state: WwnState, defender: Asset, line: AttackLine) -> int:
    return sum(fn(state, defender, line, holder)
               for holder, fn in _holders(state, "extra_defense_dice"))


def adjust_check_dice(state: WwnState, attacker: Side, defender: Side, location: str | None) -> None:
    for holder, fn in _holders(state, "check_dice"):
        fn(state, attacker, defender, location, holder)


def reroll_check(state: WwnState, check: CheckResult, events: list[Event]) -> CheckResult:
    """Rerolls offered by abilities are decisions; none is registered in this version."""
    return check


def can_defend(state: WwnState, defender: Asset, attacker: Asset) -> bool:
    fn = HOOKS.get("can_defend", {}).get(defender.type)
    return fn is None or fn(state, defender, attacker)


def damage_allowed(state: WwnState, source: Asset, target: Asset) -> bool:
    table = HOOKS.get("damage_allowed", {})
    return all(fn(state, source, target) for t, fn in table.items() if t in (source.type, target.type))


def after_attack(state: WwnState, attacker: Asset, defender: Asset, success: bool,
                 events: list[Event]) -> None:
    fn = HOOKS.get("after_attack", {}).get(attacker.type)
    if fn is not None:
        fn(state, attacker, defender, success, events)


def on_destroyed(state: WwnState, asset: Asset, source: str | None, events: list[Event],
                 cause: str) -> bool:
    return any(fn(state, asset, source, events, cause, holder)
               for holder, fn in _holders(state, "on_destroyed"))


def expand_extra_dice(state: WwnState, faction: str, location: str) -> int:
    return sum(fn(state, faction, location, holder) for holder, fn in _holders(state, "expand_dice"))
