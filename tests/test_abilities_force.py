"""Force asset abilities (6.9.0) and the Wealth assets that move (6.10.0), played through the engine.

Initiative is scripted 8 for red and 1 for blue, so red acts first; later dice are scripted right
before the action that rolls them. Default map: a - b - c in a line.
"""

from __future__ import annotations

import pytest
from wwn_helpers import ScriptedRng, asset, faction, make_state, play_to
from wwn_helpers import apply_text as _do
from wwn_helpers import texts as _texts

from factionsim.rules.wwn import abilities, economy, movement


def _state(red, blue=(), *, locations=None, relations=None, more=(), red_kw=None, blue_kw=None,
           dice=()):
    factions = [faction("red", assets=list(red), **(red_kw or {})),
                faction("blue", assets=list(blue), **{"headquarters": "c", **(blue_kw or {})}),
                *more]
    return make_state(factions, locations=locations, relations=relations,
                      rng=ScriptedRng(8, 1, *[1] * len(more), *dice))


def _ability_events(events, effect=None):
    return [e for e in events if e.kind == "ability" and (effect is None or e.data["effect"] == effect)]


def _attack_event(events):
    return next(e for e in events if e.kind == "attack")


def _at(t, loc, **kw):
    return {"type": t, "location": loc, **kw}


RULED_B = [{"id": "a", "neighbors": ["b"]}, {"id": "b", "neighbors": ["c"], "ruler": "blue"},
           {"id": "c"}]


# --------------------------------------------------------------------- Brilliant General
def test_brilliant_general_extra_die_for_itself_and_allied_force_assets_there():
    s = _state([_at("brilliant-general", "b"), _at("brilliant-general", "b"), _at("infantry", "b"),
                _at("infantry", "c")],
               [_at("infantry", "b")],
               more=[faction("green", assets=[_at("infantry", "b"), _at("smugglers", "b")])],
               relations=[["red", "green", "allied"]], red_kw={"force": 5})
    gen, gen2, inf, far = (s.assets[f"{t}#{n}"] for t, n in
                           (("brilliant-general", 1), ("brilliant-general", 2), ("infantry", 3),
                            ("infantry", 4)))
    blue_inf, green_inf, green_smug = s.assets["infantry#5"], s.assets["infantry#6"], s.assets["smugglers#7"]
    line = blue_inf.kind.attack
    # two Generals in one place do not stack
    assert abilities.extra_attack_dice(s, gen) == 1
    assert abilities.extra_attack_dice(s, inf) == 1
    assert abilities.extra_defense_dice(s, inf, line) == 1
    assert abilities.extra_attack_dice(s, green_inf) == 1  # allied faction's Force asset
    assert abilities.extra_attack_dice(s, green_smug) == 0  # not a Force asset
    assert abilities.extra_attack_dice(s, far) == 0  # elsewhere
    assert abilities.extra_attack_dice(s, blue_inf) == 0  # hostile
    assert gen2.id != gen.id
    # played: red's Infantry attacks with two dice, keeps the best
    play_to(s, "action", "red")
    _do(s, "action attack")
    ev = _do(s, "attack infantry#3 -> blue", 1, 9, 5, 4)
    att = _attack_event(ev)
    assert att.data["attacker_check"]["roll"] == [1, 9]
    assert att.data["success"] is True
    assert s.assets["infantry#5"].hp == 6 - 4
    assert s.rng.remaining == []


# --------------------------------------------------------------------- Purity Rites
def test_purity_rites_defends_only_cunning_attacks_with_an_extra_die():
    s = _state([_at("organization-moles", "b"), _at("infantry", "b")], [_at("purity-rites", "b")])
    moles, inf, rites = s.assets["organization-moles#1"], s.assets["infantry#2"], s.assets["purity-rites#3"]
    assert movement.defenders(s, "blue", inf) == []  # Force vs Force: it may not defend
    assert movement.defenders(s, "blue", moles) == [rites]
    play_to(s, "action", "red")
    _do(s, "action attack")
    assert "attack infantry#2 -> blue" not in _texts(s)
    # Moles: Cunning vs Cunning; blue rolls two dice (5, 6); 9+3 beats 6+3; 2d6 = 3+4
    ev = _do(s, "attack organization-moles#1 -> blue", 9, 5, 6, 3, 4)
    att = _attack_event(ev)
    assert att.data["defender_check"]["roll"] == [5, 6]
    assert rites.hp == 10 - 7
    assert s.rng.remaining == []


