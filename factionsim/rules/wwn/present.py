"""What the report, ``factionsim show`` and the command summaries show of a WWN campaign
(:data:`PRESENTATION`, see :class:`factionsim.core.presentation.Presentation`).

>>> from factionsim import load_campaign
>>> from factionsim.configs import default_campaign_path
>>> frame = load_campaign(default_campaign_path("wwn")).to_dict()
>>> series(frame)["iron-legion"], table(frame)[1][0][2:]
({'hp': 32, 'treasure': 10, 'assets': 8}, ['7/3/6', 1, 8, 10, 0, 'Blood the Enemy (0/16)'])
"""

from __future__ import annotations

from typing import Any

from factionsim.core.names import Names
from factionsim.core.presentation import (
    SHOW_WIDTH,
    Badge,
    Frame,
    MapFrame,
    Place,
    Presentation,
    Sheet,
    SheetTable,
    clip,
    text_table,
)

from .data import ASSET_TYPES, BASE_OF_INFLUENCE, income, max_faction_hp
from .goals import GOALS, progress_now
from .goals import goal_name as goal_name_of
from .prose import goal_target

CHARTS = (("hp", "Faction HP"), ("treasure", "Treasure"), ("assets", "Assets (not counting Bases)"))
KEY_KINDS = ("goal-complete", "goal-failed", "goal-chosen", "collapse", "destroyed",
             "base-planted", "base-lost", "raise", "gm-veto", "rumour", "relation")
#: the timeline leaves out the goals chosen (the turn panels list them)
TIMELINE_KINDS = tuple(k for k in KEY_KINDS if k != "goal-chosen")

_TYPE_NAMES = {k: v.name for k, v in ASSET_TYPES.items()}


# ------------------------------------------------------------------ frames (any recorded turn)
def names(frame: Frame) -> Names:
    return Names({f["id"]: f.get("name", f["id"]) for f in frame["factions"]},
                 {loc["id"]: loc.get("name", loc["id"]) for loc in frame["locations"]},
                 {**_TYPE_NAMES, **{t["id"]: t["name"] for t in frame.get("asset_types", ())}},
                 "wwn", goals={g["id"]: g["name"] for g in frame.get("goal_types", ())})


def series(frame: Frame) -> dict[str, dict[str, float | None]]:
    """HP (0 once collapsed), Treasure and assets other than Bases, per faction (what the frame
    holds: the players' frame has no Treasure and no Stealthed assets)."""
    out: dict[str, dict[str, float | None]] = {}
    for f in frame.get("factions", []):
        alive = f.get("alive", True)
        hp = f.get("hp")
        if not alive:
            hp = 0
        elif hp is None:
            hp = max_faction_hp(f["force"], f["wealth"], f["cunning"])
        out[f["id"]] = {"hp": hp, "treasure": f.get("treasure"),
                        "assets": sum(a["type"] != BASE_OF_INFLUENCE for a in f.get("assets") or [])
                        if alive else 0}
    return out


def goal_name(goal: Any) -> str:
    """A goal as the report's table shows it: ``Expand Influence (1/2)`` (the book's name)."""
    if not goal:
        return "none"
    if isinstance(goal, str):
        return GOALS.get(goal, goal)
    text = GOALS.get(goal["id"], goal["id"])
    if goal.get("needed"):
        text += f" ({goal.get('progress', 0)}/{goal['needed']})"
    return text


def table(frame: Frame) -> tuple[list[str], list[list[Any]]]:
    """One row per faction: HP, ratings, assets in sight; for the GM Treasure, XP and goal
    (a players' frame has none of them: the columns are left out)."""
    factions = frame["factions"]
    full = any("treasure" in f for f in factions)
    rows = []
    for f in factions:
        alive = f.get("alive", True)
        assets = [a for a in f.get("assets") or [] if a["type"] != BASE_OF_INFLUENCE]
        bases = len(f.get("assets") or []) - len(assets)
        row = [f.get("name", f["id"]), f.get("hp", "") if alive else "collapsed",
               f"{f['force']}/{f['cunning']}/{f['wealth']}", bases if alive else 0,
               len(assets) if alive else 0]
        if full:
            row += [f.get("treasure", 0), f.get("xp", 0), goal_name(f.get("goal"))]
        rows.append(row)
    headers = ["faction", "HP", "F/C/W", "Bases", "assets"]
    return (headers + ["Treasure", "XP", "goal"] if full else headers), rows


