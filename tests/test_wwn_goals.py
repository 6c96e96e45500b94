"""WWN faction goals and experience (6.7.0, and the goal step of 6.2.0).

Readings (goals.py docstring): progress counts what this faction does to hostile factions;
Eliminate Target fails at the goal step of the third turn after adoption; Root Out the Enemy's
difficulty is fixed at adoption; Wealth of Kingdoms advances with ``bribe N`` in the goal step.
Default map: a - b - c in a line; factions hostile unless stated; every die scripted.
"""

from __future__ import annotations

import pytest
from wwn_helpers import ScriptedRng, faction, make_state, play_to
from wwn_helpers import apply_texts as do
from wwn_helpers import legal_set as legal

from factionsim.rules.wwn import goals
from factionsim.rules.wwn.actions import ChooseGoal
from factionsim.rules.wwn.data import XP_TO_RAISE

IDLE = ("action pass", "keep goal", "done")



def run_to(state, phase, actor):
    """``play_to`` that also returns the events on the way."""
    events = state.advance()
    for _ in range(200):
        state.current_actor()
        events += state.advance()
        if state.phase == phase and state.actor == actor:
            return events
        by_text = {str(a): a for a in state.legal_actions()}
        choice = next((by_text[t] for t in IDLE if t in by_text), state.legal_actions()[0])
        events += state.apply(choice)
    raise AssertionError(f"never reached {phase} for {actor}")


def initiative(turns, n=2):
    """x first, then the others, for ``turns`` turns."""
    return [8] + [1] * (n - 1) if turns == 1 else ([8] + [1] * (n - 1)) * turns


def duel(x_kw, y_kw, dice=(), turns=1, z=False):
    """x (acting first) and y; x's assets are listed first, so they are numbered from 1."""
    facs = [faction("x", **x_kw), faction("y", **{"headquarters": "c", **y_kw})]
    if z:
        facs.append(faction("z", headquarters="c"))
    return make_state(facs, rng=ScriptedRng(*initiative(turns, len(facs)), *dice))


def attack_once(state, attacker, target="y"):
    play_to(state, "action", "x")
    return do(state, "action attack", f"attack {attacker} -> {target}")


def xp_at_goal_step(state):
    if not (state.phase == "goal" and state.actor == "x"):
        play_to(state, "goal", "x")
    return state.factions["x"].xp


# ============================================================== Blood the Enemy
@pytest.mark.parametrize("force, cunning, wealth", [(3, 3, 3), (1, 1, 1), (7, 3, 6), (8, 8, 8)])
def test_blood_the_enemy_needs_force_plus_cunning_plus_wealth(force, cunning, wealth):
    s = duel(dict(force=force, cunning=cunning, wealth=wealth, goal="blood-the-enemy"), {})
    g = s.factions["x"].goal
    assert (g.id, g.needed, g.progress) == ("blood-the-enemy", force + cunning + wealth, 0)
    assert g.difficulty == 2


@pytest.mark.parametrize("damage, complete", [(4, False), (5, True)])
def test_blood_the_enemy_counts_damage_dealt(damage, complete):
    s = duel(dict(force=3, cunning=1, wealth=1, goal="blood-the-enemy",
                  assets=[{"type": "infantry", "location": "b"}]),
             dict(assets=[{"type": "cavalry", "location": "b"}]),
             dice=(9, 1, damage))   # Force 3 + 9 beats Force 3 + 1; 1d8 damage
    attack_once(s, "infantry#1")
    assert s.assets["cavalry#2"].hp == 12 - damage
    x = s.factions["x"]
    assert xp_at_goal_step(s) == (2 if complete else 0)
    assert (x.goal is None) is complete
    if not complete:
        assert x.goal.progress == damage


def test_blood_the_enemy_counts_counterattack_damage():
    s = make_state([faction("x", force=3, cunning=1, wealth=1, goal="blood-the-enemy",
                            assets=[{"type": "infantry", "location": "b"}]),
                    faction("y", headquarters="c", assets=[{"type": "cavalry", "location": "b"}])],
                   rng=ScriptedRng(1, 8,     # y acts first
                                   1, 9,     # y's cavalry fails against x's infantry
                                   5))       # x's infantry counterattacks for 1d6 = 5
    play_to(s, "action", "y")
    do(s, "action attack", "attack cavalry#2 -> x")
    assert s.factions["x"].goal.progress == 5
    assert xp_at_goal_step(s) == 2


