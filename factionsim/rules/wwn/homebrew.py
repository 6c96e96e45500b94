"""Campaign-defined (homebrew) WWN asset types: the ``asset_types:`` block of a campaign.

A GM adds asset types of their own beside the 81 standard ones. Each is a stat line (the fields
of ``assets.yaml``) plus an optional ``upkeep`` and at most one ``ability`` chosen from a small
vocabulary of effects with parameters (:data:`EFFECTS`), each built on a hook point of
:mod:`.hooks` (the handlers: :mod:`.ability.homebrew`)::

    asset_types:
      - id: river-barges
        name: River Barges
        attribute: wealth
        rating: 2
        cost: 5
        hp: 5
        attack: null
        counter: 1d4
        qualities: [subtle]
        upkeep: 1
        ability: {effect: transport, range: 2}

This module is the vocabulary and the checking (no rule module imported): ``validate.py`` checks
the block with :func:`check_asset_types` and :func:`asset_types` turns the checked block into
:class:`~.data.AssetType` rows for the state's own asset table.

>>> row = {"id": "tax-farm", "name": "Tax Farm", "attribute": "wealth", "rating": 1, "cost": 3,
...        "hp": 3, "ability": {"effect": "income", "treasure": 1}}
>>> kind = asset_types([row])["tax-farm"]
>>> kind.effect, kind.param("treasure"), describe(kind)
('income', 1, "+1 Treasure at the start of its owner's turn.")
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from factionsim.core.dice import Dice, DiceError

from .data import ASSET_TYPES, ATTRIBUTES, MAGIC_LEVELS, AssetType, AttackLine

#: the block's key in a campaign
BLOCK = "asset_types"
#: the most homebrew types one campaign may define
MAX_TYPES = 100
#: qualities a homebrew type may have: Subtle (rulers cannot forbid it), Stealth (it enters play
#: Stealthed, as if its owner had hidden it)
QUALITIES = ("subtle", "stealth")


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of the vocabulary: its parameters (name -> lowest, highest), the hook points
    it uses (:mod:`.hooks`) and its description in words (``{param}`` fields filled in)."""

    name: str
    params: Mapping[str, tuple[int, int]]
    hooks: tuple[str, ...]
    words: str


#: The homebrew ability vocabulary, effect name -> :class:`Effect`.
EFFECTS: dict[str, Effect] = {e.name: e for e in (
    Effect("income", {"treasure": (1, 10)}, ("income",),
           "+{treasure} Treasure at the start of its owner's turn."),
    Effect("attack-dice", {"dice": (1, 3)}, ("extra_attack_dice",),
           "Rolls {dice} extra {die} on its attack checks."),
    Effect("defense-dice", {"dice": (1, 3)}, ("extra_defense_dice",),
           "Rolls {dice} extra {die} on its defence checks when it defends."),
    Effect("expand-dice", {"dice": (1, 3)}, ("expand_dice",),
           "Its faction rolls {dice} extra {die} on Expand Influence checks in its location."),
    Effect("transport", {"range": (1, 3)}, ("free_options", "free_use"),
           "Free action once per turn: moves another of its faction's assets (not a Base) from "
           "its location to a location up to {range} {move} away where it is not forbidden."),
    Effect("repair", {"hp": (1, 10)}, ("turn_end",),
           "Regains {hp} HP at the end of its owner's turn (never above its max HP)."),
)}

#: the fields of one homebrew type: field -> required?
FIELDS = {"id": True, "name": True, "attribute": True, "rating": True, "cost": True, "hp": True,
          "magic": False, "attack": False, "counter": False, "qualities": False, "upkeep": False,
          "ability": False}


def describe(kind: AssetType) -> str:
    """A homebrew type's ability (and upkeep) in words; '' for none."""
    parts = [words(EFFECTS[kind.effect], dict(kind.params))] if kind.effect else []
    if kind.upkeep:
        parts.append(f"Upkeep {kind.upkeep} Treasure at the start of its owner's turn; when the "
                     "faction cannot pay, the asset is lost.")
    return " ".join(parts)


def words(effect: Effect, params: Mapping[str, int]) -> str:
    """An effect's description with its parameters filled in."""
    n = next(iter(params.values()), 1)
    return effect.words.format(**params, die="die" if n == 1 else "dice",
                               move="move" if n == 1 else "moves")


