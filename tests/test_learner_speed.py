"""The learner's fast paths compute what the plain ones compute (issue 21 item 4): entity sets
by their occupied rows (:mod:`factionsim.training.rowsets`) give the dense pass's logits and
gradients, one PPO update trains the same weights either way, and the same seed gives the same
weights, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def rollout_data():
    """A small WWN rollout against random opponents (real observations: most asset slots
    empty) and the network that played it."""
    from factionsim.envs import make_codec
    from factionsim.training import Args
    from factionsim.training.evaluate import run_campaign
    from factionsim.training.league import RolloutTask, rollout
    from factionsim.training.league_run import league_members
    from factionsim.training.nets import NetShape, build_network

    state, _ = run_campaign(Args())
    codec = make_codec(state)
    spec, arrays = build_network(codec, "set", seed=3,
                                 shape=NetShape(hidden=[32, 32], entity=16, head=16))
    task = RolloutTask("wwn", None, 0.0, 3, (spec, arrays), league_members(["random"]), {},
                       (1, 2), 60, seed=11)
    return codec, spec, arrays, rollout(task)


def _graphs(codec, spec, arrays):
    from factionsim.training.graph import TorchGraph

    return (TorchGraph(spec, arrays, codec.obs_size, sparse_sets=False),
            TorchGraph(spec, arrays, codec.obs_size))


def test_sets_by_occupied_rows_give_the_dense_logits_and_gradients(rollout_data):
    codec, spec, arrays, res = rollout_data
    obs, mask, target = res.samples.batch(np.arange(len(res.samples)))
    assert len(obs) >= 60
    present = obs[:, 255:255 + 32 * 62].reshape(len(obs), 32, 62)[:, :, 0].sum(axis=1)
    assert 0 < present.mean() < 16  # most own-asset slots are empty: the case this is for
    x, m = torch.as_tensor(obs), torch.as_tensor(mask)
    seen = []
    for g in _graphs(codec, spec, arrays):
        logits, inner = g(x, outputs=("context",))
        logp = torch.log_softmax(logits.masked_fill(~m, -1e9), dim=1)
        loss = -logp.gather(1, torch.as_tensor(target, dtype=torch.long)[:, None]).mean()
        loss.backward()
        seen.append((logits.detach(), inner["context"].detach(),
                     {k: p.grad.clone() for k, p in g.params.items()}))
    (dense_logits, dense_context, dense_grads), (logits, context, grads) = seen
    # every logit (legal or not) and the context are the dense pass's
    assert torch.allclose(dense_logits, logits, atol=1e-5)
    assert torch.allclose(dense_context, context, atol=1e-5)
    for k in dense_grads:
        assert torch.allclose(dense_grads[k], grads[k], rtol=1e-4, atol=1e-6), k
    # and the numpy pass that plays the file computes the same logits
    from factionsim.models.network import Network

    numpy_logits = Network.from_spec(spec, arrays, codec.obs_size)(obs)
    assert np.allclose(numpy_logits, logits.numpy(), atol=1e-5)


def test_a_set_with_no_occupied_row_pools_to_zeros():
    """An observation with every asset slot empty (all rows absent) pools as the dense pass
    does: zeros, and its logits are still the dense pass's."""
    from factionsim.training.graph import TorchGraph

    # rows -> dense(relu) -> pooled (mean, max) -> a context; each row's score reads the row
    # and the context (add), flattened: every row-wise layer kind and the pool
    spec = {"layers": [{"type": "piece", "start": 0, "rows": 3, "width": 2, "name": "units"},
                       {"type": "dense", "weight": "w", "bias": "b", "activation": "relu",
                        "name": "rows"},
                       {"type": "masked_pool", "input": ["rows", "units"], "ops": ["mean", "max"],
                        "name": "pool"},
                       {"type": "dense", "weight": "c", "bias": None, "activation": None,
                        "name": "context"},
                       {"type": "add", "input": ["rows", "context"], "activation": "relu"},
                       {"type": "flatten"}]}
    arrays = {"w": np.array([[1.0, -1.0], [0.5, 2.0]]), "b": np.array([0.1, -0.2]),
              "c": np.array([[1.0, 0.0, 2.0, 0.0], [0.0, -1.0, 0.0, 1.0]])}
    # sample 0: every slot empty; sample 1: two present rows and one not flagged present
    obs = torch.tensor([[0.0] * 6, [1.0, 0.5, 0.0, 3.0, 1.0, 2.0]])
    dense = TorchGraph(spec, arrays, 6, sparse_sets=False)
    sparse = TorchGraph(spec, arrays, 6)
    out_d, inner_d = dense(obs, outputs=("pool",))
    out_s, inner_s = sparse(obs, outputs=("pool",))
    assert inner_s["pool"][0].tolist() == [0.0] * 4
    assert torch.allclose(inner_d["pool"], inner_s["pool"])
    assert torch.allclose(out_d, out_s)


def _one_update(codec, spec, arrays, res, sparse_sets: bool):
    from factionsim.training.graph import TorchGraph
    from factionsim.training.league import PPOSettings, ValueHead, ppo_optimizer, ppo_update

    torch.manual_seed(0)
    graph = TorchGraph(spec, arrays, codec.obs_size, sparse_sets=sparse_sets)
    value = ValueHead(32)
    optimizer = ppo_optimizer(graph, value, 1e-3)
    ppo_update(graph, value, optimizer, res.samples, res.rewards, res.dones,
               PPOSettings(batch_size=32, epochs=2), np.random.default_rng(5))
    return graph.arrays()


def test_one_ppo_update_trains_the_same_weights_fast_or_plain(rollout_data):
    """Same seed, same weights after one update: bit for bit run again; within float rounding
    between the occupied-rows and the dense pass (the mean pool sums rows in another order)."""
    codec, spec, arrays, res = rollout_data
    fast = _one_update(codec, spec, arrays, res, True)
    again = _one_update(codec, spec, arrays, res, True)
    plain = _one_update(codec, spec, arrays, res, False)
    assert all(np.array_equal(fast[k], again[k]) for k in fast)
    assert any(not np.array_equal(fast[k], arrays[k]) for k in fast)  # it did train
    # Adam divides each step by the root of the gradient's running square, so an entry whose
    # gradient is rounding noise in both passes (about 0) can step by up to the learning rate
    # (1e-3) in one and not the other: on the rebalanced bundled campaign's rollout 3 of
    # context1.weight's 1024 entries differ by 2e-4 (issue 24 item 4). Every other entry agrees
    # within 1e-6; none may differ by more than two learning-rate steps (seen: 2.2e-4).
    for k in fast:
        close = np.isclose(fast[k], plain[k], rtol=0, atol=1e-6)
        assert close.mean() >= 0.99, k
        assert np.abs(fast[k] - plain[k]).max() <= 2 * 1e-3, k
