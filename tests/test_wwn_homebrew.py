"""Homebrew WWN asset types (``asset_types:``, docs/campaign-format.md), rule by rule.

Each effect of the vocabulary is played through the engine with scripted dice; the quoted texts
are the effect descriptions of ``factionsim/rules/wwn/homebrew.py`` (what ``factionsim assets``
prints for them), which are the rules a GM writes into a campaign.

Initiative is scripted 8 for red and 1 for blue, so red acts first. Default map: a - b - c in a
line. Both factions have F3 C3 W3, so red earns 3 Treasure at the start of its turn.
"""

from __future__ import annotations

import copy
from pathlib import Path

import jsonschema
import numpy as np
import pytest
import yaml
from wwn_helpers import (
    ScriptedRng,
    attack_event,
    check_one_extra_expand_die,
    check_two_extra_defence_dice,
    do,
    faction,
    make_state,
    play_to,
    refused_at_line,
    saved_and_loaded,
    texts,
)

import factionsim
from factionsim.cli import main
from factionsim.core.campaign import dump_campaign_data
from factionsim.core.game import CampaignError
from factionsim.rules.wwn import abilities, homebrew
from factionsim.rules.wwn.docs import render
from factionsim.rules.wwn.validate import validate
from factionsim.rulesets import get_ruleset, load_campaign

CAMPAIGN = Path(__file__).parent / "data" / "wwn_homebrew.yaml"
INCOME = 3


def kind(kid: str, attribute: str = "wealth", **kw) -> dict:
    """A homebrew type: rating 1, cost 2, 4 HP, no attack, no counter unless given."""
    return {"id": kid, "name": kid.replace("-", " ").title(), "attribute": attribute,
            "rating": 1, "cost": 2, "hp": 4, **kw}


def _state(types, red, blue=(), red_kw=None):
    factions = [faction("red", assets=list(red), **(red_kw or {})),
                faction("blue", assets=list(blue), headquarters="c")]
    return make_state(factions, rng=ScriptedRng(8, 1), asset_types=types)


def _at(t, loc, **kw):
    return {"type": t, "location": loc, **kw}


def _ability(events, effect):
    return [e for e in events if e.kind == "ability" and e.data["effect"] == effect]


# ------------------------------------------------------------------ income
@pytest.mark.parametrize("treasure, disabled, expected", [(1, False, INCOME + 1),
                                                          (4, False, INCOME + 4),
                                                          (4, True, INCOME)])
def test_income_adds_treasure_at_the_start_of_the_turn(treasure, disabled, expected):
    """"+{treasure} Treasure at the start of its owner's turn." (a disabled asset lends nothing)"""
    status = {"disabled_by": "x"} if disabled else {}
    s = _state([kind("tax-farm", ability={"effect": "income", "treasure": treasure})],
               [_at("tax-farm", "a", status=status)])
    play_to(s, "action", "red")
    assert s.factions["red"].treasure == expected


# ------------------------------------------------------------------ attack and defence dice
def test_attack_dice_add_dice_to_its_own_attacks_only():
    """"Rolls {dice} extra {die} on its attack checks." Berserkers (Force vs Force, 1d8+1) attack
    the blue Infantry: red rolls two dice (1, 9) and keeps the 9; 9+3 beats 5+3; damage 4+1."""
    s = _state([kind("berserkers", "force", attack={"check": "force vs force", "damage": "1d8+1"},
                     ability={"effect": "attack-dice", "dice": 1})],
               [_at("berserkers", "b"), _at("infantry", "b")], [_at("infantry", "b")])
    zerk, own_inf, blue_inf = s.assets["berserkers#1"], s.assets["infantry#2"], s.assets["infantry#3"]
    assert abilities.extra_attack_dice(s, zerk) == 1
    assert abilities.extra_attack_dice(s, own_inf) == 0          # not another asset's
    assert abilities.extra_defense_dice(s, zerk, blue_inf.kind.attack) == 0  # not on defence
    att = attack_event(s, "attack berserkers#1 -> blue", 1, 9, 5, 4)
    assert att.data["attacker_check"]["roll"] == [1, 9] and att.data["success"] is True
    assert blue_inf.hp == 6 - (4 + 1)


