"""Rollout-leaf policies (``factionsim train --method leaf``, issue 21 item 1): heuristic
self-play games noting every faction's situation at each turn's end with its final pairwise
share; a small evaluator fitted to it; a policy that plays the planner's search with that
evaluator scoring each rollout's last state. Checked: the data's labels, options, that the
policy *is* the planner's search (with the hand-made leaf it chooses as the planner does), a
tiny end-to-end run, numpy == torch, file validation, and torch-free play."""

from __future__ import annotations

import json

import numpy as np
import pytest
from policy_fixtures import play_with_torch_blocked

from factionsim import load_campaign
from factionsim.configs import default_campaign_path
from factionsim.models import ModelFileError, read_policy, write_policy
from factionsim.training import Args

TINY = dict(hidden=[8], workers=1, progress=False, torch_threads=1, batch_size=32, bc_games=3,
            leaf_turns=[2, 3], fit_steps=20, advantage_holdout=0.34,
            generated_seeds=[1000, 1001], calibration_games=1, leaf_model="network")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """A tiny ``--method leaf --leaf-model network`` run."""
    pytest.importorskip("torch")
    from factionsim.training import run

    out = tmp_path_factory.mktemp("leaf") / "run"
    run(Args(method="leaf", out=str(out), **TINY))
    return out


def test_final_share_is_a_tournaments_pairwise_share_from_one_faction():
    from factionsim.agents.leaf_search import final_share

    scores = {"a": 3.0, "b": 1.0, "c": 3.0, "d": 5.0}
    assert final_share(scores, "a") == pytest.approx((1 + 0.5 + 0) / 3)
    assert final_share(scores, "d") == 1.0 and final_share(scores, "b") == 0.0
    assert final_share({"a": 1.0}, "a") == 0.5


def test_the_leaf_features_extend_the_afterstate_features_with_the_standing():
    from factionsim.agents.afterstate import FEATURES, features
    from factionsim.agents.leaf_search import LEAF_FEATURES, final_share, leaf_features

    s = load_campaign(default_campaign_path())
    s.max_turns = s.turn + 12
    for f in s.factions:
        x = leaf_features(s, f)
        named = dict(zip(LEAF_FEATURES, x, strict=True))
        np.testing.assert_array_equal(x[:len(FEATURES)], features(s, f))
        assert named["standing"] == final_share(s.scores(), f)
        assert named["turns_left"] == 12 and named["alive"] == 1.0
        assert named["lead"] == pytest.approx(named["score"] - named["rival_score"])


def test_a_data_game_labels_every_turns_end_with_the_final_share():
    """Each faction gets a row at every turn's end; the label is how the game *ended* for it (the
    same on all its rows); the same arguments give the same rows."""
    from factionsim.agents.leaf_search import LEAF_FEATURES
    from factionsim.training.leaf_data import leaf_game

    rows = leaf_game(0, (1000, 1001), (3, 3), 0)
    again = leaf_game(0, (1000, 1001), (3, 3), 0)
    for k in rows:
        np.testing.assert_array_equal(rows[k], again[k])
    assert rows["x"].shape == (len(rows["share"]), len(LEAF_FEATURES))
    assert sorted(set(rows["turn"].tolist())) == [1, 2, 3]
    factions = len(rows["turn"]) // 3
    share = rows["share"].reshape(3, factions)
    assert (share == share[-1]).all()  # one label per faction, whatever the turn
    assert share[-1].sum() == pytest.approx(factions / 2)  # pairwise shares sum to n/2
    standing = rows["x"][:, LEAF_FEATURES.index("standing")].reshape(3, factions)
    np.testing.assert_allclose(standing[-1], share[-1])  # at the end the standing is the share


@pytest.mark.parametrize("options, message", [
    (dict(leaf_turns=[30, 20]), "--leaf-turns 30 20"),
    (dict(search_budget=0), "--search-budget 0: from 1 to 256"),
    (dict(value_horizon=9), "--value-horizon 9: from 0 to 8"),
    (dict(ruleset="houses"), "the houses ruleset has none"),
    (dict(advantage_holdout=1.0), "--advantage-holdout 1"),
])
def test_bad_options_are_refused_naming_the_option(options, message):
    from factionsim.training.leaf import check_leaf

    with pytest.raises(ValueError, match=message):
        check_leaf(Args(method="leaf", **options))


def handmade_leaf_file(path, budget=4, horizon=1, margin=0.1):
    """A rollout-leaf policy file whose network is the planner's hand-made ``rollout_value``
    (a linear layer over the leaf features: 0 on the extras)."""
    from factionsim.agents.leaf_search import LEAF_FEATURE_SET, LEAF_FEATURES
    from factionsim.training.value_fit import BASELINE_WEIGHTS

    w = np.array([[BASELINE_WEIGHTS.get(n, 0.0) for n in LEAF_FEATURES]])
    write_policy(path, {
        "ruleset": "wwn", "env_version": 1,
        "spaces": {"observation": len(LEAF_FEATURES), "actions": 1}, "codec": {"limits": {}},
        "network": {"layers": [{"type": "dense", "weight": "w", "bias": None,
                                "activation": None}]},
        "search": {"kind": "rollout-leaf", "features": LEAF_FEATURE_SET,
                   "candidates": "planner", "budget": budget, "horizon": horizon,
                   "margin": margin}}, {"w": w}, dtype="float64")
    return path


