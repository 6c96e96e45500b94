"""Campaign-defined (homebrew) WWN faction tags: the ``tag_types:`` block of a campaign.

A GM adds tags of their own beside the ten of the book; a faction then lists them in its
``tags:`` like any other. Each tag has at most one ``ability`` from the faction-wide part of the
homebrew effect vocabulary (:data:`TAG_EFFECTS`: the effects of :data:`.homebrew.EFFECTS` that
make sense for a whole faction, with the same names and parameters), applied on the same hook
points as the assets' (income, the dice of attack, defence and Expand Influence checks)::

    tag_types:
      - id: river-lords
        name: River Lords
        ability: {effect: income, treasure: 1}

``transport`` and ``repair`` are asset effects only (a tag has no location or hit points).

>>> tag = tag_types([{"id": "drilled", "name": "Drilled",
...                   "ability": {"effect": "defense-dice", "dice": 1}}])["drilled"]
>>> tag.effect, tag.param("dice"), describe(tag)
('defense-dice', 1, 'Its assets roll 1 extra die on their defence checks.')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from factionsim.core.game import Event

from .homebrew import EFFECTS, Effect, ability_schema, check_ability, check_entries, entry_schema, words

if TYPE_CHECKING:
    from .state import WwnState

#: the block's key in a campaign
BLOCK = "tag_types"
#: the most homebrew tags one campaign may define
MAX_TAGS = 50
#: the book's tags (6.5.0), which a homebrew tag may not redefine
STANDARD_TAGS = ("antimagical", "concealed", "imperialist", "innovative", "machiavellian",
                 "martial", "massive", "mobile", "populist", "rich")

#: The tags' part of the vocabulary: effect name -> :class:`~.homebrew.Effect` (its words
#: rewritten for a whole faction).
TAG_EFFECTS: dict[str, Effect] = {e.name: e for e in (
    Effect("income", EFFECTS["income"].params, ("income",),
           "+{treasure} Treasure at the start of the faction's turn."),
    Effect("attack-dice", EFFECTS["attack-dice"].params, ("extra_attack_dice",),
           "Its assets roll {dice} extra {die} on their attack checks."),
    Effect("defense-dice", EFFECTS["defense-dice"].params, ("extra_defense_dice",),
           "Its assets roll {dice} extra {die} on their defence checks."),
    Effect("expand-dice", EFFECTS["expand-dice"].params, ("expand_dice",),
           "It rolls {dice} extra {die} on its Expand Influence checks."),
)}

#: the fields of one homebrew tag: field -> required?
FIELDS = {"id": True, "name": True, "ability": False}


@dataclass(frozen=True, slots=True)
class TagType:
    """One homebrew tag: its id, name and ability (``effect`` None: a tag for flavour only)."""

    id: str
    name: str
    effect: str | None = None
    params: tuple[tuple[str, int], ...] = ()

    def param(self, name: str) -> int:
        """A parameter of the tag's ``effect`` (``KeyError`` when it has none by that name)."""
        return dict(self.params)[name]


def describe(tag: TagType) -> str:
    """A homebrew tag's ability in words; '' for none."""
    return words(TAG_EFFECTS[tag.effect], dict(tag.params)) if tag.effect else ""


def tag_types(rows: Sequence[Mapping[str, Any]]) -> dict[str, TagType]:
    """The checked ``tag_types:`` block, id -> :class:`TagType`."""
    out: dict[str, TagType] = {}
    for row in rows:
        ability = dict(row.get("ability") or {})
        effect = ability.pop("effect", None)
        out[row["id"]] = TagType(row["id"], row["name"], effect, tuple(sorted(ability.items())))
    return out


# ---------------------------------------------------------------------- the effects in play
def _holding(state: WwnState, faction: str, effect: str) -> list[TagType]:
    """The homebrew tags of ``faction`` with ``effect``, in the faction's tag order."""
    tags = state.tag_types
    if not tags:
        return []
    return [tags[t] for t in state.factions[faction].tags if t in tags and tags[t].effect == effect]


def extra_dice(state: WwnState, faction: str, effect: str) -> int:
    """Extra dice ``faction``'s homebrew tags give on checks of one kind (``effect``:
    ``attack-dice``, ``defense-dice`` or ``expand-dice``); several such tags add up."""
    return sum(t.param("dice") for t in _holding(state, faction, effect))


def run_income(state: WwnState, faction: str, events: list[Event]) -> None:
    """Pay the ``income`` of ``faction``'s homebrew tags (an ``ability`` event each, effect
    ``homebrew-tag-income``, source the tag's id)."""
    f = state.factions[faction]
    for tag in _holding(state, faction, "income"):
        amount = tag.param("treasure")
        f.treasure += amount
        events.append(Event(state.current_turn, "ability", faction, {
            "source": tag.id, "effect": "homebrew-tag-income", "amount": amount,
            "treasure": f.treasure}))


# ---------------------------------------------------------------------- checking
def check_tag_types(ck: Any, rows: Any, path: tuple[Any, ...] = (BLOCK,)) -> list[Any]:
    """Check the ``tag_types:`` block with ``ck`` (a :class:`factionsim.core.fields.Checker`):
    fields, a new id (not a book tag, not given twice), an ability from :data:`TAG_EFFECTS`.
    Returns the block unchanged."""
    for at, row in check_entries(ck, rows, path, "tag", FIELDS, MAX_TAGS, STANDARD_TAGS,
                                 "a tag of the book",
                                 "an id not among " + ", ".join(STANDARD_TAGS)):
        ck.text(row["name"], (*at, "name"), empty=False)
        if row.get("ability") is not None:
            check_ability(ck, row["ability"], (*at, "ability"), TAG_EFFECTS)
    return rows


def schema() -> dict[str, Any]:
    """The JSON Schema of one ``tag_types`` entry (for :mod:`.schema`)."""
    return entry_schema("faction tag", BLOCK, FIELDS, STANDARD_TAGS,
                        ability=ability_schema(TAG_EFFECTS))
