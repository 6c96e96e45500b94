"""Foundry import of assets that are no book asset: the campaign's own asset types.

An item whose name matches none of the 81 assets (and no compendium source) is matched against
the campaign's ``asset_types:``; with ``--homebrew`` it becomes a new entry read from its sheet
(``assetType``, ``rating``, ``cost``, ``health.max``, attack, ``counter``, ``subtle``,
``maintenance``, ``income``: the fields of ``shared/reference/foundry_wwn_faction.md``);
without it the import stops, naming the item and both ways out. The entry then round-trips:
exported with its stats, imported back as itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from foundry_helpers import example, export_to, import_into, run, write_actor

from factionsim.rulesets import load_campaign


def _barges(actor: dict[str, Any]) -> dict[str, Any]:
    """Example 1 with its Local Guard turned into a homebrew River Barges item."""
    item = actor["items"][4]
    item["name"] = "River Barges"
    item["_stats"]["compendiumSource"] = None
    item["system"].update({
        "assetType": "wealth", "rating": 2, "cost": 5, "health": {"value": 3, "max": 5},
        "attackDamage": "", "attackSource": "", "attackTarget": "", "counter": "1d4",
        "subtle": True, "maintenance": 1, "income": 2, "special": False, "magic": "none"})
    return actor


def _data(campaign: Path) -> dict[str, Any]:
    return yaml.safe_load(campaign.read_text(encoding="utf-8"))


def test_an_unknown_asset_is_refused_naming_the_ways_out(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]):
    path = write_actor(tmp_path, _barges(example(1)))
    assert run("foundry", "import", path, "--into", tmp_path / "c.yaml") == 2
    err = capsys.readouterr().err
    assert f"{path}, items[4].name: unknown asset 'River Barges'" in err
    assert "--homebrew to add it to the campaign's asset_types" in err and "Traceback" not in err
    assert not (tmp_path / "c.yaml").exists()


def test_with_homebrew_it_becomes_an_asset_type_read_from_its_sheet(tmp_path: Path):
    campaign = tmp_path / "c.yaml"
    import_into(campaign, write_actor(tmp_path, _barges(example(1))), extra=("--homebrew",))
    data = _data(campaign)
    assert data["asset_types"] == [{
        "id": "river-barges", "name": "River Barges", "attribute": "wealth", "rating": 2,
        "cost": 5, "hp": 5, "attack": None, "counter": "1d4", "qualities": ["subtle"],
        "upkeep": 1, "ability": {"effect": "income", "treasure": 2}}]
    asset = data["factions"][0]["assets"][4]
    assert (asset["type"], asset["hp"]) == ("river-barges", 3)
    state = load_campaign(campaign)
    kind = state.asset_types["river-barges"]
    assert (kind.homebrew, kind.effect, kind.upkeep, kind.subtle) == (True, "income", 1, True)


def test_a_homebrew_asset_round_trips_through_export_and_import(tmp_path: Path):
    """Exported with its stats (``income`` from its ability), imported back into the campaign
    as the same type, without ``--homebrew``: the campaign's own types are matched by name."""
    campaign = tmp_path / "c.yaml"
    import_into(campaign, write_actor(tmp_path, _barges(example(1))), extra=("--homebrew",))
    actors = export_to(campaign, tmp_path / "out")
    item = next(i for i in actors["The Gilded Concord"]["items"] if i["name"] == "River Barges")
    assert {k: item["system"][k] for k in ("assetType", "rating", "cost", "counter", "subtle",
                                           "maintenance", "income")} == {
        "assetType": "wealth", "rating": 2, "cost": 5, "counter": "1d4", "subtle": True,
        "maintenance": 1, "income": 2}
    before = _data(campaign)
    out = next((tmp_path / "out").glob("*.json"))
    import_into(campaign, out)
    after = _data(campaign)
    assert after["asset_types"] == before["asset_types"]
    assert after["factions"][0]["assets"] == before["factions"][0]["assets"]


@pytest.mark.parametrize("change, message", [
    ({"assetType": "magic"}, "items[4].system.assetType: the homebrew asset 'River Barges' needs "
     "its attribute (got 'magic'); allowed: cunning, force or wealth"),
    ({"health": {"value": 1, "max": 0}}, "items[4].system.health.max: the homebrew asset 'River "
     "Barges' needs a max HP"),
])
def test_a_sheet_that_is_no_stat_line_is_refused(tmp_path: Path, capsys, change, message):
    actor = _barges(example(1))
    actor["items"][4]["system"].update(change)
    path = write_actor(tmp_path, actor)
    assert run("foundry", "import", path, "--into", tmp_path / "c.yaml", "--homebrew") == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_special_attack_is_left_out_with_a_note(tmp_path: Path, capsys):
    actor = _barges(example(1))
    actor["items"][4]["system"].update({"attackDamage": "Special", "attackSource": "wealth",
                                        "attackTarget": "cunning"})
    campaign = tmp_path / "c.yaml"
    assert run("foundry", "import", write_actor(tmp_path, actor), "--into", campaign,
               "--homebrew") == 0
    assert "'River Barges': its attack ('Special') is not a dice attack" in capsys.readouterr().out
    assert _data(campaign)["asset_types"][0]["attack"] is None
