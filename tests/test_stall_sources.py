"""experiments/stall_sources.py sorts stalled faction turns as ``factionsim batch`` counts them
(factionsim/rules/wwn/behaviour.py), telling a pass the agent chose from one the rules applied
because it was the only legal action."""

from __future__ import annotations

import sys
from pathlib import Path

from factionsim.core.game import Event

sys.path.insert(0, str(Path(__file__).parents[1] / "experiments"))
import stall_sources  # noqa: E402


def turn(*events):
    return [Event(7, "faction-turn", "us", {}), Event(7, "income", "us", {"amount": 1}), *events]


PASS = Event(7, "action", "us", {"action": "pass"})


def test_each_stall_gets_its_source():
    why = Event(7, "decision", "us", {"reason": "holds its hand: 3 reasons"})
    assert stall_sources._source("us", turn(why, PASS), {}) == \
        "idle pass, chosen: holds its hand: N reasons"
    assert stall_sources._source("us", turn(PASS), {}).startswith("idle pass, forced")
    assert stall_sources._source("us", turn(Event(7, "paralysed", "us", {})),
                                 {"us": "Root Out the Enemy (its target Base is gone)"}) == \
        "paralysed: Root Out the Enemy (its target Base is gone)"
    move = Event(7, "action", "us", {"action": "move"})
    assert stall_sources._source("us", turn(move), {}) == "empty action: move"


def test_turns_that_did_something_are_no_stall():
    move = Event(7, "action", "us", {"action": "move"})
    moved = Event(7, "move", "us", {"asset": "thugs#1", "to": "b"})
    assert stall_sources._source("us", turn(move, moved), {}) is None
    bribe = Event(7, "bribe", "us", {"amount": 3})  # Wealth of Kingdoms: the goal's work
    assert stall_sources._source("us", turn(PASS, bribe), {}) is None


def test_a_move_that_only_undoes_the_last_one_is_a_shuffle():
    """A Move whose moves only trade places (back where the previous turn's move came from)."""
    move = Event(7, "action", "us", {"action": "move"})
    back = Event(7, "move", "us", {"asset": "thugs#1", "from": "b", "to": "a"})
    assert stall_sources._source("us", turn(move, back), {}, [("thugs#1", "a", "b")]) \
        .startswith("shuffle")
    assert stall_sources._source("us", turn(move, back), {}, [("thugs#1", "c", "b")]) is None
