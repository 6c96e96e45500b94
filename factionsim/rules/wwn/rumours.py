"""A WWN turn as rumours: :func:`facts` turns a turn's events into the facts the phrase grammar
``rumours.yaml`` tells (:data:`RUMOURS`; the engine is :mod:`factionsim.core.rumours`).

Each fact is heard of at a place: where the event happened (an attack's location, a move's
destination), else where the asset concerned stands, else the faction's headquarters. Facts
give names, never numbers: a rumour says the Guild's Caravan was destroyed, not by how much.
The GM's events give facts the players' never do (a goal achieved, an asset hidden): the GM's
headline may tell them.

>>> from factionsim.core.game import Event
>>> from factionsim.core.names import Names
>>> n = Names({"g": "The Silver Guild", "h": "The Red Hand"}, {"c": "Coldvale"},
...           {"caravan": "Caravan", "thugs": "Thugs"}, "wwn")
>>> [(f.key, f.place, f.slots["asset"], f.slots["kind"]) for f in facts([Event(2, "destroyed",
...     "h", {"asset": "caravan#3", "owner": "g", "location": "c", "cause": "attack"})], None, n)]
[('destroyed', 'Coldvale', "the Silver Guild's Caravan", 'Caravan')]
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from factionsim.core.game import Event
from factionsim.core.names import Names
from factionsim.core.rumours import Fact, RumourBook, number_word

from .data import ATTRIBUTES, BASE_OF_INFLUENCE
from .goals import GOALS

#: where a rumour is heard when nothing says where
ABROAD = "Abroad"
#: events that bring an asset to a place: a Move Asset, an ability carrying it, a delayed arrival
MOVES = ("move", "transport", "arrive")


def the(name: str) -> str:
    """A name as it reads inside a sentence: ``The Silver Guild`` -> ``the Silver Guild``."""
    return "the" + name[3:] if name.startswith("The ") else name


class _Turn:
    """What the facts of one turn need to know: names, and where each asset and headquarters is."""

    def __init__(self, frame: dict[str, Any] | None, names: Names):
        self.n = names
        self.where: dict[str, str] = {}
        self.hq: dict[str, str] = {}
        self.attackers: dict[str, str] = {}  # asset id -> the faction that last attacked it
        for f in (frame or {}).get("factions") or []:
            if f.get("headquarters"):
                self.hq[f["id"]] = f["headquarters"]
            for a in f.get("assets") or []:
                if a.get("id") is not None:
                    self.where[f"{a['type']}#{a['id']}"] = a.get("location", "")

    def faction(self, fid: str | None) -> str:
        return the(self.n.faction(fid))

    def kind(self, aid: str) -> str:
        """An asset's kind in a rumour (a Base of Influence is a faction's *hold*)."""
        return "hold" if _is_base(aid) else self.n.asset(aid)

    def asset(self, aid: str, owner: str | None) -> dict[str, str]:
        """The slots that name an asset: ``asset`` (the Guild's Caravan), ``owner``, ``kind``."""
        return {"asset": f"{self.faction(owner)}'s {self.kind(aid)}", "owner": self.faction(owner),
                "kind": self.kind(aid)}

    def place(self, lid: str | None, fid: str | None = None) -> str:
        """The place a fact is heard at (a location's name; the faction's headquarters; abroad)."""
        lid = lid or self.hq.get(fid or "")
        return self.n.place(lid) if lid else ABROAD

    def at(self, aid: str | None, fid: str | None) -> str:
        return self.place(self.where.get(aid or ""), fid)


def _is_base(aid: Any) -> bool:
    return isinstance(aid, str) and aid.startswith(BASE_OF_INFLUENCE + "#")


def _attack(e: Event, t: _Turn) -> Fact:
    d = e.data
    base = _is_base(d["defender"])
    key = ("attack-base-hit" if base else "attack-hit") if d.get("success") else "attack-repulsed"
    t.attackers[d["defender"]] = e.faction or ""
    slots = {"attacker": f"{t.faction(e.faction)}'s {t.kind(d['attacker'])}",
             "attacker_faction": t.faction(e.faction),
             "defender": f"{t.faction(d['target_faction'])}'s {t.kind(d['defender'])}",
             "defender_faction": t.faction(d["target_faction"]), "where": the(t.n.place(d["location"]))}
    return Fact(key, e.kind, t.place(d["location"]), slots,
                (e.faction or "", d["target_faction"]))


def _destroyed(e: Event, t: _Turn) -> Fact:
    d = e.data
    by = t.attackers.get(d["asset"]) if d.get("cause") == "attack" else None
    key = "base-destroyed" if _is_base(d["asset"]) else "destroyed"
    slots = t.asset(d["asset"], d["owner"])
    if by and by != d["owner"]:
        key += "-by"
        slots["by"] = t.faction(by)
    return Fact(key, e.kind, t.place(d.get("location"), d["owner"]), slots,
                (by, d["owner"]) if by else (d["owner"],))


def _ability(e: Event, t: _Turn) -> Fact:
    d = e.data
    slots = {"source": f"{t.faction(e.faction)}'s {t.kind(d['source'])}" if d.get("source")
             else t.faction(e.faction), "who": t.faction(e.faction)}
    target = d.get("target")
    owner = d.get("target_faction")
    if isinstance(target, str) and "#" in target:
        slots["target"] = f"{t.faction(owner)}'s {t.kind(target)}" if owner else t.kind(target)
    else:
        slots["target"] = t.faction(owner) if owner else "their rivals"
    return Fact("ability", e.kind, t.at(d.get("source"), e.faction),
                {**slots, "deed": _DEEDS.get(d.get("effect", ""), "worked against")},
                (e.faction or "", *((owner,) if owner else ())))


#: how an ability used against others reads ("{source} {deed} {target}")
_DEEDS = {"pin": "pinned down", "sabotage": "sabotaged", "treachery": "turned",
          "infest": "set vermin upon", "stun": "stunned", "stun-attempt": "tried to stun",
          "plunder": "plundered", "disabled": "seized and held to ransom",
          "supply-interruption": "cut the supplies of", "entry-refused": "barred the way to",
          "delay-entry": "delayed", "negate-attack": "turned aside the blow of",
          "zeal": "whipped into a frenzy against"}


def _goal(e: Event, t: _Turn) -> Fact:
    return Fact("goal-complete", e.kind, t.place(None, e.faction),
                {"who": t.faction(e.faction),
                 "goal": t.n.goals.get(e.data["goal"]) or GOALS.get(e.data["goal"], e.data["goal"])},
                (e.faction or "",))


def _one(e: Event, t: _Turn) -> list[Fact]:  # noqa: PLR0911 - one branch per event kind
    d, who = e.data, e.faction
    if e.kind == "attack":
        return [_attack(e, t)]
    if e.kind == "destroyed":
        return [_destroyed(e, t)]
    if e.kind == "collapse":
        return [Fact("collapse-by" if d.get("by") and d["by"] != who else "collapse", e.kind,
                     t.place(None, who), {"who": t.faction(who), "by": t.faction(d.get("by"))},
                     (who or "", *((d["by"],) if d.get("by") else ())))]
    if e.kind == "rumour":
        key = "revealed-attack" if d.get("reason") == "attacked" else "revealed"
        return [Fact(key, e.kind, t.place(d.get("location"), who), t.asset(d["asset"], who),
                     (who or "",))]
    if e.kind in MOVES:
        src = the(t.n.place(d["from"]))
        return [Fact("move", e.kind, t.place(d["to"]), {**t.asset(d["asset"], who), "from": src},
                     (who or "",))]
    if e.kind in ("base-planted", "base-lost"):
        return [Fact(e.kind, e.kind, t.place(d["location"]), {"who": t.faction(who)},
                     (who or "",))]
    if e.kind == "create":
        return [Fact("create", e.kind, t.place(d["location"]), t.asset(d["asset"], who),
                     (who or "",))]
    if e.kind in ("repair", "sell", "exposed", "asset-lost"):
        return [Fact(e.kind, e.kind, t.place(d.get("location")) if d.get("location")
                     else t.at(d["asset"], who), t.asset(d["asset"], who), (who or "",))]
    if e.kind == "repair-faction":
        return [Fact("recover", e.kind, t.place(None, who), {"who": t.faction(who)},
                     (who or "",))]
    if e.kind == "raise":
        return [Fact(f"raise-{d['attribute']}" if d["attribute"] in ATTRIBUTES else "raise",
                     e.kind, t.place(None, who), {"who": t.faction(who)}, (who or "",))]
    if e.kind == "upkeep":
        return [Fact("upkeep-lost", e.kind, t.at(a, who), t.asset(a, who), (who or "",))
                for a in d.get("lost") or ()]
    if e.kind == "ability" and (d.get("target") or d.get("target_faction")):
        return [_ability(e, t)]
    if e.kind == "goal-complete":
        return [_goal(e, t)]
    return []


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{number_word(n)} times")


def _listed(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _assault(group: list[tuple[Fact, Event]]) -> Fact:
    """Several attacks of one faction on another at one place: how many, how many landed."""
    first = group[0][0]
    hits = sum(bool(e.data.get("success")) for _, e in group)
    outcome = ("every blow struck home" if hits == len(group) else
               "none of the blows landed" if hits == 0 else
               f"{number_word(hits)} of the blows landed")
    return replace(first, key="assault", slots={
        "attacker_faction": first.slots["attacker_faction"],
        "defender_faction": first.slots["defender_faction"], "times": _times(len(group)),
        "outcome": outcome})


def _muster(group: list[tuple[Fact, Event]]) -> Fact:
    """Several assets of one faction arriving at one place: which, and how many of each."""
    first = group[0][0]
    kinds = Counter(f.slots["kind"] for f, _ in group)
    troops = [f"{number_word(n)} companies of {k}" if n > 1 else k for k, n in kinds.items()]
    return replace(first, key="muster", slots={"owner": first.slots["owner"],
                                               "troops": _listed(troops)})


def _compact(told: list[tuple[Fact, Event]]) -> list[Fact]:
    """Fewer, fuller facts: an attack on an asset destroyed that turn is told by its
    destruction; a faction's attacks on another at one place are one assault; its assets
    arriving at one place are one muster."""
    destroyed = {(e.turn, e.data["asset"]) for _, e in told if e.kind == "destroyed"}
    told = [(f, e) for f, e in told
            if not (e.kind == "attack" and (e.turn, e.data["defender"]) in destroyed)]
    groups: dict[tuple[Any, ...], list[tuple[Fact, Event]]] = {}
    for f, e in told:
        if e.kind == "attack":
            groups.setdefault(("attack", e.turn, e.faction, e.data["target_faction"], f.place),
                              []).append((f, e))
        elif e.kind in MOVES:
            groups.setdefault(("move", e.turn, e.faction, f.place), []).append((f, e))
    out: list[Fact] = []
    for f, e in told:
        key = (("attack", e.turn, e.faction, e.data["target_faction"], f.place)
               if e.kind == "attack" else ("move", e.turn, e.faction, f.place)
               if e.kind in MOVES else None)
        group = groups.get(key) if key else None
        if not group or len(group) == 1:
            out.append(f)
        elif group[0][0] is f:  # told once, where the first of them happened
            out.append(_assault(group) if e.kind == "attack" else _muster(group))
    return out


def facts(events: list[Event], frame: dict[str, Any] | None, names: Names) -> list[Fact]:
    """The facts ``events`` tell (each with its event's turn), ``frame`` the campaign data
    before them."""
    t = _Turn(frame, names)
    told: list[tuple[Fact, Event]] = []
    for e in events:
        told += [(replace(f, turn=e.turn), e) for f in _one(e, t)]
        if e.kind in MOVES:
            t.where[e.data["asset"]] = e.data["to"]
        elif e.kind == "create":
            t.where[e.data["asset"]] = e.data["location"]
    return _compact(told)


RUMOURS = RumourBook(facts=facts, package=__package__)
