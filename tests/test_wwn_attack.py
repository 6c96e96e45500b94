"""The Attack action (rules 6.6.0, first paragraphs) played through the engine contract.

Red attacks in location ``b``. Initiative is scripted 8 for red and 1 for blue, so red acts first;
later dice are scripted right before the action that rolls them (attacker's d10, defender's d10,
then the damage or counterattack dice).
"""

from __future__ import annotations

import pytest
from wwn_helpers import ScriptedRng, asset, faction, make_state, play_to
from wwn_helpers import apply_text as _do
from wwn_helpers import texts as _texts

from factionsim.rules.wwn.actions import Attack, ChooseAction


def _battle(red_assets, blue_assets, blue_hq="b", relations=None, more=(), blue_kw=None):
    """Red (HQ a) and blue (HQ ``blue_hq``), red to choose its action."""
    factions = [faction("red", assets=red_assets),
                faction("blue", headquarters=blue_hq, assets=blue_assets, **(blue_kw or {})),
                *more]
    s = make_state(factions, relations=relations, rng=ScriptedRng(8, 1, *[1] * len(more)))
    play_to(s, "action", "red")
    return s


def _kinds(events):
    return [e.kind for e in events]


INF_B = {"type": "infantry", "location": "b"}


# --------------------------------------------------------------------- the defender chooses
def test_defender_chooses_among_assets_present_text_example():
    # "if a unit of Infantry attacks in a location where there is an enemy Base of Influence,
    # Informers, and Idealistic Thugs, the defender could decide to use Idealistic Thugs"
    s = _battle([INF_B], [{"type": "informers", "location": "b"},
                          {"type": "idealistic-thugs", "location": "b"},
                          {"type": "infantry", "location": "c"}])
    assert [a.id for a in s.assets.values()] == [
        "infantry#1", "informers#2", "idealistic-thugs#3", "infantry#4",
        "base-of-influence#5", "base-of-influence#6"]
    _do(s, "action attack")
    assert _texts(s) == ["attack infantry#1 -> blue", "done"]
    _do(s, "attack infantry#1 -> blue")
    assert s.current_actor() == "blue"
    assert s.phase == "defend"
    # only assets in b: not the infantry in c, not red's own base
    assert _texts(s) == ["defend with informers#2", "defend with idealistic-thugs#3",
                         "defend with base-of-influence#6"]
    # Infantry: Force vs Force; 2+3 against 5+3 fails; Idealistic Thugs counter 1d6 = 4
    ev = _do(s, "defend with idealistic-thugs#3", 2, 5, 4)
    attack = next(e for e in ev if e.kind == "attack")
    assert attack.data["defender"] == "idealistic-thugs#3"
    assert (attack.data["attacker_check"]["attribute"],
            attack.data["defender_check"]["attribute"]) == ("force", "force")
    assert attack.data["success"] is False
    counter = next(e for e in ev if e.kind == "damage" and e.data["cause"] == "counterattack")
    assert counter.data["roll"] == {"expr": "1d6", "dice": [4], "total": 4}
    assert asset(s, "red", "infantry").hp == 6 - 4
    assert asset(s, "blue", "idealistic-thugs").hp == 12
    assert s.current_actor() == "red"  # back to the attacker's turn
    assert s.rng.remaining == []


@pytest.mark.parametrize(
    "defender, dice, success, red_hp, blue_hp, blue_faction_hp",
    [
        # success: the defending asset takes the Infantry's 1d8
        ("infantry#2", (9, 1, 5), True, 6, {"infantry#2": 1, "idealistic-thugs#3": 12}, 12),
        ("idealistic-thugs#3", (9, 1, 5), True, 6,
         {"infantry#2": 6, "idealistic-thugs#3": 7}, 12),
        # a Base also passes the damage to the faction's HP
        ("base-of-influence#5", (9, 1, 8), True, 6,
         {"infantry#2": 6, "idealistic-thugs#3": 12, "base-of-influence#5": 4}, 4),
        # failure (a tie): the attacker takes the defender's counterattack, Infantry 1d6
        ("infantry#2", (5, 5, 3), False, 3, {"infantry#2": 6}, 12),
        ("idealistic-thugs#3", (1, 1, 6), False, 0, {"idealistic-thugs#3": 12}, 12),
        # failure against a Base: no counterattack dice at all
        ("base-of-influence#5", (1, 9), False, 6, {"base-of-influence#5": 12}, 12),
    ],
)
def test_success_and_failure_damage(defender, dice, success, red_hp, blue_hp, blue_faction_hp):
    s = _battle([INF_B], [INF_B, {"type": "idealistic-thugs", "location": "b"}])
    _do(s, "action attack")
    _do(s, "attack infantry#1 -> blue")
    ev = _do(s, f"defend with {defender}", *dice)
    attack = next(e for e in ev if e.kind == "attack")
    assert attack.data["success"] is success
    hits = [e for e in ev if e.kind == "damage" and e.data["cause"] == "attack"]
    assert bool(hits and "roll" in hits[0].data) is success
    assert s.rng.remaining == []
    if red_hp:
        assert s.assets["infantry#1"].hp == red_hp
    else:
        assert "infantry#1" not in s.assets
        assert "destroyed" in _kinds(ev)
    for aid, hp in blue_hp.items():
        assert s.assets[aid].hp == hp
    assert s.factions["blue"].hp == blue_faction_hp


