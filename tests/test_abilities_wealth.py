"""Wealth asset abilities (6.10.0) that do not move assets, played through the engine.

Red (HQ ``a``) acts first: initiative is scripted 8 for red and 1 for blue (and 1 for green when
there is one). Both have F3 C3 W3, so red earns 3 Treasure at the start of its turn. Later dice
are scripted right before the action that rolls them.
"""

from __future__ import annotations

import pytest
from wwn_helpers import ScriptedRng, asset, faction, make_state, play_to

from factionsim.core.game import IllegalActionError
from factionsim.rules.wwn import abilities
from factionsim.rules.wwn.actions import parse_action

INCOME = 3


def _state(red_assets, blue_assets=(), red_kw=None, blue_kw=None, more=(), relations=None,
           blue_hq="b", phase="abilities"):
    factions = [faction("red", assets=list(red_assets), **(red_kw or {})),
                faction("blue", headquarters=blue_hq, assets=list(blue_assets), **(blue_kw or {})),
                *more]
    s = make_state(factions, relations=relations, rng=ScriptedRng(8, 1, *[1] * len(more)))
    # red's first decision: its free abilities, or its action when it has none
    assert s.current_actor() == "red" and s.phase in ("abilities", "action")
    if phase == "action":
        _to_action(s)
    return s


def _do(s, text, *dice):
    if dice:
        s.rng = ScriptedRng(*dice)
    events = s.apply(parse_action(text))
    if dice:
        assert s.rng.remaining == []
    return events


def _texts(s):
    return [str(a) for a in s.legal_actions()]


def _ability(events, effect=None):
    return [e for e in events if e.kind == "ability" and (effect is None or e.data["effect"] == effect)]


def _end_red_turn(s):
    """Idle choices until red's turn is over (the next initiative, if any, is scripted 8, 1)."""
    s.rng = ScriptedRng(8, 1)
    while s.current_actor() == "red":
        texts = {str(a): a for a in s.legal_actions()}
        s.apply(next((texts[t] for t in ("action pass", "keep goal", "done", "decline") if t in texts),
                     s.legal_actions()[0]))


def _set_treasure(s, fid, amount):
    s.factions[fid].treasure = amount
    s._legal = None


# ======================================================================== profit rolls
@pytest.mark.parametrize("roll, gained", [(5, 1), (6, 1), (4, 0), (1, 0)])
def test_farmers_gain_one_on_five_plus(roll, gained):
    s = _state([{"type": "farmers", "location": "a"}], red_kw={"treasure": 2})
    assert "use farmers#1" in _texts(s)
    ev = _do(s, "use farmers#1", roll)
    assert s.factions["red"].treasure == 2 + INCOME + gained
    e = _ability(ev, "harvest")[0]
    assert (e.data["source"], e.data["roll"], e.data["gained"]) == ("farmers#1", [roll], gained)
    assert "use farmers#1" not in _texts(s)  # once per turn
    with pytest.raises(IllegalActionError):
        s.apply(parse_action("use farmers#1"))


def test_ancient_mechanisms_roll_twice_keep_better_for_its_owner_only():
    s = _state([{"type": "farmers", "location": "a"}, {"type": "ancient-mechanisms", "location": "a"},
                {"type": "farmers", "location": "b"}],
               [{"type": "farmers", "location": "a"}], red_kw={"wealth": 4})
    t = s.factions["red"].treasure
    ev = _do(s, "use farmers#1", 2, 5)  # two dice, the better (5) counts
    assert _ability(ev, "harvest")[0].data["roll"] == [2, 5]
    assert s.factions["red"].treasure == t + 1
    ev = _do(s, "use farmers#3", 5)  # in another location: one die only
    assert _ability(ev, "harvest")[0].data["roll"] == [5]
    # blue's Farmers next to red's Mechanisms roll one die
    play_to(s, "abilities", "blue")
    ev = _do(s, "use farmers#4", 4)
    assert _ability(ev, "harvest")[0].data["gained"] == 0


