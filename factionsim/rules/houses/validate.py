"""Checks a Great Houses scenario (plain data read from YAML) and normalizes it for
``HousesState.from_dict``.

:func:`validate` stops at the first problem and raises :class:`CampaignError` with one paragraph
naming the file, the line (when known), the field path (``houses[1].skills.might``), the bad value
and what is allowed. The format is documented in ``docs/ruleset-houses.md``.

>>> h = {"id": "aldren", "distinctions": [{"name": "Old Blood"}]}
>>> validate({"ruleset": "houses", "houses": [h, {**h, "id": "veyra"}]}, "x.yaml")["turn"]
0
>>> validate({"ruleset": "houses", "houses": [{**h, "stress": 5}]}, "x.yaml", {})
Traceback (most recent call last):
...
factionsim.core.game.CampaignError: x.yaml, houses[0].stress: must be 0 (none) or a die size \
(got 5); allowed: 0, 4, 6, 8, 10, 12.
"""

from __future__ import annotations

import copy
import difflib
import re
from collections.abc import Mapping
from typing import Any, NoReturn

from factionsim.core.campaign import FieldChecker
from factionsim.core.game import CampaignError

from .dice import SIZES
from .model import ASSET_KINDS, ATTRIBUTES, DEFAULT_RULES, DURATIONS, SFX, SKILLS

TOP_KEYS = ("ruleset", "name", "seed", "turn", "max_turns", "rules", "houses", "next_asset",
            "in_progress", "rng")
HOUSE_KEYS = ("id", "name", "agent", "agent_options", "alive", "distinctions", "attributes",
              "skills", "skills_full", "stress", "trauma", "complications", "plot_points",
              "advances", "sfx", "assets")
ASSET_KEYS = ("id", "name", "kind", "die", "full", "duration", "created")
COMPLICATION_KEYS = ("from", "die", "lasting")
DISTINCTION_KEYS = ("name", "die")
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
ASSET_ID = re.compile(r"^[a-z0-9][a-z0-9-]*#[0-9]+$")

Path = tuple[str | int, ...]


def validate(data: Mapping[str, Any], source: str, lines: Mapping[Any, int] | None = None
             ) -> dict[str, Any]:
    """Check a scenario and return the normalized dict ``HousesState.from_dict`` accepts."""
    return _V(source, lines or {}).scenario(data)