def test_defense_dice_add_dice_when_it_defends():
    """"Rolls {dice} extra {die} on its defence checks when it defends." Red's Infantry attacks
    the Shield Wall: blue rolls three dice (5, 6, 2) and keeps the 6; 9+3 beats 6+3; 1d8 = 4."""
    s = _state([kind("shield-wall", "force", hp=6, counter="1d6",
                     ability={"effect": "defense-dice", "dice": 2})],
               [_at("infantry", "b")], [_at("shield-wall", "b")])
    inf, wall = s.assets["infantry#1"], s.assets["shield-wall#2"]
    assert abilities.extra_defense_dice(s, wall, inf.kind.attack) == 2
    assert abilities.extra_attack_dice(s, wall) == 0
    check_two_extra_defence_dice(s, wall)


# ------------------------------------------------------------------ expand dice
def test_expand_dice_add_dice_to_expand_checks_in_its_location():
    """"Its faction rolls {dice} extra {die} on Expand Influence checks in its location." Red
    expands to b, where blue has an asset: red rolls two dice (2, 9) against blue's one (5)."""
    s = _state([kind("whisper-network", "cunning", ability={"effect": "expand-dice", "dice": 1})],
               [_at("whisper-network", "b")], [_at("infantry", "b")])
    assert abilities.expand_extra_dice(s, "red", "b") == 1
    assert abilities.expand_extra_dice(s, "red", "c") == 0   # elsewhere
    assert abilities.expand_extra_dice(s, "blue", "b") == 0  # another faction's expansion
    check_one_extra_expand_die(s)


# ------------------------------------------------------------------ transport
def test_transport_moves_another_own_asset_up_to_its_range_once_per_turn():
    """"Free action once per turn: moves another of its faction's assets (not a Base) from its
    location to a location up to {range} {move} away where it is not forbidden." """
    s = _state([kind("river-barges", ability={"effect": "transport", "range": 2})],
               [_at("river-barges", "a"), _at("infantry", "a"), _at("infantry", "b")])
    play_to(s, "abilities", "red")
    options = [t for t in texts(s) if t.startswith("use ")]
    # the Infantry at a, to b (one move) and c (two moves); not itself, not the Base, not b's
    assert options == ["use river-barges#1 infantry#2->b", "use river-barges#1 infantry#2->c"]
    ev = do(s, "use river-barges#1 infantry#2->c")
    assert s.assets["infantry#2"].location == "c"
    assert _ability(ev, "homebrew-transport")[0].data == {
        "source": "river-barges#1", "effect": "homebrew-transport", "asset": "infantry#2", "to": "c"}
    assert not any(t.startswith("use river-barges") for t in texts(s))  # once per turn


def test_transport_of_range_one_reaches_one_move():
    s = _state([kind("ferry", ability={"effect": "transport", "range": 1})],
               [_at("ferry", "a"), _at("infantry", "a")])
    play_to(s, "abilities", "red")
    assert [t for t in texts(s) if t.startswith("use ")] == ["use ferry#1 infantry#2->b"]


# ------------------------------------------------------------------ repair
@pytest.mark.parametrize("hp, heal, expected", [(1, 2, 3), (3, 2, 4), (4, 2, 4), (1, 10, 4)])
def test_repair_regains_hp_at_the_end_of_its_owners_turn(hp, heal, expected):
    """"Regains {hp} HP at the end of its owner's turn (never above its max HP)." (max HP 4)"""
    s = _state([kind("field-surgeons", ability={"effect": "repair", "hp": heal})],
               [_at("field-surgeons", "a", hp=hp)])
    play_to(s, "action", "blue")  # red's turn is over
    assert s.assets["field-surgeons#1"].hp == expected


