"""MaskablePPO's faster pieces (:mod:`factionsim.envs.sb3_fast`, the trunk by its varying
columns) compute what sb3-contrib's compute (issue 21 item 4, ``factionsim train``'s learner
throughput): the masked distribution and the rollout buffer bit for bit (the same seed trains
the same weights as sb3-contrib's own pieces), the trunk and the action layer over the legal
actions up to float rounding; seeded training repeats itself bit for bit."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")


def _model(fast: bool, by_columns: bool, seed: int = 0, compact: bool = False):
    """A small MaskablePPO on two WWN envs: sb3-contrib's pieces or ours."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger
    from stable_baselines3.common.vec_env import DummyVecEnv

    from factionsim.envs.features import policy_kwargs
    from factionsim.envs.sb3_fast import CompactRolloutBuffer, FastMaskablePolicy
    from factionsim.envs.single_agent import SingleAgentEnv

    venv = DummyVecEnv([lambda: SingleAgentEnv(max_turns=6) for _ in range(2)])
    venv.seed(seed)
    kwargs = policy_kwargs(32, [16])
    kwargs["features_extractor_kwargs"]["by_columns"] = by_columns
    if fast:
        kwargs["compact_actions"] = compact
    pieces = ({"policy": FastMaskablePolicy, "rollout_buffer_class": CompactRolloutBuffer}
              if fast else {"policy": "MlpPolicy"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = MaskablePPO(env=venv, n_steps=64, batch_size=32, n_epochs=2, seed=seed,
                            device="cpu", policy_kwargs=kwargs, **pieces)
    model.set_logger(Logger(None, []))
    return model


def _trained(fast: bool, by_columns: bool, compact: bool = False) -> dict[str, torch.Tensor]:
    torch.set_num_threads(1)
    model = _model(fast, by_columns, compact=compact)
    model.learn(total_timesteps=3 * 128)  # three rollouts and updates
    return {k: v.detach().clone() for k, v in model.policy.state_dict().items()}


def test_fast_distribution_and_buffer_train_sb3_contribs_weights_bit_for_bit():
    plain, fast = _trained(False, False), _trained(True, False)
    assert plain.keys() == fast.keys()
    for k in plain:
        assert torch.equal(plain[k], fast[k]), k
    assert any(not torch.equal(plain[k], _model(False, False).policy.state_dict()[k])
               for k in plain)  # it did train


def test_trunk_by_columns_trains_the_same_weights_up_to_rounding():
    plain, by_columns = _trained(True, False), _trained(True, True)
    assert max(float((plain[k] - by_columns[k]).abs().max()) for k in plain) < 1e-4


def test_seeded_training_with_every_fast_piece_repeats_itself_bit_for_bit():
    first, again = _trained(True, True, compact=True), _trained(True, True, compact=True)
    assert all(torch.equal(first[k], again[k]) for k in first)


def test_compact_actions_give_sb3_contribs_log_probs_entropy_and_gradients():
    """The action layer over the batch's legal actions only: the same log probabilities of the
    actions taken, entropy, values and weight gradients as over the whole catalogue, up to
    float rounding; and the actions it samples are legal."""
    model = _model(True, True, compact=True)
    policy = model.policy
    obs, masks = _real_batch(with_masks=True)
    x, m = torch.as_tensor(obs), torch.as_tensor(masks)
    with torch.no_grad():
        actions, _, log_prob = policy(x, action_masks=m)
    assert m[torch.arange(len(m)), actions].all()
    seen = []
    for compact in (False, True):
        policy.compact_actions = compact
        policy.zero_grad()
        values, logp, entropy = policy.evaluate_actions(x, actions, action_masks=m)
        (logp.sum() + entropy.sum() + values.sum()).backward()
        seen.append((values.detach(), logp.detach(), entropy.detach(),
                     {k: p.grad.clone() for k, p in policy.named_parameters()}))
    (v0, lp0, e0, g0), (v1, lp1, e1, g1) = seen
    assert torch.allclose(lp0, lp1, atol=1e-5) and torch.allclose(lp1, log_prob, atol=1e-5)
    assert torch.allclose(e0, e1, atol=1e-5) and torch.equal(v0, v1)
    for k in g0:
        assert torch.allclose(g0[k], g1[k], atol=1e-4), k


def _real_batch(n: int = 96, with_masks: bool = False) -> Any:
    """``n`` observations of random WWN play (and their masks)."""
    from factionsim.envs.single_agent import SingleAgentEnv

    env, rng, out, masks = SingleAgentEnv(max_turns=10), np.random.default_rng(5), [], []
    obs, _ = env.reset(seed=5)
    while len(out) < n:
        out.append(obs)
        masks.append(env.action_masks())
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(masks[-1]))))
        if done:
            obs, _ = env.reset()
    return (np.array(out), np.array(masks)) if with_masks else np.array(out)