def test_ancient_mechanisms_apply_to_trade_company_and_workshop_gain_dice_not_damage():
    s = _state([{"type": "trade-company", "location": "a"}, {"type": "ancient-mechanisms", "location": "a"},
                {"type": "ancient-workshop", "location": "a"}], red_kw={"wealth": 8})
    t = s.factions["red"].treasure
    ev = _do(s, "use trade-company#1", 2, 1, 4)  # damage 1d4 = 2 once; gain max(1, 4) - 1
    assert _ability(ev, "venture")[0].data["roll"] == [1, 4]
    assert s.factions["red"].treasure == t + 3
    ev = _do(s, "use ancient-workshop#3", 3, 6, 2)  # damage 1d6 = 3 once; gain max(6, 2)
    assert s.factions["red"].treasure == t + 3 + 6
    assert asset(s, "red", "ancient-workshop").hp == 16 - 3


@pytest.mark.parametrize("roll, delta", [(1, -1), (2, 1), (5, 1), (6, 2)])
def test_manufactory_results(roll, delta):
    s = _state([{"type": "manufactory", "location": "a"}])
    t = s.factions["red"].treasure
    _do(s, "use manufactory#1", roll)
    assert s.factions["red"].treasure == t + delta
    assert "owes" not in asset(s, "red", "manufactory").status


def test_manufactory_loss_unpaid_at_turn_end_loses_it():
    s = _state([{"type": "manufactory", "location": "a"}])
    _set_treasure(s, "red", 0)
    ev = _do(s, "use manufactory#1", 1)
    assert _ability(ev, "loss-owed")
    assert asset(s, "red", "manufactory").status == {"owes": 1}
    _end_red_turn(s)  # red's turn ends with 0 Treasure
    assert "manufactory#1" not in s.assets


def test_manufactory_loss_paid_by_treasure_gained_later_in_the_turn():
    s = _state([{"type": "manufactory", "location": "a"}, {"type": "farmers", "location": "a"}])
    _set_treasure(s, "red", 0)
    _do(s, "use manufactory#1", 1)
    _do(s, "use farmers#2", 6)  # +1 Treasure
    assert s.factions["red"].treasure == 1
    _end_red_turn(s)
    assert "manufactory#1" in s.assets and s.factions["red"].treasure == 0


# ======================================================================== self-damage for Treasure
def test_trade_company_damage_for_treasure_and_destroyed_still_pays():
    s = _state([{"type": "trade-company", "location": "a", "hp": 3}], red_kw={"wealth": 6})
    t = s.factions["red"].treasure
    ev = _do(s, "use trade-company#1", 4, 6)  # 1d4 = 4 destroys it; 1d6-1 = 5
    assert "trade-company#1" not in s.assets
    assert s.factions["red"].treasure == t + 5
    assert _ability(ev, "venture")[0].data["damage"] == [4]


def test_trade_company_one_on_the_die_gains_nothing():
    s = _state([{"type": "trade-company", "location": "a"}], red_kw={"wealth": 6})
    t = s.factions["red"].treasure
    _do(s, "use trade-company#1", 1, 1)
    assert (s.factions["red"].treasure, asset(s, "red", "trade-company").hp) == (t, 9)


def test_ancient_workshop():
    s = _state([{"type": "ancient-workshop", "location": "a"}], red_kw={"wealth": 7})
    t = s.factions["red"].treasure
    _do(s, "use ancient-workshop#1", 5, 3)
    assert (s.factions["red"].treasure, asset(s, "red", "ancient-workshop").hp) == (t + 3, 11)
    assert "use ancient-workshop#1" not in _texts(s)


