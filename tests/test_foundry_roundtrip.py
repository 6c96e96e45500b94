"""Foundry VTT round trip: import -> export -> import, the exported shape, what survives.

Quotations are from the reference, ``shared/reference/foundry_wwn_faction.md``.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from foundry_helpers import EXAMPLES, example, export_to, import_into, run, write_actor

from factionsim.configs import default_campaign_path
from factionsim.core.history import History
from factionsim.core.names import Names
from factionsim.foundry.actor import (
    ASSET_SYSTEM,
    FACTION_SYSTEM,
    ITEM_KEYS,
    shape_problems,
)
from factionsim.foundry.exporter import SECRET_FIELDS
from factionsim.foundry.log import faction_lines, turn_entry
from factionsim.rulesets import load_campaign


def campaign_data(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def played(data: dict[str, Any]) -> dict[str, Any]:
    """What the game plays: the campaign without the foundry block."""
    return {k: v for k, v in data.items() if k != "foundry"}


# ------------------------------------------------------------------------------ lossless
def test_export_of_an_untouched_import_is_the_example_itself(tmp_path: Path) -> None:
    """"Keep the ids you read" and "Pass through what you don't model, unchanged": example 1
    (its Base at the headquarters, the computed max HP) comes back byte for byte."""
    campaign = tmp_path / "river.yaml"
    import_into(campaign, EXAMPLES[0])
    export_to(campaign, tmp_path / "out")
    (exported,) = (tmp_path / "out").glob("*.json")
    assert exported.name == "fvtt-Actor-the-gilded-concord-Oxq8xsRqkk711grH.json"
    assert exported.read_bytes() == EXAMPLES[0].read_bytes()


@pytest.mark.parametrize("n", [1, 2])
def test_import_export_import_is_lossless(tmp_path: Path, n: int) -> None:
    first, second = tmp_path / "first.yaml", tmp_path / "second.yaml"
    import_into(first, EXAMPLES[n - 1])
    exported = tmp_path / "out"
    export_to(first, exported)
    (actor_file,) = exported.glob("*.json")
    import_into(second, actor_file)
    a, b = campaign_data(first), campaign_data(second)
    assert played({**a, "name": ""}) == played({**b, "name": ""})
    # the stored actors differ only by what the export added (example 2: its headquarters Base)
    link_a, link_b = a["foundry"]["actors"][0], b["foundry"]["actors"][0]
    assert (link_a["goal"], link_a["locations"]) == (link_b["goal"], link_b["locations"])
    assert set(link_a["items"].items()) <= set(link_b["items"].items())
    # importing the export into the campaign it came from changes nothing the game plays
    before = played(campaign_data(first))
    import_into(first, actor_file)
    assert played(campaign_data(first)) == before


def test_example_2_gains_the_headquarters_base_the_rules_require(tmp_path: Path) -> None:
    """Example 2 has "Deliberately no Base: the system does not require one"; the rules give
    every faction a headquarters Base (max HP = the faction's), so the export adds one item,
    made as the sheet's "home" button makes a Base, and changes nothing else."""
    campaign = tmp_path / "lantern.yaml"
    import_into(campaign, EXAMPLES[1])
    actor = export_to(campaign, tmp_path / "out")["The Ashen Lantern"]
    original = example(2)
    assert actor["items"][:2] == original["items"]
    base = actor["items"][2]
    assert base["name"] == "Base of Inf. Cunning" and re.fullmatch(r"[A-Za-z0-9]{16}", base["_id"])
    assert base["system"]["baseOfInfluence"] is True
    assert base["system"]["health"] == {"value": 9, "max": 9}
    assert base["system"]["location"] == "Varenna" == original["system"]["homeworld"]
    assert base["sort"] > max(i["sort"] for i in original["items"])
    assert {k: v for k, v in actor.items() if k != "items"} == \
        {k: v for k, v in original.items() if k != "items"}


def test_a_factionsim_campaign_survives_a_trip_through_foundry(tmp_path: Path) -> None:
    """A campaign made in factionsim, exported (actors from scratch) and imported back into
    itself, plays on exactly as before: the same factions, assets (numbers included), goals."""
    campaign = tmp_path / "march.yaml"
    shutil.copy(default_campaign_path(), campaign)
    assert run("turn", campaign, "--turns", "2", "--quiet") == 0
    before = campaign_data(campaign)
    actors = export_to(campaign, tmp_path / "out")
    assert len(actors) == len(before["factions"])
    import_into(campaign, *sorted((tmp_path / "out").glob("*.json")))
    assert played(campaign_data(campaign)) == before


# ------------------------------------------------------------------------------ shape
def test_exported_files_have_exactly_the_reference_shape(tmp_path: Path) -> None:
    """"Key order as Foundry writes it: name, type, img, system, prototypeToken, items, effects,
    folder, flags, _stats, ownership"; items "_id, name, type, img, system, effects, folder,
    sort, ownership, flags, _stats"; every numeric field a JSON integer; lowercase enumerations;
    "Every embedded item needs a unique, valid _id: exactly 16 characters of [A-Za-z0-9]"."""
    campaign = tmp_path / "mixed.yaml"
    shutil.copy(default_campaign_path(), campaign)
    assert run("turn", campaign, "--quiet") == 0
    import_into(campaign, *EXAMPLES)
    actors = export_to(campaign, tmp_path / "out")
    assert len(actors) == 6
    for actor in actors.values():
        assert shape_problems(actor) == [], actor["name"]
        assert tuple(actor["system"]) == tuple(f.key for f in FACTION_SYSTEM)
        for item in actor["items"]:
            assert tuple(item) == ITEM_KEYS
            assert tuple(item["system"])[:len(ASSET_SYSTEM)] == tuple(f.key for f in ASSET_SYSTEM)


def _mutations() -> list[tuple[str, Any, str]]:
    """(what, change to example 1, the path the shape checker names)."""
    def set_in(path: tuple[Any, ...], value: Any) -> Any:
        def change(actor: dict[str, Any]) -> None:
            node = actor
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
        return change

    def delete(path: tuple[Any, ...]) -> Any:
        def change(actor: dict[str, Any]) -> None:
            node = actor
            for key in path[:-1]:
                node = node[key]
            del node[path[-1]]
        return change

    def reorder(actor: dict[str, Any]) -> None:
        actor["system"] = dict(reversed(list(actor["system"].items())))

    def same_ids(actor: dict[str, Any]) -> None:
        actor["items"][1]["_id"] = actor["items"][0]["_id"]

    return [
        ("a float count", set_in(("system", "facCreds"), 14.0), "system.facCreds"),
        ("a null number", set_in(("items", 0, "system", "cost"), None), "items[0].system.cost"),
        ("a rating of 9", set_in(("system", "forceRating"), 9), "system.forceRating"),
        ("the stale max HP", set_in(("system", "health", "max"), 7), "system.health.max"),
        ("capitalised assetType", set_in(("items", 1, "system", "assetType"), "Wealth"),
         "items[1].system.assetType"),
        ("bad attackSource", set_in(("items", 1, "system", "attackSource"), "magic"),
         "items[1].system.attackSource"),
        ("unknown magic", set_in(("system", "magicRating"), "extreme"), "system.magicRating"),
        ("a short id", set_in(("items", 2, "_id"), "abc"), "items[2]._id"),
        ("a missing id", delete(("items", 2, "_id")), "items[2]"),
        ("a repeated id", same_ids, "items[1]._id"),
        ("keys out of order", reorder, "system"),
        ("an extra system key", set_in(("system", "cunningAssets"), []), "system"),
        ("an image without extension", set_in(("img", ), "icons/faction"), "img"),
        ("a tag without desc", set_in(("system", "tags"), [{"name": "Rich"}]), "system.tags[0]"),
        ("a log entry that is not text", set_in(("system", "log"), [3]), "system.log"),
        ("a blank name", set_in(("name",), "  "), "name"),
        ("not a faction", set_in(("type",), "npc"), "type"),
        ("an item that is not an asset", set_in(("items", 0, "type"), "weapon"), "items[0].type"),
        ("no _stats.systemId", set_in(("_stats", "systemId"), "swnr"), "_stats"),
    ]


@pytest.mark.parametrize(("what", "change", "path"), _mutations(), ids=[m[0] for m in _mutations()])
def test_the_shape_checker_finds_each_departure(what: str, change: Any, path: str) -> None:
    actor = example(1)
    assert shape_problems(actor) == []
    change(actor)
    problems = shape_problems(actor)
    assert any(p.startswith(path + ":") for p in problems), problems


# ------------------------------------------------------------------------------ untouched
def test_fields_factionsim_does_not_own_survive_play(tmp_path: Path) -> None:
    """"Pass through what you don't model, unchanged: prototypeToken, effects, flags (all
    scopes), folder, ownership; item envelopes (sort, _stats, ownership, flags); extra system
    keys from 1.x (attackSpecial, description) and initiative"; a custom tag keeps its effect."""
    actor = example(1)
    actor["flags"] = {"my-module": {"notes": ["a", {"deep": 1.5}]}}
    actor["folder"] = "Zq3cQpZkqUEJ1n2S"
    actor["ownership"] = {"default": 2, "2y1YBFysjNDcFeBm": 3}
    actor["effects"] = [{"name": "Blessed", "changes": []}]
    actor["system"]["homebrewField"] = {"kept": True}
    actor["system"]["initiative"] = {"roll": "1d6", "value": 4}
    actor["prototypeToken"]["ring"]["enabled"] = True
    actor["items"][1]["flags"] = {"core": {"sheetClass": "x"}}
    actor["items"][1]["system"]["note"] = "left untouched"
    actor["items"][1]["system"]["x-homebrew"] = 7
    actor["items"].append({"_id": "Weap0nWeap0nWeap", "name": "Ceremonial Sword", "type": "weapon",
                           "img": "icons/sword.webp", "system": {"damage": "1d8"}})
    path = write_actor(tmp_path, actor)
    campaign = tmp_path / "c.yaml"
    import_into(campaign, path, extra=("--seed", 3))
    assert run("turn", campaign, "--turns", "2", "--quiet") == 0
    out = export_to(campaign, tmp_path / "out")["The Gilded Concord"]
    for key in ("flags", "folder", "ownership", "effects", "prototypeToken", "_stats", "img"):
        assert out[key] == actor[key], key
    for key in ("homebrewField", "initiative", "description"):
        assert out["system"][key] == actor["system"][key], key
    assert out["system"]["tags"] == actor["system"]["tags"]  # Rich kept, custom tag kept
    kept = {i["_id"]: i for i in out["items"]}
    assert kept["Weap0nWeap0nWeap"] == actor["items"][-1]  # not an asset: kept as it was
    for item in actor["items"][:-1]:
        if item["_id"] in kept:  # still in play after two turns
            mine = kept[item["_id"]]
            for key in ("name", "img", "sort", "ownership", "flags", "_stats", "effects"):
                assert mine[key] == item[key]
            owned = ("health", "location", "stealthed")
            assert {k: v for k, v in mine["system"].items() if k not in owned} == \
                {k: v for k, v in item["system"].items() if k not in owned}


def test_numbers_are_written_as_integers_and_derived_arrays_left_out(tmp_path: Path) -> None:
    """"All numeric fields listed in 1.2/1.3 must be JSON integers ... 1.6.1 doesn't check types
    but would then do string arithmetic, so always emit proper numbers"; "Don't write derived
    arrays (cunningAssets, ...)"."""
    actor = example(1)
    actor["items"][1]["system"]["cost"] = "15"
    actor["items"][1]["system"]["maintenance"] = 0.0
    actor["system"]["initiative"]["value"] = "0"
    actor["system"]["cunningAssets"] = [{"name": "Court Patronage"}]
    campaign = tmp_path / "c.yaml"
    import_into(campaign, write_actor(tmp_path, actor))
    (exported,) = export_to(campaign, tmp_path / "out").values()
    assert exported == example(1)


def test_a_v14_actor_keeps_its_layout(tmp_path: Path) -> None:
    """"A genuine 2.0/v14 export differs in three ways": coreVersion 14.x and systemVersion
    2.0.0-alpha3, a v14 token (detectionModes an object, extra fields), a stale health.max; the
    2.0 pack writes Magic capitalised and its items have no 1.x extras. The export keeps the v14
    token and stamps, recomputes max HP, and new items carry the actor's versions."""
    actor = example(2)
    actor["_stats"].update(coreVersion="14.360", systemVersion="2.0.0-alpha3")
    actor["_stats"]["exportSource"].update(coreVersion="14.360", systemVersion="2.0.0-alpha3")
    actor["prototypeToken"]["detectionModes"] = {"basicSight": {"enabled": True, "range": 30}}
    actor["prototypeToken"].update(depth=1, level=None)
    actor["system"]["health"]["max"] = 7
    actor["system"]["magicRating"] = "None"
    for item in actor["items"]:
        item["system"].pop("description")
        item["system"].pop("attackSpecial")
        item["system"]["magic"] = "None"
        item["_stats"].update(coreVersion="14.360", systemVersion="2.0.0-alpha3")
    campaign = tmp_path / "c.yaml"
    import_into(campaign, write_actor(tmp_path, actor))
    out = export_to(campaign, tmp_path / "out")["The Ashen Lantern"]
    assert out["prototypeToken"] == actor["prototypeToken"]
    assert out["_stats"] == actor["_stats"]
    assert out["system"]["health"] == {"value": 9, "max": 9}
    assert out["system"]["magicRating"] == "None"  # the same level: the original spelling
    assert out["items"][:2] == actor["items"]
    new_base = out["items"][2]["_stats"]
    assert (new_base["coreVersion"], new_base["systemVersion"]) == ("14.360", "2.0.0-alpha3")
    assert shape_problems(out) == []


# ------------------------------------------------------------------------------ play and log
def test_imported_factions_play_and_log_their_turns(tmp_path: Path) -> None:
    """Turns played by `factionsim turn` reach Foundry: the sheet's numbers are the campaign's,
    and "the turns' chronicle lines" are appended to the log, one HTML entry per turn, escaped
    ("Treat entries as opaque HTML. For entries you add, a short HTML snippet ... is enough")."""
    second = example(2)
    second["name"] = "The <Ashen> Lantern & Co"
    campaign = tmp_path / "c.yaml"
    import_into(campaign, EXAMPLES[0], write_actor(tmp_path, second), extra=("--seed", 11))
    assert run("turn", campaign, "--turns", "3", "--quiet") == 0
    state = load_campaign(campaign)
    history = History(campaign)
    names = Names.from_state(state)
    actors = export_to(campaign, tmp_path / "out")
    originals = {"The Gilded Concord": example(1), second["name"]: second}
    for name, actor in actors.items():
        fid = next(f.id for f in state.factions.values() if f.name == name)
        f = state.factions[fid]
        system = actor["system"]
        assert (system["facCreds"], system["xp"], system["health"]["value"]) == (f.treasure, f.xp, f.hp)
        assert system["health"]["max"] == f.max_hp
        old_log = originals[name]["system"]["log"]
        assert system["log"][:len(old_log)] == old_log
        new = system["log"][len(old_log):]
        expected = [turn_entry(t, history.events(t), names, fid) for t in range(1, state.turn + 1)]
        assert new == [e for e in expected if e is not None] and new
        for turn, entry in zip(range(1, 4), expected, strict=False):
            if entry is None:
                continue
            assert f'data-factionsim-turn="{turn}"' in entry
            lines = faction_lines(history.events(turn), names, fid)
            assert entry.count("<li>") == len(lines)
        assert "<Ashen>" not in "".join(new) and "&lt;Ashen&gt;" in "".join(new)
        assert shape_problems(actor) == []


def test_the_log_goes_on_from_where_an_earlier_export_left_it(tmp_path: Path) -> None:
    """Export after 2 turns, bring the actor back from Foundry, play a third: the next export
    appends turn 3 only (the entries carry their turn, so none is written twice)."""
    campaign = tmp_path / "march.yaml"
    shutil.copy(default_campaign_path(), campaign)
    import_into(campaign, EXAMPLES[0])
    assert run("turn", campaign, "--turns", "2", "--quiet") == 0
    first = export_to(campaign, tmp_path / "one")["The Gilded Concord"]
    import_into(campaign, *sorted((tmp_path / "one").glob("*.json")))
    assert run("turn", campaign, "--quiet") == 0
    assert load_campaign(campaign).turn == 3
    second = export_to(campaign, tmp_path / "two")["The Gilded Concord"]
    log1, log2 = first["system"]["log"], second["system"]["log"]
    assert log2[:len(log1)] == log1
    marks = [re.findall(r'data-factionsim-turn="(\d+)"', e) for e in log2]
    assert [m[0] for m in marks if m] == ["1", "2", "3"]


def test_exports_and_imports_are_deterministic(tmp_path: Path) -> None:
    """The same campaign gives byte-identical actor files, and the same actors byte-identical
    campaigns (new item ids come from a hash, not from a clock or a random generator)."""
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        import_into(tmp_path / name / "c.yaml", *EXAMPLES, extra=("--seed", 9))
    assert (tmp_path / "a" / "c.yaml").read_bytes() == (tmp_path / "b" / "c.yaml").read_bytes()
    shutil.copy(tmp_path / "a" / "c.yaml", tmp_path / "a.yaml")
    shutil.copy(default_campaign_path(), tmp_path / "m.yaml")
    for campaign in ("a.yaml", "m.yaml"):
        export_to(tmp_path / campaign, tmp_path / f"{campaign}-1")
        export_to(tmp_path / campaign, tmp_path / f"{campaign}-2")
        one = {p.name: p.read_bytes() for p in (tmp_path / f"{campaign}-1").iterdir()}
        two = {p.name: p.read_bytes() for p in (tmp_path / f"{campaign}-2").iterdir()}
        assert one == two and one


def test_the_stored_actor_is_exactly_the_file_read(tmp_path: Path) -> None:
    """The campaign keeps each actor as imported, HTML, floats and ids exactly."""
    campaign = tmp_path / "c.yaml"
    import_into(campaign, *EXAMPLES)
    stored = [json.loads(a["actor"]) for a in campaign_data(campaign)["foundry"]["actors"]]
    assert stored == [example(1), example(2)]


def test_export_can_leave_out_stealthed_doings(tmp_path: Path) -> None:
    """`--players` writes what the players may know (as ``STEM.players.md``): the Ashen
    Lantern's Informers and Thugs are Stealthed, so they have no item and what they do unseen is
    left out; the log is the players' rumours; Treasure, XP and the goal are not written. The
    GM names the Gilded Concord the Lantern's enemy, so its Informers search it (the heuristic
    searches only a faction it is at war with: docs/agents.md)."""
    campaign = tmp_path / "c.yaml"
    import_into(campaign, *EXAMPLES, extra=("--seed", 5))
    data = yaml.safe_load(campaign.read_text())
    lantern = next(f for f in data["factions"] if f["id"] == "the-ashen-lantern")
    lantern["agent_options"] = {"enemy": "the-gilded-concord"}
    campaign.write_text(yaml.safe_dump(data, sort_keys=False))
    assert run("turn", campaign, "--turns", "2", "--quiet") == 0
    state = load_campaign(campaign)
    fid = "the-ashen-lantern"
    gm = export_to(campaign, tmp_path / "gm")["The Ashen Lantern"]
    players = export_to(campaign, tmp_path / "pl", extra=("--players",))["The Ashen Lantern"]
    log = "".join(players["system"]["log"][1:])
    # The Informers attack out of Stealth, which breaks it (6.3.0: Stealth is lost "when the
    # Stealthed Asset Attacks something"): the GM's log says so plainly, the players hear a rumour.
    assert "Informers loses its Stealth" in "".join(gm["system"]["log"])
    assert "Stealth" not in log and "Informers" in log
    assert "Treasure" not in log and not re.search(r"d\d+ \[", log)
    assert not set(SECRET_FIELDS) & set(players["system"])
    assert {"facCreds", "xp"} <= set(gm["system"])
    items = [i for i in players["items"] if i.get("type") == "asset"]
    assert len(items) == sum(not a.stealth for a in state.assets_of(fid))

