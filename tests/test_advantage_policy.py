"""Advantage policies (``factionsim train --method advantage``, issue 21 item 1): the planner's
rollout value of every candidate is recorded as an advantage over the heuristic's choice, a
residual network's correction regresses it, and ``agent: policy:PATH`` plays the heuristic
wherever the planner would not search and chooses among the planner's candidates elsewhere
(``prior.candidates``). Checked: option validation, what the expert records, the regression, the
margin table, a tiny end-to-end run (and a refit of its saved data), numpy == torch on the same
weights, how the agent plays, and that the file plays with torch blocked."""

from __future__ import annotations

import json

import numpy as np
import policy_fixtures
import pytest
from policy_fixtures import play_with_torch_blocked

from factionsim import load_campaign
from factionsim.configs import default_campaign_path
from factionsim.models import ModelFileError, read_policy
from factionsim.training import Args

torch = pytest.importorskip("torch")

TINY = dict(hidden=[16, 16], entity=8, head=8, workers=1, progress=False, torch_threads=1,
            final_eval_games=0, batch_size=16, max_turns=2, learner_seats=[4, 4])


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """A tiny ``--method advantage`` run on the bundled campaign."""
    from factionsim.training import run

    out = tmp_path_factory.mktemp("adv") / "run"
    run(Args(method="advantage", out=str(out), bc_games=2, fit_steps=4, prior_weight=2.0,
             expert_rollouts=1, advantage_holdout=0.25, **TINY))
    return out


def searched_decisions(n: int = 6, seed: int = 3):
    """``(view, legal)`` of the first ``n`` decisions the planner would search."""
    return ((view, legal) for _, view, legal in policy_fixtures.searched_decisions(n, seed))


@pytest.mark.parametrize("options, message", [
    (dict(advantage_scale=0.0), "--advantage-scale 0: must be above 0"),
    (dict(expert_rollouts=0), "--expert-rollouts 0: at least 1"),
    (dict(advantage_holdout=1.0), "--advantage-holdout 1"),
    (dict(ruleset="houses"), "the houses ruleset has no planner"),
    (dict(bc_games=0), "needs --bc-games and --fit-steps"),
])
def test_bad_options_are_refused_naming_the_option(options, message):
    from factionsim.training.league_run import check_advantage

    with pytest.raises(ValueError, match=message):
        check_advantage(Args(method="advantage", **options))


def test_the_expert_plays_the_heuristic_and_values_every_candidate():
    """At a searched decision the expert plays its heuristic's choice and records, for each of
    the planner's candidates (and the heuristic's choice, at 0), the mean rollout value minus
    the heuristic choice's, the same dice for every candidate; elsewhere it records nothing."""
    from factionsim.agents import make_agent
    from factionsim.training.advantage import PlannerValues

    expert = PlannerValues(rollouts=2)
    heuristic = make_agent("heuristic", "wwn")
    for view, legal in searched_decisions(3):
        rng = np.random.default_rng(7)
        choice = expert.act(view, legal, rng)
        assert choice == heuristic.act(view, legal, np.random.default_rng(0))
        values = expert.last_values
        assert values[choice] == 0.0
        assert set(expert.planner.candidates(view, legal)) <= set(values)
        seeds = [int(x) for x in np.random.default_rng(7).integers(0, 2**63 - 1, size=2)]
        own = np.mean([expert.planner._rollout(view, choice, s) for s in seeds])
        for action, adv in values.items():
            value = np.mean([expert.planner._rollout(view, action, s) for s in seeds])
            assert adv == pytest.approx(value - own, abs=1e-9)
    s = load_campaign(default_campaign_path())
    actor, legal = s.current_actor(), s.legal_actions()
    assert not expert.planner.searches(s.view(actor), legal)  # the bundled game's first decision
    expert.act(s.view(actor), legal, np.random.default_rng(0))
    assert expert.last_values is None


def test_the_run_writes_an_advantage_policy_its_data_and_the_margin_table(run_dir):
    policy = read_policy(run_dir / "policy.json")
    assert policy.prior == {"agent": "heuristic", "weight": 2.0, "candidates": "planner"}
    history = json.loads((run_dir / "eval.json").read_text())["history"]
    entry = history[0]
    assert entry["phase"] == "advantage" and entry["games"] == 2
    assert entry["valued_decisions"] > 0 and entry["held_out"] == round(
        entry["valued_decisions"] * 0.25)
    table = entry["held_out_table"]
    assert [row["margin"] for row in table["margins"]][:2] == [0.0, 0.05]
    from factionsim.training.advantage import load_data

    buf, store = load_data(run_dir / "advantage_data.npz")
    assert len(buf) == len(store) == entry["valued_decisions"]
    for i in range(len(store)):  # the heuristic's choice (the label) is a candidate, at 0
        k = list(store.candidates[i]).index(int(buf.target[i]))
        assert store.advantages[i][k] == 0.0


