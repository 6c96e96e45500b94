"""Foundry VTT faction actors -> a WWN campaign (``factionsim foundry import``).

:func:`import_actors` reads one or more actor files (Foundry's Export Data), builds the campaign
data in the campaign-file format (``docs/campaign-format.md``), checks it with the WWN validator
exactly as a file is checked, and writes it atomically. All files are read and checked before
anything is written: one bad actor leaves the campaign untouched.

- **A new campaign** is made when the file does not exist: the actors' factions, a location for
  every place they name (no roads between them: connecting the map is the GM's, or ``--map``
  gives the locations), every faction played by ``--agent`` (default ``heuristic``).
- **An existing campaign** gains the factions it does not have and updates those it has: an
  actor is the same faction when its ``_stats.exportSource.uuid`` is the one imported before,
  else when its name equals a faction's name (case and spacing ignored). An update takes the
  sheet as the truth for the ratings, HP, Treasure, XP, Magic, tags, headquarters and assets, and
  keeps what the sheet does not hold: the agent and its options, goal progress (when the goal is
  the same), goal bookkeeping, and the state of assets it already had (matched by item id).

Readings of the Foundry conventions (``docs/foundry.md`` lists them for the GM):

- The headquarters is ``system.homeworld`` (free text) matched to a place; the Base of Influence
  standing there is the headquarters Base. With an empty ``homeworld`` the only Base is the
  headquarters; with several Bases and no match the import stops and asks (``--hq``).
- An item is a Base of Influence when ``baseOfInfluence`` is true, whatever its name; any other
  asset is matched by its compendium source (the pack id survives renaming), then by name.
- The stored faction max HP is ignored (recomputed from the ratings); a current HP above it is
  cut to it. Negative Treasure or XP (the sheet allows both) is read as 0.
- Goals that need a target the sheet does not store (Eliminate Target, Root Out the Enemy, Sphere
  Dominance) and names outside the ten goals are not played: the faction's agent picks its goal.
- Tags outside the ten factionsim plays are kept on the sheet but have no effect in play.
- An asset item with no location stands at the headquarters; one at 0 HP or less is destroyed
  and not imported (it disappears from the next export).
- An item that is no book asset is matched against the campaign's own ``asset_types:`` (name or
  id); with ``--homebrew`` one that matches nothing becomes a new entry read from its sheet
  (:mod:`.homebrew`), else the import stops naming it.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factionsim.core.campaign import LineLoader, dump_campaign_data, load_campaign_data
from factionsim.core.files import write_atomic
from factionsim.core.game import CampaignError
from factionsim.core.roundtrip import updated_text
from factionsim.rules.wwn.data import ASSETS, BASE_OF_INFLUENCE
from factionsim.rulesets import build_campaign, load_campaign

from . import homebrew
from .actor import FoundryFaction, FoundryItem, Reader, read_faction, stable_id
from .block import ActorLink, block_data, read_block
from .jsonio import FoundryError, read_json
from .names import (
    ASSET_NAMES,
    GOAL_NAMES,
    TAG_NAMES,
    asset_of_pack_id,
    did_you_mean,
    name_key,
    normal_text,
    unique_slug,
)

#: goals whose target the sheet does not store: the agent chooses the goal instead
TARGETED_GOALS = ("eliminate-target", "root-out-the-enemy", "sphere-dominance")


@dataclass
class ImportOptions:
    """The choices of ``factionsim foundry import`` (see :func:`import_actors`)."""

    agent: str = "heuristic"
    headquarters: dict[str, str] = field(default_factory=dict)  # actor name -> place (--hq)
    asset_names: dict[str, str] = field(default_factory=dict)  # item name -> asset id (--asset)
    homebrew: bool = False  # --homebrew: an unknown asset becomes an asset_types entry
    map_file: Path | None = None
    name: str | None = None
    seed: int | None = None


@dataclass
class ImportResult:
    """What an import did, for the command's summary."""

    campaign: str
    created: bool
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    new_locations: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"campaign": self.campaign, "created": self.created, "added": self.added,
                "updated": self.updated, "new_locations": self.new_locations,
                "warnings": self.warnings}


