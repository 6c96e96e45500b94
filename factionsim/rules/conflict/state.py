"""The conflict game state: the engine contract of ``factionsim.core.game`` for ARC conflicts.

>>> from factionsim.configs import default_campaign_path
>>> from factionsim import load_campaign
>>> s = load_campaign(default_campaign_path("conflict"))
>>> s.ruleset, s.current_actor() in s.factions
('conflict', True)
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from factionsim.core.dice import Dice
from factionsim.core.engine import DecisionState
from factionsim.core.game import View, state_attribute
from factionsim.core.ruleset import DEFAULT_AGENT

from . import turn
from .model import (
    ACTIVE,
    APPROACHES,
    CATEGORIES,
    DEFAULT_SETTINGS,
    HEALTH_WRITES,
    Character,
    Side,
    Spell,
)

_CATEGORY_INDEX = {cat: i for i, cat in enumerate(CATEGORIES)}
#: the categories that have begun while category ``i`` of a pass is acting
_BEGUN = [frozenset(CATEGORIES[:i + 1]) for i in range(len(CATEGORIES))]


class ConflictState(DecisionState):
    """A conflict in play: sides (factions), their characters on a line of heights, Bonds,
    Advantages, the objective, the round in progress and the RNG.

    ``turn`` counts completed rounds; ``max_turns`` (optional) ends the conflict when reached.
    """

    ruleset = "conflict"
    decision_module = turn

    def __init__(self) -> None:
        super().__init__()
        self.settings: dict[str, Any] = dict(DEFAULT_SETTINGS)
        self.factions: dict[str, Side] = {}
        self.chars: dict[str, Character] = {}
        self.bonds: dict[frozenset[str], int] = {}
        self.advantages: list[dict[str, Any]] = []
        self.next_advantage = 1
        self.objective: dict[str, Any] | None = None
        self.item: dict[str, Any] | None = None
        self.winner: str | None = None
        self.ended = False
        self.end_reason: str | None = None
        self._scores: tuple[int, Any, str | None, dict[str, float]] = (-1, None, None, {})
        self._passes: tuple[Any, bool | None, list[list[str]]] = (None, None, [])  # turn.passes
        self._priority: tuple[Any, list[str]] = (None, [])  # turn.side_priority
        # the round in progress (see turn.py)
        self.category = 0
        self.queue: list[str] = []
        self.current: str | None = None
        self.plan_order: list[str] = []
        self.jobs: list[dict[str, Any]] = []
        self.question: dict[str, Any] | None = None

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without the kept answers (:meth:`scores`, the passes): they are
        keyed on this process's count of writes and on objects' identity."""
        d = dict(self.__dict__)
        d["_scores"], d["_passes"], d["_priority"] = (-1, None, None, {}), (None, None, []), \
            (None, [])
        return d

    # ----------------------------------------------------------------- the engine contract
    def is_over(self) -> bool:
        if self.ended:
            return True
        if sum(s.alive for s in self.factions.values()) < 2:
            return True
        return self.max_turns is not None and self.turn >= self.max_turns and self.phase == turn.TURN_START

    def scores(self) -> dict[str, float]:
        """2 for the winner, plus 1 + own standing - the best rival's standing, where standing is
        the share of Blood, Guts and Approaches left (fallen characters count 0). Highest wins.

        Worked out again only after a character's health changed (:data:`.model.HEALTH_WRITES`)
        or the winner did; the answer is a new dict each time, the caller's to keep."""
        writes, chars, winner, out = self._scores
        if writes == HEALTH_WRITES.count and chars is self.chars and winner == self.winner:
            return dict(out)
        out = self._work_out_scores()
        self._scores = (HEALTH_WRITES.count, self.chars, self.winner, out)
        return dict(out)

    def _work_out_scores(self) -> dict[str, float]:
        stand = {sid: self.standing(sid) for sid in self.factions}
        out = {}
        for sid in self.factions:
            rivals = [v for k, v in stand.items() if k != sid]
            out[sid] = round((2.0 if self.winner == sid else 0.0) + 1.0 + stand[sid]
                             - (max(rivals) if rivals else 0.0), 6)
        return out

    def standing(self, side: str) -> float:
        chars = self.chars
        members = self.factions[side].characters
        return sum([chars[c].health() for c in members]) / max(1, len(members))

    def view(self, faction: str) -> ConflictView:
        return ConflictView(self, faction)

    # ----------------------------------------------------------------- queries
    def refresh_sides(self) -> None:
        for s in self.factions.values():
            members = [self.chars[c] for c in s.characters]
            s.alive = any(c.active for c in members)
            s.hp = sum(c.blood + c.guts for c in members if c.active)
            s.max_hp = sum(c.max_blood + c.max_guts for c in members)

    def side_of(self, cid: str) -> Side:
        return self.factions[self.chars[cid].side]

    def faction_summary(self) -> dict[str, dict[str, Any]]:
        out = {}
        for sid, s in self.factions.items():
            members = [self.chars[c] for c in s.characters]
            out[sid] = {"alive": s.alive, "standing": sum(c.active for c in members),
                        "blood": sum(c.blood for c in members if c.active),
                        "guts": sum(c.guts for c in members if c.active),
                        "winner": self.winner == sid}
        return out

    def display_names(self) -> dict[str, Any]:
        return {"factions": {sid: s.name for sid, s in self.factions.items()},
                "locations": {},
                "asset_types": {cid: c.name for cid, c in self.chars.items()},
                "ruleset": "conflict"}

    # ----------------------------------------------------------------- serialization
    def to_dict(self) -> dict[str, Any]:
        d = self.common_fields_data()
        changed = {k: v for k, v in self.settings.items() if DEFAULT_SETTINGS.get(k) != v}
        if changed:
            d["settings"] = changed
        if self.objective is not None:
            d["objective"] = dict(self.objective)
        if self.item is not None:
            d["item"] = dict(self.item)
        d["sides"] = []
        for s in self.factions.values():
            sd: dict[str, Any] = {"id": s.id, "name": s.name, "heroes": s.heroes}
            if s.surprised:
                sd["surprised"] = True
            sd["agent"] = s.agent
            if s.agent_options:
                sd["agent_options"] = dict(s.agent_options)
            sd["characters"] = [self.chars[c].to_dict() for c in s.characters]
            d["sides"].append(sd)
        if self.bonds:
            d["bonds"] = [[*sorted(k), v] for k, v in self.bonds.items()]
        if self.advantages:
            d["advantages"] = copy.deepcopy(self.advantages)
        d["next_advantage"] = self.next_advantage
        if self.ended:
            d["result"] = {"winner": self.winner, "reason": self.end_reason}
        if self.phase != turn.TURN_START:
            d["in_progress"] = {
                "phase": self.phase, "actor": self.actor, "category": self.category,
                "queue": list(self.queue), "current": self.current,
                "plan_order": list(self.plan_order), "jobs": copy.deepcopy(self.jobs),
                "question": copy.deepcopy(self.question), "ctx": copy.deepcopy(self.ctx)}
        d["rng"] = self.rng_data()
        d.update(copy.deepcopy(self.extra))
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ConflictState:
        """Build a state from validated scenario data (see ``validate.py``). Pools given as dice
        (``max_blood: 2d6+1``) are rolled here with the scenario's generator."""
        s = cls()
        s.read_common_fields(d, {
            "settings", "objective", "item", "sides", "bonds", "advantages", "next_advantage", "result"})
        s.settings.update(d.get("settings") or {})
        s.read_rng(d)
        for sd in d["sides"]:
            side = Side(sd["id"], sd.get("name", sd["id"]), bool(sd.get("heroes", False)),
                        bool(sd.get("surprised", False)), sd.get("agent", DEFAULT_AGENT),
                        dict(sd.get("agent_options") or {}))
            s.factions[side.id] = side
            for cd in sd.get("characters", []):
                c = _character(cd, side, s.rng)
                s.chars[c.id] = c
                side.characters.append(c.id)
        s.bonds = {frozenset((a, b)): int(n) for a, b, n in d.get("bonds", [])}
        s.advantages = copy.deepcopy(d.get("advantages", []))
        s.next_advantage = int(d.get("next_advantage", 1))
        s.objective = copy.deepcopy(d.get("objective"))
        if s.objective is not None:
            obj = s.objective
            obj.setdefault("progress", 0) if obj["type"] == "ritual" else None
            if obj["type"] == "carry" and "direction" not in obj:
                obj["direction"] = 1 if obj["to"] * 2 >= s.settings["length"] else -1
        s.item = copy.deepcopy(d.get("item"))
        if d.get("result"):
            s.ended = True
            s.winner = d["result"].get("winner")
            s.end_reason = d["result"].get("reason")
        ip = d.get("in_progress")
        if ip:
            s.phase, s.actor, s.category = ip["phase"], ip.get("actor"), int(ip.get("category", 0))
            s.queue, s.current = list(ip.get("queue", [])), ip.get("current")
            s.plan_order = list(ip.get("plan_order", []))
            s.jobs = copy.deepcopy(ip.get("jobs", []))
            s.question = copy.deepcopy(ip.get("question"))
            s.ctx = copy.deepcopy(ip.get("ctx", {}))
        s.refresh_sides()
        return s


