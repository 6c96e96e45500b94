"""PPO against a league: the learner's games, played in worker processes, and the update.

A rollout (:func:`rollout`, one per worker per update) plays whole games until it holds about
``decisions`` learner decisions. In each game the learner holds one or more seats and one
opponent drawn from the league holds the others (a registry agent such as ``heuristic`` or
``planner@budget=4``, or a frozen earlier copy of the learner); the decisions of every network
in a worker's games are answered together, one batched numpy forward pass per network.

Each learner seat's decisions are one episode. The reward of a decision is the change of the
seat's standing (own score minus the best rival's) until its next decision, times ``shaping``,
plus, on its last decision, the game's outcome for it (+1 the sole best score, 0 shared, -1
otherwise), as the env rewards (:mod:`factionsim.envs`).

The update (:func:`ppo_update`) recomputes the old log-probabilities and values in the main
process (the weights that played), then runs clipped PPO with a value head over the policy's
``context`` layer (:mod:`.nets`), masked to the legal actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .games import Campaigns, Decision, GameResult, Games, game
from .imitation import AgentRef, pairwise_share, sample_positions
from .samples import SampleBuffer


@dataclass
class Opponent:
    """A league member: a registry agent (``agent``) or a frozen network (``network`` key)."""

    label: str
    weight: float
    agent: AgentRef | None = None
    network: str | None = None


@dataclass
class RolloutTask:
    ruleset: str
    campaign: str | None
    generated: float
    turns: int
    learner: tuple[dict[str, Any], dict[str, np.ndarray]]
    league: list[Opponent]
    frozen: dict[str, tuple[dict[str, Any], dict[str, np.ndarray]]]
    learner_seats: tuple[int, int]
    decisions: int
    seed: int
    shaping: float = 0.1
    prior: dict[str, Any] | None = None  # a residual policy's prior (the policy file's field)
    generated_seeds: tuple[int, int] | None = None  # the generated campaigns' seeds (None: any)


@dataclass
class RolloutResult:
    samples: SampleBuffer  # target: the catalogue index played
    rewards: np.ndarray
    dones: np.ndarray  # True on an episode's last decision
    games: int
    shares: dict[str, list[float]] = field(default_factory=dict)  # per opponent: pairwise
    outcomes: dict[str, list[float]] = field(default_factory=dict)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # the worker's CPU time (a figure a busy machine does not skew)


def episode_rewards(phis: list[float], final_phi: float, outcome: float,
                    shaping: float) -> np.ndarray:
    """Rewards of one seat's decisions (see the module docstring).

    >>> episode_rewards([0.0, 1.0, 0.5], 2.0, 1.0, 0.1).round(3).tolist()
    [0.1, -0.05, 1.15]
    """
    nxt = np.asarray(phis[1:] + [final_phi])
    r = shaping * (nxt - np.asarray(phis))
    r[-1] += outcome
    return r


def rollout(task: RolloutTask) -> RolloutResult:
    """Play the learner's games for one update (see the module docstring)."""
    import time

    from factionsim.models.network import Network

    t0, c0 = time.perf_counter(), time.process_time()
    rng = np.random.default_rng(task.seed)
    source = Campaigns(task.ruleset, task.campaign, task.generated, task.prior,
                       task.generated_seeds)
    codec = source.codec
    agents = {o.label: o.agent.make(task.ruleset) for o in task.league if o.agent is not None}
    nets = {"learner": Network.from_spec(*task.learner, codec.obs_size)}
    for key, (spec, arrays) in task.frozen.items():
        nets[key] = Network.from_spec(spec, arrays, codec.obs_size)
    weights = np.array([o.weight for o in task.league], dtype=float)
    weights /= weights.sum()
    buf = SampleBuffer(codec.obs_size, codec.n_actions, capacity=1 << 62)
    rewards: list[np.ndarray] = []
    dones: list[np.ndarray] = []
    shares: dict[str, list[float]] = {}
    outcomes: dict[str, list[float]] = {}
    count = {"decisions": 0, "games": 0}
    opponent_of: dict[int, str] = {}

    def new_game(rng: np.random.Generator, gid: int) -> Any:
        state = source.draw(rng)
        factions = list(state.factions)
        k = int(rng.integers(task.learner_seats[0], task.learner_seats[1] + 1))
        mine = set(rng.choice(factions, size=min(k, len(factions) - 1), replace=False).tolist())
        opp = task.league[int(rng.choice(len(task.league), p=weights))]
        opponent_of[gid] = opp.label
        other = agents[opp.label] if opp.agent is not None else ("net", opp.network)
        seats = {f: ("net", "learner") if f in mine else other for f in factions}
        return game(state, source.codec_for(state), seats, rng, task.turns, game_id=gid)

    def decider(net: Any) -> Any:
        def decide(obs: np.ndarray, legal: list[np.ndarray]) -> tuple[np.ndarray, dict]:
            positions, _ = sample_positions(net(obs), legal, rng)
            return positions, {}
        return decide

    class Rollout(Games):
        def on_game_end(self, decisions: list[tuple[Decision, int, dict[str, Any]]],
                        result: GameResult) -> None:
            label = opponent_of.pop(result.game_id)
            learner = {f for f, s in result.seats.items() if s == ("net", "learner")}
            shares.setdefault(label, []).append(pairwise_share(result, learner))
            count["games"] += 1
            for seat in learner:
                mine = [(d, pos) for d, pos, _ in decisions
                        if d.seat == seat and d.network == "learner"]
                outcomes.setdefault(label, []).append(result.outcome[seat])
                if not mine:
                    continue
                buf.add(np.stack([d.obs for d, _ in mine]), [d.legal for d, _ in mine],
                        np.array([d.legal[pos] for d, pos in mine]))
                rewards.append(episode_rewards([d.phi for d, _ in mine], result.phi[seat],
                                               result.outcome[seat], task.shaping))
                done = np.zeros(len(mine), bool)
                done[-1] = True
                dones.append(done)
                count["decisions"] += len(mine)

    games = Rollout(16, new_game, {k: decider(n) for k, n in nets.items()}, rng)
    games.run(lambda: count["decisions"] + 100 * len(games.running) >= task.decisions)
    return RolloutResult(buf, np.concatenate(rewards).astype(np.float32),
                         np.concatenate(dones), count["games"], shares, outcomes,
                         time.perf_counter() - t0, time.process_time() - c0)


