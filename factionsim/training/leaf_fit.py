"""The fit of ``--method leaf``: a small network ``V(leaf features)`` regressing a faction's final
pairwise share (:mod:`.leaf_data`), and how it compares on held-out games with the planner's
hand-made :func:`~factionsim.agents.planner.rollout_value`.

- :func:`fit_anchored`: the hand-made value plus learned terms for the faction's standing
  (least squares of the share on ``rollout_value``, the standing, the standing times the game's
  progress, the progress and whether it stands): what a rank is worth, in XP, as the game
  nears its end, where everything else keeps the planner's hand-made exchange rates;
- :func:`fit_linear`: least squares (a little ridge) on the standardised features, numpy;
- :func:`fit_mlp`: ``hidden`` ``tanh`` layers then one value, Adam on the squared error, torch;
- both written as ``dense`` layers with the standardisation folded into the first, so the policy
  file's numpy forward pass reads the raw features;
- :func:`judge`: on held-out rows, the squared error, the rank correlation with the outcome
  (Spearman) and the share of same-turn pairs of factions it orders as they finished; the
  hand-made value is judged through its best affine map to the share (fitted on the training
  rows: its own units are XP), which changes neither rank measure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .value_fit import baseline_weights, dense_layers, linear_weights, standardise, tanh_network

#: the learned terms of :func:`fit_anchored`, beside the hand-made value
ANCHORED_TERMS = ("standing", "standing_late", "turn_share", "alive")


def handmade_weights() -> np.ndarray:
    """:func:`~factionsim.agents.planner.rollout_value` as weights over the leaf features (the
    afterstate features it reads; 0 on the others)."""
    from factionsim.agents.leaf_search import LEAF_FEATURES

    return baseline_weights(LEAF_FEATURES)


def fit_anchored(x: np.ndarray, y: np.ndarray
                 ) -> tuple[dict[str, Any], dict[str, np.ndarray], dict[str, float]]:
    """Least squares of ``y`` on the hand-made value and :data:`ANCHORED_TERMS`, as one dense
    layer over the leaf features **in XP** (divided by the hand-made value's coefficient: the
    hand-made value itself plus each term's worth in XP); returns it and the coefficients (in
    share units, ``handmade`` first, then the terms and ``intercept``)."""
    from factionsim.agents.leaf_search import LEAF_FEATURES

    base = handmade_weights()
    cols = [x @ base] + [x[:, LEAF_FEATURES.index(t)] for t in ANCHORED_TERMS]
    z = np.column_stack(cols + [np.ones(len(x))])
    coef = np.linalg.lstsq(z, y, rcond=None)[0]
    w = coef[0] * base
    for term, c in zip(ANCHORED_TERMS, coef[1:-1], strict=True):
        w[LEAF_FEATURES.index(term)] += c
    spec = {"layers": [{"type": "dense", "weight": "leaf.0.weight", "bias": "leaf.0.bias",
                        "activation": None}]}
    arrays = {"leaf.0.weight": w[None] / coef[0], "leaf.0.bias": coef[-1:] / coef[0]}
    return spec, arrays, dict(zip(("handmade", *ANCHORED_TERMS, "intercept"),
                                  map(float, coef), strict=True))


def scaled(spec: dict[str, Any], arrays: dict[str, np.ndarray], factor: float
           ) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The network ``spec`` / ``arrays`` (a chain of dense layers) with its output times
    ``factor`` (the last layer's weight and bias scaled)."""
    last = spec["layers"][-1]
    out = dict(arrays)
    out[last["weight"]] = arrays[last["weight"]] * factor
    if last.get("bias"):
        out[last["bias"]] = arrays[last["bias"]] * factor
    return spec, out


