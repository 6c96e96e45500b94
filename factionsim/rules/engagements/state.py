"""The engagements game state: the engine contract of ``factionsim.core.game``.

>>> from factionsim.configs import default_campaign_path
>>> from factionsim import load_campaign
>>> s = load_campaign(default_campaign_path("engagements"))
>>> s.current_actor() in s.factions
True
>>> s.copy().to_dict() == s.to_dict()
True
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from factionsim.core.engine import DecisionState
from factionsim.core.game import View, state_attribute
from factionsim.core.ruleset import DEFAULT_AGENT

from . import turn
from .model import SCORE_WRITES, Faction, Pillar, Settings, slugify


class EngagementsState(DecisionState):
    """A campaign of pillars and engagements in play.

    ``turn`` counts completed rounds; ``max_turns`` (optional) ends the game when reached.
    ``pillars`` maps every standing pillar's id to it; each faction lists its own in order.
    """

    ruleset = "engagements"
    decision_module = turn
    max_forced_rounds = 100  # a round can pass with no decision at all (nothing to buy)

    def __init__(self) -> None:
        super().__init__()
        self.settings = Settings()
        self.factions: dict[str, Faction] = {}
        self.pillars: dict[str, Pillar] = {}
        self.next_pillar = 1
        self.fallen: dict[str, str] = {}  # slug -> name of every defeated pillar (for the chronicle)
        self.order: list[str] = []
        self.order_index = 0
        self._scores: tuple[int, Any, float, dict[str, float]] = (-1, None, 0.0, {})

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without the kept scores: they are keyed on this process's count
        of writes, which another process's does not continue."""
        d = dict(self.__dict__)
        d["_scores"] = (-1, None, 0.0, {})
        return d

    # ------------------------------------------ the engine contract (the rest: DecisionState)
    def scores(self) -> dict[str, float]:
        """0 for a collapsed faction; else 1 + the strength of its pillars (competence + defense +
        unmarked wound circles, summed) + ``renown_score`` (2) per rival pillar it defeated.

        Worked out again only after a pillar or a faction's pillars, renown or fate changed
        (:data:`.model.SCORE_WRITES`); the answer is a new dict each time, the caller's."""
        writes, pillars, renown_score, out = self._scores
        if (writes == SCORE_WRITES.count and pillars is self.pillars
                and renown_score == self.settings.renown_score):
            return dict(out)
        out = self._work_out_scores()
        self._scores = (SCORE_WRITES.count, self.pillars, self.settings.renown_score, out)
        return dict(out)

    def _work_out_scores(self) -> dict[str, float]:
        out = {}
        for f in self.factions.values():
            if not f.alive:
                out[f.id] = 0.0
                continue
            out[f.id] = (1.0 + sum(self.pillars[p].strength() for p in f.pillars)
                         + self.settings.renown_score * f.renown)
        return out

    def view(self, faction: str) -> EngagementsView:
        return EngagementsView(self, faction)

    # ----------------------------------------------------------------- queries and changes
    def gained(self, f: Faction, rival: str, amount: int) -> None:
        """``f`` gains ``amount`` engagement dice against ``rival``: it may now engage it."""
        f.engagement[rival] = f.pool(rival) + amount
        f.gained(rival, list(self.factions))

    def living_factions(self) -> list[Faction]:
        return [f for f in self.factions.values() if f.alive]

    def pillars_of(self, faction: str) -> list[Pillar]:
        return [self.pillars[p] for p in self.factions[faction].pillars]

    def owner(self, pillar: str) -> str:
        return next(f.id for f in self.factions.values() if pillar in f.pillars)

    def new_pillar(self, owner: str, competence: int, defense: int, name: str | None = None,
                   kind: str = "other") -> Pillar:
        n = self.next_pillar
        self.next_pillar += 1
        name = name or f"Cohort {n}"
        p = Pillar(f"{slugify(name)}#{n}", name, competence, defense, kind)
        self.pillars[p.id] = p
        self.factions[owner].pillars.append(p.id)
        SCORE_WRITES.bump()
        return p

    def remove_pillar(self, pid: str) -> None:
        p = self.pillars.pop(pid)
        self.fallen[p.slug] = p.name
        for f in self.factions.values():
            if pid in f.pillars:
                f.pillars.remove(pid)
        SCORE_WRITES.bump()

    def display_names(self) -> dict[str, Any]:
        return {"factions": {f.id: f.name for f in self.factions.values()}, "locations": {},
                "asset_types": {**self.fallen, **{p.slug: p.name for p in self.pillars.values()}},
                "ruleset": "engagements"}

    def faction_summary(self) -> dict[str, dict[str, Any]]:
        scores = self.scores()
        return {f.id: {"alive": f.alive, "pillars": len(f.pillars), "faction_dice": f.faction_dice,
                       "renown": f.renown, "score": round(scores[f.id], 2)}
                for f in self.factions.values()}

    # ----------------------------------------------------------------- serialization
    def to_dict(self) -> dict[str, Any]:
        d = self.common_fields_data()
        settings = self.settings.to_dict()
        if settings:
            d["settings"] = settings
        d["factions"] = []
        for f in self.factions.values():
            fd: dict[str, Any] = {"id": f.id, "name": f.name, "agent": f.agent}
            if f.agent_options:
                fd["agent_options"] = dict(f.agent_options)
            if not f.alive:
                fd["alive"] = False
            fd["faction_dice"] = f.faction_dice
            pools = {k: f.engagement[k] for k in self.factions if f.engagement.get(k)}  # file order
            if pools:
                fd["engagement"] = pools
            if f.mercenary is not None:
                fd["mercenary"] = f.mercenary
            if f.renown:
                fd["renown"] = f.renown
            if f.exposed_since is not None:
                fd["exposed_since"] = f.exposed_since
            if f.may_engage != self.default_may_engage(f):
                fd["may_engage"] = list(f.may_engage)
            fd["pillars"] = [self.pillars[p].to_dict() for p in f.pillars]
            d["factions"].append(fd)
        d["next_pillar"] = self.next_pillar
        if self.fallen:
            d["fallen"] = dict(self.fallen)
        if self.phase != turn.TURN_START:
            d["in_progress"] = self.in_progress_data()
        if isinstance(self.rng, np.random.Generator):
            d["rng"] = self.rng_data()
        d.update(copy.deepcopy(self.extra))
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> EngagementsState:
        """Build a state from validated scenario data (``validate.py`` checks it)."""
        s = cls()
        s.read_common_fields(d, {"settings", "factions", "next_pillar", "fallen"})
        s.settings = Settings.from_dict(d.get("settings"))
        s.fallen = dict(d.get("fallen", {}))
        numbered = [int(p["id"]) for fd in d["factions"] for p in fd.get("pillars", ())
                    if p.get("id") is not None]
        s.next_pillar = max([int(d.get("next_pillar", 1)), *(n + 1 for n in numbered)])
        for fd in d["factions"]:
            f = Faction(id=fd["id"], name=fd.get("name", fd["id"]), agent=fd.get("agent", DEFAULT_AGENT),
                        agent_options=dict(fd.get("agent_options", {})),
                        alive=bool(fd.get("alive", True)),
                        faction_dice=int(fd.get("faction_dice", 0)),
                        engagement={k: int(v) for k, v in fd.get("engagement", {}).items()},
                        mercenary=fd.get("mercenary"), renown=int(fd.get("renown", 0)),
                        exposed_since=fd.get("exposed_since"))
            s.factions[f.id] = f
            for pd in fd.get("pillars", ()):
                n = pd.get("id")
                if n is None:
                    n = s.next_pillar
                    s.next_pillar += 1
                p = Pillar(f"{slugify(pd['name'])}#{int(n)}", pd["name"], int(pd["competence"]),
                           int(pd["defense"]), pd.get("kind", "other"), int(pd.get("circles", 3)),
                           int(pd.get("wounds", 0)), tuple(pd.get("boons", ())))
                s.pillars[p.id] = p
                f.pillars.append(p.id)
        for fd in d["factions"]:
            f = s.factions[fd["id"]]
            f.may_engage = list(fd["may_engage"]) if "may_engage" in fd else s.default_may_engage(f)
        s.read_rng(d)
        if "in_progress" in d:
            s.read_in_progress(d["in_progress"])
        return s

    def default_may_engage(self, f: Faction) -> list[str]:
        """Rivals a faction may engage when the file does not say: those it holds engagement
        dice against (a scenario's starting pools count as gained)."""
        return [r for r in self.factions if f.pool(r) > 0]


