"""MaskablePPO's faster pieces (:mod:`factionsim.envs.sb3_fast`, the trunk by its varying
columns) compute what sb3-contrib's compute (issue 21 item 4, ``factionsim train``'s learner
throughput): the masked distribution and the rollout buffer bit for bit (the same seed trains
the same weights as sb3-contrib's own pieces), the trunk up to float rounding."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")


def _model(fast: bool, by_columns: bool, seed: int = 0):
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
    pieces = ({"policy": FastMaskablePolicy, "rollout_buffer_class": CompactRolloutBuffer}
              if fast else {"policy": "MlpPolicy"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = MaskablePPO(env=venv, n_steps=64, batch_size=32, n_epochs=2, seed=seed,
                            device="cpu", policy_kwargs=kwargs, **pieces)
    model.set_logger(Logger(None, []))
    return model


def _trained(fast: bool, by_columns: bool) -> dict[str, torch.Tensor]:
    torch.set_num_threads(1)
    model = _model(fast, by_columns)
    model.learn(total_timesteps=3 * 128)  # three rollouts and updates
    return {k: v.detach().clone() for k, v in model.policy.state_dict().items()}


def test_fast_distribution_and_buffer_train_sb3_contribs_weights_bit_for_bit():
    plain, fast = _trained(False, False), _trained(True, False)
    assert plain.keys() == fast.keys()
    for k in plain:
        assert torch.equal(plain[k], fast[k]), k
    assert any(not torch.equal(plain[k], _model(False, False).policy.state_dict()[k])
               for k in plain)  # it did train


def test_trunk_by_columns_trains_the_same_weights_up_to_rounding_and_repeats_itself():
    plain, by_columns = _trained(True, False), _trained(True, True)
    assert max(float((plain[k] - by_columns[k]).abs().max()) for k in plain) < 1e-4
    again = _trained(True, True)  # seeded training stays deterministic
    assert all(torch.equal(by_columns[k], again[k]) for k in plain)


def _real_batch(n: int = 96) -> np.ndarray:
    from factionsim.envs.single_agent import SingleAgentEnv

    env, rng, out = SingleAgentEnv(max_turns=10), np.random.default_rng(5), []
    obs, _ = env.reset(seed=5)
    while len(out) < n:
        out.append(obs)
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if done:
            obs, _ = env.reset()
    return np.array(out)


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