def asset_table(rows: Sequence[Mapping[str, Any]] | None) -> dict[str, AssetType]:
    """The asset table a campaign plays with: the standard types plus its own ``asset_types:``
    rows (checked), or the standard table itself when it has none."""
    return {**ASSET_TYPES, **asset_types(rows)} if rows else ASSET_TYPES


def asset_types(rows: Sequence[Mapping[str, Any]]) -> dict[str, AssetType]:
    """The checked ``asset_types:`` block as stat lines, id -> :class:`AssetType`."""
    out: dict[str, AssetType] = {}
    for row in rows:
        attack = row.get("attack")
        if isinstance(attack, Mapping):
            att, _, dfn = attack["check"].partition(" vs ")
            attack = AttackLine(att, dfn, str(attack["damage"]))
        ability = dict(row.get("ability") or {})
        effect = ability.pop("effect", None)
        qualities = tuple(row.get("qualities", ()))
        out[row["id"]] = AssetType(
            id=row["id"], name=row["name"], attribute=row["attribute"], rating=row["rating"],
            hp=row["hp"], cost=row["cost"], magic=row.get("magic", "none"), attack=attack,
            counter=None if row.get("counter") is None else str(row["counter"]),
            subtle="subtle" in qualities, ability=effect is not None,
            upkeep=row.get("upkeep", 0), effect=effect, params=tuple(sorted(ability.items())),
            qualities=qualities, homebrew=True)
    return out


# ---------------------------------------------------------------------- checking
def check_asset_types(ck: Any, rows: Any, path: tuple[Any, ...] = (BLOCK,)) -> list[Any]:
    """Check the ``asset_types:`` block with ``ck`` (a :class:`factionsim.core.fields.Checker`):
    every field, an id that is new (not a standard type, not given twice), dice that parse, an
    ability from :data:`EFFECTS` with its parameters in range. Returns the block unchanged."""
    for at, row in check_entries(ck, rows, path, "asset type", FIELDS, MAX_TYPES, ASSET_TYPES,
                                 "a standard asset type's", "an id not in docs/assets.md"):
        ck.text(row["name"], (*at, "name"), empty=False)
        ck.choice(row["attribute"], (*at, "attribute"), ATTRIBUTES, "attribute")
        ck.integer(row["rating"], (*at, "rating"), 1, 8)
        ck.integer(row["cost"], (*at, "cost"), 0, 100)
        ck.integer(row["hp"], (*at, "hp"), 1, 100)
        if "magic" in row:
            ck.choice(row["magic"], (*at, "magic"), MAGIC_LEVELS, "magic level")
        if row.get("attack") is not None:
            _attack(ck, row["attack"], (*at, "attack"))
        if row.get("counter") is not None:
            _dice(ck, row["counter"], (*at, "counter"))
        for j, q in enumerate(ck.listof(row.get("qualities", []), (*at, "qualities"), "qualities")):
            ck.choice(q, (*at, "qualities", j), QUALITIES, "quality")
        ck.unique(row.get("qualities", []), (*at, "qualities"), "quality")
        ck.integer(row.get("upkeep", 0), (*at, "upkeep"), 0, 100)
        if row.get("ability") is not None:
            check_ability(ck, row["ability"], (*at, "ability"))
    return rows


def _dice(ck: Any, value: Any, path: tuple[Any, ...]) -> None:
    try:
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise DiceError(value)
        Dice.parse(value)
    except DiceError:
        ck.fail(path, "not a dice expression", value, "dice such as 1d6, 2d4+1, 1d4-1, or null")


def _attack(ck: Any, value: Any, path: tuple[Any, ...]) -> None:
    ck.mapping(value, path, "attack", keys=["check", "damage"], required=["check", "damage"])
    att, sep, dfn = str(value["check"]).partition(" vs ")
    checks = [f"{a} vs {d}" for a in ATTRIBUTES for d in ATTRIBUTES]
    if not sep or att not in ATTRIBUTES or dfn not in ATTRIBUTES:
        ck.fail_choice((*path, "check"), "attack check", value["check"], checks)
    _dice(ck, value["damage"], (*path, "damage"))


