"""The ``house_rules:`` block of WWN campaigns: each option in both settings, checked input,
the JSON Schema and the chronicle's header.

Map a - b - c; red acts first (initiative 8 against 1); every die scripted.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import jsonschema
import numpy as np
import pytest
import yaml
from wwn_helpers import ScriptedRng, do, faction, make_state, play_to, texts

from factionsim.cli import main
from factionsim.core.game import CampaignError
from factionsim.rules.wwn import movement, turn
from factionsim.rules.wwn.actions import parse_action
from factionsim.rules.wwn.house_rules import HouseRules
from factionsim.rules.wwn.state import WwnState
from factionsim.rulesets import get_ruleset, load_campaign


def A(type_id, loc, **kw):
    return {"type": type_id, "location": loc, **kw}


# ------------------------------------------------------------------ xp_cost (item 14)
#: rating raised to -> (XP by the worked example, XP by the table at the new rating)
XP_COSTS = {2: (1, 2), 3: (2, 4), 4: (4, 6), 5: (6, 9), 6: (9, 12), 7: (12, 16), 8: (16, 20)}


@pytest.mark.parametrize("rule", ["example", "table"])
@pytest.mark.parametrize("new", XP_COSTS)
def test_xp_cost_of_one_step(rule, new):
    """6.7.0: "The cost for such increases is given on the table adjacent. Earlier levels must be
    purchased before later, so to raise Force from 5 to 7 will cost 9 XP to raise it to 6, then 12
    more to raise it to 7." The worked example charges the table value of the rating a step
    starts from (our default, ``xp_cost: example``); ``xp_cost: table`` charges the value at the
    new rating (2, 4, 6, 9, 12, 16, 20), as the Foundry VTT system does."""
    cost = XP_COSTS[new][rule == "table"]
    s = make_state([faction("red", force=new - 1, cunning=8, wealth=8, xp=cost),
                    faction("blue", headquarters="c")],
                   rng=ScriptedRng(8, 1), house_rules={"xp_cost": rule})
    red = s.factions["red"]
    red.xp -= 1
    assert not turn.can_raise(red, "force", s.house_rules)
    red.xp += 1
    play_to(s, "raise", "red")
    assert texts(s) == ["raise force", "done"]
    events = s.apply(parse_action("raise force"))
    assert red.force == new and red.xp == 0
    assert [e.data["xp_spent"] for e in events if e.kind == "raise"] == [cost]


# ------------------------------------------------------------------ transport_once_per_turn (item 9)
TRANSPORTS = {"transport-network": "transport-network#1 farmers#2->b",
              "underground-roads": "underground-roads#1 farmers#2->b"}


@pytest.mark.parametrize("once", [False, True])
@pytest.mark.parametrize("kind", TRANSPORTS)
def test_transport_network_and_underground_roads_per_turn(kind, once):
    """6.10.0 Transport Network: "As a free action the Transport Network can spend 1 Treasure to
    move any friendly Asset within two moves..."; 6.8.0 Underground Roads: "As a free action, the
    faction may pay 1 Treasure and move any friendly Asset..." Neither says "once per turn" (the
    other movers do): by default they may be used again, 1 Treasure each time;
    ``transport_once_per_turn: true`` limits them to once per turn."""
    s = make_state([faction("red", treasure=5, assets=[A(kind, "a"), A("farmers", "a")]),
                    faction("blue", headquarters="c")],
                   rng=ScriptedRng(8, 1), house_rules={"transport_once_per_turn": once})
    play_to(s, "abilities", "red")
    do(s, f"use {TRANSPORTS[kind]}")
    assert s.assets["farmers#2"].location == "b" and s.factions["red"].treasure == 8 - 1
    again = [t for t in texts(s) if t.startswith(f"use {kind}#1 farmers#2->")]
    assert bool(again) is not once
    if not once:
        do(s, again[0])
        assert s.factions["red"].treasure == 8 - 2


# ------------------------------------------------------------------ paralysis (item 10)
def _paralysed_with_seers(blocks):
    """Red abandoned its goal last turn; it has Omniscient Seers and Farmers at a, Blue a Stealthed
    Infantry at b (within one move of the Seers)."""
    return make_state([faction("red", paralysed=True, goal="blood-the-enemy",
                               assets=[A("omniscient-seers", "a"), A("farmers", "a")]),
                       faction("blue", headquarters="c", assets=[A("infantry", "b", stealth=True)])],
                      rng=ScriptedRng(8, 1), house_rules={"paralysis_blocks_abilities": blocks})


def test_a_paralysed_faction_triggers_no_asset_abilities_by_default():
    """6.2.0: a faction that abandons its goal "will sacrifice its next turn's Faction Action to do
    so and may not trigger any Asset special abilities that round, either." Our reading: in that
    next turn it uses no free abilities and its start-of-turn abilities (Omniscient Seers: "At the
    start of their turn, each hostile Stealthed asset ... must succeed in a Cunning vs. Cunning
    check ... or lose their Stealth") do not fire: no die is rolled, Blue stays hidden."""
    s = _paralysed_with_seers(True)
    events = s.advance()
    assert s.phase == "goal" and s.actor == "red"
    assert s.rng.remaining == []                      # (initiative only: no scrying)
    assert s.assets["infantry#3"].stealth
    assert [e.kind for e in events if e.faction == "red"][-2:] == ["ability-blocked", "paralysed"]


def test_paralysis_that_blocks_only_the_faction_action():
    """``paralysis_blocks_abilities: false``: "that round" read as the round the goal was
    abandoned in, so the next turn keeps its abilities (the Seers scry: Blue's 1d10+3 = 4 against
    Red's two dice 9, 2 + 3 = 12, Blue loses its Stealth) and loses only its Faction Action."""
    s = _paralysed_with_seers(False)
    s.rng = ScriptedRng(8, 1, 1, 9, 2)
    s.current_actor()
    assert s.rng.remaining == [] and not s.assets["infantry#3"].stealth
    assert s.phase == "abilities" and "use farmers#2" in texts(s)
    do(s, "done")
    assert s.phase == "goal"                          # no Faction Action


# ------------------------------------------------------------------ relations_default
@pytest.mark.parametrize("default, hostile", [("hostile", True), ("neutral", False)])
def test_relations_default(default, hostile):
    """The text's "rival" and "enemy" need a relation the campaign may not list (our notes: each
    pair is hostile, neutral or allied). ``relations_default`` sets it for unlisted pairs: hostile
    (the default: Red may attack Blue) or neutral (it may not). A listed pair keeps its own."""
    s = make_state([faction("red", assets=[A("infantry", "b")]),
                    faction("blue", headquarters="c", assets=[A("farmers", "b")]),
                    faction("green", headquarters="c", assets=[A("farmers", "b")])],
                   relations=[["red", "green", "hostile"]], rng=ScriptedRng(8, 1, 1),
                   house_rules={"relations_default": default})
    assert s.relation("red", "blue") == default and s.hostile("red", "green")
    assert movement.attack_targets(s, s.assets["infantry#1"]) == (
        ["blue", "green"] if hostile else ["green"])
    assert s.hostile_factions("red") == (["blue", "green"] if hostile else ["green"])
    s.rng = np.random.default_rng(0)
    saved = s.to_dict()["relations"]
    assert saved == ([] if hostile else [["red", "green", "hostile"]])
    assert WwnState.from_dict({**s.to_dict()}).relation("blue", "green") == default


# ------------------------------------------------------------------ max_turns
@pytest.mark.parametrize("where", ["house_rules", "top level", "unset"])
def test_max_turns(where):
    """The game ends when ``max_turns`` turns have been played; unset, it goes on. The block is
    where WWN campaigns save it; a top-level ``max_turns`` (older files, other rulesets) is the
    same setting."""
    extra = {"house_rules": {"max_turns": 1}} if where == "house_rules" else \
        {"max_turns": 1} if where == "top level" else {}
    s = make_state([faction("red"), faction("blue", headquarters="c")],
                   rng=ScriptedRng(8, 1, 8, 1), **extra)
    while s.turn < 1:
        s.apply(s.legal_actions()[0])
    assert s.is_over() is (where != "unset")
    s.rng = np.random.default_rng(0)
    saved = s.to_dict()
    assert "max_turns" not in saved
    assert saved.get("house_rules", {}).get("max_turns") == (None if where == "unset" else 1)


# ------------------------------------------------------------------ checked input
CAMPAIGN = """\
ruleset: wwn
name: Test
house_rules:
  {rule}
locations:
  - {{id: a}}
factions:
  - {{id: red, force: 3, cunning: 3, wealth: 3, headquarters: a}}
  - {{id: blue, force: 3, cunning: 3, wealth: 3, headquarters: a}}
"""


# ------------------------------------------------------------------ relations_change (our rule)
#: (relations listed, rule) -> relations after red's asset attacks blue's, and the events' causes
RELATION_CHANGES = [
    ([["red", "blue", "neutral"]], "attacks",
     {("red", "blue"): "hostile", ("red", "green"): "neutral"}, ["attacked"]),
    ([["red", "blue", "allied"]], "attacks",
     {("red", "blue"): "hostile", ("red", "green"): "neutral"}, ["attacked"]),
    ([["red", "blue", "neutral"], ["blue", "green", "allied"]], "attacks",
     {("red", "blue"): "hostile", ("red", "green"): "hostile"}, ["attacked", "ally-attacked"]),
    ([["red", "blue", "neutral"], ["blue", "green", "allied"], ["red", "green", "allied"]],
     "attacks", {("red", "blue"): "hostile", ("red", "green"): "allied"}, ["attacked"]),
    ([["red", "blue", "neutral"], ["blue", "green", "allied"]], "none",
     {("red", "blue"): "neutral", ("red", "green"): "neutral"}, []),
]


@pytest.mark.parametrize("listed, rule, after, causes", RELATION_CHANGES)
def test_relations_change(listed, rule, after, causes):
    """Our house rule ``relations_change`` (chapter 6 never changes a relation): ``attacks``: "the
    attacked faction, if it was allied or neutral to the attacker, becomes hostile to it; each
    ally of the attacked faction that was neutral to the attacker becomes hostile to it too (an
    ally of both keeps both alliances)"; ``none``: relations stay as the campaign sets them."""
    from factionsim.rules.wwn import relations

    s = make_state([faction("red"), faction("blue", headquarters="c"),
                    faction("green", headquarters="c")],
                   relations=listed, rng=ScriptedRng(8, 1, 1),
                   house_rules={"relations_default": "neutral", "relations_change": rule})
    events = []
    relations.on_attack(s, "red", "blue", events)
    assert {pair: s.relation(*pair) for pair in after} == after
    assert [e.data["cause"] for e in events if e.kind == "relation"] == causes


@pytest.mark.parametrize("rule, message", [
    ("xp_cost: tabel", "line 4, house_rules.xp_cost: unknown value 'tabel' (did you mean "
                       "'table'?); allowed: example, table."),
    ("transport_once_per_turn: 1", "line 4, house_rules.transport_once_per_turn: unknown value 1; "
                                   "allowed: true/false."),
    ("paralysis_blocks_abilities: sometimes", "house_rules.paralysis_blocks_abilities: unknown "
                                              "value 'sometimes'; allowed: true/false."),
    ("relations_default: allied", "house_rules.relations_default: unknown value 'allied'; "
                                  "allowed: hostile, neutral."),
    ("max_turns: 0", "house_rules.max_turns: must be a whole number >= 1 or null (got 0)."),
    ("xp_costs: table", "house_rules.xp_costs: unknown house rule 'xp_costs' (did you mean "
                        "'xp_cost'?); allowed: xp_cost, transport_once_per_turn, "
                        "paralysis_blocks_abilities, relations_default, relations_change, "
                        "max_turns."),
])
def test_a_bad_house_rule_is_named_with_file_line_and_allowed_values(tmp_path, rule, message):
    path = tmp_path / "c.yaml"
    path.write_text(CAMPAIGN.format(rule=rule))
    with pytest.raises(CampaignError) as err:
        load_campaign(path)
    assert str(err.value) == f"{path}, " + (message if message.startswith("line") else
                                            "line 4, " + message)


def test_the_block_must_be_a_mapping_and_max_turns_given_once(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(CAMPAIGN.format(rule="[xp_cost]").replace("house_rules:\n  ", "house_rules: "))
    with pytest.raises(CampaignError, match=r"line 3, house_rules: must be a mapping of house "
                                            r"rules, not list"):
        load_campaign(path)
    path.write_text("max_turns: 5\n" + CAMPAIGN.format(rule="max_turns: 6"))
    with pytest.raises(CampaignError, match=r"house_rules.max_turns: 6 disagrees with the "
                                            r"top-level max_turns 5; give max_turns once \(here\)"):
        load_campaign(path)


def test_house_rules_round_trip_through_a_file(tmp_path):
    """Options that differ from the defaults are written back, the others left out."""
    path = tmp_path / "c.yaml"
    path.write_text(CAMPAIGN.format(rule="{xp_cost: table, relations_default: hostile, "
                                         "max_turns: 9}").replace("house_rules:\n  ",
                                                                  "house_rules: "))
    s = load_campaign(path)
    assert s.house_rules == HouseRules(xp_cost="table", max_turns=9) and s.max_turns == 9
    assert s.to_dict()["house_rules"] == {"xp_cost": "table", "max_turns": 9}


def test_the_schema_knows_the_block():
    schema = wwn_schema()
    validator = jsonschema.Draft202012Validator(schema)
    base = {"ruleset": "wwn", "locations": [{"id": "a"}],
            "factions": [{"id": "x", "force": 2, "cunning": 1, "wealth": 1, "headquarters": "a"}]}
    validator.validate({**base, "house_rules": {"xp_cost": "table", "max_turns": 3,
                                                "transport_once_per_turn": True,
                                                "paralysis_blocks_abilities": False,
                                                "relations_default": "neutral"}})
    for bad in ({"xp_cost": "tabel"}, {"max_turns": 0}, {"grumpy": True},
                {"relations_default": "allied"}):
        with pytest.raises(jsonschema.ValidationError):
            validator.validate({**base, "house_rules": bad})
    props = schema["properties"]["house_rules"]["properties"]
    assert {k: v["default"] for k, v in props.items()} == {
        "xp_cost": "example", "transport_once_per_turn": False,
        "paralysis_blocks_abilities": True, "relations_default": "hostile",
        "relations_change": "attacks", "max_turns": None}


# ------------------------------------------------------------------ the chronicle's header
def test_house_rules_head_the_chronicles(tmp_path):
    """``factionsim run``'s chronicle and ``factionsim turn``'s GM and players' chronicles open
    with the campaign's house rules, those differing from our reading starred, then who plays
    each faction (a faction with no ``agent:`` line: the heuristic)."""
    campaign = tmp_path / "c.yaml"
    data = yaml.safe_load(CAMPAIGN.format(rule="{xp_cost: table}").replace("house_rules:\n  ",
                                                                            "house_rules: "))
    data["factions"][1]["headquarters"] = "a"
    data["factions"][1]["agent"] = "random"  # red names no agent: the heuristic plays it
    campaign.write_text(yaml.safe_dump(data))
    played = "Played by: red (heuristic), blue (random)."
    line = ("House rules: xp_cost table*, transport_once_per_turn false, "
            "paralysis_blocks_abilities true, relations_default hostile, "
            "relations_change attacks, max_turns none "
            "(* differs from factionsim's reading).")
    assert main(["run", str(campaign), "--turns", "1", "--out", str(tmp_path / "out"),
                 "--quiet"]) == 0
    lines = (tmp_path / "out" / "chronicle.md").read_text().split("\n")
    assert lines[2:7] == [line, "", played, "", "## Turn 1"]  # the header is its own paragraph
    assert main(["turn", str(campaign), "--quiet"]) == 0
    for name in ("c.chronicle.md", "c.players.md"):
        text = (tmp_path / name).read_text()
        assert text.split("\n")[2:5] == [line, "", played] and text.count("House rules:") == 1
    assert main(["turn", str(campaign), "--quiet"]) == 0     # a second turn: still one header
    assert Path(tmp_path / "c.chronicle.md").read_text().count("House rules:") == 1


def test_a_header_with_nothing_starred_has_no_legend():
    """The legend explains a star; with every option at our reading there is none to explain."""
    line = HouseRules().summary()
    assert "*" not in line and "differs" not in line
    assert line == ("House rules: xp_cost example, transport_once_per_turn false, "
                    "paralysis_blocks_abilities true, relations_default hostile, "
                    "relations_change attacks, max_turns none.")


def test_the_documented_example_block_loads(tmp_path):
    """The block shown in docs/rules-wwn.md is a valid campaign block."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "rules-wwn.md").read_text()
    block = doc.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert block.startswith("house_rules:")
    path = tmp_path / "c.yaml"
    path.write_text(CAMPAIGN.format(rule="{}").replace("house_rules:\n  {}\n",
                                                       textwrap.dedent(block)))
    rules = load_campaign(path).house_rules
    assert rules.to_data() == yaml.safe_load(block)["house_rules"]


def wwn_schema() -> dict:
    """The WWN campaign JSON Schema, with the agents WWN offers."""
    wwn = get_ruleset("wwn")
    return wwn.schema([spec.usage for spec in wwn.agents])