def fit_linear(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3
               ) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Least squares of ``y`` on the standardised ``x`` (ridge ``ridge`` per row)."""
    mu, sd = standardise(x)
    z = np.hstack([(x - mu) / sd, np.ones((len(x), 1))])
    reg = ridge * len(x) * np.eye(z.shape[1])
    reg[-1, -1] = 0.0
    coef = np.linalg.solve(z.T @ z + reg, z.T @ y)
    return dense_layers([(coef[None, :-1], coef[-1:])], mu, sd, "leaf")


def fit_mlp(x: np.ndarray, y: np.ndarray, hidden: Sequence[int], steps: int, batch: int,
            lr: float, seed: int, weight_decay: float = 1e-4
            ) -> tuple[dict[str, Any], dict[str, np.ndarray], float]:
    """``hidden`` ``tanh`` layers then one value, fitted to ``y`` (Adam, ``steps`` minibatches of
    ``batch`` rows); returns the network, its arrays and the mean training loss of the last
    tenth of the steps."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    mu, sd = standardise(x)
    xt = torch.as_tensor((x - mu) / sd, dtype=torch.float32)
    yt = torch.as_tensor(y, dtype=torch.float32)
    net = tanh_network([x.shape[1], *hidden])
    with torch.no_grad():
        net[-1].bias.fill_(float(y.mean()))
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)
    tail: list[float] = []
    for step in range(steps):
        pick = torch.as_tensor(rng.integers(len(y), size=batch))
        loss = ((net(xt[pick]).squeeze(1) - yt[pick]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step >= steps - max(1, steps // 10):
            tail.append(float(loss.detach()))
    spec, arrays = dense_layers(linear_weights(net), mu, sd, "leaf")
    return spec, arrays, float(np.mean(tail))


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation (ties: mean ranks)."""
    from scipy.stats import spearmanr

    return float(spearmanr(a, b).statistic)


def same_turn_order(pred: np.ndarray, outcome: np.ndarray, game: np.ndarray,
                    turn: np.ndarray) -> float:
    """Of the pairs of factions noted at the same turn of the same game that finished with
    different shares, the share ``pred`` orders as they finished (a tie in ``pred``: half)."""
    agree = total = 0.0
    key = game * 10_000 + turn
    order = np.argsort(key, kind="stable")
    bounds = np.flatnonzero(np.diff(key[order])) + 1
    for rows in np.split(order, bounds):
        p, o = pred[rows], outcome[rows]
        dp = np.sign(p[:, None] - p[None, :])
        do = np.sign(o[:, None] - o[None, :])
        mask = do > 0
        total += mask.sum()
        agree += (dp[mask] > 0).sum() + 0.5 * (dp[mask] == 0).sum()
    return float(agree / total) if total else float("nan")


def affine(train_x: np.ndarray, train_y: np.ndarray) -> tuple[float, float]:
    """``(slope, intercept)`` of the least-squares line of ``train_y`` on ``train_x``."""
    slope, intercept = np.polyfit(train_x, train_y, 1)
    return float(slope), float(intercept)


def judge(value: Callable[[np.ndarray], np.ndarray] | np.ndarray, rows: dict[str, np.ndarray],
          held: np.ndarray) -> dict[str, float]:
    """Held-out figures of ``value`` (a function of the features, or its values on every row):
    squared error against the final share, Spearman with the share and with the final lead, the
    same-turn ordering, and those of always guessing the training mean (``mse_mean``)."""
    pred = np.asarray(value(rows["x"][held]) if callable(value) else value[held],
                      np.float64).reshape(-1)
    y = rows["share"][held]
    return {"rows": int(held.sum()), "mse": float(((pred - y) ** 2).mean()),
            "mse_mean": float(((y - rows["share"][~held].mean()) ** 2).mean()),
            "spearman_share": spearman(pred, y), "spearman_lead": spearman(pred, rows["lead"][held]),
            "same_turn_order": same_turn_order(pred, y, rows["game"][held], rows["turn"][held])}


def search_gaps(leaf: Callable[[Any, str], float] | None, campaign_seeds: Sequence[int],
                turns: int, budget: int, horizon: int, seed: int) -> np.ndarray:
    """At every decision the planner searches in heuristic games of campaigns generated with
    ``campaign_seeds`` (``turns`` turns each), how much better than the heuristic's choice the
    best candidate looks to the planner's search scored by ``leaf`` (``None``: the hand-made
    ``rollout_value``, discount included). The same games, decisions and dice for any leaf."""
    from factionsim.agents.planner import PlannerAgent
    from factionsim.agents.wwn_heuristic import HeuristicAgent
    from factionsim.rules.wwn.generate import generate_campaign
    from factionsim.rulesets import build_campaign

    planner = PlannerAgent(budget=budget, horizon=horizon, leaf=leaf)
    gaps = []
    for g, cs in enumerate(campaign_seeds):
        state = build_campaign(generate_campaign(4, 10, int(cs)), {}, f"generated {cs}")
        state.max_turns = state.turn + turns
        rng = np.random.default_rng([seed, g])
        heuristic = HeuristicAgent()
        for _ in range(500_000):
            actor = state.current_actor()
            if actor is None or state.is_over():
                break
            view, legal = state.view(actor), state.legal_actions()
            own = heuristic.act(view, legal, rng)
            candidates = planner.candidates(view, legal)
            if len(candidates) >= 2 and own in candidates:
                values = planner._search(view, candidates, np.random.default_rng(
                    int(rng.integers(1 << 62))))
                gaps.append(max(values.values()) - values[own])
            state.apply(own)
    return np.asarray(gaps, np.float64)


def matched_margin(learned: np.ndarray, handmade: np.ndarray, margin: float) -> tuple[float, float]:
    """``(learned margin, departure rate)``: the margin at which a search whose gaps are
    ``learned`` leaves the heuristic's choice as often as one whose gaps are ``handmade`` does at
    ``margin`` (it departs where the gap reaches the margin)."""
    rate = float((handmade >= margin).mean())
    if rate <= 0:
        return float(learned.max(initial=0.0)) + 1e-9, 0.0
    return float(np.quantile(learned, 1.0 - rate)), rate