# ======================================================================== Golden Prosperity
def test_golden_prosperity_repairs_from_its_fund_then_lapses():
    s = _state([{"type": "golden-prosperity", "location": "a"},
                {"type": "farmers", "location": "a", "hp": 1},
                {"type": "manufactory", "location": "a", "hp": 1}],
               red_kw={"wealth": 8, "hp": 10})
    t = s.factions["red"].treasure
    ev = _do(s, "use golden-prosperity#1", 4)
    assert _ability(ev, "repair-fund")[0].data["fund"] == 4
    assert s.phase == "react" and s.current_actor() == "red"
    assert _texts(s) == ["use golden-prosperity#1 repair farmers#2",
                         "use golden-prosperity#1 repair manufactory#3",
                         "use golden-prosperity#1 repair-faction", "decline"]
    _do(s, "use golden-prosperity#1 repair farmers#2")  # 1 from the fund, +ceil(8/2)=4 HP
    assert asset(s, "red", "farmers").hp == 4
    _do(s, "use golden-prosperity#1 repair-faction")  # 1 from the fund
    assert s.factions["red"].hp == 10 + 6  # (8 + 3) / 2 rounded up
    assert "use golden-prosperity#1 repair-faction" not in _texts(s)  # once per turn
    # 1 from the fund, 1 left but nothing more to repair: it lapses without a question
    ev = _do(s, "use golden-prosperity#1 repair manufactory#3")
    assert _ability(ev, "repair-fund-lapses")[0].data["lost"] == 1
    assert s.factions["red"].treasure == t  # the faction's own Treasure untouched
    assert s.phase != "react"
    # the Repair action continues the escalating prices: farmers are full, manufactory next fix 2
    assert s.ctx["fixes"] == {"farmers#2": 1, "manufactory#3": 1}
    assert s.ctx["healed"] is True


def test_golden_prosperity_own_treasure_pays_beyond_the_fund_and_escalates():
    s = _state([{"type": "golden-prosperity", "location": "a", "hp": 1}], red_kw={"wealth": 8})
    _set_treasure(s, "red", 1)
    _do(s, "use golden-prosperity#1", 2)
    _do(s, "use golden-prosperity#1 repair golden-prosperity#1")  # costs 1: fund 2 -> 1
    _do(s, "use golden-prosperity#1 repair golden-prosperity#1")  # costs 2: fund 1 + 1 own
    assert s.factions["red"].treasure == 0
    assert asset(s, "red", "golden-prosperity").hp == 1 + 4 + 4
    assert s.phase != "react"  # fund spent: no more question


def test_golden_prosperity_decline_changes_nothing():
    s = _state([{"type": "golden-prosperity", "location": "a", "hp": 20}], red_kw={"wealth": 8})
    t = s.factions["red"].treasure
    _do(s, "use golden-prosperity#1", 6)
    ev = _do(s, "decline")
    assert _ability(ev, "repair-fund-lapses")[0].data["lost"] == 6
    assert (s.factions["red"].treasure, asset(s, "red", "golden-prosperity").hp) == (t, 20)


def test_golden_prosperity_nothing_to_repair_lapses_without_asking():
    s = _state([{"type": "golden-prosperity", "location": "a"}], red_kw={"wealth": 8})
    ev = _do(s, "use golden-prosperity#1", 3)
    assert _ability(ev, "repair-fund-lapses")[0].data["lost"] == 3
    assert s.phase != "react"


# ======================================================================== saves
INF_B = {"type": "infantry", "location": "b"}


def _to_action(s):
    if s.phase == "abilities":
        _do(s, "done")


def _attack(s, attacker, target, *dice):
    _to_action(s)
    _do(s, "action attack")
    return _do(s, f"attack {attacker} -> {target}", *dice)


def test_healers_restore_asset_destroyed_by_force_attack():
    # red Infantry (Force vs Force, 1d8) attacks blue's Farmers in b; blue Healers in c (one move)
    s = _state([INF_B], [{"type": "farmers", "location": "b"}, {"type": "healers", "location": "c"}],
               blue_hq="c", blue_kw={"treasure": 1, "wealth": 4})
    _attack(s, "infantry#1", "blue", 9, 1, 6)
    assert s.phase == "react" and s.current_actor() == "blue"
    assert _texts(s) == ["use healers#3 restore", "decline"]
    ev = _do(s, "use healers#3 restore")
    assert s.assets["farmers#2"].hp == 1
    assert s.factions["blue"].treasure == 0  # half of 2
    assert _ability(ev, "restore") and not [e for e in ev if e.kind == "destroyed"]
    assert s.current_actor() == "red"


def test_healers_decline_destroys():
    s = _state([INF_B], [{"type": "farmers", "location": "b"}, {"type": "healers", "location": "c"}],
               blue_hq="c", blue_kw={"treasure": 5, "wealth": 4})
    _attack(s, "infantry#1", "blue", 9, 1, 6)
    ev = _do(s, "decline")
    assert "farmers#2" not in s.assets and any(e.kind == "destroyed" for e in ev)


