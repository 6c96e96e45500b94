"""Checks an engagements scenario (plain data read from YAML) and normalizes it for
``EngagementsState.from_dict``.

The first problem raises :class:`CampaignError`: one paragraph naming the file, the line, the
field path, the bad value and what is allowed. The format is documented in
``docs/ruleset-engagements.md``; the specs below are that format, field by field (the checks:
:mod:`factionsim.core.fields`), the functions after them the rules that join several fields.

>>> lances = {"name": "Black Lances", "competence": 3, "defense": 2}
>>> data = {"ruleset": "engagements", "factions": [{"id": "a", "pillars": [lances]},
...                                                {"id": "b", "pillars": [lances]}]}
>>> validate(data, "x.yaml", {})["factions"][1]["faction_dice"]
0
>>> validate({**data, "settings": {"gm_deferral": 2}}, "x.yaml", {("settings",): 3})
Traceback (most recent call last):
...
factionsim.core.game.CampaignError: x.yaml, line 3, settings.gm_deferral: must be a number \
from 0 to 1 (got 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from factionsim.core import fields as F

from .model import (
    BOONS,
    KINDS,
    MAX_COMPETENCE,
    MAX_DEFENSE,
    MAX_ENGAGEMENT_DRAW,
    MIN_COMPETENCE,
    MIN_DEFENSE,
    SETTING_KEYS,
    Settings,
    slugify,
)

#: the most factions a scenario may hold; the most dice one side of an engagement rolls
MAX_FACTIONS, MAX_ENGAGEMENT_DICE = 64, 1000

#: setting -> its range (one line per setting; ``Settings`` holds the defaults)
SETTING_SPECS: dict[str, F.Spec] = {
    "pillar_cap": F.Int(1, 10), "income_base": F.Int(0, 20), "income_per_pillars": F.Int(1, 10),
    "heal_cost": F.Int(0, 10), "gm_deferral": F.Num(0, 1), "grievance_dice": F.Int(0, 3),
    "engagements_per_turn": F.Maybe(F.Int(0, 5)),  # null: no limit
    "build_competence_max": F.Int(1, MAX_COMPETENCE),
    "build_defense_max": F.Int(0, MAX_DEFENSE), "renown_score": F.Num(0, 100),
}
assert set(SETTING_SPECS) == set(SETTING_KEYS)

Path = tuple[str | int, ...]

# ---------------------------------------------------------------------- the format
SETTINGS = F.Record("setting", SETTING_SPECS)

PILLAR = F.Record("pillar", {
    "id": F.Int(1), "name": F.Name(), "kind": F.Choice(KINDS, "kind"),
    "competence": F.Int(MIN_COMPETENCE, MAX_COMPETENCE), "defense": F.Int(MIN_DEFENSE, MAX_DEFENSE),
    "circles": F.Int(1, 10), "wounds": F.Int(0, 9),
    "boons": F.ListOf(F.Choice(BOONS, "boon"), "boons", unique=True),
}, required=("name", "competence", "defense"))

FACTION = F.Record("faction", {
    "id": F.Slug(), "name": F.Name(), "agent": F.Later(), "agent_options": F.Later(), "alive": F.Bool(),
    "faction_dice": F.Int(), "engagement": F.MapOf(F.Later(), F.Int(), "pool"),
    "mercenary": F.Int(), "renown": F.Int(), "exposed_since": F.Int(0, F.MAX_TURNS + 1),
    #: rivals it gained engagement dice against since it last engaged them (see _faction)
    "may_engage": F.ListOf(F.Ref("faction"), "rivals", unique=True),
    "pillars": F.ListOf(PILLAR, "pillars"),
}, required=("id",))

STAGES = ("invite", "answer", "pillars", "draw", "allocate", "counter-fanatical", "counter-draw",
          "counter-allocate")
PILLAR_ID = F.Text(empty=False)  # "slug#n"; a pillar of a finished step may be gone
#: one side's part in an engagement (see ``engagement.py``)
PART = F.Record("engagement part", {
    "faction": F.Ref("faction"), "pillars": F.ListOf(PILLAR_ID, "pillars"),
    "fanatical": F.ListOf(PILLAR_ID, "pillars"), "dice": F.Int(0, MAX_ENGAGEMENT_DICE),
    "drawn": F.Int(0, MAX_ENGAGEMENT_DRAW), "remaining": F.Int(0, MAX_ENGAGEMENT_DICE),
    "alloc": F.MapOf(PILLAR_ID, F.Int(0, MAX_ENGAGEMENT_DICE), "allocation"),
}, required=("faction", "pillars", "fanatical", "dice", "drawn", "remaining", "alloc"))
ENGAGEMENT = F.Record("engagement", {
    "aggressor": F.Ref("faction"), "defender": F.Ref("faction"), "stage": F.Choice(STAGES, "stage"),
    "asked": F.ListOf(F.Ref("faction"), "factions"),
    "invite": F.Maybe(F.Record("invitation", {"faction": F.Ref("faction"), "price": F.Maybe(F.Int()),
                                          "commission": F.Bool()},
                           required=("faction", "price"))),
    "patron": F.Ref("faction"),  # a mercenary's engagement: the faction that pays for it
    "parts": F.ListOf(PART, "parts", lo=1, hi=MAX_FACTIONS), "current": F.Int(0, MAX_FACTIONS),
    "counter": F.Maybe(PART), "attacked": F.ListOf(PILLAR_ID, "pillars"),
}, required=("aggressor", "defender", "stage", "asked", "invite", "parts", "current", "counter"))
IN_PROGRESS = F.Record("turn-in-progress", {
    "phase": F.Choice(("faction-start", "spend", "engage", "faction-end"), "phase"),
    "actor": F.Maybe(F.Ref("faction")), "order": F.ListOf(F.Ref("faction"), "factions", lo=1, unique=True),
    "order_index": F.Int(0, MAX_FACTIONS),
    "ctx": F.Record("turn context", {"engaged": F.Int(0, 100),
                                   "deferred": F.ListOf(F.Ref("faction"), "factions"),
                                   "commissioned": F.ListOf(F.Ref("faction"), "mercenaries"),
                                   "eng": ENGAGEMENT}),
}, required=("phase", "actor", "order", "order_index", "ctx"))

TOP = F.Record("scenario", {
    **F.common_fields("engagements"), "settings": SETTINGS,
    "factions": F.ListOf(FACTION, "factions", lo=2, hi=MAX_FACTIONS), "next_pillar": F.Int(1),
    "in_progress": IN_PROGRESS, "fallen": F.MapOf(F.Slug(), F.Name(), "fallen pillar"),
}, required=("ruleset", "factions"))


def validate(data: Mapping[str, Any], source: str, lines: Mapping[Any, int] | None = None
             ) -> dict[str, Any]:
    """Check a scenario and return the normalized dict ``EngagementsState.from_dict`` accepts."""
    ck = F.Checker(source, lines)
    ck.mapping(data, (), "scenario", tuple(TOP.fields))
    ck.ids(data.get("factions"), ("factions",), "faction", lo=2, hi=MAX_FACTIONS)
    ck.known["pillar"] = ck.nested_ids(data["factions"], ("factions",), "pillars", "pillar", F.Int(1),
                                       lambda pd, n: f"{slugify(str(pd.get('name', '')))}#{n}")
    out = ck.run(TOP, data, ())
    out["turn"] = out.get("turn", 0)
    if out.get("max_turns") is not None and out["max_turns"] < out["turn"]:
        ck.fail(("max_turns",), f"must not be below turn ({out['turn']})", out["max_turns"])
    out["settings"] = out.get("settings", {})
    cap = out["settings"].get("pillar_cap", Settings().pillar_cap)
    out["factions"] = [_faction(ck, fd, ("factions", i), cap)
                       for i, fd in enumerate(out["factions"])]
    if "in_progress" in out:
        _in_progress(ck, out["in_progress"])
    return out


# ---------------------------------------------------------------------- rules across fields
def _faction(ck: F.Checker, fd: dict[str, Any], path: Path, cap: int) -> dict[str, Any]:
    ck.agent_fields(fd, path)
    fd["faction_dice"] = fd.get("faction_dice", 0)
    others = [i for i in ck.known["faction"] if i != fd["id"]]
    for rival in fd.get("engagement", {}):
        if rival not in others:
            ck.fail((*path, "engagement", rival), "engagement dice must be held against another "
                    f"faction; one of {', '.join(others)}", rival)
    for j, rival in enumerate(fd.get("may_engage", [])):
        if rival == fd["id"]:
            ck.fail((*path, "may_engage", j), "must list rival faction ids (the rivals it gained "
                    "engagement dice against since it last engaged them), not its own", rival)
    pillars = fd.setdefault("pillars", [])
    if len(pillars) > cap:
        ck.fail((*path, "pillars"), f"at most {cap} pillars per faction (settings.pillar_cap)",
                len(pillars))
    for j, pd in enumerate(pillars):
        if pd.get("wounds", 0) >= pd.get("circles", 3):
            ck.integer(pd["wounds"], (*path, "pillars", j, "wounds"), 0, pd.get("circles", 3) - 1)
    return fd


def _in_progress(ck: F.Checker, ip: dict[str, Any]) -> None:
    """The turn saved mid-way: a turn order to follow and, mid-engagement, a consistent one."""
    path: Path = ("in_progress",)
    if ip["order_index"] >= len(ip["order"]):
        ck.fail((*path, "order_index"), f"points past the turn order ({len(ip['order'])} "
                "factions)", ip["order_index"], f"from 0 to {len(ip['order']) - 1}")
    eng = ip["ctx"].get("eng")
    if (ip["phase"] == "engage") != (eng is not None):
        ck.fail((*path, "ctx"), "an engagement in progress ('eng') goes with the phase 'engage', "
                "and only with it", ip["phase"])
    if eng is not None:
        epath = (*path, "ctx", "eng")
        if eng["current"] >= len(eng["parts"]):
            ck.fail((*epath, "current"), f"points past the parts ({len(eng['parts'])})",
                    eng["current"], f"from 0 to {len(eng['parts']) - 1}")
        if eng["stage"] == "answer" and eng["invite"] is None:
            ck.fail((*epath, "invite"), "the stage 'answer' needs the invitation answered", None)
        if eng["stage"].startswith("counter") and eng["counter"] is None:
            ck.fail((*epath, "counter"), f"the stage {eng['stage']!r} needs the counter-attack",
                    None)
