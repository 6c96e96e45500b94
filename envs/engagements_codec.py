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

import operator
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
    SCORE_WRITES,
)

from .codec import Codec, EncodingError, Layout, action_offsets, grow_bank

MAX_FACTIONS = 8
STAGES = ("spend", E.INVITE, E.ANSWER, E.PILLARS, E.DRAW, E.ALLOCATE, E.C_FANATICAL, E.C_DRAW,
          E.C_ALLOCATE)
PILLAR_FEATURES = 10
#: what a pillar's observation row shows of the pillar itself (read in one C call)
_PILLAR_STATS = operator.attrgetter("competence", "defense", "wounds", "circles", "boons")
_PILLAR_ROWS = 16384  # most distinct pillar rows the bank keeps before it starts afresh
_SEAT_ROWS = 16384  # likewise for faction rows
#: the actions that name a pillar of some faction -> their block (Allocate and Raise: own formula)
_BY_PILLAR = {A.Allocate: "allocate", A.Raise: "raise", A.Heal: "heal", A.Commit: "commit",
              A.Fanatical: "fanatical"}
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
        self._rel_of: dict[str, dict[str, int]] = {}  # agent -> each faction's relative seat
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
        # encoded pillar rows, each distinct one built once; row 0 is an empty slot (all zeros)
        self._pillar_bank = np.zeros((64, PILLAR_FEATURES), np.float32)
        self._pillar_row_of: dict[tuple, int] = {}
        #: observer -> (its game's pillars, the count of writes, the pillar bank rows it saw
        #: last, each pillar's slot): reused while no pillar changed
        #: (:data:`~factionsim.rules.engagements.model.SCORE_WRITES`)
        self._pillar_rows_seen: dict[str, tuple[Any, int, list[int], dict[str, int]]] = {}
        self._seat_bank = np.zeros((64, SEAT_FEATURES), np.float32)  # faction rows, likewise
        self._seat_row_of: dict[tuple, int] = {}

    # ------------------------------------------------------------------ actions
    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without the kept pillar rows (keyed on this process's count of
        writes)."""
        d = dict(self.__dict__)
        d["_pillar_rows_seen"] = {}
        return d

    def _rel(self, fid: str, me: int) -> int:
        return (self.seat[fid] - me) % self.F

    def _rels(self, agent: str) -> dict[str, int]:
        """Each faction's seat relative to ``agent`` (built once per codec and agent)."""
        rels = self._rel_of.get(agent)
        if rels is None:
            me = self.seat[agent]
            rels = self._rel_of[agent] = {fid: self._rel(fid, me) for fid in self.factions}
        return rels

    def _slots(self, view: Any) -> dict[str, tuple[str, int]]:
        """Every standing pillar -> (its faction, its index there): the first faction listing it,
        its first place there."""
        slots: dict[str, tuple[str, int]] = {}
        for f in view.factions.values():
            fid = f.id
            for i, pid in enumerate(f.pillars):
                slots.setdefault(pid, (fid, i))
        return slots

    def encode_actions(self, view: Any, legal: list[Any]) -> list[int]:
        """Catalogue index of each legal action (distinct). The seats relative to the actor are
        cached per agent, the pillars' slots listed once per call (the classes are tested in
        the order random play meets them most)."""
        actor = view.faction_id
        off, F, P, D = self.offset, self.F, self.P, self.D
        rel = self._rels(actor)
        slots: dict[str, tuple[str, int]] | None = None
        out = []
        for a in legal:
            t = type(a)
            if t in _BY_PILLAR:
                if slots is None:
                    slots = self._slots(view)
                owner, slot = slots.get(a.pillar, (None, -1))
                if slot < 0:
                    raise EncodingError(f"no standing pillar {a.pillar}")
                if slot >= P:
                    raise EncodingError(f"pillar {a.pillar} is beyond the codec's {P} slots")
                if t is A.Allocate:
                    if not 1 <= a.n <= D:
                        raise EncodingError(f"{a}: more than max_dice={D} dice (pass "
                                            "max_dice=...)")
                    i = off["allocate"] + ((a.n - 1) * F + rel[owner]) * P + slot
                elif t is A.Raise:
                    i = off["raise"] + 2 * slot + (a.stat == "defense")
                else:
                    i = off[_BY_PILLAR[t]] + slot
            elif t is A.Convert:
                i = off["convert"] + (a.amount - 1) * F + rel[a.rival]
            elif t is A.Draw:
                i = off["draw"] + a.n
            elif t is A.Build:
                i = off["build"] + (a.competence - 1) * (MAX_DEFENSE + 1) + a.defense
            elif t is A.Done:
                i = off["done"]
            elif t is A.Join:
                i = off["join"]
            elif t is A.Decline:
                i = off["decline"]
            elif t is A.Engage:
                i = off["engage"] + rel[a.rival]
            elif t is A.Invite:
                i = off["invite"] + rel[a.faction]
            elif t is A.Commission:
                i = off["commission"] + rel[a.faction] * F + rel[a.rival]
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
        rels = self._rels(agent)
        for fid in self.factions:
            if fid != agent:
                out[k + rels[fid]] = min(1.0, f.pool(fid) / 10)
        k += F
        out[k] = min(1.0, view.turn / 50)
        k += 1
        scores = view.scores() if scores is None else scores
        in_eng = {p["faction"] for p in parts}
        if e:
            in_eng.add(e["defender"])
        # faction rows: copied from a bank of already-encoded rows, as the pillar rows below
        seat_of = self._seat_row_of
        if len(seat_of) + 1 + F > len(self._seat_bank):
            self._seat_bank = grow_bank(self._seat_bank, seat_of, _SEAT_ROWS)
        rows = [0] * F  # bank row 0: an empty seat
        for fid, x in view.factions.items():
            key = (x.alive, len(x.pillars), scores[fid], x.renown, x.mercenary, fid in in_eng)
            b = seat_of.get(key)
            if b is None:
                b = self._seat_row(key)
            rows[rels[fid]] = b
        end = k + F * SEAT_FEATURES
        self._seat_bank.take(rows, axis=0, out=out[k:end].reshape(F, SEAT_FEATURES))
        k = end
        committed = {pid for p in parts for pid in p["pillars"]}
        alloc: dict[str, int] = {}
        for p in [*parts, *([e["counter"]] if e and e.get("counter") else [])]:
            for pid, n in p["alloc"].items():
                alloc[pid] = alloc.get(pid, 0) + n
        attacked = set(e.get("attacked", ())) if e else set()
        # pillar rows: copied from a bank of already-encoded rows (one per distinct pillar row,
        # as no engagement marks it), the rows' list kept while no pillar changed; then the
        # engagement's marks (committed, dice allocated, attacked) on the few pillars it names
        pillars = view.pillars
        seen = self._pillar_rows_seen.get(agent)
        if seen is not None and seen[0] is pillars and seen[1] == SCORE_WRITES.count:
            rows, slot_of = seen[2], seen[3]
        else:
            rows, slot_of = self._pillar_rows(view, rels)
            self._pillar_rows_seen[agent] = (pillars, SCORE_WRITES.count, rows, slot_of)
        self._pillar_bank.take(rows, axis=0, out=out[k:].reshape(F * P, PILLAR_FEATURES))
        for marked, column in ((committed, 7), (attacked, 9)):
            for pid in marked:
                slot = slot_of.get(pid)
                if slot is not None:
                    out[k + slot * PILLAR_FEATURES + column] = 1.0
        for pid, n in alloc.items():
            slot = slot_of.get(pid)
            if slot is not None:
                out[k + slot * PILLAR_FEATURES + 8] = min(1.0, n / D)
        return out

    def _pillar_rows(self, view: Any, rels: dict[str, int]) -> tuple[list[int], dict[str, int]]:
        """The pillar bank's row for every pillar slot of an observation, no pillar marked by
        an engagement (``rels``: the observer's seat of each faction; 0, the empty row, for a
        slot with no pillar), and each pillar's slot."""
        F, P = self.F, self.P
        pillars = view.pillars
        row_of = self._pillar_row_of
        if len(row_of) + 1 + F * P > len(self._pillar_bank):
            self._pillar_bank = grow_bank(self._pillar_bank, row_of, _PILLAR_ROWS)
            self._pillar_rows_seen.clear()  # (their rows may be gone from the bank)
        rows = [0] * (F * P)  # bank row 0: an empty slot
        slot_of = {}
        for fid, x in view.factions.items():
            first = rels[fid] * P
            for i, pid in enumerate(x.pillars[:P]):
                key = (_PILLAR_STATS(pillars[pid]), False, 0, False)
                b = row_of.get(key)
                if b is None:
                    b = self._pillar_row(key)
                rows[first + i] = b
                slot_of[pid] = first + i
        return rows, slot_of

    def _seat_row(self, key: tuple) -> int:
        """Encode one faction row (see :meth:`observe`'s key) into the seat bank: alive, pillars,
        score, renown, whether it is a mercenary, its price, whether it is in the engagement."""
        alive, n_pillars, score, renown, mercenary, engaged = key
        b = len(self._seat_row_of) + 1
        self._seat_bank[b] = (alive, n_pillars / self.P, min(1.0, score / 100),
                              min(1.0, renown / 20), mercenary is not None,
                              min(1.0, (mercenary or 0) / 10), engaged)
        self._seat_row_of[key] = b
        return b

    def _pillar_row(self, key: tuple) -> int:
        """Encode one pillar row (see :meth:`observe`'s key) into the pillar bank: present,
        competence, defense, wounds marked, circles left, Assassinate, Fanatical, committed,
        dice allocated to it, attacked."""
        (competence, defense, wounds, circles, boons), committed, allocated, attacked = key
        b = len(self._pillar_row_of) + 1
        self._pillar_bank[b] = (1.0, competence / MAX_COMPETENCE, defense / MAX_DEFENSE,
                                wounds / circles, min(1.0, (circles - wounds) / 10),
                                "assassinate" in boons, "fanatical" in boons, committed,
                                min(1.0, allocated / self.D), attacked)
        self._pillar_row_of[key] = b
        return b
