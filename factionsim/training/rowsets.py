"""Entity sets stored by their occupied rows: how :class:`.graph.TorchGraph` trains fast.

An entity set of the observation (``(batch, rows, width)``: 32 own and 64 other asset slots
for WWN) is mostly empty rows: about 5 own and 15 other assets are present in a typical
decision. A dense forward pass runs every per-row layer on all 96 rows. A :class:`RowSet`
holds instead the rows whose observation row has a non-zero value (``values``, one per
``(batch, slot)`` pair) and **one** value shared by every other row of a sample (``rest``:
what the same layers compute from an all-zero row, ``(1, width)`` until a per-sample vector is
added to it, ``(batch, width)`` after). Every layer that works row by row (``dense``, ``add``,
``concat``) is applied to both, so each row's value is exactly what the dense pass computes;
``masked_pool`` reads the stored rows only (an all-zero row has presence flag 0), and
``flatten`` writes the dense ``(batch, rows * width)`` result (the rest's value in every row not
stored). The arithmetic per row is the dense pass's; only sums over rows (the mean pool) are
taken in another order, so results equal the dense pass's up to float rounding.

>>> import torch
>>> x = torch.tensor([[[1.0, 2.0], [0.0, 0.0]], [[0.0, 0.0], [1.0, 0.0]]])
>>> s = RowSet.from_piece(x)
>>> s.values.tolist(), s.batch.tolist(), s.slot.tolist()
([[1.0, 2.0], [1.0, 0.0]], [0, 1], [0, 1])
>>> bool(torch.equal(s.dense(), x))
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch


@dataclass
class RowSet:
    """A set of ``rows`` rows per sample, by its stored rows (see the module docstring)."""

    n: int  # samples in the batch
    rows: int
    batch: torch.Tensor  # (P,) the sample of each stored row
    slot: torch.Tensor  # (P,) its row
    values: torch.Tensor  # (P, width)
    rest: torch.Tensor  # (1, width) or (n, width): every row not stored

    @classmethod
    def from_piece(cls, x: torch.Tensor) -> RowSet:
        """The set ``x`` (``(n, rows, width)``), storing its rows that hold a non-zero value."""
        batch, slot = (x.abs().amax(dim=-1) > 0).nonzero(as_tuple=True)
        return cls(len(x), x.shape[1], batch, slot, x[batch, slot], x.new_zeros(1, x.shape[-1]))

    def map(self, fn: Callable[[torch.Tensor], torch.Tensor]) -> RowSet:
        """``fn`` applied to every row (a row-wise layer)."""
        return RowSet(self.n, self.rows, self.batch, self.slot, fn(self.values), fn(self.rest))

    def dense(self) -> torch.Tensor:
        """The set as ``(n, rows, width)``."""
        width = self.values.shape[-1]
        full = self.rest.unsqueeze(1).expand(self.n, self.rows, width).contiguous()
        return full.index_put((self.batch, self.slot), self.values)

    def _same_rows(self, other: RowSet) -> None:
        if other.batch is not self.batch:
            raise ValueError("sets of different entities cannot be joined row by row")


def _rest(x: torch.Tensor, n: int) -> torch.Tensor:
    return x.expand(n, -1) if len(x) == 1 else x


def combine(xs: Sequence[torch.Tensor | RowSet],
            op: Callable[[list[torch.Tensor]], torch.Tensor]) -> RowSet:
    """``op`` (a row-wise join: a sum, a concatenation) of sets of the same rows and vectors
    (a vector joins every row of its sample)."""
    sets = [x for x in xs if isinstance(x, RowSet)]
    first = sets[0]
    for s in sets[1:]:
        first._same_rows(s)
    per_sample = any(not isinstance(x, RowSet) or len(x.rest) > 1 for x in xs)
    values, rests = [], []
    for x in xs:
        if isinstance(x, RowSet):
            values.append(x.values)
            rests.append(_rest(x.rest, first.n) if per_sample else x.rest)
        else:
            values.append(x[first.batch])
            rests.append(x)
    return RowSet(first.n, first.rows, first.batch, first.slot, op(values), op(rests))


def masked_pool(values: RowSet, flags: RowSet, ops: Sequence[str]) -> torch.Tensor:
    """Mean and/or max over the rows whose presence flag (first value of ``flags``' row) is
    above 0.5, as the dense ``masked_pool`` layer computes; an empty set pools to zeros."""
    values._same_rows(flags)
    keep = flags.values[:, 0] > 0.5
    batch, rows = values.batch[keep], values.values[keep]
    n, width = values.n, rows.shape[-1]
    out = []
    for op in ops:
        if op == "mean":
            total = rows.new_zeros(n, width).index_add(0, batch, rows)
            count = rows.new_zeros(n).index_add(0, batch, torch.ones_like(batch, dtype=rows.dtype))
            out.append(total / count.clamp(min=1).unsqueeze(1))
        else:
            filled = rows.new_full((n, width), float("-inf")).scatter_reduce(
                0, batch.unsqueeze(1).expand(-1, width), rows, reduce="amax", include_self=True)
            out.append(torch.where(torch.isfinite(filled), filled, torch.zeros_like(filled)))
    return torch.cat(out, dim=-1)