def import_actors(paths: list[Path], campaign: Path, options: ImportOptions | None = None
                  ) -> ImportResult:
    """Import the actor files ``paths`` into ``campaign`` (see the module docstring)."""
    options = options or ImportOptions()
    actors = [read_faction(read_json(p), str(p)) for p in paths]
    _refuse_doubles(actors)
    _check_overrides(actors, options)
    created = not campaign.exists()
    data = _new_campaign(campaign, options) if created else _existing_campaign(campaign, options)
    result = ImportResult(str(campaign), created)
    links = read_block(data.get("foundry"), str(campaign))
    places = Places(data["locations"], create=not (created and options.map_file))
    numbers = _Numbers(data)
    for actor, path in zip(actors, paths, strict=True):
        _FactionImport(actor, path, data, links, places, numbers, options, result).run()
    result.new_locations = places.created
    data["foundry"] = block_data(links)
    if "next_asset" in data:
        data["next_asset"] = numbers.next
    # into an existing campaign: its comments and layout stay (factionsim.core.roundtrip)
    text = dump_campaign_data(data) if created else \
        updated_text(campaign.read_text(encoding="utf-8"), data)
    _validate(text, campaign)
    if created:
        campaign.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(campaign, text)
    return result


def _refuse_doubles(actors: list[FoundryFaction]) -> None:
    seen: dict[str, str] = {}
    for a in actors:
        for key in filter(None, (a.uuid, "name:" + name_key(a.name))):
            if key in seen:
                raise FoundryError(f"{a.source}: the same faction as {seen[key]} ({a.name!r}); "
                                   "import each faction once.")
            seen[key] = a.source


def _check_overrides(actors: list[FoundryFaction], options: ImportOptions) -> None:
    names = {name_key(a.name) for a in actors}
    for actor_name in options.headquarters:
        if name_key(actor_name) not in names:
            raise FoundryError(f"--hq {actor_name!r}: no actor of that name is being imported; "
                               "allowed: " + ", ".join(repr(a.name) for a in actors) + ".")
    for item_name, asset in options.asset_names.items():
        if ASSET_NAMES.find(asset) is None:
            raise FoundryError(f"--asset {item_name!r}={asset!r}: unknown asset"
                               f"{did_you_mean(ASSET_NAMES.suggest(asset))}; allowed: one of the "
                               "81 asset names or ids in docs/assets.md.")


def _new_campaign(campaign: Path, options: ImportOptions) -> dict[str, Any]:
    data: dict[str, Any] = {"ruleset": "wwn",
                            "name": options.name or campaign.stem.replace("-", " ").replace("_", " ")}
    if options.seed is not None:
        data["seed"] = options.seed
    data["turn"] = 0
    data["locations"] = _map_locations(options.map_file) if options.map_file else []
    data["factions"] = []
    return data


def _existing_campaign(campaign: Path, options: ImportOptions) -> dict[str, Any]:
    if options.map_file is not None:
        raise FoundryError(f"--map {options.map_file}: {campaign} already exists and has its map; "
                           "add or connect locations in the campaign file itself.")
    load_campaign(campaign)  # refuse a broken campaign with the usual message
    data, lines = load_campaign_data(campaign)
    if data.get("ruleset") != "wwn":
        raise FoundryError(f"{campaign}: a {data.get('ruleset')} campaign; Foundry factions go "
                           "into WWN campaigns (ruleset: wwn).")
    if "in_progress" in data:
        raise FoundryError(f"{campaign}: a turn is in progress (saved mid-turn); finish it with "
                           "'factionsim turn' before importing.")
    read_block(data.get("foundry"), str(campaign), lines)  # refuse a damaged block with its line
    return data


def _map_locations(path: Path) -> list[dict[str, Any]]:
    data, _ = load_campaign_data(path)
    locations = data.get("locations")
    if not isinstance(locations, list) or not locations or not all(
            isinstance(loc, dict) and isinstance(loc.get("id"), str) for loc in locations):
        raise CampaignError(f"{path}: a map file needs 'locations', a non-empty list of locations "
                            "with ids (as in a campaign file; see docs/campaign-format.md).")
    return copy.deepcopy(locations)


def _validate(text: str, campaign: Path) -> None:
    """Check the campaign text as ``load_campaign`` checks a file (and build its state)."""
    source = f"{campaign} (as the import would write it)"
    loader = LineLoader(text, source)
    build_campaign(loader.load_with_lines(), loader.lines, source)


