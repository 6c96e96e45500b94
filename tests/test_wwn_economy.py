"""WWN faction statistics and economy: 6.1.0, 6.2.0 (income, upkeep), 6.5.0 (economic tags),
6.6.0 (Repair Asset, Expand Influence, Create Asset) and 6.7.0 (max HP, headquarters Base).

Every test builds a small situation with ``make_state`` and fixes every die with ``ScriptedRng``.
Default map: a - b - c in a line, no rulers; factions are hostile unless stated.
"""

from __future__ import annotations

import pytest
from wwn_helpers import ScriptedRng, faction, make_state, play_to
from wwn_helpers import apply_texts as do
from wwn_helpers import legal_set as legal

from factionsim.core.game import IllegalActionError
from factionsim.rules.wwn.actions import parse_action
from factionsim.rules.wwn.data import HP_FROM_RATING, income, max_faction_hp
from factionsim.rules.wwn.economy import faction_heal_amount


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


# ============================================================== 6.7.0 maximum hit points
@pytest.mark.parametrize("rating, hp", list(zip(range(1, 9), (1, 2, 4, 6, 9, 12, 16, 20),
                                                strict=True)))
def test_hp_table_per_rating(rating, hp):
    assert HP_FROM_RATING[rating] == hp
    # the same rating in each attribute adds the same amount (the others at 1 give 1 each)
    assert max_faction_hp(force=rating, wealth=1, cunning=1) == hp + 2
    assert max_faction_hp(force=1, wealth=rating, cunning=1) == hp + 2
    assert max_faction_hp(force=1, wealth=1, cunning=rating) == hp + 2


@pytest.mark.parametrize("force, wealth, cunning, expected", [
    (3, 5, 2, 15),   # the seed's example: 4 + 9 + 2
    (1, 1, 1, 3),
    (8, 8, 8, 60),
    (7, 6, 3, 32),
    (2, 6, 4, 20),
])
def test_faction_max_hp_is_sum_of_table_values(force, wealth, cunning, expected):
    s = make_state([faction("x", force=force, wealth=wealth, cunning=cunning),
                    faction("y", headquarters="c")])
    x = s.factions["x"]
    assert x.max_hp == expected
    assert x.hp == expected  # a new faction starts at full HP


@pytest.mark.parametrize("listed", [None, 3, 40])
def test_headquarters_base_has_faction_max_hp(listed):
    """Created when the campaign lists none; reset to faction max HP when listed otherwise."""
    assets = [] if listed is None else [
        {"type": "base-of-influence", "location": "a", "max_hp": listed}]
    s = make_state([faction("x", force=3, wealth=5, cunning=2, assets=assets),
                    faction("y", headquarters="c")])
    hq = s.headquarters_base("x")
    assert hq is not None and hq.location == "a" and hq.owner == "x"
    assert hq.max_hp == 15
    assert hq.hp == (15 if listed is None else min(listed, 15))
    assert [a.id for a in s.assets_of("x")] == [hq.id]


# ============================================================== 6.2.0 income
@pytest.mark.parametrize("force, wealth, cunning, expected", [
    (3, 5, 2, 4),    # 2.5 + 1.25 = 3.75 -> 4 (the total is rounded up)
    (1, 1, 1, 1),    # 0.5 + 0.5
    (2, 1, 1, 2),    # 0.5 + 0.75
    (1, 2, 1, 2),    # 1 + 0.5
    (3, 4, 1, 3),    # 2 + 1, exact
    (1, 1, 2, 2),    # 0.5 + 0.75
    (8, 8, 8, 8),
    (7, 6, 3, 6),    # 3 + 2.5
])
def test_income_formula(force, wealth, cunning, expected):
    assert income(force=force, wealth=wealth, cunning=cunning) == expected


@pytest.mark.parametrize("force, wealth, cunning, earned", [(3, 5, 2, 4), (1, 1, 1, 1),
                                                            (7, 6, 3, 6)])
