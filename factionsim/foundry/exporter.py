"""A WWN campaign -> Foundry VTT faction actors (``factionsim foundry export``).

:func:`export_campaign` writes one actor file per faction, ready for Foundry's Import Data (on
an existing Faction actor). The campaign file is only read.

A faction imported from Foundry starts from its actor as imported (the campaign's ``foundry``
block, :mod:`factionsim.foundry.block`), and factionsim writes only what it owns:

- the name, ``health`` (current HP; ``max`` recomputed from the ratings), the three ratings,
  ``magicRating`` (the original spelling kept when the level is unchanged, else lowercase),
  ``facCreds`` (Treasure), ``xp``, ``homeworld`` (the original text while the headquarters has not
  moved), ``active`` (false once the faction has collapsed);
- the goal: unchanged since the import, both goal fields stay as they were; changed, the goal's
  name and a description of it (the sheet stores no difficulty or progress);
- the tags: the original entries of tags the faction still has, and every tag factionsim does
  not play, in their order; tags gained are appended;
- the log: the original entries, then one entry per turn played since (:mod:`.log`);
- the items: an asset still in play keeps its item with ``health``, ``location`` (the original
  text while it has not moved) and ``stealthed`` updated; an asset gone from play loses its item;
  a new asset (or the headquarters Base the rules added) gets a new item from the asset table
  with a stable id; items that are not assets are kept as they are.

Everything else (``_stats``, ``prototypeToken``, ``flags``, ``ownership``, ``folder``, images, item
envelopes, 1.x extras such as ``attackSpecial``) is written back untouched. Keys are written in
the order of the reference; keys it does not list follow, as they were. A faction not from
Foundry gets an actor made from scratch (Foundry v13 / WWN 1.6.1 layout, which v14 migrates).
The same campaign always gives byte-identical files.
"""

from __future__ import annotations

import copy
import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factionsim.core.campaign import load_campaign_data
from factionsim.core.files import write_atomic
from factionsim.core.names import Names
from factionsim.rules.wwn.data import ATTRIBUTES, BASE_OF_INFLUENCE
from factionsim.rulesets import load_campaign

from .actor import (
    ACTOR_KEYS,
    ASSET_SYSTEM,
    CORE_VERSION,
    DERIVED_KEYS,
    FACTION_SYSTEM,
    ID_PATTERN,
    ITEM_KEYS,
    SYSTEM_VERSION,
    Field,
    new_actor,
    new_asset_item,
    proper_numbers,
    stable_id,
)
from .block import ActorLink, read_block
from .jsonio import FoundryError, json_text
from .log import entry_html, logged_turn, turn_entry
from .names import GOAL_NAMES, TAG_NAMES, catalogue, slugify


@dataclass
class ExportResult:
    """The files written, and what the GM should know."""

    campaign: str
    files: dict[str, str] = field(default_factory=dict)  # faction id -> file
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"campaign": self.campaign, "files": self.files, "notes": self.notes}


def export_campaign(campaign: Path, out: Path, factions: list[str] | None = None,
                    view: str = "gm") -> ExportResult:
    """Write ``out/fvtt-Actor-<name>-<id>.json`` for each faction (or those in ``factions``).

    ``view`` ``"players"`` writes what the players may know
    (:mod:`factionsim.chronicle.views`): no Treasure, XP or goal fields, no item for a Stealthed
    asset, and log entries that are the rumours of the players' chronicle concerning the faction.
    """
    state = load_campaign(campaign)
    if state.ruleset != "wwn":
        raise FoundryError(f"{campaign}: a {state.ruleset} campaign; only WWN factions have a "
                           "Foundry faction sheet.")
    data, lines = load_campaign_data(campaign)
    links = {link.faction: link for link in read_block(data.get("foundry"), str(campaign), lines)}
    result = ExportResult(str(campaign))
    for fid in links:
        if fid not in state.factions:
            result.notes.append(f"foundry.actors: faction {fid!r} is no longer in the campaign; "
                                "its actor is not exported.")
    wanted = list(state.factions)
    for fid in factions or []:
        if fid not in state.factions:
            raise FoundryError(f"--faction {fid!r}: no such faction in {campaign}; allowed: "
                               + ", ".join(wanted) + ".")
    log = _LogWriter(campaign, state, view)
    out.mkdir(parents=True, exist_ok=True)
    for fid in factions or wanted:
        link = links.get(fid)
        actor = _ActorWriter(state, fid, link, log).actor()
        path = out / f"fvtt-Actor-{slugify(actor['name']) or 'faction'}-{_actor_id(fid, link)}.json"
        write_atomic(path, json_text(actor))
        result.files[fid] = str(path)
    if log.missing:
        result.notes.append("no events recorded for turn(s) " + ", ".join(map(str, sorted(log.missing)))
                            + f" (played without 'factionsim turn'?): {campaign}'s history has "
                            "none, so the logs have no entries for them.")
    return result


