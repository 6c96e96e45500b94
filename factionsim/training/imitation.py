"""Imitation: behaviour cloning of an expert, then DAgger on the policy's own games.

One round (:func:`collect`, run in worker processes): games of generated (or the run's)
campaigns in which the *learner* holds one or more seats and registry agents the others; at every
decision of a learner seat the expert (``heuristic``, or ``planner`` with a small budget) says
what it would do, and that is the label. What is *played* there is the expert's action with
probability ``beta`` and otherwise the policy's own sample (DAgger: with ``beta`` < 1 the policy
visits the states its own mistakes lead to, and learns what the expert would do there; ``beta`` =
1 is plain behaviour cloning). The labelled decisions go to a :class:`~.samples.SampleBuffer`;
:func:`fit` trains the network on it with the masked cross-entropy (the softmax over the legal
actions only, as the policy plays).

With ``searched_only`` (``--expert-labels searched``) only the decisions the expert *searches*
are labelled (the planner's faction action and goal, where it looks ahead; everywhere else it
plays its heuristic's choice, which a residual policy's prior already is): the other decisions
of the learner's seats are played by the policy's own sample (by the expert in behaviour
cloning) and not labelled. For a residual policy the labels then say exactly where the expert
departs from the prior and where it agrees, and :func:`fit` reports its accuracy on the
departures apart. Nothing then holds the network's output at the unlabelled decisions: fitting
the searched ones moves it there too (measured in docs/training.md, "Imitating the planner
where it departs from the heuristic": far worse than labelling every decision, where the
planner's label is its heuristic's choice, i.e. the prior's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .games import PLAY_EXPERT, Campaigns, Decision, GameResult, Games, game
from .samples import SampleBuffer


@dataclass
class AgentRef:
    """A registry agent by name and options (what a worker makes for itself)."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> AgentRef:
        """``planner@budget=4,width=3`` -> ``AgentRef("planner", {"budget": 4, "width": 3})``

        >>> AgentRef.parse("planner@budget=4").options, AgentRef.parse("heuristic").name
        ({'budget': 4}, 'heuristic')
        """
        name, _, opts = text.partition("@")
        options: dict[str, Any] = {}
        for item in filter(None, opts.split(",")):
            key, _, value = item.partition("=")
            try:
                options[key] = int(value)
            except ValueError:
                try:
                    options[key] = float(value)
                except ValueError:
                    options[key] = value
        return cls(name, options)

    def make(self, ruleset: str) -> Any:
        from factionsim.agents import make_agent

        from .advantage import VALUE_EXPERT, PlannerValues

        if self.name == VALUE_EXPERT:  # the advantage method's expert (not a registry agent)
            return PlannerValues(**self.options)

        return make_agent(self.name, ruleset, **self.options)


@dataclass
class CollectTask:
    """One worker's share of a round (plain data: it is sent to a worker process)."""

    ruleset: str
    campaign: str | None
    generated: float
    turns: int
    network: tuple[dict[str, Any], dict[str, np.ndarray]] | None  # None: the expert plays
    expert: AgentRef
    opponents: list[AgentRef]
    learner_seats: tuple[int, int]  # the learner holds between these many seats (inclusive)
    beta: float
    games: int
    seed: int
    deterministic: bool = False
    prior: dict[str, Any] | None = None  # a residual policy's prior (the policy file's field)
    generated_seeds: tuple[int, int] | None = None  # the generated campaigns' seeds (None: any)
    searched_only: bool = False  # label only the decisions the expert searches (see above)
    valued: bool = False  # keep only the decisions the expert valued, with their values


@dataclass
class CollectResult:
    samples: SampleBuffer
    games: int
    decisions: int  # labelled decisions of the learner's seats
    agree: int  # labelled decisions at which the policy's sample was the expert's choice
    wins: float  # learner's pairwise share: its best seat above the others' best seat
    outcomes: list[float]
    prior_agree: int = 0  # labels that are the prior's choice (a residual policy's; else 0)
    values: Any = None  # --method advantage: a .advantage.ValueStore beside ``samples``