# ============================================================== Destroy the Foe
@pytest.mark.parametrize("foe_ratings, xp", [
    ((3, 3, 3), 5), ((3, 4, 4), 6), ((1, 1, 2), 4), ((8, 8, 7), 10), ((5, 2, 4), 6)])
def test_destroy_the_foe_pays_two_plus_the_destroyed_factions_average(foe_ratings, xp):
    """6.7.0: "Destroy the Foe: Destroy a rival faction. Difficulty equal to 2 plus the average of
    the faction's Force, Cunning, and Wealth ratings." Reading (docs/rules-wwn.md): "the faction"
    is the rival destroyed, its ratings when it collapses, the average rounded up. The scorer x
    has 1/1/1 (its own ratings would always pay 3)."""
    f, c, w = foe_ratings
    s = duel(dict(force=1, cunning=1, wealth=1, goal="destroy-the-foe",
                  assets=[{"type": "infantry", "location": "b"}]),
             dict(force=f, cunning=c, wealth=w, headquarters="b", hp=1,
                  assets=[{"type": "base-of-influence", "location": "b", "hp": 1}]),
             dice=(9, 1, 3), z=True)
    events = attack_once(s, "infantry#1")
    assert any(e.kind == "collapse" and e.faction == "y" for e in events)
    assert not s.factions["y"].alive
    assert xp_at_goal_step(s) == xp
    assert s.factions["x"].goal is None


def test_destroy_the_foe_not_offered_without_a_hostile_faction():
    s = make_state([faction("x"), faction("y", headquarters="c")],
                   relations=[["x", "y", "neutral"]])
    assert ChooseGoal("destroy-the-foe") not in goals.options(s, s.factions["x"])


# ============================================================== Eliminate Target
@pytest.mark.parametrize("y_asset, relation, offered", [
    ({"type": "cavalry", "location": "b"}, "hostile", True),
    ({"type": "cavalry", "location": "b", "hp": 11}, "hostile", False),      # damaged
    ({"type": "cavalry", "location": "b", "stealth": True}, "hostile", False),  # unseen
    ({"type": "cavalry", "location": "b"}, "neutral", False),                 # not a rival
    ({"type": "base-of-influence", "location": "b", "max_hp": 3}, "hostile", False),  # a Base
])
def test_eliminate_target_needs_an_undamaged_rival_asset(y_asset, relation, offered):
    rel = [] if relation == "hostile" else [["x", "y", relation]]
    s = make_state([faction("x"), faction("y", headquarters="c", assets=[y_asset])],
                   relations=rel)
    opts = goals.options(s, s.factions["x"])
    assert (ChooseGoal("eliminate-target", f"{y_asset['type']}#1") in opts) is offered


def test_eliminate_target_destroyed_pays_one():
    s = duel(dict(goal={"id": "eliminate-target", "target": "cavalry#2"},
                  assets=[{"type": "infantry", "location": "b"}]),
             dict(assets=[{"type": "cavalry", "location": "b", "hp": 3}]), dice=(9, 1, 3))
    assert s.factions["x"].goal.difficulty == 1
    attack_once(s, "infantry#1")
    assert "cavalry#2" not in s.assets
    assert xp_at_goal_step(s) == 1


def test_eliminate_target_fails_after_three_turns_without_paralysis():
    s = duel({}, dict(assets=[{"type": "cavalry", "location": "b"}]), turns=6)
    play_to(s, "goal", "x")                       # turn 1: adopt
    do(s, "goal eliminate-target cavalry#1")
    x = s.factions["x"]
    assert not x.paralysed and x.goal.started == 1
    for turn in (2, 3):
        play_to(s, "goal", "x")
        assert s.current_turn == turn and x.goal is not None and "keep goal" in legal(s)
        do(s, "keep goal")
    events = run_to(s, "goal", "x")              # turn 4: three turns after adoption
    assert s.current_turn == 4
    assert [e.data["goal"] for e in events if e.kind == "goal-failed"] == ["eliminate-target"]
    assert x.goal is None and "keep goal" not in legal(s) and x.xp == 0
    do(s, "goal peaceable-kingdom")
    assert not x.paralysed                        # a free goal change
    events = run_to(s, "goal", "x")
    assert not any(e.kind == "paralysed" for e in events)


