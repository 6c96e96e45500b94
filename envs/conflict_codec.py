"""Observation and action codec of the ``conflict`` ruleset for :mod:`factionsim.envs`.

Characters are numbered relative to the observer: its own side's characters first (file order),
then every other side's. A side's characters are its *slots* (``own slot``); every character is
a *target slot*.

Action catalogue (``Discrete``), per own slot, in this order: plan x 5 categories, replan x 5,
hold x (2 x free_move + 1) shifts, stand x shifts, harm x targets x 18 skills, advantage x
targets x 18 skills, trick x targets x (1 + tricks), assist x targets, remove x advantage slots,
ritual, parley x targets, cast x spells x targets, dash x (2 x (free_move + far_move) + 1) shifts x
3 modes, tie x 2, reroll x targets, accept, proceed (a side's "no more plan changes"; in the
first slot only).

Observation (``float32`` in [0, 1]), its pieces (:class:`~factionsim.envs.codec.Layout`) in
order: ``round`` (1 value), ``phase`` (one-hot), ``category`` (the initiative category acting),
``question`` (its kind: tie or reroll), ``objective`` (kind, whether it is the observer's,
progress, where, whether the observer has won), ``item`` (on the ground where, held by own or
enemy), and ``characters``, one row per character in the observer's numbering: present (always
1.0: the row's flag), side (own / enemy), hero, status, height, Blood, Guts and their maxima,
Approaches, 18 skills, items, reach, spell uses, the plan (own characters always; enemies' only
once known), acted / standing / targeted / concentration, whether it is the character deciding
now, the Advantages on it for and against the observer, its Bond with the character deciding,
whether it carries the item. Enemy plans not yet revealed are absent.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import Any

import numpy as np

from factionsim.rules.conflict import actions as A
from factionsim.rules.conflict.model import ACTIVE, APPROACHES, CATEGORIES, SKILLS

from .codec import Codec, EncodingError, Layout, action_offsets

#: what an observation reads of every character, without a comprehension per character
_APPROACHES_OF = itemgetter(*APPROACHES)
_USES = attrgetter("uses")
#: what the observation shows of an Advantage (a copy of them tells whether they changed)
_ADVANTAGE_FIELDS = itemgetter("side", "targets", "bonus")
_BONUS = itemgetter(1)
#: what a character row shows of the character (one C call reads them)
_CHAR_FIELDS = attrgetter("position", "blood", "max_blood", "guts", "max_guts", "opportunity",
                          "attacks_taken", "status", "acted", "standing", "targeted",
                          "concentration_broken", "plan")
_CATEGORY_AT = {cat: i for i, cat in enumerate(CATEGORIES)}
_UNSEEN = [(None, -1)]  # a character row not kept yet
#: the action kinds whose catalogue index depends on the action alone (not Remove's: the
#: Advantages in play number it); the rules make one object of each choice (``turn._choice``)
_KEPT_KINDS = frozenset({A.Plan, A.Replan, A.Hold, A.Stand, A.Harm, A.Advantage, A.Trick,
                         A.Assist, A.Ritual, A.Parley, A.Cast, A.Dash, A.TieChoice, A.Reroll,
                         A.Accept, A.Proceed})
_KEPT_CODES = 4096  # most action objects an observer's table keeps before it starts afresh

#: a character row: its size, where its plan one-hot and its last 14 values (flags, Advantages,
#: Bond...) begin (:meth:`ConflictCodec._write_char_row` writes the rest at their positions)
_PLAN_AT = 19 + len(APPROACHES) + len(SKILLS)
_ROW = _PLAN_AT + len(CATEGORIES) + 14
_TAIL = _ROW - 14
_ROW_PACKER = struct.Struct(f"{_ROW}f")  # a character row's float32 bytes

PHASES = ("turn-start", "plan", "act", "question", "replan")
OBJECTIVES = ("survive", "carry", "ritual")
MODES = ("free", "check", "break")


def _unit(x: float) -> float:
    """``x`` clipped to [0, 1] as ``np.clip`` clips it (NaN and -0.0 stay as they are)."""
    return 1.0 if x > 1.0 else 0.0 if x < 0.0 else x


def _positions(names: tuple[str, ...] | list[str]) -> dict[str, int]:
    return {name: i for i, name in enumerate(names)}


@dataclass(frozen=True)
class Limits:
    """Sizes beyond the scenario's own: enemy Advantage slots, tricks and spells per character."""

    advantages: int = 16
    tricks: int = 2
    spells: int = 3


