"""Checks a conflict scenario (plain data read from YAML) and normalizes it for
``ConflictState.from_dict``. The format is documented in ``docs/ruleset-conflict.md``.

Every problem raises :class:`CampaignError`: one paragraph naming the file, the line, the field
path, the bad value and what is allowed.

>>> hero = {"id": "ash", "skills": {"weaponry": 2}}
>>> foe = {"id": "brute", "position": 4}
>>> data = {"ruleset": "conflict", "sides": [{"id": "heroes", "heroes": True, "characters": [hero]},
...                                           {"id": "legion", "characters": [foe]}]}
>>> validate(data, "s.yaml", {})["sides"][0]["characters"][0]["skills"]
{'weaponry': 2}
>>> validate({**data, "max_turns": 0}, "s.yaml", {("max_turns",): 3})
Traceback (most recent call last):
...
factionsim.core.game.CampaignError: s.yaml, line 3, max_turns: must be a whole number >= 1 (got 0).
"""

from __future__ import annotations

import copy
import difflib
import re
from collections.abc import Mapping
from typing import Any, NoReturn

from factionsim.core.campaign import FieldChecker
from factionsim.core.dice import Dice, DiceError
from factionsim.core.game import CampaignError

from .model import APPROACHES, CATEGORIES, DEFAULT_SETTINGS, SKILLS, STATUSES

TOP_KEYS = ("ruleset", "name", "seed", "turn", "max_turns", "settings", "objective", "item",
            "sides", "bonds", "advantages", "next_advantage", "result", "in_progress", "rng")
SIDE_KEYS = ("id", "name", "heroes", "surprised", "agent", "agent_options", "characters")
CHAR_KEYS = ("id", "name", "position", "approaches", "approach_max", "skills", "blood", "max_blood",
             "guts", "max_guts", "items", "reach", "spells", "tricks", "vulnerable", "status", "round")
ITEM_KEYS = ("weapon", "armor", "talisman", "ward")
SPELL_KEYS = ("id", "name", "effect", "pool", "power", "range", "uses")
SPELL_EFFECTS = ("harm", "heal", "advantage")
POOLS = ("blood", "guts")
OBJECTIVES = ("none", "survive", "carry", "ritual")
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
SLUG_HINT = "a slug of lowercase letters, digits and '-' (e.g. 'iron-legion')"

Path = tuple[str | int, ...]


