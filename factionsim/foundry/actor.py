"""The shape of a Foundry VTT WWN faction actor and its asset items, read and written.

The tables below follow the reference (``shared/reference/foundry_wwn_faction.md``, sections 1.1
to 1.3): the actor's and the items' keys in the order Foundry writes them, and every ``system``
field with its type and default. They serve three purposes:

- :func:`read_faction` reads an actor for the importer, field by field, leniently where the
  system is lenient (a missing key takes the system's default; ``"3"`` and ``3.0`` read as 3, as
  Foundry casts them) and with one clear :class:`FoundryError` where a value cannot be used
  (file, JSON path, the value, what is allowed);
- :func:`new_actor` and :func:`new_asset_item` write actors and items from scratch, every field
  present, in order;
- :func:`shape_problems` checks that a file has exactly the reference's shape (what the tests
  and the exporter's own final check use).

>>> new_asset_item("J39ic2wmZElBo8cS", "Base of Inf. Wealth", "wealth", {})["system"]["counter"]
''
>>> stable_id("item", "gilded-concord", "7") == stable_id("item", "gilded-concord", "7")
True
>>> computed_max_hp({"forceRating": 3, "cunningRating": 4, "wealthRating": 6})
22
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import string
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, NoReturn

from factionsim.core.campaign import format_path

from .jsonio import FoundryError

ATTRIBUTES = ("cunning", "force", "wealth")
MAGIC = ("none", "low", "medium", "high")
#: faction HP from each rating (the system's table; an unknown rating adds 0)
HP_TABLE = {1: 1, 2: 2, 3: 4, 4: 6, 5: 9, 6: 12, 7: 16, 8: 20}
IMAGE_EXTENSIONS = (".png", ".webp", ".svg", ".jpg", ".jpeg", ".gif", ".avif", ".bmp", ".tif",
                    ".tiff", ".apng")
ID_PATTERN = re.compile(r"^[A-Za-z0-9]{16}$")
ID_CHARS = string.ascii_letters + string.digits

#: the version written into actors and items made from scratch (Foundry v13, WWN 1.6.1: the
#: stable layout, which v14 migrates on import)
CORE_VERSION = "13.351"
SYSTEM_VERSION = "1.6.1"
FACTION_IMG = "systems/wwn/assets/default/faction.png"

ACTOR_KEYS = ("name", "type", "img", "system", "prototypeToken", "items", "effects", "folder",
              "flags", "_stats", "ownership")
ITEM_KEYS = ("_id", "name", "type", "img", "system", "effects", "folder", "sort", "ownership",
             "flags", "_stats")
ACTOR_STATS_KEYS = ("coreVersion", "systemId", "systemVersion", "createdTime", "modifiedTime",
                    "lastModifiedBy", "exportSource")
ITEM_STATS_KEYS = ("compendiumSource", "duplicateSource", "exportSource", "coreVersion",
                   "systemId", "systemVersion", "createdTime", "modifiedTime", "lastModifiedBy")
PACK_PREFIX = "Compendium.wwn.assets.Item."


@dataclass(frozen=True, slots=True)
class Field:
    """One ``system`` field: its key, its kind and the system's default (``children`` for the
    nested ``health`` and ``initiative``)."""

    key: str
    kind: str  # int | rating | str | html | bool | magic | attr | attr-or-empty | tags | log | obj
    default: Any = None
    children: tuple[Field, ...] = ()

    def default_value(self) -> Any:
        if self.kind == "obj":
            return {c.key: c.default_value() for c in self.children}
        return copy.deepcopy(self.default)


def _health(default: int) -> Field:
    return Field("health", "obj", children=(Field("value", "int", default),
                                            Field("max", "int", default)))


#: ``system`` of a faction actor (reference 1.2), in order
FACTION_SYSTEM = (
    Field("description", "html", ""), _health(7),
    Field("forceRating", "rating", 1), Field("cunningRating", "rating", 1),
    Field("wealthRating", "rating", 1), Field("magicRating", "magic", "None"),
    Field("facCreds", "int", 0), Field("xp", "int", 0), Field("homeworld", "str", ""),
    Field("active", "bool", True), Field("factionGoal", "str", ""),
    Field("factionGoalDesc", "html", ""), Field("tags", "tags", []), Field("log", "log", []),
    Field("initiative", "obj", children=(Field("roll", "str", "1d8"), Field("value", "int", 0))),
)
#: ``system`` of an asset item (reference 1.3), in order
ASSET_SYSTEM = (
    Field("desc", "html", ""), _health(1), Field("cost", "int", 1), Field("rating", "int", 1),
    Field("baseOfInfluence", "bool", False), Field("attackTarget", "attr-or-empty", ""),
    Field("attackSource", "attr-or-empty", ""), Field("attackDamage", "str", ""),
    Field("counter", "str", ""), Field("note", "str", ""), Field("turnRoll", "str", ""),
    Field("assetType", "attr", "cunning"), Field("location", "str", ""),
    Field("locationRoll", "str", ""), Field("maintenance", "int", 0), Field("income", "int", 0),
    Field("unusable", "bool", False), Field("stealthed", "bool", False),
    Field("subtle", "bool", False), Field("special", "bool", False), Field("magic", "magic", "none"),
)
#: derived at prepare time, never stored ("Don't write derived arrays")
DERIVED_KEYS = ("cunningAssets", "forceAssets", "wealthAssets")
#: keys 1.x pack items also carry (2.0 drops them on import; 1.6.1 keeps them)
ASSET_SYSTEM_1X = (Field("description", "html", ""), Field("attackSpecial", "str", ""))
TAG_KEYS = ("name", "desc", "effect")

_MISSING = object()
Path = tuple[str | int, ...]
#: the faction fields the importer reads (the others are kept, whatever they hold)
_READ = ("health", "forceRating", "cunningRating", "wealthRating", "magicRating", "facCreds", "xp",
         "homeworld", "factionGoal", "tags", "log")


def _data(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def prototype_token(name: str, img: str) -> dict[str, Any]:
    """A complete Foundry v13 prototype token for a new actor (WWN puts nothing of its own there)."""
    token = json.loads(_data("prototype_token_v13.json"))
    token["name"] = name
    token["texture"]["src"] = img
    return token


def computed_max_hp(system: dict[str, Any]) -> int:
    """The faction's max HP as Foundry derives it on load (the stored one is stale)."""
    return sum(HP_TABLE.get(system.get(f"{a}Rating"), 0) for a in ("force", "cunning", "wealth"))


