"""Checks a WWN campaign (plain data read from YAML) and normalizes it for ``WwnState.from_dict``.

:func:`validate` stops at the first problem and raises :class:`CampaignError` with one paragraph
naming the file, the line (when known), the field path (``factions[1].assets[0].type``), the bad
value and what is allowed. The format is documented in ``docs/campaign-format.md``; the specs
below are that format, field by field (the checks themselves: :mod:`factionsim.core.fields`),
and the functions after them the rules that join several fields.

This module must not import ``state.py`` (the engine): it only needs the rule tables.

>>> crown = {"id": "crown", "force": 4, "cunning": 2, "wealth": 3, "headquarters": "keep"}
>>> data = {"ruleset": "wwn", "locations": [{"id": "keep"}], "factions": [crown]}
>>> validate(data, "example.yaml", {})["factions"][0]["assets"]
[]
>>> validate({**data, "turn": -1}, "example.yaml", {"turn": 4})
Traceback (most recent call last):
...
factionsim.core.game.CampaignError: example.yaml, line 4, turn: must be a whole number >= 0 \
(got -1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from factionsim.core import fields as F
from factionsim.core.calendar import check_calendar

from . import homebrew, homebrew_goals, homebrew_tags, house_rules
from .data import (
    ASSET_TYPES,
    ATTRIBUTES,
    BASE_OF_INFLUENCE,
    MAGIC_LEVELS,
    RELATIONS,
    AssetType,
    max_faction_hp,
)

TAGS = homebrew_tags.STANDARD_TAGS
#: Tags that require an attribute to be the faction's highest (ties allowed).
TAG_HIGHEST = {"machiavellian": "cunning", "martial": "force", "rich": "wealth"}
GOALS = ("blood-the-enemy", "destroy-the-foe", "eliminate-target", "expand-influence",
         "inside-enemy-territory", "invincible-valor", "peaceable-kingdom", "root-out-the-enemy",
         "sphere-dominance", "wealth-of-kingdoms")
#: the faction actions (``ChooseAction``), as saved in a turn in progress
ACTION_KINDS = ("attack", "move", "repair", "expand", "create", "hide", "sell", "pass")
#: the most factions, locations and assets a campaign may hold
MAX_FACTIONS, MAX_LOCATIONS, MAX_ASSETS = 64, 1000, 5000

Path = tuple[str | int, ...]

# ---------------------------------------------------------------------- the format
ASSET_ID = F.Text(empty=False)  # "type#n" in the engine's bookkeeping; may name an asset now gone
TURN = F.Int(0, F.MAX_TURNS + 1)

#: ``assets[].status``: what abilities note on an asset (see ``abilities.py``)
STATUS = F.Record("status", {
    "affected": F.ListOf(F.Slug(), "factions"), "arrears": F.Int(), "arriving": F.Ref("location"),
    "disabled_by": F.Text(empty=False), "fortify_turn": TURN, "granted": ASSET_ID,
    "infested_by": ASSET_ID, "infesting": ASSET_ID, "mad_genius": F.Bool(),
    "may_stay": F.Ref("location"), "no_free_turn": TURN, "owes": F.Int(), "pinned_by": ASSET_ID,
    "ransom": F.Int(), "rogue": F.Bool(), "skim_turn": TURN, "stunned_turn": TURN,
    "subtle": F.Either((bool, F.Bool()), (str, ASSET_ID), what="true or an asset id"),
    "until_acts": F.ListOf(F.Choice(("stealth", "subtle"), "lapsing quality"), "qualities",
                         unique=True),
    "used_turn": TURN,
})

LOCATION = F.Record("location", {
    "id": F.Slug(), "name": F.Name(), "neighbors": F.ListOf(F.Ref("location"), "locations", unique=True),
    "coastal": F.Bool(), "ruler": F.Ref("faction"),
}, required=("id",))

RELATION = F.Tuple(F.Ref("faction"), F.Ref("faction"), F.Choice(RELATIONS, "relation"),
                 shape="[faction, faction, relation], e.g. [iron-legion, silver-guild, allied]")

#: a goal id or tag id: the book's, or one of the campaign's ``goal_types``/``tag_types``
GOAL_ID = F.Check(lambda ck, v, p: ck.choice(v, p, ck.known["goal"], "goal"))
TAG_ID = F.Check(lambda ck, v, p: ck.choice(v, p, ck.known["tag"], "tag"))

GOAL = F.Record("goal", {
    "id": GOAL_ID, "target": F.Text(), "progress": F.Int(), "needed": F.Int(),
    "difficulty": F.Int(), "started": TURN, "contested": F.Bool(),
    "baseline": F.ListOf(F.Text(empty=False), "entries"),
}, required=("id",))

ASSET = F.Record("asset", {
    "id": F.Int(1), "type": F.Check(lambda ck, v, p: ck.choice(
        v, p, ck.known["asset type"], "asset type",
        f"one of the {len(ASSET_TYPES) - 1} asset ids (see docs/assets.md), {BASE_OF_INFLUENCE}"
        + (", or an id of the campaign's asset_types" if ck.known["homebrew"] else ""))),
    "location": F.Ref("location"), "hp": F.Int(0), "max_hp": F.Int(1), "stealth": F.Bool(),
    "exposed": F.Bool(), "status": STATUS,
}, required=("type", "location"))

FACTION = F.Record("faction", {
    "id": F.Slug(), "name": F.Name(), **{a: F.Int(1, 8) for a in ATTRIBUTES},
    "magic": F.Choice(MAGIC_LEVELS, "magic level"), "treasure": F.Int(), "hp": F.Int(),
    "xp": F.Int(), "tags": F.ListOf(TAG_ID, "tags", unique=True),
    "goal": F.Either((str, GOAL_ID), (dict, GOAL),
                   what="a goal id or a goal mapping"),
    # which agents and options: the registry checks them against the agents WWN offers
    "agent": F.Later(), "agent_options": F.Later(),  # their shape: Checker.agent_fields
    "headquarters": F.Ref("location"), "assets": F.ListOf(ASSET, "assets", hi=MAX_ASSETS),
    "paralysed": F.Bool(), "xp_earned": F.Int(), "goals_completed": F.Int(),
    "wealth_at_last_kingdoms": F.Int(0, 8), "alive": F.Bool(),
    "headquarters_lost": F.Bool(),  # its headquarters Base was destroyed (it is not rebuilt)
}, required=("id", "force", "cunning", "wealth", "headquarters"))

PHASES = ("faction-start", "faction-end", "start-effects", "abilities", "action", "attack",
          "defend", "move", "repair", "expand-where", "expand-hp", "rival-attack", "create", "hide",
          "sell", "goal", "raise", "react")
DECISION = F.Tuple(F.Choice(PHASES, "phase"), F.Maybe(F.Ref("faction")), shape="[phase, faction]")

#: ``in_progress.ctx``: the acting faction's turn so far (see ``turn.py`` and ``flow.py``)
CTX = F.Record("turn context", {
    "used": F.ListOf(ASSET_ID, "abilities used"), "done": F.ListOf(ASSET_ID, "assets"),
    "start_effects": F.ListOf(ASSET_ID, "assets"), "paralysed": F.Bool(), "attacked": F.Bool(),
    "kind": F.Choice(ACTION_KINDS, "faction action"),
    "expand_resume": F.Choice(("abilities", "goal"), "phase"),
    "pending": F.Record("pending attack", {"attacker": F.Ref("asset"), "target": F.Ref("faction"),
                                         "resume": DECISION},
                      required=("attacker", "target", "resume")),
    "fixes": F.MapOf(F.Ref("asset"), F.Int(), "repair"), "healed": F.Bool(),
    "expand": F.Ref("location"), "base": ASSET_ID, "rivals": F.ListOf(F.Ref("faction"), "factions"),
    "rival_done": F.ListOf(ASSET_ID, "assets"), "contested": F.Bool(),
    # this turn's purchase discounts (Merchant Prince, Usurers: ability/wealth.py)
    "usurers": F.ListOf(ASSET_ID, "assets"),
    "prince_discounts": F.ListOf(F.Record("discount", {
        "source": ASSET_ID, "faction": F.Ref("faction"), "location": F.Ref("location"),
        "amount": F.Int(0)}, required=("source", "faction", "location", "amount")), "discounts"),
    "resume": F.ListOf(DECISION, "decisions", hi=50),
    "ask": F.Record("question", {
        "actor": F.Ref("faction"), "options": F.ListOf(F.Text(empty=False), "actions", lo=1, hi=500),
        "then": F.Text(empty=False), "args": F.Check(lambda ck, v, p: ck.mapping(v, p, "step")),
        "back": DECISION,
    }, required=("actor", "options", "then", "args", "back")),
})

IN_PROGRESS = F.Record("turn-in-progress", {
    "phase": F.Choice(PHASES, "phase"), "actor": F.Maybe(F.Ref("faction")),
    "order": F.ListOf(F.Ref("faction"), "factions", lo=1, unique=True),
    "order_index": F.Int(0, MAX_FACTIONS), "initiative": F.MapOf(F.Ref("faction"), F.Int(1, 8), "roll"),
    "ctx": CTX,
}, required=("phase", "actor", "order", "order_index", "initiative", "ctx"))

TOP = F.Record("campaign", {
    **F.common_fields("wwn"),
    "locations": F.ListOf(LOCATION, "locations", lo=1, hi=MAX_LOCATIONS),
    "relations": F.ListOf(RELATION, "relations"),
    "factions": F.ListOf(FACTION, "factions", lo=1, hi=MAX_FACTIONS),
    "next_asset": F.Int(1),
    "in_progress": F.Later(),  # after the factions: see _in_progress
    #: campaign-defined asset types, checked first (see homebrew.check_asset_types)
    homebrew.BLOCK: F.Later(),
    #: campaign-defined tags and goals (see homebrew_tags, homebrew_goals)
    homebrew_tags.BLOCK: F.Later(), homebrew_goals.BLOCK: F.Later(),
    #: Useful Idiots' bookkeeping (the engine writes it): faction -> turn of its last sacrifice
    "useful_idiots_sacrificed": F.MapOf(F.Ref("faction"), TURN, "faction"),
    house_rules.BLOCK: F.Later(),  # needs max_turns: see validate
    #: in-game dates (docs/campaign-format.md), kept as written
    "calendar": F.Check(lambda ck, v, p: check_calendar(v, ck, p) or v),
    #: written by 'factionsim foundry import' (docs/foundry.md); its reader checks its content
    "foundry": F.Record("foundry block", {"actors": F.ListOf(
        F.Check(lambda ck, v, p: ck.mapping(v, p, "imported actor")), "imported actors")}),
}, required=("ruleset", "locations", "factions"))


def validate(data: Mapping[str, Any], source: str, lines: Mapping[Any, int] | None = None
             ) -> dict[str, Any]:
    """Check a WWN campaign and return the normalized dict that ``WwnState.from_dict`` accepts.

    ``source`` names the file in messages; ``lines`` maps field paths (tuples such as
    ``("factions", 1, "force")`` or their text form ``"factions[1].force"``) to line numbers.
    Raises :class:`CampaignError` on the first problem.
    """
    ck = F.Checker(source, lines)
    root = ck.mapping(data, (), "campaign")
    if root.get("ruleset") != "wwn":
        ck.fail(("ruleset",), "this campaign is not for the WWN rules", root.get("ruleset"), "wwn")
    for key in ("locations", "factions"):
        if key not in root:
            ck.fail((), f"missing required field {key!r} (a non-empty list)")
        ck.listof(root[key], (key,), f"{key}", 1)
    ck.ids(root["locations"], ("locations",), "location", hi=MAX_LOCATIONS)
    ck.ids(root["factions"], ("factions",), "faction", hi=MAX_FACTIONS)
    ck.known["asset"] = ck.nested_ids(root["factions"], ("factions",), "assets", "asset", F.Int(1),
                                      lambda ad, n: f"{ad.get('type')}#{n}")
    rows = root.get(homebrew.BLOCK)
    rows = [] if rows is None else homebrew.check_asset_types(ck, rows)
    types = {**ASSET_TYPES, **homebrew.asset_types(rows)}
    ck.known["asset type"] = list(types)
    ck.known["homebrew"] = [r["id"] for r in rows]
    for block, check, kind, standard in (
            (homebrew_tags.BLOCK, homebrew_tags.check_tag_types, "tag", TAGS),
            (homebrew_goals.BLOCK, lambda ck, r: homebrew_goals.check_goal_types(
                ck, r, list(types), GOALS), "goal", GOALS)):
        own = [] if root.get(block) is None else check(ck, root[block])
        ck.known[kind] = [*standard, *(r["id"] for r in own)]
    out = ck.run(TOP, root, ())
    if house_rules.BLOCK in out:
        out[house_rules.BLOCK] = house_rules.validate(out[house_rules.BLOCK], ck,
                                                      out.get("max_turns"))
    for i, loc in enumerate(out["locations"]):
        _location(ck, loc, ("locations", i))
    out["relations"] = _relations(ck, out.get("relations", []))
    out["factions"] = [_faction(ck, f, ("factions", i), types)
                       for i, f in enumerate(out["factions"])]
    if "in_progress" in out:
        out["in_progress"] = _in_progress(ck, out["in_progress"])
    return out


# ---------------------------------------------------------------------- rules across fields
def _location(ck: F.Checker, loc: dict[str, Any], path: Path) -> None:
    loc.setdefault("name", loc["id"])
    loc.setdefault("neighbors", [])
    for j, n in enumerate(loc["neighbors"]):
        if n == loc["id"]:
            ck.fail((*path, "neighbors", j), "a location cannot neighbour itself", n)


def _relations(ck: F.Checker, rels: list[list[str]]) -> list[list[str]]:
    seen: dict[frozenset[str], int] = {}
    for i, (a, b, _) in enumerate(rels):
        if a == b:
            ck.fail(("relations", i), "a relation needs two different factions", rels[i])
        pair = frozenset((a, b))
        if pair in seen:
            ck.fail(("relations", i), f"the pair {a}/{b} is already given at "
                    f"relations[{seen[pair]}]", rels[i], "one relation per pair of factions")
        seen[pair] = i
    return rels


def _faction(ck: F.Checker, fd: dict[str, Any], path: Path,
             types: Mapping[str, AssetType]) -> dict[str, Any]:
    ck.agent_fields(fd, path)
    ratings = {a: fd[a] for a in ATTRIBUTES}
    max_hp = max_faction_hp(ratings["force"], ratings["wealth"], ratings["cunning"])
    if "hp" in fd:
        ck.integer(fd["hp"], (*path, "hp"), 0, max_hp)
    fd["tags"] = fd.get("tags", [])
    for j, tag in enumerate(fd["tags"]):
        attr = TAG_HIGHEST.get(tag)
        if attr and ratings[attr] < max(ratings.values()):
            top = max(ratings, key=lambda a: ratings[a])
            ck.fail((*path, "tags", j), f"a {tag.capitalize()} faction's {attr.capitalize()} must "
                    f"be its highest attribute, but {top} {ratings[top]} > {attr} {ratings[attr]}",
                    tag, f"raise {attr} to at least {ratings[top]} or drop the tag")
    if "goal" in fd:
        _goal(ck, fd["goal"], (*path, "goal"))
    bases: dict[str, int] = {}
    # a faction whose headquarters Base is gone: a Base there is an ordinary one
    hq = None if fd.get("headquarters_lost") else fd["headquarters"]
    fd["assets"] = [_asset(ck, ad, (*path, "assets", j), hq, max_hp, bases, types)
                    for j, ad in enumerate(fd.get("assets", []))]
    return fd


def _goal(ck: F.Checker, goal: str | dict[str, Any], path: Path) -> None:
    """A goal the engine can set up: Sphere Dominance names an attribute, Root Out the Enemy a
    ``faction@location``; a goal saved in progress (``needed`` > 0) is taken as written."""
    gid, target = (goal, "") if isinstance(goal, str) else (goal["id"], goal.get("target", ""))
    needed = 0 if isinstance(goal, str) else goal.get("needed", 0)
    at = path if isinstance(goal, str) else (*path, "target")
    if gid == "sphere-dominance" and (needed == 0 or target):
        ck.choice(target, at, ATTRIBUTES, "attribute (the sphere's target)")
    if gid == "root-out-the-enemy" and (needed == 0 or target):
        faction, _, location = str(target).partition("@")
        if not faction or not location:
            ck.fail(at, "Root Out the Enemy needs a target 'faction@location'", target,
                    "e.g. {id: root-out-the-enemy, target: silver-guild@vell}")
        ck.ref(faction, at, "faction")
        ck.ref(location, at, "location")


def _asset(ck: F.Checker, ad: dict[str, Any], path: Path, hq: str | None, faction_max_hp: int,
           bases: dict[str, int], types: Mapping[str, AssetType]) -> dict[str, Any]:
    kind, location = ad["type"], ad["location"]
    if kind == BASE_OF_INFLUENCE:
        if location in bases:
            ck.fail((*path, "location"), "this faction already has a base-of-influence here "
                    f"(assets[{bases[location]}])", location,
                    "at most one base per faction per location")
        bases[location] = int(path[-1])
        if location == hq:  # the engine sets the headquarters base's max HP to the faction's
            top = faction_max_hp
        else:
            if "hp" not in ad and "max_hp" not in ad:
                ck.fail(path, "a base-of-influence away from the headquarters needs 'hp' or "
                        "'max_hp'", allowed=f"a whole number from 1 to {faction_max_hp} (the "
                        "faction's max HP)")
            key = "max_hp" if "max_hp" in ad else "hp"
            top = ck.integer(ad[key], (*path, key), 1, faction_max_hp)
        ad["max_hp"] = top
    else:
        if "max_hp" in ad:
            ck.fail((*path, "max_hp"), f"only a {BASE_OF_INFLUENCE} takes max_hp; {kind} always "
                    f"has max HP {types[kind].hp}", ad["max_hp"])
        top = types[kind].hp
    if "hp" in ad:
        ck.integer(ad["hp"], (*path, "hp"), 1, top)
    return ad


def _in_progress(ck: F.Checker, ip: Any) -> dict[str, Any]:
    """The turn saved mid-way: its structure (``IN_PROGRESS``) and the order it plays in."""
    path: Path = ("in_progress",)
    if not isinstance(ip, dict) or any(k not in ip for k in IN_PROGRESS.required):
        ck.mapping(ip, path, "turn-in-progress")
        missing = [k for k in IN_PROGRESS.required if k not in ip]
        ck.fail(path, f"missing field {missing[0]!r} (this block is written by the engine; "
                "delete it to restart the turn)", allowed=", ".join(IN_PROGRESS.required))
    out = ck.run(IN_PROGRESS, ip, path)
    if out["order_index"] >= len(out["order"]):
        ck.fail((*path, "order_index"), f"points past the turn order ({len(out['order'])} "
                "factions)", out["order_index"], f"from 0 to {len(out['order']) - 1}")
    return out
