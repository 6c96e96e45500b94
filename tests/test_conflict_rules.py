"""The rules of seed 004 "3 | Conflict", paragraph by paragraph, with scripted d6 rolls."""

from __future__ import annotations

import pytest
from conflict_helpers import ScriptedRng, act, char, first, kinds, make, plan

from factionsim.core.game import IllegalActionError
from factionsim.rules.conflict import actions as A
from factionsim.rules.conflict import checks
from factionsim.rules.conflict.actions import parse_action


# ------------------------------------------------------------------ the skill check (roll under TN)
@pytest.mark.parametrize("dice, tn, ranked, outcome", [
    ((3,), 4, True, "success"),      # under the TN
    ((4,), 4, True, "tie"),          # equal: a tie
    ((5,), 4, True, "fail"),         # above
    ((1, 1), 4, True, "flawless"),   # a 1 with a ranked skill, rolled again: 1 = flawless
    ((1, 5), 4, True, "success"),    # the second die only decides flawlessness
    ((1,), 4, False, "success"),     # unranked: no second die
    ((6,), 7, True, "success"),      # TN 7: a 6 still succeeds
])
def test_skill_check(dice, tn, ranked, outcome):
    rng = ScriptedRng(*dice)
    r = checks.roll_check(rng, tn, ranked)
    assert r["outcome"] == outcome and r["dice"] == list(dice) and rng.remaining == []


# ------------------------------------------------------------------ 2. harm others
def _duel(attacker: dict, target: dict, *dice: int, **extra):
    s = make([char("ash", 0, **attacker)], [char("vor", 2, **target)], ScriptedRng(*dice), **extra)
    plan(s, ash="harm", vor="move")
    return s


@pytest.mark.parametrize("attacker, target, skill, roll, tn, damage, pool", [
    # the seed's example: a TN 4 attack with a +2 weapon deals 6
    ({"skills": {"weaponry": 2}, "items": {"weapon": 2}}, {}, "weaponry", 3, 4, 6, "blood"),
    # a +2 armor reduces the TN by 2 (and so the damage)
    ({"skills": {"weaponry": 2}, "items": {"weapon": 2}}, {"items": {"armor": 2}}, "weaponry", 1, 2, 4,
     "blood"),
    # Weaponry without a weapon: difficulty -2 [ours]
    ({"skills": {"weaponry": 2}}, {}, "weaponry", 1, 2, 2, "blood"),
    # Physique harms Blood; no weapon bonus for a bare-handed blow
    ({"skills": {"physique": 3}}, {}, "physique", 2, 5, 5, "blood"),
    # Insight or Impose harm Guts; the talisman adds to Guts damage, the ward defends
    ({"skills": {"impose": 2}, "items": {"talisman": 1}}, {"items": {"ward": 1}}, "impose", 1, 3, 4,
     "guts"),
    ({"skills": {"insight": 1}}, {}, "insight", 2, 3, 3, "guts"),
])
def test_harm_damage_is_tn_plus_item(attacker, target, skill, roll, tn, damage, pool):
    s = _duel(attacker, target, roll, 6)  # 6: a spare die for a ranked 1 (unused)
    events = act(s, A.Harm("ash", "vor", skill))
    e = first(events, "attack")
    assert (e.data["tn"], e.data["success"], e.data["damage"], e.data["pool"]) == (tn, True, damage, pool)
    assert s.chars["vor"].pool(pool) == 10 - damage


def test_failed_attack_deals_nothing():
    s = _duel({"skills": {"weaponry": 2}, "items": {"weapon": 2}}, {}, 5)
    e = first(act(s, A.Harm("ash", "vor", "weaponry")), "attack")
    assert (e.data["outcome"], e.data["damage"], s.chars["vor"].blood) == ("fail", 0, 10)


