"""Foundry VTT import: how the sheet maps onto a campaign, name matching, and clean errors.

Quotations are from the reference, ``shared/reference/foundry_wwn_faction.md``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from foundry_helpers import EXAMPLES, example, import_into, run, write_actor

from factionsim.configs import default_campaign_path
from factionsim.foundry import jsonio
from factionsim.foundry.importer import ImportOptions, import_actors
from factionsim.foundry.names import ASSET_NAMES, GOAL_NAMES, TAG_NAMES, name_key, slugify
from factionsim.rulesets import load_campaign


def factions(campaign: Path) -> dict[str, dict[str, Any]]:
    data = yaml.safe_load(campaign.read_text(encoding="utf-8"))
    return {f["id"]: f for f in data["factions"]}


# ------------------------------------------------------------------------------ mapping
def test_the_sheet_maps_onto_the_campaign(tmp_path: Path) -> None:
    """Example 1: "F3 C4 W6, max HP 4+6+12 = 22, current 19", Treasure 14 (``facCreds``), XP 3,
    Magic "low", goal Wealth of Kingdoms, tags Rich and a custom one, a Base at the headquarters
    ("By convention (and in example 1) the headquarters Base is the one whose location equals
    system.homeworld") and four assets, the Free Company damaged (4/6) at Ostry Ford."""
    campaign = tmp_path / "c.yaml"
    import_into(campaign, EXAMPLES[0])
    f = factions(campaign)["the-gilded-concord"]
    assert {k: f[k] for k in ("name", "force", "cunning", "wealth", "magic", "treasure", "hp", "xp",
                              "tags", "goal", "agent", "headquarters")} == {
        "name": "The Gilded Concord", "force": 3, "cunning": 4, "wealth": 6, "magic": "low",
        "treasure": 14, "hp": 19, "xp": 3, "tags": ["rich"], "goal": "wealth-of-kingdoms",
        "agent": "heuristic", "headquarters": "varenna"}
    assert [(a["type"], a["location"], a["hp"]) for a in f["assets"]] == [
        ("base-of-influence", "varenna", 22), ("trade-company", "varenna", 10),
        ("free-company", "ostry-ford", 4), ("court-patronage", "varenna", 8),
        ("local-guard", "varenna", 4)]
    state = load_campaign(campaign)
    assert state.factions["the-gilded-concord"].max_hp == 22
    assert {loc.id: loc.name for loc in state.map.locations.values()} == {
        "varenna": "Varenna", "ostry-ford": "Ostry Ford"}
    assert all(not loc.neighbors for loc in state.map.locations.values())  # the GM connects them


def test_stealth_and_places_of_example_2(tmp_path: Path) -> None:
    """Example 2: "Informers, Thugs (both Stealthed because of Concealed)" at "Lantern Alley,
    Varenna"; the headquarters "Varenna" is a place of its own; no Base on the sheet, so the
    campaign gets the headquarters Base the rules require, at full HP (9)."""
    campaign = tmp_path / "c.yaml"
    import_into(campaign, EXAMPLES[1])
    f = factions(campaign)["the-ashen-lantern"]
    assert f["tags"] == ["concealed"] and f["goal"] == "expand-influence" and f["magic"] == "none"
    assert [(a["type"], a["location"], a.get("stealth", False), a["hp"]) for a in f["assets"]] == [
        ("informers", "lantern-alley-varenna", True, 3), ("thugs", "lantern-alley-varenna", True, 1),
        ("base-of-influence", "varenna", False, 9)]


def test_the_stored_max_hp_is_never_trusted(tmp_path: Path) -> None:
    """"Never trust the faction's health.max. Recompute it.": a v14 sheet shows the stale 7;
    the HP typed above the real max is cut to it ("Never clamped to max" on the sheet)."""
    actor = example(1)
    actor["system"]["health"] = {"value": 30, "max": 7}
    campaign = tmp_path / "c.yaml"
    import_into(campaign, write_actor(tmp_path, actor))
    assert factions(campaign)["the-gilded-concord"]["hp"] == 22


@pytest.mark.parametrize(("magic", "level"), [("None", "none"), ("LOW", "low"), ("medium", "medium"),
                                              (" High ", "high"), ("", "none")])
def test_magic_is_read_in_any_case(tmp_path: Path, magic: str, level: str) -> None:
    """"Read magic/magicRating case-insensitively": the default is "None", the sheet writes
    lowercase."""
    actor = example(2)
    actor["system"]["magicRating"] = magic
    campaign = tmp_path / "c.yaml"
    import_into(campaign, write_actor(tmp_path, actor))
    assert factions(campaign)["the-ashen-lantern"]["magic"] == level


@pytest.mark.parametrize(("field", "value", "expected"), [
    ("facCreds", -3, 0),  # "int (may go negative)": the rules have no debt
    ("xp", -1, 0),
    ("facCreds", "12", 12),  # "A numeric string is cast"
    ("xp", 2.0, 2),
])
def test_numbers_the_sheet_allows(tmp_path: Path, field: str, value: Any, expected: int) -> None:
    actor = example(2)
    actor["system"][field] = value
    campaign = tmp_path / "c.yaml"
    import_into(campaign, write_actor(tmp_path, actor))
    key = {"facCreds": "treasure", "xp": "xp"}[field]
    assert factions(campaign)["the-ashen-lantern"][key] == expected


@pytest.mark.parametrize(("goal", "played"), [
    ("Wealth of Kingdoms", "wealth-of-kingdoms"), ("blood the enemy", "blood-the-enemy"),
    ("", None), ("Crush the Guilds", None),  # a custom goal: the agent picks one
    ("Sphere Dominance", None), ("Eliminate Target", None), ("Root Out the Enemy", None),
])
def test_goals(tmp_path: Path, goal: str, played: str | None) -> None:
    """"Nothing else is stored: no difficulty, no progress": a goal that needs a target (which
    asset, which Base, which attribute) cannot be set from the sheet and is left to the agent."""
    actor = example(1)
    actor["system"]["factionGoal"] = goal
    campaign = tmp_path / "c.yaml"
    import_into(campaign, write_actor(tmp_path, actor))
    assert factions(campaign)["the-gilded-concord"]["goal"] == played


def test_tags_factionsim_does_not_play_are_kept_aside(tmp_path: Path) -> None:
    """"FACTION_TAGS has 15 names. The 10 in our seed excerpt (Antimagical ... Rich) match. The
    catalogue adds Rooted, Scavenger, Supported, Tenacious, Zealot"; custom tags have an effect."""
    actor = example(2)
    actor["system"]["tags"] += [{"name": "Zealot", "desc": "..."}, {"name": "mobile", "desc": "x"}]
    campaign = tmp_path / "c.yaml"
    result = import_actors([write_actor(tmp_path, actor)], campaign)
    assert factions(campaign)["the-ashen-lantern"]["tags"] == ["concealed", "mobile"]
    assert any("'Zealot' is kept on the sheet but has no effect" in w for w in result.warnings)


def test_headquarters_from_the_only_base_or_the_gm(tmp_path: Path) -> None:
    """"There is no headquarters flag": an empty homeworld with one Base means that Base; with
    several it must be said (``--hq``); an ``--hq`` place without a Base gets a new one."""
    actor = example(1)
    actor["system"]["homeworld"] = ""
    import_into(tmp_path / "one.yaml", write_actor(tmp_path, actor))
    assert factions(tmp_path / "one.yaml")["the-gilded-concord"]["headquarters"] == "varenna"
    actor["items"][2]["system"]["baseOfInfluence"] = True  # the Free Company counts as a Base
    path = write_actor(tmp_path, actor)
    assert run("foundry", "import", path, "--into", tmp_path / "two.yaml", "--quiet") == 2
    import_into(tmp_path / "two.yaml", path, extra=("--hq", "The Gilded Concord=Ostry Ford"))
    f = factions(tmp_path / "two.yaml")["the-gilded-concord"]
    assert f["headquarters"] == "ostry-ford"
    import_into(tmp_path / "three.yaml", path, extra=("--hq", "the gilded concord=Tolmar"))
    f = factions(tmp_path / "three.yaml")["the-gilded-concord"]
    assert f["headquarters"] == "tolmar"
    assert [a for a in f["assets"] if a["location"] == "tolmar"] == [
        {"id": 6, "type": "base-of-influence", "location": "tolmar", "hp": 22, "max_hp": 22}]


def test_items_without_location_stand_at_the_headquarters(tmp_path: Path) -> None:
    """"location ... free-text", default "": an asset with none is at the headquarters."""
    actor = example(1)
    actor["items"][4]["system"]["location"] = ""
    campaign = tmp_path / "c.yaml"
    import_into(campaign, write_actor(tmp_path, actor))
    assert factions(campaign)["the-gilded-concord"]["assets"][4]["location"] == "varenna"


def test_hit_points_of_items(tmp_path: Path) -> None:
    """Asset HP: "Stored and meaningful"; above the asset's max it is cut; at 0 the asset is
    destroyed and not imported; a Base away from home keeps its own max (at most the faction's)."""
    actor = example(1)
    actor["items"][1]["system"]["health"]["value"] = 99  # Trade Company, max 10
    actor["items"][4]["system"]["health"]["value"] = 0  # Local Guard, destroyed
    actor["items"].append({**json.loads(json.dumps(actor["items"][0])), "_id": "B4seB4seB4seB4se"})
    actor["items"][-1]["system"].update(location="Ostry Ford", health={"value": 5, "max": 30})
    campaign = tmp_path / "c.yaml"
    result = import_actors([write_actor(tmp_path, actor)], campaign)
    assets = factions(campaign)["the-gilded-concord"]["assets"]
    assert [(a["type"], a["hp"], a.get("max_hp")) for a in assets] == [
        ("base-of-influence", 22, 22), ("trade-company", 10, None), ("free-company", 4, None),
        ("court-patronage", 8, None), ("base-of-influence", 5, 22)]
    assert any("0 HP: destroyed" in w for w in result.warnings)


def test_a_collapsed_faction(tmp_path: Path) -> None:
    """"A faction at 0 HP collapses: it and all its assets leave play" (docs/rules-wwn.md)."""
    actor = example(2)
    actor["system"]["health"]["value"] = 0
    campaign = tmp_path / "c.yaml"
    import_into(campaign, write_actor(tmp_path, actor))
    f = factions(campaign)["the-ashen-lantern"]
    assert (f["alive"], f["assets"]) == (False, [])


def test_into_an_existing_campaign(tmp_path: Path) -> None:
    """New factions are added beside the campaign's own; a place already on the map is found by
    its name (case and spacing ignored), not created again; relations stay as they are."""
    campaign = tmp_path / "march.yaml"
    shutil.copy(default_campaign_path(), campaign)
    before = yaml.safe_load(campaign.read_text(encoding="utf-8"))
    actor = example(1)
    actor["system"]["homeworld"] = " tarsis "
    actor["items"][0]["system"]["location"] = "TARSIS"
    result = import_actors([write_actor(tmp_path, actor)], campaign)
    after = yaml.safe_load(campaign.read_text(encoding="utf-8"))
    assert result.added == ["the-gilded-concord"] and result.new_locations == ["varenna",
                                                                              "ostry-ford"]
    assert after["factions"][:-1] == before["factions"]
    assert after["relations"] == before["relations"]
    assert after["factions"][-1]["headquarters"] == "tarsis"
    state = load_campaign(campaign)
    assert len(state.assets_of("the-gilded-concord")) == 5
    assert len(state.assets) == len(load_campaign(default_campaign_path()).assets) + 5


def test_a_second_import_updates_and_keeps_what_the_sheet_does_not_hold(tmp_path: Path) -> None:
    """The same actor again (matched by ``_stats.exportSource.uuid``) updates its faction: the
    sheet's numbers win; the agent, goal progress and the state of known assets stay."""
    campaign = tmp_path / "c.yaml"
    import_into(campaign, EXAMPLES[0])
    data = yaml.safe_load(campaign.read_text(encoding="utf-8"))
    f = data["factions"][0]
    f["agent"] = "planner"
    f["goal"] = {"id": "wealth-of-kingdoms", "progress": 7, "needed": 24, "difficulty": 2}
    f["assets"][1]["status"] = {"used_turn": 1}  # a status the engine keeps
    campaign.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    actor = example(1)
    actor["name"] = "The Gilded Concord of Varenna"  # renamed in Foundry: the uuid still matches
    actor["system"]["facCreds"] = 2
    del actor["items"][3]  # Court Patronage sold in Foundry
    result = import_actors([write_actor(tmp_path, actor)], campaign)
    assert result.updated == ["the-gilded-concord"] and not result.added
    g = factions(campaign)["the-gilded-concord"]
    assert (g["name"], g["treasure"], g["agent"]) == ("The Gilded Concord of Varenna", 2, "planner")
    assert g["goal"]["progress"] == 7
    assert [a["type"] for a in g["assets"]] == ["base-of-influence", "trade-company",
                                                "free-company", "local-guard"]
    assert g["assets"][1]["status"] == {"used_turn": 1} and g["assets"][1]["id"] == 2


# ------------------------------------------------------------------------------ names
@pytest.mark.parametrize(("name", "asset"), [
    ("Free Company", "free-company"), ("free  company", "free-company"),
    ("FREE-COMPANY", "free-company"), ("Court Patronage", "court-patronage"),
    ("Lead or Silver", "lead-or-silver"), ("Just As Planned", "just-as-planned"),
])
def test_asset_names_match_whatever_their_case_and_spacing(name: str, asset: str) -> None:
    assert ASSET_NAMES.find(name) == asset


def test_names_of_goals_and_tags() -> None:
    """"Goals: the 10 names in FACTION_GOALS match our seed 6.7.0 exactly"."""
    for goal in ("Blood the Enemy", "Destroy the Foe", "Eliminate Target", "Expand Influence",
                 "Inside Enemy Territory", "Invincible Valor", "Peaceable Kingdom",
                 "Root Out the Enemy", "Sphere Dominance", "Wealth of Kingdoms"):
        assert GOAL_NAMES.find(goal) == slugify(goal)
    for tag in ("Antimagical", "Concealed", "Imperialist", "Innovative", "Machiavellian",
                "Martial", "Massive", "Mobile", "Populist", "Rich"):
        assert TAG_NAMES.find(tag) == tag.lower()
    for extra in ("Rooted", "Scavenger", "Supported", "Tenacious", "Zealot"):
        assert TAG_NAMES.find(extra) is None
    assert name_key("Base of Inf. Wealth") == name_key("base of inf  wealth")


def test_a_renamed_asset_is_known_by_its_compendium_source(tmp_path: Path) -> None:
    """"a compendiumSource of Compendium.wwn.assets.Item.<id> identifies the book asset even
    after a user renames the item" (Local Guard is 436lamc27uj1xm0f in the pack)."""
    actor = example(1)
    actor["items"][4]["name"] = "The Varen River Watch"
    campaign = tmp_path / "c.yaml"
    import_into(campaign, write_actor(tmp_path, actor))
    assert factions(campaign)["the-gilded-concord"]["assets"][4]["type"] == "local-guard"


def test_an_unknown_asset_name_says_what_it_might_be(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    actor = example(1)
    actor["items"][4]["name"] = "Local Gaurd"
    actor["items"][4]["_stats"]["compendiumSource"] = None
    path = write_actor(tmp_path, actor)
    assert run("foundry", "import", path, "--into", tmp_path / "c.yaml") == 2
    err = capsys.readouterr().err
    assert f"{path}, items[4].name: unknown asset 'Local Gaurd' (did you mean 'Local Guard'?)" in err
    assert "--asset 'Local Gaurd'=ASSET" in err and "Traceback" not in err
    assert not (tmp_path / "c.yaml").exists()
    import_into(tmp_path / "c.yaml", path, extra=("--asset", "Local Gaurd=local-guard"))
    assert factions(tmp_path / "c.yaml")["the-gilded-concord"]["assets"][4]["type"] == "local-guard"


# ------------------------------------------------------------------------------ errors
def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(actor: dict[str, Any]) -> dict[str, Any]:
        node = actor
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return actor
    return change


def _swnr(actor: dict[str, Any]) -> dict[str, Any]:
    actor["system"]["health"] = {"value": 9, "temp": 0}
    return actor


def _two_bases(actor: dict[str, Any]) -> dict[str, Any]:
    actor["items"].append({**json.loads(json.dumps(actor["items"][0])), "_id": "B4seB4seB4seB4se"})
    return actor


BAD_ACTORS = [
    ("not a faction", _set(("type",), "character"), "type: not a faction actor (a character or NPC "
     "sheet; export the Faction actor instead) (got 'character'); allowed: \"faction\""),
    ("a rating of 9", _set(("system", "forceRating"), 9), "system.forceRating: the Force rating "
     "must be from 1 to 8"),
    ("a rating of 0", _set(("system", "wealthRating"), 0), "system.wealthRating: the Wealth rating"),
    ("a word for a number", _set(("system", "facCreds"), "lots"), "system.facCreds: must be a whole "
     "number, not text (got 'lots')"),
    ("a fraction", _set(("system", "xp"), 1.5), "system.xp: must be a whole number"),
    ("a true for a number", _set(("system", "xp"), True), "system.xp: must be a whole number, not "
     "true/false"),
    ("negative HP", _set(("system", "health", "value"), -2), "system.health.value: negative "
     "faction HP (got -2); allowed: 0 to 22"),
    ("unknown magic", _set(("system", "magicRating"), "vast"), "system.magicRating: unknown Magic "
     "level (got 'vast'); allowed: none, low, medium, high (any case)"),
    ("a tag that is text", _set(("system", "tags"), ["Rich"]), "system.tags[0]: must be an object"),
    ("a nameless tag", _set(("system", "tags"), [{"desc": "x"}]), "system.tags[0].name: a tag "
     "needs a non-empty name"),
    ("a log entry that is a number", _set(("system", "log"), ["<p>a</p>", 3]),
     "system.log[1]: a log entry must be an HTML string"),
    ("items not a list", _set(("items",), {}), "items: must be a list of items"),
    ("a word for an item's cost", _set(("items", 1, "system", "cost"), "dear"),
     "items[1].system.cost: must be a whole number, not text (got 'dear')"),
    ("a number for a true/false", _set(("items", 2, "system", "unusable"), 0),
     "items[2].system.unusable: must be true or false"),
    ("a word for the initiative", _set(("system", "initiative", "value"), "first"),
     "system.initiative.value: must be a whole number"),
    ("a bad item id", _set(("items", 1, "_id"), "short"), "items[1]._id: invalid item id (got "
     "'short'); allowed: exactly 16 letters and digits"),
    ("a repeated item id", _set(("items", 1, "_id"), "J39ic2wmZElBo8cS"), "items[1]._id: the same "
     "id as items[0]"),
    ("a blank name", _set(("name",), " "), "name: the actor needs a non-blank name"),
    ("a Stars Without Number faction", _swnr, "system: this looks like a Stars Without Number"),
    ("two Bases in one place", _two_bases, "items[5].system.location: a second Base of Influence "
     "at 'Varenna' (the first is items[0]); allowed: one Base per faction per place"),
    ("homeworld without its Base", _set(("system", "homeworld"), "Ostry Ford"),
     "system.homeworld: the headquarters 'Ostry Ford' is none of the places of its Bases of "
     "Influence ('Varenna'); which is the headquarters?"),
    ("a Rich faction without top Wealth", _set(("system", "wealthRating"), 2),
     "system.tags[0].name: a Rich faction's Wealth must be its highest rating, but cunning 4 > "
     "wealth 2 (got 'Rich'); allowed: raise Wealth to at least 4"),
    ("a Base-like name without the flag", _set(("items", 0, "system", "baseOfInfluence"), False),
     "tick its Base of Influence box"),
]


@pytest.mark.parametrize(("what", "change", "message"), BAD_ACTORS, ids=[b[0] for b in BAD_ACTORS])
def test_bad_actors_are_refused_with_file_path_and_allowed_values(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str, change: Any,
        message: str) -> None:
    path = write_actor(tmp_path, change(example(1)), "bad.json")
    campaign = tmp_path / "c.yaml"
    assert run("foundry", "import", path, "--into", campaign) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}, ") and message in err, err
    assert "Traceback" not in err and not campaign.exists()


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


BAD_FILES = [
    ("broken JSON", '{"name": "x",', "line 1, column 14: broken JSON: Expecting property name"),
    ("a key twice", '{"name": "a", "name": "b"}', "the key 'name' is given twice in one object"),
    ("NaN", '{"name": NaN}', "NaN is not a JSON number"),
    ("a huge number", '{"x": 1e999}', "number 1e999 is out of range"),
    ("too deep", _nested(70), f"nested deeper than {jsonio.MAX_DEPTH} levels"),
    ("far too deep", _nested(100000), f"nested deeper than {jsonio.MAX_DEPTH} levels"),
    ("a list", "[]", "must be an object (a Foundry actor, as written by Export Data), not a list"),
    ("no type", '{"name": "x"}', "type: not a faction actor; allowed"),
]


@pytest.mark.parametrize(("what", "text", "message"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_files_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str,
                               text: str, message: str) -> None:
    path = write_actor(tmp_path, text, "bad.json")
    assert run("foundry", "import", path, "--into", tmp_path / "c.yaml") == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}") and message in err, err
    assert "Traceback" not in err


def test_files_that_are_not_json_at_all(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    binary = tmp_path / "img.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    big = write_actor(tmp_path, example(1), "big.json")
    monkeypatch.setattr(jsonio, "MAX_BYTES", 1000)
    for path, message in ((binary, "not UTF-8 text (byte 0)"),
                          (big, "is more than the 1000 bytes a faction actor file may have"),
                          (tmp_path / "missing.json", "file not found"),
                          (tmp_path, "is a directory")):
        assert run("foundry", "import", path, "--into", tmp_path / "c.yaml") == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, err


def test_an_import_that_fails_leaves_the_campaign_as_it_was(tmp_path: Path) -> None:
    """All actors are read and checked before anything is written."""
    campaign = tmp_path / "march.yaml"
    shutil.copy(default_campaign_path(), campaign)
    before = campaign.read_bytes()
    bad = write_actor(tmp_path, _set(("system", "forceRating"), 12)(example(2)), "bad.json")
    assert run("foundry", "import", EXAMPLES[0], bad, "--into", campaign, "--quiet") == 2
    assert campaign.read_bytes() == before


@pytest.mark.parametrize(("args", "message"), [
    (("--hq", "Nobody=Varenna"), "--hq 'Nobody': no actor of that name is being imported"),
    (("--hq", "just-a-place"), "--hq 'just-a-place': write it as NAME=VALUE"),
    (("--asset", "Thing=Infantri"), "--asset 'Thing'='Infantri': unknown asset (did you mean "
     "'Infantry'?)"),
    (("--agent", "genius"), "factions[0].agent: unknown agent 'genius'"),
])
def test_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                     message: str) -> None:
    assert run("foundry", "import", EXAMPLES[0], "--into", tmp_path / "c.yaml", *args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err, err


def test_a_map_for_a_new_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--map`` gives the locations (with their roads); the sheet's places must be among them."""
    world = tmp_path / "map.yaml"
    world.write_text("locations:\n  - {id: varenna, name: Varenna, neighbors: [ostry-ford]}\n"
                     "  - {id: ostry-ford, name: Ostry Ford, coastal: true}\n", encoding="utf-8")
    import_into(tmp_path / "c.yaml", EXAMPLES[0], extra=("--map", world))
    state = load_campaign(tmp_path / "c.yaml")
    assert state.map.locations["varenna"].neighbors == ("ostry-ford",)
    assert run("foundry", "import", EXAMPLES[1], "--into", tmp_path / "d.yaml", "--map", world) == 2
    err = capsys.readouterr().err
    assert "items[0].system.location: no location called 'Lantern Alley, Varenna' in the map" in err
    assert run("foundry", "import", EXAMPLES[1], "--into", tmp_path / "c.yaml", "--map", world) == 2
    assert "already exists and has its map" in capsys.readouterr().err


def test_a_campaign_mid_turn_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    campaign = tmp_path / "march.yaml"
    state = load_campaign(default_campaign_path())
    state.apply(state.legal_actions()[0])
    from factionsim.core.campaign import save_campaign

    save_campaign(state, campaign)
    assert "in_progress" in campaign.read_text(encoding="utf-8")
    assert run("foundry", "import", EXAMPLES[0], "--into", campaign) == 2
    assert "a turn is in progress" in capsys.readouterr().err


def test_a_damaged_foundry_block_is_named_by_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    campaign = tmp_path / "c.yaml"
    import_into(campaign, EXAMPLES[0])
    text = campaign.read_text(encoding="utf-8").replace("imported_turn: 0", "imported_turn: soon")
    campaign.write_text(text, encoding="utf-8")
    line = text.splitlines().index("    imported_turn: soon") + 1
    assert run("foundry", "export", campaign, "--out", tmp_path / "out") == 2
    err = capsys.readouterr().err
    assert f"{campaign}, line {line}, foundry.actors[0].imported_turn: must be a whole number" in err


def test_import_options_from_python(tmp_path: Path) -> None:
    result = import_actors(list(EXAMPLES), tmp_path / "c.yaml",
                           ImportOptions(agent="planner", name="River Kingdoms", seed=7))
    data = yaml.safe_load((tmp_path / "c.yaml").read_text(encoding="utf-8"))
    assert (data["name"], data["seed"]) == ("River Kingdoms", 7)
    assert {f["agent"] for f in data["factions"]} == {"planner"}
    assert result.created and result.added == ["the-gilded-concord", "the-ashen-lantern"]