@pytest.mark.parametrize("case", ["not-force", "too-far", "cannot-pay"])
def test_healers_not_offered(case):
    # Front Merchant attacks Wealth vs Wealth; d is two moves from b
    attacker = "front-merchant" if case == "not-force" else "infantry"
    locations = [{"id": "a", "neighbors": ["b", "d"]}, {"id": "b", "neighbors": ["c"]}, {"id": "c"},
                 {"id": "d"}]
    factions = [faction("red", assets=[{"type": attacker, "location": "b"}]),
                faction("blue", headquarters="c", wealth=4, treasure=0 if case == "cannot-pay" else 5,
                        assets=[{"type": "farmers", "location": "b"},
                                {"type": "healers", "location": "d" if case == "too-far" else "c"}])]
    s = make_state(factions, locations=locations, rng=ScriptedRng(8, 1))
    ev = _attack(s, f"{attacker}#1", "blue", 9, 1, 4)
    assert s.phase != "react" and "farmers#2" not in s.assets
    assert any(e.kind == "destroyed" for e in ev)


def test_healers_of_an_ally_asked_after_the_owner_declines():
    green = faction("green", headquarters="c", wealth=4, treasure=5,
                    assets=[{"type": "healers", "location": "c"}])
    s = _state([INF_B], [{"type": "farmers", "location": "b"}, {"type": "healers", "location": "c"}],
               blue_hq="c", blue_kw={"treasure": 5, "wealth": 4}, more=[green],
               relations=[["blue", "green", "allied"]])
    _attack(s, "infantry#1", "blue", 9, 1, 6)
    assert s.current_actor() == "blue"
    _do(s, "decline")
    assert s.current_actor() == "green" and _texts(s) == ["use healers#4 restore", "decline"]
    _do(s, "use healers#4 restore")
    assert s.assets["farmers#2"].hp == 1 and s.factions["green"].treasure == 4
    assert s.factions["blue"].treasure == 5


def test_lead_or_silver_claims_the_asset_it_drops():
    s = _state([{"type": "lead-or-silver", "location": "b"}],
               [{"type": "monopoly", "location": "b"}], blue_hq="c", red_kw={"wealth": 7, "treasure": 1})
    t = s.factions["red"].treasure
    _attack(s, "lead-or-silver#1", "blue", 9, 1, 6, 6)  # 2d10 = 12 on Monopoly's 12 HP
    assert s.current_actor() == "red" and _texts(s) == ["use lead-or-silver#1 claim", "decline"]
    ev = _do(s, "use lead-or-silver#1 claim")
    m = s.assets["monopoly#2"]
    assert (m.owner, m.hp, m.location) == ("red", 1, "b")
    assert s.factions["red"].treasure == t - 4  # half of 8
    assert _ability(ev, "claim")[0].data["previous_owner"] == "blue"


def test_lead_or_silver_decline_or_unaffordable_destroys():
    s = _state([{"type": "lead-or-silver", "location": "b"}],
               [{"type": "monopoly", "location": "b"}], blue_hq="c", red_kw={"wealth": 7})
    _set_treasure(s, "red", 3)  # half of 8 is 4: cannot pay
    _attack(s, "lead-or-silver#1", "blue", 9, 1, 6, 6)
    assert "monopoly#2" not in s.assets and s.phase != "react"


# ======================================================================== Front Merchant
def test_front_merchant_skims_one_treasure_once_per_turn():
    s = _state([{"type": "front-merchant", "location": "b"}], [{"type": "farmers", "location": "b"}],
               blue_hq="c", blue_kw={"treasure": 2})
    t = s.factions["red"].treasure
    ev = _attack(s, "front-merchant#1", "blue", 9, 1, 1)
    assert (s.factions["red"].treasure, s.factions["blue"].treasure) == (t + 1, 1)
    assert _ability(ev, "skim")
    fm, farmers = s.assets["front-merchant#1"], s.assets["farmers#2"]
    events = []
    abilities.after_attack(s, fm, farmers, True, events)  # a second success this game turn
    assert not events and s.factions["blue"].treasure == 1


