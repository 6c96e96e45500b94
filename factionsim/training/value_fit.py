"""The fit of ``--method value``: a small network ``V(features of an afterstate)`` such that, at
each valued decision, ``V(candidate's afterstate) - V(heuristic choice's afterstate)`` matches
the difference of their rollout values (the same dice: :mod:`.value_data`).

Only differences are fitted: the search compares candidates of one decision, and a difference of
two rollouts with common dice carries much less of the game's noise than either value. The
network is a chain of dense layers (``tanh``), its first layer folded with the features'
standardisation, so the policy file's forward pass reads the raw features.

:func:`margin_table` judges a fit on games held out of it: for several margins, the share of
decisions at which greedy play would leave the heuristic's choice and the mean recorded
advantage (rollout value over the heuristic choice's, same dice) of what it would play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def pair_index(rows: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``(i, j)``: every row ``i`` that is not the heuristic's choice, and ``j`` the row of the
    heuristic's choice with the same decision and dice seed."""
    own = {(int(d), int(s)): r for r, (d, s, o) in enumerate(
        zip(rows["decision"], rows["seed"], rows["own"], strict=True)) if o}
    i = [r for r, o in enumerate(rows["own"]) if not o
         and (int(rows["decision"][r]), int(rows["seed"][r])) in own]
    j = [own[int(rows["decision"][r]), int(rows["seed"][r])] for r in i]
    return np.asarray(i, np.int64), np.asarray(j, np.int64)


def split_games(rows: dict[str, np.ndarray], holdout: float) -> tuple[np.ndarray, np.ndarray]:
    """Boolean row masks (fit, held out): the last ``holdout`` share of the games held out."""
    games = np.unique(rows["game"])
    n_out = int(round(len(games) * holdout))
    held = set(games[len(games) - n_out:].tolist()) if n_out else set()
    out = np.isin(rows["game"], list(held))
    return ~out, out


def baseline_value(x: np.ndarray) -> np.ndarray:
    """The planner's hand-made :func:`~factionsim.agents.planner.rollout_value` of afterstates,
    from their features (a faction gone scores 0, which the features' score already is)."""
    return x @ baseline_weights()


#: the weights of :func:`~factionsim.agents.planner.rollout_value` on the features it reads
BASELINE_WEIGHTS = {"score": 1.0, "goal_progress": 0.5, "treasure": 0.02, "holdings": 0.02,
                    "xp": 0.05, "rival_score": -0.5}


def baseline_weights(features: Sequence[str] | None = None) -> np.ndarray:
    """:data:`BASELINE_WEIGHTS` in the order of ``features`` (default: the afterstate
    features, :data:`~factionsim.agents.afterstate.FEATURES`; 0 for those it does not read)."""
    if features is None:
        from factionsim.agents.afterstate import FEATURES as features

    return np.array([BASELINE_WEIGHTS.get(name, 0.0) for name in features])


def standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The features' mean and standard deviation (1 where a feature does not vary)."""
    mu = x.mean(axis=0)
    sd = x.std(axis=0)
    sd[sd < 1e-6] = 1.0
    return mu, sd


def tanh_network(widths: Sequence[int]) -> Any:
    """A torch ``Sequential``: a ``Linear`` + ``tanh`` per step of ``widths``, then one
    ``Linear`` to a single value."""
    from torch import nn

    layers: list[nn.Module] = []
    for a, b in zip(widths[:-1], widths[1:], strict=True):
        layers += [nn.Linear(a, b), nn.Tanh()]
    layers.append(nn.Linear(widths[-1], 1))
    return nn.Sequential(*layers)


def dense_layers(weights: Sequence[tuple[np.ndarray, np.ndarray]], mu: np.ndarray,
                 sd: np.ndarray, prefix: str) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """A chain of ``(W, b)`` over standardised inputs (``tanh`` between, none after the last) as
    a policy file's network over the raw features: ``(x - mu) / sd`` folded into the first;
    the arrays are named ``PREFIX.K.weight`` / ``PREFIX.K.bias``."""
    arrays: dict[str, np.ndarray] = {}
    layers = []
    for k, (w, b) in enumerate(weights):
        if k == 0:
            b = b - (w / sd) @ mu
            w = w / sd
        arrays[f"{prefix}.{k}.weight"], arrays[f"{prefix}.{k}.bias"] = w, b
        layers.append({"type": "dense", "weight": f"{prefix}.{k}.weight",
                       "bias": f"{prefix}.{k}.bias",
                       "activation": "tanh" if k < len(weights) - 1 else None})
    return {"layers": layers}, arrays


