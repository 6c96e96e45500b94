"""What reports and ``show`` need of an engagements campaign, read from campaign data (a frame).

>>> from factionsim.configs import default_campaign_path
>>> from factionsim import load_campaign
>>> frame = load_campaign(default_campaign_path("engagements")).to_dict()
>>> series(frame)["iron-court"]["pillars"]
3
>>> table(frame)[0][:3]
['faction', 'pillars', 'strength']
"""

from __future__ import annotations

from typing import Any

from factionsim.core.names import Names
from factionsim.core.presentation import Presentation

from .model import slugify

SERIES = [("score", "Score"), ("pillars", "Pillars"), ("strength", "Pillar strength"),
          ("faction_dice", "Faction dice")]
KEY_KINDS = ("engage", "join", "pillar-defeated", "exposed", "collapse", "build", "deferred")


def _strength(p: dict[str, Any]) -> int:
    return p["competence"] + p["defense"] + p.get("circles", 3) - p.get("wounds", 0)


def _score(f: dict[str, Any], frame: dict[str, Any]) -> float:
    if not f.get("alive", True):
        return 0.0
    renown = float((frame.get("settings") or {}).get("renown_score", 2.0))
    return 1.0 + sum(_strength(p) for p in f.get("pillars") or []) + renown * f.get("renown", 0)


def series(frame: dict[str, Any]) -> dict[str, dict[str, float]]:
    out = {}
    for f in frame.get("factions", []):
        alive = f.get("alive", True)
        pillars = f.get("pillars") or []
        out[f["id"]] = {"score": round(_score(f, frame), 2),
                        "pillars": len(pillars) if alive else 0,
                        "strength": sum(_strength(p) for p in pillars) if alive else 0,
                        "faction_dice": f.get("faction_dice", 0) if alive else 0}
    return out


def names(frame: dict[str, Any]) -> Names:
    kinds = {slugify(p["name"]): p["name"] for f in frame.get("factions", [])
             for p in f.get("pillars") or []}
    kinds = {**(frame.get("fallen") or {}), **kinds}
    return Names({f["id"]: f.get("name", f["id"]) for f in frame.get("factions", [])}, {}, kinds,
                 "engagements")


def _pillar_text(p: dict[str, Any]) -> str:
    circles = p.get("circles", 3)
    marks = "x" * p.get("wounds", 0) + "o" * (circles - p.get("wounds", 0))
    boons = f" ({', '.join(p['boons'])})" if p.get("boons") else ""
    return f"{p['name']} C{p['competence']}/D{p['defense']} [{marks}]{boons}"


def table(frame: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    headers = ["faction", "pillars", "strength", "score", "faction dice", "engagement dice",
               "renown", "mercenary", "pillar details"]
    rows = []
    fnames = {f["id"]: f.get("name", f["id"]) for f in frame.get("factions", [])}
    for f in frame.get("factions", []):
        alive = f.get("alive", True)
        pillars = f.get("pillars") or []
        pools = ", ".join(f"{fnames.get(k, k)} {v}" for k, v in (f.get("engagement") or {}).items())
        rows.append([fnames[f["id"]], len(pillars) if alive else "collapsed",
                     sum(_strength(p) for p in pillars), round(_score(f, frame), 2),
                     f.get("faction_dice", 0), pools or "-", f.get("renown", 0),
                     f"for {f['mercenary']}" if f.get("mercenary") is not None else "-",
                     "; ".join(_pillar_text(p) for p in pillars) or "-"])
    return headers, rows


PRESENTATION = Presentation(names=names, table=table, charts=tuple(SERIES), series=series,
                            key_kinds=KEY_KINDS)