def test_other_skill_only_against_a_vulnerable_foe():
    s = _duel({"skills": {"arcana": 2}}, {"vulnerable": {"arcana": "guts"}}, 1, 4)
    assert A.Harm("ash", "vor", "arcana") in s.legal_actions()
    e = first(act(s, A.Harm("ash", "vor", "arcana")), "attack")
    assert (e.data["pool"], e.data["damage"]) == ("guts", 4)
    s2 = _duel({"skills": {"arcana": 2}}, {})
    assert A.Harm("ash", "vor", "arcana") not in s2.legal_actions()


@pytest.mark.parametrize("distance, reach, legal", [(4, None, True), (5, None, False), (7, 5, True)])
def test_reach_after_free_movement(distance, reach, legal):
    s = make([char("ash", 0, **({"reach": reach} if reach else {}))], [char("vor", distance)])
    plan(s, ash="harm")
    assert (A.Harm("ash", "vor", "weaponry") in s.legal_actions()) is legal


# ------------------------------------------------------------------ damage beyond 0, falling
def test_damage_beyond_zero_hits_approaches_and_all_zero_falls():
    s = _duel({"skills": {"weaponry": 3}, "items": {"weapon": 3}, "approaches": {"careful": 3}},
              {"max_blood": 4, "approaches": {"careful": 1, "creative": 2}}, 2)
    events = act(s, A.Harm("ash", "vor", "weaponry"))  # TN 6 + 3 = 9: 4 Blood, 5 beyond
    e = first(events, "attack")
    assert e.data["approaches_lost"] == {"creative": 2, "careful": 1}
    assert s.chars["vor"].status == "fallen" and "fallen" in kinds(events)
    assert s.winner == "heroes" and s.is_over() and first(events, "conflict-end").data["reason"] == "fell"


# ------------------------------------------------------------------ ties
@pytest.mark.parametrize("choice, damage, guts, opportunity", [("succeed", 2, 9, 0), ("fail", 0, 10, 1)])
def test_tie_succeed_with_consequence_or_fail_with_opportunity(choice, damage, guts, opportunity):
    s = _duel({"skills": {"weaponry": 2}}, {}, 2)  # TN 2 (unarmed): a 2 ties
    act(s, A.Harm("ash", "vor", "weaponry"))
    assert s.legal_actions() == [A.TieChoice("ash", "succeed"), A.TieChoice("ash", "fail")]
    e = first(act(s, A.TieChoice("ash", choice)), "attack")
    assert e.data["damage"] == damage and s.chars["ash"].guts == guts
    assert s.chars["ash"].opportunity == opportunity


# ------------------------------------------------------------------ 1. stand ground
def _guarded(*dice: int, bond: int = 0):
    heroes = [char("ash", 0, skills={"weaponry": 2}), char("bryn", 1), char("cade", 2)]
    s = make([char("vor", 4, skills={"weaponry": 2}, items={"weapon": 1})], heroes,
             ScriptedRng(*dice), heroes_side=False,
             foe_side={"heroes": True}, bonds=[["ash", "bryn", bond]] if bond else [])
    return s


def test_stand_ground_lowers_attacks_on_allies_within_2_and_gains_bond():
    s = make([char("ash", 0), char("bryn", 1)], [char("vor", 3, skills={"weaponry": 2},
                                                      items={"weapon": 1})],
             ScriptedRng(3, 3, 3), )
    plan(s, ash="stand", bryn="move", vor="harm")
    act(s, A.Stand("ash", 0))
    act(s, A.Harm("vor", "bryn", "weaponry"))  # TN 4 - 1 = 3: a 3 ties
    events = act(s, A.TieChoice("vor", "fail"))
    e = first(events, "attack")
    assert e.data["parts"]["stand"] == -1 and e.data["tn"] == 3 and not e.data["success"]
    bond = first(events, "bond")
    assert (bond.data["char"], bond.data["ally"], bond.data["steps"]) == ("ash", "bryn", 1)


