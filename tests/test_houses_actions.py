"""Every House action of seed 001 ("Factions in Action") against the text, with fixed dice.

Unless a test says otherwise, House ``a`` rolls Bold d8 + Physical d8 + Might (its own die) and
House ``b`` defends with the same; an unopposed roll meets 2d8. Dice are scripted in rolling
order: the actor's pool (Distinction, Attribute, Skill, committed assets, then the opponent's
Stress / Trauma / largest Complication), then the opposition.
"""

from __future__ import annotations

import pytest
from houses_helpers import ScriptedRng, do, house, make_state, pool, start

from factionsim.rules.houses import actions as A
from factionsim.rules.houses import turn


def kinds(events):
    return [e.kind for e in events]


# ------------------------------------------------------------------ Create an Asset
@pytest.mark.parametrize("script, made, die", [
    ((7, 6, 5, 4, 5), True, 8),     # 13 vs 9, effect d10 capped at the difficulty's d8
    ((7, 6, 1, 4, 5), False, 0),    # effect d4 (hitch on the d10): too small for an asset
    ((2, 3, 4, 4, 5), False, 0),    # 7 vs 9: failure
    ((5, 4, 2, 4, 5), False, 0),    # 9 vs 9: ties fail
])
def test_create_asset(script, made, die):
    """"The GM sets the difficulty if no one is opposing you, typically 2d8. The value of the
    asset cannot exceed the difficulty and is fleeting"; "An Asset reduced below d6 is
    permanently lost", so a d4 effect makes no asset (there is no d6 floor to lift it)."""
    s = make_state(house("a", skills={"might": 10}), house("b"), rng=ScriptedRng(*script))
    events = do(s, *start("create-asset"), *pool())
    created = [a for a in s.assets.values() if a.owner == "a"]
    assert bool(created) == made
    if made:
        assert created[0].die == die and created[0].duration == "fleeting"
        assert "asset-created" in kinds(events)
    elif script[2] == 1:
        assert "asset-too-small" in kinds(events)


@pytest.mark.parametrize("hurt", [{"stress": 12}, {"trauma": 12},
                                  {"complications": [{"from": "b", "die": 12, "lasting": True}]}])
def test_created_asset_is_capped_by_the_difficulty_not_by_the_creators_troubles(hurt):
    """"The value of the asset cannot exceed the difficulty": the GM's 2d8 caps it at d8 even
    when the creator's own d12 Stress, Trauma or Complication joins the difficulty pool."""
    # a: d8 d8 d12(might) -> 8+7, effect d12; difficulty 2d8 + the d12 trouble: 2+2+3 = 5
    s = make_state(house("a", skills={"might": 12}, **hurt), house("b"),
                   rng=ScriptedRng(8, 7, 3, 2, 2, 3))
    events = do(s, *start("create-asset"), *pool())
    (created,) = [e for e in events if e.kind == "asset-created"]
    assert (created.data["effect"], created.data["cap"], created.data["die"]) == (12, 8, 8)


def test_create_asset_can_be_opposed_by_a_rival():
    """"The GM sets the difficulty if no one is opposing you": a rival may oppose instead. Its
    pool is the difficulty (a contest), and caps the asset at its own largest die."""
    # a: d8 d8 d12 -> 8+7 = 15, effect d12; b opposes with d8 d8 d10(intrigue) -> 5+4 = 9
    s = make_state(house("a", skills={"might": 12}), house("b", skills={"intrigue": 10}),
                   rng=ScriptedRng(8, 7, 3, 5, 4, 2))
    events = do(s, *start("create-asset", opposed_by="b"), *pool(),
                *pool(attribute="social", skill="intrigue"))
    test = next(e for e in events if e.kind == "test")
    assert test.data["opposition"]["house"] == "b" and test.data["opposition"]["total"] == 9
    (a,) = [a for a in s.assets.values() if a.owner == "a"]
    assert a.die == 10   # effect d12, capped by b's largest die, its d10 Intrigue


def test_create_asset_opposition_can_be_switched_off():
    """A scenario may leave every difficulty to the GM (``create_asset_opposed: false``)."""
    s = make_state(house("a"), house("b"), rng=ScriptedRng(7, 6, 5, 4, 5),
                   create_asset_opposed=False)
    do(s, A.ChooseAction("create-asset"))
    assert s.phase == turn.DISTINCTION and s.actor == "a"


