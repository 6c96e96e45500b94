"""The Great Houses game state: the engine contract of ``factionsim.core.game`` for Cortex Prime
Houses in a Succession War.

>>> from factionsim.configs import default_campaign_path
>>> from factionsim import load_campaign
>>> s = load_campaign(default_campaign_path("houses"))
>>> s.ruleset, s.current_actor() in s.houses, len(s.houses)
('houses', True, 4)
"""

from __future__ import annotations

import copy
import operator
from typing import Any

import numpy as np

from factionsim.core.engine import DecisionState
from factionsim.core.game import View, state_attribute
from factionsim.core.ruleset import DEFAULT_AGENT

from . import turn
from .dice import steps
from .model import DEFAULT_RULES, SKILLS, WRITES, Asset, House
from .outcomes import slug


class _Steps(dict):
    """Die size -> :func:`steps` (the usual dice looked up, any other worked out)."""

    def __missing__(self, die: int) -> int:
        return steps(die)


_STEPS = _Steps({d: steps(d) for d in (0, 4, 6, 8, 10, 12)})
_SKILLS_OF = operator.itemgetter(*SKILLS)


class HousesState(DecisionState):
    """A Succession War in play: the Houses, their assets, the season in progress and the RNG.

    ``turn`` counts completed seasons; ``max_turns`` (optional) ends the game when reached.
    ``factions`` is the same mapping as ``houses`` (the name the shared tools use).
    """

    ruleset = "houses"
    decision_module = turn

    def __init__(self) -> None:
        super().__init__()
        self.rules: dict[str, Any] = copy.deepcopy(DEFAULT_RULES)
        self.houses: dict[str, House] = {}
        self.assets: dict[str, Asset] = {}
        self.next_asset = 1
        self.order: list[str] = []
        self.order_index = 0
        self.round = 0
        self._scores: tuple[int, Any, dict[str, float]] = (-1, None, {})  # see scores()
        self._owned: tuple[int, Any, dict[str, tuple[str, ...]]] = (-1, None, {})  # asset_ids

    @property
    def factions(self) -> dict[str, House]:
        return self.houses

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without the kept answers (:meth:`scores`, :meth:`asset_ids`):
        they are keyed on this process's count of writes, which another process's does not
        continue."""
        d = dict(self.__dict__)
        d["_scores"], d["_owned"] = (-1, None, {}), (-1, None, {})
        return d

    # ------------------------------------------ the engine contract (the rest: DecisionState)
    def scores(self) -> dict[str, float]:
        """0 for a fallen House; else 1 + 3 per Holding + the steps of every Holding, Resource
        and Signature Asset above d4 + a quarter of the Skill steps above d4, less the steps of
        its Stress (half) and Trauma (whole). Never below 0.1 for a House still standing.

        Worked out again only after a House or an Asset changed (:data:`.model.WRITES`; most
        decisions change neither): the answer is a new dict each time, the caller's to keep."""
        writes, assets, out = self._scores
        if writes == WRITES.count and assets is self.assets:
            return dict(out)
        out = self._work_out_scores()
        self._scores = (WRITES.count, self.assets, out)
        return dict(out)

    def _work_out_scores(self) -> dict[str, float]:
        owned = dict.fromkeys(self.houses, 0)  # whole numbers: one pass over the assets
        for a in self.assets.values():
            if a.duration == "permanent" and a.owner in owned:
                owned[a.owner] += _STEPS[a.die] + (3 if a.kind == "holding" else 0)
        out = {}
        for h in self.houses.values():
            if not h.alive:
                out[h.id] = 0.0
                continue
            v = 1.0 + owned[h.id]
            v += sum(map(_STEPS.__getitem__, _SKILLS_OF(h.skills))) / 4
            v -= (_STEPS[h.stress] + 1) / 2 if h.stress else 0
            v -= _STEPS[h.trauma] + 1 if h.trauma else 0
            out[h.id] = round(max(0.1, v), 4)
        return out

    def view(self, faction: str) -> HousesView:
        """Everything is public in a Succession War: the view is the whole state."""
        return HousesView(self, faction)

    # ----------------------------------------------------------------- queries
    def living(self) -> list[House]:
        return [h for h in self.houses.values() if h.alive]

    def asset_ids(self, hid: str) -> list[str]:
        """The ids of ``hid``'s assets, in the asset table's order (a new list; worked out
        again only after a House or an Asset changed, as :meth:`scores`)."""
        return list(self.owned_asset_ids().get(hid, ()))

    def owned_asset_ids(self) -> dict[str, tuple[str, ...]]:
        """House id -> the ids of its assets, in the asset table's order (Houses without
        assets left out). Kept while no House or Asset changes: do not modify it."""
        writes, assets, owned = self._owned
        if writes == WRITES.count and assets is self.assets:
            return owned
        lists: dict[str, list[str]] = {}
        for a in self.assets.values():
            ids = lists.get(a.owner)
            if ids is None:
                lists[a.owner] = [a.id]
            else:
                ids.append(a.id)
        owned = {hid: tuple(ids) for hid, ids in lists.items()}
        self._owned = (WRITES.count, self.assets, owned)
        return owned

    def assets_of(self, hid: str) -> list[Asset]:
        return [a for a in self.assets.values() if a.owner == hid]

    def display_names(self) -> dict[str, Any]:
        types = {a.id.rsplit("#", 1)[0]: a.name for a in self.assets.values()}
        for name in self.rules.get("created_asset_names", ()):
            types.setdefault(slug(name), name)
        return {"factions": {h.id: h.name for h in self.houses.values()}, "locations": {},
                "asset_types": types, "ruleset": "houses"}

    def faction_summary(self) -> dict[str, dict[str, Any]]:
        scores = self.scores()
        out = {}
        for h in self.houses.values():
            mine = self.assets_of(h.id)
            out[h.id] = {"alive": h.alive, "score": scores[h.id], "stress": h.stress,
                         "trauma": h.trauma,
                         "holdings": sum(a.kind == "holding" for a in mine),
                         "assets": len(mine), "plot_points": h.plot_points}
        return out

    # ----------------------------------------------------------------- serialization
    def to_dict(self) -> dict[str, Any]:
        d = self.common_fields_data()
        d["rules"] = copy.deepcopy(self.rules)
        d["houses"] = []
        for h in self.houses.values():
            hd = h.to_dict()
            hd["assets"] = [a.to_dict() for a in self.assets.values() if a.owner == h.id]
            d["houses"].append(hd)
        d["next_asset"] = self.next_asset
        if self.phase != turn.TURN_START:
            d["in_progress"] = self.in_progress_data(round=self.round)
        d["rng"] = self.rng_data()
        d.update(copy.deepcopy(self.extra))
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HousesState:
        """Build a state from validated scenario data (see ``validate.py``)."""
        s = cls()
        s.read_common_fields(d, {"rules", "houses", "next_asset"})
        s.rules.update(copy.deepcopy(d.get("rules") or {}))
        pending: list[tuple[str, dict[str, Any]]] = []
        for hd in d["houses"]:
            skills = {sk: 4 for sk in SKILLS}
            skills.update(hd.get("skills") or {})
            full = dict(skills)
            full.update(hd.get("skills_full") or {})
            h = House(
                id=hd["id"], name=hd.get("name", hd["id"]),
                distinctions=[{"id": slug(x["name"]), "name": x["name"], "die": x.get("die", 8)}
                              for x in hd.get("distinctions", [])],
                attributes={"physical": 8, "mental": 8, "social": 8, **(hd.get("attributes") or {})},
                skills=skills, skills_full=full, stress=hd.get("stress", 0) or 0,
                trauma=hd.get("trauma", 0) or 0,
                complications=[dict(c) for c in hd.get("complications", [])],
                plot_points=hd.get("plot_points", 1), advances=hd.get("advances", 0),
                sfx=list(hd.get("sfx", [])), agent=hd.get("agent", DEFAULT_AGENT),
                agent_options=dict(hd.get("agent_options") or {}), alive=hd.get("alive", True))
            s.houses[h.id] = h
            pending.extend((h.id, ad) for ad in hd.get("assets", []) or [])
        numbered = [int(str(ad["id"]).rsplit("#", 1)[1]) for _, ad in pending if ad.get("id")]
        s.next_asset = max([d.get("next_asset", 1), *(n + 1 for n in numbered)])
        for owner, ad in pending:
            aid = ad.get("id")
            if not aid:
                aid = f"{slug(ad['name'])}#{s.next_asset}"
                s.next_asset += 1
            s.assets[aid] = Asset(aid, ad["name"], ad.get("kind", "asset"), ad["die"],
                                  ad.get("full", ad["die"]), owner, ad.get("duration", "permanent"),
                                  ad.get("created"))
        s.assets = dict(sorted(s.assets.items(), key=lambda kv: int(kv[0].rsplit("#", 1)[1])))
        s.read_rng(d)
        if "in_progress" in d:
            s.read_in_progress(d["in_progress"])
            s.round = d["in_progress"].get("round", 0)
        return s


