"""Policy architectures as network descriptions (the policy file's ``network``), with fresh
weights: what :class:`factionsim.training.graph.TorchGraph` trains and numpy plays.

``flat``
    The observation through ``hidden`` dense ReLU layers, then one logit per action (what
    MaskablePPO's MlpPolicy is, less the tanh).
``set``
    A set-based encoder over the codec's observation pieces
    (:func:`factionsim.training.layouts.observation_pieces`): the vector pieces go through one
    dense layer; every entity set's rows go through two dense layers shared by every row (one
    encoder for sets whose rows have the same width: the own and the other assets), and are
    pooled over the present rows (mean and max); the pieces and pools together make the
    *context* (two dense layers). The context scores the actions that belong to no entity row;
    each row of a set that has actions (:func:`~factionsim.training.layouts.action_sources`:
    "attack with own asset 3") scores its own actions with a small head shared by every row,
    reading the row's encoding and the context (a pointer-style head: what is learnt for one
    asset slot holds for every slot). A ``gather`` puts every score at its catalogue index.

The context is the layer named ``context`` (a value head reads it in training).

With a prior (``codec`` a :class:`factionsim.models.prior.PriorCodec`: ``--prior heuristic``)
either network reads the env's part of the observation and its output is named ``correction``;
a ``piece`` takes the prior (one value per action, after the observation) and an ``add`` gives
``correction + prior``: a residual policy that plays like the prior's agent while its correction
is near 0 (the output layers start at a tenth of torch's default scale).

>>> from factionsim import load_campaign
>>> from factionsim.configs import default_campaign_path
>>> from factionsim.envs import make_codec
>>> from factionsim.models.network import Network
>>> codec = make_codec(load_campaign(default_campaign_path()))
>>> spec, arrays = build_network(codec, "set", seed=0)
>>> Network.from_spec(spec, arrays, codec.obs_size).out_size == codec.n_actions
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .layouts import action_sources, observation_pieces

ARCHITECTURES = ("set", "flat")


@dataclass
class NetShape:
    """The sizes of an architecture (``factionsim train --arch``, ``--width``...)."""

    arch: str = "set"
    hidden: list[int] = field(default_factory=lambda: [256, 256])  # context / flat layers
    entity: int = 64  # per-row encoder width (set)
    head: int = 128  # per-row action head width (set)


class _Builder:
    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.layers: list[dict[str, Any]] = []
        self.arrays: dict[str, np.ndarray] = {}

    def dense(self, name: str, n_in: int, n_out: int, activation: str | None,
              input: Any = None, out_name: str | None = None, scale: float = 1.0,
              shared: bool = False, bias: bool = True) -> None:
        """A dense layer whose arrays are ``name.weight`` / ``name.bias`` (already made ones
        are reused when ``shared``: the same weights for another input)."""
        if not (shared and f"{name}.weight" in self.arrays):
            bound = 1.0 / np.sqrt(n_in)  # torch's nn.Linear default
            self.arrays[f"{name}.weight"] = (self.rng.uniform(-bound, bound, (n_out, n_in))
                                             * scale).astype(np.float32)
            if bias:
                self.arrays[f"{name}.bias"] = (self.rng.uniform(-bound, bound, n_out)
                                               * scale).astype(np.float32)
        self.add({"type": "dense", "weight": f"{name}.weight",
                  "bias": f"{name}.bias" if bias else None, "activation": activation},
                 input, out_name)

    def add(self, layer: dict[str, Any], input: Any = None, name: str | None = None) -> None:
        if input is not None:
            layer["input"] = input
        if name is not None:
            layer["name"] = name
        self.layers.append(layer)


def build_network(codec: Any, arch: str = "set", seed: int = 0,
                  shape: NetShape | None = None) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """``(network description, arrays)`` of a fresh ``arch`` network for ``codec``'s spaces."""
    shape = shape or NetShape(arch=arch)
    if arch not in ARCHITECTURES:
        raise ValueError(f"architecture {arch!r}; allowed: {', '.join(ARCHITECTURES)}")
    b = _Builder(seed)
    prior = getattr(codec, "prior", None)  # a PriorCodec: the observation, then the prior
    if prior:
        base = codec.base
        if arch == "set":
            _set_network(b, base, shape)
        else:
            b.add({"type": "piece", "start": 0, "rows": 1, "width": int(base.obs_size)},
                  "observation", "piece:observation")
            _flat_network(b, base, shape, "piece:observation")
        b.layers[-1]["name"] = "correction"
        b.add({"type": "piece", "start": int(base.obs_size), "rows": 1,
               "width": int(base.n_actions)}, "observation", "piece:prior")
        b.add({"type": "add", "activation": None}, ["correction", "piece:prior"])
    elif arch == "flat":
        _flat_network(b, codec, shape)
    elif arch == "set":
        _set_network(b, codec, shape)
    network = {"input": "observation", "output": "one logit per action of the catalogue",
               "masking": "illegal actions get probability 0; softmax over the legal ones",
               "architecture": arch, "layers": b.layers}
    return network, b.arrays


