"""Rule tests for the engagements ruleset (seed 000 "9.7 Engagements"), one group per paragraph,
with fixed dice (``ScriptedRng``)."""

from __future__ import annotations

import pytest
from engagements_helpers import ScriptedRng, drive, faction, kinds, make_state, pid, pillar, texts

from factionsim.core.game import CampaignError, IllegalActionError
from factionsim.rules.engagements.dice import successes, wounds
from factionsim.rules.engagements.state import EngagementsState

#: no income unless a test wants it
QUIET = {"income_base": 0, "income_per_pillars": 10}


# ------------------------------------------------------------------ step 6: successes and wounds
@pytest.mark.parametrize("succ, defense, expected", [
    # the seed's worked example: defense 2 -> 1-2 successes no wound, 3-4 one, 5-6 two
    (0, 2, 0), (1, 2, 0), (2, 2, 0), (3, 2, 1), (4, 2, 1), (5, 2, 2), (6, 2, 2), (7, 2, 3),
    (1, 1, 0), (2, 1, 1), (3, 1, 2),  # defense 1: each success after the first
    (1, 0, 1), (4, 0, 4),  # defense 0: every success is a wound [ours]
    (3, 3, 0), (4, 3, 1), (7, 3, 2), (5, 4, 1),
])
def test_wounds_from_successes(succ, defense, expected):
    assert wounds(succ, defense) == expected


@pytest.mark.parametrize("dice, expected", [([1, 2], 0), ([3], 1), ([6, 5, 4, 3, 2, 1], 4), ([], 0)])
def test_every_three_or_higher_is_a_success(dice, expected):
    assert successes(dice) == expected


def duel(rng, a_pillars=None, b_pillars=None, pool=3, **kw):
    a = faction("a", *(a_pillars or [pillar("Lances", 3, 1)]), engagement={"b": pool})
    b = faction("b", *(b_pillars or [pillar("Wall", 1, 2)]))
    return make_state(a, b, rng=rng, settings={**QUIET, **kw.pop("settings", {})}, **kw)


@pytest.mark.parametrize("attack_dice, wounds_marked", [
    ([1, 2, 1, 2, 1, 2], 0),  # 0 successes
    ([3, 2, 1, 2, 1, 6], 0),  # 2 successes vs defense 2: no wound
    ([3, 4, 5, 1, 2, 1], 1),  # 3 successes: one wound
    ([3, 4, 5, 6, 2, 1], 1),  # 4: one
    ([3, 4, 5, 6, 6, 1], 2),  # 5: two
    ([3, 4, 5, 6, 6, 6], 2),  # 6: two
])
def test_seed_example_through_a_whole_engagement(attack_dice, wounds_marked):
    s = duel(ScriptedRng(*attack_dice, 1))  # 3 competence + 3 engagement dice; the counter rolls 1
    events = drive(s, "engage b", "draw 3")
    strike = kinds(events, "strike")[0]
    assert strike["rolls"] == {"a": attack_dice} and strike["defense"] == 2
    assert strike["wounds"] == wounds_marked
    assert s.pillars[pid(s, "Wall")].wounds == wounds_marked
    assert s.factions["a"].pool("b") == 0  # the drawn dice are spent


# ------------------------------------------------------------------ steps 1-4
def test_engaging_needs_engagement_dice_gained_against_the_target():
    """"A faction has the option of engaging another whenever it gains engagement dice against
    that faction": the dice it holds were gained since it last engaged that faction (starting
    pools count as gained); gaining more opens a new engagement, in the same turn too: the text
    sets no limit per turn."""
    s = duel(ScriptedRng(*[1] * 6, 1), pool=0)
    s.factions["a"].faction_dice = 1
    assert "engage b" not in texts(s) and "convert 1 -> b" in texts(s)
    s = duel(ScriptedRng(*[1] * 4, 1, *[1] * 5, 1), pool=2)
    s.factions["a"].faction_dice = 2
    assert "engage b" in texts(s)
    drive(s, "engage b", "draw 1")
    assert s.phase == "spend" and s.factions["a"].pool("b") == 1 and "engage b" not in texts(s)
    drive(s, "convert 1 -> b")  # it gains a die against b: it may engage b again, this turn
    assert (s.turn, s.actor) == (0, "a") and "engage b" in texts(s)
    events = drive(s, "engage b", "draw 2")
    assert kinds(events, "strike")[0]["rolls"]["a"] == [1] * 5