def check_entries(ck: Any, rows: Any, path: tuple[Any, ...], what: str,
                  fields: Mapping[str, bool], limit: int, reserved: Any, clash: str,
                  allowed: str) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Check a block of a campaign's own definitions (asset types, tags, goals): a list of at
    most ``limit`` mappings with only ``fields`` (field -> required?), each with a new id (not
    in ``reserved``, which ``clash`` names, and not given twice); yields each entry's path and
    mapping for the checks of its own fields."""
    ck.listof(rows, path, f"{what}s", 0, limit)
    seen: dict[str, int] = {}
    for i, row in enumerate(rows):
        at = (*path, i)
        ck.mapping(row, at, what, keys=list(fields),
                   required=[k for k, req in fields.items() if req])
        rid = ck.slug(row["id"], (*at, "id"))
        if rid in reserved:
            ck.fail((*at, "id"), f"this id is {clash}; a homebrew {what} needs a new id", rid,
                    f"{allowed}, e.g. 'my-{rid}'")
        if rid in seen:
            ck.fail((*at, "id"), f"this id is already defined at {path[-1]}[{seen[rid]}]", rid,
                    "one definition per id")
        seen[rid] = i
        yield at, row


def check_ability(ck: Any, value: Any, path: tuple[Any, ...],
                  effects: Mapping[str, Effect] = EFFECTS) -> None:
    """Check an ``ability`` mapping: an effect among ``effects`` with its parameters in range
    (homebrew tags use it with their part of the vocabulary, :mod:`.homebrew_tags`)."""
    ck.mapping(value, path, "ability")
    if "effect" not in value:
        ck.fail(path, "missing field 'effect'", allowed=", ".join(effects))
    effect = effects[ck.choice(value["effect"], (*path, "effect"), tuple(effects), "effect")]
    ck.mapping(value, path, f"{effect.name} ability", keys=["effect", *effect.params],
               required=["effect", *effect.params])
    for name, (lo, hi) in effect.params.items():
        ck.integer(value[name], (*path, name), lo, hi)


def ability_schema(effects: Mapping[str, Effect]) -> dict[str, Any]:
    """The JSON Schema of an ``ability`` mapping with one of ``effects`` (or null)."""
    return {"oneOf": [{"type": "null"}, *({
        "type": "object", "description": e.words, "additionalProperties": False,
        "required": ["effect", *e.params],
        "properties": {"effect": {"const": e.name},
                       **{p: {"type": "integer", "minimum": lo, "maximum": hi}
                          for p, (lo, hi) in e.params.items()}},
    } for e in effects.values())]}


def entry_schema(what: str, block: str, fields: Mapping[str, bool], reserved: Sequence[str],
                 **properties: Any) -> dict[str, Any]:
    """The JSON Schema of one entry of a block of a campaign's own definitions (see
    :func:`check_entries`): a new id (not one of ``reserved``), a name, and ``properties``."""
    return {
        "type": "object", "additionalProperties": False,
        "description": f"A campaign-defined {what} (docs/campaign-format.md, '{block}')",
        "required": [k for k, req in fields.items() if req],
        "properties": {"id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$",
                              "not": {"enum": list(reserved)}},
                       "name": {"type": "string", "minLength": 1}, **properties},
    }


def schema() -> dict[str, Any]:
    """The JSON Schema of one ``asset_types`` entry (for :mod:`.schema`)."""
    dice = {"type": ["string", "integer", "null"], "pattern": r"^\s*(\d*d\d+)?\s*([+-]\s*\d+)?\s*$"}
    return entry_schema("asset type", BLOCK, FIELDS, sorted(ASSET_TYPES), **{
            "attribute": {"enum": list(ATTRIBUTES)},
            "rating": {"type": "integer", "minimum": 1, "maximum": 8},
            "cost": {"type": "integer", "minimum": 0, "maximum": 100},
            "hp": {"type": "integer", "minimum": 1, "maximum": 100},
            "magic": {"enum": list(MAGIC_LEVELS)},
            "attack": {"oneOf": [{"type": "null"}, {
                "type": "object", "additionalProperties": False, "required": ["check", "damage"],
                "properties": {"check": {"enum": [f"{a} vs {d}" for a in ATTRIBUTES
                                                  for d in ATTRIBUTES]},
                               "damage": dice}}]},
            "counter": dice,
            "qualities": {"type": "array", "uniqueItems": True,
                          "items": {"enum": list(QUALITIES)}},
            "upkeep": {"type": "integer", "minimum": 0, "maximum": 100},
            "ability": ability_schema(EFFECTS),
    })
