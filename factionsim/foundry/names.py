"""Matching Foundry's free text to factionsim's ids: asset names, goals, tags, places.

Foundry stores names, not ids: an asset item is called "Free Company", a goal "Wealth of
Kingdoms", a location is whatever the GM typed. Names are compared after :func:`name_key`
(Unicode-normalised, case and punctuation ignored: ``"free  company"`` matches ``"Free
Company"``, ``"Base of Inf. Wealth"`` matches ``"base of inf wealth"``). A name that matches
nothing gets the closest candidates as suggestions (:meth:`NameIndex.suggest`).

>>> ASSET_NAMES.find("free  company"), ASSET_NAMES.find("Free-Company")
('free-company', 'free-company')
>>> ASSET_NAMES.suggest("Infantri")
['Infantry']
>>> slugify("Lantern Alley, Varenna"), slugify("Öd Marsh"), slugify("!!")
('lantern-alley-varenna', 'od-marsh', '')
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from functools import cache
from importlib import resources
from typing import Any

import yaml

from factionsim.rules.wwn.data import ASSETS
from factionsim.rules.wwn.goals import GOALS
from factionsim.rules.wwn.validate import TAGS


def normal_text(text: str) -> str:
    """Unicode-normalised, case-folded, inner whitespace collapsed: how places are compared."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def name_key(text: str) -> str:
    """:func:`normal_text` with every character but letters and digits dropped."""
    return "".join(ch for ch in normal_text(text) if ch.isalnum())


def slugify(text: str) -> str:
    """A campaign id made from a name (lowercase ASCII letters, digits and ``-``; may be empty)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def unique_slug(text: str, taken: set[str] | dict[str, Any], fallback: str) -> str:
    """:func:`slugify` of ``text`` (``fallback`` when empty), with ``-2``, ``-3``... until it is
    not in ``taken``."""
    base = slugify(text) or fallback
    if not base[0].isalnum():
        base = f"{fallback}-{base}"
    out, n = base, 2
    while out in taken:
        out, n = f"{base}-{n}", n + 1
    return out


class NameIndex:
    """Display names (and ids) -> ids, compared by :func:`name_key`."""

    def __init__(self, names: dict[str, str]):
        self.names = names  # id -> display name
        self.by_key: dict[str, str] = {}
        for ident, name in names.items():
            self.by_key.setdefault(name_key(name), ident)
            self.by_key.setdefault(name_key(ident), ident)

    def find(self, text: str) -> str | None:
        return self.by_key.get(name_key(text))

    def suggest(self, text: str, n: int = 3) -> list[str]:
        """The display names closest to ``text`` (at most ``n``)."""
        by_name = {name_key(name): name for name in self.names.values()}
        close = difflib.get_close_matches(name_key(text), list(by_name), n=n, cutoff=0.6)
        return [by_name[k] for k in close]


ASSET_NAMES = NameIndex({k: a.name for k, a in ASSETS.items()})
GOAL_NAMES = NameIndex(dict(GOALS))
TAG_NAMES = NameIndex({t: t.title() for t in TAGS})


def did_you_mean(options: list[str]) -> str:
    return " (did you mean " + " or ".join(repr(o) for o in options) + "?)" if options else ""


@cache
def catalogue() -> dict[str, Any]:
    """``catalogue.yaml``: pack ids, upkeep and income, tag and goal texts."""
    text = resources.files(__package__).joinpath("catalogue.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


@cache
def asset_of_pack_id() -> dict[str, str]:
    """Pack id -> asset id (the inverse of ``catalogue()["pack_ids"]``)."""
    return {pack: asset for asset, pack in catalogue()["pack_ids"].items()}