def stable_id(*parts: str, taken: frozenset[str] | set[str] = frozenset()) -> str:
    """A 16-character ``[A-Za-z0-9]`` document id derived from ``parts`` (the same parts, the
    same id: exports are byte-identical), avoiding the ids in ``taken``."""
    salt = 0
    while True:
        text = "\x1f".join(parts + ((str(salt),) if salt else ()))
        n = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest(), "big")
        out = ""
        for _ in range(16):
            n, r = divmod(n, len(ID_CHARS))
            out += ID_CHARS[r]
        if out not in taken:
            return out
        salt += 1


# ------------------------------------------------------------------------------ writing
def new_actor(name: str, core_version: str = CORE_VERSION,
              system_version: str = SYSTEM_VERSION) -> dict[str, Any]:
    """A faction actor made from scratch: every field at the system's default, keys in order."""
    return {
        "name": name, "type": "faction", "img": FACTION_IMG,
        "system": {f.key: f.default_value() for f in FACTION_SYSTEM},
        "prototypeToken": prototype_token(name, FACTION_IMG),
        "items": [], "effects": [], "folder": None, "flags": {},
        "_stats": {"coreVersion": core_version, "systemId": "wwn", "systemVersion": system_version,
                   "createdTime": None, "modifiedTime": None, "lastModifiedBy": None,
                   "exportSource": None},
        "ownership": {"default": 0},
    }


def new_asset_item(item_id: str, name: str, attribute: str, system: dict[str, Any],
                   sort: int = 0, pack_id: str | None = None, core_version: str = CORE_VERSION,
                   system_version: str = SYSTEM_VERSION) -> dict[str, Any]:
    """An asset item made from scratch: the 21 ``system`` fields (defaults overridden by
    ``system``), ``assetType`` ``attribute``, and the envelope in Foundry's order."""
    body = {f.key: f.default_value() for f in ASSET_SYSTEM}
    body["assetType"] = attribute
    body.update(system)
    return {
        "_id": item_id, "name": name, "type": "asset",
        "img": f"systems/wwn/assets/{attribute}.png", "system": body,
        "effects": [], "folder": None, "sort": sort, "ownership": {"default": 0}, "flags": {},
        "_stats": {"compendiumSource": PACK_PREFIX + pack_id if pack_id else None,
                   "duplicateSource": None, "exportSource": None, "coreVersion": core_version,
                   "systemId": "wwn", "systemVersion": system_version, "createdTime": None,
                   "modifiedTime": None, "lastModifiedBy": None},
    }


