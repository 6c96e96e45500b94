"""The WWN codec: a faction's view as a fixed-size float32 vector, its legal actions as indices.

Everything is sized from the campaign (factions ``F``, locations ``L``) and a few documented
maxima (:class:`Limits`); a campaign or a game that exceeds them raises :class:`EncodingError`
naming the limit and the option that raises it.

Factions are seen *relative to the observer*: seat 0 is the observer itself, seat ``k`` the
faction ``k`` places after it in campaign order. The same relative seats are used by actions, so
one policy can play any faction.

Action catalogue (one flat ``Discrete(N)``; each block below is a contiguous range):

==================  ==========================  ==============================================
block               size                        text form
==================  ==========================  ==============================================
choose              8                           ``action <kind>`` (ACTION_KINDS order)
done                1                           ``done``
attack              A x F                       ``attack <own asset slot> -> <seat>``
defend              A                           ``defend with <own asset slot>``
move                A x L                       ``move <own asset slot> -> <location>``
repair              A                           ``repair <own asset slot>``
repair-faction      1                           ``repair faction``
expand              L                           ``expand at <location>``
base-hp             MAX_BASE_HP                 ``base hp <n>``
create              T x L                       ``create <asset type> at <location>``
hide / sell         A each                      ``hide`` / ``sell <own asset slot>``
use (asset)         A x K                       ``use <own asset slot> <k-th option>``
use (tag)           MAX_TAGS x K                ``use <k-th tag of the faction> <k-th option>``
bribe               K                           ``bribe`` (k-th offered amount)
goal                sum over goals of 1 + W(g)  ``goal <id> <target>``
keep goal           1                           ``keep goal``
raise               3                           ``raise <attribute>``
other               8 x K                       the k-th legal action of any other action type
==================  ==========================  ==============================================

``A`` = ``Limits.own_assets`` (the slot of an asset is its position in the acting faction's own
asset list, which is also its row in the observation), ``T`` = asset types, ``G`` = goal ids,
``K`` = ``Limits.options`` options per ability source (the ``k``-th legal ``use`` action of that
source, in legal-action order: new asset abilities need no codec change; options beyond ``K`` are
left out, see ``Limits.options_overflow``), ``W(g)`` = the targets of goal ``g``'s kind
(:data:`GOAL_TARGETS`: an attribute, a seat@location, a row of the other-assets table; slot 0 of
each goal is "no target"), the other
block holds up to ``MAX_OTHER_KINDS`` action classes of ``factionsim.rules.wwn.actions`` that
have no block of their own, by class name (new kinds of decisions such as ``decline``
land in the "other" block by ordinal); its last slot holds the ``use`` actions whose source is
neither an own asset nor a tag (a rival's asset). Phases unknown to the codec set the
observation's "other phase" flag.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from factionsim.core.game import Action, FactionsimError
from factionsim.rules.wwn import actions as wwn_actions
from factionsim.rules.wwn import flow, turn
from factionsim.rules.wwn.actions import (
    ACTION_KINDS,
    Attack,
    BaseHp,
    Bribe,
    ChooseAction,
    ChooseGoal,
    Create,
    Defend,
    Done,
    ExpandAt,
    Hide,
    KeepGoal,
    Move,
    RaiseRating,
    Repair,
    RepairFaction,
    Sell,
    UseAbility,
)
from factionsim.rules.wwn.data import ASSET_TYPES, ATTRIBUTES, HP_FROM_RATING, MAGIC_LEVELS
from factionsim.rules.wwn.goals import GOALS
from factionsim.rules.wwn.validate import TAGS

#: Hard maxima of the codec (a campaign beyond them is refused with a clear error).
MAX_FACTIONS = 8
MAX_LOCATIONS = 64
MAX_TAGS = 4
MAX_BASE_HP = 3 * HP_FROM_RATING[-1]
#: Slots for action classes that have no block of their own (``decline``...).
MAX_OTHER_KINDS = 8
#: Decision phases, in observation order (``react``: a rule asks mid-way, e.g. a reroll or a
#: rescue; what it asks shows in the legal actions).
PHASES = (turn.ABILITIES, turn.ACTION, turn.ATTACK, turn.DEFEND, turn.MOVE, turn.REPAIR,
          turn.EXPAND_WHERE, turn.EXPAND_HP, turn.RIVAL_ATTACK, turn.CREATE, turn.HIDE, turn.SELL,
          turn.GOAL, turn.RAISE, flow.REACT)
RELATIONS = ("self", "allied", "neutral", "hostile")
_TYPE_ATTRS = ("force", "cunning", "wealth", "base")


#: The kind of target each goal names (goals absent here take none); see ``goals.options``.
GOAL_TARGETS = {"eliminate-target": "asset", "root-out-the-enemy": "seat@location",
                "sphere-dominance": "attribute"}

_DEDICATED = (ChooseAction, Done, Attack, Defend, Move, Repair, RepairFaction, ExpandAt, BaseHp,
              Create, Hide, Sell, UseAbility, Bribe, ChooseGoal, KeepGoal, RaiseRating)


_FOREIGN_USE = "use-foreign"
#: Most distinct asset rows the observation keeps encoded (about 6 MB at 64 locations).
_BANK_ROWS = 8192


class EncodingError(FactionsimError, ValueError):
    """A campaign or game state beyond the codec's maxima, or an action it cannot encode."""


