"""``experiments/seat_shares.py``: an agent alone at one seat, the baseline at the others, next
to the baseline everywhere, on the same dice."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "experiments"))
import seat_shares  # noqa: E402


def test_the_baseline_against_itself_gains_nothing_at_any_seat():
    """"game ``g`` of both on the same dice": with the baseline as the agent too, every game of
    a seat is the baseline's own game, so each faction's share is the same and the gain 0."""
    args = seat_shares.Args(agent="heuristic", games=2, turns=2, workers=1)
    report = seat_shares.seat_shares(args)
    rows = report["seats"]
    assert [r["faction"] for r in rows] == ["iron-legion", "silver-guild", "veiled-hand",
                                           "ashen-flame"]
    assert all(r["gain"] == 0 and r["agent_share"] == r["baseline_share"] for r in rows)
    assert abs(sum(r["baseline_share"] for r in rows) - 1.0) < 0.005  # ties shared (rounded)


def test_the_agent_sits_alone_at_the_seat_it_is_measured_at(monkeypatch):
    """Each seat's games give the agent that faction alone; the baseline's games none."""
    seen = []
    real = seat_shares.play_one

    def spy(job, item):
        seen.append(item[0])
        return real(job, item)

    monkeypatch.setattr(seat_shares, "play_one", spy)
    seat_shares.seat_shares(seat_shares.Args(agent="random", games=1, turns=1, workers=1))
    assert seen == [None, "iron-legion", "silver-guild", "veiled-hand", "ashen-flame"]
