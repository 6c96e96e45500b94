"""``--method advantage``: one step of policy iteration over the heuristic, learned.

The planner (``agents/planner.py``) tries each of its candidates at a faction action or a goal
in a rollout: the candidate, then the heuristic for every faction until the end of the next
turn, scored by :func:`~agents.planner.rollout_value`. A rollout's value is a sample of
``Q_heuristic(s, a)``. Instead of imitating the planner's winner (one noisy rollout per
candidate makes its argmax mostly noise: docs/training.md, "Imitating the planner where it
departs from the heuristic"), this method records the value of *every* candidate and regresses
the **advantage** of each over the heuristic's own choice, ``A(s, a) = Q(s, a) - Q(s, h)``: a
least-squares fit averages the rollouts' noise over many states, which an argmax label cannot.

- :class:`PlannerValues` is the expert of the data games: it plays the heuristic's choice (the
  games are the heuristic's, every seat of them ``--learner-seats``) and, where the planner
  would search, gives ``--expert-rollouts`` rollouts to each candidate and to the heuristic's
  choice with the same dice (common random numbers), keeping ``last_values``: each candidate's
  mean value minus the heuristic choice's.
- :class:`ValueStore` keeps, beside the :class:`~.samples.SampleBuffer` of those decisions,
  their candidates (catalogue indices) and advantages.
- :func:`fit_advantage` trains the residual network's *correction* (its output less the prior)
  to ``--advantage-scale`` times the advantage, at the candidates only (the heuristic's choice:
  0); :func:`margin_table` says on decisions held out of the fit what playing the argmax would
  gain for several margins.

The policy (``prior`` ``{"agent": "heuristic", "weight": W, "candidates": "planner"}``) plays
the heuristic wherever the planner would not search and elsewhere chooses among the planner's
candidates with logits ``W`` at the heuristic's choice plus ``scale`` times the estimated
advantage: played greedily it departs from the heuristic only where a candidate's estimated
advantage exceeds the heuristic's by ``W / scale`` (in rollout value, XP). The network does not
read ``W`` (the prior only enters its last ``add``), so the margin can be chosen after training.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .args import OptionError

#: the expert name :class:`~.imitation.AgentRef` makes a :class:`PlannerValues` for
VALUE_EXPERT = "planner-values"


class PlannerValues:
    """Plays the heuristic; where the planner would search, records every candidate's
    rollout value minus the heuristic choice's (``last_values``: action -> advantage; ``None``
    where nothing is searched). ``rollouts``: rollouts per candidate (the same dice seeds for
    every candidate); ``horizon`` 1 (rollouts to the end of the next turn: the planner's default
    when the shipped policy was trained, kept so that a documented run gives the same data); the
    planner's other options (``width``, ``discount``) as the planner takes them."""

    def __init__(self, rollouts: int = 2, horizon: int = 1, **planner_options: Any):
        from factionsim.agents.planner import PlannerAgent

        if rollouts < 1:
            raise OptionError(f"--expert-rollouts {rollouts}: at least 1")
        self.rollouts = int(rollouts)
        self.planner = PlannerAgent(horizon=horizon, **planner_options)
        self.last_values: dict[Any, float] | None = None
        self.last_reason: str | None = None

    def searches(self, view: Any, legal: list[Any]) -> bool:
        return self.planner.searches(view, legal)

    def act(self, view: Any, legal: list[Any], rng: np.random.Generator) -> Any:
        own = self.planner._heuristic_choice(view, legal, rng)
        candidates = self.planner.candidates(view, legal)
        self.last_values = None
        if len(candidates) < 2:
            return own
        tried = list(candidates) + ([own] if own not in candidates else [])
        seeds = [int(x) for x in rng.integers(0, 2**63 - 1, size=self.rollouts)]
        value = {c: float(np.mean([self.planner._rollout(view, c, s) for s in seeds]))
                 for c in tried}
        self.last_values = {c: value[c] - value[own] for c in tried}
        return own


class ValueStore:
    """Candidates (catalogue indices) and their advantages, one entry per stored decision, in
    the order of the :class:`~.samples.SampleBuffer` beside it.

    >>> s = ValueStore()
    >>> s.add([np.array([1, 3])], [np.array([0.0, 0.5])])
    >>> mask, adv = s.batch(np.array([0]), n_actions=4)
    >>> mask.tolist(), adv.tolist()
    ([[False, True, False, True]], [[0.0, 0.0, 0.0, 0.5]])
    """

    def __init__(self) -> None:
        self.candidates: list[np.ndarray] = []
        self.advantages: list[np.ndarray] = []

    def __len__(self) -> int:
        return len(self.candidates)

    def add(self, candidates: Sequence[np.ndarray], advantages: Sequence[np.ndarray]) -> None:
        self.candidates.extend(np.asarray(c, np.int64) for c in candidates)
        self.advantages.extend(np.asarray(a, np.float32) for a in advantages)

    def extend(self, other: ValueStore) -> None:
        self.add(other.candidates, other.advantages)

    def batch(self, ids: np.ndarray, n_actions: int) -> tuple[np.ndarray, np.ndarray]:
        """Boolean candidate masks and advantages (0 off the candidates), ``(len(ids),
        n_actions)`` each."""
        mask = np.zeros((len(ids), n_actions), bool)
        adv = np.zeros((len(ids), n_actions), np.float32)
        for row, i in enumerate(ids):
            mask[row, self.candidates[i]] = True
            adv[row, self.candidates[i]] = self.advantages[i]
        return mask, adv


