"""The campaign's ``foundry`` block: where each faction came from in Foundry VTT.

``factionsim foundry import`` keeps, for every faction it imported, the actor exactly as read,
so that ``factionsim foundry export`` can write it back with every field factionsim does not own
untouched (ids, images, token, flags, ownership, ``_stats``, custom tags, the log...)::

    foundry:
      actors:
        - faction: the-gilded-concord      # the campaign faction
          file: fvtt-Actor-the-gilded-concord-Oxq8xsRqkk711grH.json   # read from (a note)
          imported_turn: 0                 # the campaign's turn at the import
          goal: wealth-of-kingdoms         # the goal the sheet gave (null: none factionsim plays)
          items: {J39ic2wmZElBo8cS: 1}     # item _id -> asset number (type#number)
          locations: {Varenna: varenna}    # Foundry's text -> location id
          actor: '{"name":"The Gilded Concord","type":"faction",...}'   # as imported

The actor is kept as one line of JSON text: exactly what was read, and a plain string, so the
engine copies it for free when it copies a state (planners copy states thousands of times a
turn; a nested mapping of that size made every copy slower).

Everything here is written by the importer; the exporter reads it back with :func:`read_block`,
which refuses a damaged block with the campaign file, line and field path.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any, NoReturn

from factionsim.core.campaign import FieldChecker, FieldPath

from .actor import FoundryFaction, read_faction
from .jsonio import FoundryError, parse_json

ENTRY_KEYS = ("faction", "file", "imported_turn", "goal", "items", "locations", "actor")


@dataclass(slots=True)
class ActorLink:
    """One imported actor (an entry of ``foundry.actors``)."""

    faction: str
    file: str
    imported_turn: int
    goal: str | None
    items: dict[str, int]
    locations: dict[str, str]
    actor: dict[str, Any]
    parsed: FoundryFaction | None = field(default=None, repr=False, compare=False)

    def to_data(self) -> dict[str, Any]:
        return {"faction": self.faction, "file": self.file, "imported_turn": self.imported_turn,
                "goal": self.goal, "items": dict(self.items), "locations": dict(self.locations),
                "actor": json.dumps(self.actor, ensure_ascii=False, separators=(",", ":"))}


class _BlockChecker(FieldChecker):
    def fail(self, path: FieldPath, problem: str, allowed: str = "") -> NoReturn:
        raise FoundryError(f"{self.where(path)}: {problem}"
                           + (f"; allowed: {allowed}" if allowed else "")
                           + " (the block is written by 'factionsim foundry import'; import the "
                           "actor again to rewrite it).")


def read_block(value: Any, source: str, lines: Any = None) -> list[ActorLink]:
    """The links of a campaign's ``foundry`` value (``None``: no block), checked."""
    if value is None:
        return []
    check = _BlockChecker(source, lines or {})
    root: FieldPath = ("foundry",)
    if not isinstance(value, dict) or set(value) - {"actors"}:
        check.fail(root, "must be a mapping with one field, 'actors'")
    actors = value.get("actors", [])
    if not isinstance(actors, list):
        check.fail((*root, "actors"), "must be a list of imported actors")
    links: list[ActorLink] = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(actors):
        path = (*root, "actors", i)
        if not isinstance(entry, dict):
            check.fail(path, "must be a mapping", ", ".join(ENTRY_KEYS))
        for key in entry:
            if key not in ENTRY_KEYS:
                close = difflib.get_close_matches(str(key), ENTRY_KEYS, n=1)
                check.fail((*path, key), f"unknown field {key!r}"
                           + (f" (did you mean {close[0]!r}?)" if close else ""), ", ".join(ENTRY_KEYS))
        for key in ENTRY_KEYS:
            if key not in entry:
                check.fail(path, f"missing field {key!r}", ", ".join(ENTRY_KEYS))
        if not isinstance(entry["faction"], str) or not isinstance(entry["file"], str):
            check.fail(path, "'faction' and 'file' must be text")
        if entry["faction"] in seen:
            check.fail((*path, "faction"), f"faction {entry['faction']!r} is already linked at "
                       f"foundry.actors[{seen[entry['faction']]}]", "one entry per faction")
        seen[entry["faction"]] = i
        turn = entry["imported_turn"]
        if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
            check.fail((*path, "imported_turn"), "must be a whole number >= 0")
        if entry["goal"] is not None and not isinstance(entry["goal"], str):
            check.fail((*path, "goal"), "must be a goal id or null")
        items = entry["items"]
        if not isinstance(items, dict) or not all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 1
                for k, v in items.items()):
            check.fail((*path, "items"), "must map item ids to asset numbers (whole numbers >= 1)")
        places = entry["locations"]
        if not isinstance(places, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in places.items()):
            check.fail((*path, "locations"), "must map Foundry location text to location ids")
        if not isinstance(entry["actor"], str):
            check.fail((*path, "actor"), "must be the actor's JSON text")
        line = check.line((*path, "actor"))
        where = f"{source}, line {line}" if line is not None else source
        where += f", foundry.actors[{i}].actor"
        actor = parse_json(entry["actor"].encode("utf-8"), where)
        parsed = read_faction(actor, where)
        links.append(ActorLink(entry["faction"], entry["file"], turn, entry["goal"], dict(items),
                               dict(places), actor, parsed))
    return links


def block_data(links: list[ActorLink]) -> dict[str, Any]:
    """The ``foundry`` value for ``links``."""
    return {"actors": [link.to_data() for link in links]}
