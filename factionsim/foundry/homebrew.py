"""Foundry asset items that are not book assets -> the campaign's own asset types.

A GM's world may hold assets of their own making. On import (``factionsim foundry import``) an
item whose name is no book asset is matched, by name or id, against the campaign's own
``asset_types:`` (so a homebrew asset exported by factionsim comes back as itself); with
``--homebrew`` an item matching nothing becomes a new ``asset_types:`` entry read from its sheet
(:func:`row_from_item`); without it, the import stops naming the item and both ways out.

Sheet fields read (``docs/foundry.md``): ``assetType`` (the attribute), ``rating``, ``cost``,
``health.max``, ``magic``, ``attackSource``/``attackTarget``/``attackDamage``, ``counter``,
``subtle``, ``maintenance`` (upkeep) and ``income`` (an ``income`` ability). A special attack,
and any ability text, have no counterpart in the vocabulary: the type plays with its stat line,
and the import notes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from factionsim.core.dice import Dice, DiceError
from factionsim.rules.wwn.data import ASSET_TYPES, ATTRIBUTES, MAGIC_LEVELS

from .actor import Reader
from .names import name_key, unique_slug

#: the campaign's block of its own asset types
BLOCK_KEY = "asset_types"


def find_row(rows: list[Mapping[str, Any]], name: str) -> str | None:
    """The id of the campaign's own asset type called ``name`` (its name or id, case and spacing
    ignored), or None."""
    key = name_key(name)
    return next((r["id"] for r in rows if key in (name_key(str(r.get("name", ""))),
                                                  name_key(str(r.get("id", ""))))), None)


def _dice(value: Any) -> str | None:
    """Dice text as the campaign writes it, or None for none / not dice."""
    text = str(value or "").strip()
    if not text or text.lower() in ("none", "special", "-", "—"):
        return None
    try:
        Dice.parse(text)
    except DiceError:
        return None
    return text


def row_from_item(r: Reader, item: Mapping[str, Any], path: tuple[Any, ...], name: str,
                  taken: set[str], warn: Callable[[str], None]) -> dict[str, Any]:
    """A new ``asset_types:`` entry read from the Foundry asset ``item`` (at ``path`` in the
    actor file), with an id not in ``taken``; refuses, naming the field, a sheet it cannot read
    as a stat line (an attribute other than force/cunning/wealth, HP below 1)."""
    system = item.get("system") if isinstance(item.get("system"), dict) else {}
    at = (*path, "system")
    attribute = str(system.get("assetType", "")).strip().lower()
    if attribute not in ATTRIBUTES:
        r.fail((*at, "assetType"), f"the homebrew asset {name!r} needs its attribute",
               system.get("assetType"), "cunning, force or wealth")
    health = system.get("health") if isinstance(system.get("health"), dict) else {}
    hp = _whole(health.get("max"), 0)
    if not 1 <= hp <= 100:
        r.fail((*at, "health", "max"), f"the homebrew asset {name!r} needs a max HP",
               health.get("max"), "a whole number from 1 to 100")
    row: dict[str, Any] = {
        "id": unique_slug(name, taken | set(ASSET_TYPES), "homebrew-asset"), "name": name,
        "attribute": attribute, "rating": min(8, max(1, _whole(system.get("rating"), 1))),
        "cost": min(100, max(0, _whole(system.get("cost"), 1))), "hp": hp}
    magic = str(system.get("magic", "none")).strip().lower()
    if magic in MAGIC_LEVELS and magic != "none":
        row["magic"] = magic
    damage = _dice(system.get("attackDamage"))
    source = str(system.get("attackSource", "")).strip().lower()
    target = str(system.get("attackTarget", "")).strip().lower()
    if damage and source in ATTRIBUTES and target in ATTRIBUTES:
        row["attack"] = {"check": f"{source} vs {target}", "damage": damage}
    else:
        row["attack"] = None
        if str(system.get("attackDamage", "")).strip():
            warn(f"{name!r}: its attack ({system.get('attackDamage')!r}) is not a dice attack "
                 "factionsim can play; the homebrew type has none.")
    row["counter"] = _dice(system.get("counter"))
    if system.get("subtle") is True:
        row["qualities"] = ["subtle"]
    upkeep = _whole(system.get("maintenance"), 0)
    if upkeep > 0:
        row["upkeep"] = min(100, upkeep)
    income = _whole(system.get("income"), 0)
    if income > 0:
        row["ability"] = {"effect": "income", "treasure": min(10, income)}
    elif system.get("special") is True:
        warn(f"{name!r}: its special ability is not in factionsim's vocabulary; the homebrew "
             "type plays with its stat line (add an 'ability' to its asset_types entry).")
    return row


def _whole(value: Any, default: int) -> int:
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return default