def test_stand_ground_bond_stops_at_the_first_major_level():
    s = make([char("ash", 0), char("bryn", 1)], [char("vor", 3, skills={"weaponry": 2})],
             ScriptedRng(6, 6), bonds=[["ash", "bryn", 3]])
    plan(s, ash="stand", bryn="move", vor="harm")
    act(s, A.Stand("ash", 0))
    events = act(s, A.Harm("vor", "bryn", "weaponry"))
    assert "bond" not in kinds(events) and s.bonds[frozenset(("ash", "bryn"))] == 3


def test_each_character_standing_ground_gives_its_minus_one():
    """"Any one attacking you or allies within a 2-height radius receive -1 to their attack's
    TN": two heroes standing ground near the target give -1 each."""
    s = make([char("ash", 0), char("bryn", 1), char("cade", 2)],
             [char("vor", 3, skills={"weaponry": 3}, items={"weapon": 1})], ScriptedRng(6))
    plan(s, ash="stand", bryn="stand", cade="move", vor="harm")
    act(s, A.Stand("ash", 0))
    act(s, A.Stand("bryn", 0))
    e = first(act(s, A.Harm("vor", "cade", "weaponry")), "attack")
    assert e.data["parts"]["stand"] == -2 and e.data["tn"] == 3 + 2 - 2


def test_stand_ground_out_of_radius_gives_nothing():
    s = make([char("ash", 0), char("bryn", 4)], [char("vor", 6, skills={"weaponry": 2})], ScriptedRng(5))
    plan(s, ash="stand", bryn="move", vor="harm")
    act(s, A.Stand("ash", 0))
    e = first(act(s, A.Harm("vor", "bryn", "weaponry")), "attack")
    assert e.data["parts"]["stand"] == 0


# ------------------------------------------------------------------ 3A. advantages
def test_advantage_with_a_check_gives_allies_the_ranks_used():
    s = make([char("ash", 0, skills={"guile": 2}), char("bryn", 0, skills={"weaponry": 1})],
             [char("vor", 2)], ScriptedRng(2, 5))
    plan(s, ash="aid", bryn="harm", vor="move")
    ev = first(act(s, A.Advantage("ash", "guile", "vor")), "advantage")  # TN 2+2 = 4, rolled 2
    assert ev.data["bonus"] == 2 and ev.data["targets"] == ["vor"]
    e = first(act(s, A.Harm("bryn", "vor", "weaponry")), "attack")
    assert e.data["parts"]["advantages"] == 2 and e.data["tn"] == 1 + 2 - 2 + 2


def test_advantages_stack_but_not_for_their_creator():
    """"Advantages from different allies may stack"; they "give bonuses to the TN of subsequent
    Skill Checks by allies" (not the creator's)."""
    s = make([char("ash", 0, skills={"guile": 3}), char("bryn", 0, tricks={"goo": 2}),
              char("cade", 0, skills={"weaponry": 1})],
             [char("vor", 2)], ScriptedRng(6, 6))
    plan(s, ash="aid", bryn="aid", cade="harm", vor="move")
    act(s, A.Trick("ash", "impair", "vor"))  # +1 without a check
    act(s, A.Trick("bryn", "goo", "vor"))    # +2 without a check (nullifying)
    e = first(act(s, A.Harm("cade", "vor", "weaponry")), "attack")
    assert e.data["parts"]["advantages"] == 3
    assert [a["bonus"] for a in s.advantages] == [1, 2]


def test_enemies_may_remove_an_advantage_and_advantages_last_until_then():
    """"Enemies may attempt to remove Advantages on their turn": an Advantage does not fade by
    itself; it stays round after round until an enemy removes it (a scenario may give them a
    duration with ``advantage_rounds``)."""
    s = make([char("ash", 0, tricks={"snare": 1})], [char("vor", 2, skills={"observe": 2})],
             ScriptedRng(1, 3))
    plan(s, ash="aid", vor="aid")
    act(s, A.Trick("ash", "snare", "vor"))
    assert A.Remove("vor", "adv#1") in s.legal_actions()
    ev = first(act(s, A.Remove("vor", "adv#1")), "remove")
    assert ev.data["success"] and s.advantages == []
    for rounds, left in ((0, 1), (2, 0)):
        s2 = make([char("ash", 0, tricks={"snare": 1})], [char("vor", 4)],
                  settings={"advantage_rounds": rounds})
        plan(s2, ash="aid", vor="stand")
        act(s2, A.Stand("vor", 0))
        act(s2, A.Trick("ash", "snare", "vor"))
        for _ in range(2):  # two more rounds of standing ground
            plan(s2, ash="stand", vor="stand")
            act(s2, A.Stand("ash", 0))
            act(s2, A.Stand("vor", 0))
        assert s2.turn == 3 and len(s2.advantages) == left