def test_front_merchant_nothing_on_failure_or_empty_purse():
    s = _state([{"type": "front-merchant", "location": "b"}], [{"type": "farmers", "location": "b"}],
               blue_hq="c", blue_kw={"treasure": 0})
    t = s.factions["red"].treasure
    _attack(s, "front-merchant#1", "blue", 9, 1, 1)
    assert (s.factions["red"].treasure, s.factions["blue"].treasure) == (t, 0)
    s = _state([{"type": "front-merchant", "location": "b"}], [{"type": "farmers", "location": "b"}],
               blue_hq="c", blue_kw={"treasure": 2})
    t = s.factions["red"].treasure
    _attack(s, "front-merchant#1", "blue", 1, 9, 1)  # fails; Farmers counter 1d4 = 1
    assert (s.factions["red"].treasure, s.factions["blue"].treasure) == (t, 2)


# ======================================================================== Monopoly
def _monopoly_state(blue_treasure):
    return _state([{"type": "monopoly", "location": "b"}],
                  [{"type": "farmers", "location": "b"},
                   {"type": "infantry", "location": "b", "stealth": True},
                   {"type": "farmers", "location": "c"}],
                  blue_kw={"treasure": blue_treasure}, red_kw={"wealth": 4})


def test_monopoly_targets_visible_assets_of_others_in_its_location():
    s = _monopoly_state(3)
    # not the Stealthed Infantry, not blue's Base in b, not the Farmers in c
    assert [t for t in _texts(s) if t.startswith("use monopoly")] == ["use monopoly#1 farmers#2"]


def test_monopoly_target_pays():
    s = _monopoly_state(3)
    t = s.factions["red"].treasure
    _do(s, "use monopoly#1 farmers#2")
    assert s.current_actor() == "blue" and _texts(s) == ["use monopoly#1 pay", "decline"]
    _do(s, "use monopoly#1 pay")
    assert (s.factions["red"].treasure, s.factions["blue"].treasure) == (t + 1, 2)
    assert "farmers#2" in s.assets and s.current_actor() == "red"


def test_monopoly_target_refuses_or_cannot_pay():
    s = _monopoly_state(3)
    _do(s, "use monopoly#1 farmers#2")
    _do(s, "decline")
    assert "farmers#2" not in s.assets and s.factions["blue"].treasure == 3
    s = _monopoly_state(0)
    ev = _do(s, "use monopoly#1 farmers#2")
    assert "farmers#2" not in s.assets and s.current_actor() == "red"
    assert any(e.kind == "asset-lost" for e in ev)


# ======================================================================== Supply Interruption
def _supply_state(blue_treasure=10):
    return _state([{"type": "supply-interruption", "location": "b"}],
                  [{"type": "monopoly", "location": "b"}, {"type": "farmers", "location": "c"}],
                  blue_kw={"treasure": blue_treasure, "wealth": 4}, red_kw={"wealth": 5})


def test_supply_interruption_success_owner_pays():
    s = _supply_state()
    assert [t for t in _texts(s) if "supply" in t] == ["use supply-interruption#1 monopoly#2"]
    _do(s, "use supply-interruption#1 monopoly#2", 9, 1)  # Cunning 3+9 vs Wealth 4+1
    assert s.current_actor() == "blue" and _texts(s) == ["use supply-interruption#1 pay", "decline"]
    _do(s, "use supply-interruption#1 pay")
    assert s.factions["blue"].treasure == 10 - 4 and s.assets["monopoly#2"].status == {}


def test_supply_interruption_refused_disables_until_paid_later():
    s = _supply_state()
    _do(s, "use supply-interruption#1 monopoly#2", 9, 1)
    _do(s, "decline")
    m = s.assets["monopoly#2"]
    assert m.status == {"disabled_by": "supply-interruption#1", "ransom": 4}
    assert not abilities.usable(s, m)
    play_to(s, "abilities", "blue")
    texts = _texts(s)
    assert "use monopoly#2 pay-ransom" in texts
    assert not any(t.startswith("use monopoly#2 ") and t != "use monopoly#2 pay-ransom" for t in texts)
    t = s.factions["blue"].treasure
    ev = _do(s, "use monopoly#2 pay-ransom")
    assert s.factions["blue"].treasure == t - 4 and m.status == {}
    assert _ability(ev, "ransom-paid")
    assert "use monopoly#2 supply-interruption#1" in _texts(s)  # its own free action still open


