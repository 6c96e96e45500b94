"""The WWN game state: the engine contract of ``factionsim.core.game`` for Worlds Without Number.

>>> from factionsim.rules.wwn.state import WwnState
>>> from factionsim.configs import default_campaign_path
>>> from factionsim import load_campaign
>>> s = load_campaign(default_campaign_path("wwn"))
>>> s.current_actor() in s.factions
True
"""

from __future__ import annotations

import json
import operator
from typing import Any

import numpy as np

from factionsim.core.calendar import campaign_calendar
from factionsim.core.engine import DecisionState
from factionsim.core.game import View, state_attribute
from factionsim.core.mapgraph import Location, MapGraph
from factionsim.core.ruleset import DEFAULT_AGENT

from . import (
    abilities,
    ability,  # noqa: F401  (importing it registers the asset abilities)
    economy,
    goals,
    homebrew,
    homebrew_goals,
    homebrew_tags,
    movement,
    turn,
)
from .ability.homebrew import hook_tables
from .actions import ChooseGoal
from .data import BASE_OF_INFLUENCE, AssetType
from .house_rules import BLOCK as HOUSE_RULES
from .house_rules import HouseRules
from .model import ASSET_CHANGES, Asset, AssetTable, Faction, Goal

_ID_ALIVE = operator.attrgetter("id", "alive")


def _empty_caches() -> dict[str, Any]:
    """What a state keeps of its own answers, empty: a new state, a new homebrew table and a
    pickled or copied state start from these (each is rebuilt when first asked)."""
    return {"holders_cache": (-1, {}),  # see abilities._holders
            "goal_options_cache": {},  # see goals.options
            "upkeep_cache": {},  # see economy.owned_by_attribute
            "location_cache": (None, {}),  # see assets_at
            "hostile_cache": (None, {})}  # see hostile_factions


