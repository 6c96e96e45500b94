"""Cunning asset abilities (rules 6.8.0) played through the engine.

Map a - b - c. Initiative is scripted (8 for the first faction, 1 for the other); later dice are
scripted right before the action that rolls them. Default ratings 3/3/3: income 3 a turn.
"""

from __future__ import annotations

import numpy as np
import pytest
from wwn_helpers import ScriptedRng, asset, faction, make_state, play_to
from wwn_helpers import apply_text as _do

from factionsim.rules.wwn import abilities, movement
from factionsim.rules.wwn.combat import destroy_asset
from factionsim.rules.wwn.economy import sell_asset
from factionsim.rules.wwn.state import WwnState


def _state(red_assets, blue_assets, first="red", red_kw=None, blue_kw=None, locations=None,
           relations=None, dice=()):
    factions = [faction("red", assets=red_assets, **(red_kw or {})),
                faction("blue", headquarters="c", assets=blue_assets, **(blue_kw or {}))]
    init = (8, 1) if first == "red" else (1, 8)
    return make_state(factions, locations=locations, relations=relations,
                      rng=ScriptedRng(*init, *dice))


def _texts(s):
    s._legal = None
    return [str(a) for a in s.legal_actions()]


def _ability_events(events, effect=None):
    return [e for e in events if e.kind == "ability" and (effect is None or e.data["effect"] == effect)]


def A(type_id, loc, **kw):
    return {"type": type_id, "location": loc, **kw}


RULED_B = [{"id": "a", "neighbors": ["b"]}, {"id": "b", "neighbors": ["c"], "ruler": "blue"},
           {"id": "c"}]