# ------------------------------------------------------------------------------ reading
@dataclass(slots=True)
class FoundryItem:
    """One embedded item as the importer needs it (``index`` into ``items``)."""

    index: int
    item_id: str | None
    name: str
    type: str
    is_base: bool = False
    hp: int = 0
    max_hp: int = 0
    location: str = ""
    stealthed: bool = False
    pack_id: str | None = None  # from _stats.compendiumSource


@dataclass(slots=True)
class FoundryFaction:
    """A faction actor as the importer needs it; ``data`` is the whole actor as read."""

    source: str
    data: dict[str, Any]
    name: str
    hp: int
    force: int
    cunning: int
    wealth: int
    magic: str
    treasure: int
    xp: int
    homeworld: str
    goal: str
    tags: list[str]
    items: list[FoundryItem] = field(default_factory=list)
    uuid: str | None = None  # _stats.exportSource.uuid: the actor in its world

    @property
    def max_hp(self) -> int:
        return HP_TABLE[self.force] + HP_TABLE[self.cunning] + HP_TABLE[self.wealth]


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _kind(value: Any) -> str:
    return {bool: "true/false", int: "a whole number", float: "a number", str: "text",
            list: "a list", dict: "an object", type(None): "null"}.get(type(value), "a value")


class Reader:
    """Typed reading with messages ``<file>, <JSON path>: <problem> (got ...); allowed: ...``."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, path: Path, problem: str, value: Any = _MISSING, allowed: str = "") -> NoReturn:
        where = f"{self.source}, {format_path(path)}" if path else self.source
        msg = f"{where}: {problem}"
        if value is not _MISSING:
            msg += f" (got {_show(value)})"
        raise FoundryError(msg + (f"; allowed: {allowed}" if allowed else "") + ".")

    def obj(self, value: Any, path: Path, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(path, f"must be an object ({what}), not {_kind(value)}", value)
        return value

    def field(self, parent: dict[str, Any], path: Path, spec: Field) -> Any:
        """The value of ``spec`` in ``parent`` (its default when missing), checked and cast."""
        value = parent.get(spec.key, _MISSING)
        here = (*path, spec.key)
        if value is _MISSING:
            return spec.default_value()
        if spec.kind == "obj":
            obj = self.obj(value, here, spec.key)
            return {c.key: self.field(obj, here, c) for c in spec.children}
        if spec.kind in ("int", "rating"):
            return self.whole(value, here)
        if spec.kind in ("str", "html"):
            if not isinstance(value, str):
                self.fail(here, f"must be text, not {_kind(value)}", value)
            return value
        if spec.kind == "bool":
            if not isinstance(value, bool):
                self.fail(here, f"must be true or false, not {_kind(value)}", value)
            return value
        if spec.kind == "magic":
            if not isinstance(value, str) or value.strip().casefold() not in (*MAGIC, ""):
                self.fail(here, "unknown Magic level", value, ", ".join(MAGIC) + " (any case)")
            return value.strip().casefold() or "none"
        if spec.kind == "tags":
            return self.tags(value, here)
        if spec.kind == "log":
            if not isinstance(value, list):
                self.fail(here, f"must be a list of HTML strings, not {_kind(value)}", value)
            for i, entry in enumerate(value):
                if not isinstance(entry, str):
                    self.fail((*here, i), f"a log entry must be an HTML string, not {_kind(entry)}",
                              entry)
            return value
        return value  # attr kinds: not read by the importer, kept as they are

    def whole(self, value: Any, path: Path) -> int:
        """A whole number; ``3.0`` and ``"3"`` read as 3 (Foundry casts numeric strings)."""
        if isinstance(value, bool):
            self.fail(path, "must be a whole number, not true/false", value)
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,12}\s*", value):
            return int(value)
        self.fail(path, f"must be a whole number, not {_kind(value)}", value)

    def numbers(self, obj: dict[str, Any], path: Path, specs: tuple[Field, ...]) -> None:
        """Check the whole numbers and true/false fields of ``obj`` even where the importer does
        not read them: the export writes them back, and "All numeric fields ... must be JSON
        integers" (castable values are written as integers; others cannot be)."""
        for spec in specs:
            value = obj.get(spec.key, _MISSING)
            if value is _MISSING:
                continue
            if spec.kind == "obj" and isinstance(value, dict):
                self.numbers(value, (*path, spec.key), spec.children)
            elif spec.kind in ("int", "rating", "bool"):
                self.field(obj, path, spec)

    def tags(self, value: Any, path: Path) -> list[str]:
        if not isinstance(value, list):
            self.fail(path, f"must be a list of tag objects, not {_kind(value)}", value,
                      '[{"name": ..., "desc": ...}]')
        names = []
        for i, tag in enumerate(value):
            tag = self.obj(tag, (*path, i), 'a tag: {"name", "desc", optional "effect"}')
            name = tag.get("name")
            if not isinstance(name, str) or not name.strip():
                self.fail((*path, i, "name"), "a tag needs a non-empty name", name)
            names.append(name)
        return names


