"""What the report and ``factionsim show`` need from a Great Houses scenario (plain data frames,
as written by ``HousesState.to_dict``).

>>> from factionsim.configs import default_campaign_path
>>> import yaml
>>> frame = yaml.safe_load(default_campaign_path("houses").read_text())
>>> series(frame)["aldren"]["holdings"], table(frame)[0][:3]
(2, ['House', 'status', 'score'])
"""

from __future__ import annotations

from typing import Any

from factionsim.core.names import Names
from factionsim.core.presentation import Presentation

SERIES = [("score", "Score"), ("holdings", "Holdings"), ("stress", "Stress + Trauma (die sizes)"),
          ("assets", "Assets (all kinds)")]
KEY_KINDS = ("seized", "collapse", "taken-out", "permanent-loss", "advance", "asset-lost")


def _state(frame: dict[str, Any]) -> Any:
    from .state import HousesState

    d = {k: v for k, v in frame.items() if k != "rng"}
    return HousesState.from_dict(d)


def series(frame: dict[str, Any]) -> dict[str, dict[str, float]]:
    s = _state(frame)
    scores = s.scores()
    out = {}
    for h in s.houses.values():
        mine = s.assets_of(h.id)
        out[h.id] = {"score": scores[h.id], "holdings": sum(a.kind == "holding" for a in mine),
                     "stress": h.stress + h.trauma, "assets": len(mine)}
    return out


def names(frame: dict[str, Any]) -> Names:
    return Names(**_state(frame).display_names())


def table(frame: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    s = _state(frame)
    scores = s.scores()
    headers = ["House", "status", "score", "P/M/S", "top skills", "stress", "trauma",
               "complications", "PP", "adv", "assets"]
    rows = []
    for h in s.houses.values():
        top = sorted((k for k in h.skills if h.skills[k] > 4), key=lambda k: -h.skills[k])[:3]
        assets = ", ".join(f"{a.name} d{a.die}" + (f"/{a.full}" if a.damaged else "")
                           + ("" if a.kind == "asset" else f" ({a.kind})")
                           for a in s.assets_of(h.id))
        rows.append([
            h.name, "standing" if h.alive else "collapsed", scores[h.id],
            "/".join(f"d{h.attributes[x]}" for x in ("physical", "mental", "social")),
            ", ".join(f"{k} d{h.skills[k]}" + (f"/{h.skills_full[k]}" if h.skills[k] < h.skills_full[k]
                                               else "") for k in top) or "-",
            f"d{h.stress}" if h.stress else "-", f"d{h.trauma}" if h.trauma else "-",
            ", ".join(f"{c['from']} d{c['die']}" for c in h.complications) or "-",
            h.plot_points, h.advances, assets or "-"])
    return headers, rows


PRESENTATION = Presentation(names=names, table=table, charts=tuple(SERIES), series=series,
                            key_kinds=KEY_KINDS)