def test_single_candidate_resolves_without_a_defend_decision():
    s = _battle([INF_B], [INF_B], blue_hq="c")  # blue's only asset in b is its Infantry
    _do(s, "action attack")
    ev = _do(s, "attack infantry#1 -> blue", 7, 2, 6)
    assert s.phase != "defend" and s.current_actor() == "red"
    attack = next(e for e in ev if e.kind == "attack")
    hit = next(e for e in ev if e.kind == "damage")
    assert (attack.data["defender"], hit.data["roll"]["total"]) == ("infantry#2", 6)
    assert "infantry#2" not in s.assets  # 6 HP - 6: destroyed
    assert s.rng.remaining == []


@pytest.mark.parametrize(
    "defender_type, dice, attacker_hp",
    [
        ("organization-moles", (1, 9), 6),  # no counterattack score
        ("thugs", (1, 9), 6),
        ("infantry", (1, 9, 2), 4),         # counter 1d6
        ("cavalry", (1, 9, 4), 2),          # counter 1d4
        ("spymaster", (1, 9, 5, 1), 0),     # counter 2d6 = 6: destroyed
    ],
)
def test_counterattack_only_from_assets_that_have_one(defender_type, dice, attacker_hp):
    s = _battle([INF_B], [{"type": defender_type, "location": "b"}], blue_hq="c")
    _do(s, "action attack")
    # Infantry is Force vs Force whatever the defender is
    ev = _do(s, "attack infantry#1 -> blue", *dice)
    assert s.rng.remaining == []
    assert s.factions["blue"].hp == 12
    if attacker_hp:
        assert s.assets["infantry#1"].hp == attacker_hp
    else:
        assert "infantry#1" not in s.assets
        assert any(e.kind == "destroyed" and e.data["asset"] == "infantry#1" for e in ev)


@pytest.mark.parametrize("hp, damage, hp_left", [(6, 5, 1), (3, 3, 0), (2, 8, 0), (1, 1, 0)])
def test_asset_destroyed_at_zero_hp(hp, damage, hp_left):
    s = _battle([INF_B], [{**INF_B, "hp": hp}], blue_hq="c")
    _do(s, "action attack")
    ev = _do(s, "attack infantry#1 -> blue", 9, 1, damage)
    dmg = next(e for e in ev if e.kind == "damage")
    assert (dmg.data["damage"], dmg.data["hp_left"]) == (min(hp, damage), hp_left)
    assert ("infantry#2" in s.assets) is (hp_left > 0)
    assert ("destroyed" in _kinds(ev)) is (hp_left == 0)


def test_same_defender_meets_several_attacks():
    s = _battle([INF_B, INF_B], [{"type": "cavalry", "location": "b"}])
    _do(s, "action attack")
    _do(s, "attack infantry#1 -> blue")
    _do(s, "defend with cavalry#3", 9, 1, 5)
    assert s.assets["cavalry#3"].hp == 12 - 5
    assert _texts(s) == ["attack infantry#2 -> blue", "done"]
    _do(s, "attack infantry#2 -> blue")
    assert _texts(s) == ["defend with cavalry#3", "defend with base-of-influence#5"]
    _do(s, "defend with cavalry#3", 9, 1, 6)
    assert s.assets["cavalry#3"].hp == 1
    assert s.factions["blue"].hp == 12


def test_destroyed_defender_cannot_meet_the_next_attack():
    s = _battle([INF_B, INF_B], [{**INF_B, "hp": 2}])
    _do(s, "action attack")
    _do(s, "attack infantry#1 -> blue")
    _do(s, "defend with infantry#3", 9, 1, 4)
    assert "infantry#3" not in s.assets
    # only the Base is left in b: it meets the second attack without a decision
    ev = _do(s, "attack infantry#2 -> blue", 9, 1, 3)
    assert next(e for e in ev if e.kind == "attack").data["defender"] == "base-of-influence#5"
    assert (s.assets["base-of-influence#5"].hp, s.factions["blue"].hp) == (9, 9)


