"""Homebrew WWN faction tags (``tag_types:``) and goals (``goal_types:``), rule by rule.

The quoted texts are the descriptions ``factionsim assets CAMPAIGN`` prints for them
(``factionsim/rules/wwn/homebrew_tags.py`` and ``homebrew_goals.py``), which are the rules a GM
writes into a campaign. Initiative is scripted 8 for the first faction and 1 for the other, so it
acts first. Default map: a - b - c in a line; F3 C3 W3 factions earn 3 Treasure a turn.
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
)

import factionsim
from factionsim.cli import main
from factionsim.core.game import CampaignError
from factionsim.rules.wwn import abilities, combat, goals, homebrew_goals, homebrew_tags
from factionsim.rules.wwn.actions import ChooseGoal, KeepGoal
from factionsim.rules.wwn.validate import validate
from factionsim.rulesets import get_ruleset

CAMPAIGN = Path(__file__).parent / "data" / "wwn_homebrew.yaml"
INCOME = 3


def tag(tid: str, effect: str | None = None, **params) -> dict:
    return {"id": tid, "name": tid.title(),
            **({"ability": {"effect": effect, **params}} if effect else {})}


def goal_type(gid: str, difficulty: int, kind: str, **params) -> dict:
    return {"id": gid, "name": gid.title(), "difficulty": difficulty,
            "counter": {"kind": kind, **params}}


def _duel(red_kw=None, blue_kw=None, tags=(), goal_types=(), dice=(8, 1)):
    factions = [faction("red", **(red_kw or {})),
                faction("blue", headquarters="c", **(blue_kw or {}))]
    return make_state(factions, rng=ScriptedRng(*dice), tag_types=list(tags),
                      goal_types=list(goal_types))


def _at(t, loc, **kw):
    return {"type": t, "location": loc, **kw}


# ================================================================== tags
@pytest.mark.parametrize("tags, expected", [
    ([tag("river-lords", "income", treasure=1)], INCOME + 1),
    ([tag("river-lords", "income", treasure=4)], INCOME + 4),
    ([tag("river-lords", "income", treasure=1), tag("tithes", "income", treasure=2)], INCOME + 3),
    ([tag("storied")], INCOME),                    # a tag for flavour: no effect
])
def test_an_income_tag_adds_treasure_at_the_start_of_the_factions_turn(tags, expected):
    """"+{treasure} Treasure at the start of the faction's turn." (several such tags add up)"""
    s = _duel({"tags": [t["id"] for t in tags]}, tags=tags)
    play_to(s, "action", "red")
    assert s.factions["red"].treasure == expected
    blue_treasure = s.factions["blue"].treasure
    play_to(s, "action", "blue")   # the other faction's turn: no tag, no extra Treasure
    assert s.factions["blue"].treasure == blue_treasure + INCOME


def test_an_income_tag_is_logged_with_its_id():
    tags = [tag("river-lords", "income", treasure=2)]
    s = _duel({"tags": ["river-lords"]}, tags=tags)
    events = []
    homebrew_tags.run_income(s, "red", events)
    assert [(e.kind, e.data["source"], e.data["effect"], e.data["amount"]) for e in events] == [
        ("ability", "river-lords", "homebrew-tag-income", 2)]


def test_an_attack_dice_tag_adds_dice_to_every_attack_of_its_assets():
    """"Its assets roll {dice} extra {die} on their attack checks." Red's Infantry (Force vs
    Force, 1d8) attacks blue's: red rolls two dice (1, 9) and keeps the 9; 9+3 beats 5+3;
    damage 4 (Infantry: 6 HP)."""
    tags = [tag("bloodthirsty", "attack-dice", dice=1)]
    s = _duel({"tags": ["bloodthirsty"], "assets": [_at("infantry", "b")]},
              {"assets": [_at("infantry", "b")]}, tags)
    red_inf, blue_inf = s.assets["infantry#1"], s.assets["infantry#2"]
    assert abilities.extra_attack_dice(s, red_inf) == 1
    assert abilities.extra_attack_dice(s, blue_inf) == 0      # not the other faction's
    assert abilities.extra_defense_dice(s, red_inf, blue_inf.kind.attack) == 0  # not defence
    att = attack_event(s, "attack infantry#1 -> blue", 1, 9, 5, 4)
    assert att.data["attacker_check"]["roll"] == [1, 9] and att.data["success"] is True
    assert blue_inf.hp == 6 - 4


def test_a_defense_dice_tag_adds_dice_when_its_assets_defend():
    """"Its assets roll {dice} extra {die} on their defence checks." Blue (dice: 2) meets red's
    Infantry with three dice (5, 6, 2) and keeps the 6; red's 9+3 beats 6+3; damage 4."""
    tags = [tag("drilled", "defense-dice", dice=2)]
    s = _duel({"assets": [_at("infantry", "b")]},
              {"tags": ["drilled"], "assets": [_at("infantry", "b")]}, tags)
    red_inf, blue_inf = s.assets["infantry#1"], s.assets["infantry#2"]
    assert abilities.extra_defense_dice(s, blue_inf, red_inf.kind.attack) == 2
    assert abilities.extra_attack_dice(s, blue_inf) == 0
    check_two_extra_defence_dice(s, blue_inf)