def _actor_id(fid: str, link: ActorLink | None) -> str:
    """The id in the file name: the actor's own (from its export) when known."""
    uuid = link.parsed.uuid if link is not None and link.parsed is not None else None
    tail = (uuid or "").rsplit(".", 1)[-1]
    return tail if ID_PATTERN.match(tail) else stable_id("actor", fid)


#: the sheet's fields the players do not see (Treasure, XP, the goal)
SECRET_FIELDS = ("facCreds", "xp", "factionGoal", "factionGoalDesc")


class _LogWriter:
    """Log entries of the campaign's recorded turns (from its history folder), as ``view``
    knows them."""

    def __init__(self, campaign: Path, state: Any, view: str):
        from factionsim.chronicle.record import CampaignRecord

        self.record = CampaignRecord(campaign, view, state)
        self.history = self.record.history
        self.names = Names.from_state(state)
        self.turn = state.turn
        self.view = view
        self.missing: set[int] = set()
        self._entries: dict[tuple[int, str], str | None] = {}

    def entry(self, turn: int, faction: str) -> str | None:
        """Turn ``turn``'s entry for ``faction`` (``None``: nothing concerned it)."""
        if (turn, faction) not in self._entries:
            events = self.history.events(turn)
            if not events:
                self.missing.add(turn)
                entry = None
            elif self.view == "players":
                story = self.record.story(turn)
                lines = [] if story is None else [
                    f"{fact.place}: {text}." for fact, text in story.facts
                    if faction in fact.factions]
                entry = entry_html(turn, lines, self.names)
            else:
                entry = turn_entry(turn, events, self.names, faction)
            self._entries[(turn, faction)] = entry
        return self._entries[(turn, faction)]

    def entries(self, faction: str, log: list[str], since: int) -> list[str]:
        """``log`` with an entry for each turn after ``since`` (or after the last turn the log
        already tells, when an earlier export wrote it)."""
        last = logged_turn(log)
        start = min(last if last is not None else since, self.turn)
        out = list(log)
        for turn in range(start + 1, self.turn + 1):
            entry = self.entry(turn, faction)
            if entry is not None:
                out.append(entry)
        return out


def _ordered(original: dict[str, Any], keys: tuple[str, ...], values: dict[str, Any]
             ) -> dict[str, Any]:
    """``keys`` in order (from ``values``, else ``original``), then the other original keys."""
    out = {k: values[k] if k in values else original[k] for k in keys
           if k in values or k in original}
    out.update((k, v) for k, v in original.items() if k not in out)
    return out


def _defaults(specs: tuple[Field, ...]) -> dict[str, Any]:
    return {f.key: f.default_value() for f in specs}


