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

Observation (``float32`` in [0, 1]): the round, phase, category, question kind, objective (kind,
whether it is the observer's, progress, where), the item (on the ground where, held by own or
enemy) and one row per character: side (own / enemy), hero, status, height, Blood, Guts and
their maxima, Approaches, 18 skills, items, reach, spell uses, the plan (own characters always;
enemies' only once known), acted / standing / targeted / concentration, whether it is the
character deciding now, the Advantages on it for and against the observer, its Bond with the
character deciding, whether it carries the item. Enemy plans not yet revealed are absent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from factionsim.rules.conflict import turn as T
from factionsim.rules.conflict.actions import (
    Accept,
    Advantage,
    Assist,
    Cast,
    Dash,
    Harm,
    Hold,
    Parley,
    Plan,
    Proceed,
    Remove,
    Replan,
    Reroll,
    Ritual,
    Stand,
    TieChoice,
    Trick,
)
from factionsim.rules.conflict.model import APPROACHES, CATEGORIES, SKILLS

from .codec import Codec, EncodingError

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
        self.offset: dict[str, int] = {}
        pos = 0
        for name, n in sizes:
            self.offset[name] = pos
            pos += n
        self.per_slot = pos
        self.n_actions = self.per_slot * self.k
        self.global_size = 1 + len(PHASES) + len(CATEGORIES) + 2 + len(OBJECTIVES) + 4 + 3
        self.row = 19 + len(APPROACHES) + len(SKILLS) + len(CATEGORIES) + 14
        self.obs_size = self.global_size + self.row * self.n_chars

    # ------------------------------------------------------------------ numbering
    def order(self, state: Any, agent: str) -> list[str]:
        own = list(state.factions[agent].characters)
        return own + [c for sid, s in state.factions.items() if sid != agent for c in s.characters]

    # ------------------------------------------------------------------ actions
    def encode_actions(self, state: Any, actor: str, legal: list[Any]) -> list[int]:
        order = self.order(state, actor)
        slot = {cid: i for i, cid in enumerate(order)}
        own = {cid: i for i, cid in enumerate(state.factions[actor].characters)}
        enemy_advs = [a["id"] for a in state.advantages if a["side"] != actor]
        out = []
        for a in legal:
            if isinstance(a, Proceed):  # a side's decision: the first slot's entry
                out.append(self.offset["proceed"])
                continue
            base = own[a.char] * self.per_slot
            out.append(base + self._index(state, a, slot, enemy_advs))
        if len(set(out)) != len(out):
            raise EncodingError("two legal actions share an index (an encoding bug)")
        return out

    def _index(self, state: Any, a: Any, slot: dict[str, int], advs: list[str]) -> int:
        o = self.offset
        c = state.chars[a.char]
        if isinstance(a, Plan):
            return o["plan"] + CATEGORIES.index(a.category)
        if isinstance(a, Replan):
            return o["replan"] + CATEGORIES.index(a.category)
        if isinstance(a, Hold):
            return o["hold"] + a.shift + self.fm
        if isinstance(a, Stand):
            return o["stand"] + a.shift + self.fm
        if isinstance(a, Harm):
            return o["harm"] + slot[a.target] * 18 + SKILLS.index(a.skill)
        if isinstance(a, Advantage):
            return o["advantage"] + slot[a.target] * 18 + SKILLS.index(a.skill)
        if isinstance(a, Trick):
            k = 0 if a.trick == "impair" else 1 + sorted(c.tricks).index(a.trick)
            if k > self.limits.tricks:
                raise EncodingError(f"{c.id} has more tricks than Limits.tricks={self.limits.tricks}")
            return o["trick"] + slot[a.target] * (1 + self.limits.tricks) + k
        if isinstance(a, Assist):
            return o["assist"] + slot[a.ally]
        if isinstance(a, Remove):
            i = advs.index(a.advantage)
            if i >= self.limits.advantages:
                raise EncodingError(f"more than {self.limits.advantages} enemy Advantages; raise "
                                    "Limits.advantages")
            return o["remove"] + i
        if isinstance(a, Ritual):
            return o["ritual"]
        if isinstance(a, Parley):
            return o["parley"] + slot[a.target]
        if isinstance(a, Cast):
            k = [sp.id for sp in c.spells].index(a.spell)
            if k >= self.limits.spells:
                raise EncodingError(f"{c.id} has more spells than Limits.spells={self.limits.spells}")
            return o["cast"] + k * self.n_chars + slot[a.target]
        if isinstance(a, Dash):
            d = max(-self.dmax, min(self.dmax, a.shift))
            return o["dash"] + (d + self.dmax) * 3 + MODES.index(a.mode)
        if isinstance(a, TieChoice):
            return o["tie"] + (0 if a.choice == "succeed" else 1)
        if isinstance(a, Reroll):
            return o["reroll"] + slot[a.partner]
        if isinstance(a, Accept):
            return o["accept"]
        raise EncodingError(f"no catalogue entry for {a!r}")

    # ------------------------------------------------------------------ observation
    def observe(self, state: Any, agent: str, out: np.ndarray) -> np.ndarray:
        out[:] = 0.0
        g = 0
        out[g] = min(1.0, state.turn / max(1, state.max_turns or 20))
        g += 1
        if state.phase in PHASES:
            out[g + PHASES.index(state.phase if state.question is None else "question")] = 1
        g += len(PHASES)
        if state.phase in ("act", "replan"):
            out[g + state.category % len(CATEGORIES)] = 1
        g += len(CATEGORIES)
        if state.question is not None:
            out[g + (0 if state.question["kind"] == "tie" else 1)] = 1
        g += 2
        obj, item = state.objective, state.item
        if obj is not None:
            out[g + OBJECTIVES.index(obj["type"])] = 1
            out[g + 3] = float(obj["side"] == agent)
            if obj["type"] == "ritual":
                out[g + 4] = min(1.0, obj.get("progress", 0) / max(1, obj["needed"]))
                out[g + 5] = obj["at"] / self.length
            elif obj["type"] == "carry":
                out[g + 5] = obj["to"] / self.length
            else:
                out[g + 4] = min(1.0, state.turn / max(1, obj["rounds"]))
            out[g + 6] = float(state.winner == agent)
        g += len(OBJECTIVES) + 4
        if item is not None:
            holder = item.get("holder")
            if holder is None:
                out[g] = item.get("position", 0) / self.length
            else:
                out[g + (1 if state.chars[holder].side == agent else 2)] = 1
        g += 3
        view = state.view(agent)
        acting = state.current if state.phase == "act" else (
            state.question["char"] if state.question else None)
        for i, cid in enumerate(self.order(state, agent)):
            self._row(state, view, agent, state.chars[cid], acting, out,
                      self.global_size + i * self.row)
        np.clip(out, 0.0, 1.0, out=out)
        return out

    def _row(self, state: Any, view: Any, agent: str, c: Any, acting: str | None, out: np.ndarray,
             r: int) -> None:
        out[r] = 1.0
        out[r + 1] = float(c.side == agent)
        out[r + 2] = float(c.hero)
        out[r + 3] = float(c.active)
        out[r + 4] = float(c.status == "fallen")
        out[r + 5] = float(c.status in ("fled", "yielded"))
        out[r + 6] = c.position / self.length
        out[r + 7] = c.blood / max(1, c.max_blood)
        out[r + 8] = c.guts / max(1, c.max_guts)
        out[r + 9] = c.max_blood / 20
        out[r + 10] = c.max_guts / 20
        out[r + 11] = float(c.weapon is not None)
        out[r + 12] = (c.weapon or 0) / 3
        out[r + 13] = c.armor / 3
        out[r + 14] = c.talisman / 3
        out[r + 15] = c.ward / 3
        out[r + 16] = (c.reach if c.reach is not None else state.settings["reach"]) / 10
        out[r + 17] = sum(sp.uses for sp in c.spells) / 5
        out[r + 18] = c.opportunity
        k = r + 19
        for a in APPROACHES:
            out[k] = c.approaches[a] / 3
            k += 1
        for s in SKILLS:
            out[k] = c.rank(s) / 3
            k += 1
        plan = view.known_plan(c.id)
        if plan is not None:
            out[k + CATEGORIES.index(plan)] = 1
        k += len(CATEGORIES)
        friendly = sum(a["bonus"] for a in state.advantages if a["side"] == agent and c.id in a["targets"])
        hostile = sum(a["bonus"] for a in state.advantages if a["side"] != agent and c.id in a["targets"])
        bond = T.bond_steps(state, c.id, acting) if acting else 0
        holder = state.item.get("holder") if state.item else None
        vals = [float(c.acted), float(c.standing), float(c.targeted), float(c.concentration_broken),
                c.attacks_taken / 3, float(c.id == acting), friendly / 6, hostile / 6, bond / 6,
                float(holder == c.id), sum(b for _, b in c.assists) / 6,
                float(c.side == agent and c.plan is None), float(bool(c.vulnerable)),
                float(bool(c.tricks))]
        out[k:k + len(vals)] = vals
