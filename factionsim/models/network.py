"""A policy network's forward pass in numpy alone, rebuilt from its JSON description.

A network is a list of layers applied in order to the observation vector; the last one gives one
logit per action of the env's catalogue. Illegal actions are then masked out (their probability
is exactly 0) and the softmax is taken over the legal ones, as sb3-contrib's
``MaskableCategorical`` does (it sets illegal logits to -1e8). Everything is computed in float64
whatever the stored weights' dtype.

>>> import numpy as np
>>> arrays = {"w": np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]]), "b": np.zeros(3)}
>>> net = Network.from_spec({"layers": [{"type": "dense", "weight": "w", "bias": "b"}]}, arrays, 2)
>>> net(np.array([1.0, 1.0])).tolist()
[1.0, 2.0, 2.0]
>>> masked_softmax(net(np.array([1.0, 1.0])), [1, 2]).tolist()
[0.5, 0.5]

Layer types (:data:`LAYERS`; the ``type`` of each entry of ``network.layers``):

``dense``
    ``{"type": "dense", "weight": W, "bias": B, "activation": A}``: ``y = A(W @ x + b)``, with
    ``W`` the name of an ``(out, in)`` array in the weights file (the layout of torch's
    ``nn.Linear``), ``B`` of an ``(out,)`` array (optional: no bias), ``A`` one of
    :data:`ACTIVATIONS` or ``null`` (none).

A new kind of layer (per-entity layers with pooling over the asset rows, say) is a class with
``from_spec(spec, arrays, in_size, where)``, ``out_size`` and ``__call__(x)`` (``x`` of shape
``(batch, in_size)``), registered in :data:`LAYERS`; the torch side that trains it must write the
same description (see :mod:`factionsim.models.sb3` and :mod:`factionsim.training.export`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from factionsim.core.game import FactionsimError


class ModelFileError(FactionsimError, ValueError):
    """A policy file that cannot be read or does not describe a network we can rebuild."""


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


#: activation name -> function (``null`` in a description: none)
ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {"relu": _relu, "tanh": np.tanh}


def _array(arrays: Mapping[str, np.ndarray], name: Any, where: str, ndim: int) -> np.ndarray:
    if not isinstance(name, str) or name not in arrays:
        raise ModelFileError(f"{where}: names array {name!r}, which the weights file does not "
                             f"hold; it holds: {', '.join(sorted(arrays)) or 'nothing'}")
    a = arrays[name]
    if a.ndim != ndim:
        raise ModelFileError(f"{where}: array {name!r} has shape {a.shape}; expected {ndim} "
                             "dimension(s)")
    return a.astype(np.float64)


@dataclass(frozen=True)
class Dense:
    """``activation(weight @ x + bias)`` (see the module docstring)."""

    weight: np.ndarray  # (out, in)
    bias: np.ndarray | None  # (out,)
    activation: str | None

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], arrays: Mapping[str, np.ndarray], in_size: int,
                  where: str) -> Dense:
        weight = _array(arrays, spec.get("weight"), f"{where}.weight", 2)
        if weight.shape[1] != in_size:
            raise ModelFileError(f"{where}.weight: array {spec['weight']!r} takes "
                                 f"{weight.shape[1]} inputs; the layer before gives {in_size}")
        bias = None
        if spec.get("bias") is not None:
            bias = _array(arrays, spec["bias"], f"{where}.bias", 1)
            if bias.shape[0] != weight.shape[0]:
                raise ModelFileError(f"{where}.bias: array {spec['bias']!r} has {bias.shape[0]} "
                                     f"values; the layer has {weight.shape[0]} outputs")
        activation = spec.get("activation")
        if activation is not None and activation not in ACTIVATIONS:
            raise ModelFileError(f"{where}.activation: {activation!r}; allowed: "
                                 f"{', '.join(ACTIVATIONS)} or null (none)")
        return cls(weight, bias, activation)

    @property
    def out_size(self) -> int:
        return int(self.weight.shape[0])

    def __call__(self, x: np.ndarray) -> np.ndarray:
        y = x @ self.weight.T
        if self.bias is not None:
            y += self.bias
        return ACTIVATIONS[self.activation](y) if self.activation else y


#: layer type (``network.layers[i].type``) -> class with ``from_spec``
LAYERS: dict[str, Any] = {"dense": Dense}
#: the keys a layer entry may have, per type (anything else is a mistake in the file)
LAYER_KEYS: dict[str, tuple[str, ...]] = {"dense": ("type", "weight", "bias", "activation")}


_BLAS: list[Any] = []  # numpy's BLAS libraries (threadpoolctl), found on first use


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """A block in which numpy's BLAS uses one thread (``threadpoolctl``; about 20 microseconds to
    enter and leave). One observation's forward pass is too small to share out: on a busy
    machine (parallel training, a tournament's workers) BLAS threads waiting on each other made
    it 10-30 times slower than one thread."""
    if not _BLAS:
        try:
            from threadpoolctl import ThreadpoolController

            _BLAS.extend(ThreadpoolController().select(user_api="blas").lib_controllers)
        except ImportError:  # pragma: no cover - a dependency; without it, numpy's default
            pass
        _BLAS.append(None)  # found: do not look again
    libs = _BLAS[:-1]
    before = [lib.num_threads for lib in libs]
    for lib in libs:
        lib.set_num_threads(1)
    try:
        yield
    finally:
        for lib, n in zip(libs, before, strict=True):
            lib.set_num_threads(n)


class Network:
    """The layers of a policy, observation in, one logit per catalogue action out."""

    def __init__(self, layers: Sequence[Any], in_size: int):
        self.layers = list(layers)
        self.in_size = int(in_size)
        self.out_size = self.layers[-1].out_size if self.layers else self.in_size

    @classmethod
    def from_spec(cls, spec: Any, arrays: Mapping[str, np.ndarray], in_size: int,
                  where: str = "network") -> Network:
        """Rebuild the network that ``spec`` (the description's ``network``) describes over the
        named ``arrays``; :class:`ModelFileError` names the field of anything wrong."""
        if not isinstance(spec, Mapping) or not isinstance(spec.get("layers"), list) \
                or not spec["layers"]:
            raise ModelFileError(f"{where}.layers: must be a non-empty list of layers")
        layers: list[Any] = []
        size = int(in_size)
        for i, layer in enumerate(spec["layers"]):
            here = f"{where}.layers[{i}]"
            kind = layer.get("type") if isinstance(layer, Mapping) else None
            if kind not in LAYERS:
                raise ModelFileError(f"{here}.type: {kind!r}; allowed: {', '.join(LAYERS)}")
            unknown = sorted(set(layer) - set(LAYER_KEYS[kind]))
            if unknown:
                raise ModelFileError(f"{here}: unknown field(s) {', '.join(unknown)}; a {kind} "
                                     f"layer has: {', '.join(LAYER_KEYS[kind])}")
            built = LAYERS[kind].from_spec(layer, arrays, size, here)
            layers.append(built)
            size = built.out_size
        return cls(layers, in_size)

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        """Logits for one observation (``(in,) -> (out,)``) or a batch (``(n, in) -> (n, out)``)."""
        x = np.asarray(obs, dtype=np.float64)
        single = x.ndim == 1
        x = x[None] if single else x
        with one_blas_thread():
            for layer in self.layers:
                x = layer(x)
        return x[0] if single else x


def masked_softmax(logits: np.ndarray, legal: Sequence[int] | np.ndarray) -> np.ndarray:
    """Probabilities of the ``legal`` catalogue indices (in that order) under ``logits``: the
    softmax over the legal entries only (an illegal action has probability 0)."""
    z = np.asarray(logits, dtype=np.float64)[np.asarray(legal, dtype=np.intp)]
    z = np.exp(z - z.max())
    return z / z.sum()
