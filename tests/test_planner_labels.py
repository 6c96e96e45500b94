"""Imitating the planner where it looks ahead (``--expert-labels searched``, issue 21 item 1).

The planner searches only its faction action and its goal and plays its heuristic's choice
everywhere else (agents/planner.py); a residual policy's prior already *is* that heuristic
choice, so the planner's labels say something only where it searches. These tests check that
``PlannerAgent.searches`` marks exactly the decisions where it may differ from its heuristic, that
imitation with ``searched_only`` labels only those (the policy plays the rest), that the labels'
agreement with the prior is counted, and that ``fit`` reports its accuracy on departures from the
prior apart."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from factionsim.training import Args  # noqa: E402


def test_the_planner_plays_its_heuristic_wherever_it_does_not_search():
    """Over a few turns of the bundled campaign: at every decision ``searches`` says no, the
    planner's choice is its heuristic's; it does search some faction-action decisions."""
    from factionsim import load_campaign
    from factionsim.agents import make_agent
    from factionsim.configs import default_campaign_path
    from factionsim.rules.wwn import turn as T

    state = load_campaign(default_campaign_path())
    planner = make_agent("planner", "wwn", budget=2)
    rng = np.random.default_rng(3)
    searched = {T.ACTION: 0, T.GOAL: 0, "other": 0}
    unsearched = 0
    state.max_turns = state.turn + 3
    while not state.is_over() and state.current_actor() is not None:
        actor = state.current_actor()
        legal = state.legal_actions()
        view = state.view(actor)
        if planner.searches(view, legal):
            searched[state.phase if state.phase in (T.ACTION, T.GOAL) else "other"] += 1
        else:
            unsearched += 1
            mine = planner.act(view, legal, np.random.default_rng(7))
            theirs = planner.heuristic.act(view, legal, np.random.default_rng(7))
            assert mine == theirs, (state.phase, mine, theirs)
        state.apply(planner.act(view, legal, rng))
    assert searched[T.ACTION] > 0 and searched["other"] == 0
    assert unsearched > searched[T.ACTION] + searched[T.GOAL]  # most decisions are not searched


class _ActionPhaseExpert:
    """A stand-in expert: the heuristic's choice (so every label is the prior's), searching only
    at the faction-action phase."""

    def __init__(self):
        from factionsim.agents import make_agent

        self.heuristic = make_agent("heuristic", "wwn")
        self.asked: list[str] = []

    def searches(self, view, legal):
        from factionsim.rules.wwn import turn as T

        return view.phase == T.ACTION

    def act(self, view, legal, rng):
        self.asked.append(view.phase)
        return self.heuristic.act(view, legal, rng)


@pytest.mark.parametrize("beta", [1.0, 0.5])
def test_only_searched_decisions_are_labelled(monkeypatch, beta):
    """With ``searched_only`` the labels are the expert's searched decisions alone (here: the
    faction-action phase), in behaviour cloning (beta 1: the expert plays) and in DAgger (the
    policy plays the unlabelled ones); every label of an expert that plays the heuristic's
    choice agrees with the heuristic prior."""
    from factionsim.rules.wwn import turn as T
    from factionsim.training.evaluate import run_campaign
    from factionsim.training.imitation import AgentRef, CollectTask, collect
    from factionsim.training.nets import NetShape, build_network

    expert = _ActionPhaseExpert()
    original = AgentRef.make
    monkeypatch.setattr(AgentRef, "make", lambda self, ruleset: (
        expert if self.name == "stand-in" else original(self, ruleset)))
    prior = {"agent": "heuristic", "weight": 6.0}
    network = None
    if beta < 1:
        from factionsim.envs import make_codec
        from factionsim.models.prior import PriorCodec
        from factionsim.rulesets import ruleset_of

        state, _ = run_campaign(Args())
        codec = PriorCodec(make_codec(state), ruleset_of(state), "heuristic", 6.0)
        network = build_network(codec, "set", seed=0, shape=NetShape(hidden=[16], entity=8,
                                                                    head=8))
    task = CollectTask("wwn", None, 0.0, 3, network, AgentRef("stand-in"),
                       [AgentRef("heuristic")], (1, 1), beta, 2, seed=4, prior=prior,
                       searched_only=True)
    result = collect(task)
    labels = len(result.samples)
    assert labels > 0
    assert labels == result.decisions  # every labelled decision reached the buffer
    # the expert is asked at every decision of the learner's seat, labels only at the searched
    assert expert.asked.count(T.ACTION) == labels < len(expert.asked)
    assert result.prior_agree == labels  # the stand-in expert plays the prior's choice


def _toy_fit(prior_cols: list[int], targets: list[int]) -> dict:
    """``fit`` on a linear network over decisions whose prior (from column 2 on) and target are
    given; 3 actions, all legal."""
    from factionsim.training.imitation import fit
    from factionsim.training.samples import SampleBuffer

    n = len(targets)
    obs = np.zeros((n, 5), np.float32)
    obs[:, 0] = 1.0
    obs[np.arange(n), 2 + np.asarray(prior_cols)] = 6.0
    buf = SampleBuffer(5, 3, capacity=100)
    buf.add(obs, [np.arange(3)] * n, np.asarray(targets))
    torch.manual_seed(0)
    net = torch.nn.Linear(5, 3)
    return fit(net, torch.optim.Adam(net.parameters(), lr=1e-2), buf, 20, 16,
               np.random.default_rng(0), prior_offset=2)


def test_fit_reports_the_share_of_departures_and_its_accuracy_on_them():
    """Half the labels depart from the prior: ``departures`` is about 0.5 and the accuracy on
    them is reported; with no departure at all it is 0 and the accuracy on departures ``None``."""
    stats = _toy_fit([0, 1, 2, 0] * 8, [0, 1, 0, 1] * 8)  # the last two of each four depart
    assert 0.3 < stats["departures"] < 0.7
    assert 0.0 <= stats["departure_accuracy"] <= 1.0
    same = _toy_fit([0, 1, 2] * 8, [0, 1, 2] * 8)
    assert same["departures"] == 0.0 and same["departure_accuracy"] is None


@pytest.mark.parametrize("expert, labels, problem", [
    ("heuristic", "searched", "needs an expert that searches"),
    ("planner@budget=4", "some", "allowed: all, searched"),
])
def test_expert_labels_are_checked_before_any_game(expert, labels, problem):
    from factionsim.training.league_run import expert_labels

    with pytest.raises(ValueError, match=problem):
        expert_labels(Args(expert=expert, expert_labels=labels))