def test_supply_interruption_failed_check_and_unaffordable_price():
    s = _supply_state()
    t = s.factions["blue"].treasure
    _do(s, "use supply-interruption#1 monopoly#2", 2, 9)
    assert s.assets["monopoly#2"].status == {} and s.factions["blue"].treasure == t
    assert s.current_actor() == "red"
    s = _supply_state(blue_treasure=3)
    _do(s, "use supply-interruption#1 monopoly#2", 9, 1)
    assert s.current_actor() == "red"  # cannot pay 4: disabled without a question
    assert s.assets["monopoly#2"].status["disabled_by"] == "supply-interruption#1"


# ======================================================================== purchases
def _to_create(s):
    _to_action(s)
    _do(s, "action create")


def _cost(s, type_id, location="a"):
    from factionsim.rules.wwn import economy
    from factionsim.rules.wwn.data import ASSETS

    f = s.factions["red"]
    return economy.purchase_cost(s, f, ASSETS[type_id], location)


def test_merchant_prince_discount_with_half_price_floor():
    s = _state([{"type": "merchant-prince", "location": "a"}, {"type": "merchant-prince", "location": "b"}],
               red_kw={"wealth": 8, "treasure": 20})
    # only where the owner has a Base (a)
    assert [t for t in _texts(s) if "merchant" in t] == ["use merchant-prince#1"]
    assert _cost(s, "manufactory") == 8
    ev = _do(s, "use merchant-prince#1", 3, 2)
    assert asset(s, "red", "merchant-prince").hp == 7
    assert _ability(ev, "discount")[0].data["roll"] == [2]
    assert _cost(s, "manufactory") == 6 and _cost(s, "farmers") == 1  # 2 -> at least 1
    t = s.factions["red"].treasure
    _to_create(s)
    ev = _do(s, "create manufactory at a")
    assert s.factions["red"].treasure == t - 6
    assert _ability(ev, "purchase-discount")[0].data["discount"] == 2
    assert "prince_discounts" not in s.ctx


def test_merchant_prince_floor_and_not_in_other_location():
    s = _state([{"type": "merchant-prince", "location": "a"}], red_kw={"wealth": 8, "treasure": 20})
    _do(s, "use merchant-prince#1", 1, 8)
    assert _cost(s, "manufactory") == 4  # 8 - 8, floored at half
    assert _cost(s, "manufactory", "b") == 8


def test_usurers_earmarked_discount_and_damage():
    s = _state([{"type": "usurers", "location": "a"}, {"type": "usurers", "location": "c"},
                {"type": "merchant-prince", "location": "a"}], red_kw={"wealth": 8, "treasure": 30})
    assert _cost(s, "trade-company") == 15  # nothing earmarked yet
    _do(s, "use usurers#1")
    _do(s, "use usurers#2")
    assert _cost(s, "trade-company") == 11  # 2 each
    _do(s, "use merchant-prince#3", 1, 5)
    # 15: prince 5, then one Usurers 2 reaches the floor 8 (15 - 7)
    assert _cost(s, "trade-company") == 8
    _to_create(s)
    ev = _do(s, "create trade-company at a", 3)  # only usurers#1 took part: 1d4 = 3
    assert s.assets["usurers#1"].hp == 5 and s.assets["usurers#2"].hp == 8
    assert _ability(ev, "purchase-discount")[0].data["usurers"] == ["usurers#1"]


def test_usurers_unused_earmark_lapses_without_damage():
    s = _state([{"type": "usurers", "location": "a"}], red_kw={"wealth": 4})
    _do(s, "use usurers#1")
    _end_red_turn(s)
    assert s.assets["usurers#1"].hp == 8 and "usurers" not in s.ctx
    assert _cost(s, "manufactory") == 8


def test_cooperative_businesses_surcharge_others_and_stack():
    s = _state([{"type": "farmers", "location": "a"}],
               [{"type": "cooperative-businesses", "location": "a"},
                {"type": "cooperative-businesses", "location": "a"},
                {"type": "cooperative-businesses", "location": "b"}], blue_hq="a")
    assert _cost(s, "manufactory") == 10 and _cost(s, "manufactory", "c") == 8
    from factionsim.rules.wwn import economy
    from factionsim.rules.wwn.data import ASSETS

    assert economy.purchase_cost(s, s.factions["blue"], ASSETS["manufactory"], "a") == 8