def test_eliminate_target_fails_when_the_target_leaves_play_otherwise():
    s = duel(dict(goal={"id": "eliminate-target", "target": "cavalry#1"}),
             dict(assets=[{"type": "cavalry", "location": "b"}]))
    del s.assets["cavalry#1"]   # sold, lost to upkeep...
    assert goals.evaluate(s, s.factions["x"], False) == "failed"


# ============================================================== Expand Influence
@pytest.mark.parametrize("y_there, relation, xp", [
    (False, "hostile", 1),
    (True, "hostile", 2),     # a rival contests it
    (True, "neutral", 1),     # a neutral faction is no rival
])
def test_expand_influence_goal(y_there, relation, xp):
    y_assets = [{"type": "thugs", "location": "b"}] if y_there else []
    rel = [] if relation == "hostile" else [["x", "y", relation]]
    s = make_state([faction("x", goal="expand-influence", treasure=5,
                            assets=[{"type": "thugs", "location": "b"}]),
                    faction("y", headquarters="c", assets=y_assets)],
                   relations=rel, rng=ScriptedRng(8, 1, *((9, 1) if y_there else ())))
    play_to(s, "action", "x")
    do(s, "action expand", "base hp 2")
    assert s.rng.remaining == []
    assert xp_at_goal_step(s) == xp


def test_expand_influence_goal_not_met_when_the_base_is_destroyed():
    s = make_state([faction("x", goal="expand-influence", treasure=5,
                            assets=[{"type": "thugs", "location": "b"}]),
                    faction("y", headquarters="c", assets=[{"type": "thugs", "location": "b"}])],
                   rng=ScriptedRng(8, 1,
                                   1, 9,    # y wins the Cunning check
                                   9, 1,    # y's thugs hit
                                   6))      # 1d6 = 6 against a 2 HP Base
    play_to(s, "action", "x")
    do(s, "action expand", "base hp 2", "attack thugs#2 -> x")
    events = do(s, "defend with base-of-influence#5")
    assert any(e.kind == "base-lost" for e in events)
    assert xp_at_goal_step(s) == 0
    assert s.factions["x"].goal.id == "expand-influence"


# ============================================================== Inside Enemy Territory
@pytest.mark.parametrize("moved, complete", [(1, False), (2, True)])
def test_inside_enemy_territory_counts_new_stealthed_assets_at_rival_bases(moved, complete):
    spies = [{"type": "smugglers", "location": "a", "stealth": True}] * 2
    s = duel(dict(cunning=2, goal="inside-enemy-territory",
                  assets=[*spies, {"type": "smugglers", "location": "b", "stealth": True}]),
             dict(assets=[{"type": "base-of-influence", "location": "b", "max_hp": 3}]))
    g = s.factions["x"].goal
    assert g.needed == 2 and g.baseline == ["smugglers#3"]  # already there: does not count
    play_to(s, "action", "x")
    do(s, "action move", *[f"move smugglers#{i} -> b" for i in range(1, moved + 1)])
    if s.phase == "move":
        do(s, "done")
    assert xp_at_goal_step(s) == (2 if complete else 0)
    if not complete:
        assert g.progress == 1


#: "Have a number of Stealthed assets in locations where there is a rival Base of Influence
#: equal to your Cunning score. Units that are already Stealthed in locations when this goal is
#: adopted don't count." Our reading: the *units* (asset ids) Stealthed in enemy ground at
#: adoption never count for the goal, wherever they go; units Stealthed elsewhere (a) count once
#: they stand in enemy ground. x has Cunning 2: smugglers #1 and #2 hidden at a, #3 hidden at b;
#: y has Bases at b and c.
@pytest.mark.parametrize("moves, progress", [
    (["smugglers#3 -> c"], 0),                        # the unit already there, moved on: no
    (["smugglers#1 -> b", "smugglers#3 -> c"], 1),    # one new unit; #3 still does not count
    (["smugglers#1 -> b", "smugglers#2 -> b"], 2),    # two units hidden elsewhere: complete
])
@pytest.mark.parametrize("baseline", [
    None,                 # adopted when the campaign loads: the goal writes the units it excludes
    ["smugglers#3"],      # saved in this form
    ["smugglers#3@b"],    # saved before this reading: (asset, location) pairs, read as the asset
])
def test_inside_enemy_territory_units_stealthed_in_enemy_ground_at_adoption_never_count(
        moves, progress, baseline):
    goal = ("inside-enemy-territory" if baseline is None else
            {"id": "inside-enemy-territory", "needed": 2, "difficulty": 2,
             "baseline": baseline})
    spies = [{"type": "smugglers", "location": "a", "stealth": True}] * 2
    base = {"type": "base-of-influence", "max_hp": 3}
    s = duel(dict(cunning=2, goal=goal,
                  assets=[*spies, {"type": "smugglers", "location": "b", "stealth": True}]),
             dict(assets=[{**base, "location": "b"}, {**base, "location": "c"}]))
    g = s.factions["x"].goal
    assert goals.inside_excluded(s, g) == {"smugglers#3"}
    play_to(s, "action", "x")
    do(s, "action move", *[f"move {m}" for m in moves])
    if s.phase == "move":
        do(s, "done")
    assert xp_at_goal_step(s) == (2 if progress == 2 else 0)
    assert (g.progress, g.needed) == (progress, 2)  # as the goal step counted them