# --------------------------------------------------------------------- Fortification Program
def test_fortification_program_defends_force_attacks_nearby_once_per_turn():
    s = _state([_at("infantry", "b"), _at("infantry", "b"), _at("organization-moles", "b")],
               [_at("infantry", "b"), _at("fortification-program", "c")])
    inf1, inf2, moles = s.assets["infantry#1"], s.assets["infantry#2"], s.assets["organization-moles#3"]
    fort = s.assets["fortification-program#5"]
    assert fort in movement.defenders(s, "blue", inf1)
    assert fort not in movement.defenders(s, "blue", moles)  # Cunning vs Cunning: not on Force
    play_to(s, "action", "red")
    _do(s, "action attack")
    _do(s, "attack infantry#1 -> blue")
    assert _texts(s) == ["defend with infantry#4", "defend with fortification-program#5"]
    # 5 vs 5: a tie fails; the Program's counter 2d6 = 2+3
    ev = _do(s, "defend with fortification-program#5", 5, 5, 2, 3)
    assert _attack_event(ev).data["defender"] == "fortification-program#5"
    assert inf1.hp == 6 - 5
    assert _ability_events(ev, "defends-from-afar")
    assert fort.status["fortify_turn"] == 1
    assert movement.defenders(s, "blue", inf2) == [s.assets["infantry#4"]]  # used this turn
    assert s.rng.remaining == []


def test_fortification_program_out_of_range():
    s = _state([_at("infantry", "a")], [_at("infantry", "a"), _at("fortification-program", "c")])
    assert movement.defenders(s, "blue", s.assets["infantry#1"]) == [s.assets["infantry#2"]]


# --------------------------------------------------------------------- Siege Experts
def _siege(blue_treasure, dice):
    s = _state([_at("siege-experts", "b")], [_at("infantry", "b")],
               blue_kw={"treasure": blue_treasure}, red_kw={"force": 5})
    play_to(s, "action", "red")
    red_before = s.factions["red"].treasure
    _do(s, "action attack")
    ev = _do(s, "attack siege-experts#1 -> blue", *dice)
    assert s.rng.remaining == []
    return s, ev, s.factions["red"].treasure - red_before


def test_siege_experts_take_1d4_treasure_on_a_success():
    s, ev, gained = _siege(5, (9, 1, 3, 4))  # success, 1d6 = 3, 1d4 = 4
    assert (gained, s.factions["blue"].treasure) == (4, 1)
    assert _ability_events(ev, "plunder")[0].data["roll"] == [4]


def test_siege_experts_take_no_more_than_there_is_and_nothing_on_failure():
    s, _, gained = _siege(2, (9, 1, 3, 4))
    assert (gained, s.factions["blue"].treasure) == (2, 0)
    s, ev, gained = _siege(5, (1, 9, 2))  # failure: the Infantry counters 1d6 = 2
    assert (gained, s.factions["blue"].treasure) == (0, 5)
    assert not _ability_events(ev)


