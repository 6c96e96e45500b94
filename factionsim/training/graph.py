"""The torch twin of a policy file's network: the same layers, trainable.

:class:`TorchGraph` is built from a network description (``network.layers``, see
:mod:`factionsim.models.network`) and its named arrays, holds one ``nn.Parameter`` per array
(two layers naming the same array share it), and computes what the numpy forward pass computes,
in float32. :meth:`TorchGraph.arrays` gives the arrays back for the policy file, so what is
trained is exactly what is written and played. ``forward(obs, outputs=(...))`` also returns
named inner outputs (a value head reads the policy's context vector).

Two fast paths (``sparse_sets=False`` turns both off: every row multiplied, as the numpy pass
does), each computing the same values up to float rounding:

- entity sets are computed by their occupied rows (:mod:`.rowsets`): most asset slots are empty;
- a dense layer reading vectors joined side by side (``concat``) multiplies them part by part,
  and a part of at least :data:`WIDE` values by its distinct rows only (:func:`distinct_rows`):
  the WWN asset-type table (3,648 values) is the same in every decision of a campaign.

>>> import numpy as np, torch
>>> spec = {"layers": [{"type": "piece", "start": 0, "rows": 2, "width": 2, "name": "units"},
...                    {"type": "dense", "weight": "w", "bias": None, "activation": "relu"},
...                    {"type": "masked_pool", "input": ["#1", "units"], "ops": ["max"]}]}
>>> g = TorchGraph(spec, {"w": np.eye(2)}, 4)
>>> g(torch.tensor([[1.0, 3.0, 0.0, 9.0]])).tolist()
[[1.0, 3.0]]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

from factionsim.models.network import OBSERVATION, Network

from . import rowsets
from .rowsets import RowSet

_ACT = {"relu": torch.relu, "tanh": torch.tanh}


def _sum(xs: Sequence[torch.Tensor], activation: str | None) -> torch.Tensor:
    y = xs[0]
    for x in xs[1:]:
        y = y + x
    return _ACT[activation](y) if activation else y


#: a joined part at least this wide is multiplied by its distinct rows only
WIDE = 1024


class Joined(list):
    """Vectors joined side by side (a ``concat`` layer), kept as their parts until a layer other
    than ``dense`` reads them."""


def distinct_rows(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor] | None:
    """``(rows, inverse)`` with ``rows[inverse]`` equal to ``x`` (``rows``: the distinct rows
    of ``x``), or None when more than half the rows are distinct (nothing worth saving).

    >>> rows, inverse = distinct_rows(torch.tensor([[1.0, 2.0], [1.0, 2.0], [0.0, 1.0], [1.0, 2.0]]))
    >>> rows.tolist(), inverse.tolist()
    ([[1.0, 2.0], [0.0, 1.0]], [0, 0, 1, 0])
    """
    with torch.no_grad():
        probe = torch.linspace(1.0, 2.0, x.shape[1], dtype=x.dtype)
        _, first, inverse = np.unique((x @ probe).numpy(), return_index=True,
                                      return_inverse=True)
        if len(first) > len(x) // 2:
            return None
        order = np.argsort(first)  # the distinct rows in their first-seen order
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        rows = x[torch.as_tensor(first[order])]
        inv = torch.as_tensor(rank[inverse.reshape(-1)])
        if not torch.equal(rows[inv], x):  # two distinct rows with one probe value
            return None
    return rows, inv


def _name_key(name: str) -> str:
    """An array name as a parameter key (``nn.ParameterDict`` keys may not hold dots)."""
    return name.replace(".", "__")


class TorchGraph(nn.Module):
    """A network description as a torch module (see the module docstring)."""

    def __init__(self, spec: Mapping[str, Any], arrays: Mapping[str, np.ndarray], in_size: int,
                 sparse_sets: bool = True):
        super().__init__()
        self.sparse_sets = sparse_sets
        self.spec = {"layers": [dict(layer) for layer in spec["layers"]]}
        numpy_net = Network.from_spec(self.spec, arrays, in_size)  # checks everything
        self.in_size = int(in_size)
        self.out_size = numpy_net.out_size
        self.inputs = numpy_net.inputs
        self.names = numpy_net.names
        self.params = nn.ParameterDict()
        self._array_names: dict[str, str] = {}
        for layer in self.spec["layers"]:
            for key in ("weight", "bias"):
                name = layer.get(key)
                if layer["type"] == "dense" and name is not None \
                        and name not in self._array_names:
                    self._array_names[name] = _name_key(name)
                    self.params[_name_key(name)] = nn.Parameter(
                        torch.as_tensor(np.asarray(arrays[name], dtype=np.float32)).clone())
        self._index = {id(layer): torch.as_tensor(layer["index"], dtype=torch.long)
                       for layer in self.spec["layers"] if layer["type"] == "gather"}

    def arrays(self) -> dict[str, np.ndarray]:
        """The current weights by array name (float32 copies)."""
        return {name: self.params[key].detach().cpu().numpy().copy()
                for name, key in self._array_names.items()}

    def _param(self, name: str | None) -> torch.Tensor | None:
        return None if name is None else self.params[self._array_names[name]]

    def _dense(self, layer: Mapping[str, Any], x: torch.Tensor) -> torch.Tensor:
        y = torch.nn.functional.linear(x, self._param(layer["weight"]),
                                       self._param(layer.get("bias")))
        act = layer.get("activation")
        return _ACT[act](y) if act else y

    def _dense_joined(self, layer: Mapping[str, Any], parts: Joined) -> torch.Tensor:
        """A dense layer over joined vectors, part by part (see the module docstring)."""
        weight = self._param(layer["weight"])
        groups: list[list[torch.Tensor]] = []
        for x in parts:  # narrow neighbours are multiplied together
            if x.shape[1] >= WIDE or not groups or groups[-1][-1].shape[1] >= WIDE:
                groups.append([x])
            else:
                groups[-1].append(x)
        y, start = None, 0
        for group in groups:
            x = group[0] if len(group) == 1 else torch.cat(group, dim=-1)
            w = weight[:, start:start + x.shape[1]]
            start += x.shape[1]
            distinct = distinct_rows(x) if x.shape[1] >= WIDE else None
            part = (torch.nn.functional.linear(x, w) if distinct is None
                    else torch.nn.functional.linear(distinct[0], w)[distinct[1]])
            y = part if y is None else y + part
        bias = self._param(layer.get("bias"))
        y = y + bias if bias is not None else y
        act = layer.get("activation")
        return _ACT[act](y) if act else y

    def _set_layer(self, layer: Mapping[str, Any], xs: Sequence[Any]) -> Any:
        """A layer reading a :class:`~.rowsets.RowSet` (see :mod:`.rowsets`)."""
        kind = layer["type"]
        if kind == "dense":
            return xs[0].map(lambda v: self._dense(layer, v))
        if kind == "masked_pool":
            return rowsets.masked_pool(xs[0], xs[1], layer.get("ops", ["mean", "max"]))
        if kind == "concat":
            return rowsets.combine(xs, lambda vs: torch.cat(vs, dim=-1))
        if kind == "add":
            act = layer.get("activation")
            return rowsets.combine(xs, lambda vs: _sum(vs, act))
        if kind == "flatten":
            return xs[0].dense().reshape(xs[0].n, -1)
        return self._layer(layer, [x.dense() if isinstance(x, RowSet) else x for x in xs])

    def _layer(self, layer: Mapping[str, Any], xs: Sequence[Any]) -> Any:
        kind = layer["type"]
        if self.sparse_sets and any(isinstance(x, RowSet) for x in xs):
            return self._set_layer(layer, xs)
        if any(isinstance(x, Joined) for x in xs):
            if kind == "dense":
                return self._dense_joined(layer, xs[0])
            xs = [torch.cat(x, dim=-1) if isinstance(x, Joined) else x for x in xs]
        if kind == "dense":
            return self._dense(layer, xs[0])
        if kind == "piece":
            start, rows, width = layer["start"], layer["rows"], layer["width"]
            y = xs[0][:, start:start + rows * width]
            if rows == 1:
                return y
            y = y.reshape(len(y), rows, width)
            return RowSet.from_piece(y) if self.sparse_sets else y
        if kind == "masked_pool":
            values, rows = xs
            mask = (rows[..., 0] > 0.5).unsqueeze(-1)
            out = []
            for op in layer.get("ops", ["mean", "max"]):
                if op == "mean":
                    count = mask.sum(dim=1).clamp(min=1)
                    out.append((values * mask).sum(dim=1) / count)
                else:
                    filled = values.masked_fill(~mask, float("-inf")).amax(dim=1)
                    out.append(torch.where(torch.isfinite(filled), filled,
                                           torch.zeros_like(filled)))
            return torch.cat(out, dim=-1)
        if kind == "concat":
            sets = [x for x in xs if x.dim() == 3]
            if not sets:
                return Joined(xs) if self.sparse_sets else torch.cat(list(xs), dim=-1)
            rows = sets[0].shape[1]
            return torch.cat([x if x.dim() == 3 else x.unsqueeze(1).expand(-1, rows, -1)
                              for x in xs], dim=-1)
        if kind == "add":
            sets = [x for x in xs if x.dim() == 3]
            y = None
            for x in xs:
                x = x.unsqueeze(1) if sets and x.dim() == 2 else x
                y = x if y is None else y + x
            act = layer.get("activation")
            return _ACT[act](y) if act else y
        if kind == "flatten":
            return xs[0].reshape(len(xs[0]), -1)
        if kind == "gather":
            return xs[0][:, self._index[id(layer)]]
        raise ValueError(f"layer type {kind!r} has no torch twin")  # pragma: no cover

    def forward(self, obs: torch.Tensor, outputs: Sequence[str] = ()) -> Any:
        """Logits of a batch of observations; with ``outputs`` (names of layers), also those
        layers' outputs: ``(logits, {name: tensor})``."""
        values: dict[str, torch.Tensor] = {OBSERVATION: obs}
        y = obs
        for k, layer in enumerate(self.spec["layers"]):
            y = self._layer(layer, [values[r] for r in self.inputs[k]])
            values[f"#{k}"] = y
            if self.names[k] is not None:
                values[self.names[k]] = y
        def dense(x: Any) -> torch.Tensor:
            if isinstance(x, Joined):
                return torch.cat(x, dim=-1)
            return x.dense() if isinstance(x, RowSet) else x

        if outputs:
            return dense(y), {name: dense(values[name]) for name in outputs}
        return dense(y)