def test_a_refit_reads_the_saved_decisions(run_dir, tmp_path):
    from factionsim.training import run

    out = tmp_path / "refit"
    run(Args(method="advantage", out=str(out), bc_games=1, fit_steps=3,
             advantage_data=str(run_dir / "advantage_data.npz"), **TINY))
    entry = json.loads((out / "eval.json").read_text())["history"][0]
    first = json.loads((run_dir / "eval.json").read_text())["history"][0]
    assert entry["games"] == 0 and entry["valued_decisions"] == first["valued_decisions"]


class _Fixed:
    """A stand-in network: the prior plus a fixed correction per row."""

    def __init__(self, corrections, offset):
        self.corrections, self.offset = np.asarray(corrections, np.float32), offset

    def __call__(self, x):
        return x[:, self.offset:] + torch.as_tensor(self.corrections[: len(x)])


def test_the_margin_table_plays_the_estimates_greedily_on_held_out_decisions():
    """Two decisions, actions 0-2, the heuristic's choice action 0; estimates (scale 10)
    decision A: action 1 +0.3, action 2 -0.1 (recorded: +0.2, -0.5); decision B: action 1
    +0.05 (recorded -0.4). Margin 0: departs at both (gains 0.2 and -0.4); margin 0.1: only at
    A (0.2, 0); margin 0.5: nowhere."""
    from factionsim.training.advantage import ValueStore, margin_table
    from factionsim.training.samples import SampleBuffer

    buf = SampleBuffer(obs_size=5, n_actions=3, capacity=10)  # 2 observation values + 3 prior
    obs = np.array([[1, 0, 1, 0, 0], [0, 1, 1, 0, 0]], np.float32)
    buf.add(obs, [np.array([0, 1, 2]), np.array([0, 1])], np.array([0, 0]))
    store = ValueStore()
    store.add([np.array([0, 1, 2]), np.array([0, 1])],
              [np.array([0.0, 0.2, -0.5]), np.array([0.0, -0.4])])
    graph = _Fixed([[0.0, 3.0, -1.0], [0.0, 0.5, 0.0]], 2)
    table = margin_table(graph, buf, store, np.array([0, 1]), 10.0, 2, [0.0, 0.1, 0.5])
    rows = {r["margin"]: r for r in table["margins"]}
    assert rows[0.0]["departures"] == 1.0 and rows[0.0]["mean_gain"] == pytest.approx(-0.1)
    assert rows[0.1]["departures"] == 0.5 and rows[0.1]["mean_gain"] == pytest.approx(0.1)
    assert rows[0.5]["departures"] == 0.0 and rows[0.5]["mean_gain"] == 0.0
    # the estimates against 0: errors (0.3-0.2, -0.1+0.5, 0, 0.05+0.4) over the 5 candidates
    assert table["mse"] == pytest.approx((0.1**2 + 0.4**2 + 0.45**2) / 5, rel=1e-4)
    assert table["mse_zero"] == pytest.approx((0.2**2 + 0.5**2 + 0.4**2) / 5, rel=1e-4)


def test_the_regression_fits_the_advantages_at_the_candidates():
    """A few decisions fitted many times: the correction at each candidate approaches scale x
    its advantage (the loss falls far below that of the fresh network)."""
    from factionsim.training.advantage import corrections, fit_advantage
    from factionsim.training.graph import TorchGraph
    from factionsim.training.nets import NetShape, build_network

    torch.manual_seed(0)
    from factionsim.envs import make_codec
    from factionsim.models.prior import PriorCodec
    from factionsim.rulesets import ruleset_of
    from factionsim.training.advantage import ValueStore
    from factionsim.training.samples import SampleBuffer

    state = load_campaign(default_campaign_path())
    codec = PriorCodec(make_codec(state), ruleset_of(state), "heuristic", 1.0, "planner")
    spec, arrays = build_network(codec, "flat", seed=0, shape=NetShape("flat", [32]))
    graph = TorchGraph(spec, arrays, codec.obs_size)
    buf, store = SampleBuffer(codec.obs_size, codec.n_actions, 100), ValueStore()
    rng = np.random.default_rng(0)
    for view, legal in searched_decisions(4):
        obs = codec.observe(view, np.zeros(codec.obs_size, np.float32))[None].copy()
        cands = np.array(codec.last_candidates)
        buf.add(obs, [np.array(codec.encode_actions(view, legal))], np.array([codec.last_index]))
        store.add([cands], [np.where(cands == codec.last_index, 0.0, rng.normal(0, 0.5, len(cands)))])
    ids = np.arange(len(buf))
    opt = torch.optim.Adam(graph.parameters(), lr=3e-3)
    first = fit_advantage(graph, opt, buf, store, ids, 1, 4, rng, 10.0, codec.base.obs_size)
    last = fit_advantage(graph, opt, buf, store, ids, 300, 4, rng, 10.0, codec.base.obs_size)
    assert last["loss"] < 0.1 * first["loss"]
    with torch.no_grad():
        est = corrections(graph, buf.batch(ids)[0], codec.base.obs_size).numpy() / 10.0
    mask, adv = store.batch(ids, codec.n_actions)
    assert np.abs(est[mask] - adv[mask]).max() < 0.25