class _V(FieldChecker):
    def fail(self, path: Path, problem: str, value: Any = ..., allowed: str | None = None) -> NoReturn:
        msg = f"{self.where(path)}: {problem}"
        if value is not ...:
            msg += f" (got {value!r})"
        if allowed:
            msg += f"; allowed: {allowed}"
        raise CampaignError(msg + ".")

    def keys(self, d: Any, path: Path, known: tuple[str, ...], what: str,
             required: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(d, dict):
            self.fail(path, f"must be a mapping of {what} fields", d)
        for key in d:
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
                hint = f"did you mean {close[0]!r}? " if close else ""
                self.fail((*path, key), f"unknown {what} field {key!r}; {hint}known fields: "
                          + ", ".join(known))
        for key in required:
            if key not in d:
                self.fail(path, f"missing required {what} field {key!r}")
        return d

    def integer(self, v: Any, path: Path, lo: int = 0, hi: int | None = None) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
            rng = f"between {lo} and {hi}" if hi is not None else f">= {lo}"
            self.fail(path, f"must be a whole number {rng}", v)
        return v

    def die(self, v: Any, path: Path, lo: int = 4, none_ok: bool = False) -> int:
        ok = [s for s in SIZES if s >= lo]
        if none_ok and v == 0:
            return 0
        if isinstance(v, str) and re.fullmatch(r"d\d+", v):
            v = int(v[1:])
        if isinstance(v, bool) or v not in ok:
            what = "0 (none) or a die size" if none_ok else "a die size"
            self.fail(path, f"must be {what}", v,
                      ", ".join(map(str, ([0] if none_ok else []) + ok)))
        return int(v)

    def text(self, v: Any, path: Path) -> str:
        if not isinstance(v, str) or not v.strip():
            self.fail(path, "must be non-empty text", v)
        return v

    def choice(self, v: Any, path: Path, options: tuple[str, ...] | list[str], what: str) -> str:
        if v not in options:
            close = difflib.get_close_matches(str(v), list(options), n=2, cutoff=0.6)
            hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
            self.fail(path, f"unknown {what} {v!r}{hint}", allowed=", ".join(options))
        return v

    # ------------------------------------------------------------------ the scenario
    def scenario(self, data: Mapping[str, Any]) -> dict[str, Any]:
        d = copy.deepcopy(dict(self.keys(data, (), TOP_KEYS, "scenario", ("houses",))))
        if d.get("ruleset") != "houses":
            self.fail(("ruleset",), "must be 'houses' for this ruleset", d.get("ruleset"))
        d["name"] = str(d.get("name") or "")
        if d.get("seed") is not None:
            self.integer(d["seed"], ("seed",))
        d["turn"] = self.integer(d.get("turn", 0), ("turn",))
        if d.get("max_turns") is not None:
            self.integer(d["max_turns"], ("max_turns",), 1)
        d["rules"] = self.rules(d.get("rules") or {})
        houses = d["houses"]
        if not isinstance(houses, list) or not houses:
            self.fail(("houses",), "must be a non-empty list of Houses", houses)
        seen_houses: set[str] = set()
        seen_assets: set[str] = set()
        for i, h in enumerate(houses):
            houses[i] = self.house(h, ("houses", i), seen_houses, seen_assets, d["rules"])
        ids = [h["id"] for h in houses]
        for i, h in enumerate(houses):
            for j, c in enumerate(h.get("complications", [])):
                if c["from"] not in ids and c["from"] != "hitch":
                    self.choice(c["from"], ("houses", i, "complications", j, "from"),
                                [*ids, "hitch"], "complication source")
        if "next_asset" in d:
            self.integer(d["next_asset"], ("next_asset",), 1)
        if "in_progress" in d and not isinstance(d["in_progress"], dict):
            self.fail(("in_progress",), "must be a mapping (written by factionsim)")
        return d

    def rules(self, r: Any) -> dict[str, Any]:
        self.keys(r, ("rules",), tuple(DEFAULT_RULES), "rules")
        for key in ("actions_per_season", "plot_points_per_season", "plot_point_cap",
                    "advances_per_season"):
            if key in r:
                self.integer(r[key], ("rules", key), 0, 20)
        if r.get("max_committed_assets") is not None:  # null: no limit
            self.integer(r["max_committed_assets"], ("rules", "max_committed_assets"), 0, 20)
        if "create_asset_opposed" in r and not isinstance(r["create_asset_opposed"], bool):
            self.fail(("rules", "create_asset_opposed"), "must be true or false",
                      r["create_asset_opposed"])
        if "actions_per_season" in r:
            self.integer(r["actions_per_season"], ("rules", "actions_per_season"), 1, 20)
        if "seize_at" in r:
            r["seize_at"] = self.die(r["seize_at"], ("rules", "seize_at"), 6)
        if "difficulty" in r:
            diff = r["difficulty"]
            if not isinstance(diff, list) or not diff:
                self.fail(("rules", "difficulty"), "must be a list of die sizes such as [8, 8]",
                          diff)
            r["difficulty"] = [self.die(x, ("rules", "difficulty", i)) for i, x in enumerate(diff)]
        if "created_asset_names" in r:
            names = r["created_asset_names"]
            if not isinstance(names, list) or not names:
                self.fail(("rules", "created_asset_names"), "must be a non-empty list of names")
            for i, n in enumerate(names):
                self.text(n, ("rules", "created_asset_names", i))
        return r

    def house(self, h: Any, path: Path, seen: set[str], seen_assets: set[str],
              rules: dict[str, Any]) -> dict[str, Any]:
        self.keys(h, path, HOUSE_KEYS, "house", ("id",))
        hid = h["id"]
        if not isinstance(hid, str) or not SLUG.match(hid):
            self.fail((*path, "id"), "invalid id", hid, "a slug of lowercase letters, digits, '-'")
        if hid in seen or hid == "hitch":
            self.fail((*path, "id"), "House id used twice (or reserved)", hid)
        seen.add(hid)
        h.setdefault("name", hid)
        self.text(h["name"], (*path, "name"))
        if not isinstance(h.get("agent", "random"), str):
            self.fail((*path, "agent"), "must be an agent name such as random or heuristic")
        if not isinstance(h.get("agent_options", {}), dict):
            self.fail((*path, "agent_options"), "must be a mapping")
        if not isinstance(h.get("alive", True), bool):
            self.fail((*path, "alive"), "must be true or false", h["alive"])
        dist = h.setdefault("distinctions", [{"name": h["name"], "die": 8}])
        if not isinstance(dist, list) or not 1 <= len(dist) <= 5:
            self.fail((*path, "distinctions"), "must be a list of 1 to 5 Distinctions "
                      "({name: ..., die: 8})", dist)
        names = set()
        for i, x in enumerate(dist):
            p = (*path, "distinctions", i)
            if isinstance(x, str):
                x = dist[i] = {"name": x}
            self.keys(x, p, DISTINCTION_KEYS, "distinction", ("name",))
            self.text(x["name"], (*p, "name"))
            key = re.sub(r"[^a-z0-9]+", "-", x["name"].lower()).strip("-")
            if key in names:
                self.fail((*p, "name"), "two Distinctions with the same name", x["name"])
            names.add(key)
            x["die"] = self.die(x.get("die", 8), (*p, "die"))
        attrs = self.keys(h.get("attributes", {}), (*path, "attributes"), ATTRIBUTES, "attribute")
        for a, v in attrs.items():
            attrs[a] = self.die(v, (*path, "attributes", a))
        for field in ("skills", "skills_full"):
            skills = self.keys(h.get(field, {}), (*path, field), SKILLS, "skill")
            for s, v in skills.items():
                skills[s] = self.die(v, (*path, field, s))
        for s, full in h.get("skills_full", {}).items():
            if full < h.get("skills", {}).get(s, 4):
                self.fail((*path, "skills_full", s), "the full rating cannot be below the current "
                          "die", full)
        for field in ("stress", "trauma"):
            h[field] = self.die(h.get(field, 0), (*path, field), none_ok=True)
        comps = h.get("complications", [])
        if not isinstance(comps, list):
            self.fail((*path, "complications"), "must be a list", comps)
        sources = set()
        for i, c in enumerate(comps):
            p = (*path, "complications", i)
            self.keys(c, p, COMPLICATION_KEYS, "complication", ("from", "die"))
            c["die"] = self.die(c["die"], (*p, "die"))
            c["lasting"] = bool(c.get("lasting", True))
            if c["from"] in sources:
                self.fail((*p, "from"), "one complication per source", c["from"])
            sources.add(c["from"])
        for field in ("plot_points", "advances"):
            if field in h:
                self.integer(h[field], (*path, field), 0, 99)
        sfx = h.get("sfx", [])
        if not isinstance(sfx, list):
            self.fail((*path, "sfx"), "must be a list", sfx)
        for i, x in enumerate(sfx):
            self.choice(x, (*path, "sfx", i), tuple(SFX), "SFX")
        assets = h.get("assets", [])
        if not isinstance(assets, list):
            self.fail((*path, "assets"), "must be a list of assets", assets)
        for i, a in enumerate(assets):
            p = (*path, "assets", i)
            self.keys(a, p, ASSET_KEYS, "asset", ("name", "die"))
            self.text(a["name"], (*p, "name"))
            if a.get("id") is not None:
                if not isinstance(a["id"], str) or not ASSET_ID.match(a["id"]):
                    self.fail((*p, "id"), "invalid asset id", a["id"], "slug#number, e.g. "
                              "'castle-aldren#1' (or leave it out)")
                if a["id"] in seen_assets:
                    self.fail((*p, "id"), "asset id used twice", a["id"])
                seen_assets.add(a["id"])
            a["kind"] = self.choice(a.get("kind", "asset"), (*p, "kind"), ASSET_KINDS, "asset kind")
            a["die"] = self.die(a["die"], (*p, "die"), 6)
            if "full" in a:
                a["full"] = self.die(a["full"], (*p, "full"), 6)
                if a["full"] < a["die"]:
                    self.fail((*p, "full"), "the full rating cannot be below the current die",
                              a["full"])
            if "duration" in a:
                self.choice(a["duration"], (*p, "duration"), DURATIONS, "duration")
            if a.get("created") is not None:
                self.integer(a["created"], (*p, "created"), 1)
        return h