def test_created_asset_is_fleeting_unless_a_plot_point_solidifies_it():
    s = make_state(house("a", skills={"might": 10}, plot_points=1), house("b"),
                   rng=ScriptedRng(7, 6, 5, 4, 5))
    do(s, *start("create-asset"), *pool(), A.Keep(), A.SpendPlotPoint())
    (a,) = [a for a in s.assets.values() if a.owner == "a"]
    assert a.duration == "season" and s.houses["a"].plot_points == 0
    events = []
    turn._end_season(s, events)
    assert a.id not in s.assets  # gone with the season


def test_fleeting_asset_serves_one_roll():
    s = make_state(house("a", assets=[{"id": "blades#1", "name": "Blades", "die": 8,
                                       "duration": "fleeting"}]), house("b"),
                   rng=ScriptedRng(7, 6, 3, 4, 4, 5))
    events = do(s, *start("create-asset"), *pool(commits=("blades#1",)))
    assert "blades#1" not in s.assets
    assert any(e.kind == "asset-lost" and e.data["reason"] == "spent" for e in events)


FLEETING = {"id": "blades#1", "name": "Blades", "kind": "asset", "die": 10,
            "duration": "fleeting"}


def test_a_fleeting_asset_defending_itself_is_spent_after_the_attack():
    """"Attack an Asset or a Skill ... If you succeed, the Asset or Skill is stepped down by one
    level": a House may commit the very fleeting asset under attack to its defence; it is
    stepped down, then spent when the action is over (it served one roll). (It used to vanish
    at the roll and the step down raised KeyError.)"""
    # a: d8 d8 d10 -> 7+6 = 13; b: d8 d8 d4 + its Blades d10 -> 3+2 = 5: beaten by 8, 2 steps
    s = make_state(house("a", skills={"might": 10}), house("b", assets=[FLEETING]),
                   rng=ScriptedRng(7, 6, 5, 3, 2, 1, 2))
    events = do(s, *start("attack-trait", "b", "blades#1"), *pool(),
                *pool(commits=("blades#1",)))
    damaged = next(e for e in events if e.kind == "trait-damaged")
    assert (damaged.data["before"], damaged.data["after"]) == (10, 6)
    assert "blades#1" not in s.assets and s.phase == turn.ACTION and s.actor == "b"


def test_a_damaged_fleeting_asset_may_help_its_own_repair():
    """"Repair a Damaged Trait ... Success recovers one step": a damaged fleeting asset
    committed to its own repair is repaired, then spent with the action (no KeyError)."""
    s = make_state(house("a", skills={"might": 10}, assets=[{**FLEETING, "die": 6, "full": 10}]),
                   house("b"), rng=ScriptedRng(7, 6, 5, 3, 4, 5))
    events = do(s, *start("repair", None, "blades#1"), *pool(commits=("blades#1",)))
    assert [e.data["after"] for e in events if e.kind == "repaired"] == [8]
    assert "blades#1" not in s.assets


def test_a_pool_may_commit_every_asset():
    """Neither the text nor our defaults limit the assets one pool commits (a scenario may set
    ``max_committed_assets``)."""
    assets = [{"id": f"a{i}#{i}", "name": f"A{i}", "kind": "resource", "die": 6} for i in (1, 2, 3)]
    s = make_state(house("a", assets=assets), house("b"), rng=ScriptedRng(*[3] * 9))
    do(s, *start("create-asset"), A.PickDistinction("bold"), A.PickAttribute("physical"),
       A.PickSkill("might"), A.Commit("a1#1"), A.Commit("a2#2"))
    assert A.Commit("a3#3") in s.legal_actions()
    s = make_state(house("a", assets=assets), house("b"), rng=ScriptedRng(*[3] * 9),
                   max_committed_assets=2)
    events = do(s, *start("create-asset"), A.PickDistinction("bold"), A.PickAttribute("physical"),
                A.PickSkill("might"), A.Commit("a1#1"), A.Commit("a2#2"))  # then rolled: no 3rd asset
    assert next(e for e in events if e.kind == "test").data["actor_roll"]["dice"] == [8, 8, 4, 6, 6]