def map_frame(frame: Frame, names: Names, hide_stealth: bool) -> MapFrame:
    """The locations, and each living faction's assets there (``■N``: a Base of Influence with N
    HP; ``+N``: its other assets); Stealthed assets are left out for the players."""
    places = [Place(loc["id"], loc.get("name", loc["id"]), tuple(loc.get("neighbors", [])),
                    loc.get("ruler"), bool(loc.get("coastal"))) for loc in frame["locations"]]
    table = kinds(frame)
    badges: dict[str, list[Badge]] = {}
    for f in frame.get("factions", []):
        if not f.get("alive", True):
            continue
        here: dict[str, list[dict[str, Any]]] = {}
        for a in f.get("assets") or []:
            if hide_stealth and a.get("stealth"):
                continue
            here.setdefault(a["location"], []).append(a)
        if f.get("headquarters") and f["headquarters"] not in here:
            here[f["headquarters"]] = [{"type": BASE_OF_INFLUENCE, "hp": f.get("hp")}]
        for lid, assets in here.items():
            badges.setdefault(lid, []).append(_badge(f["id"], assets, names, table))
    return MapFrame(places, badges)


def kinds(frame: Frame) -> dict[str, Any]:
    """The frame's asset table: the standard types plus the campaign's own (``asset_types:``)."""
    from .homebrew import asset_table

    return asset_table(frame.get("asset_types"))


def _max_hp(asset: dict[str, Any], table: dict[str, Any] = ASSET_TYPES) -> str:
    """``/5``: the asset's full HP (a Base's is its faction's; none shown)."""
    kind = table.get(asset["type"])
    return f"/{kind.hp}" if kind is not None and not kind.is_base else ""


def _badge(fid: str, assets: list[dict[str, Any]], names: Names,
           table: dict[str, Any] = ASSET_TYPES) -> Badge:
    base = [a for a in assets if a["type"] == BASE_OF_INFLUENCE]
    others = [a for a in assets if a["type"] != BASE_OF_INFLUENCE]
    tip = names.factions.get(fid, fid) + ": " + "; ".join(
        f"{names.asset_types.get(a['type'], a['type'])} {a.get('hp', '?')}" + _max_hp(a, table)
        + (" (stealthed)" if a.get("stealth") else "") for a in assets)
    label = ("\u25a0" if base else "") + (f" {len(others)}" if others else "")
    if base and base[0].get("hp") is not None:
        label = f"\u25a0{base[0]['hp']}" + (f" +{len(others)}" if others else "")
    return Badge(fid, label.strip(), tip)


def _attack_text(kind: Any) -> str:
    attack = kind.attack
    if attack is None:
        return "-"
    if isinstance(attack, str):
        return attack
    return f"{attack.attacker.title()} vs {attack.defender.title()}, {attack.damage}"


def sheet(frame: Frame, faction: str) -> Sheet:
    """A faction's sheet: its ratings, HP, Magic, tags, headquarters and relations; for the GM
    its Treasure, income, XP and goal; every asset the frame holds with its stats and place."""
    n = names(frame)
    table = kinds(frame)
    f = next(x for x in frame["factions"] if x["id"] == faction)
    top = max_faction_hp(f["force"], f["wealth"], f["cunning"])
    alive = f.get("alive", True)
    stats: list[tuple[str, Any]] = [
        ("HP", f"{f.get('hp', top)}/{top}" if alive else "collapsed"),
        ("Force", f["force"]), ("Cunning", f["cunning"]), ("Wealth", f["wealth"]),
        ("Magic", f.get("magic", "none")), ("Tags", ", ".join(f.get("tags") or ()) or "-"),
        ("Headquarters", n.place(f["headquarters"]) if f.get("headquarters") else "-")]
    others = [(b if a == faction else a, rel) for a, b, rel in frame.get("relations") or ()
              if faction in (a, b)]
    if others:
        stats.append(("Relations", ", ".join(f"{rel} with {n.faction(o)}" for o, rel in others)))
    if "treasure" in f:  # the GM's sheet
        goal = f.get("goal")
        goal_text_ = goal_name(goal) + (f", target {goal_target(goal['target'], n)}"
                                        if isinstance(goal, dict) and goal.get("target") else "")
        stats += [("Treasure", f["treasure"]),
                  ("Income", f"{income(f['force'], f['wealth'], f['cunning'])} a turn"),
                  ("XP", f.get("xp", 0)), ("Goal", goal_text_)]
    rows = []
    for a in sorted(f.get("assets") or [], key=lambda a: (n.place(a["location"]),
                                                          a["type"] != BASE_OF_INFLUENCE, a["type"])):
        kind = table[a["type"]]
        notes = [x for x in ("HQ" if kind.is_base and a["location"] == f.get("headquarters") else "",
                             "stealthed" if a.get("stealth") else "") if x]
        rows.append([kind.name, n.place(a["location"]), f"{a.get('hp', '?')}{_max_hp(a, table)}",
                     kind.attribute.title() if not kind.is_base else "-", _attack_text(kind),
                     kind.counter or "-", ", ".join(notes) or "-"])
    return Sheet(stats, [SheetTable("Assets", ["asset", "at", "HP", "attribute", "attack",
                                               "counter", "notes"], rows)])


