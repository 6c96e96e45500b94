"""Checks an engagements scenario (plain data read from YAML) and normalizes it for
``EngagementsState.from_dict``.

The first problem raises :class:`CampaignError`: one paragraph naming the file, the line, the
field path, the bad value and what is allowed. The format is documented in
``docs/ruleset-engagements.md``.

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

import copy
import difflib
import re
from collections.abc import Mapping
from typing import Any, NoReturn

from factionsim.core.campaign import FieldChecker, format_path
from factionsim.core.game import CampaignError

from .model import (
    BOONS,
    KINDS,
    MAX_COMPETENCE,
    MAX_DEFENSE,
    MIN_COMPETENCE,
    MIN_DEFENSE,
    SETTING_KEYS,
    Settings,
)

TOP_KEYS = ("ruleset", "name", "seed", "turn", "max_turns", "settings", "factions",
            "next_pillar", "in_progress", "rng", "fallen")
FACTION_KEYS = ("id", "name", "agent", "agent_options", "alive", "faction_dice", "engagement",
                "mercenary", "renown", "exposed_since", "may_engage", "pillars")
PILLAR_KEYS = ("id", "name", "kind", "competence", "defense", "circles", "wounds", "boons")
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
#: setting -> (kind, low, high)
SETTING_RANGES: dict[str, tuple[type, float, float]] = {
    "pillar_cap": (int, 1, 10), "income_base": (int, 0, 20), "income_per_pillars": (int, 1, 10),
    "heal_cost": (int, 0, 10), "gm_deferral": (float, 0, 1), "grievance_dice": (int, 0, 3),
    "engagements_per_turn": (int, 0, 5), "build_competence_max": (int, 1, MAX_COMPETENCE),
    "build_defense_max": (int, 0, MAX_DEFENSE), "renown_score": (float, 0, 100),
}
assert set(SETTING_RANGES) == set(SETTING_KEYS)
#: settings where null means "no limit"
NULLABLE_SETTINGS = ("engagements_per_turn",)

Path = tuple[str | int, ...]


def validate(data: Mapping[str, Any], source: str, lines: Mapping[Any, int] | None = None
             ) -> dict[str, Any]:
    """Check a scenario and return the normalized dict ``EngagementsState.from_dict`` accepts."""
    return _Validator(source, lines or {}).campaign(data)


class _Validator(FieldChecker):
    def fail(self, path: Path, problem: str, value: Any = None, show: bool = True) -> NoReturn:
        got = f" (got {value!r})" if show else ""
        raise CampaignError(f"{self.where(path)}: {problem}{got}.")

    def keys(self, d: Any, path: Path, allowed: tuple[str, ...], what: str) -> None:
        if not isinstance(d, Mapping):
            self.fail(path, f"{what} must be a mapping of fields", d)
        for k in d:
            if k not in allowed:
                close = difflib.get_close_matches(str(k), allowed, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                self.fail((*path, k), f"unknown field {k!r}{hint}; allowed: {', '.join(allowed)}",
                          show=False)

    def integer(self, d: Mapping[str, Any], key: str, path: Path, low: int, high: int | None,
                default: Any = None) -> Any:
        if key not in d or d[key] is None:
            return default
        v = d[key]
        if isinstance(v, bool) or not isinstance(v, int) or v < low or (high is not None and v > high):
            rng = f"from {low} to {high}" if high is not None else f">= {low}"
            self.fail((*path, key), f"must be a whole number {rng}", v)
        return v

    def slug(self, v: Any, path: Path) -> str:
        if not isinstance(v, str) or not SLUG.match(v):
            self.fail(path, "must be a slug of lowercase letters, digits and '-' (e.g. 'iron-court')", v)
        return v

    # ------------------------------------------------------------------ the campaign
    def campaign(self, data: Mapping[str, Any]) -> dict[str, Any]:
        self.keys(data, (), TOP_KEYS, "the scenario")
        out = copy.deepcopy(dict(data))
        if "name" in data and not isinstance(data["name"], str):
            self.fail(("name",), "must be text", data["name"])
        self.integer(data, "seed", (), 0, None)
        out["turn"] = self.integer(data, "turn", (), 0, None, 0)
        mt = self.integer(data, "max_turns", (), 1, None)
        if mt is not None and mt < out["turn"]:
            self.fail(("max_turns",), f"must not be below turn ({out['turn']})", mt)
        out["settings"] = self.settings(data.get("settings") or {})
        factions = data.get("factions")
        if not isinstance(factions, list) or len(factions) < 2:
            self.fail(("factions",), "must be a list of at least two factions", factions)
        ids = []
        for i, fd in enumerate(factions):
            self.keys(fd, ("factions", i), FACTION_KEYS, "a faction")
            if "id" not in fd:
                self.fail(("factions", i), "a faction needs an id", show=False)
            fid = self.slug(fd["id"], ("factions", i, "id"))
            if fid in ids:
                self.fail(("factions", i, "id"), "duplicate faction id; give each faction its own", fid)
            ids.append(fid)
        pillar_numbers: dict[int, Path] = {}
        out["factions"] = [self.faction(fd, ("factions", i), ids, out["settings"], pillar_numbers)
                           for i, fd in enumerate(factions)]
        self.integer(data, "next_pillar", (), 1, None)
        if "in_progress" in data and not isinstance(data["in_progress"], Mapping):
            self.fail(("in_progress",), "must be the mapping a saved game writes", data["in_progress"])
        return out

    def settings(self, s: Any) -> dict[str, Any]:
        self.keys(s, ("settings",), SETTING_KEYS, "settings")
        for k, v in s.items():
            kind, low, high = SETTING_RANGES[k]
            if v is None and k in NULLABLE_SETTINGS:
                continue
            ok = (not isinstance(v, bool) and isinstance(v, (int, float) if kind is float else int)
                  and low <= v <= high)
            if not ok:
                what = "a number" if kind is float else "a whole number"
                none = " or null (no limit)" if k in NULLABLE_SETTINGS else ""
                self.fail(("settings", k), f"must be {what} from {low:g} to {high:g}{none}", v)
        Settings.from_dict(s)
        return dict(s)

    def faction(self, fd: Mapping[str, Any], path: Path, ids: list[str], settings: dict[str, Any],
                numbers: dict[int, Path]) -> dict[str, Any]:
        out = dict(copy.deepcopy(fd))
        if "name" in fd and not isinstance(fd["name"], str):
            self.fail((*path, "name"), "must be text", fd["name"])
        # agent and agent_options: checked against the agents it offers when the campaign loads
        if not isinstance(fd.get("agent_options", {}), Mapping):
            self.fail((*path, "agent_options"), "must be a mapping", fd["agent_options"])
        if not isinstance(fd.get("alive", True), bool):
            self.fail((*path, "alive"), "must be true or false", fd["alive"])
        out["faction_dice"] = self.integer(fd, "faction_dice", path, 0, None, 0)
        out["mercenary"] = self.integer(fd, "mercenary", path, 0, None)
        self.integer(fd, "renown", path, 0, None)
        pools = fd.get("engagement") or {}
        if not isinstance(pools, Mapping):
            self.fail((*path, "engagement"), "must map rival faction ids to engagement dice", pools)
        for rival in pools:
            if rival not in ids or rival == fd["id"]:
                self.fail((*path, "engagement", rival),
                          f"engagement dice must be held against another faction; one of "
                          f"{', '.join(i for i in ids if i != fd['id'])}", rival)
            self.integer(pools, rival, (*path, "engagement"), 0, None)
        ready = fd.get("may_engage", [])
        if not isinstance(ready, list) or any(r not in ids or r == fd["id"] for r in ready):
            self.fail((*path, "may_engage"), "must list rival faction ids (the rivals it gained "
                      "engagement dice against since it last engaged them)", ready)
        pillars = fd.get("pillars") or []
        if not isinstance(pillars, list):
            self.fail((*path, "pillars"), "must be a list of pillars", pillars)
        cap = settings.get("pillar_cap", Settings().pillar_cap)
        if len(pillars) > cap:
            self.fail((*path, "pillars"), f"at most {cap} pillars per faction (settings.pillar_cap)",
                      len(pillars))
        out["pillars"] = [self.pillar(pd, (*path, "pillars", j), numbers)
                          for j, pd in enumerate(pillars)]
        return out

    def pillar(self, pd: Any, path: Path, numbers: dict[int, Path]) -> dict[str, Any]:
        self.keys(pd, path, PILLAR_KEYS, "a pillar")
        for key in ("name", "competence", "defense"):
            if key not in pd:
                self.fail(path, f"a pillar needs {key!r} (name, competence {MIN_COMPETENCE}-"
                          f"{MAX_COMPETENCE}, defense {MIN_DEFENSE}-{MAX_DEFENSE})", show=False)
        if not isinstance(pd["name"], str) or not pd["name"].strip():
            self.fail((*path, "name"), "must be non-empty text", pd["name"])
        self.integer(pd, "competence", path, MIN_COMPETENCE, MAX_COMPETENCE)
        self.integer(pd, "defense", path, MIN_DEFENSE, MAX_DEFENSE)
        circles = self.integer(pd, "circles", path, 1, 10, 3)
        self.integer(pd, "wounds", path, 0, circles - 1)
        n = self.integer(pd, "id", path, 1, None)
        if n is not None:
            if n in numbers:
                self.fail((*path, "id"), f"pillar number already used at {format_path(numbers[n])}", n)
            numbers[n] = path
        kind = pd.get("kind", "other")
        if kind not in KINDS:
            self.fail((*path, "kind"), f"unknown kind; allowed: {', '.join(KINDS)}", kind)
        boons = pd.get("boons", [])
        if not isinstance(boons, list):
            self.fail((*path, "boons"), f"must be a list of boons ({', '.join(BOONS)})", boons)
        for b in boons:
            if b not in BOONS:
                self.fail((*path, "boons"), f"unknown boon; allowed: {', '.join(BOONS)}", b)
        return dict(pd)