def test_with_the_handmade_leaf_it_chooses_as_the_planner_does(tmp_path):
    """The policy plays the planner's own search (its candidates, budget, horizon, margin, the
    discount of late goal XP): with a network that computes ``rollout_value`` it makes the
    planner's choices, searched or not."""
    from factionsim.agents import make_agent
    from factionsim.agents.planner import PlannerAgent

    agent = make_agent(f"policy:{handmade_leaf_file(tmp_path / 'p.json', budget=6)}", "wwn")
    planner = PlannerAgent(budget=6, horizon=1)  # the file's horizon
    state = load_campaign(default_campaign_path())
    searched = 0
    for k in range(40):
        actor, legal = state.current_actor(), state.legal_actions()
        view = state.view(actor)
        choice = agent.act(view, legal, np.random.default_rng(k))
        assert choice == planner.act(view, legal, np.random.default_rng(k))
        searched += "looked 2 turn(s) ahead" in (agent.last_reason or "")
        state.apply(choice)
    assert searched > 0


def test_a_tiny_run_writes_a_policy_whose_numpy_pass_is_torchs(run_dir):
    from factionsim.agents.leaf_search import LEAF_FEATURE_SET, LEAF_FEATURES
    from factionsim.training.export import torch_network

    torch = pytest.importorskip("torch")
    policy = read_policy(run_dir / "policy.json")
    search = policy.search
    assert search["kind"] == "rollout-leaf" and search["features"] == LEAF_FEATURE_SET
    assert (search["budget"], search["horizon"]) == (4, 1) and search["margin"] >= 0
    summary = json.loads((run_dir / "eval.json").read_text())
    assert summary["games"] == 3 and summary["held_out_games"] == 1
    calibration = summary["fit"]["calibration"]
    assert calibration["campaign_seeds"] == [1000] and calibration["decisions"] > 0
    assert search["margin"] == pytest.approx(summary["margin"], abs=1e-6)
    assert {"handmade (rollout_value, affine to the share)", "anchored", "linear", "mlp 8"} \
        <= set(summary["held_out"])
    x = np.load(run_dir / "leaf_data.npz")["x"]
    assert x.shape[1] == len(LEAF_FEATURES)
    with torch.no_grad():
        expected = torch_network(policy)(torch.as_tensor(x, dtype=torch.float32)).numpy()
    np.testing.assert_allclose(policy.network(x), expected, rtol=1e-4, atol=1e-5)
    assert np.ptp(policy.network(x)) > 0  # a fitted network, not a constant


def test_the_anchored_leaf_is_the_handmade_value_plus_standing_terms_in_xp(run_dir):
    """``--leaf-model anchored``: the hand-made exchange rates on every feature it reads, plus the
    learned worth (in XP) of the standing terms; scaled back, it is the least-squares fit."""
    from factionsim.agents.leaf_search import LEAF_FEATURES
    from factionsim.models.network import Network
    from factionsim.training.leaf_data import load_rows
    from factionsim.training.leaf_fit import ANCHORED_TERMS, fit_anchored, handmade_weights

    rows = load_rows(run_dir / "leaf_data.npz")
    spec, arrays, coef = fit_anchored(rows["x"], rows["share"])
    w = arrays["leaf.0.weight"][0]
    kept = [i for i, name in enumerate(LEAF_FEATURES) if name not in ANCHORED_TERMS]
    np.testing.assert_allclose(w[kept], handmade_weights()[kept])
    for term in ANCHORED_TERMS:
        assert w[LEAF_FEATURES.index(term)] == pytest.approx(coef[term] / coef["handmade"])
    value = Network.from_spec(spec, arrays, len(LEAF_FEATURES))(rows["x"])[:, 0]
    residual = rows["share"] - value * coef["handmade"]
    assert abs(residual.mean()) < 1e-9  # least squares with an intercept: residuals sum to 0


def test_the_margin_matches_the_planners_departure_rate():
    """The learned search gets the margin at which it leaves the heuristic's choice as often as
    the hand-made one does at its own margin."""
    from factionsim.training.leaf_fit import matched_margin

    handmade = np.array([0.0, 0.0, 0.05, 0.2, 0.5, 0.0, 0.3, 0.0])  # 3 of 8 reach 0.1
    learned = np.linspace(0.0, 0.07, 8)
    margin, rate = matched_margin(learned, handmade, 0.1)
    assert rate == 3 / 8
    assert (learned >= margin).sum() == 3
    assert matched_margin(learned, np.zeros(8), 0.1)[0] > learned.max()  # never departs


@pytest.mark.parametrize("change, message", [
    (lambda d: d["search"].pop("budget"), "a search of kind rollout-leaf has the keys"),
    (lambda d: d["search"].update(budget=0), "search.budget: 0"),
    (lambda d: d["search"].update(horizon=-1), "search.horizon: -1"),
    (lambda d: d["search"].update(samples=4), "a search of kind rollout-leaf has the keys"),
])
def test_a_bad_search_field_is_refused_naming_it(tmp_path, change, message):
    path = handmade_leaf_file(tmp_path / "p.json")
    d = json.loads(path.read_text())
    change(d)
    path.write_text(json.dumps(d))
    with pytest.raises(ModelFileError, match=message):
        read_policy(path)


def test_it_plays_a_campaign_with_torch_blocked(run_dir):
    out = play_with_torch_blocked(run_dir / "policy.json",
                                  "CampaignTemplate.load(None).new_game(1, 0)")
    assert "played 2 4" in out