def test_linear_by_columns_gives_the_dense_outputs_and_weight_gradients():
    from factionsim.envs.features import linear_by_columns

    x = torch.as_tensor(_real_batch())
    varying = (x.amax(0) != x.amin(0)).sum()
    assert varying < x.shape[1] // 3  # most columns are the same in the whole batch
    layer = torch.nn.Linear(x.shape[1], 24)
    grads = []
    for fn in (layer, lambda v: linear_by_columns(layer, v)):
        layer.zero_grad()
        y = fn(x)
        (y.tanh() * torch.linspace(-1, 1, 24)).sum().backward()
        grads.append((y.detach(), layer.weight.grad.clone(), layer.bias.grad.clone()))
    (y0, w0, b0), (y1, w1, b1) = grads
    assert torch.allclose(y0, y1, atol=1e-5)
    assert torch.allclose(w0, w1, atol=1e-5) and torch.allclose(b0, b1, atol=1e-5)


def test_masked_distribution_equals_sb3_contribs_bit_for_bit():
    from sb3_contrib.common.maskable.distributions import MaskableCategorical

    from factionsim.envs.sb3_fast import MaskedCategorical

    gen = torch.Generator().manual_seed(0)
    logits = torch.randn(64, 300, generator=gen) * 3
    masks = torch.rand(64, 300, generator=gen) < 0.05
    masks[:, 7] = True
    actions = torch.tensor([int(np.flatnonzero(m)[0]) for m in masks.numpy()])
    seen = []
    for cls in (MaskableCategorical, MaskedCategorical):
        x = logits.clone().requires_grad_()
        d = cls(logits=x)
        d.apply_masking(masks)
        loss = d.log_prob(actions).sum() + d.entropy().sum()
        loss.backward()
        seen.append((d.probs.detach(), d.log_prob(actions).detach(), d.entropy().detach(),
                     x.grad))
    for a, b in zip(*seen, strict=True):
        assert torch.equal(a, b)
        assert not torch.isnan(b).any()


def test_a_row_with_no_legal_action_is_masked_as_sb3_contrib_masks_it():
    from sb3_contrib.common.maskable.distributions import MaskableCategorical

    from factionsim.envs.sb3_fast import MaskedCategorical

    logits = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.0, -1.0]])
    masks = np.array([[True, False, True], [False, False, False]])
    ours, theirs = MaskedCategorical(logits=logits, masks=masks), \
        MaskableCategorical(logits=logits, masks=masks)
    assert torch.equal(ours.probs, theirs.probs) and not torch.isnan(ours.probs).any()


def test_worker_envs_train_dummy_envs_weights_bit_for_bit():
    """``--vec workers`` (two processes stepping two envs each) gives the observations, masks
    and rewards of ``--vec dummy`` (all four in this process), so the same weights."""
    from stable_baselines3.common.logger import Logger

    from factionsim.training import Args
    from factionsim.training.ppo import make_model, make_venv

    torch.set_num_threads(1)
    weights = []
    for vec in ("dummy", "workers"):
        args = Args(vec=vec, n_envs=4, n_steps=32, batch_size=64, n_epochs=1, seed=3,
                    workers=2, trunk=32, net_arch=[16])
        venv = make_venv(args, {"max_turns": 6})
        try:
            model = make_model(args, venv)
            model.set_logger(Logger(None, []))
            model.learn(total_timesteps=2 * 128)
            assert venv.has_attr("action_masks")
            masks = np.stack(venv.env_method("action_masks"))
            assert masks.shape == (4, venv.action_space.n) and masks.any(axis=1).all()
        finally:
            venv.close()
        weights.append({k: v.detach().clone() for k, v in model.policy.state_dict().items()})
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])


def test_trunk_of_a_rollout_step_reads_its_nonzero_columns_and_follows_weight_updates():
    import gymnasium as gym

    from factionsim.envs.features import LinearTrunk

    x = torch.as_tensor(_real_batch(8))
    trunk = LinearTrunk(gym.spaces.Box(0, 1, (x.shape[1],), np.float32), features_dim=16)
    with torch.no_grad():
        assert torch.allclose(trunk(x), trunk.layer(x), atol=1e-5)
        trunk.layer[0].weight.mul_(-2.0)  # an optimizer's in-place step
        assert torch.allclose(trunk(x), trunk.layer(x), atol=1e-5)
    y = trunk(x)  # with gradients: the plain layer
    assert y.requires_grad and torch.equal(y, trunk.layer(x))