def gae(rewards: np.ndarray, values: np.ndarray, dones: np.ndarray, gamma: float,
        lam: float) -> tuple[np.ndarray, np.ndarray]:
    """Advantages and returns of consecutive episodes (each ends where ``dones`` is True;
    nothing is bootstrapped past an episode's end).

    >>> adv, ret = gae(np.array([0., 1.]), np.array([0., 0.]), np.array([False, True]), 1.0, 1.0)
    >>> adv.tolist(), ret.tolist()
    ([1.0, 1.0], [1.0, 1.0])
    """
    adv = np.zeros_like(rewards)
    last = 0.0
    for t in range(len(rewards) - 1, -1, -1):
        next_value = 0.0 if dones[t] else values[t + 1]
        if dones[t]:
            last = 0.0
        delta = rewards[t] + gamma * next_value - values[t]
        last = delta + gamma * lam * last
        adv[t] = last
    return adv, adv + values


class ValueHead:
    """A small MLP over the policy's (detached) context: the critic of PPO."""

    def __init__(self, width: int, hidden: int = 128):
        import torch

        self.net = torch.nn.Sequential(torch.nn.Linear(width, hidden), torch.nn.ReLU(),
                                       torch.nn.Linear(hidden, 1))

    def __call__(self, context: Any) -> Any:
        return self.net(context.detach()).squeeze(-1)


@dataclass
class PPOSettings:
    learning_rate: float = 1e-4
    epochs: int = 2
    batch_size: int = 512
    clip: float = 0.15
    gamma: float = 0.995
    lam: float = 0.95
    ent_coef: float = 0.003
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    value_only: bool = False  # warm the critic up: the policy is not changed