class _ActorWriter:
    """Builds one faction's actor (see the module docstring)."""

    def __init__(self, state: Any, fid: str, link: ActorLink | None, log: _LogWriter):
        self.state, self.fid, self.link, self.log = state, fid, link, log
        self.f = state.factions[fid]
        self.base = copy.deepcopy(link.actor) if link else new_actor(self.f.name)
        stats = self.base.get("_stats") if isinstance(self.base.get("_stats"), dict) else {}
        self.versions = {"core_version": stats.get("coreVersion", CORE_VERSION),
                         "system_version": stats.get("systemVersion", SYSTEM_VERSION)}

    def place_text(self, original: str, location: str) -> str:
        """The original text while the place is the same, else the location's name."""
        if self.link is not None and self.link.locations.get(original.strip()) == location:
            return original
        return self.state.map.locations[location].name

    def actor(self) -> dict[str, Any]:
        original = self.base
        system = original.get("system") or {}
        fresh = new_actor(self.f.name, **self.versions)
        values = {"name": self.f.name, "system": self._system(system),
                  "items": self._items(original.get("items") or [])}
        for key in ACTOR_KEYS:  # a key the file lacked: the default of a new actor
            if key not in original and key not in values:
                values[key] = fresh[key]
        return _ordered(original, ACTOR_KEYS, values)

    # -------------------------------------------------------------- the sheet
    def _system(self, system: dict[str, Any]) -> dict[str, Any]:
        f = self.f
        health = system.get("health") if isinstance(system.get("health"), dict) else {}
        values: dict[str, Any] = {
            "health": _ordered(health, ("value", "max"), {"value": f.hp, "max": f.max_hp}),
            "forceRating": f.force, "cunningRating": f.cunning, "wealthRating": f.wealth,
            "magicRating": self._magic(system.get("magicRating")),
            "facCreds": f.treasure, "xp": f.xp,
            "homeworld": self.place_text(str(system.get("homeworld", "")), f.headquarters),
            "tags": self._tags(system.get("tags") or []),
            "log": self.log.entries(self.fid, list(system.get("log") or []),
                                    self.link.imported_turn if self.link else 0),
        }
        if not f.alive:
            values["active"] = False
        values.update(self._goal(system))
        defaults = _defaults(FACTION_SYSTEM)
        kept = {k: v for k, v in system.items() if k not in DERIVED_KEYS}
        out = proper_numbers(_ordered({**{k: v for k, v in defaults.items() if k not in kept},
                                       **kept}, tuple(defaults), values), FACTION_SYSTEM)
        if self.log.view == "players":
            out = {k: v for k, v in out.items() if k not in SECRET_FIELDS}
        return out

    def _magic(self, original: Any) -> str:
        if isinstance(original, str) and original.strip().casefold() == self.f.magic:
            return original
        return self.f.magic

    def _goal(self, system: dict[str, Any]) -> dict[str, str]:
        goal = self.f.goal
        current = goal.id if goal is not None else None
        if self.link is not None and current == self.link.goal and "factionGoal" in system:
            return {}
        if goal is None:
            return {"factionGoal": "", "factionGoalDesc": ""}
        text = html.escape(catalogue()["goals"][goal.id], quote=False)
        if goal.target:
            text += f" Target: {html.escape(self._target(goal.target), quote=False)}."
        return {"factionGoal": GOAL_NAMES.names[goal.id], "factionGoalDesc": f"<p>{text}</p>"}

    def _target(self, target: str) -> str:
        names = self.log.names
        if "@" in target:
            owner, place = target.split("@", 1)
            return f"{names.faction(owner)}'s Base of Influence at {names.place(place)}"
        if target in self.state.assets:
            return names.asset(target, self.state.assets[target].owner)
        return target.title() if target in ATTRIBUTES else target

    def _tags(self, original: list[Any]) -> list[Any]:
        have = list(self.f.tags)
        out, told = [], set()
        for tag in original:
            ident = TAG_NAMES.find(str(tag.get("name", ""))) if isinstance(tag, dict) else None
            if ident is None:
                out.append(tag)  # not played by factionsim: kept as it is
            elif ident in have and ident not in told:
                out.append(tag)
                told.add(ident)
        out += [{"name": TAG_NAMES.names[t], "desc": catalogue()["tags"][t]}
                for t in have if t not in told]
        return out

    # -------------------------------------------------------------- the items
    def _items(self, original: list[Any]) -> list[Any]:
        """The faction's asset items (for the players: those not Stealthed), other items kept."""
        by_number = {int(a.id.rsplit("#", 1)[1]): a for a in self.state.assets_of(self.fid)
                     if not (a.stealth and self.log.view == "players")}
        linked = self.link.items if self.link else {}
        out: list[Any] = []
        told: set[int] = set()
        for item in original:
            if not isinstance(item, dict) or item.get("type") != "asset":
                out.append(item)  # not a faction asset: kept as it is
                continue
            n = linked.get(str(item.get("_id")))
            if n in by_number and n not in told:  # still in play and still the faction's
                out.append(self._updated_item(item, by_number[n]))
                told.add(n)
        taken = {str(item.get("_id")) for item in out if isinstance(item, dict)}
        sorts = [item["sort"] for item in out if isinstance(item, dict)
                 and isinstance(item.get("sort"), int) and not isinstance(item.get("sort"), bool)]
        sort = max(sorts, default=-100000)
        for n, asset in by_number.items():
            if n not in told:
                sort += 100000
                item_id = stable_id("item", self.fid, str(n), taken=taken)
                taken.add(item_id)
                out.append(self._new_item(item_id, asset, sort))
        return out

    def _updated_item(self, item: dict[str, Any], asset: Any) -> dict[str, Any]:
        system = item.get("system") if isinstance(item.get("system"), dict) else {}
        health = system.get("health") if isinstance(system.get("health"), dict) else {}
        values = {"health": _ordered(health, ("value", "max"),
                                     {"value": asset.hp, "max": asset.max_hp}),
                  "location": self.place_text(str(system.get("location", "")), asset.location),
                  "stealthed": asset.stealth}
        defaults = _defaults(ASSET_SYSTEM)
        body = _ordered({**{k: v for k, v in defaults.items() if k not in system}, **system},
                        tuple(defaults), values)
        return _ordered(item, ITEM_KEYS, {"system": proper_numbers(body, ASSET_SYSTEM)})

    def _new_item(self, item_id: str, asset: Any, sort: int) -> dict[str, Any]:
        place = self.state.map.locations[asset.location].name
        common = {"health": {"value": asset.hp, "max": asset.max_hp}, "location": place,
                  "stealthed": asset.stealth}
        if asset.type == BASE_OF_INFLUENCE:
            attr = max(ATTRIBUTES, key=self.f.rating)
            return new_asset_item(item_id, f"Base of Inf. {attr.title()}", attr,
                                  {**common, "baseOfInfluence": True}, sort, **self.versions)
        kind = asset.kind
        return new_asset_item(item_id, kind.name, kind.attribute, {**common, **asset_stats(kind)},
                              sort, catalogue()["pack_ids"].get(kind.id), **self.versions)


def asset_stats(kind: Any) -> dict[str, Any]:
    """The item fields of a book asset: cost, rating, attack, counter, qualities, upkeep,
    income, Magic, and our one-line summary of its ability as ``desc``."""
    from factionsim.rules.wwn import abilities, homebrew

    attack = kind.attack
    if attack is None:
        source, target, damage = "", "", ""
    elif attack == "special":
        source, target, damage = "", "", "Special"
    else:
        damage = "Special" if attack.damage == "special" else attack.damage
        source, target = attack.attacker, attack.defender
    desc = homebrew.describe(kind) if kind.homebrew else \
        abilities.SUMMARIES.get(kind.id, "") if kind.ability else ""
    return {"desc": desc,
            "cost": kind.cost, "rating": kind.rating, "attackTarget": target,
            "attackSource": source, "attackDamage": damage, "counter": kind.counter or "None",
            "maintenance": kind.upkeep or catalogue()["maintenance"].get(kind.id, 0),
            "income": catalogue()["income"].get(kind.id, 0), "subtle": kind.subtle,
            "special": kind.ability, "magic": kind.magic}
