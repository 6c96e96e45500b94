"""``factionsim train --method league`` (issue 21 items 1, 3): imitation then PPO against a league
trains for every ruleset, and what it writes is a policy file (data, no pickle) that loads in
``agent: policy:PATH`` and plays whole games; imitation actually learns the expert's choices;
the PPO phase changes the weights and records its league shares."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from factionsim.training import Args  # noqa: E402

TINY = dict(bc_games=3, dagger_rounds=1, dagger_games=2, fit_steps=4, batch_size=32,
            max_turns=3, final_eval_games=2, eval_opponents=["random"], workers=1,
            hidden=[16, 16], progress=False, torch_threads=1)


@pytest.mark.parametrize("ruleset", ["wwn", "houses", "engagements", "conflict"])
def test_a_tiny_league_run_writes_a_policy_that_plays(tmp_path, ruleset):
    from factionsim.agents import make_agent
    from factionsim.models import read_policy
    from factionsim.runner import CampaignTemplate, play
    from factionsim.training import run

    out = tmp_path / ruleset
    args = Args(ruleset=ruleset, method="league", out=str(out), ppo_decisions=40,
                rollout_decisions=40, critic_warmup=0, **TINY)
    path = run(args)
    assert path == out / "policy.json"
    # data only: the weights file is an npz of plain arrays, read without pickle
    with np.load(out / "policy.npz", allow_pickle=False) as npz:
        assert all(npz[k].dtype.kind == "f" for k in npz.files)
    policy = read_policy(path)
    assert policy.ruleset == ruleset
    assert policy.description["network"]["architecture"] == "set"
    record = json.loads((out / "eval.json").read_text())
    phases = [h["phase"] for h in record["history"]]
    assert phases == ["bc", "dagger", "ppo"]
    assert any(k.startswith("share_vs_") for k in record["history"][-1])
    # every imitation round's policy is kept beside the final one, and the history names it
    kept = [h["policy"] for h in record["history"][:2]]
    assert kept == ["rounds/bc0.json", "rounds/dagger1.json"]
    assert all(read_policy(out / name).ruleset == ruleset for name in kept)
    with np.load(out / "rounds/bc0.npz") as bc, np.load(out / "rounds/dagger1.npz") as dagger:
        assert any(not np.array_equal(bc[k], dagger[k]) for k in bc.files)  # fitted in between
    assert [r["opponent"] for r in record["final"]] == ["random"]
    # it plays a whole game as ``agent: policy:PATH`` plays it (numpy alone)
    template = CampaignTemplate.load(None, ruleset)
    state = template.new_game(1, 0)
    agent = make_agent(f"policy:{path}", ruleset)
    agent.check_fits(state)
    seats = {fid: agent for fid in state.factions}
    play(state, 2, seats)
    assert state.turn >= 2 or state.is_over()


def test_behaviour_cloning_learns_the_experts_choices():
    """After fitting on heuristic-labelled decisions, the network picks the heuristic's action
    far more often than the untrained network does on the same decisions."""
    from factionsim.envs import make_codec
    from factionsim.training.evaluate import run_campaign
    from factionsim.training.graph import TorchGraph
    from factionsim.training.imitation import AgentRef, CollectTask, collect, fit
    from factionsim.training.nets import NetShape, build_network

    state, _ = run_campaign(Args())
    codec = make_codec(state)
    task = CollectTask("wwn", None, 0.0, 4, None, AgentRef("heuristic"), [AgentRef("heuristic")],
                       (1, 2), 1.0, 6, seed=5)
    buf = collect(task).samples
    assert len(buf) > 100
    spec, arrays = build_network(codec, "set", seed=0, shape=NetShape(hidden=[64, 64]))
    graph = TorchGraph(spec, arrays, codec.obs_size)

    def accuracy() -> float:
        obs, mask, target = buf.batch(np.arange(len(buf)))
        with torch.no_grad():
            logits = graph(torch.as_tensor(obs)).masked_fill(~torch.as_tensor(mask), -1e9)
        return float((logits.argmax(1).numpy() == target).mean())

    before = accuracy()
    torch.manual_seed(0)
    fit(graph, torch.optim.Adam(graph.parameters(), lr=3e-3), buf, 150, 64,
        np.random.default_rng(0))
    after = accuracy()
    assert after > before + 0.3, (before, after)


def test_league_members_and_an_unknown_method():
    from factionsim.core.game import FactionsimError
    from factionsim.training import run
    from factionsim.training.league_run import league_members

    members = league_members(["planner@budget=4*3", "self"])
    assert (members[0].label, members[0].weight, members[0].agent.options) == (
        "planner@budget=4", 3.0, {"budget": 4})
    assert members[1].network == "self"
    with pytest.raises(FactionsimError, match="allowed: ppo, league"):
        run(Args(method="dqn"))


def test_the_learner_benchmark_measures_rollouts_and_updates():
    """experiments/benchmark_learner.py runs and reports each part (its figures are for the
    docs, never asserted: speed targets live in benchmarks)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "experiments"))
    import benchmark_learner

    r = benchmark_learner.measure(benchmark_learner.Bench(
        league="random", updates=1, rollout_decisions=64, workers=1, batch_size=32, n_epochs=1,
        max_turns=2))
    assert r["learner_steps"] >= 64
    assert r["steps_per_s"] > 0 and r["rollout_steps_per_s"] > r["steps_per_s"]


def test_the_behaviour_check_counts_every_faction_turn():
    """experiments/policy_behaviour.py: every faction-turn of a side is counted, the faction
    actions it took add up to its share of turns with one, and the shares are the two sides'."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "experiments"))
    import policy_behaviour

    r = policy_behaviour.behaviour("heuristic", "random", games=2, turns=3, campaign=None, seed=0)
    for side in ("policy", "rival"):
        assert r[side]["faction_turns"] == 2 * 2 * 3  # games x seats x turns
        assert 0 < r[side]["turns_with_a_faction_action"] <= 1
        assert abs(sum(r[side]["faction_actions"].values()) - 1) < 0.01
    assert r["policy"]["share"] + r["rival"]["share"] == 1.0


@pytest.mark.parametrize("seeds, problem", [([5, 1], "0 <= LO <= HI"), ([3], "two seeds LO HI"),
                                            ([-1, 4], "0 <= LO <= HI")])
def test_generated_seeds_must_be_a_range(seeds, problem):
    """``--generated-seeds LO HI``: the training campaigns' seeds, LO to HI both included."""
    from factionsim.training.league_run import generated_seeds

    with pytest.raises(ValueError, match=problem):
        generated_seeds(Args(generated_seeds=seeds))


def test_generated_training_campaigns_come_from_the_seed_range():
    """Every generated campaign of a run with ``--generated-seeds 1000 1002`` is the campaign
    ``factionsim new --seed S`` makes for one S of 1000-1002, and each S turns up."""
    from factionsim.rules.wwn.generate import generate_campaign
    from factionsim.training.games import Campaigns

    source = Campaigns("wwn", generated=1.0, seeds=(1000, 1002))
    rng = np.random.default_rng(0)
    drawn = [source.draw(rng) for _ in range(30)]
    made = {s: generate_campaign(4, 10, s) for s in (999, 1000, 1001, 1002, 1003)}

    def seed_of(state):
        hits = [s for s, data in made.items() if data["name"] == state.name
                and [f["id"] for f in data["factions"]] == list(state.factions)]
        assert len(hits) == 1
        return hits[0]

    assert {seed_of(state) for state in drawn} == {1000, 1001, 1002}