# ------------------------------------------------------------------------------ places
class Places:
    """The campaign's locations, found by Foundry's free text (name or id, case and spacing
    ignored); unknown places are created when ``create`` (otherwise refused)."""

    def __init__(self, locations: list[dict[str, Any]], create: bool):
        self.locations = locations
        self.create = create
        self.created: list[str] = []

    def name(self, ident: str) -> str:
        return next(str(loc.get("name", ident)) for loc in self.locations if loc["id"] == ident)

    def ids(self) -> set[str]:
        return {loc["id"] for loc in self.locations}

    def find(self, text: str) -> list[str]:
        want = normal_text(text)
        return [loc["id"] for loc in self.locations
                if normal_text(str(loc.get("name", loc["id"]))) == want or loc["id"] == want]

    def resolve(self, text: str, reader: Reader, path: tuple[str | int, ...]) -> str:
        found = self.find(text)
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            reader.fail(path, f"the place {text!r} matches several locations of the campaign "
                        f"({', '.join(found)})", allowed="give those locations different names")
        if not self.create:
            names = [str(loc.get("name", loc["id"])) for loc in self.locations]
            close = [n for n in _close(text, names)]
            reader.fail(path, f"no location called {text!r} in the map{did_you_mean(close)}",
                        allowed="one of " + ", ".join(names))
        ident = unique_slug(text, self.ids(), "place")
        self.locations.append({"id": ident, "name": text.strip()})
        self.created.append(ident)
        return ident


def _close(text: str, names: list[str]) -> list[str]:
    import difflib

    by_key = {normal_text(n): n for n in names}
    return [by_key[k] for k in difflib.get_close_matches(normal_text(text), list(by_key), n=3,
                                                          cutoff=0.6)]


class _Numbers:
    """Hands out asset numbers above every number the campaign uses."""

    def __init__(self, data: dict[str, Any]):
        used = [ad["id"] for f in data["factions"] for ad in (f.get("assets") or [])
                if isinstance(ad.get("id"), int)]
        self.next = max([int(data.get("next_asset", 1)), *(n + 1 for n in used)])

    def take(self) -> int:
        self.next += 1
        return self.next - 1


