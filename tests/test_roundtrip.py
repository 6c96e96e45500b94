"""A campaign saved over its own text keeps the GM's comments, key order and layout (turn,
record, run, undo), within the same limits on what is read, and byte for byte the same for the
same campaign and seed."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from factionsim.cli import main
from factionsim.configs import default_campaign_path
from factionsim.core.campaign import dump_campaign_data
from factionsim.core.roundtrip import updated_text
from factionsim.core.safeyaml import parse_yaml
from factionsim.rulesets import load_campaign

#: comments in every kind of place a GM writes them
NOTES = {
    "header": "# Session 12 notes: the party owes the Guild a favour.",
    "top_key": "turn: 0  # we started in the spring",
    "faction": "  - id: silver-guild                # medium, Wealth first",
    "between": "  # --- the Veiled Hand: the players do not know it exists yet ---",
    "asset": "      - {type: blackmail, location: the-hollows}  # the mayor's letters",
    "tail": "# Ideas for later: a plague in Ostara.",
}


@pytest.fixture()
def campaign(tmp_path: Path) -> Path:
    text = default_campaign_path().read_text(encoding="utf-8")
    text = NOTES["header"] + "\n" + text.replace("turn: 0\n", NOTES["top_key"] + "\n")
    text = text.replace("  - id: veiled-hand", NOTES["between"] + "\n  - id: veiled-hand")
    text = text.replace("      - {type: blackmail, location: the-hollows}", NOTES["asset"])
    text = text.rstrip("\n") + "\n\n" + NOTES["tail"] + "\n"
    path = tmp_path / "march.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def comments(text: str) -> list[str]:
    """The comments of a text, in order (the part of each line from ``#`` on)."""
    found = (re.search(r"(?:^|\s)(#.*)$", line) for line in text.splitlines())
    return [m.group(1).strip() for m in found if m]


def test_turns_and_records_keep_every_comment_in_its_place(campaign: Path) -> None:
    before = campaign.read_text(encoding="utf-8")
    assert main(["turn", str(campaign), "--turns", "2", "--quiet"]) == 0
    assert main(["record", str(campaign), "treasure", "silver-guild", "+3", "--quiet"]) == 0
    after = campaign.read_text(encoding="utf-8")
    assert comments(after) == comments(before)
    lines = after.splitlines()
    assert lines[0] == NOTES["header"] and lines[-1] == NOTES["tail"]
    assert "turn: 2  # we started in the spring" in lines
    assert NOTES["faction"] in lines
    # the comment between two factions is still just before the second
    assert lines[lines.index(NOTES["between"]) + 1].startswith("  - id: veiled-hand ")
    # the comment on an asset's line stayed on that asset's line (it now carries its id, HP)
    assert any("blackmail" in line and "# the mayor's letters" in line for line in lines)
    # key order: the top-level fields in the order the GM wrote them
    keys = [line.split(":")[0] for line in lines if line and line[0].isalpha()]
    assert keys[:6] == ["ruleset", "name", "seed", "turn", "locations", "relations"]
    assert load_campaign(campaign).turn == 2


def test_undo_gives_back_the_commented_text_byte_for_byte(campaign: Path) -> None:
    before = campaign.read_bytes()
    assert main(["turn", str(campaign), "--quiet"]) == 0
    assert main(["undo", str(campaign), "--quiet"]) == 0
    assert campaign.read_bytes() == before


def test_run_writes_the_comments_into_its_output(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["run", str(campaign), "--turns", "1", "--out", str(out), "--quiet"]) == 0
    assert comments((out / "campaign.yaml").read_text(encoding="utf-8")) == \
        comments(campaign.read_text(encoding="utf-8"))


def test_the_header_new_writes_survives_a_turn(tmp_path: Path) -> None:
    path = tmp_path / "new.yaml"
    assert main(["new", str(path), "--seed", "5", "--quiet"]) == 0
    header = [line for line in path.read_text(encoding="utf-8").splitlines()
              if line.startswith("#")]
    assert header
    assert main(["turn", str(path), "--quiet"]) == 0
    after = path.read_text(encoding="utf-8").splitlines()
    assert after[:len(header)] == header


def test_a_calendar_block_stays_where_the_gm_put_it(tmp_path: Path) -> None:
    text = default_campaign_path().read_text(encoding="utf-8").replace(
        "turn: 0\n", "turn: 0\ncalendar:  # our own months\n  start: {year: 1203}\n")
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    load_campaign(path)  # a valid campaign
    assert main(["turn", str(path), "--quiet"]) == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    at = lines.index("calendar:  # our own months")
    assert lines[at - 1].startswith("turn: 1") and lines[at + 2].startswith("locations:")


def test_the_same_campaign_and_seed_give_the_same_bytes(campaign: Path, tmp_path: Path) -> None:
    """Three turns at once and three turns one at a time write the same campaign file (GM notes
    kept), chronicle and players' chronicle, byte for byte."""
    other = tmp_path / "b" / "march.yaml"
    other.parent.mkdir()
    shutil.copy(campaign, other)
    assert main(["turn", str(campaign), "--turns", "3", "--quiet"]) == 0
    for _ in range(3):
        assert main(["turn", str(other), "--quiet"]) == 0
    for suffix in (".yaml", ".chronicle.md", ".players.md"):
        assert campaign.with_suffix(suffix).read_bytes() == other.with_suffix(suffix).read_bytes()


@pytest.mark.parametrize("data", [
    {"name": "yes", "turn": 1},          # PyYAML reads a plain yes as true: it must be quoted
    {"name": "1_000", "turn": 1},        # ... and 1_000 as a number
    {"name": "x", "turn": 1, "tags": ["on", "null", "~"]},
    {"name": "x", "turn": True},
])
def test_new_values_read_back_as_they_were_written(data: dict) -> None:
    text = updated_text("# notes\nname: x  # a name\nturn: 0\ntags: []\n", data)
    assert parse_yaml(text) == data
    assert text.startswith("# notes\n")


def test_saving_twice_changes_nothing_more(campaign: Path) -> None:
    state = load_campaign(campaign)
    once = updated_text(campaign.read_text(encoding="utf-8"), state.to_dict())
    assert updated_text(once, state.to_dict()) == once


def test_aliases_are_written_out_afresh(tmp_path: Path) -> None:
    # A text with anchors and aliases (one value in two places) cannot keep its layout: changing
    # one place would change the other. It is written afresh, the aliases written out.
    text = default_campaign_path().read_text(encoding="utf-8").replace(
        "- {type: caravan, location: saltmere}", "- &trade {type: caravan, location: saltmere}")
    text = text.replace("- {type: informers, location: saltmere}",
                        "- {type: informers, location: saltmere}\n      - *trade")
    path = tmp_path / "a.yaml"
    path.write_text(text, encoding="utf-8")
    state = load_campaign(path)
    assert updated_text(text, state.to_dict()) == dump_campaign_data(state.to_dict())


def test_the_limits_on_what_is_read_still_hold(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # an alias bomb is refused by the loader before any saving code sees the text
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(8))
    path = tmp_path / "bomb.yaml"
    path.write_text("ruleset: wwn\n" + bomb, encoding="utf-8")
    before = path.read_bytes()
    assert main(["turn", str(path)]) == 2
    assert "limit" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_foundry_import_into_a_campaign_keeps_its_comments(campaign: Path) -> None:
    from foundry_helpers import EXAMPLES, import_into

    before = campaign.read_text(encoding="utf-8")
    import_into(campaign, EXAMPLES[1])
    after = campaign.read_text(encoding="utf-8")
    assert comments(after) == comments(before)
    assert "the-ashen-lantern" in after and load_campaign(campaign).factions["the-ashen-lantern"]