def test_numpy_equals_torch_and_the_agent_chooses_among_the_candidates(run_dir):
    """The file's numpy forward pass equals its torch twin on the same weights; playing it, the
    agent takes the heuristic's choice wherever the planner would not search and one of the
    planner's candidates where it would (argmax with a margin of 1000: always the heuristic's)."""
    from factionsim.agents import make_agent
    from factionsim.agents.planner import PlannerAgent
    from factionsim.training.export import torch_network

    path = run_dir / "policy.json"
    policy = read_policy(path)
    agent = make_agent(f"policy:{path}", "wwn")
    state = load_campaign(default_campaign_path())
    agent.check_fits(state)
    heuristic, planner = make_agent("heuristic", "wwn"), PlannerAgent()
    rng = np.random.default_rng(5)
    observed, searched = [], 0
    for _ in range(60):
        actor, legal = state.current_actor(), state.legal_actions()
        view = state.view(actor)
        choice = agent.act(view, legal, np.random.default_rng(1))
        codec = agent._codec
        observed.append(agent._obs.copy())
        own = heuristic.act(view, legal, np.random.default_rng(0))
        if len(legal) > 1 and planner.searches(view, legal):
            searched += 1
            assert choice in planner.candidates(view, legal) + [own]
            assert codec.last_candidates
        elif len(legal) > 1:
            assert choice == own and codec.last_candidates == []
        state.apply(heuristic.act(view, legal, rng))
    assert searched > 0
    obs = np.stack(observed)
    with torch.no_grad():
        expected = torch_network(policy)(torch.as_tensor(obs)).double().numpy()
    np.testing.assert_allclose(policy.logits(obs), expected, rtol=1e-4, atol=1e-4)
    d = json.loads(path.read_text())
    d["prior"]["weight"] = 100.0
    strict = run_dir / "strict.json"
    strict.write_text(json.dumps(d))
    (run_dir / "strict.npz").write_bytes((run_dir / "policy.npz").read_bytes())
    greedy = make_agent(f"policy:{strict}", "wwn", deterministic=True)
    for view, legal in searched_decisions(4):
        assert greedy.act(view, legal, np.random.default_rng(0)) == heuristic.act(
            view, legal, np.random.default_rng(0))


def test_a_bad_candidates_field_is_refused_naming_it(run_dir, tmp_path):
    d = json.loads((run_dir / "policy.json").read_text())
    d["prior"]["candidates"] = "oracle"
    (tmp_path / "p.json").write_text(json.dumps(d))
    (tmp_path / "p.npz").write_bytes((run_dir / "policy.npz").read_bytes())
    with pytest.raises(ModelFileError, match="prior.candidates: 'oracle'; allowed: planner"):
        read_policy(tmp_path / "p.json")


def test_the_policy_plays_with_torch_blocked(run_dir):
    out = play_with_torch_blocked(run_dir / "policy.json",
                                  "CampaignTemplate.load(None, 'wwn').new_game(1, 0)")
    assert "played" in out


def test_offered_fewer_actions_it_plays_the_heuristics_choice_among_them(run_dir):
    """A GM asking for another plan offers part of the legal actions: where none of the
    planner's candidates is offered, the advantage policy plays the heuristic's choice among
    those offered (never an untrained score of another action)."""
    from factionsim.agents import make_agent
    from factionsim.agents.planner import PlannerAgent

    agent = make_agent(f"policy:{run_dir / 'policy.json'}", "wwn")
    heuristic, planner = make_agent("heuristic", "wwn"), PlannerAgent()
    agent.check_fits(load_campaign(default_campaign_path()))
    checked = 0
    for view, legal in searched_decisions(3):
        offered = [a for a in legal if a not in planner.candidates(view, legal)
                   and a != heuristic.act(view, legal, np.random.default_rng(0))]
        if len(offered) < 2:
            continue
        choice = agent.act(view, offered, np.random.default_rng(0))
        assert choice == heuristic.act(view, offered, np.random.default_rng(0))
        assert agent.last_reason.endswith("the heuristic's choice among the actions offered")
        checked += 1
    assert checked > 0