# ------------------------------------------------------------------ upkeep and qualities
@pytest.mark.parametrize("treasure, upkeep, kept, left", [(0, 3, True, 0), (0, 4, False, 3),
                                                          (5, 4, True, 4)])
def test_upkeep_is_paid_after_income_or_the_asset_is_lost(treasure, upkeep, kept, left):
    """"Upkeep {upkeep} Treasure at the start of its owner's turn; when the faction cannot pay,
    the asset is lost." (paid after the turn's income of 3)"""
    s = _state([kind("mercenary-band", "force", upkeep=upkeep)],
               [_at("mercenary-band", "a")], red_kw={"treasure": treasure})
    play_to(s, "action", "red")
    assert ("mercenary-band#1" in s.assets) is kept
    assert s.factions["red"].treasure == left


@pytest.mark.parametrize("qualities, subtle, stealthed", [([], False, False),
                                                          (["subtle"], True, False),
                                                          (["stealth"], False, True),
                                                          (["subtle", "stealth"], True, True)])
def test_qualities_subtle_and_stealth(qualities, subtle, stealthed):
    """Subtle: as the book's quality; Stealth: "it enters play Stealthed" when bought."""
    s = _state([kind("veiled-agents", "cunning", qualities=qualities)], [], red_kw={"treasure": 5})
    play_to(s, "action", "red")
    do(s, "action create")
    ev = do(s, "create veiled-agents at a")
    new = s.assets[next(e for e in ev if e.kind == "create").data["asset"]]
    assert (new.subtle, new.stealth, new.kind.homebrew) == (subtle, stealthed, True)
    assert s.factions["red"].treasure == 5 + INCOME - 2


def test_homebrew_types_are_bought_like_standard_ones():
    """Create Asset: a rating-3 type needs the attribute at 3 and its cost in Treasure."""
    s = _state([kind("war-barge", "wealth", rating=3, cost=7)], [], red_kw={"treasure": 4})
    play_to(s, "action", "red")
    do(s, "action create")
    assert "create war-barge at a" in texts(s)  # 4 + 3 income = 7
    s = _state([kind("war-barge", "wealth", rating=4, cost=7)], [], red_kw={"treasure": 4})
    play_to(s, "action", "red")
    do(s, "action create")
    assert "create war-barge at a" not in texts(s)  # Wealth 3 < rating 4


# ------------------------------------------------------------------ the asset table of a game
def test_the_state_carries_its_own_table_and_another_game_is_unaffected():
    s = factionsim.load_campaign(CAMPAIGN)
    assert {"toll-bridge", "infantry", "base-of-influence"} <= set(s.asset_types)
    assert s.assets_of("bargemen")[0].kind is s.asset_types[s.assets_of("bargemen")[0].type]
    plain = factionsim.load_campaign(Path(factionsim.__file__).parent.parent / "configs" /
                                     "shattered_march.yaml")
    assert "toll-bridge" not in plain.asset_types and "toll-bridge" not in plain.hooks["income"]
    assert s.hooks["income"]["toll-bridge"] is not None
    assert s.display_names()["asset_types"]["toll-bridge"] == "Toll Bridge"


def test_save_and_load_are_byte_identical_and_play_on_the_same(tmp_path):
    s = factionsim.load_campaign(CAMPAIGN)
    s.rng = np.random.default_rng(5)
    rng = np.random.default_rng(6)
    from factionsim.agents import make_agent

    agent = make_agent("random", "wwn")
    for _ in range(150):  # into play: mid-turn, with homebrew abilities used
        s.apply(agent.act(s.view(s.current_actor()), s.legal_actions(), rng))
    text, again = saved_and_loaded(s, tmp_path)
    assert yaml.safe_load(text)[homebrew.BLOCK] == yaml.safe_load(CAMPAIGN.read_text())[
        homebrew.BLOCK]
    r1, r2 = np.random.default_rng(9), np.random.default_rng(9)
    for _ in range(100):
        a1 = agent.act(s.view(s.current_actor()), s.legal_actions(), r1)
        a2 = agent.act(again.view(again.current_actor()), again.legal_actions(), r2)
        assert str(a1) == str(a2)
        s.apply(a1)
        again.apply(a2)
    assert dump_campaign_data(s.to_dict()) == dump_campaign_data(again.to_dict())


