"""The engagements codec: a faction's view as a fixed-size float32 vector, its legal actions as
indices of one flat ``Discrete(N)`` catalogue.

Factions are seen relative to the observer (seat 0 = itself, seat ``k`` the faction ``k`` places
after it in campaign order); pillars by their position in their faction's list (``P`` slots per
faction, ``P`` = the campaign's pillar cap). Sizes come from the campaign and :class:`Limits`.

Action catalogue (contiguous blocks, in this order):

===========  ==================  ==============================================
block        size                text form
===========  ==================  ==============================================
done         1                   ``done``
join         1                   ``join``
decline      1                   ``decline``
engage       F                   ``engage <seat>``
invite       F                   ``invite <seat>`` / ``hire <seat> for N``
convert      3 x F               ``convert <1-3> -> <seat>``
build        5 x 5               ``build c<1-5> d<0-4>``
raise        P x 2               ``raise <own slot> competence|defense``
heal         P                   ``heal <own slot>``
commit       P                   ``commit <own slot>``
fanatical    P                   ``fanatical <own slot>``
draw         4                   ``draw <0-3>``
allocate     D x F x P           ``allocate <1-D> -> <seat, slot>``
commission   F x F               ``commission <seat> -> <seat> for N``
===========  ==================  ==============================================

``D`` = ``Limits.max_dice`` (dice one side may divide in one engagement; by default
``(5 + 2 C) P + 3``, the most a full faction can roll: competence 5 and a Fanatical use per
wound circle, ``C`` the most circles of a pillar in the campaign, at least 3).

Observation (all in [0, 1]), its pieces (:class:`~factionsim.envs.codec.Layout`) in order:

============  =====  ===================================================================
piece         rows   each row
============  =====  ===================================================================
stage         1      the decision point: spending or the engagement's stage (one-hot, set
                     only when the observer decides)
role          1      the observer's role in the engagement: aggressor, defender, ally, invitee
aggressor     1      the aggressor's seat (one-hot)
defender      1      the defender's seat (one-hot)
dice          1      the price asked of the observer, its dice still to divide, its dice in all
faction_dice  1      its own faction dice
pools         1      its engagement pools against each seat
turn          1      the turn (turn / 50, at most 1)
factions      F      per seat: alive (the row's flag: a collapsed faction is out of the game),
                     pillars, score, renown, mercenary and its price, taking part in the
                     engagement
pillars@k     P      seat ``k``'s pillar slots (``pillars@0``: the observer's): present,
                     competence, defense, wounds marked, circles left, Assassinate,
                     Fanatical, committed, dice allocated to it (every side), attacked in
                     this engagement
============  =====  ===================================================================

Rivals' faction dice and pools are hidden.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from factionsim.rules.engagements import actions as A
from factionsim.rules.engagements import engagement as E
from factionsim.rules.engagements.model import (
    FANATICAL_DICE,
    MAX_COMPETENCE,
    MAX_DEFENSE,
    MAX_ENGAGEMENT_DRAW,
)

from .codec import Codec, EncodingError, Layout, action_offsets

MAX_FACTIONS = 8
STAGES = ("spend", E.INVITE, E.ANSWER, E.PILLARS, E.DRAW, E.ALLOCATE, E.C_FANATICAL, E.C_DRAW,
          E.C_ALLOCATE)
PILLAR_FEATURES = 10
SEAT_FEATURES = 7


@dataclass(frozen=True)
class Limits:
    """Maxima that size the spaces (``make_env(..., max_dice=60)``)."""

    max_dice: int = 0  # dice one side may divide; 0: enough for a full faction (7 x slots + 3)
    pillars: int = 0  # pillar slots per faction; 0: the campaign's pillar cap


class EngagementsCodec(Codec):
    """Observation and action encoding for one campaign's factions."""

    Limits = Limits

    def __init__(self, state: Any, limits: Limits | None = None):
        self.limits = limits or Limits()
        self.factions = list(state.factions)
        self.F = F = len(self.factions)
        if F > MAX_FACTIONS:
            raise EncodingError(f"campaign has {F} factions; the codec handles at most {MAX_FACTIONS}")
        self.P = P = self.limits.pillars or state.settings.pillar_cap
        for f in state.factions.values():
            if len(f.pillars) > P:
                raise EncodingError(f"faction {f.id} has {len(f.pillars)} pillars; the codec has "
                                    f"{P} slots (pass pillars=... to make_env)")
        # competence 5 and Fanatical +2 per wound circle of every pillar, plus 3 engagement dice
        circles = max([3, *(p.circles for p in state.pillars.values())])
        self.D = D = self.limits.max_dice or (P * (MAX_COMPETENCE + FANATICAL_DICE * circles)
                                              + MAX_ENGAGEMENT_DRAW)
        self.seat = {fid: i for i, fid in enumerate(self.factions)}
        sizes = [("done", 1), ("join", 1), ("decline", 1), ("engage", F), ("invite", F),
                 ("convert", 3 * F), ("build", MAX_COMPETENCE * (MAX_DEFENSE + 1)), ("raise", 2 * P),
                 ("heal", P), ("commit", P), ("fanatical", P), ("draw", 4), ("allocate", D * F * P),
                 ("commission", F * F)]
        self.offset, self.n_actions = action_offsets(sizes)
        self.layout = Layout([
            ("stage", 1, len(STAGES)), ("role", 1, 4), ("aggressor", 1, F), ("defender", 1, F),
            ("dice", 1, 3), ("faction_dice", 1, 1), ("pools", 1, F), ("turn", 1, 1),
            ("factions", F, SEAT_FEATURES),
            *((f"pillars@{k}", P, PILLAR_FEATURES) for k in range(F))])

    # ------------------------------------------------------------------ actions
    def _rel(self, fid: str, me: int) -> int:
        return (self.seat[fid] - me) % self.F

    def _slot(self, view: Any, pid: str) -> tuple[str, int]:
        for f in view.factions.values():
            if pid in f.pillars:
                i = f.pillars.index(pid)
                if i >= self.P:
                    raise EncodingError(f"pillar {pid} is beyond the codec's {self.P} slots")
                return f.id, i
        raise EncodingError(f"no standing pillar {pid}")

    def encode_actions(self, view: Any, legal: list[Any]) -> list[int]:
        """Catalogue index of each legal action (distinct)."""
        actor = view.faction_id
        off, F, P, D = self.offset, self.F, self.P, self.D
        me = self.seat[actor]
        out = []
        for a in legal:
            t = type(a)
            if t is A.Done:
                i = off["done"]
            elif t is A.Join:
                i = off["join"]
            elif t is A.Decline:
                i = off["decline"]
            elif t is A.Engage:
                i = off["engage"] + self._rel(a.rival, me)
            elif t is A.Invite:
                i = off["invite"] + self._rel(a.faction, me)
            elif t is A.Commission:
                i = off["commission"] + self._rel(a.faction, me) * F + self._rel(a.rival, me)
            elif t is A.Convert:
                i = off["convert"] + (a.amount - 1) * F + self._rel(a.rival, me)
            elif t is A.Build:
                i = off["build"] + (a.competence - 1) * (MAX_DEFENSE + 1) + a.defense
            elif t is A.Raise:
                i = off["raise"] + 2 * self._slot(view, a.pillar)[1] + (a.stat == "defense")
            elif t in (A.Heal, A.Commit, A.Fanatical):
                i = off[{A.Heal: "heal", A.Commit: "commit", A.Fanatical: "fanatical"}[t]] \
                    + self._slot(view, a.pillar)[1]
            elif t is A.Draw:
                i = off["draw"] + a.n
            elif t is A.Allocate:
                if not 1 <= a.n <= D:
                    raise EncodingError(f"{a}: more than max_dice={D} dice (pass max_dice=...)")
                owner, slot = self._slot(view, a.pillar)
                i = off["allocate"] + ((a.n - 1) * F + self._rel(owner, me)) * P + slot
            else:
                raise EncodingError(f"the engagements codec cannot encode {a!r}")
            out.append(i)
        if len(set(out)) != len(out):
            raise EncodingError(f"two legal actions share an index: {legal}")
        return out

    # ------------------------------------------------------------------ observation
    def observe(self, view: Any, out: np.ndarray,
                scores: dict[str, float] | None = None) -> np.ndarray:
        """Write ``agent``'s observation into ``out`` (float32, zeroed here) and return it."""
        agent = view.faction_id
        out[:] = 0.0
        F, P, D = self.F, self.P, self.D
        me = self.seat[agent]
        phase = view.phase
        e = view.decision.get("eng") if phase == "engage" else None
        k = 0
        stage = e["stage"] if e else ("spend" if phase == "spend" else None)
        if stage in STAGES and view.actor == agent:
            out[k + STAGES.index(stage)] = 1.0
        k += len(STAGES)
        parts = e["parts"] if e else []
        if e:
            out[k] = e["aggressor"] == agent
            out[k + 1] = e["defender"] == agent
            out[k + 2] = any(p["faction"] == agent for p in parts[1:])
            out[k + 3] = bool(e.get("invite")) and e["invite"]["faction"] == agent
        k += 4
        if e:
            out[k + self._rel(e["aggressor"], me)] = 1.0
            out[k + F + self._rel(e["defender"], me)] = 1.0
        k += 2 * F
        if e:
            if e.get("invite") and e["invite"]["faction"] == agent:
                out[k] = min(1.0, e["invite"]["price"] / 10)
            mine = e["counter"] if e["stage"].startswith("counter") else None
            if mine is None:
                mine = next((p for p in parts if p["faction"] == agent), None)
            if mine is not None and mine["faction"] == agent:
                out[k + 1] = min(1.0, mine["remaining"] / D)
                out[k + 2] = min(1.0, mine["dice"] / D)
        k += 3
        f = view.factions[agent]
        out[k] = min(1.0, f.faction_dice / 20)
        k += 1
        for fid in self.factions:
            if fid != agent:
                out[k + self._rel(fid, me)] = min(1.0, f.pool(fid) / 10)
        k += F
        out[k] = min(1.0, view.turn / 50)
        k += 1
        scores = view.scores() if scores is None else scores
        in_eng = {p["faction"] for p in parts}
        if e:
            in_eng.add(e["defender"])
        for fid, x in view.factions.items():
            r = self._rel(fid, me)
            row = k + r * SEAT_FEATURES
            out[row] = x.alive
            out[row + 1] = len(x.pillars) / P
            out[row + 2] = min(1.0, scores[fid] / 100)
            out[row + 3] = min(1.0, x.renown / 20)
            out[row + 4] = x.mercenary is not None
            out[row + 5] = min(1.0, (x.mercenary or 0) / 10)
            out[row + 6] = fid in in_eng
        k += F * SEAT_FEATURES
        committed = {pid for p in parts for pid in p["pillars"]}
        alloc: dict[str, int] = {}
        for p in [*parts, *([e["counter"]] if e and e.get("counter") else [])]:
            for pid, n in p["alloc"].items():
                alloc[pid] = alloc.get(pid, 0) + n
        attacked = set(e.get("attacked", ())) if e else set()
        pillars = view.pillars
        for fid, x in view.factions.items():
            r = self._rel(fid, me)
            for i, pid in enumerate(x.pillars[:P]):
                p = pillars[pid]
                row = k + (r * P + i) * PILLAR_FEATURES
                out[row] = 1.0
                out[row + 1] = p.competence / MAX_COMPETENCE
                out[row + 2] = p.defense / MAX_DEFENSE
                out[row + 3] = p.wounds / p.circles
                out[row + 4] = min(1.0, p.circles_left / 10)
                out[row + 5] = p.has("assassinate")
                out[row + 6] = p.has("fanatical")
                out[row + 7] = pid in committed
                out[row + 8] = min(1.0, alloc.get(pid, 0) / D)
                out[row + 9] = pid in attacked
        return out
