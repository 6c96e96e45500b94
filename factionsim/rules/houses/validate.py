"""Checks a Great Houses scenario (plain data read from YAML) and normalizes it for
``HousesState.from_dict``.

:func:`validate` stops at the first problem and raises :class:`CampaignError` with one paragraph
naming the file, the line (when known), the field path (``houses[1].skills.might``), the bad value
and what is allowed. The format is documented in ``docs/ruleset-houses.md``; the specs below are
that format, field by field (the checks: :mod:`factionsim.core.fields`), the functions after them
the rules that join several fields.

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

import re
from collections.abc import Mapping
from typing import Any

from factionsim.core.fields import (
    MAX_TURNS,
    Bool,
    Check,
    Checker,
    Choice,
    Either,
    Int,
    Later,
    ListOf,
    MapOf,
    Maybe,
    Name,
    Record,
    Ref,
    Slug,
    Spec,
    Text,
    common_fields,
)

from .actions import ACTION_KINDS
from .dice import SIZES
from .model import ASSET_KINDS, ATTRIBUTES, DEFAULT_RULES, DURATIONS, SFX, SKILLS
from .outcomes import slug
from .turn import PHASES

ASSET_ID = re.compile(r"^[a-z0-9][a-z0-9-]*#[0-9]{1,9}$")
#: the most Houses a scenario may hold
MAX_HOUSES = 32
HITCH = "hitch"  # the source of a complication a hitch caused (not a House)

Path = tuple[str | int, ...]


def die(lo: int = 4, none_ok: bool = False) -> Check:
    """A die size (``8`` or ``"d8"``, normalized to 8) of at least ``lo``; 0 too if
    ``none_ok`` (no Stress, no Trauma)."""
    sizes = [s for s in SIZES if s >= lo]

    def check(ck: Checker, v: Any, path: Path) -> int:
        if none_ok and v == 0 and not isinstance(v, bool):
            return 0
        if isinstance(v, str) and re.fullmatch(r"d\d{1,2}", v):
            v = int(v[1:])
        if isinstance(v, bool) or not isinstance(v, int) or v not in sizes:
            what = "0 (none) or a die size" if none_ok else "a die size"
            ck.fail(path, f"must be {what}", v, ", ".join(map(str, ([0] if none_ok else [])
                                                               + sizes)))
        return v

    return Check(check)


# ---------------------------------------------------------------------- the format
#: rule -> its range (one line per rule; ``DEFAULT_RULES`` holds the defaults)
RULE_SPECS: dict[str, Spec] = {
    "actions_per_season": Int(1, 20), "difficulty": ListOf(die(), "dice", lo=1, hi=10),
    "plot_points_per_season": Int(0, 20), "plot_point_cap": Int(0, 20),
    "advances_per_season": Int(0, 20),
    "max_committed_assets": Maybe(Int(0, 20)),  # null: no limit
    "create_asset_opposed": Bool(), "seize_at": die(6),
    "created_asset_names": ListOf(Name(), "names", lo=1, hi=200),
}
assert set(RULE_SPECS) == set(DEFAULT_RULES)

DISTINCTION = Either((str, Check(lambda ck, v, p: {"name": Name().check(ck, v, p)})),
                     (dict, Record("distinction", {"name": Name(), "die": die()},
                                   required=("name",))),
                     what="a Distinction ({name: ..., die: 8}) or its name")
COMPLICATION = Record("complication", {"from": Later(), "die": die(), "lasting": Bool()},
                      required=("from", "die"))
ASSET_ID_SPEC = Check(lambda ck, v, p: v if isinstance(v, str) and ASSET_ID.match(v) else ck.fail(
    p, "invalid asset id", v, "slug#number, e.g. 'castle-aldren#1' (or leave it out)"))
ASSET = Record("asset", {
    "id": ASSET_ID_SPEC,
    "name": Name(), "kind": Choice(ASSET_KINDS, "asset kind"), "die": die(6), "full": die(6),
    "duration": Choice(DURATIONS, "duration"), "created": Int(1, MAX_TURNS + 1),
}, required=("name", "die"))
HOUSE = Record("house", {
    "id": Slug(), "name": Name(), "agent": Later(), "agent_options": Later(), "alive": Bool(),
    "distinctions": ListOf(DISTINCTION, "Distinctions ({name: ..., die: 8})", lo=1, hi=5),
    "attributes": MapOf(Choice(ATTRIBUTES, "attribute"), die(), "attribute"),
    "skills": MapOf(Choice(SKILLS, "skill"), die(), "skill"),
    "skills_full": MapOf(Choice(SKILLS, "skill"), die(), "skill"),
    "stress": die(none_ok=True), "trauma": die(none_ok=True),
    "complications": ListOf(COMPLICATION, "complications", hi=MAX_HOUSES + 1),
    "plot_points": Int(0, 99), "advances": Int(0, 99),
    "sfx": ListOf(Choice(tuple(SFX), "SFX"), "SFX", unique=True),
    "assets": ListOf(ASSET, "assets", hi=500),
}, required=("id",))


def _roll(ck: Checker, v: Any, path: Path) -> dict[str, Any]:
    """A roll the engine saved (``dice.RollResult.to_dict``): dice and values of equal length,
    kept dice among them."""
    r = ROLL_FIELDS.check(ck, v, path)
    if len(r["values"]) != len(r["dice"]):
        ck.fail((*path, "values"), "must give one value per die", len(r["values"]),
                f"{len(r['dice'])} values")
    for i, (d, x) in enumerate(zip(r["dice"], r["values"], strict=True)):
        if x > d:
            ck.fail((*path, "values", i), f"a d{d} cannot roll {x}", x, f"from 1 to {d}")
    for i, k in enumerate(r["kept"]):
        if k >= len(r["values"]):
            ck.fail((*path, "kept", i), "must be the index of a rolled die", k,
                    f"from 0 to {len(r['values']) - 1}")
    return r


ROLL_FIELDS = Record("roll", {
    "house": Maybe(Ref("house")), "dice": ListOf(die(), "dice", hi=100),
    "values": ListOf(Int(1, 12), "values", hi=100), "kept": ListOf(Int(0, 99), "dice", hi=100,
                                                                    unique=True),
    "total": Int(0, 1200), "effect": die(none_ok=True), "hitches": Int(0, 100),
    "labels": Maybe(ListOf(Text(empty=False), "labels", hi=100)),
}, required=("dice", "values", "kept", "total", "effect", "hitches"))
ROLES = ("actor", "defender", "opposition")
#: Stress or Trauma coming to a House (``extra``: a second effect die a Plot Point may buy)
HARM = Record("incoming harm", {
    "to": Ref("house"), "by": Ref("house"), "effect": die(none_ok=True),
    "kind": Choice(("stress", "trauma"), "harm"),
    "allowed": Maybe(ListOf(Text(empty=False), "traits")),
    "used": ListOf(Text(empty=False), "traits"), "extra": die(none_ok=True),
}, required=("to", "by", "effect", "kind", "allowed"))
#: ``in_progress.ctx``: the House action under way (see ``turn.py`` and ``outcomes.py``)
CTX = Record("turn context", {
    "actor": Ref("house"), "free": Bool(), "kind": Choice(ACTION_KINDS, "House action"),
    "target": Ref("house"), "trait": Text(empty=False),
    "rolls": MapOf(Choice(ROLES, "role"), Check(_roll), "roll"),
    "pool": Record("dice pool", {
        "house": Ref("house"), "role": Choice(ROLES[:2], "role"),
        "dice": ListOf(die(), "dice", hi=100), "labels": ListOf(Text(empty=False), "labels"),
        "committed": ListOf(Ref("asset"), "assets", unique=True), "hinder": Bool(),
    }, required=("house", "role", "dice", "labels", "committed", "hinder")),
    "committed": ListOf(Text(empty=False), "assets"), "skill": Choice(SKILLS, "skill"),
    "ask": Choice(("solidify", "lasting"), "question"), "asset": Text(empty=False),
    "harm": HARM, "harm_next": HARM,  # harm_next: the Trauma of "Stress and Trauma", to come
    "success": Bool(),
    "asking": ListOf(Ref("house"), "Houses"),  # rivals still to be asked to oppose a new asset
    "fleeting": ListOf(Text(empty=False), "assets"),  # committed fleeting assets, spent at the end
})
IN_PROGRESS = Record("turn-in-progress", {
    "phase": Choice(tuple(p for p in PHASES if p != "turn-start") + ("next",), "phase"),
    "actor": Maybe(Ref("house")), "order": ListOf(Ref("house"), "Houses", unique=True),
    "order_index": Int(0, MAX_HOUSES), "round": Int(0, 21), "ctx": CTX,
}, required=("phase", "actor", "order", "order_index", "ctx"))

TOP = Record("scenario", {
    **common_fields("houses"), "rules": Record("rule", RULE_SPECS),
    "houses": ListOf(HOUSE, "Houses", lo=1, hi=MAX_HOUSES), "next_asset": Int(1),
    "in_progress": IN_PROGRESS,
}, required=("ruleset", "houses"))


def validate(data: Mapping[str, Any], source: str, lines: Mapping[Any, int] | None = None
             ) -> dict[str, Any]:
    """Check a scenario and return the normalized dict ``HousesState.from_dict`` accepts."""
    ck = Checker(source, lines)
    ck.mapping(data, (), "scenario", tuple(TOP.fields), required=("houses",))
    ck.ids(data["houses"], ("houses",), "house", lo=1, hi=MAX_HOUSES, reserved=(HITCH,))
    ck.known["asset"] = ck.nested_ids(data["houses"], ("houses",), "assets", "asset", ASSET_ID_SPEC)
    d = ck.run(TOP, data, ())
    d["name"] = d.get("name", "")
    d["turn"] = d.get("turn", 0)
    d["rules"] = d.get("rules", {})
    d["houses"] = [_house(ck, h, ("houses", i)) for i, h in enumerate(d["houses"])]
    if "in_progress" in d:
        ip = d["in_progress"]
        if ip["order_index"] > len(ip["order"]):
            ck.fail(("in_progress", "order_index"), f"points past the turn order "
                    f"({len(ip['order'])} Houses)", ip["order_index"],
                    f"from 0 to {len(ip['order'])}")
    return d


# ---------------------------------------------------------------------- rules across fields
def _house(ck: Checker, h: dict[str, Any], path: Path) -> dict[str, Any]:
    ck.agent_fields(h, path)
    h.setdefault("name", h["id"])
    dist = h.setdefault("distinctions", [{"name": h["name"], "die": 8}])
    names: set[str] = set()
    for i, x in enumerate(dist):
        x.setdefault("die", 8)
        key = slug(x["name"])
        if key in names:
            ck.fail((*path, "distinctions", i, "name"), "two Distinctions with the same name",
                    x["name"])
        names.add(key)
    skills = h.get("skills", {})
    for s, full in h.get("skills_full", {}).items():
        if full < skills.get(s, 4):
            ck.fail((*path, "skills_full", s), "the full rating cannot be below the current die",
                    full)
    h["stress"], h["trauma"] = h.get("stress", 0), h.get("trauma", 0)
    sources: set[str] = set()
    for i, c in enumerate(h.get("complications", [])):
        p = (*path, "complications", i)
        ck.choice(c["from"], (*p, "from"), [*ck.known["house"], HITCH], "complication source")
        if c["from"] in sources:
            ck.fail((*p, "from"), "one complication per source", c["from"])
        sources.add(c["from"])
        c["lasting"] = c.get("lasting", True)
    for i, a in enumerate(h.get("assets", [])):
        a["kind"] = a.get("kind", "asset")
        if a.get("full", a["die"]) < a["die"]:
            ck.fail((*path, "assets", i, "full"), "the full rating cannot be below the current die",
                    a["full"])
    return h