# ------------------------------------------------------------------ checking
def _campaign(types, asset_type="toll-bridge"):
    return {"ruleset": "wwn", "asset_types": types, "locations": [{"id": "keep"}],
            "factions": [{"id": "crown", "force": 3, "cunning": 3, "wealth": 3,
                          "headquarters": "keep",
                          "assets": [{"type": asset_type, "location": "keep"}]}]}


GOOD = kind("toll-bridge", ability={"effect": "income", "treasure": 1})


def _with(**changes):
    row = copy.deepcopy(GOOD)
    for key, value in changes.items():
        if value is None:
            row.pop(key)
        else:
            row[key] = value
    return row


@pytest.mark.parametrize("types, asset_type, expected", [
    ([_with(id="infantry")], "infantry",
     "asset_types[0].id: this id is a standard asset type's"),
    ([GOOD, GOOD], "toll-bridge", "asset_types[1].id: this id is already defined at asset_types[0]"),
    ([_with(attribute="welth")], "toll-bridge",
     "asset_types[0].attribute: unknown attribute 'welth' (did you mean 'wealth'?); allowed: "
     "one of force, cunning, wealth"),
    ([_with(rating=9)], "toll-bridge", "asset_types[0].rating: must be a whole number from 1 to 8"),
    ([_with(cost=None)], "toll-bridge", "missing required asset type field 'cost'"),
    ([_with(counter="1d")], "toll-bridge", "asset_types[0].counter: not a dice expression"),
    ([_with(attack={"check": "force vs forse", "damage": "1d6"})], "toll-bridge",
     "asset_types[0].attack.check: unknown attack check 'force vs forse' (did you mean "
     "'force vs force'"),
    ([_with(qualities=["stealthy"])], "toll-bridge",
     "asset_types[0].qualities[0]: unknown quality 'stealthy' (did you mean 'stealth'?); "
     "allowed: one of subtle, stealth"),
    ([_with(ability={"effect": "incom", "treasure": 1})], "toll-bridge",
     "asset_types[0].ability.effect: unknown effect 'incom' (did you mean 'income'?); allowed: "
     "one of income, attack-dice, defense-dice, expand-dice, transport, repair"),
    ([_with(ability={"effect": "income", "treasure": 11})], "toll-bridge",
     "asset_types[0].ability.treasure: must be a whole number from 1 to 10"),
    ([_with(ability={"effect": "income", "dice": 1})], "toll-bridge",
     "asset_types[0].ability.dice: unknown field 'dice'"),
    ([_with(ability={"effect": "transport"})], "toll-bridge",
     "missing required transport ability field 'range'"),
    ([_with(colour="red")], "toll-bridge", "asset_types[0].colour: unknown field 'colour'"),
    ([GOOD], "toll-brige",
     "factions[0].assets[0].type: unknown asset type 'toll-brige' (did you mean 'toll-bridge'?); "
     "allowed: one of the 81 asset ids (see docs/assets.md), base-of-influence, or an id of the "
     "campaign's asset_types"),
])
def test_bad_blocks_are_refused_with_field_and_allowed_values(types, asset_type, expected):
    with pytest.raises(CampaignError) as err:
        validate(_campaign(types, asset_type), "camp.yaml", {})
    assert str(err.value).startswith("camp.yaml") and expected in str(err.value)


def test_an_error_names_the_line(tmp_path):
    refused_at_line(tmp_path, CAMPAIGN, "    ability: {effect: transport, range: 2}",
                    "    ability: {effect: transport, range: 5}", r"asset_types\[1\].ability.range")


def test_a_good_block_and_its_assets_validate():
    out = validate(_campaign([GOOD]), "camp.yaml", {})
    assert out["factions"][0]["assets"][0]["type"] == "toll-bridge"
    assert out[homebrew.BLOCK] == [GOOD]


