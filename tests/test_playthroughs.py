"""Golden playthroughs: every bundled campaign still plays its fixed-seed game exactly as recorded
in ``tests/playthroughs/`` (see ``tests/playthrough.py``; regenerate with
``python -m tests.playthrough --regen`` or ``pytest --regen-playthroughs`` when a change of outcome
is intended, and explain it in the commit)."""

from __future__ import annotations

import playthrough
import pytest


@pytest.mark.parametrize("campaign", playthrough.bundled_campaigns())
def test_bundled_campaign_plays_as_recorded(campaign, request):
    fresh = playthrough.record(campaign)
    if request.config.getoption("--regen-playthroughs"):
        playthrough.recording_path(campaign).write_text(fresh, encoding="utf-8")
        return
    problem = playthrough.difference(campaign, fresh)
    assert problem is None, problem


def test_a_recording_is_the_same_twice():
    """Same campaign, same seeds: byte-identical recordings (what makes them golden)."""
    campaign = playthrough.bundled_campaigns()[-1]
    assert playthrough.record(campaign) == playthrough.record(campaign)


def test_a_changed_game_is_reported_with_its_first_difference(tmp_path, monkeypatch):
    monkeypatch.setattr(playthrough, "HERE", tmp_path)
    campaign = playthrough.bundled_campaigns()[0]
    assert "is missing" in playthrough.difference(campaign, "x\n")
    playthrough.recording_path(campaign).write_text("start digest=0\nend\n")
    problem = playthrough.difference(campaign, "start digest=1\nend\n")
    assert "no longer plays as recorded" in problem and "-start digest=0" in problem \
        and "+start digest=1" in problem and "--regen" in problem