def test_income_is_credited_at_the_start_of_the_factions_own_turn(force, wealth, cunning, earned):
    s = make_state([faction("x", treasure=0, headquarters="c"),
                    faction("y", force=force, wealth=wealth, cunning=cunning, treasure=10)],
                   rng=ScriptedRng(8, 1))  # x goes first, y second
    play_to(s, "goal", "x")
    assert s.factions["y"].treasure == 10  # y's turn has not started yet
    play_to(s, "goal", "y")
    assert s.factions["y"].treasure == 10 + earned
    assert s.rng.remaining == []


# ============================================================== 6.6.0 upkeep of excess assets
@pytest.mark.parametrize("treasure, paid, left, lost", [
    (0, 1, 0, ["thugs#3"]),      # income 1 pays for one excess asset; the newest is lost
    (1, 2, 0, []),
    (5, 2, 4, []),
])
def test_excess_assets_cost_one_treasure_each_or_are_lost_newest_first(treasure, paid, left, lost):
    thugs = [{"type": "thugs", "location": "a"}] * 3  # Force 1: two are in excess
    s = make_state([faction("x", force=1, wealth=1, cunning=1, treasure=treasure, assets=thugs),
                    faction("y", headquarters="c")], rng=ScriptedRng(8, 1))
    events = s.advance()
    (upkeep,) = kinds(events, "upkeep")
    assert upkeep.data["attribute"] == "force" and upkeep.data["excess"] == 2
    assert upkeep.data["paid"] == paid and upkeep.data["lost"] == lost
    assert s.factions["x"].treasure == left
    assert {a.id for a in s.assets_of("x") if a.type == "thugs"} == \
        {"thugs#1", "thugs#2", "thugs#3"} - set(lost)


@pytest.mark.parametrize("force, n_assets, charged", [(1, 1, 0), (2, 2, 0), (2, 3, 1), (1, 4, 3)])
def test_upkeep_counts_only_assets_beyond_the_rating(force, n_assets, charged):
    s = make_state([faction("x", force=force, wealth=8, cunning=1, treasure=20,
                            assets=[{"type": "thugs", "location": "a"}] * n_assets),
                    faction("y", headquarters="c")], rng=ScriptedRng(8, 1))
    events = s.advance()
    assert sum(e.data["paid"] for e in kinds(events, "upkeep")) == charged
    # the headquarters Base counts toward no limit
    assert s.factions["x"].treasure == 20 + income(force, 8, 1) - charged


def test_upkeep_is_due_again_every_turn():
    s = make_state([faction("x", force=1, wealth=2, cunning=1, treasure=0,
                            goal="blood-the-enemy",
                            assets=[{"type": "thugs", "location": "a"}] * 2),
                    faction("y", headquarters="c")], rng=ScriptedRng(8, 1, 8, 1))
    play_to(s, "goal", "x")
    assert s.factions["x"].treasure == 1  # income 2, upkeep 1
    do(s, "keep goal")
    play_to(s, "goal", "x")  # the second turn charges again
    assert s.factions["x"].treasure == 2
    assert len(s.assets_of("x")) == 3


# ============================================================== 6.6.0 Repair Asset
def _repair_state(force=3, cunning=3, wealth=3, treasure=10, assets=(), hp=None, **kw):
    s = make_state([faction("x", force=force, cunning=cunning, wealth=wealth, treasure=treasure,
                            assets=list(assets), hp=hp, **kw),
                    faction("y", headquarters="c")], rng=ScriptedRng(8, 1))
    play_to(s, "action", "x")
    do(s, "action repair")
    return s


@pytest.mark.parametrize("asset_type, ratings, healed", [
    ("cavalry", (1, 8, 8), 1),       # Force asset: half Force, rounded up
    ("cavalry", (3, 8, 8), 2),
    ("cavalry", (5, 1, 1), 3),       # the seed's Force example: half the faction's Force
    ("cavalry", (8, 1, 1), 4),
    ("idealistic-thugs", (8, 5, 1), 3),   # Cunning asset: half Cunning
    ("monopoly", (8, 8, 2), 1),          # Wealth asset: half Wealth
    ("monopoly", (1, 1, 7), 4),
])
def test_repair_heals_half_the_relevant_rating_rounded_up(asset_type, ratings, healed):
    f, c, w = ratings
    s = _repair_state(force=f, cunning=c, wealth=w,
                      assets=[{"type": asset_type, "location": "a", "hp": 1}])
    treasure = s.factions["x"].treasure
    events = do(s, f"repair {asset_type}#1")
    assert s.assets[f"{asset_type}#1"].hp == 1 + healed
    assert kinds(events, "repair")[0].data["cost"] == 1
    assert s.factions["x"].treasure == treasure - 1