# ------------------------------------------------------------------ Create a Complication
@pytest.mark.parametrize("a_dice, b_dice, die", [
    ((7, 6, 5), (3, 4, 2), 10),   # 13 vs 7: a d10 complication on b
    ((7, 6, 5), (7, 6, 2), 0),    # 13 vs 13: ties fail
])
def test_create_complication(a_dice, b_dice, die):
    s = make_state(house("a", skills={"might": 10}), house("b"), rng=ScriptedRng(*a_dice, *b_dice))
    do(s, *start("create-complication", "b"), *pool(), *pool())
    comps = s.houses["b"].complications
    assert (comps[0]["die"] if comps else 0) == die
    if comps:
        assert comps[0] == {"from": "a", "die": 10, "lasting": False}
        events = []
        turn._end_season(s, events)
        assert s.houses["b"].complications == []  # lasts until the end of the Phase


def test_complication_made_long_lasting_with_a_plot_point():
    s = make_state(house("a", skills={"might": 10}, plot_points=1), house("b"),
                   rng=ScriptedRng(7, 6, 5, 3, 4, 2))
    do(s, *start("create-complication", "b"), *pool(), A.Keep(), *pool(), A.SpendPlotPoint())
    assert s.houses["b"].complications[0]["lasting"] is True
    turn._end_season(s, [])
    assert s.houses["b"].complications[0]["die"] == 10


# ------------------------------------------------------------------ Attack a Faction
@pytest.mark.parametrize("a_dice, b_dice, hurt, stress", [
    ((7, 6, 5), (3, 4, 2), "b", 10),   # a wins: Stress at a's effect d10
    ((7, 6, 5), (7, 6, 2), "a", 4),    # tie: the attack fails, b inflicts its effect (d4 here)
    ((2, 2, 5), (7, 6, 3), "a", 4),
])
def test_attack_house(a_dice, b_dice, hurt, stress):
    s = make_state(house("a", skills={"might": 10}), house("b"), rng=ScriptedRng(*a_dice, *b_dice))
    do(s, *start("attack-house", "b"), *pool(), *pool(), A.Accept())
    assert s.houses[hurt].stress == stress
    other = "a" if hurt == "b" else "b"
    assert s.houses[other].stress == 0


@pytest.mark.parametrize("before, effect, after", [(10, 6, 12), (6, 6, 8), (6, 10, 10)])
def test_stress_steps_up_when_equal_or_larger(before, effect, after):
    # b's Stress joins a's pool (the 4th die); a: 7+6, effect = d10 (skill), b rolls 3 4 2
    skill = {"might": effect} if effect > 4 else {}
    s = make_state(house("a", skills=skill), house("b", stress=before),
                   rng=ScriptedRng(7, 6, 5, 2, 3, 4, 2))
    do(s, *start("attack-house", "b"), *pool(), *pool(), A.Accept())
    assert s.houses["b"].stress == after


def test_stress_past_d12_takes_out_and_trauma_past_d12_collapses():
    s = make_state(house("a", skills={"might": 10}), house("b", stress=12),
                   rng=ScriptedRng(7, 6, 5, 2, 3, 4, 2))
    events = do(s, *start("attack-house", "b"), *pool(), *pool(), A.Accept())
    assert (s.houses["b"].stress, s.houses["b"].trauma) == (0, 6)
    assert "taken-out" in kinds(events)
    s = make_state(house("a", skills={"might": 10}), house("b", stress=12, trauma=12),
                   rng=ScriptedRng(7, 6, 5, 2, 2, 3, 4, 2))
    events = do(s, *start("attack-house", "b"), *pool(), *pool(), A.Accept())
    assert not s.houses["b"].alive and "collapse" in kinds(events)


def test_winner_may_spend_a_plot_point_for_trauma():
    s = make_state(house("a", skills={"might": 10}, plot_points=1), house("b"),
                   rng=ScriptedRng(7, 6, 5, 3, 4, 2))
    do(s, *start("attack-house", "b"), *pool(), A.Keep(), *pool(), A.SpendPlotPoint(), A.Accept())
    assert (s.houses["b"].stress, s.houses["b"].trauma) == (0, 10)


