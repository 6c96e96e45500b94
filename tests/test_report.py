"""The HTML report is one self-contained file; the players' view hides Stealthed operations."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from wwn_helpers import generated_and_played

from factionsim.chronicle.views import visible_events
from factionsim.cli import main
from factionsim.core.history import History
from factionsim.rules.wwn.visibility import stealthed_assets


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated campaign played 12 turns by random agents (some hide and reveal assets)."""
    return generated_and_played(tmp_path_factory.mktemp("report") / "camp.yaml", 12,
                                "--seed", "8", "--agent", "random")


def test_report_is_one_self_contained_file(played: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert main(["report", str(played), "-o", str(out), "--quiet"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.I)  # no URL at all
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=", text)  # nothing loaded from elsewhere
    assert text.count('class="frame"') == 13  # turns 0..12
    assert 'type="range"' in text and "<svg" in text
    for heading in ("Over time", "The map, turn by turn", "Timeline", "Chronicle"):
        assert heading in text
    assert "Turn 12" in text


def test_players_view_contains_nothing_stealthed(played: Path) -> None:
    history = History(played)
    gm = played.with_name("camp.chronicle.md").read_text()
    players = played.with_name("camp.players.md").read_text()
    hidden_seen = 0
    for t in range(1, 13):
        events = history.events(t)
        hidden = stealthed_assets(history.snapshot_data(t - 1))
        secret = hidden | {e.data["asset"] for e in events if e.kind == "hide"
                           or (e.kind == "create" and e.data.get("stealth"))}
        hidden_seen += len(secret)
        for e in visible_events("wwn", events, "players", history.snapshot_data(t - 1)):
            assert e.kind not in ("hide", "decision", "gm-veto")
            assert not (e.kind == "create" and e.data.get("stealth"))
    assert hidden_seen > 0, "the fixture campaign should hide something"
    assert "Hides its" in gm or "in secret" in gm
    assert "Hides its" not in players and "in secret" not in players


def test_players_report_hides_stealthed_assets(played: Path, tmp_path: Path) -> None:
    out = tmp_path / "players.html"
    assert main(["report", str(played), "--players", "-o", str(out), "--quiet"]) == 0
    assert "(stealthed)" not in out.read_text()


def test_report_of_a_campaign_without_history(tmp_path: Path) -> None:
    from factionsim.configs import default_campaign_path

    path = tmp_path / "fresh.yaml"
    shutil.copy(default_campaign_path(), path)
    assert main(["report", str(path), "--quiet"]) == 0
    assert path.with_name("fresh.report.html").read_text().count('class="frame"') == 1
    assert "No turn played yet." in path.with_name("fresh.report.html").read_text()


def test_report_of_a_run_output_says_its_turns_were_not_recorded(
        played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``factionsim run --out DIR`` writes ``DIR/campaign.yaml`` without a history folder (its
    turns go to ``events.jsonl`` and ``chronicle.md``): its report used to say "No turn played
    yet." of a campaign at turn 3. It now says why no turn is shown, in the page and on stderr;
    a campaign played with ``turn`` gets no such note."""
    out = tmp_path / "out"
    assert main(["run", "--turns", "3", "--seed", "2", "--out", str(out), "--quiet"]) == 0
    assert main(["report", str(out / "campaign.yaml")]) == 0
    text = (out / "campaign.report.html").read_text()
    assert "No turn played yet." not in text and "No key events yet." not in text
    assert text.count("at turn 3, but none of its turns was recorded beside it") == 2
    assert "campaign.yaml.history/" in text and "factionsim run --out" in text
    assert "none of its turns was recorded" in capsys.readouterr().err
    report = tmp_path / "played.html"
    assert main(["report", str(played), "-o", str(report)]) == 0
    assert "none of its turns was recorded" not in report.read_text() + capsys.readouterr().err


def test_events_of_a_run_output_say_its_turns_were_not_recorded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``events`` of ``run --out``'s campaign printed nothing, silently; it now says why."""
    out = tmp_path / "out"
    assert main(["run", "--turns", "2", "--seed", "2", "--out", str(out), "--quiet"]) == 0
    assert main(["events", str(out / "campaign.yaml")]) == 0
    printed = capsys.readouterr()
    assert printed.out == "" and "at turn 2, but none of its turns was recorded" in printed.err
    assert main(["events", str(out / "campaign.yaml"), "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_how_to_read_the_map_is_shown_only_with_a_map(played: Path, tmp_path: Path) -> None:
    """The map's legend ("Each badge is a faction at that place: ■N is a Base of Influence...")
    and its details box belong to WWN's map; a ruleset without a map (houses) showed them above
    nothing. Its turn panels now take the row."""
    from factionsim.configs import default_campaign_path

    houses = tmp_path / "houses.yaml"
    shutil.copy(default_campaign_path("houses"), houses)
    assert main(["turn", str(houses), "--quiet"]) == 0
    for path, has_map in ((houses, False), (played, True)):
        out = tmp_path / f"{path.stem}.html"
        assert main(["report", str(path), "-o", str(out), "--quiet"]) == 0
        text = out.read_text()
        assert ("Each badge is a faction at that place" in text) is has_map
        assert ('id="map-info"' in text) is has_map
        assert ('id="map"' in text) is has_map
        assert 'data-frame="1"' in text  # the turn panels are there either way
