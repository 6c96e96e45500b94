"""A policy network's forward pass in numpy alone, rebuilt from its JSON description.

A network is a list of layers; the last one gives one logit per action of the env's catalogue.
Illegal actions are then masked out (their probability is exactly 0) and the softmax is taken
over the legal ones, as sb3-contrib's ``MaskableCategorical`` does (it sets illegal logits to
-1e8). Everything is computed in float64 whatever the stored weights' dtype.

>>> import numpy as np
>>> arrays = {"w": np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]]), "b": np.zeros(3)}
>>> net = Network.from_spec({"layers": [{"type": "dense", "weight": "w", "bias": "b"}]}, arrays, 2)
>>> net(np.array([1.0, 1.0])).tolist()
[1.0, 2.0, 2.0]
>>> masked_softmax(net(np.array([1.0, 1.0])), [1, 2]).tolist()
[0.5, 0.5]

Wiring. By default each layer reads the output of the layer before it (the first one reads the
observation), so a plain list of layers is a chain. A layer may instead name what it reads:
``"input": NAME`` or ``"input": [NAME, ...]``, where ``NAME`` is ``"observation"`` or the
``"name"`` an earlier layer was given. Values flow as batches: a *vector* ``(batch, width)`` or
a *set* ``(batch, rows, width)`` (one row per entity slot: the assets of a faction...).

Layer types (:data:`LAYERS`; the ``type`` of each entry of ``network.layers``):

``dense``
    ``{"type": "dense", "weight": W, "bias": B, "activation": A}``: ``y = A(W @ x + b)``, with
    ``W`` the name of an ``(out, in)`` array in the weights file (the layout of torch's
    ``nn.Linear``), ``B`` of an ``(out,)`` array (optional: no bias), ``A`` one of
    :data:`ACTIVATIONS` or ``null`` (none). On a set it is applied to every row alike (the same
    weights: a per-entity layer). Two layers may name the same arrays (shared weights).
``piece``
    ``{"type": "piece", "start": S, "rows": R, "width": W}``: values ``S`` to ``S + R*W`` of
    the observation, as a vector of ``W`` (``R = 1``) or a set of ``R`` rows of ``W`` (a piece
    of the env codec's observation layout).
``masked_pool``
    ``{"type": "masked_pool", "input": [VALUES, ROWS], "ops": ["mean", "max"]}``: pools the set
    ``VALUES`` over its rows whose flag (the first value of the same row of the set ``ROWS``,
    the piece they were computed from) is 1, one vector per op, concatenated. An empty set pools
    to zeros.
``concat``
    ``{"type": "concat", "input": [A, B, ...]}``: joins the inputs along their last axis; if any
    is a set, the vectors among them are repeated on every row (each entity sees the context).
``add``
    ``{"type": "add", "input": [A, B, ...], "activation": ACT}``: ``ACT(A + B + ...)``; vectors
    are added to every row of a set (a dense layer over a row joined with the context is the
    row's part plus the context's part, the latter computed once).
``flatten``
    ``{"type": "flatten"}``: a set of ``R`` rows of ``W`` as one vector of ``R*W`` (row after row).
``gather``
    ``{"type": "gather", "index": [i0, i1, ...]}``: the vector ``[x[i0], x[i1], ...]`` (the
    catalogue assembled from the pieces that score its actions).

A new kind of layer is a class with ``from_spec(spec, arrays, in_shapes, where)`` (``in_shapes``:
one shape per input, each ``(width,)`` or ``(rows, width)``), ``out_shape`` and ``__call__(*xs)``
(each ``x`` of shape ``(batch, *shape)``), registered in :data:`LAYERS` with its keys in
:data:`LAYER_KEYS`; the torch side that trains it must compute the same function
(:mod:`factionsim.training.graph`).
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


Shape = tuple[int, ...]  # (width,) for a vector, (rows, width) for a set


def _one_input(in_shapes: Sequence[Shape], where: str, kind: str) -> Shape:
    if len(in_shapes) != 1:
        raise ModelFileError(f"{where}.input: a {kind} layer reads one input, not "
                             f"{len(in_shapes)}")
    return in_shapes[0]


def _whole(spec: Mapping[str, Any], key: str, where: str, minimum: int = 0) -> int:
    value = spec.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ModelFileError(f"{where}.{key}: {value!r}; must be a whole number >= {minimum}")
    return value


@dataclass(frozen=True)
class Dense:
    """``activation(weight @ x + bias)`` on the last axis (see the module docstring)."""

    weight: np.ndarray  # (out, in)
    bias: np.ndarray | None  # (out,)
    activation: str | None
    in_shape: Shape = (0,)

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], arrays: Mapping[str, np.ndarray],
                  in_shapes: Sequence[Shape], where: str) -> Dense:
        shape = _one_input(in_shapes, where, "dense")
        weight = _array(arrays, spec.get("weight"), f"{where}.weight", 2)
        if weight.shape[1] != shape[-1]:
            raise ModelFileError(f"{where}.weight: array {spec['weight']!r} takes "
                                 f"{weight.shape[1]} inputs; the layer before gives {shape[-1]}")
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
        return cls(weight, bias, activation, tuple(shape))

    @property
    def out_shape(self) -> Shape:
        return (*self.in_shape[:-1], int(self.weight.shape[0]))

    @property
    def out_size(self) -> int:
        return int(self.weight.shape[0])

    def __call__(self, x: np.ndarray) -> np.ndarray:
        y = x @ self.weight.T
        if self.bias is not None:
            y += self.bias
        return ACTIVATIONS[self.activation](y) if self.activation else y


@dataclass(frozen=True)
class Piece:
    """A piece of the observation: a vector (``rows`` 1) or a set of ``rows`` rows."""

    start: int
    rows: int
    width: int

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], arrays: Mapping[str, np.ndarray],
                  in_shapes: Sequence[Shape], where: str) -> Piece:
        shape = _one_input(in_shapes, where, "piece")
        start = _whole(spec, "start", where)
        rows = _whole(spec, "rows", where, 1)
        width = _whole(spec, "width", where, 1)
        if len(shape) != 1 or start + rows * width > shape[0]:
            raise ModelFileError(f"{where}: values {start} to {start + rows * width} of an input "
                                 f"of shape {shape}; a piece is cut from a vector long enough")
        return cls(start, rows, width)

    @property
    def out_shape(self) -> Shape:
        return (self.width,) if self.rows == 1 else (self.rows, self.width)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        y = x[:, self.start:self.start + self.rows * self.width]
        return y if self.rows == 1 else y.reshape(len(x), self.rows, self.width)


#: what :class:`MaskedPool` can compute over the present rows
POOL_OPS = ("mean", "max")


@dataclass(frozen=True)
class MaskedPool:
    """Mean and/or max of a set's rows whose flag (first value of the flag set's row) is 1."""

    ops: tuple[str, ...]
    width: int

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], arrays: Mapping[str, np.ndarray],
                  in_shapes: Sequence[Shape], where: str) -> MaskedPool:
        if len(in_shapes) != 2 or len(in_shapes[0]) != 2 or len(in_shapes[1]) != 2 \
                or in_shapes[0][0] != in_shapes[1][0]:
            raise ModelFileError(f"{where}.input: a masked_pool layer reads two sets of the same "
                                 f"rows (the values, then the piece whose rows flag presence); "
                                 f"got shapes {list(in_shapes)}")
        ops = spec.get("ops", ["mean", "max"])
        if not isinstance(ops, list) or not ops or any(op not in POOL_OPS for op in ops):
            raise ModelFileError(f"{where}.ops: {ops!r}; a non-empty list of "
                                 f"{', '.join(POOL_OPS)}")
        return cls(tuple(ops), int(in_shapes[0][1]))

    @property
    def out_shape(self) -> Shape:
        return (self.width * len(self.ops),)

    def __call__(self, values: np.ndarray, rows: np.ndarray) -> np.ndarray:
        mask = (rows[..., 0] > 0.5)[..., None]  # (batch, rows, 1)
        out = []
        for op in self.ops:
            if op == "mean":
                count = np.maximum(mask.sum(axis=1), 1)
                out.append((values * mask).sum(axis=1) / count)
            else:  # max over the present rows; an empty set gives zeros
                filled = np.where(mask, values, -np.inf).max(axis=1)
                out.append(np.where(np.isfinite(filled), filled, 0.0))
        return np.concatenate(out, axis=-1)


@dataclass(frozen=True)
class Concat:
    """The inputs side by side; vectors are repeated on every row when a set is among them."""

    rows: int | None
    widths: tuple[int, ...]

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], arrays: Mapping[str, np.ndarray],
                  in_shapes: Sequence[Shape], where: str) -> Concat:
        if len(in_shapes) < 2:
            raise ModelFileError(f"{where}.input: a concat layer joins two inputs or more")
        rows = {s[0] for s in in_shapes if len(s) == 2}
        if len(rows) > 1:
            raise ModelFileError(f"{where}.input: sets of different rows {sorted(rows)} cannot "
                                 "be joined")
        return cls(rows.pop() if rows else None, tuple(int(s[-1]) for s in in_shapes))

    @property
    def out_shape(self) -> Shape:
        width = sum(self.widths)
        return (width,) if self.rows is None else (self.rows, width)

    def __call__(self, *xs: np.ndarray) -> np.ndarray:
        if self.rows is None:
            return np.concatenate(xs, axis=-1)
        n = len(xs[0])
        return np.concatenate([x if x.ndim == 3 else np.broadcast_to(
            x[:, None, :], (n, self.rows, x.shape[-1])) for x in xs], axis=-1)


@dataclass(frozen=True)
class Add:
    """The inputs added (vectors to every row of a set), then an activation."""

    shape: Shape
    activation: str | None

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], arrays: Mapping[str, np.ndarray],
                  in_shapes: Sequence[Shape], where: str) -> Add:
        if len(in_shapes) < 2 or len({s[-1] for s in in_shapes}) != 1 \
                or len({s[0] for s in in_shapes if len(s) == 2}) > 1:
            raise ModelFileError(f"{where}.input: an add layer reads two inputs or more of the "
                                 f"same width (sets of the same rows); got {list(in_shapes)}")
        activation = spec.get("activation")
        if activation is not None and activation not in ACTIVATIONS:
            raise ModelFileError(f"{where}.activation: {activation!r}; allowed: "
                                 f"{', '.join(ACTIVATIONS)} or null (none)")
        return cls(max(in_shapes, key=len), activation)

    @property
    def out_shape(self) -> Shape:
        return self.shape

    def __call__(self, *xs: np.ndarray) -> np.ndarray:
        y = xs[0]
        for x in xs[1:]:
            if y.ndim == 3 and x.ndim == 2:
                x = x[:, None, :]
            elif y.ndim == 2 and x.ndim == 3:
                y = y[:, None, :]
            y = y + x
        return ACTIVATIONS[self.activation](y) if self.activation else y


@dataclass(frozen=True)
class Flatten:
    """A set of ``rows`` rows of ``width`` as one vector, row after row."""

    rows: int
    width: int

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], arrays: Mapping[str, np.ndarray],
                  in_shapes: Sequence[Shape], where: str) -> Flatten:
        shape = _one_input(in_shapes, where, "flatten")
        if len(shape) != 2:
            raise ModelFileError(f"{where}: flatten reads a set; its input is a vector {shape}")
        return cls(int(shape[0]), int(shape[1]))

    @property
    def out_shape(self) -> Shape:
        return (self.rows * self.width,)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return x.reshape(len(x), self.rows * self.width)


@dataclass(frozen=True)
class Gather:
    """``x[index]``: a vector assembled from positions of its input."""

    index: np.ndarray

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], arrays: Mapping[str, np.ndarray],
                  in_shapes: Sequence[Shape], where: str) -> Gather:
        shape = _one_input(in_shapes, where, "gather")
        index = spec.get("index")
        if len(shape) != 1 or not isinstance(index, list) or not index or not all(
                isinstance(i, int) and not isinstance(i, bool) and 0 <= i < shape[0]
                for i in index):
            raise ModelFileError(f"{where}.index: must be a non-empty list of positions 0 to "
                                 f"{shape[-1] - 1} of a vector input (shape {shape})")
        return cls(np.asarray(index, dtype=np.intp))

    @property
    def out_shape(self) -> Shape:
        return (len(self.index),)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return x[:, self.index]


#: layer type (``network.layers[i].type``) -> class with ``from_spec``
LAYERS: dict[str, Any] = {"dense": Dense, "piece": Piece, "masked_pool": MaskedPool,
                          "concat": Concat, "add": Add, "flatten": Flatten, "gather": Gather}
_WIRING = ("type", "name", "input")
#: the keys a layer entry may have, per type (anything else is a mistake in the file)
LAYER_KEYS: dict[str, tuple[str, ...]] = {
    "dense": (*_WIRING, "weight", "bias", "activation"),
    "piece": (*_WIRING, "start", "rows", "width"),
    "masked_pool": (*_WIRING, "ops"),
    "concat": _WIRING, "add": (*_WIRING, "activation"), "flatten": _WIRING, "gather": (*_WIRING, "index")}
#: the name a layer's ``input`` gives the observation
OBSERVATION = "observation"


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

    def __init__(self, layers: Sequence[Any], in_size: int,
                 inputs: Sequence[tuple[str, ...]] | None = None,
                 names: Sequence[str | None] | None = None):
        self.layers = list(layers)
        self.in_size = int(in_size)
        #: what each layer reads (names of earlier outputs; a chain by default)
        self.inputs = [tuple(i) for i in inputs] if inputs is not None else [
            (OBSERVATION,) if k == 0 else (f"#{k - 1}",) for k in range(len(self.layers))]
        self.names = list(names) if names is not None else [None] * len(self.layers)
        last = self.layers[-1] if self.layers else None
        self.out_size = int(last.out_shape[-1]) if last is not None else self.in_size
        #: which outputs a later layer still needs (the others are dropped as soon as used)
        wanted = {n for ins in self.inputs for n in ins}
        self._keep = [(f"#{k}" in wanted, name if name in wanted else None)
                      for k, name in enumerate(self.names)]

    @classmethod
    def from_spec(cls, spec: Any, arrays: Mapping[str, np.ndarray], in_size: int,
                  where: str = "network") -> Network:
        """Rebuild the network that ``spec`` (the description's ``network``) describes over the
        named ``arrays``; :class:`ModelFileError` names the field of anything wrong."""
        if not isinstance(spec, Mapping) or not isinstance(spec.get("layers"), list) \
                or not spec["layers"]:
            raise ModelFileError(f"{where}.layers: must be a non-empty list of layers")
        layers: list[Any] = []
        inputs: list[tuple[str, ...]] = []
        names: list[str | None] = []
        shapes: dict[str, Shape] = {OBSERVATION: (int(in_size),)}
        previous = OBSERVATION
        for i, layer in enumerate(spec["layers"]):
            here = f"{where}.layers[{i}]"
            kind = layer.get("type") if isinstance(layer, Mapping) else None
            if kind not in LAYERS:
                raise ModelFileError(f"{here}.type: {kind!r}; allowed: {', '.join(LAYERS)}")
            unknown = sorted(set(layer) - set(LAYER_KEYS[kind]))
            if unknown:
                raise ModelFileError(f"{here}: unknown field(s) {', '.join(unknown)}; a {kind} "
                                     f"layer has: {', '.join(LAYER_KEYS[kind])}")
            reads = layer.get("input", previous)
            reads = [reads] if isinstance(reads, str) else reads
            if not isinstance(reads, list) or not reads or any(
                    not isinstance(r, str) or r not in shapes for r in reads):
                raise ModelFileError(f"{here}.input: {layer.get('input')!r}; an input is "
                                     f"{OBSERVATION!r} or the name of an earlier layer: "
                                     f"{', '.join(sorted(n for n in shapes if n[0] != '#'))}")
            name = layer.get("name")
            if name is not None and (not isinstance(name, str) or name in shapes
                                     or name.startswith("#")):
                raise ModelFileError(f"{here}.name: {name!r}; a layer's name is text, not "
                                     f"{OBSERVATION!r}, not starting with '#', and not used "
                                     "before")
            built = LAYERS[kind].from_spec(layer, arrays, [shapes[r] for r in reads], here)
            layers.append(built)
            inputs.append(tuple(reads))
            names.append(name)
            previous = f"#{i}"
            shapes[previous] = tuple(built.out_shape)
            if name is not None:
                shapes[name] = shapes[previous]
        if len(shapes[previous]) != 1:
            raise ModelFileError(f"{where}.layers[{len(layers) - 1}]: the last layer gives a set "
                                 f"{shapes[previous]}; it must give one logit per action")
        return cls(layers, in_size, inputs, names)

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        """Logits for one observation (``(in,) -> (out,)``) or a batch (``(n, in) -> (n, out)``)."""
        x = np.asarray(obs, dtype=np.float64)
        single = x.ndim == 1
        values: dict[str, np.ndarray] = {OBSERVATION: x[None] if single else x}
        with one_blas_thread():
            for k, (layer, reads) in enumerate(zip(self.layers, self.inputs, strict=True)):
                y = layer(*(values[r] for r in reads))
                by_number, name = self._keep[k]
                if by_number:
                    values[f"#{k}"] = y
                if name is not None:
                    values[name] = y
        return y[0] if single else y


def masked_softmax(logits: np.ndarray, legal: Sequence[int] | np.ndarray) -> np.ndarray:
    """The softmax of ``logits`` over the legal actions only (an illegal action has
    probability 0), ``legal`` being either

    - the legal catalogue indices (distinct): their probabilities, in that order; or
    - the env's action mask (``obs["action_mask"]``: an int8 or bool array as long as
      ``logits``): a probability for every action, exactly 0 where the mask is 0.

    >>> logits = np.log([1.0, 2.0, 3.0, 4.0])
    >>> masked_softmax(logits, [3, 1]).tolist()
    [0.6666666666666666, 0.3333333333333333]
    >>> masked_softmax(logits, np.array([0, 1, 0, 1], np.int8)).tolist()
    [0.0, 0.3333333333333333, 0.0, 0.6666666666666666]
    >>> masked_softmax(logits, [1, 1])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: legal: catalogue index 1 is listed twice (indices must be distinct; ...)
    """
    z = np.asarray(logits, dtype=np.float64)
    if isinstance(legal, np.ndarray) and legal.dtype in (np.int8, np.bool_) \
            and legal.shape == z.shape:
        on = legal.astype(bool)
        if not on.any():
            raise ValueError("legal: the action mask allows no action")
        probs = np.zeros_like(z)
        probs[on] = _softmax(z[on])
        return probs
    index = np.asarray(legal, dtype=np.intp)
    values, counts = np.unique(index, return_counts=True)
    if (counts > 1).any():
        raise ValueError(f"legal: catalogue index {values[counts > 1][0]} is listed twice "
                         "(indices must be distinct; an action mask must be an int8 or bool "
                         "array as long as the logits)")
    return _softmax(z[index])


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()
