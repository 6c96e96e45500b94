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

from dataclasses import dataclass
from operator import attrgetter, itemgetter, truediv
from typing import Any

import numpy as np

from factionsim.rules.conflict import actions as A
from factionsim.rules.conflict.model import ACTIVE, APPROACHES, CATEGORIES, SKILLS

from .codec import Codec, EncodingError, Layout, action_offsets, float32s

#: what an observation reads of every character, without a comprehension per character
_APPROACHES_OF = itemgetter(*APPROACHES)
_THREES = (3,) * len(APPROACHES)
_USES = attrgetter("uses")
_BONUS = itemgetter(1)

PHASES = ("turn-start", "plan", "act", "question", "replan")
OBJECTIVES = ("survive", "carry", "ritual")
MODES = ("free", "check", "break")


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
        self.row = 19 + len(APPROACHES) + len(SKILLS) + len(CATEGORIES) + 14
        self.layout = Layout([
            ("round", 1, 1), ("phase", 1, len(PHASES)), ("category", 1, len(CATEGORIES)),
            ("question", 1, 2), ("objective", 1, len(OBJECTIVES) + 4), ("item", 1, 3),
            ("characters", self.n_chars, self.row)])
        self.global_size = self.layout.start["characters"]
        self._seatings: dict[str, _Seating] = {}
        self._seated_for: Any = None  # the game's ``chars`` the seatings were built for

    # ------------------------------------------------------------------ numbering
    def order(self, view: Any, agent: str) -> list[str]:
        own = list(view.factions[agent].characters)
        return own + [c for sid, s in view.factions.items() if sid != agent for c in s.characters]

    # ------------------------------------------------------------------ actions
    def encode_actions(self, view: Any, legal: list[Any]) -> list[int]:
        actor = view.faction_id
        seating = self._seating(view, actor)
        slot, own = seating.slot, seating.own
        enemy_advs = [a["id"] for a in view.advantages if a["side"] != actor]
        out = []
        for a in legal:
            if isinstance(a, A.Proceed):  # a side's decision: the first slot's entry
                out.append(self.offset["proceed"])
                continue
            base = own[a.char] * self.per_slot
            out.append(base + self._index(view, a, slot, enemy_advs))
        if len(set(out)) != len(out):
            raise EncodingError("two legal actions share an index (an encoding bug)")
        return out

    def _index(self, view: Any, a: Any, slot: dict[str, int], advs: list[str]) -> int:
        o = self.offset
        c = view.chars[a.char]
        if isinstance(a, A.Plan):
            return o["plan"] + CATEGORIES.index(a.category)
        if isinstance(a, A.Replan):
            return o["replan"] + CATEGORIES.index(a.category)
        if isinstance(a, A.Hold):
            return o["hold"] + a.shift + self.fm
        if isinstance(a, A.Stand):
            return o["stand"] + a.shift + self.fm
        if isinstance(a, A.Harm):
            return o["harm"] + slot[a.target] * 18 + SKILLS.index(a.skill)
        if isinstance(a, A.Advantage):
            return o["advantage"] + slot[a.target] * 18 + SKILLS.index(a.skill)
        if isinstance(a, A.Trick):
            k = 0 if a.trick == "impair" else 1 + sorted(c.tricks).index(a.trick)
            if k > self.limits.tricks:
                raise EncodingError(f"{c.id} has more tricks than Limits.tricks={self.limits.tricks}")
            return o["trick"] + slot[a.target] * (1 + self.limits.tricks) + k
        if isinstance(a, A.Assist):
            return o["assist"] + slot[a.ally]
        if isinstance(a, A.Remove):
            i = advs.index(a.advantage)
            if i >= self.limits.advantages:
                raise EncodingError(f"more than {self.limits.advantages} enemy Advantages; raise "
                                    "Limits.advantages")
            return o["remove"] + i
        if isinstance(a, A.Ritual):
            return o["ritual"]
        if isinstance(a, A.Parley):
            return o["parley"] + slot[a.target]
        if isinstance(a, A.Cast):
            k = [sp.id for sp in c.spells].index(a.spell)
            if k >= self.limits.spells:
                raise EncodingError(f"{c.id} has more spells than Limits.spells={self.limits.spells}")
            return o["cast"] + k * self.n_chars + slot[a.target]
        if isinstance(a, A.Dash):
            d = max(-self.dmax, min(self.dmax, a.shift))
            return o["dash"] + (d + self.dmax) * 3 + MODES.index(a.mode)
        if isinstance(a, A.TieChoice):
            return o["tie"] + (0 if a.choice == "succeed" else 1)
        if isinstance(a, A.Reroll):
            return o["reroll"] + slot[a.partner]
        if isinstance(a, A.Accept):
            return o["accept"]
        raise EncodingError(f"no catalogue entry for {a!r}")

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
        start = self.global_size
        fixed: list[int] = []  # per character, in order: the numbers of _numbers()
        flags: list[int] = []  # per character: where its _FLAGS are
        plans: list[int] = []  # per character: where its plan one-hot starts
        for i in range(len(order)):
            r = start + i * self.row
            fixed += [r + 6, r + 7, r + 8, r + 17, r + 18,
                      *range(r + 19, r + 19 + len(APPROACHES)),
                      *(r + self.row - 14 + j for j in (4, 6, 7, 8, 10))]
            flags.append(r)
            plans.append(r + 19 + len(APPROACHES) + len(SKILLS))
        own = {cid: i for i, cid in enumerate(view.factions[agent].characters)}
        return _Seating(order, {cid: i for i, cid in enumerate(order)}, own, template,
                        np.asarray(fixed, np.intp), flags, plans)

    def observe(self, view: Any, out: np.ndarray,
                scores: dict[str, float] | None = None) -> np.ndarray:
        """Write ``agent``'s observation into ``out`` (every entry) and return it.

        The values fixed for the game come from the observer's template; the numbers that
        change are written with one numpy call at their fixed positions, the flags that are
        set with another."""
        agent = view.faction_id
        seating = self._seating(view, agent)
        out[:] = seating.template
        ones: list[int] = []
        numbers: list[float] = []
        numbers_at: list[int] = []
        phase, question = view.phase, view.question
        numbers_at.append(0)
        numbers.append(min(1.0, view.turn / max(1, view.max_turns or 20)))
        g = 1
        if phase in PHASES:
            ones.append(g + PHASES.index(phase if question is None else "question"))
        g += len(PHASES)
        if phase in ("act", "replan"):
            ones.append(g + view.category % len(CATEGORIES))
        g += len(CATEGORIES)
        if question is not None:
            ones.append(g + (0 if question["kind"] == "tie" else 1))
        g += 2
        obj, item = view.objective, view.item
        if obj is not None:
            ones.append(g + OBJECTIVES.index(obj["type"]))
            if obj["side"] == agent:
                ones.append(g + 3)
            if obj["type"] == "ritual":
                numbers_at += [g + 4, g + 5]
                numbers += [min(1.0, obj.get("progress", 0) / max(1, obj["needed"])),
                            obj["at"] / self.length]
            elif obj["type"] == "carry":
                numbers_at.append(g + 5)
                numbers.append(obj["to"] / self.length)
            else:
                numbers_at.append(g + 4)
                numbers.append(min(1.0, view.turn / max(1, obj["rounds"])))
            if view.winner == agent:
                ones.append(g + 6)
        g += len(OBJECTIVES) + 4
        holder = None
        if item is not None:
            holder = item.get("holder")
            if holder is None:
                numbers_at.append(g)
                numbers.append(item.get("position", 0) / self.length)
            else:
                ones.append(g + (1 if view.chars[holder].side == agent else 2))
        known_plans = view.known_plans()
        acting = view.current if phase == "act" else (question["char"] if question else None)
        # the Advantages on each character, for and against the observer
        friendly: dict[str, int] = {}
        hostile: dict[str, int] = {}
        for adv in view.advantages:
            on = friendly if adv["side"] == agent else hostile
            for target in set(adv["targets"]):
                on[target] = on.get(target, 0) + adv["bonus"]
        bonds = view.bonds
        chars = view.chars
        length = self.length
        tail = self.row - 14
        for cid, r, plan_at in zip(seating.order, seating.flags, seating.plans, strict=True):
            c = chars[cid]
            status = c.status
            approaches = c.approaches
            numbers += [c.position / length, c.blood / max(1, c.max_blood),
                        c.guts / max(1, c.max_guts), sum(map(_USES, c.spells)) / 5,
                        c.opportunity, *map(truediv, _APPROACHES_OF(approaches), _THREES),
                        c.attacks_taken / 3, friendly.get(cid, 0) / 6, hostile.get(cid, 0) / 6,
                        (bonds.get(frozenset((cid, acting)), 0) if acting else 0) / 6,
                        sum(map(_BONUS, c.assists)) / 6]
            if status == ACTIVE:
                ones.append(r + 3)
            elif status == "fallen":
                ones.append(r + 4)
            elif status in ("fled", "yielded"):
                ones.append(r + 5)
            known = known_plans[cid]
            if known is not None:
                ones.append(plan_at + CATEGORIES.index(known))
            if c.acted:
                ones.append(r + tail)
            if c.standing:
                ones.append(r + tail + 1)
            if c.targeted:
                ones.append(r + tail + 2)
            if c.concentration_broken:
                ones.append(r + tail + 3)
            if cid == acting:
                ones.append(r + tail + 5)
            if holder == cid:
                ones.append(r + tail + 9)
            if c.plan is None and c.side == agent:
                ones.append(r + tail + 11)
        for at, value in zip(numbers_at, numbers, strict=False):  # a few: one by one
            out[at] = value
        out[seating.fixed] = float32s(numbers[len(numbers_at):])
        out[ones] = 1.0
        np.minimum(out, 1.0, out=out)  # as np.clip(out, 0, 1), in two cheaper calls
        np.maximum(out, 0.0, out=out)
        return out


@dataclass(frozen=True)
class _Seating:
    """One observer's facts for a game: the characters in its numbering (``order``, ``slot``:
    its index of every character, ``own``: of its own side's), its observation template, and
    the positions :meth:`ConflictCodec.observe` writes for each character (``fixed``: the
    numbers, in order; ``flags``: each row's start; ``plans``: where its plan one-hot starts)."""

    order: list[str]
    slot: dict[str, int]
    own: dict[str, int]
    template: np.ndarray
    fixed: np.ndarray
    flags: list[int]
    plans: list[int]
