"""experiments/goal_lifecycle.py reports histories shorter than its windows (issue 24: a
``--turns 3`` run raised IndexError on the empty turns 21-40 window)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "experiments"))
import goal_lifecycle  # noqa: E402


def test_an_empty_window_is_reported_as_such():
    assert goal_lifecycle._boot([(0.0, 0.0), (0.0, 0.0)]) == "- (no turns in this window)"
    assert goal_lifecycle._boot([]) == "- (no turns in this window)"


def test_a_window_with_turns_gets_its_rate_and_interval():
    # 3 goals in 10 faction turns and 1 in 10: 4 goals in 20 turns, 2.00 per 10 turns
    assert goal_lifecycle._boot([(3.0, 10.0), (1.0, 10.0)]).startswith("2.00 [")


def test_the_change_between_windows_is_paired_over_campaigns():
    # each campaign: 2 goals in 10 turns early, 4 in 10 late: +2.00 per 10 turns in every
    # resample; no late turns: no change to report; 1 -> 2 and 3 -> 2: no change over both
    assert goal_lifecycle._boot_change([(2, 10, 4, 10), (2, 10, 4, 10)]) \
        == "2.00 -> 4.00, change +2.00 [+2.00, +2.00]"
    assert goal_lifecycle._boot_change([(2, 10, 0, 0)]) == "- (a window has no turns)"
    assert goal_lifecycle._boot_change([(1, 10, 2, 10), (3, 10, 2, 10)]).startswith(
        "2.00 -> 2.00, change +0.00 [")


def test_a_three_turn_history_is_reported(capsys):
    job = {"locations": 10, "seed": 970000, "agent": "heuristic", "turns": 3}
    goal_lifecycle.report([goal_lifecycle.play_one(job, 0)])
    out = capsys.readouterr().out
    assert "turns 21-40 - (no turns in this window)" in out
    assert "goals per faction per 10 turns:  turns 1-20 " in out
    assert "all but wealth-of-kingdoms   - (a window has no turns)" in out


def test_the_heuristic_notes_its_estimate_of_each_goal_it_chooses():
    """Each goal the heuristic chose carries the turns it estimated when it chose it (the goals
    a campaign starts with carry none), so estimates can be set against the turns goals take."""
    job = {"locations": 10, "seed": 970000, "agent": "heuristic", "turns": 6}
    spans = goal_lifecycle.play_one(job, 0)["spans"]
    chosen = [s for s in spans if s[1] > 0]
    assert chosen and all(guess is not None and guess >= 0 for *_, guess in chosen)
    assert all(guess is None for _, start, *_, guess in spans if start == 0)
