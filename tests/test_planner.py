"""The planner: legal choices, explanations, its own dice, and no peeking at hidden assets."""

from __future__ import annotations

import copy
import time

import numpy as np
import pytest
from wwn_helpers import faction, make_state, play_to

from factionsim.agents import make_agent
from factionsim.configs import default_campaign_path
from factionsim.core.campaign import load_campaign
from factionsim.rules.wwn import turn as T
from factionsim.runner import play


def _situation(hidden: bool):
    them_assets = [{"type": "infantry", "location": "b"}]
    if hidden:  # listed last so every other asset keeps its id
        them_assets.append({"type": "scouts", "location": "b", "stealth": True})
    return make_state([
        faction("us", force=5, treasure=8, goal="blood-the-enemy",
                assets=[{"type": "knights", "location": "b"}]),
        faction("them", force=3, treasure=4, assets=them_assets)])


def test_chooses_legal_actions_and_explains():
    s = _situation(hidden=False)
    play_to(s, T.ACTION, "us")
    planner = make_agent("planner", budget=4)
    choice = planner.act(s.view("us"), s.legal_actions(), np.random.default_rng(1))
    assert choice in s.legal_actions()
    assert "looked" in planner.last_reason


def test_does_not_see_hidden_enemy_assets_nor_touch_the_true_dice():
    choices = []
    for hidden in (False, True):
        s = _situation(hidden)
        play_to(s, T.ACTION, "us")
        before = copy.deepcopy(s.rng.bit_generator.state)
        planner = make_agent("planner", budget=6)
        choices.append((planner.act(s.view("us"), s.legal_actions(), np.random.default_rng(3)),
                        planner.last_reason))
        assert s.rng.bit_generator.state == before  # rollouts use their own generator
        assert s.phase == T.ACTION and s.actor == "us"  # the true state is untouched
    assert choices[0] == choices[1]  # a hidden enemy asset changes nothing it decides


def test_rollout_states_hold_no_hidden_assets(monkeypatch):
    from factionsim.rules.wwn.state import WwnView

    seen = []
    real = WwnView.to_state

    def spy(self, rng):
        st = real(self, rng)
        seen.append({a.id for a in st.assets.values()})
        return st

    monkeypatch.setattr(WwnView, "to_state", spy)
    s = _situation(hidden=True)
    hidden = next(a.id for a in s.assets.values() if a.stealth)
    play_to(s, T.ACTION, "us")
    make_agent("planner", budget=4).act(s.view("us"), s.legal_actions(), np.random.default_rng(0))
    assert seen and all(hidden not in ids for ids in seen)


def test_budget_option_and_faction_turn_time():
    with pytest.raises(ValueError):
        make_agent("planner", budget=0)
    s = load_campaign(default_campaign_path())
    planner = make_agent("planner", budget=4)
    agents = {fid: make_agent("heuristic") for fid in s.factions}
    agents["iron-legion"] = planner
    spent = [0.0]
    act = planner.act

    def timed(*a):
        t = time.perf_counter()
        try:
            return act(*a)
        finally:
            spent[0] += time.perf_counter() - t

    planner.act = timed
    play(s, 2, agents)
    assert spent[0] / 2 < 1.0
