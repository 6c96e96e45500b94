"""Undo / redo of a campaign file advanced in place: byte-identical files, the same dice."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from factionsim.cli import main
from factionsim.configs import default_campaign_path
from factionsim.core.history import History


@pytest.fixture()
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "march.yaml"
    shutil.copy(default_campaign_path(), path)
    return path


def files(path: Path) -> tuple[bytes, bytes, bytes]:
    stem = path.with_suffix("")
    return (path.read_bytes(), Path(f"{stem}.chronicle.md").read_bytes(),
            Path(f"{stem}.players.md").read_bytes())


def test_turn_undo_redo_round_trips_byte_identical(campaign: Path) -> None:
    original = campaign.read_bytes()
    seen = []
    for _ in range(3):
        assert main(["turn", str(campaign), "--quiet"]) == 0
        seen.append(files(campaign))
    assert b"turn: 3" in seen[-1][0]
    assert main(["undo", str(campaign), "--quiet"]) == 0
    assert files(campaign) == seen[1]
    assert main(["undo", str(campaign), "--turns", "2", "--quiet"]) == 0
    assert campaign.read_bytes() == original
    assert main(["redo", str(campaign), "--quiet"]) == 0
    assert files(campaign) == seen[0]
    assert main(["redo", str(campaign), "--turns", "5", "--quiet"]) == 0
    assert files(campaign) == seen[2]
    assert main(["redo", str(campaign), "--quiet"]) == 2  # nothing left to redo


def test_playing_again_after_undo_rolls_the_same_dice(campaign: Path) -> None:
    assert main(["turn", str(campaign), "--turns", "2", "--quiet"]) == 0
    after_two = files(campaign)
    events_two = History(campaign).events_path(2).read_bytes()
    assert main(["undo", str(campaign), "--quiet"]) == 0
    assert main(["turn", str(campaign), "--quiet"]) == 0
    assert files(campaign) == after_two
    assert History(campaign).events_path(2).read_bytes() == events_two


def test_new_turn_after_undo_drops_the_redo_stack(campaign: Path) -> None:
    main(["turn", str(campaign), "--turns", "2", "--quiet"])
    main(["undo", str(campaign), "--turns", "2", "--quiet"])
    assert History(campaign).turns() == [0, 1, 2]
    main(["turn", str(campaign), "--quiet"])
    assert History(campaign).turns() == [0, 1]


def test_undo_without_history_is_a_clean_error(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["undo", str(campaign)]) == 2
    assert "no history" in capsys.readouterr().err
    main(["turn", str(campaign), "--quiet"])
    main(["undo", str(campaign), "--quiet"])
    assert main(["undo", str(campaign)]) == 2
    assert "nothing to undo" in capsys.readouterr().err


def test_hand_edits_survive_undo_then_redo(campaign: Path) -> None:
    main(["turn", str(campaign), "--quiet"])
    edited = campaign.read_text().replace("name: The Shattered March", "name: The Edited March")
    campaign.write_text(edited)
    main(["undo", str(campaign), "--quiet"])
    main(["redo", str(campaign), "--quiet"])
    assert campaign.read_text() == edited
