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

from factionsim.core import fields as F

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


def die(lo: int = 4, none_ok: bool = False) -> F.Check:
    """A die size (``8`` or ``"d8"``, normalized to 8) of at least ``lo``; 0 too if
    ``none_ok`` (no Stress, no Trauma)."""
    sizes = [s for s in SIZES if s >= lo]

    def check(ck: F.Checker, v: Any, path: Path) -> int:
        if none_ok and v == 0 and not isinstance(v, bool):
            return 0
        if isinstance(v, str) and re.fullmatch(r"d\d{1,2}", v):
            v = int(v[1:])
        if isinstance(v, bool) or not isinstance(v, int) or v not in sizes:
            what = "0 (none) or a die size" if none_ok else "a die size"
            ck.fail(path, f"must be {what}", v, ", ".join(map(str, ([0] if none_ok else [])
                                                               + sizes)))
        return v

    return F.Check(check)


# ---------------------------------------------------------------------- the format
#: rule -> its range (one line per rule; ``DEFAULT_RULES`` holds the defaults)
RULE_SPECS: dict[str, F.Spec] = {
    "actions_per_season": F.Int(1, 20), "difficulty": F.ListOf(die(), "dice", lo=1, hi=10),
    "plot_points_per_season": F.Int(0, 20), "plot_point_cap": F.Int(0, 20),
    "advances_per_season": F.Int(0, 20),
    "max_committed_assets": F.Maybe(F.Int(0, 20)),  # null: no limit
    "create_asset_opposed": F.Bool(), "seize_at": die(6),
    "created_asset_names": F.ListOf(F.Name(), "names", lo=1, hi=200),
}
assert set(RULE_SPECS) == set(DEFAULT_RULES)

DISTINCTION = F.Either((str, F.Check(lambda ck, v, p: {"name": F.Name().check(ck, v, p)})),
                     (dict, F.Record("distinction", {"name": F.Name(), "die": die()},
                                   required=("name",))),
                     what="a Distinction ({name: ..., die: 8}) or its name")
COMPLICATION = F.Record("complication", {"from": F.Later(), "die": die(), "lasting": F.Bool()},
                      required=("from", "die"))
ASSET_ID_SPEC = F.Check(lambda ck, v, p: v if isinstance(v, str) and ASSET_ID.match(v) else ck.fail(
    p, "invalid asset id", v, "slug#number, e.g. 'castle-aldren#1' (or leave it out)"))
ASSET = F.Record("asset", {
    "id": ASSET_ID_SPEC,
    "name": F.Name(), "kind": F.Choice(ASSET_KINDS, "asset kind"), "die": die(6), "full": die(6),
    "duration": F.Choice(DURATIONS, "duration"), "created": F.Int(1, F.MAX_TURNS + 1),
}, required=("name", "die"))
HOUSE = F.Record("house", {
    "id": F.Slug(), "name": F.Name(), "agent": F.Later(), "agent_options": F.Later(), "alive": F.Bool(),
    "distinctions": F.ListOf(DISTINCTION, "Distinctions ({name: ..., die: 8})", lo=1, hi=5),
    "attributes": F.MapOf(F.Choice(ATTRIBUTES, "attribute"), die(), "attribute"),
    "skills": F.MapOf(F.Choice(SKILLS, "skill"), die(), "skill"),
    "skills_full": F.MapOf(F.Choice(SKILLS, "skill"), die(), "skill"),
    "stress": die(none_ok=True), "trauma": die(none_ok=True),
    "complications": F.ListOf(COMPLICATION, "complications", hi=MAX_HOUSES + 1),
    "plot_points": F.Int(0, 99), "advances": F.Int(0, 99),
    "sfx": F.ListOf(F.Choice(tuple(SFX), "SFX"), "SFX", unique=True),
    "assets": F.ListOf(ASSET, "assets", hi=500),
}, required=("id",))


def _roll(ck: F.Checker, v: Any, path: Path) -> dict[str, Any]:
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