def test_a_scenario_may_limit_engagements_per_turn():
    s = duel(ScriptedRng(*[1] * 4, 1), pool=2, settings={"engagements_per_turn": 1})
    s.factions["a"].faction_dice = 2
    drive(s, "engage b", "draw 1", "convert 1 -> b")
    assert s.actor == "a" and "engage b" not in texts(s)


@pytest.mark.parametrize("faction_dice, commits, offered_after, dice_after", [
    (0, ["A"], [], 3),  # the first pillar is free; no die left for another
    (1, ["A", "B"], [], 5),  # each further pillar costs 1 faction die
    (2, ["A", "B", "C"], [], 6),
    (2, ["C", "A"], ["B"], 4),
])
def test_first_pillar_free_each_further_one_die(faction_dice, commits, offered_after, dice_after):
    a = faction("a", pillar("A", 3, 1), pillar("B", 2, 1), pillar("C", 1, 1),
                engagement={"b": 1}, faction_dice=faction_dice)
    s = make_state(a, faction("b", pillar("Wall", 1, 2)), settings=QUIET, rng=ScriptedRng())
    drive(s, "engage b", *[f"commit {{{c}}}" for c in commits])
    offered = [t.split()[1] for t in texts(s) if t.startswith("commit")]
    assert offered == [pid(s, n) for n in offered_after]
    part = s.ctx["eng"]["parts"][0]
    assert part["dice"] == dice_after  # step 3: one die per level of competence
    assert s.factions["a"].faction_dice == faction_dice - (len(commits) - 1)


@pytest.mark.parametrize("pool, draws", [(1, [0, 1]), (3, [0, 1, 2, 3]), (7, [0, 1, 2, 3])])
def test_at_most_three_engagement_dice(pool, draws):
    s = duel(ScriptedRng(), pool=pool)
    drive(s, "engage b")
    assert texts(s) == [f"draw {n}" for n in draws]


# ------------------------------------------------------------------ step 5: divide all dice
def test_dice_are_divided_among_the_defenders_pillars_in_small_decisions():
    b = [pillar("W1", 1, 2), pillar("W2", 1, 2)]
    s = duel(ScriptedRng(*[1] * 6, *[1] * 2), b_pillars=b)
    drive(s, "engage b", "draw 3")
    w1, w2 = pid(s, "W1"), pid(s, "W2")
    assert set(texts(s)) == {f"allocate {n} -> {p}" for p in (w1, w2) for n in range(1, 7)}
    drive(s, f"allocate 2 -> {w1}")
    assert set(texts(s)) == {f"allocate {n} -> {p}" for p in (w1, w2) for n in range(1, 5)}
    events = drive(s, f"allocate 1 -> {w2}", f"allocate 3 -> {w1}")
    assert kinds(events, "allocation")[0]["allocation"] == {w1: 5, w2: 1}
    assert [len(x["rolls"]["a"]) for x in kinds(events, "strike")[:2]] == [5, 1]


def test_a_single_target_takes_every_die_automatically():
    s = duel(ScriptedRng(*[1] * 6, 1))
    events = drive(s, "engage b", "draw 3")
    assert kinds(events, "allocation")[0]["allocation"] == {pid(s, "Wall"): 6}
    assert kinds(events, "strike")[0]["rolls"]["a"] == [1] * 6


# ------------------------------------------------------------------ steps 7-8: the counter
def test_only_attacked_pillars_still_standing_counter():
    b = [pillar("Doomed", 2, 0, circles=1), pillar("Hit", 2, 3), pillar("Spared", 3, 3)]
    rng = ScriptedRng(3, 1, 1, 1, 4, 4)  # 1 die on Doomed (defeated), 3 on Hit; counter: 2 dice
    s = duel(rng, b_pillars=b, pool=1)
    drive(s, "engage b", "draw 1", f"allocate 1 -> {pid(s, 'Doomed')}")
    events = drive(s, f"allocate 3 -> {pid(s, 'Hit')}")
    assert kinds(events, "pillar-defeated")[0]["pillar"].startswith("doomed#")
    counter = kinds(events, "counter")[0]
    assert counter["pillars"] == [pid(s, "Hit")] and counter["dice"] == 2
    hit = kinds(events, "strike")[-1]
    assert hit["counter"] and hit["pillar"] == pid(s, "Lances") and hit["successes"] == 2
    assert s.pillars[pid(s, "Lances")].wounds == 1  # defense 1: 2 successes -> 1 wound
    assert rng.remaining == []