def test_winner_may_inflict_stress_and_trauma():
    """"The winner inflicts Stress and/or Trauma upon the loser": for a Plot Point the winner
    keeps a second effect die (Cortex Prime); the effect lands as Stress, the second die as
    Trauma, each of which the loser may absorb in turn."""
    # a: d8 d8 d10 d6(resource) -> 7+6 = 13, effect d10, a second effect die d6; b: 3+4 = 7
    s = make_state(house("a", skills={"might": 10}, plot_points=1,
                         assets=[{"id": "gold#1", "name": "Gold", "kind": "resource", "die": 6}]),
                   house("b"), rng=ScriptedRng(7, 6, 5, 4, 3, 4, 2))
    do(s, *start("attack-house", "b"), *pool(commits=("gold#1",)), A.Keep(), *pool())
    assert A.InflictBoth() in s.legal_actions()
    do(s, A.InflictBoth(), A.Accept(), A.Accept())
    assert (s.houses["b"].stress, s.houses["b"].trauma) == (10, 6)
    assert s.houses["a"].plot_points == 0


# ------------------------------------------------------------------ Attack an Asset or a Skill
KEEP = {"id": "keep#1", "name": "Keep", "kind": "holding", "die": 10}


@pytest.mark.parametrize("b_dice, trait, after", [
    ((6, 5, 2), "keep#1", 8),     # 13 vs 11: one step
    ((4, 4, 2), "keep#1", 6),     # 13 vs 8: beat by 5, a second step
    ((2, 1, 1), "keep#1", 0),     # 13 vs 2: beat by 11, three steps: below d6, lost
    ((6, 5, 2), "might", 6),      # a Skill steps down too
    ((2, 1, 1), "might", 4),      # ... but never below d4
])
def test_attack_trait(b_dice, trait, after):
    s = make_state(house("a", skills={"might": 10}), house("b", skills={"might": 8}, assets=[KEEP]),
                   rng=ScriptedRng(7, 6, 5, *b_dice))
    do(s, *start("attack-trait", "b", trait), *pool(), *pool(skill="security"))
    got = s.houses["b"].skills["might"] if trait == "might" else \
        (s.assets[trait].die if trait in s.assets else 0)
    assert got == after


def test_failed_attack_on_a_trait_lets_the_foe_strike_back_at_committed_traits():
    a = house("a", skills={"might": 10}, assets=[
        {"id": "levies#2", "name": "Levies", "kind": "resource", "die": 8},
        {"id": "gold#3", "name": "Gold", "kind": "resource", "die": 8}])
    s = make_state(a, house("b", skills={"might": 8}, assets=[KEEP]),
                   rng=ScriptedRng(2, 2, 2, 2, 7, 6, 8, 5))
    do(s, *start("attack-trait", "b", "keep#1"), *pool(commits=("levies#2",)), *pool())
    # b won with effect d8 (the might die left over); a may absorb it only with what it committed
    assert s.phase == turn.SACRIFICE and s.actor == "a"
    assert {str(x) for x in s.legal_actions()} == {"sacrifice levies#2", "sacrifice might", "accept"}
    do(s, A.Sacrifice("might"))        # d10 > d8: cancelled, might steps down
    assert s.houses["a"].skills["might"] == 8 and s.houses["a"].stress == 0


# ------------------------------------------------------------------ Seize a Holding
@pytest.mark.parametrize("holding_die, a_dice, seized", [
    (6, (7, 6, 5), True),      # 13 vs 7 and effect d10 > d6
    (6, (7, 6, 1), False),     # success, but effect d4 is not greater than the d6 Holding
])
def test_seize(holding_die, a_dice, seized):
    hold = {**KEEP, "die": holding_die, "full": 10}
    s = make_state(house("a", skills={"might": 10}), house("b", assets=[hold]),
                   rng=ScriptedRng(*a_dice, 3, 4, 2))
    do(s, *start("seize", None, "keep#1"), *pool(), *pool())
    assert (s.assets["keep#1"].owner == "a") == seized
    if seized:  # repairable up to its original rating
        assert (s.assets["keep#1"].die, s.assets["keep#1"].full) == (6, 10)


