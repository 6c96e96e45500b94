"""A ruleset added as docs/architecture.md says (tests/toy_ruleset.py: Nim, one descriptor) works
with every command once it is in the registry, with no other change anywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import toy_ruleset

from factionsim import load_campaign
from factionsim.cli import main
from factionsim.core.game import CampaignError
from factionsim.rulesets import RULESETS


@pytest.fixture
def nim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The toy registered (the recipe's one line) and a campaign file of it."""
    monkeypatch.setitem(RULESETS, "nim", toy_ruleset.RULESET)
    path = tmp_path / "stones.yaml"
    path.write_text(toy_ruleset.CAMPAIGN, encoding="utf-8")
    return path


def test_the_toy_loads_validates_and_runs(nim: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    state = load_campaign(nim)
    assert isinstance(state, toy_ruleset.NimState) and state.pile == 21
    assert main(["validate", str(nim)]) == 0
    assert "valid nim campaign 'A Pile of Stones', turn 0, 2 factions" in capsys.readouterr().out
    out = tmp_path / "out"
    assert main(["run", str(nim), "--turns", "3", "--out", str(out), "--quiet"]) == 0
    assert "Takes" in (out / "chronicle.md").read_text()
    after = load_campaign(out / "campaign.yaml")
    assert after.turn == 3 and after.pile < 21


def test_the_toy_plays_turn_by_turn_with_history_show_and_report(
        nim: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["turn", str(nim), "--turns", "2", "--quiet"]) == 0
    assert main(["show", str(nim)]) == 0
    assert "A Pile of Stones: after turn 2" in capsys.readouterr().out
    assert main(["report", str(nim), "--quiet"]) == 0
    report = nim.with_name("stones.report.html").read_text()
    assert "Stones taken" in report and "Takes" in report
    assert main(["undo", str(nim), "--quiet"]) == 0
    assert load_campaign(nim).turn == 1


def test_the_toy_in_a_tournament_and_a_batch(nim: Path, tmp_path: Path) -> None:
    from factionsim.batch import run_batch
    from factionsim.tournament import run_tournament

    result = run_tournament(["random", "idle"], games=2, campaign=str(nim), turns=20)
    assert result["games"] == 2 and sum(a["wins"] for a in result["agents"].values()) == 2
    summary = run_batch(str(nim), runs=2, turns=20, out=tmp_path / "b")
    assert summary["ruleset"] == "nim"
    assert json.loads((tmp_path / "b" / "summary.json").read_text())["runs"] == 2


def test_the_toy_offers_only_the_agents_it_declares(nim: Path) -> None:
    nim.write_text(toy_ruleset.CAMPAIGN.replace("agent: random}", "agent: planner}", 1))
    with pytest.raises(CampaignError, match=r"players\[0\]\.agent: unknown agent 'planner'; "
                                            r"the nim ruleset offers: idle, manual, random"):
        load_campaign(nim)


def test_the_toy_keeps_the_contract_checked_on_every_ruleset(nim: Path, monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """tests/test_contract.py's checks, run on the toy as they run on every registered ruleset:
    random games to the end, save/load through YAML at every decision, copies, views, texts."""
    import contract_play

    monkeypatch.setitem(contract_play.CAMPAIGNS, "nim", nim)
    info = toy_ruleset.RULESET
    assert sum(contract_play.play_game(info, 5, g) for g in range(20)) > 0
    assert contract_play.play_reloading(info, 5, 0) > 0
    assert contract_play.play_inspecting(info, 5, 1)[0] > 0
