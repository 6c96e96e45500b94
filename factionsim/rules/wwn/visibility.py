"""What the players may know of a WWN campaign (:data:`VISIBILITY`; the notion is explained in
:mod:`factionsim.core.visibility`, our readings in ``docs/rules-wwn.md``, "What the players see").

Public: the factions' names, HP, ratings, Magic, tags and headquarters; who rules each place;
relations; every asset that is not Stealthed (type, place, HP); what those assets do in the open
(attacks and their outcome, damage, destruction, moves, new Bases and assets, repairs, raised
ratings, collapses) and the abilities used against another faction's assets.

Secret: Treasure (income, upkeep, costs, sales, bribes), XP, goals and their progress, every
Stealthed asset (its existence, number, place and HP) and everything it does while hidden, the
dice and checks (initiative rolls included: the order of play is public), the agents' reasons,
the GM's vetoes, the factions' choices of action, the economic abilities a faction uses on its
own affairs, and the searching abilities (scrying, searching, watching) — only what they bring
to light is heard of.

A Stealthed asset that comes out of hiding (it attacks, a search finds it, a granted Stealth
lapses) becomes a *rumour* (``rumour`` event: the asset, why, and where it was seen).

>>> from factionsim.core.game import Event
>>> before = {"factions": [{"id": "a", "assets": [{"id": 4, "type": "spy", "location": "x",
...                                                 "stealth": True}]}]}
>>> evs = [Event(1, "move", "a", {"asset": "spy#4", "from": "x", "to": "y"}),
...        Event(1, "revealed", "a", {"asset": "spy#4", "reason": "attacked"}),
...        Event(1, "income", "a", {"amount": 3, "treasure": 5})]
>>> [e.to_dict() for e in VISIBILITY.visible_events(evs, "players", before)]
[{'turn': 1, 'kind': 'rumour', 'faction': 'a', 'asset': 'spy#4', 'reason': 'attacked', 'location': 'y'}]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from factionsim.core.game import Event
from factionsim.core.visibility import EventRule, Frame, Visibility, pick

#: campaign fields the players know (the rest: seed, dice, Foundry data... is the GM's)
_CAMPAIGN_KEYS = ("ruleset", "name", "turn", "max_turns", "calendar", "house_rules", "locations",
                  "relations", "asset_types")  # (a homebrew asset table is the rules: public)
_FACTION_KEYS = ("id", "name", "alive", "hp", "max_hp", "force", "cunning", "wealth", "magic",
                 "tags", "headquarters", "relations")
_ASSET_KEYS = ("id", "type", "location", "hp", "max_hp")
#: data keys of an event that name an asset
_REFS = ("asset", "attacker", "defender", "base", "source", "target", "carried")

#: abilities the world sees used (against another faction's assets, or in battle)
PUBLIC_ABILITIES = frozenset({
    "pin", "sabotage", "treachery", "infest", "stun", "stun-attempt", "plunder", "disabled",
    "supply-interruption", "entry-refused", "delay-entry", "negate-attack", "zeal",
})
#: abilities that hide an asset: ``effect -> the data key naming it`` (``source``: the holder)
_HIDING_ABILITIES = {"covert-transport": "asset", "stealth": "source"}


def players_frame(data: Frame) -> Frame:
    """Campaign data as the players know it (see the module docstring)."""
    out = pick(data, _CAMPAIGN_KEYS)
    factions = []
    for f in data.get("factions") or []:
        pf = pick(f, _FACTION_KEYS)
        pf["assets"] = [pick(a, _ASSET_KEYS) for a in f.get("assets") or []
                        if not a.get("stealth")]
        factions.append(pf)
    out["factions"] = factions
    return out


def _key(asset: dict[str, Any]) -> str:
    return f"{asset.get('type')}#{asset['id']}"


def _assets(data: Frame | None) -> list[dict[str, Any]]:
    """Every asset of campaign data, read with care (a raw snapshot is not validated)."""
    factions = data.get("factions") if isinstance(data, dict) else None
    out = []
    for f in factions if isinstance(factions, list) else []:
        assets = f.get("assets") if isinstance(f, dict) else None
        out += [a for a in assets if isinstance(a, dict)] if isinstance(assets, list) else []
    return out


def stealthed_assets(data: Frame | None) -> set[str]:
    """Ids (``type#n``) of the Stealthed assets in campaign data (a history snapshot)."""
    return {_key(a) for a in _assets(data) if a.get("stealth") and a.get("id") is not None}


def _refs(e: Event) -> set[str]:
    return {v for k in _REFS if isinstance(v := e.data.get(k), str) and "#" in v}


def watch(before: Frame | None) -> Callable[[Event], list[Event]]:
    """Follows Stealth through a turn's events, from the GM's data ``before`` them: Stealthed
    operations vanish, a hidden asset coming to light becomes a ``rumour`` (where it was seen)."""
    hidden = stealthed_assets(before)
    where = {_key(a): a.get("location") for a in _assets(before) if a.get("id") is not None}

    def seen(e: Event) -> list[Event]:
        d = e.data
        if e.kind in ("move", "transport", "arrive"):
            where[d["asset"]] = d["to"]
        elif e.kind == "create":
            where[d["asset"]] = d.get("location")
        if e.kind == "hide" or (e.kind == "create" and d.get("stealth")):
            hidden.add(d["asset"])
            return []
        if e.kind == "ability" and d.get("effect") in _HIDING_ABILITIES:
            hidden.add(d[_HIDING_ABILITIES[d["effect"]]])
            return []
        comes_out = e.kind == "revealed" or (
            e.kind == "quality-lost" and "stealth" in d.get("qualities", ()))
        if comes_out and d["asset"] in hidden:
            hidden.discard(d["asset"])
            return [Event(e.turn, "rumour", e.faction, {
                "asset": d["asset"], "reason": d.get("reason", ""),
                "location": where.get(d["asset"])})]
        if e.kind == "upkeep" and hidden & set(d.get("lost", ())):
            return [Event(e.turn, e.kind, e.faction,
                          {**d, "lost": [a for a in d["lost"] if a not in hidden]})]
        if _refs(e) & hidden:
            return []
        return [e]

    return seen


def _turn_end(e: Event) -> Event:
    """The factions' HP at the end of the turn (their Treasure and asset counts are secret)."""
    return Event(e.turn, e.kind, e.faction, {"factions": {
        fid: pick(v, ("hp",)) for fid, v in (e.data.get("factions") or {}).items()}})


def _create(e: Event) -> Event | None:
    return None if e.data.get("stealth") else Event(e.turn, e.kind, e.faction,
                                                     pick(e.data, ("asset", "location")))


def _upkeep(e: Event) -> Event | None:
    """Only the assets upkeep cost the faction (the Treasure is secret)."""
    lost = list(e.data.get("lost") or ())
    return Event(e.turn, e.kind, e.faction, {"lost": lost}) if lost else None


def _ability(e: Event) -> Event | None:
    if e.data.get("effect") not in PUBLIC_ABILITIES:
        return None
    return Event(e.turn, e.kind, e.faction, pick(e.data, (
        "source", "effect", "target", "target_faction", "location", "success")))


PUBLIC_EVENTS: dict[str, EventRule] = {
    "initiative": ("order",),
    "faction-turn": (),
    "turn-end": _turn_end,
    "attack": ("attacker", "defender", "target_faction", "location", "success"),
    "damage": ("asset", "owner", "damage", "cause", "hp_left", "faction_damage",
               "faction_hp_left"),
    "immune": ("asset", "attacker"),
    "destroyed": ("asset", "owner", "location", "cause"),
    "collapse": ("by",),
    "rumour": ("asset", "reason", "location"),
    "move": ("asset", "from", "to"),
    # an asset carried by an ability, or arriving late, is seen where it arrives, as a move
    "transport": ("asset", "from", "to"),
    "arrive": ("asset", "from", "to"),
    "expand": ("location", "base", "hp"),
    "expand-check": ("rival", "location", "success"),
    "base-planted": ("base", "location"),
    "base-lost": ("base", "location"),
    "create": _create,
    "sell": ("asset",),
    "repair": ("asset", "healed", "hp"),
    "repair-faction": ("healed", "hp"),
    "raise": ("attribute", "rating", "max_hp"),
    "exposed": ("asset", "location"),
    "asset-lost": ("asset", "location"),
    "upkeep": _upkeep,
    "ability": _ability,
}

VISIBILITY = Visibility(frame=players_frame, events=PUBLIC_EVENTS, watch=watch)