def test_counter_only_against_the_pillars_that_attacked():
    a = [pillar("Lances", 3, 1), pillar("Home Guard", 1, 1)]
    s = duel(ScriptedRng(1, 1, 1, 1, 1), a_pillars=a, pool=1)
    events = drive(s, "engage b", "commit {Lances}", "draw 1")  # no die for Home Guard: done forced
    # the counter's single die can go only to Lances (not to Home Guard, which stayed home)
    counter = [x for x in kinds(events, "strike") if x["counter"]]
    assert [x["pillar"] for x in counter] == [pid(s, "Lances")]


@pytest.mark.parametrize("boons, countered", [([], True), (["assassinate"], False)])
def test_assassinate_cannot_be_countered(boons, countered):
    s = duel(ScriptedRng(1, 1, 1, 6), a_pillars=[pillar("Knives", 3, 0, boons=boons)], pool=1)
    events = drive(s, "engage b", "draw 0")
    assert bool(kinds(events, "counter")) is countered
    assert bool(kinds(events, "no-counter")) is not countered


def test_counter_draws_engagement_dice_against_the_aggressor_and_allocates():
    b = faction("b", pillar("Wall", 2, 4), engagement={"a": 5})
    a = faction("a", pillar("L1", 1, 1), pillar("L2", 1, 1), engagement={"b": 1}, faction_dice=1)
    s = make_state(a, b, settings=QUIET, rng=ScriptedRng(1, 1, 6, 6, 6, 6, 6))
    drive(s, "engage b", "commit {L1}", "commit {L2}", "draw 0")
    assert s.actor == "b" and texts(s) == ["draw 0", "draw 1", "draw 2", "draw 3"]
    drive(s, "draw 3")
    assert s.factions["b"].pool("a") == 2
    events = drive(s, "allocate 4 -> {L1}", "allocate 1 -> {L2}")
    assert [x["wounds"] for x in kinds(events, "strike")] == [3, 0]
    assert "l1" not in {p.slug for p in s.pillars.values()}  # defeated, renown to b
    assert s.factions["b"].renown == 1


@pytest.mark.parametrize("wounds_before, uses, dice, standing", [
    (0, 1, 4, True),    # one circle marked: 2 + 2 dice
    (0, 2, 6, True),    # marked twice in one engagement: 2 + 4 dice
    (2, 1, 4, False),   # its last circle: the dice are gained and the pillar falls
])
def test_fanatical_marks_a_circle_for_two_dice(wounds_before, uses, dice, standing):
    """Fanatical (Anima Prime 17.2, other_systems.md): "mark a wound circle to gain 2 dice when
    engaging or countering" -- as often as it has circles, the last one included."""
    a = [pillar("Zealots", 2, 1, boons=["fanatical"], wounds=wounds_before),
         pillar("Guard", 1, 1)]
    s = duel(ScriptedRng(*[1] * dice, 1), a_pillars=a, pool=1)
    zealots = pid(s, "Zealots")
    drive(s, "engage b", "commit {Zealots}")
    events = []
    for _ in range(uses):
        assert f"fanatical {zealots}" in texts(s)
        events += drive(s, f"fanatical {zealots}")
    if "done" in texts(s):  # (with the Zealots fallen, going on is the only choice: forced)
        events += drive(s, "done")
    events += drive(s, "draw 0")
    assert kinds(events, "allocation")[0]["dice"] == dice
    assert (zealots in s.pillars) is standing
    if not standing:
        assert kinds(events, "pillar-defeated")[0]["by"] is None
        assert s.factions["a"].renown == 0 and s.factions["b"].renown == 0


# ------------------------------------------------------------------ combined engagements
def three(rng, c_extra=None, a_dice=0, settings=None):
    a = faction("a", pillar("A", 2, 1), engagement={"b": 1}, faction_dice=a_dice)
    b = faction("b", pillar("Wall", 1, 2))
    c = faction("c", pillar("C", 2, 1), **(c_extra or {}))
    return make_state(a, b, c, settings={**QUIET, **(settings or {})}, rng=rng)