class EngagementsView(View):
    """What one faction knows: everything but its rivals' faction dice and engagement pools.

    ``to_state(rng)`` rebuilds a playable state from this knowledge (rivals' hidden dice and
    pools set to 0, the rivals each may engage kept as they are), the dice drawn from ``rng``.

    Besides the contract's accessors (:class:`~factionsim.core.game.View`): ``factions`` (id ->
    record, campaign order: their pillars, whether alive, the rivals each may engage; a rival's
    faction dice and pools are its secret, read them through :meth:`faction_dice` and
    :meth:`pool`), :meth:`living_factions`, ``pillars`` (id -> Pillar), ``settings`` (the
    campaign's numbers) and ``actor`` (the faction acting).
    """

    __slots__ = ()

    factions = state_attribute("factions", "id -> :class:`Faction`, campaign order.")
    pillars = state_attribute("pillars", "id -> :class:`Pillar`.")
    settings = state_attribute("settings", "The campaign's numbers (:class:`Settings`).")
    actor = state_attribute("actor", "The faction acting, or ``None``.")

    def living_factions(self) -> list[Faction]:
        return self._state.living_factions()

    def faction_dice(self, fid: str) -> int | None:
        return self._state.factions[fid].faction_dice if fid == self.faction_id else None

    def pool(self, fid: str, rival: str) -> int | None:
        return self._state.factions[fid].pool(rival) if fid == self.faction_id else None

    def to_state(self, rng: Any) -> EngagementsState:
        d = self._state.to_dict()
        for fd in d["factions"]:
            if fd["id"] != self.faction_id:
                fd["may_engage"] = list(self._state.factions[fd["id"]].may_engage)  # seen: kept
                fd["faction_dice"] = 0
                fd.pop("engagement", None)
        d.pop("rng", None)
        s = EngagementsState.from_dict(d)
        s.rng = rng
        return s

    def lookalike(self, rng: Any) -> EngagementsState:
        """The state with rivals' faction dice and engagement pools redrawn (0 to 6 each)."""
        d = self._state.to_dict()
        for fd in d["factions"]:
            if fd["id"] != self.faction_id:
                fd["may_engage"] = list(self._state.factions[fd["id"]].may_engage)
                fd["faction_dice"] = int(rng.integers(7))
                fd["engagement"] = {r: int(rng.integers(1, 7)) for r in fd.get("engagement", {})}
        return EngagementsState.from_dict(d)
