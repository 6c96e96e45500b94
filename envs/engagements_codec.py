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

from .codec import Codec, EncodingError, Layout, action_offsets, packer

MAX_FACTIONS = 8
STAGES = ("spend", E.INVITE, E.ANSWER, E.PILLARS, E.DRAW, E.ALLOCATE, E.C_FANATICAL, E.C_DRAW,
          E.C_ALLOCATE)
PILLAR_FEATURES = 10
#: what a pillar's observation row shows of the pillar itself (read in one C call)
_PILLAR_STATS = operator.attrgetter("competence", "defense", "wounds", "circles", "boons")
_PILLAR_ROWS = 16384  # most distinct pillar rows kept before starting afresh
_SEAT_ROWS = 16384  # likewise for faction rows
#: the actions that name a pillar of some faction -> their block (Allocate and Raise: own formula)
_BY_PILLAR = {A.Allocate: "allocate", A.Raise: "raise", A.Heal: "heal", A.Commit: "commit",
              A.Fanatical: "fanatical"}
SEAT_FEATURES = 7
_SEAT_PACKER = packer(SEAT_FEATURES)
_PILLAR_PACKER = packer(PILLAR_FEATURES)
_ONE = packer(1)


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
        self._global_size = self.layout.start["factions"]
        self._global_packer = packer(self._global_size)
        self._pillars_start = 4 * self.layout.start["pillars@0"]  # (in bytes)
        self._empty_seat = bytes(4 * SEAT_FEATURES)
        self._empty_pillar = bytes(4 * PILLAR_FEATURES)
        # encoded pillar rows (float32 bytes), each distinct one built once
        self._pillar_row_of: dict[tuple, bytes] = {}
        #: observer -> (its game's pillars, the count of writes, the pillar rows it saw last,
        #: each pillar's slot): reused while no pillar changed
        #: (:data:`~factionsim.rules.engagements.model.SCORE_WRITES`)
        self._pillar_rows_seen: dict[str, tuple[Any, int, list[bytes], dict[str, int]]] = {}
        self._seat_row_of: dict[tuple, bytes] = {}  # faction rows, likewise
        #: the pillars' slots (:meth:`_slots`) and the pillars and count of writes they hold for
        self._slots_kept: tuple[Any, int, dict[str, tuple[str, int]]] = (None, -1, {})

    # ------------------------------------------------------------------ actions
    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without the kept pillar rows (keyed on this process's count of
        writes)."""
        d = dict(self.__dict__)
        d["_pillar_rows_seen"], d["_slots_kept"] = {}, (None, -1, {})
        del d["_global_packer"]  # (a ``struct.Struct`` does not pickle)
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.__dict__.update(d)
        self._global_packer = packer(self._global_size)

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
        its first place there. Kept while no pillar changed (the game's pillars and the count
        of :data:`~factionsim.rules.engagements.model.SCORE_WRITES`, as the observation's
        pillar rows; the factions' pillar lists count there)."""
        pillars, kept = view.pillars, self._slots_kept
        if kept[0] is pillars and kept[1] == SCORE_WRITES.count:
            return kept[2]
        slots: dict[str, tuple[str, int]] = {}
        for f in view.factions.values():
            fid = f.id
            for i, pid in enumerate(f.pillars):
                slots.setdefault(pid, (fid, i))
        self._slots_kept = (pillars, SCORE_WRITES.count, slots)
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
        """Write ``agent``'s observation into ``out`` (float32, every entry) and return it."""
        out[:] = self.observation(view, scores)
        return out

    def observation(self, view: Any, scores: dict[str, float] | None = None) -> np.ndarray:
        """``agent``'s observation as a new float32 array, made from bytes: the global values
        packed with one ``struct`` call, then each faction row and each pillar row as the
        float32 bytes kept for it (:meth:`_seat_row`, :meth:`_pillar_row`: one ``bytes`` per
        distinct row), joined, with the engagement's marks packed on top; no numpy call but the
        one that makes the array over the joined bytes. (Until round ten the rows were copied
        from banks of encoded rows with two numpy ``take`` calls, after about twenty numpy
        writes of single values: each numpy call costs more than the Python it saves.)"""
        agent = view.faction_id
        F, D = self.F, self.D
        rels = self._rels(agent)
        phase = view.phase
        e = view.decision.get("eng") if phase == "engage" else None
        g = [0.0] * self._global_size
        k = 0
        stage = e["stage"] if e else ("spend" if phase == "spend" else None)
        if stage in STAGES and view.actor == agent:
            g[k + STAGES.index(stage)] = 1.0
        k += len(STAGES)
        parts = e["parts"] if e else []
        if e:
            invite = e.get("invite")
            g[k] = e["aggressor"] == agent
            g[k + 1] = e["defender"] == agent
            g[k + 2] = any(p["faction"] == agent for p in parts[1:])
            g[k + 3] = bool(invite) and invite["faction"] == agent
            k += 4
            g[k + rels[e["aggressor"]]] = 1.0
            g[k + F + rels[e["defender"]]] = 1.0
            k += 2 * F
            if invite and invite["faction"] == agent:
                g[k] = min(1.0, invite["price"] / 10)
            mine = e["counter"] if e["stage"].startswith("counter") else None
            if mine is None:
                mine = next((p for p in parts if p["faction"] == agent), None)
            if mine is not None and mine["faction"] == agent:
                g[k + 1] = min(1.0, mine["remaining"] / D)
                g[k + 2] = min(1.0, mine["dice"] / D)
            k += 3
        else:
            k += 4 + 2 * F + 3
        f = view.factions[agent]
        g[k] = min(1.0, f.faction_dice / 20)
        k += 1
        for fid in self.factions:
            if fid != agent:
                g[k + rels[fid]] = min(1.0, f.pool(fid) / 10)
        k += F
        g[k] = min(1.0, view.turn / 50)
        scores = view.scores() if scores is None else scores
        in_eng = {p["faction"] for p in parts}
        if e:
            in_eng.add(e["defender"])
        # faction rows: the bytes of each distinct row, made once
        seat_of = self._seat_row_of
        if len(seat_of) + F > _SEAT_ROWS:
            seat_of.clear()
        seats = [self._empty_seat] * F
        for fid, x in view.factions.items():
            key = (x.alive, len(x.pillars), scores[fid], x.renown, x.mercenary, fid in in_eng)
            row = seat_of.get(key)
            if row is None:
                row = self._seat_row(key)
            seats[rels[fid]] = row
        # pillar rows: likewise, the rows' list kept while no pillar changed
        pillars = view.pillars
        seen = self._pillar_rows_seen.get(agent)
        if seen is not None and seen[0] is pillars and seen[1] == SCORE_WRITES.count:
            rows, slot_of = seen[2], seen[3]
        else:
            rows, slot_of = self._pillar_rows(view, rels)
            self._pillar_rows_seen[agent] = (pillars, SCORE_WRITES.count, rows, slot_of)
        buf = bytearray(b"".join((self._global_packer.pack(*g), *seats, *rows)))
        if e:
            # the engagement's marks (committed, dice allocated, attacked) on the few pillars
            # it names (zero in the rows above: they are made unmarked)
            first = self._pillars_start
            for p in parts:
                for pid in p["pillars"]:
                    slot = slot_of.get(pid)
                    if slot is not None:
                        _ONE.pack_into(buf, first + (slot * PILLAR_FEATURES + 7) * 4, 1.0)
            for pid in set(e.get("attacked", ())):
                slot = slot_of.get(pid)
                if slot is not None:
                    _ONE.pack_into(buf, first + (slot * PILLAR_FEATURES + 9) * 4, 1.0)
            alloc: dict[str, int] = {}
            for p in [*parts, *([e["counter"]] if e.get("counter") else [])]:
                for pid, n in p["alloc"].items():
                    alloc[pid] = alloc.get(pid, 0) + n
            for pid, n in alloc.items():
                slot = slot_of.get(pid)
                if slot is not None:
                    _ONE.pack_into(buf, first + (slot * PILLAR_FEATURES + 8) * 4, min(1.0, n / D))
        return np.frombuffer(buf, np.float32)

    def _pillar_rows(self, view: Any, rels: dict[str, int]) -> tuple[list[bytes], dict[str, int]]:
        """The bytes of every pillar slot's row of an observation, no pillar marked by an
        engagement (``rels``: the observer's seat of each faction; zeros for a slot with no
        pillar), and each pillar's slot."""
        F, P = self.F, self.P
        pillars = view.pillars
        row_of = self._pillar_row_of
        if len(row_of) + F * P > _PILLAR_ROWS:
            row_of.clear()
        rows = [self._empty_pillar] * (F * P)
        slot_of = {}
        for fid, x in view.factions.items():
            first = rels[fid] * P
            for i, pid in enumerate(x.pillars[:P]):
                key = _PILLAR_STATS(pillars[pid])
                row = row_of.get(key)
                if row is None:
                    row = self._pillar_row(key)
                rows[first + i] = row
                slot_of[pid] = first + i
        return rows, slot_of

    def _seat_row(self, key: tuple) -> bytes:
        """Encode one faction row (see :meth:`observation`'s key) as float32 bytes, kept:
        alive, pillars, score, renown, whether it is a mercenary, its price, whether it is in
        the engagement."""
        alive, n_pillars, score, renown, mercenary, engaged = key
        row = self._seat_row_of[key] = _SEAT_PACKER.pack(
            alive, n_pillars / self.P, min(1.0, score / 100), min(1.0, renown / 20),
            mercenary is not None, min(1.0, (mercenary or 0) / 10), engaged)
        return row

    def _pillar_row(self, key: tuple) -> bytes:
        """Encode one pillar row (``key``: the pillar's competence, defense, wounds, circles,
        boons) as float32 bytes, kept: present, competence, defense, wounds marked, circles
        left, Assassinate, Fanatical, and three zeros (committed, dice allocated to it,
        attacked: an engagement's marks, written on top)."""
        competence, defense, wounds, circles, boons = key
        row = self._pillar_row_of[key] = _PILLAR_PACKER.pack(
            1.0, competence / MAX_COMPETENCE, defense / MAX_DEFENSE, wounds / circles,
            min(1.0, (circles - wounds) / 10), "assassinate" in boons, "fanatical" in boons,
            0.0, 0.0, 0.0)
        return row
