"""``factionsim record``: what the PCs did between turns, made through the WWN rules, told in
the chronicles, and one step of the history that ``undo`` and ``redo`` step over."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from factionsim.cli import main
from factionsim.configs import default_campaign_path
from factionsim.core.history import History
from factionsim.rulesets import load_campaign


@pytest.fixture()
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "march.yaml"
    shutil.copy(default_campaign_path(), path)
    return path


def files(path: Path) -> tuple[bytes, ...]:
    stem = path.with_suffix("")
    out = [path.read_bytes()]
    for name in (f"{stem}.chronicle.md", f"{stem}.players.md"):
        p = Path(name)
        out.append(p.read_bytes() if p.exists() else b"")
    return tuple(out)


def record(path: Path, *args: str) -> int:
    return main(["record", str(path), *args, "--quiet"])


def chronicle(path: Path, view: str = "gm") -> str:
    p = History(path).chronicles[view]
    return p.read_text(encoding="utf-8") if p.exists() else ""


# ------------------------------------------------------------------ the rules, record by record
@pytest.mark.parametrize(("asset", "amount", "asset_hp", "faction", "faction_hp"), [
    # "Damage done to a Base of Influence is also done directly to the faction's hit points.
    # Overflow damage is not transmitted, however." (6.6.0, Attack)
    ("knights#1", 5, 11, "iron-legion", 32),           # an ordinary asset: the faction is untouched
    ("base-of-influence#20", 6, 14, "silver-guild", 14),  # a Base: the faction loses as much
])
def test_damage_is_dealt_as_an_attack_deals_it(campaign: Path, asset: str, amount: int,
                                               asset_hp: int, faction: str,
                                               faction_hp: int) -> None:
    assert record(campaign, "damage", asset, str(amount)) == 0
    state = load_campaign(campaign)
    assert state.assets[asset].hp == asset_hp
    assert state.factions[faction].hp == faction_hp


def test_destroying_a_headquarters_base_collapses_its_faction(campaign: Path) -> None:
    # "An asset at 0 HP is destroyed; a faction at 0 HP collapses" (our rules page, from 6.6.0:
    # "Damage done to a Base of Influence is also done directly to the faction's hit points"):
    # the Cult's headquarters Base has the faction's 11 HP, so destroying it ends the Cult.
    assert record(campaign, "destroy", "base-of-influence#22", "--because",
                  "The party burned the temple of Ashfall.") == 0
    state = load_campaign(campaign)
    assert "base-of-influence#22" not in state.assets
    assert not state.factions["ashen-flame"].alive
    gm = chronicle(campaign)
    assert "The party burned the temple of Ashfall." in gm and "collapses" in gm


def test_damage_by_a_faction_counts_toward_its_goal(campaign: Path) -> None:
    # "Blood the Enemy: Inflict a number of hit points of damage on enemy faction assets or
    # bases equal to your faction's total Force, Cunning, and Wealth ratings." The Iron Legion
    # holds that goal; damage it deals (--by) counts, damage the PCs deal does not.
    hostile_asset = "base-of-influence#20"  # the Silver Guild's (20 HP), hostile to the Legion
    assert record(campaign, "damage", hostile_asset, "3") == 0
    assert load_campaign(campaign).factions["iron-legion"].goal.progress == 0
    assert record(campaign, "damage", hostile_asset, "4", "--by", "iron-legion") == 0
    assert load_campaign(campaign).factions["iron-legion"].goal.progress == 4


@pytest.mark.parametrize(("change", "treasure"), [("+10", 18), ("-8", 0)])
def test_treasure_changes_by_the_amount_given(campaign: Path, change: str, treasure: int) -> None:
    assert record(campaign, "treasure", "silver-guild", change) == 0
    assert load_campaign(campaign).factions["silver-guild"].treasure == treasure


def test_move_carries_an_asset_and_respects_forbidden_places(campaign: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    assert record(campaign, "move", "informers#11", "karsa-ford") == 0
    assert load_campaign(campaign).assets["informers#11"].location == "karsa-ford"
    # Bases never move (docs/rules-wwn.md, Move Asset)
    before = files(campaign)
    assert main(["record", str(campaign), "move", "base-of-influence#20", "ostara"]) == 2
    assert "never move" in capsys.readouterr().err
    assert files(campaign) == before


def test_goal_is_set_up_as_a_goal_written_in_the_file(campaign: Path) -> None:
    # "Blood the Enemy: Inflict a number of hit points of damage ... equal to your faction's
    # total Force, Cunning, and Wealth ratings. Difficulty 2." The Silver Guild is 2/4/6: 12.
    assert record(campaign, "goal", "silver-guild", "blood-the-enemy") == 0
    goal = load_campaign(campaign).factions["silver-guild"].goal
    assert (goal.id, goal.needed, goal.progress, goal.difficulty) == ("blood-the-enemy", 12, 0, 2)
    # "Sphere Dominance ... " names an attribute: without one the record is refused
    assert record(campaign, "goal", "silver-guild", "sphere-dominance") == 2
    assert record(campaign, "goal", "silver-guild", "sphere-dominance", "wealth") == 0
    assert load_campaign(campaign).factions["silver-guild"].goal.target == "wealth"


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize(("args", "words"), [
    (["damage", "knigts#1", "2"], ["ASSET 'knigts#1'", "did you mean 'knights#1'"]),
    (["damage", "knights#1", "0"], ["AMOUNT 0", "at least 1"]),
    (["treasure", "silver-guild", "-9"], ["CHANGE -9", "8 Treasure", "allowed: -8 or more"]),
    (["treasure", "silver-gild", "+1"], ["FACTION 'silver-gild'", "living factions: iron-legion"]),
    (["move", "informers#11", "atlantis"], ["LOCATION 'atlantis'", "locations: tarsis"]),
    (["goal", "silver-guild", "blood"], ["GOAL 'blood'", "goals: blood-the-enemy"]),
    (["goal", "silver-guild", "root-out-the-enemy", "nobody@vell"],
     ["factions[1].goal.target", "unknown faction 'nobody'", "as this record would leave it"]),
    (["damage", "knights#1", "2", "--by", "nobody"], ["--by 'nobody'", "living factions"]),
    (["frobnicate"], ["record 'frobnicate'", "damage, destroy, treasure, move, goal, note"]),
])
def test_a_bad_record_names_the_argument_and_the_allowed_values_and_changes_nothing(
        campaign: Path, capsys: pytest.CaptureFixture[str], args: list[str],
        words: list[str]) -> None:
    before = files(campaign)
    assert main(["record", str(campaign), *args]) == 2
    err = capsys.readouterr().err
    for word in words:
        assert word in err, (word, err)
    assert "Traceback" not in err
    assert files(campaign) == before
    assert not History(campaign).dir.exists()


def test_a_turn_saved_in_progress_is_refused(campaign: Path, capsys: pytest.CaptureFixture[str]
                                             ) -> None:
    from factionsim.core.campaign import save_campaign

    state = load_campaign(campaign)
    state.apply(state.legal_actions()[0])  # the turn is under way
    save_campaign(state, campaign)
    assert main(["record", str(campaign), "note", "x"]) == 2
    assert "in progress" in capsys.readouterr().err


# ------------------------------------------------------------------ history and chronicles
def test_undo_steps_back_over_records_and_redo_replays_them_byte_for_byte(campaign: Path) -> None:
    start = files(campaign)
    assert main(["turn", str(campaign), "--quiet"]) == 0
    after_turn = files(campaign)
    assert record(campaign, "damage", "knights#1", "3") == 0
    assert record(campaign, "note", "The party toasted the Legion's health.") == 0
    after_records = files(campaign)
    assert History(campaign).steps() == [(0, 0), (1, 0), (1, 1), (1, 2)]
    assert main(["undo", str(campaign), "--quiet", "--turns", "2"]) == 0
    assert files(campaign) == after_turn
    assert main(["redo", str(campaign), "--quiet", "--turns", "2"]) == 0
    assert files(campaign) == after_records
    assert main(["undo", str(campaign), "--quiet", "--turns", "3"]) == 0
    assert files(campaign)[0] == start[0]


def test_a_turn_after_records_plays_from_them_and_a_new_record_drops_the_redo_stack(
        campaign: Path) -> None:
    assert record(campaign, "treasure", "iron-legion", "+5") == 0
    assert main(["turn", str(campaign), "--quiet"]) == 0
    assert History(campaign).steps() == [(0, 0), (0, 1), (1, 0)]
    gm = chronicle(campaign)
    assert gm.index("record 1 -->") < gm.index("<!-- factionsim turn 1 -->")
    main(["undo", str(campaign), "--quiet", "--turns", "2"])
    assert record(campaign, "note", "A quiet month.") == 0
    assert History(campaign).steps() == [(0, 0), (0, 1)]
    assert "A quiet month." in chronicle(campaign) and "Treasure goes" not in chronicle(campaign)


def test_the_same_records_and_turns_give_byte_identical_files(tmp_path: Path,
                                                              campaign: Path) -> None:
    other = tmp_path / "again" / "march.yaml"
    other.parent.mkdir()
    shutil.copy(campaign, other)
    for path in (campaign, other):
        assert record(path, "damage", "infantry#2", "2") == 0
        assert main(["turn", str(path), "--turns", "2", "--quiet"]) == 0
    assert files(campaign) == files(other)


def test_the_players_read_only_what_the_rules_let_them_see(campaign: Path) -> None:
    text = campaign.read_text(encoding="utf-8")
    campaign.write_text(text.replace("{type: blackmail, location: the-hollows}",
                                     "{type: blackmail, location: the-hollows, stealth: true}"),
                        encoding="utf-8")
    assert record(campaign, "damage", "blackmail#13", "1", "--because", "SECRET-ONE") == 0
    assert record(campaign, "treasure", "silver-guild", "+3", "--because", "SECRET-TWO") == 0
    assert record(campaign, "note", "SECRET-THREE", "--secret") == 0
    assert record(campaign, "damage", "knights#1", "1", "--because", "PUBLIC-ONE") == 0
    assert record(campaign, "note", "PUBLIC-TWO") == 0
    gm, players = chronicle(campaign), chronicle(campaign, "players")
    for word in ("SECRET-ONE", "SECRET-TWO", "SECRET-THREE", "PUBLIC-ONE", "PUBLIC-TWO"):
        assert word in gm
    for word in ("SECRET-ONE", "SECRET-TWO", "SECRET-THREE", "Blackmail", "Treasure"):
        assert word not in players
    assert "PUBLIC-ONE" in players and "PUBLIC-TWO" in players and "Knights" in players


def test_json_output_and_the_note_of_any_ruleset(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "houses.yaml"
    shutil.copy(default_campaign_path("houses"), path)
    assert main(["record", str(path), "note", "The", "heir", "was", "crowned.", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["record"] == "note" and out["summary"] == "The heir was crowned." and out["public"]
    assert "The heir was crowned." in chronicle(path, "players")
    assert main(["record", str(path), "damage", "x", "1"]) == 2
    assert "the houses ruleset records: note" in capsys.readouterr().err


# ------------------------------------------------------------------ one writer, whole records
def test_a_record_waits_for_no_one_while_another_command_writes(campaign: Path, tmp_path: Path
                                                                ) -> None:
    import os
    import sys

    from file_safety_helpers import in_child

    from factionsim.core.lock import campaign_lock

    before = files(campaign)
    err = tmp_path / "err.txt"

    def run() -> int:
        with open(err, "w") as sys.stderr:
            return main(["record", str(campaign), "note", "x"])

    with campaign_lock(campaign):
        assert in_child(run) == 2
    message = err.read_text()
    assert f"another factionsim command is writing {campaign} (pid {os.getpid()})" in message
    assert files(campaign) == before


@pytest.mark.parametrize("step", range(8))
def test_a_record_killed_at_any_moment_is_whole_or_absent(tmp_path: Path, step: int) -> None:
    from file_safety_helpers import CRASHED, crash_at, in_child

    from factionsim.core.lock import campaign_lock

    campaign = tmp_path / "march.yaml"
    shutil.copy(default_campaign_path(), campaign)
    original = campaign.read_text(encoding="utf-8")

    def run() -> int:
        crash_at(step)
        return main(["record", str(campaign), "note", "KILLED-NOTE", "--quiet"])

    assert in_child(run) in (0, CRASHED)
    history = History(campaign)
    with campaign_lock(campaign):
        history.recover()
    text = campaign.read_text(encoding="utf-8")
    if text == original:  # absent: no trace of it
        assert "KILLED-NOTE" not in chronicle(campaign) and (0, 1) not in history.steps()
    else:  # whole: the file, its snapshot, HEAD and the chronicle agree
        assert history.snapshot((0, 1)) == text and history.head_step == (0, 1)
        assert "KILLED-NOTE" in chronicle(campaign)
