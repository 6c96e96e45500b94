"""Value-search policies (``factionsim train --method value``, issue 21 item 1): heuristic games
whose searched faction actions are valued by the planner's rollouts, each rollout noting the
features of its *afterstate* (the state when the faction's action is over); a small network
fitted to the differences of those values; a policy that tries the planner's candidates up to
the end of the action and plays the one whose afterstate the network values best (by a margin
over the heuristic's choice). Checked: options, the afterstate the search rebuilds is the one the
rollouts noted, the features' hand-made value is the planner's, a tiny end-to-end run and a refit
of its data, numpy == torch, how the agent plays, file validation, and torch-free play on a
campaign of another shape."""

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

TINY = dict(hidden=[8, 8], workers=1, progress=False, torch_threads=1, batch_size=16,
            max_turns=2, bc_games=2, fit_steps=5, expert_rollouts=1, advantage_holdout=0.5,
            generated_seeds=[1000, 1001], search_samples=2)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """A tiny ``--method value`` run."""
    from factionsim.training import run

    out = tmp_path_factory.mktemp("value") / "run"
    run(Args(method="value", out=str(out), **TINY))
    return out


def searched_decisions(n: int = 4, seed: int = 3):
    """The first ``n`` faction actions the planner would search (the value search's decisions)."""
    return policy_fixtures.searched_decisions(n, seed, actions_only=True)


@pytest.mark.parametrize("options, message", [
    (dict(search_samples=0), "--search-samples 0: from 1 to 64"),
    (dict(search_margin=-1.0), "--search-margin -1"),
    (dict(advantage_holdout=1.0), "--advantage-holdout 1"),
    (dict(ruleset="houses"), "the houses ruleset has none"),
    (dict(value_horizon=-1), "--value-horizon -1: at least 0"),
])
def test_bad_options_are_refused_naming_the_option(options, message):
    from factionsim.training.value import check_value

    with pytest.raises(ValueError, match=message):
        check_value(Args(method="value", **options))


def test_the_search_rebuilds_the_afterstate_the_rollouts_noted():
    """``PlannerAgent.afterstate(view, action, seed)`` is the very state a rollout with that
    seed passes when the faction's action is over (same features), and the action is over
    there; the features' hand-made value is the planner's ``rollout_value`` of it."""
    from factionsim.agents.afterstate import action_over, features
    from factionsim.agents.planner import PlannerAgent, rollout_value
    from factionsim.training.value_fit import baseline_value

    planner = PlannerAgent()
    checked = 0
    for _, view, legal in searched_decisions(2):
        me = view.faction_id
        for action in planner.candidates(view, legal):
            noted = []
            planner._rollout(view, action, 7, afterstate=lambda st, noted=noted, me=me: (
                noted.append((features(st, me), rollout_value(st, me)))))
            after = planner.afterstate(view, action, 7)
            assert action_over(after, me, view.turn)
            np.testing.assert_array_equal(features(after, me), noted[0][0])
            assert baseline_value(noted[0][0][None])[0] == pytest.approx(noted[0][1])
            checked += 1
    assert checked >= 4


def test_the_run_writes_a_value_policy_its_data_and_the_margin_tables(run_dir):
    from factionsim.agents.afterstate import FEATURE_SET, FEATURES

    d = json.loads((run_dir / "policy.json").read_text())
    assert d["search"] == {"kind": "afterstate-value", "features": FEATURE_SET,
                           "candidates": "planner", "samples": 2, "margin": 0.1}
    assert d["spaces"] == {"observation": len(FEATURES), "actions": 1}
    assert "prior" not in d
    ev = json.loads((run_dir / "eval.json").read_text())
    assert ev["decisions"] > 0 and ev["rollouts"] > ev["decisions"]
    for table in ev["held_out"].values():
        assert table["decisions"] > 0
        assert [m["margin"] for m in table["margins"]] == [0.0, 0.05, 0.1, 0.2, 0.3, 0.5]
        assert all(0 <= m["departures"] <= 1 for m in table["margins"])
    policy = read_policy(run_dir / "policy.json")
    assert policy.search["samples"] == 2 and policy.network.out_size == 1


def test_a_refit_of_the_saved_data_gives_the_same_network(run_dir, tmp_path):
    from factionsim.training import run

    out = tmp_path / "refit"
    run(Args(method="value", out=str(out), value_data=str(run_dir / "value_data.npz"), **TINY))
    assert (out / "policy.npz").read_bytes() == (run_dir / "policy.npz").read_bytes()
    assert not (out / "value_data.npz").exists()