@pytest.mark.parametrize("skills, offered", [
    ({}, False),                 # no skill to create an Advantage with: no free one either
    ({"guile": 2}, False),       # TN 2 + 2 = 4: a coin toss, not "already likely"
    ({"guile": 3}, True),        # TN 3 + 2 = 5: likely
])
def test_an_advantage_without_a_check_only_when_already_likely(skills, offered):
    """"If your action is basic or already likely to succeed ... you can create the Advantage
    without a Skill Check": the +1 impairing Advantage needs a check of TN 5 or more (four
    rolls in six); scenario ``tricks`` are the character's basic actions."""
    s = make([char("ash", 0, skills=skills)], [char("vor", 2)])
    plan(s, ash="aid", vor="move")
    assert (A.Trick("ash", "impair", "vor") in s.legal_actions()) is offered


# ------------------------------------------------------------------ 3B. assist and Bond sacrifice
def test_assist_adds_major_bond_levels_with_a_relevant_skill():
    s = make([char("ash", 0, skills={"weaponry": 1}), char("bryn", 0, skills={"weaponry": 1})],
             [char("vor", 2)], ScriptedRng(1, 6), bonds=[["ash", "bryn", 7]])
    plan(s, ash="aid", bryn="harm", vor="move")
    ev = first(act(s, A.Assist("ash", "bryn")), "assist")
    assert ev.data["bonus"] == 2  # 7 minor levels = 2 major
    e = first(act(s, A.Harm("bryn", "vor", "weaponry")), "attack")
    assert e.data["parts"]["assist"] == 2


def test_assist_needs_major_bond_and_a_hero():
    s = make([char("ash", 0), char("bryn", 0)], [char("vor", 2)], bonds=[["ash", "bryn", 2]])
    plan(s, ash="aid", bryn="move", vor="move")
    assert A.Assist("ash", "bryn") not in s.legal_actions()


def test_sacrificing_a_minor_bond_allows_a_reroll():
    s = make([char("ash", 0, skills={"weaponry": 2}, items={"weapon": 2}), char("bryn", 0)],
             [char("vor", 2)], ScriptedRng(6, 2), bonds=[["ash", "bryn", 2]])
    plan(s, ash="harm", bryn="move", vor="move")
    act(s, A.Harm("ash", "vor", "weaponry"))
    assert s.legal_actions() == [A.Reroll("ash", "bryn"), A.Accept("ash")]
    events = act(s, A.Reroll("ash", "bryn"))
    assert first(events, "attack").data["damage"] == 6
    assert s.bonds[frozenset(("ash", "bryn"))] == 1 and first(events, "reroll").data["dice"] == [6]


# ------------------------------------------------------------------ 3C. do something else
def test_parley_makes_a_shaken_foe_stand_down():
    s = make([char("ash", 0, skills={"charisma": 2})], [char("vor", 3, max_guts=10), char("kel", 9)],
             ScriptedRng(2))
    s.chars["vor"].guts = 5
    plan(s, ash="aid", vor="move", kel="move")
    ev = first(act(s, parse_action("parley ash -> vor")), "parley")
    assert ev.data["success"] and s.chars["vor"].status == "yielded"