def linear_weights(net: Any) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each ``Linear`` layer of the torch network ``net`` as float64 ``(W, b)``."""
    from torch import nn

    return [(m.weight.detach().double().numpy(), m.bias.detach().double().numpy())
            for m in net if isinstance(m, nn.Linear)]


def baseline_network() -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """:func:`baseline_value` as a one-layer network over the features (the *untrained*
    value-search policy: the search with the planner's hand-made value of the afterstate)."""
    w = baseline_weights()[None]
    return ({"layers": [{"type": "dense", "weight": "value.0.weight", "bias": None,
                         "activation": None}]}, {"value.0.weight": w})


def fit_value(rows: dict[str, np.ndarray], train: np.ndarray, hidden: Sequence[int],
              steps: int, batch: int, lr: float, seed: int, weight_decay: float = 1e-3,
              ) -> tuple[dict[str, Any], dict[str, np.ndarray], dict[str, float]]:
    """Fit on the rows ``train`` selects; returns the network description, its arrays (the
    standardisation folded in) and the fit's figures.

    The network is *residual*: the planner's hand-made value of the afterstate
    (:func:`baseline_network`, fixed) plus a learned correction (``hidden`` ``tanh`` layers, then
    one value; no ``hidden``: a linear correction), its last layer started at zero, so the fit
    starts from the untrained search and moves only where the data say so."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    sub = {k: v[train] for k, v in rows.items()}
    i, j = pair_index(sub)
    xs = sub["x"].astype(np.float64)
    mu, sd = standardise(xs)
    xt = torch.as_tensor((xs - mu) / sd, dtype=torch.float32)
    base = torch.as_tensor(baseline_value(xs), dtype=torch.float32)
    target = torch.as_tensor(sub["value"][i] - sub["value"][j], dtype=torch.float32)
    # (--hidden 0: a linear correction)
    net = tanh_network([xs.shape[1], *(h for h in hidden if h > 0)])
    with torch.no_grad():
        net[-1].weight.zero_()
        net[-1].bias.zero_()
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)
    it, jt = torch.as_tensor(i), torch.as_tensor(j)
    total = 0.0
    for _ in range(steps):
        pick = torch.as_tensor(rng.integers(len(i), size=batch))
        a, b = it[pick], jt[pick]
        va = net(xt[a]).squeeze(1) + base[a]
        vb = net(xt[b]).squeeze(1) + base[b]
        loss = ((va - vb - target[pick]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += float(loss.detach())
    base_spec, arrays = baseline_network()
    correction, correction_arrays = dense_layers(linear_weights(net), mu, sd, "correction")
    arrays.update(correction_arrays)
    spec_layers = correction["layers"]
    spec_layers[0]["input"] = "observation"
    spec_layers[-1]["name"] = "correction"
    spec_layers.append({**base_spec["layers"][0], "input": "observation", "name": "baseline"})
    spec_layers.append({"type": "add", "input": ["baseline", "correction"], "activation": None})
    with torch.no_grad():
        v = net(xt).squeeze(1)
        fitted = float(((v[it] - v[jt] + base[it] - base[jt] - target) ** 2).mean())
        untrained = float(((base[it] - base[jt] - target) ** 2).mean())
    return ({"layers": spec_layers}, arrays,
            {"pairs": int(len(i)), "loss": total / max(1, steps), "mse_fitted": fitted,
             "mse_untrained": untrained, "mse_zero": float((target ** 2).mean())})


def margin_table(rows: dict[str, np.ndarray], held: np.ndarray, value: Any,
                 margins: Sequence[float]) -> dict[str, Any]:
    """On the held-out rows: ``value(x) -> estimates`` judged as a search would use it (each
    candidate's estimate averaged over its dice, against the heuristic choice's); the mean squared
    error of the estimated differences against the recorded ones (and of estimating 0), and per
    margin the departures and the mean recorded advantage of what greedy play picks."""
    sub = {k: v[held] for k, v in rows.items()}
    if not len(sub["x"]):
        return {"decisions": 0}
    est = np.asarray(value(sub["x"]), np.float64).reshape(-1)
    i, j = pair_index(sub)
    d_est, d_rec = est[i] - est[j], sub["value"][i] - sub["value"][j]
    by_decision: dict[int, dict[int, list[float]]] = {}
    recorded: dict[int, dict[int, list[float]]] = {}
    own_of: dict[int, int] = {}
    for r, (d, c, o) in enumerate(zip(sub["decision"], sub["candidate"], sub["own"],
                                      strict=True)):
        by_decision.setdefault(int(d), {}).setdefault(int(c), []).append(est[r])
        recorded.setdefault(int(d), {}).setdefault(int(c), []).append(sub["value"][r])
        if o:
            own_of[int(d)] = int(c)
    table = []
    for m in margins:
        gains, departs = [], 0
        for d, cands in by_decision.items():
            h = own_of[d]
            mean = {c: float(np.mean(v)) for c, v in cands.items()}
            best = max(mean, key=lambda c: mean[c])
            if mean[best] < mean[h] + m:
                best = h
            departs += best != h
            gains.append(float(np.mean(recorded[d][best])) - float(np.mean(recorded[d][h])))
        table.append({"margin": float(m), "departures": departs / len(by_decision),
                      "mean_gain": float(np.mean(gains)),
                      "gain_se": float(np.std(gains) / np.sqrt(len(gains)))})
    return {"decisions": len(by_decision), "mse": float(np.mean((d_est - d_rec) ** 2)),
            "mse_zero": float(np.mean(d_rec ** 2)), "margins": table}
