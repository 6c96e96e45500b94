"""Checks a conflict scenario (plain data read from YAML) and normalizes it for
``ConflictState.from_dict``. The format is documented in ``docs/ruleset-conflict.md``; the
specs below are that format, field by field (the checks: :mod:`factionsim.core.fields`), the
functions after them the rules that join several fields.

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

from collections.abc import Mapping
from typing import Any

from factionsim.core import fields as F
from factionsim.core.dice import Dice, DiceError

from . import checks
from .model import APPROACHES, CATEGORIES, DEFAULT_SETTINGS, SKILLS, STATUSES

SPELL_EFFECTS = ("harm", "heal", "advantage")
POOLS = ("blood", "guts")
OBJECTIVES = ("none", "survive", "carry", "ritual")
#: the most sides and characters a scenario may hold; the largest Blood or Guts
MAX_SIDES, MAX_CHARACTERS, MAX_POOL = 16, 200, 1000
#: the most dice, faces and bonus of a pool written as dice (``2d6+1``)
MAX_POOL_DICE, MAX_POOL_SIDES, MAX_POOL_BONUS = 20, 100, 100

Path = tuple[str | int, ...]

#: setting -> its range (one line per setting; ``DEFAULT_SETTINGS`` holds the defaults; the
#: upper bounds are ours: far beyond any scenario, short of lists of moves that never end)
SETTING_SPECS: dict[str, F.Spec] = {
    "length": F.Int(2, 200), "free_move": F.Int(0, 20), "far_move": F.Int(0, 50),
    "injured_free_move": F.Int(0, 20), "stand_radius": F.Int(0, 200), "stand_penalty": F.Int(0, 20),
    "bond_cap": F.Int(0, 100), "minor_per_major": F.Int(1, 20), "reach": F.Int(0, 200),
    "guts_range": F.Int(0, 200), "aid_range": F.Int(0, 200), "unarmed": F.Int(-6, 0),
    "advantage_rounds": F.Int(0, 100), "likely_tn": F.Int(0, 20), "flawless_bonus": F.Int(0, 20),
    "tie_strain": F.Int(0, 20),
    "opportunity": F.Int(0, 20), "aoo_radius": F.Int(0, 200), "engaged_radius": F.Int(0, 200),
    "parley_fraction": F.Num(0, 1), "concentration_tn": F.Int(1, 7),
}
assert set(SETTING_SPECS) == set(DEFAULT_SETTINGS)


def _pool(ck: F.Checker, value: Any, path: Path) -> int | str:
    """A Blood or Guts maximum: a whole number, or dice such as ``2d6+1`` (rolled at load)."""
    if isinstance(value, str):
        try:
            d = Dice.parse(value)
        except DiceError:
            d = None
        if d is None or (d.count and d.sides < 1) or d.count > MAX_POOL_DICE \
                or d.sides > MAX_POOL_SIDES or abs(d.modifier) > MAX_POOL_BONUS:
            ck.fail(path, "must be a number or dice such as '2d6+1'", value,
                    f"up to {MAX_POOL_DICE} dice of up to {MAX_POOL_SIDES} faces, a bonus up to "
                    f"{MAX_POOL_BONUS}")
        return value
    return ck.integer(value, path, 0, MAX_POOL)


# ---------------------------------------------------------------------- the format
SETTINGS = F.Record("setting", SETTING_SPECS)
CHAR = F.Ref("character")
SPELL = F.Record("spell", {
    "id": F.Slug(), "name": F.Name(), "effect": F.Choice(SPELL_EFFECTS, "spell effect"),
    "pool": F.Choice(POOLS, "pool"), "power": F.Int(0, 100), "range": F.Int(0, 200), "uses": F.Int(0, 100),
}, required=("id",))
ROUND = F.Record("round", {
    "plan": F.Choice(CATEGORIES, "category"), "acted": F.Bool(), "targeted": F.Bool(),
    "standing": F.Bool(), "attacks_taken": F.Int(0, 100), "concentration_broken": F.Bool(),
    "opportunity": F.Int(0, 20),
    "assists": F.ListOf(F.Tuple(CHAR, F.Int(0, 20), shape="[helper, bonus]"), "assists"),
})
CHARACTER = F.Record("character", {
    "id": F.Slug(), "name": F.Name(), "position": F.Int(0, 200),
    "approaches": F.MapOf(F.Choice(APPROACHES, "approach"), F.Int(0, 3), "approach"),
    "approach_max": F.Int(0, 9), "skills": F.MapOf(F.Choice(SKILLS, "skill"), F.Int(0, 3), "skill"),
    "blood": F.Int(0, MAX_POOL), "max_blood": F.Check(_pool), "guts": F.Int(0, MAX_POOL),
    "max_guts": F.Check(_pool),
    "items": F.Record("item", {"weapon": F.Int(0, 3), "armor": F.Int(0, 3), "talisman": F.Int(0, 3),
                             "ward": F.Int(0, 3)}),
    "reach": F.Int(1, 200), "spells": F.ListOf(SPELL, "spells", hi=50),
    "tricks": F.MapOf(F.Slug(), F.Int(1, 2), "trick"),
    "vulnerable": F.MapOf(F.Choice(SKILLS, "skill"), F.Choice(POOLS, "pool"), "weakness"),
    "status": F.Choice(STATUSES, "status"), "round": ROUND,
}, required=("id",))
SIDE = F.Record("side", {
    "id": F.Slug(), "name": F.Name(), "heroes": F.Bool(), "surprised": F.Bool(), "agent": F.Later(),
    "agent_options": F.Later(), "characters": F.ListOf(CHARACTER, "characters", lo=1,
                                                    hi=MAX_CHARACTERS),
}, required=("id", "characters"))
OBJECTIVE = F.Record("objective", {
    "type": F.Choice(OBJECTIVES, "objective"), "side": F.Ref("side"), "rounds": F.Int(1, F.MAX_TURNS),
    "to": F.Int(0, 200), "direction": F.Choice((1, -1), "direction"), "needed": F.Int(1, 1000),
    "at": F.Int(0, 200), "skill": F.Choice(SKILLS, "skill"), "progress": F.Int(0, 1000),
}, required=("type",))
ITEM = F.Record("item", {"name": F.Name(), "holder": F.Maybe(CHAR), "position": F.Int(0, 200)})
ADVANTAGE = F.Record("advantage", {
    "id": F.Text(empty=False), "side": F.Ref("side"), "by": CHAR,
    "targets": F.ListOf(CHAR, "characters"), "bonus": F.Int(0, 100),
    "until": F.Maybe(F.Int(0, F.MAX_TURNS + 100)),  # null: until an enemy removes it
}, required=("id", "side", "by", "targets", "bonus", "until"))

OUTCOMES = (checks.SUCCESS, checks.FAIL, checks.TIE, checks.FLAWLESS, checks.CONSEQUENCE,
            checks.OPPORTUNITY)
PARTS = F.MapOf(F.Choice(("rank", "approach", "difficulty", "advantages", "assist", "opportunity",
                      "defense", "stand"), "part of a target number"), F.Int(-100, 100), "part")
REROLLS = F.ListOf(F.Record("reroll", {"dice": F.ListOf(F.Int(1, 6), "dice", hi=2), "partner": CHAR},
                        required=("dice", "partner")), "rerolls")
CHECK = F.Record("check", {
    "dice": F.ListOf(F.Int(1, 6), "dice", hi=2), "tn": F.Int(-1000, 1000),
    "outcome": F.Choice(OUTCOMES, "outcome"), "accepted": F.Bool(), "skipped": F.Bool(),
    "skill": F.Choice(SKILLS, "skill"), "parts": PARTS, "rerolls": REROLLS,
}, required=("dice", "tn", "outcome"))
_JOB = {"job": F.Choice(("check", "hit", "advantage", "remove", "ritual", "parley", "move",
                       "end-turn"), "job"), "char": CHAR}
#: job kind -> its fields (see ``turn.py``: an action becomes a check and then its effect)
JOBS: dict[str, F.Record] = {
    "check": F.Record("check job", {**_JOB, "skill": F.Choice(SKILLS, "skill"), "parts": PARTS,
                                  "result": CHECK, "rerolls": REROLLS},
                    required=("job", "char", "skill", "parts")),
    "hit": F.Record("hit job", {**_JOB, "target": CHAR, "skill": F.Choice(SKILLS, "skill"),
                              "pool": F.Choice(POOLS, "pool"), "item": F.Int(0, 100),
                              "kind": F.Choice(("harm", "opportunity"), "attack"),
                              "advantages_used": F.ListOf(F.Text(empty=False), "advantages"),
                              "protectors": F.ListOf(CHAR, "characters")},
                  required=("job", "char", "target", "pool", "item", "kind", "protectors")),
    "advantage": F.Record("advantage job", {**_JOB, "skill": F.Choice(SKILLS, "skill"),
                                          "targets": F.ListOf(CHAR, "characters"),
                                          "bonus": F.Int(0, 100)},
                        required=("job", "char", "targets", "bonus")),
    "remove": F.Record("remove job", {**_JOB, "advantage": F.Text(empty=False),
                                    "skill": F.Choice(SKILLS, "skill")},
                     required=("job", "char", "advantage")),
    "ritual": F.Record("ritual job", {**_JOB, "skill": F.Choice(SKILLS, "skill")},
                     required=("job", "char")),
    "parley": F.Record("parley job", {**_JOB, "target": CHAR}, required=("job", "char", "target")),
    "move": F.Record("move job", {**_JOB, "shift": F.Int(-1000, 1000),
                                "mode": F.Choice(("free", "check", "break"), "move")},
                   required=("job", "char", "shift", "mode")),
    "end-turn": F.Record("end-turn job", _JOB, required=("job", "char")),
}


def _job(ck: F.Checker, value: Any, path: Path) -> dict[str, Any]:
    kind = ck.mapping(value, path, "job").get("job")
    ck.choice(kind, (*path, "job"), tuple(JOBS), "job")
    return JOBS[kind].check(ck, value, path)


IN_PROGRESS = F.Record("turn-in-progress", {
    "phase": F.Choice(("plan", "act", "replan"), "phase"), "actor": F.Maybe(F.Ref("side")),
    # counted across the passes of a round: two in a first round with a side taken by surprise
    "category": F.Int(0, 2 * len(CATEGORIES) - 1), "queue": F.ListOf(CHAR, "characters"),
    "current": F.Maybe(CHAR), "plan_order": F.ListOf(CHAR, "characters", unique=True),
    "jobs": F.ListOf(F.Check(_job), "jobs", hi=500),
    "question": F.Maybe(F.Record("question", {"kind": F.Choice(("tie", "reroll"), "question"),
                                          "char": CHAR,
                                          "partners": F.ListOf(CHAR, "characters", lo=1)},
                             required=("kind", "char"))),
    "ctx": F.Record("turn context", {"check": CHECK,
                                   "replan": F.ListOf(F.Ref("side"), "sides still to decide")}),
}, required=("phase",))

TOP = F.Record("scenario", {
    **F.common_fields("conflict"), "settings": SETTINGS, "objective": OBJECTIVE, "item": ITEM,
    "sides": F.ListOf(SIDE, "sides", lo=2, hi=MAX_SIDES),
    "bonds": F.ListOf(F.Tuple(CHAR, CHAR, F.Int(0, 100), shape="[character, character, minor levels] "
                                                         "(3 minor = 1 major)"), "bonds"),
    "advantages": F.ListOf(ADVANTAGE, "advantages", hi=1000), "next_advantage": F.Int(1),
    "result": F.Record("result", {"winner": F.Maybe(F.Ref("side")), "reason": F.Text()}),
    "in_progress": IN_PROGRESS,
}, required=("ruleset", "sides"))


def validate(data: dict[str, Any], source: str = "<scenario>",
             lines: Mapping[Path, int] | None = None) -> dict[str, Any]:
    """Check ``data``; return a normalized copy for ``ConflictState.from_dict``."""
    ck = F.Checker(source, lines)
    ck.mapping(data, (), "scenario", tuple(TOP.fields), required=("sides",))
    ck.ids(data["sides"], ("sides",), "side", lo=2, hi=MAX_SIDES)
    ck.known["character"] = ck.nested_ids(data["sides"], ("sides",), "characters", "character",
                                          F.Slug())
    d = ck.run(TOP, data, ())
    length = d.get("settings", {}).get("length", DEFAULT_SETTINGS["length"])
    owner = {cd["id"]: sd["id"] for sd in d["sides"] for cd in sd["characters"]}
    for i, sd in enumerate(d["sides"]):
        ck.agent_fields(sd, ("sides", i))
        for j, cd in enumerate(sd["characters"]):
            _character(ck, cd, ("sides", i, "characters", j), length)
    _bonds(ck, d.get("bonds", []), owner)
    _objective(ck, d, length)
    if "in_progress" in d:
        _in_progress(ck, d["in_progress"])
    return d


# ---------------------------------------------------------------------- rules across fields
def _character(ck: F.Checker, cd: dict[str, Any], p: Path, length: int) -> None:
    """On the field, Blood and Guts within their maxima, spell ids unique (a spell's instances
    are its ``uses``), no assisting oneself."""
    if "position" in cd:
        ck.integer(cd["position"], (*p, "position"), 0, length)
    for pool in ("blood", "guts"):
        top = cd.get(f"max_{pool}")
        if isinstance(top, int) and cd.get(pool, 0) > top:
            ck.integer(cd[pool], (*p, pool), 0, top)
    first: dict[str, int] = {}
    for k, sp in enumerate(cd.get("spells", [])):
        if sp["id"] in first:
            ck.fail((*p, "spells", k, "id"), f"duplicate spell id {sp['id']!r} (first at "
                    f"spells[{first[sp['id']]}]); list a spell once and give it more uses")
        first[sp["id"]] = k
    rnd = cd.get("round", {})
    for k, (helper, _) in enumerate(rnd.get("assists", [])):
        if helper == cd["id"]:
            ck.fail((*p, "round", "assists", k), "a character cannot assist itself", helper)


def _bonds(ck: F.Checker, bonds: list[list[Any]], owner: dict[str, str]) -> None:
    seen: dict[frozenset[str], int] = {}
    for i, (a, b, _) in enumerate(bonds):
        if a == b or owner[a] != owner[b]:
            ck.fail(("bonds", i), "a Bond joins two different characters of the same side",
                    bonds[i])
        pair = frozenset((a, b))
        if pair in seen:
            ck.fail(("bonds", i), f"the Bond {a}/{b} is already given at bonds[{seen[pair]}]",
                    bonds[i], "one Bond per pair of characters")
        seen[pair] = i


def _objective(ck: F.Checker, d: dict[str, Any], length: int) -> None:
    item = d.get("item")
    if item is not None:
        item.setdefault("name", "the relic")
        if item.get("holder") is None:
            ck.integer(item.get("position"), ("item", "position"), 0, length)
    obj = d.get("objective")
    if obj is None:
        return
    kind = obj["type"]
    if kind == "none":
        d.pop("objective")
        return
    ck.ref(obj.get("side"), ("objective", "side"), "side")
    if kind == "survive":
        ck.integer(obj.get("rounds"), ("objective", "rounds"), 1, F.MAX_TURNS)
    elif kind == "carry":
        ck.integer(obj.get("to"), ("objective", "to"), 0, length)
        if item is None:
            ck.fail(("objective",), "a 'carry' objective needs an 'item' (name, holder or "
                    "position)")
    else:
        ck.integer(obj.get("needed"), ("objective", "needed"), 1, 1000)
        ck.integer(obj.get("at"), ("objective", "at"), 0, length)
        obj.setdefault("skill", "arcana")


def _in_progress(ck: F.Checker, ip: dict[str, Any]) -> None:
    """A question needs the check it asks about at the head of the jobs."""
    q = ip.get("question")  # asked during the phase 'act' or 'replan'; the phase stays as it was
    if q is not None:
        jobs = ip.get("jobs", [])
        if not jobs or jobs[0]["job"] != "check" or "result" not in jobs[0] \
                or jobs[0]["char"] != q["char"]:
            ck.fail(("in_progress", "jobs"), f"a question about {q['char']}'s check needs that "
                    "check, rolled, at the head of the jobs")
        if q["kind"] == "reroll" and not q.get("partners"):
            ck.fail(("in_progress", "question"), "a reroll question names the partners")
        jobs[0].setdefault("rerolls", [])
    if "jobs" in ip and "ctx" not in ip:
        ip["ctx"] = {}