def test_ritual_objective():
    s = make([char("ash", 5, skills={"arcana": 2})], [char("vor", 12)], ScriptedRng(1, 1),
             objective={"type": "ritual", "side": "heroes", "needed": 2, "at": 5})
    plan(s, ash="aid", vor="move")
    events = act(s, A.Ritual("ash"))  # flawless: 2 progress
    assert first(events, "ritual").data["progress"] == 2 and s.winner == "heroes" and s.is_over()


# ------------------------------------------------------------------ 4. spells and concentration
def _caster(*dice: int, attackers: int = 3):
    foes = [char(f"f{i}", 2, skills={"weaponry": 1}) for i in range(attackers)]
    spell = {"id": "bolt", "effect": "harm", "power": 4, "range": 6, "uses": 1}
    s = make([char("mage", 0, spells=[spell])], foes, ScriptedRng(*dice))
    plan(s, mage="spell", **{f"f{i}": "harm" for i in range(attackers)})
    return s


def test_concentration_tns_6_5_4_on_successive_attacks_even_misses():
    # three attacks that miss (6 each), each followed by a concentration roll that holds
    s = _caster(6, 5, 6, 4, 6, 3)
    tns = []
    for i in range(3):
        tns.append(first(act(s, A.Harm(f"f{i}", "mage", "weaponry")), "concentration").data["tn"])
    assert tns == [6, 5, 4]
    events = act(s, A.Cast("mage", "bolt", "f0"))
    assert first(events, "cast").data["damage"] == 4 and s.chars["mage"].spells[0].uses == 0


def test_broken_concentration_wastes_the_turn_but_not_the_spell():
    s = _caster(6, 6, attackers=1)  # the attack misses; the roll of 6 is not under TN 6
    ev = first(act(s, A.Harm("f0", "mage", "weaponry")), "concentration")
    assert not ev.data["kept"]
    events = act(s, A.Cast("mage", "bolt", "f0"))
    assert "spell-broken" in kinds(events) and s.chars["mage"].spells[0].uses == 1
    assert s.chars["f0"].blood == 10


# ------------------------------------------------------------------ 5. move far
def test_move_far_unengaged_goes_up_to_7_heights():
    s = make([char("ash", 0)], [char("vor", 16)])
    plan(s, ash="move", vor="stand")
    act(s, A.Stand("vor", 0))
    shifts = sorted(a.shift for a in s.legal_actions() if isinstance(a, A.Dash))
    assert shifts == [-3, 3, 4, 5, 6, 7]  # -3: off the field, i.e. flee
    assert all(a.mode == "free" for a in s.legal_actions() if isinstance(a, A.Dash))
    act(s, A.Dash("ash", 7))
    assert s.chars["ash"].position == 7


@pytest.mark.parametrize("roll, position", [(1, 7), (6, 2)])
def test_move_far_engaged_needs_a_check(roll, position):
    s = make([char("ash", 0, skills={"acrobatics": 2})], [char("vor", 1)], ScriptedRng(roll, 5))
    plan(s, ash="move", vor="stand")
    act(s, A.Stand("vor", 0))
    events = act(s, A.Dash("ash", 7, "check"))
    assert s.chars["ash"].position == position and first(events, "dash").data["mode"] == "check"


def test_breaking_away_without_a_check_draws_attacks_from_enemies_within_2():
    s = make([char("ash", 10)], [char("vor", 11, skills={"weaponry": 1}, items={"weapon": 1}),
                                 char("kel", 12, skills={"physique": 1}), char("far", 18)],
             ScriptedRng(1, 6, 6))
    plan(s, ash="move", vor="stand", kel="stand", far="stand")
    for cid in ("vor", "kel", "far"):
        act(s, A.Stand(cid, 0))
    events = act(s, A.Dash("ash", -7, "break"))
    attacks = [e for e in events if e.kind == "attack"]
    assert [e.data["char"] for e in attacks] == ["vor", "kel"]
    assert all(e.data["mode"] == "opportunity" for e in attacks)
    assert s.chars["ash"].blood == 10 - (3 + 1) - 0