def test_repairing_the_same_asset_again_costs_one_more_each_time():
    s = _repair_state(force=4, treasure=10, assets=[{"type": "cavalry", "location": "a", "hp": 1},
                                                    {"type": "infantry", "location": "a", "hp": 1}])
    x = s.factions["x"]
    start = x.treasure
    costs = []
    for text in ("repair cavalry#1", "repair cavalry#1", "repair cavalry#1", "repair infantry#2"):
        (ev,) = kinds(do(s, text), "repair")
        costs.append(ev.data["cost"])
    assert costs == [1, 2, 3, 1]   # second fix 2, third 3; another asset starts again at 1
    assert x.treasure == start - 7
    assert s.assets["cavalry#1"].hp == 1 + 3 * 2
    assert s.assets["infantry#2"].hp == 3


def test_repair_never_exceeds_max_hp_and_needs_the_treasure_for_the_next_fix():
    s = _repair_state(force=8, treasure=0, assets=[{"type": "infantry", "location": "a", "hp": 5}])
    x = s.factions["x"]
    assert x.treasure == income(8, 3, 3)
    (ev,) = kinds(do(s, "repair infantry#1"), "repair")
    assert ev.data["healed"] == 1 and s.assets["infantry#1"].hp == 6
    assert "repair infantry#1" not in legal(s)  # no longer damaged


def test_second_fix_not_offered_without_enough_treasure():
    s = _repair_state(force=4, wealth=1, cunning=1, treasure=0,
                      assets=[{"type": "cavalry", "location": "a", "hp": 1}])
    assert s.factions["x"].treasure == 2  # income ceil(0.5 + 1.25)
    do(s, "repair cavalry#1")
    assert s.factions["x"].treasure == 1
    assert "repair cavalry#1" not in legal(s)  # the second fix costs 2


@pytest.mark.parametrize("force, wealth, cunning, healed", [
    (5, 2, 4, 4),   # the seed's example: (5 + 2) / 2 rounded up
    (1, 1, 1, 1),
    (3, 3, 3, 3),
    (8, 1, 3, 5),
    (2, 6, 4, 4),
])
def test_faction_heal_is_highest_plus_lowest_over_two(force, wealth, cunning, healed):
    assert faction_heal_amount(make_state([
        faction("x", force=force, wealth=wealth, cunning=cunning),
        faction("y", headquarters="c")]).factions["x"]) == healed
    s = _repair_state(force=force, wealth=wealth, cunning=cunning, hp=1)
    x = s.factions["x"]
    treasure = x.treasure
    do(s, "repair faction")
    assert x.hp == 1 + healed and x.treasure == treasure - 1
    assert "repair faction" not in legal(s)  # only once per turn


def test_faction_heal_is_capped_at_max_hp_and_can_join_asset_repairs():
    s = _repair_state(force=5, wealth=2, cunning=4, hp=13,
                      assets=[{"type": "infantry", "location": "a", "hp": 1}])
    x = s.factions["x"]
    assert x.max_hp == 9 + 2 + 6
    do(s, "repair infantry#1", "repair faction")
    assert x.hp == 17 and s.assets["infantry#1"].hp == 4


# ============================================================== 6.6.0 Expand Influence
def _expand_state(*others, x_assets=None, treasure=10, x_kw=None, dice=()):
    """x at a with thugs at b; ``others`` are extra factions. x acts first."""
    x_assets = x_assets if x_assets is not None else [{"type": "thugs", "location": "b"}]
    facs = [faction("x", treasure=treasure, assets=x_assets, **(x_kw or {})), *others]
    s = make_state(facs, locations=[{"id": "a", "neighbors": ["b"]}, {"id": "b"},
                                    {"id": "c"}, {"id": "d"}],
                   rng=ScriptedRng(8, *([1] * len(others)), *dice))
    play_to(s, "action", "x")
    return s


