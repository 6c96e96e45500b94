"""The planner: legal choices, explanations, its own dice, and no peeking at hidden assets."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pytest
from wwn_helpers import faction, make_state, play_to

from factionsim import load_campaign
from factionsim.agents import make_agent
from factionsim.configs import default_campaign_path
from factionsim.rules.wwn import turn as T
from factionsim.rules.wwn.actions import ChooseAction
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
    planner = make_agent("planner", "wwn", budget=4)
    choice = planner.act(s.view("us"), s.legal_actions(), np.random.default_rng(1))
    assert choice in s.legal_actions()
    assert "looked" in planner.last_reason


def test_does_not_see_hidden_enemy_assets_nor_touch_the_true_dice():
    choices = []
    for hidden in (False, True):
        s = _situation(hidden)
        play_to(s, T.ACTION, "us")
        before = copy.deepcopy(s.rng.bit_generator.state)
        planner = make_agent("planner", "wwn", budget=6)
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
    make_agent("planner", "wwn", budget=4).act(s.view("us"), s.legal_actions(), np.random.default_rng(0))
    assert seen and all(hidden not in ids for ids in seen)


def test_budget_option_and_a_played_campaign():
    """(Its time per faction turn is measured by experiments/compare_agents.py, not here.)"""
    with pytest.raises(ValueError):
        make_agent("planner", "wwn", budget=0)
    s = load_campaign(default_campaign_path())
    planner = make_agent("planner", "wwn", budget=4)
    agents = {fid: make_agent("heuristic", "wwn") for fid in s.factions}
    agents["iron-legion"] = planner
    reasons = []
    act = planner.act

    def recorded(*a):
        choice = act(*a)
        reasons.append(planner.last_reason)
        return choice

    planner.act = recorded
    play(s, 2, agents)
    assert s.turn == 2 and any("looked 3 turn(s) ahead" in (r or "") for r in reasons)


@pytest.mark.parametrize("budget, expected", [
    # 5 candidates: ceil(log2 5) = 3 rounds of budget // 3 rollouts; 5 -> 3 -> 2 survivors
    (24, {"a": 7, "b": 7, "c": 3, "d": 1, "e": 1}),
    (12, {"a": 4, "b": 4, "c": 2, "d": 1, "e": 1}),
    (3, {"a": 3, "b": 3, "c": 2, "d": 1, "e": 1}),  # at least one rollout each round
])
def test_successive_halving_gives_the_best_candidates_the_rollouts(monkeypatch, budget, expected):
    planner = make_agent("planner", "wwn", budget=budget, search="halving")
    worth = {"a": 5.0, "b": 4.0, "c": 3.0, "d": 2.0, "e": 1.0}
    calls = {c: 0 for c in worth}

    def rollout(view, candidate, seed):
        calls[candidate] += 1
        return worth[candidate]

    monkeypatch.setattr(planner, "_rollout", rollout)
    values = planner._search(None, ["e", "d", "c", "b", "a"], np.random.default_rng(0))
    assert calls == expected
    assert values == {"b": 4.0, "a": 5.0} and max(values, key=values.get) == "a"


def test_even_search_splits_the_budget_evenly(monkeypatch):
    planner = make_agent("planner", "wwn", budget=20)
    calls = {c: 0 for c in "abcde"}

    def rollout(view, candidate, seed):
        calls[candidate] += 1
        return float(ord(candidate))

    monkeypatch.setattr(planner, "_rollout", rollout)
    values = planner._search(None, list("abcde"), np.random.default_rng(0))
    assert calls == dict.fromkeys("abcde", 4) and values == {c: float(ord(c)) for c in "abcde"}
    with pytest.raises(ValueError, match="even, halving"):
        make_agent("planner", "wwn", search="best-first")


def _expander():
    """``us`` can plant a Base on quiet ground now, or wait and plant it next turn."""
    s = make_state([
        faction("us", wealth=4, treasure=6, goal="expand-influence",
                assets=[{"type": "informers", "location": "c"}]),
        faction("them", treasure=2, assets=[{"type": "infantry", "location": "a"}])])
    play_to(s, T.ACTION, "us")
    return s


def test_xp_earned_later_is_discounted_so_the_planner_does_not_procrastinate():
    """Waiting a turn and letting the heuristic plant the Base next turn reaches the same XP at
    the end of the next turn (``horizon`` 1); only the discount (0.7 per turn) tells the two
    apart. At the default horizon (2) the eager planner plants it now as well."""
    s = _expander()
    view, now, wait = s.view("us"), ChooseAction("expand"), ChooseAction("pass")
    patient = make_agent("planner", "wwn", discount=1.0, horizon=1)
    eager = make_agent("planner", "wwn", discount=0.7, horizon=1)
    for seed in range(3):
        assert eager._rollout(view, now, seed) == pytest.approx(patient._rollout(view, now, seed))
        # the Base (1 XP) comes one turn later: worth 0.7 of an XP now
        assert eager._rollout(view, wait, seed) == pytest.approx(
            patient._rollout(view, wait, seed) - 0.3)
    assert eager.act(view, s.legal_actions(), np.random.default_rng(0)) == now
    assert make_agent("planner", "wwn").act(view, s.legal_actions(),
                                            np.random.default_rng(0)) == now
    with pytest.raises(ValueError, match="discount"):
        make_agent("planner", "wwn", discount=1.5)


def test_rollout_value_counts_assets_bought_as_wealth():
    from factionsim.agents.planner import rollout_value

    s = _expander()
    before = rollout_value(s, "us")
    informers = next(a for a in s.assets.values() if a.owner == "us")
    s.factions["us"].treasure -= informers.kind.cost  # as if it paid for a second one...
    s.assets["informers-2"] = dataclasses.replace(informers, id="informers-2")
    assert rollout_value(s, "us") == pytest.approx(before)  # ...worth what it cost
    informers.hp = 0 if informers.max_hp == 1 else informers.max_hp // 2
    assert rollout_value(s, "us") < before  # damage costs


@pytest.mark.parametrize("lead, kept", [(0.05, True), (0.2, False)])
def test_takes_another_choice_only_when_it_beats_the_heuristic_by_the_margin(monkeypatch, lead,
                                                                             kept):
    """With a few noisy rollouts, a candidate must look ``margin`` (0.1) better than the
    heuristic's own choice to replace it: a lead of 0.05 is noise, 0.2 is taken."""
    s = _situation(hidden=False)
    play_to(s, T.ACTION, "us")
    planner = make_agent("planner", "wwn", budget=4)
    own = planner.heuristic.act(s.view("us"), s.legal_actions(), np.random.default_rng(1))
    candidates = planner._candidates(s.view("us"), s.legal_actions())
    other = next(c for c in candidates if c != own)

    def search(view, cands, rng):
        return {c: (1.0 + lead if c == other else 1.0) for c in cands}

    monkeypatch.setattr(planner, "_search", search)
    choice = planner.act(s.view("us"), s.legal_actions(), np.random.default_rng(1))
    assert choice == (own if kept else other)