def test_the_json_schema_takes_the_test_campaign_and_refuses_a_clash():
    wwn = get_ruleset("wwn")
    schema = wwn.schema([spec.usage for spec in wwn.agents])
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    data = yaml.safe_load(CAMPAIGN.read_text())
    v.validate(data)
    for bad in ({**data["asset_types"][0], "id": "infantry"},
                {**data["asset_types"][0], "ability": {"effect": "income", "treasure": 0}},
                {**data["asset_types"][0], "attribute": "magic"}):
        assert not v.is_valid({**data, "asset_types": [bad]})


# ------------------------------------------------------------------ factionsim assets
def test_assets_command_prints_the_standard_table(capsys):
    assert main(["assets"]) == 0
    out = capsys.readouterr().out
    assert out == render() == (Path(__file__).parent.parent / "docs" / "assets.md").read_text()


def test_assets_command_lists_a_campaigns_homebrew_types_in_words(capsys):
    assert main(["assets", str(CAMPAIGN)]) == 0
    out = capsys.readouterr().out
    assert "| Infantry | `infantry` |" in out
    assert ("| River Barges | `river-barges` | 2 | 5 | 5 | none | — | 1d4 | Subtle, homebrew | "
            "Free action once per turn: moves another of its faction's assets (not a Base) from "
            "its location to a location up to 2 moves away where it is not forbidden. Upkeep 1 "
            "Treasure at the start of its owner's turn; when the faction cannot pay, the asset is "
            "lost. |") in out
    assert ("| Shield Wall | `shield-wall` | 2 | 6 | 5 | none | Force vs Force, 1d6 | 1d6 | "
            "homebrew | Rolls 1 extra die on its defence checks when it defends. |") in out


def test_every_effect_has_handlers_on_its_declared_hook_points():
    from factionsim.rules.wwn.ability.homebrew import HANDLERS

    assert set(HANDLERS) == set(homebrew.EFFECTS)
    for name, effect in homebrew.EFFECTS.items():
        assert set(HANDLERS[name]) == set(effect.hooks), name


def test_gm_commands_play_report_and_keep_the_block(tmp_path, capsys):
    """``factionsim turn`` and ``report`` on a homebrew campaign: the saved file keeps the block as
    written and still loads; the report names the homebrew assets."""
    path = tmp_path / "river.yaml"
    path.write_text(CAMPAIGN.read_text())
    assert main(["turn", str(path), "--turns", "2", "--quiet"]) == 0
    saved = yaml.safe_load(path.read_text())
    assert saved["turn"] == 2
    assert saved[homebrew.BLOCK] == yaml.safe_load(CAMPAIGN.read_text())[homebrew.BLOCK]
    load_campaign(path)
    report = tmp_path / "r.html"
    assert main(["report", str(path), "-o", str(report), "--quiet"]) == 0
    assert "Toll Bridge" in report.read_text()


def test_the_planner_plays_homebrew_assets():
    from factionsim.agents import make_agent

    s = factionsim.load_campaign(CAMPAIGN)
    s.rng, s.max_turns = np.random.default_rng(3), 2
    agents = {fid: make_agent("planner", "wwn") for fid in s.factions}
    rng = np.random.default_rng(4)
    while (actor := s.current_actor()) is not None:
        s.apply(agents[actor].act(s.view(actor), s.legal_actions(), rng))
    assert s.turn == 2 and any(a.kind.homebrew for a in s.assets.values())


@pytest.mark.parametrize("block", [None, []])
def test_an_empty_or_null_block_is_the_standard_table(block):
    out = validate(_campaign(block, "infantry"), "camp.yaml", {})
    s = factionsim.rules.wwn.state.WwnState.from_dict(out)
    assert set(s.asset_types) == set(factionsim.rules.wwn.data.ASSET_TYPES)
    assert homebrew.BLOCK not in s.to_dict()