class ConflictCodec(Codec):
    Limits = Limits

    def __init__(self, state: Any, limits: Limits | None = None):
        self.limits = limits or Limits()
        self.sides = list(state.factions)
        self.n_chars = len(state.chars)
        self.k = max(len(s.characters) for s in state.factions.values())
        st = state.settings
        self.fm = st["free_move"]
        self.dmax = st["free_move"] + st["far_move"]
        self.length = max(1, st["length"])
        m = self.n_chars
        sizes = [("plan", 5), ("replan", 5), ("hold", 2 * self.fm + 1), ("stand", 2 * self.fm + 1),
                 ("harm", m * 18), ("advantage", m * 18), ("trick", m * (1 + self.limits.tricks)),
                 ("assist", m), ("remove", self.limits.advantages), ("ritual", 1), ("parley", m),
                 ("cast", self.limits.spells * m), ("dash", (2 * self.dmax + 1) * 3), ("tie", 2),
                 ("reroll", m), ("accept", 1), ("proceed", 1)]
        self.offset, self.per_slot = action_offsets(sizes)
        self.n_actions = self.per_slot * self.k
        self.row = _ROW
        self.layout = Layout([
            ("round", 1, 1), ("phase", 1, len(PHASES)), ("category", 1, len(CATEGORIES)),
            ("question", 1, 2), ("objective", 1, len(OBJECTIVES) + 4), ("item", 1, 3),
            ("characters", self.n_chars, self.row)])
        self.global_size = self.layout.start["characters"]
        self._seatings: dict[str, _Seating] = {}
        self._seated_for: Any = None  # the game's ``chars`` the seatings were built for
        #: per observer and numbering of the characters: the action objects' indices (they
        #: hold from game to game: they depend only on the numbering)
        self._codes: dict[tuple[Any, ...], tuple[dict[int, int], list[Any]]] = {}
        self._encoders = self._encoder_table()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without what it kept per observer: the character rows (keyed on
        the characters' own counts of writes, which a copy's characters do not continue) and
        the actions' indices (keyed on ``id``, which another process gives other objects)."""
        d = dict(self.__dict__)
        d["_seatings"], d["_seated_for"], d["_codes"] = {}, None, {}
        return d

    # ------------------------------------------------------------------ numbering
    def order(self, view: Any, agent: str) -> list[str]:
        own = list(view.factions[agent].characters)
        return own + [c for sid, s in view.factions.items() if sid != agent for c in s.characters]

    # ------------------------------------------------------------------ actions
    def encode_actions(self, view: Any, legal: list[Any]) -> list[int]:
        """The catalogue index of each legal action. The rules offer one object per choice
        (``turn._choice``), so most actions are looked up by identity in the observer's table
        of objects met before (the table keeps each object alive: an id never stands for
        another object); the others are encoded one by one."""
        seating = self._seating(view, view.faction_id)
        out = list(map(seating.codes.get, map(id, legal)))
        if None in out:
            self._encode_new(view, legal, out, seating)
        if len(set(out)) != len(out):
            raise EncodingError("two legal actions share an index (an encoding bug)")
        return out

    def _encode_new(self, view: Any, legal: list[Any], out: list[Any], seating: _Seating) -> None:
        """Encode the actions whose entry in ``out`` is None; remember the index of each object
        of a kind the rules keep one object of (:data:`_KEPT_KINDS`)."""
        actor = view.faction_id
        own, per_slot, encoders = seating.own, self.per_slot, self._encoders
        codes, kept = seating.codes, seating.kept
        if len(codes) > _KEPT_CODES:  # (objects made elsewhere, one by one: start afresh)
            codes.clear()
            kept.clear()
        enemy_advs: list[str] | None = None  # worked out for the first Remove only
        for i, a in enumerate(legal):
            if out[i] is not None:
                continue
            t = type(a)
            if t is A.Proceed:  # a side's decision: the first slot's entry
                index = self.offset["proceed"]
            elif t is A.Remove:
                if enemy_advs is None:
                    enemy_advs = [x["id"] for x in view.advantages if x["side"] != actor]
                index = own[a.char] * per_slot + self._remove(a, enemy_advs)
            else:
                encode = encoders.get(t)
                if encode is None:
                    raise EncodingError(f"no catalogue entry for {a!r}")
                index = own[a.char] * per_slot + encode(view, a, seating.slot)
            out[i] = index
            if t in _KEPT_KINDS:
                codes[id(a)] = index
                kept.append(a)

    def _encoder_table(self) -> dict[type, Any]:
        """Action class -> ``f(view, action, slot)``, its index within its character's block
        (one dictionary lookup per action instead of a chain of ``isinstance`` tests)."""
        o, fm, dmax, m = self.offset, self.fm, self.dmax, self.n_chars
        plan, replan, hold, stand = o["plan"], o["replan"], o["hold"], o["stand"]
        harm, advantage, assist, ritual = o["harm"], o["advantage"], o["assist"], o["ritual"]
        parley, dash, tie, reroll, accept = (o["parley"], o["dash"], o["tie"], o["reroll"],
                                             o["accept"])
        category, skill, mode = _positions(CATEGORIES), _positions(SKILLS), _positions(MODES)
        tricks, spells = self.limits.tricks, self.limits.spells

        def trick(view: Any, a: Any, slot: dict[str, int]) -> int:
            c = view.chars[a.char]
            k = 0 if a.trick == "impair" else 1 + sorted(c.tricks).index(a.trick)
            if k > tricks:
                raise EncodingError(f"{c.id} has more tricks than Limits.tricks={tricks}")
            return o["trick"] + slot[a.target] * (1 + tricks) + k

        def cast(view: Any, a: Any, slot: dict[str, int]) -> int:
            c = view.chars[a.char]
            k = [sp.id for sp in c.spells].index(a.spell)
            if k >= spells:
                raise EncodingError(f"{c.id} has more spells than Limits.spells={spells}")
            return o["cast"] + k * m + slot[a.target]

        return {
            A.Plan: lambda view, a, slot: plan + category[a.category],
            A.Replan: lambda view, a, slot: replan + category[a.category],
            A.Hold: lambda view, a, slot: hold + a.shift + fm,
            A.Stand: lambda view, a, slot: stand + a.shift + fm,
            A.Harm: lambda view, a, slot: harm + slot[a.target] * 18 + skill[a.skill],
            A.Advantage: lambda view, a, slot: advantage + slot[a.target] * 18 + skill[a.skill],
            A.Trick: trick,
            A.Assist: lambda view, a, slot: assist + slot[a.ally],
            A.Ritual: lambda view, a, slot: ritual,
            A.Parley: lambda view, a, slot: parley + slot[a.target],
            A.Cast: cast,
            A.Dash: lambda view, a, slot: (dash + (max(-dmax, min(dmax, a.shift)) + dmax) * 3
                                           + mode[a.mode]),
            A.TieChoice: lambda view, a, slot: tie + (0 if a.choice == "succeed" else 1),
            A.Reroll: lambda view, a, slot: reroll + slot[a.partner],
            A.Accept: lambda view, a, slot: accept,
        }

    def _remove(self, a: Any, advs: list[str]) -> int:
        i = advs.index(a.advantage)
        if i >= self.limits.advantages:
            raise EncodingError(f"more than {self.limits.advantages} enemy Advantages; raise "
                                "Limits.advantages")
        return self.offset["remove"] + i

    # ------------------------------------------------------------------ observation
    def _seating(self, view: Any, agent: str) -> _Seating:
        """What never changes in a game for one observer: the characters in its numbering, and
        its observation template (each character's fixed values: side, hero, maxima, items,
        reach, skills...). Built once per agent and game (a game keeps its ``chars`` object;
        no rule changes those values)."""
        if self._seated_for is not view.chars:
            self._seatings.clear()
            self._seated_for = view.chars
        seating = self._seatings.get(agent)
        if seating is None:
            seating = self._seatings[agent] = self._build_seating(view, agent)
        return seating

    def _build_seating(self, view: Any, agent: str) -> _Seating:
        order = self.order(view, agent)
        template = np.zeros(self.obs_size, np.float32)
        reach = view.settings["reach"]
        rows = self.layout.view(template, "characters")
        for i, cid in enumerate(order):
            c = view.chars[cid]
            row = rows[i]
            row[[0, 1, 2, 9, 10, 11, 12, 13, 14, 15, 16]] = (
                1.0, float(c.side == agent), float(c.hero), c.max_blood / 20, c.max_guts / 20,
                float(c.weapon is not None), (c.weapon or 0) / 3, c.armor / 3, c.talisman / 3,
                c.ward / 3, (c.reach if c.reach is not None else reach) / 10)
            k = 19 + len(APPROACHES)
            row[k:k + len(SKILLS)] = [c.rank(sk) / 3 for sk in SKILLS]
            row[-2:] = (float(bool(c.vulnerable)), float(bool(c.tricks)))
        np.clip(template, 0.0, 1.0, out=template)
        own = {cid: i for i, cid in enumerate(view.factions[agent].characters)}
        work = template.copy()  # (its character rows are written at the first observation)
        at = [self.global_size + i * self.row for i in range(len(order))]
        return _Seating(order, {cid: i for i, cid in enumerate(order)}, own, template,
                        rows.tolist(), [view.chars[cid].side == agent for cid in order],
                        dict(zip(order, at, strict=True)), _UNSEEN * len(order), [None, None],
                        *self._codes.setdefault((agent, tuple(own), tuple(order)), ({}, [])),
                        work, [k * work.itemsize for k in at])

    def observe(self, view: Any, out: np.ndarray,
                scores: dict[str, float] | None = None) -> np.ndarray:
        """Write ``agent``'s observation into ``out`` (every entry) and return it: a copy of
        the observer's kept base (:meth:`_current_base`) with the decision's values written on
        top."""
        seating = self._current_base(view)
        out[:] = seating.work
        return self._fill(view, seating, out)

    def observation(self, view: Any, scores: dict[str, float] | None = None) -> np.ndarray:
        """:meth:`observe` into a new array: one copy of the observer's kept base."""
        seating = self._current_base(view)
        return self._fill(view, seating, seating.work.copy())

    def _current_base(self, view: Any) -> _Seating:
        """The observer's seating, its base (``work``: its template with every character's row
        as the character shows by itself) brought up to date.

        Each character's row is kept in the base while the character counts no write since it
        was written (``Character.writes``); a character that changed has its row written again
        in place, straight from its fields (:meth:`_write_char_row`). (Rounds five to seven
        kept a bank of built rows keyed on those fields, shared by the observers; in random
        play nearly every key was new, about one a step, so the bank cost a key, a look-up and
        a gather per observation and saved nothing.)"""
        seating = self._seating(view, view.faction_id)
        chars = view.chars
        seen, work = seating.seen, seating.work
        for i, c in enumerate(map(chars.__getitem__, seating.order)):
            kept = seen[i]
            if kept[0] is c and kept[1] == c.writes:
                continue  # its row holds
            self._write_char_row(work, seating.row_bytes[i], seating.template_rows[i],
                                 seating.own_side[i], c)
            seen[i] = (c, c.writes)
        return seating

    def _fill(self, view: Any, seating: _Seating, out: np.ndarray) -> np.ndarray:
        """Write what depends on the decision into ``out``, which holds the observer's base:
        the global values (round, phase, category, question, objective, item) and, in the
        character rows, what depends on the observer or the decision (the Advantages for and
        against the observer, the Bond with the one deciding, a rival's plan announced before
        it acts, who decides, who carries the item).

        Each value is written as it is worked out, one by one (a decision writes about a dozen;
        one numpy call for a list of them costs more), each already within [0, 1] as every
        value of the template and of the character rows, so the observation needs no clipping;
        every position written is zero in the base and written once."""
        agent = view.faction_id
        phase, question = view.phase, view.question
        out[0] = min(1.0, view.turn / max(1, view.max_turns or 20))
        g = 1
        if phase in PHASES:
            out[g + PHASES.index(phase if question is None else "question")] = 1.0
        g += len(PHASES)
        if phase in ("act", "replan"):
            out[g + view.category % len(CATEGORIES)] = 1.0
        g += len(CATEGORIES)
        if question is not None:
            out[g + (0 if question["kind"] == "tie" else 1)] = 1.0
        g += 2
        obj, item = view.objective, view.item
        if obj is not None:
            out[g + OBJECTIVES.index(obj["type"])] = 1.0
            if obj["side"] == agent:
                out[g + 3] = 1.0
            if obj["type"] == "ritual":
                out[g + 4] = min(1.0, obj.get("progress", 0) / max(1, obj["needed"]))
                out[g + 5] = _unit(obj["at"] / self.length)
            elif obj["type"] == "carry":
                out[g + 5] = _unit(obj["to"] / self.length)
            else:
                out[g + 4] = min(1.0, view.turn / max(1, obj["rounds"]))
            if view.winner == agent:
                out[g + 6] = 1.0
        g += len(OBJECTIVES) + 4
        holder = None
        if item is not None:
            holder = item.get("holder")
            if holder is None:
                out[g] = _unit(item.get("position", 0) / self.length)
            else:
                out[g + (1 if view.chars[holder].side == agent else 2)] = 1.0
        acting = view.current if phase == "act" else (question["char"] if question else None)
        at_char = seating.at  # where each character's row begins, by id
        advantages = view.advantages
        if advantages:  # the Advantages on each character, for and against the observer
            kept_advantages = seating.advantages
            now = list(map(_ADVANTAGE_FIELDS, advantages))
            if kept_advantages[0] != now:  # (by value: a bonus may change in place)
                kept_advantages[:] = ([(side, list(targets), bonus) for side, targets, bonus in now],
                                      self._advantage_numbers(advantages, agent, at_char))
            for at, value in zip(*kept_advantages[1], strict=True):
                out[at] = value
        if acting is not None:
            out[at_char[acting] + _TAIL + 5] = 1.0
            bonds = view.bonds
            if bonds:  # each character's Bond with the one deciding
                for pair, steps in bonds.items():
                    if acting in pair:
                        for cid in pair:
                            if cid != acting or len(pair) == 1:
                                out[at_char[cid] + _TAIL + 8] = _unit(steps / 6)
        if holder is not None:
            out[at_char[holder] + _TAIL + 9] = 1.0
        for cid, plan in view.announced_plans().items():
            out[at_char[cid] + _PLAN_AT + _CATEGORY_AT[plan]] = 1.0
        return out

    def _advantage_numbers(self, advantages: list[dict[str, Any]], agent: str,
                           at_char: dict[str, int]) -> tuple[list[int], list[float]]:
        """Where the Advantages' sums go in an observation of ``agent`` (each character's, for
        and against it) and their values."""
        tail = self.row - 14
        bonuses: dict[int, int] = {}
        for adv in advantages:
            side = tail + (6 if adv["side"] == agent else 7)
            for target in set(adv["targets"]):
                k = at_char[target] + side
                bonuses[k] = bonuses.get(k, 0) + adv["bonus"]
        return list(bonuses), [_unit(bonus / 6) for bonus in bonuses.values()]

    def _write_char_row(self, work: np.ndarray, at: int, template_row: list[float],
                        own_side: bool, c: Any) -> None:
        """Write character ``c``'s row as it shows by itself into ``work`` at byte ``at``: its
        template row (the fixed values) with the numbers that change (position, Blood, Guts,
        spell uses, opportunity, Approaches, attacks taken, assists) and its flags (status, its
        plan where the observer knows it: on the observer's side, or once it acted; acted,
        standing, targeted, concentration broken, own plan still to make).

        The row is made as a Python list (a copy of the template row's values) and packed into
        the base's bytes with one ``struct`` call (float32 as numpy rounds each double: the
        same values), without a numpy call: in play that took about 10 us per row in five numpy
        calls and a comprehension (round ten)."""
        (position, blood, max_blood, guts, max_guts, opportunity, attacks_taken, status,
         acted, standing, targeted, broken, plan) = _CHAR_FIELDS(c)
        careful, creative, concerted = _APPROACHES_OF(c.approaches)
        # (the sums are skipped where they would give 0: most characters have no spells or
        # assists)
        spells, assists = c.spells, c.assists
        uses = sum(map(_USES, spells)) if spells else 0
        assisted = sum(map(_BONUS, assists)) if assists else 0
        v = template_row.copy()
        # each number clipped to [0, 1] as :func:`_unit` clips (and ``np.clip`` would), written
        # out: a loop over the ten numbers took 2.5 times as long
        x = position / self.length
        v[6] = 1.0 if x > 1.0 else 0.0 if x < 0.0 else x
        x = blood / (max_blood if max_blood > 1 else 1)
        v[7] = 1.0 if x > 1.0 else 0.0 if x < 0.0 else x
        x = guts / (max_guts if max_guts > 1 else 1)
        v[8] = 1.0 if x > 1.0 else 0.0 if x < 0.0 else x
        x = uses / 5
        v[17] = 1.0 if x > 1.0 else 0.0 if x < 0.0 else x
        x = opportunity
        v[18] = 1.0 if x > 1.0 else 0.0 if x < 0.0 else x
        x = careful / 3
        v[19] = 1.0 if x > 1.0 else 0.0 if x < 0.0 else x
        x = creative / 3
        v[20] = 1.0 if x > 1.0 else 0.0 if x < 0.0 else x
        x = concerted / 3
        v[21] = 1.0 if x > 1.0 else 0.0 if x < 0.0 else x
        x = attacks_taken / 3
        v[_TAIL + 4] = 1.0 if x > 1.0 else 0.0 if x < 0.0 else x
        x = assisted / 6
        v[_TAIL + 10] = 1.0 if x > 1.0 else 0.0 if x < 0.0 else x
        if status == ACTIVE:
            v[3] = 1.0
        elif status == "fallen":
            v[4] = 1.0
        elif status in ("fled", "yielded"):
            v[5] = 1.0
        if plan is not None:
            if own_side or acted:
                v[_PLAN_AT + _CATEGORY_AT[plan]] = 1.0
        elif own_side:
            v[_TAIL + 11] = 1.0
        if acted:
            v[_TAIL] = 1.0
        if standing:
            v[_TAIL + 1] = 1.0
        if targeted:
            v[_TAIL + 2] = 1.0
        if broken:
            v[_TAIL + 3] = 1.0
        _ROW_PACKER.pack_into(work, at, *v)


@dataclass(frozen=True)
class _Seating:
    """One observer's facts for a game: the characters in its numbering (``order``, ``slot``:
    its index of every character, ``own``: of its own side's), its observation template,
    each character's template row (``template_rows``: the fixed values, as Python floats)
    and whether it is on the observer's side (``own_side``), where each character's row begins
    in an observation (``at``), the character object and its count of writes its row in ``work`` was written
    for (``seen``), and the Advantages in play at its last observation (a copy of their
    sides, targets and bonuses) with where their sums went in it and their values
    (``advantages``), and the catalogue index of each action object met before (``codes``,
    by ``id``; ``kept`` holds the objects, so that no id is reused; the two are shared by the
    seatings of every game with the same numbering), and its observation base (``work``: the
    template with each character's row as the character shows by itself; ``row_bytes``: each
    row's first byte in it; an observation is a copy of it with the decision's values written on top)."""

    order: list[str]
    slot: dict[str, int]
    own: dict[str, int]
    template: np.ndarray
    template_rows: list[list[float]]
    own_side: list[bool]
    at: dict[str, int]
    seen: list[tuple[Any, int]]
    advantages: list[Any]
    codes: dict[int, int]
    kept: list[Any]
    work: np.ndarray
    row_bytes: list[int]