def read_faction(data: Any, source: str) -> FoundryFaction:
    """Read a WWN faction actor (the JSON of Foundry's Export Data) for the importer."""
    r = Reader(source)
    actor = r.obj(data, (), "a Foundry actor, as written by Export Data")
    kind = actor.get("type")
    system = actor.get("system")
    if kind != "faction":
        hint = (" (a character or NPC sheet; export the Faction actor instead)"
                if kind in ("character", "monster", "npc") else "")
        r.fail(("type",), f"not a faction actor{hint}", actor.get("type", _MISSING),
               '"faction" (a Worlds Without Number Faction actor)')
    system = r.obj(system if system is not None else {}, ("system",), "the faction's sheet")
    _refuse_swnr(r, actor, system)
    name = actor.get("name")
    if not isinstance(name, str) or not name.strip():
        r.fail(("name",), "the actor needs a non-blank name", name)
    values = {spec.key: r.field(system, ("system",), spec) for spec in FACTION_SYSTEM
              if spec.key in _READ}
    r.numbers(system, ("system",), FACTION_SYSTEM)
    ratings = {}
    for attr in ("force", "cunning", "wealth"):
        rating = values[f"{attr}Rating"]
        if not 1 <= rating <= 8:
            r.fail(("system", f"{attr}Rating"), f"the {attr.title()} rating must be from 1 to 8 "
                   "(the sheet's range; the rules have no other)", rating, "1-8")
        ratings[attr] = rating
    faction = FoundryFaction(
        source=source, data=actor, name=name, hp=values["health"]["value"], **ratings,
        magic=values["magicRating"], treasure=values["facCreds"], xp=values["xp"],
        homeworld=values["homeworld"], goal=values["factionGoal"], tags=values["tags"],
        uuid=_uuid(actor),
    )
    items = actor.get("items", [])
    if not isinstance(items, list):
        r.fail(("items",), f"must be a list of items, not {_kind(items)}", items)
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        faction.items.append(_read_item(r, item, i, seen))
    return faction


def _uuid(actor: dict[str, Any]) -> str | None:
    stats = actor.get("_stats")
    source = stats.get("exportSource") if isinstance(stats, dict) else None
    uuid = source.get("uuid") if isinstance(source, dict) else None
    return uuid if isinstance(uuid, str) and uuid else None


def _refuse_swnr(r: Reader, actor: dict[str, Any], system: dict[str, Any]) -> None:
    """SWNR factions look alike but differ (reference 2.4): say so instead of misreading."""
    health = system.get("health")
    items = actor.get("items") if isinstance(actor.get("items"), list) else []
    if (isinstance(health, dict) and "temp" in health) or any(
            isinstance(i, dict) and isinstance(i.get("system"), dict) and "category" in i["system"]
            for i in items):
        r.fail(("system",), "this looks like a Stars Without Number (swnr) faction, whose fields "
               "differ from the Worlds Without Number system's", allowed="a faction exported from "
               "a world using the Worlds Without Number (wwn) system")