def test_inside_enemy_territory_progress_now_follows_cunning_raised_after_the_goal_step():
    """The goal needs "a number of Stealthed assets ... equal to your Cunning score": the
    current score, also between goal steps (the chronicle's reasons and the status line)."""
    s = duel(dict(cunning=2, goal={"id": "inside-enemy-territory", "needed": 2}), {})
    x = s.factions["x"]
    x.cunning = 3
    assert goals.progress_now(s, x) == (0, 3)
    # the status line after ``run`` and ``show`` say the same as the chronicle's reasons
    from factionsim.rules.wwn.present import status_line
    assert status_line(s, "x").endswith("goal Inside Enemy Territory 0/3")


# ============================================================== Invincible Valor
@pytest.mark.parametrize("target, complete", [
    ("infantry", True),            # Force 3 asset > x's Force 2
    ("reserve-corps", False),      # Force 2: not higher
    ("idealistic-thugs", False),   # rating 4, but a Cunning asset
])
def test_invincible_valor(target, complete):
    s = duel(dict(force=2, goal="invincible-valor", assets=[{"type": "scouts", "location": "b"}]),
             dict(assets=[{"type": target, "location": "b", "hp": 1}]), dice=(9, 1, 1, 1))
    attack_once(s, "scouts#1")
    assert f"{target}#2" not in s.assets
    assert xp_at_goal_step(s) == (2 if complete else 0)


# ============================================================== Peaceable Kingdom
def test_peaceable_kingdom_after_four_turns_without_attack():
    s = duel(dict(goal="peaceable-kingdom"), {}, turns=4)
    x = s.factions["x"]
    for turn in (1, 2, 3):
        play_to(s, "goal", "x")
        assert x.goal.progress == turn and x.xp == 0
        do(s, "keep goal")
    assert xp_at_goal_step(s) == 1 and x.goal is None


def test_peaceable_kingdom_count_restarts_after_an_attack():
    s = duel(dict(goal="peaceable-kingdom", assets=[{"type": "infantry", "location": "b"}]),
             dict(assets=[{"type": "cavalry", "location": "b"}]), turns=1)
    x = s.factions["x"]
    play_to(s, "goal", "x")
    assert x.goal.progress == 1
    do(s, "keep goal")
    s.rng.values += [8, 1, 1, 9, 3]   # turn 2: x attacks, fails, takes 1d6 counter = 3
    attack_once(s, "infantry#1")
    play_to(s, "goal", "x")
    assert x.goal.progress == 0 and x.xp == 0


# ============================================================== Root Out the Enemy
@pytest.mark.parametrize("ratings, xp", [
    ((1, 1, 1), 1), ((3, 3, 3), 2), ((2, 2, 3), 2), ((4, 4, 5), 3), ((5, 6, 7), 3),
    ((8, 8, 8), 4)])
def test_root_out_the_enemy(ratings, xp):
    f, c, w = ratings
    s = duel(dict(goal={"id": "root-out-the-enemy", "target": "y@b"},
                  assets=[{"type": "infantry", "location": "b"}]),
             dict(force=f, cunning=c, wealth=w,
                  assets=[{"type": "base-of-influence", "location": "b", "max_hp": 1}]),
             dice=(9, 1, 2))
    assert s.factions["x"].goal.difficulty == xp
    attack_once(s, "infantry#1")
    assert s.base_of("y", "b") is None
    assert xp_at_goal_step(s) == xp