def test_only_holdings_at_d6_can_be_seized():
    s = make_state(house("a"), house("b", assets=[KEEP, {"id": "town#2", "name": "Town",
                                                          "kind": "holding", "die": 6}]))
    assert turn.seizable(s, s.houses["a"]) == ["town#2"]


# ------------------------------------------------------------------ Repair a Damaged Trait
@pytest.mark.parametrize("diff, after, full", [
    ((4, 5), 8, 10),    # 13 vs 9: one step
    ((2, 3), 10, 10),   # 13 vs 5: beat by 8, two steps
    ((1, 1), 10, 10),   # beat by 11: three steps, but no higher than the full rating
    ((8, 8), 6, 10),    # 13 vs 16: fails by 3, the damage remains
    ((8, 8), 6, 10),
])
def test_repair_skill(diff, after, full):
    s = make_state(house("a", skills={"might": 10, "craft": 6}, skills_full={"craft": 10}),
                   house("b"), rng=ScriptedRng(7, 6, 5, *diff))
    do(s, *start("repair", None, "craft"), *pool())
    assert (s.houses["a"].skills["craft"], s.houses["a"].skills_full["craft"]) == (after, full)


def test_repair_failing_by_5_makes_the_loss_permanent():
    s = make_state(house("a", skills={"craft": 6}, skills_full={"craft": 10}),
                   house("b"), rng=ScriptedRng(2, 3, 4, 8, 8))
    events = do(s, *start("repair", None, "craft"), *pool())   # 7 vs 16
    assert (s.houses["a"].skills["craft"], s.houses["a"].skills_full["craft"]) == (6, 6)
    assert "permanent-loss" in kinds(events)


def test_repair_asset():
    s = make_state(house("a", skills={"might": 10},
                         assets=[{**KEEP, "die": 6, "full": 10}]), house("b"),
                   rng=ScriptedRng(7, 6, 5, 4, 5))
    do(s, *start("repair", None, "keep#1"), *pool())
    assert s.assets["keep#1"].die == 8


def test_repair_difficulty_adds_complications_stress_and_trauma():
    """"the GM setting the difficulty at 2d8 plus any relevant Complications, Stress or
    Trauma": every one of them, not only the largest Complication."""
    s = make_state(house("a", skills={"might": 10}, stress=6, trauma=4, skills_full={"craft": 8},
                         complications=[{"from": "b", "die": 8, "lasting": True},
                                        {"from": "hitch", "die": 6, "lasting": True}]),
                   house("b"), rng=ScriptedRng(7, 6, 5, 1, 1, 2, 2, 3, 2))
    events = do(s, *start("repair", None, "craft"), *pool())
    test = next(e for e in events if e.kind == "test")
    assert test.data["opposition"]["dice"] == [8, 8, 6, 4, 8, 6]  # 2d8 + Stress, Trauma, both


@pytest.mark.parametrize("kind, trait, difficulty", [
    # "roll against a difficulty of 2d8 + the Stress or Trauma you're attempting to recover from"
    ("recover", "stress", [8, 8, 10]),
    ("recover", "trauma", [8, 8, 6]),
    # "roll against the Complication at standard difficulty"
    ("recover-complication", "complication:b", [8, 8, 8]),
    ("recover-complication", "complication:hitch", [8, 8, 4]),
])
def test_recovery_meets_only_the_trouble_recovered_from(kind, trait, difficulty):
    s = make_state(house("a", skills={"might": 10}, stress=10, trauma=6,
                         complications=[{"from": "b", "die": 8, "lasting": True},
                                        {"from": "hitch", "die": 4, "lasting": True}]),
                   house("b"), rng=ScriptedRng(7, 6, 5, 2, 2, 2))
    events = do(s, *start(kind, None, trait), *pool())
    test = next(e for e in events if e.kind == "test")
    assert test.data["opposition"]["dice"] == difficulty