def _read_item(r: Reader, item: Any, i: int, seen: dict[str, int]) -> FoundryItem:
    path: Path = ("items", i)
    item = r.obj(item, path, "an embedded item")
    item_id = item.get("_id")
    if item_id is not None:
        if not isinstance(item_id, str) or not ID_PATTERN.match(item_id):
            r.fail((*path, "_id"), "invalid item id", item_id,
                   "exactly 16 letters and digits, or no _id (factionsim then makes one)")
        if item_id in seen:
            r.fail((*path, "_id"), f"the same id as items[{seen[item_id]}]", item_id,
                   "a unique id per item")
        seen[item_id] = i
    name = item.get("name")
    if not isinstance(name, str) or not name.strip():
        r.fail((*path, "name"), "an item needs a non-blank name", name)
    out = FoundryItem(i, item_id, name, str(item.get("type")))
    if item.get("type") != "asset":
        return out  # not a faction asset: kept untouched, not played
    system = r.obj(item.get("system", {}), (*path, "system"), f"the sheet of {name!r}")
    sys_path = (*path, "system")
    r.numbers(system, sys_path, ASSET_SYSTEM)
    health = r.field(system, sys_path, ASSET_SYSTEM[1])
    out.is_base = r.field(system, sys_path, Field("baseOfInfluence", "bool", False))
    out.hp, out.max_hp = health["value"], health["max"]
    out.location = r.field(system, sys_path, Field("location", "str", "")).strip()
    out.stealthed = r.field(system, sys_path, Field("stealthed", "bool", False))
    stats = item.get("_stats")
    source = stats.get("compendiumSource") if isinstance(stats, dict) else None
    if isinstance(source, str) and source.startswith(PACK_PREFIX):
        out.pack_id = source[len(PACK_PREFIX):]
    return out


def proper_numbers(obj: dict[str, Any], specs: tuple[Field, ...]) -> dict[str, Any]:
    """``obj`` with its whole-number fields written as JSON integers (``"3"`` and ``3.0`` were
    read as 3 by :meth:`Reader.numbers`; Foundry 1.6.1 would do string arithmetic on them)."""
    out = dict(obj)
    for spec in specs:
        value = out.get(spec.key)
        if spec.kind == "obj" and isinstance(value, dict):
            out[spec.key] = proper_numbers(value, spec.children)
        elif spec.kind in ("int", "rating") and isinstance(value, (str, float)) \
                and not isinstance(value, bool):
            out[spec.key] = int(float(value))
    return out


# ------------------------------------------------------------------------------ checking
def shape_problems(actor: Any) -> list[str]:
    """Every way ``actor`` departs from the reference's shape of an exported WWN faction (empty
    when it has exactly that shape): keys and their order, types, lowercase enumerations, unique
    16-character item ids, image paths, the derived max HP."""
    problems: list[str] = []

    def bad(path: Path, text: str) -> None:
        problems.append(f"{format_path(path)}: {text}")

    if not isinstance(actor, dict):
        return ["top level: not an object"]
    if tuple(actor) != ACTOR_KEYS:
        bad((), f"keys {list(actor)} are not {list(ACTOR_KEYS)}")
    _check_name_img(actor, (), "faction", bad)
    system = actor.get("system")
    if not isinstance(system, dict):
        bad(("system",), "not an object")
    else:
        _check_fields(system, ("system",), FACTION_SYSTEM, (), bad)
        if system.get("health", {}).get("max") != computed_max_hp(system):
            bad(("system", "health", "max"), f"is not the derived {computed_max_hp(system)}")
    for key, kind in (("prototypeToken", dict), ("effects", list), ("flags", dict),
                      ("_stats", dict), ("ownership", dict), ("items", list)):
        if not isinstance(actor.get(key), kind):
            bad((key,), f"not {'an object' if kind is dict else 'a list'}")
    if not (actor.get("folder") is None or isinstance(actor.get("folder"), str)):
        bad(("folder",), "neither null nor a folder id")
    stats = actor.get("_stats") if isinstance(actor.get("_stats"), dict) else {}
    if not isinstance(stats.get("coreVersion"), str) or stats.get("systemId") != "wwn":
        bad(("_stats",), "needs coreVersion (text) and systemId 'wwn'")
    ids: set[str] = set()
    for i, item in enumerate(actor.get("items") or []):
        _check_item(item, ("items", i), ids, bad)
    return problems


