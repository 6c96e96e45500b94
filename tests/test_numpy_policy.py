"""The numpy forward pass equals torch's on the same weights (issue 21 item 2).

MaskablePPO's actor (features extractor, policy net, action net, then the mask) is exported to
the policy file format and run with numpy; its logits and masked probabilities must match what
sb3-contrib computes with torch for the same observations, within 1e-5, over real observations
of the bundled campaign (several decision phases, from random play).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")


def real_observations(n: int = 24, seed: int = 3) -> list[tuple[np.ndarray, np.ndarray]]:
    """``(observation, mask)`` pairs met by a random learner in the bundled WWN campaign."""
    from factionsim.envs.single_agent import SingleAgentEnv

    env = SingleAgentEnv(opponents="random", max_turns=8)
    rng = np.random.default_rng(seed)
    out: list[tuple[np.ndarray, np.ndarray]] = []
    obs, _ = env.reset(seed=seed)
    while len(out) < n:
        mask = env.action_masks()
        if rng.random() < 0.3 or mask.sum() > 3:  # spread over the game's decision kinds
            out.append((obs.copy(), mask.copy()))
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if done:
            obs, _ = env.reset(seed=int(rng.integers(1 << 30)))
    return out


def sb3_model(trunk: int, net_arch: list[int]):
    """A MaskablePPO model with every weight perturbed (an untrained actor's logits are almost
    all equal: the comparison would be too easy)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from factionsim.envs.features import policy_kwargs
    from factionsim.envs.single_agent import SingleAgentEnv

    venv = DummyVecEnv([lambda: SingleAgentEnv(opponents="random", max_turns=4)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, seed=0, device="cpu",
                            policy_kwargs=policy_kwargs(trunk, net_arch))
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for p in model.policy.parameters():
            p.add_(torch.randn(p.shape, generator=gen) * 0.05)
    return model


def sb3_logits_and_probs(model, obs: np.ndarray, mask: np.ndarray):
    policy = model.policy
    with torch.no_grad():
        obs_t, _ = policy.obs_to_tensor(obs)
        features = policy.extract_features(obs_t, policy.pi_features_extractor)
        logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
        dist = policy.get_distribution(obs_t, action_masks=mask[None])
    return logits[0].double().numpy(), dist.distribution.probs[0].double().numpy()


@pytest.mark.parametrize("trunk, net_arch", [(64, [32]), (0, [32, 16])])
def test_numpy_equals_sb3_torch_on_real_observations(tmp_path, trunk, net_arch):
    """Both architectures trained today: a shared ReLU trunk then Tanh layers, and SB3's plain
    MlpPolicy (flat observation, Tanh layers). Through the file on disk, as agents load it."""
    from factionsim.envs import make_codec
    from factionsim.models import masked_softmax, read_policy
    from factionsim.training.export import export_sb3

    model = sb3_model(trunk, net_arch)
    from factionsim import load_campaign
    from factionsim.configs import default_campaign_path

    state = load_campaign(default_campaign_path())
    export_sb3(model, make_codec(state), state, tmp_path / "policy.json", {})
    policy = read_policy(tmp_path / "policy.json")
    observations = real_observations()
    assert len({int(m.sum()) for _, m in observations}) > 3  # several kinds of decision
    for obs, mask in observations:
        logits, probs = sb3_logits_and_probs(model, obs, mask)
        np.testing.assert_allclose(policy.logits(obs), logits, rtol=1e-5, atol=1e-5)
        legal = np.flatnonzero(mask)
        np.testing.assert_allclose(masked_softmax(policy.logits(obs), legal), probs[legal],
                                   rtol=1e-5, atol=1e-6)
        assert probs[~mask].max(initial=0.0) < 1e-6  # what numpy leaves out has no weight


def test_the_shipped_policy_in_numpy_equals_the_same_network_in_torch():
    from factionsim.models import load_policy, shipped_policy_path
    from factionsim.training.export import torch_network

    policy = load_policy(shipped_policy_path("wwn"))
    net = torch_network(policy)
    real = real_observations(12, seed=5)
    observations = [obs for obs, _mask in real]
    if len(observations[0]) != policy.obs_size:  # trained on an older env version
        observations = list(np.random.default_rng(5).random((12, policy.obs_size), np.float32))
    if policy.prior:  # a residual policy also reads the prior: a one-hot on a legal action
        observations = [np.concatenate([obs, np.where(np.arange(policy.n_actions) == np.flatnonzero(
            mask)[0], policy.prior["weight"], 0.0).astype(np.float32)])
            for obs, (_obs, mask) in zip(observations, real, strict=True)]
    for obs in observations:
        with torch.no_grad():
            expected = net(torch.as_tensor(obs)[None])[0].double().numpy()
        np.testing.assert_allclose(policy.logits(obs), expected, rtol=1e-5, atol=1e-5)


def test_an_unsupported_actor_is_refused_not_guessed():
    from factionsim.models.sb3 import UnsupportedPolicy, network_from_sb3

    model = sb3_model(0, [16])
    model.policy.mlp_extractor.policy_net.append(torch.nn.Dropout(0.1))
    with pytest.raises(UnsupportedPolicy, match="Dropout"):
        network_from_sb3(model.policy)


def test_masked_softmax_reads_the_envs_action_mask_as_a_mask() -> None:
    """``masked_softmax(logits, obs["action_mask"])`` — what its name invites — gives every
    action a probability, exactly 0 where the mask is 0 (it once read the mask's 0s and 1s as
    catalogue indices 0 and 1, silently); the same numbers as with the legal indices."""
    from factionsim.envs import make_env
    from factionsim.models import masked_softmax

    env = make_env(ruleset="wwn")
    env.reset(seed=3)
    obs, *_ = env.last()
    mask = obs["action_mask"]
    logits = np.random.default_rng(0).normal(size=mask.shape)
    probs = masked_softmax(logits, mask)
    legal = np.flatnonzero(mask)
    assert probs.shape == mask.shape and np.all(probs[mask == 0] == 0.0)
    np.testing.assert_allclose(probs[legal], masked_softmax(logits, legal), rtol=0, atol=1e-15)
    assert abs(probs.sum() - 1.0) < 1e-12
    with pytest.raises(ValueError, match="listed twice"):
        masked_softmax(logits, [int(legal[0]), int(legal[0])])
