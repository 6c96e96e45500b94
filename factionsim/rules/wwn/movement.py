"""Where assets may be, go and fight (6.3.0, Move Asset and the targets of Attack).

Our reading of "forbidden" (``shared/reference/wwn_notes.md``): a location with a ruler forbids
the assets of factions hostile to that ruler, unless the asset is Subtle or Stealthed. An asset
that finds itself in a location that forbids it (it lost Stealth there, say) gets its owner's
next turn to retreat: at the start of each of its owner's turns, an asset that was already
exposed there at the start of the owner's previous turn takes half its maximum HP (rounded up)
in damage, and again every turn it stays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from factionsim.core.game import Event

from . import abilities
from .combat import damage_asset
from .data import AttackLine, ceil_div

if TYPE_CHECKING:
    from .model import Asset, Faction
    from .state import WwnState


def move_range(state: WwnState, faction: str) -> int:
    """Edges per move: 1, or 2 for a Mobile faction."""
    return 2 if state.factions[faction].has_tag("mobile") else 1


def forbids(state: WwnState, location: str, asset: Asset) -> bool:
    """True when ``location``'s ruler forbids ``asset`` to operate there."""
    ruler = state.map.locations[location].ruler
    if ruler is None or ruler == asset.owner or asset.subtle or asset.stealth:
        return False
    r = state.factions.get(ruler)
    return (r is not None and r.alive and state.hostile(asset.owner, ruler)
            and not abilities.entry_allowed(state, asset, location))


def destinations(state: WwnState, asset: Asset) -> list[str]:
    """Where one Move Asset can take ``asset``."""
    here = asset.location
    if not abilities.can_leave(state, asset):
        return []
    return [loc for loc in state.map.within(here, move_range(state, asset.owner))
            if loc != here and not forbids(state, loc, asset) and entry_affordable(state, asset, loc)]


def entry_affordable(state: WwnState, asset: Asset, destination: str) -> bool:
    """Whether ``asset``'s owner could pay the most any toll on entering ``destination`` may cost
    (Interrupted Logistics' 1d4): moves into a tolled place are offered only then."""
    return abilities.entry_toll(state, asset, destination) <= state.factions[asset.owner].treasure


def move_asset(state: WwnState, asset: Asset, destination: str, events: list[Event],
               cause: str = "move") -> None:
    """Move ``asset`` to ``destination`` (a Move Asset, or ``cause`` names the ability carrying
    it); an entry an ability tolls and delays (Interrupted Logistics) is delayed whatever moves
    the asset, except the delayed arrival itself (``cause="arrive"``)."""
    asset.status.pop("arriving", None)  # a new move cancels a delayed one
    if cause != "arrive" and abilities.delay_entry(state, asset, destination, events):
        return
    events.append(Event(state.current_turn, cause, asset.owner,
                        {"asset": asset.id, "from": asset.location, "to": destination}))
    origin, asset.location = asset.location, destination
    if asset.status.get("may_stay") != destination:  # (kept by a delayed arrival there)
        asset.status.pop("may_stay", None)
    abilities.after_move(state, asset, origin, events)


def exposure_damage(state: WwnState, faction: Faction, events: list[Event]) -> None:
    """Damage assets that stayed a whole turn where they are forbidden; flag newly exposed ones."""
    for asset in state.assets_of(faction.id):
        if asset.is_base:
            continue
        if not forbids(state, asset.location, asset):
            if asset.exposed:  # (a write only where it changes: assets count their changes)
                asset.exposed = False
        elif not asset.exposed:
            asset.exposed = True
            events.append(Event(state.current_turn, "exposed", faction.id,
                                {"asset": asset.id, "location": asset.location}))
        else:
            damage_asset(state, asset, ceil_div(asset.max_hp, 2), None, events, "exposure")


def can_attack(state: WwnState, asset: Asset) -> bool:
    """Assets with an attack line (its damage dice, or a registered special effect) that may act."""
    line = asset.kind.attack
    if not isinstance(line, AttackLine):
        return False
    if line.damage == "special" and not abilities.has_special_hit(asset):
        return False
    return abilities.can_attack(state, asset)


def defenders(state: WwnState, target: str, attacker: Asset) -> list[Asset]:
    """The assets of faction ``target`` able to meet ``attacker``'s attack where it stands."""
    here = [a for a in state.assets_of(target)
            if a.location == attacker.location and not a.stealth
            and abilities.usable(state, a) and abilities.can_defend(state, a, attacker)]
    return here + [a for a in abilities.extra_defenders(state, target, attacker) if a not in here]


def attack_targets(state: WwnState, attacker: Asset) -> list[str]:
    """Hostile factions with at least one asset that can meet ``attacker`` in its location."""
    here = [a for a in state.assets_at(attacker.location) if not a.stealth]
    owners = dict.fromkeys(a.owner for a in here if state.hostile(attacker.owner, a.owner))
    return [fid for fid in owners if defenders(state, fid, attacker)]


def start_of_turn(state: WwnState, asset: Asset, events: list[Event]) -> None:
    """An asset's effect at the start of its owner's turn (one of
    :func:`~factionsim.rules.wwn.abilities.turn_start_holders`): a delayed move completes
    (``status["arriving"]``), then its ``turn_start`` ability runs."""
    if "arriving" in asset.status:
        move_asset(state, asset, asset.status["arriving"], events, cause="arrive")
    abilities.turn_start(state, asset, events)