def _check_name_img(doc: dict[str, Any], path: Path, kind: str,
                    bad: Any) -> None:
    if not isinstance(doc.get("name"), str) or not doc["name"].strip():
        bad((*path, "name"), "blank or not text")
    if doc.get("type") != kind:
        bad((*path, "type"), f"is not {kind!r}")
    img = doc.get("img")
    if not isinstance(img, str) or not img.lower().endswith(IMAGE_EXTENSIONS):
        bad((*path, "img"), "does not end in an image extension")


def _check_item(item: Any, path: Path, ids: set[str], bad: Any) -> None:
    if not isinstance(item, dict):
        bad(path, "not an object")
        return
    if tuple(item) != ITEM_KEYS:
        bad(path, f"keys {list(item)} are not {list(ITEM_KEYS)}")
    item_id = item.get("_id")
    if not isinstance(item_id, str) or not ID_PATTERN.match(item_id):
        bad((*path, "_id"), "not 16 letters and digits")
    elif item_id in ids:
        bad((*path, "_id"), "not unique")
    else:
        ids.add(item_id)
    _check_name_img(item, path, "asset", bad)
    system = item.get("system")
    if not isinstance(system, dict):
        bad((*path, "system"), "not an object")
        return
    _check_fields(system, (*path, "system"), ASSET_SYSTEM, ASSET_SYSTEM_1X, bad)
    if isinstance(item.get("sort"), bool) or not isinstance(item.get("sort"), int):
        bad((*path, "sort"), "not a whole number")
    for key, kind in (("effects", list), ("ownership", dict), ("flags", dict), ("_stats", dict)):
        if not isinstance(item.get(key), kind):
            bad((*path, key), f"not {'an object' if kind is dict else 'a list'}")


def _check_fields(obj: dict[str, Any], path: Path, specs: tuple[Field, ...],
                  extras: tuple[Field, ...], bad: Any) -> None:
    keys = tuple(obj)
    wanted = tuple(s.key for s in specs)
    optional = tuple(s.key for s in extras)
    if keys[:len(wanted)] != wanted or any(k not in optional for k in keys[len(wanted):]):
        bad(path, f"keys {list(keys)} are not {list(wanted)}"
            + (f" (optionally followed by {list(optional)})" if optional else ""))
    for spec in (*specs, *extras):
        if spec.key in obj:
            _check_value(obj[spec.key], (*path, spec.key), spec, bad)


def _check_value(value: Any, path: Path, spec: Field, bad: Any) -> None:
    kind = spec.kind
    is_int = isinstance(value, int) and not isinstance(value, bool)
    if kind == "obj":
        if not isinstance(value, dict) or tuple(value) != tuple(c.key for c in spec.children):
            bad(path, f"not an object with keys {[c.key for c in spec.children]}")
            return
        for c in spec.children:
            _check_value(value[c.key], (*path, c.key), c, bad)
    elif kind == "int" and not is_int:
        bad(path, "not a JSON integer")
    elif kind == "rating" and not (is_int and 1 <= value <= 8):
        bad(path, "not an integer from 1 to 8")
    elif kind in ("str", "html") and not isinstance(value, str):
        bad(path, "not text")
    elif kind == "bool" and not isinstance(value, bool):
        bad(path, "not true/false")
    elif kind == "magic" and not (isinstance(value, str) and value.casefold() in MAGIC):
        bad(path, f"not one of {MAGIC} (any case)")
    elif kind == "attr" and value not in ATTRIBUTES:
        bad(path, f"not one of {ATTRIBUTES} (lowercase)")
    elif kind == "attr-or-empty" and value not in (*ATTRIBUTES, ""):
        bad(path, f"not one of {ATTRIBUTES} or ''")
    elif kind == "tags":
        if not isinstance(value, list):
            bad(path, "not a list")
            return
        for i, tag in enumerate(value):
            if not isinstance(tag, dict) or not {"name", "desc"} <= set(tag) or \
                    not set(tag) <= set(TAG_KEYS) or not all(isinstance(v, str) for v in tag.values()):
                bad((*path, i), "not a {name, desc[, effect]} object of text")
    elif kind == "log" and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        bad(path, "not a list of strings")
