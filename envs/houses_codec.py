"""The Great Houses codec: a House's view as a fixed-size float32 vector, its legal actions as
indices of one flat catalogue.

Houses are seen *relative to the observer*: seat 0 is the observer itself, seat ``k`` the House
``k`` places after it in scenario order; actions name Houses by the same seats, and assets by
``(owner seat, slot)`` where the slot is the asset's position in its owner's asset list (also
its row in the observation). ``F`` = Houses, ``A`` = ``Limits.assets`` asset slots per House.

==================  ==================  ===============================================
block               size                text form
==================  ==================  ===============================================
choose              9                   ``action <kind>`` (ACTION_KINDS order)
target              F                   ``target <seat>``
trait               12 + 2 + F+1 + F*A  ``trait <skill | stress | trauma |
                                        complication:<seat or hitch> | asset (seat, slot)>``
distinction         5 x 2               ``distinction <k-th> [d4]``
attribute / skill   3 / 12
commit              A                   ``commit <own slot>``
roll, plot, keep    1 each              ``roll``, ``plot point``, ``keep``
sacrifice           12 + A              ``sacrifice <skill | own slot>``
accept              1
advance             A + A + 3 + 12 + A + 9  signature, step-signature, sfx, step skill, step
                                        asset, attribute up x down
done                1
both, oppose        1 each              ``plot point both``, ``oppose``
==================  ==================  ===============================================

Observation (all in [0, 1]): the decision point (phase, whether the observer decides, the
action kind, its target seat, the free recovery flag, the two rolls' totals and effect dice, the
incoming harm), then per seat: alive, Stress, Trauma, Plot Points, advances, score, Attributes,
Skills (current and full), Distinction dice, Complications (count, largest, from the observer),
SFX; then per seat and slot: present, die, full, kind, duration, committed to the pool now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from factionsim.core.game import Action
from factionsim.rules.houses import turn
from factionsim.rules.houses.actions import (
    ACTION_KINDS,
    Accept,
    Advance,
    ChooseAction,
    Commit,
    Done,
    InflictBoth,
    Keep,
    Oppose,
    PickAttribute,
    PickDistinction,
    PickSkill,
    RollPool,
    Sacrifice,
    SpendPlotPoint,
    Target,
    Trait,
)
from factionsim.rules.houses.model import ASSET_KINDS, ATTRIBUTES, DURATIONS, SFX, SKILLS

from .codec import Codec, EncodingError

MAX_HOUSES = 8
MAX_DISTINCTIONS = 5
PHASES = turn.PHASES
_SKILL = {s: i for i, s in enumerate(SKILLS)}
_ATTR = {a: i for i, a in enumerate(ATTRIBUTES)}
_SFX = {s: i for i, s in enumerate(SFX)}
_KIND = {k: i for i, k in enumerate(ACTION_KINDS)}


@dataclass(frozen=True)
class Limits:
    """Maxima that size the spaces (``make_env(ruleset="houses", assets=48)``)."""

    assets: int = 32  # asset slots per House


class HousesCodec(Codec):
    Limits = Limits

    def __init__(self, state: Any, limits: Limits | None = None):
        self.limits = limits or Limits()
        self.houses = list(state.houses)
        self.F = F = len(self.houses)
        if F > MAX_HOUSES:
            raise EncodingError(f"scenario has {F} Houses; the codec handles at most {MAX_HOUSES}")
        for h in state.houses.values():
            if len(h.distinctions) > MAX_DISTINCTIONS:
                raise EncodingError(f"House {h.id} has more than {MAX_DISTINCTIONS} Distinctions")
            self._check_assets(state, h.id)
        self.index = {h: i for i, h in enumerate(self.houses)}
        A = self.limits.assets
        sizes = [("choose", len(ACTION_KINDS)), ("target", F),
                 ("trait", len(SKILLS) + 2 + F + 1 + F * A),
                 ("distinction", MAX_DISTINCTIONS * 2), ("attribute", 3), ("skill", len(SKILLS)),
                 ("commit", A), ("roll", 1), ("plot", 1), ("keep", 1),
                 ("sacrifice", len(SKILLS) + A), ("accept", 1),
                 ("signature", A), ("step-signature", A), ("sfx", len(SFX)),
                 ("step", len(SKILLS) + A), ("attribute-adv", 9), ("done", 1), ("both", 1),
                 ("oppose", 1)]
        self.offset: dict[str, int] = {}
        n = 0
        for name, size in sizes:
            self.offset[name] = n
            n += size
        self.n_actions = n
        self._seat_size = 6 + 3 + 2 * len(SKILLS) + MAX_DISTINCTIONS + 3 + len(SFX)
        self._slot_size = 3 + len(ASSET_KINDS) + len(DURATIONS) + 1
        self._head = len(PHASES) + 1 + 1 + len(ACTION_KINDS) + F + 1 + 4 + 2 + 1
        self.obs_size = self._head + F * self._seat_size + F * A * self._slot_size

    def _check_assets(self, state: Any, hid: str) -> None:
        n = sum(a.owner == hid for a in state.assets.values())
        if n > self.limits.assets:
            raise EncodingError(f"House {hid} has {n} assets; the codec's assets limit is "
                                f"{self.limits.assets} (pass assets=... to make_env)")

    # ------------------------------------------------------------------ seats and slots
    def seat(self, observer: str, hid: str) -> int:
        return (self.index[hid] - self.index[observer]) % self.F

    def slot(self, state: Any, asset_id: str) -> tuple[int, int]:
        a = state.assets[asset_id]
        mine = state.asset_ids(a.owner)
        j = mine.index(asset_id)
        if j >= self.limits.assets:
            raise EncodingError(f"House {a.owner} has more than {self.limits.assets} assets "
                                "(pass assets=... to make_env)")
        return a.owner, j

    # ------------------------------------------------------------------ actions
    def encode_actions(self, state: Any, actor: str, legal: list[Action]) -> list[int]:
        return [self.encode(state, actor, a) for a in legal]

    def encode(self, state: Any, actor: str, a: Action) -> int:
        o, A, F = self.offset, self.limits.assets, self.F
        if isinstance(a, ChooseAction):
            return o["choose"] + _KIND[a.kind]
        if isinstance(a, Target):
            return o["target"] + self.seat(actor, a.house)
        if isinstance(a, Trait):
            t = a.trait
            base = o["trait"]
            if t in _SKILL:
                return base + _SKILL[t]
            if t in ("stress", "trauma"):
                return base + len(SKILLS) + (t == "trauma")
            if t.startswith("complication:"):
                src = t.split(":", 1)[1]
                k = F if src == "hitch" else self.seat(actor, src)
                return base + len(SKILLS) + 2 + k
            owner, j = self.slot(state, t)
            return base + len(SKILLS) + 2 + F + 1 + self.seat(actor, owner) * A + j
        if isinstance(a, PickDistinction):
            k = next(i for i, d in enumerate(state.houses[actor].distinctions)
                     if d["id"] == a.distinction)
            return o["distinction"] + 2 * k + a.hinder
        if isinstance(a, PickAttribute):
            return o["attribute"] + _ATTR[a.attribute]
        if isinstance(a, PickSkill):
            return o["skill"] + _SKILL[a.skill]
        if isinstance(a, Commit):
            return o["commit"] + self.slot(state, a.asset)[1]
        if isinstance(a, RollPool):
            return o["roll"]
        if isinstance(a, SpendPlotPoint):
            return o["plot"]
        if isinstance(a, Keep):
            return o["keep"]
        if isinstance(a, Sacrifice):
            if a.trait in _SKILL:
                return o["sacrifice"] + _SKILL[a.trait]
            return o["sacrifice"] + len(SKILLS) + self.slot(state, a.trait)[1]
        if isinstance(a, Accept):
            return o["accept"]
        if isinstance(a, Done):
            return o["done"]
        if isinstance(a, InflictBoth):
            return o["both"]
        if isinstance(a, Oppose):
            return o["oppose"]
        if isinstance(a, Advance):
            if a.option in ("signature", "step-signature"):
                return o[a.option] + self.slot(state, a.trait)[1]
            if a.option == "sfx":
                return o["sfx"] + _SFX[a.trait]
            if a.option == "step":
                if a.trait in _SKILL:
                    return o["step"] + _SKILL[a.trait]
                return o["step"] + len(SKILLS) + self.slot(state, a.trait)[1]
            if a.option == "attribute":
                return o["attribute-adv"] + 3 * _ATTR[a.trait] + _ATTR[a.other]
        raise EncodingError(f"the houses codec cannot encode {a!r}")

    # ------------------------------------------------------------------ observation
    def observe(self, state: Any, agent: str, out: np.ndarray) -> np.ndarray:
        """Fill ``out`` (and return it) with what ``agent`` sees."""
        out[:] = 0.0
        F, A = self.F, self.limits.assets
        ctx = state.ctx
        i = 0
        if state.phase in PHASES:
            out[PHASES.index(state.phase)] = 1
        else:
            out[len(PHASES)] = 1
        i = len(PHASES) + 1
        out[i] = float(state.actor == agent)
        i += 1
        if ctx.get("kind") in _KIND:
            out[i + _KIND[ctx["kind"]]] = 1
        i += len(ACTION_KINDS)
        if ctx.get("target") in self.index:
            out[i + self.seat(agent, ctx["target"])] = 1
        i += F
        out[i] = float(bool(ctx.get("free")))
        i += 1
        rolls = ctx.get("rolls") or {}
        for key in ("actor", "opposition"):
            r = rolls.get(key)
            if r:
                out[i] = min(1.0, r["total"] / 36)
                out[i + 1] = r["effect"] / 12
            i += 2
        harm = ctx.get("harm")
        if harm:
            out[i] = harm["effect"] / 12
            out[i + 1] = float(harm["kind"] == "trauma")
        i += 2
        out[i] = min(1.0, state.round / 5)
        i += 1
        scores = state.scores()
        cap = max(1, state.rules["plot_point_cap"])
        pool = ctx.get("pool") or {}
        committed = set(pool.get("committed", ()))
        for hid in self.houses:
            k = self.seat(agent, hid)
            h = state.houses[hid]
            j = self._head + k * self._seat_size
            out[j:j + 6] = (float(h.alive), h.stress / 12, h.trauma / 12,
                            min(1.0, h.plot_points / cap), min(1.0, h.advances / 10),
                            min(1.0, scores[hid] / 60))
            j += 6
            for a in ATTRIBUTES:
                out[j] = h.attributes[a] / 12
                j += 1
            for s in SKILLS:
                out[j] = h.skills[s] / 12
                out[j + 1] = h.skills_full[s] / 12
                j += 2
            for d in h.distinctions[:MAX_DISTINCTIONS]:
                out[j] = d["die"] / 12
                j += 1
            j += MAX_DISTINCTIONS - min(MAX_DISTINCTIONS, len(h.distinctions))
            out[j] = min(1.0, len(h.complications) / 5)
            out[j + 1] = max((c["die"] for c in h.complications), default=0) / 12
            out[j + 2] = float(any(c["from"] == agent for c in h.complications))
            j += 3
            for sfx in h.sfx:
                out[j + _SFX[sfx]] = 1
            base = self._head + F * self._seat_size + k * A * self._slot_size
            for n, a in enumerate(state.assets_of(hid)):
                if n >= A:
                    raise EncodingError(f"House {hid} has more than {A} assets "
                                        "(pass assets=... to make_env)")
                j = base + n * self._slot_size
                out[j:j + 3] = (1.0, a.die / 12, a.full / 12)
                out[j + 3 + ASSET_KINDS.index(a.kind)] = 1
                out[j + 3 + len(ASSET_KINDS) + DURATIONS.index(a.duration)] = 1
                out[j + 3 + len(ASSET_KINDS) + len(DURATIONS)] = float(a.id in committed)
        return out
