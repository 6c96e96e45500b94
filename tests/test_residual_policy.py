"""Residual policies (issue 21 item 1): the network reads the heuristic's choice beside the env's
observation and plays ``logits = prior + correction`` (``--prior heuristic``,
:mod:`factionsim.models.prior`). The env's spaces do not change (the prior is appended by a
codec wrapper); the policy file says it needs the prior (``prior``); numpy's forward pass equals
torch's on the same weights; ``agent: policy:PATH`` computes the prior itself and, untrained, plays
the heuristic's choices; a malformed ``prior`` field is refused naming the field."""

from __future__ import annotations

import json

import numpy as np
import pytest

from factionsim import load_campaign
from factionsim.configs import default_campaign_path
from factionsim.models import ModelFileError, read_policy
from factionsim.models.prior import PriorCodec

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def state():
    return load_campaign(default_campaign_path())


@pytest.fixture(scope="module")
def codec(state):
    from factionsim.envs import make_codec
    from factionsim.rulesets import ruleset_of

    return PriorCodec(make_codec(state), ruleset_of(state), "heuristic", 5.0)


def decisions(n: int = 24, seed: int = 4):
    """``(view, legal)`` of the first ``n`` decisions of a heuristic game with several choices,
    one at a time (a view reads the live game: use it before asking for the next)."""
    from factionsim.agents import make_agent

    s = load_campaign(default_campaign_path())
    heuristic = make_agent("heuristic", "wwn")
    rng = np.random.default_rng(seed)
    seen = 0
    while seen < n and not s.is_over():
        actor = s.current_actor()
        legal = s.legal_actions()
        if len(legal) > 1:
            seen += 1
            yield s.view(actor), legal
        s.apply(heuristic.act(s.view(actor), legal, rng))


def residual_file(tmp_path, state, codec, arch="set", perturb=0.0):
    from factionsim.models.files import write_policy
    from factionsim.training.export import description
    from factionsim.training.graph import TorchGraph
    from factionsim.training.nets import NetShape, build_network

    spec, arrays = build_network(codec, arch, seed=1,
                                 shape=NetShape(arch=arch, hidden=[32, 32], entity=8, head=8))
    graph = TorchGraph(spec, arrays, codec.obs_size)
    if perturb:
        with torch.no_grad():  # trained-looking weights: the correction is not near zero
            for p in graph.parameters():
                p.add_(torch.randn(p.shape, generator=torch.Generator().manual_seed(2)) * perturb)
    d = description(codec.base, state, spec, {})
    d["prior"] = codec.prior
    write_policy(tmp_path / "p.json", d, graph.arrays())
    return read_policy(tmp_path / "p.json"), graph


def test_the_prior_is_appended_to_the_unchanged_observation(state, codec):
    """The env's observation is written unchanged; after it, one value per catalogue action:
    the weight at the heuristic's choice, 0 elsewhere."""
    from factionsim.agents import make_agent

    heuristic = make_agent("heuristic", "wwn")
    n = codec.base.obs_size
    assert codec.obs_size == n + codec.n_actions
    assert codec.n_actions == codec.base.n_actions
    for view, legal in decisions(12):
        out = codec.observe(view, np.full(codec.obs_size, 7.0, np.float32))
        np.testing.assert_array_equal(out[:n], codec.base.observe(view, np.zeros(n, np.float32)))
        choice = heuristic.act(view, legal, np.random.default_rng(0))
        k = codec.base.encode_actions(view, [choice])[0]
        expected = np.zeros(codec.n_actions, np.float32)
        expected[k] = 5.0
        np.testing.assert_array_equal(out[n:], expected)


