"""What a WWN forecast counts beyond the engine contract (:data:`FORECASTING`).

- **Holdings**: a faction holds ``"Base at L"`` while it has a Base of Influence at location L,
  and ``"assets at L"`` while it has any asset there (a Base included, Stealthed ones too: the
  forecast is the GM's). A forecast reports, for each, the chance it is held at the end of the
  forecast turns: a holding held now is *lost* in the other futures, one not held now *gained*.
- **Headquarters**: held while the Base of Influence at the faction's headquarters is in play (a
  faction that collapses loses it with everything else).
- **Headlines**: an asset destroyed (by whom, whose, which type, where), a faction collapsing
  (and who brought it down), a goal achieved, a Base of Influence planted, a rating raised.

>>> from factionsim import load_campaign
>>> from factionsim.configs import default_campaign_path
>>> s = load_campaign(default_campaign_path("wwn"))
>>> holdings(s)["iron-legion"]["base@tarsis"], headquarters(s)["iron-legion"]
('Base at Tarsis', True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from factionsim.core.forecasting import Forecasting, Headline
from factionsim.core.game import Event
from factionsim.core.names import Names

from .odds import action_odds, odds_text
from .prose import goal_title

if TYPE_CHECKING:
    from .state import WwnState


def holdings(state: WwnState) -> dict[str, dict[str, str]]:
    """Faction -> {``base@L`` / ``assets@L``: label} of the places it holds now."""
    out: dict[str, dict[str, str]] = {}
    for fid in state.factions:
        mine: dict[str, str] = {}
        assets = state.assets_of(fid)
        for a in assets:
            if a.is_base:
                mine[f"base@{a.location}"] = f"Base at {state.map.locations[a.location].name}"
        for a in assets:
            mine.setdefault(f"assets@{a.location}", f"assets at {state.map.locations[a.location].name}")
        out[fid] = mine
    return out


def headquarters(state: WwnState) -> dict[str, bool]:
    """Faction -> whether its headquarters Base of Influence is in play."""
    return {fid: f.alive and state.headquarters_base(fid) is not None
            for fid, f in state.factions.items()}


def headline(event: Event, names: Names) -> Headline | None:
    """The headline an event makes (see the module docstring), or ``None``."""
    d, who = event.data, event.faction
    if event.kind == "destroyed":
        kind = d["asset"].rsplit("#", 1)[0]
        what = f"{names.asset(d['asset'], d['owner'])} at {names.place(d['location'])}"
        text = (f"{names.faction(who)} destroys {what}" if who and who != d["owner"]
                else f"{what} is destroyed")
        return Headline(f"destroyed|{who or ''}|{d['owner']}|{kind}|{d['location']}", text)
    if event.kind == "collapse":
        by = d.get("by")
        text = (f"{names.faction(by)} brings down {names.faction(who)}" if by and by != who
                else f"{names.faction(who)} collapses")
        return Headline(f"collapse|{who}|{by or ''}", text)
    if event.kind == "goal-complete":
        return Headline(f"goal-complete|{who}|{d['goal']}",
                        f"{names.faction(who)} achieves its goal {goal_title(d['goal'], names)}")
    if event.kind == "base-planted":
        return Headline(f"base-planted|{who}|{d['location']}",
                        f"{names.faction(who)} plants a Base of Influence at {names.place(d['location'])}")
    if event.kind == "raise":
        return Headline(f"raise|{who}|{d['attribute']}|{d['rating']}",
                        f"{names.faction(who)} raises its {d['attribute'].title()} to {d['rating']}")
    return None


FORECASTING = Forecasting(holdings=holdings, headquarters=headquarters, headline=headline,
                          odds=action_odds, odds_text=odds_text)