@pytest.mark.parametrize("a_dice, c_dice, wounds_marked", [
    ([3, 1], [6, 5], 1),  # 1 + 2 successes = 3 against defense 2: a wound neither scores alone
    ([1, 1], [6, 5], 0),  # 2 successes: none
    ([3, 3], [6, 5], 1),  # 4: one
    ([3, 3], [6, 6], 1),
])
def test_combined_successes_are_added_before_wounds(a_dice, c_dice, wounds_marked):
    s = three(ScriptedRng(*a_dice, *c_dice, 1))
    drive(s, "engage b")
    assert texts(s) == ["invite c", "done"]
    drive(s, "invite c")
    assert s.actor == "c" and texts(s) == ["join", "decline"]
    events = drive(s, "join", "draw 0")
    strike = kinds(events, "strike")[0]
    assert strike["rolls"] == {"a": a_dice, "c": c_dice}
    assert strike["successes"] == successes(a_dice) + successes(c_dice)
    assert s.pillars[pid(s, "Wall")].wounds == wounds_marked


def test_allies_cannot_assist_in_counters_but_can_be_countered():
    s = three(ScriptedRng(1, 1, 1, 1, 6))
    drive(s, "engage b", "invite c", "join", "draw 0")
    assert s.actor == "b"  # the defender alone divides the counter
    assert set(texts(s)) == {f"allocate 1 -> {pid(s, 'A')}", f"allocate 1 -> {pid(s, 'C')}"}
    events = drive(s, "allocate 1 -> {C}")
    counter_strikes = [x for x in kinds(events, "strike") if x["counter"]]
    assert [x["pillar"] for x in counter_strikes] == [pid(s, "C")]
    assert list(counter_strikes[0]["rolls"]) == ["b"]


def test_declining_an_invitation():
    s = three(ScriptedRng(1, 1, 1))
    events = drive(s, "engage b", "invite c", "decline", "draw 0")
    assert kinds(events, "decline") and not kinds(events, "join")
    assert list(kinds(events, "strike")[0]["rolls"]) == ["a"]


# ------------------------------------------------------------------ mercenaries
@pytest.mark.parametrize("a_dice, offered", [(1, False), (2, True), (5, True)])
def test_mercenaries_are_hired_for_their_price(a_dice, offered):
    s = three(ScriptedRng(1, 1, 1, 1, 1), c_extra={"mercenary": 2, "faction_dice": 0}, a_dice=a_dice)
    drive(s, "engage b")
    assert ("hire c for 2" in texts(s)) is offered
    if offered:
        drive(s, "hire c for 2", "join")
        assert s.factions["a"].faction_dice == a_dice - 2
        assert s.factions["c"].faction_dice == 2


def test_a_mercenary_that_declines_is_not_paid():
    s = three(ScriptedRng(1, 1, 1), c_extra={"mercenary": 2}, a_dice=3)
    drive(s, "engage b", "hire c for 2", "decline")
    assert s.factions["a"].faction_dice == 3 and s.factions["c"].faction_dice == 0


def test_a_mercenary_can_be_paid_to_engage():
    """"Some factions (mercenaries) will participate or engage for payment (in faction dice)":
    a faction may pay a mercenary its price to engage a rival itself. The mercenary leads that
    engagement (its own pillars and pool); the defender counters the mercenary."""
    # c (C, competence 2) engages b's Wall (defense 2) with 2 dice [3, 3]; the Wall counters 1 die
    s = three(ScriptedRng(3, 3, 6), c_extra={"mercenary": 2}, a_dice=3)
    assert "commission c -> b for 2" in texts(s) and "commission c -> a for 2" not in texts(s)
    events = drive(s, "commission c -> b for 2")
    assert s.actor == "c" and texts(s) == ["join", "decline"]
    events += drive(s, "join")
    assert s.factions["a"].faction_dice == 1 and s.factions["c"].faction_dice == 2
    strike, counter = kinds(events, "strike")
    assert strike["rolls"] == {"c": [3, 3]} and strike["owner"] == "b"
    assert counter["counter"] and counter["pillar"] == pid(s, "C")
    assert s.phase == "spend" and s.actor == "a"  # back to the paying faction's turn
    assert "commission c -> b for 2" not in texts(s)  # once per turn


def test_a_mercenary_may_turn_a_contract_down():
    s = three(ScriptedRng(), c_extra={"mercenary": 2}, a_dice=3)
    events = drive(s, "commission c -> b for 2", "decline")
    assert kinds(events, "decline")[0]["commission"] and not kinds(events, "strike")
    assert s.factions["a"].faction_dice == 3 and s.actor == "a"


# ------------------------------------------------------------------ GM deferral
@pytest.mark.parametrize("chance, roll, deferred", [(1.0, 99, True), (0.5, 49, True),
                                                    (0.5, 50, False), (0.0, None, False)])
