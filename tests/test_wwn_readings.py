"""Readings of goal clauses the text allows more than one way (docs/rules-wwn.md, "Goals").

Map a - b - c (``ruler`` set per case); x acts first; every die scripted.
"""

from __future__ import annotations

import pytest
from wwn_helpers import ScriptedRng, faction, make_state, play_to

from factionsim.rules.wwn.actions import parse_action


def _do(s, *texts):
    events = []
    for text in texts:
        events += s.apply(parse_action(text))
    return events


# ------------------------------------------------------------------ Root Out the Enemy (item 7)
#: case -> (ruler of b, whether the ruler has collapsed, the XP)
ROOT_OUT = {
    "b ruled by a third faction (8/8/7)": ("z", False, 4),  # average 7.67 -> 8, half 4
    "b ruled by the Base's owner (1/1/2)": ("y", False, 1),  # average 1.33 -> 2, half 1
    "b unruled: the Base's owner": (None, False, 1),
    "b's ruler has collapsed: the Base's owner": ("z", True, 1),
}


@pytest.mark.parametrize("case", ROOT_OUT)
def test_root_out_the_enemy_is_sized_by_the_faction_ruling_the_location(case):
    """6.7.0 Root Out the Enemy: "Destroy a Base of Influence of a rival faction in a specific
    location. Difficulty equal to half the average of the current ruling faction's Force, Cunning,
    and Wealth ratings, rounded up." Reading: the ruling faction is the location's living ruler;
    where the location has none, the owner of the Base. y (1/1/2) owns the Base at b; z is 8/8/7."""
    ruler, collapsed, xp = ROOT_OUT[case]
    locations = [{"id": "a", "neighbors": ["b"]}, {"id": "b", "neighbors": ["c"], "ruler": ruler},
                 {"id": "c"}]
    s = make_state([
        faction("x", goal={"id": "root-out-the-enemy", "target": "y@b"},
                assets=[{"type": "infantry", "location": "b"}]),
        faction("y", force=1, cunning=1, wealth=2, headquarters="c",
                assets=[{"type": "base-of-influence", "location": "b", "max_hp": 1}]),
        faction("z", force=8, cunning=8, wealth=7, headquarters="c", alive=not collapsed,
                **({"hp": 0} if collapsed else {})),
    ], locations=locations, relations=[["x", "z", "neutral"], ["y", "z", "neutral"]],
        rng=ScriptedRng(8, 1, *(() if collapsed else (1,)), 9, 1, 2))
    assert s.factions["x"].goal.difficulty == xp
    play_to(s, "action", "x")
    _do(s, "action attack", "attack infantry#1 -> y")   # 9+3 vs 1+1; 1d8 = 2
    assert s.base_of("y", "b") is None
    play_to(s, "goal", "x")
    assert s.factions["x"].xp == xp


# ------------------------------------------------------------------ Eliminate Target (item 11)
@pytest.mark.parametrize("file_turn", [0, 5])
def test_eliminate_target_set_in_a_campaign_file_has_three_turns(file_turn):
    """6.7.0 Eliminate Target: "Choose an undamaged rival Asset. If you destroy it within three
    turns, succeed at a Difficulty 1 goal. If you fail, pick a new goal without suffering the usual
    turn of paralysis." Reading: a goal written in the campaign file counts as chosen at the end of
    the last turn played, so its three turns are the next three played (as a goal chosen in play
    has the three turns after the one it was chosen in)."""
    s = make_state([faction("x", goal={"id": "eliminate-target", "target": "cavalry#1"}),
                    faction("y", headquarters="c", assets=[{"type": "cavalry", "location": "b"}])],
                   rng=ScriptedRng(*([8, 1] * 3)), turn=file_turn)
    x = s.factions["x"]
    assert x.goal.started == file_turn
    for n in (1, 2):
        play_to(s, "goal", "x")
        assert s.current_turn == file_turn + n and x.goal is not None
        _do(s, "keep goal")
    play_to(s, "goal", "x")                      # the third turn's goal step
    assert s.current_turn == file_turn + 3
    assert x.goal is None and x.xp == 0 and "keep goal" not in {str(a) for a in s.legal_actions()}