def _flat_network(b: _Builder, codec: Any, shape: NetShape, input: str = "observation") -> None:
    size = codec.obs_size
    for i, h in enumerate(shape.hidden):
        b.dense(f"hidden{i}", size, h, "relu", input if i == 0 else None,
                out_name="context" if i == len(shape.hidden) - 1 else None)
        size = h
    b.dense("logits", size, codec.n_actions, None, scale=0.1)


def _set_network(b: _Builder, codec: Any, shape: NetShape) -> None:
    pieces = observation_pieces(codec)
    sources = action_sources(codec)
    start = 0
    vectors: list[tuple[str, int]] = []
    sets: list[Any] = []
    for p in pieces:
        b.add({"type": "piece", "start": start, "rows": p.rows, "width": p.width},
              "observation", f"piece:{p.name}")
        (sets if p.rows > 1 else vectors).append(p if p.rows > 1 else (f"piece:{p.name}", p.width))
        start += p.size
    parts: list[tuple[str, int]] = []
    if vectors:
        if len(vectors) > 1:
            b.add({"type": "concat"}, [n for n, _ in vectors], "vectors")
        b.dense("vectors", sum(w for _, w in vectors), shape.hidden[0], "relu",
                "vectors" if len(vectors) > 1 else vectors[0][0], "vectors_e")
        parts.append(("vectors_e", shape.hidden[0]))
    e = shape.entity
    for p in sets:
        enc = f"rows{p.width}"  # sets of rows alike share their encoder
        b.dense(f"{enc}.0", p.width, e, "relu", f"piece:{p.name}", shared=True)
        b.dense(f"{enc}.1", e, e, "relu", out_name=f"{p.name}_e", shared=True)
        b.add({"type": "masked_pool", "ops": ["mean", "max"]},
              [f"{p.name}_e", f"piece:{p.name}"], f"{p.name}_pool")
        parts.append((f"{p.name}_pool", 2 * e))
    if len(parts) > 1:
        b.add({"type": "concat"}, [n for n, _ in parts], "joined")
    size = sum(w for _, w in parts)
    for i, h in enumerate(shape.hidden):
        b.dense(f"context{i}", size, h, "relu", "joined" if i == 0 and len(parts) > 1 else None,
                "context" if i == len(shape.hidden) - 1 else None)
        size = h
    n_context = sources.n_context
    logits = []
    if n_context:
        b.dense("context_logits", size, n_context, None, "context", "context_logits", scale=0.1)
        logits.append(("context_logits", n_context))
    for p in sets:
        cols = sources.columns.get(p.name, 0)
        if not cols:
            continue
        # dense(concat(row, context)) as the row's part plus the context's part (once per
        # observation, not once per row)
        head = shape.head if cols > 1 else max(16, shape.head // 4)
        b.dense(f"{p.name}_head.row", e, head, None, f"{p.name}_e", f"{p.name}_head_row",
                bias=False)
        b.dense(f"{p.name}_head.context", size, head, None, "context")
        b.add({"type": "add", "activation": "relu"}, [f"{p.name}_head_row", f"#{len(b.layers) - 1}"])
        b.dense(f"{p.name}_head.out", head, cols, None, scale=0.1)
        b.add({"type": "flatten"}, name=f"{p.name}_logits")
        logits.append((f"{p.name}_logits", p.rows * cols))
    first: dict[str, int] = {}
    pos = 0
    for name, n in logits:
        first[name] = pos
        pos += n
    index = []
    for s in sources.sources:
        if s[0] == "context":
            index.append(first["context_logits"] + s[1])
        else:
            _, set_name, row, col = s
            index.append(first[f"{set_name}_logits"] + row * sources.columns[set_name] + col)
    if len(logits) > 1:
        b.add({"type": "concat"}, [n for n, _ in logits])
    b.add({"type": "gather", "index": index}, None if len(logits) > 1 else logits[0][0])