# ------------------------------------------------------------------ the campaign now
def goal_text(state: Any, f: Any, since: bool = True) -> str:
    """A faction's goal in words: ``Blood The Enemy 3/16, since turn 2`` (``since``: the turn
    it was taken up; a target named as the chronicle names it: ``Root Out the Enemy (The
    Veiled Hand's Base at Saltmere)``), with its progress as the rules count it now
    (:func:`.goals.progress_now`: Inside Enemy Territory's from where the assets stand and the
    current Cunning)."""
    g = f.goal
    if g is None:
        return "none"
    text = goal_name_of(state, g.id)
    if g.target:
        names, held = Names.from_state(state), state.assets.get(g.target)
        text += f" ({names.asset(g.target, held.owner) if held else goal_target(g.target, names)})"
    progress, needed = progress_now(state, f)
    if needed:
        text += f" {progress}/{needed}"
    return text + f", since turn {g.started}" if g.started and since else text


def show_json(state: Any) -> dict[str, Any]:
    """Everything ``show`` prints, as plain data (``--json``)."""
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
            "neighbors": list(loc.neighbors),
            "assets": [{"id": a.id, "type": a.type, "name": a.kind.name,
                        "owner": a.owner, "hp": a.hp, "max_hp": a.max_hp, "stealth": a.stealth}
                       for a in here],
        })
    return {"name": state.name, "turn": state.turn, "seed": state.seed, "factions": factions,
            "locations": locations}


def show(state: Any) -> str:
    """Factions, goals, relations, the map (neighbours, rulers) and every asset by location, as
    text that fits :data:`~factionsim.core.presentation.SHOW_WIDTH` columns (long names are cut
    with ``...``; ``--json`` gives them whole)."""
    lines = [clip(f"{state.name or 'Campaign'}: after turn {state.turn}"
                  + (f" of {state.max_turns}" if state.max_turns else "")
                  + (f" (seed {state.seed})" if state.seed is not None else ""), SHOW_WIDTH), ""]
    factions = list(state.factions.values())
    rows = [[clip(f.name, 30), f"{f.hp}/{f.max_hp}" if f.alive else "collapsed",
             f"{f.force}/{f.cunning}/{f.wealth}", f.magic, f.treasure, f.xp,
             clip(state.map.locations[f.headquarters].name, 14), clip(f.agent, 14)]
            for f in factions]
    lines += ["FACTIONS", text_table(["faction", "HP", "F/C/W", "magic", "Treasure", "XP",
                                      "headquarters", "agent"], rows), ""]
    lines += ["GOALS", text_table(["faction", "goal", "XP earned", "goals done"],
                                  [[clip(f.name, 30), clip(goal_text(state, f), 60) if f.alive else "-",
                                    f.xp_earned, f.goals_completed] for f in factions]), ""]
    lines += ["TAGS AND RELATIONS", *_relations(state), ""]
    lines += ["MAP", *_map_lines(state), ""]
    lines += ["ASSETS BY LOCATION", *_asset_lines(state)]
    return "\n".join(lines) + "\n"


