"""The pieces of a WWN game: factions, assets and goals in play (plain mutable records).

Rules live in the other modules; these classes only hold data and derive simple facts from it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from factionsim.core.writecount import WriteCounter, counting_setattr

from .data import (
    ASSET_TYPES,
    ATTRIBUTES,
    BASE_OF_INFLUENCE,
    HP_FROM_RATING,
    MAGIC_LEVELS,
    AssetType,
)


@dataclass(slots=True)
class Goal:
    """A faction's current goal and its progress.

    ``target`` is the goal's parameter (an asset id, ``faction@location``, an attribute or empty);
    ``progress`` counts toward completion; ``needed`` is the amount that completes it;
    ``difficulty`` the XP it pays (None when computed at completion); ``started`` the turn it was
    adopted in; ``baseline`` the asset ids that never count (Inside Enemy Territory: the units
    Stealthed in enemy ground at adoption).
    """

    id: str
    target: str = ""
    progress: int = 0
    needed: int = 0
    difficulty: int | None = None
    started: int = 0
    contested: bool = False
    baseline: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        return {k: v for k, v in d.items() if v or k in ("id", "progress")}


#: How many changes assets in play have seen, all games of this process together: every
#: assignment to an :class:`Asset`'s field that changes its value, and every change of a status
#: dictionary (:class:`AssetStatus`). With :attr:`AssetTable.version` (assets in or out of play,
#: new owners) it dates what a view's assets show (``WwnView.assets_stamp``), so the env's codec
#: can keep what it built from them until they change.
ASSET_CHANGES = WriteCounter()

_set_field = object.__setattr__
#: a field write that counts in :data:`ASSET_CHANGES` only when it changes the value
_count_change = counting_setattr(ASSET_CHANGES, changes_only=True)


class ChangeLog:
    """Which assets changed, in order, for caches that rework only what changed (the env's
    codec re-keys only those assets' observation rows: ``WwnCodec._current_part``).

    ``entries`` holds the :class:`Asset` objects whose fields changed (each time one counts in
    :data:`ASSET_CHANGES`), a :class:`TableChange` for an asset that entered or left an
    :class:`AssetTable`, and ``None`` for a change a reader must work everything out again for:
    a new owner, an asset replaced under its id, a table change of several assets at once, and a
    change of a status dictionary that may change what an observation row shows (its ``subtle``
    entry, or a write of several entries at once); other status writes change no row and log
    nothing (they still count in :data:`ASSET_CHANGES`). ``position()`` is the number of
    entries ever logged; past :data:`LOG_SIZE` entries the log is emptied, so a reader that
    kept an older position than ``dropped`` must work everything out again. One log for the
    whole process, as the counter: it holds other games' assets too (a reader skips those it
    does not show)."""

    __slots__ = ("entries", "dropped")

    def __init__(self) -> None:
        self.entries: list[Asset | None] = []
        self.dropped = 0  # entries emptied out so far

    def position(self) -> int:
        return self.dropped + len(self.entries)

    def add(self, entry: Asset | None) -> None:
        if len(self.entries) >= LOG_SIZE:
            self.empty()
        self.entries.append(entry)

    def empty(self) -> None:
        """Drop every entry: a reader that kept an older position works everything out again."""
        self.dropped += len(self.entries)
        self.entries.clear()

    def since(self, position: int) -> list[Asset | None] | None:
        """The entries logged since ``position``, or ``None`` when some were emptied out."""
        start = position - self.dropped
        return None if start < 0 else self.entries[start:]


class TableChange:
    """An entry of :data:`ASSET_LOG`: ``asset`` entered (``added``) or left an
    :class:`AssetTable` (which one, the log does not say: a reader checks its own table)."""

    __slots__ = ("asset", "added")

    def __init__(self, asset: Asset, added: bool):
        self.asset, self.added = asset, added


#: Most entries :class:`ChangeLog` keeps.
LOG_SIZE = 1024
#: The assets changed in this process (see :class:`ChangeLog`).
ASSET_LOG = ChangeLog()
#: the status entry an observation row reads (``Asset.subtle``)
_ROW_STATUS = "subtle"


def _status_written(key: str | None = None) -> None:
    """Count a write to an asset's status in :data:`ASSET_CHANGES`, and log it in
    :data:`ASSET_LOG` (as ``None``: readers work everything out again) where it may change what
    an observation row shows: the entry ``key`` is its ``subtle`` entry, or several entries are
    written at once (no ``key``)."""
    ASSET_CHANGES.count += 1
    if key is None or key == _ROW_STATUS:
        ASSET_LOG.add(None)


class AssetStatus(dict):
    """An asset's ability bookkeeping (``Asset.status``): a dict that counts its changes in
    :data:`ASSET_CHANGES`: every write (``[]=``, ``update``, ``|=``), whether or not it changes
    a value, and every removal that removes something (``pop``, ``del``, ``popitem``, ``clear``,
    and ``setdefault`` when it adds the key). Removing a key that is not there changes nothing
    and counts nothing: the rules do it at nearly every asset action (``on_act``'s
    ``pop("until_acts", None)``, a move's ``pop("arriving", None)``), and each count would make
    every cache of the assets miss."""

    __slots__ = ()

    def __setitem__(self, key: str, value: Any) -> None:
        _status_written(key)
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        _status_written(key)
        super().__delitem__(key)

    def pop(self, key: str, *default: Any) -> Any:
        if key in self:
            _status_written(key)
        return super().pop(key, *default)

    def popitem(self) -> tuple[str, Any]:
        if self:
            _status_written()
        return super().popitem()

    def clear(self) -> None:
        if self:
            _status_written()
        super().clear()

    def update(self, *args: Any, **kwargs: Any) -> None:
        _status_written()
        super().update(*args, **kwargs)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            _status_written(key)
        return super().setdefault(key, default)

    def __ior__(self, other: Any) -> AssetStatus:
        _status_written()
        return super().__ior__(other)  # type: ignore[no-any-return]


@dataclass(slots=True)
class Asset:
    """An asset in play. ``id`` is ``"<type>#<n>"``, unique in the game.

    ``type`` never changes (nothing turns an asset into another type), so ``is_base`` is worked
    out once, at creation: it is read for nearly every asset at every decision. ``owner`` changes
    only through :meth:`AssetTable.reassign` (the table keeps an index by owner).
    """

    id: str
    type: str
    owner: str
    location: str
    hp: int
    max_hp: int
    stealth: bool = False
    exposed: bool = False  # in a location that forbids it since the start of its owner's turn
    status: dict[str, Any] = field(default_factory=AssetStatus)  # ability bookkeeping
    #: its stat line, from the state's asset table (``WwnState.asset_types``: the standard types
    #: and the campaign's own); left out, the standard table's
    kind: AssetType = field(default=None, repr=False, compare=False)  # type: ignore[assignment]
    is_base: bool = field(init=False, repr=False, compare=False)  # a Base of Influence

    def __init__(self, id: str, type: str, owner: str, location: str, hp: int, max_hp: int,  # noqa: A002
                 stealth: bool = False, exposed: bool = False,
                 status: dict[str, Any] | None = None, kind: AssetType | None = None) -> None:
        # (written out rather than the dataclass's, whose writes go through __setattr__: for a
        # new asset each would first look up a field not set yet, an AttributeError caught)
        _set_field(self, "id", id)
        _set_field(self, "type", type)
        _set_field(self, "owner", owner)
        _set_field(self, "location", location)
        _set_field(self, "hp", hp)
        _set_field(self, "max_hp", max_hp)
        _set_field(self, "stealth", stealth)
        _set_field(self, "exposed", exposed)
        _set_field(self, "status", status if status.__class__ is AssetStatus
                   else AssetStatus(() if status is None else status))
        _set_field(self, "kind", ASSET_TYPES[type] if kind is None else kind)
        _set_field(self, "is_base", type == BASE_OF_INFLUENCE)

    def __setattr__(self, name: str, value: Any) -> None:
        """Set a field; a change of value counts in :data:`ASSET_CHANGES` and logs the asset in
        :data:`ASSET_LOG` (setting a field for the first time, as ``__init__`` does, does not: a
        new asset enters play through its table, which counts it). A status dictionary is kept
        as an :class:`AssetStatus`."""
        if name == "status" and type(value) is not AssetStatus:
            value = AssetStatus(value)
        count = ASSET_CHANGES.count
        _count_change(self, name, value)
        if ASSET_CHANGES.count != count:
            ASSET_LOG.add(self if name != "owner" else None)

    @property
    def attribute(self) -> str:
        return self.kind.attribute

    @property
    def subtle(self) -> bool:
        return self.kind.subtle or bool(self.status.get("subtle"))

    @property
    def damaged(self) -> bool:
        return self.hp < self.max_hp

    def to_dict(self) -> dict[str, Any]:
        n = int(self.id.rsplit("#", 1)[1])
        d: dict[str, Any] = {"id": n, "type": self.type, "location": self.location, "hp": self.hp}
        if self.is_base:
            d["max_hp"] = self.max_hp
        if self.stealth:
            d["stealth"] = True
        if self.exposed:
            d["exposed"] = True
        if self.status:
            d["status"] = dict(sorted(self.status.items()))
        return d


class AssetTable(dict):
    """``state.assets``: a dict of the assets in play that counts its changes (``version``: an
    asset in or out of play, or given to another owner), so lookups derived from it (which assets
    have which ability, which faction owns which) can be cached safely."""

    #: class defaults: unpickling fills the dict (``__setitem__``) before restoring attributes
    version = 0
    _by_owner: tuple[int, dict[str, tuple[Asset, ...]]] = (-1, {})

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.version = 0
        #: an object made with this table (copies and unpickled tables get their own): with
        #: ``version`` it tells this table's states apart from any other table's
        self.token = object()

    def __copy__(self) -> AssetTable:
        return AssetTable(self)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickled or deep-copied: its attributes, and a token of its own."""
        self.__dict__.update(state)
        self.token = object()

    def owned_by(self, owner: str) -> tuple[Asset, ...]:
        """The assets of faction ``owner``, in table order (an index kept until the next change)."""
        version, index = self._by_owner
        if version != self.version:
            lists: dict[str, list[Asset]] = {}
            for a in self.values():
                lists.setdefault(a.owner, []).append(a)
            index = {fid: tuple(own) for fid, own in lists.items()}
            self._by_owner = (self.version, index)
        return index.get(owner, ())

    def reassign(self, asset: Asset, owner: str) -> None:
        """Give ``asset`` (in play) to faction ``owner``: the one way to change an owner."""
        asset.owner = owner
        self.version += 1

    # (each change is logged in ASSET_LOG too: one asset in or out, or None for any other)
    def __setitem__(self, key: str, value: Asset) -> None:
        replaced = key in self
        super().__setitem__(key, value)
        self.version += 1
        ASSET_LOG.add(None if replaced else TableChange(value, True))

    def __delitem__(self, key: str) -> None:
        asset = self[key]
        super().__delitem__(key)
        self.version += 1
        ASSET_LOG.add(TableChange(asset, False))

    def pop(self, *args: Any) -> Any:
        self.version += 1
        if args and args[0] in self:
            asset = super().pop(*args)
            ASSET_LOG.add(TableChange(asset, False))
            return asset
        return super().pop(*args)

    def popitem(self) -> tuple[str, Asset]:
        self.version += 1
        ASSET_LOG.add(None)
        return super().popitem()

    def clear(self) -> None:
        self.version += 1
        ASSET_LOG.add(None)
        super().clear()

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.version += 1
        ASSET_LOG.add(None)
        super().update(*args, **kwargs)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self.version += 1
        ASSET_LOG.add(None)
        return super().setdefault(key, default)


@dataclass(slots=True)
class Faction:
    """A faction's sheet: ratings, Treasure, HP, XP, tags, goal and who plays it."""

    id: str
    name: str
    force: int
    cunning: int
    wealth: int
    magic: str
    treasure: int
    hp: int
    xp: int
    tags: tuple[str, ...]
    goal: Goal | None
    agent: str
    headquarters: str
    agent_options: dict[str, Any] = field(default_factory=dict)
    alive: bool = True
    paralysed: bool = False  # abandoned a goal: no abilities and no action next turn
    xp_earned: int = 0
    goals_completed: int = 0
    wealth_at_last_kingdoms: int = 0  # Wealth of Kingdoms needs a higher Wealth to repeat
    headquarters_lost: bool = False  # its headquarters Base was destroyed (it is not rebuilt)

    def rating(self, attribute: str) -> int:
        return getattr(self, attribute)

    @property
    def ratings(self) -> tuple[int, int, int]:
        return (self.force, self.cunning, self.wealth)

    @property
    def max_hp(self) -> int:
        """:func:`.data.max_faction_hp` of its ratings (the table read here: asked several
        times a decision, by the scores and the observation)."""
        return HP_FROM_RATING[self.force] + HP_FROM_RATING[self.wealth] + HP_FROM_RATING[self.cunning]

    @property
    def magic_level(self) -> int:
        return MAGIC_LEVELS.index(self.magic)

    def has_tag(self, tag: str) -> bool:
        return tag in self.tags

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id, "name": self.name,
            **{a: self.rating(a) for a in ATTRIBUTES},
            "magic": self.magic, "treasure": self.treasure, "hp": self.hp, "xp": self.xp,
            "tags": list(self.tags),
            "goal": self.goal.to_dict() if self.goal else None,
            "agent": self.agent,
        }
        if self.agent_options:
            d["agent_options"] = dict(self.agent_options)
        d["headquarters"] = self.headquarters
        for key in ("paralysed", "xp_earned", "goals_completed", "wealth_at_last_kingdoms",
                    "headquarters_lost"):
            if getattr(self, key):
                d[key] = getattr(self, key)
        if not self.alive:
            d["alive"] = False
        return d