# --------------------------------------------------------------------- Temple Fanatics
def test_temple_fanatics_hurt_themselves_after_success_not_after_failure():
    s = _state([_at("temple-fanatics", "b")], [_at("infantry", "b")])
    fan = s.assets["temple-fanatics#1"]
    play_to(s, "action", "red")
    _do(s, "action attack")
    ev = _do(s, "attack temple-fanatics#1 -> blue", 9, 1, 2, 2, 3)  # hit 2d6 = 4, zeal 1d4 = 3
    assert s.assets["infantry#2"].hp == 2 and fan.hp == 6 - 3
    assert _ability_events(ev, "zeal")[0].data["roll"] == [3]
    s = _state([_at("temple-fanatics", "b")], [_at("infantry", "b")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    ev = _do(s, "attack temple-fanatics#1 -> blue", 1, 9, 2)  # failure: counter 1d6 = 2, no zeal
    assert s.assets["temple-fanatics#1"].hp == 4 and not _ability_events(ev)
    assert s.rng.remaining == []


def test_temple_fanatics_hurt_themselves_after_defending():
    s = _state([_at("infantry", "b")], [_at("temple-fanatics", "b")])
    play_to(s, "action", "red")
    _do(s, "action attack")
    ev = _do(s, "attack infantry#1 -> blue", 1, 9, 1, 1, 2)  # fails; counter 2d6 = 2; zeal 2
    assert s.assets["infantry#1"].hp == 4
    assert s.assets["temple-fanatics#2"].hp == 6 - 2
    assert _ability_events(ev, "zeal")
    assert s.rng.remaining == []


# --------------------------------------------------------------------- Demonic Slayer
def test_demonic_slayer_enters_play_stealthed():
    s = _state([], red_kw={"treasure": 20})
    created = economy.create_asset(s, s.factions["red"], "demonic-slayer", "a", [])
    assert created.stealth is True
    assert economy.create_asset(s, s.factions["red"], "infantry", "a", []).stealth is False
    assert "demonic-slayer" in abilities.implemented()


# --------------------------------------------------------------------- Invincible Legion
def test_invincible_legion_goes_where_others_are_forbidden_and_stays():
    s = _state([_at("invincible-legion", "a"), _at("infantry", "a")], locations=RULED_B)
    play_to(s, "action", "red")
    _do(s, "action move")
    assert "move invincible-legion#1 -> b" in _texts(s)
    assert "move infantry#2 -> b" not in _texts(s)
    _do(s, "move invincible-legion#1 -> b")
    legion = s.assets["invincible-legion#1"]
    assert legion.location == "b" and not legion.subtle
    assert not movement.forbids(s, "b", legion)  # no exposure later


# --------------------------------------------------------------------- Vanguard Unit
def test_vanguard_unit_carries_chosen_units_into_forbidden_ground():
    s = _state([_at("vanguard-unit", "a"), _at("infantry", "a"), _at("knights", "a")],
               locations=RULED_B, red_kw={"force": 6})
    play_to(s, "action", "red")
    _do(s, "action move")
    assert "use vanguard-unit#1 b" in _texts(s)
    assert "move infantry#2 -> b" not in _texts(s)
    _do(s, "use vanguard-unit#1 b")
    assert s.actor == "red" and _texts(s) == ["use vanguard-unit#1 take-infantry#2", "decline"]
    _do(s, "use vanguard-unit#1 take-infantry#2")
    assert _texts(s) == ["use vanguard-unit#1 take-knights#3", "decline"]
    ev = _do(s, "decline")
    assert [s.assets[a].location for a in ("vanguard-unit#1", "infantry#2", "knights#3")] == ["b", "b", "a"]
    assert _ability_events(ev, "vanguard-advance")[0].data["group"] == ["infantry#2"]
    inf = s.assets["infantry#2"]
    assert inf.status["may_stay"] == "b" and not movement.forbids(s, "b", inf)
    assert "infantry#2" in s.ctx["done"]  # carried: it does not move again in this action
    # the Vanguard leaves: the Infantry may still stay; once it moves away the leave lapses
    s.assets["vanguard-unit#1"].location = "a"
    assert not movement.forbids(s, "b", inf)
    movement.move_asset(s, inf, "c", [])
    assert "may_stay" not in inf.status and movement.forbids(s, "b", inf)


# --------------------------------------------------------------------- War Fleet
COAST = [{"id": "a", "coastal": True, "neighbors": ["b", "c"]}, {"id": "b"},
         {"id": "c", "coastal": True}]


def test_war_fleet_sails_to_coasts_once_and_attacks_only_from_the_coast():
    s = _state([_at("war-fleet", "a")], [_at("infantry", "a"), _at("infantry", "b")], locations=COAST)
    fleet = s.assets["war-fleet#1"]
    assert movement.can_attack(s, fleet)
    play_to(s, "abilities", "red")
    assert _texts(s) == ["use war-fleet#1 c", "done"]
    ev = _do(s, "use war-fleet#1 c")
    assert fleet.location == "c" and _ability_events(ev, "sails")
    assert not any(t.startswith("use ") for t in _texts(s))  # once per turn
    fleet.location = "b"
    assert not movement.can_attack(s, fleet)


# --------------------------------------------------------------------- Magical Logistics
def test_magical_logistics_repairs_two_hp_of_an_allied_force_asset():
    s = _state([_at("magical-logistics", "a"), _at("infantry", "c", hp=2), _at("knights", "b")],
               [_at("infantry", "a", hp=1)],
               more=[faction("green", headquarters="b",
                             assets=[_at("infantry", "b", hp=5), _at("war-fleet", "b", hp=1, stealth=True),
                                     _at("smugglers", "b", hp=1)])],
               relations=[["red", "green", "allied"]], red_kw={"force": 5})
    play_to(s, "abilities", "red")
    # damaged Force assets of red and green (ally), not the hostile one, not green's Stealthed one,
    # not a full-HP one, not a non-Force one
    assert _texts(s) == ["use magical-logistics#1 infantry#2", "use magical-logistics#1 infantry#5", "done"]
    ev = _do(s, "use magical-logistics#1 infantry#2")
    assert s.assets["infantry#2"].hp == 4 and _ability_events(ev, "repair")[0].data["healed"] == 2
    assert not any(t.startswith("use ") for t in _texts(s))


# --------------------------------------------------------------------- Military Roads
def test_military_roads_move_one_asset_within_reach_for_one_treasure():
    s = _state([_at("military-roads", "b"), _at("infantry", "a")], red_kw={"force": 4})
    play_to(s, "abilities", "red")
    assert _texts(s) == ["use military-roads#1 infantry#2->b", "use military-roads#1 infantry#2->c", "done"]
    before = s.factions["red"].treasure
    _do(s, "use military-roads#1 infantry#2->c")
    assert s.assets["infantry#2"].location == "c" and s.factions["red"].treasure == before - 1


@pytest.mark.parametrize("holder, holder_at, infantry_at, red_kw", [
    ("military-roads", "b", "a", {"force": 4}),
    ("transport-network", "a", "b", {"wealth": 7}),
])
def test_moves_for_a_treasure_not_offered_without_treasure(holder, holder_at, infantry_at, red_kw):
    """A faction without Treasure is not offered the move. Military Roads: "the faction can move
    any one Asset ... at a cost of 1 Treasure"; Transport Network: "the Transport Network can
    spend 1 Treasure to move any friendly Asset"."""
    s = _state([_at(holder, holder_at), _at("infantry", infantry_at), _at("war-fleet", "a")],
               locations=[{"id": "a", "coastal": True, "neighbors": ["b"]}, {"id": "b", "neighbors": ["c"]},
                          {"id": "c", "coastal": True}], red_kw=red_kw)
    play_to(s, "abilities", "red")
    s.factions["red"].treasure = 0
    s._legal = None
    assert not any(t.startswith(f"use {holder}") for t in _texts(s))


# --------------------------------------------------------------------- Military Transport
def test_military_transports_chain_an_asset_over_two_moves():
    s = _state([_at("military-transport", "b"), _at("military-transport", "c"), _at("infantry", "a")])
    play_to(s, "abilities", "red")
    texts = _texts(s)
    assert "use military-transport#1 infantry#3->b" in texts
    assert "use military-transport#2 infantry#3->c" not in texts  # two moves away
    _do(s, "use military-transport#1 infantry#3->b")
    assert "use military-transport#2 infantry#3->c" in _texts(s)
    assert not any(t.startswith("use military-transport#1") for t in _texts(s))
    ev = _do(s, "use military-transport#2 infantry#3->c")
    assert s.assets["infantry#3"].location == "c"
    assert [e.data["to"] for e in ev if e.kind == "move"] == ["c"]


# --------------------------------------------------------------------- Caravan
def test_caravan_moves_itself_and_one_asset_for_one_treasure():
    s = _state([_at("caravan", "b"), _at("infantry", "b")], locations=RULED_B, blue_kw={"headquarters": "c"})
    # b is ruled by blue: red stands there, but may leave for a or c (no ruler)
    play_to(s, "abilities", "red")
    assert [t for t in _texts(s) if t.startswith("use caravan")] == [
        "use caravan#1 a", "use caravan#1 a+infantry#2", "use caravan#1 c", "use caravan#1 c+infantry#2"]
    before = s.factions["red"].treasure
    _do(s, "use caravan#1 a+infantry#2")
    assert [s.assets[a].location for a in ("caravan#1", "infantry#2")] == ["a", "a"]
    assert s.factions["red"].treasure == before - 1
    s2 = _state([_at("caravan", "a")])
    play_to(s2, "abilities", "red")
    s2.factions["red"].treasure = 0
    s2._legal = None
    assert _texts(s2) == ["done"]


# --------------------------------------------------------------------- Dragomans
def test_dragomans_extra_expand_die_and_free_move():
    s = _state([_at("dragomans", "b"), _at("dragomans", "b")], [_at("infantry", "b")])
    assert abilities.expand_extra_dice(s, "red", "b") == 1  # two do not stack
    assert abilities.expand_extra_dice(s, "red", "c") == 0
    assert abilities.expand_extra_dice(s, "blue", "b") == 0
    play_to(s, "action", "red")
    _do(s, "action expand")  # b is the only place without a red Base: chosen at once
    ev = _do(s, "base hp 1", 2, 9, 5)  # red rolls two dice against blue
    check = next(e for e in ev if e.kind == "expand-check")
    assert check.data["attacker_check"]["roll"] == [2, 9] and check.data["success"] is True
    s = _state([_at("dragomans", "b")])
    play_to(s, "abilities", "red")
    assert _texts(s) == ["use dragomans#1 a", "use dragomans#1 c", "done"]
    _do(s, "use dragomans#1 c")
    assert s.assets["dragomans#1"].location == "c" and not any(t.startswith("use ") for t in _texts(s))


# --------------------------------------------------------------------- Economic Disruption
def test_economic_disruption_moves_itself_free():
    s = _state([_at("economic-disruption", "a")], red_kw={"wealth": 6})
    play_to(s, "abilities", "red")
    before = s.factions["red"].treasure
    assert _texts(s) == ["use economic-disruption#1 b", "done"]
    _do(s, "use economic-disruption#1 b")
    assert s.assets["economic-disruption#1"].location == "b" and s.factions["red"].treasure == before


# --------------------------------------------------------------------- Free Company, Hired Legion
def test_free_company_upkeep_paid_and_free_move():
    s = _state([_at("free-company", "a")])
    play_to(s, "abilities", "red")
    assert s.factions["red"].treasure == 3 - 1  # income 3, upkeep 1
    assert _texts(s) == ["use free-company#1 b", "done"]


def test_free_company_unpaid_deserts_on_1_to_3():
    s = _state([_at("free-company", "a", status={"arrears": 3})], dice=[3])
    play_to(s, "action", "red")
    assert "free-company#1" not in s.assets
    assert s.rng.remaining == []


def test_free_company_unpaid_goes_rogue_and_attacks_the_costliest_target():
    # owed 3 + 1 > 3 Treasure; 1d6 = 5: rogue. Blue Knights (cost 18) in b beat Infantry in a.
    s = _state([_at("free-company", "a", status={"arrears": 3})],
               [_at("infantry", "a"), _at("knights", "b")], dice=[5, 9, 1, 1, 1])
    play_to(s, "action", "red")
    fc = s.assets["free-company#1"]
    assert fc.status == {"arrears": 4, "rogue": True}
    assert fc.location == "b"
    assert s.assets["knights#3"].hp == 16 - 4  # 2d4+2 = 1+1+2
    assert s.rng.remaining == []
    assert not any(t.startswith("use free-company") for t in _texts(s))


def test_rogue_company_target_defender_is_chosen_by_the_target_faction():
    s = _state([_at("free-company", "b", status={"arrears": 3})],
               [_at("knights", "b"), _at("infantry", "b")], dice=[6])
    play_to(s, "react", "blue")
    assert _texts(s) == ["defend with knights#2", "defend with infantry#3"]  # no decline
    _do(s, "defend with infantry#3", 1, 9, 2)  # fails; Infantry counters 1d6 = 2
    assert s.assets["free-company#1"].hp == 4


def test_back_pay_paid_ends_rogue_state():
    s = _state([_at("free-company", "a", status={"arrears": 1, "rogue": True})], red_kw={"treasure": 5})
    play_to(s, "abilities", "red")
    fc = s.assets["free-company#1"]
    assert fc.status == {} and s.factions["red"].treasure == 5 + 3 - 2


def test_hired_legion_unsellable_upkeep_two_free_move():
    s = _state([_at("hired-legion", "a")], red_kw={"wealth": 8})
    legion = s.assets["hired-legion#1"]
    assert not economy.sellable(s, legion)
    play_to(s, "abilities", "red")
    assert s.factions["red"].treasure == 6 - 2  # income ceil(4 + 1.5) = 6
    assert "use hired-legion#1 b" in _texts(s)


# --------------------------------------------------------------------- Mad Genius
def test_mad_genius_sacrifice_makes_magic_high_until_next_purchase():
    s = _state([_at("mad-genius", "a"), _at("mad-genius", "b")], red_kw={"wealth": 5, "force": 5})
    play_to(s, "abilities", "red")
    texts = _texts(s)
    assert "use mad-genius#1 sacrifice" in texts and "use mad-genius#2 sacrifice" not in texts  # no Base in b
    assert "use mad-genius#2 a" in texts
    _do(s, "use mad-genius#1 sacrifice")
    assert "mad-genius#1" not in s.assets
    assert abilities.magic_boost(s, "red", "a") == 3 and abilities.magic_boost(s, "blue", "a") == 0
    red = s.factions["red"]
    red.treasure = 20
    assert "demonic-slayer" in economy.buyable(s, red, "a")  # needs High Magic
    economy.create_asset(s, red, "infantry", "a", [])
    assert abilities.magic_boost(s, "red", "a") == 0
    assert "demonic-slayer" not in economy.buyable(s, red, "a")


# --------------------------------------------------------------------- Smuggling Fleet
SEA = [{"id": "a", "coastal": True, "neighbors": ["b", "c"]}, {"id": "b", "coastal": True, "ruler": "blue"},
       {"id": "c"}]


def test_smuggling_fleet_carries_an_asset_that_is_subtle_until_it_acts():
    s = _state([_at("smuggling-fleet", "a"), _at("infantry", "a")], locations=SEA, red_kw={"wealth": 5})
    play_to(s, "abilities", "red")
    assert _texts(s) == ["use smuggling-fleet#1 b", "use smuggling-fleet#1 b+infantry#2", "done"]
    _do(s, "use smuggling-fleet#1 b+infantry#2")
    inf = s.assets["infantry#2"]
    assert inf.location == "b" and inf.subtle and not movement.forbids(s, "b", inf)
    abilities.on_act(s, inf, [])
    assert not inf.subtle and movement.forbids(s, "b", inf)


# --------------------------------------------------------------------- Transport Network
LINE4 = [{"id": "a", "neighbors": ["b"]}, {"id": "b", "neighbors": ["c"]}, {"id": "c", "neighbors": ["d"]},
         {"id": "d"}]


def test_transport_network_moves_a_friendly_asset_within_two_moves():
    s = _state([_at("transport-network", "a"), _at("infantry", "c"), _at("knights", "d")],
               locations=LINE4, red_kw={"wealth": 7, "force": 6}, blue_kw={"headquarters": "d"})
    play_to(s, "abilities", "red")
    texts = [t for t in _texts(s) if "infantry" in t or "knights" in t]
    assert texts == ["use transport-network#1 infantry#2->b", "use transport-network#1 infantry#2->d",
                     "use transport-network#1 infantry#2->a"]
    before = s.factions["red"].treasure
    _do(s, "use transport-network#1 infantry#2->a")
    assert s.assets["infantry#2"].location == "a" and s.factions["red"].treasure == before - 1
    # no limit per turn in the text (house rule transport_once_per_turn: see test_wwn_house_rules)
    assert "use transport-network#1 infantry#2->b" in _texts(s)


def test_decline_leaves_vanguard_group_behind():
    s = _state([_at("vanguard-unit", "a"), _at("infantry", "a")], locations=RULED_B)
    play_to(s, "action", "red")
    _do(s, "action move")
    _do(s, "use vanguard-unit#1 b")
    _do(s, "decline")
    assert asset(s, "red", "infantry").location == "a" and asset(s, "red", "vanguard-unit").location == "b"
