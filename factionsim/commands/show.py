"""``factionsim show CAMPAIGN``: the factions, their assets by location, goals and Treasure.

>>> print(table(["a", "bb"], [["x", 1], ["yyy", 22]]))
a    bb
---  --
x     1
yyy  22
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def table(headers: list[str], rows: list[list[Any]]) -> str:
    """Plain-text columns; numbers right-aligned."""
    cells = [[str(c) for c in r] for r in rows]
    widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(headers)]
    numeric = [all(isinstance(r[i], int) for r in rows) and rows != [] for i in range(len(headers))]

    def fmt(row: list[str]) -> str:
        return "  ".join(c.rjust(w) if num else c.ljust(w)
                         for c, w, num in zip(row, widths, numeric, strict=True)).rstrip()

    return "\n".join([fmt(headers), "  ".join("-" * w for w in widths), *map(fmt, cells)])


def goal_text(f: Any) -> str:
    g = f.goal
    if g is None:
        return "none"
    text = g.id.replace("-", " ").title() + (f" ({g.target})" if g.target else "")
    if g.needed:
        text += f" {g.progress}/{g.needed}"
    return text + f", since turn {g.started}" if g.started else text


def campaign_summary(state: Any) -> dict[str, Any]:
    """Everything ``show`` prints, as plain data (``--json``)."""
    from factionsim.rules.wwn.data import ASSET_TYPES

    factions = []
    for f in state.factions.values():
        factions.append({
            "id": f.id, "name": f.name, "alive": f.alive, "hp": f.hp, "max_hp": f.max_hp,
            "force": f.force, "cunning": f.cunning, "wealth": f.wealth, "magic": f.magic,
            "treasure": f.treasure, "xp": f.xp, "tags": list(f.tags), "agent": f.agent,
            "headquarters": f.headquarters, "goal": f.goal.to_dict() if f.goal else None,
        })
    locations = []
    for loc in state.map.locations.values():
        here = state.assets_at(loc.id)
        locations.append({
            "id": loc.id, "name": loc.name, "ruler": loc.ruler, "coastal": loc.coastal,
            "neighbors": list(state.map.neighbors(loc.id)) if hasattr(state.map, "neighbors")
            else list(loc.neighbors),
            "assets": [{"id": a.id, "type": a.type, "name": ASSET_TYPES[a.type].name,
                        "owner": a.owner, "hp": a.hp, "max_hp": a.max_hp, "stealth": a.stealth}
                       for a in here],
        })
    return {"name": state.name, "turn": state.turn, "seed": state.seed, "factions": factions,
            "locations": locations}


def render_show(state: Any) -> str:
    from factionsim.rules.wwn.data import ASSET_TYPES

    lines = [f"{state.name or 'Campaign'}: after turn {state.turn}"
             + (f" of {state.max_turns}" if state.max_turns else "")
             + (f" (seed {state.seed})" if state.seed is not None else ""), ""]
    rows = []
    for f in state.factions.values():
        hq = state.map.locations[f.headquarters].name
        rows.append([f.name, f"{f.hp}/{f.max_hp}" if f.alive else "collapsed",
                     f"{f.force}/{f.cunning}/{f.wealth}", f.magic, f.treasure, f.xp,
                     ", ".join(f.tags) or "-", hq, f.agent])
    lines += ["FACTIONS", table(["faction", "HP", "F/C/W", "magic", "Treasure", "XP", "tags",
                                 "headquarters", "agent"], rows), ""]
    lines += ["GOALS", table(["faction", "goal", "XP earned", "goals done"],
                             [[f.name, goal_text(f) if f.alive else "-", f.xp_earned,
                               f.goals_completed] for f in state.factions.values()]), ""]
    lines.append("ASSETS BY LOCATION")
    rows = []
    for loc in state.map.locations.values():
        here = state.assets_at(loc.id)
        place = loc.name + (f" (ruled by {state.factions[loc.ruler].name})"
                            if loc.ruler in state.factions else "") + (" ~coast" if loc.coastal else "")
        if not here:
            rows.append([place, "-", "-", "", ""])
        for i, a in enumerate(sorted(here, key=lambda a: (list(state.factions).index(a.owner),
                                                          not a.is_base, a.id))):
            kind = ASSET_TYPES[a.type]
            name = kind.name + (" (HQ)" if a.is_base and a.location ==
                                state.factions[a.owner].headquarters else "")
            rows.append([place if i == 0 else "", state.factions[a.owner].name,
                         f"{name} [{a.id}]", f"{a.hp}/{a.max_hp}",
                         ("stealthed" if a.stealth else "") if not a.is_base else "base"])
    lines.append(table(["location", "faction", "asset", "HP", "notes"], rows))
    return "\n".join(lines) + "\n"


def cmd_show(args: argparse.Namespace) -> int:
    from factionsim.core.campaign import load_campaign

    state = load_campaign(Path(args.campaign))
    if getattr(state, "ruleset", "wwn") != "wwn":  # other rulesets: their present.table
        from importlib import import_module

        headers, rows = import_module(f"factionsim.rules.{state.ruleset}.present").table(
            state.to_dict())
        if args.json:
            print(json.dumps({"name": state.name, "turn": state.turn, "seed": state.seed,
                              "factions": [dict(zip(headers, r, strict=True)) for r in rows]},
                             indent=2))
        else:
            print(f"{state.name or 'Campaign'}: after turn {state.turn}\n\n{table(headers, rows)}")
        return 0
    if args.json:
        print(json.dumps(campaign_summary(state), indent=2))
    else:
        print(render_show(state), end="")
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser("show", help="print a campaign's factions, assets by location, goals",
                       description="Print CAMPAIGN as tables: factions (HP, ratings, Treasure, "
                       "XP, tags), goals, and every asset by location.")
    p.add_argument("campaign", help="campaign file (YAML)")
    p.add_argument("--json", action="store_true", help="print the same as JSON")
    p.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_show)