class HousesView(View):
    """What one House knows (everything: nothing is hidden in this ruleset).

    Besides the contract's accessors (:class:`~factionsim.core.game.View`): ``houses`` (id ->
    House, campaign order), :meth:`living`, ``assets`` (id -> Asset), :meth:`assets_of`,
    :meth:`asset_ids`, ``rules`` (the campaign's numbers), ``round`` (the action round of the
    season), ``order`` (the season's initiative order), ``actor`` (the House acting), and the
    rules' answers its heuristic asks:
    :meth:`seizable`, :meth:`traits_for`.

    ``to_state(rng)`` rebuilds a playable copy whose dice come from ``rng`` (for planners)."""

    __slots__ = ()

    houses = state_attribute("houses", "id -> :class:`House`, campaign order.")
    assets = state_attribute("assets", "id -> :class:`Asset`.")
    rules = state_attribute("rules", "The campaign's numbers (dict).")
    round = state_attribute("round", "The action round of the season (int).")
    actor = state_attribute("actor", "The House acting, or ``None``.")

    def living(self) -> list[House]:
        return self._state.living()

    def assets_of(self, hid: str) -> list[Asset]:
        return self._state.assets_of(hid)

    def asset_ids(self, hid: str) -> list[str]:
        return self._state.asset_ids(hid)

    def owned_asset_ids(self) -> dict[str, tuple[str, ...]]:
        """House id -> the ids of its assets (:meth:`HousesState.owned_asset_ids`)."""
        return self._state.owned_asset_ids()

    @property
    def order(self) -> tuple[str, ...]:
        """The season's initiative order (House ids; rolled in the open); ``order_index`` is
        the place of the House whose turn it is."""
        return tuple(self._state.order)

    def seizable(self, h: House) -> list[str]:
        """The Holdings ``h`` may seize (:func:`.turn.seizable`)."""
        return turn.seizable(self._state, h)

    def traits_for(self, h: House, kind: str) -> list[str]:
        """The traits an action of ``kind`` by ``h`` may name (:func:`.turn.traits_for`)."""
        return turn.traits_for(self._state, h, kind)

    def to_state(self, rng: np.random.Generator) -> HousesState:
        d = self._state.to_dict()
        d.pop("rng")
        s = HousesState.from_dict(d)
        s.rng = rng
        return s