# ------------------------------------------------------------------ Bewitching Charmer
def test_bewitching_charmer_pins_target_until_it_moves():
    s = _state([A("bewitching-charmer", "b")], [A("infantry", "b")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    ev = _do(s, "attack bewitching-charmer#1 -> blue", 9, 1)  # special: no damage dice
    assert s.rng.remaining == []
    inf = s.assets["infantry#2"]
    assert inf.hp == 6 and inf.status["pinned_by"] == "bewitching-charmer#1"
    assert _ability_events(ev, "pin")
    assert movement.destinations(s, inf) == []
    play_to(s, "action", "blue")
    assert "action move" not in _texts(s)  # its only mobile asset is held
    movement.move_asset(s, s.assets["bewitching-charmer#1"], "a", [])
    assert "pinned_by" not in inf.status
    assert movement.destinations(s, inf) == ["a", "c"]


def test_bewitching_charmer_takes_no_counterattack():
    s = _state([A("bewitching-charmer", "b")], [A("infantry", "b")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    _do(s, "attack bewitching-charmer#1 -> blue", 1, 9)  # fails; Infantry's 1d6 never rolled
    assert s.rng.remaining == []
    assert s.assets["bewitching-charmer#1"].hp == 4
    assert "pinned_by" not in s.assets["infantry#2"].status


# ------------------------------------------------------------------ Blackmail
def _blackmail_attack(blackmail_loc):
    s = _state([A("spymaster", "b")], [A("blackmail", blackmail_loc), A("informers", "b")],
               red_kw={"tags": ["machiavellian"]})
    play_to(s, "action", "red")
    _do(s, "action attack")
    return s


def test_blackmail_caps_hostile_dice_in_its_location():
    s = _blackmail_attack("b")
    _do(s, "attack spymaster#1 -> blue")
    ev = _do(s, "defend with informers#3", 5, 3, 2)  # Machiavellian red rolls one die only
    attack = next(e for e in ev if e.kind == "attack")
    assert attack.data["attacker_check"]["roll"] == [5]
    assert s.assets["informers#3"].hp == 1
    assert s.rng.remaining == []


def test_blackmail_elsewhere_leaves_dice_alone():
    s = _blackmail_attack("c")
    ev = _do(s, "attack spymaster#1 -> blue", 5, 2, 3, 1)  # two dice for red, keeps 5
    attack = next(e for e in ev if e.kind == "attack")
    assert attack.data["attacker_check"]["roll"] == [5, 2]
    assert s.rng.remaining == []


# ------------------------------------------------------------------ Court Patronage
def test_court_patronage_adds_one_treasure_each_turn():
    s = _state([A("court-patronage", "a")], [])
    play_to(s, "action", "red")
    assert s.factions["red"].treasure == 3 + 1


def test_court_patronage_disabled_gives_nothing():
    s = _state([A("court-patronage", "a", status={"disabled_by": "x"})], [])
    play_to(s, "action", "red")
    assert s.factions["red"].treasure == 3


# ------------------------------------------------------------------ Covert Transport
def test_covert_transport_moves_and_hides_until_the_asset_acts():
    s = _state([A("covert-transport", "a"), A("worker-mob", "a"), A("infantry", "a")],
               [], locations=RULED_B)
    play_to(s, "abilities", "red")
    opts = [t for t in _texts(s) if t.startswith("use covert-transport#1")]
    # Cunning/Wealth assets only (not the Infantry, not itself); the ruled b is reachable
    assert opts == ["use covert-transport#1 worker-mob#2->b"]
    ev = _do(s, "use covert-transport#1 worker-mob#2->b")
    mob = s.assets["worker-mob#2"]
    assert (mob.location, mob.stealth, mob.status["until_acts"]) == ("b", True, ["stealth"])
    assert s.factions["red"].treasure == 2
    assert _ability_events(ev, "covert-transport")
    assert s.phase == "action"  # its free action is spent: nothing left to use this turn
    assert not any(t.startswith("use covert-transport") for t in _texts(s))
    _do(s, "action move")
    _do(s, "move worker-mob#2 -> a")  # acting ends the granted Stealth
    assert not mob.stealth and "until_acts" not in mob.status


@pytest.mark.parametrize(("holder", "carried"), [
    ("covert-transport", ["worker-mob"]),
    ("hired-friends", ["worker-mob"]),
    ("shapeshifters", []),
])
def test_a_free_action_for_one_treasure_is_not_offered_without_one(holder, carried):
    """Covert Transport, Hired Friends, Shapeshifters: "Free action once per turn, 1 Treasure"
    (our summaries): a faction with no Treasure is not offered it."""
    s = _state([A(holder, "a"), *(A(c, "a") for c in carried)], [])
    play_to(s, "abilities", "red")
    assert any(t.startswith(f"use {holder}") for t in _texts(s))  # offered with Treasure
    s.factions["red"].treasure = 0
    assert not any(t.startswith(f"use {holder}") for t in _texts(s))


# ------------------------------------------------------------------ Cryptomancers
def test_cryptomancers_stun_a_target_within_one_move_for_its_owners_next_turn():
    s = _state([A("cryptomancers", "a")],
               [A("infantry", "b"), A("infantry", "b", stealth=True), A("infantry", "c")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    # within one move and visible only; not Bases
    assert [t for t in _texts(s) if t.startswith("use")] == ["use cryptomancers#1 infantry#2"]
    ev = _do(s, "use cryptomancers#1 infantry#2", 9, 1)
    assert s.rng.remaining == []
    inf = s.assets["infantry#2"]
    assert inf.status["stunned_turn"] == 1  # blue acts later this turn
    assert _ability_events(ev, "stun")
    assert abilities.usable(s, inf)  # free during red's turn
    play_to(s, "action", "blue")
    assert not abilities.usable(s, inf)
    _do(s, "action move")
    assert not any(t.startswith("move infantry#2") for t in _texts(s))


def test_cryptomancers_failure_takes_no_counterattack():
    s = _state([A("cryptomancers", "b")], [A("spymaster", "b")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    _do(s, "use cryptomancers#1 spymaster#2", 1, 9)  # Spymaster's 2d6 counter never rolled
    assert s.rng.remaining == []
    assert s.assets["cryptomancers#1"].hp == 6 and "stunned_turn" not in s.assets["spymaster#2"].status


# ------------------------------------------------------------------ Dancing Girls
def test_dancing_girls_cannot_meet_force_attacks():
    s = _state([A("infantry", "b"), A("spymaster", "b")], [A("dancing-girls", "b")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    assert "attack infantry#1 -> blue" not in _texts(s)
    assert "attack spymaster#2 -> blue" in _texts(s)


def test_dancing_girls_immune_to_force_counterattack():
    s = _state([A("infantry", "b")], [A("dancing-girls", "b")], first="blue")
    play_to(s, "action", "blue")
    _do(s, "action attack")
    ev = _do(s, "attack dancing-girls#2 -> red", 1, 9, 5)  # fails; Infantry counters 1d6 = 5
    assert s.rng.remaining == []
    assert s.assets["dancing-girls#2"].hp == 3
    assert any(e.kind == "immune" for e in ev)


# ------------------------------------------------------------------ Expert Treachery
def test_expert_treachery_converts_the_target():
    s = _state([A("expert-treachery", "b")], [A("infantry", "b")])
    play_to(s, "action", "red")
    before = s.factions["red"].treasure
    _do(s, "action attack")
    ev = _do(s, "attack expert-treachery#1 -> blue", 9, 1)
    assert s.rng.remaining == []
    assert "expert-treachery#1" not in s.assets
    assert s.assets["infantry#2"].owner == "red"
    assert "infantry#2" in [a.id for a in s.assets_of("red")]
    assert "infantry#2" not in [a.id for a in s.assets_of("blue")]
    assert s.factions["red"].treasure == before + 5
    assert _ability_events(ev, "treachery")[0].data["converted"] is True


def test_a_reassigned_asset_moves_in_the_index_by_owner():
    s = _state([], [A("infantry", "b")])
    assert [a.id for a in s.assets_of("blue")] == ["infantry#1", "base-of-influence#3"]
    s.assets.reassign(s.assets["infantry#1"], "red")
    assert [a.id for a in s.assets_of("blue")] == ["base-of-influence#3"]
    assert "infantry#1" in [a.id for a in s.assets_of("red")]


def test_expert_treachery_against_a_base_gains_treasure_only():
    s = _state([A("expert-treachery", "c")], [])
    play_to(s, "action", "red")
    before = s.factions["red"].treasure
    _do(s, "action attack")
    _do(s, "attack expert-treachery#1 -> blue", 9, 1)
    base = s.headquarters_base("blue")
    assert base.owner == "blue" and base.hp == 12
    assert "expert-treachery#1" not in s.assets and s.factions["red"].treasure == before + 5


# ------------------------------------------------------------------ Hired Friends
def test_hired_friends_grant_subtle_until_destroyed_or_reused():
    s = _state([A("hired-friends", "a"), A("worker-mob", "b"), A("armed-guards", "c"),
                A("worker-mob", "a")], [])
    play_to(s, "abilities", "red")
    # Wealth assets within one move only
    assert [t for t in _texts(s) if t.startswith("use hired")] == [
        "use hired-friends#1 worker-mob#2", "use hired-friends#1 worker-mob#4"]
    _do(s, "use hired-friends#1 worker-mob#2")
    assert s.assets["worker-mob#2"].subtle and s.factions["red"].treasure == 2
    assert s.phase == "action"  # once per turn
    # used again (as on a later turn): the first grant ends
    abilities.free_use(s, s.assets["hired-friends#1"], "worker-mob#4", [])
    assert not s.assets["worker-mob#2"].subtle and s.assets["worker-mob#4"].subtle
    destroy_asset(s, s.assets["hired-friends#1"], "blue", [], "attack")
    assert not s.assets["worker-mob#4"].subtle


def test_hired_friends_grant_ends_when_sold():
    s = _state([A("hired-friends", "a"), A("worker-mob", "a")], [])
    play_to(s, "abilities", "red")
    _do(s, "use hired-friends#1 worker-mob#2")
    sell_asset(s, s.factions["red"], s.assets["hired-friends#1"], [])
    assert not s.assets["worker-mob#2"].subtle


# ------------------------------------------------------------------ Informers
def test_informers_reveal_stealthed_assets_within_one_move():
    s = _state([A("informers", "a")],
               [A("infantry", "b", stealth=True), A("infantry", "c", stealth=True)])
    play_to(s, "abilities", "red")
    assert "use informers#1 blue" in _texts(s)
    ev = _do(s, "use informers#1 blue", 9, 1)
    assert s.rng.remaining == []
    assert not s.assets["infantry#2"].stealth and s.assets["infantry#3"].stealth
    assert s.factions["red"].treasure == 2
    assert _ability_events(ev, "search")[0].data["revealed"] == ["infantry#2"]


def test_informers_failure_reveals_nothing_and_costs_a_treasure():
    s = _state([A("informers", "a")], [A("infantry", "b", stealth=True)])
    play_to(s, "abilities", "red")
    _do(s, "use informers#1 blue", 1, 9)
    assert s.rng.remaining == [] and s.assets["infantry#2"].stealth
    assert s.factions["red"].treasure == 2 and s.assets["informers#1"].hp == 3
    s.factions["red"].treasure = 0
    s.ctx["used"].clear()
    assert not any(t.startswith("use informers") for t in _texts(s))


# ------------------------------------------------------------------ Interrupted Logistics
def test_interrupted_logistics_tolls_and_delays_entry():
    s = _state([A("infantry", "a")], [A("interrupted-logistics", "b")], red_kw={"treasure": 1})
    play_to(s, "action", "red")
    _do(s, "action move")
    ev = _do(s, "move infantry#1 -> b", 3)  # 1d4 = 3 Treasure
    inf = s.assets["infantry#1"]
    assert (inf.location, inf.status["arriving"]) == ("a", "b")
    assert s.factions["red"].treasure == 1
    assert _ability_events(ev, "delay-entry")[0].data["paid"] == 3
    s.rng = ScriptedRng(8, 1)  # next turn's initiative
    play_to(s, "action", "red")
    assert s.turn == 1 and inf.location == "b" and "arriving" not in inf.status


def test_interrupted_logistics_needs_four_treasure_and_spares_stealth():
    s = _state([A("infantry", "a"), A("infantry", "a", stealth=True)],
               [A("interrupted-logistics", "b")])
    play_to(s, "action", "red")
    s.factions["red"].treasure = 3
    _do(s, "action move")
    assert "move infantry#1 -> b" not in _texts(s)
    _do(s, "move infantry#2 -> b")  # Stealthed: no toll, no delay
    assert s.assets["infantry#2"].location == "b" and s.factions["red"].treasure == 3


# ------------------------------------------------------------------ Just As Planned
def test_just_as_planned_rerolls_a_failed_cunning_check_for_1d6_damage():
    s = _state([A("spymaster", "b"), A("just-as-planned", "a")], [A("informers", "b")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    _do(s, "attack spymaster#1 -> blue", 1, 9)
    assert s.phase == "react" and _texts(s) == ["use just-as-planned#2", "decline"]
    ev = _do(s, "use just-as-planned#2", 10, 4, 2)  # reroll 10, cost 1d6 = 4, damage 1d6 = 2
    assert s.assets["just-as-planned#2"].hp == 11
    assert s.assets["informers#3"].hp == 1
    assert next(e for e in ev if e.kind == "attack").data["success"] is True
    assert s.rng.remaining == []


def test_just_as_planned_decline_and_force_checks():
    s = _state([A("spymaster", "b"), A("infantry", "b"), A("just-as-planned", "a")],
               [A("informers", "b")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    _do(s, "attack spymaster#1 -> blue", 1, 9)
    ev = _do(s, "decline")
    assert next(e for e in ev if e.kind == "attack").data["success"] is False
    assert s.assets["just-as-planned#3"].hp == 15
    _do(s, "attack infantry#2 -> blue", 1, 9)  # Force vs Force: not offered; no counter
    assert s.phase != "react" and s.assets["just-as-planned#3"].hp == 15


# ------------------------------------------------------------------ Mindbenders
def test_mindbenders_force_a_reroll_and_keep_the_worse_once_per_turn():
    s = _state([A("infantry", "b"), A("infantry", "b")], [A("informers", "b"), A("mindbenders", "c")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    _do(s, "attack infantry#1 -> blue", 9, 1)  # red wins: blue's Mindbenders are asked
    assert s.current_actor() == "blue" and _texts(s) == ["use mindbenders#4 red:lower", "decline"]
    ev = _do(s, "use mindbenders#4 red:lower", 1)  # red rerolls 1: 4 vs 4 fails
    assert next(e for e in ev if e.kind == "attack").data["success"] is False
    assert s.assets["informers#3"].hp == 3 and s.current_actor() == "red"
    _do(s, "attack infantry#2 -> blue", 9, 1, 2)  # second check: no offer (once per turn)
    assert s.assets["informers#3"].hp == 1 and s.rng.remaining == []


def test_mindbenders_reroll_that_does_better_is_discarded_and_decline():
    s = _state([A("infantry", "b"), A("infantry", "b")], [A("informers", "b"), A("mindbenders", "c")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    _do(s, "attack infantry#1 -> blue", 5, 1)
    _do(s, "use mindbenders#4 red:lower", 10, 2)  # 10 is higher: the 5 stands, still a hit
    assert s.assets["informers#3"].hp == 1
    assert s.assets["mindbenders#4"].status["affected"] == ["red"]
    s.assets["mindbenders#4"].status.pop("used_turn")
    _do(s, "attack infantry#2 -> blue", 9, 1, 1)  # red already affected: not offered again
    assert "informers#3" not in s.assets and s.rng.remaining == []


@pytest.mark.parametrize(("reroll", "informers_hp"), [
    (2, 1),   # infantry 1d8: 2 < the first 6 -> the lower 2 is kept: 3 - 2 = 1 left
    (7, None),  # 7 is higher: the first 6 stands and the Informers (3 HP) are destroyed
])
def test_mindbenders_force_a_damage_reroll_against_their_faction(reroll, informers_hp):
    s = _state([A("infantry", "b")], [A("informers", "b"), A("mindbenders", "c")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    # red's check wins 9 vs 1: blue declines the check reroll, then red rolls 6 damage
    _do(s, "attack infantry#1 -> blue", 9, 1)
    _do(s, "decline", 6)
    assert s.current_actor() == "blue" and _texts(s) == ["use mindbenders#3 red:lower", "decline"]
    ev = _do(s, "use mindbenders#3 red:lower", reroll)
    assert _ability_events(ev, "forced-damage-reroll")[0].data["kept_total"] == min(6, reroll)
    if informers_hp is None:
        assert "informers#2" not in s.assets
    else:
        assert s.assets["informers#2"].hp == informers_hp
    assert s.rng.remaining == []


# ------------------------------------------------------------------ Occult Infiltrators
def test_occult_infiltrators_enter_play_stealthed():
    s = _state([], [], red_kw={"magic": "medium", "treasure": 10})
    play_to(s, "action", "red")
    _do(s, "action create")
    _do(s, "create occult-infiltrators at a")
    assert asset(s, "red", "occult-infiltrators").stealth


# ------------------------------------------------------------------ Omniscient Seers
def test_omniscient_seers_check_stealthed_hostiles_at_turn_start():
    # blue's Stealthed asset in b (within one move) checks: blue 1d10 = 5 + 3 against red's
    # 2d10 (the Seers' extra die) = 6 + 3 -> it loses Stealth; the one in c is out of range
    s = _state([A("omniscient-seers", "a")],
               [A("infantry", "b", stealth=True), A("infantry", "c", stealth=True)], dice=(5, 3, 6))
    play_to(s, "action", "red")
    assert s.rng.remaining == []
    assert not s.assets["infantry#2"].stealth and s.assets["infantry#3"].stealth


def test_omniscient_seers_keep_stealth_on_a_win_and_extra_die_on_cunning_attacks():
    s = _state([A("omniscient-seers", "a"), A("spymaster", "b")],
               [A("infantry", "b", stealth=True), A("informers", "b")], dice=(9, 3, 6))
    play_to(s, "action", "red")
    assert s.assets["infantry#3"].stealth
    _do(s, "action attack")
    ev = _do(s, "attack spymaster#2 -> blue", 2, 7, 1, 1)  # red rolls 2 dice within one move
    attack = next(e for e in ev if e.kind == "attack")
    assert attack.data["attacker_check"]["roll"] == [2, 7] and attack.data["success"]
    assert s.rng.remaining == []


# ------------------------------------------------------------------ Popular Movement
def test_popular_movement_opens_forbidden_location_to_friendly_assets():
    s = _state([A("infantry", "a"), A("popular-movement", "b")], [], locations=RULED_B)
    play_to(s, "action", "red")
    _do(s, "action move")
    assert "move infantry#1 -> b" in _texts(s)
    s2 = _state([A("infantry", "a"), A("popular-movement", "c")], [], locations=RULED_B)
    assert movement.forbids(s2, "b", s2.assets["infantry#1"])


# ------------------------------------------------------------------ Saboteurs
def test_saboteurs_deny_free_actions_next_turn_even_on_a_miss():
    s = _state([A("saboteurs", "b")], [A("informers", "b")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    ev = _do(s, "attack saboteurs#1 -> blue", 1, 9)  # a miss; Informers have no counter
    assert s.assets["informers#2"].status["no_free_turn"] == 1
    assert _ability_events(ev, "sabotage")
    play_to(s, "action", "blue")
    assert abilities.free_options(s, "blue") == []
    del s.assets["informers#2"].status["no_free_turn"]
    assert abilities.free_options(s, "blue") == [("informers#2", "red")]


# ------------------------------------------------------------------ Seditionists
def test_seditionists_pay_1d4_and_disable_a_hostile_asset_until_they_leave():
    s = _state([A("seditionists", "b")], [A("infantry", "b"), A("infantry", "a")],
               red_kw={"treasure": 1})
    play_to(s, "action", "red")
    _do(s, "action attack")
    assert [t for t in _texts(s) if t.startswith("use")] == ["use seditionists#1 infantry#2"]
    ev = _do(s, "use seditionists#1 infantry#2", 2)
    assert s.factions["red"].treasure == 2 and _ability_events(ev, "infest")
    inf = s.assets["infantry#2"]
    assert not abilities.usable(s, inf)
    movement.move_asset(s, s.assets["seditionists#1"], "a", [])
    assert abilities.usable(s, inf)


def test_seditionists_need_four_treasure():
    s = _state([A("seditionists", "b")], [A("infantry", "b")])
    play_to(s, "action", "red")
    s.factions["red"].treasure = 3
    assert "action attack" not in _texts(s)  # its only attack would be the Seditionists'
    assert not any(t.startswith("use seditionists") for t in _texts(s))


# ------------------------------------------------------------------ Shapeshifters
def test_shapeshifters_buy_stealth():
    s = _state([A("shapeshifters", "a")], [])
    play_to(s, "abilities", "red")
    ev = _do(s, "use shapeshifters#1")
    assert s.assets["shapeshifters#1"].stealth and s.factions["red"].treasure == 2
    assert _ability_events(ev, "stealth")
    s.ctx["used"].clear()
    assert "use shapeshifters#1" not in _texts(s)  # already Stealthed


# ------------------------------------------------------------------ Smugglers
def test_smugglers_move_allied_wealth_or_cunning_into_forbidden_places():
    green = faction("green", headquarters="a", assets=[A("armed-guards", "a"), A("infantry", "a")])
    factions = [faction("red", assets=[A("smugglers", "a"), A("worker-mob", "a")]),
                faction("blue", headquarters="c"), green]
    s = make_state(factions, locations=RULED_B, relations=[["red", "green", "allied"]],
                   rng=ScriptedRng(8, 1, 1))
    play_to(s, "abilities", "red")
    opts = [t for t in _texts(s) if t.startswith("use smugglers")]
    assert opts == ["use smugglers#1 worker-mob#2->b", "use smugglers#1 armed-guards#3->b"]
    assert movement.forbids(s, "b", s.assets["worker-mob#2"])
    _do(s, "use smugglers#1 armed-guards#3->b")
    assert s.assets["armed-guards#3"].location == "b" and s.factions["red"].treasure == 3


# ------------------------------------------------------------------ Underground Roads
def test_underground_roads_move_a_friendly_asset_around_the_roads():
    s = _state([A("underground-roads", "b"), A("infantry", "a")], [])
    play_to(s, "abilities", "red")
    assert [t for t in _texts(s) if t.startswith("use under")] == [
        "use underground-roads#1 infantry#2->b", "use underground-roads#1 infantry#2->c"]
    _do(s, "use underground-roads#1 infantry#2->c")
    assert s.assets["infantry#2"].location == "c" and s.factions["red"].treasure == 2
    s.factions["red"].treasure = 0
    s.ctx["used"].clear()
    assert not any(t.startswith("use under") for t in _texts(s))


# ------------------------------------------------------------------ Useful Idiots
def test_useful_idiots_negate_an_attack_one_band_per_turn():
    s = _state([A("infantry", "b"), A("infantry", "b")],
               [A("infantry", "b"), A("useful-idiots", "a"), A("useful-idiots", "c")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    _do(s, "attack infantry#1 -> blue", 9, 1)
    assert s.current_actor() == "blue"
    assert _texts(s) == ["use useful-idiots#4", "use useful-idiots#5", "decline"]
    ev = _do(s, "use useful-idiots#5")
    assert "useful-idiots#5" not in s.assets and s.assets["infantry#3"].hp == 6
    assert _ability_events(ev, "negate-attack")
    _do(s, "attack infantry#2 -> blue", 9, 1, 4)  # no second sacrifice this turn
    assert s.assets["infantry#3"].hp == 2 and s.rng.remaining == []


def test_useful_idiots_out_of_range_or_declined():
    s = _state([A("infantry", "a")], [A("infantry", "a"), A("useful-idiots", "c")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    _do(s, "attack infantry#1 -> blue", 9, 1, 4)  # c is two moves from a: no offer
    assert s.assets["infantry#2"].hp == 2
    s2 = _state([A("infantry", "b")], [A("infantry", "b"), A("useful-idiots", "b")])
    play_to(s2, "action", "red")
    _do(s2, "action attack")
    _do(s2, "attack infantry#1 -> blue")
    _do(s2, "defend with infantry#2", 9, 1)
    _do(s2, "decline", 5)
    assert s2.assets["infantry#2"].hp == 1 and "useful-idiots#3" in s2.assets


# ------------------------------------------------------------------ Vigilant Agents
def test_vigilant_agents_strip_stealth_from_a_watched_move():
    s = _state([A("infantry", "a", stealth=True), A("infantry", "a", stealth=True)],
               [A("vigilant-agents", "c")])
    play_to(s, "action", "red")
    _do(s, "action move")
    ev = _do(s, "move infantry#1 -> b", 9, 1)  # blue's check: 9+3 > 1+3
    assert s.assets["infantry#1"].location == "b" and not s.assets["infantry#1"].stealth
    assert _ability_events(ev, "watch")
    _do(s, "move infantry#2 -> b", 1, 9)  # a failed check: it stays hidden
    assert s.assets["infantry#2"].stealth and s.rng.remaining == []


def test_vigilant_agents_ignore_visible_and_far_moves():
    s = _state([A("infantry", "a"), A("infantry", "b", stealth=True)],
               [A("vigilant-agents", "c")],
               locations=[{"id": "a", "neighbors": ["b"]}, {"id": "b", "neighbors": ["c"]},
                          {"id": "c", "neighbors": ["d"]}, {"id": "d"}])
    play_to(s, "action", "red")
    _do(s, "action move")
    _do(s, "move infantry#1 -> b")  # not Stealthed: no check (no dice scripted)
    _do(s, "move infantry#2 -> a")  # a is two moves from c
    assert s.assets["infantry#2"].stealth


# ------------------------------------------------------------------ interactions and saving
def test_cryptomancers_stun_can_be_negated_by_useful_idiots():
    s = _state([A("cryptomancers", "b")], [A("infantry", "b"), A("useful-idiots", "c")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    _do(s, "use cryptomancers#1 infantry#2", 9, 1)
    assert _texts(s) == ["use useful-idiots#3", "decline"]
    _do(s, "use useful-idiots#3")
    assert "stunned_turn" not in s.assets["infantry#2"].status and "useful-idiots#3" not in s.assets


def test_mindbenders_between_two_rivals_name_the_result_they_prefer():
    green = faction("green", headquarters="c", assets=[A("informers", "b")])
    factions = [faction("red", assets=[A("infantry", "b")]),
                faction("blue", headquarters="c", assets=[A("mindbenders", "c")]), green]
    s = make_state(factions, rng=ScriptedRng(8, 1, 1))
    play_to(s, "action", "red")
    _do(s, "action attack")
    _do(s, "attack infantry#1 -> green", 9, 1)
    assert s.current_actor() == "blue"
    assert _texts(s) == ["use mindbenders#2 red:lower", "use mindbenders#2 green:higher", "decline"]
    ev = _do(s, "use mindbenders#2 green:higher", 10)  # green's 10 + 3 beats red's 12
    assert next(e for e in ev if e.kind == "attack").data["success"] is False


def test_delayed_arrival_survives_a_save():
    s = _state([A("infantry", "a")], [A("interrupted-logistics", "b")], red_kw={"treasure": 1})
    play_to(s, "action", "red")
    _do(s, "action move")
    _do(s, "move infantry#1 -> b", 2)
    s.rng = np.random.default_rng(0)
    s2 = WwnState.from_dict(s.to_dict())
    s2.rng = ScriptedRng(8, 1)
    play_to(s2, "action", "red")
    assert s2.turn == 1 and s2.assets["infantry#1"].location == "b"
