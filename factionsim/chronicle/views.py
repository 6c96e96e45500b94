"""Two views of the same events: the GM's (everything) and the players' (what the world saw).

The players' view leaves out what the rules keep hidden:

- Stealthed operations: an asset hidden (``hide``), created in secret (``create`` with stealth),
  and everything a Stealthed asset does or suffers while hidden (moves, abilities, upkeep losses);
  the choice of those actions (``action: hide``, ``action: create`` of a secret asset) too;
- the agents' reasons (``decision`` events) and the GM's vetoes (``gm-veto``).

Where the rules make a hidden thing visible, the players get a *rumour* instead: a Stealthed
asset that attacks loses its Stealth (``revealed``), and the players hear of it.

>>> from factionsim.core.game import Event
>>> evs = [Event(1, "hide", "a", {"asset": "spy#4", "cost": 2}),
...        Event(1, "move", "a", {"asset": "spy#4", "from": "x", "to": "y"}),
...        Event(1, "income", "a", {"amount": 3, "treasure": 5})]
>>> [e.kind for e in players_events(evs)]
['income']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from factionsim.core.game import Event
from factionsim.core.names import Names

from .markdown import render_markdown

#: Event kinds the players never see.
SECRET_KINDS = frozenset({"hide", "decision", "gm-veto"})
#: Data keys that name an asset.
_ASSET_KEYS = ("asset", "attacker", "defender", "base", "source", "target")


def stealthed_assets(campaign: dict[str, Any] | None) -> set[str]:
    """Ids (``type#n``) of the Stealthed assets in campaign data (a history snapshot)."""
    out: set[str] = set()
    factions = campaign.get("factions") if isinstance(campaign, dict) else None
    for f in factions if isinstance(factions, list) else []:  # a snapshot is not validated
        assets = f.get("assets") if isinstance(f, dict) else None
        for a in assets if isinstance(assets, list) else []:
            if isinstance(a, dict) and a.get("stealth") and a.get("id") is not None:
                out.add(f"{a.get('type')}#{a['id']}")
    return out


def _refs(e: Event) -> set[str]:
    refs: set[str] = set()
    for key in _ASSET_KEYS:
        v = e.data.get(key)
        if isinstance(v, str) and "#" in v:
            refs.add(v)
    return refs


def players_events(events: Iterable[Event], hidden: set[str] | None = None) -> list[Event]:
    """The events the players may know of, with rumours where hidden things came to light.

    ``hidden`` is the set of assets Stealthed when these events begin (see
    :func:`stealthed_assets`); it is updated as the events hide and reveal assets.
    """
    hidden = set(hidden or ())
    events = list(events)
    out: list[Event] = []
    for i, e in enumerate(events):
        d = e.data
        if e.kind in SECRET_KINDS:
            if e.kind == "hide":
                hidden.add(d["asset"])
            continue
        if e.kind == "create" and d.get("stealth"):
            hidden.add(d["asset"])
            continue
        if e.kind == "action" and d.get("action") == "hide":
            continue
        if e.kind == "action" and d.get("action") == "create" and _secret_creation(events, i):
            continue
        if e.kind == "revealed":
            hidden.discard(d["asset"])
            out.append(Event(e.turn, "rumour", e.faction, {"asset": d["asset"],
                                                           "reason": d.get("reason", "")}))
            continue
        if e.kind == "upkeep" and hidden & set(d.get("lost", [])):
            e = Event(e.turn, e.kind, e.faction,
                      {**d, "lost": [a for a in d["lost"] if a not in hidden]})
        elif _refs(e) & hidden:
            continue
        out.append(e)
    return out


def _secret_creation(events: list[Event], i: int) -> bool:
    """Is the ``create`` that follows the action at ``i`` (same faction) a Stealthed one?"""
    who = events[i].faction
    for e in events[i + 1:]:
        if e.kind == "create" and e.faction == who:
            return bool(e.data.get("stealth"))
        if e.kind in ("faction-turn", "action") and e.faction == who:
            return False
    return False


def render_turn(events: list[Event], names: Names, view: str = "gm",
                hidden: set[str] | None = None) -> str:
    """One turn (or several) as chronicle markdown without the title line.

    ``view`` is ``"gm"`` (everything) or ``"players"`` (see the module docstring).
    """
    if view == "players":
        events = players_events(events, hidden)
    elif view != "gm":
        raise ValueError(f"unknown chronicle view {view!r}; use 'gm' or 'players'")
    text = render_markdown(events, replace(names, notes=()), "x")
    return text.split("\n", 1)[1].strip() + "\n"
