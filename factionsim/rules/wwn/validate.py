"""Checks a WWN campaign (plain data read from YAML) and normalizes it for ``WwnState.from_dict``.

:func:`validate` stops at the first problem and raises :class:`CampaignError` with one paragraph
naming the file, the line (when known), the field path (``factions[1].assets[0].type``), the bad
value and what is allowed. The format is documented in ``docs/campaign-format.md``.

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

import copy
import difflib
import re
from collections.abc import Mapping
from typing import Any, NoReturn

from factionsim.core.calendar import check_calendar
from factionsim.core.campaign import FieldChecker, format_path
from factionsim.core.game import CampaignError

from . import house_rules
from .data import (
    ASSET_TYPES,
    ATTRIBUTES,
    BASE_OF_INFLUENCE,
    MAGIC_LEVELS,
    RELATIONS,
    max_faction_hp,
)

TAGS = ("antimagical", "concealed", "imperialist", "innovative", "machiavellian", "martial",
        "massive", "mobile", "populist", "rich")
#: Tags that require an attribute to be the faction's highest (ties allowed).
TAG_HIGHEST = {"machiavellian": "cunning", "martial": "force", "rich": "wealth"}
GOALS = ("blood-the-enemy", "destroy-the-foe", "eliminate-target", "expand-influence",
         "inside-enemy-territory", "invincible-valor", "peaceable-kingdom", "root-out-the-enemy",
         "sphere-dominance", "wealth-of-kingdoms")

LOCATION_KEYS = ("id", "name", "neighbors", "coastal", "ruler")
FACTION_KEYS = ("id", "name", "force", "cunning", "wealth", "magic", "treasure", "hp", "xp", "tags",
                "goal", "agent", "agent_options", "headquarters", "assets", "paralysed",
                "xp_earned", "goals_completed", "wealth_at_last_kingdoms", "alive",
                "headquarters_lost")
ASSET_KEYS = ("id", "type", "location", "hp", "max_hp", "stealth", "exposed", "status")
GOAL_KEYS = ("id", "target", "progress", "needed", "difficulty", "started", "contested",
             "baseline")
IN_PROGRESS_KEYS = ("phase", "actor", "order", "order_index", "initiative", "ctx")

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
SLUG_HINT = "a slug of lowercase letters, digits and '-' (e.g. 'iron-legion')"

Path = tuple[str | int, ...]
_MISSING = object()


def validate(data: Mapping[str, Any], source: str, lines: Mapping[Any, int] | None = None
             ) -> dict[str, Any]:
    """Check a WWN campaign and return the normalized dict that ``WwnState.from_dict`` accepts.

    ``source`` names the file in messages; ``lines`` maps field paths (tuples such as
    ``("factions", 1, "force")`` or their text form ``"factions[1].force"``) to line numbers.
    Raises :class:`CampaignError` on the first problem.
    """
    return _Validator(source, lines or {}).campaign(data)


def _show(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _kind(value: Any) -> str:
    names = {bool: "true/false", int: "a whole number", float: "a decimal number", str: "text",
             list: "a list", dict: "a mapping", type(None): "nothing (null)"}
    return names.get(type(value), type(value).__name__)


def _one_of(options: tuple[str, ...] | list[str]) -> str:
    return "one of " + ", ".join(options)


class _Validator(FieldChecker):
    """The checks, with the file name and line table at hand for messages."""

    # ------------------------------------------------------------------ messages
    def fail(self, path: Path, problem: str, value: Any = _MISSING,
             allowed: str | None = None) -> NoReturn:
        msg = f"{self.where(path)}: {problem}"
        if value is not _MISSING:
            msg += f" (got {_show(value)})"
        if allowed:
            msg += f"; allowed: {allowed}"
        raise CampaignError(msg + ".")

    def fail_choice(self, path: Path, what: str, value: Any, options: tuple[str, ...] | list[str],
                    allowed: str | None = None) -> NoReturn:
        hint = ""
        if isinstance(value, str):
            close = difflib.get_close_matches(value, list(options), n=3, cutoff=0.6)
            if close:
                hint = " (did you mean " + " or ".join(repr(c) for c in close) + "?)"
        raise CampaignError(
            f"{self.where(path)}: unknown {what} {_show(value)}{hint}; "
            f"allowed: {allowed or _one_of(options)}."
        )

    # ------------------------------------------------------------------ typed fields
    def mapping(self, value: Any, path: Path, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(path, f"must be a mapping of {what} fields, not {_kind(value)}", value)
        for key in value:
            if not isinstance(key, str):
                self.fail((*path, key), "field names must be text", key)
        return value

    def keys(self, d: Mapping[str, Any], path: Path, known: tuple[str, ...], what: str,
             required: tuple[str, ...] = ()) -> None:
        for key in d:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
                hint = f"did you mean {close[0]!r}? " if close else ""
                self.fail((*path, key), f"unknown {what} field {key!r}; {hint}known fields: "
                          + ", ".join(known))
        for key in required:
            if key not in d:
                self.fail(path, f"missing required {what} field {key!r}")

    def integer(self, value: Any, path: Path, lo: int | None = None, hi: int | None = None,
                optional: bool = False) -> int | None:
        if value is None and optional:
            return None
        bounds = (f" between {lo} and {hi}" if lo is not None and hi is not None
                  else f" >= {lo}" if lo is not None else "")
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"must be a whole number{bounds}, not {_kind(value)}", value)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.fail(path, f"must be a whole number{bounds}", value)
        return value

    def boolean(self, value: Any, path: Path) -> bool:
        if not isinstance(value, bool):
            self.fail(path, f"must be true or false, not {_kind(value)}", value)
        return value

    def text(self, value: Any, path: Path, allow_empty: bool = True) -> str:
        if not isinstance(value, str):
            self.fail(path, f"must be text, not {_kind(value)} (quote it if needed)", value)
        if not allow_empty and not value.strip():
            self.fail(path, "must not be empty", value)
        return value

    def slug(self, value: Any, path: Path) -> str:
        if not isinstance(value, str) or not SLUG.match(value):
            self.fail(path, "invalid id", value, SLUG_HINT)
        return value

    def str_list(self, value: Any, path: Path) -> list[Any]:
        if not isinstance(value, list):
            self.fail(path, f"must be a list, not {_kind(value)}", value)
        seen: set[Any] = set()
        for i, item in enumerate(value):
            if not isinstance(item, str):
                self.fail((*path, i), f"must be text, not {_kind(item)}", item)
            if item in seen:
                self.fail((*path, i), "listed twice", item)
            seen.add(item)
        return list(value)

    def ref(self, value: Any, path: Path, ids: list[str], what: str) -> str:
        if not isinstance(value, str) or value not in ids:
            self.fail_choice(path, what, value, ids)
        return value

    # ------------------------------------------------------------------ the campaign
    def campaign(self, data: Mapping[str, Any]) -> dict[str, Any]:
        root = self.mapping(data, (), "campaign")
        out: dict[str, Any] = copy.deepcopy(dict(root))  # unknown top-level keys pass through
        if root.get("ruleset") != "wwn":
            self.fail(("ruleset",), "this campaign is not for the WWN rules",
                      root.get("ruleset"), "wwn")
        if "name" in root:
            self.text(root["name"], ("name",))
        self.integer(root.get("seed"), ("seed",), optional=True)
        if "turn" in root:
            self.integer(root["turn"], ("turn",), 0)
        self.integer(root.get("max_turns"), ("max_turns",), 1, optional=True)
        if house_rules.BLOCK in root:
            out[house_rules.BLOCK] = house_rules.validate(root[house_rules.BLOCK], self,
                                                          root.get("max_turns"))
        if "next_asset" in root:
            self.integer(root["next_asset"], ("next_asset",), 1)

        for key in ("locations", "factions"):
            if key not in root:
                self.fail((), f"missing required field {key!r} (a non-empty list)")
            if not isinstance(root[key], list) or not root[key]:
                self.fail((key,), "must be a non-empty list", root[key])
        location_ids = self.ids(root["locations"], ("locations",), "location")
        faction_ids = self.ids(root["factions"], ("factions",), "faction")

        out["locations"] = [self.location(loc, ("locations", i), location_ids, faction_ids)
                            for i, loc in enumerate(root["locations"])]
        out["relations"] = self.relations(root.get("relations", []), faction_ids)
        asset_ids: dict[int, Path] = {}
        out["factions"] = [self.faction(f, ("factions", i), location_ids, asset_ids)
                           for i, f in enumerate(root["factions"])]
        if "in_progress" in root:
            self.in_progress(root["in_progress"], faction_ids)
        if "rng" in root:
            self.rng(root["rng"])
        if "calendar" in root:  # in-game dates (docs/campaign-format.md), kept as written
            check_calendar(root["calendar"], self)
        return out

    def ids(self, items: list[Any], path: Path, what: str) -> list[str]:
        """Check each item is a mapping with a unique slug ``id``; return the ids in order."""
        ids: list[str] = []
        for i, item in enumerate(items):
            item = self.mapping(item, (*path, i), what)
            if "id" not in item:
                self.fail((*path, i), f"missing required {what} field 'id'")
            ident = self.slug(item["id"], (*path, i, "id"))
            if ident in ids:
                self.fail((*path, i, "id"), f"duplicate {what} id (already used by "
                          f"{format_path((*path, ids.index(ident)))})", ident,
                          f"a {what} id not used elsewhere")
            ids.append(ident)
        return ids

    def location(self, loc: dict[str, Any], path: Path, location_ids: list[str],
                 faction_ids: list[str]) -> dict[str, Any]:
        self.keys(loc, path, LOCATION_KEYS, "location")
        out = dict(loc)
        out["name"] = self.text(loc.get("name", loc["id"]), (*path, "name"), allow_empty=False)
        neighbors = self.str_list(loc.get("neighbors", []), (*path, "neighbors"))
        for j, n in enumerate(neighbors):
            if n == loc["id"]:
                self.fail((*path, "neighbors", j), "a location cannot neighbour itself", n)
            self.ref(n, (*path, "neighbors", j), location_ids, "location")
        out["neighbors"] = neighbors
        if "coastal" in loc:
            self.boolean(loc["coastal"], (*path, "coastal"))
        if loc.get("ruler") is not None:
            self.ref(loc["ruler"], (*path, "ruler"), faction_ids, "faction")
        return out

    def relations(self, rels: Any, faction_ids: list[str]) -> list[list[str]]:
        path: Path = ("relations",)
        if rels is None:
            return []
        if not isinstance(rels, list):
            self.fail(path, f"must be a list of [faction, faction, relation], not {_kind(rels)}",
                      rels)
        out: list[list[str]] = []
        seen: dict[frozenset[str], int] = {}
        for i, rel in enumerate(rels):
            if not isinstance(rel, list) or len(rel) != 3:
                self.fail((*path, i), "each relation must be [faction, faction, relation]", rel,
                          "e.g. [iron-legion, silver-guild, allied]")
            a = self.ref(rel[0], (*path, i, 0), faction_ids, "faction")
            b = self.ref(rel[1], (*path, i, 1), faction_ids, "faction")
            if a == b:
                self.fail((*path, i), "a relation needs two different factions", rel)
            if rel[2] not in RELATIONS:
                self.fail_choice((*path, i, 2), "relation", rel[2], RELATIONS)
            pair = frozenset((a, b))
            if pair in seen:
                self.fail((*path, i), f"the pair {a}/{b} is already given at "
                          f"relations[{seen[pair]}]", rel, "one relation per pair of factions")
            seen[pair] = i
            out.append([a, b, rel[2]])
        return out

    # ------------------------------------------------------------------ factions
    def faction(self, fd: dict[str, Any], path: Path, location_ids: list[str],
                asset_ids: dict[int, Path]) -> dict[str, Any]:
        self.keys(fd, path, FACTION_KEYS, "faction",
                  required=("force", "cunning", "wealth", "headquarters"))
        out = dict(fd)
        if "name" in fd:
            self.text(fd["name"], (*path, "name"), allow_empty=False)
        ratings = {a: self.integer(fd[a], (*path, a), 1, 8) for a in ATTRIBUTES}
        max_hp = max_faction_hp(ratings["force"], ratings["wealth"], ratings["cunning"])
        if "magic" in fd and fd["magic"] not in MAGIC_LEVELS:
            self.fail_choice((*path, "magic"), "magic level", fd["magic"], MAGIC_LEVELS)
        if "treasure" in fd:
            self.integer(fd["treasure"], (*path, "treasure"), 0)
        if fd.get("hp") is not None:
            self.integer(fd["hp"], (*path, "hp"), 0, max_hp)
        for key in ("xp", "xp_earned", "goals_completed", "wealth_at_last_kingdoms"):
            if key in fd:
                self.integer(fd[key], (*path, key), 0)
        for key in ("paralysed", "alive", "headquarters_lost"):
            if key in fd:
                self.boolean(fd[key], (*path, key))
        tags = self.str_list(fd.get("tags", []), (*path, "tags"))
        for j, tag in enumerate(tags):
            if tag not in TAGS:
                self.fail_choice((*path, "tags", j), "tag", tag, TAGS)
            attr = TAG_HIGHEST.get(tag)
            if attr and ratings[attr] < max(ratings.values()):
                top = max(ratings, key=lambda a: ratings[a])
                self.fail((*path, "tags", j),
                          f"a {tag.capitalize()} faction's {attr.capitalize()} must be its highest "
                          f"attribute, but {top} {ratings[top]} > {attr} {ratings[attr]}", tag,
                          f"raise {attr} to at least {ratings[top]} or drop the tag")
        out["tags"] = tags
        if fd.get("goal") is not None:
            out["goal"] = self.goal(fd["goal"], (*path, "goal"))
        # agent and agent_options: checked against the agents WWN offers when the campaign loads
        if "agent_options" in fd:
            self.mapping(fd["agent_options"], (*path, "agent_options"), "agent option")
        hq = self.ref(fd["headquarters"], (*path, "headquarters"), location_ids, "location")
        if fd.get("headquarters_lost"):
            hq = None  # its headquarters Base is gone: a Base there is an ordinary one
        assets = fd.get("assets", [])
        if assets is None:
            assets = []
        if not isinstance(assets, list):
            self.fail((*path, "assets"), f"must be a list of assets, not {_kind(assets)}", assets)
        bases: dict[str, int] = {}
        out["assets"] = [
            self.asset(ad, (*path, "assets", j), location_ids, asset_ids, hq, max_hp, bases)
            for j, ad in enumerate(assets)
        ]
        return out

    def goal(self, goal: Any, path: Path) -> str | dict[str, Any]:
        if isinstance(goal, str):
            if goal not in GOALS:
                self.fail_choice(path, "goal", goal, GOALS)
            return goal
        if not isinstance(goal, dict):
            self.fail(path, f"must be a goal id or a goal mapping, not {_kind(goal)}", goal,
                      _one_of(GOALS))
        self.mapping(goal, path, "goal")
        self.keys(goal, path, GOAL_KEYS, "goal", required=("id",))
        if goal["id"] not in GOALS:
            self.fail_choice((*path, "id"), "goal", goal["id"], GOALS)
        if "target" in goal:
            self.text(goal["target"], (*path, "target"))
        for key in ("progress", "needed", "started"):
            if key in goal:
                self.integer(goal[key], (*path, key), 0)
        self.integer(goal.get("difficulty"), (*path, "difficulty"), 0, optional=True)
        if "contested" in goal:
            self.boolean(goal["contested"], (*path, "contested"))
        baseline = goal.get("baseline", [])
        if not isinstance(baseline, list) or not all(isinstance(x, str) for x in baseline):
            self.fail((*path, "baseline"), "must be a list of text", baseline)
        return dict(goal)

    def asset(self, ad: Any, path: Path, location_ids: list[str], asset_ids: dict[int, Path],
              hq: str | None, faction_max_hp: int, bases: dict[str, int]) -> dict[str, Any]:
        ad = self.mapping(ad, path, "asset")
        self.keys(ad, path, ASSET_KEYS, "asset", required=("type", "location"))
        out = dict(ad)
        kind = ad["type"]
        if not isinstance(kind, str) or kind not in ASSET_TYPES:
            self.fail_choice((*path, "type"), "asset type", kind, list(ASSET_TYPES),
                             f"one of the {len(ASSET_TYPES) - 1} asset ids (see docs/assets.md) "
                             f"or {BASE_OF_INFLUENCE}")
        location = self.ref(ad["location"], (*path, "location"), location_ids, "location")
        if ad.get("id") is not None:
            n = self.integer(ad["id"], (*path, "id"), 1)
            if n in asset_ids:
                self.fail((*path, "id"), f"duplicate asset id (already used by "
                          f"{format_path(asset_ids[n])})", n, "an asset id not used elsewhere")
            asset_ids[n] = path
        for key in ("stealth", "exposed"):
            if key in ad:
                self.boolean(ad[key], (*path, key))
        if "status" in ad:
            self.mapping(ad["status"], (*path, "status"), "status")
        if kind == BASE_OF_INFLUENCE:
            if location in bases:
                self.fail((*path, "location"), "this faction already has a base-of-influence "
                          f"here (assets[{bases[location]}])", location,
                          "at most one base per faction per location")
            bases[location] = path[-1]  # type: ignore[assignment]
            if location == hq:
                # The engine sets the headquarters base's max HP to the faction's max HP.
                top = faction_max_hp
                if "max_hp" in ad:
                    self.integer(ad["max_hp"], (*path, "max_hp"), 1)
                out["max_hp"] = top
            else:
                if "hp" not in ad and "max_hp" not in ad:
                    self.fail(path, "a base-of-influence away from the headquarters needs 'hp' "
                              "or 'max_hp'", allowed=f"a whole number from 1 to {faction_max_hp} "
                              "(the faction's max HP)")
                top = self.integer(ad.get("max_hp", ad.get("hp")),
                                   (*path, "max_hp" if "max_hp" in ad else "hp"), 1, faction_max_hp)
                out["max_hp"] = top
        else:
            if "max_hp" in ad:
                self.fail((*path, "max_hp"), f"only a {BASE_OF_INFLUENCE} takes max_hp; "
                          f"{kind} always has max HP {ASSET_TYPES[kind].hp}", ad["max_hp"])
            top = ASSET_TYPES[kind].hp
        if "hp" in ad:
            self.integer(ad["hp"], (*path, "hp"), 1, top)
        return out

    # ------------------------------------------------------------------ engine-written fields
    def in_progress(self, ip: Any, faction_ids: list[str]) -> None:
        path: Path = ("in_progress",)
        ip = self.mapping(ip, path, "turn-in-progress")
        for key in IN_PROGRESS_KEYS:
            if key not in ip:
                self.fail(path, f"missing field {key!r} (this block is written by the engine; "
                          "delete it to restart the turn)", allowed=", ".join(IN_PROGRESS_KEYS))
        if ip["actor"] is not None:
            self.ref(ip["actor"], (*path, "actor"), faction_ids, "faction")
        if not isinstance(ip["order"], list):
            self.fail((*path, "order"), "must be a list of faction ids", ip["order"])
        for i, f in enumerate(ip["order"]):
            self.ref(f, (*path, "order", i), faction_ids, "faction")
        self.integer(ip["order_index"], (*path, "order_index"), 0)
        self.mapping(ip["initiative"], (*path, "initiative"), "initiative")
        self.mapping(ip["ctx"], (*path, "ctx"), "turn context")

    def rng(self, rng: Any) -> None:
        path: Path = ("rng",)
        rng = self.mapping(rng, path, "random generator")
        if rng.get("bit_generator") != "PCG64":
            self.fail((*path, "bit_generator"), "unsupported random generator",
                      rng.get("bit_generator"), "PCG64 (or delete 'rng' to reseed from 'seed')")
        state = rng.get("state")
        if not isinstance(state, dict) or not all(
                isinstance(state.get(k), int) and not isinstance(state.get(k), bool)
                for k in ("state", "inc")):
            self.fail((*path, "state"), "must be a mapping with whole numbers 'state' and 'inc'",
                      state, "the engine's saved value, or delete 'rng' to reseed from 'seed'")