def test_an_expand_dice_tag_adds_dice_to_expand_checks_anywhere():
    """"It rolls {dice} extra {die} on its Expand Influence checks." Red expands to b, where blue
    has an asset: red rolls two dice (2, 9) against blue's one (5)."""
    tags = [tag("surveyors", "expand-dice", dice=1)]
    s = _duel({"tags": ["surveyors"], "treasure": 5, "assets": [_at("infantry", "b")]},
              {"assets": [_at("infantry", "b")]}, tags)
    assert abilities.expand_extra_dice(s, "red", "b") == 1
    assert abilities.expand_extra_dice(s, "red", "c") == 1   # anywhere, unlike an asset's
    assert abilities.expand_extra_dice(s, "blue", "b") == 0
    check_one_extra_expand_die(s)


# ================================================================== goals
def test_a_homebrew_goal_is_offered_and_set_up_from_its_counter():
    """A campaign's own goal is offered at every goal step, with no target; adopting it sets
    ``needed`` to the counter's number and ``difficulty`` to the goal's."""
    kinds = [goal_type("barge-fleet", 1, "own-assets", type="infantry", count=2),
             goal_type("reavers", 3, "inflict-damage", amount=7)]
    s = _duel(goal_types=kinds)
    offered = goals.options(s, s.factions["red"])
    assert ChooseGoal("barge-fleet") in offered and ChooseGoal("reavers") in offered
    g = goals.adopt(s, s.factions["red"], ChooseGoal("reavers"))
    assert (g.id, g.target, g.needed, g.progress, g.difficulty) == ("reavers", "", 7, 0, 3)
    assert goals.goal_name(s, "reavers") == "Reavers"


@pytest.mark.parametrize("damage, complete", [(4, False), (5, True)])
def test_inflict_damage_counts_damage_dealt_to_hostile_assets(damage, complete):
    """"Deal {amount} damage to hostile factions' assets and Bases." (amount 5, difficulty 3):
    red's Infantry hits for 1d8 = ``damage``; the goal step pays 3 XP when 5 are dealt."""
    kinds = [goal_type("reavers", 3, "inflict-damage", amount=5)]
    s = _duel({"goal": "reavers", "assets": [_at("infantry", "b")]},
              {"assets": [_at("cavalry", "b")]}, goal_types=kinds)
    play_to(s, "action", "red")
    do(s, "action attack")
    do(s, "attack infantry#1 -> blue", 9, 1, damage)
    play_to(s, "goal", "red")   # the goal step: completed goals are paid on the way
    red = s.factions["red"]
    assert red.xp == (3 if complete else 0) and (red.goal is None) is complete
    if not complete:
        assert red.goal.progress == damage


@pytest.mark.parametrize("attribute, destroyed, progress", [
    (None, ["infantry", "informers"], 2),          # any asset
    ("force", ["infantry", "informers"], 1),       # Force assets only
    (None, ["base-of-influence"], 0),              # not Bases
])
def test_destroy_assets_counts_hostile_assets_destroyed(attribute, destroyed, progress):
    """"Destroy {count} {attribute} assets (not Bases) of hostile factions." """
    params = {"count": 2, **({"attribute": attribute} if attribute else {})}
    kinds = [goal_type("purge", 2, "destroy-assets", **params)]
    blue_assets = [_at(t, "b", **({"hp": 2} if t == "base-of-influence" else {}))
                   for t in destroyed]
    s = _duel({"goal": "purge"}, {"assets": blue_assets}, goal_types=kinds)
    events: list = []
    for a in [a for a in s.assets_of("blue") if a.location == "b"]:
        combat.destroy_asset(s, a, "red", events, "attack")
    assert s.factions["red"].goal.progress == progress
    assert goals.evaluate(s, s.factions["red"], False) == ("complete" if progress == 2 else None)