# --------------------------------------------------------------------- Bases and faction HP
@pytest.mark.parametrize(
    "base_hp, damage, base_left, faction_loss",
    [
        (3, 8, 0, 3),    # no overflow: a 3 HP Base taking 8 costs the faction 3
        (10, 6, 4, 6),
        (5, 5, 0, 5),
        (1, 2, 0, 1),
    ],
)
def test_base_damage_hits_faction_hp_without_overflow(base_hp, damage, base_left, faction_loss):
    base = {"type": "base-of-influence", "location": "b", "hp": base_hp, "max_hp": base_hp}
    s = _battle([{"type": "cavalry", "location": "b"}], [base], blue_hq="c")
    _do(s, "action attack")
    # Cavalry deals 2d6
    ev = _do(s, "attack cavalry#1 -> blue", 9, 1, damage // 2, damage - damage // 2)
    dmg = next(e for e in ev if e.kind == "damage")
    assert dmg.data["damage"] == base_hp - base_left
    assert dmg.data["faction_damage"] == faction_loss
    assert s.factions["blue"].hp == 12 - faction_loss
    assert ("base-of-influence#2" in s.assets) is (base_left > 0)
    assert s.factions["blue"].alive


def test_faction_collapses_at_zero_hp_and_loses_all_assets():
    base = {"type": "base-of-influence", "location": "b", "hp": 5, "max_hp": 5}
    green = faction("green", headquarters="c", assets=[{"type": "infantry", "location": "c"}])
    s = _battle([INF_B], [base, {"type": "infantry", "location": "c"}], blue_hq="c",
                blue_kw={"hp": 4}, more=[green])
    assert len([a for a in s.assets.values() if a.owner == "blue"]) == 3
    _do(s, "action attack")
    ev = _do(s, "attack infantry#1 -> blue", 9, 1, 6)
    dmg = next(e for e in ev if e.kind == "damage")
    assert (dmg.data["damage"], dmg.data["faction_damage"]) == (5, 4)
    blue = s.factions["blue"]
    assert (blue.alive, blue.hp) == (False, 0)
    assert [a for a in s.assets.values() if a.owner == "blue"] == []
    collapse = next(e for e in ev if e.kind == "collapse")
    assert collapse.data["by"] == "red"
    assert sorted(collapse.data["assets_lost"]) == ["base-of-influence#6", "infantry#3"]
    assert not s.is_over()  # red and green are left


# --------------------------------------------------------------------- Stealth
def test_attacking_reveals_a_stealthed_attacker():
    s = _battle([{**INF_B, "stealth": True}], [INF_B], blue_hq="c")
    assert s.assets["infantry#1"].stealth
    _do(s, "action attack")
    ev = _do(s, "attack infantry#1 -> blue", 1, 9, 1)
    assert not s.assets["infantry#1"].stealth
    revealed = next(e for e in ev if e.kind == "revealed")
    assert revealed.data == {"asset": "infantry#1", "reason": "attacked"}
    assert _kinds(ev).index("revealed") < _kinds(ev).index("attack")


def test_stealthed_assets_cannot_be_chosen_to_defend():
    s = _battle([INF_B], [{**INF_B, "stealth": True}, {"type": "cavalry", "location": "b"}])
    _do(s, "action attack")
    _do(s, "attack infantry#1 -> blue")
    assert _texts(s) == ["defend with cavalry#3", "defend with base-of-influence#5"]


def test_faction_with_only_stealthed_assets_present_cannot_be_attacked():
    s = _battle([INF_B], [{**INF_B, "stealth": True}], blue_hq="c")
    assert "action attack" not in _texts(s)
    assert Attack("infantry#1", "blue") not in s.legal_actions()


# --------------------------------------------------------------------- who may be attacked
@pytest.mark.parametrize("relation, can_attack", [("allied", False), ("neutral", False),
                                                   ("hostile", True)])
def test_only_hostile_factions_are_targets(relation, can_attack):
    rel = [] if relation == "hostile" else [["red", "blue", relation]]
    s = _battle([INF_B], [INF_B], blue_hq="c", relations=rel)
    assert (ChooseAction("attack") in s.legal_actions()) is can_attack


def test_attack_targets_list_hostile_factions_only():
    green = faction("green", headquarters="c", assets=[{"type": "infantry", "location": "b"}])
    s = _battle([INF_B], [INF_B], blue_hq="c", relations=[["red", "blue", "neutral"]],
                more=[green])
    _do(s, "action attack")
    assert _texts(s) == ["attack infantry#1 -> green", "done"]


def test_attack_only_in_the_attackers_location():
    s = _battle([{"type": "infantry", "location": "a"}], [INF_B], blue_hq="c")
    assert "action attack" not in _texts(s)


def test_each_asset_attacks_once_per_action():
    s = _battle([INF_B, INF_B], [{"type": "cavalry", "location": "b"}], blue_hq="c")
    _do(s, "action attack")
    assert _texts(s) == ["attack infantry#1 -> blue", "attack infantry#2 -> blue", "done"]
    _do(s, "attack infantry#1 -> blue", 1, 9, 1)
    assert _texts(s) == ["attack infantry#2 -> blue", "done"]
    ev = _do(s, "attack infantry#2 -> blue", 1, 9, 1)
    # nothing left to attack with: the Attack action ends by itself
    assert s.phase == "goal" and s.current_actor() == "red"
    assert _kinds(ev).count("attack") == 1
    assert (s.assets["infantry#1"].hp, s.assets["infantry#2"].hp) == (5, 5)


def test_assets_without_an_attack_cannot_attack():
    s = _battle([{"type": "fearful-intimidation", "location": "b"}], [INF_B], blue_hq="c")
    assert "action attack" not in _texts(s)