class WwnState(DecisionState):
    """A WWN campaign in play: map, relations, factions, assets, the turn in progress and the RNG.

    Build one with :func:`factionsim.load_campaign` (validated) or :meth:`from_dict`.
    ``turn`` counts completed turns; ``max_turns`` (optional) ends the game when reached (it is
    one of the campaign's ``house_rules``, see :mod:`.house_rules`).
    """

    ruleset = "wwn"
    decision_module = turn

    def __init__(self) -> None:
        self.house_rules = HouseRules()
        super().__init__()
        self.map = MapGraph([])
        self.relations: dict[frozenset[str], str] = {}
        self.factions: dict[str, Faction] = {}
        self.assets: AssetTable = AssetTable()
        self.next_asset = 1
        # the turn in progress (see turn.py)
        self.order: list[str] = []
        self.order_index = 0
        self.initiative: dict[str, int] = {}
        self.holders_cache: tuple[int, dict[str, list]]
        self.goal_options_cache: dict[str, tuple]
        self.upkeep_cache: dict[str, tuple]
        self.location_cache: tuple[Any, dict[str, list[Asset]]]
        self.hostile_cache: tuple[Any, dict[str, list[str]]]
        self.set_homebrew([])  # (which empties the caches above: _empty_caches)

    def set_homebrew(self, rows: list[dict[str, Any]], tags: list[dict[str, Any]] | None = None,
                     goals: list[dict[str, Any]] | None = None) -> None:
        """Use the campaign's own asset types (the checked ``asset_types:`` block, see
        :mod:`.homebrew`): ``asset_types`` is then the standard table plus them, and ``hooks``
        the hook tables with their abilities (:func:`.ability.homebrew.hook_tables`); and its
        own tags and goals (``tag_types:``, ``goal_types:``: :mod:`.homebrew_tags`,
        :mod:`.homebrew_goals`) as ``tag_types`` and ``goal_types``."""
        self.homebrew_rows = rows
        #: the checked ``tag_types:`` and ``goal_types:`` blocks, saved back as read
        self.tag_rows, self.goal_rows = list(tags or ()), list(goals or ())
        #: id -> the campaign's own tags and goals (the book's are not in these)
        self.tag_types = homebrew_tags.tag_types(self.tag_rows)
        self.goal_types = homebrew_goals.goal_types(self.goal_rows)
        #: id -> stat line of every type this game knows: the standard ones and the campaign's
        self.asset_types: dict[str, AssetType] = homebrew.asset_table(rows)
        #: hook point -> type -> function: :data:`.hooks.HOOKS`, plus the homebrew abilities
        self.hooks = hook_tables(self.asset_types)
        self.__dict__.update(_empty_caches())

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the hook tables (functions), rebuilt from the asset table on load."""
        d = dict(self.__dict__)
        d.pop("hooks", None)
        d.update(_empty_caches())
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.__dict__.update(d)
        self.__dict__.update(_empty_caches())
        self.hooks = hook_tables(self.asset_types)

    @property
    def max_turns(self) -> int | None:  # type: ignore[override]
        """The turn after which the game is over (``house_rules.max_turns``), or None."""
        return self.house_rules.max_turns

    @max_turns.setter
    def max_turns(self, value: int | None) -> None:
        self.house_rules.max_turns = value

    # ------------------------------------------ the engine contract (the rest: DecisionState)
    def scores(self) -> dict[str, float]:
        """1 + XP earned from goals + the fraction of HP left for a faction alive, 0 for one gone."""
        return {
            f.id: (1.0 + f.xp_earned + f.hp / f.max_hp) if f.alive else 0.0
            for f in self.factions.values()
        }

    def view(self, faction: str) -> WwnView:
        """What ``faction`` can see: everything but other factions' Stealthed assets."""
        return WwnView(self, faction)

    def location_ids(self) -> tuple[str, ...]:
        return tuple(self.map.locations)

    def faction_summary(self) -> dict[str, dict[str, Any]]:
        """HP, Treasure, XP and the current goal of each faction."""
        return {f.id: {"alive": f.alive, "hp": f.hp, "treasure": f.treasure, "xp": f.xp,
                       "goal": f.goal.id if f.goal else None} for f in self.factions.values()}

    def goals_completed(self) -> dict[str, int]:
        return {f.id: int(f.goals_completed) for f in self.factions.values()}

    def display_names(self) -> dict[str, Any]:
        return {"factions": {f.id: f.name for f in self.factions.values()},
                "locations": {loc.id: loc.name for loc in self.map.locations.values()},
                "asset_types": {k: v.name for k, v in self.asset_types.items()}, "ruleset": "wwn",
                "goals": {k: v.name for k, v in self.goal_types.items()},
                "notes": (self.house_rules.summary(),), "calendar": campaign_calendar(self.extra)}

    # ----------------------------------------------------------------- queries
    def relation(self, a: str, b: str) -> str:
        """``allied``, ``neutral`` or ``hostile`` (``self`` for one faction); pairs the campaign
        does not list have the house rule ``relations_default`` (hostile unless set)."""
        if a == b:
            return "self"
        return self.relations.get(frozenset((a, b)), self.house_rules.relations_default)

    def hostile(self, a: str, b: str) -> bool:
        return a != b and self.relation(a, b) == "hostile"

    def hostile_factions(self, faction: str) -> list[str]:
        """The living factions hostile to ``faction``, in campaign order (as :meth:`hostile`
        asked of each, reading the listed relations once; a new list).

        Kept in ``hostile_cache`` for every faction while the listed relations, the default
        relation and the factions with whether each is alive are the same (compared whole,
        with C calls: a relation written into the dict in place is seen too)."""
        relations = self.relations
        default = self.house_rules.relations_default
        key = (tuple(relations.items()), default, tuple(map(_ID_ALIVE, self.factions.values())))
        kept_key, answers = self.hostile_cache
        if kept_key != key:
            answers = {}
            self.hostile_cache = (key, answers)
        found = answers.get(faction)
        if found is None:
            listed = {other: rel for pair, rel in relations.items() if faction in pair
                      for other in pair if other != faction}
            found = answers[faction] = [
                fid for fid, f in self.factions.items()
                if f.alive and fid != faction and listed.get(fid, default) == "hostile"]
        return list(found)

    def living_factions(self) -> list[Faction]:
        return [f for f in self.factions.values() if f.alive]

    def assets_of(self, faction: str) -> tuple[Asset, ...]:
        """The faction's assets in play, in asset order (``AssetTable.owned_by``; its kept index
        read here while it holds: asked several times a decision)."""
        table = self.assets
        version, index = table._by_owner
        if version == table.version:
            return index.get(faction, ())
        return table.owned_by(faction)

    def assets_stamp(self) -> tuple[object, int, int]:
        """``(token, version, changes)`` of the asset table: see :meth:`WwnView.assets_stamp`."""
        table = self.assets
        return (table.token, table.version, ASSET_CHANGES.count)

    def assets_at(self, location: str) -> list[Asset]:
        """The assets in play at ``location``, in asset order (a new list).

        From an index of every location's assets kept in ``location_cache`` while
        :meth:`assets_stamp` is unchanged (:data:`.model.ASSET_CHANGES` counts every change of
        location): the rules ask it for each asset of a faction when listing Hide and Attack options."""
        stamp = self.assets_stamp()
        key, index = self.location_cache
        if key != stamp:
            index = {}
            for a in self.assets.values():
                here = index.get(a.location)
                if here is None:
                    index[a.location] = [a]
                else:
                    here.append(a)
            self.location_cache = (stamp, index)
        return list(index.get(location, ()))

    def base_of(self, faction: str, location: str) -> Asset | None:
        for a in self.assets_of(faction):
            if a.location == location and a.is_base:
                return a
        return None

    def new_asset(self, type_id: str, owner: str, location: str, hp: int | None = None,
                  max_hp: int | None = None, stealth: bool = False) -> Asset:
        kind = self.asset_types[type_id]
        max_hp = max_hp if max_hp is not None else kind.hp
        asset = Asset(f"{type_id}#{self.next_asset}", type_id, owner, location,
                      max_hp if hp is None else hp, max_hp, stealth, kind=kind)
        self.next_asset += 1
        self.assets[asset.id] = asset
        return asset

    def headquarters_base(self, faction: str) -> Asset | None:
        """The faction's headquarters Base (None once it was destroyed: a Base planted later is
        an ordinary one)."""
        f = self.factions[faction]
        return None if f.headquarters_lost else self.base_of(faction, f.headquarters)

    # ----------------------------------------------------------------- serialization
    def to_dict(self) -> dict[str, Any]:
        """The campaign as plain data (the campaign-file format), RNG state included."""
        d = self.common_fields_data()
        d.pop("max_turns", None)  # saved among the house rules
        if rules := self.house_rules.to_data():
            d[HOUSE_RULES] = rules
        if self.homebrew_rows:
            d[homebrew.BLOCK] = list(self.homebrew_rows)
        if self.tag_rows:
            d[homebrew_tags.BLOCK] = list(self.tag_rows)
        if self.goal_rows:
            d[homebrew_goals.BLOCK] = list(self.goal_rows)
        d["locations"] = [_location_dict(loc) for loc in self.map.locations.values()]
        d["relations"] = [[*sorted(k, key=list(self.factions).index), v]
                          for k, v in self.relations.items()
                          if v != self.house_rules.relations_default]
        d["factions"] = []
        for f in self.factions.values():
            fd = f.to_dict()
            fd["assets"] = [a.to_dict() for a in self.assets_of(f.id)]
            d["factions"].append(fd)
        d["next_asset"] = self.next_asset
        if self.phase != turn.TURN_START:
            d["in_progress"] = self.in_progress_data(initiative=dict(self.initiative))
        d["rng"] = self.rng_data()
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> WwnState:
        """Build a state from validated campaign data (see ``validate.py`` for checking)."""
        s = cls()
        s.read_common_fields(d, {"locations", "relations", "factions", "next_asset", HOUSE_RULES,
                                 homebrew.BLOCK, homebrew_tags.BLOCK, homebrew_goals.BLOCK})
        s.set_homebrew(list(d.get(homebrew.BLOCK) or ()), d.get(homebrew_tags.BLOCK),
                       d.get(homebrew_goals.BLOCK))
        s.house_rules = HouseRules.from_data(d.get(HOUSE_RULES), d.get("max_turns"))
        s.map = MapGraph([
            Location(loc["id"], loc.get("name", loc["id"]), tuple(loc.get("neighbors", ())),
                     bool(loc.get("coastal", False)), loc.get("ruler"))
            for loc in d["locations"]
        ])
        s.relations = {frozenset((a, b)): rel for a, b, rel in d.get("relations", [])}
        pending_assets: list[tuple[str, dict[str, Any]]] = []
        fresh_goals: dict[str, Goal] = {}
        for fd in d["factions"]:
            goal = fd.get("goal")
            if isinstance(goal, str):
                goal = {"id": goal}
            f = Faction(
                id=fd["id"], name=fd.get("name", fd["id"]), force=fd["force"],
                cunning=fd["cunning"], wealth=fd["wealth"], magic=fd.get("magic", "none"),
                treasure=fd.get("treasure", 0), hp=0, xp=fd.get("xp", 0),
                tags=tuple(fd.get("tags", ())), goal=Goal(**goal) if goal else None,
                agent=fd.get("agent", DEFAULT_AGENT), headquarters=fd["headquarters"],
                agent_options=dict(fd.get("agent_options", {})),
                alive=fd.get("alive", True), paralysed=fd.get("paralysed", False),
                xp_earned=fd.get("xp_earned", 0), goals_completed=fd.get("goals_completed", 0),
                wealth_at_last_kingdoms=fd.get("wealth_at_last_kingdoms", 0),
                headquarters_lost=fd.get("headquarters_lost", False),
            )
            f.hp = fd["hp"] if fd.get("hp") is not None else (f.max_hp if f.alive else 0)
            if f.goal is not None and not f.goal.needed:  # named in the file, not yet set up
                fresh_goals[f.id] = f.goal
            s.factions[f.id] = f
            pending_assets.extend((f.id, ad) for ad in fd.get("assets", ()))
        numbered = [ad["id"] for _, ad in pending_assets if ad.get("id") is not None]
        s.next_asset = max([d.get("next_asset", 1), *(n + 1 for n in numbered)])
        for owner, ad in pending_assets:
            kind = s.asset_types[ad["type"]]
            max_hp = ad.get("max_hp") or kind.hp
            if ad.get("id") is None:
                ad = {**ad, "id": s.next_asset}
                s.next_asset += 1
            a = Asset(f"{ad['type']}#{ad['id']}", ad["type"], owner, ad["location"],
                      ad.get("hp", max_hp), max_hp, bool(ad.get("stealth", False)),
                      bool(ad.get("exposed", False)), dict(ad.get("status", {})), kind=kind)
            s.assets[a.id] = a
        for f in s.factions.values():
            if f.alive and not f.headquarters_lost:
                s._ensure_headquarters(f)
        s.assets = AssetTable(sorted(s.assets.items(), key=lambda kv: int(kv[0].rsplit("#", 1)[1])))
        for fid, g in fresh_goals.items():  # as if chosen at the end of the last turn played
            goals.adopt(s, s.factions[fid], ChooseGoal(g.id, g.target), started=s.turn)
        s.read_rng(d)
        if "in_progress" in d:
            s.read_in_progress(d["in_progress"])
            s.initiative = dict(d["in_progress"]["initiative"])
        return s

    def _ensure_headquarters(self, f: Faction) -> None:
        """A faction has a Base of Influence at its headquarters with max HP = faction max HP: one
        a campaign does not list is created at full HP, unless the faction lost it in play
        (``headquarters_lost``)."""
        hq = self.headquarters_base(f.id)
        if hq is None:
            self.new_asset(BASE_OF_INFLUENCE, f.id, f.headquarters, max_hp=f.max_hp)
        else:
            hq.max_hp = f.max_hp
            hq.hp = min(hq.hp, hq.max_hp)


