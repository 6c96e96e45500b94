"""GM control: interactive review through stdin, manual factions, show, JSON output."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from factionsim import load_campaign
from factionsim.agents import make_agent
from factionsim.agents.manual import GmReview, ManualAgent
from factionsim.cli import main
from factionsim.configs import default_campaign_path
from factionsim.core.history import History


class ReadingGm:
    """A GM at the keyboard: reads what was printed since the last answer (``prompt``) and
    answers ``answer(prompt)``; ``seen`` keeps everything printed."""

    def __init__(self, capsys: pytest.CaptureFixture[str], answer: Any, limit: int = 2000):
        self.capsys, self.answer, self.seen, self.left = capsys, answer, "", limit

    def readline(self) -> str:
        prompt = self.capsys.readouterr().out
        self.seen += prompt
        self.left -= 1
        return self.answer(prompt) + "\n" if self.left > 0 else ""


@pytest.fixture()
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "march.yaml"
    shutil.copy(default_campaign_path(), path)
    return path


def test_interactive_turn_applies_the_gms_choice(campaign: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # The GM makes every faction pass when asked for its action, and accepts every other plan.
    gm = ReadingGm(capsys, lambda prompt: "e action pass" if "action step, plans:" in prompt
                   else "a")
    monkeypatch.setattr("sys.stdin", gm)
    assert main(["turn", str(campaign), "--interactive", "--quiet"]) == 0
    out = gm.seen + capsys.readouterr().out
    assert "plans:" in out and "reason:" in out
    events = History(campaign).events(1)
    actions = [e.data["action"] for e in events if e.kind == "action"]
    assert actions and set(actions) == {"pass"}
    vetoes = [e for e in events if e.kind == "gm-veto"]
    assert all(v.data["chosen"] == "action pass" for v in vetoes)
    if vetoes:
        assert "GM veto" in campaign.with_name("march.chronicle.md").read_text()
        assert "GM veto" not in campaign.with_name("march.players.md").read_text()


def test_input_ending_leaves_the_campaign_unchanged(campaign: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    before = campaign.read_bytes()
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n"))
    assert main(["turn", str(campaign), "--interactive"]) == 2
    assert "input ended" in capsys.readouterr().err
    assert campaign.read_bytes() == before


def test_manual_faction_waits_for_the_gm(campaign: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    campaign.write_text(re.sub(r"agent: \w+", "agent: manual", campaign.read_text(), count=1))
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 300))
    assert main(["turn", str(campaign), "--quiet"]) == 0
    assert "your decision" in capsys.readouterr().out
    assert load_campaign(campaign).turn == 1


def test_re_plan_asks_for_another_action_and_records_a_veto() -> None:
    state = load_campaign(default_campaign_path())
    out = io.StringIO()
    agent = GmReview(make_agent("random", "wwn"), input=io.StringIO("r\na\n"), output=out,
                     ask_always=True)  # whatever it plans first, "done" included
    actor = state.current_actor()
    legal = state.legal_actions()
    chosen = agent.act(state.view(actor), legal, np.random.default_rng(0))
    assert chosen in legal
    assert "new plan" in out.getvalue()
    assert [e.kind for e in agent.pending_events] == ["gm-veto"]
    assert agent.pending_events[0].data["chosen"] == str(chosen)


def test_manual_agent_reads_text_or_number() -> None:
    agent = ManualAgent(input=io.StringIO("nonsense\nhide x#1\n"), output=io.StringIO())
    assert agent.act(None, ["done", "hide x#1"], None) == "hide x#1"


def test_show_prints_factions_assets_and_goals(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", str(campaign)]) == 0
    out = capsys.readouterr().out
    for text in ("FACTIONS", "GOALS", "ASSETS BY LOCATION", "The Iron Legion", "Tarsis", "Knights",
                 "Treasure"):
        assert text in out
    assert main(["show", str(campaign), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {f["id"] for f in data["factions"]} >= {"iron-legion", "silver-guild"}


def test_turn_json_summary(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["turn", str(campaign), "--turns", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["turns_played"] == 2 and data["turn"] == 2
    assert set(data["factions"]) == {"iron-legion", "silver-guild", "veiled-hand", "ashen-flame"}
