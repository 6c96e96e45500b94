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

Observation (all in [0, 1]), its pieces (:class:`~factionsim.envs.codec.Layout`) in order:

=============  =========  ===================================================================
piece          rows       each row
=============  =========  ===================================================================
phase          1          the decision phase (one-hot; last: a phase the codec does not know)
deciding       1          whether the observer decides now
action_kind    1          the action being taken (one-hot, ACTION_KINDS order)
target         1          its target House (one-hot by seat)
free           1          the free recovery flag
rolls          1          the acting and opposing rolls: total, effect die
harm           1          the incoming harm: effect die, whether it is Trauma
round          1          the round (round / 5, at most 1)
houses         F          per seat: alive (the row's flag: a collapsed House is out of the
                          game), Stress, Trauma, Plot Points, advances, score, Attributes,
                          Skills (current and full), Distinction dice, Complications (count,
                          largest, whether from the observer), SFX
assets@k       A          House ``k``'s asset slots (``assets@0``: the observer's): present,
                          die, full die, kind, duration, committed to the pool now
=============  =========  ===================================================================
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

import numpy as np

from factionsim.core.game import Action
from factionsim.rules.houses import actions as acts
from factionsim.rules.houses import turn
from factionsim.rules.houses.model import ASSET_KINDS, ATTRIBUTES, DURATIONS, SFX, SKILLS, WRITES

from .codec import Codec, EncodingError, Layout, action_offsets, float32s, grow_bank

MAX_HOUSES = 8
MAX_DISTINCTIONS = 5
PHASES = turn.PHASES
_SKILL = {s: i for i, s in enumerate(SKILLS)}
_ATTR = {a: i for i, a in enumerate(ATTRIBUTES)}
_SFX = {s: i for i, s in enumerate(SFX)}
_KIND = {k: i for i, k in enumerate(acts.ACTION_KINDS)}
_ATTRIBUTES_OF = operator.itemgetter(*ATTRIBUTES)
_SKILLS_OF = operator.itemgetter(*SKILLS)
_DIE = operator.itemgetter("die")
_FROM = operator.itemgetter("from")
_RESERVES = operator.attrgetter("plot_points", "advances")
#: The actions that take one index each: action class -> its block of the catalogue
_ONE_INDEX = {acts.RollPool: "roll", acts.SpendPlotPoint: "plot", acts.Keep: "keep",
              acts.Accept: "accept", acts.Done: "done", acts.InflictBoth: "both",
              acts.Oppose: "oppose"}
