"""When the heuristic's Informers search (issue 24: 55 searches, 1 reveal in 40 turns of the
bundled campaign when it searched whenever a rival was offered).

"Informers: As a free action, once per turn, the faction can spend 1 Treasure and have the
Informers look for Stealthed Assets. To do so, the Informers pick a faction and make a Cunning vs.
Cunning Attack on them. No counterattack damage is taken if they fail, but if they succeed, all
Stealthed Assets of that faction within one move of the Informers are revealed." (WWN, Cunning
assets)

Map a - b - c: our Informers at a, their hidden Infantry at b (within one move).
"""

from __future__ import annotations

import numpy as np
from wwn_helpers import faction, make_state, play_to

from factionsim.agents.wwn_heuristic import HeuristicAgent, Personality
from factionsim.agents.wwn_heuristic.abilities import search_verdict
from factionsim.agents.wwn_heuristic.steering import Steering
from factionsim.agents.wwn_heuristic.tactics import Situation
from factionsim.rules.wwn.actions import Done, UseAbility


def _game(striker="a", goal="blood-the-enemy", cunning=3, treasure=3):
    ours = [{"type": "informers", "location": "a"}]
    if striker:
        ours.append({"type": "infantry", "location": striker})
    us = faction("us", cunning=cunning, treasure=treasure, goal=goal, assets=ours)
    them = faction("them", headquarters="c", assets=[
        {"type": "infantry", "location": "b", "stealth": True}])
    s = make_state([us, them], relations=[["us", "them", "hostile"]])
    play_to(s, "abilities", "us")
    return s


def _decide(s):
    agent = HeuristicAgent(temperament="balanced")
    choice = agent.act(s.view("us"), s.legal_actions(), np.random.default_rng(0))
    return choice, agent.last_reason


def _verdict(s):
    sit = Situation(s.view("us"), Personality.of(s.factions["us"]))
    return search_verdict(sit, s.assets["informers#1"], "them")


def test_it_searches_a_foe_of_its_war_goal_with_a_striker_at_hand():
    """At war (Blood the Enemy), Infantry beside the Informers, equal Cunning (45%), 6 Treasure
    after its income."""
    s = _game()
    assert s.view("us").asset("infantry#3") is None  # it cannot see what it looks for
    choice, reason = _decide(s)
    assert choice == UseAbility("informers#1", "them")
    assert reason == ("sends its Informers after Them's hidden assets around a, with its Infantry "
                      "at hand to strike what they find: 45% to succeed")


def test_it_does_not_search_without_a_war_on_the_faction():
    s = _game(goal="peaceable-kingdom")
    assert _verdict(s) == (False, "no search: it is not at war with Them")
    choice, _ = _decide(s)
    assert choice == Done()


def test_it_does_not_search_when_nothing_could_strike_what_it_finds():
    s = _game(striker=None)
    assert _verdict(s) == (
        False, "no search: nothing of its own near its Informers could strike what they find")
    assert _decide(s)[0] == Done()


def test_it_does_not_search_a_more_cunning_faction():
    """Cunning 1 against 3: 1d10+1 beats 1d10+3 28% of the time, below one in three; Cunning 2
    (36%) is enough."""
    assert _verdict(_game(cunning=1)) == (False, "no search: only 28% to outwit Them")
    assert _verdict(_game(cunning=2))[0]


def test_it_keeps_treasure_for_its_plans():
    """A search leaves it 2 Treasure at least (the price of a Hide)."""
    s = _game()
    s.factions["us"].treasure = 2  # after its income
    assert _verdict(s) == (False, "no search: it cannot spare the Treasure (2)")
    assert _decide(s)[0] == Done()


def test_the_gms_enemy_is_searched_without_a_war_goal():
    """A GM's ``enemy`` is fought whatever the goal: searched under Peaceable Kingdom."""
    s = _game(goal="peaceable-kingdom")
    sit = Situation(s.view("us"), Personality.of(s.factions["us"]), Steering.of({"enemy": "them"}))
    assert search_verdict(sit, s.assets["informers#1"], "them")[0]


def test_a_disabled_informers_ransom_is_no_search():
    """A disabled asset's owner may pay its ransom as a free action (`use <asset> pay-ransom`,
    Supply Interruption); for Informers that option is no faction to search, and the heuristic
    does not read it as one (it raised KeyError 'pay-ransom' in a generated campaign)."""
    us = faction("us", cunning=3, treasure=3, goal="blood-the-enemy", assets=[
        {"type": "informers", "location": "a",
         "status": {"disabled_by": "supply-interruption#9", "ransom": 2}},
        {"type": "infantry", "location": "a"}])
    them = faction("them", headquarters="c", assets=[
        {"type": "infantry", "location": "b", "stealth": True}])
    s = make_state([us, them], relations=[["us", "them", "hostile"]])
    play_to(s, "abilities", "us")
    assert UseAbility("informers#1", "pay-ransom") in s.legal_actions()
    choice, _ = _decide(s)
    assert choice != UseAbility("informers#1", "pay-ransom")