def _pool(value: Any, rng: np.random.Generator) -> int:
    if isinstance(value, str):
        return Dice.parse(value).roll(rng).total
    return int(value)


def _character(cd: dict[str, Any], side: Side, rng: np.random.Generator) -> Character:
    items = cd.get("items") or {}
    max_blood = _pool(cd.get("max_blood", "2d6"), rng)
    max_guts = _pool(cd.get("max_guts", "2d6"), rng)
    approaches = {a: int((cd.get("approaches") or {}).get(a, 0)) for a in APPROACHES}
    rnd = cd.get("round") or {}
    c = Character(
        id=cd["id"], name=cd.get("name", cd["id"]), side=side.id, hero=side.heroes,
        position=int(cd.get("position", 0)), approaches=approaches,
        approach_max=int(cd.get("approach_max", 0)),
        skills={k: int(v) for k, v in (cd.get("skills") or {}).items() if v},
        blood=int(cd.get("blood", max_blood)), max_blood=max_blood,
        guts=int(cd.get("guts", max_guts)), max_guts=max_guts,
        weapon=items.get("weapon"), armor=int(items.get("armor", 0)),
        talisman=int(items.get("talisman", 0)), ward=int(items.get("ward", 0)),
        reach=cd.get("reach"),
        spells=[Spell(**{"name": sp["id"], **sp}) for sp in cd.get("spells", [])],
        tricks={k: int(v) for k, v in (cd.get("tricks") or {}).items()},
        vulnerable=dict(cd.get("vulnerable") or {}), status=cd.get("status", ACTIVE),
        plan=rnd.get("plan"), acted=bool(rnd.get("acted")), targeted=bool(rnd.get("targeted")),
        standing=bool(rnd.get("standing")), attacks_taken=int(rnd.get("attacks_taken", 0)),
        concentration_broken=bool(rnd.get("concentration_broken")),
        opportunity=int(rnd.get("opportunity", 0)),
        assists=[list(a) for a in rnd.get("assists", [])],
    )
    if not c.approach_max:
        c.approach_max = sum(approaches.values()) or 1
    return c