def test_root_out_targets_visible_rival_bases():
    s = duel({}, dict(assets=[{"type": "base-of-influence", "location": "b", "max_hp": 1}]))
    opts = {str(o) for o in goals.options(s, s.factions["x"])}
    assert {"goal root-out-the-enemy y@b", "goal root-out-the-enemy y@c"} <= opts
    assert "goal root-out-the-enemy x@a" not in opts


# ============================================================== Sphere Dominance
@pytest.mark.parametrize("rating, xp", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (8, 4)])
def test_sphere_dominance_needs_rating_kills_for_half_rounded_up(rating, xp):
    s = duel(dict(wealth=rating, goal={"id": "sphere-dominance", "target": "wealth"}), {})
    g = s.factions["x"].goal
    assert (g.needed, g.difficulty) == (rating, xp)


@pytest.mark.parametrize("target, complete", [("infantry", True), ("idealistic-thugs", False)])
def test_sphere_dominance_counts_destroyed_assets_of_the_sphere(target, complete):
    s = duel(dict(force=1, goal={"id": "sphere-dominance", "target": "force"},
                  assets=[{"type": "infantry", "location": "b"}]),
             dict(assets=[{"type": target, "location": "b", "hp": 1}]), dice=(9, 1, 1))
    attack_once(s, "infantry#1")
    assert f"{target}#2" not in s.assets
    assert xp_at_goal_step(s) == (1 if complete else 0)


# ============================================================== Wealth of Kingdoms
def test_wealth_of_kingdoms_bribes_accumulate_over_turns():
    s = duel(dict(force=1, cunning=1, wealth=2, treasure=3, xp=2, goal="wealth-of-kingdoms"),
             {}, turns=2)
    x = s.factions["x"]
    assert (x.goal.needed, x.goal.difficulty) == (8, 2)
    play_to(s, "goal", "x")
    assert x.treasure == 5 and "bribe 5" in legal(s)     # income 2
    do(s, "bribe 5")
    assert x.treasure == 0 and x.goal.progress == 5 and x.xp == 2
    do(s, "keep goal")
    play_to(s, "goal", "x")
    assert "bribe 2" in legal(s)                          # all the Treasure there is
    do(s, "bribe 2")
    assert x.goal.progress == 7 and x.xp == 2 and "keep goal" in legal(s)


@pytest.mark.parametrize("treasure, complete", [(5, False), (6, True), (20, True)])
def test_wealth_of_kingdoms_completes_when_the_sum_is_spent(treasure, complete):
    s = duel(dict(force=1, cunning=1, wealth=2, treasure=treasure, goal="wealth-of-kingdoms"), {})
    x = s.factions["x"]
    play_to(s, "goal", "x")
    spent = min(treasure + 2, 8)
    do(s, f"bribe {spent}")
    assert x.treasure == treasure + 2 - spent
    assert x.xp == (2 if complete else 0) and (x.goal is None) is complete
    if complete:
        assert "goal wealth-of-kingdoms" not in legal(s)   # Wealth has not risen


def test_wealth_of_kingdoms_can_be_chosen_again_after_wealth_rises():
    s = duel(dict(force=1, cunning=1, wealth=2, treasure=6, xp=1, goal="wealth-of-kingdoms"), {})
    x = s.factions["x"]
    play_to(s, "goal", "x")
    do(s, "bribe 8")
    assert x.xp == 3 and "goal wealth-of-kingdoms" not in legal(s)
    do(s, "goal peaceable-kingdom", "raise wealth")   # 2 -> 3 costs 2 XP
    assert x.wealth == 3
    assert ChooseGoal("wealth-of-kingdoms") in goals.options(s, x)


# ============================================================== abandoning a goal
def test_abandoning_an_open_goal_paralyses_the_next_turn():
    s = duel(dict(goal="peaceable-kingdom", treasure=0, assets=[{"type": "infantry",
                                                                 "location": "b"}]),
             dict(assets=[{"type": "cavalry", "location": "b"}]), turns=3)
    x = s.factions["x"]
    play_to(s, "goal", "x")
    events = do(s, "goal blood-the-enemy")
    assert x.paralysed and x.goal.id == "blood-the-enemy"
    assert any(e.kind == "goal-abandoned" for e in events)
    events = run_to(s, "goal", "x")           # turn 2: no abilities, no action
    mine = [e.kind for e in events if e.faction == "x"]
    assert "paralysed" in mine and "action" not in mine
    assert "income" in mine and x.treasure == 2 * 3   # income is still earned
    assert not x.paralysed
    do(s, "keep goal")
    play_to(s, "action", "x")                 # turn 3: acts again
    assert s.current_turn == 3 and "action attack" in legal(s)


