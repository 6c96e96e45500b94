"""Campaign files: malformed campaigns give one-paragraph errors naming file, field, line and the
allowed values; saving is atomic and save -> load -> save is byte-identical."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from factionsim import load_campaign
from factionsim.core import campaign
from factionsim.core.campaign import (
    dump_campaign_data,
    load_campaign_data,
    save_campaign,
)
from factionsim.core.game import CampaignError
from factionsim.rules.wwn.validate import validate

# Line numbers matter: the cases below refer to them.
BASE = """\
ruleset: wwn
name: Test March
seed: 7
locations:
  - id: tarsis
    name: Tarsis
    neighbors: [vell]
  - id: vell
    coastal: true
relations:
  - [iron-legion, silver-guild, neutral]
factions:
  - id: iron-legion
    force: 6
    cunning: 3
    wealth: 4
    magic: low
    treasure: 5
    tags: [martial]
    goal: blood-the-enemy
    agent: random
    headquarters: tarsis
    assets:
      - type: infantry
        location: tarsis
      - type: base-of-influence
        location: vell
        hp: 8
  - id: silver-guild
    force: 2
    cunning: 3
    wealth: 5
    headquarters: vell
    assets:
      - type: informers
        location: vell
"""

RATINGS = "from 1 to 8"

# (case id, text replaced in BASE, replacement, [expected substrings], expected line or None)
CASES = [
    ("force-text", "    force: 6\n", '    force: "six"\n', ["factions[0].force", RATINGS], 14),
    ("force-float", "    force: 6\n", "    force: 6.5\n", ["factions[0].force", RATINGS], 14),
    ("force-bool", "    force: 6\n", "    force: true\n", ["factions[0].force", RATINGS], 14),
    ("force-high", "    force: 6\n", "    force: 9\n", ["factions[0].force", RATINGS, "9"], 14),
    ("cunning-zero", "    cunning: 3\n    wealth: 5", "    cunning: 0\n    wealth: 5",
     ["factions[1].cunning", RATINGS], 31),
    ("missing-force", "    force: 6\n", "", ["factions[0]", "'force'"], 13),
    ("asset-type", "      - type: infantry", "      - type: infantri",
     ["factions[0].assets[0].type", "'infantri'", "'infantry'", "docs/assets.md"], 24),
    ("asset-location", "        location: tarsis", "        location: tarsus",
     ["factions[0].assets[0].location", "'tarsis'", "tarsis, vell"], 25),
    ("tag", "tags: [martial]", "tags: [marshal]",
     ["factions[0].tags[0]", "'martial'", "antimagical", "populist"], 19),
    ("tag-duplicate", "tags: [martial]", "tags: [martial, martial]",
     ["factions[0].tags[1]", "twice"], 19),
    ("machiavellian", "tags: [martial]", "tags: [machiavellian]",
     ["factions[0].tags[0]", "Cunning must be its highest", "force 6"], 19),
    ("goal", "goal: blood-the-enemy", "goal: blood-the-enemi",
     ["factions[0].goal", "'blood-the-enemy'", "wealth-of-kingdoms"], 20),
    ("goal-mapping-key", "goal: blood-the-enemy", "goal: {id: blood-the-enemy, prize: 3}",
     ["factions[0].goal.prize", "allowed:", "progress"], 20),
    ("magic", "magic: low", "magic: lots", ["factions[0].magic", "none, low, medium, high"], 17),
    ("agent", "agent: random", "agent: randomm",
     ["factions[0].agent", "'random'", "policy:PATH"], 21),
    ("agent-policy-empty", "agent: random", 'agent: "policy:"',
     ["factions[0].agent", "policy:PATH"], 21),
    ("headquarters", "    headquarters: vell", "    headquarters: nowhere",
     ["factions[1].headquarters", "tarsis, vell"], 33),
    ("neighbor", "neighbors: [vell]", "neighbors: [vel]",
     ["locations[0].neighbors[0]", "'vell'"], 7),
    ("neighbors-not-list", "neighbors: [vell]", "neighbors: vell",
     ["locations[0].neighbors", "must be a list"], 7),
    ("location-slug", "  - id: vell", "  - id: Vell Town",
     ["locations[1].id", "lowercase letters"], 8),
    ("location-key", "    coastal: true", "    coastal: true\n    climate: wet",
     ["locations[1].climate", "allowed:", "neighbors"], 10),
    ("coastal-type", "    coastal: true", "    coastal: sometimes",
     ["locations[1].coastal", "true or false"], 9),
    ("faction-key", "    treasure: 5\n", "    treasure: 5\n    gold: 3\n",
     ["factions[0].gold", "allowed:", "treasure"], 19),
    ("asset-key", "        hp: 8\n", "        hp: 8\n        colour: red\n",
     ["factions[0].assets[1].colour", "allowed:", "stealth"], 29),
    ("duplicate-faction", "  - id: silver-guild", "  - id: iron-legion",
     ["factions[1].id", "duplicate", "factions[0]"], 29),
    ("duplicate-location", "  - id: vell", "  - id: tarsis",
     ["locations[1].id", "duplicate", "locations[0]"], 8),
    ("duplicate-key", "    force: 6\n", "    force: 6\n    force: 7\n",
     ["factions[0].force", "duplicate key", "line 14"], 15),
    ("relation-kind", "silver-guild, neutral]", "silver-guild, friendly]",
     ["relations[0][2]", "allied, neutral, hostile"], 11),
    ("relation-faction", "[iron-legion, silver-guild,", "[iron-legion, gold-guild,",
     ["relations[0][1]", "'silver-guild'", "iron-legion, silver-guild"], 11),
    ("relation-self", "[iron-legion, silver-guild,", "[iron-legion, iron-legion,",
     ["relations[0]", "two different factions"], 11),
    ("relation-shape", "[iron-legion, silver-guild, neutral]", "[iron-legion, silver-guild]",
     ["relations[0]", "[faction, faction, relation]"], 11),
    ("relation-twice", "  - [iron-legion, silver-guild, neutral]\n",
     "  - [iron-legion, silver-guild, neutral]\n  - [silver-guild, iron-legion, allied]\n",
     ["relations[1]", "one relation per pair"], 12),
    ("base-hp-too-high", "        hp: 8", "        hp: 40",
     ["factions[0].assets[1].hp", "from 1 to 22"], 28),
    ("base-without-hp", "        hp: 8\n", "",
     ["factions[0].assets[1]", "'hp' or 'max_hp'", "from 1 to 22"], 26),
    ("two-bases", "        hp: 8\n",
     "        hp: 8\n      - type: base-of-influence\n        location: vell\n        hp: 3\n",
     ["factions[0].assets[2].location", "at most one base"], 30),
    ("asset-hp-zero", "        location: tarsis\n", "        location: tarsis\n        hp: 0\n",
     ["factions[0].assets[0].hp", "from 1 to 6"], 26),
    ("asset-max-hp", "        location: tarsis\n", "        location: tarsis\n        max_hp: 9\n",
     ["factions[0].assets[0].max_hp", "only a base-of-influence"], 26),
    ("asset-stealth", "        location: tarsis\n",
     "        location: tarsis\n        stealth: maybe\n",
     ["factions[0].assets[0].stealth", "true or false"], 26),
    ("asset-id-duplicate", "        hp: 8\n",
     "        hp: 8\n        id: 2\n      - type: thugs\n        location: vell\n"
     "        id: 2\n", ["factions[0].assets[2].id", "duplicate", "factions[0].assets[1]"], 32),
    ("faction-hp", "    treasure: 5\n", "    treasure: 5\n    hp: 99\n",
     ["factions[0].hp", "from 0 to 22"], 19),
    ("treasure-negative", "    treasure: 5", "    treasure: -2", ["factions[0].treasure", ">= 0"],
     18),
    ("name-number", "name: Test March", "name: 12", ["name", "must be text"], 2),
    ("turn-negative", "seed: 7\n", "seed: 7\nturn: -1\n", ["turn", ">= 0"], 4),
    ("max-turns-zero", "seed: 7\n", "seed: 7\nmax_turns: 0\n", ["max_turns", ">= 1"], 4),
    ("unknown-ruleset", "ruleset: wwn", "ruleset: swn", ["ruleset", "'swn'", "wwn"], 1),
    ("missing-ruleset", "ruleset: wwn\n", "", ["ruleset", "missing", "wwn"], None),
    ("missing-factions", "factions:", "people:", ["'factions'", "non-empty list"], 1),
    ("broken-yaml", "    force: 6\n", "    force: [6\n", ["broken YAML", "column"], None),
    ("bad-indent", "    cunning: 3\n    wealth: 4", "    cunning: 3\n   wealth: 4",
     ["broken YAML", "column"], None),
    ("rng-generator", "seed: 7\n", "seed: 7\nrng: {bit_generator: MT19937, state: {}}\n",
     ["rng.bit_generator", "PCG64"], 4),
    ("rng-state", "seed: 7\n", "seed: 7\nrng: {bit_generator: PCG64, state: {state: x}}\n",
     ["rng.state", "'inc'"], 4),
]


def write(tmp_path: Path, text: str, name: str = "march.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path) -> str:
    with pytest.raises(CampaignError) as info:
        load_campaign(path)
    return str(info.value)


def test_base_campaign_is_valid(tmp_path):
    data, lines = load_campaign_data(write(tmp_path, BASE))
    out = validate(data, source="march.yaml", lines=lines)
    assert [f["id"] for f in out["factions"]] == ["iron-legion", "silver-guild"]
    base = out["factions"][0]["assets"][1]
    assert base["max_hp"] == 8 and base["hp"] == 8
    assert lines[("factions", 0, "assets", 1, "hp")] == 28
    assert lines[("relations", 0, 2)] == 11


@pytest.mark.parametrize(("old", "new", "expected", "line"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_malformed_campaign(tmp_path, old, new, expected, line):
    assert old in BASE
    path = write(tmp_path, BASE.replace(old, new, 1))
    message = error_of(path)
    assert "march.yaml" in message
    assert "\n" not in message  # one paragraph
    for text in expected:
        assert text in message, f"{text!r} not in {message!r}"
    if line is not None:
        assert f"line {line}" in message, message
    elif "broken YAML" in message:
        assert "line " in message


def test_missing_file(tmp_path):
    message = error_of(tmp_path / "nowhere.yaml")
    assert "nowhere.yaml" in message and "not found" in message


def test_directory_is_not_a_campaign(tmp_path):
    assert "directory" in error_of(tmp_path)


def test_empty_file(tmp_path):
    message = error_of(write(tmp_path, ""))
    assert "march.yaml" in message and "empty" in message and "ruleset" in message


def test_top_level_list(tmp_path):
    message = error_of(write(tmp_path, "- ruleset: wwn\n"))
    assert "march.yaml" in message and "top level" in message and "mapping" in message


def test_not_utf8(tmp_path):
    path = tmp_path / "march.yaml"
    path.write_bytes(b"ruleset: wwn\nname: \xff\n")
    assert "UTF-8" in error_of(path)


def test_validate_accepts_text_paths_for_lines():
    data = yaml.safe_load(BASE.replace("    force: 6\n", "    force: 0\n"))
    with pytest.raises(CampaignError, match=r"x\.yaml, line 99, factions\[0\]\.force"):
        validate(data, source="x.yaml", lines={"factions[0].force": 99})


# --------------------------------------------------------------------------- saving
class FakeState:
    """Anything with ``to_dict`` can be saved."""

    def __init__(self, data):
        self.data = data

    def to_dict(self):
        return self.data


BIG = {
    "ruleset": "wwn", "name": "Ünïcode March", "turn": 3,
    "locations": [{"id": "a", "name": "A", "neighbors": ["b"]}, {"id": "b", "name": "B"}],
    "rng": {"bit_generator": "PCG64",
            "state": {"state": 2**127 + 12345, "inc": 2**126 + 7},
            "has_uint32": 0, "uinteger": 0},
}


def test_dump_is_deterministic_and_exact():
    text = dump_campaign_data(BIG)
    assert text == dump_campaign_data(yaml.safe_load(text))
    assert yaml.safe_load(text) == BIG
    assert "Ünïcode" in text


@pytest.mark.parametrize("fail_at", ["replace", "dump"])
def test_crash_mid_save_keeps_old_file(tmp_path, monkeypatch, fail_at):
    path = tmp_path / "march.yaml"
    path.write_bytes(b"old: contents\n")
    before = sorted(os.listdir(tmp_path))

    def boom(*args, **kwargs):
        raise OSError("disk on fire")

    if fail_at == "replace":
        monkeypatch.setattr(campaign.os, "replace", boom)
    else:
        monkeypatch.setattr(campaign.yaml, "dump", boom)
    with pytest.raises(OSError, match="disk on fire"):
        save_campaign(FakeState(BIG), path)
    assert path.read_bytes() == b"old: contents\n"
    assert sorted(os.listdir(tmp_path)) == before  # no temporary file left behind


def test_save_replaces_and_keeps_mode(tmp_path):
    path = tmp_path / "march.yaml"
    path.write_text("old: 1\n")
    path.chmod(0o640)
    save_campaign(FakeState(BIG), path)
    assert yaml.safe_load(path.read_text(encoding="utf-8")) == BIG
    assert path.stat().st_mode & 0o777 == 0o640
    assert os.listdir(tmp_path) == ["march.yaml"]


def test_save_load_save_is_byte_identical(tmp_path):
    pytest.importorskip("factionsim.rules.wwn.turn")
    state = load_campaign(write(tmp_path, BASE))
    first, second = tmp_path / "first.yaml", tmp_path / "second.yaml"
    save_campaign(state, first)
    save_campaign(load_campaign(first), second)
    assert first.read_bytes() == second.read_bytes()
    assert load_campaign(second).to_dict() == state.to_dict()