def test_destroy_assets_counts_nothing_done_by_others_or_to_friends():
    kinds = [goal_type("purge", 2, "destroy-assets", count=1)]
    s = make_state([faction("red", goal="purge"),
                    faction("blue", headquarters="c", assets=[_at("infantry", "b")]),
                    faction("green", headquarters="c", assets=[_at("infantry", "b")])],
                   relations=[["red", "green", "allied"]], goal_types=kinds)
    events: list = []
    combat.destroy_asset(s, s.assets["infantry#2"], "red", events, "attack")   # an ally's
    combat.destroy_asset(s, s.assets["infantry#1"], None, events, "record")    # no one's
    assert s.factions["red"].goal.progress == 0


@pytest.mark.parametrize("owned, complete", [(1, False), (2, True), (3, True)])
def test_own_assets_counts_what_it_owns_at_the_goal_step(owned, complete):
    """"Own {count} assets of type {type} at the end of its turn." (count 2, difficulty 1)"""
    kinds = [goal_type("barge-fleet", 1, "own-assets", type="infantry", count=2)]
    s = _duel({"goal": "barge-fleet", "assets": [_at("infantry", "a")] * owned},
              goal_types=kinds)
    play_to(s, "goal", "red")
    red = s.factions["red"]
    assert red.xp == (1 if complete else 0) and (red.goal is None) is complete
    if not complete:
        assert red.goal.progress == owned


def test_hold_base_counts_turns_in_a_row_and_starts_again_when_the_base_is_lost():
    """"Hold a Base of Influence at {location} at the end of {turns} of its turns in a row."
    (b, 2 turns, difficulty 2): held at turn 1, lost before turn 2 (the count starts again),
    held at turns 3 and 4: complete at the goal step of turn 4."""
    kinds = [goal_type("hold-b", 2, "hold-base", location="b", turns=2)]
    s = _duel({"goal": "hold-b", "assets": [_at("base-of-influence", "b", hp=2)]},
              goal_types=kinds, dice=(8, 1))
    red = s.factions["red"]
    base = s.base_of("red", "b")
    progress = []
    for turn, held in ((1, True), (2, False), (3, True), (4, True)):
        if not held:
            combat.destroy_asset(s, base, None, [], "record")
        elif s.base_of("red", "b") is None:
            base = s.new_asset("base-of-influence", "red", "b", hp=2)
        if turn > 1:
            s.rng = ScriptedRng(8, 1)  # the turn's initiative
        play_to(s, "goal", "red")
        assert s.current_turn == turn
        progress.append(red.goal.progress if red.goal else "done")
        if red.goal is not None:
            s.apply(KeepGoal())
    assert progress == [1, 0, 1, "done"] and red.xp == 2


def test_plant_bases_counts_bases_planted_by_expand_influence():
    """"Plant {count} new Bases of Influence by Expand Influence." (count 1): red expands to b
    (no rival there: no check) and completes the goal at its goal step."""
    kinds = [goal_type("new-wharves", 3, "plant-bases", count=1)]
    s = _duel({"goal": "new-wharves", "treasure": 5, "assets": [_at("infantry", "b")]},
              goal_types=kinds)
    play_to(s, "action", "red")
    do(s, "action expand")
    do(s, "base hp 1")
    assert s.base_of("red", "b") is not None
    play_to(s, "goal", "red")
    assert s.factions["red"].xp == 3 and s.factions["red"].goal is None


# ================================================================== checking
def _campaign(tags=(), goal_kinds=(), faction_tags=(), goal=None):
    fd = {"id": "crown", "force": 3, "cunning": 3, "wealth": 3, "headquarters": "keep",
          "tags": list(faction_tags), **({"goal": goal} if goal else {})}
    out = {"ruleset": "wwn", "locations": [{"id": "keep"}], "factions": [fd]}
    if tags:
        out["tag_types"] = list(tags)
    if goal_kinds:
        out["goal_types"] = list(goal_kinds)
    return out