def test_numpy_equals_torch_on_the_same_weights(run_dir):
    from factionsim.training.export import torch_network
    from factionsim.training.value_data import load_rows

    policy = read_policy(run_dir / "policy.json")
    x = load_rows(run_dir / "value_data.npz")["x"]
    with torch.no_grad():
        expected = torch_network(policy)(torch.as_tensor(x, dtype=torch.float32)).double().numpy()
    np.testing.assert_allclose(policy.network(x), expected, rtol=1e-4, atol=1e-4)


def _with_margin(run_dir, tmp_path, margin):
    d = json.loads((run_dir / "policy.json").read_text())
    d["search"]["margin"] = margin
    path = tmp_path / f"m{margin:g}.json"
    path.write_text(json.dumps(d))
    (tmp_path / "policy.npz").write_bytes((run_dir / "policy.npz").read_bytes())
    return path


def test_the_agent_plays_a_candidate_where_the_planner_searches_the_heuristic_elsewhere(
        run_dir, tmp_path):
    """At the planner's faction-action decisions the agent plays one of its candidates (or the
    heuristic's choice); with a margin of 100 it always plays the heuristic's choice; every
    other decision is the heuristic's."""
    from factionsim.agents import make_agent
    from factionsim.agents.planner import PlannerAgent

    agent = make_agent(f"policy:{run_dir / 'policy.json'}", "wwn")
    strict = make_agent(f"policy:{_with_margin(run_dir, tmp_path, 100)}", "wwn")
    heuristic, planner = make_agent("heuristic", "wwn"), PlannerAgent()
    state = load_campaign(default_campaign_path())
    agent.check_fits(state)
    rng = np.random.default_rng(5)
    searched = 0
    for _ in range(80):
        actor, legal = state.current_actor(), state.legal_actions()
        view = state.view(actor)
        own = heuristic.act(view, legal, np.random.default_rng(0))
        choice = agent.act(view, legal, np.random.default_rng(1))
        if len(legal) > 1 and "looked" in (agent.last_reason or "") or \
                "no other of" in (agent.last_reason or ""):
            searched += 1
            assert choice in planner.candidates(view, legal) + [own]
            assert strict.act(view, legal, np.random.default_rng(1)) == own
        elif len(legal) > 1:
            assert choice == own
            assert agent.last_reason.endswith("the heuristic's choice (nothing searched here)")
        state.apply(own if rng.random() < 0.5 else choice)
    assert searched > 0


@pytest.mark.parametrize("change, message", [
    (lambda d: d["search"].update(kind="oracle"), "search.kind: 'oracle'"),
    (lambda d: d["search"].update(samples=0), "search.samples: 0"),
    (lambda d: d["search"].pop("margin"), "search: a search of kind afterstate-value has the keys"),
    (lambda d: d.update(prior={"agent": "heuristic", "weight": 5.0}), "has no prior"),
])
def test_a_bad_search_field_is_refused_naming_it(run_dir, tmp_path, change, message):
    d = json.loads((run_dir / "policy.json").read_text())
    change(d)
    (tmp_path / "p.json").write_text(json.dumps(d))
    (tmp_path / "policy.npz").write_bytes((run_dir / "policy.npz").read_bytes())
    with pytest.raises(ModelFileError, match=message):
        read_policy(tmp_path / "p.json")


def test_it_plays_a_campaign_of_another_shape_with_torch_blocked(run_dir, tmp_path):
    """Its features do not depend on the campaign's size: a generated campaign of 3 factions and
    7 places plays, with numpy alone; a campaign of another ruleset is refused."""
    out = play_with_torch_blocked(
        run_dir / "policy.json", "build_campaign(generate_campaign(3, 7, 5), {}, 'small')",
        imports="from factionsim.rules.wwn.generate import generate_campaign\n"
                "from factionsim.rulesets import build_campaign\n")
    assert "played" in out and out.split()[-1] == "3"
    from factionsim.agents.policy import PolicyAgent
    from factionsim.core.game import CampaignError
    from factionsim.rulesets import get_ruleset
    from factionsim.runner import CampaignTemplate

    agent = PolicyAgent(str(run_dir / "policy.json"), ruleset=get_ruleset("wwn"))
    houses = CampaignTemplate.load(None, "houses").new_game(1, 0)
    with pytest.raises(CampaignError, match="trained for the wwn ruleset"):
        agent.check_fits(houses)