def masked_log_softmax(logits: Any, mask: Any) -> Any:
    """Log-probabilities of the softmax over the legal actions (``mask`` True); the illegal
    ones get ``-inf`` (probability exactly 0, as any large negative fill gives in float32;
    ``-inf`` is the fill whose ``exp`` is cheapest)."""
    import torch

    return torch.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=1)


def ppo_optimizer(graph: Any, value: ValueHead, learning_rate: float) -> Any:
    """Adam over the policy's and the value head's weights (torch's fused implementation: one
    pass over the weights per step instead of one per operation)."""
    import torch

    return torch.optim.Adam([*graph.parameters(), *value.net.parameters()], lr=learning_rate,
                            fused=True)


def ppo_update(graph: Any, value: ValueHead, optimizer: Any, buf: SampleBuffer,
               rewards: np.ndarray, dones: np.ndarray, s: PPOSettings,
               rng: np.random.Generator) -> dict[str, float]:
    """One PPO update over a rollout (see the module docstring); returns its statistics."""
    import torch

    n = len(buf)
    ids = np.arange(n)
    old_logp = np.zeros(n, np.float32)
    values = np.zeros(n, np.float32)
    # the rollout as dense arrays once (not once per minibatch and epoch)
    all_obs, all_mask, all_target = buf.batch(ids)
    with torch.no_grad():
        for start in range(0, n, 1024):
            chunk = ids[start:start + 1024]
            obs, mask, target = all_obs[chunk], all_mask[chunk], all_target[chunk]
            logits, inner = graph(torch.as_tensor(obs), outputs=("context",))
            logp = masked_log_softmax(logits, torch.as_tensor(mask))
            old_logp[chunk] = logp.gather(1, torch.as_tensor(target, dtype=torch.long)[:, None]
                                          ).squeeze(1).numpy()
            values[chunk] = value(inner["context"]).numpy()
    adv, returns = gae(rewards, values, dones, s.gamma, s.lam)
    stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "clip_frac": 0.0,
             "approx_kl": 0.0}
    batches = 0
    for _ in range(s.epochs):
        order = rng.permutation(n)
        for start in range(0, n, s.batch_size):
            chunk = order[start:start + s.batch_size]
            obs, mask, target = all_obs[chunk], all_mask[chunk], all_target[chunk]
            mask_t = torch.as_tensor(mask)
            logits, inner = graph(torch.as_tensor(obs), outputs=("context",))
            logp_all = masked_log_softmax(logits, mask_t)
            logp = logp_all.gather(1, torch.as_tensor(target, dtype=torch.long)[:, None]
                                   ).squeeze(1)
            a = torch.as_tensor(adv[chunk])
            a = (a - a.mean()) / (a.std() + 1e-8)
            ratio = torch.exp(logp - torch.as_tensor(old_logp[chunk]))
            policy_loss = -torch.min(ratio * a, ratio.clamp(1 - s.clip, 1 + s.clip) * a).mean()
            p = logp_all.exp()
            entropy = -(p * logp_all.masked_fill(~mask_t, 0.0)).sum(dim=1).mean()
            v = value(inner["context"])
            value_loss = ((v - torch.as_tensor(returns[chunk])) ** 2).mean()
            loss = s.vf_coef * value_loss
            if not s.value_only:
                loss = loss + policy_loss - s.ent_coef * entropy
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(optimizer.param_groups[0]["params"], s.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                stats["policy_loss"] += float(policy_loss)
                stats["value_loss"] += float(value_loss)
                stats["entropy"] += float(entropy)
                stats["clip_frac"] += float(((ratio - 1).abs() > s.clip).float().mean())
                stats["approx_kl"] += float((torch.as_tensor(old_logp[chunk]) - logp).mean())
            batches += 1
    return {k: v / max(1, batches) for k, v in stats.items()}
