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
create              T x L                       ``create <asset type row> at <location>``
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
asset list, which is also its row in the observation), ``T`` = ``Limits.asset_types`` (a type's
row is its row in the observation's ``asset_types`` piece: the campaign's creatable types in
table order), ``G`` = goal ids,
``K`` = ``Limits.options`` options per ability source (the ``k``-th legal ``use`` action of that
source, in legal-action order: new asset abilities need no codec change; options beyond ``K`` are
left out, see ``Limits.options_overflow``), ``W(g)`` = the targets of goal ``g``'s kind
(:data:`GOAL_TARGETS`: an attribute, a seat@location, a row of the other-assets table; slot 0 of
each goal is "no target"), the other
block holds up to ``MAX_OTHER_KINDS - 2`` action classes of ``factionsim.rules.wwn.actions``
that have no block of their own, by class name (new kinds of decisions such as ``decline``
land in the "other" block by ordinal); its next-to-last slot holds the choices of a campaign's
own goals (``goal_types:``, the k-th offered: they have no id in the goal block, whose size stays
that of the book's ten), its last slot the ``use`` actions whose source is neither an own asset
nor a tag (a rival's asset). Phases unknown to the codec set the observation's "other phase"
flag. The observation shows a campaign's own goal as no goal id with its progress, and its own
tags not at all (the ``tags`` piece has the book's ten; their effects show in play).

Observation pieces (:class:`~factionsim.envs.codec.Layout`, in order; ``P`` = phases + 1,
``O`` = ``Limits.other_assets``; every value in [0, 1]):

=============  ====  ========================================================================
piece          rows  each row
=============  ====  ========================================================================
phase          1     the decision phase (one-hot, :data:`PHASES`; last: a phase unknown here)
clock          1     deciding in its own turn; turn progress (turn / cap)
turn_of        1     whose turn it is (seat, one-hot)
expand_at      1     the location being expanded into (one-hot)
attacker_at    1     the location of the attacker being met (one-hot)
attacker_seat  1     its owner's seat (one-hot)
sheet          1     own Force, Cunning, Wealth (/ 8), Treasure (/ 40), HP fraction, max HP,
                     XP (/ 20), Magic (/ 3), paralysed
tags           1     own tags (multi-hot)
goal           1     own goal (one-hot) and its progress
xp_earned      1     XP earned in the game (/ 20)
factions       F     per seat: alive (the row's flag: a collapsed faction's last figures stay),
                     ratings, HP fraction, max HP, relation (self/allied/neutral/hostile), XP
                     earned, score
locations      L     present, ruler's seat (one-hot, last: none), coastal, a Base per seat,
                     own assets there, others' visible assets there (n / 8)
own_assets     A     the observer's assets in slot order (present, then as ``other_assets``)
other_assets   O     other factions' visible assets: present, owner relation, owner seat, the
                     type's stat line (``TYPE_FEATURES`` less its flag), location (one-hot), HP
                     fraction, max HP (/ 20), Stealthed, exposed, subtle, used this turn
asset_types    T     the creatable asset types by their stats
                     (:data:`~factionsim.envs.wwn_asset_features.TYPE_FEATURES`), the same in
                     every observation of a campaign
=============  ====  ========================================================================
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

import numpy as np

from factionsim.core.game import Action
from factionsim.rules.wwn import actions as wwn_actions
from factionsim.rules.wwn import flow, turn
from factionsim.rules.wwn.data import (
    ASSET_TYPES,
    ATTRIBUTES,
    BASE_OF_INFLUENCE,
    HP_FROM_RATING,
    MAGIC_LEVELS,
)
from factionsim.rules.wwn.goals import GOALS
from factionsim.rules.wwn.model import ASSET_LOG, TableChange
from factionsim.rules.wwn.validate import TAGS

from .codec import Codec, EncodingError, Layout, float32s, grow_bank
from .wwn_asset_features import TYPE_FEATURES, TYPE_WIDTH, type_features

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
_SUBTLE = TYPE_FEATURES.index("subtle")


#: The kind of target each goal names (goals absent here take none); see ``goals.options``.
GOAL_TARGETS = {"eliminate-target": "asset", "root-out-the-enemy": "seat@location",
                "sphere-dominance": "attribute"}

_DEDICATED = (wwn_actions.ChooseAction, wwn_actions.Done, wwn_actions.Attack, wwn_actions.Defend,
              wwn_actions.Move, wwn_actions.Repair, wwn_actions.RepairFaction, wwn_actions.ExpandAt,
              wwn_actions.BaseHp, wwn_actions.Create, wwn_actions.Hide, wwn_actions.Sell,
              wwn_actions.UseAbility, wwn_actions.Bribe, wwn_actions.ChooseGoal, wwn_actions.KeepGoal,
              wwn_actions.RaiseRating)


#: action classes whose index depends on the action alone and whose objects the rules make once
#: (``turn._DONE``, ``_KEEP_GOAL``, ``_CHOOSE``): the codec keeps their index by object
#: (``WwnCodec._choice_table``); classes made anew at every decision would only fill the table
_BY_OBJECT = frozenset((wwn_actions.ChooseAction, wwn_actions.Done, wwn_actions.KeepGoal))

_FOREIGN_USE = "use-foreign"
#: the "other" block's slot of the goal choices of a campaign's own goals (``goal_types:``)
_HOMEBREW_GOAL = "goal-homebrew"
#: the book's tags -> their place in the observation's multi-hot (a campaign's own tags have none)
_TAG_INDEX = {t: i for i, t in enumerate(TAGS)}
#: what a faction's row of the observation is computed from (its score aside; max HP follows
#: from the ratings)
_FACTION_STATS = operator.attrgetter("alive", "force", "cunning", "wealth", "hp", "xp_earned")
#: Most goal choices kept per actor (see ``WwnCodec._choice_table``).
_TABLE_SIZE = 4096
#: Most distinct asset rows the observation keeps encoded (about 6 MB at 64 locations).
_BANK_ROWS = 8192
#: Most log entries a kept asset part is brought up to date from (``WwnCodec._update_part``;
#: random play logs 1.7 on average between two observations of one faction, at most about 20):
#: beyond, building it again costs less than reading them
_UPDATE_MOST = 32
#: the stats of an asset its observation row shows (with its owner, Subtle status and turn)
_ROW_STATS = operator.attrgetter("type", "location", "hp", "max_hp", "stealth", "exposed")


@dataclass(frozen=True)
class Limits:
    """Maxima that size the spaces (``make_env(..., own_assets=48)`` raises one)."""

    own_assets: int = 32  # assets of the observing / acting faction
    other_assets: int = 64  # visible assets of every other faction together
    asset_types: int = 96  # asset types a faction can create (81 in the rules; the rest: spare
    # rows for a campaign's own types)
    options: int = 16  # options of one ability source (and of one "other" action class)
    #: beyond ``options`` options of one source: "drop" leaves the extra options out of the
    #: catalogue (index -1: still legal, never chosen by a policy; the mask is never empty),
    #: "error" raises :class:`EncodingError`
    options_overflow: str = "drop"


class WwnCodec(Codec):
    """Observation and action encoding of WWN states for one campaign's factions and map."""

    ENV_VERSION = 2
    Limits = Limits

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
        #: the campaign's asset types (id -> type object: stats are read from these)
        self.type_table: dict[str, Any] = dict(state.asset_types)
        #: the campaign's hook tables (its own types' abilities are registered there)
        self._hooks = state.hooks
        #: the types a faction can create, in table order: rows of the ``asset_types`` piece and
        #: of the catalogue's create block
        self.types = [t for t, kind in self.type_table.items() if t != BASE_OF_INFLUENCE]
        if len(self.types) > lim.asset_types:
            raise EncodingError(f"campaign has {len(self.types)} asset types; the codec's "
                                f"asset_types limit is {lim.asset_types} (pass asset_types=... "
                                "to make_env)")
        self.type_index = {t: i for i, t in enumerate(self.types)}
        self._type_features: dict[str, np.ndarray] = {}
        self.goals = list(GOALS)
        self.goal_index = {g: i for i, g in enumerate(self.goals)}
        self._build_catalogue()
        self._goal_index: dict[tuple[str, str, int], int] = {}  # (goal, target, seat) -> index
        self._build_observation_layout(state)

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
        sizes = [("choose", len(wwn_actions.ACTION_KINDS)), ("done", 1), ("attack", A * F), ("defend", A),
                 ("move", A * L), ("repair", A), ("repair-faction", 1), ("expand", L),
                 ("base-hp", MAX_BASE_HP), ("create", self.limits.asset_types * L), ("hide", A),
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
            key=lambda c: c.__name__)[:MAX_OTHER_KINDS - 2]
        self.other_index: dict[Any, int] = {c: i for i, c in enumerate(self.other_types)}
        # the slot before it: choosing one of the campaign's own goals (the k-th offered)
        self.other_index[_HOMEBREW_GOAL] = MAX_OTHER_KINDS - 2
        # the last slot: ``use`` of a source that is neither an own asset nor a tag (paying
        # off a rival's asset, answering its ability...)
        self.other_index[_FOREIGN_USE] = MAX_OTHER_KINDS - 1
        self.offset["other"] = n
        n += MAX_OTHER_KINDS * K
        self.n_actions = n
        #: goal -> catalogue index of its first asset target (goals whose target is an asset)
        self._asset_goals = {g: self.offset["goal"] + self.goal_offset[g] + 1
                             for g in self.goals if GOAL_TARGETS.get(g) == "asset"}

    def encode_actions(self, view: Any, legal: list[Any]) -> list[int]:
        """Catalogue index of each legal action (distinct; :class:`EncodingError` otherwise;
        -1 for an ability option beyond ``Limits.options`` when ``options_overflow="drop"``).

        A goal step (most decisions of random play) offers goal choices that the rules build
        once and reuse (``goals.options``: the same objects every time), so their indices are
        kept per actor in a table by object (:meth:`_choice_table`) and looked up with C calls
        only; the other actions are encoded one by one (:meth:`_encode_each`)."""
        actor = view.faction_id
        # (only the part's other_ids are read here: they follow the assets' stamp alone, not the
        # acted lists, so a part of the same stamp serves as it is)
        part = self._parts.get(actor)
        if part is None or not part.holds(*view.assets_stamp()):
            part = self._current_part(view, actor)
        table = self._choice_table(actor, part.other_ids)
        out = list(map(table.get, map(id, legal)))
        if None in out:
            self._encode_each(view, actor, legal, out, part, table)
        kept = [i for i in out if i >= 0] if -1 in out else out
        if not kept and out:
            raise EncodingError(f"no legal action of {actor} can be encoded")
        if len(set(kept)) != len(kept):
            raise EncodingError(f"two legal actions share a catalogue index: "
                                f"{[str(a) for a in legal]}")
        return out

    def _choice_table(self, actor: str, other_ids: tuple[str, ...]) -> dict[int, int]:
        """``id(choice) -> catalogue index`` of the choices ``actor`` met so far whose index
        depends on the choice alone (:data:`_BY_OBJECT`: the rules make them once and offer the
        same objects again) or on the rows of the other assets it sees, ``other_ids`` (a goal
        whose target is an asset). Each choice object is kept alive with its entry, so an id
        never stands for another object. When ``other_ids`` changes, the asset targets' entries
        are dropped; past ``_TABLE_SIZE`` entries the table starts anew."""
        entry = self._choice_tables.get(actor)
        if entry is None or len(entry.index) > _TABLE_SIZE:
            entry = self._choice_tables[actor] = _ChoiceTable(other_ids)
        elif entry.other_ids is not other_ids and entry.other_ids != other_ids:
            index, keep = entry.index, entry.keep
            for key in entry.by_row:
                index.pop(key, None)
                keep.pop(key, None)
            entry.by_row.clear()
            entry.other_ids = other_ids
        return entry.index

    def _encode_each(self, view: Any, actor: str, legal: list[Any], out: list[int | None],
                     part: _AssetPart, table: dict[int, int]) -> None:
        """Fill the ``None`` entries of ``out`` with the indices of those of ``legal``, one by one
        (the book's goal choices are added to ``table``, see :meth:`_choice_table`)."""
        own = self._own_slots(view, actor)
        me = self.seat[actor]
        off, lim, F, L = self.offset, self.limits, self.F, self.L
        choices = self._choice_tables[actor]
        keep = choices.keep
        use_count: dict[str, int] = {}
        bribes = 0
        other_count: dict[Any, int] = {}
        other_rows: dict[str, int] | None = None
        goal_index = self._goal_index
        asset_goals = self._asset_goals
        for j, a in enumerate(legal):
            if out[j] is not None:
                continue
            t = type(a)
            if t is wwn_actions.ChooseGoal:  # the most frequent: every goal step offers dozens
                i = goal_index.get((a.goal, a.target, me))
                if i is None and a.goal not in self.goal_offset:  # the campaign's own goal
                    i = self._other(a, other_count, _HOMEBREW_GOAL)
                    out[j] = i
                    continue
                if i is None:  # the target is an asset, or the choice is new
                    if other_rows is None:
                        other_rows = {x: k for k, x in enumerate(part.other_ids)}
                    base = asset_goals.get(a.goal)
                    row = other_rows.get(a.target) if base is not None else None
                    if row is not None:
                        i = base + row
                        choices.by_row.append(id(a))
                    else:
                        i = self._goal(a, me, other_rows)
                table[id(a)] = i
                keep[id(a)] = a
            elif t is wwn_actions.ChooseAction:
                i = off["choose"] + wwn_actions.ACTION_KINDS.index(a.kind)
            elif t is wwn_actions.Done:
                i = off["done"]
            elif t is wwn_actions.Attack:
                i = off["attack"] + own[a.asset] * F + (self.seat[a.target] - me) % F
            elif t is wwn_actions.Move:
                i = off["move"] + own[a.asset] * L + self.loc[a.destination]
            elif t is wwn_actions.KeepGoal:
                i = off["keep-goal"]
            elif t is wwn_actions.Defend:
                i = off["defend"] + own[a.asset]
            elif t is wwn_actions.Repair:
                i = off["repair"] + own[a.asset]
            elif t is wwn_actions.RepairFaction:
                i = off["repair-faction"]
            elif t is wwn_actions.ExpandAt:
                i = off["expand"] + self.loc[a.location]
            elif t is wwn_actions.BaseHp:
                if not 1 <= a.hp <= MAX_BASE_HP:
                    raise EncodingError(f"base hp {a.hp} beyond the codec's {MAX_BASE_HP}")
                i = off["base-hp"] + a.hp - 1
            elif t is wwn_actions.Create:
                k = self.type_index.get(a.asset_type)
                if k is None:
                    raise EncodingError(f"asset type {a.asset_type!r} is not in the codec's "
                                        "table of this campaign's asset types")
                i = off["create"] + k * L + self.loc[a.location]
            elif t is wwn_actions.Hide:
                i = off["hide"] + own[a.asset]
            elif t is wwn_actions.Sell:
                i = off["sell"] + own[a.asset]
            elif t is wwn_actions.UseAbility:
                k = use_count.get(a.source, 0)
                use_count[a.source] = k + 1
                if k >= lim.options:
                    if lim.options_overflow == "drop":
                        out[j] = -1
                        continue
                    raise EncodingError(f"ability source {a.source} offers more than "
                                        f"{lim.options} options (pass options=... to make_env)")
                tags = view.factions[actor].tags
                if a.source in own:
                    i = off["use-asset"] + own[a.source] * lim.options + k
                elif a.source in tags:
                    i = off["use-tag"] + tags.index(a.source) * lim.options + k
                else:
                    i = self._other(a, other_count, _FOREIGN_USE)
            elif t is wwn_actions.Bribe:
                if bribes >= lim.options:
                    raise EncodingError("too many bribe amounts offered")
                i = off["bribe"] + bribes
                bribes += 1
            elif t is wwn_actions.RaiseRating:
                i = off["raise"] + ATTRIBUTES.index(a.attribute)
            else:
                i = self._other(a, other_count)
            out[j] = i
            if t in _BY_OBJECT:
                table[id(a)] = i
                keep[id(a)] = a

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

    def _goal(self, a: wwn_actions.ChooseGoal, me: int, other_rows: dict[str, int]) -> int:
        """Catalogue index of a goal choice; kept for the next time unless its target is an
        asset (whose row among the other assets changes as the game goes)."""
        i = self.offset["goal"] + self.goal_offset[a.goal] + self._goal_target(a, me, other_rows)
        if GOAL_TARGETS.get(a.goal) != "asset" or not a.target:
            self._goal_index[(a.goal, a.target, me)] = i
        return i

    def _goal_target(self, a: wwn_actions.ChooseGoal, me: int, other_rows: dict[str, int]) -> int:
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

    def _own_slots(self, view: Any, actor: str) -> dict[str, int]:
        own = [a.id for a in view.assets_of(actor)]
        if len(own) > self.limits.own_assets:
            raise EncodingError(f"faction {actor} has {len(own)} assets; the codec's own_assets "
                                f"limit is {self.limits.own_assets} "
                                "(pass own_assets=... to make_env)")
        return {aid: i for i, aid in enumerate(own)}

    def _others(self, view: Any, agent: str) -> list[Any]:
        rows = [a for a in view.assets() if a.owner != agent]
        if len(rows) > self.limits.other_assets:
            raise EncodingError(f"{agent} sees {len(rows)} assets of other factions; the codec's "
                                f"other_assets limit is {self.limits.other_assets} "
                                f"(pass other_assets=... to make_env)")
        return rows

    def render_faction(self, view: Any) -> str:
        f = view.faction
        return f"hp {f.hp}/{f.max_hp} treasure {f.treasure} xp {f.xp}"

    # ------------------------------------------------------------------ observation
    def _build_observation_layout(self, state: Any) -> None:
        F, L, lim = self.F, self.L, self.limits
        # factions (relative seat): alive, ratings, hp frac, max hp, relation, xp earned, score
        self.fac_row = 1 + 3 + 1 + 1 + len(RELATIONS) + 1 + 1
        # locations: present, ruler seat (+none), coastal, Base per seat, own assets, others'
        self.loc_row = 1 + F + 1 + 1 + F + 1 + 1
        # assets: present, owner relation, owner seat, type stats, location, hp, flags
        self.asset_row = 1 + len(RELATIONS) + F + (TYPE_WIDTH - 1) + L + 6
        self.layout = Layout([
            ("phase", 1, len(PHASES) + 1), ("clock", 1, 2), ("turn_of", 1, F),
            ("expand_at", 1, L), ("attacker_at", 1, L), ("attacker_seat", 1, F),
            ("sheet", 1, 9), ("tags", 1, len(TAGS)), ("goal", 1, len(self.goals) + 1),
            ("xp_earned", 1, 1),
            ("factions", F, self.fac_row), ("locations", L, self.loc_row),
            ("own_assets", lim.own_assets, self.asset_row),
            ("other_assets", lim.other_assets, self.asset_row),
            ("asset_types", lim.asset_types, TYPE_WIDTH)])
        self.asset_slots = lim.own_assets + lim.other_assets
        first = self.layout.start["own_assets"]
        self._asset_block = (first, first + self.asset_slots * self.asset_row)
        assert self.layout.start["other_assets"] == first + lim.own_assets * self.asset_row
        # what is the same for every observer of every game: the presence flags of the locations
        # and the asset types table
        base = np.zeros(self.obs_size, np.float32)
        self.layout.view(base, "locations")[:, 0] = 1.0
        table = self.layout.view(base, "asset_types")
        for i, t in enumerate(self.types):
            table[i] = self._features_of(t)
        self._base_template = base
        # encoded asset rows, each built once (see _bank_row): at least room for one observation
        self._bank = np.zeros((2 * self.asset_slots, self.asset_row), np.float32)
        self._row_of: dict[tuple, tuple[int, int, int]] = {}  # row key -> bank row, location, Base
        self._row_info: dict[int, tuple[int, int, int]] = {}  # bank row -> the same (its latest)
        self._seatings: dict[str, _Seating] = {}
        self._parts: dict[str, _AssetPart] = {}  # observer -> its last asset part
        self._bank_epoch = 0  # counts the times the bank started afresh (see _current_part)
        self._faction_rows: dict[tuple, list[float]] = {}  # see _faction_values
        self._choice_tables: dict[str, _ChoiceTable] = {}  # actor -> see _choice_table
        #: the value of "n assets in a location" (n / 8, at most 1)
        self._count_value = [min(n, 8) / 8 for n in range(self.asset_slots + 1)]
        self._seated_for: tuple[Any, Any] = (None, None)  # the map and relations they were built for
        # where observe() writes its ones: each phase's flag, the first flag of each one-hot
        st = self.layout.start
        self._phase_one = {phase: st["phase"] + i for i, phase in enumerate(PHASES)}
        self._other_phase_one = st["phase"] + len(PHASES)
        self._turn_of_one, self._clock_one = st["turn_of"], st["clock"]
        self._expand_one, self._tags_one, self._goal_one = st["expand_at"], st["tags"], st["goal"]
        self._attacker_at_one, self._attacker_seat_one = st["attacker_at"], st["attacker_seat"]
        self._tag_ones: dict[tuple[str, ...], list[int]] = {}  # a faction's tags -> their flags

    def _features_of(self, type_id: str) -> np.ndarray:
        """The stat features of asset type ``type_id`` (:func:`type_features`), built once."""
        feats = self._type_features.get(type_id)
        if feats is None:
            kind = self.type_table.get(type_id) or ASSET_TYPES.get(type_id)
            if kind is None:
                raise EncodingError(f"asset type {type_id!r} is not an asset type of this "
                                    "campaign")
            feats = self._type_features[type_id] = type_features(kind, self._hooks)
        return feats

    def _seating(self, view: Any, agent: str) -> _Seating:
        """What never changes in a game for one observer (see :class:`_Seating`); built once per
        agent and game (a game's map and relations objects stay the same)."""
        if self._seated_for[0] is not view.map or self._seated_for[1] is not view.relations:
            self._seatings.clear()
            self._parts.clear()  # (built with the seatings' owner codes)
            self._seated_for = (view.map, view.relations)
        seating = self._seatings.get(agent)
        if seating is None:
            seating = self._seatings[agent] = self._build_seating(view, agent)
        return seating

    def _build_seating(self, view: Any, agent: str) -> _Seating:
        F = self.F
        st = self.layout.start
        me = self.seat[agent]
        template = self._base_template.copy()
        owner_code: dict[str, tuple[int, int]] = {}
        fixed: list[int] = []
        # own sheet: nine values, goal progress, XP earned; turn progress
        fixed += range(st["sheet"], st["sheet"] + 9)
        fixed += [st["goal"] + len(self.goals), st["xp_earned"], st["clock"] + 1]
        nrel = len(RELATIONS)
        for fid in self.factions:  # campaign order, as the values are listed in observe()
            rel = 0 if fid == agent else RELATIONS.index(view.relation(agent, fid))
            s = (self.seat[fid] - me) % F
            owner_code[fid] = (rel, s)
            r = st["factions"] + s * self.fac_row
            template[r + 6 + rel] = 1.0
            fixed += [r, r + 1, r + 2, r + 3, r + 4, r + 5, r + 6 + nrel, r + 7 + nrel]
        for lid, lo in view.map.locations.items():
            r = st["locations"] + self.loc[lid] * self.loc_row
            ruler = (self.seat[lo.ruler] - me) % F if lo.ruler in self.seat else F
            template[r + 1 + ruler] = 1.0
            template[r + F + 2] = float(lo.coastal)
        counts = [st["locations"] + li * self.loc_row + 2 * F + 3 for li in range(self.L)]
        counts += [c + 1 for c in counts]  # own assets per location, then others'
        return _Seating(me, template, owner_code, np.asarray(fixed, np.intp),
                        np.asarray(counts, np.intp), counts)

    def observe(self, view: Any, out: np.ndarray,
                scores: dict[str, float] | None = None) -> np.ndarray:
        """Write ``agent``'s observation into ``out`` (float32; every entry is written) and
        return it.

        What is fixed for the game (rulers, coastlines, relations, the asset types) is in the
        observer's template, and what its assets show (rows gathered from a bank of
        already-encoded rows, Base flags, counts per location) is written into a copy of it
        kept while the assets are unchanged (:meth:`_current_part`, :meth:`_part_base`): an
        observation starts as a copy of that, then the values with a fixed position are written
        with one numpy call and the ones with another. The template is built once per game (per
        map and relations object): no rule changes them, and code that edits a state's
        ``relations`` in place mid-game must assign a new dict for the codec to see it.
        """
        agent = view.faction_id
        seating = self._seating(view, agent)
        part = self._current_part(view, agent, seating)
        out[:] = part.base if part.base is not None else self._part_base(part, seating)
        return self._fill(view, agent, seating, out, scores)

    def observation(self, view: Any, scores: dict[str, float] | None = None) -> np.ndarray:
        """:meth:`observe` into a new array: a copy of the observer's kept base (one numpy call
        where :meth:`observe` needs an array first)."""
        agent = view.faction_id
        seating = self._seating(view, agent)
        part = self._current_part(view, agent, seating)
        base = part.base if part.base is not None else self._part_base(part, seating)
        return self._fill(view, agent, seating, base.copy(), scores)

    def _fill(self, view: Any, agent: str, seating: _Seating, out: np.ndarray,
              scores: dict[str, float] | None) -> np.ndarray:
        """Write what changes from decision to decision (the values with a fixed position and
        the ones) into ``out``, which holds the observer's base (see :meth:`observe`)."""
        F = self.F
        me = seating.seat
        seat, locs = self.seat, self.loc
        factions = view.factions
        f = factions[agent]
        ctx = view.decision
        # positions that hold a 1 this time: the decision point, then the own sheet
        ones = [self._phase_one.get(view.phase, self._other_phase_one)]
        order, order_index = view.order, view.order_index
        if order and order_index < len(order):
            turn_of = order[order_index]
            ones.append(self._turn_of_one + (seat[turn_of] - me) % F)
            if turn_of == agent:
                ones.append(self._clock_one)
        expand = ctx.get("expand")
        if expand in locs:
            ones.append(self._expand_one + locs[expand])
        pending = ctx.get("pending")
        if pending is not None:
            atk = view.asset(pending.get("attacker") if isinstance(pending, dict) else None)
            if atk is not None:
                ones += [self._attacker_at_one + locs[atk.location],
                         self._attacker_seat_one + (seat[atk.owner] - me) % F]
        tags = f.tags
        if tags:
            tag_ones = self._tag_ones.get(tags)
            if tag_ones is None:
                tag_ones = self._tag_ones[tags] = [self._tags_one + _TAG_INDEX[tag]
                                                   for tag in tags if tag in _TAG_INDEX]
            ones += tag_ones
        goal = f.goal
        progress = 0.0
        if goal is not None:  # a campaign's own goal: no one-hot, its progress only
            if goal.id in self.goal_index:
                ones.append(self._goal_one + self.goal_index[goal.id])
            progress = min(1.0, goal.progress / goal.needed) if goal.needed else 0.0
        # the values with a fixed position, in _build_seating's order
        max_hp = f.max_hp
        values = [f.force / 8, f.cunning / 8, f.wealth / 8, min(f.treasure, 40) / 40,
                  f.hp / max_hp if max_hp else 0.0, max_hp / MAX_BASE_HP, min(f.xp, 20) / 20,
                  MAGIC_LEVELS.index(f.magic) / 3, float(f.paralysed), progress,
                  min(f.xp_earned, 20) / 20,
                  min(1.0, view.turn / max_turns) if (max_turns := view.max_turns) else 0.0]
        values += self._faction_values(factions, view.scores() if scores is None else scores)
        out[seating.fixed] = float32s(values)
        for i in ones:  # (a handful: one scalar write each costs less than an index array)
            out[i] = 1.0
        return out

    def _part_base(self, part: _AssetPart, seating: _Seating) -> np.ndarray:
        """The observer's template with ``part`` written in (its asset rows, Base flags and
        counts per location): what :meth:`observe` starts from while the part holds."""
        base = seating.template.copy()
        # asset rows: own from the own_assets piece's first row, the others' likewise (the two
        # pieces follow each other)
        block = self._block(base)
        own_rows, other_rows = part.own_rows, part.other_rows
        # (mode="clip": the rows are always in the bank; the default "raise" buffers ``out``)
        if own_rows:
            self._bank.take(own_rows, axis=0, out=block[:len(own_rows)], mode="clip")
        if other_rows:
            A = self.limits.own_assets
            self._bank.take(other_rows, axis=0, out=block[A:A + len(other_rows)], mode="clip")
        if part.bases:
            base[part.bases] = 1.0
        base[seating.counts] = float32s(part.own_counts + part.other_counts)
        part.base = base
        return base

    def _faction_values(self, factions: dict[str, Any], scores: dict[str, float]) -> list[float]:
        """The values of the ``factions`` rows, every faction in campaign order (the same for
        every observer: its seating puts them in place), kept by what they are computed from
        (each faction's listed fields and score: looked up with C calls)."""
        fids = self.factions
        key = (tuple(map(_FACTION_STATS, map(factions.__getitem__, fids))),
               tuple(map(scores.__getitem__, fids)))
        values = self._faction_rows.get(key)
        if values is None:
            if len(self._faction_rows) >= _TABLE_SIZE:
                self._faction_rows.clear()
            values = []
            for fid in fids:
                fo = factions[fid]
                mh = fo.max_hp
                values += [float(fo.alive), fo.force / 8, fo.cunning / 8, fo.wealth / 8,
                           fo.hp / mh if mh else 0.0, mh / MAX_BASE_HP,
                           min(fo.xp_earned, 20) / 20, min(scores[fid], 20) / 20]
            self._faction_rows[key] = values
        return values

    def _current_part(self, view: Any, agent: str, seating: _Seating | None = None) -> _AssetPart:
        """The asset part of ``agent``'s observation (:class:`_AssetPart`): the bank rows of its
        own assets and of the others' it sees, the values of how many of each stand in every
        location, the positions of the Base flags, the ids of the others' assets in row order.

        Kept per observer and reused while its inputs are as they were: the view's
        ``assets_stamp()`` (which changes with any change to any asset: its fields, its status
        entries, its owner, its entering or leaving play) and the assets that already acted this
        turn (the decision's ``done``, ``rival_done`` and ``used`` lists). Checking them costs a
        few calls; building the part again a pass over every asset. Where the assets changed
        fields or entered or left play (no new owners), the kept part is brought up to date in
        place from :data:`~factionsim.rules.wwn.model.ASSET_LOG`, the assets changed since it
        was built (:meth:`_update_part`). Otherwise the new part takes
        over the old one's observation base, with only the rows, Base flags and counts that
        differ written again (:meth:`_patch_base`), when both were built for the same seating
        and bank rows."""
        ctx = view.decision
        acted = (tuple(ctx.get("done") or ()), tuple(ctx.get("rival_done") or ()),
                 tuple(ctx.get("used") or ()))
        token, version, changes = view.assets_stamp()
        part = self._parts.get(agent)
        if part is None or not part.holds(token, version, changes) or part.acted != acted:
            if seating is None:
                seating = self._seating(view, agent)
            old = self._parts.get(agent)  # (None when _seating just started a new game)
            done = {x for ids in acted for x in ids if isinstance(x, str)}
            if old is not None and old.token is token and old.seating is seating \
                    and self._update_part(view, agent, old, done):
                old.version, old.changes, old.acted = version, changes, acted
                old.log = ASSET_LOG.position()
                return old
            epoch = self._bank_epoch
            part = self._parts[agent] = self._asset_part(view, agent, seating, view.assets(),
                                                         done)
            part.token, part.version, part.changes, part.acted = token, version, changes, acted
            part.seating, part.log = seating, ASSET_LOG.position()
            if old is not None and old.base is not None and old.seating is seating \
                    and epoch == self._bank_epoch:
                self._patch_base(old, part, seating)
        return part

    def _update_part(self, view: Any, agent: str, part: _AssetPart, done: set[str]) -> bool:
        """Bring ``part`` (``agent``'s, built for today's table and seating) up to date in place
        from :data:`~factionsim.rules.wwn.model.ASSET_LOG`: the assets that entered or left the
        table since it was built get or lose their rows (:meth:`_move_rows`), and the rows of
        the assets whose fields changed, or whose "acted" flag did (``done``), are keyed again;
        what changed is written into its observation base (rows, counts per location, Base
        flags). Returns False where only a new part will do, or where one is as cheap: a change
        logged as ``None`` (a new owner, a status change that may touch a row...), more than
        :data:`_UPDATE_MOST` entries since (a planner's copies of the state, playing in the same
        process, log their own changes too), entries emptied out of the log, an
        asset of another faction that became visible or hidden, the same asset in or out twice,
        a bank without room for the new rows; the part is then as consistent as before (its
        lists and base agree), for :meth:`_patch_base`.

        The log holds every game's assets; one that is not this table's own object for its id
        is skipped (this table's assets that changed are logged themselves)."""
        changed = ASSET_LOG.since(part.log)
        if changed is None or len(changed) > _UPDATE_MOST:
            return False
        touched: dict[int, Any] = {}
        moves: list[TableChange] = []
        for a in changed:
            if a is None:
                return False
            if a.__class__ is TableChange:
                moves.append(a)
            else:
                touched[id(a)] = a
        if done != part.done:
            for aid in done.symmetric_difference(part.done):
                a = view.asset(aid)
                if a is not None:
                    touched[id(a)] = a
        if len(self._row_of) + len(touched) + len(moves) > len(self._bank):
            return False
        if moves and not self._move_rows(view, agent, part, moves, done):
            return False
        # (checked before anything is changed: a visibility change needs a new part)
        work = []
        own = others = None
        for a in touched.values():
            cur = view.asset(a.id)
            if a.owner == agent:
                if cur is not a:
                    continue  # (another game's asset, or one out of play)
                if own is None:
                    own = view.assets_of(agent)
                k = next(k for k, x in enumerate(own) if x is a)
                work.append((a, True, k))
            else:
                if others is None:
                    others = part.other_slot
                    if others is None:
                        others = part.other_slot = {x: k for k, x in enumerate(part.other_ids)}
                k = others.get(a.id)
                if cur is a:
                    if k is None:
                        return False  # (it came out of hiding)
                    work.append((a, False, k))
                elif cur is None and k is not None:
                    return False  # (it went into hiding)
        A = self.limits.own_assets
        block = self._block(part.base) if part.base is not None and work else None
        for a, mine, k in work:
            info = self._row_info_of(part.seating.owner_code, a, done)
            rows = part.own_rows if mine else part.other_rows
            was = rows[k]
            if was == info[0]:
                continue
            rows[k] = info[0]
            if block is not None:
                block[k if mine else A + k] = self._bank[info[0]]
            before = self._row_info[was]
            if before[1] != info[1] or before[2] != info[2]:  # (another place, or a Base)
                self._recount(part, mine, before, -1)
                self._recount(part, mine, info, 1)
        part.done = done
        return True

    def _move_rows(self, view: Any, agent: str, part: _AssetPart, moves: list[TableChange],
                   done: set[str]) -> bool:
        """Give the assets that entered this table since ``part`` was built rows at the end of
        its own or others' rows (a new asset comes last in asset order), and take out the rows
        of those that left it (the rows after them move up one). Checks every move first and
        returns False, having changed nothing, for one it cannot follow (see
        :meth:`_update_part`)."""
        own_ids, other_ids = part.own_ids, part.other_ids
        seen: set[str] = set()
        plan: list[tuple[bool, bool, Any]] = []  # (entered, own, asset or id)
        n_own, n_other = len(own_ids), len(other_ids)
        for move in moves:
            a = move.asset
            aid = a.id
            cur = view.asset(aid)
            if move.added and cur is not a:
                continue  # (another table's, out again since, or hidden from this observer)
            if aid in seen:
                return False
            seen.add(aid)
            if move.added:
                if aid in own_ids or aid in other_ids:
                    return False
                mine = a.owner == agent
                plan.append((True, mine, a))
                n_own += mine
                n_other += not mine
            else:
                if cur is not None:
                    return False  # (another table's asset of the same id, or back in play)
                if aid in own_ids:
                    plan.append((False, True, aid))
                    n_own -= 1
                elif aid in other_ids:
                    plan.append((False, False, aid))
                    n_other -= 1
        if n_own > self.limits.own_assets or n_other > self.limits.other_assets:
            return False  # (a new part raises the clear error)
        own_ids, other_ids = list(own_ids), list(other_ids)
        block = self._block(part.base) if part.base is not None else None
        A = self.limits.own_assets
        for entered, mine, x in plan:
            ids, rows, offset = (own_ids, part.own_rows, 0) if mine \
                else (other_ids, part.other_rows, A)
            if entered:
                info = self._row_info_of(part.seating.owner_code, x, done)
                ids.append(x.id)
                rows.append(info[0])
                if block is not None:
                    block[offset + len(rows) - 1] = self._bank[info[0]]
                self._recount(part, mine, info, 1)
            else:
                k = ids.index(x)
                self._recount(part, mine, self._row_info[rows[k]], -1)
                del ids[k]
                del rows[k]
                if block is not None:
                    n = len(rows)  # (after: rows k..n move up one, row n is emptied)
                    block[offset + k:offset + n] = block[offset + k + 1:offset + n + 1]
                    block[offset + n] = 0.0
        part.own_ids, part.other_ids = tuple(own_ids), tuple(other_ids)
        part.other_slot = None
        return True

    def _row_info_of(self, owner_code: dict[str, int], a: Any,
                     done: set[str]) -> tuple[int, int, int]:
        """``(bank row, location, Base flag position)`` of asset ``a``'s row, encoded once into
        the bank (:meth:`_bank_row`) and found again by its key: the owner's code in the
        observer's seating, the asset's six stats (one C call reads them), its Subtle status
        and whether it acted this turn (``done``)."""
        status = a.status
        key = (owner_code[a.owner], _ROW_STATS(a),
               bool(status.get("subtle")) if status else False,  # (mostly empty)
               a.id in done if done else False)
        info = self._row_of.get(key)
        return info if info is not None else self._bank_row(key)

    def _block(self, base: np.ndarray) -> np.ndarray:
        """The asset rows of an observation base: own rows, then the others'."""
        first, end = self._asset_block
        return base[first:end].reshape(self.asset_slots, self.asset_row)

    def _recount(self, part: _AssetPart, mine: bool, info: tuple[int, int, int],
                 step: int) -> None:
        """Count a row (``step`` 1) or stop counting it (-1) in ``part``'s assets per location
        and Base flags, and in its observation base."""
        _, li, flag = info
        base = part.base
        counts, values = (part.own_n, part.own_counts) if mine \
            else (part.other_n, part.other_counts)
        counts[li] += step
        values[li] = value = self._count_value[counts[li]]
        if base is not None:
            base[part.seating.count_positions[li if mine else self.L + li]] = value
        if flag >= 0:
            bases = part.bases
            if step > 0:
                bases.append(flag)
                if base is not None:
                    base[flag] = 1.0
            else:
                bases.remove(flag)
                if base is not None and flag not in bases:
                    base[flag] = 0.0

    def _patch_base(self, old: _AssetPart, new: _AssetPart, seating: _Seating) -> None:
        """Give ``new`` the observation base of ``old`` (the same observer and seating, the same
        bank rows), rewriting in place only what differs: the asset rows whose bank row changed
        (slots no longer used go back to the template's zeros), the Base flags set or cleared,
        and the counts per location that changed. The same array :meth:`_part_base` would
        build for ``new``: usually one or two assets changed, so this writes a few rows instead
        of copying the template and every row."""
        base = old.base
        assert base is not None
        old.base = None  # (now ``new``'s)
        block = self._block(base)
        bank = self._bank
        for offset, before, after in ((0, old.own_rows, new.own_rows),
                                      (self.limits.own_assets, old.other_rows, new.other_rows)):
            if before == after:
                continue
            nb, na = len(before), len(after)
            for k in range(min(nb, na)):
                if before[k] != after[k]:
                    block[offset + k] = bank[after[k]]
            if na > nb:
                bank.take(after[nb:], axis=0, out=block[offset + nb:offset + na], mode="clip")
            elif nb > na:
                block[offset + na:offset + nb] = 0.0
        if old.bases != new.bases:
            for p in set(old.bases).difference(new.bases):
                base[p] = 0.0
            for p in new.bases:
                base[p] = 1.0
        if old.own_counts != new.own_counts or old.other_counts != new.other_counts:
            positions = seating.count_positions
            for k, (x, y) in enumerate(zip(old.own_counts + old.other_counts,
                                           new.own_counts + new.other_counts, strict=True)):
                if x != y:
                    base[positions[k]] = y
        new.base = base

    def _asset_part(self, view: Any, agent: str, seating: _Seating, assets: list[Any],
                    done: set[str]) -> _AssetPart:
        """Build the asset part of ``agent``'s observation from ``assets`` (see
        `_current_part`): one pass over them, each row from the bank (encoded once)."""
        lim = self.limits
        if len(self._row_of) + lim.own_assets + lim.other_assets > len(self._bank):
            self._bank = grow_bank(self._bank, self._row_of, _BANK_ROWS)
            self._parts.clear()  # (their bank rows may be reused)
            if not self._row_of:  # (full: emptied, its rows will be reused)
                self._bank_epoch += 1  # (so no kept base is patched with the new rows)
        owner_code = seating.owner_code
        own_count, other_count = [0] * self.L, [0] * self.L
        own_rows: list[int] = []
        other_rows: list[int] = []
        other_ids: list[str] = []
        own_ids: list[str] = []
        bases: list[int] = []
        for a in assets:
            b, li, base = self._row_info_of(owner_code, a, done)
            if a.owner == agent:
                own_rows.append(b)
                own_ids.append(a.id)
                own_count[li] += 1
            else:
                other_rows.append(b)
                other_ids.append(a.id)
                other_count[li] += 1
            if base >= 0:
                bases.append(base)
        if len(own_rows) > lim.own_assets:
            self._own_slots(view, agent)  # raises the clear error
        if len(other_rows) > lim.other_assets:
            self._others(view, agent)  # raises the clear error
        count_value = self._count_value
        part = _AssetPart(own_rows, other_rows, [count_value[n] for n in own_count],
                          [count_value[n] for n in other_count], bases, done, tuple(other_ids))
        part.own_n, part.other_n, part.own_ids = own_count, other_count, tuple(own_ids)
        return part

    def _bank_row(self, key: tuple) -> tuple[int, int, int]:
        """Encode one asset row (see `_current_part`' key) into the row bank: its bank row,
        location index and the observation position of its Base flag (-1: not a Base).

        Asset rows repeat a lot (same type, place, HP...), so each distinct row is built once;
        there is room: `_current_part` grows the bank first."""
        (rel, s), (type_id, location, hp, mh, stealth, exposed), made_subtle, done = key
        feats = self._features_of(type_id)
        subtle = bool(feats[_SUBTLE]) or made_subtle  # as ``Asset.subtle``
        F, li = self.F, self.loc[location]
        o_seat = 1 + len(RELATIONS)
        o_type = o_seat + F
        o_loc = o_type + TYPE_WIDTH - 1
        o_hp = o_loc + self.L
        b = len(self._row_of)
        row = self._bank[b]
        row[:] = 0.0
        row[[0, 1 + rel, o_seat + s, o_loc + li]] = 1.0
        row[o_type:o_loc] = feats[1:]
        row[o_hp:o_hp + 6] = (hp / mh if mh else 0.0, min(mh, 20) / 20, stealth, exposed, subtle,
                              done)
        base = self.layout.start["locations"] + li * self.loc_row + F + 3 + s \
            if type_id == BASE_OF_INFLUENCE else -1
        info = self._row_of[key] = self._row_info[b] = (b, li, base)
        return info



@dataclass(frozen=True)
class _Seating:
    """One observer's facts for a game: its seat, its observation template (rulers, coastlines,
    relations and the asset types filled in), each faction's (relation, relative seat) as seen
    from it, and the positions of the values :meth:`WwnCodec.observe` lists in a fixed order."""

    seat: int
    template: np.ndarray
    owner_code: dict[str, tuple[int, int]]
    fixed: np.ndarray
    counts: np.ndarray  # the positions of the assets counted per location (own, then others')
    count_positions: list[int]  # the same as Python ints (for scalar writes)


class _AssetPart:
    """The asset part of one observer's observation (see :meth:`WwnCodec._current_part`) and
    what it was built from."""

    __slots__ = ("own_rows", "other_rows", "own_counts", "other_counts", "bases", "done",
                 "other_ids", "token", "version", "changes", "acted", "base", "seating",
                 "own_n", "other_n", "other_slot", "log", "own_ids")

    def __init__(self, own_rows: list[int], other_rows: list[int], own_counts: list[float],
                 other_counts: list[float], bases: list[int], done: set[str],
                 other_ids: tuple[str, ...]):
        self.own_rows, self.other_rows, self.other_ids = own_rows, other_rows, other_ids
        self.own_counts, self.other_counts = own_counts, other_counts
        self.bases, self.done = bases, done
        self.base: np.ndarray | None = None  # see WwnCodec._part_base (made when first observed)
        self.seating: _Seating | None = None  # the seating it was built with
        #: what it was built from (see ``WwnCodec._current_part``)
        self.token: object = None
        self.version = self.changes = -1
        self.acted: tuple[tuple[Any, ...], ...] = ()
        self.log = -1  # ASSET_LOG's position when it was last brought up to date
        #: the numbers of own and others' assets in each location (``own_counts`` and
        #: ``other_counts`` are their values in the observation)
        self.own_n: list[int] = []
        self.other_n: list[int] = []
        self.other_slot: dict[str, int] | None = None  # other_ids -> row (made when needed)
        self.own_ids: tuple[str, ...] = ()  # the ids of the own assets, in row order

    def holds(self, token: object, version: int, changes: int) -> bool:
        """Whether it was built or brought up to date for this ``assets_stamp()``."""
        return self.token is token and self.version == version and self.changes == changes


class _ChoiceTable:
    """One actor's goal choices and other actions by object (see
    :meth:`WwnCodec._choice_table`): ``index`` (id -> catalogue index), ``keep`` (id -> the
    object, which keeps the id its own), ``by_row`` (the ids whose index is an asset target's
    row among ``other_ids``)."""

    __slots__ = ("other_ids", "index", "keep", "by_row")

    def __init__(self, other_ids: tuple[str, ...]):
        self.other_ids = other_ids
        self.index: dict[int, int] = {}
        self.keep: dict[int, Any] = {}
        self.by_row: list[int] = []