# ------------------------------------------------------------------ Recover Stress or Trauma
@pytest.mark.parametrize("what, before, script, after", [
    ("stress", 8, (7, 6, 5, 2, 2, 2), 0),      # effect d10 > d8: gone
    ("stress", 10, (7, 6, 5, 2, 2, 2), 8),     # effect d10 = d10: steps down
    ("stress", 8, (2, 2, 2, 8, 8, 8), 8),      # failure: unchanged
    ("trauma", 6, (7, 6, 5, 2, 2, 2), 0),
])
def test_recover(what, before, script, after):
    s = make_state(house("a", skills={"might": 10}, **{what: before}), house("b"),
                   rng=ScriptedRng(*script))
    events = do(s, *start("recover", None, what), *pool())
    assert getattr(s.houses["a"], what) == after
    test = next(e for e in events if e.kind == "test")
    assert test.data["opposition"]["dice"] == [8, 8, before]   # 2d8 + the Stress or Trauma


def test_hitches_escalate_trauma():
    # 8+8 with the d10 a hitch: success (vs 1+1), effect d4 steps the d8 Trauma down to d6,
    # then the hitch steps it back up to d8
    s = make_state(house("a", skills={"might": 10}, trauma=8), house("b"),
                   rng=ScriptedRng(8, 8, 1, 1, 1, 1))
    events = do(s, *start("recover", None, "trauma"), *pool())
    assert s.houses["a"].trauma == 8 and "trauma-escalates" in kinds(events)
    s = make_state(house("a", trauma=12), house("b"), rng=ScriptedRng(1, 1, 4, 8, 8, 8))
    events = do(s, *start("recover", None, "trauma"), *pool())
    assert not s.houses["a"].alive    # two hitches past d12: the House's painful end


# ------------------------------------------------------------------ Recover from a Complication
@pytest.mark.parametrize("comp, script, after", [
    (8, (7, 6, 5, 2, 2, 2), 0),     # effect d10 bigger than the d8 complication: it vanishes
    (10, (7, 6, 5, 2, 2, 2), 8),    # equal: steps down
    (4, (7, 6, 1, 2, 2, 2), 0),     # effect d4 = d4: stepped down below d4, gone
    (8, (2, 2, 2, 8, 8, 8), 8),     # failure
])
def test_recover_complication(comp, script, after):
    s = make_state(house("a", skills={"might": 10},
                         complications=[{"from": "b", "die": comp, "lasting": True}]),
                   house("b"), rng=ScriptedRng(*script))
    do(s, *start("recover-complication", None, "complication:b"), *pool())
    comps = s.houses["a"].complications
    assert (comps[0]["die"] if comps else 0) == after


# ------------------------------------------------------------------ Sacrificing Skills and Assets
def _harmed(b):
    """a (Might d10) beats b: 13 vs 7, effect d10 heads for b."""
    s = make_state(house("a", skills={"might": 10}), b, rng=ScriptedRng(7, 6, 5, 3, 2, 2))
    do(s, *start("attack-house", "b"), *pool(), *pool(skill="logistics"))
    assert s.phase == turn.SACRIFICE and s.actor == "b"
    return s


def test_sacrifice_larger_die_cancels_the_effect():
    s = _harmed(house("b", assets=[{**KEEP, "die": 12}]))
    do(s, A.Sacrifice("keep#1"))
    assert s.assets["keep#1"].die == 10 and s.houses["b"].stress == 0


def test_sacrifice_equal_or_smaller_steps_both_down_and_assets_below_d6_are_lost():
    s = _harmed(house("b", skills={"might": 10},
                      assets=[{"id": "wall#2", "name": "Wall", "kind": "resource", "die": 6}]))
    do(s, A.Sacrifice("might"))                # d10 vs d10: both step down
    assert s.houses["b"].skills["might"] == 8 and s.ctx["harm"]["effect"] == 8
    events = do(s, A.Sacrifice("wall#2"))      # d6 vs d8: both step down, the Wall is lost
    assert "wall#2" not in s.assets
    assert [e.data["effect_after"] for e in events if e.kind == "sacrifice"] == [6]
    do(s, A.Accept())                          # (nothing left to throw: accepted at once)
    assert s.houses["b"].stress == 6


def test_d4_skills_cannot_block():
    s = _harmed(house("b", skills={"might": 6}))
    assert {str(x) for x in s.legal_actions()} == {"sacrifice might", "accept"}
    do(s, A.Sacrifice("might"))                # d6 <= d10: steps to d4 (a Skill's floor)
    assert s.houses["b"].skills["might"] == 4
    # might is d4 now: only accepting is left, applied at once
    assert s.houses["b"].stress == 8