GOOD_TAG = tag("river-lords", "income", treasure=1)
GOOD_GOAL = goal_type("hold-keep", 2, "hold-base", location="keep", turns=3)


@pytest.mark.parametrize("data, expected", [
    (_campaign([tag("river-lords", "transport", range=1)]),
     "tag_types[0].ability.effect: unknown effect 'transport'; allowed: one of income, "
     "attack-dice, defense-dice, expand-dice"),
    (_campaign([tag("river-lords", "incom", treasure=1)]),
     "tag_types[0].ability.effect: unknown effect 'incom' (did you mean 'income'?)"),
    (_campaign([tag("river-lords", "income", treasure=11)]),
     "tag_types[0].ability.treasure: must be a whole number from 1 to 10"),
    (_campaign([tag("martial", "income", treasure=1)]),
     "tag_types[0].id: this id is a tag of the book"),
    (_campaign([GOOD_TAG, GOOD_TAG]),
     "tag_types[1].id: this id is already defined at tag_types[0]"),
    (_campaign([{**GOOD_TAG, "colour": "red"}]), "tag_types[0].colour: unknown field 'colour'"),
    (_campaign([GOOD_TAG], faction_tags=["river-lord"]),
     "factions[0].tags[0]: unknown tag 'river-lord' (did you mean 'river-lords'?)"),
    (_campaign(faction_tags=["river-lords"]), "factions[0].tags[0]: unknown tag 'river-lords'"),
    (_campaign(goal_kinds=[goal_type("g", 2, "own-asset", type="infantry", count=2)]),
     "goal_types[0].counter.kind: unknown counter 'own-asset' (did you mean 'own-assets' or "
     "'destroy-assets'?); allowed: one of inflict-damage, destroy-assets, own-assets, hold-base, "
     "plant-bases"),
    (_campaign(goal_kinds=[goal_type("g", 2, "own-assets", type="infantri", count=2)]),
     "goal_types[0].counter.type: unknown asset type 'infantri' (did you mean 'infantry'?)"),
    (_campaign(goal_kinds=[goal_type("g", 2, "hold-base", location="kep", turns=2)]),
     "goal_types[0].counter.location: unknown location 'kep' (did you mean 'keep'?)"),
    (_campaign(goal_kinds=[goal_type("g", 2, "hold-base", location="keep")]),
     "goal_types[0].counter: missing required hold-base counter field 'turns'"),
    (_campaign(goal_kinds=[goal_type("g", 2, "destroy-assets", count=2, attribute="magic")]),
     "goal_types[0].counter.attribute: unknown attribute 'magic'"),
    (_campaign(goal_kinds=[goal_type("g", 0, "plant-bases", count=1)]),
     "goal_types[0].difficulty: must be a whole number from 1 to 10"),
    (_campaign(goal_kinds=[goal_type("blood-the-enemy", 2, "plant-bases", count=1)]),
     "goal_types[0].id: this id is a goal of the book"),
    (_campaign(goal_kinds=[GOOD_GOAL], goal="hold-kep"),
     "factions[0].goal: unknown goal 'hold-kep' (did you mean 'hold-keep'?)"),
    (_campaign(goal_kinds=[GOOD_GOAL], goal={"id": "hold-kep"}),
     "factions[0].goal.id: unknown goal 'hold-kep' (did you mean 'hold-keep'?)"),
])
def test_bad_blocks_are_refused_with_field_and_allowed_values(data, expected):
    with pytest.raises(CampaignError) as err:
        validate(data, "camp.yaml", {})
    assert str(err.value).startswith("camp.yaml") and expected in str(err.value)


def test_good_blocks_validate_and_are_kept_as_written():
    data = _campaign([GOOD_TAG], [GOOD_GOAL], ["river-lords"], "hold-keep")
    out = validate(copy.deepcopy(data), "camp.yaml", {})
    assert out["tag_types"] == [GOOD_TAG] and out["goal_types"] == [GOOD_GOAL]
    assert out["factions"][0]["tags"] == ["river-lords"]


def test_an_error_names_the_line(tmp_path):
    refused_at_line(tmp_path, CAMPAIGN, "    counter: {kind: hold-base, location: market, turns: 2}",
                    "    counter: {kind: hold-base, location: markt, turns: 2}",
                    r"goal_types\[2\].counter.location")