@dataclass(frozen=True)
class Limits:
    """Maxima that size the spaces (``make_env(..., own_assets=48)`` raises one)."""

    own_assets: int = 32  # assets of the observing / acting faction
    other_assets: int = 64  # visible assets of every other faction together
    options: int = 16  # options of one ability source (and of one "other" action class)
    #: beyond ``options`` options of one source: "drop" leaves the extra options out of the
    #: catalogue (index -1: still legal, never chosen by a policy; the mask is never empty),
    #: "error" raises :class:`EncodingError`
    options_overflow: str = "drop"


class WwnCodec:
    """Observation and action encoding of WWN states for one campaign's factions and map."""

    def __init__(self, state: Any, limits: Limits | None = None):
        self.limits = lim = limits or Limits()
        self.factions = list(state.factions)
        self.locations = list(state.map.locations)
        F, L = len(self.factions), len(self.locations)
        if F > MAX_FACTIONS:
            raise EncodingError(f"campaign has {F} factions; the WWN codec handles at most "
                                f"{MAX_FACTIONS}")
        if L > MAX_LOCATIONS:
            raise EncodingError(f"campaign has {L} locations; the WWN codec handles at most "
                                f"{MAX_LOCATIONS}")
        for f in state.factions.values():
            if len(f.tags) > MAX_TAGS:
                raise EncodingError(f"faction {f.id} has {len(f.tags)} tags; at most {MAX_TAGS}")
            n = sum(a.owner == f.id for a in state.assets.values())
            if n > lim.own_assets:
                raise EncodingError(f"faction {f.id} has {n} assets; the codec's own_assets limit "
                                    f"is {lim.own_assets} (pass own_assets=... to make_env)")
        self.F, self.L = F, L
        self.seat = {fid: i for i, fid in enumerate(self.factions)}
        self.loc = {lid: i for i, lid in enumerate(self.locations)}
        self.types = list(ASSET_TYPES)
        self.type_index = {t: i for i, t in enumerate(self.types)}
        self.goals = list(GOALS)
        self.goal_index = {g: i for i, g in enumerate(self.goals)}
        self._build_catalogue()
        self._build_observation_layout()
        self.action_space = spaces.Discrete(self.n_actions)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8),
        })

    # ------------------------------------------------------------------ action catalogue
    def _build_catalogue(self) -> None:
        A, F, L, K = self.limits.own_assets, self.F, self.L, self.limits.options
        # each goal gets one slot for "no target" plus room for its own kind of target only
        widths = {None: 0, "attribute": len(ATTRIBUTES), "seat@location": F * L,
                  "asset": self.limits.other_assets}
        self.goal_offset: dict[str, int] = {}
        goal_slots = 0
        for g in self.goals:
            self.goal_offset[g] = goal_slots
            goal_slots += 1 + widths[GOAL_TARGETS.get(g)]
        sizes = [("choose", len(ACTION_KINDS)), ("done", 1), ("attack", A * F), ("defend", A),
                 ("move", A * L), ("repair", A), ("repair-faction", 1), ("expand", L),
                 ("base-hp", MAX_BASE_HP), ("create", len(self.types) * L), ("hide", A),
                 ("sell", A), ("use-asset", A * K), ("use-tag", MAX_TAGS * K), ("bribe", K),
                 ("goal", goal_slots), ("keep-goal", 1), ("raise", 3)]
        self.offset: dict[str, int] = {}
        n = 0
        for name, size in sizes:
            self.offset[name] = n
            n += size
        # action classes without a block of their own, by name, in MAX_OTHER_KINDS fixed slots
        # (a new class does not change the size of the space)
        self.other_types = sorted(
            (c for c in vars(wwn_actions).values()
             if isinstance(c, type) and issubclass(c, Action) and c not in _DEDICATED
             and c is not Action),
            key=lambda c: c.__name__)[:MAX_OTHER_KINDS - 1]
        self.other_index: dict[Any, int] = {c: i for i, c in enumerate(self.other_types)}
        # the last slot: ``use`` of a source that is neither an own asset nor a tag (paying
        # off a rival's asset, answering its ability...)
        self.other_index[_FOREIGN_USE] = MAX_OTHER_KINDS - 1
        self.offset["other"] = n
        n += MAX_OTHER_KINDS * K
        self.n_actions = n

    def encode_actions(self, state: Any, actor: str, legal: list[Any]) -> list[int]:
        """Catalogue index of each legal action (distinct; :class:`EncodingError` otherwise;
        -1 for an ability option beyond ``Limits.options`` when ``options_overflow="drop"``)."""
        own = self._own_slots(state, actor)
        me = self.seat[actor]
        off, lim, F, L = self.offset, self.limits, self.F, self.L
        out: list[int] = []
        use_count: dict[str, int] = {}
        bribes = 0
        other_count: dict[Any, int] = {}
        other_rows: dict[str, int] | None = None
        for a in legal:
            t = type(a)
            if t is ChooseGoal:  # the most frequent: every goal step offers dozens
                if other_rows is None:
                    other_rows = {x.id: k for k, x in enumerate(self._others(state, actor))}
                i = off["goal"] + self.goal_offset[a.goal] + self._goal_target(a, me, other_rows)
            elif t is ChooseAction:
                i = off["choose"] + ACTION_KINDS.index(a.kind)
            elif t is Done:
                i = off["done"]
            elif t is Attack:
                i = off["attack"] + own[a.asset] * F + (self.seat[a.target] - me) % F
            elif t is Move:
                i = off["move"] + own[a.asset] * L + self.loc[a.destination]
            elif t is KeepGoal:
                i = off["keep-goal"]
            elif t is Defend:
                i = off["defend"] + own[a.asset]
            elif t is Repair:
                i = off["repair"] + own[a.asset]
            elif t is RepairFaction:
                i = off["repair-faction"]
            elif t is ExpandAt:
                i = off["expand"] + self.loc[a.location]
            elif t is BaseHp:
                if not 1 <= a.hp <= MAX_BASE_HP:
                    raise EncodingError(f"base hp {a.hp} beyond the codec's {MAX_BASE_HP}")
                i = off["base-hp"] + a.hp - 1
            elif t is Create:
                i = off["create"] + self.type_index[a.asset_type] * L + self.loc[a.location]
            elif t is Hide:
                i = off["hide"] + own[a.asset]
            elif t is Sell:
                i = off["sell"] + own[a.asset]
            elif t is UseAbility:
                k = use_count.get(a.source, 0)
                use_count[a.source] = k + 1
                if k >= lim.options:
                    if lim.options_overflow == "drop":
                        out.append(-1)
                        continue
                    raise EncodingError(f"ability source {a.source} offers more than "
                                        f"{lim.options} options (pass options=... to make_env)")
                tags = state.factions[actor].tags
                if a.source in own:
                    i = off["use-asset"] + own[a.source] * lim.options + k
                elif a.source in tags:
                    i = off["use-tag"] + tags.index(a.source) * lim.options + k
                else:
                    i = self._other(a, other_count, _FOREIGN_USE)
            elif t is Bribe:
                if bribes >= lim.options:
                    raise EncodingError("too many bribe amounts offered")
                i = off["bribe"] + bribes
                bribes += 1
            elif t is RaiseRating:
                i = off["raise"] + ATTRIBUTES.index(a.attribute)
            else:
                i = self._other(a, other_count)
            out.append(i)
        kept = [i for i in out if i >= 0]
        if not kept and out:
            raise EncodingError(f"no legal action of {actor} can be encoded")
        if len(set(kept)) != len(kept):
            raise EncodingError(f"two legal actions share a catalogue index: "
                                f"{[str(a) for a in legal]}")
        return out

    def _other(self, a: Any, counts: dict[Any, int], kind: Any = None) -> int:
        """Generic slot: the k-th legal action of its class (any class of the actions module)."""
        t = kind or type(a)
        if t not in self.other_index:
            raise EncodingError(f"the WWN codec cannot encode {a} ({type(a).__name__}): not an "
                                "action class of factionsim.rules.wwn.actions")
        k = counts.get(t, 0)
        counts[t] = k + 1
        if k >= self.limits.options:
            if self.limits.options_overflow == "drop":
                return -1
            raise EncodingError(f"more than {self.limits.options} legal {a} actions of one kind "
                                "(pass options=... to make_env)")
        return self.offset["other"] + self.other_index[t] * self.limits.options + k

    def _goal_target(self, a: ChooseGoal, me: int, other_rows: dict[str, int]) -> int:
        """Slot of a goal's target within the goal's range (0: no target)."""
        target = a.target
        if target == "":
            return 0
        kind = GOAL_TARGETS.get(a.goal)
        if kind == "attribute" and target in ATTRIBUTES:
            return 1 + ATTRIBUTES.index(target)
        if kind == "seat@location":
            fid, _, lid = target.partition("@")
            if fid in self.seat and lid in self.loc:
                return 1 + ((self.seat[fid] - me) % self.F) * self.L + self.loc[lid]
        if kind == "asset" and target in other_rows:
            return 1 + other_rows[target]
        raise EncodingError(f"goal {a.goal} target {target!r} cannot be encoded (the codec "
                            f"expects {kind or 'no target'} for it: GOAL_TARGETS)")

    def _own_slots(self, state: Any, actor: str) -> dict[str, int]:
        own = [a.id for a in state.assets.values() if a.owner == actor]
        if len(own) > self.limits.own_assets:
            raise EncodingError(f"faction {actor} has {len(own)} assets; the codec's own_assets "
                                f"limit is {self.limits.own_assets} "
                                "(pass own_assets=... to make_env)")
        return {aid: i for i, aid in enumerate(own)}

    def _others(self, state: Any, agent: str) -> list[Any]:
        rows = [a for a in state.assets.values() if a.owner != agent and not a.stealth]
        if len(rows) > self.limits.other_assets:
            raise EncodingError(f"{agent} sees {len(rows)} assets of other factions; the codec's "
                                f"other_assets limit is {self.limits.other_assets} "
                                f"(pass other_assets=... to make_env)")
        return rows

    def render_faction(self, state: Any, faction: str) -> str:
        f = state.factions[faction]
        return f"hp {f.hp}/{f.max_hp} treasure {f.treasure} xp {f.xp}"

    # ------------------------------------------------------------------ observation
    def _build_observation_layout(self) -> None:
        F, L, P = self.F, self.L, len(PHASES) + 1
        # global: phase one-hot, deciding in own turn, turn progress, seat whose turn (relative),
        # expand location, pending attacker's location and seat
        self.g_size = P + 2 + F + L + L + F
        # own sheet: ratings, treasure, hp, max hp, xp, magic, paralysed, tags, goal, progress
        self.own_size = 3 + 1 + 1 + 1 + 1 + 1 + 1 + len(TAGS) + len(self.goals) + 1 + 1
        # every faction (relative seat): alive, ratings, hp frac, max hp, relation, xp earned, score
        self.fac_row = 1 + 3 + 1 + 1 + len(RELATIONS) + 1 + 1
        # locations: ruler seat (+none), coastal, Base per seat, own assets, other assets
        self.loc_row = F + 1 + 1 + F + 1 + 1
        # assets: present, owner relation, owner seat, type stats, location, hp, flags
        self.type_feat = _type_features(self.types)
        self.asset_row = 1 + len(RELATIONS) + F + self.type_feat.shape[1] + L + 2 + 4
        # encoded asset rows: at least room for one full observation
        self._bank = np.zeros((2 * (self.limits.own_assets + self.limits.other_assets),
                               self.asset_row), np.float32)
        self._row_of: dict[tuple, int] = {}  # asset row key -> bank row
        sizes = [self.g_size, self.own_size, F * self.fac_row, L * self.loc_row,
                 (self.limits.own_assets + self.limits.other_assets) * self.asset_row]
        self.obs_size = int(sum(sizes))
        starts = np.cumsum([0, *sizes])
        self._slices = [slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:], strict=True)]

    def observe(self, state: Any, agent: str, out: np.ndarray) -> np.ndarray:
        """Write ``agent``'s observation into ``out`` (float32, zeroed here) and return it.

        Positions and values are gathered in Python lists and written with one numpy call.
        """
        out[:] = 0.0
        F, L = self.F, self.L
        g0, own0, fac0, loc0, ast0 = (s.start for s in self._slices)
        me = self.seat[agent]
        seat = self.seat
        locs = self.loc
        factions = state.factions
        relations = state.relations
        f = factions[agent]
        ctx = state.ctx
        ix: list[int] = []
        vs: list[float] = []
        put_i, put_v = ix.append, vs.append
        # global: the decision point
        phase = state.phase
        put_i(g0 + (PHASES.index(phase) if phase in PHASES else len(PHASES)))
        put_v(1.0)
        p = g0 + len(PHASES) + 1
        if state.order and state.order_index < len(state.order):
            turn_of = state.order[state.order_index]
            ix += [p, p + 2 + (seat[turn_of] - me) % F]
            vs += [float(turn_of == agent), 1.0]
        if state.max_turns:
            put_i(p + 1)
            put_v(min(1.0, state.turn / state.max_turns))
        base = p + 2 + F
        if ctx.get("expand") in locs:
            put_i(base + locs[ctx["expand"]])
            put_v(1.0)
        pending = ctx.get("pending")
        attacker = pending.get("attacker") if isinstance(pending, dict) else None
        if attacker in state.assets:
            atk = state.assets[attacker]
            ix += [base + L + locs[atk.location], base + 2 * L + (seat[atk.owner] - me) % F]
            vs += [1.0, 1.0]
        # own sheet
        max_hp = f.max_hp
        ix += range(own0, own0 + 9)
        vs += [f.force / 8, f.cunning / 8, f.wealth / 8, min(f.treasure, 40) / 40,
               f.hp / max_hp if max_hp else 0.0, max_hp / MAX_BASE_HP, min(f.xp, 20) / 20,
               MAGIC_LEVELS.index(f.magic) / 3, float(f.paralysed)]
        for tag in f.tags:
            put_i(own0 + 9 + TAGS.index(tag))
            put_v(1.0)
        k = own0 + 9 + len(TAGS)
        goal = f.goal
        if goal is not None and goal.id in self.goal_index:
            ix += [k + self.goal_index[goal.id], k + len(self.goals)]
            vs += [1.0, min(1.0, goal.progress / goal.needed) if goal.needed else 0.0]
        put_i(k + len(self.goals) + 1)
        put_v(min(f.xp_earned, 20) / 20)
        # factions (relative seats)
        scores = state.scores()
        nrel = len(RELATIONS)
        rel_of: dict[str, int] = {}
        for fid, fo in factions.items():
            rel = 0 if fid == agent else RELATIONS.index(
                relations.get(frozenset((agent, fid)), "hostile"))
            rel_of[fid] = rel
            r = fac0 + ((seat[fid] - me) % F) * self.fac_row
            mh = fo.max_hp
            ix += [r, r + 1, r + 2, r + 3, r + 4, r + 5, r + 6 + rel, r + 6 + nrel, r + 7 + nrel]
            vs += [float(fo.alive), fo.force / 8, fo.cunning / 8, fo.wealth / 8,
                   fo.hp / mh if mh else 0.0, mh / MAX_BASE_HP, 1.0,
                   min(fo.xp_earned, 20) / 20, min(scores[fid], 20) / 20]
        # locations
        lrow = self.loc_row
        for lid, lo in state.map.locations.items():
            r = loc0 + locs[lid] * lrow
            ix += [r + ((seat[lo.ruler] - me) % F if lo.ruler in seat else F), r + F + 1]
            vs += [1.0, float(lo.coastal)]
        # assets: own first (slot order = action slots), then the others it can see
        own_assets = [a for a in state.assets.values() if a.owner == agent]
        if len(own_assets) > self.limits.own_assets:
            self._own_slots(state, agent)  # raises the clear error
        others = self._others(state, agent)
        if len(self._row_of) + len(own_assets) + len(others) > len(self._bank):
            self._make_room()
        done = {x for key in ("done", "rival_done", "used") for x in ctx.get(key, ())
                if isinstance(x, str)}
        own_count = [0] * L
        other_count = [0] * L
        rows: list[int] = []
        bank_rows: list[int] = []
        row_of = self._row_of
        start_other = self.limits.own_assets - len(own_assets)
        for i, a in enumerate(own_assets + others):
            s = (seat[a.owner] - me) % F
            li = locs[a.location]
            key = (rel_of[a.owner], s, a.type, li, a.hp, a.max_hp, a.stealth, a.exposed,
                   bool(a.status.get("subtle")), a.id in done)
            b = row_of.get(key)
            rows.append(i if s == 0 else start_other + i)
            bank_rows.append(b if b is not None else self._bank_row(key))
            if s == 0:
                own_count[li] += 1
            else:
                other_count[li] += 1
            if a.type == "base-of-influence":
                put_i(loc0 + li * lrow + F + 2 + s)
                put_v(1.0)
        for li in range(L):
            r = loc0 + li * lrow + 2 * F + 2
            ix += [r, r + 1]
            vs += [min(own_count[li], 8) / 8, min(other_count[li], 8) / 8]
        out[ix] = vs
        if rows:
            out[self._slices[4]].reshape(-1, self.asset_row)[rows] = self._bank[bank_rows]
        return out

    def _bank_row(self, key: tuple) -> int:
        """Encode one asset row (see :meth:`observe`'s key) into the row bank; its bank index.

        Asset rows repeat a lot (same type, place, HP...), so each distinct row is built once;
        there is room: :meth:`observe` calls :meth:`_make_room` first."""
        rel, s, type_id, li, hp, mh, stealth, exposed, made_subtle, done = key
        subtle = ASSET_TYPES[type_id].subtle or made_subtle  # as ``Asset.subtle``
        F = self.F
        o_seat = 1 + len(RELATIONS)
        o_type = o_seat + F
        o_loc = o_type + self.type_feat.shape[1]
        o_hp = o_loc + self.L
        row = self._bank[len(self._row_of)]
        row[:] = 0.0
        row[[0, 1 + rel, o_seat + s, o_loc + li]] = 1.0
        row[o_type:o_loc] = self.type_feat[self.type_index[type_id]]
        row[o_hp:o_hp + 6] = (hp / mh if mh else 0.0, min(mh, 20) / 20, stealth, exposed, subtle,
                              done)
        b = self._row_of[key] = len(self._row_of)
        return b

    def _make_room(self) -> None:
        """Double the row bank, or empty it once it holds ``_BANK_ROWS`` rows."""
        if len(self._bank) >= _BANK_ROWS:
            self._row_of.clear()
        else:
            self._bank = np.concatenate([self._bank, np.zeros_like(self._bank)])


def _relation(state: Any, a: str, b: str) -> str:
    return "self" if a == b else state.relations.get(frozenset((a, b)), "hostile")


def _type_features(types: list[str]) -> np.ndarray:
    """Per asset type: attribute (4), rating, cost, hp, attacks, counters, subtle, magic, index."""
    rows = []
    for i, t in enumerate(types):
        k = ASSET_TYPES[t]
        attr = [float(k.attribute == x) for x in _TYPE_ATTRS]
        rows.append([*attr, k.rating / 8, min(k.cost, 40) / 40, min(k.hp, 20) / 20,
                     float(k.attack is not None), float(k.counter is not None), float(k.subtle),
                     k.magic_level / 3, i / len(types)])
    return np.asarray(rows, dtype=np.float32)