def prior_choices(obs: np.ndarray, legal: list[np.ndarray], offset: int) -> np.ndarray:
    """For each row of ``obs`` (a residual policy's observations: the prior from column
    ``offset`` on, one value per action of the catalogue), the catalogue index of the prior's
    choice among the row's ``legal`` ones (-1: the prior gives none of them).

    >>> obs = np.array([[9, 0, 0, 6], [9, 0, 0, 0]], np.float32)
    >>> prior_choices(obs, [np.array([0, 2]), np.array([0, 1])], 1).tolist()
    [2, -1]
    """
    out = np.full(len(obs), -1, np.int64)
    for j, lg in enumerate(legal):
        values = obs[j, offset + np.asarray(lg)]
        if len(values) and values.max() > 0:
            out[j] = int(lg[int(np.argmax(values))])
    return out


def sample_positions(logits: np.ndarray, legal: list[np.ndarray], rng: np.random.Generator,
                     deterministic: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """For each row: a position in ``legal[row]`` drawn from the softmax over the legal logits
    (or the most probable one), and its log-probability."""
    positions = np.zeros(len(legal), np.int64)
    logp = np.zeros(len(legal))
    for j, lg in enumerate(legal):
        z = logits[j, lg]
        z = z - z.max()
        p = np.exp(z)
        p /= p.sum()
        k = int(np.argmax(p)) if deterministic else int(rng.choice(len(p), p=p))
        positions[j], logp[j] = k, np.log(p[k])
    return positions, logp


def numpy_decider(network: Any, rng: np.random.Generator, deterministic: bool = False) -> Any:
    """A :class:`~.games.Games` decider playing a numpy :class:`~factionsim.models.network.Network`."""
    def decide(obs: np.ndarray, legal: list[np.ndarray]) -> tuple[np.ndarray, dict[str, Any]]:
        positions, _ = sample_positions(network(obs), legal, rng, deterministic)
        return positions, {}
    return decide


def _first_choice(obs: np.ndarray, legal: list[np.ndarray]) -> tuple[np.ndarray, dict[str, Any]]:
    return np.zeros(len(legal), np.int64), {}


def pairwise_share(result: GameResult, learner: set[str]) -> float:
    """1 if the learner's best seat finished above every other agent's best seat, 0.5 on a tie,
    0 otherwise (the tournament's pairwise share with two players)."""
    mine = max(result.scores[f] for f in learner)
    theirs = max((v for f, v in result.scores.items() if f not in learner), default=-1e9)
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def collect(task: CollectTask) -> CollectResult:
    """Play ``task.games`` games; return the learner seats' decisions labelled by the expert."""
    from factionsim.models.network import Network

    rng = np.random.default_rng(task.seed)
    source = Campaigns(task.ruleset, task.campaign, task.generated, task.prior,
                       task.generated_seeds)
    codec = source.codec
    expert = task.expert.make(task.ruleset)
    opponents = [ref.make(task.ruleset) for ref in task.opponents]
    buf = SampleBuffer(codec.obs_size, codec.n_actions, capacity=1 << 62)
    stats = {"games": 0, "decisions": 0, "agree": 0, "wins": 0.0, "prior_agree": 0}
    offset = codec.base.obs_size if task.prior else None
    outcomes: list[float] = []
    store = None
    if task.valued:
        from .advantage import ValueStore

        store = ValueStore()

    def new_game(rng: np.random.Generator, gid: int) -> Any:
        state = source.draw(rng)
        factions = list(state.factions)
        k = int(rng.integers(task.learner_seats[0], task.learner_seats[1] + 1))
        mine = set(rng.choice(factions, size=min(k, len(factions)), replace=False).tolist())
        seats = {f: ("net", "learner") if f in mine else opponents[int(rng.integers(len(opponents)))]
                 for f in factions}
        return game(state, source.codec_for(state), seats, rng, task.turns, expert=expert,
                    watched=mine, game_id=gid, searched_only=task.searched_only)

    def choose(d: Decision, pos: int) -> int:
        if not d.labelled:  # not searched: the policy plays it (the expert in cloning)
            return PLAY_EXPERT if task.network is None else pos
        stats["decisions"] += 1
        stats["agree"] += pos == d.expert
        if d.expert < 0 or rng.random() < task.beta:
            return PLAY_EXPERT
        return pos

    class Collector(Games):
        def on_game_end(self, decisions: list[tuple[Decision, int, dict[str, Any]]],
                        result: GameResult) -> None:
            labelled = [d for d, _, _ in decisions if d.labelled and d.expert >= 0
                        and (store is None or d.values is not None)]
            if store is not None:  # only the decisions the expert valued, with their values
                store.add([d.values[0] for d in labelled], [d.values[1] for d in labelled])
            if labelled:
                obs = np.stack([d.obs for d in labelled])
                target = np.array([d.legal[d.expert] for d in labelled])
                buf.add(obs, [d.legal for d in labelled], target)
                if offset is not None:
                    prior = prior_choices(obs, [d.legal for d in labelled], offset)
                    stats["prior_agree"] += int((prior == target).sum())
            stats["games"] += 1
            learner = {f for f, s in result.seats.items() if isinstance(s, tuple)}
            stats["wins"] += pairwise_share(result, learner)
            outcomes.extend(result.outcome[f] for f in learner)

    decider = _first_choice if task.network is None else numpy_decider(
        Network.from_spec(task.network[0], task.network[1], codec.obs_size), rng,
        task.deterministic)
    games = Collector(min(16, task.games), new_game, {"learner": decider}, rng, choose)
    games.run(lambda: games.next_id >= task.games)
    return CollectResult(buf, stats["games"], stats["decisions"], stats["agree"], stats["wins"],
                         outcomes, stats["prior_agree"], store)


def fit(graph: Any, optimizer: Any, buf: SampleBuffer, steps: int, batch: int,
        rng: np.random.Generator, prior_offset: int | None = None) -> dict[str, float]:
    """``steps`` minibatches of masked cross-entropy on ``buf``; mean loss and accuracy (the
    most probable legal action is the target). With ``prior_offset`` (a residual policy: where
    the prior starts in the observation) also ``departures`` (the share of the minibatches'
    labels that are not the prior's choice) and ``departure_accuracy`` (the accuracy on those,
    ``None`` if there were none)."""
    import torch

    total_loss = total_acc = 0.0
    dep_n = dep_hit = seen = 0
    for _ in range(steps):
        ids = rng.integers(len(buf), size=batch)
        obs, mask, target = buf.batch(ids)
        mask_t = torch.as_tensor(mask)
        logits = graph(torch.as_tensor(obs)).masked_fill(~mask_t, -1e9)
        target_t = torch.as_tensor(target, dtype=torch.long)
        loss = torch.nn.functional.cross_entropy(logits, target_t)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(graph.parameters(), 1.0)
        optimizer.step()
        total_loss += float(loss.detach())
        hits = (logits.argmax(dim=1) == target_t).numpy()
        total_acc += float(hits.mean())
        if prior_offset is not None:
            prior = prior_choices(obs, [np.flatnonzero(m) for m in mask], prior_offset)
            departs = prior != target
            dep_n += int(departs.sum())
            dep_hit += int(hits[departs].sum())
            seen += len(target)
    stats: dict[str, Any] = {"loss": total_loss / max(1, steps),
                             "accuracy": total_acc / max(1, steps)}
    if prior_offset is not None:
        stats["departures"] = dep_n / max(1, seen)
        stats["departure_accuracy"] = dep_hit / dep_n if dep_n else None
    return stats