ROLL_FIELDS = F.Record("roll", {
    "house": F.Maybe(F.Ref("house")), "dice": F.ListOf(die(), "dice", hi=100),
    "values": F.ListOf(F.Int(1, 12), "values", hi=100), "kept": F.ListOf(F.Int(0, 99), "dice", hi=100,
                                                                    unique=True),
    "total": F.Int(0, 1200), "effect": die(none_ok=True), "hitches": F.Int(0, 100),
    "labels": F.Maybe(F.ListOf(F.Text(empty=False), "labels", hi=100)),
}, required=("dice", "values", "kept", "total", "effect", "hitches"))
ROLES = ("actor", "defender", "opposition")
#: Stress or Trauma coming to a House (``extra``: a second effect die a Plot Point may buy)
HARM = F.Record("incoming harm", {
    "to": F.Ref("house"), "by": F.Ref("house"), "effect": die(none_ok=True),
    "kind": F.Choice(("stress", "trauma"), "harm"),
    "allowed": F.Maybe(F.ListOf(F.Text(empty=False), "traits")),
    "used": F.ListOf(F.Text(empty=False), "traits"), "extra": die(none_ok=True),
}, required=("to", "by", "effect", "kind", "allowed"))
#: ``in_progress.ctx``: the House action under way (see ``turn.py`` and ``outcomes.py``)
CTX = F.Record("turn context", {
    "actor": F.Ref("house"), "free": F.Bool(), "kind": F.Choice(ACTION_KINDS, "House action"),
    "target": F.Ref("house"), "trait": F.Text(empty=False),
    "rolls": F.MapOf(F.Choice(ROLES, "role"), F.Check(_roll), "roll"),
    "pool": F.Record("dice pool", {
        "house": F.Ref("house"), "role": F.Choice(ROLES[:2], "role"),
        "dice": F.ListOf(die(), "dice", hi=100), "labels": F.ListOf(F.Text(empty=False), "labels"),
        "committed": F.ListOf(F.Ref("asset"), "assets", unique=True), "hinder": F.Bool(),
    }, required=("house", "role", "dice", "labels", "committed", "hinder")),
    "committed": F.ListOf(F.Text(empty=False), "assets"), "skill": F.Choice(SKILLS, "skill"),
    "ask": F.Choice(("solidify", "lasting"), "question"), "asset": F.Text(empty=False),
    "harm": HARM, "harm_next": HARM,  # harm_next: the Trauma of "Stress and Trauma", to come
    "success": F.Bool(),
    "asking": F.ListOf(F.Ref("house"), "Houses"),  # rivals still to be asked to oppose a new asset
    "fleeting": F.ListOf(F.Text(empty=False), "assets"),  # committed fleeting assets, spent at the end
})
IN_PROGRESS = F.Record("turn-in-progress", {
    "phase": F.Choice(tuple(p for p in PHASES if p != "turn-start") + ("next",), "phase"),
    "actor": F.Maybe(F.Ref("house")), "order": F.ListOf(F.Ref("house"), "Houses", unique=True),
    "order_index": F.Int(0, MAX_HOUSES), "round": F.Int(0, 21), "ctx": CTX,
}, required=("phase", "actor", "order", "order_index", "ctx"))

TOP = F.Record("scenario", {
    **F.common_fields("houses"), "rules": F.Record("rule", RULE_SPECS),
    "houses": F.ListOf(HOUSE, "Houses", lo=1, hi=MAX_HOUSES), "next_asset": F.Int(1),
    "in_progress": IN_PROGRESS,
}, required=("ruleset", "houses"))


def validate(data: Mapping[str, Any], source: str, lines: Mapping[Any, int] | None = None
             ) -> dict[str, Any]:
    """Check a scenario and return the normalized dict ``HousesState.from_dict`` accepts."""
    ck = F.Checker(source, lines)
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
def _house(ck: F.Checker, h: dict[str, Any], path: Path) -> dict[str, Any]:
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