class ConflictView(View):
    """What one side knows: everything but the plans of enemy characters whose category has not
    begun yet this round (when it begins, its queue is announced). ``to_state(rng)`` rebuilds a
    playable state from that knowledge (unknown enemy plans are guessed as ``harm``) with dice
    from ``rng``.

    Besides the contract's accessors (:class:`~factionsim.core.game.View`): the battle's records
    (``factions``, ``chars``, ``settings``, ``bonds``, ``advantages``, ``objective``, ``item``, ``winner``,
    ``category``, ``current``, ``jobs``, ``question``), what this side knows of the plans
    (:meth:`known_plan`, :meth:`known_plans`) and the rules' answers its heuristic asks
    (:meth:`allies`, :meth:`enemies`, :meth:`in_range`, :meth:`reach`...)."""

    __slots__ = ()

    # the battle's records, read as they are (typed on :class:`ConflictState`)
    factions = state_attribute("factions", "id -> :class:`Side`, campaign order.")
    chars = state_attribute(
        "chars", "id -> :class:`Character` (an enemy's ``plan``: read :meth:`known_plan`).")
    settings = state_attribute("settings", "The scenario's numbers (dict).")
    bonds = state_attribute("bonds", "A pair of character ids (frozenset) -> their bond.")
    advantages = state_attribute("advantages", "The advantages in play (list of dicts).")
    objective = state_attribute("objective", "The scenario's objective (dict), or ``None``.")
    item = state_attribute("item", "The scenario's item (dict), or ``None``.")
    winner = state_attribute("winner", "The winning side's id, or ``None``.")
    category = state_attribute("category", "The category of action under way (int).")
    current = state_attribute("current", "The character acting, or ``None``.")
    jobs = state_attribute("jobs", "The steps queued for the action under way (list of dicts).")
    question = state_attribute("question", "A question put to a character (a tie, a reroll), or ``None``.")

    # the rules' answers its heuristic asks (:mod:`.turn`)
    def category_of(self) -> str:
        """The category of action under way (:func:`.turn.category_of`)."""
        return turn.category_of(self._state)

    def allies(self, c: Character, include_self: bool = False) -> list[Character]:
        return turn.allies(self._state, c, include_self)

    def enemies(self, c: Character) -> list[Character]:
        return turn.enemies(self._state, c)

    def free_move(self, c: Character) -> int:
        return turn.free_move(self._state, c)

    def reach(self, c: Character, pool: str) -> int:
        return turn.reach(self._state, c, pool)

    def in_range(self, c: Character, t: Character, distance: int) -> bool:
        return turn.in_range(self._state, c, t, distance)

    def bond_steps(self, a: str, b: str) -> int:
        return turn.bond_steps(self._state, a, b)

    def major_bond(self, a: str, b: str) -> int:
        return turn.major_bond(self._state, a, b)

    def advantage_bonus(self, c: Character, t: Character | None) -> tuple[int, list[str]]:
        return turn.advantage_bonus(self._state, c, t)

    def protected(self, t: Character) -> list[str]:
        return turn.protected(self._state, t)


    def known_plan(self, cid: str, round_passes: list[list[str]] | None = None) -> str | None:
        """``cid``'s plan if this side knows it, else None (``round_passes``: see
        :meth:`known_plans`)."""
        c = self._state.chars[cid]
        if c.side == self.faction_id or c.acted:
            return c.plan
        if c.plan is not None and not turn.is_ahead(self._state, c, c.plan, round_passes):
            return c.plan  # its category has begun: the queue was announced
        return None

    def known_plans(self) -> dict[str, str | None]:
        """:meth:`known_plan` of every character: its plan on this side or once it acted,
        and the :meth:`announced_plans`."""
        me = self.faction_id
        out = {cid: c.plan if c.side == me or c.acted else None
               for cid, c in self._state.chars.items()}
        out.update(self.announced_plans())
        return out

    def announced_plans(self) -> dict[str, str]:
        """The plans this side knows of other sides' characters that have not acted yet: those
        whose category has begun (:func:`turn.is_ahead`; the queue was announced). Before the
        act and replan phases no category has begun; in them the round's passes are worked out
        once for every character."""
        s, me = self._state, self.faction_id
        if s.phase not in (turn.ACT, turn.REPLAN):
            return {}
        passes = turn.passes(s)
        if len(passes) == 1:  # (most rounds) one pass: the categories up to this one began
            begun = _BEGUN[s.category % turn.N_CATEGORIES]
            return {cid: plan for cid, c in s.chars.items()
                    if (plan := c.plan) in begun and c.side != me and not c.acted}
        pass_of: dict[str, int] = {}  # each side's pass
        for i, sides in enumerate(passes):
            for sid in sides:
                pass_of.setdefault(sid, i)
        now, category = divmod(s.category, turn.N_CATEGORIES)
        out: dict[str, str] = {}
        for cid, c in s.chars.items():
            plan = c.plan
            if plan is not None and c.side != me and not c.acted:
                p = pass_of[c.side]
                if p < now or (p == now and _CATEGORY_INDEX[plan] <= category):
                    out[cid] = plan
        return out

    def to_state(self, rng: np.random.Generator) -> ConflictState:
        d = self._state.to_dict()
        d.pop("rng")
        for sd in d["sides"]:
            if sd["id"] == self.faction_id:
                continue
            for cd in sd["characters"]:
                rnd = cd.get("round")
                if rnd and rnd.get("plan") and self.known_plan(cd["id"]) is None:
                    rnd["plan"] = "harm"
        s = ConflictState.from_dict(d)
        s.rng = rng
        return s

    def lookalike(self, rng: np.random.Generator) -> ConflictState:
        """The state with every hidden enemy plan redrawn among the categories still ahead of
        its character (a plan known or behind it is kept)."""
        d = self._state.to_dict()
        for sd in d["sides"]:
            for cd in sd["characters"] if sd["id"] != self.faction_id else ():
                rnd, c = cd.get("round"), self._state.chars[cd["id"]]
                if not rnd or not rnd.get("plan") or self.known_plan(c.id) is not None:
                    continue
                ahead = [cat for cat in CATEGORIES if turn.is_ahead(self._state, c, cat)]
                rnd["plan"] = ahead[int(rng.integers(len(ahead)))] if ahead else rnd["plan"]
        return ConflictState.from_dict(d)

