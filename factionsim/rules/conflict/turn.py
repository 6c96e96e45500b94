"""A conflict round as a sequence of decision points (seed 004, "Turns and Rounds").

1. **Plan** (``plan`` phase): every side, heroes first, gives each of its characters an
   initiative category (stand / aid / harm / spell / move); the order in which a side plans its
   characters is their order within a category. Enemy plans stay hidden until a character acts.
2. **Categories** (``act`` phase) in order 1..5. Within a category the heroes' characters act
   before the others; sides of the same kind go in file order. If the heroes were surprised,
   the first round is played in two passes: every category for the others first, then every
   category for the surprised ("all non-hero actions resolve first in the first round"). At
   its turn a character takes one action of its category (with its free movement), holds (free
   movement only), or changes its plan to a *later* category (never a past one).
   At the start of each category after the first of a pass (``replan`` phase), each side may
   also move characters that planned a later category into this one: plans change "any time",
   only never back to a past category.
3. Mid-action questions (``state.question`` set; the phase stays as it was): a tied check
   (succeed with a consequence or fail with an opportunity) and, after a failed check,
   sacrificing a minor Bond level for a reroll.

Each action becomes a short list of *jobs* (plain data, saved with the state): a check, then its
effect. A decision with exactly one legal action is applied automatically.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from factionsim.core.ending import game_end
from factionsim.core.engine import stop_or_force
from factionsim.core.game import Action, Event, choice_table

from . import actions as A
from . import checks
from .model import (
    ACTIVE,
    ADVANTAGE_SKILLS,
    CATEGORIES,
    FALLEN,
    FLED,
    HARM_SKILLS,
    MOVE_SKILLS,
    PARLEY_SKILL,
    REMOVE_SKILLS,
    YIELDED,
    Character,
)

if TYPE_CHECKING:
    from .state import ConflictState

TURN_START = "turn-start"
PLAN = "plan"
ACT = "act"
REPLAN = "replan"
N_CATEGORIES = len(CATEGORIES)


# ======================================================================== helpers
def ev(state: ConflictState, kind: str, char: Character | None, **data: Any) -> Event:
    return Event(state.current_turn, kind, char.side if char else None,
                 {**({"char": char.id} if char else {}), **data})


def side_priority(state: ConflictState) -> list[str]:
    """Sides in acting order within a category: heroes first, then file order ("Hero actions
    always resolve before non-hero actions"). Fixed for the game (a side's ``heroes`` is the
    scenario's): kept on the state (do not modify it)."""
    kept = state._priority
    if kept[0] is state.factions:
        return kept[1]
    index = {sid: i for i, sid in enumerate(state.factions)}
    out = sorted(state.factions, key=lambda sid: (int(not state.factions[sid].heroes), index[sid]))
    state._priority = (state.factions, out)
    return out


def passes(state: ConflictState) -> list[list[str]]:
    """The passes of this round through the five categories, each a list of sides: one pass,
    except in the first round when some side was taken by surprise: the others go through every
    category first, then the surprised ("unless the party was taken by surprise, in which case
    all non-hero actions resolve first in the first round").

    A side's ``heroes`` and ``surprised`` are fixed for the game (the scenario's), so the answer
    depends only on whether this is the first round: it is kept on the state for each (do not
    modify it)."""
    factions, first = state.factions, state.turn == 0
    kept = state._passes
    if kept[0] is factions and kept[1] is first:
        return kept[2]
    out = _passes(state, first)
    state._passes = (factions, first, out)
    return out


def _passes(state: ConflictState, first: bool) -> list[list[str]]:
    order = side_priority(state)
    surprised = [sid for sid in order if state.factions[sid].surprised]
    if first and surprised and len(surprised) < len(order):
        return [[sid for sid in order if sid not in surprised], surprised]
    return [list(order)]


def category_of(state: ConflictState) -> str:
    """The initiative category being resolved (``state.category`` counts across passes)."""
    return CATEGORIES[state.category % N_CATEGORIES]


def in_pass(state: ConflictState, c: Character) -> bool:
    """Does ``c``'s side act in the pass now under way?"""
    return c.side in passes(state)[min(state.category // N_CATEGORIES, len(passes(state)) - 1)]


def is_ahead(state: ConflictState, c: Character, category: str,
             round_passes: list[list[str]] | None = None) -> bool:
    """Has ``category`` not begun yet for ``c``'s side this round? (``round_passes``:
    ``passes(state)`` when the caller has it already.)"""
    if state.phase not in (ACT, REPLAN):
        return True
    p = next(i for i, sides in enumerate(round_passes or passes(state)) if c.side in sides)
    now = state.category // N_CATEGORIES
    return p > now or (p == now and CATEGORIES.index(category) > state.category % N_CATEGORIES)


def enemies(state: ConflictState, c: Character) -> list[Character]:
    # (here and in the other hot listings ``status == ACTIVE`` is ``Character.active`` read
    # without a property call)
    return [o for o in state.chars.values() if o.status == ACTIVE and o.side != c.side]


def allies(state: ConflictState, c: Character, include_self: bool = False) -> list[Character]:
    return [o for o in state.chars.values() if o.status == ACTIVE and o.side == c.side
            and (include_self or o.id != c.id)]


def dist(a: Character, b: Character) -> int:
    return abs(a.position - b.position)


def free_move(state: ConflictState, c: Character) -> int:
    return state.settings["injured_free_move"] if c.blood <= 0 else state.settings["free_move"]


def reach(state: ConflictState, c: Character, pool: str) -> int:
    if pool == "blood":
        return c.reach if c.reach is not None else state.settings["reach"]
    return state.settings["guts_range"]


def in_range(state: ConflictState, c: Character, t: Character, rng: int) -> bool:
    """Within ``rng`` heights of ``t`` after ``c``'s free movement."""
    return dist(c, t) <= rng + free_move(state, c)


def approach(state: ConflictState, c: Character, t: Character, rng: int, events: list[Event]) -> None:
    """The free move before a targeted action: the shortest move bringing ``t`` within ``rng``."""
    gap = dist(c, t) - rng
    if gap > 0:
        step = min(gap, free_move(state, c))
        move_to(state, c, c.position + (step if t.position > c.position else -step), events)


def move_to(state: ConflictState, c: Character, pos: int, events: list[Event]) -> None:
    c.position = pos
    item = state.item
    if item is not None and item.get("holder") is None and item.get("position") == pos and c.active:
        item["holder"] = c.id
        events.append(ev(state, "item", c, action="picked", item=item["name"], position=pos))
    _check_carry(state, events)


def bond_steps(state: ConflictState, a: str, b: str) -> int:
    return state.bonds.get(frozenset((a, b)), 0)


def major_bond(state: ConflictState, a: str, b: str) -> int:
    return bond_steps(state, a, b) // state.settings["minor_per_major"]


def advantage_bonus(state: ConflictState, c: Character, t: Character | None) -> tuple[int, list[str]]:
    """Advantages of ``c``'s allies (not its own) on ``t``: the TN bonus and their ids.

    "Advantages from different allies may stack" [text]: each ally's best Advantage on ``t``
    counts, one per ally [ours: an ally's several Advantages on one target do not add up]."""
    if t is None:
        return 0, []
    best: dict[str, dict[str, Any]] = {}
    for a in state.advantages:
        if a["side"] == c.side and a["by"] != c.id and t.id in a["targets"] \
                and (a["by"] not in best or a["bonus"] > best[a["by"]]["bonus"]):
            best[a["by"]] = a
    return sum(a["bonus"] for a in best.values()), [a["id"] for a in best.values()]


def protected(state: ConflictState, t: Character) -> list[str]:
    """Characters standing ground within the radius of ``t`` on its side (itself included); each
    gives its -1: "Any one attacking you or allies within a 2-height radius receive -1" [text]."""
    r = state.settings["stand_radius"]
    return [o.id for o in state.chars.values() if o.status == ACTIVE and o.standing and o.side == t.side
            and dist(o, t) <= r]


def take_bonuses(c: Character, skill: str, state: ConflictState) -> dict[str, int]:
    """Assist and opportunity bonuses for ``c``'s next check (used up now)."""
    assist = sum(bonus for helper, bonus in c.assists
                 if state.chars[helper].rank(skill) >= 1)
    opp = c.opportunity
    if c.assists:  # (written only where it changes: see clear_round)
        c.assists = []
    if opp:
        c.opportunity = 0
    return {"assist": assist, "opportunity": opp}


def best_skill(c: Character, skills: tuple[str, ...]) -> str:
    return max(skills, key=lambda s: (c.rank(s), -skills.index(s)))


def tn_of(parts: dict[str, int]) -> int:
    return sum(parts.values())


# ======================================================================== damage and falling
def damage(state: ConflictState, t: Character, pool: str, amount: int,
           events: list[Event]) -> dict[str, Any]:
    """Take ``amount`` from ``pool``; what goes beyond 0 lowers Approach Scores (the highest
    first, one point each) [text + ours]; all Approaches at 0: the character falls."""
    have = t.pool(pool)
    taken = min(have, amount)
    if pool == "blood":
        t.blood -= taken
    else:
        t.guts -= taken
    excess = amount - taken
    lost: dict[str, int] = {}
    while excess > 0 and any(t.approaches.values()):
        name = t.best_approach_name()
        t.approaches[name] -= 1
        t.changed()
        lost[name] = lost.get(name, 0) + 1
        excess -= 1
    out = {"damage": amount, "left": t.pool(pool)}
    if lost:
        out["approaches_lost"] = lost
    if not any(t.approaches.values()) and t.active:
        leave(state, t, FALLEN, events)
        out["fell"] = True
    return out


def leave(state: ConflictState, c: Character, status: str, events: list[Event]) -> None:
    """``c`` falls, flees or stands down; a carried item drops where it stood."""
    c.status = status
    events.append(ev(state, status, c, position=c.position))
    item = state.item
    if item is not None and item.get("holder") == c.id:
        item["holder"] = None
        item["position"] = min(max(c.position, 0), state.settings["length"])
        events.append(ev(state, "item", c, action="dropped", item=item["name"],
                         position=item["position"]))
    state.refresh_sides()
    check_end(state, events)


def check_end(state: ConflictState, events: list[Event]) -> None:
    """A side left alone (the others fell or fled) wins."""
    if state.winner is not None or state.ended:
        return
    standing = [sid for sid, s in state.factions.items() if s.alive]
    if len(standing) <= 1:
        fled = any(c.status == FLED for c in state.chars.values() if c.side not in standing)
        end(state, standing[0] if standing else None, "fled" if fled else "fell", events)


def end(state: ConflictState, winner: str | None, reason: str, events: list[Event]) -> None:
    state.winner = winner
    state.ended = True
    state.end_reason = reason
    events.append(Event(state.current_turn, "conflict-end", winner,
                        {"winner": winner, "reason": reason}))


def _check_carry(state: ConflictState, events: list[Event]) -> None:
    obj, item = state.objective, state.item
    if obj is None or obj["type"] != "carry" or item is None or item.get("holder") is None:
        return
    holder = state.chars[item["holder"]]
    to = obj["to"]
    crossed = holder.position >= to if obj["direction"] > 0 else holder.position <= to
    if holder.side == obj["side"] and holder.active and crossed:
        end(state, obj["side"], "carried", events)


# ======================================================================== automatic steps
def settle(state: ConflictState, start_turn: bool = True) -> list[Event]:
    """Run automatic steps and forced decisions until a real decision (or the end of a round
    when ``start_turn`` is False)."""
    events: list[Event] = []
    while True:
        if state.ended and state.phase != TURN_START:
            close_round(state, events)
            continue
        if state.question is None and state.jobs:
            run_job(state, events)
            continue
        if state.phase == TURN_START:
            if not start_turn or state.is_over():
                state.actor = None
                return events
            start_round(state, events)
            continue
        if state.phase == ACT and state.question is None and state.current is None:
            next_character(state, events)
            continue
        if state.phase == REPLAN and state.question is None:
            if not state.ctx.get("replan"):
                open_category(state, events)
                continue
            state.actor = state.ctx["replan"][0]
        if state.phase == PLAN and state.question is None:
            side = planning_side(state)
            if side is None:
                begin_category(state, 0, events)
                continue
            state.actor = side
        if stop_or_force(state, legal_actions, apply, events):
            return events


def clear_round(state: ConflictState) -> None:
    """Every character's round in progress back to its start: no plan, not acted, targeted or
    standing, no attack taken, concentration whole, no assist. Written only where a value
    differs: each write of a character counts (``Character.writes``) and makes the env build
    its row again."""
    for c in state.chars.values():
        if c.plan is not None or c.acted or c.targeted or c.standing:
            c.plan, c.acted, c.targeted, c.standing = None, False, False, False
        if c.attacks_taken or c.concentration_broken or c.assists:
            c.attacks_taken, c.concentration_broken, c.assists = 0, False, []


def start_round(state: ConflictState, events: list[Event]) -> None:
    clear_round(state)
    state.plan_order = []
    order = [sid for p in passes(state) for sid in p]
    labels = {}
    for sid in order:
        s = state.factions[sid]
        if not s.alive:
            continue
        labels[sid] = ("surprised" if state.turn == 0 and s.surprised else
                       "heroes" if s.heroes else "foes")
    events.append(Event(state.current_turn, "round", None,
                        {"order": [sid for sid in order if sid in labels], "labels": labels}))
    state.phase = PLAN


def planning_side(state: ConflictState) -> str | None:
    for sid in side_priority(state):
        if any(state.chars[c].status == ACTIVE and state.chars[c].plan is None
               for c in state.factions[sid].characters):
            return sid
    return None


def begin_category(state: ConflictState, index: int, events: list[Event]) -> None:
    """Category ``index`` (counted across the passes of the round) begins: first the sides that
    could move a character into it decide (``replan``), then its queue is formed."""
    state.phase = ACT
    state.category = index
    state.current = None
    state.queue = []
    if index % N_CATEGORIES:  # the first category of a pass comes right after the plans
        sides = [sid for sid in passes(state)[index // N_CATEGORIES] if pull_candidates(state, sid)]
        if sides:
            state.phase = REPLAN
            state.ctx["replan"] = sides
            return
    open_category(state, events)


def pull_candidates(state: ConflictState, side: str) -> list[Character]:
    """``side``'s characters that planned a later category and may change their plan to the one
    now beginning ("players can change their plan for their turn any time")."""
    now = state.category % N_CATEGORIES
    cat = CATEGORIES[now]
    return [c for c in (state.chars[cid] for cid in state.factions[side].characters)
            if c.status == ACTIVE and not c.acted and c.plan is not None and CATEGORIES.index(c.plan) > now
            and (cat != "spell" or can_cast(c))]


def open_category(state: ConflictState, events: list[Event]) -> None:
    """Form the queue of the category now beginning: its characters of the sides in this pass,
    heroes' first, each side in the order it planned."""
    state.phase = ACT
    state.ctx.pop("replan", None)
    cat = category_of(state)
    sides = passes(state)[state.category // N_CATEGORIES]
    rank = {sid: i for i, sid in enumerate(sides)}
    order = {cid: i for i, cid in enumerate(state.plan_order)}
    queue = [c.id for c in state.chars.values()
             if c.status == ACTIVE and c.plan == cat and not c.acted and c.side in rank]
    queue.sort(key=lambda cid: (rank[state.chars[cid].side], order.get(cid, 0)))
    state.queue = queue
    state.current = None
    if queue:
        events.append(Event(state.current_turn, "category", None,
                            {"category": cat, "order": list(queue)}))


def next_character(state: ConflictState, events: list[Event]) -> None:
    while state.queue:
        cid = state.queue.pop(0)
        c = state.chars[cid]
        if c.status == ACTIVE and not c.acted and c.plan == category_of(state):
            state.current = cid
            state.actor = c.side
            return
    if state.category + 1 < N_CATEGORIES * len(passes(state)):
        begin_category(state, state.category + 1, events)
    else:
        close_round(state, events)


def close_round(state: ConflictState, events: list[Event]) -> None:
    """End of the round: Advantages and assists expire, objectives are checked, turn += 1."""
    rnd = state.current_turn
    if not state.ended:
        for adv in list(state.advantages):
            if adv.get("until") is not None and adv["until"] <= rnd:
                state.advantages.remove(adv)
                events.append(Event(rnd, "advantage-expired", adv["side"], {"advantage": adv["id"]}))
            elif not any(state.chars[t].active for t in adv["targets"]):
                state.advantages.remove(adv)  # on no one left in the conflict: nothing to tell
        obj = state.objective
        if obj is not None and obj["type"] == "survive" and rnd >= obj["rounds"] \
                and state.factions[obj["side"]].alive:
            end(state, obj["side"], "survived", events)
    state.jobs, state.question, state.queue, state.current = [], None, [], None
    state.ctx = {}  # a saved file keeps no in-round context between rounds: nor does play
    clear_round(state)
    state.plan_order = []
    state.turn += 1
    state.phase = TURN_START
    state.actor = None
    state.category = 0
    state.ctx.pop("replan", None)
    events.append(Event(state.turn, "turn-end", None, {"sides": state.faction_summary()}))
    if not state.ended and state.is_over():  # the round cap: the conflict stops undecided
        events.append(game_end(state, "cap"))


# ======================================================================== legal actions
#: the one object of each choice the rules offered so far in this process (actions are
#: immutable values; all but Remove, whose catalogue index depends on the Advantages in play):
#: the env encodes an object it has met before with one lookup by identity
_choice = choice_table()


def legal_actions(state: ConflictState) -> list[Action]:
    if state.question is not None:
        return question_actions(state)
    if state.phase == PLAN:
        return plan_actions(state, state.actor)
    if state.phase == REPLAN and state.actor is not None:
        cat = category_of(state)
        return [*(_choice(A.Replan, c.id, cat) for c in pull_candidates(state, state.actor)),
                _choice(A.Proceed, state.actor)]
    if state.phase == ACT and state.current is not None:
        return turn_actions(state, state.chars[state.current])
    return []


def question_actions(state: ConflictState) -> list[Action]:
    q = state.question
    assert q is not None
    if q["kind"] == "tie":
        return [_choice(A.TieChoice, q["char"], "succeed"), _choice(A.TieChoice, q["char"], "fail")]
    return [*(_choice(A.Reroll, q["char"], p) for p in q["partners"]), _choice(A.Accept, q["char"])]


def can_cast(c: Character) -> bool:
    return any(s.uses > 0 for s in c.spells)


def plan_actions(state: ConflictState, side: str | None) -> list[Action]:
    out: list[Action] = []
    if side is None:
        return out
    for cid in state.factions[side].characters:
        c = state.chars[cid]
        if c.status != ACTIVE or c.plan is not None:
            continue
        out += _choice(_each, A.Plan, cid, _PLANNABLE[can_cast(c)])
    return out


def shifts(state: ConflictState, c: Character) -> list[int]:
    """Free moves that stay on the field (free movement cannot flee) [text]."""
    fm = free_move(state, c)
    length = state.settings["length"]
    return [d for d in range(-fm, fm + 1) if 0 <= c.position + d <= length]


def _shift_range(state: ConflictState, c: Character) -> range:
    """:func:`shifts` as a range (they are consecutive)."""
    fm = free_move(state, c)
    return range(max(-fm, -c.position), min(fm, state.settings["length"] - c.position) + 1)


def _each(kind: type[Action], char: str, values: Any) -> tuple[Action, ...]:
    """``kind(char, v)`` for each of ``values``, each the one object of its choice; made once
    for each ``(kind, char, values)`` through :func:`_choice` itself (a goal step offers the
    same plans, holds and changes of plan again and again)."""
    return tuple(_choice(kind, char, v) for v in values)


def _advantages(char: str, target: str, skills: tuple[str, ...]) -> tuple[Action, ...]:
    """``char``'s Advantages with each of ``skills`` on ``target`` (made once per the three,
    through :func:`_choice`)."""
    return tuple(_choice(A.Advantage, char, sk, target) for sk in skills)


_NO_RANKS = (0,) * len(ADVANTAGE_SKILLS)  # (``Character.rank``'s default for each skill)
#: the categories a character may plan, by whether it can cast (:func:`can_cast`)
_PLANNABLE = {castable: tuple(cat for cat in CATEGORIES if cat != "spell" or castable)
              for castable in (False, True)}
#: the categories after category ``i`` a character may change its plan to, by whether it can
#: cast and ``i``
_LATER = {castable: [tuple(cat for cat in CATEGORIES[i + 1:] if cat != "spell" or castable)
                     for i in range(len(CATEGORIES))] for castable in (False, True)}


def likely(state: ConflictState, c: Character, t: Character, rank: int | None = None) -> bool:
    """"If your action is basic or already likely to succeed ... you can create the Advantage
    without a Skill Check" [text]: the character's best check to create an Advantage on ``t``
    would have a TN of at least ``likely_tn`` (5: four rolls in six succeed) [ours]. ``rank``:
    the character's best rank of :data:`ADVANTAGE_SKILLS`, when the caller has it."""
    if rank is None:
        rank = max(c.rank(sk) for sk in ADVANTAGE_SKILLS)
    return rank >= 1 and (rank + c.best_approach() + advantage_bonus(state, c, t)[0]
                          >= state.settings["likely_tn"])


def turn_actions(state: ConflictState, c: Character) -> list[Action]:
    cat = category_of(state)
    out: list[Action] = []
    s = state.settings
    foes = enemies(state, c)
    if cat == "stand":
        out += _choice(_each, A.Stand, c.id, _shift_range(state, c))
    elif cat == "aid":
        # (the character's ranks looked up once, not once per foe: ``Character.rank`` of each;
        # ``in_range`` worked out inline, with the free move read once)
        ranks = list(map(int, map(c.skills.get, ADVANTAGE_SKILLS, _NO_RANKS)))
        skills = tuple(sk for sk, rank in zip(ADVANTAGE_SKILLS, ranks, strict=True) if rank >= 1)
        best = max(ranks)
        moved = free_move(state, c)
        aid_range, reach_range = s["aid_range"] + moved, s["reach"] + moved
        for t in foes:
            gap = abs(c.position - t.position)
            if gap <= aid_range:
                out += _choice(_advantages, c.id, t.id, skills)
                if t.guts <= s["parley_fraction"] * t.max_guts and c.rank(PARLEY_SKILL) >= 1:
                    out.append(_choice(A.Parley, c.id, t.id))
            if gap <= reach_range:
                if likely(state, c, t, best):
                    out.append(_choice(A.Trick, c.id, "impair", t.id))
                out += [_choice(A.Trick, c.id, tr, t.id) for tr in c.tricks]
        if state.factions[c.side].heroes:
            for a in allies(state, c):
                if state.factions[a.side].heroes and major_bond(state, c.id, a.id) >= 1 \
                        and in_range(state, c, a, s["aid_range"]):
                    out.append(_choice(A.Assist, c.id, a.id))
        out += [A.Remove(c.id, adv["id"]) for adv in state.advantages if adv["side"] != c.side]
        obj = state.objective
        if obj is not None and obj["type"] == "ritual" and obj["side"] == c.side \
                and abs(c.position - obj["at"]) <= free_move(state, c) + s["stand_radius"]:
            out.append(_choice(A.Ritual, c.id))
    elif cat == "harm":
        moved = free_move(state, c)  # (``in_range`` inline, as above)
        reaches = [(sk, reach(state, c, pool) + moved) for sk, pool in HARM_SKILLS.items()]
        for t in foes:
            gap = abs(c.position - t.position)
            for sk, rng in reaches:
                if gap <= rng:
                    out.append(_choice(A.Harm, c.id, t.id, sk))
            for sk, pool in t.vulnerable.items():
                if c.rank(sk) >= 1 and in_range(state, c, t, reach(state, c, pool)):
                    out.append(_choice(A.Harm, c.id, t.id, sk))
    elif cat == "spell":
        for sp in c.spells:
            if sp.uses <= 0:
                continue
            targets = allies(state, c, include_self=True) if sp.effect == "heal" else foes
            out += [_choice(A.Cast, c.id, sp.id, t.id) for t in targets if in_range(state, c, t, sp.range)]
    elif cat == "move":
        out += dash_actions(state, c)
    out += _choice(_each, A.Hold, c.id, _shift_range(state, c))
    out += _choice(_each, A.Replan, c.id, _LATER[can_cast(c)][state.category % N_CATEGORIES])
    return out


def engaged(state: ConflictState, c: Character) -> bool:
    """"Being attacked or targeted": an enemy acted on ``c`` this round or stands within 2
    heights [ours]."""
    return c.targeted or any(dist(c, e) <= state.settings["engaged_radius"] for e in enemies(state, c))


def dash_actions(state: ConflictState, c: Character) -> list[Action]:
    s = state.settings
    fm = free_move(state, c)
    modes = ("check", "break") if engaged(state, c) else ("free",)
    out: list[Action] = []
    for sign in (1, -1):
        for n in range(fm + 1, fm + s["far_move"] + 1):
            dest = c.position + sign * n
            out += [_choice(A.Dash, c.id, sign * n, m) for m in modes]
            if dest < 0 or dest > s["length"]:
                break  # past the edge: flee (one option per direction)
    return out


# ======================================================================== applying decisions
def apply(state: ConflictState, action: Action, events: list[Event]) -> None:
    state._legal = None
    if state.question is not None:
        answer(state, action, events)
        return
    if isinstance(action, A.Plan):
        state.chars[action.char].plan = action.category
        state.plan_order.append(action.char)
        return
    if state.phase == REPLAN:
        if isinstance(action, A.Proceed):
            state.ctx["replan"].pop(0)
            state.actor = None
        else:
            c = state.chars[action.char]  # type: ignore[attr-defined]
            events.append(ev(state, "replan", c, **{"from": c.plan, "to": action.category}))
            c.plan = action.category  # type: ignore[attr-defined]
        return
    c = state.chars[action.char]  # type: ignore[attr-defined]
    if isinstance(action, A.Replan):
        events.append(ev(state, "replan", c, **{"from": c.plan, "to": action.category}))
        c.plan = action.category
        state.plan_order.remove(c.id) if c.id in state.plan_order else None
        state.plan_order.append(c.id)
        state.current = None
        return
    state.jobs.append({"job": "end-turn", "char": c.id})
    _ACTIONS[type(action)](state, c, action, events)


def _hold(state: ConflictState, c: Character, a: A.Hold, events: list[Event]) -> None:
    start = c.position
    move_to(state, c, c.position + a.shift, events)
    events.append(ev(state, "hold", c, **{"from": start, "to": c.position}))


def _stand(state: ConflictState, c: Character, a: A.Stand, events: list[Event]) -> None:
    start = c.position
    move_to(state, c, c.position + a.shift, events)
    c.standing = True
    events.append(ev(state, "stand", c, **{"from": start, "to": c.position}))


def _harm(state: ConflictState, c: Character, a: A.Harm, events: list[Event]) -> None:
    t = state.chars[a.target]
    pool = HARM_SKILLS.get(a.skill) or t.vulnerable[a.skill]
    approach(state, c, t, reach(state, c, pool), events)
    push_attack(state, c, t, a.skill, pool, "harm")


def push_attack(state: ConflictState, c: Character, t: Character, skill: str, pool: str,
                kind: str, front: bool = False) -> None:
    """An attack: the TN of its check [text: rank + approach + difficulty + Advantages + Assist,
    less the defense item and stand ground], then the hit."""
    s = state.settings
    t.targeted = True
    adv, adv_ids = advantage_bonus(state, c, t)
    protectors = protected(state, t)
    parts = {"rank": c.rank(skill), "approach": c.best_approach(),
             "difficulty": s["unarmed"] if skill == "weaponry" and c.weapon is None else 0,
             "advantages": adv, **take_bonuses(c, skill, state),
             "defense": -(t.armor if pool == "blood" else t.ward),
             "stand": -s["stand_penalty"] * len(protectors)}
    item = (c.weapon or 0) if pool == "blood" else c.talisman
    jobs = [{"job": "check", "char": c.id, "skill": skill, "parts": parts},
            {"job": "hit", "char": c.id, "target": t.id, "skill": skill, "pool": pool, "item": item,
             "kind": kind, "advantages_used": adv_ids,
             "protectors": [p for p in protectors if p != t.id]}]
    if front:
        state.jobs[0:0] = jobs
    else:
        state.jobs.extend(jobs)


def _advantage(state: ConflictState, c: Character, a: A.Advantage, events: list[Event]) -> None:
    t = state.chars[a.target]
    approach(state, c, t, state.settings["aid_range"], events)
    t.targeted = True
    adv, _ = advantage_bonus(state, c, t)
    parts = {"rank": c.rank(a.skill), "approach": c.best_approach(), "advantages": adv,
             **take_bonuses(c, a.skill, state)}
    state.jobs += [{"job": "check", "char": c.id, "skill": a.skill, "parts": parts},
                   {"job": "advantage", "char": c.id, "skill": a.skill, "targets": [t.id],
                    "bonus": c.rank(a.skill)}]


def _trick(state: ConflictState, c: Character, a: A.Trick, events: list[Event]) -> None:
    t = state.chars[a.target]
    approach(state, c, t, state.settings["reach"], events)
    t.targeted = True
    bonus = 1 if a.trick == "impair" else c.tricks[a.trick]
    create_advantage(state, c, [t.id], bonus, events, trick=a.trick)


def create_advantage(state: ConflictState, c: Character, targets: list[str], bonus: int,
                     events: list[Event], **data: Any) -> None:
    """A new Advantage of ``c``'s side on ``targets``. It lasts until an enemy removes it [text]
    (or, with ``advantage_rounds`` N > 0, to the end of the N-th round). A character's new
    Advantage on the very same targets as one of its own renews that one (the larger bonus
    stays) [ours: one creator's Advantages do not stack]."""
    rounds = state.settings["advantage_rounds"]
    until = state.current_turn + rounds - 1 if rounds else None
    adv = next((a for a in state.advantages if a["by"] == c.id and a["targets"] == targets), None)
    if adv is None:
        adv = {"id": f"adv#{state.next_advantage}", "side": c.side, "by": c.id,
               "targets": targets, "bonus": bonus, "until": until}
        state.next_advantage += 1
        state.advantages.append(adv)
    else:
        adv["bonus"] = max(adv["bonus"], bonus)
        adv["until"] = until
    events.append(ev(state, "advantage", c, advantage=adv["id"], targets=targets,
                     bonus=adv["bonus"], until=adv["until"], **data))


def _assist(state: ConflictState, c: Character, a: A.Assist, events: list[Event]) -> None:
    ally = state.chars[a.ally]
    approach(state, c, ally, state.settings["aid_range"], events)
    bonus = major_bond(state, c.id, ally.id)
    ally.assists.append([c.id, bonus])
    ally.changed()
    events.append(ev(state, "assist", c, ally=ally.id, bonus=bonus))


def _remove(state: ConflictState, c: Character, a: A.Remove, events: list[Event]) -> None:
    skill = best_skill(c, REMOVE_SKILLS)
    parts = {"rank": c.rank(skill), "approach": c.best_approach(), **take_bonuses(c, skill, state)}
    state.jobs += [{"job": "check", "char": c.id, "skill": skill, "parts": parts},
                   {"job": "remove", "char": c.id, "advantage": a.advantage, "skill": skill}]


def _ritual(state: ConflictState, c: Character, a: A.Ritual, events: list[Event]) -> None:
    obj = state.objective
    assert obj is not None
    gap = abs(c.position - obj["at"]) - state.settings["stand_radius"]
    if gap > 0:
        move_to(state, c, c.position + (gap if obj["at"] > c.position else -gap), events)
    skill = obj.get("skill", "arcana")
    parts = {"rank": c.rank(skill), "approach": c.best_approach(), **take_bonuses(c, skill, state)}
    state.jobs += [{"job": "check", "char": c.id, "skill": skill, "parts": parts},
                   {"job": "ritual", "char": c.id, "skill": skill}]


def _parley(state: ConflictState, c: Character, a: A.Parley, events: list[Event]) -> None:
    t = state.chars[a.target]
    approach(state, c, t, state.settings["aid_range"], events)
    t.targeted = True
    adv, _ = advantage_bonus(state, c, t)
    parts = {"rank": c.rank(PARLEY_SKILL), "approach": c.best_approach(), "advantages": adv,
             **take_bonuses(c, PARLEY_SKILL, state), "defense": -t.ward}
    state.jobs += [{"job": "check", "char": c.id, "skill": PARLEY_SKILL, "parts": parts},
                   {"job": "parley", "char": c.id, "target": t.id}]


def _cast(state: ConflictState, c: Character, a: A.Cast, events: list[Event]) -> None:
    spell = next(sp for sp in c.spells if sp.id == a.spell and sp.uses > 0)
    t = state.chars[a.target]
    if c.concentration_broken:
        events.append(ev(state, "spell-broken", c, spell=spell.id, target=t.id))
        return
    approach(state, c, t, spell.range, events)
    spell.uses -= 1
    c.changed()
    data: dict[str, Any] = {"spell": spell.id, "target": t.id, "effect": spell.effect,
                            "power": spell.power, "uses_left": spell.uses}
    if spell.effect == "heal":
        limit = t.max_blood if spell.pool == "blood" else t.max_guts
        before = t.pool(spell.pool)
        setattr(t, spell.pool, min(limit, before + spell.power))
        events.append(ev(state, "cast", c, **data, pool=spell.pool, healed=t.pool(spell.pool) - before,
                         left=t.pool(spell.pool)))
    elif spell.effect == "advantage":
        r = state.settings["stand_radius"]
        targets = [o.id for o in enemies(state, c) if dist(o, t) <= r]
        for o in targets:
            state.chars[o].targeted = True
        events.append(ev(state, "cast", c, **data))
        create_advantage(state, c, targets, spell.power, events, spell=spell.id)
    else:
        t.targeted = True
        hit_events: list[Event] = []
        result = damage(state, t, spell.pool, spell.power, hit_events)
        events.append(ev(state, "cast", c, **data, pool=spell.pool, **result))
        events.extend(hit_events)
        if not state.ended:
            attacked(state, t, events)


def _dash(state: ConflictState, c: Character, a: A.Dash, events: list[Event]) -> None:
    if a.mode == "free":
        state.jobs.append({"job": "move", "char": c.id, "shift": a.shift, "mode": "free"})
    elif a.mode == "check":
        skill = best_skill(c, MOVE_SKILLS)
        parts = {"rank": c.rank(skill), "approach": c.best_approach(), **take_bonuses(c, skill, state)}
        state.jobs += [{"job": "check", "char": c.id, "skill": skill, "parts": parts},
                       {"job": "move", "char": c.id, "shift": a.shift, "mode": "check"}]
    else:
        r = state.settings["aoo_radius"]
        for e in enemies(state, c):
            if dist(e, c) <= r:
                skill = "weaponry" if e.weapon is not None and e.rank("weaponry") >= e.rank("physique") \
                    else "physique"
                push_attack(state, e, c, skill, "blood", "opportunity")
        state.jobs.append({"job": "move", "char": c.id, "shift": a.shift, "mode": "break"})


_ACTIONS = {A.Hold: _hold, A.Stand: _stand, A.Harm: _harm, A.Advantage: _advantage, A.Trick: _trick,
            A.Assist: _assist, A.Remove: _remove, A.Ritual: _ritual, A.Parley: _parley, A.Cast: _cast,
            A.Dash: _dash}


# ======================================================================== jobs
def run_job(state: ConflictState, events: list[Event]) -> None:
    job = state.jobs[0]
    if job["job"] == "check":
        if "result" not in job:
            c = state.chars[job["char"]]
            if not c.active:
                state.jobs.pop(0)
                state.ctx["check"] = {"outcome": checks.FAIL, "dice": [], "tn": 0, "skipped": True}
                return
            job["result"] = checks.roll_check(state.rng, tn_of(job["parts"]), c.rank(job["skill"]) >= 1)
            job["rerolls"] = []
        _settle_check(state, job, events)
        return
    state.jobs.pop(0)
    _JOBS[job["job"]](state, job, events)


def _settle_check(state: ConflictState, job: dict[str, Any], events: list[Event]) -> None:
    """Ask about a tie, then about a reroll after a failure; otherwise finish the check."""
    c = state.chars[job["char"]]
    res = job["result"]
    if res["outcome"] == checks.TIE:
        state.question = {"kind": "tie", "char": c.id}
        state.actor = c.side
        return
    if res["outcome"] == checks.FAIL and state.factions[c.side].heroes:
        partners = [o.id for o in state.chars.values() if o.id != c.id and o.side == c.side
                    and bond_steps(state, c.id, o.id) >= 1]
        if partners:
            state.question = {"kind": "reroll", "char": c.id, "partners": partners}
            state.actor = c.side
            return
    state.jobs.pop(0)
    state.ctx["check"] = {**res, "skill": job["skill"], "parts": job["parts"],
                          "rerolls": job.get("rerolls", [])}


def answer(state: ConflictState, action: Action, events: list[Event]) -> None:
    q = state.question
    assert q is not None
    state.question = None
    job = state.jobs[0]
    c = state.chars[q["char"]]
    if isinstance(action, A.TieChoice):
        if action.choice == "succeed":
            job["result"]["outcome"] = checks.CONSEQUENCE
            strain = damage(state, c, "guts", state.settings["tie_strain"], events)
            events.append(ev(state, "tie", c, choice="succeed", skill=job["skill"], **strain))
        else:
            job["result"]["outcome"] = checks.OPPORTUNITY
            c.opportunity = state.settings["opportunity"]
            events.append(ev(state, "tie", c, choice="fail", skill=job["skill"],
                             bonus=c.opportunity))
    elif isinstance(action, A.Reroll):
        key = frozenset((c.id, action.partner))
        state.bonds[key] -= 1
        old = job["result"]
        job["result"] = checks.roll_check(state.rng, old["tn"], c.rank(job["skill"]) >= 1)
        job["rerolls"].append({"dice": old["dice"], "partner": action.partner})
        events.append(ev(state, "reroll", c, partner=action.partner, steps_left=state.bonds[key],
                         dice=old["dice"], new_dice=job["result"]["dice"], tn=old["tn"]))
    else:  # Accept
        job["result"]["accepted"] = True
        state.jobs.pop(0)
        state.ctx["check"] = {**job["result"], "skill": job["skill"], "parts": job["parts"],
                              "rerolls": job.get("rerolls", [])}
        return
    if state.ended:
        return
    if c.active:
        _settle_check(state, job, events)
    else:
        state.jobs.pop(0)
        state.ctx["check"] = {**job["result"], "outcome": checks.FAIL, "skipped": True}


def _check_data(state: ConflictState) -> dict[str, Any]:
    chk = state.ctx["check"]
    return {"skill": chk.get("skill"), "dice": chk["dice"], "tn": chk["tn"],
            "outcome": chk["outcome"], "parts": chk.get("parts", {}),
            **({"rerolls": chk["rerolls"]} if chk.get("rerolls") else {})}


def _job_hit(state: ConflictState, job: dict[str, Any], events: list[Event]) -> None:
    c, t = state.chars[job["char"]], state.chars[job["target"]]
    chk = state.ctx["check"]
    if chk.get("skipped") or not t.active:
        return
    data = {"target": t.id, "pool": job["pool"], "mode": job["kind"], **_check_data(state)}
    ok = checks.succeeded(chk["outcome"])
    if ok:
        amount = max(0, chk["tn"]) + job["item"]
        if chk["outcome"] == checks.FLAWLESS:
            amount += state.settings["flawless_bonus"]
        hit_events: list[Event] = []
        result = damage(state, t, job["pool"], amount, hit_events)
        events.append(ev(state, "attack", c, **data, item=job["item"], success=True, **result))
        events.extend(hit_events)
    else:
        events.append(ev(state, "attack", c, **data, success=False, damage=0))
        if chk.get("parts", {}).get("stand"):
            _foiled(state, t, job["protectors"], events)
    if not state.ended:
        attacked(state, t, events)


def _foiled(state: ConflictState, t: Character, protectors: list[str], events: list[Event]) -> None:
    """Stand ground foiled an attack on an ally: each protecting hero gains a minor Bond level
    with that ally, up to the first major level [text]."""
    if not state.factions[t.side].heroes:
        return
    cap = state.settings["bond_cap"]
    for pid in protectors:
        key = frozenset((pid, t.id))
        if state.bonds.get(key, 0) < cap:
            state.bonds[key] = state.bonds.get(key, 0) + 1
            events.append(ev(state, "bond", state.chars[pid], ally=t.id, steps=state.bonds[key],
                             major=state.bonds[key] // state.settings["minor_per_major"]))


def attacked(state: ConflictState, t: Character, events: list[Event]) -> None:
    """A caster attacked before its turn rolls to keep concentration: TN 6, then 5, 4..."""
    if not t.active or t.plan != "spell" or t.acted:
        return
    t.attacks_taken += 1
    if t.concentration_broken:
        return
    r = checks.concentration_roll(state.rng, t.attacks_taken, state.settings["concentration_tn"])
    if not r["kept"]:
        t.concentration_broken = True
    events.append(ev(state, "concentration", t, attack=t.attacks_taken, **r))


def _job_advantage(state: ConflictState, job: dict[str, Any], events: list[Event]) -> None:
    c = state.chars[job["char"]]
    chk = state.ctx["check"]
    if chk.get("skipped"):
        return
    if checks.succeeded(chk["outcome"]):
        bonus = job["bonus"] + (state.settings["flawless_bonus"] if chk["outcome"] == checks.FLAWLESS else 0)
        targets = [x for x in job["targets"] if state.chars[x].active]
        if targets:
            create_advantage(state, c, targets, bonus, events, **_check_data(state))
            return
    events.append(ev(state, "advantage-failed", c, targets=job["targets"], **_check_data(state)))


def _job_remove(state: ConflictState, job: dict[str, Any], events: list[Event]) -> None:
    c = state.chars[job["char"]]
    chk = state.ctx["check"]
    if chk.get("skipped"):
        return
    ok = checks.succeeded(chk["outcome"])
    adv = next((a for a in state.advantages if a["id"] == job["advantage"]), None)
    if ok and adv is not None:
        state.advantages.remove(adv)
    events.append(ev(state, "remove", c, advantage=job["advantage"], success=ok and adv is not None,
                     **_check_data(state)))


def _job_ritual(state: ConflictState, job: dict[str, Any], events: list[Event]) -> None:
    c = state.chars[job["char"]]
    chk = state.ctx["check"]
    obj = state.objective
    if chk.get("skipped") or obj is None:
        return
    gain = 0
    if checks.succeeded(chk["outcome"]):
        gain = 2 if chk["outcome"] == checks.FLAWLESS else 1
    obj["progress"] = obj.get("progress", 0) + gain
    events.append(ev(state, "ritual", c, progress=obj["progress"], needed=obj["needed"], gain=gain,
                     **_check_data(state)))
    if obj["progress"] >= obj["needed"]:
        end(state, c.side, "ritual", events)


def _job_parley(state: ConflictState, job: dict[str, Any], events: list[Event]) -> None:
    c, t = state.chars[job["char"]], state.chars[job["target"]]
    chk = state.ctx["check"]
    if chk.get("skipped") or not t.active:
        return
    ok = checks.succeeded(chk["outcome"]) and t.guts <= state.settings["parley_fraction"] * t.max_guts
    events.append(ev(state, "parley", c, target=t.id, success=ok, **_check_data(state)))
    if ok:
        leave(state, t, YIELDED, events)


def _job_move(state: ConflictState, job: dict[str, Any], events: list[Event]) -> None:
    c = state.chars[job["char"]]
    if not c.active:
        return
    shift = job["shift"]
    data: dict[str, Any] = {"mode": job["mode"]}
    if job["mode"] == "check":
        data.update(_check_data(state))
        if not checks.succeeded(state.ctx["check"]["outcome"]):
            fm = free_move(state, c)
            shift = fm if shift > 0 else -fm  # held back: only the free movement [ours]
            data["held"] = True
    start = c.position
    dest = start + shift
    length = state.settings["length"]
    on_field = min(max(dest, 0), length)
    events.append(ev(state, "dash", c, **{"from": start, "to": dest}, **data))
    move_to(state, c, on_field, events)
    if (dest < 0 or dest > length) and c.active and not state.ended:
        leave(state, c, FLED, events)


def _job_end_turn(state: ConflictState, job: dict[str, Any], events: list[Event]) -> None:
    c = state.chars[job["char"]]
    c.acted = True
    if state.current == c.id:
        state.current = None


_JOBS = {"hit": _job_hit, "advantage": _job_advantage, "remove": _job_remove,
         "ritual": _job_ritual, "parley": _job_parley, "move": _job_move,
         "end-turn": _job_end_turn}

__all__ = ["ACT", "ACTIVE", "PLAN", "TURN_START", "legal_actions", "settle", "apply"]