def test_the_json_schema_takes_the_test_campaign_and_refuses_mistakes():
    wwn = get_ruleset("wwn")
    v = jsonschema.Draft202012Validator(wwn.schema([spec.usage for spec in wwn.agents]))
    data = yaml.safe_load(CAMPAIGN.read_text())
    v.validate(data)
    first_tag, first_goal = data["tag_types"][0], data["goal_types"][0]
    for bad in ({**data, "tag_types": [{**first_tag, "ability": {"effect": "transport",
                                                                  "range": 1}}]},
                {**data, "tag_types": [{**first_tag, "id": "martial"}]},
                {**data, "goal_types": [{**first_goal, "counter": {"kind": "own-asset"}}]},
                {**data, "goal_types": [{**first_goal, "difficulty": 0}]}):
        assert not v.is_valid(bad)
    plain = {k: v_ for k, v_ in data.items() if k not in ("tag_types", "goal_types")}
    assert not v.is_valid(plain)  # its factions name tags and goals no block defines


def test_save_and_load_are_byte_identical_with_tags_and_goals(tmp_path):
    s = factionsim.load_campaign(CAMPAIGN)
    s.rng = np.random.default_rng(3)
    from factionsim.agents import make_agent

    agent, rng = make_agent("heuristic", "wwn"), np.random.default_rng(4)
    for _ in range(120):
        s.apply(agent.act(s.view(s.current_actor()), s.legal_actions(), rng))
    text, again = saved_and_loaded(s, tmp_path)
    written = yaml.safe_load(CAMPAIGN.read_text())
    for block in (homebrew_tags.BLOCK, homebrew_goals.BLOCK):
        assert yaml.safe_load(text)[block] == written[block]
    assert again.tag_types == s.tag_types and again.goal_types == s.goal_types


def test_gm_turns_keep_the_blocks_and_their_comments(tmp_path):
    path = tmp_path / "river.yaml"
    path.write_text(CAMPAIGN.read_text().replace("  - id: storied\n",
                                                 "  - id: storied  # just a story\n"))
    assert main(["turn", str(path), "--turns", "2", "--quiet"]) == 0
    text = path.read_text()
    assert "  - id: storied  # just a story\n" in text
    assert yaml.safe_load(text)["goal_types"] == yaml.safe_load(CAMPAIGN.read_text())["goal_types"]


def test_assets_command_lists_the_campaigns_tags_and_goals(capsys):
    assert main(["assets", str(CAMPAIGN)]) == 0
    out = capsys.readouterr().out
    assert "| River Lords | `river-lords` | +1 Treasure at the start of the faction's turn. |" in out
    assert "| Storied | `storied` | no special ability |" in out
    assert ("| Hold the Market | `hold-the-market` | 2 | Hold a Base of Influence at market at "
            "the end of 2 of its turns in a row. |") in out
    assert ("| Break the Walls | `break-the-walls` | 2 | Destroy 2 Force assets (not Bases) of "
            "hostile factions. |") in out


def test_every_tag_effect_is_an_asset_effect_with_the_same_parameters():
    from factionsim.rules.wwn.homebrew import EFFECTS

    for name, effect in homebrew_tags.TAG_EFFECTS.items():
        assert EFFECTS[name].params == effect.params and EFFECTS[name].hooks == effect.hooks


def test_the_chronicle_and_the_gm_view_name_a_homebrew_goal():
    """Events, the goal table and the heuristic's reasons show the campaign's name for its own
    goal (A Fleet of Barges), not its id."""
    from factionsim.core.game import Event
    from factionsim.core.names import Names
    from factionsim.rules.wwn.present import goal_text
    from factionsim.rules.wwn.prose import PROSE

    s = factionsim.load_campaign(CAMPAIGN)
    names = Names.from_state(s)
    assert names.goals["barge-fleet"] == "A Fleet of Barges"
    event = Event(1, "goal-complete", "bargemen", {"goal": "barge-fleet", "target": "", "xp": 1})
    assert "A Fleet of Barges" in PROSE["goal-complete"](event, names)
    # (counted at the goal step: nothing yet)
    assert goal_text(s, s.factions["bargemen"]).startswith("A Fleet of Barges 0/2")