def test_expand_needs_an_own_asset_and_no_own_base_there():
    s = _expand_state(faction("y", headquarters="c", assets=[{"type": "thugs", "location": "d"}]),
                      x_assets=[{"type": "thugs", "location": n} for n in "abd"])
    do(s, "action expand")
    assert legal(s) == {"expand at b", "expand at d"}  # not a (own Base), not c (no own asset)


def test_a_single_place_to_expand_is_chosen_automatically():
    s = _expand_state(faction("y", headquarters="c"))
    do(s, "action expand")
    assert s.phase == "expand-hp" and s.ctx["expand"] == "b"


@pytest.mark.parametrize("hp", [1, 3, 7])
def test_expand_costs_one_treasure_per_hp(hp):
    s = _expand_state(faction("y", headquarters="c"))
    x = s.factions["x"]
    start = x.treasure
    do(s, "action expand")
    assert legal(s) == {f"base hp {n}" for n in range(1, min(start, x.max_hp) + 1)}
    events = do(s, f"base hp {hp}")
    base = s.base_of("x", "b")
    assert base is not None and base.max_hp == hp and base.hp == hp
    assert x.treasure == start - hp
    assert kinds(events, "base-planted") and not kinds(events, "expand-check")
    assert s.rng.remaining == []  # nobody else there: no check rolled


def test_expand_hp_is_capped_by_treasure_and_faction_max_hp():
    s = _expand_state(faction("y", headquarters="c"), treasure=100)
    do(s, "action expand")
    assert max(a.hp for a in s.legal_actions()) == s.factions["x"].max_hp


@pytest.mark.parametrize("x_roll, y_roll, rival_attacks", [
    (9, 1, False),    # builder wins: no answer
    (5, 5, True),     # tie: the defender of the check (the rival) wins
    (1, 9, True),
])
def test_expand_check_cunning_vs_cunning_against_each_faction_present(x_roll, y_roll,
                                                                       rival_attacks):
    s = _expand_state(faction("y", headquarters="c", assets=[{"type": "thugs", "location": "b"}]),
                      dice=(x_roll, y_roll))
    events = do(s, "action expand", "base hp 4")
    (check,) = kinds(events, "expand-check")
    assert check.data["rival"] == "y" and check.data["success"] is not rival_attacks
    assert check.data["attacker_check"]["total"] == 3 + x_roll
    if rival_attacks:
        assert s.phase == "rival-attack" and s.actor == "y"
        assert legal(s) == {"attack thugs#2 -> x", "done"}
    else:
        assert kinds(events, "base-planted") and s.actor == "x"


def test_expand_checks_every_other_faction_present_even_neutral_ones():
    s = _expand_state(
        faction("y", headquarters="c", assets=[{"type": "thugs", "location": "b"}]),
        faction("z", headquarters="d", assets=[{"type": "farmers", "location": "b"}]),
        faction("w", headquarters="d"),   # nothing at b: no check
        dice=(9, 1, 9, 1))
    s.relations[frozenset(("x", "z"))] = "neutral"
    events = do(s, "action expand", "base hp 2")
    assert [e.data["rival"] for e in kinds(events, "expand-check")] == ["y", "z"]
    assert s.rng.remaining == []


@pytest.mark.parametrize("defender, base_survives", [
    ("base-of-influence#5", False),   # the builder lets the new Base take the blow
    ("thugs#1", True),                # the builder blocks with its thugs
])
def test_rival_answer_attack_and_builder_chooses_defender(defender, base_survives):
    s = _expand_state(faction("y", headquarters="c", assets=[{"type": "thugs", "location": "b"}]),
                      dice=(1, 9,      # expand check: y wins
                            9, 1,      # y's thugs (Force 3) vs x's Cunning 3: hit
                            4))        # 1d6 damage
    x = s.factions["x"]
    do(s, "action expand", "base hp 4")
    do(s, "attack thugs#2 -> x")
    assert s.phase == "defend" and s.actor == "x"
    assert legal(s) == {"defend with base-of-influence#5", "defend with thugs#1"}
    events = do(s, f"defend with {defender}")
    assert s.rng.remaining == []
    assert ("base-of-influence#5" in s.assets) is base_survives
    assert bool(kinds(events, "base-planted")) is base_survives
    assert bool(kinds(events, "base-lost")) is not base_survives
    assert x.hp == x.max_hp - (0 if base_survives else 4)  # damage to a Base hits the faction
    assert s.actor == "x" and s.phase == "goal"


