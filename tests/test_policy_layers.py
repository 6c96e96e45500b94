"""The set-based policy layers (issue 21 items 1-2): numpy's forward pass equals torch's on the
same weights within 1e-5 for every layer type, through the policy file on disk; the layers do
what their documentation says (pooling only over present rows, vectors broadcast over rows); a
description that wires them wrongly is refused with the field named."""

from __future__ import annotations

import numpy as np
import pytest

from factionsim.models.network import ModelFileError, Network

torch = pytest.importorskip("torch")


def real_observations(n: int = 16, seed: int = 3) -> np.ndarray:
    """Observations met by a random player of a generated campaign (several phases)."""
    from factionsim.agents import make_agent
    from factionsim.training.games import Campaigns, game

    source = Campaigns("wwn", generated=1.0)
    rng = np.random.default_rng(seed)
    state = source.draw(rng)
    random = make_agent("random", "wwn")
    seats = {f: ("net", "me") if i < 2 else random for i, f in enumerate(state.factions)}
    g = game(state, source.codec_for(state), seats, rng, turns=6)
    out = []
    d = next(g)
    while len(out) < n:
        out.append(d.obs)
        d = g.send(int(rng.integers(len(d.legal))))
    return np.stack(out)


@pytest.fixture(scope="module")
def codec():
    from factionsim import load_campaign
    from factionsim.configs import default_campaign_path
    from factionsim.envs import make_codec

    return make_codec(load_campaign(default_campaign_path()))


@pytest.mark.parametrize("arch", ["set", "flat"])
def test_numpy_equals_torch_through_the_file(tmp_path, codec, arch):
    from factionsim import load_campaign
    from factionsim.configs import default_campaign_path
    from factionsim.models import read_policy
    from factionsim.models.files import write_policy
    from factionsim.training.export import description
    from factionsim.training.graph import TorchGraph
    from factionsim.training.nets import build_network

    spec, arrays = build_network(codec, arch, seed=1)
    graph = TorchGraph(spec, arrays, codec.obs_size)
    with torch.no_grad():  # trained-looking weights: the output layers are not near zero
        for p in graph.parameters():
            p.add_(torch.randn(p.shape, generator=torch.Generator().manual_seed(2)) * 0.05)
    state = load_campaign(default_campaign_path())
    write_policy(tmp_path / "p.json", description(codec, state, spec, {}), graph.arrays())
    policy = read_policy(tmp_path / "p.json")
    layer_types = {layer["type"] for layer in spec["layers"]}
    if arch == "set":
        assert layer_types == {"piece", "dense", "masked_pool", "concat", "add", "flatten",
                               "gather"}
    obs = real_observations()
    with torch.no_grad():
        expected = graph(torch.as_tensor(obs)).double().numpy()
    np.testing.assert_allclose(policy.logits(obs), expected, rtol=1e-5, atol=1e-5)
    for o, e in zip(obs, expected, strict=True):  # one observation at a time, as agents play
        np.testing.assert_allclose(policy.logits(o), e, rtol=1e-5, atol=1e-5)


def _net(layers, arrays=None, size=6):
    return Network.from_spec({"layers": layers}, arrays or {}, size)


def test_masked_pool_reads_only_present_rows():
    # three rows of two: present, absent (flag 0, other values left non-zero on purpose), present
    net = _net([{"type": "piece", "start": 0, "rows": 3, "width": 2, "name": "rows"},
                {"type": "masked_pool", "input": ["rows", "rows"], "ops": ["mean", "max"]}])
    x = np.array([1.0, 4.0, 0.0, 100.0, 1.0, 2.0])
    assert net(x).tolist() == [1.0, 3.0, 1.0, 4.0]
    assert net(np.zeros(6)).tolist() == [0.0, 0.0, 0.0, 0.0]  # an empty set pools to zeros


def test_concat_and_add_repeat_a_vector_on_every_row():
    arrays = {"w": np.eye(2)}
    net = _net([{"type": "piece", "start": 0, "rows": 2, "width": 2, "name": "rows"},
                {"type": "piece", "start": 4, "rows": 1, "width": 2, "name": "ctx",
                 "input": "observation"},
                {"type": "concat", "input": ["rows", "ctx"]},
                {"type": "flatten", "name": "joined"},
                {"type": "add", "input": ["rows", "ctx"], "activation": "relu"},
                {"type": "flatten", "name": "added"},
                {"type": "concat", "input": ["joined", "added"]},
                {"type": "gather", "index": [0, 3, 8, 11]}], arrays)
    x = np.array([1.0, 2.0, 3.0, 4.0, 10.0, -20.0])
    # joined rows: [1 2 10 -20] [3 4 10 -20]; added (relu): [11 0] [13 0]
    assert net(x).tolist() == [1.0, -20.0, 11.0, 0.0]


@pytest.mark.parametrize("layers, message", [
    ([{"type": "dense", "weight": "w", "bias": None, "input": "nowhere"}], r"layers\[0\]\.input"),
    ([{"type": "piece", "start": 4, "rows": 2, "width": 2}], r"layers\[0\]"),
    ([{"type": "piece", "start": 0, "rows": 2, "width": 2},
      {"type": "masked_pool", "input": ["#0"]}], r"layers\[1\]\.input"),
    ([{"type": "piece", "start": 0, "rows": 2, "width": 2, "name": "r"},
      {"type": "masked_pool", "input": ["r", "r"], "ops": ["median"]}], r"layers\[1\]\.ops"),
    ([{"type": "gather", "index": [0, 6]}], r"layers\[0\]\.index"),
    ([{"type": "piece", "start": 0, "rows": 2, "width": 2}], "last layer gives a set"),
    ([{"type": "piece", "start": 0, "rows": 1, "width": 2, "name": "observation"}],
     r"layers\[0\]\.name"),
])
def test_a_wrongly_wired_network_is_refused_with_the_field(layers, message):
    with pytest.raises(ModelFileError, match=message):
        _net(layers, {"w": np.eye(6)})