def save_data(path: Any, buf: Any, store: ValueStore) -> None:
    """Write the valued decisions (``buf``: a :class:`~.samples.SampleBuffer`, and ``store``) as
    one ``.npz`` of plain arrays, so a fit can be redone without playing the games again
    (:func:`load_data`)."""
    lens = np.array([len(c) for c in store.candidates], np.int64)
    np.savez_compressed(path, values=buf.values, cols=buf.cols, obs_ptr=buf.obs_ptr,
                        legal=buf.legal, legal_ptr=buf.legal_ptr, target=buf.target,
                        sizes=np.array([buf.obs_size, buf.n_actions]), lens=lens,
                        candidates=np.concatenate(store.candidates) if len(lens) else lens,
                        advantages=np.concatenate(store.advantages) if len(lens) else
                        np.zeros(0, np.float32))


def load_data(path: Any) -> tuple[Any, ValueStore]:
    """What :func:`save_data` wrote."""
    from .samples import SampleBuffer

    z = np.load(path)
    buf = SampleBuffer(int(z["sizes"][0]), int(z["sizes"][1]), capacity=1 << 62)
    for name in ("values", "cols", "obs_ptr", "legal", "legal_ptr", "target"):
        setattr(buf, name, z[name])
    store = ValueStore()
    cuts = np.cumsum(z["lens"])[:-1]
    store.add(np.split(z["candidates"], cuts), np.split(z["advantages"], cuts))
    return buf, store


def corrections(graph: Any, obs: np.ndarray, prior_offset: int) -> Any:
    """The network's output less the prior (a torch tensor): its advantage estimates, scaled."""
    import torch

    x = torch.as_tensor(obs)
    return graph(x) - x[:, prior_offset:]


def fit_advantage(graph: Any, optimizer: Any, buf: Any, store: ValueStore, ids: np.ndarray,
                  steps: int, batch: int, rng: np.random.Generator, scale: float,
                  prior_offset: int) -> dict[str, float]:
    """``steps`` minibatches (drawn from ``ids``) of the squared error between the correction
    and ``scale`` x the advantage, at each decision's candidates; the mean loss."""
    import torch

    total = 0.0
    for _ in range(steps):
        pick = ids[rng.integers(len(ids), size=batch)]
        obs, _, _ = buf.batch(pick)
        mask, adv = store.batch(pick, buf.n_actions)
        m = torch.as_tensor(mask)
        err = (corrections(graph, obs, prior_offset) - scale * torch.as_tensor(adv)) ** 2
        loss = (err * m).sum() / m.sum()
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(graph.parameters(), 1.0)
        optimizer.step()
        total += float(loss.detach())
    return {"loss": total / max(1, steps)}


def margin_table(graph: Any, buf: Any, store: ValueStore, ids: np.ndarray, scale: float,
                 prior_offset: int, margins: Sequence[float]) -> dict[str, Any]:
    """On the decisions ``ids`` (held out of the fit): the squared error of the estimates
    against that of estimating 0 everywhere (``mse``, ``mse_zero``, in advantage units), and for
    each margin (XP) what greedy play would do: the share of decisions at which it departs from
    the heuristic and the mean recorded advantage of what it plays (per decision: a sample of
    the gain over the heuristic; the recorded values are those of the data games' rollouts)."""
    import torch

    if not len(ids):
        return {"decisions": 0}
    with torch.no_grad():
        obs, _, target = buf.batch(ids)
        est = corrections(graph, obs, prior_offset).numpy() / scale
    mask, adv = store.batch(ids, buf.n_actions)
    err = ((est - adv) ** 2)[mask].mean()
    rows = []
    for m in margins:
        gains, departs = [], 0
        for j in range(len(ids)):
            cands = np.flatnonzero(mask[j])
            score = est[j, cands] + m * (cands == target[j])
            k = int(cands[int(np.argmax(score))])
            departs += k != target[j]
            gains.append(adv[j, k])
        rows.append({"margin": float(m), "departures": departs / len(ids),
                     "mean_gain": float(np.mean(gains))})
    best = float(np.mean(adv.max(axis=1, where=mask, initial=-np.inf)))
    return {"decisions": int(len(ids)), "mse": float(err), "mse_zero": float((adv[mask] ** 2).mean()),
            "oracle_gain": best, "margins": rows}
