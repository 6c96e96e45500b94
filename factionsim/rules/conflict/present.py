"""What reports and ``factionsim show`` draw for a conflict, read from a scenario frame (the
plain data of a campaign file or a history snapshot).

>>> from factionsim.configs import default_campaign_path
>>> from factionsim import load_campaign
>>> frame = load_campaign(default_campaign_path("conflict")).to_dict()
>>> sorted(series(frame))
['iron-legion', 'wardens']
>>> table(frame)[0][:3]
['side', 'character', 'height']
"""

from __future__ import annotations

from typing import Any

from factionsim.core.names import Names
from factionsim.core.presentation import Presentation

SERIES = [("standing", "Characters standing"), ("blood", "Blood left"), ("guts", "Guts left")]
KEY_KINDS = frozenset({"fallen", "fled", "yielded", "conflict-end", "cast", "bond", "item", "ritual",
                       "parley"})


def _chars(frame: dict[str, Any]):
    for sd in frame.get("sides", []):
        for cd in sd.get("characters", []):
            yield sd, cd


def _active(cd: dict[str, Any]) -> bool:
    return cd.get("status", "active") == "active"


def series(frame: dict[str, Any]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for sd in frame.get("sides", []):
        live = [cd for cd in sd.get("characters", []) if _active(cd)]
        out[sd["id"]] = {"standing": len(live),
                         "blood": sum(int(cd.get("blood", 0)) for cd in live),
                         "guts": sum(int(cd.get("guts", 0)) for cd in live)}
    return out


def names(frame: dict[str, Any]) -> Names:
    return Names({sd["id"]: sd.get("name", sd["id"]) for sd in frame.get("sides", [])}, {},
                 {cd["id"]: cd.get("name", cd["id"]) for _, cd in _chars(frame)}, "conflict")


def table(frame: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    headers = ["side", "character", "height", "Blood", "Guts", "Approaches C/Cr/Co", "status",
               "skills"]
    rows = []
    for sd, cd in _chars(frame):
        a = cd.get("approaches", {})
        skills = ", ".join(f"{k} {v}" for k, v in (cd.get("skills") or {}).items())
        rows.append([sd.get("name", sd["id"]), cd.get("name", cd["id"]), cd.get("position", 0),
                     f"{cd.get('blood')}/{cd.get('max_blood')}", f"{cd.get('guts')}/{cd.get('max_guts')}",
                     f"{a.get('careful', 0)}/{a.get('creative', 0)}/{a.get('concerted', 0)}",
                     cd.get("status", "active"), skills])
    return headers, rows


PRESENTATION = Presentation(names=names, table=table, charts=tuple(SERIES), series=series,
                            key_kinds=KEY_KINDS)