# ------------------------------------------------------------------------------ one actor
class _FactionImport:
    """Imports one actor: finds or makes its faction, maps the sheet, links the items."""

    def __init__(self, actor: FoundryFaction, path: Path, data: dict[str, Any],
                 links: list[ActorLink], places: Places, numbers: _Numbers,
                 options: ImportOptions, result: ImportResult):
        self.actor, self.path, self.data, self.links = actor, path, data, links
        self.places, self.numbers, self.options, self.result = places, numbers, options, result
        self.r = Reader(actor.source)
        self.texts: dict[str, str] = {}  # Foundry place text -> location id

    def warn(self, text: str) -> None:
        self.result.warnings.append(f"{self.actor.source}: {text}")

    def run(self) -> None:
        a = self.actor
        link = self._existing_link()
        old = self._existing_faction(link)
        fid = old["id"] if old else unique_slug(a.name, {f["id"] for f in self.data["factions"]},
                                                "faction")
        hq = self._headquarters()
        faction = self._sheet(fid, old, hq)
        faction.pop("assets", None)  # written last, as the engine writes it
        if a.hp == 0:  # collapsed: "it and all its assets leave play"
            items_map, faction["assets"] = {}, []
            if any(it.type == "asset" for it in a.items):
                self.warn("the faction has 0 HP: it has collapsed, and its assets are not "
                          "imported (the next export has none).")
        else:
            items_map, faction["assets"] = self._assets(fid, old, link, hq)
        goal_id = self._goal(faction, old)
        if old is None:
            self.data["factions"].append(faction)
            self.result.added.append(fid)
        else:
            self.data["factions"][self.data["factions"].index(old)] = faction
            self.result.updated.append(fid)
        new_link = ActorLink(fid, os.path.basename(self.path), int(self.data.get("turn", 0) or 0),
                             goal_id, items_map, dict(self.texts), copy.deepcopy(a.data))
        if link is not None:
            self.links[self.links.index(link)] = new_link
        else:
            self.links.append(new_link)

    # -------------------------------------------------------------- which faction
    def _existing_link(self) -> ActorLink | None:
        if self.actor.uuid:
            for link in self.links:
                if link.parsed is not None and link.parsed.uuid == self.actor.uuid:
                    return link
        faction = self._faction_by_name()
        return next((lk for lk in self.links if faction and lk.faction == faction["id"]), None)

    def _faction_by_name(self) -> dict[str, Any] | None:
        key = name_key(self.actor.name)
        return next((f for f in self.data["factions"]
                     if name_key(str(f.get("name", f["id"]))) == key), None)

    def _existing_faction(self, link: ActorLink | None) -> dict[str, Any] | None:
        if link is not None:
            for f in self.data["factions"]:
                if f["id"] == link.faction:
                    return f
        return self._faction_by_name()

    # -------------------------------------------------------------- places
    def place(self, text: str, path: tuple[str | int, ...]) -> str:
        ident = self.places.resolve(text, self.r, path)
        self.texts[text] = ident
        return ident

    def _headquarters(self) -> str:
        """The headquarters' location id: ``--hq``, else the sheet's ``homeworld`` (which must be
        the place of one of its Bases, if it has any), else the place of its only Base."""
        a = self.actor
        bases = [it for it in a.items if it.type == "asset" and it.is_base and it.hp > 0
                 and it.location]
        override = next((place for name, place in self.options.headquarters.items()
                         if name_key(name) == name_key(a.name)), None)
        if override is not None:
            return self.places.resolve(override, Reader(f"--hq {a.name!r}={override!r}"), ())
        text = a.homeworld.strip()
        if text:
            hq = self.place(text, ("system", "homeworld"))
            at = {self.place(b.location, ("items", b.index, "system", "location")) for b in bases}
            if bases and hq not in at:
                self._ask(f"the headquarters {text!r} is none of the places of its Bases of "
                          "Influence", bases)
            return hq
        if len(bases) == 1:
            return self.place(bases[0].location, ("items", bases[0].index, "system", "location"))
        self._ask("the sheet names no headquarters (Headquarters is empty)"
                  + (" and the faction has no Base of Influence with a location" if not bases
                     else f" and it has {len(bases)} Bases of Influence"), bases)
        raise AssertionError("unreachable: _ask raises")

    def _ask(self, problem: str, bases: list[FoundryItem]) -> None:
        where = ", ".join(repr(b.location) for b in bases)
        options = (f"set Headquarters on the sheet to one of {where}, or " if bases else
                   "set Headquarters on the sheet, or ")
        raise FoundryError(f"{self.actor.source}, system.homeworld: {problem}"
                           + (f" ({where})" if bases else "") + "; which is the headquarters? "
                           f"{options}pass --hq {self.actor.name!r}=PLACE (a headquarters Base is "
                           "founded there if the faction has none there).")

    # -------------------------------------------------------------- the sheet
    def _sheet(self, fid: str, old: dict[str, Any] | None, hq: str) -> dict[str, Any]:
        a = self.actor
        top = a.max_hp
        if a.hp < 0:
            self.r.fail(("system", "health", "value"), "negative faction HP", a.hp,
                        f"0 to {top} (the max HP from its ratings)")
        hp = min(a.hp, top)
        if a.hp > top:
            self.warn(f"HP {a.hp} is above the max HP {top} its ratings give (the stored max is "
                      f"not used); imported as {top}.")
        treasure, xp = max(a.treasure, 0), max(a.xp, 0)
        if a.treasure < 0:
            self.warn(f"Treasure {a.treasure} (in debt) imported as 0: the rules have no debt.")
        if a.xp < 0:
            self.warn(f"XP {a.xp} imported as 0.")
        values = {"id": fid, "name": a.name, "force": a.force, "cunning": a.cunning,
                  "wealth": a.wealth, "magic": a.magic, "treasure": treasure, "hp": hp, "xp": xp,
                  "tags": self._tags(), "goal": None, "agent": self.options.agent,
                  "headquarters": hq}
        if hp == 0:
            values["alive"] = False
        if old is None:
            return values
        faction = dict(old)
        for key, value in values.items():
            if key not in ("goal", "agent"):
                faction[key] = value
        faction.setdefault("agent", values["agent"])
        if hp > 0:
            faction.pop("alive", None)
        return faction

    def _tags(self) -> list[str]:
        a = self.actor
        ratings = {"force": a.force, "cunning": a.cunning, "wealth": a.wealth}
        out: list[str] = []
        from factionsim.rules.wwn.validate import TAG_HIGHEST

        for i, name in enumerate(a.tags):
            tag = TAG_NAMES.find(name)
            if tag is None:
                self.warn(f"tag {name!r} is kept on the sheet but has no effect in play "
                          "(factionsim plays: " + ", ".join(TAG_NAMES.names.values()) + ").")
                continue
            attr = TAG_HIGHEST.get(tag)
            if attr and ratings[attr] < max(ratings.values()):
                top = max(ratings, key=lambda k: ratings[k])
                self.r.fail(("system", "tags", i, "name"), f"a {name} faction's {attr.title()} "
                            f"must be its highest rating, but {top} {ratings[top]} > {attr} "
                            f"{ratings[attr]}", name, f"raise {attr.title()} to at least "
                            f"{ratings[top]} on the sheet, or remove the tag")
            if tag in out:
                self.warn(f"tag {name!r} is given twice; played once.")
                continue
            out.append(tag)
        return out

    def _goal(self, faction: dict[str, Any], old: dict[str, Any] | None) -> str | None:
        """Set the faction's goal from the sheet; returns the goal id played (or None).

        The campaign's own goal carries on (with its target and progress) when the sheet names
        the same goal; otherwise the sheet's goal starts afresh, or none is set."""
        name = self.actor.goal.strip()
        goal = GOAL_NAMES.find(name) if name else None
        old_goal = (old or {}).get("goal")
        old_id = old_goal.get("id") if isinstance(old_goal, dict) else old_goal
        if goal is not None and goal == old_id:
            faction["goal"] = old_goal
            return goal
        if name and goal is None:
            self.warn(f"goal {name!r} is not one of the ten goals"
                      f"{did_you_mean(GOAL_NAMES.suggest(name))}; kept on the sheet, and the "
                      "faction's agent picks the goal it plays.")
        elif goal in TARGETED_GOALS:
            self.warn(f"goal {name!r} needs a target the sheet does not store; the faction's "
                      "agent picks the goal it plays (the sheet keeps its text until then).")
            goal = None
        faction["goal"] = goal
        return goal

    # -------------------------------------------------------------- the assets
    def _assets(self, fid: str, old: dict[str, Any] | None, link: ActorLink | None, hq: str
                ) -> tuple[dict[str, int], list[dict[str, Any]]]:
        old_assets = {ad["id"]: ad for ad in (old or {}).get("assets") or []
                      if isinstance(ad.get("id"), int)}
        known = {stable_id("item", fid, str(n)): n for n in old_assets}
        known.update(link.items if link else {})
        top = self.actor.max_hp
        items_map: dict[str, int] = {}
        assets: list[dict[str, Any]] = []
        bases: dict[str, int] = {}
        for it in self.actor.items:
            kind = self._kind(it)
            if kind is None:
                continue
            path = ("items", it.index)
            if it.hp <= 0:
                self.warn(f"items[{it.index}] ({it.name!r}) has {it.hp} HP: destroyed, not "
                          "imported (it will be gone from the next export).")
                continue
            location = self.place(it.location, (*path, "system", "location")) if it.location \
                else self._at_headquarters(it, hq)
            asset: dict[str, Any] = {"type": kind, "location": location}
            if kind == BASE_OF_INFLUENCE:
                if location in bases:
                    self.r.fail((*path, "system", "location"), "a second Base of Influence at "
                                f"{it.location or 'the headquarters'!r} (the first is items"
                                f"[{bases[location]}])", allowed="one Base per faction per place")
                bases[location] = it.index
                self._base_hp(it, asset, location == hq, top)
            else:
                self._asset_hp(it, asset, kind)
            if it.stealthed:
                asset["stealth"] = True
            number = known.get(it.item_id or "")
            previous = old_assets.get(number) if number is not None else None
            if previous is None or previous["type"] != kind or number in {a["id"] for a in assets}:
                number = self.numbers.take()
            else:
                for key in ("exposed", "status"):
                    if key in previous:
                        asset[key] = copy.deepcopy(previous[key])
            assets.append({"id": number, **asset})
            if it.item_id:
                items_map[it.item_id] = number
        if hq not in bases:
            assets.append(self._headquarters_base(old_assets, hq, {a["id"] for a in assets}, top))
        return items_map, assets

    def _at_headquarters(self, it: FoundryItem, hq: str) -> str:
        self.texts.setdefault("", hq)
        self.warn(f"items[{it.index}] ({it.name!r}) has no location; placed at the headquarters.")
        return hq

    def _headquarters_base(self, old_assets: dict[int, dict[str, Any]], hq: str,
                           taken: set[int], top: int) -> dict[str, Any]:
        """The headquarters Base the rules require and the sheet lacks: the one the campaign
        already had there, else a new one at full HP."""
        for n, ad in old_assets.items():
            if ad["type"] == BASE_OF_INFLUENCE and ad["location"] == hq and n not in taken:
                base = copy.deepcopy(ad)
                base["hp"], base["max_hp"] = min(base.get("hp", top), top), top
                return base
        self.warn(f"no Base of Influence at the headquarters {self.places.name(hq)!r}: the rules "
                  "give every faction one, so the campaign has one at full HP (and the next "
                  "export adds it to the actor).")
        return {"id": self.numbers.take(), "type": BASE_OF_INFLUENCE, "location": hq, "hp": top,
                "max_hp": top}

    def _kind(self, it: FoundryItem) -> str | None:
        if it.type != "asset":
            self.warn(f"items[{it.index}] ({it.name!r}) is a {it.type!r} item, not a faction "
                      "asset: kept in the actor, not played.")
            return None
        if it.is_base:
            return BASE_OF_INFLUENCE
        override = next((a for n, a in self.options.asset_names.items()
                         if name_key(n) == name_key(it.name)), None)
        by_name = ASSET_NAMES.find(override if override is not None else it.name)
        by_pack = asset_of_pack_id().get(it.pack_id or "")
        if override is None and by_pack is not None:
            if by_name is not None and by_name != by_pack:
                self.warn(f"items[{it.index}] is named {it.name!r} but was dragged from the "
                          f"compendium's {ASSETS[by_pack].name}; played as {ASSETS[by_pack].name} "
                          f"(use --asset {it.name!r}={by_name} to play it as "
                          f"{ASSETS[by_name].name}).")
            return by_pack
        if by_name is None and override is None:
            by_name = self._homebrew_kind(it)
        if by_name is None:
            hint = (" If it is a Base of Influence, tick its Base of Influence box."
                    if "base" in name_key(it.name) else "")
            self.r.fail(("items", it.index, "name"), f"unknown asset {it.name!r}"
                        f"{did_you_mean(ASSET_NAMES.suggest(it.name))}.{hint} It must be one of "
                        "the 81 WWN assets or of the campaign's asset_types",
                        allowed="an asset name from docs/assets.md, "
                        f"--asset {it.name!r}=ASSET to say which asset it is, or --homebrew to "
                        "add it to the campaign's asset_types from its sheet")
        return by_name

    def _homebrew_kind(self, it: FoundryItem) -> str | None:
        """The campaign's own asset type the item is (by name or id); with ``--homebrew``, a new
        one read from its sheet when none matches (None: unknown)."""
        rows = self.data.get(homebrew.BLOCK_KEY) or []
        found = homebrew.find_row(rows, it.name)
        if found is not None or not self.options.homebrew:
            return found
        item = self.actor.data["items"][it.index]
        row = homebrew.row_from_item(self.r, item, ("items", it.index), it.name,
                                     {r["id"] for r in rows}, self.warn)
        self.data[homebrew.BLOCK_KEY] = [*rows, row]
        self.warn(f"items[{it.index}] ({it.name!r}) is no book asset: added to the campaign's "
                  f"asset_types as {row['id']!r} from its sheet.")
        return row["id"]

    def _base_hp(self, it: FoundryItem, asset: dict[str, Any], is_hq: bool, top: int) -> None:
        if is_hq:  # "the headquarters Base has max HP = faction max HP"
            self._fit_hp(it, asset, top, "the headquarters Base the faction's max HP,")
            asset["max_hp"] = top
            return
        most = max(it.max_hp, it.hp)
        if most > top:
            self.warn(f"items[{it.index}] ({it.name!r}): a Base's max HP is at most the "
                      f"faction's max HP; {most} cut to {top}.")
        asset["hp"] = min(it.hp, top)
        asset["max_hp"] = min(most, top)

    def _asset_hp(self, it: FoundryItem, asset: dict[str, Any], kind: str) -> None:
        if kind in ASSETS:
            self._fit_hp(it, asset, ASSETS[kind].hp, ASSETS[kind].name)
            return
        row = next(r for r in self.data[homebrew.BLOCK_KEY] if r["id"] == kind)
        self._fit_hp(it, asset, row["hp"], row["name"])

    def _fit_hp(self, it: FoundryItem, asset: dict[str, Any], top: int, holder: str) -> None:
        """The item's HP, cut to the max HP ``top`` the rules give ``holder``, noting changes."""
        name = f"items[{it.index}] ({it.name!r})"
        if it.max_hp != top:
            self.warn(f"{name}: max HP {it.max_hp} on the sheet; the rules give {holder} {top}, "
                      "which is played.")
        if it.hp > top:
            self.warn(f"{name}: HP {it.hp} cut to its max HP {top}.")
        asset["hp"] = min(it.hp, top)