class WwnView(View):
    """What one faction knows: the state minus other factions' Stealthed assets.

    Besides the contract's accessors (:class:`~factionsim.core.game.View`) it offers:

    - the campaign: ``map`` (the :class:`~factionsim.core.mapgraph.MapGraph`), ``relations``
      (the listed pairs), :meth:`relation`, :meth:`hostile`, ``asset_types`` and ``hooks`` (the
      campaign's asset table and ability hooks), ``tag_types`` and ``goal_types`` (its own tags
      and goals), ``house_rules``;
    - the factions: ``factions`` (id -> record, campaign order) and :meth:`living_factions`.
      The records are the engine's, for what is public of them (name, HP, ratings, Magic,
      tags, headquarters, whether alive); a rival's Treasure, XP and goal are its own secrets;
    - the turn: ``order`` (the initiative order, public) and ``order_index``, :meth:`acting`;
    - the assets it can see (its own, and the others' not Stealthed), in asset order:
      :meth:`assets`, :meth:`asset` (by id; ``None`` when unseen), :meth:`assets_of`,
      :meth:`assets_at`;
    - the rules' answers its heuristic asks, each about what the faction can see or do:
      :meth:`move_range`, :meth:`forbids`, :meth:`destinations`, :meth:`usable`,
      :meth:`can_defend`, :meth:`ruling_faction`, :meth:`purchase_cost`, :meth:`buyable`,
      :meth:`creatable`.

    ``to_state(rng)`` rebuilds a playable state from this knowledge alone (for planners): hidden
    assets are absent and the dice come from ``rng``, not the true game's generator.
    """

    __slots__ = ()

    # ------------------------------------------------------------ the campaign
    map = state_attribute("map", "The campaign's :class:`~factionsim.core.mapgraph.MapGraph`.")
    relations = state_attribute(
        "relations", "The relations the campaign lists (pair -> relation); :meth:`relation` "
        "reads them with the default for the pairs it does not list.")
    asset_types = state_attribute("asset_types", "The asset table: id -> :class:`AssetType`.")
    hooks = state_attribute("hooks", "The ability hooks: hook name -> asset type id -> handler.")
    tag_types = state_attribute(
        "tag_types", "The campaign's own faction tags (``tag_types:``), id -> definition.")
    goal_types = state_attribute(
        "goal_types", "The campaign's own goals (``goal_types:``), id -> definition.")
    house_rules = state_attribute("house_rules", "The campaign's :class:`HouseRules`.")

    def relation(self, a: str, b: str) -> str:
        return self._state.relation(a, b)

    def hostile(self, a: str, b: str) -> bool:
        return self._state.hostile(a, b)

    # ------------------------------------------------------------ factions and the turn
    factions = state_attribute("factions", "id -> :class:`Faction`, campaign order.")
    order = state_attribute("order", "The initiative order (faction ids; public).")

    def living_factions(self) -> list[Faction]:
        return self._state.living_factions()

    def acting(self) -> Faction:
        """The faction whose turn it is."""
        return turn.acting(self._state)

    # ------------------------------------------------------------ the assets it can see
    def visible(self, asset: Asset) -> bool:
        return asset.owner == self.faction_id or not asset.stealth

    def assets_stamp(self) -> tuple[object, int, int]:
        """``(token, version, changes)``: equal to an earlier stamp (the same ``token`` object,
        compared with ``is``, and equal numbers) only while nothing :meth:`assets` shows can
        have changed: the same asset table (its ``token``, an opaque object), no asset entered
        or left play or changed hands (its ``version``), and no field or status entry of any
        asset changed (:data:`.model.ASSET_CHANGES`). The env's codec keeps what it built from
        the assets until the stamp changes."""
        return self._state.assets_stamp()

    def assets(self) -> list[Asset]:
        """Every asset this faction can see, in asset order."""
        me = self.faction_id
        return [a for a in self._state.assets.values() if not a.stealth or a.owner == me]

    def asset(self, asset_id: str | None) -> Asset | None:
        """The asset ``asset_id`` if this faction can see it, else ``None``."""
        a = self._state.assets.get(asset_id)
        return a if a is not None and (not a.stealth or a.owner == self.faction_id) else None

    def assets_of(self, faction: str) -> tuple[Asset, ...]:
        """``faction``'s assets that this faction can see, in asset order."""
        owned = self._state.assets_of(faction)
        return owned if faction == self.faction_id else tuple(a for a in owned if not a.stealth)

    def assets_at(self, location: str) -> list[Asset]:
        return [a for a in self.assets() if a.location == location]

    # ------------------------------------------------------------ the rules' answers
    def move_range(self, faction: str) -> int:
        """How far ``faction``'s assets move (:func:`.movement.move_range`)."""
        return movement.move_range(self._state, faction)

    def forbids(self, location: str, asset: Asset) -> bool:
        """Whether ``location`` refuses ``asset`` (:func:`.movement.forbids`)."""
        return movement.forbids(self._state, location, asset)

    def destinations(self, asset: Asset) -> list[str]:
        """Where ``asset`` may move now (:func:`.movement.destinations`)."""
        return movement.destinations(self._state, asset)

    def usable(self, asset: Asset) -> bool:
        """Whether ``asset`` may act now (:func:`.abilities.usable`)."""
        return abilities.usable(self._state, asset)

    def can_defend(self, defender: Asset, attacker: Asset) -> bool:
        """Whether ``defender`` may meet ``attacker`` (:func:`.abilities.can_defend`)."""
        return abilities.can_defend(self._state, defender, attacker)

    def ruling_faction(self, target: str) -> Faction:
        """Who rules the place a goal names (:func:`.goals.ruling_faction`)."""
        return goals.ruling_faction(self._state, target)

    def purchase_cost(self, f: Faction, kind: AssetType, location: str) -> int:
        """What ``f`` pays for ``kind`` at ``location`` (:func:`.economy.purchase_cost`)."""
        return economy.purchase_cost(self._state, f, kind, location)

    def buyable(self, f: Faction, location: str) -> Any:
        """The asset types ``f`` may buy at ``location`` (:func:`.economy.buyable`)."""
        return economy.buyable(self._state, f, location)

    def creatable(self, f: Faction, location: str) -> Any:
        """``(type, cost)`` of the asset types ``f`` could buy at ``location`` with Treasure
        enough (:func:`.economy.creatable`)."""
        return economy.creatable(self._state, f, location)

    def to_state(self, rng: np.random.Generator) -> WwnState:
        d = self._state.to_dict()
        for fd in d["factions"]:
            if fd["id"] != self.faction_id:
                fd["assets"] = [a for a in fd["assets"] if not a.get("stealth")]
        d.pop("rng")
        s = WwnState.from_dict(d)
        s.rng = rng
        return s

    def lookalike(self, rng: np.random.Generator) -> WwnState:
        """The state with rivals' Stealthed assets redrawn: each is dropped or kept at a random
        location with random hit points, unless the pending decision names it."""
        d = self._state.to_dict()
        named = json.dumps(d.get("in_progress", {}).get("ctx", {}))
        places = list(self._state.map.locations)
        for fd in d["factions"]:
            if fd["id"] == self.faction_id:
                continue
            kept = []
            for a in fd["assets"]:
                hidden = a.get("stealth") and f'"{a["type"]}#{a["id"]}"' not in named
                if hidden and rng.random() < 0.5:
                    continue
                if hidden:
                    a["location"] = places[int(rng.integers(len(places)))]
                    a["hp"] = int(rng.integers(1, a.get("max_hp", a["hp"]) + 1))
                kept.append(a)
            fd["assets"] = kept
        return WwnState.from_dict(d)


def _location_dict(loc: Location) -> dict[str, Any]:
    d: dict[str, Any] = {"id": loc.id, "name": loc.name, "neighbors": list(loc.neighbors)}
    if loc.coastal:
        d["coastal"] = True
    if loc.ruler:
        d["ruler"] = loc.ruler
    return d