def test_choosing_a_goal_with_none_open_costs_nothing():
    s = duel({}, {}, turns=2)
    x = s.factions["x"]
    play_to(s, "goal", "x")
    do(s, "goal peaceable-kingdom")
    assert not x.paralysed
    events = run_to(s, "goal", "x")
    assert not any(e.kind == "paralysed" for e in events)


# ============================================================== spending XP
@pytest.mark.parametrize("old, cost", [(5, 9), (6, 12)])   # the seed's example steps
def test_raise_cost_per_step(old, cost):
    assert XP_TO_RAISE[old + 1] == cost


def test_raising_force_from_five_to_seven_costs_twenty_one():
    s = duel(dict(force=5, cunning=5, wealth=5, xp=21, goal="peaceable-kingdom"), {})
    x = s.factions["x"]
    play_to(s, "goal", "x")
    do(s, "keep goal", "raise force")
    assert (x.force, x.xp) == (6, 12)
    do(s, "raise force")
    assert (x.force, x.xp) == (7, 0)
    assert s.phase != "raise" or "raise force" not in legal(s)


@pytest.mark.parametrize("rating, xp, can", [(5, 8, False), (5, 9, True), (7, 100, True),
                                             (8, 100, False)])
def test_raise_needs_the_xp_and_stops_at_eight(rating, xp, can):
    s = duel(dict(force=rating, cunning=1, wealth=1, xp=xp, goal="peaceable-kingdom"), {})
    play_to(s, "goal", "x")
    do(s, "keep goal")
    assert (s.phase == "raise" and "raise force" in legal(s)) is can


@pytest.mark.parametrize("tag, top, other", [("martial", "force", "cunning"),
                                             ("machiavellian", "cunning", "wealth"),
                                             ("rich", "wealth", "force")])
def test_tags_keep_their_attribute_the_highest(tag, top, other):
    ratings = {"force": 3, "cunning": 3, "wealth": 3, top: 5, other: 5}
    s = duel(dict(**ratings, xp=50, tags=[tag], goal="peaceable-kingdom"), {})
    play_to(s, "goal", "x")
    do(s, "keep goal")
    assert f"raise {other}" not in legal(s)   # would pass the tag's attribute
    assert f"raise {top}" in legal(s)
    do(s, f"raise {top}")
    assert f"raise {other}" in legal(s)       # now only equal to it


@pytest.mark.parametrize("attr, old, gain", [("force", 5, 3), ("wealth", 1, 1), ("cunning", 7, 4)])
def test_raising_a_rating_raises_max_hp_and_the_headquarters_base(attr, old, gain):
    ratings = {"force": 2, "cunning": 2, "wealth": 2, attr: old}
    s = duel(dict(**ratings, xp=50, goal="peaceable-kingdom", hp=5), {})
    x = s.factions["x"]
    before = x.max_hp
    hq = s.headquarters_base("x")
    hq.hp = 4
    play_to(s, "goal", "x")
    do(s, "keep goal", f"raise {attr}")
    assert x.max_hp == before + gain
    assert x.hp == 5 + gain
    assert hq.max_hp == x.max_hp and hq.hp == 4 + gain


@pytest.mark.parametrize("goal, shown", [
    ({"id": "eliminate-target", "target": "cavalry#2"}, "Eliminate Target (Y's Cavalry)"),
    ({"id": "root-out-the-enemy", "target": "y@c"}, "Root Out the Enemy (Y's Base at c)"),
])
def test_the_status_line_names_a_goal_target_as_the_chronicle_does(goal, shown):
    """``show`` and the status line after ``run`` name the target (its owner, the place), not
    its id (``cavalry#2``, ``y@c``)."""
    from factionsim.rules.wwn.present import status_line
    s = duel(dict(goal=goal, assets=[{"type": "infantry", "location": "b"}]),
             dict(assets=[{"type": "cavalry", "location": "b"}]))
    assert f"goal {shown} " in status_line(s, "x")