def test_fleeing_past_the_edge_ends_the_conflict_for_that_side():
    s = make([char("ash", 1)], [char("vor", 12)])
    plan(s, ash="move", vor="stand")
    act(s, A.Stand("vor", 0))
    assert A.Hold("ash", -2) not in s.legal_actions()  # free movement cannot flee
    events = act(s, A.Dash("ash", -3))
    assert "fled" in kinds(events) and s.winner == "foes"
    assert first(events, "conflict-end").data["reason"] == "fled"


# ------------------------------------------------------------------ initiative categories
def test_categories_in_order_and_heroes_first():
    s = make([char("ash", 0), char("bryn", 0)], [char("vor", 10), char("kel", 10)])
    s.current_actor()
    assert s.actor == "heroes"  # heroes plan first too
    plan(s, ash="harm", bryn="stand", vor="stand", kel="aid")
    order = []
    while s.phase == "act" and s.turn == 0:
        cur = s.current
        order.append(cur)
        act(s, A.Hold(cur, 0))
    assert order == ["bryn", "vor", "kel", "ash"]


def test_surprised_heroes_act_after_all_non_hero_actions_in_the_first_round_only():
    """"Hero actions always resolve before non-hero actions unless the party was taken by
    surprise, in which case all non-hero actions resolve first in the first round": the foes'
    move far (category 5) comes before the heroes' stand ground (category 1)."""
    s = make([char("ash", 0), char("bryn", 0)], [char("vor", 10), char("kel", 10)],
             hero_side={"surprised": True})
    plan(s, ash="stand", bryn="harm", vor="move", kel="aid")
    order = []
    while s.turn == 0 and s.current_actor() is not None:
        order.append(s.current)
        act(s, A.Hold(s.current, 0))
    assert order == ["kel", "vor", "ash", "bryn"]
    plan(s, ash="stand", bryn="harm", vor="move", kel="aid")  # round 2: heroes first again
    assert s.current == "ash"


def test_plans_change_any_time_but_never_to_a_past_category():
    """"players can change their plan for their turn any time but can no longer take the same
    action covered by a past initiative category": when the attacks begin, a hero who planned
    to move far may attack now instead; the categories already past stay closed."""
    s = make([char("ash", 0, skills={"weaponry": 1})], [char("vor", 3)], ScriptedRng(6))
    plan(s, ash="move", vor="stand")
    s.apply(A.Stand("vor", -1))       # vor steps to height 2: within ash's reach
    while s.phase == "replan" and "harm" not in {getattr(a, "category", "") for a in s.legal_actions()}:
        s.apply(A.Proceed("heroes"))  # (the non-harmful actions: ash keeps its plan)
    assert s.phase == "replan" and set(map(str, s.legal_actions())) == {"replan ash harm",
                                                                          "proceed heroes"}
    events = s.apply(A.Replan("ash", "harm"))
    assert first(events, "replan").data == {"char": "ash", "from": "move", "to": "harm"}
    assert s.current == "ash" and A.Harm("ash", "vor", "weaponry") in s.legal_actions()
    assert not any(isinstance(a, A.Replan) and a.category in ("stand", "aid")
                   for a in s.legal_actions())


def test_changing_plans_only_to_a_later_category():
    s = make([char("ash", 0)], [char("vor", 10)])
    plan(s, ash="aid", vor="move")
    replans = {a.category for a in s.legal_actions() if isinstance(a, A.Replan)}
    assert replans == {"harm", "move"}  # never stand (past); spell only with spells
    act(s, A.Replan("ash", "move"))
    assert s.current == "vor" or s.current == "ash"
    assert s.chars["ash"].plan == "move"
    with pytest.raises(IllegalActionError):
        s.apply(A.Plan("ash", "stand"))


# ------------------------------------------------------------------ objectives
def test_survive_objective():
    s = make([char("ash", 0)], [char("vor", 10)], objective={"type": "survive", "side": "heroes",
                                                               "rounds": 1})
    plan(s, ash="stand", vor="stand")
    act(s, A.Stand("ash", 0))
    events = act(s, A.Stand("vor", 0))
    assert s.winner == "heroes" and first(events, "conflict-end").data["reason"] == "survived"


