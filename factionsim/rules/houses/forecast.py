"""What a forecast of a Succession War counts beyond the engine contract (:data:`FORECASTING`).

- **Holdings**: the places a House holds are its Holdings (each by name; a seized Holding
  changes hands, one stepped below d6 is lost): a forecast gives the chance each is lost, or
  gained from a rival, by the end of the forecast seasons.
- **Headlines**: a Holding seized (by whom, from whom), a House taken out, a House collapsing.

Houses have no headquarters (the forecast leaves that question out).

>>> from factionsim import load_campaign
>>> from factionsim.configs import default_campaign_path
>>> s = load_campaign(default_campaign_path("houses"))
>>> sorted(holdings(s)["aldren"].values())
['Castle Aldren', 'Greyford Town']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from factionsim.core.forecasting import Forecasting, Headline
from factionsim.core.game import Event
from factionsim.core.names import Names

if TYPE_CHECKING:
    from .state import HousesState


def holdings(state: HousesState) -> dict[str, dict[str, str]]:
    """House -> {``holding@ID``: its name} of the Holdings it holds now."""
    return {hid: {f"holding@{a.id}": a.name for a in state.assets_of(hid) if a.kind == "holding"}
            for hid in state.factions}


def headline(event: Event, names: Names) -> Headline | None:
    """The headline an event makes (see the module docstring), or ``None``."""
    who, d = event.faction, event.data
    if event.kind == "seized":
        return Headline(f"seized|{who}|{d['previous']}|{d['asset']}",
                        f"{names.faction(who)} seizes {d['name']} from {names.faction(d['previous'])}")
    if event.kind == "taken-out":
        return Headline(f"taken-out|{who}", f"{names.faction(who)} is taken out")
    if event.kind == "collapse":
        return Headline(f"collapse|{who}", f"{names.faction(who)} collapses")
    return None


FORECASTING = Forecasting(holdings=holdings, headline=headline)