def _relations(state: Any) -> list[str]:
    """One line per faction: its tags, then who it is allied with, neutral to, hostile to."""
    out = []
    for f in state.factions.values():
        head = f.name + (f" ({', '.join(f.tags)})" if f.tags else "") + ":"
        if not f.alive:
            out += _wrapped(f"{head} collapsed.")
            continue
        others = [o for o in state.factions.values() if o.id != f.id and o.alive]
        parts = []
        for rel in ("allied", "neutral", "hostile"):
            who = [o.name for o in others if state.relation(f.id, o.id) == rel]
            if who:
                parts.append(f"{rel} {'to' if rel != 'allied' else 'with'} {', '.join(who)};")
        if parts:
            parts[-1] = parts[-1].rstrip(";") + "."
        out += _wrapped(" ".join([head, *parts]) if parts else f"{head} alone.")
    return out


def _map_lines(state: Any) -> list[str]:
    """One line per location: its name, ruler, coast, and neighbours (both ways)."""
    out = []
    for loc in state.map.locations.values():
        head = loc.name + (f", ruled by {state.factions[loc.ruler].name}"
                           if loc.ruler in state.factions else "") + (", coast" if loc.coastal
                                                                       else "") + ":"
        near = [state.map.locations[n].name for n in state.map.adjacent[loc.id]]
        out += _wrapped(f"{head} next to " + (", ".join(near) if near else "nowhere") + ".")
    return out


def _wrapped(line: str) -> list[str]:
    """``line`` in lines of :data:`SHOW_WIDTH` columns, the rest indented under the first."""
    import textwrap

    return textwrap.wrap(line, SHOW_WIDTH, subsequent_indent="    ", break_on_hyphens=False)


def _asset_lines(state: Any) -> list[str]:
    """A line per location, then its assets (faction, asset, id, HP, notes), one table."""
    rows, starts = [], []
    order = list(state.factions)
    for loc in state.map.locations.values():
        here = sorted(state.assets_at(loc.id), key=lambda a: (order.index(a.owner), not a.is_base,
                                                              a.id))
        starts.append((len(rows), clip(loc.name, SHOW_WIDTH), bool(here)))
        for a in here:
            owner = state.factions[a.owner]
            name = a.kind.name + (" (HQ)" if a.is_base and a.location ==
                                  owner.headquarters else "")
            notes = "base" if a.is_base else ("stealthed" if a.stealth else "")
            rows.append([clip(owner.name, 30), name, a.id, f"{a.hp}/{a.max_hp}", notes])
    table = text_table(["faction", "asset", "id", "HP", "notes"], rows).splitlines()
    out = ["  " + line for line in table[:2]]
    body = table[2:]
    for n, (start, place, any_here) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(rows)
        out.append(place + ("" if any_here else ": no assets"))
        out += ["  " + line for line in body[start:end]]
    return out


def status(state: Any) -> dict[str, dict[str, Any]]:
    """``factionsim turn --json``: each faction's sheet and its number of assets."""
    return {fid: {"name": f.name, "alive": f.alive, "hp": f.hp, "max_hp": f.max_hp,
                  "treasure": f.treasure, "xp": f.xp, "goal": f.goal.id if f.goal else None,
                  "assets": sum(a.owner == fid for a in state.assets.values())}
            for fid, f in state.factions.items()}


def status_line(state: Any, faction: str) -> str:
    f = state.factions[faction]
    if not f.alive:
        return f"{f.name}: collapsed"
    return (f"{f.name}: HP {f.hp}/{f.max_hp}, Treasure {f.treasure}, XP {f.xp}, "
            f"goal {goal_text(state, f, since=False)}")


def _action_note(state: Any, action: Any) -> str:
    from .advice import action_note

    return action_note(state, action)


def describe(state: Any) -> str:
    return (f"{len(state.factions)} factions, {len(state.map.locations)} locations, "
            f"{len(state.assets)} assets")


PRESENTATION = Presentation(
    names=names, table=table, charts=CHARTS, series=series, key_kinds=KEY_KINDS,
    timeline_kinds=TIMELINE_KINDS, colour_rows=True, map=map_frame, show=show, show_json=show_json,
    status=status, status_line=status_line, describe=describe, sheet=sheet,
    action_note=_action_note)