@pytest.mark.parametrize("arch", ["set", "flat"])
def test_numpy_equals_torch_with_a_prior(tmp_path, state, codec, arch):
    from factionsim.training.export import torch_network

    policy, graph = residual_file(tmp_path, state, codec, arch, perturb=0.05)
    assert policy.prior == {"agent": "heuristic", "weight": 5.0}
    assert policy.obs_size == codec.base.obs_size  # the env's spaces, as before
    assert policy.in_size == codec.obs_size
    obs = np.stack([codec.observe(v, np.zeros(codec.obs_size, np.float32))
                    for v, _ in decisions(16)])
    with torch.no_grad():
        expected = graph(torch.as_tensor(obs)).double().numpy()
        rebuilt = torch_network(policy)(torch.as_tensor(obs)).double().numpy()
    np.testing.assert_allclose(policy.logits(obs), expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(rebuilt, expected, rtol=1e-5, atol=1e-5)
    for o, e in zip(obs, expected, strict=True):  # one at a time, as the agent plays
        np.testing.assert_allclose(policy.logits(o), e, rtol=1e-5, atol=1e-5)
    # the logits are the correction plus the prior: moving the prior moves exactly that logit
    shifted = obs[0].copy()
    k = int(np.argmax(shifted[codec.base.obs_size:]))
    shifted[codec.base.obs_size + k] = 0.0
    diff = policy.logits(obs[0]) - policy.logits(shifted)
    assert diff[k] == pytest.approx(5.0) and np.count_nonzero(np.abs(diff) > 1e-9) == 1


def test_an_untrained_residual_policy_plays_the_heuristics_choices(tmp_path, state, codec):
    """With its correction near 0 (a fresh network), ``agent: policy:PATH`` computes the
    heuristic's choice itself and, playing the most probable action, plays exactly it; sampling,
    it gives the heuristic's choice most of the probability."""
    from factionsim.agents import make_agent

    residual_file(tmp_path, state, codec)
    policy = make_agent(f"policy:{tmp_path / 'p.json'}", "wwn", deterministic=True)
    sampling = make_agent(f"policy:{tmp_path / 'p.json'}", "wwn")
    heuristic = make_agent("heuristic", "wwn")
    policy.check_fits(state)
    sampling.check_fits(state)
    for view, legal in decisions(24):
        rng = np.random.default_rng(1)
        assert policy.act(view, legal, rng) == heuristic.act(view, legal, rng)
        assert policy.last_reason.endswith("; the heuristic's choice)")
        sampling.act(view, legal, rng)
        share = float(sampling.last_reason.split(": ")[1].split("%")[0]) / 100
        assert share > 0.5 or "ranked 1 " not in sampling.last_reason


@pytest.mark.parametrize("prior, message", [
    ({"agent": "planner", "weight": 5}, "prior.agent: 'planner'; allowed: heuristic"),
    ({"agent": "heuristic", "weight": -1}, "prior.weight: -1"),
    ({"agent": "heuristic"}, "prior: must be"),
])
def test_a_malformed_prior_is_refused_naming_the_field(tmp_path, state, codec, prior, message):
    residual_file(tmp_path, state, codec)
    d = json.loads((tmp_path / "p.json").read_text())
    d["prior"] = prior
    (tmp_path / "p.json").write_text(json.dumps(d))
    with pytest.raises(ModelFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_policy(tmp_path / "p.json")


def test_a_league_run_with_a_prior_writes_a_residual_policy(tmp_path):
    """``factionsim train --method league --prior heuristic``: imitation and PPO run on the
    observation plus the prior, and the file says the policy needs it."""
    from factionsim.agents import make_agent
    from factionsim.runner import CampaignTemplate, play
    from factionsim.training import Args, run

    out = tmp_path / "run"
    path = run(Args(method="league", prior="heuristic", prior_weight=4.0, out=str(out),
                    bc_games=2, dagger_rounds=1, dagger_games=2, fit_steps=3, batch_size=32,
                    max_turns=3, final_eval_games=2, eval_opponents=["heuristic"], workers=1,
                    hidden=[16, 16], entity=8, head=8, progress=False, torch_threads=1,
                    ppo_decisions=40, rollout_decisions=40, critic_warmup=0))
    policy = read_policy(path)
    assert policy.prior == {"agent": "heuristic", "weight": 4.0}
    assert "--prior heuristic" in " ".join(policy.description["training"]["command"]) \
        if isinstance(policy.description["training"]["command"], list) \
        else "--prior heuristic" in policy.description["training"]["command"]
    state = CampaignTemplate.load(None, "wwn").new_game(1, 0)
    agent = make_agent(f"policy:{path}", "wwn")
    agent.check_fits(state)
    play(state, 2, {fid: agent for fid in state.factions})
    assert state.turn >= 2 or state.is_over()