class _Checker(FieldChecker):
    def fail(self, path: Path, message: str) -> NoReturn:
        raise CampaignError(f"{self.where(path)}: {message}")

    def mapping(self, value: Any, path: Path, keys: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(path, f"must be a mapping with fields {', '.join(keys)} (got {value!r}).")
        for k in value:
            if k not in keys:
                close = difflib.get_close_matches(str(k), keys, 1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                self.fail((*path, k), f"unknown field {k!r}{hint}; allowed: {', '.join(keys)}.")
        return value

    def int_(self, value: Any, path: Path, lo: int | None = None, hi: int | None = None) -> int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        if not ok or (lo is not None and value < lo) or (hi is not None and value > hi):
            rng = (f">= {lo}" if hi is None else f"from {lo} to {hi}") if lo is not None else ""
            self.fail(path, f"must be a whole number {rng} (got {value!r}).".replace("  ", " "))
        return int(value)

    def slug(self, value: Any, path: Path) -> str:
        if not isinstance(value, str) or not SLUG.match(value):
            self.fail(path, f"must be {SLUG_HINT} (got {value!r}).")
        return value

    def choice(self, value: Any, path: Path, allowed: tuple[str, ...]) -> str:
        if value not in allowed:
            self.fail(path, f"unknown value {value!r}; allowed: {', '.join(allowed)}.")
        return value

    def pool(self, value: Any, path: Path) -> int | str:
        if isinstance(value, str):
            try:
                Dice.parse(value)
            except DiceError:
                self.fail(path, f"must be a number or dice such as '2d6+1' (got {value!r}).")
            return value
        return self.int_(value, path, 0)


def validate(data: dict[str, Any], source: str = "<scenario>",
             lines: Mapping[Path, int] | None = None) -> dict[str, Any]:
    """Check ``data``; return a normalized deep copy for ``ConflictState.from_dict``."""
    ck = _Checker(source, lines or {})
    d = copy.deepcopy(data)
    ck.mapping(d, (), TOP_KEYS)
    if "turn" in d:
        ck.int_(d["turn"], ("turn",), 0)
    if d.get("max_turns") is not None:
        ck.int_(d["max_turns"], ("max_turns",), 1)
    settings = d.get("settings") or {}
    ck.mapping(settings, ("settings",), tuple(DEFAULT_SETTINGS))
    for k, v in settings.items():
        if isinstance(DEFAULT_SETTINGS[k], float):
            if not isinstance(v, int | float) or isinstance(v, bool) or not 0 <= v <= 1:
                ck.fail(("settings", k), f"must be a number from 0 to 1 (got {v!r}).")
        elif k in ("unarmed",):
            ck.int_(v, ("settings", k), -6, 0)
        else:
            ck.int_(v, ("settings", k), 0 if k != "length" else 2)
    length = settings.get("length", DEFAULT_SETTINGS["length"])
    sides = d.get("sides")
    if not isinstance(sides, list) or len(sides) < 2:
        ck.fail(("sides",), "must be a list of at least two sides (factions), each with "
                "characters.")
    side_ids: list[str] = []
    char_ids: dict[str, str] = {}
    for i, sd in enumerate(sides):
        p: Path = ("sides", i)
        ck.mapping(sd, p, SIDE_KEYS)
        if "id" not in sd:
            ck.fail(p, "missing field 'id' (" + SLUG_HINT + ").")
        sid = ck.slug(sd["id"], (*p, "id"))
        if sid in side_ids:
            ck.fail((*p, "id"), f"duplicate side id {sid!r}.")
        side_ids.append(sid)
        for flag in ("heroes", "surprised"):
            if flag in sd and not isinstance(sd[flag], bool):
                ck.fail((*p, flag), f"must be true or false (got {sd[flag]!r}).")
        if "agent" in sd and not isinstance(sd["agent"], str):
            ck.fail((*p, "agent"), "must be an agent name such as 'random' or 'heuristic'.")
        chars = sd.get("characters")
        if not isinstance(chars, list) or not chars:
            ck.fail((*p, "characters"), "must be a non-empty list of characters.")
        for j, cd in enumerate(chars):
            _character(ck, cd, (*p, "characters", j), length)
            if cd["id"] in char_ids:
                ck.fail((*p, "characters", j, "id"), f"duplicate character id {cd['id']!r} "
                        "(character ids are unique across sides).")
            char_ids[cd["id"]] = sid
    for i, bond in enumerate(d.get("bonds") or []):
        p = ("bonds", i)
        if not (isinstance(bond, list) and len(bond) == 3):
            ck.fail(p, "must be [character, character, minor levels] (3 minor = 1 major).")
        a, b, n = bond
        for x in (a, b):
            if x not in char_ids:
                ck.fail(p, f"unknown character {x!r}; known: {', '.join(char_ids)}.")
        if a == b or char_ids[a] != char_ids[b]:
            ck.fail(p, "a Bond joins two different characters of the same side.")
        ck.int_(n, p, 0)
    obj = d.get("objective")
    if obj is not None:
        ck.mapping(obj, ("objective",), ("type", "side", "rounds", "to", "direction", "needed",
                                          "at", "skill", "progress"))
        kind = ck.choice(obj.get("type"), ("objective", "type"), OBJECTIVES)
        if kind == "none":
            d.pop("objective")
        else:
            ck.choice(obj.get("side"), ("objective", "side"), tuple(side_ids))
            if kind == "survive":
                ck.int_(obj.get("rounds"), ("objective", "rounds"), 1)
            elif kind == "carry":
                ck.int_(obj.get("to"), ("objective", "to"), 0, length)
                if d.get("item") is None:
                    ck.fail(("objective",), "a 'carry' objective needs an 'item' (name, holder or "
                            "position).")
            else:
                ck.int_(obj.get("needed"), ("objective", "needed"), 1)
                ck.int_(obj.get("at"), ("objective", "at"), 0, length)
                ck.choice(obj.setdefault("skill", "arcana"), ("objective", "skill"), SKILLS)
    item = d.get("item")
    if item is not None:
        ck.mapping(item, ("item",), ("name", "holder", "position"))
        item.setdefault("name", "the relic")
        if item.get("holder") is not None and item["holder"] not in char_ids:
            ck.fail(("item", "holder"), f"unknown character {item['holder']!r}; known: "
                    f"{', '.join(char_ids)}.")
        if item.get("holder") is None:
            ck.int_(item.get("position"), ("item", "position"), 0, length)
    ip = d.get("in_progress")
    if ip is not None and ip.get("phase") not in ("plan", "act", "question", "replan"):
        ck.fail(("in_progress", "phase"), "unknown phase; allowed: plan, act, question, replan.")
    return d


def _character(ck: _Checker, cd: Any, p: Path, length: int) -> None:
    ck.mapping(cd, p, CHAR_KEYS)
    if "id" not in cd:
        ck.fail(p, "missing field 'id' (" + SLUG_HINT + ").")
    ck.slug(cd["id"], (*p, "id"))
    if "position" in cd:
        ck.int_(cd["position"], (*p, "position"), 0, length)
    appr = cd.get("approaches") or {}
    ck.mapping(appr, (*p, "approaches"), APPROACHES)
    for k, v in appr.items():
        ck.int_(v, (*p, "approaches", k), 0, 3)
    skills = cd.get("skills") or {}
    ck.mapping(skills, (*p, "skills"), SKILLS)
    for k, v in skills.items():
        ck.int_(v, (*p, "skills", k), 0, 3)
    for k in ("max_blood", "max_guts"):
        if k in cd:
            cd[k] = ck.pool(cd[k], (*p, k))
    for k in ("blood", "guts"):
        if k in cd:
            ck.int_(cd[k], (*p, k), 0)
    items = cd.get("items") or {}
    ck.mapping(items, (*p, "items"), ITEM_KEYS)
    for k, v in items.items():
        if v is not None:
            ck.int_(v, (*p, "items", k), 0, 3)
    if cd.get("reach") is not None:
        ck.int_(cd["reach"], (*p, "reach"), 1)
    spell_ids: list[str] = []
    for k, sp in enumerate(cd.get("spells") or []):
        sp_path = (*p, "spells", k)
        ck.mapping(sp, sp_path, SPELL_KEYS)
        ck.slug(sp.get("id"), (*sp_path, "id"))
        if sp["id"] in spell_ids:  # one entry per spell: its `uses` count its instances
            ck.fail((*sp_path, "id"), f"duplicate spell id {sp['id']!r} (list a spell once and "
                    "give it more uses).")
        spell_ids.append(sp["id"])
        ck.choice(sp.setdefault("effect", "harm"), (*sp_path, "effect"), SPELL_EFFECTS)
        ck.choice(sp.setdefault("pool", "blood"), (*sp_path, "pool"), POOLS)
        for key in ("power", "range", "uses"):
            if key in sp:
                ck.int_(sp[key], (*sp_path, key), 0)
    for k, v in (cd.get("tricks") or {}).items():
        ck.slug(k, (*p, "tricks"))
        ck.int_(v, (*p, "tricks", k), 1, 2)
    for k, v in (cd.get("vulnerable") or {}).items():
        ck.choice(k, (*p, "vulnerable"), SKILLS)
        ck.choice(v, (*p, "vulnerable", k), POOLS)
    if "status" in cd:
        ck.choice(cd["status"], (*p, "status"), STATUSES)
    rnd = cd.get("round") or {}
    if rnd.get("plan") is not None:
        ck.choice(rnd["plan"], (*p, "round", "plan"), CATEGORIES)