#: Most distinct House rows the observation keeps encoded
_SEAT_ROWS = 16384


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
        sizes = [("choose", len(acts.ACTION_KINDS)), ("target", F),
                 ("trait", len(SKILLS) + 2 + F + 1 + F * A),
                 ("distinction", MAX_DISTINCTIONS * 2), ("attribute", 3), ("skill", len(SKILLS)),
                 ("commit", A), ("roll", 1), ("plot", 1), ("keep", 1),
                 ("sacrifice", len(SKILLS) + A), ("accept", 1),
                 ("signature", A), ("step-signature", A), ("sfx", len(SFX)),
                 ("step", len(SKILLS) + A), ("attribute-adv", 9), ("done", 1), ("both", 1),
                 ("oppose", 1)]
        self.offset, self.n_actions = action_offsets(sizes)
        self._seat_size = 6 + 3 + 2 * len(SKILLS) + MAX_DISTINCTIONS + 3 + len(SFX)
        self._slot_size = 3 + len(ASSET_KINDS) + len(DURATIONS) + 1
        self.layout = Layout([
            ("phase", 1, len(PHASES) + 1), ("deciding", 1, 1), ("action_kind", 1, len(acts.ACTION_KINDS)),
            ("target", 1, F), ("free", 1, 1), ("rolls", 1, 4), ("harm", 1, 2), ("round", 1, 1),
            ("houses", F, self._seat_size),
            *((f"assets@{k}", A, self._slot_size) for k in range(F))])
        self._head = self.layout.start["houses"]
        #: where each seat's Plot Points and advances are in the House and asset rows that
        #: :meth:`observe` keeps (it writes them afresh when they change)
        self._reserves_at = np.asarray([k * self._seat_size + j for k in range(F) for j in (3, 4)],
                                       np.intp)
        # encoded asset rows, each distinct one built once; row 0 is an empty slot (all zeros)
        self._bank = np.zeros((64, self._slot_size), np.float32)
        self._seat_bank = np.zeros((min(256, _SEAT_ROWS), self._seat_size), np.float32)  # House rows
        self._seat_of: dict[tuple, int] = {}
        self._row_of: dict[tuple[int, int, str, str], int] = {}
        #: observer -> [its game's houses and assets, key, the House and asset rows it saw
        #: last, its Houses in seat order, where the committed flags go, the Plot Points and
        #: advances in those rows]: reused while no House or Asset changed
        #: (:data:`~factionsim.rules.houses.model.WRITES`)
        self._rows_seen: dict[str, list[Any]] = {}

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without the kept rows (keyed on this process's count of writes)."""
        d = dict(self.__dict__)
        d["_rows_seen"] = {}
        return d

    def _check_assets(self, state: Any, hid: str) -> None:
        n = sum(a.owner == hid for a in state.assets.values())
        if n > self.limits.assets:
            raise EncodingError(f"House {hid} has {n} assets; the codec's assets limit is "
                                f"{self.limits.assets} (pass assets=... to make_env)")

    # ------------------------------------------------------------------ seats and slots
    def seat(self, observer: str, hid: str) -> int:
        return (self.index[hid] - self.index[observer]) % self.F

    def slot(self, view: Any, asset_id: str) -> tuple[int, int]:
        a = view.assets[asset_id]
        j = view.owned_asset_ids()[a.owner].index(asset_id)
        if j >= self.limits.assets:
            raise EncodingError(f"House {a.owner} has more than {self.limits.assets} assets "
                                "(pass assets=... to make_env)")
        return a.owner, j

    # ------------------------------------------------------------------ actions
    def encode_actions(self, view: Any, legal: list[Action]) -> list[int]:
        actor = view.faction_id
        return [self.encode(view, actor, a) for a in legal]

    def encode(self, view: Any, actor: str, a: Action) -> int:
        o, A, F = self.offset, self.limits.assets, self.F
        t = type(a)  # the decisions random play meets most, first (the classes are exclusive)
        if t is acts.PickSkill:
            return o["skill"] + _SKILL[a.skill]
        if t is acts.PickDistinction:
            k = next(i for i, d in enumerate(view.houses[actor].distinctions)
                     if d["id"] == a.distinction)
            return o["distinction"] + 2 * k + a.hinder
        if t is acts.ChooseAction:
            return o["choose"] + _KIND[a.kind]
        if t is acts.Commit:
            return o["commit"] + self.slot(view, a.asset)[1]
        if t is acts.PickAttribute:
            return o["attribute"] + _ATTR[a.attribute]
        single = _ONE_INDEX.get(t)
        if single is not None:
            return o[single]
        if isinstance(a, acts.Target):
            return o["target"] + self.seat(actor, a.house)
        if isinstance(a, acts.Trait):
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
            owner, j = self.slot(view, t)
            return base + len(SKILLS) + 2 + F + 1 + self.seat(actor, owner) * A + j
        if isinstance(a, acts.Sacrifice):
            if a.trait in _SKILL:
                return o["sacrifice"] + _SKILL[a.trait]
            return o["sacrifice"] + len(SKILLS) + self.slot(view, a.trait)[1]
        if isinstance(a, acts.Advance):
            if a.option in ("signature", "step-signature"):
                return o[a.option] + self.slot(view, a.trait)[1]
            if a.option == "sfx":
                return o["sfx"] + _SFX[a.trait]
            if a.option == "step":
                if a.trait in _SKILL:
                    return o["step"] + _SKILL[a.trait]
                return o["step"] + len(SKILLS) + self.slot(view, a.trait)[1]
            if a.option == "attribute":
                return o["attribute-adv"] + 3 * _ATTR[a.trait] + _ATTR[a.other]
        raise EncodingError(f"the houses codec cannot encode {a!r}")

    # ------------------------------------------------------------------ observation
    def observe(self, view: Any, out: np.ndarray,
                scores: dict[str, float] | None = None) -> np.ndarray:
        """Fill ``out`` (and return it) with what ``agent`` sees: the decision point is gathered
        in one Python list and written with one numpy call; Houses' rows and asset rows are
        copied from banks of already-encoded rows (a House row per distinct set of its values,
        an asset row per distinct die, full die, kind, duration and pool membership), or, when
        no House or Asset has changed since this observer's last observation (the same count
        of :data:`~factionsim.rules.houses.model.WRITES`, scores, Plot Point cap and assets
        committed to the pool), copied whole from that observation."""
        agent = view.faction_id
        F = self.F
        ctx = view.decision
        head = [0.0] * self._head
        phase = view.phase
        head[PHASES.index(phase) if phase in PHASES else len(PHASES)] = 1.0
        i = len(PHASES) + 1
        head[i] = float(view.actor == agent)
        i += 1
        kind = ctx.get("kind")
        if kind in _KIND:
            head[i + _KIND[kind]] = 1.0
        i += len(acts.ACTION_KINDS)
        target = ctx.get("target")
        if target in self.index:
            head[i + self.seat(agent, target)] = 1.0
        i += F
        head[i] = float(bool(ctx.get("free")))
        i += 1
        rolls = ctx.get("rolls") or {}
        for key in ("actor", "opposition"):
            r = rolls.get(key)
            if r:
                head[i] = min(1.0, r["total"] / 36)
                head[i + 1] = r["effect"] / 12
            i += 2
        harm = ctx.get("harm")
        if harm:
            head[i] = harm["effect"] / 12
            head[i + 1] = float(harm["kind"] == "trauma")
        i += 2
        head[i] = min(1.0, view.round / 5)
        scores = view.scores() if scores is None else scores
        cap = max(1, view.rules["plot_point_cap"])
        pool = ctx.get("pool") or {}
        committed = pool.get("committed", ())
        out[:len(head)] = float32s(head)
        houses, assets = view.houses, view.assets
        key = (WRITES.count, cap, tuple(scores.values()))
        seen = self._rows_seen.get(agent)
        if seen is not None and seen[0] is houses and seen[1] is assets and seen[2] == key:
            rows, seated, flag_at = seen[3], seen[4], seen[5]
            # Plot Points and advances (left out of WRITES): read afresh, the rows kept updated
            reserves = tuple(map(_RESERVES, seated))
            if reserves != seen[6]:
                values = []
                for plot_points, advances in reserves:
                    values.append(min(1.0, plot_points / cap))
                    values.append(min(1.0, advances / 10))
                rows[self._reserves_at] = float32s(values)
                seen[6] = reserves
            out[self._head:] = rows
        else:
            seated = [houses[hid] for hid in self._seated(agent)]
            flag_at = self._rows(view, seated, out, scores, cap)
            self._rows_seen[agent] = [houses, assets, key, out[self._head:].copy(), seated,
                                      flag_at, tuple(map(_RESERVES, seated))]
        for aid in committed:  # (an asset no longer in play is not shown)
            at = flag_at.get(aid)
            if at is not None:
                out[at] = 1.0
        return out

    def _seated(self, agent: str) -> list[str]:
        """The Houses in ``agent``'s seat order (seat 0: ``agent`` itself)."""
        me = self.index[agent]
        return self.houses[me:] + self.houses[:me]

    def _rows(self, view: Any, seated: list[Any], out: np.ndarray, scores: dict[str, float],
              cap: int) -> dict[str, int]:
        """Write the House rows (``seated``: the Houses in seat order) and asset rows of an
        observation into ``out``, every asset shown as not committed; returns where each
        asset's "committed" flag is."""
        F, A = self.F, self.limits.assets
        agent = seated[0].id
        if len(self._seat_of) + F > len(self._seat_bank):
            self._seat_bank = grow_bank(self._seat_bank, self._seat_of, _SEAT_ROWS)
        seat_of = self._seat_of
        seat_rows = []
        for h in seated:
            complications = h.complications
            key = (h.alive, h.stress, h.trauma, h.plot_points, h.advances, scores[h.id], cap,
                   _ATTRIBUTES_OF(h.attributes), _SKILLS_OF(h.skills), _SKILLS_OF(h.skills_full),
                   tuple(map(_DIE, h.distinctions[:MAX_DISTINCTIONS])),
                   (len(complications), max(map(_DIE, complications)),
                    agent in map(_FROM, complications))
                   if complications else (0, 0, False),
                   tuple(h.sfx))
            b = seat_of.get(key)
            if b is None:
                b = self._seat_row(key)
            seat_rows.append(b)
        values_end = self._head + F * self._seat_size
        self._seat_bank.take(seat_rows, axis=0,
                             out=out[self._head:values_end].reshape(F, self._seat_size))
        # asset rows: slot n of seat k is row k * A + n of the assets block (bank row 0: empty)
        seat_index = {h.id: k for k, h in enumerate(seated)}
        filled = [0] * F
        bank_rows = [0] * (F * A)
        flag_at = {}
        flag = values_end + 3 + len(ASSET_KINDS) + len(DURATIONS)
        row_of = self._row_of
        if len(row_of) + 1 + len(view.assets) > len(self._bank):
            self._bank = np.concatenate([self._bank, np.zeros_like(self._bank)])
        for a in view.assets.values():
            k = seat_index[a.owner]
            n = filled[k]
            if n >= A:
                raise EncodingError(f"House {a.owner} has more than {A} assets "
                                    "(pass assets=... to make_env)")
            filled[k] = n + 1
            key = (a.die, a.full, a.kind, a.duration)
            b = row_of.get(key)
            if b is None:
                b = self._bank_row(key)
            bank_rows[k * A + n] = b
            flag_at[a.id] = flag + (k * A + n) * self._slot_size
        self._bank.take(bank_rows, axis=0,
                        out=out[values_end:].reshape(F * A, self._slot_size))
        return flag_at

    def _seat_row(self, key: tuple) -> int:
        """Encode one House's row (see :meth:`observe`'s key) into the seat bank."""
        (alive, stress, trauma, plot_points, advances, score, cap, attributes, skills, full,
         distinctions, (n_complications, largest, from_observer), sfx) = key
        flags = [0.0] * len(SFX)
        for name in sfx:
            flags[_SFX[name]] = 1.0
        b = len(self._seat_of)
        self._seat_bank[b] = [
            float(alive), stress / 12, trauma / 12, min(1.0, plot_points / cap),
            min(1.0, advances / 10), min(1.0, score / 60), *[a / 12 for a in attributes],
            *[v for s, f in zip(skills, full, strict=True) for v in (s / 12, f / 12)],
            *[d / 12 for d in distinctions], *[0.0] * (MAX_DISTINCTIONS - len(distinctions)),
            min(1.0, n_complications / 5), largest / 12, float(from_observer), *flags]
        self._seat_of[key] = b
        return b

    def _bank_row(self, key: tuple[int, int, str, str]) -> int:
        """Encode one asset row, not committed, into the bank (rows repeat: each distinct one is
        built once)."""
        die, full, kind, duration = key
        b = len(self._row_of) + 1  # (row 0: the empty slot)
        row = self._bank[b]
        row[:3] = (1.0, die / 12, full / 12)
        row[3 + ASSET_KINDS.index(kind)] = 1
        row[3 + len(ASSET_KINDS) + DURATIONS.index(duration)] = 1
        self._row_of[key] = b
        return b