def test_carry_objective_and_picking_up_the_item():
    s = make([char("ash", 8)], [char("vor", 0)], item={"name": "the relic", "position": 10},
             objective={"type": "carry", "side": "heroes", "to": 16})
    plan(s, ash="stand", vor="stand")
    events = act(s, A.Stand("ash", 2))
    assert first(events, "item").data["action"] == "picked" and s.item["holder"] == "ash"
    act(s, A.Stand("vor", 0))
    plan(s, ash="move", vor="stand")
    act(s, A.Stand("vor", 0))
    events = act(s, A.Dash("ash", 6))
    assert s.winner == "heroes" and first(events, "conflict-end").data["reason"] == "carried"


def test_text_forms_round_trip():
    for a in (A.Plan("a", "harm"), A.Replan("a", "move"), A.Hold("a", -2), A.Stand("a", 1),
              A.Harm("a", "b", "impose"), A.Advantage("a", "guile", "b"), A.Trick("a", "impair", "b"),
              A.Assist("a", "b"), A.Remove("a", "adv#3"), A.Ritual("a"), A.Cast("a", "bolt", "b"),
              A.Dash("a", 5), A.Dash("a", -7, "break"), A.TieChoice("a", "fail"), A.Reroll("a", "b"),
              A.Accept("a")):
        assert parse_action(str(a)) == a


def test_a_spell_listed_twice_is_refused_and_never_overspent():
    """A Spell's instances are its ``uses``; a file listing one spell twice was accepted, then
    the engine spent the first entry for both (``uses: -4``)."""
    from factionsim.core.game import CampaignError
    from factionsim.rules.conflict.state import ConflictState

    bolt = {"id": "bolt", "effect": "harm", "power": 1, "range": 6, "uses": 1}
    with pytest.raises(CampaignError, match=r"spells\[1\]\.id: duplicate spell id 'bolt'"):
        make([char("mage", 0, spells=[bolt, bolt])], [char("vor", 2)])
    data = {"ruleset": "conflict", "name": "t", "seed": 1, "settings": {}, "sides": [
        {"id": "heroes", "heroes": True, "characters": [char("mage", 0, spells=[bolt, bolt])]},
        {"id": "foes", "characters": [char("vor", 2, max_blood=30)]}]}
    s = ConflictState.from_dict(data)  # built without validation (a program, not a file)
    for _ in range(2):
        plan(s, mage="spell", vor="stand")
        act(s, A.Stand("vor", 0))
        act(s, A.Cast("mage", "bolt", "vor"))
    assert [sp.uses for sp in s.chars["mage"].spells] == [0, 0]


def test_the_round_cap_ends_the_conflict_and_tells_who_is_ahead():
    s = make([char("ash", 0)], [char("vor", 10, blood=2)], max_turns=1)  # vor is hurt
    plan(s, ash="stand", vor="stand")
    act(s, A.Stand("ash", 0))
    events = act(s, A.Stand("vor", 0))
    end = first(events, "game-end")
    assert end.data["reason"] == "cap" and end.data["winners"] == ["heroes"]
    assert s.is_over() and s.winner is None  # undecided, ahead on points


@pytest.mark.parametrize("patch, message", [
    ({"skills": {"sword": 2}}, "sides[0].characters[0].skills.sword: unknown skill 'sword'"),
    ({"approaches": {"careful": 4}}, "approaches.careful: must be a whole number from 0 to 3"),
    ({"max_blood": "2x6"}, "max_blood: must be a number or dice"),
])
def test_scenario_errors_name_the_field(patch, message):
    from factionsim.core.game import CampaignError

    with pytest.raises(CampaignError, match=message.replace("[", r"\[").replace("]", r"\]")):
        make([char("ash", **patch)], [char("vor", 3)])
