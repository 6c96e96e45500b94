"""The chronicles of the three smaller rulesets: grammatical sentences, and a closing line that
tells how the game ended and who won (issue 20, item 16)."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from factionsim.agents import make_agent
from factionsim.chronicle.markdown import describe, render_markdown
from factionsim.configs import default_campaign_path
from factionsim.core.game import Event
from factionsim.core.names import Names
from factionsim.rulesets import load_campaign
from factionsim.runner import play

#: wording slips: a count that disagrees with its noun, "Its the ...", "a" before a vowel, "(s)"
SLIPS = [
    r"\b1 (dice|pillars|wounds|circles|successes|levels|rerolls|assets|complications|seasons|"
    r"rounds|hitches|heights|steps)\b",
    r"\b([02-9]|\d\d+) (die|pillar|wound|circle|level|reroll|asset|complication|season|round|"
    r"hitch|step)\b",
    r"\bIts the\b",
    r"\ba [AEIOUaeiou]\w",
    r"\w\(s\)",
]
ENDINGS = (r"\*\*The game ends after \d+ (seasons|rounds)", r"\*\*.+ wins the conflict\*\*",
           r"\*\*After \d+ rounds, the scenario's limit, the conflict stops undecided")


def chronicle(ruleset: str, agent: str, seed: int) -> str:
    s = load_campaign(default_campaign_path(ruleset))
    s.rng = np.random.default_rng(seed)
    s.max_turns = s.max_turns or 12
    events = play(s, 100, {f: make_agent(agent, s.ruleset) for f in s.factions})
    assert s.is_over()
    return render_markdown(events, Names.from_state(s))


@pytest.mark.parametrize("ruleset", ["houses", "engagements", "conflict"])
@pytest.mark.parametrize("agent, seed", [("random", 1), ("heuristic", 2)])
def test_chronicles_read_well_and_tell_how_the_game_ended(ruleset, agent, seed):
    md = chronicle(ruleset, agent, seed)
    for slip in SLIPS:
        assert not re.search(slip, md), (slip, re.search(slip, md))
    last = md.rstrip().splitlines()[-1]
    assert any(re.search(p, last) for p in ENDINGS), last


@pytest.mark.parametrize("ruleset, kind, data, faction, sentence", [
    ("engagements", "draw", {"n": 0, "against": "b", "pool_left": 0, "dice": 1, "pillars": [],
                             "counter": True}, "a",
     "Counters with  and draws no engagement dice: 1 die in all."),
    ("engagements", "counter", {"against": "b", "pillars": [], "dice": 1}, "a",
     "Counters against B with  (1 die from competence)."),
    ("houses", "recovered", {"what": "complication:hitch", "before": 6, "after": 0, "effect": 8},
     "a", "The setbacks of its hitches ease d6 -> none (effect d8)."),
    ("houses", "recovered", {"what": "stress", "before": 8, "after": 6, "effect": 6}, "a",
     "Its Stress eases d8 -> d6 (effect d6)."),
    ("conflict", "tie", {"char": "ash", "skill": "impose", "choice": "fail", "bonus": 1}, "a",
     "Ash ties an Impose check and chooses to fail with an opportunity (+1 TN next roll)."),
])
def test_the_wording_slips_the_issue_found(ruleset, kind, data, faction, sentence):
    """"1 dice", "Its the setbacks of its hitches eases", "a Impose" (issue 20, item 16)."""
    names = Names({"a": "A", "b": "B"}, {}, {"ash": "Ash"}, ruleset)
    assert describe(Event(1, kind, faction, data), names) == sentence


@pytest.mark.parametrize("seed", [2, 7])
def test_the_wwn_chronicle_and_its_reasons_read_well(seed):
    """The main ruleset too, with the heuristic's reasons (the italic lines): "1 blow(s) it
    expects to win" and "for 1 Wealth asset(s) beyond its rating" were slips of this kind."""
    md = chronicle("wwn", "heuristic", seed)
    assert "  - *" in md  # the reasons are in it
    for slip in SLIPS:
        assert not re.search(slip, md), (slip, re.search(slip, md))


@pytest.mark.parametrize("seed", [2, 7])
def test_a_move_action_reason_names_the_move_that_follows(seed):
    """"Chooses to move. Redeploys: sends its Thugs to Vell" followed by "Moves its Blackmail to
    Ashfall" (the README's quick start, turn 7): when two moves were worth the same, the reason
    named the last in id order and the faction made the first. The Move action's reason now
    names the move the faction then makes first."""
    s = load_campaign(default_campaign_path("wwn"))
    s.rng = np.random.default_rng(seed)
    events = play(s, 12, {f: make_agent("heuristic", "wwn") for f in s.factions})
    decisions = [e for e in events if e.kind == "decision"]
    checked = 0
    for chosen, first in itertools.pairwise(decisions):
        reason = chosen.data.get("reason", "")
        if chosen.data.get("action") == "action move" and reason.startswith("redeploys: "):
            assert first.faction == chosen.faction and first.data["action"].startswith("move ")
            assert first.data["reason"] == reason.removeprefix("redeploys: "), (chosen, first)
            checked += 1
    assert checked >= 5


@pytest.mark.parametrize("success, sentence", [
    (True, "Outwits B, which cannot strike at the new Base (1d10 [9] +4 = 13 vs 1d10 [3] +3 = 6)."),
    (False, "Fails to outwit B, which may strike at the new Base (1d10 [2] +4 = 6 vs 1d10 [8] +3 = "
            "11)."),
])
def test_the_expand_check_names_whose_roll_comes_first(success, sentence):
    """"Once the Base of Influence is created, the owner makes a Cunning versus Cunning attribute
    check against every other faction that has at least one Asset in the same location. If the
    other faction wins the check, they are allowed to make an immediate Attack against the new
    Base". The check's first roll is the owner's, so the sentence is the owner's: it read "The
    Iron Legion fails to oppose the new Base (... = 13 vs ... = 6)", as if 13 were the Legion's."""
    own, rival = ([9], [3]) if success else ([2], [8])
    check = {"rival": "b", "location": "x", "success": success,
             "attacker_check": {"attribute": "cunning", "rating": 4, "roll": own,
                                "total": own[0] + 4},
             "defender_check": {"attribute": "cunning", "rating": 3, "roll": rival,
                                "total": rival[0] + 3}}
    names = Names({"a": "A", "b": "B"}, {}, {}, "wwn")
    assert describe(Event(1, "expand-check", "a", check), names) == sentence