# ------------------------------------------------------------------ hitches
def test_hitches_on_a_failed_roll_become_complications():
    s = make_state(house("a"), house("b"), rng=ScriptedRng(1, 1, 3, 5, 5))
    events = do(s, *start("create-asset"), *pool())
    assert s.houses["a"].complications == [{"from": "hitch", "die": 8, "lasting": True}]
    assert "hitch" in kinds(events)


def test_hitches_on_a_successful_roll_do_nothing():
    s = make_state(house("a", skills={"might": 10}), house("b"), rng=ScriptedRng(7, 1, 6, 2, 2))
    do(s, *start("create-asset"), *pool())
    assert s.houses["a"].complications == []


def test_distinction_as_d4_earns_a_plot_point():
    s = make_state(house("a"), house("b"), rng=ScriptedRng(3, 6, 1, 2, 2))
    events = do(s, *start("create-asset"), *pool(hinder=True))
    test = next(e for e in events if e.kind == "test")
    assert test.data["actor_roll"]["dice"][0] == 4 and s.houses["a"].plot_points >= 1


# ------------------------------------------------------------------ the season
def test_initiative_mental_plus_perception_ties_to_the_higher_second_die():
    s = make_state(house("a"), house("b"), house("c"),
                   rng=ScriptedRng(6, 2, 4, 4, 8, 1))  # a 8 (6,2), b 8 (4,4), c 8 (8, hitch)
    s.phase = turn.TURN_START
    events = []
    turn._start_season(s, events)
    assert s.order == ["b", "a", "c"]


def test_three_actions_then_a_free_recovery_then_advancement():
    s = make_state(house("a"), house("b"))
    s.phase, s.actor, s.ctx = turn.TURN_START, None, {}
    events = []
    while s.turn == 0:
        s.current_actor()
        events += s.advance()
        legal = s.legal_actions()
        events += s.apply(next((x for x in legal if str(x) in ("action pass", "done", "keep",
                                                                "accept")), legal[0]))
    x, y = next(e for e in events if e.kind == "initiative").data["order"]
    turns = [(e.faction, e.data["round"], e.data["free"]) for e in events if e.kind == "faction-turn"]
    assert turns == [(x, 1, False), (y, 1, False), (x, 2, False), (y, 2, False),
                     (x, 3, False), (y, 3, False), (x, 4, True), (y, 4, True)]
    assert s.houses["a"].advances == 1


@pytest.mark.parametrize("advances, option, trait, other, check", [
    (3, "step", "keep#1", "", lambda s: (s.assets["keep#1"].die, s.assets["keep#1"].full) == (12, 12)),
    (3, "step", "might", "", lambda s: s.houses["a"].skills_full["might"] == 6),
    (4, "attribute", "physical", "social", lambda s: (s.houses["a"].attributes["physical"],
                                                      s.houses["a"].attributes["social"]) == (10, 6)),
    (2, "sfx", "ruthless", "", lambda s: s.houses["a"].sfx == ["ruthless"]),
])
def test_advancement(advances, option, trait, other, check):
    s = make_state(house("a", advances=advances, assets=[KEEP]), house("b"))
    s.phase, s.ctx = turn.ADVANCE, {"actor": "a"}
    cost = {"step": 3, "attribute": 4, "sfx": 2}[option]
    do(s, A.Advance(option, trait, other))
    assert check(s) and s.houses["a"].advances == advances - cost


def test_signature_asset_from_this_season():
    s = make_state(house("a", advances=1, assets=[{"id": "blades#4", "name": "Blades", "die": 10,
                                                   "duration": "season", "created": 1}]), house("b"))
    s.phase, s.ctx = turn.ADVANCE, {"actor": "a"}
    assert "advance signature blades#4" in {str(x) for x in s.legal_actions()}
    do(s, A.Advance("signature", "blades#4"))
    a = s.assets["blades#4"]
    assert (a.kind, a.die, a.duration) == ("signature", 6, "permanent")
    turn._end_season(s, [])
    assert "blades#4" in s.assets