def test_gm_deferral_setting(chance, roll, deferred):
    script = ([roll] if roll is not None else []) + ([] if deferred else [1, 1, 1, 1])
    s = duel(ScriptedRng(*script), pool=1, settings={"gm_deferral": chance})
    s.factions["a"].faction_dice = 1
    events = drive(s, "engage b")
    assert bool(kinds(events, "deferred")) is deferred
    if deferred:
        assert s.phase == "spend" and "engage b" not in texts(s)
        assert s.factions["a"].pool("b") == 1  # the engagement dice are kept for later


# ------------------------------------------------------------------ faction dice
@pytest.mark.parametrize("pillars, income", [(0, 1), (1, 1), (2, 2), (3, 2), (4, 3), (5, 3)])
def test_income_one_die_plus_one_per_two_pillars(pillars, income):
    a = faction("a", *[pillar(f"P{i}", 1, 1) for i in range(pillars)])
    s = make_state(a, faction("b", pillar("W", 1, 1)))
    s.current_actor()
    assert s.factions["a"].faction_dice == income


@pytest.mark.parametrize("action, dice_before, dice_after, check", [
    ("build c2 d1", 3, 0, lambda s: pid(s, "Cohort 3") and s.pillars[pid(s, "Cohort 3")].defense == 1),
    ("raise {P} competence", 3, 0, lambda s: s.pillars[pid(s, "P")].competence == 3),
    ("raise {P} defense", 2, 0, lambda s: s.pillars[pid(s, "P")].defense == 2),
    ("heal {P}", 1, 0, lambda s: s.pillars[pid(s, "P")].wounds == 0),
    ("convert 2 -> b", 3, 1, lambda s: s.factions["a"].pool("b") == 2),
])
def test_spending_faction_dice(action, dice_before, dice_after, check):
    a = faction("a", pillar("P", 2, 1, wounds=1), faction_dice=dice_before)
    s = make_state(a, faction("b", pillar("W", 1, 1)), settings=QUIET)
    drive(s, action)
    assert s.factions["a"].faction_dice == dice_after and check(s)


def test_costs_beyond_the_purse_are_not_offered_and_illegal_actions_raise():
    a = faction("a", pillar("P", 2, 1, wounds=1), faction_dice=1)
    s = make_state(a, faction("b", pillar("W", 1, 1)), settings=QUIET)
    offered = texts(s)
    assert f"raise {pid(s, 'P')} competence" not in offered and "build c1 d0" in offered
    with pytest.raises(IllegalActionError):
        drive(s, "build c2 d1")


def test_new_pillars_span_the_whole_range():
    """"Competence 1-5, defense 0-4" (other_systems.md): a new pillar may be built at any of
    them (a scenario may cap new pillars lower with build_competence_max / build_defense_max)."""
    a = faction("a", pillar("P", 1, 1), faction_dice=9)
    s = make_state(a, faction("b", pillar("W", 1, 1)), settings=QUIET)
    assert {"build c5 d4", "build c1 d0"} <= set(texts(s))
    s = make_state(a, faction("b", pillar("W", 1, 1)),
                   settings={**QUIET, "build_competence_max": 3, "build_defense_max": 2})
    assert "build c3 d2" in texts(s) and "build c4 d2" not in texts(s)


def test_pillar_cap():
    a = faction("a", *[pillar(f"P{i}", 1, 1) for i in range(2)], faction_dice=9)
    s = make_state(a, faction("b", pillar("W", 1, 1)), settings={**QUIET, "pillar_cap": 2})
    assert not [t for t in texts(s) if t.startswith("build")]


# ------------------------------------------------------------------ collapse
@pytest.mark.parametrize("rebuild, alive", [(False, False), (True, True)])
def test_no_pillars_at_the_end_of_its_turn_collapses(rebuild, alive):
    a = faction("a", faction_dice=1)
    s = make_state(a, faction("b", pillar("W", 1, 1)), faction("c", pillar("V", 1, 1)),
                   settings=QUIET)
    events = drive(s, "build c1 d0" if rebuild else "done")  # then nothing left to buy
    assert s.factions["a"].alive is alive
    assert bool(kinds(events, "collapse")) is not alive