def test_rival_may_decline_to_attack():
    s = _expand_state(faction("y", headquarters="c", assets=[{"type": "thugs", "location": "b"}]),
                      dice=(1, 9))
    do(s, "action expand", "base hp 4")
    events = do(s, "done")
    assert kinds(events, "base-planted") and s.base_of("x", "b") is not None


def test_planted_base_allows_create_asset_there_next_turn():
    s = _expand_state(faction("y", headquarters="c"), dice=(8, 1))
    do(s, "action expand", "base hp 1")
    play_to(s, "action", "x")
    do(s, "action create")
    assert any(t.endswith(" at b") for t in legal(s))


# ============================================================== 6.6.0 Create Asset
def _create_state(treasure=20, force=3, cunning=3, wealth=3, magic="none", tags=(), assets=()):
    s = make_state([faction("x", force=force, cunning=cunning, wealth=wealth, magic=magic,
                            treasure=treasure, tags=list(tags), assets=list(assets)),
                    faction("y", headquarters="c")], rng=ScriptedRng(8, 1))
    play_to(s, "action", "x")
    do(s, "action create")
    return s


def test_create_only_where_the_faction_has_a_base():
    s = _create_state(assets=[{"type": "thugs", "location": "b"}])
    assert legal(s) and all(t.endswith(" at a") for t in legal(s))


@pytest.mark.parametrize("asset_type, force, magic, allowed", [
    ("infantry", 3, "none", True),
    ("cavalry", 3, "none", False),            # needs Force 4
    ("cavalry", 4, "none", True),
    ("enchanted-elites", 3, "none", False),   # needs Medium Magic
    ("enchanted-elites", 3, "low", False),
    ("enchanted-elites", 3, "medium", True),
    ("witch-hunters", 3, "low", True),
    ("demonic-slayer", 5, "medium", False),   # needs High Magic
    ("demonic-slayer", 5, "high", True),
])
def test_create_needs_rating_and_magic(asset_type, force, magic, allowed):
    s = _create_state(force=force, magic=magic, treasure=30)
    assert (f"create {asset_type} at a" in legal(s)) is allowed


@pytest.mark.parametrize("asset_type, cost", [("thugs", 2), ("infantry", 6), ("scouts", 5)])
def test_create_pays_the_listed_cost_and_is_one_per_turn(asset_type, cost):
    s = _create_state(treasure=20)
    x = s.factions["x"]
    start = x.treasure
    events = do(s, f"create {asset_type} at a")
    (ev,) = kinds(events, "create")
    assert ev.data["cost"] == cost and x.treasure == start - cost
    new = s.assets[ev.data["asset"]]
    assert new.type == asset_type and new.location == "a" and new.hp == new.max_hp
    assert not new.stealth
    assert s.phase == "goal"  # the action is over: only one asset per turn


def test_create_needs_the_treasure():
    s = _create_state(treasure=0, force=3, wealth=1, cunning=1)
    assert s.factions["x"].treasure == 2
    assert "create thugs at a" in legal(s)       # cost 2
    assert "create scouts at a" not in legal(s)  # cost 5


def test_what_could_be_created_with_more_treasure_keeps_the_price_a_purchase_would_pay():
    """``economy.creatable`` (what the heuristic saves for) lists every type the ratings allow
    whatever the Treasure, at the cost a purchase pays (here the Populist tag's: "1 less for a
    cost of at most 5"); ``buyable`` is the part of it the Treasure covers."""
    from factionsim.rules.wwn.economy import buyable, creatable

    s = _create_state(treasure=0, force=3, wealth=1, cunning=1, tags=["populist"])
    x = s.factions["x"]
    costs = {kind.id: cost for kind, cost in creatable(s, x, "a")}
    assert costs["thugs"] == 1 and costs["scouts"] == 4 and costs["infantry"] == 6
    assert x.treasure == 2
    assert set(buyable(s, x, "a")) == {t for t, cost in costs.items() if cost <= 2}
    assert {t.split()[1] for t in legal(s)} == set(buyable(s, x, "a"))