def test_arcane_laboratory_raises_magic_in_its_location():
    from factionsim.rules.wwn import economy

    s = _state([{"type": "arcane-laboratory", "location": "a"}],
               red_kw={"treasure": 20, "magic": "none"}, phase="action")
    buy_a = set(economy.buyable(s, s.factions["red"], "a"))
    assert "witch-hunters" in buy_a and "enchanted-elites" not in buy_a  # low yes, medium no
    s.assets["arcane-laboratory#2"] = type(s.assets["arcane-laboratory#1"])(
        "arcane-laboratory#2", "arcane-laboratory", "red", "a", 4, 4)
    assert "enchanted-elites" in set(economy.buyable(s, s.factions["red"], "a"))
    s.new_asset("base-of-influence", "red", "b", max_hp=1)
    assert "witch-hunters" not in set(economy.buyable(s, s.factions["red"], "b"))


# ======================================================================== attack limits
def test_occult_countermeasures_only_meets_magical_assets():
    s = _state([{"type": "occult-countermeasures", "location": "b"}],
               [{"type": "infantry", "location": "b"}, {"type": "witch-hunters", "location": "b"}],
               red_kw={"wealth": 4}, blue_hq="c")
    _do(s, "action attack")
    # only Witch Hunters (Low Magic) may meet it: no defend decision
    ev = _do(s, "attack occult-countermeasures#1 -> blue", 9, 1, 2, 2)
    attack = next(e for e in ev if e.kind == "attack")
    assert attack.data["defender"] == "witch-hunters#3"
    s2 = _state([{"type": "occult-countermeasures", "location": "b"}],
                [{"type": "infantry", "location": "b"}], red_kw={"wealth": 4}, blue_hq="c")
    assert "action attack" not in _texts(s2)


def test_occult_countermeasures_counter_spares_mundane_attackers():
    s = _state([{"type": "infantry", "location": "b"}],
               [{"type": "occult-countermeasures", "location": "b"}], blue_hq="c", blue_kw={"wealth": 4})
    ev = _attack(s, "infantry#1", "blue", 1, 9, 7)  # fails; counter 1d10 = 7 is blocked
    assert s.assets["infantry#1"].hp == 6
    assert any(e.kind == "immune" for e in ev)


def test_pleaders_cannot_attack_force_assets_nor_counter_them():
    s = _state([{"type": "pleaders", "location": "b"}],
               [{"type": "infantry", "location": "b"}, {"type": "farmers", "location": "b"}], blue_hq="c")
    _do(s, "action attack")
    ev = _do(s, "attack pleaders#1 -> blue", 9, 1, 1, 1)  # only the Farmers may meet it
    assert next(e for e in ev if e.kind == "attack").data["defender"] == "farmers#3"
    s = _state([{"type": "infantry", "location": "b"}, {"type": "farmers", "location": "b"}],
               [{"type": "pleaders", "location": "b"}], blue_hq="c")
    ev = _attack(s, "infantry#1", "blue", 1, 9, 6)  # fails; counter 1d6 = 6 blocked vs Force
    assert s.assets["infantry#1"].hp == 6 and any(e.kind == "immune" for e in ev)


def test_pleaders_counter_hits_non_force_attackers():
    s = _state([{"type": "front-merchant", "location": "b"}], [{"type": "pleaders", "location": "b"}],
               blue_hq="c")
    _attack(s, "front-merchant#1", "blue", 1, 9, 2)
    assert s.assets["front-merchant#1"].hp == 1


def test_every_asset_of_the_file_has_a_summary():
    mine = ["ancient-mechanisms", "ancient-workshop", "arcane-laboratory", "cooperative-businesses",
            "farmers", "front-merchant", "golden-prosperity", "healers", "lead-or-silver", "manufactory",
            "merchant-prince", "monopoly", "occult-countermeasures", "pleaders", "supply-interruption",
            "trade-company", "usurers"]
    for a in mine:
        assert a in abilities.implemented() and abilities.SUMMARIES[a]