def test_defeating_the_last_pillar_exposes_the_core_and_it_collapses_at_the_end_of_that_turn():
    """"A faction with no pillars left has its core exposed; at the end of that turn it
    collapses unless it rebuilds a pillar" (other_systems.md): "that turn" is the one in which
    its last pillar fell -- here the aggressor's, in which the defender cannot rebuild."""
    s = duel(ScriptedRng(6, 6, 6, 6), b_pillars=[pillar("Wall", 1, 0)], pool=1)
    s.factions["a"].faction_dice = 1  # a's turn goes on after the engagement
    s.factions["b"].faction_dice = 3  # b could rebuild, were it its turn
    events = drive(s, "engage b", "draw 1")
    assert kinds(events, "exposed") and s.factions["b"].pillars == []
    assert s.factions["a"].renown == 1 and s.factions["b"].alive  # the turn is not over yet
    events = drive(s, "done")
    assert kinds(events, "collapse")[0]["faction"] == "b" and not s.factions["b"].alive
    assert s.is_over()  # before b's own turn: a stands alone


def test_a_faction_that_rebuilds_in_the_turn_its_last_pillar_fell_stands():
    """Its last pillar falls to the counter in its own turn: it rebuilds before the turn ends."""
    a = faction("a", pillar("Lances", 1, 0, circles=1), engagement={"b": 1}, faction_dice=1)
    b = faction("b", pillar("Wall", 1, 3))
    s = make_state(a, b, faction("c", pillar("C", 1, 1)), settings=QUIET,
                   rng=ScriptedRng(1, 6))  # a's die misses; the Wall's counter die kills Lances
    events = drive(s, "engage b", "done", "draw 0")
    assert kinds(events, "exposed")[0]["faction"] == "a" and s.actor == "a"
    events = drive(s, "build c1 d0")
    assert s.factions["a"].alive and not kinds(events, "collapse")


# ------------------------------------------------------------------ saving mid-engagement
def test_a_game_saved_mid_engagement_continues_exactly():
    s = duel(None, b_pillars=[pillar("W1", 1, 2), pillar("W2", 2, 1)], pool=3)
    s.rng = __import__("numpy").random.default_rng(5)
    drive(s, "engage b", "draw 3", f"allocate 2 -> {pid(s, 'W1')}")
    copy = EngagementsState.from_dict(s.to_dict())
    assert texts(copy) == texts(s)
    rest = [f"allocate 4 -> {pid(s, 'W2')}"]
    e1 = [e.to_dict() for e in drive(s, *rest)]
    e2 = [e.to_dict() for e in drive(copy, *rest)]
    assert e1 == e2 and copy.to_dict() == s.to_dict()


# ------------------------------------------------------------------ scenario validation
@pytest.mark.parametrize("change, message", [
    (lambda d: d["factions"][0]["pillars"][0].update(competence=6), "competence: must be a whole number"),
    (lambda d: d["factions"][0]["pillars"][0].update(defense=-1), "defense: must be a whole number from 0"),
    (lambda d: d["factions"][0]["pillars"][0].update(boons=["flying"]), "unknown boon"),
    (lambda d: d["factions"][0].update(engagement={"zz": 1}), "engagement dice must be held against another"),
    (lambda d: d["factions"][0].update(colour="red"), "unknown field 'colour'"),
    (lambda d: d.update(settings={"pillar_cap": 0}), "settings.pillar_cap"),
    (lambda d: d["factions"].pop(), "2 to 64 factions"),
    (lambda d: d["factions"][1].update(id="a"), "duplicate faction id"),
])
def test_scenario_errors_name_the_field(change, message):
    from factionsim.rules.engagements.validate import validate

    data = {"ruleset": "engagements", "factions": [faction("a", pillar("P", 1, 1)),
                                                   faction("b", pillar("Q", 1, 1))]}
    change(data)
    with pytest.raises(CampaignError, match=message.replace("(", r"\(")):
        validate(data, "s.yaml", {})


def test_the_rules_offer_one_object_per_choice():
    """The same choice at the same decision point of two games is the same action object
    (``actions.choice``: the env's codec and the engine's legality check find an object by
    identity first), equal to one built anew."""
    from factionsim.rules.engagements.actions import Build, Done

    def legal():
        s = make_state(faction("a", pillar("Keep", 2, 1), faction_dice=6),
                       faction("b", pillar("Wall", 1, 2)), settings=QUIET)
        return s.legal_actions()

    first, second = legal(), legal()
    assert first == second and Build(1, 0) in first and Done() in first
    assert all(a is b for a, b in zip(first, second, strict=True))