@pytest.mark.parametrize("force, owned, can_buy_force", [(1, 0, True), (1, 1, False),
                                                        (3, 2, True), (3, 3, False)])
def test_per_attribute_limit_equals_rating(force, owned, can_buy_force):
    s = _create_state(force=force, treasure=30,
                      assets=[{"type": "thugs", "location": "b"}] * owned)
    assert ("create thugs at a" in legal(s)) is can_buy_force
    assert "create informers at a" in legal(s)   # other attributes keep their own limit


@pytest.mark.parametrize("asset_type, cost", [
    ("useful-idiots", 1),   # 1 -> minimum 1
    ("thugs", 1),           # 2 -> 1
    ("local-guard", 2),     # 3 -> 2
    ("scouts", 4),          # 5 -> 4
    ("infantry", 6),        # 6: more than 5, full price
])
def test_populist_cost(asset_type, cost):
    s = _create_state(tags=["populist"], treasure=20)
    x = s.factions["x"]
    start = x.treasure
    (ev,) = kinds(do(s, f"create {asset_type} at a"), "create")
    assert ev.data["cost"] == cost and x.treasure == start - cost


@pytest.mark.parametrize("asset_type, allowed", [
    ("reserve-corps", True),    # Force 2 needed, rating 1: fine with +2
    ("infantry", True),         # Force 3 = 1 + 2
    ("cavalry", False),         # Force 4 > 1 + 2
])
def test_innovative_buys_as_if_two_points_higher(asset_type, allowed):
    s = _create_state(force=1, tags=["innovative"], treasure=30)
    assert (f"create {asset_type} at a" in legal(s)) is allowed
    plain = _create_state(force=1, treasure=30)
    assert f"create {asset_type} at a" not in legal(plain)  # none of them without the tag


@pytest.mark.parametrize("owned, third_allowed", [
    ([], True),
    ([{"type": "infantry", "location": "a"}], True),
    ([{"type": "infantry", "location": "a"}, {"type": "covert-transport", "location": "a"}], False),
])
def test_innovative_owns_at_most_two_over_complex_assets(owned, third_allowed):
    s = _create_state(force=2, cunning=2, wealth=2, tags=["innovative"], treasure=30,
                      assets=owned)
    assert ("create manufactory at a" in legal(s)) is third_allowed  # Wealth 3 > 2
    assert "create farmers at a" in legal(s)   # not over-complex: always fine


def test_concealed_assets_enter_play_stealthed():
    s = _create_state(tags=["concealed"])
    (ev,) = kinds(do(s, "create infantry at a"), "create")
    assert ev.data["stealth"] is True and s.assets[ev.data["asset"]].stealth


# ============================================================== 6.5.0 Imperialist
def test_imperialist_expands_as_a_free_ability_once_then_still_acts():
    s = make_state([faction("x", tags=["imperialist"], treasure=10,
                            assets=[{"type": "thugs", "location": "b"},
                                    {"type": "thugs", "location": "c"}]),
                    faction("y", headquarters="d")],
                   locations=[{"id": "a", "neighbors": ["b"]}, {"id": "b", "neighbors": ["c"]},
                              {"id": "c"}, {"id": "d"}],
                   rng=ScriptedRng(8, 1))
    play_to(s, "abilities", "x")
    assert "use imperialist" in legal(s)
    do(s, "use imperialist", "expand at b", "base hp 2")
    assert s.base_of("x", "b") is not None
    # back in the abilities step, where only "done" is left (applied at once): once per turn
    assert s.phase == "action" and s.ctx["used"] == ["imperialist"]
    assert "action expand" in legal(s)  # the normal action remains  # the normal action remains
    do(s, "action expand", "base hp 2")  # c is the only place left
    assert s.base_of("x", "c") is not None
    assert s.factions["x"].treasure == 10 + income(3, 3, 3) - 4


def test_imperialist_ability_not_offered_without_the_tag():
    s = make_state([faction("x", treasure=10, assets=[{"type": "thugs", "location": "b"}]),
                    faction("y", headquarters="c")], rng=ScriptedRng(8, 1))
    s.current_actor()
    with pytest.raises(IllegalActionError):
        s.apply(parse_action("use imperialist"))
